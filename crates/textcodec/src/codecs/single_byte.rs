//! The 28 single-byte encodings ("single-byte decoder", "single-byte encoder"), sharing one
//! decoder and one encoder over "index single-byte".
//!
//! The generated index (pointer to code point) is turned at compile time into the tables the
//! hot loops want: for decoding, per byte value, the UTF-8 bytes and their length packed in a
//! `u32`, or the UTF-16 code unit; for encoding, a two-level table from code point to byte.

use super::driver::{DecodeHandler, Seq, Step};
use super::driver::{EncStep, EncodeHandler};
use super::handles::{utf8_2, utf8_3, Out, Sink};
use crate::simd::{ByteRun, Latin1Set};
use crate::tables::single_byte::DECODE;

const COUNT: usize = 28;

/// Per byte value: its code point pre-encoded in UTF-8 ([`super::utf8_entry`]); 0 where the
/// index has no code point ("error").
const fn utf8_table(index: &[u16; 128]) -> [u32; 256] {
    let mut out = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        let cp = if b < 0x80 {
            b as u32
        } else {
            index[b - 0x80] as u32
        };
        out[b] = if b >= 0x80 && cp == 0 {
            0
        } else {
            super::utf8_entry(cp)
        };
        b += 1;
    }
    out
}

/// Per byte value: its UTF-16 code unit; [`UNMAPPED`] where the index has no code point.
const fn utf16_table(index: &[u16; 128]) -> [u16; 256] {
    let mut out = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        out[b] = if b < 0x80 {
            b as u16
        } else if index[b - 0x80] == 0 {
            UNMAPPED
        } else {
            assert!(index[b - 0x80] != UNMAPPED);
            index[b - 0x80]
        };
        b += 1;
    }
    out
}

/// No single-byte index maps a byte to U+FFFD, so it marks "no code point" in [`UTF16`].
const UNMAPPED: u16 = 0xFFFD;

static UTF8: [[u32; 256]; COUNT] = {
    let mut out = [[0u32; 256]; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = utf8_table(DECODE[i]);
        i += 1;
    }
    out
};

static UTF16: [[u16; 256]; COUNT] = {
    let mut out = [[0u16; 256]; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = utf16_table(DECODE[i]);
        i += 1;
    }
    out
};

/// Per encoding, the two longest runs of bytes 80..FF that decode to the byte plus one
/// offset (Thai in windows-874, Hebrew letters, most of Cyrillic, Latin-1 letters in
/// windows-1252 with offset 0), if they hold half of the encoding's letters or more: the UTF-16
/// loop converts them sixteen bytes at a time with [`crate::simd::widen16_runs`] and looks
/// up only the other bytes. `None` where the letters are scattered (windows-1250, KOI8-R).
static RUNS: [Option<[ByteRun; 2]>; COUNT] = {
    let mut out = [None; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = byte_runs(&UTF16[i]);
        i += 1;
    }
    out
};

const EMPTY_RUN: ByteRun = ByteRun {
    lo: 0,
    span: 0,
    delta: 0,
};

/// Whether `cp`, the code point of a byte of a single-byte encoding, is one of the letters
/// that make up its text (not a C1 control, symbol, punctuation or box drawing).
const fn is_letter(cp: u16) -> bool {
    cp >= 0xC0 && cp < 0x2000
}

/// The two longest runs of letters of `table` (see [`RUNS`]), if they hold at least half of
/// its letters.
const fn byte_runs(table: &[u16; 256]) -> Option<[ByteRun; 2]> {
    let mut best = [EMPTY_RUN; 2];
    let mut best_len = [0usize; 2];
    let mut letters = 0;
    let mut b = 0x80;
    while b < 256 {
        if table[b] == UNMAPPED || !is_letter(table[b]) {
            b += 1;
            continue;
        }
        let delta = table[b].wrapping_sub(b as u16);
        let mut end = b + 1;
        while end < 256
            && table[end] != UNMAPPED
            && is_letter(table[end])
            && table[end].wrapping_sub(end as u16) == delta
        {
            end += 1;
        }
        let len = end - b;
        letters += len;
        let run = ByteRun {
            lo: b as u8,
            span: (len - 1) as u8,
            delta,
        };
        if len > best_len[0] {
            best[1] = best[0];
            best_len[1] = best_len[0];
            best[0] = run;
            best_len[0] = len;
        } else if len > best_len[1] {
            best[1] = run;
            best_len[1] = len;
        }
        b = end;
    }
    if 2 * (best_len[0] + best_len[1]) >= letters {
        Some(best)
    } else {
        None
    }
}

/// Code points below U+10000 in blocks of 64: `ENCODE_PAGES[i][cp >> 6]` is a block number
/// in `ENCODE_BLOCKS[i]` (block 0 is empty), whose entry `cp & 63` is the byte (0: none; no
/// non-ASCII code point encodes to 0x00).
const PAGES: usize = 0x10000 >> 6;
const MAX_BLOCKS: usize = 24;

struct EncodeTable {
    /// Code points below U+0800 (the two-byte UTF-8 range, where most single-byte encodings
    /// have all their characters) directly: the byte, or 0.
    low: [u8; 0x800],
    pages: [u8; PAGES],
    blocks: [[u8; 64]; MAX_BLOCKS],
}

const fn encode_table(index: &[u16; 128]) -> EncodeTable {
    let mut t = EncodeTable {
        low: [0; 0x800],
        pages: [0; PAGES],
        blocks: [[0; 64]; MAX_BLOCKS],
    };
    let mut used = 1;
    // Going backwards keeps the first pointer for a code point ("index pointer").
    let mut p = 128;
    while p > 0 {
        p -= 1;
        let cp = index[p] as usize;
        if cp == 0 {
            continue;
        }
        let page = cp >> 6;
        if t.pages[page] == 0 {
            assert!(used < MAX_BLOCKS);
            t.pages[page] = used as u8;
            used += 1;
        }
        t.blocks[t.pages[page] as usize][cp & 63] = (p + 0x80) as u8;
        if cp < 0x800 {
            t.low[cp] = (p + 0x80) as u8;
        }
    }
    // ASCII encodes as itself (U+0000 too, though its 0 also means "none": callers check).
    let mut a = 0;
    while a < 0x80 {
        t.low[a] = a as u8;
        a += 1;
    }
    t
}

static ENCODE: [EncodeTable; COUNT] = {
    let mut out = [const {
        EncodeTable {
            low: [0; 0x800],
            pages: [0; PAGES],
            blocks: [[0; 64]; MAX_BLOCKS],
        }
    }; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = encode_table(DECODE[i]);
        i += 1;
    }
    out
};

/// The bytes 0x80..=0xFF that encode the code point of the same value (U+0080..U+00FF): the
/// index maps them to it and no earlier pointer has that code point.
const fn latin1_set(index: &[u16; 128]) -> Latin1Set {
    let mut own = [false; 128];
    let mut p = 0;
    while p < 128 {
        if index[p] as usize == p + 0x80 {
            own[p] = true;
            let mut q = 0;
            while q < p {
                if index[q] == index[p] {
                    own[p] = false;
                }
                q += 1;
            }
        }
        p += 1;
    }
    Latin1Set::new(&own)
}

/// Per encoding, the code points that encode as their own value, for the SIMD narrow.
static LATIN1: [Latin1Set; COUNT] = {
    let mut out = [Latin1Set::new(&[false; 128]); COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = latin1_set(DECODE[i]);
        i += 1;
    }
    out
};

/// Per encoding, whether most of its letters are three-byte characters in UTF-8 (U+0800 and
/// up: Thai in windows-874), which the UTF-8 block kernel does not take.
static THREE_BYTE_LETTERS: [bool; COUNT] = {
    let mut out = [false; COUNT];
    let mut i = 0;
    while i < COUNT {
        let (mut two, mut three) = (0, 0);
        let mut p = 0;
        while p < 128 {
            let cp = DECODE[i][p];
            if is_letter(cp) {
                if cp < 0x800 {
                    two += 1;
                } else {
                    three += 1;
                }
            }
            p += 1;
        }
        out[i] = three > two;
        i += 1;
    }
    out
};

/// The single-byte decoder: stateless but for its index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SingleByteDecoder {
    which: u8,
}

impl SingleByteDecoder {
    pub(crate) fn new(which: u8) -> Self {
        SingleByteDecoder { which }
    }
}

const ASCII_MASK: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;

/// Decodes to UTF-8 through the packed table; returns the bytes read.
///
/// The blocks are copied whole and each character of the table written with a four-byte
/// store; what those stores write past the output is put back before returning.
///
/// `SIMD` is [`crate::simd::blocks_simd`], read once by the caller.
#[inline(always)]
fn run_utf8<const SIMD: bool>(
    table: &[u32; 256],
    runs: &Option<[ByteRun; 2]>,
    src: &[u8],
    dst: &mut [u8],
    pos: &mut usize,
) -> usize {
    let mut i = 0;
    let mut o = *pos;
    let mut ring = crate::simd::spill::Ring::<u8>::new();
    let mut spill = crate::simd::Spill::new(o, &mut ring);
    // Whether the blocks stopped at a byte without a code point.
    let mut unmapped = false;
    // Blocks of 16 bytes while the output has room for an ASCII prefix of up to 15 bytes and
    // then the worst case of 16 bytes through the table: 3 bytes each and a 4-byte store for
    // the last, at an offset kept below 64 (84 = 16 + 68).
    'blocks: while i + 16 <= src.len() && o + 84 <= dst.len() {
        let block: &[u8; 16] = src[i..i + 16].try_into().unwrap();
        let mask = crate::simd::non_ascii_mask16::<SIMD>(block);
        if mask == 0 {
            dst[o..o + 16].copy_from_slice(block);
            i += 16;
            o += 16;
            if i + 32 <= src.len() {
                let next: &[u8; 32] = src[i..i + 32].try_into().unwrap();
                let a = u128::from_le_bytes(next[..16].try_into().unwrap());
                let b = u128::from_le_bytes(next[16..].try_into().unwrap());
                if (a | b) & ASCII_MASK == 0 {
                    // A long ASCII run (markup): copy in bulk as long as it lasts.
                    let k = crate::simd::copy_ascii_to_ascii(&src[i..], &mut dst[o..]);
                    i += k;
                    o += k;
                }
            }
            continue;
        }
        // The whole block is copied: its ASCII prefix is what counts, the rest is written
        // over below (or put back).
        spill.cover(dst, o, o + 16);
        dst[o..o + 16].copy_from_slice(block);
        // Skip the ASCII prefix: `src[i]` is now the first byte that is not ASCII.
        let k = mask.trailing_zeros() as usize;
        i += k;
        o += k;
        if (mask >> k) & 2 == 0 || i + 16 > src.len() {
            // A letter among ASCII (Latin text, or a short word): one lookup, then blocks.
            let e = table[src[i] as usize];
            if e == 0 {
                unmapped = true;
                break 'blocks;
            }
            spill.cover(dst, o, o + 4);
            dst[o..o + 4].copy_from_slice(&e.to_le_bytes());
            o += super::utf8_entry_len(e);
            i += 1;
            continue;
        }
        // Two letters in a row (a non-Latin script): sixteen bytes at a time through the
        // table, ASCII spaces and punctuation included, while the text goes on.
        loop {
            if let Some(runs) = runs {
                // Blocks of ASCII and the script's letters (the encoding's runs) in SIMD.
                let (r, w) = crate::simd::runs_to_utf8(&src[i..], &mut dst[o..], runs);
                i += r;
                o += w;
                if i + 16 > src.len() || o + 68 > dst.len() || (src[i] | src[i + 1]) < 0x80 {
                    break;
                }
            }
            let block: &[u8; 16] = src[i..i + 16].try_into().unwrap();
            // At most 3 * 15 + 4 bytes are stored.
            spill.cover(dst, o, o + 49);
            let out: &mut [u8; 68] = (&mut dst[o..o + 68]).try_into().unwrap();
            let mut w = 0;
            for (k, &b) in block.iter().enumerate() {
                let e = table[b as usize];
                if e == 0 {
                    i += k;
                    o += w;
                    unmapped = true;
                    break 'blocks;
                }
                out[w..w + 4].copy_from_slice(&e.to_le_bytes());
                // At most 3 * 16 = 48: the mask changes nothing but bounds the offset.
                w = (w + super::utf8_entry_len(e)) & 63;
            }
            i += 16;
            o += w;
            if i + 16 > src.len() || o + 68 > dst.len() || (src[i] | src[i + 1]) < 0x80 {
                break;
            }
        }
    }
    spill.restore(dst, o);
    if unmapped {
        *pos = o;
        return i;
    }
    // The ASCII prefix of the last fewer than sixteen bytes at once.
    let k = super::ascii_tail_to_utf8(src, i, &mut dst[o..]);
    i += k;
    o += k;
    while i < src.len() {
        let e = table[src[i] as usize];
        let len = super::utf8_entry_len(e);
        if e == 0 || o + len > dst.len() {
            break;
        }
        super::put_utf8(dst, o, e);
        o += len;
        i += 1;
    }
    *pos = o;
    i
}

/// Decodes to UTF-16 through the table; returns the bytes read. `SIMD` is
/// [`crate::simd::blocks_simd`], read once by the caller.
#[inline(always)]
fn run_utf16<const SIMD: bool>(
    table: &[u16; 256],
    runs: &Option<[ByteRun; 2]>,
    src: &[u8],
    dst: &mut [u16],
    pos: &mut usize,
) -> usize {
    let n = src.len().min(dst.len() - *pos);
    let (src, dst) = (&src[..n], &mut dst[*pos..*pos + n]);
    let mut i = 0;
    while i + 16 <= n {
        match block_utf16::<SIMD>(table, runs, src, dst, i) {
            Ok(next) => i = next,
            Err(at) => {
                *pos += at;
                return at;
            }
        }
    }
    if i < n && n >= 16 {
        // The last fewer than sixteen bytes: as the block of the last sixteen (one byte is
        // one unit at the same index, so the bytes before `i` are written again with the
        // same units; none of them is unmapped).
        i = match block_utf16::<SIMD>(table, runs, src, dst, n - 16) {
            Ok(_) => n,
            Err(at) => at,
        };
    }
    while i < n {
        let u = table[src[i] as usize];
        if u == UNMAPPED {
            break;
        }
        dst[i] = u;
        i += 1;
    }
    *pos += i;
    i
}

/// One block of sixteen bytes at `i` (`i + 16 <= src.len() == dst.len()`) of
/// [`run_utf16`]: `Ok` with where the next block starts (after it, or after a run of ASCII
/// that follows it), or `Err` with the index of an unmapped byte (the bytes before it are
/// written, and nothing from it on).
#[inline(always)]
fn block_utf16<const SIMD: bool>(
    table: &[u16; 256],
    runs: &Option<[ByteRun; 2]>,
    src: &[u8],
    dst: &mut [u16],
    mut i: usize,
) -> Result<usize, usize> {
    let n = src.len();
    let block: &[u8; 16] = src[i..i + 16].try_into().unwrap();
    let out: &mut [u16; 16] = (&mut dst[i..i + 16]).try_into().unwrap();
    // What the block is written over, put back from an unmapped byte on.
    let saved = *out;
    // Widen all sixteen (the bytes in the encoding's runs with their offsets), then look up
    // the others that are not ASCII.
    let mut mask = match runs {
        Some(runs) => crate::simd::widen16_runs::<SIMD>(block, out, runs),
        None => crate::simd::widen16::<SIMD>(block, out),
    };
    if mask == 0 {
        i += 16;
        if i + 32 <= n {
            let next: &[u8; 32] = src[i..i + 32].try_into().unwrap();
            let a = u128::from_le_bytes(next[..16].try_into().unwrap());
            let b = u128::from_le_bytes(next[16..].try_into().unwrap());
            if (a | b) & ASCII_MASK == 0 {
                // A long ASCII run (markup): widen in bulk as long as it lasts.
                i += crate::simd::copy_ascii_to_utf16(&src[i..], &mut dst[i..]);
            }
        }
        return Ok(i);
    }
    let rest = mask & mask.wrapping_sub(1);
    let dense = match runs {
        // Two letters in a row: a non-Latin script.
        None => mask & (mask >> 1) != 0,
        // Three letters or more outside the runs.
        Some(_) => rest & rest.wrapping_sub(1) != 0,
    };
    if dense {
        // Every byte through the table.
        let mut bad = false;
        for k in 0..16 {
            let u = table[block[k] as usize];
            bad |= u == UNMAPPED;
            out[k] = u;
        }
        if !bad {
            return Ok(i + 16);
        }
        // Fall through: find the unmapped byte below.
    }
    while mask != 0 {
        let k = mask.trailing_zeros() as usize;
        let u = table[block[k] as usize];
        if u == UNMAPPED {
            out[k..].copy_from_slice(&saved[k..]);
            return Err(i + k);
        }
        out[k] = u;
        mask &= mask - 1;
    }
    Ok(i + 16)
}

impl DecodeHandler for SingleByteDecoder {
    // "single-byte decoder" handler.
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // 1. end-of-queue is `end`. 2. An ASCII byte is its code point.
        if byte < 0x80 {
            return Step::Emit(byte as u32);
        }
        // 3.-5. The index code point for byte - 0x80, or error.
        match DECODE[self.which as usize][byte as usize - 0x80] {
            0 => Step::ERROR,
            cp => Step::Emit(cp as u32),
        }
    }

    fn end(&mut self) -> Step {
        Step::Finished
    }

    fn held(&self) -> usize {
        0
    }

    #[inline(always)]
    fn sequence(&mut self, src: &[u8]) -> Seq {
        // The handler: every sequence is one byte.
        match self.handle(src[0]) {
            Step::Emit(cp) => Seq::Emit(cp, 1),
            _ => Seq::Error(1),
        }
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        let which = self.which as usize;
        // The level once per call, not at every block.
        let simd = crate::simd::blocks_simd();
        match sink.out() {
            Out::Utf8(dst, pos) if simd => {
                run_utf8::<true>(&UTF8[which], &RUNS[which], src, dst, pos)
            }
            Out::Utf8(dst, pos) => run_utf8::<false>(&UTF8[which], &RUNS[which], src, dst, pos),
            Out::Utf16(dst, pos) if simd => {
                run_utf16::<true>(&UTF16[which], &RUNS[which], src, dst, pos)
            }
            Out::Utf16(dst, pos) => run_utf16::<false>(&UTF16[which], &RUNS[which], src, dst, pos),
        }
    }
}

/// The single-byte encoder: stateless but for its index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SingleByteEncoder {
    which: u8,
}

impl SingleByteEncoder {
    pub(crate) fn new(which: u8) -> Self {
        SingleByteEncoder { which }
    }
}

/// "index pointer" + 0x80 for a non-ASCII code point, or `None`.
#[inline(always)]
fn byte_for(t: &EncodeTable, cp: u32) -> Option<u8> {
    if cp >= 0x10000 {
        return None;
    }
    let block = t.pages[(cp >> 6) as usize] as usize;
    match t.blocks[block][(cp & 63) as usize] {
        0 => None,
        b => Some(b),
    }
}

/// The byte for the character starting at `src[r]`, not ASCII (UTF-8, so it is there whole),
/// and its length; `None` where the handler reports an error.
#[inline(always)]
fn encode_one(t: &EncodeTable, src: &[u8], r: usize) -> Option<(u8, usize)> {
    let b = src[r];
    if b < 0xE0 {
        // A two-byte character: the direct table.
        let cp = utf8_2(b, src[r + 1]) as usize;
        return match t.low[cp] {
            0 => None,
            out => Some((out, 2)),
        };
    }
    if b < 0xF0 {
        let cp = utf8_3(b, src[r + 1], src[r + 2]);
        return byte_for(t, cp).map(|out| (out, 3));
    }
    // Four-byte characters are never in a single-byte index.
    None
}

/// Character by character, with runs of ASCII in bulk: for windows-874, whose letters (Thai)
/// are three-byte characters, which the block kernel leaves to this loop one by one.
#[inline(always)]
fn encode_utf8_chars(t: &EncodeTable, src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let n = src.len().min(dst.len());
    let mut r = 0;
    let mut w = 0;
    while r < src.len() && w < n {
        let b = src[r];
        if b < 0x80 {
            // Single spaces and punctuation between words inline; long runs in bulk.
            if r + 1 < src.len() && src[r + 1] >= 0x80 {
                dst[w] = b;
                r += 1;
                w += 1;
                continue;
            }
            let k = crate::simd::copy_ascii_to_ascii(&src[r..], &mut dst[w..]);
            r += k;
            w += k;
            continue;
        }
        if b < 0xE0 {
            // A two-byte character: the direct table.
            let pair: &[u8; 2] = src[r..r + 2].try_into().unwrap();
            let cp = utf8_2(pair[0], pair[1]) as usize;
            match t.low[cp] {
                0 => break,
                out => {
                    dst[w] = out;
                    w += 1;
                    r += 2;
                    continue;
                }
            }
        }
        // A three-byte character (four-byte ones are never in a single-byte index), its
        // bytes taken as one array: one bounds check for the three, not one for each.
        if b >= 0xF0 {
            break;
        }
        let three: &[u8; 3] = src[r..r + 3].try_into().unwrap();
        match byte_for(t, utf8_3(three[0], three[1], three[2])) {
            Some(out) => {
                dst[w] = out;
                w += 1;
                r += 3;
            }
            None => break,
        }
    }
    (r, w)
}

/// Encodes the longest prefix of `src` (UTF-8) that the handler encodes without an error and
/// that fits in `dst`; returns (bytes read, bytes written). Blocks of 32 bytes while the input
/// and the output have 64 more: an ASCII block is copied; in a block with a few other
/// characters (Latin text) the block is copied from each character on and each character is
/// written over the copy through the table; a block with many goes character by character.
/// On x86-64 the SIMD kernel [`crate::simd::encode_utf8_low`] does the same for ASCII and
/// two-byte characters; the characters it stops at go through the table one by one here.
#[inline(always)]
fn encode_utf8(
    t: &EncodeTable,
    src: &[u8],
    dst: &mut [u8],
    kernel: impl Fn(&[u8], &mut [u8], &[u8; 0x800]) -> Option<(usize, usize)>,
) -> (usize, usize) {
    if src.len() < 64 || dst.len() < 64 {
        // Short input (a form field, or the rest after a character reference): no blocks.
        return encode_utf8_chars(t, src, dst);
    }
    let mut r = 0;
    let mut w = 0;
    while let Some((k, j)) = kernel(&src[r..], &mut dst[w..], &t.low) {
        r += k;
        w += j;
        if r + 64 > src.len() || w + 64 > dst.len() {
            break;
        }
        // A character of three bytes (or an unmapped one, or four bytes: the handler's).
        let Some((out, len)) = encode_one(t, src, r) else {
            return (r, w);
        };
        dst[w] = out;
        r += len;
        w += 1;
    }
    // A block with characters that are not ASCII is copied whole, and each of them written
    // over the copy (each copy starts at the output's end and reaches 32 bytes past it; a
    // block writes at most 32 bytes): what the copies write past the output is put back
    // before returning.
    let mut window = crate::simd::Window::new();
    while r + 64 <= src.len() && w + 64 <= dst.len() {
        let block: &[u8; 32] = src[r..r + 32].try_into().unwrap();
        let (high, leads) = crate::simd::utf8_masks32(block);
        if high == 0 {
            dst[w..w + 32].copy_from_slice(block);
            window.exact();
            r += 32;
            w += 32;
            let next: &[u8; 32] = src[r..r + 32].try_into().unwrap();
            let a = u128::from_le_bytes(next[..16].try_into().unwrap());
            let b = u128::from_le_bytes(next[16..].try_into().unwrap());
            if (a | b) & ASCII_MASK == 0 {
                // A long ASCII run (markup): copy in bulk as long as it lasts.
                let k = crate::simd::copy_ascii_to_ascii(&src[r..], &mut dst[w..]);
                r += k;
                w += k;
            }
            continue;
        }
        // The copies below reach at most 64 bytes past `w`.
        window.before(dst, w);
        let base = w;
        dst[w..w + 32].copy_from_slice(block);
        if leads & (leads >> 2) & (leads >> 4) != 0 {
            // Three two-byte characters in a row (or closer): a non-Latin script.
            let end = r + 32;
            while r < end {
                let b = src[r];
                if b < 0x80 {
                    dst[w] = b;
                    r += 1;
                    w += 1;
                    continue;
                }
                let Some((out, len)) = encode_one(t, src, r) else {
                    window.restore_block(dst, base, w);
                    return (r, w);
                };
                dst[w] = out;
                r += len;
                w += 1;
            }
            window.after(base, w);
            continue;
        }
        // `r` is at a character boundary, so the first byte that is not ASCII leads: `leads`
        // is not empty. Between two leads (and up to the end) all is ASCII, copied in bulk
        // from `i` to `o` before each; `o <= i < 32` while there is a lead to come.
        let win: &[u8; 64] = src[r..r + 64].try_into().unwrap();
        let out: &mut [u8; 64] = (&mut dst[w..w + 64]).try_into().unwrap();
        let mut i = 0;
        let mut o = 0;
        let mut m = leads;
        loop {
            let p = m.trailing_zeros() as usize;
            o += p - i;
            i = p;
            let lead = win[i & 31];
            if lead < 0xE0 {
                // A two-byte character: the direct table.
                let cp = utf8_2(lead, win[(i + 1) & 63]) as usize;
                match t.low[cp] {
                    0 => {
                        window.restore_block(dst, w, w + o);
                        return (r + i, w + o);
                    }
                    b => out[o & 31] = b,
                }
                i += 2;
            } else {
                let Some((b, len)) = encode_one(t, src, r + i) else {
                    window.restore_block(dst, w, w + o);
                    return (r + i, w + o);
                };
                out[o & 31] = b;
                i += len;
            }
            o += 1;
            m &= m - 1;
            if m == 0 {
                break;
            }
            out[o & 31..(o & 31) + 32].copy_from_slice(&win[i & 31..(i & 31) + 32]);
        }
        if i < 32 {
            // ASCII up to the end of the block (a character may end past it).
            out[o & 31..(o & 31) + 32].copy_from_slice(&win[i & 31..(i & 31) + 32]);
            o += 32 - i;
            i = 32;
        }
        window.after(w, w + o);
        r += i;
        w += o;
    }
    window.restore(dst, w);
    // The last bytes (fewer than 64, or too little room for a block).
    let (k, j) = encode_utf8_chars(t, &src[r..], &mut dst[w..]);
    (r + k, w + j)
}

impl EncodeHandler for SingleByteEncoder {
    // "single-byte encoder" handler.
    #[inline]
    fn handle(&mut self, cp: u32) -> EncStep {
        // 2. An ASCII code point is its byte.
        if cp < 0x80 {
            return EncStep::one(cp as u8);
        }
        // 3.-5. The index pointer + 0x80, or error with the code point.
        match byte_for(&ENCODE[self.which as usize], cp) {
            Some(b) => EncStep::one(b),
            None => EncStep::Error(cp),
        }
    }

    #[inline(always)]
    fn run_utf8(&mut self, src: &str, dst: &mut [u8]) -> (usize, usize) {
        let t = &ENCODE[self.which as usize];
        if THREE_BYTE_LETTERS[self.which as usize] {
            return encode_utf8_chars(t, src.as_bytes(), dst);
        }
        encode_utf8(t, src.as_bytes(), dst, crate::simd::encode_utf8_low)
    }

    #[inline(always)]
    fn run_utf16(&mut self, src: &[u16], dst: &mut [u8]) -> (usize, usize) {
        let t = &ENCODE[self.which as usize];
        let n = src.len().min(dst.len());
        let (src, dst) = (&src[..n], &mut dst[..n]);
        // One code unit, or `None` where the handler reports an error.
        let one = |u: u16| -> Option<u8> {
            if u < 0x800 {
                match t.low[u as usize] {
                    0 if u != 0 => None,
                    b => Some(b),
                }
            } else {
                // Surrogates are never in the table, so they stop here too.
                byte_for(t, u as u32)
            }
        };
        let set = &LATIN1[self.which as usize];
        let mut i = 0;
        while i + 8 <= n {
            let chunk: &[u16; 8] = src[i..i + 8].try_into().unwrap();
            // The eight units or-ed together, once: it picks the bulk path below.
            let all = chunk.iter().fold(0, |a, &u| a | u);
            if all < 0x100 {
                // ASCII and the letters that encode as their own value (most of Latin-1 in
                // Latin encodings): narrow in bulk as long as they last (the kernel stops at
                // the next other unit; if that is the first, the table takes these eight).
                let k = crate::simd::narrow_latin1(&src[i..], &mut dst[i..], set);
                if k != 0 {
                    i += k;
                    continue;
                }
            }
            if all < 0x800 {
                let out: &mut [u8; 8] = (&mut dst[i..i + 8]).try_into().unwrap();
                // What the eight are written over, put back if they are not all encoded.
                let saved = *out;
                // All eight through the direct table, checked once: no byte 0 (unmapped, or
                // U+0000, which the unit-by-unit path sorts out). A unit from U+0800 on (a
                // script of its own, Thai or Vietnamese letters) skips this attempt.
                let mut min = u8::MAX;
                for k in 0..8 {
                    let b = t.low[(chunk[k] & 0x7FF) as usize];
                    min = min.min(b);
                    out[k] = b;
                }
                if min != 0 {
                    i += 8;
                    continue;
                }
                *out = saved;
            }
            for &u in chunk {
                match one(u) {
                    Some(b) => dst[i] = b,
                    None => return (i, i),
                }
                i += 1;
            }
        }
        while i < n {
            match one(src[i]) {
                Some(b) => dst[i] = b,
                None => break,
            }
            i += 1;
        }
        (i, i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The handler character by character: the longest prefix without an error that fits.
    fn encode_reference(which: usize, src: &str, dst: &mut [u8]) -> (usize, usize) {
        let mut h = SingleByteEncoder::new(which as u8);
        let (mut r, mut w) = (0, 0);
        for c in src.chars() {
            if w == dst.len() {
                break;
            }
            match h.handle(c as u32) {
                EncStep::Error(_) => break,
                EncStep::Bytes { buf, len: 1 } => dst[w] = buf[0],
                _ => unreachable!("one byte or an error"),
            }
            r += c.len_utf8();
            w += 1;
        }
        (r, w)
    }

    /// The UTF-8 fast path with each kernel (and none, the portable blocks) against the
    /// handler: random Latin text with letters of Latin-1 and beyond, Cyrillic and Greek
    /// runs, three-byte punctuation (mapped or not), unmapped letters and emoji, at every
    /// start in a block and every output length near the end.
    #[test]
    fn utf8_fast_path_agrees_with_the_handler() {
        let mut x: u32 = 0x9E37_79B9;
        let mut rng = move || crate::xorshift32(&mut x);
        let pieces = [
            "ก", "ฯ", "é", "ç", "ã", "ü", "ß", "Ø", "\u{A0}", "\u{80}", "\u{81}", "\u{9D}", "ÿ",
            "č", "ř", "ğ", "ı", "ş", "Œ", "ж", "щ", "α", "ω", "„", "“", "—", "€", "’", "→", "火",
            "😀", "\u{7FF}", "\u{100}", "\0",
        ];
        type Kernel = fn(&[u8], &mut [u8], &[u8; 0x800]) -> Option<(usize, usize)>;
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut kernels: std::vec::Vec<(&str, Kernel)> = std::vec![
            ("portable", |_, _, _| None),
            ("dispatch", crate::simd::encode_utf8_low),
        ];
        #[cfg(target_arch = "x86_64")]
        {
            use crate::simd::x86 as x86k;
            kernels.push(("sse2", |s, d, l| Some(x86k::encode_utf8_low_sse2(s, d, l))));
            // Without AVX2 it takes SSE2.
            kernels.push(("avx2", |s, d, l| Some(x86k::encode_utf8_low_avx2(s, d, l))));
        }
        let names = [
            "windows-1252",
            "windows-1250",
            "windows-1251",
            "ISO-8859-7",
            "KOI8-U",
        ];
        for round in 0..600usize {
            let which = {
                let enc = crate::Encoding::for_label(names[round % names.len()].as_bytes());
                let crate::codecs::Kind::SingleByte(n) = enc.unwrap().kind else {
                    unreachable!()
                };
                n as usize
            };
            // From one letter in forty bytes to mostly letters.
            let density = [40, 12, 4, 2][(round / 5) % 4];
            let len = 40 + rng() as usize % 160;
            let mut text = std::string::String::new();
            while text.len() < len {
                let r = rng();
                if r % density == 0 {
                    let k = (r >> 8) as usize % 64;
                    // Mostly the first (Latin and Cyrillic) pieces.
                    text.push_str(pieces[if k < 32 { k % 22 } else { k - 32 }]);
                } else {
                    text.push((b' ' + (r >> 8) as u8 % 95) as char);
                }
            }
            for start in 0..text.len().min(40) {
                if !text.is_char_boundary(start) {
                    continue;
                }
                let src = &text[start..];
                let rooms: std::vec::Vec<usize> = if round % 4 == 0 {
                    (0..=src.len() + 1).collect()
                } else {
                    let n = src.len();
                    [
                        0,
                        1,
                        31,
                        32,
                        33,
                        63,
                        64,
                        65,
                        n / 2,
                        n.saturating_sub(1),
                        n,
                        n + 64,
                    ]
                    .to_vec()
                };
                for room in rooms {
                    let mut want = std::vec![0u8; room];
                    let exact = encode_reference(which, src, &mut want);
                    // The bytes past the output must stay as they were: a pattern that
                    // differs from byte to byte, so that one put back at the wrong place
                    // shows.
                    let fill: std::vec::Vec<u8> =
                        (0..room).map(|k| (k * 37 + 0x85) as u8).collect();
                    let mut got = fill.clone();
                    let (r, w) = SingleByteEncoder::new(which as u8).run_utf8(src, &mut got);
                    assert_eq!((r, w), exact, "run_utf8 {which} {room} {src:?}");
                    assert_eq!(got[..w], want[..w], "run_utf8 {which} {room} {src:?}");
                    assert_eq!(got[w..], fill[w..], "run_utf8 {which} {room} {src:?}");
                    for &(name, kernel) in &kernels {
                        let mut got = fill.clone();
                        let (r, w) = encode_utf8(&ENCODE[which], src.as_bytes(), &mut got, kernel);
                        assert_eq!((r, w), exact, "{name} {which} {room} {src:?}");
                        assert_eq!(got[..w], want[..w], "{name} {which} {room} {src:?}");
                        assert_eq!(got[w..], fill[w..], "{name} past {which} {room} {src:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn byte_runs_decode_as_the_index_says() {
        for (which, runs) in RUNS.iter().enumerate() {
            let Some(runs) = runs else { continue };
            for r in runs {
                for b in r.lo..=r.lo + r.span {
                    assert!(b >= 0x80);
                    assert_eq!(UTF16[which][b as usize], (b as u16).wrapping_add(r.delta));
                }
            }
            assert!(
                runs[0].lo > runs[1].lo + runs[1].span || runs[1].lo > runs[0].lo + runs[0].span
            );
        }
        // The scripts the runs are for have them: windows-874 (Thai), windows-1251, IBM866
        // (Cyrillic), windows-1255 (Hebrew), ISO-8859-6 (Arabic), windows-1252 (Latin-1).
        for name in [
            "windows-874",
            "windows-1251",
            "IBM866",
            "windows-1255",
            "ISO-8859-6",
            "windows-1252",
        ] {
            let enc = crate::Encoding::for_label(name.as_bytes()).unwrap();
            let crate::codecs::Kind::SingleByte(n) = enc.kind else {
                unreachable!("{name} is a single-byte encoding")
            };
            assert!(RUNS[n as usize].is_some(), "{name}");
        }
    }
}
