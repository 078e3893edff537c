//! NV2A (Xbox GPU) vertex programs: decoder, disassembler and interpreter.
//!
//! A side model next to the PICA200 one, from seed 003 (xboxdevwiki "NV2A/Vertex Shader"):
//! 136 slots of four little-endian words (word 0 unused), a MAC unit (14 operations) and an ILU
//! (8 operations) that issue together from one slot, 16 inputs, 12 temporaries plus R12 mirroring
//! oPos, 11 outputs initialised to (0, 0, 0, 1), 192 constants and the address register A0.x.
//! Semantics are NV_vertex_program 1.1's, computed in IEEE binary32 with every special case
//! written down in [`arith`]; where the hardware is unknown the model says so with a named
//! constant or a [`Config`] knob marked `UNVERIFIED(hw)`.
//!
//! - [`decode`]: the field table, [`Slot`] decode/encode (every bit pattern decodes), [`Program`]
//!   images (raw bytes or words) and their checks.
//! - [`disasm`]: NV and D3D style text.
//! - [`interp`]: the [`Machine`] and its slot semantics (read-all-then-write, paired ILU to R1).
//! - [`arith`]: the scalar operations and their special cases.
//!
//! ```
//! use pica_model::nv2a::{Machine, MacOp, Mask, OutBank, Program, Slot, Source};
//! // MOV o[HPOS], v[0] ; final
//! let slot = Slot {
//!     mac: MacOp::Mov,
//!     src: [Source::input(), Source::input(), Source::input()],
//!     out_mask: Mask::XYZW,
//!     out_bank: OutBank::Output,
//!     final_: true,
//!     ..Slot::default()
//! };
//! let prog = Program::from_words(&slot.encode()).unwrap();
//! let mut m = Machine::default();
//! m.inputs[0] = [1.0, 2.0, 3.0, 4.0];
//! m.run(&prog, 0).unwrap();
//! assert_eq!(m.outputs[0], [1.0, 2.0, 3.0, 4.0]);
//! ```

pub mod arith;
pub mod decode;
pub mod disasm;
pub mod interp;

pub use arith::{Config, PairedR1, Subnormals, ZeroTimes};
pub use decode::{
    fields, Comp, Field, IluOp, ImageError, MacOp, Mask, Mux, OutBank, Program, Slot, Source, Unit,
};
pub use disasm::Syntax;
pub use interp::{Machine, RunError, RunSummary, Vec4, OUTPUT_NAMES};

/// Instruction slots of the NV2A's program memory.
pub const MAX_SLOTS: usize = 136;
/// Words per slot (word 0 unused).
pub const SLOT_WORDS: usize = 4;
/// Bytes per slot in a binary image.
pub const SLOT_BYTES: usize = 16;
/// Input registers v0-v15.
pub const NUM_INPUTS: usize = 16;
/// Temporary registers R0-R11 (R12 mirrors oPos and is not stored separately).
pub const NUM_TEMPS: usize = 12;
/// Output register indices 0-12 (1 and 2 do not exist).
pub const NUM_OUTPUTS: usize = 13;
/// Constant registers c0-c191.
pub const NUM_CONSTS: usize = 192;
