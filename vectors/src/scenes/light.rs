//! Fragment-lighting scenes. The sphere scenes light a tessellated hemisphere (the visible half
//! of a sphere of radius 0.75 seen along -z: positions on the disc, normals as quaternions,
//! view vectors towards an eye at the origin) once per light-environment configuration; the
//! flat scenes light quads whose normal, light and view directions are exact (normal quaternion
//! (0, 0, 0, 1) or (1, 0, 0, 0), light along +z, view (0, 0, 1)), so their pixels can be
//! derived by hand.

use super::{setup32, R};
use crate::builder::attrs::{textured_rect, FullVertex};
use crate::builder::lighting::{lighting_lut_const, lighting_lut_entry, Light, LightEnv};
use crate::builder::texenv::TexEnv;
use crate::builder::texture::{TexConfig, TexImage, TexUnit};
use crate::builder::Builder;
use pica_model::regs::{
    self, LightingConfig0BumpMode, LightingConfig0FresnelSelector, LightingLutIndexTable as Lut,
    PrimitiveConfigMode, TexenvCombinerMode as Mode, TexenvSourceInput as Src,
    TexunitTypeFormat as Fmt,
};

/// Rings and segments of the hemisphere.
const RINGS: u32 = 6;
const SEGMENTS: u32 = 16;
/// Radius of the hemisphere in clip space.
const RADIUS: f32 = 0.75;

/// The unit quaternion that rotates +z onto the unit normal `n` (axis z × n, angle acos nz):
/// (-ny, nx, 0) / (2c), c = sqrt((1 + nz) / 2).
pub(super) fn quat_to(n: [f32; 3]) -> [f32; 4] {
    let c = ((1.0 + n[2]) / 2.0).sqrt();
    if c < 1e-6 {
        return [1.0, 0.0, 0.0, 0.0];
    }
    [-n[1] / (2.0 * c), n[0] / (2.0 * c), 0.0, c]
}

/// The hemisphere: a centre vertex and `RINGS` rings of `SEGMENTS` vertices, indexed
/// triangles. The sphere's centre is at view-space (0, 0, -2): the view vector of a point p is
/// -(p - eye) = (-x, -y, 2 - z).
pub(super) fn hemisphere() -> (Vec<FullVertex>, Vec<u16>) {
    hemisphere_at(0.0, 0.0, RADIUS)
}

/// [`hemisphere`] centred at clip (`cx`, `cy`) with radius `radius`.
pub(super) fn hemisphere_at(cx: f32, cy: f32, radius: f32) -> (Vec<FullVertex>, Vec<u16>) {
    let mut v = Vec::new();
    let vertex = |dx: f32, dy: f32| {
        let r2 = (dx * dx + dy * dy) / (radius * radius);
        let nz = (1.0 - r2).max(0.0).sqrt();
        let n = [dx / radius, dy / radius, nz];
        let (x, y) = (cx + dx, cy + dy);
        FullVertex::xy_uv(x, y, (x + 1.0) / 2.0, (y + 1.0) / 2.0)
            .with_quat(quat_to(n))
            .with_view([-dx, -dy, 2.0 - nz * radius])
    };
    v.push(vertex(0.0, 0.0));
    for ring in 1..=RINGS {
        let r = radius * ring as f32 / RINGS as f32;
        for s in 0..SEGMENTS {
            let a = std::f32::consts::TAU * s as f32 / SEGMENTS as f32;
            v.push(vertex(r * a.cos(), r * a.sin()));
        }
    }
    let at = |ring: u32, s: u32| -> u16 {
        if ring == 0 {
            0
        } else {
            (1 + (ring - 1) * SEGMENTS + s % SEGMENTS) as u16
        }
    };
    let mut idx = Vec::new();
    for ring in 0..RINGS {
        for s in 0..SEGMENTS {
            let (a, b) = (at(ring + 1, s), at(ring + 1, s + 1));
            if ring == 0 {
                idx.extend([0, a, b]);
            } else {
                let (c, d) = (at(ring, s), at(ring, s + 1));
                idx.extend([c, a, b, c, b, d]);
            }
        }
    }
    (v, idx)
}

/// Draws the hemisphere.
fn draw_hemisphere(b: &mut Builder) {
    let (v, idx) = hemisphere();
    b.full_vertex_array(&v);
    let ib = b.index_buffer_u16(&idx);
    b.draw_elements(PrimitiveConfigMode::Triangles, &ib);
}

/// A ramp LUT for the signed-input tables: entries 0-127 (inputs 0 to 127/128) rise from 0 by
/// 32 (value 32k, difference 32), entries 128-255 (negative inputs) are 0.
fn ramp_lut() -> Vec<u32> {
    (0..256u32)
        .map(|k| {
            if k < 128 {
                lighting_lut_entry(k * 32, if k < 127 { 32 } else { 0 })
            } else {
                lighting_lut_entry(0, 0)
            }
        })
        .collect()
}

/// The standard setup with the seven-attribute shader and lighting on, combiner stage 0 adding
/// the fragment primary and secondary colours (alpha: the vertex colour's).
fn lit_setup() -> R {
    let mut b = setup32()?;
    b.full_vertex_shader()?;
    b.lighting_enable(true);
    b.texenvs(&[TexEnv::new(
        Mode::Add,
        [
            Src::FragmentPrimaryColor,
            Src::FragmentSecondaryColor,
            Src::FragmentSecondaryColor,
        ],
    )
    .with_alpha(Mode::Replace, [Src::PrimaryColor; 3])]);
    Ok(b)
}

/// Every LUT the sphere scenes use: D0 and D1 ramps, FR 0x800, RR 0xFFF, RG 0xC00, RB 0x800,
/// SP0-1 and DA0-1 ramps.
fn upload_luts(b: &mut Builder) {
    b.lighting_lut(Lut::D0, &ramp_lut());
    b.lighting_lut(Lut::D1, &ramp_lut());
    b.lighting_lut(Lut::Fr, &lighting_lut_const(0x800));
    b.lighting_lut(Lut::Rr, &lighting_lut_const(0xFFF));
    b.lighting_lut(Lut::Rg, &lighting_lut_const(0xC00));
    b.lighting_lut(Lut::Rb, &lighting_lut_const(0x800));
    for t in [Lut::Sp0, Lut::Sp1, Lut::Da0, Lut::Da1] {
        b.lighting_lut(t, &ramp_lut());
    }
}

/// A light from the upper right front, grey diffuse, specular 0x40 / 0x80.
fn key_light() -> Light {
    Light::directional([0.5, 0.5, 1.0], [0x80, 0x80, 0x80])
        .with_specular([0x40, 0x40, 0x40], [0x80, 0x60, 0x40])
        .with_ambient([0x10, 0x10, 0x10])
}

/// light/config<n>: the hemisphere under one light with environment configuration `field`
/// (the CONFIG0 field value: 0-6, and 8 for configuration 7), all LUTs enabled, spot,
/// attenuation and shadow disabled, D0 / D1 on N·H, FR on N·V, RR / RG / RB on N·H.
fn config_scene(field: u32) -> R {
    let mut b = lit_setup()?;
    upload_luts(&mut b);
    b.light(0, &key_light());
    let mut env = LightEnv::new(1, [0x20, 0x20, 0x20], field);
    // LUTs enabled (bits 16-22 clear except the "must be 1" bit 18), spot / shadow /
    // attenuation disabled for every light.
    env.config1 = regs::LightingConfig1(0xFF00_FFFF);
    env.lut_select =
        regs::LightingLutinputSelect(0).with_fr_input(regs::LightingLutinputSelectInput::NDotV);
    b.light_env(&env);
    draw_hemisphere(&mut b);
    Ok(b)
}

pub(super) fn config0() -> R {
    config_scene(0)
}
pub(super) fn config1() -> R {
    config_scene(1)
}
pub(super) fn config2() -> R {
    config_scene(2)
}
pub(super) fn config3() -> R {
    config_scene(3)
}
pub(super) fn config4() -> R {
    config_scene(4)
}
pub(super) fn config5() -> R {
    config_scene(5)
}
pub(super) fn config6() -> R {
    config_scene(6)
}
pub(super) fn config7() -> R {
    config_scene(8)
}

/// A 24×24-pixel quad (pixels 4-27) facing the viewer with normal quaternion `q`, view (0, 0,
/// 1), colour white.
fn flat_quad(b: &mut Builder, rect: [f32; 4], q: [f32; 4]) {
    let v: Vec<FullVertex> = textured_rect(rect, [0.0, 0.0, 1.0, 1.0])
        .into_iter()
        .map(|v| v.with_quat(q))
        .collect();
    b.full_vertex_array(&v);
    b.draw_arrays(PrimitiveConfigMode::TriangleStrip, 0, 4);
}

/// The normal +z.
const FRONT: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
/// The normal -z (half a turn about x).
const BACK: [f32; 4] = [1.0, 0.0, 0.0, 0.0];

/// light/two_sided: two quads with normal -z under a directional light along +z, diffuse
/// (0xFF, 0, 0xFF), no ambient: the left one with the light two-sided (|N·L| = 1: lit), the
/// right one with it one-sided (max(N·L, 0) = 0: black).
pub(super) fn two_sided() -> R {
    let mut b = lit_setup()?;
    let mut l = Light::directional([0.0, 0.0, 1.0], [0xFF, 0x00, 0xFF]);
    l.two_sided = true;
    b.light(0, &l);
    b.light_env(&LightEnv::new(1, [0; 3], 0));
    flat_quad(&mut b, [-0.75, -0.75, 0.0, 0.75], BACK);
    l.two_sided = false;
    b.light(0, &l);
    flat_quad(&mut b, [0.0, -0.75, 0.75, 0.75], BACK);
    Ok(b)
}

/// light/spot: two positional lights at (0, 0, 10) above a quad facing them (view (0, 0, 1), so
/// the surface point is (0, 0, -1) and L = +z exactly); light 0 red with its spot enabled and
/// an SP0 LUT of 0 (no light), light 1 green with its spot disabled: green.
pub(super) fn spot() -> R {
    let mut b = lit_setup()?;
    b.lighting_lut(Lut::Sp0, &lighting_lut_const(0));
    b.light(0, &Light::positional([0.0, 0.0, 10.0], [0xFF, 0, 0]));
    b.light(1, &Light::positional([0.0, 0.0, 10.0], [0, 0xFF, 0]));
    let mut env = LightEnv::new(2, [0; 3], 0);
    // Light 0's spot on (bit 8 clear), everything else off.
    env.config1 = regs::LightingConfig1(0xFF7F_FEFF);
    b.light_env(&env);
    flat_quad(&mut b, [-0.75, -0.75, 0.75, 0.75], FRONT);
    Ok(b)
}

/// light/attenuation: as light/spot with distance attenuation instead: light 0 red with a DA0
/// LUT of 0 and attenuation enabled, light 1 green with attenuation disabled: green.
pub(super) fn attenuation() -> R {
    let mut b = lit_setup()?;
    b.lighting_lut(Lut::Da0, &lighting_lut_const(0));
    let mut l0 = Light::positional([0.0, 0.0, 10.0], [0xFF, 0, 0]);
    l0.atten_scale = 0.0625;
    l0.atten_bias = 0.0;
    b.light(0, &l0);
    b.light(1, &Light::positional([0.0, 0.0, 10.0], [0, 0xFF, 0]));
    let mut env = LightEnv::new(2, [0; 3], 0);
    // Light 0's distance attenuation on (bit 24 clear).
    env.config1 = regs::LightingConfig1(0xFE7F_FFFF);
    b.light_env(&env);
    flat_quad(&mut b, [-0.75, -0.75, 0.75, 0.75], FRONT);
    Ok(b)
}

/// A floor seen from above by an eye at the origin: the quad covers pixels 4-27 (clip ±0.75)
/// and stands for the view-space square x, y ∈ [-1, 1] at z = -1, normal +z. A point's view
/// vector (towards the eye) is (-x, -y, 1), so a positional light at the eye has
/// L = (-x, -y, 1), of length sqrt(x² + y² + 1), whose angle to the axis grows towards the
/// corners.
fn floor_under_eye(b: &mut Builder) {
    let v: Vec<FullVertex> = textured_rect([-0.75, -0.75, 0.75, 0.75], [0.0, 0.0, 1.0, 1.0])
        .into_iter()
        .map(|v| {
            let (x, y) = (v.pos[0] / 0.75, v.pos[1] / 0.75);
            v.with_quat(FRONT).with_view([-x, -y, 1.0])
        })
        .collect();
    b.full_vertex_array(&v);
    b.draw_arrays(PrimitiveConfigMode::TriangleStrip, 0, 4);
}

/// light/spot_cone: a white spotlight at the eye pointing straight down at
/// [`floor_under_eye`]; the SP0 LUT (input -L·P, abs on: index `floor(cos · 256)`) is 0.75
/// (0xC00) for entries 205-255 (cos ≥ 205/256 ≈ 0.80) and 0 below, so a disc of radius
/// about 0.75 view units (9 pixels) around the centre is lit at 3/4 of `N·L`.
pub(super) fn spot_cone() -> R {
    let mut b = lit_setup()?;
    let sp: Vec<u32> = (0..256u32)
        .map(|k| lighting_lut_entry(if k >= 205 { 0xC00 } else { 0 }, 0))
        .collect();
    b.lighting_lut(Lut::Sp0, &sp);
    let mut l = Light::positional([0.0, 0.0, 0.0], [0xFF, 0xFF, 0xFF]);
    l.spot_dir = [0.0, 0.0, -1.0];
    b.light(0, &l);
    let mut env = LightEnv::new(1, [0; 3], 0);
    // Light 0's spot on (bit 8 clear), everything else off.
    env.config1 = regs::LightingConfig1(0xFF7F_FEFF);
    env.lut_select =
        regs::LightingLutinputSelect(0).with_sp_input(regs::LightingLutinputSelectInput::NegLDotP);
    env.lut_abs = regs::LightingLutinputAbs(0).with_sp_abs_disabled(false);
    b.light_env(&env);
    floor_under_eye(&mut b);
    Ok(b)
}

/// light/attenuation_falloff: a white light at the eye over [`floor_under_eye`] with distance
/// attenuation on: the DA0 LUT (input `clamp(0.5 · |L| + 0, 0, 1)`, index `floor(x · 256)`)
/// falls from 4095/4096 by 16/4096 an entry (difference -8/2048), so the light fades with the
/// distance towards the corners on top of `N·L`.
pub(super) fn attenuation_falloff() -> R {
    let mut b = lit_setup()?;
    let da: Vec<u32> = (0..256u32)
        .map(|k| lighting_lut_entry(4095 - 16 * k, if k < 255 { -8 } else { 0 }))
        .collect();
    b.lighting_lut(Lut::Da0, &da);
    let mut l = Light::positional([0.0, 0.0, 0.0], [0xFF, 0xFF, 0xFF]);
    l.atten_scale = 0.5;
    l.atten_bias = 0.0;
    b.light(0, &l);
    let mut env = LightEnv::new(1, [0; 3], 0);
    // Light 0's distance attenuation on (bit 24 clear).
    env.config1 = regs::LightingConfig1(0xFE7F_FFFF);
    b.light_env(&env);
    floor_under_eye(&mut b);
    Ok(b)
}

/// light/fresnel: configuration 1 (FR available), fresnel selector "primary alpha", an FR LUT
/// of 0: the fragment primary alpha is 0; diffuse (0xFF, 0, 0xFF) straight on. Combiner alpha
/// from the fragment primary colour.
pub(super) fn fresnel() -> R {
    let mut b = lit_setup()?;
    b.texenvs(&[TexEnv::replace(Src::FragmentPrimaryColor)]);
    b.lighting_lut(Lut::Fr, &lighting_lut_const(0));
    b.light(0, &Light::directional([0.0, 0.0, 1.0], [0xFF, 0, 0xFF]));
    let mut env = LightEnv::new(1, [0; 3], 1);
    env.config0 = env
        .config0
        .with_fresnel_selector(LightingConfig0FresnelSelector::PrimaryAlpha);
    // FR enabled (bit 19 clear).
    env.config1 = regs::LightingConfig1(0xFF77_FFFF);
    b.light_env(&env);
    flat_quad(&mut b, [-0.75, -0.75, 0.75, 0.75], FRONT);
    Ok(b)
}

/// light/bump: a bump map in texture unit 0 (RGBA8888 8×8: left half (0x80, 0x80, 0xFF) ≈ +z,
/// right half (0xFF, 0x80, 0x80) ≈ +x) under a light from +x (diffuse white): the right half
/// brighter. Bump mode "bump map", recalculation of z on.
pub(super) fn bump() -> R {
    let mut b = lit_setup()?;
    let img = TexImage::from_fn(8, 8, |x, _| {
        if x < 4 {
            [0x80, 0x80, 0xFF, 0xFF]
        } else {
            [0xFF, 0x80, 0x80, 0xFF]
        }
    });
    let addr = b.upload_texture(&img, Fmt::Rgba8888)?;
    b.texture_unit(0, &TexUnit::new(addr, 8, 8, Fmt::Rgba8888));
    b.texunit_config(&TexConfig::units([true, false, false]));
    b.light(0, &Light::directional([1.0, 0.0, 0.25], [0xFF, 0xFF, 0xFF]));
    let mut env = LightEnv::new(1, [0x10, 0x10, 0x10], 0);
    env.config0 = env
        .config0
        .with_bump_mode(LightingConfig0BumpMode::BumpMap)
        .with_bump_map_unit(0)
        .with_bump_recalc_disabled(false);
    b.light_env(&env);
    flat_quad(&mut b, [-0.75, -0.75, 0.75, 0.75], FRONT);
    Ok(b)
}

/// light/multiple: three lights through the permutation slots 0-2 = lights 5, 2, 7 (red,
/// green, black), with light 0 (blue) set up but not in any slot: yellow. Reading lights 0-2
/// instead would give blue + green.
pub(super) fn multiple() -> R {
    let mut b = lit_setup()?;
    let dir = [0.0, 0.0, 1.0];
    b.light(0, &Light::directional(dir, [0, 0, 0xFF]));
    b.light(1, &Light::directional(dir, [0, 0, 0]));
    b.light(5, &Light::directional(dir, [0xFF, 0, 0]));
    b.light(2, &Light::directional(dir, [0, 0xFF, 0]));
    b.light(7, &Light::directional(dir, [0, 0, 0]));
    let mut env = LightEnv::new(3, [0; 3], 0);
    env.permutation = 0x0000_0725;
    b.light_env(&env);
    flat_quad(&mut b, [-0.75, -0.75, 0.75, 0.75], FRONT);
    Ok(b)
}

/// light/sphere_multiple: the hemisphere under four coloured lights (two directional, two
/// positional) in a shuffled permutation, every LUT on (configuration 7).
pub(super) fn sphere_multiple() -> R {
    let mut b = lit_setup()?;
    upload_luts(&mut b);
    b.lighting_lut(Lut::Da0, &lighting_lut_const(0xC00));
    b.light(3, &Light::directional([1.0, 0.0, 0.5], [0x80, 0, 0]));
    b.light(1, &Light::directional([-1.0, 0.0, 0.5], [0, 0x80, 0]));
    b.light(6, &Light::positional([0.0, 2.0, 0.0], [0, 0, 0x80]));
    b.light(
        0,
        &Light::positional([0.0, -2.0, 0.0], [0x40, 0x40, 0x40]).with_specular([0x40; 3], [0; 3]),
    );
    let mut env = LightEnv::new(4, [0x10, 0x10, 0x10], 8);
    env.config1 = regs::LightingConfig1(0xFE04_FFFF);
    env.permutation = 0x0000_0613;
    b.light_env(&env);
    draw_hemisphere(&mut b);
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_quat_to_front_and_back_are_exact() {
        assert_eq!(quat_to([0.0, 0.0, 1.0]), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(quat_to([0.0, 0.0, -1.0]), [1.0, 0.0, 0.0, 0.0]);
        // (0.6, 0, 0.8): c = sqrt(0.9); q = (0, 0.6 / 2c, 0, c), a rotation about +y.
        let q = quat_to([0.6, 0.0, 0.8]);
        assert_eq!((q[0], q[2]), (0.0, 0.0));
        assert!(q[1] > 0.0 && q[3] > 0.0);
    }

    /// The hemisphere: 1 + 6 · 16 vertices, 16 + 5 · 32 triangles, every index in range and
    /// every triangle counter-clockwise (positive area) in clip space.
    #[test]
    fn light_hemisphere_mesh_is_closed_and_ccw() {
        let (v, idx) = hemisphere();
        assert_eq!(v.len(), 97);
        assert_eq!(idx.len(), 3 * (16 + 5 * 32));
        assert_eq!(v[0].quat, [0.0, 0.0, 0.0, 1.0]);
        for t in idx.chunks(3) {
            let p: Vec<[f32; 4]> = t.iter().map(|&i| v[usize::from(i)].pos).collect();
            let area = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1])
                - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
            assert!(area > 0.0, "{t:?}");
        }
    }
}
