//! The SH stage in RTL against the model, on the benchmark shader of `model/benches/shader.rs`
//! (`pica_model::shader::bench_program`), all in one run so the ratios are fair on a shared
//! machine (criterion's `thrpt` lines, vertices/s):
//!
//! - `sh_stage/model`: the model's four units (commit recording on);
//! - `sh_stage/rtl`: the Verilated `pica_sh_top` alone, driven through its ports;
//! - `sh_stage/lockstep`: both on the same vertex stream, every commit compared keyed by
//!   vertex and every output item in order (what `--rtl-stages sh` does per vertex);
//! - `scene/mixed` and `scene/lockstep`: `bench/many_triangles` rendered with the SH stage in
//!   RTL, alone and through `pica lockstep --rtl-stages sh` (model alone + mixed run + the
//!   transaction-exact comparison of every channel and the picture).
//!
//! The fragment back end on `bench/textured_lit` (fragments/s):
//!
//! - `frag/model`: the scene on the model alone (the whole pipeline);
//! - `frag/rtl_tev_fop`: the scene's TEV and FOP input streams (recorded once from the model
//!   run, `pica vectors gen --stage tev|fop`'s recorders) through the Verilated `pica_tev_top`
//!   and `pica_fop_top` alone (memory latency 0, TEV output ready 3 clocks in 4);
//! - `frag/mixed`: the scene with TEV and FOP in RTL inside the model pipeline;
//! - `frag/lockstep`: `pica lockstep --rtl-stages tev,fop` on it (model alone + mixed run + the
//!   comparison of every channel and the picture).
//!
//! CLIP + RAST on `bench/many_triangles` and `bench/textured_lit` (`rast/<what>/<scene>`,
//! triangles/s; the scene's fragment count is printed once, fragments/s = triangles/s ×
//! fragments / triangles):
//!
//! - `rast/model`: the scene's CLIP input stream (recorded once from the model run, `pica
//!   vectors gen --stage rast`'s recorder) through the model's CLIP and RAST functions
//!   (`pica_vectors::stage_rast::run_model`);
//! - `rast/rtl`: the same stream through the Verilated `pica_rast_top` alone
//!   (`pica_testbench::fuzz::rast::run_rtl`: early-depth latency 0, output ready 3 clocks in 4);
//! - `rast/lockstep`: `pica lockstep --rtl-stages rast` on the scene (model alone + mixed run
//!   + the comparison of every channel and the picture).

// criterion_group! generates an undocumented public fn.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica_model::beat::CommitBeat;
use pica_model::link::Link;
use pica_model::shader::bench_program::{configured_gpu, inputs};
use pica_model::shader::stage::{ShadedItem, ShaderCore, ShaderPorts, VertexIn};
use pica_rtl_bridge::shader::ShVariant;
use pica_rtl_bridge::RtlSh;
use pica_testbench::lockstep::stages::{self, StageLockstepOptions, StageOptions, StageSet};
use std::collections::{HashMap, VecDeque};
use std::hint::black_box;

const VERTICES: u32 = 200;

/// The model's SH stage over `VERTICES` vertices: what it sent on and its commits.
fn run_model(gpu: &pica_model::Gpu) -> (Vec<ShadedItem>, Vec<CommitBeat>) {
    let attrs = inputs();
    let mut core = ShaderCore::default();
    core.set_record_beats(false);
    core.set_record_commits(true);
    let mut vin = Link::new("vs_in", 4);
    let mut vout = Link::new("sh_out", 4);
    let (mut bi, mut bo, mut commits) = (Vec::new(), Vec::new(), Vec::new());
    let (mut sent, mut out, mut cycle) = (0u32, Vec::new(), 0u64);
    while out.len() < VERTICES as usize {
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
        while let Some(i) = vout.pop() {
            out.push(i);
        }
        cycle += 1;
    }
    (out, commits)
}

/// A fresh RTL SH stage over the same vertices (its output order counts `seq` from 0, as the
/// model's does); `each` sees every clock's result.
fn run_rtl(gpu: &pica_model::Gpu, mut each: impl FnMut(pica_rtl_bridge::ShTick)) {
    let Ok(mut rtl) = RtlSh::new(ShVariant::Default) else {
        return;
    };
    let rtl = &mut rtl;
    let attrs = inputs();
    rtl.sync_config(gpu.regs());
    let (mut sent, mut done) = (0u32, 0u32);
    while done < VERTICES {
        if sent < VERTICES && rtl.can_accept() {
            rtl.push_vertex(&VertexIn {
                seq: sent,
                attrs: attrs.clone(),
            });
            sent += 1;
        }
        let t = rtl.tick(true);
        if t.output.is_some() {
            done += 1;
        }
        each(t);
    }
}

fn payload(c: &CommitBeat) -> CommitBeat {
    CommitBeat {
        cycle: 0,
        unit: 0,
        ..*c
    }
}

fn bench_stage(c: &mut Criterion) {
    let gpu = configured_gpu();
    if RtlSh::new(ShVariant::Default).is_err() {
        eprintln!("RTL SH stage not available: skipping");
        return;
    }
    let mut g = c.benchmark_group("sh_stage");
    g.sample_size(10);
    g.throughput(Throughput::Elements(u64::from(VERTICES)));
    g.bench_function("model", |b| b.iter(|| black_box(run_model(&gpu))));
    g.bench_function("rtl", |b| {
        b.iter(|| {
            let mut n = 0usize;
            run_rtl(&gpu, |t| n += t.commits.len());
            black_box(n)
        })
    });
    g.bench_function("lockstep", |b| {
        b.iter(|| {
            // The model runs ahead (it is the cheap side); the RTL's commits and items are
            // checked against it as they come, keyed by vertex.
            let (items, commits) = run_model(&gpu);
            let mut want: HashMap<u32, VecDeque<CommitBeat>> = HashMap::new();
            for c in &commits {
                want.entry(c.seq).or_default().push_back(payload(c));
            }
            let mut items = items.into_iter();
            let mut ok = true;
            run_rtl(&gpu, |t| {
                for c in &t.commits {
                    let w = want.get_mut(&c.seq).and_then(VecDeque::pop_front);
                    ok &= w == Some(payload(c));
                }
                if let Some(o) = t.output {
                    ok &= items.next() == Some(o);
                }
            });
            assert!(ok, "the RTL SH stage disagrees with the model");
        })
    });
    g.finish();
}

fn bench_scene(c: &mut Criterion) {
    let Some(scene) = pica_vectors::scenes::scene("bench/many_triangles") else {
        return;
    };
    let case = scene.case;
    let Ok(set) = StageSet::parse("sh") else {
        return;
    };
    let vertices = case
        .run_model_keep()
        .map(|(_, g)| g.pipeline_stats().vertices)
        .unwrap_or(1);
    let mut g = c.benchmark_group("scene");
    g.sample_size(10);
    g.throughput(Throughput::Elements(vertices));
    g.bench_function("mixed", |b| {
        b.iter(|| {
            let mut gpu =
                stages::mixed_gpu(&case, &set, &StageOptions::default()).expect("RTL SH stage");
            black_box(gpu.run(case.max_cycles * stages::MIXED_CYCLE_FACTOR))
        })
    });
    g.bench_function("lockstep", |b| {
        b.iter(|| {
            let r = stages::stage_lockstep(&case, &set, &StageLockstepOptions::default())
                .expect("RTL SH stage");
            assert!(r.is_equal());
        })
    });
    g.finish();
}

fn bench_fragment_back_end(c: &mut Criterion) {
    use pica_rtl_bridge::fop_stage::{FopVariant, MemLatency};
    use pica_rtl_bridge::tev_stage::TevVariant;
    use pica_testbench::fuzz::{fop as fop_fuzz, tev as tev_fuzz};
    use pica_testbench::lockstep::stage_record;
    let Some(scene) = pica_vectors::scenes::scene("bench/textured_lit") else {
        return;
    };
    let case = scene.case;
    let Ok(set) = StageSet::parse("tev,fop") else {
        return;
    };
    let fragments = case
        .run_model_keep()
        .map(|(_, g)| g.pipeline_stats().fragments)
        .unwrap_or(1);
    let tev = stage_record::record_tev(&case).expect("TEV recording");
    let tev_case = tev.rec.case;
    let fop = stage_record::record_fop(&case).expect("FOP recording").case;
    let mut g = c.benchmark_group("frag");
    g.sample_size(10);
    g.throughput(Throughput::Elements(fragments));
    g.bench_function("model", |b| {
        b.iter(|| {
            let mut gpu = case.gpu().expect("scene");
            black_box(gpu.run(case.max_cycles))
        })
    });
    g.bench_function("rtl_tev_fop", |b| {
        b.iter(|| {
            let t = tev_fuzz::run_rtl(TevVariant::Default, &tev_case, None).expect("RTL TEV");
            let f = fop_fuzz::run_rtl(FopVariant::Default, MemLatency::Zero, &fop, None)
                .expect("RTL FOP");
            black_box((t.len(), f.beats.len()))
        })
    });
    g.bench_function("mixed", |b| {
        b.iter(|| {
            let mut gpu =
                stages::mixed_gpu(&case, &set, &StageOptions::default()).expect("RTL TEV and FOP");
            black_box(gpu.run(case.max_cycles * 128))
        })
    });
    g.bench_function("lockstep", |b| {
        b.iter(|| {
            let r = stages::stage_lockstep(&case, &set, &StageLockstepOptions::default())
                .expect("RTL TEV and FOP");
            assert!(r.is_equal());
        })
    });
    g.finish();
}

fn bench_rast(c: &mut Criterion) {
    use pica_rtl_bridge::fop_stage::MemLatency;
    use pica_rtl_bridge::rast_stage::RastVariant;
    use pica_testbench::fuzz::rast as rast_fuzz;
    use pica_testbench::lockstep::stage_record;
    let Ok(set) = StageSet::parse("rast") else {
        return;
    };
    let mut g = c.benchmark_group("rast");
    g.sample_size(10);
    for name in ["bench/many_triangles", "bench/textured_lit"] {
        let Some(scene) = pica_vectors::scenes::scene(name) else {
            continue;
        };
        let case = scene.case;
        let rast = stage_record::record_rast(&case)
            .expect("RAST recording")
            .case;
        let triangles = rast.triangles() as u64;
        let fragments = pica_vectors::stage_rast::run_model(&rast).fragments.len();
        eprintln!("rast: {name}: {triangles} triangles in, {fragments} fragments out");
        let short = name.trim_start_matches("bench/");
        g.throughput(Throughput::Elements(triangles.max(1)));
        g.bench_function(format!("model/{short}"), |b| {
            b.iter(|| black_box(pica_vectors::stage_rast::run_model(&rast).fragments.len()))
        });
        g.bench_function(format!("rtl/{short}"), |b| {
            b.iter(|| {
                let r = rast_fuzz::run_rtl(RastVariant::Default, MemLatency::Zero, &rast)
                    .expect("RTL RAST");
                black_box(r.fragments.len())
            })
        });
        g.bench_function(format!("lockstep/{short}"), |b| {
            b.iter(|| {
                let r = stages::stage_lockstep(&case, &set, &StageLockstepOptions::default())
                    .expect("RTL RAST");
                assert!(r.is_equal());
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_stage,
    bench_scene,
    bench_fragment_back_end,
    bench_rast
);
criterion_main!(benches);
