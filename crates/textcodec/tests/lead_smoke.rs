//! Lead's quick check of the driver on the non-CJK codecs (exhaustive 1-2 byte inputs,
//! byte-at-a-time streaming) against encoding_rs.

mod support;
fn ours(enc: &'static textcodec::Encoding, input: &[u8]) -> String {
    let mut d = enc.new_decoder(textcodec::DecoderOptions {
        bom: textcodec::BomHandling::Keep,
        ..Default::default()
    });
    let mut s = String::new();
    d.decode_to_string(input, &mut s, true).unwrap();
    s
}

fn ours_bytewise(enc: &'static textcodec::Encoding, input: &[u8]) -> String {
    let mut d = enc.new_decoder(textcodec::DecoderOptions {
        bom: textcodec::BomHandling::Keep,
        ..Default::default()
    });
    let mut s = String::new();
    for b in input {
        d.decode_to_string(std::slice::from_ref(b), &mut s, false)
            .unwrap();
    }
    d.decode_to_string(&[], &mut s, true).unwrap();
    s
}

fn theirs(name: &str, input: &[u8]) -> String {
    let e = encoding_rs::Encoding::for_label(name.as_bytes()).unwrap();
    e.decode_without_bom_handling(input).0.into_owned()
}

#[test]
fn simple_decoders_match_encoding_rs() {
    for &enc in textcodec::Encoding::all() {
        if !matches!(
            enc.name(),
            "UTF-8" | "UTF-16LE" | "UTF-16BE" | "x-user-defined" | "replacement"
        ) && !enc.name().starts_with("windows")
            && !enc.name().starts_with("ISO-8859")
            && !enc.name().starts_with("KOI")
            && !matches!(enc.name(), "IBM866" | "macintosh" | "x-mac-cyrillic")
        {
            continue;
        }
        for a in 0..=255u8 {
            let one = [a];
            assert_eq!(
                ours(enc, &one),
                theirs(enc.name(), &one),
                "{} {one:02X?}",
                enc.name()
            );
            for b in 0..=255u8 {
                let two = [a, b];
                let want = theirs(enc.name(), &two);
                assert_eq!(ours(enc, &two), want, "{} {two:02X?}", enc.name());
                assert_eq!(
                    ours_bytewise(enc, &two),
                    want,
                    "bytewise {} {two:02X?}",
                    enc.name()
                );
            }
        }
    }
}

#[test]
fn utf8_three_and_four_bytes_match() {
    let mut rng = support::Rng::new(12345);
    for _ in 0..300_000 {
        let x = rng.next_u64() as u32;
        let bytes = [
            0xE0 | (x & 0x1F) as u8,
            (x >> 8) as u8,
            (x >> 16) as u8,
            (x >> 24) as u8,
            b'a',
        ];
        for n in 3..=5 {
            let want = theirs("utf-8", &bytes[..n]);
            assert_eq!(
                ours(textcodec::UTF_8, &bytes[..n]),
                want,
                "{:02X?}",
                &bytes[..n]
            );
            assert_eq!(
                ours_bytewise(textcodec::UTF_8, &bytes[..n]),
                want,
                "{:02X?}",
                &bytes[..n]
            );
        }
    }
}

#[test]
fn simple_encoders_match_encoding_rs_for_every_scalar() {
    let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    let utf16: Vec<u16> = all.encode_utf16().collect();
    for &enc in textcodec::Encoding::all() {
        let n = enc.name();
        let simple = n == "UTF-8"
            || n == "x-user-defined"
            || n.starts_with("windows")
            || n.starts_with("ISO-8859")
            || n.starts_with("KOI")
            || matches!(n, "IBM866" | "macintosh" | "x-mac-cyrillic");
        if !simple {
            continue;
        }
        let theirs = encoding_rs::Encoding::for_label(n.as_bytes()).unwrap();
        let (want, _, _) = theirs.encode(&all);
        let mut e = enc.new_encoder(textcodec::EncoderErrorMode::Html);
        let mut out = vec![0u8; e.max_buffer_length_from_utf8(all.len()).unwrap()];
        let p = e.encode_from_utf8(&all, &mut out, true).unwrap();
        assert_eq!(p.status, textcodec::Status::InputEmpty);
        assert!(out[..p.written] == want[..], "{n} from UTF-8");
        let mut e = enc.new_encoder(textcodec::EncoderErrorMode::Html);
        let mut out = vec![0u8; e.max_buffer_length_from_utf16(utf16.len()).unwrap()];
        let p = e.encode_from_utf16(&utf16, &mut out, true).unwrap();
        assert!(out[..p.written] == want[..], "{n} from UTF-16");
    }
}
