//! Command-processing throughput on a realistic list: a vertex-shader upload (code, operand
//! descriptors, all 96 float uniforms, int and bool uniforms), lighting and fog LUT uploads, and
//! a frame's worth of configuration writes. Reports register writes per second and simulated
//! cycles per second (criterion's `thrpt` lines; `scripts/bench` runs it).

// criterion_group! generates an undocumented public fn.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica_model::cmdlist::frame_setup;
use pica_model::{Gpu, Memory, Outcome};
use std::hint::black_box;

const LIST: u32 = 0x2000_0000;

fn setup(words: &[u32]) -> Gpu {
    let mut mem = Memory::new();
    mem.write_words(LIST, words).expect("mapped");
    let mut gpu = Gpu::new(mem);
    gpu.submit(LIST, (words.len() * 4) as u32).expect("aligned");
    gpu
}

fn bench(c: &mut Criterion) {
    let words = frame_setup();
    let mut probe = setup(&words);
    let Outcome::Finished { cycles } = probe.run(u64::MAX) else {
        panic!("realistic list must finish")
    };
    let writes = probe.regs().writes_applied();
    println!(
        "realistic list: {} words, {writes} register writes, {cycles} cycles",
        words.len()
    );

    // Each case: name, throughput unit count, whether beats are recorded. The first two time
    // the same run and differ only in what criterion divides the time by.
    let cases = [
        ("register_writes", writes, true),
        ("simulated_cycles", cycles, true),
        ("simulated_cycles_no_beats", cycles, false),
    ];
    let mut g = c.benchmark_group("cp");
    for (name, elements, beats) in cases {
        g.throughput(Throughput::Elements(elements));
        g.bench_function(name, |b| {
            b.iter_batched(
                || {
                    let mut gpu = setup(&words);
                    gpu.set_record_beats(beats);
                    gpu
                },
                |mut gpu| black_box(gpu.run(u64::MAX)),
                criterion::BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
