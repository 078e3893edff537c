//! The four shader units.
//!
//! - [`isa`]: the instruction set (opcode table, formats, decode/encode, operand descriptors);
//! - [`alu`]: float24 arithmetic on bits, with the rounding rule of each operation;
//! - [`interp`]: one unit's registers, flow-control stacks and one-instruction step.

pub mod alu;
pub mod interp;
pub mod isa;

#[cfg(test)]
mod tests;
