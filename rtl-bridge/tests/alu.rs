//! The Verilated f24 ALU (`rtl/pica_alu_top.sv`) against the model (`pica_model::shader::alu`,
//! and the rasterizer's f24 operations of `pica_model::rast`): the unary ops over their inputs
//! (see [`UNARY_STRIDE`]), every special-value pair of the binary and ternary ops (div
//! included), and 10^5 random operand sets per op. `pica alu-check` runs the
//! same plans with more coverage (`--exhaustive`, `--random N`).

use pica_rtl_bridge::alu::{self, AluOp, CheckTally, OperandSet, RtlAlu};

/// Operand sets per FFI call.
const BATCH: usize = 1 << 14;
/// Random operand sets per op.
const RANDOM_SETS: u64 = 100_000;
/// The unary ops check every `UNARY_STRIDE`-th input pattern plus every pattern of the edge
/// exponents (see `unary_sets`), not all 2^24: the full sweep of rcp/rsq/ex2/lg2 costs 90-110 s
/// per op on the 2-core machine (one Verilator evaluation evaluates every unit of
/// pica_alu_top, about 5 µs), far over the suite's budget of about a minute.
/// `pica alu-check --op all --exhaustive` does the full sweep (about 9 minutes). This file
/// takes 28-44 s in the test profile.
const UNARY_STRIDE: u32 = 31;

/// Receives batches of operand sets.
type Sink<'a> = &'a mut dyn FnMut(&[OperandSet]);

fn report(op: AluOp, knob: bool, t: &CheckTally) -> String {
    let mut s = format!(
        "{} (max_neg_inf={knob}): {} of {} sets differ",
        op.name(),
        t.mismatches,
        t.sets
    );
    for m in &t.first {
        s.push_str(&format!(
            "\n  a={:06x?} b={:06x?} c={:06x?} rtl={:06x?} model={:06x?}",
            m.a, m.b, m.c, m.rtl, m.model
        ));
    }
    s
}

fn check(rtl: &mut RtlAlu, op: AluOp, knob: bool, plan: &mut dyn FnMut(Sink<'_>)) -> CheckTally {
    let mut t = CheckTally::default();
    plan(&mut |sets| alu::check_batch(rtl, op, knob, sets, 5, &mut t));
    assert_eq!(t.mismatches, 0, "{}", report(op, knob, &t));
    assert!(t.sets > 0);
    t
}

/// The unary plan of the suite: every `UNARY_STRIDE`-th pattern, plus every pattern (both
/// signs) whose exponent is at an edge: 0 (zeros, subnormals), 1 (2^-62 floor), 9 (EX2's
/// tiny-negative edge), 63 and 64 (around 1.0), 69 (EX2 overflow), 126 (largest), 127 (inf,
/// NaNs).
fn unary_sets(op: AluOp, f: &mut dyn FnMut(&[OperandSet])) {
    const EDGE: &[u32] = &[0, 1, 9, 63, 64, 69, 126, 127];
    let mut xs: Vec<u32> = (0..0x100_0000u32).step_by(UNARY_STRIDE as usize).collect();
    for s in 0..2u32 {
        for &e in EDGE {
            xs.extend((0..0x1_0000u32).map(|m| s << 23 | e << 16 | m));
        }
    }
    let sets: Vec<OperandSet> = if op.scalar() {
        xs.iter().map(|&x| ([x, 0, 0, 0], [0; 4], [0; 4])).collect()
    } else {
        xs.chunks(4)
            .map(|c| {
                let g = |i: usize| c.get(i).copied().unwrap_or(0);
                ([g(0), g(1), g(2), g(3)], [0; 4], [0; 4])
            })
            .collect()
    };
    for chunk in sets.chunks(BATCH) {
        f(chunk);
    }
}

#[test]
fn alu_unary_ops_match_the_model() {
    let mut rtl = RtlAlu::new().expect("Verilated ALU");
    for op in [
        AluOp::Rcp,
        AluOp::Rsq,
        AluOp::Ex2,
        AluOp::Lg2,
        AluOp::Flr,
        AluOp::Mova,
        AluOp::Fix12p4,
        AluOp::ColorU8,
        AluOp::Depth16,
        AluOp::Depth24,
        AluOp::Weight,
    ] {
        check(&mut rtl, op, false, &mut |f| unary_sets(op, f));
        check(&mut rtl, op, false, &mut |f| {
            alu::random_plan(op, RANDOM_SETS, 1, BATCH, f)
        });
    }
}

/// The SFU's plan: every `UNARY_STRIDE * SFU_STRIDE_FACTOR`-th pattern and every pattern of
/// the exponents where the iteration starts or ends differently (0 and 127: the constant arms;
/// 63 and 64: around 1.0, where LG2 is near 0 and RSQ's root is near 1; 9: EX2's tiny-negative
/// edge; 69: EX2's overflow), both signs. The SFU is clocked to done for every set (up to 380
/// clocks for LG2), so the plan of the combinational ops would take minutes;
/// `pica alu-check --op lg2_sfu --exhaustive` (and rcp_sfu, rsq_sfu, ex2_sfu, rcp_clip, rcp_tex) sweeps
/// all 2^24.
fn sfu_sets(f: &mut dyn FnMut(&[OperandSet])) {
    const EDGE: &[u32] = &[0, 9, 63, 64, 69, 127];
    let mut xs: Vec<u32> = (0..0x100_0000u32)
        .step_by((UNARY_STRIDE * SFU_STRIDE_FACTOR) as usize)
        .collect();
    for s in 0..2u32 {
        for &e in EDGE {
            xs.extend((0..0x1_0000u32).map(|m| s << 23 | e << 16 | m));
        }
    }
    let sets: Vec<OperandSet> = xs.iter().map(|&x| ([x, 0, 0, 0], [0; 4], [0; 4])).collect();
    for chunk in sets.chunks(BATCH) {
        f(chunk);
    }
}

/// How much sparser than the combinational ops' stride the SFU's strided sweep is.
const SFU_STRIDE_FACTOR: u32 = 8;

#[test]
fn alu_sfu_ops_match_the_model() {
    let mut rtl = RtlAlu::new().expect("Verilated ALU");
    for op in [
        AluOp::RcpSfu,
        AluOp::RsqSfu,
        AluOp::Ex2Sfu,
        AluOp::Lg2Sfu,
        AluOp::RcpClip,
        AluOp::RcpTex,
    ] {
        check(&mut rtl, op, false, &mut |f| sfu_sets(f));
        check(&mut rtl, op, false, &mut |f| {
            alu::random_plan(op, RANDOM_SETS / 10, 1, BATCH, f)
        });
    }
}

#[test]
fn alu_f32_to_f24_matches_the_model() {
    let mut rtl = RtlAlu::new().expect("Verilated ALU");
    let op = AluOp::F32ToF24;
    check(&mut rtl, op, false, &mut |f| {
        alu::random_plan(op, RANDOM_SETS, 1, BATCH, f)
    });
    // Every f32 edge exponent with strided mantissas, both signs.
    check(&mut rtl, op, false, &mut |f| {
        let sets: Vec<OperandSet> = (0..2u32)
            .flat_map(|s| {
                (0..256u32).flat_map(move |e| {
                    (0..0x80_0000u32)
                        .step_by(0x80_0000 / 256)
                        .chain(0..16)
                        .map(move |m| ([s << 31 | e << 23 | m, 0, 0, 0], [0; 4], [0; 4]))
                })
            })
            .collect();
        f(&sets);
    });
}

#[test]
fn alu_binary_ops_match_the_model_on_special_pairs_and_random_operands() {
    let mut rtl = RtlAlu::new().expect("Verilated ALU");
    for op in AluOp::ALL.into_iter().filter(|op| op.arity() > 1) {
        let knobs: &[bool] = if op == AluOp::Max {
            &[false, true]
        } else {
            &[false]
        };
        for &knob in knobs {
            check(&mut rtl, op, knob, &mut |f| alu::special_plan(op, f));
            check(&mut rtl, op, knob, &mut |f| {
                alu::random_plan(op, RANDOM_SETS, 2, BATCH, f)
            });
        }
    }
}

#[test]
fn alu_special_values_of_pica_facts() {
    // A few pica-facts §2 entries through the RTL, spelled out (the sweeps above compare with
    // the model; these pin the hardware facts themselves).
    let mut rtl = RtlAlu::new().expect("Verilated ALU");
    let mut r =
        |op, a: u32, b: u32, knob| rtl.eval(op, knob, [a, 0, 0, 0], [b, 0, 0, 0], [0; 4])[0];
    assert_eq!(r(AluOp::Mul, 0x7F_0000, 0, false), 0, "inf*0 = 0");
    assert_eq!(
        r(AluOp::Rcp, 0x80_0000, 0, false),
        0x7F_0000,
        "rcp(-0) = +inf"
    );
    assert_eq!(
        r(AluOp::Rsq, 0xBF_0000, 0, false),
        0x7F_8000,
        "rsq(-1) = NaN"
    );
    assert_eq!(r(AluOp::Ex2, 0xFF_0000, 0, false), 0, "ex2(-inf) = 0");
    assert_eq!(
        r(AluOp::Lg2, 0x00_0000, 0, false),
        0xFF_0000,
        "lg2(0) = -inf"
    );
    assert_eq!(
        r(AluOp::Lg2, 0xBF_0000, 0, false),
        0x7F_8000,
        "lg2(-1) = NaN"
    );
    assert_eq!(
        r(AluOp::Max, 0, 0x7F_8000, false),
        0x7F_8000,
        "max(0, NaN) = NaN"
    );
    assert_eq!(r(AluOp::Max, 0x7F_8000, 0, false), 0, "max(NaN, 0) = 0");
    assert_eq!(
        r(AluOp::Max, 0, 0xFF_0000, false),
        0,
        "max(0, -inf), knob zero"
    );
    assert_eq!(
        r(AluOp::Max, 0, 0xFF_0000, true),
        0xFF_0000,
        "max(0, -inf), knob neg-inf"
    );
    assert_eq!(
        r(AluOp::Add, 0x7F_0000, 0xFF_0000, false),
        0x7F_8000,
        "inf - inf = NaN"
    );
    // rast::interp::div's special values (its docs).
    assert_eq!(r(AluOp::Div, 0x3F_0000, 0x40_8000, false), 0x3D_5555, "1/3");
    assert_eq!(
        r(AluOp::Div, 0xBF_0000, 0x80_0000, false),
        0xFF_0000,
        "-1/-0 = -inf"
    );
    assert_eq!(r(AluOp::Div, 0, 0, false), 0x7F_8000, "0/0 = NaN");
    assert_eq!(r(AluOp::Div, 0xC1_4000, 0x7F_0000, false), 0, "-5/inf = +0");
    // to_fix12p4: 100.5 px = 1608, NaN = 0, -inf saturates.
    assert_eq!(r(AluOp::Fix12p4, 0x45_9200, 0, false), 1608);
    assert_eq!(r(AluOp::Fix12p4, 0x7F_8000, 0, false), 0);
    assert_eq!(r(AluOp::Fix12p4, 0xFF_0000, 0, false), (-0x8000i32) as u32);
    assert_eq!(r(AluOp::ColorU8, 0x3E_0000, 0, false), 128, "0.5 -> 128");
    assert_eq!(r(AluOp::Depth24, 0x3E_FFFF, 0, false), 0xFF_FF7F);
    assert_eq!(r(AluOp::Depth16, 0x3F_0000, 0, false), 0xFFFF);
}

#[test]
fn alu_rtl_has_no_injected_bug_defines() {
    // The injected bugs (INJECT_*) belong to the stage tops (pica_top today, the shader unit
    // next); the ALU modules must behave the same in every variant, so none may read one.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("rtl/") {
        let p = e.expect("entry").path();
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with("pica_f24_") || name.starts_with("pica_alu_") {
            let text = std::fs::read_to_string(&p).expect("read");
            assert!(!text.contains("INJECT_"), "{name} reads an INJECT_* define");
            n += 1;
        }
    }
    assert!(
        n >= 12,
        "expected the 11 pica_f24_* files and pica_alu_top.sv, found {n}"
    );
}
