//! Encoding detection, textcodec's `detect::Detector` side by side with chardetng 1.0 on the
//! same inputs in the same run: each group `detect/<input>/<encoding>` has the functions
//! `textcodec` and `chardetng` (a new detector, the whole input in one `feed`, one `guess`).
//!
//! Inputs: the Wikipedia corpus (data/corpus/wikipedia/, text and HTML) in its legacy
//! encodings, as DETECTION.md lists.
//!
//!     cargo bench -p textcodec --bench detect

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use textcodec::detect::Detector;

const INPUTS: &[(&str, &str)] = &[
    ("ru.txt", "windows-1251"),
    ("ru.html", "windows-1251"),
    ("ru.txt", "KOI8-R"),
    ("de.txt", "windows-1252"),
    ("de.html", "windows-1252"),
    ("fr.txt", "windows-1252"),
    ("cs.txt", "windows-1250"),
    ("cs.html", "ISO-8859-2"),
    ("el.txt", "windows-1253"),
    ("he.txt", "windows-1255"),
    ("ar.txt", "windows-1256"),
    ("th.txt", "windows-874"),
    ("tr.txt", "windows-1254"),
    ("ja.txt", "Shift_JIS"),
    ("ja.html", "EUC-JP"),
    ("ko.txt", "EUC-KR"),
    ("zh_cn.txt", "GBK"),
    ("zh_tw.txt", "Big5"),
    ("zh_tw.html", "Big5"),
    ("en.html", "windows-1252"),
];

fn textcodec_guess(bytes: &[u8]) -> &'static textcodec::Encoding {
    let mut d = Detector::new();
    d.feed(bytes, true);
    d.guess(None, false)
}

fn chardetng_guess(bytes: &[u8]) -> &'static encoding_rs::Encoding {
    let mut d = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    d.feed(bytes, true);
    d.guess(None, chardetng::Utf8Detection::Deny)
}

fn bench(c: &mut Criterion) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/corpus/wikipedia");
    for &(file, encoding) in INPUTS {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).expect("corpus file");
        let enc = textcodec::Encoding::for_label(encoding.as_bytes()).expect("an encoding");
        let bytes = textcodec::encode(&text, enc).0.into_owned();
        let mut g = c.benchmark_group(format!("detect/{file}/{encoding}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.measurement_time(Duration::from_secs(2));
        g.warm_up_time(Duration::from_millis(500));
        g.sample_size(20);
        g.bench_function("textcodec", |b| {
            b.iter(|| textcodec_guess(black_box(&bytes)))
        });
        g.bench_function("chardetng", |b| {
            b.iter(|| chardetng_guess(black_box(&bytes)))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
