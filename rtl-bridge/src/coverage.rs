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
//! - `cov_tex` ([`CoverageBuild::Tex`]): `pica_tex_top`, texture units 0-2
//!   ([`crate::tex_stage::RtlTex`], [`crate::tex_stage::TexVariant::Coverage`]);
//! - `cov_sh` ([`CoverageBuild::Sh`]): `pica_sh_top`, the four-unit SH stage that
//!   `--rtl-stages sh` runs ([`crate::RtlSh`], [`crate::shader::ShVariant::Coverage`]; the
//!   single shader unit of `pica fuzz --target shader`, `pica_sh_unit_top`, has no coverage
//!   build).
//!
//! Each Verilated model has its own `VerilatedContext`, so its counters are its own: two models
//! alive at once never mix their points. A campaign builds one model per case, so the counts of
//! a run are gathered here ([`RtlCoverage`]: one total per point, the points in the model's
//! order) from each model before it is dropped ([`RtlCoverage::add`], or
//! [`RtlCoverage::add_counts`] with a stage's `coverage()`; the stage models of a run through a
//! [`CoverageSink`] the caller owns and hands down) and written once at the end
//! ([`RtlCoverage::write`]): a fresh model of the build is loaded with the totals and writes
//! them through Verilator's own writer, so the file is exactly what a `--coverage` simulation
//! would write (`verilator_coverage --write` merges it with the replay testbenches' files,
//! `pica cov rtl report` reads it).

use crate::fop_stage::{FopVariant, RtlFop};
use crate::kit::handle::{read, write_model, CoverageModel};
use crate::kit::side::MemLatency;
use crate::rast_stage::{RastVariant, RtlRast};
use crate::shader::ShVariant;
use crate::tev_stage::{RtlTev, TevVariant};
use crate::tex_stage::{RtlTex, TexVariant};
use crate::{Rtl, RtlError, RtlSh, Variant};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

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
    /// `cov_tex`: texture units 0-2 (`pica_tex_top`).
    Tex,
}

impl CoverageBuild {
    /// Every coverage build.
    pub const ALL: [CoverageBuild; 6] = [
        CoverageBuild::Fe,
        CoverageBuild::Tev,
        CoverageBuild::Fop,
        CoverageBuild::Rast,
        CoverageBuild::Sh,
        CoverageBuild::Tex,
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
            CoverageBuild::Tex => "cov_tex",
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
            CoverageBuild::Tex => "tex",
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
            CoverageBuild::Tex => Box::new(RtlTex::new(TexVariant::Coverage, MemLatency::Zero)?),
        })
    }
}

/// The code coverage of the stage models of one run, gathered build by build. The caller that
/// wants the totals (`--rtl-coverage`) makes one for the builds it counts and hands it to
/// whatever builds and drops those models (the stage adapters of a mixed run, the fuzzers'
/// per-case runs); the owner of a model adds its counters before dropping it
/// ([`CoverageSink::gather`]). A clone shares the totals, so that the models of a campaign's
/// worker threads add to the same ones; two sinks never mix: nothing is process-wide.
#[derive(Clone, Debug)]
pub struct CoverageSink {
    totals: Arc<Mutex<Vec<RtlCoverage>>>,
}

impl CoverageSink {
    /// A sink for the stage builds `builds` (the front end's runs are totalled with
    /// [`RtlCoverage::add`] by their owner, so [`CoverageBuild::Fe`] is left out);
    /// [`RtlError::MissingVariant`] if a build was not compiled.
    pub fn new(builds: &[CoverageBuild]) -> Result<Self, RtlError> {
        let totals = builds
            .iter()
            .filter(|b| **b != CoverageBuild::Fe)
            .map(|&b| RtlCoverage::of(b))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            totals: Arc::new(Mutex::new(totals)),
        })
    }

    /// The totals, even after a panic elsewhere (they are plain counts: a panic between two
    /// updates leaves them consistent enough to write).
    fn lock(&self) -> MutexGuard<'_, Vec<RtlCoverage>> {
        self.totals.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds one run's counters of build `build` (a model's `coverage()`), if this sink gathers
    /// it.
    pub fn add(&self, build: CoverageBuild, counts: &[u32]) {
        if let Some(t) = self.lock().iter_mut().find(|t| t.build == build) {
            t.add_counts(counts);
        }
    }

    /// Adds the counters of a stage model as they stand (nothing for a build without coverage
    /// or one this sink does not gather); its owner calls it before dropping the model.
    pub fn gather(&self, model: &mut impl StageCoverage) {
        if let Some(c) = model.counts() {
            self.add(model.build(), &c);
        }
    }

    /// The totals so far, in the order of the builds given to [`CoverageSink::new`].
    pub fn totals(&self) -> Vec<RtlCoverage> {
        self.lock().clone()
    }
}

/// A stage model that hands its counters to a [`CoverageSink`] when it is dropped (none: a
/// plain model): what an owner that builds models for a run holds instead of the model itself.
/// It dereferences to the model.
#[derive(Debug)]
pub struct Gathered<M: StageCoverage> {
    model: M,
    sink: Option<CoverageSink>,
}

impl<M: StageCoverage> Gathered<M> {
    /// `model`, gathered into `sink` when dropped.
    pub fn new(model: M, sink: Option<&CoverageSink>) -> Self {
        Self {
            model,
            sink: sink.cloned(),
        }
    }
}

impl<M: StageCoverage> std::ops::Deref for Gathered<M> {
    type Target = M;
    fn deref(&self) -> &M {
        &self.model
    }
}

impl<M: StageCoverage> std::ops::DerefMut for Gathered<M> {
    fn deref_mut(&mut self) -> &mut M {
        &mut self.model
    }
}

impl<M: StageCoverage> Drop for Gathered<M> {
    fn drop(&mut self) {
        if let Some(s) = &self.sink {
            s.gather(&mut self.model);
        }
    }
}

/// A stage model a [`CoverageSink`] gathers: its coverage build and its counters.
pub trait StageCoverage {
    /// The coverage build its counters belong to (whether or not it is that build).
    fn build(&self) -> CoverageBuild;
    /// Its counters, `None` unless it is a coverage build.
    fn counts(&mut self) -> Option<Vec<u32>>;
}

/// [`StageCoverage`] of each stage wrapper.
macro_rules! stage_coverage {
    ($($ty:ty => $build:expr),+ $(,)?) => {
        $(
        impl StageCoverage for $ty {
            fn build(&self) -> CoverageBuild {
                $build
            }
            fn counts(&mut self) -> Option<Vec<u32>> {
                read(CoverageModel::counters(self))
            }
        }
        )+
    };
}

stage_coverage!(
    RtlTev => CoverageBuild::Tev,
    RtlFop => CoverageBuild::Fop,
    RtlRast => CoverageBuild::Rast,
    RtlSh => CoverageBuild::Sh,
    RtlTex => CoverageBuild::Tex,
);

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
        // The writer model holds the totals: zeroed, it carries nothing further.
        c.cov_zero();
        r
    }
}
