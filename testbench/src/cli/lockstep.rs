//! `pica lockstep`: the model against the RTL, front end (cycle-exact) or pipeline stages
//! (transaction-exact), case by case, with the table and JSON report.

use super::rtl_coverage::{rtl_coverage_finish, rtl_coverage_start};
use super::{fail, write_json, EXIT_MISMATCH, EXIT_OK};
use crate::lockstep::stages::{self, StageLockstepOptions, StageSet};
use crate::lockstep::{self, Options, Report};
use pica_rtl_bridge::RtlCoverage;
use pica_vectors::case::Case;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One compared case's result as the lockstep commands print and save it.
trait CaseReport: serde::Serialize {
    /// Agreed on everything.
    fn equal(&self) -> bool;
    /// The table row (without the result column).
    fn row(&self) -> String;
    /// The full text report.
    fn text(&self) -> String;
}

impl CaseReport for Report {
    fn equal(&self) -> bool {
        self.is_equal()
    }
    fn row(&self) -> String {
        format!(
            "{:<40} {:>7} {:>9}  {:<12}",
            self.case, self.beats, self.cycles, self.outcome.kind
        )
    }
    fn text(&self) -> String {
        lockstep::text_report(self)
    }
}

impl CaseReport for stages::StageReport {
    fn equal(&self) -> bool {
        self.is_equal()
    }
    fn row(&self) -> String {
        format!(
            "{:<32} {:>8} {:>9} {:>9}  {:<12}",
            self.case,
            self.compared.get("commit").copied().unwrap_or(0),
            self.model_cycles,
            self.mixed_cycles,
            self.outcome.kind
        )
    }
    fn text(&self) -> String {
        stages::text_report(self)
    }
}

/// Runs `compare` on every case. Several cases: one table row each under `header` (the first
/// mismatch stops the run and gets the full report), then the `summary` line; one case: the
/// report itself. `report` receives the JSON (one object, or a list).
fn compare_cases<R: CaseReport>(
    cases: &[Case],
    header: &str,
    summary: &str,
    report: Option<&Path>,
    mut compare: impl FnMut(&Case) -> Result<R, String>,
) -> ExitCode {
    let mut reports: Vec<R> = Vec::new();
    let mut mismatch = false;
    let table = cases.len() > 1;
    if table {
        println!("{header} result");
    }
    for case in cases {
        let r = match compare(case) {
            Ok(r) => r,
            Err(e) => return fail(e),
        };
        if table {
            println!(
                "{} {}",
                r.row(),
                if r.equal() { "equal" } else { "MISMATCH" }
            );
        }
        if !table || !r.equal() {
            print!("{}", r.text());
        }
        mismatch |= !r.equal();
        reports.push(r);
        if mismatch {
            break;
        }
    }
    if table {
        println!(
            "{} case(s) {summary}: {}",
            reports.len(),
            if mismatch { "MISMATCH" } else { "all equal" }
        );
    }
    if let Some(p) = report {
        let doc = if reports.len() == 1 {
            serde_json::to_value(&reports[0])
        } else {
            serde_json::to_value(&reports)
        };
        if let Err(e) = doc
            .map_err(|e| e.to_string())
            .and_then(|d| write_json(p, &d))
        {
            return fail(e);
        }
    }
    ExitCode::from(if mismatch { EXIT_MISMATCH } else { EXIT_OK })
}

/// `pica lockstep`: the front end, cycle by cycle.
///
/// With `rtl_coverage` (`--rtl-coverage FILE`) the cases run on the coverage build of
/// `opts.variant` and the RTL code coverage of all of them is written to FILE.
pub fn lockstep(
    cases: Vec<Case>,
    opts: &Options,
    report: Option<&Path>,
    rtl_coverage: Option<&Path>,
) -> ExitCode {
    let mut cov = match rtl_coverage.map(|f| rtl_coverage_start(opts.variant, f)) {
        Some(Err(e)) => return fail(e),
        Some(Ok(c)) => Some(c),
        None => None,
    };
    let opts = Options {
        variant: cov
            .as_ref()
            .and_then(RtlCoverage::variant)
            .unwrap_or(opts.variant),
        ..opts.clone()
    };
    let header = format!(
        "{:<40} {:>7} {:>9}  {:<12}",
        "case", "beats", "cycles", "outcome"
    );
    let summary = format!("compared, RTL variant {}", opts.variant.label());
    let code = compare_cases(&cases, &header, &summary, report, |c| {
        let r = lockstep::lockstep(c, &opts).map_err(|e| e.to_string())?;
        if let (Some(cov), Some(counts)) = (cov.as_mut(), &r.rtl_coverage) {
            cov.add_counts(counts);
        }
        Ok(r)
    });
    rtl_coverage_finish(cov.as_ref(), rtl_coverage).unwrap_or(code)
}

/// `pica lockstep --rtl-stages LIST` with pipeline stages: each case on the model alone and
/// with the stages in RTL, compared transaction-exact ([`stages::stage_lockstep`]).
pub fn stage_lockstep(
    cases: &[Case],
    set: &StageSet,
    opts: &StageLockstepOptions,
    report: Option<&Path>,
) -> ExitCode {
    let header = format!(
        "{:<32} {:>8} {:>9} {:>9}  {:<12}",
        "case", "commits", "model cyc", "mixed cyc", "outcome"
    );
    let summary = format!("compared with RTL stages {}", set.names());
    compare_cases(cases, &header, &summary, report, |c| {
        stages::stage_lockstep(c, set, opts).map_err(|e| e.to_string())
    })
}

/// The arguments of `pica lockstep`.
#[derive(clap::Args)]
pub struct LockstepArgs {
    /// Command lists (.bin or .hex/.txt), submitted one after another, or one frame file
    /// (.json).
    #[arg(value_name = "LIST|FRAME.json")]
    list: Vec<PathBuf>,
    #[command(flatten)]
    load: crate::run::LoadOpts,
    /// Replay a vector bundle (or a directory of bundles).
    #[arg(long, value_name = "DIR")]
    bundle: Vec<PathBuf>,
    /// Run every bundle of the corpus (default vectors/corpus).
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "vectors/corpus")]
    corpus: Option<PathBuf>,
    /// RTL build to compare against: default, or an injected-bug build (mask, packer).
    #[arg(long, default_value = "default", value_parser = crate::cli::parse_variant)]
    variant: pica_rtl_bridge::Variant,
    /// On a mismatch, write a VCD of N cycles around it.
    #[arg(long, value_name = "N")]
    trace_window: Option<u64>,
    /// Where the VCD goes.
    #[arg(long, value_name = "FILE", default_value = "lockstep.vcd")]
    vcd: PathBuf,
    /// Write the report as JSON.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Count RTL code coverage: run the coverage build of each RTL stage (pica_top verilated
    /// with --coverage and without the SH stage for the front end, cov_fe; cov_sh, cov_tev,
    /// cov_fop, cov_rast for --rtl-stages sh, tev, fop, rast: pica_sh_top, pica_tev_top,
    /// pica_fop_top, pica_rast_top) and write the line, branch and toggle points hit by all
    /// the cases to FILE (Verilator's coverage.dat: merge with `verilator_coverage
    /// --write`, report with `pica cov rtl report`). With several pipeline stages in RTL,
    /// one file per stage: FILE with the stage before its extension (cov.dat ->
    /// cov.tev.dat, cov.fop.dat). The RTL as written only (--variant and the stage variants
    /// default); the front end counts in the front-end lockstep alone (--rtl-stages fe
    /// without --pipeline-hold), not in a mixed run (exit 2).
    #[arg(long, value_name = "FILE")]
    rtl_coverage: Option<PathBuf>,
    /// Run a scene of the library (repeatable; `pica scene list`).
    #[arg(long, value_name = "NAME")]
    scene: Vec<String>,
    /// Run every scene of the library.
    #[arg(long)]
    scenes: bool,
    /// With the front end alone in RTL: run each case's draws through the model's
    /// pipeline beside it, so REGS is held while the pipeline is busy (`hold_i`, as on the
    /// GPU); the CP->REGS FIFO then fills and the CP stalls. Without it the front end runs
    /// alone and is never held. `pica mutate --stage fe` kills run this way name it.
    #[arg(long)]
    pipeline_hold: bool,
    /// Front-end lockstep: hold REGS on a deterministic schedule, the same cycles on both
    /// sides (`SEED[:PERCENT]`, percent of single held cycles, 25 when left out; plus one
    /// 16-cycle window in eight): backpressure the front end alone never sees, so the
    /// CP->REGS FIFO fills. `pica mutate` kills under a schedule name it.
    #[arg(long, value_name = "SEED[:PERCENT]", value_parser = crate::lockstep::HoldSchedule::parse)]
    hold: Option<crate::lockstep::HoldSchedule>,
    /// Default: fe (the front end, cycle-exact). With pipeline stages (sh): the model
    /// alone against the model with those stages in RTL, transaction-exact, down to the
    /// picture.
    #[command(flatten)]
    stages: crate::lockstep::stages::RtlStageArgs,
    /// Shader knobs for every case (over a bundle's recorded ones). The front end alone
    /// runs no shader; with the SH stage in RTL, knobs its build does not implement are
    /// refused (exit 2).
    #[command(flatten)]
    knobs: crate::knobs::KnobArgs,
}

/// Runs `pica lockstep`.
pub fn main(args: LockstepArgs) -> ExitCode {
    let LockstepArgs {
        list,
        load,
        bundle,
        corpus,
        variant,
        trace_window,
        vcd,
        report,
        rtl_coverage,
        scene,
        scenes,
        pipeline_hold,
        hold,
        stages,
        knobs,
    } = args;
    let mut cases = Vec::new();
    let names: Vec<String> = if scenes {
        pica_vectors::scenes::list()
            .map(|(n, _)| n.to_string())
            .collect()
    } else {
        scene
    };
    for n in &names {
        match pica_vectors::scenes::scene(n) {
            Some(s) => cases.push(s.case),
            None => return fail(format!("no scene named '{n}' (see `pica scene list`)")),
        }
    }
    if !list.is_empty() {
        match crate::run::load_case(&list, &load) {
            Ok(c) => cases.push(c),
            Err(e) => return fail(e),
        }
    }
    let mut dirs = bundle;
    dirs.extend(corpus);
    match crate::cli::load_bundles(&dirs) {
        Ok(bs) => {
            for b in bs {
                match b.case() {
                    Ok(c) => cases.push(c),
                    Err(e) => return fail(e),
                }
            }
        }
        Err(e) => return fail(e),
    }
    if cases.is_empty() {
        return fail(
            "nothing to run: give a command list, --bundle DIR, --corpus, --scene NAME or --scenes",
        );
    }
    let set = stages
        .rtl_stages
        .clone()
        .unwrap_or_else(crate::lockstep::stages::StageSet::front_end);
    // Every case runs with its own knobs (a bundle's recorded ones) and --knob over
    // them; an RTL SH build that cannot follow them is refused before anything runs.
    for c in &mut cases {
        knobs.apply(&mut c.knobs);
        if let Err(e) = crate::lockstep::stages::check_knobs(
            &set,
            stages.sh_variant,
            stages.tex_variant,
            &c.knobs,
        ) {
            return fail(format!("{}: {e}", c.name));
        }
    }
    let mixed = set.has_pipeline_stages() || (pipeline_hold && set.has_front_end());
    if mixed {
        if hold.is_some() {
            return fail(
                "--hold schedules the front-end lockstep: in a mixed run (--pipeline-hold, \
                     pipeline stages) the model's pipeline holds REGS",
            );
        }
        let mut stage = stages.options();
        stage.fe_variant = variant;
        let builds = match rtl_coverage.as_ref().map(|_| stage.use_coverage(&set)) {
            Some(Err(e)) => return fail(e),
            Some(Ok(b)) => b,
            None => Vec::new(),
        };
        let mut sopts = crate::lockstep::stages::StageLockstepOptions {
            stage,
            trace_window,
            vcd: vcd.clone(),
        };
        // With fe listed too, this one mixed run covers the front end (pica_top,
        // cycle-exact beside the model GPU): no separate front-end lockstep.
        return crate::cli::rtl_coverage::with_stage_coverage(
            &builds,
            rtl_coverage.as_deref(),
            |s| {
                sopts.stage.coverage = s.cloned();
                stage_lockstep(&cases, &set, &sopts, report.as_deref())
            },
        );
    }
    if !set.has_front_end() {
        return ExitCode::SUCCESS;
    }
    let opts = Options {
        variant,
        trace_window,
        vcd,
        hold,
        ..Options::default()
    };
    lockstep(cases, &opts, report.as_deref(), rtl_coverage.as_deref())
}
