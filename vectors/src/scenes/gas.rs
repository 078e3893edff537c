//! Gas scenes. No public emulator implements gas rendering; the registers follow seed 002 and
//! the rules are the model's (UNVERIFIED(hw), `pica_model::fop::gas`, `pica_model::fog::gas`).
//!
//! - gas/density: fragment mode "gas" (GPUREG_COLOR_OPERATION) with three overlapping quads at
//!   different depths, two in front of a depth-written floor and one behind it: the FOP
//!   accumulates density, weighted by the gas depth function "less" (f = X), and discards
//!   none of them. Its pixels are hand-derived in `vectors/tests/scenes.rs`.
//! - gas/shading: fog mode "gas" (GPUREG_TEXENV_UPDATE_BUFFER), depth-density shading source,
//!   the gas LUT, planar and view shading parameters, over a quad.

use super::{draw_rect, setup32, R};
use pica_model::regs::{
    self, ColorOperationFragmentMode, CompareFunction, GasDeltazDepthFunction,
    TexenvUpdateBufferDensitySource, TexenvUpdateBufferFogMode,
};

/// The gas LUT: entries 0-7 colour differences (+0x10 each: sign bit 0, magnitude 16/127, the
/// model's sign-magnitude reading of `GasLutFirstEntry`), 8-15 colours rising from dark blue to
/// white (seed 002 GPUREG_GAS_LUT_DATA).
fn gas_lut() -> Vec<u32> {
    let diff = 0x10u32 | 0x10 << 8 | 0x10 << 16;
    let mut v = vec![diff; 8];
    v.extend((0..8u32).map(|i| {
        let c = 0x20 * i + 0x1F;
        c | c << 8 | (0x80 + 0x10 * i).min(0xFF) << 16
    }));
    v
}

/// Gas registers common to both scenes.
fn gas_setup(b: &mut crate::builder::Builder) {
    b.gas(
        0.5,
        1.0,
        [
            regs::GasLightXy(0)
                .with_planar_min_intensity(0x20)
                .with_planar_max_intensity(0xE0)
                .with_planar_density_attenuation(0x40)
                .0,
            regs::GasLightZ(0)
                .with_view_min_intensity(0x20)
                .with_view_max_intensity(0xE0)
                .with_view_density_attenuation(0x40)
                .0,
            regs::GasLightZColor(0).with_line_of_sight_effect(0x80).0,
        ],
        regs::GasDeltazDepth(0)
            .with_depth_attenuation(0x100)
            .with_depth_function(GasDeltazDepthFunction::Less),
    );
    b.gas_lut(&gas_lut());
}

pub(super) fn density() -> R {
    let mut b = setup32()?;
    gas_setup(&mut b);
    // A floor written to depth first, in the default mode.
    b.depth_test(true, CompareFunction::Always)
        .depth_write(true);
    draw_rect(&mut b, -1.0, -1.0, 1.0, 1.0, -0.75, [0.25, 0.25, 0.25, 1.0]);
    // Gas particles: depth test less (gas mode runs no depth test; the gas depth function
    // "less" of gas_setup weighs the depth density), no depth writes, gas fragment mode.
    b.depth_test(true, CompareFunction::Less).depth_write(false);
    b.fragment_mode(ColorOperationFragmentMode::Gas);
    draw_rect(
        &mut b,
        -0.75,
        -0.75,
        0.25,
        0.25,
        -0.25,
        [0.5, 0.5, 0.5, 1.0],
    );
    draw_rect(&mut b, -0.5, -0.5, 0.5, 0.5, -0.5, [0.5, 0.5, 0.5, 1.0]);
    draw_rect(
        &mut b,
        -0.25,
        -0.25,
        0.75,
        0.75,
        -0.875,
        [0.5, 0.5, 0.5, 1.0],
    );
    Ok(b)
}

pub(super) fn shading() -> R {
    let mut b = setup32()?;
    gas_setup(&mut b);
    b.fog_mode(
        TexenvUpdateBufferFogMode::Gas,
        TexenvUpdateBufferDensitySource::DepthDensity,
        false,
    );
    draw_rect(
        &mut b,
        -0.75,
        -0.75,
        0.75,
        0.75,
        -0.5,
        [0.5, 0.25, 0.75, 1.0],
    );
    Ok(b)
}
