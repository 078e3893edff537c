//! Primitive scenes: triangles, strips, fans, indexed meshes, immediate mode, restarts.

use super::{draw, setup, setup32, BLUE, CYAN, GREEN, MAGENTA, R, RED, WHITE, YELLOW};
use crate::builder::Vertex;
use pica_model::regs::PrimitiveConfigMode::{TriangleFan, TriangleStrip, Triangles};

pub(super) fn triangle() -> R {
    let mut b = setup32()?;
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, RED),
            Vertex::xy(0.75, -0.75, GREEN),
            Vertex::xy(0.0, 0.75, BLUE),
        ],
    );
    Ok(b)
}

pub(super) fn strip() -> R {
    let mut b = setup32()?;
    // Zig-zag: triangles (0,1,2) CCW, (1,2,3) CW as listed (the strip flips it), ...
    draw(
        &mut b,
        TriangleStrip,
        &[
            Vertex::xy(-0.75, -0.5, RED),
            Vertex::xy(-0.25, -0.5, GREEN),
            Vertex::xy(-0.75, 0.5, BLUE),
            Vertex::xy(-0.25, 0.5, YELLOW),
            Vertex::xy(0.75, -0.5, CYAN),
            Vertex::xy(0.75, 0.5, MAGENTA),
        ],
    );
    Ok(b)
}

pub(super) fn fan() -> R {
    let mut b = setup32()?;
    draw(
        &mut b,
        TriangleFan,
        &[
            Vertex::xy(0.0, 0.0, WHITE),
            Vertex::xy(0.75, -0.25, RED),
            Vertex::xy(0.5, 0.75, GREEN),
            Vertex::xy(-0.5, 0.75, BLUE),
            Vertex::xy(-0.75, -0.25, YELLOW),
            Vertex::xy(0.0, -0.75, CYAN),
        ],
    );
    Ok(b)
}

/// An `n`×`n` grid of vertices spanning [-0.75, 0.75]², row-major from the bottom left, with
/// colours cycling through the primaries.
fn grid(n: usize) -> Vec<Vertex> {
    let colors = [RED, GREEN, BLUE, YELLOW, CYAN, MAGENTA, WHITE];
    let step = 1.5 / (n - 1) as f32;
    (0..n * n)
        .map(|k| {
            let (i, j) = (k % n, k / n);
            Vertex::xy(
                -0.75 + step * i as f32,
                -0.75 + step * j as f32,
                colors[k % colors.len()],
            )
        })
        .collect()
}

/// Indices of two CCW triangles per grid cell: (a, b, c), (c, b, d) with a bottom-left,
/// b bottom-right, c top-left, d top-right.
fn grid_triangles(n: usize) -> Vec<u16> {
    let mut out = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let a = (j * n + i) as u16;
            let (bb, c) = (a + 1, a + n as u16);
            out.extend([a, bb, c, c, bb, c + 1]);
        }
    }
    out
}

pub(super) fn indexed_u8() -> R {
    let mut b = setup32()?;
    b.vertex_array(&grid(3));
    let idx: Vec<u8> = grid_triangles(3).into_iter().map(|i| i as u8).collect();
    let ib = b.index_buffer_u8(&idx);
    b.draw_elements(Triangles, &ib);
    Ok(b)
}

pub(super) fn indexed_u16() -> R {
    let mut b = setup(64, 64)?;
    b.vertex_array(&grid(17));
    let ib = b.index_buffer_u16(&grid_triangles(17));
    b.draw_elements(Triangles, &ib);
    Ok(b)
}

pub(super) fn indexed_strip() -> R {
    let mut b = setup32()?;
    // A 4x2 grid: bottom row 0-3, top row 4-7; the strip alternates bottom / top.
    let v: Vec<Vertex> = (0..8)
        .map(|k| {
            let (i, j) = ((k % 4) as f32, (k / 4) as f32);
            let c = [RED, GREEN, BLUE, YELLOW][k % 4];
            Vertex::xy(-0.75 + 0.5 * i, -0.5 + j, c)
        })
        .collect();
    b.vertex_array(&v);
    let ib = b.index_buffer_u16(&[0, 1, 4, 5, 2, 6, 3, 7]);
    b.draw_elements(TriangleStrip, &ib);
    Ok(b)
}

pub(super) fn indexed_fan() -> R {
    let mut b = setup32()?;
    // Vertex 4 is the centre; the fan lists it first and walks the square's corners CCW.
    b.vertex_array(&[
        Vertex::xy(-0.75, -0.75, RED),
        Vertex::xy(0.75, -0.75, GREEN),
        Vertex::xy(0.75, 0.75, BLUE),
        Vertex::xy(-0.75, 0.75, YELLOW),
        Vertex::xy(0.0, 0.0, WHITE),
    ]);
    let ib = b.index_buffer_u8(&[4, 0, 1, 2, 3, 0]);
    b.draw_elements(TriangleFan, &ib);
    Ok(b)
}

pub(super) fn immediate() -> R {
    let mut b = setup32()?;
    b.immediate(
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, RED),
            Vertex::xy(0.0, -0.75, GREEN),
            Vertex::xy(-0.375, 0.75, BLUE),
            Vertex::xy(0.0, 0.75, YELLOW),
            Vertex::xy(0.375, -0.75, CYAN),
            Vertex::xy(0.75, 0.75, MAGENTA),
        ],
    );
    Ok(b)
}

pub(super) fn strip_restart() -> R {
    let mut b = setup32()?;
    // Two strips of two triangles; without the restart, the first vertices of the second strip
    // would form two more triangles with the last of the first one, across the middle.
    b.immediate_begin(TriangleStrip);
    for v in [
        Vertex::xy(-0.75, -0.75, RED),
        Vertex::xy(-0.25, -0.75, RED),
        Vertex::xy(-0.75, 0.75, GREEN),
        Vertex::xy(-0.25, 0.75, GREEN),
    ] {
        b.immediate_vertex(&v.attributes());
    }
    b.restart_primitive();
    for v in [
        Vertex::xy(0.25, -0.75, BLUE),
        Vertex::xy(0.75, -0.75, BLUE),
        Vertex::xy(0.25, 0.75, YELLOW),
        Vertex::xy(0.75, 0.75, YELLOW),
    ] {
        b.immediate_vertex(&v.attributes());
    }
    b.immediate_end();
    Ok(b)
}

pub(super) fn fan_restart() -> R {
    let mut b = setup32()?;
    b.immediate_begin(TriangleFan);
    for v in [
        Vertex::xy(-0.5, 0.0, WHITE),
        Vertex::xy(-0.25, -0.75, RED),
        Vertex::xy(-0.25, 0.75, GREEN),
        Vertex::xy(-0.875, 0.0, BLUE),
    ] {
        b.immediate_vertex(&v.attributes());
    }
    b.restart_primitive();
    for v in [
        Vertex::xy(0.5, 0.0, WHITE),
        Vertex::xy(0.875, 0.0, CYAN),
        Vertex::xy(0.25, 0.75, MAGENTA),
        Vertex::xy(0.25, -0.75, YELLOW),
    ] {
        b.immediate_vertex(&v.attributes());
    }
    b.immediate_end();
    Ok(b)
}

pub(super) fn two_draws() -> R {
    let mut b = setup32()?;
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, RED),
            Vertex::xy(0.5, -0.75, RED),
            Vertex::xy(-0.75, 0.5, RED),
        ],
    );
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.5, -0.5, BLUE),
            Vertex::xy(0.75, -0.5, BLUE),
            Vertex::xy(0.75, 0.75, BLUE),
        ],
    );
    Ok(b)
}
