//! Exact decoding and encoding of binary float bit patterns of any layout.
//!
//! Every float conversion in [`crate::num`] goes through these two functions: [`decode`] turns a
//! bit pattern into an exact value (`m * 2^e`, or zero/infinity/NaN), [`encode`] truncates an exact
//! value toward zero into another layout. Using one path for every format (including host `f32`
//! and `f64`) keeps the rounding rules in one place.

/// The magnitude of a decoded float (the sign is carried separately).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// Positive or negative zero.
    Zero,
    /// The exact value `m * 2^e`, with `m > 0`.
    Finite {
        /// Integer significand (hidden bit included for normal numbers).
        m: u64,
        /// Power of two scaling `m`.
        e: i32,
    },
    /// Infinity.
    Infinite,
    /// NaN; `payload` is the mantissa field left-aligned in 64 bits (field MSB at bit 63).
    Nan {
        /// The left-aligned mantissa field (non-zero).
        payload: u64,
    },
}

/// Layout of a binary float: sign bit above `exp_bits` exponent bits above `mant_bits` mantissa
/// bits. Bias is `2^(exp_bits-1) - 1`; exponent all ones is infinity (mantissa 0) or NaN;
/// exponent 0 is zero (mantissa 0) or subnormal (`mantissa * 2^(1 - bias - mant_bits)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Exponent field width (2..=11).
    pub exp_bits: u32,
    /// Mantissa field width (1..=52).
    pub mant_bits: u32,
}

impl Layout {
    /// IEEE binary32.
    pub const F32: Layout = Layout {
        exp_bits: 8,
        mant_bits: 23,
    };
    /// IEEE binary64.
    pub const F64: Layout = Layout {
        exp_bits: 11,
        mant_bits: 52,
    };

    const fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }
    const fn exp_max(self) -> u64 {
        (1 << self.exp_bits) - 1
    }
    const fn mant_mask(self) -> u64 {
        (1 << self.mant_bits) - 1
    }
    const fn sign_bit(self) -> u64 {
        1 << (self.exp_bits + self.mant_bits)
    }
    /// Exponent of the least significant mantissa bit of a subnormal: `1 - bias - mant_bits`.
    const fn min_e(self) -> i32 {
        1 - self.bias() - self.mant_bits as i32
    }
}

/// What [`encode`] does with a non-zero value below the smallest normal number of the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Underflow {
    /// Truncate toward zero into the subnormal range; what truncates to nothing becomes a zero
    /// with the sign of the input. Zero inputs keep their sign.
    Gradual,
    /// Anything below the smallest normal number, and every zero, becomes +0.
    FlushToPositiveZero,
}

/// Decodes the low `1 + exp_bits + mant_bits` bits of `bits`; returns (negative, magnitude).
pub(crate) const fn decode(bits: u64, l: Layout) -> (bool, Value) {
    let neg = bits & l.sign_bit() != 0;
    let exp = (bits >> l.mant_bits) & l.exp_max();
    let mant = bits & l.mant_mask();
    let value = if exp == l.exp_max() {
        if mant == 0 {
            Value::Infinite
        } else {
            Value::Nan {
                payload: mant << (64 - l.mant_bits),
            }
        }
    } else if exp == 0 {
        if mant == 0 {
            Value::Zero
        } else {
            Value::Finite {
                m: mant,
                e: l.min_e(),
            }
        }
    } else {
        Value::Finite {
            m: mant | (1 << l.mant_bits),
            e: l.min_e() + exp as i32 - 1,
        }
    };
    (neg, value)
}

/// `m * 2^s`, truncated; shifts of 64 or more give 0.
const fn shift(m: u64, s: i32) -> u64 {
    if s >= 0 {
        match m.checked_shl(s as u32) {
            Some(v) => v,
            None => 0,
        }
    } else {
        match m.checked_shr(s.unsigned_abs()) {
            Some(v) => v,
            None => 0,
        }
    }
}

/// Encodes `value` (negative if `neg`) into layout `l`, truncating toward zero.
///
/// - Finite values at or above 2^(bias+1) (the first power of two past the largest finite value)
///   become infinity with the input's sign (not the largest finite value).
/// - Normal results: the mantissa is truncated (toward zero).
/// - Below the smallest normal: see [`Underflow`].
/// - Infinity stays infinity; NaN stays NaN with the top bits of its payload (forced to 1 if those
///   bits are all zero, so it stays a NaN). Signs are kept.
pub(crate) const fn encode(neg: bool, value: Value, l: Layout, underflow: Underflow) -> u64 {
    let sign = if neg { l.sign_bit() } else { 0 };
    let signed_zero = match underflow {
        Underflow::Gradual => sign,
        Underflow::FlushToPositiveZero => 0,
    };
    let inf = sign | (l.exp_max() << l.mant_bits);
    match value {
        Value::Zero => signed_zero,
        Value::Infinite => inf,
        Value::Nan { payload } => {
            let field = payload >> (64 - l.mant_bits);
            inf | if field == 0 { 1 } else { field }
        }
        Value::Finite { m, e } => {
            if m == 0 {
                return signed_zero;
            }
            let top = 63 - m.leading_zeros() as i32;
            // The value lies in [2^(top+e), 2^(top+e+1)).
            let biased = top + e + l.bias();
            if biased >= l.exp_max() as i32 {
                inf
            } else if biased >= 1 {
                let mant = shift(m, l.mant_bits as i32 - top) & l.mant_mask();
                sign | ((biased as u64) << l.mant_bits) | mant
            } else {
                match underflow {
                    Underflow::FlushToPositiveZero => 0,
                    Underflow::Gradual => sign | shift(m, e - l.min_e()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_decode_encode_is_identity() {
        for bits in [
            0u32,
            0x8000_0000,
            1,
            0x007F_FFFF,
            0x0080_0000,
            0x3F80_0000,
            0xBF80_0001,
            0x7F7F_FFFF,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0x7F80_0001,
            0xFFFF_FFFF,
        ] {
            let (neg, v) = decode(u64::from(bits), Layout::F32);
            assert_eq!(
                encode(neg, v, Layout::F32, Underflow::Gradual),
                u64::from(bits)
            );
        }
    }

    #[test]
    fn f64_to_f32_truncates() {
        // 1 + 2^-23 - 2^-40 truncates to 1.0.
        let x = 1.0f64 + 2f64.powi(-23) - 2f64.powi(-40);
        let (neg, v) = decode(x.to_bits(), Layout::F64);
        assert_eq!(encode(neg, v, Layout::F32, Underflow::Gradual), 0x3F80_0000);
        // 2^-149 is the smallest f32 subnormal; 2^-150 truncates to a signed zero.
        let (neg, v) = decode((-(2f64.powi(-150))).to_bits(), Layout::F64);
        assert_eq!(encode(neg, v, Layout::F32, Underflow::Gradual), 0x8000_0000);
        assert_eq!(
            encode(neg, v, Layout::F32, Underflow::FlushToPositiveZero),
            0
        );
        let (neg, v) = decode(2f64.powi(-149).to_bits(), Layout::F64);
        assert_eq!(encode(neg, v, Layout::F32, Underflow::Gradual), 1);
        assert_eq!(
            encode(neg, v, Layout::F32, Underflow::FlushToPositiveZero),
            0
        );
    }

    #[test]
    fn degenerate_finite_is_zero() {
        let v = Value::Finite { m: 0, e: 5 };
        assert_eq!(
            encode(true, v, Layout::F32, Underflow::Gradual),
            0x8000_0000
        );
        assert_eq!(shift(1, 64), 0);
        assert_eq!(shift(1, -64), 0);
    }
}
