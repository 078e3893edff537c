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
