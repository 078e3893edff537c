//! FOP: the fragment operations and the framebuffer.
//!
//! STUB: filled in by the fragment-operations work of issue 5.

pub mod fb;

use crate::beat::PixelBeat;
use crate::link::Link;
use crate::mem::Memory;
use crate::pipe::Fragment;
use crate::regfile::RegFile;
use serde::Serialize;
use serde_json::json;
use std::fmt;

/// Why the fragment operations hang.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum FopHang {
    /// A colour or depth-stencil buffer access outside mapped memory.
    Unmapped {
        /// `"color"` or `"depth"`.
        buffer: &'static str,
        /// The address.
        addr: u32,
    },
}

impl fmt::Display for FopHang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FopHang::Unmapped { buffer, addr } => {
                write!(f, "{buffer} buffer access at unmapped address 0x{addr:08x}")
            }
        }
    }
}

/// What FOP touches in one cycle.
pub struct FopPorts<'a> {
    /// Configuration (and trigger events, for FLUSH / INVALIDATE).
    pub regs: &'a RegFile,
    /// Colour and depth-stencil buffers.
    pub mem: &'a mut Memory,
    /// Fragments from RAST.
    pub input: &'a mut Link<Fragment>,
    /// Where pixel beats go (`None`: not recorded).
    pub beats: Option<&'a mut Vec<PixelBeat>>,
}

/// The FOP stage.
#[derive(Clone, Debug, Default)]
pub struct FragmentOps {}

impl FragmentOps {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances one cycle.
    pub fn tick(&mut self, _cycle: u64, ports: FopPorts<'_>) -> Result<(), FopHang> {
        let _ = ports;
        Ok(())
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
