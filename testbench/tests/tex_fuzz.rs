//! `pica fuzz --target tex`: the model's self-check and the default RTL build (several memory
//! latencies) pass a campaign; each injected TEX bug is caught within 2,000 cases of seed 0
//! and shrunk, and its bundle holds the model's answer and replays clean under Icarus on the
//! default RTL and fails with the bug's define; the knobs_alt build follows every tex-* knob.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::{campaign_done, replays_clean_fails_with, stage, tmp};
use pica_rtl_bridge::tex_stage::{MemLatency, Reorder, TexVariant};
use pica_testbench::fuzz::tex as tex_fuzz;
use pica_vectors::stage_tex::{load_tex_bundle, run_model};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[test]
fn tex_fuzz_default_campaign_passes() {
    stage::default_campaign_passes(TexVariant::Default, 300, 300, &stage::LATENCIES);
}

/// The FPGA build (the job FIFO in block RAM, a clock more between issue and the cache) is
/// the same stage: a campaign at two memory latencies finds nothing.
#[test]
fn tex_fuzz_jobs_bram_campaign_passes() {
    for latency in [MemLatency::Zero, MemLatency::Random { max: 4, seed: 3 }] {
        let mut o = stage::opts(Some(TexVariant::JobsBram), 300, None);
        o.latency = latency;
        let r = pica_testbench::fuzz::campaign::run_stage(&o, |_, _, _| {});
        assert_eq!(r.cases_run, 300);
        assert_eq!(r.against, "tex:rtl:jobs_bram");
        assert!(r.failures.is_empty(), "latency {latency}: {:?}", r.failures);
    }
}

/// The RTL reads what the model reads: a campaign's cases read thousands of texels, with
/// hangs, border texels and every unit among them (so the passing campaign above means
/// something).
#[test]
fn tex_fuzz_cases_exercise_the_rtl() {
    let (mut texels, mut frags, mut hangs) = (0, 0, 0);
    let t = Instant::now();
    for seed in 0..60 {
        let case = tex_fuzz::generate(pica_testbench::fuzz::regs::case_seed(0, seed));
        let model = run_model(&case);
        let rtl = tex_fuzz::run_rtl(
            TexVariant::Default,
            MemLatency::Random { max: 7, seed },
            Reorder::InOrder,
            &case,
            None,
        )
        .unwrap();
        assert_eq!(tex_fuzz::compare_rtl(&model, &rtl), None, "case {seed}");
        texels += rtl.texels.len();
        frags += rtl.colors.len();
        hangs += usize::from(rtl.hang.is_some());
    }
    eprintln!(
        "60 cases: {frags} fragments, {texels} texel reads, {hangs} hangs in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert!(
        texels > 1_000 && frags > 300 && hangs > 0,
        "{texels} {frags} {hangs}"
    );
}

/// `variant`'s campaign fails within 2,000 cases of seed 0, shrinks to at most 3 fragments,
/// and writes a bundle holding the model's answer that replays clean on the default RTL and
/// fails with the bug's define.
fn caught_and_shrunk(variant: TexVariant) {
    let dir = tmp(&format!("texfuzz-{}", variant.name()));
    let t = Instant::now();
    let (_, f) = stage::caught_by(variant, TexVariant::Default, 2000, &dir, "fragments");
    assert!(f.commands <= 3, "shrunk only to {} fragments", f.commands);
    let (_, case, expected) = load_tex_bundle(Path::new(&f.bundle)).unwrap();
    assert_eq!(case.fragments(), f.commands);
    assert_eq!(run_model(&case), expected);
    let define = variant.define().unwrap();
    replays_clean_fails_with(&PathBuf::from(&f.bundle), define, &["FAIL"]);
    campaign_done(variant.name(), t, &dir);
}

stage::tests_of!(caught_and_shrunk:
    tex_fuzz_catches_inject_cache_beat => TexVariant::InjectCacheBeat,
    tex_fuzz_catches_inject_job_order => TexVariant::InjectJobOrder,
    tex_fuzz_catches_inject_morton => TexVariant::InjectMorton,
    tex_fuzz_catches_inject_lod_round => TexVariant::InjectLodRound,
);

/// The knobs_alt build against the model with every tex-* knob it implements flipped.
#[test]
fn tex_fuzz_knobs_alt_follows_the_knobs() {
    let mut knobs = pica_model::knobs::Knobs::default();
    for k in [
        "tex-alpha-only-colour=white",
        "tex-reserved-format=zero",
        "tex-min-level-size=1",
        "tex-filter-rounding=truncate",
        "tex-unmapped=zero",
        "tex-reserved-type=disabled",
    ] {
        knobs.set(k).unwrap();
    }
    let opts = pica_testbench::fuzz::campaign::TargetOptions {
        knobs,
        ..stage::opts(Some(TexVariant::KnobsAlt), 200, None)
    };
    let r = pica_testbench::fuzz::campaign::run_stage(&opts, |_, _, _| {});
    assert_eq!(r.cases_run, 200);
    assert!(r.failures.is_empty(), "{:?}", r.failures.first());
    // The same cases with the default knobs differ from that build somewhere.
    let opts = stage::opts(Some(TexVariant::KnobsAlt), 200, None);
    let r = pica_testbench::fuzz::campaign::run_stage(&opts, |_, _, _| {});
    assert!(
        !r.failures.is_empty(),
        "knobs_alt agrees with the default knobs"
    );
}

/// Every TEX stage bundle saved under vectors/regressions/ still holds the model's answer and
/// the default RTL stage reproduces it at random memory latency (the first: a pipelining slip
/// of the LOD's bias by one set-up stage, which the scenes, one unit after another with the
/// same bias, never showed; the second: the hang's address overwritten a clock after the
/// hang), and replays clean on the generated replay testbench under Icarus and Verilator.
#[test]
fn tex_regressions_replay_forever() {
    let rd = std::fs::read_dir(common::root().join("vectors/regressions")).unwrap();
    let mut replayed = 0;
    for d in rd.filter_map(|e| e.ok().map(|e| e.path())) {
        if pica_vectors::stage::bundle_kind(&d)
            .ok()
            .flatten()
            .as_deref()
            != Some(pica_vectors::stage_tex::KIND_TEX)
        {
            continue;
        }
        let (_, case, expected) = load_tex_bundle(&d).unwrap();
        tex_fuzz::check_model(&case).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        let model = run_model(&case);
        assert_eq!(model, expected, "{}", d.display());
        let rtl = tex_fuzz::run_rtl(
            TexVariant::Default,
            MemLatency::Random { max: 9, seed: 1 },
            Reorder::InOrder,
            &case,
            None,
        )
        .unwrap();
        assert_eq!(tex_fuzz::compare_rtl(&model, &rtl), None, "{}", d.display());
        // The replay testbench reads the hang's fields at the end of its drain, not in the
        // clock hang_o rises: under both simulators.
        for sim in ["icarus", "verilator"] {
            let (ok, out) = common::replay(&d, sim, &[]);
            assert!(ok && out.contains("PASS"), "{} ({sim}): {out}", d.display());
        }
        replayed += 1;
    }
    assert!(replayed >= 1, "no TEX bundle under vectors/regressions/");
}

/// With the recorder in the TEX slot the run is the model's (outcome, texel reads and colours),
/// and the recorded case replays on the model to the same reads and colours.
#[test]
fn tex_recorder_is_the_model_stage() {
    use pica_testbench::lockstep::stage_record::record_tex;
    use pica_vectors::stage_tex::run_diff;
    for name in ["tex/mipmap", "tex/three_units", "tex/etc1a4"] {
        let scene = pica_vectors::scenes::scene(name).unwrap();
        let (model, gpu) = scene.case.run_model_keep().unwrap();
        let rec = record_tex(&scene.case).unwrap();
        assert_eq!(rec.outcome, model.outcome, "{name}");
        let beats = gpu.pipeline_beats();
        let strip = |t: &pica_model::beat::TexelBeat| (t.unit, t.addr, t.raw, t.rgba);
        assert_eq!(
            beats.texel.iter().map(strip).collect::<Vec<_>>(),
            rec.run.texels.iter().map(strip).collect::<Vec<_>>(),
            "{name}"
        );
        let colours = |c: &pica_model::beat::TexColorBeat| [c.unit0, c.unit1, c.unit2, c.unit3];
        assert_eq!(
            beats.tex_color.iter().map(colours).collect::<Vec<_>>(),
            rec.run.colors.iter().map(colours).collect::<Vec<_>>(),
            "{name}"
        );
        assert!(
            rec.case.fragments() > 0 && !rec.case.images.is_empty() && !rec.run.texels.is_empty()
        );
        assert_eq!(
            run_diff(&rec.run, &run_model(&rec.case), false),
            None,
            "{name}"
        );
    }
}

/// Rewrites the SHA-256 of `file` in `bundle`'s manifest (a consistent but wrong bundle).
fn rehash(bundle: &Path, file: &str) {
    let o = std::process::Command::new("sha256sum")
        .arg(bundle.join(file))
        .output()
        .unwrap();
    let sum = String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let mp = bundle.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&mp).unwrap()).unwrap();
    m["files"][file] = serde_json::Value::String(sum);
    std::fs::write(&mp, serde_json::to_string_pretty(&m).unwrap()).unwrap();
}

/// `pica vectors gen --stage tex` records scene bundles that the model and the RTL (bridge and
/// replay testbench) reproduce; a corrupted bundle is an error naming the file, the line or
/// the read, never a panic.
#[test]
fn cli_vectors_gen_stage_tex_and_check() {
    use common::{pica, text};
    let dir = tmp("texgen");
    let d = dir.to_str().unwrap();
    let o = pica(&[
        "vectors",
        "gen",
        d,
        "--stage",
        "tex",
        "--case",
        "tex/linear",
        "--case",
        "tex/etc1",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("2 tex stage bundle(s) written"),
        "{}",
        text(&o)
    );
    let bundles = [dir.join("tex-tex__linear"), dir.join("tex-tex__etc1")];
    for b in &bundles {
        let (_, case, expected) = load_tex_bundle(b).unwrap();
        assert_eq!(run_model(&case), expected);
        assert!(!expected.texels.is_empty());
    }
    let o = pica(&["vectors", "check", d, "--rtl"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("stage bundle stage:tex") && text(&o).contains("texel reads"),
        "{}",
        text(&o)
    );
    for sim in ["icarus", "verilator"] {
        let (ok, out) = common::replay(&bundles[0], sim, &[]);
        assert!(ok && out.contains("texel reads"), "{sim}: {out}");
    }
    // The stall watchdog: a limit below the stage's own quiet stretches (its level table after
    // reset, its 35-clock wrap pipeline) calls the run stalled at once, naming the limit.
    let o = std::process::Command::new(common::root().join("scripts/replay"))
        .arg(&bundles[0])
        .args(["--sim", "icarus", "--stall-cycles", "3"])
        .output()
        .unwrap();
    assert!(
        !o.status.success()
            && text(&o)
                .contains("FAIL: stalled: not idle and no handshake on any port for 3 clocks"),
        "{}",
        text(&o)
    );
    // A limit that is not a number of clocks is refused before anything runs.
    let o = std::process::Command::new(common::root().join("scripts/replay"))
        .arg(&bundles[0])
        .args(["--stall-cycles", "abc"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--stall-cycles abc"), "{}", text(&o));
    // A bad stage name is refused.
    let o = pica(&["vectors", "gen", d, "--stage", "texx"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));

    // A changed file: its SHA-256 names it.
    let b = &bundles[0];
    let p = b.join("texel.hex");
    let t = std::fs::read_to_string(&p).unwrap();
    let mut lines: Vec<&str> = t.lines().collect();
    let first = lines[1].to_string();
    std::fs::write(&p, t.replacen(&first, &first.replacen('0', "1", 1), 1)).unwrap();
    let o = pica(&["vectors", "check", d]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("texel.hex"), "{}", text(&o));
    // Two different texel reads swapped, the hash made to match: the model names the read and
    // field, and the replay testbench fails on the read order.
    let k = (1..lines.len() - 1)
        .find(|&k| lines[k] != lines[k + 1])
        .unwrap();
    lines.swap(k, k + 1);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    rehash(b, "texel.hex");
    let o = pica(&["vectors", "check", b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("does not reproduce it: texel read {k} (fragment")),
        "{}",
        text(&o)
    );
    let (ok, out) = common::replay(b, "icarus", &[]);
    assert!(
        !ok && out.contains(&format!("FAIL: texel read {k} ")),
        "{out}"
    );
    // A malformed operation: the file and the line.
    let p = bundles[1].join("ops.hex");
    let t = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, t.replacen('0', "g", 1)).unwrap();
    rehash(&bundles[1], "ops.hex");
    let o = pica(&["vectors", "check", bundles[1].to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("ops.hex") && text(&o).contains("line 1"),
        "{}",
        text(&o)
    );
    // A manifest that is not JSON.
    std::fs::write(bundles[1].join("manifest.json"), "{ not json").unwrap();
    let o = pica(&["vectors", "check", bundles[1].to_str().unwrap()]);
    assert!(matches!(o.status.code(), Some(1 | 2)), "{}", text(&o));
    assert!(text(&o).contains("manifest.json"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// One fragment through unit 0's bilinear filter on an 8x8 texture whose texels are all the
/// same colour: INJECT_TEX_JOB_ORDER reads (i+1, j) and (i, j+1) swapped and gives the same
/// colour, so only the order of the reads tells it.
fn order_only_case() -> pica_vectors::stage_tex::TexCase {
    use pica_model::num::F24;
    use pica_model::regs::id;
    use pica_vectors::stage_tex::{TexFrag, TexOp};
    let base = 0x1800_0000u32;
    let b = id::TEXUNIT0_BORDER_COLOR;
    let reg = |id: u16, value: u32| TexOp::Reg { id, value };
    let c = F24::from_f64_trunc(0.3).bits();
    pica_vectors::stage_tex::TexCase {
        ops: vec![
            reg(id::TEXUNIT_CONFIG, 1 | 1 << 12),
            reg(b + 1, 8 << 16 | 8),     // 8x8
            reg(b + 2, 1 << 1 | 1 << 2), // linear mag and min filters, clamp to edge
            reg(b + 4, base >> 3),
            reg(id::TEXUNIT0_TYPE, 0), // RGBA8
            TexOp::Frag(TexFrag {
                tc0: [c, c, 0],
                ..TexFrag::default()
            }),
        ],
        images: vec![pica_vectors::case::MemImage {
            base,
            words: vec![0x8040_2010; 64],
        }],
        knobs: Default::default(),
    }
}

/// The replay testbench compares the texel reads too: a bundle where only the read order
/// tells the injected bug from the default RTL replays clean on the default RTL and fails
/// with INJECT_TEX_JOB_ORDER under both simulators, naming the read.
#[test]
fn tex_replay_compares_the_texel_read_order() {
    let case = order_only_case();
    let model = run_model(&case);
    assert_eq!((model.colors.len(), model.texels.len()), (1, 4));
    let bug = tex_fuzz::run_rtl(
        TexVariant::InjectJobOrder,
        MemLatency::Zero,
        Reorder::InOrder,
        &case,
        None,
    )
    .unwrap();
    // The colours agree; the reads do not.
    let m = &model.colors[0];
    assert_eq!(bug.colors, vec![[m.unit0, m.unit1, m.unit2]]);
    let d = tex_fuzz::compare_rtl(&model, &bug).unwrap();
    assert!(d.contains("texel read 1"), "{d}");
    let dir = tmp("tex-order-only");
    let b = dir.join("order");
    pica_vectors::stage_tex::write_tex_bundle(
        &b,
        "order",
        "only the texel read order differs under INJECT_TEX_JOB_ORDER",
        &case,
        &pica_vectors::stage::StageProvenance::default(),
    )
    .unwrap();
    replays_clean_fails_with(
        &b,
        "INJECT_TEX_JOB_ORDER",
        &["FAIL: texel read 1", "field addr"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--tex-variant knobs_alt` follows the knobs its build implements: a scene under those knobs
/// with TEX in RTL is equal; the knobs without the variant, or the variant without the knobs,
/// is refused (exit 2) naming both sides.
#[test]
fn lockstep_tex_knobs_alt_follows_its_knobs() {
    use common::{pica, text};
    let knobs = [
        "tex-alpha-only-colour=white",
        "tex-reserved-format=zero",
        "tex-min-level-size=1",
        "tex-filter-rounding=truncate",
        "tex-unmapped=zero",
        "tex-reserved-type=disabled",
    ];
    let mut k = pica_model::knobs::Knobs::default();
    for a in knobs {
        k.set(a).unwrap();
    }
    assert_eq!(
        pica_testbench::lockstep::stages::tex_variant_knobs(TexVariant::KnobsAlt),
        k
    );
    let with_knobs = |variant: &str, scene: &str| {
        let mut args = vec![
            "lockstep",
            "--scene",
            scene,
            "--rtl-stages",
            "tex",
            "--tex-variant",
            variant,
        ];
        for a in &knobs {
            args.extend(["--knob", a]);
        }
        pica(&args)
    };
    // tex/a8: the alpha-only colour; tex/linear: the filter rounding.
    for scene in ["tex/a8", "tex/linear"] {
        let o = with_knobs("knobs_alt", scene);
        assert!(o.status.success(), "{scene}: {}", text(&o));
    }
    // Refused (exit 2) before anything runs, naming the build's side and the model's.
    let refused = |o: &std::process::Output, marks: &[&str]| {
        assert_eq!(o.status.code(), Some(2), "{}", text(o));
        assert!(marks.iter().all(|m| text(o).contains(m)), "{}", text(o));
    };
    let plain = [
        "lockstep",
        "--scene",
        "tex/a8",
        "--rtl-stages",
        "tex",
        "--tex-variant",
        "knobs_alt",
    ];
    refused(
        &pica(&plain),
        &[
            "(pica_tex_top, build knobs_alt) implements ",
            "tex-alpha-only-colour=white",
            "where the model runs with --knob ",
            "--knob tex-alpha-only-colour=black",
        ],
    );
    refused(
        &with_knobs("default", "tex/a8"),
        &[
            "(pica_tex_top, build default) implements ",
            "tex-alpha-only-colour=black",
            "--knob tex-alpha-only-colour=white",
            "--tex-variant knobs_alt follows",
        ],
    );
}
