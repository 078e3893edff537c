#![allow(clippy::unwrap_used)]
//! Lockstep against the RTL: the library agrees cycle-exactly, each injected bug is caught by
//! lockstep and by the fuzzer with a reproducer of at most 3 commands, reports name fields,
//! the trace window writes a VCD, and every saved regression and corpus bundle replays.

use pica_model::cmdlist::CommandList;
use pica_model::regs::id;
use pica_rtl_bridge::{Rtl, RtlGpu, RtlOutcome, Variant};
use pica_testbench::cli::{bundle_dirs, load_bundles};
use pica_testbench::fuzz::regs::{self as fuzz, case_seed, FuzzOptions};
use pica_testbench::lockstep::{lockstep, text_report, DivergenceKind, Options, StateRead};
use pica_vectors::case::Case;
use pica_vectors::library;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn opts(variant: Variant) -> Options {
    Options {
        variant,
        ..Options::default()
    }
}

#[test]
fn lockstep_library_is_equal_cycle_by_cycle() {
    for c in library::cases() {
        let r = lockstep(&c, &opts(Variant::Default)).unwrap();
        assert!(r.is_equal(), "{}", text_report(&r));
        assert_eq!(r.beats, c.run_model().unwrap().beats.len(), "{}", c.name);
    }
}

/// One masked write whose byte 2 must not change.
fn mask_case() -> Case {
    let mut l = CommandList::new();
    l.write_masked(id::FOG_COLOR, 0x3, 0x00AB_CDEF);
    l.finalize();
    Case::from_list("t/mask", "", l.into_words())
}

/// One f24 uniform whose y has non-zero low bits.
fn packer_case() -> Case {
    let mut l = CommandList::new();
    l.write(id::VSH_FLOATUNIFORM_INDEX, 4);
    l.write_repeat(
        id::VSH_FLOATUNIFORM_DATA0,
        &[0xBF00_0040, 0x8000_3E00, 0x013F_0000],
    );
    l.finalize();
    Case::from_list("t/packer", "", l.into_words())
}

#[test]
fn lockstep_catches_the_injected_mask_bug_at_the_beat() {
    let r = lockstep(&mask_case(), &opts(Variant::InjectMaskBug)).unwrap();
    let d = r.divergence.clone().expect("the mask bug must be caught");
    assert_eq!(d.kind, DivergenceKind::BeatMismatch);
    assert_eq!(
        (d.channel.as_str(), d.beat_index, d.cycle),
        ("regwrite", 0, 2)
    );
    let names: Vec<&str> = d.fields.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"value"), "{names:?}");
    assert!(names.contains(&"GPUREG_FOG_COLOR.blue"), "{names:?}");
    let text = text_report(&r);
    assert!(
        text.starts_with("MISMATCH  t/mask: beats differ — channel regwrite, beat #0, cycle 2"),
        "{text}"
    );
    // The default build agrees on the same case.
    assert!(lockstep(&mask_case(), &opts(Variant::Default))
        .unwrap()
        .is_equal());
}

#[test]
fn lockstep_catches_the_injected_packer_bug_in_the_final_state() {
    // The final state read straight out of the model (the default) and through the debug port
    // give the same report.
    for state_read in [StateRead::Direct, StateRead::DebugPort] {
        let o = Options {
            state_read,
            ..opts(Variant::InjectPackerBug)
        };
        let r = lockstep(&packer_case(), &o).unwrap();
        let d = r.divergence.expect("the packer bug must be caught");
        assert_eq!(d.kind, DivergenceKind::FinalState);
        // Every unit gets the uniform (no GS), so all four differ in c4.y.
        assert_eq!(d.total_differences, 4, "{state_read:?}");
        assert_eq!(d.fields[0].name, "unit0.float_uniforms[c4.y]");
        assert_eq!(d.fields[0].expected, "0x003e0001");
        assert_eq!(d.fields[0].actual, "0x003e0000");
        assert_eq!(d.before.len(), 5, "the beats before it");
        let o = Options {
            state_read,
            ..opts(Variant::Default)
        };
        assert!(lockstep(&packer_case(), &o).unwrap().is_equal());
    }
}

#[test]
fn lockstep_reads_the_same_final_state_directly_and_through_the_debug_port() {
    // Fuzz lists (`pica fuzz --rtl` compares their final state with the direct read): the
    // port, one clock per word, reads the same words.
    let mut compared = 0;
    for i in 0..12 {
        let case = fuzz::generate(case_seed(1, i))
            .unwrap()
            .to_case("fuzz", None);
        let mut rtl = RtlGpu::new(
            Rtl::new().unwrap(),
            case.memory().unwrap(),
            case.submit_addr,
            case.submit_size,
        );
        // At the cycle limit writes may be in flight, which the port's clocks would apply.
        if matches!(rtl.run(case.max_cycles), RtlOutcome::CycleLimit { .. }) {
            continue;
        }
        assert_eq!(rtl.state_dump(), rtl.debug_dump(), "fuzz case {i}");
        compared += 1;
    }
    assert!(compared >= 8, "cases compared: {compared}");
}

#[test]
fn lockstep_trace_window_writes_a_vcd_around_the_mismatch() {
    let vcd = std::env::temp_dir().join(format!("pica-lockstep-{}.vcd", std::process::id()));
    let o = Options {
        variant: Variant::InjectMaskBug,
        trace_window: Some(6),
        vcd: vcd.clone(),
        ..Options::default()
    };
    let r = lockstep(&mask_case(), &o).unwrap();
    let d = r.divergence.unwrap();
    assert_eq!(d.vcd.unwrap(), format!("{} (cycles 0..=5)", vcd.display()));
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(
        text.contains("$enddefinitions") && text.contains("trace_rw_value_o"),
        "not a VCD of pica_top"
    );
    let _ = std::fs::remove_file(vcd);
}

#[test]
fn fuzz_finds_and_shrinks_each_injected_bug() {
    for variant in [Variant::InjectMaskBug, Variant::InjectPackerBug] {
        let dir = std::env::temp_dir().join(format!(
            "pica-fuzz-{}-{}",
            variant.name(),
            std::process::id()
        ));
        let o = FuzzOptions {
            cases: 400,
            seed: 5,
            shard: (0, 1),
            rtl: Some(variant),
            regressions: dir.clone(),
            max_failures: 1,
            knobs: Default::default(),
        };
        let r = fuzz::run(&o, |_, _, _| {});
        let f = r
            .failures
            .first()
            .unwrap_or_else(|| panic!("{} not found in 400 cases", variant.name()));
        assert!(
            f.commands <= 3,
            "{}: reproducer has {} commands",
            variant.name(),
            f.commands
        );
        // The saved bundle reproduces the failure on its own and is clean on the default build.
        let b = &load_bundles(&[PathBuf::from(&f.bundle)]).unwrap()[0];
        assert!(b.check_model().unwrap().is_empty());
        let case = b.case().unwrap();
        assert!(!lockstep(&case, &opts(variant)).unwrap().is_equal());
        assert!(lockstep(&case, &opts(Variant::Default)).unwrap().is_equal());
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn fuzz_against_the_default_rtl_finds_nothing() {
    let o = FuzzOptions {
        cases: 200,
        seed: 11,
        shard: (0, 1),
        rtl: Some(Variant::Default),
        regressions: std::env::temp_dir().join("pica-fuzz-default-never-written"),
        max_failures: 1,
        knobs: Default::default(),
    };
    let r = fuzz::run(&o, |_, _, _| {});
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert_eq!(r.cases_run, 200);
    // And the cases really exercise the RTL: most of them write registers.
    let busy = (0..200)
        .filter(|&i| fuzz::generate(case_seed(11, i)).unwrap().commands() > 2)
        .count();
    assert!(busy > 150);
}

#[test]
fn regressions_replay_forever() {
    let dir = repo().join("vectors/regressions");
    let Ok(dirs) = bundle_dirs(&[dir]) else {
        return; // no regression has been saved yet
    };
    for d in dirs {
        // Shader-unit stage bundles replay in tests/shader_fuzz.rs.
        if pica_vectors::stage::bundle_kind(&d).unwrap().is_some() {
            continue;
        }
        let b = &load_bundles(std::slice::from_ref(&d)).unwrap()[0];
        assert!(b.check_model().unwrap().is_empty(), "{}", d.display());
        let r = lockstep(&b.case().unwrap(), &opts(Variant::Default)).unwrap();
        assert!(r.is_equal(), "{}", text_report(&r));
    }
}

#[test]
fn corpus_replays_on_model_and_rtl() {
    let dirs = bundle_dirs(&[repo().join("vectors/corpus")]).unwrap();
    assert!(
        dirs.len() >= library::cases().len(),
        "the corpus is missing bundles"
    );
    for b in load_bundles(&dirs).unwrap() {
        assert!(
            b.check_model().unwrap().is_empty(),
            "{}: regenerate with `pica vectors gen vectors/corpus`",
            b.dir.display()
        );
        let r = lockstep(&b.case().unwrap(), &opts(Variant::Default)).unwrap();
        assert!(r.is_equal(), "{}", text_report(&r));
    }
}

/// `--hold`: the front-end lockstep holding REGS on a schedule, both sides, stays equal on the
/// library and the first fuzz cases (the front end alone is never held otherwise), and the
/// hold really delays the writes.
#[test]
fn lockstep_under_a_hold_schedule_is_equal_and_later() {
    use pica_testbench::lockstep::HoldSchedule;
    let hold = HoldSchedule::parse("0x5:40").unwrap();
    assert_eq!(
        hold,
        HoldSchedule {
            seed: 5,
            percent: 40
        }
    );
    assert_eq!(hold.to_string(), "0x5:40");
    assert!(HoldSchedule::parse("1:101").is_err());
    assert!(HoldSchedule::parse("x").is_err());
    assert_eq!(HoldSchedule::of_case(2), None);
    assert!(HoldSchedule::of_case(3).is_some());
    let held = Options {
        hold: Some(hold),
        ..opts(Variant::Default)
    };
    let mut later = 0;
    for c in library::cases() {
        let free = lockstep(&c, &opts(Variant::Default)).unwrap();
        let r = lockstep(&c, &held).unwrap();
        assert!(r.is_equal(), "{}", text_report(&r));
        // Held, a case cut by its cycle limit gets fewer writes in; any other applies all.
        if !free.outcome.kind.contains("limit") {
            assert_eq!(r.beats, free.beats, "{}", c.name);
        }
        later += usize::from(r.cycles > free.cycles);
    }
    assert!(later > 0, "the schedule never held a write back");
    for i in 0..24 {
        let s = case_seed(1, i);
        if let Some(l) = fuzz::generate(s) {
            let r = fuzz::check_held(&l, Some(Variant::Default), &Default::default(), Some(hold));
            assert!(r.is_ok(), "case 0x{s:016x}: {r:?}");
        }
    }
    // A held-back CP->REGS entry is exactly what the injected mask bug does not care about,
    // but it is still caught under the schedule.
    let r = lockstep(
        &mask_case(),
        &Options {
            hold: Some(hold),
            ..opts(Variant::InjectMaskBug)
        },
    )
    .unwrap();
    assert!(!r.is_equal());
}
