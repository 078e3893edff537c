//! Field-by-field decoding of a register word, for divergence reports and listings.

use super::{info, FieldInfo, FieldKind};

/// One field of a decoded register word.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DecodedField {
    /// The field name; `value` for a register the seed does not describe, `undescribed_bits` for
    /// set bits outside every described field.
    pub name: &'static str,
    /// The field value, shifted down (for `undescribed_bits`: those bits, in place).
    pub bits: u32,
    /// Human-readable value: `BackCcw (2)`, `0x3f0000 (1)`, `true`, `0x1f (31)`, ...
    pub text: String,
}

/// Decodes `value` written to register `id` into its fields, in table order.
///
/// A register the seed does not describe (and an ID beyond 0x2FF) decodes as one field `value`
/// (bits 0-31). Set bits that no field covers are reported as a last field `undescribed_bits`.
/// Never panics.
pub fn decode_fields(id: u32, value: u32) -> Vec<DecodedField> {
    let fields = info(id).map(|r| r.fields).unwrap_or(&[]);
    if fields.is_empty() {
        return vec![DecodedField {
            name: "value",
            bits: value,
            text: hex_dec(value),
        }];
    }
    let mut out: Vec<DecodedField> = fields.iter().map(|f| decode_field(f, value)).collect();
    let covered = fields.iter().fold(0u32, |m, f| m | f.mask());
    let rest = value & !covered;
    if rest != 0 {
        out.push(DecodedField {
            name: "undescribed_bits",
            bits: rest,
            text: format!("{rest:#x}"),
        });
    }
    out
}

/// Decodes one field of `word`.
pub(crate) fn decode_field(f: &FieldInfo, word: u32) -> DecodedField {
    let bits = f.extract(word);
    DecodedField {
        name: f.name,
        bits,
        text: field_text(f, bits),
    }
}

/// The text of a field value (already shifted down), as in [`DecodedField::text`].
pub(crate) fn field_text(f: &FieldInfo, bits: u32) -> String {
    let width = u32::from(f.width);
    match f.kind {
        FieldKind::Unsigned | FieldKind::Trigger => hex_dec(bits),
        FieldKind::Data => format!("{bits:#x}"),
        FieldKind::Signed => {
            let v = sign_extend(bits, width);
            format!("{v} ({bits:#x})")
        }
        FieldKind::Bool => (bits != 0).to_string(),
        // The bit-exact number types print the hex bits and the exact value.
        FieldKind::F24 => crate::num::F24::from_bits(bits).to_string(),
        FieldKind::F16 => crate::num::F16::from_bits(bits).to_string(),
        FieldKind::F20 => crate::num::F20::from_bits(bits).to_string(),
        FieldKind::F31 => crate::num::F31::from_bits(bits).to_string(),
        FieldKind::Fixed { sign, int, frac } => {
            format!(
                "{bits:#x} ({:?})",
                fixed_value(
                    bits,
                    width,
                    u32::from(sign),
                    u32::from(int),
                    u32::from(frac)
                )
            )
        }
        FieldKind::Enum(values) => match values.iter().find(|v| v.value == bits) {
            Some(v) => format!("{} ({bits})", v.name),
            None => format!("Reserved ({bits})"),
        },
        FieldKind::Const(want) => {
            if bits == want {
                format!("{bits:#x}")
            } else {
                format!("{bits:#x} (must be {want:#x})")
            }
        }
    }
}

fn hex_dec(v: u32) -> String {
    if v < 10 {
        v.to_string()
    } else {
        format!("{v:#x} ({v})")
    }
}

fn sign_extend(bits: u32, width: u32) -> i64 {
    if width == 0 || width > 32 {
        return i64::from(bits);
    }
    let shift = 64 - width;
    (i64::from(bits) << shift) >> shift
}

/// The value of a fixed-point field (S.I.F; a field narrower than S+I+F holds the top bits).
fn fixed_value(bits: u32, width: u32, sign: u32, int: u32, frac: u32) -> f64 {
    let total = (sign + int + frac).clamp(1, 63);
    let up = total.saturating_sub(width);
    let raw = i64::from(bits) << up;
    let v = if sign == 1 {
        let shift = 64 - total;
        (raw << shift) >> shift
    } else {
        raw
    };
    // exact for every width here (at most 32 significant bits)
    v as f64 / 2f64.powi(i32::try_from(frac).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regs_float_fields_print_bits_and_exact_value() {
        let f = |kind, bits| {
            let info = FieldInfo {
                name: "f",
                lsb: 0,
                width: 32,
                kind,
                enum_type: None,
                description: "",
            };
            field_text(&info, bits)
        };
        assert_eq!(f(FieldKind::F24, 0x3F0000), "0x3f0000 (1)");
        assert_eq!(f(FieldKind::F24, 0xBF0000), "0xbf0000 (-1)");
        assert_eq!(f(FieldKind::F24, 0x7F0000), "0x7f0000 (inf)");
        assert_eq!(f(FieldKind::F16, 0x3C00), "0x3c00 (1)");
        assert_eq!(f(FieldKind::F31, 63 << 23), "0x1f800000 (1)");
    }

    #[test]
    fn regs_fixed_value_signed_and_truncated() {
        // fixed1.4.8: 0x100 = 1.0, 0x1F00 = -1.0
        assert_eq!(fixed_value(0x100, 13, 1, 4, 8), 1.0);
        assert_eq!(fixed_value(0x1F00, 13, 1, 4, 8), -1.0);
        // fixed0.0.24 held in its top 23 bits: 0x400000 -> 0x800000 / 2^24 = 0.5
        assert_eq!(fixed_value(0x400000, 23, 0, 0, 24), 0.5);
    }
}
