//! Simulated cycles per second on one workload (the `bench/frame_setup` case: 2200 command
//! words, 1823 register writes, 2201 cycles) for the model alone, the Verilated RTL alone, and
//! the two in lockstep (beats compared every cycle; the final debug-map comparison is measured
//! separately because its cost does not scale with the workload: read directly and through the
//! debug port). `rtl_cycles` runs `pica_top` as written (the SH stage's four units clocked
//! idle); `rtl_front_end_cycles` runs `fe` (`EnableSh = 0`), the build `lockstep_cycles` runs
//! against the model, so that lockstep / RTL alone and model / RTL alone compare the same RTL;
//! `lockstep_front_end_cycles` runs the lockstep against the `EnableSh = 0` build of the
//! mask-bug variant (the pair the figures before `fe` existed were taken on). Also prints the
//! bundle size per 1,000 register writes. `scripts/bench` runs it.

// criterion_group! generates an undocumented public fn.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica_rtl_bridge::{Rtl, RtlError, RtlGpu, RtlOutcome, Variant};
use pica_testbench::lockstep::{lockstep, Options, StateRead};
use pica_vectors::bundle::write_bundle;
use pica_vectors::library;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let case = library::case("bench/frame_setup").expect("library case");
    let run = case.run_model().expect("runs");
    let cycles = match run.outcome {
        pica_model::Outcome::Finished { cycles } => cycles,
        ref o => panic!("frame_setup must finish, got {o}"),
    };

    // Bundle size per 1,000 register writes.
    let dir = std::env::temp_dir().join(format!("pica-bench-bundle-{}", std::process::id()));
    write_bundle(&dir, &case, &run, "bench").expect("bundle");
    let size = |name: &str| std::fs::metadata(dir.join(name)).map_or(0, |m| m.len());
    let total: u64 = std::fs::read_dir(&dir)
        .expect("bundle dir")
        .filter_map(|e| e.ok()?.metadata().ok())
        .map(|m| m.len())
        .sum();
    let per_k = |bytes: u64| bytes as f64 * 1000.0 / run.beats.len() as f64 / 1024.0;
    println!(
        "bundle of bench/frame_setup: {} writes, {} bytes in all ({:.1} KiB per 1000 writes); \
         regwrite.hex {:.1} KiB, regwrite.jsonl {:.1} KiB per 1000 writes",
        run.beats.len(),
        total,
        per_k(total),
        per_k(size("regwrite.hex")),
        per_k(size("regwrite.jsonl"))
    );
    let _ = std::fs::remove_dir_all(&dir);

    // One RTL build alone over the case, to its end.
    let rtl_alone = |b: &mut criterion::Bencher, make: &dyn Fn() -> Result<Rtl, RtlError>| {
        b.iter(|| {
            let mem = case.memory().expect("memory");
            let mut rtl = RtlGpu::new(
                make().expect("rtl"),
                mem,
                case.submit_addr,
                case.submit_size,
            );
            let o = rtl.run(case.max_cycles);
            assert_eq!(o, RtlOutcome::Finished { cycles });
            black_box(o)
        })
    };
    let mut g = c.benchmark_group("frame_setup");
    g.throughput(Throughput::Elements(cycles));
    g.sample_size(20);
    g.bench_function("model_cycles", |b| {
        b.iter(|| {
            let mut gpu = case.gpu().expect("gpu");
            black_box(gpu.run(case.max_cycles))
        })
    });
    g.bench_function("rtl_cycles", |b| rtl_alone(b, &Rtl::new));
    // The front end alone: `fe`, what the lockstep below runs for the default variant.
    g.bench_function("rtl_front_end_cycles", |b| {
        rtl_alone(b, &|| Rtl::with_variant(Variant::FrontEnd))
    });
    // The `EnableSh = 0` build of the mask-bug variant (its bug is one byte lane of the
    // register merge: the same logic, the same speed; frame_setup writes no partial byte mask,
    // so the lockstep run is equal), alone and in lockstep: the pair measured before `fe`.
    g.bench_function("rtl_mask_bug_cycles", |b| {
        rtl_alone(b, &|| Rtl::with_variant(Variant::InjectMaskBug))
    });
    let front_end = Options {
        compare_state: false,
        variant: Variant::InjectMaskBug,
        ..Options::default()
    };
    g.bench_function("lockstep_front_end_cycles", |b| {
        b.iter(|| {
            let r = lockstep(&case, &front_end).expect("lockstep");
            assert!(r.is_equal());
            black_box(r)
        })
    });
    let beats_only = Options {
        compare_state: false,
        ..Options::default()
    };
    g.bench_function("lockstep_cycles", |b| {
        b.iter(|| {
            let r = lockstep(&case, &beats_only).expect("lockstep");
            assert!(r.is_equal());
            black_box(r)
        })
    });
    g.finish();

    // Lockstep with the end-of-run comparison of the whole debug map (26,486 words): read
    // straight out of the Verilated model in one call (the default), and through the debug
    // port, one clock of the whole design per word.
    let mut g = c.benchmark_group("final_state");
    g.sample_size(10);
    for (name, state_read) in [
        ("lockstep_with_state_compare", StateRead::Direct),
        (
            "lockstep_with_state_compare_debug_port",
            StateRead::DebugPort,
        ),
    ] {
        let opts = Options {
            state_read,
            ..Options::default()
        };
        g.bench_function(name, |b| {
            b.iter(|| {
                let r = lockstep(&case, &opts).expect("lockstep");
                assert!(r.is_equal());
                black_box(r)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
