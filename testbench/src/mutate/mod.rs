//! `pica mutate`: the mutation score of the verification loop (model vs RTL, the corpus and
//! the fuzzers) of each RTL stage.
//!
//! A mutant model (rtl-bridge/build.rs, "Mutant models") holds hundreds of Yosys mutations
//! of a stage top in one Verilator build, one chosen at run time by its `mutsel` input
//! ([`Variant::FeMutant`], `TevVariant::Mutant`, ...). For each mutant this runs the stage's
//! corpus (the front end: lockstep, final state included; the other stages have no corpus of
//! stage cases) and then `cases` fuzz cases of the stage's fuzzer, checked exactly as
//! `pica fuzz --target regs|tev|fop|rast|shader --rtl` checks them, and stops at the first
//! divergence: the mutant is *killed* by that case (a fuzz case is shrunk and saved as a
//! bundle, like a `pica fuzz` failure). A mutant no case tells apart from the original is
//! *survived*: either the verification loop has a hole (a behaviour no case drives or no
//! comparison observes) or the mutant is equivalent (it changes nothing observable at the
//! ports). The score is killed / (mutants run - proven equivalent).
//!
//! Before any mutant, `mutsel = 0` (the Yosys netlist without mutation) must pass every case:
//! otherwise the netlist or the harness is wrong and no figure would mean anything.

use crate::fuzz::campaign::{found_in, Found};
use crate::fuzz::{fop, pipe, rast, regs, shader, tev};
use crate::lockstep::stages::{self, StageSet};
use crate::lockstep::{self, HoldSchedule, Options};
use pica_model::knobs::Knobs;
use pica_rtl_bridge::fop_stage::{FopVariant, MemLatency};
use pica_rtl_bridge::mutants::{self, Mutation};
use pica_rtl_bridge::rast_stage::RastVariant;
use pica_rtl_bridge::shader::ShVariant;
use pica_rtl_bridge::tev_stage::TevVariant;
use pica_rtl_bridge::Variant;
use pica_vectors::case::Case;
use pica_vectors::stage::StageProvenance;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Stages `pica mutate` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
    /// The front end: `pica_top` with `EnableSh = 0` (CP, REGS, FIFOs); corpus + `pica fuzz
    /// --target regs --rtl`.
    Fe,
    /// One shader unit (`pica_sh_unit_top`); `pica fuzz --target shader --rtl`. Not built by
    /// default (PICA_MUTANTS=sh).
    Sh,
    /// The texture combiners (`pica_tev_top`); `pica fuzz --target tev --rtl`.
    Tev,
    /// The fragment operations (`pica_fop_top`); `pica fuzz --target fop --rtl`.
    Fop,
    /// Clipping and rasterization (`pica_rast_top`); `pica fuzz --target rast --rtl`.
    Rast,
    /// Texture units 0-2 (`pica_tex_top`); `pica fuzz --target tex --rtl`.
    Tex,
}

impl Stage {
    /// The stage's name (`fe`, `tev`, ...), as `--stage` and build.rs's `MUTANT_MODELS` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Fe => "fe",
            Stage::Sh => "sh",
            Stage::Tev => "tev",
            Stage::Fop => "fop",
            Stage::Rast => "rast",
            Stage::Tex => "tex",
        }
    }

    /// The notes file of the stage's reviewed survivors (relative to the workspace root).
    pub fn notes_path(self) -> PathBuf {
        PathBuf::from(format!("rtl-bridge/mutants/{}_mut.notes", self.name()))
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
    /// Front end only: pipeline fuzz cases per mutant (`pica fuzz --target pipeline`'s cases,
    /// last), each run mixed, the model's pipeline beside the front end in RTL (`pica lockstep
    /// --pipeline-hold`), so REGS is held while the pipeline is busy and the CP->REGS FIFO
    /// fills.
    #[arg(long, value_name = "K", default_value_t = 8)]
    pub pipe_cases: u64,
    /// Fuzz campaign seed (case i has `pica fuzz`'s case seed i of it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The corpus run first against every mutant (front end only: the other stages have no
    /// corpus of stage cases).
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
    /// How the bridge answers the memory port (fop) or the early-depth port (rast), as
    /// `pica fuzz --mem-latency`: `0`, `N`, or `rand:MAX[:SEED]`.
    #[arg(long, value_name = "L", default_value = "0", value_parser = MemLatency::parse)]
    pub mem_latency: MemLatency,
    /// How FOP's AXI4 memory port orders its responses, as `pica fuzz --mem-reorder`:
    /// `none`, `ids` or `interleave`.
    #[arg(long, value_name = "none|ids|interleave", default_value = "none")]
    pub mem_reorder: pica_rtl_bridge::axi::Reorder,
    /// Write the report as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// The reviewed survivors: `key | equivalent|survived | reason` lines
    /// ([`Mutation::key`]); a surviving mutant listed `equivalent` counts as equivalent.
    /// Default: `rtl-bridge/mutants/<stage>_mut.notes`.
    #[arg(long, value_name = "FILE")]
    pub notes: Option<PathBuf>,
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
    /// Pipeline cases per mutant (front end: mixed runs, REGS held by the model's pipeline).
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
            "mutate {} (model {}): {} of {} mutants run, {} corpus + {} fuzz + {} pipeline cases each (seed {})\n\
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
    /// Pipeline cases per mutant (front end only).
    pub pipe_cases: u64,
    /// Fuzz seed.
    pub seed: u64,
    /// Corpus directory (none: fuzz cases only).
    pub corpus: Option<PathBuf>,
    /// Where fuzz reproducers go.
    pub regressions: PathBuf,
    /// Shrink fuzz kills.
    pub shrink: bool,
    /// The memory / early-depth port latency of the fop and rast cases.
    pub mem_latency: MemLatency,
    /// How FOP's AXI4 memory port orders its responses.
    pub mem_reorder: pica_rtl_bridge::axi::Reorder,
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

/// A check of one corpus case against mutant `k` (0: the unmutated netlist): the first line
/// of the divergence, if any.
type CorpusCheck<'a> = Box<dyn Fn(u16) -> Result<(), String> + 'a>;

/// The fuzz case of seed `s` against mutant `k`: its failure as the stage's fuzzer reports it
/// (shrunk when the flag is set), `None` when it passes.
type FuzzCheck<'a> = Box<dyn Fn(u64, u16, bool) -> Option<Found<'a>> + 'a>;

/// What one stage gives the runner ([`run`]): its cases, each checked against a mutant.
struct Harness<'a> {
    /// The named corpus cases, run first.
    corpus: Vec<(String, CorpusCheck<'a>)>,
    /// The fuzz cases' seeds, run after the corpus.
    seeds: Vec<u64>,
    /// Checks one fuzz case.
    fuzz: FuzzCheck<'a>,
    /// Named cases run last, each checked against mutant `k` (shrunk when the flag is set):
    /// the front end's pipeline cases.
    extra: Vec<(String, ExtraCheck<'a>)>,
}

/// A named case of [`Harness::extra`] against mutant `k`: its failure, `None` when it passes.
type ExtraCheck<'a> = Box<dyn Fn(u16, bool) -> Option<Found<'a>> + 'a>;

/// The front end: the corpus in lockstep, then the register fuzzer's cases.
fn fe_harness(opts: &MutateOptions) -> Result<Harness<'static>, String> {
    let corpus = match &opts.corpus {
        Some(d) => load_corpus(d)?,
        None => Vec::new(),
    };
    let knobs = Knobs::default();
    let seeds = (0..opts.cases)
        .map(|i| regs::case_seed(opts.seed, i))
        .filter(|&s| regs::generate(s).is_some())
        .collect();
    Ok(Harness {
        corpus: corpus
            .into_iter()
            .map(|(name, case)| {
                let check: CorpusCheck<'static> =
                    Box::new(move |k| lockstep_case(&case, Variant::FeMutant(k)));
                (name, check)
            })
            .collect(),
        seeds,
        // Half the fuzz cases run with REGS held on a schedule of their seed (`--hold`), as
        // `pica fuzz --rtl` runs them: the front end alone is never held otherwise.
        fuzz: Box::new(move |s, k, shrink| {
            let v = Some(Variant::FeMutant(k));
            let hold = HoldSchedule::of_case(s);
            let list = regs::generate(s)?;
            let e = regs::check_held(&list, v, &knobs, hold).err()?;
            let original = list.commands();
            let (list, mut message) = if shrink {
                regs::shrink_with(s, v, &knobs).map_or((list, e), |(l, m, _)| (l, m))
            } else {
                (list, e)
            };
            if let Some(h) = hold {
                message.push_str(&format!(
                    " (REGS held on {h}: replay the bundle with pica lockstep --bundle DIR \
                     --variant fe_mut#{k} --hold {h})"
                ));
            }
            Some(Found {
                message,
                commands: list.commands(),
                original_commands: original,
                save: Box::new(move |dir, name, _| regs::save(&list, dir, name, Some(s))),
            })
        }),
        extra: (0..opts.pipe_cases)
            .map(|i| pipe::generate(regs::case_seed(opts.seed, i)))
            .filter(|c| c.to_case().is_some())
            .map(|c| {
                let name = format!("fuzz pipeline 0x{:016x}", c.seed);
                let check: ExtraCheck<'static> =
                    Box::new(move |k, shrink| pipe_found(&c, k, shrink));
                (name, check)
            })
            .collect(),
    })
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

/// The pipeline case `c` against front-end mutant `k` (0: the unmutated netlist): its failure,
/// shrunk by dropping splices one at a time when `shrink`.
fn pipe_found(c: &pipe::PipeCase, k: u16, shrink: bool) -> Option<Found<'static>> {
    let v = Variant::FeMutant(k);
    let fails = |c: &pipe::PipeCase| c.to_case().and_then(|case| mixed_fe_case(&case, v).err());
    let first = fails(c)?;
    let original = c.splices.len();
    let (best, mut message) = if shrink {
        pipe::shrink_by(c, first, fails)
    } else {
        (c.clone(), first)
    };
    message.push_str(&format!(
        " (replay the bundle with pica lockstep --bundle DIR --pipeline-hold --variant {})",
        v.label()
    ));
    Some(Found {
        message,
        commands: best.splices.len(),
        original_commands: original,
        save: Box::new(move |dir, name, _| {
            let case = best
                .to_case()
                .ok_or_else(|| "the scene is not in the library".to_string())?;
            let out = dir.join(name);
            let run = case.run_model().map_err(|e| e.to_string())?;
            pica_vectors::bundle::write_bundle(&out, &case, &run, &crate::generator())
                .map_err(|e| e.to_string())?;
            Ok(out)
        }),
    })
}

/// A stage without a corpus: `opts.cases` fuzz cases, each `fuzz(seed, mutant, shrink)`.
fn fuzz_harness<'a>(
    opts: &MutateOptions,
    fuzz: impl Fn(u64, u16, bool) -> Option<Found<'a>> + 'a,
) -> Harness<'a> {
    Harness {
        corpus: Vec::new(),
        seeds: (0..opts.cases)
            .map(|i| regs::case_seed(opts.seed, i))
            .collect(),
        fuzz: Box::new(fuzz),
        extra: Vec::new(),
    }
}

/// The harness of `opts.stage`.
fn harness(opts: &MutateOptions) -> Result<Harness<'static>, String> {
    let latency = opts.mem_latency;
    let reorder = opts.mem_reorder;
    let knobs = Knobs::default();
    Ok(match opts.stage {
        Stage::Fe => fe_harness(opts)?,
        Stage::Tev => fuzz_harness(opts, move |s, k, shrink| {
            let rtl = Some(TevVariant::Mutant(k));
            found_in(
                tev::TevTarget {
                    rtl,
                    knobs,
                    coverage: None,
                },
                s,
                shrink,
            )
        }),
        Stage::Fop => fuzz_harness(opts, move |s, k, shrink| {
            let rtl = Some(FopVariant::Mutant(k));
            found_in(
                fop::FopTarget {
                    rtl,
                    latency,
                    reorder,
                    knobs,
                    coverage: None,
                },
                s,
                shrink,
            )
        }),
        Stage::Tex => fuzz_harness(opts, move |s, k, shrink| {
            let rtl = Some(pica_rtl_bridge::tex_stage::TexVariant::Mutant(k));
            found_in(
                crate::fuzz::tex::TexTarget {
                    rtl,
                    latency,
                    reorder,
                    knobs,
                    coverage: None,
                },
                s,
                shrink,
            )
        }),
        Stage::Rast => fuzz_harness(opts, move |s, k, shrink| {
            let rtl = Some(RastVariant::Mutant(k));
            found_in(
                rast::RastTarget {
                    rtl,
                    latency,
                    reorder,
                    knobs,
                    coverage: None,
                },
                s,
                shrink,
            )
        }),
        Stage::Sh => fuzz_harness(opts, move |s, k, shrink| {
            let (rtl, knobs) = (Some(ShVariant::Mutant(k)), knobs.shader);
            found_in(shader::ShaderTarget { rtl, knobs }, s, shrink)
        }),
    })
}

/// The mutants `opts` picks out of `all`.
fn chosen<'m>(opts: &MutateOptions, all: &'m [Mutation]) -> Result<Vec<&'m Mutation>, String> {
    if opts.only.is_empty() {
        return Ok(all.iter().take(opts.mutants.unwrap_or(all.len())).collect());
    }
    opts.only
        .iter()
        .map(|&k| {
            all.iter()
                .find(|m| m.index == k)
                .ok_or_else(|| format!("no mutant {k} (the model holds 1..={})", all.len()))
        })
        .collect()
}

/// Runs the mutants of `opts.stage`; `progress(done, total, result)` after each.
pub fn run(
    opts: &MutateOptions,
    mut progress: impl FnMut(usize, usize, &MutantResult),
) -> Result<MutateReport, String> {
    let stage = opts.stage.name();
    let model = mutants::model_of(stage).ok_or_else(|| {
        format!("no mutant model of stage {stage} (rtl-bridge/build.rs MUTANT_MODELS)")
    })?;
    let all = model.mutations()?;
    if all.is_empty() {
        return Err(format!(
            "the mutant model of stage {stage} ({}) holds no mutants",
            model.name
        ));
    }
    let chosen = chosen(opts, &all)?;
    let h = harness(opts)?;
    // mutsel = 0 is the netlist as Yosys read the RTL: it must pass everything.
    for (name, check) in &h.corpus {
        check(0).map_err(|e| {
            format!("the unmutated netlist (mutsel 0) fails corpus case {name}: {e}")
        })?;
    }
    for &s in &h.seeds {
        if let Some(f) = (h.fuzz)(s, 0, false) {
            return Err(format!(
                "the unmutated netlist (mutsel 0) fails fuzz case 0x{s:016x}: {}",
                f.message
            ));
        }
    }
    for (name, check) in &h.extra {
        if let Some(f) = check(0, false) {
            return Err(format!(
                "the unmutated netlist (mutsel 0) fails {name}: {}",
                f.message
            ));
        }
    }
    let mut report = MutateReport {
        stage: stage.into(),
        model: model.name.into(),
        generated: all.len(),
        run: 0,
        killed: 0,
        survived: 0,
        equivalent: 0,
        timeout: 0,
        score_percent: 0.0,
        corpus_cases: h.corpus.len(),
        fuzz_cases: h.seeds.len() as u64,
        pipe_cases: h.extra.len() as u64,
        seed: opts.seed,
        mutants: Vec::new(),
    };
    let total = chosen.len();
    for (done, m) in chosen.into_iter().enumerate() {
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
        let corpus_kill = h
            .corpus
            .iter()
            .find_map(|(name, check)| check(m.index).err().map(|e| (name, e)));
        if let Some((name, e)) = corpus_kill {
            kill(name.clone(), e, name.clone());
        } else {
            for (i, &s) in h.seeds.iter().enumerate() {
                let Some(f) = (h.fuzz)(s, m.index, opts.shrink) else {
                    continue;
                };
                let name = format!("mutate-{stage}-{}-{s:016x}", m.index);
                let prov = StageProvenance {
                    generator: crate::generator(),
                    seed: Some(opts.seed),
                    case_index: Some(i as u64),
                    case_seed: Some(s),
                    origin: format!(
                        "pica mutate --stage {stage} (mutant {} of {}: {})",
                        m.index,
                        model.name,
                        m.describe()
                    ),
                };
                let commands = f.commands;
                let repro = match (f.save)(&opts.regressions, &name, &prov) {
                    Ok(d) => format!("{} ({commands} commands)", d.display()),
                    Err(e) => format!("(not written: {e})"),
                };
                kill(format!("fuzz 0x{s:016x}"), f.message, repro);
                break;
            }
        }
        if r.status == "survived" {
            for (name, check) in &h.extra {
                let Some(f) = check(m.index, opts.shrink) else {
                    continue;
                };
                let file = format!(
                    "mutate-{stage}-{}-{}",
                    m.index,
                    name.replace(' ', "-").replace("0x", "")
                );
                let commands = f.commands;
                let repro = match (f.save)(&opts.regressions, &file, &StageProvenance::default()) {
                    Ok(d) => format!("{} ({commands} splices)", d.display()),
                    Err(e) => format!("(not written: {e})"),
                };
                r.status = "killed".into();
                r.killed_by = Some(name.clone());
                r.message = Some(f.message);
                r.reproducer = Some(repro);
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

/// `pica mutate`: exit 0 when every mutant run was killed, equivalent or a reviewed survivor
/// (notes file), 1 when an unreviewed one survived, 2 on bad arguments or a broken harness.
pub fn main(args: &MutateArgs) -> std::process::ExitCode {
    let notes_path = args
        .notes
        .clone()
        .unwrap_or_else(|| args.stage.notes_path());
    let notes = match load_notes(&notes_path) {
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
        mem_latency: args.mem_latency,
        mem_reorder: args.mem_reorder,
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
