//! ISA tests: the table, round trips on every opcode, totality of `decode`.

use super::*;
use proptest::prelude::*;

fn v(n: u8) -> SrcReg {
    SrcReg::input(n).unwrap()
}
fn r(n: u8) -> SrcReg {
    SrcReg::temp(n).unwrap()
}
fn c(n: u8) -> SrcReg {
    SrcReg::uniform(n).unwrap()
}

#[test]
fn isa_table_is_in_declaration_order_and_codes_do_not_overlap() {
    let mut seen = [false; 64];
    for (i, info) in OPCODES.iter().enumerate() {
        assert_eq!(info.op as usize, i, "{}", info.mnemonic);
        assert_eq!(info.op.info().mnemonic, info.mnemonic);
        for c in info.code..info.code + info.span {
            assert!(!seen[usize::from(c)], "code {c:#x} twice");
            seen[usize::from(c)] = true;
            assert_eq!(Opcode::from_code(c), Some(info.op));
        }
        assert_eq!(
            Opcode::from_mnemonic(&info.mnemonic.to_uppercase()),
            Some(info.op)
        );
    }
    // pica-facts §1: exactly these codes are unknown.
    let unknown: Vec<u8> = (0..64).filter(|&c| !seen[usize::from(c)]).collect();
    assert_eq!(
        unknown,
        [0x10, 0x11, 0x14, 0x15, 0x16, 0x17, 0x1C, 0x1D, 0x1E, 0x1F]
    );
}

/// A well-formed instruction of `op` with every field non-trivial.
fn sample(op: Opcode) -> Instruction {
    let dst = DstReg::temp(5).unwrap();
    match op.format() {
        Format::F1 => Instruction::Alu {
            op,
            dst,
            src1: c(40),
            src2: r(3),
            idx: RelIndex::A0Y,
            desc: 0x55,
        },
        Format::F1i => Instruction::Alu {
            op,
            dst: DstReg::output(7).unwrap(),
            src1: v(9),
            src2: c(95),
            idx: RelIndex::AL,
            desc: 0x7F,
        },
        Format::F1u => Instruction::Alu {
            op,
            dst,
            src1: c(1),
            src2: SrcReg::default(),
            idx: RelIndex::A0X,
            desc: 3,
        },
        Format::F1c => Instruction::Cmp {
            src1: c(17),
            src2: v(15),
            idx: RelIndex::A0X,
            cmp_x: CmpOp::Ge,
            cmp_y: CmpOp::Op7,
            desc: 0x41,
        },
        Format::F5 | Format::F5i => Instruction::Mad {
            op,
            dst: DstReg::output(15).unwrap(),
            src1: r(15),
            src2: if op == Opcode::Mad { c(90) } else { v(2) },
            src3: if op == Opcode::Mad { r(1) } else { c(33) },
            idx: RelIndex::A0Y,
            desc: 31,
        },
        Format::F2 => Instruction::Flow {
            op,
            cond: Condition {
                op: CondOp::And,
                ref_x: true,
                ref_y: false,
            },
            target: 0xABC,
            num: 0x5A,
        },
        Format::F3 => Instruction::FlowUniform {
            op,
            id: 13,
            target: 0xFFF,
            num: 0xA5,
        },
        Format::F4 => Instruction::SetEmit {
            vtx_id: 2,
            winding: true,
            prim_emit: true,
        },
        Format::F0 => Instruction::Plain(op),
    }
}

#[test]
fn isa_round_trip_every_opcode() {
    for info in OPCODES {
        let inst = sample(info.op);
        assert!(inst.is_well_formed(), "{inst:?}");
        let word = encode(&inst);
        assert_eq!(decode(word), inst, "{} {word:#010x}", info.mnemonic);
        assert_eq!(
            Opcode::from_code(inst.code()),
            Some(info.op),
            "{}",
            info.mnemonic
        );
        assert_eq!(word & !info.format.used_mask(), 0, "{}", info.mnemonic);
    }
}

#[test]
fn isa_known_words() {
    // mov o0, v0 (desc 0): opcode 0x13, DST o0 = 0, SRC1 v0 = 0.
    assert_eq!(
        encode(&Instruction::Alu {
            op: Opcode::Mov,
            dst: DstReg::output(0).unwrap(),
            src1: v(0),
            src2: SrcReg::default(),
            idx: RelIndex::None,
            desc: 0
        }),
        0x4C00_0000
    );
    assert_eq!(encode(&Instruction::Plain(Opcode::End)), 0x8800_0000);
    assert_eq!(encode(&Instruction::Plain(Opcode::Nop)), 0x8400_0000);
    // MAD and CMP: the whole 3-bit/5-bit opcode field, every code decodes the same.
    for low in 0..8u32 {
        assert!(matches!(
            decode((0x38 | low) << 26),
            Instruction::Mad {
                op: Opcode::Mad,
                ..
            }
        ));
        assert!(matches!(
            decode((0x30 | low) << 26),
            Instruction::Mad {
                op: Opcode::Madi,
                ..
            }
        ));
    }
    // Bit 26 of a CMP word is the top bit of CMPX.
    assert!(matches!(
        decode(0x2F << 26),
        Instruction::Cmp {
            cmp_x: CmpOp::Gt,
            ..
        }
    ));
    assert_eq!(decode(0x10 << 26), Instruction::Unknown(0x4000_0000));
    assert_eq!(decode(0x7FFF_FFFF), Instruction::Unknown(0x7FFF_FFFF));
}

#[test]
fn isa_opdesc_fields() {
    // 3dbrew: swizzle 0x1B = .xyzw; mask bit 3 = x.
    let d = OpDesc::new(
        DestMask(0b1010),
        [
            (true, Swizzle::parse("wzyx").unwrap()),
            (false, Swizzle::parse(".x").unwrap()),
            (true, Swizzle::IDENTITY),
        ],
    );
    assert_eq!(d.dest_mask().to_string(), "xz");
    assert!(d.negate(1) && !d.negate(2) && d.negate(3));
    assert_eq!(d.swizzle(1).0, 0xE4);
    assert_eq!(d.swizzle(2).0, 0x00);
    assert_eq!(d.swizzle(3), Swizzle::IDENTITY);
    assert_eq!(d.0, 0b1010 | 1 << 4 | 0xE4 << 5 | 1 << 22 | 0x1B << 23);
    assert_eq!(
        OpDesc::IDENTITY.0,
        0xF | 0x1B << 5 | 0x1B << 14 | 0x1B << 23
    );
    assert_eq!(Swizzle(0x1B).to_string(), "xyzw");
    assert_eq!(Swizzle::parse("xy").unwrap().to_string(), "xyyy");
    assert_eq!(DestMask::parse("xw"), Some(DestMask(0b1001)));
    assert_eq!(DestMask::parse("wx"), None);
}

#[test]
fn isa_register_names() {
    assert_eq!(SrcReg::from_name("c95"), Some(SrcReg::from_raw(0x7F)));
    assert_eq!(SrcReg::from_name("c96"), None);
    assert_eq!(SrcReg::from_name("r16"), None);
    assert_eq!(SrcReg::from_raw(0x2A).to_string(), "c10");
    assert_eq!(DstReg::from_name("O15"), Some(DstReg::from_raw(15)));
    assert_eq!(DstReg::from_raw(0x13).to_string(), "r3");
    assert_eq!(DstReg::from_name("v1"), None);
}

#[test]
fn isa_condition_ops() {
    let cond = |op, ref_x, ref_y| Condition { op, ref_x, ref_y };
    for (x, y) in [(false, false), (false, true), (true, false), (true, true)] {
        assert_eq!(cond(CondOp::Or, true, true).eval(x, y), x || y);
        assert_eq!(cond(CondOp::And, true, false).eval(x, y), x && !y);
        assert_eq!(cond(CondOp::X, false, true).eval(x, y), !x);
        assert_eq!(cond(CondOp::Y, false, true).eval(x, y), y);
    }
}

proptest! {
    #[test]
    fn isa_decode_is_total_and_reencodes(word in any::<u32>()) {
        let inst = decode(word);
        prop_assert_eq!(encode(&inst), word & used_mask(word));
        prop_assert_eq!(decode(encode(&inst)), inst);
    }
}

#[test]
fn isa_format_fields_do_not_overlap_and_leave_the_opcode_alone() {
    for f in Format::ALL {
        let mut seen = f.opcode_field().mask();
        for b in f.fields() {
            assert_eq!(
                seen & b.mask(),
                0,
                "format {}: {} overlaps",
                f.name(),
                b.name
            );
            seen |= b.mask();
        }
    }
}

#[test]
fn isa_used_masks_match_pica_facts_layouts() {
    // Written out from pica-facts §1 "Field layouts", independently of the field table.
    let op6 = 0xFC00_0000;
    let expect = [
        (Format::F0, op6),
        (Format::F1, op6 | 0x03FF_FFFF),
        (Format::F1i, op6 | 0x03FF_FFFF),
        (Format::F1u, op6 | 0x7F | 0x03FF_F000),
        (Format::F1c, 0xFFFF_FFFF),
        (Format::F2, op6 | 0xFF | 0x03FF_FC00),
        (Format::F3, op6 | 0xFF | 0x03FF_FC00),
        (Format::F4, op6 | 0x03C0_0000),
        (Format::F5, 0xFFFF_FFFF),
        (Format::F5i, 0xFFFF_FFFF),
    ];
    for (f, m) in expect {
        assert_eq!(f.used_mask(), m, "format {}", f.name());
    }
}

#[test]
fn isa_sv_package_names_every_opcode_and_field() {
    let pkg = sv::sv_package();
    assert!(pkg.starts_with("// Generated from model/src/shader/isa.rs"));
    for info in OPCODES {
        let line = format!(
            "OP_{:<8} = 6'h{:02X};",
            info.mnemonic.to_ascii_uppercase(),
            info.code
        );
        assert!(pkg.contains(&line), "missing {line}");
    }
    assert!(pkg.contains("localparam int F1I_SRC2_LSB = 7;  localparam int F1I_SRC2_W = 7;"));
    assert!(pkg.contains("localparam int F5_OPCODE3_LSB = 29;"));
    assert!(pkg.contains("localparam int DESC_SWZ3_LSB = 23;  localparam int DESC_SWZ3_W = 8;"));
    assert!(pkg.contains("localparam logic [63:0] CODES_FMT5   = 64'hFF00000000000000;"));
    assert!(pkg.trim_end().ends_with("endpackage : pica_isa_pkg"));
}
