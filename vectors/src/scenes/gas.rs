//! Gas scenes. No public emulator implements gas rendering; the registers follow seed 002 and
//! the rules are the model's (UNVERIFIED(hw), `pica_model::fop::gas`, `pica_model::fog::gas`).
//!
//! - gas/density: fragment mode "gas" (GPUREG_COLOR_OPERATION) with three overlapping quads at
//!   different depths, two in front of a depth-written floor and one behind it: the FOP
//!   accumulates density, weighted by the gas depth function "less" (f = X), and discards
//!   none of them. Its pixels are hand-derived in `vectors/tests/scenes.rs`.
//! - gas/shading: fog mode "gas" (GPUREG_TEXENV_UPDATE_BUFFER), depth-density shading source,
//!   the gas LUT, planar and view shading parameters, over a quad.
//! - gas/two_pass: what an application does: gas/density's accumulation drawn into a 32×32
//!   RGBA8 buffer in texture memory, which a second pass binds as texture 0 and shades with
//!   fog mode "gas" over the whole screen.

use super::{draw_rect, screen_pass, setup32, texture_target, R};
use crate::builder::attrs::textured_rect;
use crate::builder::texenv::TexEnv;
use crate::builder::texture::{TexConfig, TexUnit};
use crate::builder::Builder;
use pica_model::regs::{
    self, ColorOperationFragmentMode, CompareFunction, GasDeltazDepthFunction, PrimitiveConfigMode,
    TexenvSourceInput as Src, TexenvUpdateBufferDensitySource, TexenvUpdateBufferFogMode,
    TexunitTypeFormat as Fmt,
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
    accumulate(&mut b);
    Ok(b)
}

/// gas/density's draws into the current target: the floor, then the three particles in gas
/// fragment mode.
fn accumulate(b: &mut Builder) {
    // A floor written to depth first, in the default mode.
    b.depth_test(true, CompareFunction::Always)
        .depth_write(true);
    draw_rect(b, -1.0, -1.0, 1.0, 1.0, -0.75, [0.25, 0.25, 0.25, 1.0]);
    // Gas particles: depth test less (gas mode runs no depth test; the gas depth function
    // "less" of gas_setup weighs the depth density), no depth writes, gas fragment mode.
    b.depth_test(true, CompareFunction::Less).depth_write(false);
    b.fragment_mode(ColorOperationFragmentMode::Gas);
    draw_rect(b, -0.75, -0.75, 0.25, 0.25, -0.25, [0.5, 0.5, 0.5, 1.0]);
    draw_rect(b, -0.5, -0.5, 0.5, 0.5, -0.5, [0.5, 0.5, 0.5, 1.0]);
    draw_rect(b, -0.25, -0.25, 0.75, 0.75, -0.875, [0.5, 0.5, 0.5, 1.0]);
}

/// Size of gas/two_pass's density buffer.
const DENSITY: u32 = 32;

/// gas/two_pass: pass 1 accumulates gas/density into a density buffer in texture memory
/// (colour cleared to 0, D24S8 depth); pass 2 draws a full-screen quad in the scene's
/// framebuffer with texture 0 = that buffer (texel centres on pixel centres), combiner stage 0
/// replacing the colour with it, fog mode gas on the depth density (green), blending off.
pub(super) fn two_pass() -> R {
    let mut b = setup32()?;
    gas_setup(&mut b);
    let color_addr = texture_target(&mut b, DENSITY, 0)?;
    accumulate(&mut b);
    // Pass 2: shading, in the scene's framebuffer.
    screen_pass(&mut b)?;
    b.depth_test(false, CompareFunction::Always)
        .depth_write(false);
    b.texture_unit(
        0,
        &TexUnit::new(color_addr, DENSITY, DENSITY, Fmt::Rgba8888),
    );
    b.texunit_config(&TexConfig::units([true, false, false]));
    b.texenvs(&[TexEnv::replace(Src::Texture0)]);
    b.fog_mode(
        TexenvUpdateBufferFogMode::Gas,
        TexenvUpdateBufferDensitySource::DepthDensity,
        false,
    );
    let quad = textured_rect([-1.0, -1.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]);
    b.full_vertex_array(&quad);
    b.draw_arrays(PrimitiveConfigMode::TriangleStrip, 0, 4);
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
