//! The generator behind `cargo xtask gen-detect-model`: the encoding detector's model
//! (`crates/textcodec/src/detect/model.rs`), from the training statistics in
//! `data/detect/train/` (exported from pinned packages by scripts/export_detect_training.py)
//! and the WHATWG indexes in `data/whatwg/`.
//!
//! The model has two parts, both in costs of 0.1 nat (ten times the negative natural
//! logarithm of a probability, rounded, at most 254; 255 means "impossible"):
//!
//! - For single-byte encodings, one candidate per (encoding, language) pair listed in
//!   [`SINGLE_BYTE_CANDIDATES`]. Each language has a small alphabet: class 0 is every ASCII
//!   byte that is not a letter, class 1 every ASCII letter, then one class per non-ASCII
//!   letter of the language (case folded), then one class for common non-ASCII punctuation
//!   and one for anything else. A language's table gives the cost of each class after each
//!   class (a bigram model, smoothed with the class frequencies). Each candidate maps the 256
//!   bytes of its encoding to the language's classes.
//! - For the CJK encodings, the cost of each character by its pointer, from the character
//!   frequencies of the language (a unigram model); 255 where the index has no character.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use crate::{parse_index, GeneratedFile, SINGLE_BYTE};

/// Cost units per nat.
const SCALE: f64 = 10.0;
/// The largest cost of a possible event.
const MAX_COST: u8 = 254;
/// A byte or sequence the encoding cannot have produced from text.
const IMPOSSIBLE: u8 = 255;

/// The alphabetic languages, in model order (wordfreq's codes; `sh` is Serbo-Croatian in
/// Latin letters, `sr` Serbian in Cyrillic ones; `et`, `cy`, `ga`, `eo`, `az`, `sr` and `be`
/// are from Lingua's models, `fo`, `gd` and `mt` from the CLDR, `th` from pythainlp). The
/// Latin-script ones come first (see `LATIN`).
const ALPHABETIC: [&str; 44] = [
    "en", "de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "is", "pl", "cs", "sk",
    "sl", "hu", "ro", "sh", "lt", "lv", "tr", "vi", "et", "fo", "cy", "gd", "ga", "mt", "eo", "az",
    "ru", "uk", "bg", "mk", "sr", "be", "el", "he", "ar", "fa", "ur", "th",
];

/// The number of Latin-script languages at the start of [`ALPHABETIC`].
const LATIN: usize = 32;

/// The CJK languages and the file of their character frequencies.
const CJK: [&str; 4] = ["zh_hans", "zh_hant", "ja", "ko"];

/// Which languages each single-byte encoding is scored for: the languages that were written
/// in it. (Where a language's text decodes identically in two encodings, one of them is
/// enough: German in ISO-8859-2 is German in windows-1252.)
pub const SINGLE_BYTE_CANDIDATES: [(&str, &[&str]); 27] = [
    (
        "windows-1252",
        &[
            "en", "de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "is", "fo",
            "ga", "gd", "cy",
        ],
    ),
    ("ISO-8859-15", &["fr", "fi", "de", "nl", "et"]),
    ("macintosh", &["fr", "de", "es", "pt", "it", "sv"]),
    ("windows-1254", &["tr", "az"]),
    ("ISO-8859-3", &["tr", "mt", "eo"]),
    ("ISO-8859-10", &["is", "da", "sv", "nb", "fi", "fo"]),
    ("ISO-8859-14", &["cy", "gd", "ga"]),
    ("ISO-8859-16", &["ro", "pl", "hu", "sl", "sh"]),
    ("windows-1250", &["pl", "cs", "sk", "sl", "hu", "ro", "sh"]),
    ("ISO-8859-2", &["pl", "cs", "sk", "sl", "hu", "ro", "sh"]),
    ("windows-1257", &["lt", "lv", "et"]),
    ("ISO-8859-13", &["lt", "lv", "et", "pl"]),
    ("ISO-8859-4", &["lt", "lv", "et"]),
    ("windows-1258", &["vi"]),
    ("windows-874", &["th"]),
    ("windows-1251", &["ru", "uk", "bg", "mk", "sr", "be"]),
    ("KOI8-R", &["ru", "bg"]),
    ("KOI8-U", &["uk", "ru"]),
    ("ISO-8859-5", &["ru", "bg", "mk", "sr", "be"]),
    ("IBM866", &["ru", "uk", "be"]),
    ("x-mac-cyrillic", &["ru", "uk", "bg", "mk"]),
    ("windows-1253", &["el"]),
    ("ISO-8859-7", &["el"]),
    ("windows-1255", &["he"]),
    ("ISO-8859-8", &["he"]),
    ("windows-1256", &["ar", "fa", "ur"]),
    ("ISO-8859-6", &["ar"]),
];

/// The prior, P(language) P(encoding | language). How much of the legacy Web each language
/// had: relative weights, hand-set from the languages' shares of Web content.
const LANGUAGE_WEIGHT: [(&str, f64); 48] = [
    ("et", 0.2),
    ("fo", 0.02),
    ("cy", 0.1),
    ("gd", 0.02),
    ("ga", 0.05),
    ("mt", 0.05),
    ("eo", 0.05),
    ("en", 20.0),
    ("de", 6.0),
    ("fr", 5.0),
    ("es", 6.0),
    ("pt", 4.0),
    ("it", 3.0),
    ("nl", 2.0),
    ("ca", 0.5),
    ("sv", 1.0),
    ("da", 0.7),
    ("nb", 0.7),
    ("fi", 0.7),
    ("is", 0.1),
    ("pl", 2.0),
    ("cs", 1.0),
    ("sk", 0.5),
    ("sl", 0.3),
    ("hu", 0.7),
    ("ro", 0.7),
    ("sh", 0.5),
    ("lt", 0.3),
    ("lv", 0.2),
    ("tr", 2.0),
    ("az", 0.2),
    ("vi", 1.5),
    ("ru", 6.0),
    ("uk", 1.0),
    ("bg", 0.5),
    ("mk", 0.1),
    ("sr", 0.3),
    ("be", 0.2),
    ("el", 0.6),
    ("he", 0.5),
    ("ar", 1.0),
    ("fa", 1.0),
    ("ur", 0.2),
    ("th", 0.5),
    ("zh_hans", 2.0),
    ("zh_hant", 1.0),
    ("ja", 4.0),
    ("ko", 1.0),
];

/// Which share of a language's legacy pages each of its encodings had (hand-set: the Windows
/// code page first, the ISO and other encodings after it).
const ENCODING_SHARE: [(&str, f64); 33] = [
    ("ISO-8859-14", 0.3),
    ("windows-1252", 0.85),
    ("ISO-8859-15", 0.05),
    ("macintosh", 0.03),
    ("ISO-8859-10", 0.02),
    ("windows-1254", 0.85),
    ("ISO-8859-3", 0.05),
    ("windows-1250", 0.6),
    ("ISO-8859-2", 0.35),
    ("ISO-8859-16", 0.05),
    ("windows-1257", 0.7),
    ("ISO-8859-13", 0.2),
    ("ISO-8859-4", 0.1),
    ("windows-1258", 1.0),
    ("windows-874", 1.0),
    ("windows-1251", 0.7),
    ("KOI8-R", 0.15),
    ("KOI8-U", 0.05),
    ("ISO-8859-5", 0.03),
    ("IBM866", 0.04),
    ("x-mac-cyrillic", 0.03),
    ("windows-1253", 0.7),
    ("ISO-8859-7", 0.3),
    ("windows-1255", 0.7),
    ("ISO-8859-8", 0.3),
    ("windows-1256", 0.85),
    ("ISO-8859-6", 0.15),
    ("GBK", 1.0),
    ("Big5", 1.0),
    ("Shift_JIS", 0.6),
    ("EUC-JP", 0.3),
    ("ISO-2022-JP", 0.1),
    ("EUC-KR", 1.0),
];

/// Encodings that were a minor choice for one of their languages: (encoding, language,
/// share).
const SHARE_EXCEPTIONS: [(&str, &str, f64); 4] = [
    ("ISO-8859-13", "pl", 0.01),
    ("ISO-8859-3", "mt", 0.5),
    ("ISO-8859-3", "eo", 0.5),
    ("windows-1252", "cy", 0.5),
];

/// The weight of the prior against the text's evidence (the hand-set shares are rough).
///
/// This and the other hand-set constants of the model (the punctuation, apostrophe and
/// boundary shares, the smoothing) were tuned on the evaluation's development set only
/// (DETECTION.md, "Protocol"). (The CJK texts' non-ASCII shares, hand-set to 0.8 before, are
/// measured in running text now: `cjk_non_ascii.tsv`.)
const PRIOR_STRENGTH: f64 = 0.25;

/// The prior cost of a language written in an encoding, relative to the most likely pair.
fn prior_cost(language: &str, encoding: &str) -> Result<u16, String> {
    let weight = |l: &str| {
        LANGUAGE_WEIGHT
            .iter()
            .find(|(n, _)| *n == l)
            .map(|&(_, w)| w)
            .ok_or_else(|| format!("no weight for {l}"))
    };
    let share = SHARE_EXCEPTIONS
        .iter()
        .find(|(e, l, _)| *e == encoding && *l == language)
        .map(|&(_, _, s)| s)
        .map_or_else(
            || {
                ENCODING_SHARE
                    .iter()
                    .find(|(n, _)| *n == encoding)
                    .map(|&(_, s)| s)
                    .ok_or_else(|| format!("no share for {encoding}"))
            },
            Ok,
        )?;
    let top = weight("en")? * 0.85;
    Ok((-(weight(language)? * share / top).ln() * SCALE * PRIOR_STRENGTH).round() as u16)
}

/// Encodings that only some countries' pages used for a language the encoding serves: each
/// with the top-level domains where it was used. Under any other domain, the domain's
/// language bonus goes to its languages in their other encodings only. ISO-8859-16 covers
/// Polish, Hungarian, Slovene and Serbo-Croatian too, but it was Romania's encoding: those
/// countries' pages were in windows-1250 and ISO-8859-2.
const REGIONAL_ENCODINGS: [(&str, &[&str]); 1] = [("ISO-8859-16", &["ro", "md"])];

/// Top-level domains: the languages of their pages and their browsers' fallback encoding.
const TLDS: &[(&str, &[&str], &str)] = &[
    ("ad", &["ca"], "windows-1252"),
    ("ae", &["ar"], "windows-1256"),
    ("af", &["fa"], "windows-1256"),
    ("ar", &["es"], "windows-1252"),
    ("at", &["de"], "windows-1252"),
    ("au", &["en"], "windows-1252"),
    ("az", &["az", "ru"], "windows-1254"),
    ("ba", &["sh", "sr"], "windows-1250"),
    ("be", &["nl", "fr"], "windows-1252"),
    ("bg", &["bg"], "windows-1251"),
    ("bh", &["ar"], "windows-1256"),
    ("br", &["pt"], "windows-1252"),
    ("by", &["be", "ru"], "windows-1251"),
    ("ca", &["en", "fr"], "windows-1252"),
    ("cat", &["ca"], "windows-1252"),
    ("ch", &["de", "fr", "it"], "windows-1252"),
    ("cl", &["es"], "windows-1252"),
    ("cn", &["zh_hans"], "GBK"),
    ("co", &["es"], "windows-1252"),
    ("cy", &["el", "tr"], "windows-1253"),
    ("cymru", &["cy", "en"], "windows-1252"),
    ("cz", &["cs"], "windows-1250"),
    ("de", &["de"], "windows-1252"),
    ("dk", &["da"], "windows-1252"),
    ("dz", &["ar", "fr"], "windows-1256"),
    ("ee", &["et"], "windows-1257"),
    ("eg", &["ar"], "windows-1256"),
    ("es", &["es", "ca"], "windows-1252"),
    ("fi", &["fi", "sv"], "windows-1252"),
    ("fo", &["fo", "da"], "windows-1252"),
    ("fr", &["fr"], "windows-1252"),
    ("gr", &["el"], "windows-1253"),
    ("hk", &["zh_hant"], "Big5"),
    ("hr", &["sh"], "windows-1250"),
    ("hu", &["hu"], "windows-1250"),
    ("ie", &["en", "ga"], "windows-1252"),
    ("il", &["he"], "windows-1255"),
    ("iq", &["ar"], "windows-1256"),
    ("ir", &["fa"], "windows-1256"),
    ("is", &["is"], "windows-1252"),
    ("it", &["it"], "windows-1252"),
    ("jo", &["ar"], "windows-1256"),
    ("jp", &["ja"], "Shift_JIS"),
    ("kg", &["ru"], "windows-1251"),
    ("kp", &["ko"], "EUC-KR"),
    ("kr", &["ko"], "EUC-KR"),
    ("kw", &["ar"], "windows-1256"),
    ("kz", &["ru"], "windows-1251"),
    ("lb", &["ar", "fr"], "windows-1256"),
    ("li", &["de"], "windows-1252"),
    ("lt", &["lt"], "windows-1257"),
    ("lu", &["fr", "de"], "windows-1252"),
    ("lv", &["lv"], "windows-1257"),
    ("ly", &["ar"], "windows-1256"),
    ("ma", &["ar", "fr"], "windows-1256"),
    ("md", &["ro", "ru"], "windows-1250"),
    ("me", &["sh", "sr"], "windows-1250"),
    ("mk", &["mk"], "windows-1251"),
    ("mo", &["zh_hant"], "Big5"),
    ("mt", &["mt", "en"], "windows-1252"),
    ("mx", &["es"], "windows-1252"),
    ("nl", &["nl"], "windows-1252"),
    ("no", &["nb"], "windows-1252"),
    ("nz", &["en"], "windows-1252"),
    ("om", &["ar"], "windows-1256"),
    ("pe", &["es"], "windows-1252"),
    ("pk", &["ur"], "windows-1256"),
    ("pl", &["pl"], "windows-1250"),
    ("ps", &["ar"], "windows-1256"),
    ("pt", &["pt"], "windows-1252"),
    ("qa", &["ar"], "windows-1256"),
    ("ro", &["ro"], "windows-1250"),
    ("rs", &["sh", "sr"], "windows-1250"),
    ("ru", &["ru"], "windows-1251"),
    ("sa", &["ar"], "windows-1256"),
    ("scot", &["gd", "en"], "windows-1252"),
    ("sd", &["ar"], "windows-1256"),
    ("se", &["sv"], "windows-1252"),
    ("sg", &["zh_hans", "en"], "GBK"),
    ("si", &["sl"], "windows-1250"),
    ("sk", &["sk"], "windows-1250"),
    ("sm", &["it"], "windows-1252"),
    ("su", &["ru"], "windows-1251"),
    ("sy", &["ar"], "windows-1256"),
    ("th", &["th"], "windows-874"),
    ("tj", &["ru"], "windows-1251"),
    ("tn", &["ar", "fr"], "windows-1256"),
    ("tr", &["tr"], "windows-1254"),
    ("tw", &["zh_hant"], "Big5"),
    ("ua", &["uk", "ru"], "windows-1251"),
    ("uk", &["en", "cy", "gd"], "windows-1252"),
    ("us", &["en"], "windows-1252"),
    ("uy", &["es"], "windows-1252"),
    ("ve", &["es"], "windows-1252"),
    ("vn", &["vi"], "windows-1258"),
    ("wales", &["cy", "en"], "windows-1252"),
    ("ye", &["ar"], "windows-1256"),
    ("za", &["en"], "windows-1252"),
];

/// Non-ASCII punctuation of text in any language, in four classes: opening punctuation and
/// the symbols written before a unit's letters (the degree sign of 20 °C and 45°N, the micro
/// sign of µm), followed as a space is; closing punctuation, separators and symbols, followed by a space
/// far more often than by a letter (the ordinal indicators ª and º among them: 1.º, 2ª; the
/// middle dot between menu items); each common or uncommon. Others are rare.
const OPENING_COMMON: [u32; 3] = [0xAB, 0x201C, 0x201E];

/// The no-break space is a space (class 0).
fn is_ascii_like(c: char) -> bool {
    c == '\u{A0}'
}
const OPENING_UNCOMMON: [u32; 7] = [0xA1, 0xBF, 0x2018, 0x201A, 0x2039, 0xB0, 0xB5];
const CLOSING_COMMON: [u32; 9] = [
    0xBB, 0x2013, 0x2014, 0x201D, 0x2026, 0x20AC, 0xAA, 0xBA, 0xB7,
];

/// Punctuation that a language may write within words (Catalan's l·l): a letter of the
/// languages whose words have it (as often as a letter of their alphabet needs), punctuation
/// in the others.
const JOINING: [char; 1] = ['\u{B7}'];
const CLOSING_UNCOMMON: [u32; 12] = [
    0xA3, 0xA7, 0xA9, 0xAE, 0xB1, 0xD7, 0x2022, 0x203A, 0x2122, 0x2116, 0xB2, 0xB3,
];

/// The languages that quote »like this« (the guillemets point inwards: » opens, « closes),
/// the other way round from the default above (« opens: French « … », Russian «…»):
/// German, Czech, Slovak, Danish, Slovene, Serbo-Croatian and Hungarian (»…« as their
/// primary or alternative quotation marks; none of them writes «…»).
const GUILLEMETS_INWARD: [&str; 7] = ["de", "cs", "sk", "da", "sl", "sh", "hu"];

/// The languages that quote „like this“, where “ (U+201C) closes a quotation (it opens one
/// in English “…”): German, Czech, Slovak, Slovene, Icelandic, Lithuanian, Estonian,
/// Bulgarian, Macedonian and Serbian, whose primary quotation marks these are.
const LOW_HIGH_QUOTES: [&str; 10] = ["de", "cs", "sk", "sl", "is", "lt", "et", "bg", "mk", "sr"];

/// The punctuation class (0 to 3 as above) of a character in `language`'s text, if any: the
/// quotation marks whose direction depends on the language (above) move between the
/// opening and the closing classes.
fn punctuation_class(c: char, language: &str) -> Option<usize> {
    match c {
        '»' if GUILLEMETS_INWARD.contains(&language) => return Some(0),
        '«' if GUILLEMETS_INWARD.contains(&language) => return Some(2),
        '\u{201C}' if LOW_HIGH_QUOTES.contains(&language) => return Some(2),
        _ => {}
    }
    let c = c as u32;
    [
        &OPENING_COMMON[..],
        &OPENING_UNCOMMON,
        &CLOSING_COMMON,
        &CLOSING_UNCOMMON,
    ]
    .iter()
    .position(|set| set.contains(&c))
}

fn is_punctuation(c: char) -> bool {
    punctuation_class(c, "").is_some()
}

/// A letter's place in its language's alphabet: lower case, and the Romanian letters with
/// comma below as one with their cedilla forms (legacy encodings have only the latter).
fn fold(c: char) -> char {
    let c = c.to_lowercase().next().unwrap_or(c);
    match c {
        '\u{15F}' => '\u{219}',
        '\u{163}' => '\u{21B}',
        _ => c,
    }
}

fn cost(p: f64) -> u8 {
    let c = (-p.ln() * SCALE).round();
    if c.is_nan() || c > MAX_COST as f64 {
        MAX_COST
    } else if c < 0.0 {
        0
    } else {
        c as u8
    }
}

fn read_counts(path: &Path) -> Result<Vec<(String, u64)>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (key, count) = line
            .rsplit_once('\t')
            .ok_or_else(|| format!("{}: bad line {line:?}", path.display()))?;
        let count: u64 = count
            .parse()
            .map_err(|e| format!("{}: {line:?}: {e}", path.display()))?;
        out.push((key.to_string(), count));
    }
    Ok(out)
}

/// A language's bigram model over its classes.
struct Language {
    /// Its code (`ALPHABETIC`).
    name: &'static str,
    /// The number of classes of ASCII letters: one per letter for Latin-script languages
    /// (whose words mix them with the non-ASCII letters), one for all of them otherwise.
    ascii: usize,
    /// The non-ASCII letters, class `1 + ascii` onwards.
    alphabet: Vec<char>,
    /// The share of non-ASCII characters in the language's text.
    non_ascii_share: f64,
    /// The code points of the script's optional marks (Hebrew and Arabic vowel points).
    marks: std::ops::RangeInclusive<u32>,
    /// Those of them that end a word (Arabic tanween).
    final_marks: std::ops::RangeInclusive<u32>,
    /// `costs[a * n + b]`: the cost of class `b` after class `a`.
    costs: Vec<u8>,
    /// The cost of the apostrophe right after a word's first letter, for each ASCII letter
    /// (an elision: l’homme, d’aquest, I’m), Latin-script languages only.
    initial_apostrophe: Vec<u8>,
}

impl Language {
    fn classes(&self) -> usize {
        self.letters().end + 8
    }
    /// The typographic apostrophe (’), within words (l’homme, don’t) or closing a quotation.
    fn apostrophe(&self) -> usize {
        self.letters().end + 7
    }
    /// The marks that end a word (Arabic tanween).
    fn final_mark(&self) -> usize {
        self.letters().end + 6
    }
    /// The classes of the non-ASCII letters.
    fn letters(&self) -> std::ops::Range<usize> {
        1 + self.ascii..1 + self.ascii + self.alphabet.len()
    }
    /// Vowel points and other marks of the script that word lists leave out.
    fn mark(&self) -> usize {
        self.letters().end + 5
    }
    /// The first of the four punctuation classes.
    fn punctuation(&self) -> usize {
        self.letters().end
    }
    fn rare(&self) -> usize {
        self.letters().end + 4
    }
    fn class_of(&self, c: char) -> usize {
        let f = fold(c);
        if f.is_ascii_alphabetic() {
            // (Turkish İ is the capital of i.)
            if self.ascii == 1 {
                1
            } else {
                1 + (f as usize - 'a' as usize)
            }
        } else if c.is_ascii() || is_ascii_like(c) {
            0
        } else if let Some(i) = self.alphabet.iter().position(|&a| a == f) {
            self.letters().start + i
        } else if let Some(p) = punctuation_class(c, self.name) {
            self.punctuation() + p
        } else if c == '\u{2019}' {
            self.apostrophe()
        } else if self.final_marks.contains(&(c as u32)) {
            self.final_mark()
        } else if self.marks.contains(&(c as u32)) {
            self.mark()
        } else {
            self.rare()
        }
    }
}

/// The least share of a language's characters that a letter needs to get a class.
const ALPHABET_SHARE: f64 = 2e-5;
/// The largest alphabet.
const ALPHABET_MAX: usize = 96;
/// Interpolation weight of the class frequencies in the bigram probabilities.
const SMOOTHING: f64 = 0.01;
/// The probability of a character outside the language's alphabet and the punctuation.
const RARE_PROBABILITY: f64 = 2e-6;
/// Punctuation: the share of each common and each uncommon mark of the places where a word
/// boundary could be.
const COMMON_PUNCTUATION_SHARE: f64 = 0.001;
const UNCOMMON_PUNCTUATION_SHARE: f64 = 0.0001;
/// The share of letters followed by an apostrophe.
const APOSTROPHE_AFTER_LETTER: f64 = 0.001;
/// The share of ASCII non-letters after an ASCII non-letter (". ", ", ", "> ").
const BOUNDARY_AFTER_BOUNDARY: f64 = 0.3;
/// How much less likely a letter is right after closing punctuation than after a space.
const AFTER_CLOSING: f64 = 0.05;
/// How much less likely opening punctuation is right after a letter than where a word ends
/// otherwise (a quotation opens after a space: `nebo»` is not Czech; fixed in advance, not
/// tuned).
const OPENING_AFTER_LETTER: f64 = 0.1;

/// Optional marks that word lists strip but pointed text has: Hebrew points (U+05B0 to
/// U+05C7) and Arabic harakat (U+064B to U+0652).
fn marks_of(language: &str) -> std::ops::RangeInclusive<u32> {
    match language {
        "he" => 0x5B0..=0x5C7,
        "ar" | "fa" | "ur" => 0x64B..=0x652,
        #[allow(clippy::reversed_empty_ranges)]
        _ => 1..=0,
    }
}

/// The marks of `marks_of` that end a word: the Arabic tanween (U+064B to U+064D), the
/// indefinite endings, written on a word's last letter.
fn final_marks_of(language: &str) -> std::ops::RangeInclusive<u32> {
    match language {
        "ar" | "fa" | "ur" => 0x64B..=0x64D,
        #[allow(clippy::reversed_empty_ranges)]
        _ => 1..=0,
    }
}

/// In pointed text, the share of letters followed by a point, and of points followed by
/// another point.
const MARK_AFTER_LETTER: f64 = 0.1;
const MARK_AFTER_MARK: f64 = 0.2;
/// The share of the tanween followed by an alef: fathatan is written on the letter before
/// its alef (`ًا`) in some texts, after the alef (`اً`) in others (fixed in advance, not
/// tuned).
const ALEF_AFTER_TANWEEN: f64 = 0.5;

fn build_language(
    name: &'static str,
    bigrams: &[(String, u64)],
    (marks, final_marks): (std::ops::RangeInclusive<u32>, std::ops::RangeInclusive<u32>),
    ascii: usize,
) -> Result<Language, String> {
    let mut pairs: Vec<(char, char, f64)> = Vec::new();
    let mut unigram: BTreeMap<char, f64> = BTreeMap::new();
    let mut total = 0.0;
    // Word-initial ASCII letters followed by an apostrophe (" d'").
    let mut initial = [0.0f64; 26];
    for (key, count) in bigrams {
        if let [' ', x, '\''] = key.chars().collect::<Vec<_>>()[..] {
            if !x.is_ascii_lowercase() {
                return Err(format!("not a word-initial letter: {key:?}"));
            }
            initial[x as usize - 'a' as usize] += *count as f64;
            continue;
        }
        let mut chars = key.chars();
        let (Some(a), Some(b), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(format!("not a bigram: {key:?}"));
        };
        let (a, b) = (fold(a), fold(b));
        pairs.push((a, b, *count as f64));
        *unigram.entry(a).or_default() += *count as f64;
        total += *count as f64;
    }
    let mut letters: Vec<(char, f64)> = unigram
        .iter()
        .filter(|(c, n)| {
            // Combining marks (Vietnamese tones, Thai vowels and tone marks, Hebrew and
            // Arabic points) are letters of their alphabet too, and joining punctuation
            // where the words have it.
            !c.is_ascii()
                && **n / total >= ALPHABET_SHARE
                && (c.is_alphabetic() || !is_punctuation(**c) || JOINING.contains(c))
        })
        .map(|(&c, &n)| (c, n))
        .collect();
    letters.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    letters.truncate(ALPHABET_MAX);
    let mut alphabet: Vec<char> = letters.into_iter().map(|(c, _)| c).collect();
    alphabet.sort();
    let non_ascii: f64 = unigram
        .iter()
        .filter(|(c, _)| !c.is_ascii())
        .map(|(_, n)| n)
        .sum();
    let mut lang = Language {
        name,
        ascii,
        alphabet,
        non_ascii_share: non_ascii / total,
        marks,
        final_marks,
        costs: Vec::new(),
        initial_apostrophe: Vec::new(),
    };
    let n = lang.classes();
    let mut counts = vec![0.0f64; n * n];
    // How often each ASCII letter begins a word.
    let mut word_initial = [0.0f64; 26];
    for &(a, b, count) in &pairs {
        counts[lang.class_of(a) * n + lang.class_of(b)] += count;
        if a == ' ' && b.is_ascii_lowercase() {
            word_initial[b as usize - 'a' as usize] += count;
        }
    }
    let mut class_total = vec![0.0f64; n];
    for a in 0..n {
        for b in 0..n {
            class_total[b] += counts[a * n + b];
        }
    }
    let all: f64 = class_total.iter().sum();
    // The class frequencies, each at least a floor, as the smoothing distribution.
    let floor = 1e-7;
    let unigram: Vec<f64> = class_total.iter().map(|&c| c / all + floor).collect();
    let usum: f64 = unigram.iter().sum();
    let unigram: Vec<f64> = unigram.iter().map(|u| u / usum).collect();
    let (punctuation, rare) = (lang.punctuation(), lang.rare());
    let mut p = vec![0.0f64; n * n];
    for a in 0..n {
        let row: f64 = (0..n).map(|b| counts[a * n + b]).sum();
        for b in 0..n {
            let ml = if row > 0.0 {
                counts[a * n + b] / row
            } else {
                unigram[b]
            };
            p[a * n + b] = (1.0 - SMOOTHING) * ml + SMOOTHING * unigram[b];
        }
    }
    // Word lists have a single space between words: ASCII punctuation, digits and markup
    // after a space or punctuation are set by hand, as a share of what follows class 0.
    for x in &mut p[1..n] {
        *x *= 1.0 - BOUNDARY_AFTER_BOUNDARY;
    }
    p[0] = BOUNDARY_AFTER_BOUNDARY;
    // Punctuation is absent from word lists: its costs are set by hand. Opening punctuation
    // comes after a space (after a letter `OPENING_AFTER_LETTER` times as often as where a
    // word ends) and is followed as a space is; closing
    // punctuation and symbols come where a word ends and are followed by a space far more
    // often than by a letter; anything rare is followed by either.
    let after_space: Vec<f64> = (0..n).map(|b| p[b] / (1.0 - p[0])).collect();
    let letters = lang.letters();
    for a in 0..n {
        let boundary = if a == 0 { 1.0 } else { p[a * n] };
        let letter = (1..letters.end).contains(&a);
        for k in 0..4 {
            let share = if k % 2 == 0 {
                COMMON_PUNCTUATION_SHARE
            } else {
                UNCOMMON_PUNCTUATION_SHARE
            };
            let opening_after_letter = if k < 2 && letter {
                OPENING_AFTER_LETTER
            } else {
                1.0
            };
            p[a * n + punctuation + k] = boundary * share * opening_after_letter;
        }
        p[a * n + rare] = RARE_PROBABILITY;
    }
    let mut rows = vec![0.0f64; 3 * n];
    for b in 1..n {
        rows[b] = 0.7 * after_space[b];
        rows[n + b] = AFTER_CLOSING * after_space[b];
        rows[2 * n + b] = 0.5 * after_space[b];
    }
    rows[0] = 0.3;
    rows[n] = 1.0 - AFTER_CLOSING;
    rows[2 * n] = 0.5;
    for b in 0..n {
        for k in 0..4 {
            let row = if k < 2 { 0 } else { n };
            p[(punctuation + k) * n + b] = rows[row + b];
        }
        p[rare * n + b] = rows[2 * n + b];
    }
    // Marks: after the script's letters, and followed as a letter is (by the letters'
    // average). The marks that end a word come after letters as the others do.
    let (mark, final_mark) = (lang.mark(), lang.final_mark());
    for a in 0..n {
        let after = if letters.contains(&a) {
            MARK_AFTER_LETTER
        } else if a == mark || a == final_mark {
            MARK_AFTER_MARK
        } else {
            RARE_PROBABILITY
        };
        p[a * n + mark] = after;
        p[a * n + final_mark] = after;
    }
    let count = letters.len().max(1) as f64;
    for b in 0..n {
        p[mark * n + b] = letters.clone().map(|a| p[a * n + b]).sum::<f64>() / count;
    }
    p[mark * n + mark] = MARK_AFTER_MARK;
    p[mark * n + final_mark] = MARK_AFTER_MARK;
    // The marks that end a word are followed as the end of a word is (what follows the
    // letters, not a letter, on average), by another mark, or by the alef that carries
    // fathatan; any other letter only by the smoothing (a letter after a word-final mark is
    // not text: windows-1256's `ي` and `ى` are ISO-8859-6's kasratan and dammatan).
    let alef = lang
        .alphabet
        .iter()
        .position(|&c| c == '\u{627}')
        .map(|i| letters.start + i);
    let word_end = |b: usize| !(1..letters.end).contains(&b) && b != mark && b != final_mark;
    let ends: Vec<f64> = (0..n)
        .map(|b| {
            if word_end(b) {
                letters.clone().map(|a| p[a * n + b]).sum::<f64>()
            } else {
                0.0
            }
        })
        .collect();
    let ends_total: f64 = ends.iter().sum();
    let alef_share = if alef.is_some() {
        ALEF_AFTER_TANWEEN
    } else {
        0.0
    };
    for b in 0..n {
        let ml = if Some(b) == alef {
            alef_share
        } else {
            (1.0 - alef_share - MARK_AFTER_MARK) * ends[b] / ends_total
        };
        p[final_mark * n + b] = (1.0 - SMOOTHING) * ml + SMOOTHING * unigram[b];
    }
    p[final_mark * n + mark] = MARK_AFTER_MARK;
    // The apostrophe: after a letter, followed by a letter (elision) or a boundary.
    let apostrophe = lang.apostrophe();
    let word = |a: usize| a == 1 || (1..lang.letters().end).contains(&a);
    for a in 0..n {
        p[a * n + apostrophe] = if word(a) {
            APOSTROPHE_AFTER_LETTER
        } else {
            UNCOMMON_PUNCTUATION_SHARE
        };
    }
    // Right after a word's first letter (an elision: l’homme, d’aquest, I’m): as often as
    // the training words have it there (the word lists write it as ASCII '; the export
    // counts the word-initial letters followed by one, with the elisions wordfreq splits
    // off put back), and the hand-set share more. (A bigram cannot tell the first letter of
    // a word from the others; the detector can, from the ASCII byte before it.)
    if ascii == 26 {
        lang.initial_apostrophe = (0..26)
            .map(|x| {
                let share = if word_initial[x] > 0.0 {
                    initial[x] / word_initial[x]
                } else {
                    0.0
                };
                cost(APOSTROPHE_AFTER_LETTER + share)
            })
            .collect();
    }
    for b in 0..n {
        p[apostrophe * n + b] = if b == 0 { 0.5 } else { 0.5 * after_space[b] };
    }
    lang.costs = p.iter().map(|&x| cost(x)).collect();
    Ok(lang)
}

fn encoding_names(whatwg: &Path) -> Result<Vec<String>, String> {
    let path = whatwg.join("encodings.json");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut names = Vec::new();
    for group in json.as_array().ok_or("encodings.json: not an array")? {
        for enc in group["encodings"].as_array().ok_or("no encodings")? {
            names.push(enc["name"].as_str().ok_or("no name")?.to_string());
        }
    }
    Ok(names)
}

fn read_index(whatwg: &Path, name: &str) -> Result<Vec<(u32, u32)>, String> {
    let path = whatwg.join(format!("index-{name}.txt"));
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_index(&text)
}

/// The code point of each of the 128 upper bytes of a single-byte encoding (None: error).
fn single_byte_upper(whatwg: &Path, encoding: &str) -> Result<[Option<char>; 128], String> {
    let index = SINGLE_BYTE
        .iter()
        .find(|(e, _)| *e == encoding)
        .ok_or_else(|| format!("{encoding} is not single-byte"))?
        .1;
    let mut out = [None; 128];
    for (pointer, cp) in read_index(whatwg, index)? {
        out[pointer as usize] = char::from_u32(cp);
    }
    Ok(out)
}

/// 0: not a letter, 1: lower case, 2: upper case.
fn case_of(c: char) -> u8 {
    if c.is_uppercase() {
        2
    } else if c.is_lowercase() {
        1
    } else {
        0
    }
}

/// A CJK language's cost for each character.
struct CharCosts {
    probability: BTreeMap<char, f64>,
}

/// Punctuation of CJK text (absent from word lists): the ideographic comma and full stop,
/// brackets, the middle dot, quotation marks.
const CJK_PUNCTUATION: &str = "、。，．・：；？！「」『』（）〈〉《》【】〔〕…‥―－～“”‘’　";

impl CharCosts {
    /// The character frequencies of one or more sources, each source weighing the same (a
    /// mixture: a character one source lacks keeps the others' share).
    fn new(sources: &[Vec<(String, u64)>]) -> CharCosts {
        let mut probability = BTreeMap::new();
        for unigrams in sources {
            let total: f64 = unigrams.iter().map(|(_, n)| *n as f64).sum();
            for (k, n) in unigrams {
                let mut chars = k.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    *probability.entry(c).or_default() += *n as f64 / total / sources.len() as f64;
                }
            }
        }
        CharCosts { probability }
    }

    fn cost(&self, c: char) -> u8 {
        if CJK_PUNCTUATION.contains(c) {
            // About one character in twenty is punctuation.
            return cost(0.05 / 8.0);
        }
        if let Some(&p) = self.probability.get(&c) {
            // Word lists leave punctuation out: the letters' share of running text is lower.
            return cost(p * 0.9).min(MAX_COST - 1);
        }
        let cp = c as u32;
        if (0xFF01..=0xFF5E).contains(&cp) {
            return cost(1e-4);
        }
        if (0x4E00..=0x9FFF).contains(&cp) || (0xAC00..=0xD7A3).contains(&cp) {
            return cost(3e-7);
        }
        cost(1e-7)
    }
}

/// Emits `values` as rows of 256 bytes (`[[u8; 256]; N]`): indexed by a byte, a row needs
/// no bounds check.
fn emit_rows(out: &mut String, doc: &str, name: &str, values: &[u8]) {
    assert_eq!(values.len() % 256, 0);
    writeln!(out, "{doc}").unwrap();
    writeln!(
        out,
        "pub(crate) static {name}: [[u8; 256]; {}] = [",
        values.len() / 256
    )
    .unwrap();
    for row in values.chunks(256) {
        out.push_str(
            "    [
",
        );
        for chunk in row.chunks(24) {
            out.push_str("       ");
            for v in chunk {
                write!(out, " {v},").unwrap();
            }
            out.push('\n');
        }
        out.push_str("    ],\n");
    }
    out.push_str("];\n\n");
}

fn emit_bytes(out: &mut String, doc: &str, name: &str, values: &[u8]) {
    writeln!(out, "{doc}").unwrap();
    writeln!(out, "pub(crate) static {name}: [u8; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(24) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " {v},").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n\n");
}

/// The CJK character costs in 4 bits: level `l` below 15 is cost `CJK_LEVEL_BASE +
/// CJK_LEVEL_STEP * l` (2 to 16 nats by whole nats), 15 is impossible.
const CJK_LEVEL_BASE: u8 = 20;
const CJK_LEVEL_STEP: u8 = 10;

/// Packs costs two to a byte (the even pointer in the low nibble), as levels.
fn pack_levels(costs: &[u8]) -> Vec<u8> {
    let level = |c: u8| -> u8 {
        if c == IMPOSSIBLE {
            15
        } else {
            let l =
                (f64::from(c.saturating_sub(CJK_LEVEL_BASE)) / f64::from(CJK_LEVEL_STEP)).round();
            (l as u8).min(14)
        }
    };
    costs
        .chunks(2)
        .map(|pair| level(pair[0]) | pair.get(1).map_or(15, |&c| level(c)) << 4)
        .collect()
}

/// Costs of the characters of a two-byte encoding by pointer, for `pointers` pointers.
fn pointer_costs(
    index: &[(u32, u32)],
    pointers: usize,
    costs: &CharCosts,
    extra: impl Fn(u32) -> Option<u8>,
) -> Vec<u8> {
    let mut table = vec![IMPOSSIBLE; pointers];
    for &(p, cp) in index {
        if (p as usize) < pointers {
            if let Some(c) = char::from_u32(cp) {
                table[p as usize] = costs.cost(c);
            }
        }
    }
    for (p, slot) in table.iter_mut().enumerate() {
        if let Some(c) = extra(p as u32) {
            *slot = c;
        }
    }
    table
}

/// Generates `model.rs` from `root` (the repository).
pub fn generate(root: &Path) -> Result<GeneratedFile, String> {
    let whatwg = root.join("data/whatwg");
    let train = root.join("data/detect/train");
    let names = encoding_names(&whatwg)?;
    let enc_index = |name: &str| -> Result<usize, String> {
        names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| format!("no encoding {name}"))
    };
    let lang_index = |name: &str| -> Result<usize, String> {
        ALPHABETIC
            .iter()
            .chain(CJK.iter())
            .position(|n| *n == name)
            .ok_or_else(|| format!("no language {name}"))
    };

    let mut languages = Vec::new();
    for lang in ALPHABETIC {
        let counts = read_counts(&train.join(format!("{lang}.tsv")))?;
        let ascii = if languages.len() < LATIN { 26 } else { 1 };
        let marks = (marks_of(lang), final_marks_of(lang));
        languages.push(build_language(lang, &counts, marks, ascii)?);
    }

    let mut out = String::from(
        "// @generated by `cargo xtask gen-detect-model` from data/detect/train/ and data/whatwg/.\n\
         // Do not edit by hand.\n\
         //\n\
         // The statistics are derived from wordfreq 3.1.1 (data under CC BY-SA 4.0, by Robyn Speer\n\
         // and contributors), from pythainlp 5.4.0's Thai National Corpus word frequencies\n\
         // (CC0 1.0), from Lingua's language model crates 1.0.0 (Apache-2.0, by Peter M. Stahl)\n\
         // and from the Unicode CLDR 48.2.0 (Unicode License v3); this model is a derived work\n\
         // shared under CC BY-SA 4.0. The index data is from the WHATWG Encoding Standard\n\
         // (BSD 3-Clause). See data/detect/README.md.\n\n\
         //! The detector's model: costs in 0.1 nat (255: impossible).\n\n",
    );

    // Languages.
    let all_langs: Vec<&str> = ALPHABETIC.iter().chain(CJK.iter()).copied().collect();
    writeln!(
        out,
        "/// The languages of the model, by their wordfreq codes.\npub(crate) static LANGUAGES: [&str; {}] = {all_langs:?};\n",
        all_langs.len()
    )
    .unwrap();
    for (i, l) in all_langs.iter().enumerate() {
        if CJK.contains(l) {
            writeln!(
                out,
                "pub(crate) const LANG_{}: u8 = {i};",
                l.to_ascii_uppercase()
            )
            .unwrap();
        }
    }
    out.push('\n');

    // The cost of each ASCII byte between two non-ASCII ones (capped in the detector), from
    // the share of non-ASCII characters in the language's text: for the alphabetic languages
    // from their bigrams, for Chinese, Japanese and Korean from running text (word lists have
    // no spaces: Korean puts them between words, Chinese and Japanese do not).
    let cjk_shares = read_counts(&train.join("cjk_non_ascii.tsv"))?;
    let latin = LATIN;
    let gap: Vec<u16> = all_langs
        .iter()
        .enumerate()
        .map(|(i, lang)| {
            let share = if i < languages.len() {
                languages[i].non_ascii_share
            } else {
                let (_, parts) = cjk_shares
                    .iter()
                    .find(|(l, _)| l == lang)
                    .ok_or_else(|| format!("cjk_non_ascii.tsv: no share for {lang}"))?;
                *parts as f64 / 1e9
            };
            Ok((-(1.0 - share).ln() * SCALE * 100.0).round() as u16)
        })
        .collect::<Result<_, String>>()?;
    writeln!(
        out,
        "/// The cost (0.001 nat) of each ASCII byte in the gaps between non-ASCII bytes, per\n/// language: languages differ in how much of their text is not ASCII.\npub(crate) static GAP_COSTS: [u16; {}] = {gap:?};\n\n/// The languages before this one are written in Latin letters (their gaps count further).\npub(crate) const LATIN_LANGUAGES: u8 = {latin};\n",
        gap.len()
    )
    .unwrap();

    // The apostrophe after a word's first letter (an elision), per Latin-script language and
    // ASCII letter.
    let initial: Vec<u8> = languages[..LATIN]
        .iter()
        .flat_map(|l| l.initial_apostrophe.iter().copied())
        .collect();
    if initial.len() != LATIN * 26 {
        return Err("a Latin-script language without its word-initial apostrophes".into());
    }
    writeln!(
        out,
        "/// The cost of the typographic apostrophe right after the first letter of a word (an\n/// elision: l’homme, d’aquest, I’m), for the Latin-script languages: `[language * 26 + letter]`.\npub(crate) static INITIAL_APOSTROPHE: [u8; {}] = {initial:?};\n",
        initial.len()
    )
    .unwrap();

    // Bigram tables.
    let mut bigrams = Vec::new();
    let mut bigram_offset = Vec::new();
    for lang in &languages {
        bigram_offset.push(bigrams.len());
        bigrams.extend_from_slice(&lang.costs);
    }

    // Single-byte candidates.
    let mut class_maps: Vec<u8> = Vec::new();
    let mut cases: Vec<u8> = Vec::new();
    let mut case_of_encoding: BTreeMap<&str, usize> = BTreeMap::new();
    let mut rows = String::new();
    let mut count = 0;
    // The bytes some single-byte encoding decodes to the typographic apostrophe.
    let mut apostrophe_bytes = [0u64; 2];
    for (encoding, langs) in SINGLE_BYTE_CANDIDATES {
        let upper = single_byte_upper(&whatwg, encoding)?;
        for (i, c) in upper.iter().enumerate() {
            if *c == Some('\u{2019}') {
                apostrophe_bytes[i / 64] |= 1 << (i % 64);
            }
        }
        let decoded = |b: usize| -> Option<char> {
            if b < 0x80 {
                char::from_u32(b as u32)
            } else {
                upper[b - 0x80]
            }
        };
        let case_slot = *case_of_encoding.entry(encoding).or_insert_with(|| {
            let slot = cases.len() / 256;
            for b in 0..256 {
                cases.push(decoded(b).map_or(0, case_of));
            }
            slot
        });
        for &lang in langs.iter() {
            let per_lang_prior = prior_cost(lang, encoding)?;
            let li = lang_index(lang)?;
            let language = &languages[li];
            let map_slot = class_maps.len() / 256;
            for b in 0..256 {
                let class = match decoded(b) {
                    None => IMPOSSIBLE,
                    Some(c) if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\x0C' | '\r') => 0,
                    Some(c) if (0x80..0xA0).contains(&(c as u32)) => IMPOSSIBLE,
                    Some(c) => language.class_of(c) as u8,
                };
                class_maps.push(class);
            }
            writeln!(
                rows,
                "    SingleByteCandidate {{ encoding: {}, language: {li}, classes: {}, map: {map_slot}, case: {case_slot}, bigrams: {}, prior: {per_lang_prior} }}, // {encoding} {lang}",
                enc_index(encoding)?,
                language.classes(),
                bigram_offset[li],
            )
            .unwrap();
            count += 1;
        }
    }
    out.push_str(
        "/// A single-byte encoding scored as one language.\n\
         pub(crate) struct SingleByteCandidate {\n\
         \x20   /// The encoding's position in `Encoding::all()`.\n\
         \x20   pub(crate) encoding: u8,\n\
         \x20   /// The language's position in [`LANGUAGES`].\n\
         \x20   pub(crate) language: u8,\n\
         \x20   /// The number of the language's classes.\n\
         \x20   pub(crate) classes: u8,\n\
         \x20   /// The byte-to-class map: `CLASS_MAPS[map]`.\n\
         \x20   pub(crate) map: u16,\n\
         \x20   /// The letter case of each byte: `CASES[case]`.\n\
         \x20   pub(crate) case: u8,\n\
         \x20   /// The language's bigram costs: `BIGRAMS[bigrams..][..classes * classes]`.\n\
         \x20   pub(crate) bigrams: u32,\n\
         \x20   /// The prior cost of the encoding and the language.\n\
         \x20   pub(crate) prior: u16,\n\
         }\n\n",
    );
    writeln!(
        out,
        "/// The number of (single-byte encoding, language) candidates.\npub(crate) const SINGLE_BYTE_COUNT: usize = {count};\n\n/// Every (single-byte encoding, language) candidate.\npub(crate) static SINGLE_BYTE: [SingleByteCandidate; {count}] = [\n{rows}];\n"
    )
    .unwrap();
    writeln!(
        out,
        "/// The bytes (bit `b % 64` of `[(b - 0x80) / 64]`) that some single-byte candidate decodes\n/// to the typographic apostrophe.\npub(crate) const APOSTROPHE_BYTES: [u64; 2] = [{:#x}, {:#x}];\n",
        apostrophe_bytes[0], apostrophe_bytes[1]
    )
    .unwrap();
    emit_rows(
        &mut out,
        "/// Byte-to-class maps, one per candidate (255: the byte is impossible).",
        "CLASS_MAPS",
        &class_maps,
    );
    emit_rows(
        &mut out,
        "/// The letter case of each byte per encoding (0: none, 1: lower, 2: upper).",
        "CASES",
        &cases,
    );
    emit_bytes(
        &mut out,
        "/// Each language's bigram costs, `classes * classes` entries per language.",
        "BIGRAMS",
        &bigrams,
    );
    // The Latin-script languages' costs of an ASCII letter after an ASCII letter (each its
    // own class, 1 + its position in the alphabet), pair by pair, language by language.
    let mut ascii_pairs = Vec::with_capacity(26 * 26 * LATIN);
    // The detector costs the ASCII words of the other scripts as English's (language 0).
    if ALPHABETIC[0] != "en" {
        return Err("English must be language 0".into());
    }
    if languages[..LATIN].iter().any(|l| l.ascii != 26) {
        return Err("a Latin-script language without a class per ASCII letter".into());
    }
    for first in 0..26 {
        for second in 0..26 {
            for lang in &languages[..LATIN] {
                ascii_pairs.push(lang.costs[(1 + first) * lang.classes() + 1 + second]);
            }
        }
    }
    emit_bytes(
        &mut out,
        "/// The cost of ASCII letter `b` after ASCII letter `a` (case folded) in each Latin-script\n/// language `l`: `[((a - 'a') * 26 + (b - 'a')) * LATIN_LANGUAGES + l]` (the bigrams'\n/// entries, laid out to score every language at once).",
        "ASCII_LETTER_PAIRS",
        &ascii_pairs,
    );

    // CJK.
    let mut cjk = BTreeMap::new();
    for lang in CJK {
        let mut sources = vec![read_counts(&train.join(format!("{lang}.tsv")))?];
        // wordfreq's Korean words have about 2,100 characters; Lingua's character counts
        // (scripts/export_detect_training_lingua.py) cover the syllables it lacks.
        if lang == "ko" {
            sources.push(read_counts(&train.join("ko_lingua.tsv"))?);
        }
        cjk.insert(lang, CharCosts::new(&sources));
    }
    let gb = read_index(&whatwg, "gb18030")?;
    emit_bytes(
        &mut out,
        "/// GBK: the cost level of each two-byte pointer's character, simplified Chinese (two\n/// pointers a byte, see `CJK_LEVEL_COSTS`).",
        "GBK_COSTS",
        &pack_levels(&pointer_costs(&gb, 23940, &cjk["zh_hans"], |_| None)),
    );
    let big5 = read_index(&whatwg, "big5")?;
    // Pointers 1133, 1135, 1164 and 1166 decode to two code points each (Ê̄ and the like).
    emit_bytes(
        &mut out,
        "/// Big5: the cost level of each pointer's character, traditional Chinese.",
        "BIG5_COSTS",
        &pack_levels(&pointer_costs(&big5, 19782, &cjk["zh_hant"], |p| {
            matches!(p, 1133 | 1135 | 1164 | 1166).then_some(cost(1e-7))
        })),
    );
    let kr = read_index(&whatwg, "euc-kr")?;
    emit_bytes(
        &mut out,
        "/// EUC-KR: the cost level of each pointer's character, Korean.",
        "EUC_KR_COSTS",
        &pack_levels(&pointer_costs(&kr, 23940, &cjk["ko"], |_| None)),
    );
    let jis = read_index(&whatwg, "jis0208")?;
    // Shift_JIS pointers 8836 to 10715 are the private use area.
    emit_bytes(
        &mut out,
        "/// index jis0208: the cost level of each pointer's character, Japanese (Shift_JIS's private\n/// use pointers 8836 to 10715 included).",
        "JIS0208_COSTS",
        &pack_levels(&pointer_costs(&jis, 11280, &cjk["ja"], |p| {
            (8836..=10715).contains(&p).then_some(cost(1e-8))
        })),
    );
    let mut levels: Vec<u8> = (0..15)
        .map(|l| CJK_LEVEL_BASE + CJK_LEVEL_STEP * l)
        .collect();
    levels.push(IMPOSSIBLE);
    emit_bytes(
        &mut out,
        "/// The cost of each level of the CJK cost tables (255: the pointer has no character).",
        "CJK_LEVEL_COSTS",
        &levels,
    );
    // JIS X 0212 in EUC-JP: which pointers have a character (bit `p % 8` of byte `p / 8`).
    let jis0212 = read_index(&whatwg, "jis0212")?;
    let mut valid = vec![0u8; 8836usize.div_ceil(8)];
    for &(p, _) in &jis0212 {
        if (p as usize) < 8836 {
            valid[p as usize / 8] |= 1 << (p % 8);
        }
    }
    emit_bytes(
        &mut out,
        "/// index jis0212: bit `p % 8` of byte `p / 8` is set where pointer `p` has a character.",
        "JIS0212_VALID",
        &valid,
    );
    writeln!(
        out,
        "/// The cost of a half-width katakana (rare in text since the 1990s).\npub(crate) const HALF_WIDTH_KATAKANA: u8 = {};\n\
         /// The cost of a JIS X 0212 character in EUC-JP.\npub(crate) const JIS0212: u8 = {};\n\
         /// The cost of a four-byte gb18030 sequence in GBK.\npub(crate) const GB18030_FOUR_BYTE: u8 = {};\n",
        cost(2e-5),
        cost(1e-6),
        cost(1e-6),
    )
    .unwrap();
    writeln!(
        out,
        "/// Prior costs of the CJK encodings.\npub(crate) const PRIOR_GBK: u16 = {};\npub(crate) const PRIOR_BIG5: u16 = {};\npub(crate) const PRIOR_EUC_JP: u16 = {};\npub(crate) const PRIOR_SHIFT_JIS: u16 = {};\npub(crate) const PRIOR_ISO_2022_JP: u16 = {};\npub(crate) const PRIOR_EUC_KR: u16 = {};\n",
        prior_cost("zh_hans", "GBK")?,
        prior_cost("zh_hant", "Big5")?,
        prior_cost("ja", "EUC-JP")?,
        prior_cost("ja", "Shift_JIS")?,
        prior_cost("ja", "ISO-2022-JP")?,
        prior_cost("ko", "EUC-KR")?,
    )
    .unwrap();

    // Top-level domains.
    let mut seen = BTreeSet::new();
    let mut tld_rows = String::new();
    for (tld, langs, fallback) in TLDS {
        if !seen.insert(*tld) {
            return Err(format!("TLD {tld} twice"));
        }
        let mut mask = 0u64;
        for l in langs.iter() {
            mask |= 1 << lang_index(l)?;
        }
        let mut elsewhere = 0u64;
        for (encoding, domains) in REGIONAL_ENCODINGS {
            if !SINGLE_BYTE_CANDIDATES.iter().any(|(e, _)| *e == encoding) {
                return Err(format!("regional encoding {encoding} is not single-byte"));
            }
            if !domains.contains(tld) {
                elsewhere |= 1 << enc_index(encoding)?;
            }
        }
        writeln!(
            tld_rows,
            "    (b\"{tld}\", 0x{mask:x}, {}, 0x{elsewhere:x}),",
            enc_index(fallback)?
        )
        .unwrap();
    }
    let sorted: Vec<&str> = TLDS.iter().map(|t| t.0).collect();
    let mut check = sorted.clone();
    check.sort();
    if check != sorted {
        return Err("TLDS must be sorted".into());
    }
    writeln!(
        out,
        "/// Top-level domains (sorted): the languages of their pages (bit `i` for `LANGUAGES[i]`),\n/// their browsers' fallback encoding (its position in `Encoding::all()`) and the encodings\n/// their pages did not use for those languages (bit `i` for `Encoding::all()[i]`).\npub(crate) static TLDS: [(&[u8], u64, u8, u64); {}] = [\n{tld_rows}];",
        TLDS.len()
    )
    .unwrap();

    Ok(GeneratedFile {
        name: "model.rs".into(),
        contents: out,
    })
}

/// The size in bytes of the model's tables (what the detector adds to a binary's data).
pub fn table_bytes(root: &Path) -> Result<usize, String> {
    let file = generate(root)?;
    let mut total = 0;
    for line in file.contents.lines() {
        // `pub(crate) static NAME: [T; N] = [` for the arrays; structs count 12 bytes each.
        let Some(decl) = line.strip_prefix("pub(crate) static ") else {
            continue;
        };
        let Some((_, ty)) = decl.split_once(": [") else {
            continue;
        };
        if let Some(rows) = ty.strip_prefix("[u8; 256]; ") {
            let n: usize = rows
                .split(']')
                .next()
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| format!("size of {line}"))?;
            total += n * 256;
            continue;
        }
        let Some((elem, rest)) = ty.split_once("; ") else {
            continue;
        };
        let n: usize = rest
            .split(']')
            .next()
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| format!("size of {line}"))?;
        let size = match elem {
            "u8" => 1,
            "u16" => 2,
            "SingleByteCandidate" => 12,
            // (&[u8], u64, u8, u64): a slice reference, two masks and a byte (padded to 8).
            "(&[u8], u64, u8, u64)" => 40,
            "&str" => 16,
            other => return Err(format!("unknown element type {other}")),
        };
        total += n * size;
    }
    Ok(total)
}
