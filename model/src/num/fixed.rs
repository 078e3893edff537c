//! Fixed-point register formats: one generic [`Fixed`] and an alias per format of the register
//! docs.

use core::fmt;

use super::text::{deserialize_hex, serialize_hex, write_exact, write_hex};

/// The register docs' `fixedS.I.F`: `SIGN` sign bits (0 or 1), `INT` integer bits and `FRAC`
/// fraction bits, stored as raw bits in the low `SIGN + INT + FRAC` bits of a `u32`.
///
/// With `SIGN = 1` the whole field is a two's-complement integer (`raw`), so the value is
/// `raw / 2^FRAC` in `[-2^INT, 2^INT - 2^-FRAC]`; with `SIGN = 0` it is unsigned, in
/// `[0, 2^INT - 2^-FRAC]`. Equality and hashing are on the bits.
///
/// Supported: `SIGN <= 1`, `1 <= SIGN + INT + FRAC <= 32` (checked at compile time).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fixed<const SIGN: u32, const INT: u32, const FRAC: u32>(u32);

/// fixed0.0.11: unsigned 11-bit fraction (fog/gas LUT value field).
pub type Fix0_0_11 = Fixed<0, 0, 11>;
/// fixed0.0.12: unsigned 12-bit fraction (LUT entry values).
///
/// Seed 001 corrects the procedural-texture LUT difference fields (bits 12-23) from
/// "fixed1.0.11" to "fixed0.0.12 with two's complement" (for one of them: "[0.5,1.0) mapped to
/// [-1.0,0)"). The 12 bits are the same; how to read them belongs to the LUT code. This type
/// reads them unsigned; [`Fix1_0_11`] reads them as signed 12-bit with 11 fraction bits.
pub type Fix0_0_12 = Fixed<0, 0, 12>;
/// fixed0.0.24: unsigned 24-bit fraction (depth-buffer Z bias; the register holds the upper 23
/// bits).
pub type Fix0_0_24 = Fixed<0, 0, 24>;
/// fixed0.16.8: unsigned 16.8 (fog depth-direction attenuation proportion).
pub type Fix0_16_8 = Fixed<0, 16, 8>;
/// fixed1.0.11: signed 12-bit, 11 fraction bits (LUT differences as the older docs describe
/// them; see [`Fix0_0_12`] for seed 001's correction).
pub type Fix1_0_11 = Fixed<1, 0, 11>;
/// fixed1.0.7: signed 8-bit, 7 fraction bits (procedural-texture colour table differences).
pub type Fix1_0_7 = Fixed<1, 0, 7>;
/// fixed1.1.11: signed 13-bit, 11 fraction bits (spotlight direction).
pub type Fix1_1_11 = Fixed<1, 1, 11>;
/// fixed1.3.12: signed 16-bit, 12 fraction bits (procedural-texture noise amplitude).
pub type Fix1_3_12 = Fixed<1, 3, 12>;
/// fixed1.4.8: signed 13-bit, 8 fraction bits (texture LOD bias).
pub type Fix1_4_8 = Fixed<1, 4, 8>;
/// The rasterizer's 12.4 screen coordinates, taken as signed: fixed1.11.4, 16 bits in total
/// (1 sign + 11 integer + 4 fraction bits, range [-2048, 2048 - 1/16]).
pub type Fix12_4 = Fixed<1, 11, 4>;

impl<const SIGN: u32, const INT: u32, const FRAC: u32> Fixed<SIGN, INT, FRAC> {
    /// Compile-time check of the layout (see the type's docs).
    const LAYOUT_OK: () = assert!(
        SIGN <= 1 && SIGN + INT + FRAC >= 1 && SIGN + INT + FRAC <= 32,
        "unsupported fixed-point layout"
    );

    /// Total width in bits: `SIGN + INT + FRAC`.
    pub const WIDTH: u32 = SIGN + INT + FRAC;
    /// Mask of the bits that belong to the value.
    pub const MASK: u32 = u32::MAX >> (32 - Self::WIDTH);
    /// The smallest raw integer: `-2^(WIDTH-1)` if signed, else 0.
    pub const MIN_RAW: i64 = if SIGN == 1 {
        -(1i64 << (Self::WIDTH - 1))
    } else {
        0
    };
    /// The largest raw integer: `2^(WIDTH-1) - 1` if signed, else `2^WIDTH - 1`.
    pub const MAX_RAW: i64 = if SIGN == 1 {
        (1i64 << (Self::WIDTH - 1)) - 1
    } else {
        (1i64 << Self::WIDTH) - 1
    };
    /// Zero.
    pub const ZERO: Self = Self::from_bits(0);
    /// The smallest value.
    pub const MIN: Self = Self::from_raw(Self::MIN_RAW);
    /// The largest value.
    pub const MAX: Self = Self::from_raw(Self::MAX_RAW);

    /// Wraps raw bits; bits above the format's width are dropped.
    pub const fn from_bits(bits: u32) -> Self {
        let () = Self::LAYOUT_OK;
        Self(bits & Self::MASK)
    }

    /// The raw bit pattern (only the low [`Self::WIDTH`] bits can be set).
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The low [`Self::WIDTH`] bits of a two's-complement integer (wrapping, no saturation).
    pub const fn from_raw(raw: i64) -> Self {
        Self::from_bits(raw as u32)
    }

    /// The integer the bits encode: sign-extended when `SIGN = 1`. The value is
    /// `raw / 2^FRAC`.
    pub const fn raw(self) -> i64 {
        if SIGN == 1 && self.0 >> (Self::WIDTH - 1) != 0 {
            self.0 as i64 - (1i64 << Self::WIDTH)
        } else {
            self.0 as i64
        }
    }

    /// True for negative values (only possible when `SIGN = 1`).
    pub const fn is_negative(self) -> bool {
        self.raw() < 0
    }

    /// The exact value as `f64`.
    pub fn to_f64(self) -> f64 {
        // |raw| < 2^32 and the scale is a power of two: both steps are exact.
        self.raw() as f64 / (1u64 << FRAC) as f64
    }

    /// Converts `x`, rounding toward zero, saturating to [`Self::MIN`]/[`Self::MAX`]
    /// (±infinity included); NaN gives zero.
    pub fn from_f64_trunc(x: f64) -> Self {
        Self::from_scaled(Self::scale(x).trunc())
    }

    /// Converts `x`, rounding to nearest with ties away from zero (`f64::round`), saturating to
    /// [`Self::MIN`]/[`Self::MAX`] (±infinity included); NaN gives zero.
    pub fn from_f64_round(x: f64) -> Self {
        Self::from_scaled(Self::scale(x).round())
    }

    /// `x * 2^FRAC`, exact (or ±infinity) since the factor is a power of two.
    fn scale(x: f64) -> f64 {
        x * (1u64 << FRAC) as f64
    }

    /// Saturates an integral `f64` to the raw range.
    fn from_scaled(raw: f64) -> Self {
        if raw.is_nan() {
            Self::ZERO
        } else {
            // Both bounds are exact in f64; the clamped value is integral, so `as` is exact.
            Self::from_raw(raw.clamp(Self::MIN_RAW as f64, Self::MAX_RAW as f64) as i64)
        }
    }

    /// Writes the exact decimal value.
    fn write_value(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let raw = self.raw();
        write_exact(f, raw < 0, raw.unsigned_abs(), -(FRAC as i32))
    }
}

/// `0x1fff (-0.00390625)`: the hex bits, then the exact decimal value.
impl<const SIGN: u32, const INT: u32, const FRAC: u32> fmt::Display for Fixed<SIGN, INT, FRAC> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, self.0, Self::WIDTH)?;
        f.write_str(" (")?;
        self.write_value(f)?;
        f.write_str(")")
    }
}

/// `fixed1.4.8(0x1fff = -0.00390625)`.
impl<const SIGN: u32, const INT: u32, const FRAC: u32> fmt::Debug for Fixed<SIGN, INT, FRAC> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "fixed{SIGN}.{INT}.{FRAC}(")?;
        write_hex(f, self.0, Self::WIDTH)?;
        f.write_str(" = ")?;
        self.write_value(f)?;
        f.write_str(")")
    }
}

/// The bits as a hex string with one digit per 4 bits: `"0x1fff"`.
impl<const SIGN: u32, const INT: u32, const FRAC: u32> serde::Serialize for Fixed<SIGN, INT, FRAC> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_hex(serializer, self.0, Self::WIDTH)
    }
}

/// Accepts the hex string written by `Serialize`; bits outside the format's width are an error.
impl<'de, const SIGN: u32, const INT: u32, const FRAC: u32> serde::Deserialize<'de>
    for Fixed<SIGN, INT, FRAC>
{
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_hex(deserializer, Self::MASK).map(Self::from_bits)
    }
}

#[cfg(test)]
mod tests;
