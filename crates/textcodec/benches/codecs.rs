//! Throughput of textcodec against encoding_rs over the Wikipedia corpus.
//!
//! Every workload is one criterion group named `direction/input/encoding`, for example
//! `decode_utf8/ja.txt/Shift_JIS`, with one function per implementation (`textcodec`,
//! `encoding_rs`, and for UTF-8 to UTF-8 also `std`, `simdutf8` and the `memcpy`
//! physical limit). On the Unicode workloads simdutf (issue 16) is a third contender,
//! function `simdutf`: UTF-8 to UTF-8 (validate then copy), UTF-8 to UTF-16, UTF-16 to
//! UTF-8, UTF-16LE/BE bytes to UTF-8, and the direction `validate_utf8` (validation alone:
//! `Encoding::utf8_valid_up_to` of both libraries against `simdutf::validate_utf8`). Its
//! output is checked like textcodec's; it is left out where it rejects the input (the
//! error-dense inputs). Both libraries use their streaming calls into buffers allocated
//! before the measurement, sized by their own `max_*_buffer_length`, with `last = true`;
//! a new decoder or encoder is made in every iteration, as a caller would.
//!
//! Built with `--features bench-er-fast`, encoding_rs has its fast-legacy-encode tables
//! and only the CJK encode workloads are registered, with the functions
//! `textcodec_fastrun` and `encoding_rs_fast` (same groups, so the report can show both
//! comparisons side by side).
//!
//! Error-dense input (inputs named `dense-*`, see [`error_dense`]) adds the directions
//! `fatal_utf8` and `fatal_utf16`: fatal mode resumed after each error, against encoding_rs's
//! `decode_to_*_without_replacement` resumed the same way.
//!
//! Run through `scripts/bench.sh`, which repeats the suite and prints the table; see
//! BENCHMARKS.md. Before a workload is registered its outputs are checked against
//! encoding_rs: a mismatch prints a `textcodec-bench: WARNING` line, and a textcodec
//! panic drops the textcodec function of that workload instead of aborting the suite.

use std::hint::black_box;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use textcodec::{DecoderErrorMode, DecoderOptions, EncoderErrorMode, Status};

type Tc = &'static textcodec::Encoding;
type Er = &'static encoding_rs::Encoding;

/// This build compares against encoding_rs with fast-legacy-encode.
const FAST: bool = cfg!(feature = "bench-er-fast");
const TC: &str = if FAST {
    "textcodec_fastrun"
} else {
    "textcodec"
};
const ER: &str = if FAST {
    "encoding_rs_fast"
} else {
    "encoding_rs"
};

mod simdutf_safe;
mod workloads;
use workloads::{LANGS, SHORT};

const CJK: &[&str] = &[
    "Shift_JIS",
    "EUC-JP",
    "ISO-2022-JP",
    "EUC-KR",
    "GBK",
    "gb18030",
    "Big5",
];

/// Legacy encodings exercised with the short strings.
const SHORT_LEGACY: &[&str] = &["windows-1252", "Shift_JIS", "GBK"];

fn corpus(file: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../data/corpus/wikipedia/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn warn(msg: &str) {
    eprintln!("textcodec-bench: WARNING: {msg}");
}

fn encodings(name: &str) -> (Tc, Er) {
    let tc = textcodec::Encoding::for_label(name.as_bytes())
        .unwrap_or_else(|| panic!("textcodec has no encoding {name}"));
    let er = encoding_rs::Encoding::for_label(name.as_bytes())
        .unwrap_or_else(|| panic!("encoding_rs has no encoding {name}"));
    (tc, er)
}

/// Runs textcodec set-up code; a panic (an unfinished codec) yields `None`.
fn probe<T>(what: &str, f: impl FnOnce() -> T) -> Option<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        eprintln!("textcodec-bench: {}", info.to_string().replace('\n', ": "));
    }));
    let result = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    match result {
        Ok(v) => Some(v),
        Err(_) => {
            warn(&format!("{what}: textcodec panicked, not measured"));
            None
        }
    }
}

fn check_same<T: PartialEq>(what: &str, tc: &[T], er: &[T]) -> bool {
    if tc == er {
        return true;
    }
    let at = tc.iter().zip(er).take_while(|(a, b)| a == b).count();
    warn(&format!(
        "{what}: textcodec output differs from encoding_rs at unit {at} (lengths {} and {})",
        tc.len(),
        er.len()
    ));
    false
}

/// Totals over the inputs of one iteration: units read, units written, all `InputEmpty`.
type Totals = (usize, usize, bool);

// ---------------------------------------------------------------------------------------
// The measured calls. Each takes a list of inputs (one for a corpus file, several for the
// short strings) and a preallocated output buffer large enough for any one of them.

fn tc_decode_utf8(enc: Tc, srcs: &[Vec<u8>], dst: &mut [u8]) -> Totals {
    let mut t = (0, 0, true);
    for src in srcs {
        let mut decoder = enc.new_decoder(DecoderOptions::default());
        let p = decoder
            .decode_to_utf8(black_box(src), dst, true)
            .expect("replacement mode");
        t = (
            t.0 + p.read,
            t.1 + p.written,
            t.2 && p.status == Status::InputEmpty,
        );
    }
    t
}

fn er_decode_utf8(enc: Er, srcs: &[Vec<u8>], dst: &mut [u8]) -> Totals {
    let mut t = (0, 0, true);
    for src in srcs {
        let mut decoder = enc.new_decoder();
        let (r, read, written, _) = decoder.decode_to_utf8(black_box(src), dst, true);
        t = (
            t.0 + read,
            t.1 + written,
            t.2 && r == encoding_rs::CoderResult::InputEmpty,
        );
    }
    t
}

fn tc_decode_utf16(enc: Tc, srcs: &[Vec<u8>], dst: &mut [u16]) -> Totals {
    let mut t = (0, 0, true);
    for src in srcs {
        let mut decoder = enc.new_decoder(DecoderOptions::default());
        let p = decoder
            .decode_to_utf16(black_box(src), dst, true)
            .expect("replacement mode");
        t = (
            t.0 + p.read,
            t.1 + p.written,
            t.2 && p.status == Status::InputEmpty,
        );
    }
    t
}

fn er_decode_utf16(enc: Er, srcs: &[Vec<u8>], dst: &mut [u16]) -> Totals {
    let mut t = (0, 0, true);
    for src in srcs {
        let mut decoder = enc.new_decoder();
        let (r, read, written, _) = decoder.decode_to_utf16(black_box(src), dst, true);
        t = (
            t.0 + read,
            t.1 + written,
            t.2 && r == encoding_rs::CoderResult::InputEmpty,
        );
    }
    t
}

/// Totals of one fatal-mode decode resumed after each error: units read, units written,
/// errors.
type FatalTotals = (usize, usize, usize);

/// Fatal mode resumed after each error, as the API says (after `Err`, go on with
/// `src[read..]`): `call(read, written)` decodes `src[read..]` into `dst[written..]` and
/// returns the units read and written and whether it stopped at an error.
#[inline(always)]
fn resume(len: usize, mut call: impl FnMut(usize, usize) -> (usize, usize, bool)) -> FatalTotals {
    let (mut read, mut written, mut errors) = (0, 0, 0);
    loop {
        let (r, w, error) = call(read, written);
        read += r;
        written += w;
        if !error || read > len {
            return (read, written, errors);
        }
        errors += 1;
    }
}

fn fatal_options() -> DecoderOptions {
    DecoderOptions {
        error_mode: DecoderErrorMode::Fatal,
        ..Default::default()
    }
}

fn tc_fatal_utf8(enc: Tc, src: &[u8], dst: &mut [u8]) -> FatalTotals {
    let mut decoder = enc.new_decoder(fatal_options());
    let src = black_box(src);
    resume(src.len(), |r, w| {
        match decoder.decode_to_utf8(&src[r..], &mut dst[w..], true) {
            Ok(p) => (p.read, p.written, false),
            Err(e) => (e.read, e.written, true),
        }
    })
}

fn er_fatal_utf8(enc: Er, src: &[u8], dst: &mut [u8]) -> FatalTotals {
    let mut decoder = enc.new_decoder();
    let src = black_box(src);
    resume(src.len(), |r, w| {
        let (result, read, written) =
            decoder.decode_to_utf8_without_replacement(&src[r..], &mut dst[w..], true);
        let error = matches!(result, encoding_rs::DecoderResult::Malformed(..));
        (read, written, error)
    })
}

fn tc_fatal_utf16(enc: Tc, src: &[u8], dst: &mut [u16]) -> FatalTotals {
    let mut decoder = enc.new_decoder(fatal_options());
    let src = black_box(src);
    resume(src.len(), |r, w| {
        match decoder.decode_to_utf16(&src[r..], &mut dst[w..], true) {
            Ok(p) => (p.read, p.written, false),
            Err(e) => (e.read, e.written, true),
        }
    })
}

fn er_fatal_utf16(enc: Er, src: &[u8], dst: &mut [u16]) -> FatalTotals {
    let mut decoder = enc.new_decoder();
    let src = black_box(src);
    resume(src.len(), |r, w| {
        let (result, read, written) =
            decoder.decode_to_utf16_without_replacement(&src[r..], &mut dst[w..], true);
        let error = matches!(result, encoding_rs::DecoderResult::Malformed(..));
        (read, written, error)
    })
}

fn tc_encode_utf8(enc: Tc, srcs: &[String], dst: &mut [u8]) -> Totals {
    let mut t = (0, 0, true);
    for src in srcs {
        let mut encoder = enc.new_encoder(EncoderErrorMode::Html);
        let p = encoder
            .encode_from_utf8(black_box(src), dst, true)
            .expect("html mode");
        t = (
            t.0 + p.read,
            t.1 + p.written,
            t.2 && p.status == Status::InputEmpty,
        );
    }
    t
}

fn er_encode_utf8(enc: Er, srcs: &[String], dst: &mut [u8]) -> Totals {
    let mut t = (0, 0, true);
    for src in srcs {
        let mut encoder = enc.new_encoder();
        let (r, read, written, _) = encoder.encode_from_utf8(black_box(src), dst, true);
        t = (
            t.0 + read,
            t.1 + written,
            t.2 && r == encoding_rs::CoderResult::InputEmpty,
        );
    }
    t
}

fn tc_encode_utf16(enc: Tc, srcs: &[Vec<u16>], dst: &mut [u8]) -> Totals {
    let mut t = (0, 0, true);
    for src in srcs {
        let mut encoder = enc.new_encoder(EncoderErrorMode::Html);
        let p = encoder
            .encode_from_utf16(black_box(src), dst, true)
            .expect("html mode");
        t = (
            t.0 + p.read,
            t.1 + p.written,
            t.2 && p.status == Status::InputEmpty,
        );
    }
    t
}

fn er_encode_utf16(enc: Er, srcs: &[Vec<u16>], dst: &mut [u8]) -> Totals {
    let mut t = (0, 0, true);
    for src in srcs {
        let mut encoder = enc.new_encoder();
        let (r, read, written, _) = encoder.encode_from_utf16(black_box(src), dst, true);
        t = (
            t.0 + read,
            t.1 + written,
            t.2 && r == encoding_rs::CoderResult::InputEmpty,
        );
    }
    t
}

fn std_validate_copy(srcs: &[Vec<u8>], dst: &mut [u8]) -> usize {
    let mut n = 0;
    for src in srcs {
        let s = std::str::from_utf8(black_box(src)).expect("valid UTF-8");
        dst[..s.len()].copy_from_slice(s.as_bytes());
        n += s.len();
    }
    n
}

fn simdutf8_validate_copy(srcs: &[Vec<u8>], dst: &mut [u8]) -> usize {
    let mut n = 0;
    for src in srcs {
        let s = simdutf8::basic::from_utf8(black_box(src)).expect("valid UTF-8");
        dst[..s.len()].copy_from_slice(s.as_bytes());
        n += s.len();
    }
    n
}

/// simdutf8's validation alone, no copy: the bar the UTF-8 to UTF-8 goal sets.
fn simdutf8_validate(srcs: &[Vec<u8>]) -> usize {
    let mut n = 0;
    for src in srcs {
        n += simdutf8::basic::from_utf8(black_box(src))
            .expect("valid UTF-8")
            .len();
    }
    n
}

/// simdutf's `convert` (one of [`simdutf_safe`]'s functions) on each input into `dst`:
/// the units written.
fn simdutf_each<T, D>(
    srcs: &[Vec<T>],
    dst: &mut [D],
    convert: fn(&[T], &mut [D]) -> Option<usize>,
) -> usize {
    let mut n = 0;
    for src in srcs {
        n += convert(black_box(src), dst).expect("simdutf accepted this input before");
    }
    n
}

/// Validation alone, with each library's `utf8_valid_up_to`: the bytes valid.
fn tc_validate_utf8(srcs: &[Vec<u8>]) -> usize {
    srcs.iter()
        .map(|src| textcodec::Encoding::utf8_valid_up_to(black_box(src)))
        .sum()
}

fn er_validate_utf8(srcs: &[Vec<u8>]) -> usize {
    srcs.iter()
        .map(|src| encoding_rs::Encoding::utf8_valid_up_to(black_box(src)))
        .sum()
}

fn simdutf_validate_utf8(srcs: &[Vec<u8>]) -> usize {
    let mut n = 0;
    for src in srcs {
        assert!(simdutf_safe::validate_utf8(black_box(src)));
        n += src.len();
    }
    n
}

fn memcpy(srcs: &[Vec<u8>], dst: &mut [u8]) -> usize {
    let mut n = 0;
    for src in srcs {
        let src = black_box(src);
        dst[..src.len()].copy_from_slice(src);
        n += src.len();
    }
    n
}

// ---------------------------------------------------------------------------------------
// Whole outputs, for checking and for making the legacy inputs.

/// Runs `run` on each input alone into `dst` and concatenates the outputs; `None` (with
/// a warning) if some input was not fully converted in one call.
fn collect<S, D: Copy>(
    what: &str,
    who: &str,
    srcs: &[S],
    dst: &mut [D],
    mut run: impl FnMut(&[S], &mut [D]) -> Totals,
    src_len: impl Fn(&S) -> usize,
) -> Option<Vec<D>> {
    let mut out = Vec::new();
    for src in srcs {
        let (read, written, done) = run(std::slice::from_ref(src), dst);
        if !done || read != src_len(src) {
            warn(&format!(
                "{what}: {who} did not finish in one call into a buffer of its own \
                 max_*_buffer_length (read {read} of {})",
                src_len(src)
            ));
            return None;
        }
        out.extend_from_slice(&dst[..written]);
    }
    Some(out)
}

fn er_encode_all(enc: Er, text: &str) -> Vec<u8> {
    let (bytes, used, _) = enc.encode(text);
    assert_eq!(used, enc.output_encoding());
    bytes.into_owned()
}

/// The legacy form of `text` in `name`, made by the encoder under test in html mode:
/// textcodec's output if it matches encoding_rs, otherwise encoding_rs's.
fn legacy_input(what: &str, name: &str, text: &str) -> Vec<u8> {
    let (tc, er) = encodings(name);
    let expected = er_encode_all(er, text);
    let ours = probe(what, || {
        let mut encoder = tc.new_encoder(EncoderErrorMode::Html);
        let len = encoder
            .max_buffer_length_from_utf8(text.len())
            .expect("size");
        let mut dst = vec![0u8; len];
        let p = encoder
            .encode_from_utf8(text, &mut dst, true)
            .expect("html mode");
        dst.truncate(p.written);
        (p, dst)
    });
    match ours {
        Some((p, dst)) if p.status == Status::InputEmpty && p.read == text.len() => {
            let ok = check_same(&format!("{what} (making the input)"), &dst, &expected);
            if ok {
                dst
            } else {
                expected
            }
        }
        Some(_) => {
            warn(&format!("{what}: textcodec could not make the input"));
            expected
        }
        None => expected,
    }
}

/// simdutf as a contender of `g`: its output (each input alone, concatenated) is checked
/// against `expected` first; if it rejects an input (the error-dense inputs) it is left
/// out without a warning, if its output differs it is left out with one.
fn simdutf_contender<T, D: Copy + Default + PartialEq>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    what: &str,
    srcs: &[Vec<T>],
    dst_len: usize,
    convert: fn(&[T], &mut [D]) -> Option<usize>,
    expected: Option<&[D]>,
) {
    let mut dst = vec![D::default(); dst_len];
    let mut out = Vec::new();
    for src in srcs {
        match convert(src, &mut dst) {
            Some(n) => out.extend_from_slice(&dst[..n]),
            None => return,
        }
    }
    let Some(expected) = expected else { return };
    if out != expected {
        let at = out.iter().zip(expected).take_while(|(a, b)| a == b).count();
        warn(&format!(
            "{what}: simdutf output differs from encoding_rs at unit {at} (lengths {} and {}), \
             not measured",
            out.len(),
            expected.len()
        ));
        return;
    }
    g.bench_function("simdutf", |b| {
        b.iter(|| simdutf_each(srcs, &mut dst, convert))
    });
}

fn longest<T>(srcs: &[Vec<T>]) -> usize {
    srcs.iter().map(Vec::len).max().unwrap_or(0)
}

// ---------------------------------------------------------------------------------------
// Workloads.

struct Bench<'c> {
    c: &'c mut Criterion,
}

fn wanted(direction: &str, encoding: &str) -> bool {
    !FAST || (direction.starts_with("encode") && CJK.contains(&encoding))
}

fn max_len(lens: impl Iterator<Item = Option<usize>>) -> usize {
    lens.map(|l| l.expect("buffer length overflow"))
        .max()
        .unwrap_or(0)
}

impl Bench<'_> {
    fn group(&mut self, name: &str, bytes: usize) -> BenchmarkGroup<'_, WallTime> {
        let mut g = self.c.benchmark_group(name);
        g.throughput(Throughput::Bytes(bytes as u64));
        g
    }

    /// Legacy or Unicode bytes to UTF-8; `utf8_extras` adds std, simdutf8 and memcpy.
    fn decode_utf8(&mut self, input: &str, name: &str, srcs: &[Vec<u8>], utf8_extras: bool) {
        if !wanted("decode_utf8", name) {
            return;
        }
        let what = format!("decode_utf8/{input}/{name}");
        let (tc, er) = encodings(name);
        let bytes = srcs.iter().map(Vec::len).sum();
        let er_len = max_len(
            srcs.iter()
                .map(|s| er.new_decoder().max_utf8_buffer_length(s.len())),
        );
        let mut er_dst = vec![0u8; er_len];
        let expected = collect(
            &what,
            ER,
            srcs,
            &mut er_dst,
            |s, d| er_decode_utf8(er, s, d),
            Vec::len,
        );
        let tc_dst = probe(&what, || {
            let len = max_len(srcs.iter().map(|s| {
                tc.new_decoder(DecoderOptions::default())
                    .max_utf8_buffer_length(s.len())
            }));
            let mut dst = vec![0u8; len];
            let out = collect(
                &what,
                TC,
                srcs,
                &mut dst,
                |s, d| tc_decode_utf8(tc, s, d),
                Vec::len,
            );
            if let (Some(out), Some(expected)) = (&out, &expected) {
                check_same(&what, out, expected);
            }
            dst
        });
        let mut g = self.group(&what, bytes);
        if let Some(mut dst) = tc_dst {
            g.bench_function(TC, |b| b.iter(|| tc_decode_utf8(tc, srcs, &mut dst)));
        }
        g.bench_function(ER, |b| b.iter(|| er_decode_utf8(er, srcs, &mut er_dst)));
        if utf8_extras {
            let mut dst = vec![0u8; longest(srcs)];
            g.bench_function("std", |b| b.iter(|| std_validate_copy(srcs, &mut dst)));
            g.bench_function("simdutf8", |b| {
                b.iter(|| simdutf8_validate_copy(srcs, &mut dst))
            });
            g.bench_function("simdutf8_only", |b| b.iter(|| simdutf8_validate(srcs)));
            g.bench_function("memcpy", |b| b.iter(|| memcpy(srcs, &mut dst)));
        }
        let expected = expected.as_deref();
        match name {
            "UTF-8" => simdutf_contender(
                &mut g,
                &what,
                srcs,
                longest(srcs),
                simdutf_safe::validate_then_copy,
                expected,
            ),
            "UTF-16LE" | "UTF-16BE" => {
                let units: Vec<Vec<u16>> = srcs.iter().map(|s| simdutf_safe::units_of(s)).collect();
                let convert = if name == "UTF-16LE" {
                    simdutf_safe::utf16le_to_utf8
                } else {
                    simdutf_safe::utf16be_to_utf8
                };
                // Odd lengths (a truncated unit) are an error simdutf cannot see.
                if srcs.iter().all(|s| s.len() % 2 == 0) {
                    simdutf_contender(
                        &mut g,
                        &what,
                        &units,
                        3 * longest(&units),
                        convert,
                        expected,
                    );
                }
            }
            _ => {}
        }
        g.finish();
    }

    fn decode_utf16(&mut self, input: &str, name: &str, srcs: &[Vec<u8>]) {
        if !wanted("decode_utf16", name) {
            return;
        }
        let what = format!("decode_utf16/{input}/{name}");
        let (tc, er) = encodings(name);
        let bytes = srcs.iter().map(Vec::len).sum();
        let er_len = max_len(
            srcs.iter()
                .map(|s| er.new_decoder().max_utf16_buffer_length(s.len())),
        );
        let mut er_dst = vec![0u16; er_len];
        let expected = collect(
            &what,
            ER,
            srcs,
            &mut er_dst,
            |s, d| er_decode_utf16(er, s, d),
            Vec::len,
        );
        let tc_dst = probe(&what, || {
            let len = max_len(srcs.iter().map(|s| {
                tc.new_decoder(DecoderOptions::default())
                    .max_utf16_buffer_length(s.len())
            }));
            let mut dst = vec![0u16; len];
            let out = collect(
                &what,
                TC,
                srcs,
                &mut dst,
                |s, d| tc_decode_utf16(tc, s, d),
                Vec::len,
            );
            if let (Some(out), Some(expected)) = (&out, &expected) {
                check_same(&what, out, expected);
            }
            dst
        });
        let mut g = self.group(&what, bytes);
        if let Some(mut dst) = tc_dst {
            g.bench_function(TC, |b| b.iter(|| tc_decode_utf16(tc, srcs, &mut dst)));
        }
        g.bench_function(ER, |b| b.iter(|| er_decode_utf16(er, srcs, &mut er_dst)));
        if name == "UTF-8" {
            simdutf_contender(
                &mut g,
                &what,
                srcs,
                longest(srcs),
                simdutf_safe::utf8_to_utf16le,
                expected.as_deref(),
            );
        }
        g.finish();
    }

    fn encode_utf8(&mut self, input: &str, name: &str, srcs: &[String]) {
        if !wanted("encode_utf8", name) {
            return;
        }
        let what = format!("encode_utf8/{input}/{name}");
        let (tc, er) = encodings(name);
        let bytes = srcs.iter().map(String::len).sum();
        // encoding_rs has no bound that includes numeric character references: take its
        // bound or the real output length, whichever is larger.
        let er_len = max_len(srcs.iter().map(|s| {
            let bound = er
                .new_encoder()
                .max_buffer_length_from_utf8_if_no_unmappables(s.len());
            bound.map(|b| b.max(er_encode_all(er, s).len() + 16))
        }));
        let mut er_dst = vec![0u8; er_len];
        let expected = collect(
            &what,
            ER,
            srcs,
            &mut er_dst,
            |s, d| er_encode_utf8(er, s, d),
            String::len,
        );
        let tc_dst = probe(&what, || {
            let len = max_len(srcs.iter().map(|s| {
                tc.new_encoder(EncoderErrorMode::Html)
                    .max_buffer_length_from_utf8(s.len())
            }));
            let mut dst = vec![0u8; len];
            let out = collect(
                &what,
                TC,
                srcs,
                &mut dst,
                |s, d| tc_encode_utf8(tc, s, d),
                String::len,
            );
            if let (Some(out), Some(expected)) = (&out, &expected) {
                check_same(&what, out, expected);
            }
            dst
        });
        let mut g = self.group(&what, bytes);
        if let Some(mut dst) = tc_dst {
            g.bench_function(TC, |b| b.iter(|| tc_encode_utf8(tc, srcs, &mut dst)));
        }
        g.bench_function(ER, |b| b.iter(|| er_encode_utf8(er, srcs, &mut er_dst)));
        g.finish();
    }

    fn encode_utf16(&mut self, input: &str, name: &str, srcs: &[Vec<u16>]) {
        if !wanted("encode_utf16", name) {
            return;
        }
        let what = format!("encode_utf16/{input}/{name}");
        let (tc, er) = encodings(name);
        // Throughput counts input bytes: two per UTF-16 code unit.
        let bytes = 2 * srcs.iter().map(Vec::len).sum::<usize>();
        let er_len = max_len(srcs.iter().map(|s| {
            let bound = er
                .new_encoder()
                .max_buffer_length_from_utf16_if_no_unmappables(s.len());
            let text = String::from_utf16_lossy(s);
            bound.map(|b| b.max(er_encode_all(er, &text).len() + 16))
        }));
        let mut er_dst = vec![0u8; er_len];
        let expected = collect(
            &what,
            ER,
            srcs,
            &mut er_dst,
            |s, d| er_encode_utf16(er, s, d),
            Vec::len,
        );
        let tc_dst = probe(&what, || {
            let len = max_len(srcs.iter().map(|s| {
                tc.new_encoder(EncoderErrorMode::Html)
                    .max_buffer_length_from_utf16(s.len())
            }));
            let mut dst = vec![0u8; len];
            let out = collect(
                &what,
                TC,
                srcs,
                &mut dst,
                |s, d| tc_encode_utf16(tc, s, d),
                Vec::len,
            );
            if let (Some(out), Some(expected)) = (&out, &expected) {
                check_same(&what, out, expected);
            }
            dst
        });
        let mut g = self.group(&what, bytes);
        if let Some(mut dst) = tc_dst {
            g.bench_function(TC, |b| b.iter(|| tc_encode_utf16(tc, srcs, &mut dst)));
        }
        g.bench_function(ER, |b| b.iter(|| er_encode_utf16(er, srcs, &mut er_dst)));
        if name == "UTF-8" {
            simdutf_contender(
                &mut g,
                &what,
                srcs,
                3 * longest(srcs),
                simdutf_safe::utf16_to_utf8,
                expected.as_deref(),
            );
        }
        g.finish();
    }

    /// UTF-8 validation alone: `Encoding::utf8_valid_up_to` of textcodec and encoding_rs,
    /// `simdutf::validate_utf8`.
    fn validate_utf8(&mut self, input: &str, srcs: &[Vec<u8>]) {
        if !wanted("validate_utf8", "UTF-8") {
            return;
        }
        let what = format!("validate_utf8/{input}/UTF-8");
        let bytes = srcs.iter().map(Vec::len).sum();
        let er_valid = er_validate_utf8(srcs);
        let tc_valid = probe(&what, || tc_validate_utf8(srcs));
        if tc_valid.is_some_and(|v| v != er_valid) {
            warn(&format!(
                "{what}: textcodec finds {tc_valid:?} bytes valid, {ER} {er_valid}"
            ));
        }
        let mut g = self.group(&what, bytes);
        if tc_valid.is_some() {
            g.bench_function(TC, |b| b.iter(|| tc_validate_utf8(srcs)));
        }
        g.bench_function(ER, |b| b.iter(|| er_validate_utf8(srcs)));
        if er_valid == bytes {
            g.bench_function("simdutf", |b| b.iter(|| simdutf_validate_utf8(srcs)));
        }
        g.finish();
    }

    /// Fatal mode resumed after each error (`direction` `fatal_utf8` or `fatal_utf16`):
    /// textcodec's `decode_to_*` in fatal mode against encoding_rs's
    /// `decode_to_*_without_replacement`, each going on with `src[read..]` after an error.
    /// The outputs (the good text between the errors) and the numbers of errors are checked
    /// against each other first.
    #[allow(clippy::too_many_arguments)]
    fn fatal<D: Copy + Default + PartialEq>(
        &mut self,
        direction: &str,
        input: &str,
        name: &str,
        src: &[u8],
        tc_len: fn(&textcodec::Decoder, usize) -> Option<usize>,
        er_len: fn(&encoding_rs::Decoder, usize) -> Option<usize>,
        tc_run: fn(Tc, &[u8], &mut [D]) -> FatalTotals,
        er_run: fn(Er, &[u8], &mut [D]) -> FatalTotals,
    ) {
        if FAST {
            return;
        }
        let what = format!("{direction}/{input}/{name}");
        let (tc, er) = encodings(name);
        let mut er_dst =
            vec![D::default(); max_len([er_len(&er.new_decoder(), src.len())].into_iter())];
        let (er_read, er_written, er_errors) = er_run(er, src, &mut er_dst);
        if er_read != src.len() {
            warn(&format!("{what}: {ER} read {er_read} of {}", src.len()));
        }
        let tc_dst = probe(&what, || {
            let len = tc_len(&tc.new_decoder(fatal_options()), src.len());
            let mut dst = vec![D::default(); max_len([len].into_iter())];
            let (read, written, errors) = tc_run(tc, src, &mut dst);
            if read != src.len() || errors != er_errors {
                warn(&format!(
                    "{what}: {TC} read {read} of {} with {errors} errors, {ER} {er_errors}",
                    src.len()
                ));
            }
            check_same(&what, &dst[..written], &er_dst[..er_written]);
            dst
        });
        let mut g = self.group(&what, src.len());
        if let Some(mut dst) = tc_dst {
            g.bench_function(TC, |b| b.iter(|| tc_run(tc, src, &mut dst)));
        }
        g.bench_function(ER, |b| b.iter(|| er_run(er, src, &mut er_dst)));
        g.finish();
    }

    /// An error-dense input in both error modes, to UTF-8 and to UTF-16.
    fn dense(&mut self, input: &str, name: &str, src: Vec<u8>) {
        let srcs = [src];
        self.decode_utf8(input, name, &srcs, false);
        self.decode_utf16(input, name, &srcs);
        self.fatal(
            "fatal_utf8",
            input,
            name,
            &srcs[0],
            |d, n| d.max_utf8_buffer_length(n),
            |d, n| d.max_utf8_buffer_length_without_replacement(n),
            tc_fatal_utf8,
            er_fatal_utf8,
        );
        self.fatal(
            "fatal_utf16",
            input,
            name,
            &srcs[0],
            |d, n| d.max_utf16_buffer_length(n),
            |d, n| d.max_utf16_buffer_length(n),
            tc_fatal_utf16,
            er_fatal_utf16,
        );
    }

    /// The one-call hooks ("decode", "encode") on a whole input: allocation of the result
    /// included, as most users call them. `name` may be UTF-8 (then "decode" validates and
    /// borrows, and "encode" is not measured: both only borrow).
    fn hooks(&mut self, input: &str, name: &str, text: &str) {
        if FAST {
            return;
        }
        let (tc, er) = encodings(name);
        let bytes = er.encode(text).0.into_owned();
        let what = format!("hook_decode/{input}/{name}");
        let (want, _, _) = er.decode(&bytes);
        let (got, _, _) = textcodec::decode(&bytes, tc);
        if check_same(&what, got.as_bytes(), want.as_bytes()) {
            let mut g = self.group(&what, bytes.len());
            g.bench_function(TC, |b| {
                b.iter(|| textcodec::decode(black_box(&bytes), tc).0.len())
            });
            g.bench_function(ER, |b| b.iter(|| er.decode(black_box(&bytes)).0.len()));
            g.finish();
        }
        if name == "UTF-8" {
            return;
        }
        let what = format!("hook_encode/{input}/{name}");
        let got = textcodec::encode(text, tc).0;
        if check_same(&what, &got, &bytes) {
            let mut g = self.group(&what, text.len());
            g.bench_function(TC, |b| {
                b.iter(|| textcodec::encode(black_box(text), tc).0.len())
            });
            g.bench_function(ER, |b| b.iter(|| er.encode(black_box(text)).0.len()));
            g.finish();
        }
    }

    /// The Unicode workloads of one input: UTF-8 to UTF-8, UTF-8 validation, UTF-8 to
    /// UTF-16, UTF-16 (in memory) to UTF-8, UTF-16LE and UTF-16BE bytes to UTF-8.
    fn unicode(&mut self, input: &str, texts: &[String]) {
        let utf8: Vec<Vec<u8>> = texts.iter().map(|t| t.as_bytes().to_vec()).collect();
        let utf16: Vec<Vec<u16>> = texts.iter().map(|t| t.encode_utf16().collect()).collect();
        let le: Vec<Vec<u8>> = utf16
            .iter()
            .map(|u| u.iter().flat_map(|c| c.to_le_bytes()).collect())
            .collect();
        let be: Vec<Vec<u8>> = utf16
            .iter()
            .map(|u| u.iter().flat_map(|c| c.to_be_bytes()).collect())
            .collect();
        self.decode_utf8(input, "UTF-8", &utf8, true);
        self.validate_utf8(input, &utf8);
        self.decode_utf16(input, "UTF-8", &utf8);
        self.encode_utf16(input, "UTF-8", &utf16);
        self.decode_utf8(input, "UTF-16LE", &le, false);
        self.decode_utf8(input, "UTF-16BE", &be, false);
    }

    /// The four directions between `texts` and `name`.
    fn legacy(&mut self, input: &str, name: &str, texts: &[String]) {
        if !wanted("decode_utf8", name) && !wanted("encode_utf8", name) {
            return;
        }
        let what = format!("{input}/{name}");
        let encoded: Vec<Vec<u8>> = texts.iter().map(|t| legacy_input(&what, name, t)).collect();
        let utf16: Vec<Vec<u16>> = texts.iter().map(|t| t.encode_utf16().collect()).collect();
        self.decode_utf8(input, name, &encoded, false);
        self.decode_utf16(input, name, &encoded);
        self.encode_utf8(input, name, texts);
        self.encode_utf16(input, name, &utf16);
    }
}

fn all(c: &mut Criterion) {
    let mut b = Bench { c };

    for (lang, legacy) in LANGS {
        for kind in ["txt", "html"] {
            let input = format!("{lang}.{kind}");
            let text = String::from_utf8(corpus(&input)).expect("the corpus is UTF-8");
            let texts = [text];
            for name in legacy.iter() {
                b.legacy(&input, name, &texts);
            }
            b.unicode(&input, &texts);
            if kind == "txt" {
                for name in legacy.iter().chain(&["UTF-8"]) {
                    b.hooks(&input, name, &texts[0]);
                }
            }
        }
    }

    // x-user-defined, whose real use is binary data.
    let jpg = corpus("binary.jpg");
    let (_, er) = encodings("x-user-defined");
    let text = er.decode_without_bom_handling(&jpg).0.into_owned();
    let utf16: Vec<u16> = text.encode_utf16().collect();
    let srcs = [jpg];
    b.decode_utf8("binary.jpg", "x-user-defined", &srcs, false);
    b.decode_utf16("binary.jpg", "x-user-defined", &srcs);
    b.encode_utf8("binary.jpg", "x-user-defined", &[text]);
    b.encode_utf16("binary.jpg", "x-user-defined", &[utf16]);

    // Pure ASCII: the English HTML page without its non-ASCII characters.
    let en = String::from_utf8(corpus("en.html")).expect("the corpus is UTF-8");
    let ascii = [en.chars().filter(char::is_ascii).collect::<String>()];
    b.unicode("ascii.html", &ascii);
    for name in ["windows-1252", "Shift_JIS"] {
        b.legacy("ascii.html", name, &ascii);
    }

    // Short strings: every iteration converts all of them, each with a new decoder or
    // encoder, so this measures the per-call overhead.
    let short: Vec<String> = SHORT.iter().map(|s| s.to_string()).collect();
    for s in &short {
        assert!((16..=64).contains(&s.len()), "{s:?} is {} bytes", s.len());
    }
    b.unicode("short", &short);
    for name in SHORT_LEGACY {
        b.legacy("short", name, &short);
    }

    error_dense(&mut b);
}

/// Size of the error-dense inputs made by repeating a pattern.
const DENSE_LEN: usize = 32 * 1024;

/// `pattern` repeated to [`DENSE_LEN`] bytes (whole repeats).
fn repeated(pattern: &[u8]) -> Vec<u8> {
    pattern.repeat(DENSE_LEN / pattern.len())
}

/// Error-dense input: malformed sequences one after the other or between single characters,
/// as a damaged file or a wrong label gives them. Each is decoded in replacement mode and in
/// fatal mode resumed after each error (how the command reports error positions).
fn error_dense(b: &mut Bench) {
    // UTF-8: a lone continuation byte repeated; a truncated three-byte sequence before each
    // ASCII letter; the Japanese text with every 32nd byte's high bit flipped (ASCII becomes
    // a lone continuation byte, a lead byte becomes ASCII before orphaned continuations, a
    // continuation byte becomes ASCII inside a sequence).
    b.dense("dense-80", "UTF-8", repeated(&[0x80]));
    b.dense("dense-e381-ascii", "UTF-8", repeated(&[0xE3, 0x81, b'A']));
    let mut damaged = corpus("ja.txt");
    for byte in damaged.iter_mut().skip(31).step_by(32) {
        *byte ^= 0x80;
    }
    b.dense("dense-damaged32", "UTF-8", damaged);
    // Double-byte encodings: a byte that is never valid, and a lead byte before ASCII (an
    // error that gives the ASCII byte back).
    b.dense("dense-a0", "Shift_JIS", repeated(&[0xA0]));
    for (name, lead) in [
        ("Shift_JIS", 0x82),
        ("EUC-JP", 0xA4),
        ("EUC-KR", 0xB0),
        ("Big5", 0xA4),
    ] {
        b.dense("dense-lead-ascii", name, repeated(&[lead, b' ']));
    }
    // gb18030: a four-byte prefix that fails at its last byte and restores three bytes.
    b.dense(
        "dense-81308120",
        "gb18030",
        repeated(&[0x81, 0x30, 0x81, 0x20]),
    );
    // UTF-16LE: lone high surrogates (each one ends the one before), lone low surrogates,
    // and a high surrogate before an ASCII letter.
    b.dense("dense-high", "UTF-16LE", repeated(&[0x00, 0xD8]));
    b.dense("dense-low", "UTF-16LE", repeated(&[0x00, 0xDC]));
    b.dense(
        "dense-high-ascii",
        "UTF-16LE",
        repeated(&[0x00, 0xD8, b'A', 0x00]),
    );
    // ISO-2022-JP: an escape sequence that selects nothing (ESC ( Z), which restores two
    // bytes.
    b.dense(
        "dense-bad-escape",
        "ISO-2022-JP",
        repeated(&[0x1B, b'(', b'Z']),
    );
    // Single-byte encodings: bytes their index leaves unmapped.
    b.dense("dense-unmapped", "windows-1253", repeated(&[0xAA]));
    let (_, er) = encodings("ISO-8859-8");
    let unmapped: Vec<u8> = (0x80..=0xFF)
        .filter(|&byte| er.decode_without_bom_handling(&[byte]).1)
        .collect();
    b.dense("dense-unmapped", "ISO-8859-8", repeated(&unmapped));
}

fn config() -> Criterion {
    // TEXTCODEC_LEVEL=scalar|sse2|avx2|avx512 forces the dispatch level (scripts/bench-compare.sh).
    workloads::force_level_from_env();
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
        .nresamples(10_000)
        .without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = all
}
criterion_main!(benches);
