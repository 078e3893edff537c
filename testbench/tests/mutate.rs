//! `pica mutate` on the front end: the mutation score of the verification loop (corpus + the
//! register fuzzer in lockstep against Yosys mutants of `pica_top`, one Verilator model).

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_testbench::mutate::{self, MutateOptions, Stage};
use std::path::PathBuf;

/// Mutants and fuzz cases of the CI sample: the first mutants of the list (Yosys' even random
/// sample) with the whole corpus and a few fuzz cases each. `pica mutate --stage fe` runs all
/// 256 with more cases (README, "Mutation score: `pica mutate`").
const MUTANTS: usize = 40;
const CASES: u64 = 48;
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

#[test]
fn mutate_refuses_a_stage_without_a_mutant_model() {
    let opts = MutateOptions {
        stage: Stage::Tev,
        only: Vec::new(),
        mutants: Some(1),
        cases: 1,
        pipe_cases: 0,
        seed: 1,
        corpus: None,
        regressions: std::env::temp_dir(),
        shrink: false,
        notes: Default::default(),
    };
    let e = mutate::run(&opts, |_, _, _| {}).unwrap_err();
    assert!(e.contains("tev"), "{e}");
}
