//! The cycle-stepped core end to end on the standard scene `bench/many_triangles` (4096 small
//! triangles in one u16-indexed draw, depth test on, 128×128 RGBA8 + D24S8): triangles per
//! second, fragments per second and simulated cycles per second (criterion's `thrpt` lines, one
//! benchmark per unit over the same work). Beat recording is off, as in a long regression run.

// criterion_group! generates an undocumented public fn.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica_model::Outcome;
use pica_vectors::scenes;
use std::hint::black_box;

fn pipeline(c: &mut Criterion) {
    let Some(scene) = scenes::scene("bench/many_triangles") else {
        eprintln!("no scene bench/many_triangles");
        return;
    };
    let case = scene.case;
    let run = || {
        let mut gpu = case.gpu().ok()?;
        gpu.set_record_beats(false);
        let o = gpu.run(case.max_cycles);
        Some((o, gpu.pipeline_stats()))
    };
    let Some((Outcome::Finished { cycles }, stats)) = run() else {
        eprintln!("bench/many_triangles does not finish");
        return;
    };
    println!(
        "bench/many_triangles: {} triangles, {} fragments, {cycles} cycles per frame",
        stats.triangles, stats.fragments
    );
    let mut g = c.benchmark_group("pipeline");
    g.sample_size(10);
    for (unit, n) in [
        ("triangles", stats.triangles),
        ("fragments", stats.fragments),
        ("cycles", cycles),
    ] {
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("many_triangles/{unit}"), |b| {
            b.iter(|| black_box(run()))
        });
    }
    g.finish();
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
