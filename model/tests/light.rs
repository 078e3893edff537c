//! LIGHT, fragment lighting: every register behaviour on hand-built geometry, with hand-derived
//! output bytes.
//!
//! Geometry: the identity quaternion gives the normal N = (0,0,1) and tangent T = (1,0,0);
//! view and light vectors are along the axes (their normalisation is exact) or `(1,0,1)`-like,
//! whose normalisation multiplies by `r = rsq(2) = trunc(1/sqrt 2) ≈ 0.70710`.
//!
//! Colours are register integers (255 = 1.0; the fields are 10 bits, so 256 is legal and makes
//! `256 · lut` show the LUT value in 1/256 steps). Unless a test says otherwise the LUTs are all
//! zero and every per-light attenuation (spot, distance) and shadow is disabled in CONFIG1.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::light::{lighting, LightOut};
use pica_model::num::{F16, F20, F24};
use pica_model::pipe::{semantic, Fragment, NUM_SEMANTICS};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use proptest::prelude::*;

// LUT slots (seed 002 GPUREG_LIGHTING_LUT_INDEX).
const D0: u32 = 0;
const D1: u32 = 1;
const FR: u32 = 3;
const RB: u32 = 4;
const RG: u32 = 5;
const RR: u32 = 6;
const SP0: u32 = 8;
const DA0: u32 = 16;

// LUTINPUT_SELECT values.
const NH: u32 = 0;
const VH: u32 = 1;
const NV: u32 = 2;
const LN: u32 = 3;
const SP: u32 = 4;
const CP: u32 = 5;

// Per-light register offsets.
const SPEC0: u32 = 0;
const SPEC1: u32 = 1;
const DIFFUSE: u32 = 2;
const AMBIENT: u32 = 3;
const XY: u32 = 4;
const Z: u32 = 5;
const SPOT_XY: u32 = 6;
const SPOT_Z: u32 = 7;
const CONFIG: u32 = 9;
const DA_BIAS: u32 = 0xA;
const DA_SCALE: u32 = 0xB;

/// CONFIG1 with every per-light shadow / spot / distance attenuation disabled, all LUTs on.
const CONFIG1_PLAIN: u32 = 0xFF00_FFFF;
/// LUTINPUT_ABS with every abs flag off (signed addressing).
const ABS_OFF: u32 = 0x0222_2222;
/// CONFIG0 environment configuration field.
fn env(c: u32) -> u32 {
    c << 4
}

/// `rsq(2)`, the normalising factor of `(1, 0, 1)`: signed index `floor(r·128) = 90`, unsigned
/// `floor(r·256) = 181`.
const R_SIGNED: u8 = 90;
const R_UNSIGNED: u8 = 181;

fn rgb(r: u32, g: u32, b: u32) -> u32 {
    (r << 20) | (g << 10) | b
}

fn f16(x: f64) -> u32 {
    F16::from_f64_trunc(x).bits()
}

fn f20(x: f64) -> u32 {
    F20::from_f64_trunc(x).bits()
}

/// fixed1.1.11 of a multiple of 1/2048.
fn fix(x: f64) -> u32 {
    ((x * 2048.0) as i32 as u32) & 0x1FFF
}

struct Rig {
    regs: RegFile,
}

impl Rig {
    /// Lighting on, one light (light 0), environment configuration 0, CONFIG1_PLAIN.
    fn new() -> Self {
        let mut r = Rig {
            regs: RegFile::new(),
        };
        r.set(id::LIGHTING_ENABLE0, 1);
        r.set(id::LIGHTING_ENABLE1, 0);
        r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN);
        r
    }

    fn set(&mut self, reg: u16, value: u32) {
        self.regs.write(reg, value);
    }

    fn light(&mut self, n: u32, off: u32, value: u32) {
        self.set(id::LIGHT0_SPECULAR0 + (0x10 * n + off) as u16, value);
    }

    /// Directional light `n` with direction `d`.
    fn directional(&mut self, n: u32, d: [f64; 3]) {
        self.light(n, XY, f16(d[0]) | (f16(d[1]) << 16));
        self.light(n, Z, f16(d[2]));
        self.light(n, CONFIG, 1);
    }

    fn lut(&mut self, table: u32, entries: &[(u8, u32)]) {
        for &(i, w) in entries {
            self.set(id::LIGHTING_LUT_INDEX, (table << 8) | u32::from(i));
            self.set(id::LIGHTING_LUT_DATA0, w);
        }
    }

    /// Every entry of `table` is `f(index)`.
    fn lut_fn(&mut self, table: u32, f: impl Fn(u32) -> u32) {
        self.set(id::LIGHTING_LUT_INDEX, table << 8);
        for i in 0..256 {
            self.set(id::LIGHTING_LUT_DATA0, f(i));
        }
    }

    fn run(&self, frag: &Fragment, tex: &[[u8; 4]; 4]) -> LightOut {
        lighting(frag, tex, &self.regs)
    }
}

fn frag(quat: [f64; 4], view: [f64; 3]) -> Fragment {
    let mut attr = [F24::ONE; NUM_SEMANTICS];
    for (i, q) in quat.iter().enumerate() {
        attr[semantic::QUATERNION + i] = F24::from_f64_trunc(*q);
    }
    for (i, v) in view.iter().enumerate() {
        attr[semantic::VIEW + i] = F24::from_f64_trunc(*v);
    }
    Fragment {
        x: 0,
        y: 0,
        depth: 0,
        color: [0; 4],
        attr,
        tri: 0,
        tex_deriv: [[F24::ZERO; 4]; 3],
    }
}

const IDENT: [f64; 4] = [0.0, 0.0, 0.0, 1.0];
const NO_TEX: [[u8; 4]; 4] = [[0; 4]; 4];

/// View along the normal.
fn front() -> Fragment {
    frag(IDENT, [0.0, 0.0, 1.0])
}

fn out(primary: [u8; 4], secondary: [u8; 4]) -> LightOut {
    LightOut { primary, secondary }
}

// ---- enable -------------------------------------------------------------------------------

#[test]
fn light_disabled_outputs_zero() {
    let mut r = Rig::new();
    r.set(id::LIGHTING_AMBIENT, rgb(10, 20, 30));
    assert_eq!(r.run(&front(), &NO_TEX).primary, [10, 20, 30, 255]);
    r.set(id::LIGHTING_ENABLE0, 0);
    assert_eq!(r.run(&front(), &NO_TEX), LightOut::default());
    r.set(id::LIGHTING_ENABLE0, 1);
    r.set(id::LIGHTING_ENABLE1, 1);
    assert_eq!(r.run(&front(), &NO_TEX), LightOut::default());
}

// ---- ambient and diffuse --------------------------------------------------------------------

#[test]
fn light_ambient_global_plus_light_ambient() {
    let mut r = Rig::new();
    r.set(id::LIGHTING_AMBIENT, rgb(10, 20, 30));
    r.directional(0, [0.0, 0.0, 1.0]);
    r.light(0, AMBIENT, rgb(1, 2, 3));
    assert_eq!(
        r.run(&front(), &NO_TEX),
        out([11, 22, 33, 255], [0, 0, 0, 255])
    );
    // Sums clamp at 255 (10-bit channel 1023 is 4x brighter than 1.0).
    r.light(0, AMBIENT, rgb(1023, 0, 250));
    assert_eq!(r.run(&front(), &NO_TEX).primary, [255, 20, 255, 255]);
}

#[test]
fn light_directional_diffuse_full_and_at_45_degrees() {
    let mut r = Rig::new();
    r.light(0, DIFFUSE, rgb(200, 100, 50));
    // Direction (0,0,2) normalises exactly to N: L·N = 1.
    r.directional(0, [0.0, 0.0, 2.0]);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [200, 100, 50, 255]);
    // Direction (1,0,1): L·N = r ≈ 0.70710; 200r = 141.4, 100r = 70.7, 50r = 35.4, rounded
    // to the nearest byte.
    r.directional(0, [1.0, 0.0, 1.0]);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [141, 71, 35, 255]);
    // From behind: one-sided diffuse clamps L·N = -1 to 0.
    r.directional(0, [0.0, 0.0, -1.0]);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [0, 0, 0, 255]);
}

#[test]
fn light_two_sided_diffuse_uses_abs() {
    let mut r = Rig::new();
    r.light(0, DIFFUSE, rgb(200, 100, 50));
    r.directional(0, [0.0, 0.0, -1.0]);
    r.light(0, CONFIG, 1 | 2);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [200, 100, 50, 255]);
}

#[test]
fn light_positional_light_vector_is_position_plus_view() {
    let mut r = Rig::new();
    r.light(0, DIFFUSE, rgb(200, 100, 50));
    // Positional (CONFIG bit 0 = 0) at (0,0,-1) with view (0,0,1): L = 0 → no light.
    r.light(0, Z, f16(-1.0));
    assert_eq!(r.run(&front(), &NO_TEX).primary, [0, 0, 0, 255]);
    // At (0,0,1): L = (0,0,2) → L·N = 1.
    r.light(0, Z, f16(1.0));
    assert_eq!(r.run(&front(), &NO_TEX).primary, [200, 100, 50, 255]);
    // At (1,0,0): L = (1,0,1) → r.
    r.light(0, XY, f16(1.0));
    r.light(0, Z, 0);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [141, 71, 35, 255]);
}

// ---- LUTs ---------------------------------------------------------------------------------

/// One D0 entry value `v` (fixed0.0.12) with difference `d` (sign-magnitude, /2048).
fn entry(v: u32, d: i32) -> u32 {
    let mag = d.unsigned_abs() & 0x7FF;
    let sign = u32::from(d < 0) << 11;
    v | ((sign | mag) << 12)
}

#[test]
fn light_lut_interpolation_unsigned_via_distance_attenuation() {
    let mut r = Rig::new();
    r.light(0, DIFFUSE, rgb(256, 256, 256));
    r.directional(0, [0.0, 0.0, 1.0]);
    // Distance attenuation on for light 0; |L| = 1, scale 0, bias = 0.5 + 1/512: entry 128,
    // delta 1/2. Entry 128 = 0.5 + 0.125 * delta = 0.5625 → 256 * 0.5625 = 144.
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN & !(1 << 24));
    r.light(0, DA_SCALE, 0);
    r.light(0, DA_BIAS, f20(0.5 + 1.0 / 512.0));
    r.lut(DA0, &[(128, entry(0x800, 0x100))]);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [144, 144, 144, 255]);
    // Negative difference: 0.5 - 0.0625 = 0.4375 → 112.
    r.lut(DA0, &[(128, entry(0x800, -0x100))]);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [112, 112, 112, 255]);
    // Above the domain: clamp to 1.0 → entry 255 with delta 1: 0x100/4096 + 0x200/2048 = 0.3125
    // → 80.
    r.light(0, DA_BIAS, f20(3.0));
    r.lut(DA0, &[(255, entry(0x100, 0x200))]);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [80, 80, 80, 255]);
    // Below: entry 0, delta 0 → 0x040/4096 → 4.
    r.light(0, DA_BIAS, f20(-3.0));
    r.lut(DA0, &[(0, entry(0x040, 0x7FF))]);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [4, 4, 4, 255]);
}

#[test]
fn light_lut_distance_attenuation_scale_and_bias() {
    let mut r = Rig::new();
    r.light(0, DIFFUSE, rgb(256, 256, 256));
    // Positional at (0,0,3), view (0,0,1): L = (0,0,4), |L| = 4; 4 * 0.125 + 0.25 = 0.75 →
    // entry 192 = 0x200 (1/8) → 32.
    r.light(0, Z, f16(3.0));
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN & !(1 << 24));
    r.light(0, DA_SCALE, f20(0.125));
    r.light(0, DA_BIAS, f20(0.25));
    r.lut(DA0, &[(192, entry(0x200, 0))]);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [32, 32, 32, 255]);
    // Disabled again (bit 24): no attenuation.
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [255, 255, 255, 255]);
}

/// D0 identity table: entry `i` holds `i/256` (value `16 i`), no difference, so the
/// secondary red byte with SPEC0 = 256 is the entry index.
fn d0_rig(select: u32, abs: bool) -> Rig {
    let mut r = Rig::new();
    r.lut_fn(D0, |i| i * 16);
    r.light(0, SPEC0, rgb(256, 0, 0));
    r.set(id::LIGHTING_LUTINPUT_SELECT, select);
    r.set(id::LIGHTING_LUTINPUT_ABS, if abs { 0 } else { ABS_OFF });
    r
}

#[test]
fn light_lut_signed_index_with_negative_difference() {
    // Input SP = L·spot with L = (0,0,1), spot z = -1/256: signed entry 0xFF, delta 1/2.
    let mut r = d0_rig(SP, false);
    r.directional(0, [0.0, 0.0, 1.0]);
    r.light(0, SPOT_Z, fix(-1.0 / 256.0));
    r.lut(D0, &[(0xFF, entry(0x400, -0x200))]);
    // 0.25 - 0.25 * 0.5 = 0.125 → 32.
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [32, 0, 0, 255]);
    // spot z = -1: entry 0x80 (value 0x800 = 128/256) → 128.
    r.light(0, SPOT_Z, fix(-1.0));
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [128, 0, 0, 255]);
    // spot z = -0.5: floor(-64) = -64 → entry 0xC0 → 192.
    r.light(0, SPOT_Z, fix(-0.5));
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [192, 0, 0, 255]);
}

#[test]
fn light_lut_abs_index_one_sided_clamps_two_sided_takes_abs() {
    let mut r = d0_rig(SP, true);
    r.directional(0, [0.0, 0.0, 1.0]);
    // SP = -0.5: one-sided light → max(-0.5, 0) = 0 → entry 0.
    r.light(0, SPOT_Z, fix(-0.5));
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [0, 0, 0, 255]);
    // Two-sided → |-0.5| → entry 128.
    r.light(0, CONFIG, 1 | 2);
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [128, 0, 0, 255]);
}

/// G1: N = (0,0,1), V = (1,0,0), L = (0,0,1): NH = VH = r, NV = 0, LN = 1.
fn g1(r: &mut Rig) -> Fragment {
    r.directional(0, [0.0, 0.0, 1.0]);
    frag(IDENT, [1.0, 0.0, 0.0])
}

/// G2: N = (0,0,1), V = (1,0,0), L = (0,1,0): NH = 0, VH = r, NV = 0, LN = 0.
fn g2(r: &mut Rig) -> Fragment {
    r.directional(0, [0.0, 1.0, 0.0]);
    frag(IDENT, [1.0, 0.0, 0.0])
}

#[test]
fn light_lut_every_input_selector() {
    // (selector, signed index in G1, in G2)
    let cases = [
        (NH, R_SIGNED, 0),
        (VH, R_SIGNED, R_SIGNED),
        (NV, 0, 0),
        (LN, 127, 0),
    ];
    for (sel, want1, want2) in cases {
        let mut r = d0_rig(sel, false);
        let f = g1(&mut r);
        assert_eq!(r.run(&f, &NO_TEX).secondary[0], want1, "selector {sel} G1");
        let f = g2(&mut r);
        assert_eq!(r.run(&f, &NO_TEX).secondary[0], want2, "selector {sel} G2");
    }
    // Unsigned (abs) addressing of the same inputs in G1.
    for (sel, want) in [(NH, R_UNSIGNED), (VH, R_UNSIGNED), (NV, 0), (LN, 255)] {
        let mut r = d0_rig(sel, true);
        let f = g1(&mut r);
        assert_eq!(r.run(&f, &NO_TEX).secondary[0], want, "abs selector {sel}");
    }
    // SP: L·spot with spot = (0,0,-0.5) in G1 → -0.5 → 0xC0.
    let mut r = d0_rig(SP, false);
    let f = g1(&mut r);
    r.light(0, SPOT_Z, fix(-0.5));
    assert_eq!(r.run(&f, &NO_TEX).secondary[0], 0xC0);
    // The spot X/Y fields: spot = (-0.5, 0, 0) with L = (1,0,0) (V = (0,0,1)).
    r.light(0, SPOT_Z, 0);
    r.light(0, SPOT_XY, fix(-0.5));
    r.directional(0, [1.0, 0.0, 0.0]);
    assert_eq!(r.run(&front(), &NO_TEX).secondary[0], 0xC0);
    r.light(0, SPOT_XY, fix(-0.5) << 16);
    r.directional(0, [0.0, 1.0, 0.0]);
    assert_eq!(r.run(&front(), &NO_TEX).secondary[0], 0xC0);
}

#[test]
fn light_lut_cp_input_only_in_configuration_7() {
    // G1, T = (1,0,0): Hn = r(1,0,1), projection (r,0,0), CP = r.
    let mut r = d0_rig(CP, false);
    let f = g1(&mut r);
    r.set(id::LIGHTING_CONFIG0, env(8));
    assert_eq!(r.run(&f, &NO_TEX).secondary[0], R_SIGNED);
    // Other configurations read CP as 0.
    r.set(id::LIGHTING_CONFIG0, env(4));
    assert_eq!(r.run(&f, &NO_TEX).secondary[0], 0);
    // G2 with a tangent map (texture 1 = (0, 255, 0) → T = (-1, 1, -1)): Hn = r(1,1,0),
    // CP = -r + r = 0; without the map CP = r.
    let f = g2(&mut r);
    r.set(id::LIGHTING_CONFIG0, env(8));
    assert_eq!(r.run(&f, &NO_TEX).secondary[0], R_SIGNED);
    r.set(id::LIGHTING_CONFIG0, env(8) | (2 << 28) | (1 << 22));
    let tex = [[0; 4], [0, 255, 0, 0], [0; 4], [0; 4]];
    assert_eq!(r.run(&f, &tex).secondary[0], 0);
}

#[test]
fn light_lut_every_scale() {
    // D0 constant 1/4 (value 0x400) on input LN = 1 (entry 127 signed), SPEC0 = 64: 16 * scale.
    let want = [
        (0, 16),
        (1, 32),
        (2, 64),
        (3, 128),
        (4, 1),
        (5, 2),
        (6, 4),
        (7, 8),
    ];
    for (code, byte) in want {
        let mut r = Rig::new();
        r.lut_fn(D0, |_| 0x400);
        r.light(0, SPEC0, rgb(64, 0, 0));
        r.directional(0, [0.0, 0.0, 1.0]);
        r.set(id::LIGHTING_LUTINPUT_SELECT, LN);
        r.set(id::LIGHTING_LUTINPUT_SCALE, code);
        assert_eq!(
            r.run(&front(), &NO_TEX).secondary[0],
            byte,
            "scale code {code}"
        );
    }
}

// ---- configurations, disables, reflections -------------------------------------------------

#[test]
fn light_environment_configuration_hides_luts() {
    // D0 constant 1/4 on SPEC0 = 64 → 16; hidden or disabled D0 reads 1.0 → 64.
    let mut r = Rig::new();
    r.lut_fn(D0, |_| 0x400);
    r.light(0, SPEC0, rgb(64, 0, 0));
    r.directional(0, [0.0, 0.0, 1.0]);
    for (cfg, want) in [
        (0, 16),
        (1, 64),
        (2, 16),
        (3, 16),
        (4, 16),
        (5, 16),
        (6, 16),
        (8, 16),
    ] {
        r.set(id::LIGHTING_CONFIG0, env(cfg));
        assert_eq!(r.run(&front(), &NO_TEX).secondary[0], want, "config {cfg}");
    }
    r.set(id::LIGHTING_CONFIG0, env(0));
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN | (1 << 16));
    assert_eq!(r.run(&front(), &NO_TEX).secondary[0], 64, "D0 disabled");

    // Spotlight: SP0 constant 1/2 halves the diffuse 200 → 100, except where SP is hidden
    // (configurations 2 and 3) or light 0's spot bit (CONFIG1 bit 8) is set.
    let mut r = Rig::new();
    r.lut_fn(SP0, |_| 0x800);
    r.light(0, DIFFUSE, rgb(200, 200, 200));
    r.directional(0, [0.0, 0.0, 1.0]);
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN & !(1 << 8));
    for (cfg, want) in [
        (0, 100),
        (1, 100),
        (2, 200),
        (3, 200),
        (4, 100),
        (5, 100),
        (6, 100),
        (8, 100),
    ] {
        r.set(id::LIGHTING_CONFIG0, env(cfg));
        assert_eq!(
            r.run(&front(), &NO_TEX).primary[0],
            want,
            "spot config {cfg}"
        );
    }
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN);
    r.set(id::LIGHTING_CONFIG0, env(0));
    assert_eq!(r.run(&front(), &NO_TEX).primary[0], 200, "spot disabled");
}

#[test]
fn light_spot_attenuation_uses_the_lights_own_table() {
    // Light 3 in slot 0 reads SP3 (slot 11) with its spot direction (0,0,-1): L·spot = -1
    // → signed entry 0x80.
    let mut r = Rig::new();
    r.set(id::LIGHTING_LIGHT_PERMUTATION, 3);
    r.light(3, DIFFUSE, rgb(200, 200, 200));
    r.directional(3, [0.0, 0.0, 1.0]);
    r.light(3, SPOT_Z, fix(-1.0));
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN & !(1 << (8 + 3)));
    r.set(id::LIGHTING_LUTINPUT_SELECT, SP << 8);
    r.set(id::LIGHTING_LUTINPUT_ABS, ABS_OFF);
    r.lut(SP0, &[(0x80, 0xFFF)]);
    r.lut(SP0 + 3, &[(0x80, 0x400)]);
    assert_eq!(r.run(&front(), &NO_TEX).primary[0], 50);
}

#[test]
fn light_reflection_luts_and_rr_fallback() {
    // SPEC1 = 256 each; D1 constant 1.0 - via hidden D1 in configuration 5.
    // RR = 1/4, RG = 1/2, RB = 1/8 (values 0x400, 0x800, 0x200) on input LN = 1.
    let mut r = Rig::new();
    r.light(0, SPEC1, rgb(256, 256, 256));
    r.directional(0, [0.0, 0.0, 1.0]);
    r.set(
        id::LIGHTING_LUTINPUT_SELECT,
        (LN << 16) | (LN << 20) | (LN << 24),
    );
    r.lut_fn(RR, |_| 0x400);
    r.lut_fn(RG, |_| 0x800);
    r.lut_fn(RB, |_| 0x200);
    r.lut_fn(D1, |_| 0x800);
    r.set(id::LIGHTING_CONFIG0, env(5));
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [64, 128, 32, 255]);
    // Configuration 4 has D1 (1/2).
    r.set(id::LIGHTING_CONFIG0, env(4));
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [32, 64, 16, 255]);
    // Configuration 0 has RR only: green and blue take RR.
    r.set(id::LIGHTING_CONFIG0, env(0));
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [64, 64, 64, 255]);
    // RG disabled (CONFIG1 bit 21) in configuration 5: green takes RR.
    r.set(id::LIGHTING_CONFIG0, env(5));
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN | (1 << 21));
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [64, 64, 32, 255]);
    // RR disabled (bit 22): red 1.0, and the others still their own.
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN | (1 << 22));
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [255, 128, 32, 255]);
}

#[test]
fn light_geometric_factor_scales_specular() {
    // G1 geometry: L·N = 1, H = (1,0,1), |H|² = 2 → g = min(1 * rcp(2), 1) = 1/2.
    let mut r = Rig::new();
    let f = g1(&mut r);
    // D0, D1 and RR disabled: both terms are their colours.
    r.set(
        id::LIGHTING_CONFIG1,
        CONFIG1_PLAIN | (1 << 16) | (1 << 17) | (1 << 22),
    );
    r.light(0, SPEC0, rgb(200, 0, 0));
    r.light(0, SPEC1, rgb(0, 100, 0));
    assert_eq!(r.run(&f, &NO_TEX).secondary, [200, 100, 0, 255]);
    r.light(0, CONFIG, 1 | 4);
    assert_eq!(r.run(&f, &NO_TEX).secondary, [100, 100, 0, 255]);
    r.light(0, CONFIG, 1 | 8);
    assert_eq!(r.run(&f, &NO_TEX).secondary, [200, 50, 0, 255]);
}

#[test]
fn light_geometric_factor_zero_half_vector() {
    // V = (0,0,-1) against L = (0,0,1): H = 0, |H|² = 0 → g = 0 (Azahar), so SPEC0 vanishes.
    let mut r = Rig::new();
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN | (1 << 16) | (1 << 22));
    r.light(0, SPEC0, rgb(200, 0, 0));
    r.directional(0, [0.0, 0.0, 1.0]);
    let f = frag(IDENT, [0.0, 0.0, -1.0]);
    assert_eq!(r.run(&f, &NO_TEX).secondary, [200, 0, 0, 255]);
    r.light(0, CONFIG, 1 | 4);
    assert_eq!(r.run(&f, &NO_TEX).secondary, [0, 0, 0, 255]);
}

#[test]
fn light_lut_reserved_selector_reads_zero() {
    for sel in [6, 7] {
        let mut r = d0_rig(sel, false);
        let f = g1(&mut r);
        r.lut(D0, &[(0, 0x100)]);
        // Entry 0 = 0x100/4096 = 1/16 → 256/16 = 16.
        assert_eq!(r.run(&f, &NO_TEX).secondary[0], 16, "selector {sel}");
    }
}

#[test]
fn light_clamp_highlights_zeroes_specular_when_unlit() {
    let mut r = Rig::new();
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN | (1 << 16));
    r.light(0, SPEC0, rgb(100, 100, 100));
    r.directional(0, [0.0, 0.0, -1.0]);
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [100, 100, 100, 255]);
    r.set(id::LIGHTING_CONFIG0, 1 << 27);
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [0, 0, 0, 255]);
    // Lit (L·N = 1): clamp highlights changes nothing.
    r.directional(0, [0.0, 0.0, 1.0]);
    assert_eq!(r.run(&front(), &NO_TEX).secondary, [100, 100, 100, 255]);
}

// ---- fresnel, permutation ------------------------------------------------------------------

#[test]
fn light_fresnel_to_alpha_from_the_last_light() {
    // Configuration 1 has FR. FR on input LN, abs addressing: a light along N reads entry 255
    // (value 0xFFF, delta 1 with no difference → 4095/4096 → 254.9 → 255), a light from
    // behind reads entry 0 (value 0x800 → 127.5 → 128, halves round up).
    let mut r = Rig::new();
    r.set(id::LIGHTING_LUTINPUT_SELECT, LN << 12);
    r.lut(FR, &[(0, 0x800), (255, 0xFFF)]);
    r.set(id::LIGHTING_NUM_LIGHTS, 1);
    r.set(id::LIGHTING_LIGHT_PERMUTATION, 1 << 4); // slot 0 = light 0, slot 1 = light 1
    r.directional(0, [0.0, 0.0, 1.0]);
    r.directional(1, [0.0, 0.0, -1.0]);
    r.set(id::LIGHTING_CONFIG0, env(1) | (1 << 2));
    assert_eq!(r.run(&front(), &NO_TEX).primary[3], 128);
    assert_eq!(r.run(&front(), &NO_TEX).secondary[3], 255);
    r.set(id::LIGHTING_CONFIG0, env(1) | (3 << 2));
    let o = r.run(&front(), &NO_TEX);
    assert_eq!((o.primary[3], o.secondary[3]), (128, 128));
    // Swapped slots: the last is light 0.
    r.set(id::LIGHTING_LIGHT_PERMUTATION, 1);
    r.set(id::LIGHTING_CONFIG0, env(1) | (2 << 2));
    let o = r.run(&front(), &NO_TEX);
    assert_eq!((o.primary[3], o.secondary[3]), (255, 255));
    // Configuration 0 has no FR: alphas stay 1.0.
    r.set(id::LIGHTING_CONFIG0, env(0) | (3 << 2));
    let o = r.run(&front(), &NO_TEX);
    assert_eq!((o.primary[3], o.secondary[3]), (255, 255));
    // FR disabled (CONFIG1 bit 19) likewise.
    r.set(id::LIGHTING_CONFIG0, env(1) | (3 << 2));
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN | (1 << 19));
    let o = r.run(&front(), &NO_TEX);
    assert_eq!((o.primary[3], o.secondary[3]), (255, 255));
}

#[test]
fn light_permutation_selects_and_sums_lights() {
    let mut r = Rig::new();
    for n in 0..8 {
        r.directional(n, [0.0, 0.0, 1.0]);
        r.light(n, DIFFUSE, rgb(n + 1, 10 * (n + 1), 0));
    }
    // One light, slot 0 = light 5.
    r.set(id::LIGHTING_LIGHT_PERMUTATION, 5);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [6, 60, 0, 255]);
    // Two lights: 5 and 2.
    r.set(id::LIGHTING_NUM_LIGHTS, 1);
    r.set(id::LIGHTING_LIGHT_PERMUTATION, 5 | (2 << 4));
    assert_eq!(r.run(&front(), &NO_TEX).primary, [9, 90, 0, 255]);
    // Eight lights 0-7: 1+..+8 = 36, green 360 → clamped.
    r.set(id::LIGHTING_NUM_LIGHTS, 7);
    r.set(id::LIGHTING_LIGHT_PERMUTATION, 0x7654_3210);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [36, 255, 0, 255]);
    // The same light twice counts twice.
    r.set(id::LIGHTING_NUM_LIGHTS, 1);
    r.set(id::LIGHTING_LIGHT_PERMUTATION, 0x33);
    assert_eq!(r.run(&front(), &NO_TEX).primary, [8, 80, 0, 255]);
}

// ---- bump and shadow -----------------------------------------------------------------------

#[test]
fn light_bump_normal_map_from_selected_texture() {
    let mut r = Rig::new();
    r.light(0, DIFFUSE, rgb(200, 200, 200));
    r.directional(0, [-1.0, 0.0, 0.0]);
    // Without bump mapping N = (0,0,1) ⟂ L: dark.
    assert_eq!(r.run(&front(), &NO_TEX).primary[0], 0);
    // Normal map in texture 2 (bump selector 2), no renormalisation: texel (0,128,128) →
    // N = (-1, 1/255, 1/255): L·N = 1 → 200. Texture 0 (not selected) holds a different normal.
    r.set(id::LIGHTING_CONFIG0, (1 << 28) | (2 << 22) | (1 << 30));
    let tex = [[255, 128, 128, 0], [0; 4], [0, 128, 128, 0], [0; 4]];
    assert_eq!(r.run(&front(), &tex).primary[0], 200);
    // Normal (1/255, 1/255, -1) from texel (128,128,0) faces away from L = (0,0,1) ...
    r.directional(0, [0.0, 0.0, 1.0]);
    let tex = [[0; 4], [0; 4], [128, 128, 0, 0], [0; 4]];
    assert_eq!(r.run(&front(), &tex).primary[0], 0);
    // ... with renormalisation z = sqrt(1 - 2/255²) ≈ 0.99998 → 199.99 → 200 (rounded).
    r.set(id::LIGHTING_CONFIG0, (1 << 28) | (2 << 22));
    assert_eq!(r.run(&front(), &tex).primary[0], 200);
}

#[test]
fn light_bump_reserved_mode_is_no_bump() {
    let mut r = Rig::new();
    r.light(0, DIFFUSE, rgb(200, 200, 200));
    r.directional(0, [0.0, 0.0, 1.0]);
    // Mode 3 with a texel whose normal would face away: the plain normal (0,0,1) is used.
    r.set(id::LIGHTING_CONFIG0, 3 << 28);
    let tex = [[128, 128, 0, 0], [0; 4], [0; 4], [0; 4]];
    assert_eq!(r.run(&front(), &tex).primary[0], 200);
    r.set(id::LIGHTING_CONFIG0, (1 << 28) | (1 << 30));
    assert_eq!(r.run(&front(), &tex).primary[0], 0);
}

#[test]
fn light_shadow_factor_on_primary_secondary_and_alpha() {
    let mut r = Rig::new();
    r.light(0, DIFFUSE, rgb(255, 255, 255));
    r.light(0, SPEC0, rgb(255, 255, 255));
    r.set(id::LIGHTING_CONFIG1, (CONFIG1_PLAIN & !1) | (1 << 16));
    r.directional(0, [0.0, 0.0, 1.0]);
    // Shadow texture 1 = (255, 0, 51, 102): factors 1, 0, trunc(0.2), trunc(0.4).
    // 255 * trunc(0.2) = 50.99 → 51 (rounded).
    let tex = [[0; 4], [255, 0, 51, 102], [0; 4], [0; 4]];
    let shadow = 1 | (1 << 24);
    r.set(id::LIGHTING_CONFIG0, shadow | (1 << 16));
    assert_eq!(
        r.run(&front(), &tex),
        out([255, 0, 51, 255], [255, 255, 255, 255])
    );
    r.set(id::LIGHTING_CONFIG0, shadow | (1 << 17));
    assert_eq!(
        r.run(&front(), &tex),
        out([255, 255, 255, 255], [255, 0, 51, 255])
    );
    // Inverted: 1 - t/255 = (255 - t)/255 → factors 0, 1, trunc(0.8).
    // 255 * trunc(0.8) = 203.99 → 204 (rounded).
    r.set(id::LIGHTING_CONFIG0, shadow | (1 << 16) | (1 << 18));
    assert_eq!(r.run(&front(), &tex).primary, [0, 255, 204, 255]);
    // Alpha: with the fresnel selector naming the primary alpha, 255 * trunc(0.4) = 101.99 → 102.
    r.set(id::LIGHTING_CONFIG0, shadow | (1 << 19) | (1 << 2));
    assert_eq!(
        r.run(&front(), &tex),
        out([255, 255, 255, 102], [255, 255, 255, 255])
    );
    // Light 0's shadow disabled (CONFIG1 bit 0): colours unshadowed.
    r.set(id::LIGHTING_CONFIG1, CONFIG1_PLAIN | (1 << 16));
    r.set(id::LIGHTING_CONFIG0, shadow | (1 << 16) | (1 << 17));
    assert_eq!(
        r.run(&front(), &tex),
        out([255, 255, 255, 255], [255, 255, 255, 255])
    );
    // Shadow factor off (CONFIG0 bit 0 clear): factor 1.
    r.set(id::LIGHTING_CONFIG1, (CONFIG1_PLAIN & !1) | (1 << 16));
    r.set(id::LIGHTING_CONFIG0, (1 << 24) | (1 << 16) | (1 << 17));
    assert_eq!(
        r.run(&front(), &tex),
        out([255, 255, 255, 255], [255, 255, 255, 255])
    );
}

// ---- robustness ----------------------------------------------------------------------------

fn f24_any() -> impl Strategy<Value = F24> {
    (0u32..0x100_0000).prop_map(F24::from_bits)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_light_no_panic(
        regs in proptest::collection::vec(any::<u32>(), 0x9A),
        enable in any::<u32>(),
        lut_writes in proptest::collection::vec((0u32..32, any::<u8>(), any::<u32>()), 0..64),
        attr in proptest::collection::vec(f24_any(), NUM_SEMANTICS),
        tex in any::<[[u8; 4]; 4]>(),
    ) {
        let mut r = Rig::new();
        r.set(id::LIGHTING_ENABLE0, enable | 1);
        for (i, v) in regs.iter().enumerate() {
            let reg = 0x140 + i as u16;
            // Leave the LUT FIFO registers to the explicit LUT writes.
            if !(id::LIGHTING_LUT_INDEX..=id::LIGHTING_LUT_DATA7).contains(&reg)
                && reg != id::LIGHTING_ENABLE1
            {
                r.set(reg, *v);
            }
        }
        for (t, i, w) in lut_writes {
            r.lut(t, &[(i, w)]);
        }
        let mut f = front();
        f.attr.copy_from_slice(&attr);
        let _ = r.run(&f, &tex);
    }

    #[test]
    fn prop_light_disabled_is_zero(
        regs in proptest::collection::vec(any::<u32>(), 0x9A),
        enable0 in any::<u32>(),
        enable1 in any::<u32>(),
        tex in any::<[[u8; 4]; 4]>(),
    ) {
        // Lighting is on only for ENABLE0 bit 0 = 1 and ENABLE1 bit 0 = 0.
        prop_assume!(enable0 & 1 == 0 || enable1 & 1 == 1);
        let mut r = Rig::new();
        for (i, v) in regs.iter().enumerate() {
            let reg = 0x140 + i as u16;
            if !(id::LIGHTING_LUT_INDEX..=id::LIGHTING_LUT_DATA7).contains(&reg) {
                r.set(reg, *v);
            }
        }
        r.set(id::LIGHTING_ENABLE0, enable0);
        r.set(id::LIGHTING_ENABLE1, enable1);
        prop_assert_eq!(r.run(&front(), &tex), LightOut::default());
    }
}
