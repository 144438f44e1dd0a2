//! The streaming API contract (the crate documentation, "Streaming"), checked on
//! every call of a stream split into chunks, and the independent expectation it is compared
//! with.
//!
//! Every call gets a `dst` filled with a sentinel, and every unit past what it reports as
//! written must still hold the sentinel afterwards. Every fatal error is recorded with the
//! absolute input position it reports (the offset of the call's `src` in the stream plus
//! `read`), to be compared with an independent oracle's ([`expected_fatal_decode`],
//! [`er_fatal_encode`]).

use super::{dopts, emode, hex, hex16, ncr, oracle};
use textcodec::{
    BomHandling, DecodeError, Decoder, EncodeError, Encoder, Encoding, Progress, Status,
};

// ---------------------------------------------------------------------------------------------
// Caller buffers
// ---------------------------------------------------------------------------------------------

/// The sentinel for call number `call`: varied, so that a kernel that happens to write one
/// value is still seen.
pub fn sentinel8(call: usize) -> u8 {
    [0xA5, 0x00, 0xFF, 0x5A, 0x80][call % 5]
}

pub fn sentinel16(call: usize) -> u16 {
    [0xA5A5, 0x0000, 0xFFFF, 0xDC00, 0x0080][call % 5]
}

/// `dst[written..]` must be untouched: all `sentinel`.
pub fn check_tail<T: Copy + PartialEq + std::fmt::Debug>(
    dst: &[T],
    written: usize,
    sentinel: T,
) -> Result<(), String> {
    if written > dst.len() {
        return Err(format!("written {written} > dst length {}", dst.len()));
    }
    match dst[written..].iter().position(|&u| u != sentinel) {
        None => Ok(()),
        Some(k) => Err(format!(
            "modified dst past written: dst[{}] = {:?} (sentinel {sentinel:?}; written {written} \
             of {}; first units past written {:?})",
            written + k,
            dst[written + k],
            dst.len(),
            &dst[written..dst.len().min(written + 24)]
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

/// How big a `dst` each call gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dst {
    /// A roomy dst (never `OutputFull`).
    Big,
    /// Exactly max_*_buffer_length(remaining input of this call): never OutputFull.
    Exact,
    /// Start with one unit; grow by one when a call makes no progress (max one worst-case step).
    Tiny,
    /// Random sizes from 0 to a few blocks of the SIMD kernels (seeded).
    Random(u64),
}

pub trait Unit: Copy + Default + PartialEq + std::fmt::Debug {
    const MAX_STEP: usize;
    const NAME: &'static str;
    fn sentinel(call: usize) -> Self;
    fn decode(
        d: &mut Decoder,
        src: &[u8],
        dst: &mut [Self],
        last: bool,
    ) -> Result<Progress, DecodeError>;
    fn max_len(d: &Decoder, n: usize) -> Option<usize>;
    /// Append one call's output; it must be complete characters on its own.
    fn append(out: &mut String, units: &[Self]) -> Result<(), String>;
}

impl Unit for u8 {
    const MAX_STEP: usize = 4;
    const NAME: &'static str = "utf8";
    fn sentinel(call: usize) -> u8 {
        sentinel8(call)
    }
    fn decode(
        d: &mut Decoder,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, DecodeError> {
        d.decode_to_utf8(src, dst, last)
    }
    fn max_len(d: &Decoder, n: usize) -> Option<usize> {
        d.max_utf8_buffer_length(n)
    }
    fn append(out: &mut String, units: &[u8]) -> Result<(), String> {
        let s = std::str::from_utf8(units).map_err(|_| {
            format!(
                "a call's UTF-8 output is not complete characters: {}",
                hex(units)
            )
        })?;
        out.push_str(s);
        Ok(())
    }
}

impl Unit for u16 {
    const MAX_STEP: usize = 2;
    const NAME: &'static str = "utf16";
    fn sentinel(call: usize) -> u16 {
        sentinel16(call)
    }
    fn decode(
        d: &mut Decoder,
        src: &[u8],
        dst: &mut [u16],
        last: bool,
    ) -> Result<Progress, DecodeError> {
        d.decode_to_utf16(src, dst, last)
    }
    fn max_len(d: &Decoder, n: usize) -> Option<usize> {
        d.max_utf16_buffer_length(n)
    }
    fn append(out: &mut String, units: &[u16]) -> Result<(), String> {
        for c in char::decode_utf16(units.iter().copied()) {
            match c {
                Ok(c) => out.push(c),
                Err(_) => {
                    return Err(format!(
                        "a call's UTF-16 output splits a surrogate pair: {}",
                        hex16(units)
                    ))
                }
            }
        }
        Ok(())
    }
}

/// A fatal error as a caller sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorAt {
    /// The offset in the whole input of the `src` of the call that reported it.
    pub base: usize,
    /// Its `read`.
    pub read: usize,
    /// The length (UTF-8 bytes) of the text output before it.
    pub out: usize,
}

/// What a stream gave: the text, with a U+FFFD (decoding) or the html reference (encoding)
/// inserted where each fatal error was reported, so that it equals the replacement-mode (html
/// mode) output; and the errors.
#[derive(Clone, Debug, Default)]
pub struct Trace<T> {
    pub text: T,
    pub errors: Vec<ErrorAt>,
}

/// The size of the next call's `dst`.
fn dst_size(
    policy: Dst,
    call: usize,
    exact: Option<usize>,
    cap: usize,
    remaining: usize,
) -> Result<usize, String> {
    Ok(match policy {
        Dst::Big => 4 * remaining + 64,
        Dst::Exact => exact.ok_or("max_*_buffer_length None")?,
        Dst::Tiny => cap,
        Dst::Random(seed) => {
            let mut x = seed ^ (call as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            x ^= x >> 29;
            x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x ^= x >> 32;
            // Mostly near the sizes where the block kernels start and stop.
            match x % 4 {
                0 => (x >> 8) as usize % 8,
                1 => (x >> 8) as usize % 140,
                _ => cap.max((x >> 8) as usize % 600),
            }
        }
    })
}

/// Decode `src` split into `chunks` (the last chunk is `last: true`), with a dst policy,
/// checking the contract on every call; in fatal mode, resumes after each error with
/// `src[read..]`.
pub fn stream_decode<U: Unit>(
    enc: &'static Encoding,
    bom: BomHandling,
    fatal: bool,
    src: &[u8],
    chunks: &[usize],
    policy: Dst,
) -> Result<Trace<String>, String> {
    let mut d = enc.new_decoder(dopts(fatal, bom));
    let mut trace = Trace::<String>::default();
    let mut offset = 0;
    let mut calls = 0;
    for (ci, &n) in chunks.iter().enumerate() {
        let chunk = &src[offset..offset + n];
        let last = ci + 1 == chunks.len();
        let mut pos = 0;
        let mut cap = 1;
        loop {
            calls += 1;
            if calls > 64 * (src.len() + 16) {
                return Err("too many calls (stuck?)".into());
            }
            let size = dst_size(
                policy,
                calls,
                U::max_len(&d, chunk.len() - pos),
                cap,
                chunk.len() - pos,
            )?;
            let sentinel = U::sentinel(calls);
            let mut dst = vec![sentinel; size];
            let at = format!(
                "call {calls} (input offset {}, dst {size} {})",
                offset + pos,
                U::NAME
            );
            match U::decode(&mut d, &chunk[pos..], &mut dst, last) {
                Ok(p) => {
                    check_tail(&dst, p.written, sentinel).map_err(|e| format!("{at}: {e}"))?;
                    if p.read > chunk.len() - pos {
                        return Err(format!("{at}: bad Progress {p:?}"));
                    }
                    U::append(&mut trace.text, &dst[..p.written])
                        .map_err(|e| format!("{at}: {e}"))?;
                    if fatal && p.replaced {
                        return Err(format!("{at}: fatal mode reported replaced"));
                    }
                    pos += p.read;
                    match p.status {
                        Status::InputEmpty => {
                            if pos != chunk.len() {
                                return Err(format!(
                                    "{at}: InputEmpty but read {pos} of {}",
                                    chunk.len()
                                ));
                            }
                            break;
                        }
                        Status::OutputFull => {
                            if matches!(policy, Dst::Exact | Dst::Big) {
                                return Err(format!(
                                    "{at}: OutputFull with a dst of {size} ({:?}), {} bytes left",
                                    policy,
                                    chunk.len() - (pos - p.read)
                                ));
                            }
                            if p.read == 0 && p.written == 0 {
                                if size < U::MAX_STEP {
                                    cap = size + 1;
                                } else {
                                    return Err(format!(
                                        "{at}: OutputFull without progress with a dst of {size} units"
                                    ));
                                }
                            } else {
                                cap = 1;
                            }
                        }
                    }
                }
                Err(e) => {
                    check_tail(&dst, e.written, sentinel).map_err(|m| format!("{at}: {m}"))?;
                    if !fatal {
                        return Err(format!("{at}: replacement mode returned {e:?}"));
                    }
                    if e.read > chunk.len() - pos {
                        return Err(format!("{at}: bad DecodeError {e:?}"));
                    }
                    U::append(&mut trace.text, &dst[..e.written])
                        .map_err(|m| format!("{at}: {m}"))?;
                    trace.errors.push(ErrorAt {
                        base: offset + pos,
                        read: e.read,
                        out: trace.text.len(),
                    });
                    trace.text.push('\u{FFFD}');
                    pos += e.read;
                    cap = 1;
                    if trace.errors.len() > src.len() + 1 {
                        return Err("more errors than bytes".into());
                    }
                }
            }
        }
        offset += n;
    }
    Ok(trace)
}

/// The expected fatal errors of a stream: the text with a U+FFFD (or reference) at each, and
/// for each, (length of the output before it, absolute input position through it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected<T> {
    pub text: T,
    pub errors: Vec<(usize, usize)>,
}

/// Compares the errors of a trace with the expected ones. An error at input position `p`
/// reported by a call whose `src` starts at `base` has `read == p - base`; when `p < base`
/// (bytes the spec restores to the input arrived in an earlier call and the decoder holds
/// them), `read == 0` (the crate documentation, "Streaming").
pub fn compare_errors(got: &[ErrorAt], want: &[(usize, usize)]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{} errors at {:?}, expected {} at {want:?} (output length, input position)",
            got.len(),
            got.iter()
                .map(|e| (e.out, e.base + e.read))
                .collect::<Vec<_>>(),
            want.len()
        ));
    }
    for (k, (g, &(out, p))) in got.iter().zip(want).enumerate() {
        if g.out != out || g.base + g.read != p.max(g.base) {
            return Err(format!(
                "error {k}: after {} bytes of output, Err.read {} in a call at input offset {} \
                 (position {}); expected after {out} bytes of output, at input position {p}",
                g.out,
                g.read,
                g.base,
                g.base + g.read
            ));
        }
    }
    Ok(())
}

/// encoding_rs's decoder with the same BOM handling.
pub fn er_decoder(enc: &'static Encoding, bom: BomHandling) -> encoding_rs::Decoder {
    let er = oracle(enc);
    match bom {
        BomHandling::Sniff => er.new_decoder(),
        BomHandling::Strip => er.new_decoder_with_bom_removal(),
        BomHandling::Keep => er.new_decoder_without_bom_handling(),
    }
}

/// The fatal errors of decoding `src` (all of it, `last: true`) with the BOM handling `bom`:
/// the text and the outputs before the errors as encoding_rs's (which must agree with the
/// spec transcription's), the positions as the spec transcription's
/// ([`super::spec::spec_fatal_decode`]: the bytes read from the I/O queue for good, bytes
/// restored to it not counted). encoding_rs's positions (its `read` less the bytes it
/// consumed after the malformed sequence) differ from the spec's where an ISO-2022-JP escape
/// interrupts a two-byte character: the spec reads the ESC as part of the error, encoding_rs
/// counts it with the escape sequence after it.
pub fn expected_fatal_decode(
    enc: &'static Encoding,
    bom: BomHandling,
    src: &[u8],
) -> Result<Expected<String>, String> {
    let spec = super::spec::spec_fatal_decode(enc, bom, src);
    let er = er_fatal_decode(enc, bom, src);
    let outs = |e: &Expected<String>| e.errors.iter().map(|&(o, _)| o).collect::<Vec<_>>();
    if spec.text != er.text || outs(&spec) != outs(&er) {
        return Err(format!(
            "{} {bom:?} {}: the spec transcription ({:?}, errors {:?}) and encoding_rs ({:?}, \
             errors {:?}) disagree",
            enc.name(),
            hex(src),
            spec.text,
            spec.errors,
            er.text,
            er.errors
        ));
    }
    Ok(spec)
}

/// encoding_rs in fatal mode (`decode_to_utf8_without_replacement`), all of `src` with
/// `last: true`, resumed after each malformed sequence. The position of an error is the input
/// consumed through the malformed sequence: encoding_rs's `read` less the bytes it consumed
/// after it (`Malformed(_, after)`).
pub fn er_fatal_decode(enc: &'static Encoding, bom: BomHandling, src: &[u8]) -> Expected<String> {
    let mut d = er_decoder(enc, bom);
    let mut buf = vec![0u8; 4 * src.len() + 64];
    let mut want = Expected::<String>::default();
    let mut pos = 0;
    loop {
        let (r, read, written) = d.decode_to_utf8_without_replacement(&src[pos..], &mut buf, true);
        want.text
            .push_str(std::str::from_utf8(&buf[..written]).expect("encoding_rs writes UTF-8"));
        pos += read;
        match r {
            encoding_rs::DecoderResult::InputEmpty => return want,
            encoding_rs::DecoderResult::OutputFull => {}
            encoding_rs::DecoderResult::Malformed(_, after) => {
                want.errors.push((want.text.len(), pos - after as usize));
                want.text.push('\u{FFFD}');
            }
        }
    }
}

/// Splits of `len` bytes for position checks: one call, byte by byte (with an empty last
/// call), and the first 1, 2 and 3 bytes in a call of their own (a BOM or its beginning).
pub fn position_splits(len: usize) -> Vec<Vec<usize>> {
    let mut v = vec![vec![len]];
    let mut bytes = vec![1; len];
    bytes.push(0);
    v.push(bytes);
    for k in 1..=3.min(len) {
        if k < len {
            v.push(vec![k, len - k]);
        }
    }
    v
}

/// Checks a decode of `src` against [`expected_fatal_decode`]: fatal mode (error positions,
/// the output before each, sentinel tails) for every split of [`position_splits`] to UTF-8
/// and one call to UTF-16, and replacement mode in one call. The BOM handlings to check are
/// given.
pub fn check_decode_positions(
    enc: &'static Encoding,
    src: &[u8],
    boms: &[BomHandling],
) -> Result<(), String> {
    for &bom in boms {
        let want = expected_fatal_decode(enc, bom, src)?;
        let ctx = |what: String| format!("{} {bom:?} {} {what}", enc.name(), hex(src));
        for chunks in position_splits(src.len()) {
            let got = stream_decode::<u8>(enc, bom, true, src, &chunks, Dst::Big)
                .map_err(|e| ctx(format!("fatal utf8 chunks {chunks:?}: {e}")))?;
            if got.text != want.text {
                return Err(ctx(format!(
                    "fatal utf8 chunks {chunks:?}: {:?}, expected {:?}",
                    got.text, want.text
                )));
            }
            compare_errors(&got.errors, &want.errors)
                .map_err(|e| ctx(format!("fatal utf8 chunks {chunks:?}: {e}")))?;
        }
        let got = stream_decode::<u16>(enc, bom, true, src, &[src.len()], Dst::Exact)
            .map_err(|e| ctx(format!("fatal utf16: {e}")))?;
        compare_errors(&got.errors, &want.errors).map_err(|e| ctx(format!("fatal utf16: {e}")))?;
        let got = stream_decode::<u8>(enc, bom, false, src, &[src.len()], Dst::Exact)
            .map_err(|e| ctx(format!("replacement utf8: {e}")))?;
        if got.text != want.text {
            return Err(ctx(format!(
                "replacement: {:?}, expected {:?}",
                got.text, want.text
            )));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

pub trait Input {
    type Unit: Copy + std::fmt::Debug;
    const NAME: &'static str;
    fn units(&self) -> &[Self::Unit];
    fn encode(
        e: &mut Encoder,
        src: &[Self::Unit],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, EncodeError>;
    fn max_len(e: &Encoder, n: usize) -> Option<usize>;
    /// Is `i` a place where the input may be split?
    fn can_split(&self, i: usize) -> bool;
}

pub struct Utf8In<'a>(pub &'a str);
pub struct Utf16In<'a>(pub &'a [u16]);

impl Input for Utf8In<'_> {
    type Unit = u8;
    const NAME: &'static str = "utf8";
    fn units(&self) -> &[u8] {
        self.0.as_bytes()
    }
    fn encode(
        e: &mut Encoder,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, EncodeError> {
        e.encode_from_utf8(
            std::str::from_utf8(src).expect("split at char boundaries"),
            dst,
            last,
        )
    }
    fn max_len(e: &Encoder, n: usize) -> Option<usize> {
        e.max_buffer_length_from_utf8(n)
    }
    fn can_split(&self, i: usize) -> bool {
        self.0.is_char_boundary(i)
    }
}

impl Input for Utf16In<'_> {
    type Unit = u16;
    const NAME: &'static str = "utf16";
    fn units(&self) -> &[u16] {
        self.0
    }
    fn encode(
        e: &mut Encoder,
        src: &[u16],
        dst: &mut [u8],
        last: bool,
    ) -> Result<Progress, EncodeError> {
        e.encode_from_utf16(src, dst, last)
    }
    fn max_len(e: &Encoder, n: usize) -> Option<usize> {
        e.max_buffer_length_from_utf16(n)
    }
    fn can_split(&self, _: usize) -> bool {
        true // anywhere, including inside a surrogate pair
    }
}

/// Encode split into chunks with a dst policy, checking the contract on every call; returns the
/// bytes with the html reference of each fatal error inserted where it was reported (so it
/// equals the html-mode output), and the errors (`out` in bytes of output).
pub fn stream_encode<I: Input>(
    enc: &'static Encoding,
    fatal: bool,
    input: &I,
    chunks: &[usize],
    policy: Dst,
) -> Result<Trace<Vec<u8>>, String> {
    let src = input.units();
    let mut e = enc.new_encoder(emode(fatal));
    let mut trace = Trace::<Vec<u8>>::default();
    let mut offset = 0;
    let mut calls = 0;
    for (ci, &n) in chunks.iter().enumerate() {
        let chunk = &src[offset..offset + n];
        let last = ci + 1 == chunks.len();
        let mut pos = 0;
        let mut cap = 1;
        loop {
            calls += 1;
            if calls > 64 * (src.len() + 16) {
                return Err("too many calls (stuck?)".into());
            }
            let remaining = chunk.len() - pos;
            let size = match policy {
                // Up to 11 bytes per unit (an escape and a reference).
                Dst::Big => 11 * remaining + 64,
                _ => dst_size(policy, calls, I::max_len(&e, remaining), cap, remaining)?,
            };
            let sentinel = sentinel8(calls);
            let mut dst = vec![sentinel; size];
            let at = format!(
                "call {calls} (input offset {}, dst {size}, from {})",
                offset + pos,
                I::NAME
            );
            match I::encode(&mut e, &chunk[pos..], &mut dst, last) {
                Ok(p) => {
                    check_tail(&dst, p.written, sentinel).map_err(|m| format!("{at}: {m}"))?;
                    if p.read > remaining {
                        return Err(format!("{at}: bad Progress {p:?}"));
                    }
                    if fatal && p.replaced {
                        return Err(format!("{at}: fatal mode reported replaced"));
                    }
                    trace.text.extend_from_slice(&dst[..p.written]);
                    pos += p.read;
                    match p.status {
                        Status::InputEmpty => {
                            if pos != chunk.len() {
                                return Err(format!(
                                    "{at}: InputEmpty but read {pos} of {}",
                                    chunk.len()
                                ));
                            }
                            break;
                        }
                        Status::OutputFull => {
                            if matches!(policy, Dst::Exact | Dst::Big) {
                                return Err(format!(
                                    "{at}: OutputFull with a dst of {size} ({policy:?}), input {:?}, last={last}",
                                    &chunk[pos..]
                                ));
                            }
                            if p.read == 0 && p.written == 0 {
                                // Html references are up to 10 bytes, ISO-2022-JP adds escapes.
                                if size < 32 {
                                    cap = size + 1;
                                } else {
                                    return Err(format!(
                                        "{at}: OutputFull without progress with a dst of {size}"
                                    ));
                                }
                            } else {
                                cap = 1;
                            }
                        }
                    }
                }
                Err(err) => {
                    check_tail(&dst, err.written, sentinel).map_err(|m| format!("{at}: {m}"))?;
                    if !fatal {
                        return Err(format!("{at}: html mode returned {err:?}"));
                    }
                    // (`read` may be 0: a high surrogate held from an earlier call is reported.)
                    if err.read > remaining {
                        return Err(format!(
                            "{at}: bad EncodeError {err:?}, {remaining} units left"
                        ));
                    }
                    trace.text.extend_from_slice(&dst[..err.written]);
                    trace.errors.push(ErrorAt {
                        base: offset + pos,
                        read: err.read,
                        out: trace.text.len(),
                    });
                    trace.text.extend_from_slice(ncr(err.unmappable).as_bytes());
                    pos += err.read;
                    cap = 1;
                }
            }
        }
        offset += n;
    }
    Ok(trace)
}

/// encoding_rs in fatal mode (`encode_from_*_without_replacement`), all of the input with
/// `last: true`, resumed after each unmappable character: the bytes with the html reference of
/// each inserted, and for each, (bytes output before it, input position through it).
pub fn er_fatal_encode(enc: &'static Encoding, input: Either<'_>) -> Expected<Vec<u8>> {
    let mut e = oracle(enc).new_encoder();
    let mut buf = vec![0u8; 4096];
    let mut want = Expected::<Vec<u8>>::default();
    let mut pos = 0;
    let len = match input {
        Either::Utf8(s) => s.len(),
        Either::Utf16(u) => u.len(),
    };
    loop {
        let (r, read, written) = match input {
            Either::Utf8(s) => e.encode_from_utf8_without_replacement(&s[pos..], &mut buf, true),
            Either::Utf16(u) => e.encode_from_utf16_without_replacement(&u[pos..], &mut buf, true),
        };
        want.text.extend_from_slice(&buf[..written]);
        pos += read;
        match r {
            encoding_rs::EncoderResult::InputEmpty => {
                assert_eq!(pos, len);
                return want;
            }
            encoding_rs::EncoderResult::OutputFull => {}
            encoding_rs::EncoderResult::Unmappable(c) => {
                want.errors.push((want.text.len(), pos));
                want.text.extend_from_slice(ncr(c).as_bytes());
            }
        }
    }
}

/// The input of [`er_fatal_encode`].
#[derive(Clone, Copy)]
pub enum Either<'a> {
    Utf8(&'a str),
    Utf16(&'a [u16]),
}

/// Random chunk lengths covering `len` units, each ending where `can_split` allows, with empty
/// chunks now and then, and mostly of up to `max` units.
pub fn chunk_plan(
    rng: &mut super::Rng,
    len: usize,
    max: usize,
    can_split: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let mut v = Vec::new();
    let mut start = 0;
    while start < len {
        let step = match rng.below(6) {
            0 => 0,
            1 => rng.range(1, 3),
            _ => rng.range(1, max),
        };
        let mut end = (start + step).min(len);
        while !can_split(end) {
            end += 1;
        }
        v.push(end - start);
        start = end;
    }
    if rng.chance(2) {
        v.push(0);
    }
    v
}
