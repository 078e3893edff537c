//! Frames as they are submitted: several lists (and frame files) through `pica run`, any buffer
//! to a picture with `--dump`, bad input named, multi-step cases in lockstep (front end and
//! the RTL pipeline stages) and in the plain-SV replay testbench.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;
use common::*;

use pica_model::fop::fb::{read_buffer_image, BufferFormat, ColorFormat, Image};
use pica_model::knobs::FopRgb8Order;
use pica_model::Outcome;
use pica_testbench::lockstep::stages::{self, StageLockstepOptions, StageSet};
use pica_testbench::lockstep::{self, Options};
use pica_vectors::bundle::write_bundle;
use pica_vectors::case::Case;
use pica_vectors::frame::frame_of;
use pica_vectors::sequences::{self, TARGET_A_CLEAR, TARGET_B_CLEAR, TARGET_B_COLOR};
use std::path::{Path, PathBuf};

fn decode_png(path: &Path) -> Image {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    Image {
        width: info.width,
        height: info.height,
        rgba: buf,
    }
}

/// Writes `case` as a frame file (with its memory files) in a scratch directory `name`.
fn write_frame(case: &Case, name: &str) -> PathBuf {
    let dir = tmp(name);
    std::fs::create_dir_all(&dir).unwrap();
    let (frame, bins) = frame_of(case);
    for (f, bytes) in bins {
        std::fs::write(dir.join(f), bytes).unwrap();
    }
    let path = dir.join("frame.json");
    std::fs::write(&path, serde_json::to_string_pretty(&frame).unwrap()).unwrap();
    path
}

#[test]
fn frames_run_two_lists_with_the_state_carried() {
    // FOG_COLOR = 0x00112233; then a masked write of byte 0 merges into it.
    let a = tmp("a.hex");
    let b = tmp("b.hex");
    std::fs::write(&a, "00112233 000F00E1 12345678 000F0010\n").unwrap();
    std::fs::write(&b, "000000EE 000100E1 12345678 000F0010\n").unwrap();
    let json = tmp("ab.json");
    let o = pica(&[
        "run",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--front-end",
        "--regs-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        stdout(&o).contains("finished in 10 cycles (2 submissions, 0 fills"),
        "{}",
        text(&o)
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(s["regs"][0x0E1], "0x001122ee");
    // Each list at its own address, or one after the other from one address.
    for extra in [
        vec!["--list-addr", "0x20001000", "--list-addr", "0x18000000"],
        vec!["--list-addr", "0x20001000"],
    ] {
        let mut args = vec![
            "run",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--front-end",
        ];
        args.extend(extra);
        let o = pica(&args);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    }
    // A hang in the second list ends the run with the hang status.
    let h = tmp("h.hex");
    std::fs::write(&h, "000000EE 000100E1 00000000 00000000\n").unwrap();
    let o = pica(&[
        "run",
        a.to_str().unwrap(),
        h.to_str().unwrap(),
        a.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(
        stdout(&o).contains("ended at steps[1] (submit 0x20000010 +0x10) of 3"),
        "{}",
        text(&o)
    );
}

#[test]
fn frames_dump_two_render_targets_written_by_two_lists() {
    let (case, [a, _]) = sequences::two_targets().unwrap();
    let frame = write_frame(&case, "two_targets");
    let (pa, pb) = (tmp("a.png"), tmp("b.png"));
    let dump_a = format!("0x{:08x}:32x32:rgba8={}", a.color_addr, pa.display());
    let dump_b = format!("0x{TARGET_B_COLOR:08x}:32x32:rgb565={}", pb.display());
    let o = pica(&[
        "run",
        frame.to_str().unwrap(),
        "--dump",
        &dump_a,
        "--dump",
        &dump_b,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        stdout(&o).contains("2 submissions, 3 fills, 1 transfer (recorded, not modelled)"),
        "{}",
        text(&o)
    );
    // Bit for bit what the model's memory holds, decoded by its framebuffer code.
    let (_, gpu) = case.run_model_keep().unwrap();
    let order = FopRgb8Order::default();
    let want_a = read_buffer_image(
        gpu.mem(),
        a.color_addr,
        (32, 32),
        false,
        BufferFormat::Color(ColorFormat::Rgba8),
        order,
    );
    let want_b = read_buffer_image(
        gpu.mem(),
        TARGET_B_COLOR,
        (32, 32),
        false,
        BufferFormat::Color(ColorFormat::Rgb565),
        order,
    );
    let (got_a, got_b) = (decode_png(&pa), decode_png(&pb));
    assert_eq!(got_a, want_a);
    assert_eq!(got_b, want_b);
    // The fills show where nothing was drawn (the top-left corner), the triangles elsewhere.
    assert_eq!(got_a.pixel(0, 0), Some(TARGET_A_CLEAR.to_be_bytes()));
    assert_eq!(
        got_b.pixel(0, 0),
        Some(ColorFormat::Rgb565.decode(u32::from(TARGET_B_CLEAR)))
    );
    assert_ne!(got_a, got_b);
    for img in [&got_a, &got_b] {
        let first = img.pixel(0, 0).unwrap();
        let drawn = img.rgba.chunks(4).filter(|p| *p != first).count();
        assert!(drawn > 100, "{drawn} pixels drawn");
    }
    // The same buffer through --png (the registers' colour buffer is B's at the end).
    let png = tmp("regs.png");
    let o = pica(&[
        "run",
        frame.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(decode_png(&png), want_b);
}

#[test]
fn frames_scene_render_dumps_depth_and_tiles() {
    let (c, d, s) = (tmp("c.png"), tmp("d.png"), tmp("s.png"));
    let dc = format!("0x18000000:32x32:rgba8={}", c.display());
    let dd = format!("0x18300000:32x32:d24s8={}", d.display());
    let ds = format!("0x18300000:32x32:s8={}", s.display());
    let png = tmp("scene.png");
    let dpng = tmp("scene.depth.png");
    let o = pica(&[
        "scene",
        "render",
        "prim/triangle",
        "--png",
        png.to_str().unwrap(),
        "--depth-png",
        dpng.to_str().unwrap(),
        "--dump",
        &dc,
        "--dump",
        &dd,
        "--dump",
        &ds,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(decode_png(&c), decode_png(&png));
    assert_eq!(decode_png(&d), decode_png(&dpng));
    let st = decode_png(&s);
    assert!(
        st.rgba.chunks(4).all(|p| p == [0, 0, 0, 255]),
        "stencil cleared to 0"
    );
    // 32x32 blocks decode the same bytes differently (the scene is tiled 8x8).
    let b32 = tmp("b32.png");
    let arg = format!("0x18000000:32x32:rgba8:block32={}", b32.display());
    let o = pica(&["scene", "render", "prim/triangle", "--dump", &arg]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_ne!(decode_png(&b32), decode_png(&c));
}

#[test]
fn frames_bad_input_exits_2_naming_the_file_and_step() {
    let (case, _) = sequences::two_targets().unwrap();
    let frame = write_frame(&case, "bad_frames");
    let dir = frame.parent().unwrap().to_path_buf();
    let text_of = std::fs::read_to_string(&frame).unwrap();
    let try_frame = |name: &str, body: &str, want: &[&str]| {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        let o = pica(&["run", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o));
        let e = stderr(&o);
        assert!(
            e.starts_with("error: ") && e.lines().count() == 1,
            "{name}: {e}"
        );
        for w in want {
            assert!(e.contains(w), "{name}: {e:?} lacks {w:?}");
        }
        assert!(!e.contains("panicked"), "{e}");
    };
    // A missing memory file, bad hex, an unknown step, an unmapped fill, overlapping images.
    let first_file = format!("mem_{:08x}.bin", case.images[0].base);
    try_frame(
        "missing.json",
        &text_of.replacen(&first_file, "gone.bin", 1),
        &["missing.json", "memory[0]", "gone.bin", "no such file"],
    );
    try_frame(
        "badhex.json",
        &text_of.replacen("\"0x4060", "\"0xQ060", 1),
        &["badhex.json", "steps[0]", "0xQ060"],
    );
    try_frame(
        "unknown.json",
        &text_of.replacen("\"transfer\"", "\"blit\"", 1),
        &["unknown.json", "steps[", "blit"],
    );
    try_frame(
        "unmapped.json",
        &text_of.replacen("\"start\": \"0x18100000\"", "\"start\": \"0x10100000\"", 1),
        &["unmapped.json", "steps[2] (fill)", "outside"],
    );
    try_frame(
        "overlap.json",
        &text_of.replacen(
            &format!("\"addr\": \"0x{:08x}\"", sequences::LIST2_ADDR),
            "\"addr\": \"0x20000008\"",
            1,
        ),
        &["overlap.json", "memory[", "overlaps memory[0]"],
    );
    let o = pica(&["run", dir.join("nothere.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("nothere.json: no such file"),
        "{}",
        text(&o)
    );
    // --dump: a size that is not whole tiles, an address outside memory, a bad format.
    for (arg, want) in [
        ("0x18000000:30x32:rgba8=x.png", "multiple of the 8x8 tile"),
        ("0x18000000:32x32:rgba8:block32=x.png", ""),
        (
            "0x18000000:40x32:rgba8:block32=x.png",
            "multiple of the 32x32 block",
        ),
        ("0x185ff000:64x64:rgba8=x.png", "not inside VRAM"),
        ("0x10000000:8x8:d16=x.png", "not inside VRAM"),
        ("0x18000000:8x8:bgr8=x.png", "unknown format 'bgr8'"),
        ("0x18000000:8x8:rgba8", "no '=FILE'"),
    ] {
        let out = tmp("x.png");
        let arg = arg.replace("x.png", out.to_str().unwrap());
        let o = pica(&["run", frame.to_str().unwrap(), "--dump", &arg]);
        if want.is_empty() {
            // 32x32 in 32x32 blocks is fine.
            assert_eq!(o.status.code(), Some(0), "{arg}: {}", text(&o));
            continue;
        }
        assert_eq!(o.status.code(), Some(2), "{arg}: {}", text(&o));
        assert!(stderr(&o).contains(want), "{arg}: {}", text(&o));
        assert!(stderr(&o).contains("--dump"), "{arg}: {}", text(&o));
    }
    // Options that do not apply to a frame, a frame among lists, a --list-addr count.
    let o = pica(&["run", frame.to_str().unwrap(), "--list-addr", "0x20000000"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let ex = "vectors/examples/01_finalize.hex";
    let o = pica(&[
        "run",
        ex,
        ex,
        ex,
        "--list-addr",
        "0x20000000",
        "--list-addr",
        "0x20001000",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("--list-addr given 2 times for 3 lists"),
        "{}",
        text(&o)
    );
    let o = pica(&[
        "run",
        ex,
        ex,
        "--list-addr",
        "0x20000000",
        "--list-addr",
        "0x20000008",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("overlaps"), "{}", text(&o));
}

#[test]
fn frames_lockstep_front_end_equal_across_submissions() {
    for case in sequences::library_cases() {
        let r = lockstep::lockstep(&case, &Options::default()).unwrap();
        assert!(r.is_equal(), "{}", lockstep::text_report(&r));
        assert_eq!(
            r.outcome,
            pica_vectors::bundle::OutcomeRecord::of(&case.run_model().unwrap().outcome),
            "{}",
            case.name
        );
    }
    // The mask-bug build differs in the second list of seq/regs_carried (a masked FOG_COLOR
    // write there): lockstep has to get that far.
    let case = sequences::regs_carried();
    let opts = Options {
        variant: pica_rtl_bridge::Variant::InjectMaskBug,
        ..Options::default()
    };
    let r = lockstep::lockstep(&case, &opts).unwrap();
    let d = r.divergence.as_ref().expect("the mask bug is caught");
    let first_list_end = {
        let mut g = case.gpu().unwrap();
        g.set_pipeline(false);
        match g.run(1000) {
            Outcome::Finished { cycles } => cycles,
            o => panic!("{o}"),
        }
    };
    assert!(
        d.cycle > first_list_end,
        "diverged at {} before the first list ended ({first_list_end}): {}",
        d.cycle,
        lockstep::text_report(&r)
    );
}

#[test]
fn frames_lockstep_rtl_stages_equal_on_multi_step_cases() {
    let opts = StageLockstepOptions::default();
    let (carried, _) = sequences::state_carried().unwrap();
    let (targets, _) = sequences::two_targets().unwrap();
    // Every pipeline stage in RTL; and pica_top's front end (kicked for each list, cycle-exact
    // beside the mixed GPU) with SH inside it and TEV, FOP beside it.
    for stages_list in ["sh,rast,tev,fop", "fe,sh,tev,fop"] {
        let set = StageSet::parse(stages_list).unwrap();
        // (case, its draws: state_carried draws in its second list only, two_targets in both)
        for (case, draws) in [(&carried, 1), (&targets, 2)] {
            let (r, mixed) = stages::stage_lockstep_keep(case, &set, &opts).unwrap();
            assert!(r.is_equal(), "{stages_list}: {}", stages::text_report(&r));
            assert_eq!(r.outcome.kind, "finished", "{:?}", r.outcome);
            // Every list's draws went through the RTL stages: the mixed run did every step.
            assert_eq!(
                mixed.pipeline_stats().draws,
                draws,
                "{stages_list} {}",
                case.name
            );
            if set.has_front_end() {
                assert!(
                    r.compared["regwrite (cycle-exact)"] > 100,
                    "{:?}",
                    r.compared
                );
            }
        }
    }
}

#[test]
fn frames_replay_testbench_runs_a_multi_submission_bundle() {
    let case = sequences::regs_carried();
    let dir = tmp("seq_bundle");
    let run = case.run_model().unwrap();
    write_bundle(&dir, &case, &run, "test").unwrap();
    for sim in ["icarus", "verilator"] {
        let (ok, out) = replay(&dir, sim, &[]);
        assert!(ok && out.contains("PASS"), "{sim}: {out}");
    }
    // Without the later steps the testbench stops after the first list: the beats of the
    // others are missing, so it fails — it really replays every submission.
    let mpath = dir.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&mpath).unwrap()).unwrap();
    m["sequence"]["steps"] =
        serde_json::json!([m["sequence"]["steps"][0], m["sequence"]["steps"][1]]);
    std::fs::write(&mpath, serde_json::to_string(&m).unwrap()).unwrap();
    let (ok, out) = replay(&dir, "icarus", &[]);
    assert!(!ok && out.contains("FAIL"), "{out}");
}
