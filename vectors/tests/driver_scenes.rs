#![allow(clippy::unwrap_used)]
//! The driver-order scenes (`driver/...`, `scenes/driver.rs`, built with the libctru / citro3d
//! emitter `builder::driver`): what each list must contain (register order, masks and values
//! read from libctru `shaderProgram.c` and citro3d `base.c`, `drawArrays.c`,
//! `drawElements.c`, `framebuffer.c`) and what each scene must draw (pixels derived by hand
//! from the geometry, colours and blend equations; the lit mesh's per-vertex outputs against
//! the same vertices shaded one per draw, i.e. on unit 0).

use std::collections::BTreeMap;

use pica_model::cmdheader::CommandHeader;
use pica_model::fop::fb::Image;
use pica_model::regs::id;
use pica_model::{Gpu, Outcome};
use pica_vectors::builder::Scene;
use pica_vectors::scenes::driver::{self as d, LitMeshDraw};
use pica_vectors::scenes::{self, BG};

mod common;
use common::{render, Rendered};

// ---- running ----

fn scene(name: &str) -> Scene {
    scenes::scene(name).unwrap_or_else(|| panic!("{name} is not in the library"))
}

fn finished(r: &Rendered, name: &str) {
    assert!(
        matches!(r.outcome, Outcome::Finished { .. }),
        "{name}: {}",
        r.outcome
    );
}

/// The pixel of image column `c`, row `r` (top row 0).
fn px(img: &Image, c: u32, r: u32) -> [u8; 4] {
    let i = ((r * img.width + c) * 4) as usize;
    [
        img.rgba[i],
        img.rgba[i + 1],
        img.rgba[i + 2],
        img.rgba[i + 3],
    ]
}

/// The pixel of a 32×32 picture whose area contains clip point (`x`, `y`): column
/// floor((x + 1)·16), row floor((1 - y)·16) (row 0 at clip y = +1).
fn at(img: &Image, x: f32, y: f32) -> [u8; 4] {
    let c = ((x + 1.0) * 16.0).floor() as u32;
    let r = ((1.0 - y) * 16.0).floor() as u32;
    px(img, c, r)
}

fn check(img: &Image, name: &str, probes: &[(f32, f32, [u8; 4])]) {
    let mut bad = Vec::new();
    for &(x, y, want) in probes {
        let got = at(img, x, y);
        if got != want {
            bad.push(format!("clip ({x}, {y}): got {got:?}, want {want:?}"));
        }
    }
    assert!(bad.is_empty(), "{name}:\n{}", bad.join("\n"));
}

// ---- the list as register writes ----

/// One register write of a list: (register, byte mask, value).
type W = (u16, u8, u32);

/// The writes of `words` in order, up to and including the first FINALIZE.
fn writes(words: &[u32]) -> Vec<W> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < words.len() {
        let h = CommandHeader::decode(words[i + 1]);
        let n = usize::from(h.extra) + 1;
        let params: Vec<u32> = std::iter::once(words[i])
            .chain(words[i + 2..(i + 1 + n).min(words.len())].iter().copied())
            .collect();
        for (k, p) in params.iter().enumerate() {
            let reg = if h.consecutive { h.id + k as u16 } else { h.id };
            out.push((reg, h.mask, *p));
            if reg == id::FINALIZE {
                return out;
            }
        }
        i += 1 + n;
        i += i % 2;
    }
    out
}

fn list_writes(scene: &Scene) -> Vec<W> {
    writes(&scene.case.images[0].words)
}

/// The position of `needle` as a contiguous run in `hay`, from `from`.
fn find_run(hay: &[W], needle: &[W], from: usize) -> Option<usize> {
    (from..=hay.len().saturating_sub(needle.len())).find(|&i| hay[i..i + needle.len()] == *needle)
}

fn positions(ws: &[W], reg: u16) -> Vec<usize> {
    ws.iter()
        .enumerate()
        .filter(|(_, w)| w.0 == reg)
        .map(|(i, _)| i)
        .collect()
}

// =====================================================================================
// Every driver scene
// =====================================================================================

const DRIVER: [&str; 8] = [
    "driver/lit_mesh",
    "driver/textured_cube",
    "driver/gs_point",
    "driver/gs_fixed",
    "driver/gs_variable",
    "driver/program_switch",
    "driver/fog_proctex_light",
    "driver/two_targets",
];

#[test]
fn driver_scenes_are_in_the_library_and_describe_their_sequence() {
    let listed: Vec<(&str, &str)> = scenes::list()
        .filter(|(n, _)| n.starts_with("driver/"))
        .collect();
    assert_eq!(listed.iter().map(|(n, _)| *n).collect::<Vec<_>>(), DRIVER);
    for (n, desc) in listed {
        assert!(
            ["C3D_", "citro3d", "shaderProgram", "GSH_", "GEOSTAGE"]
                .iter()
                .any(|k| desc.contains(k)),
            "{n}: the description names no library sequence: {desc}"
        );
    }
}

#[test]
fn driver_lists_end_as_c3d_frame_end_ends_them() {
    for name in DRIVER {
        let ws = list_writes(&scene(name));
        let n = ws.len();
        // C3Di_SplitFrame after a draw, then GPUCMD_Split's FINALIZE.
        assert_eq!(
            ws[n - 4..],
            [
                (id::FRAMEBUFFER_FLUSH, 0xF, 1),
                (id::FRAMEBUFFER_INVALIDATE, 0xF, 1),
                (id::EARLYDEPTH_CLEAR, 0xF, 1),
                (id::FINALIZE, 0xF, 0x1234_5678),
            ],
            "{name}"
        );
        // The first write of a citro3d frame is the framebuffer bind's INVALIDATE (nothing was
        // drawn before it, so no flush).
        assert_eq!(ws[0], (id::FRAMEBUFFER_INVALIDATE, 0xF, 1), "{name}");
    }
}

// =====================================================================================
// driver/lit_mesh
// =====================================================================================

/// shaderProgramConfigure without a geometry shader, as libctru writes it, for the lit mesh
/// (entry `entry`, outputs o0 position, o1 colour), after the code and descriptor uploads.
fn lit_mesh_configure_tail(entry: u32) -> Vec<W> {
    let u = 0x1F1F_1F1F;
    vec![
        (id::VSH_ENTRYPOINT, 0xF, 0x7FFF_0000 | entry),
        (id::VSH_OUTMAP_MASK, 0xF, 0b11),
        (id::VSH_OUTMAP_TOTAL1, 0xF, 1),
        (id::VSH_OUTMAP_TOTAL2, 0xF, 1),
        (id::PRIMITIVE_CONFIG, 0x1, 1),
        (id::SH_OUTMAP_TOTAL, 0xF, 2),
        (id::SH_OUTMAP_TOTAL + 1, 0xF, 0x0302_0100),
        (id::SH_OUTMAP_TOTAL + 2, 0xF, 0x0B0A_0908),
        (id::SH_OUTMAP_TOTAL + 3, 0xF, u),
        (id::SH_OUTMAP_TOTAL + 4, 0xF, u),
        (id::SH_OUTMAP_TOTAL + 5, 0xF, u),
        (id::SH_OUTMAP_TOTAL + 6, 0xF, u),
        (id::SH_OUTMAP_TOTAL + 7, 0xF, u),
        (id::SH_OUTATTR_MODE, 0xF, 0),
        // position z (bit 0) and colour (bit 1)
        (id::SH_OUTATTR_CLOCK, 0xF, 0b11),
        (id::GEOSTAGE_CONFIG, 0xA, 0),
        (id::GSH_MISC0, 0xF, 0),
        (id::GSH_MISC1, 0xF, 0),
        (id::GSH_INPUTBUFFER_CONFIG, 0xF, 0xA000_0000),
        // C3Di_AttrInfoBind: position float×3, colour ubyte×4, normal float×3 =
        // 0xB | 0xD << 4 | 0xB << 8; HIGH: attributes 3-11 fixed, count - 1 = 2; permutation
        // v0, v2, v1.
        (id::ATTRIBBUFFERS_FORMAT_LOW, 0xF, 0xBDB),
        (id::ATTRIBBUFFERS_FORMAT_LOW + 1, 0xF, 0x2FF8_0000),
        (id::VSH_INPUTBUFFER_CONFIG, 0xB, 0xA000_0002),
        (id::VSH_NUM_ATTR, 0xF, 2),
        (id::VSH_ATTRIBUTES_PERMUTATION_LOW, 0xF, 0x120),
        (id::VSH_ATTRIBUTES_PERMUTATION_LOW + 1, 0xF, 0),
        // C3Di_BufInfoBind: base 0x18000000 >> 3.
        (id::ATTRIBBUFFERS_LOC, 0xF, 0x1800_0000 >> 3),
    ]
}

#[test]
fn driver_lit_mesh_program_and_attributes_in_libctru_order() {
    let s = scene("driver/lit_mesh");
    let ws = list_writes(&s);
    let dvlb = d::lit_mesh_program().unwrap();
    let code = dvlb.code();
    let entry = dvlb.dvle(0).unwrap().entry;
    assert_ne!(entry, 0, "the helper procedure comes first");
    // shaderProgramConfigure's head: GEOSTAGE_CONFIG (mask 3), GEOSTAGE_CONFIG2 (mask 3),
    // VSH_COM_MODE (mask 1), then the code upload (one chunk: the program is under 0x80 words).
    let head: Vec<W> = [
        (id::GEOSTAGE_CONFIG, 0x3, 0),
        (id::GEOSTAGE_CONFIG2, 0x3, 0),
        (id::VSH_COM_MODE, 0x1, 0),
        (id::VSH_CODETRANSFER_INDEX, 0xF, 0),
    ]
    .into_iter()
    .chain(code.iter().map(|&w| (id::VSH_CODETRANSFER_DATA0, 0xF, w)))
    .chain([
        (id::VSH_CODETRANSFER_END, 0xF, 1),
        (id::VSH_OPDESCS_INDEX, 0xF, 0),
    ])
    .chain(
        dvlb.opdescs()
            .iter()
            .map(|&w| (id::VSH_OPDESCS_DATA0, 0xF, w)),
    )
    .chain(lit_mesh_configure_tail(entry))
    .collect();
    let at = find_run(&ws, &head, 0).expect("shaderProgramConfigure + AttrInfo + BufInfo");
    // Before it: the framebuffer bind, the viewport (f24(16), f31(1/16) << 1 ...) and the
    // scissor (disabled).
    let vp = find_run(
        &ws,
        &[
            // f24(16) and f31(1/16) << 1
            (id::VIEWPORT_WIDTH, 0xF, 0x43_0000),
            (id::VIEWPORT_WIDTH + 1, 0xF, 0x3B00_0000),
        ],
        0,
    );
    assert!(vp.is_some_and(|v| v < at), "viewport before the program");
    // The draw: C3D_DrawElements(GPU_TRIANGLES, 54, C3D_UNSIGNED_SHORT, ...).
    let draw = positions(&ws, id::DRAWELEMENTS);
    assert_eq!(draw.len(), 1);
    let k = draw[0];
    assert_eq!(
        ws[k - 8..=k],
        [
            // GPU_TRIANGLES becomes mode 3 (GPU_GEOMETRY_PRIM)
            (id::PRIMITIVE_CONFIG, 0x2, 0x300),
            (id::RESTART_PRIMITIVE, 0xF, 1),
            (id::INDEXBUFFER_CONFIG, 0xF, ws[k - 6].2),
            (id::NUMVERTICES, 0xF, 54),
            (id::VERTEX_OFFSET, 0xF, 0),
            (id::GEOSTAGE_CONFIG, 0x2, 0x100),
            (id::GEOSTAGE_CONFIG2, 0x2, 0x100),
            (id::START_DRAW_FUNC0, 0x1, 0),
            (id::DRAWELEMENTS, 0xF, 1),
        ]
    );
    // u16 indices (bit 31), offset from citro3d's base 0x18000000: the data's FCRAM address.
    assert_eq!(ws[k - 6].2 >> 31, 1);
    assert!((ws[k - 6].2 & 0x0FFF_FFFF) >= 0x2080_0000 - 0x1800_0000);
    assert_eq!(
        ws[k + 1..k + 7],
        [
            (id::START_DRAW_FUNC0, 0x1, 1),
            (id::GEOSTAGE_CONFIG, 0x2, 0),
            (id::GEOSTAGE_CONFIG2, 0x2, 0),
            (id::VTX_FUNC, 0xF, 1),
            (id::PRIMITIVE_CONFIG, 0x8, 0),
            (id::PRIMITIVE_CONFIG, 0x8, 0),
        ]
    );
    // The uniforms of C3D_UpdateUniforms: the shader's float constant (f24 mode, one
    // consecutive write of four words), then the dirty float uniforms c0-c10 in f32 mode as
    // one run, then the booleans.
    let f = positions(&ws, id::VSH_FLOATUNIFORM_INDEX);
    assert_eq!(f.len(), 2);
    assert_eq!(ws[f[0]].2 >> 31, 0, "shader constants in f24 mode");
    assert_eq!(ws[f[0] + 1].0, id::VSH_FLOATUNIFORM_INDEX + 1);
    assert_eq!(ws[f[1]].2, 0x8000_0000, "c0.. in f32 mode");
    assert!(ws[f[1] + 1..f[1] + 45]
        .iter()
        .all(|w| w.0 == id::VSH_FLOATUNIFORM_DATA0));
    assert_eq!(ws[f[1] + 45], (id::VSH_BOOLUNIFORM, 0xF, 0x7FFF_0000));
}

/// Shader outputs per vertex sequence number: seq → (unit, [(register, xyzw)]).
type Outputs = BTreeMap<u32, (u8, Vec<(u8, [u32; 4])>)>;

fn shader_outputs(gpu: &Gpu) -> Outputs {
    let mut m = Outputs::new();
    for b in gpu.shader_beats().1 {
        let e = m.entry(b.seq).or_insert((b.unit, Vec::new()));
        e.1.push((b.reg, b.xyzw));
    }
    m
}

/// driver/lit_mesh: every vertex's shader outputs equal the outputs of the same vertex shaded
/// alone (one `C3D_DrawArrays` of one vertex each: unit 0), whichever unit shaded it. Fails
/// when unit 3 runs the vertex shader with a configuration of its own that libctru never
/// writes (entry point, input count, permutation: shaderProgramConfigure writes only the VSH
/// block's, and GSH_INPUTBUFFER_CONFIG = 0xA0000000).
#[test]
fn driver_lit_mesh_every_unit_shades_as_unit_0() {
    let main = d::lit_mesh_with(LitMeshDraw::Elements)
        .unwrap()
        .finish("lit", "")
        .unwrap();
    let reference = d::lit_mesh_with(LitMeshDraw::OneVertexPerDraw)
        .unwrap()
        .finish("ref", "")
        .unwrap();
    let (m, r) = (render(&main), render(&reference));
    finished(&r, "reference");
    let ref_out = shader_outputs(&r.gpu);
    let (verts, idx) = d::lit_mesh_geometry();
    assert_eq!(ref_out.len(), verts.len());
    assert!(
        ref_out.values().all(|(u, o)| *u == 0 && o.len() == 2),
        "one vertex per draw runs on unit 0"
    );
    let ref_by_vertex: Vec<&Vec<(u8, [u32; 4])>> = ref_out.values().map(|(_, o)| o).collect();
    finished(&m, "driver/lit_mesh");
    let out = shader_outputs(&m.gpu);
    assert_eq!(
        out.len(),
        idx.len(),
        "no post-vertex cache: one shading per index"
    );
    let mut units = [0usize; 4];
    let mut wrong = Vec::new();
    for (k, (seq, (unit, o))) in out.iter().enumerate() {
        units[usize::from(*unit & 3)] += 1;
        let v = usize::from(idx[k]);
        if o != ref_by_vertex[v] {
            wrong.push(format!(
                "seq {seq} (vertex {v}) on unit {unit}: {o:x?} != {:x?}",
                ref_by_vertex[v]
            ));
        }
    }
    assert!(units.iter().all(|&n| n > 0), "every unit shades: {units:?}");
    assert!(
        wrong.is_empty(),
        "{} of {} vertices differ:\n{}",
        wrong.len(),
        out.len(),
        wrong.join("\n")
    );
}

#[test]
fn driver_lit_mesh_draws_the_grid() {
    let r = render(&scene("driver/lit_mesh"));
    finished(&r, "driver/lit_mesh");
    // Outside the grid (|x|, |y| > 0.75 after the quarter turn): the clear colour.
    check(
        &r.image,
        "driver/lit_mesh",
        &[
            (-0.9, -0.9, BG),
            (0.9, 0.9, BG),
            (-0.9, 0.9, BG),
            (0.9, -0.9, BG),
        ],
    );
    // Inside: lit, opaque, not the clear colour.
    for (x, y) in [(-0.5, -0.5), (0.0, 0.0), (0.5, 0.5), (0.6, -0.4)] {
        let p = at(&r.image, x, y);
        assert_eq!(p[3], 255, "({x}, {y})");
        assert_ne!(p, BG, "({x}, {y})");
    }
}

// =====================================================================================
// driver/textured_cube
// =====================================================================================

#[test]
fn driver_textured_cube_shows_two_faces_of_quadrants() {
    let s = scene("driver/textured_cube");
    let r = render(&s);
    finished(&r, "driver/textured_cube");
    // Texture quadrant × white × constant (0x80, 0xFF, 0xFF): red → (128, 0, 0), green →
    // (0, 255, 0), blue → (0, 0, 255), white → (128, 255, 255). The +z face spans clip x
    // 0..√½ with u = x / √½, the -x face x -√½..0 with u = 1 + x / √½; v = y + 0.5 on both
    // (derivation in scenes/driver.rs `cube_mvp`).
    let (red, green, blue, white) = (
        [128, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [128, 255, 255, 255],
    );
    check(
        &r.image,
        "driver/textured_cube",
        &[
            (0.177, -0.25, red),
            (0.53, -0.25, green),
            (0.177, 0.25, blue),
            (0.53, 0.25, white),
            (-0.53, -0.25, red),
            (-0.177, -0.25, green),
            (-0.53, 0.25, blue),
            (-0.177, 0.25, white),
            (0.9, 0.0, BG),
            (-0.9, 0.0, BG),
            (0.0, 0.75, BG),
            (0.0, -0.75, BG),
        ],
    );
    // C3Di_SetTex: BORDER_COLOR, DIM (height | width << 16), PARAM, LOD, ADDR in one
    // consecutive write, then TYPE; then TEXUNIT_CONFIG mask 0xB (unit 0 on, bit 12, cache
    // clear bit 16) and mask 0x4 (bit 16 again), TEXUNIT0_SHADOW = 1.
    let ws = list_writes(&s);
    let b = positions(&ws, id::TEXUNIT0_BORDER_COLOR);
    assert_eq!(b.len(), 1);
    let k = b[0];
    assert_eq!(ws[k + 1], (id::TEXUNIT0_BORDER_COLOR + 1, 0xF, 8 | 8 << 16));
    assert_eq!(ws[k + 2], (id::TEXUNIT0_BORDER_COLOR + 2, 0xF, 0));
    assert_eq!(ws[k + 5], (id::TEXUNIT0_TYPE, 0xF, 0));
    assert_eq!(
        ws[k + 6..k + 9],
        [
            (id::TEXUNIT_CONFIG, 0xB, 1 | 1 << 12 | 1 << 16),
            (id::TEXUNIT_CONFIG, 0x4, 1 << 16),
            (id::TEXUNIT0_SHADOW, 0xF, 1),
        ]
    );
    // The fixed colour attribute: FIXEDATTRIB_INDEX = 2 then (1, 1, 1, 1) in f24 packing.
    assert!(find_run(
        &ws,
        &[
            (id::FIXEDATTRIB_INDEX, 0xF, 2),
            (id::FIXEDATTRIB_DATA0, 0xF, 0x3F00_003F),
            (id::FIXEDATTRIB_DATA0 + 1, 0xF, 0x0000_3F00),
            (id::FIXEDATTRIB_DATA0 + 2, 0xF, 0x003F_0000),
        ],
        0
    )
    .is_some());
}

// =====================================================================================
// geometry-shader scenes
// =====================================================================================

const R_: [u8; 4] = [255, 0, 0, 255];
const G_: [u8; 4] = [0, 255, 0, 255];
const B_: [u8; 4] = [0, 0, 255, 255];
const Y_: [u8; 4] = [255, 255, 0, 255];
const C_: [u8; 4] = [0, 255, 255, 255];
const M_: [u8; 4] = [255, 0, 255, 255];
const W_: [u8; 4] = [255, 255, 255, 255];

/// The geometry-shader half of shaderProgramConfigure in `ws`: GEOSTAGE_CONFIG mask 0xA,
/// GSH_MISC0, GSH_MISC1, GSH_INPUTBUFFER_CONFIG, the permutation.
fn gs_tail(ws: &[W], variable: bool, misc0: u32, misc1: u32, input: u32) {
    let want = [
        (
            id::GEOSTAGE_CONFIG,
            0xA,
            if variable { 0x8000_0000 } else { 0 },
        ),
        (id::GSH_MISC0, 0xF, misc0),
        (id::GSH_MISC1, 0xF, misc1),
        (id::GSH_INPUTBUFFER_CONFIG, 0xF, input),
        (id::GSH_ATTRIBUTES_PERMUTATION_LOW, 0xF, 0x7654_3210),
        (id::GSH_ATTRIBUTES_PERMUTATION_LOW + 1, 0xF, 0xFEDC_BA98),
    ];
    assert!(find_run(ws, &want, 0).is_some(), "{want:x?}");
    // The head: GEOSTAGE_CONFIG mask 3 = 2, GEOSTAGE_CONFIG2 mask 3 = 0, VSH_COM_MODE = 1.
    assert!(find_run(
        ws,
        &[
            (id::GEOSTAGE_CONFIG, 0x3, 2),
            (id::GEOSTAGE_CONFIG2, 0x3, 0),
            (id::VSH_COM_MODE, 0x1, 1),
        ],
        0
    )
    .is_some());
}

#[test]
fn driver_gs_point_splits_each_triangle_in_four() {
    let s = scene("driver/gs_point");
    gs_tail(&list_writes(&s), false, 0, 0, 0x0800_0005);
    let r = render(&s);
    finished(&r, "driver/gs_point");
    // Triangle 1: R (-1, -1), G (1, -1), B (-1, 1) → corners and a white middle; triangle 2:
    // Y (1, 1), C (-0.5, 1), M (1, -0.5). Probes at the sub-triangles' centroids.
    check(
        &r.image,
        "driver/gs_point",
        &[
            (-0.667, -0.667, R_),
            (0.333, -0.667, G_),
            (-0.667, 0.333, B_),
            (-0.333, -0.333, W_),
            (0.75, 0.75, Y_),
            (0.0, 0.75, C_),
            (0.75, 0.0, M_),
            (0.5, 0.5, W_),
            (0.2, 0.1, BG),
        ],
    );
}

#[test]
fn driver_gs_fixed_adds_three_squares() {
    let s = scene("driver/gs_fixed");
    // Fixed mode: 2 | 0x01000000 | start 0 << 16 | (stride 2 - 1) << 12 | (1 vertex - 1) << 8;
    // input: bit 8 (to uniforms), stride - 1.
    gs_tail(&list_writes(&s), false, 0x0100_1002, 0, 0x0800_0101);
    let r = render(&s);
    finished(&r, "driver/gs_fixed");
    // BG (32, 48, 64) + red 64 (square 0: x -0.625..0.125, y -0.25..0.5) + green 128
    // (square 1: x -0.125..0.625, y -0.25..0.5) + blue 128 (square 2: x -0.375..0.375,
    // y -0.625..0.125); src·1 + dst·1.
    check(
        &r.image,
        "driver/gs_fixed",
        &[
            (-0.5, 0.3, [96, 48, 64, 255]),
            (0.5, 0.3, [32, 176, 64, 255]),
            (0.0, -0.5, [32, 48, 192, 255]),
            (0.0, 0.3, [96, 176, 64, 255]),
            (0.0, -0.1, [96, 176, 192, 255]),
            (-0.25, -0.1, [96, 48, 192, 255]),
            (0.25, -0.1, [32, 176, 192, 255]),
            (-0.9, -0.9, BG),
            (0.9, 0.9, BG),
        ],
    );
}

#[test]
fn driver_gs_variable_draws_polygons_of_three_sizes() {
    let s = scene("driver/gs_variable");
    // Variable mode: GEOSTAGE_CONFIG bit 31, MISC0 = 1, MISC1 = main vertices - 1 = 0.
    gs_tail(&list_writes(&s), true, 1, 0, 0x0800_0101);
    let r = render(&s);
    finished(&r, "driver/gs_variable");
    check(
        &r.image,
        "driver/gs_variable",
        &[
            (-0.5, -0.5, R_),
            (-0.8, -0.8, R_),
            (-0.2, -0.2, R_),
            (0.5, -0.6, G_),
            (0.0, 0.5, B_),
            (0.3, 0.8, B_),
            (-0.4, 0.4, B_),
            (0.0, -0.5, BG),
            (0.9, 0.9, BG),
            (-0.75, 0.75, BG),
            (0.0, 0.0, BG),
        ],
    );
}

// =====================================================================================
// driver/program_switch
// =====================================================================================

#[test]
fn driver_program_switch_uploads_code_as_c3d_bind_program_decides() {
    let ws = list_writes(&scene("driver/program_switch"));
    let draws = positions(&ws, id::DRAWARRAYS);
    assert_eq!(draws.len(), 4);
    let count =
        |reg: u16, from: usize, to: usize| ws[from..to].iter().filter(|w| w.0 == reg).count();
    let bounds = [0, draws[0], draws[1], draws[2], draws[3]];
    let vsh: Vec<usize> = (0..4)
        .map(|i| count(id::VSH_CODETRANSFER_END, bounds[i], bounds[i + 1]))
        .collect();
    let gsh: Vec<usize> = (0..4)
        .map(|i| count(id::GSH_CODETRANSFER_END, bounds[i], bounds[i + 1]))
        .collect();
    // Program 1: first program, both flags but no GS → vertex code only. Program 2: another
    // DVLP → vertex and geometry code. Program 3: program 2's DVLP and no GS → nothing.
    // Program 1 again: another DVLP → vertex code.
    assert_eq!(vsh, [1, 1, 0, 1]);
    assert_eq!(gsh, [0, 1, 0, 0]);
    // Every bind reconfigures (entry point and GS registers) and rebinds the attributes.
    let entries: Vec<usize> = (0..4)
        .map(|i| count(id::VSH_ENTRYPOINT, bounds[i], bounds[i + 1]))
        .collect();
    assert_eq!(entries, [1, 1, 1, 1]);
    let com: Vec<u32> = ws
        .iter()
        .filter(|w| w.0 == id::VSH_COM_MODE)
        .map(|w| w.2)
        .collect();
    assert_eq!(com, [0, 1, 0, 0]);
}

#[test]
fn driver_program_switch_draws_four_quarters() {
    let r = render(&scene("driver/program_switch"));
    finished(&r, "driver/program_switch");
    // Each quarter: the mesh's bottom / right / top / left triangles, red / green / blue /
    // yellow; the top-right quarter went through the geometry shader, which complements them.
    let mut probes = Vec::new();
    for ((cx, cy), prog) in d::SWITCH_DRAWS.map(|(o, p)| ((o[0], o[1]), p)) {
        let cols = if prog == 2 {
            [C_, M_, Y_, B_]
        } else {
            [R_, G_, B_, Y_]
        };
        probes.extend([
            (cx, cy - 0.25, cols[0]),
            (cx + 0.25, cy, cols[1]),
            (cx, cy + 0.25, cols[2]),
            (cx - 0.25, cy, cols[3]),
        ]);
    }
    check(&r.image, "driver/program_switch", &probes);
}

/// The quarters drawn after a geometry-shader program (programs 3 and 1 again) must shade on
/// every unit like the first: unit 3 runs their vertex shader after it ran the GS.
#[test]
fn driver_program_switch_units_after_the_geometry_shader() {
    let r = render(&scene("driver/program_switch"));
    finished(&r, "driver/program_switch");
    let out = shader_outputs(&r.gpu);
    // Draw 1 shades seq 0-11, draw 2 (VS feeding the GS) 12-23, draw 3 24-35, draw 4 36-47.
    let unit3: Vec<u32> = out
        .iter()
        .filter(|(_, (u, _))| *u == 3)
        .map(|(s, _)| *s)
        .collect();
    assert!(
        unit3.iter().any(|s| (24..36).contains(s)),
        "unit 3 shades in draw 3: {unit3:?}"
    );
    assert!(
        unit3.iter().any(|s| (36..48).contains(s)),
        "unit 3 shades in draw 4: {unit3:?}"
    );
}

// =====================================================================================
// driver/fog_proctex_light
// =====================================================================================

#[test]
fn driver_fog_proctex_light_fogs_the_far_half() {
    let s = scene("driver/fog_proctex_light");
    let r = render(&s);
    finished(&r, "driver/fog_proctex_light");
    let fog = [0x40, 0x60, 0x80, 0xFF];
    // Rows 24-31 (depth ≥ 0.66): the fog LUT is 0 from depth 0.5 on, so the colour is the fog
    // colour exactly.
    for row in 24..32 {
        for col in 0..32 {
            assert_eq!(px(&r.image, col, row), fog, "({col}, {row})");
        }
    }
    // Rows 0-7 (depth ≤ 0.34, fog factor 2047/2048): lit and textured, not fog, not clear.
    for row in 0..8 {
        for col in 0..32 {
            let p = px(&r.image, col, row);
            assert!(p != fog && p != BG && p[3] == 255, "({col}, {row}): {p:?}");
        }
    }
    // Everything is mirror-symmetric about the vertical axis (the quad is a fan around the
    // centre, the light at the eye, the view vector -position, the procedural texture radial):
    // column c equals column 31 - c, bit for bit.
    for row in 0..32 {
        for col in 0..16 {
            assert_eq!(
                px(&r.image, col, row),
                px(&r.image, 31 - col, row),
                "({col}, {row}) and its mirror"
            );
        }
    }
    // The light sits at the eye above the centre column: the top rows are brighter in the
    // middle than at the edges.
    let lum = |p: [u8; 4]| u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2]);
    assert!(lum(px(&r.image, 16, 4)) > lum(px(&r.image, 0, 4)));
    // The set-up sequences: the light environment before the light, the D0 LUT as 32 writes
    // of eight entries, the fog LUT as one write of 128, the procedural texture's colour
    // table (table 4) and differences (table 5) as 256 each.
    let ws = list_writes(&s);
    let lut = positions(&ws, id::LIGHTING_LUT_INDEX);
    assert_eq!(lut.len(), 1);
    assert_eq!(ws[lut[0]].2, 0, "D0 = common table 0");
    assert_eq!(
        ws[lut[0] + 1..lut[0] + 257]
            .iter()
            .filter(|w| w.0 == id::LIGHTING_LUT_DATA0)
            .count(),
        256
    );
    let env = positions(&ws, id::LIGHTING_AMBIENT);
    let light = positions(&ws, id::LIGHT0_SPECULAR0);
    assert!(env[0] < lut[0] && lut[0] < light[0]);
    assert_eq!(
        ws[light[0] + 9].0,
        id::LIGHT0_SPECULAR0 + 9,
        "CONFIG in the same write"
    );
    let fog_lut = positions(&ws, id::FOG_LUT_INDEX);
    assert_eq!(fog_lut.len(), 1);
    let pt = positions(&ws, id::PROCTEX_LUT);
    assert_eq!(
        pt.iter().map(|&i| ws[i].2).collect::<Vec<_>>(),
        [2 << 8, 4 << 8, 5 << 8]
    );
}

// =====================================================================================
// driver/two_targets
// =====================================================================================

#[test]
fn driver_two_targets_switches_with_flush_and_earlydepth_clear() {
    let s = scene("driver/two_targets");
    let ws = list_writes(&s);
    let draws = positions(&ws, id::DRAWARRAYS);
    assert_eq!(draws.len(), 3);
    // After draws 1 and 2, the next framebuffer bind starts with FLUSH and EARLYDEPTH_CLEAR
    // (C3Di_UpdateContext, the framebuffer was used) then C3Di_FrameBufBind's INVALIDATE.
    for (k, w) in [(0usize, 16u32), (1, 32)] {
        let from = draws[k];
        let flush = find_run(
            &ws,
            &[
                (id::FRAMEBUFFER_FLUSH, 0xF, 1),
                (id::EARLYDEPTH_CLEAR, 0xF, 1),
                (id::FRAMEBUFFER_INVALIDATE, 0xF, 1),
            ],
            from,
        )
        .unwrap();
        assert!(flush < draws[k + 1]);
        let dim = 0x0100_0000 | (w - 1) << 12 | w;
        assert_eq!(ws[flush + 5], (id::FRAMEBUFFER_DIM, 0xF, dim));
        assert_eq!(ws[flush + 6], (id::RENDERBUF_DIM, 0xF, dim));
        assert_eq!(ws[flush + 7], (id::DEPTHBUFFER_FORMAT, 0xF, 3));
        assert_eq!(ws[flush + 8], (id::COLORBUFFER_FORMAT, 0xF, 2));
        assert_eq!(ws[flush + 9], (id::FRAMEBUFFER_BLOCK32, 0xF, 0));
        assert_eq!(
            ws[flush + 10..flush + 14]
                .iter()
                .map(|w| w.2)
                .collect::<Vec<_>>(),
            [0xF, 0xF, 3, 3]
        );
    }
    let r = render(&s);
    finished(&r, "driver/two_targets");
    let grey = [64, 64, 64, 255];
    check(
        &r.image,
        "driver/two_targets",
        &[
            (-0.25, -0.25, R_),
            (0.25, -0.25, G_),
            (-0.25, 0.25, B_),
            (0.25, 0.25, Y_),
            (-0.75, -0.75, grey),
            (0.75, 0.75, grey),
            (0.0, 0.75, grey),
        ],
    );
}

/// `Citro3d::finish` gives citro3d's list alone; the library's scene (through
/// `Builder::finish`) has the same words up to and including the FINALIZE, then the
/// builder's own end, which the command processor never reads.
#[test]
fn driver_finish_is_the_library_list_up_to_finalize() {
    let exact = d::lit_mesh_with(LitMeshDraw::Elements)
        .unwrap()
        .finish("driver/lit_mesh", "")
        .unwrap();
    let lib = scene("driver/lit_mesh");
    let (a, b) = (&exact.case.images[0].words, &lib.case.images[0].words);
    assert!(b.len() > a.len());
    assert_eq!(a[..], b[..a.len()]);
    assert_eq!(exact.case.submit_size % 16, 0);
    assert_eq!(writes(a), writes(b));
    // The memory images other than the list are the same.
    assert_eq!(exact.case.images[1..], lib.case.images[1..]);
    // And so is the picture.
    let (x, y) = (render(&exact), render(&lib));
    assert_eq!(x.image, y.image);
}
