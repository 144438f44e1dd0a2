//! The detector's evaluation (DETECTION.md): textcodec's `detect::Detector` and chardetng
//! on exactly the same inputs, in the same run.
//!
//! Held-out text (the Universal Declaration of Human Rights from data/detect/eval/ and the
//! Wikipedia article "Mars" from data/corpus/wikipedia/; the model is trained on other text,
//! data/detect/train/) in every language each legacy encoding serves, encoded into each of
//! its legacy encodings (characters it cannot represent become numeric character
//! references, as in Web forms), cut to four lengths: a title (10 to 30 characters), 100
//! and 1000 characters, and the whole text. A guess is right when the bytes decode to the
//! same text as with the true encoding (so confusable encodings that decode the input
//! identically are right). Each input is guessed without a top-level domain and with the
//! language's. Legacy inputs are guessed with UTF-8 not allowed (as browsers do); the
//! UTF-8 rows with UTF-8 allowed.
//!
//! Two disjoint sets: every text is cut in two at the line break nearest its middle. The
//! first halves are the DEVELOPMENT set, the second halves the TEST set. Anything tuned by
//! hand (the detector's constants, the generator's hand-set shares) is tuned on the
//! development set only; the test set is read only by the full report, which
//! scripts/detect-eval.sh writes into DETECTION.md:
//!
//!     cargo run --release -p textcodec --example detect_eval              # development set
//!     cargo run --release -p textcodec --example detect_eval -- --rows    # its rows below chardetng
//!     cargo run --release -p textcodec --example detect_eval -- --misses  # its wrong guesses (stderr)
//!     cargo run --release -p textcodec --example detect_eval -- --margins # how far from wrong
//!                                                 # (and every input's margin on stderr)
//!     cargo run --release -p textcodec --example detect_eval -- --stress [LANG...]
//!         # every title and 100-character piece from every word start of the development
//!         # set (textcodec alone; wrong counts per cell, every wrong guess on stderr)
//!     cargo run --release -p textcodec --example detect_eval -- --stress-ko
//!         # short Korean EUC-KR inputs built from the development set (few syllables, ASCII
//!         # words and names, syllables outside KS X 1001, rare syllables, Hanja, symbols),
//!         # both detectors without and with `.kr`; wrong or thin inputs on stderr
//!     cargo run --release -p textcodec --example detect_eval -- --cross-domain [TLD...]
//!         # every legacy input of the development set under every domain (or those given),
//!         # both detectors: what a domain's bonus costs other languages' text (their wrong
//!         # guesses under a domain on stderr)
//!     scripts/detect-eval.sh            # = detect_eval --report: test (headline) and development
//!
//! Prints Markdown on stdout.

use std::collections::BTreeMap;
use std::time::Instant;

use textcodec::detect::Detector;
use textcodec::Encoding;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// (language, its top-level domain, the encodings it is written in).
const ROWS: &[(&str, &str, &[&str])] = &[
    ("en", "uk", &["windows-1252"]),
    ("de", "de", &["windows-1252", "ISO-8859-15", "macintosh"]),
    ("fr", "fr", &["windows-1252", "ISO-8859-15", "macintosh"]),
    ("es", "es", &["windows-1252", "macintosh"]),
    ("pt", "pt", &["windows-1252", "macintosh"]),
    ("it", "it", &["windows-1252", "macintosh"]),
    ("nl", "nl", &["windows-1252"]),
    ("ca", "cat", &["windows-1252"]),
    ("sv", "se", &["windows-1252", "ISO-8859-10"]),
    ("da", "dk", &["windows-1252", "ISO-8859-10"]),
    ("nb", "no", &["windows-1252", "ISO-8859-10"]),
    ("fi", "fi", &["windows-1252", "ISO-8859-15"]),
    ("is", "is", &["windows-1252", "ISO-8859-10"]),
    ("fo", "fo", &["windows-1252", "ISO-8859-10"]),
    ("ga", "ie", &["windows-1252", "ISO-8859-14"]),
    ("cy", "uk", &["ISO-8859-14"]),
    ("gd", "uk", &["ISO-8859-14"]),
    (
        "et",
        "ee",
        &["windows-1257", "ISO-8859-15", "ISO-8859-4", "ISO-8859-13"],
    ),
    ("mt", "mt", &["ISO-8859-3"]),
    ("eo", "com", &["ISO-8859-3"]),
    (
        "pl",
        "pl",
        &["windows-1250", "ISO-8859-2", "ISO-8859-13", "ISO-8859-16"],
    ),
    ("cs", "cz", &["windows-1250", "ISO-8859-2"]),
    ("sk", "sk", &["windows-1250", "ISO-8859-2"]),
    ("sl", "si", &["windows-1250", "ISO-8859-2", "ISO-8859-16"]),
    ("hu", "hu", &["windows-1250", "ISO-8859-2", "ISO-8859-16"]),
    ("hr", "hr", &["windows-1250", "ISO-8859-2", "ISO-8859-16"]),
    ("bs", "ba", &["windows-1250", "ISO-8859-2"]),
    ("sr-Latn", "rs", &["windows-1250", "ISO-8859-2"]),
    ("ro", "ro", &["windows-1250", "ISO-8859-2", "ISO-8859-16"]),
    ("lt", "lt", &["windows-1257", "ISO-8859-13", "ISO-8859-4"]),
    ("lv", "lv", &["windows-1257", "ISO-8859-13", "ISO-8859-4"]),
    ("tr", "tr", &["windows-1254", "ISO-8859-3"]),
    ("az", "az", &["windows-1254"]),
    (
        "ru",
        "ru",
        &[
            "windows-1251",
            "KOI8-R",
            "KOI8-U",
            "ISO-8859-5",
            "IBM866",
            "x-mac-cyrillic",
        ],
    ),
    (
        "uk",
        "ua",
        &[
            "windows-1251",
            "KOI8-U",
            "ISO-8859-5",
            "IBM866",
            "x-mac-cyrillic",
        ],
    ),
    (
        "bg",
        "bg",
        &[
            "windows-1251",
            "KOI8-R",
            "ISO-8859-5",
            "IBM866",
            "x-mac-cyrillic",
        ],
    ),
    (
        "mk",
        "mk",
        &["windows-1251", "ISO-8859-5", "x-mac-cyrillic"],
    ),
    ("sr", "rs", &["windows-1251", "ISO-8859-5"]),
    ("be", "by", &["windows-1251", "IBM866"]),
    ("el", "gr", &["windows-1253", "ISO-8859-7"]),
    ("he", "il", &["windows-1255", "ISO-8859-8"]),
    ("ar", "eg", &["windows-1256", "ISO-8859-6"]),
    ("fa", "ir", &["windows-1256"]),
    ("ur", "pk", &["windows-1256"]),
    ("th", "th", &["windows-874"]),
    ("vi", "vn", &["windows-1258"]),
    ("ja", "jp", &["Shift_JIS", "EUC-JP", "ISO-2022-JP"]),
    ("ko", "kr", &["EUC-KR"]),
    ("zh-Hans", "cn", &["GBK", "gb18030"]),
    ("zh-Hant", "tw", &["Big5"]),
    // UTF-8, guessed with UTF-8 allowed.
    ("de", "de", &["UTF-8"]),
    ("ru", "ru", &["UTF-8"]),
    ("el", "gr", &["UTF-8"]),
    ("ja", "jp", &["UTF-8"]),
    ("zh-Hans", "cn", &["UTF-8"]),
    ("th", "th", &["UTF-8"]),
];

/// The two disjoint evaluation sets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Set {
    /// The first half of every text: for development and any tuning.
    Dev,
    /// The second half of every text: read only by the full report (`--report`).
    Test,
}

/// The Wikipedia article's file for a language, where the corpus has one.
fn wikipedia(lang: &str, encoding: &str) -> Option<String> {
    let name = match lang {
        "zh-Hans" => "zh_cn",
        "zh-Hant" => "zh_tw",
        "vi" if encoding == "windows-1258" => {
            return read(&format!("{ROOT}/data/detect/eval/wikipedia-vi-1258.txt"))
        }
        "ar" | "cs" | "de" | "en" | "fr" | "el" | "he" | "ja" | "ko" | "pt" | "ru" | "th"
        | "tr" | "vi" => lang,
        _ => return None,
    };
    read(&format!("{ROOT}/data/corpus/wikipedia/{name}.txt"))
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

fn udhr(lang: &str, encoding: &str) -> String {
    let name = if lang == "vi" && encoding == "windows-1258" {
        "vi-1258"
    } else {
        lang
    };
    let path = format!("{ROOT}/data/detect/eval/{name}.txt");
    read(&path).unwrap_or_else(|| panic!("{path}: missing (scripts/export_detect_eval.py)"))
}

/// A text's half in `set`: the text is cut at the line break nearest its middle (in
/// characters); the development set has the first half, the test set the second.
fn half(text: &str, set: Set) -> String {
    let middle = text.chars().count() / 2;
    let mut best = (usize::MAX, 0);
    for (chars, (i, c)) in text.char_indices().enumerate() {
        if c == '\n' {
            let distance = chars.abs_diff(middle);
            if distance < best.0 {
                best = (distance, i + 1);
            }
        }
    }
    assert!(best.0 != usize::MAX, "a text of one line cannot be split");
    let (first, second) = text.split_at(best.1);
    match set {
        Set::Dev => first.to_string(),
        Set::Test => second.to_string(),
    }
}

/// The texts of a row in one set: the declaration's half and, where the corpus has the
/// language, the Wikipedia article's half.
fn texts(lang: &str, encoding: &str, set: Set) -> Vec<String> {
    let mut texts = vec![half(&udhr(lang, encoding), set)];
    if let Some(w) = wikipedia(lang, encoding) {
        texts.push(half(&w, set));
    }
    texts
}

/// Legacy Romanian text used the cedilla letters of ISO-8859-2 and windows-1250.
fn for_encoding(text: &str, lang: &str, encoding: &str) -> String {
    if lang == "ro" && encoding != "ISO-8859-16" && encoding != "UTF-8" {
        text.replace('ș', "ş")
            .replace('ț', "ţ")
            .replace('Ș', "Ş")
            .replace('Ț', "Ţ")
    } else {
        text.to_string()
    }
}

const LENGTHS: [(&str, usize, usize); 4] = [
    ("title", 30, 60),
    ("100", 100, 40),
    ("1000", 1000, 20),
    ("whole", usize::MAX, 1),
];

/// `count` pieces of `text` of at most `len` characters, starting at word starts spread
/// evenly, ending at a word end (titles: at least 10 characters).
fn pieces(text: &str, len: usize, count: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if len >= chars.len() {
        return vec![text.to_string()];
    }
    let spaced = is_spaced(&chars);
    (0..count)
        .filter_map(|i| {
            let mut start = (chars.len() - len) * i / count;
            if spaced {
                while start > 0 && start < chars.len() && !chars[start - 1].is_whitespace() {
                    start += 1;
                }
            }
            piece_at(&chars, start, len, spaced)
        })
        .collect()
}

/// Whether a text puts spaces between its words (more than one character in 20 a space).
fn is_spaced(chars: &[char]) -> bool {
    chars.iter().filter(|c| c.is_whitespace()).count() * 20 > chars.len()
}

/// The piece of at most `len` characters from `start` (after any whitespace there), ending
/// at a word end where the text is `spaced` (titles: at least 10 characters); none under 5
/// characters.
fn piece_at(chars: &[char], mut start: usize, len: usize, spaced: bool) -> Option<String> {
    while start < chars.len() && chars[start].is_whitespace() {
        start += 1;
    }
    let mut end = (start + len).min(chars.len());
    if spaced && end < chars.len() {
        let min = start + if len <= 30 { 10 } else { len / 2 };
        let mut e = end;
        while e > min && !chars[e].is_whitespace() {
            e -= 1;
        }
        if e > min {
            end = e;
        }
    }
    let piece: String = chars[start..end].iter().collect();
    let piece = piece.trim().to_string();
    (piece.chars().count() >= 5).then_some(piece)
}

/// Every piece of `text` of at most `len` characters that starts at a word start (every
/// character where the text has no spaces) and ends where [`pieces`]' would: the stress set.
fn every_piece(text: &str, len: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let spaced = is_spaced(&chars);
    (0..chars.len().saturating_sub(len.min(chars.len())).max(1))
        .filter(|&i| {
            !chars[i].is_whitespace() && (!spaced || i == 0 || chars[i - 1].is_whitespace())
        })
        .filter_map(|i| piece_at(&chars, i, len, spaced))
        .collect()
}

/// `--stress [LANG...]`: textcodec alone on every title and 100-character piece of the
/// DEVELOPMENT set that starts at a word start (not only the evaluation's 60 and 40 a text),
/// each without and with the language's domain, to find systematic errors without looking
/// at the test set. Prints the wrong counts per cell on stdout and every wrong guess on
/// stderr.
fn stress(langs: &[String]) {
    println!("Stress (development set, every word start): textcodec wrong / inputs\n");
    println!("| language | encoding | title | title, domain | 100 | 100, domain |");
    println!("|---|---|---|---|---|---|");
    let mut totals = [[(0u32, 0u32); 2]; 2];
    for &(lang, tld, encodings) in ROWS {
        if !langs.is_empty() && !langs.iter().any(|l| l == lang) {
            continue;
        }
        for &enc_name in encodings {
            let truth = Encoding::for_label(enc_name.as_bytes()).expect("an encoding");
            let allow_utf8 = truth == textcodec::UTF_8;
            let mut cells = [[(0u32, 0u32); 2]; 2];
            for (li, &(name, len, _)) in LENGTHS[..2].iter().enumerate() {
                for text in texts(lang, enc_name, Set::Dev) {
                    for piece in every_piece(&text, len) {
                        let piece = for_encoding(&piece, lang, enc_name);
                        let bytes = textcodec::encode(&piece, truth).0.into_owned();
                        for (ti, t) in [None, Some(tld.as_bytes())].into_iter().enumerate() {
                            let ours = ours_guess(&bytes, t, allow_utf8);
                            let wrong = !right(&bytes, ours, truth);
                            for c in [&mut cells[li][ti], &mut totals[li][ti]] {
                                c.0 += u32::from(wrong);
                                c.1 += 1;
                            }
                            if wrong {
                                let domain = if ti == 0 {
                                    String::new()
                                } else {
                                    format!(" .{tld}")
                                };
                                eprintln!(
                                    "{lang} {enc_name} {name}{domain}: {}: {piece:?}",
                                    ours.name()
                                );
                            }
                        }
                    }
                }
            }
            let c: Vec<String> = cells
                .iter()
                .flatten()
                .map(|(w, n)| format!("{w} / {n}"))
                .collect();
            println!("| {lang} | {enc_name} | {} |", c.join(" | "));
        }
    }
    let c: Vec<String> = totals
        .iter()
        .flatten()
        .map(|(w, n)| format!("{w} / {n}"))
        .collect();
    println!("| all | | {} |", c.join(" | "));
}

/// Whether `c` is a Hangul syllable of KS X 1001 (EUC-KR's two-byte rows 0xB0-0xC8, both
/// bytes 0xA1 and above), as opposed to the other 8,822 syllables of EUC-KR's extension.
fn ks_x_1001(c: char) -> bool {
    let mut buf = [0u8; 4];
    let bytes = textcodec::encode(c.encode_utf8(&mut buf), textcodec::EUC_KR).0;
    bytes.len() == 2 && bytes[0] >= 0xA1 && bytes[1] >= 0xA1
}

fn is_hangul(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

/// A small deterministic generator (the inputs are the same in every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// The Korean syllables' counts in the model's two training sources (data/detect/train/).
fn korean_counts() -> BTreeMap<char, u64> {
    let mut counts = BTreeMap::new();
    for name in ["ko.tsv", "ko_lingua.tsv"] {
        let path = format!("{ROOT}/data/detect/train/{name}");
        for line in read(&path).unwrap_or_default().lines() {
            let mut parts = line.split('\t');
            if let (Some(k), Some(n)) = (parts.next(), parts.next()) {
                let mut chars = k.chars();
                if let (Some(c), None, Ok(n)) = (chars.next(), chars.next(), n.parse::<u64>()) {
                    *counts.entry(c).or_default() += n;
                }
            }
        }
    }
    counts
}

/// `--stress-ko`: short Korean EUC-KR inputs built from the DEVELOPMENT set's Korean text
/// (never the test set), each guessed by textcodec and chardetng without and with `.kr`:
/// runs of 2 to 6 syllables from every word start; a Korean word of 1 to 4 syllables beside
/// an ASCII title piece of the English development text, of the other Latin-script
/// languages' development texts, or beside a name (capitalized ASCII words in a row in those
/// texts); development titles with one syllable replaced by one of EUC-KR's extension
/// (outside KS X 1001: its trail byte may be an ASCII letter) or by a rare KS X 1001
/// syllable (the fewest counts in both training sources), or with Hanja or a KS X 1001
/// symbol added. Prints the wrong counts per kind (and
/// textcodec's thinnest margins) on stdout, and on stderr every input either detector gets
/// wrong and every input within 5 nats of a wrong guess.
fn stress_korean() {
    let ko: Vec<Vec<char>> = texts("ko", "EUC-KR", Set::Dev)
        .iter()
        .map(|t| t.chars().collect())
        .collect();
    let titles: Vec<String> = texts("ko", "EUC-KR", Set::Dev)
        .iter()
        .flat_map(|t| every_piece(t, 30))
        .collect();
    let english: Vec<String> = texts("en", "windows-1252", Set::Dev)
        .iter()
        .flat_map(|t| every_piece(t, 30))
        .collect();
    let counts = korean_counts();
    // KS X 1001 syllables, rarest first (the training sources' counts added).
    let mut rare: Vec<(u64, char)> = ('\u{AC00}'..='\u{D7A3}')
        .filter(|&c| ks_x_1001(c))
        .map(|c| (counts.get(&c).copied().unwrap_or(0), c))
        .collect();
    rare.sort();
    rare.truncate(300);
    let mut kinds: Vec<(&str, Vec<String>)> = vec![("development titles", titles.clone())];
    // Runs of 2 to 6 syllables (and what lies between them) from every word start.
    let mut short = Vec::new();
    for chars in &ko {
        for i in 0..chars.len() {
            if !is_hangul(chars[i]) || (i > 0 && !chars[i - 1].is_whitespace()) {
                continue;
            }
            for n in 2..=6 {
                let mut seen = 0;
                let mut end = i;
                while end < chars.len() && seen < n {
                    seen += usize::from(is_hangul(chars[end]));
                    end += 1;
                }
                if seen == n {
                    short.push(chars[i..end].iter().collect::<String>());
                }
            }
        }
    }
    kinds.push(("2-6 syllables", short));
    // A Korean word of 1 to 4 syllables beside an ASCII title piece.
    let mut words: Vec<String> = Vec::new();
    for chars in &ko {
        let mut i = 0;
        while i < chars.len() {
            let start = i;
            while i < chars.len() && is_hangul(chars[i]) {
                i += 1;
            }
            if (1..=4).contains(&(i - start)) {
                words.push(chars[start..i].iter().collect());
            }
            i += 1;
        }
    }
    let ascii: Vec<&String> = english.iter().filter(|t| t.is_ascii()).collect();
    let mut rng = Lcg(1);
    let mut mixed = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let a = ascii[rng.next(ascii.len())];
        mixed.push(match i % 3 {
            0 => format!("{a} {w}"),
            1 => format!("{w} {a}"),
            _ => format!("{w} ({a})"),
        });
    }
    kinds.push(("ASCII + 1-4 syllables", mixed));
    // The same beside ASCII pieces of the other Latin-script languages' development text
    // (names and terms that are not English).
    let mut foreign_ascii: Vec<String> = Vec::new();
    for l in [
        "it", "es", "pt", "fr", "de", "nl", "ca", "sv", "da", "nb", "fi", "pl", "cs", "hu", "ro",
        "tr", "lt", "et", "vi",
    ] {
        let enc = if l == "vi" { "UTF-8" } else { "windows-1252" };
        for t in texts(l, enc, Set::Dev) {
            foreign_ascii.extend(every_piece(&t, 30).into_iter().filter(|p| p.is_ascii()));
        }
    }
    let mut mixed = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let a = &foreign_ascii[rng.next(foreign_ascii.len())];
        mixed.push(match i % 3 {
            0 => format!("{a} {w}"),
            1 => format!("{w} {a}"),
            _ => format!("{w} ({a})"),
        });
    }
    kinds.push(("other languages' ASCII + 1-4 syllables", mixed));
    // Names (two or more capitalized ASCII words in a row, as the Latin-script development
    // texts write them: "Valles Marineris", "Olympus Mons") beside Korean words.
    let mut names: Vec<String> = Vec::new();
    for l in [
        "en", "it", "es", "pt", "fr", "de", "nl", "ca", "sv", "da", "nb", "fi", "pl", "cs", "hu",
        "ro", "tr", "lt", "et",
    ] {
        for t in texts(l, "windows-1252", Set::Dev) {
            let mut run: Vec<&str> = Vec::new();
            for w in t.split_whitespace().chain(std::iter::once("")) {
                let capital = w.len() > 1
                    && w.bytes().all(|b| b.is_ascii_alphabetic())
                    && w.starts_with(|c: char| c.is_ascii_uppercase());
                if capital {
                    run.push(w);
                } else {
                    if run.len() >= 2 {
                        names.push(run.join(" "));
                    }
                    run.clear();
                }
            }
        }
    }
    names.sort();
    names.dedup();
    let mut named = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let n = &names[rng.next(names.len())];
        named.push(match i % 3 {
            0 => format!("{n} {w}"),
            1 => format!("{w} {n}"),
            _ => format!("{w}({n})"),
        });
    }
    kinds.push(("names + 1-4 syllables", named));
    // One syllable replaced: outside KS X 1001 (the same initial and vowel with another
    // final), or a rare KS X 1001 syllable.
    let mut uhc = Vec::new();
    let mut rare_titles = Vec::new();
    for t in &titles {
        let chars: Vec<char> = t.chars().collect();
        let at: Vec<usize> = (0..chars.len()).filter(|&i| is_hangul(chars[i])).collect();
        if at.is_empty() {
            continue;
        }
        let i = at[rng.next(at.len())];
        let base = (chars[i] as u32 - 0xAC00) / 28 * 28 + 0xAC00;
        let outside: Vec<char> = (0..28)
            .filter_map(|f| char::from_u32(base + f))
            .filter(|&c| !ks_x_1001(c))
            .collect();
        if !outside.is_empty() {
            let mut c = chars.clone();
            c[i] = outside[rng.next(outside.len())];
            uhc.push(c.into_iter().collect::<String>());
        }
        let mut c = chars.clone();
        c[i] = rare[rng.next(rare.len())].1;
        rare_titles.push(c.into_iter().collect::<String>());
    }
    kinds.push(("a syllable outside KS X 1001", uhc));
    kinds.push(("a rare KS X 1001 syllable", rare_titles));
    // Hanja (Sino-Korean words in KS X 1001's Hanja rows) and KS X 1001 symbols.
    const HANJA: [&str; 12] = [
        "火星",
        "地球",
        "太陽",
        "宇宙",
        "人權",
        "宣言",
        "自由",
        "平等",
        "世界",
        "國家",
        "大韓民國",
        "科學",
    ];
    const SYMBOLS: [&str; 16] = [
        "※", "·", "○", "●", "◎", "□", "■", "△", "▶", "→", "「", "」", "℃", "①", "㈜", "㎞",
    ];
    let mut hanja = Vec::new();
    let mut symbols = Vec::new();
    for t in &titles {
        let h = HANJA[rng.next(HANJA.len())];
        hanja.push(match rng.next(3) {
            0 => format!("{t}({h})"),
            1 => format!("{h} {t}"),
            _ => format!("{t} {h}"),
        });
        let s = SYMBOLS[rng.next(SYMBOLS.len())];
        symbols.push(match rng.next(2) {
            0 => format!("{s} {t}"),
            _ => format!("{t} {s}"),
        });
    }
    kinds.push(("Hanja", hanja));
    kinds.push(("a KS X 1001 symbol", symbols));

    println!("Korean stress (development set): wrong / inputs, textcodec / chardetng\n");
    println!("| kind | inputs | without a domain | with `.kr` | thinnest margin | below 5 nats |");
    println!("|---|---|---|---|---|---|");
    for (name, inputs) in &kinds {
        let mut wrong = [[0u32; 2]; 2];
        let mut thin: [(f64, String); 2] = std::array::from_fn(|_| (f64::MAX, String::new()));
        let mut below = [0u32; 2];
        for piece in inputs {
            let bytes = textcodec::encode(piece, textcodec::EUC_KR).0.into_owned();
            for (ti, t) in [None, Some(&b"kr"[..])].into_iter().enumerate() {
                let ours = ours_guess(&bytes, t, false);
                let theirs = chardetng_guess(&bytes, t, false);
                let o = !right(&bytes, ours, textcodec::EUC_KR);
                let c = !right(&bytes, theirs, textcodec::EUC_KR);
                wrong[ti][0] += u32::from(o);
                wrong[ti][1] += u32::from(c);
                let (m, w) = margin(&bytes, t, false, textcodec::EUC_KR);
                below[ti] += u32::from(m < 5.0);
                if m < thin[ti].0 {
                    thin[ti] = (m, format!("{} {piece:?}", w.map_or("-", |e| e.name())));
                }
                if m < 5.0 {
                    eprintln!(
                        "thin {name}{} {m:.1} {}: {piece:?}",
                        if ti == 0 { "" } else { " .kr" },
                        w.map_or("-", |e| e.name())
                    );
                }
                if o || c {
                    eprintln!(
                        "{name}{}: ours {} chardetng {} margin {m:.1}: {piece:?}",
                        if ti == 0 { "" } else { " .kr" },
                        ours.name(),
                        theirs.name()
                    );
                }
            }
        }
        println!(
            "| {name} | {} | {} / {} | {} / {} | {:.1} {} / {:.1} {} | {} / {} |",
            inputs.len(),
            wrong[0][0],
            wrong[0][1],
            wrong[1][0],
            wrong[1][1],
            thin[0].0,
            thin[0].1,
            thin[1].0,
            thin[1].1,
            below[0],
            below[1]
        );
    }
}

/// One (domain, length) cell of the cross-domain diagnostic: inputs, right guesses of
/// textcodec and chardetng, and how many of them the domain turned wrong (right without a
/// domain) or right (wrong without one).
#[derive(Default, Clone, Copy)]
struct Cross {
    n: u32,
    right: [u32; 2],
    lost: [u32; 2],
    gained: [u32; 2],
}

impl Cross {
    fn add(&mut self, other: &Cross) {
        self.n += other.n;
        for i in 0..2 {
            self.right[i] += other.right[i];
            self.lost[i] += other.lost[i];
            self.gained[i] += other.gained[i];
        }
    }

    /// "textcodec / chardetng (+turned wrong / +turned wrong)", percentages to two decimals.
    fn cell(&self) -> String {
        if self.n == 0 {
            return "-".into();
        }
        let pct = |x: u32| 100.0 * f64::from(x) / f64::from(self.n);
        format!(
            "{:.2} / {:.2} (+{} / +{})",
            pct(self.right[0]),
            pct(self.right[1]),
            self.lost[0],
            self.lost[1]
        )
    }

    /// The domain's own rows: "textcodec / chardetng of n (+turned right / +turned right)".
    fn own_cell(&self) -> String {
        if self.n == 0 {
            return "-".into();
        }
        let pct = |x: u32| 100.0 * f64::from(x) / f64::from(self.n);
        format!(
            "{:.2} / {:.2} of {} (+{} / +{})",
            pct(self.right[0]),
            pct(self.right[1]),
            self.n,
            self.gained[0],
            self.gained[1]
        )
    }
}

/// `--cross-domain [TLD...]`: what a domain's bonus costs the text of other languages. Every
/// legacy input of the DEVELOPMENT set (the UTF-8 rows are left out: valid UTF-8 is UTF-8
/// under any domain) is guessed by both detectors without a domain and under each domain
/// (every domain the model knows, or the ones given). Per domain and length, on the inputs
/// of the languages of other domains (rows whose domain is another): percent right,
/// textcodec / chardetng, and in parentheses how many of them the domain turned wrong (right
/// without a domain); and the same on the domain's own rows, with how many it turned
/// right. Prints Markdown on stdout, and on stderr every other language's input textcodec
/// gets wrong under a domain (with its guess without one).
fn cross_domain(only: &[String]) {
    let domains: Vec<&'static [u8]> = Detector::domains()
        .filter(|d| only.is_empty() || only.iter().any(|o| o.as_bytes() == *d))
        .collect();
    if domains.is_empty() {
        eprintln!("detect_eval: --cross-domain: no such domain among the model's");
        std::process::exit(2);
    }
    // [domain][length]: the other languages' inputs and the domain's own.
    let mut others = vec![[Cross::default(); 4]; domains.len()];
    let mut own = vec![[Cross::default(); 4]; domains.len()];
    for &(lang, tld, encodings) in ROWS {
        for &enc_name in encodings {
            let truth = Encoding::for_label(enc_name.as_bytes()).expect("an encoding");
            if truth == textcodec::UTF_8 {
                continue;
            }
            for (li, &(len_name, len, count)) in LENGTHS.iter().enumerate() {
                for text in texts(lang, enc_name, Set::Dev) {
                    for piece in pieces(&text, len, count) {
                        let piece = for_encoding(&piece, lang, enc_name);
                        let bytes = textcodec::encode(&piece, truth).0.into_owned();
                        let mut ours = Detector::new();
                        ours.feed(&bytes, true);
                        let mut theirs =
                            chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
                        theirs.feed(&bytes, true);
                        let mut known: Vec<(&'static Encoding, bool)> = Vec::new();
                        let mut is_right = |e: &'static Encoding| {
                            if let Some(&(_, r)) = known.iter().find(|(x, _)| *x == e) {
                                return r;
                            }
                            let r = right(&bytes, e, truth);
                            known.push((e, r));
                            r
                        };
                        let guesses = |t: Option<&[u8]>| {
                            [ours.guess(t, false), chardetng_answer(&theirs, t, false)]
                        };
                        let plain = guesses(None);
                        let plain_right = plain.map(&mut is_right);
                        for (di, &d) in domains.iter().enumerate() {
                            let g = guesses(Some(d));
                            let r = g.map(&mut is_right);
                            let is_own = tld.as_bytes() == d;
                            let cell = if is_own {
                                &mut own[di][li]
                            } else {
                                &mut others[di][li]
                            };
                            cell.n += 1;
                            for i in 0..2 {
                                cell.right[i] += u32::from(r[i]);
                                cell.lost[i] += u32::from(plain_right[i] && !r[i]);
                                cell.gained[i] += u32::from(!plain_right[i] && r[i]);
                            }
                            if !is_own && !r[0] {
                                eprintln!(
                                    "cross .{} {lang} {enc_name} {len_name}: ours {} (without a domain {}) chardetng {}: {piece:?}",
                                    String::from_utf8_lossy(d),
                                    g[0].name(),
                                    plain[0].name(),
                                    g[1].name()
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    println!("Cross-domain (development set, legacy inputs): percent right, textcodec / chardetng, under each domain\n");
    println!("Other languages' inputs (rows of other domains); in parentheses, how many the domain turned wrong (right without a domain).\n");
    println!("| domain | title | 100 | 1000 | whole | own rows, all lengths (+turned right) | other inputs |");
    println!("|---|---|---|---|---|---|---|");
    let mut total = [Cross::default(); 4];
    let mut total_own = Cross::default();
    for (di, d) in domains.iter().enumerate() {
        let c: Vec<String> = others[di].iter().map(Cross::cell).collect();
        let mut o = Cross::default();
        for (li, cell) in own[di].iter().enumerate() {
            o.add(cell);
            total[li].add(&others[di][li]);
        }
        total_own.add(&o);
        let own_cell = o.own_cell();
        let n: Vec<String> = others[di].iter().map(|c| c.n.to_string()).collect();
        println!(
            "| .{} | {} | {own_cell} | {} |",
            String::from_utf8_lossy(d),
            c.join(" | "),
            n.join(" / ")
        );
    }
    let c: Vec<String> = total.iter().map(Cross::cell).collect();
    let n: Vec<String> = total.iter().map(|c| c.n.to_string()).collect();
    println!(
        "| all | {} | {} | {} |",
        c.join(" | "),
        total_own.own_cell(),
        n.join(" / ")
    );
}

fn chardetng_guess(bytes: &[u8], tld: Option<&[u8]>, allow_utf8: bool) -> &'static Encoding {
    let mut d = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    d.feed(bytes, true);
    chardetng_answer(&d, tld, allow_utf8)
}

/// The guess of a chardetng detector already fed, as textcodec's encoding.
fn chardetng_answer(
    d: &chardetng::EncodingDetector,
    tld: Option<&[u8]>,
    allow_utf8: bool,
) -> &'static Encoding {
    let utf8 = if allow_utf8 {
        chardetng::Utf8Detection::Allow
    } else {
        chardetng::Utf8Detection::Deny
    };
    let e = d.guess(tld, utf8);
    Encoding::for_label(e.name().as_bytes()).expect("a spec encoding")
}

fn ours_guess(bytes: &[u8], tld: Option<&[u8]>, allow_utf8: bool) -> &'static Encoding {
    let mut d = Detector::new();
    d.feed(bytes, true);
    d.guess(tld, allow_utf8)
}

fn right(bytes: &[u8], guess: &'static Encoding, truth: &'static Encoding) -> bool {
    guess == truth || textcodec::decode(bytes, guess).0 == textcodec::decode(bytes, truth).0
}

/// How far textcodec's right answer is from its best wrong one, in nats: ln(P(right text) /
/// P(best wrong text)) from `Detector::candidates` (negative where the guess is wrong;
/// `MARGIN_CAP` where no wrong candidate is left, a rule decided, or the wrong ones are too
/// improbable for an `f32`), with the best wrong encoding.
fn margin(
    bytes: &[u8],
    tld: Option<&[u8]>,
    allow_utf8: bool,
    truth: &'static Encoding,
) -> (f64, Option<&'static Encoding>) {
    let mut d = Detector::new();
    d.feed(bytes, true);
    let (mut right_score, mut wrong) = (0.0f64, (0.0f64, None));
    for (e, s) in d.candidates(tld, allow_utf8) {
        let s = f64::from(s);
        if right(bytes, e, truth) {
            right_score = right_score.max(s);
        } else if s > wrong.0 {
            wrong = (s, Some(e));
        }
    }
    let m = if wrong.0 == 0.0 {
        MARGIN_CAP
    } else if right_score == 0.0 {
        -MARGIN_CAP
    } else {
        (right_score.ln() - wrong.0.ln()).clamp(-MARGIN_CAP, MARGIN_CAP)
    };
    (m, wrong.1)
}

/// The margin reported where nothing wrong is within reach.
const MARGIN_CAP: f64 = 99.0;

/// Each input's margin (`--margins`): (row, language, encoding, length, with a domain), the
/// margin, and the best wrong encoding with the input.
type Margins = Vec<(Cell, f64, String)>;

/// A cell: (row, language, encoding, length, with a domain).
type Cell = (usize, &'static str, &'static str, usize, usize);

#[derive(Default, Clone, Copy)]
struct Tally {
    n: u32,
    ours: u32,
    theirs: u32,
}

impl Tally {
    fn add(&mut self, ours: bool, theirs: bool) {
        self.n += 1;
        self.ours += u32::from(ours);
        self.theirs += u32::from(theirs);
    }
    fn pct(x: u32, n: u32) -> f64 {
        if n == 0 {
            100.0
        } else {
            100.0 * f64::from(x) / f64::from(n)
        }
    }
    fn cell(&self) -> String {
        if self.n == 0 {
            return "-".into();
        }
        let (o, t) = (Self::pct(self.ours, self.n), Self::pct(self.theirs, self.n));
        let mark = if o < t { " **<**" } else { "" };
        format!("{o:.0} / {t:.0}{mark}")
    }
}

/// Per (row, language, encoding): per length, [without TLD, with TLD].
type Table<'a> = BTreeMap<(usize, &'a str, &'a str), [[Tally; 2]; 4]>;

/// One set's results.
struct Results<'a> {
    table: Table<'a>,
    totals: [Tally; 2],
    /// The whole texts, with whether UTF-8 is allowed (for the throughput).
    whole_inputs: Vec<(Vec<u8>, bool)>,
    /// Each input's margin, with `--margins`.
    margins: Margins,
}

/// Guesses every input of `set`, both detectors; with `misses`, prints textcodec's wrong
/// guesses on stderr (those with the language's domain marked with it); with `margins`,
/// records each input's margin.
fn evaluate(set: Set, misses: bool, margins: bool) -> Results<'static> {
    let mut table = Table::new();
    let mut margin_list = Margins::new();
    let mut whole_inputs = Vec::new();
    let mut totals = [Tally::default(); 2];
    for (row, &(lang, tld, encodings)) in ROWS.iter().enumerate() {
        for &enc_name in encodings {
            let truth = Encoding::for_label(enc_name.as_bytes()).expect("an encoding");
            let allow_utf8 = truth == textcodec::UTF_8;
            let texts = texts(lang, enc_name, set);
            let cells = table.entry((row, lang, enc_name)).or_default();
            for (li, &(_, len, count)) in LENGTHS.iter().enumerate() {
                for text in &texts {
                    for piece in pieces(text, len, count) {
                        let piece = for_encoding(&piece, lang, enc_name);
                        let bytes = textcodec::encode(&piece, truth).0.into_owned();
                        if li == 3 {
                            whole_inputs.push((bytes.clone(), allow_utf8));
                        }
                        for (ti, t) in [None, Some(tld.as_bytes())].into_iter().enumerate() {
                            let ours = ours_guess(&bytes, t, allow_utf8);
                            let o = right(&bytes, ours, truth);
                            let c = right(&bytes, chardetng_guess(&bytes, t, allow_utf8), truth);
                            cells[li][ti].add(o, c);
                            totals[ti].add(o, c);
                            if margins {
                                let (m, wrong) = margin(&bytes, t, allow_utf8, truth);
                                let short: String = piece.chars().take(60).collect();
                                let what = format!("{} {short:?}", wrong.map_or("-", |e| e.name()));
                                eprintln!(
                                    "{m:.2}\t{lang}\t{enc_name}\t{}\t{}\t{what}",
                                    LENGTHS[li].0, TLD_NAMES[ti]
                                );
                                margin_list.push(((row, lang, enc_name, li, ti), m, what));
                            }
                            if misses && !o {
                                let domain = if ti == 0 {
                                    String::new()
                                } else {
                                    format!(" .{tld}")
                                };
                                eprintln!(
                                    "{lang} {enc_name} {}{domain}: ours {} chardetng {}: {piece:?}",
                                    LENGTHS[li].0,
                                    ours.name(),
                                    chardetng_guess(&bytes, t, allow_utf8).name()
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    Results {
        table,
        totals,
        whole_inputs,
        margins: margin_list,
    }
}

/// The margins' distribution (`--margins`): by length, then the cells with the thinnest
/// margins, then the thinnest inputs.
fn margin_report(r: &Results) -> String {
    const EDGES: [f64; 6] = [0.0, 1.0, 2.0, 3.0, 5.0, 10.0];
    let bucket = |m: f64| EDGES.iter().take_while(|&&e| m >= e).count();
    let mut out = String::from("### Margins (nats: ln P(right text) / P(best wrong text))\n\n");
    out += "| length | domain | < 0 | 0-1 | 1-2 | 2-3 | 3-5 | 5-10 | >= 10 |\n";
    out += "|---|---|---|---|---|---|---|---|---|\n";
    for (li, (name, ..)) in LENGTHS.iter().enumerate() {
        for (ti, tld) in TLD_NAMES.iter().enumerate() {
            let mut counts = [0u32; 7];
            for (k, m, _) in &r.margins {
                if k.3 == li && k.4 == ti {
                    counts[bucket(*m)] += 1;
                }
            }
            let c: Vec<String> = counts.iter().map(u32::to_string).collect();
            out += &format!("| {name} | {tld} | {} |\n", c.join(" | "));
        }
    }
    // Per cell: the smallest margin and how many inputs are below 2 nats.
    let mut cells: BTreeMap<Cell, (f64, u32, u32)> = BTreeMap::new();
    for (k, m, _) in &r.margins {
        let e = cells.entry(*k).or_insert((f64::MAX, 0, 0));
        e.0 = e.0.min(*m);
        e.1 += u32::from(*m < 2.0);
        e.2 += 1;
    }
    out += "\nSmallest margin of each cell, without / with the language's domain:\n\n";
    out += "| language | encoding | title | 100 | 1000 | whole |\n|---|---|---|---|---|---|\n";
    let rows: BTreeMap<(usize, &str, &str), ()> =
        cells.keys().map(|k| ((k.0, k.1, k.2), ())).collect();
    for &(row, lang, enc) in rows.keys() {
        let c: Vec<String> = (0..LENGTHS.len())
            .map(|li| {
                let m = |ti| {
                    cells
                        .get(&(row, lang, enc, li, ti))
                        .map_or(f64::NAN, |v| v.0)
                };
                format!("{:.1} / {:.1}", m(0), m(1))
            })
            .collect();
        out += &format!("| {lang} | {enc} | {} |\n", c.join(" | "));
    }
    let mut thin: Vec<_> = cells.into_iter().filter(|(_, v)| v.0 < 3.0).collect();
    thin.sort_by(|a, b| a.1 .0.total_cmp(&b.1 .0));
    out += "\nCells with an input within 3 nats (smallest margin, inputs below 2 nats of all):\n\n";
    out += "| language | encoding | length | domain | smallest | below 2 |\n|---|---|---|---|---|---|\n";
    for ((_, lang, enc, li, ti), (min, below, n)) in &thin {
        out += &format!(
            "| {lang} | {enc} | {} | {} | {min:.2} | {below} / {n} |\n",
            LENGTHS[*li].0, TLD_NAMES[*ti]
        );
    }
    let mut inputs: Vec<_> = r.margins.iter().filter(|(_, m, _)| *m < 2.0).collect();
    inputs.sort_by(|a, b| a.1.total_cmp(&b.1));
    out += "\nInputs within 2 nats, thinnest first (the best wrong encoding, the input):\n\n";
    for ((_, lang, enc, li, ti), m, piece) in inputs {
        out += &format!(
            "- {m:.2} {lang} {enc} {} {}: {piece:?}\n",
            LENGTHS[*li].0, TLD_NAMES[*ti]
        );
    }
    out
}

const TLD_NAMES: [&str; 2] = ["without TLD", "with TLD"];

/// The summary lines of one set.
fn summary(r: &Results) -> String {
    let mut out = String::new();
    for (ti, name) in ["without TLD", "with the language's TLD"]
        .iter()
        .enumerate()
    {
        let t = r.totals[ti];
        out += &format!(
            "- {name}: {:.2} % / {:.2} % of {} inputs\n",
            Tally::pct(t.ours, t.n),
            Tally::pct(t.theirs, t.n),
            t.n
        );
    }
    for (ti, tld) in TLD_NAMES.iter().enumerate() {
        let rows: Vec<(f64, f64, &str, &str)> = r
            .table
            .iter()
            .map(|((_, lang, enc), cells)| {
                let mut t = Tally::default();
                for c in cells {
                    t.n += c[ti].n;
                    t.ours += c[ti].ours;
                    t.theirs += c[ti].theirs;
                }
                (
                    Tally::pct(t.ours, t.n),
                    Tally::pct(t.theirs, t.n),
                    *lang,
                    *enc,
                )
            })
            .collect();
        let o = rows.iter().min_by(|a, b| a.0.total_cmp(&b.0)).unwrap();
        let c = rows.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        out += &format!(
            "- worst row (all lengths) {tld}: textcodec {:.1} % ({} {}), chardetng {:.1} % ({} {})\n",
            o.0, o.2, o.3, c.1, c.2, c.3
        );
    }
    for (ti, tld) in TLD_NAMES.iter().enumerate() {
        let worst = |f: &dyn Fn(&Tally) -> u32| {
            r.table
                .iter()
                .flat_map(|(k, v)| v.iter().map(move |c| (k, c[ti])))
                .filter(|(_, c)| c.n > 0)
                .map(|(k, c)| (Tally::pct(f(&c), c.n), *k))
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .unwrap()
        };
        let (o, ok) = worst(&|c| c.ours);
        let (c, ck) = worst(&|c| c.theirs);
        out += &format!(
            "- worst cell {tld}: textcodec {o:.0} % ({} {}), chardetng {c:.0} % ({} {})\n",
            ok.1, ok.2, ck.1, ck.2
        );
    }
    for (ti, tld) in TLD_NAMES.iter().enumerate() {
        let by_length: Vec<String> = LENGTHS
            .iter()
            .enumerate()
            .map(|(li, (name, ..))| {
                let mut t = Tally::default();
                for cells in r.table.values() {
                    t.n += cells[li][ti].n;
                    t.ours += cells[li][ti].ours;
                    t.theirs += cells[li][ti].theirs;
                }
                format!(
                    "{name} {:.1} / {:.1}",
                    Tally::pct(t.ours, t.n),
                    Tally::pct(t.theirs, t.n)
                )
            })
            .collect();
        out += &format!("- by length {tld}: {}\n", by_length.join(", "));
    }
    for (ti, tld) in TLD_NAMES.iter().enumerate() {
        let below = r
            .table
            .values()
            .flat_map(|v| v.iter())
            .filter(|c| c[ti].ours < c[ti].theirs)
            .count();
        out += &format!(
            "- cells (of {}) where textcodec is below chardetng, {tld}: {below}\n",
            r.table.len() * LENGTHS.len()
        );
    }
    out
}

/// One set's tables (`failing_only`: only the rows with a cell below chardetng).
fn tables(r: &Results, failing_only: bool, level: &str) -> String {
    let mut out = String::new();
    for (ti, name) in [
        "Without a top-level domain",
        "With the language's top-level domain",
    ]
    .iter()
    .enumerate()
    {
        out += &format!("{level} {name}\n\n");
        out += "Percent right, textcodec / chardetng (**<** where textcodec is lower).\n\n";
        out += "| language | encoding | title | 100 | 1000 | whole |\n";
        out += "|---|---|---|---|---|---|\n";
        for ((_, lang, enc), cells) in &r.table {
            if failing_only && !cells.iter().any(|c| c[ti].ours < c[ti].theirs) {
                continue;
            }
            let c: Vec<String> = cells.iter().map(|c| c[ti].cell()).collect();
            out += &format!("| {lang} | {enc} | {} |\n", c.join(" | "));
        }
        out += "\n";
    }
    out
}

/// Every whole text, each detector fed it in one call and asked for a guess: best of three
/// rounds, wall clock, in the same run.
fn throughput(inputs: &[(Vec<u8>, bool)]) -> String {
    let bytes: usize = inputs.iter().map(|(b, _)| b.len()).sum();
    let mut best = [f64::MAX; 2];
    for _ in 0..3 {
        let t = Instant::now();
        for (b, allow) in inputs {
            std::hint::black_box(ours_guess(b, None, *allow));
        }
        best[0] = best[0].min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for (b, allow) in inputs {
            std::hint::black_box(chardetng_guess(b, None, *allow));
        }
        best[1] = best[1].min(t.elapsed().as_secs_f64());
    }
    let mbs = |s: f64| bytes as f64 / s / 1e6;
    format!(
        "- throughput over the {} whole texts of both sets ({:.1} MB): textcodec {:.1} MB/s, chardetng {:.1} MB/s ({:.2}x)\n",
        inputs.len(),
        bytes as f64 / 1e6,
        mbs(best[0]),
        mbs(best[1]),
        best[1] / best[0]
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // A mode's operands (after its flag): names, not other flags.
    let operands = |what: &str| {
        if let Some(other) = args[1..].iter().find(|a| a.starts_with('-')) {
            eprintln!("detect_eval: {} takes {what}, not {other}", args[0]);
            std::process::exit(2);
        }
        &args[1..]
    };
    if args.first().is_some_and(|a| a == "--stress") {
        stress(operands("language codes"));
        return;
    }
    if args.first().is_some_and(|a| a == "--stress-ko") {
        stress_korean();
        return;
    }
    if args.first().is_some_and(|a| a == "--cross-domain") {
        cross_domain(operands("top-level domains"));
        return;
    }
    let flag = |f: &str| args.iter().any(|a| a == f);
    let (rows_only, misses, margins, report) = (
        flag("--rows"),
        flag("--misses"),
        flag("--margins"),
        flag("--report"),
    );
    if let Some(other) = args
        .iter()
        .find(|a| !matches!(a.as_str(), "--rows" | "--misses" | "--margins" | "--report"))
    {
        eprintln!(
            "detect_eval: unknown argument {other} (--rows, --misses, --margins or --report)"
        );
        std::process::exit(2);
    }
    if report && (rows_only || misses || margins) {
        // The test set is for the report alone: no diagnostics to tune on.
        eprintln!(
            "detect_eval: --report takes no diagnostics (--rows, --misses, --margins: development set)"
        );
        std::process::exit(2);
    }
    if !report {
        let dev = evaluate(Set::Dev, misses, margins);
        println!("Development set: textcodec / chardetng\n");
        print!("{}", summary(&dev));
        println!();
        if margins {
            print!("{}", margin_report(&dev));
            return;
        }
        print!("{}", tables(&dev, rows_only, "###"));
        return;
    }
    let test = evaluate(Set::Test, false, false);
    let dev = evaluate(Set::Dev, false, false);
    let mut whole = test.whole_inputs.clone();
    whole.extend(dev.whole_inputs.iter().cloned());
    println!("**Test set** (the headline; no tuning ever looked at it): textcodec / chardetng\n");
    print!("{}", summary(&test));
    print!("{}", throughput(&whole));
    println!();
    println!(
        "**Development set** (every hand-set constant was chosen on it): textcodec / chardetng\n"
    );
    print!("{}", summary(&dev));
    println!();
    print!("{}", tables(&test, false, "### Test set:"));
    println!("### Development set: rows below chardetng\n");
    let failing = tables(&dev, true, "####");
    print!("{failing}");
}
