//! Generators: text listing (`pica regs`), JSON, the SystemVerilog package and the Markdown
//! reference, all walking the same tables.

use super::naming::upper_snake;
use std::fmt::Write as _;

use super::{
    enum_info, layout, FieldInfo, FieldKind, RegInfo, SideEffect, ALIAS_GROUPS, ENUMS, LAYOUTS,
    REGISTERS,
};

const SOURCE: &str = "model/regs/registers.toml";

/// Short text of a field kind: `unsigned`, `f24`, `fixed1.4.8`, `enum TexunitParamWrap`, ...
pub(crate) fn kind_text(f: &FieldInfo) -> String {
    match f.kind {
        FieldKind::Unsigned => "unsigned".into(),
        FieldKind::Signed => "signed".into(),
        FieldKind::Bool => "bool".into(),
        FieldKind::F24 => "f24".into(),
        FieldKind::F16 => "f16".into(),
        FieldKind::F20 => "f20".into(),
        FieldKind::F31 => "f31".into(),
        FieldKind::Fixed { sign, int, frac } => format!("fixed{sign}.{int}.{frac}"),
        FieldKind::Enum(_) => format!("enum {}", f.enum_type.unwrap_or("?")),
        FieldKind::Trigger => "trigger".into(),
        FieldKind::Const(v) => format!("const {v:#x}"),
        FieldKind::Data => "data".into(),
    }
}

fn bits_text(f: &FieldInfo) -> String {
    if f.width == 1 {
        format!("{}", f.lsb)
    } else {
        format!("{}-{}", f.lsb, f.msb())
    }
}

/// `Trigger(DrawArrays)`, `FifoData(FloatUniform(Vsh))`, `None`.
pub(crate) fn effect_text(e: SideEffect) -> String {
    match e {
        SideEffect::None => "None".into(),
        SideEffect::FifoIndex(f) => format!("FifoIndex({f:?})"),
        SideEffect::FifoData(f) => format!("FifoData({f:?})"),
        SideEffect::Trigger(t) => format!("Trigger({t:?})"),
    }
}

fn official_text(r: &RegInfo) -> String {
    match (r.official.is_empty(), r.official_uncertain) {
        (true, _) => String::new(),
        (false, false) => r.official.to_string(),
        (false, true) => format!("{} (uncertain)", r.official),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn listing_fields(out: &mut String, fields: &[FieldInfo], indent: &str) {
    let name_w = fields.iter().map(|f| f.name.len()).max().unwrap_or(0);
    let kind_w = fields.iter().map(|f| kind_text(f).len()).max().unwrap_or(0);
    for f in fields {
        let _ = writeln!(
            out,
            "{indent}{:>5}  {:name_w$}  {:kind_w$}  {}",
            bits_text(f),
            f.name,
            kind_text(f),
            one_line(f.description)
        );
        if let FieldKind::Enum(values) = f.kind {
            let vw = values.iter().map(|v| v.name.len()).max().unwrap_or(0);
            for v in values {
                let _ = writeln!(
                    out,
                    "{indent}{:>5}  {:>4} {:vw$}  {}",
                    "",
                    v.value,
                    v.name,
                    one_line(v.description)
                );
            }
        }
    }
}

/// Appends `text` word-wrapped to `width` columns, each line starting with `indent`.
fn wrap(out: &mut String, text: &str, indent: &str, width: usize) {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > width {
            let _ = writeln!(out, "{indent}{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{indent}{line}");
    }
}

/// The listing of one register ID (as in [`text_listing`]), or `None` above 0x2FF.
pub fn text_for(id: u32) -> Option<String> {
    let r = super::info(id)?;
    let mut out = String::new();
    let _ = write!(out, "0x{:03X}  {}", r.id, r.name);
    let official = official_text(r);
    if !official.is_empty() {
        let _ = write!(out, "  {official}");
    }
    out.push('\n');
    if let Some(l) = r.layout.and_then(layout) {
        let _ = writeln!(out, "       layout {} ({})", l.struct_name, l.name);
    }
    if r.effect != SideEffect::None {
        let _ = writeln!(out, "       effect {}", effect_text(r.effect));
    }
    if let Some(a) = r.alias {
        let _ = writeln!(
            out,
            "       alias  {} (0x{:03X}-0x{:03X}, {} IDs)",
            a.name,
            a.first,
            a.first + a.count - 1,
            a.count
        );
    }
    if r.is_named() {
        for para in r.description.split("\n\n") {
            for line in para.lines() {
                wrap(&mut out, line, "       ", 100);
            }
        }
    }
    listing_fields(&mut out, r.fields, "       ");
    if let Some(l) = r.layout.and_then(layout) {
        for e in l.entries {
            let _ = writeln!(
                out,
                "       LUT entry: {} ({} elements)",
                e.name, e.elements
            );
            wrap(&mut out, e.description, "         ", 100);
            listing_fields(&mut out, e.fields, "         ");
        }
    }
    Some(out)
}

/// The whole table for a terminal (`pica regs`): every ID with its 3dbrew and official names,
/// layout, side effect, alias group, description, fields (bit range, name, kind, description),
/// enum values and LUT entry formats.
pub fn text_listing() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "PICA200 registers (from {SOURCE})");
    let _ = writeln!(
        out,
        "bits   field  kind  description; enum values indented below their field\n"
    );
    for r in REGISTERS.iter() {
        if let Some(t) = text_for(u32::from(r.id)) {
            out.push_str(&t);
            if !r.fields.is_empty() {
                out.push('\n');
            }
        }
    }
    out
}

/// The whole table as JSON: `registers` (by ID), `layouts`, `enums`, `alias_groups`.
pub fn to_json() -> serde_json::Value {
    serde_json::json!({
        "source": SOURCE,
        "registers": serde_json::to_value(&REGISTERS[..]).unwrap_or_default(),
        "layouts": serde_json::to_value(&LAYOUTS[..]).unwrap_or_default(),
        "enums": serde_json::to_value(&ENUMS[..]).unwrap_or_default(),
        "alias_groups": serde_json::to_value(&ALIAS_GROUPS[..]).unwrap_or_default(),
    })
}

/// ASCII for SystemVerilog comments (some tools dislike anything else).
fn ascii(s: &str) -> String {
    let mut out = String::new();
    for c in one_line(s).chars() {
        match c {
            '²' => out.push_str("^2"),
            '·' => out.push('.'),
            'φ' => out.push_str("phi"),
            '—' | '–' => out.push_str("--"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

fn upper(s: &str) -> String {
    s.to_ascii_uppercase()
}

fn sv_fields(out: &mut String, key: &str, fields: &[FieldInfo]) {
    for f in fields {
        let p = format!("{key}_{}", upper(f.name));
        let _ = writeln!(
            out,
            "  // {}: {} ({})",
            bits_text(f),
            ascii(f.description),
            kind_text(f)
        );
        let _ = writeln!(out, "  localparam int {p}_LSB = {};", f.lsb);
        let _ = writeln!(out, "  localparam int {p}_WIDTH = {};", f.width);
        let _ = writeln!(
            out,
            "  localparam logic [31:0] {p}_MASK = 32'h{:08x};",
            f.mask()
        );
        if let FieldKind::Const(v) = f.kind {
            let _ = writeln!(
                out,
                "  localparam logic [{}:0] {p}_VALUE = {}'h{v:x};",
                f.width - 1,
                f.width
            );
        }
    }
}

/// The SystemVerilog package `pica_regs_pkg` (`rtl-bridge/rtl/pica_regs_pkg.sv`): register IDs
/// (`REG_<NAME>`), alias groups, per-field `<LAYOUT>_<FIELD>_LSB` / `_WIDTH` / `_MASK` (and
/// `_VALUE` for constant bits), LUT entry fields, and enum encodings. Plain SV-2012 (`package` and
/// `localparam` only), for Verilator, Icarus and Yosys. IDs, LSBs and widths are `localparam int`
/// rather than `int unsigned`, which Icarus 11 rejects; every value is far below 2^31.
pub fn sv_package() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated from {SOURCE} by `pica gen rtl` — do not edit."
    );
    out.push_str("//\n");
    out.push_str(
        "// PICA200 register IDs, field positions and enum encodings: the register table of the\n",
    );
    out.push_str(
        "// pica-cosim reference model. Field parameters are named after the register layout\n",
    );
    out.push_str(
        "// (one layout per register family; see docs/registers.md for which IDs use which).\n\n",
    );
    out.push_str("package pica_regs_pkg;\n\n");
    // A table of constants is mostly unused by any one module; without this waiver
    // `verilator --lint-only -Wall` on an RTL top would report every unused parameter.
    out.push_str(
        "  // A table of constants: any one module uses few of them (Verilator -Wall waiver).\n",
    );
    out.push_str("  /* verilator lint_off UNUSEDPARAM */\n\n");
    let _ = writeln!(out, "  localparam int REG_COUNT = {};\n", REGISTERS.len());

    out.push_str("  // ---- Register IDs (3dbrew names without GPUREG_)\n");
    for r in REGISTERS.iter().filter(|r| r.is_named()) {
        let short = r.name.trim_start_matches("GPUREG_");
        let official = official_text(r);
        let comment = if official.is_empty() {
            String::new()
        } else {
            format!("  // {}", ascii(&official))
        };
        let _ = writeln!(
            out,
            "  localparam int REG_{short} = 'h{:03X};{comment}",
            r.id
        );
    }

    out.push_str("\n  // ---- Alias groups: consecutive IDs writing the same transfer FIFO\n");
    for a in ALIAS_GROUPS.iter() {
        let _ = writeln!(
            out,
            "  localparam int ALIAS_{}_FIRST = 'h{:03X};",
            a.name, a.first
        );
        let _ = writeln!(
            out,
            "  localparam int ALIAS_{}_COUNT = {};",
            a.name, a.count
        );
    }

    out.push_str("\n  // ---- Register fields: <LAYOUT>_<FIELD>_LSB / _WIDTH / _MASK (_VALUE: required bits)\n");
    for l in LAYOUTS.iter() {
        let ids: Vec<String> = l.ids.iter().map(|i| format!("0x{i:03X}")).collect();
        let _ = writeln!(
            out,
            "\n  // {} ({}): IDs {}",
            l.name,
            l.struct_name,
            ids.join(", ")
        );
        sv_fields(&mut out, l.key, l.fields);
        for e in l.entries {
            let _ = writeln!(
                out,
                "\n  // LUT entry: {} ({}, {} elements)",
                ascii(e.name),
                e.struct_name,
                e.elements
            );
            sv_fields(&mut out, e.key, e.fields);
        }
    }

    out.push_str("\n  // ---- Enum encodings: <ENUM>_<VALUE>\n");
    for e in ENUMS.iter() {
        let _ = writeln!(
            out,
            "\n  // {} ({}, {} bits)",
            e.name,
            ascii(e.description),
            e.width
        );
        for v in e.values {
            let _ = writeln!(
                out,
                "  localparam logic [{}:0] {}_{} = {}'d{};  // {}",
                e.width - 1,
                e.key,
                upper_snake(v.name),
                e.width,
                v.value,
                ascii(v.description)
            );
        }
    }
    out.push_str("\n  /* verilator lint_on UNUSEDPARAM */\n");
    out.push_str("\nendpackage : pica_regs_pkg\n");
    out
}

/// Text for a Markdown table cell.
fn cell(s: &str) -> String {
    one_line(s).replace('|', "\\|")
}

fn md_fields(out: &mut String, fields: &[FieldInfo]) {
    out.push_str("| Bits | Field | Kind | Description |\n|---|---|---|---|\n");
    for f in fields {
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} |",
            bits_text(f),
            f.name,
            kind_text(f),
            cell(f.description)
        );
    }
    out.push('\n');
}

fn anchor(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '_' | '-' => Some(c.to_ascii_lowercase()),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

/// The register reference (`docs/registers.md`): the register map, then one section per
/// register layout with its IDs, side effects, aliases, fields, enums and LUT entry formats.
pub fn markdown() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- Generated from {SOURCE} by `pica gen docs` — do not edit. -->\n"
    );
    out.push_str("# PICA200 registers\n\n");
    out.push_str(
        "The GPU registers of the DMP PICA200 (Nintendo 3DS GPU) as the pica-cosim model implements them. \
         Source: 3dbrew GPU/Internal_Registers (seed 002) with the corrections of seed 001, kept in \
         `model/regs/registers.toml`; the same table generates the Rust accessors (`pica_model::regs`) and \
         the SystemVerilog package `rtl-bridge/rtl/pica_regs_pkg.sv`. Guesses are marked UNVERIFIED(hw).\n\n",
    );
    out.push_str(
        "Field kinds: `unsigned`, `signed` (two's complement), `bool` (1-bit flag), `f24` (float1.7.16), \
         `f16` (float1.5.10), `f20` (float1.7.12), `f31` (float1.7.23 in bits 1-31), `fixedS.I.F` (sign, \
         integer, fraction bits; a field narrower than S+I+F holds the most significant bits), `enum`, \
         `trigger`, `const` (must be written with the given value), `data` (raw FIFO data). Enum encodings \
         the seed does not describe decode as `Reserved(n)`.\n\n",
    );

    out.push_str("## Register map\n\n");
    out.push_str(
        "IDs the seed does not name (`GPUREG_0xxx`) are left out; they have no fields.\n\n",
    );
    out.push_str("| ID | 3dbrew name | Official name | Layout | Side effect | Alias group |\n|---|---|---|---|---|---|\n");
    for r in REGISTERS.iter().filter(|r| r.is_named()) {
        let lay = match r.layout.and_then(layout) {
            Some(l) => format!("[`{}`](#{})", l.struct_name, anchor(l.struct_name)),
            None => String::new(),
        };
        let eff = if r.effect == SideEffect::None {
            String::new()
        } else {
            format!("`{}`", effect_text(r.effect))
        };
        let alias = r.alias.map(|a| format!("`{}`", a.name)).unwrap_or_default();
        let _ = writeln!(
            out,
            "| 0x{:03X} | `{}` | {} | {lay} | {eff} | {alias} |",
            r.id,
            r.name,
            cell(&official_text(r))
        );
    }
    out.push('\n');

    out.push_str("## Alias groups\n\n");
    out.push_str("| Group | IDs | Description |\n|---|---|---|\n");
    for a in ALIAS_GROUPS.iter() {
        let _ = writeln!(
            out,
            "| `{}` | 0x{:03X}-0x{:03X} | {} |",
            a.name,
            a.first,
            a.first + a.count - 1,
            cell(a.description)
        );
    }
    out.push('\n');

    out.push_str("## Register layouts\n\n");
    for l in LAYOUTS.iter() {
        let _ = writeln!(out, "### {}\n", l.struct_name);
        let _ = writeln!(out, "Seed section `{}`.\n", l.name);
        out.push_str("| ID | Name | Side effect | Alias group |\n|---|---|---|---|\n");
        for &id in l.ids {
            if let Some(r) = super::info(u32::from(id)) {
                let eff = if r.effect == SideEffect::None {
                    String::new()
                } else {
                    format!("`{}`", effect_text(r.effect))
                };
                let alias = r.alias.map(|a| format!("`{}`", a.name)).unwrap_or_default();
                let _ = writeln!(out, "| 0x{id:03X} | `{}` | {eff} | {alias} |", r.name);
            }
        }
        out.push('\n');
        for para in l.description.split("\n\n") {
            let _ = writeln!(out, "{}\n", para.trim());
        }
        md_fields(&mut out, l.fields);
        let mut shown: Vec<&str> = Vec::new();
        for f in l.fields {
            let Some(t) = f.enum_type else { continue };
            if shown.contains(&t) {
                continue;
            }
            shown.push(t);
            let Some(e) = enum_info(t) else { continue };
            let users: Vec<String> = l
                .fields
                .iter()
                .filter(|g| g.enum_type == Some(t))
                .map(|g| format!("`{}`", g.name))
                .collect();
            let _ = writeln!(
                out,
                "`{}` ({}; field {}):\n",
                e.name,
                cell(e.description),
                users.join(", ")
            );
            out.push_str("| Value | Name | Description |\n|---|---|---|\n");
            for v in e.values {
                let _ = writeln!(
                    out,
                    "| {} | `{}` | {} |",
                    v.value,
                    v.name,
                    cell(v.description)
                );
            }
            out.push('\n');
        }
        for e in l.entries {
            let _ = writeln!(
                out,
                "LUT entry format `{}`: {} ({} elements). {}\n",
                e.struct_name,
                e.name,
                e.elements,
                one_line(e.description)
            );
            md_fields(&mut out, e.fields);
        }
    }
    out
}
