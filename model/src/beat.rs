//! Beats: what crosses a channel, with the cycle it crossed.
//!
//! Beats are the contract between the model, the golden vectors and the RTL (design.md
//! "Beats"). Payloads carry raw bits only. Each channel has its own payload type; [`Beat`] tags
//! one with its channel and cycle.

use crate::chan::spec::{Payload, PayloadSpec};
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
    /// Inside a shader unit: one retired instruction per beat (the commit trace).
    Commit,
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
    /// TEX → LIGHT: one fragment's four texture-unit colours per beat.
    TexColor,
}

impl Channel {
    /// Every channel, in declaration order (the `CH_*` numbers of `pica_chan_pkg.sv`).
    pub const ALL: [Channel; 10] = [
        Channel::RegWrite,
        Channel::ShaderIn,
        Channel::ShaderOut,
        Channel::Commit,
        Channel::Primitive,
        Channel::Fragment,
        Channel::Pixel,
        Channel::Texel,
        Channel::Combiner,
        Channel::TexColor,
    ];

    /// The channel's name in files and reports (`regwrite`).
    pub fn name(self) -> &'static str {
        match self {
            Channel::RegWrite => "regwrite",
            Channel::ShaderIn => "shader_in",
            Channel::ShaderOut => "shader_out",
            Channel::Commit => "commit",
            Channel::Primitive => "primitive",
            Channel::Fragment => "fragment",
            Channel::Pixel => "pixel",
            Channel::Texel => "texel",
            Channel::TexColor => "tex_color",
            Channel::Combiner => "combiner",
        }
    }

    /// The channel with this name.
    pub fn from_name(name: &str) -> Option<Channel> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Where the channel sits and when a beat is recorded.
    pub fn doc(self) -> &'static str {
        match self {
            Channel::RegWrite => "CP → REGS: one register write, recorded when REGS applies it.",
            Channel::ShaderIn => {
                "VL → SH: one input register loaded into a unit (reg vN; a GS invocation's \
                 float uniform cN written by its input assembler — fixed and variable modes, \
                 variable mode's vertex count in c0 — as reg 0x20 + N)."
            }
            Channel::ShaderOut => "SH → PA: one output register sent on.",
            Channel::Commit => {
                "Inside SH: one retired instruction of a unit, in program order per vertex."
            }
            Channel::Primitive => "PA → CLIP: one assembled triangle, every semantic.",
            Channel::Fragment => "RAST → TEX: one fragment with its interpolated semantics.",
            Channel::Pixel => "FOP → memory: one fragment's colour and depth-stencil outcome.",
            Channel::Texel => "memory → TEX: one texel (or ETC1 block) read.",
            Channel::Combiner => "Inside TEV: one combiner stage's output (six per fragment).",
            Channel::TexColor => {
                "TEX → LIGHT: one fragment's colours of texture units 0-3 (one per fragment)."
            }
        }
    }

    /// The channel's payload (its row of the channel table).
    pub fn payload(self) -> &'static PayloadSpec {
        match self {
            Channel::RegWrite => RegWriteBeat::SPEC,
            Channel::ShaderIn | Channel::ShaderOut => ShaderBeat::SPEC,
            Channel::Commit => CommitBeat::SPEC,
            Channel::Primitive => PrimitiveBeat::SPEC,
            Channel::Fragment => FragmentBeat::SPEC,
            Channel::Pixel => PixelBeat::SPEC,
            Channel::Texel => TexelBeat::SPEC,
            Channel::Combiner => CombinerBeat::SPEC,
            Channel::TexColor => TexColorBeat::SPEC,
        }
    }
}

// The channel table (design.md "One channel table"): every payload declared once, field by
// field with its packed width; see `crate::chan` for what is derived from it.
crate::channels! {
    /// One register write as REGS applied it.
    RegWriteBeat pads [cycle 11] {
        /// Cycle in which REGS applied the write.
        cycle: u64 = 32 Scalar Dec;
        /// The command header's 4-bit byte-enable mask (bit n enables byte n).
        mask: u8 = 4 Scalar Hex;
        /// Register ID written (header ID + n may reach 0x100FE; such writes change nothing).
        id: u32 = 17 Scalar HexMin(3);
        /// The parameter word as it appeared in the command list.
        param: u32 = 32 Scalar Hex;
        /// The full 32-bit register value after merging `param` under `mask` (0 for IDs above
        /// 0x2FF, which have no storage).
        value: u32 = 32 Scalar Hex;
    }

    /// One shader register crossing into or out of a unit, as raw f24 bits.
    ShaderBeat pads [] {
        /// Cycle of the transfer.
        cycle: u64 = 32 Scalar Dec;
        /// Shader unit 0-3.
        unit: u8 = 8 Scalar Dec;
        /// Vertex sequence number (VS) or GS invocation number.
        seq: u32 = 32 Scalar Dec;
        /// Register index: input register vN (shader_in) or output register oN (shader_out).
        reg: u8 = 8 Scalar Dec;
        /// x, y, z, w as 24-bit f24 patterns.
        xyzw: [u32; 4] = 24 [4] Lanes Hex;
    }

    /// One instruction a shader unit retired (or hung on): what it wrote and the unit's
    /// control state after it. Compared keyed by (unit kind, vertex sequence) in program
    /// order, so unit assignment and latency may differ between model and RTL.
    CommitBeat pads [] {
        /// Cycle the instruction retired.
        cycle: u64 = 32 Scalar Dec;
        /// Shader unit 0-3.
        unit: u8 = 8 Scalar Dec;
        /// Vertex sequence number (VS), or bit 31 set + the GS invocation number (GS), so
        /// the two kinds never share a key.
        seq: u32 = 32 Scalar Dec;
        /// Word address of the instruction.
        pc: u16 = 12 Scalar Hex;
        /// The instruction word.
        word: u32 = 32 Scalar Hex;
        /// Destination as encoded (0x00-0x0F o0-o15, 0x10-0x1F r0-r15); 0xFF: no o/r write.
        dst: u8 = 8 Scalar Hex;
        /// Lanes written (bit 3 = x .. bit 0 = w).
        mask: u8 = 4 Scalar Hex;
        /// The whole destination register after the write (f24 bits); zero without one.
        result: [u32; 4] = 24 [4] Lanes Hex;
        /// cmp.x (bit 0) and cmp.y (bit 1) after the instruction.
        cmp: u8 = 2 Scalar Dec;
        /// a0.x after the instruction.
        a0x: i32 = 32 Scalar Signed;
        /// a0.y after the instruction.
        a0y: i32 = 32 Scalar Signed;
        /// The loop counter aL after the instruction.
        al: i32 = 32 Scalar Signed;
        /// The PC after the instruction (after the stacks' checks).
        next_pc: u16 = 12 Scalar Hex;
        /// The instruction was an EMIT.
        emit: bool = 1 Scalar Bool;
        /// 0: retired; 1 BREAK on an empty LOOP stack, 2 two MOVAs back to back, 3 PC past
        /// the end of code, 4 unknown opcode (the unit hangs on this instruction).
        hang: u8 = 3 Scalar Dec;
        /// The instruction was END.
        end: bool = 1 Scalar Bool;
    }

    /// One triangle as primitive assembly sends it to clipping.
    PrimitiveBeat pads [] {
        /// Cycle PA sent it.
        cycle: u64 = 32 Scalar Dec;
        /// Triangle number of the run.
        seq: u32 = 32 Scalar Dec;
        /// Per vertex, the 24 semantics of seed 002 GPUREG_SH_OUTMAP_Oi as f24 bits (index =
        /// semantic value; see `crate::pipe::semantic`).
        v: [[u32; crate::pipe::NUM_SEMANTICS]; 3] = 24 [72] VertexSemantic Hex;
    }

    /// One fragment as the rasterizer sends it to the fragment pipeline.
    FragmentBeat pads [] {
        /// Cycle RAST sent it.
        cycle: u64 = 32 Scalar Dec;
        /// The triangle it belongs to.
        tri: u32 = 32 Scalar Dec;
        /// Pixel x.
        x: u16 = 16 Scalar Dec;
        /// Pixel y (window coordinates).
        y: u16 = 16 Scalar Dec;
        /// Depth, 16 or 24 bits per the depth buffer format (`crate::pipe::Fragment::depth`).
        depth: u32 = 24 Scalar Hex;
        /// Primary colour as `r | g << 8 | b << 16 | a << 24`.
        color: u32 = 32 Scalar Hex;
        /// Every interpolated semantic as f24 bits.
        attr: [u32; crate::pipe::NUM_SEMANTICS] = 24 [24] Semantic Hex;
    }

    /// What the fragment operations did with one fragment.
    PixelBeat pads [] {
        /// Cycle FOP finished it.
        cycle: u64 = 32 Scalar Dec;
        /// Pixel x.
        x: u16 = 16 Scalar Dec;
        /// Pixel y (window coordinates).
        y: u16 = 16 Scalar Dec;
        /// Physical address of the colour pixel.
        color_addr: u32 = 32 Scalar Hex;
        /// The colour pixel's stored bits after the write (format-sized, little end = lowest
        /// address).
        color: u32 = 32 Scalar Hex;
        /// Physical address of the depth-stencil pixel.
        depth_addr: u32 = 32 Scalar Hex;
        /// The depth-stencil pixel's stored bits after the write.
        depth_stencil: u32 = 32 Scalar Hex;
        /// Bit 0: colour written, bit 1: depth written, bit 2: stencil written, bit 3: the
        /// fragment was discarded (alpha, stencil or depth test failed).
        flags: u8 = 8 Scalar Dec;
    }

    /// One texel read by a texture unit.
    TexelBeat pads [] {
        /// Cycle TEX read it.
        cycle: u64 = 32 Scalar Dec;
        /// Pixel x of the fragment it is for.
        x: u16 = 16 Scalar Dec;
        /// Pixel y of the fragment it is for.
        y: u16 = 16 Scalar Dec;
        /// Texture unit 0-2.
        unit: u8 = 8 Scalar Dec;
        /// Physical byte address read (the texel, or the ETC1 / ETC1A4 block holding it).
        addr: u32 = 32 Scalar Hex;
        /// The bytes read, little-endian (`crate::tex::TexelFetch::raw`): the texel, or the
        /// 8-/16-byte ETC1/ETC1A4 block.
        raw: u128 = 128 Scalar Hex;
        /// The decoded texel as `r | g << 8 | b << 16 | a << 24`.
        rgba: u32 = 32 Scalar Hex;
    }

    /// One texture-combiner stage's output for one fragment.
    CombinerBeat pads [] {
        /// Cycle TEV computed it.
        cycle: u64 = 32 Scalar Dec;
        /// Pixel x.
        x: u16 = 16 Scalar Dec;
        /// Pixel y.
        y: u16 = 16 Scalar Dec;
        /// Combiner stage 0-5.
        stage: u8 = 8 Scalar Dec;
        /// The stage's output as `r | g << 8 | b << 16 | a << 24`.
        color: u32 = 32 Scalar Hex;
        /// The combiner buffer after the stage, same packing.
        buffer: u32 = 32 Scalar Hex;
    }

    /// One fragment's texture-unit colours as TEX hands them on.
    TexColorBeat pads [] {
        /// Cycle TEX computed them.
        cycle: u64 = 32 Scalar Dec;
        /// Pixel x.
        x: u16 = 16 Scalar Dec;
        /// Pixel y.
        y: u16 = 16 Scalar Dec;
        /// Texture unit 0's colour as `r | g << 8 | b << 16 | a << 24` (0: disabled).
        unit0: u32 = 32 Scalar Hex;
        /// Texture unit 1's colour, same packing.
        unit1: u32 = 32 Scalar Hex;
        /// Texture unit 2's colour, same packing.
        unit2: u32 = 32 Scalar Hex;
        /// Texture unit 3's (the procedural texture's) colour, same packing.
        unit3: u32 = 32 Scalar Hex;
    }
}

impl CommitBeat {
    /// Bit 31 of [`CommitBeat::seq`]: the instruction belongs to a GS invocation, the low
    /// bits are its invocation number.
    pub const GS_SEQ_FLAG: u32 = 1 << 31;

    /// The beat of `commit`, retired by `unit` in `cycle` for vertex (or GS invocation) `seq`.
    pub fn new(cycle: u64, unit: u8, seq: u32, c: &crate::shader::interp::Commit) -> Self {
        Self {
            cycle,
            unit,
            seq,
            pc: c.pc,
            word: c.word,
            dst: c.dst,
            mask: c.mask,
            result: c.result,
            cmp: c.cmp,
            a0x: c.a0x,
            a0y: c.a0y,
            al: c.al,
            next_pc: c.next_pc,
            emit: c.emit,
            hang: c.hang,
            end: c.end,
        }
    }
}

impl TexColorBeat {
    /// The beat of `frag`'s unit colours `tex` (`[r, g, b, a]` each), computed in `cycle`.
    pub fn of(cycle: u64, frag: &crate::pipe::Fragment, tex: [[u8; 4]; 4]) -> Self {
        let [unit0, unit1, unit2, unit3] = tex.map(u32::from_le_bytes);
        Self {
            cycle,
            x: frag.x,
            y: frag.y,
            unit0,
            unit1,
            unit2,
            unit3,
        }
    }
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
    /// A retired shader instruction.
    Commit(CommitBeat),
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
    /// A fragment's texture-unit colours.
    TexColor(TexColorBeat),
}

impl Beat {
    /// The cycle stamp of the beat.
    pub fn cycle(&self) -> u64 {
        match self {
            Beat::RegWrite(b) => b.cycle,
            Beat::ShaderIn(b) | Beat::ShaderOut(b) => b.cycle,
            Beat::Commit(b) => b.cycle,
            Beat::Primitive(b) => b.cycle,
            Beat::Fragment(b) => b.cycle,
            Beat::Pixel(b) => b.cycle,
            Beat::Texel(b) => b.cycle,
            Beat::Combiner(b) => b.cycle,
            Beat::TexColor(b) => b.cycle,
        }
    }

    /// The channel the beat crossed.
    pub fn channel(&self) -> Channel {
        match self {
            Beat::RegWrite(_) => Channel::RegWrite,
            Beat::ShaderIn(_) => Channel::ShaderIn,
            Beat::ShaderOut(_) => Channel::ShaderOut,
            Beat::Commit(_) => Channel::Commit,
            Beat::Primitive(_) => Channel::Primitive,
            Beat::Fragment(_) => Channel::Fragment,
            Beat::Pixel(_) => Channel::Pixel,
            Beat::Texel(_) => Channel::Texel,
            Beat::Combiner(_) => Channel::Combiner,
            Beat::TexColor(_) => Channel::TexColor,
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
