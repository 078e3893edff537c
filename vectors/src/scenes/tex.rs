//! Texturing scenes: every texture format, the wrap modes, filtering, mipmaps, cube maps,
//! projection and three units at once. All use the [`FULL_VSH`](crate::builder::attrs::FULL_VSH)
//! vertex layout and combiner stage 0 replacing colour and alpha with texture 0 (unless said).
//!
//! The format scenes show [`PALETTE`] as a 4×4 grid over the whole 32×32 framebuffer: an 8×8
//! texture of 2×2-texel cells, texel (s, t) 4×4 pixels, so grid cell `n` of the scene library
//! (bottom left first) shows `PALETTE[n]` as the format stores it.

use super::{setup, setup32, R};
use crate::builder::attrs::{textured_rect, FullVertex};
use crate::builder::texenv::TexEnv;
use crate::builder::texture::{
    encode_etc1, encode_mips, etc1_solid_block, etc1a4_solid_alpha, TexConfig, TexImage, TexUnit,
};
use crate::builder::Builder;
use pica_model::regs::{
    PrimitiveConfigMode, TexenvCombinerMode, TexenvSourceInput as Src, TexunitParamFilter,
    TexunitParamType, TexunitParamWrap, TexunitTypeFormat as Fmt,
};

/// The 16 colours of the format scenes, by grid cell (cell 0 at the bottom left, 4 across).
pub const PALETTE: [[u8; 4]; 16] = [
    [0xFF, 0x00, 0x00, 0xFF],
    [0x00, 0xFF, 0x00, 0xFF],
    [0x00, 0x00, 0xFF, 0xFF],
    [0xFF, 0xFF, 0xFF, 0xFF],
    [0x00, 0x00, 0x00, 0xFF],
    [0xFF, 0xFF, 0x00, 0x80],
    [0x00, 0xFF, 0xFF, 0x40],
    [0xFF, 0x00, 0xFF, 0x00],
    [0x80, 0x80, 0x80, 0xFF],
    [0x40, 0x40, 0x40, 0x80],
    [0x80, 0x40, 0x00, 0xFF],
    [0x00, 0x40, 0x80, 0x40],
    [0xFF, 0x80, 0x40, 0xFF],
    [0x40, 0xFF, 0x80, 0x80],
    [0x80, 0x00, 0xFF, 0xFF],
    [0xFF, 0x40, 0x80, 0x00],
];

/// The 8×8 picture of the format scenes: texel (x, y) (y from the top) in cell
/// `x / 2 + 4 · (3 - y / 2)`.
pub fn palette_image() -> TexImage {
    TexImage::from_fn(8, 8, |x, y| PALETTE[((x / 2) + 4 * (3 - y / 2)) as usize])
}

/// The 8×8 quadrant picture of the wrap and filter scenes: top left red, top right green,
/// bottom left blue, bottom right white (4×4 texels each).
pub fn quadrant_image() -> TexImage {
    TexImage::from_fn(8, 8, |x, y| match (x < 4, y < 4) {
        (true, true) => [0xFF, 0, 0, 0xFF],
        (false, true) => [0, 0xFF, 0, 0xFF],
        (true, false) => [0, 0, 0xFF, 0xFF],
        (false, false) => [0xFF; 4],
    })
}

/// The standard setup with the seven-attribute vertex shader and combiner stage 0 replacing
/// colour and alpha with texture 0.
fn tex_setup(w: u32, h: u32) -> R {
    let mut b = setup(w, h)?;
    b.full_vertex_shader()?;
    b.texenvs(&[TexEnv::replace(Src::Texture0)]);
    Ok(b)
}

/// Draws `v` as a strip.
fn strip(b: &mut Builder, v: &[FullVertex]) {
    b.full_vertex_array(v);
    b.draw_arrays(PrimitiveConfigMode::TriangleStrip, 0, v.len() as u32);
}

/// A full-screen quad, u and v from 0 to 1.
fn full_quad(b: &mut Builder) {
    strip(
        b,
        &textured_rect([-1.0, -1.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]),
    );
}

/// Unit 0 on with texture `t`.
fn unit0(b: &mut Builder, t: &TexUnit) {
    b.texture_unit(0, t);
    b.texunit_config(&TexConfig::units([true, false, false]));
}

/// tex/<format>: the palette grid stored in `f`.
fn format_scene(f: Fmt) -> R {
    let mut b = tex_setup(32, 32)?;
    let addr = b.upload_texture(&palette_image(), f)?;
    unit0(&mut b, &TexUnit::new(addr, 8, 8, f));
    full_quad(&mut b);
    Ok(b)
}

pub(super) fn rgba8888() -> R {
    format_scene(Fmt::Rgba8888)
}
pub(super) fn rgb888() -> R {
    format_scene(Fmt::Rgb888)
}
pub(super) fn rgba5551() -> R {
    format_scene(Fmt::Rgba5551)
}
pub(super) fn rgb565() -> R {
    format_scene(Fmt::Rgb565)
}
pub(super) fn rgba4444() -> R {
    format_scene(Fmt::Rgba4444)
}
pub(super) fn ia8() -> R {
    format_scene(Fmt::Ia8)
}
pub(super) fn hilo8() -> R {
    format_scene(Fmt::Hilo8)
}
pub(super) fn i8() -> R {
    format_scene(Fmt::I8)
}
pub(super) fn a8() -> R {
    format_scene(Fmt::A8)
}
pub(super) fn ia44() -> R {
    format_scene(Fmt::Ia44)
}
pub(super) fn i4() -> R {
    format_scene(Fmt::I4)
}
pub(super) fn a4() -> R {
    format_scene(Fmt::A4)
}

/// The four ETC1 blocks of the ETC1 scenes (8×8 texture, block row 0 at the top): red, green /
/// blue, white, each "individual" mode, table 0, pixel indices 0.
const ETC1_BLOCKS: [u64; 4] = [
    etc1_solid_block([0xF, 0, 0], 0),
    etc1_solid_block([0, 0xF, 0], 0),
    etc1_solid_block([0, 0, 0xF], 0),
    etc1_solid_block([0xF, 0xF, 0xF], 0),
];

/// ETC1 scenes: a full-screen quad of the four hand-built blocks (ETC1A4 with alphas 15, 8 / 4,
/// 0).
fn etc1_scene(f: Fmt) -> R {
    let mut b = tex_setup(32, 32)?;
    let alpha = [
        etc1a4_solid_alpha(0xF),
        etc1a4_solid_alpha(0x8),
        etc1a4_solid_alpha(0x4),
        etc1a4_solid_alpha(0x0),
    ];
    let a = (f == Fmt::Etc1a4).then_some(&alpha[..]);
    let bytes = encode_etc1(8, 8, &ETC1_BLOCKS, a)?;
    let addr = b.alloc_texture(&bytes);
    unit0(&mut b, &TexUnit::new(addr, 8, 8, f));
    full_quad(&mut b);
    Ok(b)
}

pub(super) fn etc1() -> R {
    etc1_scene(Fmt::Etc1)
}
pub(super) fn etc1a4() -> R {
    etc1_scene(Fmt::Etc1a4)
}

/// The wrap scenes' border colour.
pub const BORDER: [u8; 4] = [0x40, 0x80, 0xC0, 0xFF];

/// Wrap scenes: the quadrant texture on a 24×24-pixel quad (pixels 4-27) with u and v from -1
/// to 2, so each texel covers one pixel.
fn wrap_scene(w: TexunitParamWrap) -> R {
    let mut b = tex_setup(32, 32)?;
    let addr = b.upload_texture(&quadrant_image(), Fmt::Rgba8888)?;
    let t = TexUnit::new(addr, 8, 8, Fmt::Rgba8888)
        .with_wrap(w, w)
        .with_border(BORDER);
    unit0(&mut b, &t);
    strip(
        &mut b,
        &textured_rect([-0.75, -0.75, 0.75, 0.75], [-1.0, -1.0, 2.0, 2.0]),
    );
    Ok(b)
}

pub(super) fn wrap_clamp_edge() -> R {
    wrap_scene(TexunitParamWrap::ClampToEdge)
}
pub(super) fn wrap_clamp_border() -> R {
    wrap_scene(TexunitParamWrap::ClampToBorder)
}
pub(super) fn wrap_repeat() -> R {
    wrap_scene(TexunitParamWrap::Repeat)
}
pub(super) fn wrap_mirror() -> R {
    wrap_scene(TexunitParamWrap::MirroredRepeat)
}

/// tex/linear: the quadrant texture magnified 3× (a 24×24-pixel quad, u and v 0 to 1) with
/// bilinear filtering.
pub(super) fn linear() -> R {
    let mut b = tex_setup(32, 32)?;
    let addr = b.upload_texture(&quadrant_image(), Fmt::Rgba8888)?;
    let t = TexUnit::new(addr, 8, 8, Fmt::Rgba8888).with_filter(TexunitParamFilter::Linear);
    unit0(&mut b, &t);
    strip(
        &mut b,
        &textured_rect([-0.75, -0.75, 0.75, 0.75], [0.0, 0.0, 1.0, 1.0]),
    );
    Ok(b)
}

/// The mip-level colours of tex/mipmap: level 0 red, 1 green, 2 blue, 3 white.
pub const MIP_COLORS: [[u8; 4]; 4] = [
    [0xFF, 0, 0, 0xFF],
    [0, 0xFF, 0, 0xFF],
    [0, 0, 0xFF, 0xFF],
    [0xFF; 4],
];

/// tex/mipmap (64×64): a 64×64 texture with four levels of distinct solid colours, drawn on
/// quads of 32×32, 16×16 and 8×8 pixels in the bottom half (2, 4 and 8 texels a pixel: levels
/// 1, 2 and 3) and a receding floor in the top half (about one texel a pixel at its near edge:
/// level 0 there, higher levels farther away); nearest filtering and nearest mipmap selection.
pub(super) fn mipmap() -> R {
    let mut b = tex_setup(64, 64)?;
    let levels: Vec<TexImage> = (0..4)
        .map(|l| TexImage::solid(64 >> l, 64 >> l, MIP_COLORS[l as usize]))
        .collect();
    // The 8×8 minimum of the encoder: level 3 of a 64×64 texture is 8×8.
    let bytes = encode_mips(&levels, Fmt::Rgba8888)?;
    let addr = b.alloc_texture(&bytes);
    let t = TexUnit::new(addr, 64, 64, Fmt::Rgba8888).with_mips(0, 3, TexunitParamFilter::Nearest);
    unit0(&mut b, &t);
    // 64×64 texels on 32×32 pixels: 2 texels a pixel, LOD 1 (green).
    strip(
        &mut b,
        &textured_rect([-1.0, -1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]),
    );
    // On 16×16 pixels: 4 texels a pixel, LOD 2 (blue).
    strip(
        &mut b,
        &textured_rect([0.0, -1.0, 0.5, -0.5], [0.0, 0.0, 1.0, 1.0]),
    );
    // On 8×8 pixels: 8 texels a pixel, LOD 3 (white).
    strip(
        &mut b,
        &textured_rect([0.5, -1.0, 0.75, -0.75], [0.0, 0.0, 1.0, 1.0]),
    );
    // A receding floor in the top half: w from 1 (bottom) to 4 (top), v from 0 to 2 (so v/w
    // rises by 0.5 over the half: 1/64 of v, one texel, a pixel at the near edge).
    let t = t.with_wrap(TexunitParamWrap::Repeat, TexunitParamWrap::Repeat);
    b.texture_unit(0, &t);
    let floor = [
        FullVertex::xy_uv(-1.0, 0.0, 0.0, 0.0),
        FullVertex::xy_uv(1.0, 0.0, 1.0, 0.0),
        FullVertex::xy_uv(-4.0, 4.0, 0.0, 2.0).with_pos([-4.0, 4.0, -2.0, 4.0]),
        FullVertex::xy_uv(4.0, 4.0, 1.0, 2.0).with_pos([4.0, 4.0, -2.0, 4.0]),
    ];
    strip(&mut b, &floor);
    Ok(b)
}

/// The face colours of tex/cube: +X red, -X green, +Y blue, -Y yellow, +Z cyan, -Z magenta.
pub const CUBE_COLORS: [[u8; 4]; 6] = [
    [0xFF, 0, 0, 0xFF],
    [0, 0xFF, 0, 0xFF],
    [0, 0, 0xFF, 0xFF],
    [0xFF, 0xFF, 0, 0xFF],
    [0, 0xFF, 0xFF, 0xFF],
    [0xFF, 0, 0xFF, 0xFF],
];

/// The direction of each face of tex/cube (texcoord0 u, v, w), slightly off the axis so the
/// major axis is the only candidate.
pub const CUBE_DIRS: [[f32; 3]; 6] = [
    [1.0, 0.25, 0.25],
    [-1.0, 0.25, 0.25],
    [0.25, 1.0, 0.25],
    [0.25, -1.0, 0.25],
    [0.25, 0.25, 1.0],
    [0.25, 0.25, -1.0],
];

/// tex/cube: a cube map of six solid 8×8 faces; six 8×8-pixel quads in grid cells 4-9, each with
/// one constant direction (texcoord0 u, v, w) pointing at one face, and a cube-mapped
/// hemisphere of radius 0.4375 centred at (0.5, 0.5) (cells 10, 11, 14, 15) whose texcoord0 is
/// its normal: +Z in the middle, the side faces towards the rim.
pub(super) fn cube() -> R {
    let mut b = tex_setup(32, 32)?;
    let faces: Vec<u32> = CUBE_COLORS
        .iter()
        .map(|&c| b.upload_texture(&TexImage::solid(8, 8, c), Fmt::Rgba8888))
        .collect::<Result<_, _>>()?;
    let mut t = TexUnit::new(faces[0], 8, 8, Fmt::Rgba8888).with_type(TexunitParamType::CubeMap);
    t.faces = Some([faces[1], faces[2], faces[3], faces[4], faces[5]]);
    unit0(&mut b, &t);
    for (i, dir) in CUBE_DIRS.iter().enumerate() {
        let (x0, y0, x1, y1) = super::cell(4 + i as u32);
        let v: Vec<FullVertex> = textured_rect([x0, y0, x1, y1], [0.0; 4])
            .into_iter()
            .map(|v| v.with_tc0(*dir))
            .collect();
        strip(&mut b, &v);
    }
    let (mut v, idx) = super::light::hemisphere_at(0.5, 0.5, 0.4375);
    for vert in &mut v {
        let (dx, dy) = ((vert.pos[0] - 0.5) / 0.4375, (vert.pos[1] - 0.5) / 0.4375);
        let nz = (1.0 - dx * dx - dy * dy).max(0.0).sqrt();
        vert.tc0 = [dx, dy, nz];
    }
    b.full_vertex_array(&v);
    let ib = b.index_buffer_u16(&idx);
    b.draw_elements(PrimitiveConfigMode::Triangles, &ib);
    Ok(b)
}

/// tex/projection: the palette grid in RGBA8888 with texcoord0 = (2u, 2v, 2): a projection
/// texture divides by w, so the picture is tex/rgba8888's.
pub(super) fn projection() -> R {
    let mut b = tex_setup(32, 32)?;
    let addr = b.upload_texture(&palette_image(), Fmt::Rgba8888)?;
    let t = TexUnit::new(addr, 8, 8, Fmt::Rgba8888).with_type(TexunitParamType::Projection);
    unit0(&mut b, &t);
    let v: Vec<FullVertex> = textured_rect([-1.0, -1.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0])
        .into_iter()
        .map(|v| v.with_tc0([2.0 * v.tc0[0], 2.0 * v.tc0[1], 2.0]))
        .collect();
    strip(&mut b, &v);
    Ok(b)
}

/// tex/three_units: unit 0 red left (0xFF) / right (0x40), unit 1 green top (0x80) / bottom
/// (0xFF), unit 2 blue 0x40 everywhere; stage 0 adds textures 0 and 1, stage 1 adds texture 2
/// (alpha: texture 0's, 0xFF).
pub(super) fn three_units() -> R {
    let mut b = setup32()?;
    b.full_vertex_shader()?;
    let img0 = TexImage::from_fn(8, 8, |x, _| [if x < 4 { 0xFF } else { 0x40 }, 0, 0, 0xFF]);
    let img1 = TexImage::from_fn(8, 8, |_, y| [0, if y < 4 { 0x80 } else { 0xFF }, 0, 0xFF]);
    let img2 = TexImage::solid(8, 8, [0, 0, 0x40, 0xFF]);
    for (u, img) in [img0, img1, img2].iter().enumerate() {
        let addr = b.upload_texture(img, Fmt::Rgba8888)?;
        b.texture_unit(u as u8, &TexUnit::new(addr, 8, 8, Fmt::Rgba8888));
    }
    b.texunit_config(&TexConfig::units([true, true, true]));
    b.texenvs(&[
        TexEnv::new(
            TexenvCombinerMode::Add,
            [Src::Texture0, Src::Texture1, Src::Texture1],
        )
        .with_alpha(TexenvCombinerMode::Replace, [Src::Texture0; 3]),
        TexEnv::new(
            TexenvCombinerMode::Add,
            [Src::Previous, Src::Texture2, Src::Texture2],
        )
        .with_alpha(TexenvCombinerMode::Replace, [Src::Previous; 3]),
    ]);
    full_quad(&mut b);
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The palette picture: the bottom-left 2×2 texels (picture rows 6-7) are cell 0, the
    /// top-right ones cell 15; the quadrant picture's corners.
    #[test]
    fn tex_palette_and_quadrant_pictures() {
        let img = palette_image();
        let at = |x: u32, y: u32| img.texels[(y * 8 + x) as usize];
        assert_eq!(at(0, 7), PALETTE[0]);
        assert_eq!(at(1, 6), PALETTE[0]);
        assert_eq!(at(7, 7), PALETTE[3]);
        assert_eq!(at(0, 0), PALETTE[12]);
        assert_eq!(at(7, 0), PALETTE[15]);
        let q = quadrant_image();
        assert_eq!(q.texels[0], [0xFF, 0, 0, 0xFF]);
        assert_eq!(q.texels[7], [0, 0xFF, 0, 0xFF]);
        assert_eq!(q.texels[56], [0, 0, 0xFF, 0xFF]);
        assert_eq!(q.texels[63], [0xFF; 4]);
    }
}
