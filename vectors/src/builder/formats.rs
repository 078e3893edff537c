//! Framebuffer formats as the builder needs them: the register encodings, the bytes per pixel,
//! and the byte pattern a clear writes into memory.
//!
//! The 3DS does not clear with the GPU: applications fill the buffers with the GX memory-fill
//! engine (3dbrew GPU/External_Registers "Memory Fill"; citro3d `C3D_RenderTargetClear` →
//! `GX_MemoryFill`). The fill writes one value to every pixel, so the image is the same whatever
//! the block tiling: the builder writes the cleared buffers straight into the case's memory
//! images, in the byte layout FOP reads (seed 002 GPUREG_COLORBUFFER_FORMAT: "Color components
//! are laid out in reverse byte order in memory, with the most significant bits used first").

use pica_model::regs::{
    ColorbufferFormatFormat, ColorbufferFormatPixelSize, DepthbufferFormatFormat,
};

/// A colour-buffer format (seed 002 GPUREG_COLORBUFFER_FORMAT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColorFormat {
    /// 8 bits per channel, 32-bit pixels.
    Rgba8,
    /// 5-5-5-1, 16-bit pixels.
    Rgb5a1,
    /// 5-6-5 (no alpha), 16-bit pixels.
    Rgb565,
    /// 4-4-4-4, 16-bit pixels.
    Rgba4,
}

impl ColorFormat {
    /// Every colour format, in register-encoding order.
    pub const ALL: [ColorFormat; 4] = [Self::Rgba8, Self::Rgb5a1, Self::Rgb565, Self::Rgba4];

    /// Bytes per pixel in memory.
    pub const fn bytes_per_pixel(self) -> u32 {
        match self {
            Self::Rgba8 => 4,
            Self::Rgb5a1 | Self::Rgb565 | Self::Rgba4 => 2,
        }
    }

    /// The `format` field of GPUREG_COLORBUFFER_FORMAT.
    pub const fn register_format(self) -> ColorbufferFormatFormat {
        match self {
            Self::Rgba8 => ColorbufferFormatFormat::Rgba8,
            Self::Rgb5a1 => ColorbufferFormatFormat::Rgb5a1,
            Self::Rgb565 => ColorbufferFormatFormat::Rgb565,
            Self::Rgba4 => ColorbufferFormatFormat::Rgba4,
        }
    }

    /// The `pixel_size` field of GPUREG_COLORBUFFER_FORMAT (32-bit for RGBA8, else 16-bit;
    /// citro3d `colorFmtSizes`).
    pub const fn register_pixel_size(self) -> ColorbufferFormatPixelSize {
        match self {
            Self::Rgba8 => ColorbufferFormatPixelSize::Bits32,
            Self::Rgb5a1 | Self::Rgb565 | Self::Rgba4 => ColorbufferFormatPixelSize::Bits16,
        }
    }

    /// Lower-case name (`rgba8`), for scene names and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Rgba8 => "rgba8",
            Self::Rgb5a1 => "rgb5a1",
            Self::Rgb565 => "rgb565",
            Self::Rgba4 => "rgba4",
        }
    }

    /// The pixel value of an 8-bit RGBA colour in this format. Narrower channels keep the most
    /// significant bits (the builder's rule for a clear value: an application computes the fill
    /// value itself, the GPU is not involved). RGBA8 is `R << 24 | G << 16 | B << 8 | A`; the
    /// 16-bit formats put red in the top bits (seed 002 GPUREG_COLORBUFFER_FORMAT, "most
    /// significant bits used first").
    pub const fn pack(self, rgba: [u8; 4]) -> u32 {
        let [r, g, b, a] = rgba;
        let (r, g, b, a) = (r as u32, g as u32, b as u32, a as u32);
        match self {
            Self::Rgba8 => (r << 24) | (g << 16) | (b << 8) | a,
            Self::Rgb5a1 => ((r >> 3) << 11) | ((g >> 3) << 6) | ((b >> 3) << 1) | (a >> 7),
            Self::Rgb565 => ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3),
            Self::Rgba4 => ((r >> 4) << 12) | ((g >> 4) << 8) | ((b >> 4) << 4) | (a >> 4),
        }
    }

    /// The bytes of one pixel in memory: [`Self::pack`] little-endian, so RGBA8 is stored
    /// A, B, G, R ("reverse byte order", seed 002; Azahar `sw_framebuffer.cpp` stores RGBA8 as
    /// a, b, g, r and the 16-bit formats as little-endian halfwords, `common/color.h`).
    pub fn pixel_bytes(self, rgba: [u8; 4]) -> Vec<u8> {
        let v = self.pack(rgba).to_le_bytes();
        v[..self.bytes_per_pixel() as usize].to_vec()
    }
}

/// A depth(-stencil) buffer format (seed 002 GPUREG_DEPTHBUFFER_FORMAT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthFormat {
    /// 16-bit depth.
    D16,
    /// 24-bit depth.
    D24,
    /// 24-bit depth and 8-bit stencil in one 32-bit word.
    D24S8,
}

impl DepthFormat {
    /// Every depth format, in register-encoding order.
    pub const ALL: [DepthFormat; 3] = [Self::D16, Self::D24, Self::D24S8];

    /// Bytes per pixel in memory.
    pub const fn bytes_per_pixel(self) -> u32 {
        match self {
            Self::D16 => 2,
            Self::D24 => 3,
            Self::D24S8 => 4,
        }
    }

    /// The `format` field of GPUREG_DEPTHBUFFER_FORMAT.
    pub const fn register_format(self) -> DepthbufferFormatFormat {
        match self {
            Self::D16 => DepthbufferFormatFormat::D16,
            Self::D24 => DepthbufferFormatFormat::D24,
            Self::D24S8 => DepthbufferFormatFormat::D24S8,
        }
    }

    /// The largest depth value (the far plane): `0xFFFF` or `0xFF_FFFF`.
    pub const fn max_depth(self) -> u32 {
        match self {
            Self::D16 => 0xFFFF,
            Self::D24 | Self::D24S8 => 0xFF_FFFF,
        }
    }

    /// Whether the format has a stencil channel.
    pub const fn has_stencil(self) -> bool {
        matches!(self, Self::D24S8)
    }

    /// Lower-case name (`d24s8`), for scene names and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::D16 => "d16",
            Self::D24 => "d24",
            Self::D24S8 => "d24s8",
        }
    }

    /// The bytes of one pixel in memory: the depth value little-endian in the low 2 or 3 bytes
    /// (masked to the format's width), for D24S8 the stencil value in the fourth byte (Citra and
    /// Azahar `common/color.h` `EncodeD24S8`: depth bytes 0-2 little-endian, stencil byte 3).
    pub fn pixel_bytes(self, depth: u32, stencil: u8) -> Vec<u8> {
        let d = depth & self.max_depth();
        let word = match self {
            Self::D16 | Self::D24 => d,
            Self::D24S8 => (u32::from(stencil) << 24) | d,
        };
        word.to_le_bytes()[..self.bytes_per_pixel() as usize].to_vec()
    }
}

/// A buffer of `pixels` copies of `pixel`, packed into little-endian words (zero-padded to a
/// whole word).
pub(crate) fn fill_words(pixel: &[u8], pixels: u32) -> Vec<u32> {
    let len = pixel.len().saturating_mul(pixels as usize);
    let bytes: Vec<u8> = pixel.iter().copied().cycle().take(len).collect();
    bytes_to_words(&bytes)
}

/// Bytes as little-endian words, the last one zero-padded.
pub(crate) fn bytes_to_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_pack_hand_values() {
        let c = [0xF8, 0xFC, 0x08, 0x80];
        assert_eq!(ColorFormat::Rgba8.pack(c), 0xF8FC_0880);
        // r 11111, g 11111 (top 5 of 0xFC), b 00001, a 1: 1111_1111_1100_0011
        assert_eq!(ColorFormat::Rgb5a1.pack(c), 0xFFC3);
        // r 11111, g 111111, b 00001: 1111_1111_1110_0001
        assert_eq!(ColorFormat::Rgb565.pack(c), 0xFFE1);
        assert_eq!(ColorFormat::Rgba4.pack(c), 0xFF08);
        assert_eq!(ColorFormat::Rgba8.pixel_bytes(c), [0x80, 0x08, 0xFC, 0xF8]);
    }

    #[test]
    fn formats_depth_bytes() {
        assert_eq!(DepthFormat::D16.pixel_bytes(0x12_3456, 7), [0x56, 0x34]);
        assert_eq!(
            DepthFormat::D24.pixel_bytes(0x12_3456, 7),
            [0x56, 0x34, 0x12]
        );
        assert_eq!(
            DepthFormat::D24S8.pixel_bytes(0x12_3456, 7),
            [0x56, 0x34, 0x12, 7]
        );
    }

    #[test]
    fn formats_fill_words_repeats_three_byte_pixels() {
        assert_eq!(
            fill_words(&[1, 2, 3], 4),
            [0x0103_0201, 0x0201_0302, 0x0302_0103]
        );
        assert_eq!(fill_words(&[1, 2, 3], 1), [0x0003_0201]);
    }
}
