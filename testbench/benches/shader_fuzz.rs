//! Shader fuzz cases per second (`pica fuzz --target shader`): generating a case, the model's
//! self-consistency check (model-only mode), and the model-vs-RTL comparison (`--rtl`), each
//! over the same 64 cases of seed 0. `scripts/bench` runs it.

// criterion_group! generates an undocumented public fn.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica_rtl_bridge::shader::ShVariant;
use pica_testbench::fuzz::regs::case_seed;
use pica_testbench::fuzz::shader::check;
use pica_vectors::shader_gen::generate;
use std::hint::black_box;

const CASES: u64 = 64;

fn bench(c: &mut Criterion) {
    let cases: Vec<_> = (0..CASES).map(|i| generate(case_seed(0, i))).collect();
    let mut g = c.benchmark_group("shader_fuzz");
    g.throughput(Throughput::Elements(CASES));
    g.sample_size(10);
    g.bench_function("generate", |b| {
        b.iter(|| {
            (0..CASES)
                .map(|i| generate(case_seed(0, i)).code.len())
                .sum::<usize>()
        })
    });
    g.bench_function("model_only", |b| {
        b.iter(|| {
            for case in &cases {
                black_box(check(case, None)).expect("model self-consistency");
            }
        })
    });
    g.bench_function("rtl", |b| {
        b.iter(|| {
            for case in &cases {
                black_box(check(case, Some(ShVariant::Default))).expect("model == RTL");
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
