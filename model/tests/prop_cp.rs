//! Property tests of the command processor and register file.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;
use common::*;
use pica_model::cmdlist::CommandList;
use pica_model::{Gpu, Memory, Outcome};
use proptest::prelude::*;
use serde_json::Value;

/// Register IDs a generated command may target: every FIFO and shader-configuration register,
/// plain configuration registers, GEOSTAGE/COM_MODE, triggers other than FINALIZE and the
/// CMDBUF jump (those two change control flow and get their own properties).
fn interesting_id() -> impl Strategy<Value = u16> {
    prop_oneof![
        0x040u16..0x080,
        0x0AFu16..0x0B8,
        0x0E0u16..0x0F0,
        0x120u16..0x127,
        0x1C5u16..0x1D0,
        0x229u16..0x237,
        Just(0x242u16),
        Just(0x244u16),
        0x280u16..0x2AE,
        0x2B0u16..0x2DE,
        0x2E0u16..0x300,
    ]
}

/// One generated command: (first ID, mask, consecutive, params).
fn command() -> impl Strategy<Value = (u16, u8, bool, Vec<u32>)> {
    (
        interesting_id(),
        0u8..16,
        any::<bool>(),
        prop::collection::vec(any::<u32>(), 1..10),
    )
        .prop_map(|(id, mask, consecutive, mut params)| {
            // Keep every written ID clear of FINALIZE and the CMDBUF registers.
            let n = params.len() as u16;
            let hits = |i: u16| i == 0x010 || (0x238..=0x23D).contains(&i);
            if consecutive && (id..id + n).any(hits) {
                params.truncate(1);
            }
            (id, mask, consecutive, params)
        })
}

fn build(cmds: &[(u16, u8, bool, Vec<u32>)]) -> CommandList {
    let mut l = CommandList::new();
    for (id, mask, consecutive, params) in cmds {
        if !(0x238..=0x23D).contains(id) && *id != 0x010 {
            l.command(u32::from(*id), *mask, *consecutive, params);
        }
    }
    l
}

/// Runs `words` from `LIST` (with `extra` memory loaded first) through the front end alone
/// (CP and REGS). The equivalence properties below are about command processing; with the
/// pipeline on, random writes to the draw and immediate-mode registers would run vertices
/// through shader units with no program and hang.
fn run_fe_with(words: &[u32], extra: &[(u32, &[u32])]) -> (Gpu, Outcome) {
    let mut mem = Memory::new();
    for (a, w) in extra {
        mem.write_words(*a, w).expect("test memory is mapped");
    }
    mem.write_words(LIST, words).expect("test list is mapped");
    let mut gpu = Gpu::new(mem);
    gpu.set_pipeline(false);
    gpu.submit(LIST, (words.len() * 4) as u32).expect("aligned");
    let o = gpu.run(1_000_000);
    (gpu, o)
}

/// Removes every `cycle` field, so states reached at different times compare equal.
fn strip_cycles(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("cycle");
            m.remove("cycles");
            m.remove("outcome");
            m.values_mut().for_each(strip_cycles);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_cycles),
        _ => {}
    }
}

/// Register writes minus the zero-mask NOP `CommandList::finalize` may add for 16-byte padding
/// (generated commands never target ID 0).
fn real_writes(gpu: &Gpu) -> Vec<(u32, u8, u32, u32)> {
    writes(gpu)
        .into_iter()
        .filter(|w| *w != (0, 0, 0, 0))
        .collect()
}

fn state(gpu: &Gpu, o: &Outcome) -> Value {
    let mut v = gpu.state_json(o);
    strip_cycles(&mut v);
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any byte string, run as a command list of its own size, ends in an outcome: no panic.
    #[test]
    fn prop_any_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let mut mem = Memory::new();
        mem.write_bytes(LIST, &bytes).unwrap();
        let mut gpu = Gpu::new(mem);
        gpu.submit(LIST, bytes.len() as u32).unwrap();
        let o = gpu.run(20_000);
        let _ = gpu.state_json(&o);
        prop_assert!(gpu.cycle() <= 20_000);
    }

    /// Random headers aimed at interesting registers (including FINALIZE, the CMDBUF block and
    /// IDs past 0x2FF), random parameters: never a panic.
    #[test]
    fn prop_structured_words_never_panic(
        words in prop::collection::vec(
            prop_oneof![
                any::<u32>(),
                (interesting_id(), 0u32..16, 0u32..8, any::<bool>())
                    .prop_map(|(id, m, x, c)| u32::from(id) | m << 16 | x << 20 | u32::from(c) << 31),
                (prop_oneof![Just(0x010u32), 0x238u32..0x23E, 0x2F8u32..0x310], 0u32..4)
                    .prop_map(|(id, x)| id | 0xF << 16 | x << 20),
                (0x2000_0000u32..0x2000_0400).prop_map(|a| a >> 3),
            ],
            0..200),
    ) {
        let (gpu, o) = run(&words);
        let _ = gpu.state_json(&o);
    }

    /// A consecutive multi-parameter command leaves the same state and the same writes as the
    /// same writes issued one by one.
    #[test]
    fn prop_consecutive_equals_single_writes(
        id in interesting_id(),
        mask in 0u8..16,
        params in prop::collection::vec(any::<u32>(), 1..16),
        prefix in prop::collection::vec(command(), 0..6),
    ) {
        let n = params.len() as u16;
        prop_assume!(!(id..id + n).any(|i| i == 0x010 || (0x238..=0x23D).contains(&i)));
        let mut a = build(&prefix);
        a.command(id.into(), mask, true, &params);
        let mut b = build(&prefix);
        for (i, p) in params.iter().enumerate() {
            b.command(u32::from(id) + i as u32, mask, false, &[*p]);
        }
        let (mut a, mut b) = (a, b);
        a.finalize();
        b.finalize();
        let ((ga, oa), (gb, ob)) = (run_fe_with(a.words(), &[]), run_fe_with(b.words(), &[]));
        prop_assert!(matches!(oa, Outcome::Finished { .. }), "{oa}");
        prop_assert!(matches!(ob, Outcome::Finished { .. }), "{ob}");
        prop_assert_eq!(real_writes(&ga), real_writes(&gb));
        prop_assert_eq!(state(&ga, &oa), state(&gb, &ob));
    }

    /// Same-register repeated parameters equal single writes to that register.
    #[test]
    fn prop_repeated_equals_single_writes(
        id in interesting_id(),
        mask in 0u8..16,
        params in prop::collection::vec(any::<u32>(), 1..16),
    ) {
        let mut a = CommandList::new();
        a.command(id.into(), mask, false, &params);
        let mut b = CommandList::new();
        for p in &params {
            b.command(id.into(), mask, false, &[*p]);
        }
        a.finalize();
        b.finalize();
        let ((ga, oa), (gb, ob)) = (run_fe_with(a.words(), &[]), run_fe_with(b.words(), &[]));
        prop_assert_eq!(real_writes(&ga), real_writes(&gb));
        prop_assert_eq!(state(&ga, &oa), state(&gb, &ob));
    }

    /// Masked writes compose byte by byte: each byte holds the last value written with its
    /// lane enabled (0 if none), checked against an independent byte-lane model.
    #[test]
    fn prop_masked_writes_compose(
        reg in prop_oneof![0x040u16..0x080, 0x100u16..0x130, 0x2E0u16..0x300],
        ws in prop::collection::vec((any::<u32>(), 0u8..16), 1..12),
    ) {
        let mut l = CommandList::new();
        let mut lanes = [0u8; 4];
        for (v, m) in &ws {
            l.write_masked(reg, *m, *v);
            for (lane, byte) in lanes.iter_mut().enumerate() {
                if m & (1 << lane) != 0 {
                    *byte = v.to_le_bytes()[lane];
                }
            }
        }
        let gpu = run_list(l);
        prop_assert_eq!(gpu.regs().reg(reg.into()), u32::from_le_bytes(lanes));
    }

    /// A list split in two by a CMDBUF jump leaves the same state as the unsplit list (apart
    /// from the CMDBUF registers and the jump trigger themselves).
    #[test]
    fn prop_split_across_jump_equals_unsplit(
        cmds in prop::collection::vec(command(), 1..24),
        split in any::<prop::sample::Index>(),
        channel in 0u16..2,
        in_vram in any::<bool>(),
    ) {
        let k = split.index(cmds.len() + 1);
        let mut whole = build(&cmds);
        whole.finalize();

        let second = if in_vram { 0x1810_0000 } else { 0x2100_0000 };
        let mut tail = build(&cmds[k..]);
        tail.finalize();
        let mut head = build(&cmds[..k]);
        head.write(0x23A + channel, second >> 3)
            .write(0x238 + channel, tail.byte_len() >> 3)
            .write(0x23C + channel, 1);
        let mut head = head.into_words();
        if head.len() % 4 != 0 {
            head.extend([0, 0]);
        }

        let (gw, ow) = run_fe_with(whole.words(), &[]);
        let (gs, os) = run_fe_with(&head, &[(second, tail.words())]);
        prop_assert!(matches!(ow, Outcome::Finished { .. }), "{ow}");
        prop_assert!(matches!(os, Outcome::Finished { .. }), "{os}");
        let (mut a, mut b) = (state(&gw, &ow), state(&gs, &os));
        for v in [&mut a, &mut b] {
            let regs = v["regs"].as_array_mut().unwrap();
            regs[0x238..=0x23D].iter_mut().for_each(|r| *r = Value::Null);
            v["triggers"].as_array_mut().unwrap().retain(|t| !t["trigger"].to_string().contains("CmdbufJump"));
        }
        prop_assert_eq!(a, b);
    }
}
