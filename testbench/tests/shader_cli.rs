//! `pica shader run` through its library entry point: raw code, JSON layout, hang status.

#![allow(clippy::unwrap_used)]

use pica_model::shader::isa::*;
use pica_testbench::cli::shader::{run, Ended, ShaderRunArgs};

fn raw_program(dir: &std::path::Path, words: &[u32], descs: &[u32]) -> ShaderRunArgs {
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let d: Vec<u8> = descs.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(dir.join("p.bin"), code).unwrap();
    std::fs::write(dir.join("d.bin"), d).unwrap();
    ShaderRunArgs {
        program: dir.join("p.bin"),
        opdescs: Some(dir.join("d.bin")),
        max_instructions: 1000,
        json: true,
        ..ShaderRunArgs::default()
    }
}

#[test]
fn shader_cli_json_outputs_are_raw_f24_bits() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("pica-shcli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let add = encode(&Instruction::Alu {
        op: Opcode::Add,
        dst: DstReg::output(0).unwrap(),
        src1: SrcReg::uniform(4).unwrap(),
        src2: SrcReg::input(0).unwrap(),
        idx: RelIndex::None,
        desc: 0,
    });
    let mut args = raw_program(&dir, &[add, 0x8800_0000], &[OpDesc::IDENTITY.0]);
    args.inputs = vec!["v0=1,0,0,0x3f0000".into()];
    args.uniforms = vec!["c4=0.5,0,0,0".into()];
    let r = run(&args).unwrap();
    assert_eq!(r.ended, Ended::End);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["outputs"]["o0"],
        serde_json::json!(["0x3f8000", "0x000000", "0x000000", "0x3f0000"])
    );
    assert_eq!(v["instructions"], 2);
    // BREAK with an empty loop stack: a hang with its reason.
    let args = raw_program(&dir, &[0x8000_0000], &[]);
    let r = run(&args).unwrap();
    assert_eq!(r.ended, Ended::Hang);
    assert!(r.stderr.unwrap().contains("BREAK"));
    // Bad input is an error, not a panic.
    let mut args = raw_program(&dir, &[0x8800_0000], &[]);
    args.inputs = vec!["v16=1,2,3,4".into()];
    assert!(run(&args).is_err());
}

#[test]
fn shader_cli_knobs_choose_the_disputed_answers() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("pica-shcli-knob-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // o0 = max(c0, v0) with c0 = 0 and v0 = -inf (f24 0xff0000): pica-facts §2 disputes it.
    let max = encode(&Instruction::Alu {
        op: Opcode::Max,
        dst: DstReg::output(0).unwrap(),
        src1: SrcReg::uniform(0).unwrap(),
        src2: SrcReg::input(0).unwrap(),
        idx: RelIndex::None,
        desc: 0,
    });
    let run_with = |knobs: &[&str]| {
        let mut args = raw_program(&dir, &[max, 0x8800_0000], &[OpDesc::IDENTITY.0]);
        args.uniforms = vec!["c0=0,0,0,0".into()];
        args.inputs = vec!["v0=0xff0000,0,0,0".into()];
        args.knobs = pica_testbench::knobs::KnobArgs::parse_all(knobs).unwrap();
        run(&args)
    };
    let x = |r: String| {
        let v: serde_json::Value = serde_json::from_str(&r).unwrap();
        v["outputs"]["o0"][0].as_str().unwrap().to_string()
    };
    assert_eq!(x(run_with(&[]).unwrap().stdout), "0x000000");
    assert_eq!(
        x(run_with(&["max-neg-inf=neg-inf"]).unwrap().stdout),
        "0xff0000"
    );
    // Bad names and values are refused by the shared `--knob` parser, naming the knobs.
    let e = pica_testbench::knobs::KnobArgs::parse_all(&["max-neg-inf=maybe"]).unwrap_err();
    assert!(e.contains("zero|neg-inf"), "{e}");
    let e = pica_testbench::knobs::KnobArgs::parse_all(&["nope=1"]).unwrap_err();
    assert!(e.contains("unknown knob"), "{e}");
}

#[test]
fn shader_cli_sets_and_shows_the_control_state() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("pica-shcli-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = ".proc f\n    end\n.end\n.proc main\n    mov o1, c0[aL]\n    ifc cmp.x\n        \
               mov o0, v0\n        mov o0, v0\n    .end\n    for i0\n        call f\n    .end\n    \
               end\n.end\n";
    std::fs::write(dir.join("state.v.pica"), src).unwrap();
    let args = |cmp: &str, json: bool| ShaderRunArgs {
        program: dir.join("state.v.pica"),
        max_instructions: 1000,
        json,
        inputs: vec!["v0=1,1,1,1".into()],
        uniforms: vec!["c2=2,2,2,2".into()],
        ints: vec!["i0=0,7,1,0".into()],
        cmp: Some(cmp.into()),
        a0: Some("3,-4".into()),
        al: Some(2),
        ..ShaderRunArgs::default()
    };
    let r = run(&args("1,0", true)).unwrap();
    assert_eq!(r.ended, Ended::End);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    // --al 2: c0[aL] read c2; --cmp 1,0: the IFC body ran.
    assert_eq!(v["outputs"]["o1"][0], "0x400000");
    assert_eq!(v["outputs"]["o0"][0], "0x3f0000");
    let st = &v["state"];
    assert_eq!(st["al"], 7);
    assert_eq!(st["a0"], serde_json::json!([3, -4]));
    assert_eq!(st["cmp"], serde_json::json!({"x": true, "y": false}));
    // END inside the called procedure inside the loop: both stacks still hold their entry.
    assert_eq!(st["call_stack"].as_array().unwrap().len(), 1);
    assert_eq!(st["loop_stack"][0]["remaining"], 0);
    assert_eq!(st["if_stack"], serde_json::json!([]));
    // cmp.x false: the IFC body is skipped.
    let r = run(&args("false,true", true)).unwrap();
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(v["outputs"].get("o0").is_none(), "{}", r.stdout);
    // Text: one line of registers, one per stack.
    let t = run(&args("1,1", false)).unwrap().stdout;
    assert!(t.contains("a0 = (3, -4)  aL = 7  cmp = (x 1, y 1)"), "{t}");
    assert!(
        t.contains("call stack (oldest first): [at 0x001 return to 0x00"),
        "{t}"
    );
    assert!(t.contains("if stack (oldest first): empty"), "{t}");
    assert!(t.contains("loop stack (oldest first): [body 0x"), "{t}");
    assert!(run(&args("1", false)).is_err());
    assert!(run(&args("1,2", false)).is_err());
}
