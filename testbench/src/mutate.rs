//! `pica mutate`: the mutation score of the verification loop (model vs RTL lockstep, the
//! corpus and the fuzzer).
//!
//! A mutant model (rtl-bridge/build.rs, "Mutant models") holds hundreds of Yosys mutations
//! of a stage top in one Verilator build, one chosen at run time by its `mutsel` input
//! ([`Variant::FeMutant`]). For each mutant this runs the corpus (lockstep, final state
//! included) and then `cases` fuzz cases of the stage's fuzzer, and stops at the first
//! divergence: the mutant is *killed* by that case (a fuzz case is shrunk and saved as a
//! bundle, like a `pica fuzz` failure). A mutant no case tells apart from the original is
//! *survived*: either the verification loop has a hole (a behaviour no case drives or no
//! comparison observes) or the mutant is equivalent (it changes nothing observable at the
//! ports). The score is killed / (mutants run - proven equivalent).
//!
//! Before any mutant, `mutsel = 0` (the Yosys netlist without mutation) must pass every case:
//! otherwise the netlist or the harness is wrong and no figure would mean anything.

use crate::fuzz;
use crate::lockstep::{self, HoldSchedule, Options};
use crate::pipe_fuzz;
use crate::stages::{self, StageSet};
use pica_model::knobs::Knobs;
use pica_rtl_bridge::mutants::{self, Mutation};
use pica_rtl_bridge::Variant;
use pica_vectors::case::Case;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Stages `pica mutate` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
    /// The front end: `pica_top` with `EnableSh = 0` (CP, REGS, FIFOs).
    Fe,
    /// The shader unit / SH stage.
    Sh,
    /// The texture combiners.
    Tev,
    /// The fragment operations.
    Fop,
    /// Clipping and rasterization.
    Rast,
}

impl Stage {
    fn name(self) -> &'static str {
        match self {
            Stage::Fe => "fe",
            Stage::Sh => "sh",
            Stage::Tev => "tev",
            Stage::Fop => "fop",
            Stage::Rast => "rast",
        }
    }
}

/// `pica mutate` arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct MutateArgs {
    /// The stage whose mutants run.
    #[arg(long, value_enum)]
    pub stage: Stage,
    /// Run the first N mutants of the model's list (the list is Yosys' even random sample, so
    /// a prefix is a smaller sample); all of them by default.
    #[arg(long, value_name = "N")]
    pub mutants: Option<usize>,
    /// Run only these mutants (comma-separated `mutsel` values).
    #[arg(
        long,
        value_name = "K,..",
        value_delimiter = ',',
        conflicts_with = "mutants"
    )]
    pub only: Vec<u16>,
    /// Fuzz cases per mutant (after the corpus).
    #[arg(long, value_name = "K", default_value_t = 32)]
    pub cases: u64,
    /// Pipeline fuzz cases per mutant (`pica fuzz --target pipeline`'s cases, last): each
    /// runs mixed, the model's pipeline beside the front end in RTL (`pica lockstep
    /// --pipeline-hold`), so REGS is held while the pipeline is busy and the CP->REGS FIFO
    /// fills — what no front-end-alone case does.
    #[arg(long, value_name = "K", default_value_t = 8)]
    pub pipe_cases: u64,
    /// Fuzz campaign seed (case i has `pica fuzz`'s case seed i of it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The corpus run first against every mutant.
    #[arg(long, value_name = "DIR", default_value = "vectors/corpus")]
    pub corpus: PathBuf,
    /// Skip the corpus (fuzz cases only).
    #[arg(long)]
    pub no_corpus: bool,
    /// Where the shrunk reproducer of each fuzz kill is written as a bundle.
    #[arg(long, value_name = "DIR", default_value = "target/mutate")]
    pub regressions: PathBuf,
    /// Do not shrink fuzz kills (faster; the reproducer is the case as generated).
    #[arg(long)]
    pub no_shrink: bool,
    /// Write the report as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// The reviewed survivors: `key | equivalent|survived | reason` lines
    /// ([`Mutation::key`]); a surviving mutant listed `equivalent` counts as equivalent.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "rtl-bridge/mutants/fe_mut.notes"
    )]
    pub notes: PathBuf,
}

/// A reviewed survivor (a line of the notes file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// `equivalent` (argued: changes nothing the ports promise) or `survived` (explained).
    pub class: String,
    /// Why.
    pub reason: String,
}

/// Reads a notes file: `key | class | reason` per line, `#` comments; a missing file is no
/// notes. Errors name the line.
pub fn load_notes(path: &Path) -> Result<std::collections::HashMap<String, Note>, String> {
    let mut out = std::collections::HashMap::new();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.splitn(3, " | ").map(str::trim).collect();
        let [key, class, reason] = parts[..] else {
            return Err(format!(
                "{}:{}: expected `key | class | reason`",
                path.display(),
                i + 1
            ));
        };
        if class != "equivalent" && class != "survived" {
            return Err(format!(
                "{}:{}: class must be `equivalent` or `survived`, not `{class}`",
                path.display(),
                i + 1
            ));
        }
        out.insert(
            key.to_string(),
            Note {
                class: class.to_string(),
                reason: reason.to_string(),
            },
        );
    }
    Ok(out)
}

/// What happened to one mutant.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MutantResult {
    /// Its `mutsel` value.
    pub index: u16,
    /// The Yosys mutation ([`Mutation::describe`]).
    pub mutation: String,
    /// `killed`, `survived`, `equivalent` or `timeout`.
    pub status: String,
    /// The case that killed it: a corpus bundle name or `fuzz 0x<case seed>`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub killed_by: Option<String>,
    /// The first line of the divergence report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The reproducer: the corpus bundle, or the shrunk fuzz case written as a bundle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproducer: Option<String>,
    /// For a survivor: the reviewed explanation (notes file), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// [`Mutation::key`], for the notes file.
    pub key: String,
}

/// A `pica mutate` report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MutateReport {
    /// The stage.
    pub stage: String,
    /// The mutant model (build.rs `MUTANT_MODELS`).
    pub model: String,
    /// Mutants the model holds.
    pub generated: usize,
    /// Mutants run.
    pub run: usize,
    /// Killed.
    pub killed: usize,
    /// Survived every case (not proven equivalent).
    pub survived: usize,
    /// Proven equivalent.
    pub equivalent: usize,
    /// Equivalence check ran out of time (counted with the survivors in the score). No proof
    /// is attempted yet (equivalence is argued in the notes file), so this stays 0.
    pub timeout: usize,
    /// killed / (run - equivalent), in percent.
    pub score_percent: f64,
    /// Corpus cases per mutant.
    pub corpus_cases: usize,
    /// Fuzz cases per mutant.
    pub fuzz_cases: u64,
    /// Pipeline fuzz cases per mutant.
    pub pipe_cases: u64,
    /// Fuzz seed.
    pub seed: u64,
    /// Per mutant.
    pub mutants: Vec<MutantResult>,
}

impl MutateReport {
    fn tally(&mut self) {
        let count = |s: &str| self.mutants.iter().filter(|m| m.status == s).count();
        self.run = self.mutants.len();
        self.killed = count("killed");
        self.survived = count("survived");
        self.equivalent = count("equivalent");
        self.timeout = count("timeout");
        let den = self.run - self.equivalent;
        self.score_percent = if den == 0 {
            100.0
        } else {
            100.0 * self.killed as f64 / den as f64
        };
    }

    /// The report for people: the totals, then one line per mutant.
    pub fn text(&self) -> String {
        let mut s = format!(
            "mutate {} (model {}): {} of {} mutants run, {} corpus + {} fuzz (+ {} pipeline) cases each (seed {})\n\
             killed {}  survived {}  equivalent {}  timeout {}  score {:.1}% of non-equivalent\n",
            self.stage,
            self.model,
            self.run,
            self.generated,
            self.corpus_cases,
            self.fuzz_cases,
            self.pipe_cases,
            self.seed,
            self.killed,
            self.survived,
            self.equivalent,
            self.timeout,
            self.score_percent
        );
        for m in &self.mutants {
            s.push_str(&format!("{:<9} {}", m.status, m.mutation));
            if let Some(by) = &m.killed_by {
                s.push_str(&format!("\n          by {by}"));
            }
            if let Some(msg) = &m.message {
                s.push_str(&format!(": {msg}"));
            }
            if let Some(r) = &m.reproducer {
                s.push_str(&format!("\n          reproducer {r}"));
            }
            if let Some(n) = &m.note {
                s.push_str(&format!("\n          note: {n}"));
            }
            if m.status == "survived" && m.note.is_none() {
                s.push_str(&format!("\n          key: {}", m.key));
            }
            s.push('\n');
        }
        s
    }
}

/// How a run is set up (the CLI's arguments without the output options).
#[derive(Clone, Debug)]
pub struct MutateOptions {
    /// The stage.
    pub stage: Stage,
    /// Which mutants (`mutsel` values); all when empty.
    pub only: Vec<u16>,
    /// The first N when `only` is empty.
    pub mutants: Option<usize>,
    /// Fuzz cases per mutant.
    pub cases: u64,
    /// Pipeline fuzz cases per mutant (mixed run, REGS held by the model's pipeline).
    pub pipe_cases: u64,
    /// Fuzz seed.
    pub seed: u64,
    /// Corpus directory (none: fuzz cases only).
    pub corpus: Option<PathBuf>,
    /// Where fuzz reproducers go.
    pub regressions: PathBuf,
    /// Shrink fuzz kills.
    pub shrink: bool,
    /// Reviewed survivors ([`load_notes`]).
    pub notes: std::collections::HashMap<String, Note>,
}

/// The first line of a lockstep report, or the error.
fn lockstep_case(case: &Case, variant: Variant) -> Result<(), String> {
    let opts = Options {
        variant,
        ..Options::default()
    };
    let r = lockstep::lockstep(case, &opts).map_err(|e| format!("lockstep: {e}"))?;
    if r.is_equal() {
        Ok(())
    } else {
        let text = lockstep::text_report(&r);
        Err(text.lines().next().unwrap_or("mismatch").to_string())
    }
}

/// Runs `case` mixed: the model GPU with its pipeline, `pica_top` build `variant` as its
/// front end beside it (cycle-exact beats, REGS held while the pipeline is busy, final state);
/// the divergence in one line.
fn mixed_fe_case(case: &Case, variant: Variant) -> Result<(), String> {
    let opts = stages::StageLockstepOptions {
        stage: stages::StageOptions {
            fe_variant: variant,
            ..stages::StageOptions::default()
        },
        trace_window: None,
        vcd: PathBuf::from("lockstep.vcd"),
    };
    let r = stages::stage_lockstep(case, &StageSet::front_end(), &opts)
        .map_err(|e| format!("mixed run: {e}"))?;
    match &r.divergence {
        None => Ok(()),
        Some(d) => Err(format!(
            "{:?} on {} at cycle {} (mixed run, pipeline holding REGS)",
            d.kind, d.channel, d.cycle
        )),
    }
}

/// The pipeline case with the fewest splices (dropped one at a time) that `variant` still
/// fails, and its message.
fn shrink_pipe(
    c: &pipe_fuzz::PipeCase,
    variant: Variant,
    mut msg: String,
) -> (pipe_fuzz::PipeCase, String) {
    let mut best = c.clone();
    let mut k = 0;
    while k < best.splices.len() {
        let mut t = best.clone();
        t.splices.remove(k);
        match t.to_case().map(|case| mixed_fe_case(&case, variant)) {
            Some(Err(m)) => {
                best = t;
                msg = m;
            }
            _ => k += 1,
        }
    }
    (best, msg)
}

/// Writes a pipeline kill's case as a bundle `dir/name`; what the report names.
fn save_pipe(case: &Case, dir: &Path, name: &str, variant: Variant) -> String {
    let out = dir.join(name);
    let saved = case.run_model().map_err(|e| e.to_string()).and_then(|run| {
        pica_vectors::bundle::write_bundle(&out, case, &run, &crate::generator())
            .map_err(|e| e.to_string())
    });
    match saved {
        Ok(_) => format!(
            "{} (replay: pica lockstep --bundle {} --pipeline-hold --variant {})",
            out.display(),
            out.display(),
            variant.label()
        ),
        Err(e) => format!("(not written: {e})"),
    }
}

fn load_corpus(dir: &Path) -> Result<Vec<(String, Case)>, String> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("corpus {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("manifest.json").is_file())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|d| {
            let b = pica_vectors::bundle::Bundle::load(&d).map_err(|e| e.to_string())?;
            let c = b.case().map_err(|e| e.to_string())?;
            Ok((d.display().to_string(), c))
        })
        .collect()
}

/// Runs the front end's mutants; `progress(done, total, result)` after each.
pub fn run_fe(
    opts: &MutateOptions,
    mut progress: impl FnMut(usize, usize, &MutantResult),
) -> Result<MutateReport, String> {
    let all = mutants::fe_mutations()?;
    if all.is_empty() {
        return Err(format!(
            "this build has no front-end mutant model ({}): build with Yosys installed \
             (scripts/setup)",
            mutants::FE_MODEL
        ));
    }
    let chosen: Vec<&Mutation> = if opts.only.is_empty() {
        all.iter().take(opts.mutants.unwrap_or(all.len())).collect()
    } else {
        opts.only
            .iter()
            .map(|&k| {
                all.iter()
                    .find(|m| m.index == k)
                    .ok_or_else(|| format!("no mutant {k} (the model holds 1..={})", all.len()))
            })
            .collect::<Result<_, _>>()?
    };
    let corpus = match &opts.corpus {
        Some(d) => load_corpus(d)?,
        None => Vec::new(),
    };
    let knobs = Knobs::default();
    // Half the fuzz cases run with REGS held on a schedule of their seed (`--hold`), as
    // `pica fuzz --rtl` runs them: the front end alone is never held otherwise.
    type FuzzCase = (u64, fuzz::FuzzList, Option<HoldSchedule>);
    let fuzz_cases: Vec<FuzzCase> = (0..opts.cases)
        .filter_map(|i| {
            let s = fuzz::case_seed(opts.seed, i);
            fuzz::generate(s).map(|l| (s, l, HoldSchedule::of_case(s)))
        })
        .collect();
    let pipe_cases: Vec<pipe_fuzz::PipeCase> = (0..opts.pipe_cases)
        .map(|i| pipe_fuzz::generate(fuzz::case_seed(opts.seed, i)))
        .filter(|c| c.to_case().is_some())
        .collect();
    // mutsel = 0 is the netlist as Yosys read the RTL: it must pass everything.
    let base = Variant::FeMutant(0);
    for c in &pipe_cases {
        if let Some(case) = c.to_case() {
            mixed_fe_case(&case, base).map_err(|e| {
                format!(
                    "the unmutated netlist (mutsel 0) fails pipeline case 0x{:016x}: {e}",
                    c.seed
                )
            })?;
        }
    }
    for (name, case) in &corpus {
        lockstep_case(case, base).map_err(|e| {
            format!("the unmutated netlist (mutsel 0) fails corpus case {name}: {e}")
        })?;
    }
    for (s, l, hold) in &fuzz_cases {
        fuzz::check_held(l, Some(base), &knobs, *hold).map_err(|e| {
            format!("the unmutated netlist (mutsel 0) fails fuzz case 0x{s:016x}: {e}")
        })?;
    }
    let mut report = MutateReport {
        stage: opts.stage.name().into(),
        model: mutants::FE_MODEL.into(),
        generated: all.len(),
        run: 0,
        killed: 0,
        survived: 0,
        equivalent: 0,
        timeout: 0,
        score_percent: 0.0,
        corpus_cases: corpus.len(),
        fuzz_cases: fuzz_cases.len() as u64,
        pipe_cases: pipe_cases.len() as u64,
        seed: opts.seed,
        mutants: Vec::new(),
    };
    let total = chosen.len();
    for (done, m) in chosen.into_iter().enumerate() {
        let v = Variant::FeMutant(m.index);
        let mut r = MutantResult {
            index: m.index,
            mutation: m.describe(),
            status: "survived".into(),
            killed_by: None,
            message: None,
            reproducer: None,
            note: None,
            key: m.key(),
        };
        let mut kill = |by: String, msg: String, repro: String| {
            r.status = "killed".into();
            r.killed_by = Some(by);
            r.message = Some(msg);
            r.reproducer = Some(repro);
        };
        let mut killed = false;
        for (name, case) in &corpus {
            if let Err(e) = lockstep_case(case, v) {
                kill(name.clone(), e, name.clone());
                killed = true;
                break;
            }
        }
        if !killed {
            for (s, l, hold) in &fuzz_cases {
                let Err(e) = fuzz::check_held(l, Some(v), &knobs, *hold) else {
                    continue;
                };
                let (list, msg) = if opts.shrink {
                    fuzz::shrink_with(*s, Some(v), &knobs)
                        .map_or((l.clone(), e), |(l, m, _)| (l, m))
                } else {
                    (l.clone(), e)
                };
                let name = format!("mutate-fe-{}-{s:016x}", m.index);
                let held = hold.map_or_else(String::new, |h| format!(" --hold {h}"));
                let repro = match fuzz::save(&list, &opts.regressions, &name, Some(*s)) {
                    Ok(d) => format!(
                        "{} ({} commands; replay: pica lockstep --bundle {} --variant {}{held})",
                        d.display(),
                        list.commands(),
                        d.display(),
                        v.label()
                    ),
                    Err(e) => format!("(not written: {e})"),
                };
                let by = hold.map_or_else(String::new, |h| format!(", REGS held on {h}"));
                kill(format!("fuzz 0x{s:016x}{by}"), msg, repro);
                killed = true;
                break;
            }
        }
        if !killed {
            for c in &pipe_cases {
                let Some(Err(e)) = c.to_case().map(|case| mixed_fe_case(&case, v)) else {
                    continue;
                };
                let (c, msg) = if opts.shrink {
                    shrink_pipe(c, v, e)
                } else {
                    (c.clone(), e)
                };
                let name = format!("mutate-fe-{}-pipeline-{:016x}", m.index, c.seed);
                let repro = c.to_case().map_or_else(String::new, |case| {
                    save_pipe(&case, &opts.regressions, &name, v)
                });
                kill(format!("fuzz pipeline 0x{:016x}", c.seed), msg, repro);
                break;
            }
        }
        if r.status == "survived" {
            if let Some(n) = opts.notes.get(&r.key) {
                r.status.clone_from(&n.class);
                r.note = Some(n.reason.clone());
            }
        }
        progress(done + 1, total, &r);
        report.mutants.push(r);
    }
    report.tally();
    Ok(report)
}

/// Runs `pica mutate` on `opts`.
pub fn run(
    opts: &MutateOptions,
    progress: impl FnMut(usize, usize, &MutantResult),
) -> Result<MutateReport, String> {
    match opts.stage {
        Stage::Fe => run_fe(opts, progress),
        s => Err(format!(
            "no mutant model of stage {} in this build: only the front end (fe) has one \
             (rtl-bridge/build.rs MUTANT_MODELS)",
            s.name()
        )),
    }
}

/// `pica mutate`: exit 0 when every mutant run was killed, equivalent or a reviewed survivor
/// (notes file), 1 when an unreviewed one survived, 2 on bad arguments or a broken harness.
pub fn main(args: &MutateArgs) -> std::process::ExitCode {
    let notes = match load_notes(&args.notes) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let opts = MutateOptions {
        notes,
        stage: args.stage,
        only: args.only.clone(),
        mutants: args.mutants,
        cases: args.cases,
        pipe_cases: args.pipe_cases,
        seed: args.seed,
        corpus: (!args.no_corpus).then(|| args.corpus.clone()),
        regressions: args.regressions.clone(),
        shrink: !args.no_shrink,
    };
    let report = match run(&opts, |done, total, r| {
        eprintln!("[{done}/{total}] {:<8} {}", r.status, r.mutation);
    }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    print!("{}", report.text());
    if let Some(p) = &args.json {
        let text = serde_json::to_string_pretty(&report).unwrap_or_default();
        if let Err(e) = std::fs::write(p, text + "\n") {
            eprintln!("error: writing {}: {e}", p.display());
            return std::process::ExitCode::from(2);
        }
    }
    let unreviewed = report
        .mutants
        .iter()
        .any(|m| (m.status == "survived" && m.note.is_none()) || m.status == "timeout");
    if !unreviewed {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(1)
    }
}
