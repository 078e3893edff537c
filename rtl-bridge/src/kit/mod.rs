//! The stage kit: one description per RTL stage ([`desc`]), from which the harness around
//! the stage is generated (shim, FFI, model rows, replay testbench) or served by generic code.

pub mod desc;
pub mod gen_tb;
pub mod regs;
pub mod replay;

pub use desc::{stage, Stage, STAGES};
