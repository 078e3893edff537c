//! `pica fuzz --target shader` and shader-unit stage bundles: the model's self-consistency on
//! random programs, the two injected RTL bugs caught and shrunk to at most three instructions
//! (with the default build passing the same cases), second invocations that keep the registers
//! and a reset that clears them, stage bundles that round-trip, replay
//! clean under Icarus and Verilator, and fail on a corrupted expected beat.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::{campaign_opts, pica, replay, root, stage, text, tmp};
use pica_model::beat::CommitBeat;
use pica_model::chan::Payload;
use pica_model::num::F24;
use pica_model::shader::isa::{encode, DstReg, Instruction, Opcode, RelIndex, SrcReg};
use pica_rtl_bridge::shader::{RtlShaderUnit, ShVariant};
use pica_testbench::fuzz::regs::case_seed;
use pica_testbench::fuzz::shader::{self as shader_fuzz, save_bundle, ShaderFuzzOptions};
use pica_vectors::shader_gen::{
    compare, generate, run_model, ShaderCase, IDENTITY_DESC, MAX_INSTRUCTIONS,
};
use pica_vectors::stage::{bundle_kind, load_shader_bundle, StageProvenance, KIND_SHADER_UNIT};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn opts(rtl: Option<ShVariant>, cases: u64, dir: Option<PathBuf>) -> ShaderFuzzOptions {
    campaign_opts!(ShaderFuzzOptions {
        cases,
        rtl,
        regressions: dir,
        knobs: None
    })
}

#[test]
fn shader_fuzz_model_self_consistency_holds() {
    let r = shader_fuzz::run(&opts(None, 1000, None), |_, _, _| {});
    assert_eq!(r.cases_run, 1000);
    assert!(r.failures.is_empty(), "{:?}", r.failures);
}

#[test]
fn shader_fuzz_shards_partition_the_campaign() {
    // Shards see disjoint cases whose union is the campaign (case i of seed S is the same case
    // whichever shard runs it).
    let mut seen = Vec::new();
    for k in 0..3 {
        let mut o = opts(None, 30, None);
        o.shard = (k, 3);
        let r = shader_fuzz::run(&o, |_, _, _| {});
        seen.push(r.cases_run);
    }
    assert_eq!(seen.iter().sum::<u64>(), 30);
}

/// Runs the campaign against `variant`: it must fail within 2,000 cases, shrink to at most 3
/// instructions and write a stage bundle; the default build must pass the same cases.
fn caught_and_shrunk(variant: ShVariant) {
    let dir = tmp(&format!("shfuzz-{}", variant.name()));
    let t = Instant::now();
    let r = shader_fuzz::run(&opts(Some(variant), 2000, Some(dir.clone())), |_, _, _| {});
    let f = r
        .failures
        .first()
        .unwrap_or_else(|| panic!("{} not caught by 2000 cases", variant.name()));
    eprintln!(
        "{}: caught by case {} in {:.2} s, shrunk {} -> {} instructions: {}",
        variant.name(),
        f.case_index,
        t.elapsed().as_secs_f64(),
        f.original_commands,
        f.commands,
        f.message
    );
    assert!(
        f.commands <= 3,
        "shrunk only to {} instructions",
        f.commands
    );
    // The bundle holds the model's answer for the shrunk program.
    let b = load_shader_bundle(Path::new(&f.bundle)).unwrap();
    assert_eq!(b.case.code.len(), f.commands);
    let run = run_model(&b.case, variant.knobs(), b.max_instructions);
    assert_eq!((run.commits, run.end), (b.commits, b.end));
    // The default build passes every case the campaign ran.
    let d = shader_fuzz::run(
        &opts(Some(ShVariant::Default), r.cases_run, None),
        |_, _, _| {},
    );
    assert!(d.failures.is_empty(), "{:?}", d.failures);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shader_fuzz_catches_inject_add_round() {
    caught_and_shrunk(ShVariant::InjectAddRound);
}

#[test]
fn shader_fuzz_catches_inject_loop_extra() {
    caught_and_shrunk(ShVariant::InjectLoopExtra);
}

#[test]
fn shader_stage_bundle_round_trips() {
    let dir = tmp("shbundle-rt");
    for i in 0..20 {
        let seed = case_seed(7, i);
        let case = generate(seed);
        let prov = StageProvenance {
            generator: "test".into(),
            case_seed: Some(seed),
            ..StageProvenance::default()
        };
        let out = save_bundle(&case, &dir, &format!("c{i}"), "round trip", None, &prov).unwrap();
        assert_eq!(
            bundle_kind(&out).unwrap().as_deref(),
            Some(KIND_SHADER_UNIT)
        );
        let b = load_shader_bundle(&out).unwrap();
        let mut trimmed = case.clone();
        trimmed.code = b.case.code.clone();
        assert_eq!(b.case, trimmed);
        assert_eq!(b.case.code, case.code);
        let run = run_model(&case, Default::default(), MAX_INSTRUCTIONS);
        assert_eq!(b.commits, run.commits);
        assert_eq!(b.outputs, run.outputs);
        assert_eq!(b.end, run.end);
    }
    // A changed file is caught by its SHA-256.
    let p = dir.join("c0/outputs.hex");
    let t = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, t.replacen('0', "1", 1)).unwrap();
    assert!(load_shader_bundle(&dir.join("c0")).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random programs the replay tests run on each simulator (`PICA_SH_REPLAY_CASES` overrides).
const REPLAY_CASES: u64 = 30;

/// Stage bundles for the replay tests: random programs of the generator (some with loops,
/// calls, hangs) and the two shrunk injected-bug reproducers.
fn replay_bundles(dir: &Path, default_n: u64) -> Vec<PathBuf> {
    let n: u64 = std::env::var("PICA_SH_REPLAY_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_n);
    let mut v = Vec::new();
    for i in 0..n {
        let seed = case_seed(3, i);
        let prov = StageProvenance {
            generator: "test".into(),
            case_seed: Some(seed),
            ..StageProvenance::default()
        };
        v.push(
            save_bundle(
                &generate(seed),
                dir,
                &format!("r{i}"),
                "replay",
                None,
                &prov,
            )
            .unwrap(),
        );
    }
    v
}

fn replay_all(sim: &str) {
    let dir = tmp(&format!("shreplay-{sim}"));
    let t = Instant::now();
    // 30 random programs (case_seed(3, 0..30): case 1 used to hang Icarus 11, whose
    // always_comb re-ran forever on its own writes in pica_shader_unit) on both simulators,
    // each under a timeout.
    let bundles = replay_bundles(&dir, REPLAY_CASES);
    for b in &bundles {
        let (ok, out) = replay(b, sim, &[]);
        assert!(ok && out.contains("PASS"), "{}: {out}", b.display());
    }
    // The stall watchdog: the unit retires an instruction every three clocks at best, so a
    // limit of 2 clocks without a commit beat fails at once, naming the stall.
    let o = std::process::Command::new("timeout")
        .args(["-k", "10", "300"])
        .arg(root().join("scripts/replay"))
        .arg(&bundles[0])
        .args(["--sim", sim, "--stall-cycles", "2"])
        .current_dir(root())
        .output()
        .expect("timeout runs");
    assert!(
        !o.status.success()
            && text(&o)
                .contains("FAIL: stalled: the unit runs and no commit beat came for 2 clocks"),
        "{}",
        text(&o)
    );
    // A corrupted expected beat: the lowest bit of commit 1's result.x flipped must fail,
    // naming the beat and the field.
    let b = &bundles[0];
    let p = b.join("commit.hex");
    let text_in = std::fs::read_to_string(&p).unwrap();
    let mut lines: Vec<String> = text_in.lines().map(str::to_string).collect();
    let line = &mut lines[1];
    let lsb = <CommitBeat as Payload>::SPEC
        .layout()
        .into_iter()
        .find(|f| f.0 == "result.x")
        .unwrap()
        .1 as usize;
    let digit = line.len() - 1 - lsb / 4;
    let old = u8::from_str_radix(&line[digit..=digit], 16).unwrap();
    line.replace_range(digit..=digit, &format!("{:x}", old ^ (1 << (lsb % 4))));
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    let (ok, out) = replay(b, sim, &[]);
    assert!(!ok, "a corrupted beat replayed clean under {sim}: {out}");
    assert!(
        out.contains("FAIL: commit 1") && out.contains("result.x"),
        "{out}"
    );
    eprintln!(
        "{sim}: {} bundles replayed in {:.1} s",
        bundles.len(),
        t.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shader_stage_bundle_replays_under_icarus() {
    replay_all("icarus");
}

#[test]
fn shader_stage_bundle_replays_under_verilator() {
    replay_all("verilator");
}

#[test]
fn shader_stage_bundle_replay_catches_an_injected_bug() {
    // The shrunk ADD-rounding reproducer replays clean on the default RTL and fails on the
    // build with the bug, naming the field.
    let dir = tmp("shreplay-inject");
    let r = shader_fuzz::run(
        &opts(Some(ShVariant::InjectAddRound), 2000, Some(dir.clone())),
        |_, _, _| {},
    );
    let b = PathBuf::from(&r.failures[0].bundle);
    let (ok, out) = replay(&b, "icarus", &[]);
    assert!(ok, "{out}");
    let (ok, out) = replay(&b, "icarus", &["INJECT_SH_ADD_ROUND"]);
    assert!(
        !ok && out.contains("FAIL: commit") && out.contains("result."),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_fuzz_shader_and_shader_bundle() {
    // Model-only campaign through the CLI, with its JSON report.
    let dir = tmp("shcli");
    stage::cli_model_half_campaign("shader", 200, &dir);
    // An injected bug through the CLI: exit 1, bundle written.
    let regs = dir.join("regs");
    let o = pica(&[
        "fuzz",
        "--target",
        "shader",
        "--rtl",
        "--variant",
        "loop_extra",
        "--cases",
        "2000",
        "--regressions",
        regs.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("instruction(s); bundle"), "{}", text(&o));
    // A stage bundle from a program file.
    let src = dir.join("p.pica");
    std::fs::write(
        &src,
        ".proc main\n  mov r0, v0\n  add o0, r0, v1\n  end\n.end\n",
    )
    .unwrap();
    let out = dir.join("bundle");
    let o = pica(&[
        "shader",
        "bundle",
        src.to_str().unwrap(),
        "--in",
        "v0=1.5,2,3,4",
        "--in",
        "v1=0.25,0,0,-1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let b = load_shader_bundle(&out).unwrap();
    assert_eq!(b.end, "end");
    assert_eq!(b.outputs[0][0], 0x3F_C000); // 1.5 + 0.25 = 1.75
    let (ok, out_text) = replay(&out, "icarus", &[]);
    assert!(ok, "{out_text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shader_regressions_replay_forever() {
    // Every shader-unit stage bundle saved under vectors/regressions/ still holds the model's
    // answer and the default RTL unit reproduces it.
    let Ok(rd) = std::fs::read_dir(root().join("vectors/regressions")) else {
        return;
    };
    for d in rd.filter_map(|e| e.ok().map(|e| e.path())) {
        if bundle_kind(&d).ok().flatten().as_deref() != Some(KIND_SHADER_UNIT) {
            continue;
        }
        let b = load_shader_bundle(&d).unwrap();
        let model = run_model(&b.case, Default::default(), b.max_instructions);
        assert_eq!(
            (&model.commits, &model.outputs, &model.end),
            (&b.commits, &b.outputs, &b.end),
            "{}",
            d.display()
        );
        let rtl = shader_fuzz::run_rtl(ShVariant::Default, &b.case, b.max_instructions).unwrap();
        assert_eq!(
            pica_vectors::shader_gen::compare(&b.case, &model, &rtl),
            None,
            "{}",
            d.display()
        );
    }
}

#[test]
fn rtl_unit_reset_is_a_new_unit() {
    // shader_fuzz::run_rtl reuses one unit per variant with reset(): a long program, then a
    // short one on the reset unit, must run as the short one does on a new unit (registers
    // reset, the long program's code beyond the short one zero again).
    let mut cases: Vec<ShaderCase> = (0..200).map(|i| generate(case_seed(5, i))).collect();
    cases.sort_by_key(|c| c.code.len());
    let (short, long) = (&cases[0], &cases[cases.len() - 1]);
    assert!(long.code.len() > short.code.len());
    let first = shader_fuzz::run_rtl(ShVariant::Default, long, MAX_INSTRUCTIONS).unwrap();
    assert!(!first.commits.is_empty());
    let reused = shader_fuzz::run_rtl(ShVariant::Default, short, MAX_INSTRUCTIONS).unwrap();
    let mut fresh = RtlShaderUnit::new(ShVariant::Default).unwrap();
    let alone = shader_fuzz::run_on(&mut fresh, short, MAX_INSTRUCTIONS);
    assert_eq!(reused.commits, alone.commits);
    assert_eq!(reused.outputs, alone.outputs);
    assert_eq!(reused.end, alone.end);
    // And both are the model's answer.
    let model = run_model(short, Default::default(), MAX_INSTRUCTIONS);
    assert_eq!(compare(short, &model, &reused), None);
}

/// `add r0, c0, r0; mov o0, r0; end` with c0 = 1.0: o0 is 1.0 on a new unit, 2.0 when run
/// again on the same unit (r0 kept), 1.0 again after a reset.
fn accumulate_case() -> ShaderCase {
    let alu = |op, dst, src1, src2| Instruction::Alu {
        op,
        dst: DstReg::from_raw(dst),
        src1: SrcReg::from_raw(src1),
        src2: SrcReg::from_raw(src2),
        idx: RelIndex::None,
        desc: 0,
    };
    let mut case = ShaderCase::empty();
    case.opdescs[0] = IDENTITY_DESC;
    case.code = vec![
        encode(&alu(Opcode::Add, 0x10, 0x20, 0x10)),
        encode(&alu(Opcode::Mov, 0x00, 0x10, 0x00)),
        encode(&Instruction::Plain(Opcode::End)),
    ];
    case.float_uniforms[0] = [F24::from_bits(0x3F_0000); 4];
    case
}

#[test]
fn second_invocations_keep_registers_and_a_reset_clears_them() {
    // fuzz::shader::Invocations: `Again` runs the case a second time on the same unit (r0 as
    // the first run left it), `AfterReset` after a reset and a reload; the model's side
    // (run_model_inv) and the RTL's (run_rtl_inv) must both show it, bit for bit.
    use shader_fuzz::Invocations::{AfterReset, Again, Once};
    let case = accumulate_case();
    for (inv, second) in [(Again, 0x40_0000u32), (AfterReset, 0x3F_0000)] {
        let model = shader_fuzz::run_model_inv(&case, Default::default(), MAX_INSTRUCTIONS, inv);
        let rtl =
            shader_fuzz::run_rtl_inv(ShVariant::Default, &case, MAX_INSTRUCTIONS, inv).unwrap();
        for runs in [&model, &rtl] {
            assert_eq!(runs.len(), 2, "{inv:?}");
            assert_eq!(runs[0].outputs[0], [0x3F_0000; 4], "{inv:?} first run");
            assert_eq!(runs[1].outputs[0], [second; 4], "{inv:?} second run");
            assert_eq!(runs[1].end, "end");
        }
    }
    let once = shader_fuzz::run_rtl_inv(ShVariant::Default, &case, MAX_INSTRUCTIONS, Once).unwrap();
    assert_eq!(once.len(), 1);
    // Every kind is drawn for some generated cases (a hash of the case picks it).
    let kinds: std::collections::BTreeSet<String> = (0..200)
        .map(|i| {
            format!(
                "{:?}",
                shader_fuzz::invocations_of(&generate(case_seed(1, i)))
            )
        })
        .collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
}

#[test]
fn cli_vectors_check_replays_stage_bundles() {
    // `pica vectors check` takes stage bundles (alone or in a directory): the model (and with
    // --rtl the RTL unit) must reproduce them; a changed expected beat is caught.
    let dir = tmp("shcheck");
    let bundles = replay_bundles(&dir, 3);
    let d = dir.to_str().unwrap();
    let o = pica(&["vectors", "check", d]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("stage bundle stage:shader_unit"),
        "{}",
        text(&o)
    );
    let o = pica(&["vectors", "check", "--rtl", bundles[0].to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    // The outputs file rewritten (hash fixed up would need the manifest: the hash check
    // fires first and names the file).
    let p = bundles[1].join("outputs.hex");
    let t = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, t.replacen('0', "1", 1)).unwrap();
    let o = pica(&["vectors", "check", d]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("outputs.hex"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
