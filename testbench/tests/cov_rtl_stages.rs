//! RTL code coverage of the stage tops from the bridge: the coverage builds `cov_tev`,
//! `cov_fop`, `cov_rast` and `cov_sh` ([`pica_rtl_bridge::coverage`]) count points while the
//! stage fuzzers' cases run on them, the totals gathered into a sink from every model dropped;
//! the files they write read back through [`pica_testbench::cov::rtl`] under the stage's name.
//! And the CLI: `pica lockstep --rtl-stages … --rtl-coverage` writes one file per RTL stage.

mod common;

use common::{pica, text, tmp};
use pica_rtl_bridge::coverage::{CoverageBuild, CoverageSink};
use pica_rtl_bridge::fop_stage::{FopVariant, MemLatency};
use pica_rtl_bridge::rast_stage::RastVariant;
use pica_rtl_bridge::shader::ShVariant;
use pica_rtl_bridge::tev_stage::TevVariant;
use pica_rtl_bridge::RtlCoverage;
use pica_testbench::cov::rtl::{read_dat, report};
use pica_testbench::fuzz::{
    fop as fop_fuzz, rast as rast_fuzz, sh_stage as sh_stage_fuzz, tev as tev_fuzz,
};

/// The total of `build` over `run(seed, sink)` for each seed in `seeds` (each must pass: the
/// coverage build is the RTL as written, so it agrees with the model).
fn gathered(
    build: CoverageBuild,
    seeds: std::ops::Range<u64>,
    run: fn(u64, &CoverageSink),
) -> RtlCoverage {
    let sink = CoverageSink::new(&[build]).expect("the coverage build is compiled");
    for s in seeds {
        run(s, &sink);
    }
    sink.totals().pop().expect("the build was gathered")
}

/// A few cases hit some points but not all; more cases never hit fewer (every point of the
/// shorter run is hit in the longer one); the file written reads back with those hits, under
/// the stage `stage` of `pica cov rtl report`.
fn check_build(build: CoverageBuild, stage: &str, run: fn(u64, &CoverageSink)) {
    let few = gathered(build, 0..2, run);
    let more = gathered(build, 0..5, run);
    assert!(few.hit() > 0, "{}: no point hit", build.name());
    assert!(
        few.hit() < few.points(),
        "{}: every point hit",
        build.name()
    );
    assert_eq!(few.points(), more.points());
    assert!(more.hit() >= few.hit());
    for (a, b) in few.counts().iter().zip(more.counts()) {
        assert!(*a == 0 || *b >= *a, "{}: a point lost hits", build.name());
    }

    let path = tmp(&format!("{}.dat", build.name()));
    more.write(&path).expect("written");
    let pts = read_dat(&path).expect("the coverage file parses");
    // A counter is a module's point; the file has a line per instance of it (the six
    // combiner stages, the four shader units), so at least as many lines as counters.
    assert!(pts.len() >= more.points());
    let hit = pts.iter().filter(|p| p.count > 0).count();
    assert!(
        hit >= more.hit() && hit < pts.len(),
        "{}: {hit} lines hit",
        build.name()
    );
    let r = report(&pts, 1);
    assert!(
        r.stages.iter().any(|s| s.stage == stage),
        "{}: no stage {stage} in the report",
        build.name()
    );
}

#[test]
fn cov_rtl_stages_tev_counts_and_writes() {
    check_build(CoverageBuild::Tev, "tev", |s, sink| {
        let case = tev_fuzz::generate(s);
        tev_fuzz::check(&case, Some(TevVariant::Coverage), Some(sink)).expect("the case passes");
    });
}

#[test]
fn cov_rtl_stages_fop_counts_and_writes() {
    check_build(CoverageBuild::Fop, "fop", |s, sink| {
        let case = fop_fuzz::generate(s);
        fop_fuzz::check(
            &case,
            Some(FopVariant::Coverage),
            MemLatency::Zero,
            pica_rtl_bridge::axi::Reorder::InOrder,
            Some(sink),
        )
        .expect("the case passes");
    });
}

#[test]
fn cov_rtl_stages_rast_counts_and_writes() {
    check_build(CoverageBuild::Rast, "rast", |s, sink| {
        let case = rast_fuzz::generate(s);
        rast_fuzz::check(
            &case,
            Some(RastVariant::Coverage),
            MemLatency::Zero,
            pica_rtl_bridge::axi::Reorder::InOrder,
            Some(sink),
        )
        .expect("the case passes");
    });
}

#[test]
fn cov_rtl_stages_sh_counts_and_writes() {
    check_build(CoverageBuild::Sh, "sh", |s, sink| {
        let case = pica_vectors::shader_gen::generate_low(s);
        let v = sh_stage_fuzz::check_with(
            &case,
            &sh_stage_fuzz::Draw::of(s),
            &sh_stage_fuzz::sh_only(),
            ShVariant::Coverage,
            MemLatency::Zero,
            &Default::default(),
            Some(sink),
        );
        assert!(
            !matches!(v, sh_stage_fuzz::Verdict::Fail(_)),
            "case {s}: {v:?}"
        );
    });
}

/// `pica lockstep --rtl-stages tev,fop --rtl-coverage FILE` writes one file per RTL stage
/// (FILE with the stage before its extension), each read back under its stage and accepted by
/// `verilator_coverage --write`; the front end in a mixed run and an injected-bug stage build
/// are refused (exit 2), and so is a fuzz campaign of several stages.
#[test]
fn cov_rtl_stages_lockstep_writes_one_file_per_stage() {
    let p = |s: &str| tmp(s).to_string_lossy().into_owned();
    let o = pica(&[
        "lockstep",
        "--scene",
        "blend/alpha",
        "--rtl-stages",
        "tev,fop",
        "--rtl-coverage",
        &p("ls.dat"),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    for (stage, top) in [("tev", "pica_tev_top"), ("fop", "pica_fop_top")] {
        let f = tmp(&format!("ls.{stage}.dat"));
        let pts = read_dat(&f).expect("a coverage file per stage");
        assert!(pts.iter().any(|p| p.count > 0), "{stage}: nothing hit");
        assert!(pts
            .iter()
            .all(|p| p.hier.starts_with(&format!("TOP.{top}"))));
        let vc = std::process::Command::new("verilator_coverage")
            .arg("--write")
            .arg(tmp(&format!("vc.{stage}.dat")))
            .arg(&f)
            .output()
            .expect("verilator_coverage runs");
        assert!(vc.status.success(), "{}", text(&vc));
        let o = pica(&[
            "cov",
            "rtl",
            "report",
            &f.to_string_lossy(),
            "--require",
            stage,
        ]);
        assert!(o.status.success(), "{}", text(&o));
    }
    assert!(
        !tmp("ls.dat").exists(),
        "several stages write no FILE itself"
    );

    for args in [
        vec![
            "lockstep",
            "--scene",
            "blend/alpha",
            "--rtl-stages",
            "fe,tev",
        ],
        vec![
            "lockstep",
            "--scene",
            "blend/alpha",
            "--rtl-stages",
            "tev",
            "--tev-variant",
            "buffer",
        ],
        vec!["fuzz", "--rtl-stages", "tev,fop", "--cases", "1"],
        vec!["fuzz", "--target", "shader", "--rtl", "--cases", "1"],
    ] {
        let mut a = args.clone();
        let f = p("refused.dat");
        a.extend(["--rtl-coverage", &f]);
        let o = pica(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("--rtl-coverage"), "{}", text(&o));
    }
}
