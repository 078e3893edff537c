//! Fragment lighting setup (seed 002 GPUREG_LIGHTi_*, GPUREG_LIGHTING_*): per-light colours,
//! position, spot direction, configuration and distance attenuation; the light environment
//! (ambient, number of lights, CONFIG0/1, LUT input selection, absolute value and scale,
//! permutation, ENABLE0/ENABLE1); and LUT upload through LIGHTING_LUT_INDEX / DATA.

use super::Builder;
use pica_model::num::{Fix0_0_12, F16, F20};
use pica_model::regs::{self, id, LightConfigType, LightingLutEntry, LightingLutIndexTable};

/// A light colour register (SPECULAR0/1, DIFFUSE, AMBIENT, LIGHTING_AMBIENT) from 8-bit
/// channels: blue in bits 0-9, green 10-19, red 20-29 (register table; 255 = 1.0, so the two
/// top bits of each field stay 0 here).
pub fn light_color_word([r, g, b]: [u8; 3]) -> u32 {
    regs::LightSpecular0(0)
        .with_red(r.into())
        .with_green(g.into())
        .with_blue(b.into())
        .0
}

/// A host float as f16 bits (truncating, as citro3d's `f32tof16`).
pub fn f16_bits(x: f32) -> u32 {
    F16::from_f64_trunc(f64::from(x)).bits()
}

/// A host float as f20 bits (truncating).
pub fn f20_bits(x: f32) -> u32 {
    F20::from_f64_trunc(f64::from(x)).bits()
}

/// A host float as fixed1.1.11 bits (13 bits, two's complement: the spot direction; rounded as
/// citro3d's `floattofix2_11`).
pub fn fix1_1_11_bits(x: f32) -> u32 {
    let raw = (f64::from(x) * 2048.0).round().clamp(-4096.0, 4095.0) as i32;
    raw as u32 & 0x1FFF
}

/// One light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Specular 0 colour (material × light).
    pub specular0: [u8; 3],
    /// Specular 1 colour.
    pub specular1: [u8; 3],
    /// Diffuse colour.
    pub diffuse: [u8; 3],
    /// Ambient colour.
    pub ambient: [u8; 3],
    /// Position (positional light) or direction towards the light (directional), view space.
    pub pos: [f32; 3],
    /// Spot direction (unit vector, view space); written negated (seed 002: "X coordinate
    /// (negated)").
    pub spot_dir: [f32; 3],
    /// Directional (else positional).
    pub directional: bool,
    /// Two-sided diffuse.
    pub two_sided: bool,
    /// Geometric factors 0 and 1.
    pub geometric: [bool; 2],
    /// Distance attenuation bias.
    pub atten_bias: f32,
    /// Distance attenuation scale.
    pub atten_scale: f32,
}

impl Light {
    /// A directional light from direction `dir` with diffuse colour `diffuse`, everything else
    /// 0.
    pub const fn directional(dir: [f32; 3], diffuse: [u8; 3]) -> Self {
        Self {
            specular0: [0; 3],
            specular1: [0; 3],
            diffuse,
            ambient: [0; 3],
            pos: dir,
            spot_dir: [0.0, 0.0, -1.0],
            directional: true,
            two_sided: false,
            geometric: [false; 2],
            atten_bias: 0.0,
            atten_scale: 0.0,
        }
    }

    /// A positional light at `pos`.
    pub const fn positional(pos: [f32; 3], diffuse: [u8; 3]) -> Self {
        let mut l = Self::directional(pos, diffuse);
        l.directional = false;
        l
    }

    /// The same with specular colours `s0`, `s1`.
    pub const fn with_specular(mut self, s0: [u8; 3], s1: [u8; 3]) -> Self {
        self.specular0 = s0;
        self.specular1 = s1;
        self
    }

    /// The same with ambient colour `a`.
    pub const fn with_ambient(mut self, a: [u8; 3]) -> Self {
        self.ambient = a;
        self
    }

    /// The eight words of 0x140-0x147 (+0x10 per light): SPECULAR0, SPECULAR1, DIFFUSE,
    /// AMBIENT, XY, Z, SPOTDIR_XY, SPOTDIR_Z.
    pub fn words(&self) -> [u32; 8] {
        let neg = |v: f32| fix1_1_11_bits(-v);
        [
            light_color_word(self.specular0),
            light_color_word(self.specular1),
            light_color_word(self.diffuse),
            light_color_word(self.ambient),
            regs::LightXy(0)
                .with_x(f16_bits(self.pos[0]))
                .with_y(f16_bits(self.pos[1]))
                .0,
            regs::LightZ(0).with_z(f16_bits(self.pos[2])).0,
            regs::LightSpotdirXy(0)
                .with_x(neg(self.spot_dir[0]))
                .with_y(neg(self.spot_dir[1]))
                .0,
            regs::LightSpotdirZ(0).with_z(neg(self.spot_dir[2])).0,
        ]
    }

    /// GPUREG_LIGHTi_CONFIG.
    pub fn config_word(&self) -> u32 {
        regs::LightConfig(0)
            .with_light_type(if self.directional {
                LightConfigType::Directional
            } else {
                LightConfigType::Positional
            })
            .with_two_side_diffuse(self.two_sided)
            .with_use_geometric_factor0(self.geometric[0])
            .with_use_geometric_factor1(self.geometric[1])
            .0
    }
}

/// The light environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LightEnv {
    /// GPUREG_LIGHTING_AMBIENT (scene ambient + emission).
    pub ambient: [u8; 3],
    /// Active lights (1-8).
    pub num_lights: u32,
    /// GPUREG_LIGHTING_CONFIG0 (the builder forces its "must be" bits).
    pub config0: regs::LightingConfig0,
    /// GPUREG_LIGHTING_CONFIG1 (bit 18 forced to 1).
    pub config1: regs::LightingConfig1,
    /// GPUREG_LIGHTING_LUTINPUT_ABS.
    pub lut_abs: regs::LightingLutinputAbs,
    /// GPUREG_LIGHTING_LUTINPUT_SELECT.
    pub lut_select: regs::LightingLutinputSelect,
    /// GPUREG_LIGHTING_LUTINPUT_SCALE.
    pub lut_scale: regs::LightingLutinputScale,
    /// GPUREG_LIGHTING_LIGHT_PERMUTATION.
    pub permutation: u32,
}

/// CONFIG1 with every per-light shadow, spot and distance-attenuation bit set (disabled) and
/// every LUT disabled: the plainest lighting (diffuse only), bit 18 "must be 1".
pub const CONFIG1_ALL_OFF: u32 = 0xFF7F_FFFF;

impl LightEnv {
    /// `n` lights (slots 0..n hold lights 0..n), ambient `ambient`, environment configuration
    /// `config` (raw CONFIG0 field 4-7), every LUT, spot, shadow and attenuation disabled in
    /// CONFIG1, LUT inputs N·H with abs, scale 1.
    pub fn new(n: u32, ambient: [u8; 3], config: u32) -> Self {
        Self {
            ambient,
            num_lights: n.clamp(1, 8),
            config0: regs::LightingConfig0(0)
                .with_light_env_config(regs::LightingConfig0LightEnv::from_bits(config & 0xF)),
            config1: regs::LightingConfig1(CONFIG1_ALL_OFF),
            lut_abs: regs::LightingLutinputAbs(0),
            lut_select: regs::LightingLutinputSelect(0),
            lut_scale: regs::LightingLutinputScale(0),
            permutation: 0x7654_3210,
        }
    }

    /// CONFIG0 with its required bits: 8-11 = 4 and 31 = 1 (seed 002 "must be").
    pub fn config0_word(&self) -> u32 {
        self.config0.with_reserved_8_11(4).with_reserved_31(1).0
    }

    /// CONFIG1 with bit 18 = 1 (seed 002 "must be").
    pub fn config1_word(&self) -> u32 {
        self.config1.with_reserved_18(1).0
    }
}

/// A LUT entry (register table `LightingLutEntry`): `value` fixed0.0.12 in bits 0-11 and the
/// difference to the next entry `diff` (in units of 1/2048) as sign and magnitude — magnitude
/// in bits 12-22, bit 23 set when negative, as citro3d `LightLut_FromArray` writes it. The
/// magnitude saturates at 0x7FF.
pub fn lighting_lut_entry(value: u32, diff: i32) -> u32 {
    let mag = diff.unsigned_abs().min(0x7FF);
    LightingLutEntry(0)
        .with_value(Fix0_0_12::from_bits(value & 0xFFF).bits())
        .with_difference(mag)
        .with_difference_negative(diff < 0)
        .0
}

/// A 256-entry LUT of one value (difference 0).
pub fn lighting_lut_const(value: u32) -> Vec<u32> {
    vec![lighting_lut_entry(value, 0); 256]
}

impl Builder {
    /// Light `i` (0-7): one consecutive write of its first eight registers, then CONFIG, then
    /// one consecutive write of ATTENUATION_BIAS and SCALE.
    pub fn light(&mut self, i: u8, l: &Light) -> &mut Self {
        let base = id::LIGHT0_SPECULAR0 + 0x10 * u16::from(i & 7);
        self.list.write_seq(base, &l.words());
        self.list.write(base + 9, l.config_word());
        self.list.write_seq(
            base + 0xA,
            &[
                regs::LightAttenuationBias(0)
                    .with_bias(f20_bits(l.atten_bias))
                    .0,
                regs::LightAttenuationScale(0)
                    .with_scale(f20_bits(l.atten_scale))
                    .0,
            ],
        );
        self
    }

    /// Lighting on or off: GPUREG_LIGHTING_ENABLE0 = `on`, GPUREG_LIGHTING_ENABLE1 = !`on`
    /// (seed 002: "set to 1 when fragment lighting is disabled, and to 0 when it is enabled").
    pub fn lighting_enable(&mut self, on: bool) -> &mut Self {
        self.list.write(
            id::LIGHTING_ENABLE0,
            regs::LightingEnable0(0).with_enabled(on).0,
        );
        self.list.write(
            id::LIGHTING_ENABLE1,
            regs::LightingEnable1(0).with_disabled(!on).0,
        );
        self
    }

    /// The light environment: LIGHTING_AMBIENT, NUM_LIGHTS, CONFIG0, CONFIG1 (0x1C0, 0x1C2-0x1C4),
    /// LUTINPUT_ABS / SELECT / SCALE (0x1D0-0x1D2, one consecutive write), LIGHT_PERMUTATION.
    pub fn light_env(&mut self, e: &LightEnv) -> &mut Self {
        self.list
            .write(id::LIGHTING_AMBIENT, light_color_word(e.ambient));
        self.list.write_seq(
            id::LIGHTING_NUM_LIGHTS,
            &[
                regs::LightingNumLights(0)
                    .with_num_lights_minus_1(e.num_lights.clamp(1, 8) - 1)
                    .0,
                e.config0_word(),
                e.config1_word(),
            ],
        );
        self.list.write_seq(
            id::LIGHTING_LUTINPUT_ABS,
            &[e.lut_abs.0, e.lut_select.0, e.lut_scale.0],
        );
        self.list
            .write(id::LIGHTING_LIGHT_PERMUTATION, e.permutation);
        self
    }

    /// Uploads `entries` (at most 256) into LUT `table` from index 0: GPUREG_LIGHTING_LUT_INDEX,
    /// then the entries through GPUREG_LIGHTING_LUT_DATA0 as repeated-ID writes (the data
    /// registers are a FIFO, seed 002).
    pub fn lighting_lut(&mut self, table: LightingLutIndexTable, entries: &[u32]) -> &mut Self {
        self.list.write(
            id::LIGHTING_LUT_INDEX,
            regs::LightingLutIndex(0).with_table(table).with_index(0).0,
        );
        let n = entries.len().min(256);
        self.list
            .write_repeat(id::LIGHTING_LUT_DATA0, &entries[..n]);
        self
    }
}
