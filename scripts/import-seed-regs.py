#!/usr/bin/env python3
"""One-shot importer: seed 002 (3dbrew GPU/Internal_Registers) -> model/regs/registers.toml.

This script bootstrapped the register table. It parses the register list and the per-register
`Bits Description` / value tables of seed 002, applies the corrections of seed 001 and the naming
choices kept in the override tables below, and prints TOML.

The TOML file is hand-maintained since the import: do NOT re-run this over it. Run it into a
scratch file and diff, if you want to see what the seed says today:

    python3 scripts/import-seed-regs.py /work/shared/seeds/002_*.txt > /tmp/registers.toml
    diff -u model/regs/registers.toml /tmp/registers.toml
"""

import json
import re
import sys

# ----------------------------------------------------------------------------------------------
# Parsing
# ----------------------------------------------------------------------------------------------

CATEGORIES = {
    "Miscellaneous registers",
    "Rasterizer registers",
    "Texturing registers",
    "Framebuffer registers",
    "Fragment lighting registers",
    "Geometry pipeline registers",
    "Shader registers",
}

MOJIBAKE = {"ÂČ": "²"}


def clean(s):
    for a, b in MOJIBAKE.items():
        s = s.replace(a, b)
    return s.strip()


def parse_list(lines):
    """The register list: ID, 3dbrew name, notes, official name."""
    regs = {}
    section = None
    sections = []
    for line in lines:
        m = re.match(r"^(.* registers) \((0x[0-9A-F]{3})-(0x[0-9A-F]{3})\)$", line)
        if m:
            section = line
            sections.append((int(m.group(2), 16), line))
            continue
        if line in ("Geometry shader", "Vertex shader"):
            sections.append(("sub", line))
            continue
        m = re.match(r"^([0-9A-F]{4}) (GPUREG_\S+)(?: (.*))?$", line)
        if not m:
            continue
        rid = int(m.group(1), 16)
        rest = (m.group(3) or "").strip()
        official = ""
        notes = rest
        k = rest.find("PICA_REG_")
        if k >= 0:
            official = rest[k:].strip()
            notes = rest[:k].strip()
        regs[rid] = {
            "id": rid,
            "name": m.group(2),
            "official": official,
            "uncertain": notes == "?",
            "note": "" if notes in ("", "?") else notes,
            "section": section,
        }
        if rid == 0x2FF:
            break
    return regs, sections


def blocks_of(lines):
    out, cur = [], []
    for line in lines:
        if line.strip() == "":
            if cur:
                out.append(cur)
                cur = []
        else:
            cur.append(line.rstrip("\n"))
    if cur:
        out.append(cur)
    return out


def parse_sections(lines):
    """Per-register sections after the list: heading, then blocks."""
    secs = []
    cur = None
    for line in lines:
        s = line.strip()
        if re.match(r"^GPUREG_[A-Za-z0-9_]+$", s):
            cur = {"heading": s, "lines": []}
            secs.append(cur)
            continue
        if s in CATEGORIES:
            cur = None
            continue
        if cur is not None:
            cur["lines"].append(line)
    for sec in secs:
        sec["blocks"] = blocks_of(sec["lines"])
    return secs


BITS_RE = re.compile(r"^(\d+)(?:-(\d+))? (.*)$")


def parse_bits_rows(rows):
    out = []
    sub = None
    for r in rows:
        r = clean(r)
        if re.match(r"^DATA\d:$", r):
            sub = r[:-1]
            continue
        m = BITS_RE.match(r)
        if not m:
            raise SystemExit(f"bad bits row: {r!r}")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        out.append({"lo": lo, "hi": hi, "text": m.group(3).strip(), "sub": sub})
    return out


def parse_value_rows(header, rows):
    cols = header.split()
    out = []
    for r in rows:
        r = clean(r)
        m = re.match(r"^(\S+)\s*(.*)$", r)
        v, rest = m.group(1), m.group(2)
        out.append({"value": v, "text": rest, "cols": cols})
    return out


def structure(sec):
    """Turn blocks into: bits tables (with labels), value tables (with labels), prose."""
    items = []
    label = None
    for b in sec["blocks"]:
        first = clean(b[0])
        if first == "Bits Description":
            items.append({"t": "bits", "label": label, "rows": parse_bits_rows(b[1:])})
            label = None
        elif first.startswith("Value ") and len(b) > 1:
            items.append(
                {"t": "values", "label": label, "rows": parse_value_rows(first, b[1:])}
            )
            label = None
        elif first == "Register Description":
            items.append({"t": "prose", "text": "\n".join("- " + clean(x) for x in b[1:])})
        elif len(b) == 1 and first.endswith(":"):
            if label and not label.endswith("elements:"):
                items.append({"t": "label", "text": label})
            label = first if label is None else label + " " + first
        else:
            if label:
                items.append({"t": "label", "text": label})
                label = None
            items.append({"t": "prose", "text": "\n".join(clean(x) for x in b)})
    if label:
        items.append({"t": "label", "text": label})
    return items


# ----------------------------------------------------------------------------------------------
# Naming
# ----------------------------------------------------------------------------------------------


def camel(words):
    return "".join(w[:1].upper() + w[1:].lower() for w in words if w)


def struct_name(heading):
    toks = heading[len("GPUREG_"):].split("_")
    out = []
    for t in toks:
        if t == "Ii":
            continue
        t = t.replace("i", "")
        if t:
            out.append(t)
    return camel(out)


def snake_from(text):
    t = re.sub(r"\(.*?\)", "", text)
    t = t.replace("'", "")
    t = re.sub(r"[^A-Za-z0-9]+", " ", t).strip().lower()
    return "_".join(t.split())


def camel_from(text):
    t = re.sub(r"\(.*?\)", "", text).replace("'", "")
    t = re.sub(r"[^A-Za-z0-9]+", " ", t).strip()
    words = t.split()
    s = "".join(w[:1].upper() + w[1:] for w in words)
    if s and s[0].isdigit():
        s = "V" + s
    return s


# ----------------------------------------------------------------------------------------------
# Overrides: names chosen by hand (the seed has descriptions, not identifiers)
# ----------------------------------------------------------------------------------------------

# (the override tables are at the end of this file)


# ----------------------------------------------------------------------------------------------
# Field kinds
# ----------------------------------------------------------------------------------------------

BOOL_PAIRS = [
    ("disabled", "enabled"),
    ("enabled", "disabled"),
    ("disable", "enable"),
    ("false", "true"),
    ("absent", "present"),
    ("don't use", "use"),
    ("don't apply", "apply"),
    ("don't invert", "invert"),
    ("don't clear", "clear"),
    ("don't separate", "separate"),
    ("don't flip", "flip"),
    ("not in use", "in use"),
    ("one side", "both sides"),
    ("not", "drawing triangle elements"),
]


def kind_of(row):
    text = row["text"]
    width = row["hi"] - row["lo"] + 1
    m = re.match(r"^(0x[0-9A-Fa-f]+)$", text)
    if m:
        return {"kind": "const", "value": int(m.group(1), 16)}, "Must be " + text
    m = re.match(
        r"^(unsigned|signed|float\d+\.\d+\.\d+|fixed\d+\.\d+\.\d+(?: with two's complement(?: \(.*\))?)?), (.*)$",
        text,
    )
    if m:
        k, desc = m.group(1).strip(), m.group(2).strip()
    else:
        k, desc = "", text
    kind = None
    if k == "unsigned":
        kind = "unsigned"
    elif k == "signed":
        kind = "signed"
    elif k == "float1.7.16":
        kind = "f24" if width == 24 else "unsigned"
    elif k == "float1.5.10":
        kind = "f16" if width == 16 else "unsigned"
    elif k == "float1.7.12":
        kind = "f20" if width == 20 else "unsigned"
    elif k == "float1.7.23":
        kind = "f31"
    elif k.startswith("fixed"):
        m = re.match(r"^fixed(\d+)\.(\d+)\.(\d+)$", k)
        if m:
            kind = "fixed%s.%s.%s" % m.groups()
        else:
            kind = "signed"  # "fixed0.0.12 with two's complement": see the override
    elif k == "":
        kind = "data" if "data" in desc.lower() else "unsigned"
    else:
        raise SystemExit(f"unknown kind {k!r} in {text!r}")
    if k and kind in ("unsigned",) and k.startswith("float"):
        desc = f"{desc} (raw bits of a partial {k} value)"
    if k.startswith("fixed") and kind == "signed":
        desc = f"{desc} ({k})"
    low = desc.lower()
    if kind == "unsigned" and (low.startswith("trigger") or low.startswith("signal transfer end")):
        kind = "trigger"
    if kind == "unsigned" and width == 1:
        m = re.search(r"\(0 = ([^,]+), 1 = ([^)]+)\)", desc)
        if m and (m.group(1).strip(), m.group(2).strip()) in BOOL_PAIRS:
            kind = "bool"
    return {"kind": kind}, desc


# ----------------------------------------------------------------------------------------------
# Emission
# ----------------------------------------------------------------------------------------------


def q(s):
    return json.dumps(s, ensure_ascii=False)


def qml(s):
    s = s.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return '"""\n' + s + '"""'


def bits_str(lo, hi):
    return str(lo) if lo == hi else f"{lo}-{hi}"


def main():
    text = open(sys.argv[1], encoding="utf-8").read().split("\n")
    # the list ends at 02FF; the descriptions start at the second "Miscellaneous registers"
    list_start = text.index("Register list")
    regs, list_sections = parse_list(text[list_start:])
    assert len(regs) == 0x300, len(regs)
    desc_start = [i for i, l in enumerate(text) if l.strip() == "Miscellaneous registers"][-1]
    secs = parse_sections(text[desc_start:])

    # Apply register-list corrections
    for rid, fix in LIST_FIX.items():
        regs[rid].update(fix)

    out = []
    w = out.append
    w(HEADER)
    w("ids = [")
    sec_by_start = {}
    for start, name in list_sections:
        if start == "sub":
            continue
        sec_by_start[start] = name
    for rid in range(0x300):
        if rid in sec_by_start:
            w(f"  # ---- {sec_by_start[rid]}")
        if rid == 0x280:
            w("  # Geometry shader (GSH) block")
        if rid == 0x2B0:
            w("  # Vertex shader (VSH) block")
        r = regs[rid]
        parts = [f"id = 0x{rid:03X}", f"name = {q(r['name'])}"]
        if r["official"]:
            parts.append(f"official = {q(r['official'])}")
        if r["uncertain"]:
            parts.append("uncertain = true")
        if r["note"]:
            parts.append(f"note = {q(r['note'])}")
        eff = EFFECTS.get(rid)
        if eff:
            parts.append(f"effect = {q(eff)}")
        w("  { " + ", ".join(parts) + " },")
    w("]")
    w("")

    w("# ================================================================================================")
    w("# Alias groups: consecutive IDs that all write the same transfer register (FIFO), so that one")
    w("# consecutive-mode command can stream data into it.")
    w("# ================================================================================================")
    for a in ALIASES:
        w("")
        w("[[alias]]")
        w(f"name = {q(a[0])}")
        w(f"first = 0x{a[1]:03X}")
        w(f"count = {a[2]}")
        w(f"description = {q(a[3])}")
    w("")

    w("# ================================================================================================")
    w("# Register layouts, in seed order. One [[register]] per seed section (a family of IDs with the")
    w("# same layout shares one). Field kinds: unsigned, signed, bool, f24, f16, f20, f31,")
    w("# fixedS.I.F, enum (with `enum = \"Type\"`), trigger, const (with `value`), data.")
    w("# ================================================================================================")

    by_name = {r["name"]: rid for rid, r in regs.items()}
    used_ids = set()
    for sec in secs:
        h = sec["heading"]
        if h in SKIP:
            continue
        items = structure(sec)
        layouts = LAYOUT_SPLIT.get(h)
        bits_tables = [it for it in items if it["t"] == "bits"]
        values = [it for it in items if it["t"] == "values"]
        # LUT table titles ("Noise Table", "Fog Look-Up Table") become entry-format names
        prose = [it["text"] for it in items if it["t"] == "prose" and not it["text"].endswith("Table")]
        if layouts is None:
            layouts = [{"heading": HEADING_RENAME.get(h, h), "table": 0, "entries": list(range(1, len(bits_tables)))}]
        for li, lay in enumerate(layouts):
            heading = lay["heading"]
            sname = STRUCT.get(heading) or struct_name(heading)
            ids = IDS.get(heading)
            if ids is None:
                pat = "^" + heading.replace("i", r"\d+") + "$"
                ids = sorted(rid for n, rid in by_name.items() if re.match(pat, n))
                if not ids and "_SH_" in heading:
                    pat2 = pat.replace("GPUREG_SH_", "GPUREG_[VG]SH_")
                    ids = sorted(rid for n, rid in by_name.items() if re.match(pat2, n))
            assert ids, heading
            for i in ids:
                assert i not in used_ids, (heading, hex(i))
                used_ids.add(i)
            table = bits_tables[lay["table"]]
            w("")
            w("[[register]]")
            w(f"name = {q(heading)}")
            w(f"struct = {q(sname)}")
            w("ids = [" + ", ".join(f"0x{i:03X}" for i in ids) + "]")
            desc = "\n\n".join(DESC_OVERRIDE.get(heading, prose))
            if heading in EXTRA_DESC:
                desc = (desc + "\n\n" + EXTRA_DESC[heading]).strip()
            w(f"description = {qml(desc)}")
            enum_out = []
            w("fields = [")
            names = FIELD_NAMES.get(heading, [])
            rows = [r for r in table["rows"] if lay.get("sub") is None or r["sub"] == lay["sub"]]
            if heading in ROWS_REPLACE:
                rows = [{"lo": a, "hi": b, "text": t, "sub": None} for a, b, t in ROWS_REPLACE[heading]]
            for fi, row in enumerate(rows):
                kd, fdesc = kind_of(row)
                fix = KIND_FIX.get(heading, {}).get(fi)
                if fix:
                    kd = dict(fix[0])
                    if fix[1]:
                        fdesc = fix[1]
                if kd["kind"] == "const":
                    name = f"reserved_{row['lo']}" if row["lo"] == row["hi"] else f"reserved_{row['lo']}_{row['hi']}"
                else:
                    name = names[fi] if fi < len(names) and names[fi] else snake_from(fdesc)
                en = FIELD_ENUM.get(heading, {}).get(fi)
                if en:
                    kd = {"kind": "enum", "enum": en}
                parts = [f"bits = {q(bits_str(row['lo'], row['hi']))}", f"name = {q(name)}", f"kind = {q(kd['kind'])}"]
                if "enum" in kd:
                    parts.append(f"enum = {q(kd['enum'])}")
                if "value" in kd:
                    parts.append(f"value = 0x{kd['value']:X}")
                parts.append(f"desc = {q(fdesc)}")
                w("  { " + ", ".join(parts) + " },")
            w("]")
            if li == 0:
                for v in values:
                    key = (h, v["label"])
                    if key not in ENUMS:
                        raise SystemExit(f"no enum naming for {key}")
                    ename, variants = ENUMS[key]
                    if ename is None:
                        continue
                    emit_enum(w, ename, v, variants)
                for k, extra in EXTRA_ENUMS.get(heading, []):
                    emit_enum_raw(w, k, extra)
            else:
                for k, extra in EXTRA_ENUMS.get(heading, []):
                    emit_enum_raw(w, k, extra)
            for ei in lay.get("entries", []):
                bt = bits_tables[ei]
                ent = ENTRIES[(h, ei)]
                w("")
                w("[[register.entry]]")
                w(f"name = {q(ent['name'])}")
                w(f"struct = {q(ent['struct'])}")
                w(f"elements = {ent['elements']}")
                w(f"description = {q(ent['description'])}")
                w("fields = [")
                for fi, row in enumerate(bt["rows"]):
                    kd, fdesc = kind_of(row)
                    fix = ent.get("kinds", {}).get(fi)
                    if fix:
                        kd = dict(fix[0])
                        if fix[1]:
                            fdesc = fix[1]
                    name = ent["names"][fi]
                    parts = [f"bits = {q(bits_str(row['lo'], row['hi']))}", f"name = {q(name)}", f"kind = {q(kd['kind'])}"]
                    parts.append(f"desc = {q(fdesc)}")
                    w("  { " + ", ".join(parts) + " },")
                w("]")
    missing = [hex(r) for r, v in regs.items() if not re.match(r"^GPUREG_[0-9A-F]{4}$", v["name"]) and r not in used_ids]
    if missing:
        sys.stderr.write(f"named IDs without a layout: {missing}\n")
    sys.stdout.write("\n".join(out) + "\n")


def emit_enum(w, ename, v, variants):
    w("")
    w("[[register.enum]]")
    w(f"name = {q(ename)}")
    w(f"desc = {q(v['label'].rstrip(':'))}")
    w("values = [")
    rows = v["rows"]
    exp = []
    for r in rows:
        val = r["value"]
        m = re.match(r"^(\d+)-(\d+)$", val)
        if m:  # "8-15 SP0-7"
            a, b = int(m.group(1)), int(m.group(2))
            base = re.match(r"^([A-Z]+)\d-\d$", r["text"]).group(1)
            for k in range(a, b + 1):
                exp.append((k, f"{base}{k - a}"))
            continue
        cols = r["cols"]
        txt = r["text"]
        if len(cols) > 2:
            txt = cols_desc(cols, txt)
        exp.append((int(val, 0), txt))
    assert len(variants) == len(exp), (ename, len(variants), len(exp), exp)
    for (val, txt), vn in zip(exp, variants):
        vn = vn or camel_from(txt)
        w(f"  {{ value = {val}, name = {q(vn)}, desc = {q(txt)} }},")
    w("]")


def emit_enum_raw(w, ename, extra):
    desc, vals = extra
    w("")
    w("[[register.enum]]")
    w(f"name = {q(ename)}")
    w(f"desc = {q(desc)}")
    w("values = [")
    for val, vn, txt in vals:
        w(f"  {{ value = {val}, name = {q(vn)}, desc = {q(txt)} }},")
    w("]")


def cols_desc(cols, txt):
    # "Value Semantic Description": "position.x Vertex Position"
    if cols[1] == "Semantic":
        if txt.startswith("Unused component "):
            return "Unused component (" + txt[len("Unused component "):] + ")"
        parts = txt.split(" ", 1)
        return parts[0] + (" (" + parts[1] + ")" if len(parts) > 1 else "")
    if cols[1:] == ["Description", "GL", "Format", "GL", "Data", "Type"]:
        parts = txt.split(" ")
        return parts[0] + (" (" + ", ".join(parts[1:]) + ")" if len(parts) > 1 else "")
    if cols[1:] == ["Description", "Available", "LUTs"]:
        m = re.match(r"^(Configuration \d) (.*)$", txt)
        return f"{m.group(1)}; available LUTs: {m.group(2)}"
    return txt



# ==============================================================================================
# Override tables: names chosen by hand (the seed has descriptions, not identifiers), layout
# splits, side effects, alias groups and the notes on ambiguities.
# ==============================================================================================

HEADER = """\
# The PICA200 register table: the single source of register facts for pica-cosim.
#
# Imported from seed 002 (3dbrew GPU/Internal_Registers, the newest full text) plus the corrections
# of seed 001 (the latest change list) by scripts/import-seed-regs.py, and HAND-MAINTAINED since
# then: edit this file, never re-run the importer over it. Everything else is generated from it by
# model/build.rs: the typed accessors and name lookups in `pica_model::regs`,
# rtl-bridge/rtl/pica_regs_pkg.sv and docs/registers.md (refresh those two with
# `PICA_BLESS=1 cargo test -p pica-model --test regs_generated_fresh`).
#
# Layout of this file:
#   ids            one line per register ID 0x000-0x2FF: the 3dbrew name (GPUREG_*; IDs the seed
#                  does not name keep GPUREG_0xxx), the official name (PICA_REG_*, two joined by
#                  " / " where the seed gives two), `uncertain = true` where the seed marks the
#                  official name with "?", the seed's note, and `effect`: what a write does
#                  besides storing the value, spelled like pica_model::regs::SideEffect, e.g.
#                  "Trigger(DrawArrays)", "FifoIndex(FloatUniform(Vsh))", "FifoData(FogLut)".
#   [[alias]]      runs of consecutive IDs that all write the same transfer register (FIFO).
#   [[register]]   one layout per seed section: `name` (the seed heading, i = instance number),
#                  `struct` (the Rust type), the IDs it describes, the description, the fields,
#                  the enums ([[register.enum]], Rust type = `name`) and, for LUT data registers,
#                  the format of the LUT entries ([[register.entry]]).
#   Field kinds:   unsigned, signed (two's complement), bool (1-bit flag), f24 (float1.7.16),
#                  f16 (float1.5.10), f20 (float1.7.12), f31 (float1.7.23 in bits 1-31),
#                  fixedS.I.F (sign, integer, fraction bits; a field narrower than S+I+F holds
#                  the most significant bits), enum, trigger (writing it starts an action),
#                  const (must be written as `value`), data (raw FIFO data).
# Guesses and seed ambiguities are marked UNVERIFIED(hw) in the descriptions.
"""

HEADING_RENAME = {
    "GPUREG_CMDBUF_SIZE0": "GPUREG_CMDBUF_SIZEi",
    "GPUREG_CMDBUF_ADDR0": "GPUREG_CMDBUF_ADDRi",
    "GPUREG_CMDBUF_JUMP0": "GPUREG_CMDBUF_JUMPi",
}
SKIP = {"GPUREG_CMDBUF_SIZE1", "GPUREG_CMDBUF_ADDR1", "GPUREG_CMDBUF_JUMP1"}

LAYOUT_SPLIT = {
    "GPUREG_TEXUNITi_ADDRi": [
        {"heading": "GPUREG_TEXUNITi_ADDRi (first)", "table": 0},
        {"heading": "GPUREG_TEXUNITi_ADDRi (subsequent)", "table": 1},
    ],
    "GPUREG_FIXEDATTRIB_DATAi": [
        {"heading": "GPUREG_FIXEDATTRIB_DATA0", "table": 0, "sub": "DATA0"},
        {"heading": "GPUREG_FIXEDATTRIB_DATA1", "table": 0, "sub": "DATA1"},
        {"heading": "GPUREG_FIXEDATTRIB_DATA2", "table": 0, "sub": "DATA2"},
    ],
    "GPUREG_PROCTEX_LUT_DATAi": [{"heading": "GPUREG_PROCTEX_LUT_DATAi", "table": 0, "entries": [1, 2, 3, 4, 5]}],
    "GPUREG_FOG_LUT_DATAi": [{"heading": "GPUREG_FOG_LUT_DATAi", "table": 0, "entries": [1]}],
    "GPUREG_GAS_LUT_DATA": [{"heading": "GPUREG_GAS_LUT_DATA", "table": 0, "entries": [1, 2]}],
    "GPUREG_LIGHTING_LUT_DATAi": [{"heading": "GPUREG_LIGHTING_LUT_DATAi", "table": 0, "entries": [1]}],
}

STRUCT = {
    "GPUREG_TEXUNITi_ADDRi (first)": "TexunitAddr",
    "GPUREG_TEXUNITi_ADDRi (subsequent)": "TexunitAddrSubsequent",
}

IDS = {
    "GPUREG_TEXUNITi_ADDRi (first)": [0x085, 0x095, 0x09D],
    "GPUREG_TEXUNITi_ADDRi (subsequent)": [0x086, 0x087, 0x088, 0x089, 0x08A],
}

ROWS_REPLACE = {
    "GPUREG_SH_BOOLUNIFORM": [
        (0, 15, "unsigned, Boolean registers b0-b15: bit n is the value of bn (0 = false, 1 = true)"),
        (16, 31, "0x7FFF"),
    ],
}

LIST_FIX = {}

D = "(0 = disabled, 1 = enabled)"
FIELD_NAMES = {
    "GPUREG_FINALIZE": ["trigger"],
    "GPUREG_FACECULLING_CONFIG": ["mode"],
    "GPUREG_VIEWPORT_WIDTH": ["half_width"],
    "GPUREG_VIEWPORT_INVW": ["inv_half_width"],
    "GPUREG_VIEWPORT_HEIGHT": ["half_height"],
    "GPUREG_VIEWPORT_INVH": ["inv_half_height"],
    "GPUREG_FRAGOP_CLIP": ["enabled"],
    "GPUREG_FRAGOP_CLIP_DATAi": ["coefficient"],
    "GPUREG_DEPTHMAP_SCALE": ["scale"],
    "GPUREG_DEPTHMAP_OFFSET": ["offset"],
    "GPUREG_SH_OUTMAP_TOTAL": ["total"],
    "GPUREG_SH_OUTMAP_Oi": ["x", "y", "z", "w"],
    "GPUREG_EARLYDEPTH_FUNC": ["function"],
    "GPUREG_EARLYDEPTH_CLEAR": ["trigger"],
    "GPUREG_SH_OUTATTR_MODE": ["use_texcoords"],
    "GPUREG_SCISSORTEST_MODE": ["mode"],
    "GPUREG_EARLYDEPTH_DATA": ["clear_value"],
    "GPUREG_RENDERBUF_DIM": ["width", "height_minus_1"],
    "GPUREG_SH_OUTATTR_CLOCK": ["position_z_present", "color_present", "texcoord0_present", "texcoord1_present",
                                "texcoord2_present", "texcoord0_w_present", "normquat_or_view_present"],
    "GPUREG_TEXUNIT_CONFIG": ["texture0_enabled", "texture1_enabled", "texture2_enabled", None, "texture3_coords",
                              "texture3_enabled", None, "texture2_coords", "clear_texture_cache"],
    "GPUREG_TEXUNITi_PARAM": ["mag_filter", "min_filter", "etc1", "wrap_t", "wrap_s", None, "shadow",
                              "mipmap_filter", "texture_type"],
    "GPUREG_TEXUNITi_LOD": ["bias", "max_level", "min_level"],
    "GPUREG_TEXUNITi_ADDRi (first)": ["addr"],
    "GPUREG_TEXUNITi_ADDRi (subsequent)": ["addr"],
    "GPUREG_TEXUNITi_SHADOW": ["orthographic", "z_bias"],
    "GPUREG_TEXUNITi_TYPE": ["format"],
    "GPUREG_LIGHTING_ENABLE0": ["enabled"],
    "GPUREG_TEXUNIT3_PROCTEX0": ["u_clamp", "v_clamp", "rgb_func", "alpha_func", "separate_alpha", "noise_enabled",
                                 "u_shift", "v_shift", "bias_low"],
    "GPUREG_TEXUNIT3_PROCTEX1": ["u_noise_amplitude", "u_noise_phase"],
    "GPUREG_TEXUNIT3_PROCTEX2": ["v_noise_amplitude", "v_noise_phase"],
    "GPUREG_TEXUNIT3_PROCTEX3": ["u_noise_frequency", "v_noise_frequency"],
    "GPUREG_TEXUNIT3_PROCTEX4": ["min_filter", "min_lod", "max_lod", "width", "bias_high"],
    "GPUREG_TEXUNIT3_PROCTEX5": ["level0_offset", "level1_offset", "level2_offset", "level3_offset"],
    "GPUREG_PROCTEX_LUT": ["index", "table"],
    "GPUREG_PROCTEX_LUT_DATAi": ["data"],
    "GPUREG_TEXENVi_SOURCE": ["rgb_source0", "rgb_source1", "rgb_source2", "alpha_source0", "alpha_source1",
                              "alpha_source2"],
    "GPUREG_TEXENVi_OPERAND": ["rgb_operand0", "rgb_operand1", "rgb_operand2", "alpha_operand0", "alpha_operand1",
                               "alpha_operand2"],
    "GPUREG_TEXENVi_COMBINER": ["rgb_combine", "alpha_combine"],
    "GPUREG_TEXENVi_SCALE": ["rgb_scale", "alpha_scale"],
    "GPUREG_TEXENV_UPDATE_BUFFER": ["fog_mode", "shading_density_source",
                                    "texenv1_rgb_buffer_input", "texenv2_rgb_buffer_input",
                                    "texenv3_rgb_buffer_input", "texenv4_rgb_buffer_input",
                                    "texenv1_alpha_buffer_input", "texenv2_alpha_buffer_input",
                                    "texenv3_alpha_buffer_input", "texenv4_alpha_buffer_input", "z_flip"],
    "GPUREG_GAS_ATTENUATION": ["attenuation"],
    "GPUREG_GAS_ACCMAX": ["max_accumulation"],
    "GPUREG_FOG_LUT_INDEX": ["index"],
    "GPUREG_FOG_LUT_DATAi": ["data"],
    "GPUREG_COLOR_OPERATION": ["fragment_mode", "blend_mode"],
    "GPUREG_BLEND_FUNC": ["rgb_equation", "alpha_equation", "rgb_src_func", "rgb_dst_func", "alpha_src_func",
                          "alpha_dst_func"],
    "GPUREG_LOGIC_OP": ["op"],
    "GPUREG_FRAGOP_ALPHA_TEST": ["enabled", "function", "reference"],
    "GPUREG_STENCIL_TEST": ["enabled", "function", "buffer_mask", "reference", "mask"],
    "GPUREG_STENCIL_OP": ["fail_op", "zfail_op", "zpass_op"],
    "GPUREG_DEPTH_COLOR_MASK": ["depth_test_enabled", "depth_function", "red_write_enabled", "green_write_enabled",
                                "blue_write_enabled", "alpha_write_enabled", "depth_write_enabled"],
    "GPUREG_FRAMEBUFFER_INVALIDATE": ["trigger"],
    "GPUREG_FRAMEBUFFER_FLUSH": ["trigger"],
    "GPUREG_DEPTHBUFFER_FORMAT": ["format"],
    "GPUREG_COLORBUFFER_FORMAT": ["pixel_size", "format"],
    "GPUREG_FRAMEBUFFER_BLOCK32": ["block_mode"],
    "GPUREG_DEPTHBUFFER_LOC": ["addr"],
    "GPUREG_COLORBUFFER_LOC": ["addr"],
    "GPUREG_FRAMEBUFFER_DIM": ["width", "height_minus_1"],
    "GPUREG_GAS_LIGHT_XY": ["planar_min_intensity", "planar_max_intensity", "planar_density_attenuation"],
    "GPUREG_GAS_LIGHT_Z": ["view_min_intensity", "view_max_intensity", "view_density_attenuation"],
    "GPUREG_GAS_LIGHT_Z_COLOR": ["line_of_sight_effect", "color_lut_input"],
    "GPUREG_GAS_LUT_INDEX": ["index"],
    "GPUREG_GAS_LUT_DATA": ["data"],
    "GPUREG_GAS_DELTAZ_DEPTH": ["depth_attenuation", "depth_function"],
    "GPUREG_FRAGOP_SHADOW": ["penumbra_scale_plus_bias", "neg_penumbra_scale"],
    "GPUREG_LIGHTi_XY": ["x", "y"],
    "GPUREG_LIGHTi_Z": ["z"],
    "GPUREG_LIGHTi_SPOTDIR_XY": ["x", "y"],
    "GPUREG_LIGHTi_SPOTDIR_Z": ["z"],
    "GPUREG_LIGHTi_CONFIG": ["light_type", "two_side_diffuse", "use_geometric_factor0", "use_geometric_factor1"],
    "GPUREG_LIGHTi_ATTENUATION_BIAS": ["bias"],
    "GPUREG_LIGHTi_ATTENUATION_SCALE": ["scale"],
    "GPUREG_LIGHTING_NUM_LIGHTS": ["num_lights_minus_1"],
    "GPUREG_LIGHTING_CONFIG0": ["shadow_factor_enabled", "fresnel_selector", "light_env_config", None,
                                "shadow_primary", "shadow_secondary", "shadow_invert", "shadow_alpha",
                                "bump_map_unit", "shadow_map_unit", "clamp_highlights", "bump_mode",
                                "bump_recalc_disabled"],
    "GPUREG_LIGHTING_CONFIG1": [f"light{i}_shadow_disabled" for i in range(8)]
    + [f"light{i}_spot_disabled" for i in range(8)]
    + ["d0_lut_disabled", "d1_lut_disabled", None, "fr_lut_disabled", "rb_lut_disabled", "rg_lut_disabled",
       "rr_lut_disabled"]
    + [f"light{i}_dist_atten_disabled" for i in range(8)],
    "GPUREG_LIGHTING_LUT_INDEX": ["index", "table"],
    "GPUREG_LIGHTING_ENABLE1": ["disabled"],
    "GPUREG_LIGHTING_LUT_DATAi": ["data"],
    "GPUREG_LIGHTING_LUTINPUT_ABS": [f"{x}_abs_disabled" for x in ("d0", "d1", "sp", "fr", "rb", "rg", "rr")],
    "GPUREG_LIGHTING_LUTINPUT_SELECT": [f"{x}_input" for x in ("d0", "d1", "sp", "fr", "rb", "rg", "rr")],
    "GPUREG_LIGHTING_LUTINPUT_SCALE": [f"{x}_scale" for x in ("d0", "d1", "sp", "fr", "rb", "rg", "rr")],
    "GPUREG_LIGHTING_LIGHT_PERMUTATION": [f"slot{i}_light_id" for i in range(8)],
    "GPUREG_ATTRIBBUFFERS_LOC": ["base_addr"],
    "GPUREG_ATTRIBBUFFERS_FORMAT_LOW": [f"attr{i}_{x}" for i in range(8) for x in ("type", "size")],
    "GPUREG_ATTRIBBUFFERS_FORMAT_HIGH": [f"attr{i}_{x}" for i in range(8, 12) for x in ("type", "size")]
    + ["fixed_attrib_mask", "attrib_count_minus_1"],
    "GPUREG_ATTRIBBUFFERi_OFFSET": ["offset"],
    "GPUREG_ATTRIBBUFFERi_CONFIG1": [f"component{i}" for i in range(1, 9)],
    "GPUREG_ATTRIBBUFFERi_CONFIG2": [f"component{i}" for i in range(9, 13)] + ["bytes_per_vertex", "component_count"],
    "GPUREG_INDEXBUFFER_CONFIG": ["offset", "index_type"],
    "GPUREG_NUMVERTICES": ["count"],
    "GPUREG_GEOSTAGE_CONFIG": ["gs_mode", "drawing_triangle_elements", None, "use_reserved_subdivision"],
    "GPUREG_VERTEX_OFFSET": ["offset"],
    "GPUREG_POST_VERTEX_CACHE_NUM": ["entries"],
    "GPUREG_DRAWARRAYS": ["trigger"],
    "GPUREG_DRAWELEMENTS": ["trigger"],
    "GPUREG_VTX_FUNC": ["trigger"],
    "GPUREG_FIXEDATTRIB_INDEX": ["index"],
    "GPUREG_FIXEDATTRIB_DATA0": ["z_high", "w"],
    "GPUREG_FIXEDATTRIB_DATA1": ["y_high", "z_low"],
    "GPUREG_FIXEDATTRIB_DATA2": ["x", "y_low"],
    "GPUREG_CMDBUF_SIZEi": ["size"],
    "GPUREG_CMDBUF_ADDRi": ["addr"],
    "GPUREG_CMDBUF_JUMPi": ["trigger"],
    "GPUREG_VSH_NUM_ATTR": ["num_attr_minus_1"],
    "GPUREG_VSH_COM_MODE": ["gs_config_enabled"],
    "GPUREG_START_DRAW_FUNC0": ["mode"],
    "GPUREG_VSH_OUTMAP_TOTAL1": ["outmap_total_minus_1"],
    "GPUREG_VSH_OUTMAP_TOTAL2": ["outmap_total_minus_1"],
    "GPUREG_GSH_MISC0": ["misc"],
    "GPUREG_GEOSTAGE_CONFIG2": ["function_indicator", "drawing_triangle_elements"],
    "GPUREG_GSH_MISC1": ["subdivision_type"],
    "GPUREG_PRIMITIVE_CONFIG": ["outmap_total_minus_1", "primitive_mode"],
    "GPUREG_RESTART_PRIMITIVE": ["trigger"],
    "GPUREG_SH_BOOLUNIFORM": ["bools"],
    "GPUREG_SH_INTUNIFORM_Ii": ["x", "y", "z", "w"],
    "GPUREG_SH_INPUTBUFFER_CONFIG": ["input_count_minus_1", "use_subdivision", None, "use_geometry_shader"],
    "GPUREG_SH_ENTRYPOINT": ["entry"],
    "GPUREG_SH_ATTRIBUTES_PERMUTATION_LOW": [f"attr{i}" for i in range(8)],
    "GPUREG_SH_ATTRIBUTES_PERMUTATION_HIGH": [f"attr{i}" for i in range(8, 16)],
    "GPUREG_SH_OUTMAP_MASK": [f"o{i}" for i in range(16)],
    "GPUREG_SH_CODETRANSFER_END": ["trigger"],
    "GPUREG_SH_FLOATUNIFORM_INDEX": ["index", "mode"],
    "GPUREG_SH_FLOATUNIFORM_DATAi": ["data"],
    "GPUREG_SH_CODETRANSFER_INDEX": ["offset"],
    "GPUREG_SH_CODETRANSFER_DATAi": ["data"],
    "GPUREG_SH_OPDESCS_INDEX": ["offset"],
    "GPUREG_SH_OPDESCS_DATAi": ["data"],
}

# heading -> {field index: ({kind...}, new description or None)}
KIND_FIX = {
    "GPUREG_TEXUNITi_PARAM": {
        6: ({"kind": "bool"}, "Shadow (Texture 0 only, 0 = not shadow, 1 = shadow)"),
    },
    "GPUREG_TEXUNITi_SHADOW": {
        0: ({"kind": "bool"}, "Perspective (0 = perspective, 1 = not perspective)"),
    },
    "GPUREG_LIGHTING_CONFIG0": {
        12: ({"kind": "bool"}, "Recalculate bump vectors (0 = enabled, 1 = disabled) (usually set to 1 when bump mode is not 0)"),
    },
    "GPUREG_GEOSTAGE_CONFIG2": {
        0: ({"kind": "bool"}, None),
    },
    "GPUREG_SH_CODETRANSFER_DATAi": {0: ({"kind": "data"}, None)},
    "GPUREG_CMDBUF_SIZEi": {0: ({"kind": "unsigned"}, "Size of command buffer i >> 3")},
    "GPUREG_CMDBUF_ADDRi": {0: ({"kind": "unsigned"}, "Physical address of command buffer i >> 3")},
    "GPUREG_CMDBUF_JUMPi": {0: ({"kind": "trigger"}, "Trigger (0 = idle, non-zero = execute command buffer i)")},
    "GPUREG_SH_OPDESCS_DATAi": {0: ({"kind": "data"}, None)},
    "GPUREG_SH_INPUTBUFFER_CONFIG": {
        1: ({"kind": "unsigned"}, "Use reserved geometry shader subdivision (0 = don't use, 1 = use) (always 0 for vertex shaders)"),
    },
}

# heading -> {field index: enum type name}
FIELD_ENUM = {
    "GPUREG_FACECULLING_CONFIG": {0: "FacecullingConfigMode"},
    "GPUREG_SH_OUTMAP_Oi": {0: "ShOutmapSemantic", 1: "ShOutmapSemantic", 2: "ShOutmapSemantic", 3: "ShOutmapSemantic"},
    "GPUREG_EARLYDEPTH_FUNC": {0: "EarlydepthFunction"},
    "GPUREG_SCISSORTEST_MODE": {0: "ScissortestModeMode"},
    "GPUREG_TEXUNIT_CONFIG": {4: "TexunitConfigTexture3Coords", 7: "TexunitConfigTexture2Coords"},
    "GPUREG_TEXUNITi_PARAM": {0: "TexunitParamFilter", 1: "TexunitParamFilter", 2: "TexunitParamEtc1",
                              3: "TexunitParamWrap", 4: "TexunitParamWrap", 7: "TexunitParamFilter",
                              8: "TexunitParamType"},
    "GPUREG_TEXUNITi_TYPE": {0: "TexunitTypeFormat"},
    "GPUREG_TEXUNIT3_PROCTEX0": {0: "ProctexClamp", 1: "ProctexClamp", 2: "ProctexMappingFunction",
                                 3: "ProctexMappingFunction", 6: "ProctexShift", 7: "ProctexShift"},
    "GPUREG_TEXUNIT3_PROCTEX4": {0: "ProctexMinFilter"},
    "GPUREG_PROCTEX_LUT": {1: "ProctexLutTable"},
    "GPUREG_TEXENVi_SOURCE": {i: "TexenvSourceInput" for i in range(6)},
    "GPUREG_TEXENVi_OPERAND": {0: "TexenvOperandRgb", 1: "TexenvOperandRgb", 2: "TexenvOperandRgb",
                               3: "TexenvOperandAlpha", 4: "TexenvOperandAlpha", 5: "TexenvOperandAlpha"},
    "GPUREG_TEXENVi_COMBINER": {0: "TexenvCombinerMode", 1: "TexenvCombinerMode"},
    "GPUREG_TEXENVi_SCALE": {0: "TexenvScaleFactor", 1: "TexenvScaleFactor"},
    "GPUREG_TEXENV_UPDATE_BUFFER": dict(
        [(0, "TexenvUpdateBufferFogMode"), (1, "TexenvUpdateBufferDensitySource")]
        + [(i, "TexenvUpdateBufferInput") for i in range(2, 10)]
    ),
    "GPUREG_COLOR_OPERATION": {0: "ColorOperationFragmentMode", 1: "ColorOperationBlendMode"},
    "GPUREG_BLEND_FUNC": {0: "BlendFuncEquation", 1: "BlendFuncEquation", 2: "BlendFuncFactor",
                          3: "BlendFuncFactor", 4: "BlendFuncFactor", 5: "BlendFuncFactor"},
    "GPUREG_LOGIC_OP": {0: "LogicOpOperation"},
    "GPUREG_FRAGOP_ALPHA_TEST": {1: "CompareFunction"},
    "GPUREG_STENCIL_TEST": {1: "CompareFunction"},
    "GPUREG_STENCIL_OP": {0: "StencilOpAction", 1: "StencilOpAction", 2: "StencilOpAction"},
    "GPUREG_DEPTH_COLOR_MASK": {1: "CompareFunction"},
    "GPUREG_DEPTHBUFFER_FORMAT": {0: "DepthbufferFormatFormat"},
    "GPUREG_COLORBUFFER_FORMAT": {0: "ColorbufferFormatPixelSize", 1: "ColorbufferFormatFormat"},
    "GPUREG_FRAMEBUFFER_BLOCK32": {0: "FramebufferBlock32Mode"},
    "GPUREG_GAS_LIGHT_Z_COLOR": {1: "GasLightZColorLutInput"},
    "GPUREG_GAS_DELTAZ_DEPTH": {1: "GasDeltazDepthFunction"},
    "GPUREG_LIGHTi_CONFIG": {0: "LightConfigType"},
    "GPUREG_LIGHTING_CONFIG0": {1: "LightingConfig0FresnelSelector", 2: "LightingConfig0LightEnv",
                                11: "LightingConfig0BumpMode"},
    "GPUREG_LIGHTING_LUT_INDEX": {1: "LightingLutIndexTable"},
    "GPUREG_LIGHTING_LUTINPUT_SELECT": {i: "LightingLutinputSelectInput" for i in range(7)},
    "GPUREG_LIGHTING_LUTINPUT_SCALE": {i: "LightingLutinputScaleFactor" for i in range(7)},
    "GPUREG_ATTRIBBUFFERS_FORMAT_LOW": {i: ("AttribFormatType" if i % 2 == 0 else "AttribFormatSize") for i in range(16)},
    "GPUREG_ATTRIBBUFFERS_FORMAT_HIGH": {i: ("AttribFormatType" if i % 2 == 0 else "AttribFormatSize") for i in range(8)},
    "GPUREG_ATTRIBBUFFERi_CONFIG1": {i: "AttribbufferComponent" for i in range(8)},
    "GPUREG_ATTRIBBUFFERi_CONFIG2": {i: "AttribbufferComponent" for i in range(4)},
    "GPUREG_INDEXBUFFER_CONFIG": {1: "IndexbufferConfigIndexType"},
    "GPUREG_GEOSTAGE_CONFIG": {0: "GeostageConfigGsMode"},
    "GPUREG_START_DRAW_FUNC0": {0: "StartDrawFunc0Mode"},
    "GPUREG_GSH_MISC1": {0: "GshMisc1SubdivisionType"},
    "GPUREG_PRIMITIVE_CONFIG": {1: "PrimitiveConfigMode"},
    "GPUREG_SH_INPUTBUFFER_CONFIG": {3: "ShInputbufferConfigGsUse"},
    "GPUREG_SH_FLOATUNIFORM_INDEX": {1: "ShFloatuniformIndexMode"},
}

# (seed heading, enum label) -> (enum type name or None to drop, [variant names])
ENUMS = {
    ("GPUREG_FACECULLING_CONFIG", "Culling mode values:"): ("FacecullingConfigMode", ["None", "FrontCcw", "BackCcw"]),
    ("GPUREG_SH_OUTMAP_Oi", "Semantic values:"): ("ShOutmapSemantic", [
        "PositionX", "PositionY", "PositionZ", "PositionW", "NormquatX", "NormquatY", "NormquatZ", "NormquatW",
        "ColorR", "ColorG", "ColorB", "ColorA", "Texcoord0U", "Texcoord0V", "Texcoord1U", "Texcoord1V",
        "Texcoord0W", "ViewX", "ViewY", "ViewZ", "Texcoord2U", "Texcoord2V", "Unused"]),
    ("GPUREG_EARLYDEPTH_FUNC", "Early depth function values:"): ("EarlydepthFunction", [
        "GreaterEqual", "Greater", "LessEqual", "Less"]),
    ("GPUREG_TEXUNIT_CONFIG", "Texture 3 coordinates values:"): ("TexunitConfigTexture3Coords", [
        "Texture0", "Texture1", "Texture2"]),
    ("GPUREG_TEXUNIT_CONFIG", "Texture 2 coordinates values:"): ("TexunitConfigTexture2Coords", [
        "Texture2", "Texture1"]),
    ("GPUREG_TEXUNITi_PARAM", "Filter values:"): ("TexunitParamFilter", ["Nearest", "Linear"]),
    ("GPUREG_TEXUNITi_PARAM", "Wrap values:"): ("TexunitParamWrap", [
        "ClampToEdge", "ClampToBorder", "Repeat", "MirroredRepeat"]),
    ("GPUREG_TEXUNITi_PARAM", "Type values:"): ("TexunitParamType", [
        "Texture2D", "CubeMap", "Shadow2D", "Projection", "ShadowCube", "Disabled"]),
    ("GPUREG_TEXUNITi_TYPE", "Format values:"): ("TexunitTypeFormat", [
        "Rgba8888", "Rgb888", "Rgba5551", "Rgb565", "Rgba4444", "Ia8", "Hilo8", "I8", "A8", "Ia44", "I4", "A4",
        "Etc1", "Etc1a4"]),
    ("GPUREG_TEXUNIT3_PROCTEX0", "Clamp values:"): ("ProctexClamp", [
        "ClampToZero", "ClampToEdge", "SymmetricalRepeat", "MirroredRepeat", "Pulse"]),
    ("GPUREG_TEXUNIT3_PROCTEX0", "Mapping function values:"): ("ProctexMappingFunction", [
        "U", "USquared", "V", "VSquared", "UPlusV", "USquaredPlusVSquared", "Sqrt", "Min", "Max", "Rmax"]),
    ("GPUREG_TEXUNIT3_PROCTEX0", "Shift values:"): ("ProctexShift", ["None", "Odd", "Even"]),
    ("GPUREG_TEXUNIT3_PROCTEX4", "Minification filter values:"): ("ProctexMinFilter", [
        "Nearest", "Linear", "NearestMipmapNearest", "LinearMipmapNearest", "NearestMipmapLinear",
        "LinearMipmapLinear"]),
    ("GPUREG_PROCTEX_LUT", "Reference table values:"): ("ProctexLutTable", [
        "Noise", "RgbMap", "AlphaMap", "Color", "ColorDiff"]),
    ("GPUREG_TEXENVi_SOURCE", "Source values:"): ("TexenvSourceInput", [
        "PrimaryColor", "FragmentPrimaryColor", "FragmentSecondaryColor", "Texture0", "Texture1", "Texture2",
        "Texture3", "PreviousBuffer", "Constant", "Previous"]),
    ("GPUREG_TEXENVi_OPERAND", "RGB operand values:"): ("TexenvOperandRgb", [
        "SourceColor", "OneMinusSourceColor", "SourceAlpha", "OneMinusSourceAlpha", "SourceRed",
        "OneMinusSourceRed", "SourceGreen", "OneMinusSourceGreen", "SourceBlue", "OneMinusSourceBlue"]),
    ("GPUREG_TEXENVi_OPERAND", "Alpha operand values:"): ("TexenvOperandAlpha", [
        "SourceAlpha", "OneMinusSourceAlpha", "SourceRed", "OneMinusSourceRed", "SourceGreen",
        "OneMinusSourceGreen", "SourceBlue", "OneMinusSourceBlue"]),
    ("GPUREG_TEXENVi_COMBINER", "Combine values:"): ("TexenvCombinerMode", [
        "Replace", "Modulate", "Add", "AddSigned", "Interpolate", "Subtract", "Dot3Rgb", "Dot3Rgba",
        "MultiplyThenAdd", "AddThenMultiply"]),
    ("GPUREG_TEXENVi_SCALE", "Scale values:"): ("TexenvScaleFactor", ["X1", "X2", "X4"]),
    ("GPUREG_TEXENV_UPDATE_BUFFER", "Fog mode values:"): ("TexenvUpdateBufferFogMode", ["Disabled", "Fog", "Gas"]),
    ("GPUREG_TEXENV_UPDATE_BUFFER", "Shading density source values:"): ("TexenvUpdateBufferDensitySource", [
        "PlainDensity", "DepthDensity"]),
    ("GPUREG_TEXENV_UPDATE_BUFFER", "Buffer input values:"): ("TexenvUpdateBufferInput", [
        "PreviousBuffer", "Previous"]),
    ("GPUREG_COLOR_OPERATION", "Fragment operation mode values:"): ("ColorOperationFragmentMode", [
        "Default", "Gas", "Shadow"]),
    ("GPUREG_COLOR_OPERATION", "Blend mode values:"): ("ColorOperationBlendMode", ["LogicOp", "Blend"]),
    ("GPUREG_BLEND_FUNC", "Equation values:"): ("BlendFuncEquation", [
        "Add", "Subtract", "ReverseSubtract", "Min", "Max"]),
    ("GPUREG_BLEND_FUNC", "Function values:"): ("BlendFuncFactor", [None] * 15),
    ("GPUREG_LOGIC_OP", "Logic op values:"): ("LogicOpOperation", [
        "Clear", "And", "ReverseAnd", "Copy", "Set", "InvertedCopy", "Noop", "Invert", "Nand", "Or", "Nor", "Xor",
        "Equivalent", "InvertedAnd", "ReverseOr", "InvertedOr"]),
    ("GPUREG_FRAGOP_ALPHA_TEST", "Function values:"): ("CompareFunction", [
        "Never", "Always", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"]),
    ("GPUREG_STENCIL_TEST", "Function values:"): (None, [None] * 8),
    ("GPUREG_STENCIL_OP", "Operation values:"): ("StencilOpAction", [
        "Keep", "Zero", "Replace", "Increment", "Decrement", "Invert", "IncrementWrap", "DecrementWrap"]),
    ("GPUREG_DEPTH_COLOR_MASK", "Depth function values:"): (None, [None] * 8),
    ("GPUREG_DEPTHBUFFER_FORMAT", "Format values:"): ("DepthbufferFormatFormat", ["D16", "D24", "D24S8"]),
    ("GPUREG_COLORBUFFER_FORMAT", "Pixel size values:"): ("ColorbufferFormatPixelSize", ["Bits16", "Bits32"]),
    ("GPUREG_COLORBUFFER_FORMAT", "Format values:"): ("ColorbufferFormatFormat", [
        "Rgba8", "Rgb5a1", "Rgb565", "Rgba4"]),
    ("GPUREG_FRAMEBUFFER_BLOCK32", "Render block mode values:"): ("FramebufferBlock32Mode", [
        "Blocks8x8", "Blocks32x32"]),
    ("GPUREG_GAS_LIGHT_Z_COLOR", "Color LUT input values:"): ("GasLightZColorLutInput", [
        "GasDensity", "LightFactor"]),
    ("GPUREG_GAS_DELTAZ_DEPTH", "Gas depth function values:"): ("GasDeltazDepthFunction", [
        "Never", "Always", "Greater", "Less"]),
    ("GPUREG_LIGHTING_CONFIG0", "Fresnel selector values:"): ("LightingConfig0FresnelSelector", [
        "None", "PrimaryAlpha", "SecondaryAlpha", "PrimaryAndSecondaryAlpha"]),
    ("GPUREG_LIGHTING_CONFIG0", "Light environment configuration values:"): ("LightingConfig0LightEnv", [
        "Config0", "Config1", "Config2", "Config3", "Config4", "Config5", "Config6", "Config7"]),
    ("GPUREG_LIGHTING_CONFIG0", "Bump mode values:"): ("LightingConfig0BumpMode", [
        "NotUsed", "BumpMap", "TangentMap"]),
    ("GPUREG_LIGHTING_LUT_INDEX", "Lookup table values:"): ("LightingLutIndexTable", [
        "D0", "D1", "Fr", "Rb", "Rg", "Rr"] + [f"Sp{i}" for i in range(8)] + [f"Da{i}" for i in range(8)]),
    ("GPUREG_LIGHTING_LUTINPUT_SELECT", "Input selector values:"): ("LightingLutinputSelectInput", [
        "NDotH", "VDotH", "NDotV", "LDotN", "NegLDotP", "CosPhi"]),
    ("GPUREG_LIGHTING_LUTINPUT_SCALE", "Scaler selector values:"): ("LightingLutinputScaleFactor", [
        "X1", "X2", "X4", "X8", "Quarter", "Half"]),
    ("GPUREG_ATTRIBBUFFERS_FORMAT_LOW", "Vertex attribute type values:"): ("AttribFormatType", [
        "Byte", "UnsignedByte", "Short", "Float"]),
    ("GPUREG_ATTRIBBUFFERS_FORMAT_LOW", "Vertex attribute size values:"): ("AttribFormatSize", [
        "Components1", "Components2", "Components3", "Components4"]),
    ("GPUREG_ATTRIBBUFFERi_CONFIG1", "Component values:"): ("AttribbufferComponent", [
        f"Attribute{i}" for i in range(12)] + ["Padding4", "Padding8", "Padding12", "Padding16"]),
    ("GPUREG_PRIMITIVE_CONFIG", "Primitive mode value:"): ("PrimitiveConfigMode", [
        "Triangles", "TriangleStrip", "TriangleFan", "GeometryPrimitive"]),
}

# Enums the seed gives inline in a field description ("(0 = x, 2 = y)"): heading -> [(type, (desc, values))]
EXTRA_ENUMS = {
    "GPUREG_SCISSORTEST_MODE": [("ScissortestModeMode", ("Scissor mode values (from the field description)", [
        (0, "Disabled", "Disabled"), (3, "Enabled", "Enabled")]))],
    "GPUREG_TEXUNITi_PARAM": [("TexunitParamEtc1", ("ETC1 values (from the field description)", [
        (0, "NotEtc1", "Not ETC1 (also used for ETC1A4)"), (2, "Etc1", "ETC1")]))],
    "GPUREG_LIGHTi_CONFIG": [("LightConfigType", ("Light type values (from the field description)", [
        (0, "Positional", "Positional light"), (1, "Directional", "Directional light")]))],
    "GPUREG_INDEXBUFFER_CONFIG": [("IndexbufferConfigIndexType", ("Index type values (from the field description)", [
        (0, "U8", "Unsigned byte"), (1, "U16", "Unsigned short, or drawing arrays")]))],
    "GPUREG_GEOSTAGE_CONFIG": [("GeostageConfigGsMode", ("Geometry shader mode values (from the field description)", [
        (0, "VertexOnly", "Geometry shader not in use: all 4 shader units run the vertex shader"),
        (2, "GeometryShader", "Geometry shader in use: unit 3 runs it, units 0-2 the vertex shader")]))],
    "GPUREG_START_DRAW_FUNC0": [("StartDrawFunc0Mode", ("Mode values (from the field description)", [
        (0, "Drawing", "Drawing"), (1, "Configuration", "Configuration")]))],
    "GPUREG_GSH_MISC1": [("GshMisc1SubdivisionType", ("Subdivision type values (from the field description)", [
        (2, "Loop", "Loop"), (3, "CatmullClark", "Catmull-Clark")]))],
    "GPUREG_SH_INPUTBUFFER_CONFIG": [("ShInputbufferConfigGsUse", ("Geometry shader use values (from the field description)", [
        (0x08, "Use", "Geometry shader in use (0x08)"), (0xA0, "DontUse", "Geometry shader not in use (0xA0); always for vertex shaders")]))],
    "GPUREG_SH_FLOATUNIFORM_INDEX": [("ShFloatuniformIndexMode", ("Transfer mode values (from the field description)", [
        (0, "F24", "float1.7.16: one vec4 in 3 words"), (1, "F32", "float1.8.23: one vec4 in 4 words")]))],
}

# LUT entry formats: (seed heading, bits table index) -> entry description
_PT_DIFF = ("UNVERIFIED(hw): seed 002 gives the difference as \"fixed0.0.12 with two's complement ( [0.5,1.0) "
            "mapped to [-1.0,0) )\", the previous revision (the old side of the seed 001 change list) as "
            "fixed1.0.11; the two disagree on the scale of negative values, so the field is kept as a raw "
            "12-bit two's complement number.")
_PT_FIELD = "Difference from next element (fixed0.0.12 with two's complement; raw, scale UNVERIFIED(hw), see the table)"
ENTRIES = {
    ("GPUREG_PROCTEX_LUT_DATAi", 1): {
        "name": "Noise table", "struct": "ProctexNoiseEntry", "elements": 128,
        "description": "Selected by GPUREG_PROCTEX_LUT table = 0 (Noise). " + _PT_DIFF,
        "names": ["value", "difference"],
        "kinds": {1: ({"kind": "signed"}, _PT_FIELD)},
    },
    ("GPUREG_PROCTEX_LUT_DATAi", 2): {
        "name": "RGB mapping function table", "struct": "ProctexRgbMapEntry", "elements": 128,
        "description": "Selected by GPUREG_PROCTEX_LUT table = 2 (RgbMap). " + _PT_DIFF,
        "names": ["value", "difference"],
        "kinds": {1: ({"kind": "signed"}, _PT_FIELD)},
    },
    ("GPUREG_PROCTEX_LUT_DATAi", 3): {
        "name": "Alpha mapping function table", "struct": "ProctexAlphaMapEntry", "elements": 128,
        "description": "Selected by GPUREG_PROCTEX_LUT table = 3 (AlphaMap). " + _PT_DIFF,
        "names": ["value", "difference"],
        "kinds": {1: ({"kind": "signed"}, _PT_FIELD)},
    },
    ("GPUREG_PROCTEX_LUT_DATAi", 4): {
        "name": "Color table", "struct": "ProctexColorEntry", "elements": 256,
        "description": "Selected by GPUREG_PROCTEX_LUT table = 4 (Color).",
        "names": ["red", "green", "blue", "alpha"],
    },
    ("GPUREG_PROCTEX_LUT_DATAi", 5): {
        "name": "Color difference table", "struct": "ProctexColorDiffEntry", "elements": 256,
        "description": "Selected by GPUREG_PROCTEX_LUT table = 5 (ColorDiff).",
        "names": ["red", "green", "blue", "alpha"],
    },
    ("GPUREG_FOG_LUT_DATAi", 1): {
        "name": "Fog look-up table", "struct": "FogLutEntry", "elements": 128,
        "description": "Each word written to GPUREG_FOG_LUT_DATAi is one entry.",
        "names": ["difference", "value"],
    },
    ("GPUREG_GAS_LUT_DATA", 1): {
        "name": "Gas look-up table, first 8 elements", "struct": "GasLutFirstEntry", "elements": 8,
        "description": "Elements 0-7 of the 16-element gas look-up table.",
        "names": ["red", "green", "blue"],
    },
    ("GPUREG_GAS_LUT_DATA", 2): {
        "name": "Gas look-up table, last 8 elements", "struct": "GasLutLastEntry", "elements": 8,
        "description": "Elements 8-15 of the 16-element gas look-up table.",
        "names": ["red", "green", "blue"],
    },
    ("GPUREG_LIGHTING_LUT_DATAi", 1): {
        "name": "Lighting LUT entry", "struct": "LightingLutEntry", "elements": 256,
        "description": "Each word written to GPUREG_LIGHTING_LUT_DATAi is one entry of the table selected "
                       "with GPUREG_LIGHTING_LUT_INDEX. UNVERIFIED(hw): seed 002 calls the difference an absolute "
                       "value but gives it the signed format fixed1.0.11.",
        "names": ["value", "difference"],
        "kinds": {1: ({"kind": "fixed1.0.11"}, "Absolute value of the difference between the next entry and this "
                      "entry, used to implement linear interpolation (UNVERIFIED(hw), see the table)")},
    },
}

DESC_OVERRIDE = {
    "GPUREG_CMDBUF_SIZEi": ["These registers set the size of command buffer i (SIZE0: the first, SIZE1: the second)."],
    "GPUREG_CMDBUF_ADDRi": ["These registers set the physical address of command buffer i (ADDR0: the first, "
                            "ADDR1: the second)."],
    "GPUREG_CMDBUF_JUMPi": ["Writing these registers triggers a jump to command buffer i (JUMP0: the first, "
                            "JUMP1: the second)."],
    "GPUREG_TEXUNITi_ADDRi (first)": [
        "The first (or only) address register of a texture unit: TEXUNIT0_ADDR1, TEXUNIT1_ADDR, TEXUNIT2_ADDR.",
        "This register is used to set a texture unit's physical address(es) in memory. Individual texels in a "
        "texture are laid out in memory as a Z-order curve. Mipmap data is stored directly following the main "
        "texture data.",
        "If the texture is a cube:\n\n- ADDR1 Positive X\n- ADDR2 Negative X\n- ADDR3 Positive Y\n"
        "- ADDR4 Negative Y\n- ADDR5 Positive Z\n- ADDR6 Negative Z",
        "Otherwise, ADDR(1) points to a 2D texture, and the rest are empty.",
    ],
    "GPUREG_TEXUNITi_ADDRi (subsequent)": [
        "The subsequent address registers of texture unit 0 (TEXUNIT0_ADDR2-ADDR6, the other cube faces). "
        "They hold only the low 22 bits of the address >> 3; the upper 6 bits are those of TEXUNIT0_ADDR1.",
        "If the texture is a cube:\n\n- ADDR1 Positive X\n- ADDR2 Negative X\n- ADDR3 Positive Y\n"
        "- ADDR4 Negative Y\n- ADDR5 Positive Z\n- ADDR6 Negative Z",
        "Otherwise, ADDR(1) points to a 2D texture, and the rest are empty.",
    ],
    "GPUREG_SH_FLOATUNIFORM_DATAi": [
        "This register is used to set the components of a shader unit's floating-point registers, each having 4 "
        "components. The data format which should be written to it depends on the transfer mode set with "
        "GPUREG_SH_FLOATUNIFORM_INDEX. This register functions as a FIFO queue: after each time a 4-component "
        "uniform register is successfully set, the target register index is incremented, meaning that groups of "
        "uniforms with contiguous register IDs can be set with only one initial write to "
        "GPUREG_SH_FLOATUNIFORM_INDEX.",
        "- In the case of float24 transfer mode, data should be sent by writing three words which are the "
        "concatenation of the float24 value of the uniform register's 4 components, in the reverse order. "
        "Assuming each letter corresponds to 4 bits, the format becomes: first word: ZZWWWWWW; second word: "
        "YYYYZZZZ; third word: XXXXXXYY.\n"
        "- In the case of float32 transfer mode, data should be sent by writing four words which are each the "
        "float32 value of the uniform register's 4 components, in the reverse order.",
        "Reading of the letter strings (pica-facts, section 1): they list the nibbles least significant first. "
        "As a 96-bit number W:Z:Y:X (W in the top bits), word0 = W << 8 | Z >> 16, "
        "word1 = (Z & 0xFFFF) << 16 | Y >> 8, word2 = (Y & 0xFF) << 24 | X; the same packing as "
        "GPUREG_FIXEDATTRIB_DATA0-2.",
    ],
}

EXTRA_DESC = {
    "GPUREG_VSH_COM_MODE": "When disabled and the geometry unit is not in use, as configured by "
                           "GPUREG_GEOSTAGE_CONFIG, uniforms, outmap mask, program code and swizzle data are "
                           "propagated to the geometry shader unit (seed 001, from hardware findings).",
    "GPUREG_SCISSORTEST_MODE": "UNVERIFIED(hw): the seed names only 0 (disabled) and 3 (enabled); what 1 and 2 "
                               "do is not described (seed 002).",
    "GPUREG_TEXUNIT_CONFIG": "UNVERIFIED(hw): bit 16 (clear texture cache) acts on a write, like a trigger, but "
                             "the seed does not say whether it self-clears; the table declares no side effect "
                             "for this register (seed 002).",
    "GPUREG_STENCIL_TEST": "UNVERIFIED(hw): the seed gives the reference value as signed; stencil values are "
                           "8-bit unsigned elsewhere (seed 002).",
    "GPUREG_LIGHTING_CONFIG0": "UNVERIFIED(hw): the seed encodes configuration 7 as the value 8, leaving 7 "
                               "undescribed (seed 002).",
    "GPUREG_ATTRIBBUFFERS_LOC": "UNVERIFIED(hw): seed 004 gives the whole word as the physical address >> 3 "
                                "with the address 16-byte aligned, so bits 1-28 hold the physical address >> 4 "
                                "and bit 0 is zero (seed 002, seed 004).",
    "GPUREG_ATTRIBBUFFERS_FORMAT_LOW": "UNVERIFIED(hw): seed 004 spells the 4-bit value as type + (components - 1) "
                                       "* 4, so the size field is the number of components - 1; the \"8 bits\" ... "
                                       "\"32 bits\" names of seed 002 are the sizes of byte components.",
    "GPUREG_INDEXBUFFER_CONFIG": "UNVERIFIED(hw): seed 004 gives the index array offset as bits 0-30; seed 002 "
                                 "(followed here) gives bits 0-27.",
    "GPUREG_PRIMITIVE_CONFIG": "Seed 004: primitive mode 4 seems to have the same effect as 0 (it decodes here "
                               "as Reserved(4)).",
    "GPUREG_SH_OPDESCS_INDEX": "UNVERIFIED(hw): seed 002 (followed here) gives bits 0-11, the older revision "
                               "(seed 000) bits 0-6; there are 128 operand descriptors (pica-facts), so bits "
                               "0-6 select one, and what the hardware does with bits 7-11 is not described.",
    "GPUREG_SH_FLOATUNIFORM_INDEX": "An index of 96 or more is ignored by the hardware (pica-facts, from "
                                    "Azahar shader_setup.cpp); the usual value written to end an upload is 0x7F.",
    "GPUREG_FIXEDATTRIB_DATA0": "UNVERIFIED(hw): the seed names the three words by ID (DATA0, DATA1, DATA2); "
                                "Citra and Azahar count the words written to any of 0x233-0x235 instead, so "
                                "that the first word of each vec4 has the DATA0 layout whichever ID receives it.",
}
for _h in ("GPUREG_FIXEDATTRIB_DATA1", "GPUREG_FIXEDATTRIB_DATA2"):
    EXTRA_DESC[_h] = EXTRA_DESC["GPUREG_FIXEDATTRIB_DATA0"]

def _r(a, b):
    return range(a, b + 1)

EFFECTS = {0x010: "Trigger(Finalize)", 0x063: "Trigger(EarlyDepthClear)",
           0x0AF: "FifoIndex(ProcTexLut)", 0x0E6: "FifoIndex(FogLut)",
           0x110: "Trigger(FramebufferInvalidate)", 0x111: "Trigger(FramebufferFlush)",
           0x123: "FifoIndex(GasLut)", 0x124: "FifoData(GasLut)", 0x1C5: "FifoIndex(LightingLut)",
           0x22E: "Trigger(DrawArrays)", 0x22F: "Trigger(DrawElements)", 0x231: "Trigger(VtxFunc)",
           0x232: "FifoIndex(FixedAttrib)", 0x23C: "Trigger(CmdbufJump(0))", 0x23D: "Trigger(CmdbufJump(1))",
           0x25F: "Trigger(RestartPrimitive)"}
for _i in _r(0x0B0, 0x0B7):
    EFFECTS[_i] = "FifoData(ProcTexLut)"
for _i in _r(0x0E8, 0x0EF):
    EFFECTS[_i] = "FifoData(FogLut)"
for _i in _r(0x1C8, 0x1CF):
    EFFECTS[_i] = "FifoData(LightingLut)"
for _i in _r(0x233, 0x235):
    EFFECTS[_i] = "FifoData(FixedAttrib)"
for _base, _blk in ((0x280, "Gsh"), (0x2B0, "Vsh")):
    EFFECTS[_base + 0x0F] = f"Trigger(CodeTransferEnd({_blk}))"
    EFFECTS[_base + 0x10] = f"FifoIndex(FloatUniform({_blk}))"
    for _i in _r(_base + 0x11, _base + 0x18):
        EFFECTS[_i] = f"FifoData(FloatUniform({_blk}))"
    EFFECTS[_base + 0x1B] = f"FifoIndex(Code({_blk}))"
    for _i in _r(_base + 0x1C, _base + 0x23):
        EFFECTS[_i] = f"FifoData(Code({_blk}))"
    EFFECTS[_base + 0x25] = f"FifoIndex(OpDesc({_blk}))"
    for _i in _r(_base + 0x26, _base + 0x2D):
        EFFECTS[_i] = f"FifoData(OpDesc({_blk}))"

_FIFO = "Consecutive IDs that all write the same transfer FIFO, so that one consecutive-mode command can stream data into it."
ALIASES = [
    ("PROCTEX_LUT_DATA", 0x0B0, 8, _FIFO + " Feeds the procedural-texture LUT selected with GPUREG_PROCTEX_LUT."),
    ("FOG_LUT_DATA", 0x0E8, 8, _FIFO + " Feeds the fog LUT at the index set with GPUREG_FOG_LUT_INDEX."),
    ("LIGHTING_LUT_DATA", 0x1C8, 8, _FIFO + " Feeds the lighting LUT selected with GPUREG_LIGHTING_LUT_INDEX."),
    ("FIXEDATTRIB_DATA", 0x233, 3, "Three consecutive IDs that take the three words of one packed vec4 of f24 "
     "values (DATA0, DATA1, DATA2 have different layouts) for the fixed attribute selected with "
     "GPUREG_FIXEDATTRIB_INDEX, or an immediate-mode vertex."),
    ("GSH_FLOATUNIFORM_DATA", 0x291, 8, _FIFO + " Feeds the geometry shader float uniforms."),
    ("GSH_CODETRANSFER_DATA", 0x29C, 8, _FIFO + " Feeds the geometry shader program memory."),
    ("GSH_OPDESCS_DATA", 0x2A6, 8, _FIFO + " Feeds the geometry shader operand descriptors."),
    ("VSH_FLOATUNIFORM_DATA", 0x2C1, 8, _FIFO + " Feeds the vertex shader float uniforms."),
    ("VSH_CODETRANSFER_DATA", 0x2CC, 8, _FIFO + " Feeds the vertex shader program memory."),
    ("VSH_OPDESCS_DATA", 0x2D6, 8, _FIFO + " Feeds the vertex shader operand descriptors."),
]


if __name__ == "__main__":
    main()
