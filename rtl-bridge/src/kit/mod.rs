//! The stage kit: one description per RTL stage ([`desc`]), from which the harness around
//! the stage is generated ([`gen`]: shim, FFI, model rows; [`gen_tb`]: the replay testbench from the
//! stage's [`replay`] rows) or served by generic code (the
//! model handle and core of every stage wrapper, the side-port server).

// Generated (`pica gen rtl`): formatted by its generator.
#[rustfmt::skip]
pub mod abi;
pub(crate) mod core;
pub mod desc;
pub mod gen;
pub mod gen_tb;
pub(crate) mod handle;
pub mod record;
pub mod regs;
pub mod replay;
pub mod side;
pub(crate) mod stage;
pub mod tally;
pub(crate) mod variant;

pub use desc::{stage, Stage, STAGES};
