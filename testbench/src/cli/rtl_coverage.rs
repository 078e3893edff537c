//! `--rtl-coverage FILE` of `pica lockstep` and `pica fuzz`: starting an RTL stage's coverage
//! build, and writing the points its cases hit.

use super::fail;
use pica_rtl_bridge::coverage::{CoverageBuild, CoverageSink};
use pica_rtl_bridge::{RtlCoverage, Variant};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `--rtl-coverage FILE`: an empty total of the points of `variant`'s coverage build (the
/// build to run instead of `variant`); the reason when there is none or FILE cannot be
/// written (checked now, not after the campaign).
pub fn rtl_coverage_start(variant: Variant, file: &Path) -> Result<RtlCoverage, String> {
    let build = variant.coverage_build().ok_or_else(|| {
        format!(
            "--rtl-coverage: RTL variant {} has no coverage build (only the RTL as written \
             has one: --variant default)",
            variant.label()
        )
    })?;
    let cov = RtlCoverage::new(build).map_err(|e| format!("--rtl-coverage: {e}"))?;
    check_writable(file)?;
    Ok(cov)
}

/// Whether `file` can be written (checked before a run, not after it); creates it empty if it
/// does not exist, leaves it alone if it does.
pub(crate) fn check_writable(file: &Path) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(file)
        .map(drop)
        .map_err(|e| format!("--rtl-coverage {}: cannot write: {e}", file.display()))
}

/// The build `--rtl-coverage FILE` runs for the RTL stage `build` of a stage fuzz campaign
/// (`pica fuzz --target tev|fop|rast --rtl`, `--rtl-stages S`) whose `--variant` is
/// `variant`: `None` without FILE, the reason (exit 2) without `--rtl` or for a build other
/// than the RTL as written (an injected-bug or mutant build has no coverage build).
pub fn fuzz_coverage_build(
    build: CoverageBuild,
    rtl: bool,
    variant: &str,
    file: Option<&Path>,
) -> Result<Option<CoverageBuild>, String> {
    if file.is_none() {
        return Ok(None);
    }
    if !rtl {
        return Err("--rtl-coverage counts the RTL's code coverage: it needs --rtl".into());
    }
    if !variant.eq_ignore_ascii_case("default") {
        return Err(format!(
            "--rtl-coverage: RTL variant {variant} of stage {} has no coverage build (only the \
             RTL as written has one, {}: --variant default)",
            build.stage(),
            build.name()
        ));
    }
    Ok(Some(build))
}

/// The file of `build`'s coverage under `--rtl-coverage FILE`: FILE itself when the run has
/// one RTL stage (`several` false), else FILE with the stage before its extension
/// (`cov.dat` → `cov.tev.dat`, `cov` → `cov.tev`).
pub fn stage_coverage_file(file: &Path, build: CoverageBuild, several: bool) -> PathBuf {
    if !several {
        return file.to_path_buf();
    }
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match file.extension() {
        Some(e) => format!("{stem}.{}.{}", build.stage(), e.to_string_lossy()),
        None => format!("{stem}.{}", build.stage()),
    };
    file.with_file_name(name)
}

/// `--rtl-coverage FILE` of a run of RTL pipeline stages (`pica lockstep --rtl-stages`, the
/// stage fuzz targets): runs `run` with a [`CoverageSink`] of `builds` it hands to what builds
/// the stage models (the model GPU's adapters, the fuzzers' per-case runs), then writes each
/// build's total to its file ([`stage_coverage_file`]) and prints the points hit. The run's exit
/// code, or 2 when a file cannot be written (checked before the run) or a build is not compiled.
/// Without FILE, just `run` without a sink.
pub fn with_stage_coverage(
    builds: &[CoverageBuild],
    file: Option<&Path>,
    run: impl FnOnce(Option<&CoverageSink>) -> ExitCode,
) -> ExitCode {
    let Some(file) = file else {
        return run(None);
    };
    let files: Vec<PathBuf> = builds
        .iter()
        .map(|&b| stage_coverage_file(file, b, builds.len() > 1))
        .collect();
    if let Some(e) = files.iter().find_map(|f| check_writable(f).err()) {
        return fail(e);
    }
    let sink = match CoverageSink::new(builds) {
        Ok(s) => s,
        Err(e) => return fail(format!("--rtl-coverage: {e}")),
    };
    let code = run(Some(&sink));
    for (cov, f) in sink.totals().iter().zip(&files) {
        if let Some(e) = rtl_coverage_finish(Some(cov), Some(f)) {
            return e;
        }
    }
    code
}

/// Writes the RTL coverage `cov` of a run to `file` (when both are given) and prints the points
/// hit; the exit code when that fails.
pub(crate) fn rtl_coverage_finish(
    cov: Option<&RtlCoverage>,
    file: Option<&Path>,
) -> Option<ExitCode> {
    let (Some(cov), Some(file)) = (cov, file) else {
        return None;
    };
    if let Err(e) = cov.write(file) {
        return Some(fail(e));
    }
    println!(
        "RTL coverage: {}/{} points hit on {} ({})",
        cov.hit(),
        cov.points(),
        cov.variant()
            .map_or_else(|| cov.build().name().to_string(), Variant::label),
        file.display()
    );
    None
}
