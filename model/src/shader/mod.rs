//! The four shader units: instruction set ([`isa`]), assembler ([`asm`]), disassembler
//! ([`disasm`]) and the SHBIN shader-binary format ([`shbin`]).

pub mod asm;
pub mod disasm;
pub mod isa;
pub mod shbin;
