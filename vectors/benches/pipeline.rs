//! The cycle-stepped core end to end on the standard scenes (beat recording off, as in a long
//! regression run; criterion's `thrpt` lines, one benchmark per unit over the same work):
//!
//! - `bench/many_triangles`: 4096 small flat-coloured triangles in one u16-indexed draw, depth
//!   test on, 128×128 RGBA8 + D24S8 — triangles, fragments and simulated cycles per second;
//! - `bench/textured_lit`: the issue-6 standard scene — texture unit 0 (RGBA8, bilinear),
//!   fragment lighting with two lights, two modulate combiner stages — textured, lit fragments
//!   per second (and cycles per second);
//! - `bench/frame_400x240`: a 3DS top-screen frame — a textured full-screen background and a
//!   depth-tested, textured, lit torus of 3136 triangles — frames, fragments and cycles per
//!   second.

// criterion_group! generates an undocumented public fn.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica_model::Outcome;
use pica_vectors::scenes;
use std::hint::black_box;

/// Which throughput figures a scene reports besides fragments and cycles.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extra {
    None,
    Triangles,
    Frames,
}

fn bench_scene(c: &mut Criterion, name: &str, extra: Extra) {
    let Some(scene) = scenes::scene(name) else {
        eprintln!("no scene {name}");
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
        eprintln!("{name} does not finish");
        return;
    };
    println!(
        "{name}: {} triangles, {} fragments, {cycles} cycles per frame",
        stats.triangles, stats.fragments
    );
    let short = name.trim_start_matches("bench/");
    let mut g = c.benchmark_group("pipeline");
    g.sample_size(10);
    let mut units = vec![("fragments", stats.fragments), ("cycles", cycles)];
    match extra {
        Extra::Triangles => units.insert(0, ("triangles", stats.triangles)),
        Extra::Frames => units.insert(0, ("frames", 1)),
        Extra::None => {}
    }
    for (unit, n) in units {
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("{short}/{unit}"), |b| b.iter(|| black_box(run())));
    }
    g.finish();
}

fn pipeline(c: &mut Criterion) {
    bench_scene(c, "bench/many_triangles", Extra::Triangles);
    bench_scene(c, "bench/textured_lit", Extra::None);
    bench_scene(c, "bench/frame_400x240", Extra::Frames);
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
