#![allow(clippy::unwrap_used)]
//! `--knob NAME=VALUE` on every command that runs the model (`pica run`, `pica scene
//! render`, `pica shader run`, `pica lockstep`, `pica vectors gen`), `pica knobs`, the
//! manifest's `knobs` record and its replay, and the refusal of RTL builds that cannot follow
//! a knob.

mod common;
use common::{pica, stdout, text, tmp};
use pica_model::knobs::Knobs;
use pica_model::num::F24;
use pica_model::shader::alu::MaxNegInf;
use pica_vectors::builder::{Builder, Clear, FbConfig, Vertex};
use pica_vectors::case::Case;
use std::path::{Path, PathBuf};

/// A vertex shader whose position x is `x + max(0, -inf)`: +0 by default (the triangle is
/// drawn), -inf with `max-neg-inf=neg-inf` (the triangle is clipped away).
const MAX_NEG_INF_VSH: &str = "\
.out outpos position
.out outclr color
.in inpos v0
.in inclr v1
.proc main
\tmov r2, c95
\tmax r1, c94, r2
\tadd r0, inpos, r1
\tmov outpos, r0
\tmov outclr, inclr
\tend
.end
";

/// A one-triangle case drawn with [`MAX_NEG_INF_VSH`] (c94 = 0, c95 = (-inf, 0, 0, 0)).
fn max_neg_inf_case() -> Case {
    let mut b = Builder::standard(FbConfig::new(32, 32), Clear::color([0, 0, 0, 255])).unwrap();
    b.vertex_shader(MAX_NEG_INF_VSH, "max_neg_inf.v.pica")
        .unwrap();
    let zero = F24::from_bits(0);
    let neg_inf = F24::from_bits(0xff_0000);
    b.vsh_float_uniforms(94, &[[zero; 4], [neg_inf, zero, zero, zero]]);
    let red = [1.0, 0.0, 0.0, 1.0];
    b.vertex_array(&[
        Vertex::xy(-0.75, -0.75, red),
        Vertex::xy(0.75, -0.75, red),
        Vertex::xy(0.0, 0.75, red),
    ]);
    b.draw_arrays(pica_model::regs::PrimitiveConfigMode::Triangles, 0, 3);
    b.finish("knobs/max_neg_inf", "x + max(0, -inf) in the vertex shader")
        .unwrap()
        .case
}

/// Writes `case` as a command-list file and memory images for `pica run` / `pica lockstep`:
/// the arguments (list, --list-addr, --mem ...).
fn write_case_files(case: &Case, dir: &Path) -> Vec<String> {
    std::fs::create_dir_all(dir).unwrap();
    let mut args = Vec::new();
    let mut mems = Vec::new();
    for im in &case.images {
        let path = dir.join(format!("mem_{:08x}.hex", im.base));
        let text: String = im.words.iter().map(|w| format!("{w:08x}\n")).collect();
        std::fs::write(&path, text).unwrap();
        if im.base == case.submit_addr {
            assert_eq!(im.words.len() * 4, case.submit_size as usize);
            args.push(path.display().to_string());
            args.push("--list-addr".into());
            args.push(format!("0x{:08x}", im.base));
        } else {
            mems.push("--mem".to_string());
            mems.push(format!("0x{:08x}={}", im.base, path.display()));
        }
    }
    assert!(!args.is_empty(), "the list is one of the images");
    args.extend(mems);
    args
}

fn run_args<'a>(cmd: &[&'a str], files: &'a [String], extra: &[&'a str]) -> Vec<&'a str> {
    cmd.iter()
        .copied()
        .chain(files.iter().map(String::as_str))
        .chain(extra.iter().copied())
        .collect()
}

/// The fragment count of a `pica run` summary line.
fn fragments(summary: &str) -> u64 {
    let i = summary.find(" fragments").unwrap();
    summary[..i].rsplit(' ').next().unwrap().parse().unwrap()
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn knobs_lists_every_knob_with_values_and_default() {
    let o = pica(&["knobs"]);
    assert!(o.status.success(), "{}", text(&o));
    let s = stdout(&o);
    for (name, values) in Knobs::NAMES {
        assert!(s.contains(name) && s.contains(values), "{name}: {s}");
    }
    let o = pica(&["knobs", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), Knobs::NAMES.len());
    assert_eq!(v[0]["name"], "max-neg-inf");
    assert_eq!(v[0]["default"], "zero");
}

#[test]
fn knob_bad_name_or_value_exits_2_naming_the_knobs() {
    let dir = tmp("knob-bad");
    let case = max_neg_inf_case();
    let files = write_case_files(&case, &dir);
    for cmd in [
        vec!["run"],
        vec!["lockstep"],
        vec!["scene", "render", "prim/triangle"],
        vec!["vectors", "gen", "/nonexistent-out"],
        vec!["shader", "run", "x.pica"],
    ] {
        for bad in ["nope=1", "max-neg-inf=maybe", "max-neg-inf"] {
            let mut args: Vec<&str> = cmd.clone();
            if cmd[0] == "run" || cmd[0] == "lockstep" {
                args.extend(files.iter().map(String::as_str));
            }
            args.extend(["--knob", bad]);
            let o = pica(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
            let e = text(&o);
            assert!(
                e.contains("max-neg-inf=zero|neg-inf") && e.contains("mov-subnormal=pass|flush"),
                "{args:?}: {e}"
            );
        }
    }
}

#[test]
fn knob_changes_a_run_and_every_command_agrees() {
    let dir = tmp("knob-run");
    let case = max_neg_inf_case();
    let files = write_case_files(&case, &dir);

    // pica run: the default draws the triangle, neg-inf clips it away.
    let o = pica(&run_args(&["run"], &files, &[]));
    assert!(o.status.success(), "{}", text(&o));
    let drawn = fragments(&stdout(&o));
    assert!(drawn > 0, "{}", stdout(&o));
    let o = pica(&run_args(
        &["run"],
        &files,
        &["--knob", "max-neg-inf=neg-inf"],
    ));
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(fragments(&stdout(&o)), 0, "{}", stdout(&o));
    // Setting the default explicitly is the default.
    let o = pica(&run_args(&["run"], &files, &["--knob", "max-neg-inf=zero"]));
    assert_eq!(fragments(&stdout(&o)), drawn);
    // A later --knob wins.
    let o = pica(&run_args(
        &["run"],
        &files,
        &[
            "--knob",
            "max-neg-inf=zero",
            "--knob",
            "max-neg-inf=neg-inf",
        ],
    ));
    assert_eq!(fragments(&stdout(&o)), 0, "{}", stdout(&o));

    // The library path (what bundles record) agrees with pica run under both knobs.
    for (knobs, want) in [(Knobs::default(), drawn), (neg_inf_knobs(), 0)] {
        let c = Case {
            knobs,
            ..case.clone()
        };
        let run = c.run_model().unwrap();
        let frags = run.pipeline.as_ref().unwrap().fragment.len() as u64;
        assert_eq!(frags, want, "{knobs:?}");
    }

    // pica shader run: the same instruction gives the same two answers.
    let prog = dir.join("max.v.pica");
    std::fs::write(
        &prog,
        ".out opos position\n.in ipos v0\n.proc main\n\tmax opos, c0, ipos\n\tend\n.end\n",
    )
    .unwrap();
    let p = prog.display().to_string();
    let shader = |knob: &[&str]| {
        let mut args = vec![
            "shader",
            "run",
            p.as_str(),
            "--in",
            "v0=0xff0000,0,0,0",
            "--json",
        ];
        args.extend(knob);
        let o = pica(&args);
        assert!(o.status.success(), "{}", text(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["outputs"]["o0"][0].as_str().unwrap().to_string()
    };
    assert_eq!(shader(&[]), "0x000000");
    assert_eq!(shader(&["--knob", "max-neg-inf=neg-inf"]), "0xff0000");

    // pica lockstep with a pipeline stage the knob does not reach the RTL of (tev): the model's
    // shader units run with the knob on both sides, and they agree.
    let o = pica(&run_args(
        &["lockstep"],
        &files,
        &["--rtl-stages", "tev", "--knob", "max-neg-inf=neg-inf"],
    ));
    assert!(o.status.success(), "{}", text(&o));
}

fn neg_inf_knobs() -> Knobs {
    let mut k = Knobs::default();
    k.shader.max_neg_inf = MaxNegInf::NegInf;
    k
}

#[test]
fn knob_rtl_sh_stage_that_cannot_follow_is_refused() {
    let dir = tmp("knob-rtl");
    let case = max_neg_inf_case();
    let files = write_case_files(&case, &dir);
    for stages in ["sh", "fe,sh"] {
        let o = pica(&run_args(
            &["lockstep"],
            &files,
            &["--rtl-stages", stages, "--knob", "max-neg-inf=neg-inf"],
        ));
        assert_eq!(o.status.code(), Some(2), "{stages}: {}", text(&o));
        let e = text(&o);
        assert!(
            e.contains("cannot follow --knob max-neg-inf=neg-inf"),
            "{stages}: {e}"
        );
    }
    let o = pica(&[
        "scene",
        "render",
        "prim/triangle",
        "--rtl-stages",
        "sh",
        "--knob",
        "unknown-op=nop",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("unknown-op=nop"), "{}", text(&o));
    let out = tmp("knob-rtl-gen");
    let o = pica(&[
        "vectors",
        "gen",
        out.to_str().unwrap(),
        "--case",
        "examples/01_finalize",
        "--rtl-stages",
        "sh",
        "--knob",
        "loop-al=restore",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("loop-al=restore"), "{}", text(&o));
}

/// The SH stage's own knob (`gs-new-draw`, the GS input assembler): the model follows it, the
/// RTL SH stage (default build, alone or in pica_top) is refused, and one shader unit alone
/// (`pica shader run`) refuses it as a knob it does not run.
#[test]
fn knob_gs_new_draw_is_refused_by_the_rtl_sh_stage_and_one_unit() {
    for stages in ["sh", "fe,sh"] {
        let o = pica(&[
            "lockstep",
            "--rtl-stages",
            stages,
            "--scene",
            "gs/draw_reset",
            "--knob",
            "gs-new-draw=keep",
        ]);
        assert_eq!(o.status.code(), Some(2), "{stages}: {}", text(&o));
        let e = text(&o);
        assert!(
            e.contains("own knobs") && e.contains("cannot follow --knob gs-new-draw=keep"),
            "{stages}: {e}"
        );
    }
    let o = pica(&[
        "scene",
        "render",
        "gs/draw_reset",
        "--knob",
        "gs-new-draw=keep",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let prog = tmp("knob-gs-unit.v.pica");
    std::fs::write(&prog, ".proc main\n\tend\n.end\n").unwrap();
    let o = pica(&[
        "shader",
        "run",
        prog.to_str().unwrap(),
        "--knob",
        "gs-new-draw=keep",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("gs-new-draw=keep: a knob of stage sh"),
        "{}",
        text(&o)
    );
}

#[test]
fn knob_bundle_records_it_and_replays_with_it() {
    // A bundle of the case with the knob (write_bundle: what `pica vectors gen` and `pica
    // scene render --vectors` write).
    let case = Case {
        knobs: neg_inf_knobs(),
        ..max_neg_inf_case()
    };
    let dir: PathBuf = tmp("knob-bundle");
    let run = case.run_model().unwrap();
    pica_vectors::bundle::write_bundle(&dir, &case, &run, "test").unwrap();
    let m = manifest(&dir);
    assert_eq!(m["knobs"], serde_json::json!({"max-neg-inf": "neg-inf"}));
    let d = dir.to_str().unwrap();

    let o = pica(&["vectors", "check", d]);
    assert!(o.status.success(), "{}", text(&o));
    // Front-end lockstep (no shader runs there) and the model with TEV in RTL accept it.
    let o = pica(&["lockstep", "--bundle", d, "--rtl-stages", "tev"]);
    assert!(o.status.success(), "{}", text(&o));
    // The SH stage in RTL cannot follow the recorded knob.
    let o = pica(&["lockstep", "--bundle", d, "--rtl-stages", "sh"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("max-neg-inf=neg-inf"), "{}", text(&o));

    // Dropping the knob from the manifest: the model no longer reproduces the golden data.
    let mut m2 = m.clone();
    m2.as_object_mut().unwrap().remove("knobs");
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&m2).unwrap(),
    )
    .unwrap();
    let o = pica(&["vectors", "check", d]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("does not reproduce"), "{}", text(&o));

    // A knob the model does not know is a corrupt manifest.
    let mut m3 = m.clone();
    m3["knobs"] = serde_json::json!({"max-neg-inf": "maybe"});
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&m3).unwrap(),
    )
    .unwrap();
    let o = pica(&["vectors", "check", d]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("knobs"), "{}", text(&o));
}

#[test]
fn knob_vectors_gen_and_scene_render_record_it() {
    let out = tmp("knob-gen");
    let o = pica(&[
        "vectors",
        "gen",
        out.to_str().unwrap(),
        "--case",
        "examples/01_finalize",
        "--knob",
        "unknown-op=nop",
        "--knob",
        "int-z=signed",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let b = out.join("examples__01_finalize");
    assert_eq!(
        manifest(&b)["knobs"],
        serde_json::json!({"unknown-op": "nop", "int-z": "signed"})
    );
    let o = pica(&["vectors", "check", b.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    // Without knobs nothing is recorded (old bundles stay byte-identical).
    let o = pica(&[
        "vectors",
        "gen",
        out.to_str().unwrap(),
        "--case",
        "examples/01_finalize",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(manifest(&b).get("knobs").is_none());
    // Stage bundles do not rerun shaders: knobs are refused there.
    let o = pica(&[
        "vectors",
        "gen",
        out.to_str().unwrap(),
        "--stage",
        "tev",
        "--knob",
        "unknown-op=nop",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));

    let sv = tmp("knob-scene");
    let o = pica(&[
        "scene",
        "render",
        "prim/triangle",
        "--vectors",
        sv.to_str().unwrap(),
        "--knob",
        "mov-subnormal=flush",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        manifest(&sv)["knobs"],
        serde_json::json!({"mov-subnormal": "flush"})
    );
    let o = pica(&["vectors", "check", sv.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn knobs_list_names_each_knobs_fact() {
    // `pica knobs --json` describes each knob by its fact in the ledger (`pica facts`).
    let o = pica(&["knobs", "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), Knobs::NAMES.len());
    for k in list {
        let fact = k["fact"].as_str().unwrap();
        let f = pica_model::facts::get(fact).unwrap_or_else(|| panic!("{k}: no fact"));
        assert_eq!(k["about"].as_str(), Some(f.summary), "{k}");
    }
}

#[test]
fn knob_of_a_pipeline_stage_changes_a_scene_is_recorded_and_refused_by_that_rtl_stage() {
    let dir = tmp("knob-area");
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b, v) = (dir.join("a.png"), dir.join("b.png"), dir.join("bundle"));
    let o = pica(&[
        "scene",
        "render",
        "cull/reserved_3",
        "--png",
        a.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = pica(&[
        "scene",
        "render",
        "cull/reserved_3",
        "--png",
        b.to_str().unwrap(),
        "--vectors",
        v.to_str().unwrap(),
        "--knob",
        "clip-cull-reserved=none",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(
        manifest(&v)["knobs"],
        serde_json::json!({"clip-cull-reserved": "none"})
    );
    let d = v.to_str().unwrap();
    let o = pica(&["vectors", "check", d]);
    assert!(o.status.success(), "{}", text(&o));
    // The RTL CLIP + RAST stage implements the default knobs only: refused, exit 2, never a
    // divergence; the RTL TEV stage does not apply the knob and runs beside it.
    let o = pica(&["vectors", "check", d, "--rtl-stages", "rast"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("REFUSED"), "{}", text(&o));
    assert!(
        text(&o).contains("cannot follow --knob clip-cull-reserved=none"),
        "{}",
        text(&o)
    );
    let o = pica(&["lockstep", "--bundle", d, "--rtl-stages", "rast"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = pica(&["lockstep", "--bundle", d, "--rtl-stages", "tev"]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn knob_vectors_check_with_rtl_that_cannot_follow_exits_2() {
    // A bundle with a shader knob, checked with the SH stage in RTL (issue 20: was exit 1).
    let v = tmp("knob-check-sh");
    let o = pica(&[
        "scene",
        "render",
        "prim/triangle",
        "--vectors",
        v.to_str().unwrap(),
        "--knob",
        "max-neg-inf=neg-inf",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = pica(&[
        "vectors",
        "check",
        v.to_str().unwrap(),
        "--rtl-stages",
        "sh",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("REFUSED") && t.contains("max-neg-inf=neg-inf"),
        "{t}"
    );
    assert!(t.contains("1 refused"), "{t}");

    // A front-end knob, checked against the RTL front end.
    let case = Case {
        knobs: {
            let mut k = Knobs::default();
            k.set("regs-trigger-value=nonzero").unwrap();
            k
        },
        ..max_neg_inf_case()
    };
    let dir = tmp("knob-check-fe");
    let run = case.run_model().unwrap();
    pica_vectors::bundle::write_bundle(&dir, &case, &run, "test").unwrap();
    let o = pica(&["vectors", "check", dir.to_str().unwrap(), "--rtl"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("regs-trigger-value=nonzero"),
        "{}",
        text(&o)
    );
    let files = write_case_files(&max_neg_inf_case(), &tmp("knob-fe-list"));
    let o = pica(&run_args(
        &["lockstep"],
        &files,
        &["--knob", "cp-end-value=nonzero"],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("pica_top"), "{}", text(&o));
}

#[test]
fn knob_fuzz_takes_knobs_refuses_what_it_cannot_run_and_records_them() {
    let reg = tmp("knob-fuzz");
    let o = pica(&[
        "fuzz",
        "--cases",
        "20",
        "--knob",
        "regs-trigger-value=nonzero",
        "--regressions",
        reg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = pica(&[
        "fuzz",
        "--target",
        "shader",
        "--cases",
        "20",
        "--knob",
        "int-z=signed",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    // The one-stage fuzzers take the knobs of the stages they run (self-checks included).
    for args in [
        ["--target", "tev", "--knob", "tev-stage0-previous=zero"],
        ["--target", "fop", "--knob", "fop-rgb8-order=rgb"],
        ["--target", "fop", "--knob", "fop-blend-rounding=nearest"],
        ["--target", "rast", "--knob", "clip-edge-order=ordered"],
        ["--target", "rast", "--knob", "rast-fill-rule=inclusive"],
    ] {
        let mut a = vec!["fuzz", "--cases", "30"];
        a.extend(args);
        let o = pica(&a);
        assert!(o.status.success(), "{a:?}: {}", text(&o));
    }
    for (args, want) in [
        (
            vec!["--target", "tev", "--knob", "light-enable=enable1"],
            "--target tev does not run",
        ),
        (
            vec!["--target", "rast", "--knob", "fop-rgb8-order=rgb"],
            "--target rast does not run",
        ),
        (
            vec![
                "--target",
                "tev",
                "--rtl",
                "--knob",
                "tev-stage0-previous=zero",
            ],
            "cannot follow --knob tev-stage0-previous=zero",
        ),
        (
            vec!["--rtl-stages", "fop", "--knob", "fop-rgb8-order=rgb"],
            "cannot follow --knob fop-rgb8-order=rgb",
        ),
        (
            vec!["--target", "shader", "--knob", "rast-fill-rule=inclusive"],
            "rast-fill-rule=inclusive",
        ),
        (
            vec!["--target", "shader", "--rtl", "--knob", "int-z=signed"],
            "--variant default",
        ),
        (vec!["--rtl", "--knob", "cp-end-value=nonzero"], "pica_top"),
        (
            vec!["--rtl-stages", "sh", "--knob", "loop-al=restore"],
            "loop-al=restore",
        ),
    ] {
        let mut a = vec!["fuzz", "--cases", "1"];
        a.extend(args);
        let o = pica(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", text(&o));
        assert!(text(&o).contains(want), "{a:?}: {}", text(&o));
    }
    // Against the RTL front end with an injected bug, a knob of a later stage (which the
    // front end does not run) is accepted and recorded in the saved failure bundle.
    let o = pica(&[
        "fuzz",
        "--rtl",
        "--variant",
        "mask",
        "--cases",
        "400",
        "--seed",
        "5",
        "--knob",
        "fop-blend-rounding=nearest",
        "--regressions",
        reg.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let saved: Vec<PathBuf> = std::fs::read_dir(&reg)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("manifest.json").exists())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert_eq!(
        manifest(&saved[0])["knobs"],
        serde_json::json!({"fop-blend-rounding": "nearest"})
    );
}
