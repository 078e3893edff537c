//! The four shader units.
//!
//! - [`isa`]: the instruction set (opcode table, formats, decode/encode, operand descriptors);
//! - [`alu`]: float24 arithmetic on bits, with the rounding rule of each operation;
//! - [`alu_fast`]: the interpreter's fast paths of those operations (the same bits);
//! - [`interp`]: one unit's registers, flow-control stacks and one-instruction step;
//! - [`io`]: input permutation, output mask, GS input modes;
//! - [`stage`]: the SH stage of the cycle-stepped core (VS on 4 units, or 3 + GS);
//! - [`asm`]: the picasso assembler; [`disasm`]: the disassembler;
//! - [`shbin`]: the SHBIN shader-binary format (DVLB/DVLP/DVLE), read and written.

pub mod alu;
pub mod alu_fast;
pub mod asm;
pub mod bench_program;
pub mod disasm;
pub mod interp;
pub mod io;
pub mod isa;
pub mod shbin;
pub mod stage;

#[cfg(test)]
mod tests;
