//! The assembler's default output is the SHBIN devkitPro's picasso 2.7.1 writes, byte for byte.
//!
//! Two checks:
//!
//! - **Golden files** (`tests/picasso/*.shbin`, `*.h`): picasso 2.7.1's SHBIN and `-h` header for
//!   the project's own sources (`vectors/examples/shaders/*.pica`, `tests/picasso/*.pica`);
//!   provenance in `tests/picasso/README.md`. [`assemble_files`] with the default [`Options`]
//!   must write the same bytes.
//! - **Picasso's layout**: every SHBIN the default options write here is compared with the image
//!   [`picasso_image`] builds from the parsed tables by the rules of picasso's writer
//!   (`source/picasso_frontend.cpp`, `main`), written again here independently of
//!   `Shbin::to_bytes`: no label table (offset = the output table's, count 0), the symbol table
//!   = the DVLE's uniform names (`$` → `.`, `_names` left out) in register order, each followed
//!   by a NUL, the DVLE padded to a word. A label table or label symbols coming back fails it.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use pica_model::shader::asm::{assemble_files, Options, Program};
use pica_model::shader::shbin::{ConstValue, Shbin};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/picasso")
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/examples/shaders")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn asm(files: &[PathBuf]) -> Program {
    let srcs: Vec<(String, String)> = files
        .iter()
        .map(|p| (p.display().to_string(), read(p)))
        .collect();
    let refs: Vec<(&str, &str)> = srcs.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    assemble_files(&refs, Options::default()).unwrap()
}

fn put16(o: &mut Vec<u8>, v: u16) {
    o.extend_from_slice(&v.to_le_bytes());
}

fn put32(o: &mut Vec<u8>, v: u32) {
    o.extend_from_slice(&v.to_le_bytes());
}

/// The file picasso 2.7.1's writer (`picasso_frontend.cpp`) lays out for these tables.
fn picasso_image(s: &Shbin) -> Vec<u8> {
    // picasso: dvlpSize = 10*4 + progSize*4 + g_opdescCount*8.
    let prog = s.code.len() as u32;
    let ops = s.opdescs.len() as u32;
    let dvlp_size = 40 + 4 * prog + 8 * ops;
    let symbols = |d: &pica_model::shader::shbin::Dvle| -> Vec<u8> {
        let mut v = Vec::new();
        for u in &d.uniforms {
            v.extend_from_slice(u.name.as_bytes());
            v.push(0);
        }
        v
    };
    let mut o = Vec::new();
    o.extend_from_slice(b"DVLB");
    put32(&mut o, s.dvles.len() as u32);
    // DVLE offsets: header, constants (20 bytes), outputs (8), uniforms (8), symbols, aligned.
    let mut cur = 8 + 4 * s.dvles.len() as u32 + dvlp_size;
    for d in &s.dvles {
        put32(&mut o, cur);
        cur += 64 + 20 * d.constants.len() as u32 + 8 * d.outputs.len() as u32;
        cur += 8 * d.uniforms.len() as u32 + symbols(d).len() as u32;
        cur = (cur + 3) & !3;
    }
    o.extend_from_slice(b"DVLP");
    for w in [0, 40, prog, 40 + 4 * prog, ops, dvlp_size, 0, 0, 0] {
        put32(&mut o, w);
    }
    for w in &s.code {
        put32(&mut o, *w);
    }
    for w in &s.opdescs {
        put32(&mut o, *w);
        put32(&mut o, 0);
    }
    for d in &s.dvles {
        let sym = symbols(d);
        o.extend_from_slice(b"DVLE");
        put16(&mut o, 0x1002);
        o.push(u8::from(d.geometry));
        o.push(u8::from(d.merge_outmaps));
        put32(&mut o, d.entry);
        put32(&mut o, d.entry_end);
        put16(&mut o, d.input_mask);
        put16(&mut o, d.output_mask);
        o.extend_from_slice(&[
            d.gsh_mode.byte(),
            d.gsh_fixed_start,
            d.gsh_variable_num,
            d.gsh_fixed_num,
        ]);
        let consts = 64 + 20 * d.constants.len() as u32;
        let unifs = consts + 8 * d.outputs.len() as u32;
        let syms = unifs + 8 * d.uniforms.len() as u32;
        for w in [
            64,
            d.constants.len() as u32,
            // "offset to label table (TODO)", "size of label table (TODO)": always empty.
            consts,
            0,
            consts,
            d.outputs.len() as u32,
            unifs,
            d.uniforms.len() as u32,
            syms,
            sym.len() as u32,
        ] {
            put32(&mut o, w);
        }
        for c in &d.constants {
            // UTYPE_BOOL 0, UTYPE_IVEC 1, UTYPE_FVEC 2 (picasso.h); bool and ivec padded with
            // three zero words.
            match c.value {
                ConstValue::Bool(b) => {
                    put16(&mut o, 0);
                    put16(&mut o, c.reg);
                    put32(&mut o, u32::from(b));
                    o.extend_from_slice(&[0; 12]);
                }
                ConstValue::Int(v) => {
                    put16(&mut o, 1);
                    put16(&mut o, c.reg);
                    o.extend_from_slice(&v);
                    o.extend_from_slice(&[0; 12]);
                }
                ConstValue::Float(v) => {
                    put16(&mut o, 2);
                    put16(&mut o, c.reg);
                    for f in v {
                        put32(&mut o, f.bits());
                    }
                }
            }
        }
        for out in &d.outputs {
            put16(&mut o, out.semantic);
            put16(&mut o, out.reg);
            put16(&mut o, out.mask);
            put16(&mut o, 0);
        }
        let mut sp = 0u32;
        for u in &d.uniforms {
            put32(&mut o, sp);
            sp += u.name.len() as u32 + 1;
            put16(&mut o, u.start);
            put16(&mut o, u.end);
        }
        o.extend_from_slice(&sym);
        while o.len() % 4 != 0 {
            o.push(0);
        }
    }
    o
}

/// `bytes` is laid out as picasso lays out the tables it holds, and the tables are the kind
/// picasso writes.
fn check_picasso_layout(what: &str, bytes: &[u8]) {
    let s = Shbin::parse(bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    for (i, d) in s.dvles.iter().enumerate() {
        assert!(d.labels.is_empty(), "{what}: DVLE {i} has a label table");
        // picasso sorts the uniform table by register (std::sort on Uniform::pos).
        assert!(
            d.uniforms.windows(2).all(|w| w[0].start < w[1].start),
            "{what}: DVLE {i}: uniform table not sorted by register"
        );
        for u in &d.uniforms {
            assert!(
                !u.name.contains('$') && !u.name.starts_with('_') && !u.name.is_empty(),
                "{what}: DVLE {i}: symbol {:?}",
                u.name
            );
        }
    }
    assert_eq!(picasso_image(&s), bytes, "{what}: not picasso's layout");
}

/// (golden name, sources) for every golden file.
fn goldens() -> Vec<(&'static str, Vec<PathBuf>)> {
    let ex = |n: &str| examples().join(n);
    let own = |n: &str| dir().join(n);
    vec![
        ("vshader.v", vec![ex("vshader.v.pica")]),
        ("lighting.v", vec![ex("lighting.v.pica")]),
        ("geometry.g", vec![ex("geometry.g.pica")]),
        ("tables.v", vec![own("tables.v.pica")]),
        (
            "linked",
            vec![
                own("tables.v.pica"),
                own("particle.g.pica"),
                own("subdiv.g.pica"),
            ],
        ),
    ]
}

#[test]
fn picasso_goldens_are_reproduced_byte_for_byte() {
    for (name, files) in goldens() {
        let p = asm(&files);
        let bytes = p.shbin.to_bytes();
        let want = std::fs::read(dir().join(format!("{name}.shbin"))).unwrap();
        assert!(bytes == want, "{name}.shbin: the assembler's bytes differ");
        assert_eq!(
            p.header(),
            read(&dir().join(format!("{name}.h"))),
            "{name}.h"
        );
        check_picasso_layout(name, &want);
    }
}

#[test]
fn picasso_goldens_cover_every_table() {
    // The goldens exercise what picasso's writer handles: all three constant types, outputs
    // with masks, inputs, `$` and `_` names, a symbol table that needs padding, several DVLEs
    // (fixed and variable geometry modes, the merge flag).
    let s = Shbin::parse(&std::fs::read(dir().join("linked.shbin")).unwrap()).unwrap();
    let (v, g1, g2) = (&s.dvles[0], &s.dvles[1], &s.dvles[2]);
    let kinds = |d: &pica_model::shader::shbin::Dvle| {
        let mut k = [false; 3];
        for c in &d.constants {
            k[match c.value {
                ConstValue::Bool(_) => 0,
                ConstValue::Int(_) => 1,
                ConstValue::Float(_) => 2,
            }] = true;
        }
        k
    };
    assert_eq!(kinds(v), [true, true, true]);
    assert!(v.uniform("light.dir").is_some() && v.uniform("inorm.w").is_some());
    let sym: usize = v.uniforms.iter().map(|u| u.name.len() + 1).sum();
    assert_ne!(sym % 4, 0);
    assert!(v.outputs.iter().any(|o| o.mask != 0xF));
    assert!(g1.geometry && g1.merge_outmaps && g1.gsh_fixed_num == 4);
    assert!(g2.geometry && g2.gsh_variable_num == 3);
}

#[test]
fn picasso_layout_of_the_default_output() {
    // Sources beyond the goldens, written by the default options; each must be laid out as
    // picasso lays it out (and so has no label table).
    let sources: &[&[(&str, &str)]] = &[
        &[(
            "plain.v.pica",
            ".proc main\n    mov o0, v0\n    end\n.end\n.proc other\n    nop\n.end\n",
        )],
        &[(
            "compat.g.pica",
            ".gsh\n.fvec x\n.out p position\n.proc main\n    setemit 0, prim\n    mov p, x\n    \
             emit\n    end\n.end\n",
        )],
        &[
            (
                "a.v.pica",
                ".fvec ab, abc\n.in i v1\n.out o position\n.proc main\n    call lib\n    mov o, \
                 ab\n    end\n.end\n",
            ),
            (
                "lib.pica",
                ".nodvle\n.fvec abc\n.proc lib\n    add r0, abc, r0\n.end\n",
            ),
        ],
    ];
    for files in sources {
        let p = assemble_files(files, Options::default()).unwrap();
        check_picasso_layout(files[0].0, &p.shbin.to_bytes());
    }
    for (name, files) in goldens() {
        check_picasso_layout(name, &asm(&files).shbin.to_bytes());
    }
}

#[test]
fn labels_are_opt_in_and_only_add_the_label_table() {
    for (name, files) in goldens() {
        let srcs: Vec<(String, String)> = files
            .iter()
            .map(|p| (p.display().to_string(), read(p)))
            .collect();
        let refs: Vec<(&str, &str)> = srcs.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        let plain = assemble_files(&refs, Options::default()).unwrap().shbin;
        let labelled = assemble_files(
            &refs,
            Options {
                labels: true,
                ..Options::default()
            },
        )
        .unwrap()
        .shbin;
        assert!(
            labelled.dvles.iter().all(|d| !d.labels.is_empty()),
            "{name}"
        );
        assert_ne!(labelled.to_bytes(), plain.to_bytes(), "{name}");
        let mut stripped = labelled.clone();
        for d in &mut stripped.dvles {
            d.labels.clear();
        }
        assert_eq!(stripped, plain, "{name}");
    }
}
