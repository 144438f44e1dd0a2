//! `-r`: the files of a directory tree, and `--include GLOB` patterns on their names.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The regular files under `dir` whose name matches one of `include` (every file when it is
/// empty), depth first in byte order of names. Symbolic links are not followed (neither to
/// files nor to directories), so a tree with a link to its own parent ends.
pub fn walk(dir: &Path, include: &[String], found: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(dir)?.collect::<io::Result<_>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            walk(&path, include, found)?;
        } else if kind.is_file() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if include.is_empty() || include.iter().any(|g| glob_match(g, &name)) {
                found.push(path);
            }
        }
    }
    Ok(())
}

/// Whether `name` matches the shell pattern `glob`: `*` any run of characters, `?` one
/// character, `[abc]`, `[a-z]` and `[!abc]` (or `[^abc]`) one character of (or not of) a
/// set, `\x` the character x; anything else itself.
pub fn glob_match(glob: &str, name: &str) -> bool {
    let g: Vec<char> = glob.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Iterative matching with one backtrack point for the last `*` (linear for patterns
    // with one star, no exponential blow-up with several).
    let (mut gi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        let step = match g.get(gi) {
            Some('*') => {
                star = Some((gi, ni));
                gi += 1;
                continue;
            }
            Some('?') => Some(1),
            Some('[') => match class(&g[gi..], n[ni]) {
                Some((len, true)) => Some(len),
                Some((_, false)) => None,
                // An unclosed `[` is itself.
                None => (n[ni] == '[').then_some(1),
            },
            Some('\\') if gi + 1 < g.len() => (g[gi + 1] == n[ni]).then_some(2),
            Some(&c) => (c == n[ni]).then_some(1),
            None => None,
        };
        match step {
            Some(len) => {
                gi += len;
                ni += 1;
            }
            None => match star {
                Some((sg, sn)) => {
                    gi = sg + 1;
                    ni = sn + 1;
                    star = Some((sg, sn + 1));
                }
                None => return false,
            },
        }
    }
    g[gi..].iter().all(|&c| c == '*')
}

/// A bracket expression at the start of `g`, tested against `c`: its length and whether it
/// matches, or `None` when it is not closed.
fn class(g: &[char], c: char) -> Option<(usize, bool)> {
    let mut i = 1;
    let negate = matches!(g.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while i < g.len() {
        if g[i] == ']' && !first {
            return Some((i + 1, matched != negate));
        }
        first = false;
        if i + 2 < g.len() && g[i + 1] == '-' && g[i + 2] != ']' {
            matched |= g[i] <= c && c <= g[i + 2];
            i += 3;
        } else {
            matched |= g[i] == c;
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn globs() {
        for (glob, name, want) in [
            ("*.txt", "a.txt", true),
            ("*.txt", ".txt", true),
            ("*.txt", "a.txt.bak", false),
            ("*.txt", "a.TXT", false),
            ("*", "", true),
            ("", "", true),
            ("", "a", false),
            ("a*b*c", "aXXbYYc", true),
            ("a*b*c", "aXXbYY", false),
            ("a*b*c", "abcbc", true),
            ("?.html", "x.html", true),
            ("?.html", "xy.html", false),
            ("[abc].txt", "b.txt", true),
            ("[abc].txt", "d.txt", false),
            ("[!abc].txt", "d.txt", true),
            ("[^abc].txt", "a.txt", false),
            ("[a-c]*", "cat", true),
            ("[a-c]*", "dog", false),
            ("[]]", "]", true),
            ("[a-]", "-", true),
            ("[unclosed", "[unclosed", true),
            ("\\*", "*", true),
            ("\\*", "a", false),
            ("*.[ch]", "main.c", true),
            ("*.[ch]", "main.rs", false),
            ("日本*", "日本語.txt", true),
            ("*a*a*a*a*a*b", &"a".repeat(60), false),
        ] {
            assert_eq!(glob_match(glob, name), want, "{glob:?} {name:?}");
        }
    }
}
