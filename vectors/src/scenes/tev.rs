//! Texture-combiner scenes: each combine mode, the scales, the combiner buffer and the constant
//! colour. Every scene draws two quads, left (pixels 4-15, primary colour [`P1`]) and right
//! (pixels 16-27, [`P2`]), rows 4-27, through the stages it sets up. Operands that multiply
//! are 0 or 0xFF, so the results are exact whatever the rounding of the products.

use super::{draw_rect, setup32, R};
use crate::builder::texenv::TexEnv;
use pica_model::regs::{
    TexenvCombinerMode as Mode, TexenvOperandAlpha as OpA, TexenvOperandRgb as OpC,
    TexenvScaleFactor as Scale, TexenvSourceInput as Src,
};

/// Left primary colour (1, 0.5, 0.25, 1) → [255, 128, 64, 255].
pub const P1: [f32; 4] = [1.0, 0.5, 0.25, 1.0];
/// Right primary colour (0, 0.25, 0.5, 0.5) → [0, 64, 128, 128].
pub const P2: [f32; 4] = [0.0, 0.25, 0.5, 0.5];

/// The two quads through the combiner stages `stages` (the others pass).
fn two_quads(stages: &[TexEnv]) -> R {
    let mut b = setup32()?;
    b.texenvs(stages);
    draw_rect(&mut b, -0.75, -0.75, 0.0, 0.75, -0.5, P1);
    draw_rect(&mut b, 0.0, -0.75, 0.75, 0.75, -0.5, P2);
    Ok(b)
}

const PRI: [Src; 3] = [Src::PrimaryColor, Src::Constant, Src::Constant];

pub(super) fn replace_constant() -> R {
    two_quads(&[TexEnv::replace(Src::Constant).with_color([0x40, 0x80, 0xFF, 0xFF])])
}

pub(super) fn modulate() -> R {
    two_quads(&[TexEnv::new(Mode::Modulate, PRI).with_color([0xFF, 0x00, 0xFF, 0xFF])])
}

pub(super) fn add() -> R {
    two_quads(&[TexEnv::new(Mode::Add, PRI).with_color([0x40, 0x80, 0x80, 0x40])])
}

pub(super) fn add_signed() -> R {
    two_quads(&[TexEnv::new(Mode::AddSigned, PRI).with_color([0x40, 0x80, 0x80, 0x40])])
}

/// Interpolate(constant, primary, primary red): red is 0xFF on the left, 0 on the right.
pub(super) fn interpolate() -> R {
    two_quads(&[TexEnv::new(
        Mode::Interpolate,
        [Src::Constant, Src::PrimaryColor, Src::PrimaryColor],
    )
    .with_rgb_ops([OpC::SourceColor, OpC::SourceColor, OpC::SourceRed])
    .with_alpha_ops([OpA::SourceAlpha, OpA::SourceAlpha, OpA::SourceRed])
    .with_color([0x40, 0x80, 0x80, 0x40])])
}

pub(super) fn subtract() -> R {
    two_quads(&[TexEnv::new(Mode::Subtract, PRI).with_color([0x40, 0x80, 0x80, 0x40])])
}

/// Dot3 RGB of primary and constant (0xFF, 0xFF, 0): clamps to 1 on the left, 0 on the right;
/// alpha replaces with the primary alpha.
pub(super) fn dot3_rgb() -> R {
    two_quads(&[TexEnv::new(Mode::Dot3Rgb, PRI)
        .with_alpha(Mode::Replace, [Src::PrimaryColor; 3])
        .with_color([0xFF, 0xFF, 0x00, 0xFF])])
}

/// Dot3 RGBA: the same, the dot product also in alpha.
pub(super) fn dot3_rgba() -> R {
    two_quads(&[TexEnv::new(Mode::Dot3Rgba, PRI)
        .with_alpha(Mode::Replace, [Src::PrimaryColor; 3])
        .with_color([0xFF, 0xFF, 0x00, 0xFF])])
}

/// Multiply-then-add: primary × constant (0xFF, 0, 0xFF, 0xFF) + primary.
pub(super) fn multiply_add() -> R {
    two_quads(&[TexEnv::new(
        Mode::MultiplyThenAdd,
        [Src::PrimaryColor, Src::Constant, Src::PrimaryColor],
    )
    .with_color([0xFF, 0x00, 0xFF, 0xFF])])
}

/// Add-then-multiply: (primary + constant (0x40, 0x40, 0x40, 0)) × (1 - constant alpha) = the
/// clamped sum.
pub(super) fn add_multiply() -> R {
    two_quads(&[TexEnv::new(
        Mode::AddThenMultiply,
        [Src::PrimaryColor, Src::Constant, Src::Constant],
    )
    .with_rgb_ops([OpC::SourceColor, OpC::SourceColor, OpC::OneMinusSourceAlpha])
    .with_alpha_ops([OpA::SourceAlpha, OpA::SourceAlpha, OpA::OneMinusSourceAlpha])
    .with_color([0x40, 0x40, 0x40, 0x00])])
}

/// Add with both scales 2×: (primary + 0x10) · 2, clamped.
pub(super) fn scale_2x() -> R {
    two_quads(&[TexEnv::new(Mode::Add, PRI)
        .with_color([0x10; 4])
        .with_scale(Scale::X2, Scale::X2)])
}

/// Replace primary with RGB scale 4×, alpha 1×.
pub(super) fn scale_4x() -> R {
    two_quads(&[TexEnv::replace(Src::PrimaryColor).with_scale(Scale::X4, Scale::X1)])
}

/// The combiner buffer: stage 0 replaces with the constant K0 = (0x40, 0x40, 0x40, 0) and is
/// stored in the buffer (UPDATE_BUFFER bits 8 and 12); stage 1 replaces with the primary
/// colour (not stored); stage 2 adds the previous stage and the previous buffer = primary +
/// K0. The buffer's initial colour (0x10 each) would show if the update were ignored.
pub(super) fn buffer() -> R {
    let mut b = setup32()?;
    b.texenvs(&[
        TexEnv::replace(Src::Constant).with_color([0x40, 0x40, 0x40, 0x00]),
        TexEnv::replace(Src::PrimaryColor),
        TexEnv::new(
            Mode::Add,
            [Src::Previous, Src::PreviousBuffer, Src::PreviousBuffer],
        ),
    ]);
    b.texenv_buffer_color([0x10; 4]);
    b.texenv_update_buffer([true, false, false, false], [true, false, false, false]);
    draw_rect(&mut b, -0.75, -0.75, 0.0, 0.75, -0.5, P1);
    draw_rect(&mut b, 0.0, -0.75, 0.75, 0.75, -0.5, P2);
    Ok(b)
}

/// All six stages in a chain, each adding the constant 0x10 to the previous stage's RGB (alpha
/// passed on): primary + 0x60, clamped.
pub(super) fn six_stages() -> R {
    let add = TexEnv::new(Mode::Add, [Src::Previous, Src::Constant, Src::Constant])
        .with_alpha(Mode::Replace, [Src::Previous; 3])
        .with_color([0x10, 0x10, 0x10, 0x10]);
    two_quads(&[add; 6])
}
