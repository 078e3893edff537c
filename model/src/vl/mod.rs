//! VL: the vertex loader.
//!
//! Turns a draw (GPUREG_DRAWARRAYS / GPUREG_DRAWELEMENTS) or an immediate-mode vertex into
//! shader input vertices: reads the attribute buffers of the 0x200-0x226 block (seed 002, seed
//! 004), the index buffer, the fixed attributes, applies the attribute permutation and the
//! post-vertex cache, and tells PA the vertex order.
//!
//! STUB: filled in by the vertex-loader work of issue 5.

use crate::link::Link;
use crate::mem::Memory;
use crate::pipe::{PaCmd, VlCmd};
use crate::regfile::RegFile;
use crate::shader::stage::VertexIn;
use serde::Serialize;
use serde_json::json;
use std::fmt;

/// Why the vertex loader hangs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum VlHang {
    /// An attribute buffer's stride does not match the bytes its components declare.
    StrideMismatch {
        /// Attribute buffer 0-11.
        buffer: u8,
        /// Bytes per vertex declared in GPUREG_ATTRIBBUFFERi_CONFIG2.
        stride: u32,
        /// Bytes its component list needs.
        needed: u32,
    },
    /// A read outside mapped memory.
    ReadUnmapped {
        /// Attribute buffer 0-11, or `None` for the index buffer.
        buffer: Option<u8>,
        /// The address.
        addr: u32,
    },
}

impl fmt::Display for VlHang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VlHang::StrideMismatch {
                buffer,
                stride,
                needed,
            } => write!(
                f,
                "attribute buffer {buffer}: stride {stride} bytes does not match the {needed} \
                 bytes its components declare (GPUREG_ATTRIBBUFFER{buffer}_CONFIG2)"
            ),
            VlHang::ReadUnmapped {
                buffer: Some(b),
                addr,
            } => write!(
                f,
                "attribute buffer {b}: read from unmapped address 0x{addr:08x}"
            ),
            VlHang::ReadUnmapped { buffer: None, addr } => {
                write!(f, "index buffer: read from unmapped address 0x{addr:08x}")
            }
        }
    }
}

/// What VL touches in one cycle.
pub struct VlPorts<'a> {
    /// Configuration (REGS holds further writes while a draw is in flight).
    pub regs: &'a RegFile,
    /// Attribute and index buffers.
    pub mem: &'a Memory,
    /// Draws and immediate vertices from REGS.
    pub cmd: &'a mut Link<VlCmd>,
    /// Vertices to the shader units.
    pub vs_in: &'a mut Link<VertexIn>,
    /// Vertex order to primitive assembly.
    pub to_pa: &'a mut Link<PaCmd>,
}

/// The VL stage.
#[derive(Clone, Debug, Default)]
pub struct VertexLoader {}

impl VertexLoader {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances one cycle.
    pub fn tick(&mut self, _cycle: u64, ports: VlPorts<'_>) -> Result<(), VlHang> {
        // Stub: drop the work.
        let _ = ports.cmd.pop();
        Ok(())
    }

    /// Whether no draw is in progress.
    pub fn is_idle(&self) -> bool {
        true
    }

    /// Internal state for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({})
    }
}
