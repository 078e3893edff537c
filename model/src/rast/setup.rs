//! Triangle setup: window coordinates to 12.4 fixed point, edge functions, the fill rule and the
//! pixel bounding box.
//!
//! Everything after the f24 → 12.4 conversion is exact integer arithmetic (`i64`; the largest
//! product is below 2^34), so coverage is decided without any rounding.

use crate::knobs::{RastFillRule, RastFix12p4};
use crate::num::F24;
use crate::pipe::ScreenTri;

/// Fractional bits of the rasterizer's fixed-point window coordinates (12.4: 1/16 pixel).
pub const FRAC_BITS: u32 = 4;

/// One pixel in 12.4 units.
pub const ONE: i32 = 1 << FRAC_BITS;

/// Offset of a pixel centre from the pixel's corner, in 12.4 units (+0.5 pixel).
pub const CENTRE: i32 = ONE / 2;

/// The largest 12.4 coordinate: 2047.9375 pixels (raw `0x7FFF`).
///
/// UNVERIFIED(hw) [fact: rast-fix12p4]: the coordinates are signed 16-bit 12.4 values (range -2048.0 ..= 2047.9375)
/// — model choice. "12.4" is Azahar's `Fix12P4` (sw_rasterizer.h), which is an unsigned 16-bit
/// value there; a signed range keeps triangles of a viewport placed at a negative
/// GPUREG_VIEWPORT_XY intact (seed 002: X and Y are signed) and still holds every pixel centre
/// of the largest framebuffer (GPUREG_FRAMEBUFFER_DIM width is 11 bits: at most 2047 columns).
pub const FIX_MAX: i32 = i16::MAX as i32;

/// The smallest 12.4 coordinate: -2048.0 pixels (raw `-0x8000`). See [`FIX_MAX`].
pub const FIX_MIN: i32 = i16::MIN as i32;

/// Converts a window coordinate (f24, pixels) to 12.4 fixed point, in 1/16-pixel units.
///
/// Rule, exact on the bits:
/// - the value times 16 is rounded to the nearest integer, halves away from zero
///   (UNVERIFIED(hw) [fact: rast-fix12p4]: Azahar `Fix12P4::FromFloat24` is `round(x * 16)`, C `round` rounds halves
///   away from zero; the hardware's rounding is not documented);
/// - the result saturates to [`FIX_MIN`] ..= [`FIX_MAX`]; ±infinity saturate the same way;
/// - NaN gives 0 (UNVERIFIED(hw) [fact: rast-fix12p4]: model choice, so that no bit pattern is undefined);
/// - zeros and subnormals (exponent 0) give 0.
pub fn to_fix12p4(x: F24) -> i32 {
    to_fix12p4_with(x, RastFix12p4::Round)
}

/// [`to_fix12p4`] with knob `rast-fix12p4`: [`RastFix12p4::Truncate`] drops the bits below
/// 1/16 pixel (toward zero) instead of rounding.
pub fn to_fix12p4_with(x: F24, rule: RastFix12p4) -> i32 {
    if x.is_nan() {
        return 0;
    }
    let neg = x.is_sign_negative();
    let saturated = if neg { FIX_MIN } else { FIX_MAX };
    if x.is_infinite() {
        return saturated;
    }
    let exp = x.exponent();
    if exp == 0 {
        return 0;
    }
    // |x| * 16 = (2^16 + mantissa) * 2^(exp - 63 - 16 + 4) = m * 2^(exp - 75).
    let m = u64::from((1 << 16) | x.mantissa());
    let magnitude: u64 = if exp >= 75 {
        let sh = exp - 75;
        if sh >= 16 {
            // m >= 2^16, so m << 16 is already far beyond the range.
            return saturated;
        }
        m << sh
    } else {
        let r = 75 - exp;
        if r > 18 {
            // m < 2^17 < 2^(r-1): below one half, rounds to 0.
            return 0;
        }
        match rule {
            RastFix12p4::Round => (m + (1 << (r - 1))) >> r,
            RastFix12p4::Truncate => m >> r,
        }
    };
    // magnitude < 2^33 here: the conversion to i64 is exact.
    let v = if neg {
        -(magnitude as i64)
    } else {
        magnitude as i64
    };
    v.clamp(i64::from(FIX_MIN), i64::from(FIX_MAX)) as i32
}

/// An inclusive rectangle of pixels (`x0..=x1`, `y0..=y1`), never empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PixelRect {
    /// Leftmost column.
    pub x0: i32,
    /// Lowest row (smallest y).
    pub y0: i32,
    /// Rightmost column.
    pub x1: i32,
    /// Highest row (largest y).
    pub y1: i32,
}

impl PixelRect {
    /// The rectangle `x0..=x1` × `y0..=y1`, or `None` if it holds no pixel.
    pub fn new(x0: i32, y0: i32, x1: i32, y1: i32) -> Option<Self> {
        (x0 <= x1 && y0 <= y1).then_some(Self { x0, y0, x1, y1 })
    }

    /// The pixels in both rectangles.
    pub fn intersect(self, o: Self) -> Option<Self> {
        Self::new(
            self.x0.max(o.x0),
            self.y0.max(o.y0),
            self.x1.min(o.x1),
            self.y1.min(o.y1),
        )
    }

    /// Whether pixel (x, y) lies in the rectangle.
    pub fn contains(self, x: i32, y: i32) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    /// Number of pixels (at most 2^34: the bounds are 16-bit-derived).
    pub fn area(self) -> u64 {
        let w = u64::try_from(i64::from(self.x1) - i64::from(self.x0) + 1).unwrap_or(0);
        let h = u64::try_from(i64::from(self.y1) - i64::from(self.y0) + 1).unwrap_or(0);
        w.saturating_mul(h)
    }
}

/// A triangle after setup: 12.4 vertex positions, orientation and the edges that own the
/// pixel centres lying exactly on them.
///
/// # Edge functions
///
/// Edge `i` is the edge opposite vertex `i`, from `A = v[(i+1) % 3]` to `B = v[(i+2) % 3]`:
///
/// `E_i(P) = (B.x - A.x)(P.y - A.y) - (B.y - A.y)(P.x - A.x)`
///
/// evaluated exactly in 12.4 units (so in 1/256 pixel²). `E_0 + E_1 + E_2` is the same at
/// every point: twice the signed area, `area2 = E_0(v0)`. The triangle's orientation is
/// `s = sign(area2)`; the **weights** `b_i = s · E_i(P)` are all ≥ 0 exactly inside the closed
/// triangle, whichever winding the vertices have, and `b_i / (b_0 + b_1 + b_2)` are P's
/// barycentric coordinates. A triangle with `area2 = 0` covers nothing.
///
/// # Fill rule (top-left, in numeric window coordinates)
///
/// A pixel is sampled at its centre, `(x + 0.5, y + 0.5)`. It is covered when every weight is
/// positive, or zero on an edge that *owns* its points. The interior lies on the side of edge
/// `i` given by the gradient of `b_i`, `n = s · (-(B.y - A.y), B.x - A.x)`. The edge owns its
/// points when `n.x > 0` (a **left** edge: the interior is toward +x) or `n.x = 0` and
/// `n.y > 0` (a horizontal **top** edge: the interior is toward +y, i.e. the edge is the
/// triangle's smallest y). Right edges and horizontal edges at the largest y do not own their
/// points. Exactly one of `n` and `-n` satisfies the test, so of two triangles sharing an edge
/// (from opposite sides) exactly one draws the pixel centres on it: no gaps, no double hits.
///
/// UNVERIFIED(hw) [fact: rast-fill-rule]: this is the rule of Azahar `IsRightSideOrFlatBottomEdge` (sw_rasterizer.cpp:
/// "pixels on the right-sided edge or on flat bottom edges are not drawn", with "bottom"
/// meaning the largest y of the window coordinates it rasterizes in, and its comment "these
/// are the PSP filling rules. Not sure if the 3DS uses the same ones"), applied exactly instead
/// of Azahar's integer-division approximation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriSetup {
    /// Vertex positions in 12.4 units, `[x, y]`.
    pub pos: [[i32; 2]; 3],
    /// Twice the signed area in 1/256 pixel² (`E_0(v0)`).
    pub area2: i64,
    /// Whether edge `i` (opposite vertex `i`) owns the pixel centres exactly on it.
    pub owns: [bool; 3],
}

impl TriSetup {
    /// Sets up a window-space triangle.
    pub fn new(tri: &ScreenTri) -> Self {
        let pos = tri.v.map(|v| [to_fix12p4(v.x), to_fix12p4(v.y)]);
        Self::from_fixed(pos)
    }

    /// [`TriSetup::new`] with the rasterizer knobs `rast-fix12p4` and `rast-fill-rule`.
    pub fn with_knobs(tri: &ScreenTri, fix: RastFix12p4, fill: RastFillRule) -> Self {
        let pos = tri
            .v
            .map(|v| [to_fix12p4_with(v.x, fix), to_fix12p4_with(v.y, fix)]);
        let mut s = Self::from_fixed(pos);
        match fill {
            RastFillRule::Azahar => {}
            RastFillRule::Opposite => s.owns = s.owns.map(|o| !o),
            RastFillRule::Inclusive => s.owns = [true; 3],
        }
        s
    }

    /// Sets up a triangle from 12.4 positions (values outside [`FIX_MIN`]..=[`FIX_MAX`] are
    /// clamped into it first).
    pub fn from_fixed(pos: [[i32; 2]; 3]) -> Self {
        let pos = pos.map(|p| p.map(|c| c.clamp(FIX_MIN, FIX_MAX)));
        let mut s = Self {
            pos,
            area2: 0,
            owns: [false; 3],
        };
        s.area2 = s.edge(0, pos[0][0], pos[0][1]);
        let sign = s.area2.signum();
        for i in 0..3 {
            let (a, b) = s.edge_ends(i);
            let dx = i64::from(b[0]) - i64::from(a[0]);
            let dy = i64::from(b[1]) - i64::from(a[1]);
            let (nx, ny) = (-dy * sign, dx * sign);
            s.owns[i] = nx > 0 || (nx == 0 && ny > 0);
        }
        s
    }

    fn edge_ends(&self, i: usize) -> ([i32; 2], [i32; 2]) {
        (self.pos[(i + 1) % 3], self.pos[(i + 2) % 3])
    }

    /// `E_i` at the 12.4 point (`px`, `py`) (see the type's docs).
    pub fn edge(&self, i: usize, px: i32, py: i32) -> i64 {
        let (a, b) = self.edge_ends(i % 3);
        let (ax, ay) = (i64::from(a[0]), i64::from(a[1]));
        let (bx, by) = (i64::from(b[0]), i64::from(b[1]));
        (bx - ax) * (i64::from(py) - ay) - (by - ay) * (i64::from(px) - ax)
    }

    /// Whether the triangle has zero area (it covers nothing).
    pub fn is_degenerate(&self) -> bool {
        self.area2 == 0
    }

    /// The signed weights `b_i` at the centre of pixel (`x`, `y`), covered or not (negative
    /// outside an edge; oriented like [`TriSetup::cover`]'s). `None` for a degenerate triangle
    /// or a pixel whose 12.4 centre does not fit an `i32`.
    pub fn weights(&self, x: i32, y: i32) -> Option<[i64; 3]> {
        if self.is_degenerate() {
            return None;
        }
        let px = x.checked_mul(ONE)?.checked_add(CENTRE)?;
        let py = y.checked_mul(ONE)?.checked_add(CENTRE)?;
        let sign = self.area2.signum();
        Some([0, 1, 2].map(|i| self.edge(i, px, py) * sign))
    }

    /// The weights `b_i` at the centre of pixel (`x`, `y`) if the fill rule says the pixel is
    /// covered, `None` otherwise (and always for a degenerate triangle).
    pub fn cover(&self, x: i32, y: i32) -> Option<[i64; 3]> {
        if self.is_degenerate() {
            return None;
        }
        let px = x.checked_mul(ONE)?.checked_add(CENTRE)?;
        let py = y.checked_mul(ONE)?.checked_add(CENTRE)?;
        let sign = self.area2.signum();
        let mut b = [0i64; 3];
        for (i, bi) in b.iter_mut().enumerate() {
            let w = self.edge(i, px, py) * sign;
            if w < 0 || (w == 0 && !self.owns[i]) {
                return None;
            }
            *bi = w;
        }
        Some(b)
    }

    /// The pixels whose centres lie inside the vertices' bounding box (edges included): the
    /// superset of covered pixels that traversal walks. `None` for a degenerate triangle.
    ///
    /// Column range: `ceil((min_x - 8) / 16) ..= floor((max_x - 8) / 16)` in 12.4 units, rows
    /// likewise.
    pub fn bbox(&self) -> Option<PixelRect> {
        if self.is_degenerate() {
            return None;
        }
        let xs = self.pos.map(|p| p[0]);
        let ys = self.pos.map(|p| p[1]);
        // ceil(a / 16) = floor((a - 1) / 16) + 1 for an integer a; the coordinates are 16-bit,
        // so nothing here overflows.
        let lo = |v: [i32; 3]| (v[0].min(v[1]).min(v[2]) - CENTRE - 1).div_euclid(ONE) + 1;
        let hi = |v: [i32; 3]| (v[0].max(v[1]).max(v[2]) - CENTRE).div_euclid(ONE);
        PixelRect::new(lo(xs), lo(ys), hi(xs), hi(ys))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64) -> F24 {
        F24::from_f64_trunc(x)
    }

    #[test]
    fn rast_fix12p4_rounds_half_away_from_zero() {
        assert_eq!(to_fix12p4(f(1.0)), 16);
        assert_eq!(to_fix12p4(f(100.5)), 1608);
        // 1/32 is half a 12.4 step: rounds away from zero.
        assert_eq!(to_fix12p4(f(0.03125)), 1);
        assert_eq!(to_fix12p4(f(-0.03125)), -1);
        assert_eq!(to_fix12p4(f(0.09375)), 2); // 1.5 steps
        assert_eq!(to_fix12p4(f(-0.09375)), -2);
        // Just below one half step (0x39FFFF = 1/32 - 2^-22): 0.
        assert_eq!(to_fix12p4(F24::from_bits(0x39_FFFF)), 0);
        assert_eq!(to_fix12p4(F24::from_bits(0xB9_FFFF)), 0);
        // 0.999 → 15.98 → 16.
        assert_eq!(to_fix12p4(f(0.999)), 16);
    }

    #[test]
    fn rast_fix12p4_saturates_and_never_panics() {
        assert_eq!(to_fix12p4(f(2047.9375)), 0x7FFF);
        assert_eq!(to_fix12p4(f(2047.96875)), 0x7FFF); // rounds to 2048.0: saturates
        assert_eq!(to_fix12p4(f(-2048.0)), -0x8000);
        assert_eq!(to_fix12p4(f(-2048.0625)), -0x8000);
        assert_eq!(to_fix12p4(f(1e18)), FIX_MAX);
        assert_eq!(to_fix12p4(f(-1e18)), FIX_MIN);
        assert_eq!(to_fix12p4(F24::INFINITY), FIX_MAX);
        assert_eq!(to_fix12p4(F24::NEG_INFINITY), FIX_MIN);
        assert_eq!(to_fix12p4(F24::NAN), 0);
        assert_eq!(to_fix12p4(F24::from_bits(0xFF_1234)), 0); // negative NaN
        assert_eq!(to_fix12p4(F24::from_bits(0x00_0001)), 0); // subnormal
        assert_eq!(to_fix12p4(F24::NEG_ZERO), 0);
        assert_eq!(to_fix12p4(F24::MAX), FIX_MAX);
        assert_eq!(to_fix12p4(F24::MIN_POSITIVE), 0);
        for bits in (0..=0xFF_FFFFu32).step_by(97) {
            let v = to_fix12p4(F24::from_bits(bits));
            assert!((FIX_MIN..=FIX_MAX).contains(&v));
        }
    }

    #[test]
    fn rast_setup_weights_sum_to_area_both_windings() {
        // 12.4 (8, 8), (136, 8), (8, 136): area2 = 16384, b = 2048 (8 - x - y, x, y).
        let ccw = TriSetup::from_fixed([[8, 8], [136, 8], [8, 136]]);
        assert_eq!(ccw.area2, 16384);
        assert_eq!(ccw.cover(1, 1), Some([12288, 2048, 2048]));
        let cw = TriSetup::from_fixed([[8, 8], [8, 136], [136, 8]]);
        assert_eq!(cw.area2, -16384);
        assert_eq!(cw.cover(1, 1), Some([12288, 2048, 2048]));
        // Top edge (v0 → v1) and left edge (v2 → v0) own their centres, the hypotenuse not,
        // in both windings.
        assert_eq!(ccw.owns, [false, true, true]);
        assert_eq!(cw.owns, [false, true, true]);
        assert_eq!(ccw.cover(0, 0), Some([16384, 0, 0]));
        assert_eq!(ccw.cover(4, 4), None); // on the hypotenuse
        assert_eq!(ccw.bbox(), PixelRect::new(0, 0, 8, 8));
    }

    #[test]
    fn rast_setup_bbox_is_centres_inside_the_vertex_box() {
        // x from 1.5 (24) to 3.25 (52): centres 1.5, 2.5 → columns 1..=2; y from 0.4375 (7)
        // to 0.5 (8): only centre 0.5 → row 0.
        let t = TriSetup::from_fixed([[24, 7], [52, 8], [30, 8]]);
        assert_eq!(t.bbox(), PixelRect::new(1, 0, 2, 0));
        // A box between centres holds none.
        let t = TriSetup::from_fixed([[9, 9], [20, 9], [9, 20]]);
        assert_eq!(t.bbox(), None);
        assert_eq!(
            TriSetup::from_fixed([[0, 0], [16, 16], [32, 32]]).bbox(),
            None
        );
    }

    #[test]
    fn rast_pixel_rect_area_and_intersect() {
        let r = PixelRect::new(-2, 3, 5, 4).unwrap();
        assert_eq!(r.area(), 16);
        assert_eq!(
            r.intersect(PixelRect::new(0, 0, 10, 10).unwrap()),
            PixelRect::new(0, 3, 5, 4)
        );
        assert_eq!(r.intersect(PixelRect::new(6, 0, 9, 9).unwrap()), None);
        assert!(r.contains(-2, 4) && !r.contains(-3, 4));
    }
}
