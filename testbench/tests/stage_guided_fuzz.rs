//! Guided stage fuzzing (`pica fuzz --target tev|fop|rast --rtl --guided`,
//! `pica_testbench::fuzz::stage_guided`): one guided campaign over any stage target with an
//! RTL coverage build. A short campaign hits more points of the coverage build than its first
//! case did, grows a pool and spends cases on mutants; it is a function of its seed; it still
//! catches an injected bug (the coverage build runs beside the buggy one) and shrinks it as
//! the unguided campaign does; the CLI prints the points hit over the cases and refuses
//! `--guided` where there is no coverage to guide by.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::{pica, text};
use pica_rtl_bridge::coverage::{CoverageBuild, CoverageSink};
use pica_rtl_bridge::fop_stage::FopVariant;
use pica_rtl_bridge::rast_stage::RastVariant;
use pica_rtl_bridge::tev_stage::TevVariant;
use pica_testbench::fuzz::campaign::{StageVariant, TargetOptions};
use pica_testbench::fuzz::report::{FuzzReport, GuidedSummary};
use pica_testbench::fuzz::stage_guided;

/// The guided campaign of `cases` cases (seed 0) against `rtl`, stopping after
/// `max_failures`, with a fresh sink of the stage's coverage build.
fn guided<V: StageVariant>(rtl: V, cases: u64, max_failures: usize) -> (FuzzReport, GuidedSummary) {
    let mut o = TargetOptions::new(Some(rtl), cases);
    o.max_failures = max_failures;
    let build = V::coverage_build().unwrap();
    let sink = CoverageSink::new(&[build]).unwrap();
    let (r, sum, _) =
        stage_guided::run(&V::target(&o), o.plan(), &sink, true, |_, _, _| {}).unwrap();
    let (hit, points) = sum.rtl_points.unwrap();
    let first = sum.rtl_points_curve[0].1;
    eprintln!(
        "{}: {cases} guided cases, {first} -> {hit}/{points} points, pool {}, {} mutant(s)",
        r.against, sum.pool, sum.mutants
    );
    (r, sum)
}

/// A short guided campaign on the default build: more points at the end than after its first
/// case, a pool beyond that first case, mutants; no failure; the same summary on a rerun.
fn finds_new_points<V: StageVariant>(default: V, cases: u64) {
    let (r, sum) = guided(default, cases, 1);
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert_eq!(r.cases_run, cases);
    let (first, last) = (
        sum.rtl_points_curve[0],
        *sum.rtl_points_curve.last().unwrap(),
    );
    assert_eq!(first.0, 1);
    assert_eq!(last.0, cases);
    assert!(last.1 > first.1, "{:?}", sum.rtl_points_curve);
    assert!(sum.pool >= 2 && sum.mutants > 0, "{sum:?}");
    assert_eq!(sum.fresh + sum.mutants, cases);
    // The points only grow over the cases.
    assert!(sum.rtl_points_curve.windows(2).all(|w| w[0].1 <= w[1].1));
    let (r2, sum2) = guided(default, cases, 1);
    assert_eq!((r2, sum2), (r, sum));
}

#[test]
fn guided_stage_campaigns_find_new_points() {
    finds_new_points(TevVariant::Default, 40);
    finds_new_points(FopVariant::Default, 40);
    finds_new_points(RastVariant::Default, 40);
}

/// The guided campaign against an injected bug catches it and shrinks it as far as the
/// unguided one does (the tests of `tev_fuzz`, `fop_fuzz`: at most 3 fragments), mutants'
/// failures included.
fn catches<V: StageVariant>(variant: V, cases: u64) {
    let (r, _) = guided(variant, cases, 6);
    let f = r
        .failures
        .first()
        .unwrap_or_else(|| panic!("{variant:?} not caught by {cases} guided cases"));
    for f in &r.failures {
        eprintln!(
            "  case {}: {} ({} -> {})",
            f.case_index, f.message, f.original_commands, f.commands
        );
        assert!(f.commands <= 3, "{}", f.message);
    }
    assert!(f.case_index < cases);
}

#[test]
fn guided_stage_campaigns_catch_injected_bugs() {
    catches(TevVariant::InjectBuffer, 64);
    catches(FopVariant::InjectTile32, 400);
}

#[test]
fn cli_fuzz_guided_stage_target() {
    let o = pica(&[
        "fuzz",
        "--target",
        "tev",
        "--rtl",
        "--guided",
        "--cases",
        "12",
        "--versus-unguided",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("RTL points (cov_tev): "), "{out}");
    assert!(out.contains("over the cases (case:points) 1:"), "{out}");
    assert!(out.contains("versus unguided: guided "), "{out}");
    assert!(out.contains("against tev:rtl:default (guided)"), "{out}");
    // Nothing to guide by: no RTL, the single shader unit, several stages; no pool to keep.
    let refused = [
        "--target fop --guided",
        "--target shader --rtl --guided",
        "--rtl-stages tev,fop --guided",
        "--target rast --rtl --guided --keep-new x",
    ];
    for args in refused {
        let o = pica(&[&["fuzz"][..], &args.split(' ').collect::<Vec<_>>()].concat());
        assert_eq!(o.status.code(), Some(2), "pica fuzz {args}: {}", text(&o));
    }
    // The coverage build of every stage target is one the bridge has.
    for b in [
        CoverageBuild::Tev,
        CoverageBuild::Fop,
        CoverageBuild::Rast,
        CoverageBuild::Sh,
    ] {
        assert_eq!(CoverageBuild::from_stage(b.stage()), Some(b));
    }
}
