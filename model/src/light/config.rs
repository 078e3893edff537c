//! Decoding of the fragment-lighting registers (seed 002 0x08F, 0x140-0x1D9) into the values the
//! lighting arithmetic uses. Every register value decodes (reserved codes included): nothing
//! here can panic.

use crate::knobs::{LightEnable, LightFixed1111};
use crate::num::{Fix1_1_11, F16, F20, F24};
use crate::regfile::RegFile;
use crate::regs::id;

/// A lighting LUT slot of `RegFile::luts().lighting` (seed 002 GPUREG_LIGHTING_LUT_INDEX).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LutId {
    /// Distribution 0 (specular 0), slot 0.
    D0,
    /// Distribution 1 (specular 1), slot 1.
    D1,
    /// Fresnel, slot 3.
    Fr,
    /// Reflection blue, slot 4.
    Rb,
    /// Reflection green, slot 5.
    Rg,
    /// Reflection red, slot 6.
    Rr,
    /// Spotlight attenuation (slots 8-15, one per light).
    Sp,
    /// Distance attenuation (slots 16-23, one per light).
    Da,
}

impl LutId {
    /// The `luts().lighting` slot of a shared LUT (SP and DA: add the light number to this).
    pub const fn slot(self) -> usize {
        match self {
            LutId::D0 => 0,
            LutId::D1 => 1,
            LutId::Fr => 3,
            LutId::Rb => 4,
            LutId::Rg => 5,
            LutId::Rr => 6,
            LutId::Sp => 8,
            LutId::Da => 16,
        }
    }

    /// Position `k` of this LUT's 4-bit group in LUTINPUT_ABS / SELECT / SCALE (bits `4k..4k+3`;
    /// seed 002: D0, D1, SP, FR, RB, RG, RR). DA has no group.
    const fn field(self) -> Option<u32> {
        match self {
            LutId::D0 => Some(0),
            LutId::D1 => Some(1),
            LutId::Sp => Some(2),
            LutId::Fr => Some(3),
            LutId::Rb => Some(4),
            LutId::Rg => Some(5),
            LutId::Rr => Some(6),
            LutId::Da => None,
        }
    }

    /// GPUREG_LIGHTING_CONFIG1 bit that disables this LUT (SP and DA are per light).
    ///
    /// UNVERIFIED(hw) [fact: light-lut-enable-bits]: bit `16 + slot` (D0 16, D1 17, FR 19, RB 20, RG 21, RR 22) — seed 002
    /// GPUREG_LIGHTING_CONFIG1 and citro3d (`GPU_LC1_LUTBIT(n) = BIT(n + 16)` with
    /// `GPU_LUT_RB = 4`, `GPU_LUT_RR = 6`, cleared by `C3D_LightEnvLut`); Azahar
    /// `regs_lighting.h` names bits 20 and 22 the other way round (20 = RR, 22 = RB).
    const fn disable_bit(self) -> Option<u32> {
        match self {
            LutId::Sp | LutId::Da => None,
            _ => Some(16 + self.slot() as u32),
        }
    }
}

/// The light environment configuration's LUT availability (GPUREG_LIGHTING_CONFIG0 bits 4-7;
/// seed 002 table): a LUT that is not available reads 1.0 whatever CONFIG1 says.
///
/// | value | available |
/// |-------|-----------|
/// | 0 | D0, RR, SP, DA |
/// | 1 | FR, RR, SP, DA |
/// | 2 | D0, D1, RR, DA |
/// | 3 | D0, D1, FR, DA |
/// | 4 | all except FR |
/// | 5 | all except D1 |
/// | 6 | all except RB, RG |
/// | 8 | all ("configuration 7") |
///
/// UNVERIFIED(hw) [fact: light-reserved-values]: the reserved values 7 and 9-15 behave like 6 (D0, D1, FR, RR, SP, DA) —
/// what Azahar's `IsLightingSamplerSupported` answers for them.
pub fn lut_available(env: u32, lut: LutId) -> bool {
    use LutId::*;
    match (env, lut) {
        (_, Da) => true,
        (0, D0 | Rr | Sp) => true,
        (0, _) => false,
        (1, Fr | Rr | Sp) => true,
        (1, _) => false,
        (2, D0 | D1 | Rr) => true,
        (2, _) => false,
        (3, D0 | D1 | Fr) => true,
        (3, _) => false,
        (4, lut) => lut != Fr,
        (5, lut) => lut != D1,
        (8, _) => true,
        // 6 and the reserved values.
        (_, lut) => !matches!(lut, Rb | Rg),
    }
}

/// The environment configuration value of "configuration 7" (all LUTs), the only one in which
/// the CP input is computed (Azahar `sw_lighting.cpp`: CP reads 0 otherwise).
pub const ENV_CONFIG7: u32 = 8;

/// A LUT input selector (GPUREG_LIGHTING_LUTINPUT_SELECT, 3 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LutInput {
    /// 0: N·H.
    Nh,
    /// 1: V·H.
    Vh,
    /// 2: N·V.
    Nv,
    /// 3: L·N.
    Ln,
    /// 4: -L·P (spot direction).
    Sp,
    /// 5: cos φ (tangent · projected half vector).
    Cp,
    /// 6, 7: reserved.
    ///
    /// UNVERIFIED(hw) [fact: light-reserved-values]: a reserved selector reads the input 0.0 — Azahar's software renderer
    /// uses 0 after logging.
    Reserved(u32),
}

impl LutInput {
    /// Decodes the 3-bit field.
    pub const fn from_bits(v: u32) -> Self {
        match v & 7 {
            0 => LutInput::Nh,
            1 => LutInput::Vh,
            2 => LutInput::Nv,
            3 => LutInput::Ln,
            4 => LutInput::Sp,
            5 => LutInput::Cp,
            r => LutInput::Reserved(r),
        }
    }
}

/// The output scale of a LUT (GPUREG_LIGHTING_LUTINPUT_SCALE, 3 bits) as f24: `2^s` with `s` the
/// field read as a signed 3-bit number: 0 → 1, 1 → 2, 2 → 4, 3 → 8, 6 → 1/4, 7 → 1/2 (seed 002).
///
/// UNVERIFIED(hw) [fact: light-reserved-values]: the reserved values 4 and 5 continue the signed-exponent pattern (4 → 1/16,
/// 5 → 1/8) — the model's choice (a 3-bit signed shift is what the documented values are);
/// Azahar uses 0 for them.
pub fn lut_scale(v: u32) -> F24 {
    let v = v & 7;
    let exp = if v < 4 { v as i32 } else { v as i32 - 8 };
    // f24 bias 63: 2^exp is exponent field 63 + exp, mantissa 0.
    F24::from_parts(false, (63 + exp) as u32, 0)
}

/// How one of the shared LUTs (D0, D1, FR, RB, RG, RR, SP) is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LutSel {
    /// Available in the environment configuration and not disabled in CONFIG1 (for SP: available;
    /// the per-light spot disable is checked per light).
    pub enabled: bool,
    /// Input selector.
    pub input: LutInput,
    /// abs flag: the input is made non-negative and addressed unsigned. LUTINPUT_ABS stores the
    /// inverse (1 = abs disabled).
    pub abs: bool,
    /// Output scale.
    pub scale: F24,
}

/// One light's registers (light number `n`, registers `0x140 + 0x10 n ..`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LightRegs {
    /// Light number 0-7 (where the registers came from).
    pub num: usize,
    /// Specular 0 colour (r, g, b), integer-valued f24 in units of 1/255.
    pub specular0: [F24; 3],
    /// Specular 1 colour.
    pub specular1: [F24; 3],
    /// Diffuse colour.
    pub diffuse: [F24; 3],
    /// Ambient colour.
    pub ambient: [F24; 3],
    /// Position (positional) or direction (directional), f16 → f24 exactly.
    pub position: [F24; 3],
    /// Spot direction register (already negated by the driver), fixed1.1.11 → f24 exactly.
    pub spot_dir: [F24; 3],
    /// CONFIG bit 0.
    pub directional: bool,
    /// CONFIG bit 1.
    pub two_sided: bool,
    /// CONFIG bit 2.
    pub geometric0: bool,
    /// CONFIG bit 3.
    pub geometric1: bool,
    /// Distance attenuation bias (f20 → f24 exactly).
    pub da_bias: F24,
    /// Distance attenuation scale (f20 → f24 exactly).
    pub da_scale: F24,
    /// CONFIG1 bit `n` clear.
    pub shadow: bool,
    /// CONFIG1 bit `8 + n` clear.
    pub spot: bool,
    /// CONFIG1 bit `24 + n` clear.
    pub dist_atten: bool,
}

/// Bump mode (CONFIG0 bits 28-29).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BumpMode {
    /// 0: none.
    None,
    /// 1: the selected texture is a normal map.
    Normal,
    /// 2: the selected texture is a tangent map.
    Tangent,
    /// 3: reserved.
    ///
    /// UNVERIFIED(hw) [fact: light-reserved-values]: treated as [`BumpMode::None`] — the model's choice (Azahar logs an
    /// error and ends up with a zero normal).
    Reserved,
}

/// Every lighting register the computation reads, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LightEnv {
    /// Lighting on (see [`lighting_enabled`]).
    pub enabled: bool,
    /// Global ambient (r, g, b), units of 1/255.
    pub ambient: [F24; 3],
    /// The light of each of the 8 slots (LIGHT_PERMUTATION); only the first [`Self::count`]
    /// are active (see [`Self::active`]). A fixed array: decoding allocates nothing.
    pub lights: [LightRegs; 8],
    /// Active lights, NUM_LIGHTS + 1 (1-8).
    pub count: usize,
    /// CONFIG0 bits 4-7.
    pub env: u32,
    /// CONFIG0 bit 0.
    pub shadow_enable: bool,
    /// CONFIG0 bit 2: fresnel to the primary alpha.
    pub fresnel_primary: bool,
    /// CONFIG0 bit 3: fresnel to the secondary alpha.
    pub fresnel_secondary: bool,
    /// CONFIG0 bit 16.
    pub shadow_primary: bool,
    /// CONFIG0 bit 17.
    pub shadow_secondary: bool,
    /// CONFIG0 bit 18.
    pub shadow_invert: bool,
    /// CONFIG0 bit 19.
    pub shadow_alpha: bool,
    /// CONFIG0 bits 22-23: texture unit of the bump/tangent map.
    pub bump_selector: usize,
    /// CONFIG0 bits 24-25: texture unit of the shadow map.
    pub shadow_selector: usize,
    /// CONFIG0 bit 27.
    pub clamp_highlights: bool,
    /// CONFIG0 bits 28-29.
    pub bump_mode: BumpMode,
    /// CONFIG0 bit 30 clear ("recalculate bump vectors": 0 = enabled).
    pub bump_renorm: bool,
    /// D0.
    pub d0: LutSel,
    /// D1.
    pub d1: LutSel,
    /// FR.
    pub fr: LutSel,
    /// RB.
    pub rb: LutSel,
    /// RG.
    pub rg: LutSel,
    /// RR.
    pub rr: LutSel,
    /// SP (the table is per light).
    pub sp: LutSel,
}

impl LightEnv {
    /// The active lights in slot order.
    pub fn active(&self) -> &[LightRegs] {
        self.lights.get(..self.count).unwrap_or(&self.lights)
    }
}

/// Whether fragment lighting runs.
///
/// UNVERIFIED(hw) [fact: light-enable]: lighting is on when GPUREG_LIGHTING_ENABLE0 bit 0 is 1 **and**
/// GPUREG_LIGHTING_ENABLE1 bit 0 ("disabled") is 0 — seed 002 documents both registers as the
/// switch (drivers write them together); Azahar's software renderer tests only ENABLE1. With
/// lighting off both colours are 0 (Azahar `rasterizer.cpp`: primary and secondary fragment
/// colours stay zero).
pub fn lighting_enabled(regs: &RegFile) -> bool {
    // Knob `light-enable=enable1`: ENABLE1 alone decides, as Azahar's software renderer.
    let enable0 = match regs.knobs().light_enable {
        LightEnable::Both => regs.reg(id::LIGHTING_ENABLE0.into()) & 1 == 1,
        LightEnable::Enable1 => true,
    };
    enable0 && regs.reg(id::LIGHTING_ENABLE1.into()) & 1 == 0
}

/// A light colour register as three integer-valued f24 (r, g, b) in units of 1/255.
///
/// UNVERIFIED(hw) [fact: light-color-fields]: the channels are 10-bit fields (r 20-29, g 10-19, b 0-9; register table
/// `LightSpecular0` and the other light colours) whose value 255 is 1.0, so values above 255
/// brighten beyond 1.0 — Azahar `regs_lighting.h` LightColor; seed 002 lists only bits
/// 0-7 / 10-17 / 20-27.
pub fn color10(word: u32) -> [F24; 3] {
    let ch = |shift: u32| F24::from_f64_trunc(f64::from((word >> shift) & 0x3FF));
    [ch(20), ch(10), ch(0)]
}

/// A fixed1.1.11 field (13 bits, two's complement, `raw / 2048`) as f24 (exact).
///
/// UNVERIFIED(hw) [fact: light-fixed-1-1-11]: the weight is 1/2048 as the format says and citro3d writes it
/// (`floattofix2_11`: `x * (1 << 11)`) — Azahar divides by 2047.
pub fn fixed_1_1_11(raw: u32) -> F24 {
    fixed_1_1_11_with(raw, LightFixed1111::Div2048)
}

/// [`fixed_1_1_11`] with knob `light-fixed-1-1-11`: [`LightFixed1111::Div2047`] divides by
/// 2047 as Azahar does.
pub fn fixed_1_1_11_with(raw: u32, unit: LightFixed1111) -> F24 {
    let v = Fix1_1_11::from_bits(raw).raw();
    let d = match unit {
        LightFixed1111::Div2048 => 2048.0,
        LightFixed1111::Div2047 => 2047.0,
    };
    F24::from_f64_trunc(v as f64 / d)
}

fn f16(bits: u32) -> F24 {
    F24::from_f16(F16::from_bits(bits & 0xFFFF))
}

fn f20(bits: u32) -> F24 {
    F24::from_f20(F20::from_bits(bits & 0xF_FFFF))
}

/// Reads light `num`'s registers.
pub fn light_regs(regs: &RegFile, num: usize) -> LightRegs {
    let base = u32::from(id::LIGHT0_SPECULAR0) + 0x10 * (num as u32 & 7);
    let r = |off: u32| regs.reg(base + off);
    let unit = regs.knobs().light_fixed_1_1_11;
    let cfg = r(9);
    let cfg1 = regs.reg(id::LIGHTING_CONFIG1.into());
    let bit = |b: usize| (cfg1 >> b) & 1 == 0;
    LightRegs {
        num,
        specular0: color10(r(0)),
        specular1: color10(r(1)),
        diffuse: color10(r(2)),
        ambient: color10(r(3)),
        position: [f16(r(4)), f16(r(4) >> 16), f16(r(5))],
        spot_dir: [
            fixed_1_1_11_with(r(6), unit),
            fixed_1_1_11_with(r(6) >> 16, unit),
            fixed_1_1_11_with(r(7), unit),
        ],
        directional: cfg & 1 == 1,
        two_sided: (cfg >> 1) & 1 == 1,
        geometric0: (cfg >> 2) & 1 == 1,
        geometric1: (cfg >> 3) & 1 == 1,
        da_bias: f20(r(0xA)),
        da_scale: f20(r(0xB)),
        shadow: bit(num),
        spot: bit(8 + num),
        dist_atten: bit(24 + num),
    }
}

/// Every register [`decode`] reads, as inclusive ID ranges: GPUREG_LIGHTING_ENABLE0 and
/// 0x140-0x1D9 (the eight lights through GPUREG_LIGHTING_LIGHT_PERMUTATION). The LIGHT stage
/// keeps a decoded [`LightEnv`] while these words are unchanged
/// ([`crate::frag::Decoded`]); `light_decode_reads_only_reg_ranges` pins the list.
pub const REG_RANGES: [(u16, u16); 2] = [
    (id::LIGHTING_ENABLE0, id::LIGHTING_ENABLE0),
    (id::LIGHT0_SPECULAR0, id::LIGHTING_LIGHT_PERMUTATION),
];

/// Decodes every lighting register.
pub fn decode(regs: &RegFile) -> LightEnv {
    let c0 = regs.reg(id::LIGHTING_CONFIG0.into());
    let c1 = regs.reg(id::LIGHTING_CONFIG1.into());
    let abs = regs.reg(id::LIGHTING_LUTINPUT_ABS.into());
    let select = regs.reg(id::LIGHTING_LUTINPUT_SELECT.into());
    let scale = regs.reg(id::LIGHTING_LUTINPUT_SCALE.into());
    let perm = regs.reg(id::LIGHTING_LIGHT_PERMUTATION.into());
    let env = (c0 >> 4) & 0xF;
    let bit = |w: u32, b: u32| (w >> b) & 1 == 1;
    let sel = |lut: LutId| {
        let k = lut.field().unwrap_or(0);
        let disabled = lut.disable_bit().is_some_and(|b| bit(c1, b));
        LutSel {
            enabled: lut_available(env, lut) && !disabled,
            input: LutInput::from_bits(select >> (4 * k)),
            abs: !bit(abs, 4 * k + 1),
            scale: lut_scale(scale >> (4 * k)),
        }
    };
    let count = (regs.reg(id::LIGHTING_NUM_LIGHTS.into()) & 7) as usize + 1;
    let lights = core::array::from_fn(|slot| light_regs(regs, ((perm >> (4 * slot)) & 7) as usize));
    LightEnv {
        enabled: lighting_enabled(regs),
        ambient: color10(regs.reg(id::LIGHTING_AMBIENT.into())),
        lights,
        count,
        env,
        shadow_enable: bit(c0, 0),
        fresnel_primary: bit(c0, 2),
        fresnel_secondary: bit(c0, 3),
        shadow_primary: bit(c0, 16),
        shadow_secondary: bit(c0, 17),
        shadow_invert: bit(c0, 18),
        shadow_alpha: bit(c0, 19),
        bump_selector: ((c0 >> 22) & 3) as usize,
        shadow_selector: ((c0 >> 24) & 3) as usize,
        clamp_highlights: bit(c0, 27),
        bump_mode: match (c0 >> 28) & 3 {
            0 => BumpMode::None,
            1 => BumpMode::Normal,
            2 => BumpMode::Tangent,
            _ => BumpMode::Reserved,
        },
        bump_renorm: !bit(c0, 30),
        d0: sel(LutId::D0),
        d1: sel(LutId::D1),
        fr: sel(LutId::Fr),
        rb: sel(LutId::Rb),
        rg: sel(LutId::Rg),
        rr: sel(LutId::Rr),
        sp: sel(LutId::Sp),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_decode_reads_only_reg_ranges() {
        // Every lighting register set to something non-trivial, then every other plain
        // register filled with noise: the decoded environment must not change.
        let mut config = vec![
            (id::LIGHTING_ENABLE0, 1),
            (id::LIGHTING_ENABLE1, 0),
            (id::LIGHTING_CONFIG0, 0x4A5F_0F7D),
            (id::LIGHTING_CONFIG1, 0x00F0_F00F),
            (id::LIGHTING_NUM_LIGHTS, 5),
            (id::LIGHTING_AMBIENT, 0x1234_5678),
            (id::LIGHTING_LUTINPUT_ABS, 0x0222_0202),
            (id::LIGHTING_LUTINPUT_SELECT, 0x0543_2105),
            (id::LIGHTING_LUTINPUT_SCALE, 0x0671_2367),
            (id::LIGHTING_LIGHT_PERMUTATION, 0x0123_4765),
        ];
        for reg in id::LIGHT0_SPECULAR0..=id::LIGHT7_ATTENUATION_SCALE {
            config.push((
                reg,
                0x3C00_3800u32.rotate_left(u32::from(reg) % 13) ^ u32::from(reg),
            ));
        }
        let keep: Vec<u16> = REG_RANGES.iter().flat_map(|&(lo, hi)| lo..=hi).collect();
        let base = decode(&crate::pa::tests::regs_with(&config));
        assert_eq!(base.count, 6);
        assert_eq!(decode(&crate::pa::tests::noisy_regs(&config, &keep)), base);
    }

    #[test]
    fn light_config_scale_values() {
        let want = [1.0, 2.0, 4.0, 8.0, 1.0 / 16.0, 1.0 / 8.0, 0.25, 0.5];
        for (v, w) in want.iter().enumerate() {
            assert_eq!(lut_scale(v as u32), F24::from_f64_trunc(*w), "scale {v}");
        }
    }

    #[test]
    fn light_config_fixed_1_1_11_sign_extends() {
        assert_eq!(fixed_1_1_11(0x0800), F24::ONE);
        assert_eq!(fixed_1_1_11(0x1800), F24::NEG_ONE);
        assert_eq!(fixed_1_1_11(0x1000), F24::from_f64_trunc(-2.0));
        assert_eq!(fixed_1_1_11(0x0400), F24::from_f64_trunc(0.5));
    }

    #[test]
    fn light_config_environment_table() {
        use LutId::*;
        let all = [D0, D1, Fr, Rb, Rg, Rr, Sp, Da];
        let avail = |env: u32| -> Vec<LutId> {
            all.iter()
                .copied()
                .filter(|&l| lut_available(env, l))
                .collect()
        };
        assert_eq!(avail(0), vec![D0, Rr, Sp, Da]);
        assert_eq!(avail(1), vec![Fr, Rr, Sp, Da]);
        assert_eq!(avail(2), vec![D0, D1, Rr, Da]);
        assert_eq!(avail(3), vec![D0, D1, Fr, Da]);
        assert_eq!(avail(4), vec![D0, D1, Rb, Rg, Rr, Sp, Da]);
        assert_eq!(avail(5), vec![D0, Fr, Rb, Rg, Rr, Sp, Da]);
        assert_eq!(avail(6), vec![D0, D1, Fr, Rr, Sp, Da]);
        assert_eq!(avail(8), all.to_vec());
        assert_eq!(avail(7), avail(6));
        assert_eq!(avail(15), avail(6));
    }
}
