#![allow(clippy::unwrap_used)]
//! The scene library: every scene builds a well-formed case that runs on the model, and (once
//! the pipeline stages are in) draws the pixels listed for it in [`probes`].

use pica_model::cmdlist::FINALIZE_VALUE;
use pica_model::fop::fb::{read_color_image, Image};
use pica_model::regs::{self, id};
use pica_model::{HangReason, Outcome};
use pica_vectors::builder::{Scene, COLOR_BASE, DEPTH_BASE};
use pica_vectors::scenes::{self, BG};

/// What running a scene gives: how the run ended and the colour buffer read back.
struct Rendered {
    outcome: Outcome,
    /// De-tiled RGBA8, top row first ([`read_color_image`]).
    image: Image,
}

/// Runs `scene` on the model (pipeline on) and reads the colour buffer back.
fn render(scene: &Scene) -> Rendered {
    let mut gpu = scene.case.gpu().unwrap();
    let outcome = gpu.run(scene.case.max_cycles);
    let image = read_color_image(gpu.regs(), gpu.mem());
    Rendered { outcome, image }
}

/// The RGBA8 pixel at (`x`, `y`) of `img`, `y` counted from the top row.
fn pixel(img: &Image, x: u32, y: u32) -> Option<[u8; 4]> {
    let i = ((y * img.width + x) * 4) as usize;
    let p = img.rgba.get(i..i + 4)?;
    Some([p[0], p[1], p[2], p[3]])
}

/// A hand-derived expected pixel.
struct Probe {
    x: u32,
    y: u32,
    rgba: [u8; 4],
}

const fn p(x: u32, y: u32, rgba: [u8; 4]) -> Probe {
    Probe { x, y, rgba }
}

const RED: [u8; 4] = [0xFF, 0, 0, 0xFF];
const GREEN: [u8; 4] = [0, 0xFF, 0, 0xFF];
const BLUE: [u8; 4] = [0, 0, 0xFF, 0xFF];
const CYAN: [u8; 4] = [0, 0xFF, 0xFF, 0xFF];

/// The four corner pixels of a 32×32 scene hold the clear colour.
fn corners_bg() -> Vec<Probe> {
    vec![p(0, 0, BG), p(31, 0, BG), p(0, 31, BG), p(31, 31, BG)]
}

/// Expected pixels of each scene, hand-derived. Only pixels whose value does not depend on
/// choices the pipeline stages make are listed: flat colours of 0 or 1, well inside or
/// outside every edge, on rows that the shape covers whether the read-back image has clip-space
/// y up or down (row 16 is clip y ≈ 0 either way). Add a scene's entry here to check it.
fn probes(name: &str) -> Vec<Probe> {
    let mut v = match name {
        // Clip x of pixel column c is (c + 0.5) / 16 - 1: column 12 is -0.22, 16 is +0.03.
        "prim/triangle" | "prim/indexed_u8" | "prim/immediate" => vec![],
        "prim/strip_restart" => vec![p(16, 16, BG)], // no triangle joins the two strips
        "vl/vertex_offset" => vec![p(24, 16, GREEN), p(8, 16, BG)],
        "cull/none" => vec![p(8, 16, RED), p(24, 16, GREEN)],
        "scissor/inside" => vec![p(16, 14, CYAN), p(2, 2, BG)],
        "scissor/outside" => vec![p(16, 14, BG), p(2, 2, CYAN)],
        // Quad B's depth at column 12 is 0.36, below quad A's 0.5.
        "depth/never" => vec![p(12, 16, GREEN)],
        "depth/always" | "depth/less" => vec![p(12, 16, RED)],
        "depth/greater_equal" => vec![p(12, 16, GREEN)],
        "depth/test_off_still_writes" => vec![p(12, 16, RED), p(30, 1, BLUE), p(30, 30, BLUE)],
        "depth/write_off" | "fop/depth_buffer_write_off" => {
            vec![p(6, 16, RED), p(20, 16, BLUE)]
        }
        "stencil/mask_equal" => vec![p(16, 16, RED)],
        "stencil/masks" => vec![p(16, 16, GREEN)],
        // White with only red and alpha written.
        "fop/color_mask" => vec![p(16, 16, [0xFF, BG[1], BG[2], 0xFF])],
        "fop/color_buffer_write_off" => vec![p(16, 16, BG)],
        // Yellow XOR the clear colour; alpha 0xFF ^ 0xFF.
        "logic/xor" => vec![p(16, 16, [0xFF ^ BG[0], 0xFF ^ BG[1], BG[2], 0])],
        _ => return vec![],
    };
    // Scenes whose last quad reaches a corner.
    let corners_free = !matches!(
        name,
        "scissor/outside"
            | "depth/test_off_still_writes"
            | "depth/write_off"
            | "fop/depth_buffer_write_off"
    );
    if corners_free {
        v.extend(corners_bg());
    }
    v
}

#[test]
fn scenes_all_build() {
    let built = scenes::try_scenes().unwrap_or_else(|(name, e)| panic!("{name}: {e}"));
    assert_eq!(built.len(), scenes::list().count());
    assert_eq!(scenes::scenes().len(), built.len());
    for (s, (name, desc)) in built.iter().zip(scenes::list()) {
        assert_eq!((s.name(), s.description()), (name, desc));
        assert!(!desc.is_empty() && !desc.contains('\n'), "{name}");
    }
}

#[test]
fn scenes_lists_end_in_finalize_on_16_bytes() {
    for s in scenes::scenes() {
        let c = &s.case;
        assert!(c.pipeline, "{}", c.name);
        assert_eq!(c.submit_size % 16, 0, "{}", c.name);
        let list = &c.images[0].words;
        assert_eq!(c.images[0].base, c.submit_addr, "{}", c.name);
        assert_eq!(list.len() as u32 * 4, c.submit_size, "{}", c.name);
        assert_eq!(
            list[list.len() - 2..],
            [FINALIZE_VALUE, 0x000F_0000 | u32::from(id::FINALIZE)],
            "{}",
            c.name
        );
        assert_eq!(c.stim(), *list, "{}", c.name);
        assert!(c.memory().is_ok(), "{}", c.name);
    }
}

#[test]
fn scenes_framebuffers_are_small_legal_and_cleared() {
    for s in scenes::scenes() {
        let fb = &s.fb;
        let block = if fb.block32 { 32 } else { 8 };
        assert_eq!(fb.width % block, 0, "{}", s.name());
        assert_eq!(fb.height % block, 0, "{}", s.name());
        let limit = if s.name().starts_with("bench/") {
            128
        } else {
            64
        };
        assert!(fb.width <= limit && fb.height <= limit, "{}", s.name());
        let color = s.case.images.iter().find(|i| i.base == COLOR_BASE).unwrap();
        let depth = s.case.images.iter().find(|i| i.base == DEPTH_BASE).unwrap();
        assert_eq!(
            color.words.len() as u32 * 4,
            fb.color_bytes(),
            "{}",
            s.name()
        );
        assert_eq!(
            depth.words.len() as u32 * 4,
            fb.depth_bytes(),
            "{}",
            s.name()
        );
    }
}

/// Every scene runs to its FINALIZE: no hang (an internal error of a stage is a hang with
/// reason `Internal`), no cycle limit, no panic.
#[test]
fn scenes_run_on_the_model_to_the_end() {
    for s in scenes::scenes() {
        let r = render(&s);
        match &r.outcome {
            Outcome::Finished { .. } => {}
            Outcome::Hang {
                reason: HangReason::Internal(msg),
                ..
            } => panic!("{}: internal error: {msg}", s.name()),
            o => panic!("{}: {o}", s.name()),
        }
        // The picture is the framebuffer's size, or empty while FOP's read-back is a stub.
        assert!(
            r.image.rgba.is_empty() || (r.image.width, r.image.height) == (s.fb.width, s.fb.height),
            "{}",
            s.name()
        );
    }
}

/// Hand-derived pixels of the scenes [`probes`] lists.
#[test]
fn scenes_render_expected_probes() {
    let mut checked = 0;
    for s in scenes::scenes() {
        let want = probes(s.name());
        if want.is_empty() {
            continue;
        }
        let r = render(&s);
        assert!(
            matches!(r.outcome, Outcome::Finished { .. }),
            "{}",
            s.name()
        );
        for pr in want {
            assert_eq!(
                pixel(&r.image, pr.x, pr.y),
                Some(pr.rgba),
                "{} at ({}, {})",
                s.name(),
                pr.x,
                pr.y
            );
        }
        checked += 1;
    }
    assert!(checked >= 15, "{checked}");
    // Block tiling changes the memory layout, not the picture.
    let a = render(&scenes::scene("tile/block8_64").unwrap()).image;
    let b = render(&scenes::scene("tile/block32_64").unwrap()).image;
    assert_eq!((a.width, a.height), (64, 64));
    assert_eq!(a, b);
}

#[test]
fn scenes_cover_the_issue_list() {
    let names: Vec<&str> = scenes::list().map(|(n, _)| n).collect();
    let has = |n: &str| names.contains(&n);
    let count = |prefix: &str| names.iter().filter(|n| n.starts_with(prefix)).count();
    for n in [
        "prim/triangle",
        "prim/strip",
        "prim/fan",
        "prim/indexed_u8",
        "prim/indexed_u16",
        "prim/immediate",
        "prim/strip_restart",
        "vl/vertex_cache",
        "cull/none",
        "cull/front_ccw",
        "cull/back_ccw",
        "scissor/inside",
        "scissor/outside",
        "clip/left",
        "clip/right",
        "clip/bottom",
        "clip/top",
        "clip/near",
        "clip/far",
        "clip/w_guard",
        "clip/user_plane",
        "format/rgba8",
        "format/rgb5a1",
        "format/rgb565",
        "format/rgba4",
        "format/d16",
        "format/d24",
        "format/d24s8",
        "tile/block32_64",
        "logic/all_ops",
        "bench/many_triangles",
    ] {
        assert!(has(n), "{n}");
    }
    assert!(count("depth/") >= 4);
    assert!(count("stencil/") >= 2);
    assert!(count("blend/") >= 6);
}

/// The benchmark scene: a few thousand triangles in one draw, depth test on.
#[test]
fn scenes_bench_draws_thousands_of_depth_tested_triangles() {
    let s = scenes::scene("bench/many_triangles").unwrap();
    let mut gpu = s.case.gpu().unwrap();
    gpu.set_pipeline(false); // the register writes are what this test reads
    assert!(matches!(gpu.run(10_000_000), Outcome::Finished { .. }));
    let beats = gpu.regwrite_beats();
    let draw = beats
        .iter()
        .position(|w| w.id == u32::from(id::DRAWELEMENTS))
        .unwrap();
    let last = |reg: u16| {
        beats[..draw]
            .iter()
            .rev()
            .find(|w| w.id == u32::from(reg))
            .map(|w| w.value)
            .unwrap()
    };
    let triangles = regs::Numvertices(last(id::NUMVERTICES)).count() / 3;
    assert!((2000..10_000).contains(&triangles), "{triangles}");
    let dc = regs::DepthColorMask(last(id::DEPTH_COLOR_MASK));
    assert!(dc.depth_test_enabled() && dc.depth_write_enabled());
    assert_eq!(dc.depth_function(), regs::CompareFunction::Less);
    assert_eq!(
        regs::PrimitiveConfig(last(id::PRIMITIVE_CONFIG)).primitive_mode(),
        regs::PrimitiveConfigMode::Triangles
    );
    assert_eq!(s.fb.width, 128);
}

#[test]
fn scenes_build_the_same_case_every_time() {
    for (a, b) in scenes::scenes().iter().zip(scenes::scenes()) {
        assert_eq!(*a, b, "{}", a.name());
    }
}
