//! How a run ends and why the GPU hangs: [`Outcome`], [`HangReason`] and the hang types of
//! the stages that can hang ([`VlHang`], [`FopHang`], [`TexHang`]; the shader unit's is
//! [`crate::shader::interp::HangKind`]).
//!
//! Every stage reports its hang through these types, and [`crate::gpu`] collects them, so
//! they sit below the stages: this module names no stage's machinery, only the hang
//! vocabulary (the stage modules re-export their own hang type, `crate::vl::VlHang` and so
//! on, and [`crate::gpu`] re-exports [`Outcome`], [`HangReason`] and [`outcome_json`]).

use crate::cmdheader::CommandHeader;
use crate::shader::interp::{Hang, HangKind};
use serde::Serialize;
use serde_json::json;
use std::fmt;

/// Why the GPU hangs: the states in which the real GPU would stop making progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum HangReason {
    /// The CP reached the end of a buffer without a write to GPUREG_FINALIZE.
    MissingFinalize {
        /// Buffer start.
        base: u32,
        /// Size in bytes as given.
        size: u32,
        /// Bytes actually read (size with the low 4 bits cleared).
        effective_size: u32,
        /// Whether a FINALIZE command sat in the bytes the 16-byte rule dropped.
        dropped_finalize: bool,
    },
    /// A command needed more words than its buffer holds.
    CommandPastEnd {
        /// Buffer start.
        base: u32,
        /// Bytes actually read.
        effective_size: u32,
        /// Address of the command's first parameter.
        command_addr: u32,
        /// The command header, if it was read.
        header: Option<u32>,
    },
    /// The CP fetched a command word outside mapped memory.
    FetchUnmapped {
        /// The address.
        addr: u32,
    },
    /// `run` was called without a submitted command buffer: the CP never starts.
    NotSubmitted,
    /// A shader unit hangs (BREAK on an empty loop stack, double MOVA, ...).
    Shader {
        /// Unit 0-3.
        unit: u8,
        /// Word address of the instruction.
        pc: u16,
        /// The instruction word.
        word: u32,
        /// What went wrong.
        reason: HangKind,
    },
    /// The vertex loader cannot load a vertex (stride mismatch, read outside memory, ...).
    VertexLoader(VlHang),
    /// A fragment operation touched a buffer outside memory.
    FragmentOps(FopHang),
    /// A texture unit cannot read its texture.
    Texture(TexHang),
    /// An internal invariant of the model broke (a model bug, never expected).
    Internal(String),
}

impl fmt::Display for HangReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HangReason::MissingFinalize {
                base,
                size,
                effective_size,
                dropped_finalize,
            } => {
                write!(
                    f,
                    "command buffer at 0x{base:08x} ended without a write to GPUREG_FINALIZE (0x010) \
                     after 0x{effective_size:x} of 0x{size:x} bytes"
                )?;
                if *dropped_finalize {
                    write!(
                        f,
                        "; a FINALIZE command sits in the last {} bytes, which the GPU drops because \
                         the size is not a multiple of 16",
                        size - effective_size
                    )?;
                } else if size != effective_size {
                    write!(
                        f,
                        "; the last {} bytes were dropped (size not a multiple of 16)",
                        size - effective_size
                    )?;
                }
                Ok(())
            }
            HangReason::CommandPastEnd {
                base,
                effective_size,
                command_addr,
                header,
            } => {
                write!(f, "command at 0x{command_addr:08x} runs past the end of the buffer 0x{base:08x}+0x{effective_size:x}")?;
                match header {
                    Some(h) => {
                        let h = CommandHeader::decode(*h);
                        write!(
                            f,
                            " (header 0x{:08x}: {} with {} extra parameter(s))",
                            h.encode(),
                            crate::regs::name(h.id.into()),
                            h.extra
                        )
                    }
                    None => write!(f, " (its header word is missing)"),
                }
            }
            HangReason::FetchUnmapped { addr } => {
                write!(
                    f,
                    "command fetch from unmapped physical address 0x{addr:08x}"
                )
            }
            HangReason::NotSubmitted => write!(f, "no command buffer was submitted"),
            HangReason::Shader {
                unit,
                pc,
                word,
                reason,
            } => {
                let h = Hang {
                    pc: *pc,
                    word: *word,
                    kind: *reason,
                };
                write!(f, "shader unit {unit}: {h}")
            }
            HangReason::VertexLoader(h) => write!(f, "vertex loader: {h}"),
            HangReason::FragmentOps(h) => write!(f, "fragment operations: {h}"),
            HangReason::Texture(h) => write!(f, "texturing: {h}"),
            HangReason::Internal(s) => write!(f, "internal model error: {s}"),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The list ended with GPUREG_FINALIZE and all work drained after `cycles` cycles.
    Finished {
        /// Cycles stepped.
        cycles: u64,
    },
    /// The GPU would hang: it stopped making progress in `cycle`.
    Hang {
        /// Cycle in which the hang was detected.
        cycle: u64,
        /// Why.
        reason: HangReason,
    },
    /// The cycle limit was reached first.
    CycleLimit {
        /// Cycles stepped.
        cycles: u64,
    },
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Finished { cycles } => write!(f, "finished in {cycles} cycles"),
            Outcome::Hang { cycle, reason } => write!(f, "hang at cycle {cycle}: {reason}"),
            Outcome::CycleLimit { cycles } => {
                write!(f, "cycle limit reached after {cycles} cycles")
            }
        }
    }
}

/// An outcome as JSON, with a readable `message`.
pub fn outcome_json(o: &Outcome) -> serde_json::Value {
    let mut v = serde_json::to_value(o).unwrap_or_else(|_| json!({}));
    if let Some(m) = v.as_object_mut() {
        m.insert("message".into(), json!(o.to_string()));
    }
    v
}

/// Why the vertex loader hangs ([`crate::vl`]; re-exported there).
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
        /// The address of the byte that could not be read.
        addr: u32,
        /// Attribute buffer: the vertex index read. Index buffer: the position in the draw
        /// (0 = first index).
        index: u32,
    },
    /// Variable-size GS mode (GSH_MISC0 bits 0-1 = 1) needs a primitive's vertex count from
    /// the index buffer, and the vertex comes from a draw without one.
    ///
    /// UNVERIFIED(hw) [fact: gs-variable-edges]: the GPU stops — model choice; no source says
    /// what a draw-arrays or immediate-mode vertex does in variable mode (Azahar asserts it
    /// never happens).
    GsCountWithoutIndex {
        /// What kind of vertex.
        what: &'static str,
    },
    /// An internal invariant of the model broke (a model bug, never expected).
    Internal {
        /// What broke.
        what: String,
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
                index,
            } => write!(
                f,
                "attribute buffer {b}: vertex {index} reads unmapped address 0x{addr:08x} \
                 (GPUREG_ATTRIBBUFFERS_LOC + GPUREG_ATTRIBBUFFER{b}_OFFSET + stride * vertex)"
            ),
            VlHang::ReadUnmapped {
                buffer: None,
                addr,
                index,
            } => write!(
                f,
                "index buffer: index {index} of the draw reads unmapped address 0x{addr:08x} \
                 (GPUREG_ATTRIBBUFFERS_LOC + GPUREG_INDEXBUFFER_CONFIG offset)"
            ),
            VlHang::GsCountWithoutIndex { what } => write!(
                f,
                "variable-size GS mode (GPUREG_GSH_MISC0 bits 0-1 = 1) needs a primitive vertex \
                 count from the index buffer, but {what} has none (use GPUREG_DRAWELEMENTS)"
            ),
            VlHang::Internal { what } => write!(f, "internal: {what}"),
        }
    }
}

/// Why the fragment operations hang ([`crate::fop`]; re-exported there).
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
    /// A fragment arrived while a buffer format register holds a value no source describes.
    ///
    /// UNVERIFIED(hw) [fact: fop-bad-format-hang]: the GPU freezes — seed 000 says of GPUREG_DEPTHBUFFER_FORMAT = 1 "seems
    /// to freeze the GPU"; the model treats GPUREG_COLORBUFFER_FORMAT 5-7 the same way (no
    /// source describes them). Model choice: the hang happens at the first fragment FOP
    /// receives, whether or not the buffer would be accessed.
    ReservedFormat {
        /// `"color"` or `"depth"`.
        buffer: &'static str,
        /// The format field's value.
        value: u32,
    },
}

impl fmt::Display for FopHang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FopHang::Unmapped { buffer, addr } => {
                write!(f, "{buffer} buffer access at unmapped address 0x{addr:08x}")
            }
            FopHang::ReservedFormat { buffer, value } => {
                write!(
                    f,
                    "{buffer} buffer format {value} is not a described format"
                )
            }
        }
    }
}

/// Why a texture unit hangs ([`crate::tex`]; re-exported there).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum TexHang {
    /// A texel read outside mapped memory.
    Unmapped {
        /// Texture unit 0-2.
        unit: u8,
        /// The address.
        addr: u32,
    },
}

impl fmt::Display for TexHang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TexHang::Unmapped { unit, addr } => {
                write!(f, "texture unit {unit} reads unmapped address 0x{addr:08x}")
            }
        }
    }
}
