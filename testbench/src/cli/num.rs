//! `pica num decode|encode FORMAT VALUE`: the register and shader float formats both ways.
//!
//! Formats (`pica_model::num`): f16 = float1.5.10 (lighting, fog/gas, procedural texture),
//! f20 = float1.7.12 (light distance attenuation), f24 = float1.7.16 (shader registers,
//! uniforms, attributes), f31 = float1.7.23 (viewport steps, stored in register bits 1-31).
//!
//! `decode` takes the bits (`0x3f0000`, or decimal) and shows the fields, the class and the
//! exact value. `encode` takes a number (`1.5`, `-0.1`, `1e-20`, `inf`, `nan`) and shows the
//! bits each conversion rule of the model gives: the ALU's truncation
//! ([`Float::from_f64_trunc`]: toward zero, below the smallest normal → +0), the float32 path
//! of a uniform upload ([`Float::from_f32_bits`] of the nearest `f32`: gradual underflow,
//! signed zero) and, for f24, picasso's `.constf` conversion
//! ([`pica_model::shader::asm::f24_from_f32_picasso`]: the nearest `f32`, truncated, underflow
//! flushed to a signed zero).

use crate::input::InputError;
use pica_model::num::Float;
use pica_model::shader::asm::f24_from_f32_picasso;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Arguments of `pica num`.
#[derive(Clone, Debug, clap::Args)]
pub struct NumArgs {
    /// What to do.
    #[command(subcommand)]
    pub cmd: NumCmd,
}

/// `pica num` subcommands.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum NumCmd {
    /// Bits → fields and exact value: `pica num decode f24 0x3f8000`.
    Decode {
        /// The format.
        #[arg(value_enum)]
        format: NumFormat,
        /// The bits: 0x hex or decimal. For f31, the 31-bit value (not the register word).
        value: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Number → bits under each conversion rule: `pica num encode f24 0.1`.
    Encode {
        /// The format.
        #[arg(value_enum)]
        format: NumFormat,
        /// A decimal number, `inf`, `-inf` or `nan`.
        #[arg(allow_hyphen_values = true)]
        value: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// The float formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NumFormat {
    /// float1.5.10.
    F16,
    /// float1.7.12.
    F20,
    /// float1.7.16.
    F24,
    /// float1.7.23 (register bits 1-31).
    F31,
}

impl NumFormat {
    fn name(self) -> &'static str {
        match self {
            NumFormat::F16 => "f16",
            NumFormat::F20 => "f20",
            NumFormat::F24 => "f24",
            NumFormat::F31 => "f31",
        }
    }
}

fn bad(msg: impl Into<String>) -> InputError {
    InputError(msg.into())
}

/// Runs `pica num`: the text (or JSON) to print.
pub fn main(args: &NumArgs) -> Result<String, InputError> {
    match &args.cmd {
        NumCmd::Decode {
            format,
            value,
            json,
        } => {
            let bits = parse_bits(value)?;
            let v = match format {
                NumFormat::F16 => decode::<5, 10>(*format, bits)?,
                NumFormat::F20 => decode::<7, 12>(*format, bits)?,
                NumFormat::F24 => decode::<7, 16>(*format, bits)?,
                NumFormat::F31 => decode::<7, 23>(*format, bits)?,
            };
            Ok(if *json { pretty(&v) } else { decode_text(&v) })
        }
        NumCmd::Encode {
            format,
            value,
            json,
        } => {
            let x: f64 = value
                .trim()
                .parse()
                .map_err(|_| bad(format!("`{value}`: expected a decimal number, inf or nan")))?;
            let v = match format {
                NumFormat::F16 => encode::<5, 10>(*format, value, x),
                NumFormat::F20 => encode::<7, 12>(*format, value, x),
                NumFormat::F24 => encode::<7, 16>(*format, value, x),
                NumFormat::F31 => encode::<7, 23>(*format, value, x),
            };
            Ok(if *json { pretty(&v) } else { encode_text(&v) })
        }
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
}

fn parse_bits(t: &str) -> Result<u32, InputError> {
    let t = t.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => t.parse(),
    };
    r.map_err(|_| bad(format!("`{t}`: expected bits as 0x hex or decimal")))
}

/// `0x3f0000 (1)` → (`0x3f0000`, `1`).
fn split_display<const E: u32, const M: u32>(f: Float<E, M>) -> (String, String) {
    let s = f.to_string();
    match s.split_once(" (") {
        Some((bits, rest)) => (bits.to_string(), rest.trim_end_matches(')').to_string()),
        None => (s, String::new()),
    }
}

fn class<const E: u32, const M: u32>(f: Float<E, M>) -> &'static str {
    if f.is_nan() {
        "nan"
    } else if f.is_infinite() {
        "infinity"
    } else if f.is_zero() {
        "zero"
    } else if f.is_subnormal() {
        "subnormal"
    } else {
        "normal"
    }
}

fn decode<const E: u32, const M: u32>(format: NumFormat, bits: u32) -> Result<Value, InputError> {
    if bits & !Float::<E, M>::MASK != 0 {
        return Err(bad(format!(
            "0x{bits:x} does not fit in {} bits ({})",
            Float::<E, M>::WIDTH,
            format.name()
        )));
    }
    let f = Float::<E, M>::from_bits(bits);
    let (hex, value) = split_display(f);
    let exp = f.exponent();
    let unbiased = if exp == 0 {
        1 - i64::from(Float::<E, M>::BIAS)
    } else {
        i64::from(exp) - i64::from(Float::<E, M>::BIAS)
    };
    let mut v = json!({
        "format": format.name(),
        "bits": hex,
        "sign": f.sign(),
        "exponent": exp,
        "exponent_unbiased": unbiased,
        "mantissa": f.mantissa(),
        "class": class(f),
        "value": value,
        "f32_bits": format!("0x{:08x}", f.to_f32_bits()),
        "flushed": split_display(f.flush_subnormal()).0,
    });
    if format == NumFormat::F31 {
        v["reg_word"] = json!(format!("0x{:08x}", bits << 1));
    }
    Ok(v)
}

fn decode_text(v: &Value) -> String {
    let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
    let n = |k: &str| v[k].as_i64().unwrap_or(0);
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} {} = {} ({})",
        s("format"),
        s("bits"),
        s("value"),
        s("class")
    );
    let _ = writeln!(
        t,
        "  sign {}, exponent 0x{:02x} (2^{}), mantissa 0x{:x}",
        n("sign"),
        n("exponent"),
        n("exponent_unbiased"),
        n("mantissa")
    );
    let _ = writeln!(t, "  as f32: {}", s("f32_bits"));
    if s("flushed") != s("bits") {
        let _ = writeln!(t, "  an ALU input flush makes it {} (+0)", s("flushed"));
    }
    if let Some(w) = v["reg_word"].as_str() {
        let _ = writeln!(t, "  register word (bits 1-31): {w}");
    }
    t
}

fn rule<const E: u32, const M: u32>(f: Float<E, M>, x: f64) -> Value {
    let (bits, value) = split_display(f);
    let exact = f.to_f64() == x || (f.is_nan() && x.is_nan());
    json!({"bits": bits, "value": value, "exact": exact})
}

fn encode<const E: u32, const M: u32>(format: NumFormat, text: &str, x: f64) -> Value {
    let via_f32 = Float::<E, M>::from_f32_bits((x as f32).to_bits());
    let mut v = json!({
        "format": format.name(),
        "input": text.trim(),
        "truncated": rule(Float::<E, M>::from_f64_trunc(x), x),
        "via_f32": rule(via_f32, x),
    });
    if format == NumFormat::F24 {
        v["picasso"] = rule(f24_from_f32_picasso(x as f32), x);
    }
    if format == NumFormat::F31 {
        let f = Float::<E, M>::from_f64_trunc(x);
        v["reg_word"] = json!(format!("0x{:08x}", f.bits() << 1));
    }
    v
}

fn encode_text(v: &Value) -> String {
    let mut t = format!(
        "{} from {}:\n",
        v["format"].as_str().unwrap_or(""),
        v["input"].as_str().unwrap_or("")
    );
    for (key, what) in [
        ("truncated", "truncated (the ALU's rule)"),
        ("via_f32", "via f32 (float32 uniform upload)"),
        ("picasso", "picasso .constf"),
    ] {
        let r = &v[key];
        if r.is_null() {
            continue;
        }
        let _ = writeln!(
            t,
            "  {what:<34} {} ({}){}",
            r["bits"].as_str().unwrap_or(""),
            r["value"].as_str().unwrap_or(""),
            if r["exact"].as_bool() == Some(true) {
                ""
            } else {
                "  inexact"
            }
        );
    }
    if let Some(w) = v["reg_word"].as_str() {
        let _ = writeln!(t, "  register word of the truncated value (bits 1-31): {w}");
    }
    t
}
