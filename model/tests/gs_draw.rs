//! The geometry shader through the whole GPU (issue 33, defects 1 and 2): the GS input
//! configuration is read at each draw (written in libctru's order: GEOSTAGE_CONFIG first,
//! GSH_MISC0 / GSH_MISC1 / GSH_INPUTBUFFER_CONFIG after it), the fixed-primitive mode takes its
//! vertices into the float uniforms, and the variable-size mode reads each primitive's vertex
//! count from the index buffer (facts `gs-config-per-draw`, `gs-variable-count`,
//! `gs-variable-edges`).
//!
//! Every test here fails on the model before the fix: there the assembler was made the first
//! cycle GEOSTAGE_CONFIG said "GS" (from the stale GSH_MISC0 / GSH_INPUTBUFFER_CONFIG) and kept,
//! and VL sent the variable-mode counts as vertices.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::gs::*;
use pica_model::gpu::HangReason;
use pica_model::num::F24;
use pica_model::shader::io::count_to_f24;
use pica_model::shader::stage::ShadedItem;
use pica_model::vl::VlHang;
use pica_model::Outcome;

#[test]
fn gs_point_mode_configured_after_the_enable_runs_once_per_triangle() {
    // The geoshader demo's order: GEOSTAGE_CONFIG = 2 long before GSH_INPUTBUFFER_CONFIG = 5
    // (six inputs). The old model took the input count (1) when the GS turned on and ran the
    // GS once per vertex.
    let mut l = gs_setup(GS_POINT, 6);
    draw(&mut l, false, 6);
    let (gpu, o) = run(l, &six(), &[]);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    assert_eq!(invocations(&gpu), [0, 1]);
    assert_eq!(
        primitives(&gpu),
        [
            [(-0.75, -0.75), (0.0, -0.75), (-0.75, 0.0)],
            [(0.0, 0.0), (0.75, 0.0), (0.75, 0.75)],
        ]
    );
    assert_eq!(gpu.pipeline_stats().triangles, 2);
}

#[test]
fn gs_fixed_mode_takes_each_vertex_into_c0_c1() {
    // Particles: GSH_MISC0 = 2 | 0x01000000 | start 0 | (stride 2 - 1) << 12 | (1 - 1) << 8,
    // written after the enable. The old model read GSH_MISC0 = 0 at the enable: point mode,
    // the GS read REGS' c0 (zero) and drew every square around the origin.
    let mut l = gs_setup(GS_FIXED, 2);
    draw(&mut l, false, 3);
    let verts = [v(-0.25, -0.25, RED), v(0.5, 0.5, GREEN), v(0.5, -0.5, BLUE)];
    let (gpu, o) = run(l, &verts, &[]);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    assert_eq!(invocations(&gpu), [0, 1, 2]);
    let prims = primitives(&gpu);
    assert_eq!(prims.len(), 6);
    for (k, (p, _)) in verts.iter().enumerate() {
        let (cx, cy) = (p[0], p[1]);
        // Bottom-left, bottom-right, top-left; then (bottom-right, top-right, top-left).
        assert_eq!(
            prims[2 * k],
            [
                (cx - 0.25, cy - 0.25),
                (cx + 0.25, cy - 0.25),
                (cx - 0.25, cy + 0.25)
            ],
            "particle {k}"
        );
        assert_eq!(
            prims[2 * k + 1],
            [
                (cx + 0.25, cy - 0.25),
                (cx + 0.25, cy + 0.25),
                (cx - 0.25, cy + 0.25)
            ],
            "particle {k}"
        );
    }
}

/// The loop-subdivision layout: a triangle (count 3) and a quad (count 4).
const VARIABLE_INDICES: [u8; 9] = [3, 0, 1, 2, 4, 3, 4, 5, 6];

fn seven() -> Vec<([f64; 4], [f64; 4])> {
    vec![
        v(-0.75, -0.75, RED),
        v(0.0, -0.75, BLUE),
        v(-0.75, 0.0, BLUE),
        v(0.0, 0.0, GREEN),
        v(0.75, 0.0, BLUE),
        v(0.75, 0.75, BLUE),
        v(0.0, 0.75, BLUE),
    ]
}

#[test]
fn gs_variable_mode_reads_each_primitive_count_from_the_index_buffer() {
    let mut l = gs_setup(GS_VARIABLE, 2);
    draw(&mut l, true, VARIABLE_INDICES.len() as u32);
    let (gpu, o) = run(l, &seven(), &VARIABLE_INDICES);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    // The counts are not vertices: seven shaded, two counts read, two GS runs.
    let stats = gpu.vl().stats();
    assert_eq!((stats.shaded, stats.gs_counts), (7, 2));
    assert_eq!(gpu.pipeline_stats().vertices, 7);
    assert_eq!(invocations(&gpu), [0, 1]);
    assert_eq!(
        primitives(&gpu),
        [
            [(-0.75, -0.75), (0.0, -0.75), (-0.75, 0.0)],
            [(0.0, 0.0), (0.75, 0.0), (0.75, 0.75)],
            [(0.0, 0.0), (0.75, 0.75), (0.0, 0.75)],
        ]
    );
    // Every vertex of a primitive is coloured by its main vertex (RED, then GREEN): the
    // others give their position only. o2 carries c0, the count.
    let per_inv: Vec<(u32, [u32; 4], u32)> = gpu
        .shaded()
        .iter()
        .filter_map(|s| match s {
            ShadedItem::GsVertex {
                invocation,
                emitted,
            } => Some((
                *invocation,
                emitted.outputs[1].map(F24::bits),
                emitted.outputs[2][0].bits(),
            )),
            ShadedItem::Vertex { .. } => None,
        })
        .collect();
    for (inv, clr, num) in per_inv {
        let (want_c, want_n) = if inv == 0 { (RED, 3.0) } else { (GREEN, 4.0) };
        assert_eq!(clr, want_c.map(|x| f24(x).bits()), "invocation {inv}");
        assert_eq!(num, f24(want_n).bits(), "invocation {inv}");
    }
    // The count crosses into unit 3 as c0 (shader_in reg 0x20) of each invocation.
    let (bin, _) = gpu.shader_beats();
    let c0: Vec<(u32, u32)> = bin
        .iter()
        .filter(|b| b.unit == 3 && b.reg == 0x20)
        .map(|b| (b.seq, b.xyzw[0]))
        .collect();
    assert_eq!(c0, [(0, f24(3.0).bits()), (1, f24(4.0).bits())]);
}

#[test]
fn gs_variable_mode_count_zero_runs_the_gs_once_with_c0_zero() {
    let mut l = gs_setup(GS_VARIABLE, 2);
    draw(&mut l, true, 5);
    // 0, then a triangle.
    let (gpu, o) = run(l, &seven(), &[0, 3, 0, 1, 2]);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    assert_eq!(invocations(&gpu), [0, 1]);
    let (bin, _) = gpu.shader_beats();
    let c0: Vec<u32> = bin
        .iter()
        .filter(|b| b.unit == 3 && b.reg == 0x20)
        .map(|b| b.xyzw[0])
        .collect();
    assert_eq!(c0, [0, f24(3.0).bits()]);
}

#[test]
fn gs_variable_mode_draw_arrays_and_immediate_vertices_hang_vl() {
    let mut l = gs_setup(GS_VARIABLE, 2);
    draw(&mut l, false, 3);
    let (_, o) = run(l, &seven(), &[]);
    assert!(
        matches!(
            &o,
            Outcome::Hang {
                reason: HangReason::VertexLoader(VlHang::GsCountWithoutIndex { .. }),
                ..
            }
        ),
        "{o}"
    );
    let mut l = gs_setup(GS_VARIABLE, 2);
    immediate(&mut l, true, [0.0, 0.0, -0.5, 1.0], RED);
    let (_, o) = run(l, &seven(), &[]);
    assert!(
        matches!(
            &o,
            Outcome::Hang {
                reason: HangReason::VertexLoader(VlHang::GsCountWithoutIndex { .. }),
                ..
            }
        ),
        "{o}"
    );
    assert!(o.to_string().contains("GSH_MISC0"), "{o}");
}

#[test]
fn gs_draw_drops_a_partial_input_buffer_and_an_immediate_batch_starts_empty() {
    // Draw 1 gives two vertices of a three-vertex primitive; the immediate batch after it
    // (FIXEDATTRIB_INDEX = 0xF) starts empty, so its three vertices are one triangle.
    let mut l = gs_setup(GS_POINT, 6);
    draw(&mut l, false, 2);
    for (k, (p, c)) in six()[3..].iter().enumerate() {
        immediate(&mut l, k == 0, *p, *c);
    }
    let (gpu, o) = run(l, &six(), &[]);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    assert_eq!(primitives(&gpu), [[(0.0, 0.0), (0.75, 0.0), (0.75, 0.75)]]);
}

#[test]
fn gs_count_to_f24_is_exact_for_every_u16() {
    for n in 0..=u16::MAX {
        assert_eq!(count_to_f24(n), f24(f64::from(n)), "{n}");
    }
}
