#![allow(clippy::unwrap_used)]
//! The whole pipeline never panics and never breaks an internal invariant, whatever register
//! values a list writes: a scene's list with random writes to the geometry and fragment
//! registers spliced in at a random command boundary (before, between or after its draws)
//! runs to a finish, a named hang or the cycle limit.

use pica_model::cmdlist::CommandList;
use pica_model::cp::CommandHeader;
use pica_model::{HangReason, Outcome};
use pica_vectors::scenes;
use proptest::prelude::*;

/// Register IDs of the rasterizer, texturing, procedural-texture, texture-environment, fog,
/// fragment-operation, gas, lighting and vertex blocks (everything the pipeline reads),
/// without the CMDBUF jumps and FINALIZE.
fn pipeline_reg() -> impl Strategy<Value = u16> {
    prop_oneof![
        0x040u16..0x080,
        0x080u16..0x0C0,
        0x0C0u16..0x100,
        0x100u16..0x130,
        0x140u16..0x1DA,
        (0x200u16..0x260).prop_filter("no CMDBUF jumps", |r| !(0x238..=0x23D).contains(r)),
    ]
}

/// Word offsets where commands start.
fn command_starts(words: &[u32]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < words.len() {
        out.push(i);
        let h = CommandHeader::decode(words[i + 1]);
        let n = 2 + usize::from(h.extra);
        i += n + n % 2;
    }
    out
}

const SCENES: [&str; 14] = [
    "prim/triangle",
    "prim/indexed_u16",
    "prim/immediate",
    "stencil/ops",
    "blend/src_factors",
    "clip/all_planes",
    "tex/etc1a4",
    "tex/mipmap",
    "tex/cube",
    "proctex/noise",
    "tev/six_stages",
    "light/sphere_multiple",
    "fog/linear",
    "shadow/map",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn pipeline_random_registers_never_panic(
        scene in 0usize..SCENES.len(),
        at in any::<prop::sample::Index>(),
        writes in prop::collection::vec((pipeline_reg(), any::<u32>(), 0u8..16), 1..24),
    ) {
        let mut case = scenes::scene(SCENES[scene]).unwrap().case;
        let list = &mut case.images[0];
        prop_assert_eq!(list.base, case.submit_addr);
        let starts = command_starts(&list.words);
        // Never after the last command (FINALIZE).
        let cut = starts[at.index(starts.len() - 1)];
        let mut extra = CommandList::new();
        for (reg, value, mask) in &writes {
            extra.write_masked(*reg, *mask, *value);
        }
        let mut words = list.words[..cut].to_vec();
        words.extend(extra.words());
        words.extend(&list.words[cut..]);
        // Keep the 16-byte rule: pad after FINALIZE (never executed) with mask-0 writes.
        while words.len() % 4 != 0 {
            words.extend([0, 0]);
        }
        case.submit_size = (words.len() * 4) as u32;
        list.words = words;
        case.max_cycles = 2_000_000;
        let mut gpu = case.gpu().unwrap();
        gpu.set_record_beats(false);
        match gpu.run(case.max_cycles) {
            Outcome::Hang { reason: HangReason::Internal(e), .. } => {
                prop_assert!(false, "internal error: {}", e)
            }
            Outcome::Hang { reason, .. } => prop_assert!(!reason.to_string().is_empty()),
            Outcome::Finished { .. } | Outcome::CycleLimit { .. } => {}
        }
    }
}
