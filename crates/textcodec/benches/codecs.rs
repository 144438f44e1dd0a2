//! Throughput of textcodec against encoding_rs over the Wikipedia corpus.
//!
//! Every workload is one criterion group named `direction/input/encoding`, for example
//! `decode_utf8/ja.txt/Shift_JIS`, with one function per implementation (`textcodec`,
//! `encoding_rs`, and for UTF-8 validation also `std`, `simdutf8` and the `memcpy`
//! physical limit). Both libraries use their streaming calls into buffers allocated
//! before the measurement, sized by their own `max_*_buffer_length`, with `last = true`;
//! a new decoder or encoder is made in every iteration, as a caller would.
//!
//! Built with `--features bench-er-fast`, encoding_rs has its fast-legacy-encode tables
//! and only the CJK encode workloads are registered, with the functions
//! `textcodec_fastrun` and `encoding_rs_fast` (same groups, so the report can show both
//! comparisons side by side).
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
use textcodec::{DecoderOptions, EncoderErrorMode, Status};

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

/// Each language of the corpus and its legacy encodings (data/corpus/README.md).
const LANGS: &[(&str, &[&str])] = &[
    ("ar", &["windows-1256", "ISO-8859-6"]),
    ("cs", &["windows-1250", "ISO-8859-2"]),
    ("de", &["windows-1252"]),
    ("el", &["windows-1253", "ISO-8859-7"]),
    ("en", &["windows-1252"]),
    ("fr", &["windows-1252"]),
    ("he", &["windows-1255", "ISO-8859-8"]),
    ("ja", &["Shift_JIS", "EUC-JP", "ISO-2022-JP"]),
    ("ko", &["EUC-KR"]),
    ("pt", &["windows-1252"]),
    ("ru", &["windows-1251", "KOI8-R", "IBM866"]),
    ("th", &["windows-874"]),
    ("tr", &["windows-1254"]),
    ("vi", &["windows-1258"]),
    ("zh_cn", &["GBK", "gb18030"]),
    ("zh_tw", &["Big5"]),
];

const CJK: &[&str] = &[
    "Shift_JIS",
    "EUC-JP",
    "ISO-2022-JP",
    "EUC-KR",
    "GBK",
    "gb18030",
    "Big5",
];

/// Short strings, 16 to 64 bytes of UTF-8 each: URLs, form fields, headers.
const SHORT: &[&str] = &[
    "https://example.com/search?q=mars+planet&lang=en",
    "https://ja.wikipedia.org/wiki/火星",
    "Content-Type: text/html; charset=utf-8",
    "Accept-Language: de-DE,de;q=0.9,en;q=0.8",
    "name=Jürgen Müller&city=Köln",
    "お名前=山田太郎&住所=東京都",
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64)",
    "comment=Très bien, merci beaucoup !",
    "검색어=화성 탐사&page=2",
    "/api/v1/items?id=12345&sort=desc",
    "Set-Cookie: session=abc123; Path=/; HttpOnly",
    "q=Марс планета&lr=213",
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
            let mut dst = vec![0u8; srcs.iter().map(Vec::len).max().unwrap_or(0)];
            g.bench_function("std", |b| b.iter(|| std_validate_copy(srcs, &mut dst)));
            g.bench_function("simdutf8", |b| {
                b.iter(|| simdutf8_validate_copy(srcs, &mut dst))
            });
            g.bench_function("simdutf8_only", |b| b.iter(|| simdutf8_validate(srcs)));
            g.bench_function("memcpy", |b| b.iter(|| memcpy(srcs, &mut dst)));
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
        g.finish();
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

    /// The Unicode workloads of one input: UTF-8 to UTF-8 and to UTF-16, UTF-16 (in
    /// memory) to UTF-8, UTF-16LE and UTF-16BE bytes to UTF-8.
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
}

fn config() -> Criterion {
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
