//! Fast paths of the shader ALU that give the same bits as [`super::alu`].
//!
//! The interpreter's hot path ([`super::interp::ShaderUnit::step`] without a trace, and
//! [`super::interp::ShaderUnit::run`]) calls these; [`super::alu`] stays the definition. Every
//! function here equals its [`super::alu`] counterpart on every input; the differential
//! property `model/tests/shader_fast.rs` checks that on 10^6 random cases drawn towards the
//! special operands, and on every pair of a set of edge values.
//!
//! - Whole instructions ([`mul4`], [`add4`], [`mad4`], [`dot3`], [`dot4`], [`doth`]) work on
//!   `f64` images of their lanes, lane-parallel and without branches (so that they vectorise),
//!   inside a window of exponents where every product and sum is exact in `f64` and stays in
//!   the f24 normal range; the truncation to f24 is then a mask of the low significand bits.
//!   Anything else (a lane outside the window, inf or NaN, a sum that is not exact) runs the
//!   [`super::alu`] functions for the whole instruction. The argument is next to
//!   [`WINDOW_LO`].
//! - Single lanes: [`mul`] multiplies two finite inputs (after the flush) in `f64`, exact
//!   because the significands have 17 bits, and truncates by bit work on the `f64` pattern
//!   ([`trunc_finite`]); [`add`] adds two finite inputs whose exponents differ by at most 35
//!   exactly in `f64` (the aligned sum has at most 17 + 35 + 1 bits), and otherwise returns
//!   the larger input (same signs) or one step below it toward zero (opposite signs), since the
//!   smaller one is below one unit in the last place of the larger. Inf and NaN take
//!   [`super::alu`].
//! - [`max4`], [`min4`], [`sge4`], [`slt4`] and the CMP comparisons ([`gt`], [`ge`], [`eq`])
//!   compare f24 bit patterns as sign-magnitude integers, which orders every non-NaN value like
//!   its `f64` value (±0 equal, subnormals by value); a NaN compares false.
//! - [`rsq`] and [`rcp`] read their result's mantissa from a table over one binade of inputs
//!   (exact: see [`RecipTables`]).

use super::alu::{self, MaxNegInf};
use crate::num::F24;

const SIGN: u32 = 0x80_0000;
const MAG: u32 = 0x7F_FFFF;
/// Biased exponent of infinities and NaNs.
const EXP_SPECIAL: u32 = 0x7F;
/// f64 biased exponent minus f24 biased exponent (1023 - 63).
const REBIAS: u64 = 960;

#[inline(always)]
fn exp(x: F24) -> u32 {
    (x.bits() >> 16) & 0x7F
}

/// The value of a normal f24 (biased exponent 1..=126) as `f64`.
#[inline(always)]
fn normal_to_f64(x: F24) -> f64 {
    let b = u64::from(x.bits());
    f64::from_bits((b >> 23) << 63 | (((b >> 16) & 0x7F) + REBIAS) << 52 | (b & 0xFFFF) << 36)
}

/// The value of an f24 with the ALU's input flush (exponent 0 → +0) as `f64`; `x` must be
/// finite.
#[inline(always)]
fn flushed_to_f64(x: F24) -> f64 {
    if exp(x) == 0 {
        0.0
    } else {
        normal_to_f64(x)
    }
}

/// [`F24::from_f64_trunc`] of a finite `x`: truncation toward zero, +0 below 2^-62, ±inf at or
/// above 2^64.
#[inline(always)]
pub fn trunc_finite(x: f64) -> F24 {
    let bits = x.to_bits();
    let ef = (bits >> 52) & 0x7FF;
    let e = ef.wrapping_sub(REBIAS);
    let sign = ((bits >> 63) as u32) << 23;
    if e.wrapping_sub(1) < 126 {
        F24::from_bits(sign | (e as u32) << 16 | ((bits >> 36) & 0xFFFF) as u32)
    } else if ef <= REBIAS {
        F24::ZERO
    } else {
        F24::from_bits(sign | EXP_SPECIAL << 16)
    }
}

/// [`alu::mul`].
#[inline(always)]
pub fn mul(a: F24, b: F24) -> F24 {
    let (ea, eb) = (exp(a), exp(b));
    if ea == EXP_SPECIAL || eb == EXP_SPECIAL {
        return alu::mul(a, b);
    }
    if ea == 0 || eb == 0 {
        return F24::ZERO;
    }
    trunc_finite(normal_to_f64(a) * normal_to_f64(b))
}

/// [`alu::add`].
#[inline(always)]
pub fn add(a: F24, b: F24) -> F24 {
    let (ea, eb) = (exp(a), exp(b));
    if ea == EXP_SPECIAL || eb == EXP_SPECIAL {
        return alu::add(a, b);
    }
    if ea.abs_diff(eb) <= 35 {
        return trunc_finite(flushed_to_f64(a) + flushed_to_f64(b));
    }
    // One input is below one unit in the last place of the other (or is flushed to +0).
    let (big, small_e) = if ea > eb { (a, eb) } else { (b, ea) };
    if small_e == 0 || (a.bits() ^ b.bits()) & SIGN == 0 {
        big
    } else {
        alu::flush(F24::from_bits(big.bits() - 1))
    }
}

/// [`alu::mad`].
#[inline(always)]
pub fn mad(a: F24, b: F24, c: F24) -> F24 {
    add(mul(a, b), c)
}

// ---- whole instructions in `f64`, with one "leave the fast path" flag ----
//
// The operand lanes an instruction uses are widened to `f64` images: ±0.0 for a lane with
// exponent 0 (the input flush; both zeros stand for the ALU's +0), the exact value otherwise.
// The fast path requires every such lane to be zero or to have a biased exponent in
// [`WINDOW_LO`, `WINDOW_HI`] (magnitudes in [2^-23, 2^30)); then
//
// - a product of two lanes is exact in `f64` (17-bit significands) and lies in
//   [2^-46, 2^60), inside the f24 normal range, so its truncation to f24 is a mask of the low
//   36 significand bits;
// - every value an instruction computes is a multiple of 2^-62 (the lanes are multiples of
//   2^-39, the products of 2^-78 before truncation and of 2^-62 after), so a non-zero sum is
//   never below 2^-62, and sums of at most four products stay below 2^62: no result leaves
//   the normal range;
// - a sum is exact in `f64` unless its operands' exponents are far apart; that is checked
//   (Fast2Sum: when |x| >= |y|, `s - x` is exact, so `s - x == y` and `s - y == x` both hold
//   exactly when `s = x + y` is the exact sum). An exact sum truncates by the mask as well.
//
// A lane outside the window (inf and NaN included) or an inexact sum sends the instruction to
// the [`alu`] functions (pure, so starting over is exact). A ±0.0 in a sum changes nothing
// (x + ±0 = x for x ≠ 0), so which zero an image holds never matters; [`to_f24`] gives +0 for
// both.

/// Low significand bits of an `f64` below f24 precision.
const BELOW_F24: u64 = (1 << 36) - 1;
/// Smallest biased exponent of the fast path's window (2^-23).
pub const WINDOW_LO: u32 = 40;
/// Largest biased exponent of the fast path's window (below 2^30).
pub const WINDOW_HI: u32 = 92;

/// The first `N` lanes of `v` as f64 images, and per lane `-1` where the lane is non-zero and
/// outside the window (0 elsewhere and for lanes from `N` on). The images go through f32
/// (exact: every f24 normal is an f32 normal). Written lane-parallel without branches so
/// that it vectorises.
#[inline(always)]
fn widen<const N: usize>(v: &[F24; 4]) -> ([f64; 4], [i32; 4]) {
    let b = v.map(F24::bits);
    let mut f = [0u32; 4];
    let mut out = [0i32; 4];
    for i in 0..4 {
        let e = (b[i] & 0x7F_0000) as i32;
        let d = e - (WINDOW_LO << 16) as i32;
        let outside = (d < 0) | (d > ((WINDOW_HI - WINDOW_LO) << 16) as i32);
        out[i] = -i32::from(outside & (e != 0) & (i < N));
        // f24 bias 63 → f32 bias 127; sign bit 23 → 31; mantissa 16 → 23 bits; exponent 0 → +0.
        let x = (((b[i] & MAG) << 7) + (64 << 23)) | (b[i] & SIGN) << 8;
        f[i] = if e == 0 { 0 } else { x };
    }
    (f.map(|x| f64::from(f32::from_bits(x))), out)
}

/// Whether any lane of the masks is set.
#[inline(always)]
fn any(m: [i32; 4]) -> bool {
    (m[0] | m[1] | m[2] | m[3]) != 0
}

/// Lane-wise or of masks.
#[inline(always)]
fn or(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]]
}

/// Truncation of an exact, in-range value to f24 precision.
#[inline(always)]
fn trunc64(x: f64) -> f64 {
    f64::from_bits(x.to_bits() & !BELOW_F24)
}

/// Truncated sum of two images; raises `bad` when the sum is not exact.
#[inline(always)]
fn add64(x: f64, y: f64, bad: &mut bool) -> f64 {
    let s = x + y;
    *bad |= (s - x != y) | (s - y != x);
    trunc64(s)
}

/// The f24 of an f32 holding a truncated, in-range value (±0 → +0).
#[inline(always)]
fn f32_to_f24(f: u32) -> u32 {
    let v = (f >> 8 & SIGN) | (f >> 7 & 0xFF_FFFF).wrapping_sub(64 << 16);
    if f << 1 == 0 {
        0
    } else {
        v
    }
}

/// The f24 of a truncated, in-range image (±0.0 → +0).
#[inline(always)]
fn to_f24(x: f64) -> F24 {
    let b = x.to_bits();
    let v = (b >> 63) << 23 | ((b >> 52) & 0x7FF).wrapping_sub(REBIAS) << 16 | (b >> 36) & 0xFFFF;
    F24::from_bits(if b << 1 == 0 { 0 } else { v as u32 })
}

/// [`to_f24`] of four lanes, through f32 (exact: 17 significant bits, exponent within f32's;
/// the conversions vectorise).
#[inline(always)]
fn to_f24_4(r: [f64; 4]) -> [F24; 4] {
    let f = r.map(|x| (x as f32).to_bits());
    let mut o = [0u32; 4];
    for i in 0..4 {
        o[i] = f32_to_f24(f[i]);
    }
    o.map(F24::from_bits)
}

/// [`alu::mul`] on each lane (MUL).
#[inline(always)]
pub fn mul4(a: &[F24; 4], b: &[F24; 4]) -> [F24; 4] {
    let ((x, oa), (y, ob)) = (widen::<4>(a), widen::<4>(b));
    if any(or(oa, ob)) {
        return exact2(a, b, alu::mul);
    }
    let mut p = [0.0; 4];
    for i in 0..4 {
        p[i] = trunc64(x[i] * y[i]);
    }
    to_f24_4(p)
}

/// [`alu::add`] on each lane (ADD).
#[inline(always)]
pub fn add4(a: &[F24; 4], b: &[F24; 4]) -> [F24; 4] {
    let ((x, oa), (y, ob)) = (widen::<4>(a), widen::<4>(b));
    let mut bad = any(or(oa, ob));
    let mut r = [0.0; 4];
    for i in 0..4 {
        r[i] = add64(x[i], y[i], &mut bad);
    }
    if bad {
        return exact2(a, b, alu::add);
    }
    to_f24_4(r)
}

/// [`alu::mad`] on each lane (MAD/MADI).
#[inline(always)]
pub fn mad4(a: &[F24; 4], b: &[F24; 4], c: &[F24; 4]) -> [F24; 4] {
    let ((x, oa), (y, ob), (z, oc)) = (widen::<4>(a), widen::<4>(b), widen::<4>(c));
    let mut bad = any(or(or(oa, ob), oc));
    let mut r = [0.0; 4];
    for i in 0..4 {
        r[i] = add64(trunc64(x[i] * y[i]), z[i], &mut bad);
    }
    if bad {
        return mad_exact(a, b, c);
    }
    to_f24_4(r)
}

#[cold]
#[inline(never)]
fn exact2(a: &[F24; 4], b: &[F24; 4], f: fn(F24, F24) -> F24) -> [F24; 4] {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

#[cold]
#[inline(never)]
fn mad_exact(a: &[F24; 4], b: &[F24; 4], c: &[F24; 4]) -> [F24; 4] {
    [0, 1, 2, 3].map(|i| alu::mad(a[i], b[i], c[i]))
}

#[cold]
#[inline(never)]
fn dot_exact(a: &[F24], b: &[F24]) -> F24 {
    alu::dot(a, b)
}

/// [`alu::dot`] of the first `N` (3 or 4) lanes.
#[inline(always)]
fn dot_n<const N: usize>(a: &[F24; 4], b: &[F24; 4]) -> F24 {
    let ((x, oa), (y, ob)) = (widen::<N>(a), widen::<N>(b));
    let mut bad = any(or(oa, ob));
    let mut p = [0.0; 4];
    for i in 0..4 {
        p[i] = trunc64(x[i] * y[i]);
    }
    let mut s = add64(add64(p[0], p[1], &mut bad), p[2], &mut bad);
    if N == 4 {
        s = add64(s, p[3], &mut bad);
    }
    if bad {
        return dot_exact(&a[..N], &b[..N]);
    }
    to_f24(s)
}

/// [`alu::dot`] of the x, y, z lanes (DP3).
#[inline(always)]
pub fn dot3(a: &[F24; 4], b: &[F24; 4]) -> F24 {
    dot_n::<3>(a, b)
}

/// [`alu::dot`] of the four lanes (DP4).
#[inline(always)]
pub fn dot4(a: &[F24; 4], b: &[F24; 4]) -> F24 {
    dot_n::<4>(a, b)
}

/// [`alu::dot`] of `[a.x, a.y, a.z, 1]` and `b` (DPH).
#[inline(always)]
pub fn doth(a: &[F24; 4], b: &[F24; 4]) -> F24 {
    dot_n::<4>(&[a[0], a[1], a[2], F24::ONE], b)
}

#[inline(always)]
fn is_nan(x: F24) -> bool {
    x.bits() & MAG > EXP_SPECIAL << 16
}

/// The f24 as a signed integer ordered like its value (±0 → 0); meaningless for NaN.
#[inline(always)]
fn key(x: F24) -> i32 {
    let m = (x.bits() & MAG) as i32;
    if x.bits() & SIGN != 0 {
        -m
    } else {
        m
    }
}

/// `a > b` on the values (IEEE: false with a NaN), without flushing.
#[inline(always)]
pub fn gt(a: F24, b: F24) -> bool {
    !is_nan(a) && !is_nan(b) && key(a) > key(b)
}

/// `a >= b` on the values, without flushing.
#[inline(always)]
pub fn ge(a: F24, b: F24) -> bool {
    !is_nan(a) && !is_nan(b) && key(a) >= key(b)
}

/// `a == b` on the values (+0 == -0, NaN unequal to everything), without flushing.
#[inline(always)]
pub fn eq(a: F24, b: F24) -> bool {
    !is_nan(a) && !is_nan(b) && key(a) == key(b)
}

/// [`alu::max`].
#[inline(always)]
pub fn max(a: F24, b: F24, knob: MaxNegInf) -> F24 {
    if knob == MaxNegInf::NegInf && a.is_zero() && b == F24::NEG_INFINITY {
        return b;
    }
    if gt(a, b) {
        a
    } else {
        b
    }
}

/// [`alu::min`].
#[inline(always)]
pub fn min(a: F24, b: F24) -> F24 {
    if gt(b, a) {
        a
    } else {
        b
    }
}

/// [`alu::sge`].
#[inline(always)]
pub fn sge(a: F24, b: F24) -> F24 {
    alu::bool_f24(ge(alu::flush(a), alu::flush(b)))
}

/// [`alu::slt`].
#[inline(always)]
pub fn slt(a: F24, b: F24) -> F24 {
    alu::bool_f24(gt(alu::flush(b), alu::flush(a)))
}

// ---- four lanes of the selecting and comparing operations, without branches ----

/// The key of [`key`] and whether the lane is a NaN, from raw bits (branch-free).
#[inline(always)]
fn key_bits(x: u32) -> (i32, bool) {
    let m = (x & MAG) as i32;
    let s = -((x >> 23) as i32 & 1);
    ((m ^ s) - s, m > (EXP_SPECIAL << 16) as i32)
}

/// Lane `i` of `a > b` on the values (false with a NaN), without flushing.
#[inline(always)]
fn gt_bits(a: u32, b: u32) -> bool {
    let ((ka, na), (kb, nb)) = (key_bits(a), key_bits(b));
    !(na | nb) & (ka > kb)
}

/// [`alu::max`] on each lane (MAX).
#[inline(always)]
pub fn max4(a: &[F24; 4], b: &[F24; 4], knob: MaxNegInf) -> [F24; 4] {
    let neg_inf_knob = knob == MaxNegInf::NegInf;
    let mut r = [0u32; 4];
    for i in 0..4 {
        let (x, y) = (a[i].bits(), b[i].bits());
        // max(±0, -inf) = -inf with [`MaxNegInf::NegInf`].
        let keep_b = neg_inf_knob & (x & MAG == 0) & (y == F24::NEG_INFINITY.bits());
        r[i] = if gt_bits(x, y) & !keep_b { x } else { y };
    }
    r.map(F24::from_bits)
}

/// [`alu::min`] on each lane (MIN).
#[inline(always)]
pub fn min4(a: &[F24; 4], b: &[F24; 4]) -> [F24; 4] {
    let mut r = [0u32; 4];
    for i in 0..4 {
        let (x, y) = (a[i].bits(), b[i].bits());
        r[i] = if gt_bits(y, x) { x } else { y };
    }
    r.map(F24::from_bits)
}

/// The ALU's input flush on raw bits.
#[inline(always)]
fn flush_bits(x: u32) -> u32 {
    if x & 0x7F_0000 == 0 {
        0
    } else {
        x
    }
}

/// [`alu::sge`] on each lane (SGE/SGEI).
#[inline(always)]
pub fn sge4(a: &[F24; 4], b: &[F24; 4]) -> [F24; 4] {
    let mut r = [0u32; 4];
    for i in 0..4 {
        let ((ka, na), (kb, nb)) = (
            key_bits(flush_bits(a[i].bits())),
            key_bits(flush_bits(b[i].bits())),
        );
        r[i] = if !(na | nb) & (ka >= kb) {
            F24::ONE.bits()
        } else {
            0
        };
    }
    r.map(F24::from_bits)
}

/// [`alu::slt`] on each lane (SLT/SLTI).
#[inline(always)]
pub fn slt4(a: &[F24; 4], b: &[F24; 4]) -> [F24; 4] {
    let mut r = [0u32; 4];
    for i in 0..4 {
        let ((ka, na), (kb, nb)) = (
            key_bits(flush_bits(a[i].bits())),
            key_bits(flush_bits(b[i].bits())),
        );
        r[i] = if !(na | nb) & (ka < kb) {
            F24::ONE.bits()
        } else {
            0
        };
    }
    r.map(F24::from_bits)
}

/// The result mantissas of RSQ and RCP over one binade of inputs (RSQ: two, by the exponent's
/// parity), taken from [`alu::rsq`] and [`alu::rcp`] the first time either is asked for (a
/// derived constant, like the debug map's region list: computing it costs about as much as
/// 200,000 calls of the reference functions, far less than building it into the binary).
///
/// Why a table is exact: both functions return the truncation toward zero of an exact value
/// that scales with the input by a power of two (`rsq(4x) = rsq(x) / 2`, `rcp(2x) = rcp(x) /
/// 2`), and truncation commutes with a power-of-two scale while the result stays normal. So a
/// result's mantissa depends only on the input's mantissa (and, for RSQ, on whether the
/// unbiased exponent is odd), and its exponent follows from the input's. For inputs in
/// `[1, 2)` (RCP) and `[1, 4)` (RSQ) the results lie in `(0.5, 1]`: biased exponent 62, or 63
/// for the input 1.0 alone. `model/tests/shader_fast.rs` compares [`rsq`] and [`rcp`] with the
/// reference on all 2^24 inputs.
struct RecipTables {
    /// RSQ: index `parity << 16 | mantissa`.
    rsq: Box<[u16]>,
    /// RCP: index `mantissa`.
    rcp: Box<[u16]>,
}

fn recip_tables() -> &'static RecipTables {
    static TABLES: std::sync::OnceLock<RecipTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| RecipTables {
        rsq: (0..1u32 << 17)
            .map(|i| {
                (alu::rsq(F24::from_bits((63 + (i >> 16)) << 16 | (i & 0xFFFF))).bits() & 0xFFFF)
                    as u16
            })
            .collect(),
        rcp: (0..1u32 << 16)
            .map(|m| (alu::rcp(F24::from_bits(63 << 16 | m)).bits() & 0xFFFF) as u16)
            .collect(),
    })
}

/// The address of the RSQ table ([`recip_tables`]: `u16` mantissas, index `parity << 16 |
/// mantissa`), for the shader JIT, which reads it inline.
pub(crate) fn rsq_table() -> *const u16 {
    recip_tables().rsq.as_ptr()
}

/// The address of the RCP table ([`recip_tables`]: `u16` mantissas, index `mantissa`), for the
/// shader JIT.
pub(crate) fn rcp_table() -> *const u16 {
    recip_tables().rcp.as_ptr()
}

/// [`alu::rsq`]: a positive normal `x` by table ([`recip_tables`]); every other input takes
/// [`alu::rsq`].
#[inline(always)]
pub fn rsq(x: F24) -> F24 {
    let (b, e) = (x.bits(), exp(x));
    if b & SIGN != 0 || e == 0 || e == EXP_SPECIAL {
        return alu::rsq(x);
    }
    // x = 1.m · 2^p · 2^(E - p), E = e - 63 unbiased, p = E mod 2, E - p even:
    // rsq(x) = rsq(1.m · 2^p) · 2^-((E - p) / 2), a normal (biased exponent 31..=94).
    let unbiased = e as i32 - 63;
    let p = (unbiased & 1) as u32;
    let i = p << 16 | (b & 0xFFFF);
    let m = u32::from(recip_tables().rsq[i as usize]);
    let er = 62 + i32::from(i == 0) - ((unbiased - p as i32) >> 1);
    F24::from_bits((er as u32) << 16 | m)
}

/// [`alu::rcp`]: a normal `x` whose reciprocal is normal by table ([`recip_tables`]); every
/// other input takes [`alu::rcp`].
#[inline(always)]
pub fn rcp(x: F24) -> F24 {
    let (b, e) = (x.bits(), exp(x));
    let m = b & 0xFFFF;
    // rcp(x) = ±rcp(1.m) · 2^-E: biased exponent 62 (63 for 1.m = 1) - (e - 63).
    let er = 125 + i32::from(m == 0) - e as i32;
    if e == 0 || e == EXP_SPECIAL || !(1..=126).contains(&er) {
        return alu::rcp(x);
    }
    let r = u32::from(recip_tables().rcp[m as usize]);
    F24::from_bits(b & SIGN | (er as u32) << 16 | r)
}
