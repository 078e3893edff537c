//! The channel table: the payload of every channel (field names, widths, order) declared once.
//!
//! The table itself is the [`crate::channels!`] invocation in [`crate::beat`]: each row declares a
//! beat struct field by field with its packed width, so the Rust structs, the packed `.hex`
//! layout and `.jsonl` names of the bundles, the SystemVerilog packed structs of the stage
//! ports (`pica gen rtl` → `pica_chan_pkg.sv`) and the reference in `docs/channels.md`
//! (`pica gen docs`) are all derived from one declaration (design.md "One channel table").
//!
//! Packing rule (bundle `.hex` lines and SV packed structs alike): fields in table order, the
//! first field most significant; an array field puts element 0 least significant (element `i`
//! is `name[i]` of an SV packed array `[N-1:0][W-1:0]`); padding bits
//! ([`PayloadSpec::pads`]) are zero. A line is the packed value zero-extended to whole hex
//! digits.

pub mod spec;

pub use spec::{pack_hex, CField, Elem, FieldSpec, Json, Lanes, Payload, PayloadSpec};

use spec::{c_name, snake};
use std::fmt::Write as _;

/// `pica_chan_pkg.sv`: one packed struct and width per payload, and the channel list.
pub fn sv_package() -> String {
    use crate::beat::Channel;
    let mut o = String::new();
    o.push_str("// Generated from the channel table (model/src/beat.rs) by `pica gen rtl` — do not edit.\n");
    o.push_str(
        "//\n// The payload of every channel as a packed struct: the first field is the most\n",
    );
    o.push_str("// significant, element i of an array is its index i (element 0 least significant), pad_*\n");
    o.push_str("// bits are zero. A\n");
    o.push_str(
        "// bundle's <channel>.hex line is exactly this struct's bits (design.md \"One channel\n",
    );
    o.push_str(
        "// table\"; docs/channels.md). Use as `pica_chan_pkg::fragment_beat_t`. A member whose\n",
    );
    o.push_str("// name is an SV keyword gets `_f` appended (`reg_f`, `tri_f`, `end_f`).\n\n");
    o.push_str("package pica_chan_pkg;\n\n");
    o.push_str(
        "  // A table of types: any one module uses few of them (Verilator -Wall waiver).\n",
    );
    o.push_str("  /* verilator lint_off UNUSEDPARAM */\n\n");
    for p in PAYLOADS_ALL() {
        let _ = writeln!(o, "  // {}", one_line(p.doc));
        let _ = writeln!(o, "  typedef struct packed {{");
        let mut pad_no = 0;
        for f in p.fields {
            let ty = if f.count == 1 && f.width == 1 {
                "logic".to_string()
            } else if f.count == 1 {
                format!("logic [{}:0]", f.width - 1)
            } else {
                format!("logic [{}:0][{}:0]", f.count - 1, f.width - 1)
            };
            let _ = writeln!(o, "    {ty:<22} {};  // {}", f.sv_name(), one_line(f.doc));
            let pad = p.pad_after(f.name);
            if pad > 0 {
                let _ = writeln!(
                    o,
                    "    {:<22} pad_{pad_no};  // zero",
                    format!("logic [{}:0]", pad - 1)
                );
                pad_no += 1;
            }
        }
        let _ = writeln!(o, "  }} {};", p.sv_type());
        let _ = writeln!(
            o,
            "  localparam int {}_W = {};\n",
            snake(p.rust).to_ascii_uppercase(),
            p.width()
        );
    }
    o.push_str(
        "  // Channel numbers (beat.rs Channel order) and names, for trace ports and reports.\n",
    );
    for (i, c) in Channel::ALL.iter().enumerate() {
        let _ = writeln!(
            o,
            "  localparam int CH_{} = {i};  // {} carries {}",
            c.name().to_ascii_uppercase(),
            c.name(),
            c.payload().sv_type()
        );
    }
    let max = PAYLOADS_ALL().iter().map(|p| p.width()).max().unwrap_or(0);
    let _ = writeln!(
        o,
        "\n  // The widest payload: a buffer of this many bits holds any beat (DPI benches,\n  // capi/dpi/pica_model_dpi.sv).\n  localparam int BEAT_MAX_W = {max};"
    );
    o.push_str("\n  /* verilator lint_on UNUSEDPARAM */\n\nendpackage : pica_chan_pkg\n");
    o
}

/// The channel part of the C ABI's header (`capi/include/pica_model.h`): the `PICA_CH_*`
/// numbers, one C struct per payload ([`PayloadSpec::c_fields`]) with its packed width, and
/// static assertions of every size and offset, so a compiler whose layout differed from the
/// one the library writes would refuse the header.
pub fn c_header() -> String {
    use crate::beat::Channel;
    let mut o = String::new();
    o.push_str("/* Channels (model/src/beat.rs Channel order; pica_chan_pkg::CH_*). */\n");
    for (i, c) in Channel::ALL.iter().enumerate() {
        let _ = writeln!(
            o,
            "#define PICA_CH_{} {i} /* {} carries {} */",
            c.name().to_ascii_uppercase(),
            c.name(),
            c.payload().c_type()
        );
    }
    let _ = writeln!(o, "#define PICA_CHANNEL_COUNT {}", Channel::ALL.len());
    let max = PAYLOADS_ALL().iter().map(|p| p.width()).max().unwrap_or(0);
    let _ = writeln!(
        o,
        "/* The widest packed payload in bits (pica_chan_pkg::BEAT_MAX_W). */\n#define PICA_BEAT_MAX_W {max}\n"
    );
    o.push_str(
        "#ifdef __cplusplus\n#define PICA_STATIC_ASSERT(c, m) static_assert(c, m)\n#else\n#define PICA_STATIC_ASSERT(c, m) _Static_assert(c, m)\n#endif\n\n",
    );
    for p in PAYLOADS_ALL() {
        let ty = p.c_type();
        let _ = writeln!(o, "/* {} */", one_line(p.doc));
        let _ = writeln!(o, "typedef struct {} {{", ty.trim_end_matches("_t"));
        for c in p.c_fields() {
            let _ = writeln!(o, "  {}; /* {} */", c.c_decl(), one_line(c.spec.doc));
        }
        let _ = writeln!(o, "}} {ty};");
        let up = snake(p.rust).to_ascii_uppercase();
        let _ = writeln!(
            o,
            "/* Packed width in bits (pica_chan_pkg::{up}_W; pica_pop_beat_packed). */\n#define PICA_{up}_W {}",
            p.width()
        );
        let _ = writeln!(
            o,
            "PICA_STATIC_ASSERT(sizeof({ty}) == {}, \"{ty}: size differs from the library's\");",
            p.c_size()
        );
        for c in p.c_fields() {
            let _ = writeln!(
                o,
                "PICA_STATIC_ASSERT(offsetof({ty}, {}) == {}, \"{ty}.{}: offset differs from the library's\");",
                c_name(c.spec.name),
                c.offset,
                c_name(c.spec.name)
            );
        }
        o.push('\n');
    }
    o
}

#[allow(non_snake_case)]
fn PAYLOADS_ALL() -> &'static [&'static PayloadSpec] {
    crate::beat::PAYLOADS
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `docs/channels.md`: the channel reference.
pub fn markdown() -> String {
    use crate::beat::Channel;
    let mut o = String::new();
    o.push_str("<!-- Generated from the channel table (model/src/beat.rs) by `pica gen docs` — do not edit. -->\n\n");
    o.push_str("# Channels\n\n");
    o.push_str(
        "What crosses each channel of the pipeline, one beat at a time. The same table gives the\n",
    );
    o.push_str(
        "Rust beat structs (`pica_model::beat`), the packed `.hex` lines and `.jsonl` keys of a\n",
    );
    o.push_str(
        "bundle, and the SystemVerilog packed structs of `rtl-bridge/rtl/pica_chan_pkg.sv`.\n\n",
    );
    o.push_str(
        "Packing: fields in the order below, the first one most significant; element `i` of an\n",
    );
    o.push_str("array is index `i` of an SV packed array (element 0 least significant); padding bits are\n");
    o.push_str("zero; a `.hex` line is the packed value\n");
    o.push_str(
        "zero-extended to whole hex digits. `cycle` is the cycle stamp, taken modulo 2^32.\n\n",
    );
    o.push_str("| channel | payload | bits | what |\n|---|---|---|---|\n");
    for c in Channel::ALL {
        let p = c.payload();
        let _ = writeln!(
            o,
            "| `{}` | `{}` | {} | {} |",
            c.name(),
            p.rust,
            p.width(),
            one_line(c.doc())
        );
    }
    for p in PAYLOADS_ALL() {
        let _ = writeln!(
            o,
            "\n## `{}` (`{}`, {} bits)\n",
            p.rust,
            p.sv_type(),
            p.width()
        );
        let _ = writeln!(o, "{}\n", one_line(p.doc));
        o.push_str("| field | bits | elements | `.jsonl` | what |\n|---|---|---|---|---|\n");
        for f in p.fields {
            let elems = if f.count == 1 {
                "—".to_string()
            } else {
                format!("{} × {} (`{}` …)", f.count, f.width, f.elem_name(0))
            };
            let _ = writeln!(
                o,
                "| `{}` | {} | {} | {:?} | {} |",
                f.name,
                f.bits(),
                elems,
                f.json,
                one_line(f.doc)
            );
            let pad = p.pad_after(f.name);
            if pad > 0 {
                let _ = writeln!(o, "| (padding) | {pad} | — | — | zero |");
            }
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::spec::json_value;
    use super::*;
    use crate::beat::{Channel, FragmentBeat, RegWriteBeat};
    use serde_json::{json, Value};

    #[test]
    fn chan_pack_is_msb_first_and_zero_extended() {
        let f = vec![("a".to_string(), 3, 0b101), ("b".to_string(), 2, 0b11)];
        assert_eq!(pack_hex(&f), "17");
    }

    #[test]
    fn chan_regwrite_layout_is_format_v1() {
        // The published v1 packing: [127:96] cycle, [84:81] mask, [80:64] id, [63:32] param,
        // [31:0] value (docs/src/bundles.md, "Golden-vector bundles").
        let spec = <RegWriteBeat as Payload>::SPEC;
        assert_eq!(spec.width(), 128);
        let l: Vec<(String, u32, u32)> = spec.layout();
        let want = [
            ("cycle", 96, 32),
            ("mask", 81, 4),
            ("id", 64, 17),
            ("param", 32, 32),
            ("value", 0, 32),
        ];
        assert_eq!(l.len(), want.len());
        for ((n, lsb, w), (wn, wl, ww)) in l.iter().zip(want) {
            assert_eq!((n.as_str(), *lsb, *w), (wn, wl, ww));
        }
        let b = RegWriteBeat {
            cycle: 0x1_0000_0002,
            id: 0x1_0123,
            mask: 0xF,
            param: 0xAABB_CCDD,
            value: 0x1122_3344,
        };
        assert_eq!(b.hex_line(), "00000002001f0123aabbccdd11223344");
    }

    #[test]
    fn chan_every_channel_has_a_payload_and_distinct_names() {
        let mut names: Vec<&str> = Channel::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Channel::ALL.len());
        for p in PAYLOADS_ALL() {
            let mut f: Vec<&str> = p.fields.iter().map(|f| f.name).collect();
            f.sort_unstable();
            f.dedup();
            assert_eq!(f.len(), p.fields.len(), "{}", p.rust);
            for fld in p.fields {
                assert!(fld.width > 0 && fld.count > 0, "{}.{}", p.rust, fld.name);
                assert!(
                    fld.json != Json::Bool || fld.width == 1,
                    "{}.{}",
                    p.rust,
                    fld.name
                );
            }
        }
    }

    #[test]
    fn chan_fragment_json_and_hex_agree_on_fields() {
        let mut b = FragmentBeat {
            cycle: 7,
            tri: 1,
            x: 2,
            y: 3,
            depth: 0xABCDEF,
            color: 0x11223344,
            attr: [0; crate::pipe::NUM_SEMANTICS],
        };
        b.attr[5] = 0x3F0000;
        let j = Value::Object(b.json_fields());
        assert_eq!(j["depth"], "0xabcdef");
        assert_eq!(j["attr"][5], "0x3f0000");
        let packed = b.packed();
        assert_eq!(packed[6].0, "attr[0x17]");
        assert_eq!(packed[6 + 23].0, "attr[0x00]");
        assert_eq!(packed[6 + 23 - 5], ("attr[0x05]".to_string(), 24, 0x3F0000));
        // attr[5] at bits [5*24 +: 24] of the line: the SV packed array's index 5.
        let line = b.hex_line();
        let lo = &line[line.len() - 6 * 6..line.len() - 5 * 6];
        assert_eq!(lo, "3f0000");
        let width: u32 = packed.iter().map(|p| p.1).sum();
        assert_eq!(width, <FragmentBeat as Payload>::SPEC.width());
    }

    fn value_count_matches<T: Payload + Default>() {
        let mut v = Vec::new();
        T::default().values(&mut v);
        let want: u32 = T::SPEC.fields.iter().map(|f| f.count).sum();
        assert_eq!(v.len(), want as usize, "{}", T::SPEC.rust);
        assert_eq!(
            T::default().hex_line().len(),
            T::SPEC.width().div_ceil(4) as usize
        );
    }

    #[test]
    fn chan_declared_counts_match_the_rust_types() {
        use crate::beat::*;
        value_count_matches::<RegWriteBeat>();
        value_count_matches::<ShaderBeat>();
        value_count_matches::<CommitBeat>();
        value_count_matches::<PrimitiveBeat>();
        value_count_matches::<FragmentBeat>();
        value_count_matches::<PixelBeat>();
        value_count_matches::<TexelBeat>();
        value_count_matches::<CombinerBeat>();
        value_count_matches::<TexColorBeat>();
        assert_eq!(PAYLOADS_ALL().len(), 9);
    }

    /// The packed words are the `.hex` line's bits (word 0 least significant), and the C
    /// bytes put each field at its C offset, little-endian, full Rust width.
    #[test]
    fn chan_packed_words_and_c_bytes_follow_the_table() {
        use crate::beat::RegWriteBeat;
        let b = RegWriteBeat {
            cycle: 0x1_0000_0007,
            mask: 0x5,
            id: 0x100FE,
            param: 0xAABB_CCDD,
            value: 0x1122_3344,
        };
        let words = b.packed_words();
        let line = b.hex_line();
        let from_words: String = words.iter().rev().map(|w| format!("{w:08x}")).collect();
        assert_eq!(from_words, line);
        // cycle[127:96] (low 32 bits) pad[95:85] mask[84:81] id[80:64] param[63:32] value[31:0]
        assert_eq!(words, [0x1122_3344, 0xAABB_CCDD, 0x5 << 17 | 0x100FE, 7]);
        let spec = RegWriteBeat::SPEC;
        let offsets: Vec<(&str, u32)> = spec
            .c_fields()
            .iter()
            .map(|c| (c.spec.name, c.offset))
            .collect();
        assert_eq!(
            offsets,
            [
                ("cycle", 0),
                ("mask", 8),
                ("id", 12),
                ("param", 16),
                ("value", 20)
            ]
        );
        assert_eq!(spec.c_size(), 24);
        let bytes = b.c_bytes();
        assert_eq!(bytes.len(), 24);
        assert_eq!(bytes[0..8], 0x1_0000_0007u64.to_le_bytes());
        assert_eq!(bytes[8], 5);
        assert_eq!(bytes[9..12], [0, 0, 0]);
        assert_eq!(bytes[12..16], 0x100FEu32.to_le_bytes());
        assert_eq!(bytes[20..24], 0x1122_3344u32.to_le_bytes());
        // A 16-byte element (the texel's raw bytes) is two uint64_t, 8-aligned.
        let t = crate::beat::TexelBeat::SPEC.c_fields();
        let raw = t
            .iter()
            .find(|c| c.spec.name == "raw")
            .map(|c| (c.offset, c.c_decl()));
        assert_eq!(raw, Some((24, "uint64_t raw[2]".to_string())));
        for p in PAYLOADS_ALL() {
            let c = p.c_fields();
            assert!(c
                .windows(2)
                .all(|w| w[0].offset + w[0].spec.bytes * w[0].spec.count <= w[1].offset));
            assert_eq!(p.c_size() % 8, 0, "{}", p.rust);
        }
    }

    #[test]
    fn chan_signed_fields_render_negative() {
        let f = FieldSpec {
            name: "a0x",
            width: 32,
            count: 1,
            elem: Elem::Scalar,
            json: Json::Signed,
            doc: "",
            bytes: 4,
        };
        assert_eq!(json_value(&f, u128::from(-5i32 as u32)), json!(-5));
    }
}
