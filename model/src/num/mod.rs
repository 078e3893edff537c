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
/// depths ([`crate::rast::interp::depth_to_24`]); each use cites its source.
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

/// The low `n` bits set (`n` up to 32).
const fn low_mask(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}
