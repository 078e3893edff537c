//! Interpreter tests (pica-facts §1–2), bit-exact.

use super::*;
use crate::shader::interp::{Cmp67, Commit, HangKind, IntZ};
use Opcode::*;

const X: [f64; 4] = [1.0, 2.0, 3.0, 4.0];
const Y: [f64; 4] = [0.5, -1.0, 2.0, 8.0];

/// Runs `op o0, v0, v1` (or the 1i form with c0 second) on X and Y and returns o0.
fn binop(op: Opcode, d: OpDesc) -> [u32; 4] {
    let mut p = Prog::new();
    let s2 = match op.format() {
        Format::F1i => "c0",
        Format::F1u => "",
        _ => "v1",
    };
    p.uniform(0, v4(Y));
    p.alu_d(op, "o0", "v0", s2, d, RelIndex::None).end();
    let (u, end, _) = p.run(&[v4(X), v4(Y)]);
    assert_eq!(end, RunEnd::End);
    bits(u.outputs()[0])
}

fn fb(x: [f64; 4]) -> [u32; 4] {
    bits(v4(x))
}

#[test]
fn interp_each_alu_opcode_ordinary_values() {
    let id = OpDesc::IDENTITY;
    assert_eq!(binop(Add, id), fb([1.5, 1.0, 5.0, 12.0]));
    assert_eq!(binop(Mul, id), fb([0.5, -2.0, 6.0, 32.0]));
    // dp3 = 0.5 - 2 + 6 = 4.5; dp4 = 36.5; dph = 4.5 + 8 = 12.5.
    assert_eq!(binop(Dp3, id), fb([4.5; 4]));
    assert_eq!(binop(Dp4, id), fb([36.5; 4]));
    assert_eq!(binop(Dph, id), fb([12.5; 4]));
    assert_eq!(binop(Dphi, id), fb([12.5; 4]));
    // dst = (1, x.y*y.y, x.z, y.w)
    assert_eq!(binop(Opcode::Dst, id), fb([1.0, -2.0, 3.0, 8.0]));
    assert_eq!(binop(Dsti, id), fb([1.0, -2.0, 3.0, 8.0]));
    assert_eq!(binop(Sge, id), fb([1.0, 1.0, 1.0, 0.0]));
    assert_eq!(binop(Sgei, id), fb([1.0, 1.0, 1.0, 0.0]));
    assert_eq!(binop(Slt, id), fb([0.0, 0.0, 0.0, 1.0]));
    assert_eq!(binop(Slti, id), fb([0.0, 0.0, 0.0, 1.0]));
    assert_eq!(binop(Max, id), fb([1.0, 2.0, 3.0, 8.0]));
    assert_eq!(binop(Min, id), fb([0.5, -1.0, 2.0, 4.0]));
    // Unary ops read x only where pica-facts says so.
    assert_eq!(binop(Rcp, id), fb([1.0; 4]));
    assert_eq!(binop(Rsq, id), fb([1.0; 4]));
    assert_eq!(binop(Ex2, id), fb([2.0; 4]));
    assert_eq!(binop(Lg2, id), fb([0.0; 4]));
    assert_eq!(binop(Mov, id), fb(X));
    assert_eq!(binop(Flr, id), fb(X));
}

#[test]
fn interp_rcp_rsq_read_component_x_only() {
    // .yzwx swizzle: x lane reads 2.0 -> rcp 0.5, rsq(2) 0x3E6A09 to every lane.
    let d = desc("xyzw", ["yzwx", "xyzw", "xyzw"]);
    assert_eq!(binop(Rcp, d), fb([0.5; 4]));
    assert_eq!(binop(Rsq, d), [0x3E_6A09; 4]);
    // Other components of the source do not matter (NaN there changes nothing).
    let mut p = Prog::new();
    p.alu(Rcp, "o0", "v0", "").alu(Rsq, "o1", "v0", "").end();
    let (u, ..) = p.run(&[[f(4.0), F24::NAN, F24::NAN, F24::NAN]]);
    assert_eq!(bits(u.outputs()[0]), fb([0.25; 4]));
    assert_eq!(bits(u.outputs()[1]), fb([0.5; 4]));
}

#[test]
fn interp_masks_swizzles_and_negation() {
    // Mask xz only: y and w keep their previous value (0).
    assert_eq!(
        binop(Add, desc("xz", ["xyzw", "xyzw", "xyzw"])),
        fb([1.5, 0.0, 5.0, 0.0])
    );
    // Swizzle src1 .wzyx, src2 .xxxx.
    assert_eq!(
        binop(Add, desc("xyzw", ["wzyx", "x", "xyzw"])),
        fb([4.5, 3.5, 2.5, 1.5])
    );
    // Negation on each source.
    assert_eq!(
        binop(Add, desc("xyzw", ["-xyzw", "xyzw", "xyzw"])),
        fb([-0.5, -3.0, -1.0, 4.0])
    );
    assert_eq!(
        binop(Add, desc("xyzw", ["xyzw", "-xyzw", "xyzw"])),
        fb([0.5, 3.0, 1.0, -4.0])
    );
    // Third source negation: mad v0*v1 - v0.
    let mut p = Prog::new();
    p.mad(
        Mad,
        "o0",
        ["v0", "v1", "v0"],
        desc("xyzw", ["xyzw", "xyzw", "-xyzw"]),
    )
    .end();
    let (u, ..) = p.run(&[v4(X), v4(Y)]);
    assert_eq!(bits(u.outputs()[0]), fb([-0.5, -4.0, 3.0, 28.0]));
}

#[test]
fn interp_mad_and_madi() {
    let mut p = Prog::new();
    p.uniform(5, v4([10.0; 4]));
    p.mad(Mad, "o0", ["v0", "c5", "v1"], OpDesc::IDENTITY)
        .mad(Madi, "o1", ["v0", "v1", "c5"], OpDesc::IDENTITY)
        .end();
    let (u, ..) = p.run(&[v4(X), v4(Y)]);
    assert_eq!(bits(u.outputs()[0]), fb([10.5, 19.0, 32.0, 48.0]));
    assert_eq!(bits(u.outputs()[1]), fb([10.5, 8.0, 16.0, 42.0]));
    // inf*0 = 0 inside MAD.
    let (u, ..) = p.run(&[[F24::INFINITY; 4], [F24::ZERO; 4]]);
    assert_eq!(bits(u.outputs()[1]), fb([10.0; 4]));
}

#[test]
fn interp_litp() {
    let mut p = Prog::new();
    p.alu(Litp, "o0", "v0", "").end();
    let (u, ..) = p.run(&[v4([-1.0, 200.0, 5.0, 2.0])]);
    assert_eq!(bits(u.outputs()[0]), [0, 0x45_FFFC, 0, 0x40_0000]);
    assert_eq!(u.cmp, [false, true]);
    let (u, ..) = p.run(&[v4([3.0, -200.0, 5.0, -2.0])]);
    assert_eq!(bits(u.outputs()[0]), [0x40_8000, 0xC5_FFFC, 0, 0]);
    assert_eq!(u.cmp, [true, false]);
}

#[test]
fn interp_mova_truncates_and_double_mova_hangs() {
    // MOVA of 0.9 gives 0, -1.5 gives -1; then c[1 + a0.y] via relative addressing.
    let mut p2 = Prog::new();
    p2.alu(Mova, "o0", "v0", "").plain(Opcode::Nop).end();
    let (u, end, _) = p2.run(&[v4([0.875, -1.5, 0.0, 0.0])]);
    assert_eq!(end, RunEnd::End);
    assert_eq!(u.a0, [0, -1]);
    // Mask x only leaves a0.y.
    let mut p3 = Prog::new();
    p3.alu_d(Mova, "o0", "v0", "", desc("x", ["xyzw"; 3]), RelIndex::None)
        .end();
    let (u, ..) = p3.run(&[v4([-3.5, 9.0, 0.0, 0.0])]);
    assert_eq!(u.a0, [-3, 0]);
    // Back to back hangs, naming the second MOVA.
    let mut p4 = Prog::new();
    p4.alu(Mova, "o0", "v0", "").alu(Mova, "o0", "v0", "").end();
    let (_, end, _) = p4.run(&[]);
    match end {
        RunEnd::Hang(h) => assert_eq!((h.kind, h.pc), (HangKind::DoubleMova, 1)),
        e => panic!("{e:?}"),
    }
}

#[test]
fn interp_relative_addressing_table_base_c40() {
    // pica-facts §1: offset -> register read (None = ones).
    let table: [(f64, Option<usize>); 14] = [
        (0.0, Some(40)),
        (13.0, Some(53)),
        (50.0, Some(90)),
        (60.0, None),
        (74.0, None),
        (87.0, None),
        (88.0, Some(0)),
        (128.0, Some(40)),
        (-40.0, Some(0)),
        (-42.0, None),
        (-70.0, None),
        (-73.0, Some(95)),
        (-127.0, Some(41)),
        (-129.0, Some(40)),
    ];
    let mut p = Prog::new();
    for n in 0..96 {
        p.uniform(n, [F24::from_f64_trunc(n as f64 + 100.0); 4]);
    }
    p.alu(Mova, "o0", "v0", "")
        .alu_d(Mov, "o0", "c40", "", OpDesc::IDENTITY, RelIndex::A0X)
        .end();
    for (offset, want) in table {
        let (u, ..) = p.run(&[v4([offset, 0.0, 0.0, 0.0])]);
        let want = want.map_or(F24::ONE, |n| F24::from_f64_trunc(n as f64 + 100.0));
        assert_eq!(bits(u.outputs()[0]), [want.bits(); 4], "offset {offset}");
    }
    // Relative addressing on a non-constant register is ignored.
    let mut p = Prog::new();
    p.alu(Mova, "o0", "v1", "")
        .alu_d(Mov, "o0", "v0", "", OpDesc::IDENTITY, RelIndex::A0X)
        .end();
    let (u, ..) = p.run(&[v4(X), v4([1.0; 4])]);
    assert_eq!(bits(u.outputs()[0]), fb(X));
}

#[test]
fn interp_cmp_every_condition_and_condop() {
    let cases = [
        (CmpOp::Eq, [false, true]),
        (CmpOp::Ne, [true, false]),
        (CmpOp::Lt, [true, false]),
        (CmpOp::Le, [true, true]),
        (CmpOp::Gt, [false, false]),
        (CmpOp::Ge, [false, true]),
        (CmpOp::Op6, [true, true]),
        (CmpOp::Op7, [true, true]),
    ];
    for (op, want) in cases {
        let mut p = Prog::new();
        p.cmp("v0", op, op, "v1").end();
        // x: 1 vs 2, y: 2 vs 2.
        let (u, ..) = p.run(&[v4([1.0, 2.0, 0.0, 0.0]), v4([2.0, 2.0, 0.0, 0.0])]);
        assert_eq!(u.cmp, want, "{op:?}");
        let knobs = Knobs {
            cmp67: Cmp67::False,
            ..Knobs::default()
        };
        let (u, ..) = p.run_knobs(&[v4([1.0; 4]), v4([2.0; 4])], knobs);
        if matches!(op, CmpOp::Op6 | CmpOp::Op7) {
            assert_eq!(u.cmp, [false, false]);
        }
    }
    // CMP does not flush subnormals: cmp(s, 0) EQ is false.
    let mut p = Prog::new();
    p.cmp("v0", CmpOp::Eq, CmpOp::Eq, "v1").end();
    let (u, ..) = p.run(&[[F24::from_bits(0xFFFF); 4], [F24::ZERO; 4]]);
    assert_eq!(u.cmp, [false, false]);
    // Each CONDOP through JMPC: flags (x, y) = (true, false) via cmp 1<2 LT, 2<2 LT.
    for (op, rx, ry, taken) in [
        (CondOp::Or, false, false, true),
        (CondOp::Or, false, true, false),
        (CondOp::And, true, false, true),
        (CondOp::And, true, true, false),
        (CondOp::X, true, true, true),
        (CondOp::X, false, false, false),
        (CondOp::Y, true, false, true),
        (CondOp::Y, true, true, false),
    ] {
        let mut p = Prog::new();
        let cond = Condition {
            op,
            ref_x: rx,
            ref_y: ry,
        };
        p.cmp("v0", CmpOp::Lt, CmpOp::Lt, "v1")
            .flow(Jmpc, cond, 4, 0)
            .alu(Mov, "o0", "v0", "")
            .end()
            .alu(Mov, "o0", "v1", "")
            .end();
        let (u, ..) = p.run(&[v4([1.0, 2.0, 0.0, 0.0]), v4([2.0, 2.0, 0.0, 0.0])]);
        let got = u.outputs()[0][0] == f(2.0);
        assert_eq!(got, taken, "{op:?} {rx} {ry}");
    }
}

#[test]
fn interp_if_else_and_loop() {
    // ifu b0: 1: mov o0, c0 ; else 2: mov o0, c1
    let mut p = Prog::new();
    p.uniform(0, v4([1.0; 4])).uniform(1, v4([2.0; 4]));
    p.flow_u(Ifu, 0, 2, 1) // 0: if b0 { 1 } else { 2 }
        .alu(Mov, "o0", "c0", "") // 1
        .alu(Mov, "o0", "c1", "") // 2
        .end(); // 3
    p.cfg.bool_uniforms = 1;
    let (u, ..) = p.run(&[]);
    assert_eq!(bits(u.outputs()[0]), fb([1.0; 4]));
    p.cfg.bool_uniforms = 0;
    let (u, ..) = p.run(&[]);
    assert_eq!(bits(u.outputs()[0]), fb([2.0; 4]));
    // loop i0 (x=3 -> 4 iterations, y=2, z=3): r0 += c[aL]; aL = 2, 5, 8, 11.
    let mut p = Prog::new();
    for n in 0..16 {
        p.uniform(n, [F24::from_f64_trunc(n as f64); 4]);
    }
    p.cfg.int_uniforms[0] = [3, 2, 3, 0];
    p.flow_u(Loop, 0, 1, 0)
        .alu_d(Add, "r0", "c0", "r0", OpDesc::IDENTITY, RelIndex::AL)
        .alu(Mov, "o0", "r0", "")
        .end();
    let (u, end, _) = p.run(&[]);
    assert_eq!(end, RunEnd::End);
    assert_eq!(bits(u.outputs()[0]), fb([26.0; 4]));
    assert_eq!(u.al, 14);
    // Signed i.z (UNVERIFIED knob): z = 0xFF steps by -1.
    p.cfg.int_uniforms[0] = [1, 5, 0xFF, 0];
    let knobs = Knobs {
        int_z: IntZ::Signed,
        ..Knobs::default()
    };
    let (u, ..) = p.run_knobs(&[], knobs);
    assert_eq!(bits(u.outputs()[0]), fb([9.0; 4]));
}

#[test]
fn interp_break_and_breakc() {
    // BREAK on an empty loop stack hangs.
    let mut p = Prog::new();
    p.plain(Opcode::Nop).plain(Break).end();
    let (_, end, _) = p.run(&[]);
    assert!(matches!(end, RunEnd::Hang(h) if h.kind == HangKind::BreakEmptyLoopStack && h.pc == 1));
    // BREAKC (false condition) on an empty stack does not hang.
    let never = Condition {
        op: CondOp::And,
        ref_x: true,
        ref_y: true,
    };
    let mut p = Prog::new();
    p.flow(Breakc, never, 0, 0).end();
    assert_eq!(p.run(&[]).1, RunEnd::End);
    // Break out of a 256-iteration loop after the first body instruction.
    let mut p = Prog::new();
    p.cfg.int_uniforms[1] = [255, 0, 1, 0];
    p.uniform(0, v4([1.0; 4]));
    p.flow_u(Loop, 1, 2, 0) // 0
        .alu(Add, "r1", "c0", "r1") // 1
        .plain(Break) // 2
        .alu(Mov, "o0", "r1", "") // 3
        .end();
    let (u, end, _) = p.run(&[]);
    assert_eq!(end, RunEnd::End);
    assert_eq!(bits(u.outputs()[0]), fb([1.0; 4]));
    assert!(u.loop_stack.is_empty());
}

/// `depth` nested CALLs whose single-word bodies are the next CALL, so all entries match in
/// a chain when the innermost body (r0 += 1) ends: word 10*i holds "call 10*(i+1), 1", word
/// 10*i+1 "mov o1, c0; end"; main at 0 is "call 10, 1; mov o0, r0; end".
fn nested_calls(depth: u16) -> (ShaderUnit, RunEnd) {
    let mut p = Prog::new();
    p.uniform(0, v4([1.0; 4]));
    p.flow(Call, Condition::default(), 10, 1)
        .alu(Mov, "o0", "r0", "")
        .end();
    for i in 1..=depth {
        while p.pc() < 10 * i {
            p.plain(Opcode::Nop);
        }
        if i < depth {
            p.flow(Call, Condition::default(), 10 * (i + 1), 1)
                .alu(Mov, "o1", "c0", "")
                .end();
        } else {
            p.alu(Add, "r0", "c0", "r0");
        }
    }
    let (u, end, _) = p.run(&[]);
    (u, end)
}

#[test]
fn interp_call_stack_pops_all_matching_and_fourth_pop_bug() {
    // Depth 3: the three entries pop in one chain (41 is not used; 31 -> 21 -> 11 -> 1) and
    // execution resumes in main at word 1.
    let (u, end) = nested_calls(3);
    assert_eq!(end, RunEnd::End);
    assert_eq!(bits(u.outputs()[0]), fb([1.0; 4]));
    assert_eq!(bits(u.outputs()[1]), fb([0.0; 4]));
    assert!(u.call_stack.is_empty());
    // Depth 4: four pops in a row; the fourth update (11 -> 1) is lost, so execution resumes
    // at word 11 (the third update): o1 is written, o0 is not (3dbrew "Control Flow").
    let (u, end) = nested_calls(4);
    assert_eq!(end, RunEnd::End);
    assert!(u.call_stack.is_empty());
    assert_eq!(bits(u.outputs()[1]), fb([1.0; 4]));
    assert_eq!(bits(u.outputs()[0]), fb([0.0; 4]));
    // Depth 5: the outermost entry was dropped (4 deep), the chain stops after 4 pops at the
    // lost update: word 21.
    let (u, end) = nested_calls(5);
    assert_eq!(end, RunEnd::End);
    assert_eq!(bits(u.outputs()[1]), fb([1.0; 4]));
}

#[test]
fn interp_loop_stack_is_four_deep_and_drops_oldest() {
    // Five nested loops (2 iterations each) L0..L4 at words 0-4, L4 the innermost: Lk's body
    // ends at word 9-k... words 5-9 each add 1 to r0. With infinite depth word 5 runs 32
    // times, 6: 16, 7: 8, 8: 4, 9: 2 = 62 adds. With 4 entries L0 is dropped when L4 is pushed
    // and never repeats: 31 adds.
    let mut p = Prog::new();
    p.uniform(0, v4([1.0; 4]));
    p.cfg.int_uniforms[0] = [1, 0, 0, 0];
    for k in 0..5u16 {
        p.flow_u(Loop, 0, 9 - k, 0);
    }
    for _ in 5..10 {
        p.alu(Add, "r0", "c0", "r0");
    }
    p.alu(Mov, "o0", "r0", "").end();
    let (u, end, _) = p.run(&[]);
    assert_eq!(end, RunEnd::End);
    assert_eq!(u.outputs()[0][0], f(31.0));
    assert_eq!(
        (
            crate::shader::interp::CALL_STACK_DEPTH,
            crate::shader::interp::IF_STACK_DEPTH,
            crate::shader::interp::LOOP_STACK_DEPTH
        ),
        (4, 8, 4)
    );
}

#[test]
fn interp_if_stack_overflow_drops_oldest() {
    // 9 nested IFU (true) all with the same DST (10) and NUM 0: each pop resumes at 10, one
    // per instruction; word 10 onwards counts how many pops happen by r0 += 1 per pass...
    // Observable: the ring keeps 8 entries.
    let mut p = Prog::new();
    p.cfg.bool_uniforms = 1;
    for _ in 0..9 {
        p.flow_u(Ifu, 0, 20, 0);
    }
    p.end();
    let cfg = p.config();
    let mut u = ShaderUnit::new(Knobs::default());
    u.start(0);
    let mut em = Vec::new();
    for _ in 0..9 {
        u.step(&cfg, None, &mut em);
    }
    assert_eq!(u.if_stack.entries().len(), 8);
}

#[test]
fn interp_pc_past_end_knob() {
    let mut p = Prog::new();
    p.plain(Opcode::Nop);
    let cfg = {
        let mut c = p.config();
        c.code.iter_mut().for_each(|w| *w = 0x8400_0000); // all NOP
        c
    };
    let mut u = ShaderUnit::new(Knobs::default());
    let mut em = Vec::new();
    let end = u.run(&cfg, 4000, 1000, &mut em);
    assert!(matches!(end, RunEnd::Hang(h) if h.kind == HangKind::PcPastEnd && h.pc == 4095));
    let mut u = ShaderUnit::new(Knobs {
        pc_overflow: crate::shader::interp::PcOverflow::Wrap,
        ..Knobs::default()
    });
    assert_eq!(u.run(&cfg, 4000, 1000, &mut em), RunEnd::Limit);
}

#[test]
fn interp_unknown_opcode_hangs_by_default() {
    let mut p = Prog::new();
    p.word(0x10 << 26).end();
    assert!(matches!(p.run(&[]).1, RunEnd::Hang(h) if h.kind == HangKind::UnknownOpcode));
    let k = Knobs {
        unknown_op: crate::shader::interp::UnknownOp::Nop,
        ..Knobs::default()
    };
    assert_eq!(p.run_knobs(&[], k).1, RunEnd::End);
}

fn setemit(p: &mut Prog, vtx: u8, winding: bool, prim: bool) {
    p.push(Instruction::SetEmit {
        vtx_id: vtx,
        winding,
        prim_emit: prim,
    });
}

#[test]
fn interp_gs_strip_with_alternating_winding() {
    // Emit a strip of 4 vertices (2 triangles): v0..v3 positions; slots rotate 0,1,2 and the
    // second triangle reuses slots with winding set (the slot buffer is not cleared).
    let mut p = Prog::new();
    setemit(&mut p, 0, false, false);
    p.alu(Mov, "o0", "v0", "").plain(Emit);
    setemit(&mut p, 1, false, false);
    p.alu(Mov, "o0", "v1", "").plain(Emit);
    setemit(&mut p, 2, false, true);
    p.alu(Mov, "o0", "v2", "").plain(Emit);
    // Fourth vertex into slot 0 with winding: triangle (slot1, slot0, slot2) = (v1, v3, v2).
    setemit(&mut p, 0, true, true);
    p.alu(Mov, "o0", "v3", "").plain(Emit).end();
    let vs = [0.0, 1.0, 2.0, 3.0].map(|x| v4([x, 0.0, 0.0, 1.0]));
    let (_, end, em) = p.run(&vs);
    assert_eq!(end, RunEnd::End);
    assert_eq!(em.len(), 4);
    let tris: Vec<[u32; 3]> = em
        .iter()
        .filter_map(|e| e.primitive.map(|t| t.map(|v| v[0][0].bits())))
        .collect();
    assert_eq!(
        tris,
        [
            [f(0.0).bits(), f(1.0).bits(), f(2.0).bits()],
            [f(1.0).bits(), f(3.0).bits(), f(2.0).bits()]
        ]
    );
    assert!(!em[2].winding && em[3].winding);
}

#[test]
fn interp_gs_outputs_are_double_banked() {
    // o1 written once before the first EMIT, o0 every time. Emit 1 sees o1 = A; emit 2 (o1 not
    // rewritten since emit 1) sees the other bank's o1 (0, from two emits back = never);
    // emit 3 sees A again.
    let mut p = Prog::new();
    p.alu(Mov, "o1", "v1", "");
    for _ in 0..3 {
        p.alu(Mov, "o0", "v0", "").plain(Emit);
    }
    p.end();
    let (_, _, em) = p.run(&[v4(X), v4(Y)]);
    let o1: Vec<[u32; 4]> = em.iter().map(|e| bits(e.outputs[1])).collect();
    assert_eq!(o1, [fb(Y), fb([0.0; 4]), fb(Y)]);
    assert!(em.iter().all(|e| bits(e.outputs[0]) == fb(X)));
}

/// Runs `p` with commits on and checks that the run agrees with a plain run.
fn commits_of(p: &Prog, inputs: &[[F24; 4]]) -> (RunEnd, Vec<Commit>) {
    let cfg = p.config();
    let mut u = ShaderUnit::new(Knobs::default());
    u.inputs[..inputs.len()].copy_from_slice(inputs);
    let mut plain = u.clone();
    let (mut em, mut em2, mut commits) = (Vec::new(), Vec::new(), Vec::new());
    let end = u.run_commits(&cfg, 0, 10_000, &mut em, &mut commits);
    assert_eq!(plain.run(&cfg, 0, 10_000, &mut em2), end);
    assert_eq!(u.outputs(), plain.outputs());
    assert_eq!(commits.len() as u64, u.executed);
    (end, commits)
}

#[test]
fn interp_commit_records_alu_write_and_end() {
    let mut p = Prog::new();
    p.alu_d(
        Add,
        "r3",
        "v0",
        "v1",
        desc("xz", ["xyzw"; 3]),
        RelIndex::None,
    )
    .alu(Mov, "o1", "r3", "")
    .end();
    let (end, c) = commits_of(&p, &[v4(X), v4(Y)]);
    assert_eq!(end, RunEnd::End);
    assert_eq!(c.len(), 3);
    assert_eq!(
        (c[0].pc, c[0].dst, c[0].mask, c[0].next_pc),
        (0, 0x13, 0xA, 1)
    );
    assert_eq!(c[0].result, [f(1.5).bits(), 0, f(5.0).bits(), 0]);
    assert_eq!((c[1].dst, c[1].mask), (0x01, 0xF));
    assert_eq!(c[1].result, c[0].result);
    assert_eq!(c[2].dst, Commit::NO_DST);
    assert!(c[2].end && c[2].next_pc == 2 && c[2].hang == 0);
    assert_eq!(c[2].word, p.config().code[2]);
}

#[test]
fn interp_commit_records_mova_cmp_and_hangs() {
    let mut p = Prog::new();
    p.cmp("v0", CmpOp::Lt, CmpOp::Gt, "v1")
        .alu(Mova, "o0", "v1", "")
        .alu(Mova, "o0", "v0", "")
        .end();
    let (end, c) = commits_of(&p, &[v4(X), v4([-2.5, 3.75, 0.0, 0.0])]);
    assert!(matches!(end, RunEnd::Hang(_)));
    // cmp.x = 1 < -2.5 false, cmp.y = 2 > 3.75 false.
    assert_eq!((c[0].cmp, c[0].dst), (0, Commit::NO_DST));
    assert_eq!((c[1].a0x, c[1].a0y, c[1].dst), (-2, 3, Commit::NO_DST));
    assert_eq!((c[2].hang, c[2].next_pc, c[2].a0x), (2, 2, -2));
    let mut q = Prog::new();
    q.plain(Break);
    let (_, c) = commits_of(&q, &[]);
    assert_eq!((c.len(), c[0].hang, c[0].next_pc), (1, 1, 0));
    let mut r = Prog::new();
    r.word(0x10 << 26);
    let (_, c) = commits_of(&r, &[]);
    assert_eq!(c[0].hang, HangKind::UnknownOpcode.commit_code());
}

#[test]
fn interp_commit_records_emit_and_loop_counter() {
    let mut p = Prog::new();
    p.flow_u(Loop, 0, 1, 0)
        .alu(Mov, "o0", "v0", "")
        .plain(Emit)
        .end();
    let mut cfg_prog = p;
    cfg_prog.cfg.int_uniforms[0] = [1, 10, 3, 0];
    let (end, c) = commits_of(&cfg_prog, &[v4(X)]);
    assert_eq!(end, RunEnd::End);
    // LOOP, MOV (aL 10 -> 13, back to 1), MOV (13 -> 16, falls through), EMIT, END.
    assert_eq!(c.len(), 5);
    assert_eq!((c[0].al, c[0].next_pc), (10, 1));
    assert_eq!((c[1].al, c[1].next_pc), (13, 1));
    assert_eq!((c[2].al, c[2].next_pc), (16, 2));
    assert!(c[3].emit && !c[3].end);
}
