//! What the per-stage fuzzers (`--target shader`, `tev`, `fop`, `rast`, `--rtl-stages sh`)
//! share: the campaign loop over case seeds with shards, failure reports and saved bundles
//! ([`run`], [`run_with_skips`]); a stage target as a trait ([`StageTarget`]: its generator,
//! verdict, shrink steps and bundle) with the campaign around it ([`run_target`],
//! [`found_in`]); and the shrinking skeleton of an operation list ([`Shrinker`]).

use crate::fuzz::report::{case_seed, Failure, FuzzReport};
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

/// The [`Found`] of a failing `case` (`message`; `original` commands before shrinking, `shrunk`
/// whether it was): `size` counts its commands, `describe` summarises it for the message, and
/// `save(case, dir, name, description, provenance)` writes its bundle.
pub fn found<'s, C: 's>(
    case: C,
    message: String,
    original: usize,
    shrunk: bool,
    size: fn(&C) -> usize,
    describe: fn(&C) -> String,
    save: impl FnOnce(&C, &Path, &str, &str, &StageProvenance) -> Result<PathBuf, String> + 's,
) -> Found<'s> {
    let how = if shrunk { "shrunk" } else { "unshrunk" };
    let desc = format!("{how} fuzz failure: {message}");
    Found {
        message: format!("{message} [{how}: {}]", describe(&case)),
        commands: size(&case),
        original_commands: original,
        save: Box::new(move |dir, name, prov| save(&case, dir, name, &desc, prov)),
    }
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
        guided: None,
    };
    (report, skipped)
}

/// One stage fuzz target: what is its own — the case generator ([`StageTarget::generate`]),
/// the verdict ([`StageTarget::check`]), the shrink steps ([`StageTarget::shrink`]) and the
/// bundle a failure is saved as — while the campaign around it (shards, the failure report,
/// shrinking only failing cases, saving bundles under a name of the case seed) is
/// [`run_target`]'s and [`found_in`]'s, the same for every target.
pub trait StageTarget {
    /// A case of the target.
    type Case: Clone + 'static;
    /// The report's `against`, the saved bundles' `origin` and their name prefix.
    fn labels(&self) -> Labels;
    /// The case of `case_seed` (carrying the target's knobs).
    fn generate(&self, case_seed: u64) -> Self::Case;
    /// The verdict on `case`: `Err(message)` when it fails.
    fn check(&self, case: &Self::Case) -> Result<(), String>;
    /// The smallest case found from failing `case` (failing with `message`) that still fails
    /// [`StageTarget::check`], and its message.
    fn shrink(&self, case: &Self::Case, message: String) -> (Self::Case, String);
    /// The commands (fragments, triangles, instructions) of a case, as the report counts them.
    fn size(case: &Self::Case) -> usize;
    /// The one-line summary of a case's size.
    fn describe(case: &Self::Case) -> String;
    /// Writes `case` as the bundle `dir/name`; its directory.
    fn save_bundle(
        &self,
        case: &Self::Case,
        dir: &Path,
        name: &str,
        description: &str,
        prov: &StageProvenance,
    ) -> Result<PathBuf, String>;
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

/// Checks the case of `case_seed` and, when `shrink`, shrinks it if it fails (`None` if it
/// passes).
pub fn check_and_shrink<T: StageTarget>(
    target: &T,
    case_seed: u64,
    shrink: bool,
) -> Option<Shrunk<T::Case>> {
    let case = target.generate(case_seed);
    let msg = target.check(&case).err()?;
    let (small, message) = if shrink {
        target.shrink(&case, msg)
    } else {
        (case.clone(), msg)
    };
    Some(Shrunk {
        original: T::size(&case),
        case: small,
        message,
    })
}

/// The failure of the case of `case_seed` as a campaign reports it (`None` if the case
/// passes): shrunk when `shrink`, else the case as generated. `pica mutate` runs its mutants'
/// stage cases through this too.
pub fn found_in<T: StageTarget + 'static>(
    target: T,
    case_seed: u64,
    shrink: bool,
) -> Option<Found<'static>> {
    let s = check_and_shrink(&target, case_seed, shrink)?;
    Some(found(
        s.case,
        s.message,
        s.original,
        shrink,
        T::size,
        T::describe,
        move |c, dir, name, desc, prov| target.save_bundle(c, dir, name, desc, prov),
    ))
}

/// Runs the campaign of `plan` on `target` ([`run`] over [`found_in`], shrinking failures);
/// `progress` is called after each case with (done, total for this shard, failures so far).
/// The report has the register fuzzer's shape; `commands` counts [`StageTarget::size`].
pub fn run_target<T: StageTarget + Clone + 'static>(
    target: &T,
    plan: Plan<'_>,
    progress: impl FnMut(u64, u64, usize),
) -> FuzzReport {
    let c = plan.campaign(target.labels());
    run(&c, |seed| found_in(target.clone(), seed, true), progress)
}

/// Implements [`StageTarget`] for `$target`, the target struct of a stage fuzzer module with the
/// usual items — `generate(case_seed)`, `check(case, rtl, fields...)`, `shrink(case, message,
/// fails)`, `describe(case)` and `save_bundle(case, dir, name, description, prov)` — whose
/// cases carry the struct's `knobs`. `$field`s are the struct's fields the verdict takes after
/// `rtl`; `+ coverage` after them names the struct's `Option<CoverageSink>` field (a stage with
/// a coverage build), handed to the verdict last as `Option<&CoverageSink>`; `$size` is the
/// case method counting its commands; the labels are `$name`'s against `rtl`'s build, with
/// `$detail` (of the target `$t`) after it in the origin.
macro_rules! impl_stage_target {
    (
        $target:ty,
        $case:ty,
        $name:literal,
        $size:ident,
        [$($field:ident),*] $(+ $cov:ident)?,
        |$t:ident| $detail:expr
    ) => {
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

            fn check(&self, case: &$case) -> Result<(), String> {
                check(case, self.rtl $(, self.$field)* $(, self.$cov.as_ref())?)
            }

            fn shrink(&self, case: &$case, message: String) -> ($case, String) {
                shrink(case, message, |c| {
                    check(c, self.rtl $(, self.$field)* $(, self.$cov.as_ref())?).err()
                })
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
                save_bundle(case, dir, name, description, prov)
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

/// Greedy shrinking of a failing case: a candidate replaces the best case so far when it
/// still fails (`fails` returns its message), within a budget of checks.
pub struct Shrinker<C, F> {
    /// The smallest failing case found so far.
    pub best: C,
    /// What fails on it.
    pub message: String,
    budget: usize,
    fails: F,
}

impl<C: Clone + PartialEq, F: FnMut(&C) -> Option<String>> Shrinker<C, F> {
    /// Starts from `case`, failing with `message`; at most `budget` candidates are checked.
    pub fn new(case: &C, message: String, budget: usize, fails: F) -> Self {
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
        match (self.fails)(&cand) {
            Some(m) => {
                self.best = cand;
                self.message = m;
                true
            }
            None => false,
        }
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
