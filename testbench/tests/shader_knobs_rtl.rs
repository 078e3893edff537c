//! The shader knobs `loop-al`, `mov-subnormal` and `loop-shared-end` on the RTL shader unit:
//! directed programs (nested loops left normally and by BREAKC, MOV of subnormals and -0,
//! Azahar's "Nested Loop" program with two LOOPs ending on one instruction) run on the default
//! build (every knob at its default) and on the `knobs_alt` build (every knob flipped) against
//! the model with the same knobs, commit record by commit record.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::num::F24;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::asm::assemble;
use pica_model::shader::interp::{LoopAl, LoopSharedEnd, MovSubnormal};
use pica_rtl_bridge::shader::{RtlEmit, RtlRunEnd, RtlShaderUnit, ShVariant};
use pica_vectors::shader_gen::{compare, run_model, ShaderCase, ShaderRun, MAX_INSTRUCTIONS};

fn case(src: &str, setup: impl Fn(&mut UnitConfig)) -> ShaderCase {
    let s = assemble(src, "knobs.v.pica").unwrap();
    let mut cfg = UnitConfig::default();
    cfg.code[..s.code.len()].copy_from_slice(&s.code);
    cfg.opdescs[..s.opdescs.len()].copy_from_slice(&s.opdescs);
    setup(&mut cfg);
    let mut inputs = [[F24::ZERO; 4]; 16];
    inputs[0] = [F24::ONE; 4];
    ShaderCase::from_config(&cfg, s.code.len(), inputs, s.dvles[0].entry as u16)
}

fn run_rtl(variant: ShVariant, case: &ShaderCase) -> ShaderRun {
    let mut u = RtlShaderUnit::new(variant).unwrap();
    u.load_code(0, &case.code);
    u.load_opdescs(0, &case.opdescs);
    u.load_uniforms(0, &case.float_uniforms);
    u.set_uniforms(case.int_uniforms, case.bool_uniforms);
    for (i, v) in case.inputs.iter().enumerate() {
        u.set_input(i as u8, *v);
    }
    let mut commits = Vec::new();
    let mut emits: Vec<RtlEmit> = Vec::new();
    let end = match u.run(case.entry, MAX_INSTRUCTIONS, &mut commits, &mut emits) {
        RtlRunEnd::End => "end".to_string(),
        RtlRunEnd::Hang(code) => format!("hang {code}"),
        RtlRunEnd::Limit => "limit".to_string(),
        RtlRunEnd::Stuck => "stuck".to_string(),
        RtlRunEnd::BadStatus => "done_o/hang_o disagree with the commits".to_string(),
    };
    ShaderRun {
        commits,
        end,
        outputs: u.outputs(),
        emits: emits
            .iter()
            .map(|e| (e.vtx_id, e.winding, e.prim_emit, e.outputs))
            .collect(),
    }
}

fn check(c: &ShaderCase) -> (ShaderRun, ShaderRun) {
    let mut runs = Vec::new();
    for v in [ShVariant::Default, ShVariant::KnobsAlt] {
        let model = run_model(c, v.knobs(), MAX_INSTRUCTIONS);
        let rtl = run_rtl(v, c);
        if let Some(d) = compare(c, &model, &rtl) {
            panic!("{}: {d}", v.name());
        }
        assert_eq!(model.end, "end");
        runs.push(model);
    }
    let alt = runs.pop().unwrap();
    (runs.pop().unwrap(), alt)
}

#[test]
fn rtl_knobs_alt_flips_loop_al_mov_subnormal_and_loop_shared_end() {
    let alt = ShVariant::KnobsAlt.knobs();
    assert_eq!(
        (alt.loop_al, alt.mov_subnormal, alt.loop_shared_end),
        (LoopAl::Restore, MovSubnormal::Flush, LoopSharedEnd::All)
    );
}

#[test]
fn rtl_nested_loop_al_matches_the_model_with_both_knob_values() {
    // Three levels (the innermost left by BREAKC), then a loop alone; aL read back through
    // relative addressing into outputs so every value is in the commit records too.
    let src = "\
.fvec table[8]
.proc main
    cmp v0, eq, eq, v0
    for i0
        for i1
            add r0, table[aL], r0
            for i2
                add r1, r1, v0
                breakc cmp.x
            .end
            add r2, table[aL], r2
        .end
        add r3, table[aL], r3
    .end
    mov o0, r0
    mov o1, r1
    mov o2, r2
    mov o3, r3
    end
.end
";
    let c = case(src, |cfg| {
        cfg.int_uniforms[0] = [2, 0, 1, 0];
        cfg.int_uniforms[1] = [1, 3, 1, 0];
        cfg.int_uniforms[2] = [3, 6, 1, 0];
        for (i, u) in cfg.float_uniforms.iter_mut().enumerate().take(8) {
            *u = [F24::from_f64_trunc(f64::from(1 << i)); 4];
        }
    });
    let (keep, restore) = check(&c);
    let al = |r: &ShaderRun| r.commits.last().map(|c| c.al);
    assert_eq!(al(&restore), Some(3));
    assert_ne!(al(&keep), al(&restore));
}

#[test]
fn rtl_mov_of_subnormals_and_negative_zero_matches_the_model() {
    let src = ".fvec c, z\n.proc main\n    mov o0, c\n    mov o1, -z\n    mov r0.xz, c.wzyx\n    \
               mov o2, r0\n    end\n.end\n";
    let c = case(src, |cfg| {
        let f = F24::from_bits;
        cfg.float_uniforms[0] = [f(0x00_0001), f(0x80_0000), f(0x3F_0000), f(0x80_FFFF)];
        cfg.float_uniforms[1] = [F24::ZERO; 4];
    });
    let (pass, flush) = check(&c);
    let o0 = |r: &ShaderRun| r.commits[0].result;
    assert_eq!(o0(&pass), [0x00_0001, 0x80_0000, 0x3F_0000, 0x80_FFFF]);
    assert_eq!(o0(&flush), [0, 0, 0x3F_0000, 0]);
    assert_eq!(flush.commits[1].result, [0; 4]);
}

#[test]
fn rtl_loops_sharing_an_end_match_the_model_with_both_knob_values() {
    // Azahar's "Nested Loop" (src/tests/video_core/shader.cpp): two LOOPs whose bodies end on
    // the same ADD (`.noautonop`: the assembler would pad a NOP after the inner `.end`), then a
    // third level around them ending there too, and a read of aL-relative uniforms after the
    // loops so aL reaches an output's bits.
    let src = "\
.noautonop
.fvec table[16]
.proc main
    mov r0, v0
    for i0
        for i1
            add r0, r0, v0
        .end
    .end
    mov o0, r0
    mov o1, table[aL]
    for i2
        for i0
            for i1
                add r1, r1, v0
            .end
        .end
    .end
    mov o2, r1
    end
.end
";
    let c = case(src, |cfg| {
        // Azahar's values: i0 = (4, 0, 2), i1 = (4, 0, 1); i2 = (1, 3, 1).
        cfg.int_uniforms[0] = [4, 0, 2, 0];
        cfg.int_uniforms[1] = [4, 0, 1, 0];
        cfg.int_uniforms[2] = [1, 3, 1, 0];
        for (i, u) in cfg.float_uniforms.iter_mut().enumerate().take(16) {
            *u = [F24::from_f64_trunc(i as f64); 4];
        }
    });
    // v0 = (1, 1, 1, 1) (case()): each ADD adds 1 to every lane.
    let (one, all) = check(&c);
    let o = |r: &ShaderRun, n: usize| r.outputs[n][0];
    let f = |x: f64| F24::from_f64_trunc(x).bits();
    // one (default build, 3dbrew): the inner loop only, 5 ADDs; aL = 5 (the inner loop's).
    assert_eq!((o(&one, 0), o(&one, 1)), (f(6.0), f(5.0)));
    // all (knobs_alt: loop-shared-end=all, loop-al=restore): 5 x 5 ADDs, Azahar's
    // expected_out; aL = i0.y + (i0.x + 1) i0.z = 10, Azahar's expected_aL.
    assert_eq!((o(&all, 0), o(&all, 1)), (f(26.0), f(10.0)));
    // Three levels ending together: 5 ADDs, or 2 x 5 x 5.
    assert_eq!((o(&one, 2), o(&all, 2)), (f(5.0), f(50.0)));
}
