//! Beats: what crosses a channel, with the cycle it crossed.
//!
//! Beats are the contract between the model, the golden vectors and the RTL (design.md
//! "Beats"). Payloads carry raw bits only. Each channel has its own payload type; [`Beat`] tags
//! one with its channel and cycle.

use serde::Serialize;

/// The channels whose traffic can be recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// CP → REGS: one register write per beat, recorded when REGS applies it.
    RegWrite,
    /// Into a shader unit: one input register loaded per beat.
    ShaderIn,
    /// Out of the shader units: one output register sent per beat.
    ShaderOut,
    /// PA → CLIP: one assembled triangle per beat (clip space, every semantic).
    Primitive,
    /// RAST → FOP: one fragment per beat.
    Fragment,
    /// FOP → memory: one pixel's colour and depth-stencil outcome per beat.
    Pixel,
    /// TEX ← memory: one texel (or ETC1 block) read per beat.
    Texel,
    /// Inside TEV: one combiner stage's output per beat (six per fragment).
    Combiner,
}

impl Channel {
    /// The channel's name in files and reports (`regwrite`).
    pub fn name(self) -> &'static str {
        match self {
            Channel::RegWrite => "regwrite",
            Channel::ShaderIn => "shader_in",
            Channel::ShaderOut => "shader_out",
            Channel::Primitive => "primitive",
            Channel::Fragment => "fragment",
            Channel::Pixel => "pixel",
            Channel::Texel => "texel",
            Channel::Combiner => "combiner",
        }
    }
}

/// One register write as REGS applied it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RegWriteBeat {
    /// Cycle in which REGS applied the write.
    pub cycle: u64,
    /// Register ID written (may exceed 0x2FF: such writes change nothing).
    pub id: u32,
    /// The command header's 4-bit byte-enable mask (bit n enables byte n).
    pub mask: u8,
    /// The parameter word as it appeared in the command list.
    pub param: u32,
    /// The full 32-bit register value after merging `param` under `mask` (0 for IDs above
    /// 0x2FF, which have no storage).
    pub value: u32,
}

/// One shader register crossing into or out of a unit, as raw f24 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ShaderBeat {
    /// Cycle of the transfer.
    pub cycle: u64,
    /// Shader unit 0-3.
    pub unit: u8,
    /// Vertex sequence number (VS) or GS invocation number.
    pub seq: u32,
    /// Register index: input register vN (shader_in) or output register oN (shader_out).
    pub reg: u8,
    /// x, y, z, w as 24-bit f24 patterns.
    pub xyzw: [u32; 4],
}

/// One triangle as primitive assembly sends it to clipping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PrimitiveBeat {
    /// Cycle PA sent it.
    pub cycle: u64,
    /// Triangle number of the run.
    pub seq: u32,
    /// Per vertex, the 24 semantics of seed 002 GPUREG_SH_OUTMAP_Oi as f24 bits (index =
    /// semantic value; see [`crate::pipe::semantic`]).
    pub v: [[u32; crate::pipe::NUM_SEMANTICS]; 3],
}

/// One fragment as the rasterizer sends it to the fragment pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct FragmentBeat {
    /// Cycle RAST sent it.
    pub cycle: u64,
    /// The triangle it belongs to.
    pub tri: u32,
    /// Pixel x.
    pub x: u16,
    /// Pixel y (window coordinates).
    pub y: u16,
    /// Depth, 16 or 24 bits per the depth buffer format ([`crate::pipe::Fragment::depth`]).
    pub depth: u32,
    /// Primary colour as `r | g << 8 | b << 16 | a << 24`.
    pub color: u32,
    /// Every interpolated semantic as f24 bits.
    pub attr: [u32; crate::pipe::NUM_SEMANTICS],
}

/// What the fragment operations did with one fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PixelBeat {
    /// Cycle FOP finished it.
    pub cycle: u64,
    /// Pixel x.
    pub x: u16,
    /// Pixel y (window coordinates).
    pub y: u16,
    /// Physical address of the colour pixel.
    pub color_addr: u32,
    /// The colour pixel's stored bits after the write (format-sized, little end = lowest address).
    pub color: u32,
    /// Physical address of the depth-stencil pixel.
    pub depth_addr: u32,
    /// The depth-stencil pixel's stored bits after the write.
    pub depth_stencil: u32,
    /// Bit 0: colour written, bit 1: depth written, bit 2: stencil written, bit 3: the
    /// fragment was discarded (alpha, stencil or depth test failed).
    pub flags: u8,
}

impl PixelBeat {
    /// [`PixelBeat::flags`]: the colour buffer was written.
    pub const COLOR_WRITTEN: u8 = 1;
    /// [`PixelBeat::flags`]: the depth buffer was written.
    pub const DEPTH_WRITTEN: u8 = 2;
    /// [`PixelBeat::flags`]: the stencil buffer was written.
    pub const STENCIL_WRITTEN: u8 = 4;
    /// [`PixelBeat::flags`]: a test discarded the fragment.
    pub const DISCARDED: u8 = 8;
}

/// One texel read by a texture unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TexelBeat {
    /// Cycle TEX read it.
    pub cycle: u64,
    /// Pixel x of the fragment it is for.
    pub x: u16,
    /// Pixel y of the fragment it is for.
    pub y: u16,
    /// Texture unit 0-2.
    pub unit: u8,
    /// Physical byte address read (the texel, or the ETC1 / ETC1A4 block holding it).
    pub addr: u32,
    /// The bytes read, little-endian ([`crate::tex::TexelFetch::raw`]).
    pub raw: u128,
    /// The decoded texel as `r | g << 8 | b << 16 | a << 24`.
    pub rgba: u32,
}

/// One texture-combiner stage's output for one fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CombinerBeat {
    /// Cycle TEV computed it.
    pub cycle: u64,
    /// Pixel x.
    pub x: u16,
    /// Pixel y.
    pub y: u16,
    /// Combiner stage 0-5.
    pub stage: u8,
    /// The stage's output as `r | g << 8 | b << 16 | a << 24`.
    pub color: u32,
    /// The combiner buffer after the stage, same packing.
    pub buffer: u32,
}

/// A beat on any channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "channel", rename_all = "snake_case")]
pub enum Beat {
    /// A register-write beat.
    RegWrite(RegWriteBeat),
    /// A shader input register.
    ShaderIn(ShaderBeat),
    /// A shader output register.
    ShaderOut(ShaderBeat),
    /// An assembled triangle.
    Primitive(PrimitiveBeat),
    /// A fragment.
    Fragment(FragmentBeat),
    /// A pixel outcome.
    Pixel(PixelBeat),
    /// A texel read.
    Texel(TexelBeat),
    /// A combiner stage output.
    Combiner(CombinerBeat),
}

impl Beat {
    /// The cycle stamp of the beat.
    pub fn cycle(&self) -> u64 {
        match self {
            Beat::RegWrite(b) => b.cycle,
            Beat::ShaderIn(b) | Beat::ShaderOut(b) => b.cycle,
            Beat::Primitive(b) => b.cycle,
            Beat::Fragment(b) => b.cycle,
            Beat::Pixel(b) => b.cycle,
            Beat::Texel(b) => b.cycle,
            Beat::Combiner(b) => b.cycle,
        }
    }

    /// The channel the beat crossed.
    pub fn channel(&self) -> Channel {
        match self {
            Beat::RegWrite(_) => Channel::RegWrite,
            Beat::ShaderIn(_) => Channel::ShaderIn,
            Beat::ShaderOut(_) => Channel::ShaderOut,
            Beat::Primitive(_) => Channel::Primitive,
            Beat::Fragment(_) => Channel::Fragment,
            Beat::Pixel(_) => Channel::Pixel,
            Beat::Texel(_) => Channel::Texel,
            Beat::Combiner(_) => Channel::Combiner,
        }
    }
}

/// Expands the 4-bit byte-enable mask of a command header into a 32-bit bit mask
/// (seed 002 "Parameter masking": bit 16 of the header enables the least significant byte).
pub const fn expand_byte_mask(mask: u8) -> u32 {
    let mut out = 0u32;
    let mut i = 0;
    while i < 4 {
        if mask & (1 << i) != 0 {
            out |= 0xFF << (8 * i);
        }
        i += 1;
    }
    out
}

/// Merges `param` into `old` under a 4-bit byte-enable mask: only enabled bytes change.
pub const fn merge_masked(old: u32, param: u32, mask: u8) -> u32 {
    let m = expand_byte_mask(mask);
    (old & !m) | (param & m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beat_byte_mask_expansion() {
        assert_eq!(expand_byte_mask(0x0), 0);
        assert_eq!(expand_byte_mask(0x1), 0x0000_00FF);
        assert_eq!(expand_byte_mask(0x5), 0x00FF_00FF);
        assert_eq!(expand_byte_mask(0x6), 0x00FF_FF00);
        assert_eq!(expand_byte_mask(0xF), 0xFFFF_FFFF);
    }

    #[test]
    fn beat_masked_merge_changes_only_enabled_bytes() {
        assert_eq!(merge_masked(0x1122_3344, 0xAABB_CCDD, 0x1), 0x1122_33DD);
        assert_eq!(merge_masked(0x1122_3344, 0xAABB_CCDD, 0x6), 0x11BB_CC44);
        assert_eq!(merge_masked(0x1122_3344, 0xAABB_CCDD, 0x0), 0x1122_3344);
        assert_eq!(merge_masked(0x1122_3344, 0xAABB_CCDD, 0x8), 0xAA22_3344);
    }
}
