//! Helpers shared by the CLI tests: run the `pica` binary from the workspace root, scratch
//! files, output text.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

pub mod stage;

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

/// The first failure of a stage fuzz campaign that must catch `variant` within `cases` cases
/// (started at `started`): printed with how far it shrank (`unit`: fragments, triangles).
pub fn caught<'r>(
    r: &'r pica_testbench::fuzz::report::FuzzReport,
    variant: &str,
    cases: u64,
    started: std::time::Instant,
    unit: &str,
) -> &'r pica_testbench::fuzz::report::Failure {
    let f = r
        .failures
        .first()
        .unwrap_or_else(|| panic!("{variant} not caught by {cases} cases"));
    eprintln!(
        "{variant}: caught by case {} in {:.2} s, shrunk {} -> {} {unit}: {}",
        f.case_index,
        started.elapsed().as_secs_f64(),
        f.original_commands,
        f.commands,
        f.message
    );
    assert!(f.case_index < cases);
    f
}

/// A fuzz failure's stage `bundle` replays clean on the default RTL under Icarus and
/// Verilator, and fails under both with the bug's `define`, the output naming every one of
/// `marks`.
pub fn replays_clean_fails_with(bundle: &Path, define: &str, marks: &[&str]) {
    for sim in ["icarus", "verilator"] {
        let (ok, out) = replay(bundle, sim, &[]);
        assert!(ok && out.contains("PASS"), "{sim}: {out}");
        let (ok, out) = replay(bundle, sim, &[define]);
        assert!(
            !ok && marks.iter().all(|m| out.contains(m)),
            "{sim} with {define}: {out}"
        );
    }
}

/// Prints how long `variant`'s campaign, replays and checks took (since `started`) and
/// removes the campaign's scratch `dir`.
pub fn campaign_done(variant: &str, started: std::time::Instant, dir: &Path) {
    eprintln!(
        "{variant}: campaign, replays and checks in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The options `$T` of a stage fuzz campaign of seed 0, one shard, stopping at the first
/// failure, with the given `cases`, `rtl`, `regressions` and target-specific fields.
// Like the helpers above, used by some test binaries only.
#[allow(unused_macros)]
macro_rules! campaign_opts {
    ($T:ident { $($field:ident $(: $value:expr)?),* $(,)? }) => {
        $T {
            seed: 0,
            shard: (0, 1),
            max_failures: 1,
            $($field $(: $value)?),*
        }
    };
}
#[allow(unused_imports)]
pub(crate) use campaign_opts;
