//! One row of `decode_many`, decoded without the GIL into a worker's arena, in the form of
//! the string CPython will keep: its class (1, 2 or 4 bytes a character) and its characters,
//! so that making the string (with the GIL) is `PyUnicode_New` and one copy.
//!
//! The paths are those of `textcodec.decode` (`utf8.rs`, `single.rs`), writing into the
//! arena instead of a string:
//!
//! - ASCII that the decoder maps to itself: nothing written; the string is copied from the
//!   input.
//! - UTF-8: text below U+0100 through the core's `utf8_to_isomorphic` into 1-byte
//!   characters; other text without a four-byte sequence, counted, then decoded (fatal mode)
//!   into exactly as many 2-byte characters after the Latin-1 prefix widened.
//! - Single-byte encodings: their tables into 1-byte characters, or the core's decoder into
//!   2-byte ones (narrowed when every character is below U+0100).
//! - Anything else (the other encodings, malformed or astral UTF-8): the core's decoder into
//!   UTF-16, kept as it is for BMP text, narrowed or widened for the other classes.

use textcodec::{BomHandling, DecoderErrorMode, DecoderOptions, Encoding, ISO_2022_JP, UTF_8};

use crate::ffi::Units;
use crate::text::{write_utf16, Class, Scan};

/// Growable space of units of one size, kept at its full length (zeroed once, when it grows)
/// so that a row's worst case costs nothing to reserve.
#[derive(Default)]
pub(crate) struct Space<T> {
    buf: Vec<T>,
    used: usize,
}

impl<T: Copy + Default> Space<T> {
    /// `n` places after the used ones (their content is unspecified).
    fn spare(&mut self, n: usize) -> &mut [T] {
        let want = self.used + n;
        if self.buf.len() < want {
            self.buf.resize(want.max(2 * self.buf.len()), T::default());
        }
        &mut self.buf[self.used..want]
    }

    /// Keeps `n` places of the spare ones; returns where they start.
    fn commit(&mut self, n: usize) -> usize {
        let start = self.used;
        self.used += n;
        start
    }

    /// The bytes of memory it holds.
    pub(crate) fn bytes(&self) -> usize {
        self.buf.len() * std::mem::size_of::<T>()
    }

    pub(crate) fn get(&self, start: usize, len: usize) -> &[T] {
        &self.buf[start..start + len]
    }
}

/// The characters of a worker's rows, by class.
#[derive(Default)]
pub(crate) struct Arena {
    /// ASCII and Latin-1 rows.
    pub(crate) bytes: Space<u8>,
    /// BMP rows.
    pub(crate) units: Space<u16>,
    /// Rows with characters above U+FFFF.
    pub(crate) wide: Space<u32>,
}

impl Arena {
    /// The bytes of memory it holds.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.bytes() + self.units.bytes() + self.wide.bytes()
    }

    /// Forgets the rows (keeps the space).
    pub(crate) fn clear(&mut self) {
        self.bytes.used = 0;
        self.units.used = 0;
        self.wide.used = 0;
    }
}

/// Where a decoded row's characters are.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RowText {
    /// The row's input from byte `skip` on (after a BOM): ASCII that the decoder maps to
    /// itself.
    Input { skip: usize },
    /// `len` characters of `class` in the arena's space for that class, from `start`.
    Chars {
        class: Class,
        start: usize,
        len: usize,
    },
    /// Fatal mode met a malformed sequence (or the input is too long for any buffer): the
    /// row is decoded again with the GIL to raise its exact error.
    Failed,
}

impl RowText {
    /// Writes the row's characters into `out` (of the row's class and length).
    pub(crate) fn write(self, arena: &Arena, input: &[u8], out: Units<'_>) {
        match (self, out) {
            (RowText::Input { skip }, Units::U8(d)) => d.copy_from_slice(&input[skip..]),
            (RowText::Chars { start, len, .. }, Units::U8(d)) => {
                d.copy_from_slice(arena.bytes.get(start, len))
            }
            (RowText::Chars { start, len, .. }, Units::U16(d)) => {
                d.copy_from_slice(arena.units.get(start, len))
            }
            (RowText::Chars { start, len, .. }, Units::U32(d)) => {
                d.copy_from_slice(arena.wide.get(start, len))
            }
            _ => unreachable!("a row is written into a string of its class"),
        }
    }

    /// The row's class and length in characters (`None` for `Failed`).
    pub(crate) fn shape(self, input: &[u8]) -> Option<(Class, usize)> {
        match self {
            RowText::Input { skip } => Some((Class::Ascii, input.len() - skip)),
            RowText::Chars { class, len, .. } => Some((class, len)),
            RowText::Failed => None,
        }
    }
}

/// The spec's "decode" of `row` with `enc` (BOM sniffing; replacement mode, or fatal mode
/// when `fatal`) into `arena`.
pub(crate) fn decode(
    arena: &mut Arena,
    enc: &'static Encoding,
    row: &[u8],
    fatal: bool,
) -> RowText {
    let (enc, skip) = crate::decode::bom(enc, BomHandling::Sniff, row);
    let data = &row[skip..];
    if enc.is_ascii_compatible() && enc != ISO_2022_JP && data.is_ascii() {
        return RowText::Input { skip };
    }
    let (text, replaced) = if enc == UTF_8 {
        utf8(arena, data)
    } else if let Some(t) = crate::single::table(enc) {
        single(arena, t, enc, data, fatal)
    } else {
        utf16(arena, enc, data)
    };
    if fatal && replaced {
        RowText::Failed
    } else {
        text
    }
}

/// Not ASCII: UTF-8 as `utf8::decode` does it; the row and whether anything was replaced.
fn utf8(arena: &mut Arena, data: &[u8]) -> (RowText, bool) {
    let n = data.len();
    let ascii = crate::utf8::ascii_len(data);
    // The prefix converted to Latin-1 in the arena's bytes (not kept): bytes read, characters.
    let (mut read, mut chars) = (0, 0);
    if data[ascii] & 0xFE == 0xC2 {
        let buf = arena.bytes.spare(n);
        let (r, w) = textcodec::utf8_to_isomorphic(data, buf);
        if r == n {
            // At least one character at or above U+0080 (the ASCII prefix ended).
            let start = arena.bytes.commit(w);
            return (Chars(Class::Latin1, start, w).into(), false);
        }
        (read, chars) = (r, w);
    }
    let rest = &data[read..];
    let (rest_chars, four) = crate::utf8::census(&data[read.max(ascii)..]);
    let rest_chars = rest_chars + ascii.saturating_sub(read);
    if !four {
        // Valid, the rest's first character that is not ASCII is at or above U+0100.
        let total = chars + rest_chars;
        let prefix = &arena.bytes.spare(chars)[..chars];
        let out = arena.units.spare(total);
        let (head, tail) = out.split_at_mut(chars);
        for (d, &c) in head.iter_mut().zip(prefix) {
            *d = u16::from(c);
        }
        let mut dec = UTF_8.new_decoder(DecoderOptions {
            error_mode: DecoderErrorMode::Fatal,
            bom: BomHandling::Keep,
        });
        let r = dec.decode_to_utf16(rest, tail, true);
        if matches!(r, Ok(p) if p.read == rest.len() && p.written == rest_chars) {
            let start = arena.units.commit(total);
            return (Chars(Class::Bmp, start, total).into(), false);
        }
    }
    // Malformed or astral text: all of it through UTF-16.
    utf16(arena, UTF_8, data)
}

/// A row in the arena, by its parts.
struct Chars(Class, usize, usize);

impl From<Chars> for RowText {
    fn from(Chars(class, start, len): Chars) -> RowText {
        RowText::Chars { class, start, len }
    }
}

/// Not ASCII: a single-byte encoding as `single::decode` does it.
fn single(
    arena: &mut Arena,
    t: &crate::single::Table,
    enc: &'static Encoding,
    data: &[u8],
    want_replaced: bool,
) -> (RowText, bool) {
    let n = data.len();
    let replaced =
        want_replaced && t.any_unmapped && data.iter().any(|&b| t.unmapped[usize::from(b)]);
    // A byte at or above 0x80 is there, and decodes at or above U+0080: Latin1 at least.
    if t.latin && crate::single::write_latin1(&t.units, data, arena.bytes.spare(n)) {
        let start = arena.bytes.commit(n);
        return (Chars(Class::Latin1, start, n).into(), replaced);
    }
    let d = arena.units.spare(n);
    let wide = if t.scattered {
        crate::single::write(&t.units, data, d) >= 0x100
    } else {
        let mut dec = enc.new_decoder(DecoderOptions {
            error_mode: DecoderErrorMode::Replacement,
            bom: BomHandling::Keep,
        });
        match dec.decode_to_utf16(data, d, true) {
            Ok(p) if p.read == n && p.written == n => {}
            _ => return utf16(arena, enc, data),
        }
        d.chunks(256)
            .any(|c| c.iter().fold(0, |a, &u| a | u) >= 0x100)
    };
    if wide {
        let start = arena.units.commit(n);
        return (Chars(Class::Bmp, start, n).into(), replaced);
    }
    // Every character below U+0100: 1-byte characters.
    let units = arena.units.spare(n);
    let out = arena.bytes.spare(n);
    for (o, &u) in out.iter_mut().zip(units.iter()) {
        *o = u as u8;
    }
    let start = arena.bytes.commit(n);
    (Chars(Class::Latin1, start, n).into(), replaced)
}

/// Any encoding (no BOM: sniffed already) through UTF-16 in replacement mode, then in the
/// space of its class.
fn utf16(arena: &mut Arena, enc: &'static Encoding, data: &[u8]) -> (RowText, bool) {
    let mut dec = enc.new_decoder(DecoderOptions {
        error_mode: DecoderErrorMode::Replacement,
        bom: BomHandling::Keep,
    });
    let Some(max) = dec.max_utf16_buffer_length(data.len()) else {
        return (RowText::Failed, false);
    };
    let out = arena.units.spare(max);
    let Ok(p) = dec.decode_to_utf16(data, out, true) else {
        return (RowText::Failed, false);
    };
    let text = &out[..p.written];
    let scan = Scan::of(text);
    let class = scan.class();
    let len = scan.chars(p.written);
    let start = match class {
        Class::Bmp => arena.units.commit(len),
        Class::Ascii | Class::Latin1 => {
            write_utf16(text, Units::U8(arena.bytes.spare(len)));
            arena.bytes.commit(len)
        }
        Class::Astral => {
            write_utf16(text, Units::U32(arena.wide.spare(len)));
            arena.wide.commit(len)
        }
    };
    (Chars(class, start, len).into(), p.replaced)
}
