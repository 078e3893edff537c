//! `pica fuzz --target fop`, FOP stage bundles from the fuzzer and `pica vectors gen --stage
//! fop`: the model's self-check and the default RTL build (several memory latencies) pass a
//! campaign, each injected FOP bug is caught within 2,000 cases of seed 0 and shrunk to at
//! most 3 fragments, its bundle replays clean under Icarus and Verilator on the default RTL and
//! fails with the bug's define, the recorder in the FOP slot is the model's stage, and recorded
//! scene bundles pass `pica vectors check --rtl`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::{campaign_done, pica, replay, replays_clean_fails_with, root, stage, text, tmp};
use pica_rtl_bridge::fop_stage::{FopVariant, MemLatency};
use pica_testbench::fuzz::fop as fop_fuzz;
use pica_testbench::lockstep::stage_record::record_fop;
use pica_vectors::case::PipelineCapture;
use pica_vectors::stage::bundle_kind;
use pica_vectors::stage_fop::{image_words, load_fop_bundle, run_model, KIND_FOP};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[test]
fn fop_fuzz_default_campaign_passes() {
    stage::default_campaign_passes(FopVariant::Default, 200, 300, &stage::LATENCIES);
}

#[test]
fn fop_fuzz_shards_partition_the_campaign() {
    stage::shards_partition_the_campaign::<FopVariant>();
}

/// The campaign against `variant` must fail within 2,000 cases of seed 0, shrink to at most 3
/// fragments and write a stage bundle that holds the model's answer, replays clean on the
/// default RTL under both simulators and fails under both with the bug's define.
fn caught_and_shrunk(variant: FopVariant) {
    caught_and_shrunk_showing(variant, &["FAIL", "field"]);
}

/// [`caught_and_shrunk`] with the words the failing replay must print (a bug that shows only
/// in memory fails the replay on the final image, not on a field).
fn caught_and_shrunk_showing(variant: FopVariant, marks: &[&str]) {
    let dir = tmp(&format!("fopfuzz-{}", variant.name()));
    let t = Instant::now();
    let (_, f) = stage::caught_by(variant, FopVariant::Default, 2000, &dir, "fragments");
    assert!(f.commands <= 3, "shrunk only to {} fragments", f.commands);
    let (_, case, expected) = load_fop_bundle(Path::new(&f.bundle)).unwrap();
    assert_eq!(case.fragments(), f.commands);
    let run = run_model(&case);
    assert_eq!((&run.beats, &run.hang), (&expected.beats, &expected.hang));
    assert_eq!(
        run.final_images(&case.images),
        image_words(&expected.mem, &case.images)
    );
    let define = variant.define().unwrap();
    replays_clean_fails_with(&PathBuf::from(&f.bundle), define, marks);
    campaign_done(variant.name(), t, &dir);
}

/// The missed same-word rule of the AXI4 master (a bug only a design with a read beside a
/// write in flight has): a campaign whose memory reorders (`--mem-reorder ids`, writes landing
/// when their response is taken) catches it and shrinks it; its bundle records the memory it
/// ran with and replays clean on the default RTL and fails with the define under both
/// simulators (`scripts/replay` lands writes late for it).
#[test]
fn fop_fuzz_catches_inject_axi_no_hazard_when_the_memory_reorders() {
    use pica_rtl_bridge::fop_stage::Reorder;
    let variant = FopVariant::InjectAxiNoHazard;
    let dir = tmp("fopfuzz-axi-no-hazard");
    let t = Instant::now();
    let opts = pica_testbench::fuzz::campaign::TargetOptions {
        seed: 1,
        latency: MemLatency::Random { max: 6, seed: 0 },
        reorder: Reorder::AcrossIds,
        regressions: Some(dir.clone()),
        ..pica_testbench::fuzz::campaign::TargetOptions::new(Some(variant), 2000)
    };
    let r = pica_testbench::fuzz::campaign::run_stage(&opts, |_, _, _| {});
    let f = common::caught(&r, variant.name(), 2000, t, "fragments").clone();
    assert!(f.commands <= 3, "shrunk only to {} fragments", f.commands);
    let (m, case, expected) = load_fop_bundle(Path::new(&f.bundle)).unwrap();
    assert_eq!(
        (m["mem_latency"].as_str(), m["mem_reorder"].as_str()),
        (Some("rand:6:0"), Some("ids"))
    );
    assert_eq!(run_model(&case).beats, expected.beats);
    replays_clean_fails_with(&PathBuf::from(&f.bundle), "INJECT_AXI_NO_HAZARD", &["FAIL"]);
    campaign_done(variant.name(), t, &dir);
}

stage::tests_of!(caught_and_shrunk:
    fop_fuzz_catches_inject_blend_factor => FopVariant::InjectBlendFactor,
    fop_fuzz_catches_inject_stencil_zfail => FopVariant::InjectStencilZfail,
    fop_fuzz_catches_inject_tile32 => FopVariant::InjectTile32,
    fop_fuzz_catches_inject_pipe_hazard => FopVariant::InjectPipeHazard,
    // A protocol breach, not a wrong field: the bridge flags the move at its clock (the
    // fields must hold with hang_o), the replay sees the moved field at the end.
    fop_fuzz_catches_inject_hang_moves => FopVariant::InjectHangMoves,
);

/// The fast path's lost write-back (a bug only a design with a write-back cache has) shows in
/// the final memory image, not in a pixel beat.
#[test]
fn fop_fuzz_catches_inject_pipe_evict() {
    caught_and_shrunk_showing(FopVariant::InjectPipeEvict, &["FAIL", "final memory image"]);
}

#[test]
fn fop_recorder_is_the_model_stage() {
    // With the recorder in the FOP slot the run is the model's, cycle for cycle and byte for
    // byte, and the recorded case replays to the same pixel beats and memory.
    for name in ["stencil/depth_fail", "tile/block32_64"] {
        let scene = pica_vectors::scenes::scene(name).unwrap();
        let (model, gpu) = scene.case.run_model_keep().unwrap();
        let rec = record_fop(&scene.case).unwrap();
        assert_eq!(rec.outcome, model.outcome, "{name}");
        let (a, b) = (gpu.pipeline_beats(), rec.gpu.pipeline_beats());
        assert_eq!(a.pixel, b.pixel, "{name}");
        assert_eq!(a.combiner, b.combiner, "{name}");
        let images = &scene.case.images;
        assert_eq!(
            PipelineCapture::of(&gpu, images).final_memory,
            PipelineCapture::of(&rec.gpu, images).final_memory,
            "{name}"
        );
        assert!(rec.case.fragments() > 0 && !rec.case.images.is_empty());
        let run = run_model(&rec.case);
        assert_eq!(run.beats.len(), a.pixel.len());
        for (r, m) in run.beats.iter().zip(a.pixel.iter()) {
            assert_eq!(
                pica_model::beat::PixelBeat { cycle: 0, ..*r },
                pica_model::beat::PixelBeat { cycle: 0, ..*m }
            );
        }
        assert_eq!(
            run.final_images(&rec.case.images),
            image_words(gpu.mem(), &rec.case.images)
        );
    }
}

#[test]
fn cli_vectors_gen_stage_fop_and_check() {
    let dir = tmp("fopgen");
    let d = dir.to_str().unwrap();
    let o = pica(&[
        "vectors",
        "gen",
        d,
        "--stage",
        "fop",
        "--case",
        "stencil/depth_fail",
        "--case",
        "blend/alpha",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let bundles = [
        dir.join("fop-stencil__depth_fail"),
        dir.join("fop-blend__alpha"),
    ];
    for b in &bundles {
        assert_eq!(bundle_kind(b).unwrap().as_deref(), Some(KIND_FOP));
    }
    let o = pica(&["vectors", "check", d, "--rtl"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("stage bundle stage:fop") && text(&o).contains("model and RTL"),
        "{}",
        text(&o)
    );
    let (ok, out) = replay(&bundles[1], "icarus", &[]);
    assert!(ok, "{out}");
    // A changed file is caught by its SHA-256, naming it.
    let p = bundles[0].join("pixel.hex");
    let t = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, t.replacen('0', "1", 1)).unwrap();
    let o = pica(&["vectors", "check", d]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("pixel.hex"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_fuzz_fop() {
    let dir = tmp("fopcli");
    stage::cli_model_half_campaign("fop", 40, &dir);
    // --rtl-stages fop is --target fop --rtl: an injected bug, exit 1, bundle written.
    let regs = dir.join("regs");
    let o = pica(&[
        "fuzz",
        "--rtl-stages",
        "fop",
        "--variant",
        "tile32",
        "--mem-latency",
        "rand:4:9",
        "--cases",
        "2000",
        "--regressions",
        regs.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("against fop:rtl:inject_fop_tile32")
            && text(&o).contains("latency rand:4:9")
            && text(&o).contains("fragment(s); bundle"),
        "{}",
        text(&o)
    );
    // A bad latency is bad input.
    let o = pica(&["fuzz", "--target", "fop", "--rtl", "--mem-latency", "soon"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fop_regressions_replay_forever() {
    // Every FOP stage bundle saved under vectors/regressions/ still holds the model's answer
    // and the default RTL stage reproduces it.
    let Ok(rd) = std::fs::read_dir(root().join("vectors/regressions")) else {
        return;
    };
    for d in rd.filter_map(|e| e.ok().map(|e| e.path())) {
        if bundle_kind(&d).ok().flatten().as_deref() != Some(KIND_FOP) {
            continue;
        }
        let (_, case, expected) = load_fop_bundle(&d).unwrap();
        // A finding of the model's own self-check stays fixed too (the first one: a colour
        // hang after the fragment's depth-stencil write, which the check once took for a
        // hang that changed memory).
        fop_fuzz::check_model(&case).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        let run = run_model(&case);
        assert_eq!(
            (&run.beats, &run.hang),
            (&expected.beats, &expected.hang),
            "{}",
            d.display()
        );
        let got = fop_fuzz::run_rtl(FopVariant::Default, MemLatency::Zero, &case, None).unwrap();
        assert_eq!(fop_fuzz::compare_rtl(&run, &got), None, "{}", d.display());
    }
}
