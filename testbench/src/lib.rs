//! # pica-testbench
//!
//! The `pica` command-line tool and the machinery behind it, one folder per concern:
//! - [`cli`]: the command handlers, one module per command group (`main.rs` parses and
//!   dispatches), and the generated CLI reference with the docs' link check;
//! - [`lockstep`]: the model against the RTL, the front end cycle-exact and the pipeline stages
//!   swapped in transaction-exact ([`lockstep::stages`]), and the stage recorders;
//! - [`fuzz`]: the fuzz targets (register sequences, shader programs, the SH stage, TEV, FOP,
//!   CLIP + RAST, the whole pipeline), the campaign they share and coverage guidance;
//! - [`cov`]: functional coverage of the model and code coverage of the RTL;
//! - [`mutate`]: the mutation score of the verification loop;
//! - shared helpers: input parsing ([`input`]), knob arguments ([`knobs`]), running command
//!   lists on the model ([`run`]) and pictures ([`picture`]).

pub mod cli;
pub mod cov;
pub mod fuzz;
pub mod input;
pub mod knobs;
pub mod lockstep;
pub mod mutate;
pub mod picture;
pub mod run;

// `pica gen docs` (`main.rs`'s `cmd_gen`) names the CLI reference generator by this path.
pub use cli::docs_gen;

/// The generator string recorded in bundles (`pica 0.1.0`).
pub fn generator() -> String {
    format!("pica {}", env!("CARGO_PKG_VERSION"))
}
