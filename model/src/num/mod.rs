//! Bit-exact PICA200 number formats.
//!
//! Every value the hardware holds is one of these newtypes over its raw bits; arithmetic on them
//! is defined by the units that compute, which round back to these formats by a documented rule.
//! Equality and hashing compare bits. `Display` shows the hex bits and the exact decimal value
//! (`0x3f0000 (1)`); `Serialize` writes the hex bits as a string (`"0x3f0000"`) and
//! `Deserialize` reads that form back, rejecting bits outside the format.
//!
//! Floats ([`Float`]`<E, M>`: sign, `E` exponent bits with bias `2^(E-1) - 1`, `M` mantissa
//! bits; IEEE-like encoding of zeros, subnormals, infinities and NaN):
//!
//! | type    | doc name    | bits | used for |
//! |---------|-------------|------|----------|
//! | [`F24`] | float1.7.16 | 24   | shader registers, uniforms, attributes, viewport/depth |
//! | [`F16`] | float1.5.10 | 16   | lighting, fog/gas, procedural texture parameters |
//! | [`F20`] | float1.7.12 | 20   | light distance attenuation |
//! | [`F31`] | float1.7.23 | 31   | viewport steps, in register bits 1-31 |
//!
//! Rounding rules of the conversions (details on each function):
//!
//! | conversion | rule |
//! |------------|------|
//! | [`Float::to_f64`], [`Float::to_f32_bits`] | exact |
//! | [`F24::from_f16`], [`F24::from_f20`] | exact |
//! | [`Float::from_f32_bits`], [`Float::from_float`] | truncate toward zero; overflow → ±inf; underflow truncates through the subnormals to a signed zero; NaN keeps its top payload bits (non-zero) |
//! | [`Float::from_f64_trunc`] | truncate toward zero; overflow → ±inf; below the smallest normal (and -0) → +0; every NaN → canonical [`Float::NAN`] |
//! | [`Float::flush_subnormal`] | exponent 0 → +0 (the ALU's input/output flush) |
//! | [`Fixed::from_f64_trunc`] | toward zero, saturating, NaN → 0 |
//! | [`Fixed::from_f64_round`] | nearest, ties away from zero, saturating, NaN → 0 |
//!
//! Fixed point ([`Fixed`]`<SIGN, INT, FRAC>`, the docs' `fixedS.I.F`, two's complement when
//! signed): [`Fix0_0_11`], [`Fix0_0_12`], [`Fix0_0_24`], [`Fix0_16_8`], [`Fix1_0_11`],
//! [`Fix1_0_7`], [`Fix1_1_11`], [`Fix1_3_12`], [`Fix1_4_8`], [`Fix12_4`].

mod codec;
mod fixed;
mod float;
mod text;

pub use fixed::{
    Fix0_0_11, Fix0_0_12, Fix0_0_24, Fix0_16_8, Fix12_4, Fix1_0_11, Fix1_0_7, Fix1_1_11, Fix1_3_12,
    Fix1_4_8, Fixed,
};
pub use float::{Float, F16, F20, F24, F31};

/// Widens the low `from` bits of `v` to `to` bits by bit replication: the value's bits, then
/// its top bits again below them until `to` bits are filled (`0b10110` from 5 to 8 bits is
/// `0b10110101`; 0xFFFF from 16 to 24 bits is 0xFFFFFF). `from` is clamped to `1..=to` and
/// `to` to `1..=32`; `from == to` returns `v` masked.
///
/// The one widening rule of the model's colour channels ([`crate::fop::fb`]) and 24-bit
/// depths ([`depth_to_24`]); each use cites its source.
pub const fn replicate_bits(v: u32, from: u32, to: u32) -> u32 {
    let to = if to < 1 {
        1
    } else if to > 32 {
        32
    } else {
        to
    };
    let from = if from < 1 {
        1
    } else if from > to {
        to
    } else {
        from
    };
    let mut out = (v & low_mask(from)) << (to - from);
    // The top `filled` bits hold copies of the value; each step doubles them.
    let mut filled = from;
    while filled < to {
        out |= out >> filled;
        filled *= 2;
    }
    out & low_mask(to)
}

/// Widens a `bits`-bit depth value (a depth as
/// [`crate::rast::interp::depth_to_uint`] quantized it for the depth
/// buffer, or a stored one) to 24 bits by bit replication: the value's bits, then its top bits
/// again below them until 24 bits are filled. For 16 bits that is `d << 8 | d >> 8`: 0xFFFF
/// becomes 0xFFFFFF, 0x8000 becomes 0x800080. `bits` is clamped to 1..=24 and `depth` masked
/// to it; a 24-bit depth passes unchanged.
///
/// The model's one widening rule for depths, used wherever a 24-bit depth is needed whatever
/// the depth buffer format: FOG's fog coordinate ([`crate::fog`]) and the gas and shadow
/// fragment modes of FOP ([`crate::fop::gas`], [`crate::fop::shadow`], through
/// [`crate::fop::depth_to_24`]). Several stages share it, so it lives with the number code
/// rather than in one of them.
///
/// UNVERIFIED(hw) [fact: rast-depth-widen]: model choice; no source says how the hardware widens a D16 depth in these
/// places. Azahar feeds all three the unquantized depth instead (a float in [0, 1]:
/// `sw_rasterizer.cpp` `WriteFog` and `depth * 0xFFFFFF` for `DrawShadowMapPixel`; the GLSL
/// generator's `WriteFog` and `WriteShadow`). Replication is the integer rule closest to that:
/// a D16 depth `d = floor(x · 0xFFFF)` stands for `x · 0xFFFFFF ≈ d · 0xFFFFFF / 0xFFFF =
/// d · 256 + d / 257`, about `d << 8 | d >> 8`, and both ends map to the ends (0xFFFF →
/// 0xFFFFFF, the far plane), where a shift (`d << 8`) would leave the far plane at 0xFFFF00.
pub const fn depth_to_24(depth: u32, bits: u32) -> u32 {
    replicate_bits(depth, bits, 24)
}

/// The low `n` bits set (`n` up to 32).
const fn low_mask(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rast_depth_to_24_replicates_bits() {
        assert_eq!(depth_to_24(0xFFFF, 16), 0xFF_FFFF);
        assert_eq!(depth_to_24(0x8000, 16), 0x80_0080);
        assert_eq!(depth_to_24(0x1234, 16), 0x12_3412);
        assert_eq!(depth_to_24(0, 16), 0);
        // Bits above the width are dropped.
        assert_eq!(depth_to_24(0x1_00FF, 16), 0x00_FF00);
        assert_eq!(depth_to_24(0x12_3456, 24), 0x12_3456);
        assert_eq!(depth_to_24(0xFF12_3456, 40), 0x12_3456);
        // 5 bits 10110: 10110 10110 10110 10110 1011.
        assert_eq!(depth_to_24(0b10110, 5), 0b1011_0101_1010_1101_0110_1011);
        // Width 0 counts as 1: a 1-bit 1 fills every bit.
        assert_eq!(depth_to_24(u32::MAX, 0), 0xFF_FFFF);
    }
}
