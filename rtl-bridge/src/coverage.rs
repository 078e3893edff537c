//! RTL code coverage from the bridge: the Verilator `--coverage` builds of `build.rs`
//! (`COVERAGE_MODELS`: today `cov_fe`, the front end) count line (with block and branch) and
//! toggle points while they run, like the replay testbenches of `pica cov rtl run`.
//!
//! Each Verilated model has its own `VerilatedContext`, so its counters are its own: two models
//! alive at once never mix their points. A campaign builds one model per case, so the counts of
//! a run are gathered here ([`RtlCoverage`]: one total per point, the points in the model's
//! order) from each model before it is dropped ([`RtlCoverage::add`]) and written once at the
//! end ([`RtlCoverage::write`]): a fresh model of the build is loaded with the totals and
//! writes them through Verilator's own writer, so the file is exactly what a `--coverage`
//! simulation would write (`verilator_coverage --write` merges it with the replay
//! testbenches' files, `pica cov rtl report` reads it).

use crate::{ffi, Rtl, RtlError, Variant};
use std::path::Path;

/// Model name of the front end's coverage build (`pica_top`, `EnableSh = 0`).
pub const FE_MODEL: &str = "cov_fe";

/// Code coverage gathered over runs of one coverage build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RtlCoverage {
    variant: Variant,
    counts: Vec<u64>,
}

impl RtlCoverage {
    /// Empty coverage of `variant`'s points; [`RtlError::NoCoverage`] if it is not a coverage
    /// build, [`RtlError::MissingVariant`] if it was not compiled.
    pub fn new(variant: Variant) -> Result<Self, RtlError> {
        if !variant.has_coverage() {
            return Err(RtlError::NoCoverage(variant.name()));
        }
        let mut rtl = Rtl::with_variant(variant)?;
        let n = rtl.coverage().map_or(0, |c| c.len());
        if n == 0 {
            return Err(RtlError::NoCoverage(variant.name()));
        }
        Ok(Self {
            variant,
            counts: vec![0; n],
        })
    }

    /// The build counted.
    pub fn variant(&self) -> Variant {
        self.variant
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

    /// Adds one run's counters (a model's [`Rtl::coverage`]); returns how many points they hit
    /// that no earlier run had. Counters beyond the build's points (another build's) are
    /// ignored.
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

    /// Adds the counters of `rtl` (a model of this build) as they stand now; returns the points
    /// hit for the first time. Nothing for a model without coverage.
    pub fn add(&mut self, rtl: &mut Rtl) -> usize {
        if rtl.variant() != self.variant {
            return 0;
        }
        rtl.coverage().map_or(0, |c| self.add_counts(&c))
    }

    /// Writes the totals to `path` in Verilator's `coverage.dat` format (counts above 2^32 - 1
    /// saturate: Verilator's counters are 32-bit).
    pub fn write(&self, path: &Path) -> Result<(), RtlError> {
        let mut rtl = Rtl::with_variant(self.variant)?;
        let counts: Vec<u32> = self
            .counts
            .iter()
            .map(|&c| u32::try_from(c).unwrap_or(u32::MAX))
            .collect();
        rtl.handle.cov_zero();
        if !rtl.handle.cov_load(&counts) {
            return Err(RtlError::NoCoverage(self.variant.name()));
        }
        write_model(&mut rtl.handle, self.variant, path)
    }
}

/// Writes the coverage of the model behind `handle` (of `variant`) to `path`, after checking
/// that the file can be created: Verilator's writer ends the process when it cannot.
pub(crate) fn write_model(
    handle: &mut ffi::Handle,
    variant: Variant,
    path: &Path,
) -> Result<(), RtlError> {
    let shown = path.display().to_string();
    if !variant.has_coverage() {
        return Err(RtlError::NoCoverage(variant.name()));
    }
    std::fs::File::create(path)
        .map_err(|e| RtlError::CoverageWrite(shown.clone(), e.to_string()))?;
    let Some(p) = path.to_str() else {
        return Err(RtlError::CoverageWrite(
            shown,
            "the path is not UTF-8".to_string(),
        ));
    };
    if handle.cov_write(p) {
        Ok(())
    } else {
        Err(RtlError::NoCoverage(variant.name()))
    }
}
