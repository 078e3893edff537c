//! # pica-testbench
//!
//! The `pica` command-line tool and the machinery behind it: input parsing, running command
//! lists on the model, and (in later issues) lockstep comparison with RTL and fuzzing.

pub mod input;
pub mod run;
pub mod shader_cli;
pub mod shader_tools_cli;
