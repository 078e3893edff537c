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
