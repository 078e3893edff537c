//! What the per-stage fuzzers (`--target shader`, `tev`, `fop`, `rast`, `--rtl-stages sh`)
//! share: the campaign loop over case seeds with shards, failure reports and saved bundles
//! ([`run`], [`run_with_skips`]); a stage target as a trait ([`StageTarget`]: its generator,
//! verdict, shrink steps, bundle and guided-mode hooks) with the campaign around it
//! ([`run_target`], [`found_in`]); the shrink loop every target's steps run in ([`shrink`],
//! [`ShrinkStep`], [`Shrinker`]); and the guided mutation of an operation list
//! ([`mutate_ops`]). The guided stage campaign itself is [`crate::fuzz::stage_guided`].

use crate::fuzz::report::{case_seed, Failure, FuzzReport};
use pica_rtl_bridge::axi::Reorder;
use pica_rtl_bridge::coverage::{CoverageBuild, CoverageSink};
use pica_rtl_bridge::kit::side::MemLatency;
use pica_vectors::stage::StageProvenance;
use std::path::{Path, PathBuf};

/// The fixed part of a campaign.
#[derive(Clone, Debug)]
pub struct Campaign<'a> {
    /// Campaign seed.
    pub seed: u64,
    /// Cases in the whole campaign (all shards).
    pub cases: u64,
    /// This shard's index and the shard count.
    pub shard: (u64, u64),
    /// Stop after this many failures.
    pub max_failures: usize,
    /// Where shrunk failures are written as bundles (`None`: not written).
    pub regressions: Option<&'a Path>,
    /// The report's `against` (`tev:rtl:default`).
    pub against: String,
    /// The provenance's `origin` of a saved bundle (`pica fuzz --target tev (against ...)`).
    pub origin: String,
    /// A saved bundle is named `<prefix>-<case seed, 16 hex digits>`.
    pub prefix: String,
}

/// Writes a failure's bundle: `(regressions dir, bundle name, provenance)` → its path.
pub type SaveFn<'s> =
    Box<dyn FnOnce(&Path, &str, &StageProvenance) -> Result<PathBuf, String> + 's>;

/// A shrunk failure as a stage fuzzer reports it.
pub struct Found<'s> {
    /// The report's message.
    pub message: String,
    /// Commands (instructions, fragments) of the shrunk case.
    pub commands: usize,
    /// Commands of the case before shrinking.
    pub original_commands: usize,
    /// Writes its bundle.
    pub save: SaveFn<'s>,
}

/// What one case of a campaign gave.
pub enum Verdict<'s> {
    /// The case passes.
    Pass,
    /// The case was not compared (the model alone did not finish it): not counted as run.
    Skipped,
    /// The case fails: its shrunk failure.
    Fail(Found<'s>),
}

/// Runs the cases of `c` this shard owns (case `i` has seed [`case_seed`]`(seed, i)`):
/// `check(case seed)` returns a shrunk failure or `None`; `progress` is called after each case
/// with (done, total for this shard, failures so far). Stops after `max_failures` failures.
pub fn run<'s>(
    c: &Campaign<'_>,
    mut check: impl FnMut(u64) -> Option<Found<'s>>,
    progress: impl FnMut(u64, u64, usize),
) -> FuzzReport {
    let verdict = |seed| check(seed).map_or(Verdict::Pass, Verdict::Fail);
    run_with_skips(c, verdict, progress).0
}

/// [`run`] where a case may also be skipped ([`Verdict::Skipped`]): the report's `cases_run`
/// counts the cases compared; the skipped ones are the pair's second half.
pub fn run_with_skips<'s>(
    c: &Campaign<'_>,
    mut check: impl FnMut(u64) -> Verdict<'s>,
    mut progress: impl FnMut(u64, u64, usize),
) -> (FuzzReport, u64) {
    let (index, count) = (c.shard.0, c.shard.1.max(1));
    let total = (0..c.cases).filter(|i| i % count == index).count() as u64;
    let mut failures: Vec<Failure> = Vec::new();
    let (mut done, mut skipped) = (0, 0);
    for i in (0..c.cases).filter(|i| i % count == index) {
        let seed = case_seed(c.seed, i);
        match check(seed) {
            Verdict::Pass => {}
            Verdict::Skipped => skipped += 1,
            Verdict::Fail(f) => {
                let at = CaseAt {
                    campaign_seed: c.seed,
                    index: i,
                    seed,
                };
                let name = format!("{}-{seed:016x}", c.prefix);
                let save = f.save;
                failures.push(failure(
                    &at,
                    c.regressions,
                    c.origin.clone(),
                    (f.message, f.commands, f.original_commands),
                    |dir, prov| save(dir, &name, prov).map(|p| p.display().to_string()),
                ));
            }
        }
        done += 1;
        progress(done, total, failures.len());
        if failures.len() >= c.max_failures.max(1) {
            break;
        }
    }
    let report = FuzzReport {
        seed: c.seed,
        cases: c.cases,
        shard: format!("{index}/{count}"),
        against: c.against.clone(),
        cases_run: done - skipped,
        failures,
        loops: 0,
        guided: None,
    };
    (report, skipped)
}

/// What one check of a case found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The case passes.
    Pass,
    /// The case was not compared (the model alone did not finish it): neither a pass nor a
    /// failure, so the campaign counts it apart and a shrink candidate that skips is no
    /// reproducer.
    Skipped,
    /// The case fails with this message.
    Fail(String),
}

impl Check {
    /// `Pass` for `Ok`, `Fail` for `Err`: a verdict that never skips.
    pub fn of(r: Result<(), String>) -> Check {
        r.err().map_or(Check::Pass, Check::Fail)
    }

    /// The failure's message (`None`: it passed or was skipped).
    pub fn failure(self) -> Option<String> {
        match self {
            Check::Fail(m) => Some(m),
            Check::Pass | Check::Skipped => None,
        }
    }
}

/// One stage fuzz target: what is its own — the case generator ([`StageTarget::generate`]),
/// the verdict ([`StageTarget::check`]), its shrink steps ([`StageTarget::shrink_steps`]), the
/// bundle a failure is saved as and, for guided mode, how a case mutates
/// ([`StageTarget::mutate`]) and which RTL coverage build measures it
/// ([`StageTarget::coverage_probe`]) — while the campaign around it (shards, the failure
/// report, the shrink loop over the steps, saving bundles under a name of the case seed, the
/// guided pool) is [`run_target`]'s, [`found_in`]'s, [`shrink`]'s and
/// [`crate::fuzz::stage_guided::run`]'s, the same for every target.
pub trait StageTarget {
    /// A case of the target.
    type Case: Clone + PartialEq + 'static;
    /// The report's `against`, the saved bundles' `origin` and their name prefix.
    fn labels(&self) -> Labels;
    /// The case of `case_seed` (carrying the target's knobs).
    fn generate(&self, case_seed: u64) -> Self::Case;
    /// The verdict on `case`.
    fn check(&self, case: &Self::Case) -> Check;
    /// Candidates checked at most while shrinking one failure (each a model run, and with RTL
    /// an RTL run).
    fn shrink_budget(&self) -> usize;
    /// The shrink steps for a failing case (`case`: the failure as generated), in the order
    /// [`shrink`] runs them.
    fn shrink_steps(&self, case: &Self::Case) -> Vec<ShrinkStep<'_, Self::Case>>;
    /// The commands (fragments, triangles, instructions) of a case, as the report counts them.
    fn size(case: &Self::Case) -> usize;
    /// The one-line summary of a case's size.
    fn describe(case: &Self::Case) -> String;
    /// The report's message of a failure `message` of `case`, `how` (`shrunk`, `unshrunk`) it
    /// was reported: by default the message with the case's summary.
    fn report_message(case: &Self::Case, message: &str, how: &str) -> String {
        format!("{message} [{how}: {}]", Self::describe(case))
    }
    /// Writes `case` as the bundle `dir/name`; its directory.
    fn save_bundle(
        &self,
        case: &Self::Case,
        dir: &Path,
        name: &str,
        description: &str,
        prov: &StageProvenance,
    ) -> Result<PathBuf, String>;
    /// Guided mode: a mutant of `case` made with `donor` (another pool case, or a fresh one)
    /// and the choices of `rng`; `None` (the default) when the target has no guided mode.
    fn mutate(
        &self,
        case: &Self::Case,
        donor: &Self::Case,
        rng: &mut MutRng,
    ) -> Option<Self::Case> {
        let _ = (case, donor, rng);
        None
    }
    /// Guided mode: the target that measures a case's RTL code coverage into `sink` (its
    /// coverage build), and whether it is this target itself (already that build: its verdict
    /// and its coverage come from one run) or runs beside it; `None` (the default) when the
    /// stage's RTL has no coverage build.
    fn coverage_probe(&self, sink: &CoverageSink) -> Option<Probe<Self>>
    where
        Self: Sized,
    {
        let _ = sink;
        None
    }
    /// Guided mode: the coverage build [`StageTarget::coverage_probe`] runs (`None`: none).
    fn coverage_build(&self) -> Option<CoverageBuild> {
        None
    }
}

/// The target that measures a guided case's RTL coverage ([`StageTarget::coverage_probe`]).
pub enum Probe<T> {
    /// The target itself runs the coverage build: one run gives the verdict and the coverage.
    Itself(T),
    /// A second target on the coverage build runs each case for its coverage only (the target
    /// runs another build: an injected bug, the default).
    Beside(T),
}

/// The choices of a guided mutation (SplitMix64, seeded by the case seed: a guided campaign is
/// as deterministic as an unguided one).
pub struct MutRng(pub u64);

impl MutRng {
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        case_seed(self.0, 0)
    }

    /// A value in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.bits() % n.max(1) as u64) as usize
    }
}

/// Operations a case's list is cut to by a mutation (splices and insertions grow lists; long
/// lists only slow every later case down).
pub const MAX_MUTANT_OPS: usize = 96;

/// The generic guided mutation of an operation list (what tev, fop and rast cases are): with
/// `donor`'s operations, one of splice (the head of `ops`, the tail of `donor`), duplicate (an
/// operation copied to a later place), remove (one operation) and insert (one of `donor`'s
/// operations at a random place); the list is cut to [`MAX_MUTANT_OPS`].
pub fn mutate_ops<O: Clone>(ops: &mut Vec<O>, donor: &[O], rng: &mut MutRng) {
    match rng.below(4) {
        0 => {
            let cut = rng.below(ops.len() + 1);
            let from = rng.below(donor.len() + 1);
            ops.truncate(cut);
            ops.extend_from_slice(&donor[from..]);
        }
        1 if !ops.is_empty() => {
            let src = rng.below(ops.len());
            let at = src + 1 + rng.below(ops.len() - src);
            let o = ops[src].clone();
            ops.insert(at.min(ops.len()), o);
        }
        2 if ops.len() > 1 => {
            ops.remove(rng.below(ops.len()));
        }
        _ => {
            if !donor.is_empty() {
                let o = donor[rng.below(donor.len())].clone();
                let at = rng.below(ops.len() + 1);
                ops.insert(at, o);
            }
        }
    }
    ops.truncate(MAX_MUTANT_OPS);
}

/// What a [`ShrinkStep`] runs: it offers its candidates to the shrinker it is given.
pub type StepFn<'t, C> = Box<dyn Fn(&mut Shrinker<'_, C>) + 't>;

/// One shrink step of a stage: it makes candidates from the best case so far and offers them
/// to the [`Shrinker`] ([`Shrinker::attempt`]), which keeps each that still fails.
pub struct ShrinkStep<'t, C> {
    /// What the step simplifies (`fragments`, `register bits`: for the docs and debugging).
    pub name: &'static str,
    /// Run in every round of the loop until a round changes nothing (`true`), or once after
    /// that loop, in order (`false`: a final tidying, or a step that runs its own loop).
    pub repeat: bool,
    /// Makes and offers the candidates.
    pub run: StepFn<'t, C>,
}

impl<'t, C: Clone + PartialEq> ShrinkStep<'t, C> {
    /// A step run in every round that deletes the operations `pick` selects from the list
    /// `ops` gives ([`Shrinker::drop_ops`]).
    pub fn drop_ops<O: Clone + 't>(
        name: &'static str,
        ops: fn(&mut C) -> &mut Vec<O>,
        pick: fn(&O) -> bool,
    ) -> Self
    where
        C: 't,
    {
        Self::each_round(name, move |sh| sh.drop_ops(ops, pick))
    }

    /// A step run in every round.
    pub fn each_round(name: &'static str, run: impl Fn(&mut Shrinker<'_, C>) + 't) -> Self {
        Self {
            name,
            repeat: true,
            run: Box::new(run),
        }
    }

    /// A step run once after the rounds.
    pub fn once(name: &'static str, run: impl Fn(&mut Shrinker<'_, C>) + 't) -> Self {
        Self {
            name,
            repeat: false,
            run: Box::new(run),
        }
    }
}

/// The campaign's shrink loop: from failing `case` (failing with `message`), runs the repeated
/// steps of `steps` in order, round after round until a round leaves the best case unchanged,
/// then the once-steps in order; a candidate replaces the best case when `fails` says it still
/// fails, at most `budget` candidates checked by [`Shrinker::attempt`]. Returns the smallest
/// failing case found and its message.
pub fn shrink_with<C: Clone + PartialEq>(
    steps: &[ShrinkStep<'_, C>],
    budget: usize,
    case: &C,
    message: String,
    fails: &mut dyn FnMut(&C) -> Option<String>,
) -> (C, String) {
    let mut sh = Shrinker::new(case, message, budget, fails);
    if steps.iter().any(|s| s.repeat) {
        loop {
            let before = sh.best.clone();
            for s in steps.iter().filter(|s| s.repeat) {
                (s.run)(&mut sh);
            }
            if sh.best == before {
                break;
            }
        }
    }
    for s in steps.iter().filter(|s| !s.repeat) {
        (s.run)(&mut sh);
    }
    sh.finish()
}

/// Shrinks failing `case` of `target` (failing with `message`) with the target's steps
/// ([`StageTarget::shrink_steps`]) in the campaign's loop ([`shrink_with`]); a candidate still
/// fails when [`StageTarget::check`] fails on it (one that skips does not).
pub fn shrink<T: StageTarget>(target: &T, case: &T::Case, message: String) -> (T::Case, String) {
    let steps = target.shrink_steps(case);
    let mut fails = |c: &T::Case| target.check(c).failure();
    shrink_with(&steps, target.shrink_budget(), case, message, &mut fails)
}

/// Writes a bundle at `dir/name` with `write(path)`; its path, or the error naming it.
pub fn bundle_at<T, E: std::fmt::Display>(
    dir: &Path,
    name: &str,
    write: impl FnOnce(&Path) -> Result<T, E>,
) -> Result<PathBuf, String> {
    let out = dir.join(name);
    write(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(out)
}

/// What a target records in the manifest of a bundle it saves, beyond the case: how the
/// campaign served the stage's side port, so `pica vectors check --rtl` reruns the RTL the same
/// way.
pub trait BundleNotes {
    /// Manifest keys and their values (none by default).
    fn notes(&self) -> Vec<(String, serde_json::Value)> {
        Vec::new()
    }
}

impl<V: StageVariant> BundleNotes for SidePortTarget<V> {
    /// `<port>_latency` (`mem_latency`, `ed_latency`: a fixed latency as a number of clocks,
    /// as `pica vectors gen` writes it, a random one as its `rand:MAX:SEED` string) and, for an
    /// AXI4 port, `<port>_reorder`.
    fn notes(&self) -> Vec<(String, serde_json::Value)> {
        let latency = match self.latency {
            MemLatency::Zero => serde_json::json!(0),
            MemLatency::Fixed(n) => serde_json::json!(n),
            l @ MemLatency::Random { .. } => serde_json::json!(l.to_string()),
        };
        // The fuzz runners hold the output not-ready now and then; the replay testbench does
        // so with a non-zero ready seed (RAST's credit bug shows only with its FIFO full).
        let mut notes = vec![(
            "ready_seed".to_string(),
            serde_json::json!(REPLAY_READY_SEED),
        )];
        for sp in V::STAGE.side_ports {
            notes.push((format!("{}_latency", sp.name), latency.clone()));
            if matches!(sp.kind, pica_rtl_bridge::kit::desc::SideKind::Axi { .. }) {
                notes.push((
                    format!("{}_reorder", sp.name),
                    serde_json::json!(self.reorder.to_string()),
                ));
            }
        }
        notes
    }
}

/// The replay testbench's output backpressure seed a fuzz bundle names (`ready_seed` in its
/// manifest, `+ready_seed` for `scripts/replay`): the fuzz runners hold the output not-ready
/// about one clock in four and now and then for a run of clocks, and so does the testbench
/// with a non-zero seed.
pub const REPLAY_READY_SEED: u32 = 1;

/// Writes `target`'s [`BundleNotes`] into the manifest of the bundle at `path` (the manifest
/// hashes the other files, not itself).
pub fn note_bundle(path: &Path, target: &impl BundleNotes) -> Result<(), String> {
    let notes = target.notes();
    if notes.is_empty() {
        return Ok(());
    }
    let file = path.join("manifest.json");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut m: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    for (k, v) in notes {
        m[k.as_str()] = v;
    }
    let text = serde_json::to_string_pretty(&m).map_err(|e| e.to_string())?;
    std::fs::write(&file, text + "\n").map_err(|e| format!("{}: {e}", file.display()))
}

/// How a target's campaign is labelled (see [`Campaign`]).
#[derive(Clone, Debug)]
pub struct Labels {
    /// The report's `against` (`tev:rtl:default`).
    pub against: String,
    /// The provenance's `origin` of a saved bundle.
    pub origin: String,
    /// A saved bundle is named `<prefix>-<case seed, 16 hex digits>`.
    pub prefix: String,
}

impl Labels {
    /// The labels of target `name` (`tev`) against the RTL build `variant` (`None`: the model
    /// alone), the origin naming `pica fuzz --target NAME` with `detail` after the build
    /// (`, memory latency 0`).
    pub fn of(name: &str, variant: Option<&str>, detail: impl std::fmt::Display) -> Labels {
        let kind = variant.unwrap_or("model");
        Labels {
            against: variant.map_or_else(|| format!("{name}:model"), |v| format!("{name}:rtl:{v}")),
            origin: format!("pica fuzz --target {name} (against {kind}{detail})"),
            prefix: format!("fuzz-{name}-{kind}"),
        }
    }
}

/// The size, shard and output of a campaign, as every target's options give them.
#[derive(Clone, Copy, Debug)]
pub struct Plan<'a> {
    /// Campaign seed.
    pub seed: u64,
    /// Cases in the whole campaign (all shards).
    pub cases: u64,
    /// This shard's index and the shard count.
    pub shard: (u64, u64),
    /// Stop after this many failures.
    pub max_failures: usize,
    /// Where shrunk failures are written as bundles (`None`: not written).
    pub regressions: Option<&'a Path>,
}

impl<'a> Plan<'a> {
    /// The campaign of this plan with `labels`.
    pub fn campaign(&self, labels: Labels) -> Campaign<'a> {
        Campaign {
            seed: self.seed,
            cases: self.cases,
            shard: self.shard,
            max_failures: self.max_failures,
            regressions: self.regressions,
            against: labels.against,
            origin: labels.origin,
            prefix: labels.prefix,
        }
    }
}

/// A failing case, shrunk (or as generated, when not shrinking).
#[derive(Clone, Debug)]
pub struct Shrunk<C> {
    /// The smallest failing case found.
    pub case: C,
    /// What fails on it.
    pub message: String,
    /// Commands ([`StageTarget::size`]) of the case as generated.
    pub original: usize,
}

/// What [`check_and_shrink`] found for one case.
#[derive(Clone, Debug)]
pub enum Checked<C> {
    /// The case passes.
    Passed,
    /// The case was not compared ([`Check::Skipped`]).
    Skipped,
    /// The case fails: shrunk, or as generated when not shrinking.
    Failed(Box<Shrunk<C>>),
}

/// Checks `case` and, when `shrink`, shrinks it if it fails ([`shrink`]).
pub fn check_case_and_shrink<T: StageTarget>(
    target: &T,
    case: T::Case,
    shrink: bool,
) -> Checked<T::Case> {
    let msg = match target.check(&case) {
        Check::Pass => return Checked::Passed,
        Check::Skipped => return Checked::Skipped,
        Check::Fail(m) => m,
    };
    let (small, message) = if shrink {
        self::shrink(target, &case, msg)
    } else {
        (case.clone(), msg)
    };
    Checked::Failed(Box::new(Shrunk {
        original: T::size(&case),
        case: small,
        message,
    }))
}

/// Checks the case of `case_seed` and, when `shrink`, shrinks it if it fails.
pub fn check_and_shrink<T: StageTarget>(
    target: &T,
    case_seed: u64,
    shrink: bool,
) -> Checked<T::Case> {
    check_case_and_shrink(target, target.generate(case_seed), shrink)
}

/// The [`Found`] of a shrunk failure `s` of `target` (`shrunk`: whether it was).
pub fn found_of<T: StageTarget + 'static>(
    target: T,
    s: Shrunk<T::Case>,
    shrunk: bool,
) -> Found<'static> {
    let how = if shrunk { "shrunk" } else { "unshrunk" };
    let desc = format!("{how} fuzz failure: {}", s.message);
    let message = T::report_message(&s.case, &s.message, how);
    let commands = T::size(&s.case);
    let case = s.case;
    Found {
        message,
        commands,
        original_commands: s.original,
        save: Box::new(move |dir, name, prov| target.save_bundle(&case, dir, name, &desc, prov)),
    }
}

/// What the case of `case_seed` gives a campaign: passes, skipped, or its failure as the
/// campaign reports it (shrunk when `shrink`, else the case as generated).
pub fn verdict_in<T: StageTarget + 'static>(
    target: T,
    case_seed: u64,
    shrink: bool,
) -> Verdict<'static> {
    match check_and_shrink(&target, case_seed, shrink) {
        Checked::Passed => Verdict::Pass,
        Checked::Skipped => Verdict::Skipped,
        Checked::Failed(s) => Verdict::Fail(found_of(target, *s, shrink)),
    }
}

/// The failure of the case of `case_seed` as a campaign reports it (`None` if the case
/// passes or is skipped): shrunk when `shrink`, else the case as generated. `pica mutate` runs
/// its mutants' stage cases through this too.
pub fn found_in<T: StageTarget + 'static>(
    target: T,
    case_seed: u64,
    shrink: bool,
) -> Option<Found<'static>> {
    match verdict_in(target, case_seed, shrink) {
        Verdict::Fail(f) => Some(f),
        Verdict::Pass | Verdict::Skipped => None,
    }
}

/// Runs the campaign of `plan` on `target` ([`run_with_skips`] over [`verdict_in`], shrinking
/// failures); `progress` is called after each case with (done, total for this shard, failures
/// so far). The report has the register fuzzer's shape; `commands` counts
/// [`StageTarget::size`]; `cases_run` counts the compared cases, the second half of the pair
/// the skipped ones.
pub fn run_target_with_skips<T: StageTarget + Clone + 'static>(
    target: &T,
    plan: Plan<'_>,
    progress: impl FnMut(u64, u64, usize),
) -> (FuzzReport, u64) {
    let c = plan.campaign(target.labels());
    run_with_skips(&c, |seed| verdict_in(target.clone(), seed, true), progress)
}

/// [`run_target_with_skips`]'s report, for a target whose cases are never skipped.
pub fn run_target<T: StageTarget + Clone + 'static>(
    target: &T,
    plan: Plan<'_>,
    progress: impl FnMut(u64, u64, usize),
) -> FuzzReport {
    run_target_with_skips(target, plan, progress).0
}

/// Implements [`StageTarget`] for `$target`, the target struct of a stage fuzzer module with the
/// usual items — `generate(case_seed)`, `check(case, rtl, fields...)`, `shrink_steps()` (the
/// stage's [`ShrinkStep`]s), `MAX_SHRINK_CHECKS`, `describe(case)` and `save_bundle(case, dir,
/// name, description, prov)` — whose cases carry the struct's `knobs` and list their operations
/// in `ops` (what guided mode mutates: [`mutate_ops`]). `$field`s are the struct's fields the
/// verdict takes after `rtl`; `+ coverage` after them names the struct's
/// `Option<CoverageSink>` field, handed to the verdict last as `Option<&CoverageSink>`;
/// `$variant::Coverage` is the stage's coverage build (`$build` its [`CoverageBuild`]), and
/// `$variant` the key of the stage ([`StageVariant`], the kit's description `$desc`, names
/// parsed by `$parse`, the target made from [`TargetOptions`]' fields of the same names);
/// `$size` is the case method counting its commands; the labels are `$name`'s against `rtl`'s
/// build, with `$detail` (of the target `$t`) after it in the origin.
macro_rules! impl_stage_target {
    (
        $target:ty,
        $case:ty,
        $name:literal,
        $size:ident,
        [$($field:ident),*] + $cov:ident,
        $variant:ident :: Coverage => $build:expr,
        $desc:ident, $parse:path, $rtl:ty,
        |$t:ident| $detail:expr
    ) => {
        impl $crate::fuzz::campaign::StageVariant for $variant {
            const STAGE: &'static pica_rtl_bridge::kit::desc::Stage =
                &pica_rtl_bridge::kit::desc::$desc;
            const COVERAGE: Self = $variant::Coverage;
            const STAGE_KNOBS: &'static [&'static str] = STAGE_KNOBS;
            type Target = $target;

            fn parse(name: &str) -> Result<Self, String> {
                $parse(name)
            }

            fn name(self) -> &'static str {
                $variant::name(self)
            }

            fn built() -> Vec<String> {
                <$rtl>::variants()
            }

            fn target(opts: &$crate::fuzz::campaign::TargetOptions<Self>) -> $target {
                Self::Target {
                    rtl: opts.rtl,
                    $($field: opts.$field,)*
                    knobs: opts.knobs,
                    $cov: opts.coverage.clone(),
                }
            }
        }

        impl $crate::fuzz::campaign::StageTarget for $target {
            type Case = $case;

            fn labels(&self) -> $crate::fuzz::campaign::Labels {
                let $t = self;
                let variant = self.rtl.map(|v| v.name());
                $crate::fuzz::campaign::Labels::of($name, variant, $detail)
            }

            fn generate(&self, case_seed: u64) -> $case {
                let mut case = generate(case_seed);
                case.knobs = self.knobs;
                case
            }

            fn check(&self, case: &$case) -> $crate::fuzz::campaign::Check {
                $crate::fuzz::campaign::Check::of(check(
                    case,
                    self.rtl
                    $(, self.$field)*,
                    self.$cov.as_ref(),
                ))
            }

            fn shrink_budget(&self) -> usize {
                MAX_SHRINK_CHECKS
            }

            fn shrink_steps(
                &self,
                _case: &$case,
            ) -> Vec<$crate::fuzz::campaign::ShrinkStep<'_, $case>> {
                shrink_steps()
            }

            fn size(case: &$case) -> usize {
                case.$size()
            }

            fn describe(case: &$case) -> String {
                describe(case)
            }

            fn save_bundle(
                &self,
                case: &$case,
                dir: &std::path::Path,
                name: &str,
                description: &str,
                prov: &pica_vectors::stage::StageProvenance,
            ) -> Result<std::path::PathBuf, String> {
                let path = save_bundle(case, dir, name, description, prov)?;
                $crate::fuzz::campaign::note_bundle(&path, self)?;
                Ok(path)
            }

            fn mutate(
                &self,
                case: &$case,
                donor: &$case,
                rng: &mut $crate::fuzz::campaign::MutRng,
            ) -> Option<$case> {
                let mut c = case.clone();
                $crate::fuzz::campaign::mutate_ops(&mut c.ops, &donor.ops, rng);
                Some(c)
            }

            fn coverage_probe(
                &self,
                sink: &pica_rtl_bridge::coverage::CoverageSink,
            ) -> Option<$crate::fuzz::campaign::Probe<Self>> {
                let mut t = self.clone();
                t.$cov = Some(sink.clone());
                if self.rtl == Some($variant::Coverage) {
                    return Some($crate::fuzz::campaign::Probe::Itself(t));
                }
                t.rtl = Some($variant::Coverage);
                Some($crate::fuzz::campaign::Probe::Beside(t))
            }

            fn coverage_build(&self) -> Option<pica_rtl_bridge::coverage::CoverageBuild> {
                Some($build)
            }
        }
    };
}
pub(crate) use impl_stage_target;

/// The [`Plan`] of a target's options struct: its `seed`, `cases`, `shard`, `max_failures` and
/// `regressions` fields, which every stage target's options have.
macro_rules! plan_of {
    ($opts:expr) => {
        $crate::fuzz::campaign::Plan {
            seed: $opts.seed,
            cases: $opts.cases,
            shard: $opts.shard,
            max_failures: $opts.max_failures,
            regressions: $opts.regressions.as_deref(),
        }
    };
}
pub(crate) use plan_of;

/// The options of a one-stage fuzz campaign (`pica fuzz --target tev|fop|rast`,
/// `--rtl-stages tev|fop|rast`), one type for every stage: `V`, the stage's RTL build type,
/// says which ([`StageVariant`]).
#[derive(Clone, Debug)]
pub struct TargetOptions<V> {
    /// Cases in the whole campaign (all shards).
    pub cases: u64,
    /// Campaign seed.
    pub seed: u64,
    /// This shard's index and the shard count.
    pub shard: (u64, u64),
    /// Compare against this RTL build (model self-check only when `None`).
    pub rtl: Option<V>,
    /// How the RTL's side port is answered (FOP's memory port, RAST's early-depth port; a
    /// stage without a side port, TEV, ignores it: [`StageVariant::STAGE`]`.side_ports`).
    pub latency: MemLatency,
    /// How an AXI4 side port (FOP's memory port) reorders its responses across IDs
    /// (`--mem-reorder`; a request/response port, RAST's, ignores it).
    pub reorder: Reorder,
    /// Where shrunk failures are written as stage bundles (`None`: not written).
    pub regressions: Option<PathBuf>,
    /// Stop after this many failures.
    pub max_failures: usize,
    /// The knobs every case runs with (`--knob`, of [`StageVariant::STAGE_KNOBS`]); saved
    /// bundles record them. The RTL builds implement the defaults only (refused by the caller
    /// otherwise).
    pub knobs: pica_model::knobs::Knobs,
    /// Where the RTL coverage build's counters go (`--rtl-coverage`): each case's model hands
    /// them over when it is dropped.
    pub coverage: Option<CoverageSink>,
}

impl<V> TargetOptions<V> {
    /// The size, shard and output of the campaign.
    pub fn plan(&self) -> Plan<'_> {
        plan_of!(self)
    }

    /// A campaign of `cases` cases of seed 0 against `rtl`, unsharded, memory latency 0,
    /// stopping at the first failure, not saved, default knobs, no coverage.
    pub fn new(rtl: Option<V>, cases: u64) -> Self {
        Self {
            cases,
            seed: 0,
            shard: (0, 1),
            rtl,
            latency: MemLatency::Zero,
            reorder: Reorder::InOrder,
            regressions: None,
            max_failures: 1,
            knobs: pica_model::knobs::Knobs::default(),
            coverage: None,
        }
    }
}

/// The target of a stage whose RTL has a side port (FOP's memory port, RAST's early-depth
/// port): every such stage's target has these fields; `V` is its RTL build type.
#[derive(Clone, Debug)]
pub struct SidePortTarget<V> {
    /// Compare against this RTL build (model self-check only when `None`).
    pub rtl: Option<V>,
    /// How the RTL's side port is answered.
    pub latency: MemLatency,
    /// How an AXI4 side port reorders its responses.
    pub reorder: Reorder,
    /// The knobs every case runs with.
    pub knobs: pica_model::knobs::Knobs,
    /// Where the RTL coverage build's counters go (`--rtl-coverage`; `None`: not gathered).
    pub coverage: Option<CoverageSink>,
}

/// A stage's RTL build type as the key of its fuzz target: what the one campaign and the CLI
/// need to know of the stage beyond its [`StageTarget`].
pub trait StageVariant: Copy + PartialEq + std::fmt::Debug + 'static {
    /// The kit's description of the stage (its name is the target's, `--target tev`).
    const STAGE: &'static pica_rtl_bridge::kit::desc::Stage;
    /// Its coverage build.
    const COVERAGE: Self;
    /// The model stages whose knobs the target applies.
    const STAGE_KNOBS: &'static [&'static str];
    /// The target.
    type Target: StageTarget + Clone + 'static;
    /// Parses a `--variant` name of the stage.
    fn parse(name: &str) -> Result<Self, String>;
    /// Its name as the shim reports it (`inject_fop_tile32`).
    fn name(self) -> &'static str;
    /// The builds compiled into this binary (a lean build has only the as-written ones).
    fn built() -> Vec<String>;
    /// The target of a campaign's options.
    fn target(opts: &TargetOptions<Self>) -> Self::Target;
    /// The coverage build of the stage.
    fn coverage_build() -> Option<CoverageBuild> {
        CoverageBuild::from_stage(Self::STAGE.name)
    }
}

/// Runs the campaign of `opts` on its stage's target ([`run_target`]); `progress` is called
/// after each case with (done, total for this shard, failures so far).
pub fn run_stage<V: StageVariant>(
    opts: &TargetOptions<V>,
    progress: impl FnMut(u64, u64, usize),
) -> FuzzReport {
    run_target(&V::target(opts), opts.plan(), progress)
}

/// Greedy shrinking of a failing case: a candidate replaces the best case so far when it
/// still fails (`fails` returns its message), within a budget of checks. The shrink steps of
/// a stage ([`ShrinkStep`]) drive it.
pub struct Shrinker<'f, C> {
    /// The smallest failing case found so far.
    pub best: C,
    /// What fails on it.
    pub message: String,
    budget: usize,
    fails: &'f mut dyn FnMut(&C) -> Option<String>,
}

impl<'f, C: Clone + PartialEq> Shrinker<'f, C> {
    /// Starts from `case`, failing with `message`; at most `budget` candidates are checked.
    pub fn new(
        case: &C,
        message: String,
        budget: usize,
        fails: &'f mut dyn FnMut(&C) -> Option<String>,
    ) -> Self {
        Self {
            best: case.clone(),
            message,
            budget,
            fails,
        }
    }

    /// Keeps `cand` if it differs from the best case and still fails; whether it did.
    pub fn attempt(&mut self, cand: C) -> bool {
        if self.budget == 0 || cand == self.best {
            return false;
        }
        self.budget -= 1;
        self.keep_if_fails(cand)
    }

    /// [`Shrinker::attempt`] outside the budget: a final step that must be tried even when
    /// the rounds used the budget up.
    pub fn attempt_unbudgeted(&mut self, cand: C) -> bool {
        cand != self.best && self.keep_if_fails(cand)
    }

    fn keep_if_fails(&mut self, cand: C) -> bool {
        match (self.fails)(&cand) {
            Some(m) => {
                self.best = cand;
                self.message = m;
                true
            }
            None => false,
        }
    }

    /// Whether `cand` fails (its message), outside the budget and without keeping it: for a
    /// step that runs a shrinker of its own (the shader generator's).
    pub fn fails(&mut self, cand: &C) -> Option<String> {
        (self.fails)(cand)
    }

    /// Deletes the operations `pick` selects from the list `ops` gives: in chunks of all of
    /// them, then halves, down to one at a time (each chunk that can go, goes).
    pub fn drop_ops<O: Clone>(
        &mut self,
        ops: fn(&mut C) -> &mut Vec<O>,
        pick: impl Fn(&O) -> bool,
    ) {
        let picked = |c: &mut C| -> Vec<usize> {
            ops(c)
                .iter()
                .enumerate()
                .filter(|(_, o)| pick(o))
                .map(|(i, _)| i)
                .collect()
        };
        let mut chunk = ops(&mut self.best).len().max(1);
        while chunk >= 1 {
            let mut i = 0;
            loop {
                let idx = picked(&mut self.best);
                if i >= idx.len() {
                    break;
                }
                let drop = &idx[i..(i + chunk).min(idx.len())];
                let mut cand = self.best.clone();
                let kept: Vec<O> = ops(&mut cand)
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| !drop.contains(k))
                    .map(|(_, o)| o.clone())
                    .collect();
                *ops(&mut cand) = kept;
                if !self.attempt(cand) {
                    i += chunk;
                }
            }
            chunk /= 2;
        }
    }

    /// Clears the nibbles, then the single bits, of the register value `value` finds in
    /// operation `k` (`None`: not a register write), keeping each clearing that still fails.
    pub fn clear_bits(&mut self, k: usize, value: fn(&mut C, usize) -> Option<&mut u32>) {
        let masks = (0..8)
            .map(|n| 0xFu32 << (4 * n))
            .chain((0..32).map(|b| 1u32 << b));
        for m in masks {
            let mut cand = self.best.clone();
            match value(&mut cand, k) {
                Some(v) if *v & m != 0 => *v &= !m,
                _ => continue,
            }
            self.attempt(cand);
        }
    }

    /// [`Shrinker::clear_bits`] on operation `k` if it is a register write (`value` finds
    /// its value); whether it was one.
    pub fn clear_reg_bits(
        &mut self,
        k: usize,
        value: fn(&mut C, usize) -> Option<&mut u32>,
    ) -> bool {
        if value(&mut self.best, k).is_none() {
            return false;
        }
        self.clear_bits(k, value);
        true
    }

    /// Attempts the best case changed by `change` ([`Shrinker::attempt`]).
    pub fn attempt_with(&mut self, change: impl FnOnce(&mut C)) -> bool {
        let mut cand = self.best.clone();
        change(&mut cand);
        self.attempt(cand)
    }

    /// The result: the smallest failing case and its message.
    pub fn finish(self) -> (C, String) {
        (self.best, self.message)
    }
}

/// Where a case sits in a campaign.
#[derive(Clone, Copy, Debug)]
pub struct CaseAt {
    /// The campaign's seed.
    pub campaign_seed: u64,
    /// The case's index.
    pub index: u64,
    /// The case's own seed.
    pub seed: u64,
}

/// The report entry of a shrunk failure `(message, instructions, original instructions)` of
/// the case `at`, with its bundle(s) written by `write(dir, provenance)` into `regressions`
/// (when given; `write` returns the path to report).
pub fn failure(
    at: &CaseAt,
    regressions: Option<&Path>,
    origin: String,
    (message, commands, original_commands): (String, usize, usize),
    write: impl FnOnce(&Path, &StageProvenance) -> Result<String, String>,
) -> Failure {
    let bundle = match regressions {
        Some(dir) => {
            let prov = StageProvenance {
                generator: crate::generator(),
                seed: Some(at.campaign_seed),
                case_index: Some(at.index),
                case_seed: Some(at.seed),
                origin,
            };
            write(dir, &prov).unwrap_or_else(|e| format!("(not written: {e})"))
        }
        None => "(not written)".to_string(),
    };
    Failure {
        case_index: at.index,
        case_seed: format!("0x{:016x}", at.seed),
        message,
        commands,
        original_commands,
        bundle,
    }
}

/// A shrink round over a case's memory images (`images`): whole images zeroed, then halves,
/// ... down to single words (the FOP and TEX targets' step).
pub fn zero_images<C: Clone + PartialEq>(
    sh: &mut Shrinker<'_, C>,
    images: fn(&mut C) -> &mut Vec<pica_vectors::case::MemImage>,
) {
    let len = |sh: &mut Shrinker<'_, C>, im: usize| images(&mut sh.best)[im].words.len();
    for im in 0..images(&mut sh.best).len() {
        let mut chunk = len(sh, im).max(1);
        while chunk >= 1 {
            let mut i = 0;
            while i < len(sh, im) {
                let end = (i + chunk).min(len(sh, im));
                if images(&mut sh.best)[im].words[i..end]
                    .iter()
                    .any(|&w| w != 0)
                {
                    let mut cand = sh.best.clone();
                    images(&mut cand)[im].words[i..end].fill(0);
                    sh.attempt(cand);
                }
                i += chunk;
            }
            chunk /= 2;
        }
    }
}
