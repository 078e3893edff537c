//! FOP, the fragment operations and the framebuffer: every register behaviour on hand-made
//! fragments, with hand-derived stored bits.
//!
//! Each test ticks the stage alone: a hand-made RAST → FOP link, a register file set through
//! `RegFile::apply` (as REGS would) and a memory holding the buffers.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::beat::PixelBeat;
use pica_model::fop::fb::{
    self, pixel_offset, read_color_image, read_depth_image, ColorFormat, DepthFormat,
};
use pica_model::fop::{FopHang, FopPorts};
use pica_model::pipe::ShadedFragment;
use pica_model::regs::id;
use proptest::prelude::*;

mod fop_bench;
use fop_bench::{frag, Bench, CBUF, DBUF};

// Register field values (seed 002).
const NEVER: u32 = 0;
const ALWAYS: u32 = 1;
const EQUAL: u32 = 2;
const NOTEQUAL: u32 = 3;
const LESS: u32 = 4;
const LEQUAL: u32 = 5;
const GREATER: u32 = 6;
const GEQUAL: u32 = 7;

const KEEP: u32 = 0;
const ZERO: u32 = 1;
const REPLACE: u32 = 2;
const INCR: u32 = 3;
const DECR: u32 = 4;
const INVERT: u32 = 5;
const INCR_WRAP: u32 = 6;
const DECR_WRAP: u32 = 7;

const LOGIC_COPY: u32 = 3;
const LOGIC_NOOP: u32 = 6;

/// GPUREG_COLOR_OPERATION: default mode, logic op (bit 8 = 0), the required 0xE4 in 16-25.
const COLOR_OP_LOGIC: u32 = 0x00E4_0000;
/// GPUREG_COLOR_OPERATION: default mode, blending.
const COLOR_OP_BLEND: u32 = 0x00E4_0100;

/// GPUREG_DEPTH_COLOR_MASK: all four colour channels written, depth test off, no depth write.
const RGBA_MASK: u32 = 0xF << 8;
const DEPTH_WRITE: u32 = 1 << 12;

fn depth_mask(test: bool, func: u32, write: bool) -> u32 {
    RGBA_MASK | u32::from(test) | func << 4 | if write { DEPTH_WRITE } else { 0 }
}

fn blend_func(rgb_eq: u32, a_eq: u32, rgb_src: u32, rgb_dst: u32, a_src: u32, a_dst: u32) -> u32 {
    rgb_eq | a_eq << 8 | rgb_src << 16 | rgb_dst << 20 | a_src << 24 | a_dst << 28
}

fn stencil_test(enable: bool, func: u32, write_mask: u32, reference: u32, mask: u32) -> u32 {
    u32::from(enable) | func << 4 | write_mask << 8 | reference << 16 | mask << 24
}

fn stencil_op(fail: u32, zfail: u32, zpass: u32) -> u32 {
    fail | zfail << 4 | zpass << 8
}

const WHITE: [u8; 4] = [0xFF; 4];

fn discarded(b: &PixelBeat) -> bool {
    b.flags & PixelBeat::DISCARDED != 0
}

// ---- alpha test ----

/// The FOP bench with logic op Copy and all colour channels written, no tests.
fn bench() -> Bench {
    let mut b = Bench::with(COLOR_OP_LOGIC, RGBA_MASK);
    b.set(id::LOGIC_OP, LOGIC_COPY);
    b
}

#[test]
fn fop_alpha_each_function_against_reference_0x80() {
    // alpha 0x7F, 0x80, 0x81 against reference 0x80: pass (true) or discard.
    let cases = [
        (NEVER, [false, false, false]),
        (ALWAYS, [true, true, true]),
        (EQUAL, [false, true, false]),
        (NOTEQUAL, [true, false, true]),
        (LESS, [true, false, false]),
        (LEQUAL, [true, true, false]),
        (GREATER, [false, false, true]),
        (GEQUAL, [false, true, true]),
    ];
    for (func, expect) in cases {
        for (alpha, pass) in [0x7Fu8, 0x80, 0x81].into_iter().zip(expect) {
            let mut b = bench();
            b.set(id::FRAGOP_ALPHA_TEST, 1 | func << 4 | 0x80 << 8);
            let beat = b.run(frag(1, 1, 0, [1, 2, 3, alpha]));
            assert_eq!(!discarded(&beat), pass, "func {func} alpha {alpha:#x}");
            let expect_bits = if pass {
                0x0102_0300 | u32::from(alpha)
            } else {
                0
            };
            assert_eq!(b.color(1, 1), expect_bits, "func {func} alpha {alpha:#x}");
            // A failing fragment touches nothing.
            if !pass {
                assert_eq!(beat.flags, PixelBeat::DISCARDED);
                assert_eq!((beat.color, beat.depth_stencil), (0, 0));
            }
        }
    }
}

#[test]
fn fop_alpha_disabled_passes_even_with_never() {
    let mut b = bench();
    b.set(id::FRAGOP_ALPHA_TEST, NEVER << 4 | 0x80 << 8); // enable bit 0 clear
    let beat = b.run(frag(0, 0, 0, [9, 8, 7, 6]));
    assert!(!discarded(&beat));
    assert_eq!(b.color(0, 0), 0x0908_0706);
}

// ---- stencil ----

/// Runs one fragment over stored stencil `old` (depth 0) with the given stencil registers
/// and depth test; returns the stored stencil after and the beat.
fn stencil_case(old: u8, test: u32, op: u32, depth_test: u32) -> (u8, PixelBeat) {
    let mut b = bench();
    b.set_ds(2, 3, u32::from(old) << 24);
    b.set(id::STENCIL_TEST, test);
    b.set(id::STENCIL_OP, op);
    b.set(id::DEPTH_COLOR_MASK, depth_test);
    let beat = b.run(frag(2, 3, 0x10, WHITE));
    ((b.ds(2, 3) >> 24) as u8, beat)
}

#[test]
fn fop_stencil_each_action_on_zpass() {
    // Test Always with every action as the z-pass action (depth test off: passes).
    let cases = [
        (KEEP, 0x05, 0x05),
        (ZERO, 0x05, 0x00),
        (REPLACE, 0x05, 0x3C),
        (INCR, 0x05, 0x06),
        (INCR, 0xFF, 0xFF), // saturates
        (DECR, 0x05, 0x04),
        (DECR, 0x00, 0x00), // saturates
        (INVERT, 0x05, 0xFA),
        (INCR_WRAP, 0xFF, 0x00),
        (INCR_WRAP, 0x05, 0x06),
        (DECR_WRAP, 0x00, 0xFF),
        (DECR_WRAP, 0x05, 0x04),
    ];
    for (action, old, new) in cases {
        let (s, beat) = stencil_case(
            old,
            stencil_test(true, ALWAYS, 0xFF, 0x3C, 0xFF),
            stencil_op(KEEP, KEEP, action),
            RGBA_MASK,
        );
        assert_eq!(s, new, "action {action} old {old:#x}");
        assert!(!discarded(&beat));
        assert_eq!(
            beat.flags,
            PixelBeat::STENCIL_WRITTEN | PixelBeat::COLOR_WRITTEN
        );
    }
}

#[test]
fn fop_stencil_fail_runs_the_fail_action_and_discards() {
    // Test Never: the fail action (Invert) runs, nothing else is written.
    let (s, beat) = stencil_case(
        0x0F,
        stencil_test(true, NEVER, 0xFF, 0, 0xFF),
        stencil_op(INVERT, ZERO, ZERO),
        depth_mask(false, ALWAYS, true),
    );
    assert_eq!(s, 0xF0);
    assert_eq!(
        beat.flags,
        PixelBeat::DISCARDED | PixelBeat::STENCIL_WRITTEN
    );
    // Depth kept (0), stencil in the top byte.
    assert_eq!(beat.depth_stencil, 0xF000_0000);
}

#[test]
fn fop_stencil_depth_fail_runs_the_zfail_action() {
    let (s, beat) = stencil_case(
        0x20,
        stencil_test(true, ALWAYS, 0xFF, 0x77, 0xFF),
        stencil_op(ZERO, REPLACE, INVERT),
        depth_mask(true, NEVER, true),
    );
    assert_eq!(s, 0x77);
    assert_eq!(
        beat.flags,
        PixelBeat::DISCARDED | PixelBeat::STENCIL_WRITTEN
    );
}

#[test]
fn fop_stencil_write_mask_keeps_unmasked_bits() {
    // Replace 0xAB under write mask 0x0F over 0x50: (0xAB & 0x0F) | (0x50 & 0xF0) = 0x5B.
    let (s, _) = stencil_case(
        0x50,
        stencil_test(true, ALWAYS, 0x0F, 0xAB, 0xFF),
        stencil_op(KEEP, KEEP, REPLACE),
        RGBA_MASK,
    );
    assert_eq!(s, 0x5B);
    // Write mask 0: nothing changes (the store still happens).
    let (s, beat) = stencil_case(
        0x50,
        stencil_test(true, ALWAYS, 0x00, 0xAB, 0xFF),
        stencil_op(KEEP, KEEP, REPLACE),
        RGBA_MASK,
    );
    assert_eq!(s, 0x50);
    assert_ne!(beat.flags & PixelBeat::STENCIL_WRITTEN, 0);
}

#[test]
fn fop_stencil_test_mask_and_operand_order() {
    // Equal, reference 0x12, stored 0x32: equal under mask 0x0F (2 == 2), not under 0xFF.
    let pass = |old: u8, func: u32, reference: u32, mask: u32| {
        let (_, beat) = stencil_case(
            old,
            stencil_test(true, func, 0xFF, reference, mask),
            stencil_op(KEEP, KEEP, KEEP),
            RGBA_MASK,
        );
        !discarded(&beat)
    };
    assert!(pass(0x32, EQUAL, 0x12, 0x0F));
    assert!(!pass(0x32, EQUAL, 0x12, 0xFF));
    // Less: reference < stored.
    assert!(pass(5, LESS, 3, 0xFF));
    assert!(!pass(3, LESS, 5, 0xFF));
    assert!(pass(3, GREATER, 5, 0xFF));
    assert!(pass(5, LEQUAL, 5, 0xFF));
    assert!(pass(5, GEQUAL, 5, 0xFF));
    assert!(pass(4, NOTEQUAL, 5, 0xFF));
    // The mask applies to both sides: 0xF3 vs 0x03 under 0x0F are equal.
    assert!(pass(0x03, EQUAL, 0xF3, 0x0F));
}

#[test]
fn fop_stencil_reference_uses_its_raw_eight_bits() {
    // The seed calls the reference signed: 0xF0 (-16) must still replace as 0xF0.
    let (s, _) = stencil_case(
        0,
        stencil_test(true, ALWAYS, 0xFF, 0xF0, 0xFF),
        stencil_op(KEEP, KEEP, REPLACE),
        RGBA_MASK,
    );
    assert_eq!(s, 0xF0);
    // And compares as 0xF0: Greater than stored 0x10.
    let (_, beat) = stencil_case(
        0x10,
        stencil_test(true, GREATER, 0xFF, 0xF0, 0xFF),
        stencil_op(KEEP, KEEP, KEEP),
        RGBA_MASK,
    );
    assert!(!discarded(&beat));
}

#[test]
fn fop_stencil_needs_a_stencil_buffer() {
    // D24: the stencil test (Never) does not run, the fragment passes, no stencil write.
    let mut b = bench();
    b.set(id::DEPTHBUFFER_FORMAT, 2);
    b.set(id::STENCIL_TEST, stencil_test(true, NEVER, 0xFF, 0, 0xFF));
    b.set(id::STENCIL_OP, stencil_op(ZERO, ZERO, ZERO));
    let beat = b.run(frag(0, 0, 0, WHITE));
    assert_eq!(beat.flags, PixelBeat::COLOR_WRITTEN);
}

#[test]
fn fop_stencil_disabled_writes_nothing() {
    let (s, beat) = stencil_case(
        0x42,
        stencil_test(false, NEVER, 0xFF, 0, 0xFF),
        stencil_op(ZERO, ZERO, ZERO),
        RGBA_MASK,
    );
    assert_eq!(s, 0x42);
    assert_eq!(beat.flags, PixelBeat::COLOR_WRITTEN);
}

// ---- depth ----

#[test]
fn fop_depth_each_function_against_stored_0x800000() {
    let cases = [
        (NEVER, [false, false, false]),
        (ALWAYS, [true, true, true]),
        (EQUAL, [false, true, false]),
        (NOTEQUAL, [true, false, true]),
        (LESS, [true, false, false]),
        (LEQUAL, [true, true, false]),
        (GREATER, [false, false, true]),
        (GEQUAL, [false, true, true]),
    ];
    for (func, expect) in cases {
        for (z, pass) in [0x7F_FFFFu32, 0x80_0000, 0x80_0001].into_iter().zip(expect) {
            let mut b = bench();
            b.set(id::DEPTHBUFFER_FORMAT, 2); // D24
            b.set_ds(5, 6, 0x80_0000);
            b.set(id::DEPTH_COLOR_MASK, depth_mask(true, func, true));
            let beat = b.run(frag(5, 6, z, WHITE));
            assert_eq!(!discarded(&beat), pass, "func {func} z {z:#x}");
            assert_eq!(b.ds(5, 6), if pass { z } else { 0x80_0000 });
            assert_eq!(b.color(5, 6), if pass { 0xFFFF_FFFF } else { 0 });
            let flags = if pass {
                PixelBeat::DEPTH_WRITTEN | PixelBeat::COLOR_WRITTEN
            } else {
                PixelBeat::DISCARDED
            };
            assert_eq!(beat.flags, flags, "func {func} z {z:#x}");
        }
    }
}

#[test]
fn fop_depth_test_disabled_still_writes() {
    // Seed 002: test disabled = function Always; the write bit still writes. Even with the
    // function field set to Never.
    let mut b = bench();
    b.set_ds(0, 0, 0x00AA_AAAA | 0x5500_0000);
    b.set(id::DEPTH_COLOR_MASK, depth_mask(false, NEVER, true));
    let beat = b.run(frag(0, 0, 0x12_3456, WHITE));
    assert!(!discarded(&beat));
    // Depth replaced, stencil byte kept (stencil test off: no stencil write).
    assert_eq!(b.ds(0, 0), 0x5512_3456);
    assert_eq!(
        beat.flags,
        PixelBeat::DEPTH_WRITTEN | PixelBeat::COLOR_WRITTEN
    );
    assert_eq!(beat.depth_stencil, 0x5512_3456);
}

#[test]
fn fop_depth_test_and_write_both_off_touch_nothing() {
    let mut b = bench();
    b.set_ds(0, 0, 0x00AA_AAAA);
    b.set(id::DEPTH_COLOR_MASK, depth_mask(false, NEVER, false));
    let beat = b.run(frag(0, 0, 0x12_3456, WHITE));
    assert_eq!(b.ds(0, 0), 0x00AA_AAAA);
    assert_eq!(beat.flags, PixelBeat::COLOR_WRITTEN);
}

#[test]
fn fop_depth_disabled_test_runs_zpass_stencil_action() {
    let (s, beat) = stencil_case(
        7,
        stencil_test(true, ALWAYS, 0xFF, 0, 0xFF),
        stencil_op(ZERO, ZERO, INCR),
        depth_mask(false, NEVER, false),
    );
    assert_eq!(s, 8);
    assert!(!discarded(&beat));
}

#[test]
fn fop_depth_d16_compares_sixteen_bits() {
    let mut b = bench();
    b.set(id::DEPTHBUFFER_FORMAT, 0);
    b.set_ds(3, 3, 0x1234);
    b.set(id::DEPTH_COLOR_MASK, depth_mask(true, LESS, true));
    assert!(!discarded(&b.run(frag(3, 3, 0x1233, WHITE))));
    assert_eq!(b.ds(3, 3), 0x1233);
    assert!(discarded(&b.run(frag(3, 3, 0x1233, WHITE))));
    // Bits above the format's width are masked: 0x1_1232 compares (and stores) as 0x1232.
    assert!(!discarded(&b.run(frag(3, 3, 0x1_1232, WHITE))));
    assert_eq!(b.ds(3, 3), 0x1232);
    // Only two bytes are written: the byte after the pixel (pixel x=2 of the tile) stays.
    let addr = b.layout().depth_addr(3, 3).unwrap();
    assert_eq!(b.mem.read_u8(addr + 2).unwrap(), 0);
}

// ---- blending ----

const SRC: [u8; 4] = [200, 100, 50, 128];
const DST: [u8; 4] = [40, 80, 160, 64];
const CONST: [u8; 4] = [10, 20, 30, 40];

fn rgba8(c: [u8; 4]) -> u32 {
    u32::from_be_bytes(c)
}

/// Blends SRC over DST (RGBA8) with BLEND_FUNC `f` and BLEND_COLOR CONST; the result.
fn blend(f: u32) -> [u8; 4] {
    let mut b = bench();
    b.set(id::COLOR_OPERATION, COLOR_OP_BLEND);
    b.set(id::BLEND_FUNC, f);
    b.set(id::BLEND_COLOR, u32::from_le_bytes(CONST));
    b.set_color(4, 4, rgba8(DST));
    b.run(frag(4, 4, 0, SRC));
    b.color(4, 4).to_be_bytes()
}

const ADD: u32 = 0;
const SUB: u32 = 1;
const REVSUB: u32 = 2;
const MIN: u32 = 3;
const MAX: u32 = 4;
const F_ZERO: u32 = 0;
const F_ONE: u32 = 1;
const F_SRC_ALPHA: u32 = 6;
const F_ONE_MINUS_SRC_ALPHA: u32 = 7;

#[test]
fn fop_blend_each_equation_with_one_one() {
    let one_one = |eq: u32| blend(blend_func(eq, eq, F_ONE, F_ONE, F_ONE, F_ONE));
    // s = [200, 100, 50, 128], d = [40, 80, 160, 64].
    assert_eq!(one_one(ADD), [240, 180, 210, 192]);
    assert_eq!(one_one(SUB), [160, 20, 0, 64]); // 50 - 160 < 0 → 0
    assert_eq!(one_one(REVSUB), [0, 0, 110, 0]);
    assert_eq!(one_one(MIN), [40, 80, 50, 64]);
    assert_eq!(one_one(MAX), [200, 100, 160, 128]);
    // Equations 5-7 behave as Add.
    for eq in 5..8 {
        assert_eq!(one_one(eq), [240, 180, 210, 192], "equation {eq}");
    }
}

#[test]
fn fop_blend_add_saturates() {
    // Source One + destination One on 200 + 160 = 360 → 255; alpha 128 + 255 → 255.
    let mut b = bench();
    b.set(id::COLOR_OPERATION, COLOR_OP_BLEND);
    b.set(
        id::BLEND_FUNC,
        blend_func(ADD, ADD, F_ONE, F_ONE, F_ONE, F_ONE),
    );
    b.set_color(0, 0, rgba8([160, 160, 160, 255]));
    b.run(frag(0, 0, 0, SRC));
    assert_eq!(b.color(0, 0).to_be_bytes(), [255, 255, 210, 255]);
}

#[test]
fn fop_blend_rgb_and_alpha_equations_are_separate() {
    // RGB Add, alpha Reverse subtract (64 - 128 < 0 → 0).
    assert_eq!(
        blend(blend_func(ADD, REVSUB, F_ONE, F_ONE, F_ONE, F_ONE)),
        [240, 180, 210, 0]
    );
    // RGB Min, alpha Max.
    assert_eq!(
        blend(blend_func(MIN, MAX, F_ONE, F_ONE, F_ONE, F_ONE)),
        [40, 80, 50, 128]
    );
}

#[test]
fn fop_blend_min_max_apply_the_factors() {
    // Source factor = source alpha (128), destination factor One:
    // r: min(200*128 = 25600, 40*255 = 10200) / 255 = 40
    // g: min(12800, 20400) / 255 = 50.19 → 50
    // b: min(6400, 40800) / 255 = 25.09 → 25
    // a: min(128*128 = 16384, 64*255 = 16320) / 255 = 64
    assert_eq!(
        blend(blend_func(MIN, MIN, F_SRC_ALPHA, F_ONE, F_SRC_ALPHA, F_ONE)),
        [40, 50, 25, 64]
    );
    // max: r 25600/255 = 100.39 → 100; g 20400/255 = 80; b 40800/255 = 160;
    // a 16384/255 = 64.25 → 64.
    assert_eq!(
        blend(blend_func(MAX, MAX, F_SRC_ALPHA, F_ONE, F_SRC_ALPHA, F_ONE)),
        [100, 80, 160, 64]
    );
}

#[test]
fn fop_blend_classic_alpha_truncates() {
    // src * 128 + dst * 127, truncated /255:
    // r: (25600 + 5080) = 30680 / 255 = 120.3 → 120
    // g: (12800 + 10160) = 22960 / 255 = 90.04 → 90
    // b: (6400 + 20320) = 26720 / 255 = 104.8 → 104 (rounding would give 105)
    // a: (16384 + 8128) = 24512 / 255 = 96.1 → 96
    assert_eq!(
        blend(blend_func(
            ADD,
            ADD,
            F_SRC_ALPHA,
            F_ONE_MINUS_SRC_ALPHA,
            F_SRC_ALPHA,
            F_ONE_MINUS_SRC_ALPHA
        )),
        [120, 90, 104, 96]
    );
}

#[test]
fn fop_blend_each_factor_as_source_factor() {
    // Source factor F on all channels, destination factor Zero, Add: s * F / 255 truncated.
    // s = [200, 100, 50, 128], d = [40, 80, 160, 64], constant = [10, 20, 30, 40].
    let cases: [(u32, [u8; 4], [u8; 4]); 15] = [
        (0, [0, 0, 0, 0], [0, 0, 0, 0]),                // Zero
        (1, [255, 255, 255, 255], [200, 100, 50, 128]), // One
        (2, [200, 100, 50, 128], [156, 39, 9, 64]),     // source colour
        (3, [55, 155, 205, 127], [43, 60, 40, 63]),     // 1 - source colour
        (4, [40, 80, 160, 64], [31, 31, 31, 32]),       // destination colour
        (5, [215, 175, 95, 191], [168, 68, 18, 95]),    // 1 - destination colour
        (6, [128, 128, 128, 128], [100, 50, 25, 64]),   // source alpha
        (7, [127, 127, 127, 127], [99, 49, 24, 63]),    // 1 - source alpha
        (8, [64, 64, 64, 64], [50, 25, 12, 32]),        // destination alpha
        (9, [191, 191, 191, 191], [149, 74, 37, 95]),   // 1 - destination alpha
        (10, [10, 20, 30, 40], [7, 7, 5, 20]),          // constant colour
        (11, [245, 235, 225, 215], [192, 92, 44, 107]), // 1 - constant colour
        (12, [40, 40, 40, 40], [31, 15, 7, 20]),        // constant alpha
        (13, [215, 215, 215, 215], [168, 84, 42, 107]), // 1 - constant alpha
        (14, [128, 128, 128, 255], [100, 50, 25, 128]), // saturate: min(128, 255-64); a: 1
    ];
    for (f, factor, expect) in cases {
        // The factor column documents the derivation: s * factor / 255.
        for ch in 0..4 {
            let v = u32::from(SRC[ch]) * u32::from(factor[ch]) / 255;
            assert_eq!(v, u32::from(expect[ch]), "table self-check f={f} ch={ch}");
        }
        assert_eq!(
            blend(blend_func(ADD, ADD, f, F_ZERO, f, F_ZERO)),
            expect,
            "source factor {f}"
        );
    }
}

#[test]
fn fop_blend_each_factor_as_destination_factor() {
    // Source factor Zero, destination factor F: d * F / 255 truncated.
    let cases: [(u32, [u8; 4]); 15] = [
        (0, [0, 0, 0, 0]),
        (1, [40, 80, 160, 64]),
        (2, [31, 31, 31, 32]), // d * s: 40*200/255 = 31.4, 80*100 = 31.4, 160*50 = 31.4, 64*128 = 32.1
        (3, [8, 48, 128, 31]), // d * (255 - s): 40*55 = 8.6, 80*155 = 48.6, 160*205 = 128.6, 64*127 = 31.9
        (4, [6, 25, 100, 16]), // d * d: 1600/255 = 6.3, 6400 → 25.1, 25600 → 100.4, 4096 → 16.1
        (5, [33, 54, 59, 47]), // d * (255 - d): 40*215 = 33.7, 80*175 = 54.9, 160*95 = 59.6, 64*191 = 47.9
        (6, [20, 40, 80, 32]), // d * 128: 20.08, 40.16, 80.3, 32.1
        (7, [19, 39, 79, 31]), // d * 127: 19.9, 39.8, 79.7, 31.9
        (8, [10, 20, 40, 16]), // d * 64: 10.04, 20.08, 40.16, 16.06
        (9, [29, 59, 119, 47]), // d * 191: 29.96, 59.9, 119.8, 47.9
        (10, [1, 6, 18, 10]),  // d * const: 400/255 = 1.6, 1600 → 6.3, 4800 → 18.8, 2560 → 10.04
        (11, [38, 73, 141, 53]), // d * (255 - const): 40*245 = 38.4, 80*235 = 73.7, 160*225 = 141.2, 64*215 = 53.96
        (12, [6, 12, 25, 10]),   // d * 40: 6.3, 12.5, 25.1, 10.04
        (13, [33, 67, 134, 53]), // d * 215: 33.7, 67.45, 134.9, 53.96
        (14, [20, 40, 80, 64]),  // d * min(128, 191) on rgb, d * 255 on alpha
    ];
    for (f, expect) in cases {
        assert_eq!(
            blend(blend_func(ADD, ADD, F_ZERO, f, F_ZERO, f)),
            expect,
            "destination factor {f}"
        );
    }
}

#[test]
fn fop_blend_alpha_saturate_uses_destination_alpha() {
    // Source alpha 200, destination alpha 100: rgb factor min(200, 155) = 155.
    let mut b = bench();
    b.set(id::COLOR_OPERATION, COLOR_OP_BLEND);
    b.set(id::BLEND_FUNC, blend_func(ADD, ADD, 14, F_ZERO, 14, F_ZERO));
    b.set_color(0, 0, rgba8([0, 0, 0, 100]));
    b.run(frag(0, 0, 0, [255, 51, 0, 200]));
    // 255*155/255 = 155, 51*155/255 = 31, 0, alpha 200*255/255 = 200.
    assert_eq!(b.color(0, 0).to_be_bytes(), [155, 31, 0, 200]);
}

// ---- logic ops ----

#[test]
fn fop_logic_all_sixteen_ops() {
    // s = 0xCA = 1100_1010, d = 0xA6 = 1010_0110 on every channel.
    let expect: [u8; 16] = [
        0x00, // clear
        0x82, // s & d
        0x48, // s & !d
        0xCA, // s
        0xFF, // set
        0x35, // !s
        0xA6, // d
        0x59, // !d
        0x7D, // !(s & d)
        0xEE, // s | d
        0x11, // !(s | d)
        0x6C, // s ^ d
        0x93, // !(s ^ d)
        0x24, // !s & d
        0xDB, // s | !d
        0xB7, // !s | d
    ];
    for (op, e) in expect.into_iter().enumerate() {
        let mut b = bench();
        b.set(id::LOGIC_OP, op as u32);
        b.set_color(6, 1, 0xA6A6_A6A6);
        b.run(frag(6, 1, 0, [0xCA; 4]));
        assert_eq!(b.color(6, 1), u32::from_be_bytes([e; 4]), "logic op {op}");
    }
}

#[test]
fn fop_logic_op_is_per_channel() {
    // Xor of distinct channels.
    let mut b = bench();
    b.set(id::LOGIC_OP, 11);
    b.set_color(0, 0, rgba8([0x0F, 0xF0, 0xFF, 0x00]));
    b.run(frag(0, 0, 0, [0xFF, 0xFF, 0x0F, 0x81]));
    assert_eq!(b.color(0, 0).to_be_bytes(), [0xF0, 0x0F, 0xF0, 0x81]);
}

// ---- write masks and enables ----

#[test]
fn fop_color_write_masks_keep_masked_channels() {
    let dst = [1, 2, 3, 4];
    let src = [0xA0, 0xB0, 0xC0, 0xD0];
    for mask in 0..16u32 {
        let mut b = bench();
        b.set(id::DEPTH_COLOR_MASK, mask << 8);
        b.set_color(7, 7, rgba8(dst));
        let beat = b.run(frag(7, 7, 0, src));
        let expect: [u8; 4] =
            [0, 1, 2, 3].map(|i| if mask & (1 << i) != 0 { src[i] } else { dst[i] });
        assert_eq!(b.color(7, 7).to_be_bytes(), expect, "mask {mask:#x}");
        // The pixel is written even with every channel masked (with its own value).
        assert_eq!(beat.flags, PixelBeat::COLOR_WRITTEN);
    }
}

#[test]
fn fop_color_read_disabled_sees_zero_bits() {
    // Logic op Noop returns the destination: with reads off that is 0.
    let mut b = bench();
    b.set(id::LOGIC_OP, LOGIC_NOOP);
    b.set(id::COLORBUFFER_READ, 0);
    b.set_color(2, 2, 0x1122_3344);
    let beat = b.run(frag(2, 2, 0, WHITE));
    assert_eq!(b.color(2, 2), 0);
    assert_eq!(beat.color, 0);
    // Blend One + One with reads off: source + 0.
    let mut b = bench();
    b.set(id::COLOR_OPERATION, COLOR_OP_BLEND);
    b.set(
        id::BLEND_FUNC,
        blend_func(ADD, ADD, F_ONE, F_ONE, F_ONE, F_ONE),
    );
    b.set(id::COLORBUFFER_READ, 0);
    b.set_color(2, 2, 0x1122_3344);
    b.run(frag(2, 2, 0, [1, 2, 3, 4]));
    assert_eq!(b.color(2, 2), 0x0102_0304);
    // RGB565 with reads off: the destination is the decoding of 0, alpha 255 — a masked-off
    // channel is written as 0.
    let mut b = bench();
    b.color_format(3);
    b.set(id::COLORBUFFER_READ, 0);
    b.set(id::DEPTH_COLOR_MASK, 0x1 << 8); // red only
    b.set_color(0, 0, 0xFFFF);
    b.run(frag(0, 0, 0, [0xFF, 0xFF, 0xFF, 0xFF]));
    assert_eq!(b.color(0, 0), 0xF800);
}

#[test]
fn fop_color_write_disabled_keeps_memory() {
    let mut b = bench();
    b.set(id::COLORBUFFER_WRITE, 0);
    b.set_color(1, 0, 0x1122_3344);
    let beat = b.run(frag(1, 0, 0, WHITE));
    assert_eq!(b.color(1, 0), 0x1122_3344);
    assert_eq!(beat.flags, 0);
    // The beat shows what FOP read.
    assert_eq!(beat.color, 0x1122_3344);
}

#[test]
fn fop_color_access_value_any_nonzero_enables() {
    let mut b = bench();
    b.set(id::COLORBUFFER_WRITE, 0x2);
    b.run(frag(0, 0, 0, WHITE));
    assert_eq!(b.color(0, 0), 0xFFFF_FFFF);
}

#[test]
fn fop_depth_read_disabled_sees_zero() {
    // Stored depth 0xFFFFFF, reads off: Less (z < 0) fails for z = 5, Greater passes.
    for (func, pass) in [(LESS, false), (GREATER, true)] {
        let mut b = bench();
        b.set(id::DEPTHBUFFER_READ, 1); // stencil read only
        b.set_ds(0, 0, 0x00FF_FFFF);
        b.set(id::DEPTH_COLOR_MASK, depth_mask(true, func, false));
        let beat = b.run(frag(0, 0, 5, WHITE));
        assert_eq!(!discarded(&beat), pass, "func {func}");
    }
}

#[test]
fn fop_stencil_read_disabled_sees_zero() {
    // Stored stencil 0x80, stencil reads off: Equal to reference 0 passes; Incr stores 1.
    let mut b = bench();
    b.set(id::DEPTHBUFFER_READ, 2); // depth read only
    b.set_ds(0, 0, 0x8000_0000);
    b.set(id::STENCIL_TEST, stencil_test(true, EQUAL, 0xFF, 0, 0xFF));
    b.set(id::STENCIL_OP, stencil_op(KEEP, KEEP, INCR));
    let beat = b.run(frag(0, 0, 0, WHITE));
    assert!(!discarded(&beat));
    assert_eq!(b.ds(0, 0), 0x0100_0000);
}

#[test]
fn fop_depth_stencil_writes_are_separately_enabled() {
    // Depth write only: bytes 0-2 change, the stencil byte stays.
    let mut b = bench();
    b.set(id::DEPTHBUFFER_WRITE, 2);
    b.set_ds(0, 0, 0x7711_1111);
    b.set(
        id::STENCIL_TEST,
        stencil_test(true, ALWAYS, 0xFF, 0x22, 0xFF),
    );
    b.set(id::STENCIL_OP, stencil_op(KEEP, KEEP, REPLACE));
    b.set(id::DEPTH_COLOR_MASK, depth_mask(false, ALWAYS, true));
    let beat = b.run(frag(0, 0, 0xABCDEF, WHITE));
    assert_eq!(b.ds(0, 0), 0x77AB_CDEF);
    assert_eq!(
        beat.flags,
        PixelBeat::DEPTH_WRITTEN | PixelBeat::COLOR_WRITTEN
    );
    assert_eq!(beat.depth_stencil, 0x77AB_CDEF);
    // Stencil write only: byte 3 changes.
    let mut b = bench();
    b.set(id::DEPTHBUFFER_WRITE, 1);
    b.set_ds(0, 0, 0x7711_1111);
    b.set(
        id::STENCIL_TEST,
        stencil_test(true, ALWAYS, 0xFF, 0x22, 0xFF),
    );
    b.set(id::STENCIL_OP, stencil_op(KEEP, KEEP, REPLACE));
    b.set(id::DEPTH_COLOR_MASK, depth_mask(false, ALWAYS, true));
    let beat = b.run(frag(0, 0, 0xABCDEF, WHITE));
    assert_eq!(b.ds(0, 0), 0x2211_1111);
    assert_eq!(
        beat.flags,
        PixelBeat::STENCIL_WRITTEN | PixelBeat::COLOR_WRITTEN
    );
    // Both: one 4-byte write.
    let mut b = bench();
    b.set_ds(0, 0, 0x7711_1111);
    b.set(
        id::STENCIL_TEST,
        stencil_test(true, ALWAYS, 0xFF, 0x22, 0xFF),
    );
    b.set(id::STENCIL_OP, stencil_op(KEEP, KEEP, REPLACE));
    b.set(id::DEPTH_COLOR_MASK, depth_mask(false, ALWAYS, true));
    b.run(frag(0, 0, 0xABCDEF, WHITE));
    assert_eq!(b.ds(0, 0), 0x22AB_CDEF);
    // Neither.
    let mut b = bench();
    b.set(id::DEPTHBUFFER_WRITE, 0);
    b.set_ds(0, 0, 0x7711_1111);
    b.set(
        id::STENCIL_TEST,
        stencil_test(true, ALWAYS, 0xFF, 0x22, 0xFF),
    );
    b.set(id::STENCIL_OP, stencil_op(KEEP, KEEP, REPLACE));
    b.set(id::DEPTH_COLOR_MASK, depth_mask(false, ALWAYS, true));
    let beat = b.run(frag(0, 0, 0xABCDEF, WHITE));
    assert_eq!(b.ds(0, 0), 0x7711_1111);
    assert_eq!(beat.flags, PixelBeat::COLOR_WRITTEN);
}

// ---- formats ----

#[test]
fn fop_color_formats_store_exact_bytes() {
    // Colour [0x12, 0x34, 0x56, 0x78] in every format: the stored bits, the bytes in memory
    // (lowest address first) and what decoding them gives back.
    //   RGB5A1: r 0x12>>3 = 2, g 0x34>>3 = 6, b 0x56>>3 = 10, a 0x78>>7 = 0
    //           → 2<<11 | 6<<6 | 10<<1 | 0 = 0x1194; decode 2 → 0x10, 6 → 0x31, 10 → 0x52
    //   RGB565: r 2, g 0x34>>2 = 13, b 10 → 0x1000 | 0x1A0 | 0xA = 0x11AA; 13 → 0x34
    //   RGBA4:  1, 3, 5, 7 → 0x1357; decode 0x11, 0x33, 0x55, 0x77
    let c = [0x12, 0x34, 0x56, 0x78];
    let cases: [(u32, u32, &[u8], [u8; 4]); 5] = [
        (
            0,
            0x1234_5678,
            &[0x78, 0x56, 0x34, 0x12],
            [0x12, 0x34, 0x56, 0x78],
        ),
        (1, 0x12_3456, &[0x56, 0x34, 0x12], [0x12, 0x34, 0x56, 0xFF]),
        (2, 0x1194, &[0x94, 0x11], [0x10, 0x31, 0x52, 0x00]),
        (3, 0x11AA, &[0xAA, 0x11], [0x10, 0x34, 0x52, 0xFF]),
        (4, 0x1357, &[0x57, 0x13], [0x11, 0x33, 0x55, 0x77]),
    ];
    for (format, bits, bytes, decoded) in cases {
        let fmt = ColorFormat::from_field(format).unwrap();
        assert_eq!(fmt.encode(c), bits, "format {format}");
        assert_eq!(fmt.decode(bits), decoded, "format {format}");
        assert_eq!(fmt.bytes_per_pixel() as usize, bytes.len());
        // Through FOP: the bytes in memory, and nothing past the pixel.
        let mut b = bench();
        b.color_format(format);
        b.mem.write_bytes(CBUF, &[0xEE; 8]).unwrap();
        // Window (0, 7) is memory row 0, offset 0: the first bytes of the buffer.
        let beat = b.run(frag(0, 7, 0, c));
        assert_eq!(beat.color_addr, CBUF);
        assert_eq!(beat.color, bits);
        for (i, byte) in bytes.iter().enumerate() {
            assert_eq!(
                b.mem.read_u8(CBUF + i as u32).unwrap(),
                *byte,
                "format {format}"
            );
        }
        assert_eq!(b.mem.read_u8(CBUF + bytes.len() as u32).unwrap(), 0xEE);
    }
}

#[test]
fn fop_color_formats_round_trip() {
    // Every 16-bit pattern survives decode → encode (RGB565 has no alpha: any alpha).
    for format in [2, 3, 4] {
        let fmt = ColorFormat::from_field(format).unwrap();
        for bits in 0..=0xFFFFu32 {
            assert_eq!(
                fmt.encode(fmt.decode(bits)),
                bits,
                "format {format} {bits:#x}"
            );
        }
    }
    // The 8-bit formats are exact both ways.
    for v in [0u32, 0x0102_0304, 0xFFFF_FFFF, 0x80FF_0180] {
        let f = ColorFormat::Rgba8;
        assert_eq!(f.encode(f.decode(v)), v);
        let f = ColorFormat::Rgb8;
        assert_eq!(f.encode(f.decode(v & 0xFF_FFFF)), v & 0xFF_FFFF);
    }
    // Reduced formats keep the top bits: RGBA4 of 0x9F stores 9 and reads back 0x99.
    assert_eq!(
        ColorFormat::Rgba4.decode(ColorFormat::Rgba4.encode([0x9F; 4])),
        [0x99; 4]
    );
}

#[test]
fn fop_depth_formats_store_exact_bytes() {
    let cases: [(u32, u32, u8, u32, &[u8]); 3] = [
        (0, 0xBEEF, 0x9A, 0xBEEF, &[0xEF, 0xBE]),
        (2, 0x12_3456, 0x9A, 0x12_3456, &[0x56, 0x34, 0x12]),
        (3, 0x12_3456, 0x9A, 0x9A12_3456, &[0x56, 0x34, 0x12, 0x9A]),
    ];
    for (format, depth, stencil, bits, bytes) in cases {
        let fmt = DepthFormat::from_field(format).unwrap();
        assert_eq!(fmt.encode(depth, stencil), bits);
        assert_eq!(fmt.depth(bits), depth);
        assert_eq!(fmt.stencil(bits), if format == 3 { stencil } else { 0 });
        assert_eq!(fmt.bytes_per_pixel() as usize, bytes.len());
        // Through FOP: depth test off, depth write, stencil Replace 0x9A.
        let mut b = bench();
        b.set(id::DEPTHBUFFER_FORMAT, format);
        b.set(
            id::STENCIL_TEST,
            stencil_test(true, ALWAYS, 0xFF, 0x9A, 0xFF),
        );
        b.set(id::STENCIL_OP, stencil_op(KEEP, KEEP, REPLACE));
        b.set(id::DEPTH_COLOR_MASK, depth_mask(false, ALWAYS, true));
        b.mem.write_bytes(DBUF, &[0xEE; 8]).unwrap();
        let beat = b.run(frag(0, 7, depth, WHITE));
        assert_eq!(beat.depth_addr, DBUF);
        assert_eq!(beat.depth_stencil, bits, "format {format}");
        for (i, byte) in bytes.iter().enumerate() {
            assert_eq!(
                b.mem.read_u8(DBUF + i as u32).unwrap(),
                *byte,
                "format {format}"
            );
        }
        assert_eq!(b.mem.read_u8(DBUF + bytes.len() as u32).unwrap(), 0xEE);
    }
    // Encoding masks to the format's width and drops stencil without a stencil byte.
    assert_eq!(DepthFormat::D16.encode(0x12_3456, 0xFF), 0x3456);
    assert_eq!(DepthFormat::D24.encode(0xFF12_3456, 0xFF), 0x12_3456);
}

#[test]
fn fop_reserved_formats_hang() {
    let mut b = bench();
    b.set(id::DEPTHBUFFER_FORMAT, 1);
    assert_eq!(
        b.try_run(frag(0, 0, 0, WHITE)),
        Err(FopHang::ReservedFormat {
            buffer: "depth",
            value: 1
        })
    );
    let mut b = bench();
    b.color_format(5);
    assert_eq!(
        b.try_run(frag(0, 0, 0, WHITE)),
        Err(FopHang::ReservedFormat {
            buffer: "color",
            value: 5
        })
    );
}

// ---- tiling ----

#[test]
fn fop_tiling_8x8_addresses() {
    // 16×16 buffer, 4 bytes per pixel; memory row y' = 15 - y.
    let off = |x, y| pixel_offset(x, y, 16, 16, 4, false).unwrap();
    assert_eq!(off(0, 15), 0); // top-left: y' = 0
    assert_eq!(off(1, 15), 4); // Morton x bit 0 → 1
    assert_eq!(off(0, 14), 8); // y' = 1 → Morton 2
    assert_eq!(off(3, 12), 15 * 4); // x 3 → 1 + 4, y' 3 → 2 + 8
    assert_eq!(off(7, 8), 63 * 4); // last pixel of the first tile
    assert_eq!(off(8, 15), 64 * 4); // second tile of the first tile row
    assert_eq!(off(0, 7), 8 * 16 * 4); // y' = 8: second tile row
    assert_eq!(off(9, 6), (128 + 64 + 3) * 4); // y' = 9: tile row 1, tile 1, Morton (1, 1)
    assert_eq!(off(0, 0), (128 + 42) * 4); // bottom-left: y' = 15, Morton(0, 7) = 42
                                           // Bytes per pixel scale the pixel index.
    assert_eq!(pixel_offset(9, 6, 16, 16, 2, false), Some(195 * 2));
    assert_eq!(pixel_offset(9, 6, 16, 16, 3, false), Some(195 * 3));
}

#[test]
fn fop_tiling_32x32_addresses() {
    // 64×64 buffer, 2 bytes per pixel; memory row y' = 63 - y.
    let off = |x, y| pixel_offset(x, y, 64, 64, 2, true).unwrap();
    assert_eq!(off(0, 63), 0);
    assert_eq!(off(1, 63), 2);
    assert_eq!(off(8, 63), 64 * 2); // x bit 3 → Morton bit 6: the next 8×8 tile
    assert_eq!(off(0, 55), 128 * 2); // y' = 8: y bit 3 → Morton bit 7
    assert_eq!(off(31, 32), 1023 * 2); // y' = 31: last pixel of the first block
    assert_eq!(off(32, 63), 1024 * 2); // second block of the first block row
    assert_eq!(off(0, 31), 32 * 64 * 2); // y' = 32: second block row
                                         // 8×8 mode differs from y' = 8 on: a whole tile row (8 rows × 64) comes first.
    assert_eq!(pixel_offset(0, 55, 64, 64, 2, false), Some(8 * 64 * 2));
    assert_eq!(pixel_offset(8, 63, 64, 64, 2, false), Some(64 * 2));
}

#[test]
fn fop_tiling_block32_register_selects_the_mode() {
    let mut b = bench();
    b.dims(64, 64);
    b.color_format(3);
    b.set(id::FRAMEBUFFER_BLOCK32, 1);
    let beat = b.run(frag(0, 55, 0, WHITE));
    assert_eq!(beat.color_addr, CBUF + 128 * 2);
    assert_eq!(beat.depth_addr, DBUF + 128 * 4);
    b.set(id::FRAMEBUFFER_BLOCK32, 0);
    let beat = b.run(frag(0, 55, 0, WHITE));
    assert_eq!(beat.color_addr, CBUF + 8 * 64 * 2);
}

#[test]
fn fop_fragment_outside_the_framebuffer_is_dropped() {
    let mut b = bench();
    for (x, y) in [(8, 0), (0, 8), (100, 100)] {
        let beat = b.run(frag(x, y, 0, WHITE));
        assert_eq!(beat.flags, PixelBeat::DISCARDED);
        assert_eq!((beat.color_addr, beat.depth_addr), (0, 0));
    }
    assert_eq!(b.mem.allocated_pages(), 0, "no memory touched");
}

// ---- read-out ----

#[test]
fn fop_read_color_image_detiles_top_row_first() {
    // 16×16 RGBA8: paint through FOP, then read the picture back.
    let mut b = bench();
    b.dims(16, 16);
    b.run(frag(0, 0, 0, [255, 0, 0, 255])); // bottom-left
    b.run(frag(15, 15, 0, [0, 255, 0, 255])); // top-right
    b.run(frag(9, 6, 0, [1, 2, 3, 4]));
    let img = read_color_image(&b.regs, &b.mem);
    assert_eq!(
        (img.width, img.height, img.rgba.len()),
        (16, 16, 16 * 16 * 4)
    );
    assert_eq!(img.pixel(0, 15), Some([255, 0, 0, 255])); // bottom row is the last
    assert_eq!(img.pixel(15, 0), Some([0, 255, 0, 255])); // top row is the first
    assert_eq!(img.pixel(9, 9), Some([1, 2, 3, 4])); // window y 6 → row 15 - 6
    assert_eq!(img.pixel(1, 1), Some([0, 0, 0, 0]));
    // The top-left pixel is the first 4 bytes in memory (a, b, g, r).
    b.mem.write_bytes(CBUF, &[0x44, 0x33, 0x22, 0x11]).unwrap();
    let img = read_color_image(&b.regs, &b.mem);
    assert_eq!(img.pixel(0, 0), Some([0x11, 0x22, 0x33, 0x44]));
    // Every pixel matches the one the addressing function names.
    for i in 0..256u32 {
        b.mem.write_u32(CBUF + 4 * i, i * 0x0101_0101).unwrap();
    }
    let img = read_color_image(&b.regs, &b.mem);
    for row in 0..16 {
        for x in 0..16 {
            let off = pixel_offset(x, 15 - row, 16, 16, 4, false).unwrap();
            let v = (off / 4) as u8;
            assert_eq!(img.pixel(x, row), Some([v; 4]), "x {x} row {row}");
        }
    }
}

#[test]
fn fop_read_color_image_16bit_and_block32() {
    // 32×32 RGB565 in 32×32 mode: the pixel at memory offset 2 * 1023 is window (31, 0).
    let mut b = bench();
    b.dims(32, 32);
    b.color_format(3);
    b.set(id::FRAMEBUFFER_BLOCK32, 1);
    b.mem.write_bytes(CBUF + 2 * 1023, &[0x1F, 0xF8]).unwrap(); // 0xF81F: magenta
    let img = read_color_image(&b.regs, &b.mem);
    assert_eq!(img.pixel(31, 31), Some([0xFF, 0x00, 0xFF, 0xFF]));
    assert_eq!(img.pixel(0, 0), Some([0, 0, 0, 0xFF]));
}

#[test]
fn fop_read_depth_image_greys() {
    let mut b = bench();
    b.set(id::DEPTHBUFFER_FORMAT, 2);
    b.set_ds(0, 7, 0x80_4020);
    b.set_ds(1, 7, 0xFF_FFFF);
    let img = read_depth_image(&b.regs, &b.mem);
    assert_eq!((img.width, img.height), (8, 8));
    assert_eq!(img.pixel(0, 0), Some([0x80, 0x80, 0x80, 255])); // D24 >> 16
    assert_eq!(img.pixel(1, 0), Some([0xFF, 0xFF, 0xFF, 255]));
    assert_eq!(img.pixel(2, 0), Some([0, 0, 0, 255]));
    // D24S8: the stencil byte is not shown.
    b.set(id::DEPTHBUFFER_FORMAT, 3);
    b.set_ds(0, 7, 0xFF40_0000);
    assert_eq!(
        read_depth_image(&b.regs, &b.mem).pixel(0, 0),
        Some([0x40, 0x40, 0x40, 255])
    );
    // D16: >> 8.
    b.set(id::DEPTHBUFFER_FORMAT, 0);
    b.set_ds(0, 7, 0xBEEF);
    assert_eq!(
        read_depth_image(&b.regs, &b.mem).pixel(0, 0),
        Some([0xBE, 0xBE, 0xBE, 255])
    );
}

#[test]
fn fop_read_images_never_panic_on_odd_registers() {
    let mut b = bench();
    // Width 0: the empty image.
    b.set(id::FRAMEBUFFER_DIM, 0);
    assert_eq!(read_color_image(&b.regs, &b.mem), fb::Image::empty());
    assert_eq!(read_depth_image(&b.regs, &b.mem), fb::Image::empty());
    // Undescribed formats: the empty image.
    b.dims(8, 8);
    b.color_format(7);
    b.set(id::DEPTHBUFFER_FORMAT, 1);
    assert_eq!(read_color_image(&b.regs, &b.mem), fb::Image::empty());
    assert_eq!(read_depth_image(&b.regs, &b.mem), fb::Image::empty());
    // Unmapped buffers: full size, every pixel [0, 0, 0, 0].
    b.color_format(0);
    b.set(id::DEPTHBUFFER_FORMAT, 3);
    b.set(id::COLORBUFFER_LOC, 0);
    b.set(id::DEPTHBUFFER_LOC, 0x0FFF_FFFF);
    for img in [
        read_color_image(&b.regs, &b.mem),
        read_depth_image(&b.regs, &b.mem),
    ] {
        assert_eq!((img.width, img.height), (8, 8));
        assert!(img.rgba.iter().all(|&v| v == 0));
    }
    // The largest dimensions register value: 2047 × 1024.
    b.set(id::COLORBUFFER_LOC, CBUF >> 3);
    b.set(id::FRAMEBUFFER_DIM, 0xFFFF_FFFF);
    let img = read_color_image(&b.regs, &b.mem);
    assert_eq!((img.width, img.height), (2047, 1024));
}

// ---- hangs, beats, timing, FLUSH / INVALIDATE ----

#[test]
fn fop_unmapped_buffers_hang() {
    // Colour buffer at 0: the colour read (offset of window (1, 7) = Morton 1 → 4 bytes).
    let mut b = bench();
    b.set(id::COLORBUFFER_LOC, 0);
    assert_eq!(
        b.try_run(frag(1, 7, 0, WHITE)),
        Err(FopHang::Unmapped {
            buffer: "color",
            addr: 4
        })
    );
    // With colour reads off, the write hangs at the same address.
    let mut b = bench();
    b.set(id::COLORBUFFER_LOC, 0);
    b.set(id::COLORBUFFER_READ, 0);
    assert_eq!(
        b.try_run(frag(1, 7, 0, WHITE)),
        Err(FopHang::Unmapped {
            buffer: "color",
            addr: 4
        })
    );
    // No colour access at all: no hang.
    b.set(id::COLORBUFFER_WRITE, 0);
    assert_eq!(b.try_run(frag(1, 7, 0, WHITE)), Ok(()));
    // Depth buffer just past VRAM.
    let mut b = bench();
    b.set(id::DEPTHBUFFER_LOC, 0x1860_0000 >> 3);
    assert_eq!(
        b.try_run(frag(0, 7, 0, WHITE)),
        Err(FopHang::Unmapped {
            buffer: "depth",
            addr: 0x1860_0000
        })
    );
    // An alpha-discarded fragment accesses nothing.
    b.set(id::FRAGOP_ALPHA_TEST, 1 | NEVER << 4);
    assert_eq!(b.try_run(frag(0, 7, 0, WHITE)), Ok(()));
}

#[test]
fn fop_pixel_beat_is_exact() {
    let mut b = bench();
    b.set(id::DEPTH_COLOR_MASK, depth_mask(true, LESS, true));
    b.set_ds(3, 4, 0x5500_0100);
    let f = frag(3, 4, 0x0000_00FF, [0xDE, 0xAD, 0xBE, 0xEF]);
    let beat = b.run(f);
    // (3, 4): y' = 3, Morton(3, 3) = 15 → colour CBUF + 60, depth DBUF + 60.
    assert_eq!(
        beat,
        PixelBeat {
            cycle: 1,
            x: 3,
            y: 4,
            color_addr: CBUF + 60,
            color: 0xDEAD_BEEF,
            depth_addr: DBUF + 60,
            depth_stencil: 0x5500_00FF,
            flags: PixelBeat::COLOR_WRITTEN | PixelBeat::DEPTH_WRITTEN,
        }
    );
}

#[test]
fn fop_takes_one_fragment_per_cycle() {
    let mut b = bench();
    b.input.begin_cycle();
    for x in 0..3 {
        b.input
            .push(ShadedFragment::new(frag(x, 0, 0, WHITE)))
            .unwrap();
    }
    b.cycle = 10;
    for _ in 0..4 {
        b.tick().unwrap();
    }
    let got: Vec<(u64, u16)> = b.beats.iter().map(|p| (p.cycle, p.x)).collect();
    assert_eq!(got, [(10, 0), (11, 1), (12, 2)]);
    assert!(b.fop.is_idle());
    assert_eq!(b.fop.stats().fragments, 3);
    assert_eq!(b.fop.stats().color_writes, 3);
}

#[test]
fn fop_no_beats_when_not_recorded() {
    let mut b = bench();
    b.input.begin_cycle();
    b.input
        .push(ShadedFragment::new(frag(0, 0, 0, WHITE)))
        .unwrap();
    b.input.begin_cycle();
    b.fop
        .tick(
            1,
            FopPorts {
                regs: &b.regs,
                mem: &mut b.mem,
                input: &mut b.input,
                beats: None,
            },
        )
        .unwrap();
    assert_eq!(b.color(0, 0), 0xFFFF_FFFF);
    assert_eq!(b.fop.stats().fragments, 1);
}

#[test]
fn fop_flush_and_invalidate_only_count() {
    let mut b = bench();
    b.run(frag(0, 0, 0, WHITE));
    let before: Vec<(u32, u8)> = (0..64)
        .map(|i| (i, b.mem.read_u8(CBUF + i).unwrap()))
        .collect();
    b.set(id::FRAMEBUFFER_FLUSH, 1);
    b.set(id::FRAMEBUFFER_INVALIDATE, 1);
    b.set(id::FRAMEBUFFER_FLUSH, 1);
    b.tick().unwrap();
    b.tick().unwrap(); // seen once only
    let s = b.fop.stats();
    assert_eq!((s.flushes, s.invalidates), (2, 1));
    let after: Vec<(u32, u8)> = (0..64)
        .map(|i| (i, b.mem.read_u8(CBUF + i).unwrap()))
        .collect();
    assert_eq!(before, after);
    assert_eq!(b.fop.snapshot()["stats"]["flushes"], 2);
}

#[test]
fn fop_combiner_stand_in_passes_the_primary_colour() {
    // Whatever the TEV registers hold, the colour written is the fragment's primary colour.
    let mut b = bench();
    for reg in 0xC0u16..0x100 {
        b.set(reg, 0xFFFF_FFFF);
    }
    b.run(frag(0, 0, 0, [0x10, 0x20, 0x30, 0x40]));
    assert_eq!(b.color(0, 0), 0x1020_3040);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// No register value and no fragment makes FOP panic (it may hang on memory or a
    /// reserved format).
    #[test]
    fn fop_prop_never_panics(
        regs in proptest::collection::vec(any::<u32>(), 0x20),
        x in any::<u16>(),
        y in any::<u16>(),
        depth in any::<u32>(),
        color in any::<[u8; 4]>(),
    ) {
        let mut b = bench();
        for (i, v) in regs.iter().enumerate() {
            let reg = 0x100 + i as u16;
            // Keep the buffers mapped half the time.
            let v = match reg {
                0x11C | 0x11D if v & 1 == 0 => (CBUF >> 3) + (v >> 20),
                0x11E => v & 0x0F_F0FF, // stay small: at most 255 × 256
                _ => *v,
            };
            b.set(reg, v);
        }
        let r = b.try_run(frag(x % 300, y % 300, depth, color));
        if r.is_ok() {
            prop_assert_eq!(b.beats.len(), 1);
        }
        let _ = read_color_image(&b.regs, &b.mem);
        let _ = read_depth_image(&b.regs, &b.mem);
    }
}
