//! The benchmark scenes: the standard scene of issue 5 "Measure" (a few thousand small
//! triangles, depth test on), the textured and lit scene of issue 6, and the 3DS top-screen
//! frame of issue 19 (`bench/frame_400x240`, one of the library's large scenes).

use super::{setup, R};
use crate::builder::Vertex;
use pica_model::regs::CompareFunction;
use pica_model::regs::PrimitiveConfigMode::Triangles;

/// Framebuffer size of the benchmark scene.
pub const BENCH_SIZE: u32 = 128;

/// Grid cells per side of each layer: 32 × 32 cells × 2 triangles × 2 layers = 4096
/// triangles of about 8 pixels each.
const CELLS: usize = 32;

/// Cycle limit of the benchmark scene: about 33 000 covered pixels and 2 178 vertices, so even
/// at 100 cycles a fragment it ends far below this.
const BENCH_MAX_CYCLES: u64 = 200_000_000;

/// A small deterministic generator (xorshift32), so the scene never changes.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }

    /// A multiple of 1/64 in [-range, range] (exact in f24, so conversions cannot matter).
    fn jitter(&mut self, range: f32) -> f32 {
        let steps = (range * 64.0) as u32;
        let k = self.next() % (2 * steps + 1);
        (k as f32 - steps as f32) / 64.0
    }

    /// A colour channel of 0, 0.25, 0.5, 0.75 or 1.
    fn channel(&mut self) -> f32 {
        (self.next() % 5) as f32 * 0.25
    }
}

pub(super) fn many_triangles() -> R {
    let mut b = setup(BENCH_SIZE, BENCH_SIZE)?;
    b.max_cycles(BENCH_MAX_CYCLES);
    b.depth_test(true, CompareFunction::Less).depth_write(true);
    let mut rng = Rng(0x1234_5678);
    let n = CELLS + 1;
    let cell = 2.0 / CELLS as f32;
    let mut vertices = Vec::with_capacity(2 * n * n);
    for layer in 0..2 {
        for j in 0..n {
            for i in 0..n {
                // Interior points jitter by up to a quarter cell; the border stays put.
                let inner = i > 0 && j > 0 && i < CELLS && j < CELLS;
                let (dx, dy) = if inner {
                    (rng.jitter(cell / 4.0), rng.jitter(cell / 4.0))
                } else {
                    (0.0, 0.0)
                };
                let x = -1.0 + cell * i as f32 + dx;
                let y = -1.0 + cell * j as f32 + dy;
                // Layer 0 slopes in x, layer 1 in y: they cross along the diagonal.
                let t = if layer == 0 { i } else { j } as f32 / CELLS as f32;
                let z = -0.125 - 0.75 * t;
                let color = [rng.channel(), rng.channel(), rng.channel(), 1.0];
                vertices.push(Vertex::xyz(x, y, z, color));
            }
        }
    }
    b.vertex_array(&vertices);
    let mut idx: Vec<u16> = Vec::with_capacity(2 * CELLS * CELLS * 6);
    for layer in 0..2 {
        let base = layer * n * n;
        for j in 0..CELLS {
            for i in 0..CELLS {
                let a = (base + j * n + i) as u16;
                let (r, t) = (a + 1, a + n as u16);
                idx.extend([a, r, t, t, r, t + 1]);
            }
        }
    }
    let ib = b.index_buffer_u16(&idx);
    b.draw_elements(Triangles, &ib);
    Ok(b)
}

/// Cycle limit of the textured and lit benchmark scene (about 24 000 fragments).
const TEXTURED_LIT_MAX_CYCLES: u64 = 200_000_000;

/// bench/textured_lit (128×128, the standard scene for the issue-6 performance figure): a
/// full-screen quad (16 384 fragments) and the lit hemisphere of the light scenes in front of
/// it (about 7 200 fragments), both textured by unit 0 (a 64×64 RGBA8 checkerboard, bilinear,
/// repeat) and lit by two lights (one directional, one positional, D0 ramp LUT); combiner
/// stage 0 modulates the fragment primary colour by texture 0, stage 1 modulates that by the
/// vertex colour. Depth test less with writes.
pub(super) fn textured_lit() -> R {
    use crate::builder::attrs::textured_rect;
    use crate::builder::lighting::{lighting_lut_entry, Light, LightEnv};
    use crate::builder::texenv::TexEnv;
    use crate::builder::texture::{TexConfig, TexImage, TexUnit};
    use pica_model::regs::{
        self, LightingLutIndexTable, TexenvSourceInput as Src, TexunitParamFilter,
        TexunitParamWrap, TexunitTypeFormat,
    };
    let mut b = setup(BENCH_SIZE, BENCH_SIZE)?;
    b.max_cycles(TEXTURED_LIT_MAX_CYCLES);
    b.depth_test(true, CompareFunction::Less).depth_write(true);
    b.full_vertex_shader()?;
    let img = TexImage::from_fn(64, 64, |x, y| {
        if (x / 8 + y / 8) % 2 == 0 {
            [0xFF, 0xC0, 0x80, 0xFF]
        } else {
            [0x40, 0x80, 0xC0, 0xFF]
        }
    });
    let addr = b.upload_texture(&img, TexunitTypeFormat::Rgba8888)?;
    let t = TexUnit::new(addr, 64, 64, TexunitTypeFormat::Rgba8888)
        .with_filter(TexunitParamFilter::Linear)
        .with_wrap(TexunitParamWrap::Repeat, TexunitParamWrap::Repeat);
    b.texture_unit(0, &t);
    b.texunit_config(&TexConfig::units([true, false, false]));
    b.lighting_enable(true);
    let d0: Vec<u32> = (0..256u32)
        .map(|k| {
            if k < 128 {
                lighting_lut_entry(k * 32, if k < 127 { 32 } else { 0 })
            } else {
                0
            }
        })
        .collect();
    b.lighting_lut(LightingLutIndexTable::D0, &d0);
    b.light(
        0,
        &Light::directional([0.5, 0.5, 1.0], [0xC0, 0xC0, 0xC0])
            .with_specular([0x40, 0x40, 0x40], [0; 3]),
    );
    b.light(1, &Light::positional([-1.0, 1.0, 1.0], [0x40, 0x40, 0x80]));
    let mut env = LightEnv::new(2, [0x20, 0x20, 0x20], 0);
    // D0 enabled (bit 16 clear); spot, shadow and attenuation off.
    env.config1 = regs::LightingConfig1(0xFF7E_FFFF);
    b.light_env(&env);
    b.texenvs(&[
        TexEnv::modulate(Src::FragmentPrimaryColor, Src::Texture0),
        TexEnv::modulate(Src::Previous, Src::PrimaryColor),
    ]);
    let quad: Vec<_> = textured_rect([-1.0, -1.0, 1.0, 1.0], [0.0, 0.0, 2.0, 2.0])
        .into_iter()
        .map(|v| v.with_pos([v.pos[0], v.pos[1], -0.75, 1.0]))
        .collect();
    b.full_vertex_array(&quad);
    b.draw_arrays(pica_model::regs::PrimitiveConfigMode::TriangleStrip, 0, 4);
    let (v, idx) = super::light::hemisphere();
    b.full_vertex_array(&v);
    let ib = b.index_buffer_u16(&idx);
    b.draw_elements(Triangles, &ib);
    Ok(b)
}

/// Width and height of bench/frame_400x240: the 3DS top screen.
pub const FRAME_SIZE: (u32, u32) = (400, 240);

/// Segments of the torus of bench/frame_400x240 around its axis and around its tube:
/// 56 × 28 quads = 3136 triangles.
const TORUS_SEGMENTS: (u32, u32) = (56, 28);

/// Cycle limit of bench/frame_400x240 (about 110 000 fragments and 1 700 vertices).
const FRAME_MAX_CYCLES: u64 = 400_000_000;

/// The background picture of bench/frame_400x240 (64×64, stored as RGB565): texel (`x`, `y`),
/// `y` counted from the top row — colour ramps across and down with diagonal stripes.
pub fn frame_background(x: u32, y: u32) -> [u8; 4] {
    let stripe = if (x + y) / 4 % 2 == 0 { 0x30 } else { 0 };
    // x, y < 64: every channel stays below 256.
    let ramp = |v: u32| (v % 64 * 2) as u8;
    [ramp(x) + stripe, ramp(y) + 0x20, 0xA0 - stripe, 0xFF]
}

/// The torus of bench/frame_400x240 in clip space, with view-space normals (as quaternions),
/// view vectors and texture coordinates, and its triangle list.
///
/// Major radius 1, tube radius 0.4, centred at view-space (0, 0, -3.2), tilted 60° about x
/// (the hole faces the viewer at a slant); a perspective projection with a 60° vertical field
/// of view at 400:240, near 1 and far 10, mapped to the PICA's clip convention (z from 0 at
/// the near plane to -w at the far plane: depth = -z/w, `Builder::depth_map(true, -1, 0)`).
fn torus() -> (Vec<crate::builder::attrs::FullVertex>, Vec<u16>) {
    use crate::builder::attrs::FullVertex;
    use std::f32::consts::TAU;
    let (segs, tube) = TORUS_SEGMENTS;
    let (major, minor, centre_z) = (1.0f32, 0.4f32, -3.2f32);
    let (near, far) = (1.0f32, 10.0f32);
    let f = 1.0 / (TAU / 12.0).tan(); // cot(30°)
    let aspect = FRAME_SIZE.0 as f32 / FRAME_SIZE.1 as f32;
    let (sin_t, cos_t) = (TAU / 6.0).sin_cos(); // 60° tilt about x
    let tilt = |v: [f32; 3]| {
        [
            v[0],
            v[1] * cos_t - v[2] * sin_t,
            v[1] * sin_t + v[2] * cos_t,
        ]
    };
    let mut vertices = Vec::with_capacity(((segs + 1) * (tube + 1)) as usize);
    for i in 0..=segs {
        let theta = TAU * i as f32 / segs as f32;
        for j in 0..=tube {
            let phi = TAU * j as f32 / tube as f32;
            let n = tilt([phi.cos() * theta.cos(), phi.cos() * theta.sin(), phi.sin()]);
            let ring = major + minor * phi.cos();
            let p = tilt([ring * theta.cos(), ring * theta.sin(), minor * phi.sin()]);
            let p = [p[0], p[1], p[2] + centre_z];
            let d = -p[2]; // distance along the view axis
            let depth = far * (d - near) / ((far - near) * d);
            let pos = [p[0] * f / aspect, p[1] * f, -depth * d, d];
            let uv = (4.0 * i as f32 / segs as f32, 2.0 * j as f32 / tube as f32);
            vertices.push(
                FullVertex::xy_uv(0.0, 0.0, uv.0, uv.1)
                    .with_pos(pos)
                    .with_quat(super::light::quat_to(n))
                    .with_view([-p[0], -p[1], -p[2]]),
            );
        }
    }
    let at = |i: u32, j: u32| (i * (tube + 1) + j) as u16;
    let mut idx = Vec::with_capacity((segs * tube * 6) as usize);
    for i in 0..segs {
        for j in 0..tube {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
            idx.extend([a, b, c, c, b, d]);
        }
    }
    (vertices, idx)
}

/// bench/frame_400x240 (the issue-19 frame benchmark): a 3DS top-screen frame, 400×240 RGBA8
/// with a D24S8 depth buffer, depth test less with writes.
///
/// 1. Background: a full-screen quad at the far end of the depth range (z = -0.95), texture
///    unit 0 = a 64×64 RGB565 pattern (nearest, repeat, about one texel per pixel), lighting
///    off, one combiner stage (texture 0 × vertex colour).
/// 2. Mesh: the torus of [`torus`] (3136 triangles, u16 indices), texture unit 0 = a 64×64
///    RGBA8 checkerboard (bilinear, repeat), fragment lighting with two lights (one
///    directional with a specular D0 ramp, one positional) as bench/textured_lit; combiner
///    stage 0 modulates the lit primary colour by texture 0, stage 1 adds the specular
///    (fragment secondary) colour.
pub(super) fn frame_400x240() -> R {
    use crate::builder::attrs::textured_rect;
    use crate::builder::lighting::{lighting_lut_entry, Light, LightEnv};
    use crate::builder::texenv::TexEnv;
    use crate::builder::texture::{TexConfig, TexImage, TexUnit};
    use pica_model::regs::{
        self, LightingLutIndexTable, TexenvCombinerMode as Mode, TexenvSourceInput as Src,
        TexunitParamFilter, TexunitParamWrap, TexunitTypeFormat,
    };
    let (w, h) = FRAME_SIZE;
    let mut b = setup(w, h)?;
    b.max_cycles(FRAME_MAX_CYCLES);
    b.depth_test(true, CompareFunction::Less).depth_write(true);
    b.full_vertex_shader()?;
    let repeat = (TexunitParamWrap::Repeat, TexunitParamWrap::Repeat);

    // 1. Background.
    let bg = TexImage::from_fn(64, 64, frame_background);
    let bg_addr = b.upload_texture(&bg, TexunitTypeFormat::Rgb565)?;
    let bg_unit = TexUnit::new(bg_addr, 64, 64, TexunitTypeFormat::Rgb565)
        .with_filter(TexunitParamFilter::Nearest)
        .with_wrap(repeat.0, repeat.1);
    b.texture_unit(0, &bg_unit);
    b.texunit_config(&TexConfig::units([true, false, false]));
    b.lighting_enable(false);
    b.texenvs(&[TexEnv::modulate(Src::Texture0, Src::PrimaryColor)]);
    let (su, sv) = (w as f32 / 64.0, h as f32 / 64.0);
    let quad: Vec<_> = textured_rect([-1.0, -1.0, 1.0, 1.0], [0.0, 0.0, su, sv])
        .into_iter()
        .map(|v| v.with_pos([v.pos[0], v.pos[1], -0.95, 1.0]))
        .collect();
    b.full_vertex_array(&quad);
    b.draw_arrays(regs::PrimitiveConfigMode::TriangleStrip, 0, 4);

    // 2. The lit, textured torus.
    let img = TexImage::from_fn(64, 64, |x, y| {
        if (x / 8 + y / 8) % 2 == 0 {
            [0xFF, 0xC0, 0x80, 0xFF]
        } else {
            [0x40, 0x80, 0xC0, 0xFF]
        }
    });
    let addr = b.upload_texture(&img, TexunitTypeFormat::Rgba8888)?;
    let t = TexUnit::new(addr, 64, 64, TexunitTypeFormat::Rgba8888)
        .with_filter(TexunitParamFilter::Linear)
        .with_wrap(repeat.0, repeat.1);
    b.texture_unit(0, &t);
    b.lighting_enable(true);
    let d0: Vec<u32> = (0..256u32)
        .map(|k| {
            if k < 128 {
                lighting_lut_entry(k * 32, if k < 127 { 32 } else { 0 })
            } else {
                0
            }
        })
        .collect();
    b.lighting_lut(LightingLutIndexTable::D0, &d0);
    b.light(
        0,
        &Light::directional([0.5, 0.5, 1.0], [0xC0, 0xC0, 0xC0])
            .with_specular([0x60, 0x60, 0x60], [0; 3]),
    );
    b.light(1, &Light::positional([-2.0, 2.0, 0.0], [0x50, 0x40, 0x70]));
    let mut env = LightEnv::new(2, [0x20, 0x20, 0x20], 0);
    // D0 enabled (bit 16 clear); spot, shadow and attenuation off.
    env.config1 = regs::LightingConfig1(0xFF7E_FFFF);
    b.light_env(&env);
    b.texenvs(&[
        TexEnv::modulate(Src::FragmentPrimaryColor, Src::Texture0),
        TexEnv::new(
            Mode::Add,
            [Src::Previous, Src::FragmentSecondaryColor, Src::Previous],
        ),
    ]);
    let (v, idx) = torus();
    b.full_vertex_array(&v);
    let ib = b.index_buffer_u16(&idx);
    b.draw_elements(Triangles, &ib);
    Ok(b)
}
