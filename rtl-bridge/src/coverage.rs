//! RTL code coverage from the bridge: the Verilator `--coverage` builds of `build.rs`
//! (`COVERAGE_MODELS`, [`CoverageBuild`]) count line (with block and branch) and toggle points
//! while they run, like the replay testbenches of `pica cov rtl run`. Every stage top the bridge
//! drives has one:
//! - `cov_fe` ([`CoverageBuild::Fe`]): `pica_top` with `EnableSh = 0`, the front end
//!   ([`crate::Variant::FeCoverage`] of [`Rtl`]);
//! - `cov_tev` ([`CoverageBuild::Tev`]): `pica_tev_top` ([`crate::tev_stage::RtlTev`],
//!   [`crate::tev_stage::TevVariant::Coverage`]);
//! - `cov_fop` ([`CoverageBuild::Fop`]): `pica_fop_top` ([`crate::fop_stage::RtlFop`],
//!   [`crate::fop_stage::FopVariant::Coverage`]);
//! - `cov_rast` ([`CoverageBuild::Rast`]): `pica_rast_top`, CLIP + RAST
//!   ([`crate::rast_stage::RtlRast`], [`crate::rast_stage::RastVariant::Coverage`]);
//! - `cov_sh` ([`CoverageBuild::Sh`]): `pica_sh_top`, the four-unit SH stage that
//!   `--rtl-stages sh` runs ([`crate::RtlSh`], [`crate::shader::ShVariant::Coverage`]; the
//!   single shader unit of `pica fuzz --target shader`, `pica_sh_unit_top`, has no coverage
//!   build).
//!
//! Each Verilated model has its own `VerilatedContext`, so its counters are its own: two models
//! alive at once never mix their points. A campaign builds one model per case, so the counts of
//! a run are gathered here ([`RtlCoverage`]: one total per point, the points in the model's
//! order) from each model before it is dropped ([`RtlCoverage::add`], or
//! [`RtlCoverage::add_counts`] with a stage's `coverage()`) and written once at the end
//! ([`RtlCoverage::write`]): a fresh model of the build is loaded with the totals and writes
//! them through Verilator's own writer, so the file is exactly what a `--coverage` simulation
//! would write (`verilator_coverage --write` merges it with the replay testbenches' files,
//! `pica cov rtl report` reads it).

use crate::fop_stage::{FopVariant, RtlFop};
use crate::kit::handle::{read, write_model, Counters, CoverageModel};
use crate::kit::side::MemLatency;
use crate::rast_stage::{RastVariant, RtlRast};
use crate::shader::ShVariant;
use crate::tev_stage::{RtlTev, TevVariant};
use crate::{Rtl, RtlError, RtlSh, Variant};
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Model name of the front end's coverage build (`pica_top`, `EnableSh = 0`).
pub const FE_MODEL: &str = "cov_fe";

/// One coverage build of `build.rs` (`COVERAGE_MODELS`): a stage top verilated with
/// `--coverage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CoverageBuild {
    /// `cov_fe`: the front end (`pica_top` with `EnableSh = 0`).
    Fe,
    /// `cov_tev`: the TEV stage (`pica_tev_top`).
    Tev,
    /// `cov_fop`: the FOP stage (`pica_fop_top`).
    Fop,
    /// `cov_rast`: CLIP + RAST (`pica_rast_top`).
    Rast,
    /// `cov_sh`: the four-unit SH stage (`pica_sh_top`).
    Sh,
}

impl CoverageBuild {
    /// Every coverage build.
    pub const ALL: [CoverageBuild; 5] = [
        CoverageBuild::Fe,
        CoverageBuild::Tev,
        CoverageBuild::Fop,
        CoverageBuild::Rast,
        CoverageBuild::Sh,
    ];

    /// The model name (`cov_fe`, `cov_tev`, ...): the row of `build.rs` and the variant name
    /// its shim reports.
    pub fn name(self) -> &'static str {
        match self {
            CoverageBuild::Fe => FE_MODEL,
            CoverageBuild::Tev => "cov_tev",
            CoverageBuild::Fop => "cov_fop",
            CoverageBuild::Rast => "cov_rast",
            CoverageBuild::Sh => "cov_sh",
        }
    }

    /// The stage as `--rtl-stages` names it (`fe`, `tev`, `fop`, `rast`, `sh`).
    pub fn stage(self) -> &'static str {
        match self {
            CoverageBuild::Fe => "fe",
            CoverageBuild::Tev => "tev",
            CoverageBuild::Fop => "fop",
            CoverageBuild::Rast => "rast",
            CoverageBuild::Sh => "sh",
        }
    }

    /// The build of stage `stage` ([`CoverageBuild::stage`]; any case).
    pub fn from_stage(stage: &str) -> Option<CoverageBuild> {
        Self::ALL
            .into_iter()
            .find(|b| b.stage().eq_ignore_ascii_case(stage))
    }

    /// A new model of this build (its counters zero).
    fn open(self) -> Result<Box<dyn CoverageModel>, RtlError> {
        Ok(match self {
            CoverageBuild::Fe => Box::new(Rtl::with_variant(Variant::FeCoverage)?),
            CoverageBuild::Tev => Box::new(RtlTev::new(TevVariant::Coverage)?),
            CoverageBuild::Fop => Box::new(RtlFop::new(FopVariant::Coverage, MemLatency::Zero)?),
            CoverageBuild::Rast => Box::new(RtlRast::new(RastVariant::Coverage, MemLatency::Zero)?),
            CoverageBuild::Sh => Box::new(RtlSh::new(ShVariant::Coverage)?),
        })
    }
}

/// The totals of [`gather_start`]: one per build being gathered.
static GATHERED: Mutex<Vec<RtlCoverage>> = Mutex::new(Vec::new());

/// [`GATHERED`], even after a panic elsewhere (the totals are plain counts: a panic between two
/// updates leaves them consistent enough to write).
fn gathered() -> MutexGuard<'static, Vec<RtlCoverage>> {
    GATHERED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts gathering, process-wide, the counters of every stage model of the coverage builds
/// `builds` (TEV, FOP, RAST, SH: not the front end, whose runs are totalled explicitly): each
/// model adds its counters when it is dropped, wherever it was built. The stage models of a
/// mixed run live inside the model GPU's stage adapters, and a stage fuzzer builds one per
/// case and per shrink step, so this saves threading a total through every one of those
/// owners. A CLI run gathers once ([`gather_finish`] ends it); a build already being gathered
/// starts again from zero, the others are left alone (so that tests of different builds may
/// gather at once). [`RtlError::MissingVariant`] if a build was not compiled.
pub fn gather_start(builds: &[CoverageBuild]) -> Result<(), RtlError> {
    let totals = builds
        .iter()
        .filter(|b| **b != CoverageBuild::Fe)
        .map(|&b| RtlCoverage::of(b))
        .collect::<Result<Vec<_>, _>>()?;
    let mut g = gathered();
    g.retain(|t| !builds.contains(&t.build));
    g.extend(totals);
    Ok(())
}

/// Ends the gathering of `builds` ([`gather_start`]): their totals, in the order of `builds`
/// (a build not being gathered is left out). Models of these builds dropped later add nothing.
pub fn gather_finish(builds: &[CoverageBuild]) -> Vec<RtlCoverage> {
    let mut g = gathered();
    let mut out = Vec::new();
    for b in builds {
        if let Some(i) = g.iter().position(|t| t.build == *b) {
            out.push(g.swap_remove(i));
        }
    }
    out
}

/// A stage model hands its counters to the gathering ([`gather_start`]) when it is dropped.
macro_rules! gathered_on_drop {
    ($($ty:ty => $build:expr),+ $(,)?) => {
        $(
        impl Drop for $ty {
            fn drop(&mut self) {
                gather_model($build, CoverageModel::counters(self));
            }
        }
        )+
    };
}

gathered_on_drop!(
    RtlTev => CoverageBuild::Tev,
    RtlFop => CoverageBuild::Fop,
    RtlRast => CoverageBuild::Rast,
    RtlSh => CoverageBuild::Sh,
);

/// Adds the counters of a stage model of `build` being dropped to the gathering, if it is a
/// coverage model and its build is being gathered.
fn gather_model(build: CoverageBuild, c: &mut dyn Counters) {
    let Some(counts) = read(c) else {
        return;
    };
    if let Some(t) = gathered().iter_mut().find(|t| t.build == build) {
        t.add_counts(&counts);
    }
}

/// Code coverage gathered over runs of one coverage build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RtlCoverage {
    build: CoverageBuild,
    counts: Vec<u64>,
}

impl RtlCoverage {
    /// Empty coverage of `variant`'s points (a front-end build); [`RtlError::NoCoverage`] if it
    /// is not a coverage build, [`RtlError::MissingVariant`] if it was not compiled.
    pub fn new(variant: Variant) -> Result<Self, RtlError> {
        if !variant.has_coverage() {
            return Err(RtlError::NoCoverage(variant.name()));
        }
        Self::of(CoverageBuild::Fe)
    }

    /// Empty coverage of `build`'s points; [`RtlError::MissingVariant`] if it was not
    /// compiled.
    pub fn of(build: CoverageBuild) -> Result<Self, RtlError> {
        let mut model = build.open()?;
        let n = model.counters().cov_read().len();
        if n == 0 {
            return Err(RtlError::NoCoverage(build.name()));
        }
        Ok(Self {
            build,
            counts: vec![0; n],
        })
    }

    /// The build counted.
    pub fn build(&self) -> CoverageBuild {
        self.build
    }

    /// The front-end variant counted ([`Variant::FeCoverage`]); `None` for a stage build.
    pub fn variant(&self) -> Option<Variant> {
        (self.build == CoverageBuild::Fe).then_some(Variant::FeCoverage)
    }

    /// Points of the build (Verilator counters: a module's point counts once over its
    /// instances).
    pub fn points(&self) -> usize {
        self.counts.len()
    }

    /// Points hit at least once.
    pub fn hit(&self) -> usize {
        self.counts.iter().filter(|&&c| c > 0).count()
    }

    /// The total of each point.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Adds one run's counters (a model's `coverage()`: [`Rtl::coverage`],
    /// [`RtlTev::coverage`], ...); returns how many points they hit that no earlier run had.
    /// Counters beyond the build's points (another build's) are ignored.
    pub fn add_counts(&mut self, run: &[u32]) -> usize {
        let mut new = 0;
        for (t, &c) in self.counts.iter_mut().zip(run) {
            if c > 0 {
                new += usize::from(*t == 0);
                *t = t.saturating_add(u64::from(c));
            }
        }
        new
    }

    /// Adds the counters of `rtl` (a front-end model of this build) as they stand now; returns
    /// the points hit for the first time. Nothing for a model without coverage or for a stage
    /// build.
    pub fn add(&mut self, rtl: &mut Rtl) -> usize {
        if self.variant() != Some(rtl.variant()) {
            return 0;
        }
        rtl.coverage().map_or(0, |c| self.add_counts(&c))
    }

    /// Writes the totals to `path` in Verilator's `coverage.dat` format (counts above 2^32 - 1
    /// saturate: Verilator's counters are 32-bit).
    pub fn write(&self, path: &Path) -> Result<(), RtlError> {
        let mut model = self.build.open()?;
        let c = model.counters();
        let counts: Vec<u32> = self
            .counts
            .iter()
            .map(|&c| u32::try_from(c).unwrap_or(u32::MAX))
            .collect();
        c.cov_zero();
        if !c.cov_load(&counts) {
            return Err(RtlError::NoCoverage(self.build.name()));
        }
        let r = write_model(c, self.build.name(), path);
        // The writer model holds the totals: zeroed, its drop adds nothing to a gathering.
        c.cov_zero();
        r
    }
}
