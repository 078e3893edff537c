//! # pica-model
//!
//! A register-accurate, cycle-stepped reference model of the DMP PICA200, the GPU of the
//! Nintendo 3DS. It is the golden reference that RTL reimplementations are compared against.
//!
//! The model is organised as the hardware pipeline is: stages (command processor, register
//! file, ...) joined by bounded channels, all advanced by one clock ([`Gpu::step`]). Every value
//! the hardware computes lives in a bit-exact number type from [`num`]; every register fact lives
//! in the one register table in [`regs`].
//!
//! See `shared/design.md` of the project for the architecture and `README.md` for the CLI.

pub mod num;
pub mod regs;
