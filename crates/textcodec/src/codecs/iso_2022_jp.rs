//! ISO-2022-JP ("ISO-2022-JP decoder", "ISO-2022-JP encoder").

use super::driver::{DecodeHandler, Seq, Step};
use super::handles::{Sink, Units};
use super::multibyte::{FastEncoder, Steps};
use crate::tables::index_code_point;
use crate::tables::iso_2022_jp_katakana::ISO_2022_JP_KATAKANA;
use crate::tables::jis0208::{JIS0208_DECODE, JIS0208_ENCODE};

/// "ISO-2022-JP decoder state" (and "ISO-2022-JP decoder output state", which only ever holds
/// one of the first four).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum DecState {
    #[default]
    Ascii,
    Roman,
    Katakana,
    LeadingByte,
    TrailingByte,
    EscapeStart,
    Escape,
}

/// The ISO-2022-JP decoder's state: "ISO-2022-JP decoder state", "ISO-2022-JP decoder output
/// state", "ISO-2022-JP leading" and "ISO-2022-JP output".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Iso2022JpDecoder {
    state: DecState,
    output_state: DecState,
    leading: u8,
    output: bool,
}

/// The state an escape sequence ESC `leading` `byte` selects ("Escape" steps 3 to 6), or
/// `None`.
#[inline(always)]
fn escape_state(leading: u8, byte: u8) -> Option<DecState> {
    match (leading, byte) {
        // 3. 0x28 0x42 (B): ASCII.
        (0x28, 0x42) => Some(DecState::Ascii),
        // 4. 0x28 0x4A (J): Roman.
        (0x28, 0x4A) => Some(DecState::Roman),
        // 5. 0x28 0x49 (I): katakana.
        (0x28, 0x49) => Some(DecState::Katakana),
        // 6. 0x24 0x40 (@) or 0x24 0x42 (B): leading byte.
        (0x24, 0x40) | (0x24, 0x42) => Some(DecState::LeadingByte),
        _ => None,
    }
}

/// The jis0208 code point for an ISO-2022-JP pair, both bytes in 0x21..=0x7E.
#[inline(always)]
fn jis0208_pair(leading: u8, byte: u8) -> Option<u32> {
    // Trailing byte, 0x21 to 0x7E, steps 2 and 3: pointer is
    // (leading - 0x21) × 94 + byte - 0x21; its index code point in index jis0208.
    index_code_point(
        &JIS0208_DECODE,
        (leading as usize - 0x21) * 94 + byte as usize - 0x21,
    )
}

/// The length of the prefix of `s` made of ASCII bytes other than 0x0E, 0x0F and 0x1B (the
/// bytes the ASCII state returns as themselves).
#[inline(always)]
fn plain_ascii_len(s: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    #[inline(always)]
    fn has_zero_byte(x: u64) -> bool {
        x.wrapping_sub(ONES) & !x & HIGH != 0
    }
    let mut i = 0;
    while i + 8 <= s.len() {
        let w = u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
        if w & HIGH != 0
            || has_zero_byte(w ^ (ONES * 0x1B))
            || has_zero_byte((w & (ONES * 0xFE)) ^ (ONES * 0x0E))
        {
            break;
        }
        i += 8;
    }
    while i < s.len() && s[i] < 0x80 && !matches!(s[i], 0x0E | 0x0F | 0x1B) {
        i += 1;
    }
    i
}

impl DecodeHandler for Iso2022JpDecoder {
    // "ISO-2022-JP decoder" handler, switching on ISO-2022-JP decoder state.
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        match self.state {
            // ASCII.
            DecState::Ascii => match byte {
                // 0x1B: state = escape start, return continue.
                0x1B => {
                    self.state = DecState::EscapeStart;
                    Step::Continue
                }
                // 0x00..=0x7F excluding 0x0E, 0x0F and 0x1B: output = false, return byte.
                0x00..=0x7F if byte != 0x0E && byte != 0x0F => {
                    self.output = false;
                    Step::Emit(byte as u32)
                }
                // Otherwise: output = false, return error.
                _ => {
                    self.output = false;
                    Step::ERROR
                }
            },
            // Roman.
            DecState::Roman => match byte {
                // 0x1B: state = escape start, return continue.
                0x1B => {
                    self.state = DecState::EscapeStart;
                    Step::Continue
                }
                // 0x5C: output = false, return U+00A5 (¥).
                0x5C => {
                    self.output = false;
                    Step::Emit(0xA5)
                }
                // 0x7E: output = false, return U+203E (‾).
                0x7E => {
                    self.output = false;
                    Step::Emit(0x203E)
                }
                // 0x00..=0x7F excluding 0x0E, 0x0F, 0x1B, 0x5C and 0x7E: output = false,
                // return byte.
                0x00..=0x7F if byte != 0x0E && byte != 0x0F => {
                    self.output = false;
                    Step::Emit(byte as u32)
                }
                // Otherwise: output = false, return error.
                _ => {
                    self.output = false;
                    Step::ERROR
                }
            },
            // katakana.
            DecState::Katakana => match byte {
                // 0x1B: state = escape start, return continue.
                0x1B => {
                    self.state = DecState::EscapeStart;
                    Step::Continue
                }
                // 0x21..=0x5F: output = false, return 0xFF61 - 0x21 + byte.
                0x21..=0x5F => {
                    self.output = false;
                    Step::Emit(0xFF61 - 0x21 + byte as u32)
                }
                // Otherwise: output = false, return error.
                _ => {
                    self.output = false;
                    Step::ERROR
                }
            },
            // Leading byte.
            DecState::LeadingByte => match byte {
                // 0x1B: state = escape start, return continue.
                0x1B => {
                    self.state = DecState::EscapeStart;
                    Step::Continue
                }
                // 0x21..=0x7E: output = false, leading = byte, state = trailing byte,
                // return continue.
                0x21..=0x7E => {
                    self.output = false;
                    self.leading = byte;
                    self.state = DecState::TrailingByte;
                    Step::Continue
                }
                // Otherwise: output = false, return error.
                _ => {
                    self.output = false;
                    Step::ERROR
                }
            },
            // Trailing byte.
            DecState::TrailingByte => match byte {
                // 0x1B: state = escape start, return error (nothing restored; the output
                // state is still leading byte).
                0x1B => {
                    self.state = DecState::EscapeStart;
                    Step::ERROR
                }
                // 0x21..=0x7E:
                0x21..=0x7E => {
                    // 1. state = leading byte.
                    self.state = DecState::LeadingByte;
                    // 2-5. The code point for the pointer in index jis0208, or error if null.
                    match jis0208_pair(self.leading, byte) {
                        Some(cp) => Step::Emit(cp),
                        None => Step::ERROR,
                    }
                }
                // Otherwise: state = leading byte, return error.
                _ => {
                    self.state = DecState::LeadingByte;
                    Step::ERROR
                }
            },
            // Escape start.
            DecState::EscapeStart => {
                // 1. If byte is 0x24 or 0x28: leading = byte, state = escape, return
                //    continue.
                if byte == 0x24 || byte == 0x28 {
                    self.leading = byte;
                    self.state = DecState::Escape;
                    return Step::Continue;
                }
                // 2. Restore byte to ioQueue (byte is not end-of-queue here).
                // 3. output = false, state = output state, return error.
                self.output = false;
                self.state = self.output_state;
                Step::error_restoring(byte)
            }
            // Escape.
            DecState::Escape => {
                // 1. Let leading be ISO-2022-JP leading and set ISO-2022-JP leading to 0x00.
                let leading = self.leading;
                self.leading = 0x00;
                // 2-6. Let state be the state the escape sequence selects, if any.
                // 7. If state is non-null:
                if let Some(state) = escape_state(leading, byte) {
                    // 7.1. Set decoder state and decoder output state to state.
                    self.state = state;
                    self.output_state = state;
                    // 7.2-7.3. Let output be ISO-2022-JP output; set it to true.
                    let output = self.output;
                    self.output = true;
                    // 7.4. Return continue if output is false, and error otherwise.
                    return if output { Step::ERROR } else { Step::Continue };
                }
                // 8. Restore « leading, byte » to ioQueue (byte is not end-of-queue here).
                // 9. output = false, state = output state, return error.
                self.output = false;
                self.state = self.output_state;
                Step::Error {
                    n: 2,
                    bytes: [leading, byte, 0],
                }
            }
        }
    }

    fn end(&mut self) -> Step {
        match self.state {
            // ASCII, Roman, katakana, leading byte: end-of-queue returns finished.
            DecState::Ascii | DecState::Roman | DecState::Katakana | DecState::LeadingByte => {
                Step::Finished
            }
            // Trailing byte, end-of-queue: state = leading byte, return error.
            DecState::TrailingByte => {
                self.state = DecState::LeadingByte;
                Step::ERROR
            }
            // Escape start, end-of-queue: step 2 restores nothing; step 3: output = false,
            // state = output state, return error.
            DecState::EscapeStart => {
                self.output = false;
                self.state = self.output_state;
                Step::ERROR
            }
            // Escape, end-of-queue: steps 1-7 find no state; step 8 restores leading;
            // step 9: output = false, state = output state, return error.
            DecState::Escape => {
                let leading = self.leading;
                self.leading = 0x00;
                self.output = false;
                self.state = self.output_state;
                Step::Error {
                    n: 1,
                    bytes: [leading, 0, 0],
                }
            }
        }
    }

    fn held(&self) -> usize {
        match self.state {
            DecState::EscapeStart | DecState::TrailingByte => 1,
            DecState::Escape => 2,
            _ => 0,
        }
    }

    #[inline(always)]
    fn sequence(&mut self, src: &[u8]) -> Seq {
        let byte = src[0];
        if self.state == DecState::Ascii && byte != 0x1B {
            // The common case first (the ASCII state's arm below).
            self.output = false;
            return match byte {
                0x0E | 0x0F | 0x80..=0xFF => Seq::Error(1),
                _ => Seq::Emit(byte as u32, 1),
            };
        }
        match self.state {
            // In the four output states, 0x1B: state = escape start, then the next byte.
            DecState::Ascii | DecState::Roman | DecState::Katakana | DecState::LeadingByte
                if byte == 0x1B =>
            {
                let Some(&second) = src.get(1) else {
                    return Seq::Bytes;
                };
                if second != 0x24 && second != 0x28 {
                    // Escape start 2-3: the byte is restored.
                    self.output = false;
                    self.state = self.output_state;
                    return Seq::Error(1);
                }
                // Escape start 1: leading = the byte, state = escape; then the next byte.
                let Some(&third) = src.get(2) else {
                    return Seq::Bytes;
                };
                if escape_state(second, third).is_some() {
                    // Escape 7: continue, or an error after another escape sequence.
                    return Seq::Bytes;
                }
                // Escape 1, 8-9: leading and the byte are restored.
                self.leading = 0x00;
                self.output = false;
                self.state = self.output_state;
                Seq::Error(1)
            }
            DecState::Ascii => {
                self.output = false;
                match byte {
                    0x0E | 0x0F | 0x80..=0xFF => Seq::Error(1),
                    _ => Seq::Emit(byte as u32, 1),
                }
            }
            DecState::Roman => {
                self.output = false;
                match byte {
                    0x5C => Seq::Emit(0xA5, 1),
                    0x7E => Seq::Emit(0x203E, 1),
                    0x0E | 0x0F | 0x80..=0xFF => Seq::Error(1),
                    _ => Seq::Emit(byte as u32, 1),
                }
            }
            DecState::Katakana => {
                self.output = false;
                match byte {
                    0x21..=0x5F => Seq::Emit(0xFF61 - 0x21 + byte as u32, 1),
                    _ => Seq::Error(1),
                }
            }
            DecState::LeadingByte => {
                if !(0x21..=0x7E).contains(&byte) {
                    self.output = false;
                    return Seq::Error(1);
                }
                // Leading byte: output = false, leading = byte, state = trailing byte; then
                // the trailing byte.
                let Some(&trailing) = src.get(1) else {
                    return Seq::Bytes;
                };
                if trailing == 0x1B {
                    return Seq::Bytes;
                }
                self.output = false;
                self.leading = byte;
                // Trailing byte: state = leading byte; the code point, or an error.
                if (0x21..=0x7E).contains(&trailing) {
                    if let Some(cp) = jis0208_pair(byte, trailing) {
                        return Seq::Emit(cp, 2);
                    }
                }
                Seq::Error(2)
            }
            // Trailing byte, escape start, escape: byte by byte.
            _ => Seq::Bytes,
        }
    }

    #[inline(always)]
    fn run<S: Sink>(&mut self, src: &[u8], sink: &mut S) -> usize {
        let mut i = 0;
        loop {
            // The run of bytes the current state decodes without errors.
            match self.state {
                DecState::Ascii => {
                    let n = plain_ascii_len(&src[i..]);
                    if n > 0 {
                        let m = sink.put_ascii_run(&src[i..i + n]);
                        if m > 0 {
                            self.output = false;
                        }
                        i += m;
                        if m < n {
                            return i;
                        }
                    }
                }
                DecState::Roman => {
                    while let Some(&b) = src.get(i) {
                        let cp = match b {
                            0x5C => 0xA5,
                            0x7E => 0x203E,
                            0x00..=0x7F if !matches!(b, 0x0E | 0x0F | 0x1B) => b as u32,
                            _ => break,
                        };
                        if !sink.put(cp) {
                            return i;
                        }
                        self.output = false;
                        i += 1;
                    }
                }
                DecState::Katakana => {
                    while let Some(&b) = src.get(i) {
                        if !(0x21..=0x5F).contains(&b) {
                            break;
                        }
                        if !sink.put(0xFF61 - 0x21 + b as u32) {
                            return i;
                        }
                        self.output = false;
                        i += 1;
                    }
                }
                DecState::LeadingByte => {
                    while i + 1 < src.len() {
                        let (l, t) = (src[i], src[i + 1]);
                        if !(0x21..=0x7E).contains(&l) || !(0x21..=0x7E).contains(&t) {
                            break;
                        }
                        let Some(cp) = jis0208_pair(l, t) else { break };
                        if !sink.put(cp) {
                            return i;
                        }
                        self.output = false;
                        self.leading = l;
                        i += 2;
                    }
                }
                _ => return i,
            }
            // A complete escape sequence that switches state without an error (output is
            // false): the same as the escape start and escape states' steps.
            if self.output || src.get(i) != Some(&0x1B) {
                return i;
            }
            let (Some(&l), Some(&b)) = (src.get(i + 1), src.get(i + 2)) else {
                return i;
            };
            let Some(state) = escape_state(l, b) else {
                return i;
            };
            self.state = state;
            self.output_state = state;
            self.leading = 0x00;
            self.output = true;
            i += 3;
        }
    }
}

/// "ISO-2022-JP encoder state".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum EncState {
    #[default]
    Ascii,
    Roman,
    Jis0208,
}

/// The ISO-2022-JP encoder's state: "ISO-2022-JP encoder state".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Iso2022JpEncoder {
    state: EncState,
}

const ESC_ASCII: [u8; 3] = [0x1B, 0x28, 0x42];
const ESC_ROMAN: [u8; 3] = [0x1B, 0x28, 0x4A];
const ESC_JIS0208: [u8; 3] = [0x1B, 0x24, 0x42];

/// The length of the prefix of `s` made of ASCII other than U+000E, U+000F and U+001B.
#[inline(always)]
fn plain_ascii_len16(s: &[u16]) -> usize {
    s.iter()
        .position(|&u| u >= 0x80 || matches!(u, 0x0E | 0x0F | 0x1B))
        .unwrap_or(s.len())
}

/// "ISO-2022-JP encoder" steps 8 to 10: the index pointer in index jis0208 for `code_point`
/// after step 8 (U+2212 (−) is set to U+FF0D (－)) and step 9 (U+FF61..=U+FF9F is set to its
/// index code point in index ISO-2022-JP katakana).
#[inline(always)]
fn jis0208_pointer(code_point: u32) -> Option<u16> {
    let code_point = if code_point == 0x2212 {
        0xFF0D
    } else if (0xFF61..=0xFF9F).contains(&code_point) {
        ISO_2022_JP_KATAKANA[(code_point - 0xFF61) as usize] as u32
    } else {
        code_point
    };
    JIS0208_ENCODE.get(code_point)
}

impl FastEncoder for Iso2022JpEncoder {
    // Index jis0208 has no supplementary code points.
    const SUPPLEMENTARY: bool = false;
    // Only in the ASCII state, and there not U+000E, U+000F and U+001B (`plain_ascii`).
    const ASCII_IS_IDENTITY: bool = false;

    // "ISO-2022-JP encoder" handler (steps 3 to 15; steps 1 and 2 are `end_of_queue`).
    #[inline(always)]
    fn handler<S: Steps>(&mut self, code_point: u32) -> S {
        // 3. If state is ASCII or Roman and codePoint is U+000E, U+000F or U+001B, return
        //    error with U+FFFD.
        if self.state != EncState::Jis0208 && matches!(code_point, 0x0E | 0x0F | 0x1B) {
            return S::error(0xFFFD);
        }
        // 4. If state is ASCII and codePoint is an ASCII code point, return it as a byte.
        if self.state == EncState::Ascii && code_point < 0x80 {
            return S::one(code_point as u8);
        }
        // 5. If state is Roman and codePoint is an ASCII code point other than U+005C and
        //    U+007E, or is U+00A5 or U+203E:
        if self.state == EncState::Roman
            && ((code_point < 0x80 && code_point != 0x5C && code_point != 0x7E)
                || code_point == 0xA5
                || code_point == 0x203E)
        {
            // 5.1. ASCII code point: return it as a byte.
            if code_point < 0x80 {
                return S::one(code_point as u8);
            }
            // 5.2. U+00A5 (¥): return byte 0x5C.
            if code_point == 0xA5 {
                return S::one(0x5C);
            }
            // 5.3. U+203E (‾): return byte 0x7E.
            return S::one(0x7E);
        }
        // 6. If codePoint is an ASCII code point and state is not ASCII: restore codePoint,
        //    state = ASCII, return 0x1B 0x28 0x42.
        if code_point < 0x80 && self.state != EncState::Ascii {
            self.state = EncState::Ascii;
            return S::again(ESC_ASCII);
        }
        // 7. If codePoint is U+00A5 or U+203E and state is not Roman: restore codePoint,
        //    state = Roman, return 0x1B 0x28 0x4A.
        if (code_point == 0xA5 || code_point == 0x203E) && self.state != EncState::Roman {
            self.state = EncState::Roman;
            return S::again(ESC_ROMAN);
        }
        // 8-10. pointer: the index pointer in index jis0208 for codePoint, after U+2212 is set
        //       to U+FF0D and half-width katakana to their index ISO-2022-JP katakana code
        //       points.
        let Some(pointer) = jis0208_pointer(code_point) else {
            // 11.1. If pointer is null and state is jis0208: restore codePoint, state =
            //       ASCII, return 0x1B 0x28 0x42.
            if self.state == EncState::Jis0208 {
                self.state = EncState::Ascii;
                return S::again(ESC_ASCII);
            }
            // 11.2. Return error with codePoint (never a substituted one: U+FF0D and the
            //       katakana index's code points all have pointers).
            return S::error(code_point);
        };
        // 12. If state is not jis0208: restore codePoint, state = jis0208, return
        //     0x1B 0x24 0x42. (Restoring the substituted code point or the original one
        //     gives the same bytes next time.)
        if self.state != EncState::Jis0208 {
            self.state = EncState::Jis0208;
            return S::again(ESC_JIS0208);
        }
        // 13-15. leading = pointer / 94 + 0x21, trailing = pointer % 94 + 0x21.
        S::two((pointer / 94 + 0x21) as u8, (pointer % 94 + 0x21) as u8)
    }

    fn end_of_queue<S: Steps>(&mut self) -> S {
        // 1. End-of-queue and state is not ASCII: state = ASCII, return 0x1B 0x28 0x42.
        if self.state != EncState::Ascii {
            self.state = EncState::Ascii;
            return S::three(ESC_ASCII);
        }
        // 2. End-of-queue and state is ASCII: return finished.
        S::finished()
    }

    #[inline(always)]
    fn plain_ascii(&self, u: u32) -> bool {
        // Step 4; U+000E, U+000F and U+001B are errors (step 3).
        self.state == EncState::Ascii && !matches!(u, 0x0E | 0x0F | 0x1B)
    }

    #[inline(always)]
    fn plain_ascii_len(&self, units: Units<'_>, r: usize) -> Option<usize> {
        Some(match units {
            Units::Utf8(s) => plain_ascii_len(&s[r..]),
            Units::Utf16(s) => plain_ascii_len16(&s[r..]),
        })
    }
}
