//! FOG: fog and gas.
//!
//! GPUREG_TEXENV_UPDATE_BUFFER bits 0-2 select the mode: 0 nothing, 5 fog (here), 7 gas
//! ([`gas`]). Fog replaces each RGB channel of the combiner output by
//! `color·f + fog_color·(1 − f)`, `f` read from the 128-entry fog LUT (seed 002
//! GPUREG_FOG_LUT_DATAi) at the fragment's depth; alpha is unchanged.
//!
//! ## Exact arithmetic (all integer)
//!
//! 1. **Fog coordinate** `z` (24 bits): the fragment's quantized depth widened to 24 bits from
//!    the depth buffer's `bits` (GPUREG_DEPTHBUFFER_FORMAT: 16 or 24) by bit replication
//!    (D16: `d << 8 | d >> 8`), the rule the gas and shadow modes use too
//!    ([`crate::num::depth_to_24`]); with the z-flip bit (UPDATE_BUFFER bit 16)
//!    `z = 0xFFFFFF − z`.
//! 2. **Lookup**: index `i = z >> 17` (0-127), fraction `t = z & 0x1FFFF` (17 bits, units of
//!    2^-17 of one entry).
//! 3. **Factor** `F = value·2^17 + difference·t` in units of 2^-28 (value: unsigned 0.0.11,
//!    difference: two's-complement 1.1.11, both in units of 2^-11), clamped to [0, 2^28]
//!    ([`fog_factor`]).
//! 4. **Blend** per RGB channel: `(color·F + fog·(2^28 − F)) >> 28`, truncating ([`blend`]).
//!
//! UNVERIFIED(hw) [fact: fog-index]: Azahar `sw_rasterizer.cpp` `WriteFog` does the same in host float: its
//! input is the clamped float depth after the depth map before quantization, `index =
//! depth·128` (flipped: `(1 − depth)·128`), `floor` clamped to 0-127, the fraction the rest,
//! `factor = value/2048 + difference/2048 · fraction` clamped to [0, 1], and the blend
//! truncated by `static_cast<u8>`. The model's 24-bit fixed-point coordinate (from the
//! quantized depth, widened by replication so that a D16 far plane 0xFFFF is 0xFFFFFF as
//! Azahar's depth 1.0 is), the flip as `0xFFFFFF − z` and the exact 28-bit factor are model
//! choices that agree with it up to the float rounding and the depth quantization.

pub mod gas;

use crate::knobs::{FogDepthWiden, FogReservedModes, RastDepthFormat1};
use crate::pipe::ShadedFragment;
use crate::regfile::RegFile;
use crate::regs::{self, id, DepthbufferFormatFormat, TexenvUpdateBufferFogMode};

/// Bits of the fog coordinate.
///
/// UNVERIFIED(hw) [fact: fog-index]: 24 (the depth buffer's widest format) — model choice.
pub const FOG_Z_BITS: u32 = 24;

/// Bits of the fog coordinate below the LUT index (7 index bits for 128 entries, seed 002).
pub const FOG_FRAC_BITS: u32 = FOG_Z_BITS - 7;

/// Fractional bits of LUT values and differences (seed 002: fixed0.0.11, fixed1.1.11).
pub const FOG_LUT_FRAC_BITS: u32 = 11;

/// Fractional bits of the fog factor: LUT units times interpolation units.
pub const FOG_FACTOR_BITS: u32 = FOG_LUT_FRAC_BITS + FOG_FRAC_BITS;

/// The fog factor 1.0 (the colour unchanged).
pub const FOG_FACTOR_ONE: i64 = 1 << FOG_FACTOR_BITS;

/// Applies fog or gas (GPUREG_TEXENV_UPDATE_BUFFER fog mode) to `f.color`.
///
/// UNVERIFIED(hw) [fact: fog-reserved-modes]: fog modes other than 5 and 7 (1-4, 6) do nothing, as mode 0 — Azahar
/// acts only on 5 (fog) and 7 (gas). Knob `fog-reserved-modes=fog` makes them fog.
pub fn apply(f: &mut ShadedFragment, regs: &RegFile) {
    let update = regs::TexenvUpdateBuffer(regs.reg(id::TEXENV_UPDATE_BUFFER.into()));
    let fog = match update.fog_mode() {
        TexenvUpdateBufferFogMode::Gas => {
            gas::apply(f, regs);
            false
        }
        TexenvUpdateBufferFogMode::Fog => true,
        // Knob `fog-reserved-modes=fog`: modes 1-4 and 6 act as mode 5.
        TexenvUpdateBufferFogMode::Reserved(_) => {
            regs.knobs().fog_reserved_modes == FogReservedModes::Fog
        }
        _ => false,
    };
    if fog {
        {
            let z = fog_coordinate(f.frag.depth, regs);
            let factor = fog_factor(&regs.luts().fog, z);
            let fog = regs.reg(id::FOG_COLOR.into()).to_le_bytes();
            for (c, &k) in f.color.iter_mut().zip(fog.iter()).take(3) {
                *c = blend(*c, k, factor);
            }
            tracing::trace!(target: "fog", x = f.frag.x, y = f.frag.y, z, factor, "fog");
        }
    }
}

/// The 24-bit fog coordinate of a fragment depth (in the depth buffer format's bits): widened
/// by replication (knob `fog-depth-widen=shift`: by a shift), complemented when
/// GPUREG_TEXENV_UPDATE_BUFFER's z flip is set.
pub fn fog_coordinate(depth: u32, regs: &RegFile) -> u32 {
    let update = regs::TexenvUpdateBuffer(regs.reg(id::TEXENV_UPDATE_BUFFER.into()));
    let bits = depth_bits(regs);
    let z = match regs.knobs().fog_depth_widen {
        FogDepthWiden::Replicate => crate::num::depth_to_24(depth, bits),
        FogDepthWiden::Shift => (depth << (24 - bits.min(24))) & 0xFF_FFFF,
    };
    if update.z_flip() {
        fog_flip(z)
    } else {
        z
    }
}

/// Bits of the depth values RAST produces (GPUREG_DEPTHBUFFER_FORMAT), as
/// [`crate::rast::config::RastConfig`] decodes them.
pub fn depth_bits(regs: &RegFile) -> u32 {
    match regs::DepthbufferFormat(regs.reg(id::DEPTHBUFFER_FORMAT.into())).format() {
        DepthbufferFormatFormat::D16 => 16,
        DepthbufferFormatFormat::D24 | DepthbufferFormatFormat::D24S8 => 24,
        DepthbufferFormatFormat::Reserved(_) => match regs.knobs().rast_depth_format1 {
            RastDepthFormat1::D24 => crate::rast::config::RESERVED_DEPTH_FORMAT_BITS,
            RastDepthFormat1::D16 => 16,
        },
    }
}

/// The z-flipped fog coordinate, `0xFFFFFF − z`.
///
/// UNVERIFIED(hw) [fact: fog-index]: Azahar computes `1 − depth`; the 24-bit complement is the model's form.
pub fn fog_flip(z: u32) -> u32 {
    let mask = (1u32 << FOG_Z_BITS) - 1;
    mask - (z & mask)
}

/// The fog factor at coordinate `z` (24 bits) from the fog LUT (raw words), in units of
/// 2^-[`FOG_FACTOR_BITS`], clamped to `0..=`[`FOG_FACTOR_ONE`]. A missing entry reads 0.
pub fn fog_factor(lut: &[u32], z: u32) -> i64 {
    let z = z & ((1 << FOG_Z_BITS) - 1);
    let index = (z >> FOG_FRAC_BITS) as usize;
    let t = i64::from(z & ((1 << FOG_FRAC_BITS) - 1));
    let e = regs::FogLutEntry(lut.get(index).copied().unwrap_or(0));
    let value = i64::from(e.value());
    // fixed1.1.11: 13-bit two's complement.
    let diff = i64::from(((e.difference() << 19) as i32) >> 19);
    (value * (1 << FOG_FRAC_BITS) + diff * t).clamp(0, FOG_FACTOR_ONE)
}

/// One channel of the fog blend: `(color·F + fog·(1 − F))`, truncated to 8 bits. `factor` is
/// clamped to `0..=`[`FOG_FACTOR_ONE`] first.
pub fn blend(color: u8, fog: u8, factor: i64) -> u8 {
    let f = factor.clamp(0, FOG_FACTOR_ONE);
    let v = (i64::from(color) * f + i64::from(fog) * (FOG_FACTOR_ONE - f)) >> FOG_FACTOR_BITS;
    v.clamp(0, 255) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fog_factor_negative_difference_sign_extends() {
        // value 1024 (0.5), difference 0x1C00 = -1024 (-0.5): halfway through entry 0 → 0.25.
        let lut = [1024 << 13 | 0x1C00];
        assert_eq!(fog_factor(&lut, 1 << 16), 1 << 26);
    }

    #[test]
    fn fog_factor_clamps_to_one_and_zero() {
        // value 2047, difference +1 → above 1 near the end of entry 0 → clamp.
        let lut = [2047 << 13 | 0x0FFF];
        assert_eq!(fog_factor(&lut, 0x1FFFF), FOG_FACTOR_ONE);
        let lut = [0x1FFF];
        assert_eq!(fog_factor(&lut, 0x10000), 0);
    }
}
