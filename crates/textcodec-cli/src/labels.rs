//! Label resolution with helpful errors: an unknown label suggests the nearest real labels.

use textcodec::Encoding;

use crate::Failure;

/// Labels that name another encoding outside the Web than the one the Encoding Standard
/// gives them (its label table): what the label conventionally means, and what differs.
/// Labels whose conventional encoding has the Web encoding's own name are left out (the
/// Web's Shift_JIS is Microsoft's code page 932, its EUC-KR code page 949, its Big5 has the
/// HKSCS additions: supersets that decode the conventional encoding's text the same).
const SURPRISES: &[(&[&str], &str, &str)] = &[
    (
        &["ansi_x3.4-1968", "ascii", "us-ascii"],
        "US-ASCII",
        "bytes 0x80-0xFF are windows-1252's characters, not errors",
    ),
    (
        &[
            "cp819",
            "csisolatin1",
            "ibm819",
            "iso-8859-1",
            "iso-ir-100",
            "iso8859-1",
            "iso88591",
            "iso_8859-1",
            "iso_8859-1:1987",
            "l1",
            "latin1",
        ],
        "ISO-8859-1",
        "bytes 0x80-0x9F are windows-1252's characters (€ ‚ „ … ‘ ’ “ ” – —), not C1 controls",
    ),
    (
        &[
            "csisolatin5",
            "iso-8859-9",
            "iso-ir-148",
            "iso8859-9",
            "iso88599",
            "iso_8859-9",
            "iso_8859-9:1989",
            "l5",
            "latin5",
        ],
        "ISO-8859-9",
        "bytes 0x80-0x9F are windows-1254's characters, not C1 controls",
    ),
    (
        &["iso-8859-11", "iso8859-11", "iso885911", "tis-620"],
        "ISO-8859-11 (TIS-620)",
        "bytes 0x80-0x9F are windows-874's characters, not C1 controls",
    ),
    (
        &[
            "chinese",
            "csgb2312",
            "csiso58gb231280",
            "gb2312",
            "gb_2312",
            "gb_2312-80",
            "iso-ir-58",
        ],
        "GB2312",
        "GBK, its superset: GB2312 text decodes the same, but encoding may write GBK \
         characters that GB2312 lacks",
    ),
    (
        &[
            "csunicode",
            "iso-10646-ucs-2",
            "ucs-2",
            "unicode",
            "unicodefeff",
            "utf-16",
        ],
        "UTF-16 (big-endian unless a BOM says otherwise)",
        "UTF-16LE: little-endian without a BOM",
    ),
    (
        &["koi8-ru"],
        "KOI8-RU",
        "KOI8-U: KOI8-RU's Belarusian letters Ў ў are not there",
    ),
    (&["x-mac-ukrainian"], "Mac OS Ukrainian", "x-mac-cyrillic"),
    (
        &[
            "csiso2022kr",
            "hz-gb-2312",
            "iso-2022-cn",
            "iso-2022-cn-ext",
            "iso-2022-kr",
        ],
        "the encoding of that name",
        "the replacement encoding: a non-empty input decodes to a single U+FFFD, and it \
         cannot be an output encoding",
    ),
];

/// The note for a label whose conventional meaning differs from the Web's, if any:
/// `'latin1' is windows-1252 on the Web, not ISO-8859-1: ...`.
pub fn surprise(label: &str) -> Option<String> {
    let wanted = label
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_ascii_lowercase();
    let enc = Encoding::for_label(wanted.as_bytes())?;
    let (_, usual, differs) = SURPRISES
        .iter()
        .find(|(labels, _, _)| labels.contains(&wanted.as_str()))?;
    Some(format!(
        "note: '{}' is {} on the Web (the Encoding Standard, as browsers), not {usual}: {differs}",
        label.trim_matches(|c: char| c.is_ascii_whitespace()),
        enc.name()
    ))
}

/// Resolves `label` as the spec's "get an encoding", or fails with exit code 2 and
/// suggestions.
pub fn resolve(label: &str) -> Result<&'static Encoding, Failure> {
    Encoding::for_label(label.as_bytes()).ok_or_else(|| unknown_label(label))
}

/// The usage error for an unknown label: the label, then up to three nearest labels.
pub fn unknown_label(label: &str) -> Failure {
    let mut msg = format!("unknown encoding label '{label}'");
    let near = suggestions(label, 3);
    if !near.is_empty() {
        let list: Vec<String> = near
            .iter()
            .map(|(l, e)| format!("'{l}' ({})", e.name()))
            .collect();
        msg.push_str("\ndid you mean ");
        msg.push_str(&join_or(&list));
        msg.push('?');
    }
    msg.push_str("\n`textcodec list` shows every encoding and its labels");
    Failure::Usage(msg)
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// The `n` labels nearest to `label` (edit distance, ignoring ASCII case and surrounding
/// whitespace; separators `-`, `_`, ` ` and `.` may also be ignored), nearest first.
pub fn suggestions(label: &str, n: usize) -> Vec<(&'static str, &'static Encoding)> {
    let wanted = label
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_ascii_lowercase();
    let wanted_bare = bare(&wanted);
    let mut scored: Vec<(usize, &'static str, &'static Encoding)> = Vec::new();
    for &enc in Encoding::all() {
        for &l in enc.labels() {
            let d = levenshtein(&wanted, l).min(levenshtein(&wanted_bare, &bare(l)) + 1);
            scored.push((d, l, enc));
        }
    }
    scored.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.len().cmp(&b.1.len()))
            .then(a.1.cmp(b.1))
    });
    let best = scored.first().map_or(0, |s| s.0);
    // Keep suggestions that are about as good as the best one.
    let limit = best + 2;
    scored
        .into_iter()
        .filter(|s| s.0 <= limit)
        .take(n)
        .map(|(_, l, e)| (l, e))
        .collect()
}

fn bare(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '.'))
        .collect()
}

/// Levenshtein distance over chars.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// `textcodec list`: a table, or JSON.
pub fn list(json: bool) -> String {
    let mut out = String::new();
    if json {
        out.push_str("[\n");
        let all = Encoding::all();
        for (i, enc) in all.iter().enumerate() {
            out.push_str("  {\"name\": ");
            push_json_str(&mut out, enc.name());
            out.push_str(", \"labels\": [");
            for (j, l) in enc.labels().iter().enumerate() {
                if j > 0 {
                    out.push_str(", ");
                }
                push_json_str(&mut out, l);
            }
            out.push_str("]}");
            if i + 1 < all.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str("]\n");
    } else {
        let width = Encoding::all()
            .iter()
            .map(|e| e.name().len())
            .max()
            .unwrap_or(0)
            .max(8);
        out.push_str(&format!("{:width$}  LABELS\n", "ENCODING"));
        for enc in Encoding::all() {
            out.push_str(&format!(
                "{:width$}  {}\n",
                enc.name(),
                enc.labels().join(", ")
            ));
        }
    }
    out
}

pub fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surprises_are_labels_of_another_encoding() {
        // Every label in the list is a label of the spec's table, of an encoding whose name
        // is not the label's conventional one.
        for (labels, usual, _) in SURPRISES {
            for label in *labels {
                let enc = Encoding::for_label(label.as_bytes()).expect(label);
                assert!(enc.labels().contains(label), "{label}");
                assert!(!usual.eq_ignore_ascii_case(enc.name()), "{label}");
                assert!(surprise(label).is_some(), "{label}");
            }
        }
        let note = surprise(" Latin1 ").unwrap();
        assert!(
            note.starts_with("note: 'Latin1' is windows-1252 on the Web"),
            "{note}"
        );
        assert!(note.contains("not ISO-8859-1"), "{note}");
        for label in [
            "windows-1252",
            "shift_jis",
            "sjis",
            "utf-8",
            "gbk",
            "nonsense",
        ] {
            assert_eq!(surprise(label), None, "{label}");
        }
    }

    #[test]
    fn distance() {
        assert_eq!(levenshtein("sjiss", "sjis"), 1);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
    }

    #[test]
    fn suggests_nearest() {
        let s = suggestions("sjiss", 3);
        assert_eq!(s[0].0, "sjis");
        let s = suggestions("shiftjis", 3);
        assert!(s.iter().any(|(l, _)| *l == "shift_jis"));
        let s = suggestions(" UTF8X ", 3);
        assert!(s.iter().any(|(l, _)| *l == "utf8"));
    }
}
