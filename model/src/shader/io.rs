//! How vertices enter and leave the shader units: input permutation, output mask, and the
//! geometry-shader input modes.
//!
//! Sources: seed 002 (GPUREG_SH_ATTRIBUTES_PERMUTATION_LOW/HIGH, GPUREG_SH_INPUTBUFFER_CONFIG,
//! GPUREG_SH_OUTMAP_MASK), pica-facts §1 "Geometry shader", and for the GS modes the facts of
//! Citra's geometry_pipeline.cpp (register fields below are marked UNVERIFIED(hw) [fact: gs-config-layout]).
//!
//! # When the GS input configuration is read
//!
//! [`GsSetup::from_regs`] reads GPUREG_GEOSTAGE_CONFIG bits 0-1, GPUREG_GSH_MISC0,
//! GPUREG_GSH_MISC1 and GPUREG_GSH_INPUTBUFFER_CONFIG bits 0-3. The shader stage reads it at the
//! start of every draw and of every immediate-mode batch (the `ShIn::Begin` item VL sends) and
//! builds a new [`GsAssembler`] there, so a partially filled GS input buffer of the previous
//! draw is dropped. UNVERIFIED(hw) [fact: gs-config-per-draw]: libctru's
//! `shaderProgramConfigure` turns the geometry stage on (GEOSTAGE_CONFIG = 2) *first* and writes
//! GSH_MISC0, GSH_MISC1, GSH_INPUTBUFFER_CONFIG and the GSH permutation afterwards, before the
//! draw, so the configuration cannot be taken when the GS turns on; Azahar's
//! `GeometryPipeline::Reconfigure` runs at the start of every draw (`PicaCore::LoadVertices`)
//! and at the first immediate-mode vertex after a GPUREG_FIXEDATTRIB_INDEX write
//! (`reset_geometry_pipeline`), making a new, empty input buffer. REGS holds register writes
//! while a draw is in flight (fact `regs-interlock`), so the configuration cannot change inside
//! one. Knob `gs-new-draw=keep` keeps the partial buffer when the configuration read is the
//! same as the previous draw's.

use super::interp::Vec4;
use crate::num::F24;
use crate::regfile::unit::{UnitConfig, FLOAT_UNIFORMS, GS_UNIT};
use crate::regfile::RegFile;
use crate::regs::id;

/// Number of input attributes a unit reads: GPUREG_SH_INPUTBUFFER_CONFIG bits 0-3, plus 1.
pub fn input_count(cfg: &UnitConfig) -> usize {
    (cfg.input_config & 0xF) as usize + 1
}

/// The input register attribute `n` lands in: nibble `n` of the 64-bit permutation
/// (seed 002: "bits 0-3 set to 5 means v5 will contain the input buffer's 1st attribute").
pub fn input_register(cfg: &UnitConfig, n: usize) -> usize {
    ((cfg.permutation >> (4 * (n & 15))) & 0xF) as usize
}

/// Loads attributes into input registers v0-v15 through the permutation. Attributes beyond
/// [`input_count`] are ignored; registers not written keep their previous contents.
pub fn load_inputs(cfg: &UnitConfig, attrs: &[Vec4], inputs: &mut [Vec4; 16]) {
    for (n, a) in attrs.iter().enumerate().take(input_count(cfg)) {
        inputs[input_register(cfg, n)] = *a;
    }
}

/// The output registers enabled by GPUREG_SH_OUTMAP_MASK, in register order, with their index.
pub fn masked_outputs(cfg: &UnitConfig, outputs: &[Vec4; 16]) -> Vec<(u8, Vec4)> {
    // The set bits only, lowest first (once per vertex, so it counts).
    let (mut regs, mut n, mut mask) = ([0u8; 16], 0, cfg.outmap_mask);
    while mask != 0 {
        regs[n & 15] = mask.trailing_zeros() as u8;
        n += 1;
        mask &= mask - 1;
    }
    // Collected from a slice (an exact length: one allocation, no growth checks). Every way
    // tried (`push`, `vec![..; n]` then a fill, this, a local array copied out) still copies
    // each entry through the stack with a load wider than the stores that built it (F24 is
    // byte-aligned, so the 20-byte entries are unaligned): a store-forwarding stall per entry,
    // about 10 % of the four-unit benchmark; this form measured a few per cent faster than
    // `push`.
    regs[..n.min(16)]
        .iter()
        .map(|&i| (i, outputs[usize::from(i & 15)]))
        .collect()
}

/// The three GS input modes (pica-facts §1; 3dbrew SHBIN; picasso manual).
///
/// UNVERIFIED(hw) [fact: gs-config-layout]: selected by GPUREG_GSH_MISC0 (0x252) bits 0-1 — Citra's `gs_config.mode`
/// (the seed's description of 0x252 gives 0x01004302 for particle systems = fixed mode and 1
/// for subdivision = variable mode, consistent with this layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum GsMode {
    /// Vertex attributes go to the GS input registers; the GS runs once the input buffer
    /// (GSH_INPUTBUFFER_CONFIG bits 0-3, plus 1, attributes) is full.
    Point,
    /// A vertex count first (c0 = count), then vertices into c1.. : the first `main`
    /// vertices with every attribute, the others with their first attribute only.
    Variable {
        /// Main vertices (GPUREG_GSH_MISC1 bits 0-4, plus 1).
        main: usize,
    },
    /// `count` vertices of `stride` attributes into float uniforms from `start`.
    Fixed {
        /// Vertices per invocation (GSH_MISC0 bits 8-11, plus 1).
        count: usize,
        /// Attributes per vertex (GSH_MISC0 bits 12-15, plus 1).
        stride: usize,
        /// First uniform (GSH_MISC0 bits 16-23).
        start: usize,
    },
}

impl GsMode {
    /// From GPUREG_GSH_MISC0 and GPUREG_GSH_MISC1. Mode 3 (reserved) reads as point mode.
    ///
    /// UNVERIFIED(hw) [fact: gs-config-layout]: field layout from Citra regs_pipeline.h (`gs_config`,
    /// `variable_vertex_main_num_minus_1`).
    pub fn from_regs(misc0: u32, misc1: u32) -> Self {
        match misc0 & 3 {
            1 => Self::Variable {
                main: (misc1 & 0x1F) as usize + 1,
            },
            2 => Self::Fixed {
                count: ((misc0 >> 8) & 0xF) as usize + 1,
                stride: ((misc0 >> 12) & 0xF) as usize + 1,
                start: ((misc0 >> 16) & 0xFF) as usize,
            },
            _ => Self::Point,
        }
    }
}

/// The GS input configuration of a draw ([`GsSetup::from_regs`]; see the module docs for when
/// it is read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GsSetup {
    /// The input mode (GSH_MISC0 / GSH_MISC1).
    pub mode: GsMode,
    /// Point mode: attributes per invocation (unit 3's GSH_INPUTBUFFER_CONFIG bits 0-3, plus 1).
    pub point_inputs: usize,
}

impl GsSetup {
    /// The configuration in `regs`, or `None` when the geometry shader is not in use
    /// (GPUREG_GEOSTAGE_CONFIG bits 0-1 other than 2; pica-facts §1).
    ///
    /// UNVERIFIED(hw) [fact: gs-variable-enable]: the mode is GSH_MISC0 bits 0-1 alone
    /// (Azahar picks its `GeometryPipeline` backend from `gs_config.mode`);
    /// GPUREG_GEOSTAGE_CONFIG bit 31 ("use reserved geometry shader subdivision", 3dbrew
    /// GPU/Internal_Registers) and GSH_INPUTBUFFER_CONFIG bit 8 (uniform input) are not read —
    /// Azahar only asserts that they agree, and libctru's `shaderProgramConfigure` always sets
    /// the three together.
    pub fn from_regs(regs: &RegFile) -> Option<Self> {
        if regs.reg(id::GEOSTAGE_CONFIG.into()) & 3 != 2 {
            return None;
        }
        Some(Self {
            mode: GsMode::from_regs(
                regs.reg(id::GSH_MISC0.into()),
                regs.reg(id::GSH_MISC1.into()),
            ),
            point_inputs: input_count(&regs.units()[GS_UNIT]),
        })
    }

    /// Whether the draw's index buffer carries the primitives' vertex counts (variable mode).
    pub fn reads_counts(&self) -> bool {
        matches!(self.mode, GsMode::Variable { .. })
    }
}

/// The f24 value of a vertex count (every u16 is exact in f24's 17 significant bits), as bits:
/// the exponent is 63 + the position of the highest set bit, the mantissa the bits below it
/// (pica-facts §2 f24 = 1.7.16). 0 gives +0.
pub fn count_to_f24(count: u16) -> F24 {
    if count == 0 {
        return F24::ZERO;
    }
    let msb = 15 - count.leading_zeros();
    let mantissa = (u32::from(count) << (16 - msb)) & 0xFFFF;
    F24::from_bits((63 + msb) << 16 | mantissa)
}

/// What the GS input assembler hands to a GS invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GsInvocation {
    /// Attributes for the input registers (point mode, through the permutation).
    pub inputs: Vec<Vec4>,
    /// Float uniforms to overwrite (variable/fixed modes): `(index, value)`.
    pub uniforms: Vec<(usize, Vec4)>,
}

/// Collects VS output vertices into GS invocations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GsAssembler {
    mode: GsMode,
    /// Input attributes per point-mode invocation.
    point_inputs: usize,
    pending: GsInvocation,
    /// Variable mode: vertices still expected (None = waiting for the count).
    remaining: Option<usize>,
    received: usize,
    next_uniform: usize,
}

impl GsAssembler {
    /// An empty assembler for `setup`.
    pub fn for_setup(setup: GsSetup) -> Self {
        Self::new(setup.mode, setup.point_inputs)
    }

    /// The configuration it was made for.
    pub fn setup(&self) -> GsSetup {
        GsSetup {
            mode: self.mode,
            point_inputs: self.point_inputs,
        }
    }

    /// An assembler for `mode`; `point_inputs` = GS input attributes per invocation.
    pub fn new(mode: GsMode, point_inputs: usize) -> Self {
        Self {
            mode,
            point_inputs: point_inputs.max(1),
            pending: GsInvocation {
                inputs: Vec::new(),
                uniforms: Vec::new(),
            },
            remaining: None,
            received: 0,
            next_uniform: 0,
        }
    }

    /// The mode.
    pub fn mode(&self) -> GsMode {
        self.mode
    }

    /// Variable mode: the vertex count `count` that starts a primitive.
    /// UNVERIFIED(hw) [fact: gs-variable-count]: the index-buffer entry read when the input
    /// needs a count (3dbrew GPU/Primitive_Engine "prefixing each
    /// per-primitive sequence of indices in an index array with a primitive size", Azahar
    /// `GeometryPipeline_VariablePrimitive::SubmitIndex`): c0.xyzw = `count` as f24
    /// ([`count_to_f24`]) and the next `count` vertices go to c1 on. Returns the invocation
    /// when the primitive is complete at once (`count` = 0). Ignored in other modes.
    ///
    /// UNVERIFIED(hw) [fact: gs-variable-edges]: a count of 0 runs the GS once with c0 = 0 and
    /// no vertex (model choice: one invocation per count; Azahar's counter would wrap and wait
    /// for 2^32 vertices). A count arriving before the previous primitive is complete (which
    /// VL never sends) starts a new primitive and drops the partial one.
    pub fn submit_count(&mut self, count: u16) -> Option<GsInvocation> {
        if !matches!(self.mode, GsMode::Variable { .. }) {
            return None;
        }
        let n = count_to_f24(count);
        self.pending = GsInvocation {
            inputs: Vec::new(),
            uniforms: vec![(0, [n; 4])],
        };
        self.received = 0;
        self.next_uniform = 1;
        if count == 0 {
            self.remaining = None;
            return Some(self.take());
        }
        self.remaining = Some(usize::from(count));
        None
    }

    /// Whether the assembler waits for a vertex count (variable mode between primitives).
    pub fn needs_count(&self) -> bool {
        matches!(self.mode, GsMode::Variable { .. }) && self.remaining.is_none()
    }

    /// Adds one VS output vertex (its enabled outputs in order); returns an invocation when
    /// the GS has to run.
    pub fn submit_vertex(&mut self, attrs: &[Vec4]) -> Option<GsInvocation> {
        match self.mode {
            GsMode::Point => {
                self.pending.inputs.extend_from_slice(attrs);
                // UNVERIFIED(hw) [fact: gs-partial-input]: an input size that is not a multiple of the VS output size
                // runs the GS as soon as the buffer holds at least `point_inputs` attributes.
                (self.pending.inputs.len() >= self.point_inputs).then(|| self.take())
            }
            GsMode::Fixed {
                count,
                stride,
                start,
            } => {
                let base = start + self.received * stride;
                for (i, a) in attrs.iter().take(stride).enumerate() {
                    self.pending.uniforms.push((base + i, *a));
                }
                self.received += 1;
                (self.received >= count).then(|| {
                    self.received = 0;
                    self.take()
                })
            }
            GsMode::Variable { main } => {
                // UNVERIFIED(hw) [fact: gs-variable-edges]: a vertex arriving while the
                // assembler waits for a count (VL never sends one) is dropped.
                let remaining = self.remaining?;
                // The first `main` vertices with every output, the others with their first
                // (usually the position; Azahar `GeometryPipeline_VariablePrimitive`).
                let take = if self.received < main { attrs.len() } else { 1 };
                for a in attrs.iter().take(take) {
                    // UNVERIFIED(hw) [fact: gs-variable-edges]: outputs that would land beyond
                    // c95 are dropped (as an upload past c95 is); the vertex still counts.
                    if self.next_uniform < FLOAT_UNIFORMS {
                        self.pending.uniforms.push((self.next_uniform, *a));
                    }
                    self.next_uniform += 1;
                }
                self.received += 1;
                let left = remaining.saturating_sub(1);
                self.remaining = Some(left);
                (left == 0).then(|| {
                    self.remaining = None;
                    self.take()
                })
            }
        }
    }

    fn take(&mut self) -> GsInvocation {
        std::mem::replace(
            &mut self.pending,
            GsInvocation {
                inputs: Vec::new(),
                uniforms: Vec::new(),
            },
        )
    }
}
