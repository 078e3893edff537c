//! `pica lockstep`, `pica vectors` and `pica fuzz` end to end: outputs, reports, exit statuses.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;
use common::*;

use serde_json::Value;
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn cli_lockstep_equal_list_exits_0() {
    let o = pica(&["lockstep", "vectors/examples/03_masked_writes.hex"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).starts_with("EQUAL  vectors/examples/03_masked_writes.hex: 6 beats, 13 cycles"),
        "{}",
        text(&o)
    );
}

#[test]
fn cli_lockstep_mismatch_reports_fields_json_and_vcd() {
    let report = tmp("mask.json");
    let vcd = tmp("mask.vcd");
    let o = pica(&[
        "lockstep",
        "vectors/examples/03_masked_writes.hex",
        "--variant",
        "mask",
        "--trace-window",
        "8",
        "--vcd",
        s(&vcd),
        "--report",
        s(&report),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("MISMATCH") && t.contains("channel regwrite"),
        "{t}"
    );
    assert!(t.contains("GPUREG_FOG_COLOR"), "{t}");
    assert!(t.contains("waveform:"), "{t}");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(r["result"], "mismatch");
    assert_eq!(r["variant"], "inject_mask_bug");
    let d = &r["divergence"];
    assert_eq!(d["kind"], "beat_mismatch");
    assert_eq!(d["channel"], "regwrite");
    assert!(d["fields"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["name"] == "value"));
    assert!(d["cycle"].as_u64().unwrap() > 0);
    assert!(std::fs::read_to_string(&vcd)
        .unwrap()
        .contains("$enddefinitions"));
}

#[test]
fn cli_lockstep_corpus_prints_a_table() {
    let o = pica(&["lockstep", "--corpus"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let t = text(&o);
    assert!(t.starts_with("case "), "{t}");
    assert!(
        t.contains("examples/09_cmdbuf_jump") && t.contains("all equal"),
        "{t}"
    );
}

#[test]
fn cli_lockstep_bad_input_exits_2() {
    for args in [
        &["lockstep"][..],
        &["lockstep", "no/such/list.hex"],
        &["lockstep", "--bundle", "no/such/dir"],
        &["lockstep", "x.hex", "--variant", "nope"],
    ] {
        let o = pica(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
    }
}

#[test]
fn cli_vectors_gen_check_and_tamper() {
    let out = tmp("bundles");
    let o = pica(&[
        "vectors",
        "gen",
        s(&out),
        "--case",
        "regs/luts",
        "--case",
        "cp/jump_chain",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = pica(&["vectors", "check", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("2 bundle(s) checked, 0 failed"),
        "{}",
        text(&o)
    );
    let o = pica(&["vectors", "check", "--rtl", s(&out.join("cp__jump_chain"))]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Tamper with one beat.
    let hex = out.join("regs__luts/regwrite.hex");
    let t = std::fs::read_to_string(&hex).unwrap().replacen('0', "1", 1);
    std::fs::write(&hex, t).unwrap();
    let o = pica(&["vectors", "check", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("regwrite.hex: SHA-256 is"),
        "{}",
        text(&o)
    );
    let o = pica(&["vectors", "gen", s(&out), "--case", "no/such"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn cli_vectors_list_names_the_library() {
    let o = pica(&["vectors", "list"]);
    assert_eq!(o.status.code(), Some(0));
    for name in [
        "examples/01_finalize",
        "regs/uniform_edges",
        "cp/jump_chain",
        "bench/frame_setup",
    ] {
        assert!(text(&o).contains(name), "{name}");
    }
}

#[test]
fn cli_fuzz_is_deterministic_and_reports_json() {
    let r1 = tmp("fuzz1.json");
    let r2 = tmp("fuzz2.json");
    for r in [&r1, &r2] {
        let o = pica(&["fuzz", "--cases", "40", "--seed", "9", "--report", s(r)]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    }
    let a: Value = serde_json::from_str(&std::fs::read_to_string(&r1).unwrap()).unwrap();
    let b: Value = serde_json::from_str(&std::fs::read_to_string(&r2).unwrap()).unwrap();
    assert_eq!(a, b, "same seed, same report");
    assert_eq!(a["cases_run"], 40);
    assert_eq!(a["against"], "model");
    assert_eq!(a["failures"].as_array().unwrap().len(), 0);
    let o = pica(&["fuzz", "--cases", "10", "--shard", "1/3", "--rtl"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("shard 1/3 against rtl:default: 3 case(s)"),
        "{}",
        text(&o)
    );
    let o = pica(&["fuzz", "--shard", "3/3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn cli_fuzz_finds_the_injected_bug_and_saves_a_bundle() {
    let dir = tmp("regressions");
    let report = tmp("fuzz-mask.json");
    let o = pica(&[
        "fuzz",
        "--cases",
        "100",
        "--seed",
        "5",
        "--rtl",
        "--variant",
        "mask",
        "--regressions",
        s(&dir),
        "--report",
        s(&report),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let f = &r["failures"][0];
    assert!(f["commands"].as_u64().unwrap() <= 3, "{f}");
    let bundle = f["bundle"].as_str().unwrap();
    // The saved bundle is a valid bundle the default RTL agrees on, and --replay reproduces it.
    let o = pica(&["vectors", "check", "--rtl", bundle]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let seed = f["case_seed"].as_str().unwrap();
    let o = pica(&["fuzz", "--rtl", "--variant", "mask", "--replay", seed]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
}
