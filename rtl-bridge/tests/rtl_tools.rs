//! The RTL under the three open-source tools it must satisfy (design.md "The RTL and the bridge"):
//! Verilator lint (`-Wall`, clean), Icarus Verilog (`-g2012`, RTL plus the replay testbench) and
//! Yosys (technology-independent synthesis up to memory inference), and the replay of every
//! bundle in `vectors/corpus/` under both simulators with `scripts/replay`.
//!
//! A missing tool is a failure naming `scripts/setup`, which installs them (CI runs it).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The workspace root (this crate lives in `rtl-bridge/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// The RTL sources in compile order: the generated package first, then every other module.
fn rtl_sources() -> Vec<PathBuf> {
    let dir = root().join("rtl-bridge/rtl");
    let pkg = dir.join("pica_regs_pkg.sv");
    let mut rest: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("rtl-bridge/rtl")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sv") && *p != pkg)
        .collect();
    rest.sort();
    let mut v = vec![pkg];
    v.extend(rest);
    v
}

/// Fails with a pointer to scripts/setup when `tool` is not on PATH.
fn require(tool: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "{tool} is not installed: run scripts/setup (as root) to install verilator, iverilog and yosys"
    );
}

/// Runs `cmd`, killing it after `limit`; returns its output or a description of the failure.
fn run_bounded(mut cmd: Command, limit: Duration) -> Result<Output, String> {
    let desc = format!("{cmd:?}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {desc}: {e}"))?;
    // Drain both pipes on threads so a chatty tool cannot block on a full pipe.
    let mut so = child.stdout.take().expect("piped stdout");
    let mut se = child.stderr.take().expect("piped stderr");
    let t_out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = so.read_to_end(&mut b);
        b
    });
    let t_err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = se.read_to_end(&mut b);
        b
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{desc} did not finish within {limit:?}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Ok(Output {
        status,
        stdout: t_out.join().unwrap_or_default(),
        stderr: t_err.join().unwrap_or_default(),
    })
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn rtl_verilator_lint_wall_is_clean() {
    require("verilator");
    let mut cmd = Command::new("verilator");
    cmd.args(["--lint-only", "-Wall", "--top-module", "pica_top"])
        .args(rtl_sources());
    let out = run_bounded(cmd, Duration::from_secs(300)).unwrap_or_else(|e| panic!("{e}"));
    let t = text(&out);
    assert!(
        out.status.success() && !t.contains("%Warning") && !t.contains("%Error"),
        "verilator --lint-only -Wall pica_top is not clean:\n{t}"
    );
}

#[test]
fn rtl_iverilog_compiles_top_and_replay_tb() {
    require("iverilog");
    let dir = std::env::temp_dir().join(format!("pica-rtl-iverilog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (top, extra) in [
        ("pica_top", None),
        (
            "replay_tb",
            Some(root().join("vectors/replay/replay_tb.sv")),
        ),
    ] {
        let mut cmd = Command::new("iverilog");
        cmd.args(["-g2012", "-s", top, "-o"])
            .arg(dir.join(format!("{top}.vvp")))
            .args(rtl_sources())
            .args(extra);
        let out = run_bounded(cmd, Duration::from_secs(300)).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            out.status.success(),
            "iverilog -g2012 rejected {top}:\n{}",
            text(&out)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rtl_yosys_synthesizes_pica_top() {
    require("yosys");
    // Technology-independent synthesis through memory inference (`scripts/synth --generic`,
    // about a minute or two); the full FPGA mapping with area figures is `scripts/synth`.
    let mut script = String::from("read_verilog -sv");
    for s in rtl_sources() {
        script.push(' ');
        script.push_str(&s.to_string_lossy());
    }
    script.push_str("; synth -flatten -top pica_top -run begin:fine; check -assert; stat");
    let mut cmd = Command::new("yosys");
    cmd.args(["-q", "-p", &script]);
    let out = run_bounded(cmd, Duration::from_secs(900)).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success(), "yosys failed:\n{}", text(&out));
}

/// Every bundle directory under vectors/corpus/ (those with a manifest.json).
fn corpus_bundles() -> Vec<PathBuf> {
    let dir = root().join("vectors/corpus");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("manifest.json").is_file())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn replay_corpus(sim: &str) {
    require(if sim == "icarus" {
        "iverilog"
    } else {
        "verilator"
    });
    let bundles = corpus_bundles();
    assert!(
        !bundles.is_empty(),
        "no bundle under vectors/corpus/ (generate them with `pica vectors gen vectors/corpus`)"
    );
    let mut failures = Vec::new();
    for b in &bundles {
        let mut cmd = Command::new(root().join("scripts/replay"));
        // --full-state: the whole debug map (units, LUTs, packers) against final_state.json.
        cmd.arg(b)
            .args(["--sim", sim, "--full-state"])
            .current_dir(root());
        match run_bounded(cmd, Duration::from_secs(1200)) {
            Ok(o) if o.status.success() => {}
            Ok(o) => failures.push(format!("{}: {}", b.display(), text(&o).trim())),
            Err(e) => failures.push(format!("{}: {e}", b.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} bundles failed under {sim}:\n{}",
        failures.len(),
        bundles.len(),
        failures.join("\n")
    );
}

#[test]
fn rtl_replay_corpus_icarus() {
    replay_corpus("icarus");
}

#[test]
fn rtl_replay_corpus_verilator() {
    replay_corpus("verilator");
}

#[test]
fn rtl_replay_rejects_an_injected_bug() {
    // The replay testbench is not a rubber stamp: the mask-bug build fails on a corpus bundle
    // with a masked write whose byte 2 must not change.
    require("iverilog");
    let mut cmd = Command::new(root().join("scripts/replay"));
    cmd.arg(root().join("vectors/corpus/examples__03_masked_writes"))
        .args(["--sim", "icarus", "--define", "INJECT_MASK_BUG"])
        .current_dir(root());
    let out = run_bounded(cmd, Duration::from_secs(600)).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !out.status.success(),
        "the injected bug went unnoticed:\n{}",
        text(&out)
    );
    assert!(text(&out).contains("FAIL"), "{}", text(&out));
}

#[test]
fn rtl_shader_unit_top_passes_verilator_iverilog_and_yosys() {
    require("verilator");
    require("iverilog");
    require("yosys");
    let top = "pica_sh_unit_top";
    let mut cmd = Command::new("verilator");
    cmd.args(["--lint-only", "-Wall", "--top-module", top])
        .args(rtl_sources());
    let out = run_bounded(cmd, Duration::from_secs(300)).unwrap_or_else(|e| panic!("{e}"));
    let t = text(&out);
    assert!(
        out.status.success() && !t.contains("%Warning") && !t.contains("%Error"),
        "verilator --lint-only -Wall {top} is not clean:\n{t}"
    );
    for defines in [&["-DINJECT_SH_ADD_ROUND"], &["-DINJECT_SH_LOOP_EXTRA"]] {
        let mut cmd = Command::new("verilator");
        cmd.args(["--lint-only", "-Wall", "--top-module", top])
            .args(defines)
            .args(rtl_sources());
        let out = run_bounded(cmd, Duration::from_secs(300)).unwrap_or_else(|e| panic!("{e}"));
        assert!(out.status.success(), "{defines:?}:\n{}", text(&out));
    }
    let dir = std::env::temp_dir().join(format!("pica-sh-iverilog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut cmd = Command::new("iverilog");
    cmd.args(["-g2012", "-s", top, "-o"])
        .arg(dir.join("sh.vvp"))
        .args(rtl_sources());
    let out = run_bounded(cmd, Duration::from_secs(300)).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "iverilog -g2012 rejected {top}:\n{}",
        text(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
    // Elaboration and process lowering only: the full `synth -run begin:fine` of the unit takes
    // minutes (`scripts/synth` style runs are for area figures).
    let mut script = String::from("read_verilog -sv");
    for s in rtl_sources() {
        script.push(' ');
        script.push_str(&s.to_string_lossy());
    }
    script.push_str(&format!(
        "; hierarchy -check -top {top}; proc; check -assert"
    ));
    let mut cmd = Command::new("yosys");
    cmd.args(["-q", "-p", &script]);
    let out = run_bounded(cmd, Duration::from_secs(900)).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success(), "yosys failed:\n{}", text(&out));
}

/// The f24 ALU modules (each usable as a top by the shader unit) and their Verilated top.
const ALU_TOPS: &[&str] = &[
    "pica_f24_add",
    "pica_f24_mul",
    "pica_f24_dot",
    "pica_f24_rcp",
    "pica_f24_rsq",
    "pica_f24_ex2",
    "pica_f24_lg2",
    "pica_f24_flr",
    "pica_f24_cmp",
    "pica_f24_minmax",
    "pica_f24_to_int",
    "pica_alu_top",
];

#[test]
fn rtl_alu_modules_verilator_lint_wall_is_clean() {
    require("verilator");
    for top in ALU_TOPS {
        let mut cmd = Command::new("verilator");
        cmd.args(["--lint-only", "-Wall", "--top-module", top])
            .args(rtl_sources());
        let out = run_bounded(cmd, Duration::from_secs(300)).unwrap_or_else(|e| panic!("{e}"));
        let t = text(&out);
        assert!(
            out.status.success() && !t.contains("%Warning") && !t.contains("%Error"),
            "verilator --lint-only -Wall {top} is not clean:\n{t}"
        );
    }
}

#[test]
fn rtl_alu_modules_iverilog_compiles() {
    require("iverilog");
    let dir = std::env::temp_dir().join(format!("pica-alu-iverilog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for top in ALU_TOPS {
        let mut cmd = Command::new("iverilog");
        cmd.args(["-g2012", "-s", top, "-o"])
            .arg(dir.join(format!("{top}.vvp")))
            .args(rtl_sources());
        let out = run_bounded(cmd, Duration::from_secs(300)).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            out.status.success(),
            "iverilog -g2012 rejected {top}:\n{}",
            text(&out)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rtl_alu_modules_yosys_synthesize() {
    require("yosys");
    // Each module as its own top, technology-independent up to `fine`. `-noshare`: the
    // SAT-based resource sharing pass does not finish on the adder's select logic (and has
    // nothing to share in purely combinational datapaths like these).
    for top in ALU_TOPS.iter().filter(|t| **t != "pica_alu_top") {
        let mut script = String::from("read_verilog -sv");
        for s in rtl_sources() {
            script.push(' ');
            script.push_str(&s.to_string_lossy());
        }
        script.push_str(&format!(
            "; synth -flatten -noshare -top {top} -run begin:fine; check -assert"
        ));
        let mut cmd = Command::new("yosys");
        cmd.args(["-q", "-p", &script]);
        let out = run_bounded(cmd, Duration::from_secs(600)).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            out.status.success(),
            "yosys failed on {top}:\n{}",
            text(&out)
        );
    }
}
