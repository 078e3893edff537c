//! `pica asm` and `pica disasm` end to end: every bundled example shader assembles, disassembles
//! and re-assembles to the same bytes; raw code disassembles; bad input exits 2 with a message
//! naming file:line:col or the SHBIN byte offset.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;
use common::*;

#[test]
fn cli_asm_disasm_asm_is_byte_identical_for_every_example() {
    let mut n = 0;
    for e in std::fs::read_dir(root().join("vectors/examples/shaders")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|e| e.to_str()) != Some("pica") {
            continue;
        }
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        let a = tmp(&format!("{stem}.shbin"));
        let o = pica(&["asm", p.to_str().unwrap(), "-o", a.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let d = tmp(&format!("{stem}.dis.pica"));
        let o = pica(&["disasm", a.to_str().unwrap(), "-o", d.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let b = tmp(&format!("{stem}.2.shbin"));
        let o = pica(&["asm", d.to_str().unwrap(), "-o", b.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert_eq!(
            std::fs::read(&a).unwrap(),
            std::fs::read(&b).unwrap(),
            "{stem}"
        );
        n += 1;
    }
    assert!(n >= 3);
}

#[test]
fn cli_disasm_prints_picasso_syntax() {
    let a = tmp("vs.shbin");
    let o = pica(&[
        "asm",
        "vectors/examples/shaders/vshader.v.pica",
        "-o",
        a.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("8 instructions, 7 operand descriptors"),
        "{}",
        text(&o)
    );
    let o = pica(&["disasm", a.to_str().unwrap()]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    for want in [
        ".fvec projection[4]",
        ".setf c95(0.0, 1.0, -1.0, 0.09999942779541016)",
        ".out - position o0",
        ".out - color o1",
        ".proc main",
        "mov r0.xyz, v0",
        "mov r0.w, c95.yyyy",
        "dp4 o0.x, c0, r0",
        "mov o1, v1",
        "end",
    ] {
        assert!(t.contains(want), "missing {want:?} in\n{t}");
    }
}

#[test]
fn cli_disasm_raw_code_with_opdescs() {
    let code = tmp("code.bin");
    let descs = tmp("descs.bin");
    let words: Vec<u8> = [0x4E00_0000u32, 0x8800_0000]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    std::fs::write(&code, words).unwrap();
    std::fs::write(&descs, 0x36Eu32.to_le_bytes()).unwrap();
    let o = pica(&[
        "disasm",
        code.to_str().unwrap(),
        "--opdescs",
        descs.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("mov r0.xyz, v0"), "{}", text(&o));
    // Without descriptors the ALU word cannot be written as an instruction.
    let o = pica(&["disasm", code.to_str().unwrap()]);
    assert!(text(&o).contains(".word 0x4E000000"), "{}", text(&o));
}

#[test]
fn cli_bad_input_exits_2_with_position() {
    let src = tmp("bad.pica");
    std::fs::write(&src, ".proc main\n    mov r0, r99\n.end\n").unwrap();
    let out = tmp("bad.shbin");
    let o = pica(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains(&format!(
            "{}:2:13: register r99 does not exist",
            src.display()
        )),
        "{}",
        text(&o)
    );
    let shbin = tmp("bad2.shbin");
    std::fs::write(&shbin, b"DVLB\x01\0\0\0").unwrap();
    let o = pica(&["disasm", shbin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("SHBIN offset 0x4"), "{}", text(&o));
    let o = pica(&["disasm", "no/such/file.shbin"]);
    assert_eq!(o.status.code(), Some(2));
    let odd = tmp("odd.bin");
    std::fs::write(&odd, [1u8, 2, 3]).unwrap();
    let o = pica(&["disasm", odd.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("not a whole number of 32-bit words"),
        "{}",
        text(&o)
    );
}

#[test]
fn cli_asm_links_several_files_and_writes_picassos_header() {
    let v = tmp("link.v.pica");
    let lib = tmp("link_lib.pica");
    let g = tmp("link.g.pica");
    std::fs::write(
        &v,
        ".fvec mvp[4], tint$rgb\n.bool lit\n.proc main\n    call helper\n    mov o0, mvp[0]\n    end\n.end\n",
    )
    .unwrap();
    std::fs::write(
        &lib,
        ".nodvle\n.fvec tint$rgb\n.proc helper\n    mul r0, tint$rgb, r0\n.end\n",
    )
    .unwrap();
    std::fs::write(
        &g,
        ".gsh point c0\n.fvec scale\n.out o position\n.proc gmain\n    call helper\n    setemit 0, prim\n    emit\n    end\n.end\n.entry gmain\n",
    )
    .unwrap();
    let out = tmp("link.shbin");
    let h = tmp("link.h");
    let o = pica(&[
        "asm",
        v.to_str().unwrap(),
        lib.to_str().unwrap(),
        g.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "-h",
        h.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("2 DVLEs (vertex, geometry)"),
        "{}",
        text(&o)
    );
    // picasso's header: the shared uniforms (lib.pica's tint$rgb again), not the GS's `scale`.
    assert_eq!(
        std::fs::read_to_string(&h).unwrap(),
        "// Generated by picasso\n#pragma once\n\
         #define VSH_FVEC_mvp 0x00\n#define VSH_ULEN_mvp 4\n\
         #define VSH_FVEC_tint$rgb 0x04\n#define VSH_ULEN_tint$rgb 1\n\
         #define VSH_FLAG_lit BIT(0)\n#define VSH_ULEN_lit 1\n\
         #define VSH_FVEC_tint$rgb 0x04\n#define VSH_ULEN_tint$rgb 1\n"
    );
    // The disassembly shows the DVLE's `tint.rgb` as the source name again.
    let o = pica(&["disasm", out.to_str().unwrap()]);
    assert!(text(&o).contains(".fvec tint$rgb[1]"), "{}", text(&o));
    assert!(
        text(&o).contains("; DVLE 1 (not rebuilt): geometry shader"),
        "{}",
        text(&o)
    );
    // By default the label table is empty (picasso's bytes); --labels lists the procedures;
    // --no-labels (the default's old spelling) is accepted and changes nothing; -n (no padding
    // NOPs) is accepted.
    let asm_to = |name: &str, extra: &[&str]| {
        let out = tmp(name);
        let mut args = vec![
            "asm",
            v.to_str().unwrap(),
            lib.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "-n",
        ];
        args.extend_from_slice(extra);
        let o = pica(&args);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        std::fs::read(&out).unwrap()
    };
    let plain = asm_to("link_plain.shbin", &[]);
    assert_eq!(asm_to("link_old.shbin", &["--no-labels"]), plain);
    let labelled = asm_to("link_labels.shbin", &["--labels"]);
    let parsed = pica_model::shader::shbin::Shbin::parse(&labelled).unwrap();
    let names: Vec<&str> = parsed.dvles[0]
        .labels
        .iter()
        .map(|l| l.name.as_str())
        .collect();
    assert_eq!(names, ["main", "helper"]);
    let parsed = pica_model::shader::shbin::Shbin::parse(&plain).unwrap();
    assert!(parsed.dvles[0].labels.is_empty());
    let o = pica(&[
        "asm",
        v.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--labels",
        "--no-labels",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    // An error in the second file names it.
    std::fs::write(&lib, ".nodvle\n.ivec tint$rgb\n").unwrap();
    let o = pica(&[
        "asm",
        v.to_str().unwrap(),
        lib.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("link_lib.pica:2:7: mismatched uniform type"),
        "{}",
        text(&o)
    );
}
