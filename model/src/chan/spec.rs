//! The vocabulary of the channel table: what a payload row declares ([`PayloadSpec`],
//! [`FieldSpec`]), the trait every beat struct implements ([`Payload`]) and the
//! [`crate::channels!`] macro that declares them. It names no channel: the table itself
//! ([`crate::beat`]) is written in it and the generators of [`super`] read the table, so this
//! part sits below both.

use serde_json::{json, Map, Value};

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
    pub(super) fn pad_after(&self, field: &str) -> u32 {
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
pub(super) fn c_name(name: &str) -> String {
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
pub(super) fn snake(camel: &str) -> String {
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

pub(super) fn json_value(f: &FieldSpec, v: u128) -> Value {
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

            impl $crate::chan::spec::Payload for $beat {
                const SPEC: &'static $crate::chan::spec::PayloadSpec = &$crate::chan::spec::PayloadSpec {
                    rust: stringify!($beat),
                    doc: concat!($($bdoc),+),
                    fields: &[$(
                        $crate::chan::spec::FieldSpec {
                            name: stringify!($field),
                            width: $width,
                            count: $crate::channels!(@count $($count)?),
                            elem: $crate::chan::spec::Elem::$elem,
                            json: $crate::chan::spec::Json::$json $(($digits))?,
                            doc: concat!($($fdoc),+),
                            bytes: (core::mem::size_of::<$ty>()
                                / $crate::channels!(@count $($count)?) as usize)
                                as u32,
                        },
                    )+],
                    pads: &[$((stringify!($pad_after), $pad_bits)),*],
                };
                fn values(&self, out: &mut Vec<u128>) {
                    $( $crate::chan::spec::Lanes::lanes(&self.$field, out); )+
                }
            }
        )+

        /// Every payload of the channel table, in declaration order.
        pub static PAYLOADS: &[&$crate::chan::spec::PayloadSpec] =
            &[$(<$beat as $crate::chan::spec::Payload>::SPEC),+];
    };
    (@count) => { 1 };
    (@count $c:literal) => { $c };
}
