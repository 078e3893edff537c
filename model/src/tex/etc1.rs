//! ETC1 and ETC1A4 block decoding.
//!
//! # Block layout on the PICA200
//!
//! A 4×4 ETC1 block is one 64-bit word stored **little-endian** in memory (Azahar
//! `video_core/texture/texture_decode.cpp` reads it with `u64_le`; the Khronos ETC1 format stores
//! the same word big-endian, so 3DS tools byte-swap it). Bit fields of the word (Azahar
//! `video_core/texture/etc1.cpp`, which follows the Khronos layout):
//!
//! | bits  | individual mode        | differential mode             |
//! |-------|------------------------|-------------------------------|
//! | 0-15  | modifier index low bit per texel (LSB of the 2-bit selector) | same |
//! | 16-31 | modifier sign per texel (1 = negative)                       | same |
//! | 32    | flip                   | flip                          |
//! | 33    | diff = 0               | diff = 1                      |
//! | 34-36 | table index, sub-block 2 | same                        |
//! | 37-39 | table index, sub-block 1 | same                        |
//! | 40-47 | b2 (40-43), b1 (44-47) | db (40-42, signed), b (43-47) |
//! | 48-55 | g2, g1                 | dg (48-50), g (51-55)         |
//! | 56-63 | r2, r1                 | dr (56-58), r (59-63)         |
//!
//! Texel `(x, y)` inside the block (x to the right, y in memory-row order, see [`super`]) has
//! index `4·x + y` in the per-texel bit planes (column-major, as Khronos and Azahar). Without
//! flip the two sub-blocks are the left (x < 2) and right (x ≥ 2) halves; with flip the top
//! (y < 2) and bottom (y ≥ 2) halves.
//!
//! Individual mode: each sub-block's base colour is its 4-bit value × 17. Differential mode:
//! sub-block 1 is the 5-bit base, sub-block 2 the base plus the signed 3-bit delta; 5 bits are
//! expanded as `(v << 3) | (v >> 2)`. The modifier (table [`MODIFIERS`], pica-facts §4) is added
//! to each channel and the result clamped to [0, 255].
//!
//! ETC1A4: each block is preceded by an 8-byte little-endian word of 4-bit alphas, texel
//! `(x, y)` in bits `4·(4·x + y)..+4` (Azahar `texture_decode.cpp`), expanded × 17.

/// The ETC1 intensity modifier table: `[small, large]` per table index (pica-facts §4; the
/// Khronos ETC1 table). The 2-bit selector picks small (low bit 0) or large (low bit 1), the
/// sign bit negates.
pub const MODIFIERS: [[i32; 2]; 8] = [
    [2, 8],
    [5, 17],
    [9, 29],
    [13, 42],
    [18, 60],
    [24, 80],
    [33, 106],
    [47, 183],
];

/// Expands a 4-bit value to 8 bits by bit replication (`v · 17`).
pub const fn expand4(v: u32) -> u8 {
    let v = v & 0xF;
    ((v << 4) | v) as u8
}

/// Expands a 5-bit value to 8 bits by bit replication (`(v << 3) | (v >> 2)`).
pub const fn expand5(v: u32) -> u8 {
    let v = v & 0x1F;
    ((v << 3) | (v >> 2)) as u8
}

/// Expands a 6-bit value to 8 bits by bit replication (`(v << 2) | (v >> 4)`).
pub const fn expand6(v: u32) -> u8 {
    let v = v & 0x3F;
    ((v << 2) | (v >> 4)) as u8
}

/// UNVERIFIED(hw) [fact: tex-etc1-overflow]: in differential mode a base + delta outside 0..=31 (invalid ETC1, no valid
/// encoder produces it) wraps to 5 bits — the model's choice; Azahar feeds the out-of-range
/// integer to its 5→8 expansion and truncates to `u8`, which differs from the wrap for most
/// such sums: 32 gives 0x08 there and 0x00 here, 34 gives 0x18 and 0x10, −2 gives 0xFF and
/// 0xF7 (−1 gives 0xFF in both).
pub const DIFF_OVERFLOW_WRAPS: bool = true;

/// The colour `[r, g, b]` of texel `(x, y)` (each 0-3) of the ETC1 block `block` (the 64-bit
/// word as read little-endian from memory).
pub fn etc1_texel(block: u64, x: u32, y: u32) -> [u8; 3] {
    let (x, y) = (x & 3, y & 3);
    let texel = 4 * x + y;
    let flip = (block >> 32) & 1 != 0;
    let diff = (block >> 33) & 1 != 0;
    // Which sub-block: the first is x < 2 (no flip) or y < 2 (flip).
    let second = if flip { y >= 2 } else { x >= 2 };
    let field = |lo: u32, n: u32| -> u32 { ((block >> lo) & ((1 << n) - 1)) as u32 };
    let base: [i32; 3] = if diff {
        let mut c = [field(59, 5), field(51, 5), field(43, 5)];
        if second {
            let deltas = [field(56, 3), field(48, 3), field(40, 3)];
            for (ch, d) in c.iter_mut().zip(deltas) {
                // Sign-extend the 3-bit delta.
                let d = ((d << 29) as i32) >> 29;
                *ch = (*ch as i32).wrapping_add(d) as u32 & 0x1F;
            }
        }
        c.map(|v| i32::from(expand5(v)))
    } else if second {
        [field(56, 4), field(48, 4), field(40, 4)].map(|v| i32::from(expand4(v)))
    } else {
        [field(60, 4), field(52, 4), field(44, 4)].map(|v| i32::from(expand4(v)))
    };
    let table = if second { field(34, 3) } else { field(37, 3) } as usize;
    let large = (block >> texel) & 1 != 0;
    let negative = (block >> (16 + texel)) & 1 != 0;
    let row = MODIFIERS[table & 7];
    let m = if large { row[1] } else { row[0] };
    let m = if negative { -m } else { m };
    base.map(|c| (c + m).clamp(0, 255) as u8)
}

/// The alpha of texel `(x, y)` (each 0-3) of an ETC1A4 alpha word (the 8 bytes before the
/// colour block, read little-endian).
pub fn etc1a4_alpha(alpha_word: u64, x: u32, y: u32) -> u8 {
    let idx = 4 * (x & 3) + (y & 3);
    expand4(((alpha_word >> (4 * idx)) & 0xF) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etc1_expand_replicates_bits() {
        assert_eq!(expand4(0xA), 0xAA);
        assert_eq!(expand5(0b10001), 0b1000_1100);
        assert_eq!(expand6(0b100001), 0b1000_0110);
    }

    #[test]
    fn etc1_differential_overflow_wraps_to_5_bits() {
        // r = 0, dr = −1 (0b111): sub-block 2 red = −1 → wraps to 31 → 255; +2 → clamped 255.
        let block: u64 = (0b111u64 << 56) | (1 << 33);
        assert_eq!(etc1_texel(block, 3, 0)[0], 255);
    }

    #[test]
    fn etc1_individual_left_right_split() {
        // r1=0x8, r2=0x2, g1=g2=b1=b2=0, tables 0/0, all selectors 0 (+2).
        let block: u64 = (0x8u64 << 60) | (0x2u64 << 56);
        assert_eq!(etc1_texel(block, 0, 3), [0x88 + 2, 2, 2]);
        assert_eq!(etc1_texel(block, 3, 0), [0x22 + 2, 2, 2]);
    }
}
