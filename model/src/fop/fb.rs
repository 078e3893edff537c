//! Framebuffer formats, block tiling and read-out.
//!
//! STUB: filled in by the fragment-operations work of issue 5.

use crate::mem::Memory;
use crate::regfile::RegFile;

/// A de-tiled image, top row first, 8-bit RGBA (for PNG) or 8-bit grey depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, RGBA, rows top first.
    pub rgba: Vec<u8>,
}

/// The colour buffer the registers describe (COLORBUFFER_LOC / FORMAT, FRAMEBUFFER_DIM,
/// FRAMEBUFFER_BLOCK32), de-tiled and converted to RGBA8, top row first.
pub fn read_color_image(regs: &RegFile, mem: &Memory) -> Image {
    let _ = (regs, mem);
    Image {
        width: 0,
        height: 0,
        rgba: Vec::new(),
    }
}

/// The depth buffer (DEPTHBUFFER_LOC / FORMAT), de-tiled, depth scaled to 8-bit grey
/// (RGBA with alpha 255), top row first.
pub fn read_depth_image(regs: &RegFile, mem: &Memory) -> Image {
    let _ = (regs, mem);
    Image {
        width: 0,
        height: 0,
        rgba: Vec::new(),
    }
}
