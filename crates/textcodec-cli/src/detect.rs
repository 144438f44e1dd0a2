//! Finding the encoding of an input (`textcodec detect`, `convert -f auto`): a byte order
//! mark, then an HTML `<meta charset>` or XML declaration in the first 1024 bytes, then the
//! statistical guess over the first MiB (the README's "Unknown encodings").

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

use textcodec::detect::{prescan, Detector, PRESCAN_BYTES};
use textcodec::Encoding;

use crate::sink::io_msg;
use crate::Failure;

/// How much of an input the guess reads: its first MiB.
pub const GUESS_BYTES: usize = 1024 * 1024;

/// What found the encoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Found {
    /// A byte order mark.
    Bom,
    /// An HTML `<meta charset>` or XML declaration in the first 1024 bytes.
    Meta,
    /// The statistical guess, with the Detector's score for it.
    Guess(f32),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Detected {
    pub encoding: &'static Encoding,
    pub found: Found,
}

impl Detected {
    /// `Shift_JIS (guess, 0.97)`, `UTF-8 (bom)`, `EUC-KR (meta)`.
    pub fn describe(&self) -> String {
        let name = self.encoding.name();
        match self.found {
            Found::Bom => format!("{name} (bom)"),
            Found::Meta => format!("{name} (meta)"),
            Found::Guess(score) => format!("{name} (guess, {score:.2})"),
        }
    }
}

/// The encoding of an input that starts with `head` (its first MiB, or all of it when shorter:
/// only then is a character cut short at its end an error).
pub fn detect(head: &[u8], tld: Option<&[u8]>, allow_utf8: bool) -> Detected {
    if let Some((encoding, _)) = Encoding::for_bom(head) {
        return Detected {
            encoding,
            found: Found::Bom,
        };
    }
    if let Some(encoding) = prescan(&head[..head.len().min(PRESCAN_BYTES)]) {
        return Detected {
            encoding,
            found: Found::Meta,
        };
    }
    let mut detector = Detector::new();
    detector.feed(head, head.len() < GUESS_BYTES);
    let encoding = detector.guess(tld, allow_utf8);
    let score = detector
        .candidates(tld, allow_utf8)
        .into_iter()
        .find(|&(e, _)| e == encoding)
        .map_or(0.0, |(_, score)| score);
    Detected {
        encoding,
        found: Found::Guess(score),
    }
}

/// Reads the first [`GUESS_BYTES`] of `reader` (fewer at its end), retrying interrupted
/// reads; `name` names the input in errors.
pub fn read_head(reader: &mut dyn Read, name: &str) -> Result<Vec<u8>, Failure> {
    let mut head = Vec::new();
    reader
        .take(GUESS_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(|e| Failure::Usage(format!("cannot read '{name}': {}", io_msg(&e))))?;
    Ok(head)
}

/// `textcodec detect`: one line per input, or one JSON array.
pub fn run(
    inputs: Vec<PathBuf>,
    tld: Option<&str>,
    allow_utf8: bool,
    json: bool,
) -> Result<String, Failure> {
    let inputs = if inputs.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        inputs
    };
    let tld = tld.map(|t| t.trim_start_matches('.').to_ascii_lowercase());
    let tld = tld.as_deref().map(str::as_bytes);
    let mut results = Vec::new();
    for path in inputs {
        let name = path.display().to_string();
        let head = if path.as_os_str() == "-" {
            read_head(&mut io::stdin().lock(), "standard input")?
        } else {
            let cannot = |msg: String| Failure::Usage(format!("cannot read '{name}': {msg}"));
            let mut file = File::open(&path).map_err(|e| cannot(io_msg(&e)))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(cannot("is a directory".to_string()));
            }
            read_head(&mut file, &name)?
        };
        results.push((name, detect(&head, tld, allow_utf8)));
    }
    Ok(if json {
        to_json(&results)
    } else {
        results
            .iter()
            .map(|(name, d)| format!("{name}: {}\n", d.describe()))
            .collect()
    })
}

/// `[{"input": ..., "encoding": NAME, "source": ..., "score": ...}]`; the score is `null`
/// for a BOM or a declaration.
fn to_json(results: &[(String, Detected)]) -> String {
    let mut out = String::from("[");
    for (i, (name, d)) in results.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("\n  {\"input\": ");
        crate::labels::push_json_str(&mut out, name);
        out.push_str(", \"encoding\": ");
        crate::labels::push_json_str(&mut out, d.encoding.name());
        let (source, score) = match d.found {
            Found::Bom => ("bom", "null".to_string()),
            Found::Meta => ("meta", "null".to_string()),
            Found::Guess(score) => ("guess", format!("{score:.4}")),
        };
        out.push_str(&format!(", \"source\": \"{source}\", \"score\": {score}}}"));
    }
    out.push_str(if results.is_empty() { "]\n" } else { "\n]\n" });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_in_order() {
        let bom = detect(b"\xEF\xBB\xBF<meta charset=gbk>", None, true);
        assert_eq!((bom.encoding, bom.found), (textcodec::UTF_8, Found::Bom));
        let meta = detect(b"<meta charset=gbk>\xC4\xE3", None, true);
        assert_eq!((meta.encoding, meta.found), (textcodec::GBK, Found::Meta));
        let guess = detect("Grüße".as_bytes(), None, true);
        assert_eq!(guess.encoding, textcodec::UTF_8);
        assert!(matches!(guess.found, Found::Guess(s) if (0.0..=1.0).contains(&s)));
        assert_ne!(
            detect("Grüße".as_bytes(), None, false).encoding,
            textcodec::UTF_8
        );
    }

    #[test]
    fn json_escapes_names() {
        let d = Detected {
            encoding: textcodec::SHIFT_JIS,
            found: Found::Guess(0.5),
        };
        let json = to_json(&[("a\"b".to_string(), d)]);
        assert_eq!(
            json,
            "[\n  {\"input\": \"a\\\"b\", \"encoding\": \"Shift_JIS\", \"source\": \"guess\", \"score\": 0.5000}\n]\n"
        );
        assert_eq!(to_json(&[]), "[]\n");
    }
}
