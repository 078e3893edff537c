//! Assembler unit tests: hand-checked encodings (pica-facts §1), picasso's allocation and
//! padding rules, and error positions.

use super::*;

fn asm(src: &str) -> Shbin {
    match assemble(src, "t.pica") {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

fn asm_err(src: &str) -> String {
    match assemble(src, "t.pica") {
        Ok(_) => panic!("assembled: {src}"),
        Err(e) => e.to_string(),
    }
}

const VSHADER: &str = include_str!("../../../../vectors/examples/shaders/vshader.v.pica");

#[test]
fn asm_vshader_example_words_by_hand() {
    let s = asm(VSHADER);
    // Hand-encoded from pica-facts §1 (see the comments per word).
    assert_eq!(
        s.code,
        vec![
            0x4E00_0000, // mov r0.xyz, v0: MOV 0x13, DST r0 0x10, SRC1 v0, desc 0
            0x4E07_F001, // mov r0.w, c95.yyyy: SRC1 0x7F, desc 1
            0x0802_0802, // dp4 o0.x, c0, r0: DP4 0x02, SRC1 0x20, SRC2 0x10, desc 2
            0x0802_1803, // dp4 o0.y, c1, r0
            0x0802_2804, // dp4 o0.z, c2, r0
            0x0802_3805, // dp4 o0.w, c3, r0
            0x4C20_1006, // mov o1, v1: DST o1, SRC1 v1, desc 6
            0x8800_0000, // end
        ]
    );
    assert_eq!(
        s.opdescs,
        vec![0x36E, 0xAA1, 0x6C368, 0x6C364, 0x6C362, 0x6C361, 0x36F]
    );
    let d = &s.dvles[0];
    assert_eq!((d.entry, d.entry_end), (0, 8));
    assert!(!d.geometry);
    assert_eq!(d.output_mask, 0b11);
    assert_eq!(
        d.outputs,
        vec![
            Output {
                semantic: 0,
                reg: 0,
                mask: 0xF,
                unknown: 0
            },
            Output {
                semantic: 2,
                reg: 1,
                mask: 0xF,
                unknown: 0
            },
        ]
    );
    assert_eq!(
        d.uniforms,
        vec![Uniform {
            name: "projection".into(),
            start: 0x10,
            end: 0x13
        }]
    );
    let f = |b: [u32; 4]| ConstValue::Float(b.map(F24::from_bits));
    assert_eq!(
        d.constants,
        vec![
            Constant {
                reg: 95,
                value: f([0, 0x3F0000, 0xBF0000, 0x3B9999])
            },
            Constant {
                reg: 94,
                value: f([0x3D3333, 0, 0, 0])
            },
        ]
    );
    // picasso's output: no label table; main is the entry procedure.
    assert!(d.labels.is_empty());
    assert_eq!((d.entry, d.entry_end), (0, 8));
    let options = Options {
        labels: true,
        ..Options::default()
    };
    let Ok(labelled) = assemble_files(&[("t.pica", VSHADER)], options) else {
        panic!("the example does not assemble with labels");
    };
    assert_eq!(
        labelled.shbin.dvles[0]
            .label("main")
            .map(|l| (l.offset, l.size)),
        Some((0, Some(8)))
    );
}

#[test]
fn asm_f24_conversion_is_picassos() {
    let b = |t: &str| f24_from_text(t).map(F24::bits);
    assert_eq!(b("1.0"), Some(0x3F0000));
    assert_eq!(b("-1"), Some(0xBF0000));
    assert_eq!(b("0.5"), Some(0x3E0000));
    assert_eq!(b("3.0f"), Some(0x408000));
    assert_eq!(b("-0.0"), Some(0x800000));
    assert_eq!(b("1e30"), Some(0x7F0000));
    assert_eq!(b("1e-30"), Some(0));
    assert_eq!(b("inf"), Some(0x7F0000));
    assert_eq!(b("x"), None);
}

#[test]
fn asm_inverted_forms_chosen_as_picasso_does() {
    let s = asm(".proc main\n dph r0, r1, c5\n dph r0, c5, r1\n sge r2, v0, c1[a0]\n mad r0, r1, r2, c3\n mad r0, r1, c3, r2\n end\n.end");
    let ops: Vec<u32> = s.code.iter().map(|w| w >> 26).collect();
    assert_eq!(ops[0], 0x18); // DPHI
    assert_eq!(ops[1], 0x03); // DPH
    assert_eq!(ops[2], 0x1A); // SGEI, index on SRC2
    assert_eq!((s.code[2] >> 19) & 3, 1);
    assert_eq!(s.code[3] >> 29, 6); // MADI
    assert_eq!(s.code[4] >> 29, 7); // MAD
                                    // Forced inverted form with two narrow sources.
    let s = asm(".proc main\n dphi r0, r1, r2\n madi r0, r1, r2, r3\n.end");
    assert_eq!(s.code[0] >> 26, 0x18);
    assert_eq!(s.code[1] >> 29, 6);
}

#[test]
fn asm_opdescs_are_shared_and_filled_in() {
    // mov r0.x reads only lane x of its source: r1.x and r1.xyzw share a descriptor.
    let s = asm(".proc main\n mov r0.x, r1.x\n mov r0.x, r1\n rcp r2, r3.x\n rsq r2, r3\n.end");
    assert_eq!(
        s.code.iter().map(|w| w & 0x7F).collect::<Vec<_>>(),
        vec![0, 0, 1, 1]
    );
    assert_eq!(s.opdescs.len(), 2);
}

#[test]
fn asm_mad_descriptor_moves_below_32() {
    let mut src = String::from(".proc main\n");
    for k in 0..33usize {
        // 33 distinct full swizzles: 33 distinct descriptors.
        let sw: String = (0..4)
            .map(|d| ['x', 'y', 'z', 'w'][(k >> (2 * d)) & 3])
            .collect();
        src += &format!(" mov r{}, r1.{sw}\n", k % 16);
    }
    src += " mad r0, r1.wzyw, r2, r3\n.end";
    let s = asm(&src);
    let mad = *s.code.last().unwrap();
    // More than 32 descriptors exist, yet the MAD's (src1 .wzyw = 0xE7) is reachable.
    assert!(s.opdescs.len() > 32);
    assert_eq!((s.opdescs[(mad & 0x1F) as usize] >> 5) & 0xFF, 0xE7);
}

#[test]
fn asm_flow_blocks_and_padding() {
    let s = asm(".bool b\n.proc f\n mov r0, r1\n.end\n.proc main\n ifu b\n  call f\n .else\n  nop\n .end\n for i0\n  breakc cmp.x\n .end\n jmpu !b, lbl\nlbl:\n end\n.end");
    // main: 1 ifu, 2 call, 3 pad NOP (call before .else), 4 nop, 5 loop, 6 breakc, 7 pad (breakc
    // ends a for), 8 nop pad (after a nested .end: lastWasEnd), 9 jmpu, 10 end.
    let ops: Vec<u32> = s.code.iter().map(|w| w >> 26).collect();
    assert_eq!(
        ops,
        vec![0x13, 0x27, 0x24, 0x21, 0x21, 0x29, 0x23, 0x21, 0x2D, 0x22]
    );
    // ifu: DST = else start (4), NUM = else length (1)
    assert_eq!((s.code[1] >> 10) & 0xFFF, 4);
    assert_eq!(s.code[1] & 0xFF, 1);
    // call f: DST 0, NUM 1
    assert_eq!(s.code[2] & 0x3FFFFF, 1);
    // loop: DST = last body instruction (7)
    assert_eq!((s.code[5] >> 10) & 0xFFF, 7);
    // jmpu !b: NUM bit 0 set, DST = 9
    assert_eq!(s.code[8] & 0x3FFFFF, (9 << 10) | 1);
    let d = &s.dvles[0];
    assert_eq!((d.entry, d.entry_end), (1, 10));
}

#[test]
fn asm_conditions_encode_refs_and_ops() {
    let s = asm(".proc main\n breakc cmp.x\n breakc !cmp.y\n breakc cmp.x && !cmp.y\n breakc !cmp.x || cmp.y\n.end");
    let c: Vec<u32> = s.code.iter().map(|w| (w >> 22) & 0xF).collect();
    // bits: REFX 3, REFY 2, CONDOP 1-0
    assert_eq!(c, vec![0b1110, 0b1011, 0b1001, 0b0100]);
}

#[test]
fn asm_errors_name_file_line_col() {
    assert_eq!(
        asm_err(".proc main\n  mov r0, q7\n.end"),
        "t.pica:2:11: unknown register or alias 'q7'"
    );
    assert_eq!(
        asm_err(".proc main\n add r0, r1, c3\n.end"),
        "t.pica:2:14: invalid source 2 register c3: only v0-v15 and r0-r15 fit here"
    );
    assert_eq!(
        asm_err("mov r0, r1"),
        "t.pica:1:1: instruction outside a .proc block"
    );
    assert_eq!(
        asm_err(".proc main\n mov r0, r1\n"),
        "t.pica:1:1: block not closed (missing .end)"
    );
    assert_eq!(
        asm_err(".proc main\n jmpc cmp.x, nowhere\n.end"),
        "t.pica:2:14: label 'nowhere' is undefined"
    );
    assert_eq!(
        asm_err(".proc f\n end\n.end"),
        "t.pica:1:1: entry point 'main' is undefined"
    );
    assert_eq!(
        asm_err(".proc main\n mov r0, r1 @\n.end"),
        "t.pica:2:13: unexpected character '@'"
    );
    assert_eq!(
        asm_err(".fvec a\n.fvec a"),
        "t.pica:2:7: identifier already used: a"
    );
    assert_eq!(
        asm_err(".proc main\n mov r0.xk, r1\n.end"),
        "t.pica:2:9: invalid swizzle or mask '.xk'"
    );
    assert_eq!(asm_err(".bogus"), "t.pica:1:2: unknown directive .bogus");
    assert_eq!(
        asm_err(".proc main\n add r0, v0, v1\n.end"),
        "t.pica:2:10: source operands must not be different input registers (v0-v15)"
    );
}

#[test]
fn asm_aliases_compose_swizzles() {
    let s = asm(".alias a c0.wyxz\n.proc main\n mov r0, a.xxww\n.end");
    // c0.wwzz: lanes w w z z = 11 11 10 10 = 0xFA
    assert_eq!((s.opdescs[0] >> 5) & 0xFF, 0xFA);
}

#[test]
fn asm_geometry_shader_modes() {
    let s = asm(".gsh fixed c8 c0 4\n.fvec x\n.proc main\n setemit 1, prim inv\n emit\n end\n.end");
    let d = &s.dvles[0];
    assert!(d.geometry);
    assert_eq!(d.gsh_mode, GshMode::Fixed);
    assert_eq!((d.gsh_fixed_start, d.gsh_fixed_num), (0, 4));
    assert_eq!(d.uniforms[0].start, 0x10 + 8);
    assert_eq!(s.code[0], 0x2B << 26 | 1 << 24 | 1 << 23 | 1 << 22);
}
