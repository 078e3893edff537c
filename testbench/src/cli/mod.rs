//! The `pica` command line: one module per command group. `main.rs` holds the top-level
//! parser and the dispatch; each module here takes its command's arguments, does the work and
//! picks the exit status. What several commands share (exit statuses, error printing, `--shard`
//! and `--variant` parsing, bundle loading) is below.

pub mod alu_check;
pub mod cov;
pub mod docs_gen;
pub mod facts;
pub mod fuzz;
pub mod lockstep;
pub mod num;
pub mod nv2a;
pub mod rtl_coverage;
pub mod run;
pub mod scene;
pub mod shader;
pub mod shader_tools;
pub mod vectors;

use pica_rtl_bridge::Variant;
use pica_vectors::bundle::Bundle;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status: everything agreed.
pub const EXIT_OK: u8 = 0;
/// Exit status: a mismatch, a rejected bundle, or a fuzz failure.
pub const EXIT_MISMATCH: u8 = 1;
/// Exit status: bad input.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status of `pica run` (and `pica scene`, `pica shader run`): the GPU would hang.
pub const EXIT_HANG: u8 = 3;
/// Exit status of `pica run` (and `pica scene`, `pica shader run`): the cycle (instruction)
/// limit was reached.
pub const EXIT_CYCLE_LIMIT: u8 = 4;

/// Prints `error: MSG` and gives the bad-input exit status.
pub fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Parses an RTL variant name for clap.
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_name(s).ok_or_else(|| {
        format!(
            "unknown RTL variant '{s}' (one of: {})",
            Variant::ALL.map(Variant::name).join(", ")
        )
    })
}

/// Parses `I/N` for `--shard`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 0/4")?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("shard index '{i}' is not a number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("shard count '{n}' is not a number"))?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 <= I < N"));
    }
    Ok((i, n))
}

/// Bundle directories: each argument is a bundle (has manifest.json) or a directory of them.
pub fn bundle_dirs(args: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for a in args {
        if a.join("manifest.json").is_file() {
            out.push(a.clone());
            continue;
        }
        let rd = std::fs::read_dir(a).map_err(|e| format!("{}: {e}", a.display()))?;
        let mut subs: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("manifest.json").is_file())
            .collect();
        subs.sort();
        if subs.is_empty() {
            return Err(format!(
                "{}: not a bundle and holds no bundles (no manifest.json)",
                a.display()
            ));
        }
        out.extend(subs);
    }
    Ok(out)
}

/// Writes `v` as pretty JSON and a newline.
pub(crate) fn write_json(path: &Path, v: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(v).map_err(|e| e.to_string())?;
    std::fs::write(path, format!("{text}\n")).map_err(|e| format!("{}: {e}", path.display()))
}

/// Loads bundles for lockstep / check.
pub fn load_bundles(dirs: &[PathBuf]) -> Result<Vec<Bundle>, String> {
    bundle_dirs(dirs)?
        .iter()
        .map(|d| Bundle::load(d).map_err(|e| e.to_string()))
        .collect()
}
