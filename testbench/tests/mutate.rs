//! `pica mutate` on the front end: the mutation score of the verification loop (corpus + the
//! register fuzzer in lockstep against Yosys mutants of `pica_top`, one Verilator model).

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_testbench::mutate::{self, MutateOptions, Stage};
use std::path::PathBuf;

/// Mutants and fuzz cases of the CI sample: the first mutants of the list (Yosys' even random
/// sample) with the whole corpus, 96 fuzz cases (half of them under a REGS hold schedule) and
/// two pipeline cases each (48 fuzz cases left two of the 40 alive after the generator grew
/// the arms `pica mutate` asked for: each arm thins the others). `pica mutate --stage fe` runs all
/// 256 with more cases (docs/src/fuzzing.md, "Mutation score: `pica mutate`").
const MUTANTS: usize = 40;
const CASES: u64 = 96;
/// Pipeline fuzz cases (mixed run, REGS held by the model's pipeline) of the CI sample.
const PIPE_CASES: u64 = 2;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn mutate_fe_kills_at_least_95_percent_of_non_equivalent_mutants() {
    if pica_rtl_bridge::mutants::fe_mutations().unwrap().is_empty() {
        // Built without Yosys (build.rs warned): no mutant model to score.
        return;
    }
    let dir = std::env::temp_dir().join(format!("pica-mutate-test-{}", std::process::id()));
    let opts = MutateOptions {
        stage: Stage::Fe,
        only: Vec::new(),
        mutants: Some(MUTANTS),
        cases: CASES,
        pipe_cases: PIPE_CASES,
        seed: 1,
        corpus: Some(root().join("vectors/corpus")),
        regressions: dir.clone(),
        shrink: false,
        mem_latency: Default::default(),
        mem_reorder: pica_rtl_bridge::axi::Reorder::InOrder,
        notes: mutate::load_notes(&root().join("rtl-bridge/mutants/fe_mut.notes")).unwrap(),
    };
    let r = mutate::run(&opts, |_, _, _| {}).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(r.run, MUTANTS);
    assert_eq!(r.killed + r.survived + r.equivalent + r.timeout, r.run);
    assert!(r.score_percent >= 95.0, "{}", r.text());
    // Every kill names its case and reproducer.
    for m in r.mutants.iter().filter(|m| m.status == "killed") {
        assert!(m.killed_by.is_some() && m.reproducer.is_some(), "{m:?}");
    }
}

/// A CI-sized sample of a stage mutant model: the first `mutants` mutants with `cases` fuzz
/// cases each. `run` itself fails when the unmutated netlist fails a case; on top, at least one
/// mutant must be killed, and every kill must name its case and leave its reproducer bundle.
fn stage_sample(stage: Stage, mutants: usize, cases: u64) {
    let model = pica_rtl_bridge::mutants::model_of(stage.name()).unwrap();
    if !model.is_built() {
        // Built without Yosys (build.rs warned), or an opt-in model not asked for.
        return;
    }
    let dir = std::env::temp_dir().join(format!(
        "pica-mutate-{}-test-{}",
        stage.name(),
        std::process::id()
    ));
    let opts = MutateOptions {
        stage,
        only: Vec::new(),
        mutants: Some(mutants),
        cases,
        pipe_cases: 0,
        seed: 1,
        corpus: None,
        regressions: dir.clone(),
        shrink: false,
        mem_latency: Default::default(),
        mem_reorder: pica_rtl_bridge::axi::Reorder::InOrder,
        notes: mutate::load_notes(&root().join(stage.notes_path())).unwrap(),
    };
    let r = mutate::run(&opts, |_, _, _| {}).unwrap();
    assert_eq!(r.run, mutants);
    assert_eq!(r.killed + r.survived + r.equivalent + r.timeout, r.run);
    assert!(r.killed >= 1, "{}", r.text());
    for m in r.mutants.iter().filter(|m| m.status == "killed") {
        let repro = m.reproducer.as_deref().unwrap_or_default();
        let path = repro.split(" (").next().unwrap_or_default();
        assert!(
            m.killed_by.is_some() && std::path::Path::new(path).join("manifest.json").is_file(),
            "{m:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mutate_tev_sample_kills_with_reproducers() {
    stage_sample(Stage::Tev, 8, 4);
}

#[test]
fn mutate_fop_sample_kills_with_reproducers() {
    stage_sample(Stage::Fop, 8, 4);
}

#[test]
fn mutate_rast_sample_kills_with_reproducers() {
    stage_sample(Stage::Rast, 6, 2);
}

#[test]
fn mutate_an_opt_in_model_names_the_env_var_and_the_command() {
    let model = pica_rtl_bridge::mutants::model_of("sh").unwrap();
    if model.is_built() {
        return;
    }
    let opts = MutateOptions {
        stage: Stage::Sh,
        only: Vec::new(),
        mutants: Some(1),
        cases: 1,
        pipe_cases: 0,
        seed: 1,
        corpus: None,
        regressions: std::env::temp_dir(),
        shrink: false,
        mem_latency: Default::default(),
        mem_reorder: pica_rtl_bridge::axi::Reorder::InOrder,
        notes: Default::default(),
    };
    let e = mutate::run(&opts, |_, _, _| {}).unwrap_err();
    assert!(
        e.contains("PICA_MUTANTS=sh cargo build --release -p pica-testbench --bin pica")
            || e.contains("Yosys"),
        "{e}"
    );
}

/// The front-end mutant the pipeline-kill test runs: bit 6 of unit 1's entry point
/// (`entry_q`, pica_regs.sv) inverted, so the vertex shader starts at another instruction. The
/// index is Yosys' sample of the
/// current netlist: an edit of the front-end RTL re-samples it (the test then names the mutant
/// it found there; pick a mutant a pipeline case kills, `pica mutate --stage fe --no-corpus
/// --cases 0 --pipe-cases 8`).
const PIPE_MUTANT: u16 = 142;

/// A pipeline case kills front-end mutant [`PIPE_MUTANT`] (shown by the final state once the
/// pipeline has held REGS): the kill is shrunk to fewer splices than the case had, and its
/// bundle, replayed mixed against the same mutant, still fails, while the unmutated front end
/// passes it.
#[test]
fn mutate_fe_pipeline_kill_is_shrunk_and_replays() {
    let list = pica_rtl_bridge::mutants::fe_mutations().unwrap();
    if list.is_empty() {
        return;
    }
    let m = list.iter().find(|m| m.index == PIPE_MUTANT).unwrap();
    assert!(
        m.describe().contains("u_regs.entry_q"),
        "mutant #{PIPE_MUTANT} is now {}: the netlist was re-sampled",
        m.describe()
    );
    let dir = std::env::temp_dir().join(format!("pica-mutate-pipe-test-{}", std::process::id()));
    let opts = MutateOptions {
        stage: Stage::Fe,
        only: vec![PIPE_MUTANT],
        mutants: None,
        cases: 0,
        pipe_cases: 8,
        seed: 1,
        corpus: None,
        regressions: dir.clone(),
        shrink: true,
        mem_latency: Default::default(),
        mem_reorder: pica_rtl_bridge::axi::Reorder::InOrder,
        notes: Default::default(),
    };
    let splices = |shrink: bool| {
        let opts = MutateOptions {
            shrink,
            ..opts.clone()
        };
        let r = mutate::run(&opts, |_, _, _| {}).unwrap();
        let m = r.mutants[0].clone();
        assert_eq!(m.status, "killed", "{}", r.text());
        assert!(
            m.killed_by.as_deref().unwrap().starts_with("fuzz pipeline"),
            "{m:?}"
        );
        let repro = m.reproducer.unwrap();
        let (path, size) = repro.split_once(" (").unwrap();
        let n: usize = size.split(' ').next().unwrap().parse().unwrap();
        (path.to_string(), n)
    };
    let (_, whole) = splices(false);
    let (path, shrunk) = splices(true);
    assert!(shrunk < whole, "not shrunk: {shrunk} of {whole} splices");
    let path = path.as_str();
    let replay = |variant: Option<&str>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_pica"));
        cmd.args(["lockstep", "--bundle", path, "--pipeline-hold"]);
        if let Some(v) = variant {
            cmd.args(["--variant", v]);
        }
        cmd.output().unwrap().status.code()
    };
    assert_eq!(replay(Some(&format!("fe_mut#{PIPE_MUTANT}"))), Some(1));
    assert_eq!(replay(None), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}
