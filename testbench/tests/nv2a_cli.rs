//! `pica nv2a disasm` and `pica nv2a run` end to end on the bundled NV2A example programs:
//! text and JSON outputs, argument formats, exit statuses and error messages.

#![allow(clippy::unwrap_used)]

mod common;
use common::*;

use serde_json::Value;

const TRANSFORM: &str = "vectors/examples/nv2a/transform.hex";
const MATRIX: [&str; 8] = [
    "--const",
    "c96=2,0,0,1",
    "--const",
    "c97=0,3,0,2",
    "--const",
    "c98=0,0,4,3",
    "--const",
    "c99=0,0,0.5,1",
];

#[test]
fn nv2a_cli_disasm_both_syntaxes() {
    let o = pica(&["nv2a", "disasm", TRANSFORM]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 5);
    assert!(
        text.starts_with("  0  00000000 00ec001b 0836186c 20008800  DP4 o[HPOS].x, v[0], c[96]\n"),
        "{text}"
    );
    assert!(text.ends_with("MOV o[COL0], v[3]  ; final\n"), "{text}");
    let o = pica(&[
        "nv2a",
        "disasm",
        "--syntax",
        "d3d",
        "vectors/examples/nv2a/relative.bin",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("arl a0.x, v1.x\n"), "{text}");
    assert!(
        text.contains("dp4 oPos.w, v0, c[a0.x+7]  ; final\n"),
        "{text}"
    );
    // .hex and .bin of one program disassemble alike.
    let a = stdout(&pica(&[
        "nv2a",
        "disasm",
        "vectors/examples/nv2a/paired.hex",
    ]));
    let b = stdout(&pica(&[
        "nv2a",
        "disasm",
        "vectors/examples/nv2a/paired.bin",
    ]));
    assert_eq!(a, b);
    assert!(a.contains("MOV o[TEX0], v[8] + RCP R1.x, R0.w"), "{a}");
}

#[test]
fn nv2a_cli_run_prints_written_outputs_as_bits_and_decimal() {
    let mut args = vec![
        "nv2a",
        "run",
        TRANSFORM,
        "--in",
        "v0=1,2,3,1",
        "--in",
        "v3=0.25,0.5,0x3f400000,1",
    ];
    args.extend(MATRIX);
    let o = pica(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "vectors/examples/nv2a/transform.hex: ran slots 0..4 (5 slots), a0.x = 0\n\
         oPos  0x40400000 0x41000000 0x41700000 0x40200000  (3, 8, 15, 2.5)\n\
         oD0   0x3e800000 0x3f000000 0x3f400000 0x3f800000  (0.25, 0.5, 0.75, 1)\n"
    );
}

#[test]
fn nv2a_cli_run_json() {
    let mut args = vec![
        "nv2a",
        "run",
        "vectors/examples/nv2a/paired.bin",
        "--json",
        "--in",
        "v0=1,3,4,1",
        "--in",
        "v8=0.5,0.5,0,1",
    ];
    let m = [
        "--const",
        "c96=2,0,0,0",
        "--const",
        "c97=0,2,0,0",
        "--const",
        "c98=0,0,1,0",
        "--const",
        "c99=0,0,1,0",
    ];
    args.extend(m);
    let o = pica(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["slots_run"], 8);
    assert_eq!(v["final_slot"], 7);
    assert_eq!(v["a0"], 0);
    let pos = &v["outputs"]["oPos"];
    assert_eq!(pos["index"], 0);
    assert_eq!(pos["bits"][0], "0x3f000000");
    assert_eq!(pos["bits"][3], "0x3e800000");
    assert_eq!(pos["values"][1], 1.5);
    assert_eq!(v["outputs"]["oT0"]["values"][0], 0.5);
    assert_eq!(v["outputs"].as_object().unwrap().len(), 2);
    // Non-finite values are strings.
    let o = pica(&["nv2a", "run", "vectors/examples/nv2a/paired.hex", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outputs"]["oPos"]["values"][3], "inf");
    assert_eq!(v["outputs"]["oPos"]["bits"][3], "0x7f800000");
}

#[test]
fn nv2a_cli_run_relative_palette() {
    let o = pica(&[
        "nv2a",
        "run",
        "vectors/examples/nv2a/relative.hex",
        "--in",
        "v0=1,2,3,1",
        "--in",
        "v1=2.9,0,0,0",
        "--const",
        "c102=10,0,0,0",
        "--const",
        "c103=0,10,0,0",
        "--const",
        "c104=0,0,10,0",
        "--const",
        "c105=0,0,0,10",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("a0.x = 2\n"), "{text}");
    assert!(
        text.contains("oPos  0x41200000 0x41a00000 0x41f00000 0x41200000  (10, 20, 30, 10)"),
        "{text}"
    );
}

#[test]
fn nv2a_cli_truncated_image_names_file_and_slot() {
    let p = tmp("short.bin");
    std::fs::write(&p, [0u8; 40]).unwrap();
    let o = pica(&["nv2a", "disasm", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("short.bin: truncated image: 40 bytes"), "{e}");
    assert!(
        e.contains("slot 2 at byte offset 32 has only 8 of 16 bytes"),
        "{e}"
    );
}

#[test]
fn nv2a_cli_reserved_op_and_missing_final_marker() {
    let p = tmp("reserved.hex");
    // Slot 1: MAC op 14 (word 1 bits 21..24), final.
    std::fs::write(&p, "0 0 0 0\n0 0x01c00000 0 1\n").unwrap();
    let o = pica(&["nv2a", "run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("reserved.hex: slot 1: MAC operation 14 is reserved (MAC operation (word 1 bits 21..24))"), "{e}");
    // It still disassembles.
    let o = pica(&["nv2a", "disasm", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("MAC?14"));

    let p = tmp("nofinal.hex");
    std::fs::write(&p, "0 0 0 0\n0 0 0 0\n").unwrap();
    let o = pica(&["nv2a", "run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("nofinal.hex: no final instruction marker (word 3 bit 0) in slots 0..1"),
        "{}",
        stderr(&o)
    );
    let o = pica(&["nv2a", "run", TRANSFORM, "--start", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("start slot 5 is outside the image"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn nv2a_cli_bad_arguments_exit_2() {
    for bad in [
        &["--in", "v16=1,2,3,4"][..],
        &["--in", "v0=1,2,3"],
        &["--in", "v0=1,2,x,4"],
        &["--const", "c192=0,0,0,0"],
        &["--const", "v0=0,0,0,0"],
    ] {
        let mut args = vec!["nv2a", "run", TRANSFORM];
        args.extend(bad);
        let o = pica(&args);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(!stderr(&o).is_empty());
    }
    let o = pica(&["nv2a", "run", "vectors/examples/nv2a/missing.hex"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.hex: no such file"));
}
