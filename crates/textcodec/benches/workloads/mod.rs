//! The workloads shared by the criterion suite (codecs.rs) and the instruction counts
//! (instructions.rs), so that both measure the same inputs.

/// Each language of the corpus and its legacy encodings (data/corpus/README.md).
pub const LANGS: &[(&str, &[&str])] = &[
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

/// Short strings, 16 to 64 bytes of UTF-8 each: URLs, form fields, headers.
pub const SHORT: &[&str] = &[
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

/// Forces the dispatch level named by `TEXTCODEC_LEVEL` (scalar, sse2, avx2, avx512, neon),
/// if set: scripts/bench-compare.sh and `TEXTCODEC_LEVEL=avx2 scripts/instructions.sh`.
/// Panics on an unknown name or a level this machine cannot run.
pub fn force_level_from_env() {
    use textcodec::dispatch::{set_level, Level};
    let Ok(level) = std::env::var("TEXTCODEC_LEVEL") else {
        return;
    };
    let wanted = match level.to_ascii_lowercase().as_str() {
        "scalar" => Level::Scalar,
        "sse2" => Level::Sse2,
        "avx2" => Level::Avx2,
        "avx512" => Level::Avx512,
        "neon" => Level::Neon,
        other => panic!("unknown level {other}"),
    };
    assert_eq!(set_level(wanted), wanted, "this machine cannot run {level}");
}
