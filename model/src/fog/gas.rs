//! Gas mode of the FOG stage (GPUREG_TEXENV_UPDATE_BUFFER fog mode 7): the shading pass of
//! gas rendering.
//!
//! The accumulation pass ([`crate::fop::gas`]) left two densities per pixel in a colour
//! buffer: the plain density in red ([`crate::fop::gas::PLAIN_CHANNEL`]) and the
//! depth-weighted density in green ([`crate::fop::gas::DEPTH_CHANNEL`]). The application
//! binds that buffer as a texture and draws it again; the combiners deliver the texel as
//! their output colour `f.color`, and this pass turns the density into the gas colour.
//!
//! No public emulator implements gas (pica-facts §4; Azahar's shader generator discards gas
//! fragments): the register layouts are the seed's, the register roles follow citro3d
//! (`source/gas.c`: GPUREG_GAS_ACCMAX = f16(1 / maximum density), GPUREG_GAS_LIGHT_XY / _Z =
//! `min | max << 8 | attenuation << 16` as 8-bit fractions of 1, GPUREG_GAS_LIGHT_Z_COLOR
//! bits 0-7 = the light direction's dot product as an 8-bit fraction, the LUT as 8 colour
//! differences then 8 colours), and **every formula below is the model's choice**
//! (UNVERIFIED(hw) [fact: gas-shading]). All values are 8-bit fractions of 1 (0..=255); products divide by 255
//! and truncate, like the combiners' modulate.
//!
//! 1. `ρ8` = red (plain density) or green (depth density) of `f.color`, by
//!    GPUREG_TEXENV_UPDATE_BUFFER bit 3 ("shading density source").
//! 2. Normalized density `dn = sat(floor(ρ8 · ACCMAX))` ([`scale_sat`]): ACCMAX is 1 / the
//!    largest density, so the densest pixel reaches 255; larger products saturate at 255.
//! 3. Light factor ([`light_factor`]): planar `ip = max(min_p, max_p - dn · att_p / 255)`,
//!    view `iv = max(min_v, max_v - dn · att_v / 255)` (light fades with the density it
//!    crosses, never below the minimum), `light = min(255, ip + iv · los / 255)` with `los`
//!    GPUREG_GAS_LIGHT_Z_COLOR bits 0-7 (view shading effect in the line-of-sight
//!    direction).
//! 4. Colour LUT ([`lut_color`]) at `x` = `dn` or `light` (GPUREG_GAS_LIGHT_Z_COLOR bit 8):
//!    8 intervals of 32; entry `i = x >> 5` has colour `C[i]` (LUT entries 8-15, unsigned)
//!    and difference `D[i]` (entries 0-7, sign-magnitude: bit 7 sign, bits 0-6 magnitude in
//!    1/127 of full scale, as citro3d `GasLut_FromArray` / `calc_diff` writes them; the
//!    register table's `GasLutFirstEntry` fields; UNVERIFIED(hw) [fact: gas-shading]: seed 002 calls them
//!    "signed");
//!    `c = clamp(C[i] ± trunc(|D[i]| · 255 · (x & 31) / (127 · 32)), 0, 255)` per channel.
//! 5. RGB: with the density as LUT input, the LUT colour shaded by the light factor,
//!    `c · light / 255`; with the light factor as input, the LUT colour as it is. Alpha:
//!    `sat(floor(dn · ATTENUATION))` (GPUREG_GAS_ATTENUATION, f16: how opaque a unit of
//!    density is), for the blend with the scene behind.

use crate::num::F16;
use crate::pipe::ShadedFragment;
use crate::regfile::RegFile;
use crate::regs::{self, id, GasLightZColorLutInput, TexenvUpdateBufferDensitySource};

/// The shading-pass registers, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GasShading {
    /// GPUREG_TEXENV_UPDATE_BUFFER bit 3: `true` = depth density (green), `false` = plain
    /// density (red).
    pub depth_density: bool,
    /// GPUREG_GAS_ACCMAX (f16): the reciprocal of the largest accumulated density.
    pub acc_max: F16,
    /// GPUREG_GAS_ATTENUATION (f16).
    pub attenuation: F16,
    /// GPUREG_GAS_LIGHT_XY: planar minimum, maximum, density attenuation.
    pub planar: [u8; 3],
    /// GPUREG_GAS_LIGHT_Z: view minimum, maximum, density attenuation.
    pub view: [u8; 3],
    /// GPUREG_GAS_LIGHT_Z_COLOR bits 0-7.
    pub line_of_sight: u8,
    /// GPUREG_GAS_LIGHT_Z_COLOR bit 8: the LUT is indexed by the light factor (`true`) or the
    /// density (`false`).
    pub lut_by_light: bool,
    /// LUT entries 0-7: colour differences (sign-magnitude bytes, red in bits 0-7).
    pub diff: [u32; 8],
    /// LUT entries 8-15: colours (red in bits 0-7, green 8-15, blue 16-23).
    pub color: [u32; 8],
}

impl GasShading {
    /// Decodes the registers and the gas LUT.
    pub fn from_regs(regs: &RegFile) -> Self {
        let r = |i: u16| regs.reg(u32::from(i));
        let ub = regs::TexenvUpdateBuffer(r(id::TEXENV_UPDATE_BUFFER));
        let xy = regs::GasLightXy(r(id::GAS_LIGHT_XY));
        let z = regs::GasLightZ(r(id::GAS_LIGHT_Z));
        let zc = regs::GasLightZColor(r(id::GAS_LIGHT_Z_COLOR));
        let lut = &regs.luts().gas;
        let entry = |i: usize| lut.get(i).copied().unwrap_or(0);
        let byte = |v: u32| (v & 0xFF) as u8;
        Self {
            depth_density: ub.shading_density_source()
                == TexenvUpdateBufferDensitySource::DepthDensity,
            acc_max: F16::from_bits(regs::GasAccmax(r(id::GAS_ACCMAX)).max_accumulation()),
            attenuation: F16::from_bits(regs::GasAttenuation(r(id::GAS_ATTENUATION)).attenuation()),
            planar: [
                byte(xy.planar_min_intensity()),
                byte(xy.planar_max_intensity()),
                byte(xy.planar_density_attenuation()),
            ],
            view: [
                byte(z.view_min_intensity()),
                byte(z.view_max_intensity()),
                byte(z.view_density_attenuation()),
            ],
            line_of_sight: byte(zc.line_of_sight_effect()),
            lut_by_light: zc.color_lut_input() == GasLightZColorLutInput::LightFactor,
            diff: core::array::from_fn(entry),
            color: core::array::from_fn(|i| entry(i + 8)),
        }
    }

    /// The gas colour `[r, g, b, a]` of the combiner output `tex` (steps 1-5 of the module
    /// docs).
    pub fn shade(&self, tex: [u8; 4]) -> [u8; 4] {
        let rho = if self.depth_density { tex[1] } else { tex[0] };
        let dn = scale_sat(rho, self.acc_max);
        let light = light_factor(dn, self.planar, self.view, self.line_of_sight);
        let x = if self.lut_by_light { light } else { dn };
        let c = lut_color(&self.diff, &self.color, x);
        let rgb = if self.lut_by_light {
            c
        } else {
            c.map(|v| mul255(v, light))
        };
        [rgb[0], rgb[1], rgb[2], scale_sat(dn, self.attenuation)]
    }
}

/// `a · b / 255`, truncated.
const fn mul255(a: u8, b: u8) -> u8 {
    (a as u32 * b as u32 / 255) as u8
}

/// `floor(v · k)` saturated to 0..=255 for an 8-bit `v` and an f16 `k`.
///
/// Host `f64` holds the product exactly (8-bit times an 11-bit mantissa); the rule then
/// floors and saturates. A negative product or NaN (including `0 · ∞`) gives 0, +∞ gives 255.
pub fn scale_sat(v: u8, k: F16) -> u8 {
    let p = f64::from(v) * k.to_f64();
    if p.is_nan() || p <= 0.0 {
        0
    } else if p >= 255.0 {
        255
    } else {
        p.floor() as u8
    }
}

/// The light factor of step 3 for the normalized density `dn`: `planar` and `view` are
/// `[min, max, attenuation]`, `los` the line-of-sight effect.
pub const fn light_factor(dn: u8, planar: [u8; 3], view: [u8; 3], los: u8) -> u8 {
    let ip = faded_intensity(dn, planar);
    let iv = faded_intensity(dn, view);
    ip.saturating_add(mul255(iv, los))
}

/// `max(min, max - dn · attenuation / 255)` of `[min, max, attenuation]`.
const fn faded_intensity(dn: u8, p: [u8; 3]) -> u8 {
    let faded = p[1].saturating_sub(mul255(dn, p[2]));
    if faded > p[0] {
        faded
    } else {
        p[0]
    }
}

/// The LUT colour `[r, g, b]` at `x` (step 4): `diff` and `color` are the raw LUT words 0-7
/// ([`regs::GasLutFirstEntry`]) and 8-15 ([`regs::GasLutLastEntry`]).
pub const fn lut_color(diff: &[u32; 8], color: &[u32; 8], x: u8) -> [u8; 3] {
    let i = (x >> 5) as usize;
    let f = (x & 31) as i32;
    let d = regs::GasLutFirstEntry(diff[i]);
    let c = regs::GasLutLastEntry(color[i]);
    [
        lut_channel(c.red(), d.red_magnitude(), d.red_negative(), f),
        lut_channel(c.green(), d.green_magnitude(), d.green_negative(), f),
        lut_channel(c.blue(), d.blue_magnitude(), d.blue_negative(), f),
    ]
}

/// One channel of [`lut_color`]: `clamp(c ± trunc(mag · 255 · f / (127 · 32)), 0, 255)` for
/// the 8-bit colour `c`, the 7-bit difference magnitude `mag` (negative when `negative`) and
/// the position `f` (0-31) in the interval.
const fn lut_channel(c: u32, mag: u32, negative: bool, f: i32) -> u8 {
    let c = (c & 0xFF) as i32;
    let step = (mag & 0x7F) as i32 * 255 * f / (127 * 32);
    let v = if negative { c - step } else { c + step };
    if v < 0 {
        0
    } else if v > 255 {
        255
    } else {
        v as u8
    }
}

/// Gas shading of `f` (changes `f.color`; see the module docs).
pub fn apply(f: &mut ShadedFragment, regs: &RegFile) {
    let g = GasShading::from_regs(regs);
    let out = g.shade(f.color);
    tracing::trace!(target: "fog", x = f.frag.x, y = f.frag.y, input = ?f.color, output = ?out,
        "gas shading");
    f.color = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gas_scale_sat_floors_and_saturates() {
        // 100 · 1.5 = 150; 100 · 0.3330078125 (0x3554) = 33.3 → 33; 200 · 2 → 255.
        assert_eq!(scale_sat(100, F16::from_bits(0x3E00)), 150);
        assert_eq!(scale_sat(100, F16::from_bits(0x3554)), 33);
        assert_eq!(scale_sat(200, F16::from_bits(0x4000)), 255);
        // Negative, NaN, 0 · inf, inf.
        assert_eq!(scale_sat(100, F16::from_bits(0xBC00)), 0);
        assert_eq!(scale_sat(100, F16::from_bits(0x7E00)), 0);
        assert_eq!(scale_sat(0, F16::from_bits(0x7C00)), 0);
        assert_eq!(scale_sat(1, F16::from_bits(0x7C00)), 255);
    }

    #[test]
    fn gas_light_factor_fades_to_minimum() {
        // Planar: max 200 - 255·128/255 = 72, above min 10 → 72. View: max 100 - 128 → 0,
        // min 50 → 50; 50 · 255 / 255 = 50. Sum 122.
        assert_eq!(light_factor(255, [10, 200, 128], [50, 100, 128], 255), 122);
        // Sum saturates.
        assert_eq!(light_factor(0, [0, 255, 0], [0, 255, 0], 255), 255);
    }

    #[test]
    fn gas_lut_interpolates_sign_magnitude_differences() {
        let mut diff = [0u32; 8];
        let mut color = [0u32; 8];
        // Interval 2: red 100 rising by 127/127, green 100 falling by 64/127, blue 0 falling.
        color[2] = 100 | 100 << 8;
        diff[2] = 0x7F | 0xC0 << 8 | 0xFF << 16;
        // x = 64 + 16: f = 16. Red: 127·255·16/4064 = 127 (127.5) → 227. Green: 64·255·16/4064
        // = 64 (64.25) → 36. Blue: 0 - 127 → 0.
        assert_eq!(lut_color(&diff, &color, 80), [227, 36, 0]);
        // f = 0: the colour itself.
        assert_eq!(lut_color(&diff, &color, 64), [100, 100, 0]);
    }
}
