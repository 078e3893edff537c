//! Texture combiner setup: the six stages (GPUREG_TEXENVi_SOURCE / OPERAND / COMBINER / COLOR /
//! SCALE), the combiner buffer (GPUREG_TEXENV_UPDATE_BUFFER buffer-input bits,
//! GPUREG_TEXENV_BUFFER_COLOR), seed 002.

use super::Builder;
use pica_model::regs::{
    self, id, TexenvCombinerMode, TexenvOperandAlpha, TexenvOperandRgb, TexenvScaleFactor,
    TexenvSourceInput, TexenvUpdateBufferInput,
};

/// The first register of each stage's five (seed 002: stages 0-3 at 0x0C0 + 8i, 4-5 at 0x0F0 +
/// 8(i - 4)).
pub const TEXENV_BASE: [u16; 6] = [
    id::TEXENV0_SOURCE,
    id::TEXENV1_SOURCE,
    id::TEXENV2_SOURCE,
    id::TEXENV3_SOURCE,
    id::TEXENV4_SOURCE,
    id::TEXENV5_SOURCE,
];

/// One combiner stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexEnv {
    /// RGB sources 0-2.
    pub rgb_src: [TexenvSourceInput; 3],
    /// Alpha sources 0-2.
    pub alpha_src: [TexenvSourceInput; 3],
    /// RGB operands 0-2.
    pub rgb_op: [TexenvOperandRgb; 3],
    /// Alpha operands 0-2.
    pub alpha_op: [TexenvOperandAlpha; 3],
    /// RGB combine mode.
    pub rgb_mode: TexenvCombinerMode,
    /// Alpha combine mode.
    pub alpha_mode: TexenvCombinerMode,
    /// Constant colour RGBA.
    pub color: [u8; 4],
    /// RGB scale.
    pub rgb_scale: TexenvScaleFactor,
    /// Alpha scale.
    pub alpha_scale: TexenvScaleFactor,
}

impl TexEnv {
    /// `mode` over sources `src` (RGB and alpha alike), operands source colour / source alpha,
    /// constant 0, scale 1×.
    pub const fn new(mode: TexenvCombinerMode, src: [TexenvSourceInput; 3]) -> Self {
        Self {
            rgb_src: src,
            alpha_src: src,
            rgb_op: [TexenvOperandRgb::SourceColor; 3],
            alpha_op: [TexenvOperandAlpha::SourceAlpha; 3],
            rgb_mode: mode,
            alpha_mode: mode,
            color: [0; 4],
            rgb_scale: TexenvScaleFactor::X1,
            alpha_scale: TexenvScaleFactor::X1,
        }
    }

    /// Replace with source `s`.
    pub const fn replace(s: TexenvSourceInput) -> Self {
        Self::new(TexenvCombinerMode::Replace, [s, s, s])
    }

    /// Modulate `a` × `b`.
    pub const fn modulate(a: TexenvSourceInput, b: TexenvSourceInput) -> Self {
        Self::new(TexenvCombinerMode::Modulate, [a, b, b])
    }

    /// A stage that passes the previous stage on (what unused stages are left as).
    pub const fn pass() -> Self {
        Self::replace(TexenvSourceInput::Previous)
    }

    /// The same with the constant colour `c`.
    pub const fn with_color(mut self, c: [u8; 4]) -> Self {
        self.color = c;
        self
    }

    /// The same with RGB operands `op`.
    pub const fn with_rgb_ops(mut self, op: [TexenvOperandRgb; 3]) -> Self {
        self.rgb_op = op;
        self
    }

    /// The same with alpha operands `op`.
    pub const fn with_alpha_ops(mut self, op: [TexenvOperandAlpha; 3]) -> Self {
        self.alpha_op = op;
        self
    }

    /// The same with a different alpha combiner: `mode` over `src`.
    pub const fn with_alpha(
        mut self,
        mode: TexenvCombinerMode,
        src: [TexenvSourceInput; 3],
    ) -> Self {
        self.alpha_mode = mode;
        self.alpha_src = src;
        self
    }

    /// The same with scales `rgb`, `alpha`.
    pub const fn with_scale(mut self, rgb: TexenvScaleFactor, alpha: TexenvScaleFactor) -> Self {
        self.rgb_scale = rgb;
        self.alpha_scale = alpha;
        self
    }

    /// The five words of the stage: SOURCE, OPERAND, COMBINER, COLOR, SCALE.
    pub fn words(&self) -> [u32; 5] {
        let [r, g, b, a] = self.color.map(u32::from);
        [
            regs::TexenvSource(0)
                .with_rgb_source0(self.rgb_src[0])
                .with_rgb_source1(self.rgb_src[1])
                .with_rgb_source2(self.rgb_src[2])
                .with_alpha_source0(self.alpha_src[0])
                .with_alpha_source1(self.alpha_src[1])
                .with_alpha_source2(self.alpha_src[2])
                .0,
            regs::TexenvOperand(0)
                .with_rgb_operand0(self.rgb_op[0])
                .with_rgb_operand1(self.rgb_op[1])
                .with_rgb_operand2(self.rgb_op[2])
                .with_alpha_operand0(self.alpha_op[0])
                .with_alpha_operand1(self.alpha_op[1])
                .with_alpha_operand2(self.alpha_op[2])
                .0,
            regs::TexenvCombiner(0)
                .with_rgb_combine(self.rgb_mode)
                .with_alpha_combine(self.alpha_mode)
                .0,
            regs::TexenvColor(0)
                .with_red(r)
                .with_green(g)
                .with_blue(b)
                .with_alpha(a)
                .0,
            regs::TexenvScale(0)
                .with_rgb_scale(self.rgb_scale)
                .with_alpha_scale(self.alpha_scale)
                .0,
        ]
    }
}

impl Builder {
    /// Combiner stage `stage` (0-5; others ignored): one consecutive write of its five
    /// registers.
    pub fn texenv(&mut self, stage: usize, t: &TexEnv) -> &mut Self {
        if let Some(&base) = TEXENV_BASE.get(stage) {
            self.list.write_seq(base, &t.words());
        }
        self
    }

    /// Stages 0.. set to `stages`, the remaining ones to [`TexEnv::pass`].
    pub fn texenvs(&mut self, stages: &[TexEnv]) -> &mut Self {
        for i in 0..6 {
            let t = stages.get(i).copied().unwrap_or(TexEnv::pass());
            self.texenv(i, &t);
        }
        self
    }

    /// The combiner-buffer inputs of stages 1-4 (GPUREG_TEXENV_UPDATE_BUFFER bits 8-15; `true` =
    /// the stage's output goes into the buffer, "Previous"; `false` = the buffer keeps its
    /// value, "Previous buffer"), written with byte mask 0x2 (seed 002: "typically written with
    /// a mask of 0x2") so the fog settings in bytes 0 and 2 stay.
    pub fn texenv_update_buffer(&mut self, rgb: [bool; 4], alpha: [bool; 4]) -> &mut Self {
        let inp = |on: bool| {
            if on {
                TexenvUpdateBufferInput::Previous
            } else {
                TexenvUpdateBufferInput::PreviousBuffer
            }
        };
        let w = regs::TexenvUpdateBuffer(0)
            .with_texenv1_rgb_buffer_input(inp(rgb[0]))
            .with_texenv2_rgb_buffer_input(inp(rgb[1]))
            .with_texenv3_rgb_buffer_input(inp(rgb[2]))
            .with_texenv4_rgb_buffer_input(inp(rgb[3]))
            .with_texenv1_alpha_buffer_input(inp(alpha[0]))
            .with_texenv2_alpha_buffer_input(inp(alpha[1]))
            .with_texenv3_alpha_buffer_input(inp(alpha[2]))
            .with_texenv4_alpha_buffer_input(inp(alpha[3]))
            .0;
        self.list.write_masked(id::TEXENV_UPDATE_BUFFER, 0x2, w);
        self
    }

    /// The combiner buffer's initial colour: GPUREG_TEXENV_BUFFER_COLOR.
    pub fn texenv_buffer_color(&mut self, c: [u8; 4]) -> &mut Self {
        let [r, g, b, a] = c.map(u32::from);
        self.list.write(
            id::TEXENV_BUFFER_COLOR,
            regs::TexenvBufferColor(0)
                .with_red(r)
                .with_green(g)
                .with_blue(b)
                .with_alpha(a)
                .0,
        );
        self
    }
}
