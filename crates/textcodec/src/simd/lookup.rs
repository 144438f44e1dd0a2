//! Lookup tables shared by the x86-64 and aarch64 kernels: the Keiser-Lemire UTF-8 error
//! tables (indexed by a nibble, for a 16-byte table lookup: `pshufb` or `tbl`) and the
//! compaction shuffles of the UTF-16/UTF-8 transcoding kernels (an index with the high bit set
//! gives a zero byte in both instruction sets).

const TOO_SHORT: u8 = 1 << 0;
const TOO_LONG: u8 = 1 << 1;
const OVERLONG_3: u8 = 1 << 2;
const TOO_LARGE: u8 = 1 << 3;
const SURROGATE: u8 = 1 << 4;
const OVERLONG_2: u8 = 1 << 5;
const TOO_LARGE_1000: u8 = 1 << 6;
const OVERLONG_4: u8 = 1 << 6;
const TWO_CONTS: u8 = 1 << 7;
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Indexed by the high nibble of the first byte of a pair.
pub(super) const BYTE_1_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// Indexed by the low nibble of the first byte of a pair.
pub(super) const BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// Indexed by the high nibble of the second byte of a pair.
pub(super) const BYTE_2_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// A shuffle that compacts four 32-bit lanes holding 1, 2 or 3 UTF-8 bytes each, and the
/// number of bytes kept. Indexed by `ge80 | ge800 << 4`, the nibbles having a bit per lane
/// set when the lane's code unit is at least U+0080 (two bytes or more) or U+0800 (three).
#[repr(C, align(16))]
pub(super) struct Pack {
    pub(super) shuffle: [u8; 16],
    pub(super) len: u8,
}

/// A shuffle that keeps nothing: the starting point of every table below.
const NO_PACK: Pack = Pack {
    shuffle: [0x80; 16],
    len: 0,
};

pub(super) static PACK_1_2_3: [Pack; 256] = {
    let mut out = [NO_PACK; 256];
    let mut key = 0;
    while key < 256 {
        let (ge80, ge800) = (key & 0xF, key >> 4);
        let mut p = 0;
        let mut lane = 0;
        while lane < 4 {
            let len = 1 + (ge80 >> lane & 1) + (ge800 >> lane & 1);
            let mut j = 0;
            while j < len {
                out[key].shuffle[p] = (4 * lane + j) as u8;
                p += 1;
                j += 1;
            }
            lane += 1;
        }
        out[key].len = p as u8;
        key += 1;
    }
    out
};

/// Per 8-bit mask of dropped 16-bit lanes: a shuffle that keeps the other lanes, in order, and
/// how many it keeps.
pub(super) static KEEP_U16_LANES: [Pack; 256] = {
    let mut out = [NO_PACK; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut p = 0;
        let mut lane = 0;
        while lane < 8 {
            if mask >> lane & 1 == 0 {
                out[mask].shuffle[2 * p] = (2 * lane) as u8;
                out[mask].shuffle[2 * p + 1] = (2 * lane + 1) as u8;
                p += 1;
            }
            lane += 1;
        }
        out[mask].len = p as u8;
        mask += 1;
    }
    out
};

/// Per 8-bit mask of the 16-bit lanes that hold two UTF-8 bytes (the others hold one, in their
/// low byte): a shuffle that compacts the eight lanes' bytes, in order, and how many it keeps.
#[cfg(target_arch = "x86_64")]
pub(super) static PACK_1_2: [Pack; 256] = {
    let mut out = [NO_PACK; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut p = 0;
        let mut lane = 0;
        while lane < 8 {
            out[mask].shuffle[p] = (2 * lane) as u8;
            p += 1;
            if mask >> lane & 1 != 0 {
                out[mask].shuffle[p] = (2 * lane + 1) as u8;
                p += 1;
            }
            lane += 1;
        }
        out[mask].len = p as u8;
        mask += 1;
    }
    out
};

/// Per key of four UTF-16 code units that are not surrogates (two bits per unit, from the
/// lowest: bit `2j` set when unit `j` is below U+0080, bit `2j + 1` when it is below U+0800):
/// a shuffle that compacts four 32-bit lanes holding the unit's UTF-8 bytes in the layout
/// [three-byte lead, two-byte lead or middle byte, last byte of two or three, the ASCII byte]
/// (three bytes keep lane bytes 0-2, two bytes 1-2, one byte 3), and the number of bytes kept.
#[cfg(target_arch = "x86_64")]
pub(super) static PACK_UTF8_LANES: [Pack; 256] = {
    let mut out = [NO_PACK; 256];
    let mut key = 0;
    while key < 256 {
        let mut p = 0;
        let mut lane = 0;
        while lane < 4 {
            let (first, last) = match key >> (2 * lane) & 3 {
                0b11 => (3, 3),
                0b10 => (1, 2),
                // 0b01 (ASCII but not below U+0800) does not occur: as three bytes.
                _ => (0, 2),
            };
            let mut j = first;
            while j <= last {
                out[key].shuffle[p] = (4 * lane + j) as u8;
                p += 1;
                j += 1;
            }
            lane += 1;
        }
        out[key].len = p as u8;
        key += 1;
    }
    out
};

/// Shuffle indices that move the last `r` of sixteen bytes to the front, zeros after them:
/// the sixteen from `16 - r` on.
pub(super) static TAIL_SHIFT: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut k = 0;
    while k < 16 {
        t[k] = k as u8;
        k += 1;
    }
    t
};
