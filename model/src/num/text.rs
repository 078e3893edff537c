//! Text forms shared by the number types: exact decimal expansion and hex bit strings.

use core::fmt;

/// Writes `±m * 2^e` as an exact decimal (no exponent, no rounding): `1`, `-0.5`, `0.000123...`.
///
/// Every value of the PICA200 formats has a finite decimal expansion; this prints all of it.
/// Values outside what `u128` arithmetic covers (never produced by the types of this module) are
/// written as `m*2^e` instead of panicking.
pub(crate) fn write_exact(f: &mut dyn fmt::Write, neg: bool, m: u64, e: i32) -> fmt::Result {
    if neg {
        f.write_str("-")?;
    }
    let m = u128::from(m);
    if e >= 0 {
        let fits = m == 0 || e.unsigned_abs() <= m.leading_zeros();
        return match m.checked_shl(e.unsigned_abs()) {
            Some(v) if fits => write!(f, "{v}"),
            _ => write!(f, "{m}*2^{e}"),
        };
    }
    let k = e.unsigned_abs();
    // Each digit multiplies the fraction by 10 (< 2^4), so it needs k + 4 bits.
    if k > 124 {
        return write!(f, "{m}*2^{e}");
    }
    let mask = (1u128 << k) - 1;
    write!(f, "{}", m >> k)?;
    let mut frac = m & mask;
    if frac != 0 {
        f.write_str(".")?;
    }
    while frac != 0 {
        frac *= 10;
        let digit = (frac >> k) as u8;
        f.write_char(char::from(b'0' + digit))?;
        frac &= mask;
    }
    Ok(())
}

/// Number of hex digits needed for `width` bits.
pub(crate) const fn hex_digits(width: u32) -> usize {
    width.div_ceil(4) as usize
}

/// Writes `bits` as `0x` followed by exactly enough lower-case hex digits for `width` bits.
pub(crate) fn write_hex(f: &mut dyn fmt::Write, bits: u32, width: u32) -> fmt::Result {
    write!(f, "0x{:0w$x}", bits, w = hex_digits(width))
}

/// Parses a `0x`-prefixed hex string whose value must fit in `mask`.
pub(crate) fn parse_hex(s: &str, mask: u32) -> Result<u32, String> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(|| format!("expected a 0x-prefixed hex string, got {s:?}"))?;
    let value = u32::from_str_radix(digits, 16).map_err(|e| format!("bad hex {s:?}: {e}"))?;
    if value & !mask != 0 {
        return Err(format!("{s} does not fit in mask {mask:#x}"));
    }
    Ok(value)
}

/// Serializes bits as the hex string of [`write_hex`].
pub(crate) fn serialize_hex<S: serde::Serializer>(
    serializer: S,
    bits: u32,
    width: u32,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&format_args!("0x{:0w$x}", bits, w = hex_digits(width)))
}

/// Deserializes a hex string written by [`serialize_hex`], rejecting bits outside `mask`.
pub(crate) fn deserialize_hex<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
    mask: u32,
) -> Result<u32, D::Error> {
    let s = <String as serde::Deserialize>::deserialize(deserializer)?;
    parse_hex(&s, mask).map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(neg: bool, m: u64, e: i32) -> String {
        let mut s = String::new();
        let _ = write_exact(&mut s, neg, m, e);
        s
    }

    #[test]
    fn exact_decimals() {
        assert_eq!(exact(false, 0, 0), "0");
        assert_eq!(exact(true, 0, -3), "-0");
        assert_eq!(exact(false, 1, 0), "1");
        assert_eq!(exact(false, 3, 0), "3");
        assert_eq!(exact(false, 1, -1), "0.5");
        assert_eq!(exact(true, 1, -8), "-0.00390625");
        assert_eq!(exact(false, 3, 4), "48");
        assert_eq!(exact(false, 0xFFFF, 48), "18446462598732840960");
        assert_eq!(exact(false, 5, -2), "1.25");
        assert_eq!(exact(false, 1, -20), "0.00000095367431640625");
        // 2^-85 has 85 fraction digits.
        let s = exact(false, 1, -85);
        assert_eq!(s.len(), 2 + 85);
        assert!(s.ends_with("284656524658203125"), "{s}");
        assert!(s.starts_with("0.00000000000000000000000002584939"), "{s}");
        assert_eq!(exact(false, 1, -125), "1*2^-125");
        assert_eq!(exact(false, 1, 200), "1*2^200");
        assert_eq!(
            exact(false, u64::MAX, 64),
            "340282366920938463444927863358058659840"
        );
        assert_eq!(exact(false, u64::MAX, 65), "18446744073709551615*2^65");
    }

    #[test]
    fn hex_strings() {
        let mut s = String::new();
        let _ = write_hex(&mut s, 0x3F0000, 24);
        assert_eq!(s, "0x3f0000");
        s.clear();
        let _ = write_hex(&mut s, 0x1, 13);
        assert_eq!(s, "0x0001");
        assert_eq!(parse_hex("0x3f0000", 0xFF_FFFF), Ok(0x3F0000));
        assert_eq!(parse_hex("0X3F0000", 0xFF_FFFF), Ok(0x3F0000));
        assert!(parse_hex("3f0000", 0xFF_FFFF).is_err());
        assert!(parse_hex("0x1000000", 0xFF_FFFF).is_err());
        assert!(parse_hex("0xzz", 0xFF_FFFF).is_err());
        assert!(parse_hex("0x", 0xFF_FFFF).is_err());
    }
}
