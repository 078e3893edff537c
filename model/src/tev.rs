//! TEV: the six texture combiners and the combiner buffer.
//!
//! Each fragment passes through six combiner stages (seed 002 GPUREG_TEXENVi_*, stage registers
//! at 0x0C0, 0x0C8, 0x0D0, 0x0D8, 0x0F0 and 0x0F8). A stage has an RGB and an alpha half; each
//! half picks three sources ([`source`]), reduces each through an operand ([`rgb_operand`],
//! [`alpha_operand`]), combines the three ([`combine_channel`], [`dot3`]) and scales the result
//! with saturation ([`scale`]). All arithmetic is on 8-bit integer channels.
//!
//! ## Stage inputs
//!
//! - "Primary colour" is the fragment's interpolated vertex colour (`Fragment::color`); "fragment
//!   primary / secondary colour" are LIGHT's outputs; "texture 0-3" are TEX's.
//! - "Previous" is the previous stage's (scaled, saturated) output. In stage 0 it reads the
//!   primary colour (seed 002 GPUREG_TEXENVi_SOURCE: "Using previous source in the first TEV
//!   stage returns the primary color").
//! - "Previous buffer" reads the combiner buffer (below); in stage 0 it reads zero (same seed
//!   sentence: "while previous buffer returns zero").
//!
//! The model follows the seed where Azahar differs: Azahar `WriteTevConfig` starts
//! `combiner_output` ("previous") at zero and, in stage 0 only, substitutes RGB source 2's
//! colour for an RGB source 0 or 1 set to "previous". Azahar's GLSL generator
//! (`glsl_fs_shader_gen.cpp` `AppendColorModifier` / `AppendAlphaModifier`, `force_source3`)
//! does the same for RGB and also for alpha: in stage 0 an alpha source 0 or 1 set to
//! "previous" reads alpha source 2 (and "previous" itself starts at zero there too). With the
//! seed's rule, which the model keeps (UNVERIFIED(hw) [fact: tev-stage0-previous]), all three RGB and alpha sources set to
//! "previous" in stage 0 read the primary colour.
//!
//! ## The combiner buffer
//!
//! GPUREG_TEXENV_UPDATE_BUFFER bits 8-11 (RGB) and 12-15 (alpha) are, per the seed, the
//! "TexEnv k buffer input" of stages k = 1..4: 0 = "previous buffer", 1 = "previous". Stage k's
//! buffer unit selects, beside the combiner, between the two inputs stage k itself receives: its
//! "previous" (stage k-1's output) or its "previous buffer" (the buffer stage k-1 passed on).
//! What it selects is the "previous buffer" of stage k+1. Stage 0 passes on
//! GPUREG_TEXENV_BUFFER_COLOR, so:
//!
//! ```text
//! buffer read by stage 0      = 0                                   (seed)
//! buffer read by stage 1  B0  = TEXENV_BUFFER_COLOR
//! buffer read by stage k+1 Bk = bit(7+k) ? out(k-1) : B(k-1)         k = 1..4 (RGB; alpha bit 11+k)
//! buffer read by stage 6  B5  = B4                                   (no stage 6: model choice)
//! ```
//!
//! So bit 8 puts stage **0**'s output into the buffer that stage **2** reads: the buffer lags the
//! combiners by one stage. This is exactly what Azahar `sw_rasterizer.cpp` `WriteTevConfig`
//! computes (its `combiner_buffer` starts at zero, becomes `next_combiner_buffer` — initially
//! the buffer colour — after each stage, and `next_combiner_buffer` takes stage i's output
//! when bit 8+i is set, for i = 0..3), and what libctru's `GPU_TEV_BUFFER_WRITE_CONFIG(stage0,
//! stage1, stage2, stage3)` (bit 0 of the 4-bit mask = "stage 0") means by "stage 0 writes the
//! buffer". [`StageOut::buffer`] of stage i is `Bi`.
//!
//! UNVERIFIED(hw) [fact: tev-formulas]: every combine formula below except [`dot3`] is Azahar's software renderer
//! (`video_core/renderer_software/sw_texturing.cpp`), not a hardware measurement; pica-facts §4
//! notes these formulas are "known to be off by a few units in places". [`dot3`] is fitted to
//! a hardware table (`../shared/hw-data/dot3-rgb.tsv`, every point).

use crate::knobs::TevStage0Previous;
use crate::pipe::ShadedFragment;
use crate::regfile::RegFile;
use crate::regs::{
    self, id, TexenvCombinerMode, TexenvOperandAlpha, TexenvOperandRgb, TexenvScaleFactor,
    TexenvSourceInput, TexenvUpdateBufferInput,
};

/// One combiner stage's result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageOut {
    /// The stage's output `[r, g, b, a]` ("previous" for the next stage).
    pub color: [u8; 4],
    /// The combiner buffer after the stage ("previous buffer" for the next stage).
    pub buffer: [u8; 4],
}

/// What the combiners produce for one fragment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TevOut {
    /// Each of the six stages.
    pub stages: [StageOut; 6],
    /// The last stage's output.
    pub color: [u8; 4],
}

/// Number of combiner stages.
pub const NUM_STAGES: usize = 6;

/// GPUREG_TEXENVi_SOURCE of each stage; OPERAND, COMBINER, COLOR and SCALE follow it at +1..+4
/// (seed 002 register map).
pub const STAGE_BASE: [u16; NUM_STAGES] = [
    id::TEXENV0_SOURCE,
    id::TEXENV1_SOURCE,
    id::TEXENV2_SOURCE,
    id::TEXENV3_SOURCE,
    id::TEXENV4_SOURCE,
    id::TEXENV5_SOURCE,
];

/// What "previous buffer" reads in stage 0 (seed 002 GPUREG_TEXENVi_SOURCE: "previous buffer
/// returns zero"; Azahar agrees).
pub const STAGE0_PREVIOUS_BUFFER: [u8; 4] = [0; 4];

/// What a reserved source value (7-12) reads.
///
/// UNVERIFIED(hw) [fact: tev-reserved-values]: zero — model choice; the seed lists no meaning for 7-12 and Azahar
/// `WriteTevConfig` returns {0, 0, 0, 0} for them (with an "unknown source" error).
pub const RESERVED_SOURCE: [u8; 4] = [0; 4];

/// Result of a combiner half whose combine mode is reserved (10-15).
///
/// UNVERIFIED(hw) [fact: tev-reserved-values]: zero — model choice, as Azahar `ColorCombine` / `AlphaCombine` return for
/// unknown operations.
pub const RESERVED_COMBINE: u8 = 0;

/// Result of the alpha combiner when its own mode is DOT3_RGB or DOT3_RGBA (and the RGB mode
/// is not DOT3_RGBA, which overrides alpha).
///
/// UNVERIFIED(hw) [fact: tev-alpha-dot3]: zero — model choice, as Azahar `AlphaCombine` (no dot3 case: "unknown
/// alpha combiner operation", returns 0).
pub const ALPHA_DOT3: u8 = 0;

/// The bias subtracted by ADD_SIGNED (the 8-bit 0.5).
///
/// UNVERIFIED(hw) [fact: tev-formulas]: 128 — Azahar `sw_texturing.cpp` ("TODO: Verify that the color conversion
/// from (float) 0.5f to (byte) 128 is correct").
pub const ADD_SIGNED_BIAS: i32 = 128;

/// Left shift of the reserved scale value 3.
///
/// UNVERIFIED(hw) [fact: tev-reserved-values]: 0 (1×) — Azahar `TevStageConfig::GetColorMultiplier` returns 1 for
/// `scale >= 3`.
pub const RESERVED_SCALE_SHIFT: u32 = 0;

/// The six-stage input colours that do not depend on the stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    /// Primary colour (the interpolated vertex colour).
    pub primary: [u8; 4],
    /// Fragment-lighting primary colour.
    pub frag_primary: [u8; 4],
    /// Fragment-lighting secondary colour.
    pub frag_secondary: [u8; 4],
    /// Texture units 0-3.
    pub tex: [[u8; 4]; 4],
}

impl Inputs {
    /// The inputs of a shaded fragment.
    pub fn of(f: &ShadedFragment) -> Self {
        Self {
            primary: f.frag.color,
            frag_primary: f.light_primary,
            frag_secondary: f.light_secondary,
            tex: f.tex,
        }
    }
}

/// One stage's five registers, raw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageRegs {
    /// GPUREG_TEXENVi_SOURCE.
    pub source: regs::TexenvSource,
    /// GPUREG_TEXENVi_OPERAND.
    pub operand: regs::TexenvOperand,
    /// GPUREG_TEXENVi_COMBINER.
    pub combiner: regs::TexenvCombiner,
    /// GPUREG_TEXENVi_COLOR (the constant colour).
    pub color: regs::TexenvColor,
    /// GPUREG_TEXENVi_SCALE.
    pub scale: regs::TexenvScale,
}

impl StageRegs {
    /// Stage `stage`'s registers (stages beyond 5 read stage 5).
    pub fn read(regs: &RegFile, stage: usize) -> Self {
        let base = u32::from(STAGE_BASE[stage.min(NUM_STAGES - 1)]);
        Self {
            source: regs::TexenvSource(regs.reg(base)),
            operand: regs::TexenvOperand(regs.reg(base + 1)),
            combiner: regs::TexenvCombiner(regs.reg(base + 2)),
            color: regs::TexenvColor(regs.reg(base + 3)),
            scale: regs::TexenvScale(regs.reg(base + 4)),
        }
    }

    /// The constant colour `[r, g, b, a]`.
    pub fn constant(&self) -> [u8; 4] {
        self.color.0.to_le_bytes()
    }
}

/// The colour a source value selects. `previous` and `previous_buffer` are what the stage
/// receives (for stage 0: the primary colour and [`STAGE0_PREVIOUS_BUFFER`]).
pub fn source(
    src: TexenvSourceInput,
    inputs: &Inputs,
    constant: [u8; 4],
    previous: [u8; 4],
    previous_buffer: [u8; 4],
) -> [u8; 4] {
    match src {
        TexenvSourceInput::PrimaryColor => inputs.primary,
        TexenvSourceInput::FragmentPrimaryColor => inputs.frag_primary,
        TexenvSourceInput::FragmentSecondaryColor => inputs.frag_secondary,
        TexenvSourceInput::Texture0 => inputs.tex[0],
        TexenvSourceInput::Texture1 => inputs.tex[1],
        TexenvSourceInput::Texture2 => inputs.tex[2],
        TexenvSourceInput::Texture3 => inputs.tex[3],
        TexenvSourceInput::PreviousBuffer => previous_buffer,
        TexenvSourceInput::Constant => constant,
        TexenvSourceInput::Previous => previous,
        TexenvSourceInput::Reserved(_) => RESERVED_SOURCE,
    }
}

/// An RGB operand applied to a source colour `c = [r, g, b, a]`: the selected channel(s),
/// inverted (`255 - x`) for the "one minus" values.
///
/// The documented values are bit-coded: bits 2-3 pick the channel (0 = colour or alpha by
/// bit 1, 1 = red, 2 = green, 3 = blue) and bit 0 inverts.
/// UNVERIFIED(hw) [fact: tev-reserved-values]: the reserved values 6/7, 10/11, 14/15 follow the same decoding (bit 1 is
/// ignored when bits 2-3 are non-zero), so they read as red/green/blue (inverted when odd) —
/// model choice, kept. Azahar's software renderer treats them as unreachable; its GLSL
/// generator (`AppendColorModifier`, default case) gives `vec3(0)` for them.
pub fn rgb_operand(op: TexenvOperandRgb, c: [u8; 4]) -> [u8; 3] {
    let v = op.bits();
    let picked = match (v >> 2) & 3 {
        0 if v & 2 == 0 => [c[0], c[1], c[2]],
        0 => [c[3]; 3],
        1 => [c[0]; 3],
        2 => [c[1]; 3],
        _ => [c[2]; 3],
    };
    if v & 1 != 0 {
        picked.map(|x| 255 - x)
    } else {
        picked
    }
}

/// An alpha operand applied to a source colour `c = [r, g, b, a]` (all eight 3-bit values are
/// documented: bits 1-2 pick alpha, red, green, blue; bit 0 inverts).
pub fn alpha_operand(op: TexenvOperandAlpha, c: [u8; 4]) -> u8 {
    let v = op.bits();
    let x = match (v >> 1) & 3 {
        0 => c[3],
        1 => c[0],
        2 => c[1],
        _ => c[2],
    };
    if v & 1 != 0 {
        255 - x
    } else {
        x
    }
}

/// One channel of a non-dot3 combine mode on operands `a`, `b`, `c`. Division truncates.
///
/// UNVERIFIED(hw) [fact: tev-formulas]: the formulas and their truncation are Azahar `sw_texturing.cpp`
/// `ColorCombine` / `AlphaCombine` (integer `/ 255`):
/// - REPLACE: `a`
/// - MODULATE: `a·b / 255`
/// - ADD: `min(a + b, 255)`
/// - ADD_SIGNED: `clamp(a + b - 128, 0, 255)`
/// - INTERPOLATE: `(a·c + b·(255 - c)) / 255`
/// - SUBTRACT: `max(a - b, 0)`
/// - MULTIPLY_ADD: `min((a·b + 255·c) / 255, 255)`
/// - ADD_MULTIPLY: `min(a + b, 255)·c / 255`
///
/// DOT3 modes and reserved modes give [`ALPHA_DOT3`] / [`RESERVED_COMBINE`] here; the RGB
/// half handles dot3 with [`dot3`].
pub fn combine_channel(mode: TexenvCombinerMode, a: u8, b: u8, c: u8) -> u8 {
    let (a, b, c) = (u32::from(a), u32::from(b), u32::from(c));
    let r = match mode {
        TexenvCombinerMode::Replace => a,
        TexenvCombinerMode::Modulate => a * b / 255,
        TexenvCombinerMode::Add => (a + b).min(255),
        TexenvCombinerMode::AddSigned => {
            // a + b <= 510: the i32 conversion cannot fail.
            let s = i32::try_from(a + b).unwrap_or(i32::MAX) - ADD_SIGNED_BIAS;
            s.clamp(0, 255).unsigned_abs()
        }
        TexenvCombinerMode::Interpolate => (a * c + b * (255 - c)) / 255,
        TexenvCombinerMode::Subtract => a.saturating_sub(b),
        TexenvCombinerMode::MultiplyThenAdd => ((a * b + 255 * c) / 255).min(255),
        TexenvCombinerMode::AddThenMultiply => (a + b).min(255) * c / 255,
        TexenvCombinerMode::Dot3Rgb | TexenvCombinerMode::Dot3Rgba => u32::from(ALPHA_DOT3),
        TexenvCombinerMode::Reserved(_) => u32::from(RESERVED_COMBINE),
    };
    // Every arm is <= 255 by construction; saturate rather than assume.
    r.min(255) as u8
}

/// DOT3 of two RGB operands, the same value for every channel (DOT3_RGB, and DOT3_RGBA whose
/// alpha takes the same value: [`run_stage`]). In units of 1/255 it is
/// `4·Σ (a/255 − ½)(b/255 − ½)` = `Σ (2a − 255)(2b − 255) / 255`, computed per channel as the
/// hardware does, with one's-complement signed operands:
///
/// ```text
/// d(x)   = 2x − 255 as 9 bits {!x[7], x[6:0], 1}, read as ONE's complement:
///          sign s(x) = !x[7]; magnitude m(x) = x[7] ? 2x − 255 : 254 − 2x   (8 bits)
/// q      = round(m(a)·m(b) / 255)              (= (p + 128 + ((p + 128) >> 8)) >> 8, p = m(a)·m(b))
/// term   = s(a) == s(b) ? q : !q               (!q = −q − 1: one's-complement negation)
/// dot3   = clamp(term_r + term_g + term_b, 0, 255)
/// ```
///
/// [`dot3_term`] is one channel. Both one's-complement steps are cheap XORs in gates (the
/// magnitude is `{x[6:0] ^ {7{!x[7]}}, x[7]}`), and their two effects are what the
/// measurement shows: a negative operand is one unit closer to zero than `2x − 255`
/// (`0x7F` reads as −0, so `0x37·0x37` is `144² → 81` per channel, not `145² → 82`), and a
/// term whose operand signs differ is one unit lower (`dot3((0x80,·,·), (0x7F,·,·))` has a
/// −1 in that channel even though its magnitude product is 0).
///
/// Source: the hardware table `../shared/hw-data/dot3-rgb.tsv` (real 3DS, public test
/// yuriks/3DS_gpu_tests branch DOT3_RGB: combiner 0 = DOT3_RGB(constant, texture 0), 7
/// configurations × 256 inputs). This formula gives every one of the 1,792 points
/// (`model/tests/hw_dot3.rs`); it was the only exact fit of a systematic search over
/// operand conversions (`2x − c`, `x − c`, inputs truncated by 1-2 bits, `(2x − 255) >> r`
/// floored or toward zero, bit-replicated 9/10-bit expansions, one's-complement readings),
/// products in two's complement (floor or toward-zero quantisation) or sign-magnitude
/// (negation by two's or one's complement), divisors 2^k and 255·2^j with every rounding
/// bias, optional per-channel clamp, sum bias and final shift (40 million formulas). The
/// emulator formula the model used before, `Σ ((2a − 255)(2b − 255) + 128) / 256` toward zero
/// (Azahar `sw_texturing.cpp`, whose comment already notes that `(0x80,·,·)·(0x7F,·,·)` and
/// `(0x80,·,·)·(0x80,·,·)` differ on hardware), gives 1,566 of the 1,792.
///
/// UNVERIFIED(hw) [fact: tev-dot3-unseen]: what the table cannot see. (1) A term with differing signs is pinned at a
/// single point (magnitude product 0 → −1); larger negative terms are always cancelled by the
/// clamp in the table, so their rounding (`!round(p/255)`) follows from the one's-complement
/// reading, not from a measurement. (2) `(p + (p >> 8) + 128) >> 8`, a cheaper /255, also
/// fits all 1,792 points (it differs from `round(p/255)` on 12 products, none measured); the
/// model keeps the exact rounding.
pub fn dot3(a: [u8; 3], b: [u8; 3]) -> u8 {
    let sum: i32 = (0..3).map(|i| dot3_term(a[i], b[i])).sum();
    // sum is in [-768, 765]: the clamp leaves 0..=255.
    sum.clamp(0, 255) as u8
}

/// One channel of [`dot3`]: `round(m(a)·m(b) / 255)`, one's-complement negated (`−q − 1`) when
/// the operand signs differ. In [-256, 255].
pub fn dot3_term(a: u8, b: u8) -> i32 {
    let (neg_a, mag_a) = dot3_operand(a);
    let (neg_b, mag_b) = dot3_operand(b);
    let p = mag_a * mag_b;
    // Exact round(p / 255) for every p < 2^16 (no ties: 255 is odd).
    let q = (p + 128 + ((p + 128) >> 8)) >> 8;
    // q <= 255: the conversion cannot fail.
    let q = i32::try_from(q).unwrap_or(255);
    if neg_a != neg_b {
        !q
    } else {
        q
    }
}

/// A DOT3 operand: the 9-bit `2x − 255` (`{!x[7], x[6:0], 1}`) read as a one's-complement
/// number, as (negative, magnitude): `x >= 128` → (false, 2x − 255), `x < 128` →
/// (true, 254 − 2x).
fn dot3_operand(x: u8) -> (bool, u32) {
    let low = u32::from(x & 0x7F);
    if x & 0x80 != 0 {
        (false, (low << 1) | 1)
    } else {
        (true, (low ^ 0x7F) << 1)
    }
}

/// Applies a scale (`x << shift`, saturated to 255).
pub fn scale(x: u8, s: TexenvScaleFactor) -> u8 {
    scale_by(x, scale_shift(s))
}

/// The left shift of a scale factor ([`scale`]).
fn scale_shift(s: TexenvScaleFactor) -> u32 {
    match s {
        TexenvScaleFactor::X1 => 0,
        TexenvScaleFactor::X2 => 1,
        TexenvScaleFactor::X4 => 2,
        TexenvScaleFactor::Reserved(_) => RESERVED_SCALE_SHIFT,
    }
}

/// [`scale`] by a shift of [`scale_shift`].
#[inline]
fn scale_by(x: u8, shift: u32) -> u8 {
    (u32::from(x) << shift).min(255) as u8
}

/// Runs one stage: its output `[r, g, b, a]` after scaling.
///
/// With RGB mode DOT3_RGBA the alpha output is the dot3 value (the alpha combiner's own
/// sources, operands and mode are ignored), then scaled by the **alpha** scale.
/// UNVERIFIED(hw) [fact: tev-alpha-dot3]: Azahar `WriteTevConfig` ("result of Dot3_RGBA operation is also placed to
/// the alpha component", then `GetAlphaMultiplier`).
pub fn run_stage(
    s: &StageRegs,
    inputs: &Inputs,
    previous: [u8; 4],
    previous_buffer: [u8; 4],
) -> [u8; 4] {
    run_stage_decoded(&StageConfig::of(s), inputs, previous, previous_buffer)
}

/// One stage's registers with every field decoded: what [`run_stage`] reads, decoded once per
/// configuration change by the TEV stage ([`TevConfig`]) instead of once per fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageConfig {
    /// RGB sources 0-2.
    pub rgb_source: [TexenvSourceInput; 3],
    /// Alpha sources 0-2.
    pub alpha_source: [TexenvSourceInput; 3],
    /// RGB operands 0-2.
    pub rgb_operand: [TexenvOperandRgb; 3],
    /// Alpha operands 0-2.
    pub alpha_operand: [TexenvOperandAlpha; 3],
    /// RGB combine mode.
    pub rgb_mode: TexenvCombinerMode,
    /// Alpha combine mode.
    pub alpha_mode: TexenvCombinerMode,
    /// RGB scale.
    pub rgb_scale: TexenvScaleFactor,
    /// Alpha scale.
    pub alpha_scale: TexenvScaleFactor,
    /// The constant colour `[r, g, b, a]`.
    pub constant: [u8; 4],
}

impl StageConfig {
    /// Decodes one stage's registers.
    pub fn of(s: &StageRegs) -> Self {
        Self {
            rgb_source: [
                s.source.rgb_source0(),
                s.source.rgb_source1(),
                s.source.rgb_source2(),
            ],
            alpha_source: [
                s.source.alpha_source0(),
                s.source.alpha_source1(),
                s.source.alpha_source2(),
            ],
            rgb_operand: [
                s.operand.rgb_operand0(),
                s.operand.rgb_operand1(),
                s.operand.rgb_operand2(),
            ],
            alpha_operand: [
                s.operand.alpha_operand0(),
                s.operand.alpha_operand1(),
                s.operand.alpha_operand2(),
            ],
            rgb_mode: s.combiner.rgb_combine(),
            alpha_mode: s.combiner.alpha_combine(),
            rgb_scale: s.scale.rgb_scale(),
            alpha_scale: s.scale.alpha_scale(),
            constant: s.constant(),
        }
    }
}

impl StageConfig {
    /// Whether the stage hands "previous" on unchanged: RGB and alpha both REPLACE of source 0
    /// = previous with the plain operand (source colour / source alpha) and scale 1×. Then
    /// [`run_stage_decoded`] gives `previous` without evaluating the stage: REPLACE yields its
    /// first operand, that operand is previous's RGB (alpha), and 1× leaves it — the value the
    /// full evaluation computes, bit for bit (`tev_pass_stage_is_previous`). Unused stages are
    /// set up like this (the scene builder's `TexEnv::pass`, citro3d `C3D_TexEnvInit`).
    pub fn is_pass(&self) -> bool {
        self.rgb_mode == TexenvCombinerMode::Replace
            && self.alpha_mode == TexenvCombinerMode::Replace
            && self.rgb_source[0] == TexenvSourceInput::Previous
            && self.alpha_source[0] == TexenvSourceInput::Previous
            && self.rgb_operand[0] == TexenvOperandRgb::SourceColor
            && self.alpha_operand[0] == TexenvOperandAlpha::SourceAlpha
            && self.rgb_scale == TexenvScaleFactor::X1
            && self.alpha_scale == TexenvScaleFactor::X1
    }
}

/// [`run_stage`] on a decoded stage.
pub fn run_stage_decoded(
    s: &StageConfig,
    inputs: &Inputs,
    previous: [u8; 4],
    previous_buffer: [u8; 4],
) -> [u8; 4] {
    if s.is_pass() {
        return previous;
    }
    let src = |v| source(v, inputs, s.constant, previous, previous_buffer);
    let [op0, op1, op2] = s.rgb_operand;
    let [src0, src1, src2] = s.rgb_source;
    let ra = rgb_operand(op0, src(src0));
    let rb = rgb_operand(op1, src(src1));
    let rc = rgb_operand(op2, src(src2));
    let rgb = match s.rgb_mode {
        TexenvCombinerMode::Dot3Rgb | TexenvCombinerMode::Dot3Rgba => [dot3(ra, rb); 3],
        m => [0, 1, 2].map(|i| combine_channel(m, ra[i], rb[i], rc[i])),
    };
    let alpha = if s.rgb_mode == TexenvCombinerMode::Dot3Rgba {
        rgb[0]
    } else {
        let [op0, op1, op2] = s.alpha_operand;
        let [src0, src1, src2] = s.alpha_source;
        let aa = alpha_operand(op0, src(src0));
        let ab = alpha_operand(op1, src(src1));
        let ac = alpha_operand(op2, src(src2));
        combine_channel(s.alpha_mode, aa, ab, ac)
    };
    let rs = s.rgb_scale;
    [
        scale(rgb[0], rs),
        scale(rgb[1], rs),
        scale(rgb[2], rs),
        scale(alpha, s.alpha_scale),
    ]
}

/// Every register [`combine`] reads, as one inclusive ID range: the six stages'
/// GPUREG_TEXENVi_* (0x0C0-0x0FC), GPUREG_TEXENV_UPDATE_BUFFER (0x0E0) and
/// GPUREG_TEXENV_BUFFER_COLOR (0x0FD). The TEV stage keeps a decoded [`TevConfig`] while
/// these words are unchanged ([`crate::frag::Decoded`]).
pub const REG_RANGES: [(u16, u16); 1] = [(id::TEXENV0_SOURCE, id::TEXENV_BUFFER_COLOR)];

/// The combiner registers decoded: every stage, the buffer update bits and the buffer colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TevConfig {
    /// The six stages.
    pub stages: [StageConfig; NUM_STAGES],
    /// GPUREG_TEXENV_UPDATE_BUFFER.
    pub update: regs::TexenvUpdateBuffer,
    /// GPUREG_TEXENV_BUFFER_COLOR `[r, g, b, a]`.
    pub buffer_color: [u8; 4],
    /// Stage 0's "previous" input (knob `tev-stage0-previous`).
    pub stage0_previous: TevStage0Previous,
}

impl TevConfig {
    /// Decodes the combiner registers.
    pub fn from_regs(regs: &RegFile) -> Self {
        Self {
            stages: core::array::from_fn(|i| StageConfig::of(&StageRegs::read(regs, i))),
            update: regs::TexenvUpdateBuffer(regs.reg(id::TEXENV_UPDATE_BUFFER.into())),
            buffer_color: regs.reg(id::TEXENV_BUFFER_COLOR.into()).to_le_bytes(),
            stage0_previous: regs.knobs().tev_stage0_previous,
        }
    }
}

/// A [`TevConfig`] with what [`combine_with`] decides per stage from the registers alone,
/// decided once: whether the stage is a pass ([`StageConfig::is_pass`]), and per channel
/// whether the buffer after it takes the stage's "previous" input ([`buffer_after`]). The
/// TEV stage keeps one per register change; [`combine_prepared`] gives [`combine_with`]'s
/// result (`tev_combine_prepared_is_combine_with`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    cfg: TevConfig,
    plan: [StagePlan; NUM_STAGES],
}

/// One stage's part of [`Prepared`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct StagePlan {
    /// [`StageConfig::is_pass`].
    pass: bool,
    /// Per channel (r, g, b, a): the buffer after the stage takes "previous" (else "previous
    /// buffer"). Stage 0 passes on the buffer colour instead.
    buffer_takes_previous: [bool; 4],
    /// The stage's sources, operands and scales as indices and masks.
    eval: StageEval,
}

/// The slots of the source table [`StageEval::run`] reads: the fragment's colours
/// ([`Inputs`]), then the stage's own inputs, then [`RESERVED_SOURCE`].
const SLOT_PREVIOUS_BUFFER: usize = 7;
const SLOT_CONSTANT: usize = 8;
const SLOT_PREVIOUS: usize = 9;
const SLOT_RESERVED: usize = 10;
const NUM_SLOTS: usize = 11;

/// The slot of [`source`]'s value for `src`.
fn source_slot(src: TexenvSourceInput) -> u8 {
    match src {
        TexenvSourceInput::PrimaryColor => 0,
        TexenvSourceInput::FragmentPrimaryColor => 1,
        TexenvSourceInput::FragmentSecondaryColor => 2,
        TexenvSourceInput::Texture0 => 3,
        TexenvSourceInput::Texture1 => 4,
        TexenvSourceInput::Texture2 => 5,
        TexenvSourceInput::Texture3 => 6,
        TexenvSourceInput::PreviousBuffer => SLOT_PREVIOUS_BUFFER as u8,
        TexenvSourceInput::Constant => SLOT_CONSTANT as u8,
        TexenvSourceInput::Previous => SLOT_PREVIOUS as u8,
        TexenvSourceInput::Reserved(_) => SLOT_RESERVED as u8,
    }
}

/// [`run_stage_decoded`] of a stage that is not a pass, with its register fields turned into
/// table indices: each operand reads slot `src` of the source table, takes the channels
/// `pick` and XORs `inv` (`255 - x` is `x ^ 0xFF` on a byte), as [`rgb_operand`] and
/// [`alpha_operand`] decode their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct StageEval {
    rgb_src: [u8; 3],
    rgb_pick: [[u8; 3]; 3],
    rgb_inv: [u8; 3],
    alpha_src: [u8; 3],
    alpha_pick: [u8; 3],
    alpha_inv: [u8; 3],
    rgb_mode: TexenvCombinerMode,
    alpha_mode: TexenvCombinerMode,
    rgb_shift: u32,
    alpha_shift: u32,
    constant: [u8; 4],
}

impl StageEval {
    fn new(s: &StageConfig) -> Self {
        // The channels and inversion of `rgb_operand` / `alpha_operand`, read off them: the
        // operand of the colour [0, 1, 2, 3] is the picked channel indices, or their
        // inversions (all above 3) when the operand inverts.
        let rgb = |op: TexenvOperandRgb| {
            let p = rgb_operand(op, [0, 1, 2, 3]);
            let inv = if p[0] > 3 { 0xFF } else { 0 };
            (p.map(|c| c ^ inv), inv)
        };
        let alpha = |op: TexenvOperandAlpha| {
            let p = alpha_operand(op, [0, 1, 2, 3]);
            let inv = if p > 3 { 0xFF } else { 0 };
            (p ^ inv, inv)
        };
        let r = s.rgb_operand.map(rgb);
        let a = s.alpha_operand.map(alpha);
        Self {
            rgb_src: s.rgb_source.map(source_slot),
            rgb_pick: r.map(|(p, _)| p),
            rgb_inv: r.map(|(_, i)| i),
            alpha_src: s.alpha_source.map(source_slot),
            alpha_pick: a.map(|(p, _)| p),
            alpha_inv: a.map(|(_, i)| i),
            rgb_mode: s.rgb_mode,
            alpha_mode: s.alpha_mode,
            rgb_shift: scale_shift(s.rgb_scale),
            alpha_shift: scale_shift(s.alpha_scale),
            constant: s.constant,
        }
    }

    /// The stage's output from the source table `t` (slots as [`source_slot`]).
    #[inline]
    fn run(&self, t: &[[u8; 4]; NUM_SLOTS]) -> [u8; 4] {
        let channel = |slot: u8, c: u8| {
            t.get(usize::from(slot))
                .and_then(|v| v.get(usize::from(c)))
                .copied()
                .unwrap_or(0)
        };
        let rgb_op = |k: usize| {
            let (src, pick, inv) = (self.rgb_src[k], self.rgb_pick[k], self.rgb_inv[k]);
            pick.map(|c| channel(src, c) ^ inv)
        };
        let (ra, rb, rc) = (rgb_op(0), rgb_op(1), rgb_op(2));
        let rgb = match self.rgb_mode {
            TexenvCombinerMode::Dot3Rgb | TexenvCombinerMode::Dot3Rgba => [dot3(ra, rb); 3],
            m => [0, 1, 2].map(|i| combine_channel(m, ra[i], rb[i], rc[i])),
        };
        let alpha = if self.rgb_mode == TexenvCombinerMode::Dot3Rgba {
            rgb[0]
        } else {
            let op = |k: usize| channel(self.alpha_src[k], self.alpha_pick[k]) ^ self.alpha_inv[k];
            combine_channel(self.alpha_mode, op(0), op(1), op(2))
        };
        [
            scale_by(rgb[0], self.rgb_shift),
            scale_by(rgb[1], self.rgb_shift),
            scale_by(rgb[2], self.rgb_shift),
            scale_by(alpha, self.alpha_shift),
        ]
    }
}

impl Prepared {
    /// `cfg` prepared.
    pub fn new(cfg: TevConfig) -> Self {
        let plan = core::array::from_fn(|i| {
            // `buffer_after` of a "previous" of all ones and a "previous buffer" of zeros
            // marks the channels it takes from "previous" (each channel is one or the other).
            let marks = buffer_after(i, cfg.update, [0; 4], [0xFF; 4], [0; 4]);
            let stage = cfg.stages.get(i).copied().unwrap_or(cfg.stages[0]);
            StagePlan {
                pass: stage.is_pass(),
                buffer_takes_previous: marks.map(|m| m != 0),
                eval: StageEval::new(&stage),
            }
        });
        Self { cfg, plan }
    }

    /// The decoded registers.
    pub fn config(&self) -> &TevConfig {
        &self.cfg
    }
}

/// [`combine_with`] on a prepared configuration: the same stages and colour, with the
/// per-stage register decisions taken from `p` instead of made per fragment.
pub fn combine_prepared(p: &Prepared, f: &ShadedFragment) -> TevOut {
    let cfg = &p.cfg;
    let inputs = Inputs::of(f);
    let mut previous = match cfg.stage0_previous {
        TevStage0Previous::Primary => inputs.primary,
        TevStage0Previous::Zero => [0; 4],
    };
    let mut previous_buffer = STAGE0_PREVIOUS_BUFFER;
    let mut stages = [StageOut::default(); NUM_STAGES];
    // The source table of `StageEval::run`: the fragment's colours now, each stage's own
    // inputs when it runs.
    let mut table = [RESERVED_SOURCE; NUM_SLOTS];
    table[0] = inputs.primary;
    table[1] = inputs.frag_primary;
    table[2] = inputs.frag_secondary;
    table[3..7].copy_from_slice(&inputs.tex);
    for (i, (out, plan)) in stages.iter_mut().zip(&p.plan).enumerate() {
        // `run_stage_decoded` returns "previous" for a pass stage itself; the plan only
        // saves deciding it.
        let color = if plan.pass {
            previous
        } else {
            table[SLOT_PREVIOUS_BUFFER] = previous_buffer;
            table[SLOT_CONSTANT] = plan.eval.constant;
            table[SLOT_PREVIOUS] = previous;
            plan.eval.run(&table)
        };
        let buffer = if i == 0 {
            cfg.buffer_color
        } else {
            let take = plan.buffer_takes_previous;
            core::array::from_fn(|c| {
                if take.get(c).copied().unwrap_or(false) {
                    previous.get(c).copied().unwrap_or(0)
                } else {
                    previous_buffer.get(c).copied().unwrap_or(0)
                }
            })
        };
        *out = StageOut { color, buffer };
        previous = color;
        previous_buffer = buffer;
    }
    tracing::trace!(
        target: "tev",
        x = f.frag.x,
        y = f.frag.y,
        color = ?previous,
        "combined"
    );
    TevOut {
        stages,
        color: previous,
    }
}

/// The buffer stage `stage` (1-4) passes on: per GPUREG_TEXENV_UPDATE_BUFFER, its RGB and alpha
/// come from the stage's "previous" input (`previous`, stage-1's output) or its "previous
/// buffer" input. Stage 0 passes on `buffer_color`; stage 5 (no control bits) passes its
/// previous buffer on unchanged (model choice: nothing reads it; it fills the combiner beat).
pub fn buffer_after(
    stage: usize,
    update: regs::TexenvUpdateBuffer,
    buffer_color: [u8; 4],
    previous: [u8; 4],
    previous_buffer: [u8; 4],
) -> [u8; 4] {
    let pick = |input: TexenvUpdateBufferInput, i: usize| match input {
        TexenvUpdateBufferInput::Previous => previous[i],
        // One-bit field: Reserved cannot occur; treat it as "previous buffer".
        _ => previous_buffer[i],
    };
    let (rgb, a) = match stage {
        0 => return buffer_color,
        1 => (
            update.texenv1_rgb_buffer_input(),
            update.texenv1_alpha_buffer_input(),
        ),
        2 => (
            update.texenv2_rgb_buffer_input(),
            update.texenv2_alpha_buffer_input(),
        ),
        3 => (
            update.texenv3_rgb_buffer_input(),
            update.texenv3_alpha_buffer_input(),
        ),
        4 => (
            update.texenv4_rgb_buffer_input(),
            update.texenv4_alpha_buffer_input(),
        ),
        _ => return previous_buffer,
    };
    [pick(rgb, 0), pick(rgb, 1), pick(rgb, 2), pick(a, 3)]
}

/// Runs the six combiners on `f`.
pub fn combine(f: &ShadedFragment, regs: &RegFile) -> TevOut {
    combine_with(&TevConfig::from_regs(regs), f)
}

/// [`combine`] with the registers already decoded (`cfg` = [`TevConfig::from_regs`]).
pub fn combine_with(cfg: &TevConfig, f: &ShadedFragment) -> TevOut {
    let inputs = Inputs::of(f);
    let (update, buffer_color) = (cfg.update, cfg.buffer_color);
    // Stage 0's "previous" is the primary colour, its "previous buffer" zero (seed 002);
    // knob `tev-stage0-previous=zero`: "previous" starts at zero, as Azahar's software renderer.
    let mut previous = match cfg.stage0_previous {
        TevStage0Previous::Primary => inputs.primary,
        TevStage0Previous::Zero => [0; 4],
    };
    let mut previous_buffer = STAGE0_PREVIOUS_BUFFER;
    let mut stages = [StageOut::default(); NUM_STAGES];
    for (i, (out, s)) in stages.iter_mut().zip(&cfg.stages).enumerate() {
        let color = run_stage_decoded(s, &inputs, previous, previous_buffer);
        let buffer = buffer_after(i, update, buffer_color, previous, previous_buffer);
        *out = StageOut { color, buffer };
        previous = color;
        previous_buffer = buffer;
    }
    tracing::trace!(
        target: "tev",
        x = f.frag.x,
        y = f.frag.y,
        color = ?previous,
        "combined"
    );
    TevOut {
        stages,
        color: previous,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`combine_prepared`] gives [`combine_with`]'s stages and colour: 4,000 random
    /// configurations (every stage register, the buffer update bits and colour random, each
    /// stage made a pass one time in two, both stage-0 knobs) times 16 random fragments.
    #[test]
    fn tev_combine_prepared_is_combine_with() {
        let mut state = 0x7E7_C0DE_u64;
        let mut next = move || {
            // xorshift64*: a fixed, local sequence.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
        };
        let mut passes = 0;
        for case in 0..4000 {
            let mut regs = RegFile::new();
            let mut sink = Vec::new();
            let mut write = |regs: &mut RegFile, id: u16, param: u32| {
                let w = crate::cp::RegWrite {
                    id: id.into(),
                    mask: 0xF,
                    param,
                };
                regs.apply(0, w, &mut sink);
            };
            for base in STAGE_BASE {
                let pass = next() & 1 == 0;
                for k in 0..5 {
                    let v = next();
                    // A pass stage: sources 0 = previous (15), operands 0, replace, scale 1.
                    // The other fields (sources and operands 1-2, the constant) stay random.
                    let v = match (pass, k) {
                        (true, 0) => v | 0x000F_000F,
                        (true, 1) => v & !0x0000_700F,
                        (true, 2) => v & !0x000F_000F,
                        (true, 4) => v & !0x0003_0003,
                        _ => v,
                    };
                    write(&mut regs, base + k, v);
                }
            }
            write(&mut regs, id::TEXENV_UPDATE_BUFFER, next());
            write(&mut regs, id::TEXENV_BUFFER_COLOR, next());
            if case % 2 == 1 {
                regs.set_knobs(crate::knobs::Knobs {
                    tev_stage0_previous: TevStage0Previous::Zero,
                    ..crate::knobs::Knobs::default()
                });
            }
            let cfg = TevConfig::from_regs(&regs);
            passes += cfg.stages.iter().filter(|s| s.is_pass()).count();
            let prepared = Prepared::new(cfg);
            for _ in 0..16 {
                let mut f = ShadedFragment::new(crate::pipe::Fragment {
                    x: 0,
                    y: 0,
                    depth: 0,
                    color: next().to_le_bytes(),
                    attr: [crate::num::F24::ZERO; crate::pipe::NUM_SEMANTICS],
                    tri: 0,
                    tex_deriv: [[crate::num::F24::ZERO; 4]; 3],
                });
                f.tex = [next(), next(), next(), next()].map(u32::to_le_bytes);
                f.light_primary = next().to_le_bytes();
                f.light_secondary = next().to_le_bytes();
                assert_eq!(
                    combine_prepared(&prepared, &f),
                    combine_with(&cfg, &f),
                    "case {case}: {cfg:?}"
                );
            }
        }
        // About half the stages are passes (a random stage almost never is one).
        assert!((10_000..14_000).contains(&passes), "{passes} pass stages");
    }

    #[test]
    fn tev_rgb_operand_reserved_decodes_channel_bits() {
        let c = [10, 20, 30, 40];
        assert_eq!(rgb_operand(TexenvOperandRgb::from_bits(6), c), [10, 10, 10]);
        assert_eq!(
            rgb_operand(TexenvOperandRgb::from_bits(7), c),
            [245, 245, 245]
        );
        assert_eq!(
            rgb_operand(TexenvOperandRgb::from_bits(10), c),
            [20, 20, 20]
        );
        assert_eq!(
            rgb_operand(TexenvOperandRgb::from_bits(15), c),
            [225, 225, 225]
        );
    }

    #[test]
    fn tev_dot3_measured_special_points() {
        // ../shared/hw-data/dot3-rgb.tsv config 1, i = 0x37: 243 on hardware (Azahar's
        // formula: 246). Per channel m = 254 − 0x6E = 144, 144² = 20736, /255 = 81.3 → 81.
        assert_eq!(dot3([0x37; 3], [0x37; 3]), 243);
        // Config 6, i = 0xC0: 0 on hardware (Azahar's: 1). r: 129·1 = 129 → 1; g: signs
        // differ, 1·0 = 0 → !0 = −1; b: 1·1 → 0. Sum 0.
        assert_eq!(dot3([0x80; 3], [0xC0, 0x7F, 0x80]), 0);
        assert_eq!(dot3_term(0x80, 0x7F), -1);
        assert_eq!(dot3_term(0x80, 0x80), 0);
        // Config 5: (0x83, 0x80, 0x80)·(i, 0x80, 0x80) steps to 7 at i = 246 (Azahar's: 247).
        assert_eq!(dot3([0x83, 0x80, 0x80], [246, 0x80, 0x80]), 7);
        assert_eq!(dot3([0x83, 0x80, 0x80], [245, 0x80, 0x80]), 6);
    }

    #[test]
    fn tev_dot3_operand_is_ones_complement_of_2x_minus_255() {
        assert_eq!(dot3_operand(0xFF), (false, 255));
        assert_eq!(dot3_operand(0x80), (false, 1));
        // 0x7F: 2x − 255 = −1, whose one's-complement reading is −0.
        assert_eq!(dot3_operand(0x7F), (true, 0));
        assert_eq!(dot3_operand(0x00), (true, 254));
        // Extremes: 255·255 → 255; 254·254 = 64516 → 253; 255·254 with differing signs →
        // !254 = −255.
        assert_eq!(dot3_term(0xFF, 0xFF), 255);
        assert_eq!(dot3_term(0x00, 0x00), 253);
        assert_eq!(dot3_term(0xFF, 0x00), -255);
        assert_eq!(dot3([0xFF; 3], [0xFF; 3]), 255);
        assert_eq!(dot3([0x00; 3], [0xFF; 3]), 0);
    }

    #[test]
    fn tev_dot3_rounding_is_exact_division_by_255() {
        for p in 0..=255 * 255u32 {
            let q = (p + 128 + ((p + 128) >> 8)) >> 8;
            assert_eq!(q, (2 * p + 255) / 510, "p = {p}");
        }
    }

    #[test]
    fn tev_pass_stage_is_previous() {
        // The shortcut of `run_stage_decoded` is the full evaluation: each step of a pass
        // stage is the identity on every value.
        for x in 0..=255u8 {
            let c = [x, x ^ 0x5A, x.wrapping_mul(3), !x];
            assert_eq!(
                rgb_operand(TexenvOperandRgb::SourceColor, c),
                [c[0], c[1], c[2]]
            );
            assert_eq!(alpha_operand(TexenvOperandAlpha::SourceAlpha, c), c[3]);
            assert_eq!(scale(x, TexenvScaleFactor::X1), x);
            for y in [0, 1, 127, 128, 254, 255] {
                assert_eq!(combine_channel(TexenvCombinerMode::Replace, x, y, !y), x);
            }
        }
        let pass = StageConfig::of(&StageRegs {
            // RGB and alpha source 0 = previous (15); sources 1 and 2 other inputs.
            source: regs::TexenvSource(0x004F_003F),
            ..StageRegs::default()
        });
        assert_eq!(pass.rgb_source[0], TexenvSourceInput::Previous);
        assert!(pass.is_pass(), "{pass:?}");
        let inputs = Inputs::default();
        assert_eq!(
            run_stage_decoded(&pass, &inputs, [1, 2, 3, 4], [9; 4]),
            [1, 2, 3, 4]
        );
        let mut not = pass;
        not.rgb_scale = TexenvScaleFactor::X2;
        assert!(!not.is_pass());
        assert_eq!(
            run_stage_decoded(&not, &inputs, [100; 4], [9; 4]),
            [200, 200, 200, 100]
        );
    }

    #[test]
    fn tev_scale_reserved_is_1x() {
        assert_eq!(scale(200, TexenvScaleFactor::from_bits(3)), 200);
        assert_eq!(scale(100, TexenvScaleFactor::X4), 255);
    }

    #[test]
    fn tev_buffer_after_stage5_passes_previous_buffer() {
        let u = regs::TexenvUpdateBuffer(0xFF00);
        assert_eq!(buffer_after(5, u, [9; 4], [1; 4], [2; 4]), [2; 4]);
        assert_eq!(buffer_after(0, u, [9; 4], [1; 4], [2; 4]), [9; 4]);
        assert_eq!(buffer_after(4, u, [9; 4], [1; 4], [2; 4]), [1; 4]);
    }
}
