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
use crate::shader::{alu, alu_fast};

/// [`alu::dot`] of three lanes, through [`alu_fast::dot3`] (the same bits on every input: the
/// differential property `model/tests/shader_fast.rs`). Per pixel this runs 27 times, so the
/// fast path is what makes the interpolator cheap.
#[inline(always)]
fn dot3(a: &[F24; 3], b: &[F24; 3]) -> F24 {
    alu_fast::dot3(
        &[a[0], a[1], a[2], F24::ZERO],
        &[b[0], b[1], b[2], F24::ZERO],
    )
}

/// `a / b`, the exact quotient truncated toward zero to f24 by the ALU rule (inputs flushed;
/// a result below the smallest normal is +0, one at or above 2^64 is ±infinity, NaN is
/// [`F24::NAN`]). `x / 0 = ±inf` (`0 / 0`, `inf / inf` = NaN), `x / inf = +0`.
///
/// The host `f64` quotient is correctly rounded (IEEE), and truncating it gives the truncation
/// of the exact quotient: two f24 significands `m_a, m_b < 2^17` give a quotient that is either
/// an f24 grid point itself or at least `1 / (m_b · 2^17) ≥ 2^-34` (relative) away from every
/// grid point, far more than the `2^-53` error of the `f64` division; and every quotient of
/// f24 values is an `f64` normal.
#[inline]
pub fn div(a: F24, b: F24) -> F24 {
    F24::from_f64_trunc(alu::flush(a).to_f64() / alu::flush(b).to_f64())
}

/// An edge weight as f24: the exact integer truncated toward zero to 17 significant bits.
pub fn weight_f24(b: i64) -> F24 {
    // |b| < 2^53 here (weights are below 2^34), so the f64 conversion is exact.
    F24::from_f64_trunc(b as f64)
}

// ---- the exact fast path of step 4 ----
//
// Step 4 is `div(dot(B, p_s), den)` for 24 semantics per pixel (and 12 more for the texture
// coordinate differences): most of RAST's work. The fast path computes the same bits on `f64`
// images of the operands, prepared once (`p_s` per triangle, `B` per pixel), with the argument
// of `alu_fast`'s whole-instruction paths (see the comment above `alu_fast::WINDOW_LO`): when
// every lane is zero or has a biased exponent in [WINDOW_LO, WINDOW_HI] (magnitudes in
// [2^-23, 2^30)), each product is exact in `f64` and lies in [2^-46, 2^60), so its truncation
// to f24 is a mask of the low 36 significand bits ([`trunc64`]); every value is then a
// multiple of 2^-62 below 2^62, so no sum leaves the f24 normal range; a sum is exact when
// `s - x == y` and `s - y == x` (Fast2Sum), and an exact sum truncates by the mask too. The
// dot product's f24 is then exactly the `f64` value (±0.0 standing for +0), and `div` of it is
// the `f64` quotient truncated. A lane outside the window or an inexact sum takes the
// definition (`dot3`, `div`). The test `rast_interp_fast_path_matches_definition` compares
// the two on random operands drawn towards the window's edges and the special values.

/// Low significand bits of an `f64` below f24 precision.
const BELOW_F24: u64 = (1 << 36) - 1;

/// Truncation of an exact, in-range `f64` to f24 precision.
#[inline(always)]
fn trunc64(x: f64) -> f64 {
    f64::from_bits(x.to_bits() & !BELOW_F24)
}

/// The `f64` value of `x` after the ALU's input flush, and whether it may enter the fast path
/// (zero, or a biased exponent inside the window).
#[inline(always)]
fn image(x: F24) -> (f64, bool) {
    let x = alu::flush(x);
    let e = x.exponent();
    (
        x.to_f64(),
        e == 0 || (alu_fast::WINDOW_LO..=alu_fast::WINDOW_HI).contains(&e),
    )
}

/// `f64` sum of two images; clears `exact` when the sum is not exact.
#[inline(always)]
fn add64(x: f64, y: f64, exact: &mut bool) -> f64 {
    let s = x + y;
    *exact &= (s - x == y) & (s - y == x);
    trunc64(s)
}

/// The value of `dot(b, p)` (three lanes, images inside the window) if every sum is exact.
#[inline(always)]
fn dot3_images(b: &[f64; 3], p: &[f64; 3]) -> Option<f64> {
    let mut exact = true;
    let s = add64(trunc64(b[0] * p[0]), trunc64(b[1] * p[1]), &mut exact);
    let s = add64(s, trunc64(b[2] * p[2]), &mut exact);
    exact.then_some(s)
}

/// A pixel's edge weights as the interpolator uses them (steps 2-3).
struct PixelWeights {
    /// `B_i`, f24.
    bw: [F24; 3],
    /// `den = dot(B, q)`.
    den: F24,
    /// Images of `B` for the fast path.
    img: [f64; 3],
    /// Whether every image is inside the window.
    fast: bool,
    /// `flush(den)` as `f64`: the divisor of `div`.
    den64: f64,
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
    /// `f64` images of `p_0s, p_1s, p_2s` per semantic, as bits (the fast path of step 4).
    p_img: [[u64; 3]; NUM_SEMANTICS],
    /// Bit `s` set: every image of semantic `s` is inside the fast path's window.
    p_fast: u32,
    /// `f64` images of `q` and of `z` (the fast path of steps 3 and 5), as bits, and whether
    /// every lane of each is inside the window.
    qz_img: [[u64; 3]; 2],
    /// Whether every lane of `q` (bit 0) and of `z` (bit 1) is inside the window.
    qz_fast: u8,
    /// Per semantic, the first semantic with the same three products `p_0s, p_1s, p_2s` (bit
    /// for bit; itself when none before it has them). Step 4 is a pure function of those
    /// products and the pixel's weights, so a repeated semantic takes the value already
    /// computed for its first: unwritten outputs (all 0 or all 1 at every vertex) and copies
    /// of one output under several semantics are then interpolated once per pixel.
    first_same: [u8; NUM_SEMANTICS],
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
                *ps = alu_fast::mul(a, qi);
            }
        }
        let mut p_img = [[0; 3]; NUM_SEMANTICS];
        let mut p_fast = 0;
        for (s, img) in p_img.iter_mut().enumerate() {
            let lanes = [p[0][s], p[1][s], p[2][s]].map(image);
            *img = lanes.map(|(v, _)| v.to_bits());
            if lanes.iter().all(|&(_, ok)| ok) {
                p_fast |= 1 << s;
            }
        }
        let z = tri.v.map(|v| v.z);
        let mut qz_img = [[0; 3]; 2];
        let mut qz_fast = 0;
        for (k, (img, lanes)) in qz_img.iter_mut().zip([q, z]).enumerate() {
            let lanes = lanes.map(image);
            *img = lanes.map(|(v, _)| v.to_bits());
            if lanes.iter().all(|&(_, ok)| ok) {
                qz_fast |= 1 << k;
            }
        }
        let lanes = |s: usize| [p[0][s], p[1][s], p[2][s]];
        let mut first_same = [0; NUM_SEMANTICS];
        for (s, first) in first_same.iter_mut().enumerate() {
            let t = (0..s).find(|&t| lanes(t) == lanes(s)).unwrap_or(s);
            // NUM_SEMANTICS (24) fits a u8.
            *first = t as u8;
        }
        Self {
            q,
            p,
            z,
            p_img,
            p_fast,
            qz_img,
            qz_fast,
            first_same,
        }
    }

    /// The semantic whose value semantic `s` shares (see `first_same`); `s` itself when it is
    /// the first with its products.
    #[inline(always)]
    fn first_same(&self, s: usize) -> usize {
        self.first_same.get(s).map_or(s, |&t| usize::from(t))
    }

    /// Interpolates at the pixel with edge weights `b` (steps 2-5 of the module docs).
    pub fn at(&self, b: [i64; 3], mode: DepthMode) -> Interpolated {
        let w = self.weights(b);
        let mut attr = [F24::ZERO; NUM_SEMANTICS];
        for s in 0..NUM_SEMANTICS {
            let t = self.first_same(s);
            // t <= s: a repeated semantic copies the value of its first, computed before it.
            let v = match attr.get(t) {
                Some(&v) if t < s => v,
                _ => self.semantic_with(&w, s),
            };
            if let Some(out) = attr.get_mut(s) {
                *out = v;
            }
        }
        let depth = self.depth_with(&w, mode);
        Interpolated { attr, depth }
    }

    /// Depth at the pixel of `w` (step 5), through the images when every lane is inside
    /// the window and every sum exact (the same bits as `dot3` and `div`: see the fast path's
    /// comment above [`BELOW_F24`]).
    #[inline]
    fn depth_with(&self, w: &PixelWeights, mode: DepthMode) -> F24 {
        let fast = w.fast && self.qz_fast & 2 != 0;
        let z = self.qz_img[1].map(f64::from_bits);
        let zsum = fast.then(|| dot3_images(&w.img, &z)).flatten();
        let divisor = match mode {
            // dot(B, (1, 1, 1)): the products are the weights themselves.
            DepthMode::ZBuffer => fast.then(|| dot3_images(&w.img, &[1.0; 3])).flatten(),
            DepthMode::WBuffer => Some(w.den64),
        };
        match (zsum, divisor) {
            (Some(n), Some(d)) => {
                // n, d: the dot products' f24 values exactly (±0.0 for +0), d flushed.
                let n = if n == 0.0 { 0.0 } else { n };
                let d = if d == 0.0 { 0.0 } else { d };
                F24::from_f64_trunc(n / d)
            }
            _ => {
                let zsum = dot3(&w.bw, &self.z);
                match mode {
                    DepthMode::ZBuffer => div(zsum, dot3(&w.bw, &[F24::ONE; 3])),
                    DepthMode::WBuffer => div(zsum, w.den),
                }
            }
        }
    }

    /// The f24 edge weights `B` of `b` and `den = dot(B, q)` (steps 2-3).
    ///
    /// Weights below 2^30 in magnitude (all but far outside a huge triangle) are inside the
    /// fast path's window: their images are the integers truncated to 17 significant bits
    /// (exact in `f64`, as [`weight_f24`]), and `den` comes from the images of `q` when its
    /// sums are exact, which is `dot3`'s own fast path on the same lanes.
    #[inline]
    fn weights(&self, b: [i64; 3]) -> PixelWeights {
        const WINDOW: i64 = 1 << 30;
        let fast = b.iter().all(|&v| v.unsigned_abs() < WINDOW as u64);
        if !fast {
            let bw = b.map(weight_f24);
            let den = dot3(&bw, &self.q);
            let lanes = bw.map(image);
            return PixelWeights {
                bw,
                den,
                img: lanes.map(|(v, _)| v),
                fast: lanes.iter().all(|&(_, ok)| ok),
                den64: alu::flush(den).to_f64(),
            };
        }
        // |v| < 2^30: `v as f64` is exact and the mask truncates it as `weight_f24` does; the
        // f24 of such an image is exact (0.0 → +0).
        let img = b.map(|v| trunc64(v as f64));
        let bw = img.map(alu_fast::trunc_finite);
        let q = self.qz_img[0].map(f64::from_bits);
        let den_img = (self.qz_fast & 1 != 0)
            .then(|| dot3_images(&img, &q))
            .flatten();
        let (den, den64) = match den_img {
            // The sum is the f24 `dot` exactly; ±0.0 is its +0.
            Some(d) => {
                let d = if d == 0.0 { 0.0 } else { d };
                (alu_fast::trunc_finite(d), d)
            }
            None => {
                let den = dot3(&bw, &self.q);
                (den, alu::flush(den).to_f64())
            }
        };
        PixelWeights {
            bw,
            den,
            img,
            fast: true,
            den64,
        }
    }

    /// Semantic `s` at the pixel of `w` (step 4): `div(dot(B, p_s), den)`.
    #[inline]
    fn semantic_with(&self, w: &PixelWeights, s: usize) -> F24 {
        if w.fast && (self.p_fast >> s) & 1 == 1 {
            let p = self
                .p_img
                .get(s)
                .map_or([0.0; 3], |l| l.map(f64::from_bits));
            if let Some(v) = dot3_images(&w.img, &p) {
                // v is the dot product's f24 exactly (±0.0 for +0, which divides alike).
                let v = if v == 0.0 { 0.0 } else { v };
                return F24::from_f64_trunc(v / w.den64);
            }
        }
        let ps = [self.p[0][s], self.p[1][s], self.p[2][s]];
        div(dot3(&w.bw, &ps), w.den)
    }
}

/// The semantics whose screen-space differences [`Interpolator::tex_deriv`] gives: (u, v) of
/// texcoord0, texcoord1, texcoord2.
pub const TEX_DERIV_SEMANTICS: [[usize; 2]; 3] = [
    [semantic::TEXCOORD0, semantic::TEXCOORD0 + 1],
    [semantic::TEXCOORD1, semantic::TEXCOORD1 + 1],
    [semantic::TEXCOORD2, semantic::TEXCOORD2 + 1],
];

/// [`TEX_DERIV_SEMANTICS`] flattened: the order of [`Interpolator::tex_values`].
const TEX_VALUE_SEMANTICS: [usize; 6] = [
    TEX_DERIV_SEMANTICS[0][0],
    TEX_DERIV_SEMANTICS[0][1],
    TEX_DERIV_SEMANTICS[1][0],
    TEX_DERIV_SEMANTICS[1][1],
    TEX_DERIV_SEMANTICS[2][0],
    TEX_DERIV_SEMANTICS[2][1],
];

impl Interpolator {
    /// One semantic at edge weights `b` (step 4 of the module docs; the weights may be
    /// negative: a pixel centre outside the triangle).
    pub fn semantic_at(&self, b: [i64; 3], s: usize) -> F24 {
        self.semantic_with(&self.weights(b), s)
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
        tex_deriv_from(here, &self.tex_values(right), &self.tex_values(up))
    }

    /// The six texture-coordinate semantics of [`TEX_DERIV_SEMANTICS`] (u, v of each set, in
    /// that order) at edge weights `b`, as [`Interpolator::at`] would give them there (`b`
    /// covered or not): what [`Interpolator::tex_deriv`] needs of a neighbouring centre. A
    /// semantic with the products of an earlier one takes its value (see `first_same`).
    pub fn tex_values(&self, b: [i64; 3]) -> [F24; 6] {
        let w = self.weights(b);
        let mut out = [F24::ZERO; 6];
        for (k, &s) in TEX_VALUE_SEMANTICS.iter().enumerate() {
            let first = self.first_same(s);
            let earlier = TEX_VALUE_SEMANTICS
                .iter()
                .take(k)
                .position(|&t| self.first_same(t) == first);
            let v = match earlier.and_then(|j| out.get(j)) {
                Some(&v) => v,
                None => self.semantic_with(&w, s),
            };
            if let Some(o) = out.get_mut(k) {
                *o = v;
            }
        }
        out
    }
}

/// [`Interpolator::tex_deriv`] from the texture-coordinate values at the neighbouring centres
/// ([`Interpolator::tex_values`] of the right and upper neighbours' weights): per set
/// `[u_right − u, v_right − v, u_up − u, v_up − v]`, each difference the ALU's `add` of the
/// negated value at `here`.
pub fn tex_deriv_from(
    here: &[F24; NUM_SEMANTICS],
    right: &[F24; 6],
    up: &[F24; 6],
) -> [[F24; 4]; 3] {
    let at = |vals: &[F24; 6], i: usize| vals.get(i).copied().unwrap_or(F24::ZERO);
    let here_at = |s: usize| here.get(s).copied().unwrap_or(F24::ZERO);
    // A set whose operands are those of an earlier set (one output under several
    // semantics, or unused sets all 0 or all 1) has that set's differences.
    let operands = |k: usize| {
        let [su, sv] = TEX_DERIV_SEMANTICS.get(k).copied().unwrap_or([0, 0]);
        let (u, v) = (2 * k, 2 * k + 1);
        [
            at(right, u),
            at(right, v),
            at(up, u),
            at(up, v),
            here_at(su),
            here_at(sv),
        ]
    };
    let mut out = [[F24::ZERO; 4]; 3];
    for k in 0..out.len() {
        let ops = operands(k);
        let earlier = (0..k).find(|&j| operands(j) == ops);
        let [ru, rv, uu, uv, hu, hv] = ops;
        let v = match earlier.and_then(|j| out.get(j)) {
            Some(&v) => v,
            // The four differences as one ADD instruction (`alu_fast::add4` is the ALU's add
            // on each lane, as `d`).
            None => alu_fast::add4(&[ru, rv, uu, uv], &[hu, hv, hu, hv].map(F24::negate)),
        };
        if let Some(o) = out.get_mut(k) {
            *o = v;
        }
    }
    out
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

    /// The definition of steps 2-5, with the ALU's reference functions.
    fn reference_at(ip: &Interpolator, b: [i64; 3], mode: DepthMode) -> Interpolated {
        let bw = b.map(weight_f24);
        let den = alu::dot(&bw, &ip.q);
        let attr = core::array::from_fn(|s| {
            div(alu::dot(&bw, &[ip.p[0][s], ip.p[1][s], ip.p[2][s]]), den)
        });
        let zsum = alu::dot(&bw, &ip.z);
        let depth = match mode {
            DepthMode::ZBuffer => div(zsum, alu::dot(&bw, &[F24::ONE; 3])),
            DepthMode::WBuffer => div(zsum, den),
        };
        Interpolated { attr, depth }
    }

    #[test]
    fn rast_interp_fast_path_matches_definition() {
        use crate::pipe::{OutVertex, ScreenVertex};
        let mut state = 0x2545_F491_u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        // Exponents drawn towards the window's edges, 1.0, zero and the specials.
        let (lo, hi) = (alu_fast::WINDOW_LO, alu_fast::WINDOW_HI);
        let exps = [
            0,
            1,
            lo - 1,
            lo,
            lo + 1,
            60,
            62,
            63,
            64,
            70,
            hi - 1,
            hi,
            hi + 1,
            126,
            127,
        ];
        let value = |next: &mut dyn FnMut() -> u32| {
            let r = next();
            let e = if r % 4 == 0 {
                exps[(r >> 2) as usize % exps.len()]
            } else {
                55 + (r >> 2) % 20
            };
            let m = if next() % 8 == 0 { 0 } else { next() & 0xFFFF };
            F24::from_parts(next() % 3 == 0, e, m)
        };
        let weight = |next: &mut dyn FnMut() -> u32| -> i64 {
            match next() % 6 {
                0 => 0,
                1 => i64::from(next() % 64),
                2 => i64::from(next()) << (next() % 3),
                _ => i64::from(next() % 100_000),
            }
        };
        for case in 0..4000 {
            let v = core::array::from_fn(|_| {
                let mut o = OutVertex::ONES;
                for a in &mut o.attr {
                    *a = value(&mut next);
                }
                ScreenVertex {
                    x: F24::ZERO,
                    y: F24::ZERO,
                    z: value(&mut next),
                    inv_w: value(&mut next),
                    v: o,
                }
            });
            let ip = Interpolator::new(&ScreenTri { seq: 0, v });
            for _ in 0..8 {
                let b = [0; 3].map(|_: i64| weight(&mut next));
                for mode in [DepthMode::ZBuffer, DepthMode::WBuffer] {
                    assert_eq!(
                        ip.at(b, mode),
                        reference_at(&ip, b, mode),
                        "case {case} {b:?}"
                    );
                }
                let s = next() as usize % NUM_SEMANTICS;
                assert_eq!(
                    ip.semantic_at(b, s),
                    reference_at(&ip, b, DepthMode::ZBuffer).attr[s]
                );
            }
        }
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
