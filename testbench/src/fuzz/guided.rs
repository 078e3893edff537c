//! Coverage-guided register-sequence fuzzing: `pica fuzz --guided` (issue 21 item 4).
//!
//! The unguided fuzzer ([`crate::fuzz::regs`]) draws every case fresh from its strategy. The guided
//! one keeps a *pool*: every case that reached a functional-coverage bin no earlier case of the
//! campaign reached ([`pica_model::cov`]). Once the pool holds a case, part of the budget
//! ([`MUTATED_SHARE_PERCENT`]) goes to mutants of pool cases instead of fresh ones:
//!
//! - **steer**: pick a bin not reached yet whose register settings are known
//!   ([`CovModel::steer`](pica_model::cov::CovModel::steer): a field value, a blend equation × factor, a texture format × filter
//!   × wrap, …), write those settings into a pool case and follow them with a draw (fields and
//!   crosses are sampled from the register file at each draw);
//! - **splice**: the head of one pool case and the tail of another;
//! - **duplicate a draw**: copy a draw trigger (DRAWARRAYS / DRAWELEMENTS) to a later point, or
//!   add one;
//! - **tweak**: one parameter word replaced, one command removed, or one fresh command inserted.
//!
//! Everything is deterministic: the choice between fresh and mutant, and every mutation, come
//! from [`case_seed`]`(seed, i)`, and the pool depends only on the cases before `i` in the same
//! shard. A fresh case keeps its unguided seed (`pica fuzz --replay` reproduces it); a mutant
//! depends on the pool, so it is named `guided 0x<seed>` and, with `--keep-new DIR`, written as
//! a bundle (as is every case that raised coverage: such bundles are what the corpus grows
//! from). Failures are shrunk by removing commands while the case still fails (mutants have no
//! proptest value tree) and saved as bundles like every fuzz failure.
//!
//! With RTL (`--rtl`), a case is checked in lockstep as in the unguided campaign. On the
//! coverage build of the front end (`cov_fe`, [`pica_rtl_bridge::coverage`]) the RTL's
//! code-coverage counters of each case are read straight out of the model after its run (one
//! load per point, no file): a case also joins the pool when it hit an RTL point (line,
//! branch or toggle) no earlier case of the campaign hit.

// What a guided campaign did: part of the shared report ([`super::report`]).
pub use super::report::GuidedSummary;
use crate::fuzz::regs::{self, Cmd, FuzzList, FuzzOptions};
use crate::fuzz::report::{case_seed, FuzzReport};
use pica_model::cov::{self, CoverageDb, Hits, Steer};
use pica_model::regs::id;
use pica_rtl_bridge::RtlCoverage;
use pica_vectors::bundle::write_bundle;
use std::path::{Path, PathBuf};

/// Percent of the cases that are mutants of pool cases once the pool is not empty (the rest
/// are fresh, as in the unguided campaign).
pub const MUTATED_SHARE_PERCENT: u64 = 50;
/// A mutant's main list is cut to this many commands (the strategy makes at most 24; splices
/// and steered settings grow lists, and long lists only slow every later case down).
pub const MAX_MAIN_COMMANDS: usize = 48;
/// Checks tried when shrinking a failing mutant.
pub const MAX_SHRINK_CHECKS: usize = 2048;

/// Mixed into a case seed for the guided choices, so they differ from the strategy's.
pub(crate) const RNG_SALT: u64 = 0x6775_6964_6564; // "guided"

/// The guided fuzzer's own choices (the strategy keeps its ChaCha RNG): the same SplitMix64
/// stream the stage targets' guided mutations use.
pub(crate) use crate::fuzz::campaign::MutRng as Rng;

/// The mutation operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Steer,
    Splice,
    DupDraw,
    Tweak,
}

/// The bins [`CovModel::steer`] can aim at, with their settings (computed once).
pub(crate) fn steerable() -> &'static [(usize, Vec<Steer>)] {
    static T: std::sync::OnceLock<Vec<(usize, Vec<Steer>)>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let m = cov::model();
        (0..m.bins().len())
            .map(|b| (b, m.steer(b)))
            .filter(|(_, s)| !s.is_empty())
            .collect()
    })
}

/// The byte-enable mask that covers the bits of `mask` (all four bytes for `0`).
pub(crate) fn byte_enables(mask: u32) -> u8 {
    if mask == 0 {
        return 0xF;
    }
    (0..4).fold(0u8, |be, b| {
        if mask >> (8 * b) & 0xFF != 0 {
            be | 1 << b
        } else {
            be
        }
    })
}

/// A draw trigger write.
fn draw(elements: bool) -> Cmd {
    Cmd::Write {
        id: if elements {
            id::DRAWELEMENTS
        } else {
            id::DRAWARRAYS
        },
        mask: 0xF,
        consecutive: false,
        params: vec![1],
    }
}

fn is_draw(c: &Cmd) -> bool {
    matches!(c, Cmd::Write { id: i, .. } if *i == id::DRAWARRAYS || *i == id::DRAWELEMENTS)
}

/// Where a command may go in `main` and still run: not after the first jump (the CP leaves the
/// list there).
fn insert_limit(main: &[Cmd]) -> usize {
    main.iter()
        .position(|c| matches!(c, Cmd::Jump { .. } | Cmd::JumpTo { .. }))
        .unwrap_or(main.len())
}

/// A fresh command from the strategy (the first of a fresh case that has one).
fn fresh_command(rng: &mut Rng) -> Option<Cmd> {
    for _ in 0..4 {
        if let Some(l) = regs::generate(rng.bits()) {
            if let Some(c) = l.main.into_iter().next() {
                return Some(c);
            }
        }
    }
    None
}

/// The settings of a bin to steer to: a few tries for a bin not reached yet (a reached one
/// still makes a useful draw).
pub(crate) fn pick_steer(db: &CoverageDb, rng: &mut Rng) -> &'static [Steer] {
    let table = steerable();
    let mut pick = &table[rng.below(table.len())];
    for _ in 0..32 {
        if !db.is_hit(pick.0) {
            break;
        }
        pick = &table[rng.below(table.len())];
    }
    &pick.1
}

/// Whether case `rng`'s case is a mutant (the pool not empty), and with which operation; counts
/// it in `sum`.
pub(crate) fn choose(pool_empty: bool, rng: &mut Rng, sum: &mut GuidedSummary) -> Option<Op> {
    if pool_empty || (rng.bits() % 100) >= MUTATED_SHARE_PERCENT {
        sum.fresh += 1;
        return None;
    }
    let op = match rng.below(20) {
        0..=7 => Op::Steer,
        8..=11 => Op::Splice,
        12..=14 => Op::DupDraw,
        _ => Op::Tweak,
    };
    *match op {
        Op::Steer => &mut sum.steer,
        Op::Splice => &mut sum.splice,
        Op::DupDraw => &mut sum.dup_draw,
        Op::Tweak => &mut sum.tweak,
    } += 1;
    Some(op)
}

/// Mutates `pool[..]` into a new case with operation `op`; `db` says which bins are reached.
fn mutate(pool: &[FuzzList], db: &CoverageDb, op: Op, rng: &mut Rng) -> FuzzList {
    let mut l = pool[rng.below(pool.len())].clone();
    match op {
        Op::Steer => {
            let pick = pick_steer(db, rng);
            let at = rng.below(insert_limit(&l.main) + 1);
            let mut cmds: Vec<Cmd> = pick
                .iter()
                .map(|s| {
                    let noise = rng.bits() as u32;
                    Cmd::Write {
                        id: s.id,
                        mask: byte_enables(s.mask),
                        consecutive: false,
                        params: vec![(noise & !s.mask) | s.value],
                    }
                })
                .collect();
            if pick.iter().any(|s| s.mask != 0) {
                cmds.push(draw(rng.below(4) == 0));
            }
            l.main.splice(at..at, cmds);
        }
        Op::Splice => {
            let other = &pool[rng.below(pool.len())];
            let cut = rng.below(insert_limit(&l.main) + 1);
            let from = rng.below(other.main.len() + 1);
            l.main.truncate(cut);
            l.main.extend(other.main[from..].iter().cloned());
            if rng.below(2) == 0 {
                l.target.clone_from(&other.target);
            }
        }
        Op::DupDraw => {
            let draws: Vec<usize> = (0..l.main.len()).filter(|&i| is_draw(&l.main[i])).collect();
            let limit = insert_limit(&l.main);
            if draws.is_empty() {
                let at = rng.below(limit + 1);
                l.main.insert(at, draw(rng.below(4) == 0));
            } else {
                let src = draws[rng.below(draws.len())];
                let at = src + 1 + rng.below(limit.saturating_sub(src) + 1);
                let c = l.main[src].clone();
                l.main.insert(at.min(l.main.len()), c);
            }
        }
        Op::Tweak => match rng.below(3) {
            0 => {
                let writes: Vec<usize> = (0..l.main.len())
                    .filter(|&i| matches!(l.main[i], Cmd::Write { .. }))
                    .collect();
                if let Some(&i) = writes.get(rng.below(writes.len().max(1))) {
                    if let Cmd::Write { params, .. } = &mut l.main[i] {
                        let k = rng.below(params.len());
                        params[k] = rng.bits() as u32;
                    }
                }
            }
            1 if !l.main.is_empty() => {
                l.main.remove(rng.below(l.main.len()));
            }
            _ => {
                if let Some(c) = fresh_command(rng) {
                    let at = rng.below(insert_limit(&l.main) + 1);
                    l.main.insert(at, c);
                }
            }
        },
    }
    l.main.truncate(MAX_MAIN_COMMANDS);
    l
}

/// Shrinks a failing list by removing commands (main, then jump target) while it still fails;
/// returns the smallest failing list and its message.
fn shrink_by_removal(
    list: &FuzzList,
    message: String,
    check: impl Fn(&FuzzList) -> Result<(), String>,
) -> (FuzzList, String) {
    let (mut best, mut msg) = (list.clone(), message);
    let mut checks = 0;
    let mut progress = true;
    while progress && checks < MAX_SHRINK_CHECKS {
        progress = false;
        for target in [false, true] {
            let mut i = if target {
                best.target.len()
            } else {
                best.main.len()
            };
            while i > 0 && checks < MAX_SHRINK_CHECKS {
                i -= 1;
                let mut cand = best.clone();
                if target {
                    cand.target.remove(i);
                } else {
                    cand.main.remove(i);
                }
                checks += 1;
                if let Err(m) = check(&cand) {
                    best = cand;
                    msg = m;
                    progress = true;
                }
            }
        }
    }
    (best, msg)
}

/// Writes `list` as a bundle `dir/name` (run with `opts`' knobs); its path, or why not.
fn save_bundle(
    list: &FuzzList,
    opts: &FuzzOptions,
    dir: &Path,
    name: &str,
    seed: u64,
) -> Result<PathBuf, String> {
    let out = dir.join(name);
    let mut case = list.to_case(&format!("guided/{name}"), Some(seed));
    case.knobs = opts.knobs;
    let run = case.run_model().map_err(|e| e.to_string())?;
    write_bundle(&out, &case, &run, &crate::generator()).map_err(|e| e.to_string())?;
    Ok(out)
}

/// Runs a guided campaign over the cases of `opts` this shard owns, adding every case's
/// coverage to `db`; `keep` (when given) receives a bundle of each case that reached a new bin.
/// With `rtl_cov` (`opts.rtl` its coverage build), every case's RTL code coverage is added to
/// it and a case that hit a new RTL point joins the pool too. `progress` is called after each
/// case with (done, total for this shard, failures so far).
pub fn run(
    opts: &FuzzOptions,
    db: &mut CoverageDb,
    keep: Option<&Path>,
    mut rtl_cov: Option<&mut RtlCoverage>,
    mut progress: impl FnMut(u64, u64, usize),
) -> (FuzzReport, GuidedSummary) {
    let (index, count) = (opts.shard.0, opts.shard.1.max(1));
    let mine: Vec<u64> = (0..opts.cases).filter(|i| i % count == index).collect();
    let total = mine.len() as u64;
    let mut pool: Vec<FuzzList> = Vec::new();
    let mut sum = GuidedSummary::default();
    let mut failures = Vec::new();
    let mut done = 0;
    let mut loops = 0;
    for i in mine {
        let seed = case_seed(opts.seed, i);
        let mut rng = Rng(seed ^ RNG_SALT);
        let op = choose(pool.is_empty(), &mut rng, &mut sum);
        let mutant = op.is_some();
        let list = match op {
            Some(op) => Some(mutate(&pool, db, op, &mut rng)),
            None => regs::generate(seed),
        };
        let Some(list) = list else {
            done += 1;
            progress(done, total, failures.len());
            continue;
        };
        let label = if mutant {
            format!("guided 0x{seed:016x}")
        } else {
            format!("fuzz 0x{seed:016x}")
        };
        // A fresh case runs as `pica fuzz` runs it (held on its seed's schedule); a pool
        // mutant, which no seed replays, runs without a hold.
        let hold = if mutant {
            None
        } else {
            crate::lockstep::HoldSchedule::of_case(seed)
        };
        let c = regs::check_full(&list, opts.rtl, &opts.knobs, true, hold);
        loops += u64::from(c.loop_proof.is_some());
        let r = c.result;
        let hits = c.hits.unwrap_or_else(|| Hits::from_counts(&[]));
        let new_bin = hits.iter().any(|(b, _)| !db.is_hit(b));
        let new_points = match (rtl_cov.as_deref_mut(), &c.rtl_coverage) {
            (Some(rc), Some(counts)) => rc.add_counts(counts),
            _ => 0,
        };
        let new = new_bin || new_points > 0;
        let mut label_used = label;
        if new {
            sum.pool += 1;
            sum.pool_from_mutants += u64::from(mutant);
            sum.pool_from_rtl += u64::from(!new_bin);
            if let Some(dir) = keep {
                let name = format!("guided-{seed:016x}");
                if let Ok(p) = save_bundle(&list, opts, dir, &name, seed) {
                    label_used = p.display().to_string();
                }
            }
            pool.push(list.clone());
        }
        db.add(&hits, &label_used);
        if let Err(message) = r {
            let original_commands = list.commands();
            let shrunk = if mutant {
                Some(shrink_by_removal(&list, message, |l| {
                    regs::check_with(l, opts.rtl, &opts.knobs)
                }))
            } else {
                regs::shrink_with(seed, opts.rtl, &opts.knobs).map(|(l, m, _)| (l, m))
            };
            if let Some((small, message)) = shrunk {
                let kind = if opts.rtl.is_some() {
                    "lockstep"
                } else {
                    "model"
                };
                let name = format!("fuzz-guided-{kind}-{seed:016x}");
                failures.push(regs::failure(
                    opts,
                    &small,
                    &name,
                    (i, seed),
                    message,
                    original_commands,
                ));
            }
        }
        done += 1;
        progress(done, total, failures.len());
        if failures.len() >= opts.max_failures {
            break;
        }
    }
    sum.covered_bins = db.total().0;
    sum.rtl_points = rtl_cov.map(|rc| (rc.hit(), rc.points()));
    let report = FuzzReport {
        seed: opts.seed,
        cases: opts.cases,
        shard: format!("{index}/{count}"),
        against: opts.rtl.map_or_else(
            || "model (guided)".to_string(),
            |v| format!("rtl:{} (guided)", v.label()),
        ),
        cases_run: done,
        failures,
        loops,
        guided: None,
    };
    (report, sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_enables_cover_the_field() {
        assert_eq!(byte_enables(0), 0xF);
        assert_eq!(byte_enables(0x0000_0003), 0x1);
        assert_eq!(byte_enables(0x0001_8000), 0x6);
        assert_eq!(byte_enables(0xFF00_0000), 0x8);
    }

    #[test]
    fn steered_mutant_carries_the_setting_and_a_draw() {
        let db = CoverageDb::new("t");
        let base = FuzzList {
            main: vec![],
            target: vec![],
            finalize: true,
            target_finalize: true,
            size: regs::SizeMode::Exact,
            target_base: regs::JUMP_TARGET,
        };
        let mut rng = Rng(7);
        for _ in 0..50 {
            let l = mutate(std::slice::from_ref(&base), &db, Op::Steer, &mut rng);
            assert!(!l.main.is_empty());
            let settings = l.main.iter().filter(|c| !is_draw(c)).count();
            assert!(settings >= 1, "{l:?}");
        }
    }

    #[test]
    fn removal_shrinker_keeps_the_failing_command() {
        let cmd = |i: u16| Cmd::Write {
            id: i,
            mask: 0xF,
            consecutive: false,
            params: vec![0],
        };
        let l = FuzzList {
            main: (0..10).map(cmd).collect(),
            target: vec![cmd(3)],
            finalize: true,
            target_finalize: true,
            size: regs::SizeMode::Exact,
            target_base: regs::JUMP_TARGET,
        };
        let fails = |l: &FuzzList| {
            if l.main.contains(&cmd(7)) {
                Err("has 7".to_string())
            } else {
                Ok(())
            }
        };
        let (small, msg) = shrink_by_removal(&l, "has 7".into(), fails);
        assert_eq!(small.main, vec![cmd(7)]);
        assert!(small.target.is_empty());
        assert_eq!(msg, "has 7");
    }
}
