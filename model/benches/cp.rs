//! Command-processing throughput on a realistic list: a vertex-shader upload (code, operand
//! descriptors, all 96 float uniforms, int and bool uniforms), lighting and fog LUT uploads, and
//! a frame's worth of configuration writes. Reports register writes per second and simulated
//! cycles per second (criterion's `thrpt` lines; `scripts/bench` runs it).

// criterion_group! generates an undocumented public fn.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica_model::cmdlist::CommandList;
use pica_model::regfile::packer::pack_f24x3;
use pica_model::regs::id;
use pica_model::{num::F24, Gpu, Memory, Outcome};
use std::hint::black_box;

const LIST: u32 = 0x2000_0000;

/// The realistic list used by every benchmark here.
pub fn realistic_list() -> Vec<u32> {
    let mut l = CommandList::new();
    // Configuration as a driver sets it up before a draw: rasterizer, texturing, framebuffer
    // and lighting blocks, one plain write per register (most drivers do exactly this).
    for reg in (0x040..0x070)
        .chain(0x080..0x0B0)
        .chain(0x0C0..0x100)
        .chain(0x100..0x130)
        .chain(0x140..0x1C0)
    {
        l.write(reg, u32::from(reg).wrapping_mul(0x9E37_79B9));
    }
    // Vertex shader: 512 code words, 32 operand descriptors, 96 uniforms, int/bool uniforms.
    l.write(id::VSH_CODETRANSFER_INDEX, 0);
    let code: Vec<u32> = (0..512u32).map(|i| 0x4C00_0000 | (i & 0xFFF)).collect();
    for chunk in code.chunks(128) {
        l.write_seq(id::VSH_CODETRANSFER_DATA0, &chunk[..8]);
        l.write_repeat(id::VSH_CODETRANSFER_DATA0, &chunk[8..]);
    }
    l.write(id::VSH_CODETRANSFER_END, 1);
    l.write(id::VSH_OPDESCS_INDEX, 0);
    l.write_repeat(
        id::VSH_OPDESCS_DATA0,
        &(0..32u32).map(|i| 0x36F | (i << 23)).collect::<Vec<_>>(),
    );
    l.write(id::VSH_FLOATUNIFORM_INDEX, 0);
    let words: Vec<u32> = (0..96u32)
        .flat_map(|i| {
            pack_f24x3([0x3F_0000 + i, 0x3E_0000, 0x40_8000 ^ i, 0xBF_0000].map(F24::from_bits))
        })
        .collect();
    l.write_repeat(id::VSH_FLOATUNIFORM_DATA0, &words);
    l.write_seq(id::VSH_INTUNIFORM_I0, &[0x0001_0003, 0x0001_0004, 0, 0]);
    l.write(id::VSH_BOOLUNIFORM, 0x7FFF_0001);
    // Lighting LUTs D0, D1 and fog: 256 + 256 + 128 entries.
    for table in [0u32, 1] {
        l.write(id::LIGHTING_LUT_INDEX, table << 8);
        l.write_repeat(0x1C8, &(0..256u32).map(|i| i * 0x10).collect::<Vec<_>>());
    }
    l.write(id::FOG_LUT_INDEX, 0);
    l.write_repeat(0xE8, &(0..128u32).collect::<Vec<_>>());
    l.write(0x22E, 1);
    l.finalize();
    l.into_words()
}

fn setup(words: &[u32]) -> Gpu {
    let mut mem = Memory::new();
    mem.write_words(LIST, words).expect("mapped");
    let mut gpu = Gpu::new(mem);
    gpu.submit(LIST, (words.len() * 4) as u32).expect("aligned");
    gpu
}

fn bench(c: &mut Criterion) {
    let words = realistic_list();
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
