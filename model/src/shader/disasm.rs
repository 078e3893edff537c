//! Disassembler (in progress).
