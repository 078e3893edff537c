//! Perspective-correct interpolation, and the conversions of colour and depth to integers.
//!
//! # The interpolator (bit-exact definition)
//!
//! Every step is an f24 operation of [`crate::shader::alu`] (exact result truncated toward zero,
//! subnormal inputs flushed: the shader ALU's rule) or [`div`] below, in this order:
//!
//! 1. Setup, per vertex `i`: `q_i = inv_w_i` (flushed) and, for every semantic `s`,
//!    `p_is = mul(a_is, q_i)`.
//! 2. Per pixel, the integer edge weights `b_i` (≥ 0, see [`super::setup::TriSetup`]) become
//!    f24 by truncation: `B_i = trunc_f24(b_i)` (exact for `b_i < 2^17`).
//! 3. `den = dot(B, q) = add(add(mul(B_0, q_0), mul(B_1, q_1)), mul(B_2, q_2))`.
//! 4. Every semantic: `attr_s = div(dot(B, p_s), den)`: the perspective-correct value
//!    `Σ b_i a_i / w_i / Σ b_i / w_i`.
//! 5. Depth, from CLIP's per-vertex `z` (already `z_c / w_c · scale + offset`):
//!    - z-buffer (GPUREG_DEPTHMAP_ENABLE = 1): `div(dot(B, z), dot(B, (1, 1, 1)))`, linear
//!      in screen space;
//!    - w-buffer (0): `div(dot(B, z), den)`, the screen-linear value times the pixel's `w`.
//!
//! UNVERIFIED(hw) [fact: rast-interpolation]: the structure (attribute/w and 1/w interpolated linearly in screen space,
//! then divided; depth linear in screen space, multiplied by w in w-buffer mode) is Azahar's
//! sw_rasterizer.cpp (`get_interpolated_attribute`, "interpolated_z_over_w", "W-Buffer (z *
//! scale + w * offset)"); the f24 precision and the truncating rounding of every step are the
//! model's rule (Azahar computes in host `float`). One rounded division (instead of Azahar's
//! multiply by a rounded reciprocal) keeps an attribute that is 1.0 at every vertex exactly
//! 1.0.

use super::config::DepthMode;
use crate::knobs::{RastColorConversion, RastDepthConversion};
use crate::num::F24;
use crate::pipe::{semantic, ScreenTri, NUM_SEMANTICS};
use crate::shader::alu;

/// `a / b`, the exact quotient truncated toward zero to f24 by the ALU rule (inputs flushed;
/// a result below the smallest normal is +0, one at or above 2^64 is ±infinity, NaN is
/// [`F24::NAN`]). `x / 0 = ±inf` (`0 / 0`, `inf / inf` = NaN), `x / inf = +0`.
///
/// The host `f64` quotient is correctly rounded (IEEE), and truncating it gives the truncation
/// of the exact quotient: two f24 significands `m_a, m_b < 2^17` give a quotient that is either
/// an f24 grid point itself or at least `1 / (m_b · 2^17) ≥ 2^-34` (relative) away from every
/// grid point, far more than the `2^-53` error of the `f64` division; and every quotient of
/// f24 values is an `f64` normal.
pub fn div(a: F24, b: F24) -> F24 {
    F24::from_f64_trunc(alu::flush(a).to_f64() / alu::flush(b).to_f64())
}

/// An edge weight as f24: the exact integer truncated toward zero to 17 significant bits.
pub fn weight_f24(b: i64) -> F24 {
    // |b| < 2^53 here (weights are below 2^34), so the f64 conversion is exact.
    F24::from_f64_trunc(b as f64)
}

/// A triangle's interpolation setup (step 1 of the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interpolator {
    /// `q_i`: 1/w per vertex, flushed.
    pub q: [F24; 3],
    /// `p_is = mul(a_is, q_i)`.
    pub p: [[F24; NUM_SEMANTICS]; 3],
    /// The depth-mapped z per vertex.
    pub z: [F24; 3],
}

/// What the interpolator gives for one pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interpolated {
    /// Every semantic (index = semantic value), perspective-correct.
    pub attr: [F24; NUM_SEMANTICS],
    /// Depth as f24 before quantization.
    pub depth: F24,
}

impl Interpolator {
    /// Per-vertex setup.
    pub fn new(tri: &ScreenTri) -> Self {
        let q = tri.v.map(|v| alu::flush(v.inv_w));
        let mut p = [[F24::ZERO; NUM_SEMANTICS]; 3];
        for (pi, (v, qi)) in p.iter_mut().zip(tri.v.iter().zip(q)) {
            for (ps, a) in pi.iter_mut().zip(v.v.attr) {
                *ps = alu::mul(a, qi);
            }
        }
        Self {
            q,
            p,
            z: tri.v.map(|v| v.z),
        }
    }

    /// Interpolates at the pixel with edge weights `b` (steps 2-5 of the module docs).
    pub fn at(&self, b: [i64; 3], mode: DepthMode) -> Interpolated {
        let bw = b.map(weight_f24);
        let den = alu::dot(&bw, &self.q);
        let mut attr = [F24::ZERO; NUM_SEMANTICS];
        for (s, out) in attr.iter_mut().enumerate() {
            let ps = [self.p[0][s], self.p[1][s], self.p[2][s]];
            *out = div(alu::dot(&bw, &ps), den);
        }
        let zsum = alu::dot(&bw, &self.z);
        let depth = match mode {
            DepthMode::ZBuffer => div(zsum, alu::dot(&bw, &[F24::ONE; 3])),
            DepthMode::WBuffer => div(zsum, den),
        };
        Interpolated { attr, depth }
    }
}

/// The semantics whose screen-space differences [`Interpolator::tex_deriv`] gives: (u, v) of
/// texcoord0, texcoord1, texcoord2.
pub const TEX_DERIV_SEMANTICS: [[usize; 2]; 3] = [
    [semantic::TEXCOORD0, semantic::TEXCOORD0 + 1],
    [semantic::TEXCOORD1, semantic::TEXCOORD1 + 1],
    [semantic::TEXCOORD2, semantic::TEXCOORD2 + 1],
];

impl Interpolator {
    /// One semantic at edge weights `b` (step 4 of the module docs; the weights may be
    /// negative: a pixel centre outside the triangle).
    pub fn semantic_at(&self, b: [i64; 3], s: usize) -> F24 {
        let bw = b.map(weight_f24);
        let den = alu::dot(&bw, &self.q);
        let ps = [self.p[0][s], self.p[1][s], self.p[2][s]];
        div(alu::dot(&bw, &ps), den)
    }

    /// The screen-space differences of the texture coordinates at a pixel whose interpolated
    /// semantics are `here`, given the edge weights of the pixel centres to its right
    /// (`right`, pixel (x+1, y)) and above (`up`, pixel (x, y+1)):
    /// `[u(x+1,y) − u, v(x+1,y) − v, u(x,y+1) − u, v(x,y+1) − v]` per texcoord set, each value
    /// interpolated exactly as [`Interpolator::at`] would at that centre (covered or not) and
    /// the difference taken with the ALU's `add` (truncating).
    ///
    /// UNVERIFIED(hw) [fact: rast-derivatives]: forward differences to the neighbouring pixel centres, per fragment —
    /// model choice standing in for the hardware's (unpublished) derivative rule; GPUs
    /// commonly difference within 2×2 quads, which this equals for the quad's lower-left pixel.
    pub fn tex_deriv(
        &self,
        here: &[F24; NUM_SEMANTICS],
        right: [i64; 3],
        up: [i64; 3],
    ) -> [[F24; 4]; 3] {
        TEX_DERIV_SEMANTICS.map(|[su, sv]| {
            let d = |b: [i64; 3], s: usize| alu::add(self.semantic_at(b, s), here[s].negate());
            [d(right, su), d(right, sv), d(up, su), d(up, sv)]
        })
    }
}

/// The 8-bit value of a colour channel: `round(c · 255)`, halves away from zero, computed
/// exactly; `c` saturates to [0, 1] first (so +inf gives 255, -inf 0) and NaN gives 0.
///
/// UNVERIFIED(hw) [fact: rast-color-conversion]: Azahar sw_rasterizer.cpp converts the interpolated colour with
/// `round(c * 255)` in host float (and no saturation); the hardware's rule is not documented.
/// Saturation matters only for rounding overshoot (vertex colours are saturated at the VS
/// output, pica-facts §3); NaN → 0 is the model's choice.
pub fn color_to_u8(c: F24) -> u8 {
    color_to_u8_with(c, RastColorConversion::Round)
}

/// [`color_to_u8`] with knob `rast-color-conversion`: [`RastColorConversion::Truncate`] takes
/// `floor(c · 255)` instead of rounding.
pub fn color_to_u8_with(c: F24, rule: RastColorConversion) -> u8 {
    if c.is_nan() || c.is_sign_negative() || c.exponent() == 0 {
        return 0;
    }
    let e = c.exponent();
    if e >= 63 {
        // c >= 1.0 (or +inf).
        return 255;
    }
    // c = m · 2^(e - 79) with e <= 62; c · 255 = m · 255 / 2^r.
    let m = u64::from((1 << 16) | c.mantissa());
    let r = 79 - e;
    let v = m * 255;
    if r >= 26 {
        // v < 2^25 <= 2^(r-1): below one half.
        return 0;
    }
    // c < 1, so the rounded value is at most 255.
    let half = match rule {
        RastColorConversion::Round => 1 << (r - 1),
        RastColorConversion::Truncate => 0,
    };
    u8::try_from((v + half) >> r).unwrap_or(u8::MAX)
}

/// The primary colour of a pixel from its interpolated semantics (colour.r/g/b/a).
pub fn color_of(attr: &[F24; NUM_SEMANTICS]) -> [u8; 4] {
    color_of_with(attr, RastColorConversion::Round)
}

/// [`color_of`] with knob `rast-color-conversion` ([`color_to_u8_with`]).
pub fn color_of_with(attr: &[F24; NUM_SEMANTICS], rule: RastColorConversion) -> [u8; 4] {
    let c = |i: usize| {
        color_to_u8_with(
            attr.get(semantic::COLOR + i).copied().unwrap_or(F24::ZERO),
            rule,
        )
    };
    [c(0), c(1), c(2), c(3)]
}

/// Quantizes a depth value to an unsigned `bits`-bit integer: `floor(d · (2^bits - 1))`,
/// computed exactly, with `d` saturated to [0, 1] first (+inf → all ones, -inf → 0) and NaN
/// giving 0. `bits` is clamped to 1..=24.
///
/// UNVERIFIED(hw) [fact: rast-depth-conversion]: Azahar sw_rasterizer.cpp clamps the depth to [0, 1] and truncates
/// `depth * ((1 << bits) - 1)` (host float); the hardware's rule is not documented. NaN → 0 is
/// the model's choice.
pub fn depth_to_uint(d: F24, bits: u32) -> u32 {
    depth_to_uint_with(d, bits, RastDepthConversion::Truncate)
}

/// [`depth_to_uint`] with knob `rast-depth-conversion`: [`RastDepthConversion::Round`] rounds
/// `d · (2^bits - 1)` to nearest (halves up) instead of truncating.
pub fn depth_to_uint_with(d: F24, bits: u32, rule: RastDepthConversion) -> u32 {
    let bits = bits.clamp(1, 24);
    let max = (1u64 << bits) - 1;
    if d.is_nan() || d.is_sign_negative() || d.exponent() == 0 {
        return 0;
    }
    let e = d.exponent();
    if e >= 63 {
        return u32::try_from(max).unwrap_or(u32::MAX);
    }
    // d = m · 2^(e - 79), e <= 62: d · max = m · max / 2^r, r >= 17; m · max < 2^41.
    let m = u64::from((1 << 16) | d.mantissa());
    let r = 79 - e;
    if r >= 64 {
        return 0;
    }
    let half = match rule {
        RastDepthConversion::Truncate => 0,
        RastDepthConversion::Round => 1u64 << (r - 1),
    };
    u32::try_from((m * max + half) >> r).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64) -> F24 {
        F24::from_f64_trunc(x)
    }

    #[test]
    fn rast_div_truncates_and_special_values() {
        assert_eq!(div(f(1.0), f(3.0)).bits(), 0x3D_5555); // 0.33333 truncated
        assert_eq!(div(f(-1.0), f(3.0)).bits(), 0xBD_5555);
        assert_eq!(div(f(2.0), f(27.0)).bits(), 0x3B_2F68);
        assert_eq!(div(f(6.0), f(3.0)), f(2.0));
        assert_eq!(div(f(1.0), F24::ZERO), F24::INFINITY);
        assert_eq!(div(f(-1.0), F24::ZERO), F24::NEG_INFINITY);
        assert_eq!(div(f(-1.0), F24::NEG_ZERO), F24::NEG_INFINITY); // -0 flushes to +0
        assert!(div(F24::ZERO, F24::ZERO).is_nan());
        assert!(div(F24::INFINITY, F24::INFINITY).is_nan());
        assert_eq!(div(f(5.0), F24::INFINITY), F24::ZERO);
        assert_eq!(div(f(-5.0), F24::INFINITY), F24::ZERO); // no negative zero
        assert!(div(F24::NAN, f(1.0)).is_nan());
        assert_eq!(div(F24::MAX, F24::MIN_POSITIVE), F24::INFINITY);
        assert_eq!(div(F24::MIN_POSITIVE, F24::MAX), F24::ZERO);
    }

    #[test]
    fn rast_color_to_u8_rounds_and_saturates() {
        assert_eq!(color_to_u8(f(1.0)), 255);
        assert_eq!(color_to_u8(f(0.5)), 128); // 127.5 → 128
        assert_eq!(color_to_u8(f(0.25)), 64); // 63.75
        assert_eq!(color_to_u8(f(1.0 / 255.0)), 1); // 0.99998 after truncation → 1
        assert_eq!(color_to_u8(f(0.5 / 255.0)), 0); // just under 0.5 after truncation
        assert_eq!(color_to_u8(f(1.5 / 255.0)), 1); // just under 1.5
        assert_eq!(color_to_u8(f(2.0)), 255);
        assert_eq!(color_to_u8(F24::INFINITY), 255);
        assert_eq!(color_to_u8(f(-0.5)), 0);
        assert_eq!(color_to_u8(F24::NEG_INFINITY), 0);
        assert_eq!(color_to_u8(F24::NAN), 0);
        assert_eq!(color_to_u8(F24::from_bits(1)), 0);
        assert_eq!(color_to_u8(F24::MIN_POSITIVE), 0);
        // The largest f24 below 1 (0x3EFFFF = 1 - 2^-17): 254.998 → 255.
        assert_eq!(color_to_u8(F24::from_bits(0x3E_FFFF)), 255);
        // Around 254.5: 0x3EFEFE · 255 = 254.49806 → 254, 0x3EFEFF · 255 = 254.500008 → 255.
        assert_eq!(color_to_u8(F24::from_bits(0x3E_FEFE)), 254);
        assert_eq!(color_to_u8(F24::from_bits(0x3E_FEFF)), 255);
    }

    #[test]
    fn rast_depth_to_uint_truncates_and_saturates() {
        assert_eq!(depth_to_uint(f(0.5), 24), 8_388_607);
        assert_eq!(depth_to_uint(f(0.5), 16), 32767);
        assert_eq!(depth_to_uint(f(1.0), 24), 0xFF_FFFF);
        assert_eq!(depth_to_uint(f(1.0), 16), 0xFFFF);
        assert_eq!(depth_to_uint(f(3.0), 16), 0xFFFF);
        assert_eq!(depth_to_uint(F24::INFINITY, 24), 0xFF_FFFF);
        assert_eq!(depth_to_uint(f(-0.25), 24), 0);
        assert_eq!(depth_to_uint(F24::NAN, 24), 0);
        assert_eq!(depth_to_uint(F24::MIN_POSITIVE, 24), 0);
        // 1 - 2^-17: floor((2^17 - 1)(2^24 - 1) / 2^17) = 0xFFFF7F, and 0xFFFE for 16 bits.
        assert_eq!(depth_to_uint(F24::from_bits(0x3E_FFFF), 24), 0xFF_FF7F);
        assert_eq!(depth_to_uint(F24::from_bits(0x3E_FFFF), 16), 0xFFFE);
        // Out-of-range bit counts are clamped.
        assert_eq!(depth_to_uint(f(1.0), 40), 0xFF_FFFF);
        assert_eq!(depth_to_uint(f(1.0), 0), 1);
    }

    #[test]
    fn rast_weight_f24_truncates_to_17_bits() {
        assert_eq!(weight_f24(0), F24::ZERO);
        assert_eq!(weight_f24(131_071).to_f64(), 131_071.0); // 2^17 - 1: exact
        assert_eq!(weight_f24(262_143).to_f64(), 262_142.0); // 2^18 - 1 truncated
    }
}
