#![allow(clippy::unwrap_used)]
//! The geometry-shader scenes (`gs/*`, issue 33): each is set up in libctru's order
//! (GEOSTAGE_CONFIG = 2 before GSH_MISC0 / GSH_MISC1 / GSH_INPUTBUFFER_CONFIG) and must draw
//! the hand-derived pixels below on the model. Each fails on the model before the fix, which
//! took the GS configuration when the stage turned on (point mode with two inputs, from the
//! standard setup's GSH_INPUTBUFFER_CONFIG) and sent variable-mode counts as vertices.
//!
//! Derivation conventions as in `scenes.rs`: window x = (clip x + 1) · 16, window y =
//! (clip y + 1) · 16, image row = 31 − window row; every probe below is a pixel centre at least
//! a pixel inside its primitive; colours are flat, so 1 → 255 exactly.

use pica_model::fop::fb::read_color_image;
use pica_model::knobs::Knobs;
use pica_model::{Gpu, Outcome};
use pica_vectors::builder::Scene;
use pica_vectors::scenes::{self, BG};

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

/// Runs `name` on the model with `knobs`; the GPU and the picture (top row first).
fn render(name: &str, knobs: Knobs) -> (Gpu, Vec<[u8; 4]>) {
    let scene: Scene = scenes::scene(name).unwrap();
    let mut case = scene.case.clone();
    case.knobs = knobs;
    let mut gpu = case.gpu().unwrap();
    let o = gpu.run(case.max_cycles);
    assert!(matches!(o, Outcome::Finished { .. }), "{name}: {o}");
    let img = read_color_image(gpu.regs(), gpu.mem());
    assert_eq!((img.width, img.height), (32, 32), "{name}");
    let px = img
        .rgba
        .chunks(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    (gpu, px)
}

/// Checks `(column, image row, rgba)` probes and the four corners (clear colour).
fn check(name: &str, px: &[[u8; 4]], probes: &[(u32, u32, [u8; 4])]) {
    let corners = [(0, 0, BG), (31, 0, BG), (0, 31, BG), (31, 31, BG)];
    let bad: Vec<String> = probes
        .iter()
        .chain(&corners)
        .filter_map(|&(x, y, want)| {
            let got = px[(y * 32 + x) as usize];
            (got != want).then(|| format!("({x}, {y}): got {got:?}, want {want:?}"))
        })
        .collect();
    assert!(bad.is_empty(), "{name}:\n{}", bad.join("\n"));
}

/// The subdivided triangle: window a (4, 4), b (28, 4), c (16, 28); midpoints ab (16, 4),
/// bc (22, 16), ca (10, 16). Corner a (4,4)-(16,4)-(10,16) red: (9.5, 6.5) lies between its
/// edges x = 5.25 and x = 14.75 at that height; corner b (16,4)-(28,4)-(22,16) green: (22.5,
/// 6.5) between 17.25 and 26.75; corner c (10,16)-(22,16)-(16,28) blue: (16.5, 22.5) between
/// 13.25 and 18.75; the open middle (16,4)-(22,16)-(10,16) holds (16.5, 11.5).
const SUBDIVIDED: [(u32, u32, [u8; 4]); 4] =
    [(9, 25, RED), (22, 25, GREEN), (16, 9, BLUE), (16, 20, BG)];

#[test]
fn gs_subdivide_draws_three_corner_triangles() {
    let (gpu, px) = render("gs/subdivide", Knobs::default());
    check("gs/subdivide", &px, &SUBDIVIDED);
    // One GS run for the three vertices, three triangles out.
    assert_eq!(gpu.pipeline_stats().triangles, 3);
}

#[test]
fn gs_particles_draw_additive_squares_around_each_vertex() {
    // Squares of half-size 0.25: red around (-0.25, -0.25) = window [8, 16]², green around
    // the origin = [12, 20]², blue around (0.5, -0.5) = x [20, 28], y [4, 12]. src · 1 +
    // dst · 1 over BG (32, 48, 64, 255), clamped: red alone (255, 48, 64), red + green
    // (255, 255, 64), green alone (32, 255, 64), blue (32, 48, 255); alpha 255.
    let (gpu, px) = render("gs/particles", Knobs::default());
    check(
        "gs/particles",
        &px,
        &[
            (9, 22, [255, 48, 64, 255]),   // window (9.5, 9.5)
            (13, 18, [255, 255, 64, 255]), // window (13.5, 13.5)
            (17, 14, [32, 255, 64, 255]),  // window (17.5, 17.5)
            (24, 23, [32, 48, 255, 255]),  // window (24.5, 8.5)
            (4, 4, BG),                    // window (4.5, 27.5)
        ],
    );
    // Three GS runs, two triangles each.
    assert_eq!(gpu.pipeline_stats().triangles, 6);
}

#[test]
fn gs_variable_draws_each_primitive_of_its_index_count() {
    // Index buffer 3, 0, 1, 2, 4, 3, 4, 5, 6: the triangle (4,4)-(16,4)-(4,16) in vertex 0's
    // red and the quad (16,16)-(28,16)-(28,28)-(16,28) in vertex 3's green; the blue of the
    // other vertices never reaches the GS (they give their position only).
    let (gpu, px) = render("gs/variable", Knobs::default());
    check(
        "gs/variable",
        &px,
        &[
            (6, 25, RED),    // window (6.5, 6.5)
            (25, 13, GREEN), // window (25.5, 18.5): fan triangle (v3, v4, v5)
            (18, 6, GREEN),  // window (18.5, 25.5): fan triangle (v3, v5, v6)
            (22, 23, BG),    // window (22.5, 8.5): lower right, no primitive
            (8, 9, BG),      // window (8.5, 22.5): upper left, no primitive
        ],
    );
    // Seven vertices shaded (the two counts are not vertices), three triangles.
    assert_eq!(gpu.pipeline_stats().vertices, 7);
    assert_eq!(gpu.pipeline_stats().triangles, 3);
    assert_eq!(gpu.vl().stats().gs_counts, 2);
}

#[test]
fn gs_draw_reset_starts_the_immediate_batch_empty() {
    // The first draw's two vertices are dropped at the batch: the batch's triangle is
    // subdivided exactly as gs/subdivide's.
    let (gpu, px) = render("gs/draw_reset", Knobs::default());
    check("gs/draw_reset", &px, &SUBDIVIDED);
    assert_eq!(gpu.pipeline_stats().triangles, 3);
}

#[test]
fn gs_draw_reset_with_knob_keep_completes_the_first_draws_triangle() {
    // gs-new-draw=keep: the batch's first vertex completes the first draw's primitive
    // (-1, 1), (-1, -1), (-0.75, -0.75) — a sliver at the left edge — and the batch's last two
    // vertices stay buffered: the big triangle is not drawn.
    let mut k = Knobs::default();
    k.set("gs-new-draw=keep").unwrap();
    let (gpu, px) = render("gs/draw_reset", k);
    assert_eq!(gpu.pipeline_stats().triangles, 3);
    for (x, y, _) in SUBDIVIDED {
        assert_eq!(px[(y * 32 + x) as usize], BG, "({x}, {y})");
    }
    // Window (0.5, 16.5): inside the sliver's corner triangle at (-1, 1)..(-1, -1) — the
    // corner a of (-1, 1), (-1, -1), (-0.75, -0.75) is (0,32)-(0,16)-(1,24) in window
    // coordinates: (0.5, 24.5) lies inside it.
    assert_eq!(px[(7 * 32) as usize], RED);
}
