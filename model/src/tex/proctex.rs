//! The procedural texture unit (texture 3): a colour computed from the texture coordinates
//! alone, configured by GPUREG_TEXUNIT3_PROCTEX0-5 and the five proctex LUTs
//! (`regs.luts().proctex`: noise, RGB map, alpha map, colour, colour difference).
//!
//! Data path (the order is Azahar's `sw_proctex.cpp` / the GL shader generator "ProcTex",
//! whose noise function their authors checked against hardware output):
//!
//! ```text
//! u, v = |u|, |v|                       (f24 → unsigned fixed 20.12, [`coord_from_f24`])
//! u_shift = shift(v), v_shift = shift(u)  (from the coordinates *before* noise, [`shift_offset`])
//! if noise: u += noise(u, v) * u_amplitude; v += noise(u, v) * v_amplitude; u, v = |u|, |v|
//! u += u_shift; v += v_shift
//! u, v = clamp(u), clamp(v)             ([`clamp_coord`], result in [0, 1])
//! m = rgb_map_table(rgb_func(u, v))     ([`map_function`], [`lookup_value_lut`])
//! lod = log2(|width · bias| · Σ max |d|)  (from the coordinate differences, [`lod`])
//! rgba = colour_table(m, lod)           (level(s), nearest or linear, [`color_lookup`])
//! if separate alpha: a = alpha_map_table(alpha_func(u, v)) * 255
//! ```
//!
//! Arithmetic: every quantity is an integer or a fixed-point number with a stated number of
//! fraction bits; no host float is used. Where Azahar uses host `float`, the precision here is
//! the model's definition (`UNVERIFIED(hw)` on each constant). Coordinates and mapping outputs
//! have [`FRAC_BITS`] = 12 fraction bits, so 1.0 is [`ONE`] = 4096.

use crate::knobs::ProctexNoiseAmplitude;
use crate::num::{F16, F24};
use crate::regfile::RegFile;
use crate::regs::{self, id, ProctexClamp, ProctexMappingFunction, ProctexMinFilter, ProctexShift};

/// Fraction bits of a proctex coordinate and of every mapping-table value.
///
/// UNVERIFIED(hw) [fact: proctex-precision]: the hardware's internal precision is not documented; 12 fraction bits are
/// the precision of the mapping tables (seed 002: value fixed0.0.12) — model choice.
pub const FRAC_BITS: u32 = 12;

/// 1.0 in the proctex fixed-point formats (`1 << FRAC_BITS`).
pub const ONE: u32 = 1 << FRAC_BITS;

/// The largest coordinate: unsigned fixed 20.12 saturates at `u32::MAX` (just under 2^20).
///
/// UNVERIFIED(hw) [fact: proctex-precision]: larger values (and infinity) saturate here; the hardware's integer range is
/// not documented — model choice. Only the low bits of the integer part matter to the shift
/// and the repeat modes, the noise grid uses it modulo 9·16.
pub const COORD_MAX: u32 = u32::MAX;

/// Entries of the noise, RGB map and alpha map tables (seed 002 GPUREG_PROCTEX_LUT_DATAi).
pub const VALUE_LUT_ENTRIES: u32 = 128;

/// Entries of the colour and colour-difference tables (seed 002 GPUREG_PROCTEX_LUT_DATAi).
pub const COLOR_LUT_ENTRIES: u32 = 256;

// Slot of each table in `regs.luts().proctex` (GPUREG_PROCTEX_LUT order).
const LUT_NOISE: usize = 0;
const LUT_RGB_MAP: usize = 1;
const LUT_ALPHA_MAP: usize = 2;
const LUT_COLOR: usize = 3;
const LUT_COLOR_DIFF: usize = 4;

/// The per-fragment view of the proctex registers, decoded once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProctexConfig {
    /// GPUREG_TEXUNIT3_PROCTEX0.
    pub p0: regs::Texunit3Proctex0,
    /// GPUREG_TEXUNIT3_PROCTEX1 (U noise amplitude and phase).
    pub p1: regs::Texunit3Proctex1,
    /// GPUREG_TEXUNIT3_PROCTEX2 (V noise amplitude and phase).
    pub p2: regs::Texunit3Proctex2,
    /// GPUREG_TEXUNIT3_PROCTEX3 (noise frequencies).
    pub p3: regs::Texunit3Proctex3,
    /// GPUREG_TEXUNIT3_PROCTEX4 (filter, LOD range, width, bias high).
    pub p4: regs::Texunit3Proctex4,
    /// GPUREG_TEXUNIT3_PROCTEX5 (colour-table offsets per level).
    pub p5: regs::Texunit3Proctex5,
    /// Knob `proctex-noise-amplitude`: the amplitude's unit.
    pub noise_amplitude: ProctexNoiseAmplitude,
}

impl ProctexConfig {
    /// Reads the six registers from the live register file.
    pub fn read(regs: &RegFile) -> Self {
        let r = |i: u16| regs.reg(i.into());
        Self {
            p0: regs::Texunit3Proctex0(r(id::TEXUNIT3_PROCTEX0)),
            p1: regs::Texunit3Proctex1(r(id::TEXUNIT3_PROCTEX1)),
            p2: regs::Texunit3Proctex2(r(id::TEXUNIT3_PROCTEX2)),
            p3: regs::Texunit3Proctex3(r(id::TEXUNIT3_PROCTEX3)),
            p4: regs::Texunit3Proctex4(r(id::TEXUNIT3_PROCTEX4)),
            p5: regs::Texunit3Proctex5(r(id::TEXUNIT3_PROCTEX5)),
            noise_amplitude: regs.knobs().proctex_noise_amplitude,
        }
    }

    /// The texture LOD bias, an f16 split over PROCTEX0 bits 20-27 (low byte) and PROCTEX4
    /// bits 19-26 (high byte) (seed 002).
    ///
    /// It scales the level of detail inside the logarithm ([`lod`]).
    pub fn lod_bias(&self) -> F16 {
        F16::from_bits(self.p4.bias_high() << 8 | self.p0.bias_low())
    }
}

/// The procedural texture's colour `[r, g, b, a]` at texture coordinates (`u`, `v`), whose
/// screen-space differences are `deriv` = `[du/dx, dv/dx, du/dy, dv/dy]`
/// ([`crate::pipe::Fragment::tex_deriv`] of the coordinate set TEXUNIT_CONFIG names; they
/// only matter to the mipmap filters, through [`lod`]).
///
/// Never panics: any register value, any LUT content (tables of any length; missing entries
/// read as 0), NaN or infinite coordinates and differences.
pub fn proctex(u: F24, v: F24, deriv: [F24; 4], regs: &RegFile) -> [u8; 4] {
    let cfg = ProctexConfig::read(regs);
    let luts = &regs.luts().proctex;
    let table = |slot: usize| luts.get(slot).map_or(&[][..], |t| t.as_slice());
    let (u, v) = coords(coord_from_f24(u), coord_from_f24(v), &cfg, table(LUT_NOISE));
    let m = lookup_value_lut(table(LUT_RGB_MAP), map_function(cfg.p0.rgb_func(), u, v));
    // Only the mipmap filters look at the level of detail.
    let lod = if filter_parts(cfg.p4.min_filter()).1.is_some() {
        lod(&cfg, deriv)
    } else {
        0
    };
    let mut rgba = color_lookup(&cfg, table(LUT_COLOR), table(LUT_COLOR_DIFF), m, lod);
    if cfg.p0.separate_alpha() {
        // Azahar: in separate-alpha mode the alpha skips the colour table and is the alpha
        // mapping table's output scaled to 8 bits.
        let a = lookup_value_lut(
            table(LUT_ALPHA_MAP),
            map_function(cfg.p0.alpha_func(), u, v),
        );
        rgba[3] = unit_to_u8(a);
    }
    tracing::trace!(target: "tex", u, v, m, lod, ?rgba, "proctex");
    rgba
}

/// The clamped coordinates (`u`, `v`) in [0, [`ONE`]] that the mapping functions see, from the
/// absolute input coordinates in fixed 20.12: shift offsets, noise, shift, clamp.
pub fn coords(u: u32, v: u32, cfg: &ProctexConfig, noise_lut: &[u32]) -> (u32, u32) {
    let p0 = cfg.p0;
    // Azahar: the shift offsets come from the coordinates before noise is added.
    let u_shift = shift_offset(v, p0.u_shift(), p0.u_clamp());
    let v_shift = shift_offset(u, p0.v_shift(), p0.v_clamp());
    let (mut u, mut v) = (u, v);
    if p0.noise_enabled() {
        let n = noise_coefficient(u, v, cfg, noise_lut);
        let unit = cfg.noise_amplitude;
        u = add_noise_with(u, n, cfg.p1.u_noise_amplitude(), unit);
        v = add_noise_with(v, n, cfg.p2.v_noise_amplitude(), unit);
    }
    let u = clamp_coord(u.saturating_add(u_shift), p0.u_clamp());
    let v = clamp_coord(v.saturating_add(v_shift), p0.v_clamp());
    (u, v)
}

/// `|x|` in unsigned fixed 20.12, truncated toward zero.
///
/// The sign is dropped (Azahar takes `abs` of both coordinates first). Subnormals and values
/// below 2^-12 give 0, values at or above 2^20 and ±infinity give [`COORD_MAX`].
///
/// UNVERIFIED(hw) [fact: proctex-precision]: NaN gives 0 — model choice (the hardware's NaN handling is not known).
pub fn coord_from_f24(x: F24) -> u32 {
    if x.is_nan() || x.exponent() == 0 {
        return 0;
    }
    if x.is_infinite() {
        return COORD_MAX;
    }
    // |x| = (2^16 + mantissa) * 2^(exponent - 63 - 16); in units of 2^-12 that is
    // (2^16 + mantissa) * 2^(exponent - 67).
    let m = u64::from((1 << 16) | x.mantissa());
    let sh = i64::from(x.exponent()) - 67;
    let fixed = if sh >= 0 {
        // m < 2^17: any shift of 16 or more exceeds 32 bits.
        if sh >= 16 {
            u64::MAX
        } else {
            m << sh
        }
    } else if sh <= -32 {
        0
    } else {
        m >> (-sh)
    };
    u32::try_from(fixed).unwrap_or(COORD_MAX)
}

/// An f16 as an exact rational `(negative, mantissa, exp2)`: `|x| = mantissa * 2^exp2`.
/// `None` for NaN; infinity gives `mantissa = u64::MAX` as a marker handled by the callers.
fn f16_parts(x: F16) -> Option<(bool, u64, i64)> {
    if x.is_nan() {
        return None;
    }
    let neg = x.is_sign_negative();
    if x.is_infinite() {
        return Some((neg, u64::MAX, 0));
    }
    let (e, m) = (i64::from(x.exponent()), u64::from(x.mantissa()));
    Some(if e == 0 {
        (neg, m, -24)
    } else {
        (neg, m | 1 << 10, e - 25)
    })
}

/// `a * x` for an f16 `x` and a fixed-point `a` with [`FRAC_BITS`] fraction bits, in the same
/// format: exact product truncated toward zero, saturated to ±[`COORD_MAX`].
///
/// UNVERIFIED(hw) [fact: proctex-precision]: NaN counts as 0, infinity times a non-zero value saturates — model choice.
pub fn f16_mul_fixed(x: F16, a: i64) -> i64 {
    let Some((neg, m, e)) = f16_parts(x) else {
        return 0;
    };
    let neg = neg != (a < 0);
    let max = i128::from(COORD_MAX);
    let mag = if a == 0 || m == 0 {
        0
    } else if m == u64::MAX {
        max
    } else {
        let p = i128::from(a.unsigned_abs()) * i128::from(m);
        // f16 exponents give -24 <= e <= 5: shifts stay far inside i128.
        let r = if e >= 0 { p << e } else { p >> (-e) };
        r.min(max)
    };
    let mag = i64::try_from(mag).unwrap_or(i64::from(COORD_MAX));
    if neg {
        -mag
    } else {
        mag
    }
}

/// The shift offset one coordinate gets from the *other* coordinate `other` (fixed 20.12,
/// non-negative), in fixed 20.12.
///
/// Azahar (`GetShiftOffset`): the offset is 1.0 when this coordinate's clamp mode is mirrored
/// repeat, 0.5 otherwise; Odd applies it when `(int(other) / 2) % 2 == 1`, Even when
/// `((int(other) + 1) / 2) % 2 == 1`.
///
/// UNVERIFIED(hw) [fact: proctex-reserved-values]: the reserved shift value 3 gives no offset (Azahar's default) — model choice.
pub fn shift_offset(other: u32, mode: ProctexShift, clamp: ProctexClamp) -> u32 {
    let offset = if clamp == ProctexClamp::MirroredRepeat {
        ONE
    } else {
        ONE / 2
    };
    let int = other >> FRAC_BITS;
    let on = match mode {
        ProctexShift::None | ProctexShift::Reserved(_) => false,
        ProctexShift::Odd => (int / 2) % 2 == 1,
        // (int + 1) / 2 in Azahar's words.
        ProctexShift::Even => int.div_ceil(2) % 2 == 1,
    };
    if on {
        offset
    } else {
        0
    }
}

/// One clamp mode applied to a non-negative fixed 20.12 coordinate; the result is in
/// [0, [`ONE`]].
///
/// Azahar `ClampCoord`: clamp to zero gives 0 above 1.0; clamp to edge gives `min(c, 1.0)`;
/// symmetrical repeat keeps the fraction; mirrored repeat keeps the fraction for an even
/// integer part and `1.0 - fraction` for an odd one; pulse gives 0 up to 0.5 inclusive, 1.0
/// above.
///
/// UNVERIFIED(hw) [fact: proctex-reserved-values]: the reserved values 5-7 clamp to edge (Azahar's default) — model choice.
pub fn clamp_coord(c: u32, mode: ProctexClamp) -> u32 {
    let frac = c & (ONE - 1);
    match mode {
        ProctexClamp::ClampToZero => {
            if c > ONE {
                0
            } else {
                c
            }
        }
        ProctexClamp::ClampToEdge | ProctexClamp::Reserved(_) => c.min(ONE),
        ProctexClamp::SymmetricalRepeat => frac,
        ProctexClamp::MirroredRepeat => {
            if (c >> FRAC_BITS) % 2 == 0 {
                frac
            } else {
                ONE - frac
            }
        }
        ProctexClamp::Pulse => {
            if c <= ONE / 2 {
                0
            } else {
                ONE
            }
        }
    }
}

/// One mapping function of clamped coordinates `u`, `v` in [0, [`ONE`]] (fixed 0.12, 1.0 =
/// 4096); the result is in [0, [`ONE`]].
///
/// Products are exact (24 fraction bits) and every result is truncated (floor) to 12 fraction
/// bits once: `U² = u·u >> 12`, `(U²+V²)/2 = (u·u + v·v) >> 13`, `(U+V)/2 = (u + v) >> 1`,
/// `sqrt(U²+V²) = min(isqrt(u·u + v·v), 1.0)`, and
/// `rmax = min(((U+V)/2 + sqrt(U²+V²)) / 2, 1.0) = min((u + v + 2·isqrt(u·u + v·v)) >> 2, 1.0)`
/// (the clamps to 1.0 are Azahar's).
///
/// UNVERIFIED(hw) [fact: proctex-precision]: this rounding (truncation) is the model's; Azahar computes in host float.
/// The reserved values 10-15 give 0 (Azahar's default) — model choice.
pub fn map_function(f: ProctexMappingFunction, u: u32, v: u32) -> u32 {
    use ProctexMappingFunction as F;
    let (u, v) = (u64::from(u.min(ONE)), u64::from(v.min(ONE)));
    let one = u64::from(ONE);
    let sq = |x: u64| x * x;
    let r = match f {
        F::U => u,
        F::USquared => sq(u) >> FRAC_BITS,
        F::V => v,
        F::VSquared => sq(v) >> FRAC_BITS,
        F::UPlusV => (u + v) >> 1,
        F::USquaredPlusVSquared => (sq(u) + sq(v)) >> (FRAC_BITS + 1),
        F::Sqrt => isqrt(sq(u) + sq(v)).min(one),
        F::Min => u.min(v),
        F::Max => u.max(v),
        F::Rmax => ((u + v + 2 * isqrt(sq(u) + sq(v))) >> 2).min(one),
        F::Reserved(_) => 0,
    };
    // Every arm is at most 1.0 (the inputs are).
    u32::try_from(r).unwrap_or(ONE)
}

/// `floor(sqrt(x))`, exact (Newton iteration on integers).
fn isqrt(x: u64) -> u64 {
    if x < 2 {
        return x;
    }
    // Start above the root: 2^ceil(bits/2).
    let mut r = 1u64 << (64 - x.leading_zeros()).div_ceil(2);
    loop {
        let next = (r + x / r) / 2;
        if next >= r {
            return r;
        }
        r = next;
    }
}

/// A noise / RGB map / alpha map table lookup at `coord` in [0, [`ONE`]] (larger values count
/// as 1.0); the result is in [0, [`ONE`]].
///
/// Azahar (`LookupLUT`): `coord·128` selects entry `i = min(floor(coord·128), 127)` and the
/// fraction `f = coord·128 - i` (so 1.0 reads `lut[127] + lut_diff[127]`); the result is
/// `value + difference·f`. Entry word: bits 0-11 the value, bits 12-23 the difference, a
/// 12-bit two's complement number, both in units of 2^-12.
///
/// Fixed point: `f` has 12 fraction bits (`coord` has 12, `·128` is exact, so `f` is exact);
/// `difference·f` is exact and the sum is truncated (floor) to 12 fraction bits, then clamped
/// to [0, 1.0] (Azahar's GL shader clamps; its software renderer does not).
///
/// UNVERIFIED(hw) [fact: proctex-lut-scales]: the value and difference scales: seed 002 calls both fixed0.0.12 (1.0 =
/// 4096) while Azahar divides by 4095; the difference's scale for negative values is disputed
/// between the seed revisions (see `registers.toml`); the floor and the clamp — model choice.
/// Missing entries (a table shorter than 128) read as 0.
pub fn lookup_value_lut(table: &[u32], coord: u32) -> u32 {
    let coord = coord.min(ONE);
    let index = (coord >> (FRAC_BITS - 7)).min(VALUE_LUT_ENTRIES - 1);
    // coord - index/128 in units of 2^-12, scaled by 128 = fraction of one step, 12 bits.
    let frac = i64::from(coord - (index << (FRAC_BITS - 7))) << 7;
    let word = table.get(index as usize).copied().unwrap_or(0);
    let value = i64::from(word & 0xFFF);
    let diff = i64::from(((word << 8) as i32) >> 20);
    let r = (value * i64::from(ONE) + diff * frac) >> FRAC_BITS;
    // Clamped into [0, 4096]: the conversion cannot fail.
    u32::try_from(r.clamp(0, i64::from(ONE))).unwrap_or(0)
}

/// A mapping output in [0, [`ONE`]] as an 8-bit channel: `floor(m · 255 / 4096 + 1/2)`
/// (round half up), so 1.0 is 255.
///
/// UNVERIFIED(hw) [fact: proctex-lut-scales]: model choice. The tables hold fixed0.0.12 values (seed 002), whose largest
/// entry is 0xFFF = 4095/4096: drivers write that for 1.0 (citro3d `ProcTexLut_FromArray`
/// encodes `0xFFF · x`), and Azahar reads 0xFFF as 1.0 (it divides by 4095) and truncates
/// `alpha · 255`. Rounding here keeps a full-scale entry at 255 (truncating would give 254),
/// as the lighting colours do ([`crate::light::to_u8`]); mid-scale values can differ from
/// Azahar by one (0x800: 128 here, 127 in Azahar).
pub fn unit_to_u8(m: u32) -> u8 {
    let r = (u64::from(m.min(ONE)) * 255 + u64::from(ONE / 2)) >> FRAC_BITS;
    u8::try_from(r).unwrap_or(u8::MAX)
}

/// The noise function's pseudo-random gradient index for one grid coordinate (0-15).
///
/// Azahar `NoiseRand1D` (its comment: results verified against hardware, the algorithm itself
/// may differ): `((v % 9 + 2) · 3 & 0xF) ^ T1[(v / 9) & 0xF]`.
pub fn noise_rand_1d(v: u32) -> u32 {
    const T1: [u32; 16] = [0, 4, 10, 8, 4, 9, 7, 12, 5, 15, 13, 14, 11, 15, 2, 11];
    (((v % 9 + 2) * 3) & 0xF) ^ T1[((v / 9) & 0xF) as usize]
}

/// The noise function's gradient at grid point (`x`, `y`), as `r` in the odd integers
/// -15..=15 standing for `r / 15` (Azahar `NoiseRand2D`: `-1 + v2 · 2/15`, `v2` in 0-15).
pub fn noise_rand_2d(x: u32, y: u32) -> i64 {
    const T2: [u32; 16] = [10, 2, 15, 8, 0, 7, 4, 5, 5, 13, 2, 6, 13, 9, 3, 14];
    let u2 = noise_rand_1d(x) & 0xF;
    let mut v2 = noise_rand_1d(y);
    if u2 & 3 == 1 {
        v2 += 4;
    }
    v2 ^= (u2 & 1) * 6;
    v2 += 10 + u2;
    v2 &= 0xF;
    v2 ^= T2[u2 as usize];
    2 * i64::from(v2) - 15
}

/// The scale of [`noise_coefficient`]: the coefficient is `n / NOISE_SCALE`, i.e. the gradient
/// `r/15` times three 12-bit fractions.
pub const NOISE_SCALE: i64 = 15 << (3 * FRAC_BITS);

/// One noise grid coordinate: `9 · frequency · |c + phase|` in fixed 20.12, from the
/// coordinate `c` (fixed 20.12), the phase and frequency f16 raw bits.
///
/// Azahar: `x = 9 · freq · |u + phase|`. Here the phase is converted to fixed 12 fraction bits
/// (truncated toward zero), the sum's magnitude is multiplied exactly by 9 and the frequency
/// and truncated to 12 fraction bits, saturating at [`COORD_MAX`].
///
/// UNVERIFIED(hw) [fact: proctex-precision]: the precision (12 fraction bits, truncation) and the use of `|frequency|`
/// for a negative frequency (Azahar would produce a negative grid coordinate) — model choice.
pub fn noise_grid(c: u32, phase: u32, freq: u32) -> u32 {
    let phase = f16_mul_fixed(F16::from_bits(phase), i64::from(ONE));
    let s = (i64::from(c) + phase)
        .unsigned_abs()
        .min(u64::from(COORD_MAX));
    // s < 2^32: 9·s fits in i64.
    let x = f16_mul_fixed(F16::from_bits(freq), 9 * s as i64).unsigned_abs();
    u32::try_from(x).unwrap_or(COORD_MAX)
}

/// The noise coefficient at the (absolute, pre-noise) coordinates `u`, `v` (fixed 20.12), as a
/// numerator over [`NOISE_SCALE`]; its value is in [-2, 2] (the gradients are in [-1, 1], the
/// ramps in [-2, 2]).
///
/// Azahar `NoiseCoef` (the fact, its code verified against hardware output): grid coordinates
/// `x = 9·fu·|u + pu|`, `y = 9·fv·|v + pv|` ([`noise_grid`]) split into integer `xi`, `yi` and
/// fraction `xf`, `yf`; gradients `g0 = R(xi, yi)·(xf + yf)`, `g1 = R(xi+1, yi)·(xf + yf - 1)`,
/// `g2 = R(xi, yi+1)·(xf + yf - 1)`, `g3 = R(xi+1, yi+1)·(xf + yf - 2)` with `R` =
/// [`noise_rand_2d`]; weights `wx = noise_lut(xf)`, `wy = noise_lut(yf)`
/// ([`lookup_value_lut`]); result `lerp(lerp(g0, g1, wx), lerp(g2, g3, wx), wy)` with
/// `lerp(a, b, t) = a·(1 - t) + b·t`.
///
/// Every step here is exact integer arithmetic (no rounding until [`add_noise`]).
/// UNVERIFIED(hw) [fact: proctex-precision]: exact intermediate precision — model choice.
pub fn noise_coefficient(u: u32, v: u32, cfg: &ProctexConfig, noise_lut: &[u32]) -> i64 {
    let x = noise_grid(u, cfg.p1.u_noise_phase(), cfg.p3.u_noise_frequency());
    let y = noise_grid(v, cfg.p2.v_noise_phase(), cfg.p3.v_noise_frequency());
    let (xi, yi) = (x >> FRAC_BITS, y >> FRAC_BITS);
    let (xf, yf) = (x & (ONE - 1), y & (ONE - 1));
    let one = i64::from(ONE);
    // Ramps in units of 2^-12; gradients in units of 1/15: products in 1/(15·2^12).
    let t = i64::from(xf) + i64::from(yf);
    let g0 = noise_rand_2d(xi, yi) * t;
    let g1 = noise_rand_2d(xi.wrapping_add(1), yi) * (t - one);
    let g2 = noise_rand_2d(xi, yi.wrapping_add(1)) * (t - one);
    let g3 = noise_rand_2d(xi.wrapping_add(1), yi.wrapping_add(1)) * (t - 2 * one);
    let wx = i64::from(lookup_value_lut(noise_lut, xf));
    let wy = i64::from(lookup_value_lut(noise_lut, yf));
    // |g| <= 15·8192 < 2^17, weights <= 2^12: x0, x1 < 2^30, result < 2^43.
    let x0 = g0 * (one - wx) + g1 * wx;
    let x1 = g2 * (one - wx) + g3 * wx;
    x0 * (one - wy) + x1 * wy
}

/// `|c + n · amplitude|` in fixed 20.12: the coordinate `c` after noise, from the coefficient
/// numerator `n` ([`noise_coefficient`]) and the amplitude's raw bits (fixed1.3.12, seed 002:
/// a 16-bit two's complement number in units of 2^-12).
///
/// The offset `n · amplitude / NOISE_SCALE` (in units of 2^-12) is truncated toward zero.
///
/// UNVERIFIED(hw) [fact: proctex-noise-amplitude]: Azahar divides the amplitude by 4095, citro3d encodes it as `a·0x1000`
/// (so 4096 here, the fixed1.3.12 reading); the truncation — model choice.
pub fn add_noise(c: u32, n: i64, amplitude: u32) -> u32 {
    add_noise_with(c, n, amplitude, ProctexNoiseAmplitude::Div4096)
}

/// [`add_noise`] with knob `proctex-noise-amplitude` ([`noise_offset_with`]).
pub fn add_noise_with(c: u32, n: i64, amplitude: u32, unit: ProctexNoiseAmplitude) -> u32 {
    let offset = noise_offset_with(n, amplitude, unit);
    let r = (i64::from(c) + offset).unsigned_abs();
    u32::try_from(r).unwrap_or(COORD_MAX)
}

/// The noise offset in fixed 12 fraction bits: `trunc(n · amplitude / NOISE_SCALE)` with the
/// amplitude's raw 16 bits read as two's complement (see [`add_noise`]).
pub fn noise_offset(n: i64, amplitude: u32) -> i64 {
    noise_offset_with(n, amplitude, ProctexNoiseAmplitude::Div4096)
}

/// [`noise_offset`] with knob `proctex-noise-amplitude`: [`ProctexNoiseAmplitude::Div4095`]
/// reads the amplitude as `raw / 4095` (Azahar): `trunc(n · amplitude · 4096 / (NOISE_SCALE ·
/// 4095))`.
pub fn noise_offset_with(n: i64, amplitude: u32, unit: ProctexNoiseAmplitude) -> i64 {
    let amp = i128::from((amplitude & 0xFFFF) as u16 as i16);
    // |n| < 2^43, |amp| <= 2^15: the product fits easily; the quotient is < 2^15.
    let q = match unit {
        ProctexNoiseAmplitude::Div4096 => i128::from(n) * amp / i128::from(NOISE_SCALE),
        ProctexNoiseAmplitude::Div4095 => {
            i128::from(n) * amp * 4096 / (i128::from(NOISE_SCALE) * 4095)
        }
    };
    i64::try_from(q).unwrap_or(0)
}

/// The highest proctex mipmap level: 7 (Azahar's GLSL generator clamps the maximum LOD to 7;
/// levels 4-7 have fixed colour-table offsets, [`HIGH_LEVEL_OFFSETS`]). UNVERIFIED(hw) [fact: proctex-color-levels]:
/// Azahar's limit, not measured; PROCTEX4's max LOD field could hold up to 15.
pub const MAX_LEVEL: u32 = 7;

/// The colour-table offsets of mipmap levels 4-7: seed 002 GPUREG_TEXUNIT3_PROCTEX5 ("Mipmap
/// level 4-7 seems to be hardcoded at offset 0xF0, 0xF8, 0xFC and 0xFE"; Azahar's GLSL
/// generator uses the same). UNVERIFIED(hw) [fact: proctex-color-levels] beyond the seed's "seems".
pub const HIGH_LEVEL_OFFSETS: [u32; 4] = [0xF0, 0xF8, 0xFC, 0xFE];

/// Fraction bits of the scaled differences [`lod`] takes the logarithm of.
pub const LOD_DERIV_FRAC_BITS: u32 = 16;

/// The colour-table offset of mipmap level `level` (0-7; larger values read level 7):
/// PROCTEX5's four fields for levels 0-3, [`HIGH_LEVEL_OFFSETS`] for 4-7.
pub fn level_offset(cfg: &ProctexConfig, level: u32) -> u32 {
    let p5 = cfg.p5;
    match level {
        0 => p5.level0_offset(),
        1 => p5.level1_offset(),
        2 => p5.level2_offset(),
        3 => p5.level3_offset(),
        l => HIGH_LEVEL_OFFSETS[(l.min(MAX_LEVEL) - 4) as usize],
    }
}

/// The proctex level of detail in 4.8 fixed point, already clamped to
/// `[min_lod, min(max_lod, 7)]` (GPUREG_TEXUNIT3_PROCTEX4), from the coordinate differences
/// `deriv` = `[du/dx, dv/dx, du/dy, dv/dy]`.
///
/// Azahar's GLSL generator (`glsl_fs_shader_gen.cpp` `ProcTex`; "unlike normal texture, the
/// bias is inside the log2", and a per-axis maximum summed over the axes, "the LOD upper limit
/// defined in OpenGL"):
/// `lod = log2(|width · bias| · (max(|du/dx|, |du/dy|) + max(|dv/dx|, |dv/dy|)))`, `lod = 0`
/// when the bias is 0, then the clamp. `width` is PROCTEX4's colour-table width and `bias`
/// the f16 [`ProctexConfig::lod_bias`].
///
/// Fixed point (the model's definition): each maximum is taken on
/// `floor(|d| · width · 2^16)` ([`super::sample::to_fixed`], exact), the two are added, the
/// sum is multiplied exactly by `|bias|` and floored, and [`super::sample::log2_fixed`] takes
/// the piecewise-linear `log2` the texture units use. A zero product (no differences) is
/// below any level and clamps to the minimum.
///
/// UNVERIFIED(hw) [fact: proctex-lod]: the rule is Azahar's (not checked against hardware there either); the
/// precision, the NaN bias acting as 0, and `max_lod < min_lod` acting as `min_lod = max_lod`
/// (as for texture units 0-2, [`super::sample::plan_levels`]) are model choices.
pub fn lod(cfg: &ProctexConfig, deriv: [F24; 4]) -> i32 {
    let hi = cfg.p4.max_lod().min(MAX_LEVEL);
    let lo = cfg.p4.min_lod().min(hi);
    let (lo, hi) = (lo as i32 * 256, hi as i32 * 256);
    let raw = match f16_parts(cfg.lod_bias()) {
        // A zero (or NaN) bias: LOD 0.
        Some((_, 0, _)) | None => 0,
        Some((_, m, e)) => {
            let width = cfg.p4.width();
            let fx = |x: F24| {
                super::sample::to_fixed(x.abs(), width, LOD_DERIV_FRAC_BITS).unsigned_abs()
            };
            // Each term < 2^41 (to_fixed saturates at 2^40): the sum fits easily.
            let s = u128::from(fx(deriv[0]).max(fx(deriv[2])))
                + u128::from(fx(deriv[1]).max(fx(deriv[3])));
            let rho = if m == u64::MAX {
                // Infinite bias: saturate far above level 7.
                if s == 0 {
                    0
                } else {
                    u128::MAX >> 1
                }
            } else {
                // m < 2^11, -24 <= e <= 5: the product stays far inside u128.
                let p = s * u128::from(m);
                if e >= 0 {
                    p << e
                } else {
                    p >> (-e)
                }
            };
            super::sample::log2_fixed(rho, LOD_DERIV_FRAC_BITS)
        }
    };
    raw.clamp(lo, hi)
}

/// The colour-table lookup for the mapping output `m` in [0, [`ONE`]] (`[r, g, b, a]`) at
/// level of detail `lod` (4.8 fixed point, [`lod`]).
///
/// Levels (Azahar's GLSL generator): Nearest and Linear read level 0; the `*MipmapNearest`
/// filters read level `round(lod)` (half up); the `*MipmapLinear` filters blend levels
/// `floor(lod)` and `floor(lod) + 1` by the fraction of `lod` ([`super::sample::lerp_levels`],
/// the texture units' rule; one level when the fraction is 0). Within a level the first half
/// of the filter's name applies: nearest or linear ([`color_level`]).
///
/// UNVERIFIED(hw) [fact: proctex-reserved-values]: the reserved filter values 6-7 act as Nearest — model choice.
pub fn color_lookup(cfg: &ProctexConfig, color: &[u32], diff: &[u32], m: u32, lod: i32) -> [u8; 4] {
    let (linear, mip) = filter_parts(cfg.p4.min_filter());
    let lod = lod.clamp(0, (MAX_LEVEL * 256) as i32) as u32;
    let level = |l: u32| color_level(cfg, color, diff, m, l, linear);
    match mip {
        None => level(0),
        Some(false) => level(((lod + 128) >> 8).min(MAX_LEVEL)),
        Some(true) => {
            let (l, f) = (lod >> 8, lod & 0xFF);
            if f == 0 || l >= MAX_LEVEL {
                level(l.min(MAX_LEVEL))
            } else {
                super::sample::lerp_levels(level(l), level(l + 1), f)
            }
        }
    }
}

/// A colour-table filter as (linear within a level, mipmap filter: `None` for none,
/// `Some(false)` nearest, `Some(true)` linear). UNVERIFIED(hw) [fact: proctex-reserved-values]: the reserved values 6-7 act
/// as Nearest — model choice.
const fn filter_parts(f: ProctexMinFilter) -> (bool, Option<bool>) {
    use ProctexMinFilter as F;
    match f {
        F::Nearest | F::Reserved(_) => (false, None),
        F::Linear => (true, None),
        F::NearestMipmapNearest => (false, Some(false)),
        F::LinearMipmapNearest => (true, Some(false)),
        F::NearestMipmapLinear => (false, Some(true)),
        F::LinearMipmapLinear => (true, Some(true)),
    }
}

/// The colour-table lookup for the mapping output `m` on mipmap level `level`.
///
/// Azahar: the level's width is `width >> level` (PROCTEX4's width) and its entries start at
/// [`level_offset`]; the table index is `offset + m · (width_l - 1)` (so 1.0 reads entry
/// `offset + width_l - 1`); nearest reads the entry at the rounded index; linear reads entry
/// `i = floor(index)` plus `fraction · diff[i]`, where a colour-difference channel holds *half*
/// the difference (so it counts twice).
///
/// Fixed point: `m · (width_l - 1)` is exact with 12 fraction bits; nearest rounds half up;
/// linear computes `color·2^12 + 2·diff·fraction` exactly and truncates (floor) to an integer,
/// clamped to 0-255.
///
/// UNVERIFIED(hw) [fact: proctex-color-levels], all model choices:
/// - A level width of 0 acts as width 1 (every coordinate reads the offset entry).
/// - `offset + index` beyond the 256-entry table wraps modulo 256.
/// - Nearest rounds half up; linear truncates, and results outside 0-255 clamp.
pub fn color_level(
    cfg: &ProctexConfig,
    color: &[u32],
    diff: &[u32],
    m: u32,
    level: u32,
    linear: bool,
) -> [u8; 4] {
    let width = cfg.p4.width() >> level.min(31);
    let span = width.saturating_sub(1);
    let pos = m.min(ONE) * span; // <= 4096 · 254: no overflow.
    let offset = level_offset(cfg, level);
    let entry = |table: &[u32], i: u32| {
        let i = offset.wrapping_add(i) % COLOR_LUT_ENTRIES;
        table.get(i as usize).copied().unwrap_or(0)
    };
    if linear {
        let i = pos >> FRAC_BITS;
        let f = i64::from(pos & (ONE - 1));
        let c = entry(color, i).to_le_bytes();
        let d = entry(diff, i).to_le_bytes();
        core::array::from_fn(|k| {
            let half = i64::from(d[k] as i8);
            let r = (i64::from(c[k]) * i64::from(ONE) + 2 * half * f) >> FRAC_BITS;
            u8::try_from(r.clamp(0, 255)).unwrap_or(0)
        })
    } else {
        let i = (pos + ONE / 2) >> FRAC_BITS;
        entry(color, i).to_le_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> ProctexConfig {
        ProctexConfig {
            p0: regs::Texunit3Proctex0(0),
            p1: regs::Texunit3Proctex1(0),
            p2: regs::Texunit3Proctex2(0),
            p3: regs::Texunit3Proctex3(0),
            p4: regs::Texunit3Proctex4(0),
            p5: regs::Texunit3Proctex5(0),
            noise_amplitude: ProctexNoiseAmplitude::Div4096,
        }
    }

    #[test]
    fn proctex_coord_from_f24_exact_values() {
        assert_eq!(coord_from_f24(F24::ONE), ONE);
        assert_eq!(coord_from_f24(F24::NEG_ONE), ONE);
        assert_eq!(coord_from_f24(F24::from_bits(0x3E0000)), ONE / 2); // 0.5
        assert_eq!(coord_from_f24(F24::from_bits(0x408000)), 3 * ONE); // 3.0
                                                                       // 1 + 2^-16: below 12 fraction bits, truncated.
        assert_eq!(coord_from_f24(F24::from_bits(0x3F0001)), ONE);
        // 2^-12 is the smallest non-zero coordinate; 2^-13 truncates to 0.
        assert_eq!(coord_from_f24(F24::from_parts(false, 63 - 12, 0)), 1);
        assert_eq!(coord_from_f24(F24::from_parts(false, 63 - 13, 0xFFFF)), 0);
        // 2^19 fits, 2^20 saturates.
        assert_eq!(coord_from_f24(F24::from_parts(false, 63 + 19, 0)), 1 << 31);
        assert_eq!(
            coord_from_f24(F24::from_parts(false, 63 + 20, 0)),
            COORD_MAX
        );
        assert_eq!(coord_from_f24(F24::INFINITY), COORD_MAX);
        assert_eq!(coord_from_f24(F24::NEG_INFINITY), COORD_MAX);
        assert_eq!(coord_from_f24(F24::NAN), 0);
        assert_eq!(coord_from_f24(F24::from_bits(0x00FFFF)), 0); // subnormal
    }

    #[test]
    fn proctex_isqrt_floor() {
        for x in [
            0u64,
            1,
            2,
            3,
            4,
            15,
            16,
            17,
            4096 * 4096,
            2 * 4096 * 4096,
            u64::MAX,
        ] {
            let r = isqrt(x);
            assert!(r * r <= x, "{x}");
            assert!((r + 1).checked_mul(r + 1).is_none_or(|s| s > x), "{x}");
        }
        // sqrt(2) in 12 fraction bits: floor(4096 · 1.41421356...) = 5792.
        assert_eq!(isqrt(2 * 4096 * 4096), 5792);
    }

    #[test]
    fn proctex_f16_mul_fixed_exact_and_saturating() {
        let half = F16::from_bits(0x3800);
        assert_eq!(f16_mul_fixed(half, 4096), 2048);
        assert_eq!(f16_mul_fixed(half, -3), -1); // -1.5 truncated toward zero
        assert_eq!(f16_mul_fixed(F16::from_bits(0xBC00), 4096), -4096); // -1.0
        assert_eq!(f16_mul_fixed(F16::from_bits(0x0001), 1 << 24), 1); // 2^-24 · 2^24
        assert_eq!(f16_mul_fixed(F16::INFINITY, 1), i64::from(COORD_MAX));
        assert_eq!(f16_mul_fixed(F16::INFINITY, 0), 0);
        assert_eq!(f16_mul_fixed(F16::NAN, 4096), 0);
        assert_eq!(f16_mul_fixed(F16::MAX, i64::MAX), i64::from(COORD_MAX));
    }

    #[test]
    fn proctex_noise_rand_tables() {
        // v = 0: ((0 + 2)·3 & 15) ^ T1[0] = 6.
        assert_eq!(noise_rand_1d(0), 6);
        // v = 10: ((1 + 2)·3 & 15) ^ T1[1] = 9 ^ 4 = 13.
        assert_eq!(noise_rand_1d(10), 13);
        // (0, 0): u2 = v2 = 6; u2 & 3 = 2 (no +4); v2 ^= 0; v2 = (6 + 16) & 15 = 6;
        // v2 ^= T2[6] = 4 → 2; r = 2·2 - 15 = -11.
        assert_eq!(noise_rand_2d(0, 0), -11);
        for x in 0..300 {
            for y in [0, 1, 7, 1000, u32::MAX] {
                let r = noise_rand_2d(x, y);
                assert!((-15..=15).contains(&r) && r % 2 != 0, "{x} {y} {r}");
            }
        }
    }

    #[test]
    fn proctex_lookup_value_lut_endpoints() {
        // Entry 127: value 100, difference -3; entry 0: value 5, difference 64.
        let mut t = vec![0u32; 128];
        t[0] = 5 | (64 << 12);
        t[127] = 100 | ((-3i32 as u32 & 0xFFF) << 12);
        assert_eq!(lookup_value_lut(&t, 0), 5);
        // Half a step into entry 0: 5 + 64/2.
        assert_eq!(lookup_value_lut(&t, 16), 37);
        assert_eq!(lookup_value_lut(&t, 127 * 32), 100);
        // 1.0 reads lut[127] + diff[127] (Azahar's comment).
        assert_eq!(lookup_value_lut(&t, ONE), 97);
        // Beyond 1.0 counts as 1.0.
        assert_eq!(lookup_value_lut(&t, u32::MAX), 97);
        // Short or empty tables read 0.
        assert_eq!(lookup_value_lut(&[], ONE), 0);
    }

    #[test]
    fn proctex_lookup_value_lut_clamps_to_unit_range() {
        // value 0, difference -1 → negative in between → 0; value 4095, difference +2047 → >1.
        let mut t = vec![(0xFFFu32) << 12; 128];
        t[1] = 0xFFF | (0x7FF << 12);
        assert_eq!(lookup_value_lut(&t, 16), 0);
        assert_eq!(lookup_value_lut(&t, 32 + 16), ONE);
    }

    #[test]
    fn proctex_color_lookup_width_zero_and_wrap() {
        let mut c = cfg();
        c.p5 = c.p5.with_level0_offset(0xFF);
        c.p4 = c.p4.with_width(0);
        let color: Vec<u32> = (0..256).map(|i| i * 0x0101_0101).collect();
        // Width 0 → every m reads entry 0xFF.
        assert_eq!(color_lookup(&c, &color, &[], ONE, 0), [0xFF; 4]);
        // Width 3, m = 1.0 → offset 0xFF + 2 wraps to entry 1.
        c.p4 = c.p4.with_width(3);
        assert_eq!(color_lookup(&c, &color, &[], ONE, 0), [1; 4]);
    }

    #[test]
    fn proctex_map_and_clamp_stay_in_unit_range() {
        // Every mapping function (0-15, reserved included) of every clamped pair on a grid
        // stays in [0, 1.0]; every clamp mode (0-7) of any coordinate too.
        for bits in 0..16 {
            let func = ProctexMappingFunction::from_bits(bits);
            for u in (0..=ONE).step_by(97).chain([ONE]) {
                for v in (0..=ONE).step_by(89).chain([ONE]) {
                    assert!(map_function(func, u, v) <= ONE, "{bits} {u} {v}");
                }
            }
        }
        for bits in 0..8 {
            let mode = ProctexClamp::from_bits(bits);
            for c in (0..=20 * ONE)
                .step_by(61)
                .chain([u32::MAX, u32::MAX - ONE / 2])
            {
                assert!(clamp_coord(c, mode) <= ONE, "{bits} {c}");
            }
        }
    }

    #[test]
    fn proctex_map_function_at_corners() {
        use ProctexMappingFunction as F;
        // u = 1.0, v = 0: U 1, U² 1, V 0, (U+V)/2 0.5, (U²+V²)/2 0.5, sqrt 1, min 0, max 1,
        // rmax (0.5 + 1) / 2 = 0.75.
        let want = [
            (F::U, ONE),
            (F::USquared, ONE),
            (F::V, 0),
            (F::VSquared, 0),
            (F::UPlusV, ONE / 2),
            (F::USquaredPlusVSquared, ONE / 2),
            (F::Sqrt, ONE),
            (F::Min, 0),
            (F::Max, ONE),
            (F::Rmax, 3 * ONE / 4),
            (F::Reserved(10), 0),
        ];
        for (f, m) in want {
            assert_eq!(map_function(f, ONE, 0), m, "{f:?}");
        }
    }

    #[test]
    fn proctex_shift_offset_rules() {
        let edge = ProctexClamp::ClampToEdge;
        let mirror = ProctexClamp::MirroredRepeat;
        // Odd: on for int(other) = 2, 3, 6, 7, ...; Even: on for 1, 2, 5, 6, ...
        let odd: Vec<u32> = (0..8)
            .map(|i| shift_offset(i * ONE + 5, ProctexShift::Odd, edge))
            .collect();
        let even: Vec<u32> = (0..8)
            .map(|i| shift_offset(i * ONE + 5, ProctexShift::Even, edge))
            .collect();
        let h = ONE / 2;
        assert_eq!(odd, [0, 0, h, h, 0, 0, h, h]);
        assert_eq!(even, [0, h, h, 0, 0, h, h, 0]);
        assert_eq!(shift_offset(2 * ONE, ProctexShift::Odd, mirror), ONE);
        assert_eq!(shift_offset(2 * ONE, ProctexShift::None, mirror), 0);
        assert_eq!(shift_offset(2 * ONE, ProctexShift::Reserved(3), edge), 0);
        // Saturated coordinate: int 0xFFFFF, (int + 1) / 2 = 0x80000 is even → off; Odd:
        // int / 2 = 0x7FFFF is odd → on.
        assert_eq!(shift_offset(u32::MAX, ProctexShift::Even, edge), 0);
        assert_eq!(shift_offset(u32::MAX, ProctexShift::Odd, edge), h);
    }

    #[test]
    fn proctex_noise_offset_truncates_toward_zero() {
        // n = NOISE_SCALE is a coefficient of 1.0; amplitude 0x1000 = 1.0 → offset 1.0.
        assert_eq!(noise_offset(NOISE_SCALE, 0x1000), 4096);
        // Amplitude -1.0 (0xF000).
        assert_eq!(noise_offset(NOISE_SCALE, 0xF000), -4096);
        // A coefficient just under 2^-12 gives 0 either way.
        assert_eq!(noise_offset(NOISE_SCALE / 4096 - 1, 0x1000), 0);
        assert_eq!(noise_offset(-(NOISE_SCALE / 4096 - 1), 0x1000), 0);
        assert_eq!(add_noise(10, -NOISE_SCALE, 0x1000), 4086);
    }
}
