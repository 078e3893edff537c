//! `scripts/replay` from the stage tests: the workspace paths and one replay under a time
//! limit.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The workspace target directory (CARGO_TARGET_DIR or `<workspace>/target`).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// Runs `scripts/replay DIR --sim SIM EXTRA...` under coreutils `timeout`, which kills the
/// whole process group (the script and the simulator it starts) after `limit`; (passed,
/// output).
pub fn replay(dir: &Path, sim: &str, extra: &[&str], limit: Duration) -> (bool, String) {
    let out = Command::new("timeout")
        .args(["-k", "10", &limit.as_secs().to_string()])
        .arg(root().join("scripts/replay"))
        .arg(dir)
        .args(["--sim", sim])
        .args(extra)
        .output()
        .expect("coreutils timeout runs");
    let mut text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.code() == Some(124) {
        text.push_str(&format!("\ntimed out after {limit:?}"));
    }
    (out.status.success(), text)
}
