//! The model's shortcuts (`Gpu::set_skip_idle`: an idle SH stage returns at once, and with the
//! pipeline off a quiet SH stage is not ticked at all; `Gpu::set_shader_run_ahead`: a VS unit
//! runs its vertex ahead) change no result: over the vector corpus, the case library, the
//! scene library and 10,000 register-fuzz cases, the runs with the shortcuts on (the default)
//! and off give the same beats on every channel, outcome (cycle counts included), registers,
//! debug map and snapshot.

use pica_model::{Gpu, Outcome};
use pica_testbench::fuzz::regs::{case_seed, generate};
use pica_vectors::bundle::Bundle;
use pica_vectors::case::Case;
use std::path::Path;

#[derive(Debug, PartialEq)]
struct Seen {
    outcome: Outcome,
    beats: Vec<pica_model::beat::Beat>,
    regs: Vec<u32>,
    dump: Vec<(u16, u32)>,
    snapshot: serde_json::Value,
}

fn observe(case: &Case, shortcuts: bool) -> Seen {
    let mut gpu: Gpu = case.gpu().expect("case builds");
    gpu.set_skip_idle(shortcuts);
    gpu.set_shader_run_ahead(shortcuts);
    let outcome = gpu.run(case.max_cycles);
    Seen {
        outcome,
        beats: gpu.beats().collect(),
        regs: (0..0x300).map(|id| gpu.regs().reg(id)).collect(),
        dump: gpu.regs().debug_dump(),
        snapshot: gpu.snapshot(),
    }
}

fn check(case: &Case) {
    assert_eq!(
        observe(case, true),
        observe(case, false),
        "{}: the shortcuts change the run",
        case.name
    );
}

#[test]
fn corpus_is_the_same_with_and_without_the_shortcuts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/corpus");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus directory") {
        let path = entry.expect("entry").path();
        let bundle = Bundle::load(&path).expect("corpus bundle loads");
        check(&bundle.case().expect("corpus case"));
        n += 1;
    }
    assert!(n >= 19, "only {n} corpus bundles");
}

#[test]
fn fuzz_cases_are_the_same_with_and_without_the_shortcuts() {
    let mut n = 0;
    for i in 0..10_000 {
        let seed = case_seed(0x5C1D, i);
        let Some(list) = generate(seed) else { continue };
        check(&list.to_case(&format!("fuzz/{seed:016x}"), Some(seed)));
        n += 1;
    }
    assert_eq!(n, 10_000);
}

/// The library's cases run the front end alone (the pipeline off): the SH stage is quiet from
/// the first cycle, and `regs/com_mode` switches the GS on in the middle of the list, the
/// cycle the SH stage makes its GS state (which the snapshot shows) even when quiet.
#[test]
fn library_cases_are_the_same_with_and_without_the_shortcuts() {
    let cases = pica_vectors::library::cases();
    assert!(cases.iter().any(|c| c.name == "bench/frame_setup"));
    for case in &cases {
        check(case);
    }
    let com_mode = cases
        .iter()
        .find(|c| c.name == "regs/com_mode")
        .expect("library case regs/com_mode");
    assert!(!com_mode.pipeline);
    let seen = observe(com_mode, true);
    assert!(
        !seen.snapshot["shader"]["gs_setup"].is_null(),
        "regs/com_mode switches the GS on: {}",
        seen.snapshot["shader"]
    );
}

/// The scenes draw through the whole pipeline: vertices reach the SH stage.
#[test]
fn scenes_are_the_same_with_and_without_the_shortcuts() {
    for scene in pica_vectors::scenes::scenes() {
        if !scene.name().starts_with("bench/") {
            check(&scene.case);
        }
    }
}
