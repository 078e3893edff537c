//! Shadow rendering: FOP's shadow-map write (GPUREG_COLOR_OPERATION fragment mode 3), with
//! hand-derived stored words.
//!
//! Facts from Azahar (`glsl_fs_shader_gen.cpp` `WriteShadow` / `UpdateShadow`): the word
//! `(depth24 << 8) | intensity`, intensity from the combiner's green, nearer depth kept,
//! penumbra `s / (C + L · d / depth)` with GPUREG_FRAGOP_SHADOW's two f16 fields. The byte
//! order of the word in memory is the model's derivation (UNVERIFIED(hw), see
//! `pica_model::fop::shadow`): memory bytes depth 23-16, 15-8, 7-0, intensity.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::beat::PixelBeat;
use pica_model::fop::fb::{self};
use pica_model::fop::shadow;
use pica_model::regs::id;
use proptest::prelude::*;

mod fop_bench;
use fop_bench::{frag, Bench};

/// GPUREG_COLOR_OPERATION: shadow fragment mode, the required 0xE4 in bits 16-25.
const COLOR_OP_SHADOW: u32 = 0x00E4_0003;
/// GPUREG_FRAGOP_SHADOW: C = 1.0 (0x3C00), L = -0.5 (0xB800).
const SHADOW_1_MINUS_HALF: u32 = 0xB800_3C00;

/// Green = the intensity source.
fn green(s: u8) -> [u8; 4] {
    [0x11, s, 0x33, 0x44]
}

/// The FOP bench in shadow mode (the colour buffer is the shadow map) with
/// GPUREG_FRAGOP_SHADOW = `shadow_reg`.
fn bench(shadow_reg: u32) -> Bench {
    let mut b = Bench::with(COLOR_OP_SHADOW, 0xF << 8 | 1 << 12);
    b.set(id::FRAGOP_SHADOW, shadow_reg);
    b
}

#[test]
fn shadow_write_keeps_the_nearer_depth() {
    let mut b = bench(SHADOW_1_MINUS_HALF);
    // Cleared map: depth 0xFF_FFFF, intensity 0xFF (all ones either way round).
    b.set_color(1, 2, 0xFFFF_FFFF);
    // Opaque occluder (green 0) at 0x80_0000: word 0x8000_00FF, stored byte-swapped.
    let beat = b.run(frag(1, 2, 0x80_0000, green(0)));
    assert_eq!(b.color(1, 2), 0xFF00_0080);
    assert_eq!(beat.color, 0xFF00_0080);
    assert_eq!(beat.flags, PixelBeat::COLOR_WRITTEN);
    // Farther (0x90_0000) and equal: nothing changes.
    b.run(frag(1, 2, 0x90_0000, green(0)));
    b.run(frag(1, 2, 0x80_0000, green(0)));
    assert_eq!(b.color(1, 2), 0xFF00_0080);
    // Nearer (0x70_0001): word 0x7000_01FF.
    b.run(frag(1, 2, 0x70_0001, green(0)));
    assert_eq!(b.color(1, 2), 0xFF01_0070);
    assert_eq!(shadow::decode(b.color(1, 2)), (0x70_0001, 0xFF));
}

#[test]
fn shadow_stored_word_layout_in_memory() {
    let mut b = bench(SHADOW_1_MINUS_HALF);
    // Start: depth 0xFF_FFFF, intensity 0x78 (word 0xFFFF_FF78 → bits 0x78FF_FFFF).
    b.set_color(0, 0, 0x78FF_FFFF);
    b.run(frag(0, 0, 0x12_3456, green(0)));
    // Memory bytes: depth 23-16, 15-8, 7-0, then the intensity.
    let addr = b.layout().color_addr(0, 0).unwrap();
    let bytes: Vec<u32> = (0..4)
        .map(|i| fb::read_pixel(&b.mem, addr + i, 1).unwrap())
        .collect();
    assert_eq!(bytes, [0x12, 0x34, 0x56, 0x78]);
    // In RGBA8 terms: red = intensity, green = depth 7-0, blue = 15-8, alpha = 23-16.
    assert_eq!(b.color(0, 0), 0x7856_3412);
}

#[test]
fn shadow_penumbra_intensity_from_fragop_shadow() {
    // C = 1.0, L = -0.5. Stored depth 0x80_0000, fragment at 0x40_0000 (d / depth = 1/2):
    // divisor 1 - 0.5 · 0.5 = 0.75.
    let mut b = bench(SHADOW_1_MINUS_HALF);
    b.set_color(0, 0, shadow::encode(0x80_0000, 0xFF));
    // 150 / 0.75 = 200: intensity min(255, 200) = 200, depth kept.
    b.run(frag(0, 0, 0x40_0000, green(150)));
    assert_eq!(b.color(0, 0), 0xC800_0080);
    // 240 / 0.75 = 320 → 255; min(200, 255) keeps 200.
    b.run(frag(0, 0, 0x40_0000, green(240)));
    assert_eq!(shadow::decode(b.color(0, 0)), (0x80_0000, 200));
    // 90 / 0.75 = 120.
    b.run(frag(0, 0, 0x40_0000, green(90)));
    assert_eq!(shadow::decode(b.color(0, 0)), (0x80_0000, 120));
    // Nearer fragment at 0x20_0000 (1/4): divisor 0.875, 100 / 0.875 = 114.28… → 114.
    b.run(frag(0, 0, 0x20_0000, green(100)));
    assert_eq!(shadow::decode(b.color(0, 0)), (0x80_0000, 114));
}

#[test]
fn shadow_penumbra_scale_and_bias_separately() {
    // bias 0.25, scale 2.0: C = 2.25 (0x4080), L = -2.0 (0xC000). d / depth = 3/4:
    // divisor 2.25 - 1.5 = 0.75; 60 / 0.75 = 80.
    let mut b = bench(0xC000_4080);
    b.set_color(0, 0, shadow::encode(0x40_0000, 0xFF));
    b.run(frag(0, 0, 0x30_0000, green(60)));
    assert_eq!(shadow::decode(b.color(0, 0)), (0x40_0000, 80));
}

#[test]
fn shadow_ignores_the_depth_buffer() {
    let mut b = bench(SHADOW_1_MINUS_HALF);
    // Depth test Never with depth writes on: shadow mode does not use it.
    b.set(id::DEPTH_COLOR_MASK, 0xF << 8 | 1 << 12 | 1);
    b.set_color(0, 0, 0xFFFF_FFFF);
    let beat = b.run(frag(0, 0, 0x10_0000, green(0)));
    assert_eq!(shadow::decode(b.color(0, 0)), (0x10_0000, 0xFF));
    assert_eq!(b.ds(0, 0), 0);
    assert_eq!(
        beat.flags & (PixelBeat::DEPTH_WRITTEN | PixelBeat::DISCARDED),
        0
    );
}

#[test]
fn shadow_d16_depth_widens_and_read_disabled_sees_zero() {
    // D16 fragment depth 0x8000 → 0x80_0080.
    let mut b = bench(SHADOW_1_MINUS_HALF);
    b.set(id::DEPTHBUFFER_FORMAT, 0);
    b.set_color(0, 0, 0xFFFF_FFFF);
    b.run(frag(0, 0, 0x8000, green(0)));
    assert_eq!(shadow::decode(b.color(0, 0)), (0x80_0080, 0xFF));
    // Colour reads off: the stored word reads 0, nothing is nearer than depth 0, and the
    // word 0 is written back.
    let mut b = bench(SHADOW_1_MINUS_HALF);
    b.set(id::COLORBUFFER_READ, 0);
    b.set_color(0, 0, 0xFFFF_FFFF);
    b.run(frag(0, 0, 0x10, green(0)));
    assert_eq!(b.color(0, 0), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// No shadow register value, stored word or fragment makes shadow mode panic, and the
    /// stored depth never grows.
    #[test]
    fn shadow_prop_never_panics_and_depth_never_grows(
        shadow_reg in any::<u32>(),
        stored in any::<u32>(),
        depth in 0u32..0x100_0000,
        color in any::<[u8; 4]>(),
    ) {
        let mut b = bench(shadow_reg);
        b.set_color(5, 5, stored);
        b.run(frag(5, 5, depth, color));
        let (before_d, before_s) = shadow::decode(stored);
        let (after_d, after_s) = shadow::decode(b.color(5, 5));
        prop_assert!(after_d <= before_d);
        prop_assert!(after_s <= before_s);
    }

    /// Any colour or depth format, any fragment: no panic.
    #[test]
    fn shadow_prop_any_format_never_panics(
        shadow_reg in any::<u32>(),
        fmt in 0u32..8,
        dfmt in 0u32..4,
        depth in any::<u32>(),
        color in any::<[u8; 4]>(),
    ) {
        let mut b = bench(shadow_reg);
        b.set(id::COLORBUFFER_FORMAT, fmt << 16);
        b.set(id::DEPTHBUFFER_FORMAT, dfmt);
        let r = b.try_run(frag(2, 2, depth, color));
        if r.is_ok() {
            prop_assert_eq!(b.beats.len(), 1);
        }
    }
}
