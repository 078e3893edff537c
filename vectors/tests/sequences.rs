#![allow(clippy::unwrap_used)]
//! Cases of several steps: the GPU state is carried from one submission to the next, fills
//! land before the lists that draw over them, a hang ends the sequence, the cycle counter runs
//! on, and bundles record and replay the sequence.

use pica_model::fop::fb::{read_buffer_image, read_color_image, BufferFormat, ColorFormat};
use pica_model::knobs::FopRgb8Order;
use pica_model::regs::id;
use pica_model::{HangReason, Outcome};
use pica_vectors::bundle::{write_bundle, Bundle};
use pica_vectors::case::{Case, Step};
use pica_vectors::scenes::BG;
use pica_vectors::sequences::{self, TARGET_A_CLEAR, TARGET_B_CLEAR, TARGET_B_COLOR};
use std::fs;

/// Pixels of `img` (RGBA rows) equal to `rgba`.
fn count(img: &pica_model::fop::fb::Image, rgba: [u8; 4]) -> usize {
    img.rgba.chunks(4).filter(|p| *p == rgba).count()
}

#[test]
fn sequence_second_list_draws_with_the_state_the_first_left() {
    let (case, _) = sequences::state_carried().unwrap();
    assert_eq!(case.step_counts().submits, 2);
    let (run, gpu) = case.run_model_keep().unwrap();
    assert!(
        matches!(run.outcome, Outcome::Finished { .. }),
        "{}",
        run.outcome
    );
    let img = read_color_image(gpu.regs(), gpu.mem());
    assert_eq!((img.width, img.height), (32, 32));
    let drawn = 32 * 32 - count(&img, BG);
    assert!(drawn > 100, "the triangle covers {drawn} pixels");
    // The second list's draw is the only draw: the first list drew nothing.
    assert_eq!(gpu.pipeline_stats().draws, 1);

    // The same picture as the single list it was cut from (the draw appended to the setup).
    let mut whole = case.clone();
    whole.more.clear();
    let mut list = whole.images[0].words.clone();
    list.truncate(list.len() - 4); // the FINALIZE (and NOP) the cut added
    list.extend(&case.images.last().unwrap().words);
    whole.images[0].words = list.clone();
    whole.submit_size = (list.len() * 4) as u32;
    whole.images.pop();
    let (_, g1) = whole.run_model_keep().unwrap();
    assert_eq!(read_color_image(g1.regs(), g1.mem()), img);

    // The second list alone, on a GPU the first never ran on, has no framebuffer, no shader
    // and no attribute buffers: nothing is drawn into the buffer at the first list's address.
    let mut alone = case.clone();
    let Step::Submit { addr, size } = alone.more.remove(0) else {
        panic!("submit")
    };
    alone.submit_addr = addr;
    alone.submit_size = size;
    let (_, g2) = alone.run_model_keep().unwrap();
    let untouched = read_buffer_image(
        g2.mem(),
        pica_vectors::builder::COLOR_BASE,
        (32, 32),
        false,
        BufferFormat::Color(ColorFormat::Rgba8),
        FopRgb8Order::default(),
    );
    assert_eq!(
        count(&untouched, BG),
        32 * 32,
        "the second list alone drew something"
    );
}

#[test]
fn sequence_fills_clear_both_render_targets_before_their_lists() {
    let (case, [a, b]) = sequences::two_targets().unwrap();
    let (run, gpu) = case.run_model_keep().unwrap();
    assert!(
        matches!(run.outcome, Outcome::Finished { .. }),
        "{}",
        run.outcome
    );
    assert_eq!(run.steps_run, case.steps().len());
    assert_eq!(gpu.pipeline_stats().draws, 2);
    let order = FopRgb8Order::default();
    let img_a = read_buffer_image(
        gpu.mem(),
        a.color_addr,
        (32, 32),
        false,
        BufferFormat::Color(ColorFormat::Rgba8),
        order,
    );
    let img_b = read_buffer_image(
        gpu.mem(),
        TARGET_B_COLOR,
        (32, 32),
        false,
        BufferFormat::Color(ColorFormat::Rgb565),
        order,
    );
    let clear_a = TARGET_A_CLEAR.to_be_bytes();
    let clear_b = ColorFormat::Rgb565.decode(u32::from(TARGET_B_CLEAR));
    // Where nothing is drawn, the fill value (the corners); elsewhere a triangle.
    for img in [&img_a, &img_b] {
        for (x, row) in [(0, 0), (31, 0), (0, 31), (31, 31)] {
            let want = if std::ptr::eq(img, &img_a) {
                clear_a
            } else {
                clear_b
            };
            assert_eq!(img.pixel(x, row), Some(want), "corner ({x}, {row})");
        }
    }
    assert!(count(&img_a, clear_a) < 32 * 32 - 100, "no triangle in A");
    assert!(count(&img_b, clear_b) < 32 * 32 - 100, "no triangle in B");
    assert_eq!(
        count(&img_a, BG),
        0,
        "A shows the builder's clear: the fill did not run"
    );
    // The fill pattern itself: B is RGB565 red, stored 0xF800 little-endian.
    assert_eq!(gpu.mem().read_u32(TARGET_B_COLOR).unwrap(), 0xF800_F800);
    assert_eq!(b.color_addr, TARGET_B_COLOR);
    // The last register state is the second target's.
    assert_eq!(
        gpu.regs().reg(id::COLORBUFFER_LOC.into()),
        TARGET_B_COLOR >> 3
    );
}

#[test]
fn sequence_cycle_counter_and_registers_carry_across_submissions() {
    let case = sequences::regs_carried();
    let run = case.run_model().unwrap();
    let Outcome::Finished { cycles } = run.outcome else {
        panic!("{}", run.outcome)
    };
    // Beats are stamped on one clock: strictly increasing cycles over all three lists.
    assert!(run.beats.windows(2).all(|w| w[0].cycle < w[1].cycle));
    assert!(run.beats.last().unwrap().cycle < cycles);
    // c5, sent half by the first list and half by the second (f32 mode: w, z, then y, x).
    let (_, gpu) = case.run_model_keep().unwrap();
    let c5 = gpu.regs().units()[0].float_uniforms[5];
    let f = |v: f32| pica_model::num::F24::from_f32_bits(v.to_bits()).bits();
    assert_eq!(c5.map(|c| c.bits()), [f(4.0), f(3.0), f(2.0), f(1.0)]);
    // FOG_COLOR: list 1 wrote 0x112233, the jumped-to buffer byte 2, list 3 byte 0.
    assert_eq!(gpu.regs().reg(id::FOG_COLOR.into()), 0x00CC_22EE);
    // The 24-bit fill before the first list and the 32-bit fill after it.
    // (bytes 04 03 02 | 04: the value's low three bytes, low first, repeated)
    assert_eq!(gpu.mem().read_u32(0x1800_0000).unwrap(), 0x0402_0304);
    assert_eq!(gpu.mem().read_u32(0x1800_0100).unwrap(), 0xDEAD_BEEF);
    assert_eq!(gpu.mem().read_u32(0x1800_0200).unwrap(), 0x5A5A_5A5A);
}

#[test]
fn sequence_a_hang_ends_it() {
    let case = sequences::hang_ends_sequence();
    let (run, gpu) = case.run_model_keep().unwrap();
    assert!(
        matches!(
            run.outcome,
            Outcome::Hang {
                reason: HangReason::MissingFinalize { .. },
                ..
            }
        ),
        "{}",
        run.outcome
    );
    assert_eq!(run.steps_run, 2, "the third list must not run");
    assert_eq!(gpu.regs().reg(id::FOG_COLOR.into()), 0x0000_2201);
}

#[test]
fn sequence_submit_refused_while_running_and_after_a_hang() {
    let case = sequences::regs_carried();
    let mut gpu = case.gpu().unwrap();
    gpu.step();
    assert_eq!(
        gpu.submit(0x2000_0000, 16),
        Err(pica_model::SubmitError::Busy)
    );
    let fill = pica_model::psc::MemoryFill {
        start: 0x1800_0000,
        end: 0x1800_0008,
        value: 0,
        width: pica_model::psc::FillWidth::W32,
    };
    assert_eq!(
        gpu.memory_fill(&fill),
        Err(pica_model::psc::FillError::Busy)
    );
    let mut hung = sequences::hang_ends_sequence().gpu().unwrap();
    assert!(matches!(hung.run(1000), Outcome::Finished { .. }));
    hung.submit(sequences::LIST2_ADDR, 16).unwrap();
    assert!(matches!(hung.run(1000), Outcome::Hang { .. }));
    assert_eq!(
        hung.submit(0x2000_0000, 16),
        Err(pica_model::SubmitError::Hung)
    );
}

#[test]
fn sequence_bundles_record_and_replay_the_steps() {
    for case in pica_vectors::sequences::library_cases() {
        let dir = std::env::temp_dir().join(format!(
            "pica-seq-{}-{}",
            std::process::id(),
            case.name.replace('/', "_")
        ));
        let _ = fs::remove_dir_all(&dir);
        let run = case.run_model().unwrap();
        let m = write_bundle(&dir, &case, &run, "test").unwrap();
        let seq = m.sequence.as_ref().expect("a sequence");
        assert_eq!(seq.steps.len(), case.steps().len());
        let b = Bundle::load(&dir).unwrap();
        let back: Case = b.case().unwrap();
        assert_eq!(back.steps(), case.steps(), "{}", case.name);
        assert_eq!(b.stim, case.stim());
        assert!(b.check_model().unwrap().is_empty(), "{}", case.name);
        // steps.hex must match the manifest's steps, also with a consistent hash.
        let steps = dir.join("steps.hex");
        let text = fs::read_to_string(&steps).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines.swap(0, 1);
        let tampered = lines.join("\n") + "\n";
        fs::write(&steps, &tampered).unwrap();
        let e = Bundle::load(&dir).unwrap_err().to_string();
        assert!(e.contains("steps.hex: SHA-256"), "{e}");
        let mpath = dir.join("manifest.json");
        let mut mj: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&mpath).unwrap()).unwrap();
        let hash: String = {
            use sha2::Digest;
            sha2::Sha256::digest(tampered.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        };
        mj["files"]["steps.hex"] = serde_json::json!(hash);
        fs::write(&mpath, serde_json::to_string(&mj).unwrap()).unwrap();
        let e = Bundle::load(&dir).unwrap_err().to_string();
        assert!(e.contains("steps.hex:1: does not match"), "{e}");
        let _ = fs::remove_dir_all(&dir);
    }
}
