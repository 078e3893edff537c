//! `pica cov rtl`: code coverage of the RTL (Verilator `--coverage`: line, toggle and branch
//! points), next to the model's functional coverage of [`crate::cov::functional`].
//!
//! Two producers, one consumer:
//! - `pica cov rtl run BUNDLE... --out DIR` replays each bundle (full bundles on `pica_top`,
//!   stage bundles on their stage top) through `scripts/replay --coverage`, which builds the
//!   bundle kind's plain SystemVerilog replay testbench once with `verilator --coverage`
//!   (cached under `target/replay/verilator-cov-<hash of the sources>/`) and writes one
//!   Verilator coverage file (`coverage.dat` format) per bundle. This needs no second build of
//!   the workspace. The replay script is the one place that maps a bundle's manifest to the
//!   testbench's plusargs, so this module does not repeat it.
//! - `pica lockstep --rtl-coverage FILE` and `pica fuzz --rtl-coverage FILE` write the same
//!   format straight from the bridge, for every stage top the bridge drives: they run the
//!   coverage build of each RTL stage ([`pica_rtl_bridge::coverage`]: `cov_fe` for the front
//!   end, `pica lockstep` and `pica fuzz --target regs --rtl`; `cov_tex`, `cov_tev`,
//!   `cov_fop`, `cov_rast` for `--rtl-stages tex|tev|fop|rast` and `pica fuzz --target
//!   tex|tev|fop|rast --rtl`;
//!   `cov_sh`, the four-unit `pica_sh_top`, for `--rtl-stages sh`; not the single shader unit
//!   of `pica fuzz --target shader`) and write the points all their cases hit, one file per
//!   run (per shard of a campaign; per stage of a `pica lockstep` with several RTL stages).
//!   Their points sit under `TOP.<stage top>` (`TOP.pica_top`, `TOP.pica_tev_top`, ...), the
//!   replay testbenches' under `TOP.<testbench>.dut`: both fold into the same stage
//!   ([`stage_of_hier`]; `TOP.pica_sh_top` is stage `sh`, [`MORE_BRIDGE_TOPS`]).
//! - `pica cov rtl report DAT...` merges the files with `verilator_coverage --write`, reads the
//!   merged file ([`parse_dat`]), prints covered/total line, toggle and branch points per stage
//!   and per RTL module ([`report`]), and writes annotated sources (`verilator_coverage
//!   --annotate`) and JSON.
//!
//! A point belongs to the stage of the testbench (or bridge top) its hierarchy starts with
//! ([`stage_of_hier`]); the testbench's own points (outside its `dut`) are left out. Within a
//! stage, the instances of a module are folded: a module's point (file, line, column, kind,
//! signal bit) is covered when any instance reached it at least `min` times, so four shader
//! units or six combiner stages count each point of their module once (parameterizations
//! too: Verilator's `pica_tev_stage__S1` is `pica_tev_stage`). A source file is known by its
//! name alone, so the files of bridge runs (`pica lockstep` / `pica fuzz --rtl-coverage`, whose
//! points sit under `TOP.<stage top>`) and of replay testbenches (under `TOP.<testbench>.dut`) fold
//! into one table even when built from different checkouts.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The stages with landed RTL: (stage, replay testbench top, stage top of the bridge).
pub const STAGES: &[(&str, &str, &str)] = &[
    ("fe", "replay_tb", "pica_top"),
    ("sh", "pica_sh_unit_replay_tb", "pica_sh_unit_top"),
    ("tex", "pica_tex_replay_tb", "pica_tex_top"),
    ("tev", "pica_tev_replay_tb", "pica_tev_top"),
    ("fop", "pica_fop_replay_tb", "pica_fop_top"),
    ("rast", "pica_rast_replay_tb", "pica_rast_top"),
];

/// Bridge tops of a stage besides the one of [`STAGES`]: (stage, top). The bridge's SH
/// coverage build (`cov_sh`) is the four-unit SH stage `pica_sh_top` that `--rtl-stages sh`
/// runs, where the replay testbench and `pica fuzz --target shader` run one unit; the unit's
/// module points fold together all the same.
pub const MORE_BRIDGE_TOPS: &[(&str, &str)] = &[("sh", "pica_sh_top")];

/// The stage a bundle of manifest `kind` replays on (`""`: a full bundle, the front end).
pub fn stage_of_kind(kind: &str) -> Option<&'static str> {
    match kind {
        "" => Some("fe"),
        "stage:shader_unit" => Some("sh"),
        "stage:tex" => Some("tex"),
        "stage:tev" => Some("tev"),
        "stage:fop" => Some("fop"),
        "stage:rast" => Some("rast"),
        _ => None,
    }
}

/// The stage and the design-under-test prefix of a point's hierarchy: `TOP.<tb>.dut…` for a
/// replay testbench (points of the testbench itself, outside `dut`, give `None`), or
/// `TOP.<stage top>…` for a bridge model. An unknown top is its own stage.
pub fn stage_of_hier(hier: &str) -> Option<String> {
    let mut parts = hier.split('.');
    if parts.next() != Some("TOP") {
        return None;
    }
    let top = parts.next()?;
    if let Some(&(stage, _, _)) = STAGES.iter().find(|s| s.1 == top) {
        return (parts.next() == Some("dut")).then(|| stage.to_string());
    }
    if let Some(&(stage, _, _)) = STAGES.iter().find(|s| s.2 == top) {
        return Some(stage.to_string());
    }
    if let Some(&(stage, _)) = MORE_BRIDGE_TOPS.iter().find(|s| s.1 == top) {
        return Some(stage.to_string());
    }
    Some(top.to_string())
}

/// The kind of a coverage point (the part of its page before the `/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PointKind {
    /// `v_line`: a block of statements.
    Line,
    /// `v_toggle`: one bit of a signal changed value.
    Toggle,
    /// `v_branch`: one arm of an `if` or `case`.
    Branch,
    /// Any other page (`v_user`, `v_expr` ...): counted in the totals only.
    Other,
}

/// One point of a Verilator coverage file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    /// Source file (`f`).
    pub file: String,
    /// Source line (`l`).
    pub line: u32,
    /// Source column (`n`).
    pub column: u32,
    /// Kind, from the page (`page`, e.g. `v_toggle/pica_tev`).
    pub kind: PointKind,
    /// Module, from the page.
    pub module: String,
    /// What the point is (`o`: `block`, `if`, `else`, a signal bit `in_tex_i[45]` ...).
    pub comment: String,
    /// Instance (`h`: `TOP.pica_tev_replay_tb.dut.u_tev`).
    pub hier: String,
    /// Hits.
    pub count: u64,
}

/// Parses a Verilator coverage file (`# SystemC::Coverage-3`, one `C '<key>' <count>` line per
/// point; the key is `\x01<name>\x02<value>` pairs). `what` names the file in errors.
pub fn parse_dat(text: &str, what: &str) -> Result<Vec<Point>, String> {
    let mut points = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{what}:{}", i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let rest = line
            .strip_prefix("C '")
            .ok_or_else(|| format!("{}: not a coverage point line (`C '…' N`)", at()))?;
        let end = rest
            .rfind('\'')
            .ok_or_else(|| format!("{}: the key has no closing quote", at()))?;
        let (key, count) = (&rest[..end], rest[end + 1..].trim());
        let count: u64 = count
            .parse()
            .map_err(|_| format!("{}: count `{count}` is not a number", at()))?;
        let mut f: BTreeMap<&str, &str> = BTreeMap::new();
        for pair in key.split('\x01').filter(|p| !p.is_empty()) {
            let (k, v) = pair
                .split_once('\x02')
                .ok_or_else(|| format!("{}: key field `{pair}` has no value", at()))?;
            f.insert(k, v);
        }
        let get = |k: &str| {
            f.get(k)
                .copied()
                .ok_or_else(|| format!("{}: the point has no `{k}` field", at()))
        };
        let num = |k: &str| -> Result<u32, String> {
            let v = get(k)?;
            v.parse()
                .map_err(|_| format!("{}: field `{k}` = `{v}` is not a number", at()))
        };
        let page = get("page")?;
        let (kind, module) = page.split_once('/').unwrap_or((page, ""));
        // Verilator names each parameterization of a module `<module>__S<n>` (or `__pi<n>`);
        // RTL module names here have no `__`, so the part before it is the source module.
        let module = module.split("__").next().unwrap_or(module);
        let kind = match kind {
            "v_line" => PointKind::Line,
            "v_toggle" => PointKind::Toggle,
            "v_branch" => PointKind::Branch,
            _ => PointKind::Other,
        };
        points.push(Point {
            file: get("f")?.to_string(),
            line: num("l")?,
            column: f.get("n").map_or(Ok(0), |_| num("n"))?,
            kind,
            module: module.to_string(),
            comment: f.get("o").copied().unwrap_or_default().to_string(),
            hier: f.get("h").copied().unwrap_or_default().to_string(),
            count,
        });
    }
    Ok(points)
}

/// Reads and parses one coverage file.
pub fn read_dat(path: &Path) -> Result<Vec<Point>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if !text.starts_with("# SystemC::Coverage") {
        return Err(format!(
            "{}: not a Verilator coverage file (no `# SystemC::Coverage` header)",
            path.display()
        ));
    }
    parse_dat(&text, &path.display().to_string())
}

/// Covered and total points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Points hit at least `min` times.
    pub covered: u64,
    /// Points.
    pub total: u64,
}

impl Tally {
    fn add(&mut self, covered: bool) {
        self.total += 1;
        self.covered += u64::from(covered);
    }
    fn plus(&mut self, o: Tally) {
        self.total += o.total;
        self.covered += o.covered;
    }
    /// `covered/total  pp.p%` (a dash for no points).
    pub fn cell(&self) -> String {
        if self.total == 0 {
            return "-".into();
        }
        format!(
            "{}/{} {:5.1}%",
            self.covered,
            self.total,
            100.0 * self.covered as f64 / self.total as f64
        )
    }
}

/// Line, toggle and branch tallies of one module or stage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Figures {
    /// Module name (the stage's total: `total`).
    pub module: String,
    /// The module's source file.
    pub file: String,
    /// Line (block) points.
    pub line: Tally,
    /// Toggle points (one per signal bit).
    pub toggle: Tally,
    /// Branch points (one per arm).
    pub branch: Tally,
    /// Points of other kinds.
    pub other: Tally,
}

impl Figures {
    fn tally(&mut self, kind: PointKind) -> &mut Tally {
        match kind {
            PointKind::Line => &mut self.line,
            PointKind::Toggle => &mut self.toggle,
            PointKind::Branch => &mut self.branch,
            PointKind::Other => &mut self.other,
        }
    }
}

/// The figures of one stage: per module and in total.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StageFigures {
    /// Stage (`fe`, `sh`, `tex`, `tev`, `fop`, `rast`, or an unknown top's name).
    pub stage: String,
    /// Instance points of this stage in the input (before folding instances).
    pub instance_points: u64,
    /// Per module, by name.
    pub modules: Vec<Figures>,
    /// Sum over the modules.
    pub total: Figures,
}

/// The report of a set of points: every stage with points.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RtlReport {
    /// Points in the input (every `C` line).
    pub points: u64,
    /// Points of the testbenches themselves (outside each `dut`), left out of the stages.
    pub testbench_points: u64,
    /// A point counts as covered at this many hits or more.
    pub min: u64,
    /// Per stage, in the order of [`STAGES`], then unknown tops by name.
    pub stages: Vec<StageFigures>,
}

/// Folds `points` into per-stage, per-module figures (see the module comment).
pub fn report(points: &[Point], min: u64) -> RtlReport {
    type Key<'a> = (&'a str, &'a str, u32, u32, PointKind, &'a str);
    // stage -> folded point -> hits over its instances
    let mut folded: BTreeMap<String, BTreeMap<Key, u64>> = BTreeMap::new();
    let mut inst: BTreeMap<String, u64> = BTreeMap::new();
    let mut r = RtlReport {
        points: points.len() as u64,
        min,
        ..RtlReport::default()
    };
    for p in points {
        let Some(stage) = stage_of_hier(&p.hier) else {
            r.testbench_points += 1;
            continue;
        };
        *inst.entry(stage.clone()).or_default() += 1;
        // The file by its name alone: a bridge model and a replay testbench built from two
        // checkouts (or a CI runner and a laptop) name the same source by different paths.
        let file = p.file.rsplit('/').next().unwrap_or(&p.file);
        let key = (
            p.module.as_str(),
            file,
            p.line,
            p.column,
            p.kind,
            p.comment.as_str(),
        );
        let e = folded.entry(stage).or_default().entry(key).or_default();
        *e = e.saturating_add(p.count);
    }
    let order = |s: &str| STAGES.iter().position(|x| x.0 == s).unwrap_or(STAGES.len());
    let mut stages: Vec<(String, BTreeMap<Key, u64>)> = folded.into_iter().collect();
    stages.sort_by(|a, b| (order(&a.0), &a.0).cmp(&(order(&b.0), &b.0)));
    for (stage, pts) in stages {
        let mut mods: BTreeMap<&str, Figures> = BTreeMap::new();
        let mut total = Figures {
            module: "total".into(),
            ..Figures::default()
        };
        for ((module, file, _, _, kind, _), hits) in pts {
            let m = mods.entry(module).or_insert_with(|| Figures {
                module: module.to_string(),
                file: file.to_string(),
                ..Figures::default()
            });
            m.tally(kind).add(hits >= min);
            total.tally(kind).add(hits >= min);
        }
        r.stages.push(StageFigures {
            instance_points: inst.get(&stage).copied().unwrap_or(0),
            stage,
            modules: mods.into_values().collect(),
            total,
        });
    }
    r
}

impl RtlReport {
    /// The figures of `stage`, if it has points.
    pub fn stage(&self, stage: &str) -> Option<&StageFigures> {
        self.stages.iter().find(|s| s.stage == stage)
    }

    /// Sum of every stage's totals.
    pub fn total(&self) -> Figures {
        let mut t = Figures {
            module: "total".into(),
            ..Figures::default()
        };
        for s in &self.stages {
            t.line.plus(s.total.line);
            t.toggle.plus(s.total.toggle);
            t.branch.plus(s.total.branch);
            t.other.plus(s.total.other);
        }
        t
    }

    /// The text report: one table per stage, a row per module and the stage total.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "RTL code coverage (Verilator points hit >= {} time(s); instances of a module folded)",
            self.min
        );
        for st in &self.stages {
            let _ = writeln!(s, "\nstage {}", st.stage);
            let _ = writeln!(
                s,
                "  {:<22} {:>20} {:>22} {:>18}",
                "module", "line", "toggle", "branch"
            );
            for m in st.modules.iter().chain(std::iter::once(&st.total)) {
                let _ = writeln!(
                    s,
                    "  {:<22} {:>20} {:>22} {:>18}",
                    m.module,
                    m.line.cell(),
                    m.toggle.cell(),
                    m.branch.cell()
                );
            }
        }
        if self.stages.is_empty() {
            let _ = writeln!(s, "no RTL points (only testbench points)");
        }
        s
    }
}

/// The stages of `want` that have no covered point in `r` (absent, or nothing reached).
pub fn missing_stages(r: &RtlReport, want: &[String]) -> Vec<String> {
    want.iter()
        .filter(|s| {
            r.stage(s).is_none_or(|st| {
                let t = &st.total;
                t.line.covered + t.toggle.covered + t.branch.covered + t.other.covered == 0
            })
        })
        .cloned()
        .collect()
}

/// `verilator_coverage` (or `$VERILATOR_COVERAGE`).
fn verilator_coverage() -> String {
    std::env::var("VERILATOR_COVERAGE").unwrap_or_else(|_| "verilator_coverage".into())
}

fn run_tool(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd.output().map_err(|e| {
        format!("cannot run {what}: {e} (scripts/setup installs Verilator, which brings it)")
    })?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout).trim(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Merges coverage files into `out` with `verilator_coverage --write` (counts of the same
/// point add up).
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<(), String> {
    if inputs.is_empty() {
        return Err("no coverage files to merge".into());
    }
    for p in inputs {
        // Parse each input first, so a bad file is named (verilator_coverage's message is not).
        read_dat(p)?;
    }
    let bin = verilator_coverage();
    run_tool(
        Command::new(&bin).arg("--write").arg(out).args(inputs),
        &format!("{bin} --write {}", out.display()),
    )
    .map(|_| ())
}

/// Writes the sources of `dat` annotated with their points' hits into `dir`
/// (`verilator_coverage --annotate`, lines with a point below `min` hits marked `%`).
pub fn annotate(dat: &Path, dir: &Path, min: u64) -> Result<(), String> {
    let bin = verilator_coverage();
    run_tool(
        Command::new(&bin)
            .arg("--annotate")
            .arg(dir)
            .arg("--annotate-min")
            .arg(min.to_string())
            .arg(dat),
        &format!("{bin} --annotate {}", dir.display()),
    )
    .map(|_| ())
}

/// The `.dat` files named: files as given, directories' `*.dat` (sorted).
pub fn dat_files(args: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for a in args {
        if a.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(a)
                .map_err(|e| format!("{}: cannot list: {e}", a.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "dat"))
                .collect();
            if v.is_empty() {
                return Err(format!("{}: no .dat files in this directory", a.display()));
            }
            v.sort();
            out.extend(v);
        } else if a.is_file() {
            out.push(a.clone());
        } else {
            return Err(format!("{}: no such file or directory", a.display()));
        }
    }
    Ok(out)
}

/// The bundles named: a directory with `manifest.json`, or a directory whose subdirectories
/// are bundles (sorted; one level).
pub fn bundle_dirs(args: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for a in args {
        if a.join("manifest.json").is_file() {
            out.push(a.clone());
            continue;
        }
        if !a.is_dir() {
            return Err(format!(
                "{}: not a bundle (no manifest.json) nor a directory",
                a.display()
            ));
        }
        let mut v: Vec<PathBuf> = std::fs::read_dir(a)
            .map_err(|e| format!("{}: cannot list: {e}", a.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("manifest.json").is_file())
            .collect();
        if v.is_empty() {
            return Err(format!(
                "{}: neither a bundle nor a directory of bundles (no manifest.json)",
                a.display()
            ));
        }
        v.sort();
        out.extend(v);
    }
    Ok(out)
}

/// The manifest `kind` of a bundle (`""` for a full bundle).
pub fn bundle_kind(dir: &Path) -> Result<String, String> {
    let p = dir.join("manifest.json");
    let text =
        std::fs::read_to_string(&p).map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", p.display()))?;
    Ok(v.get("kind")
        .and_then(|k| k.as_str())
        .unwrap_or_default()
        .to_string())
}

/// `scripts/replay`: `$PICA_REPLAY`, else `scripts/replay` under the working directory, else
/// the one of this source tree.
pub fn replay_script() -> PathBuf {
    if let Some(p) = std::env::var_os("PICA_REPLAY") {
        return PathBuf::from(p);
    }
    let here = Path::new("scripts/replay");
    if here.is_file() {
        return here.to_path_buf();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/replay")
}

/// One replay of [`run`].
#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    /// The bundle.
    pub bundle: PathBuf,
    /// Its stage.
    pub stage: String,
    /// The coverage file written (`None`: the replay failed).
    pub dat: Option<PathBuf>,
    /// The replay's verdict line or error.
    pub message: String,
}

/// Replays run at once by `run`: `PICA_REPLAY_JOBS` if set (a whole number, at least 1), else
/// the machine's cores (at most 4: each replay is one simulation, and the coverage builds use
/// two jobs). A value that is not a whole number of at least 1 is an error, not a silent
/// fallback: a campaign asked to run on one worker should not take four.
fn replay_workers() -> Result<usize, String> {
    match std::env::var("PICA_REPLAY_JOBS") {
        Ok(v) => parse_replay_jobs(&v),
        Err(_) => Ok(std::thread::available_parallelism()
            .map(|n| n.get().min(4))
            .unwrap_or(1)),
    }
}

/// `PICA_REPLAY_JOBS`'s value as a number of workers.
fn parse_replay_jobs(v: &str) -> Result<usize, String> {
    match v.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "PICA_REPLAY_JOBS={v:?}: not a number of replay workers (a whole number, at least 1)"
        )),
    }
}

/// Replays each bundle under the coverage build of its testbench, writing
/// `out/<stage>-<bundle name>.dat`; `stage` keeps only bundles of that stage. A failed replay
/// is reported in its result (no `.dat`), not as an error.
pub fn run(bundles: &[PathBuf], out: &Path, stage: Option<&str>) -> Result<Vec<RunResult>, String> {
    if let Some(s) = stage {
        if !STAGES.iter().any(|x| x.0 == s) {
            return Err(format!(
                "--stage {s}: not a stage with replayable RTL (fe, sh, tex, tev, fop, rast)"
            ));
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: cannot create: {e}", out.display()))?;
    let script = replay_script();
    if !script.is_file() {
        return Err(format!(
            "{}: the replay script is missing (run from the repository, or set PICA_REPLAY)",
            script.display()
        ));
    }
    // The jobs in the arguments' order (the `.dat` names are chosen here, one at a time), then
    // replayed by a few threads at once: a replay is one single-threaded simulation, and the
    // first replay of each testbench builds it under a lock (scripts/replay), so the others
    // of that stage wait for the build and then share it.
    struct Job {
        bundle: PathBuf,
        stage: &'static str,
        dat: PathBuf,
        full_state: bool,
    }
    let mut jobs: Vec<Job> = Vec::new();
    for b in bundle_dirs(bundles)? {
        let kind = bundle_kind(&b)?;
        let st = stage_of_kind(&kind).ok_or_else(|| {
            format!(
                "{}: bundle kind `{kind}` has no replay testbench",
                b.display()
            )
        })?;
        if stage.is_some_and(|s| s != st) {
            continue;
        }
        let name = b
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "bundle".into());
        let mut dat = out.join(format!("{st}-{name}.dat"));
        let mut n = 1;
        while jobs.iter().any(|j| j.dat == dat) {
            n += 1;
            dat = out.join(format!("{st}-{name}-{n}.dat"));
        }
        // A full-top bundle with its final state: the whole debug map is compared too (units,
        // LUTs, packers), so the test command's coverage step is also its Verilator replay of
        // the corpus with the full state (rtl_tools replays it under Icarus).
        let full_state = kind.is_empty() && b.join("final_state.json").is_file();
        jobs.push(Job {
            bundle: b,
            stage: st,
            dat,
            full_state,
        });
    }
    let replay = |j: &Job| -> Result<RunResult, String> {
        let mut cmd = Command::new("bash");
        cmd.arg(&script)
            .arg(&j.bundle)
            .arg("--coverage")
            .arg(&j.dat);
        if j.full_state {
            cmd.arg("--full-state");
        }
        let o = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        let stdout = String::from_utf8_lossy(&o.stdout);
        // The beats' verdict, and with --full-state the state's (`STATE OK` / `STATE ...`).
        let verdict = stdout
            .lines()
            .filter(|l| l.starts_with("PASS") || l.starts_with("FAIL") || l.starts_with("STATE"))
            .collect::<Vec<_>>()
            .join("; ");
        let ok = o.status.success() && j.dat.is_file();
        let message = if ok {
            verdict
        } else {
            let err = String::from_utf8_lossy(&o.stderr);
            format!(
                "replay failed ({}): {} {}",
                o.status,
                verdict,
                err.lines().rev().take(5).collect::<Vec<_>>().join(" | ")
            )
        };
        Ok(RunResult {
            bundle: j.bundle.clone(),
            stage: j.stage.to_string(),
            dat: ok.then(|| j.dat.clone()),
            message,
        })
    };
    // Taken round-robin across stages (each stage's first bundle, then each one's second, …):
    // the first replay of a stage builds its testbench, and Verilator's verilation is single
    // threaded, so two workers then build two stages' testbenches at once instead of waiting
    // on one stage's build lock.
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let rank: Vec<usize> = jobs
        .iter()
        .map(|j| {
            let k = seen.entry(j.stage).or_default();
            *k += 1;
            *k
        })
        .collect();
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| rank[i]);
    let workers = replay_workers()?.min(jobs.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut slots: Vec<Option<Result<RunResult, String>>> = (0..jobs.len()).map(|_| None).collect();
    std::thread::scope(|sc| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                sc.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&i) = order.get(n) else { break };
                        let j = &jobs[i];
                        done.push((i, replay(j)));
                    }
                    done
                })
            })
            .collect();
        for h in handles {
            // A worker only returns (replay never panics: its errors are values).
            if let Ok(done) = h.join() {
                for (i, r) in done {
                    slots[i] = Some(r);
                }
            }
        }
    });
    let mut results = Vec::with_capacity(jobs.len());
    for (slot, j) in slots.into_iter().zip(&jobs) {
        results
            .push(slot.ok_or_else(|| format!("{}: the replay thread died", j.bundle.display()))??);
    }
    if results.is_empty() {
        return Err(match stage {
            Some(s) => format!("no bundle of stage {s} among the arguments"),
            None => "no bundles".into(),
        });
    }
    Ok(results)
}

/// The fuzz targets [`gen`] writes cases of, with the stage their bundles replay on.
pub const GEN_TARGETS: &[(&str, &str)] = &[
    ("regs", "fe"),
    ("shader", "sh"),
    ("tex", "tex"),
    ("tev", "tev"),
    ("fop", "fop"),
    ("rast", "rast"),
];

/// Writes cases `0..cases` of a `pica fuzz --target TARGET --seed SEED` campaign (case `i` from
/// `case_seed(seed, i)`, as the campaign generates it) as bundles `out/<target>-<i>/`, each with
/// the model's expected results: the campaign's stimulus, replayable on the coverage build of
/// its stage's testbench. Register cases are full bundles (`pica_top`), the others stage
/// bundles. A register case the generator rejects is skipped.
pub fn gen(out: &Path, target: &str, cases: u64, seed: u64) -> Result<Vec<PathBuf>, String> {
    use pica_vectors::stage::StageProvenance;
    if !GEN_TARGETS.iter().any(|t| t.0 == target) {
        return Err(format!(
            "--target {target}: not one of regs, shader, tex, tev, fop, rast"
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: cannot create: {e}", out.display()))?;
    let mut v = Vec::new();
    for i in 0..cases {
        let cs = crate::fuzz::report::case_seed(seed, i);
        let name = format!("{target}-{i:05}");
        let prov = StageProvenance {
            generator: format!("pica cov rtl gen --target {target}"),
            seed: Some(seed),
            case_index: Some(i),
            case_seed: Some(cs),
            ..StageProvenance::default()
        };
        let desc = format!("case {i} of a {target} fuzz campaign (seed {seed})");
        let dir = match target {
            "regs" => match crate::fuzz::regs::generate(cs) {
                Some(list) => crate::fuzz::regs::save(&list, out, &name, Some(cs))?,
                None => continue,
            },
            "shader" => crate::fuzz::shader::save_bundle(
                &pica_vectors::shader_gen::generate(cs),
                out,
                &name,
                &desc,
                None,
                &prov,
            )?,
            "tex" => crate::fuzz::tex::save_bundle(
                &crate::fuzz::tex::generate(cs),
                out,
                &name,
                &desc,
                &prov,
            )?,
            "tev" => crate::fuzz::tev::save_bundle(
                &crate::fuzz::tev::generate(cs),
                out,
                &name,
                &desc,
                &prov,
            )?,
            "fop" => crate::fuzz::fop::save_bundle(
                // Images over every buffer the case uses, as a saved failure has.
                &crate::fuzz::fop::covering_images(&crate::fuzz::fop::generate(cs)),
                out,
                &name,
                &desc,
                &prov,
            )?,
            _ => crate::fuzz::rast::save_bundle(
                &crate::fuzz::rast::generate(cs),
                out,
                &name,
                &desc,
                &prov,
            )?,
        };
        v.push(dir);
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAT: &str = "# SystemC::Coverage-3\n\
C '\x01f\x02/r/rtl/pica_tev.sv\x01l\x02133\x01n\x025\x01page\x02v_line/pica_tev\x01o\x02block\x01S\x02133\x01h\x02TOP.pica_tev_replay_tb.dut.u_tev' 2436\n\
C '\x01f\x02/r/rtl/pica_tev_stage.sv\x01l\x0210\x01n\x021\x01page\x02v_toggle/pica_tev_stage\x01o\x02a[0]\x01h\x02TOP.pica_tev_replay_tb.dut.u_tev.g[0].s' 0\n\
C '\x01f\x02/r/rtl/pica_tev_stage.sv\x01l\x0210\x01n\x021\x01page\x02v_toggle/pica_tev_stage\x01o\x02a[0]\x01h\x02TOP.pica_tev_replay_tb.dut.u_tev.g[1].s' 3\n\
C '\x01f\x02/r/rtl/pica_tev_stage.sv\x01l\x0212\x01n\x021\x01page\x02v_branch/pica_tev_stage\x01o\x02if\x01h\x02TOP.pica_tev_replay_tb.dut.u_tev.g[0].s' 0\n\
C '\x01f\x02/r/tb/tb.sv\x01l\x021\x01n\x021\x01page\x02v_line/pica_tev_replay_tb\x01o\x02block\x01h\x02TOP.pica_tev_replay_tb' 1\n";

    #[test]
    fn cov_rtl_replay_jobs_refuses_what_is_not_a_count() {
        assert_eq!(parse_replay_jobs("3"), Ok(3));
        assert_eq!(parse_replay_jobs(" 1\n"), Ok(1));
        for bad in ["0", "", "two", "-1", "2.5"] {
            let e = parse_replay_jobs(bad).expect_err(bad);
            assert!(e.contains("PICA_REPLAY_JOBS"), "{e}");
        }
    }

    #[test]
    fn cov_rtl_parse_folds_instances_and_drops_testbench_points() {
        let pts = parse_dat(DAT, "t.dat").expect("parses");
        assert_eq!(pts.len(), 5);
        assert_eq!(pts[0].kind, PointKind::Line);
        assert_eq!((pts[0].line, pts[0].column, pts[0].count), (133, 5, 2436));
        let r = report(&pts, 1);
        assert_eq!((r.points, r.testbench_points), (5, 1));
        let tev = r.stage("tev").expect("tev stage");
        assert_eq!(tev.instance_points, 4);
        // The toggle bit is reached in instance g[1] only: covered once, folded.
        assert_eq!(
            tev.total.toggle,
            Tally {
                covered: 1,
                total: 1
            }
        );
        assert_eq!(
            tev.total.branch,
            Tally {
                covered: 0,
                total: 1
            }
        );
        assert_eq!(
            tev.total.line,
            Tally {
                covered: 1,
                total: 1
            }
        );
        assert_eq!(tev.modules.len(), 2);
        // At a higher threshold the folded toggle (3 hits) is not covered.
        assert_eq!(
            report(&pts, 4).stage("tev").map(|s| s.total.toggle.covered),
            Some(0)
        );
    }

    #[test]
    fn cov_rtl_parse_names_the_bad_line() {
        let e = parse_dat("# SystemC::Coverage-3\nC 'x' many\n", "a.dat").unwrap_err();
        assert!(e.contains("a.dat:2"), "{e}");
        let e = parse_dat("junk\n", "b.dat").unwrap_err();
        assert!(e.contains("b.dat:1"), "{e}");
        let e = parse_dat("C '\x01l\x021' 1\n", "c.dat").unwrap_err();
        assert!(e.contains("c.dat:1") && e.contains("page"), "{e}");
    }

    #[test]
    fn cov_rtl_stage_of_hier() {
        assert_eq!(
            stage_of_hier("TOP.replay_tb.dut.u_cp").as_deref(),
            Some("fe")
        );
        assert_eq!(stage_of_hier("TOP.replay_tb.u_mem"), None);
        assert_eq!(
            stage_of_hier("TOP.pica_rast_top.u_clip").as_deref(),
            Some("rast")
        );
        assert_eq!(
            stage_of_hier("TOP.pica_rast_replay_tb.dut").as_deref(),
            Some("rast")
        );
        assert_eq!(stage_of_hier("x"), None);
    }
}
