#![allow(clippy::unwrap_used)]
//! The loop detection of `pica fuzz` (`lockstep::loops`): a jump back into the same state and
//! a walk through zero memory to the cycle limit end the run early on the model and in
//! lockstep alike, with the same beats and final state as far as they ran (also a state that
//! comes back only every few rounds); a walk that ends
//! before the limit is not cut before its end, a loop whose upload index runs on not at all; the fuzzer cuts cases
//! on both sides and still finds nothing on the RTL as written.

use pica_model::cmdlist::CommandList;
use pica_model::regs::id;
use pica_rtl_bridge::Variant;
use pica_testbench::fuzz::regs::{self as fuzz, FuzzOptions, FUZZ_MAX_CYCLES};
use pica_testbench::lockstep::loops::LoopKind;
use pica_testbench::lockstep::{lockstep, text_report, HoldSchedule, Options, Report};
use pica_vectors::case::{Case, DEFAULT_LIST_ADDR};

/// A case of `words` at the default address with the fuzzer's cycle limit.
fn case(words: Vec<u32>) -> Case {
    let mut c = Case::from_list("t/loop", "", words);
    c.max_cycles = FUZZ_MAX_CYCLES;
    c
}

/// `body`, then a jump through channel 0 to `addr` with `size` bytes (the list's length must
/// be a multiple of 16 bytes, or the 16-byte rule drops the jump).
fn jumping(body: impl FnOnce(&mut CommandList), addr: u32, size: u32) -> Vec<u32> {
    let mut l = CommandList::new();
    body(&mut l);
    l.write(id::CMDBUF_ADDR0, addr >> 3);
    l.write(id::CMDBUF_SIZE0, size >> 3);
    l.write(id::CMDBUF_JUMP0, 1);
    l.into_words()
}

/// A list that writes a register and jumps back to its own start, for ever.
fn self_loop() -> Vec<u32> {
    // Three commands and the jump's three: 48 bytes, a multiple of 16 (the 16-byte rule
    // would drop the jump otherwise).
    let body = |l: &mut CommandList| {
        l.write(id::FOG_COLOR, 0x0011_2233);
        l.write_masked(id::FOG_COLOR, 0x3, 0x4455_6677);
        l.write(id::CMDBUF_SIZE1, 8);
    };
    let mut probe = CommandList::new();
    body(&mut probe);
    let len = (probe.into_words().len() as u32 + 6) * 4;
    jumping(body, DEFAULT_LIST_ADDR, len)
}

/// One command: with the jump's three, a list of 32 bytes.
fn one_write(l: &mut CommandList) {
    l.write(id::FOG_COLOR, 1);
}

fn run(c: &Case, stop_on_loop: bool, hold: Option<HoldSchedule>) -> Report {
    let r = lockstep(
        c,
        &Options {
            variant: Variant::Default,
            stop_on_loop,
            hold,
            ..Options::default()
        },
    )
    .unwrap();
    assert!(r.is_equal(), "{}", text_report(&r));
    r
}

/// Checks that `c` runs to the cycle limit without the detector and, with it, unheld and held,
/// ends before cycle `within` on a jump loop into `addr`, equal on both sides and with the
/// cycle limit's outcome; the cut runs' reports.
fn cut_as_a_jump_loop(c: &Case, addr: u32, within: u64) -> Vec<Report> {
    let full = run(c, false, None);
    assert_eq!(full.cycles, FUZZ_MAX_CYCLES);
    assert!(full.loop_proof.is_none());
    // The model run of the fuzzer cuts it too and keeps its invariants.
    assert_eq!(fuzz::check_model(c), Ok(()));
    [None, HoldSchedule::of_case(3)]
        .into_iter()
        .map(|hold| {
            let cut = run(c, true, hold);
            let p = cut.loop_proof.unwrap();
            assert_eq!(p.kind, LoopKind::Jump);
            assert_eq!(p.addr, addr);
            assert!(cut.cycles < within, "cut at {}", cut.cycles);
            assert_eq!(cut.outcome.kind, full.outcome.kind, "both at a cycle limit");
            cut
        })
        .collect()
}

#[test]
fn loops_a_jump_back_into_the_same_state_ends_the_run_on_both_sides() {
    let c = case(self_loop());
    assert_eq!(c.submit_size % 16, 0, "the list must be read whole");
    for cut in cut_as_a_jump_loop(&c, DEFAULT_LIST_ADDR, 200) {
        let p = cut.loop_proof.unwrap();
        assert!(p.first < p.again && p.again < cut.cycles + 1);
        assert!(p.to_string().contains("loops"), "{p}");
        assert!(text_report(&cut).contains("ended early: the command stream loops"));
    }
}

#[test]
fn loops_a_state_that_comes_back_every_third_round_ends_the_run() {
    // Float uniform index 96 (f24 mode): every vec4 is dropped and the index stays, so each
    // round's one data word only moves the packer on (three words to a vec4). The registers
    // and the jump are the same every round, the state only every third: a detector that
    // compares each visit with the one before never sees it repeat.
    const BODY: u32 = 0x1800_0000;
    let body = jumping(
        |l| {
            l.write(id::VSH_FLOATUNIFORM_DATA0, 0x3F80_0000);
        },
        BODY,
        32,
    );
    assert_eq!(body.len() * 4, 32, "the body must be read whole");
    let mut c = case(jumping(
        |l| {
            l.write(id::VSH_FLOATUNIFORM_INDEX, 96);
        },
        BODY,
        32,
    ));
    assert_eq!(c.submit_size, 32);
    c.images.push(pica_vectors::case::MemImage {
        base: BODY,
        words: body,
    });
    for cut in cut_as_a_jump_loop(&c, BODY, 500) {
        // Three rounds apart at least: the state of the round before differs.
        let p = cut.loop_proof.unwrap();
        assert!(p.again - p.first >= 3 * 8, "{p}");
    }
}

#[test]
fn loops_a_zero_walk_is_cut_only_when_it_lasts_to_the_limit() {
    // A megabyte of unwritten VRAM: zeros for far longer than the cycle limit.
    let long = case(jumping(one_write, 0x1810_0000, 0x10_0000));
    assert_eq!(long.submit_size % 16, 0);
    let r = run(&long, true, None);
    let p = r.loop_proof.unwrap();
    assert_eq!(p.kind, LoopKind::ZeroWalk);
    assert!(r.cycles < 100, "cut at {}", r.cycles);
    assert!(p.to_string().contains("zero"), "{p}");
    assert_eq!(run(&long, false, None).cycles, FUZZ_MAX_CYCLES);
    // 4 KiB of zeros: the walk ends in a hang at the buffer's end, before the limit, and the
    // run goes there.
    let short = case(jumping(one_write, 0x1810_0000, 0x1000));
    let r = run(&short, true, None);
    assert!(r.loop_proof.is_none());
    assert_eq!(r.outcome.kind, "hang");
    assert!(r.cycles > 1000);
    // Zeros up to a written command before the limit, zeros after it: the run reads the
    // command, and only the walk after it is cut.
    let mut walled = case(jumping(one_write, 0x1810_0000, 0x10_0000));
    walled.images.push(pica_vectors::case::MemImage {
        base: 0x1810_4000,
        words: vec![0x1234_5678, 0x000F_00E1],
    });
    let r = run(&walled, true, None);
    let p = r.loop_proof.unwrap();
    assert_eq!(p.kind, LoopKind::ZeroWalk);
    assert!(p.addr > 0x1810_4008, "cut at {:#x}", p.addr);
    assert!(r.cycles > 0x4000 / 4, "cut at cycle {}", r.cycles);
}

#[test]
fn loops_a_loop_whose_upload_index_runs_on_is_not_cut() {
    // Each time round one more code word: the index never comes back within the limit.
    let body = |l: &mut CommandList| {
        l.write(id::VSH_CODETRANSFER_DATA0, 0x0800_0000);
        l.write(id::FOG_COLOR, 1);
        l.write(id::FOG_COLOR, 2);
    };
    let mut probe = CommandList::new();
    body(&mut probe);
    let len = (probe.into_words().len() as u32 + 6) * 4;
    let c = case(jumping(body, DEFAULT_LIST_ADDR, len));
    assert_eq!(c.submit_size % 16, 0);
    let r = run(&c, true, None);
    assert!(r.loop_proof.is_none());
    assert_eq!(r.cycles, FUZZ_MAX_CYCLES);
}

#[test]
fn loops_the_fuzzer_cuts_cases_on_the_model_and_the_rtl() {
    let mut o = FuzzOptions {
        cases: 300,
        seed: 1,
        shard: (0, 1),
        rtl: None,
        regressions: std::env::temp_dir().join("pica-fuzz-loops-never-written"),
        max_failures: 1,
        knobs: Default::default(),
    };
    let model = fuzz::run(&o, |_, _, _| {});
    o.rtl = Some(Variant::Default);
    let rtl = fuzz::run(&o, |_, _, _| {});
    assert!(model.failures.is_empty() && rtl.failures.is_empty());
    assert!(model.loops > 0, "no case of 300 was cut");
    assert!(rtl.loops > 0, "no case of 300 was cut in lockstep");
}
