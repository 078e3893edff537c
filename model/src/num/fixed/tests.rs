//! Fixed-point tests: every comparison is on bit patterns.

use super::*;
use proptest::prelude::*;

#[test]
fn layouts() {
    assert_eq!((Fix0_0_11::WIDTH, Fix0_0_11::MASK), (11, 0x7FF));
    assert_eq!((Fix0_0_12::WIDTH, Fix0_0_12::MASK), (12, 0xFFF));
    assert_eq!((Fix0_0_24::WIDTH, Fix0_0_24::MASK), (24, 0xFF_FFFF));
    assert_eq!((Fix0_16_8::WIDTH, Fix0_16_8::MASK), (24, 0xFF_FFFF));
    assert_eq!((Fix1_0_11::WIDTH, Fix1_0_11::MASK), (12, 0xFFF));
    assert_eq!((Fix1_0_7::WIDTH, Fix1_0_7::MASK), (8, 0xFF));
    assert_eq!((Fix1_1_11::WIDTH, Fix1_1_11::MASK), (13, 0x1FFF));
    assert_eq!((Fix1_3_12::WIDTH, Fix1_3_12::MASK), (16, 0xFFFF));
    assert_eq!((Fix1_4_8::WIDTH, Fix1_4_8::MASK), (13, 0x1FFF));
    assert_eq!((Fix12_4::WIDTH, Fix12_4::MASK), (16, 0xFFFF));
    assert_eq!(
        (Fixed::<0, 0, 32>::WIDTH, Fixed::<0, 0, 32>::MASK),
        (32, u32::MAX)
    );
    assert_eq!(
        (Fix1_4_8::MIN.bits(), Fix1_4_8::MAX.bits()),
        (0x1000, 0x0FFF)
    );
    assert_eq!((Fix1_4_8::MIN_RAW, Fix1_4_8::MAX_RAW), (-4096, 4095));
    assert_eq!((Fix0_0_12::MIN.bits(), Fix0_0_12::MAX.bits()), (0, 0xFFF));
    assert_eq!(Fix0_0_24::default().bits(), 0);
}

#[test]
fn sign_extension() {
    let x = Fix1_4_8::from_bits(0x1FFF);
    assert_eq!(x.raw(), -1);
    assert!(x.is_negative());
    assert_eq!(x.to_f64().to_bits(), (-1.0f64 / 256.0).to_bits());
    assert_eq!(
        Fix1_4_8::from_bits(0x1000).to_f64().to_bits(),
        (-16.0f64).to_bits()
    );
    assert_eq!(
        Fix1_4_8::from_bits(0x0FFF).to_f64().to_bits(),
        15.99609375f64.to_bits()
    );
    assert_eq!(Fix1_4_8::from_bits(0xFFFF_FFFF).bits(), 0x1FFF);
    assert_eq!(Fix1_0_7::from_bits(0x80).raw(), -128);
    assert_eq!(
        Fix1_0_7::from_bits(0x80).to_f64().to_bits(),
        (-1.0f64).to_bits()
    );
    assert_eq!(
        Fix1_1_11::from_bits(0x1800).to_f64().to_bits(),
        (-1.0f64).to_bits()
    );
    assert_eq!(
        Fix1_1_11::from_bits(0x0800).to_f64().to_bits(),
        1.0f64.to_bits()
    );
    assert_eq!(Fix1_0_11::from_bits(0xFFF).raw(), -1);
    // The same 12 bits read unsigned (fixed0.0.12).
    assert_eq!(Fix0_0_12::from_bits(0xFFF).raw(), 4095);
    assert!(!Fix0_0_12::from_bits(0xFFF).is_negative());
    assert_eq!(
        Fix0_0_12::from_bits(0xFFF).to_f64().to_bits(),
        (4095.0f64 / 4096.0).to_bits()
    );
    assert_eq!(
        Fix0_16_8::from_bits(0xFF_FFFF).to_f64().to_bits(),
        (65535.99609375f64).to_bits()
    );
    assert_eq!(
        Fixed::<1, 15, 16>::from_bits(0x8000_0000).raw(),
        -(1i64 << 31)
    );
    assert_eq!(Fixed::<0, 0, 32>::from_bits(u32::MAX).raw(), 0xFFFF_FFFF);
}

#[test]
fn screen_coordinates() {
    assert_eq!(
        Fix12_4::from_bits(0x0010).to_f64().to_bits(),
        1.0f64.to_bits()
    );
    assert_eq!(
        Fix12_4::from_bits(0x8000).to_f64().to_bits(),
        (-2048.0f64).to_bits()
    );
    assert_eq!(
        Fix12_4::from_bits(0xFFF8).to_f64().to_bits(),
        (-0.5f64).to_bits()
    );
    assert_eq!(Fix12_4::from_f64_trunc(399.9).bits(), 0x18FE);
    assert_eq!(Fix12_4::from_f64_round(399.97).bits(), 0x1900);
}

#[test]
fn from_f64_rules() {
    let t = |x: f64| Fix1_4_8::from_f64_trunc(x).bits();
    let r = |x: f64| Fix1_4_8::from_f64_round(x).bits();
    assert_eq!(t(-1.0 / 256.0), 0x1FFF);
    assert_eq!(t(-0.005), 0x1FFF); // -1.28 LSB → -1 (toward zero)
    assert_eq!(r(-0.005), 0x1FFF); // -1.28 → -1
    assert_eq!(t(-0.006), 0x1FFF); // -1.536 → -1
    assert_eq!(r(-0.006), 0x1FFE); // -1.536 → -2
    assert_eq!(t(0.006), 0x0001);
    assert_eq!(r(0.006), 0x0002);
    assert_eq!(r(0.5 / 256.0), 0x0001); // tie: away from zero
    assert_eq!(r(-0.5 / 256.0), 0x1FFF);
    assert_eq!(r(1.5 / 256.0), 0x0002);
    assert_eq!(t(-0.0), 0);
    assert_eq!((t(100.0), r(100.0)), (0x0FFF, 0x0FFF)); // saturate
    assert_eq!((t(-100.0), r(-100.0)), (0x1000, 0x1000));
    assert_eq!((t(16.0), r(15.999)), (0x0FFF, 0x0FFF));
    assert_eq!((t(f64::INFINITY), t(f64::NEG_INFINITY)), (0x0FFF, 0x1000));
    assert_eq!((t(f64::NAN), r(f64::NAN)), (0, 0));
    assert_eq!(Fix0_0_12::from_f64_trunc(-0.5).bits(), 0);
    assert_eq!(Fix0_0_12::from_f64_trunc(1.0).bits(), 0xFFF);
    assert_eq!(Fix0_0_12::from_f64_round(0.5).bits(), 0x800);
    assert_eq!(Fixed::<0, 0, 32>::from_f64_trunc(1e10).bits(), u32::MAX);
    assert_eq!(
        Fixed::<1, 15, 16>::from_f64_trunc(-1e10).bits(),
        0x8000_0000
    );
}

#[test]
fn from_raw_wraps() {
    assert_eq!(Fix1_4_8::from_raw(-1).bits(), 0x1FFF);
    assert_eq!(Fix1_4_8::from_raw(4096).bits(), 0x1000);
    assert_eq!(Fix0_0_12::from_raw(-1).bits(), 0xFFF);
}

#[test]
fn display_and_debug() {
    assert_eq!(
        Fix1_4_8::from_bits(0x1FFF).to_string(),
        "0x1fff (-0.00390625)"
    );
    assert_eq!(Fix1_4_8::from_bits(0x0100).to_string(), "0x0100 (1)");
    assert_eq!(Fix1_4_8::ZERO.to_string(), "0x0000 (0)");
    assert_eq!(
        Fix0_0_24::from_bits(1).to_string(),
        "0x000001 (0.000000059604644775390625)"
    );
    assert_eq!(Fix12_4::from_bits(0x8000).to_string(), "0x8000 (-2048)");
    assert_eq!(Fix1_0_7::from_bits(0xC0).to_string(), "0xc0 (-0.5)");
    assert_eq!(
        format!("{:?}", Fix1_4_8::from_bits(0x1FFF)),
        "fixed1.4.8(0x1fff = -0.00390625)"
    );
    assert_eq!(
        format!("{:?}", Fix0_0_12::MAX),
        "fixed0.0.12(0xfff = 0.999755859375)"
    );
}

#[test]
fn serde_hex() {
    assert_eq!(
        serde_json::to_string(&Fix1_4_8::from_bits(0x1FFF))
            .ok()
            .as_deref(),
        Some("\"0x1fff\"")
    );
    assert_eq!(
        serde_json::to_string(&Fix0_0_24::from_bits(5))
            .ok()
            .as_deref(),
        Some("\"0x000005\"")
    );
    assert_eq!(
        serde_json::to_string(&Fix1_0_7::from_bits(5))
            .ok()
            .as_deref(),
        Some("\"0x05\"")
    );
    let back: Result<Fix1_4_8, _> = serde_json::from_str("\"0x1fff\"");
    assert_eq!(back.ok().map(Fix1_4_8::bits), Some(0x1FFF));
    assert!(serde_json::from_str::<Fix1_4_8>("\"0x2000\"").is_err());
}

/// Exhaustive for every alias of at most 16 bits: to_f64 → from_f64_{trunc,round} is the
/// identity, and raw → from_raw too.
fn assert_exact_round_trip<const S: u32, const I: u32, const F: u32>() {
    for bits in 0..=Fixed::<S, I, F>::MASK {
        let x = Fixed::<S, I, F>::from_bits(bits);
        assert_eq!(Fixed::<S, I, F>::from_f64_trunc(x.to_f64()).bits(), bits);
        assert_eq!(Fixed::<S, I, F>::from_f64_round(x.to_f64()).bits(), bits);
        assert_eq!(Fixed::<S, I, F>::from_raw(x.raw()).bits(), bits);
        assert!((Fixed::<S, I, F>::MIN_RAW..=Fixed::<S, I, F>::MAX_RAW).contains(&x.raw()));
    }
}

#[test]
fn round_trips_exhaustive() {
    assert_exact_round_trip::<0, 0, 11>();
    assert_exact_round_trip::<0, 0, 12>();
    assert_exact_round_trip::<1, 0, 11>();
    assert_exact_round_trip::<1, 0, 7>();
    assert_exact_round_trip::<1, 1, 11>();
    assert_exact_round_trip::<1, 3, 12>();
    assert_exact_round_trip::<1, 4, 8>();
    assert_exact_round_trip::<1, 11, 4>();
}

proptest! {
    #[test]
    fn from_bits_masks(x in any::<u32>()) {
        prop_assert_eq!(Fix0_0_11::from_bits(x).bits(), x & 0x7FF);
        prop_assert_eq!(Fix0_0_24::from_bits(x).bits(), x & 0xFF_FFFF);
        prop_assert_eq!(Fix0_16_8::from_bits(x).bits(), x & 0xFF_FFFF);
        prop_assert_eq!(Fix1_4_8::from_bits(x).bits(), x & 0x1FFF);
        prop_assert_eq!(Fix12_4::from_bits(x).bits(), x & 0xFFFF);
    }

    #[test]
    fn wide_round_trips(x in any::<u32>()) {
        let a = Fix0_0_24::from_bits(x);
        prop_assert_eq!(Fix0_0_24::from_f64_trunc(a.to_f64()).bits(), a.bits());
        let b = Fix0_16_8::from_bits(x);
        prop_assert_eq!(Fix0_16_8::from_f64_round(b.to_f64()).bits(), b.bits());
        let c = Fixed::<1, 15, 16>::from_bits(x);
        prop_assert_eq!(Fixed::<1, 15, 16>::from_f64_trunc(c.to_f64()).bits(), c.bits());
        prop_assert_eq!(c.raw(), i64::from(x as i32));
    }

    /// Truncation and rounding bracket the input: t <= x < t + lsb toward zero, |r - x| <= lsb/2.
    #[test]
    fn trunc_and_round_bracket(x in -16.0f64..16.0) {
        let lsb = 1.0 / 256.0;
        let t = Fix1_4_8::from_f64_trunc(x).to_f64();
        let r = Fix1_4_8::from_f64_round(x).to_f64();
        prop_assert!(t.abs() <= x.abs() && x.abs() < t.abs() + lsb);
        prop_assert!((r - x).abs() <= lsb / 2.0 || r == Fix1_4_8::MAX.to_f64());
    }
}
