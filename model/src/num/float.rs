//! The PICA200 float formats: one generic [`Float`] and the aliases [`F24`], [`F16`], [`F20`],
//! [`F31`].

use core::fmt;

use super::codec::{decode, encode, Layout, Underflow, Value};
use super::text::{deserialize_hex, serialize_hex, write_exact, write_hex};

/// A float with a sign bit, `E` exponent bits (bias `2^(E-1) - 1`) and `M` mantissa bits, stored
/// as its raw bits in the low `1 + E + M` bits of a `u32` (sign at bit `E + M`).
///
/// Encoding (the same for every format, IEEE-like):
/// - exponent all ones: infinity if the mantissa is 0, NaN otherwise;
/// - exponent 0: zero if the mantissa is 0 (both signs exist as bit patterns), otherwise the
///   subnormal value `mantissa * 2^(1 - bias - M)`;
/// - otherwise `(1 + mantissa / 2^M) * 2^(exponent - bias)`.
///
/// Equality and hashing are on the bits: `-0 != +0`, and a NaN equals itself. The type has no
/// arithmetic; operations that compute live with the units that compute them and round through
/// [`Float::from_f64_trunc`] (or another documented rule).
///
/// Supported layouts: `2 <= E <= 7`, `1 <= M <= 23` (checked at compile time). Every such value
/// converts exactly to `f32` and to `f64`.
// `repr(transparent)`: the shader JIT (`shader::interp::jit`) reads and writes f24 registers
// as `u32` words.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Float<const E: u32, const M: u32>(u32);

/// float1.7.16 ("f24"): shader registers, uniforms, vertex attributes, viewport and depth
/// parameters. Sign bit 23, exponent bits 16-22 (bias 63), mantissa bits 0-15.
///
/// `0x3F0000` = 1.0, `0xBF0000` = -1.0, `0x3E0000` = 0.5, `0x408000` = 3.0, `0x7F0000` = +inf,
/// `0xFF0000` = -inf. The shader ALU flushes subnormal inputs and outputs to +0 (3dbrew; CMP
/// does not flush its inputs): see [`Float::flush_subnormal`].
pub type F24 = Float<7, 16>;

/// float1.5.10 ("f16"): IEEE binary16 layout, bias 15 (lighting, fog/gas, procedural texture
/// and texture bias fields).
pub type F16 = Float<5, 10>;

/// float1.7.12 ("f20"): bias 63 (light distance attenuation bias and scale).
pub type F20 = Float<7, 12>;

/// float1.7.23 ("f31"): bias 63, the format of `GPUREG_VIEWPORT_STEP_X/Y` (2/width, 2/height),
/// stored in bits 1-31 of the register word; bit 0 of the word is not part of the value.
///
/// [`Float::bits`] is the 31-bit value (sign at bit 30). Use [`F31::from_reg_word`] /
/// [`F31::to_reg_word`] for the register word (`word = bits << 1`).
///
/// Note: this is *not* an IEEE `f32` with its low bit dropped. The exponent has 7 bits (bias 63,
/// like f24) and all 23 mantissa bits of an `f32` are kept: libctru's `f32tof31` rebiases
/// 127 → 63 and stores `sign << 30 | exp << 23 | mantissa`, and citro3d writes that `<< 1` into
/// the register. So 1.0 is the register word `0x3F000000` (which as an `f32` would read 0.5).
/// [`Float::to_f32_bits`] converts the value exactly to the IEEE pattern.
pub type F31 = Float<7, 23>;

impl<const E: u32, const M: u32> Float<E, M> {
    /// Compile-time check of the layout (see the type's docs).
    const LAYOUT_OK: () = assert!(
        E >= 2 && E <= 7 && M >= 1 && M <= 23,
        "unsupported float layout"
    );
    const LAYOUT: Layout = Layout {
        exp_bits: E,
        mant_bits: M,
    };
    const EXP_MAX: u32 = (1 << E) - 1;
    const MANT_MASK: u32 = (1 << M) - 1;

    /// Exponent field width.
    pub const EXP_BITS: u32 = E;
    /// Mantissa field width.
    pub const MANT_BITS: u32 = M;
    /// Total width in bits: `1 + E + M`.
    pub const WIDTH: u32 = 1 + E + M;
    /// Mask of the bits that belong to the value.
    pub const MASK: u32 = (1 << (1 + E + M)) - 1;
    /// Exponent bias: `2^(E-1) - 1`.
    pub const BIAS: u32 = (1 << (E - 1)) - 1;

    /// +0.
    pub const ZERO: Self = Self::from_bits(0);
    /// -0 (a valid bit pattern; the ALU is believed never to produce it).
    pub const NEG_ZERO: Self = Self::from_parts(true, 0, 0);
    /// 1.0.
    pub const ONE: Self = Self::from_parts(false, Self::BIAS, 0);
    /// -1.0.
    pub const NEG_ONE: Self = Self::from_parts(true, Self::BIAS, 0);
    /// +infinity (exponent all ones, mantissa 0).
    pub const INFINITY: Self = Self::from_parts(false, Self::EXP_MAX, 0);
    /// -infinity.
    pub const NEG_INFINITY: Self = Self::from_parts(true, Self::EXP_MAX, 0);
    /// The model's canonical NaN: positive, exponent all ones, only the top mantissa bit set
    /// (f24 `0x7F8000`, f16 `0x7E00`). Which NaN pattern the hardware produces is not measured.
    pub const NAN: Self = Self::from_parts(false, Self::EXP_MAX, 1 << (M - 1));
    /// The largest finite value.
    pub const MAX: Self = Self::from_parts(false, Self::EXP_MAX - 1, Self::MANT_MASK);
    /// The smallest positive normal value, `2^(1 - bias)`.
    pub const MIN_POSITIVE: Self = Self::from_parts(false, 1, 0);

    /// Wraps raw bits; bits above the format's width are dropped.
    pub const fn from_bits(bits: u32) -> Self {
        let () = Self::LAYOUT_OK;
        Self(bits & Self::MASK)
    }

    /// The raw bit pattern (only the low [`Self::WIDTH`] bits can be set).
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Builds a value from its fields; each field is masked to its width.
    pub const fn from_parts(negative: bool, exponent: u32, mantissa: u32) -> Self {
        let sign = if negative { 1 << (E + M) } else { 0 };
        Self::from_bits(sign | ((exponent & Self::EXP_MAX) << M) | (mantissa & Self::MANT_MASK))
    }

    /// The sign bit: 0 or 1.
    pub const fn sign(self) -> u32 {
        self.0 >> (E + M)
    }

    /// True if the sign bit is set (including -0 and NaNs with the sign bit set).
    pub const fn is_sign_negative(self) -> bool {
        self.sign() != 0
    }

    /// The raw (biased) exponent field.
    pub const fn exponent(self) -> u32 {
        (self.0 >> M) & Self::EXP_MAX
    }

    /// The raw mantissa field (without the hidden bit).
    pub const fn mantissa(self) -> u32 {
        self.0 & Self::MANT_MASK
    }

    /// Exponent all ones, mantissa non-zero.
    pub const fn is_nan(self) -> bool {
        self.exponent() == Self::EXP_MAX && self.mantissa() != 0
    }

    /// ±infinity.
    pub const fn is_infinite(self) -> bool {
        self.exponent() == Self::EXP_MAX && self.mantissa() == 0
    }

    /// Neither infinite nor NaN.
    pub const fn is_finite(self) -> bool {
        self.exponent() != Self::EXP_MAX
    }

    /// ±0 (subnormals are not zero; see [`Self::flush_subnormal`]).
    pub const fn is_zero(self) -> bool {
        self.exponent() == 0 && self.mantissa() == 0
    }

    /// Exponent 0 with a non-zero mantissa.
    pub const fn is_subnormal(self) -> bool {
        self.exponent() == 0 && self.mantissa() != 0
    }

    /// What the shader ALU does to its inputs and outputs: every pattern with exponent 0
    /// (subnormals and both zeros) becomes +0; everything else is unchanged.
    pub const fn flush_subnormal(self) -> Self {
        if self.exponent() == 0 {
            Self::ZERO
        } else {
            self
        }
    }

    /// Flips the sign bit (bit operation; NaNs and zeros flip too).
    pub const fn negate(self) -> Self {
        Self::from_bits(self.0 ^ (1 << (E + M)))
    }

    /// Clears the sign bit.
    pub const fn abs(self) -> Self {
        Self::from_bits(self.0 & !(1 << (E + M)))
    }

    const fn decoded(self) -> (bool, Value) {
        decode(self.0 as u64, Self::LAYOUT)
    }

    const fn encoded(neg: bool, value: Value, underflow: Underflow) -> Self {
        Self::from_bits(encode(neg, value, Self::LAYOUT, underflow) as u32)
    }

    /// The exact value as `f64` (every value of these formats is representable). Subnormals
    /// convert to their subnormal value, -0 to -0.0, infinities to infinities, NaN to a NaN.
    pub fn to_f64(self) -> f64 {
        let e = self.exponent();
        if e != 0 && e != Self::EXP_MAX {
            // Fast path for normal values (the hot case of the ALU): rebias the exponent and
            // widen the mantissa, exactly what the general codec does for them (the tests check
            // every f24 pattern against it).
            let sign = u64::from(self.sign()) << 63;
            let exp = u64::from(e + 1023 - Self::BIAS) << 52;
            return f64::from_bits(sign | exp | u64::from(self.mantissa()) << (52 - M));
        }
        if self.0 & !(1 << (E + M)) == 0 {
            // ±0 (frequent: the ALU's flushed inputs), what the codec gives for them.
            return f64::from_bits(u64::from(self.sign()) << 63);
        }
        self.to_f64_general()
    }

    /// [`Self::to_f64`] through the general codec (every pattern).
    fn to_f64_general(self) -> f64 {
        let (neg, value) = self.decoded();
        f64::from_bits(encode(neg, value, Layout::F64, Underflow::Gradual))
    }

    /// The exact value as an IEEE `f32` bit pattern (every value of these formats fits: normal
    /// and subnormal values become `f32` normals). NaN keeps its sign and its payload in the top
    /// mantissa bits (f24 `m` → `m << 7`), so [`Self::from_f32_bits`] gives back the same bits.
    pub const fn to_f32_bits(self) -> u32 {
        let (neg, value) = self.decoded();
        encode(neg, value, Layout::F32, Underflow::Gradual) as u32
    }

    /// Converts an IEEE `f32` bit pattern, the way a float32-mode uniform upload is modelled.
    ///
    /// Rule (truncation, sign kept everywhere):
    /// - normal range: the mantissa is truncated (for f24 `>> 7`), the exponent rebiased
    ///   (127 → bias, for f24 63);
    /// - values too large (at or above `2^(bias+1)`) become ±infinity;
    /// - values below the smallest normal are truncated into the subnormal range, and what
    ///   truncates to nothing (all `f32` subnormals, for instance) becomes a zero with the input's
    ///   sign; -0.0 gives -0;
    /// - ±infinity stays ±infinity; NaN stays NaN, keeping the top bits of its payload (set to 1
    ///   if those are all zero, so it cannot turn into infinity).
    ///
    /// For F24 this is the assemblers' rule (pica-facts §1) except at the two edges where their
    /// code is sloppy: libctru's `f32tof24` keeps the raw mantissa for rebiased exponent 0 and
    /// writes exponent 127 with the mantissa (a NaN) instead of infinity for inputs in
    /// `[2^63, 2^64)`.
    // UNVERIFIED(hw) [fact: f32-to-f24-uniform]: float32-mode uniform conversion truncates — every public assembler does this
    // (pica-facts §1); not measured on hardware. Gradual underflow into f24 subnormals is the
    // model's choice (it makes `to_f32_bits` → `from_f32_bits` the identity).
    pub const fn from_f32_bits(bits: u32) -> Self {
        let ef = (bits >> 23) & 0xFF;
        let e = ef as i32 - 127 + Self::BIAS as i32;
        if ef != 0 && ef != 0xFF && e >= 1 && e < Self::EXP_MAX as i32 {
            // Fast path: a normal f32 that lands in this format's normal range (the vertex
            // loader's float attributes): rebias, drop the low mantissa bits — what the
            // general codec gives (`float_from_f32_bits_fast_path_matches_codec`).
            let sign = (bits >> 31) << (E + M);
            let mant = (bits & 0x7F_FFFF) >> (23 - M);
            return Self::from_bits(sign | (e as u32) << M | mant);
        }
        Self::from_f32_bits_general(bits)
    }

    /// [`Self::from_f32_bits`] through the general codec (every pattern).
    const fn from_f32_bits_general(bits: u32) -> Self {
        let (neg, value) = decode(bits as u64, Layout::F32);
        Self::encoded(neg, value, Underflow::Gradual)
    }

    /// Converts an IEEE `f32` bit pattern rounding to nearest, ties to even, where the result
    /// is a normal number of this format: the alternative of [`Self::from_f32_bits`] that the
    /// knobs `f32-to-f24-uniform=nearest` and `vl-f32-to-f24=nearest` select (a mantissa
    /// that rounds up past all ones carries into the exponent, and up to infinity from
    /// [`Self::MAX`]). Zeros, subnormal results, infinities and NaN convert as
    /// [`Self::from_f32_bits`] does.
    pub const fn from_f32_bits_nearest(bits: u32) -> Self {
        let t = Self::from_f32_bits(bits);
        let ef = (bits >> 23) & 0xFF;
        if M >= 23 || ef == 0 || ef == 0xFF || t.exponent() == 0 || t.exponent() == Self::EXP_MAX {
            return t;
        }
        let drop = 23 - M;
        let low = bits & ((1 << drop) - 1);
        let half = 1 << (drop - 1);
        if low > half || (low == half && t.0 & 1 == 1) {
            // Sign-magnitude: one more unit in the last place, carrying into the exponent.
            Self::from_bits(t.0 + 1)
        } else {
            t
        }
    }

    /// Converts from another of these formats with the rule of [`Self::from_f32_bits`]: exact
    /// when the target is at least as wide in both fields (f16 → f24, f20 → f24, f24 → f31);
    /// otherwise truncation toward zero, overflow to ±infinity, gradual underflow to a signed
    /// zero, NaN kept with the top bits of its payload.
    pub const fn from_float<const E2: u32, const M2: u32>(other: Float<E2, M2>) -> Self {
        let (neg, value) = other.decoded();
        Self::encoded(neg, value, Underflow::Gradual)
    }

    /// The model's rounding rule for results computed in `f64`: truncate the exact `f64` value
    /// toward zero to this format.
    ///
    /// - Results whose magnitude is below the smallest normal ([`Self::MIN_POSITIVE`]) —
    ///   including -0.0 and negative subnormals — become +0 (the ALU has no subnormals and
    ///   apparently no negative zero).
    /// - Results at or above `2^(bias+1)` become ±infinity (not [`Self::MAX`]).
    /// - ±infinity stays ±infinity; every NaN becomes [`Self::NAN`] (host NaN payloads and signs
    ///   differ between CPUs, the model must not).
    ///
    /// The caller must make sure its `f64` result is the exact result (or accept that `f64`
    /// already rounded it to nearest): products of two f24 values are exact in `f64`, sums of
    /// values whose exponents differ by more than about 36 are not.
    // UNVERIFIED(hw) [fact: shader-alu-rounding]: MAD/RCP/RSQ/EX2/LG2 rounding is not measured (pica-facts §2); this is the
    // model's rule.
    pub fn from_f64_trunc(x: f64) -> Self {
        let bits = x.to_bits();
        let ef = ((bits >> 52) & 0x7FF) as i64;
        let e = ef - 1023 + i64::from(Self::BIAS);
        if ef != 0 && ef != 0x7FF && e >= 1 && e < i64::from(Self::EXP_MAX) {
            // Fast path: a normal f64 that lands in this format's normal range. Truncation
            // toward zero of a sign-magnitude value drops the low mantissa bits (the general
            // codec gives the same; the tests compare the two).
            let sign = ((bits >> 63) as u32) << (E + M);
            let mant = ((bits & ((1 << 52) - 1)) >> (52 - M)) as u32;
            return Self::from_bits(sign | (e as u32) << M | mant);
        }
        if ef == 0 {
            // ±0 and f64 subnormals: below the smallest normal, so +0 (the codec's rule).
            return Self::ZERO;
        }
        Self::from_f64_trunc_general(x)
    }

    /// [`Self::from_f64_trunc`] through the general codec (every value).
    fn from_f64_trunc_general(x: f64) -> Self {
        match decode(x.to_bits(), Layout::F64) {
            (_, Value::Nan { .. }) => Self::NAN,
            (neg, value) => Self::encoded(neg, value, Underflow::FlushToPositiveZero),
        }
    }

    /// The name used by `Debug`.
    const fn name() -> &'static str {
        match (E, M) {
            (7, 16) => "F24",
            (5, 10) => "F16",
            (7, 12) => "F20",
            (7, 23) => "F31",
            _ => "Float",
        }
    }

    /// Writes the exact decimal value: `1`, `-0.5`, `-0`, `inf`, `-inf`, `NaN`.
    fn write_value(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.decoded() {
            (_, Value::Nan { .. }) => f.write_str("NaN"),
            (true, Value::Infinite) => f.write_str("-inf"),
            (false, Value::Infinite) => f.write_str("inf"),
            (neg, Value::Zero) => write_exact(f, neg, 0, 0),
            (neg, Value::Finite { m, e }) => write_exact(f, neg, m, e),
        }
    }
}

impl F24 {
    /// Exact conversion from f16 (every f16 value, subnormals included, is an f24 normal).
    pub const fn from_f16(x: F16) -> Self {
        Self::from_float(x)
    }

    /// Exact conversion from f20 (same exponent range, the mantissa gains 4 zero bits).
    pub const fn from_f20(x: F20) -> Self {
        Self::from_float(x)
    }
}

impl F31 {
    /// The value of a register word holding an f31 in bits 1-31 (bit 0 is ignored).
    pub const fn from_reg_word(word: u32) -> Self {
        Self::from_bits(word >> 1)
    }

    /// The register word for this value: `bits() << 1`, bit 0 clear.
    pub const fn to_reg_word(self) -> u32 {
        self.0 << 1
    }
}

/// `0x3f0000 (1)`: the hex bits, then the exact decimal value.
impl<const E: u32, const M: u32> fmt::Display for Float<E, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, self.0, Self::WIDTH)?;
        f.write_str(" (")?;
        self.write_value(f)?;
        f.write_str(")")
    }
}

/// `F24(0x3f0000 = 1)`.
impl<const E: u32, const M: u32> fmt::Debug for Float<E, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", Self::name())?;
        write_hex(f, self.0, Self::WIDTH)?;
        f.write_str(" = ")?;
        self.write_value(f)?;
        f.write_str(")")
    }
}

/// The bits as a hex string with one digit per 4 bits: `"0x3f0000"` (F31: the 31-bit value,
/// not the register word).
impl<const E: u32, const M: u32> serde::Serialize for Float<E, M> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_hex(serializer, self.0, Self::WIDTH)
    }
}

/// Accepts the hex string written by `Serialize`; bits outside the format's width are an error.
impl<'de, const E: u32, const M: u32> serde::Deserialize<'de> for Float<E, M> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_hex(deserializer, Self::MASK).map(Self::from_bits)
    }
}

#[cfg(test)]
mod tests;
