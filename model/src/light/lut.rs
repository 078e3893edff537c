//! Lighting LUT addressing and interpolation.
//!
//! A lighting LUT has 256 entries (seed 002 GPUREG_LIGHTING_LUT_DATAi). Entry format (bits of
//! the 24-bit word kept by [`crate::regfile::luts`]):
//!
//! | bits  | meaning |
//! |-------|---------|
//! | 0-11  | value, fixed0.0.12: `value / 4096` |
//! | 12-22 | magnitude of the difference to the next entry, `mag / 2048` |
//! | 23    | sign of the difference (1 = negative) |
//!
//! UNVERIFIED(hw) [fact: light-lut-format]: the difference is sign-magnitude in units of 1/2048 — seed 002 calls it
//! "fixed1.0.11, absolute value of the difference"; citro3d `LightLut_FromArray` (what homebrew
//! writes to real hardware) stores `0x800` as the sign and `|diff| * 0x800` as the magnitude,
//! and Azahar decodes the same fields (dividing by 2047 and 4095, where the model uses the
//! fixed-point weights 2048 and 4096).
//!
//! Addressing an f24 input `x` (the model's rule, [`position_unsigned`] / [`position_signed`]):
//! the input is clamped to the LUT's domain, converted exactly to a fixed-point number with
//! [`DELTA_BITS`] fraction bits below the entry index (`floor`), and split into the entry index
//! and the interpolation fraction `delta` in `[0, 1]` (in units of `2^-DELTA_BITS`; the top of
//! the domain, `x = 1.0`, is the last entry with `delta = 1`, which is what Azahar's
//! `index = clamp(floor(x * 256), 0, 255)`, `delta = x * 256 - index` gives).
//!
//! The interpolated output, exact before the one truncation to f24:
//! `value / 4096 ± mag / 2048 * delta / 2^DELTA_BITS` ([`interpolate`]).

use crate::num::F24;
use crate::regs::LightingLutEntry;

/// Entries per lighting LUT.
pub const ENTRIES: usize = 256;

/// Fraction bits of the interpolation factor `delta`.
///
/// UNVERIFIED(hw) [fact: light-lut-format]: the interpolation weight is the input's fraction below the entry index
/// truncated to 12 bits (the width of the LUT value) — the model's choice; Azahar uses the full
/// host-float fraction.
pub const DELTA_BITS: u32 = 12;

/// `delta` for "exactly at the next entry" (1.0).
pub const DELTA_ONE: u32 = 1 << DELTA_BITS;

/// Where an input lands in a LUT: the entry and the interpolation fraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LutPos {
    /// Entry index 0-255.
    pub index: u8,
    /// Interpolation fraction in units of `2^-DELTA_BITS`, `0..=DELTA_ONE`.
    pub delta: u32,
}

/// `floor(x * 2^k)` for a finite f24 `x` with `|x| <= 1` (exact: f24 values and these products
/// are exact in `f64`, and `floor` of an `f64` is exact).
fn floor_scaled(x: F24, k: u32) -> i64 {
    let v = x.to_f64() * f64::from(1u32 << k);
    // |v| <= 2^20: the conversion is exact.
    v.floor() as i64
}

/// Clamp of an f24 to `[lo, hi]` (1.0 / -1.0 / 0), NaN → +0 (the model's choice: a NaN input
/// addresses entry 0 with delta 0).
fn clamp_unit(x: F24, lo: F24, hi: F24) -> F24 {
    if x.is_nan() {
        return F24::ZERO;
    }
    let v = x.to_f64();
    if v <= lo.to_f64() {
        lo
    } else if v >= hi.to_f64() {
        hi
    } else {
        x
    }
}

/// Unsigned addressing (abs mode and the distance-attenuation LUTs): `x` clamped to `[0, 1]`,
/// 256 entries over the domain: `t = floor(x * 2^(8 + DELTA_BITS))`, `index = min(t >> DELTA_BITS,
/// 255)`, `delta = t - index * 2^DELTA_BITS`.
///
/// UNVERIFIED(hw) [fact: light-lut-clamp]: inputs outside the domain are clamped before addressing (Azahar clamps only
/// the index and extrapolates with the unclamped fraction: knob `light-lut-clamp=extrapolate`,
/// [`position_extrapolated`]).
pub fn position_unsigned(x: F24) -> LutPos {
    let x = clamp_unit(x, F24::ZERO, F24::ONE);
    let t = floor_scaled(x, 8 + DELTA_BITS);
    let index = (t >> DELTA_BITS).clamp(0, 255);
    LutPos {
        index: index as u8,
        delta: (t - (index << DELTA_BITS)).clamp(0, i64::from(DELTA_ONE)) as u32,
    }
}

/// Signed addressing (abs flag off): `x` clamped to `[-1, 1]`, the entry is the two's-complement
/// 8-bit `floor(x * 128)` (seed 002: "indexed using a signed 8-bit number [-128, 127]"; Azahar:
/// `s8` index cast to `u8`): `t = floor(x * 2^(7 + DELTA_BITS))`, `i = clamp(t >> DELTA_BITS,
/// -128, 127)`, `index = i as u8`, `delta = t - i * 2^DELTA_BITS`.
///
/// So `x = -1` reads entry 0x80, `x = -2^-8` entry 0xFF with delta 0.5, `x = 0` entry 0, and
/// `x = 1` entry 0x7F with delta 1. Interpolation always goes towards the next *entry* in
/// value order, which for entry 0xFF is entry 0 (the LUT's own difference field says how far).
pub fn position_signed(x: F24) -> LutPos {
    let x = clamp_unit(x, F24::NEG_ONE, F24::ONE);
    let t = floor_scaled(x, 7 + DELTA_BITS);
    let i = (t >> DELTA_BITS).clamp(-128, 127);
    LutPos {
        index: (i as i8) as u8,
        delta: (t - (i << DELTA_BITS)).clamp(0, i64::from(DELTA_ONE)) as u32,
    }
}

/// One entry interpolated: `value / 4096 ± mag / 2048 * delta / 2^DELTA_BITS`, computed exactly
/// in units of `2^-(11 + DELTA_BITS)` (an integer) and truncated toward zero to f24
/// ([`F24::from_f64_trunc`]: exact here, the integer has at most 25 bits). A negative result
/// stays negative.
pub fn interpolate(word: u32, delta: u32) -> F24 {
    let e = LightingLutEntry(word);
    let value = i64::from(e.value());
    let mag = i64::from(e.difference());
    let neg = e.difference_negative();
    let delta = i64::from(delta.min(DELTA_ONE));
    let d = mag * delta;
    let num = (value << 11) + if neg { -d } else { d };
    F24::from_f64_trunc(num as f64 / f64::from(1u32 << (11 + DELTA_BITS)))
}

/// The largest input magnitude [`position_extrapolated`] takes as it is (larger ones, and
/// infinities, are clamped to it): the model's bound that keeps the arithmetic exact in
/// `i64` / `f64`; a lighting input that large is far outside any use of the result.
pub const EXTRAPOLATE_LIMIT: f64 = (1u32 << 20) as f64;

/// Knob `light-lut-clamp=extrapolate` (Azahar `GetLutIndex` / `LookupLightingLut`): the entry
/// index is clamped as in [`position_unsigned`] (`signed` false) or [`position_signed`], but the
/// input is not, so `delta = t − index · 2^DELTA_BITS` may be negative or beyond
/// [`DELTA_ONE`] and the entry's difference extends the table linearly past its ends.
/// Returns `(index, delta)`; NaN addresses entry 0 with delta 0, magnitudes beyond
/// [`EXTRAPOLATE_LIMIT`] are clamped to it.
pub fn position_extrapolated(x: F24, signed: bool) -> (u8, i64) {
    if x.is_nan() {
        return (0, 0);
    }
    let v = x.to_f64().clamp(-EXTRAPOLATE_LIMIT, EXTRAPOLATE_LIMIT);
    // |v| ≤ 2^20 and v is an f24 value (or the limit): v · 2^20 is exact.
    let k = if signed { 7 } else { 8 } + DELTA_BITS;
    let t = (v * f64::from(1u32 << k)).floor() as i64;
    let i = if signed {
        (t >> DELTA_BITS).clamp(-128, 127)
    } else {
        (t >> DELTA_BITS).clamp(0, 255)
    };
    // Two's complement for a signed index (-128 → 0x80), as `position_signed`.
    (i as u8, t - (i << DELTA_BITS))
}

/// [`sample`] at `index` with an unclamped `delta` ([`position_extrapolated`]): `value / 4096
/// ± mag / 2048 · delta / 2^DELTA_BITS`, exact in `i64` (|delta| ≤ 2^41, so the sum stays
/// below 2^53 and converts to `f64` exactly) and truncated toward zero to f24.
pub fn sample_extrapolated(table: Option<&Vec<u32>>, index: u8, delta: i64) -> F24 {
    let word = table
        .and_then(|t| t.get(usize::from(index)))
        .copied()
        .unwrap_or(0);
    let e = LightingLutEntry(word);
    let value = i64::from(e.value());
    let mag = i64::from(e.difference());
    let d = mag * delta;
    let num = (value << 11) + if e.difference_negative() { -d } else { d };
    F24::from_f64_trunc(num as f64 / f64::from(1u32 << (11 + DELTA_BITS)))
}

/// Reads `table` at `pos` (a missing table or entry reads as the word 0).
pub fn sample(table: Option<&Vec<u32>>, pos: LutPos) -> F24 {
    let word = table
        .and_then(|t| t.get(usize::from(pos.index)))
        .copied()
        .unwrap_or(0);
    interpolate(word, pos.delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64) -> F24 {
        F24::from_f64_trunc(x)
    }

    #[test]
    fn light_lut_unsigned_positions() {
        assert_eq!(position_unsigned(F24::ZERO), LutPos { index: 0, delta: 0 });
        assert_eq!(
            position_unsigned(f(0.5)),
            LutPos {
                index: 128,
                delta: 0
            }
        );
        // 0.5 + 1/512: entry 128, halfway.
        assert_eq!(
            position_unsigned(f(0.5 + 1.0 / 512.0)),
            LutPos {
                index: 128,
                delta: 2048
            }
        );
        assert_eq!(
            position_unsigned(F24::ONE),
            LutPos {
                index: 255,
                delta: 4096
            }
        );
        assert_eq!(position_unsigned(f(-0.5)), LutPos { index: 0, delta: 0 });
        assert_eq!(
            position_unsigned(f(7.0)),
            LutPos {
                index: 255,
                delta: 4096
            }
        );
        assert_eq!(position_unsigned(F24::NAN), LutPos { index: 0, delta: 0 });
    }

    #[test]
    fn light_lut_signed_positions() {
        assert_eq!(
            position_signed(F24::NEG_ONE),
            LutPos {
                index: 0x80,
                delta: 0
            }
        );
        assert_eq!(
            position_signed(f(-1.0 / 256.0)),
            LutPos {
                index: 0xFF,
                delta: 2048
            }
        );
        assert_eq!(
            position_signed(f(0.25)),
            LutPos {
                index: 32,
                delta: 0
            }
        );
        assert_eq!(
            position_signed(F24::ONE),
            LutPos {
                index: 0x7F,
                delta: 4096
            }
        );
        assert_eq!(
            position_signed(F24::NEG_INFINITY),
            LutPos {
                index: 0x80,
                delta: 0
            }
        );
    }

    #[test]
    fn light_lut_interpolate_value_and_signed_difference() {
        // value 0x800 (0.5), +0x100/2048 (0.125) * 0.5 = 0.5625.
        assert_eq!(interpolate(0x800 | (0x100 << 12), 2048), f(0.5625));
        // negative difference: 0.5 - 0.0625 = 0.4375.
        assert_eq!(
            interpolate(0x800 | ((0x800 | 0x100) << 12), 2048),
            f(0.4375)
        );
        // delta 0 ignores the difference; value 0xFFF = 4095/4096.
        assert_eq!(interpolate(0xFFF | (0x7FF << 12), 0), f(4095.0 / 4096.0));
        // A negative result stays negative: 0 - 0x7FF/2048.
        assert_eq!(
            interpolate((0x800 | 0x7FF) << 12, DELTA_ONE),
            f(-2047.0 / 2048.0)
        );
    }
}
