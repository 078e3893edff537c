//! The assembler as a drop-in for picasso: each behaviour picasso has that the single-file
//! round trips do not show, pinned with picasso's own output.
//!
//! Provenance of the expected values: picasso 2.7.1 (devkitPro/picasso tag commit 82cf7d9)
//! built from source and run on the sources below (`picasso -o out.shbin -h out.h FILES`,
//! `-n` where said); the bytes and text here are what it wrote. The behaviours and where
//! picasso implements them are listed in `pica_model::shader::asm`'s module docs.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::shader::asm::{assemble, assemble_files, Options};
use pica_model::shader::disasm;
use pica_model::shader::shbin::{ConstValue, Shbin};

/// Options that make the SHBIN byte for byte picasso's (empty label tables): the default.
const PICASSO: Options = Options {
    auto_nop: true,
    labels: false,
};

/// picasso's output plus our label table (every procedure, by name).
const LABELS: Options = Options {
    auto_nop: true,
    labels: true,
};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// `$` in names

#[test]
fn picasso_dollar_in_uniform_and_input_names_becomes_a_dot_in_the_dvle() {
    let src = ".fvec light$dir, plain\n.in pos$in v0\n.proc main\n    mov o0, light$dir\n    \
               mov o1, pos$in\n    end\n.end\n";
    let s = assemble(src, "dollar.v.pica").unwrap();
    let d = &s.dvles[0];
    let names: Vec<&str> = d.uniforms.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["pos.in", "light.dir", "plain"]);
    assert_eq!(d.uniform("light.dir").map(|u| u.start), Some(0x10));
    // The symbol table holds the dotted names (picasso_frontend.cpp: std::replace '$' '.').
    let bytes = s.to_bytes();
    assert!(bytes.windows(10).any(|w| w == b"light.dir\0"));
    assert!(!bytes.contains(&b'$'));
    // The disassembler turns them back into source names, and the round trip is exact.
    let text = disasm::shbin(&s);
    assert!(text.contains(".fvec light$dir[1]"), "{text}");
    assert!(text.contains(".in pos$in v0"), "{text}");
    assert_eq!(assemble(&text, "re.pica").unwrap(), s);
}

// ---------------------------------------------------------------------------------------------
// Padding NOP after a `for` body that ends in `break`

const BREAK_SRC: &str = "\
.proc main
    for i0
        add r0, r0, v0
        break
    .end
    for i1
        add r0, r0, v0
        breakc cmp.x
    .end
    end
.end
";

#[test]
fn picasso_pads_a_for_body_that_ends_in_break_or_breakc() {
    let s = assemble(BREAK_SRC, "break.v.pica").unwrap();
    // picasso 2.7.1: LOOP (DST = the padding NOP), ADD, BREAK, NOP, LOOP, ADD, BREAKC, NOP, END.
    assert_eq!(
        s.code,
        [
            0xA400_0C00,
            0x0201_0000,
            0x8000_0000,
            0x8400_0000,
            0xA440_1C00,
            0x0201_0000,
            0x8F80_0000,
            0x8400_0000,
            0x8800_0000
        ]
    );
    // picasso -n: no padding (picasso warns "a padding NOP is required here" twice).
    let n = assemble_files(
        &[("break.v.pica", BREAK_SRC)],
        Options {
            auto_nop: false,
            labels: true,
        },
    )
    .unwrap();
    assert_eq!(
        n.shbin.code,
        [
            0xA400_0800,
            0x0201_0000,
            0x8000_0000,
            0xA440_1400,
            0x0201_0000,
            0x8F80_0000,
            0x8800_0000
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Several files, one SHBIN

const VSH: &str = "\
; vertex shader
.fvec projection[4], shared$val
.ivec count
.bool lit, modes[3]
.fvec _private
.constf consts(0.0, 1.0, 0.5, 2.0)
.alias ones consts.yyyy
.in inpos v0
.in in$clr v1
.out outpos position
.out outclr color
.proc main
    mov r0, inpos
    call scale
    dp4 outpos.x, projection[0], r0
    dp4 outpos.y, projection[1], r0
    dp4 outpos.z, projection[2], r0
    dp4 outpos.w, projection[3], r0
    for count
        add r1, ones, r1
        break
    .end
    mov outclr, in$clr
    end
.end
";

const LIB: &str = "\
.nodvle
.fvec shared$val
.constf k(3.0, 3.0, 3.0, 3.0)
.proc scale
    mul r0, shared$val, r0
    add r0, k, r0
.end
";

const GSH: &str = "\
.gsh point c0
.fvec gparam
.constf gk(1.0, 1.0, 1.0, 1.0)
.out opos position
.out oclr color
.proc gmain
    setemit 0, prim
    mov opos, v0
    mov oclr, gparam
    call scale
    emit
    end
.end
.entry gmain
";

/// `picasso -o out.shbin -h out.h vsh.v.pica lib.pica gsh.g.pica`.
const LINKED_SHBIN: &str = "
44564c4202000000b80000008801000044564c500000000028000000140000007800000006000000a800000000000000
00000000000000000000004e0230009001080208021802080328020804380208002400a485f827020000008000000084
0010204c000000880048022200f80702000080ac0000004c0000224c02300090000000a8000000886fc3060000000000
68c306000000000064c306000000000062c306000000000061c3060000000000afca06000000000044564c4502100000
000000000c00000003000300000000004000000001000000540000000000000054000000020000006400000007000000
9c0000003300000002005f000000000000003f0000003e0000004000000000000f000000020001000f00000000000000
0000000006000000010001000d000000100013001800000014001400230000007000700029000000780078002d000000
79007b00696e706f7300696e2e636c720070726f6a656374696f6e007368617265642e76616c00636f756e74006c6974
006d6f646573000044564c45021001000e00000014000000000003000000000040000000010000005400000000000000
540000000200000064000000010000006c0000000700000002005f0000003f0000003f0000003f0000003f0000000000
0f000000020001000f000000000000001000100067706172616d0000";

/// The header of that run: every shared-space declaration in order, `lib.pica`'s repeated
/// `shared$val` included; `_private` and the `.gsh point` file's `gparam` left out.
const LINKED_HEADER: &str = "\
// Generated by picasso
#pragma once
#define VSH_FVEC_projection 0x00
#define VSH_ULEN_projection 4
#define VSH_FVEC_shared$val 0x04
#define VSH_ULEN_shared$val 1
#define VSH_IVEC_count 0x00
#define VSH_ULEN_count 1
#define VSH_FLAG_lit BIT(0)
#define VSH_ULEN_lit 1
#define VSH_FLAG_modes(_n) BIT(1+(_n))
#define VSH_ULEN_modes 3
#define VSH_FVEC_shared$val 0x04
#define VSH_ULEN_shared$val 1
";

fn linked(options: Options) -> pica_model::shader::asm::Program {
    assemble_files(
        &[("vsh.v.pica", VSH), ("lib.pica", LIB), ("gsh.g.pica", GSH)],
        options,
    )
    .unwrap()
}

#[test]
fn picasso_links_several_files_byte_for_byte() {
    let p = linked(PICASSO);
    assert_eq!(p.shbin.to_bytes(), hex(LINKED_SHBIN));
    assert_eq!(p.header(), LINKED_HEADER);
}

#[test]
fn picasso_linking_shares_procedures_and_vertex_uniforms() {
    assert_eq!(Options::default(), PICASSO);
    let p = linked(LABELS);
    let s = &p.shbin;
    // Two executables: the `.nodvle` library contributes code only.
    assert_eq!(s.dvles.len(), 2);
    let (v, g) = (&s.dvles[0], &s.dvles[1]);
    assert!(!v.geometry && g.geometry);
    // The procedure from lib.pica, called from both other files.
    let scale = v.label("scale").unwrap();
    assert_eq!((scale.offset, scale.size), (12, Some(2)));
    let calls: Vec<u32> = s
        .code
        .iter()
        .filter(|w| *w >> 26 == 0x24)
        .map(|w| w & 0x3F_FFFF)
        .collect();
    assert_eq!(calls, [(12 << 10) | 2, (12 << 10) | 2]);
    // Every DVLE lists every procedure (our label table), entry points from `.entry`.
    assert_eq!(g.label("main").map(|l| l.offset), Some(0));
    assert_eq!((g.entry, g.entry_end), (14, 20));
    // Vertex-space uniforms are shared: lib.pica's shared$val reused c4 (its MUL reads c4).
    assert_eq!(v.uniform("shared.val").map(|u| u.start), Some(0x10 + 4));
    assert_eq!((s.code[12] >> 12) & 0x7F, 0x20 + 4);
    // The `.gsh point c0` file has its own space: gparam is c0 again.
    assert_eq!(g.uniform("gparam").map(|u| u.start), Some(0x10));
    // Constants are never shared: each file allocates from c95 down again.
    let top = |d: &pica_model::shader::shbin::Dvle| {
        d.constants
            .iter()
            .find(|c| matches!(c.value, ConstValue::Float(_)))
            .map(|c| c.reg)
    };
    assert_eq!((top(v), top(g)), (Some(95), Some(95)));
    // lib.pica's k is c95 too (its ADD reads c95), though no DVLE loads it.
    assert_eq!((s.code[13] >> 12) & 0x7F, 0x20 + 95);
    // Only the label tables differ from picasso's output.
    let mut no_labels = s.clone();
    for d in &mut no_labels.dvles {
        d.labels.clear();
    }
    assert_eq!(no_labels.to_bytes(), hex(LINKED_SHBIN));
    assert_eq!(Shbin::parse(&s.to_bytes()).as_ref(), Ok(s));
}

#[test]
fn picasso_header_of_a_small_program_is_exact() {
    let src = ".fvec mvp[4], light$dir\n.ivec count\n.bool lit, modes[3]\n.fvec _hidden\n\
               .constf k(1.0, 2.0, 3.0, 4.0)\n.in pos v0\n.proc main\n    mov o0, pos\n    end\n.end\n";
    let p = assemble_files(&[("small.v.pica", src)], PICASSO).unwrap();
    assert_eq!(
        p.header(),
        "// Generated by picasso\n#pragma once\n\
         #define VSH_FVEC_mvp 0x00\n#define VSH_ULEN_mvp 4\n\
         #define VSH_FVEC_light$dir 0x04\n#define VSH_ULEN_light$dir 1\n\
         #define VSH_IVEC_count 0x00\n#define VSH_ULEN_count 1\n\
         #define VSH_FLAG_lit BIT(0)\n#define VSH_ULEN_lit 1\n\
         #define VSH_FLAG_modes(_n) BIT(1+(_n))\n#define VSH_ULEN_modes 3\n"
    );
}

#[test]
fn picasso_header_prefix_follows_the_first_dvle() {
    // A compatibility geometry shader (`.gsh` without a mode) first: GSH, and its uniforms are
    // in the shared space.
    let gsh = ".fvec x\n.gsh\n.fvec y\n.proc main\n  setemit 1\n  emit\n  end\n.end\n";
    let vsh = ".fvec q, x\n.proc main2\n mov o0, q\n end\n.end\n.entry main2\n";
    let p = assemble_files(&[("g.pica", gsh), ("v.pica", vsh)], PICASSO).unwrap();
    assert_eq!(
        p.header(),
        "// Generated by picasso\n#pragma once\n\
         #define GSH_FVEC_x 0x00\n#define GSH_ULEN_x 1\n\
         #define GSH_FVEC_y 0x01\n#define GSH_ULEN_y 1\n\
         #define GSH_FVEC_q 0x02\n#define GSH_ULEN_q 1\n\
         #define GSH_FVEC_x 0x00\n#define GSH_ULEN_x 1\n"
    );
}

#[test]
fn picasso_linking_errors_name_the_file() {
    let a = ".fvec y\n.proc main\n mov o0, y\n end\n.end\n";
    let b = ".fvec y[2]\n.proc other\n mov o1, y\n.end\n";
    let e = assemble_files(&[("a.pica", a), ("b.pica", b)], PICASSO).unwrap_err();
    assert_eq!(
        e.to_string(),
        "b.pica:1:7: uniform 'y' was declared with size 1 in an earlier file"
    );
    let b = ".ivec y\n.proc other\n.end\n";
    let e = assemble_files(&[("a.pica", a), ("b.pica", b)], PICASSO).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("b.pica:1:7: mismatched uniform type"),
        "{e}"
    );
    let c = ".proc main\n call nowhere\n end\n.end\n";
    let e = assemble_files(&[("c.pica", c)], PICASSO).unwrap_err();
    assert_eq!(
        e.to_string(),
        "c.pica:2:7: procedure 'nowhere' is undefined"
    );
    // A file without declarations or code makes no DVLE; with nothing else, nothing to write.
    let e = assemble_files(&[("empty.pica", "; nothing\n")], PICASSO).unwrap_err();
    assert!(e.to_string().contains("no DVLEs can be generated"), "{e}");
    // ... but next to another file it is simply skipped.
    let p = assemble_files(&[("empty.pica", "; nothing\n"), ("a.pica", a)], PICASSO).unwrap();
    assert_eq!(p.shbin.dvles.len(), 1);
}

#[test]
fn picasso_labels_and_aliases_are_per_file() {
    // Both files use the label `skip` and the alias `one`; procedures cross files.
    let a = ".constf k(1.0, 1.0, 1.0, 1.0)\n.alias one k\n.proc main\n jmpc cmp.x, skip\n \
             mov o0, one\nskip:\n call helper\n end\n.end\n";
    let b =
        ".nodvle\n.constf k(2.0, 2.0, 2.0, 2.0)\n.alias one k\n.proc helper\n jmpc cmp.y, skip\n \
             mov r0, one\nskip:\n nop\n.end\n";
    let p = assemble_files(&[("a.pica", a), ("b.pica", b)], PICASSO).unwrap();
    // picasso's words: a's jmpc → 2 (its own skip), call helper (4, 3 words); b's jmpc → 6
    // (its own skip); each `one` is its own file's c95.
    assert_eq!(
        p.shbin.code,
        [
            0xB380_0800,
            0x4C07_F000,
            0x9000_1003,
            0x8800_0000,
            0xB3C0_1800,
            0x4E07_F000,
            0x8400_0000
        ]
    );
    assert_eq!(p.shbin.dvles.len(), 1);
}

#[test]
fn picasso_pads_an_empty_procedure_only_after_some_code() {
    // picasso 2.7.1 ("Fix segfault on empty .proc"): no padding while no code exists at all.
    let src = ".proc first\n.end\n.proc main\n    end\n.end\n.proc last\n.end\n";
    let p = assemble_files(&[("empty.v.pica", src)], LABELS).unwrap();
    assert_eq!(p.shbin.code, [0x8800_0000, 0x8400_0000]);
    let d = &p.shbin.dvles[0];
    assert_eq!((d.entry, d.entry_end), (0, 1));
    let sizes: Vec<(&str, u32, Option<u32>)> = d
        .labels
        .iter()
        .map(|l| (l.name.as_str(), l.offset, l.size))
        .collect();
    assert_eq!(
        sizes,
        [
            ("first", 0, Some(0)),
            ("main", 0, Some(1)),
            ("last", 1, Some(1))
        ]
    );
}
