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

/// Fails with a pointer to scripts/setup when the tool of `sim` (icarus, verilator) is not
/// installed.
pub fn require_sim(sim: &str) {
    let tool = if sim == "icarus" {
        "iverilog"
    } else {
        "verilator"
    };
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "{tool} is not installed: run scripts/setup (as root)"
    );
}

/// Replays each of `dirs` under `sim` — the second under random latency with output
/// backpressure, the third under latency 3 — and asserts every one passes.
pub fn replay_passes<P: AsRef<Path>>(dirs: &[P], sim: &str, limit: Duration) {
    for (k, dir) in dirs.iter().enumerate() {
        let dir = dir.as_ref();
        let extra: &[&str] = match k {
            1 => &["--lat-max", "7", "--lat-seed", "5", "--ready-seed", "3"],
            2 => &["--latency", "3"],
            _ => &[],
        };
        let (ok, text) = replay(dir, sim, extra, limit);
        assert!(
            ok,
            "{sim} replay of {} {extra:?} failed:\n{text}",
            dir.display()
        );
        eprintln!("{sim} {} {extra:?}: {}", dir.display(), text.trim());
    }
}

/// Asserts the replay of `dir` under `sim` on the RTL built with `define` (an injected bug
/// the bundle shows) fails with a `FAIL` line, and logs that line.
pub fn replay_rejects(dir: &Path, sim: &str, define: &str, limit: Duration) {
    let (ok, text) = replay(dir, sim, &["--define", define], limit);
    assert!(
        !ok && text.contains("FAIL"),
        "{sim}: the {define} replay passed:\n{text}"
    );
    eprintln!(
        "{sim} {define}: {}",
        text.lines().find(|l| l.starts_with("FAIL")).unwrap_or("")
    );
}
