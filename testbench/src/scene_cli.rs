//! `pica scene`: the scene library (draw calls written as a driver writes them) rendered on
//! the model, to PNG pictures and golden-vector bundles.

use crate::input::InputError;
use crate::picture::write_png;
use crate::stages::{self, StageLockstepOptions, StageReport, StageSet};
use pica_model::fop::fb::{read_color_image, read_depth_image};
use pica_model::knobs::Knobs;
use pica_model::Outcome;
use pica_vectors::bundle::write_bundle;
use pica_vectors::scenes;
use std::path::{Path, PathBuf};

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
