//! `pica shader run` through its library entry point: raw code, JSON layout, hang status.

#![allow(clippy::unwrap_used)]

use pica_model::shader::isa::*;
use pica_testbench::shader_cli::{run, Ended, ShaderRunArgs};

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
    let dir = std::env::temp_dir().join(format!("pica-shcli-{}", std::process::id()));
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
    let dir = std::env::temp_dir().join(format!("pica-shcli-knob-{}", std::process::id()));
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
        args.knobs = knobs.iter().map(|k| k.to_string()).collect();
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
    let e = run_with(&["max-neg-inf=maybe"]).unwrap_err().to_string();
    assert!(e.contains("zero|neg-inf"), "{e}");
    let e = run_with(&["nope=1"]).unwrap_err().to_string();
    assert!(e.contains("unknown knob"), "{e}");
}
