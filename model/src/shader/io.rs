//! How vertices enter and leave the shader units: input permutation, output mask, and the
//! geometry-shader input modes.
//!
//! Sources: seed 002 (GPUREG_SH_ATTRIBUTES_PERMUTATION_LOW/HIGH, GPUREG_SH_INPUTBUFFER_CONFIG,
//! GPUREG_SH_OUTMAP_MASK), pica-facts §1 "Geometry shader", and for the GS modes the facts of
//! Citra's geometry_pipeline.cpp (register fields below are marked UNVERIFIED(hw) [fact: gs-config-layout]).

use super::interp::Vec4;
use crate::num::F24;
use crate::regfile::unit::UnitConfig;

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
    let mut mask = cfg.outmap_mask;
    let mut out = Vec::with_capacity(mask.count_ones() as usize);
    // The set bits only, lowest first (once per vertex, so it counts).
    while mask != 0 {
        let i = mask.trailing_zeros() as u8;
        out.push((i, outputs[usize::from(i & 15)]));
        mask &= mask - 1;
    }
    out
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

    /// Variable mode: the vertex count that starts a primitive (the first index of the batch;
    /// pica-facts §1 "the first value is the vertex count"). Ignored in other modes.
    pub fn submit_count(&mut self, count: u32) {
        if let GsMode::Variable { .. } = self.mode {
            let n = F24::from_f64_trunc(f64::from(count));
            self.pending.uniforms.push((0, [n; 4]));
            self.remaining = Some(count as usize);
            self.received = 0;
            self.next_uniform = 1;
        }
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
                let remaining = self.remaining?;
                let take = if self.received < main { attrs.len() } else { 1 };
                for a in attrs.iter().take(take) {
                    self.pending.uniforms.push((self.next_uniform, *a));
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
