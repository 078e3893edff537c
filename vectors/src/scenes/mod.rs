//! The scene library: small scenes built with the [`Builder`], each aimed at one behaviour of
//! the geometry and fragment pipeline, named `area/what` like the cases of [`crate::library`].
//!
//! Conventions (every scene unless it says otherwise):
//! - framebuffer 32×32, RGBA8 colour, D24S8 depth-stencil, 8×8 blocks, cleared to [`BG`]
//!   with depth at the far plane and stencil 0;
//! - the [`Builder::standard`] setup: pass-through vertex shader (positions in clip space,
//!   colours in [0, 1]), full viewport, depth = -z/w, no test, colour writes on, blending
//!   `src * 1 + dst * 0`;
//! - positions with w = 1 and z = -0.5 ([`crate::builder::DEFAULT_Z`]); a triangle listed
//!   (x0, y0), (x1, y1), (x2, y2) counter-clockwise in clip space with y up is "CCW";
//! - colours 0, 0.25, 0.5, 0.75 or 1, so that an expected pixel can be derived by hand.
//!
//! `scenes()` builds every scene (a few milliseconds); [`list`] gives the names and
//! descriptions without building.

mod basic;
pub mod bench;
pub mod driver;
mod fog;
mod fragment;
mod gas;
pub mod gs;
mod light;
mod proctex;
mod raster;
mod shadow;
pub mod tev;
pub mod tex;
mod vertex;

use crate::builder::{BuildError, Builder, Clear, FbConfig, Scene, Vertex};
use pica_model::regs::PrimitiveConfigMode;

/// The clear colour of the scenes: dark blue-grey, opaque.
pub const BG: [u8; 4] = [0x20, 0x30, 0x40, 0xFF];

/// Red.
pub const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
/// Green.
pub const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
/// Blue.
pub const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
/// White.
pub const WHITE: [f32; 4] = [1.0, 1.0, 1.0, 1.0];
/// Yellow.
pub const YELLOW: [f32; 4] = [1.0, 1.0, 0.0, 1.0];
/// Cyan.
pub const CYAN: [f32; 4] = [0.0, 1.0, 1.0, 1.0];
/// Magenta.
pub const MAGENTA: [f32; 4] = [1.0, 0.0, 1.0, 1.0];

type SceneFn = fn() -> Result<Builder, BuildError>;

/// Every scene: name, description, builder function. Order: by area, then as listed.
const SCENES: &[(&str, &str, SceneFn)] = &[
    // -- primitives --
    ("prim/triangle", "one triangle with red, green and blue corners (draw arrays)", basic::triangle),
    ("prim/strip", "a triangle strip of six vertices: four triangles of alternating winding", basic::strip),
    ("prim/fan", "a triangle fan of six vertices around the centre: four triangles", basic::fan),
    ("prim/indexed_u8", "a 3x3-vertex mesh drawn as indexed triangles with u8 indices", basic::indexed_u8),
    ("prim/indexed_u16", "a 17x17-vertex mesh (289 vertices) drawn as indexed triangles with u16 indices on 64x64", basic::indexed_u16),
    ("prim/indexed_strip", "a two-row mesh drawn as an indexed triangle strip (u16)", basic::indexed_strip),
    ("prim/indexed_fan", "an indexed triangle fan (u8) around the centre", basic::indexed_fan),
    ("prim/immediate", "two triangles submitted in immediate mode (FIXEDATTRIB_INDEX = 0xF)", basic::immediate),
    ("prim/strip_restart", "an immediate-mode strip, RESTART_PRIMITIVE, and a second strip: no triangle joins them", basic::strip_restart),
    ("prim/fan_restart", "an immediate-mode fan, RESTART_PRIMITIVE, and a second fan with its own centre", basic::fan_restart),
    ("prim/two_draws", "two draw-arrays calls from two vertex arrays, the second over the first", basic::two_draws),
    // -- vertex loader --
    ("vl/vertex_offset", "draw arrays from vertex 3 of six (VERTEX_OFFSET): only the second triangle", vertex::vertex_offset),
    ("vl/vertex_cache", "an indexed mesh whose triangles share vertices, post-vertex cache of 4 entries", vertex::vertex_cache),
    ("vl/fixed_color", "the colour attribute from a fixed attribute (GPUREG_FIXEDATTRIB_INDEX 1)", vertex::fixed_color),
    ("vl/formats", "short x4 positions (w = 16) with 8-byte padding, ubyte x4 colours in a second buffer", vertex::formats),
    ("vl/missing_components", "float x3 positions and byte x3 colours: w and alpha default to 1", vertex::missing_components),
    ("vl/padding", "one buffer with every padding code (4, 8, 12, 16 bytes) between the attributes", vertex::padding),
    ("vl/permutation", "colour stored as attribute 0 and position as attribute 1, swapped by the permutation", vertex::permutation),
    // -- geometry shader (set up in libctru's order: GEOSTAGE_CONFIG first) --
    ("gs/subdivide", "point-mode GS (six inputs): one triangle subdivided at its midpoints into three corner triangles, red, green, blue, the middle left open", gs::subdivide),
    ("gs/particles", "fixed-mode GS (one vertex at c0-c1): three vertices become squares, additive blending (src + dst), two overlapping", gs::particles),
    ("gs/variable", "variable-mode GS: an index buffer with counts (a triangle of 3, a quad of 4) drawn as fans in their first vertex's colour", gs::variable),
    ("gs/draw_reset", "point-mode GS: a draw leaves its input buffer a vertex short, then an immediate-mode batch subdivides a whole triangle", gs::draw_reset),
    ("vsh/lit_grid", "a 5x5-vertex grid lit per vertex: transform, RSQ, three lights in a LOOP over aL, CALL, IFU (right half posterised by an IFU)", vertex::lit_grid),
    // -- rasterizer --
    ("raster/fill_rule", "two triangles sharing a diagonal and pixel-aligned edges: top-left rule", raster::fill_rule),
    ("raster/perspective", "a quad with w from 1 to 4: perspective-correct colour interpolation", raster::perspective),
    ("raster/viewport_offset", "a full-clip-space quad in a 16x16 viewport at (8, 8)", raster::viewport_offset),
    ("cull/none", "a CCW and a CW triangle, culling off: both drawn", raster::cull_none),
    ("cull/front_ccw", "a CCW and a CW triangle, FACECULLING_CONFIG = 1", raster::cull_front_ccw),
    ("cull/back_ccw", "a CCW and a CW triangle, FACECULLING_CONFIG = 2", raster::cull_back_ccw),
    ("cull/reserved_3", "a CCW and a CW triangle, FACECULLING_CONFIG = 3 (undescribed by the seed)", raster::cull_reserved_3),
    ("scissor/inside", "a full-screen quad, scissor mode 3 (inside) with the rectangle (8, 8) 16x12", raster::scissor_inside),
    ("scissor/outside", "a full-screen quad, scissor mode 1 (outside) with the rectangle (8, 8) 16x12", raster::scissor_outside),
    ("clip/left", "a triangle reaching x = -2w: clipped against the left plane", raster::clip_left),
    ("clip/right", "a triangle reaching x = 2w: clipped against the right plane", raster::clip_right),
    ("clip/bottom", "a triangle reaching y = -2w: clipped against the bottom plane", raster::clip_bottom),
    ("clip/top", "a triangle reaching y = 2w: clipped against the top plane", raster::clip_top),
    ("clip/near", "a triangle with a vertex at z = +0.5w: clipped against the near plane z = 0", raster::clip_near),
    ("clip/far", "a triangle with a vertex at z = -1.5w: clipped against the far plane z = -w", raster::clip_far),
    ("clip/w_guard", "a triangle with a vertex behind the eye (w = -1): clipped against w > 0", raster::clip_w_guard),
    ("clip/user_plane", "a full-screen quad cut by the user clip plane x + y >= 0 (FRAGOP_CLIP)", raster::clip_user_plane),
    ("clip/all_planes", "a triangle larger than the view volume in x and y: clipped by four planes at once", raster::clip_all_planes),
    ("depthmap/scale_offset", "depth map scale -0.5, offset 0.25: a near quad drawn behind a far one", raster::depthmap_scale_offset),
    ("depthmap/w_buffer", "DEPTHMAP_ENABLE = 0 (w-buffer) with a quad of w from 1 to 3, depth written", raster::depthmap_w_buffer),
    // -- fragment operations --
    ("depth/never", "depth function never: the second quad leaves no pixel", fragment::depth_never),
    ("depth/always", "depth function always: the second quad covers the first", fragment::depth_always),
    ("depth/less", "depth function less: a sloped triangle shows in front of a flat quad", fragment::depth_less),
    ("depth/greater_equal", "depth function greater-or-equal against a flat quad", fragment::depth_greater_equal),
    ("depth/equal", "the same quad drawn twice, the second time with depth function equal", fragment::depth_equal),
    ("depth/test_off_still_writes", "depth test disabled with depth writes on still writes depth (seed 002)", fragment::depth_test_off_writes),
    ("depth/write_off", "depth writes masked off: a later farther quad is not hidden", fragment::depth_write_off),
    ("stencil/mask_equal", "a triangle writes stencil 1 (colour masked), a quad draws where stencil equals 1", fragment::stencil_mask_equal),
    ("stencil/ops", "increment-wrap, increment, decrement, invert and zero on overlapping triangles, shown by equality passes", fragment::stencil_ops),
    ("stencil/masks", "stencil write mask 0x0F and test mask 0x0F with reference 0xFF", fragment::stencil_masks),
    ("stencil/depth_fail", "stencil z-fail and z-pass operations against a depth-tested quad", fragment::stencil_depth_fail),
    ("alpha/greater", "alpha test greater than 0x80 on a triangle with alpha 0 to 1", fragment::alpha_greater),
    ("alpha/functions", "the eight alpha-test functions, one quad each, reference 0x80, alpha 0.5", fragment::alpha_functions),
    ("blend/alpha", "src * src_alpha + dst * (1 - src_alpha) with alpha 0.5", fragment::blend_alpha),
    ("blend/add_one_one", "additive blending src + dst", fragment::blend_add),
    ("blend/subtract", "equation subtract: src - dst", fragment::blend_subtract),
    ("blend/reverse_subtract", "equation reverse subtract: dst - src", fragment::blend_reverse_subtract),
    ("blend/min", "equation min", fragment::blend_min),
    ("blend/max", "equation max", fragment::blend_max),
    ("blend/constant", "constant colour factors with BLEND_COLOR", fragment::blend_constant),
    ("blend/separate_alpha", "different RGB and alpha equations and factors", fragment::blend_separate_alpha),
    ("blend/src_factors", "every source factor (0-14), one 8x8 quad each, destination factor one-minus-source-alpha", fragment::blend_src_factors),
    ("blend/dst_factors", "every destination factor (0-14), one 8x8 quad each, source factor source-alpha", fragment::blend_dst_factors),
    ("blend/equations_5_7", "blend equations 5, 6, 7 (behave as add, seed 002) next to add", fragment::blend_equations_5_7),
    ("logic/xor", "logic op XOR of a white-ish triangle over the clear colour", fragment::logic_xor),
    ("logic/all_ops", "the 16 logic ops, one 8x8 quad each", fragment::logic_all_ops),
    ("fop/color_mask", "colour writes of red and alpha only (DEPTH_COLOR_MASK)", fragment::color_mask),
    ("fop/color_buffer_write_off", "COLORBUFFER_WRITE = 0: the draw leaves the colour buffer alone", fragment::color_buffer_write_off),
    ("fop/depth_buffer_write_off", "DEPTHBUFFER_WRITE depth off with depth writes enabled: depth stays cleared", fragment::depth_buffer_write_off),
    // -- framebuffer formats and tiling --
    ("format/rgba8", "RGB triangle with half alpha into an RGBA8 colour buffer", fragment::format_rgba8),
    ("format/rgb5a1", "RGB triangle with half alpha into an RGB5A1 colour buffer", fragment::format_rgb5a1),
    ("format/rgb565", "RGB triangle into an RGB565 colour buffer", fragment::format_rgb565),
    ("format/rgba4", "RGB triangle with half alpha into an RGBA4 colour buffer", fragment::format_rgba4),
    ("format/d16", "depth test less into a D16 depth buffer", fragment::format_d16),
    ("format/d24", "depth test less into a D24 depth buffer", fragment::format_d24),
    ("format/d24s8", "depth test less and a stencil write into a D24S8 buffer", fragment::format_d24s8),
    ("tile/block8_64", "quads in every 8x8 block row of a 64x64 framebuffer, 8x8 tiling", fragment::tile_block8),
    ("tile/block32_64", "the same picture in a 64x64 framebuffer with 32x32 block tiling", fragment::tile_block32),
    // -- texturing --
    ("tex/rgba8888", "the 16-colour palette grid from an 8x8 RGBA8888 texture, nearest, on a full-screen quad", tex::rgba8888),
    ("tex/rgb888", "the palette grid from an RGB888 texture (alpha reads 0xFF)", tex::rgb888),
    ("tex/rgba5551", "the palette grid from an RGBA5551 texture", tex::rgba5551),
    ("tex/rgb565", "the palette grid from an RGB565 texture", tex::rgb565),
    ("tex/rgba4444", "the palette grid from an RGBA4444 texture", tex::rgba4444),
    ("tex/ia8", "the palette grid from an IA8 texture (intensity = red)", tex::ia8),
    ("tex/hilo8", "the palette grid from a HILO8 texture (red, green)", tex::hilo8),
    ("tex/i8", "the palette grid from an I8 texture", tex::i8),
    ("tex/a8", "the palette grid from an A8 texture (alpha only)", tex::a8),
    ("tex/ia44", "the palette grid from an IA44 texture", tex::ia44),
    ("tex/i4", "the palette grid from an I4 texture", tex::i4),
    ("tex/a4", "the palette grid from an A4 texture", tex::a4),
    ("tex/etc1", "four hand-built solid ETC1 blocks (red, green / blue, white) on a full-screen quad", tex::etc1),
    ("tex/etc1a4", "the ETC1 blocks with alpha blocks 15, 8 / 4, 0 (ETC1A4)", tex::etc1a4),
    ("tex/wrap_clamp_edge", "a quadrant texture with coordinates -1..2, one texel a pixel, clamp to edge", tex::wrap_clamp_edge),
    ("tex/wrap_clamp_border", "the quadrant texture with coordinates -1..2, clamp to border (border colour 0x4080C0FF)", tex::wrap_clamp_border),
    ("tex/wrap_repeat", "the quadrant texture with coordinates -1..2, repeat", tex::wrap_repeat),
    ("tex/wrap_mirror", "the quadrant texture with coordinates -1..2, mirrored repeat", tex::wrap_mirror),
    ("tex/linear", "the quadrant texture magnified 3x with bilinear filtering", tex::linear),
    ("tex/mipmap", "a 64x64 texture with four distinctly coloured mip levels on quads minified 2x, 4x, 8x and a receding floor (64x64)", tex::mipmap),
    ("tex/cube", "a cube map of six solid faces sampled along six directions, one quad each", tex::cube),
    ("tex/projection", "the palette grid as a projection texture with texcoord0 (2u, 2v, 2)", tex::projection),
    ("tex/three_units", "textures 0, 1 and 2 added by two combiner stages", tex::three_units),
    // -- procedural texture --
    ("proctex/u_clamp_edge", "procedural texture: mapping U, clamp to edge, eight colour-LUT bands", proctex::u_clamp_edge),
    ("proctex/u2v2_mirror", "procedural texture: mapping (U^2 + V^2) / 2, mirrored repeat over -1..2", proctex::u2v2_mirror),
    ("proctex/sqrt_pulse", "procedural texture: mapping sqrt(U^2 + V^2), pulse clamp", proctex::sqrt_pulse),
    ("proctex/min_shift_odd", "procedural texture: mapping min(U, V), symmetrical repeat, odd shift", proctex::min_shift_odd),
    ("proctex/noise", "procedural texture: mapping U with noise", proctex::noise),
    ("proctex/separate_alpha", "procedural texture: RGB from U, alpha from V through its own table", proctex::separate_alpha),
    ("proctex/rmax_clamp_zero", "procedural texture: mapping Rmax (alpha Max), clamp to zero", proctex::rmax_clamp_zero),
    ("proctex/mipmap", "procedural texture: mipmapped colour table, strips at LOD 0, 1, 1.5 (mipmap linear) and 3", proctex::mipmap),
    // -- texture combiners --
    ("tev/replace_constant", "combiner stage 0 replaces with the constant colour", tev::replace_constant),
    ("tev/modulate", "primary colour modulated by a 0/0xFF constant", tev::modulate),
    ("tev/add", "primary colour plus the constant, clamped", tev::add),
    ("tev/add_signed", "primary colour plus the constant minus 0x80, clamped", tev::add_signed),
    ("tev/interpolate", "constant and primary interpolated by the primary red (0xFF left, 0 right)", tev::interpolate),
    ("tev/subtract", "primary colour minus the constant, clamped at 0", tev::subtract),
    ("tev/dot3_rgb", "dot3 RGB of primary and constant: 1 on the left, 0 on the right", tev::dot3_rgb),
    ("tev/dot3_rgba", "dot3 RGBA: the dot product in alpha too", tev::dot3_rgba),
    ("tev/multiply_add", "multiply-then-add: primary x constant + primary", tev::multiply_add),
    ("tev/add_multiply", "add-then-multiply: (primary + constant) x 1", tev::add_multiply),
    ("tev/scale_2x", "add with RGB and alpha scale 2x", tev::scale_2x),
    ("tev/scale_4x", "replace with RGB scale 4x", tev::scale_4x),
    ("tev/buffer", "stage 0's output kept in the combiner buffer and added back in stage 2", tev::buffer),
    ("tev/six_stages", "all six stages, each adding 0x10", tev::six_stages),
    // -- fragment lighting --
    ("light/config0", "a lit hemisphere, light environment configuration 0 (D0, RR, SP, DA)", light::config0),
    ("light/config1", "a lit hemisphere, configuration 1 (FR, RR, SP, DA)", light::config1),
    ("light/config2", "a lit hemisphere, configuration 2 (D0, D1, RR, DA)", light::config2),
    ("light/config3", "a lit hemisphere, configuration 3 (D0, D1, FR, DA)", light::config3),
    ("light/config4", "a lit hemisphere, configuration 4 (all but FR)", light::config4),
    ("light/config5", "a lit hemisphere, configuration 5 (all but D1)", light::config5),
    ("light/config6", "a lit hemisphere, configuration 6 (all but RB, RG)", light::config6),
    ("light/config7", "a lit hemisphere, configuration 7 (CONFIG0 field value 8: all LUTs)", light::config7),
    ("light/spot", "two lights straight above a quad, one cut off by its spot LUT of 0", light::spot),
    ("light/attenuation", "two lights straight above a quad, one cut off by its distance-attenuation LUT of 0", light::attenuation),
    ("light/spot_cone", "a spotlight at the eye pointing down at a floor: a lit disc where the SP LUT passes cos >= 0.8", light::spot_cone),
    ("light/attenuation_falloff", "a light at the eye over a floor, fading with distance through a falling DA LUT", light::attenuation_falloff),
    ("light/two_sided", "quads facing away from the light: two-sided diffuse lit, one-sided dark", light::two_sided),
    ("light/fresnel", "fresnel selector primary alpha with an FR LUT of 0: primary alpha 0", light::fresnel),
    ("light/bump", "a bump map in texture unit 0: +z normals left, +x normals right, light from +x", light::bump),
    ("light/multiple", "three lights through the permutation slots (lights 5, 2, 7), light 0 in no slot", light::multiple),
    ("light/sphere_multiple", "the hemisphere under four coloured lights in a shuffled permutation, configuration 7", light::sphere_multiple),
    // -- fog, gas, shadows --
    ("fog/linear", "a fog LUT ramp over a quad whose depth runs 0.125..0.875 left to right", fog::linear),
    ("fog/zflip", "the fog scene with z flip: the LUT indexed by 1 - depth", fog::zflip),
    ("gas/density", "three overlapping quads in gas fragment mode, two in front of a depth-written floor and one behind it", gas::density),
    ("gas/shading", "fog mode gas with depth density, the gas LUT and shading parameters", gas::shading),
    ("gas/two_pass", "gas accumulated into a texture, then shaded from it with fog mode gas over the screen", gas::two_pass),
    ("shadow/map", "a shadow map rendered in shadow mode, then sampled as a shadow texture on a receiver", shadow::map),
    // -- driver order (libctru / citro3d register sequences, builder::driver) --
    ("driver/lit_mesh", "a per-vertex-lit 4x4 grid by one C3D_DrawElements after C3D_BindProgram (entry not at 0) and an AttrInfo of three loaders in permutation 0x120: every unit, unit 3 included, shades vertices (citro3d C3Di_UpdateContext + C3D_DrawElements)", driver::lit_mesh),
    ("driver/textured_cube", "a cube turned 45 degrees, an RGBA8 quadrant texture on each face (C3D_TexBind: C3Di_SetTex order), texture x fixed-attribute colour x constant in two combiners, C3D_DrawArrays of 36 vertices, back faces culled, depth greater", driver::textured_cube),
    ("driver/gs_point", "a point-mode geometry shader (shaderProgramConfigure GS branch, stride 6) splitting two triangles into four flat ones each, C3D_DrawArrays(GPU_GEOMETRY_PRIM)", driver::gs_point),
    ("driver/gs_fixed", "a fixed-primitive geometry shader turning three points into squares added onto the background (GSH_MISC0 fixed, C3D_AlphaBlend src alpha + one, C3D_DrawElements(GPU_GEOMETRY_PRIM, u8))", driver::gs_fixed),
    ("driver/gs_variable", "a variable-size-primitive geometry shader drawing a quad, a triangle and a pentagon as fans from one index buffer of counts and indices (GEOSTAGE_CONFIG bit 31, GSH_MISC1, C3D_DrawElements(GPU_GEOMETRY_PRIM, u16))", driver::gs_variable),
    ("driver/program_switch", "four draws with C3D_BindProgram between them: a plain program, a program with a point geometry shader, its vertex shader alone (same DVLP, no code upload) and the plain one again (code re-uploaded after the GS ran on unit 3)", driver::program_switch),
    ("driver/fog_proctex_light", "citro3d's light environment (material, D0 LUT upload, one light), procedural texture (sqrt(u2+v2), RGB map and colour tables) and fog (step LUT) set-up sequences on a depth-sloped quad drawn as an indexed fan", driver::fog_proctex_light),
    ("driver/two_targets", "two render targets: the screen, a 16x16 offscreen target (C3D_FrameDrawOn: FRAMEBUFFER_FLUSH + EARLYDEPTH_CLEAR between draws) and the screen again with the offscreen picture as a texture", driver::two_targets),
    // -- benchmark --
    ("bench/many_triangles", "4096 small triangles in two crossing layers, depth test on, 128x128 (the standard benchmark scene)", bench::many_triangles),
    ("bench/textured_lit", "a textured (RGBA8 bilinear) and lit (2 lights) quad and hemisphere, two modulating combiner stages, depth test, 128x128 (the issue-6 benchmark scene)", bench::textured_lit),
];

/// Scenes of the library too large to render through every RTL stage swap the test suite and
/// `scripts/run` iterate ([`list`], [`scenes`]): built by name ([`scene`]) and listed by
/// [`list_large`]. The scene library tests run them on the model (vectors/tests/scenes.rs).
#[rustfmt::skip]
const LARGE_SCENES: &[(&str, &str, SceneFn)] = &[
    ("bench/frame_400x240", "a 3DS top-screen frame, 400x240: a textured background and a depth-tested, textured, lit torus of 3136 triangles (the issue-19 frame benchmark)", bench::frame_400x240),
];

/// Name and description of every scene, in library order, without building them (the large
/// scenes of [`list_large`] are not among them).
pub fn list() -> impl Iterator<Item = (&'static str, &'static str)> {
    SCENES.iter().map(|(n, d, _)| (*n, *d))
}

/// Name and description of the large scenes (the `LARGE_SCENES` table): in the library, found by
/// [`scene`], but not in [`list`] and [`scenes`].
pub fn list_large() -> impl Iterator<Item = (&'static str, &'static str)> {
    LARGE_SCENES.iter().map(|(n, d, _)| (*n, *d))
}

/// Builds the scene at `SCENES[i]`.
fn build(entry: &(&str, &str, SceneFn)) -> Result<Scene, BuildError> {
    let (name, description, f) = entry;
    f()?.finish(name, description)
}

/// Every scene, built, in library order. A scene that fails to build is left out (none does:
/// tested by [`try_scenes`]).
pub fn scenes() -> Vec<Scene> {
    SCENES.iter().filter_map(|e| build(e).ok()).collect()
}

/// Every scene, or the first error, named.
pub fn try_scenes() -> Result<Vec<Scene>, (String, BuildError)> {
    SCENES
        .iter()
        .map(|e| build(e).map_err(|err| (e.0.to_string(), err)))
        .collect()
}

/// The scene called `name` (of [`list`] or [`list_large`]), built.
pub fn scene(name: &str) -> Option<Scene> {
    SCENES
        .iter()
        .chain(LARGE_SCENES)
        .find(|e| e.0 == name)
        .and_then(|e| build(e).ok())
}

// ---- helpers shared by the scene files ----

type R = Result<Builder, BuildError>;

/// The standard setup on a `w`×`h` framebuffer with the scene defaults.
fn setup(w: u32, h: u32) -> R {
    Builder::standard(FbConfig::new(w, h), Clear::color(BG))
}

/// The standard 32×32 setup.
fn setup32() -> R {
    setup(32, 32)
}

/// Returns to the scene's 32×32 framebuffer after a [`texture_target`] pass: full viewport,
/// blending off (`Blend::REPLACE`, whose COLOR_OPERATION write also puts the fragment mode back
/// to default) and the seven-attribute vertex shader for a textured second pass.
fn screen_pass(b: &mut Builder) -> Result<(), BuildError> {
    b.framebuffer(FbConfig::new(32, 32))?;
    b.viewport(0, 0, 32, 32);
    b.blend(&crate::builder::Blend::REPLACE);
    b.full_vertex_shader()?;
    Ok(())
}

/// Makes a `size`×`size` RGBA8 colour buffer and a D24S8 depth buffer in texture memory, every
/// byte of both `fill`, the render target (for a pass whose colour a later pass samples as a
/// texture). Returns the colour buffer's address.
fn texture_target(b: &mut Builder, size: u32, fill: u8) -> Result<u32, BuildError> {
    let bytes = vec![fill; (size * size * 4) as usize];
    let color = b.alloc_texture(&bytes);
    let depth = b.alloc_texture(&bytes);
    b.render_target(
        color,
        depth,
        size,
        size,
        crate::builder::ColorFormat::Rgba8,
        crate::builder::DepthFormat::D24S8,
    )?;
    Ok(color)
}

/// The four corners of an axis-aligned rectangle at depth `z`, in strip order (bottom-left,
/// bottom-right, top-left, top-right): as a strip, two CCW triangles.
fn rect(x0: f32, y0: f32, x1: f32, y1: f32, z: f32, c: [f32; 4]) -> [Vertex; 4] {
    [
        Vertex::xyz(x0, y0, z, c),
        Vertex::xyz(x1, y0, z, c),
        Vertex::xyz(x0, y1, z, c),
        Vertex::xyz(x1, y1, z, c),
    ]
}

/// Draws `v` as a new vertex array with `mode`.
fn draw(b: &mut Builder, mode: PrimitiveConfigMode, v: &[Vertex]) {
    b.vertex_array(v);
    b.draw_arrays(mode, 0, v.len() as u32);
}

/// Draws a rectangle (see [`rect`]) as a strip.
fn draw_rect(b: &mut Builder, x0: f32, y0: f32, x1: f32, y1: f32, z: f32, c: [f32; 4]) {
    draw(
        b,
        PrimitiveConfigMode::TriangleStrip,
        &rect(x0, y0, x1, y1, z, c),
    );
}

/// The clip-space rectangle of cell (`i`, `j`) of a 4×4 grid over the whole viewport
/// (8×8 pixels each on 32×32), cell 0 at the bottom left, `i` across.
fn cell(n: u32) -> (f32, f32, f32, f32) {
    let (i, j) = ((n % 4) as f32, (n / 4) as f32);
    (
        -1.0 + 0.5 * i,
        -1.0 + 0.5 * j,
        -0.5 + 0.5 * i,
        -0.5 + 0.5 * j,
    )
}

/// Little-endian bytes for hand-made vertex buffers.
#[derive(Default)]
struct Bytes(Vec<u8>);

impl Bytes {
    fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn i16(&mut self, v: i16) -> &mut Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    fn i8(&mut self, v: i8) -> &mut Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    /// `n` padding bytes (0xEE, so that reading them shows).
    fn pad(&mut self, n: usize) -> &mut Self {
        self.0.extend(std::iter::repeat_n(0xEE, n));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_names_unique_and_area_slash_what() {
        let mut names: Vec<&str> = list().chain(list_large()).map(|(n, _)| n).collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
        for name in names {
            let (area, what) = name.split_once('/').unwrap();
            assert!(
                !area.is_empty() && !what.is_empty() && !what.contains('/'),
                "{name}"
            );
        }
    }

    #[test]
    fn scenes_lookup_by_name() {
        assert_eq!(scene("prim/triangle").unwrap().name(), "prim/triangle");
        assert!(scene("prim/nothing").is_none());
    }
}
