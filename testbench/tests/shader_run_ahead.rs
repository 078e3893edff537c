//! The SH stage's run-ahead (`ShaderCore::set_run_ahead`, on by default) changes nothing a
//! user can see: over every library case, every scene and random vertex shaders drawn through
//! the whole GPU, the runs with it on and off give the same beats on every channel, the same
//! outcome (cycle counts and shader hangs included), the same final state and the same
//! `Gpu::snapshot` (units' PCs and instruction counts) — also when the run is cut off by a
//! cycle limit in the middle of a vertex.

use pica_model::{Gpu, Outcome};
use pica_testbench::fuzz::sh_stage::{pipeline_case, Draw};
use pica_vectors::case::Case;
use pica_vectors::shader_gen::generate;
use pica_vectors::{library, scenes};

/// Everything a user can observe of a run.
#[derive(Debug, PartialEq)]
struct Seen {
    outcome: Outcome,
    beats: Vec<pica_model::beat::Beat>,
    snapshot: serde_json::Value,
    regs: Vec<u32>,
    executed: [u64; 4],
}

fn observe(case: &Case, run_ahead: bool, max_cycles: u64) -> Seen {
    let mut gpu: Gpu = case.gpu().expect("case builds");
    gpu.set_shader_run_ahead(run_ahead);
    let outcome = gpu.run(max_cycles);
    Seen {
        outcome,
        beats: gpu.beats().collect(),
        snapshot: gpu.snapshot(),
        regs: (0..0x300).map(|id| gpu.regs().reg(id)).collect(),
        executed: gpu.shader().executed(),
    }
}

/// Runs `case` to its end and cut off at a few cycles inside it, with run-ahead on and off.
fn check(case: &Case, cuts: &[u64]) {
    let full = observe(case, false, case.max_cycles);
    assert_eq!(
        full,
        observe(case, true, case.max_cycles),
        "{}: run-ahead changes the run",
        case.name
    );
    let end = match full.outcome {
        Outcome::Finished { cycles } => cycles,
        _ => case.max_cycles.min(20_000),
    };
    for &c in cuts {
        let limit = end * c / 16;
        assert_eq!(
            observe(case, false, limit),
            observe(case, true, limit),
            "{}: run-ahead changes the run cut off at cycle {limit}",
            case.name
        );
    }
}

#[test]
fn library_cases_are_the_same_with_and_without_run_ahead() {
    for case in library::cases() {
        check(&case, &[5, 11]);
    }
}

#[test]
fn scenes_are_the_same_with_and_without_run_ahead() {
    for scene in scenes::scenes() {
        if scene.name().starts_with("bench/") {
            // The bench scenes are large; they use the same stage paths as the others.
            continue;
        }
        check(&scene.case, &[7]);
    }
}

/// Random vertex shaders (the SH stage fuzzer's cases: loops, calls, conditionals, relative
/// addressing, hangs, programs that never end), cut off every few cycles of the draw.
#[test]
fn random_vertex_shaders_are_the_same_with_and_without_run_ahead() {
    let mut shaded = 0;
    for seed in 0..200u64 {
        let case = match pipeline_case(&generate(seed), &Draw::of(seed), &format!("ra/{seed}")) {
            Ok(c) => c,
            Err(e) => panic!("seed {seed}: {e}"),
        };
        check(&case, &[1, 2, 3, 5, 8, 13]);
        shaded += 1;
    }
    assert_eq!(shaded, 200);
}
