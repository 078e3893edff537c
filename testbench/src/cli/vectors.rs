//! `pica vectors list|gen|check`: the case library as bundles, stage bundles from the scenes,
//! and the check (and replay) of bundles.

use super::{bundle_dirs, fail, EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_OK};
use crate::lockstep::stages::{self, StageLockstepOptions, StageSet};
use crate::lockstep::{self, Options};
use pica_rtl_bridge::Variant;
use pica_vectors::bundle::{write_bundle, Bundle};
use pica_vectors::case::Case;
use pica_vectors::library;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `pica vectors list`.
pub fn vectors_list() -> ExitCode {
    for c in library::cases() {
        println!("{:<36} {}", c.name, c.description);
    }
    ExitCode::SUCCESS
}

/// `pica vectors gen OUT [--case NAME]... [--rtl-stages LIST]`: with pipeline stages in RTL,
/// each case is also run with them and must agree with the model before its bundle counts.
///
/// `knobs` are the knobs every case runs with; each bundle's manifest records the
/// non-default ones (`knobs`), which `pica vectors check` and `pica lockstep --bundle` use.
pub fn vectors_gen(
    out: &Path,
    names: &[String],
    stages: Option<&StageCheck>,
    knobs: pica_model::knobs::Knobs,
) -> ExitCode {
    let all = library::cases();
    let chosen: Vec<&Case> = if names.is_empty() {
        all.iter().collect()
    } else {
        let mut v = Vec::new();
        for n in names {
            match all.iter().find(|c| &c.name == n) {
                Some(c) => v.push(c),
                None => return fail(format!("no case named '{n}' (see `pica vectors list`)")),
            }
        }
        v
    };
    for c in chosen {
        let c = &Case { knobs, ..c.clone() };
        let dir = out.join(c.name.replace('/', "__"));
        let res = c.run_model().map_err(|e| e.to_string()).and_then(|run| {
            if let Some(sc) = stages {
                sc.check(c)?;
            }
            write_bundle(&dir, c, &run, &crate::generator())
                .map_err(|e| format!("{}: {e}", dir.display()))
        });
        match res {
            Ok(m) => println!(
                "{:<36} {:>6} beats  {:<10} -> {}",
                c.name,
                m.streams.first().map_or(0, |s| s.beats),
                m.outcome.kind,
                dir.display()
            ),
            Err(e) => return fail(e),
        }
    }
    ExitCode::SUCCESS
}

/// `pica vectors gen OUT --stage STAGE [--case NAME]...`: one stage bundle per scene of the
/// library (or per `--case`, a scene name) that sends fragments through the stage (`tex`, `tev`
/// or `fop`) or triangles into it (`rast`: CLIP + RAST), recorded from the scene's run on the
/// model GPU ([`crate::lockstep::stage_record`]) into `OUT/<stage>-<scene, / as __>/`. A recording must
/// replay on the model to the run's own results before it is written.
pub fn vectors_gen_stage(out: &Path, stage: &str, names: &[String]) -> ExitCode {
    if !["tex", "tev", "fop", "rast"].contains(&stage) {
        return fail(format!(
            "--stage {stage}: stage bundles are made for: tex, tev, fop, rast"
        ));
    }
    // What a scene must send the stage for a bundle.
    let input = if stage == "rast" {
        "triangles"
    } else {
        "fragments"
    };
    let names: Vec<String> = if names.is_empty() {
        pica_vectors::scenes::list()
            .map(|(n, _)| n.to_string())
            .collect()
    } else {
        names.to_vec()
    };
    let (mut written, mut skipped) = (0, 0);
    for n in &names {
        let Some(scene) = pica_vectors::scenes::scene(n) else {
            return fail(format!("no scene named '{n}' (see `pica scene list`)"));
        };
        let dir = out.join(format!("{stage}-{}", n.replace('/', "__")));
        let prov = |outcome: &pica_model::Outcome| pica_vectors::stage::StageProvenance {
            generator: crate::generator(),
            origin: format!("pica vectors gen --stage {stage}: scene {n} ({outcome})"),
            ..Default::default()
        };
        let res = match stage {
            "tex" => gen_tex_stage_bundle(n, &scene.case, &dir, prov),
            "tev" => gen_tev_stage_bundle(n, &scene.case, &dir, prov),
            "rast" => gen_rast_stage_bundle(n, &scene.case, &dir, prov),
            _ => gen_fop_stage_bundle(n, &scene.case, &dir, prov),
        };
        match res {
            Ok(Some((frags, writes))) => {
                println!(
                    "{n:<36} {frags:>6} fragments {writes:>5} writes  -> {}",
                    dir.display()
                );
                written += 1;
            }
            Ok(None) => {
                println!("{n:<36} no {input} reach {stage}: no bundle");
                skipped += 1;
            }
            Err(e) => return fail(e),
        }
    }
    println!("{written} {stage} stage bundle(s) written, {skipped} scene(s) without {input}");
    ExitCode::SUCCESS
}

/// Records the TEV stage of scene `n` and writes its bundle into `dir`: (fragments, register
/// writes), or `None` when no fragment reaches TEV.
fn gen_tev_stage_bundle(
    n: &str,
    case: &Case,
    dir: &Path,
    prov: impl Fn(&pica_model::Outcome) -> pica_vectors::stage::StageProvenance,
) -> Result<Option<(usize, usize)>, String> {
    use pica_vectors::stage_tev::{beats_of, compare_beats, run_model, write_tev_bundle, TevOp};
    let r = crate::lockstep::stage_record::record_tev(case)?;
    let tc = &r.rec.case;
    if tc.fragments() == 0 {
        return Ok(None);
    }
    // The recorded operations must give the run's results on the model alone.
    let replayed = run_model(tc);
    let recorded: Vec<_> = tc
        .ops
        .iter()
        .filter_map(|o| match o {
            TevOp::Frag { x, y, .. } => Some((*x, *y)),
            TevOp::Reg { .. } => None,
        })
        .zip(&r.rec.outs)
        .enumerate()
        .flat_map(|(i, ((x, y), o))| beats_of(i as u64, x, y, o))
        .collect();
    if let Some(d) = compare_beats(&recorded, &replayed.beats) {
        return Err(format!("{n}: the recorded TEV case does not replay: {d}"));
    }
    let desc = format!("the TEV stage of scene {n}: {}", case.description);
    write_tev_bundle(dir, n, &desc, tc, &[], &prov(&r.outcome))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(Some((tc.fragments(), tc.reg_writes())))
}

/// Records the TEX stage of scene `n` and writes its bundle into `dir`: (fragments, register
/// writes), or `None` when no fragment reaches TEX. The recorded case (operations, the texture
/// memory as first read) must give the run's colours of units 0-2, texel reads and hang on the
/// model alone (unit 3, the procedural texture, is not the RTL's: the bundle holds what the
/// case's registers give it, without the scene's lookup tables).
fn gen_tex_stage_bundle(
    n: &str,
    case: &Case,
    dir: &Path,
    prov: impl Fn(&pica_model::Outcome) -> pica_vectors::stage::StageProvenance,
) -> Result<Option<(usize, usize)>, String> {
    use pica_vectors::stage_tex::{run_diff, run_model, write_tex_bundle};
    let r = crate::lockstep::stage_record::record_tex(case)?;
    let tc = &r.case;
    if tc.fragments() == 0 {
        return Ok(None);
    }
    // Unit 3 is left out: the procedural texture's lookup tables are not in the case.
    if let Some(d) = run_diff(&r.run, &run_model(tc), false) {
        return Err(format!("{n}: the recorded TEX case does not replay: {d}"));
    }
    let desc = format!("the TEX stage of scene {n}: {}", case.description);
    write_tex_bundle(dir, n, &desc, tc, &prov(&r.outcome))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(Some((tc.fragments(), tc.reg_writes())))
}

/// Records the FOP stage of scene `n` and writes its bundle into `dir`: (fragments, register
/// writes), or `None` when no fragment reaches FOP.
fn gen_fop_stage_bundle(
    n: &str,
    case: &Case,
    dir: &Path,
    prov: impl Fn(&pica_model::Outcome) -> pica_vectors::stage::StageProvenance,
) -> Result<Option<(usize, usize)>, String> {
    use pica_vectors::stage_fop::{image_words, run_model, write_fop_bundle};
    let r = crate::lockstep::stage_record::record_fop(case)?;
    let fc = &r.case;
    if fc.fragments() == 0 {
        return Ok(None);
    }
    // The recorded case must give the run's pixel beats, hang and memory on the model alone.
    let replayed = run_model(fc);
    let strip = |b: &pica_model::beat::PixelBeat| pica_model::beat::PixelBeat { cycle: 0, ..*b };
    let gpu_beats: Vec<_> = r.gpu.pipeline_beats().pixel.iter().map(strip).collect();
    let model_beats: Vec<_> = replayed.beats.iter().map(strip).collect();
    if gpu_beats != model_beats {
        let i = gpu_beats
            .iter()
            .zip(&model_beats)
            .position(|(a, b)| a != b)
            .unwrap_or(gpu_beats.len().min(model_beats.len()));
        return Err(format!(
            "{n}: the recorded FOP case does not replay: pixel beat {i} differs ({} in the run, {} replayed)",
            gpu_beats.len(),
            model_beats.len()
        ));
    }
    let run_hang = match &r.outcome {
        pica_model::Outcome::Hang {
            reason: pica_model::HangReason::FragmentOps(h),
            ..
        } => Some(h.clone()),
        _ => None,
    };
    if run_hang != replayed.hang {
        return Err(format!(
            "{n}: the recorded FOP case does not replay: hang {:?} in the run, {:?} replayed",
            run_hang, replayed.hang
        ));
    }
    if image_words(r.gpu.mem(), &fc.images) != replayed.final_images(&fc.images) {
        return Err(format!(
            "{n}: the recorded FOP case does not replay: the final memory differs"
        ));
    }
    let desc = format!("the FOP stage of scene {n}: {}", case.description);
    write_fop_bundle(dir, n, &desc, fc, &prov(&r.outcome))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(Some((fc.fragments(), fc.reg_writes())))
}

/// Records the RAST stage (CLIP + RAST) of scene `n` and writes its bundle into `dir`:
/// (fragments, register writes), or `None` when no triangle reaches CLIP.
fn gen_rast_stage_bundle(
    n: &str,
    case: &Case,
    dir: &Path,
    prov: impl Fn(&pica_model::Outcome) -> pica_vectors::stage::StageProvenance,
) -> Result<Option<(usize, usize)>, String> {
    use pica_model::beat::FragmentBeat;
    use pica_vectors::stage_rast::{early_same, run_model, write_rast_bundle};
    let r = crate::lockstep::stage_record::record_rast(case)?;
    let rc = &r.case;
    if rc.triangles() == 0 {
        return Ok(None);
    }
    // The recorded case must give the run's fragments (every field the `fragment` beat
    // carries, in order) and early-depth buffer on the model alone.
    let replayed = run_model(rc);
    let strip = |b: &FragmentBeat| FragmentBeat { cycle: 0, ..*b };
    let run_beats: Vec<_> = r.gpu.pipeline_beats().fragment.iter().map(strip).collect();
    let model_beats: Vec<_> = replayed
        .fragments
        .iter()
        .map(|f| pica_model::rast::fragment_beat(0, f))
        .collect();
    if run_beats != model_beats {
        let i = run_beats
            .iter()
            .zip(&model_beats)
            .position(|(a, b)| a != b)
            .unwrap_or(run_beats.len().min(model_beats.len()));
        return Err(format!(
            "{n}: the recorded RAST case does not replay: fragment {i} differs ({} in the run, {} replayed)",
            run_beats.len(),
            model_beats.len()
        ));
    }
    if !early_same(r.gpu.rast().early_depth(), &replayed.early) {
        return Err(format!(
            "{n}: the recorded RAST case does not replay: the early-depth buffer differs"
        ));
    }
    let desc = format!(
        "the RAST stage (CLIP + RAST) of scene {n}: {}",
        case.description
    );
    write_rast_bundle(dir, n, &desc, rc, &prov(&r.outcome))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(Some((replayed.fragments.len(), rc.reg_writes())))
}

/// Pipeline stages in RTL that a case must agree with (`--rtl-stages` of `pica vectors`).
pub struct StageCheck {
    /// The stages.
    pub set: StageSet,
    /// How they run.
    pub opts: StageLockstepOptions,
}

impl StageCheck {
    /// `Some` when `set` names pipeline stages.
    pub fn new(set: Option<StageSet>, opts: StageLockstepOptions) -> Option<Self> {
        set.filter(StageSet::has_pipeline_stages)
            .map(|set| Self { set, opts })
    }

    /// Runs `case` with the stages and the model alone; the text report on a mismatch.
    pub fn check(&self, case: &Case) -> Result<(), String> {
        let r = stages::stage_lockstep(case, &self.set, &self.opts).map_err(|e| e.to_string())?;
        if r.is_equal() {
            Ok(())
        } else {
            Err(stages::text_report(&r))
        }
    }
}

/// Checks a stage bundle of `kind` in `dir` (hashes, formats, the model's run and with `rtl`
/// the stage's RTL): what was checked on success ("12 commits").
fn check_stage_bundle(dir: &Path, kind: &str, rtl: bool) -> Result<String, String> {
    match kind {
        pica_vectors::stage::KIND_SHADER_UNIT => {
            check_shader_unit_bundle(dir, rtl).map(|n| format!("{n} commits"))
        }
        pica_vectors::stage_tev::KIND_TEV => check_tev_bundle(dir, rtl),
        pica_vectors::stage_tex::KIND_TEX => check_tex_bundle(dir, rtl),
        pica_vectors::stage_fop::KIND_FOP => check_fop_bundle(dir, rtl),
        pica_vectors::stage_rast::KIND_RAST => check_rast_bundle(dir, rtl),
        _ => Err(format!(
            "{}: unknown stage bundle kind '{kind}'",
            dir.display()
        )),
    }
}

/// Refuses to run a stage bundle recorded with non-default knobs on an RTL stage: the RTL
/// stages implement the default knobs only.
fn rtl_follows(dir: &Path, knobs: &pica_model::knobs::Knobs) -> Result<(), String> {
    let k = knobs.non_default();
    if k.is_empty() {
        return Ok(());
    }
    let k: Vec<String> = k.iter().map(|(n, v)| format!("{n}={v}")).collect();
    Err(format!(
        "{}: recorded with --knob {}, which the RTL stage (default knobs only) cannot follow; \
         check it without --rtl",
        dir.display(),
        k.join(" --knob ")
    ))
}

/// Checks a TEV stage bundle: hashes, formats and counts (by loading it), the model's run of
/// its operations against the recorded `combiner` beats, and with `rtl` the Verilated
/// `pica_tev_top` (the build its `defines` name) too.
fn check_tev_bundle(dir: &Path, rtl: bool) -> Result<String, String> {
    use crate::fuzz::tev::{compare_rtl, run_rtl, tev_variant_of_defines};
    use pica_vectors::stage_tev::{check_model, load_tev_bundle, run_model};
    let b = load_tev_bundle(dir)?;
    if let Some(d) = check_model(&b) {
        return Err(format!(
            "{}: the model does not reproduce it: {d}",
            dir.display()
        ));
    }
    if rtl {
        rtl_follows(dir, &b.case.knobs)?;
        let defines = b.manifest["defines"]
            .as_array()
            .map(|d| d.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>())
            .unwrap_or_default();
        let variant = tev_variant_of_defines(defines);
        let got = run_rtl(variant, &b.case, None)?;
        if let Some(d) = compare_rtl(&b.case, &run_model(&b.case), &got) {
            return Err(format!(
                "{}: the RTL TEV stage ({}) differs: {d}",
                dir.display(),
                variant.name()
            ));
        }
    }
    Ok(format!(
        "{} fragments, {} register writes, {} combiner beats",
        b.case.fragments(),
        b.case.reg_writes(),
        b.beats.len()
    ))
}

/// Checks a FOP stage bundle: hashes and formats (by loading it), the model's run of its
/// operations against the recorded pixel beats, outcome and final memory, and with `rtl` the
/// Verilated `pica_fop_top` (the build its `defines` name, memory answered with its
/// `mem_latency`) too.
fn check_fop_bundle(dir: &Path, rtl: bool) -> Result<String, String> {
    use crate::fuzz::fop::{compare_rtl, run_rtl_reordered};
    use pica_rtl_bridge::fop_stage::FopVariant;
    use pica_vectors::stage_fop::{image_words, load_fop_bundle, run_model};
    let (m, case, expected) = load_fop_bundle(dir)?;
    let run = run_model(&case);
    let fail = |what: String| {
        Err(format!(
            "{}: the model does not reproduce it: {what}",
            dir.display()
        ))
    };
    if let Some(i) = (0..run.beats.len().max(expected.beats.len()))
        .find(|&i| run.beats.get(i) != expected.beats.get(i))
    {
        return fail(format!(
            "pixel beat {i}: expected {:?}, model {:?}",
            expected.beats.get(i),
            run.beats.get(i)
        ));
    }
    if run.hang != expected.hang {
        return fail(format!(
            "outcome: expected hang {:?}, model {:?}",
            expected.hang, run.hang
        ));
    }
    if image_words(&expected.mem, &case.images) != run.final_images(&case.images) {
        return fail("final memory differs".into());
    }
    if rtl {
        rtl_follows(dir, &case.knobs)?;
        let variant = manifest_variant(&m, FopVariant::from_name).unwrap_or(FopVariant::Default);
        let latency = manifest_latency(&m, "mem_latency")?;
        let reorder = manifest_reorder(&m, dir)?;
        let got = run_rtl_reordered(variant, latency, reorder, &case, None)?;
        if let Some(d) = compare_rtl(&run, &got) {
            return Err(format!(
                "{}: the RTL FOP stage ({}, latency {latency}, reorder {reorder}) differs: {d}",
                dir.display(),
                variant.name()
            ));
        }
    }
    Ok(format!(
        "{} fragments, {} register writes, {} pixel beats{}",
        case.fragments(),
        case.reg_writes(),
        run.beats.len(),
        run.hang.map(|h| format!(", hang: {h}")).unwrap_or_default()
    ))
}

/// Checks a TEX stage bundle: hashes, formats and counts (by loading it), the model's run of
/// its operations against the recorded colours, texel reads and outcome, and with `rtl` the
/// Verilated `pica_tex_top` too (the build its `defines` name, or the knobs_alt build for a
/// bundle recorded with exactly its knobs; its AXI4 port answered with the manifest's
/// `mem_latency` and `mem_reorder`).
fn check_tex_bundle(dir: &Path, rtl: bool) -> Result<String, String> {
    use crate::fuzz::tex::{compare_rtl, run_rtl};
    use pica_rtl_bridge::tex_stage::TexVariant;
    use pica_vectors::stage_tex::{load_tex_bundle, run_diff, run_model};
    let (m, case, expected) = load_tex_bundle(dir)?;
    let run = run_model(&case);
    if let Some(d) = run_diff(&expected, &run, true) {
        return Err(format!(
            "{}: the model does not reproduce it: {d}",
            dir.display()
        ));
    }
    if rtl {
        let variant = match manifest_variant(&m, TexVariant::from_name) {
            Some(v) => v,
            None if case.knobs == stages::tex_variant_knobs(TexVariant::KnobsAlt) => {
                TexVariant::KnobsAlt
            }
            None => TexVariant::Default,
        };
        if variant != TexVariant::KnobsAlt {
            rtl_follows(dir, &case.knobs)?;
        }
        let latency = manifest_latency(&m, "mem_latency")?;
        let reorder = manifest_reorder(&m, dir)?;
        let got = run_rtl(variant, latency, reorder, &case, None)?;
        if let Some(d) = compare_rtl(&run, &got) {
            return Err(format!(
                "{}: the RTL TEX stage ({}, latency {latency}, reorder {reorder}) differs: {d}",
                dir.display(),
                variant.name()
            ));
        }
    }
    Ok(format!(
        "{} fragments, {} register writes, {} texel reads{}",
        case.fragments(),
        case.reg_writes(),
        run.texels.len(),
        run.hang.map(|h| format!(", hang: {h}")).unwrap_or_default()
    ))
}

/// The RTL build a stage bundle's manifest names: the first of its `defines` that `from_name`
/// knows.
fn manifest_variant<V>(m: &serde_json::Value, from_name: fn(&str) -> Option<V>) -> Option<V> {
    m["defines"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|d| d.as_str().and_then(from_name))
}

/// How the campaign that saved a stage bundle ordered its AXI4 port's responses
/// (`mem_reorder`; absent: in order).
fn manifest_reorder(
    m: &serde_json::Value,
    dir: &Path,
) -> Result<pica_rtl_bridge::axi::Reorder, String> {
    match m["mem_reorder"].as_str() {
        Some(r) => r.parse().map_err(|e| format!("{}: {e}", dir.display())),
        None => Ok(pica_rtl_bridge::axi::Reorder::InOrder),
    }
}

/// The port latency a stage bundle's manifest records under `key` (a `MemLatency` string, or
/// a number of clocks; absent = 0).
fn manifest_latency(
    m: &serde_json::Value,
    key: &str,
) -> Result<pica_rtl_bridge::fop_stage::MemLatency, String> {
    use pica_rtl_bridge::fop_stage::MemLatency;
    match &m[key] {
        serde_json::Value::String(t) => MemLatency::parse(t),
        v => MemLatency::parse(&v.as_u64().unwrap_or(0).to_string()),
    }
}

/// Checks a RAST stage bundle: hashes and formats (by loading it), the model's run of its
/// operations against the recorded fragments (every field, `tex_deriv` included) and
/// early-depth buffer, and with `rtl` the Verilated `pica_rast_top` (the build its `defines`
/// name, the early-depth port answered with its `ed_latency`) too.
fn check_rast_bundle(dir: &Path, rtl: bool) -> Result<String, String> {
    use crate::fuzz::rast::{compare_rtl, fragment_diff, run_rtl};
    use pica_rtl_bridge::rast_stage::RastVariant;
    use pica_vectors::stage_rast::{early_same, load_rast_bundle, run_model};
    let (m, case, expected) = load_rast_bundle(dir)?;
    let run = run_model(&case);
    let fail = |what: String| {
        Err(format!(
            "{}: the model does not reproduce it: {what}",
            dir.display()
        ))
    };
    if let Some(d) = fragment_diff(&expected.fragments, &run.fragments) {
        return fail(d);
    }
    if !early_same(&expected.early, &run.early) {
        return fail("the early-depth buffer after differs".into());
    }
    if rtl {
        rtl_follows(dir, &case.knobs)?;
        let variant = manifest_variant(&m, RastVariant::from_name).unwrap_or(RastVariant::Default);
        let latency = manifest_latency(&m, "ed_latency")?;
        let got = run_rtl(variant, latency, &case)?;
        if let Some(d) = compare_rtl(&run, &got) {
            return Err(format!(
                "{}: the RTL RAST stage ({}, latency {latency}) differs: {d}",
                dir.display(),
                variant.name()
            ));
        }
    }
    Ok(format!(
        "{} triangles, {} register writes, {} clears, {} fragments",
        case.triangles(),
        case.reg_writes(),
        case.clears(),
        run.fragments.len()
    ))
}

/// Checks a shader-unit stage bundle: hashes and formats (by loading it), then the model's
/// run of its case against the recorded commits, outcome and outputs (with the knobs its
/// `defines` name), and with `rtl` the shader-unit RTL's run too. The number of commits on
/// success.
fn check_shader_unit_bundle(dir: &Path, rtl: bool) -> Result<usize, String> {
    use crate::fuzz::shader::run_rtl;
    use pica_rtl_bridge::shader::ShVariant;
    use pica_vectors::shader_gen::{compare, run_model, ShaderRun};
    use pica_vectors::stage::load_shader_bundle;
    let b = load_shader_bundle(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let knobs_alt = b.manifest["defines"]
        .as_array()
        .is_some_and(|d| d.iter().any(|x| x == "PICA_SH_KNOBS_ALT"));
    let variant = if knobs_alt {
        ShVariant::KnobsAlt
    } else {
        ShVariant::Default
    };
    let recorded = ShaderRun {
        commits: b.commits.clone(),
        end: b.end.clone(),
        outputs: b.outputs,
        // EMIT beats are not part of the stage bundle (yet): compare none on both sides.
        emits: Vec::new(),
    };
    let mut model = run_model(&b.case, variant.knobs(), b.max_instructions);
    model.emits.clear();
    if let Some(d) = compare(&b.case, &recorded, &model) {
        return Err(format!(
            "{}: the model does not reproduce it: {d}",
            dir.display()
        ));
    }
    if rtl {
        let mut r = run_rtl(variant, &b.case, b.max_instructions)?;
        r.emits.clear();
        if let Some(d) = compare(&b.case, &recorded, &r) {
            return Err(format!(
                "{}: the RTL unit ({}) differs: {d}",
                dir.display(),
                variant.name()
            ));
        }
    }
    Ok(b.commits.len())
}

/// `pica vectors check DIR... [--rtl] [--rtl-stages LIST]`.
pub fn vectors_check(
    dirs: &[PathBuf],
    rtl: Option<Variant>,
    stages: Option<&StageCheck>,
) -> ExitCode {
    let dirs = match bundle_dirs(dirs) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let mut failed = 0;
    let mut refused = 0;
    for d in &dirs {
        // A bundle whose recorded knobs the RTL asked for cannot follow is refused before
        // anything runs: never a false divergence (exit status 2 when nothing failed).
        if rtl.is_some() || stages.is_some() {
            let knobs = Bundle::load(d)
                .ok()
                .and_then(|b| b.case().ok())
                .map(|c| c.knobs);
            if let Some(e) = knobs.and_then(|k| rtl_refusal(&k, rtl.is_some(), stages).err()) {
                refused += 1;
                println!("REFUSED {}: {e}", d.display());
                continue;
            }
        }
        if let Ok(Some(kind)) = pica_vectors::stage::bundle_kind(d) {
            match check_stage_bundle(d, &kind, rtl.is_some()) {
                Ok(n) => println!(
                    "ok    {} (stage bundle {kind}: {n}{})",
                    d.display(),
                    if rtl.is_some() { ", model and RTL" } else { "" }
                ),
                Err(e) => {
                    failed += 1;
                    println!("FAIL  {e}");
                }
            }
            continue;
        }
        let res = Bundle::load(d).map_err(|e| e.to_string()).and_then(|b| {
            let diffs = b.check_model().map_err(|e| e.to_string())?;
            if let Some(first) = diffs.first() {
                return Err(format!(
                    "{}: the model does not reproduce it: {first} ({} difference(s))",
                    d.display(),
                    diffs.len()
                ));
            }
            if let Some(variant) = rtl {
                let case = b.case().map_err(|e| e.to_string())?;
                let opts = Options {
                    variant,
                    ..Options::default()
                };
                let r = lockstep::lockstep(&case, &opts).map_err(|e| e.to_string())?;
                if !r.is_equal() {
                    return Err(lockstep::text_report(&r));
                }
            }
            if let Some(sc) = stages {
                sc.check(&b.case().map_err(|e| e.to_string())?)?;
            }
            Ok(b.beats.len())
        });
        match res {
            Ok(n) => println!(
                "ok    {} ({n} beats{}{})",
                d.display(),
                if rtl.is_some() { ", model and RTL" } else { "" },
                stages
                    .map(|s| format!(", RTL stages {}", s.set.names()))
                    .unwrap_or_default()
            ),
            Err(e) => {
                failed += 1;
                println!("FAIL  {e}");
            }
        }
    }
    if refused > 0 {
        println!(
            "{} bundle(s) checked, {failed} failed, {refused} refused (knobs the RTL does not \
             implement: check them on the model alone)",
            dirs.len()
        );
    } else {
        println!("{} bundle(s) checked, {failed} failed", dirs.len());
    }
    ExitCode::from(if failed > 0 {
        EXIT_MISMATCH
    } else if refused > 0 {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    })
}

/// Whether the RTL a check asks for (`rtl`: the front end; `stages`: pipeline stages) can
/// follow `knobs`; the error says which knobs it cannot ([`stages::check_knobs`]).
fn rtl_refusal(
    knobs: &pica_model::knobs::Knobs,
    rtl: bool,
    stages: Option<&StageCheck>,
) -> Result<(), String> {
    if rtl {
        let fe = StageSet::front_end();
        stages::check_knobs(
            &fe,
            pica_rtl_bridge::shader::ShVariant::Default,
            pica_rtl_bridge::tex_stage::TexVariant::Default,
            knobs,
        )?;
    }
    if let Some(sc) = stages {
        stages::check_knobs(
            &sc.set,
            sc.opts.stage.sh_variant,
            sc.opts.stage.tex_variant,
            knobs,
        )?;
    }
    Ok(())
}

/// `pica vectors` subcommands.
#[derive(clap::Subcommand)]
pub enum VectorsCmd {
    /// Name every case of the library.
    List,
    /// Write a bundle per library case (or per --case) under OUT; with --stage, a stage
    /// bundle per scene of the scene library.
    Gen {
        /// Output directory.
        out: PathBuf,
        /// Only this case (repeatable; with --stage a scene name, `pica scene list`).
        #[arg(long = "case", value_name = "NAME")]
        cases: Vec<String>,
        /// Write stage bundles of this stage instead (tex, tev, fop, rast): each scene runs on
        /// the model GPU with a recorder in the stage's slot (rast: the CLIP slot, CLIP + RAST);
        /// scenes whose fragments (rast: triangles) never reach it are skipped.
        #[arg(long, value_name = "STAGE", conflicts_with = "rtl_stages")]
        stage: Option<String>,
        /// With pipeline stages (sh): each case must also agree with those stages in RTL.
        #[command(flatten)]
        stages: crate::lockstep::stages::RtlStageArgs,
        /// Shader knobs every case runs with; each manifest records them (`knobs`).
        #[command(flatten)]
        knobs: crate::knobs::KnobArgs,
    },
    /// Verify bundles and replay them on the model (and the RTL with --rtl).
    ///
    /// Exit status: 0 all good, 1 a bundle is corrupt or does not replay, 2 bad arguments.
    Check {
        /// Bundles, or directories of bundles.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Also run each bundle in lockstep against the RTL.
        #[arg(long)]
        rtl: bool,
        /// With pipeline stages (sh): also replay each bundle with those stages in RTL.
        #[command(flatten)]
        stages: crate::lockstep::stages::RtlStageArgs,
    },
}

fn stage_check(a: &crate::lockstep::stages::RtlStageArgs) -> Option<StageCheck> {
    StageCheck::new(
        a.rtl_stages.clone(),
        crate::lockstep::stages::StageLockstepOptions {
            stage: a.options(),
            ..Default::default()
        },
    )
}

/// Runs `pica vectors`.
pub fn main(cmd: VectorsCmd) -> ExitCode {
    match cmd {
        VectorsCmd::List => vectors_list(),
        VectorsCmd::Gen {
            out,
            cases,
            stage: Some(stage),
            knobs,
            ..
        } => {
            if !knobs.is_empty() {
                return fail(format!(
                    "--stage {stage} with --knob: stage bundles record the stage's own inputs \
                     and do not rerun shaders; generate them with the default knobs"
                ));
            }
            vectors_gen_stage(&out, &stage, &cases)
        }
        VectorsCmd::Gen {
            out,
            cases,
            stages,
            stage: None,
            knobs,
        } => {
            let knobs = knobs.knobs();
            if let Some(set) = &stages.rtl_stages {
                if let Err(e) = crate::lockstep::stages::check_knobs(
                    set,
                    stages.sh_variant,
                    stages.tex_variant,
                    &knobs,
                ) {
                    return fail(e);
                }
            }
            let sc = stage_check(&stages);
            vectors_gen(&out, &cases, sc.as_ref(), knobs)
        }
        VectorsCmd::Check { dirs, rtl, stages } => {
            let sc = stage_check(&stages);
            vectors_check(
                &dirs,
                rtl.then_some(pica_rtl_bridge::Variant::Default),
                sc.as_ref(),
            )
        }
    }
}
