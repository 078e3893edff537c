//! Register writes per second through the C ABI against the Rust API on the same writes
//! (issue 18's figures): N writes to GPUREG_FOG_COLOR on the front-end model, each run to
//! its outcome. The ABI calls are the `extern "C"` functions a C or SV/DPI caller links
//! (`catch_unwind`, handle and argument checks included).
//!
//! - `rust_list`: the writes as a command list (one command each) submitted and run;
//! - `rust_push`: `Gpu::push_write` per write (stepping while the channel is full);
//! - `capi_write_reg`: `pica_gpu_write_reg` per write; `capi_write_regs`: one batched call;
//! - `capi_submit_words`: the command list through `pica_gpu_submit_words`.

#![allow(unsafe_code)] // calls the C ABI as a C caller would
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use pica_capi::*;
use pica_model::cmdlist::CommandList;
use pica_model::{Gpu, Memory};
use std::hint::black_box;
use std::ptr::null_mut;

const N: usize = 20_000;
const FOG: u32 = 0x0E1;

fn list() -> Vec<u32> {
    let mut cl = CommandList::new();
    for i in 0..N as u32 {
        cl.write(FOG as u16, i.wrapping_mul(0x9E37_79B9));
    }
    cl.finalize();
    cl.into_words()
}

fn new_gpu() -> *mut PicaGpu {
    let mut g = null_mut();
    // SAFETY: a valid out-pointer.
    let s = unsafe { pica_gpu_new(PICA_GPU_FRONT_END, &mut g) };
    assert_eq!(s, PICA_OK);
    g
}

fn bench(c: &mut Criterion) {
    let words = list();
    let writes: Vec<PicaRegWrite> = (0..N as u32)
        .map(|i| PicaRegWrite {
            id: FOG,
            value: i.wrapping_mul(0x9E37_79B9),
            mask: 0xF,
        })
        .collect();
    let mut g = c.benchmark_group("regwrites");
    g.throughput(Throughput::Elements(N as u64));
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("rust_list", N), |b| {
        b.iter(|| {
            let mut mem = Memory::new();
            mem.write_words(0x2000_0000, &words).expect("load");
            let mut gpu = Gpu::new(mem);
            gpu.set_pipeline(false);
            gpu.submit(0x2000_0000, words.len() as u32 * 4)
                .expect("submit");
            black_box(gpu.run(u64::MAX))
        })
    });
    g.bench_function(BenchmarkId::new("rust_push", N), |b| {
        b.iter(|| {
            let mut gpu = Gpu::new(Memory::new());
            gpu.set_pipeline(false);
            for w in &writes {
                while gpu.push_write(w.id, w.mask as u8, w.value).is_err() {
                    gpu.step();
                }
            }
            black_box(gpu.run(u64::MAX))
        })
    });
    g.bench_function(BenchmarkId::new("capi_write_reg", N), |b| {
        b.iter(|| {
            let gpu = new_gpu();
            // SAFETY: a live handle, freed once.
            unsafe {
                for w in &writes {
                    assert_eq!(pica_gpu_write_reg(gpu, w.id, w.value, w.mask), PICA_OK);
                }
                assert_eq!(pica_gpu_run(gpu, u64::MAX), PICA_OK);
                pica_gpu_free(gpu)
            }
        })
    });
    g.bench_function(BenchmarkId::new("capi_write_regs", N), |b| {
        b.iter(|| {
            let gpu = new_gpu();
            // SAFETY: a live handle and a valid slice, freed once.
            unsafe {
                let s = pica_gpu_write_regs(gpu, writes.as_ptr(), writes.len(), null_mut());
                assert_eq!(s, PICA_OK);
                assert_eq!(pica_gpu_run(gpu, u64::MAX), PICA_OK);
                pica_gpu_free(gpu)
            }
        })
    });
    g.bench_function(BenchmarkId::new("capi_submit_words", N), |b| {
        b.iter(|| {
            let gpu = new_gpu();
            // SAFETY: a live handle and a valid slice, freed once.
            unsafe {
                let s = pica_gpu_submit_words(gpu, 0x2000_0000, words.as_ptr(), words.len());
                assert_eq!(s, PICA_OK);
                assert_eq!(pica_gpu_run(gpu, u64::MAX), PICA_OK);
                pica_gpu_free(gpu)
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
