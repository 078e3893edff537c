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

use pica_model::beat::Channel;
use pica_model::Gpu;
use pica_rtl_bridge::kit;
use pica_vectors::case::Step as CaseStep;
use serde::Serialize;
use std::fmt::Write as _;

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
    /// Grouped by the beat's pixel (x, y), in order within a pixel: items may come in any
    /// order across pixels (a tiled traversal, out-of-order retirement); the first divergence
    /// is the one earliest in the model's order (`--match-pixels`).
    KeyedByPixel,
}

impl Order {
    /// How the stage table prints it.
    pub fn text(self) -> &'static str {
        match self {
            Order::InOrder => "in order",
            Order::KeyedBySeq => "keyed by seq",
            Order::KeyedByPixel => "keyed by pixel",
        }
    }
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
    /// The RTL stage top (a kit stage's from its description, `pica_rtl_bridge::kit::desc`).
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

mod compare;
pub mod fe;
pub mod fop;
mod mixed;
mod options;
pub mod rast;
mod report;
mod sh;
mod sh_port;
pub mod tev;
pub mod tex;

pub use compare::{stage_lockstep, stage_lockstep_keep, stage_lockstep_with, StageLockstepOptions};
pub use mixed::{cycle_factor, mixed_gpu, MixedGpu, MIXED_CYCLE_FACTOR};
pub use options::{
    check_knobs, parse_fop_variant, parse_rast_variant, parse_tev_variant, parse_tex_variant,
    tex_variant_knobs, Reorder, RtlStageArgs, StageError, StageOptions, TraceWindow,
};
pub use report::{text_report, StageDivergence, StageDivergenceKind, StageReport};

pub use fe::{FrontEndCheck, SharedTop, TopRun, TopShPort};
use sh::{attach_sh, attach_sh_in_top};
pub use sh::{Fault, ModelShPort, RtlShPort, ShAdapter, UNIT_UNKNOWN};
pub use sh_port::{PortTick, ShPort};

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
        rtl_top: kit::desc::SH.top,
        compare: Compare::TransactionExact,
        inputs: &[Channel::ShaderIn],
        outputs: &[
            (Channel::Commit, Order::KeyedBySeq),
            (Channel::ShaderOut, Order::InOrder),
        ],
        doc: "the four shader units with the VS/GS split (each unit an in-order pipeline \
              issuing one instruction per clock, its arithmetic 12 clocks deep with a \
              read-after-write interlock, RCP/RSQ 23, EX2 up to 179, LG2 382 on the multi-cycle \
              SFU: transactions, not cycles); \
              alone: pica_sh_top configured from the model's REGS (sync_config); with fe: the \
              SH stage inside pica_top, configured by its REGS",
        attach: Some(attach_sh),
        attach_in_top: Some(attach_sh_in_top),
        // 1 clock per instruction like the model, 14 for one that waits on the instruction
        // before it (pica_shader_unit.sv), plus the output beats; an SFU instruction (RCP, RSQ,
        // EX2, LG2) takes up to 365 (pica_sh_sfu.sv), so a dependent chain with one in ten
        // costs about 49 cycles per model cycle (a bound for real programs, where they are
        // rarer; a cycle-limit outcome is compared by kind, not cycle).
        slowdown: 56,
    },
    StageRow {
        name: "tex",
        replaces: &["tex"],
        rtl_top: kit::desc::TEX.top,
        compare: Compare::TransactionExact,
        inputs: &[],
        outputs: &[
            (Channel::Texel, Order::InOrder),
            (Channel::TexColor, Order::InOrder),
        ],
        doc: "texture units 0-2 (every format incl. ETC1/ETC1A4, wrap modes, nearest and \
              linear filters, mipmaps with LOD bias and limits, cube maps, projection, 2D and \
              cube shadow textures, the border colour) over a texel cache (16-byte lines, \
              one texel a clock on hits) behind an AXI4 read port served with --mem-latency; \
              one unit's texels at a time (transactions, not cycles); unit 3, the procedural \
              texture, stays in the model; not part of pica_top: with fe it runs its own top \
              beside it",
        attach: Some(tex::attach_tex),
        attach_in_top: None,
        // Set-up (coordinates, LOD, level offsets) and one texel a clock per unit, plus line
        // fills, where the model finishes a fragment a cycle.
        slowdown: 256,
    },
    StageRow {
        name: "tev",
        replaces: &["tev"],
        rtl_top: kit::desc::TEV.top,
        compare: Compare::TransactionExact,
        inputs: &[],
        outputs: &[(Channel::Combiner, Order::InOrder)],
        doc: "the six texture combiners and the combiner buffer (an 18-deep pipeline, \
              three clocks per combiner: transactions, not cycles); not part of pica_top: with fe it runs its own top \
              beside it",
        attach: Some(tev::attach_tev),
        attach_in_top: None,
        // One fragment per clock, as the model.
        slowdown: 2,
    },
    StageRow {
        name: "fop",
        replaces: &["fop"],
        rtl_top: kit::desc::FOP.top,
        compare: Compare::TransactionExact,
        inputs: &[],
        outputs: &[(Channel::Pixel, Order::InOrder)],
        doc: "the fragment operations with the framebuffer (alpha, stencil, depth, blend / \
              logic op, masks, gas and shadow modes, every format, both tilings) behind an \
              AXI4 master port (posted writes: a read may be in flight beside a write) served \
              from the model's memory with --mem-latency and --mem-reorder, every beat checked \
              against the AXI4 rules (one fragment at a time, several clocks each: \
              transactions, not cycles; the final colour and depth-stencil buffers are \
              compared byte for byte); not part of pica_top: with fe it runs its own top \
              beside it",
        attach: Some(fop::attach_fop),
        attach_in_top: None,
        // Several memory round trips per fragment where the model finishes one per cycle.
        slowdown: 128,
    },
    StageRow {
        name: "rast",
        replaces: &["clip", "rast"],
        rtl_top: kit::desc::RAST.top,
        compare: Compare::TransactionExact,
        inputs: &[Channel::Primitive],
        outputs: &[(Channel::Fragment, Order::InOrder)],
        doc: "clipping (the model's planes in its order, the user plane, the fan), perspective \
              division, viewport, depth map and culling (pica_clip_pipe: an unclipped \
              triangle on a three-lane fast path, 22 clocks; others through pica_clip), \
              then 12.4 setup, the \
              top-left rule, the bounding box, scissor, traversal, perspective-correct \
              interpolation and early depth (pica_rast: set-up overlapped with the last \
              triangle's walk, one pixel a clock, 13 interpolation lanes, 2-3 clocks a \
              fragment) behind an early-depth port served with --mem-latency (transactions, \
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
            .map(|(c, o)| format!("{} ({})", c.name(), o.text()))
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
    let pixel: Vec<&str> = compare::PIXEL_CHANNELS.iter().map(|c| c.name()).collect();
    let _ = writeln!(
        out,
        "--match-pixels: {} are matched keyed by pixel instead (each pixel's own order kept), \
         for RTL that emits them in another order than the model's walk: a tiled traversal, \
         out-of-order retirement across pixels (--reorder-fragments N makes the rast row's do \
         so); every RTL row's throughput (fragments_per_clock, clocks_per_triangle, ...) is in \
         the report",
        pixel.join(", ")
    );
    // The builds of each described stage (--sh-variant, --rast-variant, ...; --variant with
    // `pica fuzz --rtl`), from the stage kit's description: the same list the options parse.
    let _ = writeln!(out, "\nbuilds (--<stage>-variant NAME):");
    for st in pica_rtl_bridge::kit::desc::STAGES {
        for v in st.variants {
            let doc = if v.doc.is_empty() {
                "the RTL as written"
            } else {
                v.doc
            };
            let _ = writeln!(out, "  {:<5} {:<28} {}", st.name, v.name, doc);
        }
    }
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
