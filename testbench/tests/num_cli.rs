//! `pica num decode|encode`: the float formats both ways, through the library entry point and
//! the binary.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;
use common::*;

use pica_testbench::cli::num::{main, NumArgs, NumCmd, NumFormat};

fn decode(format: NumFormat, value: &str) -> serde_json::Value {
    let args = NumArgs {
        cmd: NumCmd::Decode {
            format,
            value: value.into(),
            json: true,
        },
    };
    serde_json::from_str(&main(&args).unwrap()).unwrap()
}

fn encode(format: NumFormat, value: &str) -> serde_json::Value {
    let args = NumArgs {
        cmd: NumCmd::Encode {
            format,
            value: value.into(),
            json: true,
        },
    };
    serde_json::from_str(&main(&args).unwrap()).unwrap()
}

#[test]
fn num_decode_shows_fields_class_and_exact_value() {
    let v = decode(NumFormat::F24, "0x3f8000");
    assert_eq!(v["value"], "1.5");
    assert_eq!(
        (v["sign"].as_u64(), v["exponent"].as_u64()),
        (Some(0), Some(63))
    );
    assert_eq!(v["mantissa"], 0x8000);
    assert_eq!(v["class"], "normal");
    assert_eq!(v["f32_bits"], "0x3fc00000");
    // The two inputs the MOV knob is about: flushed to +0 by arithmetic.
    let s = decode(NumFormat::F24, "0x000001");
    assert_eq!(
        (s["class"].as_str(), s["flushed"].as_str()),
        (Some("subnormal"), Some("0x000000"))
    );
    assert_eq!(decode(NumFormat::F24, "0x800000")["value"], "-0");
    assert_eq!(decode(NumFormat::F24, "0x7f0000")["class"], "infinity");
    assert_eq!(decode(NumFormat::F16, "0x3c00")["value"], "1");
    assert_eq!(decode(NumFormat::F20, "0x3f800")["value"], "1.5");
    let w = decode(NumFormat::F31, "0x3f000000");
    assert_eq!(w["reg_word"], "0x7e000000");
    // Bits outside the format are an error.
    let args = NumArgs {
        cmd: NumCmd::Decode {
            format: NumFormat::F16,
            value: "0x10000".into(),
            json: false,
        },
    };
    assert!(main(&args).unwrap_err().to_string().contains("16 bits"));
}

#[test]
fn num_encode_shows_every_conversion_rule() {
    let v = encode(NumFormat::F24, "1.5");
    assert_eq!(v["truncated"]["bits"], "0x3f8000");
    assert_eq!(v["truncated"]["exact"], true);
    let v = encode(NumFormat::F24, "0.1");
    assert_eq!(v["truncated"]["bits"], "0x3b9999");
    assert_eq!(v["truncated"]["exact"], false);
    assert_eq!(v["picasso"]["bits"], "0x3b9999");
    // Below the smallest normal: the ALU's rule gives +0, the f32 upload path keeps a
    // subnormal, picasso flushes to a signed zero.
    let v = encode(NumFormat::F24, "-1e-20");
    assert_eq!(v["truncated"]["bits"], "0x000000");
    assert_eq!(v["via_f32"]["bits"], "0x800bce");
    assert_eq!(v["picasso"]["bits"], "0x800000");
    assert_eq!(
        encode(NumFormat::F16, "65520")["truncated"]["bits"],
        "0x7bff"
    );
    assert_eq!(
        encode(NumFormat::F24, "-inf")["truncated"]["bits"],
        "0xff0000"
    );
    assert!(encode(NumFormat::F16, "1")["picasso"].is_null());
    assert_eq!(encode(NumFormat::F31, "-2.5")["reg_word"], "0xc0400000");
}

#[test]
fn num_cli_prints_text_and_rejects_bad_input() {
    let o = pica(&["num", "decode", "f24", "0x3f0000"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        stdout(&o).starts_with("f24 0x3f0000 = 1 (normal)"),
        "{}",
        stdout(&o)
    );
    let o = pica(&["num", "encode", "f24", "-0.5"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(stdout(&o).contains("0xbe0000 (-0.5)"), "{}", stdout(&o));
    let o = pica(&["num", "encode", "f24", "abc"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}
