//! PA (output map, primitive assembly) and CLIP (clipping, viewport, depth map, face culling),
//! ticked in isolation with hand-made links and a register file. Expected values are
//! hand-derived; every f24 is compared by its bits.

#![allow(clippy::unwrap_used)]

use pica_model::beat::PrimitiveBeat;
use pica_model::clip::{self, ClipPorts, Clipper, Plane, W_EPSILON};
use pica_model::cp::RegWrite;
use pica_model::link::Link;
use pica_model::num::F24;
use pica_model::pa::{PaPorts, PrimitiveAssembler};
use pica_model::pipe::{OutVertex, PaCmd, ScreenTri, Triangle, NUM_SEMANTICS};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::shader::interp::{Emitted, Vec4};
use pica_model::shader::stage::ShadedItem;
use proptest::prelude::*;

// ---- f24 constants (sign | exponent << 16 | mantissa; bias 63) ----
const ZERO: u32 = 0;
const ONE: u32 = 0x3F_0000;
const TWO: u32 = 0x40_0000;
const THREE: u32 = 0x40_8000;
const FOUR: u32 = 0x41_0000;
const HALF: u32 = 0x3E_0000;
const QUARTER: u32 = 0x3D_0000;
const NEG_ONE: u32 = 0xBF_0000;
const NEG_HALF: u32 = 0xBE_0000;
const NEG_QUARTER: u32 = 0xBD_0000;
const NEG_TWO: u32 = 0xC0_0000;
const NAN: u32 = 0x7F_8000;

fn f(bits: u32) -> F24 {
    F24::from_bits(bits)
}

/// A small integer as f24 (exact).
fn int(n: i32) -> F24 {
    F24::from_f64_trunc(f64::from(n))
}

fn write(regs: &mut RegFile, reg: u16, value: u32) {
    let mut beats = Vec::new();
    regs.apply(
        0,
        RegWrite {
            id: reg.into(),
            mask: 0xF,
            param: value,
        },
        &mut beats,
    );
}

fn regs_with(writes: &[(u16, u32)]) -> RegFile {
    let mut r = RegFile::new();
    for &(reg, v) in writes {
        write(&mut r, reg, v);
    }
    r
}

/// Semantics 0-3 of the map registers: O = x | y << 8 | z << 16 | w << 24.
const MAP_POSITION: u32 = 0x0302_0100;
const MAP_COLOR: u32 = 0x0B0A_0908;

// =====================================================================================
// PA rig
// =====================================================================================

struct PaRig {
    regs: RegFile,
    vl: Link<PaCmd>,
    sh: Link<ShadedItem>,
    out: Link<Triangle>,
    beats: Vec<PrimitiveBeat>,
    pa: PrimitiveAssembler,
    cycle: u64,
    /// Triangles taken off the output link, with the cycle they were taken.
    got: Vec<(u64, Triangle)>,
    /// Drain the output link every cycle (off: the link fills and PA stalls).
    drain: bool,
}

impl PaRig {
    /// Output map O0 = position, O1 = colour; `mode` = PRIMITIVE_CONFIG bits 8-9.
    fn new(mode: u32) -> Self {
        Self::with_regs(regs_with(&[
            (id::SH_OUTMAP_TOTAL, 2),
            (id::SH_OUTMAP_O0, MAP_POSITION),
            (id::SH_OUTMAP_O1, MAP_COLOR),
            (id::PRIMITIVE_CONFIG, mode << 8),
        ]))
    }

    fn with_regs(regs: RegFile) -> Self {
        Self {
            regs,
            vl: Link::new("vl_to_pa", 64),
            sh: Link::new("sh_out", 64),
            out: Link::new("pa_to_clip", 64),
            beats: Vec::new(),
            pa: PrimitiveAssembler::new(),
            cycle: 0,
            got: Vec::new(),
            drain: true,
        }
    }

    fn cmds(&mut self, cmds: &[PaCmd]) {
        for &c in cmds {
            self.vl.push(c).unwrap();
        }
    }

    /// VS vertex `seq` with position (seq, 0, 0, 1) and colour `color` in o0, o1.
    fn vertex(&mut self, seq: u32) {
        self.sh
            .push(ShadedItem::Vertex {
                seq,
                outputs: vec![(0, tagged_pos(seq)), (1, [f(HALF); 4])],
            })
            .unwrap();
    }

    fn step(&mut self) {
        self.vl.begin_cycle();
        self.sh.begin_cycle();
        self.out.begin_cycle();
        self.pa.tick(
            self.cycle,
            PaPorts {
                regs: &self.regs,
                from_vl: &mut self.vl,
                from_sh: &mut self.sh,
                out: &mut self.out,
                beats: Some(&mut self.beats),
            },
        );
        self.cycle += 1;
        if self.drain {
            self.out.begin_cycle();
            while let Some(t) = self.out.pop() {
                self.got.push((self.cycle, t));
            }
        }
    }

    fn run(&mut self, cycles: u32) {
        for _ in 0..cycles {
            self.step();
        }
    }

    /// The position.x tags of the triangles received so far.
    fn orders(&self) -> Vec<[u32; 3]> {
        self.got.iter().map(|(_, t)| t.v.map(|v| tag(&v))).collect()
    }
}

fn tagged_pos(seq: u32) -> Vec4 {
    [int(seq as i32), f(ZERO), f(ZERO), f(ONE)]
}

fn tag(v: &OutVertex) -> u32 {
    v.attr[0].to_f64() as u32
}

/// Runs `n` vertices 0..n as one draw in `mode`; returns the tag orders.
fn draw(mode: u32, n: u32) -> Vec<[u32; 3]> {
    let mut rig = PaRig::new(mode);
    rig.cmds(&[PaCmd::Begin]);
    for s in 0..n {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.cmds(&[PaCmd::End]);
    rig.run(3 * n + 4);
    assert!(rig.pa.is_idle());
    rig.orders()
}

// =====================================================================================
// PA: output map
// =====================================================================================

#[test]
fn pa_outmap_oi_describes_the_ith_enabled_register() {
    // Enabled outputs o0, o3, o7 (the list SH sends). O0 -> position, O1 -> texcoord0 u, v
    // (z, w unused), O2 -> colour. Everything else reads 1.0.
    let regs = regs_with(&[
        (id::SH_OUTMAP_TOTAL, 3),
        (id::SH_OUTMAP_O0, MAP_POSITION),
        (id::SH_OUTMAP_O1, 0x1F1F_0D0C),
        (id::SH_OUTMAP_O2, MAP_COLOR),
    ]);
    let mut rig = PaRig::with_regs(regs);
    let pos = [f(HALF), f(NEG_HALF), f(NEG_QUARTER), f(ONE)];
    let tex = [f(THREE), f(NEG_TWO), f(NAN), f(NAN)];
    // Colour: -0.5 -> 0.5, 2 -> 1, NaN -> 1, -0.25 -> 0.25 (abs, then saturate).
    let color = [f(NEG_HALF), f(TWO), f(NAN), f(NEG_QUARTER)];
    for s in 0..3 {
        rig.sh
            .push(ShadedItem::Vertex {
                seq: s,
                outputs: vec![(0, pos), (3, tex), (7, color)],
            })
            .unwrap();
        rig.cmds(&[PaCmd::Vertex(s)]);
    }
    rig.run(6);
    assert_eq!(rig.got.len(), 1);
    let v = rig.got[0].1.v[0];
    let mut want = [ONE; NUM_SEMANTICS];
    want[0..4].copy_from_slice(&[HALF, NEG_HALF, NEG_QUARTER, ONE]);
    want[0x08..0x0C].copy_from_slice(&[HALF, ONE, ONE, QUARTER]);
    want[0x0C] = THREE;
    want[0x0D] = NEG_TWO;
    assert_eq!(v.bits(), want);
}

#[test]
fn pa_outmap_total_limits_the_maps_and_unmapped_reads_one() {
    // TOTAL = 1: O1 (colour) is ignored, so the colour stays 1.0 whatever o1 holds.
    let regs = regs_with(&[
        (id::SH_OUTMAP_TOTAL, 1),
        (id::SH_OUTMAP_O0, MAP_POSITION),
        (id::SH_OUTMAP_O1, MAP_COLOR),
    ]);
    let v = pica_model::pa::map_outputs(&regs, &[[f(QUARTER); 4], [f(ZERO); 4]]);
    let mut want = [ONE; NUM_SEMANTICS];
    want[0..4].copy_from_slice(&[QUARTER; 4]);
    assert_eq!(v.bits(), want);
    // A map without a register behind it (TOTAL = 2, one output) maps nothing.
    let regs = regs_with(&[
        (id::SH_OUTMAP_TOTAL, 2),
        (id::SH_OUTMAP_O0, MAP_POSITION),
        (id::SH_OUTMAP_O1, MAP_COLOR),
    ]);
    let v = pica_model::pa::map_outputs(&regs, &[[f(QUARTER); 4]]);
    assert_eq!(v.bits(), want);
}

// =====================================================================================
// PA: topologies, restart, cache hits, immediate mode
// =====================================================================================

#[test]
fn pa_list_vertex_order() {
    assert_eq!(draw(0, 7), vec![[0, 1, 2], [3, 4, 5]]);
}

#[test]
fn pa_strip_winding_alternates() {
    // Odd triangles swap their first two vertices so every triangle keeps the winding.
    assert_eq!(draw(1, 6), vec![[0, 1, 2], [2, 1, 3], [2, 3, 4], [4, 3, 5]]);
}

#[test]
fn pa_fan_vertex_order() {
    assert_eq!(draw(2, 5), vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
}

#[test]
fn pa_geometry_primitive_mode_without_gs_is_a_list() {
    assert_eq!(draw(3, 6), vec![[0, 1, 2], [3, 4, 5]]);
}

#[test]
fn pa_restart_primitive_starts_a_new_strip() {
    let mut rig = PaRig::new(1);
    rig.cmds(&[PaCmd::Begin]);
    for s in 0..7 {
        if s == 4 {
            rig.cmds(&[PaCmd::Restart]);
        }
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.cmds(&[PaCmd::End]);
    rig.run(30);
    // 0 1 2 3 | 4 5 6: the second strip starts with an even (unswapped) triangle.
    assert_eq!(rig.orders(), vec![[0, 1, 2], [2, 1, 3], [4, 5, 6]]);
}

#[test]
fn pa_restart_in_list_mode_drops_partial_triangle() {
    let mut rig = PaRig::new(0);
    rig.cmds(&[PaCmd::Begin]);
    for s in 0..5 {
        if s == 2 {
            rig.cmds(&[PaCmd::Restart]);
        }
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.cmds(&[PaCmd::End]);
    rig.run(20);
    assert_eq!(rig.orders(), vec![[2, 3, 4]]);
}

#[test]
fn pa_begin_restarts_the_strip_of_the_previous_draw() {
    let mut rig = PaRig::new(1);
    rig.cmds(&[PaCmd::Begin]);
    for s in 0..4 {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.cmds(&[PaCmd::End, PaCmd::Begin]);
    for s in 4..6 {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.cmds(&[PaCmd::End]);
    rig.run(30);
    // Vertices 4 and 5 alone make no triangle: 2 and 3 of the first draw are forgotten.
    assert_eq!(rig.orders(), vec![[0, 1, 2], [2, 1, 3]]);
    assert!(rig.pa.is_idle());
}

#[test]
fn pa_draw_restarts_knob_leak_joins_two_draws() {
    let two_draws = |set: &[&str]| {
        let mut rig = PaRig::new(1);
        let mut k = pica_model::knobs::Knobs::default();
        for a in set {
            k.set(a).unwrap();
        }
        rig.regs.set_knobs(k);
        rig.cmds(&[PaCmd::Begin]);
        for s in 0..4 {
            rig.cmds(&[PaCmd::Vertex(s)]);
            rig.vertex(s);
        }
        rig.cmds(&[PaCmd::End]);
        // The second draw's vertices arrive after the first draw ended (as SH delivers them).
        rig.run(20);
        rig.cmds(&[PaCmd::Begin]);
        for s in 4..6 {
            rig.cmds(&[PaCmd::Vertex(s)]);
            rig.vertex(s);
        }
        rig.cmds(&[PaCmd::End]);
        rig.run(20);
        assert!(rig.pa.is_idle());
        rig.orders()
    };
    // Restart: vertices 4 and 5 alone make no triangle. Leak: the strip goes on.
    assert_eq!(two_draws(&[]), vec![[0, 1, 2], [2, 1, 3]]);
    assert_eq!(
        two_draws(&["pa-draw-restarts=leak"]),
        vec![[0, 1, 2], [2, 1, 3], [2, 3, 4], [4, 3, 5]]
    );
}

#[test]
fn pa_cache_hit_reuses_an_earlier_shading() {
    // Indices 0 1 2 2 1 3 with hits on the repeated 2 and 1: SH shades seq 0-3 once each.
    let mut rig = PaRig::new(0);
    rig.cmds(&[PaCmd::Begin]);
    for s in [0, 1, 2, 2, 1, 3] {
        rig.cmds(&[PaCmd::Vertex(s)]);
    }
    rig.cmds(&[PaCmd::End]);
    for s in 0..4 {
        rig.vertex(s);
    }
    rig.run(20);
    assert_eq!(rig.orders(), vec![[0, 1, 2], [2, 1, 3]]);
    assert!(rig.pa.is_idle());
    assert_eq!(
        rig.pa.snapshot()["shaded"],
        0,
        "End clears the kept vertices"
    );
    assert_eq!(rig.pa.snapshot()["lost"], 0);
}

#[test]
fn pa_waits_for_the_shaded_vertex() {
    let mut rig = PaRig::new(0);
    rig.cmds(&[PaCmd::Vertex(0)]);
    rig.run(5);
    assert!(
        !rig.pa.is_idle(),
        "a vertex command waiting for its shading is work"
    );
    rig.vertex(0);
    rig.run(1);
    assert!(rig.pa.is_idle());
}

#[test]
fn pa_immediate_mode_strip_persists_between_vertices() {
    // No Begin/End: each vertex arrives alone; the strip continues and PA is idle in between.
    let mut rig = PaRig::new(1);
    for s in 0..5 {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
        rig.run(3);
        assert!(rig.pa.is_idle());
        assert_eq!(rig.pa.snapshot()["shaded"], 0, "used vertices are dropped");
    }
    assert_eq!(rig.orders(), vec![[0, 1, 2], [2, 1, 3], [2, 3, 4]]);
    // GPUREG_RESTART_PRIMITIVE between immediate vertices.
    rig.cmds(&[PaCmd::Restart]);
    for s in 5..8 {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.run(10);
    assert_eq!(rig.orders().last(), Some(&[5, 6, 7]));
}

#[test]
fn pa_mode_change_restarts_immediate_assembly() {
    let mut rig = PaRig::new(1);
    for s in 0..2 {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.run(4);
    write(&mut rig.regs, id::PRIMITIVE_CONFIG, 0x200); // fan
    for s in 2..5 {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.run(8);
    assert_eq!(rig.orders(), vec![[2, 3, 4]]);
}

#[test]
fn pa_vertex_that_never_arrives_is_skipped() {
    // A cache hit naming seq 0 after End cleared it: SH has passed seq 0, so it can never come.
    let mut rig = PaRig::new(0);
    rig.cmds(&[PaCmd::Begin, PaCmd::Vertex(0), PaCmd::End, PaCmd::Vertex(0)]);
    rig.vertex(0);
    rig.run(8);
    assert!(rig.pa.is_idle());
    assert_eq!(rig.pa.snapshot()["lost"], 1);
}

// =====================================================================================
// PA: geometry shader, beats, timing
// =====================================================================================

fn gs_regs(outs: [Vec4; 3]) -> [[Vec4; 16]; 3] {
    outs.map(|pos| {
        let mut r = [[f(ZERO); 4]; 16];
        r[0] = pos;
        r[1] = [f(NAN); 4]; // not enabled: must not be mapped
        r[2] = [f(NEG_HALF), f(HALF), f(TWO), f(ONE)];
        r
    })
}

#[test]
fn pa_gs_primitives_become_triangles() {
    let regs = regs_with(&[
        (id::GEOSTAGE_CONFIG, 2),
        (id::GSH_OUTMAP_MASK, 0b101), // o0, o2
        (id::SH_OUTMAP_TOTAL, 2),
        (id::SH_OUTMAP_O0, MAP_POSITION),
        (id::SH_OUTMAP_O1, MAP_COLOR),
        (id::PRIMITIVE_CONFIG, 0x300),
    ]);
    let mut rig = PaRig::with_regs(regs);
    // VL's vertex order names VS vertices that feed the GS: PA must not wait for them.
    rig.cmds(&[
        PaCmd::Begin,
        PaCmd::Vertex(0),
        PaCmd::Vertex(1),
        PaCmd::Vertex(2),
    ]);
    let emit = |primitive| ShadedItem::GsVertex {
        invocation: 0,
        emitted: Box::new(Emitted {
            vtx_id: 0,
            outputs: [[f(ZERO); 4]; 16],
            primitive,
            winding: false,
        }),
    };
    rig.sh.push(emit(None)).unwrap();
    rig.sh
        .push(emit(Some(gs_regs([
            tagged_pos(7),
            tagged_pos(8),
            tagged_pos(9),
        ]))))
        .unwrap();
    rig.sh
        .push(emit(Some(gs_regs([
            tagged_pos(1),
            tagged_pos(0),
            tagged_pos(2),
        ]))))
        .unwrap();
    rig.run(6);
    assert!(!rig.pa.is_idle(), "the draw is open until End");
    rig.cmds(&[PaCmd::End]);
    rig.run(2);
    assert!(rig.pa.is_idle());
    assert_eq!(rig.orders(), vec![[7, 8, 9], [1, 0, 2]]);
    let v = rig.got[0].1.v[0];
    // o2 (the second enabled register) went through O1: colour (0.5, 0.5, 1, 1).
    assert_eq!(
        v.color().map(F24::bits),
        [HALF, HALF, ONE, ONE],
        "colour from o2, made absolute and saturated"
    );
}

#[test]
fn pa_beats_and_triangle_numbers() {
    let mut rig = PaRig::new(2);
    rig.cmds(&[PaCmd::Begin]);
    for s in 0..4 {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.cmds(&[PaCmd::End]);
    rig.run(12);
    assert_eq!(rig.beats.len(), 2);
    for (i, (b, (_, t))) in rig.beats.iter().zip(&rig.got).enumerate() {
        assert_eq!(b.seq, i as u32);
        assert_eq!(t.seq, i as u32);
        assert_eq!(b.v, t.v.map(|v| v.bits()));
    }
    // Triangle numbers keep counting across draws.
    rig.cmds(&[PaCmd::Begin]);
    for s in 4..7 {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.cmds(&[PaCmd::End]);
    rig.run(12);
    assert_eq!(rig.beats.last().map(|b| b.seq), Some(2));
}

#[test]
fn pa_timing_one_vertex_per_cycle_triangle_in_the_same_cycle() {
    // Commands and vertices are all queued before cycle 0. Cycle 0: Begin. Cycles 1-3:
    // vertices 0-2 (one item and one command each); vertex 2 completes the triangle, which
    // is pushed in cycle 3.
    let mut rig = PaRig::new(0);
    rig.cmds(&[
        PaCmd::Begin,
        PaCmd::Vertex(0),
        PaCmd::Vertex(1),
        PaCmd::Vertex(2),
    ]);
    for s in 0..3 {
        rig.vertex(s);
    }
    rig.run(6);
    assert_eq!(rig.beats.len(), 1);
    assert_eq!(rig.beats[0].cycle, 3);
}

#[test]
fn pa_full_output_link_stalls() {
    // Output link of one entry that nobody drains: the first triangle fills it, the second
    // waits in the output register and PA stays busy.
    let mut rig = PaRig::new(0);
    rig.out = Link::new("pa_to_clip", 1);
    rig.drain = false;
    for s in 0..6 {
        rig.cmds(&[PaCmd::Vertex(s)]);
        rig.vertex(s);
    }
    rig.run(20);
    assert_eq!(rig.beats.len(), 1);
    assert!(!rig.pa.is_idle());
    rig.out.begin_cycle();
    assert!(rig.out.pop().is_some());
    rig.run(2);
    assert_eq!(rig.beats.len(), 2);
    assert!(rig.pa.is_idle());
}

// =====================================================================================
// CLIP: clipping against each plane
// =====================================================================================

/// A vertex at clip-space `p` whose other semantics hold `base + i` (i = semantic index).
fn vtx(p: [u32; 4], base: i32) -> OutVertex {
    let mut v = OutVertex {
        attr: std::array::from_fn(|i| int(base + i as i32)),
    };
    v.attr[..4].copy_from_slice(&p.map(f));
    v
}

/// Clips triangle (a, b, c) with a's attributes = i, b's = i + 2, c's = i + 4, where b is
/// outside one plane by exactly as much as a and c are inside it. The edges a-b and b-c are
/// cut in the middle: the polygon is [a, mid(a, b), mid(b, c), c], with the non-position
/// semantics i + 1 and i + 3 at the new vertices.
fn check_midpoint_cut(
    regs: &RegFile,
    a: [u32; 4],
    b: [u32; 4],
    c: [u32; 4],
    ab: [u32; 4],
    bc: [u32; 4],
) {
    let (va, vb, vc) = (vtx(a, 0), vtx(b, 2), vtx(c, 4));
    let poly = clip::clip_triangle(regs, &[va, vb, vc]);
    assert_eq!(poly.len(), 4, "{poly:?}");
    assert_eq!(poly[0], va);
    assert_eq!(poly[1], vtx(ab, 1));
    assert_eq!(poly[2], vtx(bc, 3));
    assert_eq!(poly[3], vc);
}

#[test]
fn clip_plane_x_le_w() {
    let r = RegFile::new();
    check_midpoint_cut(
        &r,
        [ZERO, ZERO, NEG_HALF, ONE],
        [TWO, ZERO, NEG_HALF, ONE],
        [ZERO, HALF, NEG_HALF, ONE],
        [ONE, ZERO, NEG_HALF, ONE],
        [ONE, QUARTER, NEG_HALF, ONE],
    );
}

#[test]
fn clip_plane_x_ge_neg_w() {
    let r = RegFile::new();
    check_midpoint_cut(
        &r,
        [ZERO, ZERO, NEG_HALF, ONE],
        [NEG_TWO, ZERO, NEG_HALF, ONE],
        [ZERO, HALF, NEG_HALF, ONE],
        [NEG_ONE, ZERO, NEG_HALF, ONE],
        [NEG_ONE, QUARTER, NEG_HALF, ONE],
    );
}

#[test]
fn clip_plane_y_le_w() {
    let r = RegFile::new();
    check_midpoint_cut(
        &r,
        [ZERO, ZERO, NEG_HALF, ONE],
        [ZERO, TWO, NEG_HALF, ONE],
        [HALF, ZERO, NEG_HALF, ONE],
        [ZERO, ONE, NEG_HALF, ONE],
        [QUARTER, ONE, NEG_HALF, ONE],
    );
}

#[test]
fn clip_plane_y_ge_neg_w() {
    let r = RegFile::new();
    check_midpoint_cut(
        &r,
        [ZERO, ZERO, NEG_HALF, ONE],
        [ZERO, NEG_TWO, NEG_HALF, ONE],
        [HALF, ZERO, NEG_HALF, ONE],
        [ZERO, NEG_ONE, NEG_HALF, ONE],
        [QUARTER, NEG_ONE, NEG_HALF, ONE],
    );
}

#[test]
fn clip_plane_z_le_0() {
    let r = RegFile::new();
    check_midpoint_cut(
        &r,
        [ZERO, ZERO, NEG_HALF, ONE],
        [ZERO, ZERO, HALF, ONE],
        [HALF, ZERO, NEG_HALF, ONE],
        [ZERO, ZERO, ZERO, ONE],
        [QUARTER, ZERO, ZERO, ONE],
    );
}

#[test]
fn clip_plane_z_ge_neg_w() {
    let r = RegFile::new();
    check_midpoint_cut(
        &r,
        [ZERO, ZERO, NEG_HALF, ONE],
        [ZERO, ZERO, 0xBF_8000, ONE], // z = -1.5
        [HALF, ZERO, NEG_HALF, ONE],
        [ZERO, ZERO, NEG_ONE, ONE],
        [QUARTER, ZERO, NEG_ONE, ONE],
    );
}

#[test]
fn clip_user_plane_when_enabled() {
    // Plane x >= 0: coefficients (1, 0, 0, 0).
    let plane = [
        (id::FRAGOP_CLIP_DATA0, ONE),
        (id::FRAGOP_CLIP_DATA1, ZERO),
        (id::FRAGOP_CLIP_DATA2, ZERO),
        (id::FRAGOP_CLIP_DATA3, ZERO),
    ];
    let a = [HALF, ZERO, NEG_HALF, ONE];
    let b = [NEG_HALF, ZERO, NEG_HALF, ONE];
    let c = [HALF, HALF, NEG_HALF, ONE];
    let mut on = plane.to_vec();
    on.push((id::FRAGOP_CLIP, 1));
    check_midpoint_cut(
        &regs_with(&on),
        a,
        b,
        c,
        [ZERO, ZERO, NEG_HALF, ONE],
        [ZERO, QUARTER, NEG_HALF, ONE],
    );
    // Disabled: the same coefficients clip nothing.
    let t = [vtx(a, 0), vtx(b, 2), vtx(c, 4)];
    assert_eq!(clip::clip_triangle(&regs_with(&plane), &t), t.to_vec());
}

#[test]
fn clip_w_guard() {
    // v0 = (0, 0, 0, 0) lies on every frustum plane (inside them) but below w = ε. Derived
    // with the precision table (all f24, truncated):
    //   d(v0) = 0 - ε = -0x2E4F8B, d(v1) = d(v2) = 1 - ε = 0x3EFFFE (0.99998474).
    // Edge v2 -> v0 (walk starts at the last vertex): t = d2 / (d2 - d0) = 0x3EFFFE * rcp(0.9999947)
    //   = 0x3EFFFE, u = 1 - t = 2^-16 = 0x2F0000, vertex = v0·t + v2·u = v2·2^-16
    //   = (2^-17, 0, -2^-17, 2^-16) = (0x2E0000, 0, 0xAE0000, 0x2F0000).
    // Edge v0 -> v1: t = d0 / (d0 - d1) = ε (0x2E4F8B), u = 0x3EFFFE,
    //   vertex = v1·t + v0·u = (0, 0, -ε/2, ε) = (0, 0, 0xAD4F8B, 0x2E4F8B): exactly on w = ε.
    let v0 = vtx([ZERO, ZERO, ZERO, ZERO], 0);
    let v1 = vtx([ZERO, ZERO, NEG_HALF, ONE], 0);
    let v2 = vtx([HALF, ZERO, NEG_HALF, ONE], 0);
    let poly = clip::clip_triangle(&RegFile::new(), &[v0, v1, v2]);
    let pos: Vec<[u32; 4]> = poly.iter().map(|v| v.position().map(F24::bits)).collect();
    assert_eq!(
        pos,
        vec![
            [0x2E_0000, ZERO, 0xAE_0000, 0x2F_0000],
            [ZERO, ZERO, 0xAD_4F8B, W_EPSILON.bits()],
            [ZERO, ZERO, NEG_HALF, ONE],
            [HALF, ZERO, NEG_HALF, ONE],
        ]
    );
}

#[test]
fn clip_truncated_interpolation_bits() {
    // x = w crossed a third of the way: b = (3, 0, -0.5, 1) has distance -2, a and c +1.
    // Edge a -> b: t = 1·rcp(3) = 0x3D5555, u = 1 - t = 0x3E5555 (21845.5 truncated);
    //   x = 3t = 262143/262144 = 0x3EFFFF, w = t + u = 0x3EFFFF (on the plane),
    //   z = -t/2 - u/2 = -262143/524288 = 0xBDFFFF.
    // Edge b -> c (d_prev = -2, d = 1): t = -2·rcp(-3) = 0x3E5555, u = 1 - t = 0x3D5556;
    //   x = 3u = 262146/262144 truncated to 1.0, y = t/2 = 0x3D5555, z = -0.5, w = t + u = 1.
    let a = OutVertex::ONES;
    let mut va = a;
    let mut vb = a;
    let mut vc = a;
    va.attr[..4].copy_from_slice(&[ZERO, ZERO, NEG_HALF, ONE].map(f));
    vb.attr[..4].copy_from_slice(&[THREE, ZERO, NEG_HALF, ONE].map(f));
    vc.attr[..4].copy_from_slice(&[ZERO, HALF, NEG_HALF, ONE].map(f));
    let poly = clip::clip_polygon(&[va, vb, vc], Plane::XPos);
    let pos: Vec<[u32; 4]> = poly.iter().map(|v| v.position().map(F24::bits)).collect();
    assert_eq!(
        pos,
        vec![
            [ZERO, ZERO, NEG_HALF, ONE],
            [0x3E_FFFF, ZERO, 0xBD_FFFF, 0x3E_FFFF],
            [ONE, 0x3D_5555, NEG_HALF, ONE],
            [ZERO, HALF, NEG_HALF, ONE],
        ]
    );
    // Semantics equal to 1.0 on both ends stay 1.0 only where t + u = 1: at a-b, 0x3EFFFF.
    assert_eq!(poly[1].attr[0x08].bits(), 0x3E_FFFF);
    assert_eq!(poly[2].attr[0x08].bits(), ONE);
}

#[test]
fn clip_outside_one_plane_entirely_is_dropped() {
    let t = [
        vtx([TWO, ZERO, NEG_HALF, ONE], 0),
        vtx([THREE, ZERO, NEG_HALF, ONE], 0),
        vtx([TWO, ONE, NEG_HALF, ONE], 0),
    ];
    assert!(clip::clip_triangle(&RegFile::new(), &t).is_empty());
    // NaN positions are outside every plane.
    let n = [vtx([NAN, NAN, NAN, NAN], 0); 3];
    assert!(clip::clip_triangle(&RegFile::new(), &n).is_empty());
}

// =====================================================================================
// CLIP: viewport, depth map, culling
// =====================================================================================

/// Viewport 240 x 400 at (8, -4); depth scale -1, offset 0.5; DEPTHMAP_ENABLE 1.
fn viewport_regs(cull: u32) -> RegFile {
    regs_with(&[
        (id::VIEWPORT_WIDTH, 0x45_E000),  // 120
        (id::VIEWPORT_HEIGHT, 0x46_9000), // 200
        (id::VIEWPORT_XY, 0x03FC_0008),   // x = 8, y = -4
        (id::DEPTHMAP_SCALE, NEG_ONE),
        (id::DEPTHMAP_OFFSET, HALF),
        (id::DEPTHMAP_ENABLE, 1),
        (id::FACECULLING_CONFIG, cull),
    ])
}

fn tri(p: [[u32; 4]; 3]) -> Triangle {
    Triangle {
        seq: 5,
        v: p.map(|p| vtx(p, 0)),
    }
}

#[test]
fn clip_viewport_and_depth_map_numbers() {
    // (0.5, -0.5, -0.25, 1) and the same point at w = 2 and w = 4:
    //   x = (0.5 + 1)·120 + 8 = 188 (0x467800), y = (-0.5 + 1)·200 - 4 = 96 (0x458000),
    //   z = (-0.25)·(-1) + 0.5 = 0.75 (0x3E8000); inv_w = 1, 0.5, 0.25.
    let r = viewport_regs(0);
    let t = tri([
        [HALF, NEG_HALF, NEG_QUARTER, ONE],
        [ONE, NEG_ONE, NEG_HALF, TWO],
        [TWO, NEG_TWO, NEG_ONE, FOUR],
    ]);
    let out = clip::process(&r, &t);
    assert_eq!(out.len(), 1, "degenerate but culling is off");
    let s = out[0];
    assert_eq!(s.seq, 5);
    for (v, inv_w) in s.v.iter().zip([ONE, HALF, QUARTER]) {
        assert_eq!(
            [v.x.bits(), v.y.bits(), v.z.bits(), v.inv_w.bits()],
            [0x46_7800, 0x45_8000, 0x3E_8000, inv_w]
        );
    }
    assert_eq!(s.v[1].v, t.v[1], "v is the clip-space vertex, not divided");
}

#[test]
fn clip_viewport_perspective_division() {
    // (1, 0, 0, 4): x/w = 0.25, x = 1.25·120 + 8 = 158 (0x463C00); y = 200 - 4 = 196
    // = 1.53125·2^7 (0x468800); z = 0·(-1) + 0.5 = 0.5.
    let r = viewport_regs(0);
    let v = vtx([ONE, ZERO, ZERO, FOUR], 0);
    let s = clip::to_screen(&clip::Viewport::from_regs(&r), &v);
    assert_eq!(
        [s.x.bits(), s.y.bits(), s.z.bits(), s.inv_w.bits()],
        [0x46_3C00, 0x46_8800, HALF, QUARTER]
    );
}

#[test]
fn clip_depth_map_value_ignores_depthmap_enable() {
    // The per-vertex value is the z-buffer form in both settings (RAST applies the w-buffer).
    let mut r = viewport_regs(0);
    let v = vtx([ZERO, ZERO, NEG_HALF, TWO], 0);
    let z1 = clip::to_screen(&clip::Viewport::from_regs(&r), &v).z;
    write(&mut r, id::DEPTHMAP_ENABLE, 0);
    let z0 = clip::to_screen(&clip::Viewport::from_regs(&r), &v).z;
    // (-0.5 / 2)·(-1) + 0.5 = 0.75.
    assert_eq!((z1.bits(), z0.bits()), (0x3E_8000, 0x3E_8000));
}

const CCW: [[u32; 4]; 3] = [
    [ZERO, ZERO, NEG_HALF, ONE],
    [HALF, ZERO, NEG_HALF, ONE],
    [ZERO, HALF, NEG_HALF, ONE],
];
const CW: [[u32; 4]; 3] = [CCW[0], CCW[2], CCW[1]];
const DEGENERATE: [[u32; 4]; 3] = [
    [ZERO, ZERO, NEG_HALF, ONE],
    [QUARTER, QUARTER, NEG_HALF, ONE],
    [HALF, HALF, NEG_HALF, ONE],
];

fn survivors(cull: u32, p: [[u32; 4]; 3]) -> usize {
    clip::process(&viewport_regs(cull), &tri(p)).len()
}

#[test]
fn clip_cull_none_keeps_everything() {
    assert_eq!(
        [
            survivors(0, CCW),
            survivors(0, CW),
            survivors(0, DEGENERATE)
        ],
        [1, 1, 1]
    );
}

#[test]
fn clip_cull_front_ccw_drops_counter_clockwise() {
    assert_eq!(
        [
            survivors(1, CCW),
            survivors(1, CW),
            survivors(1, DEGENERATE)
        ],
        [0, 1, 0]
    );
}

#[test]
fn clip_cull_back_drops_clockwise() {
    assert_eq!(
        [
            survivors(2, CCW),
            survivors(2, CW),
            survivors(2, DEGENERATE)
        ],
        [1, 0, 0]
    );
    // Reserved mode 3 culls like 2.
    assert_eq!([survivors(3, CCW), survivors(3, CW)], [1, 0]);
}

#[test]
fn clip_cull_decides_on_window_winding() {
    // A negative VIEWPORT_HEIGHT mirrors y: the clip-space CCW triangle is CW on screen.
    let mut r = viewport_regs(2);
    write(&mut r, id::VIEWPORT_HEIGHT, 0xC6_9000); // -200
    assert!(clip::process(&r, &tri(CCW)).is_empty());
    assert_eq!(clip::process(&r, &tri(CW)).len(), 1);
}

#[test]
fn clip_fan_keeps_seq_and_winding() {
    // The x = w cut of clip_plane_x_le_w through the full path: two triangles, same seq,
    // both counter-clockwise (they survive culling mode 2).
    let r = viewport_regs(2);
    let t = tri([
        [ZERO, ZERO, NEG_HALF, ONE],
        [TWO, ZERO, NEG_HALF, ONE],
        [ZERO, HALF, NEG_HALF, ONE],
    ]);
    let out = clip::process(&r, &t);
    assert_eq!(out.len(), 2);
    assert!(out.iter().all(|s| s.seq == 5));
    // Fan from the first polygon vertex: (a, ab, bc), (a, bc, c). Window x of a and c
    // (x = 0) = 120 + 8 = 128 (0x460000), of ab and bc (x = 1) = 2·120 + 8 = 248 (0x46F000).
    let xs: Vec<[u32; 3]> = out.iter().map(|s| s.v.map(|v| v.x.bits())).collect();
    assert_eq!(
        xs,
        vec![
            [0x46_0000, 0x46_F000, 0x46_F000],
            [0x46_0000, 0x46_F000, 0x46_0000]
        ]
    );
}

// =====================================================================================
// CLIP: the stage with its links
// =====================================================================================

struct ClipRig {
    regs: RegFile,
    input: Link<Triangle>,
    out: Link<ScreenTri>,
    clip: Clipper,
    cycle: u64,
    /// (cycle pushed by CLIP, triangle).
    got: Vec<(u64, ScreenTri)>,
}

impl ClipRig {
    fn new(regs: RegFile) -> Self {
        Self {
            regs,
            input: Link::new("pa_to_clip", 16),
            out: Link::new("clip_to_rast", 16),
            clip: Clipper::new(),
            cycle: 0,
            got: Vec::new(),
        }
    }

    fn step(&mut self) {
        self.input.begin_cycle();
        self.out.begin_cycle();
        self.clip.tick(
            self.cycle,
            ClipPorts {
                regs: &self.regs,
                input: &mut self.input,
                out: &mut self.out,
            },
        );
        self.out.begin_cycle();
        while let Some(t) = self.out.pop() {
            self.got.push((self.cycle, t));
        }
        self.cycle += 1;
    }
}

#[test]
fn clip_timing_one_cycle_per_output_triangle() {
    // Input 0 is cut into two triangles, input 1 is culled (CW with mode 2), input 2 passes:
    // cycle 0 takes input 0 and sends its first triangle, cycle 1 the second; cycle 2 takes
    // input 1 (nothing leaves); cycle 3 takes input 2 and sends it.
    let mut rig = ClipRig::new(viewport_regs(2));
    let cut = tri([
        [ZERO, ZERO, NEG_HALF, ONE],
        [TWO, ZERO, NEG_HALF, ONE],
        [ZERO, HALF, NEG_HALF, ONE],
    ]);
    for (seq, mut t) in [(0, cut), (1, tri(CW)), (2, tri(CCW))] {
        t.seq = seq;
        rig.input.push(t).unwrap();
    }
    rig.step();
    assert!(!rig.clip.is_idle(), "the second triangle of input 0 waits");
    for _ in 0..3 {
        rig.step();
    }
    let seen: Vec<(u64, u32)> = rig.got.iter().map(|(c, t)| (*c, t.seq)).collect();
    assert_eq!(seen, vec![(0, 0), (1, 0), (3, 2)]);
    assert!(rig.clip.is_idle());
    assert_eq!(rig.clip.snapshot()["inputs"], 3);
}

#[test]
fn clip_full_output_link_holds_the_queue() {
    let mut rig = ClipRig::new(viewport_regs(0));
    rig.out = Link::new("clip_to_rast", 1);
    rig.input.push(tri(CCW)).unwrap();
    rig.input.push(tri(CW)).unwrap();
    // Do not drain: only the first fits.
    for c in 0..4 {
        rig.input.begin_cycle();
        rig.out.begin_cycle();
        rig.clip.tick(
            c,
            ClipPorts {
                regs: &rig.regs,
                input: &mut rig.input,
                out: &mut rig.out,
            },
        );
    }
    assert!(!rig.clip.is_idle());
    assert_eq!(rig.clip.snapshot()["outputs"], 1);
}

// =====================================================================================
// Properties: no input panics
// =====================================================================================

fn any_f24() -> impl Strategy<Value = F24> {
    prop_oneof![
        (0u32..0x100_0000).prop_map(F24::from_bits),
        // ordinary values around 1 in magnitude
        (any::<bool>(), 0x3Cu32..0x43, 0u32..0x1_0000)
            .prop_map(|(s, e, m)| F24::from_parts(s, e, m)),
        Just(F24::ZERO),
        Just(F24::ONE),
    ]
}

fn ordinary_f24() -> impl Strategy<Value = F24> {
    (any::<bool>(), 0x3Au32..0x42, 0u32..0x1_0000).prop_map(|(s, e, m)| F24::from_parts(s, e, m))
}

fn any_out_vertex(c: impl Strategy<Value = F24>) -> impl Strategy<Value = OutVertex> {
    proptest::collection::vec(c, NUM_SEMANTICS).prop_map(|a| OutVertex {
        attr: std::array::from_fn(|i| a[i]),
    })
}

/// Random values for every register PA and CLIP read.
fn any_regs() -> impl Strategy<Value = RegFile> {
    let ids = [
        id::SH_OUTMAP_TOTAL,
        id::SH_OUTMAP_O0,
        id::SH_OUTMAP_O1,
        id::SH_OUTMAP_O2,
        id::SH_OUTMAP_O3,
        id::SH_OUTMAP_O4,
        id::SH_OUTMAP_O5,
        id::SH_OUTMAP_O6,
        id::PRIMITIVE_CONFIG,
        id::GEOSTAGE_CONFIG,
        id::GSH_OUTMAP_MASK,
        id::FACECULLING_CONFIG,
        id::VIEWPORT_WIDTH,
        id::VIEWPORT_INVW,
        id::VIEWPORT_HEIGHT,
        id::VIEWPORT_INVH,
        id::VIEWPORT_XY,
        id::DEPTHMAP_ENABLE,
        id::DEPTHMAP_SCALE,
        id::DEPTHMAP_OFFSET,
        id::FRAGOP_CLIP,
        id::FRAGOP_CLIP_DATA0,
        id::FRAGOP_CLIP_DATA1,
        id::FRAGOP_CLIP_DATA2,
        id::FRAGOP_CLIP_DATA3,
    ];
    proptest::collection::vec(
        prop_oneof![any::<u32>(), (0u32..0x100_0000), (0u32..4)],
        ids.len(),
    )
    .prop_map(move |vals| {
        let mut r = RegFile::new();
        for (reg, v) in ids.iter().zip(vals) {
            write(&mut r, *reg, v);
        }
        r
    })
}

#[derive(Clone, Debug)]
enum Ev {
    Cmd(PaCmd),
    Vs(Vec<(u8, Vec4)>),
    Gs(Option<Box<[[Vec4; 16]; 3]>>, bool),
}

fn any_vec4() -> impl Strategy<Value = Vec4> {
    [any_f24(), any_f24(), any_f24(), any_f24()]
}

fn any_event() -> impl Strategy<Value = Ev> {
    prop_oneof![
        2 => prop_oneof![
            Just(PaCmd::Begin),
            Just(PaCmd::End),
            Just(PaCmd::Restart),
            (0u32..24).prop_map(PaCmd::Vertex),
        ]
        .prop_map(Ev::Cmd),
        2 => proptest::collection::vec((0u8..16, any_vec4()), 0..9).prop_map(Ev::Vs),
        1 => (
            proptest::option::of(
                [any_vec4(), any_vec4(), any_vec4()].prop_map(|v| Box::new(v.map(|r| [r; 16])))
            ),
            any::<bool>()
        )
            .prop_map(|(p, w)| Ev::Gs(p, w)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any register values and any vertex/command stream: PA and CLIP never panic, PA sends
    /// at most one triangle per cycle, and CLIP's outputs carry their input's seq.
    #[test]
    fn pa_clip_prop_never_panic(regs in any_regs(), events in proptest::collection::vec(any_event(), 0..40)) {
        let mut rig = PaRig::with_regs(regs);
        let mut clip = ClipRig::new(rig.regs.clone());
        let mut next_seq = 0u32;
        for e in events {
            match e {
                Ev::Cmd(c) => { let _ = rig.vl.push(c); }
                Ev::Vs(outputs) => {
                    let _ = rig.sh.push(ShadedItem::Vertex { seq: next_seq, outputs });
                    next_seq += 1;
                }
                Ev::Gs(primitive, winding) => {
                    let _ = rig.sh.push(ShadedItem::GsVertex {
                        invocation: 0,
                        emitted: Box::new(Emitted { vtx_id: 0, outputs: [[F24::ZERO; 4]; 16], primitive: primitive.map(|p| *p), winding }),
                    });
                }
            }
            rig.step();
            let _ = rig.pa.snapshot();
        }
        rig.run(100);
        let cycles: Vec<u64> = rig.beats.iter().map(|b| b.cycle).collect();
        prop_assert!(cycles.windows(2).all(|w| w[0] < w[1]), "one triangle per cycle");
        for (_, t) in &rig.got {
            let before = clip.got.len();
            clip.input.push(*t).unwrap();
            clip.step();
            while !clip.clip.is_idle() { clip.step(); }
            prop_assert!(clip.got[before..].iter().all(|(_, s)| s.seq == t.seq));
        }
    }

    /// Any triangle and registers: CLIP never panics; a fan of an n-gon has at most n - 2
    /// triangles, all with the input's seq.
    #[test]
    fn clip_prop_any_triangle(regs in any_regs(), v in [any_out_vertex(any_f24()), any_out_vertex(any_f24()), any_out_vertex(any_f24())], seq in any::<u32>()) {
        let poly = clip::clip_triangle(&regs, &v);
        let out = clip::process(&regs, &Triangle { seq, v });
        prop_assert!(poly.is_empty() || poly.len() >= 3);
        prop_assert!(out.len() <= poly.len().saturating_sub(2));
        prop_assert!(out.iter().all(|t| t.seq == seq));
    }

    /// Ordinary finite triangles (magnitudes 2^-5 .. 2^3): every vertex that leaves CLIP has
    /// a positive, finite 1/w (the w guard's purpose).
    #[test]
    fn clip_prop_output_w_positive(v in [any_out_vertex(ordinary_f24()), any_out_vertex(ordinary_f24()), any_out_vertex(ordinary_f24())], user in any::<bool>(), c in [ordinary_f24(), ordinary_f24(), ordinary_f24(), ordinary_f24()]) {
        let mut regs = RegFile::new();
        write(&mut regs, id::FRAGOP_CLIP, u32::from(user));
        for (i, c) in c.iter().enumerate() {
            write(&mut regs, id::FRAGOP_CLIP_DATA0 + i as u16, c.bits());
        }
        for p in clip::clip_triangle(&regs, &v) {
            let inv_w = pica_model::shader::alu::rcp(p.position()[3]);
            prop_assert!(inv_w.is_finite() && inv_w.to_f64() > 0.0, "{p:?}");
        }
    }
}
