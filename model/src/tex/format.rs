//! Texture formats: bits per texel, where a texel lives in memory, and how its bytes decode.
//!
//! # Tiling (pica-facts §4; Azahar `video_core/texture/texture_decode.cpp` `LookupTexture`)
//!
//! A level of `w` × `h` texels is cut into 8×8 tiles, stored row of tiles after row of tiles
//! (`(y' & !7) · w` texels before), tile after tile within a row (`(x & !7) · 8` texels before);
//! inside a tile texels are in Morton order, x bits at even and y' bits at odd positions
//! ([`crate::fop::fb::morton_interleave`]: x → 0,1,4,5,16,17,20,21; y' → 0,2,8,10,32,34,40,42).
//! `y'` is the memory row: see [`super`] for how it relates to the v coordinate.
//!
//! ETC1 / ETC1A4: an 8×8 tile is four 4×4 blocks in Z order (`(x&7)/4 + 2·((y'&7)/4)`), 8 bytes
//! each (ETC1A4: 8 alpha bytes then the 8-byte colour block); see [`super::etc1`].
//!
//! # Decoding (Azahar `texture_decode.cpp`, `common/color.h`)
//!
//! Multi-byte texels are little-endian integers whose most significant bits hold red ("reverse
//! byte order", the same rule as colour buffers, seed 002 GPUREG_COLORBUFFER_FORMAT). Fields
//! narrower than 8 bits are expanded by bit replication ([`super::etc1::expand4`] etc., the rule
//! of Azahar `Common::Color::Convert{4,5,6}To8`). 4-bit formats (I4, A4) hold the even Morton
//! index in the low nibble, the odd one in the high nibble.

use super::etc1::{expand4, expand5, expand6};
use crate::fop::fb::morton_interleave;
use crate::regs::TexunitTypeFormat;

/// The 14 texture formats (GPUREG_TEXUNITi_TYPE bits 0-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// 0: 32 bits, r g b a from the most significant byte down (bytes a, b, g, r).
    Rgba8888,
    /// 1: 24 bits (bytes b, g, r), alpha 255.
    Rgb888,
    /// 2: 16 bits r5 g5 b5 a1.
    Rgba5551,
    /// 3: 16 bits r5 g6 b5, alpha 255.
    Rgb565,
    /// 4: 16 bits r4 g4 b4 a4.
    Rgba4444,
    /// 5: 16 bits: byte 0 alpha, byte 1 intensity.
    Ia8,
    /// 6: 16 bits: byte 0 → green, byte 1 → red; blue 0, alpha 255.
    Hilo8,
    /// 7: 8-bit intensity, alpha 255.
    I8,
    /// 8: 8-bit alpha; colour 0.
    A8,
    /// 9: 8 bits: high nibble intensity, low nibble alpha.
    Ia44,
    /// 10: 4-bit intensity, alpha 255.
    I4,
    /// 11: 4-bit alpha; colour 0.
    A4,
    /// 12: ETC1, 4 bits per texel.
    Etc1,
    /// 13: ETC1 with 4-bit alpha, 8 bits per texel.
    Etc1a4,
}

/// UNVERIFIED(hw) [fact: tex-reserved-format]: the reserved format values 14 and 15 decode as RGBA8888 — the model's
/// choice (Azahar asserts; the hardware behaviour is unknown). Knob `tex-reserved-format=zero`
/// makes them read nothing and give (0, 0, 0, 0) instead.
pub const RESERVED_FORMAT: Format = Format::Rgba8888;

/// UNVERIFIED(hw) [fact: tex-alpha-only-colour]: A8 and A4 give colour (0, 0, 0) — Azahar `texture_decode.cpp`
/// (`{0, 0, 0, alpha}`), the OpenGL alpha-texture convention; not measured. Knob
/// `tex-alpha-only-colour=white` gives (255, 255, 255) ([`decode_with`]).
pub const ALPHA_FORMAT_RGB: [u8; 3] = [0, 0, 0];

impl Format {
    /// The format of a GPUREG_TEXUNITi_TYPE value.
    pub fn from_reg(f: TexunitTypeFormat) -> Self {
        match f {
            TexunitTypeFormat::Rgba8888 => Self::Rgba8888,
            TexunitTypeFormat::Rgb888 => Self::Rgb888,
            TexunitTypeFormat::Rgba5551 => Self::Rgba5551,
            TexunitTypeFormat::Rgb565 => Self::Rgb565,
            TexunitTypeFormat::Rgba4444 => Self::Rgba4444,
            TexunitTypeFormat::Ia8 => Self::Ia8,
            TexunitTypeFormat::Hilo8 => Self::Hilo8,
            TexunitTypeFormat::I8 => Self::I8,
            TexunitTypeFormat::A8 => Self::A8,
            TexunitTypeFormat::Ia44 => Self::Ia44,
            TexunitTypeFormat::I4 => Self::I4,
            TexunitTypeFormat::A4 => Self::A4,
            TexunitTypeFormat::Etc1 => Self::Etc1,
            TexunitTypeFormat::Etc1a4 => Self::Etc1a4,
            TexunitTypeFormat::Reserved(_) => RESERVED_FORMAT,
        }
    }

    /// Bits per texel.
    pub const fn bits_per_texel(self) -> u32 {
        match self {
            Self::Rgba8888 => 32,
            Self::Rgb888 => 24,
            Self::Rgba5551 | Self::Rgb565 | Self::Rgba4444 | Self::Ia8 | Self::Hilo8 => 16,
            Self::I8 | Self::A8 | Self::Ia44 | Self::Etc1a4 => 8,
            Self::I4 | Self::A4 | Self::Etc1 => 4,
        }
    }

    /// True for ETC1 and ETC1A4 (block-compressed).
    pub const fn is_etc(self) -> bool {
        matches!(self, Self::Etc1 | Self::Etc1a4)
    }
}

/// Where a texel's data lies: the bytes to read and how to pick the texel out of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexelLoc {
    /// Byte offset from the level's base address.
    pub offset: u64,
    /// Number of bytes to read (1-4 for plain formats, 8 for ETC1, 16 for ETC1A4).
    pub len: u32,
    /// Plain 4-bit formats: true for the high nibble. ETC: unused.
    pub high_nibble: bool,
    /// ETC: texel column inside the 4×4 block.
    pub bx: u32,
    /// ETC: texel row (memory-row order) inside the 4×4 block.
    pub by: u32,
}

/// The location of texel `(x, yr)` (`yr` = memory row) in a level `width` texels wide.
pub fn texel_loc(format: Format, width: u32, x: u32, yr: u32) -> TexelLoc {
    let bpp = u64::from(format.bits_per_texel());
    // Texels before the tile that holds (x, yr).
    let tile_texels = u64::from(yr & !7) * u64::from(width) + u64::from(x & !7) * 8;
    let tile_bytes = tile_texels * bpp / 8;
    if format.is_etc() {
        let block_bytes: u32 = if format == Format::Etc1 { 8 } else { 16 };
        let sub = ((x & 7) / 4) + 2 * ((yr & 7) / 4);
        TexelLoc {
            offset: tile_bytes + u64::from(sub * block_bytes),
            len: block_bytes,
            high_nibble: false,
            bx: x & 3,
            by: yr & 3,
        }
    } else {
        let m = u64::from(morton_interleave(x & 7, yr & 7, 3));
        let bit = m * bpp;
        TexelLoc {
            offset: tile_bytes + bit / 8,
            len: (bpp as u32).div_ceil(8),
            high_nibble: bpp == 4 && m % 2 == 1,
            bx: 0,
            by: 0,
        }
    }
}

/// Decodes a texel from its bytes (`raw`: the `loc.len` bytes little-endian) to `[r, g, b, a]`.
pub fn decode(format: Format, raw: u128, loc: &TexelLoc) -> [u8; 4] {
    decode_with(format, raw, loc, ALPHA_FORMAT_RGB)
}

/// [`decode`] with `alpha_rgb` the colour of the alpha-only formats A8 and A4 (knob
/// `tex-alpha-only-colour`; [`ALPHA_FORMAT_RGB`] by default).
pub fn decode_with(format: Format, raw: u128, loc: &TexelLoc, alpha_rgb: [u8; 3]) -> [u8; 4] {
    let b = |i: u32| ((raw >> (8 * i)) & 0xFF) as u8;
    let v16 = (raw & 0xFFFF) as u32;
    let nib = if loc.high_nibble {
        u32::from(b(0) >> 4)
    } else {
        u32::from(b(0) & 0xF)
    };
    let [zr, zg, zb] = alpha_rgb;
    match format {
        Format::Rgba8888 => [b(3), b(2), b(1), b(0)],
        Format::Rgb888 => [b(2), b(1), b(0), 255],
        Format::Rgba5551 => [
            expand5(v16 >> 11),
            expand5(v16 >> 6),
            expand5(v16 >> 1),
            if v16 & 1 != 0 { 255 } else { 0 },
        ],
        Format::Rgb565 => [expand5(v16 >> 11), expand6(v16 >> 5), expand5(v16), 255],
        Format::Rgba4444 => [
            expand4(v16 >> 12),
            expand4(v16 >> 8),
            expand4(v16 >> 4),
            expand4(v16),
        ],
        Format::Ia8 => [b(1), b(1), b(1), b(0)],
        Format::Hilo8 => [b(1), b(0), 0, 255],
        Format::I8 => [b(0), b(0), b(0), 255],
        Format::A8 => [zr, zg, zb, b(0)],
        Format::Ia44 => {
            let i = expand4(u32::from(b(0) >> 4));
            [i, i, i, expand4(u32::from(b(0)))]
        }
        Format::I4 => {
            let i = expand4(nib);
            [i, i, i, 255]
        }
        Format::A4 => [zr, zg, zb, expand4(nib)],
        Format::Etc1 => {
            let [r, g, bl] = super::etc1::etc1_texel(raw as u64, loc.bx, loc.by);
            [r, g, bl, 255]
        }
        Format::Etc1a4 => {
            let a = super::etc1::etc1a4_alpha(raw as u64, loc.bx, loc.by);
            let [r, g, bl] = super::etc1::etc1_texel((raw >> 64) as u64, loc.bx, loc.by);
            [r, g, bl, a]
        }
    }
}

/// Bytes of one mipmap level of `w` × `h` texels.
pub fn level_bytes(format: Format, w: u32, h: u32) -> u64 {
    u64::from(w) * u64::from(h) * u64::from(format.bits_per_texel()) / 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_morton_offsets_match_pica_facts() {
        let xs: Vec<u64> = (0..8)
            .map(|x| texel_loc(Format::I8, 8, x, 0).offset)
            .collect();
        assert_eq!(xs, [0, 1, 4, 5, 16, 17, 20, 21]);
        let ys: Vec<u64> = (0..8)
            .map(|y| texel_loc(Format::I8, 8, 0, y).offset)
            .collect();
        assert_eq!(ys, [0, 2, 8, 10, 32, 34, 40, 42]);
    }

    #[test]
    fn format_tiles_row_major() {
        // 16 wide, RGBA8: tile (1, 0) starts at 64 texels, tile (0, 1) at 128 texels.
        assert_eq!(texel_loc(Format::Rgba8888, 16, 8, 0).offset, 256);
        assert_eq!(texel_loc(Format::Rgba8888, 16, 0, 8).offset, 512);
        assert_eq!(texel_loc(Format::Etc1, 16, 4, 4).offset, 24);
        assert_eq!(texel_loc(Format::Etc1a4, 16, 8, 8).offset, 192);
    }
}
