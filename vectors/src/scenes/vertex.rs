//! Vertex-loader scenes: vertex offset, post-vertex cache, fixed attributes, attribute formats,
//! padding, permutation.

use super::{setup32, Bytes, BLUE, GREEN, R, RED, YELLOW};
use crate::builder::{
    AttribBuffer, AttribFormat, AttribLayout, Vertex, DATA_BASE, IDENTITY_PERMUTATION,
};
use pica_model::regs::AttribbufferComponent::{
    Attribute0, Attribute1, Padding12, Padding16, Padding4, Padding8,
};
use pica_model::regs::PrimitiveConfigMode::{TriangleStrip, Triangles};

pub(super) fn vertex_offset() -> R {
    let mut b = setup32()?;
    b.vertex_array(&[
        Vertex::xy(-0.75, -0.75, RED),
        Vertex::xy(0.0, -0.75, RED),
        Vertex::xy(-0.75, 0.75, RED),
        Vertex::xy(0.0, -0.75, GREEN),
        Vertex::xy(0.75, -0.75, GREEN),
        Vertex::xy(0.75, 0.75, GREEN),
    ]);
    b.draw_arrays(Triangles, 3, 3);
    Ok(b)
}

pub(super) fn vertex_cache() -> R {
    let mut b = setup32()?;
    // A 4x4 grid of vertices; each cell's two triangles share two vertices, neighbouring cells
    // share more: 18 triangles, 54 indices, 16 distinct vertices.
    let n = 4usize;
    let v: Vec<Vertex> = (0..n * n)
        .map(|k| {
            let (i, j) = ((k % n) as f32, (k / n) as f32);
            let c = [RED, GREEN, BLUE, YELLOW][(k + k / n) % 4];
            Vertex::xy(-0.75 + 0.5 * i, -0.75 + 0.5 * j, c)
        })
        .collect();
    b.vertex_array(&v);
    let mut idx = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let a = (j * n + i) as u8;
            let (r, t) = (a + 1, a + n as u8);
            idx.extend([a, r, t, t, r, t + 1]);
        }
    }
    let ib = b.index_buffer_u8(&idx);
    b.post_vertex_cache(4);
    b.draw_elements(Triangles, &ib);
    Ok(b)
}

pub(super) fn fixed_color() -> R {
    let mut b = setup32()?;
    // Positions only in the buffer; attribute 1 (colour) is fixed.
    let mut bytes = Bytes::default();
    for (x, y) in [(-0.75, -0.75), (0.75, -0.75), (0.0, 0.75)] {
        bytes.f32(x).f32(y).f32(-0.5).f32(1.0);
    }
    let addr = b.alloc(&bytes.0, 16);
    b.fixed_attrib(1, [0.0, 0.75, 0.25, 1.0]);
    b.attrib_buffers(&AttribLayout {
        base: DATA_BASE,
        formats: vec![AttribFormat::float(4), AttribFormat::float(4)],
        // Attribute 1 and everything beyond the count take their fixed value.
        fixed_mask: 0xFFE,
        buffers: vec![AttribBuffer {
            offset: addr - DATA_BASE,
            components: vec![Attribute0],
        }],
        permutation: IDENTITY_PERMUTATION,
    });
    b.draw_arrays(Triangles, 0, 3);
    Ok(b)
}

pub(super) fn formats() -> R {
    let mut b = setup32()?;
    // Buffer 0: short x4 positions with w = 16 (so clip x = value / 16), then 8 padding bytes:
    // stride 16. Buffer 1: ubyte x4 colours of 0 or 1: stride 4.
    let pos: [[i16; 4]; 4] = [
        [-12, -12, -8, 16],
        [12, -12, -8, 16],
        [-12, 12, -8, 16],
        [12, 12, -8, 16],
    ];
    let col: [[u8; 4]; 4] = [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 0, 1]];
    let mut p = Bytes::default();
    for v in pos {
        for c in v {
            p.i16(c);
        }
        p.pad(8);
    }
    let mut c = Bytes::default();
    for v in col {
        for x in v {
            c.u8(x);
        }
    }
    let pa = b.alloc(&p.0, 16);
    let ca = b.alloc(&c.0, 16);
    b.attrib_buffers(&AttribLayout {
        base: DATA_BASE,
        formats: vec![AttribFormat::short(4), AttribFormat::ubyte(4)],
        fixed_mask: 0xFFC,
        buffers: vec![
            AttribBuffer {
                offset: pa - DATA_BASE,
                components: vec![Attribute0, Padding8],
            },
            AttribBuffer {
                offset: ca - DATA_BASE,
                components: vec![Attribute1],
            },
        ],
        permutation: IDENTITY_PERMUTATION,
    });
    b.draw_arrays(TriangleStrip, 0, 4);
    Ok(b)
}

pub(super) fn missing_components() -> R {
    let mut b = setup32()?;
    // Float x3 positions (w defaults to 1), byte x3 colours of 0 or 1 (alpha defaults to 1),
    // interleaved: 12 + 3 = 15 bytes a vertex.
    let mut d = Bytes::default();
    for ((x, y), (r, g, bl)) in [
        ((-0.75f32, -0.75f32), (1i8, 0i8, 0i8)),
        ((0.75, -0.75), (0, 1, 0)),
        ((0.0, 0.75), (0, 0, 1)),
    ] {
        d.f32(x).f32(y).f32(-0.5).i8(r).i8(g).i8(bl);
    }
    let addr = b.alloc(&d.0, 16);
    b.attrib_buffers(&AttribLayout {
        base: DATA_BASE,
        formats: vec![AttribFormat::float(3), AttribFormat::byte(3)],
        fixed_mask: 0xFFC,
        buffers: vec![AttribBuffer {
            offset: addr - DATA_BASE,
            components: vec![Attribute0, Attribute1],
        }],
        permutation: IDENTITY_PERMUTATION,
    });
    b.draw_arrays(Triangles, 0, 3);
    Ok(b)
}

pub(super) fn padding() -> R {
    let mut b = setup32()?;
    // [pos float x4][4 pad][colour float x4][8 pad][12 pad][16 pad]: 16+4+16+8+12+16 = 72 bytes.
    let mut d = Bytes::default();
    for (x, y, c) in [
        (-0.75f32, -0.75f32, RED),
        (0.75, -0.75, GREEN),
        (0.0, 0.75, BLUE),
    ] {
        d.f32(x).f32(y).f32(-0.5).f32(1.0).pad(4);
        for v in c {
            d.f32(v);
        }
        d.pad(8 + 12 + 16);
    }
    let addr = b.alloc(&d.0, 16);
    b.attrib_buffers(&AttribLayout {
        base: DATA_BASE,
        formats: vec![AttribFormat::float(4), AttribFormat::float(4)],
        fixed_mask: 0xFFC,
        buffers: vec![AttribBuffer {
            offset: addr - DATA_BASE,
            components: vec![
                Attribute0, Padding4, Attribute1, Padding8, Padding12, Padding16,
            ],
        }],
        permutation: IDENTITY_PERMUTATION,
    });
    b.draw_arrays(Triangles, 0, 3);
    Ok(b)
}

pub(super) fn permutation() -> R {
    let mut b = setup32()?;
    // Attribute 0 = colour, attribute 1 = position; the permutation sends attribute 0 to v1
    // and attribute 1 to v0, where the pass-through shader expects them.
    let mut d = Bytes::default();
    for (x, y, c) in [
        (-0.75f32, -0.75f32, RED),
        (0.75, -0.75, GREEN),
        (0.0, 0.75, BLUE),
    ] {
        for v in c {
            d.f32(v);
        }
        d.f32(x).f32(y).f32(-0.5).f32(1.0);
    }
    let addr = b.alloc(&d.0, 16);
    let perm = (IDENTITY_PERMUTATION & !0xFF) | 0x01;
    b.attrib_buffers(&AttribLayout {
        base: DATA_BASE,
        formats: vec![AttribFormat::float(4), AttribFormat::float(4)],
        fixed_mask: 0xFFC,
        buffers: vec![AttribBuffer {
            offset: addr - DATA_BASE,
            components: vec![Attribute0, Attribute1],
        }],
        permutation: perm,
    });
    b.draw_arrays(Triangles, 0, 3);
    Ok(b)
}
