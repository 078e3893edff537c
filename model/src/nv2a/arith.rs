//! Scalar arithmetic of the NV2A vertex units, bit-exact on IEEE binary32.
//!
//! Semantics follow NV_vertex_program / NV_vertex_program1_1 (the instruction pseudo-code of
//! those specs); every operation below states its special cases. Common rules:
//!
//! - Basic operations (`+`, `*`, `/`, `sqrt`) are IEEE binary32 with round-to-nearest-even, one
//!   rounding per operation, never fused (Rust does not contract `a * b + c`).
//! - A NaN **produced** by arithmetic is replaced by [`CANONICAL_NAN`] (host NaN bit patterns are
//!   not portable). Moves, negation, swizzles and MIN/MAX selection keep the bits of the value
//!   they pass on, NaN payloads included.
//! - [`Config`] holds the knobs where the hardware is unknown or public sources disagree.
//!
//! UNVERIFIED(hw) [fact: nv2a-arith-ieee]: the NV2A does not compute in IEEE binary32. envytools' `nvhw` NV20 transform
//! model (as carried in some xemu branches) has truncating wide-accumulator sums, a table-driven
//! reciprocal and flushes subnormals. This model keeps IEEE binary32 per the project's number
//! rules (seed 003 documents no arithmetic) — envytools nvhw/xf.c, xemu vsh.c.

/// The NaN every arithmetic NaN result becomes.
///
/// UNVERIFIED(hw) [fact: nv2a-canonical-nan]: 0x7FFFFFFF, the NaN the envytools NV20 transform model returns — xemu
/// `nv20_mul_bits`/`nv20_sum_bits`.
pub const CANONICAL_NAN: u32 = 0x7FFF_FFFF;

/// RCC's largest result magnitude, 2^64. NV_vertex_program1_1 writes the bound as
/// `1.884467e+019` (a typo of 1.844674e19) and gives the intended bits 0x5F800000 in a comment;
/// the bits are used.
pub const RCC_MAX: u32 = 0x5F80_0000;
/// RCC's smallest result magnitude, 2^-64 (spec comment: 0x1F800000; its decimal `5.42101e-020`
/// would round to a different float).
pub const RCC_MIN: u32 = 0x1F80_0000;

/// LIT's clamp of the specular exponent: ±(128 - 1/256) = 127.99609375.
///
/// UNVERIFIED(hw) [fact: nv2a-lit-power-max]: NV_vertex_program writes `128.0 - epsilon`; 1/256 is xemu's `_LIT` epsilon
/// and nv2a_vsh_cpu's `127.9961` — xemu vsh.c, abaire nv2a_vsh_cpu.
pub const LIT_POWER_MAX: u32 = 0x42FF_FE00;

/// Coefficients of EXP's partial-precision 2^f on [0, 1]: `1 + f*(C1 + f*(C2 + f*C3))`, a
/// weighted least-squares fit with p(0) = 1 and p(1) = 2 exactly (so integer powers are exact and
/// the result is continuous across integers); relative error < 1.04e-4 (13.2 bits), within the
/// spec's "rough approximation" (D3D `expp` asks for 10 bits).
///
/// UNVERIFIED(hw) [fact: nv2a-exp-log-approx]: the NV2A's approximation is not public; this is a model choice.
pub const EXP_POLY: [u32; 3] = [0x3F32_0755, 0x3E67_BD32, 0x3DA0_4AF4];

/// Coefficients of LOG's partial-precision log2(1 + u) on [0, 1]:
/// `u*(D1 + u*(D2 + u*(D3 + u*D4)))`, fitted with q(0) = 0 and q(1) = 1 exactly; absolute error
/// < 1.14e-4 (13.1 bits).
///
/// UNVERIFIED(hw) [fact: nv2a-exp-log-approx]: the NV2A's approximation is not public; this is a model choice.
pub const LOG_POLY: [u32; 4] = [0x3FB8_2828, 0xBF2D_832C, 0x3EA4_72A7, 0xBDA8_33BC];

/// What a product with a zero factor gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ZeroTimes {
    /// `±0 * x = +0` for every x, infinities and NaN included.
    ///
    /// UNVERIFIED(hw) [fact: nv2a-zero-times]: xemu's `_MUL` says "anything * 0 must == 0" (hardware behaviour it
    /// matches) and the envytools NV20 multiply returns +0 for a zero factor — xemu vsh.c.
    #[default]
    Zero,
    /// IEEE: `0 * inf = NaN`, signs multiply.
    Ieee,
}

/// How subnormal binary32 values are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Subnormals {
    /// Kept and computed with, as IEEE does.
    ///
    /// UNVERIFIED(hw) [fact: nv2a-subnormals]: the envytools NV20 model flushes them (see [`Subnormals::Flush`]); the
    /// default keeps the project's IEEE rule — envytools nvhw, xemu vsh.c.
    #[default]
    Keep,
    /// Every arithmetic operand and result that is subnormal becomes a zero of the same sign.
    Flush,
}

/// When a paired slot's MAC also targets R1 (where the paired ILU writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PairedR1 {
    /// The MAC's temporary write is dropped; only the ILU writes R1.
    ///
    /// UNVERIFIED(hw) [fact: nv2a-paired-mac-r1]: xemu `decode_opcode` "Ignore paired MAC opcodes that write to R1" —
    /// xemu vsh.c.
    #[default]
    IluOnly,
    /// Both write under their own masks, MAC first, so the ILU wins on shared components
    /// (Cxbx-Reloaded's HLSL interpreter: `write_r` for MAC, then for ILU).
    IluOverMac,
}

/// The model's knobs for unknown or disputed hardware behaviour. `Config::default()` is the
/// best-supported choice for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Products with a zero factor.
    pub zero_times: ZeroTimes,
    /// Subnormal handling.
    pub subnormals: Subnormals,
    /// Paired MAC and ILU both writing R1.
    pub paired_r1: PairedR1,
    /// SLT/SGE treat -0 as less than +0.
    ///
    /// UNVERIFIED(hw) [fact: nv2a-neg-zero-less]: default true — "nv2a hardware treats -0 as < 0" in abaire's
    /// nv2a_vsh_cpu (written against nxdk_vsh_tests hardware captures); IEEE says equal.
    pub neg_zero_less: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            zero_times: ZeroTimes::default(),
            subnormals: Subnormals::default(),
            paired_r1: PairedR1::default(),
            neg_zero_less: true,
        }
    }
}

/// Replaces a NaN by [`CANONICAL_NAN`].
pub fn canon(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(CANONICAL_NAN)
    } else {
        x
    }
}

impl Config {
    /// Applies the subnormal rule to an operand or result.
    pub fn sub(&self, x: f32) -> f32 {
        match self.subnormals {
            Subnormals::Flush if x.is_subnormal() => f32::from_bits(x.to_bits() & 0x8000_0000),
            _ => x,
        }
    }

    /// Multiplication: IEEE, except a zero factor per [`Config::zero_times`].
    pub fn mul(&self, a: f32, b: f32) -> f32 {
        let (a, b) = (self.sub(a), self.sub(b));
        if self.zero_times == ZeroTimes::Zero && (a == 0.0 || b == 0.0) {
            return 0.0;
        }
        self.sub(canon(a * b))
    }

    /// Addition: IEEE (`inf + -inf` = NaN → canonical).
    pub fn add(&self, a: f32, b: f32) -> f32 {
        self.sub(canon(self.sub(a) + self.sub(b)))
    }

    /// MAD: `add(mul(a, b), c)`, two roundings.
    ///
    /// UNVERIFIED(hw) [fact: nv2a-mad-unfused]: not fused — both xemu paths multiply, then add.
    pub fn mad(&self, a: f32, b: f32, c: f32) -> f32 {
        self.add(self.mul(a, b), c)
    }

    /// DP3: `(a.x*b.x + a.y*b.y) + a.z*b.z`, left to right, each step rounded.
    ///
    /// UNVERIFIED(hw) [fact: nv2a-dot-order]: summation order and intermediate rounding (envytools sums all products in
    /// one wide accumulator).
    pub fn dp3(&self, a: [f32; 4], b: [f32; 4]) -> f32 {
        let s = self.add(self.mul(a[0], b[0]), self.mul(a[1], b[1]));
        self.add(s, self.mul(a[2], b[2]))
    }

    /// DP4: `dp3(a, b) + a.w*b.w`.
    pub fn dp4(&self, a: [f32; 4], b: [f32; 4]) -> f32 {
        self.add(self.dp3(a, b), self.mul(a[3], b[3]))
    }

    /// DPH: `dp3(a, b) + b.w` (NV_vertex_program1_1).
    pub fn dph(&self, a: [f32; 4], b: [f32; 4]) -> f32 {
        self.add(self.dp3(a, b), b[3])
    }

    /// SLT: 1.0 if `a < b` else 0.0; NaN operands give 0.0; -0 < +0 per
    /// [`Config::neg_zero_less`].
    pub fn slt(&self, a: f32, b: f32) -> f32 {
        let (a, b) = (self.sub(a), self.sub(b));
        let less = a < b || (self.neg_zero_less && a.to_bits() == 0x8000_0000 && b.to_bits() == 0);
        if less {
            1.0
        } else {
            0.0
        }
    }

    /// SGE: `1.0 - SLT(a, b)`, so NaN operands give 1.0.
    ///
    /// UNVERIFIED(hw) [fact: nv2a-sge-complement]: the complement form is nv2a_vsh_cpu's (hardware-tested); the spec's
    /// `a >= b` would give 0.0 for NaN.
    pub fn sge(&self, a: f32, b: f32) -> f32 {
        1.0 - self.slt(a, b)
    }
}

/// MIN: `a < b ? a : b` (spec pseudo-code); a NaN operand selects `b`; `min(+0, -0)` is `-0` and
/// `min(-0, +0)` is `+0` (the comparison is false, `b` is taken). Bits are passed unchanged.
pub fn min(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// MAX: `a > b ? a : b`; a NaN operand selects `b`; equal values (±0) select `b`. Bits passed
/// unchanged.
pub fn max(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// 2^n for an integer n: exact for -149 ≤ n ≤ 127 (subnormal below -126), +inf above 127, +0
/// below -149.
pub fn pow2i(n: i32) -> f32 {
    if n > 127 {
        f32::INFINITY
    } else if n >= -126 {
        f32::from_bits(((n + 127) as u32) << 23)
    } else if n >= -149 {
        f32::from_bits(1u32 << (n + 149))
    } else {
        0.0
    }
}

/// 2^x for a float that is already an integer (a `floor` result): [`pow2i`] with ±inf → +inf/+0.
fn pow2_of_floor(fl: f32) -> f32 {
    if fl >= 128.0 {
        f32::INFINITY
    } else if fl < -149.0 {
        0.0
    } else {
        pow2i(fl as i32)
    }
}

/// RCP: `1/x` replicated. Special cases (NV_vertex_program): exactly 1.0 → 1.0; ±0 → ±inf
/// (sign kept, as nv2a_vsh_cpu measures); ±inf → ±0; NaN → canonical NaN. Otherwise the
/// correctly rounded IEEE quotient.
///
/// UNVERIFIED(hw) [fact: nv2a-rcp-rsq-approx]: the NV2A reciprocal is an approximation (envytools: table + two
/// Newton-Raphson steps); the model divides exactly.
pub fn rcp(cfg: &Config, x: f32) -> f32 {
    let x = cfg.sub(x);
    if x == 1.0 {
        1.0
    } else {
        cfg.sub(canon(1.0 / x))
    }
}

/// RCC (NV_vertex_program1_1): [`rcp`], then the magnitude clamped to
/// [2^-64, 2^64] ([`RCC_MIN`], [`RCC_MAX`]) keeping the sign of the reciprocal: +0 → +2^64,
/// -0 → -2^64, +inf → +2^-64, -inf → -2^-64, 1.0 → 1.0, NaN → canonical NaN.
///
/// UNVERIFIED(hw) [fact: nv2a-rcc-sign]: the spec's pseudo-code sends a +0 reciprocal (from +inf) through its negative
/// branch, giving -2^-64; the sign-keeping rule is the envytools NV20 RCC (exponent clamp, sign
/// from the input) and the xemu wiki's "RCC boundaries" table.
pub fn rcc(cfg: &Config, x: f32) -> f32 {
    let r = rcp(cfg, x);
    if r.is_nan() {
        return r;
    }
    let sign = r.to_bits() & 0x8000_0000;
    let mag = r.to_bits() & 0x7FFF_FFFF;
    f32::from_bits(sign | mag.clamp(RCC_MIN, RCC_MAX))
}

/// RSQ: `1/sqrt(|x|)` replicated (the spec takes the absolute value). Special cases: |x| = 1.0 →
/// 1.0; ±0 → +inf; ±inf → +0; NaN → canonical NaN. Otherwise `1 / sqrt(|x|)`, two IEEE
/// roundings (sqrt, then divide).
///
/// UNVERIFIED(hw) [fact: nv2a-rcp-rsq-approx]: the NV2A computes an approximation; the model's is the two-rounding form.
pub fn rsq(cfg: &Config, x: f32) -> f32 {
    let t = cfg.sub(x).abs();
    if t == 1.0 {
        1.0
    } else {
        cfg.sub(canon(1.0 / t.sqrt()))
    }
}

/// The partial-precision 2^x of EXP's z (and LIT's power): with `i = floor(x)` and
/// `f = x - i` (rounded), `p(f) * 2^i` where p is [`EXP_POLY`] evaluated by Horner's rule, each
/// step rounded; the final product rounds once (so subnormal results are exact IEEE products).
/// Special cases: NaN → canonical NaN; x ≥ 128 (and +inf) → +inf; x < -149 (and -inf) → +0;
/// integers give exact powers of two.
pub fn exp2_partial(cfg: &Config, x: f32) -> f32 {
    let x = cfg.sub(x);
    if x.is_nan() {
        return f32::from_bits(CANONICAL_NAN);
    }
    if x >= 128.0 {
        return f32::INFINITY;
    }
    if x < -149.0 {
        return 0.0;
    }
    let i = x.floor();
    let f = x - i;
    let [c1, c2, c3] = EXP_POLY.map(f32::from_bits);
    let p = 1.0 + f * (c1 + f * (c2 + f * c3));
    cfg.sub(p * pow2i(i as i32))
}

/// EXP (NV_vertex_program, partial precision) on the scalar `x`:
/// `(2^floor(x), x - floor(x), exp2_partial(x), 1.0)`.
///
/// Special cases: x is exact ([`pow2i`]; +inf → +inf, -inf → +0); y is the IEEE difference
/// (±inf → canonical NaN, since inf - inf); z per [`exp2_partial`]; NaN → (NaN, NaN, NaN, 1.0).
pub fn exp(cfg: &Config, x: f32) -> [f32; 4] {
    let x = cfg.sub(x);
    if x.is_nan() {
        let n = f32::from_bits(CANONICAL_NAN);
        return [n, n, n, 1.0];
    }
    let fl = x.floor();
    [
        pow2_of_floor(fl),
        cfg.sub(canon(x - fl)),
        exp2_partial(cfg, x),
        1.0,
    ]
}

/// Splits a positive finite non-zero float into (unbiased exponent, mantissa in [1, 2)), exactly;
/// subnormals are normalised.
fn frexp2(t: f32) -> (i32, f32) {
    let b = t.to_bits();
    let e = ((b >> 23) & 0xFF) as i32;
    if e != 0 {
        (e - 127, f32::from_bits((b & 0x007F_FFFF) | 0x3F80_0000))
    } else {
        let m = b & 0x007F_FFFF;
        let shift = m.leading_zeros() as i32 - 8; // bring the top set bit to bit 23
        let norm = (m << shift) & 0x007F_FFFF;
        (-126 - shift, f32::from_bits(norm | 0x3F80_0000))
    }
}

/// The partial-precision log2 of LOG's z (and LIT's power) for `t = |x|`:
/// `e + q(m - 1)` with `t = m * 2^e`, m in [1, 2), q [`LOG_POLY`] by Horner's rule, each step
/// rounded. Special cases: 0 → -inf; inf → +inf; NaN → canonical NaN; exact powers of two give
/// their exponent exactly.
pub fn log2_partial(cfg: &Config, x: f32) -> f32 {
    let t = cfg.sub(x).abs();
    if t.is_nan() {
        return f32::from_bits(CANONICAL_NAN);
    }
    if t == 0.0 {
        return f32::NEG_INFINITY;
    }
    if t.is_infinite() {
        return f32::INFINITY;
    }
    let (e, m) = frexp2(t);
    let u = m - 1.0;
    let [d1, d2, d3, d4] = LOG_POLY.map(f32::from_bits);
    let q = u * (d1 + u * (d2 + u * (d3 + u * d4)));
    cfg.sub(e as f32 + q)
}

/// LOG (NV_vertex_program, partial precision) on `t = |x|`:
/// `(floor(log2 t), t / 2^floor(log2 t), log2_partial(t), 1.0)` — x and y exact (the exponent and
/// the mantissa in [1, 2), subnormals normalised).
///
/// Special cases: ±0 → (-inf, 1.0, -inf, 1.0); ±inf → (+inf, 1.0, +inf, 1.0);
/// NaN → (NaN, NaN, NaN, 1.0).
///
/// UNVERIFIED(hw) [fact: nv2a-log-special]: y = 1.0 for zero and infinity follows nv2a_vsh_cpu (its comment: not yet
/// validated on hardware).
pub fn log(cfg: &Config, x: f32) -> [f32; 4] {
    let t = cfg.sub(x).abs();
    if t.is_nan() {
        let n = f32::from_bits(CANONICAL_NAN);
        return [n, n, n, 1.0];
    }
    if t == 0.0 {
        return [f32::NEG_INFINITY, 1.0, f32::NEG_INFINITY, 1.0];
    }
    if t.is_infinite() {
        return [f32::INFINITY, 1.0, f32::INFINITY, 1.0];
    }
    let (e, m) = frexp2(t);
    [e as f32, m, log2_partial(cfg, t), 1.0]
}

/// LIT (NV_vertex_program): with `x' = x < 0 ? 0 : x`, `y' = y < 0 ? 0 : y`,
/// `w' = clamp(w, -LIT_POWER_MAX, LIT_POWER_MAX)` (NaN kept), the result is
/// `(1.0, x', x' > 0 ? power(y', w') : 0.0, 1.0)` where `power(0, 0) = 1.0` (spec) and otherwise
/// `power(b, e) = exp2_partial(mul(e, log2_partial(b)))` (the spec allows this form). So
/// `power(0, e > 0) = +0`, `power(0, e < 0) = +inf`, and with [`ZeroTimes::Zero`]
/// `power(b, 0) = 1.0`.
pub fn lit(cfg: &Config, v: [f32; 4]) -> [f32; 4] {
    let [x, y, _, w] = v.map(|c| cfg.sub(c));
    let x = if x < 0.0 { 0.0 } else { x };
    let y = if y < 0.0 { 0.0 } else { y };
    let lim = f32::from_bits(LIT_POWER_MAX);
    let w = if w < -lim {
        -lim
    } else if w > lim {
        lim
    } else {
        w
    };
    let z = if x > 0.0 {
        if y == 0.0 && w == 0.0 {
            1.0
        } else {
            exp2_partial(cfg, cfg.mul(w, log2_partial(cfg, y)))
        }
    } else {
        0.0
    };
    [1.0, x, z, 1.0]
}

/// ARL: `floor(x)` as an integer, saturating to the i32 range; NaN → 0.
///
/// UNVERIFIED(hw) [fact: nv2a-arl]: A0.x's width and out-of-range behaviour are not documented for the NV2A; the
/// model keeps the full integer and lets the constant read decide (see the interpreter). xemu
/// adds a 0.001 bias before `floor` to hide host rounding; the model does not.
pub fn arl(cfg: &Config, x: f32) -> i32 {
    // `as` saturates and maps NaN to 0.
    cfg.sub(x).floor() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn nv2a_arith_exp_poly_hits_two_at_one() {
        let [c1, c2, c3] = EXP_POLY.map(f32::from_bits);
        let f = 1.0f32;
        assert_eq!(b(1.0 + f * (c1 + f * (c2 + f * c3))), b(2.0));
        let [d1, d2, d3, d4] = LOG_POLY.map(f32::from_bits);
        let u = 1.0f32;
        assert_eq!(b(u * (d1 + u * (d2 + u * (d3 + u * d4)))), b(1.0));
    }

    #[test]
    fn nv2a_arith_pow2i_covers_subnormals() {
        assert_eq!(b(pow2i(0)), b(1.0));
        assert_eq!(b(pow2i(-126)), 0x0080_0000);
        assert_eq!(b(pow2i(-149)), 1);
        assert_eq!(b(pow2i(-150)), 0);
        assert_eq!(b(pow2i(128)), b(f32::INFINITY));
    }

    #[test]
    fn nv2a_arith_frexp_normalises_subnormals() {
        assert_eq!(frexp2(f32::from_bits(1)), (-149, 1.0));
        assert_eq!(frexp2(f32::from_bits(3)), (-148, 1.5));
        assert_eq!(frexp2(6.0), (2, 1.5));
    }

    #[test]
    fn nv2a_arith_flush_keeps_sign() {
        let cfg = Config {
            subnormals: Subnormals::Flush,
            ..Config::default()
        };
        assert_eq!(b(cfg.sub(f32::from_bits(0x8000_0001))), 0x8000_0000);
        assert_eq!(b(cfg.add(f32::from_bits(1), 0.0)), 0);
    }
}
