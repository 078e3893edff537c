//! Stage bundles (design.md "Stage bundles"): one stage's register writes, input stream,
//! memories and expected output beats, replayable on that stage's RTL alone in a plain
//! SystemVerilog testbench.
//!
//! [`bundle`] is the one writer and reader: manifest (format, version, `kind`, provenance, the
//! packing of every file, SHA-256 of every other file), `$readmemh`-ready files and their
//! `.jsonl` mirrors, and reading all of it back with errors naming file and line. Each stage
//! module brings only what is its own — its case type, the model run, its record layouts and
//! its checks:
//!
//! | module | `kind` | RTL top |
//! |---|---|---|
//! | [`shader_unit`] | `stage:shader_unit` | `pica_sh_unit_top` |
//! | [`tev`] | `stage:tev` | `pica_tev_top` |
//! | [`fop`] | `stage:fop` | `pica_fop_top` |
//! | [`rast`] | `stage:rast` | `pica_rast_top` |
//!
//! The shader unit's items are also here (`pica_vectors::stage::write_shader_bundle`), as
//! they were before the stages shared a module; the other stages are also
//! `pica_vectors::stage_tev`, `stage_fop` and `stage_rast`.

pub mod bundle;
pub mod fop;
pub mod rast;
pub mod shader_unit;
pub mod tev;

pub use bundle::{bundle_kind, manifest_knobs, BundleError, StageProvenance};
pub use shader_unit::*;
