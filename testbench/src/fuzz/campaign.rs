//! What the per-stage fuzzers (`--target shader`, `tev`, `fop`) share: the campaign loop over
//! case seeds with shards, failure reports and saved bundles ([`run`]), and the shrinking
//! skeleton of an operation list ([`Shrinker`]).

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

/// Runs the cases of `c` this shard owns (case `i` has seed [`case_seed`]`(seed, i)`):
/// `check(case seed)` returns a shrunk failure or `None`; `progress` is called after each case
/// with (done, total for this shard, failures so far). Stops after `max_failures` failures.
pub fn run<'s>(
    c: &Campaign<'_>,
    mut check: impl FnMut(u64) -> Option<Found<'s>>,
    mut progress: impl FnMut(u64, u64, usize),
) -> FuzzReport {
    let (index, count) = (c.shard.0, c.shard.1.max(1));
    let total = (0..c.cases).filter(|i| i % count == index).count() as u64;
    let mut failures: Vec<Failure> = Vec::new();
    let mut done = 0;
    for i in (0..c.cases).filter(|i| i % count == index) {
        let seed = case_seed(c.seed, i);
        if let Some(f) = check(seed) {
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
        done += 1;
        progress(done, total, failures.len());
        if failures.len() >= c.max_failures.max(1) {
            break;
        }
    }
    FuzzReport {
        seed: c.seed,
        cases: c.cases,
        shard: format!("{index}/{count}"),
        against: c.against.clone(),
        cases_run: done,
        failures,
        guided: None,
    }
}

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
