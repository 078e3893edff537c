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

use serde_json::{json, Map, Value};
use std::fmt::Write as _;

/// How a field's elements are named in manifests and reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// One value named as the field.
    Scalar,
    /// `name[i]`.
    Index,
    /// `xyzw`-style lanes: `name.x`, `name.y`, `name.z`, `name.w`.
    Lanes,
    /// The 24 semantics of seed 002 GPUREG_SH_OUTMAP_Oi: `attr[0x05]`.
    Semantic,
    /// Three vertices of 24 semantics: `v1.attr[0x05]`.
    VertexSemantic,
}

/// How `.jsonl` shows a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Json {
    /// A decimal number.
    Dec,
    /// A signed decimal number (the bits are two's complement of the field width).
    Signed,
    /// A hex string `0x…` with `width / 4` digits (rounded up).
    Hex,
    /// A hex string `0x…` with at least this many digits (register IDs: `0x0fe`).
    HexMin(u32),
    /// `true` / `false` (1-bit fields).
    Bool,
}

/// One field of a payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    /// Name (the Rust field, the SV struct member, the `.jsonl` key).
    pub name: &'static str,
    /// Packed width of one element in bits.
    pub width: u32,
    /// Number of elements (1 for a scalar).
    pub count: u32,
    /// Element naming.
    pub elem: Elem,
    /// `.jsonl` rendering.
    pub json: Json,
    /// What the field holds (the Rust doc comment).
    pub doc: &'static str,
    /// Bytes one element takes in the Rust struct (`u64` cycle: 8, `bool`: 1, `u128`: 16):
    /// the size of the element in the C struct of the C ABI ([`PayloadSpec::c_fields`]).
    pub bytes: u32,
}

impl FieldSpec {
    /// The member name in SystemVerilog: the name, with `_f` appended where it is an SV
    /// keyword (`reg`, `tri`, `end`, ...).
    pub fn sv_name(&self) -> String {
        if SV_KEYWORDS.contains(&self.name) {
            format!("{}_f", self.name)
        } else {
            self.name.to_string()
        }
    }

    /// Total packed bits.
    pub const fn bits(&self) -> u32 {
        self.width * self.count
    }

    /// The name of element `i` (see [`Elem`]).
    pub fn elem_name(&self, i: u32) -> String {
        match self.elem {
            Elem::Scalar => self.name.to_string(),
            Elem::Index => format!("{}[{i}]", self.name),
            Elem::Lanes => format!("{}.{}", self.name, ['x', 'y', 'z', 'w'][(i & 3) as usize]),
            Elem::Semantic => format!("{}[0x{i:02x}]", self.name),
            Elem::VertexSemantic => format!(
                "v{}.attr[0x{:02x}]",
                i / crate::pipe::NUM_SEMANTICS as u32,
                i % crate::pipe::NUM_SEMANTICS as u32
            ),
        }
    }
}

/// IEEE 1800-2012 keywords a field name could collide with (the short, lower-case ones).
const SV_KEYWORDS: &[&str] = &[
    "alias", "always", "and", "assign", "bit", "break", "buf", "byte", "case", "cell", "cmos",
    "config", "const", "context", "cover", "default", "design", "do", "edge", "else", "end",
    "enum", "event", "expect", "export", "extends", "extern", "final", "for", "force", "fork",
    "function", "if", "iff", "import", "initial", "inout", "input", "int", "integer", "join",
    "large", "let", "local", "logic", "longint", "medium", "module", "nand", "new", "nor", "not",
    "null", "or", "output", "package", "pmos", "priority", "program", "property", "pull0", "pull1",
    "pure", "rand", "randc", "real", "ref", "reg", "release", "repeat", "return", "sequence",
    "shortint", "signed", "small", "solve", "static", "string", "strong", "struct", "super",
    "supply0", "supply1", "table", "task", "this", "time", "tran", "tri", "tri0", "tri1", "triand",
    "trior", "trireg", "type", "union", "unique", "unsigned", "use", "uwire", "var", "void",
    "wait", "wand", "weak", "while", "wire", "with", "wor", "xnor", "xor",
];

/// The payload of a channel: the fields of one beat struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PayloadSpec {
    /// The Rust struct (`FragmentBeat`).
    pub rust: &'static str,
    /// What one beat is.
    pub doc: &'static str,
    /// Fields, most significant first.
    pub fields: &'static [FieldSpec],
    /// Zero bits inserted after a field: `(field name, bits)`.
    pub pads: &'static [(&'static str, u32)],
}

impl PayloadSpec {
    /// Packed width in bits, padding included.
    pub fn width(&self) -> u32 {
        self.fields.iter().map(FieldSpec::bits).sum::<u32>()
            + self.pads.iter().map(|p| p.1).sum::<u32>()
    }

    /// Padding after `field`.
    fn pad_after(&self, field: &str) -> u32 {
        self.pads.iter().filter(|p| p.0 == field).map(|p| p.1).sum()
    }

    /// Every element as `(name, lsb, width)`, most significant first, padding left out.
    pub fn layout(&self) -> Vec<(String, u32, u32)> {
        let mut lsb = self.width();
        let mut out = Vec::new();
        for f in self.fields {
            for i in (0..f.count).rev() {
                lsb -= f.width;
                out.push((f.elem_name(i), lsb, f.width));
            }
            lsb -= self.pad_after(f.name);
        }
        out
    }

    /// SystemVerilog `typedef struct packed` name (`fragment_beat_t`).
    pub fn sv_type(&self) -> String {
        format!("{}_t", snake(self.rust))
    }

    /// The C struct of the C ABI (`pica_fragment_beat_t`).
    pub fn c_type(&self) -> String {
        format!("pica_{}_t", snake(self.rust))
    }

    /// The fields of the C struct: natural C layout (each member aligned to its own size,
    /// the struct to its largest member), table order, element sizes from the Rust types
    /// ([`FieldSpec::bytes`]), so a `u64` cycle stays 64 bits where the packed form keeps 32.
    /// A 16-byte element is two `uint64_t`, the low half first.
    pub fn c_fields(&self) -> Vec<CField> {
        let mut off = 0u32;
        self.fields
            .iter()
            .map(|f| {
                let align = f.bytes.min(8);
                off = off.div_ceil(align) * align;
                let c = CField {
                    spec: *f,
                    offset: off,
                };
                off += f.bytes * f.count;
                c
            })
            .collect()
    }

    /// `sizeof` of the C struct.
    pub fn c_size(&self) -> u32 {
        let align = self
            .fields
            .iter()
            .map(|f| f.bytes.min(8))
            .max()
            .unwrap_or(1);
        let end = self
            .c_fields()
            .last()
            .map_or(0, |c| c.offset + c.spec.bytes * c.spec.count);
        end.div_ceil(align) * align
    }
}

/// One member of a channel's C struct ([`PayloadSpec::c_fields`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CField {
    /// The table field.
    pub spec: FieldSpec,
    /// `offsetof` in the C struct.
    pub offset: u32,
}

impl CField {
    /// The C member declaration (`uint32_t attr[24]`, `uint64_t raw[2]`, `bool end`).
    pub fn c_decl(&self) -> String {
        let f = &self.spec;
        let signed = f.json == Json::Signed;
        let (ty, per) = match (f.bytes, signed, f.json) {
            (1, _, Json::Bool) => ("bool", 1),
            (1, false, _) => ("uint8_t", 1),
            (1, true, _) => ("int8_t", 1),
            (2, false, _) => ("uint16_t", 1),
            (2, true, _) => ("int16_t", 1),
            (4, false, _) => ("uint32_t", 1),
            (4, true, _) => ("int32_t", 1),
            (8, false, _) => ("uint64_t", 1),
            (8, true, _) => ("int64_t", 1),
            (n, _, _) => ("uint64_t", n / 8),
        };
        let n = f.count * per;
        let name = c_name(f.name);
        match f.elem {
            Elem::VertexSemantic => format!(
                "{ty} {name}[{}][{}]",
                f.count / crate::pipe::NUM_SEMANTICS as u32,
                crate::pipe::NUM_SEMANTICS
            ),
            _ if n > 1 => format!("{ty} {name}[{n}]"),
            _ => format!("{ty} {name}"),
        }
    }
}

/// C keywords a field name could collide with get `_f` appended.
fn c_name(name: &str) -> String {
    const C_KEYWORDS: &[&str] = &[
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "int", "long", "register", "return",
        "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned",
        "void", "volatile", "while", "bool",
    ];
    if C_KEYWORDS.contains(&name) {
        format!("{name}_f")
    } else {
        name.to_string()
    }
}

/// `FragmentBeat` → `fragment_beat`.
fn snake(camel: &str) -> String {
    let mut s = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(c.to_ascii_lowercase());
    }
    s
}

/// A beat struct of the channel table.
pub trait Payload {
    /// Its row of the table.
    const SPEC: &'static PayloadSpec;
    /// Every element's value in table order (one per element of each field; not yet masked
    /// to the field width).
    fn values(&self, out: &mut Vec<u128>);

    /// The packed beat: `(element name, width, value masked to the width)`, most significant
    /// first, padding included as unnamed zero entries.
    fn packed(&self) -> Vec<(String, u32, u128)> {
        let spec = Self::SPEC;
        let mut vals = Vec::with_capacity(32);
        self.values(&mut vals);
        let mut out = Vec::with_capacity(vals.len() + spec.pads.len());
        let mut it = vals.into_iter();
        for f in spec.fields {
            // Element 0 is the least significant: `name[i]` of the SV packed array.
            let elems: Vec<u128> = (0..f.count).map(|_| it.next().unwrap_or(0)).collect();
            for (i, v) in elems.iter().enumerate().rev() {
                out.push((f.elem_name(i as u32), f.width, v & mask(f.width)));
            }
            let pad = spec.pad_after(f.name);
            if pad > 0 {
                out.push((String::new(), pad, 0));
            }
        }
        out
    }

    /// One `.hex` line (no newline): the packed bits, zero-extended to whole hex digits.
    fn hex_line(&self) -> String {
        pack_hex(&self.packed())
    }

    /// The packed bits as 32-bit words, word 0 least significant: the `svBitVecVal` layout
    /// of a SystemVerilog DPI `output bit [W-1:0]` (`W` = [`PayloadSpec::width`]), so a
    /// bench casts it straight to the channel's `pica_chan_pkg` struct.
    fn packed_words(&self) -> Vec<u32> {
        let mut words = vec![0u32; Self::SPEC.width().div_ceil(32) as usize];
        let mut lsb = Self::SPEC.width();
        for (_, width, value) in self.packed() {
            lsb -= width;
            for b in 0..width {
                if (value >> b) & 1 == 1 {
                    let bit = lsb + b;
                    words[(bit / 32) as usize] |= 1 << (bit % 32);
                }
            }
        }
        words
    }

    /// The beat as the bytes of its C struct ([`PayloadSpec::c_fields`], little-endian
    /// members, zero padding), `PayloadSpec::c_size` bytes.
    fn c_bytes(&self) -> Vec<u8> {
        let spec = Self::SPEC;
        let mut out = vec![0u8; spec.c_size() as usize];
        let mut vals = Vec::with_capacity(32);
        self.values(&mut vals);
        let mut it = vals.into_iter();
        for c in spec.c_fields() {
            let n = c.spec.bytes as usize;
            for i in 0..c.spec.count as usize {
                let v = it.next().unwrap_or(0).to_le_bytes();
                let at = c.offset as usize + i * n;
                if let (Some(dst), Some(src)) = (out.get_mut(at..at + n), v.get(..n)) {
                    dst.copy_from_slice(src);
                }
            }
        }
        out
    }

    /// Every element's value in table order as the Rust struct holds it (not masked to the
    /// packed width: a `u64` cycle keeps its high bits), grouped per field.
    fn field_values(&self) -> Vec<(&'static FieldSpec, Vec<u128>)> {
        let mut vals = Vec::with_capacity(32);
        self.values(&mut vals);
        let mut it = vals.into_iter();
        Self::SPEC
            .fields
            .iter()
            .map(|f| (f, (0..f.count).map(|_| it.next().unwrap_or(0)).collect()))
            .collect()
    }

    /// One `.jsonl` object: `{"channel": …}` is added by the caller; field values per
    /// [`Json`], arrays as lists (the vertex semantics as a list of three lists).
    fn json_fields(&self) -> Map<String, Value> {
        let spec = Self::SPEC;
        let mut vals = Vec::with_capacity(32);
        self.values(&mut vals);
        let mut it = vals.into_iter();
        let mut m = Map::new();
        for f in spec.fields {
            let elems: Vec<Value> = (0..f.count)
                .map(|_| json_value(f, it.next().unwrap_or(0) & mask(f.width)))
                .collect();
            let v = match f.elem {
                Elem::Scalar => elems.into_iter().next().unwrap_or(Value::Null),
                Elem::VertexSemantic => Value::Array(
                    elems
                        .chunks(crate::pipe::NUM_SEMANTICS)
                        .map(|c| Value::Array(c.to_vec()))
                        .collect(),
                ),
                _ => Value::Array(elems),
            };
            m.insert(f.name.to_string(), v);
        }
        m
    }
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

fn json_value(f: &FieldSpec, v: u128) -> Value {
    match f.json {
        Json::Dec => json!(v as u64),
        Json::Signed => {
            let shift = 128 - f.width;
            json!(((v << shift) as i128 >> shift) as i64)
        }
        Json::Hex => Value::String(format!("0x{:0w$x}", v, w = f.width.div_ceil(4) as usize)),
        Json::HexMin(n) => Value::String(format!("0x{:0w$x}", v, w = n as usize)),
        Json::Bool => json!(v != 0),
    }
}

/// Packs `(name, width, value)` entries, most significant first, into hex digits
/// (zero-extended on the left to whole digits).
pub fn pack_hex(fields: &[(String, u32, u128)]) -> String {
    let total: u32 = fields.iter().map(|f| f.1).sum();
    let digits = total.div_ceil(4) as usize;
    let mut bits: Vec<bool> = vec![false; digits * 4 - total as usize];
    for (_, width, value) in fields {
        bits.extend((0..*width).rev().map(|i| (value >> i) & 1 == 1));
    }
    bits.chunks(4)
        .map(|c| {
            let n = c.iter().fold(0u32, |a, &b| a << 1 | u32::from(b));
            char::from_digit(n, 16).unwrap_or('0')
        })
        .collect()
}

/// Values a table field can have: each yields its elements as `u128`.
pub trait Lanes {
    /// Appends the elements.
    fn lanes(&self, out: &mut Vec<u128>);
}

macro_rules! scalar_lanes {
    ($($t:ty),*) => {$(
        impl Lanes for $t {
            fn lanes(&self, out: &mut Vec<u128>) {
                out.push(*self as u128);
            }
        }
    )*};
}
scalar_lanes!(u8, u16, u32, u64, u128);

impl Lanes for i32 {
    fn lanes(&self, out: &mut Vec<u128>) {
        // Two's complement of the field width: the packer masks.
        out.push(u128::from(*self as u32));
    }
}

impl Lanes for bool {
    fn lanes(&self, out: &mut Vec<u128>) {
        out.push(u128::from(*self));
    }
}

impl<T: Lanes, const N: usize> Lanes for [T; N] {
    fn lanes(&self, out: &mut Vec<u128>) {
        for x in self {
            x.lanes(out);
        }
    }
}

/// Declares the channel table: one beat struct per row, with `Payload` and the table entry.
///
/// ```text
/// /// doc of the beat
/// FragmentBeat pads[after_field bits, ...] {
///     /// doc of the field
///     field: RustType = WIDTH [COUNT] Elem Json;   // [COUNT] only for arrays
/// }
/// ```
#[macro_export]
macro_rules! channels {
    ($(
        $(#[doc = $bdoc:literal])+
        $beat:ident pads [$($pad_after:ident $pad_bits:literal),*] {
            $(
                $(#[doc = $fdoc:literal])+
                $field:ident : $ty:ty = $width:literal $([$count:literal])? $elem:ident $json:ident $(($digits:literal))?;
            )+
        }
    )+) => {
        $(
            $(#[doc = $bdoc])+
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
            pub struct $beat {
                $( $(#[doc = $fdoc])+ pub $field: $ty, )+
            }

            impl $crate::chan::Payload for $beat {
                const SPEC: &'static $crate::chan::PayloadSpec = &$crate::chan::PayloadSpec {
                    rust: stringify!($beat),
                    doc: concat!($($bdoc),+),
                    fields: &[$(
                        $crate::chan::FieldSpec {
                            name: stringify!($field),
                            width: $width,
                            count: $crate::channels!(@count $($count)?),
                            elem: $crate::chan::Elem::$elem,
                            json: $crate::chan::Json::$json $(($digits))?,
                            doc: concat!($($fdoc),+),
                            bytes: (core::mem::size_of::<$ty>()
                                / $crate::channels!(@count $($count)?) as usize)
                                as u32,
                        },
                    )+],
                    pads: &[$((stringify!($pad_after), $pad_bits)),*],
                };
                fn values(&self, out: &mut Vec<u128>) {
                    $( $crate::chan::Lanes::lanes(&self.$field, out); )+
                }
            }
        )+

        /// Every payload of the channel table, in declaration order.
        pub static PAYLOADS: &[&$crate::chan::PayloadSpec] =
            &[$(<$beat as $crate::chan::Payload>::SPEC),+];
    };
    (@count) => { 1 };
    (@count $c:literal) => { $c };
}

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
    use super::*;
    use crate::beat::{Channel, FragmentBeat, RegWriteBeat};

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
        assert_eq!(PAYLOADS_ALL().len(), 8);
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
