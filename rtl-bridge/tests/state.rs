//! The final state read straight out of the Verilated model (`RtlGpu::state_dump`, one call)
//! equals the debug port's (`RtlGpu::debug_dump`, one clock per word), word for word: on every
//! built-in case (the example lists included), on random register lists, on a list that
//! writes every register, over the whole 16-bit address space, and on the injected-bug builds,
//! where the direct read sees exactly the differences the port sees.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::cmdlist::CommandList;
use pica_model::regfile::debug;
use pica_model::regs::id;
use pica_model::Memory;
use pica_rtl_bridge::state::SHADOW_IDS;
use pica_rtl_bridge::{Rtl, RtlGpu, RtlOutcome, Variant};
use pica_vectors::case::Case;
use pica_vectors::library;
use pica_vectors::shader_gen::Rng;

const LIST: u32 = 0x2000_0000;

/// `words` submitted whole on a new `variant` model, not yet clocked.
fn gpu_of(words: &[u32], variant: Variant) -> RtlGpu {
    let mut mem = Memory::new();
    mem.write_words(LIST, words).unwrap();
    let size = u32::try_from(words.len() * 4).unwrap();
    RtlGpu::new(Rtl::with_variant(variant).unwrap(), mem, LIST, size)
}

/// Runs `words` (submitted whole) on `variant` until it is over.
fn run_words(words: &[u32], variant: Variant) -> RtlGpu {
    let mut rtl = gpu_of(words, variant);
    let o = rtl.run(100_000);
    assert!(!matches!(o, RtlOutcome::CycleLimit { .. }), "{o:?}");
    rtl
}

/// Runs `case` on `variant`; `None` if it stops at its cycle limit (with writes still in
/// flight, which the port's clocks would apply: the two reads legitimately differ there).
fn run_case(case: &Case, variant: Variant) -> Option<RtlGpu> {
    let mut rtl = RtlGpu::new(
        Rtl::with_variant(variant).unwrap(),
        case.memory().unwrap(),
        case.submit_addr,
        case.submit_size,
    );
    match rtl.run(case.max_cycles) {
        RtlOutcome::CycleLimit { .. } => None,
        _ => Some(rtl),
    }
}

/// Both reads of `rtl`'s state, asserted equal; returns the dump. The direct read moves
/// nothing (cycle, beats, state), so it is taken before and after the port's.
fn both_equal(rtl: &mut RtlGpu, what: &str) -> Vec<(u16, u32)> {
    let (cycle, beats) = (rtl.cycle(), rtl.beats().len());
    let fast = rtl.state_dump();
    assert_eq!((rtl.cycle(), rtl.beats().len()), (cycle, beats));
    let port = rtl.debug_dump();
    assert_eq!(fast.len(), debug::debug_addresses().count());
    let diffs: Vec<String> = fast
        .iter()
        .zip(&port)
        .filter(|(f, p)| f != p)
        .take(8)
        .map(|(f, p)| {
            format!(
                "{}: direct 0x{:08x}, port 0x{:08x}",
                debug::describe(p.0),
                f.1,
                p.1
            )
        })
        .collect();
    assert!(diffs.is_empty(), "{what}: {diffs:#?}");
    assert_eq!(fast, port, "{what}");
    assert_eq!(
        rtl.state_dump(),
        fast,
        "{what}: the port's clocks moved the state"
    );
    fast
}

/// A random register list biased to state the debug map shows: every FIFO's index and data
/// registers, the shadow registers, the shader blocks' configuration, random IDs with random
/// masks, consecutive or repeated. No FINALIZE or CMDBUF jump before the end.
fn random_list(seed: u64) -> Vec<u32> {
    const FIFOS: [(u16, u16); 11] = [
        (id::VSH_FLOATUNIFORM_INDEX, id::VSH_FLOATUNIFORM_DATA0),
        (id::GSH_FLOATUNIFORM_INDEX, id::GSH_FLOATUNIFORM_DATA0),
        (id::VSH_CODETRANSFER_INDEX, id::VSH_CODETRANSFER_DATA0),
        (id::GSH_CODETRANSFER_INDEX, id::GSH_CODETRANSFER_DATA0),
        (id::VSH_OPDESCS_INDEX, id::VSH_OPDESCS_DATA0),
        (id::GSH_OPDESCS_INDEX, id::GSH_OPDESCS_DATA0),
        (id::PROCTEX_LUT, id::PROCTEX_LUT_DATA0),
        (id::FOG_LUT_INDEX, id::FOG_LUT_DATA0),
        (id::LIGHTING_LUT_INDEX, id::LIGHTING_LUT_DATA0),
        (id::GAS_LUT_INDEX, id::GAS_LUT_DATA),
        (id::FIXEDATTRIB_INDEX, id::FIXEDATTRIB_DATA0),
    ];
    let forbidden =
        |i: u16| i == id::FINALIZE || (id::CMDBUF_JUMP0..=id::CMDBUF_JUMP1).contains(&i);
    let mut r = Rng(seed);
    let mut l = CommandList::new();
    let word = |r: &mut Rng| match r.below(4) {
        0 => r.below(0x100) as u32,
        1 => r.next_u64() as u32 & 0x8000_1FFF,
        _ => r.next_u64() as u32,
    };
    for _ in 0..20 + r.below(40) {
        match r.below(6) {
            0 | 1 => {
                let (index, data) = r.pick(&FIFOS);
                let ix = word(&mut r) & 0x8000_1FFF;
                l.write(index, ix);
                let n = 1 + r.below(12) as usize;
                let params: Vec<u32> = (0..n).map(|_| word(&mut r)).collect();
                let mask = if r.chance(80) { 0xF } else { r.below(16) as u8 };
                l.command(u32::from(data), mask, false, &params);
            }
            2 => {
                let base = r.pick(&[id::VSH_BOOLUNIFORM, id::GSH_BOOLUNIFORM]);
                let n = 1 + r.below(4) as usize;
                let params: Vec<u32> = (0..n).map(|_| word(&mut r)).collect();
                l.command(
                    u32::from(base) + r.below(12) as u32,
                    0xF,
                    r.chance(50),
                    &params,
                );
            }
            3 => {
                let reg = r.pick(&[id::VSH_COM_MODE, id::GEOSTAGE_CONFIG]);
                l.write(reg, r.below(4) as u32);
            }
            4 => {
                let reg = r.pick(&SHADOW_IDS);
                l.write_masked(reg, r.below(16) as u8, word(&mut r));
            }
            _ => {
                let reg = (r.below(0x300) as u16).min(0x2F0);
                if forbidden(reg) || (reg..reg + 8).any(forbidden) {
                    continue;
                }
                let n = 1 + r.below(6) as usize;
                let params: Vec<u32> = (0..n).map(|_| word(&mut r)).collect();
                l.command(u32::from(reg), r.below(16) as u8, r.chance(50), &params);
            }
        }
    }
    l.finalize();
    l.into_words()
}

/// Every register ID (except FINALIZE and the jumps) written with a value naming it, so that
/// every register word, every shadow register and every FIFO holds something non-zero.
fn every_register_list() -> Vec<u32> {
    let mut l = CommandList::new();
    for reg in 0..0x300u16 {
        if reg == id::FINALIZE || (id::CMDBUF_JUMP0..=id::CMDBUF_JUMP1).contains(&reg) {
            continue;
        }
        l.write(
            reg,
            0xA500_0000 | u32::from(reg) << 8 | u32::from(reg & 0xFF),
        );
    }
    l.finalize();
    l.into_words()
}

#[test]
fn state_direct_read_equals_the_debug_port_on_the_library() {
    let mut n = 0;
    for case in library::cases() {
        if let Some(mut rtl) = run_case(&case, Variant::Default) {
            both_equal(&mut rtl, &case.name);
            n += 1;
        }
    }
    assert!(n >= 11, "cases compared: {n}");
}

#[test]
fn state_direct_read_equals_the_debug_port_on_random_lists() {
    for seed in 1..=6 {
        let mut rtl = run_words(&random_list(seed), Variant::Default);
        let dump = both_equal(&mut rtl, &format!("random list {seed}"));
        assert!(
            dump.iter().filter(|w| w.1 != 0).count() > 20,
            "random list {seed} leaves little state"
        );
    }
    // The injected-bug builds (no SH stage) read their own state alike, and so does the
    // coverage build, whose shader-unit RAMs are cells of their own rather than inlined.
    for (seed, variant) in [
        (7, Variant::InjectMaskBug),
        (8, Variant::InjectPackerBug),
        (9, Variant::FeCoverage),
    ] {
        let mut rtl = run_words(&random_list(seed), variant);
        both_equal(
            &mut rtl,
            &format!("random list {seed} on {}", variant.name()),
        );
    }
}

#[test]
fn state_direct_read_equals_the_debug_port_at_every_address() {
    let mut rtl = run_words(&every_register_list(), Variant::Default);
    let dump = both_equal(&mut rtl, "every register");
    for &reg in &SHADOW_IDS {
        let w = dump[usize::from(reg)];
        assert_eq!(w.0, reg);
        assert_ne!(w.1, 0, "shadow register 0x{reg:03x} holds something");
    }
    // The whole 16-bit space: unmapped addresses and the holes inside regions read 0 alike.
    let all: Vec<u16> = (0..=u16::MAX).collect();
    assert_eq!(rtl.state_read(&all), rtl.debug_read(&all));
}

#[test]
fn state_direct_read_sees_the_injected_bugs_as_the_port_does() {
    // One f24 uniform whose y has non-zero low bits, and one masked write (byte 2 kept).
    let mut l = CommandList::new();
    l.write(id::VSH_FLOATUNIFORM_INDEX, 4);
    l.write_repeat(
        id::VSH_FLOATUNIFORM_DATA0,
        &[0xBF00_0040, 0x8000_3E00, 0x013F_0000],
    );
    l.write(id::FOG_COLOR, 0x0011_2233);
    l.write_masked(id::FOG_COLOR, 0x3, 0x00AB_CDEF);
    l.finalize();
    let words = l.into_words();
    let good = both_equal(&mut run_words(&words, Variant::Default), "default");
    let differing = |bad: &[(u16, u32)]| -> Vec<String> {
        good.iter()
            .zip(bad)
            .filter(|(g, b)| g != b)
            .map(|(_, b)| debug::describe(b.0))
            .collect()
    };
    let packer = both_equal(&mut run_words(&words, Variant::InjectPackerBug), "packer");
    assert_eq!(
        differing(&packer),
        [
            "unit0.float_uniforms[c4.y]",
            "unit1.float_uniforms[c4.y]",
            "unit2.float_uniforms[c4.y]",
            "unit3.float_uniforms[c4.y]"
        ]
    );
    let mask = both_equal(&mut run_words(&words, Variant::InjectMaskBug), "mask");
    assert_eq!(differing(&mask), ["regs[0x0e1] GPUREG_FOG_COLOR"]);
}

/// A completed float-uniform vec4 reaches REGS' float-uniform RAMs a clock after its write
/// (pica_regs.sv `fwq_*`). In that clock both reads must already show it: the direct read
/// overlays the queued vec4, the debug port's read of it returns the queued lane. Checked for
/// both blocks (units 0-2 and unit 3), both modes, and every lane as the port's first word
/// (the only one read in that clock), against the words the finished run holds.
#[test]
fn state_reads_see_a_float_uniform_in_the_clock_after_its_write() {
    // (index register, data register, debug address of the unit's float uniform 5, x)
    let blocks = [
        (
            id::VSH_FLOATUNIFORM_INDEX,
            id::VSH_FLOATUNIFORM_DATA0,
            0x4000u16,
        ),
        (
            id::GSH_FLOATUNIFORM_INDEX,
            id::GSH_FLOATUNIFORM_DATA0,
            0xA000u16,
        ),
    ];
    // F32 mode (index bit 31): four words W, Z, Y, X; F24 mode: three words.
    let modes: [(u32, &[u32]); 2] = [
        (
            0x8000_0000,
            &[0x3FC0_0000, 0xC120_0000, 0x4000_0001, 0x3E80_0000],
        ),
        (0, &[0xBF00_0040, 0x8000_3E00, 0x013F_0000]),
    ];
    for (index, data, unit_base) in blocks {
        for (mode, words) in modes {
            let mut l = CommandList::new();
            l.write(index, mode | 5);
            l.write_repeat(data, words);
            // Writes after the completing one, so the run goes on past it.
            for i in 0..4 {
                l.write(id::FOG_COLOR, i);
            }
            l.finalize();
            let list = l.into_words();
            let lanes: Vec<u16> = (0..4).map(|c| unit_base + 0x1100 + 5 * 4 + c).collect();
            let end = run_words(&list, Variant::Default).state_read(&lanes);
            assert!(end.iter().all(|&w| w != 0), "{end:x?}");
            for first in 0..4 {
                let mut rtl = gpu_of(&list, Variant::Default);
                let mut seen = 0;
                while seen < words.len() {
                    assert!(rtl.cycle() < 1000, "no float-uniform beats");
                    if rtl.clock().beat.is_some_and(|b| b.id == u32::from(data)) {
                        seen += 1;
                    }
                }
                // Now in the clock after the completing write.
                let what = format!("index 0x{index:03x} mode 0x{mode:x} lane {first}");
                assert_eq!(rtl.state_read(&lanes), end, "direct read: {what}");
                let port = rtl.debug_read(&lanes[first..=first]);
                assert_eq!(port[0], end[first], "debug port: {what}");
            }
        }
    }
}
