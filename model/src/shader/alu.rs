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
//! | [`ex2`], [`lg2`] | yes | host `f64` exp2/log2, truncated (see the function docs) |
//! | [`flr`] | yes | exact floor |
//! | [`max`], [`min`] | no | select one input (3dbrew: max(s, 0) = s, no flush) |
//! | [`sge`], [`slt`] | yes | 1.0 or +0 |
//!
//! UNVERIFIED(hw): the hardware's precision for RCP/RSQ/EX2/LG2 and its rounding of ADD/MUL/
//! MAD/DP are not measured anywhere public (pica-facts §2); truncation is the model's rule,
//! chosen to match the float32→f24 conversion every assembler uses. The special values of
//! pica-facts §2 are all reproduced (tests in `shader::tests::alu`).

use crate::num::F24;

/// Which result `max(0, -inf)` gives: the one special value public sources disagree on.
///
/// UNVERIFIED(hw): 3dbrew's table says -inf; the aroulin/3ds-gpu-tests fp-tests expect 0
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

/// `2^x`: ex2(-inf) = +0 (pica-facts §2).
///
/// UNVERIFIED(hw): computed with the host `f64::exp2`, then truncated. `2^x` for a non-integer
/// f24 `x` is irrational, so the `f64` result (error < 1 ulp of `f64`) truncates to the same
/// f24 as the exact value unless the exact value lies within 2^-52 (relative) of an f24
/// boundary; integer `x` gives exact powers of two.
pub fn ex2(x: F24) -> F24 {
    trunc(flush(x).to_f64().exp2())
}

/// `log2(x)`: lg2(+0) = -inf, lg2(negative) = NaN (pica-facts §2). Same precision note as
/// [`ex2`].
pub fn lg2(x: F24) -> F24 {
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
/// UNVERIFIED(hw): MIN is assumed not to flush, like MAX (3dbrew only measured MAX).
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
