//! The four shader units: instruction set ([`isa`]).

pub mod isa;
