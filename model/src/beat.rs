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
}

impl Channel {
    /// The channel's name in files and reports (`regwrite`).
    pub fn name(self) -> &'static str {
        match self {
            Channel::RegWrite => "regwrite",
            Channel::ShaderIn => "shader_in",
            Channel::ShaderOut => "shader_out",
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
}

impl Beat {
    /// The cycle stamp of the beat.
    pub fn cycle(&self) -> u64 {
        match self {
            Beat::RegWrite(b) => b.cycle,
            Beat::ShaderIn(b) | Beat::ShaderOut(b) => b.cycle,
        }
    }

    /// The channel the beat crossed.
    pub fn channel(&self) -> Channel {
        match self {
            Beat::RegWrite(_) => Channel::RegWrite,
            Beat::ShaderIn(_) => Channel::ShaderIn,
            Beat::ShaderOut(_) => Channel::ShaderOut,
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
