//! Command processor: header decoding, masking, multi-parameter writes, padding, FINALIZE,
//! the 16-byte size rule, CMDBUF jumps and every hang rule (seeds 001/002).

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;
use common::*;
use pica_model::cmdlist::CommandList;
use pica_model::{HangReason, Outcome};

const FIN: [u32; 2] = [0x1234_5678, 0x000F_0010];

fn with_fin(mut w: Vec<u32>) -> Vec<u32> {
    if (w.len() + 2) % 4 != 0 {
        w.extend([0, 0]); // zero-mask NOP
    }
    w.extend(FIN);
    w
}

#[test]
fn cp_seed_example_consecutive_writes_three_registers() {
    let (gpu, o) = run(&with_fin(vec![
        0xAAAA_AAAA,
        0x802F_011C,
        0xBBBB_BBBB,
        0xCCCC_CCCC,
    ]));
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    let w = writes(&gpu);
    assert_eq!(
        &w[..3],
        &[
            (0x11C, 0xF, 0xAAAA_AAAA, 0xAAAA_AAAA),
            (0x11D, 0xF, 0xBBBB_BBBB, 0xBBBB_BBBB),
            (0x11E, 0xF, 0xCCCC_CCCC, 0xCCCC_CCCC)
        ]
    );
    let r = gpu.regs();
    assert_eq!(
        [r.reg(0x11C), r.reg(0x11D), r.reg(0x11E)],
        [0xAAAA_AAAA, 0xBBBB_BBBB, 0xCCCC_CCCC]
    );
}

#[test]
fn cp_seed_example_without_consecutive_writes_one_register_three_times() {
    let (gpu, _) = run(&with_fin(vec![
        0xAAAA_AAAA,
        0x002F_011C,
        0xBBBB_BBBB,
        0xCCCC_CCCC,
    ]));
    let ids: Vec<u32> = writes(&gpu).iter().map(|w| w.0).take(3).collect();
    assert_eq!(ids, vec![0x11C; 3]);
    assert_eq!(gpu.regs().reg(0x11C), 0xCCCC_CCCC);
    assert_eq!(gpu.regs().reg(0x11D), 0);
}

#[test]
fn cp_byte_masks_change_exactly_their_bytes() {
    for (mask, expect) in [
        (0x0u32, 0x1122_3344u32),
        (0x1, 0x1122_33DD),
        (0x2, 0x1122_CC44),
        (0x6, 0x11BB_CC44),
        (0x9, 0xAA22_33DD),
        (0xF, 0xAABB_CCDD),
    ] {
        let (gpu, _) = run(&with_fin(vec![
            0x1122_3344,
            0x000F_00E1,
            0xAABB_CCDD,
            0x000_00E1 | (mask << 16),
        ]));
        assert_eq!(gpu.regs().reg(0xE1), expect, "mask {mask:#x}");
        let last = writes(&gpu)[1];
        assert_eq!(last, (0xE1, mask as u8, 0xAABB_CCDD, expect));
    }
}

#[test]
fn cp_padding_word_is_skipped_not_executed() {
    // One extra parameter: param, header, extra, PAD. A non-zero pad must not be read as a
    // parameter of the next command.
    let (gpu, o) = run(&[
        1,
        0x001F_00E1,
        2,
        0xFFFF_FFFF,
        0x1234_5678,
        0x000F_0010,
        0,
        0,
    ]);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    assert_eq!(
        writes(&gpu),
        vec![
            (0xE1, 0xF, 1, 1),
            (0xE1, 0xF, 2, 2),
            (0x10, 0xF, 0x1234_5678, 0x1234_5678)
        ]
    );
}

#[test]
fn cp_finalize_ends_the_list_and_later_words_are_not_read() {
    // FINALIZE, then a command that would change FOG_COLOR: never executed.
    let (gpu, o) = run(&[0x1234_5678, 0x000F_0010, 0xDEAD_BEEF, 0x000F_00E1]);
    assert_eq!(o, Outcome::Finished { cycles: 3 });
    assert_eq!(gpu.regs().reg(0xE1), 0);
    assert_eq!(gpu.cp().words_read(), 2);
}

#[test]
fn cp_finalize_reached_inside_a_consecutive_command_stops_it() {
    // 0x00E, 0x00F, 0x010 (FINALIZE), 0x011: the write to 0x011 is never issued.
    let (gpu, o) = run(&[1, 0x803F_000E, 2, 3, 4, 0]);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    assert_eq!(
        writes(&gpu).iter().map(|w| w.0).collect::<Vec<_>>(),
        vec![0xE, 0xF, 0x10]
    );
    assert_eq!(gpu.regs().reg(0x11), 0);
}

#[test]
fn cp_cycle_counts_one_word_per_cycle() {
    // 2-word FINALIZE: read param (cycle 0), header (1), REGS applies it (2): 3 cycles.
    assert_eq!(
        run(&[0x1234_5678, 0x000F_0010, 0, 0]).1,
        Outcome::Finished { cycles: 3 }
    );
    // NOP + FINALIZE: 4 words read in cycles 0-3, last write applied in cycle 4.
    assert_eq!(
        run(&[0, 0, 0x1234_5678, 0x000F_0010]).1,
        Outcome::Finished { cycles: 5 }
    );
    // Seed example + NOP + FINALIZE: 8 words, 5 writes, last applied in cycle 8.
    let (g, o) = run(&with_fin(vec![
        0xAAAA_AAAA,
        0x802F_011C,
        0xBBBB_BBBB,
        0xCCCC_CCCC,
    ]));
    assert_eq!(o, Outcome::Finished { cycles: 9 });
    assert_eq!(
        g.regwrite_beats()
            .iter()
            .map(|b| b.cycle)
            .collect::<Vec<_>>(),
        vec![2, 3, 4, 6, 8]
    );
}

#[test]
fn cp_hang_without_finalize() {
    let (_, o) = run(&[1, 0x000F_00E1, 0, 0]);
    let Outcome::Hang { cycle, reason } = o else {
        panic!("{o}")
    };
    assert_eq!(cycle, 4);
    assert_eq!(
        reason,
        HangReason::MissingFinalize {
            base: LIST,
            size: 16,
            effective_size: 16,
            dropped_finalize: false
        }
    );
    assert!(
        reason
            .to_string()
            .contains("without a write to GPUREG_FINALIZE"),
        "{reason}"
    );
}

#[test]
fn cp_hang_when_finalize_sits_in_dropped_last_8_bytes() {
    // 24 bytes: only 16 are read (seed 001: sizes are cleared to a multiple of 16).
    let (gpu, o) = run(&[0, 0, 0x1122_3344, 0x000F_00E1, 0x1234_5678, 0x000F_0010]);
    let Outcome::Hang { reason, .. } = o else {
        panic!("{o}")
    };
    assert_eq!(
        reason,
        HangReason::MissingFinalize {
            base: LIST,
            size: 24,
            effective_size: 16,
            dropped_finalize: true
        }
    );
    assert!(
        reason.to_string().contains("not a multiple of 16"),
        "{reason}"
    );
    // What was read before the hang still took effect.
    assert_eq!(gpu.regs().reg(0xE1), 0x1122_3344);
}

#[test]
fn cp_hang_when_a_command_runs_past_the_end() {
    let (_, o) = run(&[0xAAAA_AAAA, 0x803F_011C, 0xBBBB_BBBB, 0xCCCC_CCCC]);
    let Outcome::Hang { reason, .. } = o else {
        panic!("{o}")
    };
    assert_eq!(
        reason,
        HangReason::CommandPastEnd {
            base: LIST,
            effective_size: 16,
            command_addr: LIST,
            header: Some(0x803F_011C)
        }
    );
    assert!(
        reason.to_string().contains("3 extra parameter(s)"),
        "{reason}"
    );
}

#[test]
fn cp_jump_continues_in_the_other_buffer() {
    let second = 0x1800_0100; // VRAM
    let mut l = CommandList::new();
    l.write(0xE1, 1)
        .write(0x23B, second >> 3)
        .write(0x239, 16 >> 3)
        .write(0x23D, 1)
        .write(0xE1, 0xBAD);
    l.finalize();
    let (gpu, o) = run_with(
        l.words(),
        &[(second, &[2, 0x000F_00E2, 0x1234_5678, 0x000F_0010])],
    );
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    assert_eq!(
        gpu.regs().reg(0xE1),
        1,
        "the write after the jump must not run"
    );
    assert_eq!(gpu.regs().reg(0xE2), 2);
    let jumps: Vec<_> = gpu.regs().triggers().iter().map(|t| t.trigger).collect();
    assert!(
        jumps.contains(&pica_model::regs::Trigger::CmdbufJump(1)),
        "{jumps:?}"
    );
}

#[test]
fn cp_jump_timing_is_cycle_exact() {
    // Words 0-5 read in cycles 0-5, the JUMP write issued in cycle 5 and applied by REGS in
    // cycle 6, the redirect taken by the CP in cycle 7 together with the first word of the new
    // buffer (FINALIZE's parameter), its header in cycle 8, FINALIZE applied in cycle 9: 10
    // cycles.
    let second = LIST + 0x40;
    let w = [
        second >> 3,
        0x000F_023A,
        2,
        0x000F_0238,
        1,
        0x000F_023C,
        0,
        0,
    ];
    let (gpu, o) = run_with(&w, &[(second, &[0x1234_5678, 0x000F_0010, 0, 0])]);
    assert_eq!(o, Outcome::Finished { cycles: 10 });
    let cycles: Vec<u64> = gpu.regwrite_beats().iter().map(|b| b.cycle).collect();
    assert_eq!(cycles, vec![2, 4, 6, 9]);
}

#[test]
fn cp_jump_uses_the_16_byte_rule_of_the_new_size() {
    let second = LIST + 0x1000;
    let mut l = CommandList::new();
    l.write(0x23A, second >> 3)
        .write(0x238, 24 >> 3)
        .write(0x23C, 1);
    let mut w = l.into_words();
    w.extend([0, 0]);
    let tail = [0, 0, 7, 0x000F_00E1, 0x1234_5678, 0x000F_0010];
    let (gpu, o) = run_with(&w, &[(second, &tail)]);
    let Outcome::Hang { reason, .. } = o else {
        panic!("{o}")
    };
    assert_eq!(
        reason,
        HangReason::MissingFinalize {
            base: second,
            size: 24,
            effective_size: 16,
            dropped_finalize: true
        }
    );
    assert_eq!(gpu.regs().reg(0xE1), 7);
}

#[test]
fn cp_hang_on_fetch_outside_memory() {
    let mut l = CommandList::new();
    l.write(0x23A, 0x1000_0000 >> 3)
        .write(0x238, 2)
        .write(0x23C, 1);
    let mut w = l.into_words();
    w.extend([0, 0]);
    let (_, o) = run(&w);
    assert!(
        matches!(
            o,
            Outcome::Hang {
                reason: HangReason::FetchUnmapped { addr: 0x1000_0000 },
                ..
            }
        ),
        "{o}"
    );
}

#[test]
fn cp_jump_loop_hits_the_cycle_limit() {
    // A buffer that jumps to itself never finishes.
    let mut l = CommandList::new();
    l.write(0x23A, LIST >> 3).write(0x238, 4).write(0x23C, 1);
    let mut w = l.into_words();
    w.extend([0, 0]);
    let mut mem = pica_model::Memory::new();
    mem.write_words(LIST, &w).unwrap();
    let mut gpu = pica_model::Gpu::new(mem);
    gpu.submit(LIST, 32).unwrap();
    assert_eq!(gpu.run(500), Outcome::CycleLimit { cycles: 500 });
}

#[test]
fn cp_ids_above_0x2ff_change_nothing() {
    let (gpu, o) = run(&with_fin(vec![
        0xFFFF_FFFF,
        0x802F_02FE,
        0xEEEE_EEEE,
        0xDDDD_DDDD,
    ]));
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    assert_eq!(gpu.regs().reg(0x2FE), 0xFFFF_FFFF);
    assert_eq!(gpu.regs().reg(0x2FF), 0xEEEE_EEEE);
    assert_eq!(writes(&gpu)[2], (0x300, 0xF, 0xDDDD_DDDD, 0));
    assert_eq!(gpu.regs().regs().len(), 0x300);
    let (gpu, _) = run(&with_fin(vec![0x1, 0x000F_FFFF]));
    assert_eq!(writes(&gpu)[0], (0xFFFF, 0xF, 1, 0));
}

#[test]
fn cp_submit_rejects_unaligned_and_unmapped_buffers() {
    let mut gpu = pica_model::Gpu::new(pica_model::Memory::new());
    assert!(gpu.submit(LIST + 4, 16).is_err());
    assert!(gpu.submit(0x1000, 16).is_err());
    assert!(gpu.submit(0x185F_FFF8, 16).is_err());
}

#[test]
fn cp_empty_list_hangs() {
    let (_, o) = run(&[]);
    assert!(
        matches!(
            o,
            Outcome::Hang {
                reason: HangReason::MissingFinalize { size: 0, .. },
                cycle: 0
            }
        ),
        "{o}"
    );
}

/// `Gpu::push_write` is a write the CP would have pushed: REGS applies it in the next cycle
/// with the same merge and beat as a command-list write, the channel's depth bounds what
/// can wait, a running list refuses it, and pushed writes alone finish.
#[test]
fn cp_pushed_writes_match_the_same_writes_from_a_list() {
    use pica_model::{Gpu, Memory, PushError};
    let writes = [
        (0x0E1u32, 0xFu8, 0x1122_3344u32),
        (0x0E1, 0x5, 0xAABB_CCDD),
        (0x11C, 0x3, 7),
    ];
    let mut pushed = Gpu::new(Memory::new());
    pushed.set_pipeline(false);
    for &(id, mask, v) in &writes {
        while let Err(e) = pushed.push_write(id, mask, v) {
            assert_eq!(e, PushError::Full);
            pushed.step();
        }
    }
    assert_eq!(pushed.pushed_writes(), 3);
    let o = pushed.run(100);
    assert_eq!(o, Outcome::Finished { cycles: 3 });
    let mut cl = CommandList::new();
    for &(id, mask, v) in &writes {
        cl.write_masked(id as u16, mask, v);
    }
    let (listed, _) = run(&with_fin(cl.into_words()));
    let strip = |g: &Gpu| -> Vec<(u32, u8, u32, u32)> {
        g.regwrite_beats()
            .iter()
            .map(|b| (b.id, b.mask, b.param, b.value))
            .filter(|b| b.0 != 0x010 && b.1 != 0)
            .collect()
    };
    assert_eq!(strip(&pushed), strip(&listed));
    assert_eq!(pushed.regs().reg(0x0E1), 0x11BB_33DD);
    // Cycles: REGS applies one write per cycle from the cycle after the push.
    let cycles: Vec<u64> = pushed.regwrite_beats().iter().map(|b| b.cycle).collect();
    assert_eq!(cycles, [0, 1, 2]);
    // Bad arguments and a running list are refused.
    let mut g = Gpu::new(Memory::new());
    assert_eq!(g.push_write(0x0E1, 0x10, 0), Err(PushError::BadMask(0x10)));
    assert_eq!(
        g.push_write(0x1_0100, 0xF, 0),
        Err(PushError::BadId(0x1_0100))
    );
    let depth = pica_model::timing::CP_TO_REGS_DEPTH;
    for _ in 0..depth {
        assert_eq!(g.push_write(0x0E1, 0xF, 1), Ok(()));
    }
    assert_eq!(g.push_write(0x0E1, 0xF, 1), Err(PushError::Full));
    let mut running = Gpu::new(Memory::new());
    running
        .mem_mut()
        .write_words(0x2000_0000, &with_fin(vec![1, 0x000F_00E1]))
        .unwrap();
    running.submit(0x2000_0000, 16).unwrap();
    running.step();
    assert_eq!(
        running.push_write(0x0E1, 0xF, 1),
        Err(PushError::ListRunning)
    );
}
