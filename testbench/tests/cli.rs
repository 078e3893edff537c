//! The `pica` binary end to end: `pica run` on every bundled example, its outputs, exit
//! statuses and error messages; `pica regs`; `pica gen --check`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;
use common::*;

use serde_json::Value;

fn state_of(list: &str) -> Value {
    let out = tmp(&format!("{}.json", list.replace('/', "_")));
    let o = pica(&["run", list, "--regs-json", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

#[test]
fn cli_every_example_ends_as_its_expect_line_says() {
    let mut n = 0;
    for e in std::fs::read_dir(root().join("vectors/examples")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|e| e.to_str()) != Some("hex") {
            continue;
        }
        let src = std::fs::read_to_string(&p).unwrap();
        let expect = src
            .lines()
            .find_map(|l| l.strip_prefix("# expect: "))
            .expect("expect line");
        let o = pica(&["run", p.to_str().unwrap()]);
        let want = match expect.trim() {
            "finished" => 0,
            "hang" => 3,
            other => panic!("unknown expectation {other}"),
        };
        assert_eq!(o.status.code(), Some(want), "{}: {}", p.display(), text(&o));
        n += 1;
    }
    assert!(n >= 10, "examples found: {n}");
}

#[test]
fn cli_regs_json_has_every_documented_part() {
    let s = state_of("vectors/examples/05_vsh_program.hex");
    let regs = s["regs"].as_array().unwrap();
    assert_eq!(regs.len(), 768);
    assert_eq!(regs[0x2BD], "0x00000003");
    assert_eq!(regs[0x010], "0x12345678");
    let units = s["units"].as_array().unwrap();
    assert_eq!(units.len(), 4);
    for u in units {
        assert_eq!(u["float_uniforms"].as_array().unwrap().len(), 96);
        assert_eq!(u["int_uniforms"].as_array().unwrap().len(), 4);
        assert_eq!(u["code"][0], "0x4c000000");
        assert_eq!(u["code"][1], "0x4c201000");
        assert_eq!(u["opdescs"][0], "0x0000036f");
        assert_eq!(u["bool_uniforms"], 5);
        assert_eq!(
            u["int_uniforms"][0],
            serde_json::json!(["0x03", "0x01", "0x02", "0x00"])
        );
    }
    assert!(s["luts"]["lighting"].is_array());
    assert_eq!(s["fixed_attribs"].as_array().unwrap().len(), 12);
    assert_eq!(s["outcome"]["outcome"], "finished");
}

#[test]
fn cli_examples_leave_the_documented_values() {
    let s = state_of("vectors/examples/03_masked_writes.hex");
    assert_eq!(s["regs"][0xE1], "0x99bbccdd");
    let s = state_of("vectors/examples/04_vsh_uniforms.hex");
    assert_eq!(
        s["units"][0]["float_uniforms"][5],
        serde_json::json!(["0x3f0000", "0x3e0000", "0x408000", "0xbf0000"])
    );
    assert_eq!(
        s["units"][0]["float_uniforms"][6],
        serde_json::json!(["0x3f0000", "0x400000", "0x408000", "0x410000"])
    );
    let s = state_of("vectors/examples/06_gsh_setup.hex");
    assert_eq!(s["units"][3]["code"][0], "0x88000000");
    assert_eq!(s["units"][0]["code"][0], "0x4c000000");
    assert_eq!(s["units"][3]["entry_point"], 0x40);
    assert_eq!(s["units"][3]["float_uniforms"][16][3], "0xbf0000");
    let s = state_of("vectors/examples/09_cmdbuf_jump.hex");
    assert_eq!(s["regs"][0xE1], "0x600d600d");
    let s = state_of("vectors/examples/08_fixed_attribs_immediate.hex");
    assert_eq!(s["immediate_vertices"].as_array().unwrap().len(), 1);
    assert_eq!(
        s["fixed_attribs"][2],
        serde_json::json!(["0x3f0000", "0x3e0000", "0x408000", "0xbf0000"])
    );
}

#[test]
fn cli_beats_are_json_lines_with_names() {
    let out = tmp("beats.jsonl");
    let o = pica(&[
        "run",
        "vectors/examples/02_seed_consecutive.hex",
        "--beats",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let lines: Vec<Value> = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["id"], "0x11c");
    assert_eq!(lines[1]["id"], "0x11d");
    assert_eq!(lines[2]["param"], "0xcccccccc");
    assert_eq!(lines[0]["channel"], "regwrite");
    assert_eq!(lines[0]["cycle"], 2);
    assert!(lines[0]["name"].as_str().unwrap().starts_with("GPUREG_"));
    assert_eq!(lines.last().unwrap()["id"], "0x010");
}

#[test]
fn cli_stdout_json_stays_clean() {
    let o = pica(&[
        "run",
        "vectors/examples/01_finalize.hex",
        "--regs-json",
        "-",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&o.stdout).expect("stdout is only JSON");
    assert_eq!(v["outcome"]["cycles"], 5);
}

#[test]
fn cli_hang_exits_3_and_names_the_cause() {
    let o = pica(&["run", "vectors/examples/10_hang_16byte_rule.hex"]);
    assert_eq!(o.status.code(), Some(3));
    let t = text(&o);
    assert!(
        t.contains("GPUREG_FINALIZE") && t.contains("not a multiple of 16"),
        "{t}"
    );
    let o = pica(&["run", "vectors/examples/11_hang_past_end.hex"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(text(&o).contains("runs past the end"), "{}", text(&o));
}

#[test]
fn cli_bad_input_exits_2_with_file_and_position() {
    let odd = tmp("odd.bin");
    std::fs::write(&odd, [1u8, 2, 3, 4, 5, 6]).unwrap();
    let o = pica(&["run", odd.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("6 bytes is not a whole number of 32-bit words"),
        "{}",
        text(&o)
    );

    let bad = tmp("bad.hex");
    std::fs::write(&bad, "0x12345678 000F0010\n  0xZZ\n").unwrap();
    let o = pica(&["run", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("bad.hex:2:3: '0xZZ' is not a hex word"),
        "{}",
        text(&o)
    );

    let o = pica(&["run", "no/such/file.hex"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("no/such/file.hex: no such file"),
        "{}",
        text(&o)
    );
    // A missing file is named as missing, whatever its name says about its type.
    let o = pica(&["run", "/nonexistent"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("/nonexistent: no such file"),
        "{}",
        text(&o)
    );

    let o = pica(&["run", "README.md"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("unknown file type"), "{}", text(&o));

    let o = pica(&[
        "run",
        "vectors/examples/01_finalize.hex",
        "--mem",
        "0x1000=README.md",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("--mem 0x00001000=README.md") && text(&o).contains("outside VRAM"),
        "{}",
        text(&o)
    );

    let o = pica(&[
        "run",
        "vectors/examples/01_finalize.hex",
        "--mem",
        "0x20000000=README.md",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("overlaps the command list"),
        "{}",
        text(&o)
    );

    let o = pica(&[
        "run",
        "vectors/examples/01_finalize.hex",
        "--list-addr",
        "0x20000004",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("not 8-byte aligned"), "{}", text(&o));

    let o = pica(&[
        "run",
        "vectors/examples/01_finalize.hex",
        "--max-cycles",
        "lots",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn cli_binary_list_and_mem_loading() {
    // The jump example as a binary file, its second buffer supplied through --mem instead.
    let list = tmp("jump.bin");
    let words: Vec<u32> = vec![
        0x0300_0000,
        0x000F_023A,
        2,
        0x000F_0238,
        1,
        0x000F_023C,
        0,
        0,
    ];
    std::fs::write(
        &list,
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let second = tmp("second.hex");
    std::fs::write(&second, "ABCD0123 000F00E1 12345678 000F0010\n").unwrap();
    let json = tmp("jump.json");
    let o = pica(&[
        "run",
        list.to_str().unwrap(),
        "--mem",
        &format!("0x18000000={}", second.display()),
        "--regs-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let s: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(s["regs"][0xE1], "0xabcd0123");
}

#[test]
fn cli_cycle_limit_exits_4() {
    let o = pica(&[
        "run",
        "vectors/examples/05_vsh_program.hex",
        "--max-cycles",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    assert!(text(&o).contains("cycle limit reached after 5 cycles"));
}

#[test]
fn cli_regs_lists_the_table() {
    let o = pica(&["regs"]);
    assert_eq!(o.status.code(), Some(0));
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(
        t.contains("GPUREG_FINALIZE") && t.contains("PICA_REG_INTERRUPT"),
        "{t}"
    );
    assert!(t.contains("GPUREG_FACECULLING_CONFIG"));
    let o = pica(&["regs", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let s = v.to_string();
    assert!(s.contains("GPUREG_VSH_FLOATUNIFORM_DATA7") && s.contains("PICA_REG_CULL_FACE"));
}

#[test]
fn cli_generated_files_are_fresh() {
    for what in ["rtl", "docs"] {
        let o = pica(&["gen", what, "--check"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "pica gen {what} --check: {}",
            text(&o)
        );
    }
}

#[test]
fn cli_alu_check_passes_and_reports_json() {
    let json = tmp("alu_check.json");
    let o = pica(&[
        "alu-check",
        "--op",
        "all",
        "--random",
        "2000",
        "--seed",
        "5",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("PASS"), "{}", text(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(v["total_mismatches"], 0);
    // 18 shader ops (MAX once per knob setting), the rasterizer's 7 (with RAST's pipelined
    // divider, div_rast), the shader unit's SFU's 4, the clipper's multi-cycle reciprocal and
    // the texture units' pipelined one (rcp_tex).
    assert_eq!(v["ops"].as_array().map(Vec::len), Some(32));
}

#[test]
fn cli_alu_check_rejects_bad_arguments_with_status_2() {
    for args in [
        &["alu-check", "--op", "nope", "--random", "1"][..],
        &["alu-check", "--op", "add"][..],
        &[
            "alu-check",
            "--op",
            "max",
            "--random",
            "1",
            "--knob",
            "max-neg-inf=maybe",
        ][..],
    ] {
        let o = pica(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
    }
}

#[test]
fn cli_run_commits_writes_the_commit_channel() {
    let list = "vectors/examples/08_fixed_attribs_immediate.hex";
    let out = tmp("commits.jsonl");
    let o = pica(&["run", list, "--beats", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let without = std::fs::read_to_string(&out).unwrap();
    assert!(!without.contains("\"commit\""), "commits are opt-in");
    let o = pica(&["run", list, "--beats", out.to_str().unwrap(), "--commits"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let commits: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["channel"] == "commit")
        .collect();
    // The example's one immediate vertex runs a one-instruction program: END at word 0.
    assert_eq!(commits.len(), 1, "{commits:?}");
    // Its input registers went in on shader_in (unit 0, vertex 0), before the commit lines.
    let text_out = std::fs::read_to_string(&out).unwrap();
    let first_in = text_out
        .find("\"channel\":\"shader_in\"")
        .expect("shader_in beats");
    assert!(first_in < text_out.find("\"channel\":\"commit\"").unwrap());
    assert!(text_out.contains("\"seq\":0") && text_out.contains("\"xyzw\":[\"0x"));
    assert_eq!(commits[0]["word"], "0x88000000");
    assert_eq!(commits[0]["end"], true);
    assert_eq!(commits[0]["dst"], "0xff");
    // --commits without --beats is a usage error.
    let o = pica(&["run", list, "--commits"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn cli_a_closed_stdout_ends_quietly() {
    // `pica vectors list | head -0`: the reader is gone before pica writes (with println!); it must end with
    // 128 + SIGPIPE and no panic message, as a Unix tool does.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pica"))
        .args(["vectors", "list"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(141), "{err}");
}
