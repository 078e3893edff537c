//! Property tests of the NV2A decoder, disassembler and interpreter: random slot images never
//! panic, and decode/encode are inverse on every bit pattern.

#![allow(clippy::unwrap_used)]

use pica_model::nv2a::disasm::program_text;
use pica_model::nv2a::{
    Config, Machine, PairedR1, Program, RunError, Slot, Subnormals, Syntax, ZeroTimes,
};
use proptest::prelude::*;

/// A float that is often special: zeros, infinities, NaNs, subnormals, 1.0, or any bits.
fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0f32),
        Just(-0.0f32),
        Just(1.0f32),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(f32::NAN),
        Just(f32::from_bits(1)),
        Just(f32::MAX),
        -200.0f32..200.0,
        any::<u32>().prop_map(f32::from_bits),
    ]
}

fn any_config() -> impl Strategy<Value = Config> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(z, s, p, n)| Config {
        zero_times: if z { ZeroTimes::Zero } else { ZeroTimes::Ieee },
        subnormals: if s {
            Subnormals::Keep
        } else {
            Subnormals::Flush
        },
        paired_r1: if p {
            PairedR1::IluOnly
        } else {
            PairedR1::IluOverMac
        },
        neg_zero_less: n,
    })
}

/// Slot words biased towards runnable slots: small indices, valid muxes, a final marker often.
fn slot_words() -> impl Strategy<Value = [u32; 4]> {
    prop_oneof![
        any::<[u32; 4]>(),
        (any::<[u32; 4]>(), 0u32..192, 0u32..13).prop_map(|(mut w, c, o)| {
            w[1] = (w[1] & !(0xFF << 13)) | (c << 13);
            w[3] = (w[3] & !(0xFF << 3)) | (o << 3);
            w
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn nv2a_prop_random_images_never_panic(
        slots in prop::collection::vec(slot_words(), 0..140),
        tail in prop::collection::vec(any::<u8>(), 0..16),
        start in 0usize..8,
        inputs in prop::collection::vec(any_f32(), 64),
        consts in prop::collection::vec(any_f32(), 32),
        cfg in any_config(),
        a0 in -300i32..300,
    ) {
        let mut bytes: Vec<u8> = slots.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
        bytes.extend(&tail);
        let _ = Program::from_bytes_at(&bytes, start);
        let words: Vec<u32> = slots.iter().flatten().copied().collect();
        if let Ok(p) = Program::from_words_at(&words, start) {
            let _ = program_text(&p, Syntax::Nv);
            let _ = program_text(&p, Syntax::D3d);
            let mut m = Machine::new(cfg);
            m.a0 = a0;
            for (i, x) in inputs.iter().enumerate() {
                m.inputs[i / 4][i % 4] = *x;
            }
            for (i, x) in consts.iter().enumerate() {
                m.consts[(i * 23) % 192][i % 4] = *x;
            }
            match m.run(&p, start) {
                Ok(s) => {
                    prop_assert!(p.slots[s.final_slot].final_);
                    prop_assert_eq!(s.final_slot + 1 - start, s.slots_run);
                }
                Err(e) => {
                    // Every run error names its slot and field in words.
                    prop_assert!(e.to_string().starts_with("slot "), "{}", e);
                    prop_assert!(!matches!(e, RunError::Image(_)));
                }
            }
        }
    }

    #[test]
    fn nv2a_prop_decode_encode_is_identity(w in any::<[u32; 4]>()) {
        let s = Slot::decode(&w);
        prop_assert_eq!(s.encode(), w);
        prop_assert_eq!(Slot::decode(&s.encode()), s);
    }
}
