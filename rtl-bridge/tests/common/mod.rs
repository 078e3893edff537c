//! The random shader programs of the RTL tests: `pica_vectors::shader_gen` (the generator of
//! `pica fuzz --target shader`) as a unit configuration.

use pica_model::num::F24;
use pica_model::regfile::unit::UnitConfig;
pub use pica_vectors::shader_gen::{edgy_vec, Rng};

/// A random program and configuration, deterministic from `seed`: the configuration, the
/// input registers and the program's length in words.
pub fn random_case(seed: u64) -> (UnitConfig, [[F24; 4]; 16], usize) {
    // Without the relocated main: sh_stage.rs puts its prologue at 0x200.
    let case = pica_vectors::shader_gen::generate_low(seed);
    let mut cfg = UnitConfig::default();
    cfg.code[..case.code.len()].copy_from_slice(&case.code);
    cfg.opdescs.copy_from_slice(&case.opdescs);
    cfg.float_uniforms.copy_from_slice(&case.float_uniforms);
    cfg.int_uniforms = case.int_uniforms;
    cfg.bool_uniforms = case.bool_uniforms;
    (cfg, case.inputs, case.code.len())
}
