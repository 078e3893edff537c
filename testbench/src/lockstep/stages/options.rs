//! What a stage run is configured with: the `--rtl-stages` arguments, the RTL builds of
//! each stage ([`StageOptions`]), the errors of a run, and which knobs the RTL stages follow.

use super::{row, StageSet};
use pica_model::shader::interp::Knobs as ShaderKnobs;
use pica_rtl_bridge::coverage::{CoverageBuild, CoverageSink};
use pica_rtl_bridge::fop_stage::{FopVariant, MemLatency};
use pica_rtl_bridge::rast_stage::RastVariant;
use pica_rtl_bridge::shader::ShVariant;
use pica_rtl_bridge::tev_stage::TevVariant;
use pica_rtl_bridge::tex_stage::TexVariant;
use pica_rtl_bridge::Variant;
use pica_vectors::case::CaseError;
use std::path::PathBuf;

/// The `--rtl-stages` options shared by `pica lockstep`, `pica scene render`, `pica vectors
/// gen|check` and `pica fuzz`.
#[derive(Clone, Debug, clap::Args)]
pub struct RtlStageArgs {
    /// Put these stages in RTL, the rest in the model (comma-separated; `pica stages` lists
    /// them: fe = front end, sh = shader units, tev = texture combiners, fop = fragment
    /// operations).
    #[arg(long, value_name = "LIST", value_parser = StageSet::parse)]
    pub rtl_stages: Option<StageSet>,
    /// The RTL SH build (the list in the help comes from the stage kit's description).
    #[arg(long, value_name = "V", default_value = "default", value_parser = crate::fuzz::shader::parse_sh_variant,
          help = sh_variant_help())]
    pub sh_variant: ShVariant,
    /// The RTL TEV build (the list in the help comes from the stage kit's description).
    #[arg(long, value_name = "V", default_value = "default", value_parser = parse_tev_variant,
          help = TevVariant::help())]
    pub tev_variant: TevVariant,
    /// The RTL FOP build (the list in the help comes from the stage kit's description).
    #[arg(long, value_name = "V", default_value = "default", value_parser = parse_fop_variant,
          help = FopVariant::help())]
    pub fop_variant: FopVariant,
    /// The RTL RAST build (the list in the help comes from the stage kit's description).
    #[arg(long, value_name = "V", default_value = "default", value_parser = parse_rast_variant,
          help = RastVariant::help())]
    pub rast_variant: RastVariant,
    /// The RTL TEX build (the list in the help comes from the stage kit's description).
    #[arg(long, value_name = "V", default_value = "default", value_parser = parse_tex_variant,
          help = TexVariant::help())]
    pub tex_variant: TexVariant,
    /// How the harness answers the RTL FOP's memory port: 0 (the clock after the request),
    /// N extra clocks, or `rand:MAX[:SEED]` (each request 0..=MAX extra clocks from SEED, and the
    /// request side held one clock in five). Results must not depend on it.
    #[arg(long, value_name = "L", default_value = "0", value_parser = MemLatency::parse)]
    pub mem_latency: MemLatency,
    /// How the harness orders the responses of the RTL FOP's AXI4 memory port: `none` (in
    /// order), `ids` (a due response of another ID may go first) or `interleave` (also read
    /// bursts of different IDs mixed beat by beat). Within one ID the order is kept (AXI4).
    /// Results must not depend on it.
    #[arg(long, value_name = "none|ids|interleave", default_value = "none")]
    pub mem_reorder: pica_rtl_bridge::axi::Reorder,
    /// Match the fragment path's items by pixel: fragment, texel, combiner and pixel beats may
    /// come in any order across pixels, each pixel's own in the model's order (for RTL that
    /// tiles its traversal or retires out of order). A divergence names the pixel and the
    /// fragments that touched it before.
    #[arg(long)]
    pub match_pixels: bool,
    /// Let the RTL RAST's fragments leave through a reordering window of N (1-64) fragments,
    /// released in a seeded random order that keeps each pixel's order (`N[:SEED]`): what a
    /// tiled rasterizer does to the fragment stream, for checking `--match-pixels` and the
    /// stages after RAST. Needs the rast row.
    #[arg(long, value_name = "N[:SEED]", value_parser = Reorder::parse)]
    pub reorder_fragments: Option<Reorder>,
}

/// A reordering window on a stage's output ([`RtlStageArgs::reorder_fragments`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reorder {
    /// Items held at most.
    pub window: usize,
    /// Seed of the release order.
    pub seed: u64,
}

impl Reorder {
    /// Largest window.
    pub const MAX_WINDOW: usize = 64;

    /// Parses `N` or `N:SEED` (seed decimal or `0x` hex).
    pub fn parse(s: &str) -> Result<Self, String> {
        let (n, seed) = match s.split_once(':') {
            Some((n, sd)) => {
                let seed = match sd.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => sd.parse(),
                }
                .map_err(|_| format!("bad seed `{sd}` in reorder window `{s}`"))?;
                (n, seed)
            }
            None => (s, 0),
        };
        let window: usize = n
            .parse()
            .map_err(|_| format!("bad window `{n}` in reorder window `{s}`"))?;
        if !(1..=Self::MAX_WINDOW).contains(&window) {
            return Err(format!(
                "reorder window `{s}`: N must be 1-{}",
                Self::MAX_WINDOW
            ));
        }
        Ok(Self { window, seed })
    }
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

/// Parses a TEX RTL variant name (`default`, `cache_beat`, `morton`, …, with or without the
/// `inject_tex_` prefix; `knobs_alt`; `tex_mut#K`).
pub fn parse_tex_variant(s: &str) -> Result<TexVariant, String> {
    TexVariant::from_name(s).ok_or_else(|| {
        format!(
            "unknown TEX RTL variant '{s}' (one of: {})",
            TexVariant::ALL.map(TexVariant::name).join(", ")
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

/// `--sh-variant`'s help: the SH builds of the stage kit's description (the SH stage's
/// variant enum is not the kit's macro, so its names are read here).
fn sh_variant_help() -> String {
    let names: Vec<&str> = pica_rtl_bridge::kit::desc::SH
        .variants
        .iter()
        .map(|v| v.name.trim_start_matches("inject_sh_"))
        .collect();
    format!(
        "The RTL SH build: {} (the full inject_sh_* names and `sh_mut#K`, mutant K, are taken \
         too; `pica stages` describes each build)",
        names.join(", ")
    )
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
            tex_variant: self.tex_variant,
            mem_latency: self.mem_latency,
            mem_reorder: self.mem_reorder,
            match_pixels: self.match_pixels,
            reorder_fragments: self.reorder_fragments,
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
    /// The build of the RTL TEX stage.
    pub tex_variant: TexVariant,
    /// How the RTL FOP's memory port and the RTL RAST's early-depth port are answered.
    pub mem_latency: MemLatency,
    /// How the RTL FOP's AXI4 memory port orders its responses.
    pub mem_reorder: pica_rtl_bridge::axi::Reorder,
    /// Match the fragment path's channels by pixel ([`RtlStageArgs::match_pixels`]).
    pub match_pixels: bool,
    /// A reordering window on the RTL RAST's fragments ([`RtlStageArgs::reorder_fragments`]).
    pub reorder_fragments: Option<Reorder>,
    /// Record the `commit` channel (costs a record per instruction on both sides).
    pub commits: bool,
    /// Write a VCD of the RTL stages for cycles `from..=to` of the mixed run.
    pub trace: Option<TraceWindow>,
    /// Where the RTL stages' coverage builds hand their counters when they are dropped
    /// (`--rtl-coverage`, [`StageOptions::use_coverage`]).
    pub coverage: Option<CoverageSink>,
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
                CoverageBuild::Tex => switch(
                    &mut self.tex_variant,
                    TexVariant::Coverage,
                    TexVariant::Default,
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
            tex_variant: TexVariant::Default,
            mem_latency: MemLatency::Zero,
            mem_reorder: pica_rtl_bridge::axi::Reorder::InOrder,
            match_pixels: false,
            reorder_fragments: None,
            commits: false,
            trace: None,
            coverage: None,
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
    /// `--reorder-fragments` without the stage whose output it reorders.
    #[error("--reorder-fragments reorders the RTL RAST's fragments: add rast to --rtl-stages")]
    ReorderWithoutRast,
}

/// The model knobs the RTL TEX build `variant` implements: the defaults, with the other value
/// of each knob whose top parameter ([`pica_rtl_bridge::kit::desc::TEX`]`.knob_params`) the
/// build sets (knobs_alt: all six).
pub fn tex_variant_knobs(variant: TexVariant) -> pica_model::knobs::Knobs {
    let desc = &pica_rtl_bridge::kit::desc::TEX;
    let mut k = pica_model::knobs::Knobs::default();
    let Some(build) = desc.variants.iter().find(|b| b.name == variant.name()) else {
        return k;
    };
    for kp in desc.knob_params {
        let set = build.params.iter().any(|p| {
            p.split_once('=')
                .is_some_and(|(n, v)| n == kp.param && v.ends_with('1'))
        });
        let other = pica_model::knobs::values_of(kp.knob).and_then(|v| v.split('|').nth(1));
        if let (true, Some(v)) = (set, other) {
            // The table names every value: setting one cannot fail.
            let _ = k.set(&format!("{}={v}", kp.knob));
        }
    }
    k
}

/// Whether the RTL TEX build `variant` follows the `tex-*` knobs of `knobs` (those of unit
/// 3, `tex3-*`, the model applies beside it); the error names both sides of each knob that
/// differs.
fn check_tex_knobs(variant: TexVariant, knobs: &pica_model::knobs::Knobs) -> Result<(), String> {
    let rtl = tex_variant_knobs(variant);
    let bad: Vec<(&str, &str, &str)> = knobs
        .values()
        .into_iter()
        .zip(rtl.values())
        .filter(|((n, a), (_, b))| {
            pica_model::knobs::stage_of(n) == Some("tex") && !n.starts_with("tex3-") && a != b
        })
        .map(|((n, a), (_, b))| (n, a, b))
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    let model: Vec<String> = bad.iter().map(|(n, a, _)| format!("{n}={a}")).collect();
    let build: Vec<String> = bad.iter().map(|(n, _, b)| format!("{n}={b}")).collect();
    let alt = tex_variant_knobs(TexVariant::KnobsAlt).non_default_in("tex");
    Err(format!(
        "the RTL tex stage ({}, build {}) implements {} where the model runs with --knob {}; \
         --tex-variant default follows the default tex knobs, --tex-variant knobs_alt follows \
         --knob {}",
        pica_rtl_bridge::kit::desc::TEX.top,
        variant.name(),
        build.join(", "),
        model.join(" --knob "),
        alt.join(" --knob ")
    ))
}

/// Checks that the RTL stages of `set` can follow `knobs`. A knob matters where the stage that
/// applies it ([`pica_model::knobs::stage_of`]) runs: a knob of a model stage only changes what
/// the model feeds the RTL, which is compared as it is. The RTL implements no knob of the CP,
/// REGS (`fe`), CLIP, RAST (`rast`), TEV (`tev`) or FOP (`fop`) other than its default; the SH
/// stage in RTL (`pica_sh_top`, or `pica_top`'s with `fe`) is built with the shader knobs of
/// `sh_variant` (the defaults: no SH-stage build flips them). The TEX stage (`tex`) follows the
/// `tex-*` knobs of its build `tex_variant` ([`tex_variant_knobs`]: knobs_alt has every one it
/// implements at the other value), and every knob of unit 3 (`tex3-*`), which stays in the
/// model. The error names every knob a build cannot follow, so a model with knobs is never
/// compared with an RTL without them.
pub fn check_knobs(
    set: &StageSet,
    sh_variant: ShVariant,
    tex_variant: TexVariant,
    knobs: &pica_model::knobs::Knobs,
) -> Result<(), String> {
    let mut errors = Vec::new();
    for r in set.rows.iter().filter_map(|n| row(n)) {
        if r.name == "tex" {
            if let Err(e) = check_tex_knobs(tex_variant, knobs) {
                errors.push(e);
            }
            continue;
        }
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
