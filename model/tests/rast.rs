//! RAST: fill rule, scissor, interpolation, depth quantization, early depth, timing, and the
//! rasterization properties of issue 5 (shared edges, an independent coverage reference, no
//! panics).
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use pica_model::beat::{FragmentBeat, RegWriteBeat};
use pica_model::cp::RegWrite;
use pica_model::link::Link;
use pica_model::num::F24;
use pica_model::pipe::{semantic, Fragment, OutVertex, ScreenTri, ScreenVertex, NUM_SEMANTICS};
use pica_model::rast::config::Words;
use pica_model::rast::{
    rasterize, EarlyDepthBuffer, RastConfig, RastPorts, Rasterizer, ScissorMode,
};
use pica_model::regfile::RegFile;
use pica_model::timing;
use proptest::prelude::*;

// ---------------------------------------------------------------- helpers

/// An exactly representable value as f24 (every value used here is).
fn f(x: f64) -> F24 {
    let v = F24::from_f64_trunc(x);
    assert_eq!(v.to_f64(), x, "{x} is not an f24 value");
    v
}

/// A vertex at window (x, y) pixels, z 0, 1/w 1, every semantic 1.0.
fn vtx(x: f64, y: f64) -> ScreenVertex {
    ScreenVertex {
        x: f(x),
        y: f(y),
        z: F24::ZERO,
        inv_w: F24::ONE,
        v: OutVertex::ONES,
    }
}

fn tri(v: [ScreenVertex; 3]) -> ScreenTri {
    ScreenTri { seq: 7, v }
}

/// GPUREG_FRAMEBUFFER_DIM for a `w` × `h` framebuffer.
fn fb_dim(w: u32, h: u32) -> u32 {
    w | ((h - 1) << 12) | (1 << 24)
}

/// A configuration: `w` × `h` framebuffer, D24, z-buffer, no scissor, no early depth.
fn cfg(w: u32, h: u32) -> RastConfig {
    RastConfig::from_words(Words {
        framebuffer_dim: fb_dim(w, h),
        depthbuffer_format: 2,
        depthmap_enable: 1,
        ..Words::default()
    })
}

fn pixels(frags: &[Fragment]) -> BTreeSet<(u16, u16)> {
    frags.iter().map(|f| (f.x, f.y)).collect()
}

fn draw(t: &ScreenTri, c: RastConfig) -> Vec<Fragment> {
    rasterize(t, c, &mut EarlyDepthBuffer::new())
}

/// The pixel set `{(x, y) | pred(x, y)}` over a `w` × `h` grid.
fn set_where(w: u16, h: u16, pred: impl Fn(u16, u16) -> bool) -> BTreeSet<(u16, u16)> {
    let mut s = BTreeSet::new();
    for y in 0..h {
        for x in 0..w {
            if pred(x, y) {
                s.insert((x, y));
            }
        }
    }
    s
}

/// The three vertex orders of each winding.
fn orders(v: [ScreenVertex; 3]) -> Vec<[ScreenVertex; 3]> {
    let [a, b, c] = v;
    vec![
        [a, b, c],
        [b, c, a],
        [c, a, b],
        [a, c, b],
        [c, b, a],
        [b, a, c],
    ]
}

fn write(regs: &mut RegFile, cycle: u64, id: u32, param: u32) {
    let mut beats: Vec<RegWriteBeat> = Vec::new();
    regs.apply(
        cycle,
        RegWrite {
            id,
            mask: 0xF,
            param,
        },
        &mut beats,
    );
}

/// What one stage run produced.
struct Run {
    frags: Vec<(u64, Fragment)>,
    beats: Vec<FragmentBeat>,
    /// The first cycle at whose end RAST was idle with its input drained.
    idle_at: u64,
    rast: Rasterizer,
}

/// Ticks a RAST stage: `tris` enter the CLIP → RAST link as fast as it takes them; the FOP
/// side pops one fragment per cycle when `fop_pops(cycle)`.
fn run_stage(
    rast: Rasterizer,
    regs: &RegFile,
    tris: &[ScreenTri],
    fop_pops: impl Fn(u64) -> bool,
    max_cycles: u64,
) -> Run {
    let mut rast = rast;
    let mut input = Link::new("clip_to_rast", timing::CLIP_TO_RAST_DEPTH);
    let mut out = Link::new("rast_to_tex", timing::RAST_TO_TEX_DEPTH);
    let mut beats = Vec::new();
    let mut frags = Vec::new();
    let mut next = 0;
    for cycle in 0..max_cycles {
        input.begin_cycle();
        out.begin_cycle();
        if fop_pops(cycle) {
            if let Some(fr) = out.pop() {
                frags.push((cycle, fr));
            }
        }
        rast.tick(
            cycle,
            RastPorts {
                regs,
                input: &mut input,
                out: &mut out,
                beats: Some(&mut beats),
            },
        );
        if next < tris.len() && input.can_push() {
            input.push(tris[next]).unwrap();
            next += 1;
        }
        if next == tris.len() && input.is_empty() && rast.is_idle() && out.is_empty() {
            return Run {
                frags,
                beats,
                idle_at: cycle,
                rast,
            };
        }
    }
    Run {
        frags,
        beats,
        idle_at: u64::MAX,
        rast,
    }
}

// ---------------------------------------------------------------- fill rule, hand-derived

/// Vertices at pixel centres (0.5, 0.5), (4.5, 0.5), (0.5, 4.5). The edge y = 0.5 is
/// horizontal with the interior toward +y: a top edge, it owns the centres on it (row 0). The
/// edge x = 0.5 has the interior toward +x: a left edge, it owns column 0. The hypotenuse
/// x + y = 5 has the interior toward -x: a right edge, it does not own the centres on it.
/// Covered: x + 0.5 + y + 0.5 < 5, i.e. x + y <= 3 — ten pixels, in every vertex order.
#[test]
fn rast_fill_rule_top_and_left_edges_drawn_right_edge_not() {
    let want = set_where(8, 8, |x, y| x + y <= 3);
    assert_eq!(want.len(), 10);
    for v in orders([vtx(0.5, 0.5), vtx(4.5, 0.5), vtx(0.5, 4.5)]) {
        assert_eq!(pixels(&draw(&tri(v), cfg(8, 8))), want, "{v:?}");
    }
}

/// The other half of the square: (4.5, 4.5), (0.5, 4.5), (4.5, 0.5). The edge y = 4.5 has the
/// interior toward -y (the largest y: a bottom edge) and x = 4.5 toward -x (a right edge):
/// neither owns its centres (row 4, column 4 stay empty). The hypotenuse now has the interior
/// toward +x and owns x + y = 4. Covered: x, y <= 3 and x + y >= 4 — six pixels, and with the
/// first half exactly the 4 × 4 square, each pixel once.
#[test]
fn rast_fill_rule_bottom_and_right_edges_not_drawn() {
    let want = set_where(8, 8, |x, y| x <= 3 && y <= 3 && x + y >= 4);
    assert_eq!(
        want,
        [(3, 1), (2, 2), (3, 2), (1, 3), (2, 3), (3, 3)]
            .into_iter()
            .collect()
    );
    for v in orders([vtx(4.5, 4.5), vtx(0.5, 4.5), vtx(4.5, 0.5)]) {
        let got = pixels(&draw(&tri(v), cfg(8, 8)));
        assert_eq!(got, want, "{v:?}");
        let other = pixels(&draw(
            &tri([vtx(0.5, 0.5), vtx(4.5, 0.5), vtx(0.5, 4.5)]),
            cfg(8, 8),
        ));
        assert!(got.is_disjoint(&other));
        assert_eq!(
            got.union(&other).count(),
            16,
            "the two halves tile the square"
        );
    }
}

/// A thin triangle (2.5, 2.5), (6.5, 2.5), (2.5, 3.0): its top edge y = 2.5 runs through the
/// centres of row 2, x = 2..=6. (2, 2) also lies on the left edge x = 2.5 (owned: drawn);
/// (6, 2) is the vertex (6.5, 2.5), where the top edge meets the sloped right edge, which does
/// not own its points: not drawn. Row 3 (centres at y = 3.5) is outside.
#[test]
fn rast_fill_rule_vertex_on_centre() {
    let want: BTreeSet<_> = [(2, 2), (3, 2), (4, 2), (5, 2)].into_iter().collect();
    for v in orders([vtx(2.5, 2.5), vtx(6.5, 2.5), vtx(2.5, 3.0)]) {
        assert_eq!(pixels(&draw(&tri(v), cfg(8, 8))), want, "{v:?}");
    }
}

/// Zero-area triangles (collinear or coincident vertices) cover nothing.
#[test]
fn rast_degenerate_triangle_draws_nothing() {
    for v in [
        [vtx(0.5, 0.5), vtx(4.5, 0.5), vtx(2.5, 0.5)],
        [vtx(1.0, 1.0), vtx(1.0, 1.0), vtx(5.0, 6.0)],
        [vtx(0.5, 0.5), vtx(2.5, 2.5), vtx(4.5, 4.5)],
    ] {
        assert!(draw(&tri(v), cfg(8, 8)).is_empty());
    }
}

/// The framebuffer bounds: a triangle larger than a 5 × 3 framebuffer fills exactly it, and
/// pixels at negative coordinates are never produced.
#[test]
fn rast_framebuffer_clips() {
    let t = tri([vtx(-20.0, -20.0), vtx(60.0, -20.0), vtx(-20.0, 60.0)]);
    assert_eq!(pixels(&draw(&t, cfg(5, 3))), set_where(5, 3, |_, _| true));
    // Width 0: nothing.
    let mut c = cfg(5, 3);
    c.fb_width = 0;
    assert!(draw(&t, c).is_empty());
}

// ---------------------------------------------------------------- scissor

fn scissor_cfg(mode: u32, x1: u32, y1: u32, x2: u32, y2: u32) -> RastConfig {
    RastConfig::from_words(Words {
        framebuffer_dim: fb_dim(8, 8),
        depthbuffer_format: 2,
        depthmap_enable: 1,
        scissor_mode: mode,
        scissor_pos: x1 | (y1 << 16),
        scissor_dim: x2 | (y2 << 16),
        ..Words::default()
    })
}

fn big() -> ScreenTri {
    tri([vtx(-16.0, -16.0), vtx(48.0, -16.0), vtx(-16.0, 48.0)])
}

/// Mode 3 ("inside"): only the box X1..=X2 × Y1..=Y2 (bounds inclusive) is drawn.
#[test]
fn rast_scissor_inside_keeps_inclusive_box() {
    let c = scissor_cfg(3, 2, 3, 4, 5);
    assert_eq!(c.scissor_mode, ScissorMode::Inside);
    let want = set_where(8, 8, |x, y| (2..=4).contains(&x) && (3..=5).contains(&y));
    assert_eq!(want.len(), 9);
    assert_eq!(pixels(&draw(&big(), c)), want);
    // A one-pixel box.
    let c = scissor_cfg(3, 6, 1, 6, 1);
    assert_eq!(
        pixels(&draw(&big(), c)),
        [(6, 1)].into_iter().collect::<BTreeSet<_>>()
    );
    // X2 < X1: an empty box, nothing drawn.
    assert!(draw(&big(), scissor_cfg(3, 5, 0, 4, 7)).is_empty());
}

/// Mode 1 ("outside", Azahar `Exclude`): everything but the box is drawn.
#[test]
fn rast_scissor_outside_drops_box() {
    let c = scissor_cfg(1, 2, 3, 4, 5);
    assert_eq!(c.scissor_mode, ScissorMode::Outside);
    let want = set_where(8, 8, |x, y| !((2..=4).contains(&x) && (3..=5).contains(&y)));
    assert_eq!(want.len(), 55);
    assert_eq!(pixels(&draw(&big(), c)), want);
    // An empty box excludes nothing.
    assert_eq!(draw(&big(), scissor_cfg(1, 5, 0, 4, 7)).len(), 64);
}

/// Modes 0 and 2 test nothing.
#[test]
fn rast_scissor_disabled_modes() {
    for mode in [0, 2] {
        let c = scissor_cfg(mode, 2, 3, 4, 5);
        assert_eq!(c.scissor_mode, ScissorMode::Disabled);
        assert_eq!(draw(&big(), c).len(), 64);
    }
}

// ---------------------------------------------------------------- interpolation

/// The triangle of the interpolation tests: pixel centres (0.5, 0.5), (8.5, 0.5), (0.5, 8.5),
/// so in 12.4 units (8, 8), (136, 8), (8, 136); twice the area is 128 · 128 = 16384 and at the
/// centre of pixel (x, y) the edge weights are b = 2048 · (8 - x - y, x, y).
///
/// 1/w = (1, 0.5, 0.25); colours red, green, blue (alpha 1); texcoord0.u = (0, 1, 0);
/// z = (0, 0.5, 1).
fn interp_tri() -> ScreenTri {
    let mut v = [vtx(0.5, 0.5), vtx(8.5, 0.5), vtx(0.5, 8.5)];
    let inv_w = [1.0, 0.5, 0.25];
    let z = [0.0, 0.5, 1.0];
    for (i, vi) in v.iter_mut().enumerate() {
        vi.inv_w = f(inv_w[i]);
        vi.z = f(z[i]);
        for c in 0..3 {
            vi.v.attr[semantic::COLOR + c] = f(if c == i { 1.0 } else { 0.0 });
        }
        vi.v.attr[semantic::TEXCOORD0] = f(if i == 1 { 1.0 } else { 0.0 });
    }
    tri(v)
}

fn frag_at(frags: &[Fragment], x: u16, y: u16) -> Fragment {
    *frags.iter().find(|f| f.x == x && f.y == y).unwrap()
}

/// Pixel (1, 1): b = (12288, 2048, 2048) (all exact in f24). den = Σ b_i / w_i =
/// 12288 + 1024 + 512 = 13824.
/// - red = 12288 / 13824 = 8/9 → f24 truncated 0x3EC71C (0.8888855); × 255 = 226.67 → 227;
/// - green = 1024 / 13824 = 2/27 → 0x3B2F68; × 255 = 18.89 → 19;
/// - blue = 512 / 13824 = 1/27 → 0x3A2F68; × 255 = 9.44 → 9;
/// - alpha = 13824 / 13824 = 1.0 exactly → 255;
/// - texcoord0.u = 2/27 → 0x3B2F68; every semantic that is 1.0 at all vertices stays
///   exactly 1.0 (0x3F0000).
#[test]
fn rast_interpolation_perspective_exact_bits() {
    let frags = draw(&interp_tri(), cfg(16, 16));
    let fr = frag_at(&frags, 1, 1);
    assert_eq!(fr.attr[semantic::COLOR].bits(), 0x3EC71C);
    assert_eq!(fr.attr[semantic::COLOR + 1].bits(), 0x3B2F68);
    assert_eq!(fr.attr[semantic::COLOR + 2].bits(), 0x3A2F68);
    assert_eq!(fr.attr[semantic::COLOR + 3].bits(), 0x3F0000);
    assert_eq!(fr.color, [227, 19, 9, 255]);
    assert_eq!(fr.attr[semantic::TEXCOORD0].bits(), 0x3B2F68);
    for s in [
        semantic::QUATERNION,
        semantic::TEXCOORD0 + 1,
        semantic::TEXCOORD1,
        semantic::TEXCOORD0_W,
        0x11,
        semantic::VIEW + 2,
        semantic::TEXCOORD2 + 1,
    ] {
        assert_eq!(fr.attr[s].bits(), 0x3F0000, "semantic {s:#x}");
    }
    assert_eq!(fr.tri, 7);
    // Pixel (2, 4): b = (4096, 4096, 8192), den = 4096 + 2048 + 2048 = 8192:
    // red 0.5 → 128 (127.5 rounds up), green 0.25 → 64 (63.75), blue 0.25 → 64.
    let fr = frag_at(&frags, 2, 4);
    assert_eq!(fr.attr[semantic::COLOR].bits(), 0x3E0000);
    assert_eq!(fr.attr[semantic::COLOR + 1].bits(), 0x3D0000);
    assert_eq!(fr.color, [128, 64, 64, 255]);
}

/// Depth at pixel (1, 1), z = (0, 0.5, 1):
/// - z-buffer (DEPTHMAP_ENABLE = 1): Σ b_i z_i / Σ b_i = 3072 / 16384 = 0.1875;
///   D24: floor(0.1875 · 16777215) = 3145727 = 0x2FFFFF; D16: floor(0.1875 · 65535) = 12287;
/// - w-buffer (0): 3072 / 13824 = 2/9 → f24 0x3CC71C = 116508 / 2^19;
///   D24: floor(116508 · 16777215 / 2^19) = 3728255; D16: floor(116508 · 65535 / 2^19) = 14563.
#[test]
fn rast_depth_quantization_d16_d24() {
    let mk = |format: u32, zbuf: bool| {
        RastConfig::from_words(Words {
            framebuffer_dim: fb_dim(16, 16),
            depthbuffer_format: format,
            depthmap_enable: u32::from(zbuf),
            ..Words::default()
        })
    };
    let depth = |c: RastConfig| frag_at(&draw(&interp_tri(), c), 1, 1).depth;
    assert_eq!(depth(mk(2, true)), 0x2F_FFFF);
    assert_eq!(depth(mk(3, true)), 0x2F_FFFF);
    assert_eq!(depth(mk(0, true)), 12287);
    assert_eq!(depth(mk(2, false)), 3_728_255);
    assert_eq!(depth(mk(3, false)), 3_728_255);
    assert_eq!(depth(mk(0, false)), 14563);
    // Depth saturates: z = 2 at every vertex gives all ones, z = -1 gives 0.
    for (z, d16, d24) in [
        (2.0, 0xFFFF, 0xFF_FFFF),
        (-1.0, 0, 0),
        (1.0, 0xFFFF, 0xFF_FFFF),
    ] {
        let mut t = interp_tri();
        for v in &mut t.v {
            v.z = f(z);
        }
        assert_eq!(frag_at(&draw(&t, mk(0, true)), 1, 1).depth, d16, "z {z}");
        assert_eq!(frag_at(&draw(&t, mk(2, true)), 1, 1).depth, d24, "z {z}");
    }
}

// ---------------------------------------------------------------- stage: timing and beats

/// A 4 × 4 framebuffer fully covered: the triangle enters the link in cycle 0, RAST pops it in
/// cycle 1 (setup cycles 1..=4), examines pixel k (row-major) in cycle 5 + k and sends it
/// then; FOP pops every cycle so nothing stalls. The beats carry the fragments' bits.
#[test]
fn rast_stage_timing_one_pixel_per_cycle() {
    let mut regs = RegFile::new();
    write(&mut regs, 0, 0x11E, fb_dim(4, 4));
    write(&mut regs, 0, 0x116, 2);
    write(&mut regs, 0, 0x06D, 1);
    let t = tri([vtx(-8.0, -8.0), vtx(24.0, -8.0), vtx(-8.0, 24.0)]);
    let run = run_stage(Rasterizer::new(), &regs, &[t], |_| true, 100);
    assert_eq!(run.beats.len(), 16);
    let first = 1 + u64::from(timing::RAST_SETUP_CYCLES);
    for (k, b) in run.beats.iter().enumerate() {
        let k16 = u16::try_from(k).unwrap();
        assert_eq!(b.cycle, first + k as u64);
        assert_eq!((b.x, b.y), (k16 % 4, k16 / 4));
        assert_eq!(b.tri, 7);
        assert_eq!(b.color, 0xFFFF_FFFF);
        assert_eq!(b.attr, [0x3F_0000; NUM_SEMANTICS]);
    }
    // Each fragment is popped by FOP the cycle after it was sent.
    for ((c, fr), b) in run.frags.iter().zip(&run.beats) {
        assert_eq!(*c, b.cycle + 1);
        assert_eq!((fr.x, fr.y, fr.depth), (b.x, b.y, b.depth));
    }
    assert_eq!(run.rast.stats().pixels, 16);
    assert_eq!(run.rast.stats().stalls, 0);
}

/// A triangle with nothing to walk costs exactly the setup cycles; the next one is popped the
/// cycle after.
#[test]
fn rast_stage_empty_triangle_costs_setup_only() {
    let mut regs = RegFile::new();
    write(&mut regs, 0, 0x11E, fb_dim(4, 4));
    let empty = tri([vtx(0.5, 0.5), vtx(1.5, 0.5), vtx(2.5, 0.5)]);
    // Box 0..=1 × 0..=1; only (0, 0) is covered ((1, 0) and (0, 1) lie on the right edge).
    let one = tri([vtx(0.0, 0.0), vtx(2.0, 0.0), vtx(0.0, 2.0)]);
    let run = run_stage(Rasterizer::new(), &regs, &[empty, one], |_| true, 100);
    let s = u64::from(timing::RAST_SETUP_CYCLES);
    // empty: popped in cycle 1, retired in cycle s; `one` popped in s + 1, its first pixel
    // examined in 2s + 1, its last in 2s + 4.
    assert_eq!(run.beats.len(), 1);
    assert_eq!(run.beats[0].cycle, 2 * s + 1);
    assert_eq!((run.beats[0].x, run.beats[0].y), (0, 0));
    assert_eq!(run.rast.stats().triangles, 2);
    assert_eq!(run.rast.stats().pixels, 4);
    // FOP pops the fragment in 2s + 2; RAST retires in 2s + 4.
    assert_eq!(run.idle_at, 2 * s + 4);
}

/// FOP never pops: RAST fills the 4-entry link, then stalls on the fifth fragment and stays
/// busy.
#[test]
fn rast_stage_backpressure_stalls() {
    let mut regs = RegFile::new();
    write(&mut regs, 0, 0x11E, fb_dim(4, 4));
    let t = tri([vtx(-8.0, -8.0), vtx(24.0, -8.0), vtx(-8.0, 24.0)]);
    let run = run_stage(Rasterizer::new(), &regs, &[t], |_| false, 40);
    assert_eq!(run.idle_at, u64::MAX);
    assert_eq!(run.beats.len(), timing::RAST_TO_TEX_DEPTH);
    assert!(!run.rast.is_idle());
    let first_stall = 1 + u64::from(timing::RAST_SETUP_CYCLES) + timing::RAST_TO_TEX_DEPTH as u64;
    assert_eq!(run.rast.stats().stalls, 40 - first_stall);
}

/// The stage sends exactly what [`rasterize`] computes, in the same order, whatever the
/// backpressure.
#[test]
fn rast_stage_matches_pure_function() {
    let mut regs = RegFile::new();
    write(&mut regs, 0, 0x11E, fb_dim(16, 12));
    write(&mut regs, 0, 0x116, 0);
    let mut a = interp_tri();
    a.seq = 1;
    let mut b = tri([vtx(3.25, 11.0), vtx(15.5, 2.125), vtx(9.0, 0.75)]);
    b.seq = 2;
    let c = RastConfig::from_regs(&regs);
    let want: Vec<Fragment> = [a, b].iter().flat_map(|t| draw(t, c)).collect();
    assert!(want.len() > 40);
    for pops in [1u64, 2, 3] {
        let run = run_stage(
            Rasterizer::new(),
            &regs,
            &[a, b],
            |cy| cy % pops == 0,
            10_000,
        );
        assert_ne!(run.idle_at, u64::MAX);
        let got: Vec<Fragment> = run.frags.iter().map(|(_, f)| *f).collect();
        assert_eq!(got, want, "pops every {pops}");
    }
}

// ---------------------------------------------------------------- early depth

/// Early depth on (TEST1 and TEST2), function 3 (`<`), cleared to 0x800000 through
/// GPUREG_EARLYDEPTH_DATA + GPUREG_EARLYDEPTH_CLEAR:
/// 1. a triangle at z = 0.25 (24-bit 4194303 < 0x800000) passes everywhere and stores its depth;
/// 2. the same triangle again fails everywhere (4194303 < 4194303 is false);
/// 3. a triangle at z = 0.75 (12582911) fails against the clear value where nothing was drawn
///    and against 4194303 where the first one was;
/// 4. after another clear to 0xFFFFFF, z = 0.75 passes.
#[test]
fn rast_early_depth_clear_test_and_update() {
    let mut regs = RegFile::new();
    write(&mut regs, 0, 0x11E, fb_dim(8, 8));
    write(&mut regs, 0, 0x116, 0); // D16: the early test still compares 24 bits
    write(&mut regs, 0, 0x06D, 1);
    write(&mut regs, 0, 0x062, 1);
    write(&mut regs, 0, 0x118, 1);
    write(&mut regs, 0, 0x061, 3);
    write(&mut regs, 0, 0x06A, 0x80_0000);
    write(&mut regs, 0, 0x063, 1);
    let at_z = |z: f64| {
        let mut t = tri([vtx(0.5, 0.5), vtx(4.5, 0.5), vtx(0.5, 4.5)]);
        for v in &mut t.v {
            v.z = f(z);
        }
        t
    };
    let near = at_z(0.25);
    let run = run_stage(Rasterizer::new(), &regs, &[near], |_| true, 1000);
    assert_eq!(run.rast.early_depth().clear_value(), 0x80_0000);
    assert_eq!(run.beats.len(), 10);
    // D16 depth in the fragment: floor(0.25 · 65535) = 16383.
    assert!(run.beats.iter().all(|b| b.depth == 16383));
    assert_eq!(run.rast.early_depth().get(0, 0), 4_194_303);
    assert_eq!(run.rast.early_depth().get(7, 7), 0x80_0000);

    let run = run_stage(run.rast, &regs, &[near], |_| true, 1000);
    assert!(run.beats.is_empty());
    assert_eq!(run.rast.stats().early_depth_dropped, 10);

    let far = tri([vtx(-8.0, -8.0), vtx(24.0, -8.0), vtx(-8.0, 24.0)]);
    let mut far = far;
    for v in &mut far.v {
        v.z = f(0.75);
    }
    let run = run_stage(run.rast, &regs, &[far], |_| true, 1000);
    assert!(run.beats.is_empty());
    assert_eq!(run.rast.stats().early_depth_dropped, 10 + 64);

    write(&mut regs, 5000, 0x06A, 0xFF_FFFF);
    write(&mut regs, 5001, 0x063, 1);
    let run = run_stage(run.rast, &regs, &[far], |_| true, 1000);
    assert_eq!(run.beats.len(), 64);
    assert_eq!(run.rast.early_depth().clears(), 2);
    assert_eq!(run.rast.early_depth().get(3, 3), 12_582_911);
}

/// The four functions (seed 002: 0 `>=`, 1 `>`, 2 `<=`, 3 `<`) against a clear value equal to
/// the fragment's depth, and the enables: the test runs only with TEST1 and TEST2 both set.
#[test]
fn rast_early_depth_functions_and_enables() {
    let t = {
        // Covers pixel (0, 0) only.
        let mut t = tri([vtx(0.0, 0.0), vtx(2.0, 0.0), vtx(0.0, 2.0)]);
        for v in &mut t.v {
            v.z = f(0.5);
        }
        t
    };
    let d24 = 8_388_607; // floor(0.5 · 16777215)
    let count = |func: u32, test1: u32, test2: u32, clear: u32| {
        let c = RastConfig::from_words(Words {
            framebuffer_dim: fb_dim(4, 4),
            depthbuffer_format: 2,
            depthmap_enable: 1,
            earlydepth_test1: test1,
            earlydepth_test2: test2,
            earlydepth_func: func,
            ..Words::default()
        });
        let mut e = EarlyDepthBuffer::new();
        e.clear(clear);
        rasterize(&t, c, &mut e).len()
    };
    for (func, equal, below, above) in [(0, 1, 1, 0), (1, 0, 1, 0), (2, 1, 0, 1), (3, 0, 0, 1)] {
        assert_eq!(count(func, 1, 1, d24), equal, "func {func} equal");
        assert_eq!(
            count(func, 1, 1, d24 - 1),
            below,
            "func {func} stored below"
        );
        assert_eq!(
            count(func, 1, 1, d24 + 1),
            above,
            "func {func} stored above"
        );
        // A stored value the function rejects; with either enable clear there is no test.
        let fail = if above == 1 { d24 - 1 } else { d24 + 1 };
        assert_eq!(count(func, 1, 1, fail), 0);
        assert_eq!(count(func, 1, 0, fail), 1);
        assert_eq!(count(func, 0, 1, fail), 1);
        assert_eq!(count(func | 4, 0, 0, fail), 1);
    }
}

// ---------------------------------------------------------------- properties

/// A 12.4 coordinate as the exact f24 value v / 16.
fn fx(v: i64) -> F24 {
    f(v as f64 / 16.0)
}

fn vtx_fixed(p: (i64, i64)) -> ScreenVertex {
    ScreenVertex {
        x: fx(p.0),
        y: fx(p.1),
        ..vtx(0.0, 0.0)
    }
}

/// (B - A) × (P - A), exactly.
fn orient(a: (i128, i128), b: (i128, i128), p: (i128, i128)) -> i128 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

/// The reference: coverage straight from the definition, written independently of the model
/// (i128 arithmetic, the vertices reordered to positive area instead of signed weights, the
/// 12.4 conversion through host `f64` rounding).
fn reference_covers(v: &[ScreenVertex; 3], px: i64, py: i64) -> bool {
    let conv = |x: F24| -> i128 {
        let v = x.to_f64();
        if v.is_nan() {
            0
        } else {
            // f64::round rounds halves away from zero.
            (v * 16.0).round().clamp(-32768.0, 32767.0) as i128
        }
    };
    let mut p: Vec<(i128, i128)> = v.iter().map(|v| (conv(v.x), conv(v.y))).collect();
    let area = orient(p[0], p[1], p[2]);
    if area == 0 {
        return false;
    }
    if area < 0 {
        p.swap(1, 2);
    }
    let s = (i128::from(px) * 16 + 8, i128::from(py) * 16 + 8);
    (0..3).all(|i| {
        let (a, b) = (p[i], p[(i + 1) % 3]);
        let o = orient(a, b, s);
        // Positive area: the interior is on the left of a → b. A left edge runs toward -y,
        // a top edge (the smallest y) runs toward +x.
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let top_left = dy < 0 || (dy == 0 && dx > 0);
        o > 0 || (o == 0 && top_left)
    })
}

fn reference_scissor(mode: u32, sc: [u32; 4], x: i64, y: i64) -> bool {
    let inside = x >= i64::from(sc[0])
        && x <= i64::from(sc[2])
        && y >= i64::from(sc[1])
        && y <= i64::from(sc[3]);
    match mode {
        3 => inside,
        1 => !inside,
        _ => true,
    }
}

/// A 12.4 coordinate: sometimes on the half-pixel grid (so that edges run through pixel
/// centres), sometimes anywhere.
fn coord(lo: i64, hi: i64) -> impl Strategy<Value = i64> {
    prop_oneof![(lo / 8..hi / 8).prop_map(|k| k * 8), lo..hi]
}

/// A window coordinate in 1/256 pixel (so the 12.4 conversion has to round) between `lo` and
/// `hi` pixels: on the pixel-centre grid (edges through centres), on a rounding tie (an odd
/// multiple of 1/32), or anywhere.
fn fine(lo: i64, hi: i64) -> impl Strategy<Value = i64> {
    prop_oneof![
        (lo * 2..hi * 2).prop_map(|k| k * 128 + 128),
        (lo * 16..hi * 16).prop_map(|k| k * 16 + 8),
        lo * 256..hi * 256,
    ]
}

fn point(lo: i64, hi: i64) -> impl Strategy<Value = (i64, i64)> {
    (coord(lo, hi), coord(lo, hi))
}

fn permute(v: [ScreenVertex; 3], k: usize) -> [ScreenVertex; 3] {
    orders(v)[k % 6]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Two triangles on opposite sides of a shared edge, each in a random vertex order (both
    /// windings): no pixel is drawn by both, and every pixel whose centre lies strictly inside
    /// either triangle or on the open shared edge is drawn by exactly one.
    #[test]
    fn prop_rast_shared_edge_no_gap_no_overlap(
        a in point(0, 40 * 16), b in point(0, 40 * 16),
        c in point(-8 * 16, 48 * 16), d in point(-8 * 16, 48 * 16),
        k1 in 0usize..6, k2 in 0usize..6,
    ) {
        let i = |p: (i64, i64)| (i128::from(p.0), i128::from(p.1));
        let (oc, od) = (orient(i(a), i(b), i(c)), orient(i(a), i(b), i(d)));
        prop_assume!(oc != 0 && od != 0 && (oc > 0) != (od > 0));
        let t1 = tri(permute([a, b, c].map(vtx_fixed), k1));
        let t2 = tri(permute([a, b, d].map(vtx_fixed), k2));
        let conf = cfg(48, 48);
        let p1 = pixels(&draw(&t1, conf));
        let p2 = pixels(&draw(&t2, conf));
        prop_assert!(p1.is_disjoint(&p2), "double hit: {:?}", p1.intersection(&p2).collect::<Vec<_>>());
        let strictly_in = |t: [(i64, i64); 3], s: (i128, i128)| {
            let t = t.map(i);
            let o = [orient(t[0], t[1], s), orient(t[1], t[2], s), orient(t[2], t[0], s)];
            o.iter().all(|&v| v > 0) || o.iter().all(|&v| v < 0)
        };
        for y in 0..48i64 {
            for x in 0..48i64 {
                let s = (i128::from(x) * 16 + 8, i128::from(y) * 16 + 8);
                let on_open_edge = orient(i(a), i(b), s) == 0 && {
                    let (ab, as_) = ((i(b).0 - i(a).0, i(b).1 - i(a).1), (s.0 - i(a).0, s.1 - i(a).1));
                    let dot = ab.0 * as_.0 + ab.1 * as_.1;
                    dot > 0 && dot < ab.0 * ab.0 + ab.1 * ab.1
                };
                let must = on_open_edge || strictly_in([a, b, c], s) || strictly_in([a, b, d], s);
                let px = (x as u16, y as u16);
                if must {
                    prop_assert!(p1.contains(&px) ^ p2.contains(&px), "gap or overlap at {px:?}");
                }
            }
        }
    }

    /// The model's coverage (with framebuffer clipping and a random scissor) equals the
    /// independent edge-function reference over the whole framebuffer, for arbitrary 12.4
    /// positions (including ones beyond the framebuffer and the saturating range).
    #[test]
    fn prop_rast_coverage_equals_reference(
        v in prop::array::uniform3(prop_oneof![
            4 => (fine(-16, 80), fine(-16, 64)),
            1 => (fine(-2200, 2200), fine(-2200, 2200)),
        ]),
        shape in 0u8..4,
        mode in 0u32..4,
        sc in prop::array::uniform4(0u32..70),
    ) {
        // Axis-aligned edges (through pixel centres when on the grid) need shared coordinates.
        let mut v = v;
        if shape & 1 != 0 {
            v[1].1 = v[0].1;
        }
        if shape & 2 != 0 {
            v[2].0 = v[0].0;
        }
        // Beyond 2^17 / 256 pixels the value truncates to f24; the reference reads the f24.
        let g = |k: i64| F24::from_f64_trunc(k as f64 / 256.0);
        let verts = v.map(|p| ScreenVertex { x: g(p.0), y: g(p.1), ..vtx(0.0, 0.0) });
        let conf = RastConfig::from_words(Words {
            framebuffer_dim: fb_dim(64, 48),
            depthbuffer_format: 2,
            depthmap_enable: 1,
            scissor_mode: mode,
            scissor_pos: sc[0] | (sc[1] << 16),
            scissor_dim: sc[2] | (sc[3] << 16),
            ..Words::default()
        });
        let got = pixels(&draw(&tri(verts), conf));
        let mut want = BTreeSet::new();
        for y in 0..48i64 {
            for x in 0..64i64 {
                if reference_scissor(mode, sc, x, y) && reference_covers(&verts, x, y) {
                    want.insert((x as u16, y as u16));
                }
            }
        }
        prop_assert_eq!(got, want);
    }

    /// Random bit patterns everywhere (positions, depth, 1/w, every semantic; inf, NaN,
    /// subnormals and huge values included) and random register words: nothing panics, every
    /// fragment lies in the framebuffer.
    #[test]
    fn prop_rast_no_input_panics(
        bits in prop::collection::vec(prop_oneof![
            any::<u32>().prop_map(|b| b & 0xFF_FFFF),
            Just(0x7F_0000u32), Just(0xFF_0000), Just(0x7F_0001), Just(0x00_0001),
            Just(0x80_0000), Just(0x4A_0000), Just(0xCA_0000), Just(0x3F_0000),
        ], 3 * (4 + NUM_SEMANTICS)),
        words in prop::array::uniform10(any::<u32>()),
        pos in prop::array::uniform6(-100i64..100),
        use_pos in any::<bool>(),
    ) {
        let mut it = bits.into_iter().map(F24::from_bits);
        let mut next = || it.next().unwrap_or(F24::ZERO);
        let mut v = [vtx(0.0, 0.0); 3];
        for (i, vi) in v.iter_mut().enumerate() {
            vi.x = next();
            vi.y = next();
            if use_pos {
                // Sane positions with insane attributes.
                vi.x = f(pos[2 * i] as f64 / 4.0);
                vi.y = f(pos[2 * i + 1] as f64 / 4.0);
            }
            vi.z = next();
            vi.inv_w = next();
            for a in vi.v.attr.iter_mut() {
                *a = next();
            }
        }
        // Keep the framebuffer small so a huge triangle stays cheap.
        let w = Words {
            framebuffer_dim: (words[0] & 0x3F) | (((words[0] >> 12) & 0x1F) << 12),
            scissor_mode: words[1],
            scissor_pos: words[2],
            scissor_dim: words[3],
            depthbuffer_format: words[4],
            depthmap_enable: words[5],
            earlydepth_test1: words[6],
            earlydepth_test2: words[7],
            earlydepth_func: words[8],
            texunit_config: words[9] & 7,
        };
        let conf = RastConfig::from_words(w);
        let mut early = EarlyDepthBuffer::new();
        early.clear(words[8] >> 8);
        let frags = rasterize(&tri(v), conf, &mut early);
        for fr in &frags {
            prop_assert!(u32::from(fr.x) < conf.fb_width && u32::from(fr.y) < conf.fb_height);
            prop_assert!(fr.depth < (1 << conf.depth_bits));
        }
        // The stage, with the same words in a register file, sends the same fragments.
        let mut regs = RegFile::new();
        for (id, word) in [
            (0x11E, w.framebuffer_dim), (0x065, w.scissor_mode), (0x066, w.scissor_pos),
            (0x067, w.scissor_dim), (0x116, w.depthbuffer_format), (0x06D, w.depthmap_enable),
            (0x062, w.earlydepth_test1), (0x118, w.earlydepth_test2), (0x061, w.earlydepth_func),
            (0x06A, words[8] >> 8), (0x063, 1), (0x080, w.texunit_config),
        ] {
            write(&mut regs, 0, id, word);
        }
        let run = run_stage(Rasterizer::new(), &regs, &[tri(v)], |_| true, 5000);
        prop_assert_ne!(run.idle_at, u64::MAX);
        let got: Vec<Fragment> = run.frags.iter().map(|(_, f)| *f).collect();
        prop_assert_eq!(got, frags);
    }
}

/// Texture-coordinate differences (issue 6, for the texture units' level of detail): an affine
/// triangle (1/w = 1) with u = (x − 0.5) / 8 and v = (y − 0.5) / 8 gives du/dx = dv/dy = 1/8
/// and du/dy = dv/dx = 0 exactly at every fragment when a texture unit is enabled; texcoord1
/// and texcoord2 are 1.0 everywhere (difference +0); with every unit off all are zero.
#[test]
fn rast_tex_deriv_forward_differences() {
    let mut v = [vtx(0.5, 0.5), vtx(8.5, 0.5), vtx(0.5, 8.5)];
    v[0].v.attr[semantic::TEXCOORD0] = f(0.0);
    v[0].v.attr[semantic::TEXCOORD0 + 1] = f(0.0);
    v[1].v.attr[semantic::TEXCOORD0] = f(1.0);
    v[1].v.attr[semantic::TEXCOORD0 + 1] = f(0.0);
    v[2].v.attr[semantic::TEXCOORD0] = f(0.0);
    v[2].v.attr[semantic::TEXCOORD0 + 1] = f(1.0);
    let t = tri(v);
    let on = RastConfig::from_words(Words {
        framebuffer_dim: fb_dim(16, 16),
        depthbuffer_format: 2,
        depthmap_enable: 1,
        texunit_config: 1,
        ..Words::default()
    });
    let eighth = f(0.125).bits();
    for fr in draw(&t, on) {
        let d = fr.tex_deriv.map(|s| s.map(F24::bits));
        assert_eq!(d[0], [eighth, 0, 0, eighth], "pixel ({}, {})", fr.x, fr.y);
        assert_eq!(d[1], [0; 4]);
        assert_eq!(d[2], [0; 4]);
    }
    for fr in draw(&t, cfg(16, 16)) {
        assert_eq!(fr.tex_deriv, [[F24::ZERO; 4]; 3]);
    }
}
