//! `pica fuzz` and `pica fuzz merge`: the campaign of each target, its progress line and its
//! report.

use super::rtl_coverage::{
    fuzz_coverage_build, rtl_coverage_finish, rtl_coverage_start, with_stage_coverage,
};
use super::{fail, parse_variant, write_json, EXIT_MISMATCH, EXIT_OK};
use crate::fuzz::campaign::{self, plan_of, Check, StageTarget, StageVariant, TargetOptions};
use crate::fuzz::regs::{self, FuzzOptions};
use crate::fuzz::report::FuzzReport;
use crate::lockstep::stages::StageSet;
use pica_rtl_bridge::coverage::{CoverageBuild, CoverageSink};
use pica_rtl_bridge::fop_stage::FopVariant;
use pica_rtl_bridge::kit::desc;
use pica_rtl_bridge::rast_stage::RastVariant;
use pica_rtl_bridge::tev_stage::TevVariant;
use pica_rtl_bridge::tex_stage::TexVariant;
use pica_rtl_bridge::{RtlCoverage, Variant};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `--rtl-coverage FILE` of `pica fuzz --target regs`: `opts` running the coverage build of
/// its RTL, and the empty total of its points; the exit code (2) without `--rtl` or a
/// coverage build, or when FILE cannot be written.
fn fuzz_rtl_coverage(
    opts: &FuzzOptions,
    file: Option<&Path>,
) -> Result<(FuzzOptions, Option<RtlCoverage>), ExitCode> {
    let Some(file) = file else {
        return Ok((opts.clone(), None));
    };
    let Some(variant) = opts.rtl else {
        return Err(fail(
            "--rtl-coverage counts the RTL's code coverage: it needs --rtl",
        ));
    };
    let cov = rtl_coverage_start(variant, file).map_err(fail)?;
    let opts = FuzzOptions {
        rtl: cov.variant(),
        ..opts.clone()
    };
    Ok((opts, Some(cov)))
}

/// `pica fuzz`; with `rtl_coverage` (`--rtl-coverage FILE`, needs `--rtl`) the cases run on
/// the coverage build and the campaign's RTL code coverage is written to FILE.
pub fn fuzz(
    opts: &FuzzOptions,
    report: Option<&Path>,
    replay: Option<u64>,
    coverage: bool,
    rtl_coverage: Option<&Path>,
) -> ExitCode {
    let (opts, mut rtl_cov) = match fuzz_rtl_coverage(opts, rtl_coverage) {
        Ok(o) => o,
        Err(e) => return e,
    };
    let opts = &opts;
    if let Some(seed) = replay {
        let Some(list) = regs::generate(seed) else {
            return fail("the strategy could not generate a case");
        };
        let hold = crate::lockstep::HoldSchedule::of_case(seed);
        let c = regs::check_full(&list, opts.rtl, &opts.knobs, false, hold);
        if let (Some(rc), Some(counts)) = (rtl_cov.as_mut(), &c.rtl_coverage) {
            rc.add_counts(counts);
        }
        let code = match c.result {
            Ok(()) => {
                println!("case 0x{seed:016x}: passes ({} commands)", list.commands());
                ExitCode::SUCCESS
            }
            Err(e) => {
                println!("case 0x{seed:016x}: FAILS: {e}");
                ExitCode::from(EXIT_MISMATCH)
            }
        };
        return rtl_coverage_finish(rtl_cov.as_ref(), rtl_coverage).unwrap_or(code);
    }
    let bar = progress_bar();
    let started = std::time::Instant::now();
    let mut db = coverage.then(|| pica_model::cov::CoverageDb::new("fuzz"));
    let r = regs::run_rtl_cov(opts, db.as_mut(), rtl_cov.as_mut(), |done, total, fails| {
        show(&bar, done, total, fails)
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let code = print_fuzz_report(&r, started.elapsed().as_secs_f64(), report);
    if let Some(e) = rtl_coverage_finish(rtl_cov.as_ref(), rtl_coverage) {
        return e;
    }
    if let Some(db) = &mut db {
        let source = format!("fuzz seed {} shard {}", r.seed, r.shard);
        if let Err(e) = write_coverage(db, source, report) {
            return e;
        }
    }
    code
}

/// `pica fuzz --guided` (register sequences): the guided campaign, optionally the unguided one
/// of the same seed, size and shard beside it, then the report with the guided summary and both
/// coverage figures.
///
/// With `--rtl` on the RTL as written, the cases run on its coverage build and a case that hit
/// a new RTL code-coverage point joins the pool as well as one that reached a new bin; the
/// summary gives the points hit (both campaigns' with `versus_unguided`), and `rtl_coverage`
/// (`--rtl-coverage FILE`) writes them. An injected-bug build has no coverage build: its
/// campaign is guided by bins alone.
pub fn fuzz_guided(
    opts: &FuzzOptions,
    report: Option<&Path>,
    keep: Option<&Path>,
    versus_unguided: bool,
    rtl_coverage: Option<&Path>,
) -> ExitCode {
    let (opts, mut rtl_cov) = match fuzz_rtl_coverage(opts, rtl_coverage) {
        Ok(o) => o,
        Err(e) => return e,
    };
    // Without a file, still guide by RTL points when the build has a coverage build.
    if let (None, Some(cb)) = (&rtl_cov, opts.rtl.and_then(Variant::coverage_build)) {
        match RtlCoverage::new(cb) {
            Ok(c) => rtl_cov = Some(c),
            Err(e) => return fail(format!("--guided --rtl: {e}")),
        }
    }
    let opts = FuzzOptions {
        rtl: rtl_cov.as_ref().and_then(RtlCoverage::variant).or(opts.rtl),
        ..opts
    };
    let opts = &opts;
    let code = guided_cli(
        "fuzz --guided",
        report,
        keep,
        |db, keep, p| crate::fuzz::guided::run(opts, db, keep, rtl_cov.as_mut(), p),
        versus_unguided.then_some(|| {
            let mut udb = pica_model::cov::CoverageDb::new("fuzz (unguided baseline)");
            let mut urtl = opts
                .rtl
                .filter(|v| v.has_coverage())
                .and_then(|v| RtlCoverage::new(v).ok());
            // The baseline only counts bins and points: its failures are not shrunk or saved.
            let u = regs::run_cov_unsaved(opts, &mut udb, urtl.as_mut());
            (udb.total().0, u, urtl.map(|c| c.hit()))
        }),
    );
    rtl_coverage_finish(rtl_cov.as_ref(), rtl_coverage).unwrap_or(code)
}

/// Where a guided campaign keeps the cases that reached a new bin (`--keep-new`), created.
/// Only when asked: a pipeline bundle carries its scene's memory (about 1.6 MB), and a
/// 10^4-case pipeline campaign keeps a few thousand cases.
fn keep_dir(keep: Option<&Path>) -> Result<Option<PathBuf>, ExitCode> {
    let dir = keep.map(Path::to_path_buf);
    if let Some(d) = &dir {
        std::fs::create_dir_all(d)
            .map_err(|e| fail(format!("{}: cannot create: {e}", d.display())))?;
    }
    Ok(dir)
}

/// `pica fuzz --target pipeline --guided`: as [`fuzz_guided`], on the pipeline target.
pub fn fuzz_pipeline_guided(
    opts: &crate::fuzz::pipe::PipeFuzzOptions,
    report: Option<&Path>,
    keep: Option<&Path>,
    versus_unguided: bool,
) -> ExitCode {
    use crate::fuzz::pipe as pipe_fuzz;
    guided_cli(
        "fuzz pipeline --guided",
        report,
        keep,
        |db, keep, p| {
            let (r, t, sum) = pipe_fuzz::run_guided(opts, db, keep, p);
            println!(
                "outcomes: {} finished, {} command-list hangs, {} pipeline hangs, {} at the \
                 cycle limit, {} lists overwritten by the pipeline",
                t.finished, t.list_hang, t.pipeline_hang, t.limit, t.overwritten
            );
            (r, sum)
        },
        versus_unguided.then_some(|| {
            let mut udb = pica_model::cov::CoverageDb::new("fuzz pipeline (unguided baseline)");
            let mut quiet = opts.clone();
            // The baseline only counts bins: a failure of its own stops it as it would the
            // unguided campaign, and is written under a scratch directory, not the regressions.
            quiet.regressions =
                std::env::temp_dir().join(format!("pica-baseline-{}", std::process::id()));
            let (u, _) = pipe_fuzz::run(&quiet, Some(&mut udb), &mut |_, _, _| {});
            let _ = std::fs::remove_dir_all(&quiet.regressions);
            (udb.total().0, u.cases_run, None)
        }),
    )
}

/// What both guided targets share: the `--keep-new` directory, the campaign under a progress
/// bar, the unguided baseline when asked (its bins, cases and RTL points hit when counted), the
/// report with the guided summary, the coverage database.
fn guided_cli(
    source: &str,
    report: Option<&Path>,
    keep: Option<&Path>,
    campaign: impl FnOnce(
        &mut pica_model::cov::CoverageDb,
        Option<&Path>,
        &mut dyn FnMut(u64, u64, usize),
    ) -> (FuzzReport, crate::fuzz::report::GuidedSummary),
    baseline: Option<impl FnOnce() -> (usize, u64, Option<usize>)>,
) -> ExitCode {
    let keep = match keep_dir(keep) {
        Ok(k) => k,
        Err(e) => return e,
    };
    let bar = progress_bar();
    let started = std::time::Instant::now();
    let mut db = pica_model::cov::CoverageDb::new(source);
    let (mut r, mut sum) = campaign(&mut db, keep.as_deref(), &mut |done, total, fails| {
        show(&bar, done, total, fails)
    });
    let secs = started.elapsed().as_secs_f64();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let unguided = baseline.map(|b| b());
    sum.unguided_covered_bins = unguided.map(|u| u.0);
    sum.unguided_rtl_points = unguided.and_then(|u| u.2);
    r.guided = Some(sum.clone());
    let code = print_fuzz_report(&r, secs, report);
    finish_guided(&r, &sum, unguided.map(|u| (u.0, u.1)), &mut db, report).unwrap_or(code)
}

/// The guided part of a guided campaign's summary (the operations, the pool, both coverage
/// figures), then its coverage database beside the report; the exit code when that fails.
fn finish_guided(
    r: &FuzzReport,
    sum: &crate::fuzz::report::GuidedSummary,
    unguided: Option<(usize, u64)>,
    db: &mut pica_model::cov::CoverageDb,
    report: Option<&Path>,
) -> Option<ExitCode> {
    println!(
        "guided: {} fresh case(s), {} mutant(s) (steer {}, splice {}, duplicate draw {}, tweak \
         {}); {} case(s) reached a new bin ({} of them mutants)",
        sum.fresh,
        sum.steer + sum.splice + sum.dup_draw + sum.tweak,
        sum.steer,
        sum.splice,
        sum.dup_draw,
        sum.tweak,
        sum.pool,
        sum.pool_from_mutants
    );
    if let Some((hit, points)) = sum.rtl_points {
        println!(
            "RTL coverage guidance: {hit}/{points} RTL points hit; {} case(s) joined the pool \
             for a new RTL point alone",
            sum.pool_from_rtl
        );
    }
    if let Some((u, cases)) = unguided {
        let t = db.total().1;
        println!(
            "versus unguided: guided {}/{t} bins, unguided {u}/{t} bins (seed {}, {cases} case(s) \
             each)",
            sum.covered_bins, r.seed
        );
        if let (Some((hit, points)), Some(uhit)) = (sum.rtl_points, sum.unguided_rtl_points) {
            println!("versus unguided: guided {hit}/{points} RTL points, unguided {uhit}/{points}");
        }
    }
    let source = format!(
        "fuzz --guided ({}) seed {} shard {}",
        r.against, r.seed, r.shard
    );
    write_coverage(db, source, report).err()
}

/// Names a campaign's coverage database `source`, writes it beside the report (when there is
/// one) and prints the bins reached (`coverage: C/T bins`).
fn write_coverage(
    db: &mut pica_model::cov::CoverageDb,
    source: String,
    report: Option<&Path>,
) -> Result<(), ExitCode> {
    db.source = source;
    let (c, t) = db.total();
    match report {
        Some(p) => {
            let beside = crate::cov::functional::db_path_beside(p);
            crate::cov::functional::write_db(&beside, db).map_err(fail)?;
            println!("coverage: {c}/{t} bins ({})", beside.display());
        }
        None => println!("coverage: {c}/{t} bins"),
    }
    Ok(())
}

/// A fuzz campaign's progress on the bar (when there is one).
fn show(bar: &Option<indicatif::ProgressBar>, done: u64, total: u64, fails: usize) {
    if let Some(b) = bar {
        b.set_length(total);
        b.set_position(done);
        b.set_message(format!("{fails} failure(s)"));
    }
}

fn progress_bar() -> Option<indicatif::ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(0);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} cases  {msg}  [{elapsed_precise} < {eta}]",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    })
}

/// The shape every stage fuzzer's `pica fuzz --target T` shares: with `replay`, one case seed
/// (`replay_one` says what the passing case is, or why it fails); else the campaign
/// (`campaign`, given the progress callback) under a progress bar, then the report.
fn run_fuzz_cli(
    replay: Option<u64>,
    replay_one: impl FnOnce(u64) -> Result<String, String>,
    campaign: impl FnOnce(&mut dyn FnMut(u64, u64, usize)) -> FuzzReport,
    report: Option<&Path>,
) -> ExitCode {
    if let Some(seed) = replay {
        return match replay_one(seed) {
            Ok(what) => {
                println!("case 0x{seed:016x}: passes ({what})");
                ExitCode::SUCCESS
            }
            Err(e) => {
                println!("case 0x{seed:016x}: FAILS: {e}");
                ExitCode::from(EXIT_MISMATCH)
            }
        };
    }
    let bar = progress_bar();
    let started = std::time::Instant::now();
    let r = campaign(&mut |done, total, fails| show(&bar, done, total, fails));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    print_fuzz_report(&r, started.elapsed().as_secs_f64(), report)
}

/// `pica fuzz --target shader`: a shader-program campaign, or with `replay` one case seed.
pub fn fuzz_shader(
    opts: &crate::fuzz::shader::ShaderFuzzOptions,
    report: Option<&Path>,
    replay: Option<u64>,
) -> ExitCode {
    use crate::fuzz::shader as shader_fuzz;
    run_fuzz_cli(
        replay,
        |seed| {
            let case = pica_vectors::shader_gen::generate(seed);
            let knobs = opts
                .knobs
                .unwrap_or_else(|| shader_fuzz::knobs_for(opts.rtl));
            shader_fuzz::check_with(&case, opts.rtl, knobs)
                .map(|()| format!("{} instructions", case.instructions()))
        },
        |p| shader_fuzz::run(opts, p),
        report,
    )
}

/// `pica fuzz --target tev|fop|rast` once its options are made: the stage's campaign
/// ([`campaign::run_stage`]), or with `replay` one case seed; with `guided` the guided
/// campaign ([`fuzz_stage_guided`]).
pub fn fuzz_stage<V: StageVariant>(
    opts: &TargetOptions<V>,
    report: Option<&Path>,
    replay: Option<u64>,
    guided: Option<StageGuided>,
) -> ExitCode {
    if let Some(g) = guided {
        return fuzz_stage_guided(
            &V::target(opts),
            opts.plan(),
            opts.coverage.as_ref(),
            g,
            report,
        );
    }
    run_fuzz_cli(
        replay,
        |seed| {
            let target = V::target(opts);
            let case = target.generate(seed);
            match target.check(&case) {
                Check::Pass => Ok(<V::Target as StageTarget>::describe(&case)),
                Check::Skipped => Ok("skipped".to_string()),
                Check::Fail(e) => Err(e),
            }
        },
        |p| campaign::run_stage(opts, p),
        report,
    )
}

/// How `pica fuzz --guided` runs on a stage target.
#[derive(Clone, Copy, Debug)]
pub struct StageGuided {
    /// Also run the unguided campaign of the same seed, size and shard (`--versus-unguided`).
    pub versus_unguided: bool,
}

/// `pica fuzz --target tev|fop|rast --rtl --guided` and `--rtl-stages sh --guided`: the guided
/// campaign of `target` ([`crate::fuzz::stage_guided`]) under a progress bar, its RTL points
/// gathered into `sink` (`--rtl-coverage FILE`'s, written by the caller) or a sink of its own,
/// then (with `versus_unguided`) the unguided campaign beside it, and the report with the
/// guided summary: the pool, the mutants, the points hit over the cases.
pub fn fuzz_stage_guided<T: StageTarget + Clone + 'static>(
    target: &T,
    plan: campaign::Plan<'_>,
    sink: Option<&CoverageSink>,
    g: StageGuided,
    report: Option<&Path>,
) -> ExitCode {
    let Some(build) = target.coverage_build() else {
        return fail("--guided: this stage's RTL has no coverage build to guide by");
    };
    let new_sink = || CoverageSink::new(&[build]).map_err(|e| format!("--guided: {e}"));
    let own = match sink {
        Some(s) => s.clone(),
        None => match new_sink() {
            Ok(s) => s,
            Err(e) => return fail(e),
        },
    };
    let bar = progress_bar();
    let started = std::time::Instant::now();
    let run =
        crate::fuzz::stage_guided::run(target, plan, &own, true, |d, t, f| show(&bar, d, t, f));
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let secs = started.elapsed().as_secs_f64();
    let (mut r, mut sum, skipped) = match run {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    if g.versus_unguided {
        let unguided = new_sink().and_then(|s| {
            crate::fuzz::stage_guided::run(target, plan, &s, false, |_, _, _| {}).map(|(_, u, _)| u)
        });
        match unguided {
            Ok(u) => sum.unguided_rtl_points = u.rtl_points.map(|p| p.0),
            Err(e) => return fail(e),
        }
    }
    if skipped > 0 {
        println!("fuzz: {skipped} case(s) skipped (the model alone hit the cycle limit)");
    }
    print_stage_guided(&sum, build);
    r.guided = Some(sum);
    print_fuzz_report(&r, secs, report)
}

/// The guided part of a guided stage campaign's summary.
fn print_stage_guided(sum: &crate::fuzz::report::GuidedSummary, build: CoverageBuild) {
    println!(
        "guided: {} fresh case(s), {} mutant(s); pool {} case(s) ({} from mutants)",
        sum.fresh, sum.mutants, sum.pool, sum.pool_from_mutants
    );
    if let Some((hit, points)) = sum.rtl_points {
        let curve: Vec<String> = sum
            .rtl_points_curve
            .iter()
            .map(|(d, h)| format!("{d}:{h}"))
            .collect();
        println!(
            "RTL points ({}): {hit}/{points} hit; over the cases (case:points) {}",
            build.name(),
            curve.join(" ")
        );
        if let Some(u) = sum.unguided_rtl_points {
            println!("versus unguided: guided {hit}/{points} RTL points, unguided {u}/{points}");
        }
    }
}

/// How a stage campaign runs beside its options: where its report goes (`--report`), one case
/// seed instead (`--replay`), where its RTL code coverage goes (`--rtl-coverage FILE`), and
/// guided or not (`--guided`).
#[derive(Clone, Copy, Debug)]
pub struct StageRun<'a> {
    /// `--report FILE`.
    pub report: Option<&'a Path>,
    /// `--replay CASE_SEED`.
    pub replay: Option<u64>,
    /// `--rtl-coverage FILE`.
    pub rtl_coverage: Option<&'a Path>,
    /// `--guided` on a stage target.
    pub guided: Option<StageGuided>,
}

/// `pica fuzz --target tev|fop|rast` (`rtl`: with `--rtl`; `--rtl-stages tev|fop|rast` is the
/// same with `rtl` true): the variant `variant` parsed, the coverage build run instead with
/// `rtl_coverage` (`--rtl-coverage FILE`, written after the campaign), then [`fuzz_stage`].
pub fn fuzz_stage_target<V: StageVariant>(
    mut opts: TargetOptions<V>,
    variant: &str,
    run: StageRun<'_>,
) -> ExitCode {
    let StageRun {
        report,
        replay,
        rtl_coverage,
        guided,
    } = run;
    let rtl = opts.rtl.is_some();
    let Some(build) = V::coverage_build() else {
        return fail(format!("stage {} has no coverage build", V::STAGE.name));
    };
    let cov = match fuzz_coverage_build(build, rtl, variant, rtl_coverage) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let variant = match V::parse(variant) {
        Ok(_) if cov.is_some() => V::COVERAGE,
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    // A build this binary lacks (a lean build has no injected-bug or coverage models) is a
    // usage error before the campaign, not a failure of every case.
    let built = V::built();
    if rtl && !built.iter().any(|b| b == variant.name()) {
        return fail(
            pica_rtl_bridge::RtlError::MissingVariant(variant.name(), built.join(", ")).to_string(),
        );
    }
    opts.rtl = rtl.then_some(variant);
    with_stage_coverage(cov.as_slice(), rtl_coverage, |s| {
        opts.coverage = s.cloned();
        fuzz_stage(&opts, report, replay, guided)
    })
}

/// `pica fuzz --target pipeline`: random writes spliced into the scenes, through the whole
/// model GPU, or with `replay` one case seed. The summary also tallies how the cases ended.
pub fn fuzz_pipeline(
    opts: &crate::fuzz::pipe::PipeFuzzOptions,
    report: Option<&Path>,
    replay: Option<u64>,
    coverage: bool,
) -> ExitCode {
    use crate::fuzz::pipe as pipe_fuzz;
    let mut db = coverage.then(|| pica_model::cov::CoverageDb::new("fuzz pipeline"));
    let mut seen = None;
    let code = run_fuzz_cli(
        replay,
        |seed| {
            let c = pipe_fuzz::generate(seed);
            pipe_fuzz::check_cov(&c, &opts.knobs, false)
                .0
                .map(|e| format!("{}, {} spliced command(s): {e:?}", c.scene, c.splices.len()))
        },
        |p| {
            let (r, t) = pipe_fuzz::run(opts, db.as_mut(), p);
            seen = Some((r.seed, r.shard.clone()));
            println!(
                "outcomes: {} finished, {} command-list hangs, {} pipeline hangs, {} at the \
                 cycle limit, {} lists overwritten by the pipeline",
                t.finished, t.list_hang, t.pipeline_hang, t.limit, t.overwritten
            );
            r
        },
        report,
    );
    if let (Some(db), Some((seed, shard))) = (&mut db, seen) {
        let source = format!("fuzz pipeline seed {seed} shard {shard}");
        if let Err(e) = write_coverage(db, source, report) {
            return e;
        }
    }
    code
}

/// `--variant`'s help: the front end's and the shader units' builds, then the builds of each
/// stage the kit describes, read from its description (so a build added there is listed here).
fn variant_help() -> String {
    let kit = |names: String| names.trim_start_matches("default, ").to_string();
    format!(
        "RTL build for --rtl / --rtl-stages: default, or another build (regs: mask, packer; \
         shader: add_round, loop_extra, knobs_alt; sh stage: add_round, loop_extra; tev: {}; \
         fop: {}; rast: {}; tex: {}; `pica stages` describes each)",
        kit(TevVariant::short_names()),
        kit(FopVariant::short_names()),
        kit(RastVariant::short_names()),
        kit(TexVariant::short_names()),
    )
}

/// The options of `pica fuzz --rtl-stages LIST`.
#[derive(Clone, Debug)]
pub struct StageFuzzArgs {
    /// The stages in RTL.
    pub set: StageSet,
    /// Cases in the campaign.
    pub cases: u64,
    /// Campaign seed.
    pub seed: u64,
    /// This shard's index and the shard count.
    pub shard: (u64, u64),
    /// The RTL build's name (`--variant`).
    pub variant: String,
    /// Where shrunk failures go.
    pub regressions: PathBuf,
    /// Stop after this many failures.
    pub max_failures: usize,
    /// How the FOP stage's memory port (`--rtl-stages fop`) or the RAST stage's early-depth
    /// port (`--rtl-stages rast`) is answered.
    pub mem_latency: pica_rtl_bridge::fop_stage::MemLatency,
    /// How FOP's AXI4 memory port reorders its responses (`--mem-reorder`).
    pub mem_reorder: pica_rtl_bridge::axi::Reorder,
    /// The knobs (`--knob`): checked against the RTL stages by the caller
    /// ([`stages::check_knobs`]).
    pub knobs: pica_model::knobs::Knobs,
}

/// The options of a one-stage campaign against `rtl` from the campaign's arguments `a` (the
/// stage set aside: the build type names the stage).
fn target_options<V>(rtl: Option<V>, a: &StageFuzzArgs) -> TargetOptions<V> {
    TargetOptions {
        seed: a.seed,
        shard: a.shard,
        latency: a.mem_latency,
        reorder: a.mem_reorder,
        regressions: Some(a.regressions.clone()),
        max_failures: a.max_failures,
        knobs: a.knobs,
        ..TargetOptions::new(rtl, a.cases)
    }
}

/// Why `--guided` cannot run as asked, if it cannot: register sequences and the pipeline are
/// guided by functional bins (and the front end's points); a stage target (`--target
/// tev|fop|rast --rtl`, `--rtl-stages` with one of tev, fop, rast or sh) by its RTL coverage
/// build's points, so it needs the RTL; the single shader unit has no coverage build.
fn check_stage_guided(
    target: FuzzTarget,
    rtl: bool,
    rtl_stages: Option<&StageSet>,
    keep_new: &Option<PathBuf>,
) -> Result<(), String> {
    let stage = match rtl_stages {
        Some(set) => {
            let n = set.names();
            if ![
                desc::TEV.name,
                desc::FOP.name,
                desc::RAST.name,
                desc::SH.name,
            ]
            .contains(&n.as_str())
            {
                return Err(format!(
                    "--guided --rtl-stages {n}: a guided stage campaign runs one stage with a \
                     coverage build (tev, fop, rast or sh alone)"
                ));
            }
            true
        }
        None => match target {
            FuzzTarget::Regs | FuzzTarget::Pipeline => false,
            FuzzTarget::Shader => {
                return Err(
                    "--guided --target shader: the single shader unit has no coverage \
                     build to guide by (--rtl-stages sh --guided guides the SH stage)"
                        .into(),
                )
            }
            FuzzTarget::Tev | FuzzTarget::Fop | FuzzTarget::Rast | FuzzTarget::Tex if !rtl => {
                return Err(
                    "--guided --target tev|fop|rast|tex is guided by the stage's RTL code \
                     coverage: it needs --rtl"
                        .into(),
                )
            }
            FuzzTarget::Tev | FuzzTarget::Fop | FuzzTarget::Rast | FuzzTarget::Tex => true,
        },
    };
    if stage && keep_new.is_some() {
        return Err(
            "--keep-new keeps the cases that reached a new functional bin: --guided \
             --target regs|pipeline (a stage campaign's pool is not written)"
                .into(),
        );
    }
    Ok(())
}

/// A usage error unless this binary has the RTL build `name` of a bridge whose compiled builds
/// are `built`: a lean build has only `scripts/run`'s models, and a campaign on a missing build
/// would fail every case on it and write each as a regression bundle.
fn check_built(name: &'static str, built: Vec<String>) -> Result<(), String> {
    if built.iter().any(|b| b == name) {
        Ok(())
    } else {
        Err(pica_rtl_bridge::RtlError::MissingVariant(name, built.join(", ")).to_string())
    }
}

/// `pica fuzz --rtl-stages LIST`: `fe` alone is the register fuzz against the RTL front end
/// (`--rtl`), `tev` / `fop` / `rast` alone the stage fuzz with `--rtl` ([`crate::fuzz::tev`],
/// [`crate::fuzz::fop`], [`crate::fuzz::rast`]), a list with `sh` the SH stage fuzz
/// ([`crate::fuzz::sh_stage`]).
///
/// With `rtl_coverage` (`--rtl-coverage FILE`) the one RTL stage runs its coverage build and
/// the campaign's RTL code coverage is written to FILE ([`with_stage_coverage`]); a list of
/// several stages is refused (exit 2): fuzz them one at a time.
pub fn fuzz_stages(a: &StageFuzzArgs, run: StageRun<'_>) -> ExitCode {
    let names = a.set.names();
    // One pipeline stage alone: its own target with `--rtl` (`--target tev|fop|rast --rtl`).
    let v = a.variant.as_str();
    match names.as_str() {
        n if n == desc::TEV.name => {
            let o = target_options(Some(TevVariant::Default), a);
            return fuzz_stage_target(o, v, run);
        }
        n if n == desc::FOP.name => {
            let o = target_options(Some(FopVariant::Default), a);
            return fuzz_stage_target(o, v, run);
        }
        n if n == desc::RAST.name => {
            let o = target_options(Some(RastVariant::Default), a);
            return fuzz_stage_target(o, v, run);
        }
        n if n == desc::TEX.name => {
            let o = target_options(Some(TexVariant::Default), a);
            return fuzz_stage_target(o, v, run);
        }
        _ => {}
    }
    let (report, replay, rtl_coverage) = (run.report, run.replay, run.rtl_coverage);
    let guided = run.guided;
    let cov = match CoverageBuild::from_stage(&names) {
        // The front end's coverage is the register fuzz's (below).
        Some(b) if b != CoverageBuild::Fe => {
            match fuzz_coverage_build(b, true, &a.variant, rtl_coverage) {
                Ok(c) => c,
                Err(e) => return fail(e),
            }
        }
        Some(_) => None,
        None if rtl_coverage.is_some() => {
            return fail(format!(
                "--rtl-coverage counts one RTL stage per fuzz campaign (--rtl-stages fe, sh, \
                 tev, fop or rast alone); {names} runs several: fuzz them one at a time, or use \
                 pica lockstep --rtl-stages {names} --rtl-coverage FILE (one file per stage)"
            ))
        }
        None => None,
    };
    if cov.is_none() {
        // The front end alone (its register fuzz writes `rtl_coverage` itself), or no FILE.
        return fuzz_stages_run(a, report, replay, rtl_coverage, None, guided);
    }
    with_stage_coverage(cov.as_slice(), rtl_coverage, |sink| {
        fuzz_stages_run(a, report, replay, None, sink, guided)
    })
}

/// [`fuzz_stages`] once the coverage is settled: `fe_coverage` is the front end's
/// `--rtl-coverage FILE`; with `coverage` the one RTL pipeline stage runs its coverage build
/// (`--variant` was checked to be the default), whose counters go there.
fn fuzz_stages_run(
    a: &StageFuzzArgs,
    report: Option<&Path>,
    replay: Option<u64>,
    fe_coverage: Option<&Path>,
    coverage: Option<&CoverageSink>,
    guided: Option<StageGuided>,
) -> ExitCode {
    use crate::fuzz::sh_stage::{Draw, ShStageTarget, StageFuzzOptions, Verdict};
    use pica_rtl_bridge::shader::ShVariant;
    if !a.set.has_pipeline_stages() {
        if !a.set.has_front_end() {
            return fail("--rtl-stages names no stage");
        }
        let variant = match parse_variant(&a.variant) {
            Ok(v) => v,
            Err(e) => return fail(e),
        };
        let opts = FuzzOptions {
            cases: a.cases,
            seed: a.seed,
            shard: a.shard,
            rtl: Some(variant),
            regressions: a.regressions.clone(),
            max_failures: a.max_failures,
            knobs: a.knobs,
        };
        return fuzz(&opts, report, replay, true, fe_coverage);
    }
    let variant = match crate::fuzz::shader::parse_sh_variant(&a.variant) {
        Ok(pica_rtl_bridge::shader::ShVariant::KnobsAlt) => return fail(
            "--rtl-stages sh: the SH stage has no knobs_alt build (default, add_round, loop_extra)",
        ),
        // pica_top (fe,sh) is built with the default shader units only.
        Ok(v) if a.set.has_front_end() && v != pica_rtl_bridge::shader::ShVariant::Default => {
            return fail(format!(
                "--rtl-stages {}: pica_top has only the default shader-unit build (--variant {} \
                 needs --rtl-stages sh)",
                a.set.names(),
                v.name()
            ))
        }
        Ok(_) if coverage.is_some() => ShVariant::Coverage,
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    // The SH stage's build: `pica_top`'s own shader units with `fe`, else the stage top's
    // (a coverage build brings its own check).
    let sh = a.set.rows_named(&[desc::SH.name]);
    let built = match (coverage, sh, a.set.has_front_end()) {
        (None, true, true) => {
            check_built(Variant::Default.name(), pica_rtl_bridge::Rtl::variants())
        }
        (None, true, false) => check_built(variant.name(), pica_rtl_bridge::RtlSh::variants()),
        _ => Ok(()),
    };
    if let Err(e) = built {
        return fail(e);
    }
    if let Some(seed) = replay {
        let case = pica_vectors::shader_gen::generate_low(seed);
        let draw = Draw::of(seed);
        return match crate::fuzz::sh_stage::check_with(
            &case,
            &draw,
            &a.set,
            variant,
            a.mem_latency,
            &a.knobs,
            coverage,
        ) {
            Verdict::Pass => {
                println!(
                    "case 0x{seed:016x}: passes ({} instructions)",
                    case.instructions()
                );
                ExitCode::SUCCESS
            }
            Verdict::Skipped => {
                println!("case 0x{seed:016x}: skipped (the model alone does not finish)");
                ExitCode::SUCCESS
            }
            Verdict::Fail(e) => {
                println!("case 0x{seed:016x}: FAILS: {e}");
                ExitCode::from(EXIT_MISMATCH)
            }
        };
    }
    let opts = StageFuzzOptions {
        cases: a.cases,
        seed: a.seed,
        shard: a.shard,
        set: a.set.clone(),
        variant,
        mem_latency: a.mem_latency,
        regressions: Some(a.regressions.clone()),
        max_failures: a.max_failures,
        knobs: a.knobs,
        coverage: coverage.cloned(),
    };
    if let Some(g) = guided {
        let target = ShStageTarget::of(&opts);
        return fuzz_stage_guided(&target, plan_of!(opts), coverage, g, report);
    }
    let bar = progress_bar();
    let started = std::time::Instant::now();
    let (r, skipped) =
        crate::fuzz::sh_stage::run(&opts, |done, total, fails| show(&bar, done, total, fails));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    println!("fuzz: {skipped} case(s) skipped (the model alone hit the cycle limit)");
    print_fuzz_report(&r, started.elapsed().as_secs_f64(), report)
}

fn print_fuzz_report(r: &FuzzReport, secs: f64, report: Option<&Path>) -> ExitCode {
    let unit = if r.against.starts_with("shader") {
        "instruction"
    } else if r.against.starts_with("tev")
        || r.against.starts_with("fop")
        || r.against.starts_with("tex")
    {
        "fragment"
    } else if r.against.starts_with("rast") {
        "triangle"
    } else {
        "command"
    };
    println!(
        "fuzz: seed {} shard {} against {}: {} case(s) in {secs:.1} s ({:.0} cases/s), {} failure(s)",
        r.seed,
        r.shard,
        r.against,
        r.cases_run,
        r.cases_run as f64 / secs.max(1e-9),
        r.failures.len()
    );
    if r.loops > 0 {
        println!(
            "  {} case(s) ended early, their command stream provably repeating to the cycle \
             limit (the same jump in the same state twice, or a walk through zero memory)",
            r.loops
        );
    }
    for f in &r.failures {
        println!(
            "  case {} (seed {}): {}\n    shrunk from {} to {} {unit}(s); bundle {}",
            f.case_index, f.case_seed, f.message, f.original_commands, f.commands, f.bundle
        );
    }
    if let Some(p) = report {
        if let Err(e) = write_json(p, &r) {
            return fail(e);
        }
    }
    let _ = std::io::stdout().flush();
    ExitCode::from(if r.failures.is_empty() {
        EXIT_OK
    } else {
        EXIT_MISMATCH
    })
}

/// The arguments of `pica fuzz`.
#[derive(clap::Args)]
pub struct FuzzArgs {
    /// `pica fuzz merge REPORT...`: merge shard reports.
    #[command(subcommand)]
    sub: Option<FuzzCmd>,
    /// What to fuzz: register sequences on pica_top, shader programs on one shader unit
    /// (pica_sh_unit_top), combiner configurations and fragments on the TEV stage
    /// (pica_tev_top), configurations, framebuffers and fragments on the FOP stage
    /// (pica_fop_top), or configurations, early-depth buffers and clip-space triangles on
    /// CLIP + RAST (pica_rast_top); shader, tev, fop and rast failures are saved as stage
    /// bundles.
    #[arg(long, value_enum, default_value = "regs")]
    target: FuzzTarget,
    /// Cases in the campaign.
    #[arg(long, default_value_t = 256)]
    cases: u64,
    /// Campaign seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Run only cases i with i % N == I.
    #[arg(long, value_name = "I/N", default_value = "0/1", value_parser = crate::cli::parse_shard)]
    shard: (u64, u64),
    /// Compare against the RTL in lockstep.
    #[arg(long)]
    rtl: bool,
    /// Stage fuzzing: `sh` runs random shader programs as vertex shaders through the
    /// whole model GPU, model alone vs the SH stage in RTL; `fe` is the register fuzz
    /// with --rtl; `tev`, `fop` and `rast` are --target tev|fop|rast --rtl.
    #[arg(long, value_name = "LIST", value_parser = crate::lockstep::stages::StageSet::parse)]
    rtl_stages: Option<crate::lockstep::stages::StageSet>,
    /// RTL build for --rtl / --rtl-stages (the help's lists of the kit's stages come from
    /// their descriptions: [`variant_help`]).
    #[arg(long, default_value = "default", help = variant_help())]
    variant: String,
    /// FOP / RAST with --rtl: how the stage's memory port (FOP) or early-depth port (RAST)
    /// is answered: 0 (the clock after the request), N extra clocks, or `rand:MAX[:SEED]`
    /// (random extra clocks up to MAX, and the port busy one clock in five).
    #[arg(long, value_name = "0|N|rand:MAX[:SEED]", default_value = "0",
          value_parser = pica_rtl_bridge::fop_stage::MemLatency::parse)]
    mem_latency: pica_rtl_bridge::fop_stage::MemLatency,
    /// FOP with --rtl: how the AXI4 memory port orders its responses: `none` (in order),
    /// `ids` (a due response of another ID may go first) or `interleave` (also read bursts of
    /// different IDs mixed beat by beat). Within one ID the order is always kept (AXI4).
    #[arg(long, value_name = "none|ids|interleave", default_value = "none")]
    mem_reorder: pica_rtl_bridge::axi::Reorder,
    /// Write the report as JSON.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Where shrunk failures are saved as bundles.
    #[arg(long, value_name = "DIR", default_value = "vectors/regressions")]
    regressions: PathBuf,
    /// Stop after this many failures.
    #[arg(long, default_value_t = 1)]
    max_failures: usize,
    /// Re-check the single case with this case seed (from a report).
    #[arg(long, value_name = "CASE_SEED", value_parser = crate::input::parse_u64)]
    replay: Option<u64>,
    /// --target regs|pipeline: no functional coverage (default: sampled, the database
    /// written beside --report as .cov.json, the bins reached in the summary).
    #[arg(long)]
    no_coverage: bool,
    /// Coverage-guided. --target regs|pipeline: keep every case that reached a new
    /// functional bin (regs with --rtl: or hit a new RTL code-coverage point of the front
    /// end's coverage build, cov_fe) and spend half the budget on mutants of those (steered
    /// to bins not reached yet, spliced, a draw duplicated, one command changed); the
    /// summary gives the bins (and RTL points) reached and the pool. --target tev|fop|rast
    /// --rtl, or --rtl-stages with one of tev, fop, rast, sh: keep every case that hit a new
    /// line, branch or toggle point of the stage's coverage build (cov_tev, cov_fop,
    /// cov_rast, cov_sh; run beside the --variant build when that is not it) and spend half
    /// the budget on mutants of those (operations spliced, duplicated, removed or taken from
    /// another case); the summary gives the pool and the RTL points hit over the cases.
    #[arg(long)]
    guided: bool,
    /// With --guided: write each case that reached a new bin as a bundle in DIR (new corpus
    /// candidates for `pica cov select`; the coverage database names these bundles as first
    /// hits). Without it a mutant's first hit is `guided 0xSEED`, which only a rerun with
    /// --keep-new makes a bundle of.
    #[arg(long, value_name = "DIR", requires = "guided")]
    keep_new: Option<PathBuf>,
    /// With --guided: also run the unguided campaign of the same seed, size and shard and
    /// print both coverage figures (with --guided --rtl and for the stage targets, the RTL
    /// points hit too).
    #[arg(long, requires = "guided")]
    versus_unguided: bool,
    /// --target regs|tev|fop|rast --rtl, or --rtl-stages with one stage (fe, sh, tev, fop,
    /// rast): run the coverage build of that RTL stage (cov_fe: pica_top verilated with
    /// --coverage, without the SH stage; cov_tev, cov_fop, cov_rast: the stage tops;
    /// cov_sh: pica_sh_top, the four-unit SH stage) and write the RTL line, branch and
    /// toggle points the campaign's cases (and shrink steps) hit to FILE (Verilator's
    /// coverage.dat; each shard writes its own, `verilator_coverage --write` merges them,
    /// `pica cov rtl report` reports them). The RTL as written only (--variant default).
    /// Refused (exit 2) for --target shader (the single shader unit has no coverage build)
    /// and pipeline, and for several --rtl-stages at once (pica lockstep takes those).
    /// --guided --rtl guides by the front end's points with or without FILE.
    #[arg(long, value_name = "FILE")]
    rtl_coverage: Option<PathBuf>,
    /// Knobs every case runs with (regs, shader, pipeline and --rtl-stages sh targets; saved
    /// bundles record them). With RTL, knobs the build does not implement are refused
    /// (exit 2); --target tev|fop|rast take none.
    #[command(flatten)]
    knobs: crate::knobs::KnobArgs,
}

/// `pica fuzz` subcommands.
#[derive(clap::Subcommand)]
pub enum FuzzCmd {
    /// Merge the JSON reports (--report) of the shards of one campaign (--shard I/N, every I of
    /// one N once) into the report of the whole campaign: cases summed, failures in case
    /// order. Prints it, or writes it with --report.
    ///
    /// Exit status: 0 no failure, 1 failures, 2 bad input (reports of different campaigns, a
    /// shard missing or given twice).
    Merge {
        /// The shard reports.
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Write the merged report here instead of standard output.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
    },
}

/// What `pica fuzz --target` fuzzes.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FuzzTarget {
    /// Register sequences on pica_top (proptest strategies, bundles).
    Regs,
    /// Shader programs on one shader unit (stage bundles).
    Shader,
    /// Combiner configurations and fragment streams on the TEV stage (pica_tev_top; stage
    /// bundles).
    Tev,
    /// Configurations, framebuffers and fragment streams on the FOP stage (pica_fop_top;
    /// stage bundles).
    Fop,
    /// Configurations, early-depth buffers and clip-space triangles on CLIP + RAST
    /// (pica_rast_top; stage bundles).
    Rast,
    /// Texture configurations, textures in every format and fragments at wrap and LOD edges
    /// on texture units 0-2 (pica_tex_top; stage bundles).
    Tex,
    /// Random register writes spliced into the scene library's command lists, through the
    /// whole model GPU (model alone; case bundles).
    Pipeline,
}

/// `pica fuzz merge REPORT... [--report FILE]`.
fn fuzz_merge(paths: &[PathBuf], out: Option<&std::path::Path>) -> ExitCode {
    let mut reports = Vec::new();
    for p in paths {
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => return fail(format!("{}: cannot read: {e}", p.display())),
        };
        match serde_json::from_str::<crate::fuzz::report::FuzzReport>(&text) {
            Ok(r) => reports.push(r),
            Err(e) => return fail(format!("{}: not a fuzz report: {e}", p.display())),
        }
    }
    let merged = match crate::fuzz::report::merge_reports(&reports) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    let json = match serde_json::to_string_pretty(&merged) {
        Ok(j) => j,
        Err(e) => return fail(e.to_string()),
    };
    match out {
        Some(p) => {
            if let Err(e) = std::fs::write(p, format!("{json}\n")) {
                return fail(format!("{}: cannot write: {e}", p.display()));
            }
            println!(
                "fuzz merge: {} shard report(s) of seed {} against {}: {} of {} case(s), {} failure(s) -> {}",
                reports.len(),
                merged.seed,
                merged.against,
                merged.cases_run,
                merged.cases,
                merged.failures.len(),
                p.display()
            );
        }
        None => println!("{json}"),
    }
    let shards: Vec<(u64, PathBuf)> = reports
        .iter()
        .zip(paths)
        .map(|(r, p)| {
            let i = r.shard.split('/').next().and_then(|i| i.parse().ok());
            (i.unwrap_or(0), p.clone())
        })
        .collect();
    match crate::cov::functional::merge_beside(&shards, out) {
        Ok(Some(db)) if out.is_some() => {
            let (c, t) = db.total();
            println!("coverage: {c}/{t} bins");
        }
        Ok(_) => {}
        Err(e) => return fail(e),
    }
    if merged.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The knobs of `pica fuzz`, or why they cannot run (exit 2): every target takes the syntax,
/// and where the model runs a whole GPU (`--target regs`, `--rtl-stages` with `sh`) or one
/// shader unit (`--target shader`: its knobs only) they reach it; against RTL they must be ones
/// the build implements ([`crate::lockstep::stages::check_knobs`]; the one-unit RTL: its
/// variant's knobs). `--target tev|fop|rast` (and `--rtl-stages tev|fop|rast`) run one model
/// stage: they take the knobs of the stages they run (`STAGE_KNOBS` of each fuzzer: TEV; FOP;
/// CLIP and RAST), which their cases and saved stage bundles carry; another stage's knob
/// would do nothing and is refused, and so is a non-default one against the RTL stage, which
/// implements the defaults only.
fn fuzz_knobs(
    target: FuzzTarget,
    rtl: bool,
    rtl_stages: Option<&crate::lockstep::stages::StageSet>,
    variant: &str,
    args: &crate::knobs::KnobArgs,
) -> Result<pica_model::knobs::Knobs, String> {
    use crate::lockstep::stages::{check_knobs, StageSet};
    let knobs = args.knobs();
    if args.is_empty() {
        return Ok(knobs);
    }
    let sh_default = pica_rtl_bridge::shader::ShVariant::Default;
    // The TEX build a tex campaign runs (its knobs_alt build follows other tex-* knobs).
    let tex_variant = crate::fuzz::tex::parse_tex_variant(variant)
        .unwrap_or(pica_rtl_bridge::tex_stage::TexVariant::Default);
    // A one-stage fuzzer: the knobs of its own stages only; with RTL, the defaults only.
    let one_stage = |what: &str, stages: &[&str], rtl: Option<&StageSet>| {
        if let Some(s) = args
            .knobs
            .iter()
            .find(|s| !stages.contains(&pica_model::knobs::stage_of(s.name).unwrap_or("")))
        {
            return Err(format!(
                "--knob {s}: a knob of stage {}, which {what} does not run (it takes the knobs \
                 of {}; run other knobs through the whole GPU: pica fuzz --target regs, \
                 pica lockstep or pica scene render)",
                pica_model::knobs::stage_of(s.name).unwrap_or("?"),
                stages.join(", ")
            ));
        }
        if let Some(set) = rtl {
            check_knobs(set, sh_default, tex_variant, &knobs)?;
        }
        Ok(knobs)
    };
    let stage_set = |name: &str| StageSet::parse(name);
    if let Some(set) = rtl_stages {
        if set.rows_named(&["sh"]) {
            check_knobs(set, sh_default, tex_variant, &knobs)?;
            return Ok(knobs);
        }
        match set.names().as_str() {
            "tev" => {
                let k = crate::fuzz::tev::STAGE_KNOBS;
                return one_stage("--rtl-stages tev", k, Some(set));
            }
            "fop" => {
                let k = crate::fuzz::fop::STAGE_KNOBS;
                return one_stage("--rtl-stages fop", k, Some(set));
            }
            "rast" => {
                let k = crate::fuzz::rast::STAGE_KNOBS;
                return one_stage("--rtl-stages rast", k, Some(set));
            }
            "tex" => {
                let k = crate::fuzz::tex::STAGE_KNOBS;
                return one_stage("--rtl-stages tex", k, Some(set));
            }
            _ => {}
        }
        if set.has_pipeline_stages() {
            return Err(format!(
                "--rtl-stages {} runs RTL stages without the whole GPU: --knob is not \
                 supported there (run the knob through the whole GPU: pica fuzz --target regs, \
                 --rtl-stages with sh, pica lockstep or pica scene render)",
                set.names()
            ));
        }
        check_knobs(&StageSet::front_end(), sh_default, tex_variant, &knobs)?;
        return Ok(knobs);
    }
    match target {
        FuzzTarget::Regs => {
            if rtl {
                check_knobs(&StageSet::front_end(), sh_default, tex_variant, &knobs)?;
            }
            Ok(knobs)
        }
        FuzzTarget::Shader => {
            let shader = args.shader_knobs()?;
            if rtl {
                let v = crate::fuzz::shader::parse_sh_variant(variant)?;
                if v.knobs() != shader {
                    return Err(format!(
                        "--target shader --rtl --variant {}: that build implements {}; the \
                         knobs given differ (--variant knobs_alt is every shader knob flipped but \
                         min-subnormal)",
                        v.name(),
                        if v.knobs() == pica_model::knobs::ShaderKnobs::default() {
                            "the default knobs"
                        } else {
                            "every shader knob but min-subnormal flipped"
                        }
                    ));
                }
            }
            Ok(knobs)
        }
        FuzzTarget::Tev => one_stage(
            "--target tev",
            crate::fuzz::tev::STAGE_KNOBS,
            rtl.then(|| stage_set("tev")).transpose()?.as_ref(),
        ),
        FuzzTarget::Fop => one_stage(
            "--target fop",
            crate::fuzz::fop::STAGE_KNOBS,
            rtl.then(|| stage_set("fop")).transpose()?.as_ref(),
        ),
        FuzzTarget::Rast => one_stage(
            "--target rast",
            crate::fuzz::rast::STAGE_KNOBS,
            rtl.then(|| stage_set("rast")).transpose()?.as_ref(),
        ),
        FuzzTarget::Tex => one_stage(
            "--target tex",
            crate::fuzz::tex::STAGE_KNOBS,
            rtl.then(|| stage_set("tex")).transpose()?.as_ref(),
        ),
        // The model alone, the whole GPU: every knob applies.
        FuzzTarget::Pipeline => Ok(knobs),
    }
}

/// Runs `pica fuzz` and `pica fuzz merge`.
pub fn main(args: FuzzArgs) -> ExitCode {
    match args {
        FuzzArgs {
            sub: Some(FuzzCmd::Merge { reports, report }),
            ..
        } => fuzz_merge(&reports, report.as_deref()),
        FuzzArgs {
            sub: None,
            target,
            cases,
            seed,
            shard,
            rtl,
            rtl_stages,
            variant,
            mem_latency,
            mem_reorder,
            report,
            regressions,
            max_failures,
            replay,
            no_coverage,
            guided,
            keep_new,
            versus_unguided,
            rtl_coverage,
            knobs,
        } => {
            if rtl_coverage.is_some()
                && rtl_stages.is_none()
                && matches!(target, FuzzTarget::Shader | FuzzTarget::Pipeline)
            {
                return fail(
                    "--rtl-coverage counts the code coverage of an RTL stage: --target regs, \
                 tev, fop or rast with --rtl, or --rtl-stages fe|sh|tev|fop|rast (--target \
                 shader runs the single shader unit, which has no coverage build: \
                 --rtl-stages sh counts the SH stage's; --target pipeline runs no RTL)",
                );
            }
            // A stage target or one RTL stage: guided by the stage's RTL coverage build.
            let stage_guided = guided
                && (rtl_stages.is_some()
                    || matches!(
                        target,
                        FuzzTarget::Tev | FuzzTarget::Fop | FuzzTarget::Rast | FuzzTarget::Tex
                    ));
            if guided {
                if let Err(e) = check_stage_guided(target, rtl, rtl_stages.as_ref(), &keep_new) {
                    return fail(e);
                }
            }
            if guided && (no_coverage || replay.is_some()) {
                return fail(
                    "--guided needs functional coverage and a campaign (not --no-coverage or \
                 --replay; replay a guided mutant from its bundle with pica vectors check)",
                );
            }
            let knobs = match fuzz_knobs(target, rtl, rtl_stages.as_ref(), &variant, &knobs) {
                Ok(k) => k,
                Err(e) => return fail(e),
            };
            let stage_guided = stage_guided.then_some(StageGuided { versus_unguided });
            let common = StageFuzzArgs {
                set: rtl_stages.clone().unwrap_or_default(),
                cases,
                seed,
                shard,
                variant: variant.clone(),
                regressions: regressions.clone(),
                max_failures: max_failures.max(1),
                mem_latency,
                mem_reorder,
                knobs,
            };
            let run = StageRun {
                report: report.as_deref(),
                replay,
                rtl_coverage: rtl_coverage.as_deref(),
                guided: stage_guided,
            };
            match (target, rtl_stages) {
                (_, Some(_)) => fuzz_stages(&common, run),
                (FuzzTarget::Regs, None) => {
                    let variant = match crate::cli::parse_variant(&variant) {
                        Ok(v) => v,
                        Err(e) => return fail(e),
                    };
                    // The build the register fuzz runs (a coverage file brings its own).
                    if rtl && rtl_coverage.is_none() {
                        let name = variant.front_end().name();
                        if let Err(e) = check_built(name, pica_rtl_bridge::Rtl::variants()) {
                            return fail(e);
                        }
                    }
                    let opts = FuzzOptions {
                        cases,
                        seed,
                        shard,
                        rtl: rtl.then_some(variant),
                        regressions,
                        max_failures: max_failures.max(1),
                        knobs,
                    };
                    if guided {
                        return fuzz_guided(
                            &opts,
                            report.as_deref(),
                            keep_new.as_deref(),
                            versus_unguided,
                            rtl_coverage.as_deref(),
                        );
                    }
                    fuzz(
                        &opts,
                        report.as_deref(),
                        replay,
                        !no_coverage,
                        rtl_coverage.as_deref(),
                    )
                }
                (FuzzTarget::Tev, None) => {
                    let o = target_options(rtl.then_some(TevVariant::Default), &common);
                    fuzz_stage_target(o, &variant, run)
                }
                (FuzzTarget::Fop, None) => {
                    let o = target_options(rtl.then_some(FopVariant::Default), &common);
                    fuzz_stage_target(o, &variant, run)
                }
                (FuzzTarget::Rast, None) => {
                    let o = target_options(rtl.then_some(RastVariant::Default), &common);
                    fuzz_stage_target(o, &variant, run)
                }
                (FuzzTarget::Tex, None) => {
                    let o = target_options(rtl.then_some(TexVariant::Default), &common);
                    fuzz_stage_target(o, &variant, run)
                }
                (FuzzTarget::Pipeline, None) => {
                    if rtl {
                        return fail(
                            "--target pipeline runs the model alone (no RTL of the whole \
                         pipeline yet); use --rtl-stages for the RTL stages",
                        );
                    }
                    let opts = crate::fuzz::pipe::PipeFuzzOptions {
                        cases,
                        seed,
                        shard,
                        regressions,
                        max_failures: max_failures.max(1),
                        knobs,
                    };
                    if guided {
                        return fuzz_pipeline_guided(
                            &opts,
                            report.as_deref(),
                            keep_new.as_deref(),
                            versus_unguided,
                        );
                    }
                    fuzz_pipeline(&opts, report.as_deref(), replay, !no_coverage)
                }
                (FuzzTarget::Shader, None) => {
                    let variant = match crate::fuzz::shader::parse_sh_variant(&variant) {
                        Ok(v) => v,
                        Err(e) => return fail(e),
                    };
                    if rtl {
                        let built = pica_rtl_bridge::shader::RtlShaderUnit::variants();
                        if let Err(e) = check_built(variant.name(), built) {
                            return fail(e);
                        }
                    }
                    let opts = crate::fuzz::shader::ShaderFuzzOptions {
                        cases,
                        seed,
                        shard,
                        rtl: rtl.then_some(variant),
                        regressions: Some(regressions),
                        max_failures: max_failures.max(1),
                        knobs: (knobs != pica_model::knobs::Knobs::default())
                            .then_some(knobs.shader),
                    };
                    fuzz_shader(&opts, report.as_deref(), replay)
                }
            }
        }
    }
}
