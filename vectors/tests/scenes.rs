#![allow(clippy::unwrap_used)]
//! The scene library: every scene builds a well-formed case that runs on the model and draws
//! the pixels listed for it in [`probes`] (hand-derived; the derivation is next to each entry)
//! and leaves the bytes listed in [`mem_probes`] in memory.

use pica_model::cmdlist::FINALIZE_VALUE;
use pica_model::fop::fb::Image;
use pica_model::regs::{self, id};
use pica_model::{HangReason, Outcome};
use pica_vectors::builder::{Scene, COLOR_BASE, DEPTH_BASE};
use pica_vectors::scenes::{self, BG};

mod common;
use common::{render, Rendered};

/// The RGBA8 pixel at (`x`, `y`) of `img`, `y` counted from the top row.
fn pixel(img: &Image, x: u32, y: u32) -> Option<[u8; 4]> {
    let i = ((y * img.width + x) * 4) as usize;
    let p = img.rgba.get(i..i + 4)?;
    Some([p[0], p[1], p[2], p[3]])
}

/// A hand-derived expected pixel.
struct Probe {
    x: u32,
    y: u32,
    rgba: [u8; 4],
}

const fn p(x: u32, y: u32, rgba: [u8; 4]) -> Probe {
    Probe { x, y, rgba }
}

const RED: [u8; 4] = [0xFF, 0, 0, 0xFF];
const GREEN: [u8; 4] = [0, 0xFF, 0, 0xFF];
const BLUE: [u8; 4] = [0, 0, 0xFF, 0xFF];
const CYAN: [u8; 4] = [0, 0xFF, 0xFF, 0xFF];
const YELLOW: [u8; 4] = [0xFF, 0xFF, 0, 0xFF];
const MAGENTA: [u8; 4] = [0xFF, 0, 0xFF, 0xFF];
const WHITE: [u8; 4] = [0xFF; 4];

/// The pixel inside cell `n` of the scene library's 4×4 grid of 8×8 cells on 32×32 (cell 0 at
/// the bottom left, `n % 4` across): cell (i, j) covers columns 8i..8i+7 and window rows
/// 8j..8j+7, i.e. image rows 24-8j..31-8j; (8i + 4, 27 - 8j) is well inside.
const fn cell_px(n: u32) -> (u32, u32) {
    (8 * (n % 4) + 4, 27 - 8 * (n / 4))
}

/// One probe per cell of a 4×4 grid scene.
fn grid(cells: [[u8; 4]; 16]) -> Vec<Probe> {
    (0..16u32)
        .zip(cells)
        .map(|(n, c)| {
            let (x, y) = cell_px(n);
            p(x, y, c)
        })
        .collect()
}

// Derivation conventions of every probe below (32×32 unless said otherwise):
//
// - Image column c is clip x = (c + 0.5) / 16 - 1. Image row r is window row 31 - r (the model
//   stores and reads the buffer top row first, window y = 0 at the bottom, fop/fb.rs), so
//   clip y = (15.5 - r) / 16: clip y = +1 is row 0. Checked on an asymmetric scene: the
//   prim/triangle probes near its base (clip y = -0.75) are on rows 21-26, and row 4 (clip
//   y = +0.72, beside its apex) is BG at column 10.
// - Vertex colour channels c become round(c · 255), halves away from zero (rast/interp.rs
//   `color_to_u8`, Azahar's `round`): 1 → 255, 0.5 → 128, 0.25 → 64, 0.75 → 191 (191.25).
//   A colour that is the same at the three vertices and a power-of-two multiple (1, 0.5,
//   0.25) is interpolated exactly (scaling by a power of two commutes with every f24
//   truncation); 0.75 is exact too where the edge weights are small multiples of 128.
// - Vertex-coloured pixels: the exact barycentric weights l = (l0, l1, l2) of the pixel centre
//   (listed) give channel Σ l_i c_i; only pixels whose exact value · 255 is at least 0.25 from
//   a rounding tie are used, so the f24 interpolation error (relative 2^-16 per step) cannot
//   move the result; every such pixel is at least half a pixel inside its triangle.
// - Blending (fop/ops.rs `blend_channel`, Azahar `EvaluateBlendEquation`): factors are 8-bit
//   fractions of 255; p = s · sf and q = d · df exactly, the equation combines p and q exactly,
//   the result is divided by 255 truncating and clamped to 0..=255. Factor per channel as
//   seed 002 names it; on the alpha channel the colour factors use the alpha component, and
//   "source alpha saturate" is 255 on alpha and min(a_s, 255 - a_d) on RGB.
// - The blend scenes' source is SRC = (1, 0.5, 0.25, 0.5) → s = [255, 128, 64, 128], the
//   destination is BG d = [32, 48, 64, 255], the constant [64, 128, 192, 128].

/// Expected pixels of each scene, hand-derived (see the conventions above). Add a scene's
/// entry here to check it; [`corners_free`] adds the four corners of most scenes.
fn probes(name: &str) -> Vec<Probe> {
    match name {
        // ---- primitives (vertex colours; l = barycentric weights of the listed vertices) ----
        // Window vertices R (4, 4), G (28, 4), B (16, 28).
        "prim/triangle" | "vl/missing_components" | "vl/padding" | "vl/permutation" => vec![
            p(5, 26, [231, 8, 16, 255]), // l = (29/32, 1/32, 1/16): 231.09, 7.97, 15.94
            p(13, 26, [146, 93, 16, 255]), // l = (55/96, 35/96, 1/16): 146.09, 92.97, 15.94
            p(21, 26, [61, 178, 16, 255]), // l = (23/96, 67/96, 1/16): 61.09, 177.97, 15.94
            p(9, 21, [162, 24, 69, 255]), // l = (61/96, 3/32, 13/48): 162.03, 23.91, 69.06
            p(10, 4, BG),                // clip (-0.34, 0.72): left of the apex
        ],
        "prim/strip" => vec![
            p(4, 23, [231, 16, 8, 255]),    // (R, G, B) l = (29/32, 1/16, 1/32)
            p(11, 20, [40, 239, 16, 255]),  // (G, B, Y) l = (25/32, 1/16, 5/32)
            p(27, 8, [247, 16, 247, 255]),  // (Y, C, M) l = (1/32, 1/32, 15/16)
            p(27, 21, [40, 223, 247, 255]), // (Y, C, M) l = (1/32, 27/32, 1/8)
            p(15, 4, BG),                   // clip y 0.72: above the strip
        ],
        // Fan around W (0, 0): R (0.75, -0.25), G (0.5, 0.75), B (-0.5, 0.75), Y (-0.75,
        // -0.25), C (0, -0.75).
        "prim/fan" => vec![
            p(7, 15, [197, 197, 113, 255]),  // (W, B, Y) l = (19/88, 5/22, 49/88)
            p(19, 15, [226, 200, 171, 255]), // (W, R, G) l = (59/88, 19/88, 5/44)
            p(9, 8, [87, 87, 229, 255]),     // (W, B, Y) l = (21/88, 29/44, 9/88)
            p(24, 10, [110, 171, 26, 255]),  // (W, R, G) l = (9/88, 29/88, 25/44)
            p(16, 2, BG),                    // clip y 0.84: above the fan
        ],
        // 3×3 grid, step 0.75, colours R G B / Y C M / W R G from the bottom left.
        "prim/indexed_u8" => vec![
            p(6, 26, [202, 85, 0, 255]),   // (R, G, Y) l = (2/3, 5/24, 1/8)
            p(18, 26, [0, 202, 85, 255]),  // (G, B, C) l = (2/3, 5/24, 1/8)
            p(14, 22, [32, 255, 85, 255]), // (Y, G, C) l = (1/8, 13/24, 1/3)
            p(26, 22, [85, 32, 255, 255]), // (C, B, M) l = (1/8, 13/24, 1/3)
        ],
        // 64×64, mesh over window 8..56 in 3-pixel cells: every pixel centre has barycentric
        // weights in sixths and some channel at an exact rounding tie (k/6 · 255 = 42.5,
        // 127.5, 212.5), so only the border outside the mesh is checked.
        "prim/indexed_u16" => vec![p(4, 32, BG), p(60, 32, BG), p(32, 4, BG), p(32, 60, BG)],
        // Bottom row R G B Y at x = -0.75 + 0.5i, y = -0.5; top row the same at y = 0.5.
        "prim/indexed_strip" => vec![
            p(4, 23, [239, 16, 0, 255]),    // (R0, G1, R4) l = (29/32, 1/16, 1/32)
            p(11, 20, [16, 239, 0, 255]),   // (G1, R4, G5) l = (25/32, 1/16, 5/32)
            p(5, 8, [215, 32, 8, 255]),     // (R4, G5, B2) l = (27/32, 1/8, 1/32)
            p(27, 20, [239, 239, 16, 255]), // (B6, Y3, Y7) l = (1/16, 25/32, 5/32)
        ],
        // Centre W, corners R (bottom left), G, B, Y counter-clockwise.
        "prim/indexed_fan" => vec![
            p(10, 26, [202, 85, 32, 255]),   // (W, R, G) l = (1/8, 2/3, 5/24)
            p(18, 26, [117, 170, 32, 255]),  // (W, R, G) l = (1/8, 1/3, 13/24)
            p(5, 24, [255, 53, 32, 255]),    // (W, Y, R) l = (1/8, 1/12, 19/24)
            p(14, 22, [202, 170, 117, 255]), // (W, R, G) l = (11/24, 1/3, 5/24)
        ],
        "prim/immediate" => vec![
            p(5, 26, [215, 24, 16, 255]),   // (R, G, B) l = (27/32, 3/32, 1/16)
            p(13, 26, [45, 194, 16, 255]),  // (R, G, B) l = (17/96, 73/96, 1/16)
            p(7, 21, [146, 40, 69, 255]),   // (R, G, B) l = (55/96, 5/32, 13/48)
            p(21, 21, [69, 231, 210, 255]), // (Y, C, M) l = (17/96, 35/48, 3/32)
        ],
        "prim/strip_restart" => vec![
            p(16, 16, BG),                 // no triangle joins the two strips
            p(4, 26, [239, 16, 0, 255]),   // (R, R, G) l = (7/8, 1/16, 1/16)
            p(5, 21, [186, 69, 0, 255]),   // (R, R, G) l = (13/24, 3/16, 13/48)
            p(20, 26, [16, 16, 239, 255]), // (B, B, Y) l = (7/8, 1/16, 1/16)
            p(21, 21, [69, 69, 186, 255]), // (B, B, Y) l = (13/24, 3/16, 13/48)
        ],
        "prim/fan_restart" => vec![
            p(16, 16, BG),                   // between the fans: no triangle joins them
            p(11, 21, [202, 85, 32, 255]),   // (W, R, G) l = (1/8, 2/3, 5/24)
            p(4, 14, [53, 85, 223, 255]),    // (W, G, B) l = (5/24, 1/8, 2/3)
            p(20, 21, [255, 202, 85, 255]),  // (W', M, Y) l = (1/8, 5/24, 2/3)
            p(25, 14, [170, 223, 255, 255]), // (W', C, M) l = (13/24, 1/3, 1/8)
        ],
        // The blue triangle is drawn second, over the red one.
        "prim/two_draws" => vec![
            p(4, 27, RED),
            p(9, 23, BLUE),  // in both: the second draw wins
            p(20, 20, BLUE), // clip (0.28, -0.28): blue only
            p(6, 12, RED),   // clip (-0.59, 0.22): x + y < -0.25, y > x: red only
        ],
        // ---- vertex loader ----
        // Only the second triangle (vertices 3-5, green): the red one's area is BG.
        "vl/vertex_offset" => vec![
            p(24, 16, GREEN),
            p(17, 27, GREEN),
            p(8, 16, BG),
            p(4, 26, BG),
        ],
        // 4×4 grid, step 0.5, colour index (k + k / 4) % 4 of R G B Y.
        "vl/vertex_cache" => vec![
            p(4, 27, [223, 32, 0, 255]),   // (R, G, G) l = (7/8, 1/16, 1/16)
            p(13, 27, [0, 191, 64, 255]),  // (G, B, B) l = (3/4, 3/16, 1/16)
            p(21, 27, [64, 64, 191, 255]), // (B, Y, Y) l = (3/4, 3/16, 1/16)
            p(27, 4, [0, 32, 223, 255]),   // (G, G, B) l = (1/16, 1/16, 7/8)
        ],
        // Fixed colour (0, 0.75, 0.25, 1): 0.75 · 255 = 191.25 → 191, 63.75 → 64.
        "vl/fixed_color" => vec![p(16, 16, [0, 191, 64, 255]), p(5, 27, [0, 191, 64, 255])],
        // Short positions / w = 16 = ±0.75; ubyte colours 0 or 1 (not normalised).
        // Strip R (-0.75, -0.75), G (0.75, -0.75), B (-0.75, 0.75), Y (0.75, 0.75).
        "vl/formats" => vec![
            p(10, 26, [170, 69, 16, 255]), // (R, G, B) l = (2/3, 13/48, 1/16)
            p(18, 26, [85, 154, 16, 255]), // (R, G, B) l = (1/3, 29/48, 1/16)
            p(5, 21, [170, 16, 69, 255]),  // (R, G, B) l = (2/3, 1/16, 13/48)
            p(13, 21, [85, 101, 69, 255]), // (R, G, B) l = (1/3, 19/48, 13/48)
        ],
        // ---- rasterizer ----
        // Red (8, 8) (24, 8) (8, 24), green (8, 24) (24, 8) (24, 24) in window pixels: pixel
        // centres (x + 0.5, y + 0.5) lie on the shared diagonal x + y = 32 when x + y = 31,
        // i.e. image column = image row. Top-left rule (rast/setup.rs, Azahar): an edge owns
        // its points when its inward normal has n.x > 0 (or n.x = 0, n.y > 0). The diagonal's
        // inward normal is (-1, -1) for red, (1, 1) for green: green owns it (whichever way
        // y points, n.x decides). The outer edges lie on pixel boundaries: no centre on them.
        "raster/fill_rule" => vec![
            p(8, 8, GREEN),
            p(15, 15, GREEN),
            p(16, 16, GREEN),
            p(23, 23, GREEN),
            p(15, 16, RED), // image column < row: red
            p(8, 23, RED),
            p(9, 8, GREEN),
            p(23, 22, GREEN),
            p(7, 16, BG),
            p(24, 16, BG),
            p(16, 7, BG),
            p(16, 24, BG),
        ],
        // Red at w = 1 (window x 4), green at w = 4 (window x 28): 1/w and colour/w are
        // linear in screen x. At column c, f = (c + 0.5 - 4) / 24 and the green weight is
        // (f/4) / ((1 - f) + f/4) = (2c - 7) / (213 - 6c): column 12 → 17/141 (30.74 → 31,
        // red 124/141 → 224.26 → 224), column 26 → 45/57 (201.32 → 201, red 53.68 → 54).
        "raster/perspective" => vec![p(12, 16, [224, 31, 0, 255]), p(26, 16, [54, 201, 0, 255])],
        // Viewport (8, 8) 16×16: the yellow full-clip quad covers window 8..24 exactly.
        "raster/viewport_offset" => vec![
            p(8, 8, YELLOW),
            p(23, 23, YELLOW),
            p(7, 16, BG),
            p(24, 16, BG),
            p(16, 7, BG),
            p(16, 24, BG),
        ],
        "cull/none" => vec![p(8, 16, RED), p(24, 16, GREEN)],
        // Mode 1 culls counter-clockwise (window y up) triangles: the red one.
        "cull/front_ccw" => vec![p(8, 16, BG), p(24, 16, GREEN)],
        // Mode 2 culls clockwise triangles: the green one.
        "cull/back_ccw" => vec![p(8, 16, RED), p(24, 16, BG)],
        // Mode 3 is undescribed; the model's documented choice (clip.rs `CullMode::from_regs`,
        // UNVERIFIED(hw), Azahar: every mode but 0 and 1 keeps counter-clockwise) culls like 2.
        "cull/reserved_3" => vec![p(8, 16, RED), p(24, 16, BG)],
        "scissor/inside" => vec![p(16, 14, CYAN), p(2, 2, BG)],
        "scissor/outside" => vec![p(16, 14, BG), p(2, 2, CYAN)],
        // ---- clipping: R = the vertex outside, G, B the others; l in the unclipped triangle
        // (clipping keeps the perspective-correct colour field; margin ≥ 0.3 covers the 12.4
        // rounding of the new vertices) ----
        // R (-2, 0), G (0.5, -0.75), B (0.5, 0.75): the part left of x = -1 is cut away.
        "clip/left" => vec![
            p(21, 26, [16, 231, 8, 255]),  // l = (1/16, 29/32, 1/32)
            p(13, 22, [67, 163, 25, 255]), // l = (21/80, 307/480, 47/480)
            p(0, 18, [150, 79, 26, 255]),  // column 0 still drawn: l = (47/80, 149/480, 49/480)
            p(0, 28, BG),
        ],
        "clip/right" => vec![
            p(10, 26, [16, 8, 231, 255]),  // l = (1/16, 1/32, 29/32)
            p(21, 21, [86, 26, 143, 255]), // l = (27/80, 49/480, 269/480)
            p(31, 18, [150, 26, 79, 255]), // column 31 still drawn
            p(31, 28, BG),
        ],
        "clip/bottom" => vec![
            p(10, 26, [118, 10, 127, 255]), // l = (37/80, 19/480, 239/480)
            p(18, 26, [118, 95, 42, 255]),  // l = (37/80, 179/480, 79/480)
            p(13, 31, [150, 26, 79, 255]),  // row 31 still drawn
            p(2, 31, BG),
        ],
        "clip/top" => vec![
            p(5, 21, [16, 231, 8, 255]),  // l = (1/16, 29/32, 1/32)
            p(9, 18, [35, 179, 41, 255]), // l = (11/80, 337/480, 77/480)
            p(13, 0, [150, 79, 26, 255]), // row 0 still drawn
            p(2, 0, BG),
        ],
        // R (0, 0.75) has z = +0.5 (in front of the near plane z = 0), G (-0.75, -0.75) and B
        // (0.75, -0.75) z = -0.5: z = 0 at clip y = 0, so nothing above y = 0 is drawn.
        // clip/far: R at z = -1.5 instead, beyond the far plane z = -w; z + w = 0 at clip
        // y = 0 as well, so the same pixels.
        "clip/near" | "clip/far" => vec![
            p(5, 26, [16, 231, 8, 255]),   // l = (1/16, 29/32, 1/32)
            p(13, 26, [16, 146, 93, 255]), // l = (1/16, 55/96, 35/96)
            p(9, 21, [69, 162, 24, 255]),  // l = (13/48, 61/96, 3/32)
            p(16, 10, BG),                 // clip (0.03, 0.34): inside the unclipped outline
            p(16, 14, BG),                 // clip (0.03, 0.09)
        ],
        // R = (0, -0.5, 0.5, -1) is behind the eye: the visible part is the wedge below
        // G (-0.75, -0.75) and B (0.75, -0.75) between the rays towards -R/|w| (y < -0.75).
        // Dividing R by its w (0, 0.5) would put the triangle over the centre: BG there.
        "clip/w_guard" => vec![
            p(16, 16, BG),
            p(16, 8, BG),
            p(8, 31, [33, 170, 52, 255]),  // l = (7/54, 2/3, 11/54)
            p(23, 31, [33, 52, 170, 255]), // l = (7/54, 11/54, 2/3)
            p(11, 28, [6, 170, 79, 255]),  // l = (1/42, 2/3, 13/42)
        ],
        // User plane x + y ≥ 0: magenta above the anti-diagonal of the image, BG below.
        "clip/user_plane" => vec![
            p(24, 8, MAGENTA),
            p(31, 0, MAGENTA),
            p(20, 12, MAGENTA), // clip (0.28, 0.22)
            p(8, 24, BG),
            p(0, 31, BG),
            p(11, 19, BG), // clip (-0.28, -0.22)
        ],
        // R (-3, -3), G (3, -3), B (0, 3): cut by the four side planes at once.
        "clip/all_planes" => vec![
            p(14, 30, [87, 79, 89, 255]), // l = (131/384, 119/384, 67/192)
            p(1, 1, [83, 6, 166, 255]),   // l = (125/384, 3/128, 125/192)
            p(30, 1, [6, 83, 166, 255]),  // l = (3/128, 125/384, 125/192)
            p(0, 30, [124, 42, 89, 255]), // l = (187/384, 21/128, 67/192)
        ],
        // ---- depth map ----
        // Depth = z/w · -0.5 + 0.25: red quad A 0.5, then green quad B 0.375 with Less: B
        // wins where they overlap (window 12..19).
        "depthmap/scale_offset" => vec![p(16, 15, GREEN), p(6, 25, RED), p(24, 7, GREEN)],
        "depthmap/w_buffer" => vec![p(6, 25, WHITE), p(26, 6, WHITE), p(2, 16, BG)],
        // ---- fragment operations ----
        // Quad B's depth at column 12 is 0.36, below quad A's 0.5.
        "depth/never" => vec![p(12, 16, GREEN)],
        "depth/always" | "depth/less" => vec![p(12, 16, RED)],
        "depth/greater_equal" => vec![p(12, 16, GREEN)],
        // The second pass computes the same depths: Equal passes wherever the first drew.
        "depth/equal" => vec![p(10, 20, BLUE), p(5, 26, BLUE), p(20, 10, BLUE)],
        "depth/test_off_still_writes" => vec![p(12, 16, RED), p(30, 1, BLUE), p(30, 30, BLUE)],
        "depth/write_off" | "fop/depth_buffer_write_off" => {
            vec![p(6, 16, RED), p(20, 16, BLUE)]
        }
        "stencil/mask_equal" => vec![p(16, 16, RED)],
        "stencil/masks" => vec![p(16, 16, GREEN)],
        // Cleared to 0xFE. Left half IncWrap (FF), bottom half IncWrap (left 00, right FF),
        // right half Inc (saturates: bottom FF, top FF), top half Dec (FE), window rows 0-3
        // DecWrap (left FF, right FE), centre window 8..23 Invert (top 01, bottom-left FF,
        // bottom-right 00), inner window 12..19 Zero. Shown: 00 red, 01 green, FE blue,
        // FF yellow (FD cyan nowhere).
        "stencil/ops" => vec![
            p(4, 3, BLUE),     // top left, FE
            p(28, 3, BLUE),    // top right, FE
            p(4, 25, RED),     // bottom left, 00
            p(4, 30, YELLOW),  // bottom-left strip, FF
            p(28, 25, YELLOW), // bottom right, FF (Increment saturated)
            p(28, 30, BLUE),   // bottom-right strip, FE
            p(10, 10, GREEN),  // centre top, !FE = 01
            p(10, 21, YELLOW), // centre bottom left, !00 = FF
            p(21, 21, RED),    // centre bottom right, !FF = 00
            p(16, 15, RED),    // inner square, 00
        ],
        // Grey quad A (window 4..19, depth 0.25), then B (window 12..27, depth 0.75): z-fail
        // Replace 0x80 where A is in front (red), z-pass IncWrap 0 → 1 elsewhere (green).
        "stencil/depth_fail" => vec![
            p(16, 15, RED),
            p(24, 7, GREEN),
            p(6, 25, [128, 128, 128, 255]),
        ],
        // Alpha 0 at (4, 4), 1 at (28, 4), 0.5 at (16, 28) (window), test alpha > 0x80.
        // Window pixel (24, 7): centre (24.5, 7.5) = v0 + s·(24, 0) + t·(12, 24) with
        // t = 3.5/24, s = 18.75/24: alpha = s + 0.5·t = 20.5/24 → 217.81 → 218, passes.
        // Window (6, 5): t = 1.5/24, s = 1.75/24, alpha = 2.5/24 → 27, fails.
        "alpha/greater" => vec![p(24, 24, [255, 255, 255, 218]), p(6, 26, BG)],
        // Alpha 0.5 → 128 (round half away) against reference 0x80: Equal, LessEqual,
        // GreaterEqual and Always pass; Never, NotEqual, Less and Greater fail.
        "alpha/functions" => {
            let y: [u8; 4] = [255, 255, 0, 128];
            grid([BG, y, y, BG, BG, y, BG, y, BG, BG, BG, BG, BG, BG, BG, BG])
        }
        // Blending at (16, 16) and (12, 24) inside the triangle; sums p + q listed per
        // channel (see the conventions above).
        "blend/alpha" => blend_at([143, 88, 64, 191]), // 32640+4064, 16384+6096, 8192+8128, 16384+32385
        "blend/add_one_one" => blend_at([255, 176, 128, 255]), // s + d clamped
        "blend/subtract" => blend_at([223, 80, 0, 0]), // s - d, negative → 0
        "blend/reverse_subtract" => blend_at([0, 0, 0, 127]), // d - s
        "blend/min" => blend_at([32, 48, 64, 128]),
        "blend/max" => blend_at([255, 128, 64, 255]),
        // RGB: s·k + d·(255-k) = 255·64+32·191, 128·128+48·127, 64·192+64·63; alpha
        // 128·128 + 255·127 = 48769 → 191.
        "blend/constant" => blend_at([87, 88, 64, 191]),
        // RGB as blend/alpha; alpha max(128·0, 255·255) / 255 = 255.
        "blend/separate_alpha" => blend_at([143, 88, 64, 255]),
        // Cell i: source factor i, destination factor 1 - a_s = 127 (q = d·127 = 4064, 6096,
        // 8128, 32385). p per cell: 0/9 zero; 1/8 s·255; 2 s·s_c (alpha: 128·128); 3
        // s·(255-s_c); 4 s·d_c; 5 s·(255-d_c); 6/12 s·128; 7/13 s·127; 10 s·k_c; 11
        // s·(255-k_c); 14 RGB s·min(128, 0) = 0, alpha 128·255.
        "blend/src_factors" => grid([
            [15, 23, 31, 127],
            [255, 151, 95, 255],
            [255, 88, 47, 191],
            [15, 87, 79, 190],
            [47, 48, 47, 255],
            [238, 127, 79, 127],
            [143, 88, 64, 191],
            [142, 87, 63, 190],
            [255, 151, 95, 255],
            [15, 23, 31, 127],
            [79, 88, 80, 191],
            [206, 87, 47, 190],
            [143, 88, 64, 191],
            [142, 87, 63, 190],
            [15, 23, 31, 255],
            BG,
        ]),
        // Cell i: source factor a_s = 128 (p = 32640, 16384, 8192, 16384), destination
        // factor i on d.
        "blend/dst_factors" => grid([
            [128, 64, 32, 64],
            [160, 112, 96, 255],
            [160, 88, 48, 192],
            [128, 88, 80, 191],
            [132, 73, 48, 255],
            [155, 103, 80, 64],
            [144, 88, 64, 192],
            [143, 88, 64, 191],
            [160, 112, 96, 255],
            [128, 64, 32, 64],
            [136, 88, 80, 192],
            [151, 88, 47, 191],
            [144, 88, 64, 192],
            [143, 88, 64, 191],
            [128, 64, 32, 255],
            BG,
        ]),
        // Equations 0, 5, 6, 7 with factors one, one: all add (seed 002).
        "blend/equations_5_7" => {
            let add = [255, 176, 128, 255];
            vec![
                p(4, 16, add),
                p(12, 16, add),
                p(20, 16, add),
                p(28, 16, add),
                p(16, 2, BG),
            ]
        }
        // 64×64: 16×16 cells, cell n (i = n % 4, j = n / 4) covers columns 16i.. and image
        // rows 48 - 16j..; colour (3n) % 8 of R G B Y C M W grey. The triangle (window
        // (3.2, 22.4), (60.8, 12.8), (38.4, 60.8)) misses the probed pixels.
        "tile/block8_64" | "tile/block32_64" => vec![
            p(2, 61, RED),
            p(24, 61, YELLOW),
            p(40, 61, WHITE),
            p(62, 61, GREEN),
            p(2, 1, CYAN),
            p(20, 1, [128, 128, 128, 255]),
            p(40, 1, BLUE),
            p(62, 1, MAGENTA),
        ],
        // Yellow XOR the clear colour; alpha 0xFF ^ 0xFF.
        "logic/xor" => vec![p(16, 16, [0xFF ^ BG[0], 0xFF ^ BG[1], BG[2], 0])],
        // s = [FF, 00, FF, 00] (magenta, alpha 0), d = BG [20, 30, 40, FF], op = cell.
        "logic/all_ops" => grid([
            [0x00, 0x00, 0x00, 0x00], // clear
            [0x20, 0x00, 0x40, 0x00], // s & d
            [0xDF, 0x00, 0xBF, 0x00], // s & !d
            [0xFF, 0x00, 0xFF, 0x00], // s
            [0xFF, 0xFF, 0xFF, 0xFF], // set
            [0x00, 0xFF, 0x00, 0xFF], // !s
            [0x20, 0x30, 0x40, 0xFF], // d
            [0xDF, 0xCF, 0xBF, 0x00], // !d
            [0xDF, 0xFF, 0xBF, 0xFF], // !(s & d)
            [0xFF, 0x30, 0xFF, 0xFF], // s | d
            [0x00, 0xCF, 0x00, 0x00], // !(s | d)
            [0xDF, 0x30, 0xBF, 0xFF], // s ^ d
            [0x20, 0xCF, 0x40, 0x00], // !(s ^ d)
            [0x00, 0x30, 0x00, 0xFF], // !s & d
            [0xFF, 0xCF, 0xFF, 0x00], // s | !d
            [0x20, 0xFF, 0x40, 0xFF], // !s | d
        ]),
        // White with only red and alpha written.
        "fop/color_mask" => vec![p(16, 16, [0xFF, BG[1], BG[2], 0xFF])],
        "fop/color_buffer_write_off" => vec![p(16, 16, BG)],
        // ---- formats: see [`format_probes`] for the stored bytes ----
        // The prim/triangle pixel (9, 21) with alpha 0.5: [162, 24, 69, 128]; the white quad
        // at (24, 7); BG at (0, 31). 16-bit formats keep the top bits (truncation) and read
        // back by bit replication: 5 bits v → v << 3 | v >> 2, 6 bits v → v << 2 | v >> 4,
        // 4 bits v → v · 0x11, 1 bit → 0 or 255; RGB565 alpha reads 255.
        "format/rgba8" => vec![p(9, 21, [162, 24, 69, 128]), p(24, 7, WHITE), p(0, 31, BG)],
        // 162 → 20 → 165, 24 → 3 → 24, 69 → 8 → 66, 128 → 1; BG 0x20 → 4 → 33, 0x30 → 6 → 49.
        "format/rgb5a1" => vec![
            p(9, 21, [165, 24, 66, 255]),
            p(24, 7, WHITE),
            p(0, 31, [33, 49, 66, 255]),
        ],
        // Green 6 bits: 24 → 6 → 24, 0x30 → 12 → 48.
        "format/rgb565" => vec![
            p(9, 21, [165, 24, 66, 255]),
            p(24, 7, WHITE),
            p(0, 31, [33, 48, 66, 255]),
        ],
        // 162 → A → AA, 24 → 1 → 11, 69 → 4 → 44, 128 → 8 → 88.
        "format/rgba4" => vec![
            p(9, 21, [0xAA, 0x11, 0x44, 0x88]),
            p(24, 7, WHITE),
            p(0, 31, [0x22, 0x33, 0x44, 0xFF]),
        ],
        // depth_pair with Less: A green (window 4..23, depth 0.5), B red over window 8..27
        // with depth 0.25 + (x + 0.5 - 8) / 40: window column 10 → 5/16 (red), 20 → 9/16
        // (green stays), 25 → 11/16 (red, no A there).
        "format/d16" | "format/d24" | "format/d24s8" => vec![
            p(10, 19, RED),
            p(6, 19, GREEN),
            p(20, 19, GREEN),
            p(25, 19, RED),
        ],
        _ => vec![],
    }
}

/// The two probes of the single-triangle blend scenes.
fn blend_at(rgba: [u8; 4]) -> Vec<Probe> {
    vec![p(16, 16, rgba), p(12, 24, rgba)]
}

/// Whether all four corners of the scene are left at the clear colour.
fn corners_free(name: &str) -> bool {
    !matches!(
        name,
        "scissor/outside"
            | "depth/test_off_still_writes"
            | "depth/write_off"
            | "fop/depth_buffer_write_off"
            | "stencil/ops"
            | "blend/src_factors"
            | "blend/dst_factors"
            | "logic/all_ops"
            | "clip/user_plane"
            | "clip/all_planes"
    ) && !name.starts_with("format/")
        && !name.starts_with("tile/")
}

/// The four corner pixels of a `w`×`h` picture hold the clear colour.
fn corners_bg(w: u32, h: u32) -> Vec<Probe> {
    vec![
        p(0, 0, BG),
        p(w - 1, 0, BG),
        p(0, h - 1, BG),
        p(w - 1, h - 1, BG),
    ]
}

// ---- stored bytes ----

/// Which buffer a [`MemProbe`] reads.
#[derive(Clone, Copy, Debug)]
enum Buf {
    Color,
    Depth,
}

/// Hand-derived bytes of one pixel in memory.
struct MemProbe {
    buf: Buf,
    /// Column and image row (top row first).
    x: u32,
    y: u32,
    bytes: &'static [u8],
}

const fn m(buf: Buf, x: u32, y: u32, bytes: &'static [u8]) -> MemProbe {
    MemProbe { buf, x, y, bytes }
}

/// Byte offset of pixel (column `x`, image row `y`) in a `width`-wide buffer of 8×8 tiles
/// (`block = 8`) or 32×32 blocks (`block = 32`), derived from the layout rule (pica-facts §4,
/// seed 002 / 3dbrew): the buffer is stored top row first, so the memory row is the image row;
/// blocks lie row of blocks after row of blocks, block after block; inside an 8×8 tile the
/// pixel index interleaves x (bits 0, 2, 4) and the row (bits 1, 3, 5). Inside a 32×32 block
/// the same interleave continues over 5 bits (the model's documented choice,
/// fop/fb.rs `BLOCK32_ZORDER`, UNVERIFIED(hw)).
fn tiled_offset(x: u32, y: u32, width: u32, bpp: u32, block: u32) -> u32 {
    let (bx, by) = (x % block, y % block);
    let inner: u32 = (0..5)
        .map(|i| ((bx >> i) & 1) << (2 * i) | ((by >> i) & 1) << (2 * i + 1))
        .sum();
    ((y / block * block) * width + (x / block) * block * block + inner) * bpp
}

/// Expected stored bytes of the format scenes (lowest address first). Colour pixels are
/// little-endian integers with red in the top bits (seed 002 "reverse byte order"): RGBA8
/// bytes a, b, g, r. Depth: little-endian in 2 or 3 bytes, D24S8 stencil in byte 3
/// (seed 000 "stencil is within bit 24-31"). Depth quantization: floor(d · (2^n - 1))
/// (rast/interp.rs `depth_to_uint`, Azahar): 0.5 → 0x7FFF / 0x7FFFFF, 5/16 → 5·2^12 - 5/16
/// → 0x4FFF / 0x4FFFFF, 11/16 → 0xAFFF / 0xAFFFFF. The edge weights of quad B are multiples
/// of 128 (1/256 px²) with 2·area = 102400 < 2^17, so the f24 interpolation of the depth
/// (0.25 · b0 + 0.75 · b1 + ...) / Σb is exact and so is the dyadic quotient.
fn mem_probes(name: &str) -> Vec<MemProbe> {
    use Buf::{Color, Depth};
    match name {
        // [162, 24, 69, 128] = 0xA2184580.
        "format/rgba8" => vec![
            m(Color, 9, 21, &[0x80, 0x45, 0x18, 0xA2]),
            m(Color, 24, 7, &[0xFF; 4]),
        ],
        // 10100 00011 01000 1 = 0xA0D1; the clear colour 00100 00110 01000 1 = 0x2191.
        "format/rgb5a1" => vec![
            m(Color, 9, 21, &[0xD1, 0xA0]),
            m(Color, 0, 31, &[0x91, 0x21]),
        ],
        // 10100 000110 01000 = 0xA0C8.
        "format/rgb565" => vec![
            m(Color, 9, 21, &[0xC8, 0xA0]),
            m(Color, 24, 7, &[0xFF, 0xFF]),
        ],
        "format/rgba4" => vec![m(Color, 9, 21, &[0x48, 0xA1])],
        "format/d16" => vec![
            m(Depth, 10, 19, &[0xFF, 0x4F]),
            m(Depth, 6, 19, &[0xFF, 0x7F]),
            m(Depth, 20, 19, &[0xFF, 0x7F]),
            m(Depth, 25, 19, &[0xFF, 0xAF]),
            m(Depth, 0, 0, &[0xFF, 0xFF]),
        ],
        "format/d24" => vec![
            m(Depth, 10, 19, &[0xFF, 0xFF, 0x4F]),
            m(Depth, 6, 19, &[0xFF, 0xFF, 0x7F]),
            m(Depth, 20, 19, &[0xFF, 0xFF, 0x7F]),
            m(Depth, 25, 19, &[0xFF, 0xFF, 0xAF]),
            m(Depth, 0, 0, &[0xFF, 0xFF, 0xFF]),
        ],
        // Stencil 0x5A written by Replace on z-pass for A and B; where B fails the depth test
        // the z-fail action Keep leaves A's 0x5A.
        "format/d24s8" => vec![
            m(Depth, 10, 19, &[0xFF, 0xFF, 0x4F, 0x5A]),
            m(Depth, 6, 19, &[0xFF, 0xFF, 0x7F, 0x5A]),
            m(Depth, 20, 19, &[0xFF, 0xFF, 0x7F, 0x5A]),
            m(Depth, 25, 19, &[0xFF, 0xFF, 0xAF, 0x5A]),
            m(Depth, 0, 0, &[0xFF, 0xFF, 0xFF, 0x00]),
        ],
        // Red and green cells of the tile picture, RGBA8 bytes a, b, g, r.
        "tile/block8_64" | "tile/block32_64" => vec![
            m(Color, 2, 61, &[0xFF, 0x00, 0x00, 0xFF]),
            m(Color, 62, 61, &[0xFF, 0x00, 0xFF, 0x00]),
            m(Color, 40, 1, &[0xFF, 0xFF, 0x00, 0x00]),
        ],
        // Depth 0.5 (A only) and 3/8 (B: -0.25 · -0.5 + 0.25, exact) in D24S8, stencil 0.
        "depthmap/scale_offset" => vec![
            m(Depth, 6, 25, &[0xFF, 0xFF, 0x7F, 0]),
            m(Depth, 16, 15, &[0xFF, 0xFF, 0x5F, 0]),
        ],
        _ => vec![],
    }
}

/// The bytes of pixel `(x, y)` of `buf` in a rendered scene.
fn stored(r: &Rendered, s: &Scene, buf: Buf, x: u32, y: u32, len: usize) -> Vec<u8> {
    let (base, bpp) = match buf {
        Buf::Color => (COLOR_BASE, s.fb.color_format.bytes_per_pixel()),
        Buf::Depth => (DEPTH_BASE, s.fb.depth_format.bytes_per_pixel()),
    };
    let block = if s.fb.block32 { 32 } else { 8 };
    let addr = base + tiled_offset(x, y, s.fb.width, bpp, block);
    (0..len as u32)
        .map(|i| r.gpu.mem().read_u8(addr + i).unwrap())
        .collect()
}

#[test]
fn scenes_all_build() {
    let built = scenes::try_scenes().unwrap_or_else(|(name, e)| panic!("{name}: {e}"));
    assert_eq!(built.len(), scenes::list().count());
    assert_eq!(scenes::scenes().len(), built.len());
    for (s, (name, desc)) in built.iter().zip(scenes::list()) {
        assert_eq!((s.name(), s.description()), (name, desc));
        assert!(!desc.is_empty() && !desc.contains('\n'), "{name}");
    }
}

#[test]
fn scenes_lists_end_in_finalize_on_16_bytes() {
    for s in scenes::scenes() {
        let c = &s.case;
        assert!(c.pipeline, "{}", c.name);
        assert_eq!(c.submit_size % 16, 0, "{}", c.name);
        let list = &c.images[0].words;
        assert_eq!(c.images[0].base, c.submit_addr, "{}", c.name);
        assert_eq!(list.len() as u32 * 4, c.submit_size, "{}", c.name);
        assert_eq!(
            list[list.len() - 2..],
            [FINALIZE_VALUE, 0x000F_0000 | u32::from(id::FINALIZE)],
            "{}",
            c.name
        );
        assert_eq!(c.stim(), *list, "{}", c.name);
        assert!(c.memory().is_ok(), "{}", c.name);
    }
}

#[test]
fn scenes_framebuffers_are_small_legal_and_cleared() {
    for s in scenes::scenes() {
        let fb = &s.fb;
        let block = if fb.block32 { 32 } else { 8 };
        assert_eq!(fb.width % block, 0, "{}", s.name());
        assert_eq!(fb.height % block, 0, "{}", s.name());
        let limit = if s.name().starts_with("bench/") {
            128
        } else {
            64
        };
        assert!(fb.width <= limit && fb.height <= limit, "{}", s.name());
        let color = s.case.images.iter().find(|i| i.base == COLOR_BASE).unwrap();
        let depth = s.case.images.iter().find(|i| i.base == DEPTH_BASE).unwrap();
        assert_eq!(
            color.words.len() as u32 * 4,
            fb.color_bytes(),
            "{}",
            s.name()
        );
        assert_eq!(
            depth.words.len() as u32 * 4,
            fb.depth_bytes(),
            "{}",
            s.name()
        );
    }
}

/// Every scene runs to its FINALIZE: no hang (an internal error of a stage is a hang with
/// reason `Internal`), no cycle limit, no panic.
#[test]
fn scenes_run_on_the_model_to_the_end() {
    for s in scenes::scenes() {
        let r = render(&s);
        match &r.outcome {
            Outcome::Finished { .. } => {}
            Outcome::Hang {
                reason: HangReason::Internal(msg),
                ..
            } => panic!("{}: internal error: {msg}", s.name()),
            o => panic!("{}: {o}", s.name()),
        }
        // The picture is the framebuffer's size, or empty while FOP's read-back is a stub.
        assert!(
            r.image.rgba.is_empty() || (r.image.width, r.image.height) == (s.fb.width, s.fb.height),
            "{}",
            s.name()
        );
    }
}

/// Hand-derived pixels (and stored bytes) of the scenes [`probes`] lists. Every mismatch is
/// collected before failing, so one run shows them all.
#[test]
fn scenes_render_expected_probes() {
    let mut checked = 0;
    let mut bad = Vec::new();
    for s in scenes::scenes() {
        let mut want = probes(s.name());
        let mem = mem_probes(s.name());
        if want.is_empty() && mem.is_empty() {
            continue;
        }
        if corners_free(s.name()) {
            want.extend(corners_bg(s.fb.width, s.fb.height));
        }
        let r = render(&s);
        assert!(
            matches!(r.outcome, Outcome::Finished { .. }),
            "{}",
            s.name()
        );
        for pr in want {
            let got = pixel(&r.image, pr.x, pr.y);
            if got != Some(pr.rgba) {
                bad.push(format!(
                    "{} at ({}, {}): got {got:?}, want {:?}",
                    s.name(),
                    pr.x,
                    pr.y,
                    pr.rgba
                ));
            }
        }
        for mp in mem {
            let got = stored(&r, &s, mp.buf, mp.x, mp.y, mp.bytes.len());
            if got != mp.bytes {
                bad.push(format!(
                    "{} {:?} bytes at ({}, {}): got {got:02X?}, want {:02X?}",
                    s.name(),
                    mp.buf,
                    mp.x,
                    mp.y,
                    mp.bytes
                ));
            }
        }
        checked += 1;
    }
    assert_no_mismatches(&bad);
    assert!(checked >= 70, "{checked}");
    // Block tiling changes the memory layout, not the picture.
    let a = render(&scenes::scene("tile/block8_64").unwrap()).image;
    let b = render(&scenes::scene("tile/block32_64").unwrap()).image;
    assert_eq!((a.width, a.height), (64, 64));
    assert_eq!(a, b);
}

/// depthmap/w_buffer: with GPUREG_DEPTHMAP_ENABLE = 0 the stored depth is `z_win · w`
/// (`z_win = z/w · scale + offset = -0.5 · -0.25 = 0.125` at every vertex) with `w`
/// perspective-correct: `1/w` is linear in screen x, 1 at window x = 4 and 1/3 at x = 28, so the
/// depth `9 / (79 - 2c)` at column `c` grows from left to right, while the z-buffer form would
/// store 0.125 (0x1FFFFF) everywhere. The exact bits of the w-buffer arithmetic are pinned at the
/// stage (`rast_depth_quantization_d16_d24`); here the scene shows the mode reaches memory.
#[test]
fn scenes_w_buffer_depth_grows_with_w() {
    let s = scenes::scene("depthmap/w_buffer").unwrap();
    let r = render(&s);
    assert!(matches!(r.outcome, Outcome::Finished { .. }));
    let depth = |c: u32| {
        let b = stored(&r, &s, Buf::Depth, c, 16, 4);
        assert_eq!(b[3], 0, "stencil untouched");
        u32::from_le_bytes([b[0], b[1], b[2], 0])
    };
    let d: Vec<u32> = [6u32, 16, 26].into_iter().map(depth).collect();
    assert!(d[0] < d[1] && d[1] < d[2], "{d:x?}");
    // 9/67, 9/47 and 9/27 all lie above 0.125: none is the z-buffer value.
    assert!(d.iter().all(|&x| x > 0x1F_FFFF), "{d:x?}");
}

#[test]
fn scenes_cover_the_issue_list() {
    let names: Vec<&str> = scenes::list().map(|(n, _)| n).collect();
    let has = |n: &str| names.contains(&n);
    let count = |prefix: &str| names.iter().filter(|n| n.starts_with(prefix)).count();
    for n in [
        "prim/triangle",
        "prim/strip",
        "prim/fan",
        "prim/indexed_u8",
        "prim/indexed_u16",
        "prim/immediate",
        "prim/strip_restart",
        "vl/vertex_cache",
        "cull/none",
        "cull/front_ccw",
        "cull/back_ccw",
        "scissor/inside",
        "scissor/outside",
        "clip/left",
        "clip/right",
        "clip/bottom",
        "clip/top",
        "clip/near",
        "clip/far",
        "clip/w_guard",
        "clip/user_plane",
        "format/rgba8",
        "format/rgb5a1",
        "format/rgb565",
        "format/rgba4",
        "format/d16",
        "format/d24",
        "format/d24s8",
        "tile/block32_64",
        "logic/all_ops",
        "bench/many_triangles",
    ] {
        assert!(has(n), "{n}");
    }
    assert!(count("depth/") >= 4);
    assert!(count("stencil/") >= 2);
    assert!(count("blend/") >= 6);
}

/// The benchmark scene: a few thousand triangles in one draw, depth test on.
#[test]
fn scenes_bench_draws_thousands_of_depth_tested_triangles() {
    let s = scenes::scene("bench/many_triangles").unwrap();
    let mut gpu = s.case.gpu().unwrap();
    gpu.set_pipeline(false); // the register writes are what this test reads
    assert!(matches!(gpu.run(10_000_000), Outcome::Finished { .. }));
    let beats = gpu.regwrite_beats();
    let draw = beats
        .iter()
        .position(|w| w.id == u32::from(id::DRAWELEMENTS))
        .unwrap();
    let last = |reg: u16| {
        beats[..draw]
            .iter()
            .rev()
            .find(|w| w.id == u32::from(reg))
            .map(|w| w.value)
            .unwrap()
    };
    let triangles = regs::Numvertices(last(id::NUMVERTICES)).count() / 3;
    assert!((2000..10_000).contains(&triangles), "{triangles}");
    let dc = regs::DepthColorMask(last(id::DEPTH_COLOR_MASK));
    assert!(dc.depth_test_enabled() && dc.depth_write_enabled());
    assert_eq!(dc.depth_function(), regs::CompareFunction::Less);
    assert_eq!(
        regs::PrimitiveConfig(last(id::PRIMITIVE_CONFIG)).primitive_mode(),
        regs::PrimitiveConfigMode::Triangles
    );
    assert_eq!(s.fb.width, 128);
}

#[test]
fn scenes_build_the_same_case_every_time() {
    for (a, b) in scenes::scenes().iter().zip(scenes::scenes()) {
        assert_eq!(*a, b, "{}", a.name());
    }
}

// ---- issue 6: texturing, combiners, lighting, fog, procedural textures ----
//
// Hand-derived pixels of the issue-6 scenes, checked once the TEX, LIGHT, TEV and FOG stages
// are merged (on the stubs textures read 0 and lighting gives 0). Conventions beyond the ones
// above:
//
// - Texel addressing (the encoder's, vectors/src/builder/texture.rs): s = floor(u · w),
//   t = floor(v · h), stored row h - 1 - t; the pictures are given top row first and stored in
//   that order, so v ≈ 1 is the picture's top row and a quad with v growing upwards shows it
//   upright. UNVERIFIED(hw): Azahar's `LookupTexture(.., s, height - 1 - t, ..)` addressing.
// - Texel decoding (3dbrew GPU/Textures; Azahar `texture_decode.cpp`): an n-bit channel v
//   expands to 8 bits by repeating its top bits: 5 bits (v << 3 | v >> 2): 0x40 → 8 → 0x42,
//   0x80 → 16 → 0x84; 6 bits (v << 2 | v >> 4): 0x40 → 16 → 0x41, 0x80 → 32 → 0x82; 4 bits
//   (v · 17): 0x40 → 0x44, 0x80 → 0x88; 1-bit alpha: 0 or 0xFF. RGB888 / RGB565 / I8 / I4 /
//   HILO8 have alpha 0xFF; I and IA formats repeat the intensity in R, G, B; A8 / A4 read
//   (0, 0, 0, a) (UNVERIFIED(hw): Azahar; a fork reads white); HILO8 reads (hi, lo, 0, 0xFF).
// - Nearest sampling: the probes sit at least 1/8 texel away from texel edges, so no f24
//   rounding of the interpolated coordinates can move them to another texel.
// - The format scenes: a full-screen quad, u and v from 0 to 1, an 8×8 texture: pixel column c
//   reads s = floor((c + 0.5) / 4), so the grid cell probe at column 8i + 4 reads texel 2i + 1
//   (1/8 texel inside) and the row probe at 27 - 8j reads t = 2j + 1, stored row 6 - 2j: the
//   picture's cell row 3 - j, which holds PALETTE[i + 4j]: cell n shows PALETTE[n] decoded.
// - The wrap scenes: the quad covers pixels 4-27 with u, v from -1 to 2: column c reads
//   s = c - 12 and image row r reads t = 19 - r (texel centres exactly), then the wrap mode,
//   then stored row 7 - t. The quadrant picture: stored rows 0-3 (top) red | green, rows 4-7
//   blue | white, columns 0-3 | 4-7.
// - Combiner results of the tev scenes: multiplications only by 0 or 0xFF (exact under any
//   rounding), sums and differences clamped to 0..=255; P1 = [255, 128, 64, 255] (left quad,
//   columns 4-15), P2 = [0, 64, 128, 128] (right quad, columns 16-27).
// - Lighting (seed 002 GPUREG_LIGHTING_AMBIENT "initial value of the fragment primary color
//   before the partial colors that correspond to each enabled light are added"): primary =
//   ambient + Σ (light ambient + diffuse · max(L·N, 0) · spot · attenuation), clamped; the flat
//   scenes use N = ±z (quaternion (0,0,0,1) or (1,0,0,0), exact), L = +z exactly (directional
//   (0,0,1), or positional at (0,0,10) with view (0,0,1): L ∥ (0,0,11)), light colours 0 or
//   0xFF and no ambient, so every product is 0 or 255.

/// The palette of the tex scenes, by grid cell.
const PAL: [[u8; 4]; 16] = scenes::tex::PALETTE;

/// The grid of each format scene, cell by cell (PAL encoded and decoded by hand).
fn format_cells(name: &str) -> Option<[[u8; 4]; 16]> {
    // Intensity formats: (i, i, i, a) with i = red.
    let ia = |i: [u8; 16], a: [u8; 16]| -> [[u8; 4]; 16] {
        let mut out = [[0; 4]; 16];
        for n in 0..16 {
            out[n] = [i[n], i[n], i[n], a[n]];
        }
        out
    };
    const RED: [u8; 16] = [
        0xFF, 0, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0x80, 0x40, 0x80, 0, 0xFF, 0x40, 0x80, 0xFF,
    ];
    const ALPHA: [u8; 16] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0x40, 0, 0xFF, 0x80, 0xFF, 0x40, 0xFF, 0x80, 0xFF, 0,
    ];
    // The same in 4 bits (· 17): 0x80 → 0x88, 0x40 → 0x44.
    const RED4: [u8; 16] = [
        0xFF, 0, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0x88, 0x44, 0x88, 0, 0xFF, 0x44, 0x88, 0xFF,
    ];
    const ALPHA4: [u8; 16] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x88, 0x44, 0, 0xFF, 0x88, 0xFF, 0x44, 0xFF, 0x88, 0xFF, 0,
    ];
    Some(match name {
        "tex/rgba8888" | "tex/projection" => PAL,
        // Alpha 0xFF.
        "tex/rgb888" => PAL.map(|[r, g, b, _]| [r, g, b, 0xFF]),
        // 5-bit channels 0x40 → 0x42, 0x80 → 0x84; alpha bit = a >> 7 (0x80 → 1, 0x40 → 0).
        "tex/rgba5551" => [
            [0xFF, 0x00, 0x00, 0xFF],
            [0x00, 0xFF, 0x00, 0xFF],
            [0x00, 0x00, 0xFF, 0xFF],
            [0xFF, 0xFF, 0xFF, 0xFF],
            [0x00, 0x00, 0x00, 0xFF],
            [0xFF, 0xFF, 0x00, 0xFF],
            [0x00, 0xFF, 0xFF, 0x00],
            [0xFF, 0x00, 0xFF, 0x00],
            [0x84, 0x84, 0x84, 0xFF],
            [0x42, 0x42, 0x42, 0xFF],
            [0x84, 0x42, 0x00, 0xFF],
            [0x00, 0x42, 0x84, 0x00],
            [0xFF, 0x84, 0x42, 0xFF],
            [0x42, 0xFF, 0x84, 0xFF],
            [0x84, 0x00, 0xFF, 0xFF],
            [0xFF, 0x42, 0x84, 0x00],
        ],
        // Red and blue 5 bits, green 6 bits (0x40 → 0x41, 0x80 → 0x82), alpha 0xFF.
        "tex/rgb565" => [
            [0xFF, 0x00, 0x00, 0xFF],
            [0x00, 0xFF, 0x00, 0xFF],
            [0x00, 0x00, 0xFF, 0xFF],
            [0xFF, 0xFF, 0xFF, 0xFF],
            [0x00, 0x00, 0x00, 0xFF],
            [0xFF, 0xFF, 0x00, 0xFF],
            [0x00, 0xFF, 0xFF, 0xFF],
            [0xFF, 0x00, 0xFF, 0xFF],
            [0x84, 0x82, 0x84, 0xFF],
            [0x42, 0x41, 0x42, 0xFF],
            [0x84, 0x41, 0x00, 0xFF],
            [0x00, 0x41, 0x84, 0xFF],
            [0xFF, 0x82, 0x42, 0xFF],
            [0x42, 0xFF, 0x84, 0xFF],
            [0x84, 0x00, 0xFF, 0xFF],
            [0xFF, 0x41, 0x84, 0xFF],
        ],
        // 4 bits everywhere.
        "tex/rgba4444" => [
            [0xFF, 0x00, 0x00, 0xFF],
            [0x00, 0xFF, 0x00, 0xFF],
            [0x00, 0x00, 0xFF, 0xFF],
            [0xFF, 0xFF, 0xFF, 0xFF],
            [0x00, 0x00, 0x00, 0xFF],
            [0xFF, 0xFF, 0x00, 0x88],
            [0x00, 0xFF, 0xFF, 0x44],
            [0xFF, 0x00, 0xFF, 0x00],
            [0x88, 0x88, 0x88, 0xFF],
            [0x44, 0x44, 0x44, 0x88],
            [0x88, 0x44, 0x00, 0xFF],
            [0x00, 0x44, 0x88, 0x44],
            [0xFF, 0x88, 0x44, 0xFF],
            [0x44, 0xFF, 0x88, 0x88],
            [0x88, 0x00, 0xFF, 0xFF],
            [0xFF, 0x44, 0x88, 0x00],
        ],
        "tex/ia8" => ia(RED, ALPHA),
        "tex/i8" => ia(RED, [0xFF; 16]),
        "tex/ia44" => ia(RED4, ALPHA4),
        "tex/i4" => ia(RED4, [0xFF; 16]),
        "tex/a8" => ALPHA.map(|a| [0, 0, 0, a]),
        "tex/a4" => ALPHA4.map(|a| [0, 0, 0, a]),
        // (hi, lo, 0, 0xFF) = (red, green, 0, 0xFF).
        "tex/hilo8" => PAL.map(|[r, g, _, _]| [r, g, 0, 0xFF]),
        _ => return None,
    })
}

/// The quadrant picture's colours.
const Q_RED: [u8; 4] = [0xFF, 0, 0, 0xFF];
const Q_GREEN: [u8; 4] = [0, 0xFF, 0, 0xFF];
const Q_BLUE: [u8; 4] = [0, 0, 0xFF, 0xFF];
const Q_WHITE: [u8; 4] = [0xFF; 4];

/// Expected pixels of the issue-6 scenes (see the derivation conventions above).
fn issue6_probe_list(name: &str) -> Vec<Probe> {
    if let Some(cells) = format_cells(name) {
        return grid(cells);
    }
    // The two-quad combiner scenes: left probe (10, 16), right (22, 16), outside (2, 16).
    let tev = |l: [u8; 4], r: [u8; 4]| vec![p(10, 16, l), p(22, 16, r), p(2, 16, BG)];
    match name {
        // ETC1: individual mode, base 0xF → 0xFF or 0 → 0, table 0, index 0 → +2, clamped;
        // blocks red, green (top) / blue, white (bottom), 16×16 pixels each.
        "tex/etc1" => vec![
            p(8, 8, [0xFF, 2, 2, 0xFF]),
            p(24, 8, [2, 0xFF, 2, 0xFF]),
            p(8, 24, [2, 2, 0xFF, 0xFF]),
            p(24, 24, [0xFF; 4]),
        ],
        // ETC1A4 alpha nibbles 15, 8 / 4, 0 → 0xFF, 0x88 / 0x44, 0.
        "tex/etc1a4" => vec![
            p(8, 8, [0xFF, 2, 2, 0xFF]),
            p(24, 8, [2, 0xFF, 2, 0x88]),
            p(8, 24, [2, 2, 0xFF, 0x44]),
            p(24, 24, [0xFF, 0xFF, 0xFF, 0]),
        ],
        // s = c - 12, t = 19 - r, clamped to 0..=7; stored row 7 - t.
        "tex/wrap_clamp_edge" => vec![
            p(5, 5, Q_RED),     // s -7 → 0, t 14 → 7 (row 0)
            p(26, 26, Q_WHITE), // s 14 → 7, t -7 → 0 (row 7)
            p(15, 15, Q_RED),   // s 3, t 4 (row 3)
            p(16, 16, Q_WHITE), // s 4, t 3 (row 4)
            p(26, 5, Q_GREEN),
            p(5, 26, Q_BLUE),
            p(2, 2, BG),
        ],
        // Outside 0..=7 in s or t: the border colour 0x40, 0x80, 0xC0, 0xFF.
        "tex/wrap_clamp_border" => vec![
            p(5, 5, [0x40, 0x80, 0xC0, 0xFF]),
            p(26, 16, [0x40, 0x80, 0xC0, 0xFF]), // s 14
            p(16, 26, [0x40, 0x80, 0xC0, 0xFF]), // t -7
            p(15, 15, Q_RED),
            p(16, 15, Q_GREEN),
            p(15, 16, Q_BLUE),
            p(16, 16, Q_WHITE),
        ],
        // s, t mod 8.
        "tex/wrap_repeat" => vec![
            p(5, 5, Q_RED),     // s 1, t 6 (row 1)
            p(9, 9, Q_WHITE),   // s 5, t 2 (row 5)
            p(22, 22, Q_RED),   // s 2, t 5 (row 2)
            p(22, 9, Q_BLUE),   // s 2, t 2
            p(9, 22, Q_GREEN),  // s 5, t 5
            p(26, 26, Q_WHITE), // s 6, t 1
        ],
        // s mod 16, then 15 - s from 8 on.
        "tex/wrap_mirror" => vec![
            p(5, 5, Q_WHITE),  // s -7 → 9 → 6, t 14 → 1 (row 6)
            p(9, 9, Q_RED),    // s -3 → 13 → 2, t 10 → 5 (row 2)
            p(22, 9, Q_GREEN), // s 10 → 5, t 5 (row 2)
            p(9, 22, Q_BLUE),  // s 2, t -3 → 13 → 2 (row 5)
            p(16, 16, Q_WHITE),
        ],
        // 3 pixels a texel: column 3i + 5 and row 26 - 3j are texel centres; the probed
        // texels' 3×3 neighbourhoods are one colour, so any bilinear weights give it.
        "tex/linear" => vec![
            p(8, 8, Q_RED),     // s 1, t 6 (row 1)
            p(23, 8, Q_GREEN),  // s 6, t 6
            p(8, 23, Q_BLUE),   // s 1, t 1 (row 6)
            p(23, 23, Q_WHITE), // s 6, t 1
            p(2, 2, BG),
        ],
        // 64×64. 64 texels on 32, 16 and 8 pixels: LOD exactly 1, 2, 3 → green, blue, white;
        // the floor's near edge (row 31): about one texel a pixel, LOD < 0.1 → level 0, red.
        "tex/mipmap" => vec![
            p(16, 48, [0, 0xFF, 0, 0xFF]),
            p(40, 56, [0, 0, 0xFF, 0xFF]),
            p(52, 60, [0xFF; 4]),
            p(60, 60, BG),
            p(32, 31, [0xFF, 0, 0, 0xFF]),
        ],
        // Cells 4-9 sample +X red, -X green, +Y blue, -Y yellow, +Z cyan, -Z magenta (the
        // major axis of (±1, 0.25, 0.25) etc.).
        "tex/cube" => {
            let mut v: Vec<Probe> = [RED, GREEN, BLUE, YELLOW, CYAN, MAGENTA]
                .into_iter()
                .enumerate()
                .map(|(i, c)| {
                    let (x, y) = cell_px(4 + i as u32);
                    p(x, y, c)
                })
                .collect();
            let (x, y) = cell_px(0);
            v.push(p(x, y, BG));
            // The hemisphere's middle (clip (0.53, 0.53), 0.03 from its centre): normal about
            // (0.07, 0.07, 0.99), major axis +z: cyan.
            v.push(p(24, 7, CYAN));
            v
        }
        // Texture 0 red 0xFF | 0x40 (left | right), texture 1 green 0x80 / 0xFF (top /
        // bottom), texture 2 blue 0x40: sums, alpha texture 0's.
        "tex/three_units" => vec![
            p(8, 8, [0xFF, 0x80, 0x40, 0xFF]),
            p(24, 8, [0x40, 0x80, 0x40, 0xFF]),
            p(8, 24, [0xFF, 0xFF, 0x40, 0xFF]),
            p(24, 24, [0x40, 0xFF, 0x40, 0xFF]),
        ],
        // COLORS[round(u · 7)], u = (c + 0.5) / 32 (the colour index is the mapped value ×
        // (width - 1) + offset, and the nearest filter rounds it, halves up — Azahar
        // `sw_proctex.cpp` `std::round`; UNVERIFIED(hw)): c 1 → 0.33 → 0, 10 → 2.30 → 2,
        // 16 → 3.61 → 4, 20 → 4.48 → 4, 30 → 6.67 → 7.
        "proctex/u_clamp_edge" => vec![
            p(1, 16, [0xFF, 0, 0, 0xFF]),
            p(10, 16, [0, 0, 0xFF, 0xFF]),
            p(16, 16, [0xFF, 0xFF, 0, 0x80]),
            p(20, 16, [0xFF, 0xFF, 0, 0x80]),
            p(30, 16, [0x80, 0x80, 0x80, 0]),
        ],
        // Strips (top to bottom, 8 rows each) at LOD 0, 1, 1.5 and 3 of a colour table
        // whose level L is COLORS[L]: red; green; levels 1 and 2 blended with weight 128 of
        // 256, (255·128 + 0·128 + 128) >> 8 = 128 in green and blue, alpha 255; white.
        "proctex/mipmap" => vec![
            p(16, 4, RED),
            p(16, 12, GREEN),
            p(16, 20, [0, 128, 128, 0xFF]),
            p(3, 20, [0, 128, 128, 0xFF]),
            p(16, 28, WHITE),
        ],
        "tev/replace_constant" => tev([0x40, 0x80, 0xFF, 0xFF], [0x40, 0x80, 0xFF, 0xFF]),
        // × (0xFF, 0, 0xFF, 0xFF).
        "tev/modulate" => tev([0xFF, 0, 0x40, 0xFF], [0, 0, 0x80, 0x80]),
        // + (0x40, 0x80, 0x80, 0x40).
        "tev/add" => tev([0xFF, 0xFF, 0xC0, 0xFF], [0x40, 0xC0, 0xFF, 0xC0]),
        // + (0x40, 0x80, 0x80, 0x40) - 0x80: 255 + 64 - 128 = 191 ...; 0 + 64 - 128 → 0.
        "tev/add_signed" => tev([0xBF, 0x80, 0x40, 0xBF], [0, 0x40, 0x80, 0x40]),
        // Red 0xFF → the constant, red 0 → the primary colour (alpha likewise).
        "tev/interpolate" => tev([0x40, 0x80, 0x80, 0x40], [0, 0x40, 0x80, 0x80]),
        // - (0x40, 0x80, 0x80, 0x40), clamped at 0.
        "tev/subtract" => tev([0xBF, 0, 0, 0xBF], [0, 0, 0, 0x40]),
        // Dot3 with (0xFF, 0xFF, 0): left 4·(0.5·0.5 + 0.002·0.5 + 0.25·0.5) > 1 → 0xFF,
        // right 4·(-0.5·0.5 - 0.25·0.5 - 0.002·0.5) < 0 → 0 (in units of (2c - 255) / 255).
        "tev/dot3_rgb" => tev([0xFF; 4], [0, 0, 0, 0x80]),
        "tev/dot3_rgba" => tev([0xFF; 4], [0, 0, 0, 0]),
        // P · (0xFF, 0, 0xFF, 0xFF) + P.
        "tev/multiply_add" => tev([0xFF, 0x80, 0x80, 0xFF], [0, 0x40, 0xFF, 0xFF]),
        // (P + (0x40, 0x40, 0x40, 0)) · 0xFF.
        "tev/add_multiply" => tev([0xFF, 0xC0, 0x80, 0xFF], [0x40, 0x80, 0xC0, 0x80]),
        // (P + 0x10) · 2, clamped.
        "tev/scale_2x" => tev([0xFF, 0xFF, 0xA0, 0xFF], [0x20, 0xA0, 0xFF, 0xFF]),
        // P · 4 in RGB.
        "tev/scale_4x" => tev([0xFF; 4], [0, 0xFF, 0xFF, 0x80]),
        // Stage 2 adds the previous stage (P) and the previous buffer, which holds stage 0's
        // (0x40, 0x40, 0x40, 0): UPDATE_BUFFER bit 8 + i lets stage i's output into the buffer
        // that stages i + 2 on read (stage i + 1 still reads the buffer before it: Azahar's
        // `combiner_buffer` / `next_combiner_buffer`; UNVERIFIED(hw)).
        "tev/buffer" => tev([0xFF, 0xC0, 0x80, 0xFF], [0x40, 0x80, 0xC0, 0x80]),
        // P + 6 · 0x10 in RGB.
        "tev/six_stages" => tev([0xFF, 0xE0, 0xA0, 0xFF], [0x60, 0xA0, 0xE0, 0x80]),
        // |N·L| = 1 two-sided, max(N·L, 0) = 0 one-sided; diffuse (0xFF, 0, 0xFF).
        "light/two_sided" => tev([0xFF, 0, 0xFF, 0xFF], [0, 0, 0, 0xFF]),
        // Light 0 cut to 0 (spot LUT 0 / attenuation LUT 0), light 1 green at N·L = 1.
        // Receiver (pixels 4-27, white, light-space depth 0.5: z_int = floor(0.5 · 0xFFFFFF) =
        // 0x7FFFFF) modulated by the shadow texture. Behind the opaque occluder (pixels 8-15)
        // the map holds its depth, about 0.25 · 0xFFFFFF < z_int: shadowed, texel 0, so
        // [0, 0, 0, 0]; behind the translucent one (16-23) the depth is still 0xFFFFFF >= z_int
        // and the intensity 128: 255 · 128 / 255 = 128 in every channel; elsewhere intensity
        // 255: white.
        "shadow/map" => vec![
            p(12, 16, [0, 0, 0, 0]),
            p(12, 9, [0, 0, 0, 0]),
            p(20, 16, [128, 128, 128, 128]),
            p(6, 16, WHITE),
            p(16, 25, WHITE),
            p(2, 2, BG),
        ],
        "light/spot" | "light/attenuation" => vec![p(16, 16, GREEN), p(2, 2, BG)],
        // The floor under a light at the eye: pixel (px, py) is view point (x, y, -1) with
        // x = (px + 0.5 - 16) / 12, y = (31 - py + 0.5 - 16) / 12, L = (-x, -y, 1), N = +z, so
        // N·L = cos = 1 / |L|. Spot: SP0 = 0.75 where floor(cos · 256) >= 205, colour
        // round(255 · cos · 0.75):
        //   (16, 16): x = y = 1/24, |L| = 1.001735, cos 0.998268 → 190.92 → 191;
        //   (16, 10): x = 1/24, y = 0.458333, cos 0.908413 (index 232) → 173.73 → 174;
        //   (12, 12): x = -0.291667, y = 0.291667, cos 0.924445 → 176.80 → 177;
        //   (16, 5): cos 0.752207, index 192 < 205 → 0; (5, 5): cos 0.628539 → 0.
        // Alpha: the vertex colour's, 255.
        "light/spot_cone" => vec![
            p(16, 16, [191, 191, 191, 0xFF]),
            p(16, 10, [174, 174, 174, 0xFF]),
            p(12, 12, [177, 177, 177, 0xFF]),
            p(16, 5, [0, 0, 0, 0xFF]),
            p(5, 5, [0, 0, 0, 0xFF]),
            p(2, 2, BG),
        ],
        // Attenuation: input t = 0.5 · |L|, entry i = floor(256 t), fraction d = 256 t - i,
        // DA = (4095 - 16 i - 16 d) / 4096, colour round(255 · cos · DA):
        //   (16, 16): t 0.500867, i 128, d 0.222 → DA 0.498889 → 126.996 → 127;
        //   (16, 10): t 0.550410, i 140, d 0.905 → DA 0.449346 → 104.09 → 104;
        //   (12, 12): t 0.540865, i 138, d 0.461 → DA 0.458891 → 108.18 → 108;
        //   (16, 5): t 0.664711, i 170, d 0.166 → DA 0.335045 → 64.27 → 64;
        //   (5, 5): t 0.795495, i 203, d 0.647 → DA 0.204261 → 32.74 → 33.
        "light/attenuation_falloff" => vec![
            p(16, 16, [127, 127, 127, 0xFF]),
            p(16, 10, [104, 104, 104, 0xFF]),
            p(12, 12, [108, 108, 108, 0xFF]),
            p(16, 5, [64, 64, 64, 0xFF]),
            p(5, 5, [33, 33, 33, 0xFF]),
        ],
        // FR LUT 0 → primary alpha 0; diffuse (0xFF, 0, 0xFF).
        "light/fresnel" => vec![p(16, 16, [0xFF, 0, 0xFF, 0]), p(2, 2, BG)],
        // Slots 0-2 = lights 5 (red), 2 (green), 7 (black); light 0 (blue) in no slot.
        "light/multiple" => vec![p(16, 16, YELLOW), p(2, 2, BG)],
        // Depth 0.125 + 0.75 (c + 0.5) / 32: columns 1 and 3 → LUT index 20.5, 26.5 (< 32:
        // factor 0, the fog colour); z flip: index from 1 - depth, columns 30 and 28 → 20.5,
        // 26.5.
        "fog/linear" => vec![
            p(1, 16, [0x40, 0x80, 0xC0, 0xFF]),
            p(3, 5, [0x40, 0x80, 0xC0, 0xFF]),
        ],
        "fog/zflip" => vec![
            p(30, 16, [0x40, 0x80, 0xC0, 0xFF]),
            p(28, 5, [0x40, 0x80, 0xC0, 0xFF]),
        ],
        // Gas accumulation (pica_model::fop::gas, UNVERIFIED(hw)): the floor leaves
        // [64, 64, 64, 255] at depth floor(0.75 · 0xFFFFFF) = 0xBFFFFF; each particle adds
        // ρ = 128 (0.5) to red and floor(128 · X) to green, X = |z − zs| / 2^24 (k = 1.0, gas
        // depth function less: f = X). Particle depths 0.25, 0.5, 0.875 → 0x3FFFFF, 0x7FFFFF,
        // 0xDFFFFF, so X = 1/2, 1/4, 1/8 → 64, 32, 16. The depths are exact: the edge weights
        // at pixel centres are multiples of 2048 (quads, 2·area = 2^16) or 4096 (floor, 2^18),
        // so every f24 step of the constant depth's interpolation is exact. Quad 1 covers
        // columns 4-19 / rows 12-27, quad 2 8-23 / 8-23, quad 3 12-27 / 4-19.
        // (26, 5): quad 3 only, behind the floor — it still lands (a pass/fail reading of
        // "less" would have discarded it): red 64 + 128, green 64 + 16.
        // (5, 26): quad 1 only: 192, 64 + 64. (16, 16): all three: red 64 + 3 · 128 → 255
        // (saturated), green 64 + 64 + 32 + 16 = 176.
        // gas/two_pass shades gas/density's buffer (the texels above; outside the particles
        // the floor's [64, 64, 64, 255]) with the depth density ρ = green, ACCMAX 1 so
        // dn = ρ; light = min(255, ip + iv·0x80/255) with ip = iv = max(0x20, 0xE0 −
        // dn·0x40/255) (each product / 255 truncated); LUT by density: entry i = dn >> 5,
        // colour C[i] = (0x20 i + 0x1F, same, 0x80 + 0x10 i) plus the difference +16/127 of
        // full scale times (dn & 31)/32, truncated; RGB = colour · light / 255; alpha =
        // floor(dn · 0.5).
        //   (16, 16): dn 176: ip 224 − 44 = 180, light 180 + 90 → 255; i 5, f 16: step
        //     16·255·16 / (127·32) = 16 → (0xBF + 16, 0xBF + 16, 0xD0 + 16); alpha 88.
        //   (5, 26): dn 128: ip 224 − 32 = 192, light 192 + 96 → 255; i 4, f 0 → C[4] =
        //     (0x9F, 0x9F, 0xC0); alpha 64.
        //   (26, 5): dn 80: ip 224 − 20 = 204, light → 255; i 2, f 16: (0x5F + 16, same,
        //     0xA0 + 16); alpha 40.
        //   (1, 1): the floor, dn 64: ip 208, light → 255; i 2, f 0: (0x5F, 0x5F, 0xA0);
        //     alpha 32.
        "gas/two_pass" => vec![
            p(16, 16, [207, 207, 224, 88]),
            p(5, 26, [159, 159, 192, 64]),
            p(26, 5, [111, 111, 176, 40]),
            p(1, 1, [95, 95, 160, 32]),
        ],
        "gas/density" => vec![
            p(26, 5, [192, 80, 64, 255]),
            p(5, 26, [192, 128, 64, 255]),
            p(16, 16, [255, 176, 64, 255]),
        ],
        _ => vec![],
    }
}

/// The issue-6 scenes' hand-derived pixels, derived from the documented rules independently of
/// the TEX, LIGHT, TEV and FOG code.
#[test]
fn issue6_probes() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for s in scenes::scenes() {
        let want = issue6_probe_list(s.name());
        if want.is_empty() {
            continue;
        }
        let r = render(&s);
        assert!(
            matches!(r.outcome, Outcome::Finished { .. }),
            "{}",
            s.name()
        );
        for pr in want {
            let got = pixel(&r.image, pr.x, pr.y);
            if got != Some(pr.rgba) {
                bad.push(format!(
                    "{} at ({}, {}): got {got:02X?}, want {:02X?}",
                    s.name(),
                    pr.x,
                    pr.y,
                    pr.rgba
                ));
            }
        }
        checked += 1;
    }
    assert_no_mismatches(&bad);
    assert!(checked >= 40, "{checked}");
}

/// Every issue-6 area has scenes, and every scene with probes exists (a renamed scene must not
/// silently drop its probes).
#[test]
fn issue6_scenes_cover_the_areas_and_probes_name_scenes() {
    let names: Vec<&str> = scenes::list().map(|(n, _)| n).collect();
    for f in [
        "rgba8888", "rgb888", "rgba5551", "rgb565", "rgba4444", "ia8", "hilo8", "i8", "a8", "ia44",
        "i4", "a4", "etc1", "etc1a4",
    ] {
        assert!(names.contains(&format!("tex/{f}").as_str()), "tex/{f}");
    }
    for n in [
        "tex/wrap_clamp_edge",
        "tex/wrap_clamp_border",
        "tex/wrap_repeat",
        "tex/wrap_mirror",
        "tex/linear",
        "tex/mipmap",
        "tex/cube",
        "tex/projection",
        "tex/three_units",
        "proctex/mipmap",
        "light/spot",
        "light/attenuation",
        "light/spot_cone",
        "light/attenuation_falloff",
        "light/two_sided",
        "light/fresnel",
        "light/bump",
        "light/multiple",
        "fog/linear",
        "fog/zflip",
        "gas/density",
        "gas/shading",
        "gas/two_pass",
        "shadow/map",
        "bench/textured_lit",
    ] {
        assert!(names.contains(&n), "{n}");
    }
    let count = |prefix: &str| names.iter().filter(|n| n.starts_with(prefix)).count();
    assert!(count("light/config") == 8);
    assert!(count("proctex/") >= 4);
    assert!(count("tev/") >= 10);
    let probed = names
        .iter()
        .filter(|n| !issue6_probe_list(n).is_empty())
        .count();
    assert!(probed >= 40, "{probed}");
}

/// bench/textured_lit: 128×128, texture unit 0 RGBA8 bilinear, lighting with two lights, two
/// modulating combiner stages, and 16-32 thousand fragments (a full-screen quad of 16 384 and
/// a hemisphere of radius 48 pixels in front, about 7 200).
#[test]
fn issue6_bench_textured_lit_setup() {
    let s = scenes::scene("bench/textured_lit").unwrap();
    assert_eq!((s.fb.width, s.fb.height), (128, 128));
    let mut gpu = s.case.gpu().unwrap();
    gpu.set_pipeline(false);
    assert!(matches!(gpu.run(10_000_000), Outcome::Finished { .. }));
    let r = |id: u16| gpu.regs().reg(id.into());
    assert!(regs::TexunitConfig(r(id::TEXUNIT_CONFIG)).texture0_enabled());
    let p = regs::TexunitParam(r(id::TEXUNIT0_PARAM));
    assert_eq!(p.mag_filter(), regs::TexunitParamFilter::Linear);
    assert_eq!(
        regs::TexunitType(r(id::TEXUNIT0_TYPE)).format(),
        regs::TexunitTypeFormat::Rgba8888
    );
    assert_eq!(r(id::LIGHTING_ENABLE0), 1);
    assert_eq!(
        regs::LightingNumLights(r(id::LIGHTING_NUM_LIGHTS)).num_lights_minus_1(),
        1
    );
    for stage in [id::TEXENV0_COMBINER, id::TEXENV1_COMBINER] {
        assert_eq!(
            regs::TexenvCombiner(r(stage)).rgb_combine(),
            regs::TexenvCombinerMode::Modulate
        );
    }
    // Fragments: the quad covers every pixel; the hemisphere's 96 triangles cover a 16-gon of
    // radius 48 px: area 16/2 · 48² · sin(22.5°) ≈ 7 055.
    let quad = 128 * 128;
    let disc = (8.0 * 48.0f64 * 48.0 * (std::f64::consts::PI / 8.0).sin()) as u32;
    assert!(
        (16_000..=32_000).contains(&(quad + disc)),
        "{}",
        quad + disc
    );
}

/// bench/frame_400x240 (issue 19): a 400×240 frame of 3136 torus triangles over a textured
/// background, one of the large scenes (found by name, not iterated by [`scenes::list`]).
#[test]
fn bench_frame_400x240_is_a_lit_textured_torus_over_a_textured_background() {
    use pica_vectors::scenes::bench::{frame_background, FRAME_SIZE};
    let name = "bench/frame_400x240";
    assert!(scenes::list().all(|(n, _)| n != name));
    assert!(scenes::list_large().any(|(n, _)| n == name));
    let s = scenes::scene(name).unwrap();
    assert_eq!((s.fb.width, s.fb.height), FRAME_SIZE);
    assert_eq!((s.fb.width % 8, s.fb.height % 8), (0, 0));
    let r = render(&s);
    assert!(
        matches!(r.outcome, Outcome::Finished { .. }),
        "{}",
        r.outcome
    );
    let stats = r.gpu.pipeline_stats();
    assert_eq!(stats.draws, 2);
    // The background quad (2) and the torus (3136).
    assert_eq!(stats.triangles, 2 + 3136);
    // Every pixel once for the background, the torus's visible and hidden layers on top.
    assert!(stats.fragments > 400 * 240 + 20_000, "{}", stats.fragments);
    // Background pixels, away from the torus: lighting off, stage 0 = texture 0 × white, the
    // texture sampled nearest at one texel per pixel (u = (x + 0.5) / 400 · 6.25 · 64 texels
    // = x + 0.5, likewise v, so f24 truncation cannot move the texel). v = 0 is the texture's
    // bottom row and image row r is window row 239 - r: texel column x mod 64, row from the
    // top 63 - (239 - r) mod 64. RGB565 keeps the top 5/6/5 bits, decoding replicates them.
    let rgb565 = |c: [u8; 4]| {
        let (r5, g6, b5) = (c[0] >> 3, c[1] >> 2, c[2] >> 3);
        [r5 << 3 | r5 >> 2, g6 << 2 | g6 >> 4, b5 << 3 | b5 >> 2, 255]
    };
    let bg = |x: u32, r: u32| rgb565(frame_background(x % 64, 63 - (239 - r) % 64));
    for (x, y) in [
        (0, 0),
        (399, 0),
        (0, 239),
        (399, 239),
        (10, 120),
        (390, 120),
        (200, 225),
    ] {
        assert_eq!(pixel(&r.image, x, y), Some(bg(x, y)), "({x}, {y})");
    }
    // The torus covers the top of its ring (image column 200, rows 40-60): lit and textured,
    // not background.
    for y in [40, 50, 60] {
        assert_ne!(pixel(&r.image, 200, y), Some(bg(200, y)), "(200, {y})");
    }
}

/// Fails listing every mismatch.
fn assert_no_mismatches(bad: &[String]) {
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
