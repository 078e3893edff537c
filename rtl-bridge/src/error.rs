//! The bridge's error type, below every module that can fail.

/// Errors of the bridge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RtlError {
    /// The requested variant was not compiled into this build.
    #[error(
        "RTL variant {0} is not part of this build (built: {built}){note}",
        built = if .1.is_empty() { "none" } else { .1.as_str() },
        note = lean_note()
    )]
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

/// Whether this bridge was built lean (`PICA_RTL_LEAN=1`, as `scripts/run` builds it): with only
/// the Verilated models `scripts/run` uses (`build.rs`, "Lean builds").
pub fn lean_build() -> bool {
    env!("PICA_RTL_LEAN_BUILD") == "1"
}

/// What an error about a model this build lacks adds for a lean build: which models it has and
/// how to get the others.
pub(crate) fn lean_note() -> &'static str {
    if lean_build() {
        concat!(
            "; this is a lean build (PICA_RTL_LEAN=1, as scripts/run builds it) with only the \
             Verilated models scripts/run uses (rows ",
            env!("PICA_RTL_LEAN_MODELS"),
            " of rtl-bridge/build.rs): build every model with `cargo build --release -p \
             pica-testbench --bin pica` (it reuses those already verilated)"
        )
    } else {
        ""
    }
}
