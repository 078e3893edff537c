//! The interpreter's fast path against its reference path, bit for bit:
//!
//! - the fast ALU ([`pica_model::shader::alu_fast`]) against [`pica_model::shader::alu`] on
//!   10^6 random cases drawn towards the special operands (±0, subnormals, ±inf, NaNs, the
//!   smallest and largest exponents, the edges of the fast path's window, cancelling pairs and
//!   exponent differences around the exactness limit of a sum);
//! - whole programs: [`ShaderUnit::step`] without a trace (decode cache, fast operations)
//!   against [`ShaderUnit::step_exact`], state compared after every instruction, with random
//!   knobs;
//! - the decode cache sees code and operand-descriptor changes between steps;
//! - the SH stage's VS-only tick (commit trace off) against its general tick;
//! - the shader JIT (`ShaderUnit::set_jit`, every block compiled at once) against the reference
//!   path: random programs with random knobs (60 in the test command, 10^4 as a campaign:
//!   `PICA_JIT_PROGRAMS`), run in chunks of 1 to 64 instructions (half
//!   of them single instructions) with the whole unit state compared after every chunk; code,
//!   descriptor and knob changes between invocations; the benchmark shader through `run` and
//!   the four-unit stage.

#![allow(clippy::unwrap_used)]

use pica_model::beat::ShaderBeat;
use pica_model::link::Link;
use pica_model::num::F24;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::alu::{self, MaxNegInf};
use pica_model::shader::alu_fast::{self as fast, WINDOW_HI, WINDOW_LO};
use pica_model::shader::bench_program::configured_gpu;
use pica_model::shader::interp::{
    CallEntry, Cmp67, EmitState, IfEntry, IntZ, Knobs, LoopAl, LoopEntry, LoopSharedEnd,
    MinSubnormal, MovSubnormal, PcOverflow, ShaderUnit, Step, UnknownOp, Vec4,
};
use pica_model::shader::isa::*;
use pica_model::shader::stage::{ShadedItem, ShaderCore, ShaderPorts, VertexIn};

/// splitmix64: a small deterministic generator (the cases must be the same on every run).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bool(&mut self) -> bool {
        self.next() & 1 != 0
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

fn parts(sign: bool, exp: u32, mant: u32) -> F24 {
    F24::from_parts(sign, exp, mant)
}

/// One operand, drawn towards the values where a fast path could go wrong.
fn operand(r: &mut Rng) -> F24 {
    let s = r.bool();
    let m = (r.next() & 0xFFFF) as u32;
    match r.below(12) {
        0 => F24::from_bits((r.next() & 0xFF_FFFF) as u32),
        1 => parts(s, 0, 0),
        2 => parts(s, 0, m.max(1)),
        3 => r.pick(&[F24::INFINITY, F24::NEG_INFINITY, F24::NAN]),
        4 => parts(s, 127, m.max(1)),
        5 => parts(s, r.pick(&[1, 2, 3, 124, 125, 126]), m),
        6 => {
            let e = r.pick(&[
                WINDOW_LO - 2,
                WINDOW_LO - 1,
                WINDOW_LO,
                WINDOW_LO + 1,
                WINDOW_HI - 1,
                WINDOW_HI,
                WINDOW_HI + 1,
                WINDOW_HI + 2,
            ]);
            parts(s, e, m)
        }
        7 => parts(s, r.pick(&[0, 0xFFFF, 1, 0x8000]), 0).abs(),
        8 => parts(s, 63 + r.below(5) as u32, r.pick(&[0, 1, 0xFFFF, m])),
        _ => parts(s, 40 + r.below(53) as u32, m),
    }
}

/// A second operand related to `a`: its negation a few units away (cancellation), an exponent
/// at the distance where sums stop being exact in `f64`, or an unrelated operand.
fn partner(r: &mut Rng, a: F24) -> F24 {
    match r.below(4) {
        0 => {
            let d = r.below(5) as u32;
            let b = if r.bool() {
                a.bits().wrapping_add(d)
            } else {
                a.bits().wrapping_sub(d)
            };
            F24::from_bits(b).negate()
        }
        1 => {
            let d = r.pick(&[33, 34, 35, 36, 37, 38, 52, 53]);
            let e = if r.bool() {
                a.exponent().saturating_sub(d)
            } else {
                (a.exponent() + d).min(126)
            };
            parts(r.bool(), e, (r.next() & 0xFFFF) as u32)
        }
        _ => operand(r),
    }
}

fn vec4(r: &mut Rng) -> Vec4 {
    let a = operand(r);
    let mut v = [a; 4];
    for lane in v.iter_mut().skip(1) {
        *lane = partner(r, a);
    }
    v
}

fn lanes(a: &Vec4, b: &Vec4, f: impl Fn(F24, F24) -> F24) -> Vec4 {
    [0, 1, 2, 3].map(|i| f(a[i], b[i]))
}

fn check_case(r: &mut Rng) {
    let a = vec4(r);
    let b = if r.bool() {
        a.map(|x| partner(r, x))
    } else {
        vec4(r)
    };
    let c = if r.bool() {
        lanes(&a, &b, alu::mul).map(|x| partner(r, x))
    } else {
        vec4(r)
    };
    let ctx = || format!("a {a:?} b {b:?} c {c:?}");
    for i in 0..4 {
        let (x, y, z) = (a[i], b[i], c[i]);
        assert_eq!(fast::mul(x, y), alu::mul(x, y), "mul lane {i}: {}", ctx());
        assert_eq!(fast::add(x, y), alu::add(x, y), "add lane {i}: {}", ctx());
        assert_eq!(
            fast::mad(x, y, z),
            alu::mad(x, y, z),
            "mad lane {i}: {}",
            ctx()
        );
        for knob in [MaxNegInf::Zero, MaxNegInf::NegInf] {
            assert_eq!(fast::max(x, y, knob), alu::max(x, y, knob), "max {}", ctx());
        }
        assert_eq!(fast::min(x, y), alu::min(x, y), "min {}", ctx());
        assert_eq!(fast::sge(x, y), alu::sge(x, y), "sge {}", ctx());
        assert_eq!(fast::slt(x, y), alu::slt(x, y), "slt {}", ctx());
        let (fx, fy) = (x.to_f64(), y.to_f64());
        assert_eq!(fast::gt(x, y), fx > fy, "gt {}", ctx());
        assert_eq!(fast::ge(x, y), fx >= fy, "ge {}", ctx());
        assert_eq!(fast::eq(x, y), fx == fy, "eq {}", ctx());
    }
    assert_eq!(fast::rsq(a[0]), alu::rsq(a[0]), "rsq {}", ctx());
    assert_eq!(fast::rcp(a[0]), alu::rcp(a[0]), "rcp {}", ctx());
    assert_eq!(
        fast::mul4(&a, &b),
        lanes(&a, &b, alu::mul),
        "mul4 {}",
        ctx()
    );
    for knob in [MaxNegInf::Zero, MaxNegInf::NegInf] {
        let max = lanes(&a, &b, |x, y| alu::max(x, y, knob));
        assert_eq!(fast::max4(&a, &b, knob), max, "max4 {}", ctx());
    }
    assert_eq!(
        fast::min4(&a, &b),
        lanes(&a, &b, alu::min),
        "min4 {}",
        ctx()
    );
    assert_eq!(
        fast::sge4(&a, &b),
        lanes(&a, &b, alu::sge),
        "sge4 {}",
        ctx()
    );
    assert_eq!(
        fast::slt4(&a, &b),
        lanes(&a, &b, alu::slt),
        "slt4 {}",
        ctx()
    );
    assert_eq!(
        fast::add4(&a, &b),
        lanes(&a, &b, alu::add),
        "add4 {}",
        ctx()
    );
    let mad = [0, 1, 2, 3].map(|i| alu::mad(a[i], b[i], c[i]));
    assert_eq!(fast::mad4(&a, &b, &c), mad, "mad4 {}", ctx());
    assert_eq!(
        fast::dot3(&a, &b),
        alu::dot(&a[..3], &b[..3]),
        "dp3 {}",
        ctx()
    );
    assert_eq!(fast::dot4(&a, &b), alu::dot(&a, &b), "dp4 {}", ctx());
    let h = [a[0], a[1], a[2], F24::ONE];
    assert_eq!(fast::doth(&a, &b), alu::dot(&h, &b), "dph {}", ctx());
}

/// The differential property of issue 19: 10^6 cases (each checks every fast operation on
/// its lanes).
#[test]
fn alu_fast_matches_alu_on_random_and_special_operands() {
    let mut r = Rng(0x5EED_F00D);
    for _ in 0..1_000_000 {
        check_case(&mut r);
    }
}

/// Every pair of a set of edge values (all signs, both zeros, subnormals, specials, the
/// exponent extremes and the window edges, mantissas 0 / 1 / max).
#[test]
fn alu_fast_matches_alu_on_edge_pairs() {
    let mut edges = vec![
        F24::NAN,
        F24::from_bits(0x7F_FFFF),
        F24::from_bits(0x7F_0001),
    ];
    for e in [
        0,
        1,
        2,
        WINDOW_LO - 1,
        WINDOW_LO,
        62,
        63,
        64,
        WINDOW_HI,
        WINDOW_HI + 1,
        125,
        126,
        127,
    ] {
        for m in [0, 1, 0x8000, 0xFFFF] {
            for s in [false, true] {
                edges.push(parts(s, e, m));
            }
        }
    }
    for &x in &edges {
        for &y in &edges {
            assert_eq!(fast::mul(x, y), alu::mul(x, y), "{x:?} * {y:?}");
            assert_eq!(fast::add(x, y), alu::add(x, y), "{x:?} + {y:?}");
            let v = [x, y, y, x];
            let w = [y, x, y, x];
            assert_eq!(fast::mul4(&v, &w), lanes(&v, &w, alu::mul));
            assert_eq!(fast::add4(&v, &w), lanes(&v, &w, alu::add));
            assert_eq!(fast::dot4(&v, &w), alu::dot(&v, &w), "{v:?} . {w:?}");
            assert_eq!(fast::dot3(&v, &w), alu::dot(&v[..3], &w[..3]));
            // Products that cancel to a few units of their last place (underflow of tiny
            // pairs, exactness of the sums).
            let xd = F24::from_bits(x.bits() ^ 1);
            let v = [x, xd, y, x];
            let w = [y, y.negate(), xd, x.negate()];
            assert_eq!(fast::dot4(&v, &w), alu::dot(&v, &w), "{v:?} . {w:?}");
            assert_eq!(
                fast::dot3(&v, &w),
                alu::dot(&v[..3], &w[..3]),
                "{v:?} . {w:?}"
            );
            let z = alu::mul(xd, y).negate();
            assert_eq!(
                fast::mad4(&v, &w, &[z; 4]),
                [0, 1, 2, 3].map(|i| alu::mad(v[i], w[i], z))
            );
            for &z in &[F24::ZERO, F24::ONE, x, y.negate()] {
                assert_eq!(fast::mad(x, y, z), alu::mad(x, y, z), "{x:?}*{y:?}+{z:?}");
            }
            assert_eq!(
                fast::max(x, y, MaxNegInf::NegInf),
                alu::max(x, y, MaxNegInf::NegInf)
            );
            assert_eq!(fast::min(x, y), alu::min(x, y));
            for knob in [MaxNegInf::Zero, MaxNegInf::NegInf] {
                let max = lanes(&v, &w, |p, q| alu::max(p, q, knob));
                assert_eq!(fast::max4(&v, &w, knob), max, "{v:?} max {w:?}");
            }
            assert_eq!(fast::min4(&v, &w), lanes(&v, &w, alu::min));
            assert_eq!(fast::sge4(&v, &w), lanes(&v, &w, alu::sge));
            assert_eq!(fast::slt4(&v, &w), lanes(&v, &w, alu::slt));
            assert_eq!(fast::rsq(x), alu::rsq(x), "rsq {x:?}");
            assert_eq!(fast::rcp(x), alu::rcp(x), "rcp {x:?}");
        }
    }
}

/// RSQ and RCP by table (one binade of results, scaled by the exponent) give the reference's
/// bits on every one of the 2^24 inputs: the table's argument (`alu_fast`'s `RecipTables`) made
/// a test, including the exponents where RCP's result leaves the normal range and falls back.
#[test]
fn rsq_and_rcp_tables_match_alu_on_every_input() {
    let mut bad = Vec::new();
    for b in 0..1u32 << 24 {
        let x = F24::from_bits(b);
        if fast::rsq(x) != alu::rsq(x) || fast::rcp(x) != alu::rcp(x) {
            bad.push(b);
        }
    }
    assert!(
        bad.is_empty(),
        "{} inputs differ, the first {:06x?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
}

// ---- whole programs: fast path against the reference path ----

fn random_word(r: &mut Rng, len: u32) -> u32 {
    let w = match r.below(20) {
        // Arithmetic: every format-1/1i/1u/1c/5/5i opcode, small descriptor indices.
        0..=13 => {
            let op = r.pick(&[
                0x00u32, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C,
                0x0D, 0x0E, 0x0F, 0x12, 0x13, 0x18, 0x19, 0x1A, 0x1B, 0x2E, 0x2F, 0x30, 0x38, 0x3C,
            ]);
            let rest = r.next() as u32 & 0x03FF_FFFF;
            let w = op << 26 | rest;
            if op >= 0x30 {
                w & !0x18 // descriptors 0-7
            } else {
                w & !0x78
            }
        }
        14 => 0x8800_0000 | (r.next() as u32 & 0x3FF_FFFF), // END
        15..=17 => (r.below(64) as u32) << 26 | (r.next() as u32 & 0x03FF_FFFF),
        _ => 0x8400_0000, // NOP
    };
    match decode(w) {
        // Keep flow targets inside the program so that it loops and branches.
        Instruction::Flow { .. } | Instruction::FlowUniform { .. } => {
            (w & !(0xFFF << 10)) | (r.below(u64::from(len)) as u32) << 10
        }
        _ => w,
    }
}

fn random_desc(r: &mut Rng) -> u32 {
    match r.below(3) {
        0 => r.next() as u32,
        1 => OpDesc::IDENTITY.0 & !0xF | (r.next() as u32 & 0xF),
        _ => (OpDesc::IDENTITY.0 ^ (r.next() as u32 & 0x0040_2010)) & !0xF | 0xF,
    }
}

fn random_knobs(r: &mut Rng) -> Knobs {
    Knobs {
        max_neg_inf: r.pick(&[MaxNegInf::Zero, MaxNegInf::NegInf]),
        cmp67: r.pick(&[Cmp67::True, Cmp67::False]),
        cmp_uses_mask: r.bool(),
        int_z: r.pick(&[IntZ::Unsigned, IntZ::Signed]),
        pc_overflow: r.pick(&[PcOverflow::Hang, PcOverflow::Wrap]),
        unknown_op: r.pick(&[UnknownOp::Hang, UnknownOp::Nop]),
        loop_al: r.pick(&[LoopAl::Keep, LoopAl::Restore]),
        mov_subnormal: r.pick(&[MovSubnormal::Pass, MovSubnormal::Flush]),
        min_subnormal: r.pick(&[MinSubnormal::Pass, MinSubnormal::Flush]),
        loop_shared_end: r.pick(&[LoopSharedEnd::One, LoopSharedEnd::All]),
    }
}

fn random_config(r: &mut Rng) -> UnitConfig {
    let mut cfg = UnitConfig::default();
    let len = 4 + r.below(40) as u32;
    for i in 0..len as usize {
        cfg.code[i] = random_word(r, len);
    }
    // Sometimes the program sits at the end of code memory (PC overflow).
    if r.below(8) == 0 {
        let n = cfg.code.len();
        for i in 0..8 {
            cfg.code[n - 8 + i] = random_word(r, len);
        }
    }
    for d in cfg.opdescs.iter_mut().take(8) {
        *d = random_desc(r);
    }
    for u in cfg.float_uniforms.iter_mut() {
        *u = vec4(r);
    }
    for i in cfg.int_uniforms.iter_mut() {
        *i = [r.below(6) as u8, r.next() as u8, r.next() as u8, 0];
    }
    cfg.bool_uniforms = r.next() as u16;
    cfg
}

/// Everything observable of a unit.
#[derive(Debug, PartialEq)]
struct State<'a> {
    inputs: &'a [Vec4; 16],
    temps: &'a [Vec4; 16],
    outputs: &'a [Vec4; 16],
    written: u64,
    a0: [i32; 2],
    al: i32,
    cmp: [bool; 2],
    pc: u16,
    calls: &'a [CallEntry],
    ifs: &'a [IfEntry],
    loops: &'a [LoopEntry],
    emit: &'a EmitState,
    executed: u64,
}

fn state(u: &ShaderUnit) -> State<'_> {
    State {
        inputs: &u.inputs,
        temps: &u.temps,
        outputs: u.outputs(),
        written: u.written_mask(),
        a0: u.a0,
        al: u.al,
        cmp: u.cmp,
        pc: u.pc,
        calls: u.call_stack.entries(),
        ifs: u.if_stack.entries(),
        loops: u.loop_stack.entries(),
        emit: &u.emit,
        executed: u.executed,
    }
}

/// Runs `cfg` from `entry` on a fast and a reference unit in lockstep, comparing every
/// step's result and the whole state.
fn lockstep(fast_u: &mut ShaderUnit, exact_u: &mut ShaderUnit, cfg: &UnitConfig, steps: u32) {
    let (mut em_f, mut em_e) = (Vec::new(), Vec::new());
    for n in 0..steps {
        let pc = exact_u.pc;
        let f = fast_u.step(cfg, None, &mut em_f);
        let e = exact_u.step_exact(cfg, None, &mut em_e);
        assert_eq!(f, e, "step {n} at pc {pc}");
        assert_eq!(state(fast_u), state(exact_u), "step {n} at pc {pc}");
        assert_eq!(em_f, em_e, "step {n} at pc {pc}");
        if f != Step::Continue {
            break;
        }
    }
}

#[test]
fn fast_step_matches_exact_step_on_random_programs() {
    let mut r = Rng(0xC0DE);
    for _ in 0..10_000 {
        let cfg = random_config(&mut r);
        let knobs = random_knobs(&mut r);
        let inputs: Vec<Vec4> = (0..16).map(|_| vec4(&mut r)).collect();
        let mut f = ShaderUnit::new(knobs);
        f.inputs.copy_from_slice(&inputs);
        let mut e = f.clone();
        let entry = if cfg.code[cfg.code.len() - 8] != 0 && r.bool() {
            (cfg.code.len() - 8) as u16
        } else {
            0
        };
        f.start(entry);
        e.start(entry);
        lockstep(&mut f, &mut e, &cfg, 400);
        // A second invocation on the same units: registers carry over, the cache is warm.
        f.start(0);
        e.start(0);
        lockstep(&mut f, &mut e, &cfg, 400);
    }
}

/// A code word or descriptor changed between two steps takes effect at once (the cache is
/// checked against both on every step), also through `run`.
#[test]
fn decode_cache_sees_code_and_descriptor_changes() {
    let mut r = Rng(0xCAC4E);
    for _ in 0..500 {
        let mut cfg = random_config(&mut r);
        let inputs: Vec<Vec4> = (0..16).map(|_| vec4(&mut r)).collect();
        let knobs = random_knobs(&mut r);
        let mut f = ShaderUnit::new(knobs);
        f.inputs.copy_from_slice(&inputs);
        let mut e = f.clone();
        for _round in 0..4 {
            f.start(0);
            e.start(0);
            lockstep(&mut f, &mut e, &cfg, 100);
            // Change a few words and descriptors the program uses.
            for _ in 0..3 {
                let i = r.below(8) as usize;
                cfg.code[i] = random_word(&mut r, 8);
                cfg.opdescs[r.below(8) as usize] = random_desc(&mut r);
            }
        }
        // `run` goes through the same cache.
        let (mut em_f, mut em_e) = (Vec::new(), Vec::new());
        let end_f = f.run(&cfg, 0, 300, &mut em_f);
        e.start(0);
        let end_e = loop {
            if e.executed >= 300 {
                break pica_model::shader::interp::RunEnd::Limit;
            }
            match e.step_exact(&cfg, None, &mut em_e) {
                Step::Continue => {}
                Step::End => break pica_model::shader::interp::RunEnd::End,
                Step::Hang(h) => break pica_model::shader::interp::RunEnd::Hang(h),
            }
        };
        assert_eq!(end_f, end_e);
        assert_eq!(state(&f), state(&e));
        assert_eq!(em_f, em_e);
    }
}

/// The knobs are read when an instruction executes, not when it is decoded: changing them
/// on a warm unit changes what the cached instructions do.
#[test]
fn knob_changes_apply_to_cached_instructions() {
    let mut r = Rng(0x4B0B);
    for _ in 0..500 {
        let cfg = random_config(&mut r);
        let mut f = ShaderUnit::new(random_knobs(&mut r));
        for v in f.inputs.iter_mut() {
            *v = vec4(&mut r);
        }
        let mut e = f.clone();
        for _ in 0..3 {
            let k = random_knobs(&mut r);
            f.knobs = k;
            e.knobs = k;
            f.start(0);
            e.start(0);
            lockstep(&mut f, &mut e, &cfg, 200);
        }
    }
}

// ---- the shader JIT against the reference path ----

/// Runs `cfg` on `j` (JIT on) in chunks of 1-64 instructions through
/// [`ShaderUnit::run_steps`] and on `e` by [`ShaderUnit::step_exact`], comparing each chunk's
/// steps and result, the whole state and what EMIT produced after every chunk.
fn jit_lockstep(j: &mut ShaderUnit, e: &mut ShaderUnit, cfg: &UnitConfig, steps: u64, r: &mut Rng) {
    let (mut em_j, mut em_e) = (Vec::new(), Vec::new());
    let mut done = 0;
    while done < steps {
        let k = r.pick(&[1u64, 1, 1, 1, 2, 3, 5, 8, 64]);
        let pc = e.pc;
        let (n, sj) = j.run_steps(cfg, k, &mut em_j);
        let (mut m, mut se) = (0, Step::Continue);
        while m < k && se == Step::Continue {
            se = e.step_exact(cfg, None, &mut em_e);
            m += 1;
        }
        assert_eq!((n, &sj), (m, &se), "chunk of {k} from pc {pc}");
        assert_eq!(state(j), state(e), "chunk of {k} from pc {pc}");
        assert_eq!(em_j, em_e, "chunk of {k} from pc {pc}");
        if sj != Step::Continue {
            break;
        }
        done += n;
    }
}

/// A JIT unit compiling every block at once, and a reference unit, with the same inputs.
fn jit_pair(knobs: Knobs, r: &mut Rng) -> (ShaderUnit, ShaderUnit) {
    let mut j = ShaderUnit::new(knobs);
    for v in j.inputs.iter_mut() {
        *v = vec4(r);
    }
    let mut e = j.clone();
    j.set_jit(Some(0));
    e.set_jit(None);
    (j, e)
}

/// Programs the random-program JIT test runs: `PICA_JIT_PROGRAMS`, default 60 (the test
/// command; every program compiles a block at most of the PCs it reaches, which costs more
/// than running them). `PICA_JIT_PROGRAMS=10000 cargo test --release -p pica-model --test
/// shader_fast jit_matches_exact_step_on_random -- --nocapture` is the campaign the user guide
/// reports (a progress line every 500 programs; `PICA_JIT_SEED` for chunks of it).
fn jit_programs() -> u32 {
    std::env::var("PICA_JIT_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60)
}

/// The random-program JIT test's seed: `PICA_JIT_SEED` (decimal or `0x` hex), default 0x717 (the
/// test command's). A campaign split into chunks gives each chunk its own seed.
fn jit_seed() -> u64 {
    std::env::var("PICA_JIT_SEED")
        .ok()
        .and_then(|v| match v.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => v.parse().ok(),
        })
        .unwrap_or(0x717)
}

#[test]
fn jit_matches_exact_step_on_random_programs() {
    let seed = jit_seed();
    let mut r = Rng(seed);
    let mut blocks = 0;
    let programs = jit_programs();
    let started = std::time::Instant::now();
    for i in 0..programs {
        if i > 0 && i % 500 == 0 {
            // A campaign's progress (shown with `--nocapture`).
            eprintln!(
                "jit campaign seed {seed:#x}: {i}/{programs} programs, {blocks} blocks, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
        let cfg = random_config(&mut r);
        let (mut j, mut e) = jit_pair(random_knobs(&mut r), &mut r);
        let entry = if cfg.code[cfg.code.len() - 8] != 0 && r.bool() {
            (cfg.code.len() - 8) as u16
        } else {
            0
        };
        for entry in [entry, 0] {
            j.start(entry);
            e.start(entry);
            jit_lockstep(&mut j, &mut e, &cfg, 400, &mut r);
        }
        blocks += j.jit_blocks();
    }
    // The programs are mostly arithmetic: blocks start at most PCs they reach.
    assert!(blocks > 10 * programs, "only {blocks} blocks compiled");
}

/// Every data opcode once, reading v0-v3 and c0-c3 (some sources swizzled and negated,
/// some relative), in one block: the operand cases of the JIT's arithmetic.
fn jit_operand_program() -> (Vec<u32>, Vec<u32>) {
    use Opcode::*;
    let r = |n: &str| SrcReg::from_name(n).unwrap();
    let d = |n: &str| DstReg::from_name(n).unwrap();
    let alu = |op, dst: &str, s1: &str, s2: &str, idx, desc| {
        encode(&Instruction::Alu {
            op,
            dst: d(dst),
            src1: r(s1),
            src2: r(s2),
            idx,
            desc,
        })
    };
    let mut code = vec![
        alu(Add, "r0", "v0", "v1", RelIndex::None, 0),
        alu(Mul, "r1", "v0", "v2", RelIndex::None, 1),
        alu(Dp3, "r2", "v1", "v2", RelIndex::None, 0),
        alu(Dp4, "r3", "v0", "c0", RelIndex::None, 2),
        alu(Dph, "r4", "v2", "v3", RelIndex::None, 0),
        alu(Dst, "r5", "v1", "v3", RelIndex::None, 0),
        alu(Max, "r6", "v0", "v3", RelIndex::None, 1),
        alu(Min, "r7", "v2", "v1", RelIndex::None, 2),
        alu(Sge, "r8", "v3", "v0", RelIndex::None, 0),
        alu(Slt, "r9", "v1", "v2", RelIndex::None, 1),
        alu(Mov, "o0", "v3", "v0", RelIndex::None, 2),
        alu(Flr, "o1", "v2", "v0", RelIndex::None, 0),
        alu(Rcp, "o2", "v0", "v0", RelIndex::None, 0),
        alu(Rsq, "o3", "v1", "v0", RelIndex::None, 1),
        alu(Ex2, "o4", "v2", "v0", RelIndex::None, 0),
        alu(Lg2, "o5", "v3", "v0", RelIndex::None, 0),
        alu(Add, "r10", "r0", "r1", RelIndex::None, 0),
        alu(Mul, "r11", "r10", "c1", RelIndex::A0X, 2),
        alu(Dp4, "r12", "r11", "r3", RelIndex::None, 0),
        alu(Mov, "o6", "c2", "v0", RelIndex::AL, 0),
    ];
    for (i, (op, dst, a, b, c)) in [
        (Mad, "r13", "v0", "v1", "v2"),
        (Mad, "r14", "r0", "v3", "c3"),
        (Madi, "r15", "v1", "v2", "c1"),
    ]
    .into_iter()
    .enumerate()
    {
        code.push(encode(&Instruction::Mad {
            op,
            dst: d(dst),
            src1: r(a),
            src2: r(b),
            src3: r(c),
            idx: RelIndex::None,
            desc: i as u8,
        }));
    }
    for (x, y) in [
        (CmpOp::Eq, CmpOp::Ne),
        (CmpOp::Lt, CmpOp::Le),
        (CmpOp::Gt, CmpOp::Ge),
    ] {
        code.push(encode(&Instruction::Cmp {
            src1: r("v0"),
            src2: r("v1"),
            idx: RelIndex::None,
            cmp_x: x,
            cmp_y: y,
            desc: 1,
        }));
    }
    code.push(encode(&Instruction::Plain(End)));
    let id = Swizzle::IDENTITY;
    let descs = vec![
        OpDesc::IDENTITY.0,
        // mask xyw; src1 .wzyx negated
        OpDesc::new(
            DestMask(0xD),
            [(true, Swizzle(0xE4)), (false, id), (false, id)],
        )
        .0,
        // mask xz; src2 .yyxw negated, src3 .xxzz
        OpDesc::new(
            DestMask(0xA),
            [(false, id), (true, Swizzle(0x53)), (false, Swizzle(0x0A))],
        )
        .0,
    ];
    (code, descs)
}

/// The JIT's arithmetic on 10^6 operand cases (instructions executed with random operands
/// drawn towards the special values and the window's edges), each block compiled once.
#[test]
fn jit_matches_exact_on_operand_cases() {
    let (code, descs) = jit_operand_program();
    let mut cfg = UnitConfig::default();
    cfg.code[..code.len()].copy_from_slice(&code);
    cfg.opdescs[..descs.len()].copy_from_slice(&descs);
    let mut r = Rng(0x0BE2A);
    let mut cases = 0u64;
    for n in 0.. {
        if cases >= 1_000_000 {
            break;
        }
        let (mut j, mut e) = jit_pair(random_knobs(&mut r), &mut r);
        for _ in 0..1000 {
            for u in cfg.float_uniforms.iter_mut().take(4) {
                *u = vec4(&mut r);
            }
            for v in j.inputs.iter_mut().take(4) {
                *v = vec4(&mut r);
            }
            e.inputs = j.inputs;
            // Offsets at the edges of the applied range and of the 96 uniforms.
            let edges = [
                i32::MIN,
                -129,
                -128,
                -127,
                -97,
                -96,
                -95,
                -3,
                -1,
                0,
                1,
                2,
                93,
                94,
                95,
                96,
                126,
                127,
                128,
                255,
                i32::MAX,
            ];
            j.a0 = [r.pick(&edges), r.pick(&edges)];
            j.al = r.pick(&edges);
            (e.a0, e.al) = (j.a0, j.al);
            j.start(0);
            e.start(0);
            jit_lockstep(&mut j, &mut e, &cfg, 64, &mut r);
            cases += e.executed;
        }
        assert!(j.jit_blocks() > 0, "program {n}: nothing compiled");
    }
}

/// Code words, descriptors, uniforms and knobs changed between invocations take effect at
/// once: a block checks its words and descriptors on entry, reads uniforms when it runs, and
/// a knob change drops every block.
#[test]
fn jit_sees_code_descriptor_uniform_and_knob_changes() {
    let mut r = Rng(0x5EE);
    let mut blocks = 0;
    for _ in 0..30 {
        let mut cfg = random_config(&mut r);
        let (mut j, mut e) = jit_pair(random_knobs(&mut r), &mut r);
        for _round in 0..4 {
            j.start(0);
            e.start(0);
            jit_lockstep(&mut j, &mut e, &cfg, 200, &mut r);
            match r.below(4) {
                0 => cfg.code[r.below(8) as usize] = random_word(&mut r, 8),
                1 => cfg.opdescs[r.below(8) as usize] = random_desc(&mut r),
                2 => cfg.float_uniforms[r.below(96) as usize] = vec4(&mut r),
                _ => {
                    let k = random_knobs(&mut r);
                    j.knobs = k;
                    e.knobs = k;
                }
            }
        }
        blocks += j.jit_blocks();
    }
    assert!(blocks > 120, "only {blocks} blocks compiled");
}

/// The benchmark shader through `run`: one block (the whole program), compiled once it is hot,
/// and the same outputs as the interpreter every time.
#[test]
fn jit_runs_the_benchmark_shader_as_one_block() {
    let (code, descs) = pica_model::shader::bench_program::program();
    let mut cfg = UnitConfig::default();
    cfg.code[..code.len()].copy_from_slice(&code);
    cfg.opdescs[..descs.len()].copy_from_slice(&descs);
    cfg.float_uniforms[..11].copy_from_slice(&pica_model::shader::bench_program::uniforms());
    let mut j = ShaderUnit::new(Knobs::default());
    j.inputs[..4].copy_from_slice(&pica_model::shader::bench_program::inputs());
    let mut e = j.clone();
    e.set_jit(None);
    // The default threshold (whatever PICA_SHADER_JIT says).
    j.set_jit(Some(pica_model::shader::interp::JIT_THRESHOLD));
    let mut em = Vec::new();
    for n in 0..2100 {
        let ends = (j.run(&cfg, 0, 1000, &mut em), e.run(&cfg, 0, 1000, &mut em));
        assert_eq!(ends.0, ends.1, "vertex {n}");
        assert_eq!(state(&j), state(&e), "vertex {n}");
        j.inputs[0][0] = F24::from_f64_trunc(f64::from(n) * 0.75 - 7.0);
        e.inputs[0][0] = j.inputs[0][0];
    }
    assert_eq!(j.jit_blocks(), 1);
}

/// RCP and RSQ in a compiled block (the table read inline, the helper call for the inputs the
/// table leaves to the reference) give the reference's bits on all 2^24 inputs, negated and
/// not (the source modifier flips the sign bit before the lookup).
#[test]
fn jit_rcp_and_rsq_match_alu_on_every_input() {
    use Opcode::*;
    let src = |n: &str| SrcReg::from_name(n).unwrap();
    let dst = |n: &str| DstReg::from_name(n).unwrap();
    let one = |op, d: &str, desc| {
        encode(&Instruction::Alu {
            op,
            dst: dst(d),
            src1: src("v0"),
            src2: src("v0"),
            idx: RelIndex::None,
            desc,
        })
    };
    let code = [
        one(Rcp, "o0", 0),
        one(Rsq, "o1", 0),
        one(Rcp, "o2", 1),
        one(Rsq, "o3", 1),
        encode(&Instruction::Plain(End)),
    ];
    let negate = OpDesc::new(
        DestMask(0xF),
        [
            (true, Swizzle::IDENTITY),
            (false, Swizzle::IDENTITY),
            (false, Swizzle::IDENTITY),
        ],
    );
    let mut cfg = UnitConfig::default();
    cfg.code[..code.len()].copy_from_slice(&code);
    cfg.opdescs[..2].copy_from_slice(&[OpDesc::IDENTITY.0, negate.0]);
    let mut j = ShaderUnit::new(Knobs::default());
    j.set_jit(Some(0));
    let mut em = Vec::new();
    let mut bad = Vec::new();
    for b in 0..1u32 << 24 {
        let x = F24::from_bits(b);
        j.inputs[0][0] = x;
        j.run(&cfg, 0, 100, &mut em);
        let o = j.outputs();
        let neg = F24::from_bits(b ^ 0x80_0000);
        let want = [alu::rcp(x), alu::rsq(x), alu::rcp(neg), alu::rsq(neg)];
        if [o[0][0], o[1][0], o[2][0], o[3][0]] != want {
            bad.push(b);
        }
    }
    assert_eq!(j.jit_blocks(), 1, "one compiled block ran every input");
    assert!(
        bad.is_empty(),
        "{} inputs differ, the first {:06x?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
}

// ---- the SH stage: the VS-only tick against the general one ----

/// What a run of the stage produced: the items sent on with their cycle, the input and output
/// beats, and the instructions executed per unit.
type CoreRun = (
    Vec<(u64, ShadedItem)>,
    Vec<ShaderBeat>,
    Vec<ShaderBeat>,
    [u64; 4],
);

/// Runs `vertices` vertices of the benchmark shader through a `ShaderCore`.
fn run_core(record_commits: bool, jit: Option<u32>, vertices: u32, attrs: &[Vec<Vec4>]) -> CoreRun {
    let gpu = configured_gpu();
    let mut core = ShaderCore::default();
    core.set_record_commits(record_commits);
    core.set_jit(jit);
    let mut vin = Link::new("vs_in", 4);
    let mut vout = Link::new("sh_out", 4);
    let (mut bi, mut bo, mut commits) = (Vec::new(), Vec::new(), Vec::new());
    let (mut sent, mut out, mut cycle) = (0u32, Vec::new(), 0u64);
    while out.len() < vertices as usize {
        vin.begin_cycle();
        vout.begin_cycle();
        while sent < vertices && vin.can_push() {
            let a = attrs[sent as usize % attrs.len()].clone();
            vin.push(
                VertexIn {
                    seq: sent,
                    attrs: a,
                }
                .into(),
            )
            .unwrap();
            sent += 1;
        }
        core.tick(
            cycle,
            ShaderPorts {
                regs: gpu.regs(),
                input: &mut vin,
                output: &mut vout,
                beats_in: &mut bi,
                beats_out: &mut bo,
                commits: &mut commits,
            },
        )
        .unwrap();
        while let Some(item) = vout.pop() {
            out.push((cycle, item));
        }
        cycle += 1;
        assert!(cycle < 100_000);
    }
    assert_eq!(commits.is_empty(), !record_commits);
    if jit == Some(0) {
        // One JIT for the four units: a block per start PC at most, not one per unit.
        let blocks = core.jit_blocks();
        assert!((1..=20).contains(&blocks), "{blocks} blocks");
    }
    (out, bi, bo, core.executed())
}

/// 37 vertices of four random attributes each (drawn towards the special operands).
fn random_attrs(seed: u64) -> Vec<Vec<Vec4>> {
    let mut r = Rng(seed);
    (0..37)
        .map(|_| (0..4).map(|_| vec4(&mut r)).collect())
        .collect()
}

/// With the commit trace off the stage takes its VS-only tick; with it on, the general one.
/// Both send the same items in the same cycles, with the same beats and instruction counts.
#[test]
fn stage_vs_tick_matches_the_general_tick() {
    let attrs = random_attrs(0x57A6E);
    let fast = run_core(false, None, 300, &attrs);
    let general = run_core(true, None, 300, &attrs);
    assert_eq!(fast, general);
}

/// The four-unit stage with the JIT (every block compiled at once) sends the same items in
/// the same cycles, with the same beats and instruction counts, as without; the operands
/// include values outside the fast path's window (blocks stop before those instructions).
#[test]
fn stage_with_jit_matches_the_stage_without() {
    let attrs = random_attrs(0x4A17);
    let jit = run_core(false, Some(0), 300, &attrs);
    let interp = run_core(false, None, 300, &attrs);
    assert_eq!(jit, interp);
}
