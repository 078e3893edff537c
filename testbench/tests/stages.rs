#![allow(clippy::unwrap_used)]
//! The stage swap: model stages replaced by port adapters inside a running pipeline.

use pica_model::shader::interp::Knobs;
use pica_rtl_bridge::fop_stage::{FopVariant, MemLatency};
use pica_rtl_bridge::rast_stage::RastVariant;
use pica_rtl_bridge::shader::ShVariant;
use pica_rtl_bridge::tev_stage::TevVariant;
use pica_testbench::lockstep::stages::{
    self, Fault, ModelShPort, ShAdapter, StageDivergenceKind, StageLockstepOptions, StageOptions,
    StageSet,
};
use pica_vectors::scenes;

fn with_double(
    case: &pica_vectors::case::Case,
    latency: u64,
    fault: Option<Fault>,
) -> stages::StageReport {
    let row = stages::row("sh").unwrap();
    stages::stage_lockstep_with(
        case,
        "sh (model double)",
        &[row],
        &StageLockstepOptions::default(),
        &|o: &StageOptions| {
            let mut g = case.gpu()?;
            g.set_record_commits(o.commits);
            g.replace_stage(Box::new(ShAdapter::new(
                ModelShPort::new(Knobs::default(), latency, fault),
                o.commits,
                None,
            )));
            Ok(g.into())
        },
    )
    .unwrap()
    .0
}

#[test]
fn every_scene_is_equal_through_a_slow_double() {
    for (name, _) in scenes::list() {
        let case = scenes::scene(name).unwrap().case;
        let r = with_double(&case, 5, None);
        assert!(r.is_equal(), "{name}: {}", stages::text_report(&r));
        assert!(r.mixed_cycles >= r.model_cycles, "{name}");
    }
}

#[test]
fn parse_names_rows_and_rejects_unknown() {
    let s = StageSet::parse("sh,fe").unwrap();
    assert!(s.has_front_end() && s.has_pipeline_stages());
    let e = StageSet::parse("sh,xyz").unwrap_err();
    assert!(e.contains("unknown RTL stage 'xyz'"), "{e}");
}

fn first_scene() -> pica_vectors::case::Case {
    let (name, _) = scenes::list().next().unwrap();
    scenes::scene(name).unwrap().case
}

#[test]
fn a_wrong_commit_is_named_with_its_instruction_and_operands() {
    let case = first_scene();
    let r = with_double(&case, 2, Some(Fault::CommitResult { seq: 2, index: 1 }));
    let d = r.divergence.as_ref().expect("the fault must be found");
    let text = stages::text_report(&r);
    assert_eq!(d.kind, StageDivergenceKind::BeatMismatch, "{text}");
    assert_eq!(d.channel, "commit", "{text}");
    assert_eq!(d.key.as_deref(), Some("vertex 2"), "{text}");
    assert_eq!(d.index, 1, "{text}");
    assert_eq!(d.fields.len(), 1, "{text}");
    assert_eq!(d.fields[0].name, "result", "{text}");
    let inst = d.instruction.as_deref().expect("disassembled");
    assert!(!inst.is_empty(), "{text}");
    assert!(!d.operands.is_empty(), "operands of {inst}: {text}");
    assert!(text.contains("instruction:"), "{text}");
}

#[test]
fn a_wrong_output_vertex_is_found_on_shader_out() {
    let case = first_scene();
    let r = with_double(&case, 0, Some(Fault::Output { seq: 1 }));
    let d = r.divergence.as_ref().expect("the fault must be found");
    assert_eq!(d.channel, "shader_out", "{}", stages::text_report(&r));
    assert_eq!(d.kind, StageDivergenceKind::BeatMismatch);
    let e = d.expected.as_ref().unwrap();
    assert_eq!(e["seq"], 1, "{}", stages::text_report(&r));
}

// ---- the RTL SH stage (pica_sh_top) in the SH row ----

fn rtl_sh(case: &pica_vectors::case::Case, variant: ShVariant) -> stages::StageReport {
    let set = StageSet::parse("sh").unwrap();
    let opts = StageLockstepOptions {
        stage: StageOptions {
            sh_variant: variant,
            ..StageOptions::default()
        },
        ..StageLockstepOptions::default()
    };
    stages::stage_lockstep(case, &set, &opts).unwrap()
}

#[test]
fn rtl_sh_renders_every_scene_byte_for_byte() {
    let mut commits = 0;
    for (name, _) in scenes::list() {
        let case = scenes::scene(name).unwrap().case;
        let r = rtl_sh(&case, ShVariant::Default);
        assert!(r.is_equal(), "{}", stages::text_report(&r));
        commits += r.compared.get("commit").copied().unwrap_or(0);
    }
    assert!(commits > 90_000, "{commits} commits compared");
}

#[test]
fn rtl_sh_injected_bugs_are_caught_in_the_pipeline_at_the_instruction() {
    let case = scenes::scene("vsh/lit_grid").unwrap().case;
    for (variant, pc, field) in [
        (ShVariant::InjectAddRound, "0x00e", "result"),
        (ShVariant::InjectLoopExtra, "0x00d", "next_pc"),
    ] {
        let r = rtl_sh(&case, variant);
        let text = stages::text_report(&r);
        let d = r
            .divergence
            .as_ref()
            .unwrap_or_else(|| panic!("{variant:?} not caught"));
        assert_eq!(d.channel, "commit", "{text}");
        assert_eq!(d.key.as_deref(), Some("vertex 0"), "{text}");
        assert_eq!(d.expected.as_ref().unwrap()["pc"], pc, "{text}");
        assert!(d.fields.iter().any(|f| f.name == field), "{text}");
        assert!(d.instruction.is_some() && !d.operands.is_empty(), "{text}");
    }
}

// ---- the full RTL top (pica_top: CP -> REGS -> SH) with fe,sh ----

fn rtl_fe_sh(case: &pica_vectors::case::Case) -> stages::StageReport {
    let set = StageSet::parse("fe,sh").unwrap();
    stages::stage_lockstep(case, &set, &StageLockstepOptions::default()).unwrap()
}

/// Scenes run under `fe,sh` by the test suite: the shader-heavy one, a few draws of each
/// kind (arrays, indexed, immediate mode, two draws with a configuration change between them),
/// and the fragment-heavy light / texture ones whose lists upload LUTs through REGS. The scene
/// library has no geometry-shader scene; `rtl-bridge/tests/sh_stage.rs`
/// (`top_sh_configured_through_cp_and_regs_matches_the_model`) runs GS programs in point and
/// fixed mode through pica_top. `pica lockstep --rtl-stages fe,sh --scenes` runs all of them.
const FE_SH_SCENES: &[&str] = &[
    "vsh/lit_grid",
    "prim/triangle",
    "prim/indexed_u16",
    "prim/immediate",
    "prim/two_draws",
    "vl/fixed_color",
    "vl/permutation",
    "light/spot_cone",
    // The GS configured after GEOSTAGE_CONFIG (libctru's order) through pica_top's REGS: its
    // SH stage reads it at VL's Begin marker; variable mode's counts as count markers.
    "gs/subdivide",
    "gs/variable",
];

#[test]
fn rtl_fe_sh_renders_scenes_byte_for_byte_on_pica_top() {
    let mut regwrites = 0;
    let mut commits = 0;
    // PICA_FE_SH_SCENES=all runs every library scene (as `pica lockstep --rtl-stages fe,sh
    // --scenes` does).
    let all = std::env::var("PICA_FE_SH_SCENES").is_ok_and(|v| v == "all");
    let names: Vec<&str> = if all {
        scenes::list().map(|(n, _)| n).collect()
    } else {
        FE_SH_SCENES.to_vec()
    };
    for name in names {
        let case = scenes::scene(name).unwrap().case;
        let r = rtl_fe_sh(&case);
        assert!(r.is_equal(), "{}", stages::text_report(&r));
        regwrites += r
            .compared
            .get("regwrite (cycle-exact)")
            .copied()
            .unwrap_or(0);
        commits += r.compared.get("commit").copied().unwrap_or(0);
    }
    assert!(regwrites > 1000, "{regwrites} regwrite beats compared");
    assert!(commits > 1000, "{commits} commits compared");
}

#[test]
fn rtl_fe_sh_front_end_cases_agree_cycle_exact_and_in_final_state() {
    // The register-level library cases (no draws): pica_top's REGS beside the model's, its
    // final state (unit memories, packers, LUTs) through the debug map.
    for case in pica_vectors::library::cases().into_iter().take(12) {
        let r = rtl_fe_sh(&case);
        assert!(r.is_equal(), "{}", stages::text_report(&r));
    }
}

#[test]
fn rtl_fe_sh_refuses_a_unit_bug_pica_top_has_no_build_for() {
    let case = scenes::scene("prim/triangle").unwrap().case;
    let set = StageSet::parse("fe,sh").unwrap();
    let opts = StageLockstepOptions {
        stage: StageOptions {
            sh_variant: ShVariant::InjectAddRound,
            ..StageOptions::default()
        },
        ..StageLockstepOptions::default()
    };
    let e = stages::stage_lockstep(&case, &set, &opts).unwrap_err();
    assert!(e.to_string().contains("--rtl-stages sh"), "{e}");
}

#[test]
fn rtl_fe_sh_is_one_run_with_both_rows() {
    let case = scenes::scene("prim/triangle").unwrap().case;
    let r = rtl_fe_sh(&case);
    assert_eq!(r.stages, "fe,sh");
    assert!(r.compared["regwrite (cycle-exact)"] > 0, "{r:?}");
    let text = stages::table_text();
    assert!(text.contains("fe,sh"), "{text}");
}

/// `fe` alone beside the model's pipeline (`pica lockstep --pipeline-hold`, what `pica mutate
/// --stage fe` runs its pipeline cases as): pica_top's REGS is held while the model's
/// pipeline is busy, which the front-end lockstep (pipeline off) never does.
#[test]
fn rtl_fe_alone_beside_the_model_pipeline_is_held_and_agrees() {
    let case = scenes::scene("prim/two_draws").unwrap().case;
    let mut gpu = case.gpu().unwrap();
    let mut held = 0;
    while gpu.outcome().is_none() && gpu.cycle() < case.max_cycles {
        held += u32::from(gpu.regs_hold());
        gpu.step();
    }
    assert!(
        held > 0,
        "the scene never holds REGS: it would not test the hold"
    );
    let fe = StageSet::parse("fe").unwrap();
    let r = stages::stage_lockstep(&case, &fe, &StageLockstepOptions::default()).unwrap();
    assert!(r.is_equal(), "{}", stages::text_report(&r));
    assert!(r.compared["regwrite (cycle-exact)"] > 0, "{r:?}");
    // An injected front-end build (no shader units) runs there, and its bug is caught.
    let mut l = pica_model::cmdlist::CommandList::new();
    l.write_masked(pica_model::regs::id::FOG_COLOR, 0x3, 0x00AB_CDEF);
    l.finalize();
    let mask = pica_vectors::case::Case::from_list("t/mask", "", l.into_words());
    let opts = StageLockstepOptions {
        stage: StageOptions {
            fe_variant: pica_rtl_bridge::Variant::InjectMaskBug,
            ..StageOptions::default()
        },
        ..StageLockstepOptions::default()
    };
    let r = stages::stage_lockstep(&mask, &fe, &opts).unwrap();
    let d = r.divergence.expect("the mask bug is caught");
    assert_eq!(d.channel, "regwrite", "{d:?}");
    // ... but not with the SH stage in RTL: that build has no shader units.
    let e = stages::stage_lockstep(&case, &StageSet::parse("fe,sh").unwrap(), &opts).unwrap_err();
    assert!(e.to_string().contains("no shader units"), "{e}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pica"))
        .args(["lockstep", "--scene", "prim/two_draws", "--pipeline-hold"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("RTL stages fe"), "{text}");
}

#[test]
fn cli_stage_table_and_scene_render_with_rtl_sh() {
    let pica = env!("CARGO_BIN_EXE_pica");
    let out = std::process::Command::new(pica)
        .arg("stages")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains("sh ") && text.contains("transaction-exact"),
        "{text}"
    );
    let dir = std::env::temp_dir().join(format!("pica-stages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("lit.png");
    let out = std::process::Command::new(pica)
        .args([
            "scene",
            "render",
            "vsh/lit_grid",
            "--rtl-stages",
            "sh",
            "--png",
        ])
        .arg(&png)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("same picture as the model alone"), "{text}");
    assert!(png.is_file());
    let out = std::process::Command::new(pica)
        .args(["lockstep", "--rtl-stages", "sh", "--scene", "vsh/lit_grid"])
        .args([
            "--sh-variant",
            "inject_sh_loop_extra",
            "--trace-window",
            "16",
            "--vcd",
        ])
        .arg(dir.join("w.vcd"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("MISMATCH") && text.contains("instruction:"),
        "{text}"
    );
    let vcd = std::fs::read_to_string(dir.join("w.vcd")).unwrap();
    assert!(vcd.contains("$enddefinitions"), "a VCD");
    let out = std::process::Command::new(pica)
        .args(["lockstep", "--rtl-stages", "sh,nope", "--scenes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- the RTL TEV stage (pica_tev_top) in the TEV row ----

#[test]
fn rtl_tev_renders_every_scene_byte_for_byte() {
    let set = StageSet::parse("tev").unwrap();
    let mut beats = 0;
    for (name, _) in scenes::list() {
        let case = scenes::scene(name).unwrap().case;
        let r = stages::stage_lockstep(&case, &set, &StageLockstepOptions::default()).unwrap();
        assert!(r.is_equal(), "{}", stages::text_report(&r));
        beats += r.compared.get("combiner").copied().unwrap_or(0);
    }
    assert!(beats > 0, "no combiner beat compared");
}

// ---- the RTL fragment operations (pica_fop_top) in the FOP row, with and without tev, sh ----

/// Asserts that `compared` (a stage report's beats compared per channel) has beats of every
/// channel in `channels` (a channel's beats may be split by stage or unit: `commit:0`, ...).
fn assert_compared<'a>(
    compared: impl IntoIterator<Item = (&'a String, &'a usize)> + Clone + std::fmt::Debug,
    name: &str,
    channels: &[&str],
) {
    for ch in channels {
        let n: usize = compared
            .clone()
            .into_iter()
            .filter(|(k, _)| k.starts_with(ch))
            .map(|(_, n)| n)
            .sum();
        assert!(n > 0, "{name}: no {ch} beat compared: {compared:?}");
    }
}

fn rtl_stages(
    case: &pica_vectors::case::Case,
    set: &str,
    stage: StageOptions,
) -> stages::StageReport {
    let set = StageSet::parse(set).unwrap();
    let opts = StageLockstepOptions {
        stage,
        ..StageLockstepOptions::default()
    };
    stages::stage_lockstep(case, &set, &opts).unwrap()
}

fn latency(s: &str) -> StageOptions {
    StageOptions {
        mem_latency: MemLatency::parse(s).unwrap(),
        ..StageOptions::default()
    }
}

#[test]
fn rtl_fop_and_tev_fop_render_every_scene_byte_for_byte_at_any_memory_latency() {
    // Each scene under fop and under tev,fop, the memory latency changing from scene to scene
    // (0, fixed, random with a held request side): the pixel beats, the outcome and every byte
    // of memory (the colour and depth-stencil buffers) must equal the model alone's.
    let lat = ["0", "3", "rand:7:1", "rand:2:9"];
    let (mut pixels, mut combiners) = (0, 0);
    for (i, (name, _)) in scenes::list().enumerate() {
        let case = scenes::scene(name).unwrap().case;
        for set in ["fop", "tev,fop"] {
            let r = rtl_stages(&case, set, latency(lat[i % lat.len()]));
            assert!(r.is_equal(), "{}", stages::text_report(&r));
            pixels += r.compared.get("pixel").copied().unwrap_or(0);
            combiners += r.compared.get("combiner").copied().unwrap_or(0);
        }
    }
    assert!(
        pixels > 100_000 && combiners > 100_000,
        "{pixels} pixel, {combiners} combiner beats"
    );
}

#[test]
fn rtl_sh_tev_fop_renders_scenes_byte_for_byte() {
    // Every RTL pipeline stage at once. A sample of scenes by default (every seventh, plus the
    // lit shader scene); PICA_SH_TEV_FOP_SCENES=all runs all of them, as `pica lockstep
    // --rtl-stages sh,tev,fop --scenes` does.
    let all = std::env::var("PICA_SH_TEV_FOP_SCENES").is_ok_and(|v| v == "all");
    let mut n = 0;
    for (i, (name, _)) in scenes::list().enumerate() {
        if !(all || i % 7 == 0 || name == "vsh/lit_grid") {
            continue;
        }
        let case = scenes::scene(name).unwrap().case;
        let r = rtl_stages(&case, "sh,tev,fop", latency("rand:5:3"));
        assert!(r.is_equal(), "{}", stages::text_report(&r));
        n += 1;
    }
    assert!(n >= 20, "{n} scenes");
}

#[test]
fn rtl_fe_sh_tev_fop_is_one_run_with_every_rtl_stage() {
    // pica_top (CP -> REGS -> SH) with its front end cycle-exact, TEV and FOP on their own
    // stage tops beside it.
    for name in ["vsh/lit_grid", "bench/textured_lit"] {
        let case = scenes::scene(name).unwrap().case;
        let r = rtl_stages(&case, "fe,sh,tev,fop", StageOptions::default());
        assert!(r.is_equal(), "{}", stages::text_report(&r));
        assert_compared(
            &r.compared,
            name,
            &["regwrite", "commit", "combiner", "pixel"],
        );
    }
}

#[test]
fn rtl_fop_injected_bugs_are_caught_in_a_scene_on_the_pixel_channel() {
    // Each injected FOP bug changes a pixel of a library scene: the first divergence is a
    // pixel beat naming the wrong field (colour for the blend factor, flags / depth-stencil for
    // the stencil op, the addresses for the 32x32 tiling).
    for (variant, scene, field) in [
        (FopVariant::InjectBlendFactor, "blend/alpha", "color"),
        (
            FopVariant::InjectStencilZfail,
            "stencil/depth_fail",
            "depth_stencil",
        ),
        (FopVariant::InjectTile32, "tile/block32_64", "color_addr"),
    ] {
        let case = scenes::scene(scene)
            .unwrap_or_else(|| panic!("no scene {scene}"))
            .case;
        let stage = StageOptions {
            fop_variant: variant,
            ..StageOptions::default()
        };
        let r = rtl_stages(&case, "fop", stage);
        let text = stages::text_report(&r);
        let d = r
            .divergence
            .as_ref()
            .unwrap_or_else(|| panic!("{variant:?} not caught on {scene}"));
        assert_eq!(d.channel, "pixel", "{text}");
        assert!(d.fields.iter().any(|f| f.name == field), "{text}");
    }
}

#[test]
fn rtl_tev_injected_bugs_are_caught_in_a_scene_on_the_combiner_channel() {
    for variant in [TevVariant::InjectScaleSat, TevVariant::InjectBuffer] {
        let stage = StageOptions {
            tev_variant: variant,
            ..StageOptions::default()
        };
        let mut caught = None;
        for (name, _) in scenes::list() {
            let case = scenes::scene(name).unwrap().case;
            let r = rtl_stages(&case, "tev", stage.clone());
            if let Some(d) = r.divergence {
                caught = Some((name, d));
                break;
            }
        }
        let (name, d) = caught.unwrap_or_else(|| panic!("{variant:?} never caught"));
        assert_eq!(d.channel, "combiner", "{variant:?} on {name}");
    }
}

#[test]
fn cli_rtl_stages_fop_and_variants() {
    let pica = env!("CARGO_BIN_EXE_pica");
    let out = std::process::Command::new(pica)
        .arg("stages")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("fop ") && text.contains("pica_fop_top"),
        "{text}"
    );
    let dir = std::env::temp_dir().join(format!("pica-stages-fop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("t.png");
    let out = std::process::Command::new(pica)
        .args([
            "scene",
            "render",
            "bench/textured_lit",
            "--rtl-stages",
            "tev,fop",
        ])
        .args(["--mem-latency", "rand:4:2", "--png"])
        .arg(&png)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("same picture as the model alone"), "{text}");
    assert!(png.is_file());
    let out = std::process::Command::new(pica)
        .args([
            "lockstep",
            "--rtl-stages",
            "fop",
            "--scene",
            "tile/block32_64",
        ])
        .args(["--fop-variant", "tile32"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("MISMATCH") && text.contains("channel pixel"),
        "{text}"
    );
    for bad in [
        ["--fop-variant", "nope"],
        ["--mem-latency", "rand:x"],
        ["--tev-variant", "nope"],
    ] {
        let out = std::process::Command::new(pica)
            .args([
                "lockstep",
                "--rtl-stages",
                "fop",
                "--scene",
                "tile/block32_64",
            ])
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- the RTL CLIP + RAST stage (pica_rast_top) in the CLIP and RAST slots (row rast) ----

/// A 32x32 scene of the library's standard setup drawing `v` as a triangle list, with the early
/// depth test on with `early` (`None`: off).
fn triangles_case(
    name: &str,
    v: &[pica_vectors::builder::Vertex],
    early: Option<pica_model::regs::EarlydepthFunction>,
) -> pica_vectors::case::Case {
    use pica_vectors::builder::{Builder, Clear, FbConfig};
    let mut b = Builder::standard(FbConfig::new(32, 32), Clear::color(scenes::BG)).unwrap();
    if let Some(f) = early {
        b.early_depth(true, f);
    }
    b.vertex_array(v);
    b.draw_arrays(
        pica_model::regs::PrimitiveConfigMode::Triangles,
        0,
        v.len() as u32,
    );
    b.finish(name, "a test scene of tests/stages.rs")
        .unwrap()
        .case
}

/// Two triangles of the axis-aligned rectangle (`x0`, `y0`)-(`x1`, `y1`) at depth `z`.
fn rect_tris(x0: f32, y0: f32, x1: f32, y1: f32, z: f32) -> Vec<pica_vectors::builder::Vertex> {
    use pica_vectors::builder::Vertex;
    let c = scenes::WHITE;
    vec![
        Vertex::xyz(x0, y0, z, c),
        Vertex::xyz(x1, y0, z, c),
        Vertex::xyz(x0, y1, z, c),
        Vertex::xyz(x0, y1, z, c),
        Vertex::xyz(x1, y0, z, c),
        Vertex::xyz(x1, y1, z, c),
    ]
}

/// Three overlapping rectangles at depths 0.5, 0.25 and 0.75 with the early depth test
/// `>=` on (or off): the second loses its overlap with the first, the third wins everywhere.
fn early_depth_case(on: bool) -> pica_vectors::case::Case {
    let mut v = rect_tris(-0.75, -0.75, 0.25, 0.25, -0.5);
    v.extend(rect_tris(-0.25, -0.25, 0.75, 0.75, -0.25));
    v.extend(rect_tris(-0.5, -0.5, 0.5, 0.5, -0.75));
    let f = on.then_some(pica_model::regs::EarlydepthFunction::GreaterEqual);
    triangles_case("test/early_depth", &v, f)
}

/// A triangle crossing both z planes (one vertex in front of z = 0, one behind z = -w).
fn near_and_far_case() -> pica_vectors::case::Case {
    use pica_vectors::builder::Vertex;
    triangles_case(
        "test/near_and_far",
        &[
            Vertex::new([0.0, 0.75, 0.5, 1.0], scenes::RED),
            Vertex::new([-0.75, -0.75, -1.5, 1.0], scenes::GREEN),
            Vertex::new([0.75, -0.75, -0.5, 1.0], scenes::BLUE),
        ],
        None,
    )
}

fn rast_variant(v: RastVariant) -> StageOptions {
    StageOptions {
        rast_variant: v,
        ..StageOptions::default()
    }
}

#[test]
fn rtl_rast_renders_every_scene_byte_for_byte_at_any_early_depth_latency() {
    // Each scene under rast, the early-depth port's latency changing from scene to scene: the
    // fragment beats (every field), the outcome and every byte of memory must equal the model
    // alone's.
    let t = std::time::Instant::now();
    let lat = ["0", "3", "rand:7:1", "rand:2:9"];
    let mut fragments = 0;
    for (i, (name, _)) in scenes::list().enumerate() {
        let case = scenes::scene(name).unwrap().case;
        let r = rtl_stages(&case, "rast", latency(lat[i % lat.len()]));
        assert!(r.is_equal(), "{}", stages::text_report(&r));
        fragments += r.compared.get("fragment").copied().unwrap_or(0);
    }
    assert!(fragments > 100_000, "{fragments} fragment beats");
    // No library scene turns the early depth test on: a scene that does, at every latency
    // (the test drops fragments and the buffer is written).
    let (_, gpu) = early_depth_case(true).run_model_keep().unwrap();
    let (_, off) = early_depth_case(false).run_model_keep().unwrap();
    let early = gpu.rast().early_depth();
    assert!(early.written() > 0, "the early-depth buffer is not written");
    assert!(
        gpu.pipeline_beats().fragment.len() < off.pipeline_beats().fragment.len(),
        "the early depth test drops nothing"
    );
    for l in lat {
        let r = rtl_stages(&early_depth_case(true), "rast", latency(l));
        assert!(r.is_equal(), "{l}: {}", stages::text_report(&r));
        assert!(r.compared.get("fragment").copied().unwrap_or(0) > 0, "{l}");
    }
    eprintln!(
        "{} scenes under rast in {:.1} s, {fragments} fragment beats",
        scenes::list().count(),
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn rtl_sh_rast_tev_fop_renders_scenes_byte_for_byte() {
    // Every RTL pipeline stage at once on a sample of scenes (every tenth, plus the benchmark
    // scene with textures and lights); PICA_SH_RAST_TEV_FOP_SCENES=all runs all of them, as
    // `pica lockstep --rtl-stages sh,rast,tev,fop --scenes` does.
    let t = std::time::Instant::now();
    let all = std::env::var("PICA_SH_RAST_TEV_FOP_SCENES").is_ok_and(|v| v == "all");
    let mut n = 0;
    for (i, (name, _)) in scenes::list().enumerate() {
        if !(all || i % 10 == 0 || name == "bench/textured_lit") {
            continue;
        }
        let case = scenes::scene(name).unwrap().case;
        let r = rtl_stages(&case, "sh,rast,tev,fop", latency("rand:5:3"));
        assert!(r.is_equal(), "{}", stages::text_report(&r));
        for ch in ["commit", "fragment", "combiner", "pixel"] {
            assert!(
                r.compared.get(ch).copied().unwrap_or(0) > 0,
                "{name}: no {ch} beat compared: {:?}",
                r.compared
            );
        }
        n += 1;
    }
    assert!(n >= 15, "{n} scenes");
    eprintln!(
        "{n} scenes under sh,rast,tev,fop in {:.1} s",
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn rtl_fe_rast_is_one_run() {
    // pica_top (CP -> REGS -> SH) with its front end cycle-exact, CLIP + RAST on their own
    // stage top beside it.
    for name in ["prim/triangle", "raster/perspective"] {
        let case = scenes::scene(name).unwrap().case;
        let r = rtl_stages(&case, "fe,rast", StageOptions::default());
        assert_eq!(r.stages, "fe,rast");
        assert!(r.is_equal(), "{}", stages::text_report(&r));
        assert_compared(&r.compared, name, &["regwrite", "fragment"]);
    }
}

#[test]
fn rtl_rast_injected_bugs_are_caught_in_a_scene_on_the_fragment_channel() {
    // Each injected CLIP + RAST bug changes a fragment of a scene: the first divergence is a
    // fragment beat naming the wrong field (the pixel for the fill rule, the attributes for the
    // texture coordinate interpolated without perspective and for the z planes clipped in the
    // other order). No library scene crosses both z planes, so the last one draws a triangle
    // that does.
    for (variant, case, field) in [
        (
            RastVariant::InjectFillRule,
            scenes::scene("raster/fill_rule").unwrap().case,
            "x",
        ),
        (
            RastVariant::InjectPersp,
            scenes::scene("clip/w_guard").unwrap().case,
            "attr",
        ),
        (
            RastVariant::InjectPersp,
            scenes::scene("tex/mipmap").unwrap().case,
            "attr",
        ),
        (
            RastVariant::InjectClipPlaneOrder,
            near_and_far_case(),
            "attr",
        ),
    ] {
        let r = rtl_stages(&case, "rast", rast_variant(variant));
        let text = stages::text_report(&r);
        let d = r
            .divergence
            .as_ref()
            .unwrap_or_else(|| panic!("{variant:?} not caught on {}", case.name));
        assert_eq!(d.channel, "fragment", "{text}");
        assert!(d.fields.iter().any(|f| f.name == field), "{text}");
        // The default build renders it as the model does.
        let r = rtl_stages(&case, "rast", StageOptions::default());
        assert!(r.is_equal(), "{}", stages::text_report(&r));
    }
    // The z-plane order matters only for a triangle crossing both: every library scene is
    // equal under the build that swaps them (clip/near and clip/far cross one each).
    for name in ["clip/near", "clip/far"] {
        let case = scenes::scene(name).unwrap().case;
        let r = rtl_stages(
            &case,
            "rast",
            rast_variant(RastVariant::InjectClipPlaneOrder),
        );
        assert!(r.is_equal(), "{}", stages::text_report(&r));
    }
}

/// A tiled rasterizer's fragment stream, made by the harness (`--reorder-fragments`): the
/// RTL RAST's fragments leave through a window that releases them in a random order, each
/// pixel's own order kept. Compared in order, the first reordered fragment is a mismatch;
/// matched by pixel (`--match-pixels`) the scene is equal down to the picture (TEV and FOP in
/// the model and in RTL take the reordered stream), and an injected bug is still named, at
/// its pixel.
#[test]
fn rtl_rast_reordered_fragments_are_judged_by_pixel() {
    let reorder = |window, match_pixels, variant| StageOptions {
        reorder_fragments: Some(stages::Reorder { window, seed: 7 }),
        match_pixels,
        rast_variant: variant,
        mem_latency: MemLatency::parse("rand:4:5").unwrap(),
        ..StageOptions::default()
    };
    let mut reordered = 0;
    for name in [
        "raster/fill_rule",
        "tex/mipmap",
        "blend/alpha",
        "depth/equal",
    ] {
        let case = scenes::scene(name).unwrap().case;
        for set in ["rast", "rast,tev,fop"] {
            let r = rtl_stages(&case, set, reorder(16, true, RastVariant::Default));
            assert!(r.is_equal(), "{name} {set}: {}", stages::text_report(&r));
            let r = rtl_stages(&case, set, reorder(16, false, RastVariant::Default));
            if let Some(d) = &r.divergence {
                assert_eq!(d.channel, "fragment", "{}", stages::text_report(&r));
                assert_eq!(d.key, None);
                reordered += 1;
            }
        }
    }
    assert!(reordered >= 2, "the window reordered {reordered} runs");
    let case = scenes::scene("raster/fill_rule").unwrap().case;
    let r = rtl_stages(
        &case,
        "rast",
        reorder(16, true, RastVariant::InjectFillRule),
    );
    let text = stages::text_report(&r);
    let d = r.divergence.as_ref().expect("fill-rule bug caught");
    assert!(
        d.key.as_deref().is_some_and(|k| k.starts_with("pixel (")),
        "{text}"
    );
    assert!(text.contains("pixel ("), "{text}");
    // Without the rast row there is nothing to reorder.
    let set = StageSet::parse("fop").unwrap();
    let opts = StageLockstepOptions {
        stage: reorder(4, true, RastVariant::Default),
        ..StageLockstepOptions::default()
    };
    let err = stages::stage_lockstep(&case, &set, &opts).unwrap_err();
    assert!(err.to_string().contains("add rast"), "{err}");
}

#[test]
fn cli_rtl_stages_rast_and_variants() {
    let pica = env!("CARGO_BIN_EXE_pica");
    let out = std::process::Command::new(pica)
        .arg("stages")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.lines()
            .any(|l| l.starts_with("rast ") && l.contains("pica_rast_top")),
        "{text}"
    );
    let run = |args: &[&str]| {
        let out = std::process::Command::new(pica)
            .args(["lockstep", "--rtl-stages", "rast"])
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let (code, text) = run(&["--scene", "raster/fill_rule"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(&["--scene", "raster/fill_rule", "--rast-variant", "fill_rule"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("MISMATCH") && text.contains("channel fragment"),
        "{text}"
    );
    let (code, text) = run(&[
        "--scene",
        "raster/fill_rule",
        "--reorder-fragments",
        "8:3",
        "--match-pixels",
    ]);
    assert_eq!(code, Some(0), "{text}");
    for bad in [
        ["--rast-variant", "nope"],
        ["--mem-latency", "rand:x"],
        ["--scene", "no/such_scene"],
        ["--reorder-fragments", "0"],
        ["--reorder-fragments", "65"],
        ["--reorder-fragments", "4:z"],
    ] {
        let (code, text) = run(&[&["--scene", "raster/fill_rule"][..], &bad[..]].concat());
        assert_eq!(code, Some(2), "{bad:?}: {text}");
    }
}

/// `regs/unit3_vs_config` (citro3d's order without a GS, entry point 5, three inputs through a
/// non-identity permutation) through the pipeline: unit 3 takes the VSH entry point, input
/// configuration and permutation (model fact `regs-unit3-config`) in the model, in pica_top's
/// REGS and its SH stage, and in pica_sh_top configured from the model's REGS; the knob's
/// `seed` value runs with SH alone in RTL (its configuration comes from the model's REGS) and
/// is refused with the front end in RTL, which builds the default only.
#[test]
fn rtl_sh_and_fe_sh_unit3_takes_the_vs_config_in_citro3d_order() {
    let mut case = pica_vectors::library::case("regs/unit3_vs_config").unwrap();
    case.pipeline = true;
    for r in [rtl_sh(&case, ShVariant::Default), rtl_fe_sh(&case)] {
        let text = stages::text_report(&r);
        assert!(r.is_equal(), "{text}");
        // Nine vertices, four outputs each.
        assert_eq!(r.compared.get("shader_out").copied(), Some(36), "{text}");
    }
    case.knobs.set("regs-unit3-config=seed").unwrap();
    let r = rtl_sh(&case, ShVariant::Default);
    assert!(r.is_equal(), "{}", stages::text_report(&r));
    let set = StageSet::parse("fe,sh").unwrap();
    let e = stages::stage_lockstep(&case, &set, &StageLockstepOptions::default()).unwrap_err();
    assert!(e.to_string().contains("regs-unit3-config=seed"), "{e}");
}

/// Every stage of the kit's description (rtl-bridge/src/kit/desc.rs) is a stage-swap row of
/// `pica stages`, under its name and with its top: adding a stage description without its
/// lockstep row (or renaming one side) fails here.
#[test]
fn every_kit_stage_is_a_stage_swap_row_with_its_top() {
    for k in pica_rtl_bridge::kit::STAGES {
        let row = pica_testbench::lockstep::stages::STAGES
            .iter()
            .find(|r| r.name == k.name)
            .unwrap_or_else(|| {
                panic!(
                    "kit stage {} has no row in lockstep::stages::STAGES",
                    k.name
                )
            });
        assert_eq!(row.rtl_top, k.top, "stage {}", k.name);
    }
}

/// The report carries each RTL stage's throughput, and its counts agree with what the
/// comparison counted on the channels (fragments out of RAST = `fragment` beats, TEV's
/// fragments = `combiner`'s per-stage beats / 6, FOP's = `pixel` beats); the derived figures
/// are the counts' ratios; a memory latency that stalls FOP shows in its busy clocks.
#[test]
fn rtl_stage_reports_carry_throughput() {
    let case = scenes::scene("raster/fill_rule").unwrap().case;
    let run = |lat: &str| {
        let opts = StageOptions {
            mem_latency: MemLatency::parse(lat).unwrap(),
            ..StageOptions::default()
        };
        let r = rtl_stages(&case, "rast,tev,fop", opts);
        assert!(r.is_equal(), "{}", stages::text_report(&r));
        r
    };
    let r = run("0");
    let t = |slot: &str, k: &str| {
        r.throughput[slot][k]
            .as_u64()
            .unwrap_or_else(|| panic!("{slot}.{k}: {}", r.throughput[slot]))
    };
    let frags = r.compared["fragment"] as u64;
    assert!(frags > 0);
    assert_eq!(t("rast", "fragments_out"), frags);
    assert_eq!(t("rast", "triangles_in"), r.compared["primitive"] as u64);
    assert_eq!(t("tev", "fragments_in"), frags);
    assert_eq!(t("tev", "fragments_out"), frags);
    assert_eq!(t("fop", "fragments_in"), r.compared["pixel"] as u64);
    for slot in ["rast", "tev", "fop"] {
        let busy = t(slot, "busy_clocks");
        assert!(busy > 0 && busy <= t(slot, "clocks"), "{slot}");
        let per = r.throughput[slot]["clocks_per_fragment"].as_f64().unwrap();
        let want = (busy as f64 / frags as f64 * 1e4).round() / 1e4;
        assert_eq!(per.to_bits(), want.to_bits(), "{slot}");
    }
    assert_eq!(
        t("fop", "side_bytes"),
        4 * t("fop", "side_requests"),
        "FOP's memory port moves a 32-bit word a request"
    );
    assert!(t("fop", "side_requests") >= frags);
    let text = stages::text_report(&r);
    assert!(text.contains("throughput rast: "), "{text}");
    // Slower memory: FOP is busy longer for the same fragments.
    let slow = run("12");
    assert!(
        slow.throughput["fop"]["busy_clocks"].as_u64().unwrap() > t("fop", "busy_clocks"),
        "{:?} vs {:?}",
        slow.throughput["fop"],
        r.throughput["fop"]
    );
}
