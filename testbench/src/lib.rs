//! # pica-testbench
//!
//! The `pica` command-line tool and the machinery behind it: input parsing, running command
//! lists on the model ([`run`]), lockstep comparison with the RTL ([`lockstep`]), fuzzing
//! ([`fuzz`], [`guided`], [`shader_fuzz`], [`sh_stage_fuzz`], [`tev_fuzz`], [`fop_fuzz`],
//! [`rast_fuzz`], [`pipe_fuzz`]), stage recorders ([`stage_record`]),
//! and the command handlers ([`alu_check`], [`verify_cli`], [`nv2a_cli`], [`shader_cli`], [`shader_tools_cli`],
//! [`num_cli`]), and the generated CLI reference with the docs' link check ([`docs_gen`]).

pub mod alu_check;
pub mod campaign;
pub mod cov_cli;
pub mod cov_rtl;
pub mod docs_gen;
pub mod facts_cli;
pub mod fop_fuzz;
pub mod fuzz;
pub mod guided;
pub mod input;
pub mod knobs;
pub mod lockstep;
pub mod mutate;
pub mod num_cli;
pub mod nv2a_cli;
pub mod picture;
pub mod pipe_fuzz;
pub mod rast_fuzz;
pub mod run;
pub mod scene_cli;
pub mod sh_stage_fuzz;
pub mod shader_cli;
pub mod shader_fuzz;
pub mod shader_tools_cli;
pub mod stage_record;
pub mod stages;
pub mod tev_fuzz;
pub mod verify_cli;

/// The generator string recorded in bundles (`pica 0.1.0`).
pub fn generator() -> String {
    format!("pica {}", env!("CARGO_PKG_VERSION"))
}
