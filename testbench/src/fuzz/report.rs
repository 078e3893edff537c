//! What every fuzz campaign reports, whatever its target: the seed of each case
//! ([`case_seed`]), the failures ([`Failure`]) and the campaign's report ([`FuzzReport`], with
//! a guided campaign's [`GuidedSummary`]), and the merge of shard reports. Below the targets,
//! the shared campaign loop and the guided fuzzer, which all write it.

use serde::{Deserialize, Serialize};

/// The seed of case `i` of a campaign with seed `seed` (SplitMix64 of both).
pub fn case_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A failing case, shrunk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Failure {
    /// Index of the case in the campaign.
    pub case_index: u64,
    /// Its own seed ([`case_seed`]).
    pub case_seed: String,
    /// What broke (first line of the lockstep report or the invariant).
    pub message: String,
    /// Commands in the shrunk reproducer.
    pub commands: usize,
    /// Commands before shrinking.
    pub original_commands: usize,
    /// The bundle written for it.
    pub bundle: String,
}

/// A campaign's result (JSON reports of shards merge by concatenating `failures` and summing
/// `cases_run`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct FuzzReport {
    /// Campaign seed.
    pub seed: u64,
    /// Campaign size.
    pub cases: u64,
    /// `I/N`.
    pub shard: String,
    /// `model` or `rtl:<variant>`.
    pub against: String,
    /// Cases this shard ran.
    pub cases_run: u64,
    /// Failures found.
    pub failures: Vec<Failure>,
    /// Cases of the register target that ended early because their command stream provably
    /// loops (`lockstep::loops`), which would otherwise run to the cycle limit.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub loops: u64,
    /// What a guided campaign did (`pica fuzz --guided`); absent for an unguided one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guided: Option<GuidedSummary>,
}

/// Merges the reports of the shards of one campaign (`pica fuzz merge`) into the report the
/// unsharded campaign gives: the same seed, size and `against` in every report, shards `i/N`
/// of one `N`, each `i` exactly once; `cases_run` summed, failures in case order, shard `0/1`.
pub fn merge_reports(reports: &[FuzzReport]) -> Result<FuzzReport, String> {
    let first = reports.first().ok_or("no report to merge")?;
    let shard_of = |r: &FuzzReport| -> Result<(u64, u64), String> {
        let (i, n) = r
            .shard
            .split_once('/')
            .ok_or_else(|| format!("shard '{}' is not I/N", r.shard))?;
        let parse = |t: &str| {
            t.parse::<u64>()
                .map_err(|_| format!("shard '{}' is not I/N", r.shard))
        };
        Ok((parse(i)?, parse(n)?))
    };
    let (_, n) = shard_of(first)?;
    let mut seen = vec![false; usize::try_from(n).map_err(|_| "shard count too large")?];
    let mut merged = FuzzReport {
        seed: first.seed,
        cases: first.cases,
        shard: "0/1".into(),
        against: first.against.clone(),
        cases_run: 0,
        failures: Vec::new(),
        loops: 0,
        guided: None,
    };
    for (k, r) in reports.iter().enumerate() {
        if (r.seed, r.cases, &r.against) != (first.seed, first.cases, &first.against) {
            return Err(format!(
                "report {}: seed {}, {} cases against {} — report 1 has seed {}, {} cases \
                 against {}: not shards of one campaign",
                k + 1,
                r.seed,
                r.cases,
                r.against,
                first.seed,
                first.cases,
                first.against
            ));
        }
        let (i, rn) = shard_of(r)?;
        if rn != n || i >= n {
            return Err(format!(
                "report {}: shard {} is not one of {n}",
                k + 1,
                r.shard
            ));
        }
        let slot = &mut seen[i as usize];
        if *slot {
            return Err(format!("report {}: shard {} given twice", k + 1, r.shard));
        }
        *slot = true;
        merged.cases_run += r.cases_run;
        merged.loops += r.loops;
        merged.failures.extend(r.failures.iter().cloned());
        if let Some(g) = &r.guided {
            merged.guided.get_or_insert_with(Default::default).add(g);
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|&i| !seen[i as usize])
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("shards missing: {}", missing.join(", ")));
    }
    merged.failures.sort_by_key(|f| f.case_index);
    Ok(merged)
}

/// What a guided campaign did, beside its [`FuzzReport`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuidedSummary {
    /// Cases drawn fresh from the strategy.
    pub fresh: u64,
    /// Mutants by operation: steer, splice, duplicate draw, tweak.
    pub steer: u64,
    /// Splices of two pool cases.
    pub splice: u64,
    /// Duplicated (or added) draws.
    pub dup_draw: u64,
    /// One-command tweaks.
    pub tweak: u64,
    /// Cases that reached a new bin, or with RTL coverage guidance a new RTL point (the pool's
    /// size at the end).
    pub pool: u64,
    /// Of them, mutants (the rest are fresh cases).
    pub pool_from_mutants: u64,
    /// Bins the guided campaign reached (its coverage database has them by name).
    pub covered_bins: usize,
    /// Bins the unguided campaign of the same seed, size and shard reached
    /// (`--versus-unguided`; not kept by a merge of shard reports, whose coverage databases
    /// merge instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unguided_covered_bins: Option<usize>,
    /// Cases that joined the pool for a new RTL code-coverage point alone (no new bin).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pool_from_rtl: u64,
    /// RTL code-coverage points the guided campaign hit, and the build's points (with RTL
    /// coverage guidance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtl_points: Option<(usize, usize)>,
    /// RTL points the unguided campaign of the same seed, size and shard hit
    /// (`--versus-unguided` with RTL coverage guidance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unguided_rtl_points: Option<usize>,
    /// Mutants of a guided stage campaign ([`crate::fuzz::stage_guided`]: the stage's own
    /// mutation, not one of the register fuzzer's operations).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mutants: u64,
    /// A guided stage campaign's RTL points hit over its cases: (cases done, points hit) after
    /// the first four cases, then after each power of two, and at the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rtl_points_curve: Vec<(u64, usize)>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl GuidedSummary {
    /// Adds the counts of another shard's summary (bins are not additive: the merged coverage
    /// database has them).
    pub fn add(&mut self, o: &GuidedSummary) {
        self.fresh += o.fresh;
        self.steer += o.steer;
        self.splice += o.splice;
        self.dup_draw += o.dup_draw;
        self.tweak += o.tweak;
        self.pool += o.pool;
        self.pool_from_mutants += o.pool_from_mutants;
        self.pool_from_rtl += o.pool_from_rtl;
        self.mutants += o.mutants;
        // Per shard: the merged coverage files give the whole campaign's points.
        self.rtl_points_curve.clear();
        self.covered_bins = 0;
        self.unguided_covered_bins = None;
        // Points are not additive either: merge the shards' coverage files.
        self.rtl_points = None;
        self.unguided_rtl_points = None;
    }
}
