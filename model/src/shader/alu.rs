//! Float24 arithmetic of the shader ALU, defined on bits.
//!
//! Rounding rule of every operation ("the model rule"): compute the exact real result of the
//! operation on the (flushed) inputs, then truncate toward zero to f24; a result whose
//! magnitude is below the smallest normal (2^-62) becomes +0 (no subnormals, no negative zero:
//! pica-facts §2); a result at or above 2^64 becomes ±infinity; every NaN is the canonical
//! [`F24::NAN`]. Inputs with exponent 0 (subnormals and -0) are flushed to +0 first.
//!
//! | op | inputs flushed | rule |
//! |----|----------------|------|
//! | [`add`] | yes | exact sum, truncated (exact: TwoSum error term decides the last step) |
//! | [`mul`] | yes | exact product, truncated; inf·0 = +0 (hardware, pica-facts §2) |
//! | [`mad`] | yes | `add(mul(a, b), c)`: product truncated before the add (3dbrew: not fused) |
//! | [`dot`] | yes | products by [`mul`], summed left to right by [`add`] |
//! | [`rcp`] | yes | exact 1/x, truncated (FMA residual decides the last step) |
//! | [`rsq`] | yes | exact 1/sqrt(x), truncated (checked exactly with g²·x ≤ 1) |
//! | [`ex2`], [`lg2`] | yes | fixed-point algorithm (62-bit products, 20-entry root table / 60 squarings), truncated; the old host-`f64` versions are [`ex2_f64_reference`] and [`lg2_f64_reference`] |
//! | [`flr`] | yes | exact floor |
//! | [`max`], [`min`] | no | select one input (3dbrew: max(s, 0) = s, no flush) |
//! | [`sge`], [`slt`] | yes | 1.0 or +0 |
//!
//! UNVERIFIED(hw) [fact: shader-alu-rounding]: the hardware's precision for RCP/RSQ/EX2/LG2 and its rounding of ADD/MUL/
//! MAD/DP are not measured anywhere public (pica-facts §2); truncation is the model's rule,
//! chosen to match the float32→f24 conversion every assembler uses. The special values of
//! pica-facts §2 are all reproduced (tests in `shader::tests::alu`).

use crate::num::F24;

/// Which result `max(0, -inf)` gives: the one special value public sources disagree on.
///
/// UNVERIFIED(hw) [fact: shader-max-neg-inf]: 3dbrew's table says -inf; the aroulin/3ds-gpu-tests fp-tests expect 0
/// (pica-facts §2). Default: [`MaxNegInf::Zero`], which is also what the plain rule
/// `a > b ? a : b` (that reproduces every other MAX entry) gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum MaxNegInf {
    /// `max(0, -inf) = 0` (fp-tests; the plain rule).
    #[default]
    Zero,
    /// `max(±0, -inf) = -inf` (3dbrew).
    NegInf,
}

/// ±0 and subnormals become +0.
#[inline]
pub fn flush(x: F24) -> F24 {
    x.flush_subnormal()
}

#[inline]
fn trunc(x: f64) -> F24 {
    F24::from_f64_trunc(x)
}

/// One f24 step toward zero from a finite non-zero normal `r` (+0 if that leaves the normals).
fn step_toward_zero(r: F24) -> F24 {
    flush(F24::from_bits(r.bits() - 1))
}

/// One f24 step away from zero from a finite normal `r`.
fn step_away(r: F24) -> F24 {
    F24::from_bits(r.bits() + 1)
}

/// Truncates the exact value `hi + lo` (with `hi = fl(hi + lo)`, `lo` the exact rounding error)
/// toward zero. A grid point of f24 lies between the exact value and `hi` only if it is `hi`
/// itself (f24 values are `f64` values and `hi` is the nearest `f64`), so only that case needs
/// the step.
fn trunc_pair(hi: f64, lo: f64) -> F24 {
    let r = trunc(hi);
    if lo != 0.0 && hi != 0.0 && r.to_f64() == hi && (lo < 0.0) != (hi < 0.0) {
        step_toward_zero(r)
    } else {
        r
    }
}

/// `a + b`.
pub fn add(a: F24, b: F24) -> F24 {
    let (a, b) = (flush(a).to_f64(), flush(b).to_f64());
    let s = a + b;
    if !s.is_finite() {
        return trunc(s);
    }
    // TwoSum (Knuth): err is the exact rounding error of s.
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    trunc_pair(s, err)
}

/// `a * b`; inf·0 = +0 (pica-facts §2: "inf*0 = 0 everywhere a multiply happens"), NaN·0 = NaN.
pub fn mul(a: F24, b: F24) -> F24 {
    let (a, b) = (flush(a), flush(b));
    if (a.is_infinite() && b.is_zero()) || (a.is_zero() && b.is_infinite()) {
        return F24::ZERO;
    }
    // 17-bit × 17-bit significands: the product is exact in f64.
    trunc(a.to_f64() * b.to_f64())
}

/// `a * b + c`, the product rounded first (MAD/MADI; 3dbrew: "not an FMA").
pub fn mad(a: F24, b: F24, c: F24) -> F24 {
    add(mul(a, b), c)
}

/// Sum of `a[i] * b[i]` over the lanes given, left to right.
pub fn dot(a: &[F24], b: &[F24]) -> F24 {
    let mut acc: Option<F24> = None;
    for (&x, &y) in a.iter().zip(b) {
        let p = mul(x, y);
        acc = Some(match acc {
            None => p,
            Some(s) => add(s, p),
        });
    }
    acc.unwrap_or(F24::ZERO)
}

/// `1 / x`: rcp(±0) = +inf, rcp(±inf) = +0, rcp(NaN) = NaN (pica-facts §2).
pub fn rcp(x: F24) -> F24 {
    let x = flush(x);
    if x.is_zero() {
        return F24::INFINITY;
    }
    let xf = x.to_f64();
    let q = 1.0 / xf;
    if !q.is_finite() || q == 0.0 || q.is_nan() {
        return trunc(q);
    }
    let r = trunc(q);
    // q·x − 1 > 0 ⇔ |q| > |1/x| (q and x have the same sign); FMA gives its sign exactly.
    if r.to_f64() == q && q.mul_add(xf, -1.0) > 0.0 {
        step_toward_zero(r)
    } else {
        r
    }
}

/// `1 / sqrt(x)`: rsq(±0) = +inf, rsq(+inf) = +0, negative or NaN → NaN (pica-facts §2).
pub fn rsq(x: F24) -> F24 {
    let x = flush(x);
    if x.is_zero() {
        return F24::INFINITY;
    }
    if x.is_nan() || x.is_sign_negative() {
        return F24::NAN;
    }
    if x.is_infinite() {
        return F24::ZERO;
    }
    let xf = x.to_f64();
    let mut g = trunc(1.0 / xf.sqrt());
    // g is a normal for every normal x (the result lies in (2^-32, 2^31]). g²·x has at most
    // 17+17+17 significant bits: exact in f64, so these tests are exact.
    let too_big = |g: F24| g.to_f64() * g.to_f64() * xf > 1.0;
    while too_big(g) {
        g = step_toward_zero(g);
    }
    while !too_big(step_away(g)) {
        g = step_away(g);
    }
    g
}

/// `2^x` by the fixed-point algorithm below; ex2(-inf) = +0, ex2(+inf) = +inf, NaN → NaN,
/// results at or above 2^64 → +inf, below 2^-62 → +0 (pica-facts §2).
///
/// Algorithm (widths exact; `rtl-bridge/rtl/pica_f24_ex2.sv` implements the same steps):
/// 1. flush; specials; `|x| >= 64` (biased exponent >= 69) → +inf or +0;
/// 2. the tiny-negative rule: `-x` at most [`EX2_TINY_NEG_MAX`] (biased exponent < 9, or 9
///    with mantissa <= 29012, i.e. `|x| <= 2^-54/ln 2`) gives 1.0 (see below);
/// 3. `x` as a signed fixed-point number with 78 fraction bits (exact for every f24 below 64):
///    `X = ±(1.m << (E - 1))`; `i = X >> 78` (floor), `f = X mod 2^78` in [0, 1);
/// 4. `P = 2^f` with 62 fraction bits, every product truncated (`(p * c) >> 62`, 126-bit):
///    start at 1.0, multiply by [`EX2_ROOTS`]`[k-1]` = 2^(2^-k) for each set bit k = 1..20 of
///    `f` (bit k weighs 2^-k), then by `1 + t + (t² >> 63)` with
///    `t = (f_lo · `[`EX2_LN2`]`) >> 78` (f_lo = the low 58 bits of f, below 2^-20; the cubic
///    term is below 2^-65 and dropped);
/// 5. result = `2^i · P`: biased exponent `i + 63` (≤ 0 → +0), mantissa = bits 61..46 of P
///    (truncation).
///
/// Every step rounds down, so P is a lower bound of 2^f within about 2^-57, and the result is
/// the truncation of the exact value except when that lies within 2^-57 (relative) above an
/// f24 boundary. Step 2 reproduces what the `f64` reference does where the exact value lies
/// within 2^-54 below 1.0 (`f64` rounds it up to 1.0; exact truncation would give 0x3EFFFF);
/// a unit working in fixed point with fewer fraction bits would also see 1.0 there.
///
/// Over all 2^24 inputs this gives exactly the bits of [`ex2_f64_reference`] on this
/// project's hosts (0 differences; the count is the ignored test
/// `shader::tests::alu::alu_ex2_lg2_count_vs_f64_reference`, run it with
/// `cargo test -p pica-model --release --lib -- --ignored ex2_lg2_count --nocapture`).
///
/// UNVERIFIED(hw) [fact: shader-ex2-lg2]: the hardware's EX2 precision and algorithm are not measured anywhere public
/// (pica-facts §2); this is the model's definition, chosen so gates can compute it — source:
/// this function (issue 15).
pub fn ex2(x: F24) -> F24 {
    let x = flush(x);
    if x.is_nan() {
        return F24::NAN;
    }
    let neg = x.is_sign_negative();
    if x.is_infinite() || x.exponent() >= EX2_OVERFLOW_EXP {
        return if neg { F24::ZERO } else { F24::INFINITY };
    }
    if x.is_zero() || (neg && x.abs().bits() <= EX2_TINY_NEG_MAX.bits()) {
        return F24::ONE;
    }
    let mag = i128::from((1 << 16) | x.mantissa()) << (x.exponent() - 1);
    let fx = if neg { -mag } else { mag };
    let i = fx >> EX2_X_FRAC;
    let f = (fx & ((1 << EX2_X_FRAC) - 1)) as u128;
    let mut p: u128 = 1 << FX;
    for (k, &c) in EX2_ROOTS.iter().enumerate() {
        if (f >> (EX2_X_FRAC - 1 - k as u32)) & 1 != 0 {
            p = (p * u128::from(c)) >> FX;
        }
    }
    let f_lo = f & ((1 << (EX2_X_FRAC - EX2_ROOTS.len() as u32)) - 1);
    let t = (f_lo * u128::from(EX2_LN2)) >> EX2_X_FRAC;
    let q = (1 << FX) + t + ((t * t) >> (FX + 1));
    p = (p * q) >> FX;
    let be = i + 63;
    if be <= 0 {
        return F24::ZERO;
    }
    F24::from_parts(false, be as u32, ((p >> (FX - 16)) & 0xFFFF) as u32)
}

/// Fraction bits of the fixed-point values inside [`ex2`] and [`lg2`] (P, the table constants,
/// the squared argument of LG2).
const FX: u32 = 62;
/// Fraction bits of `x` inside [`ex2`]: every f24 below 64 is exact (its lowest bit weighs at
/// least 2^-78).
const EX2_X_FRAC: u32 = 78;
/// Biased exponent from which `|x| >= 64`: ex2 gives +inf or +0.
const EX2_OVERFLOW_EXP: u32 = 69;

/// The largest magnitude of a negative `x` for which [`ex2`] gives 1.0: 2^-54 · (1 + 29012/2^16)
/// ≤ 2^-54/ln 2 (= 2^-54 · 1.44269...), where `2^x` lies within 2^-54 below 1.0 and the `f64`
/// reference rounds to 1.0.
pub const EX2_TINY_NEG_MAX: F24 = F24::from_parts(false, 9, 29012);

/// 2^(2^-k) for k = 1..=20, unsigned fixed point with 62 fraction bits, truncated (computed
/// with 60-digit decimal arithmetic; the same literals are in `pica_f24_ex2.sv`).
pub const EX2_ROOTS: [u64; 20] = [
    0x5a82_7999_fcef_3242,
    0x4c1b_f828_c6dc_54b7,
    0x45ca_e0f1_f545_eb73,
    0x42d5_61b3_e624_3d8a,
    0x4166_c34c_5615_d0eb,
    0x40b2_68f9_de01_83b9,
    0x4058_f6a7_eccc_d5b6,
    0x402c_6be9_6af2_fb58,
    0x4016_321b_6870_27a8,
    0x400b_1817_8ba3_3b14,
    0x4005_8bce_4101_47e8,
    0x4002_c5d7_bff7_1dae,
    0x4001_62e8_07ee_7e5b,
    0x4000_b173_0df6_a524,
    0x4000_58b9_497b_8151,
    0x4000_2c5c_955d_d701,
    0x4000_162e_46d6_f26b,
    0x4000_0b17_2275_7b1b,
    0x4000_058b_90fd_3e0c,
    0x4000_02c5_c86f_3f26,
];

/// ln 2 with 62 fraction bits, truncated.
pub const EX2_LN2: u64 = 0x2c5c_85fd_f473_de6a;

/// `2^x` with the host `f64::exp2`, truncated: the model's EX2 before issue 15, kept as the
/// reference that [`ex2`] is counted against.
///
/// `2^x` for a non-integer f24 `x` is irrational, so the `f64` result (error < 1 ulp of `f64`)
/// truncates to the same f24 as the exact value unless the exact value lies within 2^-52
/// (relative) of an f24 boundary; integer `x` gives exact powers of two. Depends on the host
/// libm, which is why the model no longer uses it.
pub fn ex2_f64_reference(x: F24) -> F24 {
    trunc(flush(x).to_f64().exp2())
}

/// `log2(x)` by the fixed-point algorithm below: lg2(±0) = lg2(subnormal) = -inf,
/// lg2(negative) = NaN, lg2(+inf) = +inf, NaN → NaN (pica-facts §2).
///
/// Algorithm (widths exact; `rtl-bridge/rtl/pica_f24_lg2.sv` implements the same steps): for
/// `x = 1.m · 2^e`, `y = 1.m` with 62 fraction bits; 60 times: `y = (y·y) >> 62` (126-bit
/// product, truncated), the next fraction bit of log2(1.m) is `y >= 2`, and then `y >>= 1`.
/// `L = e · 2^60 + bits` is log2(x) in signed fixed point with 60 fraction bits; the result is
/// `L` converted to f24 with its magnitude truncated (never over- or underflows: |log2 x| < 64
/// and the smallest non-zero |L| is about 2^-17).
///
/// The bits are those of the exact log2 except where a squared value lies within the
/// accumulated truncation error (about 2^-56 of log2) of 2, so the result is the exact value
/// truncated except within that distance of an f24 boundary.
///
/// Over all 2^24 inputs this gives exactly the bits of [`lg2_f64_reference`] (0 differences;
/// counted by the same ignored test as [`ex2`]).
///
/// UNVERIFIED(hw) [fact: shader-ex2-lg2]: the hardware's LG2 precision and algorithm are not measured anywhere public
/// (pica-facts §2); this is the model's definition, chosen so gates can compute it — source:
/// this function (issue 15).
pub fn lg2(x: F24) -> F24 {
    let x = flush(x);
    if x.is_nan() || (x.is_sign_negative() && !x.is_zero()) {
        return F24::NAN;
    }
    if x.is_zero() {
        return F24::NEG_INFINITY;
    }
    if x.is_infinite() {
        return F24::INFINITY;
    }
    let mut y = u128::from((1 << 16) | x.mantissa()) << (FX - 16);
    let mut bits: u128 = 0;
    for _ in 0..LG2_BITS {
        y = (y * y) >> FX;
        bits <<= 1;
        if y >= 2 << FX {
            bits |= 1;
            y >>= 1;
        }
    }
    let l = ((i128::from(x.exponent()) - 63) << LG2_BITS) + bits as i128;
    fixed_to_f24_trunc(l, LG2_BITS)
}

/// Fraction bits of log2(1.m) that [`lg2`] computes.
const LG2_BITS: u32 = 60;

/// The signed fixed-point value `l · 2^-frac` as f24, magnitude truncated (0 → +0). The caller
/// guarantees the value lies in the normal range.
fn fixed_to_f24_trunc(l: i128, frac: u32) -> F24 {
    if l == 0 {
        return F24::ZERO;
    }
    let mag = l.unsigned_abs();
    let lead = 127 - mag.leading_zeros();
    let mant = if lead >= 16 {
        mag >> (lead - 16)
    } else {
        mag << (16 - lead)
    };
    let be = i64::from(lead) - i64::from(frac) + 63;
    F24::from_parts(l < 0, be as u32, (mant & 0xFFFF) as u32)
}

/// `log2(x)` with the host `f64::log2`, truncated: the model's LG2 before issue 15, kept as the
/// reference that [`lg2`] is counted against (same precision note as [`ex2_f64_reference`]).
pub fn lg2_f64_reference(x: F24) -> F24 {
    let x = flush(x);
    if x.is_zero() {
        return F24::NEG_INFINITY;
    }
    trunc(x.to_f64().log2())
}

/// `floor(x)` (exact: the floor of an f24 is an f24).
pub fn flr(x: F24) -> F24 {
    trunc(flush(x).to_f64().floor())
}

/// `a > b ? a : b` on the values, without flushing (3dbrew: max(s, 0) = s); reproduces
/// max(0, NaN) = NaN, max(NaN, 0) = 0; `max(±0, -inf)` follows `knob`.
pub fn max(a: F24, b: F24, knob: MaxNegInf) -> F24 {
    if knob == MaxNegInf::NegInf && a.is_zero() && b == F24::NEG_INFINITY {
        return b;
    }
    if a.to_f64() > b.to_f64() {
        a
    } else {
        b
    }
}

/// `a < b ? a : b` on the values, without flushing; reproduces min(0, NaN) = NaN,
/// min(NaN, 0) = 0.
///
/// UNVERIFIED(hw) [fact: shader-min-no-flush]: MIN is assumed not to flush, like MAX (3dbrew only measured MAX); knob `min-subnormal=flush` flushes (`shader::interp::MinSubnormal`).
pub fn min(a: F24, b: F24) -> F24 {
    if a.to_f64() < b.to_f64() {
        a
    } else {
        b
    }
}

/// 1.0 if `a >= b` else +0 (NaN on either side gives 0).
pub fn sge(a: F24, b: F24) -> F24 {
    bool_f24(flush(a).to_f64() >= flush(b).to_f64())
}

/// 1.0 if `a < b` else +0 (NaN on either side gives 0).
pub fn slt(a: F24, b: F24) -> F24 {
    bool_f24(flush(a).to_f64() < flush(b).to_f64())
}

/// 1.0 or +0.
pub fn bool_f24(b: bool) -> F24 {
    if b {
        F24::ONE
    } else {
        F24::ZERO
    }
}

/// LITP's clamp bound for y: 127.9961 as f24 (127 + 255/256, bits 0x45FFFC); 3dbrew
/// GPU/Shader_Instruction_Set gives the decimal, truncation to f24 gives these bits.
pub const LITP_Y_BOUND: F24 = F24::from_bits(0x45_FFFC);
