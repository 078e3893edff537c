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

/// The RTL sources in compile order: the generated packages (`*_pkg.sv`) first, then every
/// other module, each group sorted by name.
fn rtl_sources() -> Vec<PathBuf> {
    let dir = root().join("rtl-bridge/rtl");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("rtl-bridge/rtl")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sv"))
        .collect();
    let is_pkg = |p: &PathBuf| p.to_string_lossy().ends_with("_pkg.sv");
    v.sort_by_key(|p| (!is_pkg(p), p.clone()));
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

/// Asserts `verilator --lint-only -Wall` is clean on `top` with `defines` (warnings count).
fn assert_lint_clean(top: &str, defines: &[&str]) {
    let mut cmd = Command::new("verilator");
    cmd.args(["--lint-only", "-Wall", "--top-module", top])
        .args(defines)
        .args(rtl_sources());
    let out = run_bounded(cmd, Duration::from_secs(300)).unwrap_or_else(|e| panic!("{e}"));
    let t = text(&out);
    assert!(
        out.status.success() && !t.contains("%Warning") && !t.contains("%Error"),
        "verilator --lint-only -Wall {top} {defines:?} is not clean:\n{t}"
    );
}

/// Asserts `iverilog -g2012` compiles `top` (plus `extra` sources) into `dir`.
fn assert_iverilog_compiles(dir: &Path, top: &str, extra: Option<PathBuf>) {
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

/// Asserts Yosys reads every RTL source (`read_verilog -sv`) and then runs `passes` cleanly.
fn assert_yosys_accepts(passes: &str) {
    let mut script = String::from("read_verilog -sv");
    for s in rtl_sources() {
        script.push(' ');
        script.push_str(&s.to_string_lossy());
    }
    script.push_str("; ");
    script.push_str(passes);
    let mut cmd = Command::new("yosys");
    cmd.args(["-q", "-p", &script]);
    let out = run_bounded(cmd, Duration::from_secs(900)).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success(), "yosys failed:\n{}", text(&out));
}

#[test]
fn rtl_verilator_lint_wall_is_clean() {
    require("verilator");
    assert_lint_clean("pica_top", &[]);
    assert_lint_clean("pica_top", &["-GEnableSh=0"]);
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
        (
            "pica_sh_unit_replay_tb",
            Some(root().join("rtl-bridge/tb/pica_sh_unit_replay_tb.sv")),
        ),
    ] {
        assert_iverilog_compiles(&dir, top, extra);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rtl_yosys_synthesizes_pica_top() {
    require("yosys");
    // The front end (EnableSh = 0): technology-independent synthesis through memory inference,
    // flattened, about a minute or two. With the SH stage (the default), elaboration: its four
    // shader units are synthesized by
    // `scripts/synth --generic` / `scripts/synth` (without `share`, which does not finish on
    // the f24 adder's muxes) and by `rtl_sh_stage_top_passes_verilator_iverilog_and_yosys`.
    let mut script = String::from("read_verilog -sv");
    for s in rtl_sources() {
        script.push(' ');
        script.push_str(&s.to_string_lossy());
    }
    // With the SH stage: the hierarchy elaborates (pica_sh_top's processes are lowered and
    // checked by rtl_sh_stage_top_passes_verilator_iverilog_and_yosys; doing it again inside
    // pica_top took a minute).
    script.push_str("; hierarchy -check -top pica_top; design -reset");
    script.push_str("; read_verilog -sv");
    for s in rtl_sources() {
        script.push(' ');
        script.push_str(&s.to_string_lossy());
    }
    script.push_str(
        "; chparam -set EnableSh 0 pica_top; synth -flatten -top pica_top -run begin:fine; \
         check -assert; stat",
    );
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

/// Replays every corpus bundle under Icarus (outcome, cycle and every beat checked), and the
/// first with `--full-state` too (the whole debug map, units, LUTs and packers, against
/// final_state.json: 26,876 debug addresses, one clock of the whole `pica_top` each, about 5 s
/// under Icarus). Under Verilator every bundle's beats and full state are replayed by the test
/// command's RTL coverage step (scripts/rtl-cov: `pica cov rtl run` passes --full-state for a
/// full-top bundle with a final_state.json), which fails on any replay that fails; a separate
/// Verilator build and replay of the corpus here repeated it.
#[test]
fn rtl_replay_corpus_icarus() {
    require("iverilog");
    let bundles = corpus_bundles();
    assert!(
        bundles.len() >= 5,
        "corpus: {bundles:?} (generate it with `pica vectors gen vectors/corpus`)"
    );
    let mut failures = Vec::new();
    for (k, b) in bundles.iter().enumerate() {
        let mut cmd = Command::new(root().join("scripts/replay"));
        cmd.arg(b).args(["--sim", "icarus"]).current_dir(root());
        if k == 0 {
            cmd.arg("--full-state");
        }
        match run_bounded(cmd, Duration::from_secs(1200)) {
            Ok(o) if o.status.success() => {}
            Ok(o) => failures.push(format!("{}: {}", b.display(), text(&o).trim())),
            Err(e) => failures.push(format!("{}: {e}", b.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} bundles failed under Icarus:\n{}",
        failures.len(),
        bundles.len(),
        failures.join("\n")
    );
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

/// The generated `pica_chan_pkg.sv` packs a beat exactly as the bundle `.hex` line does: an
/// Icarus testbench fills each struct member (by the table's SV names) from a Rust beat and
/// prints the struct, which must equal `Payload::hex_line`. Icarus 11 needs `import` for
/// package types (it aborts on a scoped `pkg::type_t` declaration); Yosys 0.23 needs the scoped
/// form (no import) — `rtl_verilator_lint_wall_is_clean` and the Yosys test read the package too.
#[test]
fn rtl_chan_pkg_packs_like_the_bundle_hex() {
    use pica_model::beat::{CommitBeat, FragmentBeat, PrimitiveBeat, RegWriteBeat};
    use pica_model::chan::Payload;
    require("iverilog");
    fn assigns<T: Payload>(var: &str, b: &T) -> (String, String) {
        // Member values straight from the struct (element 0 first), not from the packer.
        let mut vals = Vec::new();
        b.values(&mut vals);
        let mut it = vals.into_iter();
        let mut body = String::new();
        for f in T::SPEC.fields {
            let m = if f.width >= 128 {
                u128::MAX
            } else {
                (1u128 << f.width) - 1
            };
            let elems: Vec<u128> = (0..f.count).map(|_| it.next().unwrap_or(0) & m).collect();
            for (i, v) in elems.iter().enumerate() {
                let idx = if f.count > 1 {
                    format!("[{i}]")
                } else {
                    String::new()
                };
                body.push_str(&format!(
                    "    {var}.{}{idx} = {}'h{v:x};\n",
                    f.sv_name(),
                    f.width
                ));
            }
        }
        (body, b.hex_line())
    }
    let mut frag = FragmentBeat {
        cycle: 0x1234,
        tri: 7,
        x: 3,
        y: 65535,
        depth: 0xABCDEF,
        color: 0x8899_AABB,
        ..Default::default()
    };
    for (i, a) in frag.attr.iter_mut().enumerate() {
        *a = 0x3F_0000 + i as u32;
    }
    let mut prim = PrimitiveBeat {
        cycle: 9,
        seq: 2,
        ..Default::default()
    };
    prim.v[2][23] = 0xFF_FFFF;
    prim.v[0][0] = 0x80_0001;
    let commit = CommitBeat {
        cycle: 5,
        unit: 3,
        seq: 11,
        pc: 0xFFF,
        word: 0x4C00_0000,
        dst: 0x10,
        mask: 0xA,
        result: [0x3F_0000, 1, 2, 0xFF_FFFF],
        cmp: 2,
        a0x: -128,
        a0y: 127,
        al: -1,
        next_pc: 0x100,
        emit: true,
        hang: 4,
        end: true,
    };
    let rw = RegWriteBeat {
        cycle: 3,
        id: 0x1_00FE,
        mask: 0x5,
        param: 0xDEAD_BEEF,
        value: 0x0102_0304,
    };
    let parts = [
        ("fragment_beat_t", "f", assigns("f", &frag)),
        ("primitive_beat_t", "p", assigns("p", &prim)),
        ("commit_beat_t", "c", assigns("c", &commit)),
        ("reg_write_beat_t", "r", assigns("r", &rw)),
    ];
    let mut tb = String::from("module chan_tb;\n  import pica_chan_pkg::*;\n");
    for (ty, var, _) in &parts {
        tb.push_str(&format!("  {ty} {var};\n"));
    }
    tb.push_str("  initial begin\n");
    for (_, var, (body, _)) in &parts {
        tb.push_str(&format!(
            "    {var} = '0;\n{body}    $display(\"%h\", {var});\n"
        ));
    }
    tb.push_str("  end\nendmodule\n");
    let dir = std::env::temp_dir().join(format!("pica-chan-pkg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let tb_path = dir.join("chan_tb.sv");
    std::fs::write(&tb_path, tb).expect("write tb");
    let mut cmd = Command::new("iverilog");
    cmd.args(["-g2012", "-s", "chan_tb", "-o"])
        .arg(dir.join("chan_tb.vvp"))
        .arg(root().join("rtl-bridge/rtl/pica_chan_pkg.sv"))
        .arg(&tb_path);
    let out = run_bounded(cmd, Duration::from_secs(120)).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success(), "iverilog:\n{}", text(&out));
    let mut cmd = Command::new("vvp");
    cmd.arg(dir.join("chan_tb.vvp"));
    let out = run_bounded(cmd, Duration::from_secs(60)).unwrap_or_else(|e| panic!("{e}"));
    let printed: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(printed.len(), parts.len(), "vvp:\n{}", text(&out));
    for ((ty, _, (_, want)), got) in parts.iter().zip(&printed) {
        assert_eq!(got, want, "{ty}: SV packing differs from the .hex line");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rtl_shader_unit_top_passes_verilator_iverilog_and_yosys() {
    require("verilator");
    require("iverilog");
    require("yosys");
    let top = "pica_sh_unit_top";
    assert_lint_clean(top, &[]);
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
    assert_iverilog_compiles(&dir, top, None);
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

#[test]
fn rtl_sh_stage_top_passes_verilator_iverilog_and_yosys() {
    require("verilator");
    require("iverilog");
    require("yosys");
    // pica_sh_top (the stage top) and pica_sh (the stage, as pica_top would instantiate it).
    for top in ["pica_sh_top", "pica_sh"] {
        assert_lint_clean(top, &[]);
    }
    for defines in [&["-DINJECT_SH_ADD_ROUND"], &["-DINJECT_SH_LOOP_EXTRA"]] {
        assert_lint_clean("pica_sh_top", defines);
    }
    let dir = std::env::temp_dir().join(format!("pica-sh-stage-iverilog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    assert_iverilog_compiles(&dir, "pica_sh_top", None);
    let _ = std::fs::remove_dir_all(&dir);
    // Elaboration and process lowering, like the unit's test (`scripts/synth --sh` maps it).
    assert_yosys_accepts("hierarchy -check -top pica_sh_top; proc; check -assert");
}

#[test]
fn rtl_tev_top_passes_verilator_iverilog_and_yosys() {
    require("verilator");
    require("iverilog");
    require("yosys");
    for defines in [
        &[][..],
        &["-DINJECT_TEV_SCALE_SAT"][..],
        &["-DINJECT_TEV_BUFFER"][..],
    ] {
        assert_lint_clean("pica_tev_top", defines);
    }
    let dir = std::env::temp_dir().join(format!("pica-tev-iverilog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    assert_iverilog_compiles(
        &dir,
        "pica_tev_replay_tb",
        Some(root().join("rtl-bridge/tb/pica_tev_replay_tb.sv")),
    );
    let _ = std::fs::remove_dir_all(&dir);
    // Technology-independent synthesis of the stage top (seconds: `scripts/synth --top
    // pica_tev_top` maps it).
    assert_yosys_accepts("synth -flatten -top pica_tev_top -run begin:fine; check -assert");
}

#[test]
fn rtl_fop_top_passes_verilator_iverilog_and_yosys() {
    require("verilator");
    require("iverilog");
    require("yosys");
    for defines in [
        &[][..],
        &["-DINJECT_FOP_BLEND_FACTOR"][..],
        &["-DINJECT_FOP_STENCIL_ZFAIL"][..],
        &["-DINJECT_FOP_TILE32"][..],
    ] {
        assert_lint_clean("pica_fop_top", defines);
    }
    let dir = std::env::temp_dir().join(format!("pica-fop-iverilog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    assert_iverilog_compiles(
        &dir,
        "pica_fop_replay_tb",
        Some(root().join("rtl-bridge/tb/pica_fop_replay_tb.sv")),
    );
    let _ = std::fs::remove_dir_all(&dir);
    // Technology-independent synthesis of the stage top.
    assert_yosys_accepts("synth -flatten -top pica_fop_top -run begin:fine; check -assert");
}

/// The AXI4 master bridge (python/cocotb/run_axi.py runs it against cocotbext-axi): lint-clean
/// with each injected bug and a wider configuration, Icarus, Yosys synthesis.
#[test]
fn rtl_axi_master_passes_verilator_iverilog_and_yosys() {
    require("verilator");
    require("iverilog");
    require("yosys");
    for defines in [
        &[][..],
        &["-DINJECT_AXI_NO_HAZARD"][..],
        &["-DINJECT_AXI_DROP_B"][..],
        &["-GIdW=4", "-GOutstanding=8"][..],
    ] {
        assert_lint_clean("pica_axi_master", defines);
    }
    let dir = std::env::temp_dir().join(format!("pica-axi-iverilog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    assert_iverilog_compiles(&dir, "pica_axi_master", None);
    let _ = std::fs::remove_dir_all(&dir);
    assert_yosys_accepts("synth -flatten -top pica_axi_master; check -assert");
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
    "pica_alu_mc_top",
];

#[test]
fn rtl_alu_modules_verilator_lint_wall_is_clean() {
    require("verilator");
    for top in ALU_TOPS {
        assert_lint_clean(top, &[]);
    }
}

#[test]
fn rtl_alu_modules_iverilog_compiles() {
    require("iverilog");
    let dir = std::env::temp_dir().join(format!("pica-alu-iverilog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for top in ALU_TOPS {
        assert_iverilog_compiles(&dir, top, None);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rtl_alu_modules_yosys_synthesize() {
    require("yosys");
    // Each module as its own top, technology-independent up to `fine`. `-noshare`: the
    // SAT-based resource sharing pass does not finish on the adder's select logic (and has
    // nothing to share in purely combinational datapaths like these).
    // The two ALU tops only select between modules checked on their own (pica_sh_sfu in the
    // shader unit's tops).
    // One Yosys run: the sources are read once and each top synthesized from a saved copy
    // (one process per top read every source again, most of this test's minute).
    let mut script = String::from("read_verilog -sv");
    for s in rtl_sources() {
        script.push(' ');
        script.push_str(&s.to_string_lossy());
    }
    script.push_str("; design -save sources");
    let tops: Vec<&str> = ALU_TOPS
        .iter()
        .copied()
        .filter(|t| !t.starts_with("pica_alu_"))
        .collect();
    for top in &tops {
        script.push_str(&format!(
            "; design -load sources; log -stdout TOP {top}; \
             synth -flatten -noshare -top {top} -run begin:fine; check -assert"
        ));
    }
    let mut cmd = Command::new("yosys");
    cmd.args(["-q", "-p", &script]);
    let out = run_bounded(cmd, Duration::from_secs(900)).unwrap_or_else(|e| panic!("{e}"));
    // `log -stdout` prints under -q: the last TOP line names the top a failure happened in.
    let o = text(&out);
    let tops_done = o.lines().filter(|l| l.starts_with("TOP ")).count();
    assert!(
        out.status.success(),
        "yosys failed (on the last TOP named):\n{o}"
    );
    assert_eq!(tops_done, tops.len(), "{o}");
}

/// CLIP's clocks per triangle (issue 37: at most 24 per unclipped triangle): the replay-free
/// rate testbench `tb/pica_clip_rate_tb.sv` streams triangles no plane clips through
/// `pica_clip_pipe` and through `pica_clip` alone, output always ready, and prints each one's
/// latency and period; the pipelined CLIP must keep a period of at most 24 clocks with
/// culling off and on, and stay well ahead of the general path. A clock count, not a time.
#[test]
fn clip_rate_meets_issue_37() {
    let t = rate_tb_output("pica_clip_rate_tb");
    for cull in [0, 2] {
        let pipe = period_hundredths(&t, &format!("pica_clip_pipe cull={cull} latency "));
        let general = period_hundredths(&t, &format!("pica_clip cull={cull} latency "));
        assert!(
            pipe <= 2400,
            "CLIP takes over 24 clocks per unclipped triangle:\n{t}"
        );
        assert!(pipe * 5 < general, "{t}");
    }
}

/// Issue 37 item 3: FOP takes a fragment per clock when its pixels hit the caches
/// (`rtl-bridge/tb/pica_fop_rate_tb.sv`: 256 fragments over an 8x8 framebuffer, four passes,
/// blending and the depth test on, memory latency 1 and 8), and its beats and memory equal
/// those of `pica_fop` alone (the TB prints FATAL otherwise).
#[test]
fn fop_rate_meets_issue_37() {
    let t = rate_tb_output("pica_fop_rate_tb");
    for lat in [1, 8] {
        let pipe = period_hundredths(&t, &format!("pica_fop_pipe lat={lat} first "));
        let general = period_hundredths(&t, &format!("pica_fop lat={lat} first "));
        assert!(
            pipe <= 100,
            "FOP takes over one clock per hitting fragment:\n{t}"
        );
        assert!(pipe * 10 < general, "{t}");
    }
}

/// Compiles and runs the rate testbench `rtl-bridge/tb/<tb>.sv` under Icarus and returns what it
/// printed (printed again for the test log); fails on a FATAL line.
fn rate_tb_output(tb: &str) -> String {
    require("iverilog");
    require("vvp");
    let dir = std::env::temp_dir().join(format!("pica-{tb}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    assert_iverilog_compiles(
        &dir,
        tb,
        Some(root().join(format!("rtl-bridge/tb/{tb}.sv"))),
    );
    let mut cmd = Command::new("vvp");
    cmd.arg("-n").arg(dir.join(format!("{tb}.vvp")));
    let out = run_bounded(cmd, Duration::from_secs(300)).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let t = text(&out);
    assert!(out.status.success() && !t.contains("FATAL"), "{t}");
    println!("{t}");
    t
}

/// The figure after " period " on the line of `t` that starts with `key`, in hundredths of a
/// clock (the rate testbenches print it as `<whole>.<two digits>`).
fn period_hundredths(t: &str, key: &str) -> u64 {
    let line = t
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no figure for {key}:\n{t}"));
    let p = line.split(" period ").nth(1).expect("period");
    let p = p.split_whitespace().next().expect("period value");
    let (whole, frac) = p.split_once('.').unwrap_or((p, "0"));
    let n = |s: &str| s.parse::<u64>().unwrap_or_else(|e| panic!("{line}: {e}"));
    n(whole) * 100 + n(frac)
}

#[test]
fn rtl_rast_top_passes_verilator_iverilog_and_yosys() {
    require("verilator");
    require("iverilog");
    require("yosys");
    for defines in [
        &[][..],
        &["-DINJECT_RAST_FILL_RULE"][..],
        &["-DINJECT_RAST_PERSP"][..],
        &["-DINJECT_CLIP_PLANE_ORDER"][..],
        &["-DINJECT_CLIP_FAST_OVERWRITE"][..],
        &["-DINJECT_CLIP_FAST_ORDER"][..],
        &["-DINJECT_RAST_SLOT_EARLY"][..],
        &["-DINJECT_RAST_CREDIT"][..],
    ] {
        assert_lint_clean("pica_rast_top", defines);
    }
    let dir = std::env::temp_dir().join(format!("pica-rast-iverilog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    assert_iverilog_compiles(
        &dir,
        "pica_rast_replay_tb",
        Some(root().join("rtl-bridge/tb/pica_rast_replay_tb.sv")),
    );
    let _ = std::fs::remove_dir_all(&dir);
    // Technology-independent synthesis of the stage top.
    assert_yosys_accepts("synth -flatten -top pica_rast_top -run begin:fine; check -assert");
}
