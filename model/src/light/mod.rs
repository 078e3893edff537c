//! LIGHT: fragment lighting (seed 002 GPUREG_LIGHTING_*, 0x08F and 0x140-0x1D9).
//!
//! One pure function, [`lighting`], turns a fragment's interpolated normal quaternion and view
//! vector, the texture colours (bump / tangent and shadow maps) and the lighting registers and
//! LUTs into the fragment primary and secondary colours the combiners read.
//!
//! # Arithmetic
//!
//! Every value is an f24 computed with the shader ALU's operations ([`crate::shader::alu`]:
//! exact result truncated toward zero, subnormals flushed to +0; run through their exact fast
//! paths in [`crate::shader::alu_fast`]); vectors in [`vector`], LUTs in [`lut`], registers in
//! [`config`]. Conversions:
//!
//! | from | to f24 | rule |
//! |------|--------|------|
//! | light position / direction (f16) | exact | [`crate::num::F24::from_f16`] |
//! | attenuation bias / scale (f20) | exact | [`crate::num::F24::from_f20`] |
//! | spot direction (fixed1.1.11) | exact | `raw / 2048` ([`config::fixed_1_1_11`]) |
//! | colour registers (10-bit fields) | exact | the integer, in units of 1/255 ([`config::color10`]) |
//! | texel byte `t` (shadow) | truncated | `t / 255` ([`unorm8`]) |
//! | texel byte `t` (bump) | truncated | `(2t - 255) / 255` ([`snorm8`]) |
//! | LUT entry | truncated | [`lut::interpolate`] |
//! | f24 → LUT index | exact | [`lut::position_unsigned`], [`lut::position_signed`] |
//! | colour sum → byte | rounded half up | `floor(clamp(x, 0, 255) + 0.5)` ([`to_u8`]) |
//!
//! Colours are carried in units of 1/255 (so a register channel is its integer value and the
//! final byte is the clamped sum rounded to the nearest integer, [`to_u8`] — where Azahar
//! computes `clamp(x, 0, 1) * 255` and truncates; see [`to_u8`] for why the model rounds).
//! Alpha is carried the same way (1.0 = 255).
//!
//! # Per fragment (Azahar `renderer_software/sw_lighting.cpp` for the structure)
//!
//! 1. Shadow factor `s = tex[shadow_selector] / 255` (inverted: `(255 - t) / 255`) if CONFIG0
//!    bit 0, else 1.
//! 2. Surface normal / tangent: `(0,0,1)` / `(1,0,0)`; bump mode 1 takes the normal from
//!    `snorm8(tex[bump_selector].rgb)` (z recomputed as `sqrt(max(1 - x² - y², 0))` unless CONFIG0
//!    bit 30), bump mode 2 the tangent.
//! 3. `q = normalize(NORMQUAT)`; `N = rotate(q, normal)`, `T = rotate(q, tangent)`;
//!    `V = normalize(VIEW)`.
//! 4. For each light slot `i` (light `n` = LIGHT_PERMUTATION slot `i`): `L = position`
//!    (directional) or `position + VIEW` (positional), normalised, `len = |L|` before;
//!    `H = V + L` (unnormalised; `Hn` normalised); the inputs `NH = N·Hn`, `VH = V·Hn`, `NV = N·V`,
//!    `LN = L·N`, `SP = L·spot_dir`, `CP = (Hn - N (N·Hn))·T` (configuration 7 only, else 0).
//!    Then the LUT values (see [`LightEnv`] / [`config::lut_available`]), distance attenuation
//!    `DA(clamp(scale·len + bias, 0, 1))`, `dot = two-sided ? |LN| : max(LN, 0)`, and
//!    - `diffuse = ((D·dot)·s_p + A)·da·spot`
//!    - `specular = ((S0·d0·g0) + (d1·refl)·S1·g1)·clamp·da·spot·s_s`
//!      with `g = min(dot · rcp(|H|²), 1)` (ALU `rcp` then `mul`, each truncating; 0 if
//!      `|H|² = 0`) where the light's geometric-factor bit is set, `clamp = 0` if clamp
//!      highlights is on and `dot = 0`.
//!
//!    UNVERIFIED(hw) [fact: light-shadow-primary]: the primary shadow `s_p` multiplies the diffuse term only, not the
//!    light's ambient — Azahar's software renderer and GLSL generator
//!    (`((diffuse·dot·shadow) + ambient)·da·spot`); the older Citra software renderer multiplied
//!    the whole `(D·dot + A)·da·spot` by the shadow. No hardware test settles it.
//! 5. FR of the last slot goes to the alpha(s) the fresnel selector names; shadow alpha
//!    multiplies those alphas by `s.a`.
//! 6. `primary = Σ diffuse + global ambient`, `secondary = Σ specular`, summed in slot order.

pub mod config;
pub mod lut;
pub mod vector;

use crate::knobs::{LightAbsOneSided, LightLutClamp, LightOutputRounding, LightShadowPrimary};
use crate::num::F24;
use crate::pipe::{semantic, Fragment};
use crate::regfile::RegFile;
use crate::shader::alu_fast;

pub use config::{LightEnv, LutId, LutInput, LutSel};
use vector::Vec3;

/// The fragment-lighting colours handed to the combiners.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LightOut {
    /// Primary colour `[r, g, b, a]`.
    pub primary: [u8; 4],
    /// Secondary colour `[r, g, b, a]`.
    pub secondary: [u8; 4],
}

/// 255.0 as f24 (the colour unit's 1.0).
const F255: F24 = F24::from_parts(false, 63 + 7, 0xFE00);

/// A texel byte as `t / 255`, truncated to f24.
///
/// UNVERIFIED(hw) [fact: light-texel-mapping]: the shadow factor is the texel byte divided by 255 — Azahar
/// (`texture_color / 255.0f`). The `f64` quotient is correctly rounded and no `t / 255` with
/// `0 < t < 255` lies within `f64` rounding of an f24 grid point, so the truncation is that of
/// the exact quotient.
pub fn unorm8(t: u8) -> F24 {
    F24::from_f64_trunc(f64::from(t) / 255.0)
}

/// A texel byte as a signed normal component `(2t - 255) / 255 = t / 127.5 - 1`, truncated to
/// f24 (same exactness argument as [`unorm8`]; 0 → -1, 255 → 1).
///
/// UNVERIFIED(hw) [fact: light-texel-mapping]: Azahar's `texel / 127.5 - 1` mapping.
pub fn snorm8(t: u8) -> F24 {
    F24::from_f64_trunc((2.0 * f64::from(t) - 255.0) / 255.0)
}

/// A colour sum (units of 1/255) as a byte: `floor(clamp(x, 0, 255) + 0.5)`, halves up;
/// NaN → 0. (`x + 0.5` is exact in `f64`: x has 17 significant bits and is below 256.)
///
/// UNVERIFIED(hw) [fact: light-output-rounding]: clamp then round to nearest — model choice. Azahar clamps to [0, 1], scales
/// by 255 and casts to `u8` (truncation), but with every f24 step truncating, truncation here
/// too would make a light shining straight on at full colour come out 254: the light vector of
/// a positional light at (0, 0, 10) seen from view (0, 0, 1) normalises to just under 1
/// (`11 · rsq(121)` truncates), and a LUT entry cannot hold 1.0 (fixed0.0.12 tops out at
/// 4095/4096; citro3d clamps 1.0 to 0xFFF). Rounding keeps such full-scale cases at 255
/// (scenes `light/spot`, `light/attenuation`).
pub fn to_u8(x: F24) -> u8 {
    to_u8_with(x, LightOutputRounding::Nearest)
}

/// [`to_u8`] with knob `light-output-rounding`: [`LightOutputRounding::Truncate`] takes
/// `floor(clamp(x, 0, 255))` (Azahar's cast).
pub fn to_u8_with(x: F24, rounding: LightOutputRounding) -> u8 {
    let v = x.to_f64();
    let half = match rounding {
        LightOutputRounding::Nearest => 0.5,
        LightOutputRounding::Truncate => 0.0,
    };
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= 255.0 {
        255
    } else {
        (v + half).floor() as u8
    }
}

/// [`alu_fast::mul`], returning the other factor at once when one factor is exactly 1.0 and
/// the other passes through the multiplication unchanged ([`times_one_is_self`]). Lighting
/// multiplies by factors that are 1.0 whenever their feature is off (attenuation, spot,
/// geometric factors, shadow, clamp, LUT scale, the reflection LUTs): a third of its
/// multiplications, each now a comparison.
#[inline(always)]
fn mul(a: F24, b: F24) -> F24 {
    if b == F24::ONE && times_one_is_self(a) {
        a
    } else if a == F24::ONE && times_one_is_self(b) {
        b
    } else {
        alu_fast::mul(a, b)
    }
}

/// Whether the ALU's `x · 1.0` (and `1.0 · x`) is `x` bit for bit: true for a finite normal
/// (the product is exact, so the truncation keeps it) and for +0. (A subnormal or -0 is
/// flushed to +0, and infinities and NaNs take the ALU's special rules: those multiply.)
#[inline(always)]
fn times_one_is_self(x: F24) -> bool {
    let e = x.exponent();
    (e != 0 && e != 0x7F) || x.bits() == 0
}

/// The three colour channels (r, g, b) as the lanes of a shader instruction, the fourth lane
/// 0 and never read: `alu_fast::mul4` / `add4` compute every lane as the ALU's `mul` / `add`,
/// so lanes 0-2 are the three per-channel results (a fourth lane of 0 is inside their fast
/// path's window and cannot change the others: each lane is computed on its own, and a lane
/// outside the window sends all four to the exact per-lane functions).
type Lanes = [F24; 4];

/// `v` as [`Lanes`].
#[inline(always)]
fn lanes(v: Vec3) -> Lanes {
    [v[0], v[1], v[2], F24::ZERO]
}

/// `x` in each of the three channels of [`Lanes`].
#[inline(always)]
fn splat(x: F24) -> Lanes {
    [x, x, x, F24::ZERO]
}

/// [`mul`] on lanes 0-2 (lane 3 is not read): when every one of them takes the same
/// shortcut of [`mul`] (a factor of exactly 1.0 that leaves the other unchanged) the other
/// factor is returned whole, else `alu_fast::mul4`, which is [`mul`]'s product on every
/// lane ([`mul`] equals `alu_fast::mul` everywhere: `light_mul_by_one_is_the_alu_product`).
/// Where both shortcuts apply to a lane, both factors are 1.0 there.
#[inline(always)]
fn lanes_mul(a: Lanes, b: Lanes) -> Lanes {
    let keeps =
        |x: &Lanes, one: &Lanes| (0..3).all(|i| one[i] == F24::ONE && times_one_is_self(x[i]));
    if keeps(&a, &b) {
        a
    } else if keeps(&b, &a) {
        b
    } else {
        alu_fast::mul4(&a, &b)
    }
}

/// One light's diffuse term before attenuation and spot, `D·dot·s_p + A` (knob
/// `light-shadow-primary=diffuse-ambient`: `(D·dot + A)·s_p`, the older Citra rule).
pub fn shadowed_diffuse(d: F24, dot: F24, sp: F24, a: F24, rule: LightShadowPrimary) -> F24 {
    match rule {
        LightShadowPrimary::Diffuse => alu_fast::add(mul(alu_fast::mul(d, dot), sp), a),
        LightShadowPrimary::DiffuseAmbient => mul(alu_fast::add(alu_fast::mul(d, dot), a), sp),
    }
}

/// `max(x, 0)` with NaN → 0.
fn pos(x: F24) -> F24 {
    if x.to_f64() > 0.0 {
        x
    } else {
        F24::ZERO
    }
}

/// `|x|` (sign cleared; NaN stays NaN and later addresses entry 0).
fn abs(x: F24) -> F24 {
    x.abs()
}

/// The six LUT inputs of one light.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LutInputs {
    /// N·Hn.
    pub nh: F24,
    /// V·Hn.
    pub vh: F24,
    /// N·V.
    pub nv: F24,
    /// L·N.
    pub ln: F24,
    /// L·spot_dir (= -L·P, the register holding the negated spot direction).
    pub sp: F24,
    /// cos φ (configuration 7 only).
    pub cp: F24,
}

impl LutInputs {
    fn get(&self, input: LutInput) -> F24 {
        match input {
            LutInput::Nh => self.nh,
            LutInput::Vh => self.vh,
            LutInput::Nv => self.nv,
            LutInput::Ln => self.ln,
            LutInput::Sp => self.sp,
            LutInput::Cp => self.cp,
            LutInput::Reserved(_) => F24::ZERO,
        }
    }
}

/// Looks up one LUT for one light: input by the selector, abs mode (`|x|` for a two-sided light,
/// `max(x, 0)` otherwise; then unsigned addressing) or signed addressing, interpolation, then the
/// scale (`mul`, exact for these powers of two unless it leaves the f24 range).
///
/// UNVERIFIED(hw) [fact: light-abs-one-sided]: in abs mode a one-sided light clamps negative inputs to 0 instead of taking
/// the absolute value — Azahar's software renderer and shader generator both do this.
pub fn lut_lookup(
    sel: &LutSel,
    table: usize,
    inputs: &LutInputs,
    two_sided: bool,
    regs: &RegFile,
) -> F24 {
    let x = inputs.get(sel.input);
    // Knob `light-abs-one-sided=abs`: a one-sided light takes |x| too.
    let abs_all = regs.knobs().light_abs_one_sided == LightAbsOneSided::Abs;
    let x = if sel.abs {
        if two_sided || abs_all {
            abs(x)
        } else {
            pos(x)
        }
    } else {
        x
    };
    let table = regs.luts().lighting.get(table);
    let v = match regs.knobs().light_lut_clamp {
        LightLutClamp::Clamp => {
            let p = if sel.abs {
                lut::position_unsigned(x)
            } else {
                lut::position_signed(x)
            };
            lut::sample(table, p)
        }
        // Knob `light-lut-clamp=extrapolate`: the index clamped, the fraction not.
        LightLutClamp::Extrapolate => {
            let (index, delta) = lut::position_extrapolated(x, !sel.abs);
            lut::sample_extrapolated(table, index, delta)
        }
    };
    mul(v, sel.scale)
}

/// The surface normal and tangent before the quaternion rotation (bump / tangent mapping).
fn surface_frame(env: &LightEnv, tex: &[[u8; 4]; 4]) -> (Vec3, Vec3) {
    let z = [F24::ZERO, F24::ZERO, F24::ONE];
    let x = [F24::ONE, F24::ZERO, F24::ZERO];
    let texel = tex.get(env.bump_selector).copied().unwrap_or_default();
    let p = [snorm8(texel[0]), snorm8(texel[1]), snorm8(texel[2])];
    match env.bump_mode {
        config::BumpMode::Normal => {
            let mut n = p;
            if env.bump_renorm {
                // z = sqrt(max(1 - x² - y², 0)) as z2 * rsq(z2) (0 → 0).
                let z2 = alu_fast::add(
                    alu_fast::add(F24::ONE, alu_fast::mul(p[0], p[0]).negate()),
                    alu_fast::mul(p[1], p[1]).negate(),
                );
                let z2 = pos(z2);
                n[2] = alu_fast::mul(z2, alu_fast::rsq(z2));
            }
            (n, x)
        }
        config::BumpMode::Tangent => (z, p),
        config::BumpMode::None | config::BumpMode::Reserved => (z, x),
    }
}

/// Fragment lighting of `frag` with the texture colours `tex` (bump / shadow sources).
pub fn lighting(frag: &Fragment, tex: &[[u8; 4]; 4], regs: &RegFile) -> LightOut {
    if !config::lighting_enabled(regs) {
        return LightOut::default();
    }
    lighting_with(&config::decode(regs), frag, tex, regs)
}

/// [`lighting`] with the lighting registers already decoded (`env` must be
/// [`config::decode`] of `regs`, lighting on): what the LIGHT stage calls with the
/// environment it keeps between fragments. `regs` supplies the LUTs.
pub fn lighting_with(
    env: &LightEnv,
    frag: &Fragment,
    tex: &[[u8; 4]; 4],
    regs: &RegFile,
) -> LightOut {
    lighting_prepared(&Prepared::new(env.clone()), frag, tex, regs)
}

/// A decoded lighting environment with what lighting computes from it alone: the light
/// vector and its length for each directional light (`normalize(position)`, the same for
/// every fragment). The LIGHT stage keeps one per register change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    env: LightEnv,
    /// Per slot of [`LightEnv::lights`]: `vector::normalize(position)` of a directional light.
    directions: [Option<(Vec3, F24)>; 8],
    /// Per slot of [`LightEnv::active`]: the LUT inputs a LUT of that light reads, one bit per
    /// input ([`input_bit`]); the others are never read, so lighting does not compute them.
    reads: [u8; 8],
}

/// The bit of `input` in [`Prepared`]'s read masks (reserved selectors read 0.0: no bit).
fn input_bit(input: LutInput) -> u8 {
    match input {
        LutInput::Nh => 1,
        LutInput::Vh => 2,
        LutInput::Nv => 4,
        LutInput::Ln => 8,
        LutInput::Sp => 16,
        LutInput::Cp => 32,
        LutInput::Reserved(_) => 0,
    }
}

impl Prepared {
    /// `env` prepared.
    pub fn new(env: LightEnv) -> Self {
        let directions = env
            .lights
            .map(|l| l.directional.then(|| vector::normalize(l.position)));
        let mut reads = [0; 8];
        let last = env.active().len().saturating_sub(1);
        for ((slot, light), mask) in env.active().iter().enumerate().zip(&mut reads) {
            // The LUTs this light looks up: FR only for the last slot, SP only for a light
            // with its spot LUT on (as `compute` looks them up).
            let sels = [
                (&env.d0, true),
                (&env.d1, true),
                (&env.rr, true),
                (&env.rg, true),
                (&env.rb, true),
                (&env.fr, slot == last),
                (&env.sp, light.spot),
            ];
            for (sel, on) in sels {
                if on && sel.enabled {
                    *mask |= input_bit(sel.input);
                }
            }
        }
        Self {
            env,
            directions,
            reads,
        }
    }

    /// The decoded environment.
    pub fn env(&self) -> &LightEnv {
        &self.env
    }
}

/// [`lighting_with`] on a prepared environment ([`Prepared::new`] of [`config::decode`] of
/// `regs`, lighting on).
pub fn lighting_prepared(
    prepared: &Prepared,
    frag: &Fragment,
    tex: &[[u8; 4]; 4],
    regs: &RegFile,
) -> LightOut {
    let out = compute(prepared, frag, tex, regs);
    tracing::trace!(target: "light", x = frag.x, y = frag.y, ?out.primary, ?out.secondary, "lit");
    out
}

/// The lighting computation proper (lighting assumed on).
fn compute(prepared: &Prepared, frag: &Fragment, tex: &[[u8; 4]; 4], regs: &RegFile) -> LightOut {
    let env = &prepared.env;
    let one = F24::ONE;
    let attr = |i: usize| frag.attr.get(i).copied().unwrap_or(F24::ZERO);

    // 1. Shadow factor (r, g, b, a).
    let shadow: [F24; 4] = if env.shadow_enable {
        let t = tex.get(env.shadow_selector).copied().unwrap_or_default();
        t.map(|c| unorm8(if env.shadow_invert { 255 - c } else { c }))
    } else {
        [one; 4]
    };

    // 2-3. Frame.
    let (surf_n, surf_t) = surface_frame(env, tex);
    let q = vector::normalize_quat([
        attr(semantic::QUATERNION),
        attr(semantic::QUATERNION + 1),
        attr(semantic::QUATERNION + 2),
        attr(semantic::QUATERNION + 3),
    ]);
    let normal = vector::rotate(q, surf_n);
    // The tangent enters only cos φ, which only configuration 7 uses: rotated once, when
    // that is the configuration (a pure function: skipping it changes no result).
    let tangent = (env.env == config::ENV_CONFIG7).then(|| vector::rotate(q, surf_t));
    let view = [
        attr(semantic::VIEW),
        attr(semantic::VIEW + 1),
        attr(semantic::VIEW + 2),
    ];
    let nview = vector::normalize_direction(view);

    // Per-channel sums as the lanes of a shader instruction (see `Lanes`).
    let mut diffuse_sum: Lanes = [F24::ZERO; 4];
    let mut specular_sum: Lanes = [F24::ZERO; 4];
    let mut alpha = [F255, F255];
    let last = env.active().len().saturating_sub(1);

    // 4. Lights.
    for (slot, light) in env.active().iter().enumerate() {
        let (l, len) = match prepared.directions.get(slot).copied().flatten() {
            // A directional light's vector is its position, normalised once ([`Prepared`]).
            Some(d) if light.directional => d,
            _ if light.directional => vector::normalize(light.position),
            _ => vector::normalize(vector::add(light.position, view)),
        };
        let h = vector::add(nview, l);
        let hn = vector::normalize_direction(h);
        // Only the inputs a LUT of this light reads are computed (the others stay 0 and are
        // never read): each is a pure function of the vectors, so this changes no result.
        let reads = prepared.reads.get(slot).copied().unwrap_or(0xFF);
        let dot_if = |input: LutInput, a: Vec3, b: Vec3| {
            if reads & input_bit(input) != 0 {
                vector::dot(a, b)
            } else {
                F24::ZERO
            }
        };
        // N·Hn also enters cos φ (configuration 7).
        let nh = if tangent.is_some() {
            vector::dot(normal, hn)
        } else {
            dot_if(LutInput::Nh, normal, hn)
        };
        let inputs = LutInputs {
            nh,
            vh: dot_if(LutInput::Vh, nview, hn),
            nv: dot_if(LutInput::Nv, normal, nview),
            ln: vector::dot(l, normal),
            sp: dot_if(LutInput::Sp, l, light.spot_dir),
            cp: match tangent {
                Some(tangent) => {
                    let proj = vector::sub(hn, vector::scale(normal, nh));
                    vector::dot(proj, tangent)
                }
                None => F24::ZERO,
            },
        };
        let look =
            |sel: &LutSel, table: usize| lut_lookup(sel, table, &inputs, light.two_sided, regs);

        let da = if light.dist_atten {
            let x = alu_fast::add(alu_fast::mul(light.da_scale, len), light.da_bias);
            let p = lut::position_unsigned(x);
            lut::sample(regs.luts().lighting.get(LutId::Da.slot() + light.num), p)
        } else {
            one
        };
        let spot = if light.spot && env.sp.enabled {
            look(&env.sp, LutId::Sp.slot() + light.num)
        } else {
            one
        };
        let d0 = if env.d0.enabled {
            look(&env.d0, LutId::D0.slot())
        } else {
            one
        };
        let rr = if env.rr.enabled {
            look(&env.rr, LutId::Rr.slot())
        } else {
            one
        };
        let rg = if env.rg.enabled {
            look(&env.rg, LutId::Rg.slot())
        } else {
            rr
        };
        let rb = if env.rb.enabled {
            look(&env.rb, LutId::Rb.slot())
        } else {
            rr
        };
        let d1 = if env.d1.enabled {
            look(&env.d1, LutId::D1.slot())
        } else {
            one
        };
        let refl = [rr, rg, rb];

        if slot == last && env.fr.enabled {
            let fr = alu_fast::mul(look(&env.fr, LutId::Fr.slot()), F255);
            if env.fresnel_primary {
                alpha[0] = fr;
            }
            if env.fresnel_secondary {
                alpha[1] = fr;
            }
        }

        let dot = if light.two_sided {
            abs(inputs.ln)
        } else {
            pos(inputs.ln)
        };
        let clamp = if env.clamp_highlights && dot.to_f64() == 0.0 {
            F24::ZERO
        } else {
            one
        };
        let (g0, g1) = if light.geometric0 || light.geometric1 {
            let hh = vector::dot(h, h);
            let g = if hh.to_f64() == 0.0 {
                F24::ZERO
            } else {
                alu_fast::min(alu_fast::mul(dot, alu_fast::rcp(hh)), one)
            };
            (
                if light.geometric0 { g } else { one },
                if light.geometric1 { g } else { one },
            )
        } else {
            (one, one)
        };
        let sp_on = env.shadow_primary && light.shadow;
        let shadow_rule = regs.knobs().light_shadow_primary;
        let ss_on = env.shadow_secondary && light.shadow;
        // The three colour channels at once, each lane the per-channel formula of the module
        // docs in the same order of operations (`lanes_mul` is `mul` on every lane,
        // `alu_fast::mul4` / `add4` the ALU's mul / add on every lane).
        let shadow3 = lanes([shadow[0], shadow[1], shadow[2]]);
        let sp = if sp_on { shadow3 } else { splat(one) };
        let ss = if ss_on { shadow3 } else { splat(one) };
        let spec0 = lanes_mul(lanes_mul(lanes(light.specular0), splat(d0)), splat(g0));
        let spec1 = lanes_mul(
            lanes_mul(lanes_mul(splat(d1), lanes(refl)), lanes(light.specular1)),
            splat(g1),
        );
        // `shadowed_diffuse` on every lane.
        let d_dot = alu_fast::mul4(&lanes(light.diffuse), &splat(dot));
        let lit = match shadow_rule {
            LightShadowPrimary::Diffuse => {
                alu_fast::add4(&lanes_mul(d_dot, sp), &lanes(light.ambient))
            }
            LightShadowPrimary::DiffuseAmbient => {
                lanes_mul(alu_fast::add4(&d_dot, &lanes(light.ambient)), sp)
            }
        };
        let diffuse = lanes_mul(lanes_mul(lit, splat(da)), splat(spot));
        let specular = lanes_mul(
            lanes_mul(
                lanes_mul(
                    lanes_mul(alu_fast::add4(&spec0, &spec1), splat(clamp)),
                    splat(da),
                ),
                splat(spot),
            ),
            ss,
        );
        diffuse_sum = alu_fast::add4(&diffuse_sum, &diffuse);
        specular_sum = alu_fast::add4(&specular_sum, &specular);
    }
    let diffuse_sum = [diffuse_sum[0], diffuse_sum[1], diffuse_sum[2]];
    let specular_sum = [specular_sum[0], specular_sum[1], specular_sum[2]];

    // 5. Shadow alpha (only on the alphas the fresnel selector names).
    if env.shadow_alpha {
        if env.fresnel_primary {
            alpha[0] = alu_fast::mul(alpha[0], shadow[3]);
        }
        if env.fresnel_secondary {
            alpha[1] = alu_fast::mul(alpha[1], shadow[3]);
        }
    }

    // 6. Global ambient, then bytes.
    let primary = vector::add(diffuse_sum, env.ambient);
    let r = regs.knobs().light_output_rounding;
    let to_u8 = |x| to_u8_with(x, r);
    LightOut {
        primary: [
            to_u8(primary[0]),
            to_u8(primary[1]),
            to_u8(primary[2]),
            to_u8(alpha[0]),
        ],
        secondary: [
            to_u8(specular_sum[0]),
            to_u8(specular_sum[1]),
            to_u8(specular_sum[2]),
            to_u8(alpha[1]),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut of [`mul`] gives the ALU's product for every f24 times 1.0, both ways
    /// round (and for a few other factors, the general path).
    #[test]
    fn light_mul_by_one_is_the_alu_product() {
        for bits in 0..1u32 << 24 {
            let x = F24::from_bits(bits);
            assert_eq!(mul(x, F24::ONE), alu_fast::mul(x, F24::ONE), "{bits:#x}");
            assert_eq!(mul(F24::ONE, x), alu_fast::mul(F24::ONE, x), "{bits:#x}");
        }
        for k in [F24::ZERO, F24::NEG_ONE, F255, F24::INFINITY, F24::NAN] {
            for bits in (0..1u32 << 24).step_by(4099) {
                let x = F24::from_bits(bits);
                assert_eq!(mul(x, k), alu_fast::mul(x, k), "{bits:#x}");
            }
        }
    }

    /// [`lanes_mul`] is [`mul`] on each of lanes 0-2, for lanes drawn from 1.0, the special
    /// values and random bits, mixed so that each shortcut applies to all, some or no lanes.
    #[test]
    fn light_lanes_mul_is_mul_on_each_lane() {
        let special = [
            F24::ONE,
            F24::ONE,
            F24::ZERO,
            F24::NEG_ZERO,
            F24::from_bits(1),
            F24::INFINITY,
            F24::NAN,
            F24::NEG_ONE,
            F255,
        ];
        let mut state = 0x5EED_1234_u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) as u32
        };
        for _ in 0..200_000 {
            let mut pick = || {
                let r = next();
                if r % 3 == 0 {
                    F24::from_bits(next() & 0xFF_FFFF)
                } else {
                    special[(r as usize / 3) % special.len()]
                }
            };
            let a = [pick(), pick(), pick(), pick()];
            let b = [pick(), pick(), pick(), pick()];
            let got = lanes_mul(a, b);
            for i in 0..3 {
                assert_eq!(got[i], mul(a[i], b[i]), "{a:?} {b:?} lane {i}");
            }
        }
    }

    #[test]
    fn light_convert_f255_is_255() {
        assert_eq!(F255.to_f64(), 255.0);
    }

    #[test]
    fn light_convert_unorm_snorm_ends() {
        assert_eq!(unorm8(0), F24::ZERO);
        assert_eq!(unorm8(255), F24::ONE);
        assert_eq!(snorm8(0), F24::NEG_ONE);
        assert_eq!(snorm8(255), F24::ONE);
        // 128 → 1/255, truncated.
        assert_eq!(snorm8(128), F24::from_f64_trunc(1.0 / 255.0));
        assert!(snorm8(128).to_f64() <= 1.0 / 255.0);
    }

    #[test]
    fn light_convert_to_u8_rounds_half_up_and_clamps() {
        let f = F24::from_f64_trunc;
        assert_eq!(to_u8(f(100.75)), 101);
        assert_eq!(to_u8(f(100.25)), 100);
        assert_eq!(to_u8(f(100.5)), 101);
        assert_eq!(to_u8(f(254.5)), 255);
        assert_eq!(to_u8(f(-3.0)), 0);
        assert_eq!(to_u8(f(300.0)), 255);
        assert_eq!(to_u8(F24::NAN), 0);
        assert_eq!(to_u8(F24::INFINITY), 255);
    }
}
