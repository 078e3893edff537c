//! `pica fuzz --rtl-stages sh`: random shader programs as vertex shaders of the whole model
//! GPU, model alone vs the SH stage in RTL. A short campaign passes on the default build; each
//! injected bug is caught within a bounded number of cases, shrunk to a few instructions and
//! saved as a case bundle that `pica lockstep --rtl-stages sh --bundle` replays (clean on the
//! default build, failing on the buggy one) plus the program's shader-unit stage bundle.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::{pica, stdout, tmp};
use pica_rtl_bridge::shader::ShVariant;
use pica_testbench::fuzz::sh_stage::{self as sh_stage_fuzz, StageFuzzOptions};
use pica_vectors::stage::{bundle_kind, KIND_SHADER_UNIT};
use std::path::PathBuf;

/// Cases within which an injected bug must be caught.
const CATCH_WITHIN: u64 = 40;

fn opts(variant: ShVariant, cases: u64, dir: Option<PathBuf>) -> StageFuzzOptions {
    StageFuzzOptions {
        cases,
        seed: 0,
        shard: (0, 1),
        set: sh_stage_fuzz::sh_only(),
        variant,
        mem_latency: pica_rtl_bridge::fop_stage::MemLatency::Zero,
        regressions: dir,
        max_failures: 1,
        knobs: Default::default(),
        coverage: None,
    }
}

#[test]
fn sh_stage_fuzz_default_short_campaign_passes() {
    let (r, skipped) = sh_stage_fuzz::run(&opts(ShVariant::Default, 24, None), |_, _, _| {});
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert_eq!(r.cases_run + skipped, 24);
    // Most generated programs end: the campaign compares, it does not just skip.
    assert!(
        r.cases_run >= 16,
        "only {} of 24 cases compared",
        r.cases_run
    );
}

/// `--rtl-stages fe,sh`: the same cases on the whole pica_top (the program reaches the units
/// through CP and REGS), the register writes compared cycle-exact beside the model.
#[test]
fn sh_stage_fuzz_on_pica_top_short_campaign_passes() {
    let mut o = opts(ShVariant::Default, 8, None);
    o.set = pica_testbench::lockstep::stages::StageSet::parse("fe,sh").unwrap();
    let (r, skipped) = sh_stage_fuzz::run(&o, |_, _, _| {});
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert_eq!(r.cases_run + skipped, 8);
    assert!(r.cases_run >= 4, "only {} of 8 cases compared", r.cases_run);
}

fn caught(variant: ShVariant, flag: &str) {
    let dir = tmp(&format!("shstagefuzz-{flag}"));
    let (r, _) = sh_stage_fuzz::run(
        &opts(variant, CATCH_WITHIN, Some(dir.clone())),
        |_, _, _| {},
    );
    let f = r
        .failures
        .first()
        .unwrap_or_else(|| panic!("{flag} not caught within {CATCH_WITHIN} cases"));
    assert!(f.message.contains("MISMATCH"), "{}", f.message);
    assert!(f.commands <= 4, "shrunk to {} instructions", f.commands);
    let bundle = PathBuf::from(&f.bundle);
    let unit = PathBuf::from(format!("{}-unit", f.bundle));
    assert_eq!(
        bundle_kind(&unit).unwrap().as_deref(),
        Some(KIND_SHADER_UNIT)
    );
    // The case bundle replays through the stage swap: equal on the default build, the same
    // mismatch on the buggy one.
    let b = bundle.to_str().unwrap();
    let o = pica(&["lockstep", "--rtl-stages", "sh", "--bundle", b]);
    assert!(o.status.success(), "{}", stdout(&o));
    let o = pica(&[
        "lockstep",
        "--rtl-stages",
        "sh",
        "--bundle",
        b,
        "--sh-variant",
        flag,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("MISMATCH"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sh_stage_fuzz_catches_inject_add_round() {
    caught(ShVariant::InjectAddRound, "add_round");
}

#[test]
fn sh_stage_fuzz_catches_inject_loop_extra() {
    caught(ShVariant::InjectLoopExtra, "loop_extra");
}

#[test]
fn cli_fuzz_rtl_stages_sh_reports_and_replays() {
    let dir = tmp("shstagefuzz-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.json");
    let o = pica(&[
        "fuzz",
        "--rtl-stages",
        "sh",
        "--cases",
        "4",
        "--seed",
        "7",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("against shader:stage:default"),
        "{}",
        stdout(&o)
    );
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(j["against"], "shader:stage:default");
    // One case by its seed; the SH stage has no knobs_alt build; pica_top (fe,sh) runs the
    // cases with its default units and refuses an injected-bug build.
    let o = pica(&["fuzz", "--rtl-stages", "sh", "--replay", "0"]);
    assert!(o.status.success(), "{}", stdout(&o));
    let o = pica(&["fuzz", "--rtl-stages", "sh", "--variant", "knobs_alt"]);
    assert_eq!(o.status.code(), Some(2));
    let o = pica(&["fuzz", "--rtl-stages", "fe,sh", "--variant", "add_round"]);
    assert_eq!(o.status.code(), Some(2));
    let o = pica(&["fuzz", "--rtl-stages", "fe,sh", "--cases", "2"]);
    assert!(o.status.success(), "{}", stdout(&o));
    // `fe` alone is the register fuzz against the RTL front end.
    let o = pica(&["fuzz", "--rtl-stages", "fe", "--cases", "3"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("against rtl:default"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The generator's geometry-shader cases: a third of the cases, every input mode, and in
/// variable mode counts of 0 and draws that end mid-primitive (the figures are printed).
#[test]
fn sh_stage_fuzz_generates_gs_cases_in_every_mode() {
    use pica_model::shader::shbin::GshMode;
    use pica_testbench::fuzz::sh_stage::Draw;
    let (mut vs, mut modes) = (0, [0usize; 3]);
    let (mut zero, mut cut) = (0, 0);
    for i in 0..300 {
        let d = Draw::of(pica_testbench::fuzz::regs::case_seed(0, i));
        let Some(gs) = d.gs else {
            vs += 1;
            continue;
        };
        let m = match gs.mode {
            GshMode::Point => 0,
            GshMode::Variable => 1,
            GshMode::Fixed => 2,
        };
        modes[m] += 1;
        if gs.mode == GshMode::Variable {
            // Walk the index buffer as VL does: a count, then that many vertices.
            let mut left = 0usize;
            for &x in &gs.indices {
                if left == 0 {
                    zero += usize::from(x == 0);
                    left = usize::from(x);
                } else {
                    left -= 1;
                }
            }
            cut += usize::from(left > 0);
        }
    }
    println!("300 cases: {vs} VS, point {} variable {} fixed {}; variable: {zero} zero counts, {cut} cut mid-primitive", modes[0], modes[1], modes[2]);
    assert!(vs > 150 && modes.iter().all(|&n| n >= 20), "{vs} {modes:?}");
    assert!(zero > 0 && cut > 0, "{zero} {cut}");
}
