//! The shader knobs of issue 20 (item 6): `aL` after a nested LOOP ([`LoopAl`]) and MOV of a
//! subnormal or -0 ([`MovSubnormal`]), both UNVERIFIED(hw); each value pinned on a program.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::num::F24;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::asm::assemble;
use pica_model::shader::interp::{Knobs, LoopAl, MinSubnormal, MovSubnormal, RunEnd, ShaderUnit};

fn config(src: &str) -> (UnitConfig, u16) {
    let s = assemble(src, "knobs.v.pica").unwrap();
    let mut cfg = UnitConfig::default();
    cfg.code[..s.code.len()].copy_from_slice(&s.code);
    cfg.opdescs[..s.opdescs.len()].copy_from_slice(&s.opdescs);
    (cfg, s.dvles[0].entry as u16)
}

fn run(cfg: &UnitConfig, entry: u16, knobs: Knobs) -> ShaderUnit {
    let mut u = ShaderUnit::new(knobs);
    let mut emitted = Vec::new();
    assert_eq!(u.run(cfg, entry, 10_000, &mut emitted), RunEnd::End);
    u
}

const NESTED: &str = "\
.proc main
    for i0
        for i1
            add r0, r0, v0
        .end
        add r1, r1, v0
    .end
    end
.end
";

#[test]
fn knob_loop_al_after_a_nested_loop() {
    let (mut cfg, entry) = config(NESTED);
    let restore = Knobs {
        loop_al: LoopAl::Restore,
        ..Knobs::default()
    };
    // Azahar's "Nested Loop" test values: i0 = (4|9, 0, 1|2), i1 = (4|7, 0, 1).
    for (x0, z0) in [(4u8, 1u8), (4, 2), (9, 1), (9, 2)] {
        for x1 in [4u8, 7] {
            cfg.int_uniforms[0] = [x0, 0, z0, 0];
            cfg.int_uniforms[1] = [x1, 0, 1, 0];
            // Restore (Azahar's JIT): aL = i0.y + (i0.x + 1) * i0.z, as its test expects.
            let u = run(&cfg, entry, restore);
            assert_eq!(u.al, i32::from(z0) * (i32::from(x0) + 1));
            // Keep (default): each outer iteration continues from the inner loop's last value,
            // i1.y + (i1.x + 1) * i1.z, plus the outer step.
            let u = run(&cfg, entry, Knobs::default());
            assert_eq!(u.al, (i32::from(x1) + 1) + i32::from(z0));
        }
    }
    // A single loop ends with its own aL either way (nothing to restore).
    let (mut cfg, entry) =
        config(".proc main\n    for i0\n        nop\n        nop\n    .end\n    end\n.end\n");
    cfg.int_uniforms[0] = [2, 10, 3, 0];
    for k in [Knobs::default(), restore] {
        assert_eq!(run(&cfg, entry, k).al, 10 + 3 * 3);
    }
}

#[test]
fn knob_loop_al_after_a_break_out_of_a_nested_loop() {
    let src = "\
.proc main
    for i0
        for i1
            add r0, r0, v0
            breakc cmp.x
        .end
        add r1, r1, v0
    .end
    end
.end
";
    let (mut cfg, entry) = config(src);
    cfg.int_uniforms[0] = [1, 20, 2, 0];
    cfg.int_uniforms[1] = [5, 100, 7, 0];
    let mut u = ShaderUnit::new(Knobs {
        loop_al: LoopAl::Restore,
        ..Knobs::default()
    });
    u.cmp = [true, false];
    let mut emitted = Vec::new();
    assert_eq!(u.run(&cfg, entry, 10_000, &mut emitted), RunEnd::End);
    // Restore: BREAKC leaves the inner loop with the outer aL; 2 outer iterations of +2.
    assert_eq!(u.al, 20 + 2 * 2);
    let mut u = ShaderUnit::new(Knobs::default());
    u.cmp = [true, false];
    assert_eq!(u.run(&cfg, entry, 10_000, &mut emitted), RunEnd::End);
    // Keep: BREAK adds no step (the inner LOOP set 100), then the outer step.
    assert_eq!(u.al, 100 + 2);
}

#[test]
fn knob_mov_subnormal_passes_or_flushes() {
    let src = ".fvec c\n.fvec z\n.proc main\n    mov o0, c\n    mov o1, -z\n    mov r1, z\n    \
               add o2, c, r1\n    max o3, c, r1\n    end\n.end\n";
    let (mut cfg, entry) = config(src);
    let f = F24::from_bits;
    // c0: the smallest subnormal, -0, 1.0 and the largest subnormal; c1 = +0.
    cfg.float_uniforms[0] = [f(0x00_0001), f(0x80_0000), f(0x3F_0000), f(0x00_FFFF)];
    cfg.float_uniforms[1] = [F24::ZERO; 4];
    let bits = |u: &ShaderUnit, o: usize| u.outputs()[o].map(F24::bits);
    let pass = run(&cfg, entry, Knobs::default());
    assert_eq!(bits(&pass, 0), [0x00_0001, 0x80_0000, 0x3F_0000, 0x00_FFFF]);
    assert_eq!(bits(&pass, 1), [0x80_0000; 4]);
    let flush = run(
        &cfg,
        entry,
        Knobs {
            mov_subnormal: MovSubnormal::Flush,
            ..Knobs::default()
        },
    );
    assert_eq!(bits(&flush, 0), [0, 0, 0x3F_0000, 0]);
    assert_eq!(bits(&flush, 1), [0; 4]);
    // The other operations do not depend on the knob: ADD flushes its inputs, MAX selects
    // the raw bits (3dbrew `max(s, 0) = s`).
    for u in [&pass, &flush] {
        assert_eq!(bits(u, 2), [0, 0, 0x3F_0000, 0]);
        assert_eq!(bits(u, 3), [0x00_0001, 0, 0x3F_0000, 0x00_FFFF]);
    }
}

#[test]
fn knob_min_subnormal_passes_or_flushes_on_the_fast_and_exact_paths() {
    // min(c, z) with z = +0 and min(c, w) with w = -2^-60 (normal, negative).
    let src = ".fvec c\n.fvec z\n.fvec w\n.proc main\n    mov r1, z\n    mov r2, w\n    \
               min o0, c, r1\n    min o1, c, r2\n    end\n.end\n";
    let (mut cfg, entry) = config(src);
    let f = F24::from_bits;
    // c0: the smallest subnormal, -0, -(smallest subnormal), 1.0.
    cfg.float_uniforms[0] = [f(0x00_0001), f(0x80_0000), f(0x80_0001), f(0x3F_0000)];
    cfg.float_uniforms[1] = [F24::ZERO; 4];
    cfg.float_uniforms[2] = [f(0x81_0000); 4];
    let flush = Knobs {
        min_subnormal: MinSubnormal::Flush,
        ..Knobs::default()
    };
    let bits = |u: &ShaderUnit, o: usize| u.outputs()[o].map(F24::bits);
    // The exact path, one instruction at a time.
    let exact = |k: Knobs| {
        let mut u = ShaderUnit::new(k);
        u.start(entry);
        let mut emitted = Vec::new();
        while u.step_exact(&cfg, None, &mut emitted) == pica_model::shader::interp::Step::Continue {
        }
        u
    };
    for (k, o0) in [
        // Pass: -(tiny) < 0 selects it; -0 against +0 is a tie (the second operand).
        (
            Knobs::default(),
            [0x00_0000, 0x00_0000, 0x80_0001, 0x00_0000],
        ),
        // Flush: every input with exponent 0 is +0 first.
        (flush, [0; 4]),
    ] {
        for u in [run(&cfg, entry, k), exact(k)] {
            assert_eq!(bits(&u, 0), o0, "{k:?}");
        }
    }
    let (p, q) = (run(&cfg, entry, Knobs::default()), run(&cfg, entry, flush));
    assert_ne!(bits(&p, 0), bits(&q, 0));
    // A warm decode cache follows a knob changed between invocations.
    let mut u = run(&cfg, entry, Knobs::default());
    u.knobs = flush;
    let mut emitted = Vec::new();
    assert_eq!(u.run(&cfg, entry, 10_000, &mut emitted), RunEnd::End);
    assert_eq!(bits(&u, 0), [0; 4]);
}

#[test]
fn knob_names_parse() {
    let mut k = Knobs::default();
    k.set("loop-al=restore").unwrap();
    k.set("mov-subnormal=flush").unwrap();
    assert_eq!(
        (k.loop_al, k.mov_subnormal),
        (LoopAl::Restore, MovSubnormal::Flush)
    );
    k.set("loop-al=keep").unwrap();
    k.set("mov-subnormal=pass").unwrap();
    assert_eq!(k, Knobs::default());
    assert!(k.set("loop-al=outer").unwrap_err().contains("keep|restore"));
    assert!(Knobs::NAMES.contains(&("mov-subnormal", "pass|flush")));
}

/// Azahar's "Nested Loop" test program (`src/tests/video_core/shader.cpp`): two LOOPs whose
/// bodies end on the same ADD (nihstro's inline assembler gives both the same DST; picasso
/// and the model's assembler would pad a NOP after the inner `.end`, hence `.noautonop`).
const SHARED_END: &str = "\
.noautonop
.proc main
    mov r0, v0
    for i0
        for i1
            add r0, r0, v0
        .end
    .end
    mov o0, r0
    end
.end
";

/// Runs `cfg` from 0 on the fast path ([`ShaderUnit::run`]) and on the exact path
/// ([`ShaderUnit::step_exact`]); both must agree. v0 = (1, 0, 0, 0) as Azahar's
/// `Run(shader_unit, 1.0f)` sets it.
fn run_both_paths(cfg: &UnitConfig, knobs: Knobs) -> ShaderUnit {
    let start = |u: &mut ShaderUnit| u.inputs[0] = [F24::ONE, F24::ZERO, F24::ZERO, F24::ZERO];
    let mut fast = ShaderUnit::new(knobs);
    start(&mut fast);
    let mut emitted = Vec::new();
    assert_eq!(fast.run(cfg, 0, 10_000, &mut emitted), RunEnd::End);
    let mut exact = ShaderUnit::new(knobs);
    start(&mut exact);
    exact.start(0);
    while exact.step_exact(cfg, None, &mut emitted) == pica_model::shader::interp::Step::Continue {}
    assert_eq!(
        (
            exact.outputs(),
            exact.al,
            exact.executed,
            exact.loop_stack.entries()
        ),
        (
            fast.outputs(),
            fast.al,
            fast.executed,
            fast.loop_stack.entries()
        ),
        "{knobs:?}"
    );
    fast
}

#[test]
fn knob_loop_shared_end_on_azahars_nested_loop_test() {
    use pica_model::shader::interp::LoopSharedEnd;
    use pica_model::shader::isa::{decode, Instruction, Opcode};
    let (mut cfg, entry) = config(SHARED_END);
    assert_eq!(entry, 0);
    // Both LOOPs (words 1 and 2) end on the ADD at word 3.
    for pc in [1, 2] {
        assert!(
            matches!(
                decode(cfg.code[pc]),
                Instruction::FlowUniform { op: Opcode::Loop, id, target: 3, num: 0 } if usize::from(id) == pc - 1
            ),
            "{pc}: {:?}",
            decode(cfg.code[pc])
        );
    }
    let knobs = |shared: LoopSharedEnd, al: LoopAl| Knobs {
        loop_shared_end: shared,
        loop_al: al,
        ..Knobs::default()
    };
    let f24 = |x: i32| F24::from_f64_trunc(f64::from(x)).bits();
    // Azahar's values: i0 = (4|9, 0, 1|2), i1 = (4|7, 0, 1).
    for (x0, z0) in [(4i32, 1i32), (4, 2), (9, 1), (9, 2)] {
        for x1 in [4i32, 7] {
            cfg.int_uniforms[0] = [x0 as u8, 0, z0 as u8, 0];
            cfg.int_uniforms[1] = [x1 as u8, 0, 1, 0];
            let (y0, y1, z1) = (0, 0, 1);
            // One (default, 3dbrew): the inner loop runs x1 + 1 times, its last iteration pops
            // it at the shared end and execution falls through to MOV with the outer entry
            // still on the stack, never stepped (x0 iterations left): r0 = 1 + (x1 + 1).
            let one = 1 + (x1 + 1);
            // All (Azahar's JIT): the outer loop closes there too and runs x0 + 1 times:
            // r0 = 1 + (x0 + 1)(x1 + 1), Azahar's expected_out.
            let all = 1 + (x0 + 1) * (x1 + 1);
            for (k, out, al, left, executed) in [
                // aL: the inner loop's y1 + (x1 + 1) z1, kept.
                (
                    knobs(LoopSharedEnd::One, LoopAl::Keep),
                    one,
                    y1 + (x1 + 1) * z1,
                    1,
                    6 + x1,
                ),
                // aL: restored to the outer loop's y0 when the inner pops (the outer remains).
                (
                    knobs(LoopSharedEnd::One, LoopAl::Restore),
                    one,
                    y0,
                    1,
                    6 + x1,
                ),
                // aL: the last inner loop's value plus the outer step.
                (
                    knobs(LoopSharedEnd::All, LoopAl::Keep),
                    all,
                    y1 + (x1 + 1) * z1 + z0,
                    0,
                    4 + (x0 + 1) * (x1 + 2),
                ),
                // aL: Azahar's expected_aL = i0.y + (i0.x + 1) i0.z.
                (
                    knobs(LoopSharedEnd::All, LoopAl::Restore),
                    all,
                    y0 + (x0 + 1) * z0,
                    0,
                    4 + (x0 + 1) * (x1 + 2),
                ),
            ] {
                let u = run_both_paths(&cfg, k);
                let o0 = u.outputs()[0].map(F24::bits);
                assert_eq!(o0, [f24(out), 0, 0, 0], "{k:?} {x0} {z0} {x1}");
                assert_eq!(u.al, al, "{k:?} {x0} {z0} {x1}");
                assert_eq!(u.loop_stack.entries().len(), left, "{k:?}");
                assert_eq!(u.executed, executed as u64, "{k:?}");
                if left == 1 {
                    // The stale outer entry: untouched.
                    let e = u.loop_stack.entries()[0];
                    assert_eq!((e.end, e.start, e.remaining), (4, 2, x0 as u16));
                }
            }
        }
    }
    // The bits of the first case, written out: 6.0 and 26.0.
    cfg.int_uniforms[0] = [4, 0, 1, 0];
    cfg.int_uniforms[1] = [4, 0, 1, 0];
    let bits = |k| run_both_paths(&cfg, k).outputs()[0][0].bits();
    assert_eq!(bits(Knobs::default()), 0x41_8000);
    assert_eq!(bits(knobs(LoopSharedEnd::All, LoopAl::Keep)), 0x43_A000);
}

#[test]
fn knob_loop_shared_end_leaves_other_stacks_and_distinct_ends_alone() {
    use pica_model::shader::interp::LoopSharedEnd;
    let all = Knobs {
        loop_shared_end: LoopSharedEnd::All,
        ..Knobs::default()
    };
    // Distinct ends (NESTED): the knob changes nothing.
    let (mut cfg, entry) = config(NESTED);
    assert_eq!(entry, 0);
    cfg.int_uniforms[0] = [2, 5, 3, 0];
    cfg.int_uniforms[1] = [1, 7, 2, 0];
    let (a, b) = (
        run_both_paths(&cfg, Knobs::default()),
        run_both_paths(&cfg, all),
    );
    assert_eq!(a.temps[0][0].to_f64(), 6.0);
    assert_eq!((a.temps, a.al, a.executed), (b.temps, b.al, b.executed));
    // Three LOOPs ending on one instruction: with All the three levels close there, innermost
    // first, each iterating fully.
    let src = "\
.noautonop
.proc main
    for i0
        for i1
            for i2
                add r0, r0, v0
            .end
        .end
    .end
    add r1, r1, v0
    end
.end
";
    let (mut cfg, entry) = config(src);
    assert_eq!(entry, 0);
    cfg.int_uniforms[0] = [1, 0, 1, 0];
    cfg.int_uniforms[1] = [2, 0, 1, 0];
    cfg.int_uniforms[2] = [3, 0, 1, 0];
    let one = run_both_paths(&cfg, Knobs::default());
    let three = run_both_paths(&cfg, all);
    let x = |u: &ShaderUnit, r: usize| u.temps[r][0].to_f64();
    // One: only the innermost loop (4 iterations) runs, the other two stay on the stack.
    assert_eq!((x(&one, 0), x(&one, 1)), (4.0, 1.0));
    assert_eq!(one.loop_stack.entries().len(), 2);
    // All: 2 * 3 * 4 iterations.
    assert_eq!((x(&three, 0), x(&three, 1)), (24.0, 1.0));
    assert!(three.loop_stack.is_empty());
}
