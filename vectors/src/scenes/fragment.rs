//! Fragment-operation scenes: depth, stencil, alpha test, blending, logic ops, write masks,
//! buffer formats and tiling.

use super::{
    cell, draw, draw_rect, setup32, BG, BLUE, CYAN, GREEN, MAGENTA, R, RED, WHITE, YELLOW,
};
use crate::builder::{Blend, Builder, Clear, ColorFormat, DepthFormat, FbAccess, FbConfig, Vertex};
use pica_model::regs::PrimitiveConfigMode::{TriangleStrip, Triangles};
use pica_model::regs::{
    BlendFuncEquation as Eq, BlendFuncFactor as F, CompareFunction, LogicOpOperation,
    StencilOpAction as Op,
};

// ---- depth ----

/// Quad A (green, z = -0.5: depth 0.5) over the bottom-left, drawn with depth function Always
/// and depth writes; then quad B (red) over the top-right, its depth running from 0.25 on the
/// left edge to 0.75 on the right, with depth function `func` (depth writes on).
fn depth_pair(b: &mut Builder, func: CompareFunction) {
    b.depth_test(true, CompareFunction::Always)
        .depth_write(true);
    draw_rect(b, -0.75, -0.75, 0.5, 0.5, -0.5, GREEN);
    b.depth_test(true, func);
    draw(
        b,
        Triangles,
        &[
            Vertex::xyz(-0.5, -0.5, -0.25, RED),
            Vertex::xyz(0.75, -0.5, -0.75, RED),
            Vertex::xyz(-0.5, 0.75, -0.25, RED),
            Vertex::xyz(-0.5, 0.75, -0.25, RED),
            Vertex::xyz(0.75, -0.5, -0.75, RED),
            Vertex::xyz(0.75, 0.75, -0.75, RED),
        ],
    );
}

fn depth_scene(func: CompareFunction) -> R {
    let mut b = setup32()?;
    depth_pair(&mut b, func);
    Ok(b)
}

pub(super) fn depth_never() -> R {
    depth_scene(CompareFunction::Never)
}

pub(super) fn depth_always() -> R {
    depth_scene(CompareFunction::Always)
}

pub(super) fn depth_less() -> R {
    depth_scene(CompareFunction::Less)
}

pub(super) fn depth_greater_equal() -> R {
    depth_scene(CompareFunction::GreaterEqual)
}

pub(super) fn depth_equal() -> R {
    let mut b = setup32()?;
    // The same sloped quad twice: the second pass computes the same depths, so Equal passes
    // exactly where the first one drew.
    let quad = [
        Vertex::xyz(-0.75, -0.75, -0.25, GREEN),
        Vertex::xyz(0.5, -0.75, -0.75, GREEN),
        Vertex::xyz(-0.75, 0.5, -0.25, GREEN),
        Vertex::xyz(0.5, 0.5, -0.75, GREEN),
    ];
    b.depth_test(true, CompareFunction::Always)
        .depth_write(true);
    draw(&mut b, TriangleStrip, &quad);
    b.depth_test(true, CompareFunction::Equal);
    draw(
        &mut b,
        TriangleStrip,
        &quad.map(|v| Vertex::new(v.pos, BLUE)),
    );
    Ok(b)
}

pub(super) fn depth_test_off_writes() -> R {
    let mut b = setup32()?;
    // Test disabled (function Never, which must not matter), depth writes on: quad A writes
    // depth 0.25. Then quad B at depth 0.75 everywhere with Less: hidden where A wrote.
    b.depth_test(false, CompareFunction::Never)
        .depth_write(true);
    draw_rect(&mut b, -0.75, -0.75, 0.5, 0.5, -0.25, RED);
    b.depth_test(true, CompareFunction::Less);
    draw_rect(&mut b, -1.0, -1.0, 1.0, 1.0, -0.75, BLUE);
    Ok(b)
}

pub(super) fn depth_write_off() -> R {
    let mut b = setup32()?;
    // Quad A at depth 0.25 with depth writes off, then quad B at depth 0.75 with Less: B is
    // drawn everywhere, over A (the depth buffer still holds the far plane).
    b.depth_test(true, CompareFunction::Always)
        .depth_write(false);
    draw_rect(&mut b, -0.75, -0.75, 0.5, 0.5, -0.25, RED);
    b.depth_test(true, CompareFunction::Less).depth_write(true);
    draw_rect(&mut b, -0.5, -0.5, 1.0, 1.0, -0.75, BLUE);
    Ok(b)
}

// ---- stencil ----

/// Full-screen passes that show where the stencil buffer holds each value: for each
/// `(value, colour)`, a quad drawn with stencil function Equal, reference `value`, no stencil
/// writes.
fn show_stencil(b: &mut Builder, values: &[(u8, [f32; 4])]) {
    b.color_write([true; 4]);
    b.stencil_op(Op::Keep, Op::Keep, Op::Keep);
    for &(v, c) in values {
        b.stencil_test(true, CompareFunction::Equal, v, 0xFF, 0x00);
        draw_rect(b, -1.0, -1.0, 1.0, 1.0, -0.5, c);
    }
}

pub(super) fn stencil_mask_equal() -> R {
    let mut b = setup32()?;
    b.color_write([false; 4]);
    b.stencil_test(true, CompareFunction::Always, 1, 0xFF, 0xFF);
    b.stencil_op(Op::Keep, Op::Keep, Op::Replace);
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, WHITE),
            Vertex::xy(0.75, -0.75, WHITE),
            Vertex::xy(0.0, 0.75, WHITE),
        ],
    );
    show_stencil(&mut b, &[(1, RED)]);
    Ok(b)
}

pub(super) fn stencil_ops() -> R {
    let mut b = Builder::standard(FbConfig::new(32, 32), Clear::color(BG).with_stencil(0xFE))?;
    b.color_write([false; 4]);
    // Each pass: stencil function Always, the operation on depth pass (depth test off).
    let passes: [(Op, (f32, f32, f32, f32)); 7] = [
        (Op::IncrementWrap, (-1.0, -1.0, 0.0, 1.0)), // left half
        (Op::IncrementWrap, (-1.0, -1.0, 1.0, 0.0)), // bottom half
        (Op::Increment, (0.0, -1.0, 1.0, 1.0)),      // right half (saturates)
        (Op::Decrement, (-1.0, 0.0, 1.0, 1.0)),      // top half
        (Op::DecrementWrap, (-1.0, -1.0, 1.0, -0.75)), // bottom strip
        (Op::Invert, (-0.5, -0.5, 0.5, 0.5)),        // centre square
        (Op::Zero, (-0.25, -0.25, 0.25, 0.25)),      // inner square
    ];
    for (op, (x0, y0, x1, y1)) in passes {
        b.stencil_test(true, CompareFunction::Always, 0, 0xFF, 0xFF);
        b.stencil_op(Op::Keep, Op::Keep, op);
        draw_rect(&mut b, x0, y0, x1, y1, -0.5, WHITE);
    }
    show_stencil(
        &mut b,
        &[
            (0x00, RED),
            (0x01, GREEN),
            (0xFE, BLUE),
            (0xFF, YELLOW),
            (0xFD, CYAN),
        ],
    );
    Ok(b)
}

pub(super) fn stencil_masks() -> R {
    let mut b = setup32()?;
    // Write 0xFF through write mask 0x0F: the buffer gets 0x0F inside the triangle.
    b.color_write([false; 4]);
    b.stencil_test(true, CompareFunction::Always, 0xFF, 0xFF, 0x0F);
    b.stencil_op(Op::Keep, Op::Keep, Op::Replace);
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, WHITE),
            Vertex::xy(0.75, -0.75, WHITE),
            Vertex::xy(0.0, 0.75, WHITE),
        ],
    );
    // (0xFF & 0x0F) == (stencil & 0x0F) only inside the triangle.
    b.color_write([true; 4]);
    b.stencil_op(Op::Keep, Op::Keep, Op::Keep);
    b.stencil_test(true, CompareFunction::Equal, 0xFF, 0x0F, 0x00);
    draw_rect(&mut b, -1.0, -1.0, 1.0, 1.0, -0.5, GREEN);
    Ok(b)
}

pub(super) fn stencil_depth_fail() -> R {
    let mut b = setup32()?;
    // Quad A (grey) writes depth 0.25. Quad B at depth 0.75 with Less and no depth writes:
    // where A is in front, B fails the depth test (z-fail: Replace with 0x80); elsewhere it
    // passes (z-pass: IncrementWrap, 0 -> 1).
    b.depth_test(true, CompareFunction::Always)
        .depth_write(true);
    draw_rect(
        &mut b,
        -0.75,
        -0.75,
        0.25,
        0.25,
        -0.25,
        [0.5, 0.5, 0.5, 1.0],
    );
    b.depth_test(true, CompareFunction::Less).depth_write(false);
    b.color_write([false; 4]);
    b.stencil_test(true, CompareFunction::Always, 0x80, 0xFF, 0xFF);
    b.stencil_op(Op::Keep, Op::Replace, Op::IncrementWrap);
    draw_rect(&mut b, -0.25, -0.25, 0.75, 0.75, -0.75, WHITE);
    b.depth_test(false, CompareFunction::Always);
    show_stencil(&mut b, &[(0x80, RED), (0x01, GREEN)]);
    Ok(b)
}

// ---- alpha test ----

pub(super) fn alpha_greater() -> R {
    let mut b = setup32()?;
    b.alpha_test(true, CompareFunction::Greater, 0x80);
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, [1.0, 1.0, 1.0, 0.0]),
            Vertex::xy(0.75, -0.75, [1.0, 1.0, 1.0, 1.0]),
            Vertex::xy(0.0, 0.75, [1.0, 1.0, 1.0, 0.5]),
        ],
    );
    Ok(b)
}

pub(super) fn alpha_functions() -> R {
    let mut b = setup32()?;
    for f in 0..8u32 {
        b.alpha_test(true, CompareFunction::from_bits(f), 0x80);
        let (x0, y0, x1, y1) = cell(f);
        draw_rect(&mut b, x0, y0, x1, y1, -0.5, [1.0, 1.0, 0.0, 0.5]);
    }
    Ok(b)
}

// ---- blending ----

/// The source colour of the blend scenes.
const SRC: [f32; 4] = [1.0, 0.5, 0.25, 0.5];

/// The blend constant colour of the blend scenes (GPUREG_BLEND_COLOR).
const BLEND_CONST: [u8; 4] = [0x40, 0x80, 0xC0, 0x80];

/// A triangle of colour [`SRC`] blended over the clear colour with `blend` (constant colour
/// [`BLEND_CONST`]).
fn blend_scene(blend: Blend) -> R {
    let mut b = setup32()?;
    b.blend_color(BLEND_CONST);
    b.blend(&blend);
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, SRC),
            Vertex::xy(0.75, -0.75, SRC),
            Vertex::xy(0.0, 0.75, SRC),
        ],
    );
    Ok(b)
}

pub(super) fn blend_alpha() -> R {
    blend_scene(Blend::ALPHA)
}

pub(super) fn blend_add() -> R {
    blend_scene(Blend::new(Eq::Add, F::One, F::One))
}

pub(super) fn blend_subtract() -> R {
    blend_scene(Blend::new(Eq::Subtract, F::One, F::One))
}

pub(super) fn blend_reverse_subtract() -> R {
    blend_scene(Blend::new(Eq::ReverseSubtract, F::One, F::One))
}

pub(super) fn blend_min() -> R {
    blend_scene(Blend::new(Eq::Min, F::One, F::One))
}

pub(super) fn blend_max() -> R {
    blend_scene(Blend::new(Eq::Max, F::One, F::One))
}

pub(super) fn blend_constant() -> R {
    blend_scene(Blend {
        rgb_eq: Eq::Add,
        alpha_eq: Eq::Add,
        rgb_src: F::ConstantColor,
        rgb_dst: F::OneMinusConstantColor,
        alpha_src: F::ConstantAlpha,
        alpha_dst: F::OneMinusConstantAlpha,
    })
}

pub(super) fn blend_separate_alpha() -> R {
    blend_scene(Blend {
        rgb_eq: Eq::Add,
        alpha_eq: Eq::Max,
        rgb_src: F::SourceAlpha,
        rgb_dst: F::OneMinusSourceAlpha,
        alpha_src: F::Zero,
        alpha_dst: F::One,
    })
}

/// Fifteen 8×8 quads of colour [`SRC`], quad `i` blended with `blend(i)`; cell 15 is left
/// with the clear colour.
fn blend_grid(blend: fn(u32) -> Blend) -> R {
    let mut b = setup32()?;
    b.blend_color(BLEND_CONST);
    for i in 0..15u32 {
        b.blend(&blend(i));
        let (x0, y0, x1, y1) = cell(i);
        draw_rect(&mut b, x0, y0, x1, y1, -0.5, SRC);
    }
    Ok(b)
}

pub(super) fn blend_src_factors() -> R {
    blend_grid(|i| Blend::new(Eq::Add, F::from_bits(i), F::OneMinusSourceAlpha))
}

pub(super) fn blend_dst_factors() -> R {
    blend_grid(|i| Blend::new(Eq::Add, F::SourceAlpha, F::from_bits(i)))
}

pub(super) fn blend_equations_5_7() -> R {
    let mut b = setup32()?;
    // Four vertical stripes: equation 0 (add), 5, 6, 7, all with factors one, one.
    for (k, eq) in [0u32, 5, 6, 7].into_iter().enumerate() {
        b.blend(&Blend::new(Eq::from_bits(eq), F::One, F::One));
        let x0 = -1.0 + 0.5 * k as f32;
        draw_rect(&mut b, x0, -0.75, x0 + 0.5, 0.75, -0.5, SRC);
    }
    Ok(b)
}

// ---- logic ops ----

pub(super) fn logic_xor() -> R {
    let mut b = setup32()?;
    b.logic_op(LogicOpOperation::Xor);
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, YELLOW),
            Vertex::xy(0.75, -0.75, YELLOW),
            Vertex::xy(0.0, 0.75, YELLOW),
        ],
    );
    Ok(b)
}

pub(super) fn logic_all_ops() -> R {
    let mut b = setup32()?;
    for op in 0..16u32 {
        b.logic_op(LogicOpOperation::from_bits(op));
        let (x0, y0, x1, y1) = cell(op);
        draw_rect(&mut b, x0, y0, x1, y1, -0.5, [1.0, 0.0, 1.0, 0.0]);
    }
    Ok(b)
}

// ---- write masks and buffer access ----

fn white_triangle(b: &mut Builder) {
    draw(
        b,
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, WHITE),
            Vertex::xy(0.75, -0.75, WHITE),
            Vertex::xy(0.0, 0.75, WHITE),
        ],
    );
}

pub(super) fn color_mask() -> R {
    let mut b = setup32()?;
    b.color_write([true, false, false, true]);
    white_triangle(&mut b);
    Ok(b)
}

pub(super) fn color_buffer_write_off() -> R {
    let mut b = setup32()?;
    b.framebuffer_access(FbAccess {
        color_write: false,
        ..FbAccess::ALL
    });
    white_triangle(&mut b);
    Ok(b)
}

pub(super) fn depth_buffer_write_off() -> R {
    let mut b = setup32()?;
    // Depth writes enabled in DEPTH_COLOR_MASK but not in DEPTHBUFFER_WRITE: quad A leaves the
    // depth buffer at the far plane, so quad B (depth 0.75, Less) covers it afterwards.
    b.framebuffer_access(FbAccess {
        depth_write: false,
        ..FbAccess::ALL
    });
    b.depth_test(true, CompareFunction::Always)
        .depth_write(true);
    draw_rect(&mut b, -0.75, -0.75, 0.5, 0.5, -0.25, RED);
    b.framebuffer_access(FbAccess::ALL);
    b.depth_test(true, CompareFunction::Less);
    draw_rect(&mut b, -0.5, -0.5, 1.0, 1.0, -0.75, BLUE);
    Ok(b)
}

// ---- formats and tiling ----

fn format_color(f: ColorFormat) -> R {
    let mut b = Builder::standard(FbConfig::new(32, 32).with_color(f), Clear::color(BG))?;
    draw_rect(&mut b, 0.5, 0.5, 1.0, 1.0, -0.5, WHITE);
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.75, -0.75, [1.0, 0.0, 0.0, 0.5]),
            Vertex::xy(0.75, -0.75, [0.0, 1.0, 0.0, 0.5]),
            Vertex::xy(0.0, 0.75, [0.0, 0.0, 1.0, 0.5]),
        ],
    );
    Ok(b)
}

pub(super) fn format_rgba8() -> R {
    format_color(ColorFormat::Rgba8)
}

pub(super) fn format_rgb5a1() -> R {
    format_color(ColorFormat::Rgb5a1)
}

pub(super) fn format_rgb565() -> R {
    format_color(ColorFormat::Rgb565)
}

pub(super) fn format_rgba4() -> R {
    format_color(ColorFormat::Rgba4)
}

fn format_depth(f: DepthFormat) -> R {
    let mut b = Builder::standard(FbConfig::new(32, 32).with_depth(f), Clear::color(BG))?;
    if f.has_stencil() {
        b.stencil_test(true, CompareFunction::Always, 0x5A, 0xFF, 0xFF);
        b.stencil_op(Op::Keep, Op::Keep, Op::Replace);
    }
    depth_pair(&mut b, CompareFunction::Less);
    Ok(b)
}

pub(super) fn format_d16() -> R {
    format_depth(DepthFormat::D16)
}

pub(super) fn format_d24() -> R {
    format_depth(DepthFormat::D24)
}

pub(super) fn format_d24s8() -> R {
    format_depth(DepthFormat::D24S8)
}

/// A 64×64 picture touching every 8×8 and 32×32 block: a 4×4 checker of 16×16 quads in eight
/// colours, and a triangle across the middle.
fn tile_picture(block32: bool) -> R {
    let mut b = Builder::standard(
        FbConfig::new(64, 64).with_block32(block32),
        Clear::color(BG),
    )?;
    let colors = [
        RED,
        GREEN,
        BLUE,
        YELLOW,
        CYAN,
        MAGENTA,
        WHITE,
        [0.5, 0.5, 0.5, 1.0],
    ];
    for n in 0..16u32 {
        let (x0, y0, x1, y1) = cell(n);
        draw_rect(&mut b, x0, y0, x1, y1, -0.5, colors[(n as usize * 3) % 8]);
    }
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.9, -0.3, WHITE),
            Vertex::xy(0.9, -0.6, BLUE),
            Vertex::xy(0.2, 0.9, RED),
        ],
    );
    Ok(b)
}

pub(super) fn tile_block8() -> R {
    tile_picture(false)
}

pub(super) fn tile_block32() -> R {
    tile_picture(true)
}
