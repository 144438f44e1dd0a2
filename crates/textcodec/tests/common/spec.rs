//! A literal transcription of the spec's decoders and encoders ("process a queue" with an I/O
//! queue that supports "restore"), built from the index files in data/whatwg/: an oracle
//! independent of textcodec and of encoding_rs (it catches deviations that textcodec might
//! share with encoding_rs), with the spec's BOM handling ("decode", "UTF-8 decode") for the
//! fatal errors' positions. Slow but simple.

use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;

use textcodec::{BomHandling, Encoding};

// ------------------------------------------------------------------------------------------------
// Indexes
// ------------------------------------------------------------------------------------------------

struct Index {
    by_pointer: HashMap<u32, u32>,
    /// All pointers of each code point, ascending.
    by_code_point: HashMap<u32, Vec<u32>>,
}

fn load_index(name: &str) -> Index {
    let path = super::repo_root()
        .join("data/whatwg")
        .join(format!("index-{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut by_pointer = HashMap::new();
    let mut by_code_point: HashMap<u32, Vec<u32>> = HashMap::new();
    // "let lines be the result of splitting the resource's contents on U+000A LF. Then remove each
    // item in lines that is the empty string or starts with U+0023 (#). Then ... splitting each
    // item in lines on U+0009 TAB. The first subitem is the pointer (as a decimal number) and the
    // second is the corresponding code point (as a hexadecimal number)."
    for line in text.split('\n') {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut items = line.split('\t');
        let p: u32 = items.next().unwrap().trim().parse().unwrap();
        let c =
            u32::from_str_radix(items.next().unwrap().trim().trim_start_matches("0x"), 16).unwrap();
        by_pointer.insert(p, c);
        by_code_point.entry(c).or_default().push(p);
    }
    for v in by_code_point.values_mut() {
        v.sort_unstable();
    }
    Index {
        by_pointer,
        by_code_point,
    }
}

/// The index named `file` (index-<file>.txt), loaded once.
fn index(file: &'static str) -> &'static Index {
    type Cache = std::sync::Mutex<HashMap<&'static str, &'static Index>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let m = CACHE.get_or_init(Default::default);
    let mut m = m.lock().unwrap();
    m.entry(file)
        .or_insert_with(|| Box::leak(Box::new(load_index(file))))
}

impl Index {
    /// "index code point"
    fn code_point(&self, pointer: u32) -> Option<u32> {
        self.by_pointer.get(&pointer).copied()
    }
    /// "index pointer": the first pointer.
    fn pointer(&self, cp: u32) -> Option<u32> {
        self.by_code_point.get(&cp).map(|v| v[0])
    }
}

fn ranges() -> &'static Vec<(u32, u32)> {
    static R: OnceLock<Vec<(u32, u32)>> = OnceLock::new();
    R.get_or_init(|| {
        let idx = load_index("gb18030-ranges");
        let mut v: Vec<(u32, u32)> = idx.by_pointer.into_iter().collect();
        v.sort_unstable();
        v
    })
}

/// "index gb18030 ranges code point"
fn ranges_code_point(pointer: u32) -> Option<u32> {
    if (pointer > 39419 && pointer < 189000) || pointer > 1237575 {
        return None;
    }
    if pointer == 7457 {
        return Some(0xE7C7);
    }
    let (offset, cp_offset) = ranges()
        .iter()
        .rev()
        .find(|(p, _)| *p <= pointer)
        .copied()
        .unwrap();
    Some(cp_offset + pointer - offset)
}

/// "index gb18030 ranges pointer"
fn ranges_pointer(cp: u32) -> u32 {
    if cp == 0xE7C7 {
        return 7457;
    }
    let (p_offset, offset) = ranges()
        .iter()
        .map(|&(p, c)| (p, c))
        .filter(|&(_, c)| c <= cp)
        .max_by_key(|&(_, c)| c)
        .unwrap();
    p_offset + cp - offset
}

/// "Index single-byte" of a single-byte encoding (ISO-8859-8-I shares ISO-8859-8's).
fn single_byte_index(enc: &'static Encoding) -> &'static Index {
    type Cache = std::sync::Mutex<HashMap<&'static str, &'static Index>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let m = CACHE.get_or_init(Default::default);
    let mut m = m.lock().unwrap();
    m.entry(enc.name()).or_insert_with(|| {
        let file = match enc.name() {
            "ISO-8859-8-I" => "iso-8859-8".to_string(),
            n => n.to_ascii_lowercase(),
        };
        Box::leak(Box::new(load_index(&file)))
    })
}

// ------------------------------------------------------------------------------------------------
// Decoders
// ------------------------------------------------------------------------------------------------

/// An I/O queue of bytes ending with end-of-queue (None).
struct Queue(VecDeque<u8>);

impl Queue {
    /// "read": end-of-queue stays.
    fn read(&mut self) -> Option<u8> {
        self.0.pop_front()
    }
    /// "restore" a list of items: insert them, in order, before the first item.
    fn restore(&mut self, items: &[u8]) {
        for &b in items.iter().rev() {
            self.0.push_front(b);
        }
    }
}

enum R {
    Finished,
    Items(Vec<u32>),
    Error,
    Continue,
}

fn one(c: u32) -> R {
    R::Items(vec![c])
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Iso {
    Ascii,
    Roman,
    Katakana,
    LeadByte,
    TrailByte,
    EscapeStart,
    Escape,
}

struct State {
    // UTF-8
    cp: u32,
    seen: u32,
    needed: u32,
    lower: u8,
    upper: u8,
    // multi-byte leads
    first: u8,
    second: u8,
    third: u8,
    jis0212: bool,
    // ISO-2022-JP
    iso: Iso,
    iso_out: Iso,
    iso_output: bool,
    // UTF-16
    lead_byte: Option<u8>,
    lead_surrogate: Option<u16>,
    // replacement
    replacement_returned: bool,
}

impl State {
    fn new() -> State {
        State {
            cp: 0,
            seen: 0,
            needed: 0,
            lower: 0x80,
            upper: 0xBF,
            first: 0,
            second: 0,
            third: 0,
            jis0212: false,
            iso: Iso::Ascii,
            iso_out: Iso::Ascii,
            iso_output: false,
            lead_byte: None,
            lead_surrogate: None,
            replacement_returned: false,
        }
    }
}

fn handler(enc: &'static Encoding, s: &mut State, q: &mut Queue, byte: Option<u8>) -> R {
    match enc.name() {
        "UTF-8" => utf8(s, q, byte),
        "GBK" | "gb18030" => gb18030(s, q, byte),
        "Big5" => big5(s, q, byte),
        "EUC-JP" => euc_jp(s, q, byte),
        "ISO-2022-JP" => iso_2022_jp(s, q, byte),
        "Shift_JIS" => shift_jis(s, q, byte),
        "EUC-KR" => euc_kr(s, q, byte),
        "replacement" => {
            let Some(_) = byte else { return R::Finished };
            if !s.replacement_returned {
                s.replacement_returned = true;
                return R::Error;
            }
            R::Finished
        }
        "UTF-16BE" => utf16(s, q, byte, true),
        "UTF-16LE" => utf16(s, q, byte, false),
        "x-user-defined" => match byte {
            None => R::Finished,
            Some(b) if b < 0x80 => one(b as u32),
            Some(b) => one(0xF780 + b as u32 - 0x80),
        },
        _ => match byte {
            None => R::Finished,
            Some(b) if b < 0x80 => one(b as u32),
            Some(b) => match single_byte_index(enc).code_point(b as u32 - 0x80) {
                None => R::Error,
                Some(c) => one(c),
            },
        },
    }
}

fn utf8(s: &mut State, q: &mut Queue, byte: Option<u8>) -> R {
    let Some(byte) = byte else {
        if s.needed != 0 {
            s.needed = 0;
            return R::Error;
        }
        return R::Finished;
    };
    if s.needed == 0 {
        match byte {
            0x00..=0x7F => return one(byte as u32),
            0xC2..=0xDF => {
                s.needed = 1;
                s.cp = byte as u32 & 0x1F;
            }
            0xE0..=0xEF => {
                if byte == 0xE0 {
                    s.lower = 0xA0;
                }
                if byte == 0xED {
                    s.upper = 0x9F;
                }
                s.needed = 2;
                s.cp = byte as u32 & 0xF;
            }
            0xF0..=0xF4 => {
                if byte == 0xF0 {
                    s.lower = 0x90;
                }
                if byte == 0xF4 {
                    s.upper = 0x8F;
                }
                s.needed = 3;
                s.cp = byte as u32 & 0x7;
            }
            _ => return R::Error,
        }
        return R::Continue;
    }
    if !(s.lower..=s.upper).contains(&byte) {
        s.cp = 0;
        s.needed = 0;
        s.seen = 0;
        s.lower = 0x80;
        s.upper = 0xBF;
        q.restore(&[byte]);
        return R::Error;
    }
    s.lower = 0x80;
    s.upper = 0xBF;
    s.cp = (s.cp << 6) | (byte as u32 & 0x3F);
    s.seen += 1;
    if s.seen != s.needed {
        return R::Continue;
    }
    let cp = s.cp;
    s.cp = 0;
    s.needed = 0;
    s.seen = 0;
    one(cp)
}

fn gb18030(s: &mut State, q: &mut Queue, byte: Option<u8>) -> R {
    let Some(byte) = byte else {
        if s.first == 0 && s.second == 0 && s.third == 0 {
            return R::Finished;
        }
        s.first = 0;
        s.second = 0;
        s.third = 0;
        return R::Error;
    };
    if s.third != 0 {
        if !(0x30..=0x39).contains(&byte) {
            q.restore(&[s.second, s.third, byte]);
            s.first = 0;
            s.second = 0;
            s.third = 0;
            return R::Error;
        }
        let pointer = (s.first as u32 - 0x81) * (10 * 126 * 10)
            + (s.second as u32 - 0x30) * (10 * 126)
            + (s.third as u32 - 0x81) * 10
            + byte as u32
            - 0x30;
        let cp = ranges_code_point(pointer);
        s.first = 0;
        s.second = 0;
        s.third = 0;
        return match cp {
            None => R::Error,
            Some(c) => one(c),
        };
    }
    if s.second != 0 {
        if (0x81..=0xFE).contains(&byte) {
            s.third = byte;
            return R::Continue;
        }
        q.restore(&[s.second, byte]);
        s.first = 0;
        s.second = 0;
        return R::Error;
    }
    if s.first != 0 {
        if (0x30..=0x39).contains(&byte) {
            s.second = byte;
            return R::Continue;
        }
        let leading = s.first as u32;
        s.first = 0;
        let offset = if byte < 0x7F { 0x40 } else { 0x41 };
        let pointer = if (0x40..=0x7E).contains(&byte) || (0x80..=0xFE).contains(&byte) {
            Some((leading - 0x81) * 190 + (byte as u32 - offset))
        } else {
            None
        };
        if let Some(c) = pointer.and_then(|p| index("gb18030").code_point(p)) {
            return one(c);
        }
        if byte < 0x80 {
            q.restore(&[byte]);
        }
        return R::Error;
    }
    if byte < 0x80 {
        return one(byte as u32);
    }
    if byte == 0x80 {
        return one(0x20AC);
    }
    if (0x81..=0xFE).contains(&byte) {
        s.first = byte;
        return R::Continue;
    }
    R::Error
}

fn big5(s: &mut State, q: &mut Queue, byte: Option<u8>) -> R {
    let Some(byte) = byte else {
        if s.first != 0 {
            s.first = 0;
            return R::Error;
        }
        return R::Finished;
    };
    if s.first != 0 {
        let leading = s.first as u32;
        s.first = 0;
        let offset = if byte < 0x7F { 0x40 } else { 0x62 };
        let pointer = if (0x40..=0x7E).contains(&byte) || (0xA1..=0xFE).contains(&byte) {
            Some((leading - 0x81) * 157 + (byte as u32 - offset))
        } else {
            None
        };
        match pointer {
            Some(1133) => return R::Items(vec![0xCA, 0x304]),
            Some(1135) => return R::Items(vec![0xCA, 0x30C]),
            Some(1164) => return R::Items(vec![0xEA, 0x304]),
            Some(1166) => return R::Items(vec![0xEA, 0x30C]),
            _ => {}
        }
        if let Some(c) = pointer.and_then(|p| index("big5").code_point(p)) {
            return one(c);
        }
        if byte < 0x80 {
            q.restore(&[byte]);
        }
        return R::Error;
    }
    if byte < 0x80 {
        return one(byte as u32);
    }
    if (0x81..=0xFE).contains(&byte) {
        s.first = byte;
        return R::Continue;
    }
    R::Error
}

fn euc_jp(s: &mut State, q: &mut Queue, byte: Option<u8>) -> R {
    let Some(byte) = byte else {
        if s.first != 0 {
            s.first = 0;
            return R::Error;
        }
        return R::Finished;
    };
    if s.first == 0x8E && (0xA1..=0xDF).contains(&byte) {
        s.first = 0;
        return one(0xFF61 - 0xA1 + byte as u32);
    }
    if s.first == 0x8F && (0xA1..=0xFE).contains(&byte) {
        s.jis0212 = true;
        s.first = byte;
        return R::Continue;
    }
    if s.first != 0 {
        let leading = s.first as u32;
        s.first = 0;
        let mut cp = None;
        if (0xA1..=0xFE).contains(&leading) && (0xA1..=0xFE).contains(&byte) {
            let p = (leading - 0xA1) * 94 + byte as u32 - 0xA1;
            cp = index(if s.jis0212 { "jis0212" } else { "jis0208" }).code_point(p);
        }
        s.jis0212 = false;
        if let Some(c) = cp {
            return one(c);
        }
        if byte < 0x80 {
            q.restore(&[byte]);
        }
        return R::Error;
    }
    if byte < 0x80 {
        return one(byte as u32);
    }
    if byte == 0x8E || byte == 0x8F || (0xA1..=0xFE).contains(&byte) {
        s.first = byte;
        return R::Continue;
    }
    R::Error
}

fn iso_2022_jp(s: &mut State, q: &mut Queue, byte: Option<u8>) -> R {
    match s.iso {
        Iso::Ascii | Iso::Roman => match byte {
            Some(0x1B) => {
                s.iso = Iso::EscapeStart;
                R::Continue
            }
            Some(0x5C) if s.iso == Iso::Roman => {
                s.iso_output = false;
                one(0xA5)
            }
            Some(0x7E) if s.iso == Iso::Roman => {
                s.iso_output = false;
                one(0x203E)
            }
            Some(b) if b < 0x80 && b != 0x0E && b != 0x0F => {
                s.iso_output = false;
                one(b as u32)
            }
            None => R::Finished,
            Some(_) => {
                s.iso_output = false;
                R::Error
            }
        },
        Iso::Katakana => match byte {
            Some(0x1B) => {
                s.iso = Iso::EscapeStart;
                R::Continue
            }
            Some(b @ 0x21..=0x5F) => {
                s.iso_output = false;
                one(0xFF61 - 0x21 + b as u32)
            }
            None => R::Finished,
            Some(_) => {
                s.iso_output = false;
                R::Error
            }
        },
        Iso::LeadByte => match byte {
            Some(0x1B) => {
                s.iso = Iso::EscapeStart;
                R::Continue
            }
            Some(b @ 0x21..=0x7E) => {
                s.iso_output = false;
                s.first = b;
                s.iso = Iso::TrailByte;
                R::Continue
            }
            None => R::Finished,
            Some(_) => {
                s.iso_output = false;
                R::Error
            }
        },
        Iso::TrailByte => match byte {
            Some(0x1B) => {
                s.iso = Iso::EscapeStart;
                R::Error
            }
            Some(b @ 0x21..=0x7E) => {
                s.iso = Iso::LeadByte;
                let p = (s.first as u32 - 0x21) * 94 + b as u32 - 0x21;
                match index("jis0208").code_point(p) {
                    None => R::Error,
                    Some(c) => one(c),
                }
            }
            None => {
                s.iso = Iso::LeadByte;
                R::Error
            }
            Some(_) => {
                s.iso = Iso::LeadByte;
                R::Error
            }
        },
        Iso::EscapeStart => {
            if byte == Some(0x24) || byte == Some(0x28) {
                s.first = byte.unwrap();
                s.iso = Iso::Escape;
                return R::Continue;
            }
            if let Some(b) = byte {
                q.restore(&[b]);
            }
            s.iso_output = false;
            s.iso = s.iso_out;
            R::Error
        }
        Iso::Escape => {
            let leading = s.first;
            s.first = 0;
            let state = match (leading, byte) {
                (0x28, Some(0x42)) => Some(Iso::Ascii),
                (0x28, Some(0x4A)) => Some(Iso::Roman),
                (0x28, Some(0x49)) => Some(Iso::Katakana),
                (0x24, Some(0x40 | 0x42)) => Some(Iso::LeadByte),
                _ => None,
            };
            if let Some(st) = state {
                s.iso = st;
                s.iso_out = st;
                let output = s.iso_output;
                s.iso_output = true;
                return if output { R::Error } else { R::Continue };
            }
            match byte {
                None => q.restore(&[leading]),
                Some(b) => q.restore(&[leading, b]),
            }
            s.iso_output = false;
            s.iso = s.iso_out;
            R::Error
        }
    }
}

fn shift_jis(s: &mut State, q: &mut Queue, byte: Option<u8>) -> R {
    let Some(byte) = byte else {
        if s.first != 0 {
            s.first = 0;
            return R::Error;
        }
        return R::Finished;
    };
    if s.first != 0 {
        let leading = s.first as u32;
        s.first = 0;
        let offset = if byte < 0x7F { 0x40 } else { 0x41 };
        let leading_offset = if leading < 0xA0 { 0x81 } else { 0xC1 };
        let pointer = if (0x40..=0x7E).contains(&byte) || (0x80..=0xFC).contains(&byte) {
            Some((leading - leading_offset) * 188 + byte as u32 - offset)
        } else {
            None
        };
        if let Some(p @ 8836..=10715) = pointer {
            return one(0xE000 - 8836 + p);
        }
        if let Some(c) = pointer.and_then(|p| index("jis0208").code_point(p)) {
            return one(c);
        }
        if byte < 0x80 {
            q.restore(&[byte]);
        }
        return R::Error;
    }
    if byte <= 0x80 {
        return one(byte as u32);
    }
    if (0xA1..=0xDF).contains(&byte) {
        return one(0xFF61 - 0xA1 + byte as u32);
    }
    if (0x81..=0x9F).contains(&byte) || (0xE0..=0xFC).contains(&byte) {
        s.first = byte;
        return R::Continue;
    }
    R::Error
}

fn euc_kr(s: &mut State, q: &mut Queue, byte: Option<u8>) -> R {
    let Some(byte) = byte else {
        if s.first != 0 {
            s.first = 0;
            return R::Error;
        }
        return R::Finished;
    };
    if s.first != 0 {
        let leading = s.first as u32;
        s.first = 0;
        let pointer = if (0x41..=0xFE).contains(&byte) {
            Some((leading - 0x81) * 190 + (byte as u32 - 0x41))
        } else {
            None
        };
        if let Some(c) = pointer.and_then(|p| index("euc-kr").code_point(p)) {
            return one(c);
        }
        if byte < 0x80 {
            q.restore(&[byte]);
        }
        return R::Error;
    }
    if byte < 0x80 {
        return one(byte as u32);
    }
    if (0x81..=0xFE).contains(&byte) {
        s.first = byte;
        return R::Continue;
    }
    R::Error
}

fn utf16(s: &mut State, q: &mut Queue, byte: Option<u8>, be: bool) -> R {
    let Some(byte) = byte else {
        if s.lead_byte.is_some() || s.lead_surrogate.is_some() {
            s.lead_byte = None;
            s.lead_surrogate = None;
            return R::Error;
        }
        return R::Finished;
    };
    let Some(lead) = s.lead_byte else {
        s.lead_byte = Some(byte);
        return R::Continue;
    };
    let unit: u16 = if be {
        (u16::from(lead) << 8) + u16::from(byte)
    } else {
        (u16::from(byte) << 8) + u16::from(lead)
    };
    s.lead_byte = None;
    if let Some(ls) = s.lead_surrogate {
        s.lead_surrogate = None;
        if (0xDC00..=0xDFFF).contains(&unit) {
            return one(0x10000 + ((u32::from(ls) - 0xD800) << 10) + (u32::from(unit) - 0xDC00));
        }
        let (b1, b2) = ((unit >> 8) as u8, (unit & 0xFF) as u8);
        q.restore(&if be { [b1, b2] } else { [b2, b1] });
        return R::Error;
    }
    if (0xD800..=0xDBFF).contains(&unit) {
        s.lead_surrogate = Some(unit);
        return R::Continue;
    }
    if (0xDC00..=0xDFFF).contains(&unit) {
        return R::Error;
    }
    one(u32::from(unit))
}

/// "process a queue" in replacement mode: the output, with U+FFFD for each error, and the
/// number of errors.
pub fn spec_decode(enc: &'static Encoding, bytes: &[u8]) -> (String, usize) {
    let mut q = Queue(bytes.iter().copied().collect());
    let mut s = State::new();
    let mut out = String::new();
    let mut errors = 0;
    loop {
        let item = q.read();
        match handler(enc, &mut s, &mut q, item) {
            R::Finished => return (out, errors),
            R::Items(v) => {
                for c in v {
                    out.push(char::from_u32(c).expect("decoders never output surrogates"));
                }
            }
            R::Error => {
                out.push('\u{FFFD}');
                errors += 1;
            }
            R::Continue => {}
        }
    }
}

/// The fatal-mode `Err { read, written }` sequence the API implies for a one-shot call resumed
/// after each error: `read` is the number of bytes taken from the queue for good (restored
/// bytes are back in the queue), `written` the UTF-8 length of the output since the last error.
pub fn spec_fatal_steps(enc: &'static Encoding, bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut q = Queue(bytes.iter().copied().collect());
    let mut s = State::new();
    let mut steps = Vec::new();
    let mut consumed_before = 0;
    let mut written = 0;
    loop {
        let item = q.read();
        match handler(enc, &mut s, &mut q, item) {
            R::Finished => return steps,
            R::Items(v) => {
                for c in v {
                    written += char::from_u32(c).unwrap().len_utf8();
                }
            }
            R::Error => {
                let consumed = bytes.len() - q.0.len();
                steps.push((consumed - consumed_before, written));
                consumed_before = consumed;
                written = 0;
            }
            R::Continue => {}
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Encoders
// ------------------------------------------------------------------------------------------------

enum E {
    Bytes(Vec<u8>),
    Error(u32),
    /// restore codePoint and return bytes (ISO-2022-JP).
    RestoreBytes(Vec<u8>),
}

const GB18030_SIDE: [(u32, [u8; 2]); 18] = [
    (0xE78D, [0xA6, 0xD9]),
    (0xE78E, [0xA6, 0xDA]),
    (0xE78F, [0xA6, 0xDB]),
    (0xE790, [0xA6, 0xDC]),
    (0xE791, [0xA6, 0xDD]),
    (0xE792, [0xA6, 0xDE]),
    (0xE793, [0xA6, 0xDF]),
    (0xE794, [0xA6, 0xEC]),
    (0xE795, [0xA6, 0xED]),
    (0xE796, [0xA6, 0xF3]),
    (0xE81E, [0xFE, 0x59]),
    (0xE826, [0xFE, 0x61]),
    (0xE82B, [0xFE, 0x66]),
    (0xE82C, [0xFE, 0x67]),
    (0xE832, [0xFE, 0x6D]),
    (0xE843, [0xFE, 0x7E]),
    (0xE854, [0xFE, 0x90]),
    (0xE864, [0xFE, 0xA0]),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum IsoE {
    Ascii,
    Roman,
    Jis0208,
}

fn encode_one(enc: &'static Encoding, state: &mut IsoE, cp: u32) -> E {
    let b = |v: &[u8]| E::Bytes(v.to_vec());
    match enc.name() {
        "UTF-8" => {
            let mut buf = [0u8; 4];
            b(char::from_u32(cp).unwrap().encode_utf8(&mut buf).as_bytes())
        }
        "x-user-defined" => match cp {
            0..=0x7F => b(&[cp as u8]),
            0xF780..=0xF7FF => b(&[(cp - 0xF780 + 0x80) as u8]),
            _ => E::Error(cp),
        },
        "GBK" | "gb18030" => {
            let is_gbk = enc.name() == "GBK";
            if cp < 0x80 {
                return b(&[cp as u8]);
            }
            if cp == 0xE5E5 {
                return E::Error(cp);
            }
            if is_gbk && cp == 0x20AC {
                return b(&[0x80]);
            }
            if let Some((_, bytes)) = GB18030_SIDE.iter().find(|(c, _)| *c == cp) {
                return b(bytes);
            }
            if let Some(p) = index("gb18030").pointer(cp) {
                let leading = p / 190 + 0x81;
                let trailing = p % 190;
                let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
                return b(&[leading as u8, (trailing + offset) as u8]);
            }
            if is_gbk {
                return E::Error(cp);
            }
            let mut p = ranges_pointer(cp);
            let b1 = p / (10 * 126 * 10);
            p %= 10 * 126 * 10;
            let b2 = p / (10 * 126);
            p %= 10 * 126;
            let b3 = p / 10;
            let b4 = p % 10;
            b(&[
                (b1 + 0x81) as u8,
                (b2 + 0x30) as u8,
                (b3 + 0x81) as u8,
                (b4 + 0x30) as u8,
            ])
        }
        "Big5" => {
            if cp < 0x80 {
                return b(&[cp as u8]);
            }
            let min = (0xA1 - 0x81) * 157;
            let pointers: Vec<u32> = index("big5")
                .by_code_point
                .get(&cp)
                .map(|v| v.iter().copied().filter(|&p| p >= min).collect())
                .unwrap_or_default();
            let p = if [0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345].contains(&cp) {
                pointers.last().copied()
            } else {
                pointers.first().copied()
            };
            let Some(p) = p else { return E::Error(cp) };
            let leading = p / 157 + 0x81;
            let trailing = p % 157;
            let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
            b(&[leading as u8, (trailing + offset) as u8])
        }
        "EUC-JP" => {
            if cp < 0x80 {
                return b(&[cp as u8]);
            }
            if cp == 0xA5 {
                return b(&[0x5C]);
            }
            if cp == 0x203E {
                return b(&[0x7E]);
            }
            if (0xFF61..=0xFF9F).contains(&cp) {
                return b(&[0x8E, (cp - 0xFF61 + 0xA1) as u8]);
            }
            let cp = if cp == 0x2212 { 0xFF0D } else { cp };
            let Some(p) = index("jis0208").pointer(cp) else {
                return E::Error(cp);
            };
            b(&[(p / 94 + 0xA1) as u8, (p % 94 + 0xA1) as u8])
        }
        "Shift_JIS" => {
            if cp <= 0x80 {
                return b(&[cp as u8]);
            }
            if cp == 0xA5 {
                return b(&[0x5C]);
            }
            if cp == 0x203E {
                return b(&[0x7E]);
            }
            if (0xFF61..=0xFF9F).contains(&cp) {
                return b(&[(cp - 0xFF61 + 0xA1) as u8]);
            }
            let cp = if cp == 0x2212 { 0xFF0D } else { cp };
            // "index Shift_JIS pointer": excluding pointers 8272 to 8835.
            let p = index("jis0208")
                .by_code_point
                .get(&cp)
                .and_then(|v| v.iter().copied().find(|p| !(8272..=8835).contains(p)));
            let Some(p) = p else { return E::Error(cp) };
            let leading = p / 188;
            let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
            let trailing = p % 188;
            let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
            b(&[(leading + leading_offset) as u8, (trailing + offset) as u8])
        }
        "EUC-KR" => {
            if cp < 0x80 {
                return b(&[cp as u8]);
            }
            let Some(p) = index("euc-kr").pointer(cp) else {
                return E::Error(cp);
            };
            b(&[(p / 190 + 0x81) as u8, (p % 190 + 0x41) as u8])
        }
        "ISO-2022-JP" => {
            let ascii = cp < 0x80;
            if (*state == IsoE::Ascii || *state == IsoE::Roman) && [0x0E, 0x0F, 0x1B].contains(&cp)
            {
                return E::Error(0xFFFD);
            }
            if *state == IsoE::Ascii && ascii {
                return b(&[cp as u8]);
            }
            if *state == IsoE::Roman
                && ((ascii && cp != 0x5C && cp != 0x7E) || cp == 0xA5 || cp == 0x203E)
            {
                if ascii {
                    return b(&[cp as u8]);
                }
                if cp == 0xA5 {
                    return b(&[0x5C]);
                }
                return b(&[0x7E]);
            }
            if ascii && *state != IsoE::Ascii {
                *state = IsoE::Ascii;
                return E::RestoreBytes(vec![0x1B, 0x28, 0x42]);
            }
            if (cp == 0xA5 || cp == 0x203E) && *state != IsoE::Roman {
                *state = IsoE::Roman;
                return E::RestoreBytes(vec![0x1B, 0x28, 0x4A]);
            }
            let mut cp = if cp == 0x2212 { 0xFF0D } else { cp };
            if (0xFF61..=0xFF9F).contains(&cp) {
                cp = index("iso-2022-jp-katakana")
                    .code_point(cp - 0xFF61)
                    .unwrap();
            }
            let Some(p) = index("jis0208").pointer(cp) else {
                if *state == IsoE::Jis0208 {
                    *state = IsoE::Ascii;
                    return E::RestoreBytes(vec![0x1B, 0x28, 0x42]);
                }
                return E::Error(cp);
            };
            if *state != IsoE::Jis0208 {
                *state = IsoE::Jis0208;
                return E::RestoreBytes(vec![0x1B, 0x24, 0x42]);
            }
            b(&[(p / 94 + 0x21) as u8, (p % 94 + 0x21) as u8])
        }
        _ => {
            if cp < 0x80 {
                return b(&[cp as u8]);
            }
            let Some(p) = single_byte_index(enc).pointer(cp) else {
                return E::Error(cp);
            };
            b(&[(p + 0x80) as u8])
        }
    }
}

/// "encode" in html mode, with the unmappables reported.
pub fn spec_encode(enc: &'static Encoding, text: &str) -> (Vec<u8>, Vec<char>) {
    let mut state = IsoE::Ascii;
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for c in text.chars() {
        loop {
            match encode_one(enc, &mut state, c as u32) {
                E::Bytes(b) => {
                    out.extend(b);
                    break;
                }
                E::RestoreBytes(b) => out.extend(b), // the code point is read again
                E::Error(cp) => {
                    out.extend(format!("&#{cp};").bytes());
                    errs.push(char::from_u32(cp).unwrap());
                    break;
                }
            }
        }
    }
    // end-of-queue
    if enc == textcodec::ISO_2022_JP && state != IsoE::Ascii {
        out.extend([0x1B, 0x28, 0x42]);
    }
    (out, errs)
}

// ------------------------------------------------------------------------------------------------
// BOM handling, and the positions of fatal errors
// ------------------------------------------------------------------------------------------------

/// The spec's BOM handling before "process a queue", on `bytes`: "decode" for
/// `BomHandling::Sniff` ("BOM sniff" peeks at three bytes; a BOM found overrides the encoding
/// and its bytes are read), "UTF-8 decode" for `Strip` (a BOM of the encoding itself, UTF-8's
/// or, as textcodec extends it, UTF-16BE's or UTF-16LE's, is read), none for `Keep`. Returns the
/// encoding to decode with and the number of bytes read.
pub fn spec_bom(
    enc: &'static Encoding,
    bom: BomHandling,
    bytes: &[u8],
) -> (&'static Encoding, usize) {
    const BOMS: [(&[u8], &str); 3] = [
        (b"\xEF\xBB\xBF", "UTF-8"),
        (b"\xFE\xFF", "UTF-16BE"),
        (b"\xFF\xFE", "UTF-16LE"),
    ];
    let found = BOMS.iter().find(|(b, _)| bytes.starts_with(b));
    match (bom, found) {
        (BomHandling::Sniff, Some(&(b, name))) => {
            (Encoding::for_label(name.as_bytes()).unwrap(), b.len())
        }
        (BomHandling::Strip, Some(&(b, name))) if name == enc.name() => (enc, b.len()),
        _ => (enc, 0),
    }
}

/// "Process a queue" in fatal mode after the BOM handling, resumed after each error: the
/// output with a U+FFFD at each error, and for each error (the UTF-8 length of the output
/// before it, the input position through it: the bytes read from the I/O queue for good,
/// bytes restored to it not counted).
pub fn spec_fatal_decode(
    enc: &'static Encoding,
    bom: BomHandling,
    bytes: &[u8],
) -> super::Expected<String> {
    let (enc, skip) = spec_bom(enc, bom, bytes);
    let mut q = Queue(bytes[skip..].iter().copied().collect());
    let mut s = State::new();
    let mut want = super::Expected::<String>::default();
    loop {
        let item = q.read();
        match handler(enc, &mut s, &mut q, item) {
            R::Finished => return want,
            R::Items(v) => {
                for c in v {
                    want.text
                        .push(char::from_u32(c).expect("decoders never output surrogates"));
                }
            }
            R::Error => {
                want.errors.push((want.text.len(), bytes.len() - q.0.len()));
                want.text.push('\u{FFFD}');
            }
            R::Continue => {}
        }
    }
}
