//! Stage-level co-verification: RTL stages swapped into a running model pipeline
//! (design.md "Stage-level co-verification").
//!
//! [`STAGES`] is the stage table: one row per RTL stage, naming the model stages it replaces,
//! how it is compared (cycle-exact or transaction-exact), the channels it consumes and
//! produces, and its port adapter. `--rtl-stages LIST` picks rows. A run with pipeline stages
//! in RTL builds a **mixed** GPU — the model with each listed stage's
//! [`External`](pica_model::stage::External) adapter in its slot
//! ([`Gpu::replace_stage`]) — and compares it with the model alone:
//!
//! - each row's output channels, transaction-exact: the same beats with the same payload bits
//!   (cycle stamps and unit numbers excepted), in order, or keyed by sequence number where the
//!   hardware may finish items out of order (the commit trace of four shader units);
//! - every other pipeline channel in order (the model stages after the RTL one must see the
//!   same items), then the outcome, then the final memory: the picture, byte for byte.
//! - When both runs stop on a shader hang, the jobs in flight at that moment (other vertices in
//!   the VS units while the GS hangs, say) got as far as each side's timing let them: every
//!   channel is compared on the prefix both produced, except the hanging job's commits, which
//!   must agree to the hanging instruction; the outcomes must agree; memory is not compared.
//!
//! The front end (`fe`) alone keeps its own cycle-exact comparison ([`crate::lockstep`]). Listed
//! with pipeline rows (`fe,sh`), the rows combine into **one** mixed run on the full RTL top
//! ([`fe`]): `pica_top` (CP → REGS → SH) is stepped in the same cycle loop as the model GPU, its
//! register-write beats are compared cycle-exact with the model front end's by the `fe` row's
//! [`CycleHook`], and each pipeline row attaches its [`StageRow::attach_in_top`] adapter, which
//! serves the model's slot from `pica_top`'s own stage ports (so the stage is configured through
//! REGS); then the usual transaction-exact comparison follows.
//!
//! A new RTL stage plugs in by adding a row and its port adapter: the cycle loop
//! ([`MixedGpu::step`]: [`Gpu::step`] between the rows' hooks) and the comparison do not
//! change.

use crate::lockstep::FieldDiff;
use pica_model::beat::{Beat, Channel, CommitBeat};
use pica_model::chan::Payload;
use pica_model::shader::disasm;
use pica_model::shader::interp::{Knobs as ShaderKnobs, ShaderUnit, Step};
use pica_model::{Gpu, Outcome};
use pica_rtl_bridge::coverage::CoverageBuild;
use pica_rtl_bridge::fop_stage::{FopVariant, MemLatency};
use pica_rtl_bridge::rast_stage::RastVariant;
use pica_rtl_bridge::shader::ShVariant;
use pica_rtl_bridge::tev_stage::TevVariant;
use pica_rtl_bridge::Variant;
use pica_vectors::bundle::OutcomeRecord;
use pica_vectors::case::{hang_reason_code, Case, CaseError, Step as CaseStep, StepTarget};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// How a stage's output is compared with the model's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Compare {
    /// Same beats in the same cycles (the RTL promises the model's timing).
    CycleExact,
    /// Same beats with the same payload bits in the same order, any latency.
    TransactionExact,
}

/// How the beats of one output channel are matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Beat n of the model against beat n of the mixed run.
    InOrder,
    /// Grouped by the beat's `seq` (vertex or GS invocation), in order within a group: items
    /// may finish out of order across groups (one group per shader unit job).
    KeyedBySeq,
}

/// Builds a stage's port adapter into a mixed GPU.
pub type AttachFn = fn(&mut Gpu, &StageOptions) -> Result<(), StageError>;

/// Builds a stage's port adapter over the stage inside the full RTL top (`pica_top`, shared
/// with the front-end check) into a mixed GPU.
pub type TopAttachFn = fn(&mut Gpu, &StageOptions, &SharedTop) -> Result<(), StageError>;

/// One row of the stage table.
#[derive(Clone, Copy, Debug)]
pub struct StageRow {
    /// The name `--rtl-stages` takes.
    pub name: &'static str,
    /// The model stages it stands in for.
    pub replaces: &'static [&'static str],
    /// The RTL stage top.
    pub rtl_top: &'static str,
    /// How it is compared.
    pub compare: Compare,
    /// Channels it consumes.
    pub inputs: &'static [Channel],
    /// Channels it produces, with how each is matched.
    pub outputs: &'static [(Channel, Order)],
    /// What the row covers.
    pub doc: &'static str,
    /// Its port adapter (`None`: the front end, compared by [`crate::lockstep`] on its own).
    pub attach: Option<AttachFn>,
    /// Its port adapter when `fe` is listed too: the stage inside `pica_top`, fed by the RTL
    /// front end (`None`: the stage is not part of `pica_top`; with `fe` it runs its own stage
    /// top beside it).
    pub attach_in_top: Option<TopAttachFn>,
    /// How many times the model's cycles a run with this stage in RTL may take at most (the
    /// mixed run's cycle budget is the case's limit times the largest factor of its rows,
    /// at least [`MIXED_CYCLE_FACTOR`]): the RTL's throughput is not the model's.
    pub slowdown: u64,
}

pub mod fe;
pub mod fop;
pub mod rast;
mod sh;
pub mod tev;

pub use fe::{FrontEndCheck, SharedTop, TopRun, TopShPort};
use sh::{attach_sh, attach_sh_in_top};
pub use sh::{Fault, ModelShPort, PortTick, RtlShPort, ShAdapter, ShPort, UNIT_UNKNOWN};

/// The stage table.
pub static STAGES: &[StageRow] = &[
    StageRow {
        name: "fe",
        replaces: &["cp", "regs"],
        rtl_top: "pica_top",
        compare: Compare::CycleExact,
        inputs: &[],
        outputs: &[(Channel::RegWrite, Order::InOrder)],
        doc: "front end: command processor, the CP->REGS FIFO, register file \
              (pica lockstep without --rtl-stages); with pipeline rows (fe,sh) one mixed run \
              on pica_top, its regwrite beats cycle-exact beside the model GPU and those rows \
              served by pica_top's own stage ports",
        attach: None,
        attach_in_top: None,
        slowdown: 1,
    },
    StageRow {
        name: "sh",
        replaces: &["sh"],
        rtl_top: "pica_sh_top",
        compare: Compare::TransactionExact,
        inputs: &[Channel::ShaderIn],
        outputs: &[
            (Channel::Commit, Order::KeyedBySeq),
            (Channel::ShaderOut, Order::InOrder),
        ],
        doc: "the four shader units with the VS/GS split (3 cycles per instruction: \
              transactions, not cycles); alone: pica_sh_top configured from the model's REGS \
              (sync_config); with fe: the SH stage inside pica_top, configured by its REGS",
        attach: Some(attach_sh),
        attach_in_top: Some(attach_sh_in_top),
        // 3 cycles per instruction where the model takes 1, plus the output beats.
        slowdown: 8,
    },
    StageRow {
        name: "tev",
        replaces: &["tev"],
        rtl_top: "pica_tev_top",
        compare: Compare::TransactionExact,
        inputs: &[],
        outputs: &[(Channel::Combiner, Order::InOrder)],
        doc: "the six texture combiners and the combiner buffer (a six-deep pipeline: \
              transactions, not cycles); not part of pica_top: with fe it runs its own top \
              beside it",
        attach: Some(tev::attach_tev),
        attach_in_top: None,
        // One fragment per clock, as the model.
        slowdown: 2,
    },
    StageRow {
        name: "fop",
        replaces: &["fop"],
        rtl_top: "pica_fop_top",
        compare: Compare::TransactionExact,
        inputs: &[],
        outputs: &[(Channel::Pixel, Order::InOrder)],
        doc: "the fragment operations with the framebuffer (alpha, stencil, depth, blend / \
              logic op, masks, gas and shadow modes, every format, both tilings) behind a \
              request/response memory port served from the model's memory with \
              --mem-latency (one fragment at a time, several clocks each: transactions, not \
              cycles; the final colour and depth-stencil buffers are compared byte for byte); \
              not part of pica_top: with fe it runs its own top beside it",
        attach: Some(fop::attach_fop),
        attach_in_top: None,
        // Several memory round trips per fragment where the model finishes one per cycle.
        slowdown: 128,
    },
    StageRow {
        name: "rast",
        replaces: &["clip", "rast"],
        rtl_top: "pica_rast_top",
        compare: Compare::TransactionExact,
        inputs: &[Channel::Primitive],
        outputs: &[(Channel::Fragment, Order::InOrder)],
        doc: "clipping (the model's planes in its order, the user plane, the fan), perspective \
              division, viewport, depth map and culling (pica_clip), then 12.4 setup, the \
              top-left rule, the bounding box, scissor, traversal, perspective-correct \
              interpolation and early depth (pica_rast) behind an early-depth port served \
              with --mem-latency (multi-cycle per triangle and per fragment: transactions, \
              not cycles; fragments in the model's order); not part of pica_top: with fe it \
              runs its own top beside it",
        attach: Some(rast::attach_rast),
        attach_in_top: None,
        // A multi-cycle clipper and several clocks per fragment where the model emits one
        // fragment per cycle.
        slowdown: 256,
    },
];

/// A row by name.
pub fn row(name: &str) -> Option<&'static StageRow> {
    STAGES.iter().find(|r| r.name == name)
}

/// The table as text (`pica stages`).
pub fn table_text() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<6} {:<11} {:<13} {:<18} {:<10} outputs (matching)",
        "stage", "replaces", "rtl top", "compare", "inputs"
    );
    for r in STAGES {
        let outputs: Vec<String> = r
            .outputs
            .iter()
            .map(|(c, o)| {
                format!(
                    "{} ({})",
                    c.name(),
                    match o {
                        Order::InOrder => "in order",
                        Order::KeyedBySeq => "keyed by seq",
                    }
                )
            })
            .collect();
        let inputs: Vec<&str> = r.inputs.iter().map(|c| c.name()).collect();
        let _ = writeln!(
            out,
            "{:<6} {:<11} {:<13} {:<18} {:<10} {}",
            r.name,
            r.replaces.join(","),
            r.rtl_top,
            match r.compare {
                Compare::CycleExact => "cycle-exact",
                Compare::TransactionExact => "transaction-exact",
            },
            if inputs.is_empty() {
                "-".to_string()
            } else {
                inputs.join(",")
            },
            outputs.join(", ")
        );
        let _ = writeln!(out, "       {}", r.doc);
    }
    let inside: Vec<&str> = STAGES
        .iter()
        .filter(|r| r.attach_in_top.is_some())
        .map(|r| r.name)
        .collect();
    let _ = writeln!(
        out,
        "fe with pipeline rows (e.g. fe,sh): one mixed run on pica_top, whose front end is \
         compared cycle-exact beside the model GPU and whose own ports serve the rows inside \
         it ({}); a row without fe, or one pica_top does not hold, runs its own stage top",
        inside.join(", ")
    );
    out
}

/// A set of stages chosen with `--rtl-stages`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StageSet {
    rows: Vec<&'static str>,
}

impl StageSet {
    /// Parses `sh,fe` (comma-separated row names; `none` or empty = no RTL stage).
    pub fn parse(s: &str) -> Result<Self, String> {
        let mut rows = Vec::new();
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name == "none" {
                continue;
            }
            let r = row(name).ok_or_else(|| {
                let known: Vec<&str> = STAGES.iter().map(|r| r.name).collect();
                format!(
                    "unknown RTL stage '{name}' (stages: {}; see `pica stages`)",
                    known.join(", ")
                )
            })?;
            if !rows.contains(&r.name) {
                rows.push(r.name);
            }
        }
        Ok(Self { rows })
    }

    /// The front end alone (what `pica lockstep` compares without `--rtl-stages`).
    pub fn front_end() -> Self {
        Self { rows: vec!["fe"] }
    }

    /// Whether one of `names` is in the set.
    pub fn rows_named(&self, names: &[&str]) -> bool {
        self.rows.iter().any(|r| names.contains(r))
    }

    /// Whether the front end is among them.
    pub fn has_front_end(&self) -> bool {
        self.rows.contains(&"fe")
    }

    /// The rows that swap a pipeline stage (all but the front end).
    pub fn pipeline_rows(&self) -> impl Iterator<Item = &'static StageRow> + '_ {
        self.rows
            .iter()
            .filter_map(|n| row(n))
            .filter(|r| r.attach.is_some())
    }

    /// Whether any pipeline stage is in RTL.
    pub fn has_pipeline_stages(&self) -> bool {
        self.pipeline_rows().next().is_some()
    }

    /// The names, comma-separated.
    pub fn names(&self) -> String {
        self.rows.join(",")
    }
}

/// The `--rtl-stages` options shared by `pica lockstep`, `pica scene render`, `pica vectors
/// gen|check` and `pica fuzz`.
#[derive(Clone, Debug, clap::Args)]
pub struct RtlStageArgs {
    /// Put these stages in RTL, the rest in the model (comma-separated; `pica stages` lists
    /// them: fe = front end, sh = shader units, tev = texture combiners, fop = fragment
    /// operations).
    #[arg(long, value_name = "LIST", value_parser = StageSet::parse)]
    pub rtl_stages: Option<StageSet>,
    /// The RTL SH build: default, add_round (inject_sh_add_round), loop_extra
    /// (inject_sh_loop_extra).
    #[arg(long, value_name = "V", default_value = "default", value_parser = crate::shader_fuzz::parse_sh_variant)]
    pub sh_variant: ShVariant,
    /// The RTL TEV build: default, scale_sat (inject_tev_scale_sat), buffer
    /// (inject_tev_buffer).
    #[arg(long, value_name = "V", default_value = "default", value_parser = parse_tev_variant)]
    pub tev_variant: TevVariant,
    /// The RTL FOP build: default, blend_factor, stencil_zfail, tile32 (inject_fop_*).
    #[arg(long, value_name = "V", default_value = "default", value_parser = parse_fop_variant)]
    pub fop_variant: FopVariant,
    /// The RTL RAST build: default, fill_rule, persp, clip_plane_order (inject_rast_*,
    /// inject_clip_plane_order).
    #[arg(long, value_name = "V", default_value = "default", value_parser = parse_rast_variant)]
    pub rast_variant: RastVariant,
    /// How the harness answers the RTL FOP's memory port: 0 (the clock after the request),
    /// N extra clocks, or `rand:MAX[:SEED]` (each request 0..=MAX extra clocks from SEED, and the
    /// request side held one clock in five). Results must not depend on it.
    #[arg(long, value_name = "L", default_value = "0", value_parser = MemLatency::parse)]
    pub mem_latency: MemLatency,
}

/// Parses an FOP RTL variant name (`default`, `inject_fop_blend_factor`, ...; the
/// `inject_fop_` prefix may be left out).
pub fn parse_fop_variant(s: &str) -> Result<FopVariant, String> {
    FopVariant::from_name(s).ok_or_else(|| {
        format!(
            "unknown FOP RTL variant '{s}' (one of: {})",
            FopVariant::ALL.map(FopVariant::name).join(", ")
        )
    })
}

/// Parses a RAST RTL variant name (`default`, `fill_rule`, `persp`, `clip_plane_order`, with
/// or without their `inject_` prefixes).
pub fn parse_rast_variant(s: &str) -> Result<RastVariant, String> {
    RastVariant::from_name(s).ok_or_else(|| {
        format!(
            "unknown RAST RTL variant '{s}' (one of: {})",
            RastVariant::ALL.map(RastVariant::name).join(", ")
        )
    })
}

/// Parses a TEV RTL variant name (`default`, `inject_tev_scale_sat`, `inject_tev_buffer`; the
/// `inject_tev_` prefix may be left out).
pub fn parse_tev_variant(s: &str) -> Result<TevVariant, String> {
    if let Some(k) = pica_rtl_bridge::mutants::parse_mutant(s, pica_rtl_bridge::mutants::TEV_MODEL)
    {
        return Ok(TevVariant::Mutant(k));
    }
    TevVariant::ALL
        .into_iter()
        .find(|v| v.name() == s || v.name().strip_prefix("inject_tev_") == Some(s))
        .ok_or_else(|| {
            format!(
                "unknown TEV RTL variant '{s}' (one of: {})",
                TevVariant::ALL.map(TevVariant::name).join(", ")
            )
        })
}

impl RtlStageArgs {
    /// The mixed-run options they give.
    pub fn options(&self) -> StageOptions {
        StageOptions {
            sh_variant: self.sh_variant,
            tev_variant: self.tev_variant,
            fop_variant: self.fop_variant,
            rast_variant: self.rast_variant,
            mem_latency: self.mem_latency,
            ..StageOptions::default()
        }
    }
}

/// Options of a mixed run.
#[derive(Clone, Debug)]
pub struct StageOptions {
    /// The `pica_top` build of the `fe` row (an injected-bug or mutant build has no shader
    /// units: only with the SH stage in the model).
    pub fe_variant: Variant,
    /// The shader-unit build of the RTL SH stage.
    pub sh_variant: ShVariant,
    /// The build of the RTL TEV stage.
    pub tev_variant: TevVariant,
    /// The build of the RTL FOP stage.
    pub fop_variant: FopVariant,
    /// The build of the RTL CLIP + RAST stage.
    pub rast_variant: RastVariant,
    /// How the RTL FOP's memory port and the RTL RAST's early-depth port are answered.
    pub mem_latency: MemLatency,
    /// Record the `commit` channel (costs a record per instruction on both sides).
    pub commits: bool,
    /// Write a VCD of the RTL stages for cycles `from..=to` of the mixed run.
    pub trace: Option<TraceWindow>,
}

impl StageOptions {
    /// Switches each pipeline stage of `set` (sh, tev, fop, rast) to its coverage build
    /// (`--rtl-coverage`, [`pica_rtl_bridge::coverage`]) and returns those builds, in the
    /// set's order. Refused (the message says what is supported) when `set` holds the front end
    /// (a mixed run's `pica_top` has no coverage build: the front end's coverage is the
    /// front-end lockstep's, `--rtl-stages fe` alone) or a stage runs an injected-bug or mutant
    /// build (only the RTL as written has a coverage build).
    pub fn use_coverage(&mut self, set: &StageSet) -> Result<Vec<CoverageBuild>, String> {
        if set.has_front_end() {
            return Err(format!(
                "--rtl-coverage in a mixed run counts the RTL pipeline stages (sh, tev, fop, \
                 rast); --rtl-stages {} also puts the front end in RTL, whose coverage comes \
                 from the front-end lockstep alone (--rtl-stages fe, without --pipeline-hold)",
                set.names()
            ));
        }
        let mut builds = Vec::new();
        for r in set.pipeline_rows() {
            let Some(b) = CoverageBuild::from_stage(r.name) else {
                return Err(format!(
                    "--rtl-coverage: stage {} has no coverage build",
                    r.name
                ));
            };
            // The build now, and whether it was the RTL as written before.
            fn switch<V: PartialEq>(v: &mut V, coverage: V, as_written: V) -> bool {
                std::mem::replace(v, coverage) == as_written
            }
            let as_written = match b {
                CoverageBuild::Sh => switch(
                    &mut self.sh_variant,
                    ShVariant::Coverage,
                    ShVariant::Default,
                ),
                CoverageBuild::Tev => switch(
                    &mut self.tev_variant,
                    TevVariant::Coverage,
                    TevVariant::Default,
                ),
                CoverageBuild::Fop => switch(
                    &mut self.fop_variant,
                    FopVariant::Coverage,
                    FopVariant::Default,
                ),
                CoverageBuild::Rast => switch(
                    &mut self.rast_variant,
                    RastVariant::Coverage,
                    RastVariant::Default,
                ),
                CoverageBuild::Fe => false,
            };
            if !as_written {
                return Err(format!(
                    "--rtl-coverage: the RTL {} stage runs an injected-bug or mutant build, \
                     which has no coverage build (only the RTL as written has one, {})",
                    r.name,
                    b.name()
                ));
            }
            builds.push(b);
        }
        Ok(builds)
    }
}

impl Default for StageOptions {
    fn default() -> Self {
        Self {
            fe_variant: Variant::Default,
            sh_variant: ShVariant::Default,
            tev_variant: TevVariant::Default,
            fop_variant: FopVariant::Default,
            rast_variant: RastVariant::Default,
            mem_latency: MemLatency::Zero,
            commits: false,
            trace: None,
        }
    }
}

/// A window of cycles to trace.
#[derive(Clone, Debug)]
pub struct TraceWindow {
    /// The VCD file.
    pub path: PathBuf,
    /// First cycle traced.
    pub from: u64,
    /// Last cycle traced.
    pub to: u64,
}

/// Why a stage run could not start.
#[derive(Debug, thiserror::Error)]
pub enum StageError {
    /// The case is bad input.
    #[error(transparent)]
    Case(#[from] CaseError),
    /// The RTL could not be built or traced.
    #[error(transparent)]
    Rtl(#[from] pica_rtl_bridge::RtlError),
    /// `fe` with an SH build `pica_top` has no row for.
    #[error(
        "pica_top is built with the default shader units only, not {0}: use --rtl-stages sh \
         (pica_sh_top has the injected-bug builds)"
    )]
    NoTopVariant(&'static str),
    /// The SH stage in RTL with a `pica_top` build that has no shader units.
    #[error(
        "pica_top build {0} has no shader units (EnableSh = 0): leave sh out of --rtl-stages \
         or use the default build"
    )]
    NoShInTop(String),
    /// The case's shader knobs differ from what the RTL SH build implements.
    #[error("{0}")]
    Knobs(String),
}

/// Checks that the RTL stages of `set` can follow `knobs`. A knob matters where the stage that
/// applies it ([`pica_model::knobs::stage_of`]) runs: a knob of a model stage only changes what
/// the model feeds the RTL, which is compared as it is. The RTL implements no knob of the CP,
/// REGS (`fe`), CLIP, RAST (`rast`), TEV (`tev`) or FOP (`fop`) other than its default; the SH
/// stage in RTL (`pica_sh_top`, or `pica_top`'s with `fe`) is built with the shader knobs of
/// `sh_variant` (the defaults: no SH-stage build flips them). The error names every knob a
/// build cannot follow, so a model with knobs is never compared with an RTL without them.
pub fn check_knobs(
    set: &StageSet,
    sh_variant: ShVariant,
    knobs: &pica_model::knobs::Knobs,
) -> Result<(), String> {
    let mut errors = Vec::new();
    for r in set.rows.iter().filter_map(|n| row(n)) {
        let bad: Vec<String> = r
            .replaces
            .iter()
            .filter(|s| **s != "sh")
            .flat_map(|s| knobs.non_default_in(s))
            .collect();
        if !bad.is_empty() {
            errors.push(format!(
                "the RTL {} stage ({}) implements the default knobs of {} only and cannot follow \
                 --knob {}",
                r.name,
                r.rtl_top,
                r.replaces.join(", "),
                bad.join(" --knob ")
            ));
        }
    }
    if set.pipeline_rows().any(|r| r.name == "sh") {
        // pica_sh_top and pica_top have only default-knob builds (build.rs: the knobs_alt row
        // is pica_sh_unit_top's).
        let rtl = match sh_variant {
            ShVariant::KnobsAlt => ShaderKnobs::default(),
            v => v.knobs(),
        };
        let top = if set.has_front_end() {
            "pica_top"
        } else {
            "pica_sh_top"
        };
        let bad = crate::knobs::unfollowed(&knobs.shader, &rtl);
        if !bad.is_empty() {
            errors.push(format!(
                "the RTL SH stage ({top}, build {}) implements the default shader knobs only and \
                 cannot follow --knob {}; run these knobs on the model alone, or on one shader \
                 unit with every RTL knob flipped (`pica fuzz --target shader --rtl --variant \
                 knobs_alt`, `pica shader bundle` + `scripts/replay`)",
                sh_variant.name(),
                bad.join(" --knob ")
            ));
        }
        // The SH stage's own knobs around the units (the GS input assembler's `gs-new-draw`):
        // pica_sh implements their defaults only, in every build.
        let unit_knob = |a: &String| {
            pica_model::knobs::ShaderKnobs::NAMES
                .iter()
                .any(|(n, _)| a.starts_with(&format!("{n}=")))
        };
        let stage: Vec<String> = knobs
            .non_default_in("sh")
            .into_iter()
            .filter(|a| !unit_knob(a))
            .collect();
        if !stage.is_empty() {
            errors.push(format!(
                "the RTL SH stage ({top}) implements the default of the SH stage's own knobs \
                 only (its GS input assembler) and cannot follow --knob {}",
                stage.join(" --knob ")
            ));
        }
    }
    if errors.is_empty() {
        return Ok(());
    }
    Err(format!(
        "--rtl-stages {}: {}; the model alone follows every knob (run without the RTL)",
        set.names(),
        errors.join("; ")
    ))
}

/// Per-cycle work a row does beside the GPU's own stages (the front end's cycle-exact check
/// of `pica_top` in an `fe,...` run).
pub trait CycleHook {
    /// Before [`Gpu::step`] (the GPU shows the state at the start of the cycle).
    fn before_step(&mut self, gpu: &Gpu);
    /// After [`Gpu::step`] (the cycle just stepped is `gpu.cycle() - 1`).
    fn after_step(&mut self, gpu: &Gpu);
    /// The first difference found while running; the run stops at it.
    fn divergence(&self) -> Option<&StageDivergence>;
    /// What it compared equal, for the report (channel, beats).
    fn compared(&self) -> (&'static str, usize);
    /// After the run: the final comparison (state).
    fn finish(&mut self, gpu: &Gpu) -> Option<StageDivergence>;
    /// A step of the case's sequence done on the GPU between two cycles (a fill, or the next
    /// submission after the previous one finished): do it on the row's own side too.
    fn on_step(&mut self, _step: &CaseStep) {}
}

/// A mixed GPU: the model with the RTL rows' adapters in its slots, and the rows' cycle hooks.
pub struct MixedGpu {
    /// The GPU.
    pub gpu: Gpu,
    /// Hooks run around every [`Gpu::step`].
    pub hooks: Vec<Box<dyn CycleHook>>,
}

impl From<Gpu> for MixedGpu {
    fn from(gpu: Gpu) -> Self {
        Self {
            gpu,
            hooks: Vec::new(),
        }
    }
}

impl MixedGpu {
    /// One cycle: the hooks, [`Gpu::step`], the hooks.
    pub fn step(&mut self) {
        for h in &mut self.hooks {
            h.before_step(&self.gpu);
        }
        self.gpu.step();
        for h in &mut self.hooks {
            h.after_step(&self.gpu);
        }
    }

    /// The first divergence a hook found.
    pub fn divergence(&self) -> Option<&StageDivergence> {
        self.hooks.iter().find_map(|h| h.divergence())
    }

    /// Steps until the run is over (as [`Gpu::run`]), `max_cycles` have run, or a hook found a
    /// divergence (then the outcome is the cycle limit at that cycle).
    pub fn run(&mut self, max_cycles: u64) -> Outcome {
        if self.hooks.is_empty() {
            return self.gpu.run(max_cycles);
        }
        loop {
            if let Some(o) = self.gpu.outcome() {
                return o;
            }
            if self.gpu.cycle() >= max_cycles || self.divergence().is_some() {
                return Outcome::CycleLimit {
                    cycles: self.gpu.cycle(),
                };
            }
            self.step();
        }
    }
}

impl StepTarget for MixedGpu {
    fn run_for(&mut self, max_cycles: u64) -> Outcome {
        self.run(max_cycles)
    }

    fn submit(&mut self, addr: u32, size: u32) -> Result<(), pica_model::SubmitError> {
        self.gpu.submit(addr, size)?;
        let step = CaseStep::Submit { addr, size };
        for h in &mut self.hooks {
            h.on_step(&step);
        }
        Ok(())
    }

    fn fill(
        &mut self,
        fill: &pica_model::psc::MemoryFill,
    ) -> Result<(), pica_model::psc::FillError> {
        self.gpu.memory_fill(fill)?;
        let step = CaseStep::Fill(*fill);
        for h in &mut self.hooks {
            h.on_step(&step);
        }
        Ok(())
    }
}

/// Steps `target` (made for `case`, its first list submitted) cycle by cycle with `step` until
/// `stop` says so or the sequence is over, doing `case`'s further steps whenever a submission
/// finishes (as [`Case::run_steps`] does, one cycle at a time: for a trace window or a
/// replay up to a cycle). `outcome` and `cycle` read the target.
fn step_sequence<T: StepTarget>(
    case: &Case,
    target: &mut T,
    outcome: impl Fn(&T) -> Option<Outcome>,
    mut step: impl FnMut(&mut T),
    stop: impl Fn(&T) -> bool,
) {
    let mut next = 0usize;
    while !stop(target) {
        match outcome(target) {
            None => step(target),
            Some(Outcome::Finished { .. }) => {
                // The steps up to the next submission; none left: over.
                let mut submitted = false;
                while let Some(s) = case.more.get(next) {
                    next += 1;
                    match s {
                        CaseStep::Fill(f) => {
                            let _ = target.fill(f);
                        }
                        CaseStep::Transfer(_) => {}
                        CaseStep::Submit { addr, size } => {
                            submitted = target.submit(*addr, *size).is_ok();
                            break;
                        }
                    }
                }
                if !submitted {
                    return;
                }
                step(target);
            }
            Some(_) => return,
        }
    }
}

/// The model GPU for `case` with the stages of `set` in RTL. With `fe` and pipeline rows, one
/// `pica_top` runs beside it (the `fe` row's [`FrontEndCheck`] hook) and the pipeline rows
/// are served by its stage ports ([`StageRow::attach_in_top`]).
pub fn mixed_gpu(case: &Case, set: &StageSet, opts: &StageOptions) -> Result<MixedGpu, StageError> {
    check_knobs(set, opts.sh_variant, &case.knobs).map_err(StageError::Knobs)?;
    // The model's own stages run with the case's knobs (set by `Case::gpu`).
    let mut gpu = case.gpu()?;
    gpu.set_record_commits(opts.commits);
    // With the front end alone in RTL this is still a mixed run (`pica lockstep
    // --pipeline-hold`): the model's pipeline holds REGS while it is busy (`Gpu::regs_hold`),
    // which the front-end lockstep (pipeline off) never does.
    let top = if set.has_front_end() {
        let sh_in_top = set.rows_named(&["sh"]);
        Some(TopRun::new(
            case,
            opts.fe_variant,
            opts.sh_variant,
            sh_in_top,
        )?)
    } else {
        None
    };
    for r in set.pipeline_rows() {
        // A row inside pica_top is served by its ports; a row pica_top does not hold (tev)
        // runs its own stage top beside it.
        match (&top, r.attach_in_top, r.attach) {
            (Some(t), Some(attach), _) => attach(&mut gpu, opts, t)?,
            (_, _, Some(attach)) => attach(&mut gpu, opts)?,
            (_, _, None) => {}
        }
    }
    let mut m = MixedGpu::from(gpu);
    if let Some(t) = top {
        m.hooks.push(Box::new(FrontEndCheck::new(t)));
    }
    Ok(m)
}

/// The least cycle budget of a mixed run: RTL stages may take longer than the model's (the RTL
/// shader unit takes 3 cycles per instruction where the model takes 1), so the case's limit
/// is stretched by this factor, or by the largest [`StageRow::slowdown`] of the run's rows
/// ([`cycle_factor`]); outcomes are compared by kind and reason, not by cycle.
pub const MIXED_CYCLE_FACTOR: u64 = 8;

/// The factor a mixed run with the stages `rows` in RTL stretches the case's cycle limit by.
pub fn cycle_factor(rows: &[&StageRow]) -> u64 {
    rows.iter()
        .map(|r| r.slowdown)
        .fold(MIXED_CYCLE_FACTOR, u64::max)
}

// ---------------------------------------------------------------------------------------
// Comparison.

/// What kind of difference stopped a stage comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StageDivergenceKind {
    /// Both sides have the beat and it differs.
    BeatMismatch,
    /// The model has the beat, the mixed run does not.
    MissingBeat,
    /// The mixed run has a beat the model does not.
    ExtraBeat,
    /// The runs end differently (kind or hang reason).
    Outcome,
    /// Streams and outcome agree but the memory (the picture) differs.
    Memory,
    /// The RTL front end's final state (debug map) differs from the model REGS'.
    FinalState,
}

/// The first difference between the model alone and the mixed run.
#[derive(Clone, Debug, Serialize)]
pub struct StageDivergence {
    /// What differed.
    pub kind: StageDivergenceKind,
    /// The channel (or `outcome` / `memory`).
    pub channel: String,
    /// For a keyed channel: the key (`seq`), as text (`vertex 5`, `GS invocation 2`).
    pub key: Option<String>,
    /// Index of the beat within its key group (keyed) or the channel (in order).
    pub index: usize,
    /// Cycle of the model's beat (or of the mixed run's, when the model has none).
    pub cycle: u64,
    /// The model's beat.
    pub expected: Option<serde_json::Value>,
    /// The mixed run's beat.
    pub actual: Option<serde_json::Value>,
    /// Each differing field (cycle and unit are not compared).
    pub fields: Vec<FieldDiff>,
    /// The instruction, disassembled (commit channel).
    pub instruction: Option<String>,
    /// Its source operands as the model read them (commit channel, VS only).
    pub operands: Vec<(String, String)>,
    /// Up to [`crate::lockstep::HISTORY`] beats before it (equal on both sides).
    pub before: Vec<serde_json::Value>,
    /// Extra words.
    pub note: Option<String>,
    /// The VCD written for it.
    pub vcd: Option<String>,
}

/// The result of one stage comparison.
#[derive(Clone, Debug, Serialize)]
pub struct StageReport {
    /// Case name.
    pub case: String,
    /// The RTL stages (`--rtl-stages`).
    pub stages: String,
    /// `equal` or `mismatch`.
    pub result: String,
    /// Cycles the model alone ran.
    pub model_cycles: u64,
    /// Cycles the mixed run ran.
    pub mixed_cycles: u64,
    /// Beats compared equal, per channel.
    pub compared: BTreeMap<String, usize>,
    /// The model's outcome.
    pub outcome: OutcomeRecord,
    /// The first difference.
    pub divergence: Option<StageDivergence>,
}

impl StageReport {
    /// Whether the mixed run agreed with the model on everything.
    pub fn is_equal(&self) -> bool {
        self.divergence.is_none()
    }
}

/// Options of a stage comparison.
#[derive(Clone, Debug, Default)]
pub struct StageLockstepOptions {
    /// The mixed run's options (`commits` is forced on when a row has a commit output).
    pub stage: StageOptions,
    /// On a mismatch, re-run the mixed GPU and write a VCD of this many cycles around it.
    pub trace_window: Option<u64>,
    /// Where that VCD goes.
    pub vcd: PathBuf,
}

fn channel_beats(gpu: &Gpu, ch: Channel) -> Vec<Beat> {
    fn wrap<T: Copy>(xs: &[T], f: fn(T) -> Beat) -> Vec<Beat> {
        xs.iter().copied().map(f).collect()
    }
    let p = gpu.pipeline_beats();
    let (shader_in, shader_out) = gpu.shader_beats();
    match ch {
        Channel::RegWrite => wrap(gpu.regwrite_beats(), Beat::RegWrite),
        Channel::ShaderIn => wrap(shader_in, Beat::ShaderIn),
        Channel::ShaderOut => wrap(shader_out, Beat::ShaderOut),
        Channel::Commit => wrap(gpu.commit_beats(), Beat::Commit),
        Channel::Primitive => wrap(p.primitive, Beat::Primitive),
        Channel::Fragment => wrap(p.fragment, Beat::Fragment),
        Channel::Pixel => wrap(p.pixel, Beat::Pixel),
        Channel::Texel => wrap(p.texel, Beat::Texel),
        Channel::Combiner => wrap(p.combiner, Beat::Combiner),
    }
}

/// A beat without what a transaction-exact comparison ignores: the cycle, the unit, and in a
/// commit the lanes of `result` the instruction did not write (they hold what the unit's
/// earlier jobs left in the register, which depends on which unit ran the vertex — the one
/// thing a transaction-exact comparison lets differ).
fn payload(b: &Beat) -> Beat {
    let mut b = *b;
    match &mut b {
        Beat::RegWrite(x) => x.cycle = 0,
        Beat::ShaderIn(x) | Beat::ShaderOut(x) => {
            x.cycle = 0;
            x.unit = 0;
        }
        Beat::Commit(c) => {
            c.cycle = 0;
            c.unit = 0;
            let mask = c.mask;
            for (lane, r) in c.result.iter_mut().enumerate() {
                if (mask >> (3 - lane)) & 1 == 0 {
                    *r = 0;
                }
            }
        }
        Beat::Primitive(x) => x.cycle = 0,
        Beat::Fragment(x) => x.cycle = 0,
        Beat::Pixel(x) => x.cycle = 0,
        Beat::Texel(x) => x.cycle = 0,
        Beat::Combiner(x) => x.cycle = 0,
    }
    b
}

/// [`payload`] as JSON fields, for reports.
fn payload_json(b: &Beat) -> serde_json::Map<String, serde_json::Value> {
    let mut m = beat_fields(&payload(b));
    m.remove("cycle");
    // The shader unit (not the texture unit of a texel beat) is not compared.
    if matches!(b, Beat::ShaderIn(_) | Beat::ShaderOut(_) | Beat::Commit(_)) {
        m.remove("unit");
    }
    m
}

fn beat_fields(b: &Beat) -> serde_json::Map<String, serde_json::Value> {
    match b {
        Beat::RegWrite(x) => x.json_fields(),
        Beat::ShaderIn(x) | Beat::ShaderOut(x) => x.json_fields(),
        Beat::Commit(x) => x.json_fields(),
        Beat::Primitive(x) => x.json_fields(),
        Beat::Fragment(x) => x.json_fields(),
        Beat::Pixel(x) => x.json_fields(),
        Beat::Texel(x) => x.json_fields(),
        Beat::Combiner(x) => x.json_fields(),
    }
}

fn beat_value(b: &Beat) -> serde_json::Value {
    let mut m = beat_fields(b);
    m.insert("channel".into(), b.channel().name().into());
    serde_json::Value::Object(m)
}

fn field_diffs(
    e: &serde_json::Map<String, serde_json::Value>,
    a: &serde_json::Map<String, serde_json::Value>,
) -> Vec<FieldDiff> {
    let show = |v: Option<&serde_json::Value>| {
        v.map_or_else(
            || "-".into(),
            |v| v.to_string().trim_matches('"').to_string(),
        )
    };
    let mut names: Vec<&String> = e.keys().collect();
    names.extend(a.keys().filter(|k| !e.contains_key(*k)));
    names
        .into_iter()
        .filter(|k| e.get(*k) != a.get(*k))
        .map(|k| FieldDiff {
            name: k.clone(),
            expected: show(e.get(k)),
            actual: show(a.get(k)),
        })
        .collect()
}

fn seq_key_text(seq: u32) -> String {
    if seq & CommitBeat::GS_SEQ_FLAG != 0 {
        format!("GS invocation {}", seq & !CommitBeat::GS_SEQ_FLAG)
    } else {
        format!("vertex {seq}")
    }
}

fn beat_seq(b: &Beat) -> u32 {
    match b {
        Beat::Commit(c) => c.seq,
        Beat::ShaderIn(s) | Beat::ShaderOut(s) => s.seq,
        _ => 0,
    }
}

/// Compares one channel; `Some` on the first difference.
fn compare_channel(
    ch: Channel,
    order: Order,
    want: &[Beat],
    got: &[Beat],
    complete: bool,
    compared: &mut usize,
) -> Option<StageDivergence> {
    let mk =
        |kind, key: Option<String>, index, e: Option<&Beat>, a: Option<&Beat>, before: &[Beat]| {
            let fields = match (e, a) {
                (Some(e), Some(a)) => field_diffs(&payload_json(e), &payload_json(a)),
                _ => Vec::new(),
            };
            StageDivergence {
                kind,
                channel: ch.name().into(),
                key,
                index,
                cycle: e.or(a).map_or(0, Beat::cycle),
                expected: e.map(beat_value),
                actual: a.map(beat_value),
                fields,
                instruction: None,
                operands: Vec::new(),
                before: before
                    .iter()
                    .rev()
                    .take(crate::lockstep::HISTORY)
                    .rev()
                    .map(beat_value)
                    .collect(),
                note: None,
                vcd: None,
            }
        };
    match order {
        Order::InOrder => {
            for (i, e) in want.iter().enumerate() {
                let Some(a) = got.get(i) else {
                    if !complete {
                        return None;
                    }
                    return Some(mk(
                        StageDivergenceKind::MissingBeat,
                        None,
                        i,
                        Some(e),
                        None,
                        &want[..i],
                    ));
                };
                if payload(e) != payload(a) {
                    return Some(mk(
                        StageDivergenceKind::BeatMismatch,
                        None,
                        i,
                        Some(e),
                        Some(a),
                        &want[..i],
                    ));
                }
                *compared += 1;
            }
            if complete && got.len() > want.len() {
                let i = want.len();
                return Some(mk(
                    StageDivergenceKind::ExtraBeat,
                    None,
                    i,
                    None,
                    Some(&got[i]),
                    want,
                ));
            }
            None
        }
        Order::KeyedBySeq => {
            let group = |bs: &[Beat]| {
                let mut m: BTreeMap<u32, Vec<Beat>> = BTreeMap::new();
                for b in bs {
                    m.entry(beat_seq(b)).or_default().push(*b);
                }
                m
            };
            let (w, g) = (group(want), group(got));
            let mut keys: Vec<u32> = w.keys().chain(g.keys()).copied().collect();
            keys.sort_unstable();
            keys.dedup();
            let empty = Vec::new();
            // The job whose commits end in a hang is compared whole even when the run is not.
            let hangs = |bs: &[Beat]| {
                bs.iter()
                    .any(|b| matches!(b, Beat::Commit(c) if c.hang != 0))
            };
            for k in keys {
                let (we, ge) = (w.get(&k).unwrap_or(&empty), g.get(&k).unwrap_or(&empty));
                let complete = complete || hangs(we) || hangs(ge);
                for (i, e) in we.iter().enumerate() {
                    let key = Some(seq_key_text(k));
                    let Some(a) = ge.get(i) else {
                        if !complete {
                            break;
                        }
                        return Some(mk(
                            StageDivergenceKind::MissingBeat,
                            key,
                            i,
                            Some(e),
                            None,
                            &we[..i],
                        ));
                    };
                    if payload(e) != payload(a) {
                        return Some(mk(
                            StageDivergenceKind::BeatMismatch,
                            key,
                            i,
                            Some(e),
                            Some(a),
                            &we[..i],
                        ));
                    }
                    *compared += 1;
                }
                if complete && ge.len() > we.len() {
                    let i = we.len();
                    return Some(mk(
                        StageDivergenceKind::ExtraBeat,
                        Some(seq_key_text(k)),
                        i,
                        None,
                        Some(&ge[i]),
                        we,
                    ));
                }
            }
            None
        }
    }
}

/// The channels of the pipeline compared after the stage rows' own outputs.
const DOWNSTREAM: &[Channel] = &[
    Channel::ShaderOut,
    Channel::Primitive,
    Channel::Fragment,
    Channel::Texel,
    Channel::Combiner,
    Channel::Pixel,
];

/// Runs `case` on the model alone and with the pipeline stages of `set` in RTL, and compares
/// them (see the module docs).
pub fn stage_lockstep(
    case: &Case,
    set: &StageSet,
    opts: &StageLockstepOptions,
) -> Result<StageReport, StageError> {
    stage_lockstep_keep(case, set, opts).map(|(r, _)| r)
}

/// [`stage_lockstep`], also returning the mixed GPU after its run (its memory holds the
/// picture the RTL stages helped to render).
pub fn stage_lockstep_keep(
    case: &Case,
    set: &StageSet,
    opts: &StageLockstepOptions,
) -> Result<(StageReport, Gpu), StageError> {
    let rows: Vec<&StageRow> = set.pipeline_rows().collect();
    stage_lockstep_with(case, &set.names(), &rows, opts, &|o| {
        mixed_gpu(case, set, o)
    })
}

/// [`stage_lockstep`] with the mixed GPU built by `build` (the table's adapters, or a test
/// double); `rows` say which channels are the stages' own outputs.
pub fn stage_lockstep_with(
    case: &Case,
    label: &str,
    rows: &[&StageRow],
    opts: &StageLockstepOptions,
    build: &dyn Fn(&StageOptions) -> Result<MixedGpu, StageError>,
) -> Result<(StageReport, Gpu), StageError> {
    let commits = rows
        .iter()
        .any(|r| r.outputs.iter().any(|(c, _)| *c == Channel::Commit));
    let mut sopts = opts.stage.clone();
    sopts.commits |= commits;
    // The model answers the disputed cases as the case's knobs say (`Case::gpu`); the mixed
    // GPU's RTL SH build must implement the same ones (`check_knobs` in `mixed_gpu`).
    let mut reference = case.gpu()?;
    reference.set_record_commits(sopts.commits);
    // Every step of the case on both: each submission after the previous one finished.
    let mo = case.run_steps(&mut reference, case.max_cycles)?.outcome;
    let mut run = build(&sopts)?;
    let xo = case
        .run_steps(&mut run, case.max_cycles.saturating_mul(cycle_factor(rows)))?
        .outcome;
    // A model run cut by the cycle limit is compared on the prefix both sides produced; so is
    // a run both sides stopped on a shader hang (the module docs), whose outcome must agree.
    let shader_hang = |o: &Outcome| {
        matches!(
            o,
            Outcome::Hang {
                reason: pica_model::gpu::HangReason::Shader { .. },
                ..
            }
        )
    };
    let both_hang = shader_hang(&mo) && shader_hang(&xo);
    let complete = !matches!(mo, Outcome::CycleLimit { .. }) && !both_hang;
    let mut compared = BTreeMap::new();
    // The rows' own checks first (the front end's cycle-exact beats, then its final state):
    // a front-end difference is the cause of whatever differs downstream.
    let mut divergence = run.divergence().cloned();
    for h in &mut run.hooks {
        let (name, n) = h.compared();
        compared.insert(name.to_string(), n);
        if divergence.is_none() {
            divergence = h.finish(&run.gpu);
        }
    }
    let mixed = run.gpu;
    let mut done: Vec<Channel> = Vec::new();
    let outputs = rows
        .iter()
        .flat_map(|r| r.outputs.iter().copied())
        .chain(DOWNSTREAM.iter().map(|c| (*c, Order::InOrder)));
    for (ch, order) in outputs {
        if divergence.is_some() {
            break;
        }
        if done.contains(&ch) {
            continue;
        }
        done.push(ch);
        let n = compared.entry(ch.name().to_string()).or_insert(0usize);
        let (w, g) = (channel_beats(&reference, ch), channel_beats(&mixed, ch));
        if let Some(d) = compare_channel(ch, order, &w, &g, complete, n) {
            divergence = Some(d);
            break;
        }
    }
    if divergence.is_none() && (complete || both_hang) {
        divergence = compare_outcome(&mo, &xo);
    }
    if divergence.is_none() && complete {
        divergence = compare_memory(case, &reference, &mixed);
    }
    if let Some(d) = &mut divergence {
        if d.channel == "commit" {
            explain_commit(case, d, case.knobs.shader);
        }
        if let Some(w) = opts.trace_window {
            let from = d.cycle.saturating_sub(w / 2);
            let to = d.cycle + w.div_ceil(2);
            let mut topts = sopts.clone();
            topts.trace = Some(TraceWindow {
                path: opts.vcd.clone(),
                from,
                to,
            });
            let mut g = build(&topts)?;
            step_sequence(
                case,
                &mut g,
                |g| g.gpu.outcome(),
                MixedGpu::step,
                |g| g.gpu.cycle() > to,
            );
            drop(g);
            d.vcd = Some(format!("{} (cycles {from}..={to})", opts.vcd.display()));
        }
    }
    let report = StageReport {
        case: case.name.clone(),
        stages: label.to_string(),
        result: if divergence.is_some() {
            "mismatch"
        } else {
            "equal"
        }
        .into(),
        model_cycles: reference.cycle(),
        mixed_cycles: mixed.cycle(),
        compared,
        outcome: OutcomeRecord::of(&mo),
        divergence,
    };
    Ok((report, mixed))
}

fn compare_outcome(mo: &Outcome, xo: &Outcome) -> Option<StageDivergence> {
    let (w, g) = (OutcomeRecord::of(mo), OutcomeRecord::of(xo));
    let mut fields = Vec::new();
    if w.kind != g.kind {
        fields.push(FieldDiff {
            name: "kind".into(),
            expected: w.kind.clone(),
            actual: g.kind.clone(),
        });
    }
    let reason = |o: &Outcome| match o {
        Outcome::Hang { reason, .. } => Some((hang_reason_code(reason), reason.to_string())),
        _ => None,
    };
    if reason(mo) != reason(xo) {
        fields.push(FieldDiff {
            name: "hang_reason".into(),
            expected: reason(mo).map_or("-".into(), |r| r.1),
            actual: reason(xo).map_or("-".into(), |r| r.1),
        });
    }
    (!fields.is_empty()).then(|| StageDivergence {
        kind: StageDivergenceKind::Outcome,
        channel: "outcome".into(),
        key: None,
        index: 0,
        cycle: g.cycle,
        expected: serde_json::to_value(&w).ok(),
        actual: serde_json::to_value(&g).ok(),
        fields,
        instruction: None,
        operands: Vec::new(),
        before: Vec::new(),
        note: Some("outcomes are compared by kind and reason; cycles may differ".into()),
        vcd: None,
    })
}

/// Words of memory listed in a report (the total is always given).
const MEMORY_DIFFS_SHOWN: usize = 16;

fn compare_memory(case: &Case, reference: &Gpu, mixed: &Gpu) -> Option<StageDivergence> {
    let mut fields = Vec::new();
    let mut total = 0usize;
    let mut first = None;
    for im in &case.images {
        for i in 0..im.words.len() as u32 {
            let addr = im.base.wrapping_add(i * 4);
            let (w, g) = (
                reference.mem().read_u32(addr).unwrap_or(0),
                mixed.mem().read_u32(addr).unwrap_or(0),
            );
            if w != g {
                total += 1;
                first.get_or_insert(addr);
                if fields.len() < MEMORY_DIFFS_SHOWN {
                    fields.push(FieldDiff {
                        name: format!("mem[0x{addr:08x}]"),
                        expected: format!("0x{w:08x}"),
                        actual: format!("0x{g:08x}"),
                    });
                }
            }
        }
    }
    (total > 0).then(|| StageDivergence {
        kind: StageDivergenceKind::Memory,
        channel: "memory".into(),
        key: None,
        index: 0,
        cycle: mixed.cycle(),
        expected: None,
        actual: None,
        fields,
        instruction: None,
        operands: Vec::new(),
        before: Vec::new(),
        note: Some(format!(
            "{total} word(s) of memory differ, the first at 0x{:08x}",
            first.unwrap_or(0)
        )),
        vcd: None,
    })
}

/// Adds the disassembled instruction and the model's operand values to a commit divergence.
///
/// Every earlier commit of the vertex agreed, so both sides entered the instruction with the
/// same registers: the operands shown are the ones the RTL should have read too (unless its
/// operand fetch itself is at fault — then the result differs with these same inputs).
fn explain_commit(case: &Case, d: &mut StageDivergence, knobs: ShaderKnobs) {
    let Some(e) = d.expected.as_ref().or(d.actual.as_ref()) else {
        return;
    };
    let num = |k: &str| {
        e.get(k).and_then(|v| {
            v.as_u64().or_else(|| {
                v.as_str()
                    .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
            })
        })
    };
    let (Some(seq), Some(word), Some(cycle)) = (num("seq"), num("word"), num("cycle")) else {
        return;
    };
    let unit = num("unit").unwrap_or(0) as usize;
    // The configuration the instruction ran with: REGS as it stood when it retired.
    let Ok(mut gpu) = case.gpu() else { return };
    gpu.set_shader_knobs(knobs);
    gpu.set_record_beats(true);
    step_sequence(case, &mut gpu, Gpu::outcome, Gpu::step, |g| {
        g.cycle() >= cycle
    });
    let cfg = gpu.regs().units()[unit.min(3)].clone();
    d.instruction = Some(
        disasm::instruction(word as u32, &cfg.opdescs)
            .unwrap_or_else(|| format!("(unknown opcode) 0x{word:08x}")),
    );
    let seq = seq as u32;
    if seq & CommitBeat::GS_SEQ_FLAG != 0 || d.expected.is_none() {
        d.note.get_or_insert_with(|| {
            "operand values are shown for vertex-shader instructions the model retired".into()
        });
        return;
    }
    // Re-run the vertex on one model unit up to the instruction and read its operands.
    let (ins, _) = gpu.shader_beats();
    let mut unitm = ShaderUnit::new(knobs);
    for b in ins.iter().filter(|b| b.seq == seq) {
        unitm.inputs[usize::from(b.reg & 15)] = b.xyzw.map(pica_model::num::F24::from_bits);
    }
    unitm.start(cfg.entry_point);
    let mut emitted = Vec::new();
    for _ in 0..d.index {
        if unitm.step(&cfg, None, &mut emitted) != Step::Continue {
            return;
        }
    }
    d.operands = unitm
        .operands(&cfg)
        .into_iter()
        .map(|(n, v)| {
            (
                n,
                v.iter()
                    .map(|c| format!("0x{:06x} ({})", c.bits(), c.to_f64()))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })
        .collect();
}

/// The report as text for people.
pub fn text_report(r: &StageReport) -> String {
    let mut out = String::new();
    let counts: Vec<String> = r
        .compared
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(c, n)| format!("{c} {n}"))
        .collect();
    let Some(d) = &r.divergence else {
        let _ = writeln!(
            out,
            "EQUAL  {} with RTL stages {}: {} (transaction-exact); model {} cycles, mixed {} cycles; {}",
            r.case,
            r.stages,
            if counts.is_empty() {
                "no beats".to_string()
            } else {
                counts.join(", ")
            },
            r.model_cycles,
            r.mixed_cycles,
            r.outcome.message
        );
        return out;
    };
    let what = match d.kind {
        StageDivergenceKind::BeatMismatch => "beats differ",
        StageDivergenceKind::MissingBeat => "the mixed run lacks a beat the model has",
        StageDivergenceKind::ExtraBeat => "the mixed run has a beat the model lacks",
        StageDivergenceKind::Outcome => "the runs end differently",
        StageDivergenceKind::Memory => "the final memory (picture) differs",
        StageDivergenceKind::FinalState => "the RTL front end's final state differs",
    };
    let _ = writeln!(
        out,
        "MISMATCH  {} with RTL stages {}: {what} — channel {}{}, beat #{}, cycle {}",
        r.case,
        r.stages,
        d.channel,
        d.key
            .as_ref()
            .map(|k| format!(" ({k})"))
            .unwrap_or_default(),
        d.index,
        d.cycle
    );
    if let Some(i) = &d.instruction {
        let pc = d
            .expected
            .as_ref()
            .or(d.actual.as_ref())
            .and_then(|v| v.get("pc"))
            .map(|v| v.to_string().trim_matches('"').to_string())
            .unwrap_or_default();
        let _ = writeln!(out, "  instruction: {pc}: {i}");
    }
    for (n, v) in &d.operands {
        let _ = writeln!(out, "    {n:<20} = {v}");
    }
    let show = |v: &Option<serde_json::Value>| {
        v.as_ref()
            .map_or_else(|| "(none)".into(), |v| v.to_string())
    };
    if d.expected.is_some() || d.actual.is_some() {
        let _ = writeln!(out, "  expected (model): {}", show(&d.expected));
        let _ = writeln!(out, "  actual   (mixed): {}", show(&d.actual));
    }
    if !d.fields.is_empty() {
        let _ = writeln!(out, "  differing fields:");
        let w = d.fields.iter().map(|f| f.name.len()).max().unwrap_or(0);
        for f in &d.fields {
            let _ = writeln!(
                out,
                "    {:<w$}  expected {:<28} actual {}",
                f.name, f.expected, f.actual
            );
        }
    }
    if let Some(n) = &d.note {
        let _ = writeln!(out, "  note: {n}");
    }
    if !d.before.is_empty() {
        let _ = writeln!(
            out,
            "  the {} beat(s) before it (equal on both sides):",
            d.before.len()
        );
        for b in &d.before {
            let _ = writeln!(out, "    {b}");
        }
    }
    if let Some(v) = &d.vcd {
        let _ = writeln!(out, "  waveform: {v}");
    }
    out
}
