//! One module per encoding family, each a small state machine transcribed from the spec, and
//! the enum dispatch over them (no trait objects on the hot path: each arm calls the shared
//! driver monomorphised for that codec).

pub(crate) mod big5;
pub(crate) mod driver;
pub(crate) mod euc_jp;
pub(crate) mod euc_kr;
pub(crate) mod gb18030;
pub(crate) mod handles;
pub(crate) mod iso_2022_jp;
pub(crate) mod multibyte;
pub(crate) mod replacement;
pub(crate) mod shift_jis;
pub(crate) mod single_byte;
pub(crate) mod utf16;
pub(crate) mod utf8;
pub(crate) mod x_user_defined;

use driver::{drive, resume, DecodeHandler, Driven, Replay};
use driver::{drive_encoder, EncDriven, EncoderInput};
use handles::Sink;

/// Which decoder and encoder an encoding uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Utf8,
    /// A single-byte encoding: its position among the 28 in the spec's order.
    SingleByte(u8),
    Gbk,
    Gb18030,
    Big5,
    EucJp,
    Iso2022Jp,
    ShiftJis,
    EucKr,
    Replacement,
    Utf16Be,
    Utf16Le,
    XUserDefined,
}

/// The decoder state of each encoding family.
#[derive(Clone, Copy, Debug)]
pub(crate) enum DecoderVariant {
    Utf8(utf8::Utf8Decoder),
    Utf16(utf16::Utf16Decoder),
    SingleByte(single_byte::SingleByteDecoder),
    XUserDefined(x_user_defined::XUserDefinedDecoder),
    Replacement(replacement::ReplacementDecoder),
    Gb18030(gb18030::Gb18030Decoder),
    Big5(big5::Big5Decoder),
    EucJp(euc_jp::EucJpDecoder),
    Iso2022Jp(iso_2022_jp::Iso2022JpDecoder),
    ShiftJis(shift_jis::ShiftJisDecoder),
    EucKr(euc_kr::EucKrDecoder),
}

macro_rules! each_decoder {
    ($self:expr, $h:ident => $body:expr) => {
        match $self {
            DecoderVariant::Utf8($h) => $body,
            DecoderVariant::Utf16($h) => $body,
            DecoderVariant::SingleByte($h) => $body,
            DecoderVariant::XUserDefined($h) => $body,
            DecoderVariant::Replacement($h) => $body,
            DecoderVariant::Gb18030($h) => $body,
            DecoderVariant::Big5($h) => $body,
            DecoderVariant::EucJp($h) => $body,
            DecoderVariant::Iso2022Jp($h) => $body,
            DecoderVariant::ShiftJis($h) => $body,
            DecoderVariant::EucKr($h) => $body,
        }
    };
}

impl DecoderVariant {
    pub(crate) fn new(kind: Kind) -> DecoderVariant {
        match kind {
            Kind::Utf8 => DecoderVariant::Utf8(Default::default()),
            Kind::Utf16Be => DecoderVariant::Utf16(utf16::Utf16Decoder::new(true)),
            Kind::Utf16Le => DecoderVariant::Utf16(utf16::Utf16Decoder::new(false)),
            Kind::SingleByte(i) => {
                DecoderVariant::SingleByte(single_byte::SingleByteDecoder::new(i))
            }
            Kind::XUserDefined => DecoderVariant::XUserDefined(Default::default()),
            Kind::Replacement => DecoderVariant::Replacement(Default::default()),
            // "GBK's decoder is gb18030's decoder."
            Kind::Gbk | Kind::Gb18030 => DecoderVariant::Gb18030(Default::default()),
            Kind::Big5 => DecoderVariant::Big5(Default::default()),
            Kind::EucJp => DecoderVariant::EucJp(Default::default()),
            Kind::Iso2022Jp => DecoderVariant::Iso2022Jp(Default::default()),
            Kind::ShiftJis => DecoderVariant::ShiftJis(Default::default()),
            Kind::EucKr => DecoderVariant::EucKr(Default::default()),
        }
    }

    pub(crate) fn held(&self) -> usize {
        each_decoder!(self, h => h.held())
    }

    #[inline(always)]
    pub(crate) fn drive<S: Sink>(
        &mut self,
        replay: &mut Replay,
        src: &[u8],
        sink: &mut S,
        last: bool,
        fatal: bool,
    ) -> Driven {
        if replay.after_error() {
            // The last call stopped at an error (fatal mode): this one most likely resumes
            // after it, in error-dense input.
            return each_decoder!(self, h => resume(h, replay, src, sink, last, fatal));
        }
        each_decoder!(self, h => drive(h, replay, src, sink, last, fatal))
    }
}

/// The encoder state of each encoding family (output encodings only: UTF-16BE/LE and
/// replacement encode as UTF-8).
#[derive(Clone, Copy, Debug)]
pub(crate) enum EncoderVariant {
    Utf8(utf8::Utf8Encoder),
    SingleByte(single_byte::SingleByteEncoder),
    XUserDefined(x_user_defined::XUserDefinedEncoder),
    Gb18030(gb18030::Gb18030Encoder),
    Big5(big5::Big5Encoder),
    EucJp(euc_jp::EucJpEncoder),
    Iso2022Jp(iso_2022_jp::Iso2022JpEncoder),
    ShiftJis(shift_jis::ShiftJisEncoder),
    EucKr(euc_kr::EucKrEncoder),
}

impl EncoderVariant {
    pub(crate) fn new(kind: Kind) -> EncoderVariant {
        match kind {
            Kind::Utf8 | Kind::Utf16Be | Kind::Utf16Le | Kind::Replacement => {
                EncoderVariant::Utf8(Default::default())
            }
            Kind::SingleByte(i) => {
                EncoderVariant::SingleByte(single_byte::SingleByteEncoder::new(i))
            }
            Kind::XUserDefined => EncoderVariant::XUserDefined(Default::default()),
            Kind::Gbk => EncoderVariant::Gb18030(gb18030::Gb18030Encoder::new(true)),
            Kind::Gb18030 => EncoderVariant::Gb18030(gb18030::Gb18030Encoder::new(false)),
            Kind::Big5 => EncoderVariant::Big5(Default::default()),
            Kind::EucJp => EncoderVariant::EucJp(Default::default()),
            Kind::Iso2022Jp => EncoderVariant::Iso2022Jp(Default::default()),
            Kind::ShiftJis => EncoderVariant::ShiftJis(Default::default()),
            Kind::EucKr => EncoderVariant::EucKr(Default::default()),
        }
    }

    /// Back to the state of a new encoder. Only the ISO-2022-JP encoder has state ("ISO-2022-JP
    /// encoder state"); the others are stateless or hold only which encoding they are.
    #[inline]
    pub(crate) fn new_stream(&mut self) {
        if let EncoderVariant::Iso2022Jp(h) = self {
            *h = Default::default();
        }
    }

    #[inline]
    pub(crate) fn drive<Src: EncoderInput>(
        &mut self,
        src: Src,
        first: Option<u32>,
        dst: &mut [u8],
        last: bool,
        html: bool,
    ) -> EncDriven {
        match self {
            EncoderVariant::Utf8(h) => drive_encoder(h, src, first, dst, last, html),
            EncoderVariant::SingleByte(h) => drive_encoder(h, src, first, dst, last, html),
            EncoderVariant::XUserDefined(h) => drive_encoder(h, src, first, dst, last, html),
            EncoderVariant::Gb18030(h) => drive_encoder(h, src, first, dst, last, html),
            EncoderVariant::Big5(h) => drive_encoder(h, src, first, dst, last, html),
            EncoderVariant::EucJp(h) => drive_encoder(h, src, first, dst, last, html),
            EncoderVariant::Iso2022Jp(h) => drive_encoder(h, src, first, dst, last, html),
            EncoderVariant::ShiftJis(h) => drive_encoder(h, src, first, dst, last, html),
            EncoderVariant::EucKr(h) => drive_encoder(h, src, first, dst, last, html),
        }
    }
}

/// The high bit of each of sixteen bytes.
const HIGH_BITS: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;

/// The last `src.len() - i` bytes of `src`, fewer than sixteen, moved to the front of a
/// block of sixteen (zeros after them), with the length of their ASCII prefix; `None` if
/// `src` is shorter than sixteen bytes or `src[i..]` is not that short.
#[inline(always)]
fn tail16(src: &[u8], i: usize) -> Option<([u8; 16], usize)> {
    let r = src.len().checked_sub(i)?;
    let last = src.last_chunk::<16>()?;
    if r == 0 || r >= 16 {
        return None;
    }
    let tail = u128::from_le_bytes(*last) >> (8 * (16 - r));
    let ascii = ((tail & HIGH_BITS).trailing_zeros() as usize / 8).min(r);
    Some((tail.to_le_bytes(), ascii))
}

/// Copies the ASCII prefix of `src[i..]`, the last fewer than sixteen bytes of a `src` of
/// at least sixteen, to the start of `dst` if it has room for sixteen bytes (nothing after
/// the prefix is written); returns the prefix's length (0 when there is nothing to do). For
/// the end of short inputs, instead of a step per byte.
#[inline(always)]
pub(crate) fn ascii_tail_to_utf8(src: &[u8], i: usize, dst: &mut [u8]) -> usize {
    match (tail16(src, i), dst.first_chunk_mut::<16>()) {
        (Some((block, ascii)), Some(out)) => {
            copy_prefix16(&block, out, ascii);
            ascii
        }
        _ => 0,
    }
}

/// A code point of the BMP pre-encoded in UTF-8 for the decoders' tables (single-byte and
/// pair tables): its one to three UTF-8 bytes in the low three bytes (little-endian), their
/// length in the top two bits. A table's 0 means "not here" (the general path decides).
pub(crate) const fn utf8_entry(cp: u32) -> u32 {
    if cp < 0x80 {
        cp | 1 << 30
    } else if cp < 0x800 {
        (0xC0 | cp >> 6) | (0x80 | (cp & 0x3F)) << 8 | 2 << 30
    } else {
        (0xE0 | cp >> 12) | (0x80 | ((cp >> 6) & 0x3F)) << 8 | (0x80 | (cp & 0x3F)) << 16 | 3 << 30
    }
}

/// The length of the UTF-8 bytes of a table entry ([`utf8_entry`]).
#[inline(always)]
pub(crate) const fn utf8_entry_len(e: u32) -> usize {
    (e >> 30) as usize
}

/// Writes the UTF-8 bytes of a table entry `e` ([`utf8_entry`]: one to three bytes) at
/// `dst[o..]`, which has room for them, and nothing else; returns the length.
#[inline(always)]
pub(crate) fn put_utf8(dst: &mut [u8], o: usize, e: u32) -> usize {
    let len = utf8_entry_len(e);
    let b = e.to_le_bytes();
    // Three stores at o, o + 1 and o + 2, each moved back onto the last byte when the
    // character is shorter: no branch on the length.
    let (one, last) = ((len > 1) as usize, len.max(1) - 1);
    dst[o] = b[0];
    dst[o + one] = b[one];
    dst[o + last] = b[last & 3];
    len
}

/// [`put_utf8`] for an entry of two or three bytes (a pair table's), with one step less.
#[inline(always)]
pub(crate) fn put_pair_utf8(dst: &mut [u8], o: usize, e: u32) -> usize {
    let len = utf8_entry_len(e);
    let b = e.to_le_bytes();
    // The third store is moved back onto the second for two bytes: no branch on the length.
    dst[o] = b[0];
    dst[o + 1] = b[1];
    dst[o + len - 1] = b[(len - 1) & 3];
    len
}

/// Copies the first `n` (at most 16) bytes of `src` to `dst`, and nothing else, with two
/// fixed-size moves that overlap (no call to `memcpy`, whose size dispatch costs more).
#[inline(always)]
pub(crate) fn copy_prefix16(src: &[u8; 16], dst: &mut [u8; 16], n: usize) {
    if n >= 8 {
        let n = n.min(16);
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..n].copy_from_slice(&src[n - 8..n]);
    } else if n >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[n - 4..n].copy_from_slice(&src[n - 4..n]);
    } else {
        for (d, &b) in dst.iter_mut().zip(&src[..n]) {
            *d = b;
        }
    }
}
