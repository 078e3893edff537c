//! The hardware-facts ledger: every hardware fact the model relies on beyond the seeds, with
//! its status and where the model embodies it.
//!
//! A [`Fact`] is [`Status::Measured`] (a test on a real 3DS, with the source),
//! [`Status::Documented`] (a public document, with the source) or [`Status::Unverified`] (the
//! model's choice, the alternatives, the knob that selects them if there is one, and the
//! hardware test that would settle it).
//!
//! Every `UNVERIFIED(hw)` comment in `model/src` carries a tag naming its fact,
//! `UNVERIFIED(hw) [fact: ID]`; `model/tests/facts.rs` checks that every such comment has a tag,
//! that every tag names a fact of [`all`], and that every unverified fact is tagged somewhere.
//! Several comments that describe the same decision share one fact. A mention of the
//! convention itself is written in backticks (`` `UNVERIFIED(hw)` ``) and is not a site.
//!
//! The knobs are not copied here: a fact built with a shader knob's name (`knob`), or the fact
//! a knob of [`crate::knobs::AREA`] names, takes its choice (the default, the first value), its
//! alternatives and its knob from [`Knobs::NAMES`] when [`all`] runs. Every other unverified
//! fact says why it has no knob ([`NO_KNOB`]), so the ledger shows each one either switchable
//! or explained.
//!
//! `pica facts` lists the ledger; `docs/hardware-facts.md` is generated from it by
//! `pica gen docs` ([`markdown`]).

use crate::knobs::Knobs;
use std::sync::OnceLock;

/// The areas of the pipeline, in the order the ledger lists them.
pub const AREAS: [&str; 15] = [
    "cp", "regs", "vl", "shader", "pa", "clip", "rast", "tex", "lighting", "tev", "fog", "gas",
    "fop", "psc", "timing",
];

/// What is known about a fact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Measured on a real 3DS.
    Measured {
        /// The measurement (a hardware test, a table of results).
        by: &'static str,
    },
    /// Documented by a public source (not measured here).
    Documented {
        /// The document.
        by: &'static str,
    },
    /// Not known: the model picks one behaviour.
    Unverified {
        /// What the model does (for a knob: its default value).
        choice: &'static str,
        /// Every behaviour the model could be switched to, the choice first (for a knob: its
        /// values from [`Knobs::NAMES`]); empty when the model has no switch.
        alternatives: Vec<&'static str>,
        /// The knob that selects among the alternatives: a `--knob NAME` of [`Knobs::NAMES`],
        /// or a command-line option written out (`nv2a run --zero-times`).
        knob: Option<&'static str>,
        /// Without a knob: why there is none (no meaningful or observable alternative, or an
        /// alternative not built yet), from [`NO_KNOB`]; `None` with a knob.
        no_knob: Option<&'static str>,
        /// The hardware test that would settle it.
        settle_by: &'static str,
    },
}

impl Status {
    /// `measured`, `documented` or `unverified`.
    pub fn name(&self) -> &'static str {
        match self {
            Status::Measured { .. } => "measured",
            Status::Documented { .. } => "documented",
            Status::Unverified { .. } => "unverified",
        }
    }
}

/// One hardware fact the model relies on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// Stable kebab-case identifier (the tag in `UNVERIFIED(hw) [fact: ID]` comments).
    pub id: &'static str,
    /// Pipeline area, one of [`AREAS`].
    pub area: &'static str,
    /// What the fact is about, in one sentence.
    pub summary: &'static str,
    /// What is known.
    pub status: Status,
    /// Where the knowledge (or the model's choice) comes from.
    pub sources: &'static [&'static str],
    /// The Rust items of the model that embody it (paths below `pica_model`).
    pub code: &'static [&'static str],
}

/// Every fact of the ledger, in declaration order (grouped by area).
pub fn all() -> &'static [Fact] {
    static ALL: OnceLock<Vec<Fact>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut facts = build();
        for f in &mut facts {
            attach_knob(f);
        }
        facts
    })
}

/// Gives fact `f` the area knob of [`crate::knobs::AREA`] that names it (choice, alternatives
/// and knob from the table), or the reason of [`NO_KNOB`] when it has no knob.
fn attach_knob(f: &mut Fact) {
    let area = crate::knobs::AREA.iter().find(|k| k.fact == f.id);
    let reason = NO_KNOB.iter().find(|(id, _)| *id == f.id).map(|(_, r)| *r);
    if let Status::Unverified {
        choice,
        alternatives,
        knob,
        no_knob,
        ..
    } = &mut f.status
    {
        if let Some(k) = area {
            *alternatives = k.values.split('|').collect();
            *choice = alternatives.first().copied().unwrap_or("?");
            *knob = Some(k.name);
        } else if knob.is_none() {
            *no_knob = reason;
        }
    }
}

/// The fact with this id.
pub fn get(id: &str) -> Option<&'static Fact> {
    all().iter().find(|f| f.id == id)
}

/// The values of a knob, from [`Knobs::NAMES`] (empty for an unknown name).
pub fn knob_values(name: &str) -> Vec<&'static str> {
    Knobs::NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.split('|').collect())
        .unwrap_or_default()
}

/// Counts of facts per status: (measured, documented, unverified).
pub fn counts(facts: &[&Fact]) -> (usize, usize, usize) {
    let n = |s: &str| facts.iter().filter(|f| f.status.name() == s).count();
    (n("measured"), n("documented"), n("unverified"))
}

fn escape_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// `docs/hardware-facts.md`: the ledger as Markdown, one table per area.
pub fn markdown() -> String {
    let facts: Vec<&Fact> = all().iter().collect();
    let (m, d, u) = counts(&facts);
    let mut out = String::new();
    out.push_str("# Hardware facts ledger\n\n");
    out.push_str(
        "<!-- Generated from model/src/facts.rs by `pica gen docs`; do not edit. -->\n\n\
         Generated from `model/src/facts.rs` by `pica gen docs` (checked fresh by \
         `pica gen docs --check`). Every hardware fact the model relies on beyond the seeds, with \
         its status: **measured** on a real 3DS, **documented** by a public source, or \
         **UNVERIFIED(hw)** — the model's choice, the alternatives, the knob that selects them and \
         the hardware test that would settle it. Each `UNVERIFIED(hw)` comment in `model/src` is \
         tagged `[fact: ID]` with the fact below it belongs to. `pica facts` lists the same \
         (`--json` for tools).\n\n",
    );
    out.push_str(&format!(
        "{} facts: {m} measured, {d} documented, {u} unverified.\n",
        facts.len()
    ));
    for area in AREAS {
        let rows: Vec<&&Fact> = facts.iter().filter(|f| f.area == area).collect();
        if rows.is_empty() {
            continue;
        }
        out.push_str(&format!("\n## {area}\n\n"));
        out.push_str("| Fact | Status | Summary | Choice / alternatives / knob | Settle by | Sources | Code |\n");
        out.push_str("|---|---|---|---|---|---|---|\n");
        for f in rows {
            let (status, choice, settle) = match &f.status {
                Status::Measured { by } => (format!("measured: {by}"), String::new(), ""),
                Status::Documented { by } => (format!("documented: {by}"), String::new(), ""),
                Status::Unverified {
                    choice,
                    alternatives,
                    knob,
                    no_knob,
                    settle_by,
                } => {
                    let mut c = format!("**{choice}**");
                    if alternatives.len() > 1 {
                        c.push_str(&format!("; alternatives: {}", alternatives.join(", ")));
                    }
                    if let Some(k) = knob {
                        c.push_str(&format!("; knob `{k}`"));
                    }
                    if let Some(r) = no_knob {
                        c.push_str(&format!("; {r}"));
                    }
                    ("UNVERIFIED(hw)".to_string(), c, *settle_by)
                }
            };
            let code: Vec<String> = f.code.iter().map(|c| format!("`{c}`")).collect();
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} | {} |\n",
                f.id,
                escape_cell(&status),
                escape_cell(f.summary),
                escape_cell(&choice),
                escape_cell(settle),
                escape_cell(&f.sources.join("; ")),
                escape_cell(&code.join(", ")),
            ));
        }
    }
    out
}

fn measured(
    id: &'static str,
    area: &'static str,
    summary: &'static str,
    by: &'static str,
    sources: &'static [&'static str],
    code: &'static [&'static str],
) -> Fact {
    Fact {
        id,
        area,
        summary,
        status: Status::Measured { by },
        sources,
        code,
    }
}

fn documented(
    id: &'static str,
    area: &'static str,
    summary: &'static str,
    by: &'static str,
    sources: &'static [&'static str],
    code: &'static [&'static str],
) -> Fact {
    Fact {
        id,
        area,
        summary,
        status: Status::Documented { by },
        sources,
        code,
    }
}

/// An unverified fact with no switch (`alternatives` lists what else the hardware might do).
#[allow(clippy::too_many_arguments)]
fn guess(
    id: &'static str,
    area: &'static str,
    summary: &'static str,
    choice: &'static str,
    alternatives: &'static [&'static str],
    settle_by: &'static str,
    sources: &'static [&'static str],
    code: &'static [&'static str],
) -> Fact {
    Fact {
        id,
        area,
        summary,
        status: Status::Unverified {
            choice,
            alternatives: alternatives.to_vec(),
            knob: None,
            no_knob: None,
            settle_by,
        },
        sources,
        code,
    }
}

/// An unverified fact selected by a shader knob: choice and alternatives from [`Knobs::NAMES`].
fn knob(
    id: &'static str,
    name: &'static str,
    summary: &'static str,
    settle_by: &'static str,
    sources: &'static [&'static str],
    code: &'static [&'static str],
) -> Fact {
    let alternatives = knob_values(name);
    Fact {
        id,
        area: "shader",
        summary,
        status: Status::Unverified {
            choice: alternatives.first().copied().unwrap_or("?"),
            alternatives,
            knob: Some(name),
            no_knob: None,
            settle_by,
        },
        sources,
        code,
    }
}

/// An unverified fact selected by a command-line option (alternatives written out).
#[allow(clippy::too_many_arguments)]
fn option(
    id: &'static str,
    area: &'static str,
    summary: &'static str,
    option: &'static str,
    alternatives: &'static [&'static str],
    settle_by: &'static str,
    sources: &'static [&'static str],
    code: &'static [&'static str],
) -> Fact {
    Fact {
        id,
        area,
        summary,
        status: Status::Unverified {
            choice: alternatives.first().copied().unwrap_or("?"),
            alternatives: alternatives.to_vec(),
            knob: Some(option),
            no_knob: None,
            settle_by,
        },
        sources,
        code,
    }
}

/// Why an unverified fact has no knob, by fact id: no meaningful or observable alternative
/// ("no knob: …"), or an alternative that is plausible but not built yet ("no knob yet: …").
/// Every unverified fact has a knob or an entry here (`model/tests/facts.rs`).
pub const NO_KNOB: &[(&str, &str)] = &[
    (
        "regs-shader-upload-sizes",
        "no knob: the sizes are the memories' shapes (every reader indexes them); a 512-word variant is a different register file, and no program within the documented sizes can tell",
    ),
    (
        "regs-lut-slots",
        "no knob: which selectors alias which tables is not described by any source, so there is no concrete alternative to switch to",
    ),
    (
        "regs-lut-index-wrap",
        "no knob: the only alternative named (saturate at the end) is unobservable for well-formed uploads and no source suggests it",
    ),
    (
        "regs-fifo-index",
        "no knob: a separate counter behaves identically unless the index register is read back mid-upload, which no model output shows",
    ),
    (
        "regs-fixed-attrib-index",
        "no knob: no source names another behaviour for indices 12-14 (there is no attribute to write)",
    ),
    (
        "regs-fixed-attrib-queue",
        "no knob: no source suggests the three data IDs are separate queues; the alternative has no defined order",
    ),
    (
        "regs-power-on",
        "no knob: power-on values are unknown, not disputed; drivers write every register they use",
    ),
    (
        "regs-write-beyond-2ff",
        "no knob: there is no register to change; the only alternative (aliasing into 0x000-0x2FF) has no source",
    ),
    (
        "regs-interlock",
        "no knob: the interlock keeps each draw's registers well defined; without it results depend on the model's own latencies, which is not a hardware alternative",
    ),
    (
        "vl-cache-scope",
        "no knob: the cache only saves work; scope alternatives change no pixel and no source describes them",
    ),
    (
        "vl-configuration-mode-draw",
        "no knob: no source says what a configuration-mode draw does differently",
    ),
    (
        "vl-draw-params-ignored",
        "no knob: the draw-mode registers have no documented effect on VL beyond the trigger",
    ),
    (
        "vl-latch-reset",
        "no knob: the latch is written by every driver before use; an alternative reset value has no source",
    ),
    (
        "vl-sequence-wrap",
        "no knob: 2^32 vertices are beyond any run the model makes",
    ),
    (
        "vl-component-count-overflow",
        "no knob: no source names another behaviour for counts 13-15 (there are only 12 components)",
    ),
    (
        "vl-address-wrap",
        "no knob: a wrapped address is unmapped either way (the model hangs); saturation is unobservable",
    ),
    (
        "vl-attribute-unset",
        "no knob: an attribute with no source is a driver bug; no source names another value",
    ),
    (
        "shader-alu-rounding",
        "no knob: rounding to nearest in every ALU operation is a different ALU (and RTL) design, not a switch; the hardware tables needed to pick one are not public",
    ),
    (
        "shader-ex2-lg2",
        "no knob: the algorithm is a design, not a two-way choice; no source describes the hardware's",
    ),
    (
        "shader-invocation-state",
        "no knob: clearing registers between invocations is unobservable for programs that write before they read, which all compiled shaders do",
    ),
    (
        "shader-mova-range",
        "no knob: no source describes MOVA beyond the i32 range; wrapping has no source",
    ),
    (
        "shader-loop-no-pop-priority",
        "no knob: the only alternative (IF/CALL win) has no source and no known program depends on it",
    ),
    (
        "gs-config-layout",
        "no knob: the register layout is Citra's decoding; an alternative layout has no source",
    ),
    (
        "gs-partial-input",
        "no knob: no source describes partial GS input; waiting forever (a hang) has no source either",
    ),
    (
        "gs-variable-count",
        "no knob: the only public description of variable-size primitives; no alternative has a source",
    ),
    (
        "gs-variable-edges",
        "no knob yet: each case is an ill-formed list no driver writes; the alternatives are listed",
    ),
    (
        "gs-variable-enable",
        "no knob yet: libctru and the SDK set the three fields together, so no real program tells them apart",
    ),
    (
        "gs-uniform-input-scope",
        "no knob yet: compiled geometry shaders read only the uniforms the assembler wrote for the invocation",
    ),
    (
        "nv2a-arith-ieee",
        "no knob: the NV2A's arithmetic is not an alternative but an unknown; the nv2a run options cover the disputed special cases",
    ),
    (
        "nv2a-canonical-nan",
        "no knob: any NaN payload is as good as another; no measurement",
    ),
    (
        "nv2a-lit-power-max",
        "no knob: no source gives another clamp",
    ),
    (
        "nv2a-exp-log-approx",
        "no knob: approximation polynomials are a design, not a switch",
    ),
    (
        "nv2a-neg-zero-less",
        "no knob: no source disputes it",
    ),
    (
        "nv2a-mad-unfused",
        "no knob: fused MAD would need a different arithmetic core; no source",
    ),
    (
        "nv2a-dot-order",
        "no knob: summation order is a design choice with many alternatives, none sourced",
    ),
    (
        "nv2a-sge-complement",
        "no knob: no source disputes it",
    ),
    (
        "nv2a-rcp-rsq-approx",
        "no knob: the hardware approximation is unknown; the model's exact form is the reference",
    ),
    (
        "nv2a-rcc-sign",
        "no knob: no source disputes it",
    ),
    (
        "nv2a-log-special",
        "no knob: no source gives another value",
    ),
    (
        "nv2a-arl",
        "no knob: no source gives a width or bias",
    ),
    (
        "nv2a-relative-out-of-range",
        "no knob: no source gives another value",
    ),
    (
        "nv2a-r12-opos",
        "no knob: documented by xemu's behaviour; no alternative source",
    ),
    (
        "pa-unnamed-semantics",
        "no knob: semantics 0x11 and 0x15 are read by no stage, so no alternative is observable",
    ),
    (
        "pa-missing-output-register",
        "no knob: no source names another behaviour",
    ),
    (
        "pa-primitive-config-count",
        "no knob: drivers write the same count to both registers, so the alternative is unobservable with real command lists",
    ),
    (
        "pa-gs-triangles",
        "no knob: no source describes GS lines or points on the PICA200",
    ),
    (
        "clip-quaternion-align",
        "no knob: the alignment is what keeps interpolated normals valid; no source suggests skipping it",
    ),
    (
        "clip-viewport-inv",
        "no knob: using INVW/INVH needs a different division design; drivers write consistent values, so the outputs agree",
    ),
    (
        "clip-precision",
        "no knob: the clipper's precision is a design, not a switch",
    ),
    (
        "rast-interpolation",
        "no knob: interpolation structure and precision are a design, not a switch",
    ),
    (
        "rast-derivatives",
        "no knob: per-quad derivatives are a different traversal design; no source for the hardware's",
    ),
    (
        "rast-depth-widen",
        "no knob for gas and shadow (fop, which the RTL FOP implements as the default); the fog coordinate has knob fog-depth-widen",
    ),
    (
        "rast-early-depth",
        "no knob: the unit follows the registers' documented facts; alternatives are undescribed",
    ),
    (
        "tex-disabled-unit",
        "no knob: a combiner reading a disabled unit is a configuration bug; no source names another value",
    ),
    (
        "tex-param-bits-ignored",
        "no knob: drivers write matching values, so the alternative is unobservable with real command lists",
    ),
    (
        "tex-row-order",
        "no knob: flipping rows is the convention every game depends on (Azahar's game compatibility); the alternative draws every texture upside down",
    ),
    (
        "tex-projection",
        "no knob: projection precision is a design, not a switch",
    ),
    (
        "tex-cube-nan",
        "no knob: NaN cube coordinates come only from broken shaders; no source",
    ),
    (
        "tex-shadow-compare",
        "no knob: the rule follows Azahar and the GLSL generator; no alternative source",
    ),
    (
        "tex-impossible-values",
        "no knob: the values cannot occur (1-bit fields)",
    ),
    (
        "tex-etc1-overflow",
        "no knob: invalid ETC1 data; no source describes clamping instead",
    ),
    (
        "tex-coord-precision",
        "no knob: precision is a design, not a switch",
    ),
    (
        "tex-wrap-reserved",
        "no knob: Azahar's rules are hardware-test-derived; no alternative source",
    ),
    (
        "tex-lod",
        "no knob: the LOD unit is a design, not a switch",
    ),
    (
        "proctex-precision",
        "no knob: precision is a design, not a switch",
    ),
    (
        "proctex-reserved-values",
        "no knob: reserved values with no alternative source",
    ),
    (
        "proctex-lut-scales",
        "no knob: the scales follow the fixed0.0.12 format; no alternative source",
    ),
    (
        "proctex-color-levels",
        "no knob: no alternative source",
    ),
    (
        "proctex-lod",
        "no knob: Azahar's rule; no alternative source",
    ),
    (
        "light-lut-format",
        "no knob: the entry format follows the registers; an alternative needs a source",
    ),
    (
        "light-texel-mapping",
        "no knob: Azahar's mappings; no alternative source",
    ),
    (
        "light-lut-enable-bits",
        "no knob: drivers set both layouts' bits consistently; no alternative source",
    ),
    (
        "light-reserved-values",
        "no knob: reserved values with no alternative source",
    ),
    (
        "light-color-fields",
        "no knob: drivers write 8-bit values, so the field width is unobservable with real command lists",
    ),
    (
        "tev-formulas",
        "no knob: the formulas are Azahar's hardware-tested ones; an alternative needs a source",
    ),
    (
        "tev-reserved-values",
        "no knob: reserved combiner values come only from broken configurations; no alternative source",
    ),
    (
        "tev-alpha-dot3",
        "no knob: Azahar's behaviour; no alternative source",
    ),
    (
        "tev-dot3-unseen",
        "no knob: extrapolation beyond the measured table; any alternative is equally unsourced",
    ),
    (
        "gas-shading",
        "no knob: the arithmetic is a design, not a switch",
    ),
    (
        "fop-gas-rule",
        "no knob: the rule follows Azahar; no alternative source",
    ),
    (
        "fop-gas-channels",
        "no knob: Azahar's channel use; no alternative source",
    ),
    (
        "fop-block32-layout",
        "no knob: the layout follows the 8x8 one; no alternative source",
    ),
    (
        "fop-pixel-size-field",
        "no knob: drivers write matching values, so the alternative is unobservable with real command lists",
    ),
    (
        "fop-framebuffer-dim",
        "no knob: drivers write both registers with the same value, so the alternative is unobservable with real command lists",
    ),
    (
        "fop-no-cache",
        "no knob: a cache changes memory timing only, and no cycle of memory traffic is compared with hardware",
    ),
    (
        "fop-access-enables",
        "no knob: drivers write 0 or 0xF, so the rule for other values is unobservable with real command lists",
    ),
    (
        "fop-fragment-mode-reserved",
        "no knob: no source describes mode 2",
    ),
    (
        "fop-outside-buffer",
        "no knob: no source describes wrapping; clipping to the framebuffer is what every driver relies on",
    ),
    (
        "fop-shadow-order",
        "no knob: the GLSL generator's order; no alternative source",
    ),
    (
        "fop-shadow-precision",
        "no knob: precision is a design, not a switch",
    ),
    (
        "fop-shadow-enables",
        "no knob: no alternative source",
    ),
    (
        "fop-shadow-depth",
        "no knob: the quantized depth is what the buffer holds; no alternative source",
    ),
    (
        "psc-fill-24bit-order",
        "no knob: no source describes another order (Azahar marks its own as unverified); a knob waits for a hardware dump of a 24-bit fill",
    ),
    (
        "psc-fill-24bit-end",
        "no knob: driver buffers are whole multiples of 24 bytes, so the alternative is unobservable with real frames",
    ),
    (
        "psc-fill-between-lists",
        "no knob: steps run in order on one clock; the overlap of PSC and P3D is timing, which is the model's contract (design.md)",
    ),
    (
        "timing-rates",
        "no knob: cycle timing is the model's contract with the RTL (design.md), not a hardware guess with alternatives; the real timings are not public",
    ),
    (
        "timing-queue-depths",
        "no knob: queue depths are the model's contract with the RTL (design.md); the real depths are not public",
    ),
    (
        "timing-latencies",
        "no knob: latencies are the model's contract with the RTL (design.md); the real latencies are not public",
    ),
];

const AZ: &str = "Azahar (emulator source, not a hardware measurement)";
const MODEL: &str = "model choice (no public source)";
const BREW_EXT: &str = "3dbrew GPU/External_Registers (Memory Fill)";
const PF1: &str = "pica-facts §1 (3dbrew GPU/Shader_Instruction_Set)";
const PF2: &str = "pica-facts §2 (3dbrew Floating-Point Behavior)";
const SEED2: &str = "seed 002 (register descriptions)";
const XEMU: &str = "xemu vsh.c / envytools nvhw (NV2A)";
const NO_PUBLIC_CYCLES: &str =
    "model choice (the PICA200's cycle timing is not public; design.md contract)";

fn build() -> Vec<Fact> {
    vec![
        // ---- measured and documented --------------------------------------------------------
        measured(
            "tev-dot3-rgb",
            "tev",
            "TEV DOT3_RGB: the byte result of every input pair of 7 configurations.",
            "hardware table ../shared/hw-data/dot3-rgb.tsv (1,792 points), checked by model/tests/hw_dot3.rs",
            &["../shared/hw-data/dot3-rgb.tsv"],
            &["tev::dot3"],
        ),
        measured(
            "shader-fp-special-values",
            "shader",
            "ALU special values: inf*0 = 0 in every multiply, NaN propagation, rcp/rsq/ex2/lg2/max/min/sge/slt edge cases.",
            "3dbrew Floating-Point Behavior table and aroulin/3ds-gpu-tests fp-tests (run on hardware)",
            &[PF2, "aroulin/3ds-gpu-tests"],
            &["shader::alu"],
        ),
        measured(
            "shader-subnormal-flush",
            "shader",
            "Arithmetic flushes subnormal inputs (mul(s, 2) = 0); MAX does not (max(s, 0) = s); CMP compares unflushed (cmp(s, 0) = false).",
            "3dbrew Floating-Point Behavior hardware tests",
            &[PF2],
            &["shader::alu", "shader::alu::max"],
        ),
        measured(
            "shader-flow-stacks",
            "shader",
            "Flow control: CALL stack 4 deep, IF 8, LOOP 4; pushing onto a full stack drops the oldest; LOOP > IF > CALL > JMP priority; the fourth CALL pop in a row loses its PC update.",
            "3dbrew Control Flow (hardware-measured)",
            &["pica-facts §1 Control flow"],
            &[
                "shader::interp::CALL_STACK_DEPTH",
                "shader::interp::IF_STACK_DEPTH",
                "shader::interp::LOOP_STACK_DEPTH",
            ],
        ),
        measured(
            "gs-output-double-bank",
            "shader",
            "GS output registers are double-banked across EMITs (an output not rewritten carries the value from two emits back).",
            "verified on hardware per Azahar shader_unit.h",
            &["pica-facts §1 Geometry shader"],
            &["shader::io"],
        ),
        documented(
            "f24-format",
            "shader",
            "f24 = 1.7.16 (bias 63) with infinities and NaN; f16 = 1.5.10, f20 = 1.7.12, f31 = 1.7.23.",
            "3dbrew GPU/Internal_Registers, pica-facts §2",
            &[PF2],
            &["num::F24"],
        ),
        documented(
            "shader-relative-addressing",
            "shader",
            "Relative constant addressing: offsets outside [-128, 127] count as 0, index (reg + offset) & 0x7F, indices above 95 read (1, 1, 1, 1).",
            "3dbrew GPU/Shader_Instruction_Set and emulator tests (pica-facts §1)",
            &[PF1],
            &["shader::interp"],
        ),
        documented(
            "shader-cmp-conditions",
            "shader",
            "CMP conditions 0-5 (EQ, NE, LT, LE, GT, GE) and CONDOP's four ways of combining cmp.x/cmp.y.",
            "3dbrew GPU/Shader_Instruction_Set",
            &[PF1],
            &["shader::isa::CmpOp", "shader::isa::Condition"],
        ),
        // ---- cp ------------------------------------------------------------------------------
        guess(
            "cp-end-any-value",
            "cp",
            "A write to the command-list end register ends the list whatever its value and mask.",
            "ends on any value",
            &["ends on any value", "ends only on a non-zero value"],
            "Submit a list whose end write has value 0 (and one with mask 0) followed by more writes; read back whether those later registers changed.",
            &["seed 002 (\"the value does not appear to matter\")"],
            &["cp::Cp"],
        ),
        guess(
            "cp-jump-drops-rest",
            "cp",
            "The rest of a command whose parameter triggers a jump is dropped; execution continues at the new buffer.",
            "rest dropped",
            &["rest dropped", "rest executed before the jump"],
            "Put a CMDBUF_JUMP write in a burst with more parameters after it; read back whether the trailing registers were written.",
            &[MODEL],
            &["cp::Cp"],
        ),
        // ---- regs ----------------------------------------------------------------------------
        guess(
            "regs-shader-upload-sizes",
            "regs",
            "Shader code memory holds 4096 words and the operand-descriptor table 128 entries; descriptor writes beyond 127 are dropped while the index advances.",
            "4096 words, 128 descriptors",
            &["4096 words, 128 descriptors", "512 words", "index wraps"],
            "Upload code past word 512 and descriptors past 127, run a shader that uses them, compare outputs.",
            &[SEED2, PF1],
            &["regfile::unit::CODE_WORDS", "regfile::unit::OPDESC_ENTRIES"],
        ),
        guess(
            "regs-lut-slots",
            "regs",
            "Lighting LUT selectors 0-23 all store data (24 tables); reserved LUT selectors are dropped.",
            "24 tables, reserved selectors dropped",
            &["24 tables, reserved selectors dropped", "selectors alias documented tables"],
            "Write distinct data to every selector, then read it back through lighting with each LUT selected.",
            &[AZ, MODEL],
            &["regfile::luts::LIGHTING_TABLES"],
        ),
        guess(
            "regs-lut-index-wrap",
            "regs",
            "Index registers of LUT and code uploads wrap at their table size (gas 16, fog 128, code offset 4096).",
            "wrap modulo table size",
            &["wrap modulo table size", "saturate", "writes beyond the end dropped"],
            "Upload one entry past the end of each table and check which entry changed via rendering.",
            &[AZ, MODEL],
            &["regfile::luts::GAS_ENTRIES", "regfile::luts::FOG_ENTRIES", "regfile::RegFile"],
        ),
        guess(
            "regs-packer-reset",
            "regs",
            "Writing a float-uniform or immediate-mode index register discards a partially sent vec4.",
            "discard partial vec4",
            &["discard partial vec4", "keep it"],
            "Send half a vec4, rewrite the index, send a full one; read the uniforms back through a shader.",
            &[AZ],
            &["regfile::packer::Packer"],
        ),
        guess(
            "regs-fifo-index",
            "regs",
            "Upload FIFOs advance the index field of their index register rather than a separate counter.",
            "index register is the counter",
            &["index register is the counter", "separate hidden counter"],
            "Write data, rewrite the index register's other fields only, write more data; check where it landed.",
            &[MODEL],
            &["regfile::RegFile"],
        ),
        guess(
            "regs-fifo-data-mask",
            "regs",
            "Byte masks act on FIFO data registers like on any register (masked bytes keep the previous data).",
            "merge with previous contents",
            &["merge with previous contents", "mask ignored (raw parameter pushed)"],
            "Upload uniform data with partial byte masks and read the result through a shader.",
            &[AZ, MODEL],
            &["regfile::RegFile"],
        ),
        guess(
            "regs-fixed-attrib-index",
            "regs",
            "Fixed-attribute data sent with index 12-14 is dropped while the index advances to 0xF (immediate mode).",
            "dropped",
            &["dropped", "stored in hidden slots"],
            "Write fixed attributes at index 12-14 and draw with an attribute count that would read them.",
            &[MODEL],
            &["regfile::FIXED_ATTRIBS"],
        ),
        guess(
            "regs-fixed-attrib-queue",
            "regs",
            "The three fixed-attribute data IDs feed one queue; which one a word is written to does not matter.",
            "one queue",
            &["one queue", "per-register slots"],
            "Send a fixed attribute's three words all to the first data ID and draw.",
            &[AZ],
            &["regfile::RegFile"],
        ),
        guess(
            "regs-power-on",
            "regs",
            "Registers reset to 0.",
            "all zero",
            &["all zero", "undocumented power-on values"],
            "Read every register readable after a GPU reset (or draw without configuring).",
            &[MODEL],
            &["regfile::RegFile::new"],
        ),
        guess(
            "regs-geostage-reserved",
            "regs",
            "GEOSTAGE_CONFIG bits 0-1 = 1 or 3 (reserved) count as GS in use, so VS configuration does not propagate to unit 3.",
            "reserved values mean GS in use",
            &["reserved values mean GS in use", "only 2 means GS in use"],
            "Set mode 1, write VS configuration, then run unit 3 as a GS and observe which program ran.",
            &[AZ],
            &["regfile::RegFile::vs_propagates_to_unit3"],
        ),
        guess(
            "regs-unit3-config",
            "regs",
            "With no geometry shader and GPUREG_VSH_COM_MODE bit 0 = 0, every VSH-block configuration write also reaches unit 3 when it is applied: uniforms, output mask, code, operand descriptors, and the entry point, input-buffer configuration and attribute permutation; with COM_MODE = 1 unit 3 keeps its GSH-block values.",
            "every VSH configuration write propagates",
            &[
                "every VSH configuration write propagates",
                "only uniforms, output mask, code and operand descriptors (the seed's list)",
            ],
            "With GEOSTAGE_CONFIG = 0 and COM_MODE = 0 write distinct GSH_ENTRYPOINT / GSH_INPUTBUFFER_CONFIG / GSH permutation values, then the VSH ones, draw 8 vertices through a VS that reads 3 inputs from a non-zero entry point, and check the vertices unit 3 shades (3 and 7 when units take vertices in turn).",
            &[
                "seed 001 / 3dbrew GPU/Internal_Registers GPUREG_VSH_COM_MODE (\"uniforms, outmap mask, program code and swizzle data are propagated\"; \"reuse the vertex shader configuration\")",
                "libctru source/gpu/shaderProgram.c shaderProgramConfigure (GEOSTAGE_CONFIG, COM_MODE first \"to ensure all 4 units are correctly initialized\"; no GSH entry point or permutation without a GS; GSH_INPUTBUFFER_CONFIG = 0xA0000000)",
                "citro3d source/base.c C3D_BindProgram (VS code re-sent when the old program had a GS), C3Di_UpdateContext (shaderProgramConfigure, then C3Di_AttrInfoBind); source/attribs.c C3Di_AttrInfoBind (VSH input configuration, permutation)",
                "libctru / citro3d / citro2d programs render cleanly on the console (no per-fourth-vertex defects)",
                "Azahar src/video_core/pica/pica_core.cpp (VS writes copied to the GS setup while gs_unit_exclusive_configuration = 0 and use_gs = No; every vertex shaded with the VS setup)",
            ],
            &["regfile::RegFile::unit3_owners"],
        ),
        guess(
            "regs-write-beyond-2ff",
            "regs",
            "A write to a register ID above 0x2FF changes nothing.",
            "dropped",
            &["dropped", "aliases a lower ID"],
            "Write IDs 0x300-0x3FF with values that would alias meaningful registers and render.",
            &[AZ],
            &["regfile::RegFile"],
        ),
        guess(
            "regs-trigger-any-value",
            "regs",
            "Every write to a trigger register fires it, whatever the value and mask.",
            "fires on any write",
            &["fires on any write", "fires only on a non-zero value"],
            "Write 0 (and mask 0) to a draw trigger and check whether anything is drawn.",
            &[AZ, SEED2],
            &["regfile::RegFile"],
        ),
        guess(
            "regs-interlock",
            "regs",
            "REGS applies nothing while a draw or immediate-mode vertex is in flight, so every draw sees the registers written before its trigger.",
            "hold writes during a draw",
            &["hold writes during a draw", "writes reach the pipeline mid-draw"],
            "Change a colour register right after a long draw's trigger and look for pixels that picked it up.",
            &[MODEL],
            &["regfile::RegFile"],
        ),
        // ---- vl ------------------------------------------------------------------------------
        guess(
            "vl-cache-policy",
            "vl",
            "The post-vertex cache has GPUREG_POST_VERTEX_CACHE_NUM bits 0-7 entries and FIFO replacement; a hit does not refresh the entry.",
            "FIFO, size from the register",
            &["FIFO, size from the register", "LRU", "fixed size"],
            "Count VS invocations (e.g. via a GS counter or side effects) for index patterns that distinguish FIFO from LRU.",
            &[AZ, SEED2],
            &["vl::cache::PostVertexCache"],
        ),
        guess(
            "vl-cache-scope",
            "vl",
            "The vertex cache serves indexed draws only, starts empty at every draw, and is bypassed when a GS is in use.",
            "indexed only, per draw, off with GS",
            &["indexed only, per draw, off with GS", "kept across draws", "used for array draws"],
            "Count VS invocations across consecutive draws sharing indices, for array draws and with a GS.",
            &[AZ, "3dbrew GPU/Programming_Guide"],
            &["vl::CACHE_DRAW_ARRAYS", "vl::CACHE_ACROSS_DRAWS", "vl::CACHE_WITH_GS"],
        ),
        guess(
            "vl-configuration-mode-draw",
            "vl",
            "A draw triggered in configuration mode (START_DRAW_FUNC0 = 1) runs like one in mode 0.",
            "runs normally",
            &["runs normally", "nothing drawn", "corrupted output"],
            "Trigger a draw with START_DRAW_FUNC0 = 1 and read the framebuffer.",
            &[SEED2],
            &["vl::DRAW_IN_CONFIGURATION_MODE"],
        ),
        guess(
            "vl-draw-params-ignored",
            "vl",
            "VL ignores the draw-mode registers other than the trigger; the trigger alone says which draw it is.",
            "trigger decides",
            &["trigger decides", "mode registers matter"],
            "Trigger DRAWARRAYS with indexed-draw configuration (and vice versa) and compare outputs.",
            &[MODEL],
            &["vl"],
        ),
        guess(
            "vl-latch-reset",
            "vl",
            "The fixed-attribute latch starts as zero in every component.",
            "zero",
            &["zero", "(0, 0, 0, 1)", "undefined"],
            "Draw after reset with an attribute read from the fixed latch that was never written.",
            &[MODEL],
            &["vl"],
        ),
        guess(
            "vl-sequence-wrap",
            "vl",
            "The vertex sequence number wraps after 2^32 vertices.",
            "wrap",
            &["wrap"],
            "Not observable on hardware; a model bookkeeping choice (settle by never relying on it).",
            &[MODEL],
            &["vl"],
        ),
        guess(
            "vl-type2-signed",
            "vl",
            "Vertex attribute type 2 is signed 16-bit.",
            "signed",
            &["signed", "unsigned"],
            "Load a type-2 attribute with 0xFFFF and read it back through a shader output.",
            &[AZ, "seed 004"],
            &["vl::layout"],
        ),
        guess(
            "vl-component-count-overflow",
            "vl",
            "A loader component count of 13-15 reads only the 12 components that exist.",
            "read 12",
            &["read 12", "hang", "wrap"],
            "Configure a loader with 13-15 components and observe the attributes and draw.",
            &[MODEL],
            &["vl::layout"],
        ),
        guess(
            "vl-duplicate-attribute",
            "vl",
            "An attribute named by more than one loader component takes the last one's data.",
            "last wins",
            &["last wins", "first wins"],
            "Map one attribute from two components with different data; read it in the shader.",
            &[MODEL],
            &["vl::layout"],
        ),
        guess(
            "vl-address-wrap",
            "vl",
            "Vertex address arithmetic wraps at 32 bits.",
            "wrap",
            &["wrap", "fault"],
            "Not testable without mapping memory at the top of the address space; model choice.",
            &[MODEL],
            &["vl::layout"],
        ),
        guess(
            "vl-mismatch-hang",
            "vl",
            "Every loader buffer whose stride disagrees with its components hangs, whether or not the draw reads it.",
            "hang",
            &["hang", "use the stride as given"],
            "Draw with a mismatching stride on an unused buffer and see whether the GPU finishes.",
            &[MODEL],
            &["vl::layout"],
        ),
        guess(
            "vl-attribute-unset",
            "vl",
            "An attribute with neither an array nor its fixed-mask bit keeps the fixed latch's value.",
            "latch value",
            &["latch value", "zero"],
            "Draw with such an attribute after setting the latch; read it in the shader.",
            &[MODEL],
            &["vl::layout"],
        ),
        guess(
            "vl-f32-to-f24",
            "vl",
            "The loader converts float32 attributes to f24 by truncation.",
            "truncate",
            &["truncate", "round to nearest"],
            "Load float32 values halfway between f24 neighbours and read them back bit-exactly through a shader output.",
            &[PF2],
            &["vl::layout"],
        ),
        // ---- shader --------------------------------------------------------------------------
        guess(
            "f32-to-f24-uniform",
            "shader",
            "Float32-mode uniform uploads convert to f24 by truncation (gradual underflow into subnormals).",
            "truncate",
            &["truncate", "round to nearest"],
            "Upload float32 uniforms between f24 neighbours, MOV them to an output, read back bit-exactly.",
            &[PF1],
            &["num::F24::from_f32_bits", "regfile::packer::PackMode::F32x4"],
        ),
        guess(
            "shader-alu-rounding",
            "shader",
            "ADD/MUL/MAD/DP rounding and RCP/RSQ precision: exact result truncated toward zero to f24.",
            "truncate exact result",
            &["truncate exact result", "round to nearest", "fused/unfused MAD"],
            "Run each op on random operand pairs on hardware and compare bit-exact outputs (an alu-check table).",
            &[PF2],
            &["num::F24::from_f64_trunc", "shader::alu"],
        ),
        guess(
            "shader-ex2-lg2",
            "shader",
            "EX2 and LG2 precision and algorithm.",
            "the model's gate-friendly definition",
            &["the model's gate-friendly definition"],
            "Sweep EX2/LG2 over all f24 inputs of a few exponents on hardware and fit the algorithm.",
            &[PF2, "issue 15"],
            &["shader::alu::ex2", "shader::alu::lg2"],
        ),
        knob(
            "shader-min-no-flush",
            "min-subnormal",
            "MIN does not flush subnormal inputs, like MAX.",
            "min(s, 0) and min(s, 1) with a subnormal s on hardware.",
            &[PF2],
            &["shader::alu::min", "shader::interp::MinSubnormal", "shader::interp::Knobs::min_subnormal"],
        ),
        knob(
            "shader-max-neg-inf",
            "max-neg-inf",
            "max(0, -inf): 3dbrew says -inf, the fp-tests expect 0.",
            "max(0, -inf) on hardware (re-run the 3dbrew test and the aroulin fp-test).",
            &[PF2, "aroulin/3ds-gpu-tests"],
            &["shader::alu::MaxNegInf", "shader::interp::Knobs::max_neg_inf"],
        ),
        knob(
            "shader-cmp67",
            "cmp67",
            "What CMP conditions 6 and 7 evaluate to.",
            "CMP with conditions 6/7 on unequal and equal operands, then IFC on the flags.",
            &["3dbrew (\"seem to always return true\")"],
            &["shader::interp::Cmp67", "shader::interp::Knobs::cmp67"],
        ),
        knob(
            "shader-cmp-uses-mask",
            "cmp-uses-mask",
            "Whether CMP sets cmp.x/cmp.y only where the descriptor's mask enables x/y.",
            "CMP with a mask enabling only x, after setting both flags; test cmp.y with IFC.",
            &[PF1, AZ],
            &["shader::interp::Knobs::cmp_uses_mask"],
        ),
        knob(
            "shader-int-z",
            "int-z",
            "Whether LOOP's step i.z is signed.",
            "LOOP with i.z = 0xFF and aL-relative reads; see whether aL goes down.",
            &[PF1, AZ],
            &["shader::interp::IntZ", "shader::interp::Knobs::int_z"],
        ),
        knob(
            "shader-pc-overflow",
            "pc-overflow",
            "What happens when the PC runs past the end of code memory.",
            "A program whose last word at 4095 is not END; see whether word 0 runs or the GPU hangs.",
            &[PF1],
            &["shader::interp::PcOverflow", "shader::interp::Knobs::pc_overflow"],
        ),
        knob(
            "shader-unknown-op",
            "unknown-op",
            "What an unknown opcode (0x10, 0x11, 0x14-0x17, 0x1C-0x1F) does.",
            "Execute each unknown opcode between two output writes; see whether the GPU hangs or skips it.",
            &[PF1, AZ],
            &["shader::interp::UnknownOp", "shader::interp::Knobs::unknown_op"],
        ),
        knob(
            "shader-loop-al",
            "loop-al",
            "What aL holds after an inner LOOP ends while an outer LOOP is active.",
            "Nested LOOPs writing aL-relative constants to outputs after the inner loop.",
            &["3dbrew Relative addressing", AZ, "PabloMK7/citra issue #86"],
            &["shader::interp::LoopAl", "shader::interp::Knobs::loop_al"],
        ),
        knob(
            "shader-mov-subnormal",
            "mov-subnormal",
            "Whether MOV flushes a subnormal or -0 input to +0.",
            "MOV a subnormal uniform (0x000001) and -0 to an output; read back bit-exactly.",
            &[PF2, "3dbrew Floating-Point Behavior"],
            &["shader::interp::MovSubnormal", "shader::interp::Knobs::mov_subnormal"],
        ),
        knob(
            "shader-loop-shared-end",
            "loop-shared-end",
            "Whether nested LOOPs whose bodies end on the same instruction all close there or only the innermost.",
            "LOOP i0 { LOOP i1 { ADD r0, r0, v0 } } with one DST, then MOV o0, r0 and aL-relative reads; count the ADDs.",
            &[
                "3dbrew GPU/Shader_Instruction_Set \"Control Flow\" (\"the IF/LOOP stacks can each only pop one entry per instruction\")",
                "Azahar src/tests/video_core/shader.cpp \"Nested Loop\" (JIT only; expects both levels to close)",
                "picasso source/picasso_assembler.cpp dir_end (pads a NOP after a nested .end: no shared ends)",
                AZ,
            ],
            &[
                "shader::interp::LoopSharedEnd",
                "shader::interp::Knobs::loop_shared_end",
                "shader::interp::ShaderUnit::next_pc",
            ],
        ),
        guess(
            "shader-invocation-state",
            "shader",
            "Between invocations the unit keeps every register and resets only flow-control state.",
            "registers kept",
            &["registers kept", "temporaries cleared"],
            "Read a temporary before writing it in the second vertex of a draw.",
            &[MODEL],
            &["shader::interp::ShaderUnit::start"],
        ),
        guess(
            "shader-mova-range",
            "shader",
            "MOVA of values beyond i32 saturates and NaN gives 0.",
            "saturate, NaN → 0",
            &["saturate, NaN → 0", "wrap"],
            "MOVA of huge and NaN values then relative reads that reveal the offset.",
            &[MODEL],
            &["shader::interp"],
        ),
        guess(
            "shader-loop-no-pop-priority",
            "shader",
            "A LOOP entry that matches and continues (no pop) counts as an update that wins over IF/CALL.",
            "LOOP continue wins",
            &["LOOP continue wins", "IF/CALL pop wins"],
            "A LOOP whose end coincides with an IF or CALL return address; trace the output order.",
            &[PF1, MODEL],
            &["shader::interp"],
        ),
        guess(
            "gs-config-layout",
            "shader",
            "GS mode and variable-primitive counts come from GPUREG_GSH_MISC0/MISC1 as Citra lays them out.",
            "Citra layout",
            &["Citra layout"],
            "Run each GS mode configured through MISC0/MISC1 and check the primitives emitted.",
            &[
                "Citra regs_pipeline.h / geometry_pipeline.cpp",
                SEED2,
                "libctru shaderProgramConfigure (GSH_MISC0 = mode | 0x01000000 | start << 16 | (stride - 1) << 12 | (count - 1) << 8 for fixed mode; GSH_MISC1 = main vertices - 1)",
            ],
            &["shader::io"],
        ),
        guess(
            "gs-config-per-draw",
            "shader",
            "The GS input configuration (GEOSTAGE_CONFIG bits 0-1, GSH_MISC0, GSH_MISC1, GSH_INPUTBUFFER_CONFIG bits 0-3) is read at the start of every draw and immediate-mode batch, where the GS input buffer starts empty.",
            "reset",
            &["reset", "keep"],
            "Draw 2 vertices into a point-mode GS of 3 vertices' inputs, then a second draw of 1 vertex with the same configuration: the GS runs only if the partial buffer survives; and enable the GS before writing GSH_MISC0 (libctru order) to see the mode taken at the draw.",
            &[
                "libctru shaderProgram.c shaderProgramConfigure (GEOSTAGE_CONFIG written first, GSH_MISC0/MISC1/INPUTBUFFER_CONFIG/permutation after it, all before the draw)",
                "Azahar pica_core.cpp LoadVertices and DrawImmediate (GeometryPipeline::Reconfigure per draw and per batch, reset_geometry_pipeline on a FIXEDATTRIB_INDEX write)",
                "3dbrew GPU/Internal_Registers (GPUREG_GEOSTAGE_CONFIG, GPUREG_GSH_MISC0/1)",
                "regs-interlock (registers cannot change inside a draw)",
            ],
            &[
                "shader::io::GsSetup",
                "shader::stage::ShIn::Begin",
                "vl::VertexLoader",
            ],
        ),
        guess(
            "gs-variable-count",
            "shader",
            "Variable-size mode with an indexed draw: whenever the GS input needs a count, the next index-buffer entry is the primitive's vertex count N (not a vertex: not loaded, shaded or cached; it counts toward NUMVERTICES); c0.xyzw = N, the next N vertices go to c1 on, the first GSH_MISC1 + 1 with every VS output, the others with their first output only; then the GS runs.",
            "count from the index buffer",
            &["count from the index buffer"],
            "Draw an indexed subdivision mesh with counts 3 and 4 in variable mode and read c0 and the vertex uniforms back through the GS's outputs.",
            &[
                "3dbrew GPU/Primitive_Engine (\"prefixing each per-primitive sequence of indices in an index array with a primitive size\")",
                "Azahar geometry_pipeline.cpp GeometryPipeline_VariablePrimitive and pica_core.cpp LoadVertices",
                "libctru shaderProgramConfigure (GSH_MISC1 = main vertex count - 1)",
                "3dbrew GPU/Internal_Registers GPUREG_GSH_MISC1 (2 = Loop, 3 = Catmull-Clark: 3 and 4 main vertices)",
            ],
            &[
                "shader::io::GsAssembler::submit_count",
                "shader::stage::ShIn::GsCount",
                "vl::VertexLoader",
            ],
        ),
        guess(
            "gs-variable-edges",
            "shader",
            "Variable-size corner cases no source covers: a count of 0 runs the GS once with c0 = 0 and no vertex; outputs beyond c95 are dropped (the vertex still counts); a draw ending mid-primitive leaves it pending (the next draw drops it under gs-new-draw=reset); a draw-arrays or immediate-mode vertex that would have to supply a count hangs VL; a vertex reaching the assembler while it waits for a count is dropped.",
            "as listed",
            &["as listed", "count 0 waits for 2^32 vertices (Azahar's counter)", "draw arrays reads VERTEX_OFFSET + n as the count"],
            "Indexed draws with a count of 0, a count larger than the uniforms, a draw cut mid-primitive, and a variable-mode draw arrays, each observed through the GS's emits.",
            &[MODEL, AZ],
            &[
                "shader::io::GsAssembler::submit_count",
                "vl::VlHang::GsCountWithoutIndex",
            ],
        ),
        guess(
            "gs-variable-enable",
            "shader",
            "The GS input mode is GSH_MISC0 bits 0-1 alone; GEOSTAGE_CONFIG bit 31 (subdivision) and GSH_INPUTBUFFER_CONFIG bit 8 (uniform input) are not read.",
            "GSH_MISC0 alone",
            &["GSH_MISC0 alone", "GEOSTAGE_CONFIG bit 31 gates the index-buffer counts"],
            "Set GSH_MISC0 = 1 with GEOSTAGE_CONFIG bit 31 clear (and the reverse) and see whether index entries are taken as counts.",
            &[
                "Azahar geometry_pipeline.cpp Reconfigure (backend from gs_config.mode; bit 31 and input_to_uniform only asserted)",
                "libctru shaderProgramConfigure (sets the three together)",
                "3dbrew GPU/Internal_Registers GPUREG_GEOSTAGE_CONFIG bit 31",
            ],
            &["shader::io::GsSetup::from_regs"],
        ),
        guess(
            "gs-uniform-input-scope",
            "shader",
            "The float uniforms the GS input assembler writes (fixed and variable modes) override unit 3's uniforms for one invocation; afterwards the uniforms read REGS' values again.",
            "per invocation",
            &["per invocation", "written into the uniforms for good (Azahar)"],
            "A variable-mode draw with a 4-vertex primitive then a 3-vertex one whose GS reads c5: REGS' value or the first primitive's vertex.",
            &[MODEL, AZ],
            &["shader::stage::ShaderCore"],
        ),
        guess(
            "gs-partial-input",
            "shader",
            "A GS input size that is not a multiple of the VS output size runs the GS as soon as enough attributes are buffered.",
            "run when full",
            &["run when full", "drop the remainder"],
            "Configure point mode with an input count not a multiple of the VS outputs and observe GS runs.",
            &[MODEL],
            &["shader::io"],
        ),
        // ---- nv2a (the Xbox vertex unit, listed under shader) -------------------------------
        guess(
            "nv2a-arith-ieee",
            "shader",
            "NV2A vertex arithmetic is modelled in IEEE binary32 (the hardware is not IEEE).",
            "IEEE binary32",
            &["IEEE binary32", "envytools nvhw wide-accumulator model"],
            "Run nxdk_vsh_tests-style captures of ADD/MUL/DP on an Xbox.",
            &[XEMU],
            &["nv2a::arith"],
        ),
        guess(
            "nv2a-canonical-nan",
            "shader",
            "The NaN an NV2A operation returns is 0x7FFFFFFF.",
            "0x7FFFFFFF",
            &["0x7FFFFFFF", "input NaN propagated"],
            "inf - inf on an Xbox, read the bits back.",
            &[XEMU],
            &["nv2a::arith::CANONICAL_NAN"],
        ),
        guess(
            "nv2a-lit-power-max",
            "shader",
            "LIT clamps the power to 128 - 1/256.",
            "127.99609375",
            &["127.99609375", "128 - ulp"],
            "LIT with power 200 on an Xbox.",
            &[XEMU, "abaire nv2a_vsh_cpu"],
            &["nv2a::arith::LIT_POWER_MAX"],
        ),
        guess(
            "nv2a-exp-log-approx",
            "shader",
            "EXP/LOG partial-precision approximations (polynomials).",
            "model polynomials",
            &["model polynomials"],
            "Sweep EXP/LOG on an Xbox and fit.",
            &[MODEL],
            &["nv2a::arith::EXP_POLY", "nv2a::arith::LOG_POLY"],
        ),
        option(
            "nv2a-zero-times",
            "shader",
            "What a product with a zero factor gives (inf * 0).",
            "nv2a run --zero-times",
            &["zero", "ieee"],
            "MUL inf by 0 on an Xbox.",
            &[XEMU],
            &["nv2a::arith::ZeroTimes"],
        ),
        option(
            "nv2a-subnormals",
            "shader",
            "Whether NV2A arithmetic flushes subnormals.",
            "nv2a run --subnormals",
            &["keep", "flush"],
            "MUL a subnormal by 1 on an Xbox.",
            &[XEMU],
            &["nv2a::arith::Subnormals"],
        ),
        option(
            "nv2a-paired-mac-r1",
            "shader",
            "A paired MAC+ILU slot that both write R1: which result stays.",
            "nv2a run --paired-r1",
            &["ilu-only", "ilu-over-mac"],
            "A paired slot writing R1 from both units on an Xbox.",
            &[XEMU],
            &["nv2a::arith::PairedR1"],
        ),
        guess(
            "nv2a-neg-zero-less",
            "shader",
            "SLT/SGE treat -0 as less than +0.",
            "-0 < +0",
            &["-0 < +0", "IEEE equal"],
            "SLT(-0, +0) on an Xbox.",
            &["abaire nv2a_vsh_cpu (nxdk_vsh_tests captures)"],
            &["nv2a::arith::Config::neg_zero_less"],
        ),
        guess(
            "nv2a-mad-unfused",
            "shader",
            "NV2A MAD multiplies then adds (not fused).",
            "unfused",
            &["unfused", "fused"],
            "MAD with operands where fused and unfused differ, on an Xbox.",
            &[XEMU],
            &["nv2a::arith::Config::mad"],
        ),
        guess(
            "nv2a-dot-order",
            "shader",
            "DP3/DP4 summation order and intermediate rounding.",
            "pairwise IEEE sums",
            &["pairwise IEEE sums", "wide accumulator"],
            "DP4 operands chosen so summation order matters, on an Xbox.",
            &[XEMU],
            &["nv2a::arith::Config::dp3"],
        ),
        guess(
            "nv2a-sge-complement",
            "shader",
            "SGE is 1 - SLT (so NaN gives 1).",
            "complement of SLT",
            &["complement of SLT", "a >= b (NaN gives 0)"],
            "SGE(NaN, 0) on an Xbox.",
            &["abaire nv2a_vsh_cpu (hardware-tested)"],
            &["nv2a::arith::Config::sge"],
        ),
        guess(
            "nv2a-rcp-rsq-approx",
            "shader",
            "RCP divides exactly and RSQ rounds twice; the hardware approximates.",
            "exact / two roundings",
            &["exact / two roundings", "table + Newton-Raphson"],
            "Sweep RCP/RSQ on an Xbox and compare bits.",
            &[XEMU],
            &["nv2a::arith::rcp", "nv2a::arith::rsq"],
        ),
        guess(
            "nv2a-rcc-sign",
            "shader",
            "RCC keeps the input's sign at the clamp boundaries.",
            "sign from input",
            &["sign from input", "spec pseudo-code (-2^-64 for +0 reciprocal)"],
            "RCC(+inf) and RCC(-inf) on an Xbox.",
            &["envytools NV20 RCC", "xemu wiki RCC boundaries"],
            &["nv2a::arith::rcc"],
        ),
        guess(
            "nv2a-log-special",
            "shader",
            "LOG's y = 1.0 for zero and infinity.",
            "1.0",
            &["1.0"],
            "LOG(0) and LOG(inf) on an Xbox.",
            &["abaire nv2a_vsh_cpu (not validated)"],
            &["nv2a::arith::log"],
        ),
        guess(
            "nv2a-arl",
            "shader",
            "ARL keeps the full integer (no width limit, no bias).",
            "full integer",
            &["full integer", "xemu's +0.001 bias", "narrow register"],
            "ARL of large and near-integer values then relative reads, on an Xbox.",
            &[XEMU],
            &["nv2a::arith::arl"],
        ),
        guess(
            "nv2a-relative-out-of-range",
            "shader",
            "An out-of-range relative constant read gives (0, 0, 0, 0).",
            "zero",
            &["zero", "wrap", "clamp"],
            "Relative reads beyond 192 constants on an Xbox.",
            &[MODEL],
            &["nv2a::interp::RELATIVE_OUT_OF_RANGE"],
        ),
        guess(
            "nv2a-r12-opos",
            "shader",
            "Writes to R12 write oPos (R12 mirrors oPos both ways).",
            "writes oPos",
            &["writes oPos", "read-only mirror"],
            "Write R12 and read the position output on an Xbox.",
            &["seed 003"],
            &["nv2a::interp::R12_WRITES_OPOS"],
        ),
        // ---- pa ------------------------------------------------------------------------------
        guess(
            "pa-unnamed-semantics",
            "pa",
            "Output components mapped to semantics 0x11 or 0x15 are stored like any other and never read.",
            "stored, unused",
            &["stored, unused", "dropped"],
            "Not observable except through side effects; model choice.",
            &[AZ],
            &["pa::OutVertex"],
        ),
        guess(
            "pa-missing-output-register",
            "pa",
            "An output map naming an output register the mask does not enable maps nothing.",
            "maps nothing",
            &["maps nothing", "stale value"],
            "Map more outputs than the mask enables and read the extra attribute in the fragment stage.",
            &[MODEL, AZ],
            &["pa"],
        ),
        guess(
            "pa-primitive-config-count",
            "pa",
            "GPUREG_PRIMITIVE_CONFIG bits 0-3 (output-map count) are not used; SH_OUTMAP_TOTAL gives the count.",
            "ignored",
            &["ignored", "limits the map"],
            "Draw with PRIMITIVE_CONFIG's count smaller than SH_OUTMAP_TOTAL.",
            &[AZ],
            &["pa"],
        ),
        guess(
            "pa-draw-restarts",
            "pa",
            "A draw restarts primitive assembly (buffered strip vertices do not leak into the next draw).",
            "restart",
            &["restart", "leak"],
            "Two strip draws without RESTART_PRIMITIVE between them; look for a joining triangle.",
            &[AZ, "seed 000"],
            &["pa::PaCmd::Begin"],
        ),
        guess(
            "pa-gs-triangles",
            "pa",
            "With the GS in use every GS primitive is a triangle whatever PRIMITIVE_CONFIG says.",
            "always triangles",
            &["always triangles", "configured mode"],
            "GS draw with PRIMITIVE_CONFIG mode 0 and 1.",
            &[MODEL, AZ],
            &["pa"],
        ),
        guess(
            "pa-color-saturate",
            "pa",
            "Colour saturation: NaN becomes 1.0, -0 becomes +0, subnormals kept.",
            "NaN → 1, -0 → +0",
            &["NaN → 1, -0 → +0", "NaN → 0"],
            "Output NaN and -0 colours from the VS and read the framebuffer.",
            &[AZ, MODEL],
            &["pa::saturate_color"],
        ),
        // ---- clip ----------------------------------------------------------------------------
        guess(
            "clip-quaternion-align",
            "clip",
            "Normal quaternions of vertices 1 and 2 are negated if opposite to vertex 0 before clipping.",
            "align before clipping",
            &["align before clipping", "no alignment"],
            "Draw a lit triangle with opposite quaternions and compare the shading.",
            &[AZ],
            &["clip"],
        ),
        guess(
            "clip-viewport-inv",
            "clip",
            "GPUREG_VIEWPORT_INVW/INVH are not used.",
            "unused",
            &["unused", "used for the viewport transform"],
            "Draw with INVW/INVH inconsistent with the viewport size.",
            &[AZ],
            &["clip"],
        ),
        guess(
            "clip-precision",
            "clip",
            "Clipper arithmetic uses the shader ALU's f24 operations.",
            "f24 ALU ops",
            &["f24 ALU ops", "f32", "fixed point"],
            "Clip triangles against each plane and read back vertex positions/colours at the edges.",
            &[MODEL],
            &["clip"],
        ),
        guess(
            "clip-edge-order",
            "clip",
            "The clip intersection is computed in edge direction (not with ordered end points).",
            "direction-dependent",
            &["direction-dependent", "ordered (watertight)"],
            "Two triangles sharing a clipped edge in opposite directions; look for cracks.",
            &[AZ],
            &["clip"],
        ),
        guess(
            "clip-w-epsilon",
            "clip",
            "The w ≥ ε clip plane uses ε = 0x2E4F8B and tests w ≥ ε.",
            "w ≥ ε",
            &["w ≥ ε", "w ≥ −ε (Azahar's code)"],
            "Triangles with a vertex at tiny positive/negative w.",
            &[AZ],
            &["clip::W_EPSILON"],
        ),
        guess(
            "clip-cull-reserved",
            "clip",
            "The reserved face-culling mode 3 culls like 2.",
            "like 2",
            &["like 2", "no culling"],
            "Draw both windings with culling mode 3.",
            &[AZ],
            &["clip::CullMode::from_regs"],
        ),
        // ---- rast ----------------------------------------------------------------------------
        guess(
            "rast-interpolation",
            "rast",
            "Attribute/w and 1/w interpolated linearly in screen space with the model's precision.",
            "model structure and precision",
            &["model structure and precision"],
            "Render gradient triangles and compare every pixel (a hardware table).",
            &[AZ, MODEL],
            &["rast::interp"],
        ),
        guess(
            "rast-derivatives",
            "rast",
            "Texture-coordinate derivatives are forward differences to the neighbouring pixel centres, per fragment.",
            "per-fragment forward differences",
            &["per-fragment forward differences", "2×2 quad differences"],
            "Mipmapped texture on a nonlinear mapping; compare LOD choice per pixel.",
            &[MODEL],
            &["rast::interp"],
        ),
        guess(
            "rast-color-conversion",
            "rast",
            "Interpolated colour converts to bytes as Azahar does.",
            "Azahar conversion",
            &["Azahar conversion", "round to nearest"],
            "Vertex colours between byte values; read the framebuffer.",
            &[AZ],
            &["rast::interp"],
        ),
        guess(
            "rast-depth-conversion",
            "rast",
            "Depth clamps to [0, 1] and truncates to the buffer format.",
            "clamp and truncate",
            &["clamp and truncate", "round"],
            "Draw depths between buffer steps and read the depth buffer.",
            &[AZ],
            &["rast::interp"],
        ),
        guess(
            "rast-depth-widen",
            "rast",
            "A D16 depth is widened to 24 bits (for fog and shadow) by the model's rule.",
            "model widening",
            &["model widening", "bit replication", "shift"],
            "Fog with a D16 buffer at known depths; compare the fog factor.",
            &[MODEL],
            &["num::depth_to_24", "fop::depth_to_24"],
        ),
        guess(
            "rast-scissor-modes",
            "rast",
            "Scissor mode 1 excludes the box; mode 2 is treated as disabled.",
            "1 exclude, 2 disabled",
            &["1 exclude, 2 disabled", "2 like 3"],
            "Draw a full-screen quad with each scissor mode.",
            &[AZ, MODEL],
            &["rast::config"],
        ),
        guess(
            "rast-wbuffer-select",
            "rast",
            "DEPTHMAP_MODE 0 selects the w-buffer.",
            "0 = w-buffer",
            &["0 = w-buffer", "1 = w-buffer"],
            "Draw a sloped triangle with each mode and read the depth buffer.",
            &[AZ],
            &["rast::config"],
        ),
        guess(
            "rast-depth-format-reserved",
            "rast",
            "Reserved depth-buffer format 1 counts as 24-bit.",
            "24",
            &["24", "16", "hang"],
            "Draw with DEPTHBUFFER_FORMAT = 1 (may freeze the GPU, see fop-bad-format-hang).",
            &[MODEL, SEED2],
            &["rast::config"],
        ),
        guess(
            "rast-scissor-inclusive",
            "rast",
            "Scissor X2/Y2 are inclusive.",
            "inclusive",
            &["inclusive", "exclusive"],
            "Scissor a full-screen quad and check the border columns.",
            &[AZ],
            &["rast::config"],
        ),
        guess(
            "rast-early-depth",
            "rast",
            "Early depth: the model built from the registers' described facts (enable, function, clear value 0).",
            "model's early-depth unit",
            &["model's early-depth unit"],
            "Early-depth draws with each function and clear value, reading which fragments reach the framebuffer.",
            &[MODEL, "citro3d"],
            &["rast::early", "rast::config"],
        ),
        guess(
            "rast-fix12p4",
            "rast",
            "Window coordinates are signed 16-bit 12.4, converted by rounding half away from zero; NaN gives 0.",
            "12.4, round half away",
            &["12.4, round half away", "truncate"],
            "Vertices at quarter-sixteenth positions; check coverage at the edges.",
            &[AZ, MODEL],
            &["rast::setup"],
        ),
        guess(
            "rast-fill-rule",
            "rast",
            "Top-left style fill rule of Azahar's IsRightSideOrFlatBottomEdge.",
            "Azahar's rule",
            &["Azahar's rule", "top-left"],
            "Two triangles sharing edges of every orientation on pixel centres; look for double or missing pixels.",
            &[AZ],
            &["rast::setup"],
        ),
        // ---- tex -----------------------------------------------------------------------------
        guess(
            "tex3-reserved-coords",
            "tex",
            "A reserved texture3_coords value (3) makes unit 3 use texcoord0.",
            "texcoord0",
            &["texcoord0", "texcoord2"],
            "Procedural texture with coords = 3 and distinct texcoords.",
            &[MODEL, SEED2],
            &["tex::TEX3_RESERVED_COORDS"],
        ),
        guess(
            "tex-disabled-unit",
            "tex",
            "A disabled texture unit gives (0, 0, 0, 0).",
            "zero",
            &["zero", "last texel"],
            "Combiner reading a disabled unit's colour.",
            &[AZ],
            &["tex"],
        ),
        guess(
            "tex-reserved-type",
            "tex",
            "Reserved texture types 6 and 7 on unit 0 sample as 2D.",
            "2D",
            &["2D", "zero", "hang"],
            "Sample with type 6/7.",
            &[AZ],
            &["tex::RESERVED_TYPE_IS_2D"],
        ),
        guess(
            "tex-param-bits-ignored",
            "tex",
            "TEXUNIT PARAM's shadow bit and etc1 field are ignored (type and format decide).",
            "ignored",
            &["ignored", "honoured"],
            "Sample with the bits set inconsistently with type/format.",
            &[AZ],
            &["tex"],
        ),
        guess(
            "tex-row-order",
            "tex",
            "v → 0 reads the last row in memory.",
            "last row",
            &["last row"],
            "Sample a texture with distinct rows at v = 0 and 1.",
            &[AZ],
            &["tex"],
        ),
        guess(
            "tex-unmapped-hang",
            "tex",
            "Reading unmapped memory for a texel stops the model (hang).",
            "hang",
            &["hang", "garbage"],
            "Point a texture at unmapped memory (risky on hardware).",
            &[MODEL],
            &["tex::TexHang::Unmapped"],
        ),
        guess(
            "tex-projection",
            "tex",
            "Projected coordinates divide with the ALU's reciprocal rule; derivatives are not transformed for projection and cube types.",
            "ALU rcp, untransformed derivatives",
            &["ALU rcp, untransformed derivatives", "f24 division"],
            "Projected/cube textures with mipmaps; compare texels and LOD.",
            &[AZ, MODEL],
            &["tex"],
        ),
        guess(
            "tex-min-level-size",
            "tex",
            "Mipmap levels stop shrinking at 8 texels.",
            "8",
            &["8", "1"],
            "Sample levels below 8×8 of a small texture.",
            &["citro3d", MODEL],
            &["tex::level_dim"],
        ),
        guess(
            "tex-cube-nan",
            "tex",
            "Cube face selection with NaN follows the model's comparisons.",
            "model's NaN handling",
            &["model's NaN handling"],
            "Cube lookups with NaN coordinates.",
            &[MODEL],
            &["tex::cube_coords"],
        ),
        guess(
            "tex-shadow-compare",
            "tex",
            "Shadow-texture comparison rule, with percentage-closer filtering for linear filters.",
            "Azahar rule + PCF",
            &["Azahar rule + PCF", "filter then compare"],
            "Shadow texture with linear filter across a depth edge.",
            &[AZ, "citra PR #3516 (fincs' hardware notes)"],
            &["tex::shadow_texel"],
        ),
        guess(
            "tex-impossible-values",
            "tex",
            "1-bit fields whose match arms cannot occur: a reserved filter acts as nearest, a reserved coords value keeps texcoord2.",
            "nearest / texcoord2",
            &["nearest / texcoord2"],
            "Not reachable (1-bit fields); nothing to settle.",
            &[MODEL],
            &["tex"],
        ),
        guess(
            "tex-etc1-overflow",
            "tex",
            "ETC1 differential base + delta outside 0..=31 (invalid ETC1) wraps.",
            "model behaviour",
            &["model behaviour"],
            "Decode an invalid ETC1 block on hardware.",
            &[MODEL],
            &["tex::etc1"],
        ),
        guess(
            "tex-reserved-format",
            "tex",
            "Reserved texture formats 14 and 15 decode as RGBA8888.",
            "RGBA8888",
            &["RGBA8888", "zero"],
            "Sample with format 14/15.",
            &[MODEL],
            &["tex::format"],
        ),
        guess(
            "tex-alpha-only-colour",
            "tex",
            "A8 and A4 textures give colour (0, 0, 0).",
            "(0, 0, 0)",
            &["(0, 0, 0)", "(1, 1, 1)"],
            "Combiner reading an A8 texture's RGB.",
            &[AZ],
            &["tex::format"],
        ),
        guess(
            "tex-coord-precision",
            "tex",
            "Texel coordinates: exact product, 8 sub-texel bits, floor; NaN → 0, ±inf saturate.",
            "model precision",
            &["model precision", "f24 product truncated toward zero"],
            "Sample at coordinates between texels and at negative coordinates.",
            &[MODEL, AZ],
            &["tex::sample::to_fixed"],
        ),
        guess(
            "tex-filter-weights",
            "tex",
            "Bilinear and mip-level blend weights: 8-bit fractions, round half up.",
            "8-bit, round half up",
            &["8-bit, round half up"],
            "Linear-filtered gradients; compare every pixel.",
            &[MODEL],
            &["tex::sample::lerp_levels"],
        ),
        guess(
            "tex-wrap-reserved",
            "tex",
            "Reserved wrap modes 4-7 behave as Azahar's hardware-test-derived rules.",
            "Azahar's rules",
            &["Azahar's rules"],
            "Sample with wrap modes 4-7 outside [0, 1].",
            &[AZ],
            &["tex::sample"],
        ),
        guess(
            "tex-lod",
            "tex",
            "LOD: per-axis maximum, model derivative precision and piecewise-linear log2; magnification decided on the biased unclamped LOD.",
            "model's LOD unit",
            &["model's LOD unit"],
            "Mipmapped textures at many scales and biases; compare chosen levels.",
            &[AZ, MODEL],
            &["tex::sample::lod_from_derivs", "tex::sample::log2_fixed"],
        ),
        guess(
            "proctex-precision",
            "tex",
            "Procedural texture arithmetic: 12 fraction bits, truncation, saturation, NaN → 0.",
            "12-bit fixed point",
            &["12-bit fixed point"],
            "Render procedural textures with every mapping function and compare pixels.",
            &[MODEL],
            &["tex::proctex::FRAC_BITS"],
        ),
        guess(
            "proctex-reserved-values",
            "tex",
            "Reserved procedural-texture values: shift 3 gives no offset, clamp 5-7 clamp to edge, filters 6-7 act as nearest.",
            "Azahar defaults / nearest",
            &["Azahar defaults / nearest"],
            "Use each reserved value.",
            &[AZ, MODEL],
            &["tex::proctex"],
        ),
        guess(
            "proctex-lut-scales",
            "tex",
            "Procedural-texture LUT value and difference scales (fixed0.0.12).",
            "model scales",
            &["model scales"],
            "Noise/colour LUTs with extreme values.",
            &[SEED2, MODEL],
            &["tex::proctex"],
        ),
        guess(
            "proctex-noise-amplitude",
            "tex",
            "Noise amplitude scale (1/4096 vs Azahar's 1/4095).",
            "1/4096",
            &["1/4096", "1/4095"],
            "Noise with amplitude 1.0.",
            &[AZ, "citro3d"],
            &["tex::proctex"],
        ),
        guess(
            "proctex-color-levels",
            "tex",
            "Colour-table levels 4-7 use fixed offsets; width 0 acts as 1; offset+index wraps at 256.",
            "model rules",
            &["model rules"],
            "Mipmapped procedural textures with small widths.",
            &[SEED2, MODEL],
            &["tex::proctex::HIGH_LEVEL_OFFSETS", "tex::proctex::color_level"],
        ),
        guess(
            "proctex-lod",
            "tex",
            "Procedural-texture LOD rule.",
            "Azahar rule",
            &["Azahar rule"],
            "Mipmapped procedural textures at many scales.",
            &[AZ],
            &["tex::proctex::lod"],
        ),
        // ---- lighting ------------------------------------------------------------------------
        guess(
            "light-lut-format",
            "lighting",
            "LUT entry difference is sign-magnitude in 1/2048 units; interpolation weight is the input's fraction below the index.",
            "sign-magnitude, fraction weight",
            &["sign-magnitude, fraction weight", "two's complement"],
            "Lighting with LUTs of known entries and differences; compare pixels.",
            &[SEED2, AZ],
            &["light::lut"],
        ),
        guess(
            "light-lut-clamp",
            "lighting",
            "LUT inputs outside the domain are clamped before addressing.",
            "clamp",
            &["clamp", "wrap"],
            "LUT inputs beyond 1.0.",
            &[AZ],
            &["light::lut"],
        ),
        guess(
            "light-shadow-primary",
            "lighting",
            "The primary shadow multiplies the diffuse term only, not ambient.",
            "diffuse only",
            &["diffuse only", "diffuse and ambient"],
            "Shadowed lighting with strong ambient.",
            &[AZ],
            &["light"],
        ),
        guess(
            "light-texel-mapping",
            "lighting",
            "Shadow factor = texel / 255; bump texel → t / 127.5 - 1.",
            "Azahar mappings",
            &["Azahar mappings"],
            "Shadow/bump textures with every byte value.",
            &[AZ],
            &["light::snorm8"],
        ),
        guess(
            "light-output-rounding",
            "lighting",
            "Light output clamps then rounds to nearest byte.",
            "round to nearest",
            &["round to nearest", "truncate"],
            "Full-intensity light straight on; read 255 or 254.",
            &[MODEL, AZ],
            &["light"],
        ),
        guess(
            "light-abs-one-sided",
            "lighting",
            "In abs mode a one-sided light clamps negative inputs to 0.",
            "clamp to 0",
            &["clamp to 0", "absolute value"],
            "One-sided light behind the surface with abs LUT input.",
            &[AZ],
            &["light::lut_lookup"],
        ),
        guess(
            "light-lut-enable-bits",
            "lighting",
            "LUT disable bits are bit 16 + slot of LIGHTING_CONFIG1.",
            "16 + slot",
            &["16 + slot"],
            "Toggle each bit and observe the LUT's effect.",
            &[SEED2, "citro3d", AZ],
            &["light::config"],
        ),
        guess(
            "light-reserved-values",
            "lighting",
            "Reserved lighting values: config 7/9-15 like 6, reserved selector reads 0.0, scale 4/5 → 1/16, 1/8, reserved bump mode = none.",
            "model choices",
            &["model choices", "Azahar (zero)"],
            "Use each reserved value.",
            &[AZ, MODEL],
            &["light::config::lut_available", "light::config::BumpMode"],
        ),
        guess(
            "light-enable",
            "lighting",
            "Lighting is on when ENABLE0 bit 0 is 1 and ENABLE1 bit 0 is 0.",
            "both registers",
            &["both registers", "ENABLE1 only"],
            "Toggle each register alone.",
            &[SEED2, AZ],
            &["light::config"],
        ),
        guess(
            "light-color-fields",
            "lighting",
            "Light colours are 10-bit fields with 255 = 1.0 (values above brighten).",
            "10-bit, 255 = 1.0",
            &["10-bit, 255 = 1.0", "8-bit"],
            "Light colour 0x3FF per channel.",
            &[AZ, SEED2],
            &["light::config"],
        ),
        guess(
            "light-fixed-1-1-11",
            "lighting",
            "fixed1.1.11 weight is 1/2048.",
            "1/2048",
            &["1/2048", "1/2047"],
            "Values written with that format at 1.0; compare.",
            &["citro3d", AZ],
            &["light::config::fixed_1_1_11"],
        ),
        // ---- tev -----------------------------------------------------------------------------
        guess(
            "tev-stage0-previous",
            "tev",
            "\"Previous\" in stage 0 reads the primary colour.",
            "primary colour",
            &["primary colour", "zero"],
            "Stage 0 with previous as source.",
            &["seed rule"],
            &["tev"],
        ),
        guess(
            "tev-formulas",
            "tev",
            "Combine formulas (except DOT3) and their truncation, and the ADD_SIGNED bias 128, are Azahar's.",
            "Azahar formulas",
            &["Azahar formulas"],
            "A hardware table per operation like dot3-rgb.tsv.",
            &[AZ, "pica-facts §4"],
            &["tev::ADD_SIGNED_BIAS", "tev::combine_channel"],
        ),
        guess(
            "tev-reserved-values",
            "tev",
            "Reserved combiner sources, operations and scales give 0 / 1×; reserved operands decode by the same pattern.",
            "zero / 1×",
            &["zero / 1×"],
            "Use each reserved value.",
            &[AZ, MODEL],
            &["tev::RESERVED_SOURCE", "tev::RESERVED_COMBINE", "tev::RESERVED_SCALE_SHIFT"],
        ),
        guess(
            "tev-alpha-dot3",
            "tev",
            "Alpha DOT3 gives 0; DOT3_RGBA places its result in alpha too.",
            "0 / result in alpha",
            &["0 / result in alpha"],
            "Alpha combiner with DOT3; DOT3_RGBA with alpha readback.",
            &[AZ],
            &["tev::ALPHA_DOT3", "tev::run_stage"],
        ),
        guess(
            "tev-dot3-unseen",
            "tev",
            "DOT3 cases the hardware table cannot see (mixed-sign terms beyond the clamp).",
            "model extrapolation",
            &["model extrapolation"],
            "Extend dot3-rgb.tsv with mixed-sign inputs.",
            &["../shared/hw-data/dot3-rgb.tsv"],
            &["tev::dot3"],
        ),
        // ---- fog / gas -----------------------------------------------------------------------
        guess(
            "fog-index",
            "fog",
            "Fog LUT index from the 24-bit depth (complement when flipped).",
            "24-bit depth",
            &["24-bit depth", "float depth"],
            "Fog at known depths with and without flip.",
            &[AZ, MODEL],
            &["fog::FOG_Z_BITS", "fog::fog_flip"],
        ),
        guess(
            "fog-reserved-modes",
            "fog",
            "Fog modes other than 5 and 7 do nothing.",
            "no fog",
            &["no fog"],
            "Each fog mode 1-4, 6.",
            &[AZ],
            &["fog::apply"],
        ),
        guess(
            "gas-shading",
            "gas",
            "Gas shading arithmetic (8-bit fractions, truncation) and the signed LUT differences.",
            "model arithmetic",
            &["model arithmetic"],
            "Gas rendering with known LUTs; compare pixels.",
            &[SEED2, MODEL],
            &["fog::gas"],
        ),
        guess(
            "fop-gas-rule",
            "gas",
            "Gas density accumulation rule: depth function as a weight, particles do not occlude.",
            "model rule",
            &["model rule"],
            "Gas particles with each depth function over a known depth buffer.",
            &["libctru GPU_GASDEPTHFUNC", MODEL],
            &["fop::gas"],
        ),
        guess(
            "fop-gas-channels",
            "gas",
            "Gas density channels: red for plain density, green for depth density.",
            "red / green",
            &["red / green"],
            "Read the colour buffer after a gas pass.",
            &[MODEL],
            &["fop::gas::PLAIN_CHANNEL", "fop::gas::DEPTH_CHANNEL"],
        ),
        // ---- fop -----------------------------------------------------------------------------
        guess(
            "fop-block32-layout",
            "fop",
            "Framebuffer layout in 32×32 block mode.",
            "model layout",
            &["model layout"],
            "Render in block-32 mode and dump memory.",
            &[MODEL],
            &["fop::fb"],
        ),
        guess(
            "fop-rgb8-format",
            "fop",
            "Colour format 1 is RGB8 (b, g, r bytes).",
            "RGB8",
            &["RGB8", "invalid"],
            "Render with format 1 and dump memory.",
            &["seed 000", "ctrulib", AZ],
            &["fop::fb"],
        ),
        guess(
            "fop-color-conversion",
            "fop",
            "Colour to buffer format truncates (no dithering); buffer to colour replicates bits.",
            "truncate / replicate",
            &["truncate / replicate", "round / dither"],
            "Blend into RGB565/RGBA5551 buffers.",
            &[AZ],
            &["fop::fb"],
        ),
        guess(
            "fop-pixel-size-field",
            "fop",
            "The colour buffer's pixel size field is ignored (the format decides).",
            "ignored",
            &["ignored", "honoured"],
            "Set the size field inconsistent with the format.",
            &[AZ],
            &["fop::fb::ColorFormat::from_regs"],
        ),
        guess(
            "fop-framebuffer-dim",
            "fop",
            "Framebuffer dimensions come from FRAMEBUFFER_DIM (0x11E), not RENDERBUF_DIM (0x06E).",
            "0x11E",
            &["0x11E", "0x06E"],
            "Write the two with different values and render.",
            &[AZ, "citro3d"],
            &["fop::fb", "rast::config"],
        ),
        guess(
            "fop-blend-factor-15",
            "fop",
            "Undescribed blend factor 15 acts as One.",
            "One",
            &["One", "Zero"],
            "Blend with factor 15.",
            &[AZ],
            &["fop::ops::blend_factor"],
        ),
        guess(
            "fop-blend-rounding",
            "fop",
            "Blend equation: truncating division of the exact sum.",
            "truncate",
            &["truncate", "hardware's (off-by-ones reported)"],
            "A hardware blend table over byte inputs.",
            &[AZ, "citra-emu/citra#1625"],
            &["fop::ops"],
        ),
        guess(
            "fop-no-cache",
            "fop",
            "No framebuffer cache: writes reach memory immediately.",
            "no cache",
            &["no cache", "cache until flush"],
            "Read memory before a flush.",
            &[MODEL],
            &["fop"],
        ),
        guess(
            "fop-bad-format-hang",
            "fop",
            "Reserved depth/colour buffer formats freeze the GPU at the first fragment.",
            "hang",
            &["hang"],
            "Draw with each reserved format.",
            &["seed 000"],
            &["fop"],
        ),
        guess(
            "fop-access-enables",
            "fop",
            "Buffer read/write enables: any non-zero value enables; a disabled read sees 0; depth and stencil gated by separate bits.",
            "model rules",
            &["model rules", "Azahar (whole-field gating)"],
            "Draw with partial enables and read the buffers.",
            &[SEED2, AZ, MODEL],
            &["fop"],
        ),
        guess(
            "fop-fragment-mode-reserved",
            "fop",
            "Reserved fragment-operation mode behaviour.",
            "model choice",
            &["model choice"],
            "Draw with the reserved mode.",
            &[MODEL],
            &["fop::FopConfig::fragment_mode"],
        ),
        guess(
            "fop-outside-buffer",
            "fop",
            "Fragments outside the buffer are dropped without a memory access.",
            "dropped",
            &["dropped", "wrapped address"],
            "Scissor off and draw past the buffer edge.",
            &[MODEL, AZ],
            &["fop"],
        ),
        guess(
            "fop-shadow-order",
            "fop",
            "In shadow mode: fog, alpha test, then the shadow write.",
            "GLSL-generator order",
            &["GLSL-generator order", "software-renderer order"],
            "Shadow pass with alpha test rejecting some fragments.",
            &[AZ],
            &["fop::process_fragment", "fop::shadow::process"],
        ),
        guess(
            "fop-shadow-precision",
            "fop",
            "Shadow-map intensity precision (f16 roundings) and non-positive divisors.",
            "model precision",
            &["model precision"],
            "Shadow maps over a range of depths and biases.",
            &[MODEL, AZ],
            &["fop::shadow"],
        ),
        guess(
            "fop-shadow-word-layout",
            "fop",
            "Shadow-map word byte order.",
            "byte-swapped",
            &["byte-swapped", "plain"],
            "Dump a shadow map a real GPU wrote.",
            &[AZ],
            &["fop::shadow::SHADOW_WORD_BYTE_SWAPPED"],
        ),
        guess(
            "fop-shadow-enables",
            "fop",
            "Shadow mode: colour read/write enables apply as in default mode; channel masks do not.",
            "model rules",
            &["model rules"],
            "Shadow pass with partial enables and masks.",
            &[MODEL],
            &["fop::shadow"],
        ),
        guess(
            "fop-shadow-depth",
            "fop",
            "The shadow write uses the depth quantized to the depth-buffer format, widened to 24 bits.",
            "quantized",
            &["quantized", "unquantized"],
            "Shadow pass with D16 and D24 formats.",
            &[MODEL, AZ],
            &["fop::shadow"],
        ),
        // ---- psc (memory fill) ---------------------------------------------------------------
        documented(
            "psc-fill-registers",
            "psc",
            "Memory fill: start and end physical addresses >> 3 (end exclusive), a fill value, control bits 8-9 the width (0 = 16 bit, 1 or 3 = 24 bit, 2 = 32 bit).",
            "3dbrew GPU/External_Registers \"Memory Fill\"",
            &[BREW_EXT],
            &["psc::MemoryFill", "psc::FillWidth::from_control"],
        ),
        guess(
            "psc-fill-24bit-order",
            "psc",
            "A 24-bit fill writes the value's low three bytes, bits 0-7 first, every 3 bytes from the start.",
            "low byte first",
            &["low byte first", "high byte first"],
            "Fill a VRAM buffer with width 24 and value 0x00112233, read it back from the ARM11.",
            &[BREW_EXT, AZ],
            &["psc::MemoryFill::byte_at"],
        ),
        guess(
            "psc-fill-24bit-end",
            "psc",
            "A 24-bit fill stops at the end address, writing the first bytes of a last, partial value.",
            "stop at end",
            &["stop at end", "finish the last value past end"],
            "24-bit fill of 16 bytes between two sentinel words, read the sentinels back.",
            &[MODEL, AZ],
            &["psc::MemoryFill::apply"],
        ),
        guess(
            "psc-fill-between-lists",
            "psc",
            "A memory fill between command lists completes before the next list starts and takes no P3D cycle.",
            "instant, in order",
            &["instant, in order"],
            "Queue a fill and a command list that reads the filled buffer; time both with the GPU busy bits.",
            &[BREW_EXT, MODEL],
            &["gpu::Gpu::memory_fill"],
        ),
        // ---- timing --------------------------------------------------------------------------
        guess(
            "timing-rates",
            "timing",
            "Throughputs: every stage handles one item (word, write, instruction, vertex, triangle, pixel, fragment) per cycle.",
            "one per cycle",
            &["one per cycle"],
            "Time draws of known size with the GPU's performance counters.",
            &[NO_PUBLIC_CYCLES],
            &["timing"],
        ),
        guess(
            "timing-queue-depths",
            "timing",
            "Queue depths between the stages.",
            "model depths",
            &["model depths"],
            "Time back-pressure (e.g. FOP-bound draws) with performance counters.",
            &[NO_PUBLIC_CYCLES],
            &["timing"],
        ),
        guess(
            "timing-latencies",
            "timing",
            "Fixed latencies: VL command (0) and triangle setup (4 cycles).",
            "model latencies",
            &["model latencies"],
            "Time single-triangle draws with performance counters.",
            &[NO_PUBLIC_CYCLES],
            &["timing::VL_COMMAND_LATENCY", "timing::RAST_SETUP_CYCLES"],
        ),
    ]
}
