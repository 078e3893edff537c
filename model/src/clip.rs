//! CLIP: clipping, perspective division, viewport and depth map.
//!
//! STUB: filled in by the clipping work of issue 5.

use crate::link::Link;
use crate::pipe::{ScreenTri, Triangle};
use crate::regfile::RegFile;
use serde_json::json;

/// What CLIP touches in one cycle.
pub struct ClipPorts<'a> {
    /// Configuration.
    pub regs: &'a RegFile,
    /// Triangles from PA.
    pub input: &'a mut Link<Triangle>,
    /// Window-space triangles to RAST.
    pub out: &'a mut Link<ScreenTri>,
}

/// The CLIP stage.
#[derive(Clone, Debug, Default)]
pub struct Clipper {}

impl Clipper {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances one cycle.
    pub fn tick(&mut self, _cycle: u64, ports: ClipPorts<'_>) {
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
