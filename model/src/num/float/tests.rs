//! Float tests: every comparison is on bit patterns.

use super::*;
use proptest::prelude::*;

fn f24(bits: u32) -> F24 {
    F24::from_bits(bits)
}

/// `x.to_f64()` compared as f64 bits against `expected`.
fn assert_f64<const E: u32, const M: u32>(x: Float<E, M>, expected: f64) {
    assert_eq!(
        x.to_f64().to_bits(),
        expected.to_bits(),
        "{x:?} vs {expected}"
    );
}

#[test]
fn f24_constants() {
    assert_eq!(F24::ZERO.bits(), 0x000000);
    assert_eq!(F24::NEG_ZERO.bits(), 0x800000);
    assert_eq!(F24::ONE.bits(), 0x3F0000);
    assert_eq!(F24::NEG_ONE.bits(), 0xBF0000);
    assert_eq!(F24::INFINITY.bits(), 0x7F0000);
    assert_eq!(F24::NEG_INFINITY.bits(), 0xFF0000);
    assert_eq!(F24::NAN.bits(), 0x7F8000);
    assert_eq!(F24::MAX.bits(), 0x7EFFFF);
    assert_eq!(F24::MIN_POSITIVE.bits(), 0x010000);
    assert_eq!((F24::WIDTH, F24::MASK, F24::BIAS), (24, 0xFF_FFFF, 63));
    assert_eq!(F24::default().bits(), 0);
}

#[test]
fn f24_known_values() {
    assert_f64(f24(0x3F0000), 1.0);
    assert_f64(f24(0xBF0000), -1.0);
    assert_f64(f24(0x3E0000), 0.5);
    assert_f64(f24(0x3D0000), 0.25);
    assert_f64(f24(0x408000), 3.0);
    assert_f64(f24(0x7F0000), f64::INFINITY);
    assert_f64(f24(0xFF0000), f64::NEG_INFINITY);
    assert_f64(f24(0x000000), 0.0);
    assert_f64(f24(0x800000), -0.0);
    assert_f64(f24(0x010000), 2f64.powi(-62));
    assert_f64(f24(0x000001), 2f64.powi(-78));
    assert_f64(f24(0x008000), 2f64.powi(-63));
    assert_f64(f24(0x7EFFFF), (2.0 - 2f64.powi(-16)) * 2f64.powi(63));
    assert!(f24(0x7F0001).to_f64().is_nan());
    assert!(f24(0xFFFFFF).to_f64().is_nan());
}

#[test]
fn f24_accessors_and_classes() {
    let x = f24(0xC08001); // -(1 + 0x8001/2^16) * 2
    assert_eq!((x.sign(), x.exponent(), x.mantissa()), (1, 0x40, 0x8001));
    assert!(x.is_sign_negative());
    assert_eq!(F24::from_parts(true, 0x40, 0x8001).bits(), 0xC08001);
    assert_eq!(F24::from_parts(false, 0x1FF, 0x1_FFFF).bits(), 0x7FFFFF);
    assert_eq!(F24::from_bits(0xFFFF_FFFF).bits(), 0xFF_FFFF);
    assert_eq!(F24::from_bits(0x0100_0000).bits(), 0);

    assert!(f24(0x7F0001).is_nan() && f24(0xFF8000).is_nan() && F24::NAN.is_nan());
    assert!(!F24::INFINITY.is_nan() && !F24::ONE.is_nan());
    assert!(F24::INFINITY.is_infinite() && F24::NEG_INFINITY.is_infinite());
    assert!(!F24::NAN.is_infinite() && !F24::MAX.is_infinite());
    assert!(F24::MAX.is_finite() && !F24::NAN.is_finite() && !F24::INFINITY.is_finite());
    assert!(F24::ZERO.is_zero() && F24::NEG_ZERO.is_zero());
    assert!(!f24(0x000001).is_zero() && f24(0x000001).is_subnormal());
    assert!(!F24::ZERO.is_subnormal() && !F24::MIN_POSITIVE.is_subnormal());

    assert_eq!(F24::ONE.negate().bits(), 0xBF0000);
    assert_eq!(F24::NEG_ZERO.negate().bits(), 0x000000);
    assert_eq!(F24::NAN.negate().bits(), 0xFF8000);
    assert_eq!(f24(0xC08001).abs().bits(), 0x408001);
}

#[test]
fn f24_flush_subnormal() {
    assert_eq!(f24(0x000001).flush_subnormal().bits(), 0);
    assert_eq!(f24(0x80FFFF).flush_subnormal().bits(), 0);
    assert_eq!(F24::NEG_ZERO.flush_subnormal().bits(), 0);
    for bits in [0x010000, 0x810000, 0x3F0000, 0x7F0000, 0x7F8000, 0xFF0001] {
        assert_eq!(f24(bits).flush_subnormal().bits(), bits);
    }
}

#[test]
fn f24_from_f32_bits_cases() {
    let cases: &[(u32, u32)] = &[
        (0x3F80_0000, 0x3F0000), // 1.0
        (0xBF80_0000, 0xBF0000), // -1.0
        (0x3F80_0001, 0x3F0000), // just above 1.0: truncated
        (0x3F80_007F, 0x3F0000), // 1.0 + (2^-16 - 2^-23): truncated
        (0x3F80_0080, 0x3F0001), // 1.0 + 2^-16 is exactly representable (mantissa >> 7 = 1)
        (0x3F7F_FFFF, 0x3EFFFF), // just below 1.0: truncated toward zero
        (0x4040_0000, 0x408000), // 3.0
        (0x3F00_0000, 0x3E0000), // 0.5
        (0x3E80_0000, 0x3D0000), // 0.25
        (0x3DCC_CCCD, 0x3B9999), // 0.1f32
        (0x8000_0000, 0x800000), // -0.0
        (0x0000_0000, 0x000000), // +0.0
        (0x0000_0001, 0x000000), // f32 subnormal
        (0x8000_0001, 0x800000), // -f32 subnormal
        (0x2080_0000, 0x010000), // 2^-62: smallest f24 normal
        (0x2000_0000, 0x008000), // 2^-63: f24 subnormal
        (0x1880_0000, 0x000001), // 2^-78: smallest f24 subnormal
        (0x1800_0000, 0x000000), // 2^-79: underflows
        (0x9800_0000, 0x800000), // -2^-79: signed zero
        (0x0080_0000, 0x000000), // f32 smallest normal (2^-126)
        (0x5F7F_FFFF, 0x7EFFFF), // just below 2^64: F24::MAX
        (0x5F80_0000, 0x7F0000), // 2^64: overflow
        (0x5F00_0000, 0x7E0000), // 2^63
        (0x5E80_0000, 0x7D0000), // 2^62
        (0x7149_F2CA, 0x7F0000), // 1e30
        (0xF149_F2CA, 0xFF0000), // -1e30
        (0x7F7F_FFFF, 0x7F0000), // f32::MAX
        (0x7F80_0000, 0x7F0000), // +inf
        (0xFF80_0000, 0xFF0000), // -inf
        (0x7FC0_0000, 0x7F8000), // quiet NaN → canonical NaN
        (0xFFC0_0000, 0xFF8000), // negative NaN keeps its sign
        (0x7F80_0001, 0x7F0001), // payload only in dropped bits: forced non-zero
        (0x7F80_0080, 0x7F0001), // lowest kept payload bit
        (0xFFFF_FFFF, 0xFFFFFF),
    ];
    for &(f32_bits, expected) in cases {
        let got = F24::from_f32_bits(f32_bits);
        assert_eq!(got.bits(), expected, "{f32_bits:#010x} → {got:?}");
    }
    // The assemblers' rule, spelled out on a normal value: >> 7 and rebias 127 → 63.
    let f = 0x4123_4567u32;
    let rebiased = ((f >> 23) & 0xFF) - 127 + 63;
    assert_eq!(
        F24::from_f32_bits(f).bits(),
        (rebiased << 16) | ((f & 0x7F_FFFF) >> 7)
    );
}

#[test]
fn f24_to_f32_bits_cases() {
    assert_eq!(F24::ONE.to_f32_bits(), 0x3F80_0000);
    assert_eq!(F24::NEG_ONE.to_f32_bits(), 0xBF80_0000);
    assert_eq!(f24(0x408000).to_f32_bits(), 0x4040_0000);
    assert_eq!(F24::ZERO.to_f32_bits(), 0);
    assert_eq!(F24::NEG_ZERO.to_f32_bits(), 0x8000_0000);
    assert_eq!(F24::INFINITY.to_f32_bits(), 0x7F80_0000);
    assert_eq!(F24::NEG_INFINITY.to_f32_bits(), 0xFF80_0000);
    assert_eq!(F24::NAN.to_f32_bits(), 0x7FC0_0000);
    assert_eq!(f24(0x7F0001).to_f32_bits(), 0x7F80_0080);
    assert_eq!(f24(0x000001).to_f32_bits(), 0x1880_0000);
    assert_eq!(f24(0x008000).to_f32_bits(), 0x2000_0000);
    assert_eq!(F24::MAX.to_f32_bits(), 0x5F7F_FF80);
}

/// Exhaustive: f24 → f32 → f24 is the identity (NaN included), and the f32 is the exact value.
#[test]
fn f24_f32_round_trip_exhaustive() {
    for bits in 0..=F24::MASK {
        let x = f24(bits);
        let f = x.to_f32_bits();
        assert_eq!(F24::from_f32_bits(f).bits(), bits, "{x:?}");
        if x.is_nan() {
            assert!(f32::from_bits(f).is_nan());
        } else {
            assert_eq!(
                f64::from(f32::from_bits(f)).to_bits(),
                x.to_f64().to_bits(),
                "{x:?}"
            );
        }
    }
}

/// Exhaustive over the 24-, 20- and 16-bit formats: values strictly increase with the bits
/// for positive patterns and strictly decrease for negative ones, from zero up to infinity.
fn assert_monotonic<const E: u32, const M: u32>() {
    let inf = Float::<E, M>::INFINITY.bits();
    for sign in [0, 1u32 << (E + M)] {
        let mut prev = Float::<E, M>::from_bits(sign).to_f64();
        for bits in 1..=inf {
            let x = Float::<E, M>::from_bits(sign | bits);
            let v = x.to_f64();
            if sign == 0 {
                assert!(v > prev, "{x:?}");
            } else {
                assert!(v < prev, "{x:?}");
            }
            prev = v;
        }
    }
}

#[test]
fn monotonic_exhaustive() {
    assert_monotonic::<7, 16>();
    assert_monotonic::<7, 12>();
    assert_monotonic::<5, 10>();
}

#[test]
fn f24_from_f64_trunc_cases() {
    let cases: &[(f64, u32)] = &[
        (1.0, 0x3F0000),
        (-1.0, 0xBF0000),
        (3.0, 0x408000),
        (0.1, 0x3B9999),
        (-0.1, 0xBB9999),
        (1.0 / 3.0, 0x3D5555),
        (1.0 + 2f64.powi(-16) - 2f64.powi(-40), 0x3F0000), // just below the next f24
        (1.0 + 2f64.powi(-16), 0x3F0001),
        (-(1.0 + 2f64.powi(-16) - 2f64.powi(-40)), 0xBF0000),
        (0.0, 0x000000),
        (-0.0, 0x000000),                            // no negative zero
        (2f64.powi(-62), 0x010000),                  // smallest normal
        (2f64.powi(-62) - 2f64.powi(-90), 0x000000), // just below: flushed
        (-(2f64.powi(-63)), 0x000000),               // negative subnormal range: +0
        (f64::from_bits(1), 0x000000),               // f64 subnormal
        (2f64.powi(64) - 2f64.powi(20), 0x7EFFFF),   // truncates to MAX
        (2f64.powi(64), 0x7F0000),                   // overflow → inf, not MAX
        (1e300, 0x7F0000),
        (-1e300, 0xFF0000),
        (f64::INFINITY, 0x7F0000),
        (f64::NEG_INFINITY, 0xFF0000),
        (f64::NAN, 0x7F8000),
        (-f64::NAN, 0x7F8000),
        (f64::from_bits(0x7FF0_0000_0000_0001), 0x7F8000),
    ];
    for &(x, expected) in cases {
        assert_eq!(F24::from_f64_trunc(x).bits(), expected, "{x:e}");
    }
}

#[test]
fn f16_patterns() {
    let h = F16::from_bits;
    assert_eq!((F16::ONE.bits(), F16::NEG_ONE.bits()), (0x3C00, 0xBC00));
    assert_eq!(
        (F16::INFINITY.bits(), F16::NEG_INFINITY.bits()),
        (0x7C00, 0xFC00)
    );
    assert_eq!(
        (F16::NAN.bits(), F16::MAX.bits(), F16::MIN_POSITIVE.bits()),
        (0x7E00, 0x7BFF, 0x0400)
    );
    assert_eq!((F16::WIDTH, F16::MASK, F16::BIAS), (16, 0xFFFF, 15));
    assert_f64(h(0xC000), -2.0);
    assert_f64(h(0x3555), 0.333251953125);
    assert_f64(h(0x7BFF), 65504.0);
    assert_f64(h(0x0001), 2f64.powi(-24));
    assert!(h(0x7C01).is_nan());
    assert_eq!(F16::from_bits(0x1_3C00).bits(), 0x3C00);
    assert_eq!(F16::from_f64_trunc(65519.0).bits(), 0x7BFF);
    assert_eq!(F16::from_f64_trunc(65536.0).bits(), 0x7C00);
    assert_eq!(F16::from_f64_trunc(1.0 / 3.0).bits(), 0x3555);
    assert_eq!(F16::from_f32_bits(0x3F80_0000).bits(), 0x3C00);
    assert_eq!(F16::from_f32_bits(0x3380_0000).bits(), 0x0001); // 2^-24: subnormal
    assert_eq!(F16::from_f32_bits(0x4780_0000).bits(), 0x7C00); // 65536: overflow
}

#[test]
fn f20_patterns() {
    assert_eq!((F20::ONE.bits(), F20::NEG_ONE.bits()), (0x3F000, 0xBF000));
    assert_eq!(
        (F20::INFINITY.bits(), F20::NEG_INFINITY.bits()),
        (0x7F000, 0xFF000)
    );
    assert_eq!((F20::NAN.bits(), F20::MAX.bits()), (0x7F800, 0x7EFFF));
    assert_eq!((F20::WIDTH, F20::MASK, F20::BIAS), (20, 0xF_FFFF, 63));
    assert_f64(F20::from_bits(0x40800), 3.0);
    assert_f64(F20::from_bits(0x00001), 2f64.powi(-74));
    assert_eq!(F20::from_f64_trunc(0.1).bits(), 0x3B999);
    assert_eq!(F20::from_f32_bits(0x3DCC_CCCD).bits(), 0x3B999);
}

#[test]
fn f31_patterns() {
    assert_eq!(
        (F31::ONE.bits(), F31::ONE.to_reg_word()),
        (0x1F80_0000, 0x3F00_0000)
    );
    assert_eq!(F31::NEG_ONE.to_reg_word(), 0xBF00_0000);
    assert_eq!(F31::INFINITY.bits(), 0x3F80_0000);
    assert_eq!(F31::NEG_INFINITY.bits(), 0x7F80_0000);
    assert_eq!(F31::NAN.bits(), 0x3FC0_0000);
    assert_eq!((F31::WIDTH, F31::MASK, F31::BIAS), (31, 0x7FFF_FFFF, 63));
    // Bit 0 of the register word is ignored.
    assert_eq!(F31::from_reg_word(0x3F00_0001).bits(), 0x1F80_0000);
    assert_eq!(F31::from_reg_word(0xFFFF_FFFF).bits(), 0x7FFF_FFFF);
    // citro3d's viewport: f32tof31(2.0f / 400) << 1. 2/400 as f32 is 0x3BA3D70A: the exponent
    // is rebiased (0x77 → 0x37), the 23 mantissa bits are kept.
    let step = F31::from_f32_bits(0x3BA3_D70A);
    assert_eq!(step.bits(), 0x1BA3_D70A);
    assert_eq!(step.to_reg_word(), 0x3747_AE14);
    assert_eq!(F31::from_reg_word(0x3747_AE14).to_f32_bits(), 0x3BA3_D70A);
    assert_f64(step, f64::from(f32::from_bits(0x3BA3_D70A)));
    assert_eq!(F31::from_f64_trunc(0.005).to_reg_word(), 0x3747_AE14);
    // f24 → f31 is exact (7 more mantissa bits).
    assert_eq!(F31::from_float(f24(0x408001)).bits(), 0x2040_0080);
}

#[test]
fn f24_from_f16_and_f20() {
    let cases16: &[(u32, u32)] = &[
        (0x3C00, 0x3F0000),
        (0xBC00, 0xBF0000),
        (0x4200, 0x408000), // 3.0
        (0x3555, 0x3D5540), // mantissa << 6
        (0x0001, 0x270000), // f16 subnormal 2^-24 → f24 normal
        (0x0003, 0x288000), // 3 * 2^-24
        (0x7BFF, 0x4EFFC0), // 65504
        (0x0000, 0x000000),
        (0x8000, 0x800000),
        (0x7C00, 0x7F0000),
        (0xFC00, 0xFF0000),
        (0x7E00, 0x7F8000),
        (0x7C01, 0x7F0040),
    ];
    for &(h, expected) in cases16 {
        assert_eq!(
            F24::from_f16(F16::from_bits(h)).bits(),
            expected,
            "{h:#06x}"
        );
    }
    let cases20: &[(u32, u32)] = &[
        (0x3F000, 0x3F0000),
        (0xC0800, 0xC08000),
        (0x00001, 0x000010), // f20 subnormal 2^-74 → f24 subnormal
        (0x7F000, 0x7F0000),
        (0x7F001, 0x7F0010),
        (0x80000, 0x800000),
    ];
    for &(w, expected) in cases20 {
        assert_eq!(
            F24::from_f20(F20::from_bits(w)).bits(),
            expected,
            "{w:#07x}"
        );
    }
    // Narrowing with from_float truncates.
    assert_eq!(F16::from_float(f24(0x3F0001)).bits(), 0x3C00);
    assert_eq!(F16::from_float(f24(0x4F0000)).bits(), 0x7C00); // 2^16: overflow
    assert_eq!(F16::from_float(f24(0xA70000)).bits(), 0x8001); // -2^-24
    assert_eq!(F16::from_float(f24(0xA60000)).bits(), 0x8000); // -2^-25: signed zero
    assert_eq!(F16::from_float(f24(0x7F0001)).bits(), 0x7C01); // NaN payload forced non-zero
}

#[test]
fn display_and_debug() {
    assert_eq!(F24::ONE.to_string(), "0x3f0000 (1)");
    assert_eq!(F24::NEG_ONE.to_string(), "0xbf0000 (-1)");
    assert_eq!(f24(0x3E0000).to_string(), "0x3e0000 (0.5)");
    assert_eq!(f24(0x408000).to_string(), "0x408000 (3)");
    assert_eq!(
        f24(0x3B9999).to_string(),
        "0x3b9999 (0.09999942779541015625)"
    );
    assert_eq!(F24::ZERO.to_string(), "0x000000 (0)");
    assert_eq!(F24::NEG_ZERO.to_string(), "0x800000 (-0)");
    assert_eq!(F24::INFINITY.to_string(), "0x7f0000 (inf)");
    assert_eq!(F24::NEG_INFINITY.to_string(), "0xff0000 (-inf)");
    assert_eq!(F24::NAN.to_string(), "0x7f8000 (NaN)");
    assert_eq!(f24(0xFF0001).to_string(), "0xff0001 (NaN)");
    assert_eq!(F24::MAX.to_string(), "0x7effff (18446603336221196288)");
    assert_eq!(
        F24::MIN_POSITIVE.to_string(),
        "0x010000 (0.00000000000000000021684043449710088680149056017398834228515625)"
    );
    assert_eq!(
        f24(0x000001).to_string(),
        "0x000001 (0.000000000000000000000003308722450212110699485634768279851414263248443603515625)"
    );
    assert_eq!(format!("{:?}", F24::ONE), "F24(0x3f0000 = 1)");
    assert_eq!(format!("{:?}", F16::ONE), "F16(0x3c00 = 1)");
    assert_eq!(format!("{:?}", F20::NEG_ONE), "F20(0xbf000 = -1)");
    assert_eq!(format!("{:?}", F31::ONE), "F31(0x1f800000 = 1)");
    assert_eq!(F16::from_bits(0xC000).to_string(), "0xc000 (-2)");
    assert_eq!(
        F31::from_bits(0x1BA3_D70A).to_string(),
        "0x1ba3d70a (0.004999999888241291046142578125)"
    );
    // Formatting must not panic on any layout extreme (smallest F31 subnormal: 2^-85).
    assert!(F31::from_bits(1).to_string().ends_with("4656524658203125)"));
}

#[test]
fn serde_hex() {
    assert_eq!(
        serde_json::to_string(&F24::ONE).ok().as_deref(),
        Some("\"0x3f0000\"")
    );
    assert_eq!(
        serde_json::to_string(&F24::ZERO).ok().as_deref(),
        Some("\"0x000000\"")
    );
    assert_eq!(
        serde_json::to_string(&F16::ONE).ok().as_deref(),
        Some("\"0x3c00\"")
    );
    assert_eq!(
        serde_json::to_string(&F20::ONE).ok().as_deref(),
        Some("\"0x3f000\"")
    );
    assert_eq!(
        serde_json::to_string(&F31::ONE).ok().as_deref(),
        Some("\"0x1f800000\"")
    );
    let back: Result<F24, _> = serde_json::from_str("\"0xbf0000\"");
    assert_eq!(back.ok().map(F24::bits), Some(0xBF0000));
    assert!(serde_json::from_str::<F24>("\"0x1000000\"").is_err());
    assert!(serde_json::from_str::<F24>("\"3f0000\"").is_err());
    assert!(serde_json::from_str::<F24>("4128768").is_err());
    assert!(serde_json::from_str::<F31>("\"0x80000000\"").is_err());
}

proptest! {
    #[test]
    fn from_bits_masks(x in any::<u32>()) {
        prop_assert_eq!(F24::from_bits(x).bits(), x & 0xFF_FFFF);
        prop_assert_eq!(F16::from_bits(x).bits(), x & 0xFFFF);
        prop_assert_eq!(F20::from_bits(x).bits(), x & 0xF_FFFF);
        prop_assert_eq!(F31::from_bits(x).bits(), x & 0x7FFF_FFFF);
        prop_assert_eq!(F31::from_reg_word(x).to_reg_word(), x & !1);
    }

    #[test]
    fn f31_f32_round_trip(x in any::<u32>()) {
        let v = F31::from_bits(x);
        prop_assert_eq!(F31::from_f32_bits(v.to_f32_bits()).bits(), v.bits());
        if !v.is_nan() {
            prop_assert_eq!(f64::from(f32::from_bits(v.to_f32_bits())).to_bits(), v.to_f64().to_bits());
        }
    }

    #[test]
    fn f31_monotonic(a in any::<u32>(), b in any::<u32>()) {
        let a = F31::from_bits(a);
        let b = F31::from_bits((b & 0x3FFF_FFFF) | (a.sign() << 30));
        prop_assume!(!a.is_nan() && !b.is_nan());
        let (ma, mb) = (a.bits() & 0x3FFF_FFFF, b.bits() & 0x3FFF_FFFF);
        let (va, vb) = (a.to_f64().abs(), b.to_f64().abs());
        prop_assert_eq!(ma.cmp(&mb), va.partial_cmp(&vb).unwrap_or(core::cmp::Ordering::Equal));
    }

    /// from_f32_bits agrees with an independent spelling of the assemblers' rule on every
    /// input whose result is normal, zero below the subnormals, or infinite.
    #[test]
    fn f24_from_f32_matches_reference(x in any::<u32>()) {
        let sign = (x >> 31) << 23;
        let e32 = (x >> 23) & 0xFF;
        let m32 = x & 0x7F_FFFF;
        let expected = if e32 == 0xFF {
            if m32 == 0 { Some(sign | 0x7F0000) } else { None }
        } else if e32 >= 127 + 64 {
            Some(sign | 0x7F0000)
        } else if e32 > 64 {
            Some(sign | ((e32 - 64) << 16) | (m32 >> 7))
        } else if e32 < 48 {
            Some(sign)
        } else {
            None
        };
        let got = F24::from_f32_bits(x);
        match expected {
            Some(bits) => prop_assert_eq!(got.bits(), bits),
            None => prop_assert!(got.is_nan() || got.exponent() == 0),
        }
    }

    /// from_f64_trunc truncates: |result| <= |x| < |next f24 up| (for normal results).
    #[test]
    fn f24_from_f64_trunc_is_truncation(x in any::<f64>()) {
        let r = F24::from_f64_trunc(x);
        if x.is_nan() {
            prop_assert_eq!(r.bits(), F24::NAN.bits());
        } else if x.abs() < F24::MIN_POSITIVE.to_f64() {
            prop_assert_eq!(r.bits(), 0);
        } else if x.abs() >= 2f64.powi(64) {
            prop_assert!(r.is_infinite() && r.is_sign_negative() == (x < 0.0));
        } else {
            let mag = r.abs();
            let next = F24::from_bits(mag.bits() + 1);
            prop_assert_eq!(r.is_sign_negative(), x < 0.0);
            prop_assert!(mag.to_f64() <= x.abs() && x.abs() < next.to_f64(), "{:?} {}", r, x);
        }
    }

    /// On f32 inputs with a normal f24 result, from_f64_trunc and from_f32_bits agree.
    #[test]
    fn f64_and_f32_paths_agree(x in any::<u32>()) {
        let via_f32 = F24::from_f32_bits(x);
        prop_assume!(!via_f32.is_nan() && via_f32.exponent() != 0);
        let via_f64 = F24::from_f64_trunc(f64::from(f32::from_bits(x)));
        prop_assert_eq!(via_f64.bits(), via_f32.bits());
    }

    /// Widening is exact: f16 → f24 and f20 → f24 preserve the f64 value.
    #[test]
    fn widening_is_exact(x in any::<u32>()) {
        let h = F16::from_bits(x);
        let w = F20::from_bits(x);
        if !h.is_nan() {
            prop_assert_eq!(F24::from_f16(h).to_f64().to_bits(), h.to_f64().to_bits());
        }
        if !w.is_nan() {
            prop_assert_eq!(F24::from_f20(w).to_f64().to_bits(), w.to_f64().to_bits());
        }
        prop_assert_eq!(F24::from_f16(h).is_nan(), h.is_nan());
        prop_assert_eq!(F24::from_f20(w).is_nan(), w.is_nan());
    }
}

/// The fast paths of `to_f64` agree with the general codec on every f24, f16 and f20 pattern.
#[test]
fn float_to_f64_fast_path_matches_codec_exhaustively() {
    for bits in 0..1u32 << 24 {
        let x = F24::from_bits(bits);
        assert_eq!(x.to_f64().to_bits(), x.to_f64_general().to_bits(), "{x:?}");
    }
    for bits in 0..1u32 << 16 {
        let x = F16::from_bits(bits);
        assert_eq!(x.to_f64().to_bits(), x.to_f64_general().to_bits(), "{x:?}");
    }
    for bits in 0..1u32 << 20 {
        let x = F20::from_bits(bits);
        assert_eq!(x.to_f64().to_bits(), x.to_f64_general().to_bits(), "{x:?}");
    }
}

/// The fast path of `from_f32_bits` agrees with the general codec for f24, f16, f20 and f31 on
/// every exponent and sign, with a stride of mantissas (both ends included).
#[test]
fn float_from_f32_bits_fast_path_matches_codec() {
    for sign_exp in 0..0x200u32 {
        for mant in (0..0x80_0000u32)
            .step_by(4093)
            .chain([1, 0x40_0000, 0x7F_FFFF])
        {
            let bits = sign_exp << 23 | mant;
            assert_eq!(
                F24::from_f32_bits(bits),
                F24::from_f32_bits_general(bits),
                "{bits:08x}"
            );
            assert_eq!(
                F16::from_f32_bits(bits),
                F16::from_f32_bits_general(bits),
                "{bits:08x}"
            );
            assert_eq!(
                F20::from_f32_bits(bits),
                F20::from_f32_bits_general(bits),
                "{bits:08x}"
            );
            assert_eq!(
                F31::from_f32_bits(bits),
                F31::from_f32_bits_general(bits),
                "{bits:08x}"
            );
        }
    }
}

/// f64 bit patterns around every f24 exponent (the normal range and both of its edges), with
/// mantissas that have low bits below f24's precision.
fn f64_near_f24_range() -> impl Strategy<Value = f64> {
    (any::<bool>(), 1023 - 70u64..=1023 + 70, any::<u64>()).prop_map(|(neg, e, m)| {
        f64::from_bits(u64::from(neg) << 63 | e << 52 | (m & ((1 << 52) - 1)))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// The fast path of `from_f64_trunc` agrees with the general codec for f24, f16, f20 and
    /// f31, on values near their ranges and on arbitrary f64 bit patterns.
    #[test]
    fn float_from_f64_trunc_fast_path_matches_codec(
        near in f64_near_f24_range(),
        raw in any::<u64>(),
    ) {
        for x in [near, f64::from_bits(raw)] {
            prop_assert_eq!(F24::from_f64_trunc(x), F24::from_f64_trunc_general(x));
            prop_assert_eq!(F16::from_f64_trunc(x), F16::from_f64_trunc_general(x));
            prop_assert_eq!(F20::from_f64_trunc(x), F20::from_f64_trunc_general(x));
            prop_assert_eq!(F31::from_f64_trunc(x), F31::from_f64_trunc_general(x));
        }
    }
}

/// The edges of the fast path, spelt out: the largest f24 normal, just below the smallest,
/// and just above the largest.
#[test]
fn float_from_f64_trunc_fast_path_edges() {
    // (2 - 2^-16) · 2^63 with extra low bits: the largest finite f24, truncated.
    let max = F24::MAX.to_f64();
    assert_eq!(
        F24::from_f64_trunc(f64::from_bits(max.to_bits() | 0xFFF)),
        F24::MAX
    );
    // 2^64 is infinity; just below 2^-62 is +0 (no subnormals), negative too.
    assert_eq!(F24::from_f64_trunc(2f64.powi(64)), F24::INFINITY);
    let tiny = f64::from_bits(2f64.powi(-62).to_bits() - 1);
    assert_eq!(F24::from_f64_trunc(tiny), F24::ZERO);
    assert_eq!(F24::from_f64_trunc(-tiny), F24::ZERO);
    assert_eq!(F24::from_f64_trunc(2f64.powi(-62)), F24::MIN_POSITIVE);
}
