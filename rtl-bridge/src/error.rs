//! The bridge's error type, below every module that can fail.

/// Errors of the bridge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RtlError {
    /// The requested variant was not compiled into this build.
    #[error("RTL variant {0} is not part of this build (built: {1}){note}", note = lean_note())]
    MissingVariant(&'static str, String),
    /// The C++ side could not create the model.
    #[error("could not create the Verilated model of variant {0}")]
    Create(&'static str),
    /// A VCD file could not be opened.
    #[error("cannot open VCD file {0}")]
    Trace(String),
    /// The mutant model did not take the mutant selection.
    #[error("RTL variant {0} is not a mutant model (cannot select mutant {1})")]
    Mutant(&'static str, u16),
    /// The build has no code coverage (not verilated with `--coverage`).
    #[error(
        "RTL variant {0} has no code coverage: only the coverage builds count points \
         (cov_fe, cov_tev, cov_fop, cov_rast, cov_sh: the stage tops as written)"
    )]
    NoCoverage(&'static str),
    /// A coverage file could not be written.
    #[error("cannot write the RTL coverage file {0}: {1}")]
    CoverageWrite(String, String),
}

/// Whether this bridge was built lean (`PICA_RTL_LEAN=1`, as `scripts/run` builds it): without
/// the coverage rows and mutant models (`build.rs`, "Lean builds").
pub fn lean_build() -> bool {
    env!("PICA_RTL_LEAN_BUILD") == "1"
}

/// What a missing-variant error adds for a lean build: how to get the full one.
fn lean_note() -> &'static str {
    if lean_build() {
        "; this is a lean build (PICA_RTL_LEAN=1, as scripts/run builds it) without the coverage \
         and mutant models and the stage tops' injected-bug builds: rebuild without it, e.g. \
         `cargo build --release -p pica-testbench --bin pica`"
    } else {
        ""
    }
}
