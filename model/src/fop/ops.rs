//! The per-fragment operations as pure functions on integers: comparisons (alpha, stencil and
//! depth tests), stencil actions, blending and logic ops.
//!
//! Facts from seed 002 (GPUREG_FRAGOP_ALPHA_TEST, GPUREG_STENCIL_TEST / _OP,
//! GPUREG_DEPTH_COLOR_MASK, GPUREG_BLEND_FUNC, GPUREG_LOGIC_OP) and, where the seed is silent,
//! Azahar `video_core/renderer_software/sw_rasterizer.cpp` / `sw_framebuffer.cpp` and the
//! hardware tests the Citra project reported (cited at each function).

use crate::knobs::FopBlendRounding;
use crate::regs::{
    BlendFuncEquation, BlendFuncFactor, CompareFunction, LogicOpOperation, StencilOpAction,
};

/// `lhs FUNC rhs` for the eight comparison functions (seed 002 "Function values").
///
/// Operand order (Azahar `DoAlphaTest` / `DoDepthStencilTest`): the alpha test compares the
/// fragment's alpha with the reference (`Less` passes when `alpha < reference`); the depth test
/// compares the fragment's depth with the stored depth (`Less` passes when `fragment <
/// stored`); the stencil test compares the masked reference with the masked stored stencil
/// (`Less` passes when `reference & mask < stored & mask`, as in OpenGL).
///
/// The field is 3 bits wide and all eight values are described; a `Reserved` value (which
/// the generated decoder cannot produce from 3 bits) fails.
pub const fn compare(func: CompareFunction, lhs: u32, rhs: u32) -> bool {
    match func {
        CompareFunction::Never => false,
        CompareFunction::Always => true,
        CompareFunction::Equal => lhs == rhs,
        CompareFunction::NotEqual => lhs != rhs,
        CompareFunction::Less => lhs < rhs,
        CompareFunction::LessEqual => lhs <= rhs,
        CompareFunction::Greater => lhs > rhs,
        CompareFunction::GreaterEqual => lhs >= rhs,
        CompareFunction::Reserved(_) => false,
    }
}

/// The stencil value an action produces from the stored value `old` (seed 002 "Operation
/// values"; saturation and wrap as Azahar `PerformStencilAction`).
///
/// `Replace` writes the full 8-bit reference (not masked by the test mask). The write mask is
/// applied afterwards by the caller ([`masked_stencil`]). The field is 3 bits wide and all
/// eight values are described; a `Reserved` value keeps the old value.
pub const fn stencil_action(action: StencilOpAction, old: u8, reference: u8) -> u8 {
    match action {
        StencilOpAction::Keep => old,
        StencilOpAction::Zero => 0,
        StencilOpAction::Replace => reference,
        StencilOpAction::Increment => old.saturating_add(1),
        StencilOpAction::Decrement => old.saturating_sub(1),
        StencilOpAction::Invert => !old,
        StencilOpAction::IncrementWrap => old.wrapping_add(1),
        StencilOpAction::DecrementWrap => old.wrapping_sub(1),
        StencilOpAction::Reserved(_) => old,
    }
}

/// The stencil byte stored after an action: the bits GPUREG_STENCIL_TEST's write mask ("Buffer
/// mask", bits 8-15) selects come from `new`, the others stay `old` (Azahar `update_stencil`).
pub const fn masked_stencil(new: u8, old: u8, write_mask: u8) -> u8 {
    (new & write_mask) | (old & !write_mask)
}

/// A blend factor for `channel` (0 = red ... 3 = alpha) as an 8-bit fraction of 255.
///
/// Seed 002 names the factors; what each means per channel follows Azahar `PixelColor`
/// `lookup_factor`, hardware-tested for the alpha channel (citra-emu/citra#1625, "confirmed
/// using HW-Test"): for the alpha channel the colour factors use the alpha component (source
/// colour on alpha = source alpha), and "source alpha saturate" is 1.0 (255) on alpha and
/// `min(source alpha, 255 - destination alpha)` on red, green and blue.
///
/// UNVERIFIED(hw) [fact: fop-blend-factor-15]: the undescribed factor 15 acts as One — Azahar's OpenGL back end maps
/// unknown factors to `GL_ONE`; no hardware result is public.
pub const fn blend_factor(
    factor: BlendFuncFactor,
    channel: usize,
    src: [u8; 4],
    dst: [u8; 4],
    constant: [u8; 4],
) -> u8 {
    let ch = if channel < 4 { channel } else { 3 };
    match factor {
        BlendFuncFactor::Zero => 0,
        BlendFuncFactor::One => 255,
        BlendFuncFactor::SourceColor => src[ch],
        BlendFuncFactor::OneMinusSourceColor => 255 - src[ch],
        BlendFuncFactor::DestinationColor => dst[ch],
        BlendFuncFactor::OneMinusDestinationColor => 255 - dst[ch],
        BlendFuncFactor::SourceAlpha => src[3],
        BlendFuncFactor::OneMinusSourceAlpha => 255 - src[3],
        BlendFuncFactor::DestinationAlpha => dst[3],
        BlendFuncFactor::OneMinusDestinationAlpha => 255 - dst[3],
        BlendFuncFactor::ConstantColor => constant[ch],
        BlendFuncFactor::OneMinusConstantColor => 255 - constant[ch],
        BlendFuncFactor::ConstantAlpha => constant[3],
        BlendFuncFactor::OneMinusConstantAlpha => 255 - constant[3],
        BlendFuncFactor::SourceAlphaSaturate => {
            if ch == 3 {
                255
            } else {
                let inv = 255 - dst[3];
                if src[3] < inv {
                    src[3]
                } else {
                    inv
                }
            }
        }
        BlendFuncFactor::Reserved(_) => 255,
    }
}

/// Divisor of the blend products: factors are fractions of 255 (255 = 1.0).
pub const BLEND_ONE: u32 = 255;

/// One channel of the blend equation on 8-bit values: `s` and `d` the source and destination
/// channel, `sf` and `df` their factors.
///
/// The rounding rule: the two products `p = s * sf` and `q = d * df` are exact integers
/// (at most 65025); the equation combines them exactly (add: `p + q`, subtract: `p - q`,
/// reverse subtract: `q - p`, min / max: `min(p, q)` / `max(p, q)`); the result is divided by
/// 255 truncating and clamped to 0..=255 (a negative difference gives 0).
/// UNVERIFIED(hw) [fact: fop-blend-rounding]: truncating division of the exact sum — Azahar `EvaluateBlendEquation`; the
/// hardware tests of citra-emu/citra#1625 report "some off-by-ones" against this formula, and
/// no public source gives the exact hardware rule.
///
/// Min and max apply the factors before comparing (unlike OpenGL): hardware-tested,
/// citra-emu/citra#2684 / citra-emu/citra#6925. Equations 5, 6 and 7 behave as Add (seed 002;
/// hardware-tested, citra-emu/citra#2658).
pub const fn blend_channel(eq: BlendFuncEquation, s: u8, sf: u8, d: u8, df: u8) -> u8 {
    blend_channel_with(eq, s, sf, d, df, FopBlendRounding::Truncate)
}

/// [`blend_channel`] with knob `fop-blend-rounding`: [`FopBlendRounding::Nearest`] divides
/// the combined products by 255 rounding to nearest (halves up) instead of truncating.
pub const fn blend_channel_with(
    eq: BlendFuncEquation,
    s: u8,
    sf: u8,
    d: u8,
    df: u8,
    rounding: FopBlendRounding,
) -> u8 {
    let half = match rounding {
        FopBlendRounding::Truncate => 0,
        FopBlendRounding::Nearest => BLEND_ONE / 2,
    };
    let p = s as u32 * sf as u32;
    let q = d as u32 * df as u32;
    let v = match eq {
        BlendFuncEquation::Add | BlendFuncEquation::Reserved(_) => p + q,
        BlendFuncEquation::Subtract => p.saturating_sub(q),
        BlendFuncEquation::ReverseSubtract => q.saturating_sub(p),
        BlendFuncEquation::Min => {
            if p < q {
                p
            } else {
                q
            }
        }
        BlendFuncEquation::Max => {
            if p > q {
                p
            } else {
                q
            }
        }
    };
    let v = (v + half) / BLEND_ONE;
    if v > 255 {
        255
    } else {
        v as u8
    }
}

/// The blend configuration of GPUREG_BLEND_FUNC and GPUREG_BLEND_COLOR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blend {
    /// Equation for red, green and blue.
    pub rgb_equation: BlendFuncEquation,
    /// Equation for alpha.
    pub alpha_equation: BlendFuncEquation,
    /// Source factor for red, green and blue.
    pub rgb_src: BlendFuncFactor,
    /// Destination factor for red, green and blue.
    pub rgb_dst: BlendFuncFactor,
    /// Source factor for alpha.
    pub alpha_src: BlendFuncFactor,
    /// Destination factor for alpha.
    pub alpha_dst: BlendFuncFactor,
    /// The constant colour `[r, g, b, a]` (GPUREG_BLEND_COLOR).
    pub constant: [u8; 4],
    /// Knob `fop-blend-rounding`: how the equation divides by 255.
    pub rounding: FopBlendRounding,
}

impl Blend {
    /// Whether every channel's result is the source: equation add, source factor one,
    /// destination factor zero, for RGB and alpha alike.
    const fn is_source(&self) -> bool {
        matches!(self.rgb_equation, BlendFuncEquation::Add)
            && matches!(self.alpha_equation, BlendFuncEquation::Add)
            && matches!(self.rgb_src, BlendFuncFactor::One)
            && matches!(self.alpha_src, BlendFuncFactor::One)
            && matches!(self.rgb_dst, BlendFuncFactor::Zero)
            && matches!(self.alpha_dst, BlendFuncFactor::Zero)
    }

    /// Blends source `src` (the combiner output) over destination `dst` (the colour buffer).
    pub const fn apply(&self, src: [u8; 4], dst: [u8; 4]) -> [u8; 4] {
        // `src · 1 + dst · 0` (the blend every draw without transparency sets up) is `src`:
        // `(s · 255 + half) / 255 = s` for either rounding (`half` < 255). Four channels of
        // factor selection and division are then a comparison.
        if self.is_source() {
            return src;
        }
        let mut out = [0u8; 4];
        let mut ch = 0;
        while ch < 4 {
            let (eq, sfac, dfac) = if ch == 3 {
                (self.alpha_equation, self.alpha_src, self.alpha_dst)
            } else {
                (self.rgb_equation, self.rgb_src, self.rgb_dst)
            };
            let sf = blend_factor(sfac, ch, src, dst, self.constant);
            let df = blend_factor(dfac, ch, src, dst, self.constant);
            out[ch] = blend_channel_with(eq, src[ch], sf, dst[ch], df, self.rounding);
            ch += 1;
        }
        out
    }
}

/// The logic op on one 8-bit channel, `s` the source (combiner output) and `d` the
/// destination (seed 002 "Logic op values", meanings as OpenGL's `glLogicOp` and Azahar
/// `LogicOp`). Applied to all four channels.
pub const fn logic_op(op: LogicOpOperation, s: u8, d: u8) -> u8 {
    match op {
        LogicOpOperation::Clear => 0,
        LogicOpOperation::And => s & d,
        LogicOpOperation::ReverseAnd => s & !d,
        LogicOpOperation::Copy => s,
        LogicOpOperation::Set => 0xFF,
        LogicOpOperation::InvertedCopy => !s,
        LogicOpOperation::Noop => d,
        LogicOpOperation::Invert => !d,
        LogicOpOperation::Nand => !(s & d),
        LogicOpOperation::Or => s | d,
        LogicOpOperation::Nor => !(s | d),
        LogicOpOperation::Xor => s ^ d,
        LogicOpOperation::Equivalent => !(s ^ d),
        LogicOpOperation::InvertedAnd => !s & d,
        LogicOpOperation::ReverseOr => s | !d,
        LogicOpOperation::InvertedOr => !s | d,
        // 4-bit field, all sixteen values described: cannot occur.
        LogicOpOperation::Reserved(_) => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fop_compare_operand_order() {
        assert!(compare(CompareFunction::Less, 1, 2));
        assert!(!compare(CompareFunction::Less, 2, 1));
        assert!(!compare(CompareFunction::Reserved(9), 0, 0));
    }

    /// The source shortcut of [`Blend::apply`] gives what the equation gives, for every
    /// source and destination byte and both roundings.
    #[test]
    fn fop_blend_source_one_dest_zero_is_the_source() {
        for rounding in [FopBlendRounding::Truncate, FopBlendRounding::Nearest] {
            for s in 0..=255u8 {
                for d in (0..=255u8).step_by(5) {
                    let full = blend_channel_with(BlendFuncEquation::Add, s, 255, d, 0, rounding);
                    assert_eq!(full, s);
                }
            }
            let b = Blend {
                rgb_equation: BlendFuncEquation::Add,
                alpha_equation: BlendFuncEquation::Add,
                rgb_src: BlendFuncFactor::One,
                rgb_dst: BlendFuncFactor::Zero,
                alpha_src: BlendFuncFactor::One,
                alpha_dst: BlendFuncFactor::Zero,
                constant: [1, 2, 3, 4],
                rounding,
            };
            assert!(b.is_source());
            assert_eq!(b.apply([9, 99, 199, 255], [1, 2, 3, 4]), [9, 99, 199, 255]);
        }
    }

    #[test]
    fn fop_blend_channel_truncates_after_the_exact_sum() {
        // 100*128 + 200*127 = 12800 + 25400 = 38200; /255 = 149.8 → 149.
        assert_eq!(
            blend_channel(BlendFuncEquation::Add, 100, 128, 200, 127),
            149
        );
        // One and zero are exact.
        assert_eq!(blend_channel(BlendFuncEquation::Add, 77, 255, 200, 0), 77);
        // Saturation at 255.
        assert_eq!(
            blend_channel(BlendFuncEquation::Add, 255, 255, 255, 255),
            255
        );
    }
}
