//! `pica fuzz --target rast`, RAST stage bundles from the fuzzer and `pica vectors gen --stage
//! rast`: the model's self-check and the default RTL build (several early-depth latencies) pass
//! a campaign, each injected CLIP + RAST bug is caught within 2,000 cases of seed 0 and shrunk
//! to one triangle, its bundle replays clean under Icarus and Verilator on the default RTL and
//! fails with the bug's define, the recorder in the CLIP slot is the model's stage, and
//! recorded scene bundles pass `pica vectors check --rtl`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::{campaign_done, pica, replay, replays_clean_fails_with, root, stage, text, tmp};
use pica_model::beat::FragmentBeat;
use pica_model::rast::fragment_beat;
use pica_rtl_bridge::axi::Reorder;
use pica_rtl_bridge::rast_stage::{MemLatency, RastVariant};
use pica_testbench::fuzz::rast as rast_fuzz;
use pica_testbench::fuzz::regs::case_seed;
use pica_testbench::lockstep::stage_record::record_rast;
use pica_vectors::case::PipelineCapture;
use pica_vectors::stage::{bundle_kind, StageProvenance};
use pica_vectors::stage_rast::{early_same, load_rast_bundle, run_model, KIND_RAST};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[test]
fn rast_fuzz_default_campaign_passes() {
    stage::default_campaign_passes(RastVariant::Default, 1000, 1500, &stage::LATENCIES);
    let a = rast_fuzz::generate(case_seed(0, 7));
    assert!(a.triangles() > 0, "{}", a.describe());
}

/// The build with 7 interpolation lanes instead of 13 (`lanes7`, the whole-GPU budget's RAST)
/// passes the campaign too: the lane count changes the clocks per fragment, not one fragment.
#[test]
fn rast_fuzz_lanes7_campaign_passes() {
    for latency in [MemLatency::Zero, MemLatency::Random { max: 4, seed: 3 }] {
        let mut o = stage::opts(Some(RastVariant::Lanes7), 300, None);
        o.latency = latency;
        let r = pica_testbench::fuzz::campaign::run_stage(&o, |_, _, _| {});
        assert_eq!(r.cases_run, 300);
        assert_eq!(r.against, "rast:rtl:lanes7");
        assert!(r.failures.is_empty(), "latency {latency}: {:?}", r.failures);
    }
}

#[test]
fn rast_fuzz_shards_partition_the_campaign() {
    stage::shards_partition_the_campaign::<RastVariant>();
}

/// The campaign against `variant` must fail within 2,000 cases of seed 0, shrink to one
/// triangle and write a stage bundle that holds the model's answer, replays clean on the
/// default RTL under both simulators and fails under both with the bug's define.
fn caught_and_shrunk(variant: RastVariant) {
    let dir = tmp(&format!("rastfuzz-{}", variant.name()));
    let t = Instant::now();
    let (r, f) = stage::caught_by(variant, RastVariant::Default, 2000, &dir, "triangles");
    assert_eq!(r.against, format!("rast:rtl:{}", variant.name()));
    assert_eq!(f.commands, 1, "shrunk only to {} triangles", f.commands);
    let (_, case, expected) = load_rast_bundle(Path::new(&f.bundle)).unwrap();
    assert_eq!(case.triangles(), 1);
    // The bundle holds the model's answer.
    let run = run_model(&case);
    assert_eq!(
        rast_fuzz::fragment_diff(&run.fragments, &expected.fragments),
        None
    );
    assert_eq!(run.fragments, expected.fragments);
    assert!(early_same(&run.early, &expected.early));
    // The bundle's case still fails on the variant (through the bridge) and passes on the
    // default build.
    assert!(rast_fuzz::check(
        &case,
        Some(variant),
        MemLatency::Zero,
        Reorder::InOrder,
        None
    )
    .is_err());
    rast_fuzz::check(
        &case,
        Some(RastVariant::Default),
        MemLatency::Zero,
        Reorder::InOrder,
        None,
    )
    .unwrap();
    let define = variant.define().unwrap();
    replays_clean_fails_with(&PathBuf::from(&f.bundle), define, &["FAIL"]);
    campaign_done(variant.name(), t, &dir);
}

stage::tests_of!(caught_and_shrunk:
    rast_fuzz_catches_inject_fill_rule => RastVariant::InjectFillRule,
    rast_fuzz_catches_inject_persp => RastVariant::InjectPersp,
    rast_fuzz_catches_inject_clip_plane_order => RastVariant::InjectClipPlaneOrder,
    rast_fuzz_catches_inject_rast_slot_early => RastVariant::InjectSlotEarly,
    rast_fuzz_catches_inject_rast_credit => RastVariant::InjectCredit,
);

/// A fragment beat without its cycle.
fn uncycled(b: &FragmentBeat) -> FragmentBeat {
    FragmentBeat { cycle: 0, ..*b }
}

#[test]
fn rast_recorder_is_the_model_stage() {
    // With the recorder in the CLIP slot the run is the model's, cycle for cycle and byte for
    // byte, and the recorded case replays to the same fragments and early-depth buffer.
    for name in ["raster/fill_rule", "clip/w_guard"] {
        let scene = pica_vectors::scenes::scene(name).unwrap();
        let (model, gpu) = scene.case.run_model_keep().unwrap();
        let rec = record_rast(&scene.case).unwrap();
        assert_eq!(rec.outcome, model.outcome, "{name}");
        let (a, b) = (gpu.pipeline_beats(), rec.gpu.pipeline_beats());
        assert!(!a.fragment.is_empty(), "{name}: no fragment");
        assert_eq!(a.fragment, b.fragment, "{name}");
        assert_eq!(a.pixel, b.pixel, "{name}");
        assert!(
            early_same(gpu.rast().early_depth(), rec.gpu.rast().early_depth()),
            "{name}"
        );
        let images = &scene.case.images;
        assert_eq!(
            PipelineCapture::of(&gpu, images).final_memory,
            PipelineCapture::of(&rec.gpu, images).final_memory,
            "{name}"
        );
        assert!(
            rec.case.triangles() > 0 && rec.case.reg_writes() > 0,
            "{name}"
        );
        let run = run_model(&rec.case);
        let replayed: Vec<FragmentBeat> =
            run.fragments.iter().map(|f| fragment_beat(0, f)).collect();
        let recorded: Vec<FragmentBeat> = a.fragment.iter().map(uncycled).collect();
        assert_eq!(replayed, recorded, "{name}");
        assert!(early_same(&run.early, gpu.rast().early_depth()), "{name}");
    }
}

#[test]
fn cli_vectors_gen_stage_rast_and_check() {
    let dir = tmp("rastgen");
    let d = dir.to_str().unwrap();
    let o = pica(&[
        "vectors",
        "gen",
        d,
        "--stage",
        "rast",
        "--case",
        "raster/fill_rule",
        "--case",
        "clip/near",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("2 rast stage bundle(s) written"),
        "{}",
        text(&o)
    );
    let bundles = [
        dir.join("rast-raster__fill_rule"),
        dir.join("rast-clip__near"),
    ];
    for b in &bundles {
        assert_eq!(bundle_kind(b).unwrap().as_deref(), Some(KIND_RAST));
    }
    let o = pica(&["vectors", "check", d, "--rtl"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("stage bundle stage:rast") && text(&o).contains("model and RTL"),
        "{}",
        text(&o)
    );
    let (ok, out) = replay(&bundles[1], "icarus", &[]);
    assert!(ok && out.contains("PASS"), "{out}");
    // A changed file is caught by its SHA-256, naming it.
    let p = bundles[0].join("fragment.hex");
    let t = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, t.replacen('0', "1", 1)).unwrap();
    let o = pica(&["vectors", "check", d]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("fragment.hex"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_fuzz_rast() {
    let dir = tmp("rastcli");
    stage::cli_model_half_campaign("rast", 40, &dir);
    // --rtl-stages rast is --target rast --rtl: an injected bug, exit 1, bundle written.
    let regs = dir.join("regs");
    let o = pica(&[
        "fuzz",
        "--rtl-stages",
        "rast",
        "--variant",
        "persp",
        "--mem-latency",
        "rand:4:9",
        "--cases",
        "2000",
        "--regressions",
        regs.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("against rast:rtl:inject_rast_persp")
            && text(&o).contains("latency rand:4:9")
            && text(&o).contains("triangle(s); bundle"),
        "{}",
        text(&o)
    );
    let written: Vec<PathBuf> = std::fs::read_dir(&regs)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    assert_eq!(
        bundle_kind(&written[0]).unwrap().as_deref(),
        Some(KIND_RAST)
    );
    // A bad latency is bad input.
    let o = pica(&["fuzz", "--target", "rast", "--rtl", "--mem-latency", "soon"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Checks every RAST stage bundle directly under `dir`: the model's self-check passes on it, it
/// still holds the model's answer and the default RTL stage reproduces it. The number checked.
fn replay_rast_bundles(dir: &Path) -> usize {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for d in rd.filter_map(|e| e.ok().map(|e| e.path())) {
        if bundle_kind(&d).ok().flatten().as_deref() != Some(KIND_RAST) {
            continue;
        }
        let (_, case, expected) = load_rast_bundle(&d).unwrap();
        // A finding of the model's own self-check stays fixed too.
        rast_fuzz::check_model(&case).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        let run = run_model(&case);
        assert_eq!(
            rast_fuzz::fragment_diff(&expected.fragments, &run.fragments),
            None,
            "{}",
            d.display()
        );
        assert!(early_same(&expected.early, &run.early), "{}", d.display());
        let got = rast_fuzz::run_rtl(RastVariant::Default, MemLatency::Zero, &case).unwrap();
        assert_eq!(rast_fuzz::compare_rtl(&run, &got), None, "{}", d.display());
        n += 1;
    }
    n
}

#[test]
fn rast_regressions_replay_forever() {
    // Every RAST stage bundle saved under vectors/regressions/ still holds the model's answer
    // and the default RTL stage reproduces it.
    let n = replay_rast_bundles(&root().join("vectors/regressions"));
    eprintln!("{n} RAST regression bundle(s) replayed");
    // The same check on bundles saved just now (so that it runs even with no RAST bundle in
    // vectors/regressions/): fuzz cases with an early-depth buffer that already holds values.
    let dir = tmp("rastregs");
    let mut saved = 0;
    for i in 0..40 {
        let case = rast_fuzz::generate(case_seed(3, i));
        if case.early.entries().is_empty() || saved == 4 {
            continue;
        }
        let name = format!("fuzz-rast-test-{i}");
        let prov = StageProvenance::default();
        rast_fuzz::save_bundle(&case, &dir, &name, "test", &prov).unwrap();
        saved += 1;
    }
    assert!(
        saved > 0,
        "no fuzz case with a pre-filled early-depth buffer"
    );
    assert_eq!(replay_rast_bundles(&dir), saved);
    let _ = std::fs::remove_dir_all(&dir);
}
