//! The shader-unit RTL (`pica_sh_unit_top`) against the model's `ShaderUnit`, commit record by
//! commit record: random valid programs (the generator of `pica fuzz --target shader`,
//! `pica_vectors::shader_gen`: every opcode and format, nested IF/LOOP/CALL, relative
//! addressing, random operand descriptors, edge-case floats), directed tests of the
//! control-flow quirks, and a check that each injected bug is caught.
//!
//! Deterministic: programs come from the generator's seeded splitmix64.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::num::F24;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::interp::Knobs;
use pica_model::shader::isa::{encode, Condition, DstReg, Instruction, Opcode, RelIndex, SrcReg};
use pica_rtl_bridge::shader::{RtlEmit, RtlRunEnd, RtlShaderUnit, ShVariant};
use pica_vectors::shader_gen::{
    compare, generate, run_model, ShaderCase, ShaderRun as Run, MAX_INSTRUCTIONS,
};

/// Loads `case` into a new unit (code beyond the program is zero on both sides: fresh RAM).
fn load(u: &mut RtlShaderUnit, case: &ShaderCase) {
    u.load_code(0, &case.code);
    u.load_opdescs(0, &case.opdescs);
    u.load_uniforms(0, &case.float_uniforms);
    u.set_uniforms(case.int_uniforms, case.bool_uniforms);
    for (i, v) in case.inputs.iter().enumerate() {
        u.set_input(i as u8, *v);
    }
}

/// The benchmark shader of `model/benches/shader.rs` as a case.
fn bench_case() -> ShaderCase {
    use pica_model::shader::bench_program::{inputs, program, uniforms};
    let (code, descs) = program();
    let mut case = ShaderCase::empty();
    case.code = code;
    case.opdescs[..descs.len()].copy_from_slice(&descs);
    case.float_uniforms[..11].copy_from_slice(&uniforms());
    case.inputs[..4].copy_from_slice(&inputs());
    case
}

fn run_rtl(variant: ShVariant, case: &ShaderCase) -> Run {
    let mut u = RtlShaderUnit::new(variant).unwrap();
    load(&mut u, case);
    run_unit(&mut u, case)
}

/// Runs a loaded unit from the case's entry point.
fn run_unit(u: &mut RtlShaderUnit, case: &ShaderCase) -> Run {
    let mut commits = Vec::new();
    let mut emits: Vec<RtlEmit> = Vec::new();
    let end = match u.run(case.entry, MAX_INSTRUCTIONS, &mut commits, &mut emits) {
        RtlRunEnd::End => "end".to_string(),
        RtlRunEnd::Hang(code) => format!("hang {code}"),
        RtlRunEnd::Limit => "limit".to_string(),
        RtlRunEnd::Stuck => "stuck".to_string(),
        RtlRunEnd::BadStatus => "done_o/hang_o disagree with the commits".to_string(),
    };
    Run {
        commits,
        end,
        outputs: u.outputs(),
        emits: emits
            .iter()
            .map(|e| (e.vtx_id, e.winding, e.prim_emit, e.outputs))
            .collect(),
    }
}

/// Runs `count` random programs from `seed0` on `variant`; the first mismatch as
/// `(program index, description)`.
fn random_campaign(variant: ShVariant, seed0: u64, count: u64) -> Option<(u64, String)> {
    for i in 0..count {
        let case = generate(seed0 + i);
        let model = run_model(&case, variant.knobs(), MAX_INSTRUCTIONS);
        let rtl = run_rtl(variant, &case);
        if let Some(d) = compare(&case, &model, &rtl) {
            return Some((i, d));
        }
    }
    None
}

#[test]
fn shader_unit_random_programs_match_the_model() {
    let count = std::env::var("PICA_SH_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500);
    if let Some((i, d)) = random_campaign(ShVariant::Default, 0x5EED_0000, count) {
        panic!("random program {i} (seed 0x{:x}): {d}", 0x5EED_0000 + i);
    }
}

#[test]
fn shader_unit_random_programs_cover_every_opcode() {
    // The generator reaches every opcode and every hang kind within the campaign's seeds.
    let mut seen = std::collections::BTreeSet::new();
    let mut hangs = std::collections::BTreeSet::new();
    for i in 0..300 {
        let case = generate(0x5EED_0000 + i);
        let model = run_model(&case, Knobs::default(), MAX_INSTRUCTIONS);
        for c in &model.commits {
            seen.insert(c.word >> 26);
            hangs.insert(c.hang);
        }
    }
    for info in pica_model::shader::isa::OPCODES {
        let codes: Vec<u32> = (0..info.span).map(|k| u32::from(info.code + k)).collect();
        assert!(
            codes.iter().any(|c| seen.contains(c)),
            "{} never executed",
            info.mnemonic
        );
    }
    for h in [0u8, 1, 2, 4] {
        assert!(hangs.contains(&h), "hang code {h} never reached");
    }
}

#[test]
fn shader_unit_random_programs_match_the_model_with_every_knob_flipped() {
    // The KnobsAlt build (every knob parameter on its other value) against the model with the
    // same knobs; fewer programs, as each knob only matters on a few instructions.
    if let Some((i, d)) = random_campaign(ShVariant::KnobsAlt, 0x5EED_0000, 500) {
        panic!("random program {i} (knobs flipped): {d}");
    }
}

fn caught_within(variant: ShVariant, limit: u64) {
    match random_campaign(variant, 0x5EED_0000, limit) {
        Some((i, d)) => eprintln!("{} caught by program {i}: {d}", variant.name()),
        None => panic!("{} not caught by {limit} random programs", variant.name()),
    }
}

#[test]
fn shader_unit_random_catches_inject_add_round() {
    caught_within(ShVariant::InjectAddRound, 2000);
}

#[test]
fn shader_unit_random_catches_inject_loop_extra() {
    caught_within(ShVariant::InjectLoopExtra, 2000);
}

// ---------------------------------------------------------------------------------------------
// Directed tests of the control-flow quirks.

fn call(target: u16, num: u8) -> u32 {
    encode(&Instruction::Flow {
        op: Opcode::Call,
        cond: Condition::default(),
        target,
        num,
    })
}

fn plain(op: Opcode) -> u32 {
    encode(&Instruction::Plain(op))
}

fn mov(dst: u8, src: u8, idx: RelIndex) -> u32 {
    encode(&Instruction::Alu {
        op: Opcode::Mov,
        dst: DstReg::from_raw(dst),
        src1: SrcReg::from_raw(src),
        src2: SrcReg::default(),
        idx,
        desc: 0,
    })
}

fn mova(src: u8) -> u32 {
    encode(&Instruction::Alu {
        op: Opcode::Mova,
        dst: DstReg::default(),
        src1: SrcReg::from_raw(src),
        src2: SrcReg::default(),
        idx: RelIndex::None,
        desc: 0,
    })
}

/// A config with `words` placed at their addresses (others NOP up to the highest), descriptor
/// 0 = identity with mask xyzw, and uniform c_n = (n, n, n, n).
fn directed(words: &[(usize, u32)]) -> (UnitConfig, usize) {
    let mut cfg = UnitConfig::default();
    let len = words.iter().map(|(a, _)| a + 1).max().unwrap_or(0);
    for w in cfg.code[..len].iter_mut() {
        *w = plain(Opcode::Nop);
    }
    for &(a, w) in words {
        cfg.code[a] = w;
    }
    cfg.opdescs[0] = 0xF | 0x1B << 5 | 0x1B << 14 | 0x1B << 23;
    for (n, u) in cfg.float_uniforms.iter_mut().enumerate() {
        *u = [F24::from_f64_trunc(n as f64); 4];
    }
    (cfg, len)
}

/// Runs a directed case on both sides, requires agreement, and returns the model's run.
fn both(cfg: &UnitConfig, len: usize, inputs: [[F24; 4]; 16]) -> Run {
    let case = ShaderCase::from_config(cfg, len, inputs, 0);
    let model = run_model(&case, Knobs::default(), MAX_INSTRUCTIONS);
    let rtl = run_rtl(ShVariant::Default, &case);
    if let Some(d) = compare(&case, &model, &rtl) {
        panic!("{d}");
    }
    model
}

fn vec4(x: f64) -> [F24; 4] {
    [F24::from_f64_trunc(x); 4]
}

#[test]
fn shader_unit_fourth_call_pop_keeps_its_copy() {
    // Four nested CALLs whose triggers chain: returning from the innermost pops all four, and
    // the fourth pop does not update the PC copy, so execution resumes at 11, not 1.
    let (cfg, len) = directed(&[
        (0, call(10, 1)),
        (1, plain(Opcode::End)),
        (10, call(20, 1)),
        (11, plain(Opcode::End)),
        (20, call(30, 1)),
        (30, call(40, 1)),
        (40, mov(0x10, 0x00, RelIndex::None)),
    ]);
    let run = both(&cfg, len, [[F24::ZERO; 4]; 16]);
    let last = run.commits.last().unwrap();
    assert!(last.end);
    assert_eq!(last.pc, 11);
    assert_eq!(run.commits[4].next_pc, 11);
}

#[test]
fn shader_unit_call_stack_overflow_drops_the_oldest() {
    // Five nested CALLs: the outermost return is dropped, so after the fourth return the
    // program runs on past the first subroutine (END at 13) instead of returning to 1.
    let (cfg, len) = directed(&[
        (0, call(10, 3)),
        (1, plain(Opcode::End)),
        (10, call(20, 3)),
        (13, plain(Opcode::End)),
        (20, call(30, 3)),
        (30, call(40, 3)),
        (40, call(50, 1)),
        (50, plain(Opcode::Nop)),
    ]);
    let run = both(&cfg, len, [[F24::ZERO; 4]; 16]);
    let last = run.commits.last().unwrap();
    assert!(last.end);
    assert_eq!(last.pc, 13);
}

#[test]
fn shader_unit_break_on_empty_loop_stack_hangs() {
    let (cfg, len) = directed(&[(0, plain(Opcode::Nop)), (1, plain(Opcode::Break))]);
    let run = both(&cfg, len, [[F24::ZERO; 4]; 16]);
    assert_eq!(run.end, "hang 1");
    assert_eq!(run.commits.len(), 2);
    assert_eq!(run.commits[1].hang, 1);
}

#[test]
fn shader_unit_double_mova_hangs() {
    let (cfg, len) = directed(&[(0, mova(0)), (1, mova(1)), (2, plain(Opcode::End))]);
    let mut inputs = [[F24::ZERO; 4]; 16];
    inputs[0] = vec4(3.0);
    inputs[1] = vec4(5.0);
    let run = both(&cfg, len, inputs);
    assert_eq!(run.end, "hang 2");
    // The second MOVA did not execute: a0 still holds the first one's value.
    assert_eq!((run.commits[1].a0x, run.commits[1].hang), (3, 2));
}

#[test]
fn shader_unit_emit_switches_the_output_bank() {
    // o0 = v0; emit; o1 = v1; emit; end. The second emit sends bank 1, where o0 was never
    // written; the active bank at the end is bank 0 again (o0 = v0, o1 = 0).
    let (cfg, len) = directed(&[
        (0, mov(0x00, 0x00, RelIndex::None)),
        (1, plain(Opcode::Emit)),
        (2, mov(0x01, 0x01, RelIndex::None)),
        (3, plain(Opcode::Emit)),
        (4, plain(Opcode::End)),
    ]);
    let mut inputs = [[F24::ZERO; 4]; 16];
    inputs[0] = vec4(1.0);
    inputs[1] = vec4(2.0);
    let run = both(&cfg, len, inputs);
    let one = vec4(1.0).map(F24::bits);
    let two = vec4(2.0).map(F24::bits);
    assert_eq!(run.emits.len(), 2);
    assert_eq!((run.emits[0].3[0], run.emits[0].3[1]), (one, [0; 4]));
    assert_eq!((run.emits[1].3[0], run.emits[1].3[1]), ([0; 4], two));
    assert_eq!((run.outputs[0], run.outputs[1]), (one, [0; 4]));
}

#[test]
fn shader_unit_relative_addressing_out_of_range() {
    // a0.x = 200: outside [-128, 127], not applied (c5); a0.x = 100: index 105 > 95 reads
    // ones; a0.x = -10: (5 - 10) & 0x7F = 123 reads ones; a0.x = 7: c12.
    let cases = [(200.0, 5.0), (100.0, 1.0), (-10.0, 1.0), (7.0, 12.0)];
    for (a0, expect) in cases {
        let (cfg, len) = directed(&[
            (0, mova(0)),
            (1, mov(0x00, 0x20 + 5, RelIndex::A0X)),
            (2, plain(Opcode::End)),
        ]);
        let mut inputs = [[F24::ZERO; 4]; 16];
        inputs[0] = vec4(a0);
        let run = both(&cfg, len, inputs);
        assert_eq!(run.outputs[0], vec4(expect).map(F24::bits), "a0.x = {a0}");
    }
}

#[test]
fn shader_unit_loop_counter_addresses_uniforms() {
    // loop i0 (3 iterations, aL from 2 step 3) over `add r0, r0, c0[aL]`: c2 + c5 + c8.
    let add = encode(&Instruction::Alu {
        op: Opcode::Add,
        dst: DstReg::from_raw(0x10),
        src1: SrcReg::from_raw(0x20),
        src2: SrcReg::from_raw(0x10),
        idx: RelIndex::AL,
        desc: 0,
    });
    let lp = encode(&Instruction::FlowUniform {
        op: Opcode::Loop,
        id: 0,
        target: 1,
        num: 0,
    });
    let (mut cfg, len) = directed(&[
        (0, lp),
        (1, add),
        (2, mov(0x00, 0x10, RelIndex::None)),
        (3, plain(Opcode::End)),
    ]);
    cfg.int_uniforms[0] = [2, 2, 3, 0];
    let run = both(&cfg, len, [[F24::ZERO; 4]; 16]);
    assert_eq!(run.outputs[0], vec4(15.0).map(F24::bits));
}

#[test]
fn shader_unit_pc_past_the_end_hangs_after_the_instruction() {
    // JMPU (b0 false, inverted) to 4094; MOV r0 at 4094; NOP at 4095 runs the PC to 4096: a
    // hang (default knob) that keeps the NOP's effects and reports the old PC.
    let jmp = encode(&Instruction::FlowUniform {
        op: Opcode::Jmpu,
        id: 0,
        target: 4094,
        num: 1,
    });
    let (cfg, len) = directed(&[
        (0, jmp),
        (4094, mov(0x10, 0x20 + 3, RelIndex::None)),
        (4095, plain(Opcode::Nop)),
    ]);
    let run = both(&cfg, len, [[F24::ZERO; 4]; 16]);
    assert_eq!(run.end, "hang 3");
    let last = run.commits.last().unwrap();
    assert_eq!((last.pc, last.next_pc, last.hang), (4095, 4095, 3));
    assert_eq!(run.commits[1].result, vec4(3.0).map(F24::bits));
}

#[test]
fn shader_unit_nested_loops_and_ifs_follow_the_stacks() {
    // loop i1 { ifu b3 { add r0, r0, c1 } else { add r0, r0, c2 } ; loop i2 { add r1, r1, c1 } }
    let add = |dst: u8, c: u8| {
        encode(&Instruction::Alu {
            op: Opcode::Add,
            dst: DstReg::from_raw(dst),
            src1: SrcReg::from_raw(0x20 + c),
            src2: SrcReg::from_raw(dst),
            idx: RelIndex::None,
            desc: 0,
        })
    };
    let fu = |op, id, target, num| {
        encode(&Instruction::FlowUniform {
            op,
            id,
            target,
            num,
        })
    };
    let (mut cfg, len) = directed(&[
        (0, fu(Opcode::Loop, 1, 5, 0)),
        (1, fu(Opcode::Ifu, 3, 3, 1)),
        (2, add(0x10, 1)),
        (3, add(0x10, 2)),
        (4, fu(Opcode::Loop, 2, 5, 0)),
        (5, add(0x11, 1)),
        (6, mov(0x00, 0x10, RelIndex::None)),
        (7, mov(0x01, 0x11, RelIndex::None)),
        (8, plain(Opcode::End)),
    ]);
    cfg.int_uniforms[1] = [2, 0, 1, 0];
    cfg.int_uniforms[2] = [1, 0, 0, 0];
    for bools in [0u16, 1 << 3] {
        cfg.bool_uniforms = bools;
        let run = both(&cfg, len, [[F24::ZERO; 4]; 16]);
        assert_eq!(run.end, "end");
    }
}

/// The benchmark shader of `model/benches/shader.rs` (20 instructions: 4x4 transform, normal
/// transform and normalisation with one RSQ, one diffuse light) on the RTL unit: the same
/// commits as the model, and the clocks it takes from start to END, printed (the figure of the
/// user guide's FPGA table). The unit's pipeline retires an independent instruction per clock,
/// so the count is the instructions, the pipeline's fill (2), the RSQ's SFU time and the clock
/// after END; the bound fails if an instruction took the old 3 clocks.
#[test]
fn bench_shader_clocks_per_vertex() {
    let case = bench_case();
    let mut u = RtlShaderUnit::new(ShVariant::Default).unwrap();
    load(&mut u, &case);
    let mut commits = Vec::new();
    let mut emits: Vec<RtlEmit> = Vec::new();
    let end = u.run(0, MAX_INSTRUCTIONS, &mut commits, &mut emits);
    let clocks = u.run_clocks();
    assert_eq!(end, RtlRunEnd::End);
    let model = run_model(&case, Default::default(), MAX_INSTRUCTIONS);
    assert_eq!(commits, model.commits);
    println!(
        "bench shader: {} instructions, {clocks} clocks per vertex on one unit",
        commits.len()
    );
    // The unit's schedule (rtl/pica_shader_unit.sv): 4 clocks to the first issue (F, D, R),
    // then one instruction per clock, except that one reading a temporary the instruction
    // before it writes issues 14 clocks after it (12 through the arithmetic pipeline, W's
    // write, R's read), and the RSQ holds E 23 clocks; END's record leaves 12 clocks after it
    // issues. The program has 8 such dependences (r0 -> DP3 r1 -> RSQ -> MUL r0 -> DP3 r2 ->
    // MAX -> MUL r3 -> ADD -> MUL o1): 4 + 20 + 8 * 13 + 22 + 12 = 162 (153 before the operand
    // read had its own stage R, 45 on the 3-stage unit before the arithmetic was pipelined, 82
    // at 3 clocks per instruction). More means a bubble the schedule does not explain.
    assert!(
        clocks <= 162,
        "{clocks} clocks for {} instructions",
        commits.len()
    );
}

/// Backpressure (`stall_i`, which `pica_sh` raises while its commit queue is full) holds the
/// pipeline without changing what it retires: the benchmark shader and a hundred generated
/// programs commit, emit and end the same with stalls on 0 %, 30 % and 90 % of the clocks, and
/// the stalled runs take more clocks (so the stalls did reach the unit).
#[test]
fn stalls_change_clocks_not_commits() {
    let cases = std::iter::once(bench_case()).chain((0..100).map(generate));
    for (n, case) in cases.enumerate() {
        let mut runs = Vec::new();
        for percent in [0u8, 30, 90] {
            let mut u = RtlShaderUnit::new(ShVariant::Default).unwrap();
            u.set_stall(percent, 0x9E37_79B9_7F4A_7C15 ^ n as u64);
            load(&mut u, &case);
            let t0 = u.cycles();
            let run = run_unit(&mut u, &case);
            runs.push((run, u.cycles() - t0));
        }
        for (r, _) in &runs[1..] {
            let first = &runs[0].0;
            assert_eq!(r.end, first.end, "case {n}: end");
            assert_eq!(r.commits, first.commits, "case {n}: commits");
            assert_eq!(r.emits, first.emits, "case {n}: emits");
            assert_eq!(r.outputs, first.outputs, "case {n}: outputs");
        }
        if runs[0].0.commits.len() > 1 {
            assert!(
                runs[2].1 > runs[0].1,
                "case {n}: 90 % stalls took no more clocks"
            );
        }
    }
}
