//! Shader-interpreter throughput on a typical vertex shader (4x4 transform, normal transform
//! and normalisation, one diffuse light, colour and texture coordinate: 20 instructions):
//! instructions/s on one unit, and vertices/s on one unit and on all four units of the SH
//! stage in the cycle-stepped core (criterion's `thrpt` lines). `vertices` runs with the
//! shader JIT as a unit has it by default (the program is one compiled block once it is
//! hot: within the warm-up); `vertices_interpreter` with the JIT off (the interpreter's fast
//! path), and `vertices_exact` the interpreter's reference path (`ShaderUnit::step_exact`:
//! decode every word, `alu` functions), on one unit, for comparison in the same sitting.
//! The four-unit figure builds a new stage per 1,000 vertices (250 per unit): below the JIT's
//! threshold, so it measures the interpreter.

// criterion_group! generates an undocumented public fn.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica_model::link::Link;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::bench_program::{configured_gpu, inputs, program, uniforms};
use pica_model::shader::interp::{Knobs, RunEnd, ShaderUnit, Step};
use pica_model::shader::stage::{ShaderCore, ShaderPorts, VertexIn};
use std::hint::black_box;

fn bench_single(c: &mut Criterion) {
    let (code, descs) = program();
    let mut cfg = UnitConfig::default();
    cfg.code[..code.len()].copy_from_slice(&code);
    cfg.opdescs[..descs.len()].copy_from_slice(&descs);
    cfg.float_uniforms[..11].copy_from_slice(&uniforms());
    let mut unit = ShaderUnit::new(Knobs::default());
    unit.inputs[..4].copy_from_slice(&inputs());
    let mut em = Vec::new();
    let mut g = c.benchmark_group("shader_single_unit");
    g.sample_size(20);
    g.throughput(Throughput::Elements(code.len() as u64));
    g.bench_function("instructions", |b| {
        b.iter(|| {
            let end = unit.run(black_box(&cfg), 0, 1000, &mut em);
            assert_eq!(end, RunEnd::End);
        })
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("vertices", |b| {
        b.iter(|| unit.run(black_box(&cfg), 0, 1000, &mut em))
    });
    let mut interp = unit.clone();
    interp.set_jit(None);
    g.bench_function("vertices_interpreter", |b| {
        b.iter(|| interp.run(black_box(&cfg), 0, 1000, &mut em))
    });
    g.bench_function("vertices_exact", |b| {
        b.iter(|| {
            unit.start(0);
            while unit.step_exact(black_box(&cfg), None, &mut em) == Step::Continue {}
        })
    });
    g.finish();
}

fn bench_core(c: &mut Criterion) {
    const VERTICES: u32 = 1000;
    let gpu = configured_gpu();
    let attrs = inputs();
    let mut g = c.benchmark_group("shader_core_four_units");
    g.sample_size(10);
    g.throughput(Throughput::Elements(u64::from(VERTICES)));
    g.bench_function("vertices", |b| {
        b.iter(|| {
            let mut core = ShaderCore::default();
            core.set_record_beats(false);
            let mut vin = Link::new("vs_in", 4);
            let mut vout = Link::new("sh_out", 4);
            let (mut bi, mut bo, mut commits) = (Vec::new(), Vec::new(), Vec::new());
            let (mut sent, mut done, mut cycle) = (0u32, 0u32, 0u64);
            while done < VERTICES {
                vin.begin_cycle();
                vout.begin_cycle();
                while sent < VERTICES && vin.can_push() {
                    let _ = vin.push(
                        VertexIn {
                            seq: sent,
                            attrs: attrs.clone(),
                        }
                        .into(),
                    );
                    sent += 1;
                }
                let _ = core.tick(
                    cycle,
                    ShaderPorts {
                        regs: gpu.regs(),
                        input: &mut vin,
                        output: &mut vout,
                        beats_in: &mut bi,
                        beats_out: &mut bo,
                        commits: &mut commits,
                    },
                );
                while vout.pop().is_some() {
                    done += 1;
                }
                cycle += 1;
            }
            black_box(cycle)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_single, bench_core);
criterion_main!(benches);
