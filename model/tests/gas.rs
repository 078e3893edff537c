//! Gas rendering: FOP's density accumulation (GPUREG_COLOR_OPERATION fragment mode 1) and
//! FOG's gas shading (GPUREG_TEXENV_UPDATE_BUFFER fog mode 7), with hand-derived values.
//!
//! The rules are the model's (UNVERIFIED(hw), see `pica_model::fop::gas` and
//! `pica_model::fog::gas`): plain density accumulates in red, depth-weighted density in green
//! (weight `f` = 0, 1, 1 − X or X by the gas depth function never, always, greater, less, with
//! `X = min(1, |z − zs| / 2^24 · k)`; no fragment is discarded by it),
//! the shading pass normalizes by GPUREG_GAS_ACCMAX, shades with GPUREG_GAS_LIGHT_* and looks
//! the colour up in the gas LUT.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::beat::PixelBeat;
use pica_model::fog;
use pica_model::fop::fb::{self};
use pica_model::fop::FopHang;
use pica_model::pipe::ShadedFragment;
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use proptest::prelude::*;

mod fop_bench;
use fop_bench::{frag, Bench};

/// GPUREG_COLOR_OPERATION: gas fragment mode, the required 0xE4 in bits 16-25.
const COLOR_OP_GAS: u32 = 0x00E4_0001;
/// GPUREG_GAS_DELTAZ_DEPTH depth functions (bits 24-25).
const GAS_NEVER: u32 = 0;
const GAS_ALWAYS: u32 = 1;
const GAS_GREATER: u32 = 2;
const GAS_LESS: u32 = 3;

fn set(regs: &mut RegFile, reg: u16, value: u32) {
    regs.write(reg, value);
}

// ---- pass 1: accumulation ----

/// The FOP bench in gas fragment mode with the depth function `func` and proportion `k_raw`,
/// all channels and depth writes enabled.
fn bench(func: u32, k_raw: u32) -> Bench {
    let mut b = Bench::with(COLOR_OP_GAS, 0xF << 8 | 1 << 12);
    b.set(id::GAS_DELTAZ_DEPTH, func << 24 | k_raw);
    b
}

#[test]
fn gas_two_overlapping_fragments_accumulate_plain_and_depth_density() {
    // Less (f = X), k = 1.0 (raw 0x100); the scene behind is at depth 0x80_0000 with stencil
    // 0x5A.
    let mut b = bench(GAS_LESS, 0x100);
    b.set_ds(2, 3, 0x5A80_0000);
    // Stored: r 0, g 0, b 7, a 0x11.
    b.set_color(2, 3, 0x0000_0711);
    // dz = 0x40_0000 (1/4): X = 1/4, depth density floor(100/4) = 25.
    let beat = b.run(frag(2, 3, 0x40_0000, [100, 9, 9, 9]));
    assert_eq!(b.color(2, 3), 100 << 24 | 25 << 16 | 0x0711);
    assert_eq!(beat.color, b.color(2, 3));
    assert_eq!(beat.flags, PixelBeat::COLOR_WRITTEN);
    assert_eq!(beat.depth_stencil, 0x5A80_0000);
    // dz = 0x20_0000 (1/8): 60 / 8 = 7.5 → 7. Red 160, green 32.
    b.run(frag(2, 3, 0x60_0000, [60, 0, 0, 0]));
    assert_eq!(b.color(2, 3), 160 << 24 | 32 << 16 | 0x0711);
    // Gas never writes depth or stencil.
    assert_eq!(b.ds(2, 3), 0x5A80_0000);
}

#[test]
fn gas_accumulation_saturates_at_the_channel_maximum() {
    // Less with k = 0x10000 (raw 0xFF_FFFF ≈ 65536): X = 1 for any dz ≥ 257.
    let mut b = bench(GAS_LESS, 0xFF_FFFF);
    b.set_ds(0, 0, 0x00FF_0000);
    b.run(frag(0, 0, 0, [200, 0, 0, 0]));
    assert_eq!(b.color(0, 0) >> 16, 200 << 8 | 200);
    b.run(frag(0, 0, 0, [200, 0, 0, 0]));
    assert_eq!(b.color(0, 0) >> 16, 0xFFFF);
}

#[test]
fn gas_delta_z_scales_the_depth_density() {
    // Same fragment and scene, k = 0, 0.5, 2.0, 8.0: dz = 0x20_0000 (1/8).
    for (k_raw, g) in [(0, 0), (0x80, 12), (0x200, 50), (0x800, 200)] {
        let mut b = bench(GAS_LESS, k_raw);
        b.set_ds(1, 1, 0x30_0000);
        b.run(frag(1, 1, 0x10_0000, [200, 0, 0, 0]));
        // Less (f = X): 200 · 1/16 = 12.5 → 12; 200 · 1/4 = 50; 200 · 1 = 200.
        assert_eq!(b.color(1, 1), 200 << 24 | g << 16, "k_raw {k_raw:#x}");
    }
}

#[test]
fn gas_depth_function_weights_the_depth_density() {
    // Scene at 0x40_0000, k = 1.0; a fragment of density 200 in front (0x30_0000: dz =
    // 0x10_0000, X = 1/16) or behind (0x70_0000: dz = 0x30_0000, X = 3/16). f = 0, 1, 1 − X,
    // X:
    //   never   0, 0;
    //   always  200, 200;
    //   greater 200 · 15/16 = 187.5 → 187, 200 · 13/16 = 162.5 → 162;
    //   less    200 · 1/16 = 12.5 → 12,    200 · 3/16 = 37.5 → 37.
    // Every fragment lands, plain density 200 in red — also where a pass/fail reading of the
    // function would have discarded it (never: both; greater: in front; less: behind).
    for (func, front, behind) in [
        (GAS_NEVER, 0, 0),
        (GAS_ALWAYS, 200, 200),
        (GAS_GREATER, 187, 162),
        (GAS_LESS, 12, 37),
    ] {
        for (depth, g) in [(0x30_0000, front), (0x70_0000, behind)] {
            let mut b = bench(func, 0x100);
            b.set_ds(0, 0, 0x40_0000);
            let beat = b.run(frag(0, 0, depth, [200, 0, 0, 0]));
            assert_eq!(
                beat.flags,
                PixelBeat::COLOR_WRITTEN,
                "func {func} depth {depth:#x}"
            );
            assert_eq!(
                b.color(0, 0),
                200 << 24 | g << 16,
                "func {func} depth {depth:#x}"
            );
        }
    }
}

#[test]
fn gas_depth_test_always_keeps_every_fragment() {
    // citro3d writes gas depth function never for a GL depth test ALWAYS
    // (GPU_MAKEGASDEPTHFUNC(1) = (0xAF02 >> 2) & 3 = 0): the particles still accumulate their
    // plain density, two fragments of 90 → 180, and no depth density.
    let mut b = bench(GAS_NEVER, 0x100);
    b.set(id::DEPTH_COLOR_MASK, 0xF << 8 | 1 << 4 | 1);
    b.set_ds(5, 6, 0x20_0000);
    b.run(frag(5, 6, 0x10_0000, [90, 0, 0, 0]));
    b.run(frag(5, 6, 0x90_0000, [90, 0, 0, 0]));
    assert_eq!(b.color(5, 6), 180 << 24);
    assert_eq!(b.fop.stats().discarded, 0);
}

#[test]
fn gas_greater_saturated_distance_gives_no_depth_density() {
    // Greater with X capped at 1 (dz = 0x80_0000, k = 4.0: 2 → 1): f = 0. Less: f = 1.
    for (func, g) in [(GAS_GREATER, 0), (GAS_LESS, 77)] {
        let mut b = bench(func, 0x400);
        b.set_ds(0, 0, 0x80_0000);
        b.run(frag(0, 0, 0, [77, 0, 0, 0]));
        assert_eq!(b.color(0, 0), 77 << 24 | g << 16, "func {func}");
    }
}

#[test]
fn gas_write_masks_and_alpha_test_apply() {
    // Red masked off: only the depth density lands (less: X = 1/2 of 100).
    let mut b = bench(GAS_LESS, 0x100);
    b.set(id::DEPTH_COLOR_MASK, 0xE << 8);
    b.set_ds(0, 0, 0x80_0000);
    b.run(frag(0, 0, 0, [100, 0, 0, 0]));
    assert_eq!(b.color(0, 0), 50 << 16);
    // Alpha test Never: discarded before any access.
    let mut b = bench(GAS_ALWAYS, 0x100);
    b.set(id::FRAGOP_ALPHA_TEST, 1);
    let beat = b.run(frag(0, 0, 0, [100, 0, 0, 0]));
    assert_eq!(beat.flags, PixelBeat::DISCARDED);
    assert_eq!(b.color(0, 0), 0);
}

#[test]
fn gas_d16_depths_widen_by_replication() {
    // D16: scene 0x8000 → 0x80_0080, fragment 0x4000 → 0x40_0040; dz = 0x40_0040.
    // Less, k = 1.0: X = 0x40_0040 · 0x100 / 2^32, 255 · X = 63.75… → 63.
    let mut b = bench(GAS_LESS, 0x100);
    b.set(id::DEPTHBUFFER_FORMAT, 0);
    let a = b.layout().depth_addr(0, 0).unwrap();
    fb::write_pixel(&mut b.mem, a, 0x8000, 2).unwrap();
    b.run(frag(0, 0, 0x4000, [255, 0, 0, 0]));
    assert_eq!(b.color(0, 0), 255 << 24 | 63 << 16);
}

#[test]
fn gas_unmapped_colour_buffer_hangs() {
    let mut b = bench(GAS_ALWAYS, 0x100);
    b.set(id::COLORBUFFER_LOC, 0x0100_0000 >> 3);
    assert!(matches!(
        b.try_run(frag(0, 0, 0, [1, 0, 0, 0])),
        Err(FopHang::Unmapped {
            buffer: "color",
            ..
        })
    ));
}

// ---- pass 2: shading ----

/// Registers for the shading pass: gas fog mode (density source bit 3 = `depth_density`),
/// LUT written through GPUREG_GAS_LUT_INDEX / _DATA.
fn shading_regs(depth_density: bool, lut_by_light: bool, acc_max: u32, atten: u32) -> RegFile {
    let mut regs = RegFile::new();
    set(
        &mut regs,
        id::TEXENV_UPDATE_BUFFER,
        7 | u32::from(depth_density) << 3,
    );
    set(&mut regs, id::GAS_ACCMAX, acc_max);
    set(&mut regs, id::GAS_ATTENUATION, atten);
    // Planar: min 20, max 200, attenuation 100. View: min 0, max 100, attenuation 0.
    set(&mut regs, id::GAS_LIGHT_XY, 20 | 200 << 8 | 100 << 16);
    set(&mut regs, id::GAS_LIGHT_Z, 100 << 8);
    set(
        &mut regs,
        id::GAS_LIGHT_Z_COLOR,
        128 | u32::from(lut_by_light) << 8,
    );
    // Differences (entries 0-7) then colours (8-15); interval i colour (10i, 20i, 30i), the
    // interval-2 difference red +64, blue -32 (sign-magnitude), interval 7 red +127.
    let mut lut = [0u32; 16];
    lut[2] = 0x40 | 0xA0 << 16;
    lut[7] = 0x7F;
    for i in 0..8u32 {
        lut[8 + i as usize] = (10 * i) | ((20 * i) << 8) | ((30 * i) << 16);
    }
    lut[10] = 100 | 50 << 8 | 10 << 16;
    set(&mut regs, id::GAS_LUT_INDEX, 0);
    for w in lut {
        set(&mut regs, id::GAS_LUT_DATA, w);
    }
    regs
}

fn shade(regs: &RegFile, color: [u8; 4]) -> [u8; 4] {
    let mut f = ShadedFragment::new(frag(0, 0, 0, [0; 4]));
    f.color = color;
    fog::gas::apply(&mut f, regs);
    f.color
}

#[test]
fn gas_shading_density_lut_with_planar_and_view_light() {
    // ACCMAX 2.0, attenuation 1.0; plain density (red) 40 → dn = 80.
    let regs = shading_regs(false, false, 0x4000, 0x3C00);
    // Light: planar 200 - 80·100/255 (31) = 169; view 100 · 128/255 = 50; 219.
    // LUT at 80: interval 2, f = 16: red 100 + 64 = 164, green 50, blue 10 - 32 → 0.
    // Shaded: 164·219/255 = 140, 50·219/255 = 42, 0. Alpha 80 · 1.0 = 80.
    assert_eq!(shade(&regs, [40, 0xEE, 0xEE, 0xEE]), [140, 42, 0, 80]);
    // The same through FOG's dispatch (fog mode 7).
    let mut f = ShadedFragment::new(frag(0, 0, 0, [0; 4]));
    f.color = [40, 0xEE, 0xEE, 0xEE];
    fog::apply(&mut f, &regs);
    assert_eq!(f.color, [140, 42, 0, 80]);
}

#[test]
fn gas_shading_depth_density_source_and_accmax_cap() {
    // Depth density (green) 200 with ACCMAX 2.0: 400 saturates at 255. LUT by light factor.
    let regs = shading_regs(true, true, 0x4000, 0x3800);
    // Light: planar max(20, 200 - 255·100/255 = 100) = 100; view 100 → 50; 150.
    // LUT at 150: interval 4, f = 22, no difference: (40, 80, 120). Alpha 255 · 0.5 = 127.
    assert_eq!(shade(&regs, [7, 200, 0, 0]), [40, 80, 120, 127]);
    // Red is ignored with the depth-density source.
    assert_eq!(shade(&regs, [255, 200, 0, 0]), [40, 80, 120, 127]);
}

#[test]
fn gas_shading_top_interval_and_zero_density() {
    // ACCMAX 1.0, density 255 → dn 255; LUT by density at 255: interval 7, f = 31:
    // red 70 + 127·255·31/4064 (247) → 255 (clamped), green 140, blue 210.
    // Light: planar max(20, 200 - 100) = 100; view 50 → 150. Shaded: 255·150/255 = 150,
    // 140·150/255 = 82, 210·150/255 = 123. Alpha 255.
    let regs = shading_regs(false, false, 0x3C00, 0x3C00);
    assert_eq!(shade(&regs, [255, 0, 0, 0]), [150, 82, 123, 255]);
    // Zero density: LUT entry 0 is black, alpha 0.
    assert_eq!(shade(&regs, [0, 0, 0, 0]), [0, 0, 0, 0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// No gas register value and no fragment makes either pass panic.
    #[test]
    fn gas_prop_never_panics(
        gas_regs in proptest::collection::vec(any::<u32>(), 8),
        lut in proptest::collection::vec(any::<u32>(), 17),
        ds in any::<u32>(),
        stored in any::<u32>(),
        depth in any::<u32>(),
        color in any::<[u8; 4]>(),
        fmt in 0u32..8,
        dfmt in 0u32..4,
    ) {
        let mut b = bench(GAS_ALWAYS, 0);
        let ids = [
            id::GAS_DELTAZ_DEPTH, id::GAS_ACCMAX, id::GAS_ATTENUATION, id::GAS_LIGHT_XY,
            id::GAS_LIGHT_Z, id::GAS_LIGHT_Z_COLOR, id::TEXENV_UPDATE_BUFFER, id::GAS_LUT_INDEX,
        ];
        for (r, v) in ids.into_iter().zip(&gas_regs) {
            b.set(r, *v);
        }
        for w in &lut {
            b.set(id::GAS_LUT_DATA, *w);
        }
        b.set_ds(3, 3, ds);
        b.set_color(3, 3, stored);
        b.set(id::COLORBUFFER_FORMAT, fmt << 16);
        b.set(id::DEPTHBUFFER_FORMAT, dfmt);
        let r = b.try_run(frag(3, 3, depth, color));
        if r.is_ok() {
            prop_assert_eq!(b.beats.len(), 1);
        }
        let _ = shade(&b.regs, color);
    }
}
