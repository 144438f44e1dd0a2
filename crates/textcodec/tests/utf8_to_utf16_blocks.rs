//! UTF-8 to UTF-16 at the edges of the SIMD blocks (64 bytes and 16 bytes), under every
//! dispatch level the CPU supports: random mixes of one- to four-byte characters and
//! malformed sequences, long enough for several blocks, decoded whole, in two pieces and into
//! small output buffers, each compared with encoding_rs.
//!
//! Its own test binary, because the dispatch level is global.

use textcodec::dispatch::{detected_level, set_level, Level};
use textcodec::{BomHandling, DecoderOptions, Encoding, Status};

mod common;
use common::Rng;

const VALID: &[&str] = &[
    "a",
    " ",
    "<p class=\"x\">",
    "é",
    "ж",
    "\u{7FF}",
    "火",
    "星",
    "ก",
    "한",
    "\u{800}",
    "\u{D7FF}",
    "\u{E000}",
    "\u{FFFF}",
    "\u{FEFF}",
    "😀",
    "\u{10000}",
    "\u{10FFFF}",
];

const INVALID: &[&[u8]] = &[
    b"\x80",
    b"\xBF",
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xC2",
    b"\xE4\xB8",
    b"\xE0\x80\x80",
    b"\xE0\x9F\xBF",
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xF0\x80\x80\x80",
    b"\xF0\x9F\x98",
    b"\xF4\x90\x80\x80",
    b"\xF5",
    b"\xFF",
    b"\xE0",
];

/// A run of characters drawn mostly from a few pieces (as in text of one script), with a
/// malformed sequence now and then.
fn input(rng: &mut Rng) -> Vec<u8> {
    let len = 1 + rng.below(400);
    let palette: Vec<&str> = (0..1 + rng.below(4))
        .map(|_| VALID[rng.below(VALID.len())])
        .collect();
    let bad_rate = [0, 0, 50, 400][rng.below(4)];
    let mut b = Vec::new();
    while b.len() < len {
        if bad_rate != 0 && rng.below(bad_rate) == 0 {
            b.extend_from_slice(INVALID[rng.below(INVALID.len())]);
        } else if rng.below(16) == 0 {
            b.extend_from_slice(VALID[rng.below(VALID.len())].as_bytes());
        } else {
            b.extend_from_slice(palette[rng.below(palette.len())].as_bytes());
        }
    }
    b
}

fn options() -> DecoderOptions {
    DecoderOptions {
        bom: BomHandling::Keep,
        ..Default::default()
    }
}

/// Decodes `bytes` in the pieces cut at `split`, into output buffers of `room` units.
fn decode_tc(bytes: &[u8], split: usize, room: usize) -> Vec<u16> {
    let mut d = Encoding::for_label(b"utf-8")
        .unwrap()
        .new_decoder(options());
    let mut out = Vec::new();
    let mut buf = vec![0u16; room];
    for (piece, last) in [(&bytes[..split], false), (&bytes[split..], true)] {
        let mut pos = 0;
        loop {
            let p = d.decode_to_utf16(&piece[pos..], &mut buf, last).unwrap();
            out.extend_from_slice(&buf[..p.written]);
            pos += p.read;
            if p.status == Status::InputEmpty {
                break;
            }
            assert!(p.read + p.written > 0, "no progress with room {room}");
        }
    }
    out
}

#[test]
fn utf8_to_utf16_agrees_with_encoding_rs_at_block_edges() {
    let best = detected_level();
    let levels = common::dispatch_levels();
    for &level in &levels {
        assert_eq!(set_level(level), level);
        let mut rng = Rng::new(0xB10C_0000 + level as u64);
        for round in 0..3000 {
            let bytes = input(&mut rng);
            let (want, _) = encoding_rs::UTF_8.decode_without_bom_handling(&bytes);
            let want: Vec<u16> = want.encode_utf16().collect();
            let split = if round % 2 == 0 {
                bytes.len()
            } else {
                rng.below(bytes.len() + 1)
            };
            for room in [
                2,
                3,
                5,
                15,
                16,
                17,
                63,
                64,
                65,
                79,
                80,
                81,
                100 + rng.below(60),
                bytes.len() + 4,
            ] {
                let got = decode_tc(&bytes, split, room);
                assert!(
                    got == want,
                    "{level:?} room {room} split {split}: {bytes:02X?}\n got {got:04X?}\nwant {want:04X?}"
                );
            }
        }
        short_inputs_at_every_cut(level, &mut rng);
    }
    set_level(best);
}

/// Short inputs (the kernel converts the last fewer than sixteen bytes of an input of at least
/// sixteen with a load that ends at the input's end): every prefix of random mixes of 16 to
/// 80 bytes, so that the input ends at every place in and between characters, decoded whole
/// and split in two.
fn short_inputs_at_every_cut(level: Level, rng: &mut Rng) {
    for _ in 0..300 {
        let len = 16 + rng.below(64);
        let palette: Vec<&str> = (0..1 + rng.below(4))
            .map(|_| VALID[rng.below(VALID.len())])
            .collect();
        let mut bytes = Vec::new();
        while bytes.len() < len {
            if rng.below(40) == 0 {
                bytes.extend_from_slice(INVALID[rng.below(INVALID.len())]);
            } else {
                bytes.extend_from_slice(palette[rng.below(palette.len())].as_bytes());
            }
        }
        for end in 0..=bytes.len() {
            let cut = &bytes[..end];
            let (want, _) = encoding_rs::UTF_8.decode_without_bom_handling(cut);
            let want: Vec<u16> = want.encode_utf16().collect();
            for split in [end, rng.below(end + 1)] {
                for room in [end + 4, 16 + rng.below(20)] {
                    let got = decode_tc(cut, split, room);
                    assert!(
                        got == want,
                        "{level:?} room {room} split {split}: {cut:02X?}\n got {got:04X?}\nwant {want:04X?}"
                    );
                }
            }
        }
    }
}

/// A malformed sequence at each place around the edges of the first blocks of 64 bytes (as
/// the AVX-512 kernel cuts them, from the first byte that is not ASCII), among characters of
/// one script: a stray continuation byte, a lead cut short by a lead or by ASCII, a bad
/// second byte (an overlong or a surrogate), a four-byte character; each decoded whole and
/// into small buffers, compared with encoding_rs.
#[test]
fn utf8_to_utf16_blocks_stop_at_a_stray_continuation_byte_near_a_block_edge() {
    let best = detected_level();
    let fills: &[&[&str]] = &[
        &["é"],
        &["火"],
        &["ж", " "],
        &["火", "é", "a"],
        &["한", "글", " "],
    ];
    let damage: &[&[u8]] = &[
        b"\x80",
        b"\xBF",
        b"\xBF\xBF",
        b"\xC3",
        b"\xC3\xC3",
        b"\xE4\xB8",
        b"\xE4\xB8\xE4",
        b"\xE4",
        b"\xC0\x80",
        b"\xE0\x9F\xBF",
        b"\xED\xA0\x80",
        b"\xF0\x9F\x98\x80",
        b"\xF5\x80\x80",
    ];
    for &level in &common::dispatch_levels() {
        assert_eq!(set_level(level), level);
        for fill in fills {
            for at in (56..=72).chain(118..=136) {
                for bad in damage {
                    let mut bytes = Vec::new();
                    let mut k = 0;
                    while bytes.len() < at {
                        bytes.extend_from_slice(fill[k % fill.len()].as_bytes());
                        k += 1;
                    }
                    // The damage at `at` or just after it (the fill's characters are up to
                    // three bytes), then more of the fill.
                    bytes.extend_from_slice(bad);
                    while bytes.len() < 260 {
                        bytes.extend_from_slice(fill[k % fill.len()].as_bytes());
                        k += 1;
                    }
                    let (want, _) = encoding_rs::UTF_8.decode_without_bom_handling(&bytes);
                    let want: Vec<u16> = want.encode_utf16().collect();
                    for room in [bytes.len() + 4, 70, 130] {
                        let got = decode_tc(&bytes, bytes.len(), room);
                        assert!(
                            got == want,
                            "{level:?} room {room} at {at}: {bytes:02X?}\n got {got:04X?}\nwant {want:04X?}"
                        );
                    }
                }
            }
        }
    }
    set_level(best);
}
