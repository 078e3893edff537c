#![allow(clippy::unwrap_used)]
//! Consecutive submissions on one GPU: `Gpu::submit` after `Outcome::Finished` starts the next
//! list with everything the first left (registers, FIFO state, the cycle counter); a running
//! list or a hang refuses it; memory fills run between lists.

use pica_model::psc::{FillError, FillWidth, MemoryFill};
use pica_model::{Gpu, Memory, Outcome, SubmitError};

const L1: u32 = 0x2000_0000;
const L2: u32 = 0x2000_1000;

/// FOG_COLOR = 0x00112233 (mask 0xF), then FINALIZE (16 bytes).
const LIST1: [u32; 4] = [0x0011_2233, 0x000F_00E1, 0x1234_5678, 0x000F_0010];
/// FOG_COLOR byte 0 = 0xEE (mask 0x1), then FINALIZE.
const LIST2: [u32; 4] = [0x0000_00EE, 0x0001_00E1, 0x1234_5678, 0x000F_0010];

fn gpu() -> Gpu {
    let mut mem = Memory::new();
    mem.write_words(L1, &LIST1).unwrap();
    mem.write_words(L2, &LIST2).unwrap();
    Gpu::new(mem)
}

#[test]
fn submit_after_finished_runs_the_next_list_on_the_state_left() {
    let mut g = gpu();
    g.submit(L1, 16).unwrap();
    let Outcome::Finished { cycles: first } = g.run(1000) else {
        panic!("first list")
    };
    g.submit(L2, 16).unwrap();
    let Outcome::Finished { cycles: second } = g.run(1000) else {
        panic!("second list")
    };
    // The masked write merged into the first list's value: the register was carried.
    assert_eq!(g.regs().reg(0x0E1), 0x0011_22EE);
    // One clock: the second list's beat comes after the first finished, and it took as
    // long as the first.
    let beats = g.regwrite_beats();
    assert_eq!(beats.len(), 4);
    assert!(beats[2].cycle >= first, "{beats:?}");
    assert_eq!(second - first, first);
}

#[test]
fn submit_is_refused_while_a_list_runs_and_after_a_hang() {
    let mut g = gpu();
    g.submit(L1, 16).unwrap();
    g.step();
    assert_eq!(g.submit(L2, 16), Err(SubmitError::Busy));
    let fill = MemoryFill {
        start: 0x1800_0000,
        end: 0x1800_0008,
        value: 7,
        width: FillWidth::W32,
    };
    assert_eq!(g.memory_fill(&fill), Err(FillError::Busy));
    assert!(matches!(g.run(1000), Outcome::Finished { .. }));
    g.memory_fill(&fill).unwrap();
    assert_eq!(g.mem().read_u32(0x1800_0000).unwrap(), 7);
    // A list without FINALIZE hangs; nothing is submitted after it.
    let mut h = Gpu::new(Memory::new());
    h.submit(L1, 16).unwrap();
    assert!(matches!(h.run(1000), Outcome::Hang { .. }));
    assert_eq!(h.submit(L1, 16), Err(SubmitError::Hung));
}
