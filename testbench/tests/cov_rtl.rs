//! `pica cov rtl`: RTL code coverage from the replay testbench's Verilator coverage build
//! (TEV, the smallest stage top: one coverage build of about a minute), merged and reported;
//! and from the bridge's coverage build of the front end (`pica lockstep` / `pica fuzz
//! --rtl-coverage`).

mod common;

use common::{pica, text, tmp};
use pica_testbench::cov::rtl::{parse_dat, read_dat, report, PointKind, RtlReport};
use std::path::Path;

fn json_of(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).expect("json written")).expect("json parses")
}

fn figures(j: &serde_json::Value, stage: &str) -> serde_json::Value {
    j["stages"]
        .as_array()
        .expect("stages")
        .iter()
        .find(|s| s["stage"] == stage)
        .unwrap_or_else(|| panic!("no stage {stage} in {j}"))
        .clone()
}

/// Covered count of `kind` of `module` (or the stage total for `total`).
fn covered(stage: &serde_json::Value, module: &str, kind: &str) -> u64 {
    let m = if module == "total" {
        &stage["total"]
    } else {
        stage["modules"]
            .as_array()
            .expect("modules")
            .iter()
            .find(|m| m["module"] == module)
            .unwrap_or_else(|| panic!("no module {module}"))
    };
    m[kind]["covered"].as_u64().expect("covered")
}

#[test]
fn cov_rtl_run_merge_report_tev() {
    let dir = tmp("covrtl");
    let bundles = dir.join("bundles");
    let p = |s: &str| dir.join(s).to_string_lossy().into_owned();
    // Two scenes that drive different combiner modes (ADD vs DOT3_RGB).
    let o = pica(&[
        "vectors",
        "gen",
        &bundles.to_string_lossy(),
        "--stage",
        "tev",
        "--case",
        "tev/add",
        "--case",
        "tev/dot3_rgb",
    ]);
    assert!(o.status.success(), "{}", text(&o));

    let o = pica(&[
        "cov",
        "rtl",
        "run",
        &bundles.to_string_lossy(),
        "--out",
        &p("dat"),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("tev: 2 of 2 bundle(s)"), "{}", text(&o));
    let a = dir.join("dat/tev-tev-tev__add.dat");
    let b = dir.join("dat/tev-tev-tev__dot3_rgb.dat");
    assert!(a.is_file() && b.is_file(), "{}", text(&o));

    // Each input alone, then both merged (with annotated sources and the merged file kept).
    for (dat, out) in [(&a, "a.json"), (&b, "b.json")] {
        let o = pica(&[
            "cov",
            "rtl",
            "report",
            &dat.to_string_lossy(),
            "--json",
            &p(out),
        ]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let o = pica(&[
        "cov",
        "rtl",
        "report",
        &p("dat"),
        "--json",
        &p("m.json"),
        "--merged",
        &p("m.dat"),
        "--annotate",
        &p("ann"),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("stage tev") && out.contains("pica_tev_combine"),
        "{out}"
    );

    let (ja, jb, jm) = (
        json_of(&dir.join("a.json")),
        json_of(&dir.join("b.json")),
        json_of(&dir.join("m.json")),
    );
    let (sa, sb, sm) = (
        figures(&ja, "tev"),
        figures(&jb, "tev"),
        figures(&jm, "tev"),
    );
    // The same design: the same points in each; the merge covers at least what each input
    // does, in every module and kind, and strictly more than one of them somewhere.
    assert_eq!(
        sa["total"]["toggle"]["total"],
        sm["total"]["toggle"]["total"]
    );
    assert_eq!(sb["total"]["line"]["total"], sm["total"]["line"]["total"]);
    let mut more = false;
    for m in sm["modules"].as_array().expect("modules") {
        let name = m["module"].as_str().expect("name");
        for kind in ["line", "toggle", "branch"] {
            let (ca, cb, cm) = (
                covered(&sa, name, kind),
                covered(&sb, name, kind),
                covered(&sm, name, kind),
            );
            assert!(
                cm >= ca && cm >= cb,
                "{name} {kind}: merged {cm} < {ca} or {cb}"
            );
            more |= cm > ca.min(cb);
        }
    }
    assert!(more, "merging two different scenes covered nothing new");

    // The report counts every point of the merged file; hits add up in the merge.
    let merged = read_dat(&dir.join("m.dat")).expect("merged file parses");
    let lines = std::fs::read_to_string(dir.join("m.dat"))
        .expect("merged")
        .lines()
        .filter(|l| l.starts_with("C '"))
        .count();
    assert_eq!(jm["points"].as_u64(), Some(lines as u64));
    assert_eq!(merged.len(), lines);
    let (pa, pb) = (read_dat(&a).expect("a"), read_dat(&b).expect("b"));
    let key = |p: &pica_testbench::cov::rtl::Point| {
        (
            p.file.clone(),
            p.line,
            p.column,
            p.comment.clone(),
            p.hier.clone(),
            p.kind,
        )
    };
    let hits = |v: &[pica_testbench::cov::rtl::Point], k| {
        v.iter()
            .filter(|p| key(p) == k)
            .map(|p| p.count)
            .sum::<u64>()
    };
    let unique = |p: &&pica_testbench::cov::rtl::Point| {
        merged.iter().filter(|q| key(q) == key(p)).count() == 1
    };
    for p in merged
        .iter()
        .filter(|p| p.count > 0)
        .filter(unique)
        .take(50)
    {
        assert_eq!(p.count, hits(&pa, key(p)) + hits(&pb, key(p)), "{p:?}");
    }
    // Known reached: every fragment passes the top's input handshake, so its valid bit
    // toggles; a stage-total line point count equal to the sum over its modules.
    let r: RtlReport = report(&merged, 1);
    let tev = r.stage("tev").expect("tev");
    let valid = merged.iter().find(|p| {
        p.kind == PointKind::Toggle && p.module == "pica_tev_top" && p.comment == "in_valid_i"
    });
    assert!(valid.is_some_and(|p| p.count > 0), "{valid:?}");
    assert_eq!(
        tev.total.line.total,
        tev.modules.iter().map(|m| m.line.total).sum::<u64>()
    );
    assert!(tev.total.line.covered > 0 && tev.total.line.covered < tev.total.line.total);
    // The annotated sources: the combiner with per-line hit counts.
    let ann = std::fs::read_to_string(dir.join("ann/pica_tev_combine.sv")).expect("annotated");
    assert!(ann.contains("verilator_coverage annotation"), "{ann}");

    // A stage the files do not reach fails --require; the one they reach passes.
    let o = pica(&["cov", "rtl", "report", &p("m.dat"), "--require", "tev,fop"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("stage(s) fop"), "{}", text(&o));
    let o = pica(&["cov", "rtl", "report", &p("m.dat"), "--require", "tev"]);
    assert!(o.status.success(), "{}", text(&o));

    // Bad input is named, with exit status 2.
    std::fs::write(dir.join("bad.dat"), "# SystemC::Coverage-3\nC 'x' 1\n").expect("write");
    let o = pica(&["cov", "rtl", "report", &p("bad.dat")]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("bad.dat:2"), "{}", text(&o));
    let o = pica(&[
        "cov",
        "rtl",
        "run",
        &bundles.to_string_lossy(),
        "--out",
        &p("x"),
        "--stage",
        "fop",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no bundle of stage fop"), "{}", text(&o));
}

#[test]
fn cov_rtl_parse_reads_nothing_but_points() {
    // A header-only file has no points and no stages.
    let pts = parse_dat("# SystemC::Coverage-3\n", "e.dat").expect("parses");
    assert!(pts.is_empty());
    assert!(report(&pts, 1).stages.is_empty());
}

/// `--rtl-coverage` on the bridge: a lockstep run over the corpus and a short register-fuzz
/// campaign each write a Verilator coverage file with counts in the CP and in REGS; the two
/// merge with `verilator_coverage --write`, and `pica cov rtl report` folds them under stage
/// `fe`, the merge covering at least what either file covers. Bad requests are exit 2.
#[test]
fn cov_rtl_bridge_lockstep_and_fuzz_write_mergeable_coverage() {
    let p = |s: &str| tmp(s).to_string_lossy().into_owned();
    let o = pica(&["lockstep", "--corpus", "--rtl-coverage", &p("ls.dat")]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("RTL coverage: "), "{}", text(&o));
    let o = pica(&[
        "fuzz",
        "--rtl",
        "--cases",
        "20",
        "--seed",
        "1",
        "--regressions",
        &p("regs"),
        "--rtl-coverage",
        &p("fz.dat"),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("against rtl:cov_fe"), "{}", text(&o));

    let pts = read_dat(&tmp("ls.dat")).expect("a coverage file");
    let hit_in = |module: &str| {
        pts.iter()
            .filter(|p| p.module == module && p.hier.starts_with("TOP.pica_top"))
            .filter(|p| p.count > 0)
            .count()
    };
    assert!(hit_in("pica_cp") > 0, "no CP point hit");
    assert!(hit_in("pica_regs") > 0, "no REGS point hit");
    // Not everything: a point file of counts that are all nonzero would be a broken read.
    assert!(pts.iter().any(|p| p.count == 0));

    let vc = std::process::Command::new("verilator_coverage")
        .arg("--write")
        .arg(tmp("vc.dat"))
        .arg(tmp("ls.dat"))
        .arg(tmp("fz.dat"))
        .output()
        .expect("verilator_coverage runs");
    assert!(vc.status.success(), "{}", text(&vc));
    assert!(read_dat(&tmp("vc.dat")).is_ok_and(|v| !v.is_empty()));

    let fe = |dats: &[String], json: &str| {
        let mut args = vec!["cov", "rtl", "report"];
        args.extend(dats.iter().map(String::as_str));
        let j = p(json);
        args.extend(["--json", &j, "--require", "fe"]);
        let o = pica(&args);
        assert!(o.status.success(), "{}", text(&o));
        figures(&json_of(&tmp(json)), "fe")
    };
    let ls = fe(&[p("ls.dat")], "ls.json");
    let both = fe(&[p("ls.dat"), p("fz.dat")], "both.json");
    for kind in ["line", "toggle", "branch"] {
        assert!(covered(&ls, "pica_regs", kind) > 0, "{kind}");
        assert!(covered(&both, "total", kind) >= covered(&ls, "total", kind));
    }
    assert!(covered(&ls, "pica_cp", "line") > 0);

    // No coverage build of an injected-bug build; an unwritable file; no --rtl.
    let o = pica(&[
        "lockstep",
        "--corpus",
        "--variant",
        "mask",
        "--rtl-coverage",
        &p("x.dat"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no coverage build"), "{}", text(&o));
    let o = pica(&[
        "lockstep",
        "--corpus",
        "--rtl-coverage",
        "/nonexistent/x.dat",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("cannot write"), "{}", text(&o));
    let o = pica(&["fuzz", "--cases", "1", "--rtl-coverage", &p("y.dat")]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("needs --rtl"), "{}", text(&o));
}

/// A bridge point (`TOP.pica_top…`, one checkout's path) and the same point of the replay
/// testbench (`TOP.replay_tb.dut…`, another checkout's path) are one point of stage `fe`.
#[test]
fn cov_rtl_report_folds_bridge_and_replay_points() {
    let point = |file: &str, hier: &str, count: u32| {
        format!(
            "C '\x01f\x02{file}\x01l\x0210\x01n\x023\x01page\x02v_line/pica_cp\x01o\x02block\
             \x01h\x02{hier}' {count}\n"
        )
    };
    let text = format!(
        "# SystemC::Coverage-3\n{}{}",
        point("/a/rtl-bridge/rtl/pica_cp.sv", "TOP.pica_top.u_cp", 0),
        point("/b/rtl-bridge/rtl/pica_cp.sv", "TOP.replay_tb.dut.u_cp", 2)
    );
    let pts = parse_dat(&text, "t.dat").expect("parses");
    let r = report(&pts, 1);
    let fe = r.stage("fe").expect("stage fe");
    assert_eq!(fe.instance_points, 2);
    assert_eq!(fe.modules.len(), 1);
    assert_eq!((fe.total.line.covered, fe.total.line.total), (1, 1));
}
