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

/// The lit-grid vertex shader: a 4×4 transform from uniforms, the normal normalised (RSQ), then
/// diffuse lighting summed over three lights in a LOOP whose aL indexes the light arrays,
/// ambient added, saturated in a CALLed procedure, and a bool-uniform IF that posterises the result (floor(4c)/4).
/// Every arithmetic family of the shader unit the pass-through shader never touches (DP4, DP3,
/// RSQ, MUL, MAX, MAD, ADD, MIN, FLR, LOOP with relative addressing, CALL, IFU) runs per vertex,
/// so a swapped-in RTL SH stage is checked on real arithmetic inside the pipeline.
pub const LIT_GRID_VSH: &str = "\
; Lit grid: transform, normalise, three diffuse lights in a loop, ambient, saturate.
.fvec mvp[4]
.fvec ldir[3]
.fvec lcol[3]
.fvec ambient
.constf consts(0.0, 1.0, 0.25, 4.0)
.consti lights(2, 0, 1, 0)
.bool tint
.out opos position
.out oclr color
.in ipos v0
.in inrm v1
.proc saturate
\tmin r2, consts.yyyy, r2
\tmax r2, consts.xxxx, r2
.end
.proc main
\tdp4 opos.x, mvp[0], ipos
\tdp4 opos.y, mvp[1], ipos
\tdp4 opos.z, mvp[2], ipos
\tdp4 opos.w, mvp[3], ipos
\tdp3 r0.x, inrm, inrm
\trsq r0.x, r0.x
\tmul r1.xyz, inrm.xyz, r0.xxx
\tmov r2, consts.xxxx
\tfor lights
\t\tdp3 r3.x, ldir[aL], r1
\t\tmax r3.x, consts.x, r3.x
\t\tmad r2.xyz, r3.xxx, lcol[aL], r2
\t.end
\tadd r2, ambient, r2
\tcall saturate
\tifu tint
\t\tmul r4, consts.wwww, r2
\t\tflr r4, r4
\t\tmul r2.xyz, consts.zzz, r4
\t\tcall saturate
\t.end
\tmov oclr.xyz, r2
\tmov oclr.w, consts.y
\tend
.end
";

/// A 5×5-vertex grid over the whole framebuffer whose normals lean outwards, lit by
/// [`LIT_GRID_VSH`] (the right half drawn a second time with the posterise bool set).
pub(super) fn lit_grid() -> R {
    use pica_model::num::F24;
    let mut b = setup32()?;
    b.vertex_shader(LIT_GRID_VSH, "lit_grid.v.pica")?;
    let f = |x: f64| F24::from_f64_trunc(x);
    let v4 = |a: [f64; 4]| a.map(f);
    // mvp (c0-c3): x, y scaled by 0.9, z = -0.5, w = 1; ldir (c4-c6), lcol (c7-c9), ambient c10.
    b.vsh_float_uniforms(
        0,
        &[
            v4([0.9, 0.0, 0.0, 0.0]),
            v4([0.0, 0.9, 0.0, 0.0]),
            v4([0.0, 0.0, 0.0, -0.5]),
            v4([0.0, 0.0, 0.0, 1.0]),
            v4([0.0, 0.0, 1.0, 0.0]),
            v4([0.6, 0.0, 0.8, 0.0]),
            v4([-0.48, 0.6, 0.64, 0.0]),
            v4([0.5, 0.25, 0.125, 0.0]),
            v4([0.25, 0.5, 0.0, 0.0]),
            v4([0.0, 0.3, 0.7, 0.0]),
            v4([0.1, 0.1, 0.15, 1.0]),
        ],
    );
    let n = 5usize;
    let v: Vec<Vertex> = (0..n * n)
        .map(|k| {
            let (i, j) = ((k % n) as f32, (k / n) as f32);
            let (x, y) = (-1.0 + 0.5 * i, -1.0 + 0.5 * j);
            Vertex {
                pos: [x, y, 0.0, 1.0],
                color: [0.7 * x, 0.7 * y, 1.0, 0.0],
            }
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
    b.draw_elements(Triangles, &ib);
    // The right half again with the tint on.
    let right: Vec<u8> = idx
        .chunks(6)
        .enumerate()
        .filter(|(c, _)| c % 4 >= 2)
        .flat_map(|(_, t)| t.to_vec())
        .collect();
    let ib2 = b.index_buffer_u8(&right);
    b.vsh_bool_uniforms(1);
    b.draw_elements(Triangles, &ib2);
    Ok(b)
}
