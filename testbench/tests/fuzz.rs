#![allow(clippy::unwrap_used)]
//! The fuzzer without RTL: determinism, sharding, the abstract model, and that the strategy
//! reaches every kind of ending.

use pica_model::cmdlist::CommandList;
use pica_model::regs::id;
use pica_testbench::fuzz::regs::{
    self as fuzz, abstract_run, case_seed, check_model, Cmd, FuzzList, FuzzOptions, SizeMode,
    JUMP_TARGET,
};
use pica_vectors::case::Case;
use pica_vectors::library;
use std::collections::BTreeSet;

fn opts(cases: u64, shard: (u64, u64)) -> FuzzOptions {
    FuzzOptions {
        cases,
        seed: 7,
        shard,
        rtl: None,
        regressions: std::env::temp_dir().join("pica-fuzz-test-regressions"),
        max_failures: 1,
        knobs: Default::default(),
    }
}

#[test]
fn fuzz_cases_are_deterministic_by_seed() {
    for i in 0..20 {
        let s = case_seed(42, i);
        assert_eq!(fuzz::generate(s), fuzz::generate(s));
    }
    assert_ne!(
        fuzz::generate(case_seed(42, 0)),
        fuzz::generate(case_seed(42, 1))
    );
    assert_ne!(case_seed(1, 0), case_seed(2, 0));
}

#[test]
fn fuzz_shards_partition_the_campaign() {
    let whole = fuzz::run(&opts(30, (0, 1)), |_, _, _| {});
    let parts: u64 = (0..3)
        .map(|i| fuzz::run(&opts(30, (i, 3)), |_, _, _| {}).cases_run)
        .sum();
    assert_eq!(whole.cases_run, 30);
    assert_eq!(parts, 30);
    assert!(whole.failures.is_empty(), "{:?}", whole.failures);
}

#[test]
fn fuzz_model_invariants_hold_on_the_library() {
    for c in library::cases() {
        check_model(&c).unwrap_or_else(|e| panic!("{}: {e}", c.name));
    }
}

#[test]
fn fuzz_abstract_model_follows_jumps_and_the_16_byte_rule() {
    let mut l = CommandList::new();
    l.write(id::FOG_COLOR, 1);
    l.write(id::FOG_COLOR, 2);
    l.finalize();
    let words = l.into_words();
    let c = Case::from_list("t", "", words.clone());
    let mem = c.memory().unwrap();
    let a = abstract_run(&mem, c.submit_addr, c.submit_size, 100);
    assert_eq!(a.end, "finished");
    let fog = u32::from(id::FOG_COLOR);
    // finalize() pads with a zero-mask write to register 0 so the list is 16-byte sized.
    assert_eq!(
        a.writes,
        vec![
            (fog, 0xF, 1),
            (fog, 0xF, 2),
            (0, 0, 0),
            (0x10, 0xF, 0x1234_5678)
        ]
    );
    // Size 0x18: the FINALIZE command in the last 8 bytes is dropped.
    let a = abstract_run(&mem, c.submit_addr, 0x18, 100);
    assert_eq!(a.end, "hang:missing_finalize");
    assert_eq!(a.writes.len(), 2);
    // A jump to unmapped memory.
    let list = FuzzList {
        main: vec![
            Cmd::Write {
                id: id::CMDBUF_ADDR0,
                mask: 0xF,
                consecutive: false,
                params: vec![0x0100_0000],
            },
            Cmd::Write {
                id: id::CMDBUF_SIZE0,
                mask: 0xF,
                consecutive: false,
                params: vec![2],
            },
            Cmd::Write {
                id: id::CMDBUF_JUMP0,
                mask: 0x0,
                consecutive: false,
                params: vec![0],
            },
        ],
        target: vec![],
        finalize: true,
        target_finalize: true,
        size: SizeMode::Exact,
        target_base: JUMP_TARGET,
    };
    let c = list.to_case("t", None);
    let a = abstract_run(&c.memory().unwrap(), c.submit_addr, c.submit_size, 100);
    assert_eq!(a.end, "hang:fetch_unmapped");
    check_model(&c).unwrap();
}

#[test]
fn fuzz_strategy_reaches_every_ending() {
    let mut endings = BTreeSet::new();
    let mut jumps = 0;
    for i in 0..400 {
        let l = fuzz::generate(case_seed(3, i)).unwrap();
        jumps += usize::from(l.main.iter().any(|c| matches!(c, Cmd::Jump { .. })));
        let c = l.to_case("t", None);
        let mem = c.memory().unwrap();
        endings.insert(abstract_run(&mem, c.submit_addr, c.submit_size, 20_000).end);
        check_model(&c).unwrap_or_else(|e| panic!("case {i}: {e}"));
    }
    for e in ["finished", "hang:missing_finalize", "hang:command_past_end"] {
        assert!(endings.contains(e), "{e} never reached: {endings:?}");
    }
    assert!(jumps > 20, "only {jumps} cases jump");
}

#[test]
fn fuzz_counts_commands_of_a_reproducer() {
    let l = FuzzList {
        main: vec![Cmd::Jump { ch: 1 }, Cmd::Raw(vec![1, 2])],
        target: vec![Cmd::Raw(vec![3])],
        finalize: true,
        target_finalize: false,
        size: SizeMode::Exact,
        target_base: JUMP_TARGET,
    };
    assert_eq!(l.commands(), 3 + 1 + 1 + 1);
}
