//! The public number API as other crates see it.

use pica_model::num::{Fix12_4, Fix1_4_8, F16, F20, F24, F31};

#[test]
fn public_api() {
    let one = F24::from_f32_bits(1.0f32.to_bits());
    assert_eq!(one.bits(), 0x3F0000);
    assert_eq!(one.to_f32_bits(), 0x3F80_0000);
    assert_eq!(F24::from_f64_trunc(3.0).bits(), 0x408000);
    assert_eq!(F24::from_f16(F16::ONE).bits(), F24::ONE.bits());
    assert_eq!(F24::from_f20(F20::NEG_ONE).bits(), F24::NEG_ONE.bits());
    assert_eq!(F31::from_reg_word(0x3F00_0001).to_f32_bits(), 0x3F80_0000);
    assert_eq!(Fix1_4_8::from_bits(0x1FFF).raw(), -1);
    assert_eq!(Fix12_4::from_f64_trunc(-0.5).bits(), 0xFFF8);
    assert_eq!(format!("{one}"), "0x3f0000 (1)");
    assert_eq!(
        serde_json::to_string(&one).ok().as_deref(),
        Some("\"0x3f0000\"")
    );
}

#[test]
fn num_replicate_bits_fills_the_width() {
    use pica_model::num::replicate_bits;
    assert_eq!(replicate_bits(0b10110, 5, 8), 0b1011_0101);
    assert_eq!(replicate_bits(0xFFFF, 16, 24), 0xFF_FFFF);
    assert_eq!(replicate_bits(0x8000, 16, 24), 0x80_0080);
    // From 1 bit: all ones or zero; from = to: the value masked.
    assert_eq!(replicate_bits(1, 1, 32), u32::MAX);
    assert_eq!(replicate_bits(0xABCD_1234, 32, 32), 0xABCD_1234);
    assert_eq!(replicate_bits(0x1_00FF, 8, 8), 0xFF);
    // from above to counts as to; widths clamp to 1..=32.
    assert_eq!(replicate_bits(0x1FF, 12, 8), 0xFF);
    assert_eq!(replicate_bits(0xA, 4, 40), 0xAAAA_AAAA);
}
