//! `--unmappable translit` (and `-t LABEL//TRANSLIT`): look-alikes for characters the output
//! encoding cannot represent, tried in order; a candidate is used only when every character
//! of it is encodable, else the next one is tried, and `?` is the last resort.
//!
//! The table is written by hand for the common cases (it is small and documented here, so
//! it is not generated from Unicode data):
//!
//! - Latin letters with diacritics (U+00C0..U+017F): a close letter of the same base first
//!   where Latin-1 has one (ő -> ö, ű -> ü, as Hungarian is written without its double acute),
//!   then the base letter (é -> e, Ł -> L, ş -> s); ligature-like letters spelled out
//!   (Æ -> AE, œ -> oe, ß -> ss, Þ -> TH, ĳ -> ij);
//! - typographic ligatures: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ -> ff fi fl ffi ffl st st;
//! - quotation marks: ‘ ’ ‚ ‛ ′ -> ', “ ” „ ‟ ″ -> ", ‹ › -> < >, « » -> << >>;
//! - dashes and hyphens: ‐ ‑ ‒ – − -> -, — ― -> --;
//! - spaces: the no-break, en, em, thin and ideographic spaces -> a space; soft hyphen,
//!   zero-width space, joiners and U+FEFF -> nothing;
//! - … -> ..., • -> *, · -> ., € -> EUR, © -> (C), ® -> (R), ™ -> TM, ± -> +/-, × -> x,
//!   ÷ -> /, ¼ ½ ¾ -> 1/4 1/2 3/4, ¹ ² ³ -> 1 2 3, ¡ -> !, ¿ -> ?, ¦ -> |, ´ -> ', ¸ -> ,,
//!   ª º -> a o, µ -> u.

/// Look-alikes for characters outside the Latin letter ranges, and the letters that are
/// not a single base letter; sorted by character.
const TABLE: &[(char, &[&str])] = &[
    ('\u{A0}', &[" "]),
    ('¡', &["!"]),
    ('¦', &["|"]),
    ('©', &["(C)"]),
    ('ª', &["a"]),
    ('«', &["<<"]),
    ('\u{AD}', &[""]),
    ('®', &["(R)"]),
    ('±', &["+/-"]),
    ('²', &["2"]),
    ('³', &["3"]),
    ('´', &["'"]),
    ('µ', &["u"]),
    ('·', &["."]),
    ('¸', &[","]),
    ('¹', &["1"]),
    ('º', &["o"]),
    ('»', &[">>"]),
    ('¼', &["1/4"]),
    ('½', &["1/2"]),
    ('¾', &["3/4"]),
    ('¿', &["?"]),
    ('Æ', &["AE"]),
    ('×', &["x"]),
    ('Þ', &["TH"]),
    ('ß', &["ss"]),
    ('æ', &["ae"]),
    ('÷', &["/"]),
    ('þ', &["th"]),
    ('Ĳ', &["IJ"]),
    ('ĳ', &["ij"]),
    ('ŉ', &["'n"]),
    ('Ő', &["Ö", "O"]),
    ('ő', &["ö", "o"]),
    ('Œ', &["OE"]),
    ('œ', &["oe"]),
    ('Ű', &["Ü", "U"]),
    ('ű', &["ü", "u"]),
    ('\u{2000}', &[" "]),
    ('\u{2001}', &[" "]),
    ('\u{2002}', &[" "]),
    ('\u{2003}', &[" "]),
    ('\u{2004}', &[" "]),
    ('\u{2005}', &[" "]),
    ('\u{2006}', &[" "]),
    ('\u{2007}', &[" "]),
    ('\u{2008}', &[" "]),
    ('\u{2009}', &[" "]),
    ('\u{200A}', &[" "]),
    ('\u{200B}', &[""]),
    ('\u{200C}', &[""]),
    ('\u{200D}', &[""]),
    ('‐', &["-"]),
    ('‑', &["-"]),
    ('‒', &["-"]),
    ('–', &["-"]),
    ('—', &["--"]),
    ('―', &["--"]),
    ('‘', &["'"]),
    ('’', &["'"]),
    ('‚', &["'"]),
    ('‛', &["'"]),
    ('“', &["\""]),
    ('”', &["\""]),
    ('„', &["\""]),
    ('‟', &["\""]),
    ('•', &["*"]),
    ('…', &["..."]),
    ('\u{202F}', &[" "]),
    ('′', &["'"]),
    ('″', &["\""]),
    ('‹', &["<"]),
    ('›', &[">"]),
    ('\u{205F}', &[" "]),
    ('€', &["EUR"]),
    ('™', &["TM"]),
    ('−', &["-"]),
    ('\u{3000}', &[" "]),
    ('ﬀ', &["ff"]),
    ('ﬁ', &["fi"]),
    ('ﬂ', &["fl"]),
    ('ﬃ', &["ffi"]),
    ('ﬄ', &["ffl"]),
    ('ﬅ', &["st"]),
    ('ﬆ', &["st"]),
    ('\u{FEFF}', &[""]),
];

/// The base letters of U+00C0..U+00FF (`_`: in [`TABLE`]), sixteen a line.
const LATIN1_LETTERS: &[u8] = concat!(
    "AAAAAA_CEEEEIIII",
    "DNOOOOO_OUUUUY__",
    "aaaaaa_ceeeeiiii",
    "dnooooo_ouuuuy_y",
)
.as_bytes();
/// The base letters of U+0100..U+017F, Latin Extended-A (`_`: in [`TABLE`]), sixteen a
/// line.
const LATIN_A_LETTERS: &[u8] = concat!(
    "AaAaAaCcCcCcCcDd",
    "DdEeEeEeEeEeGgGg",
    "GgGgHhHhIiIiIiIi",
    "Ii__JjKkkLlLlLlL",
    "lLlNnNnNn_NnOoOo",
    "Oo__RrRrRrSsSsSs",
    "SsTtTtTtUuUuUuUu",
    "UuUuWwYyYZzZzZzs",
)
.as_bytes();

/// The look-alikes of `c`, best first (`?` is not among them: it is the caller's last
/// resort).
pub fn candidates(c: char) -> Vec<&'static str> {
    if let Ok(i) = TABLE.binary_search_by(|(k, _)| k.cmp(&c)) {
        return TABLE[i].1.to_vec();
    }
    let letter = match c as u32 {
        n @ 0xC0..=0xFF => LATIN1_LETTERS[(n - 0xC0) as usize],
        n @ 0x100..=0x17F => LATIN_A_LETTERS[(n - 0x100) as usize],
        _ => return Vec::new(),
    };
    debug_assert_ne!(letter, b'_');
    // One ASCII letter: a static one-letter string.
    const ASCII: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let at = ASCII.find(letter as char).expect("an ASCII letter");
    vec![&ASCII[at..at + 1]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_letters_are_complete() {
        assert_eq!((LATIN1_LETTERS.len(), LATIN_A_LETTERS.len()), (64, 128));
        assert!(TABLE.windows(2).all(|w| w[0].0 < w[1].0));
        for (i, &b) in LATIN1_LETTERS.iter().enumerate() {
            let c = char::from_u32(0xC0 + i as u32).unwrap();
            let in_table = TABLE.iter().any(|(k, _)| *k == c);
            assert_eq!(b == b'_', in_table, "{c}");
        }
        for (i, &b) in LATIN_A_LETTERS.iter().enumerate() {
            let c = char::from_u32(0x100 + i as u32).unwrap();
            let in_table = TABLE.iter().any(|(k, _)| *k == c);
            // Ő ő Ű ű have a base letter too, but the table tries ö and ü first.
            assert!(b != b'_' || in_table, "{c}");
        }
        // Every last candidate is ASCII, so that any output encoding can take it.
        for (c, list) in TABLE {
            assert!(list.last().unwrap().is_ascii(), "{c}");
        }
    }

    #[test]
    fn base_letters_match_the_letters() {
        // The letter's canonical decomposition starts with its base letter: spot checks
        // across both ranges.
        for (c, base) in [
            ('À', "A"),
            ('Ç', "C"),
            ('Ð', "D"),
            ('Ñ', "N"),
            ('Ø', "O"),
            ('Ý', "Y"),
            ('é', "e"),
            ('ð', "d"),
            ('ÿ', "y"),
            ('Ā', "A"),
            ('č', "c"),
            ('Đ', "D"),
            ('ğ', "g"),
            ('İ', "I"),
            ('ı', "i"),
            ('ĸ', "k"),
            ('Ŀ', "L"),
            ('ł', "l"),
            ('Ŋ', "N"),
            ('ř', "r"),
            ('Š', "S"),
            ('ţ', "t"),
            ('ů', "u"),
            ('Ŵ', "W"),
            ('Ÿ', "Y"),
            ('ž', "z"),
            ('ſ', "s"),
        ] {
            assert_eq!(candidates(c), [base], "{c}");
        }
        assert_eq!(candidates('ő'), ["ö", "o"]);
        assert_eq!(candidates('☃'), Vec::<&str>::new());
    }
}
