//! Builds the Verilated models of `rtl/` and the C++ shims that the Rust API calls.
//!
//! # The model table
//!
//! Every Verilated model is one row of [`MODELS`]:
//!
//! | field | meaning |
//! |-------|---------|
//! | `name` | variant name; the Verilator prefix is `Vpica_{name}` (class, header `Vpica_{name}.h`, archive `libVpica_{name}.a`) |
//! | `top` | the top module |
//! | `defines` | `-D` defines of this model |
//! | `params` | top-level parameter overrides (`-GName=Value`) |
//! | `user_defines` | also takes the defines named in `PICA_RTL_DEFINES` (comma- or space-separated) |
//! | `shims` | the C++ files under `csrc/` that drive it (compiled once even if several rows name them) |
//!
//! Rows today:
//! - `default` (`pica_top`: CP, REGS and the SH stage, plus `PICA_RTL_DEFINES`, e.g.
//!   `PICA_RTL_DEFINES=INJECT_MASK_BUG`), `inject_mask_bug`, `inject_packer_bug` (`pica_top`
//!   with one injected front-end bug each, so the test suite can show that lockstep and the
//!   fuzzer catch each bug without a second build of the workspace; built with `EnableSh=0`:
//!   the front-end lockstep does not use the four shader units, and leaving them out keeps
//!   each of these rows at the front end's Verilation time instead of the SH stage's; no
//!   `pica_top` row carries a shader-unit bug, which would cost one more Verilation of the four
//!   units: the shader bugs are on the `sh*` rows below), and `fe` (`pica_top` with
//!   `EnableSh=0`, plus `PICA_RTL_DEFINES`: the front end as written, which the front-end
//!   lockstep and `pica fuzz --rtl` run instead of `default`, since they never drive the SH
//!   stage and its four idle units took about three quarters of a register-fuzz case's time;
//!   verilated with [`ZERO_INIT_ARGS`] too, since the fuzzer builds one per case),
//!   all driven by `csrc/pica_shim.cpp` through the generated `pica_variants.inc`
//!   (it includes every `pica_top` row's header and root header and defines
//!   `PICA_VARIANTS(X)`); these rows also read the Verilator configuration `csrc/pica_top.vlt`
//!   (REGS' arrays and the RAMs public read-only, for the shim's one-call state copy);
//! - `alu` (`pica_alu_top`, the f24 ALU modules), driven by `csrc/pica_alu_shim.cpp`, which
//!   includes `Vpica_alu.h` itself;
//! - `sfu` (`pica_alu_mc_top`: the multi-cycle f24 units on their own, the shader unit's
//!   RCP/RSQ/EX2/LG2 unit `pica_sh_sfu` and the clipper's reciprocal `pica_f24_rcp_mc`, so that
//!   `pica alu-check` clocks them through all 2^24 inputs without evaluating the rest of the
//!   ALU every clock), driven by the same `csrc/pica_alu_shim.cpp` (ops 24-28);
//! - `axi`, `axi_inject_no_hazard`, `axi_inject_drop_b` (`pica_axi_master`, the AXI4 master
//!   bridge of a stage's memory port, as written and with each injected bug), driven by
//!   `csrc/pica_axi_shim.cpp`, which includes the three headers itself (`src/axi/rtl.rs`
//!   serves it with `AxiServer`);
//! - `sh` (`pica_sh_unit_top`, one shader unit with its RAMs, plus `PICA_RTL_DEFINES`),
//!   `sh_inject_add_round` and `sh_inject_loop_extra` (one injected shader bug each: separate
//!   models, so a bug variant re-verilates only the shader unit) and `sh_knobs_alt` (every
//!   knob parameter on its non-default value), all driven by `csrc/pica_sh_shim.cpp`, which
//!   includes the four headers (and their root headers) itself; these rows also read the
//!   Verilator configuration `csrc/pica_sh_unit.vlt` (the RAMs and input registers public, for
//!   the shim's backdoor loads);
//! - the stage tops on the kit (`pica_sh_top`, `pica_rast_top`, `pica_tev_top`,
//!   `pica_fop_top`): [`STAGE_MODELS`], generated from the stage description
//!   (`src/kit/desc.rs`) into `stage_models.rs` by `pica gen rtl` and `include!`d here (this
//!   script cannot depend on the crate). Per stage, its builds: the RTL as written plus
//!   `PICA_RTL_DEFINES` (`sh_stage`, `rast`, `tev`, `fop`), then one row per injected bug
//!   (`{row}_inject_*`, only its `INJECT_*` define), each driven by the stage's generated shim
//!   (`csrc/pica_{tev,fop,rast,sh_stage}_shim.cpp`); `stage_models.rs` lists each row with
//!   what its bug does.
//!
//! A model's stamp covers only the files its top reaches ([`dependencies`]), so editing one
//! stage top re-verilates that stage's rows, not every model.
//!
//! To add a stage top: add its [`Stage`](../src/kit/desc.rs) row to the description and run
//! `pica gen rtl`, which writes its shim, its Rust FFI and its rows here (model, coverage,
//! mutant). Nothing in this file changes. A top off the kit (`pica_top`, the ALU, the single
//! shader unit) gets a hand-written row in [`MODELS`] and a hand-written shim.
//!
//! # Coverage models (`--rtl-coverage`, guided `--rtl`)
//!
//! Each row of [`COVERAGE_MODELS`] is a row like those of [`MODELS`] verilated with
//! [`COVERAGE_ARGS`] (`--coverage`: line points, which include Verilator's block and branch
//! points, and toggle points) on top of the common arguments. The flag is part of its stamp,
//! so it is a model of its own in the cache and the rows of [`MODELS`] keep their stamps,
//! their cache entries and their speed. The shims are compiled with `VM_COVERAGE=1` and the
//! Verilator coverage runtime (`verilated_cov.cpp`) is linked; the models without coverage
//! never create a coverage context, so it costs them nothing. As for the mutant models, each
//! shim named by a row includes its own generated `OUT_DIR/{shim stem}_coverage.inc`
//! ([`coverage_inc`]: the rows' model, root and symbol-table headers, the counters being
//! `__Vcoverage` of the symbol table, and `PICA_COVERAGE_VARIANTS(X)`) and lists the rows after
//! its other variants, under the row's name; it reads, loads, zeroes and writes their counters
//! through five entry points alike in every shim (`pica_rtl_cov_*` of `pica_shim.cpp`; the
//! stage shims' `{prefix}_cov_*`, `csrc/pica_cov.h`, defined once in `pica_vl.h`) that
//! `src/coverage.rs` drives. Rows today (Verilator and C++ time measured once on the shared
//! 2-core machine under a load of about 4; then cached):
//! - `cov_fe` (`pica_top` with `EnableSh = 0`, plus `PICA_RTL_DEFINES`; about 18 s): the front
//!   end as written, which lockstep and the register fuzzer drive (they leave the SH stage
//!   idle, so it is left out as on the injected-bug rows); driven by `pica_shim.cpp`
//!   (`pica_shim_coverage.inc`). `pica lockstep --rtl-coverage`, `pica fuzz --rtl
//!   --rtl-coverage` and `pica fuzz --guided --rtl` run it;
//! - the stage tops' rows [`STAGE_COVERAGE_MODELS`] (generated, `stage_models.rs`): `cov_tev`
//!   (`pica_tev_top`; 52 s), `cov_fop` (17 s), `cov_rast` (CLIP + RAST; 45 s), `cov_sh` (the
//!   four-unit SH stage; about 3 min), each the top as written plus `PICA_RTL_DEFINES`, driven
//!   by its stage's shim: `--rtl-stages tev|fop|rast|sh --rtl-coverage` and `pica fuzz
//!   --target tev|fop|rast --rtl --rtl-coverage` run them. The single shader unit of `pica
//!   fuzz --target shader` (`pica_sh_unit_top`) has no coverage row: its code coverage comes
//!   from the replay testbench (`pica cov rtl run`).
//!
//! The coverage rows and the test variants (injected bugs, alternative knobs) compile their C++
//! with less optimisation than the models runs and campaigns use ([`LIGHT_OPT_ARGS`]), which
//! took a third off the longest builds of a cold build.
//!
//! All are built by default (a few seconds of `verilated_cov.cpp` on every build-script run
//! besides), so every `--rtl-coverage` works out of the box.
//!
//! # Lean builds (`PICA_RTL_LEAN=1`)
//!
//! `scripts/run`, a new user's first command, builds `pica` with `PICA_RTL_LEAN=1`
//! ([`LEAN_ENV`]), which verilates only the models its commands create ([`LEAN_MODELS`]: `fe`
//! for the lockstep over `vectors/corpus/`, and `sh_stage`, `rast`, `tex`, `tev` and `fop` for
//! the stage swaps (`tex` added after the measurement below); `pica run`, `pica scene render-all` and the frame run the model alone). They
//! were found by tracing each command of `scripts/run` with a `perf probe` uprobe on every
//! shim's `*_new` entry point (each model created is one call, its variant the argument).
//! Left out: every coverage row and mutant model (the campaign tools' builds), `pica_top` with
//! the SH stage (`default`, as costly as `sh_stage`) and its injected bugs, the ALU tops, the
//! AXI master, the single shader unit and every test row (injected bugs, alternative knobs):
//! 12 of the 17 rows a lean build verilated before. The shims still compile: each lists only the rows whose headers
//! exist (`__has_include`; `pica_variants.inc` only the `pica_top` rows built; the ALU shim's
//! `pica_alu_new` returns NULL without its two models), so a missing model is a run-time error,
//! not a build error: a lean binary asked for one says which variant and which models it has
//! and how to build the rest (`RtlError::MissingVariant` and the ALU's error, with
//! `PICA_RTL_LEAN_MODELS`; `pica fuzz` before its campaign starts, which would otherwise fail
//! every case; `mutants_{name}.why`). Any build without the variable (the test command's, a
//! plain `cargo build --release`) builds every row, reusing the lean build's models from the
//! cache. Measured from fresh clones on the shared 2-core machine (2026-12-02, each pair in
//! one sitting; the load averages include the build): the five models' Verilation took 1 min
//! 48 s of wall time at a load of about 3.6 (`rast` 75 s, `sh_stage` 59 s, two at a time), the
//! 17 of the lean build before 4 min 59 s at about 4.6, the whole `scripts/run` 5 min 58 s
//! against 9 min 11 s; beside another engineer's builds (load about 8 and 6.6) 3 min 13 s
//! against 6 min 17 s and 8 min 48 s against 12 min 37 s.
//!
//! The models are built when `pica` is built, not when a command first needs one: loading a
//! model built at run time means a shared object per model with its own copy of the Verilator
//! runtime, the shims' variant tables and the Rust side's `extern "C"` calls turned into
//! run-time tables, and the sources and Verilator found at run time; for `scripts/run`, which
//! uses every lean model, it would save nothing.
//!
//! # Mutant models (`pica mutate`)
//!
//! Besides the rows of [`MODELS`], each row of [`MUTANT_MODELS`] is one Verilated model
//! holding hundreds of mutants of a stage top, chosen at run time: Yosys' `mutate` (the
//! MCY flow) lists `mutants` mutations of the flattened top (`mutate -list N -seed S`), applies
//! them all to one netlist, each behind `mutsel == k` (`mutate -ctrl mutsel W k`; `mutsel` is a
//! new top input, 0 = the original design), and writes it (`write_verilog`) into
//! `<target dir>/verilated/ys_{name}-{stamp hash}/` (stamp: the top's [`dependencies`], the
//! Yosys version and script), never into git, beside `design.il` (the flattened design before
//! mutation, whose cell names the list uses: for reviewing survivors). That netlist is verilated once into
//! `vl_{name}-{hash}` like any row, with the waivers of [`MUTANT_VERILATOR_ARGS`].
//!
//! A row names its model, stage, top, parameter overrides (`chparam`) and the shim that drives
//! it. For each shim named by a row, build.rs writes `OUT_DIR/{shim stem}_mutants.inc` (e.g.
//! `pica_tev_shim_mutants.inc`: the built models' headers and `PICA_MUTANT_VARIANTS(X)`); the
//! shim lists those models after its hand-written rows, so a mutant model is one more variant
//! of the stage's bridge, and `pica_vl::Model::set_mutant` (or `pica_rtl_set_mutant` for
//! `pica_top`) drives `mutsel` and resets the model (a template detects `mutsel`, so one shim
//! serves both kinds). The mutation list (one `mutate -mode … -module … -cell … -port …
//! -portbit … -ctrlbit … -src …` line each) is copied to `OUT_DIR/mutants_{name}.ys`, which
//! `src/mutants.rs` embeds, beside `OUT_DIR/mutants_{name}.why` (empty when built, else why
//! not and the command that builds it). A flattened netlist has no hierarchy: a shim that reads
//! or writes a model's arrays directly (a `.vlt` backdoor) goes through the top's ports for the
//! mutant model instead (`pica_top`: state through the debug port; the shader unit: loads
//! through the write ports).
//!
//! Rows today (256 mutants each, `mutate -seed 1`; Yosys + Verilator wall time measured on
//! the shared 2-core machine under a load of about 6; the C++ shims and Rust are extra and the
//! same with or without them):
//! - `fe_mut` (`pica_top` with `EnableSh = 0`: the front end alone; 45 s + 16 s),
//!   driven by `pica_shim.cpp`;
//! - the stage tops' rows [`STAGE_MUTANT_MODELS`] (generated, `stage_models.rs`, from each
//!   stage's `Mutants` description): `tev_mut` (`pica_tev_top`; 6 s + 26 s), `fop_mut` (2 s +
//!   20 s), `rast_mut` (CLIP + RAST; 15 s + 35 s), each driven by its stage's shim; the SH
//!   stage has none (see `sh_mut`);
//! - `sh_mut` (`pica_sh_unit_top`, the single shader unit that `pica fuzz --target shader`
//!   drives, not the four-unit `pica_sh_top`: every mutant sits in the unit the fuzzer runs,
//!   where a mutant in units 1-3 of `pica_sh_top` is reached only when the stage fuzzer's
//!   vertices land there, and one unit is a quarter of the netlist; 50 s + 27 s), driven by
//!   `pica_sh_shim.cpp`. Not built by default, being the costliest: only with
//!   `PICA_MUTANTS=sh` (or `all`; [`MUTANTS_ENV`] takes model or stage names, comma- or
//!   space-separated), which a row's `default: true` makes unnecessary.
//!
//! Without Yosys (`YOSYS`, default `yosys`) the build still succeeds with a warning and no
//! mutant model; `pica mutate` then says so.
//!
//! # Caching
//!
//! Cargo reruns this script when a file under `rtl/` or `csrc/`, `PICA_RTL_DEFINES`,
//! `VERILATOR`, `YOSYS`, `PICA_MUTANTS`, `PICA_RTL_LEAN` or `stage_models.rs` changes. A model's stamp is a hash of: the contents of the `rtl/*.sv` files its
//! top can reach (every package, plus each file whose module a reached file names; in compile
//! order), the top, the defines, the row's `.vlt` file, the Verilator version and the verilator
//! command line of this script. Models live in `<target dir>/verilated/vl_{name}-{stamp
//! hash}/` ([`model_cache`]), shared by every cargo profile and build-script hash: a model is
//! verilated only when no directory holds its stamp yet. So `cargo test` and `cargo build
//! --release` verilate each model once between them, switching `PICA_RTL_DEFINES` back and
//! forth reuses both builds, and a change to a shim, to this script, or an unrelated change
//! verilates nothing; the shims and the Verilator runtime are recompiled on every run
//! (20-30 s on the 2-core machine).
//!
//! Every Verilation, Yosys run and shim compile this script does appends its seconds to
//! `<target dir>/verilated/build-times.log` ([`log_build`]); `scripts/test` ends with the
//! builds its run made, longest first. A cold build of every row on the 2-core machine (two
//! builds at a time, beside other work) spent about 60 % of its build time on the six coverage
//! rows (`cov_rast` and `cov_sh` the longest): toggle coverage is most of their C++.
//!
//! Needs the system Verilator (Debian's 5.006); `scripts/setup` installs it.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One Verilated model (a row of the table in the header comment).
struct Model {
    /// Variant name; the Verilator prefix is `Vpica_{name}`.
    name: &'static str,
    /// Top module.
    top: &'static str,
    /// Defines of this model.
    defines: &'static [&'static str],
    /// Top-level parameter overrides (`NAME=VALUE`, Verilator `-G`).
    params: &'static [&'static str],
    /// Also takes the defines of `PICA_RTL_DEFINES`.
    user_defines: bool,
    /// C++ files under `csrc/` that drive this model.
    shims: &'static [&'static str],
    /// A Verilator configuration file under `csrc/` for this model (part of its stamp).
    vlt: Option<&'static str>,
}

/// Every Verilated model. `pica_variants.inc` lists the `pica_top` rows built in this order
/// (src/lib.rs finds a `Variant` by its name).
const MODELS: &[Model] = &[
    Model {
        name: "default",
        top: "pica_top",
        defines: &[],
        params: &[],
        user_defines: true,
        shims: &["pica_shim.cpp"],
        vlt: Some("pica_top.vlt"),
    },
    Model {
        name: "inject_mask_bug",
        top: "pica_top",
        defines: &["INJECT_MASK_BUG"],
        params: &["EnableSh=0"],
        user_defines: false,
        shims: &["pica_shim.cpp"],
        vlt: Some("pica_top.vlt"),
    },
    Model {
        name: "inject_packer_bug",
        top: "pica_top",
        defines: &["INJECT_PACKER_BUG"],
        params: &["EnableSh=0"],
        user_defines: false,
        shims: &["pica_shim.cpp"],
        vlt: Some("pica_top.vlt"),
    },
    // The front end as written without the SH stage: the front-end lockstep (`pica lockstep`
    // of a list, `pica fuzz --rtl`) never drives the shader units, and clocking their four
    // idle units took about three quarters of a register-fuzz case's time.
    Model {
        name: "fe",
        top: "pica_top",
        defines: &[],
        params: &["EnableSh=0"],
        user_defines: true,
        shims: &["pica_shim.cpp"],
        vlt: Some("pica_top.vlt"),
    },
    Model {
        name: "alu",
        top: "pica_alu_top",
        defines: &[],
        params: &[],
        user_defines: false,
        shims: &["pica_alu_shim.cpp"],
        vlt: None,
    },
    Model {
        name: "sfu",
        top: "pica_alu_mc_top",
        defines: &[],
        params: &[],
        user_defines: false,
        shims: &["pica_alu_shim.cpp"],
        vlt: None,
    },
    Model {
        name: "axi",
        top: "pica_axi_master",
        defines: &[],
        params: &[],
        user_defines: false,
        shims: &["pica_axi_shim.cpp"],
        vlt: None,
    },
    Model {
        name: "axi_inject_no_hazard",
        top: "pica_axi_master",
        defines: &["INJECT_AXI_NO_HAZARD"],
        params: &[],
        user_defines: false,
        shims: &["pica_axi_shim.cpp"],
        vlt: None,
    },
    Model {
        name: "axi_inject_drop_b",
        top: "pica_axi_master",
        defines: &["INJECT_AXI_DROP_B"],
        params: &[],
        user_defines: false,
        shims: &["pica_axi_shim.cpp"],
        vlt: None,
    },
    Model {
        name: "sh",
        top: "pica_sh_unit_top",
        defines: &[],
        params: &[],
        user_defines: true,
        shims: &["pica_sh_shim.cpp"],
        vlt: Some("pica_sh_unit.vlt"),
    },
    Model {
        name: "sh_inject_add_round",
        top: "pica_sh_unit_top",
        defines: &["INJECT_SH_ADD_ROUND"],
        params: &[],
        user_defines: false,
        shims: &["pica_sh_shim.cpp"],
        vlt: Some("pica_sh_unit.vlt"),
    },
    Model {
        name: "sh_inject_loop_extra",
        top: "pica_sh_unit_top",
        defines: &["INJECT_SH_LOOP_EXTRA"],
        params: &[],
        user_defines: false,
        shims: &["pica_sh_shim.cpp"],
        vlt: Some("pica_sh_unit.vlt"),
    },
    Model {
        name: "sh_knobs_alt",
        top: "pica_sh_unit_top",
        defines: &["PICA_SH_KNOBS_ALT"],
        params: &[],
        user_defines: false,
        shims: &["pica_sh_shim.cpp"],
        vlt: Some("pica_sh_unit.vlt"),
    },
];

// The stage tops' rows, generated from src/kit/desc.rs (`pica gen rtl`): STAGE_MODELS,
// STAGE_COVERAGE_MODELS, STAGE_MUTANT_MODELS.
include!("stage_models.rs");

/// Every model row: the hand-written [`MODELS`], then the stage tops' [`STAGE_MODELS`].
fn models() -> Vec<&'static Model> {
    MODELS.iter().chain(STAGE_MODELS).collect()
}

/// Every coverage row: [`COVERAGE_MODELS`], then [`STAGE_COVERAGE_MODELS`].
fn coverage_models() -> Vec<&'static Model> {
    COVERAGE_MODELS
        .iter()
        .chain(STAGE_COVERAGE_MODELS)
        .collect()
}

/// Every mutant row: [`MUTANT_MODELS`], then [`STAGE_MUTANT_MODELS`].
fn mutant_rows() -> impl Iterator<Item = &'static MutantModel> {
    MUTANT_MODELS.iter().chain(STAGE_MUTANT_MODELS)
}

/// The top whose rows `pica_shim.cpp` instantiates through `pica_variants.inc`.
const PICA_TOP: &str = "pica_top";

/// The coverage builds (header comment, "Coverage models"): rows verilated with
/// [`COVERAGE_ARGS`] on top of the common arguments, each a model of its own (its stamp holds
/// the flag), so the rows of [`MODELS`] keep their cache entries and their speed. Each is driven
/// by its one shim, which lists it through `{shim stem}_coverage.inc`
/// (`PICA_COVERAGE_VARIANTS(X)`, [`coverage_inc`]) under the row's name.
const COVERAGE_MODELS: &[Model] = &[Model {
    name: "cov_fe",
    top: "pica_top",
    defines: &[],
    params: &["EnableSh=0"],
    user_defines: true,
    shims: &["pica_shim.cpp"],
    vlt: Some("pica_top.vlt"),
}];

/// Verilator arguments of a coverage build (part of its stamp): line (with its block and branch
/// points) and toggle coverage; `--coverage` also adds user points (the RTL has none).
const COVERAGE_ARGS: &[&str] = &["--coverage"];

/// Make flags of the builds the test suite needs but campaigns and runs do not (part of their
/// stamps): the coverage rows and every test variant ([`is_test_variant`]: an injected bug, the
/// alternative knobs). The common [`VERILATOR_ARGS`] compile the evaluation code with `-O2`
/// and the run-once code (constructors, initial blocks, the coverage and trace set-up: the
/// `__Slow` files) with `-O1`; these rows take `-O1` and `-O0` (Verilator passes both
/// `-MAKEFLAGS` to make, whose later assignment wins). Measured on the idle 2-core machine, one
/// build at a time: `cov_sh` (the four-unit SH stage with coverage, 72 MB of C++) 5 min 13 s
/// against 3 min 30 s; `sh_stage` without coverage 48 s against 33 s. The coverage builds were
/// half of a cold build's Verilation (8.5 of 16 minutes; CI runs cold).
const LIGHT_OPT_ARGS: &[&str] = &["-MAKEFLAGS", "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1"];

/// A row the test suite builds to show that a bug is caught or a knob value is honoured (its
/// own defines, without `PICA_RTL_DEFINES`: the injected-bug rows and `sh_knobs_alt`), as
/// opposed to a model as written, which runs and campaigns use: built with [`LIGHT_OPT_ARGS`].
fn is_test_variant(m: &Model) -> bool {
    !m.defines.is_empty() && !m.user_defines
}

/// Rows of [`MODELS`] built with [`ZERO_INIT_ARGS`]: models built once per fuzz case, whose
/// constructor the profile shows (`fe`: `pica fuzz --rtl` builds one per register case).
const ZERO_INIT_MODELS: &[&str] = &["fe"];

/// Verilator arguments of the [`ZERO_INIT_MODELS`] (part of their stamps): every variable
/// starts at 0 as a plain store instead of a call of `VL_RAND_RESET_*` per variable and array
/// element. The shims leave the context's `randReset` at its default 0, under which those calls
/// give 0 too, so the models start alike; about 26,000 calls for REGS' arrays were a tenth of a
/// register-fuzz case.
const ZERO_INIT_ARGS: &[&str] = &["--x-initial", "0"];

/// Verilator arguments common to every model (part of the stamp).
const VERILATOR_ARGS: &[&str] = &[
    "--cc",
    "--build",
    "--trace",
    "-j",
    "2",
    "-CFLAGS",
    "-fPIC",
    "-MAKEFLAGS",
    "OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2",
];

/// How many model builds run at once: cargo's `NUM_JOBS` (its `-j`, by default the number of
/// CPUs), at least one.
fn jobs() -> usize {
    env::var("NUM_JOBS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// `f` over `items` on up to `jobs` threads, the results in the order of `items`. A failing
/// build ends the whole script ([`fail`] exits the process).
fn par_map<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.min(items.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    done.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| fail("a model build thread ended without its model")))
        .collect()
}

fn fail(msg: &str) -> ! {
    // A build script reports errors by failing; the message is what the user sees.
    eprintln!("error: {msg}");
    std::process::exit(1);
}

fn verilator() -> String {
    let bin = env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    match Command::new(&bin).arg("--version").output() {
        Ok(o) if o.status.success() => bin,
        _ => fail(&format!(
            "Verilator not found (tried `{bin}`): run scripts/setup (as root) to install \
             verilator, iverilog and yosys, or set VERILATOR to its path"
        )),
    }
}

fn verilator_version(bin: &str) -> String {
    Command::new(bin)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// 64-bit FNV-1a: a stable hash for the stamps (std's hasher may change between toolchains).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    /// Hashes `bytes` preceded by their length (so field boundaries count).
    fn field(&mut self, bytes: &[u8]) {
        for b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn verilator_root(bin: &str) -> PathBuf {
    let out = Command::new(bin)
        .args(["--getenv", "VERILATOR_ROOT"])
        .output()
        .unwrap_or_else(|e| fail(&format!("running {bin} --getenv: {e}")));
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The RTL sources in compile order: packages first, then the rest, both sorted by name.
fn sources(rtl: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(rtl)
        .unwrap_or_else(|e| fail(&format!("reading {}: {e}", rtl.display())))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sv"))
        .collect();
    files.sort_by_key(|p| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        (!name.ends_with("_pkg.sv"), name)
    });
    files
}

/// The sources `top` can depend on: every package, plus the files of the modules reachable from
/// `top` (a file is taken when its text names a module another taken file declares; comments
/// mentioning a module only make the set larger, never smaller), in compile order.
fn dependencies(rtl: &Path, top: &str) -> Vec<PathBuf> {
    dependencies_skipping(rtl, top, &[])
}

/// [`dependencies`] without following the modules `skip` (their files are taken only when
/// another followed file names a module of theirs).
fn dependencies_skipping(rtl: &Path, top: &str, skip: &[&str]) -> Vec<PathBuf> {
    // Comments are left out: "the module is combinational" in a comment declared a module
    // `is`, which every file using the word then reached (re-verilating every model).
    let files: Vec<(PathBuf, String)> = sources(rtl)
        .into_iter()
        .map(|f| {
            let text = fs::read_to_string(&f)
                .unwrap_or_else(|e| fail(&format!("reading {}: {e}", f.display())));
            (f, strip_comments(&text))
        })
        .collect();
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !is_ident(c))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    // Module name -> index of the file declaring it.
    let mut declares = std::collections::HashMap::new();
    for (i, (_, text)) in files.iter().enumerate() {
        let w = words(text);
        for pair in w.windows(2) {
            if pair[0] == "module" {
                declares.insert(pair[1].clone(), i);
            }
        }
    }
    let mut taken = vec![false; files.len()];
    let mut todo: Vec<usize> = declares.get(top).copied().into_iter().collect();
    for (i, (f, _)) in files.iter().enumerate() {
        if f.to_string_lossy().ends_with("_pkg.sv") {
            todo.push(i);
        }
    }
    while let Some(i) = todo.pop() {
        if std::mem::replace(&mut taken[i], true) {
            continue;
        }
        for w in words(&files[i].1) {
            if skip.contains(&w.as_str()) {
                continue;
            }
            if let Some(&j) = declares.get(&w) {
                if !taken[j] {
                    todo.push(j);
                }
            }
        }
    }
    files
        .into_iter()
        .zip(taken)
        .filter_map(|((f, _), t)| t.then_some(f))
        .collect()
}

/// SystemVerilog text without its `//` and `/* */` comments (string literals are not
/// special-cased: the RTL has no `//` inside a string).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let line = rest.find("//");
        // A block comment counts when it opens before the first line comment (or there is none).
        let block = rest.find("/*").filter(|&b| line.is_none_or(|l| b < l));
        match (block, line) {
            (Some(b), _) => {
                out.push_str(&rest[..b]);
                out.push(' ');
                rest = rest[b + 2..]
                    .find("*/")
                    .map_or("", |e| &rest[b + 2 + e + 2..]);
            }
            (None, Some(l)) => {
                out.push_str(&rest[..l]);
                rest = rest[l..].find('\n').map_or("", |e| &rest[l + e..]);
            }
            (None, None) => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// The stamp of a model: what its Verilated output depends on (the files of
/// [`dependencies`], so an edit to an unrelated stage top does not re-verilate this model).
fn stamp(
    rtl: &Path,
    version: &str,
    top: &str,
    defines: &[String],
    params: &[&str],
    vlt: Option<&Path>,
    extra: &[&str],
) -> String {
    let mut h = Fnv::new();
    if let Some(f) = vlt {
        h.field(&fs::read(f).unwrap_or_else(|e| fail(&format!("reading {}: {e}", f.display()))));
    }
    for f in dependencies(rtl, top) {
        h.field(
            f.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
                .as_bytes(),
        );
        h.field(&fs::read(&f).unwrap_or_else(|e| fail(&format!("reading {}: {e}", f.display()))));
    }
    h.field(top.as_bytes());
    for d in defines {
        h.field(d.as_bytes());
    }
    for p in params {
        h.field(p.as_bytes());
    }
    h.field(version.as_bytes());
    for a in VERILATOR_ARGS {
        h.field(a.as_bytes());
    }
    // Extra arguments (a coverage build's) only when there are some, so the rows of `MODELS`
    // keep their stamps and their cache entries.
    for a in extra {
        h.field(a.as_bytes());
    }
    // `params=` only when there are some, so rows without overrides keep their stamps.
    let params = if params.is_empty() {
        String::new()
    } else {
        format!(" params={}", params.join(","))
    };
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!(" args={}", extra.join(","))
    };
    format!(
        "{:016x} top={top} defines={}{params}{extra} {version}\n",
        h.0,
        defines.join(",")
    )
}

/// Where the Verilated models live: `<target dir>/verilated/` (OUT_DIR is
/// `<target dir>/<profile>/build/<package>-<hash>/out`), shared by every cargo profile (dev,
/// test, release, bench) and by every build-script hash. A model only depends on its stamp
/// ([`stamp`]: sources, defines, parameters, Verilator), so `cargo test` and `cargo build
/// --release` verilate it once between them, and an edit to this script or to a shim
/// re-verilates nothing. Falls back to OUT_DIR if the layout is unexpected.
fn model_cache(out: &Path) -> PathBuf {
    out.ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == "build"))
        .and_then(Path::parent)
        .and_then(Path::parent)
        .map_or_else(|| out.to_path_buf(), |t| t.join("verilated"))
}

/// Model directories of one row kept in the cache (the newest by modification time): enough for
/// a dev and a release build at different RTL edits, or a row with and without
/// `PICA_RTL_DEFINES`, to keep theirs.
const KEEP_PER_MODEL: usize = 4;

/// Verilates one model into `<cache>/vl_{name}-{stamp hash}` unless that directory already
/// holds it; returns the directory. Concurrent builds (cargo runs the dev and release build
/// scripts separately) each verilate into a private directory and rename it into place; the
/// first rename wins and the others drop theirs, so no lock is needed.
fn verilate(
    bin: &str,
    version: &str,
    rtl: &Path,
    cache: &Path,
    m: &Model,
    defines: &[String],
    extra: &[&str],
) -> PathBuf {
    let prefix = format!("Vpica_{}", m.name);
    let vlt = m.vlt.map(|f| rtl.join("..").join("csrc").join(f));
    let want = stamp(
        rtl,
        version,
        m.top,
        defines,
        m.params,
        vlt.as_deref(),
        extra,
    );
    let key = want.get(..16).unwrap_or("0");
    let mdir = cache.join(format!("vl_{}-{key}", m.name));
    let lib_of = |d: &Path| d.join(format!("lib{prefix}.a"));
    if lib_of(&mdir).is_file() && fs::read_to_string(mdir.join("stamp")).is_ok_and(|s| s == want) {
        // Mark it used, for the pruning below.
        let _ = fs::write(mdir.join("used"), b"");
        return mdir;
    }
    fs::create_dir_all(cache)
        .unwrap_or_else(|e| fail(&format!("creating {}: {e}", cache.display())));
    let tmp = cache.join(format!("vl_{}-{key}.tmp{}", m.name, std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    let t0 = std::time::Instant::now();
    let mut cmd = Command::new(bin);
    cmd.args(VERILATOR_ARGS)
        .args(extra)
        .args(["--top-module", m.top, "--prefix", &prefix])
        .arg("--Mdir")
        .arg(&tmp)
        .arg(format!("-I{}", rtl.display()));
    for d in defines {
        cmd.arg(format!("-D{d}"));
    }
    for p in m.params {
        cmd.arg(format!("-G{p}"));
    }
    if let Some(f) = &vlt {
        cmd.arg(f);
    }
    cmd.args(dependencies(rtl, m.top));
    let status = cmd
        .status()
        .unwrap_or_else(|e| fail(&format!("running {bin}: {e}")));
    if !status.success() {
        let _ = fs::remove_dir_all(&tmp);
        fail(&format!(
            "verilating model {} (top {}) failed ({status}); see the output above",
            m.name, m.top
        ));
    }
    // Give the model archive a name the linker finds with `-l`.
    fs::copy(tmp.join(format!("{prefix}__ALL.a")), lib_of(&tmp))
        .unwrap_or_else(|e| fail(&format!("copying the {} archive: {e}", m.name)));
    fs::write(tmp.join("stamp"), &want)
        .unwrap_or_else(|e| fail(&format!("writing the {} stamp: {e}", m.name)));
    if fs::rename(&tmp, &mdir).is_err() {
        // Another build put the same model there first.
        let _ = fs::remove_dir_all(&tmp);
        if !lib_of(&mdir).is_file() {
            fail(&format!(
                "moving the {} model into {}",
                m.name,
                mdir.display()
            ));
        }
    }
    prune(cache, &format!("vl_{}-", m.name), &mdir);
    let what = if extra.is_empty() {
        format!("vl_{} (top {})", m.name, m.top)
    } else {
        format!("vl_{} (top {}; {})", m.name, m.top, extra.join(" "))
    };
    log_build(cache, &what, t0);
    mdir
}

/// Removes the oldest cache directories named `prefix*` (a model's `vl_{name}-`, a mutant
/// netlist's `ys_{name}-`) beyond [`KEEP_PER_MODEL`] (never `keep`); the newest by last use,
/// else by stamp.
fn prune(cache: &Path, prefix: &str, keep: &Path) {
    let Ok(rd) = fs::read_dir(cache) else { return };
    let mut dirs: Vec<(std::time::SystemTime, PathBuf)> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix) && !n.contains(".tmp"))
                && p.as_path() != keep
        })
        .map(|p| {
            let t = fs::metadata(p.join("used"))
                .or_else(|_| fs::metadata(p.join("stamp")))
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (t, p)
        })
        .collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.0));
    for (_, d) in dirs.into_iter().skip(KEEP_PER_MODEL - 1) {
        let _ = fs::remove_dir_all(d);
    }
}

/// Appends one line to `<cache>/build-times.log`: the seconds a build took and what it built
/// (`scripts/test` prints the lines its run added, so a cold CI run shows where its
/// Verilation minutes went). One short append per line: the parallel builds' lines do not
/// interleave.
fn log_build(cache: &Path, what: &str, t0: std::time::Instant) {
    use std::io::Write as _;
    let line = format!("{:7.1} s  {what}\n", t0.elapsed().as_secs_f64());
    if let Ok(mut f) = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(cache.join("build-times.log"))
    {
        let _ = f.write_all(line.as_bytes());
    }
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let out = PathBuf::from(env::var("OUT_DIR").unwrap_or_else(|_| fail("OUT_DIR is not set")));
    let rtl = manifest.join("rtl");
    let csrc = manifest.join("csrc");
    println!("cargo:rerun-if-changed={}", rtl.display());
    println!("cargo:rerun-if-changed={}", csrc.display());
    println!(
        "cargo:rerun-if-changed={}",
        manifest.join("stage_models.rs").display()
    );
    println!("cargo:rerun-if-env-changed=PICA_RTL_DEFINES");
    println!("cargo:rerun-if-env-changed=VERILATOR");

    let bin = verilator();
    let root = verilator_root(&bin);
    let user_defines: Vec<String> = env::var("PICA_RTL_DEFINES")
        .unwrap_or_default()
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();

    let version = verilator_version(&bin);
    let defines_of = |m: &Model| -> Vec<String> {
        let mut d: Vec<String> = m.defines.iter().map(|s| s.to_string()).collect();
        if m.user_defines {
            d.extend(user_defines.iter().cloned());
        }
        d
    };
    let cache = model_cache(&out);
    let lean = lean();
    // The runtime names a lean build and its models in its errors about a missing variant.
    println!("cargo:rustc-env=PICA_RTL_LEAN_BUILD={}", u8::from(lean));
    println!(
        "cargo:rustc-env=PICA_RTL_LEAN_MODELS={}",
        LEAN_MODELS.join(", ")
    );
    // Every model and coverage row, built `jobs` at a time. Measured once (2-core machine, a
    // warm rebuild of the 14 models one RTL change touched): no faster than one after the
    // other (7.5-8 min against 7.9), since the big models already keep both cores busy through
    // `verilator -j 2`. It is kept for the small models and the single-threaded Yosys runs of
    // the mutant rows in a cold build, a gain not measured. The coverage rows go first: they
    // are the longest builds (`cov_sh` alone about a third of a cold build), so the other
    // thread works through the short rows meanwhile instead of leaving one long build last
    // (`cov_sh` is the second row: `cov_fe` and the rest of the rows keep the other thread busy).
    let coverage_extra: Vec<&str> = COVERAGE_ARGS
        .iter()
        .chain(LIGHT_OPT_ARGS)
        .copied()
        .collect();
    // The coverage rows this build makes: none when lean.
    let cov_rows: Vec<&Model> = if lean { Vec::new() } else { coverage_models() };
    let mut rows: Vec<(&Model, &[&str])> =
        cov_rows.iter().map(|&m| (m, &coverage_extra[..])).collect();
    // A lean build verilates only the rows of [`LEAN_MODELS`]; the shims list only the builds
    // whose headers exist, so the others are missing variants at run time, not build errors.
    if lean {
        for name in LEAN_MODELS {
            if !models().iter().any(|m| m.name == *name) {
                fail(&format!(
                    "LEAN_MODELS names `{name}`, which is no model row"
                ));
            }
        }
    }
    rows.extend(
        models()
            .into_iter()
            .filter(|m| !lean || LEAN_MODELS.contains(&m.name))
            .map(|m| {
                let extra = if ZERO_INIT_MODELS.contains(&m.name) {
                    ZERO_INIT_ARGS
                } else if is_test_variant(m) {
                    LIGHT_OPT_ARGS
                } else {
                    &[][..]
                };
                (m, extra)
            }),
    );
    let mut dirs = par_map(&rows, jobs(), |&(m, extra)| {
        verilate(&bin, &version, &rtl, &cache, m, &defines_of(m), extra)
    });
    let mdirs = dirs.split_off(cov_rows.len());
    let cov_dirs = dirs;
    let mutants = mutant_models(&bin, &version, &rtl, &cache, &out, lean);

    // pica_variants.inc: the headers of the pica_top models built and the variant list
    // pica_shim.cpp instantiates.
    let variants: Vec<&str> = rows[cov_rows.len()..]
        .iter()
        .filter(|(m, _)| m.top == PICA_TOP)
        .map(|(m, _)| m.name)
        .collect();
    // The root header too: the shim reads REGS' public arrays (csrc/pica_top.vlt).
    let mut inc = variants_inc(&variants, &["", "___024root"], "PICA_VARIANTS");
    let _ = writeln!(
        inc,
        "#define PICA_DEFAULT_DEFINES \"{}\"",
        user_defines.join(",").replace(['"', '\\'], "")
    );
    fs::write(out.join("pica_variants.inc"), inc)
        .unwrap_or_else(|e| fail(&format!("writing pica_variants.inc: {e}")));
    coverage_inc(&out, &cov_rows);

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .include(&csrc)
        .include(&out)
        .include(root.join("include"))
        .include(root.join("include").join("vltstd"))
        .flag_if_supported("-Wno-unused-parameter")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_VCD", "1")
        .define("VM_COVERAGE", "1");
    for f in shims_of(&models()) {
        build.file(csrc.join(f));
    }
    // The Verilator runtime, compiled once for every model.
    for rt in [
        "verilated.cpp",
        "verilated_vcd_c.cpp",
        "verilated_threads.cpp",
        // The coverage runtime (VerilatedCovContext) of the coverage rows; the other models
        // never create a coverage context, so it costs them nothing.
        "verilated_cov.cpp",
    ] {
        build.file(root.join("include").join(rt));
    }
    for m in mdirs
        .iter()
        .chain(&cov_dirs)
        .chain(mutants.iter().map(|(_, d)| d))
    {
        build.include(m);
    }
    let t0 = std::time::Instant::now();
    build.compile("pica_shim");
    log_build(&cache, "the shims and the Verilator runtime (cc)", t0);

    for (dir, m) in mdirs
        .iter()
        .zip(rows[cov_rows.len()..].iter().map(|&(m, _)| m))
        .chain(cov_dirs.iter().zip(cov_rows.iter().copied()))
    {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=static=Vpica_{}", m.name);
    }
    for (name, dir) in &mutants {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=static=Vpica_{name}");
    }
    println!("cargo:rustc-link-lib=dylib=stdc++");
    println!("cargo:rustc-link-lib=dylib=pthread");
}

// ---------------------------------------------------------------------------------------------
// Mutant models (`pica mutate`): see "Mutant models" in the header comment.
// ---------------------------------------------------------------------------------------------

/// One mutant model: `mutants` Yosys mutations of `top`, chosen at run time by `mutsel`.
struct MutantModel {
    /// Model name; the Verilator prefix is `Vpica_{name}`.
    name: &'static str,
    /// The stage `pica mutate --stage` calls it (`PICA_MUTANTS` takes this or the name).
    stage: &'static str,
    /// The top module.
    top: &'static str,
    /// Top-level parameter overrides (`NAME=VALUE`, Yosys `chparam -set`).
    params: &'static [&'static str],
    /// The C++ file under `csrc/` that drives it: it includes `{shim stem}_mutants.inc`, which
    /// lists this model among its variants.
    shim: &'static str,
    /// How many mutations `mutate -list` samples.
    mutants: usize,
    /// `mutate -list -seed`.
    seed: u64,
    /// Built by every build; otherwise only when `PICA_MUTANTS` names it (too slow for the
    /// default build, see the header comment).
    default: bool,
}

/// Every mutant model (the table of the header comment, "Mutant models").
const MUTANT_MODELS: &[MutantModel] = &[
    MutantModel {
        name: "fe_mut",
        stage: "fe",
        top: "pica_top",
        params: &["EnableSh=0"],
        shim: "pica_shim.cpp",
        mutants: 256,
        seed: 1,
        default: true,
    },
    MutantModel {
        name: "sh_mut",
        stage: "sh",
        top: "pica_sh_unit_top",
        params: &[],
        shim: "pica_sh_shim.cpp",
        mutants: 256,
        seed: 1,
        default: false,
    },
];

/// The environment variable that opts into the mutant models not built by default.
const MUTANTS_ENV: &str = "PICA_MUTANTS";

/// The environment variable of a lean build: `1` verilates only the rows of [`LEAN_MODELS`]
/// (no coverage rows, no mutant models, no test rows), so that a first `scripts/run`, which
/// sets it, builds only the models its commands use.
const LEAN_ENV: &str = "PICA_RTL_LEAN";

/// The rows of [`MODELS`] and [`STAGE_MODELS`] a lean build verilates: exactly the models that
/// `scripts/run`'s commands create (traced with a `perf probe` uprobe on every shim's `*_new`
/// entry point over each command of `scripts/run`; `pica run`, `pica scene render-all` and the frame run the
/// model alone). A command of `scripts/run` that starts using another model needs its row here.
const LEAN_MODELS: &[&str] = &[
    // `pica lockstep --corpus`: the front end of each bundle, `pica_top` without the SH stage
    // (`Variant::front_end` of the default build).
    "fe",
    // `pica lockstep --rtl-stages sh,rast,tex,tev,fop` over the scenes and the frame: each
    // stage top as written.
    "sh_stage", "rast", "tex", "tev", "fop",
];

/// Whether this is a lean build ([`LEAN_ENV`] set to anything but empty or `0`).
fn lean() -> bool {
    println!("cargo:rerun-if-env-changed={LEAN_ENV}");
    env::var(LEAN_ENV).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Width of the `mutsel` input (mutants 1..2^W - 1; 0 is the original design).
const MUTSEL_WIDTH: u32 = 10;

/// Verilator waivers of the mutant netlists (part of their stamp). The netlist is Yosys'
/// `write_verilog` output, not hand-written RTL, so it is not held to `-Wall`:
/// - `WIDTH`: Yosys writes constants at their minimal width (`x + 3'h4`) and relies on Verilog's
///   context-determined widening, which is exactly the semantics intended;
/// - `CASEOVERLAP`: a `$pmux` is written as a `casez` over its one-hot select; a mutant that
///   flips a select bit makes two arms match, and the first one wins — a legitimate mutant
///   behaviour, the same in every simulator;
/// - `UNOPTFLAT`: the flattened netlist puts several stages' combinational signals into one
///   bit vector; only scheduling cost, no behaviour.
const MUTANT_VERILATOR_ARGS: &[&str] = &["-Wno-WIDTH", "-Wno-CASEOVERLAP", "-Wno-UNOPTFLAT"];

fn yosys() -> Option<(String, String)> {
    let bin = env::var("YOSYS").unwrap_or_else(|_| "yosys".into());
    match Command::new(&bin).arg("-V").output() {
        Ok(o) if o.status.success() => {
            let v = String::from_utf8_lossy(&o.stdout).trim().to_string();
            Some((bin, v))
        }
        _ => None,
    }
}

/// The Yosys script that writes `mutations.ys`, `netlist.v` and `design.il` (the flattened
/// design before mutation, whose cell names the list uses: for reviewing survivors) of `m`
/// into `out` (part of the stamp). `splitnets -driver` before writing: Yosys otherwise writes
/// a wire whose bits have several drivers as one vector with several `assign`s, some reading
/// other bits of the same vector (`assign w[31:12] = {20{w[32]}}`); Verilator 5.006 schedules
/// such a vector as one node in a combinational loop and can evaluate its readers with stale
/// bits (seen in the shader unit: an input-register write landed in v0 whatever the index,
/// so the unmutated netlist failed its first fuzz case; Icarus ran the same netlist right). Sources are named relative to `rtl/` (Yosys runs there), so
/// the `-src` tags of the mutation list read `pica_regs.sv:495.16-495.23`.
fn mutant_script(m: &MutantModel, srcs: &[String], out: &Path) -> String {
    let list = out.join("mutations.ys");
    let netlist = out.join("netlist.v");
    format!(
        "read_verilog -sv {}; {}prep -top {top}; flatten; opt_clean; write_rtlil {design}; \
         mutate -list {n} -seed {seed} -ctrl mutsel {MUTSEL_WIDTH} 1 -o {list}; \
         script {list}; opt_clean; splitnets -driver; write_verilog -noattr {netlist}",
        srcs.join(" "),
        m.params
            .iter()
            .map(|p| format!("chparam -set {} {}; ", p.replace('=', " "), m.top))
            .collect::<String>(),
        top = m.top,
        n = m.mutants,
        seed = m.seed,
        list = list.display(),
        netlist = netlist.display(),
        design = out.join("design.il").display(),
    )
}

/// Runs Yosys for `m` unless the cache holds its output; returns the directory holding
/// `netlist.v` and `mutations.ys`.
/// Modules a mutant row's parameter removes from the design (`NAME=VALUE`, module): their files
/// are not read, so that the netlist — and with it Yosys' names and the sampled mutations,
/// which the rows' notes files are keyed by — does not change when only such a module's RTL
/// does (`fe_mut`: `EnableSh=0` leaves `pica_sh`, the shader units, out of `pica_top`).
const PARAM_SKIPS: &[(&str, &str)] = &[("EnableSh=0", "pica_sh")];

fn mutant_netlist(ys: &(String, String), rtl: &Path, cache: &Path, m: &MutantModel) -> PathBuf {
    let skip: Vec<&str> = PARAM_SKIPS
        .iter()
        .filter(|(p, _)| m.params.contains(p))
        .map(|&(_, module)| module)
        .collect();
    let srcs: Vec<String> = dependencies_skipping(rtl, m.top, &skip)
        .iter()
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let mut h = Fnv::new();
    for f in &srcs {
        h.field(f.as_bytes());
        let p = rtl.join(f);
        h.field(&fs::read(&p).unwrap_or_else(|e| fail(&format!("reading {}: {e}", p.display()))));
    }
    h.field(ys.1.as_bytes());
    h.field(mutant_script(m, &srcs, Path::new(".")).as_bytes());
    let want = format!("{:016x} mutants of {} {}\n", h.0, m.top, ys.1);
    let dir = cache.join(format!("ys_{}-{:016x}", m.name, h.0));
    let done = |d: &Path| {
        d.join("netlist.v").is_file()
            && fs::read_to_string(d.join("stamp")).is_ok_and(|s| s == want)
    };
    if done(&dir) {
        return dir;
    }
    fs::create_dir_all(cache)
        .unwrap_or_else(|e| fail(&format!("creating {}: {e}", cache.display())));
    let tmp = cache.join(format!(
        "ys_{}-{:016x}.tmp{}",
        m.name,
        h.0,
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).unwrap_or_else(|e| fail(&format!("creating {}: {e}", tmp.display())));
    let script = mutant_script(m, &srcs, &tmp);
    let t0 = std::time::Instant::now();
    let status = Command::new(&ys.0)
        .current_dir(rtl)
        .arg("-q")
        .arg("-l")
        .arg(tmp.join("yosys.log"))
        .arg("-p")
        .arg(&script)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap_or_else(|e| fail(&format!("running {}: {e}", ys.0)));
    if !status.success() {
        fail(&format!(
            "Yosys failed on the mutants of {} ({status}); log: {}",
            m.top,
            tmp.join("yosys.log").display()
        ));
    }
    // The log repeats the whole design; keep only the netlist and the list.
    let _ = fs::remove_file(tmp.join("yosys.log"));
    fs::write(tmp.join("stamp"), &want)
        .unwrap_or_else(|e| fail(&format!("writing the {} stamp: {e}", m.name)));
    if fs::rename(&tmp, &dir).is_err() {
        let _ = fs::remove_dir_all(&tmp);
        if !done(&dir) {
            fail(&format!(
                "moving the {} netlist into {}",
                m.name,
                dir.display()
            ));
        }
    }
    prune(cache, &format!("ys_{}-", m.name), &dir);
    log_build(
        cache,
        &format!(
            "ys_{} (Yosys: {} mutations of {})",
            m.name, m.mutants, m.top
        ),
        t0,
    );
    dir
}

/// Verilates the mutant netlist in `ys_dir` as model `m.name` (the same cache scheme as
/// [`verilate`], the stamp being the netlist itself); returns the model directory.
fn verilate_mutants(
    bin: &str,
    version: &str,
    cache: &Path,
    m: &MutantModel,
    ys_dir: &Path,
) -> PathBuf {
    let prefix = format!("Vpica_{}", m.name);
    let netlist = ys_dir.join("netlist.v");
    let mut h = Fnv::new();
    h.field(
        &fs::read(&netlist)
            .unwrap_or_else(|e| fail(&format!("reading {}: {e}", netlist.display()))),
    );
    h.field(m.top.as_bytes());
    h.field(version.as_bytes());
    for a in VERILATOR_ARGS.iter().chain(MUTANT_VERILATOR_ARGS) {
        h.field(a.as_bytes());
    }
    let want = format!("{:016x} top={} mutants {version}\n", h.0, m.top);
    let mdir = cache.join(format!("vl_{}-{:016x}", m.name, h.0));
    let lib_of = |d: &Path| d.join(format!("lib{prefix}.a"));
    if lib_of(&mdir).is_file() && fs::read_to_string(mdir.join("stamp")).is_ok_and(|s| s == want) {
        let _ = fs::write(mdir.join("used"), b"");
        return mdir;
    }
    let tmp = cache.join(format!(
        "vl_{}-{:016x}.tmp{}",
        m.name,
        h.0,
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&tmp);
    let t0 = std::time::Instant::now();
    let status = Command::new(bin)
        .args(VERILATOR_ARGS)
        .args(MUTANT_VERILATOR_ARGS)
        .args(["--top-module", m.top, "--prefix", &prefix])
        .arg("--Mdir")
        .arg(&tmp)
        .arg(&netlist)
        .status()
        .unwrap_or_else(|e| fail(&format!("running {bin}: {e}")));
    if !status.success() {
        let _ = fs::remove_dir_all(&tmp);
        fail(&format!(
            "verilating mutant model {} ({}) failed ({status}); see the output above",
            m.name,
            netlist.display()
        ));
    }
    fs::copy(tmp.join(format!("{prefix}__ALL.a")), lib_of(&tmp))
        .unwrap_or_else(|e| fail(&format!("copying the {} archive: {e}", m.name)));
    fs::write(tmp.join("stamp"), &want)
        .unwrap_or_else(|e| fail(&format!("writing the {} stamp: {e}", m.name)));
    if fs::rename(&tmp, &mdir).is_err() {
        let _ = fs::remove_dir_all(&tmp);
        if !lib_of(&mdir).is_file() {
            fail(&format!(
                "moving the {} model into {}",
                m.name,
                mdir.display()
            ));
        }
    }
    prune(cache, &format!("vl_{}-", m.name), &mdir);
    log_build(
        cache,
        &format!("vl_{} (mutant netlist of {})", m.name, m.top),
        t0,
    );
    mdir
}

/// Whether `PICA_MUTANTS` (`wanted`: comma- or space-separated model or stage names, or `all`)
/// asks for `m`, which is built anyway when it is a default row.
fn mutant_wanted(m: &MutantModel, wanted: &[String]) -> bool {
    m.default
        || wanted
            .iter()
            .any(|w| w == "all" || w == m.name || w == m.stage)
}

/// The `{shim stem}_{kind}.inc` file name of a generated include of a shim
/// (`pica_tev_shim.cpp`, `mutants` → `pica_tev_shim_mutants.inc`).
fn shim_inc(shim: &str, kind: &str) -> String {
    format!("{}_{kind}.inc", shim.trim_end_matches(".cpp"))
}

/// A generated variant list: for each model `name`, `#include "Vpica_{name}{h}.h"` for each
/// suffix `h` of `headers` (`""`: the model's own header), then `#define {list}(X)` with
/// `X(Vpica_{name}, "{name}")` for each (a shim names the variant after its row).
fn variants_inc(names: &[&str], headers: &[&str], list: &str) -> String {
    let mut inc = String::from("// Generated by rtl-bridge/build.rs — do not edit.\n");
    for name in names {
        for h in headers {
            let _ = writeln!(inc, "#include \"Vpica_{name}{h}.h\"");
        }
    }
    let _ = write!(inc, "#define {list}(X)");
    for name in names {
        let _ = write!(inc, " X(Vpica_{name}, \"{name}\")");
    }
    inc.push('\n');
    inc
}

/// The shims that drive `rows`, each once, sorted.
fn shims_of(rows: &[&Model]) -> Vec<&'static str> {
    let mut shims: Vec<&str> = rows.iter().flat_map(|m| m.shims.iter().copied()).collect();
    shims.sort_unstable();
    shims.dedup();
    shims
}

/// Writes, for each shim that drives a [`COVERAGE_MODELS`] row, `OUT_DIR/{shim stem}_coverage.inc`:
/// its coverage rows' model, root and symbol-table headers (the shim reads the coverage counters
/// out of the symbol table) and `PICA_COVERAGE_VARIANTS(X)`.
fn coverage_inc(out: &Path, built: &[&Model]) {
    // Every shim that can drive a coverage row gets its include, empty when none is built.
    for shim in shims_of(&coverage_models()) {
        let mine: Vec<&str> = built
            .iter()
            .filter(|m| m.shims.contains(&shim))
            .map(|m| m.name)
            .collect();
        let path = out.join(shim_inc(shim, "coverage"));
        let inc = variants_inc(
            &mine,
            &["", "___024root", "__Syms"],
            "PICA_COVERAGE_VARIANTS",
        );
        fs::write(&path, inc).unwrap_or_else(|e| fail(&format!("writing {}: {e}", path.display())));
    }
}

/// Builds every wanted mutant model (when Yosys is there) and writes, for each row, its
/// mutation list `OUT_DIR/mutants_{name}.ys` (empty when not built), `OUT_DIR/mutants_{name}.why`
/// (empty when built, else why not and how to build it: `src/mutants.rs` shows it) and
/// `OUT_DIR/mutants_{name}.dir` (the Yosys directory with design.il, for scripts/mutant-equiv;
/// empty when not built), and for
/// each shim named by a row `OUT_DIR/{shim stem}_mutants.inc` (the built models' headers and
/// `PICA_MUTANT_VARIANTS(X)`); returns `(name, model directory)` of each built.
fn mutant_models(
    bin: &str,
    version: &str,
    rtl: &Path,
    cache: &Path,
    out: &Path,
    lean: bool,
) -> Vec<(&'static str, PathBuf)> {
    println!("cargo:rerun-if-env-changed=YOSYS");
    println!("cargo:rerun-if-env-changed={MUTANTS_ENV}");
    let wanted: Vec<String> = env::var(MUTANTS_ENV)
        .unwrap_or_default()
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    for w in &wanted {
        if w != "all" && !mutant_rows().any(|m| *w == m.name || *w == m.stage) {
            fail(&format!(
                "{MUTANTS_ENV}: no mutant model or stage `{w}` (known: all, {})",
                mutant_rows()
                    .map(|m| m.stage)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let ys = yosys();
    if ys.is_none() {
        println!(
            "cargo:warning=Yosys not found (YOSYS or `yosys`): building without the mutant \
             models of `pica mutate`; scripts/setup installs it"
        );
    }
    let write = |path: PathBuf, text: &str| {
        fs::write(&path, text)
            .unwrap_or_else(|e| fail(&format!("writing {}: {e}", path.display())));
    };
    // Yosys and Verilator per row, `jobs` rows at a time (as the models in `main`).
    let rows: Vec<&MutantModel> = mutant_rows().collect();
    let built: Vec<(&str, PathBuf)> = par_map(&rows, jobs(), |&m| {
        let list = out.join(format!("mutants_{}.ys", m.name));
        let why = out.join(format!("mutants_{}.why", m.name));
        let dir = out.join(format!("mutants_{}.dir", m.name));
        let Some(ys) = ys.as_ref().filter(|_| !lean && mutant_wanted(m, &wanted)) else {
            write(list, "");
            write(dir, "");
            write(
                why,
                &if lean {
                    format!(
                        "this is a lean build ({LEAN_ENV}=1, as scripts/run builds it): it has \
                         no coverage or mutant models; rebuild without it, e.g. `cargo build \
                         --release -p pica-testbench --bin pica`{}",
                        if m.default {
                            String::new()
                        } else {
                            format!(" with `{MUTANTS_ENV}={}`", m.stage)
                        }
                    )
                } else if ys.is_none() {
                    format!(
                        "this build has no mutant model of stage {} ({}): Yosys was not found \
                         at build time (scripts/setup installs it)",
                        m.stage, m.name
                    )
                } else {
                    format!(
                        "the mutant model of stage {} ({}) is not built by default (it is slow \
                         to build): rebuild with `{MUTANTS_ENV}={} cargo build --release -p \
                         pica-testbench --bin pica`",
                        m.stage, m.name, m.stage
                    )
                },
            );
            return None;
        };
        let ys_dir = mutant_netlist(ys, rtl, cache, m);
        fs::copy(ys_dir.join("mutations.ys"), &list)
            .unwrap_or_else(|e| fail(&format!("copying the {} mutation list: {e}", m.name)));
        write(why, "");
        write(dir, &ys_dir.to_string_lossy());
        let mdir = verilate_mutants(bin, version, cache, m, &ys_dir);
        Some((m.name, mdir))
    })
    .into_iter()
    .flatten()
    .collect();
    let mut shims: Vec<&str> = mutant_rows().map(|m| m.shim).collect();
    shims.sort_unstable();
    shims.dedup();
    for shim in shims {
        let mine: Vec<&str> = mutant_rows()
            .filter(|m| m.shim == shim && built.iter().any(|(n, _)| *n == m.name))
            .map(|m| m.name)
            .collect();
        write(
            out.join(shim_inc(shim, "mutants")),
            &variants_inc(&mine, &[""], "PICA_MUTANT_VARIANTS"),
        );
    }
    built
}
