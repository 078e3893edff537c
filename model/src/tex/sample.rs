//! Sampling arithmetic: f24 coordinates to fixed-point texel positions, wrap modes, bilinear
//! weights, level of detail and mipmap level selection. Everything is integer arithmetic.
//!
//! # Texel positions
//!
//! A coordinate `u` (f24) on an axis of `n` texels becomes the fixed-point texel position
//! `P = floor(u · n · 2^8)` computed **exactly** from the f24 bits ([`to_fixed`]; 8 fraction
//! bits: [`SUBTEXEL_BITS`]). Nearest picks texel `P >> 8` (floor); linear uses `P - 128`
//! (`u·n − 0.5`): texels `i0 = (P − 128) >> 8` and `i0 + 1`, weight of the second
//! `f = (P − 128) & 255` of 256.
//!
//! UNVERIFIED(hw) [fact: tex-coord-precision]: the precision (exact product, 8 sub-texel bits, floor) is the model's choice.
//! Azahar multiplies in f24 and truncates toward zero (`static_cast<s32>((u * width)...)`),
//! which differs from floor for negative coordinates and loses bits for large `u`.
//!
//! # Bilinear weights
//!
//! With column weight `fx` and row weight `fy` (0-255 of 256), each channel is
//! `(c00·(256−fx)(256−fy) + c10·fx(256−fy) + c01·(256−fx)fy + c11·fx·fy + 2^15) >> 16`
//! (round half up; the weights sum to 2^16 so the result is in 0-255).
//! UNVERIFIED(hw) [fact: tex-filter-weights]: weight precision and rounding are the model's choice.

use crate::knobs::TexFilterRounding;
use crate::num::F24;
use crate::regs::{TexunitParamFilter, TexunitParamWrap};

/// Sub-texel fraction bits of texel positions.
pub const SUBTEXEL_BITS: u32 = 8;

/// Texel positions saturate to ±2^40 (1/256 texel units): far outside any texture, so every
/// wrap mode still gives its defined answer, and products stay well inside `i128`.
pub const COORD_SAT: i64 = 1 << 40;

/// `floor(x · scale · 2^frac)` computed exactly from the f24 bits, saturated to ±[`COORD_SAT`].
///
/// Exponent-0 values (zero, subnormals) give 0 (the flush the ALU applies). NaN gives 0.
/// UNVERIFIED(hw) [fact: tex-coord-precision]: NaN → 0 and ±inf → ±saturation are the model's choices.
pub fn to_fixed(x: F24, scale: u32, frac: u32) -> i64 {
    if x.is_nan() || x.exponent() == 0 || scale == 0 {
        return 0;
    }
    let neg = x.is_sign_negative();
    if x.is_infinite() {
        return if neg { -COORD_SAT } else { COORD_SAT };
    }
    // value = (2^16 + mantissa) · 2^(exp − 63 − 16); times scale · 2^frac.
    let m = (u128::from((1u32 << 16) | x.mantissa())) * u128::from(scale);
    let sh = x.exponent() as i32 - 79 + frac.min(32) as i32;
    let sat = COORD_SAT as u128;
    let (mag, inexact) = if sh >= 0 {
        if sh > 60 {
            (sat, false)
        } else {
            ((m << sh).min(sat), false)
        }
    } else {
        let s = (-sh) as u32;
        if s >= 127 {
            (0, m != 0)
        } else {
            (m >> s, m & ((1u128 << s) - 1) != 0)
        }
    };
    let mag = mag.min(sat) as i64;
    if neg {
        // floor of a negative value: one more in magnitude when bits were dropped.
        -(mag + i64::from(inexact))
    } else {
        mag
    }
}

/// Where a wrapped texel index lands: a texel, or the border colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrapped {
    /// Texel index in `0..n`.
    Texel(u32),
    /// Outside, clamp-to-border: the border colour.
    Border,
}

/// Wraps texel index `i` on an axis of `n` texels (`n` ≥ 1; 0 is treated as 1).
///
/// - 0 clamp to edge: clamp to `[0, n−1]`.
/// - 1 clamp to border: outside `[0, n−1]` → border.
/// - 2 repeat: `i mod n` (Euclidean).
/// - 3 mirrored repeat: `m = i mod 2n`; `m` if `m < n`, else `2n − 1 − m`.
/// - 4-7 (reserved in the register docs): UNVERIFIED(hw) [fact: tex-wrap-reserved] — the behaviour Azahar
///   `video_core/renderer_software/sw_texturing.cpp` `GetWrappedTexCoord` gives them from
///   hardware tests: 4 "ClampToEdge2" = repeat for negative `i`, else clamp to edge;
///   5 "ClampToBorder2" = repeat for negative `i`, border for `i ≥ n`; 6 and 7 repeat.
pub fn wrap(mode: TexunitParamWrap, i: i64, n: u32) -> Wrapped {
    let n = i64::from(n.max(1));
    let repeat = |i: i64| Wrapped::Texel(i.rem_euclid(n) as u32);
    let clamp = |i: i64| Wrapped::Texel(i.clamp(0, n - 1) as u32);
    let border = |i: i64| {
        if (0..n).contains(&i) {
            Wrapped::Texel(i as u32)
        } else {
            Wrapped::Border
        }
    };
    match mode {
        TexunitParamWrap::ClampToEdge => clamp(i),
        TexunitParamWrap::ClampToBorder => border(i),
        TexunitParamWrap::Repeat => repeat(i),
        TexunitParamWrap::MirroredRepeat => {
            let m = i.rem_euclid(2 * n);
            Wrapped::Texel(if m < n { m } else { 2 * n - 1 - m } as u32)
        }
        TexunitParamWrap::Reserved(4) => {
            if i < 0 {
                repeat(i)
            } else {
                clamp(i)
            }
        }
        TexunitParamWrap::Reserved(5) => {
            if i < 0 {
                repeat(i)
            } else {
                border(i)
            }
        }
        TexunitParamWrap::Reserved(_) => repeat(i),
    }
}

/// Bilinear blend of four texels (`c00` at (i0, j0), `c10` at (i0+1, j0), `c01` at (i0, j0+1),
/// `c11` at (i0+1, j0+1)) with weights `fx`, `fy` in 0-255 (of 256). See the module docs.
pub fn bilinear(c: [[u8; 4]; 4], fx: u32, fy: u32) -> [u8; 4] {
    bilinear_with(c, fx, fy, TexFilterRounding::HalfUp)
}

/// [`bilinear`] with knob `tex-filter-rounding`: [`TexFilterRounding::Truncate`] drops the
/// rounding term.
pub fn bilinear_with(c: [[u8; 4]; 4], fx: u32, fy: u32, rounding: TexFilterRounding) -> [u8; 4] {
    let half = match rounding {
        TexFilterRounding::HalfUp => 1 << 15,
        TexFilterRounding::Truncate => 0,
    };
    let (fx, fy) = (fx & 255, fy & 255);
    let w = [
        (256 - fx) * (256 - fy),
        fx * (256 - fy),
        (256 - fx) * fy,
        fx * fy,
    ];
    let mut out = [0u8; 4];
    for (ch, o) in out.iter_mut().enumerate() {
        let sum: u32 = c.iter().zip(w).map(|(t, w)| u32::from(t[ch]) * w).sum();
        *o = ((sum + half) >> 16) as u8;
    }
    out
}

/// Blend of two mipmap levels: `(a·(256−f) + b·f + 128) >> 8` per channel, `f` in 0-255.
/// UNVERIFIED(hw) [fact: tex-filter-weights]: 8-bit level fraction and round-half-up are the model's choice.
pub fn lerp_levels(a: [u8; 4], b: [u8; 4], f: u32) -> [u8; 4] {
    lerp_levels_with(a, b, f, TexFilterRounding::HalfUp)
}

/// [`lerp_levels`] with knob `tex-filter-rounding` (see [`bilinear_with`]).
pub fn lerp_levels_with(a: [u8; 4], b: [u8; 4], f: u32, rounding: TexFilterRounding) -> [u8; 4] {
    let half = match rounding {
        TexFilterRounding::HalfUp => 128,
        TexFilterRounding::Truncate => 0,
    };
    let f = f & 255;
    let mut out = [0u8; 4];
    for (ch, o) in out.iter_mut().enumerate() {
        let v = u32::from(a[ch]) * (256 - f) + u32::from(b[ch]) * f + half;
        *o = (v >> 8) as u8;
    }
    out
}

/// The level of detail when the scaled derivatives are all zero (log2 0): far below any bias
/// can lift, so the fragment is magnified and clamps to the minimum level.
pub const LOD_NONE: i32 = -(1 << 20);

/// Level of detail in 4.8 fixed point (before bias and clamping) from the screen-space
/// derivatives `[du/dx, dv/dx, du/dy, dv/dy]` of a `width` × `height` level-0 texture.
///
/// Rule:
/// 1. Each derivative is scaled to texels and made fixed point exactly:
///    `floor(|d| · size · 2^8)` ([`to_fixed`]; u derivatives × width, v × height).
/// 2. `rho` is the largest of the four: `max(|du/dx|·w, |du/dy|·w, |dv/dx|·h, |dv/dy|·h)`.
///    This is Azahar's GLSL `getLod` (`glsl_fs_shader_gen.cpp`: "PICA's LOD formula for 2D
///    textures … the same as the LOD lower limit defined in OpenGL"; the mipmap work of citra
///    PR #3910 says PICA's LOD "basically matches the one in OpenGL") — a per-component maximum
///    rather than OpenGL's Euclidean length, which also needs no square root.
/// 3. `log2(rho)` in 4.8 fixed point with [`log2_fixed`].
///
/// UNVERIFIED(hw) [fact: tex-lod]: the per-axis maximum is Azahar's (not a hardware measurement); the
/// derivative precision and the piecewise-linear `log2` are the model's choices (Azahar uses
/// the host GPU's derivatives and `log2`). `rho = 0` gives [`LOD_NONE`].
pub fn lod_from_derivs(d: [F24; 4], width: u32, height: u32) -> i32 {
    let fx = |x: F24, n: u32| to_fixed(x.abs(), n, SUBTEXEL_BITS).unsigned_abs() as u128;
    let rho = fx(d[0], width)
        .max(fx(d[2], width))
        .max(fx(d[1], height))
        .max(fx(d[3], height));
    log2_fixed(rho, SUBTEXEL_BITS)
}

/// `log2(x / 2^frac)` in 4.8 fixed point, with the piecewise-linear approximation
/// `log2(2^e · (1 + f)) ≈ e + f`: integer part = index of the most significant bit of `x`
/// minus `frac`, fraction = the 8 bits below that bit (truncated, zero-filled). `x = 0` gives
/// [`LOD_NONE`].
///
/// UNVERIFIED(hw) [fact: tex-lod]: the approximation is the model's choice (the hardware's LOD unit is not
/// documented; a leading-one detector and the mantissa bits below it are the cheapest log2).
pub fn log2_fixed(x: u128, frac: u32) -> i32 {
    if x == 0 {
        return LOD_NONE;
    }
    let msb = 127 - x.leading_zeros(); // 0..=127
    let f = if msb >= 8 {
        (x >> (msb - 8)) & 0xFF
    } else {
        (x << (8 - msb)) & 0xFF
    } as i32;
    (msb as i32 - frac.min(127) as i32) * 256 + f
}

/// Sign-extends the 13-bit fixed1.4.8 LOD bias field (GPUREG_TEXUNITi_LOD bits 0-12).
pub fn lod_bias(field: u32) -> i32 {
    (((field & 0x1FFF) << 19) as i32) >> 19
}

/// Which levels a fragment samples and with which filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelPlan {
    /// One level.
    One {
        /// Mipmap level.
        level: u32,
        /// Texel filter within the level.
        filter: TexunitParamFilter,
    },
    /// Two adjacent levels blended with [`lerp_levels`].
    Two {
        /// The finer level.
        level: u32,
        /// The coarser level (`level + 1`, or `level` at the maximum).
        next: u32,
        /// Weight of `next`, 0-255.
        frac: u32,
        /// Texel filter within each level.
        filter: TexunitParamFilter,
    },
}

/// Chooses the level(s) from the unbiased LOD `lod` (4.8, [`lod_from_derivs`]).
///
/// Let `lo = min(min_level, max_level)`, `hi = max_level`, `l = lod + bias` (saturating).
/// - `l ≤ 0`: magnification — level `lo` (0 unless a minimum level is set), `mag_filter`.
/// - otherwise minification with `min_filter` and `lc = clamp(l, lo·256, hi·256)`:
///   mipmap filter nearest → level `(lc + 128) >> 8` (round half up); linear → level
///   `lc >> 8` blended with the next by `lc & 255` (one level when that is 0 or at `hi`).
///
/// UNVERIFIED(hw) [fact: tex-lod]: deciding magnification on the biased, unclamped LOD (OpenGL's rule with no
/// LOD clamp), the rounding, and `max_level < min_level` behaving as `min_level = max_level`
/// are the model's choices. A reserved mipmap-filter value acts as nearest.
#[allow(clippy::too_many_arguments)]
pub fn plan_levels(
    lod: i32,
    bias: i32,
    min_level: u32,
    max_level: u32,
    mag_filter: TexunitParamFilter,
    min_filter: TexunitParamFilter,
    mip_filter: TexunitParamFilter,
) -> LevelPlan {
    let lo = min_level.min(max_level);
    let hi = max_level;
    let l = lod.saturating_add(bias);
    if l <= 0 {
        return LevelPlan::One {
            level: lo,
            filter: mag_filter,
        };
    }
    let lc = l.clamp(lo as i32 * 256, hi as i32 * 256);
    match mip_filter {
        TexunitParamFilter::Nearest | TexunitParamFilter::Reserved(_) => LevelPlan::One {
            level: (((lc + 128) >> 8) as u32).clamp(lo, hi),
            filter: min_filter,
        },
        TexunitParamFilter::Linear => {
            let level = (lc >> 8) as u32;
            let frac = (lc & 0xFF) as u32;
            if frac == 0 || level >= hi {
                LevelPlan::One {
                    level: level.min(hi),
                    filter: min_filter,
                }
            } else {
                LevelPlan::Two {
                    level,
                    next: level + 1,
                    frac,
                    filter: min_filter,
                }
            }
        }
    }
}

/// The plan [`plan_levels`] gives for every LOD and bias, when it does not depend on them:
/// `min_level >= max_level` (one level, `max_level`, is reachable) and the magnification and
/// minification filters are the same. Then `l <= 0` gives `One { lo, mag }` with
/// `lo = min(min_level, max_level) = max_level`, and `l > 0` clamps `l` to `lo · 256 = hi · 256`,
/// which the nearest mipmap filter rounds to level `hi` and the linear one splits into level
/// `hi` with fraction 0: `One { hi, min }` either way. `None`: the LOD may matter.
///
/// TEX samples such a unit without deriving the LOD from the fragment's texture-coordinate
/// differences (`sample::tests::sample_plan_without_lod_is_plan_levels` compares the two).
pub fn plan_without_lod(
    min_level: u32,
    max_level: u32,
    mag_filter: TexunitParamFilter,
    min_filter: TexunitParamFilter,
) -> Option<LevelPlan> {
    (min_level >= max_level && mag_filter == min_filter).then_some(LevelPlan::One {
        level: max_level,
        filter: mag_filter,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`plan_without_lod`], where it gives a plan, is [`plan_levels`]'s for every LOD and
    /// bias (LODs over the whole range the LOD unit produces, biases over the 13-bit field).
    #[test]
    fn sample_plan_without_lod_is_plan_levels() {
        use TexunitParamFilter::{Linear, Nearest, Reserved};
        let filters = [Nearest, Linear, Reserved(2)];
        let lods: Vec<i32> = (-40 * 256..=40 * 256)
            .step_by(37)
            .chain([
                LOD_NONE,
                i32::MIN,
                i32::MAX,
                -1,
                0,
                1,
                127,
                128,
                129,
                255,
                256,
                257,
            ])
            .collect();
        let biases = [-4096, -2049, -256, -128, -1, 0, 1, 127, 128, 255, 256, 4095];
        let mut shortcuts = 0;
        for min_level in 0..16 {
            for max_level in 0..16 {
                for mag in filters {
                    for min in filters {
                        let Some(plan) = plan_without_lod(min_level, max_level, mag, min) else {
                            continue;
                        };
                        shortcuts += 1;
                        for mip in filters {
                            for &lod in &lods {
                                for bias in biases {
                                    let want =
                                        plan_levels(lod, bias, min_level, max_level, mag, min, mip);
                                    assert_eq!(plan, want, "{min_level} {max_level} {mag:?} {min:?} {mip:?} {lod} {bias}");
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(shortcuts, 136 * 3);
    }

    #[test]
    fn sample_to_fixed_exact_floor() {
        // 0.5 · 8 · 256 = 1024.
        assert_eq!(to_fixed(F24::from_bits(0x3E0000), 8, 8), 1024);
        // -0.5 · 8 = -4 → -1024 exactly.
        assert_eq!(to_fixed(F24::from_bits(0xBE0000), 8, 8), -1024);
        // 2^-20 · 8 · 256 = 2^-9 → floor 0; negative → -1.
        assert_eq!(to_fixed(F24::from_parts(false, 63 - 20, 0), 8, 8), 0);
        assert_eq!(to_fixed(F24::from_parts(true, 63 - 20, 0), 8, 8), -1);
        assert_eq!(to_fixed(F24::NAN, 8, 8), 0);
        assert_eq!(to_fixed(F24::INFINITY, 8, 8), COORD_SAT);
        assert_eq!(to_fixed(F24::NEG_INFINITY, 8, 8), -COORD_SAT);
    }

    #[test]
    fn sample_lod_log2_of_powers_of_two() {
        // du/dx = 1/8 on a 64-wide texture: 8 texels per pixel → LOD 3.0.
        let eighth = F24::from_parts(false, 60, 0);
        let z = F24::ZERO;
        assert_eq!(lod_from_derivs([eighth, z, z, z], 64, 64), 3 * 256);
        assert_eq!(lod_from_derivs([z; 4], 64, 64), LOD_NONE);
    }

    #[test]
    fn sample_lod_bias_sign_extends_13_bits() {
        assert_eq!(lod_bias(0x0100), 256);
        assert_eq!(lod_bias(0x1F00), -256);
        assert_eq!(lod_bias(0x1000), -4096);
        assert_eq!(lod_bias(0xFFFF_E0FF), 0xFF); // bits above 12 ignored
    }

    #[test]
    fn sample_plan_linear_mip_stops_at_max_level() {
        use TexunitParamFilter::{Linear, Nearest};
        // LOD 1.5 with max level 1: one level (1), no blend.
        assert_eq!(
            plan_levels(384, 0, 0, 1, Nearest, Linear, Linear),
            LevelPlan::One {
                level: 1,
                filter: Linear
            }
        );
        assert_eq!(
            plan_levels(384, 0, 0, 3, Nearest, Linear, Linear),
            LevelPlan::Two {
                level: 1,
                next: 2,
                frac: 128,
                filter: Linear
            }
        );
        // Magnified (LOD 0 exactly).
        assert_eq!(
            plan_levels(0, 0, 0, 3, Linear, Nearest, Linear),
            LevelPlan::One {
                level: 0,
                filter: Linear
            }
        );
    }

    #[test]
    fn sample_wrap_reserved_modes() {
        use TexunitParamWrap::Reserved;
        assert_eq!(wrap(Reserved(6), -1, 8), Wrapped::Texel(7));
        assert_eq!(wrap(Reserved(7), 9, 8), Wrapped::Texel(1));
        assert_eq!(wrap(Reserved(5), 8, 8), Wrapped::Border);
        assert_eq!(wrap(Reserved(4), 100, 8), Wrapped::Texel(7));
        assert_eq!(wrap(TexunitParamWrap::Repeat, 5, 0), Wrapped::Texel(0));
    }

    #[test]
    fn sample_bilinear_rounds_half_up() {
        let c = [[0; 4], [255; 4], [0; 4], [255; 4]];
        assert_eq!(bilinear(c, 128, 0), [128; 4]); // 127.5 → 128
        assert_eq!(bilinear(c, 0, 200), [0; 4]);
    }
}
