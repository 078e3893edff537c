//! Geometry-shader scenes (issue 33): the three GS input modes, each set up in libctru's order
//! ([`Builder::geometry_program`]: GPUREG_GEOSTAGE_CONFIG = 2 first, GSH_MISC0 / GSH_MISC1 /
//! GSH_INPUTBUFFER_CONFIG after it), so a GPU that takes the GS configuration when the stage
//! turns on instead of at the draw draws them wrong.
//!
//! Every geometry shader here is our own (written for these scenes, not taken from an
//! example). Colours are flat per primitive, so every expected pixel is 0 or 255 per channel
//! (or a clamped sum of the clear colour with them, under additive blending).

use super::{setup32, BLUE, GREEN, R, RED, WHITE};
use crate::builder::geometry::GsInput;
use crate::builder::{Blend, Builder, Vertex, PASS_THROUGH_VSH};
use pica_model::regs::PrimitiveConfigMode::GeometryPrimitive;
use pica_model::regs::{BlendFuncEquation, BlendFuncFactor};

/// Point mode, six inputs (v0-v5: position and colour of a triangle's three vertices): the
/// three corner triangles of the triangle's midpoint subdivision, red at the first vertex,
/// green at the second, blue at the third; the middle triangle is left open.
pub const GS_SUBDIVIDE: &str = "\
; Point-mode geometry shader of the scene library: one triangle in, its three corner
; triangles out (midpoint subdivision without the middle one), one flat colour each.
.gsh point c0
.constf half(0.5, 0.5, 0.5, 0.5)
.constf red(1.0, 0.0, 0.0, 1.0)
.constf green(0.0, 1.0, 0.0, 1.0)
.constf blue(0.0, 0.0, 1.0, 1.0)
.out opos position
.out oclr color
.entry gmain
.proc gmain
\t; r0 = mid(a, b), r1 = mid(b, c), r2 = mid(c, a) (one input register per instruction)
\tmov r0, v0
\tadd r0, v2, r0
\tmul r0, half, r0
\tmov r1, v2
\tadd r1, v4, r1
\tmul r1, half, r1
\tmov r2, v4
\tadd r2, v0, r2
\tmul r2, half, r2
\t; corner a: a, mid(a, b), mid(c, a)
\tmov r8, v0
\tmov r9, r0
\tmov r10, r2
\tmov r11, red
\tcall corner
\t; corner b: mid(a, b), b, mid(b, c)
\tmov r8, r0
\tmov r9, v2
\tmov r10, r1
\tmov r11, green
\tcall corner
\t; corner c: mid(c, a), mid(b, c), c
\tmov r8, r2
\tmov r9, r1
\tmov r10, v4
\tmov r11, blue
\tcall corner
\tend
.end

; One triangle r8, r9, r10 in colour r11.
.proc corner
\tsetemit 0
\tmov opos, r8
\tmov oclr, r11
\temit
\tsetemit 1
\tmov opos, r9
\tmov oclr, r11
\temit
\tsetemit 2, prim
\tmov opos, r10
\tmov oclr, r11
\temit
.end
";

/// Fixed mode, one vertex (position at c0, colour at c1) per run: a square of half-size 0.25
/// around the position in the vertex's colour, as two triangles (the second closed with
/// `setemit 0, inv prim`).
pub const GS_PARTICLE: &str = "\
; Fixed-mode geometry shader of the scene library: each vertex becomes a square particle.
.gsh fixed c8 c0 1
.constf size(0.25, 0.25, 0.0, 0.0)
.out opos position
.out oclr color
.alias centre c0
.alias colour c1
.entry gmain
.proc gmain
\tmov r1, size
\tmov r2, size
\tmov r2.x, -r2
\t; bottom-left, bottom-right, top-left
\tsetemit 0
\tadd opos, centre, -r1
\tmov oclr, colour
\temit
\tsetemit 1
\tadd opos, centre, -r2
\tmov oclr, colour
\temit
\tsetemit 2, prim
\tadd opos, centre, r2
\tmov oclr, colour
\temit
\t; top-right into slot 0; the winding flag makes (bottom-right, top-right, top-left)
\tsetemit 0, inv prim
\tadd opos, centre, r1
\tmov oclr, colour
\temit
\tend
.end
";

/// Variable mode, one main vertex: c0 = the primitive's vertex count, c1-c2 = the first
/// vertex's position and colour, c3 on = the other vertices' positions. A fan around the first
/// vertex: (c1, c3, c4), and (c1, c4, c5) when the count exceeds 3; every triangle in the first
/// vertex's colour (the others carry no colour).
pub const GS_FAN: &str = "\
; Variable-mode geometry shader of the scene library: a primitive of 3 or 4 vertices as a fan
; in its first vertex's colour.
.gsh variable c8 1
.constf three(3.0, 3.0, 3.0, 3.0)
.out opos position
.out oclr color
.alias num c0
.alias p0 c1
.alias clr c2
.alias p1 c3
.alias p2 c4
.alias p3 c5
.entry gmain
.proc gmain
\tsetemit 0
\tmov opos, p0
\tmov oclr, clr
\temit
\tsetemit 1
\tmov opos, p1
\tmov oclr, clr
\temit
\tsetemit 2, prim
\tmov opos, p2
\tmov oclr, clr
\temit
\tmov r0, num
\tcmp three, lt, lt, r0
\tifc cmp.x
\t\t; slot 0 still holds p0: (p0, p2, p3)
\t\tsetemit 1
\t\tmov opos, p2
\t\tmov oclr, clr
\t\temit
\t\tsetemit 2, prim
\t\tmov opos, p3
\t\tmov oclr, clr
\t\temit
\t.end
\tend
.end
";

/// The big triangle of `gs/subdivide`: corners a (-0.75, -0.75), b (0.75, -0.75),
/// c (0, 0.75); white, as the geometry shader colours its corners itself.
fn big_triangle() -> [Vertex; 3] {
    [
        Vertex::xy(-0.75, -0.75, WHITE),
        Vertex::xy(0.75, -0.75, WHITE),
        Vertex::xy(0.0, 0.75, WHITE),
    ]
}

/// The subdivision GS: six inputs per run (three vertices of two attributes).
fn subdivide_program(b: &mut Builder) -> Result<(), crate::builder::BuildError> {
    b.geometry_program(PASS_THROUGH_VSH, GS_SUBDIVIDE, GsInput { stride: 6 })?;
    Ok(())
}

pub(super) fn subdivide() -> R {
    let mut b = setup32()?;
    subdivide_program(&mut b)?;
    b.vertex_array(&big_triangle());
    b.draw_arrays(GeometryPrimitive, 0, 3);
    Ok(b)
}

pub(super) fn particles() -> R {
    let mut b = setup32()?;
    b.geometry_program(PASS_THROUGH_VSH, GS_PARTICLE, GsInput { stride: 0 })?;
    b.blend(&Blend::new(
        BlendFuncEquation::Add,
        BlendFuncFactor::One,
        BlendFuncFactor::One,
    ));
    b.vertex_array(&[
        Vertex::xy(-0.25, -0.25, RED),
        Vertex::xy(0.0, 0.0, GREEN),
        Vertex::xy(0.5, -0.5, BLUE),
    ]);
    let ib = b.index_buffer_u8(&[0, 1, 2]);
    b.draw_elements(GeometryPrimitive, &ib);
    Ok(b)
}

pub(super) fn variable() -> R {
    let mut b = setup32()?;
    b.geometry_program(PASS_THROUGH_VSH, GS_FAN, GsInput { stride: 0 })?;
    // Only the first vertex of each primitive gives its colour: the others are blue, which
    // must not show.
    b.vertex_array(&[
        Vertex::xy(-0.75, -0.75, RED),
        Vertex::xy(0.0, -0.75, BLUE),
        Vertex::xy(-0.75, 0.0, BLUE),
        Vertex::xy(0.0, 0.0, GREEN),
        Vertex::xy(0.75, 0.0, BLUE),
        Vertex::xy(0.75, 0.75, BLUE),
        Vertex::xy(0.0, 0.75, BLUE),
    ]);
    // A triangle (count 3) and a quad (count 4), each count before its indices.
    let ib = b.index_buffer_u8(&[3, 0, 1, 2, 4, 3, 4, 5, 6]);
    b.draw_elements(GeometryPrimitive, &ib);
    Ok(b)
}

pub(super) fn draw_reset() -> R {
    let mut b = setup32()?;
    subdivide_program(&mut b)?;
    // Draw 1: two vertices of a triangle far to the left, then nothing: its GS input buffer is
    // left a vertex short.
    b.vertex_array(&[Vertex::xy(-1.0, 1.0, WHITE), Vertex::xy(-1.0, -1.0, WHITE)]);
    b.draw_arrays(GeometryPrimitive, 0, 2);
    // An immediate-mode batch of the big triangle: it starts with an empty buffer.
    b.immediate(GeometryPrimitive, &big_triangle());
    Ok(b)
}
