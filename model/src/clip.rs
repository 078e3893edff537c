//! CLIP: clipping, perspective division, viewport, depth map and face culling.
//!
//! For each [`Triangle`] from PA, in this order:
//!
//! 1. **Quaternion alignment.** If `dot(q1, q0) < 0` the normal quaternion of vertex 1 is
//!    negated, the same for vertex 2 (q = semantics 0x04-0x07), so interpolation takes the
//!    short way — a fact of Azahar `sw_rasterizer.cpp` (`FlipQuaternionIfOpposite`, done before
//!    clipping). UNVERIFIED(hw) [fact: clip-quaternion-align].
//! 2. **Clipping** (Sutherland-Hodgman) of the polygon against, in order ([`Plane`]):
//!    x ≤ w, x ≥ −w, y ≤ w, y ≥ −w, z ≤ 0, z ≥ −w, w ≥ ε ([`W_EPSILON`]), and, when
//!    GPUREG_FRAGOP_CLIP bit 0 is set, the user plane `c0·x + c1·y + c2·z + c3·w ≥ 0`
//!    (c = GPUREG_FRAGOP_CLIP_DATA0-3, f24). The planes, their order, the z range [−w, 0] and
//!    the user-plane test are facts of Azahar `sw_rasterizer.cpp` (`AddTriangle`,
//!    `ClippingEdge`); pica-facts §4. A vertex is inside a plane when its signed distance
//!    (below) is ≥ 0 exactly; NaN is outside. The polygon is dropped as soon as fewer than
//!    three vertices remain. Where an edge crosses a plane, the new vertex interpolates
//!    **all 24 semantics** (position, quaternion, colour, texture coordinates, view).
//! 3. **Fan**: a polygon p0..p(n−1) becomes triangles (p0, p(i+1), p(i+2)), i = 0..n−3, all
//!    with the input's `seq`. The clipper keeps the polygon's orientation, so each keeps the
//!    input's winding.
//! 4. **Perspective division and viewport** per polygon vertex ([`to_screen`]):
//!    `x_win = (x/w + 1)·VIEWPORT_WIDTH + VIEWPORT_XY.x`, likewise y with VIEWPORT_HEIGHT and
//!    VIEWPORT_XY.y (VIEWPORT_WIDTH/HEIGHT hold half the size, f24; Azahar `MakeScreenCoords`).
//! 5. **Depth map**: `z_win = (z/w)·DEPTHMAP_SCALE + DEPTHMAP_OFFSET` (both f24). This is the
//!    value [`ScreenVertex::z`] carries in *both* settings of GPUREG_DEPTHMAP_ENABLE. With
//!    DEPTHMAP_ENABLE = 1 it is the final (z-buffer) depth, interpolated linearly in screen
//!    space. With DEPTHMAP_ENABLE = 0 the hardware uses a **w-buffer**: the depth is
//!    `z·scale + w·offset`, i.e. the screen-linear interpolation of `z_win` multiplied by the
//!    perspective-correct interpolated w — which RAST does, since only it has the
//!    interpolated w. Fact of Azahar `sw_rasterizer.cpp` (`DepthBuffering::WBuffering = 0`,
//!    `depth *= interpolated_w_inverse...`; `regs_rasterizer.h`); pica-facts §4 asked which.
//!    Clamping to [0, 1] happens per fragment in RAST, not here.
//! 6. **Face culling** (GPUREG_FACECULLING_CONFIG, [`CullMode`]) per fan triangle, on its
//!    window-space winding (after the viewport, as Azahar's `ProcessTriangle` decides on
//!    screen coordinates): the signed area `A = (x1−x0)(y2−y0) − (x2−x0)(y1−y0)` (window y
//!    grows up: A > 0 is counter-clockwise). Mode 0 keeps everything; mode 1 ("front face,
//!    CCW") drops every triangle with `A ≥ 0`; mode 2 ("back face") drops every triangle with
//!    `A ≤ 0`. A zero-area (or NaN-area) triangle is dropped in both culling modes, as in
//!    Azahar (its test is `area <= 0` on the possibly reversed triangle).
//!
//! [`ScreenVertex::inv_w`] is `1/w` and [`ScreenVertex::v`] the clipped clip-space vertex,
//! unchanged by the division: RAST interpolates `v` perspective-correctly with `inv_w`.
//! GPUREG_VIEWPORT_INVW/INVH (f31 2/size) are not used: UNVERIFIED(hw) [fact: clip-viewport-inv] — Azahar's software
//! renderer does not use them either; what the hardware uses them for is not public.
//!
//! # Precision (all UNVERIFIED(hw) [fact: clip-precision]: the hardware's clipper arithmetic is not public)
//!
//! Every step uses the shader ALU's f24 operations ([`crate::shader::alu`]: exact result,
//! truncated toward zero, inputs and outputs below 2^-62 flushed to +0):
//!
//! | step | computation |
//! |------|-------------|
//! | frustum distance | `add(w, −x)`, `add(w, x)`, `add(w, −y)`, `add(w, y)`, `mul(z, −1)`, `add(w, z)`, `add(w, −ε)` |
//! | user-plane distance | `dot([x, y, z, w], [c0, c1, c2, c3])` (products truncated, summed left to right) |
//! | intersection weight | `t = mul(d_prev, rcp(add(d_prev, −d)))` for the current vertex, `u = add(1, −t)` for the previous |
//! | interpolated semantic | `add(mul(a_cur, t), mul(a_prev, u))`, for each of the 24 |
//! | quaternion test | `dot(q_i, q_0) < 0`, flip `mul(q, −1)` |
//! | `inv_w` | `rcp(w)` |
//! | window x / y | `add(mul(add(mul(x, inv_w), 1), half_size), offset)` |
//! | window z | `add(mul(mul(z, inv_w), scale), offset)` |
//! | signed area | `add(mul(add(x1, −x0), add(y2, −y0)), −mul(add(x2, −x0), add(y1, −y0)))` |
//!
//! Truncation never changes a sign, so inside tests and the culling decision see the exact
//! sign of each (rounded) operand chain.
//!
//! The intersection depends on the edge's direction (`cur` against `prev`), and the two
//! triangles that share an edge walk it in opposite directions: where a plane cuts a shared
//! edge they can get crossings one f24 ulp apart that round to different 12.4 points, and the
//! clipped mesh cracks (about one clipped mesh in 700; `model/tests/rast_cracks.rs` pins the
//! cases). UNVERIFIED(hw) [fact: clip-edge-order]: whether the hardware orders the edge's end points first (which
//! would make the crossing watertight) is not known — Azahar's clipper
//! (`renderer_software/sw_clipper.cpp`, `GetIntersection`) is direction-dependent like this
//! one. Knob `clip-edge-order=ordered` computes every crossing from the outside end point
//! ([`clip_polygon_with`]).
//!
//! # Timing
//!
//! See [`timing::CLIP_INPUTS_PER_CYCLE`] and [`timing::CLIP_OUTPUTS_PER_CYCLE`]: one input
//! triangle is taken per cycle when the previous one's outputs have all left; its surviving
//! window-space triangles leave one per cycle, the first in the cycle it is taken.

use crate::knobs::{ClipCullReserved, ClipEdgeOrder, ClipWPlane};
use crate::link::Link;
use crate::num::F24;
use crate::pipe::{semantic, OutVertex, ScreenTri, ScreenVertex, Triangle};
use crate::regfile::RegFile;
use crate::regs::{self, id};
use crate::shader::alu::dot;
// The same bits as `alu::add` / `alu::mul` / `alu::rcp` on every input
// (`model/tests/shader_fast.rs`).
use crate::shader::alu_fast::{add, mul, rcp};
use crate::timing;
use serde_json::json;
use std::collections::VecDeque;

/// ε of the w guard plane: w ≥ ε keeps every output vertex at a positive w.
///
/// UNVERIFIED(hw) [fact: clip-w-epsilon]: 0x2E4F8B (9.99996e-6), Azahar's `f24::FromFloat32(0.00001f)` (f32
/// 0x3727C5AC truncated to f24) in `sw_rasterizer.cpp`. Azahar adds ε as a bias and so
/// actually tests w ≥ −ε, against its own comment ("clip against a w=epsilon plane to
/// guarantee that the output has a positive w value"); the model follows the stated intent.
pub const W_EPSILON: F24 = F24::from_bits(0x2E_4F8B);

/// The fixed planes with knob `clip-w-plane=neg-eps`: the guard plane `w ≥ −ε`
/// ([`Plane::WMinNeg`], what Azahar's code tests) in place of `w ≥ ε`.
const FIXED_NEG_EPS: [Plane; 7] = [
    Plane::XPos,
    Plane::XNeg,
    Plane::YPos,
    Plane::YNeg,
    Plane::ZZero,
    Plane::ZNegW,
    Plane::WMinNeg,
];

/// What CLIP touches in one cycle.
pub struct ClipPorts<'a> {
    /// Configuration.
    pub regs: &'a RegFile,
    /// Triangles from PA.
    pub input: &'a mut Link<Triangle>,
    /// Window-space triangles to RAST.
    pub out: &'a mut Link<ScreenTri>,
}

/// A clipping plane; [`Plane::distance`] ≥ 0 is inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plane {
    /// x ≤ w (distance w − x).
    XPos,
    /// x ≥ −w (distance w + x).
    XNeg,
    /// y ≤ w (distance w − y).
    YPos,
    /// y ≥ −w (distance w + y).
    YNeg,
    /// z ≤ 0 (distance −z).
    ZZero,
    /// z ≥ −w (distance w + z).
    ZNegW,
    /// w ≥ ε (distance w − [`W_EPSILON`]).
    WMin,
    /// w ≥ −ε (distance w + [`W_EPSILON`]; knob `clip-w-plane=neg-eps`).
    WMinNeg,
    /// The user plane: distance c0·x + c1·y + c2·z + c3·w (GPUREG_FRAGOP_CLIP_DATA0-3).
    User([F24; 4]),
}

impl Plane {
    /// The fixed planes, in the order the clipper applies them.
    pub const FIXED: [Plane; 7] = [
        Plane::XPos,
        Plane::XNeg,
        Plane::YPos,
        Plane::YNeg,
        Plane::ZZero,
        Plane::ZNegW,
        Plane::WMin,
    ];

    /// The signed distance of clip-space position `p` (see the precision table).
    pub fn distance(self, p: [F24; 4]) -> F24 {
        let [x, y, z, w] = p;
        match self {
            Plane::XPos => add(w, x.negate()),
            Plane::XNeg => add(w, x),
            Plane::YPos => add(w, y.negate()),
            Plane::YNeg => add(w, y),
            Plane::ZZero => mul(z, F24::NEG_ONE),
            Plane::ZNegW => add(w, z),
            Plane::WMin => add(w, W_EPSILON.negate()),
            Plane::WMinNeg => add(w, W_EPSILON),
            Plane::User(c) => dot(&p, &c),
        }
    }
}

/// Whether a distance is inside: ≥ 0 (either zero); NaN is outside.
fn inside(d: F24) -> bool {
    d.to_f64() >= 0.0
}

/// The user clip plane if GPUREG_FRAGOP_CLIP enables it.
pub fn user_plane(regs: &RegFile) -> Option<Plane> {
    regs::FragopClip(regs.reg(id::FRAGOP_CLIP.into()))
        .enabled()
        .then(|| {
            Plane::User(std::array::from_fn(|i| {
                regs::FragopClipData(regs.reg(u32::from(id::FRAGOP_CLIP_DATA0) + i as u32))
                    .coefficient()
            }))
        })
}

/// The vertex where the edge from `prev` (distance `d_prev`) to `cur` (distance `d`) crosses
/// the plane, every semantic interpolated (see the precision table).
fn intersect(cur: &OutVertex, d: F24, prev: &OutVertex, d_prev: F24) -> OutVertex {
    let t = mul(d_prev, rcp(add(d_prev, d.negate())));
    let u = add(F24::ONE, t.negate());
    OutVertex {
        attr: std::array::from_fn(|i| add(mul(cur.attr[i], t), mul(prev.attr[i], u))),
    }
}

/// Clips a polygon against one plane (Sutherland-Hodgman; the walk starts with the edge from
/// the last vertex to the first).
pub fn clip_polygon(poly: &[OutVertex], plane: Plane) -> Vec<OutVertex> {
    clip_polygon_with(poly, plane, ClipEdgeOrder::Direction)
}

/// [`clip_polygon`] with knob `clip-edge-order`: [`ClipEdgeOrder::Ordered`] computes every
/// crossing from the end point inside the plane towards the one outside (as the
/// inside-to-outside edges already are), so an edge walked in either direction is cut at the
/// same point.
pub fn clip_polygon_with(poly: &[OutVertex], plane: Plane, order: ClipEdgeOrder) -> Vec<OutVertex> {
    let Some(last) = poly.last() else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(poly.len() + 1);
    let mut prev = last;
    let mut d_prev = plane.distance(last.position());
    for cur in poly {
        let d = plane.distance(cur.position());
        match (inside(d), inside(d_prev)) {
            (true, true) => out.push(*cur),
            (true, false) => {
                out.push(match order {
                    ClipEdgeOrder::Direction => intersect(cur, d, prev, d_prev),
                    ClipEdgeOrder::Ordered => intersect(prev, d_prev, cur, d),
                });
                out.push(*cur);
            }
            (false, true) => out.push(intersect(cur, d, prev, d_prev)),
            (false, false) => {}
        }
        prev = cur;
        d_prev = d;
    }
    out
}

/// Negates the quaternions of vertices 1 and 2 that point away from vertex 0's (step 1).
pub fn align_quaternions(v: &mut [OutVertex; 3]) {
    let q = semantic::QUATERNION..semantic::QUATERNION + 4;
    let q0: [F24; 4] = std::array::from_fn(|i| v[0].attr[q.start + i]);
    for vi in &mut v[1..] {
        if dot(&vi.attr[q.clone()], &q0).to_f64() < 0.0 {
            for c in &mut vi.attr[q.clone()] {
                *c = mul(*c, F24::NEG_ONE);
            }
        }
    }
}

/// Steps 1-2: the clipped polygon of a triangle (empty if nothing is left).
pub fn clip_triangle(regs: &RegFile, tri: &[OutVertex; 3]) -> Vec<OutVertex> {
    let mut v = *tri;
    align_quaternions(&mut v);
    let user = user_plane(regs);
    let fixed = match regs.knobs().clip_w_plane {
        ClipWPlane::Eps => Plane::FIXED,
        ClipWPlane::NegEps => FIXED_NEG_EPS,
    };
    // A triangle inside every plane (the common case) leaves each `clip_polygon` unchanged:
    // every edge is inside-to-inside, so each pass pushes the vertices as they are.
    let inside_all = |plane: Plane| v.iter().all(|x| inside(plane.distance(x.position())));
    if fixed.into_iter().chain(user).all(inside_all) {
        return v.to_vec();
    }
    let order = regs.knobs().clip_edge_order;
    let mut poly = v.to_vec();
    for plane in fixed.into_iter().chain(user) {
        poly = clip_polygon_with(&poly, plane, order);
        if poly.len() < 3 {
            return Vec::new();
        }
    }
    poly
}

/// The viewport and depth-map registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// GPUREG_VIEWPORT_WIDTH: width / 2.
    pub half_width: F24,
    /// GPUREG_VIEWPORT_HEIGHT: height / 2.
    pub half_height: F24,
    /// GPUREG_VIEWPORT_XY x (10-bit signed), exactly as f24.
    pub x: F24,
    /// GPUREG_VIEWPORT_XY y (10-bit signed), exactly as f24.
    pub y: F24,
    /// GPUREG_DEPTHMAP_SCALE.
    pub depth_scale: F24,
    /// GPUREG_DEPTHMAP_OFFSET.
    pub depth_offset: F24,
}

impl Viewport {
    /// Reads the registers.
    pub fn from_regs(regs: &RegFile) -> Self {
        let xy = regs::ViewportXy(regs.reg(id::VIEWPORT_XY.into()));
        // |x|, |y| ≤ 512: exact in f24.
        let int = |i: i32| F24::from_f64_trunc(f64::from(i));
        Self {
            half_width: regs::ViewportWidth(regs.reg(id::VIEWPORT_WIDTH.into())).half_width(),
            half_height: regs::ViewportHeight(regs.reg(id::VIEWPORT_HEIGHT.into())).half_height(),
            x: int(xy.x()),
            y: int(xy.y()),
            depth_scale: regs::DepthmapScale(regs.reg(id::DEPTHMAP_SCALE.into())).scale(),
            depth_offset: regs::DepthmapOffset(regs.reg(id::DEPTHMAP_OFFSET.into())).offset(),
        }
    }
}

/// Steps 4-5: perspective division, viewport and depth map of one clipped vertex.
pub fn to_screen(vp: &Viewport, v: &OutVertex) -> ScreenVertex {
    let [x, y, z, w] = v.position();
    let inv_w = rcp(w);
    let win = |c: F24, half: F24, offset: F24| add(mul(add(mul(c, inv_w), F24::ONE), half), offset);
    ScreenVertex {
        x: win(x, vp.half_width, vp.x),
        y: win(y, vp.half_height, vp.y),
        z: add(mul(mul(z, inv_w), vp.depth_scale), vp.depth_offset),
        inv_w,
        v: *v,
    }
}

/// GPUREG_FACECULLING_CONFIG bits 0-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CullMode {
    /// 0: keep every triangle.
    None,
    /// 1 ("front face, counter-clockwise"): drop counter-clockwise (and degenerate) triangles.
    CullCcw,
    /// 2 ("back face, counter-clockwise"): drop clockwise (and degenerate) triangles.
    CullCw,
}

impl CullMode {
    /// Reads the register.
    ///
    /// UNVERIFIED(hw) [fact: clip-cull-reserved]: the reserved value 3 culls like 2 — Azahar's `ProcessTriangle` treats
    /// every mode other than 0 and 1 as "keep counter-clockwise" (knob `clip-cull-reserved`:
    /// like 1, or no culling).
    pub fn from_regs(regs: &RegFile) -> Self {
        use regs::FacecullingConfigMode as M;
        match regs::FacecullingConfig(regs.reg(id::FACECULLING_CONFIG.into())).mode() {
            M::None => Self::None,
            M::FrontCcw => Self::CullCcw,
            M::BackCcw => Self::CullCw,
            M::Reserved(_) => match regs.knobs().clip_cull_reserved {
                ClipCullReserved::Like2 => Self::CullCw,
                ClipCullReserved::Like1 => Self::CullCcw,
                ClipCullReserved::None => Self::None,
            },
        }
    }

    /// Whether a triangle of signed window-space area `area` survives.
    pub fn keeps(self, area: F24) -> bool {
        match self {
            CullMode::None => true,
            CullMode::CullCcw => area.to_f64() < 0.0,
            CullMode::CullCw => area.to_f64() > 0.0,
        }
    }
}

/// Twice the signed window-space area of a triangle: > 0 counter-clockwise (y up).
pub fn signed_area(a: &ScreenVertex, b: &ScreenVertex, c: &ScreenVertex) -> F24 {
    let p = mul(add(b.x, a.x.negate()), add(c.y, a.y.negate()));
    let q = mul(add(c.x, a.x.negate()), add(b.y, a.y.negate()));
    add(p, q.negate())
}

/// Every register CLIP reads ([`process`]: the user plane, the viewport and depth map, face
/// culling), in ID order: what an implementation of CLIP outside the model (the RTL stage
/// top's register write port, a stage bundle's configuration writes) must be given. The test
/// `clip_reads_only_config_regs` pins that nothing else changes CLIP's output.
pub const CONFIG_REGS: [u16; 11] = [
    id::FACECULLING_CONFIG,
    id::VIEWPORT_WIDTH,
    id::VIEWPORT_HEIGHT,
    id::FRAGOP_CLIP,
    id::FRAGOP_CLIP_DATA0,
    id::FRAGOP_CLIP_DATA1,
    id::FRAGOP_CLIP_DATA2,
    id::FRAGOP_CLIP_DATA3,
    id::DEPTHMAP_SCALE,
    id::DEPTHMAP_OFFSET,
    id::VIEWPORT_XY,
];

/// Everything CLIP does to one triangle: the window-space triangles that leave, in order.
pub fn process(regs: &RegFile, tri: &Triangle) -> Vec<ScreenTri> {
    let poly = clip_triangle(regs, &tri.v);
    let vp = Viewport::from_regs(regs);
    let cull = CullMode::from_regs(regs);
    let screen: Vec<ScreenVertex> = poly.iter().map(|v| to_screen(&vp, v)).collect();
    let Some((first, rest)) = screen.split_first() else {
        return Vec::new();
    };
    rest.windows(2)
        .filter(|w| cull.keeps(signed_area(first, &w[0], &w[1])))
        .map(|w| ScreenTri {
            seq: tri.seq,
            v: [*first, w[0], w[1]],
        })
        .collect()
}

/// The CLIP stage.
#[derive(Clone, Debug, Default)]
pub struct Clipper {
    /// Window-space triangles of the current input waiting to leave.
    queue: VecDeque<ScreenTri>,
    /// Triangles taken from PA.
    inputs: u64,
    /// Triangles sent to RAST.
    outputs: u64,
}

impl Clipper {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances one cycle.
    pub fn tick(&mut self, cycle: u64, ports: ClipPorts<'_>) {
        for _ in 0..timing::CLIP_INPUTS_PER_CYCLE {
            if !self.queue.is_empty() {
                break;
            }
            let Some(tri) = ports.input.pop() else { break };
            self.inputs += 1;
            let out = process(ports.regs, &tri);
            tracing::trace!(target: "clip", cycle, seq = tri.seq, out = out.len(), "triangle");
            self.queue.extend(out);
        }
        for _ in 0..timing::CLIP_OUTPUTS_PER_CYCLE {
            let Some(t) = self.queue.front() else { break };
            if !ports.out.can_push() || ports.out.push(*t).is_err() {
                break;
            }
            self.queue.pop_front();
            self.outputs += 1;
        }
    }

    /// Whether nothing is in flight.
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty()
    }

    /// Internal state for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({
            "queued": self.queue.len(),
            "inputs": self.inputs,
            "outputs": self.outputs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pa::tests::{noisy_regs, regs_with};

    #[test]
    fn clip_reads_only_config_regs() {
        let f = |x: f64| F24::from_f64_trunc(x);
        // Every register CLIP reads set (user plane on, culling off), a triangle that
        // crosses the x = w plane and the user plane.
        let config = [
            (id::FACECULLING_CONFIG, 0),
            (id::VIEWPORT_WIDTH, f(20.0).bits()),
            (id::VIEWPORT_HEIGHT, f(15.0).bits()),
            (id::FRAGOP_CLIP, 1),
            (id::FRAGOP_CLIP_DATA0, f(0.25).bits()),
            (id::FRAGOP_CLIP_DATA1, f(-1.0).bits()),
            (id::FRAGOP_CLIP_DATA2, f(0.5).bits()),
            (id::FRAGOP_CLIP_DATA3, f(1.0).bits()),
            (id::DEPTHMAP_SCALE, f(-1.0).bits()),
            (id::DEPTHMAP_OFFSET, f(0.125).bits()),
            (id::VIEWPORT_XY, 3 | 5 << 16),
        ];
        assert_eq!(
            config.iter().map(|c| c.0).collect::<Vec<_>>(),
            CONFIG_REGS.to_vec()
        );
        let mut tri = Triangle {
            seq: 7,
            v: [OutVertex::ONES; 3],
        };
        let pos = [
            [-0.5, -0.5, -0.5, 1.0],
            [1.5, 0.25, -0.25, 1.0],
            [0.0, 0.75, -0.75, 2.0],
        ];
        for (v, p) in tri.v.iter_mut().zip(pos) {
            for (c, x) in p.iter().enumerate() {
                v.attr[semantic::POSITION + c] = f(*x);
            }
            v.attr[semantic::COLOR] = f(0.5);
        }
        let base = process(&regs_with(&config), &tri);
        assert!(base.len() >= 2, "the triangle is clipped into a fan");
        assert_eq!(process(&noisy_regs(&config, &CONFIG_REGS), &tri), base);
    }

    fn f(bits: u32) -> F24 {
        F24::from_bits(bits)
    }

    fn pos(p: [u32; 4]) -> OutVertex {
        let mut v = OutVertex::ONES;
        v.attr[..4].copy_from_slice(&p.map(f));
        v
    }

    const ONE: u32 = 0x3F_0000;
    const TWO: u32 = 0x40_0000;
    const HALF: u32 = 0x3E_0000;
    const NEG_HALF: u32 = 0xBE_0000;

    #[test]
    fn clip_distances_of_each_plane() {
        // (x, y, z, w) = (0.5, -0.5, -0.5, 1)
        let p = [f(HALF), f(NEG_HALF), f(NEG_HALF), f(ONE)];
        assert_eq!(Plane::XPos.distance(p).bits(), HALF);
        assert_eq!(Plane::XNeg.distance(p).bits(), 0x3F_8000); // 1.5
        assert_eq!(Plane::YPos.distance(p).bits(), 0x3F_8000);
        assert_eq!(Plane::YNeg.distance(p).bits(), HALF);
        assert_eq!(Plane::ZZero.distance(p).bits(), HALF);
        assert_eq!(Plane::ZNegW.distance(p).bits(), HALF);
        // 1 - 9.99996e-6 = 0.99999000 = 131070.69 * 2^-17, truncated to 131070 * 2^-17:
        // 0x3EFFFE (0.99998474).
        assert_eq!(Plane::WMin.distance(p).bits(), 0x3E_FFFE);
        let user = Plane::User([f(ONE), f(ONE), f(0), f(0)]); // x + y
        assert_eq!(user.distance(p).bits(), 0);
    }

    #[test]
    fn clip_inside_is_inclusive_and_nan_outside() {
        assert!(inside(F24::ZERO));
        assert!(inside(F24::NEG_ZERO));
        assert!(!inside(F24::NAN));
        assert!(!inside(f(0x80_0001))); // a negative subnormal is below zero
    }

    #[test]
    fn clip_all_inside_keeps_vertex_order() {
        let t = [
            pos([0, 0, NEG_HALF, ONE]),
            pos([HALF, 0, NEG_HALF, ONE]),
            pos([0, HALF, NEG_HALF, ONE]),
        ];
        assert_eq!(clip_triangle(&RegFile::new(), &t), t.to_vec());
    }

    #[test]
    fn clip_quaternion_flip() {
        let mut t = [OutVertex::ONES; 3];
        for c in &mut t[2].attr[4..8] {
            *c = F24::NEG_ONE;
        }
        align_quaternions(&mut t);
        assert_eq!(t[1], OutVertex::ONES, "same direction: kept");
        assert_eq!(t[2], OutVertex::ONES, "opposite: negated");
    }

    #[test]
    fn clip_cull_modes() {
        let ccw = f(TWO);
        let cw = f(0xC0_0000);
        let zero = F24::ZERO;
        assert!(CullMode::None.keeps(ccw) && CullMode::None.keeps(cw));
        assert!(CullMode::None.keeps(zero) && CullMode::None.keeps(F24::NAN));
        assert!(!CullMode::CullCcw.keeps(ccw) && CullMode::CullCcw.keeps(cw));
        assert!(CullMode::CullCw.keeps(ccw) && !CullMode::CullCw.keeps(cw));
        for m in [CullMode::CullCcw, CullMode::CullCw] {
            assert!(!m.keeps(zero) && !m.keeps(F24::NAN));
        }
        let r = regs_with(&[(id::FACECULLING_CONFIG, 3)]);
        assert_eq!(CullMode::from_regs(&r), CullMode::CullCw);
    }

    #[test]
    fn clip_viewport_offset_is_signed() {
        // x = -1 (0x3FF), y = 511 (0x1FF).
        let r = regs_with(&[(id::VIEWPORT_XY, 0x01FF_03FF)]);
        let vp = Viewport::from_regs(&r);
        assert_eq!(vp.x, F24::NEG_ONE);
        assert_eq!(vp.y.bits(), 0x47_FF00); // 511 = 1.99609375 * 2^8
    }
}
