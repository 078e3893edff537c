//! NV2A slot decoding: every field of seed 003 from hand-built words, the encoder's inverse,
//! public encodings, image checks and the disassembler's text.

#![allow(clippy::unwrap_used)]

use pica_model::nv2a::disasm::{program_text, slot_text};
use pica_model::nv2a::{
    fields, Comp, Field, IluOp, ImageError, MacOp, Mask, Mux, OutBank, Program, Slot, Source,
    Syntax, Unit,
};

/// Words with only `field` set to `value`.
fn only(field: Field, value: u32) -> [u32; 4] {
    let mut w = [0; 4];
    field.set(&mut w, value);
    w
}

fn dec(field: Field, value: u32) -> Slot {
    Slot::decode(&only(field, value))
}

#[test]
fn nv2a_decode_ilu_op_every_value() {
    for (v, op) in IluOp::ALL.iter().enumerate() {
        assert_eq!(dec(fields::ILU, v as u32).ilu, *op);
        assert_eq!(only(fields::ILU, v as u32)[1], (v as u32) << 25);
    }
}

#[test]
fn nv2a_decode_mac_op_every_value_and_reserved() {
    for (v, op) in MacOp::ALL.iter().enumerate() {
        assert_eq!(dec(fields::MAC, v as u32).mac, *op);
    }
    assert_eq!(dec(fields::MAC, 14).mac, MacOp::Reserved(14));
    assert_eq!(dec(fields::MAC, 15).mac, MacOp::Reserved(15));
    assert_eq!(only(fields::MAC, 13)[1], 13 << 21);
}

#[test]
fn nv2a_decode_const_and_input_index() {
    assert_eq!(dec(fields::CONST, 0xBF).const_index, 0xBF);
    assert_eq!(only(fields::CONST, 0xFF)[1], 0xFF << 13);
    assert_eq!(dec(fields::INPUT, 11).input_index, 11);
    assert_eq!(only(fields::INPUT, 15)[1], 15 << 9);
}

#[test]
fn nv2a_decode_each_source_negate_swizzle_register_mux() {
    let all_x = [Comp::X; 4];
    for n in 0..3 {
        let f = &fields::SRC[n];
        // Swizzle fields are all zero (xxxx) in a slot built from one field.
        let s = dec(f.neg, 1).src[n];
        assert!(s.neg, "source {}", n + 1);
        assert_eq!(s.swizzle, all_x);
        for (c, fc) in f.swz.iter().enumerate() {
            let s = dec(*fc, 3).src[n];
            let mut want = all_x;
            want[c] = Comp::W;
            assert_eq!(s.swizzle, want, "source {} swizzle {c}", n + 1);
        }
        for (v, mux) in [Mux::Reserved, Mux::Temp, Mux::Input, Mux::Const]
            .iter()
            .enumerate()
        {
            assert_eq!(dec(f.mux, v as u32).src[n].mux, *mux);
        }
        let mut w = [0; 4];
        match f.reg_lo {
            None => f.reg_hi.set(&mut w, 12),
            Some(lo) => {
                f.reg_hi.set(&mut w, 12 >> 2);
                lo.set(&mut w, 12 & 3);
            }
        }
        assert_eq!(Slot::decode(&w).src[n].reg, 12, "source {}", n + 1);
    }
    // Source 3's register straddles words 2 and 3: hi bits 2.0-1, lo bits 3.30-31.
    let s = Slot::decode(&[0, 0, 0b10, 0b01 << 30]);
    assert_eq!(s.src[2].reg, 0b1001);
}

#[test]
fn nv2a_decode_destination_fields() {
    assert_eq!(dec(fields::MAC_MASK, 0b1000).mac_mask, Mask(8));
    assert!(dec(fields::MAC_MASK, 0b1000).mac_mask.has(Comp::X));
    assert_eq!(dec(fields::TEMP, 11).temp, 11);
    assert_eq!(dec(fields::ILU_MASK, 0b0001).ilu_mask, Mask(1));
    assert!(dec(fields::ILU_MASK, 0b0001).ilu_mask.has(Comp::W));
    assert_eq!(dec(fields::OUT_MASK, 0b0110).out_mask, Mask(6));
    assert_eq!(dec(fields::OUT_SELECT, 0).out_bank, OutBank::Const);
    assert_eq!(dec(fields::OUT_SELECT, 1).out_bank, OutBank::Output);
    assert_eq!(dec(fields::OUT_INDEX, 12).out_index, 12);
    assert_eq!(dec(fields::OUT_INDEX, 191).out_index, 191);
    assert_eq!(dec(fields::OUT_MUX, 0).out_mux, Unit::Mac);
    assert_eq!(dec(fields::OUT_MUX, 1).out_mux, Unit::Ilu);
    assert!(dec(fields::RELATIVE, 1).relative);
    assert!(!dec(fields::RELATIVE, 0).relative);
    assert!(dec(fields::FINAL, 1).final_);
    assert_eq!(only(fields::FINAL, 1), [0, 0, 0, 1]);
    assert_eq!(only(fields::RELATIVE, 1), [0, 0, 0, 2]);
    assert_eq!(only(fields::OUT_INDEX, 0xFF), [0, 0, 0, 0xFF << 3]);
}

#[test]
fn nv2a_decode_word0_and_unused_bits_are_kept() {
    let w = [0x1234_5678, 0xA000_0000, 0, 0];
    let s = Slot::decode(&w);
    assert_eq!(s.word0, 0x1234_5678);
    assert_eq!(s.unused_w1, 0xA);
    assert_eq!(s.mac, MacOp::Nop);
    assert_eq!(s.encode(), w);
}

#[test]
fn nv2a_decode_nxdk_vp20_encodings() {
    // Encodings from the nxdk vp20 compiler's tests (public facts about the format).
    // MOV oPos.xy, R0.xy
    let s = Slot::decode(&[0x0000_0000, 0x0020_0015, 0x0436_106C, 0x2070_C800]);
    assert_eq!(s.mac, MacOp::Mov);
    assert_eq!(s.src[0].mux, Mux::Temp);
    assert_eq!(s.src[0].reg, 0);
    assert_eq!(s.src[0].swizzle, [Comp::X, Comp::Y, Comp::Y, Comp::Y]);
    assert_eq!((s.out_bank, s.out_index), (OutBank::Output, 0));
    assert_eq!(s.out_mask, Mask::from_letters("xy"));
    assert_eq!(slot_text(&s, Syntax::Nv), "MOV o[HPOS].xy, R0.xyyy");
    assert_eq!(slot_text(&s, Syntax::D3d), "mov oPos.xy, r0.xyyy");
    // MOV oT0.xy, v0.zw
    let s = Slot::decode(&[0x0000_0000, 0x0020_00BF, 0x0836_106C, 0x2070_C848]);
    assert_eq!(s.src[0].mux, Mux::Input);
    assert_eq!(s.out_index, 9);
    assert_eq!(slot_text(&s, Syntax::D3d), "mov oT0.xy, v0.zwww");
}

#[test]
fn nv2a_decode_builder_encodes_what_it_says() {
    let s = Slot::mac(MacOp::Mad)
        .with_ilu(IluOp::Rsq)
        .a(Source::input().neg().swz("wzyx"))
        .b(Source::constant().swz("y"))
        .c(Source::temp(12))
        .input(7)
        .constant(150)
        .rel()
        .mac_to(3, "xyz")
        .ilu_to(3, "w")
        .out(9, "xy", Unit::Ilu)
        .last();
    let w = s.encode();
    let d = Slot::decode(&w);
    assert_eq!(d, s);
    assert_eq!(fields::MAC.get(&w), 4);
    assert_eq!(fields::ILU.get(&w), 4);
    assert_eq!(fields::INPUT.get(&w), 7);
    assert_eq!(fields::CONST.get(&w), 150);
    assert_eq!(fields::SRC[0].neg.get(&w), 1);
    assert_eq!(fields::SRC[0].swz[0].get(&w), 3);
    assert_eq!(fields::SRC[1].swz[3].get(&w), 1);
    assert_eq!(fields::SRC[2].reg_hi.get(&w), 3);
    assert_eq!(fields::SRC[2].reg_lo.unwrap().get(&w), 0);
    assert_eq!(fields::MAC_MASK.get(&w), 0b1110);
    assert_eq!(fields::ILU_MASK.get(&w), 0b0001);
    assert_eq!(fields::OUT_MASK.get(&w), 0b1100);
    assert_eq!(fields::OUT_MUX.get(&w), 1);
    assert_eq!(fields::RELATIVE.get(&w), 1);
    assert_eq!(fields::FINAL.get(&w), 1);
    assert_eq!(
        slot_text(&s, Syntax::Nv),
        "MAD R3.xyz, -v[7].wzyx, c[A0.x+150].y, R12 + RSQ R1.w & o[TEX0].xy, R12.x  ; final"
    );
    assert_eq!(
        slot_text(&s, Syntax::D3d),
        "mad r3.xyz, -v7.wzyx, c[a0.x+54].y, r12 + rsq r1.w & oT0.xy, r12.x  ; final"
    );
}

#[test]
fn nv2a_decode_disasm_shows_reserved_values() {
    let s = Slot::decode(&only(fields::MAC, 14));
    assert_eq!(slot_text(&s, Syntax::Nv), "MAC?14 -, ?mux0.x, ?mux0.x");
    let s = Slot::mac(MacOp::Mov).out(13, "x", Unit::Mac);
    assert_eq!(slot_text(&s, Syntax::Nv), "MOV o[?13].x, v[0]");
    assert_eq!(slot_text(&Slot::default(), Syntax::Nv), "NOP");
    assert_eq!(slot_text(&Slot::default(), Syntax::D3d), "nop");
}

#[test]
fn nv2a_decode_disasm_program_lists_words() {
    let p = Program::from_slots(vec![Slot::mac(MacOp::Arl)
        .constant(100)
        .a(Source::constant().swz("w"))
        .last()])
    .unwrap();
    assert_eq!(
        program_text(&p, Syntax::Nv),
        format!(
            "  0  {:08x} {:08x} {:08x} {:08x}  ARL A0.x, c[100].w  ; final\n",
            p.to_words()[0],
            p.to_words()[1],
            p.to_words()[2],
            p.to_words()[3]
        )
    );
}

#[test]
fn nv2a_image_truncated_is_named_by_slot_and_offset() {
    let e = Program::from_bytes(&[0u8; 40]).unwrap_err();
    assert_eq!(
        e,
        ImageError::Truncated {
            len: 40,
            unit: "byte",
            per: 16,
            slot: 2,
            offset: 32,
            have: 8
        }
    );
    assert!(e
        .to_string()
        .contains("slot 2 at byte offset 32 has only 8 of 16 bytes"));
    let e = Program::from_words(&[0, 0, 0, 1, 0]).unwrap_err();
    assert!(
        e.to_string()
            .contains("slot 1 at word offset 4 has only 1 of 4 words"),
        "{e}"
    );
    assert_eq!(Program::from_bytes(&[]).unwrap_err(), ImageError::Empty);
}

#[test]
fn nv2a_image_without_final_marker_is_rejected() {
    let e = Program::from_words(&[0; 8]).unwrap_err();
    assert_eq!(e, ImageError::NoFinal { start: 0, last: 1 });
    assert!(e
        .to_string()
        .contains("no final instruction marker (word 3 bit 0) in slots 0..1"));
    // A final marker before the start slot does not count.
    let mut w = vec![0u32; 8];
    w[3] = 1;
    assert!(Program::from_words(&w).is_ok());
    assert_eq!(
        Program::from_words_at(&w, 1).unwrap_err(),
        ImageError::NoFinal { start: 1, last: 1 }
    );
    assert_eq!(
        Program::from_words_at(&w, 2).unwrap_err(),
        ImageError::BadStart { start: 2, last: 1 }
    );
}

#[test]
fn nv2a_image_size_limits() {
    let mut w = vec![0u32; 136 * 4];
    w[136 * 4 - 1] = 1;
    let p = Program::from_words(&w).unwrap();
    assert_eq!(p.slots.len(), 136);
    assert_eq!(p.to_bytes().len(), 2176);
    assert_eq!(Program::from_bytes(&p.to_bytes()).unwrap(), p);
    w.extend([0, 0, 0, 1]);
    assert_eq!(
        Program::from_words(&w).unwrap_err(),
        ImageError::TooLong {
            slots: 137,
            max: 136
        }
    );
}
