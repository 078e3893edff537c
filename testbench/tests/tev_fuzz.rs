//! `pica fuzz --target tev`, TEV stage bundles and `pica vectors gen --stage tev`: the model's
//! self-check and the default RTL build pass a campaign, each injected TEV bug is caught
//! within 2,000 cases of seed 0 and shrunk to at most 3 fragments, its bundle replays clean
//! under Icarus and Verilator on the default RTL and fails with the bug's define, the recorder
//! in the TEV slot is the model's stage, and recorded scene bundles pass `pica vectors check`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::{campaign_done, pica, replay, replays_clean_fails_with, root, stage, text, tmp};
use pica_rtl_bridge::kit::side::MemLatency;
use pica_rtl_bridge::tev_stage::TevVariant;
use pica_testbench::fuzz::regs::case_seed;
use pica_testbench::fuzz::tev::{self as tev_fuzz, save_bundle, tev_variant_define};
use pica_testbench::lockstep::stage_record::record_tev;
use pica_vectors::case::PipelineCapture;
use pica_vectors::stage::{bundle_kind, StageProvenance};
use pica_vectors::stage_tev::{check_model, load_tev_bundle, run_model, KIND_TEV};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[test]
fn tev_fuzz_default_campaign_passes() {
    stage::default_campaign_passes(TevVariant::Default, 300, 1000, &[MemLatency::Zero]);
}

#[test]
fn tev_fuzz_shards_partition_the_campaign() {
    stage::shards_partition_the_campaign::<TevVariant>();
}

/// The campaign against `variant` must fail within 2,000 cases of seed 0, shrink to at most 3
/// fragments and write a stage bundle that holds the model's answer, replays clean on the
/// default RTL under both simulators and fails under both with the bug's define.
fn caught_and_shrunk(variant: TevVariant) {
    let dir = tmp(&format!("tevfuzz-{}", variant.name()));
    let t = Instant::now();
    let (_, f) = stage::caught_by(variant, TevVariant::Default, 2000, &dir, "fragments");
    assert!(f.commands <= 3, "shrunk only to {} fragments", f.commands);
    let b = load_tev_bundle(Path::new(&f.bundle)).unwrap();
    assert_eq!(b.case.fragments(), f.commands);
    assert_eq!(check_model(&b), None);
    assert_eq!(b.beats, run_model(&b.case).beats);
    let define = tev_variant_define(variant).unwrap();
    let pats = ["FAIL: fragment", "field"];
    replays_clean_fails_with(&PathBuf::from(&f.bundle), define, &pats);
    campaign_done(variant.name(), t, &dir);
}

stage::tests_of!(caught_and_shrunk:
    tev_fuzz_catches_inject_scale_sat => TevVariant::InjectScaleSat,
    tev_fuzz_catches_inject_buffer => TevVariant::InjectBuffer,
);

#[test]
fn tev_stage_bundles_replay_and_catch_a_changed_beat() {
    // Random cases (register writes between fragments, reserved encodings) replay clean under
    // Icarus; a changed expected beat fails, named by fragment, stage and field.
    let dir = tmp("tevreplay");
    let mut bundles = Vec::new();
    for i in 0..4 {
        let seed = case_seed(3, i);
        let prov = StageProvenance {
            generator: "test".into(),
            case_seed: Some(seed),
            ..StageProvenance::default()
        };
        let case = tev_fuzz::generate(seed);
        let b = save_bundle(&case, &dir, &format!("r{i}"), "replay", &prov).unwrap();
        assert_eq!(bundle_kind(&b).unwrap().as_deref(), Some(KIND_TEV));
        assert_eq!(load_tev_bundle(&b).unwrap().case, case);
        bundles.push(b);
    }
    for b in &bundles {
        let (ok, out) = replay(b, "icarus", &[]);
        assert!(ok && out.contains("PASS"), "{}: {out}", b.display());
    }
    // Beat 8 is fragment 1, stage 2: flip the lowest bit of its buffer (bits 3:0 of the line)
    // and fix up the manifest's hash so only the replay can notice.
    let b = &bundles[0];
    let p = b.join("combiner.hex");
    let mut lines: Vec<String> = std::fs::read_to_string(&p)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let line = &mut lines[8];
    let last = line.len() - 1;
    let d = u8::from_str_radix(&line[last..], 16).unwrap() ^ 1;
    line.replace_range(last.., &format!("{d:x}"));
    let new = lines.join("\n") + "\n";
    std::fs::write(&p, &new).unwrap();
    let (ok, out) = replay(b, "icarus", &[]);
    assert!(
        !ok && out.contains("FAIL: fragment 1 (") && out.contains("stage 2: field buffer"),
        "{out}"
    );
    // The hash check of `pica vectors check` names the file.
    let o = pica(&["vectors", "check", b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("combiner.hex"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tev_recorder_is_the_model_stage() {
    // With the recorder in the TEV slot the run is the model's, cycle for cycle and byte for
    // byte, and the recorded case replays to the same combiner results.
    for name in ["tev/buffer", "tex/three_units"] {
        let scene = pica_vectors::scenes::scene(name).unwrap();
        let (model, gpu) = scene.case.run_model_keep().unwrap();
        let rec = record_tev(&scene.case).unwrap();
        assert_eq!(rec.outcome, model.outcome, "{name}");
        let (a, b) = (gpu.pipeline_beats(), rec.gpu.pipeline_beats());
        assert_eq!(a.combiner, b.combiner, "{name}");
        assert_eq!(a.pixel, b.pixel, "{name}");
        let images = &scene.case.images;
        assert_eq!(
            PipelineCapture::of(&gpu, images).final_memory,
            PipelineCapture::of(&rec.gpu, images).final_memory,
            "{name}"
        );
        assert!(rec.rec.case.fragments() > 0);
        let run = run_model(&rec.rec.case);
        assert_eq!(run.outs, rec.rec.outs, "{name}");
        assert_eq!(run.beats.len(), a.combiner.len());
        for (r, m) in run.beats.iter().zip(a.combiner.iter()) {
            assert_eq!(
                (r.x, r.y, r.stage, r.color, r.buffer),
                (m.x, m.y, m.stage, m.color, m.buffer)
            );
        }
    }
}

#[test]
fn cli_vectors_gen_stage_tev_and_check() {
    let dir = tmp("tevgen");
    let d = dir.to_str().unwrap();
    let o = pica(&[
        "vectors",
        "gen",
        d,
        "--stage",
        "tev",
        "--case",
        "tev/buffer",
        "--case",
        "tev/six_stages",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let bundles = [dir.join("tev-tev__buffer"), dir.join("tev-tev__six_stages")];
    for b in &bundles {
        assert_eq!(bundle_kind(b).unwrap().as_deref(), Some(KIND_TEV));
    }
    let o = pica(&["vectors", "check", d, "--rtl"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("stage bundle stage:tev") && text(&o).contains("model and RTL"),
        "{}",
        text(&o)
    );
    let (ok, out) = replay(&bundles[1], "icarus", &[]);
    assert!(ok, "{out}");
    // An unknown scene and an unknown stage are bad input.
    let o = pica(&["vectors", "gen", d, "--stage", "tev", "--case", "no/such"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = pica(&["vectors", "gen", d, "--stage", "clip"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_fuzz_tev() {
    let dir = tmp("tevcli");
    stage::cli_model_half_campaign("tev", 60, &dir);
    // --rtl-stages tev is --target tev --rtl: an injected bug, exit 1, bundle written.
    let regs = dir.join("regs");
    let o = pica(&[
        "fuzz",
        "--rtl-stages",
        "tev",
        "--variant",
        "buffer",
        "--cases",
        "2000",
        "--regressions",
        regs.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("against tev:rtl:inject_tev_buffer")
            && text(&o).contains("fragment(s); bundle"),
        "{}",
        text(&o)
    );
    // --replay of the failing case seed reproduces it.
    let seed = text(&o)
        .split("(seed ")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .unwrap()
        .to_string();
    let o = pica(&[
        "fuzz",
        "--target",
        "tev",
        "--rtl",
        "--variant",
        "buffer",
        "--replay",
        &seed,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("FAILS"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tev_regressions_replay_forever() {
    // Every TEV stage bundle saved under vectors/regressions/ still holds the model's answer
    // and the default RTL stage reproduces it.
    let Ok(rd) = std::fs::read_dir(root().join("vectors/regressions")) else {
        return;
    };
    for d in rd.filter_map(|e| e.ok().map(|e| e.path())) {
        if bundle_kind(&d).ok().flatten().as_deref() != Some(KIND_TEV) {
            continue;
        }
        let b = load_tev_bundle(&d).unwrap();
        assert_eq!(check_model(&b), None, "{}", d.display());
        let got = tev_fuzz::run_rtl(TevVariant::Default, &b.case, None).unwrap();
        assert_eq!(
            tev_fuzz::compare_rtl(&b.case, &run_model(&b.case), &got),
            None,
            "{}",
            d.display()
        );
    }
}

/// `pica fuzz --report` of each shard `i/3`, merged with `pica fuzz merge`, is the unsharded
/// campaign's report, failures included; reports of other campaigns or a missing shard are
/// bad input.
#[test]
fn cli_fuzz_merge_of_shards_is_the_unsharded_report() {
    let dir = tmp("fuzz-merge");
    std::fs::create_dir_all(&dir).unwrap();
    let regs = dir.join("regs");
    let run = |extra: &[&str], out: &str| {
        let mut args = vec![
            "fuzz",
            "--target",
            "tev",
            "--rtl",
            "--variant",
            "scale_sat",
            "--cases",
            "12",
            "--seed",
            "4",
            "--max-failures",
            "100",
            "--regressions",
            regs.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let report = dir.join(out);
        args.extend_from_slice(&["--report", report.to_str().unwrap()]);
        let o = pica(&args);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        report
    };
    let whole = run(&[], "whole.json");
    let shards: Vec<PathBuf> = (0..3)
        .map(|i| run(&["--shard", &format!("{i}/3")], &format!("s{i}.json")))
        .collect();
    let merged = dir.join("merged.json");
    let mut args = vec!["fuzz", "merge"];
    args.extend(shards.iter().map(|p| p.to_str().unwrap()));
    args.extend_from_slice(&["--report", merged.to_str().unwrap()]);
    let o = pica(&args);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let read = |p: &PathBuf| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (w, m) = (read(&whole), read(&merged));
    assert!(w["failures"].as_array().is_some_and(|f| f.len() > 1), "{w}");
    assert_eq!(w, m);
    // A missing shard, a shard twice, or a report of another campaign: exit 2.
    let s: Vec<&str> = shards.iter().map(|p| p.to_str().unwrap()).collect();
    for bad in [
        vec!["fuzz", "merge", s[0], s[1]],
        vec!["fuzz", "merge", s[0], s[0], s[1], s[2]],
        vec!["fuzz", "merge", s[0], s[1], s[2], whole.to_str().unwrap()],
    ] {
        let o = pica(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", text(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
