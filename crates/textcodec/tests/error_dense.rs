//! Error-dense input through every decoder against encoding_rs, at every SIMD dispatch level:
//! long inputs where malformed sequences come every few bytes among the encoding's text, which
//! take the driver's own steps after each error (a sequence at a time, for a window that grows
//! while errors keep coming) and the fast path again after them, in both error modes:
//!
//! - replacement mode to UTF-8 and to UTF-16 in one call, against encoding_rs;
//! - the same input in random pieces (`last` only on the final one) into random small output
//!   buffers, which stop the steps at every kind of step (`OutputFull`), against the one-call
//!   output;
//! - fatal mode resumed after each error with `src[read..]`, in one call and in random pieces
//!   into random small buffers: the output between the errors is encoding_rs's (its
//!   `decode_to_*_without_replacement` resumed the same way), with a U+FFFD at each error it is
//!   the replacement output, and the pieces report the errors where the one call does.
//!
//! The error positions themselves are checked against the spec's transcription in
//! tests/spec_reference.rs (`spec_decoders_error_dense`). One test: the dispatch level is global.

mod common;

use common::{dopts, hex, oracle, Failures, Rng};
use textcodec::dispatch::set_level;
use textcodec::{BomHandling, Encoding, Status};

/// One output direction (UTF-8 bytes or UTF-16 code units): the contract's `Unit` (its
/// `decode` and `max_len`) with this file's oracles.
trait Unit: common::Unit + 'static {
    const FFFD: &'static [Self];
    /// encoding_rs in replacement mode, one call.
    fn er(enc: &'static Encoding, src: &[u8]) -> (Vec<Self>, bool);
    /// encoding_rs without replacement, resumed after each error: the output between errors.
    fn er_fatal(enc: &'static Encoding, src: &[u8]) -> Vec<Vec<Self>>;
}

impl Unit for u8 {
    const FFFD: &'static [u8] = "\u{FFFD}".as_bytes();
    fn er(enc: &'static Encoding, src: &[u8]) -> (Vec<u8>, bool) {
        let (s, replaced) = common::er_decode_utf8(enc, src);
        (s.into_bytes(), replaced)
    }
    fn er_fatal(enc: &'static Encoding, src: &[u8]) -> Vec<Vec<u8>> {
        let mut d = oracle(enc).new_decoder_without_bom_handling();
        let mut dst = vec![
            0;
            d.max_utf8_buffer_length_without_replacement(src.len())
                .unwrap()
        ];
        let mut segments = Vec::new();
        let mut pos = 0;
        loop {
            let (r, read, written) =
                d.decode_to_utf8_without_replacement(&src[pos..], &mut dst, true);
            segments.push(dst[..written].to_vec());
            pos += read;
            if !matches!(r, encoding_rs::DecoderResult::Malformed(..)) {
                return segments;
            }
        }
    }
}

impl Unit for u16 {
    const FFFD: &'static [u16] = &[0xFFFD];
    fn er(enc: &'static Encoding, src: &[u8]) -> (Vec<u16>, bool) {
        common::er_decode_utf16(enc, src)
    }
    fn er_fatal(enc: &'static Encoding, src: &[u8]) -> Vec<Vec<u16>> {
        let mut d = oracle(enc).new_decoder_without_bom_handling();
        let mut dst = vec![0; d.max_utf16_buffer_length(src.len()).unwrap()];
        let mut segments = Vec::new();
        let mut pos = 0;
        loop {
            let (r, read, written) =
                d.decode_to_utf16_without_replacement(&src[pos..], &mut dst, true);
            segments.push(dst[..written].to_vec());
            pos += read;
            if !matches!(r, encoding_rs::DecoderResult::Malformed(..)) {
                return segments;
            }
        }
    }
}

/// The output between the errors and the position of each error in `src` (bytes read
/// through it), from textcodec: `src` in pieces of `piece()` bytes (the whole of it when that
/// is at least its length), each call into a buffer of `room()` units (grown when a call can
/// make no progress). In replacement mode there are no errors and one segment, and the
/// `replaced` flags are or-ed.
struct Run<U> {
    segments: Vec<Vec<U>>,
    errors: Vec<usize>,
    replaced: bool,
}

fn run<U: Unit>(
    enc: &'static Encoding,
    src: &[u8],
    fatal: bool,
    mut piece: impl FnMut() -> usize,
    mut room: impl FnMut() -> usize,
    f: &mut Failures,
) -> Option<Run<U>> {
    let mut d = enc.new_decoder(dopts(fatal, BomHandling::Keep));
    let mut out = Run {
        segments: vec![Vec::new()],
        errors: Vec::new(),
        replaced: false,
    };
    let mut start = 0;
    loop {
        let end = (start + piece().max(1)).min(src.len());
        let last = end == src.len();
        let mut pos = start;
        loop {
            let mut buf = vec![U::default(); room()];
            let mut result = U::decode(&mut d, &src[pos..end], &mut buf, last);
            if let Ok(p) = result {
                if p.status == Status::OutputFull && p.read == 0 && p.written == 0 {
                    // Not even one step fits: a buffer with room for any.
                    buf = vec![U::default(); U::max_len(&d, end - pos).unwrap().max(4)];
                    result = U::decode(&mut d, &src[pos..end], &mut buf, last);
                }
            }
            match result {
                Ok(p) => {
                    out.segments
                        .last_mut()
                        .unwrap()
                        .extend_from_slice(&buf[..p.written]);
                    out.replaced |= p.replaced;
                    pos += p.read;
                    if p.status == Status::InputEmpty {
                        if pos != end {
                            f.push(format!("{}: InputEmpty after {pos} of {end}", enc.name()));
                            return None;
                        }
                        break;
                    }
                    if p.read == 0 && p.written == 0 {
                        f.push(format!("{}: no progress at {pos}", enc.name()));
                        return None;
                    }
                }
                Err(e) => {
                    if !fatal || e.read > end - pos || out.errors.len() > src.len() {
                        f.push(format!("{}: {e:?} at {pos} (fatal: {fatal})", enc.name()));
                        return None;
                    }
                    out.segments
                        .last_mut()
                        .unwrap()
                        .extend_from_slice(&buf[..e.written]);
                    pos += e.read;
                    out.errors.push(pos);
                    out.segments.push(Vec::new());
                }
            }
        }
        if last {
            return Some(out);
        }
        start = end;
    }
}

fn joined<U: Unit>(segments: &[Vec<U>]) -> Vec<U> {
    let mut v = Vec::new();
    for (i, s) in segments.iter().enumerate() {
        if i > 0 {
            v.extend_from_slice(U::FFFD);
        }
        v.extend_from_slice(s);
    }
    v
}

fn check<U: Unit>(enc: &'static Encoding, src: &[u8], rng: &mut Rng, what: &str, f: &mut Failures) {
    let name = enc.name();
    let whole = usize::MAX;
    let roomy = |len| move || len;
    let Some(one) = run::<U>(
        enc,
        src,
        false,
        || whole,
        roomy(U::max_len(&enc.new_decoder(Default::default()), src.len()).unwrap()),
        f,
    ) else {
        return;
    };
    let (want, want_replaced) = U::er(enc, src);
    if one.segments[0] != want || one.replaced != want_replaced {
        f.push(format!(
            "{name} {what} replacement, one call: differs from encoding_rs (replaced {} / {want_replaced}) on {}",
            one.replaced,
            hex(src)
        ));
        return;
    }
    let small = rng.range(1, 24);
    let mut r1 = rng.clone();
    let mut r2 = rng.clone();
    let Some(pieces) = run::<U>(
        enc,
        src,
        false,
        || r1.range(1, 48),
        || r2.range(1, small),
        f,
    ) else {
        return;
    };
    rng.next_u64();
    if pieces.segments[0] != want || pieces.replaced != want_replaced {
        f.push(format!(
            "{name} {what} replacement in pieces (room up to {small}): differs on {}",
            hex(src)
        ));
        return;
    }
    let Some(fatal) = run::<U>(
        enc,
        src,
        true,
        || whole,
        roomy(U::max_len(&enc.new_decoder(Default::default()), src.len()).unwrap()),
        f,
    ) else {
        return;
    };
    if fatal.segments != U::er_fatal(enc, src) || joined(&fatal.segments) != want {
        f.push(format!(
            "{name} {what} fatal resumed, one call: the output between errors differs from \
             encoding_rs's, or joined with U+FFFD from the replacement output, on {}",
            hex(src)
        ));
        return;
    }
    let mut r1 = rng.clone();
    let mut r2 = rng.clone();
    r2.next_u64();
    let Some(fatal_pieces) = run::<U>(enc, src, true, || r1.range(1, 48), || r2.range(1, small), f)
    else {
        return;
    };
    rng.next_u64();
    // The same errors with the same output between them. A piece reports an error where the
    // one call does, or up to three bytes later: bytes the spec restores that arrived in an
    // earlier piece were counted as read by that piece's call (they wait in the decoder).
    let later = |(&p, &o): (&usize, &usize)| p < o || p > o + 3;
    if fatal_pieces.segments != fatal.segments
        || fatal_pieces.errors.iter().zip(&fatal.errors).any(later)
    {
        f.push(format!(
            "{name} {what} fatal resumed in pieces: errors at {:?}, in one call at {:?}, on {}",
            fatal_pieces.errors,
            fatal.errors,
            hex(src)
        ));
    }
}

#[test]
fn error_dense_input_at_every_dispatch_level() {
    let mut f = Failures::new("error-dense input against encoding_rs");
    for level in common::dispatch_levels() {
        assert_eq!(set_level(level), level);
        let mut rng = Rng::new(0xE7707 + level as u64);
        for &enc in Encoding::all() {
            let text = common::corpus_text(common::corpus_language(enc));
            for _ in 0..16 {
                let len = rng.range(64, 3000);
                let src = common::error_dense_input(enc, &mut rng, &text, len);
                let what = format!("({level:?})");
                check::<u8>(enc, &src, &mut rng, &what, &mut f);
                check::<u16>(enc, &src, &mut rng, &what, &mut f);
            }
        }
    }
    f.finish();
}
