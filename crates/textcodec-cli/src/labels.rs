//! Label resolution with helpful errors: an unknown label suggests the nearest real labels.

use textcodec::Encoding;

use crate::Failure;

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
