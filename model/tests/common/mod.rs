//! Helpers shared by the model's integration tests.
#![allow(dead_code)]
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

pub mod gs;

use pica_model::cmdlist::CommandList;
use pica_model::{Gpu, Memory, Outcome};

/// Where tests load their command lists.
pub const LIST: u32 = 0x2000_0000;

/// Runs `words` from `LIST` with `extra` memory loaded first.
pub fn run_with(words: &[u32], extra: &[(u32, &[u32])]) -> (Gpu, Outcome) {
    let mut mem = Memory::new();
    for (a, w) in extra {
        mem.write_words(*a, w).expect("test memory is mapped");
    }
    mem.write_words(LIST, words).expect("test list is mapped");
    let mut gpu = Gpu::new(mem);
    gpu.submit(LIST, (words.len() * 4) as u32).expect("aligned");
    let o = gpu.run(1_000_000);
    (gpu, o)
}

/// Runs `words` from `LIST`.
pub fn run(words: &[u32]) -> (Gpu, Outcome) {
    run_with(words, &[])
}

/// Runs a builder's list after finalizing it; asserts it finished.
pub fn run_list(mut l: CommandList) -> Gpu {
    l.finalize();
    let (gpu, o) = run(l.words());
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    gpu
}

/// (id, mask, param, value) of every register-write beat.
pub fn writes(gpu: &Gpu) -> Vec<(u32, u8, u32, u32)> {
    gpu.regwrite_beats()
        .iter()
        .map(|b| (b.id, b.mask, b.param, b.value))
        .collect()
}
