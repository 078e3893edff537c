//! PA: output mapping and primitive assembly.
//!
//! Maps shader output registers to semantics (GPUREG_SH_OUTMAP_TOTAL / O0-O6), makes colours
//! absolute and saturated, and assembles triangles (GPUREG_PRIMITIVE_CONFIG: list, strip, fan,
//! geometry primitive), honouring GPUREG_RESTART_PRIMITIVE.
//!
//! STUB: filled in by the primitive-assembly work of issue 5.

use crate::beat::PrimitiveBeat;
use crate::link::Link;
use crate::pipe::{PaCmd, Triangle};
use crate::regfile::RegFile;
use crate::shader::stage::ShadedItem;
use serde_json::json;

/// What PA touches in one cycle.
pub struct PaPorts<'a> {
    /// Configuration.
    pub regs: &'a RegFile,
    /// Vertex order from VL.
    pub from_vl: &'a mut Link<PaCmd>,
    /// Shaded vertices (VS outputs or GS emits) from SH.
    pub from_sh: &'a mut Link<ShadedItem>,
    /// Triangles to CLIP.
    pub out: &'a mut Link<Triangle>,
    /// Where primitive beats go (`None`: not recorded).
    pub beats: Option<&'a mut Vec<PrimitiveBeat>>,
}

/// The PA stage.
#[derive(Clone, Debug, Default)]
pub struct PrimitiveAssembler {}

impl PrimitiveAssembler {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances one cycle.
    pub fn tick(&mut self, _cycle: u64, ports: PaPorts<'_>) {
        // Stub: drop the work, so that the stages before PA drain and REGS goes on.
        while ports.from_vl.pop().is_some() {}
        while ports.from_sh.pop().is_some() {}
    }

    /// Whether nothing is in flight.
    pub fn is_idle(&self) -> bool {
        true
    }

    /// Internal state for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({})
    }
}
