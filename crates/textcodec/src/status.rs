//! What every streaming call returns: [`Status`] and [`Progress`], shared by the public
//! decoder and encoder and by the codec-facing driver.

/// Why a streaming call returned.
///
/// ```
/// use textcodec::{Status, UTF_8};
/// let mut d = UTF_8.new_decoder(Default::default());
/// let mut out = [0u8; 2];
/// let src = "añ".as_bytes();
/// let p = d.decode_to_utf8(src, &mut out[..1], true).unwrap();
/// assert_eq!((p.status, p.written), (Status::OutputFull, 1));
/// let p = d.decode_to_utf8(&src[p.read..], &mut out, true).unwrap(); // the rest
/// assert_eq!((p.status, &out[..p.written]), (Status::InputEmpty, "ñ".as_bytes()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// All of `src` was read (a partial sequence at its end is held inside the decoder or
    /// encoder).
    InputEmpty,
    /// `dst` cannot take the next output; call again with `src[read..]` and more room.
    OutputFull,
}

/// The result of a successful streaming call.
///
/// ```
/// let mut d = textcodec::EUC_KR.new_decoder(Default::default());
/// let mut out = [0u8; 16];
/// let p = d.decode_to_utf8(b"\xB0\xA1!", &mut out, true).unwrap();
/// assert_eq!((p.read, p.written, p.replaced), (3, 4, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Why the call returned.
    pub status: Status,
    /// Units of `src` consumed.
    pub read: usize,
    /// Units of `dst` written.
    pub written: usize,
    /// Whether a U+FFFD (decoding) or a numeric character reference (encoding) was written.
    pub replaced: bool,
}
