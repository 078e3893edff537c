//! RAST: triangle setup, traversal, scissor, interpolation and early depth.
//!
//! STUB: filled in by the rasterizer work of issue 5.

use crate::beat::FragmentBeat;
use crate::link::Link;
use crate::pipe::{Fragment, ScreenTri};
use crate::regfile::RegFile;
use serde_json::json;

/// What RAST touches in one cycle.
pub struct RastPorts<'a> {
    /// Configuration (and trigger events, for GPUREG_EARLYDEPTH_CLEAR).
    pub regs: &'a RegFile,
    /// Window-space triangles from CLIP.
    pub input: &'a mut Link<ScreenTri>,
    /// Fragments to FOP.
    pub out: &'a mut Link<Fragment>,
    /// Where fragment beats go (`None`: not recorded).
    pub beats: Option<&'a mut Vec<FragmentBeat>>,
}

/// The RAST stage.
#[derive(Clone, Debug, Default)]
pub struct Rasterizer {}

impl Rasterizer {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances one cycle.
    pub fn tick(&mut self, _cycle: u64, ports: RastPorts<'_>) {
        let _ = ports;
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
