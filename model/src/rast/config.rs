//! The register state RAST reads, decoded once per triangle.
//!
//! REGS holds every register write while a draw is in flight (`gpu.rs`), so the configuration
//! cannot change under a triangle; RAST latches it when it takes the triangle.

use super::setup::PixelRect;
use crate::knobs::{
    Knobs, RastColorConversion, RastDepthConversion, RastDepthFormat1, RastFillRule, RastFix12p4,
    RastScissorMode2, RastScissorX2Y2, RastWbuffer,
};
use crate::regfile::RegFile;
use crate::regs::{self, id};

/// What GPUREG_SCISSORTEST_MODE selects.
///
/// Seed 002 names only 0 (disabled) and 3 (enabled). Azahar `RasterizerRegs::ScissorMode`
/// (regs_rasterizer.h) adds 1 = "Exclude pixels inside the scissor box".
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum ScissorMode {
    /// No scissor test (mode 0).
    Disabled,
    /// Mode 1: only pixels **outside** the scissor box are drawn.
    ///
    /// UNVERIFIED(hw) [fact: rast-scissor-modes]: mode 1 excludes the box — Azahar regs_rasterizer.h `Exclude = 1`; the
    /// seed does not describe the value.
    Outside,
    /// Mode 3 (seed 002 "enabled"): only pixels **inside** the scissor box are drawn.
    Inside,
}

impl ScissorMode {
    /// Decodes the 2-bit field.
    ///
    /// UNVERIFIED(hw) [fact: rast-scissor-modes]: mode 2 is treated as disabled — model choice: 1 and 3 (the two modes
    /// that test) share bit 0, which 2 has clear; no public source describes 2.
    pub fn from_field(mode: regs::ScissortestModeMode) -> Self {
        match mode {
            regs::ScissortestModeMode::Disabled => Self::Disabled,
            regs::ScissortestModeMode::Enabled => Self::Inside,
            regs::ScissortestModeMode::Reserved(1) => Self::Outside,
            regs::ScissortestModeMode::Reserved(_) => Self::Disabled,
        }
    }
}

/// The early depth function of GPUREG_EARLYDEPTH_FUNC (seed 002: 0 `>=`, 1 `>`, 2 `<=`,
/// 3 `<`). A fragment passes when `fragment_depth FUNC stored_depth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum EarlyDepthFunc {
    /// `>=`.
    GreaterEqual,
    /// `>`.
    Greater,
    /// `<=`.
    LessEqual,
    /// `<`.
    Less,
}

impl EarlyDepthFunc {
    /// Decodes the register's 2-bit field (every value has a meaning).
    pub fn from_reg(value: u32) -> Self {
        match regs::EarlydepthFunc(value).function() {
            regs::EarlydepthFunction::GreaterEqual => Self::GreaterEqual,
            regs::EarlydepthFunction::Greater => Self::Greater,
            regs::EarlydepthFunction::LessEqual => Self::LessEqual,
            regs::EarlydepthFunction::Less => Self::Less,
            // A 2-bit field has no fifth value; the generated enum still has the variant.
            regs::EarlydepthFunction::Reserved(_) => Self::GreaterEqual,
        }
    }

    /// Whether `fragment FUNC stored` holds.
    pub fn passes(self, fragment: u32, stored: u32) -> bool {
        match self {
            Self::GreaterEqual => fragment >= stored,
            Self::Greater => fragment > stored,
            Self::LessEqual => fragment <= stored,
            Self::Less => fragment < stored,
        }
    }
}

/// How the depth value of a fragment is formed (GPUREG_DEPTHMAP_ENABLE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum DepthMode {
    /// DEPTHMAP_ENABLE = 1: the depth-mapped `z/w · scale + offset` CLIP gives per vertex,
    /// interpolated linearly in screen space.
    ZBuffer,
    /// DEPTHMAP_ENABLE = 0: that value times the pixel's clip-space w (`z · scale + w ·
    /// offset`).
    ///
    /// UNVERIFIED(hw) [fact: rast-wbuffer-select]: 0 selects the w-buffer — Azahar regs_rasterizer.h `DepthBuffering {
    /// WBuffering = 0, ZBuffering = 1 }` and sw_rasterizer.cpp ("W-Buffer (z * scale + w *
    /// offset = (z / w * scale + offset) * w)"); the seed only says "enable depth range".
    WBuffer,
}

/// Bits of a depth value when GPUREG_DEPTHBUFFER_FORMAT holds the undescribed value 1.
///
/// UNVERIFIED(hw) [fact: rast-depth-format-reserved]: 24 — model choice (the seed lists only 0 = 16-bit, 2 = 24-bit,
/// 3 = 24-bit + stencil).
pub const RESERVED_DEPTH_FORMAT_BITS: u32 = 24;

/// The bits of the early-depth buffer's values: GPUREG_EARLYDEPTH_DATA is a 24-bit field
/// (seed 002), which drivers fill with `0xFFFFFF · clear_depth` (GLASS
/// `GLASS_gpu_setEarlyDepthClear`).
pub const EARLY_DEPTH_BITS: u32 = 24;

/// The GPUREG_TEXUNIT_CONFIG enable bits of the units that use texture-coordinate
/// differences: units 0-2 (bits 0-2) and the procedural texture (bit 10).
pub const TEX_DERIV_UNITS: u32 = 0b111 | 1 << 10;

/// RAST's view of the registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RastConfig {
    /// Framebuffer width in pixels (GPUREG_FRAMEBUFFER_DIM bits 0-10).
    pub fb_width: u32,
    /// Framebuffer height in pixels (GPUREG_FRAMEBUFFER_DIM bits 12-21, plus 1).
    pub fb_height: u32,
    /// GPUREG_SCISSORTEST_MODE.
    pub scissor_mode: ScissorMode,
    /// The scissor box `[x1, y1, x2, y2]`, every bound inclusive (GPUREG_SCISSORTEST_POS is
    /// X1/Y1, GPUREG_SCISSORTEST_DIM is X2/Y2).
    ///
    /// UNVERIFIED(hw) [fact: rast-scissor-inclusive]: X2/Y2 are inclusive — Azahar sw_rasterizer.cpp adds 1 to them ("to cover
    /// the entire sub-pixel area") and drivers write the last pixel, not one past it (GLASS
    /// `GLASS_gpu_setScissorTest`: `width - x - 1`).
    pub scissor: [u32; 4],
    /// Bits of the depth value FOP compares and stores (GPUREG_DEPTHBUFFER_FORMAT).
    pub depth_bits: u32,
    /// GPUREG_DEPTHMAP_ENABLE.
    pub depth_mode: DepthMode,
    /// The early depth function when the early depth test is on, `None` when it is off.
    pub early_depth: Option<EarlyDepthFunc>,
    /// Whether fragments carry texture-coordinate differences
    /// ([`crate::pipe::Fragment::tex_deriv`]): a texture unit is enabled
    /// (GPUREG_TEXUNIT_CONFIG bits 0-2, or bit 10 for the procedural texture, whose mipmap
    /// filters take a level of detail from them, [`crate::tex::proctex::lod`]).
    pub tex_deriv: bool,
    /// Knob `rast-scissor-x2y2`: whether X2/Y2 are inside the box.
    pub scissor_x2y2: RastScissorX2Y2,
    /// Knob `rast-fix12p4`: the window-coordinate conversion ([`super::setup::to_fix12p4_with`]).
    pub fix12p4: RastFix12p4,
    /// Knob `rast-fill-rule`: which edges own the pixel centres on them.
    pub fill_rule: RastFillRule,
    /// Knob `rast-color-conversion`: how the colour converts to bytes
    /// ([`super::interp::color_of_with`]).
    pub color_conversion: RastColorConversion,
    /// Knob `rast-depth-conversion`: how depth is quantized
    /// ([`super::interp::depth_to_uint_with`]).
    pub depth_conversion: RastDepthConversion,
}

impl Default for RastConfig {
    /// Every register 0.
    fn default() -> Self {
        Self::from_words(Words::default())
    }
}

/// The raw register words [`RastConfig`] decodes, for tests that build a configuration
/// without a register file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// GPUREG_FRAMEBUFFER_DIM.
    pub framebuffer_dim: u32,
    /// GPUREG_SCISSORTEST_MODE.
    pub scissor_mode: u32,
    /// GPUREG_SCISSORTEST_POS.
    pub scissor_pos: u32,
    /// GPUREG_SCISSORTEST_DIM.
    pub scissor_dim: u32,
    /// GPUREG_DEPTHBUFFER_FORMAT.
    pub depthbuffer_format: u32,
    /// GPUREG_DEPTHMAP_ENABLE.
    pub depthmap_enable: u32,
    /// GPUREG_EARLYDEPTH_TEST1.
    pub earlydepth_test1: u32,
    /// GPUREG_EARLYDEPTH_TEST2.
    pub earlydepth_test2: u32,
    /// GPUREG_EARLYDEPTH_FUNC.
    pub earlydepth_func: u32,
    /// GPUREG_TEXUNIT_CONFIG.
    pub texunit_config: u32,
}

impl Words {
    /// The words as the register file holds them.
    pub fn from_regs(regs: &RegFile) -> Self {
        let r = |i: u16| regs.reg(i.into());
        Self {
            framebuffer_dim: r(id::FRAMEBUFFER_DIM),
            scissor_mode: r(id::SCISSORTEST_MODE),
            scissor_pos: r(id::SCISSORTEST_POS),
            scissor_dim: r(id::SCISSORTEST_DIM),
            depthbuffer_format: r(id::DEPTHBUFFER_FORMAT),
            depthmap_enable: r(id::DEPTHMAP_ENABLE),
            earlydepth_test1: r(id::EARLYDEPTH_TEST1),
            earlydepth_test2: r(id::EARLYDEPTH_TEST2),
            earlydepth_func: r(id::EARLYDEPTH_FUNC),
            texunit_config: r(id::TEXUNIT_CONFIG),
        }
    }
}

impl RastConfig {
    /// Decodes the registers, with the register file's knobs.
    pub fn from_regs(regs: &RegFile) -> Self {
        Self::from_words_knobs(Words::from_regs(regs), regs.knobs())
    }

    /// Decodes raw register words with `knobs` (the rasterizer's: scissor mode 2 and X2/Y2,
    /// the w-buffer select, depth format 1, the 12.4 conversion, the fill rule and the depth
    /// conversion).
    pub fn from_words_knobs(w: Words, knobs: &Knobs) -> Self {
        let mut c = Self::from_words(w);
        if regs::ScissortestMode(w.scissor_mode).mode() == regs::ScissortestModeMode::Reserved(2) {
            c.scissor_mode = match knobs.rast_scissor_mode2 {
                RastScissorMode2::Disabled => ScissorMode::Disabled,
                RastScissorMode2::Inside => ScissorMode::Inside,
                RastScissorMode2::Outside => ScissorMode::Outside,
            };
        }
        if knobs.rast_wbuffer == RastWbuffer::One {
            c.depth_mode = match c.depth_mode {
                DepthMode::ZBuffer => DepthMode::WBuffer,
                DepthMode::WBuffer => DepthMode::ZBuffer,
            };
        }
        if regs::DepthbufferFormat(w.depthbuffer_format).format()
            == regs::DepthbufferFormatFormat::Reserved(1)
            && knobs.rast_depth_format1 == RastDepthFormat1::D16
        {
            c.depth_bits = 16;
        }
        c.scissor_x2y2 = knobs.rast_scissor_x2y2;
        c.fix12p4 = knobs.rast_fix12p4;
        c.fill_rule = knobs.rast_fill_rule;
        c.depth_conversion = knobs.rast_depth_conversion;
        c.color_conversion = knobs.rast_color_conversion;
        c
    }

    /// Decodes raw register words.
    ///
    /// - The framebuffer bounds come from GPUREG_FRAMEBUFFER_DIM (0x11E). UNVERIFIED(hw) [fact: fop-framebuffer-dim]:
    ///   GPUREG_RENDERBUF_DIM (0x6E, same layout, in the rasterizer's register block) is not
    ///   read — model choice: drivers write both with the same value (citro3d
    ///   `C3Di_FrameBufBind` writes 0x11C-0x11E incrementally, then RENDERBUF_DIM), Azahar bounds its framebuffer by 0x11E and ignores 0x6E, and
    ///   0x11E is what FOP addresses memory with, so every fragment is addressable.
    /// - The early depth test is on when GPUREG_EARLYDEPTH_TEST1 bit 0 **and**
    ///   GPUREG_EARLYDEPTH_TEST2 bit 0 are set. UNVERIFIED(hw) [fact: rast-early-depth]: model choice; drivers (citro3d,
    ///   GLASS) always write the two together, the seed calls both "enabled".
    pub fn from_words(w: Words) -> Self {
        let dim = regs::FramebufferDim(w.framebuffer_dim);
        let pos = regs::ScissortestPos(w.scissor_pos);
        let sdim = regs::ScissortestDim(w.scissor_dim);
        let depth_bits = match regs::DepthbufferFormat(w.depthbuffer_format).format() {
            regs::DepthbufferFormatFormat::D16 => 16,
            regs::DepthbufferFormatFormat::D24 | regs::DepthbufferFormatFormat::D24S8 => 24,
            regs::DepthbufferFormatFormat::Reserved(_) => RESERVED_DEPTH_FORMAT_BITS,
        };
        let early_on = regs::EarlydepthTest1(w.earlydepth_test1).enabled()
            && regs::EarlydepthTest2(w.earlydepth_test2).enabled();
        Self {
            fb_width: dim.width(),
            fb_height: dim.height_minus_1() + 1,
            scissor_mode: ScissorMode::from_field(regs::ScissortestMode(w.scissor_mode).mode()),
            scissor: [pos.x1(), pos.y1(), sdim.x2(), sdim.y2()],
            depth_bits,
            depth_mode: if regs::DepthmapEnable(w.depthmap_enable).enabled() {
                DepthMode::ZBuffer
            } else {
                DepthMode::WBuffer
            },
            early_depth: early_on.then(|| EarlyDepthFunc::from_reg(w.earlydepth_func)),
            tex_deriv: w.texunit_config & TEX_DERIV_UNITS != 0,
            scissor_x2y2: RastScissorX2Y2::Inclusive,
            fix12p4: RastFix12p4::Round,
            fill_rule: RastFillRule::Azahar,
            depth_conversion: RastDepthConversion::Truncate,
            color_conversion: RastColorConversion::Round,
        }
    }

    /// The framebuffer's pixels, `None` for a zero width.
    pub fn framebuffer_rect(&self) -> Option<PixelRect> {
        PixelRect::new(
            0,
            0,
            i32::try_from(self.fb_width).unwrap_or(i32::MAX) - 1,
            i32::try_from(self.fb_height).unwrap_or(i32::MAX) - 1,
        )
    }

    /// The scissor box, `None` when X2 < X1 or Y2 < Y1 (an empty box).
    pub fn scissor_rect(&self) -> Option<PixelRect> {
        let c = self.scissor.map(|v| i32::try_from(v).unwrap_or(i32::MAX));
        // Knob `rast-scissor-x2y2=exclusive`: X2/Y2 are one past the box.
        let end = match self.scissor_x2y2 {
            RastScissorX2Y2::Inclusive => 0,
            RastScissorX2Y2::Exclusive => 1,
        };
        PixelRect::new(c[0], c[1], c[2] - end, c[3] - end)
    }

    /// The pixels traversal walks for a triangle with bounding box `bbox`: the box clipped to
    /// the framebuffer and, in [`ScissorMode::Inside`], to the scissor box. `None`: nothing
    /// to walk.
    pub fn traversal_rect(&self, bbox: PixelRect) -> Option<PixelRect> {
        let r = bbox.intersect(self.framebuffer_rect()?)?;
        match self.scissor_mode {
            ScissorMode::Inside => r.intersect(self.scissor_rect()?),
            ScissorMode::Disabled | ScissorMode::Outside => Some(r),
        }
    }

    /// Whether the scissor test lets pixel (`x`, `y`) through.
    pub fn scissor_passes(&self, x: i32, y: i32) -> bool {
        let inside = self.scissor_rect().is_some_and(|r| r.contains(x, y));
        match self.scissor_mode {
            ScissorMode::Disabled => true,
            ScissorMode::Inside => inside,
            ScissorMode::Outside => !inside,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rast_config_decodes_registers() {
        let c = RastConfig::from_words(Words {
            framebuffer_dim: 240 | (399 << 12) | (1 << 24),
            scissor_mode: 3,
            scissor_pos: 10 | (20 << 16),
            scissor_dim: 30 | (40 << 16),
            depthbuffer_format: 0,
            depthmap_enable: 1,
            earlydepth_test1: 1,
            earlydepth_test2: 1,
            earlydepth_func: 2,
            texunit_config: 0x1400,
        });
        // Only unit 3 (procedural) is on: its mipmap filters need the differences.
        assert!(c.tex_deriv);
        assert_eq!((c.fb_width, c.fb_height), (240, 400));
        assert_eq!(c.scissor_mode, ScissorMode::Inside);
        assert_eq!(c.scissor, [10, 20, 30, 40]);
        assert_eq!(c.depth_bits, 16);
        assert_eq!(c.depth_mode, DepthMode::ZBuffer);
        assert_eq!(c.early_depth, Some(EarlyDepthFunc::LessEqual));
        assert_eq!(c.framebuffer_rect(), PixelRect::new(0, 0, 239, 399));
        assert_eq!(c.scissor_rect(), PixelRect::new(10, 20, 30, 40));
    }

    #[test]
    fn rast_config_reserved_and_default_values() {
        let c = RastConfig::default();
        assert_eq!((c.fb_width, c.fb_height), (0, 1));
        assert_eq!(c.framebuffer_rect(), None);
        assert_eq!(c.scissor_mode, ScissorMode::Disabled);
        assert_eq!(c.depth_bits, 16);
        assert_eq!(c.depth_mode, DepthMode::WBuffer);
        assert_eq!(c.early_depth, None);
        let w = |scissor_mode, depthbuffer_format| {
            RastConfig::from_words(Words {
                scissor_mode,
                depthbuffer_format,
                framebuffer_dim: u32::MAX,
                ..Words::default()
            })
        };
        assert_eq!(w(1, 1).scissor_mode, ScissorMode::Outside);
        assert_eq!(w(2, 1).scissor_mode, ScissorMode::Disabled);
        assert_eq!(w(0xFFFF_FFFE, 1).scissor_mode, ScissorMode::Disabled);
        assert_eq!(w(1, 1).depth_bits, RESERVED_DEPTH_FORMAT_BITS);
        assert_eq!(w(0, 2).depth_bits, 24);
        assert_eq!(w(0, 3).depth_bits, 24);
        assert_eq!((w(0, 0).fb_width, w(0, 0).fb_height), (2047, 1024));
    }

    #[test]
    fn rast_early_depth_func_compares_fragment_to_stored() {
        use EarlyDepthFunc::*;
        let table = [
            (0, GreaterEqual, [true, true, false]),
            (1, Greater, [true, false, false]),
            (2, LessEqual, [false, true, true]),
            (3, Less, [false, false, true]),
        ];
        for (raw, func, want) in table {
            assert_eq!(EarlyDepthFunc::from_reg(raw), func);
            // fragment 5 against stored 4, 5, 6
            assert_eq!([4, 5, 6].map(|s| func.passes(5, s)), want, "{func:?}");
        }
        assert_eq!(EarlyDepthFunc::from_reg(0xFFFF_FFFC), GreaterEqual);
    }
}
