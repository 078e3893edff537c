//! Shader-interpreter throughput on a typical vertex shader (4x4 transform, normal transform
//! and normalisation, one diffuse light, colour and texture coordinate: 20 instructions):
//! instructions/s on one unit, and vertices/s on one unit and on all four units of the SH
//! stage in the cycle-stepped core (criterion's `thrpt` lines). `vertices` runs with the
//! shader JIT as a unit has it by default (the program is one compiled block once it is
//! hot: within the warm-up); `vertices_interpreter` with the JIT off (the interpreter's fast
//! path), and `vertices_exact` the interpreter's reference path (`ShaderUnit::step_exact`:
//! decode every word, `alu` functions), on one unit, for comparison in the same sitting.
//! The four-unit figures run one SH stage for the whole measurement, as the `Gpu` keeps one
//! for its life (1,000 vertices per iteration): `vertices` with the JIT shared by its four
//! units (hot within the warm-up), `vertices_interpreter` with it off.

// criterion_group! generates an undocumented public fn.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica_model::beat::{CommitBeat, ShaderBeat};
use pica_model::link::Link;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::bench_program::{configured_gpu, inputs, program, uniforms};
use pica_model::shader::interp::{Knobs, RunEnd, ShaderUnit, Step, Vec4};
use pica_model::shader::stage::{ShIn, ShadedItem, ShaderCore, ShaderPorts, VertexIn};
use pica_model::Gpu;
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

/// The four-unit SH stage as the `Gpu` holds it: one stage for the whole run, fed a vertex
/// whenever its input link has room and drained every cycle.
struct CoreRun {
    core: ShaderCore,
    vin: Link<ShIn>,
    vout: Link<ShadedItem>,
    beats: (Vec<ShaderBeat>, Vec<ShaderBeat>),
    commits: Vec<CommitBeat>,
    seq: u32,
    cycle: u64,
}

impl CoreRun {
    fn new(jit: bool) -> Self {
        let mut core = ShaderCore::default();
        core.set_record_beats(false);
        if !jit {
            core.set_jit(None);
        }
        Self {
            core,
            vin: Link::new("vs_in", 4),
            vout: Link::new("sh_out", 4),
            beats: (Vec::new(), Vec::new()),
            commits: Vec::new(),
            seq: 0,
            cycle: 0,
        }
    }

    /// Pushes `n` more vertices through the stage; returns the cycle count so far.
    fn vertices(&mut self, gpu: &Gpu, attrs: &[Vec4], n: u32) -> u64 {
        let (mut sent, mut done) = (0u32, 0u32);
        while done < n {
            self.vin.begin_cycle();
            self.vout.begin_cycle();
            while sent < n && self.vin.can_push() {
                let _ = self.vin.push(
                    VertexIn {
                        seq: self.seq,
                        attrs: attrs.to_vec(),
                    }
                    .into(),
                );
                self.seq = self.seq.wrapping_add(1);
                sent += 1;
            }
            let _ = self.core.tick(
                self.cycle,
                ShaderPorts {
                    regs: gpu.regs(),
                    input: &mut self.vin,
                    output: &mut self.vout,
                    beats_in: &mut self.beats.0,
                    beats_out: &mut self.beats.1,
                    commits: &mut self.commits,
                },
            );
            while self.vout.pop().is_some() {
                done += 1;
            }
            self.cycle += 1;
        }
        self.cycle
    }
}

fn bench_core(c: &mut Criterion) {
    const VERTICES: u32 = 1000;
    let gpu = configured_gpu();
    let attrs = inputs();
    let mut g = c.benchmark_group("shader_core_four_units");
    g.sample_size(10);
    g.throughput(Throughput::Elements(u64::from(VERTICES)));
    let mut run = CoreRun::new(true);
    g.bench_function("vertices", |b| {
        b.iter(|| black_box(run.vertices(&gpu, &attrs, VERTICES)))
    });
    let mut run = CoreRun::new(false);
    g.bench_function("vertices_interpreter", |b| {
        b.iter(|| black_box(run.vertices(&gpu, &attrs, VERTICES)))
    });
    g.finish();
}

criterion_group!(benches, bench_single, bench_core);
criterion_main!(benches);
