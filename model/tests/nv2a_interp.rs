//! The NV2A interpreter: every MAC and ILU operation with its special cases (bit patterns, never
//! tolerances), paired MAC+ILU slots, relative addressing, errors that name the slot, and the
//! bundled example programs end to end.

#![allow(clippy::unwrap_used)]

use pica_model::nv2a::disasm::program_text;
use pica_model::nv2a::{
    Config, IluOp, MacOp, Machine, PairedR1, Program, RunError, Slot, Source, Subnormals, Syntax,
    Unit, Vec4, ZeroTimes,
};
use std::path::{Path, PathBuf};

const INF: f32 = f32::INFINITY;

fn bits(v: Vec4) -> [u32; 4] {
    v.map(f32::to_bits)
}

fn b4(v: [f32; 4]) -> [u32; 4] {
    bits(v)
}

/// v0 and c0 of the operation tests.
const V0: Vec4 = [1.5, -2.0, 0.25, 4.0];
const C0: Vec4 = [2.0, 3.0, -4.0, 0.5];

fn machine() -> Machine {
    let mut m = Machine::default();
    m.inputs[0] = V0;
    m.consts[0] = C0;
    m
}

/// Runs one final slot on `m` and returns oPos.
fn run_on(m: &mut Machine, slot: Slot) -> Vec4 {
    let p = Program::from_slots(vec![slot.last()]).unwrap();
    m.run(&p, 0).unwrap();
    m.outputs[0]
}

/// MAC op with A = v0, B = c0, C = v0, result to oPos.
fn mac(op: MacOp) -> [u32; 4] {
    let s = Slot::mac(op)
        .a(Source::input())
        .b(Source::constant())
        .c(Source::input())
        .out(0, "xyzw", Unit::Mac);
    bits(run_on(&mut machine(), s))
}

/// ILU op on C = `c` (in v0), result to oPos.
fn ilu_cfg(cfg: Config, op: IluOp, c: Vec4) -> [u32; 4] {
    let mut m = Machine::new(cfg);
    m.inputs[0] = c;
    let s = Slot::ilu(op).c(Source::input()).out(0, "xyzw", Unit::Ilu);
    bits(run_on(&mut m, s))
}

fn ilu(op: IluOp, c: Vec4) -> [u32; 4] {
    ilu_cfg(Config::default(), op, c)
}

fn scalar(op: IluOp, x: f32) -> u32 {
    let r = ilu(op, [x, 0.0, 0.0, 0.0]);
    assert!(r.iter().all(|c| *c == r[0]), "{op:?} replicates: {r:x?}");
    r[0]
}

#[test]
fn nv2a_mac_mov_mul_add_mad() {
    assert_eq!(mac(MacOp::Mov), b4(V0));
    assert_eq!(mac(MacOp::Mul), b4([3.0, -6.0, -1.0, 2.0]));
    // ADD reads A and C.
    assert_eq!(mac(MacOp::Add), b4([3.0, -4.0, 0.5, 8.0]));
    // MAD: A*B + C.
    assert_eq!(mac(MacOp::Mad), b4([4.5, -8.0, -0.75, 6.0]));
}

#[test]
fn nv2a_mac_dot_products_and_dst() {
    assert_eq!(mac(MacOp::Dp3), b4([-4.0; 4]));
    assert_eq!(mac(MacOp::Dph), b4([-3.5; 4]));
    assert_eq!(mac(MacOp::Dp4), b4([-2.0; 4]));
    assert_eq!(mac(MacOp::Dst), b4([1.0, -6.0, 0.25, 0.5]));
}

#[test]
fn nv2a_mac_min_max_slt_sge() {
    assert_eq!(mac(MacOp::Min), b4([1.5, -2.0, -4.0, 0.5]));
    assert_eq!(mac(MacOp::Max), b4([2.0, 3.0, 0.25, 4.0]));
    assert_eq!(mac(MacOp::Slt), b4([1.0, 1.0, 0.0, 0.0]));
    assert_eq!(mac(MacOp::Sge), b4([0.0, 0.0, 1.0, 1.0]));
}

#[test]
fn nv2a_mac_arl_floors_into_a0() {
    for (x, want) in [
        (1.5f32, 1),
        (-2.5, -3),
        (-0.0, 0),
        (f32::NAN, 0),
        (1e20, i32::MAX),
    ] {
        let mut m = machine();
        m.inputs[0] = [x, 0.0, 0.0, 0.0];
        // ARL writes no vector: the output write that selects it writes nothing.
        let out = run_on(
            &mut m,
            Slot::mac(MacOp::Arl)
                .a(Source::input())
                .out(0, "xyzw", Unit::Mac),
        );
        assert_eq!(m.a0, want, "ARL {x}");
        assert_eq!(bits(out), b4([0.0, 0.0, 0.0, 1.0]));
        assert!(!m.outputs_written[0]);
    }
}

#[test]
fn nv2a_mac_special_cases() {
    let mut m = machine();
    m.inputs[0] = [0.0, -0.0, INF, f32::NAN];
    m.consts[0] = [INF, f32::NAN, 0.0, 2.0];
    let s = Slot::mac(MacOp::Mul)
        .a(Source::input())
        .b(Source::constant())
        .out(0, "xyzw", Unit::Mac);
    // Zero times anything is +0 (default knob); NaN * 2 is the canonical NaN.
    assert_eq!(bits(run_on(&mut m, s)), [0, 0, 0, 0x7FFF_FFFF]);
    let mut m = Machine::new(Config {
        zero_times: ZeroTimes::Ieee,
        ..Config::default()
    });
    m.inputs[0] = [0.0, -0.0, -3.0, f32::MAX];
    m.consts[0] = [INF, 5.0, 0.0, 2.0];
    assert_eq!(
        bits(run_on(&mut m, s)),
        [0x7FFF_FFFF, 0x8000_0000, 0x8000_0000, INF.to_bits()]
    );
    // inf + -inf is NaN; MIN/MAX with NaN select B; SLT with NaN is 0, SGE 1.
    let mut m = machine();
    m.inputs[0] = [INF, f32::NAN, -0.0, 1.0];
    m.consts[0] = [-INF, 7.0, 0.0, f32::NAN];
    let add = Slot::mac(MacOp::Add)
        .a(Source::input())
        .c(Source::constant());
    assert_eq!(
        bits(run_on(&mut m, add.out(0, "xyzw", Unit::Mac)))[0],
        0x7FFF_FFFF
    );
    let two = |op| {
        let mut m = machine();
        m.inputs[0] = [INF, f32::NAN, -0.0, 1.0];
        m.consts[0] = [-INF, 7.0, 0.0, f32::NAN];
        bits(run_on(
            &mut m,
            Slot::mac(op)
                .a(Source::input())
                .b(Source::constant())
                .out(0, "xyzw", Unit::Mac),
        ))
    };
    assert_eq!(
        two(MacOp::Min),
        [(-INF).to_bits(), 7.0f32.to_bits(), 0, 0x7FC0_0000]
    );
    assert_eq!(
        two(MacOp::Max),
        [INF.to_bits(), 7.0f32.to_bits(), 0, 0x7FC0_0000]
    );
    // -0 < +0 (default knob).
    assert_eq!(two(MacOp::Slt), b4([0.0, 0.0, 1.0, 0.0]));
    assert_eq!(two(MacOp::Sge), b4([1.0, 1.0, 0.0, 1.0]));
}

#[test]
fn nv2a_mac_dp4_rounds_each_step() {
    let mut m = machine();
    m.inputs[0] = [0.1, 0.2, 0.0, 0.0];
    m.consts[0] = [0.1, 0.3, 0.0, 0.0];
    let s = Slot::mac(MacOp::Dp4)
        .a(Source::input())
        .b(Source::constant())
        .out(0, "x", Unit::Mac);
    // (0.1*0.1 + 0.2*0.3) with each product and sum rounded to binary32.
    assert_eq!(run_on(&mut m, s)[0].to_bits(), 0x3D8F_5C29);
}

#[test]
fn nv2a_ilu_mov_rcp_rcc_rsq() {
    assert_eq!(ilu(IluOp::Mov, V0), b4(V0));
    assert_eq!(scalar(IluOp::Rcp, 4.0), 0.25f32.to_bits());
    assert_eq!(scalar(IluOp::Rcp, 1.0), 1.0f32.to_bits());
    assert_eq!(scalar(IluOp::Rcp, 3.0), 0x3EAA_AAAB);
    assert_eq!(scalar(IluOp::Rcp, 0.0), INF.to_bits());
    assert_eq!(scalar(IluOp::Rcp, -0.0), (-INF).to_bits());
    assert_eq!(scalar(IluOp::Rcp, -INF), 0x8000_0000);
    assert_eq!(scalar(IluOp::Rcp, f32::NAN), 0x7FFF_FFFF);
    assert_eq!(scalar(IluOp::Rcc, 2.0), 0.5f32.to_bits());
    assert_eq!(scalar(IluOp::Rcc, 0.0), 0x5F80_0000);
    assert_eq!(scalar(IluOp::Rcc, -0.0), 0xDF80_0000);
    assert_eq!(scalar(IluOp::Rcc, INF), 0x1F80_0000);
    assert_eq!(scalar(IluOp::Rcc, -INF), 0x9F80_0000);
    assert_eq!(scalar(IluOp::Rcc, 1e-30), 0x5F80_0000);
    assert_eq!(scalar(IluOp::Rcc, -1e30), 0x9F80_0000);
    assert_eq!(scalar(IluOp::Rcc, f32::NAN), 0x7FFF_FFFF);
    assert_eq!(scalar(IluOp::Rsq, 4.0), 0.5f32.to_bits());
    assert_eq!(scalar(IluOp::Rsq, -4.0), 0.5f32.to_bits());
    assert_eq!(scalar(IluOp::Rsq, 2.0), 0x3F35_04F3);
    assert_eq!(scalar(IluOp::Rsq, -1.0), 1.0f32.to_bits());
    assert_eq!(scalar(IluOp::Rsq, -0.0), INF.to_bits());
    assert_eq!(scalar(IluOp::Rsq, -INF), 0);
}

#[test]
fn nv2a_ilu_scalar_ops_read_the_x_swizzle_of_c() {
    let mut m = machine();
    m.inputs[0] = [9.0, 9.0, 4.0, 9.0];
    let s = Slot::ilu(IluOp::Rcp)
        .c(Source::input().swz("zxxx"))
        .out(0, "xyzw", Unit::Ilu);
    assert_eq!(bits(run_on(&mut m, s)), b4([0.25; 4]));
}

#[test]
fn nv2a_ilu_exp_partial_precision() {
    assert_eq!(
        ilu(IluOp::Exp, [2.5, 0.0, 0.0, 0.0]),
        [
            4.0f32.to_bits(),
            0.5f32.to_bits(),
            0x40B5_0055,
            1.0f32.to_bits()
        ]
    );
    assert_eq!(
        ilu(IluOp::Exp, [-0.5, 0.0, 0.0, 0.0]),
        [
            0.5f32.to_bits(),
            0.5f32.to_bits(),
            0x3F35_0055,
            1.0f32.to_bits()
        ]
    );
    // y = x - floor(x) rounds: -0.1 + 1 = 0x3F666666.
    assert_eq!(
        ilu(IluOp::Exp, [-0.1, 0.0, 0.0, 0.0]),
        [0.5f32.to_bits(), 0x3F66_6666, 0x3F6E_E13A, 1.0f32.to_bits()]
    );
    // Integers are exact powers of two in x and z.
    assert_eq!(
        ilu(IluOp::Exp, [-3.0, 0.0, 0.0, 0.0]),
        b4([0.125, 0.0, 0.125, 1.0])
    );
    assert_eq!(
        ilu(IluOp::Exp, [-149.0, 0.0, 0.0, 0.0]),
        [1, 0, 1, 1.0f32.to_bits()]
    );
    assert_eq!(
        ilu(IluOp::Exp, [200.0, 0.0, 0.0, 0.0]),
        b4([INF, 0.0, INF, 1.0])
    );
    assert_eq!(
        ilu(IluOp::Exp, [-INF, 0.0, 0.0, 0.0]),
        [0, 0x7FFF_FFFF, 0, 1.0f32.to_bits()]
    );
    assert_eq!(
        ilu(IluOp::Exp, [f32::NAN, 0.0, 0.0, 0.0]),
        [0x7FFF_FFFF, 0x7FFF_FFFF, 0x7FFF_FFFF, 1.0f32.to_bits()]
    );
}

#[test]
fn nv2a_ilu_log_partial_precision() {
    assert_eq!(
        ilu(IluOp::Log, [8.0, 0.0, 0.0, 0.0]),
        b4([3.0, 1.0, 3.0, 1.0])
    );
    assert_eq!(
        ilu(IluOp::Log, [-6.0, 0.0, 0.0, 0.0]),
        [
            2.0f32.to_bits(),
            1.5f32.to_bits(),
            0x4025_6F88,
            1.0f32.to_bits()
        ]
    );
    assert_eq!(
        ilu(IluOp::Log, [3.0, 0.0, 0.0, 0.0]),
        [
            1.0f32.to_bits(),
            1.5f32.to_bits(),
            0x3FCA_DF10,
            1.0f32.to_bits()
        ]
    );
    // LOG(0) = -inf, with y = 1.
    assert_eq!(
        ilu(IluOp::Log, [-0.0, 0.0, 0.0, 0.0]),
        b4([-INF, 1.0, -INF, 1.0])
    );
    assert_eq!(
        ilu(IluOp::Log, [INF, 0.0, 0.0, 0.0]),
        b4([INF, 1.0, INF, 1.0])
    );
    assert_eq!(
        ilu(IluOp::Log, [f32::NAN, 0.0, 0.0, 0.0]),
        [0x7FFF_FFFF, 0x7FFF_FFFF, 0x7FFF_FFFF, 1.0f32.to_bits()]
    );
    // Subnormals are normalised (default knob) or flushed to zero.
    assert_eq!(
        ilu(IluOp::Log, [f32::from_bits(1), 0.0, 0.0, 0.0]),
        b4([-149.0, 1.0, -149.0, 1.0])
    );
    let flush = Config {
        subnormals: Subnormals::Flush,
        ..Config::default()
    };
    assert_eq!(
        ilu_cfg(flush, IluOp::Log, [f32::from_bits(1), 0.0, 0.0, 0.0]),
        b4([-INF, 1.0, -INF, 1.0])
    );
}

#[test]
fn nv2a_ilu_lit() {
    // power(0.25, 2) = 2^(2 * -2) exactly.
    assert_eq!(
        ilu(IluOp::Lit, [0.5, 0.25, 9.0, 2.0]),
        b4([1.0, 0.5, 0.0625, 1.0])
    );
    assert_eq!(
        ilu(IluOp::Lit, [0.5, 0.5, 9.0, 1.5]),
        [
            1.0f32.to_bits(),
            0.5f32.to_bits(),
            0x3EB5_0055,
            1.0f32.to_bits()
        ]
    );
    assert_eq!(
        ilu(IluOp::Lit, [1.0, 3.0, 0.0, 2.0]),
        [
            1.0f32.to_bits(),
            1.0f32.to_bits(),
            0x4110_015C,
            1.0f32.to_bits()
        ]
    );
    // x <= 0: no specular; x and y clamp at 0.
    assert_eq!(
        ilu(IluOp::Lit, [-1.0, 0.5, 0.0, 2.0]),
        b4([1.0, 0.0, 0.0, 1.0])
    );
    // 0^0 = 1; 0^positive = 0; 0^negative = inf; the exponent clamps at ±(128 - 1/256).
    assert_eq!(
        ilu(IluOp::Lit, [1.0, -1.0, 0.0, 0.0]),
        b4([1.0, 1.0, 1.0, 1.0])
    );
    assert_eq!(
        ilu(IluOp::Lit, [1.0, 0.0, 0.0, 3.0]),
        b4([1.0, 1.0, 0.0, 1.0])
    );
    assert_eq!(
        ilu(IluOp::Lit, [1.0, 0.0, 0.0, -3.0]),
        b4([1.0, 1.0, INF, 1.0])
    );
    // 0.5^200 clamps to 0.5^127.99609375 = 2^-127.99609375 (subnormal).
    let r = ilu(IluOp::Lit, [1.0, 0.5, 0.0, 200.0]);
    let clamped = ilu(IluOp::Lit, [1.0, 0.5, 0.0, 127.996_09]);
    assert_eq!(r, clamped);
    assert_eq!(
        ilu(IluOp::Lit, [1.0, 2.0, 0.0, 200.0])[2],
        ilu(IluOp::Lit, [1.0, 2.0, 0.0, 127.996_09])[2]
    );
}

#[test]
fn nv2a_paired_slot_reads_before_writes_and_ilu_goes_to_r1() {
    let mut m = machine();
    m.temps[3] = [4.0, 5.0, 6.0, 8.0];
    // MUL R3.xyz, R3, c0 + RCP R1.w, R3.w ; the RCP sees R3 before the MUL writes it.
    let s = Slot::mac(MacOp::Mul)
        .with_ilu(IluOp::Rcp)
        .a(Source::temp(3))
        .b(Source::constant())
        .c(Source::temp(3).swz("w"))
        .mac_to(3, "xyz")
        .ilu_to(3, "w");
    let p = Program::from_slots(vec![s.last()]).unwrap();
    m.run(&p, 0).unwrap();
    assert_eq!(bits(m.temps[3]), b4([8.0, 15.0, -24.0, 8.0]));
    assert_eq!(bits(m.temps[1]), b4([0.0, 0.0, 0.0, 0.125]));
    // Unpaired, the ILU writes the temporary field's register.
    let mut m = machine();
    m.temps[3] = [4.0, 5.0, 6.0, 8.0];
    let s = Slot::ilu(IluOp::Rcp)
        .c(Source::temp(3).swz("w"))
        .ilu_to(3, "w");
    m.run(&Program::from_slots(vec![s.last()]).unwrap(), 0)
        .unwrap();
    assert_eq!(bits(m.temps[3]), b4([4.0, 5.0, 6.0, 0.125]));
    assert_eq!(bits(m.temps[1]), [0; 4]);
}

#[test]
fn nv2a_paired_slot_output_takes_the_muxed_unit() {
    let s = Slot::mac(MacOp::Mov)
        .with_ilu(IluOp::Rcp)
        .a(Source::input())
        .c(Source::constant().swz("y"))
        .out(3, "xyzw", Unit::Ilu)
        .mac_to(2, "xyzw");
    let mut m = machine();
    m.run(&Program::from_slots(vec![s.last()]).unwrap(), 0)
        .unwrap();
    assert_eq!(m.outputs[3], [1.0 / 3.0; 4]);
    assert_eq!(bits(m.temps[2]), b4(V0));
    assert!(m.outputs_written[3] && !m.outputs_written[0]);
}

#[test]
fn nv2a_paired_slot_same_temporary_rule() {
    // MAD R1.xy, v0, c0, v0 + RSQ R1.yw, c0.x: both units target R1.
    let s = Slot::mac(MacOp::Mad)
        .with_ilu(IluOp::Rsq)
        .a(Source::input())
        .b(Source::constant())
        .c(Source::constant().swz("w"))
        .mac_to(1, "xy")
        .ilu_to(1, "yw");
    let run = |cfg| {
        let mut m = Machine::new(cfg);
        m.inputs[0] = V0;
        m.consts[0] = C0;
        m.run(&Program::from_slots(vec![s.last()]).unwrap(), 0)
            .unwrap();
        bits(m.temps[1])
    };
    // MAD = (1.5*2 + 0.5, -2*3 + 0.5) = (3.5, -5.5); RSQ(0.5) = 1/sqrt(0.5).
    let rsq = (1.0f32 / 0.5f32.sqrt()).to_bits();
    // Default (xemu): the paired MAC's write to R1 is dropped.
    assert_eq!(run(Config::default()), [0, rsq, 0, rsq]);
    // Cxbx: MAC first, the ILU over it.
    let cfg = Config {
        paired_r1: PairedR1::IluOverMac,
        ..Config::default()
    };
    assert_eq!(run(cfg), [3.5f32.to_bits(), rsq, 0, rsq]);
}

#[test]
fn nv2a_relative_addressing_through_a0() {
    let mut m = machine();
    m.inputs[1] = [5.7, 0.0, 0.0, 0.0];
    for i in 0..192 {
        m.consts[i] = [i as f32, 0.0, 0.0, 1.0];
    }
    let arl = Slot::mac(MacOp::Arl).a(Source::input().swz("x")).input(1);
    let mov = |c: u8| {
        Slot::mac(MacOp::Mov)
            .a(Source::constant())
            .constant(c)
            .rel()
            .out(0, "xyzw", Unit::Mac)
    };
    // A0.x = 5: c[A0.x+100] is c105; in the ARL's own slot the old A0.x (0) applies.
    let p = Program::from_slots(vec![
        arl.with_ilu(IluOp::Mov)
            .c(Source::constant())
            .constant(100)
            .rel()
            .out(3, "xyzw", Unit::Ilu),
        mov(100).last(),
    ])
    .unwrap();
    m.run(&p, 0).unwrap();
    assert_eq!(m.a0, 5);
    assert_eq!(m.outputs[3][0], 100.0);
    assert_eq!(m.outputs[0][0], 105.0);
    // Out of range (5 + 190 = 195, and negative): (0, 0, 0, 0).
    m.run(&Program::from_slots(vec![mov(190).last()]).unwrap(), 0)
        .unwrap();
    assert_eq!(bits(m.outputs[0]), [0; 4]);
    m.a0 = -6;
    m.run(&Program::from_slots(vec![mov(5).last()]).unwrap(), 0)
        .unwrap();
    assert_eq!(bits(m.outputs[0]), [0; 4]);
    m.a0 = -5;
    m.run(&Program::from_slots(vec![mov(5).last()]).unwrap(), 0)
        .unwrap();
    assert_eq!(m.outputs[0][0], 0.0);
    assert_eq!(m.outputs[0][3], 1.0);
}

#[test]
fn nv2a_r12_reads_opos_and_outputs_start_at_0001() {
    let mut m = machine();
    let p = Program::from_slots(vec![
        Slot::mac(MacOp::Mov).a(Source::temp(12)).mac_to(0, "xyzw"),
        Slot::mac(MacOp::Mov)
            .a(Source::input())
            .out(0, "xy", Unit::Mac),
        Slot::mac(MacOp::Mov)
            .a(Source::temp(12))
            .mac_to(1, "xyzw")
            .last(),
    ])
    .unwrap();
    let s = m.run(&p, 0).unwrap();
    assert_eq!((s.slots_run, s.final_slot), (3, 2));
    assert_eq!(bits(m.temps[0]), b4([0.0, 0.0, 0.0, 1.0]));
    assert_eq!(bits(m.temps[1]), b4([1.5, -2.0, 0.0, 1.0]));
    assert!(m.outputs.iter().skip(1).all(|o| *o == [0.0, 0.0, 0.0, 1.0]));
}

#[test]
fn nv2a_constant_write_destination() {
    let mut m = machine();
    let p = Program::from_slots(vec![
        Slot::mac(MacOp::Mov)
            .a(Source::input())
            .const_out(150, "xw", Unit::Mac),
        Slot::mac(MacOp::Mov)
            .a(Source::constant())
            .constant(150)
            .out(5, "xyzw", Unit::Mac)
            .last(),
    ])
    .unwrap();
    m.run(&p, 0).unwrap();
    assert_eq!(bits(m.consts[150]), b4([1.5, 0.0, 0.0, 4.0]));
    assert!(m.consts_written[150]);
    assert_eq!(bits(m.outputs[5]), b4([1.5, 0.0, 0.0, 4.0]));
}

#[test]
fn nv2a_errors_name_the_slot_and_field() {
    let run = |slots: Vec<Slot>| {
        let mut m = machine();
        m.run(&Program::from_slots(slots).unwrap(), 0).unwrap_err()
    };
    let e = run(vec![Slot::default(), Slot::mac(MacOp::Reserved(14)).last()]);
    assert_eq!(e, RunError::ReservedMacOp { slot: 1, value: 14 });
    assert_eq!(
        e.to_string(),
        "slot 1: MAC operation 14 is reserved (MAC operation (word 1 bits 21..24))"
    );
    let mut bad_mux = Slot::mac(MacOp::Mov);
    bad_mux.src[0].mux = pica_model::nv2a::Mux::Reserved;
    assert_eq!(
        run(vec![bad_mux.last()]).to_string(),
        "slot 0: source 1 has reserved mux value 0 (source 1 mux (word 2 bits 26..27))"
    );
    // A reserved mux on a source the op does not read is not an error.
    let mut unused = Slot::mac(MacOp::Mov).a(Source::input());
    unused.src[1].mux = pica_model::nv2a::Mux::Reserved;
    let mut m = machine();
    m.run(&Program::from_slots(vec![unused.last()]).unwrap(), 0)
        .unwrap();
    assert_eq!(
        run(vec![Slot::ilu(IluOp::Rcp).c(Source::temp(13)).last()]).to_string(),
        "slot 0: source 3 reads temporary R13, which does not exist (R0-R12) (source 3 register (hi) (word 2 bits 0..1))"
    );
    assert_eq!(
        run(vec![Slot::mac(MacOp::Mov).mac_to(14, "x").last()]).to_string(),
        "slot 0: destination temporary R14 does not exist (R0-R12) (destination temporary register (word 3 bits 20..23))"
    );
    assert_eq!(
        run(vec![Slot::mac(MacOp::Mov)
            .a(Source::constant())
            .constant(200)
            .last()])
        .to_string(),
        "slot 0: constant index 200 is outside c0-c191 (constant index (word 1 bits 13..20))"
    );
    assert_eq!(
        run(vec![Slot::mac(MacOp::Mov).out(2, "x", Unit::Mac).last()]).to_string(),
        "slot 0: output register 2 does not exist (0 and 3-12 do) (destination output register (word 3 bits 3..10))"
    );
    assert_eq!(
        run(vec![Slot::mac(MacOp::Mov)
            .const_out(192, "x", Unit::Mac)
            .last()]),
        RunError::BadConstWrite {
            slot: 0,
            index: 192
        }
    );
}

// ---- The bundled example programs (vectors/examples/nv2a/) ----

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn dp4_row(row: u8, comp: &str, dest: Option<u8>) -> Slot {
    let s = Slot::mac(MacOp::Dp4)
        .a(Source::input())
        .b(Source::constant())
        .input(0)
        .constant(96 + row);
    match dest {
        Some(r) => s.mac_to(r, comp),
        None => s.out(0, comp, Unit::Mac),
    }
}

/// oPos = the 4x4 matrix in c96-c99 (D3D c0-c3, one row each) times v0; oD0 = v3.
fn transform() -> Vec<Slot> {
    vec![
        dp4_row(0, "x", None),
        dp4_row(1, "y", None),
        dp4_row(2, "z", None),
        dp4_row(3, "w", None),
        Slot::mac(MacOp::Mov)
            .a(Source::input())
            .input(3)
            .out(3, "xyzw", Unit::Mac)
            .last(),
    ]
}

/// The transform into R0, then a perspective divide with a paired RCP (which writes R1):
/// oPos = (R0.xyz / R0.w, 1 / R0.w); oT0 = v8.
fn paired() -> Vec<Slot> {
    vec![
        dp4_row(0, "x", Some(0)),
        dp4_row(1, "y", Some(0)),
        dp4_row(2, "z", Some(0)),
        dp4_row(3, "w", Some(0)),
        Slot::mac(MacOp::Mov)
            .with_ilu(IluOp::Rcp)
            .a(Source::input())
            .input(8)
            .out(9, "xyzw", Unit::Mac)
            .c(Source::temp(0).swz("w"))
            .ilu_to(0, "x"),
        Slot::mac(MacOp::Mul)
            .with_ilu(IluOp::Mov)
            .a(Source::temp(0))
            .b(Source::temp(1).swz("x"))
            .c(Source::temp(1).swz("x"))
            .mac_to(2, "xyz")
            .ilu_to(2, "w"),
        Slot::mac(MacOp::Mov)
            .a(Source::temp(2))
            .out(0, "xyz", Unit::Mac),
        Slot::ilu(IluOp::Mov)
            .c(Source::temp(1).swz("x"))
            .out(0, "w", Unit::Ilu)
            .last(),
    ]
}

/// Matrix palette: A0.x = floor(v1.x); oPos = the matrix at c[A0.x+100] ... c[A0.x+103] times v0.
fn relative() -> Vec<Slot> {
    let row = |r: u8, comp: &str| {
        Slot::mac(MacOp::Dp4)
            .a(Source::input())
            .b(Source::constant())
            .constant(100 + r)
            .rel()
            .out(0, comp, Unit::Mac)
    };
    vec![
        Slot::mac(MacOp::Arl).a(Source::input().swz("x")).input(1),
        row(0, "x"),
        row(1, "y"),
        row(2, "z"),
        row(3, "w").last(),
    ]
}

fn examples() -> Vec<(&'static str, &'static str, Vec<Slot>)> {
    vec![
        (
            "transform",
            "4x4 transform: oPos = matrix rows c96-c99 (D3D c0-c3) . v0; oD0 = v3",
            transform(),
        ),
        (
            "paired",
            "transform to R0, then perspective divide with a paired RCP (ILU writes R1); oT0 = v8",
            paired(),
        ),
        (
            "relative",
            "matrix palette: ARL A0.x, v1.x; oPos = rows c[A0.x+100..103] . v0",
            relative(),
        ),
    ]
}

fn hex_words(text: &str) -> Vec<u32> {
    text.lines()
        .map(|l| l.split('#').next().unwrap())
        .flat_map(|l| l.split_whitespace())
        .map(|t| u32::from_str_radix(t.trim_start_matches("0x"), 16).unwrap())
        .collect()
}

fn example_text(title: &str, p: &Program) -> String {
    let mut s = format!("# NV2A vertex program: {title}\n# Generated by model/tests/nv2a_interp.rs (NV2A_BLESS=1 rewrites it).\n#\n");
    for l in program_text(p, Syntax::Nv).lines() {
        s.push_str(&format!("#   {l}\n"));
    }
    s.push_str(&p.to_hex_text());
    s
}

#[test]
fn nv2a_examples_are_what_the_encoder_builds() {
    let dir = root().join("vectors/examples/nv2a");
    let bless = std::env::var_os("NV2A_BLESS").is_some();
    for (name, title, slots) in examples() {
        let p = Program::from_slots(slots).unwrap();
        let hex = dir.join(format!("{name}.hex"));
        let bin = dir.join(format!("{name}.bin"));
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&hex, example_text(title, &p)).unwrap();
            std::fs::write(&bin, p.to_bytes()).unwrap();
        }
        let text = std::fs::read_to_string(&hex).unwrap();
        assert_eq!(
            hex_words(&text),
            p.to_words(),
            "{name}.hex is stale (NV2A_BLESS=1)"
        );
        assert_eq!(
            std::fs::read(&bin).unwrap(),
            p.to_bytes(),
            "{name}.bin is stale"
        );
    }
}

#[test]
fn nv2a_transform_program_end_to_end() {
    let p = Program::from_slots(transform()).unwrap();
    let mut m = Machine::default();
    m.consts[96] = [2.0, 0.0, 0.0, 1.0];
    m.consts[97] = [0.0, 3.0, 0.0, 2.0];
    m.consts[98] = [0.0, 0.0, 4.0, 3.0];
    m.consts[99] = [0.0, 0.0, 0.5, 1.0];
    m.inputs[0] = [1.0, 2.0, 3.0, 1.0];
    m.inputs[3] = [0.25, 0.5, 0.75, 1.0];
    let s = m.run(&p, 0).unwrap();
    assert_eq!(s.slots_run, 5);
    assert_eq!(bits(m.outputs[0]), b4([3.0, 8.0, 15.0, 2.5]));
    assert_eq!(bits(m.outputs[3]), b4([0.25, 0.5, 0.75, 1.0]));
    let written: Vec<usize> = (0..13).filter(|i| m.outputs_written[*i]).collect();
    assert_eq!(written, [0, 3]);
}

#[test]
fn nv2a_paired_program_end_to_end() {
    let p = Program::from_slots(paired()).unwrap();
    let mut m = Machine::default();
    m.consts[96] = [2.0, 0.0, 0.0, 0.0];
    m.consts[97] = [0.0, 2.0, 0.0, 0.0];
    m.consts[98] = [0.0, 0.0, 1.0, 0.0];
    m.consts[99] = [0.0, 0.0, 1.0, 0.0];
    m.inputs[0] = [1.0, 3.0, 4.0, 1.0];
    m.inputs[8] = [0.5, 0.5, 0.0, 1.0];
    m.run(&p, 0).unwrap();
    // R0 = (2, 6, 4, 4); 1/w = 0.25.
    assert_eq!(bits(m.outputs[0]), b4([0.5, 1.5, 1.0, 0.25]));
    assert_eq!(bits(m.outputs[9]), b4([0.5, 0.5, 0.0, 1.0]));
    // The paired RCP wrote R1.x, not R0.x; the paired MOV copied it to R1.w.
    assert_eq!(bits(m.temps[1]), b4([0.25, 0.0, 0.0, 0.25]));
    assert_eq!(m.temps[0][0], 2.0);
}

#[test]
fn nv2a_relative_program_end_to_end() {
    let p = Program::from_slots(relative()).unwrap();
    let mut m = Machine::default();
    // Palette entry 2 at c106-c109 scales by 10.
    for r in 0..4 {
        let mut row = [0.0; 4];
        row[r] = 10.0;
        m.consts[106 + r] = row;
    }
    m.inputs[0] = [1.0, 2.0, 3.0, 1.0];
    m.inputs[1] = [6.9, 0.0, 0.0, 0.0];
    m.run(&p, 0).unwrap();
    assert_eq!(m.a0, 6);
    assert_eq!(bits(m.outputs[0]), b4([10.0, 20.0, 30.0, 10.0]));
}
