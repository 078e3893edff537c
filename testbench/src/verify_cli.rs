//! The verification commands of `pica`: `lockstep`, `vectors gen|check|list`, `fuzz`.
//! `main.rs` parses the arguments; this module does the work and picks the exit status.

use crate::fuzz::{self, FuzzOptions};
use crate::lockstep::{self, Options, Report};
use crate::stages::{self, StageLockstepOptions, StageSet};
use pica_rtl_bridge::coverage::CoverageBuild;
use pica_rtl_bridge::{RtlCoverage, Variant};
use pica_vectors::bundle::{write_bundle, Bundle};
use pica_vectors::case::Case;
use pica_vectors::library;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status: everything agreed.
pub const EXIT_OK: u8 = 0;
/// Exit status: a mismatch, a rejected bundle, or a fuzz failure.
pub const EXIT_MISMATCH: u8 = 1;
/// Exit status: bad input.
pub const EXIT_BAD_INPUT: u8 = 2;

fn bad(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Parses an RTL variant name for clap.
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_name(s).ok_or_else(|| {
        format!(
            "unknown RTL variant '{s}' (one of: {})",
            Variant::ALL.map(Variant::name).join(", ")
        )
    })
}

/// Parses `I/N` for `--shard`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 0/4")?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("shard index '{i}' is not a number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("shard count '{n}' is not a number"))?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 <= I < N"));
    }
    Ok((i, n))
}

/// Bundle directories: each argument is a bundle (has manifest.json) or a directory of them.
pub fn bundle_dirs(args: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for a in args {
        if a.join("manifest.json").is_file() {
            out.push(a.clone());
            continue;
        }
        let rd = std::fs::read_dir(a).map_err(|e| format!("{}: {e}", a.display()))?;
        let mut subs: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("manifest.json").is_file())
            .collect();
        subs.sort();
        if subs.is_empty() {
            return Err(format!(
                "{}: not a bundle and holds no bundles (no manifest.json)",
                a.display()
            ));
        }
        out.extend(subs);
    }
    Ok(out)
}

fn write_json(path: &Path, v: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(v).map_err(|e| e.to_string())?;
    std::fs::write(path, format!("{text}\n")).map_err(|e| format!("{}: {e}", path.display()))
}

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
            Err(e) => return bad(e),
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
            return bad(e);
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
        Some(Err(e)) => return bad(e),
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

/// `--rtl-coverage FILE`: an empty total of the points of `variant`'s coverage build (the
/// build to run instead of `variant`); the reason when there is none or FILE cannot be
/// written (checked now, not after the campaign).
pub fn rtl_coverage_start(variant: Variant, file: &Path) -> Result<RtlCoverage, String> {
    let build = variant.coverage_build().ok_or_else(|| {
        format!(
            "--rtl-coverage: RTL variant {} has no coverage build (only the RTL as written \
             has one: --variant default)",
            variant.label()
        )
    })?;
    let cov = RtlCoverage::new(build).map_err(|e| format!("--rtl-coverage: {e}"))?;
    check_writable(file)?;
    Ok(cov)
}

/// Whether `file` can be written (checked before a run, not after it); creates it empty if it
/// does not exist, leaves it alone if it does.
fn check_writable(file: &Path) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(file)
        .map(drop)
        .map_err(|e| format!("--rtl-coverage {}: cannot write: {e}", file.display()))
}

/// The build `--rtl-coverage FILE` runs for the RTL stage `build` of a stage fuzz campaign
/// (`pica fuzz --target tev|fop|rast --rtl`, `--rtl-stages S`) whose `--variant` is
/// `variant`: `None` without FILE, the reason (exit 2) without `--rtl` or for a build other
/// than the RTL as written (an injected-bug or mutant build has no coverage build).
pub fn fuzz_coverage_build(
    build: CoverageBuild,
    rtl: bool,
    variant: &str,
    file: Option<&Path>,
) -> Result<Option<CoverageBuild>, String> {
    if file.is_none() {
        return Ok(None);
    }
    if !rtl {
        return Err("--rtl-coverage counts the RTL's code coverage: it needs --rtl".into());
    }
    if !variant.eq_ignore_ascii_case("default") {
        return Err(format!(
            "--rtl-coverage: RTL variant {variant} of stage {} has no coverage build (only the \
             RTL as written has one, {}: --variant default)",
            build.stage(),
            build.name()
        ));
    }
    Ok(Some(build))
}

/// The file of `build`'s coverage under `--rtl-coverage FILE`: FILE itself when the run has
/// one RTL stage (`several` false), else FILE with the stage before its extension
/// (`cov.dat` → `cov.tev.dat`, `cov` → `cov.tev`).
pub fn stage_coverage_file(file: &Path, build: CoverageBuild, several: bool) -> PathBuf {
    if !several {
        return file.to_path_buf();
    }
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match file.extension() {
        Some(e) => format!("{stem}.{}.{}", build.stage(), e.to_string_lossy()),
        None => format!("{stem}.{}", build.stage()),
    };
    file.with_file_name(name)
}

/// `--rtl-coverage FILE` of a run of RTL pipeline stages (`pica lockstep --rtl-stages`, the
/// stage fuzz targets): runs `run` while the counters of every model of `builds` it drops are
/// gathered ([`pica_rtl_bridge::coverage::gather_start`]: the stage models live inside the
/// model GPU's adapters and the fuzzers' per-case runs), then writes each build's total to its
/// file ([`stage_coverage_file`]) and prints the points hit. The run's exit code, or 2 when a
/// file cannot be written (checked before the run) or a build is not compiled. Without FILE,
/// just `run`.
pub fn with_stage_coverage(
    builds: &[CoverageBuild],
    file: Option<&Path>,
    run: impl FnOnce() -> ExitCode,
) -> ExitCode {
    let Some(file) = file else {
        return run();
    };
    let files: Vec<PathBuf> = builds
        .iter()
        .map(|&b| stage_coverage_file(file, b, builds.len() > 1))
        .collect();
    if let Some(e) = files.iter().find_map(|f| check_writable(f).err()) {
        return bad(e);
    }
    if let Err(e) = pica_rtl_bridge::coverage::gather_start(builds) {
        return bad(format!("--rtl-coverage: {e}"));
    }
    let code = run();
    let totals = pica_rtl_bridge::coverage::gather_finish(builds);
    for (cov, f) in totals.iter().zip(&files) {
        if let Some(e) = rtl_coverage_finish(Some(cov), Some(f)) {
            return e;
        }
    }
    code
}

/// Writes the RTL coverage `cov` of a run to `file` (when both are given) and prints the points
/// hit; the exit code when that fails.
fn rtl_coverage_finish(cov: Option<&RtlCoverage>, file: Option<&Path>) -> Option<ExitCode> {
    let (Some(cov), Some(file)) = (cov, file) else {
        return None;
    };
    if let Err(e) = cov.write(file) {
        return Some(bad(e));
    }
    println!(
        "RTL coverage: {}/{} points hit on {} ({})",
        cov.hit(),
        cov.points(),
        cov.variant()
            .map_or_else(|| cov.build().name().to_string(), Variant::label),
        file.display()
    );
    None
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

/// Loads bundles for lockstep / check.
pub fn load_bundles(dirs: &[PathBuf]) -> Result<Vec<Bundle>, String> {
    bundle_dirs(dirs)?
        .iter()
        .map(|d| Bundle::load(d).map_err(|e| e.to_string()))
        .collect()
}

/// `pica vectors list`.
pub fn vectors_list() -> ExitCode {
    for c in library::cases() {
        println!("{:<36} {}", c.name, c.description);
    }
    ExitCode::SUCCESS
}

/// `pica vectors gen OUT [--case NAME]... [--rtl-stages LIST]`: with pipeline stages in RTL,
/// each case is also run with them and must agree with the model before its bundle counts.
///
/// `knobs` are the knobs every case runs with; each bundle's manifest records the
/// non-default ones (`knobs`), which `pica vectors check` and `pica lockstep --bundle` use.
pub fn vectors_gen(
    out: &Path,
    names: &[String],
    stages: Option<&StageCheck>,
    knobs: pica_model::knobs::Knobs,
) -> ExitCode {
    let all = library::cases();
    let chosen: Vec<&Case> = if names.is_empty() {
        all.iter().collect()
    } else {
        let mut v = Vec::new();
        for n in names {
            match all.iter().find(|c| &c.name == n) {
                Some(c) => v.push(c),
                None => return bad(format!("no case named '{n}' (see `pica vectors list`)")),
            }
        }
        v
    };
    for c in chosen {
        let c = &Case { knobs, ..c.clone() };
        let dir = out.join(c.name.replace('/', "__"));
        let res = c.run_model().map_err(|e| e.to_string()).and_then(|run| {
            if let Some(sc) = stages {
                sc.check(c)?;
            }
            write_bundle(&dir, c, &run, &crate::generator())
                .map_err(|e| format!("{}: {e}", dir.display()))
        });
        match res {
            Ok(m) => println!(
                "{:<36} {:>6} beats  {:<10} -> {}",
                c.name,
                m.streams.first().map_or(0, |s| s.beats),
                m.outcome.kind,
                dir.display()
            ),
            Err(e) => return bad(e),
        }
    }
    ExitCode::SUCCESS
}

/// `pica vectors gen OUT --stage STAGE [--case NAME]...`: one stage bundle per scene of the
/// library (or per `--case`, a scene name) that sends fragments through the stage (`tev` or
/// `fop`) or triangles into it (`rast`: CLIP + RAST), recorded from the scene's run on the
/// model GPU ([`crate::stage_record`]) into `OUT/<stage>-<scene, / as __>/`. A recording must
/// replay on the model to the run's own results before it is written.
pub fn vectors_gen_stage(out: &Path, stage: &str, names: &[String]) -> ExitCode {
    if !["tev", "fop", "rast"].contains(&stage) {
        return bad(format!(
            "--stage {stage}: stage bundles are made for: tev, fop, rast"
        ));
    }
    // What a scene must send the stage for a bundle.
    let input = if stage == "rast" {
        "triangles"
    } else {
        "fragments"
    };
    let names: Vec<String> = if names.is_empty() {
        pica_vectors::scenes::list()
            .map(|(n, _)| n.to_string())
            .collect()
    } else {
        names.to_vec()
    };
    let (mut written, mut skipped) = (0, 0);
    for n in &names {
        let Some(scene) = pica_vectors::scenes::scene(n) else {
            return bad(format!("no scene named '{n}' (see `pica scene list`)"));
        };
        let dir = out.join(format!("{stage}-{}", n.replace('/', "__")));
        let prov = |outcome: &pica_model::Outcome| pica_vectors::stage::StageProvenance {
            generator: crate::generator(),
            origin: format!("pica vectors gen --stage {stage}: scene {n} ({outcome})"),
            ..Default::default()
        };
        let res = match stage {
            "tev" => gen_tev_stage_bundle(n, &scene.case, &dir, prov),
            "rast" => gen_rast_stage_bundle(n, &scene.case, &dir, prov),
            _ => gen_fop_stage_bundle(n, &scene.case, &dir, prov),
        };
        match res {
            Ok(Some((frags, writes))) => {
                println!(
                    "{n:<36} {frags:>6} fragments {writes:>5} writes  -> {}",
                    dir.display()
                );
                written += 1;
            }
            Ok(None) => {
                println!("{n:<36} no {input} reach {stage}: no bundle");
                skipped += 1;
            }
            Err(e) => return bad(e),
        }
    }
    println!("{written} {stage} stage bundle(s) written, {skipped} scene(s) without {input}");
    ExitCode::SUCCESS
}

/// Records the TEV stage of scene `n` and writes its bundle into `dir`: (fragments, register
/// writes), or `None` when no fragment reaches TEV.
fn gen_tev_stage_bundle(
    n: &str,
    case: &Case,
    dir: &Path,
    prov: impl Fn(&pica_model::Outcome) -> pica_vectors::stage::StageProvenance,
) -> Result<Option<(usize, usize)>, String> {
    use pica_vectors::stage_tev::{beats_of, compare_beats, run_model, write_tev_bundle, TevOp};
    let r = crate::stage_record::record_tev(case)?;
    let tc = &r.rec.case;
    if tc.fragments() == 0 {
        return Ok(None);
    }
    // The recorded operations must give the run's results on the model alone.
    let replayed = run_model(tc);
    let recorded: Vec<_> = tc
        .ops
        .iter()
        .filter_map(|o| match o {
            TevOp::Frag { x, y, .. } => Some((*x, *y)),
            TevOp::Reg { .. } => None,
        })
        .zip(&r.rec.outs)
        .enumerate()
        .flat_map(|(i, ((x, y), o))| beats_of(i as u64, x, y, o))
        .collect();
    if let Some(d) = compare_beats(&recorded, &replayed.beats) {
        return Err(format!("{n}: the recorded TEV case does not replay: {d}"));
    }
    let desc = format!("the TEV stage of scene {n}: {}", case.description);
    write_tev_bundle(dir, n, &desc, tc, &[], &prov(&r.outcome))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(Some((tc.fragments(), tc.reg_writes())))
}

/// Records the FOP stage of scene `n` and writes its bundle into `dir`: (fragments, register
/// writes), or `None` when no fragment reaches FOP.
fn gen_fop_stage_bundle(
    n: &str,
    case: &Case,
    dir: &Path,
    prov: impl Fn(&pica_model::Outcome) -> pica_vectors::stage::StageProvenance,
) -> Result<Option<(usize, usize)>, String> {
    use pica_vectors::stage_fop::{image_words, run_model, write_fop_bundle};
    let r = crate::stage_record::record_fop(case)?;
    let fc = &r.case;
    if fc.fragments() == 0 {
        return Ok(None);
    }
    // The recorded case must give the run's pixel beats, hang and memory on the model alone.
    let replayed = run_model(fc);
    let strip = |b: &pica_model::beat::PixelBeat| pica_model::beat::PixelBeat { cycle: 0, ..*b };
    let gpu_beats: Vec<_> = r.gpu.pipeline_beats().pixel.iter().map(strip).collect();
    let model_beats: Vec<_> = replayed.beats.iter().map(strip).collect();
    if gpu_beats != model_beats {
        let i = gpu_beats
            .iter()
            .zip(&model_beats)
            .position(|(a, b)| a != b)
            .unwrap_or(gpu_beats.len().min(model_beats.len()));
        return Err(format!(
            "{n}: the recorded FOP case does not replay: pixel beat {i} differs ({} in the run, {} replayed)",
            gpu_beats.len(),
            model_beats.len()
        ));
    }
    let run_hang = match &r.outcome {
        pica_model::Outcome::Hang {
            reason: pica_model::HangReason::FragmentOps(h),
            ..
        } => Some(h.clone()),
        _ => None,
    };
    if run_hang != replayed.hang {
        return Err(format!(
            "{n}: the recorded FOP case does not replay: hang {:?} in the run, {:?} replayed",
            run_hang, replayed.hang
        ));
    }
    if image_words(r.gpu.mem(), &fc.images) != replayed.final_images(&fc.images) {
        return Err(format!(
            "{n}: the recorded FOP case does not replay: the final memory differs"
        ));
    }
    let desc = format!("the FOP stage of scene {n}: {}", case.description);
    write_fop_bundle(dir, n, &desc, fc, &prov(&r.outcome))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(Some((fc.fragments(), fc.reg_writes())))
}

/// Records the RAST stage (CLIP + RAST) of scene `n` and writes its bundle into `dir`:
/// (fragments, register writes), or `None` when no triangle reaches CLIP.
fn gen_rast_stage_bundle(
    n: &str,
    case: &Case,
    dir: &Path,
    prov: impl Fn(&pica_model::Outcome) -> pica_vectors::stage::StageProvenance,
) -> Result<Option<(usize, usize)>, String> {
    use pica_model::beat::FragmentBeat;
    use pica_vectors::stage_rast::{early_same, run_model, write_rast_bundle};
    let r = crate::stage_record::record_rast(case)?;
    let rc = &r.case;
    if rc.triangles() == 0 {
        return Ok(None);
    }
    // The recorded case must give the run's fragments (every field the `fragment` beat
    // carries, in order) and early-depth buffer on the model alone.
    let replayed = run_model(rc);
    let strip = |b: &FragmentBeat| FragmentBeat { cycle: 0, ..*b };
    let run_beats: Vec<_> = r.gpu.pipeline_beats().fragment.iter().map(strip).collect();
    let model_beats: Vec<_> = replayed
        .fragments
        .iter()
        .map(|f| pica_model::rast::fragment_beat(0, f))
        .collect();
    if run_beats != model_beats {
        let i = run_beats
            .iter()
            .zip(&model_beats)
            .position(|(a, b)| a != b)
            .unwrap_or(run_beats.len().min(model_beats.len()));
        return Err(format!(
            "{n}: the recorded RAST case does not replay: fragment {i} differs ({} in the run, {} replayed)",
            run_beats.len(),
            model_beats.len()
        ));
    }
    if !early_same(r.gpu.rast().early_depth(), &replayed.early) {
        return Err(format!(
            "{n}: the recorded RAST case does not replay: the early-depth buffer differs"
        ));
    }
    let desc = format!(
        "the RAST stage (CLIP + RAST) of scene {n}: {}",
        case.description
    );
    write_rast_bundle(dir, n, &desc, rc, &prov(&r.outcome))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(Some((replayed.fragments.len(), rc.reg_writes())))
}

/// Pipeline stages in RTL that a case must agree with (`--rtl-stages` of `pica vectors`).
pub struct StageCheck {
    /// The stages.
    pub set: StageSet,
    /// How they run.
    pub opts: StageLockstepOptions,
}

impl StageCheck {
    /// `Some` when `set` names pipeline stages.
    pub fn new(set: Option<StageSet>, opts: StageLockstepOptions) -> Option<Self> {
        set.filter(StageSet::has_pipeline_stages)
            .map(|set| Self { set, opts })
    }

    /// Runs `case` with the stages and the model alone; the text report on a mismatch.
    pub fn check(&self, case: &Case) -> Result<(), String> {
        let r = stages::stage_lockstep(case, &self.set, &self.opts).map_err(|e| e.to_string())?;
        if r.is_equal() {
            Ok(())
        } else {
            Err(stages::text_report(&r))
        }
    }
}

/// Checks a stage bundle of `kind` in `dir` (hashes, formats, the model's run and with `rtl`
/// the stage's RTL): what was checked on success ("12 commits").
fn check_stage_bundle(dir: &Path, kind: &str, rtl: bool) -> Result<String, String> {
    match kind {
        pica_vectors::stage::KIND_SHADER_UNIT => {
            check_shader_unit_bundle(dir, rtl).map(|n| format!("{n} commits"))
        }
        pica_vectors::stage_tev::KIND_TEV => check_tev_bundle(dir, rtl),
        pica_vectors::stage_fop::KIND_FOP => check_fop_bundle(dir, rtl),
        pica_vectors::stage_rast::KIND_RAST => check_rast_bundle(dir, rtl),
        _ => Err(format!(
            "{}: unknown stage bundle kind '{kind}'",
            dir.display()
        )),
    }
}

/// Refuses to run a stage bundle recorded with non-default knobs on an RTL stage: the RTL
/// stages implement the default knobs only.
fn rtl_follows(dir: &Path, knobs: &pica_model::knobs::Knobs) -> Result<(), String> {
    let k = knobs.non_default();
    if k.is_empty() {
        return Ok(());
    }
    let k: Vec<String> = k.iter().map(|(n, v)| format!("{n}={v}")).collect();
    Err(format!(
        "{}: recorded with --knob {}, which the RTL stage (default knobs only) cannot follow; \
         check it without --rtl",
        dir.display(),
        k.join(" --knob ")
    ))
}

/// Checks a TEV stage bundle: hashes, formats and counts (by loading it), the model's run of
/// its operations against the recorded `combiner` beats, and with `rtl` the Verilated
/// `pica_tev_top` (the build its `defines` name) too.
fn check_tev_bundle(dir: &Path, rtl: bool) -> Result<String, String> {
    use crate::tev_fuzz::{compare_rtl, run_rtl, tev_variant_of_defines};
    use pica_vectors::stage_tev::{check_model, load_tev_bundle, run_model};
    let b = load_tev_bundle(dir)?;
    if let Some(d) = check_model(&b) {
        return Err(format!(
            "{}: the model does not reproduce it: {d}",
            dir.display()
        ));
    }
    if rtl {
        rtl_follows(dir, &b.case.knobs)?;
        let defines = b.manifest["defines"]
            .as_array()
            .map(|d| d.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>())
            .unwrap_or_default();
        let variant = tev_variant_of_defines(defines);
        let got = run_rtl(variant, &b.case)?;
        if let Some(d) = compare_rtl(&b.case, &run_model(&b.case), &got) {
            return Err(format!(
                "{}: the RTL TEV stage ({}) differs: {d}",
                dir.display(),
                variant.name()
            ));
        }
    }
    Ok(format!(
        "{} fragments, {} register writes, {} combiner beats",
        b.case.fragments(),
        b.case.reg_writes(),
        b.beats.len()
    ))
}

/// Checks a FOP stage bundle: hashes and formats (by loading it), the model's run of its
/// operations against the recorded pixel beats, outcome and final memory, and with `rtl` the
/// Verilated `pica_fop_top` (the build its `defines` name, memory answered with its
/// `mem_latency`) too.
fn check_fop_bundle(dir: &Path, rtl: bool) -> Result<String, String> {
    use crate::fop_fuzz::{compare_rtl, run_rtl};
    use pica_rtl_bridge::fop_stage::FopVariant;
    use pica_vectors::stage_fop::{image_words, load_fop_bundle, run_model};
    let (m, case, expected) = load_fop_bundle(dir)?;
    let run = run_model(&case);
    let fail = |what: String| {
        Err(format!(
            "{}: the model does not reproduce it: {what}",
            dir.display()
        ))
    };
    if let Some(i) = (0..run.beats.len().max(expected.beats.len()))
        .find(|&i| run.beats.get(i) != expected.beats.get(i))
    {
        return fail(format!(
            "pixel beat {i}: expected {:?}, model {:?}",
            expected.beats.get(i),
            run.beats.get(i)
        ));
    }
    if run.hang != expected.hang {
        return fail(format!(
            "outcome: expected hang {:?}, model {:?}",
            expected.hang, run.hang
        ));
    }
    if image_words(&expected.mem, &case.images) != run.final_images(&case.images) {
        return fail("final memory differs".into());
    }
    if rtl {
        rtl_follows(dir, &case.knobs)?;
        let variant = manifest_variant(&m, FopVariant::from_name).unwrap_or(FopVariant::Default);
        let latency = manifest_latency(&m, "mem_latency")?;
        let got = run_rtl(variant, latency, &case)?;
        if let Some(d) = compare_rtl(&run, &got) {
            return Err(format!(
                "{}: the RTL FOP stage ({}, latency {latency}) differs: {d}",
                dir.display(),
                variant.name()
            ));
        }
    }
    Ok(format!(
        "{} fragments, {} register writes, {} pixel beats{}",
        case.fragments(),
        case.reg_writes(),
        run.beats.len(),
        run.hang.map(|h| format!(", hang: {h}")).unwrap_or_default()
    ))
}

/// The RTL build a stage bundle's manifest names: the first of its `defines` that `from_name`
/// knows.
fn manifest_variant<V>(m: &serde_json::Value, from_name: fn(&str) -> Option<V>) -> Option<V> {
    m["defines"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|d| d.as_str().and_then(from_name))
}

/// The port latency a stage bundle's manifest records under `key` (a `MemLatency` string, or
/// a number of clocks; absent = 0).
fn manifest_latency(
    m: &serde_json::Value,
    key: &str,
) -> Result<pica_rtl_bridge::fop_stage::MemLatency, String> {
    use pica_rtl_bridge::fop_stage::MemLatency;
    match &m[key] {
        serde_json::Value::String(t) => MemLatency::parse(t),
        v => MemLatency::parse(&v.as_u64().unwrap_or(0).to_string()),
    }
}

/// Checks a RAST stage bundle: hashes and formats (by loading it), the model's run of its
/// operations against the recorded fragments (every field, `tex_deriv` included) and
/// early-depth buffer, and with `rtl` the Verilated `pica_rast_top` (the build its `defines`
/// name, the early-depth port answered with its `ed_latency`) too.
fn check_rast_bundle(dir: &Path, rtl: bool) -> Result<String, String> {
    use crate::rast_fuzz::{compare_rtl, fragment_diff, run_rtl};
    use pica_rtl_bridge::rast_stage::RastVariant;
    use pica_vectors::stage_rast::{early_same, load_rast_bundle, run_model};
    let (m, case, expected) = load_rast_bundle(dir)?;
    let run = run_model(&case);
    let fail = |what: String| {
        Err(format!(
            "{}: the model does not reproduce it: {what}",
            dir.display()
        ))
    };
    if let Some(d) = fragment_diff(&expected.fragments, &run.fragments) {
        return fail(d);
    }
    if !early_same(&expected.early, &run.early) {
        return fail("the early-depth buffer after differs".into());
    }
    if rtl {
        rtl_follows(dir, &case.knobs)?;
        let variant = manifest_variant(&m, RastVariant::from_name).unwrap_or(RastVariant::Default);
        let latency = manifest_latency(&m, "ed_latency")?;
        let got = run_rtl(variant, latency, &case)?;
        if let Some(d) = compare_rtl(&run, &got) {
            return Err(format!(
                "{}: the RTL RAST stage ({}, latency {latency}) differs: {d}",
                dir.display(),
                variant.name()
            ));
        }
    }
    Ok(format!(
        "{} triangles, {} register writes, {} clears, {} fragments",
        case.triangles(),
        case.reg_writes(),
        case.clears(),
        run.fragments.len()
    ))
}

/// Checks a shader-unit stage bundle: hashes and formats (by loading it), then the model's
/// run of its case against the recorded commits, outcome and outputs (with the knobs its
/// `defines` name), and with `rtl` the shader-unit RTL's run too. The number of commits on
/// success.
fn check_shader_unit_bundle(dir: &Path, rtl: bool) -> Result<usize, String> {
    use crate::shader_fuzz::run_rtl;
    use pica_rtl_bridge::shader::ShVariant;
    use pica_vectors::shader_gen::{compare, run_model, ShaderRun};
    use pica_vectors::stage::load_shader_bundle;
    let b = load_shader_bundle(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let knobs_alt = b.manifest["defines"]
        .as_array()
        .is_some_and(|d| d.iter().any(|x| x == "PICA_SH_KNOBS_ALT"));
    let variant = if knobs_alt {
        ShVariant::KnobsAlt
    } else {
        ShVariant::Default
    };
    let recorded = ShaderRun {
        commits: b.commits.clone(),
        end: b.end.clone(),
        outputs: b.outputs,
        // EMIT beats are not part of the stage bundle (yet): compare none on both sides.
        emits: Vec::new(),
    };
    let mut model = run_model(&b.case, variant.knobs(), b.max_instructions);
    model.emits.clear();
    if let Some(d) = compare(&b.case, &recorded, &model) {
        return Err(format!(
            "{}: the model does not reproduce it: {d}",
            dir.display()
        ));
    }
    if rtl {
        let mut r = run_rtl(variant, &b.case, b.max_instructions)?;
        r.emits.clear();
        if let Some(d) = compare(&b.case, &recorded, &r) {
            return Err(format!(
                "{}: the RTL unit ({}) differs: {d}",
                dir.display(),
                variant.name()
            ));
        }
    }
    Ok(b.commits.len())
}

/// `pica vectors check DIR... [--rtl] [--rtl-stages LIST]`.
pub fn vectors_check(
    dirs: &[PathBuf],
    rtl: Option<Variant>,
    stages: Option<&StageCheck>,
) -> ExitCode {
    let dirs = match bundle_dirs(dirs) {
        Ok(d) => d,
        Err(e) => return bad(e),
    };
    let mut failed = 0;
    let mut refused = 0;
    for d in &dirs {
        // A bundle whose recorded knobs the RTL asked for cannot follow is refused before
        // anything runs: never a false divergence (exit status 2 when nothing failed).
        if rtl.is_some() || stages.is_some() {
            let knobs = Bundle::load(d)
                .ok()
                .and_then(|b| b.case().ok())
                .map(|c| c.knobs);
            if let Some(e) = knobs.and_then(|k| rtl_refusal(&k, rtl.is_some(), stages).err()) {
                refused += 1;
                println!("REFUSED {}: {e}", d.display());
                continue;
            }
        }
        if let Ok(Some(kind)) = pica_vectors::stage::bundle_kind(d) {
            match check_stage_bundle(d, &kind, rtl.is_some()) {
                Ok(n) => println!(
                    "ok    {} (stage bundle {kind}: {n}{})",
                    d.display(),
                    if rtl.is_some() { ", model and RTL" } else { "" }
                ),
                Err(e) => {
                    failed += 1;
                    println!("FAIL  {e}");
                }
            }
            continue;
        }
        let res = Bundle::load(d).map_err(|e| e.to_string()).and_then(|b| {
            let diffs = b.check_model().map_err(|e| e.to_string())?;
            if let Some(first) = diffs.first() {
                return Err(format!(
                    "{}: the model does not reproduce it: {first} ({} difference(s))",
                    d.display(),
                    diffs.len()
                ));
            }
            if let Some(variant) = rtl {
                let case = b.case().map_err(|e| e.to_string())?;
                let opts = Options {
                    variant,
                    ..Options::default()
                };
                let r = lockstep::lockstep(&case, &opts).map_err(|e| e.to_string())?;
                if !r.is_equal() {
                    return Err(lockstep::text_report(&r));
                }
            }
            if let Some(sc) = stages {
                sc.check(&b.case().map_err(|e| e.to_string())?)?;
            }
            Ok(b.beats.len())
        });
        match res {
            Ok(n) => println!(
                "ok    {} ({n} beats{}{})",
                d.display(),
                if rtl.is_some() { ", model and RTL" } else { "" },
                stages
                    .map(|s| format!(", RTL stages {}", s.set.names()))
                    .unwrap_or_default()
            ),
            Err(e) => {
                failed += 1;
                println!("FAIL  {e}");
            }
        }
    }
    if refused > 0 {
        println!(
            "{} bundle(s) checked, {failed} failed, {refused} refused (knobs the RTL does not \
             implement: check them on the model alone)",
            dirs.len()
        );
    } else {
        println!("{} bundle(s) checked, {failed} failed", dirs.len());
    }
    ExitCode::from(if failed > 0 {
        EXIT_MISMATCH
    } else if refused > 0 {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    })
}

/// Whether the RTL a check asks for (`rtl`: the front end; `stages`: pipeline stages) can
/// follow `knobs`; the error says which knobs it cannot ([`stages::check_knobs`]).
fn rtl_refusal(
    knobs: &pica_model::knobs::Knobs,
    rtl: bool,
    stages: Option<&StageCheck>,
) -> Result<(), String> {
    if rtl {
        let fe = StageSet::front_end();
        stages::check_knobs(&fe, pica_rtl_bridge::shader::ShVariant::Default, knobs)?;
    }
    if let Some(sc) = stages {
        stages::check_knobs(&sc.set, sc.opts.stage.sh_variant, knobs)?;
    }
    Ok(())
}

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
        return Err(bad(
            "--rtl-coverage counts the RTL's code coverage: it needs --rtl",
        ));
    };
    let cov = rtl_coverage_start(variant, file).map_err(bad)?;
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
        let Some(list) = fuzz::generate(seed) else {
            return bad("the strategy could not generate a case");
        };
        let hold = crate::lockstep::HoldSchedule::of_case(seed);
        let c = fuzz::check_full(&list, opts.rtl, &opts.knobs, false, hold);
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
    let r = fuzz::run_rtl_cov(opts, db.as_mut(), rtl_cov.as_mut(), |done, total, fails| {
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
            Err(e) => return bad(format!("--guided --rtl: {e}")),
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
        |db, keep, p| crate::guided::run(opts, db, keep, rtl_cov.as_mut(), p),
        versus_unguided.then_some(|| {
            let mut udb = pica_model::cov::CoverageDb::new("fuzz (unguided baseline)");
            let mut urtl = opts
                .rtl
                .filter(|v| v.has_coverage())
                .and_then(|v| RtlCoverage::new(v).ok());
            // The baseline only counts bins and points: its failures are not shrunk or saved.
            let u = fuzz::run_cov_unsaved(opts, &mut udb, urtl.as_mut());
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
            .map_err(|e| bad(format!("{}: cannot create: {e}", d.display())))?;
    }
    Ok(dir)
}

/// `pica fuzz --target pipeline --guided`: as [`fuzz_guided`], on the pipeline target.
pub fn fuzz_pipeline_guided(
    opts: &crate::pipe_fuzz::PipeFuzzOptions,
    report: Option<&Path>,
    keep: Option<&Path>,
    versus_unguided: bool,
) -> ExitCode {
    use crate::pipe_fuzz;
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
    ) -> (fuzz::FuzzReport, crate::guided::GuidedSummary),
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
    r: &fuzz::FuzzReport,
    sum: &crate::guided::GuidedSummary,
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
            let beside = crate::cov_cli::db_path_beside(p);
            crate::cov_cli::write_db(&beside, db).map_err(bad)?;
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
    campaign: impl FnOnce(&mut dyn FnMut(u64, u64, usize)) -> fuzz::FuzzReport,
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
    opts: &crate::shader_fuzz::ShaderFuzzOptions,
    report: Option<&Path>,
    replay: Option<u64>,
) -> ExitCode {
    use crate::shader_fuzz;
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

/// `pica fuzz --target tev`: a TEV campaign (combiner configurations and fragment streams),
/// or with `replay` one case seed.
pub fn fuzz_tev(
    opts: &crate::tev_fuzz::TevFuzzOptions,
    report: Option<&Path>,
    replay: Option<u64>,
) -> ExitCode {
    use crate::tev_fuzz;
    run_fuzz_cli(
        replay,
        |seed| {
            let mut case = tev_fuzz::generate(seed);
            case.knobs = opts.knobs;
            tev_fuzz::check(&case, opts.rtl).map(|()| tev_fuzz::describe(&case))
        },
        |p| tev_fuzz::run(opts, p),
        report,
    )
}

/// `pica fuzz --target fop`: a FOP campaign (configurations, framebuffers and fragment
/// streams), or with `replay` one case seed.
pub fn fuzz_fop(
    opts: &crate::fop_fuzz::FopFuzzOptions,
    report: Option<&Path>,
    replay: Option<u64>,
) -> ExitCode {
    use crate::fop_fuzz;
    run_fuzz_cli(
        replay,
        |seed| {
            let mut case = fop_fuzz::generate(seed);
            case.knobs = opts.knobs;
            fop_fuzz::check(&case, opts.rtl, opts.latency).map(|()| fop_fuzz::describe(&case))
        },
        |p| fop_fuzz::run(opts, p),
        report,
    )
}

/// `pica fuzz --target pipeline`: random writes spliced into the scenes, through the whole
/// model GPU, or with `replay` one case seed. The summary also tallies how the cases ended.
pub fn fuzz_pipeline(
    opts: &crate::pipe_fuzz::PipeFuzzOptions,
    report: Option<&Path>,
    replay: Option<u64>,
    coverage: bool,
) -> ExitCode {
    use crate::pipe_fuzz;
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

/// `pica fuzz --target rast`: a RAST campaign (configurations, early-depth buffers and
/// clip-space triangles on CLIP + RAST), or with `replay` one case seed.
pub fn fuzz_rast(
    opts: &crate::rast_fuzz::RastFuzzOptions,
    report: Option<&Path>,
    replay: Option<u64>,
) -> ExitCode {
    use crate::rast_fuzz;
    run_fuzz_cli(
        replay,
        |seed| {
            let mut case = rast_fuzz::generate(seed);
            case.knobs = opts.knobs;
            rast_fuzz::check(&case, opts.rtl, opts.latency).map(|()| rast_fuzz::describe(&case))
        },
        |p| rast_fuzz::run(opts, p),
        report,
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
    /// The knobs (`--knob`): checked against the RTL stages by the caller
    /// ([`stages::check_knobs`]).
    pub knobs: pica_model::knobs::Knobs,
}

/// `pica fuzz --rtl-stages LIST`: `fe` alone is the register fuzz against the RTL front end
/// (`--rtl`), `tev` / `fop` / `rast` alone the stage fuzz with `--rtl` ([`crate::tev_fuzz`],
/// [`crate::fop_fuzz`], [`crate::rast_fuzz`]), a list with `sh` the SH stage fuzz
/// ([`crate::sh_stage_fuzz`]).
///
/// With `rtl_coverage` (`--rtl-coverage FILE`) the one RTL stage runs its coverage build and
/// the campaign's RTL code coverage is written to FILE ([`with_stage_coverage`]); a list of
/// several stages is refused (exit 2): fuzz them one at a time.
pub fn fuzz_stages(
    a: &StageFuzzArgs,
    report: Option<&Path>,
    replay: Option<u64>,
    rtl_coverage: Option<&Path>,
) -> ExitCode {
    let names = a.set.names();
    let cov = match CoverageBuild::from_stage(&names) {
        // The front end's coverage is the register fuzz's (below).
        Some(b) if b != CoverageBuild::Fe => {
            match fuzz_coverage_build(b, true, &a.variant, rtl_coverage) {
                Ok(c) => c,
                Err(e) => return bad(e),
            }
        }
        Some(_) => None,
        None if rtl_coverage.is_some() => {
            return bad(format!(
                "--rtl-coverage counts one RTL stage per fuzz campaign (--rtl-stages fe, sh, \
                 tev, fop or rast alone); {names} runs several: fuzz them one at a time, or use \
                 pica lockstep --rtl-stages {names} --rtl-coverage FILE (one file per stage)"
            ))
        }
        None => None,
    };
    if cov.is_none() {
        // The front end alone (its register fuzz writes `rtl_coverage` itself), or no FILE.
        return fuzz_stages_run(a, report, replay, rtl_coverage, false);
    }
    with_stage_coverage(cov.as_slice(), rtl_coverage, || {
        fuzz_stages_run(a, report, replay, None, true)
    })
}

/// [`fuzz_stages`] once the coverage is settled: `fe_coverage` is the front end's
/// `--rtl-coverage FILE`; with `coverage` the one RTL pipeline stage runs its coverage build
/// (`--variant` was checked to be the default).
fn fuzz_stages_run(
    a: &StageFuzzArgs,
    report: Option<&Path>,
    replay: Option<u64>,
    fe_coverage: Option<&Path>,
    coverage: bool,
) -> ExitCode {
    use crate::sh_stage_fuzz::{self, Draw, StageFuzzOptions, Verdict};
    use pica_rtl_bridge::fop_stage::FopVariant;
    use pica_rtl_bridge::rast_stage::RastVariant;
    use pica_rtl_bridge::shader::ShVariant;
    use pica_rtl_bridge::tev_stage::TevVariant;
    if a.set.names() == "tev" {
        // The TEV stage on its own: `--target tev --rtl`.
        let variant = match crate::stages::parse_tev_variant(&a.variant) {
            Ok(_) if coverage => TevVariant::Coverage,
            Ok(v) => v,
            Err(e) => return bad(e),
        };
        let opts = crate::tev_fuzz::TevFuzzOptions {
            cases: a.cases,
            seed: a.seed,
            shard: a.shard,
            rtl: Some(variant),
            regressions: Some(a.regressions.clone()),
            max_failures: a.max_failures,
            knobs: a.knobs,
        };
        return fuzz_tev(&opts, report, replay);
    }
    if a.set.names() == "fop" {
        // The FOP stage on its own: `--target fop --rtl`.
        let variant = match crate::fop_fuzz::parse_fop_variant(&a.variant) {
            Ok(_) if coverage => FopVariant::Coverage,
            Ok(v) => v,
            Err(e) => return bad(e),
        };
        let opts = crate::fop_fuzz::FopFuzzOptions {
            cases: a.cases,
            seed: a.seed,
            shard: a.shard,
            rtl: Some(variant),
            latency: a.mem_latency,
            regressions: Some(a.regressions.clone()),
            max_failures: a.max_failures,
            knobs: a.knobs,
        };
        return fuzz_fop(&opts, report, replay);
    }
    if a.set.names() == "rast" {
        // CLIP + RAST on their own: `--target rast --rtl`.
        let variant = match crate::stages::parse_rast_variant(&a.variant) {
            Ok(_) if coverage => RastVariant::Coverage,
            Ok(v) => v,
            Err(e) => return bad(e),
        };
        let opts = crate::rast_fuzz::RastFuzzOptions {
            cases: a.cases,
            seed: a.seed,
            shard: a.shard,
            rtl: Some(variant),
            latency: a.mem_latency,
            regressions: Some(a.regressions.clone()),
            max_failures: a.max_failures,
            knobs: a.knobs,
        };
        return fuzz_rast(&opts, report, replay);
    }
    if !a.set.has_pipeline_stages() {
        if !a.set.has_front_end() {
            return bad("--rtl-stages names no stage");
        }
        let variant = match parse_variant(&a.variant) {
            Ok(v) => v,
            Err(e) => return bad(e),
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
    let variant = match crate::shader_fuzz::parse_sh_variant(&a.variant) {
        Ok(pica_rtl_bridge::shader::ShVariant::KnobsAlt) => return bad(
            "--rtl-stages sh: the SH stage has no knobs_alt build (default, add_round, loop_extra)",
        ),
        // pica_top (fe,sh) is built with the default shader units only.
        Ok(v) if a.set.has_front_end() && v != pica_rtl_bridge::shader::ShVariant::Default => {
            return bad(format!(
                "--rtl-stages {}: pica_top has only the default shader-unit build (--variant {} \
                 needs --rtl-stages sh)",
                a.set.names(),
                v.name()
            ))
        }
        Ok(_) if coverage => ShVariant::Coverage,
        Ok(v) => v,
        Err(e) => return bad(e),
    };
    if let Some(seed) = replay {
        let case = pica_vectors::shader_gen::generate(seed);
        let draw = Draw::of(seed);
        return match sh_stage_fuzz::check_with(
            &case,
            &draw,
            &a.set,
            variant,
            a.mem_latency,
            &a.knobs,
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
    };
    let bar = progress_bar();
    let started = std::time::Instant::now();
    let (r, skipped) =
        sh_stage_fuzz::run(&opts, |done, total, fails| show(&bar, done, total, fails));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    println!("fuzz: {skipped} case(s) skipped (the model alone hit the cycle limit)");
    print_fuzz_report(&r, started.elapsed().as_secs_f64(), report)
}

fn print_fuzz_report(r: &fuzz::FuzzReport, secs: f64, report: Option<&Path>) -> ExitCode {
    let unit = if r.against.starts_with("shader") {
        "instruction"
    } else if r.against.starts_with("tev") || r.against.starts_with("fop") {
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
    for f in &r.failures {
        println!(
            "  case {} (seed {}): {}\n    shrunk from {} to {} {unit}(s); bundle {}",
            f.case_index, f.case_seed, f.message, f.original_commands, f.commands, f.bundle
        );
    }
    if let Some(p) = report {
        if let Err(e) = write_json(p, &r) {
            return bad(e);
        }
    }
    let _ = std::io::stdout().flush();
    ExitCode::from(if r.failures.is_empty() {
        EXIT_OK
    } else {
        EXIT_MISMATCH
    })
}
