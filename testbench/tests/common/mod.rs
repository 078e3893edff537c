//! Helpers shared by the CLI tests: run the `pica` binary from the workspace root, scratch
//! files, output text.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `pica ARGS` in the workspace root.
pub fn pica(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pica"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("pica runs")
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// A scratch path `name` in this test process's own temporary directory, under cargo's
/// `target/tmp` (not the system's temporary directory, which the suite leaves clean). The
/// first call of a process removes the directories of earlier test processes that have ended.
pub fn tmp(name: &str) -> PathBuf {
    static SWEEP: std::sync::Once = std::sync::Once::new();
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"));
    SWEEP.call_once(|| {
        let Ok(entries) = std::fs::read_dir(base) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let Some(pid) = name.strip_prefix("pica-cli-") else {
                continue;
            };
            // A process that has ended (Linux /proc) leaves its directory to the next run.
            if pid != std::process::id().to_string()
                && Path::new("/proc/self").exists()
                && !Path::new("/proc").join(pid).exists()
            {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    });
    let d = base.join(format!("pica-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d.join(name)
}

/// Standard output then standard error.
pub fn text(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

/// Standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `scripts/replay BUNDLE --sim SIM [--define D]...` under a timeout (a simulator that
/// never settles fails the test instead of hanging it; `-k` kills one that ignores the TERM):
/// (passed, its output).
pub fn replay(bundle: &Path, sim: &str, defines: &[&str]) -> (bool, String) {
    let mut cmd = Command::new("timeout");
    cmd.args(["-k", "10", "300"])
        .arg(root().join("scripts/replay"))
        .arg(bundle)
        .args(["--sim", sim])
        .current_dir(root());
    for d in defines {
        cmd.args(["--define", d]);
    }
    let o = cmd.output().expect("timeout runs");
    (o.status.success(), text(&o))
}
