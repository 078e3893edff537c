//! Shader tools end to end: assembler → disassembler → assembler round trips (proptest over
//! random instruction sequences and the bundled example shaders), SHBIN write → parse round
//! trips, and SHBIN parsing of truncated, corrupt and random bytes.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::num::F24;
use pica_model::shader::asm::assemble;
use pica_model::shader::disasm;
use pica_model::shader::shbin::{
    ConstValue, Constant, Dvle, GshMode, Label, Output, Shbin, Uniform,
};
use proptest::prelude::*;
use std::path::Path;

fn examples() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/examples/shaders");
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pica"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

fn round_trip(src: &str, file: &str) -> Shbin {
    let first = assemble(src, file).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let text = disasm::shbin(&first);
    let second = assemble(&text, "disasm.pica").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(first.code, second.code, "code differs\n{text}");
    assert_eq!(first.opdescs, second.opdescs, "opdescs differ\n{text}");
    assert_eq!(first, second, "SHBIN differs\n{text}");
    assert_eq!(first.to_bytes(), second.to_bytes());
    first
}

#[test]
fn shader_examples_round_trip_through_disasm() {
    let ex = examples();
    assert!(ex.len() >= 3);
    for (file, src) in ex {
        let s = round_trip(&src, &file);
        assert_eq!(Shbin::parse(&s.to_bytes()), Ok(s));
    }
}

#[test]
fn shader_lighting_example_uses_every_block_kind() {
    let (_, src) = examples()
        .into_iter()
        .find(|(f, _)| f.ends_with("lighting.v.pica"))
        .unwrap();
    let s = assemble(&src, "lighting.v.pica").unwrap();
    let ops: Vec<u32> = s.code.iter().map(|w| w >> 26).collect();
    for op in [0x24, 0x28, 0x27, 0x29, 0x2E, 0x38, 0x30] {
        assert!(
            ops.iter()
                .any(|o| *o == op || (op >= 0x30 && *o & 0x38 == op)),
            "opcode {op:#x} missing"
        );
    }
    let d = &s.dvles[0];
    assert_eq!(d.input_mask, 0b111);
    // With the (opt-in) label table, the procedures are there by name.
    let labelled = pica_model::shader::asm::assemble_files(
        &[("lighting.v.pica", src.as_str())],
        pica_model::shader::asm::Options {
            labels: true,
            ..Default::default()
        },
    )
    .unwrap();
    let t = labelled.shbin.dvles[0].label("transform");
    assert_eq!(t.map(|l| l.offset), Some(0));
    // .constfa weights[4] with 2 elements: 4 constants, padded with zeros.
    assert_eq!(d.constants.len(), 2 + 4);
}

// ---------------------------------------------------------------------------------------------
// Random instruction sequences

fn swz() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!['x', 'y', 'z', 'w']), 4)
        .prop_map(|v| v.into_iter().collect())
}

fn mask() -> impl Strategy<Value = String> {
    (1u8..16).prop_map(|m| {
        "xyzw"
            .chars()
            .enumerate()
            .filter(|(i, _)| m & (8 >> i) != 0)
            .map(|(_, c)| c)
            .collect()
    })
}

fn dst() -> impl Strategy<Value = String> {
    (prop::bool::ANY, 0u8..7, 0u8..16, mask()).prop_map(|(o, n, r, m)| {
        if o {
            format!("o{n}.{m}")
        } else {
            format!("r{r}.{m}")
        }
    })
}

/// A narrow source: r0-r15, or v0 (only one input register per instruction).
fn narrow() -> impl Strategy<Value = String> {
    (prop::bool::ANY, 0u8..17, swz()).prop_map(|(neg, r, s)| {
        let reg = if r == 16 {
            "v0".to_string()
        } else {
            format!("r{r}")
        };
        format!("{}{reg}.{s}", if neg { "-" } else { "" })
    })
}

fn wide() -> impl Strategy<Value = String> {
    (
        prop::bool::ANY,
        0u8..96,
        0u8..4,
        swz(),
        prop::bool::ANY,
        narrow(),
    )
        .prop_map(|(neg, c, idx, s, use_c, n)| {
            if !use_c {
                return n;
            }
            let ix = ["", "[a0]", "[a1]", "[lcnt]"][usize::from(idx)];
            format!("{}c{c}{ix}.{s}", if neg { "-" } else { "" })
        })
}

fn cond() -> impl Strategy<Value = String> {
    (0u8..4, prop::bool::ANY, prop::bool::ANY).prop_map(|(op, nx, ny)| {
        let x = format!("{}cmp.x", if nx { "!" } else { "" });
        let y = format!("{}cmp.y", if ny { "!" } else { "" });
        match op {
            0 => x,
            1 => y,
            2 => format!("{x} && {y}"),
            _ => format!("{x} || {y}"),
        }
    })
}

fn instr() -> impl Strategy<Value = String> {
    let alu2 = prop::sample::select(vec![
        "add", "dp3", "dp4", "dph", "dst", "mul", "sge", "slt", "max", "min",
    ]);
    let alu2i = prop::sample::select(vec!["dphi", "dsti", "sgei", "slti"]);
    let alu1 = prop::sample::select(vec!["ex2", "lg2", "litp", "flr", "rcp", "rsq", "mov"]);
    let cmpop = prop::sample::select(vec!["eq", "ne", "lt", "le", "gt", "ge", "cond6", "cond7"]);
    let t = 0u16..80;
    prop_oneof![
        (alu2, dst(), wide(), narrow()).prop_map(|(o, d, a, b)| format!("{o} {d}, {a}, {b}")),
        (alu2i, dst(), narrow(), wide()).prop_map(|(o, d, a, b)| format!("{o} {d}, {a}, {b}")),
        (alu1, dst(), wide()).prop_map(|(o, d, a)| format!("{o} {d}, {a}")),
        (
            prop::sample::select(vec!["a0.x", "a0.y", "a0.xy", "a0", "a1", "a01"]),
            wide()
        )
            .prop_map(|(a, s)| format!("mova {a}, {s}")),
        (wide(), cmpop.clone(), cmpop, narrow())
            .prop_map(|(a, x, y, b)| format!("cmp {a}, {x}, {y}, {b}")),
        (dst(), narrow(), wide(), narrow())
            .prop_map(|(d, a, b, c)| format!("mad {d}, {a}, {b}, {c}")),
        (dst(), narrow(), narrow(), wide())
            .prop_map(|(d, a, b, c)| format!("madi {d}, {a}, {b}, {c}")),
        prop::sample::select(vec!["nop", "end", "emit", "break"]).prop_map(str::to_string),
        (0u8..4, 0u8..4).prop_map(|(v, f)| format!(
            "setemit {v}{}",
            ["", ", prim", ", inv", ", prim inv"][usize::from(f)]
        )),
        cond().prop_map(|c| format!("breakc {c}")),
        (cond(), t.clone()).prop_map(|(c, t)| format!("jmpc {c}, {t}")),
        (t.clone(), 0u8..=255).prop_map(|(t, n)| format!("call {t}, {n}")),
        (
            prop::sample::select(vec!["callc", "ifc"]),
            cond(),
            t.clone(),
            0u8..=255
        )
            .prop_map(|(o, c, t, n)| format!("{o} {c}, {t}, {n}")),
        (
            prop::sample::select(vec!["callu", "ifu"]),
            0u8..16,
            t.clone(),
            0u8..=255
        )
            .prop_map(|(o, b, t, n)| format!("{o} b{b}, {t}, {n}")),
        (prop::bool::ANY, 0u8..16, t.clone())
            .prop_map(|(neg, b, t)| format!("jmpu {}b{b}, {t}", if neg { "!" } else { "" })),
        (0u8..4, t).prop_map(|(i, t)| format!("for i{i}, {t}")),
    ]
}

fn program() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(instr(), 0..60),
        prop::collection::vec(instr(), 1..20),
        prop::bool::ANY,
    )
        .prop_map(|(a, b, gsh)| {
            let mut s = String::new();
            if gsh {
                s.push_str(".gsh\n");
            }
            s.push_str(".fvec m[4], pad\n.constf k(1.0, 0.5, -2.0, 0.1)\n.out outpos position\n.out - color o1.xyz\n");
            s.push_str(".proc helper\n");
            for i in &a {
                s += &format!("  {i}\n");
            }
            s.push_str(".end\n.proc main\n");
            for i in &b {
                s += &format!("  {i}\n");
            }
            s.push_str(".end\n");
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn shader_random_programs_round_trip_through_disasm(src in program()) {
        round_trip(&src, "random.pica");
    }

    #[test]
    fn shader_every_word_disassembles_without_panicking(words in prop::collection::vec(any::<u32>(), 0..40), descs in prop::collection::vec(any::<u32>(), 0..10)) {
        let text = disasm::code(&words, &descs);
        // Raw words re-assemble to the same code (the descriptor table is rebuilt, so only
        // descriptor-free words are compared).
        if let Ok(s) = assemble(&text, "raw.pica") {
            for (a, b) in words.iter().zip(&s.code) {
                let op = a >> 26;
                if op >= 0x20 && op != 0x2E && op != 0x2F && op < 0x30 {
                    prop_assert_eq!(a, b);
                }
            }
        }
    }

    #[test]
    fn shader_random_text_never_panics_the_assembler(
        lines in prop::collection::vec(
            prop::collection::vec(
                prop::sample::select(vec![
                    ".proc", ".end", ".else", ".fvec", ".constf", ".constfa", ".alias", ".out", ".in",
                    ".gsh", ".setb", ".setf", ".word", "main", "a", "c95", "r0", "v15", "o7", "b3",
                    "i0", "[", "]", "(", ")", ",", ".", "-", "!", "+", ":", "&&", "||", "cmp.x",
                    "mov", "mad", "ifu", "ifc", "for", "call", "jmpu", "setemit", "1.5", "0x10",
                    "9223372036854775807", "99999", "xyzw", "lcnt", "a0", "end", "prim", "position",
                ]),
                0..10,
            ),
            0..12,
        )
    ) {
        let src: String = lines.iter().map(|l| l.join(" ") + "\n").collect();
        if let Ok(s) = assemble(&src, "fuzz.pica") {
            prop_assert_eq!(Shbin::parse(&s.to_bytes()), Ok(s));
        }
    }

    #[test]
    fn shbin_random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = Shbin::parse(&bytes);
        let mut b = b"DVLB".to_vec();
        b.extend_from_slice(&bytes);
        let _ = Shbin::parse(&b);
    }

    #[test]
    fn shbin_write_parse_round_trip(s in shbin_strategy()) {
        prop_assert_eq!(Shbin::parse(&s.to_bytes()), Ok(s));
    }

    #[test]
    fn shbin_corrupt_bytes_never_panic(s in shbin_strategy(), at in any::<prop::sample::Index>(), v in any::<u8>()) {
        let mut b = s.to_bytes();
        let i = at.index(b.len());
        b[i] = v;
        let _ = Shbin::parse(&b);
    }
}

fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z_][a-zA-Z0-9_]{0,12}"
}

fn dvle_strategy() -> impl Strategy<Value = Dvle> {
    let constant =
        (0u16..96, 0u8..3, any::<[u8; 4]>(), any::<[u32; 4]>()).prop_map(|(reg, t, i, f)| {
            Constant {
                reg,
                value: match t {
                    0 => ConstValue::Bool(i[0] & 1 == 1),
                    1 => ConstValue::Int(i),
                    _ => ConstValue::Float(f.map(|x| F24::from_bits(x & 0xFF_FFFF))),
                },
            }
        });
    let label = (
        any::<u16>(),
        any::<u16>(),
        any::<u32>(),
        prop::option::of(0u32..0xFFFF_FFFE),
        name(),
    )
        .prop_map(|(id, unknown, offset, size, name)| Label {
            id,
            unknown,
            offset,
            size,
            name,
        });
    let output = any::<[u16; 4]>().prop_map(|[semantic, reg, mask, unknown]| Output {
        semantic,
        reg,
        mask,
        unknown,
    });
    let uniform = (name(), any::<u16>(), any::<u16>()).prop_map(|(name, start, end)| Uniform {
        name,
        start,
        end,
    });
    (
        (
            any::<u16>(),
            any::<bool>(),
            any::<bool>(),
            any::<u32>(),
            any::<u32>(),
            any::<u16>(),
            any::<u16>(),
        ),
        (0u8..3, any::<u8>(), any::<u8>(), any::<u8>()),
        prop::collection::vec(constant, 0..5),
        prop::collection::vec(label, 0..4),
        prop::collection::vec(output, 0..5),
        prop::collection::vec(uniform, 0..5),
    )
        .prop_map(
            |(
                (version, geometry, merge_outmaps, entry, entry_end, input_mask, output_mask),
                (m, fs, vn, fnum),
                constants,
                labels,
                outputs,
                uniforms,
            )| Dvle {
                version,
                geometry,
                merge_outmaps,
                entry,
                entry_end,
                input_mask,
                output_mask,
                gsh_mode: [GshMode::Point, GshMode::Variable, GshMode::Fixed][usize::from(m)],
                gsh_fixed_start: fs,
                gsh_variable_num: vn,
                gsh_fixed_num: fnum,
                constants,
                labels,
                outputs,
                uniforms,
            },
        )
}

fn shbin_strategy() -> impl Strategy<Value = Shbin> {
    (
        any::<u32>(),
        prop::collection::vec(any::<u32>(), 0..20),
        prop::collection::vec(any::<u32>(), 0..8),
        prop::collection::vec(dvle_strategy(), 0..3),
    )
        .prop_map(|(dvlp_version, code, opdescs, dvles)| Shbin {
            dvlp_version,
            code,
            opdescs,
            dvles,
        })
}

#[test]
fn shbin_every_truncation_is_a_clear_error() {
    let (file, src) = examples().into_iter().next().unwrap();
    let full = assemble(&src, &file).unwrap();
    let bytes = full.to_bytes();
    for len in 0..bytes.len() {
        match Shbin::parse(&bytes[..len]) {
            // Only the word-alignment padding after the last symbol may go.
            Ok(s) => assert!(s == full && len + 4 > bytes.len(), "{len}"),
            Err(e) => {
                let text = e.to_string();
                assert!(text.starts_with("SHBIN offset 0x"), "{text}");
                assert!(e.offset <= bytes.len());
            }
        }
    }
}

#[test]
fn shbin_corrupt_headers_name_offsets() {
    let (file, src) = examples().into_iter().next().unwrap();
    let good = assemble(&src, &file).unwrap().to_bytes();
    let mut b = good.clone();
    b[0] = b'X';
    assert_eq!(
        Shbin::parse(&b).unwrap_err().to_string(),
        "SHBIN offset 0x0: DVLB header: magic is \"XVLB\", expected \"DVLB\""
    );
    let mut b = good.clone();
    b[4] = 200; // DVLE count
    assert!(Shbin::parse(&b)
        .unwrap_err()
        .to_string()
        .starts_with("SHBIN offset 0x4: DVLB header: 200 DVLEs"));
    let mut b = good.clone();
    b[12 + 0x0C] = 0xFF; // DVLP code size
    assert!(Shbin::parse(&b)
        .unwrap_err()
        .to_string()
        .contains("DVLP code"));
    let dvle = u32::from_le_bytes([good[8], good[9], good[10], good[11]]) as usize;
    let mut b = good.clone();
    b[dvle + 6] = 7;
    assert_eq!(
        Shbin::parse(&b).unwrap_err().to_string(),
        format!(
            "SHBIN offset 0x{:X}: DVLE 0: unknown shader type 7",
            dvle + 6
        )
    );
    let mut b = good;
    b[dvle + 0x3C] = 0xF0; // symbol table size
    assert!(Shbin::parse(&b)
        .unwrap_err()
        .to_string()
        .contains("symbol table"));
}

#[test]
fn shader_tools_nodvle_gives_a_program_without_executables_and_round_trips() {
    use pica_model::shader::{asm::assemble, disasm, shbin::Shbin};
    let src = ".nodvle\n.proc helper\n    mov r0, r1\n    end\n.end\n";
    let s = assemble(src, "lib.pica").unwrap();
    assert!(s.dvles.is_empty());
    assert_eq!(s.code.len(), 2);
    let bytes = s.to_bytes();
    let back = Shbin::parse(&bytes).unwrap();
    assert_eq!(back, s);
    let text = disasm::shbin(&back);
    assert!(text.contains(".nodvle"), "{text}");
    assert_eq!(assemble(&text, "re.pica").unwrap().to_bytes(), bytes);
}
