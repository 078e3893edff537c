//! Coverage-guided stage fuzzing: `pica fuzz --target tev|fop|rast --rtl --guided` and
//! `pica fuzz --rtl-stages sh --guided` (issue 35 item 3), for any [`StageTarget`] whose RTL
//! has a coverage build.
//!
//! The idea is the register fuzzer's ([`crate::fuzz::guided`]), with RTL code coverage as the
//! only signal (the stage tops have no functional bins): the campaign keeps a *pool* of every
//! case that hit a line, branch or toggle point of the stage's coverage build that no earlier
//! case of the campaign hit, and once the pool holds a case, part of the budget
//! ([`MUTATED_SHARE_PERCENT`]) goes to mutants of pool cases instead of fresh ones. A stage
//! contributes only its mutation ([`StageTarget::mutate`]: for the operation lists of tev, fop
//! and rast cases the campaign's [`crate::fuzz::campaign::mutate_ops`] — splice, duplicate,
//! remove, insert) and its coverage build ([`StageTarget::coverage_probe`]).
//!
//! The coverage comes from the coverage build: when the campaign runs another build (the
//! default, or an injected bug, whose failures are what it looks for) each case also runs once
//! on the coverage build beside it ([`Probe::Beside`]), for its points only; when it runs the
//! coverage build itself ([`Probe::Itself`]), one run gives both.
//!
//! Everything is deterministic: the choice between fresh and mutant and every mutation come
//! from [`case_seed`]`(seed, i)`, and the pool depends only on the cases before `i` in the
//! same shard. A fresh case keeps its unguided seed (`--replay` reproduces it); a failing
//! mutant, which no seed replays, is reported as `guided mutant: …` and its shrunk bundle
//! (`<prefix>-guided-<seed>`) is its reproducer.

use crate::fuzz::campaign::{
    check_case_and_shrink, failure, found_of, CaseAt, Checked, MutRng, Plan, Probe, StageTarget,
};
use crate::fuzz::guided::RNG_SALT;
use crate::fuzz::report::{case_seed, FuzzReport, GuidedSummary};
use pica_rtl_bridge::coverage::CoverageSink;

/// Percent of the cases that are mutants of pool cases once the pool is not empty (the rest
/// are fresh, as in the unguided campaign).
pub const MUTATED_SHARE_PERCENT: u64 = 50;

/// The RTL points `sink` has seen hit, and the points of its builds.
pub fn points(sink: &CoverageSink) -> (usize, usize) {
    sink.totals()
        .iter()
        .fold((0, 0), |(h, p), t| (h + t.hit(), p + t.points()))
}

/// Whether case `i` of a curve is recorded: the first cases, then powers of two.
fn on_curve(done: u64) -> bool {
    done <= 4 || done.is_power_of_two()
}

/// Runs the guided campaign of `plan` on `target`, its cases' RTL coverage gathered into
/// `sink` (a sink of the target's [`StageTarget::coverage_build`]; with `--rtl-coverage FILE`
/// the one written there); with `guided` false the same campaign unguided (every case fresh:
/// the baseline of `--versus-unguided`). `progress` is called after each case with (done,
/// total for this shard, failures so far). Returns the report, the summary (the pool, the
/// points hit over the cases: [`GuidedSummary::rtl_points_curve`]) and the skipped cases; an
/// error when the target has no coverage build or no guided mode.
pub fn run<T: StageTarget + Clone + 'static>(
    target: &T,
    plan: Plan<'_>,
    sink: &CoverageSink,
    guided: bool,
    mut progress: impl FnMut(u64, u64, usize),
) -> Result<(FuzzReport, GuidedSummary, u64), String> {
    let labels = target.labels();
    let Some(probe) = target.coverage_probe(sink) else {
        return Err(format!(
            "{}: the stage's RTL has no coverage build to guide by",
            labels.against
        ));
    };
    let (verdict_target, beside) = match probe {
        Probe::Itself(t) => (t, None),
        Probe::Beside(t) => (target.clone(), Some(t)),
    };
    let c = plan.campaign(labels);
    let (index, count) = (c.shard.0, c.shard.1.max(1));
    let mine: Vec<u64> = (0..c.cases).filter(|i| i % count == index).collect();
    let total = mine.len() as u64;
    let mut pool: Vec<T::Case> = Vec::new();
    let mut sum = GuidedSummary::default();
    let mut failures = Vec::new();
    let (mut done, mut skipped) = (0, 0);
    let mut hit = points(sink).0;
    for i in mine {
        let seed = case_seed(c.seed, i);
        let mut rng = MutRng(seed ^ RNG_SALT);
        let mutant = (guided && !pool.is_empty() && rng.bits() % 100 < MUTATED_SHARE_PERCENT)
            .then(|| {
                let base = &pool[rng.below(pool.len())];
                // The donor: another pool case, or a fresh one (new operations to take in).
                let fresh;
                let donor = if rng.below(2) == 0 {
                    &pool[rng.below(pool.len())]
                } else {
                    fresh = target.generate(rng.bits());
                    &fresh
                };
                target.mutate(base, donor, &mut rng)
            })
            .flatten();
        let is_mutant = mutant.is_some();
        if is_mutant {
            sum.mutants += 1;
        } else {
            sum.fresh += 1;
        }
        let case = mutant.unwrap_or_else(|| target.generate(seed));
        if let Some(b) = &beside {
            // Coverage only: the verdict is the target's own run.
            let _ = b.check(&case);
        }
        let checked = check_case_and_shrink(&verdict_target, case.clone(), true);
        let now = points(sink).0;
        if now > hit {
            sum.pool += 1;
            sum.pool_from_mutants += u64::from(is_mutant);
            sum.pool_from_rtl += 1;
            pool.push(case);
        }
        hit = now;
        match checked {
            Checked::Passed => {}
            Checked::Skipped => skipped += 1,
            Checked::Failed(s) => {
                let f = found_of(verdict_target.clone(), *s, true);
                let at = CaseAt {
                    campaign_seed: c.seed,
                    index: i,
                    seed,
                };
                let (name, message) = if is_mutant {
                    (
                        format!("{}-guided-{seed:016x}", c.prefix),
                        format!("guided mutant: {}", f.message),
                    )
                } else {
                    (format!("{}-{seed:016x}", c.prefix), f.message)
                };
                let save = f.save;
                failures.push(failure(
                    &at,
                    c.regressions,
                    c.origin.clone(),
                    (message, f.commands, f.original_commands),
                    |dir, prov| save(dir, &name, prov).map(|p| p.display().to_string()),
                ));
            }
        }
        done += 1;
        if on_curve(done) {
            sum.rtl_points_curve.push((done, hit));
        }
        progress(done, total, failures.len());
        if failures.len() >= c.max_failures.max(1) {
            break;
        }
    }
    if sum.rtl_points_curve.last().map(|l| l.0) != Some(done) {
        sum.rtl_points_curve.push((done, hit));
    }
    sum.rtl_points = Some(points(sink));
    let report = FuzzReport {
        seed: c.seed,
        cases: c.cases,
        shard: format!("{index}/{count}"),
        against: format!(
            "{} ({})",
            c.against,
            if guided { "guided" } else { "unguided" }
        ),
        cases_run: done - skipped,
        failures,
        loops: 0,
        guided: None,
    };
    Ok((report, sum, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::campaign::{mutate_ops, MAX_MUTANT_OPS};

    #[test]
    fn curve_points_are_the_first_cases_and_powers_of_two() {
        let on: Vec<u64> = (1..=40).filter(|&d| on_curve(d)).collect();
        assert_eq!(on, vec![1, 2, 3, 4, 8, 16, 32]);
    }

    #[test]
    fn mutations_stay_bounded_and_take_from_the_donor() {
        let mut rng = MutRng(5);
        let donor: Vec<u32> = (100..110).collect();
        let mut took = false;
        for _ in 0..200 {
            let mut ops: Vec<u32> = (0..8).collect();
            mutate_ops(&mut ops, &donor, &mut rng);
            assert!(ops.len() <= MAX_MUTANT_OPS);
            took |= ops.iter().any(|o| *o >= 100);
        }
        assert!(took);
        // An empty case and an empty donor do not panic.
        let mut ops: Vec<u32> = Vec::new();
        for _ in 0..20 {
            mutate_ops(&mut ops, &[], &mut rng);
        }
    }
}
