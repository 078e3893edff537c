//! The four shader units.
//!
//! - [`isa`]: the instruction set (opcode table, formats, decode/encode, operand descriptors);
//! - [`alu`]: float24 arithmetic on bits, with the rounding rule of each operation;
//! - [`interp`]: one unit's registers, flow-control stacks and one-instruction step;
//! - [`asm`]: the picasso assembler; [`disasm`]: the disassembler;
//! - [`shbin`]: the SHBIN shader-binary format (DVLB/DVLP/DVLE), read and written.

pub mod alu;
pub mod asm;
pub mod disasm;
pub mod interp;
pub mod isa;
pub mod shbin;

#[cfg(test)]
mod tests;
