//! The standard benchmark scene (issue 5 "Measure": a few thousand small triangles, depth
//! test on).

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
