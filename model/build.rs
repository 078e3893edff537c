//! Build script of pica-model: reads the register table (`regs/registers.toml`), checks it, and
//! generates the Rust side of it (`$OUT_DIR/regs_generated.rs`, included by `src/regs/`).
//!
//! Everything the table says becomes data or code here: the per-ID `REGISTERS` array, the layout,
//! enum and alias statics, the typed accessor structs and enums, the `id` constants and the name
//! index. The table is checked first; a bad table fails the build with a message naming the entry.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Deserialize;

const TABLE: &str = "regs/registers.toml";
const REG_COUNT: usize = 0x300;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    ids: Vec<IdEntry>,
    #[serde(default)]
    alias: Vec<Alias>,
    #[serde(default)]
    register: Vec<Layout>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdEntry {
    id: u32,
    name: String,
    #[serde(default)]
    official: String,
    #[serde(default)]
    uncertain: bool,
    #[serde(default)]
    note: String,
    #[serde(default)]
    effect: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Alias {
    name: String,
    first: u32,
    count: u32,
    description: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Layout {
    name: String,
    #[serde(rename = "struct")]
    struct_name: String,
    ids: Vec<u32>,
    description: String,
    fields: Vec<Field>,
    #[serde(default, rename = "enum")]
    enums: Vec<Enum>,
    #[serde(default, rename = "entry")]
    entries: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    #[serde(rename = "struct")]
    struct_name: String,
    elements: u32,
    description: String,
    fields: Vec<Field>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Field {
    bits: String,
    name: String,
    kind: String,
    #[serde(default, rename = "enum")]
    enum_name: Option<String>,
    #[serde(default)]
    value: Option<u32>,
    desc: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Enum {
    name: String,
    desc: String,
    values: Vec<EnumVal>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnumVal {
    value: u32,
    name: String,
    desc: String,
}

/// A field after checking: bit range and kind resolved.
struct Checked<'a> {
    f: &'a Field,
    lsb: u32,
    width: u32,
    kind: Kind,
}

#[derive(Clone, PartialEq)]
enum Kind {
    Unsigned,
    Signed,
    Bool,
    F24,
    F16,
    F20,
    F31,
    Fixed(u32, u32, u32),
    Enum(String),
    Trigger,
    Const(u32),
    Data,
}

#[path = "src/regs/naming.rs"]
mod naming;
use naming::upper_snake;

fn main() {
    println!("cargo:rerun-if-changed={TABLE}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/regs/naming.rs");
    let text = std::fs::read_to_string(TABLE)
        .unwrap_or_else(|e| fail(&format!("cannot read {TABLE}: {e}")));
    let file: File = toml::from_str(&text).unwrap_or_else(|e| fail(&format!("{TABLE}: {e}")));
    let code = generate(&file);
    let out =
        PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_else(|| fail("OUT_DIR is not set")));
    std::fs::write(out.join("regs_generated.rs"), code)
        .unwrap_or_else(|e| fail(&format!("cannot write regs_generated.rs: {e}")));
}

fn fail(msg: &str) -> ! {
    eprintln!("error: register table: {msg}");
    std::process::exit(1)
}

// ------------------------------------------------------------------------------------------------
// Names
// ------------------------------------------------------------------------------------------------

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

fn is_snake(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some('a'..='z'))
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !s.contains("__")
        && !s.ends_with('_')
        && !KEYWORDS.contains(&s)
}

fn is_camel(s: &str) -> bool {
    matches!(s.chars().next(), Some('A'..='Z'))
        && s.chars().all(|c| c.is_ascii_alphanumeric())
        && !KEYWORDS.contains(&s)
}

fn lit(s: &str) -> String {
    format!("{s:?}")
}

/// Doc attributes for a (possibly multi-paragraph) text. Square brackets and `<` are escaped so
/// that rustdoc does not read them as links or HTML.
fn docs(out: &mut String, indent: &str, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    for line in text.split('\n') {
        let line = line
            .trim_end()
            .replace('[', "\\[")
            .replace(']', "\\]")
            .replace('<', "\\<");
        let _ = writeln!(out, "{indent}#[doc = {}]", lit(&line));
    }
}

fn hex(v: u32) -> String {
    format!("0x{v:x}")
}

// ------------------------------------------------------------------------------------------------
// Checking
// ------------------------------------------------------------------------------------------------

fn parse_bits(s: &str, ctx: &str) -> (u32, u32) {
    let parse = |t: &str| {
        t.trim()
            .parse::<u32>()
            .unwrap_or_else(|_| fail(&format!("{ctx}: bad bit range {s:?}")))
    };
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (parse(a), parse(b)),
        None => (parse(s), parse(s)),
    };
    if lo > hi || hi > 31 {
        fail(&format!("{ctx}: bit range {s:?} is not inside 0-31"));
    }
    (lo, hi - lo + 1)
}

fn parse_kind(
    f: &Field,
    width: u32,
    lsb: u32,
    ctx: &str,
    enums: &BTreeMap<String, (&Enum, String)>,
) -> Kind {
    let k = f.kind.as_str();
    let need = |w: u32| {
        if width != w {
            fail(&format!(
                "{ctx}: kind {k} needs a {w}-bit field, not {width} bits"
            ));
        }
    };
    if f.enum_name.is_some() && k != "enum" {
        fail(&format!("{ctx}: `enum` given for a {k} field"));
    }
    if f.value.is_some() && k != "const" {
        fail(&format!("{ctx}: `value` given for a {k} field"));
    }
    match k {
        "unsigned" => Kind::Unsigned,
        "signed" => {
            if width < 2 {
                fail(&format!("{ctx}: a signed field needs at least 2 bits"));
            }
            Kind::Signed
        }
        "bool" => {
            need(1);
            Kind::Bool
        }
        "f24" => {
            need(24);
            Kind::F24
        }
        "f16" => {
            need(16);
            Kind::F16
        }
        "f20" => {
            need(20);
            Kind::F20
        }
        "f31" => {
            need(31);
            if lsb != 1 {
                fail(&format!("{ctx}: an f31 field sits in bits 1-31"));
            }
            Kind::F31
        }
        "enum" => {
            let name = f
                .enum_name
                .clone()
                .unwrap_or_else(|| fail(&format!("{ctx}: enum field without `enum`")));
            let Some((e, _)) = enums.get(&name) else {
                fail(&format!("{ctx}: unknown enum {name}"))
            };
            for v in &e.values {
                if width < 32 && v.value >> width != 0 {
                    fail(&format!(
                        "{ctx}: enum {name} value {} does not fit {width} bits",
                        v.value
                    ));
                }
            }
            Kind::Enum(name)
        }
        "trigger" => Kind::Trigger,
        "const" => {
            let v = f
                .value
                .unwrap_or_else(|| fail(&format!("{ctx}: const field without `value`")));
            if width < 32 && v >> width != 0 {
                fail(&format!(
                    "{ctx}: const value {v:#x} does not fit {width} bits"
                ));
            }
            Kind::Const(v)
        }
        "data" => Kind::Data,
        _ => {
            let Some(rest) = k.strip_prefix("fixed") else {
                fail(&format!("{ctx}: unknown kind {k:?}"))
            };
            let parts: Vec<u32> = rest
                .split('.')
                .map(|p| {
                    p.parse()
                        .unwrap_or_else(|_| fail(&format!("{ctx}: bad fixed-point kind {k:?}")))
                })
                .collect();
            if parts.len() != 3 || parts[0] > 1 {
                fail(&format!("{ctx}: bad fixed-point kind {k:?}"));
            }
            let total = parts[0] + parts[1] + parts[2];
            if width > total || width == 0 {
                fail(&format!(
                    "{ctx}: {k} has {total} bits but the field has {width}"
                ));
            }
            Kind::Fixed(parts[0], parts[1], parts[2])
        }
    }
}

fn check_fields<'a>(
    fields: &'a [Field],
    ctx: &str,
    enums: &BTreeMap<String, (&Enum, String)>,
) -> Vec<Checked<'a>> {
    let mut used = 0u64;
    let mut names = BTreeSet::new();
    let mut out = Vec::new();
    for f in fields {
        let fctx = format!("{ctx} field {}", f.name);
        if !is_snake(&f.name) {
            fail(&format!("{fctx}: field names are snake_case identifiers"));
        }
        if !names.insert(f.name.as_str()) {
            fail(&format!("{fctx}: duplicate field name"));
        }
        let (lsb, width) = parse_bits(&f.bits, &fctx);
        let mask = ((1u64 << width) - 1) << lsb;
        if used & mask != 0 {
            fail(&format!("{fctx}: bits {} overlap another field", f.bits));
        }
        used |= mask;
        let kind = parse_kind(f, width, lsb, &fctx, enums);
        out.push(Checked {
            f,
            lsb,
            width,
            kind,
        });
    }
    out
}

const EFFECTS: &[(&str, &str)] = &[
    (
        "Trigger(Finalize)",
        "SideEffect::Trigger(Trigger::Finalize)",
    ),
    (
        "Trigger(DrawArrays)",
        "SideEffect::Trigger(Trigger::DrawArrays)",
    ),
    (
        "Trigger(DrawElements)",
        "SideEffect::Trigger(Trigger::DrawElements)",
    ),
    ("Trigger(VtxFunc)", "SideEffect::Trigger(Trigger::VtxFunc)"),
    (
        "Trigger(CodeTransferEnd(Vsh))",
        "SideEffect::Trigger(Trigger::CodeTransferEnd(ShaderBlock::Vsh))",
    ),
    (
        "Trigger(CodeTransferEnd(Gsh))",
        "SideEffect::Trigger(Trigger::CodeTransferEnd(ShaderBlock::Gsh))",
    ),
    (
        "Trigger(CmdbufJump(0))",
        "SideEffect::Trigger(Trigger::CmdbufJump(0))",
    ),
    (
        "Trigger(CmdbufJump(1))",
        "SideEffect::Trigger(Trigger::CmdbufJump(1))",
    ),
    (
        "Trigger(EarlyDepthClear)",
        "SideEffect::Trigger(Trigger::EarlyDepthClear)",
    ),
    (
        "Trigger(RestartPrimitive)",
        "SideEffect::Trigger(Trigger::RestartPrimitive)",
    ),
    (
        "Trigger(FramebufferFlush)",
        "SideEffect::Trigger(Trigger::FramebufferFlush)",
    ),
    (
        "Trigger(FramebufferInvalidate)",
        "SideEffect::Trigger(Trigger::FramebufferInvalidate)",
    ),
];

fn fifo_expr(s: &str) -> Option<String> {
    let block = |b: &str| match b {
        "Vsh" => Some("ShaderBlock::Vsh"),
        "Gsh" => Some("ShaderBlock::Gsh"),
        _ => None,
    };
    let inner = |pfx: &str| {
        s.strip_prefix(pfx)
            .and_then(|r| r.strip_suffix(')'))
            .and_then(block)
    };
    if let Some(b) = inner("FloatUniform(") {
        return Some(format!("Fifo::FloatUniform({b})"));
    }
    if let Some(b) = inner("Code(") {
        return Some(format!("Fifo::Code({b})"));
    }
    if let Some(b) = inner("OpDesc(") {
        return Some(format!("Fifo::OpDesc({b})"));
    }
    match s {
        "ProcTexLut" | "FogLut" | "LightingLut" | "GasLut" | "FixedAttrib" => {
            Some(format!("Fifo::{s}"))
        }
        _ => None,
    }
}

/// The Rust expression of a side-effect spelling, and the FIFO it concerns (for the cross-checks).
fn effect_expr(s: &str, ctx: &str) -> (String, Option<(bool, String)>) {
    if s.is_empty() || s == "None" {
        return ("SideEffect::None".into(), None);
    }
    if let Some((_, e)) = EFFECTS.iter().find(|(k, _)| *k == s) {
        return ((*e).into(), None);
    }
    for (pfx, is_index) in [("FifoIndex(", true), ("FifoData(", false)] {
        if let Some(f) = s
            .strip_prefix(pfx)
            .and_then(|r| r.strip_suffix(')'))
            .and_then(fifo_expr)
        {
            let v = if is_index { "FifoIndex" } else { "FifoData" };
            return (format!("SideEffect::{v}({f})"), Some((is_index, f)));
        }
    }
    fail(&format!("{ctx}: unknown effect {s:?}"))
}

// ------------------------------------------------------------------------------------------------
// Generation
// ------------------------------------------------------------------------------------------------

fn kind_expr(k: &Kind) -> String {
    match k {
        Kind::Unsigned => "FieldKind::Unsigned".into(),
        Kind::Signed => "FieldKind::Signed".into(),
        Kind::Bool => "FieldKind::Bool".into(),
        Kind::F24 => "FieldKind::F24".into(),
        Kind::F16 => "FieldKind::F16".into(),
        Kind::F20 => "FieldKind::F20".into(),
        Kind::F31 => "FieldKind::F31".into(),
        Kind::Fixed(s, i, f) => format!("FieldKind::Fixed {{ sign: {s}, int: {i}, frac: {f} }}"),
        Kind::Enum(e) => format!("FieldKind::Enum({e}::VALUES)"),
        Kind::Trigger => "FieldKind::Trigger".into(),
        Kind::Const(v) => format!("FieldKind::Const({})", hex(*v)),
        Kind::Data => "FieldKind::Data".into(),
    }
}

fn kind_words(k: &Kind) -> String {
    match k {
        Kind::Unsigned => "unsigned".into(),
        Kind::Signed => "signed, two's complement".into(),
        Kind::Bool => "flag".into(),
        Kind::F24 => "float1.7.16".into(),
        Kind::F16 => "float1.5.10, raw bits".into(),
        Kind::F20 => "float1.7.12, raw bits".into(),
        Kind::F31 => "float1.7.23 in bits 1-31, raw bits of the field".into(),
        Kind::Fixed(s, i, f) => format!("fixed{s}.{i}.{f}, raw bits"),
        Kind::Enum(e) => format!("enum {e}"),
        Kind::Trigger => "trigger".into(),
        Kind::Const(v) => format!("must be {v:#x}"),
        Kind::Data => "raw data".into(),
    }
}

fn field_infos(out: &mut String, fields: &[Checked]) {
    out.push_str("&[\n");
    for c in fields {
        let enum_type = match &c.kind {
            Kind::Enum(e) => format!("Some({})", lit(e)),
            _ => "None".into(),
        };
        let _ = writeln!(
            out,
            "    FieldInfo {{ name: {}, lsb: {}, width: {}, kind: {}, enum_type: {}, description: {} }},",
            lit(&c.f.name),
            c.lsb,
            c.width,
            kind_expr(&c.kind),
            enum_type,
            lit(&c.f.desc)
        );
    }
    out.push(']');
}

fn bits_text(lsb: u32, width: u32) -> String {
    if width == 1 {
        format!("bit {lsb}")
    } else {
        format!("bits {}-{}", lsb, lsb + width - 1)
    }
}

/// `(self.0 >> lsb) & mask`, without no-op shifts or masks.
fn extract(lsb: u32, width: u32) -> String {
    if lsb + width == 32 {
        return if lsb == 0 {
            "self.0".to_string()
        } else {
            format!("self.0 >> {lsb}")
        };
    }
    let shifted = if lsb == 0 {
        "self.0".to_string()
    } else {
        format!("(self.0 >> {lsb})")
    };
    format!("{shifted} & {}", hex(((1u64 << width) - 1) as u32))
}

/// `Self((self.0 & !M) | ((v << lsb) & M))`, without no-op shifts or masks.
fn insert(lsb: u32, width: u32, v: &str) -> String {
    if width == 32 {
        return format!("Self({v})");
    }
    let m = (((1u64 << width) - 1) << lsb) as u32;
    let shifted = if lsb == 0 {
        v.to_string()
    } else {
        format!("({v} << {lsb})")
    };
    let masked = if lsb + width == 32 {
        shifted
    } else {
        format!("({shifted} & {})", hex(m))
    };
    format!("Self((self.0 & !{}) | {masked})", hex(m))
}

struct TypeGen<'a> {
    struct_name: &'a str,
    title: String,
    description: &'a str,
    ids: &'a [u32],
    fields: Vec<Checked<'a>>,
    register_name: &'a str,
}

fn gen_struct(out: &mut String, t: &TypeGen, tests: &mut String) {
    let s = t.struct_name;
    let _ = writeln!(
        out,
        "/// {}",
        t.title.replace('[', "\\[").replace(']', "\\]")
    );
    out.push_str("///\n");
    docs(out, "", t.description);
    let ids: Vec<String> = t.ids.iter().map(|i| format!("0x{i:03X}")).collect();
    out.push_str("///\n");
    let _ = writeln!(out, "/// IDs: {}.", ids.join(", "));
    out.push_str("#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]\n");
    let _ = writeln!(out, "pub struct {s}(pub u32);\n");

    let const_mask: u32 = t
        .fields
        .iter()
        .filter(|c| matches!(c.kind, Kind::Const(_)))
        .map(|c| (((1u64 << c.width) - 1) << c.lsb) as u32)
        .fold(0, |a, b| a | b);
    let const_value: u32 = t
        .fields
        .iter()
        .filter_map(|c| {
            if let Kind::Const(v) = c.kind {
                Some(v << c.lsb)
            } else {
                None
            }
        })
        .fold(0, |a, b| a | b);
    let _ = writeln!(out, "impl {s} {{");
    out.push_str(
        "    /// The bits the seed gives a required constant value (the `const` fields).\n",
    );
    let _ = writeln!(out, "    pub const CONST_MASK: u32 = {};", hex(const_mask));
    out.push_str("    /// The required value of the [`Self::CONST_MASK`] bits.\n");
    let _ = writeln!(
        out,
        "    pub const CONST_VALUE: u32 = {};",
        hex(const_value)
    );

    let _ = writeln!(tests, "    {{\n        let r = {s}::from_raw(v);");
    let _ = writeln!(
        tests,
        "        if r.raw() != v {{ return Err(format!(\"{s}: raw round trip of {{v:#x}}\")); }}"
    );
    for c in &t.fields {
        let n = &c.f.name;
        let bits = bits_text(c.lsb, c.width);
        let desc =
            c.f.desc
                .replace('[', "\\[")
                .replace(']', "\\]")
                .replace('<', "\\<");
        let mask = ((1u64 << c.width) - 1) as u32;
        // `w` masked to the field width (no no-op mask for 32-bit fields)
        let wmask = if c.width == 32 {
            "w".to_string()
        } else {
            format!("w & {}", hex(mask))
        };
        let place = (((1u64 << c.width) - 1) << c.lsb) as u32;
        let (ty, get, set, cnst, expect) = match &c.kind {
            Kind::Bool => (
                "bool".to_string(),
                format!("{} != 0", extract(c.lsb, c.width)),
                insert(c.lsb, c.width, "(v as u32)"),
                true,
                "w & 1 != 0".to_string(),
            ),
            Kind::Signed => {
                let top = 32 - c.lsb - c.width;
                let up = if top == 0 {
                    "self.0".to_string()
                } else {
                    format!("(self.0 << {top})")
                };
                let get = if c.width == 32 {
                    "self.0 as i32".to_string()
                } else {
                    format!("({up} as i32) >> {}", 32 - c.width)
                };
                (
                    "i32".to_string(),
                    get,
                    insert(c.lsb, c.width, "(v as u32)"),
                    true,
                    format!("sign_extend({}, {})", wmask, c.width),
                )
            }
            Kind::F24 => (
                "crate::num::F24".to_string(),
                format!("crate::num::F24::from_bits({})", extract(c.lsb, c.width)),
                insert(c.lsb, c.width, "v.bits()"),
                false,
                "crate::num::F24::from_bits(w & 0xffffff)".to_string(),
            ),
            Kind::Enum(e) => (
                e.clone(),
                format!("{e}::from_bits({})", extract(c.lsb, c.width)),
                insert(c.lsb, c.width, "v.bits()"),
                true,
                format!("{e}::from_bits({wmask})"),
            ),
            _ => (
                "u32".to_string(),
                extract(c.lsb, c.width),
                insert(c.lsb, c.width, "v"),
                true,
                wmask.clone(),
            ),
        };
        let kw = kind_words(&c.kind);
        let cfn = if cnst { "const fn" } else { "fn" };
        let _ = writeln!(
            out,
            "    #[doc = {}]",
            lit(&format!("{desc} ({bits}; {kw})."))
        );
        let _ = writeln!(
            out,
            "    pub {cfn} {n}(self) -> {ty} {{\n        {get}\n    }}"
        );
        let wdoc = match &c.kind {
            Kind::Signed
            | Kind::Unsigned
            | Kind::Trigger
            | Kind::Const(_)
            | Kind::Data
            | Kind::Fixed(..) => {
                format!("A copy with `{n}` ({bits}) set to `v`; bits of `v` beyond the field are dropped.")
            }
            Kind::F16 | Kind::F20 | Kind::F31 => {
                format!("A copy with the raw bits of `{n}` ({bits}) set to `v`; bits of `v` beyond the field are dropped.")
            }
            _ => format!("A copy with `{n}` ({bits}) set to `v`."),
        };
        let _ = writeln!(out, "    #[doc = {}]", lit(&wdoc));
        let _ = writeln!(
            out,
            "    pub {cfn} with_{n}(self, v: {ty}) -> Self {{\n        {set}\n    }}"
        );

        // Self-test body: the setter/getter pair round-trips and leaves the other bits alone.
        let _ = writeln!(
            tests,
            "        if r.with_{n}(r.{n}()) != r {{ return Err(format!(\"{s}.{n}: with(get) changed {{v:#x}}\")); }}"
        );
        let _ = writeln!(tests, "        let x = {expect};");
        let _ = writeln!(tests, "        let s2 = r.with_{n}(x);");
        let _ = writeln!(
            tests,
            "        if s2.{n}() != x {{ return Err(format!(\"{s}.{n}: with({{w:#x}}) then get differs\")); }}"
        );
        if place != u32::MAX {
            let _ = writeln!(
                tests,
                "        if s2.raw() & !{p} != v & !{p} {{ return Err(format!(\"{s}.{n}: with({{w:#x}}) touched other bits of {{v:#x}}\")); }}",
                p = hex(place)
            );
        }
    }
    out.push_str("}\n\n");
    tests.push_str("    }\n");

    let _ = writeln!(out, "impl Register for {s} {{");
    let _ = writeln!(
        out,
        "    const NAME: &'static str = {};",
        lit(t.register_name)
    );
    let _ = writeln!(
        out,
        "    const IDS: &'static [u16] = &[{}];",
        ids.join(", ")
    );
    out.push_str("    const FIELDS: &'static [FieldInfo] = ");
    field_infos(out, &t.fields);
    out.push_str(";\n");
    out.push_str("    fn from_raw(raw: u32) -> Self {\n        Self(raw)\n    }\n");
    out.push_str("    fn raw(self) -> u32 {\n        self.0\n    }\n}\n\n");
}

fn gen_enum(out: &mut String, e: &Enum, users: &[String], width: u32) {
    let _ = writeln!(
        out,
        "/// {}.",
        e.desc.replace('[', "\\[").replace(']', "\\]")
    );
    out.push_str("///\n");
    let _ = writeln!(
        out,
        "/// A {width}-bit field value of {}.",
        users.join(", ")
    );
    out.push_str("/// Encodings the seed does not describe decode to `Reserved(n)`.\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]\n");
    let _ = writeln!(out, "pub enum {} {{", e.name);
    for v in &e.values {
        let _ = writeln!(
            out,
            "    #[doc = {}]",
            lit(&format!("{} ({}).", v.desc, v.value))
        );
        let _ = writeln!(out, "    {},", v.name);
    }
    out.push_str("    /// An encoding the seed does not describe (the raw field value).\n    Reserved(u32),\n}\n\n");
    let _ = writeln!(out, "impl {} {{", e.name);
    out.push_str("    /// The encodings the seed describes.\n");
    out.push_str("    pub const VALUES: &'static [EnumValue] = &[\n");
    for v in &e.values {
        let _ = writeln!(
            out,
            "        EnumValue {{ value: {}, name: {}, description: {} }},",
            v.value,
            lit(&v.name),
            lit(&v.desc)
        );
    }
    out.push_str("    ];\n");
    out.push_str(
        "    /// Decodes a field value; values the seed does not describe give `Reserved`.\n",
    );
    out.push_str("    pub const fn from_bits(bits: u32) -> Self {\n        match bits {\n");
    for v in &e.values {
        let _ = writeln!(out, "            {} => Self::{},", v.value, v.name);
    }
    out.push_str("            other => Self::Reserved(other),\n        }\n    }\n");
    out.push_str("    /// The field value.\n");
    out.push_str("    pub const fn bits(self) -> u32 {\n        match self {\n");
    for v in &e.values {
        let _ = writeln!(out, "            Self::{} => {},", v.name, v.value);
    }
    out.push_str("            Self::Reserved(bits) => bits,\n        }\n    }\n");
    out.push_str(
        "    /// The variant name (`\"Reserved\"` for encodings the seed does not describe).\n",
    );
    out.push_str("    pub const fn name(self) -> &'static str {\n        match self {\n");
    for v in &e.values {
        let _ = writeln!(out, "            Self::{} => {},", v.name, lit(&v.name));
    }
    out.push_str("            Self::Reserved(_) => \"Reserved\",\n        }\n    }\n}\n\n");
    let _ = writeln!(out, "impl core::fmt::Display for {} {{", e.name);
    out.push_str(
        "    /// `Name (value)`, e.g. `BackCcw (2)`; `Reserved (n)` for undescribed encodings.\n",
    );
    out.push_str(
        "    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {\n        write!(f, \"{} ({})\", self.name(), self.bits())\n    }\n}\n\n",
    );
}

fn generate(file: &File) -> String {
    // ---- IDs
    if file.ids.len() != REG_COUNT {
        fail(&format!(
            "`ids` has {} entries, expected {REG_COUNT}",
            file.ids.len()
        ));
    }
    let mut names = BTreeSet::new();
    for (i, e) in file.ids.iter().enumerate() {
        if e.id as usize != i {
            fail(&format!(
                "`ids` entry {i} has id {:#x}; entries must be in ID order",
                e.id
            ));
        }
        let default = format!("GPUREG_{:04X}", e.id);
        let rest = e
            .name
            .strip_prefix("GPUREG_")
            .unwrap_or_else(|| fail(&format!("{:#05x}: name must start with GPUREG_", e.id)));
        if rest.is_empty()
            || !rest
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        {
            fail(&format!("{:#05x}: bad name {:?}", e.id, e.name));
        }
        if rest.len() == 4 && rest.chars().all(|c| c.is_ascii_hexdigit()) && e.name != default {
            fail(&format!(
                "{:#05x}: unnamed registers are called {default}",
                e.id
            ));
        }
        if !names.insert(e.name.clone()) {
            fail(&format!("{:#05x}: duplicate name {}", e.id, e.name));
        }
        if e.name == default && (!e.official.is_empty() || !e.effect.is_empty()) {
            fail(&format!(
                "{:#05x}: an unnamed register has an official name or effect",
                e.id
            ));
        }
    }

    // ---- Enums (global namespace)
    let mut enums: BTreeMap<String, (&Enum, String)> = BTreeMap::new();
    let mut type_names: BTreeSet<String> = BTreeSet::new();
    for l in &file.register {
        for e in &l.enums {
            if !is_camel(&e.name) {
                fail(&format!("enum {}: type names are CamelCase", e.name));
            }
            let mut vn = BTreeSet::new();
            let mut vv = BTreeSet::new();
            for v in &e.values {
                if !is_camel(&v.name) || v.name == "Reserved" {
                    fail(&format!("enum {}: bad variant name {:?}", e.name, v.name));
                }
                if !vn.insert(&v.name) || !vv.insert(v.value) {
                    fail(&format!(
                        "enum {}: duplicate variant {} / value {}",
                        e.name, v.name, v.value
                    ));
                }
            }
            if enums.insert(e.name.clone(), (e, l.name.clone())).is_some() {
                fail(&format!("enum {} is defined twice", e.name));
            }
            type_names.insert(e.name.clone());
        }
    }

    // ---- Layouts
    let mut layout_of: BTreeMap<u32, usize> = BTreeMap::new();
    let mut checked: Vec<Vec<Checked>> = Vec::new();
    let mut enum_users: BTreeMap<String, (Vec<String>, BTreeSet<u32>)> = BTreeMap::new();
    let mut entry_checked: Vec<Vec<Vec<Checked>>> = Vec::new();
    for (li, l) in file.register.iter().enumerate() {
        let ctx = format!("register {}", l.name);
        if !is_camel(&l.struct_name) || !type_names.insert(l.struct_name.clone()) {
            fail(&format!(
                "{ctx}: struct name {:?} is not a fresh CamelCase name",
                l.struct_name
            ));
        }
        if l.ids.is_empty() {
            fail(&format!("{ctx}: no IDs"));
        }
        for &id in &l.ids {
            if id as usize >= REG_COUNT {
                fail(&format!("{ctx}: ID {id:#x} is beyond 0x2FF"));
            }
            if let Some(o) = layout_of.insert(id, li) {
                fail(&format!(
                    "{ctx}: ID {id:#05x} is already described by {}",
                    file.register[o].name
                ));
            }
            if file.ids[id as usize].name == format!("GPUREG_{id:04X}") {
                fail(&format!("{ctx}: ID {id:#05x} has no name in `ids`"));
            }
        }
        let c = check_fields(&l.fields, &ctx, &enums);
        for f in &c {
            if let Kind::Enum(e) = &f.kind {
                let u = enum_users.entry(e.clone()).or_default();
                u.0.push(format!("`{}::{}`", l.struct_name, f.f.name));
                u.1.insert(f.width);
            }
        }
        checked.push(c);
        let mut ec = Vec::new();
        for en in &l.entries {
            let ectx = format!("{ctx} entry {}", en.name);
            if !is_camel(&en.struct_name) || !type_names.insert(en.struct_name.clone()) {
                fail(&format!(
                    "{ectx}: struct name {:?} is not a fresh CamelCase name",
                    en.struct_name
                ));
            }
            let c = check_fields(&en.fields, &ectx, &enums);
            if c.iter().any(|f| matches!(f.kind, Kind::Enum(_))) {
                fail(&format!(
                    "{ectx}: enum fields in LUT entries are not supported"
                ));
            }
            ec.push(c);
        }
        entry_checked.push(ec);
    }
    for (name, (e, _)) in &enums {
        match enum_users.get(name) {
            None => fail(&format!("enum {name} is not used by any field")),
            Some((_, widths)) if widths.len() != 1 => fail(&format!(
                "enum {name} is used by fields of different widths"
            )),
            _ => {}
        }
        let _ = e;
    }

    // ---- Aliases
    let mut alias_of: BTreeMap<u32, usize> = BTreeMap::new();
    for (ai, a) in file.alias.iter().enumerate() {
        if a.count < 2 || (a.first + a.count) as usize > REG_COUNT {
            fail(&format!("alias {}: bad range", a.name));
        }
        let first_effect = &file.ids[a.first as usize].effect;
        for id in a.first..a.first + a.count {
            if alias_of.insert(id, ai).is_some() {
                fail(&format!(
                    "alias {}: ID {id:#05x} is in two alias groups",
                    a.name
                ));
            }
            if file.ids[id as usize].effect != *first_effect || first_effect.is_empty() {
                fail(&format!(
                    "alias {}: ID {id:#05x} does not have the group's FIFO effect",
                    a.name
                ));
            }
        }
    }

    // ---- Effects: every FifoData has a FifoIndex for the same FIFO
    let mut index_fifos = BTreeSet::new();
    let mut data_fifos = BTreeMap::new();
    let mut effect_exprs = Vec::new();
    for e in &file.ids {
        let (expr, fifo) = effect_expr(&e.effect, &format!("{:#05x}", e.id));
        if let Some((is_index, f)) = fifo {
            if is_index {
                if !index_fifos.insert(f.clone()) {
                    fail(&format!("{:#05x}: a second index register for {f}", e.id));
                }
            } else {
                data_fifos.insert(f, e.id);
            }
        }
        effect_exprs.push(expr);
    }
    for (f, id) in &data_fifos {
        if !index_fifos.contains(f) {
            fail(&format!(
                "{id:#05x}: FIFO {f} has data registers but no index register"
            ));
        }
    }

    // ---- Emit
    let mut out = String::new();
    let mut tests = String::new();
    out.push_str(
        "// @generated by model/build.rs from model/regs/registers.toml. Do not edit.\n\n",
    );

    // enums
    for l in &file.register {
        for e in &l.enums {
            let (users, widths) = &enum_users[&e.name];
            gen_enum(&mut out, e, users, *widths.iter().next().unwrap_or(&0));
        }
    }

    // structs
    for (li, l) in file.register.iter().enumerate() {
        let t = TypeGen {
            struct_name: &l.struct_name,
            title: format!("Layout of {}.", l.name),
            description: &l.description,
            ids: &l.ids,
            fields: std::mem::take(&mut checked[li]),
            register_name: &l.name,
        };
        gen_struct(&mut out, &t, &mut tests);
        checked[li] = t.fields;
        for (ei, en) in l.entries.iter().enumerate() {
            let t = TypeGen {
                struct_name: &en.struct_name,
                title: format!(
                    "{}: one LUT entry written through {} ({} elements).",
                    en.name, l.name, en.elements
                ),
                description: &en.description,
                ids: &l.ids,
                fields: std::mem::take(&mut entry_checked[li][ei]),
                register_name: &en.name,
            };
            gen_struct(&mut out, &t, &mut tests);
            entry_checked[li][ei] = t.fields;
        }
    }

    // enum infos
    let _ = writeln!(
        out,
        "/// Every enum of the table, in table order.\npub static ENUMS: [EnumInfo; {}] = [",
        enums.len()
    );
    for l in &file.register {
        for e in &l.enums {
            let width = enum_users[&e.name].1.iter().next().copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "    EnumInfo {{ name: {}, key: {}, description: {}, width: {width}, values: {}::VALUES }},",
                lit(&e.name),
                lit(&upper_snake(&e.name)),
                lit(&e.desc),
                e.name
            );
        }
    }
    out.push_str("];\n\n");

    // layouts
    let _ = writeln!(
        out,
        "/// Every register layout of the table (one per seed section), in seed order.\npub static LAYOUTS: [LayoutInfo; {}] = [",
        file.register.len()
    );
    for (li, l) in file.register.iter().enumerate() {
        let ids: Vec<String> = l.ids.iter().map(|i| format!("0x{i:03X}")).collect();
        let _ = write!(
            out,
            "    LayoutInfo {{\n        name: {},\n        struct_name: {},\n        key: {},\n        ids: &[{}],\n        description: {},\n        fields: <{} as Register>::FIELDS,\n        entries: &[",
            lit(&l.name),
            lit(&l.struct_name),
            lit(&upper_snake(&l.struct_name)),
            ids.join(", "),
            lit(&l.description),
            l.struct_name
        );
        for (ei, en) in l.entries.iter().enumerate() {
            let _ = ei;
            let _ = write!(
                out,
                "\n            EntryFormat {{ name: {}, struct_name: {}, key: {}, elements: {}, description: {}, fields: <{} as Register>::FIELDS }},",
                lit(&en.name),
                lit(&en.struct_name),
                lit(&upper_snake(&en.struct_name)),
                en.elements,
                lit(&en.description),
                en.struct_name
            );
        }
        if !l.entries.is_empty() {
            out.push_str("\n        ");
        }
        out.push_str("],\n    },\n");
        let _ = li;
    }
    out.push_str("];\n\n");

    // aliases
    let _ = writeln!(
        out,
        "/// Every alias group of the table.\npub static ALIAS_GROUPS: [AliasGroup; {}] = [",
        file.alias.len()
    );
    let alias_expr = |a: &Alias| {
        format!(
            "AliasGroup {{ name: {}, first: 0x{:03X}, count: {}, description: {} }}",
            lit(&a.name),
            a.first,
            a.count,
            lit(&a.description)
        )
    };
    for a in &file.alias {
        let _ = writeln!(out, "    {},", alias_expr(a));
    }
    out.push_str("];\n\n");

    // registers
    out.push_str("/// Every register ID 0x000-0x2FF, indexed by ID.\n");
    let _ = writeln!(out, "pub static REGISTERS: [RegInfo; {REG_COUNT}] = [");
    for (i, e) in file.ids.iter().enumerate() {
        let id = i as u32;
        let layout = layout_of.get(&id).map(|&l| &file.register[l]);
        let mut desc = String::new();
        if !e.note.is_empty() {
            let _ = write!(desc, "Seed note: {}.", e.note);
        }
        match layout {
            Some(l) => {
                if !desc.is_empty() {
                    desc.push_str("\n\n");
                }
                desc.push_str(&l.description);
            }
            None => {
                if !desc.is_empty() {
                    desc.push_str("\n\n");
                }
                desc.push_str(
                    "Not named or described by the seed (3dbrew GPU/Internal_Registers).",
                );
            }
        }
        let fields = match layout {
            Some(l) => format!("<{} as Register>::FIELDS", l.struct_name),
            None => "&[]".into(),
        };
        let layout_name = match layout {
            Some(l) => format!("Some({})", lit(&l.struct_name)),
            None => "None".into(),
        };
        let alias = match alias_of.get(&id) {
            Some(&a) => format!("Some({})", alias_expr(&file.alias[a])),
            None => "None".into(),
        };
        let _ = writeln!(
            out,
            "    RegInfo {{\n        id: 0x{id:03X},\n        name: {},\n        official: {},\n        official_uncertain: {},\n        fields: {fields},\n        alias: {alias},\n        effect: {},\n        description: {},\n        layout: {layout_name},\n    }},",
            lit(&e.name),
            lit(&e.official),
            e.uncertain,
            effect_exprs[i],
            lit(&desc),
        );
    }
    out.push_str("];\n\n");

    // id constants
    out.push_str("/// One constant per named register ID: the 3dbrew name without `GPUREG_`.\npub mod id {\n");
    for e in &file.ids {
        if e.name == format!("GPUREG_{:04X}", e.id) {
            continue;
        }
        let official = if e.official.is_empty() {
            String::new()
        } else {
            format!(" ({}{})", e.official, if e.uncertain { "?" } else { "" })
        };
        let _ = writeln!(
            out,
            "    #[doc = {}]",
            lit(&format!("{}{official}.", e.name))
        );
        let _ = writeln!(
            out,
            "    pub const {}: u16 = 0x{:03X};",
            &e.name["GPUREG_".len()..],
            e.id
        );
    }
    out.push_str("}\n\n");

    // name index
    let mut index: BTreeMap<String, u32> = BTreeMap::new();
    let mut add = |k: String, id: u32| {
        if let Some(&o) = index.get(&k) {
            if o != id {
                fail(&format!("name {k} means both {o:#05x} and {id:#05x}"));
            }
        }
        index.insert(k, id);
    };
    for e in &file.ids {
        add(e.name.clone(), e.id);
        add(e.name["GPUREG_".len()..].to_string(), e.id);
        for o in e.official.split(" / ") {
            let o = o.trim();
            if !o.is_empty() {
                add(o.to_string(), e.id);
            }
        }
    }
    let _ = writeln!(
        out,
        "/// Upper-case names (3dbrew with and without `GPUREG_`, official) sorted for binary search.\nstatic NAME_INDEX: [(&str, u16); {}] = [",
        index.len()
    );
    for (k, v) in &index {
        let _ = writeln!(out, "    ({}, 0x{v:03X}),", lit(k));
    }
    out.push_str("];\n\n");

    // self-test helper
    out.push_str(
        "/// Checks every typed accessor on the word `v` (and field values taken from `w`).\n",
    );
    out.push_str(
        "#[cfg(test)]\npub(crate) fn check_accessors(v: u32, w: u32) -> Result<(), String> {\n",
    );
    out.push_str("    let sign_extend = |x: u32, width: u32| ((x << (32 - width)) as i32) >> (32 - width);\n");
    out.push_str("    let _ = sign_extend(0, 1);\n");
    out.push_str(&tests);
    out.push_str("    Ok(())\n}\n");
    out
}
