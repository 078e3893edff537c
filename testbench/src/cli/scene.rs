//! `pica scene`: the scene library (draw calls written as a driver writes them) rendered on
//! the model, to PNG pictures and golden-vector bundles.

use super::run::DumpArgs;
use super::{fail, EXIT_CYCLE_LIMIT, EXIT_HANG};
use crate::input::InputError;
use crate::lockstep::stages::{self, StageLockstepOptions, StageReport, StageSet};
use crate::picture::write_png;
use pica_model::fop::fb::{read_color_image, read_depth_image};
use pica_model::knobs::Knobs;
use pica_model::Outcome;
use pica_vectors::bundle::write_bundle;
use pica_vectors::scenes;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What rendering one scene gave.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// Scene name.
    pub name: String,
    /// How the run ended.
    pub outcome: Outcome,
    /// Triangles assembled, fragments rasterized.
    pub triangles: u64,
    /// Fragments rasterized.
    pub fragments: u64,
    /// With RTL stages: the comparison of the mixed run with the model alone.
    pub stages: Option<StageReport>,
}

/// Where `render` writes.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// Colour buffer PNG.
    pub png: Option<PathBuf>,
    /// Depth buffer PNG.
    pub depth_png: Option<PathBuf>,
    /// Any buffers by address, size and format (`--dump`).
    pub dumps: Vec<crate::picture::DumpSpec>,
    /// Bundle directory.
    pub vectors: Option<PathBuf>,
    /// Render with these pipeline stages in RTL (the pictures written are the mixed run's)
    /// and compare with the model alone.
    pub stages: Option<(StageSet, StageLockstepOptions)>,
    /// The knobs (`--knob`); the bundle records the non-default ones.
    pub knobs: Knobs,
}

/// The scene names and descriptions, one per line; the large scenes (`scenes::list_large`:
/// rendered by name, left out of `render-all` and `--scenes`) last, marked.
pub fn list_text() -> String {
    scenes::list()
        .map(|(n, d)| format!("{n:<28} {d}\n"))
        .chain(
            scenes::list_large()
                .map(|(n, d)| format!("{n:<28} {d} [large: not in render-all or --scenes]\n")),
        )
        .collect()
}

/// Renders scene `name` on the model (with `out.stages`: with those stages in RTL, compared
/// with the model alone) and writes what `out` asks for. The bundle is always the model's.
pub fn render(name: &str, out: &Outputs) -> Result<Rendered, InputError> {
    let scene = scenes::scene(name)
        .ok_or_else(|| InputError(format!("no scene named '{name}' (see `pica scene list`)")))?;
    let mut case = scene.case.clone();
    case.knobs = out.knobs;
    let case = &case;
    let (run, model_gpu) = case
        .run_model_keep()
        .map_err(|e| InputError(e.to_string()))?;
    let (stages, gpu) = match out.stages.as_ref().filter(|s| s.0.has_pipeline_stages()) {
        Some((set, opts)) => {
            let (r, g) = stages::stage_lockstep_keep(case, set, opts)
                .map_err(|e| InputError(e.to_string()))?;
            (Some(r), g)
        }
        None => (None, model_gpu),
    };
    if let Some(p) = &out.png {
        write_png(p, &read_color_image(gpu.regs(), gpu.mem()))?;
    }
    if let Some(p) = &out.depth_png {
        write_png(p, &read_depth_image(gpu.regs(), gpu.mem()))?;
    }
    for d in &out.dumps {
        d.write(gpu.mem(), gpu.regs().knobs().fop_rgb8_order)?;
    }
    if let Some(dir) = &out.vectors {
        write_bundle(dir, case, &run, &crate::generator())
            .map_err(|e| InputError(format!("{}: {e}", dir.display())))?;
    }
    let stats = gpu.pipeline_stats();
    Ok(Rendered {
        name: name.to_string(),
        outcome: run.outcome,
        triangles: stats.triangles,
        fragments: stats.fragments,
        stages,
    })
}

/// File-name form of a scene name (`depth/less` → `depth__less`).
pub fn file_stem(name: &str) -> String {
    name.replace('/', "__")
}

/// Renders every scene into `dir` (`<stem>.png`, `<stem>.depth.png`, and with `vectors` a
/// bundle `<stem>/`), returning one result per scene.
pub fn render_all(
    dir: &Path,
    vectors: bool,
    stages: Option<&(StageSet, StageLockstepOptions)>,
    knobs: Knobs,
) -> Result<Vec<Rendered>, InputError> {
    std::fs::create_dir_all(dir).map_err(|e| InputError(format!("{}: {e}", dir.display())))?;
    scenes::list()
        .map(|(name, _)| {
            let stem = file_stem(name);
            render(
                name,
                &Outputs {
                    png: Some(dir.join(format!("{stem}.png"))),
                    depth_png: Some(dir.join(format!("{stem}.depth.png"))),
                    dumps: Vec::new(),
                    vectors: vectors.then(|| dir.join(&stem)),
                    stages: stages.cloned(),
                    knobs,
                },
            )
        })
        .collect()
}

/// `pica scene` subcommands.
#[derive(clap::Subcommand)]
pub enum SceneCmd {
    /// Name and describe every scene.
    List,
    /// Render one scene: its colour buffer as a PNG, optionally its depth buffer and bundle.
    Render {
        /// Scene name (`pica scene list`).
        name: String,
        /// Where the colour buffer PNG goes.
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        /// Where the depth buffer PNG goes.
        #[arg(long, value_name = "FILE")]
        depth_png: Option<PathBuf>,
        /// `--dump` (repeatable).
        #[command(flatten)]
        dumps: DumpArgs,
        /// Write the scene's golden-vector bundle to this directory.
        #[arg(long, value_name = "DIR")]
        vectors: Option<PathBuf>,
        /// Render with these stages in RTL (sh) and compare with the model alone, down to
        /// the picture (exit 1 on a difference).
        #[command(flatten)]
        stages: crate::lockstep::stages::RtlStageArgs,
        /// Shader knobs (the bundle records them).
        #[command(flatten)]
        knobs: crate::knobs::KnobArgs,
    },
    /// Render every scene into DIR (NAME.png, NAME.depth.png; with --vectors a bundle each).
    RenderAll {
        /// Output directory.
        dir: PathBuf,
        /// Also write a bundle per scene.
        #[arg(long)]
        vectors: bool,
        /// Render with these stages in RTL (sh) and compare each scene with the model alone.
        #[command(flatten)]
        stages: crate::lockstep::stages::RtlStageArgs,
        /// Shader knobs (the bundles record them).
        #[command(flatten)]
        knobs: crate::knobs::KnobArgs,
    },
}

fn outcome_status(o: &Outcome) -> u8 {
    match o {
        Outcome::Finished { .. } => 0,
        Outcome::Hang { .. } => EXIT_HANG,
        Outcome::CycleLimit { .. } => EXIT_CYCLE_LIMIT,
    }
}

/// Runs `pica scene`.
pub fn main(cmd: SceneCmd) -> ExitCode {
    let line = |r: &Rendered| {
        let mut l = format!(
            "{:<28} {:>6} triangles {:>8} fragments  {}",
            r.name, r.triangles, r.fragments, r.outcome
        );
        if let Some(st) = &r.stages {
            if st.is_equal() {
                l.push_str(&format!(
                    "  [RTL {}: same picture as the model alone; {} commits equal]",
                    st.stages,
                    st.compared.get("commit").copied().unwrap_or(0)
                ));
            } else {
                l.push('\n');
                l.push_str(&crate::lockstep::stages::text_report(st));
            }
        }
        l
    };
    match cmd {
        SceneCmd::List => {
            let _ = write!(std::io::stdout().lock(), "{}", list_text());
            ExitCode::SUCCESS
        }
        SceneCmd::Render {
            name,
            png,
            depth_png,
            dumps,
            vectors,
            stages,
            knobs,
        } => {
            let knobs = knobs.knobs();
            if let Some(e) = scene_knob_check(&stages, &knobs) {
                return e;
            }
            let out = Outputs {
                png,
                depth_png,
                dumps: dumps.dump,
                vectors,
                stages: scene_stages(&stages),
                knobs,
            };
            match render(&name, &out) {
                Ok(r) => {
                    println!("{}", line(&r));
                    ExitCode::from(scene_status(&r))
                }
                Err(e) => fail(e),
            }
        }
        SceneCmd::RenderAll {
            dir,
            vectors,
            stages,
            knobs,
        } => {
            let knobs = knobs.knobs();
            if let Some(e) = scene_knob_check(&stages, &knobs) {
                return e;
            }
            match render_all(&dir, vectors, scene_stages(&stages).as_ref(), knobs) {
                Ok(rs) => {
                    let mut status = 0;
                    for r in &rs {
                        println!("{}", line(r));
                        status = status.max(scene_status(r));
                    }
                    println!("{} scenes rendered into {}/", rs.len(), dir.display());
                    ExitCode::from(status)
                }
                Err(e) => fail(e),
            }
        }
    }
}

/// With RTL stages: refuses knobs the RTL stages cannot follow (exit 2).
fn scene_knob_check(
    a: &crate::lockstep::stages::RtlStageArgs,
    knobs: &pica_model::knobs::Knobs,
) -> Option<ExitCode> {
    let set = a.rtl_stages.as_ref()?;
    crate::lockstep::stages::check_knobs(set, a.sh_variant, a.tex_variant, knobs)
        .err()
        .map(fail)
}

fn scene_stages(
    a: &crate::lockstep::stages::RtlStageArgs,
) -> Option<(
    crate::lockstep::stages::StageSet,
    crate::lockstep::stages::StageLockstepOptions,
)> {
    let set = a.rtl_stages.clone()?;
    Some((
        set,
        crate::lockstep::stages::StageLockstepOptions {
            stage: a.options(),
            ..Default::default()
        },
    ))
}

/// A scene's exit status: a difference from the model alone (with RTL stages) is 1 unless
/// the run itself hung or hit the limit (3, 4).
fn scene_status(r: &Rendered) -> u8 {
    let s = outcome_status(&r.outcome);
    match &r.stages {
        Some(st) if !st.is_equal() && s == 0 => crate::cli::EXIT_MISMATCH,
        _ => s,
    }
}
