//! The statistical detector: which legacy encoding undeclared bytes were written in.

use alloc::vec::Vec;

use crate::decoder::{BomHandling, Decoder, DecoderErrorMode, DecoderOptions};
use crate::encoding::Encoding;
use crate::*;

/// What a decoded character is, for scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cat {
    /// ASCII that is not a letter (space, punctuation, digits, markup).
    AsciiOther,
    AsciiLetter,
    Latin,
    Cyrillic,
    Greek,
    Hebrew,
    Arabic,
    Thai,
    Han,
    Kana,
    Hangul,
    CjkPunct,
    /// Common non-ASCII punctuation and symbols (no-break space, quotes, dashes).
    Punct,
    /// Characters text rarely holds: box drawing, private use, unusual symbols.
    Rare,
    /// C0/C1 controls other than whitespace: never in text.
    Control,
}

fn category(c: u32) -> Cat {
    match c {
        0x41..=0x5A | 0x61..=0x7A => Cat::AsciiLetter,
        0x09 | 0x0A | 0x0C | 0x0D | 0x1B => Cat::AsciiOther,
        0x00..=0x1F | 0x7F..=0x9F => Cat::Control,
        0x20..=0x7E => Cat::AsciiOther,
        0xA0 | 0xAB | 0xBB | 0xB7 | 0xA9 | 0xAE | 0xB0 | 0x2010..=0x2027 | 0x2030..=0x203A => {
            Cat::Punct
        }
        0xAA | 0xBA | 0xB5 | 0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0x24F | 0x1E00..=0x1EFF => {
            Cat::Latin
        }
        0x300..=0x36F => Cat::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Cat::Greek,
        0x400..=0x52F => Cat::Cyrillic,
        0x590..=0x5FF | 0xFB1D..=0xFB4F => Cat::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => Cat::Arabic,
        0xE00..=0xE7F => Cat::Thai,
        0x3000..=0x303F | 0xFF01..=0xFF65 => Cat::CjkPunct,
        0x3040..=0x30FF | 0xFF66..=0xFF9F => Cat::Kana,
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => Cat::Han,
        0xAC00..=0xD7A3 | 0x1100..=0x11FF | 0x3130..=0x318F => Cat::Hangul,
        _ => Cat::Rare,
    }
}

fn is_script_letter(c: Cat) -> bool {
    matches!(
        c,
        Cat::Cyrillic | Cat::Greek | Cat::Hebrew | Cat::Arabic | Cat::Thai
    )
}

fn is_upper(c: u32) -> bool {
    matches!(c, 0x41..=0x5A | 0xC0..=0xDE | 0x391..=0x3AB | 0x400..=0x42F)
}

/// One candidate encoding under trial: its decoder, whether it is still possible, and its
/// score so far.
#[derive(Clone, Debug)]
struct Trial {
    encoding: &'static Encoding,
    decoder: Decoder,
    alive: bool,
    score: i64,
    prev: Cat,
    prev_upper: bool,
    non_ascii_chars: u32,
    latin_run: u8,
}

impl Trial {
    fn new(encoding: &'static Encoding) -> Trial {
        let options = DecoderOptions {
            error_mode: DecoderErrorMode::Fatal,
            bom: BomHandling::Keep,
        };
        Trial {
            encoding,
            decoder: encoding.new_decoder(options),
            alive: true,
            score: 0,
            prev: Cat::AsciiOther,
            prev_upper: false,
            non_ascii_chars: 0,
            latin_run: 0,
        }
    }

    fn feed(&mut self, mut bytes: &[u8]) {
        let mut buf = [0u16; 256];
        while self.alive && !bytes.is_empty() {
            // A malformed sequence (or a truncated one at the very end, which stays pending
            // because `last` is never passed) rules the encoding out.
            match self.decoder.decode_to_utf16(bytes, &mut buf, false) {
                Ok(p) => {
                    self.score_units(&buf[..p.written]);
                    bytes = &bytes[p.read..];
                }
                Err(_) => self.alive = false,
            }
        }
    }

    fn score_units(&mut self, units: &[u16]) {
        for c in char::decode_utf16(units.iter().copied()) {
            let c = c.map_or(0xFFFD, u32::from);
            self.score_char(c);
            if !self.alive {
                return;
            }
        }
    }

    fn score_char(&mut self, c: u32) {
        let cat = category(c);
        let upper = is_upper(c);
        let prev = self.prev;
        if c >= 0x80 {
            self.non_ascii_chars += 1;
        }
        let s = match cat {
            Cat::Control => {
                self.alive = false;
                0
            }
            Cat::AsciiOther => 0,
            Cat::AsciiLetter => {
                if is_script_letter(prev) || matches!(prev, Cat::Han | Cat::Kana | Cat::Hangul) {
                    -4
                } else {
                    0
                }
            }
            // Latin text is mostly ASCII: runs of accented letters are rare.
            Cat::Latin => match prev {
                Cat::AsciiLetter => 3,
                Cat::Latin if self.latin_run >= 2 => -4,
                Cat::Latin => 0,
                Cat::AsciiOther | Cat::Punct => 1,
                _ => -6,
            },
            Cat::Cyrillic | Cat::Greek | Cat::Hebrew | Cat::Arabic | Cat::Thai => {
                if prev == cat {
                    3
                } else if matches!(prev, Cat::AsciiOther | Cat::Punct) {
                    1
                } else {
                    -6
                }
            }
            Cat::Han | Cat::Kana | Cat::Hangul => {
                if matches!(prev, Cat::Hangul) != matches!(cat, Cat::Hangul)
                    && matches!(prev, Cat::Han | Cat::Kana | Cat::Hangul)
                {
                    2
                } else if is_script_letter(prev) || prev == Cat::Latin {
                    -6
                } else {
                    4
                }
            }
            Cat::CjkPunct => 2,
            Cat::Punct => 0,
            Cat::Rare => -8,
        };
        // Bicameral scripts: an upper-case letter right after a lower-case one is unusual.
        let case = if upper && !self.prev_upper && prev == cat && cat != Cat::AsciiOther {
            -3
        } else {
            0
        };
        self.score += s + case;
        self.latin_run = if cat == Cat::Latin {
            self.latin_run.saturating_add(1)
        } else {
            0
        };
        self.prev = cat;
        self.prev_upper = upper;
    }
}

/// The encodings the detector chooses among, besides UTF-8 (single-byte encodings that
/// decode every byte like another one in the list are left out: ISO-8859-8-I is
/// ISO-8859-8, gb18030 decodes as GBK).
const LEGACY: [&Encoding; 33] = [
    WINDOWS_1252,
    WINDOWS_1250,
    WINDOWS_1251,
    WINDOWS_1253,
    WINDOWS_1254,
    WINDOWS_1255,
    WINDOWS_1256,
    WINDOWS_1257,
    WINDOWS_1258,
    WINDOWS_874,
    ISO_8859_2,
    ISO_8859_3,
    ISO_8859_4,
    ISO_8859_5,
    ISO_8859_6,
    ISO_8859_7,
    ISO_8859_8,
    ISO_8859_10,
    ISO_8859_13,
    ISO_8859_14,
    ISO_8859_15,
    ISO_8859_16,
    KOI8_R,
    KOI8_U,
    IBM866,
    MACINTOSH,
    X_MAC_CYRILLIC,
    GBK,
    BIG5,
    EUC_JP,
    SHIFT_JIS,
    EUC_KR,
    ISO_2022_JP,
];

/// The usual legacy encoding of pages under a top-level domain (browsers' fallback), and
/// the other encodings native to it.
fn tld_encodings(tld: &[u8]) -> (&'static Encoding, Vec<&'static Encoding>) {
    let mut buf = [0u8; 8];
    if tld.len() > buf.len() {
        return (WINDOWS_1252, Vec::new());
    }
    let lower = &mut buf[..tld.len()];
    lower.copy_from_slice(tld);
    lower.make_ascii_lowercase();
    match &*lower {
        b"ae" | b"bh" | b"dz" | b"eg" | b"iq" | b"jo" | b"kw" | b"lb" | b"ly" | b"ma" | b"om"
        | b"qa" | b"sa" | b"sd" | b"sy" | b"tn" | b"ye" | b"ps" | b"ir" | b"af" | b"pk" => {
            (WINDOWS_1256, alloc::vec![ISO_8859_6])
        }
        b"ba" | b"cz" | b"hr" | b"hu" | b"pl" | b"ro" | b"si" | b"sk" | b"rs" | b"me" | b"al" => {
            (WINDOWS_1250, alloc::vec![ISO_8859_2, ISO_8859_16])
        }
        b"bg" | b"by" | b"kz" | b"kg" | b"mk" | b"ru" | b"su" | b"ua" | b"tj" | b"mn" => (
            WINDOWS_1251,
            alloc::vec![KOI8_R, KOI8_U, IBM866, ISO_8859_5, X_MAC_CYRILLIC],
        ),
        b"gr" | b"cy" => (WINDOWS_1253, alloc::vec![ISO_8859_7]),
        b"il" => (WINDOWS_1255, alloc::vec![ISO_8859_8]),
        b"jp" => (SHIFT_JIS, alloc::vec![EUC_JP, ISO_2022_JP]),
        b"kr" => (EUC_KR, Vec::new()),
        b"cn" => (GBK, Vec::new()),
        b"tw" | b"hk" | b"mo" => (BIG5, Vec::new()),
        b"th" => (WINDOWS_874, Vec::new()),
        b"tr" | b"az" => (WINDOWS_1254, alloc::vec![ISO_8859_3]),
        b"vn" => (WINDOWS_1258, Vec::new()),
        b"ee" | b"lt" | b"lv" => (WINDOWS_1257, alloc::vec![ISO_8859_13, ISO_8859_4]),
        b"is" | b"fo" => (WINDOWS_1252, alloc::vec![ISO_8859_10]),
        b"mt" => (WINDOWS_1252, alloc::vec![ISO_8859_3]),
        _ => (WINDOWS_1252, Vec::new()),
    }
}

/// How often an encoding is met on the Web, as a small bonus that breaks ties between
/// encodings the text fits equally well.
fn usage_prior(e: &'static Encoding) -> i64 {
    if e == WINDOWS_1252 {
        6
    } else if [WINDOWS_1251, GBK, SHIFT_JIS].contains(&e) {
        5
    } else if [WINDOWS_1250, EUC_KR, BIG5].contains(&e) {
        4
    } else if [
        WINDOWS_1256,
        WINDOWS_1253,
        WINDOWS_1255,
        WINDOWS_874,
        WINDOWS_1254,
        EUC_JP,
    ]
    .contains(&e)
    {
        3
    } else if [WINDOWS_1257, KOI8_R, ISO_8859_2, WINDOWS_1258].contains(&e) {
        2
    } else {
        0
    }
}

/// Statistical detection of undeclared text, fed in chunks of any size.
///
/// Feed the bytes with [`feed`](Self::feed) (the chunks may be split anywhere: the result
/// never depends on where), then ask for the [`guess`](Self::guess) or the ranked
/// [`candidates`](Self::candidates). Memory use is constant: nothing of the input is kept.
///
/// The rules:
/// - valid UTF-8 with non-ASCII in it is UTF-8 whenever UTF-8 is allowed; when it is not,
///   the guess is the usual legacy encoding of the top-level domain (windows-1252 when
///   unknown), as browsers do;
/// - ASCII-only input is UTF-8 when allowed, otherwise the top-level domain's usual
///   encoding (windows-1252 when unknown), except that ASCII-only input holding
///   ISO-2022-JP escape sequences around Japanese text is ISO-2022-JP;
/// - otherwise the guess is the best scoring encoding among those that decode the input
///   without error; the top-level domain's encodings are preferred.
///
/// ```
/// use textcodec::detect::Detector;
/// let mut d = Detector::new();
/// d.feed("Grüße aus Köln".as_bytes(), true);
/// assert_eq!(d.guess(None, true), textcodec::UTF_8);
/// ```
#[derive(Clone, Debug)]
pub struct Detector {
    utf8: Trial,
    legacy: Vec<Trial>,
    non_ascii: bool,
}

impl Default for Detector {
    fn default() -> Detector {
        Detector::new()
    }
}

impl Detector {
    /// A detector that has seen nothing yet.
    ///
    /// ```
    /// let d = textcodec::detect::Detector::new();
    /// assert_eq!(d.guess(None, false), textcodec::WINDOWS_1252);
    /// ```
    pub fn new() -> Detector {
        Detector {
            utf8: Trial::new(UTF_8),
            legacy: LEGACY.iter().map(|&e| Trial::new(e)).collect(),
            non_ascii: false,
        }
    }

    /// Takes the next chunk of the input; `last` marks the end. Returns true once a non-ASCII
    /// byte has been seen.
    ///
    /// ```
    /// let mut d = textcodec::detect::Detector::new();
    /// assert!(!d.feed(b"plain ", false));
    /// assert!(d.feed(b"caf\xe9", true));
    /// ```
    pub fn feed(&mut self, bytes: &[u8], last: bool) -> bool {
        let _ = last;
        if !self.non_ascii && !bytes.is_ascii() {
            self.non_ascii = true;
        }
        self.utf8.feed(bytes);
        for t in &mut self.legacy {
            t.feed(bytes);
        }
        self.non_ascii
    }

    /// The best guess. `tld`: the top-level domain the text came from, ASCII without the dot
    /// (`b"jp"`, `b"com"`), `None` when unknown. `allow_utf8`: whether UTF-8 may be the answer
    /// (browsers pass false for Web content; files on disk pass true).
    ///
    /// ```
    /// let mut d = textcodec::detect::Detector::new();
    /// d.feed(b"\x93\xfa\x96\x7b\x8c\xea", true); // "日本語" in Shift_JIS
    /// assert_eq!(d.guess(Some(b"jp"), false), textcodec::SHIFT_JIS);
    /// ```
    pub fn guess(&self, tld: Option<&[u8]>, allow_utf8: bool) -> &'static Encoding {
        self.ranked(tld, allow_utf8)
            .first()
            .map_or(WINDOWS_1252, |&(e, _)| e)
    }

    /// Every encoding still possible, best first, each with a score in 0.0..=1.0 (the scores
    /// add up to 1).
    ///
    /// ```
    /// let mut d = textcodec::detect::Detector::new();
    /// d.feed(b"\xc4\xe8 \xf0\xe0\xe1\xee\xf2\xe0", true);
    /// let c = d.candidates(None, false);
    /// assert_eq!(c[0].0, textcodec::WINDOWS_1251);
    /// assert!(c.iter().all(|&(_, s)| (0.0..=1.0).contains(&s)));
    /// ```
    pub fn candidates(
        &self,
        tld: Option<&[u8]>,
        allow_utf8: bool,
    ) -> Vec<(&'static Encoding, f32)> {
        self.ranked(tld, allow_utf8)
    }

    fn ranked(&self, tld: Option<&[u8]>, allow_utf8: bool) -> Vec<(&'static Encoding, f32)> {
        let (tld_default, tld_native) = tld.map_or((WINDOWS_1252, Vec::new()), tld_encodings);
        let utf8_valid = self.utf8.alive;
        if utf8_valid && allow_utf8 {
            let iso2022 = self.legacy.iter().find(|t| t.encoding == ISO_2022_JP);
            if let Some(t) = iso2022.filter(|t| t.alive && t.non_ascii_chars > 0) {
                return alloc::vec![(t.encoding, 1.0)];
            }
            return alloc::vec![(UTF_8, 1.0)];
        }
        if !self.non_ascii || utf8_valid {
            let iso2022 = self.legacy.iter().find(|t| t.encoding == ISO_2022_JP);
            if let Some(t) = iso2022.filter(|t| t.alive && t.non_ascii_chars > 0) {
                return alloc::vec![(t.encoding, 1.0)];
            }
            return alloc::vec![(tld_default, 1.0)];
        }
        let mut scored: Vec<(&'static Encoding, i64)> = self
            .legacy
            .iter()
            .filter(|t| t.alive)
            .map(|t| {
                let mut s = t.score * 4;
                if t.encoding == tld_default {
                    s += 12;
                } else if tld_native.contains(&t.encoding) {
                    s += 8;
                }
                s += usage_prior(t.encoding);
                (t.encoding, s)
            })
            .collect();
        if scored.is_empty() {
            return alloc::vec![(tld_default, 1.0)];
        }
        scored.sort_by_key(|b| core::cmp::Reverse(b.1));
        let best = scored[0].1;
        let weights: Vec<f64> = scored
            .iter()
            .map(|&(_, s)| exp_neg(((best - s) as f64) / 8.0))
            .collect();
        let total: f64 = weights.iter().sum();
        scored
            .iter()
            .zip(weights)
            .map(|(&(e, _), w)| (e, (w / total) as f32))
            .collect()
    }
}

/// e^-x for x >= 0, without std: by squaring a short series of e^(-x/2^k).
fn exp_neg(x: f64) -> f64 {
    if x > 700.0 {
        return 0.0;
    }
    let mut k = 0;
    let mut y = x;
    while y > 0.5 {
        y /= 2.0;
        k += 1;
    }
    // e^-y for y in [0, 0.5]: Taylor series to the 10th term.
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..12 {
        term *= -y / n as f64;
        sum += term;
    }
    for _ in 0..k {
        sum *= sum;
    }
    sum
}
