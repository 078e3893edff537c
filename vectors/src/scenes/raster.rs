//! Rasterizer scenes: fill rule, perspective, viewport, culling, scissor, clipping, depth map.

use super::{draw, draw_rect, setup32, BLUE, CYAN, GREEN, MAGENTA, R, RED, WHITE, YELLOW};
use crate::builder::{ScissorMode, Vertex};
use pica_model::regs::CompareFunction;
use pica_model::regs::FacecullingConfigMode;
use pica_model::regs::PrimitiveConfigMode::Triangles;

pub(super) fn fill_rule() -> R {
    let mut b = setup32()?;
    // A quad on pixel edges (clip ±0.5 is pixel 8 / 24 on 32 pixels) split along its diagonal
    // into a red and a green triangle: every pixel of the square belongs to exactly one.
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.5, -0.5, RED),
            Vertex::xy(0.5, -0.5, RED),
            Vertex::xy(-0.5, 0.5, RED),
            Vertex::xy(-0.5, 0.5, GREEN),
            Vertex::xy(0.5, -0.5, GREEN),
            Vertex::xy(0.5, 0.5, GREEN),
        ],
    );
    Ok(b)
}

pub(super) fn perspective() -> R {
    let mut b = setup32()?;
    // A quad whose right edge is 4 times farther (w = 4; x, y, z scaled so that it projects to
    // the same square): the colour, red on the left and green on the right, is interpolated
    // perspective-correctly, so the middle of the screen is mostly red.
    let v = |x: f32, y: f32, w: f32, c| Vertex::new([x * w, y * w, -0.5 * w, w], c);
    draw(
        &mut b,
        Triangles,
        &[
            v(-0.75, -0.75, 1.0, RED),
            v(0.75, -0.75, 4.0, GREEN),
            v(-0.75, 0.75, 1.0, RED),
            v(-0.75, 0.75, 1.0, RED),
            v(0.75, -0.75, 4.0, GREEN),
            v(0.75, 0.75, 4.0, GREEN),
        ],
    );
    Ok(b)
}

pub(super) fn viewport_offset() -> R {
    let mut b = setup32()?;
    b.viewport(8, 8, 16, 16);
    draw_rect(&mut b, -1.0, -1.0, 1.0, 1.0, -0.5, YELLOW);
    // A triangle inside the same viewport.
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.5, -0.5, RED),
            Vertex::xy(0.5, -0.5, GREEN),
            Vertex::xy(0.0, 0.5, BLUE),
        ],
    );
    Ok(b)
}

/// A CCW triangle on the left (red) and a CW one on the right (green).
fn two_windings(mode: FacecullingConfigMode) -> R {
    let mut b = setup32()?;
    b.cull(mode);
    draw(
        &mut b,
        Triangles,
        &[
            Vertex::xy(-0.875, -0.75, RED),
            Vertex::xy(-0.125, -0.75, RED),
            Vertex::xy(-0.5, 0.75, RED),
            Vertex::xy(0.125, -0.75, GREEN),
            Vertex::xy(0.5, 0.75, GREEN),
            Vertex::xy(0.875, -0.75, GREEN),
        ],
    );
    Ok(b)
}

pub(super) fn cull_none() -> R {
    two_windings(FacecullingConfigMode::None)
}

pub(super) fn cull_front_ccw() -> R {
    two_windings(FacecullingConfigMode::FrontCcw)
}

pub(super) fn cull_back_ccw() -> R {
    two_windings(FacecullingConfigMode::BackCcw)
}

pub(super) fn cull_reserved_3() -> R {
    two_windings(FacecullingConfigMode::Reserved(3))
}

fn scissor(mode: ScissorMode) -> R {
    let mut b = setup32()?;
    b.scissor(mode, 8, 8, 16, 12);
    draw_rect(&mut b, -1.0, -1.0, 1.0, 1.0, -0.5, CYAN);
    Ok(b)
}

pub(super) fn scissor_inside() -> R {
    scissor(ScissorMode::Inside)
}

pub(super) fn scissor_outside() -> R {
    scissor(ScissorMode::Outside)
}

/// A triangle with one vertex at `far` (clip coordinates), the others inside.
fn clip_scene(a: [f32; 4], bv: [f32; 4], c: [f32; 4]) -> R {
    let mut bld = setup32()?;
    draw(
        &mut bld,
        Triangles,
        &[
            Vertex::new(a, RED),
            Vertex::new(bv, GREEN),
            Vertex::new(c, BLUE),
        ],
    );
    Ok(bld)
}

pub(super) fn clip_left() -> R {
    clip_scene(
        [-2.0, 0.0, -0.5, 1.0],
        [0.5, -0.75, -0.5, 1.0],
        [0.5, 0.75, -0.5, 1.0],
    )
}

pub(super) fn clip_right() -> R {
    clip_scene(
        [2.0, 0.0, -0.5, 1.0],
        [-0.5, 0.75, -0.5, 1.0],
        [-0.5, -0.75, -0.5, 1.0],
    )
}

pub(super) fn clip_bottom() -> R {
    clip_scene(
        [0.0, -2.0, -0.5, 1.0],
        [0.75, 0.5, -0.5, 1.0],
        [-0.75, 0.5, -0.5, 1.0],
    )
}

pub(super) fn clip_top() -> R {
    clip_scene(
        [0.0, 2.0, -0.5, 1.0],
        [-0.75, -0.5, -0.5, 1.0],
        [0.75, -0.5, -0.5, 1.0],
    )
}

pub(super) fn clip_near() -> R {
    // Depth = -z/w: the near plane is z = 0, this vertex is in front of it.
    clip_scene(
        [0.0, 0.75, 0.5, 1.0],
        [-0.75, -0.75, -0.5, 1.0],
        [0.75, -0.75, -0.5, 1.0],
    )
}

pub(super) fn clip_far() -> R {
    clip_scene(
        [0.0, 0.75, -1.5, 1.0],
        [-0.75, -0.75, -0.5, 1.0],
        [0.75, -0.75, -0.5, 1.0],
    )
}

pub(super) fn clip_w_guard() -> R {
    // The first vertex is behind the eye (w = -1): the triangle crosses w = 0 and is cut by
    // the w > 0 guard (and by the frustum planes, whose sides the sign of w flips).
    clip_scene(
        [0.0, -0.5, 0.5, -1.0],
        [-0.75, -0.75, -0.5, 1.0],
        [0.75, -0.75, -0.5, 1.0],
    )
}

pub(super) fn clip_user_plane() -> R {
    let mut b = setup32()?;
    b.user_clip(Some([1.0, 1.0, 0.0, 0.0]));
    draw_rect(&mut b, -1.0, -1.0, 1.0, 1.0, -0.5, MAGENTA);
    Ok(b)
}

pub(super) fn clip_all_planes() -> R {
    clip_scene(
        [-3.0, -3.0, -0.5, 1.0],
        [3.0, -3.0, -0.5, 1.0],
        [0.0, 3.0, -0.5, 1.0],
    )
}

pub(super) fn depthmap_scale_offset() -> R {
    let mut b = setup32()?;
    // Depth = z/w * -0.5 + 0.25. Quad A at z = -0.5 (depth 0.5) first, then quad B at
    // z = -0.25 (depth 0.375, nearer) with depth test Less: B shows over A.
    b.depth_map(true, -0.5, 0.25);
    b.depth_test(true, CompareFunction::Less).depth_write(true);
    draw_rect(&mut b, -0.75, -0.75, 0.25, 0.25, -0.5, RED);
    draw_rect(&mut b, -0.25, -0.25, 0.75, 0.75, -0.25, GREEN);
    Ok(b)
}

pub(super) fn depthmap_w_buffer() -> R {
    let mut b = setup32()?;
    // W-buffer mode: depth from w (1 on the left, 3 on the right) instead of z/w, written
    // to the depth buffer (look at it with --depth-png).
    b.depth_map(false, -0.25, 0.0);
    b.depth_test(false, CompareFunction::Always)
        .depth_write(true);
    let v = |x: f32, y: f32, w: f32, c| Vertex::new([x * w, y * w, -0.5 * w, w], c);
    draw(
        &mut b,
        Triangles,
        &[
            v(-0.75, -0.75, 1.0, WHITE),
            v(0.75, -0.75, 3.0, WHITE),
            v(-0.75, 0.75, 1.0, WHITE),
            v(-0.75, 0.75, 1.0, WHITE),
            v(0.75, -0.75, 3.0, WHITE),
            v(0.75, 0.75, 3.0, WHITE),
        ],
    );
    Ok(b)
}
