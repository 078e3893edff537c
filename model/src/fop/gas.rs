//! Gas mode of FOP (GPUREG_COLOR_OPERATION fragment_mode = 1): the density-accumulation pass
//! of gas rendering.
//!
//! Gas is drawn in two passes (seed 002 register descriptions; citro3d `source/gas.c` groups
//! the registers the same way: GPUREG_GAS_DELTAZ_DEPTH is written for the accumulation stage,
//! GPUREG_GAS_ACCMAX after it, GPUREG_GAS_ATTENUATION / _LIGHT_* / the LUT for the shading
//! stage):
//!
//! 1. **Accumulation (this module).** Gas particles are drawn with fragment mode "gas" into a
//!    colour buffer (GPUREG_COLORBUFFER_FORMAT 0 is "RGBA8/Gas"). Each fragment adds its
//!    density to the pixel, once as it is ("plain density") and once weighted by a factor of
//!    the depth distance to the opaque scene already in the depth buffer ("depth density", the
//!    soft intersection with the scene that GPUREG_GAS_DELTAZ_DEPTH's "depth direction
//!    attenuation proportion" scales and its depth function shapes).
//! 2. **Shading ([`crate::fog::gas`]).** The application binds the accumulated buffer as a
//!    texture; the combiners deliver it as their output colour, and FOG's gas mode turns the
//!    density into a colour.
//!
//! No public emulator implements gas (pica-facts §4): apart from the register layouts, every
//! rule here is the model's choice, marked UNVERIFIED(hw) [fact: fop-gas-rule].
//!
//! # The rule
//!
//! With ρ = the combiner output's [`DENSITY_SOURCE`] channel (8 bits), `z` the fragment depth
//! and `zs` the stored depth (both as 24-bit values, [`super::depth_to_24`]), `k` the
//! GPUREG_GAS_DELTAZ_DEPTH proportion (fixed0.16.8, raw `k_raw = k · 256`):
//!
//! - `X = min(1, |z - zs| / 2^24 · k)`, held exactly as `X32 = min(2^32, |z - zs| · k_raw)`
//!   (`X = X32 / 2^32`; [`depth_weight`]);
//! - the gas depth function (GPUREG_GAS_DELTAZ_DEPTH bits 24-25) picks the weight `f` of the
//!   depth density, held as `F32 = f · 2^32` ([`depth_function_weight`]):
//!
//!   | function | `f` | `F32` |
//!   |---|---|---|
//!   | 0 never | 0 | 0 |
//!   | 1 always | 1 | 2^32 |
//!   | 2 greater | 1 − X | 2^32 − X32 |
//!   | 3 less | X | X32 |
//!
//! - plain density: `R += ρ`; depth density: `G += floor(ρ · f)`, exactly
//!   `(ρ · F32) >> 32` (each a saturating 8-bit add); B and A keep their stored values; the
//!   channel write masks of GPUREG_DEPTH_COLOR_MASK apply as in default mode.
//!
//! No fragment is discarded by the gas depth function: every fragment that passes the alpha
//! test accumulates its plain density.
//!
//! UNVERIFIED(hw) [fact: fop-gas-rule]: the depth function as a weight, not a test — libctru
//! (`include/3ds/gpu/enums.h`, `GPU_GASDEPTHFUNC`) annotates the four values "Never pass (0)",
//! "Always pass (1)", "Pass if greater than (1-X)", "Pass if less than (X)", read here as the
//! factor each applies to the depth density. citro3d (`source/effect.c` `C3Di_EffectBind`,
//! with libctru's `GPU_MAKEGASDEPTHFUNC(n) = (0xAF02 >> (n << 1)) & 3`) rewrites these bits
//! from the normal depth-test function on every effect bind (GL ALWAYS → gas never; LESS,
//! LEQUAL → less; GREATER, GEQUAL, NEVER → greater; EQUAL, NOTEQUAL → never), so under a
//! discard reading an application drawing with the depth test set to ALWAYS would lose every
//! gas fragment. The exact fixed point and the floor are the model's.
//!
//! The depth buffer is read (GPUREG_DEPTHBUFFER_READ) but never written, and neither the depth
//! test of GPUREG_DEPTH_COLOR_MASK nor any stencil operation runs, so a particle behind the
//! scene accumulates too (its depth density weighted by `f`). UNVERIFIED(hw) [fact: fop-gas-rule]: model choices —
//! gas particles are transparent, so they must not occlude one another; a stored depth that
//! reads as 0 (reads disabled) gives `zs = 0`.
//!
//! Left out: the hardware also records the largest accumulated density in
//! GPUREG_GAS_ACCMAX_FEEDBACK (0x125, bits 16-31, f16; read back by drivers to program
//! GPUREG_GAS_ACCMAX = 1 / feedback — libn3ds-based `kygx` `updateGasAccMax`). FOP sees the
//! register file read-only, so the model does not produce that feedback.

use super::{FopConfig, FopHang, PixelSite};
use crate::beat::PixelBeat;
use crate::mem::Memory;
use crate::pipe::Fragment;
use crate::regfile::RegFile;
use crate::regs::{self, id, GasDeltazDepthFunction};

/// Which channel of the combiner output (`[r, g, b, a]`) is the fragment's density.
///
/// UNVERIFIED(hw) [fact: fop-gas-channels]: red — model choice; no source names the channel. The same index is the
/// stored channel of the plain density ([`PLAIN_CHANNEL`]), so a particle texture that
/// replaces the combiner output lands in the buffer unchanged.
pub const DENSITY_SOURCE: usize = 0;

/// The colour-buffer channel that accumulates the plain density.
///
/// UNVERIFIED(hw) [fact: fop-gas-channels]: red — model choice (FOG's gas mode reads the same channel for "plain
/// density", GPUREG_TEXENV_UPDATE_BUFFER bit 3 = 0).
pub const PLAIN_CHANNEL: usize = 0;

/// The colour-buffer channel that accumulates the depth-weighted density.
///
/// UNVERIFIED(hw) [fact: fop-gas-channels]: green — model choice (FOG's gas mode reads it for "depth density",
/// GPUREG_TEXENV_UPDATE_BUFFER bit 3 = 1).
pub const DEPTH_CHANNEL: usize = 1;

/// The accumulation-pass registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GasAccConfig {
    /// GPUREG_GAS_DELTAZ_DEPTH bits 0-23: the depth direction attenuation proportion,
    /// fixed0.16.8 raw bits (citro3d `C3D_GasDeltaZ` writes `value · 0x100`).
    pub delta_z: u32,
    /// GPUREG_GAS_DELTAZ_DEPTH bits 24-25: the gas depth function, which picks the weight of
    /// the depth density ([`depth_function_weight`]); it discards nothing.
    pub depth_func: GasDeltazDepthFunction,
}

impl GasAccConfig {
    /// Decodes GPUREG_GAS_DELTAZ_DEPTH.
    pub fn from_regs(regs: &RegFile) -> Self {
        let r = regs::GasDeltazDepth(regs.reg(id::GAS_DELTAZ_DEPTH.into()));
        Self {
            delta_z: r.depth_attenuation(),
            depth_func: r.depth_function(),
        }
    }
}

/// 1.0 in the 2^32 fixed point of [`depth_weight`] and [`depth_function_weight`].
pub const WEIGHT_ONE: u64 = 1 << 32;

/// The depth weight `X` of the module docs as a fraction of 2^32:
/// `X32 = min(2^32, dz · k_raw)` for a 24-bit depth distance `dz` and the raw fixed0.16.8
/// proportion `k_raw`.
pub const fn depth_weight(dz: u32, k_raw: u32) -> u64 {
    let w = (dz & 0xFF_FFFF) as u64 * (k_raw & 0xFF_FFFF) as u64;
    if w > WEIGHT_ONE {
        WEIGHT_ONE
    } else {
        w
    }
}

/// The weight `f` of the depth density that the gas depth function `func` picks, as a
/// fraction of 2^32 (`F32` of the module docs), from the depth weight `x32` (`X32`, at most
/// 2^32; larger values count as 2^32): never 0, always 2^32, greater `2^32 - X32`, less `X32`.
///
/// UNVERIFIED(hw) [fact: fop-gas-rule]: libctru `GPU_GASDEPTHFUNC` annotations "(0)", "(1)", "(1-X)", "(X)"
/// (see the module docs). An undescribed encoding cannot occur (two bits, four values) and
/// would weigh 0.
pub const fn depth_function_weight(func: GasDeltazDepthFunction, x32: u64) -> u64 {
    let x = if x32 > WEIGHT_ONE { WEIGHT_ONE } else { x32 };
    match func {
        GasDeltazDepthFunction::Never => 0,
        GasDeltazDepthFunction::Always => WEIGHT_ONE,
        GasDeltazDepthFunction::Greater => WEIGHT_ONE - x,
        GasDeltazDepthFunction::Less => x,
        GasDeltazDepthFunction::Reserved(_) => 0,
    }
}

/// The two density contributions `(plain, depth)` of a fragment of density `rho` at 24-bit
/// depth `z` over a stored 24-bit depth `zs`, with the depth function `func` and the raw
/// proportion `k_raw`: `(rho, (rho · F32) >> 32)` (module docs).
pub const fn contributions(
    func: GasDeltazDepthFunction,
    rho: u8,
    z: u32,
    zs: u32,
    k_raw: u32,
) -> (u8, u8) {
    let x = depth_weight(z.abs_diff(zs), k_raw);
    let f = depth_function_weight(func, x);
    // rho · f ≤ 255 · 2^32: fits u64; the shift leaves at most rho.
    (rho, ((rho as u64 * f) >> 32) as u8)
}

/// Gas mode for one fragment that passed the alpha test (see the module docs). Fills `beat`.
pub fn process(
    cfg: &FopConfig,
    site: &PixelSite,
    frag: &Fragment,
    src: [u8; 4],
    mem: &mut Memory,
    beat: &mut PixelBeat,
) -> Result<(), FopHang> {
    let (ds_bits, stored) = site.read_depth(cfg, mem)?;
    beat.depth_stencil = ds_bits;
    let z = super::depth_to_24(site.depth_fmt, frag.depth);
    let zs = super::depth_to_24(site.depth_fmt, stored);
    let (plain, depth) = contributions(
        cfg.gas.depth_func,
        src[DENSITY_SOURCE],
        z,
        zs,
        cfg.gas.delta_z,
    );
    let dst_bits = site.read_color(cfg, mem)?;
    beat.color = dst_bits;
    let dst = site
        .color_fmt
        .decode(site.color_fmt.reorder(dst_bits, cfg.rgb8_order));
    let mut out = dst;
    out[PLAIN_CHANNEL] = dst[PLAIN_CHANNEL].saturating_add(plain);
    out[DEPTH_CHANNEL] = dst[DEPTH_CHANNEL].saturating_add(depth);
    let merged = [0, 1, 2, 3].map(|i| if cfg.color_mask[i] { out[i] } else { dst[i] });
    let bits = site
        .color_fmt
        .reorder(site.color_fmt.encode(merged), cfg.rgb8_order);
    site.write_color(cfg, mem, bits, beat)?;
    tracing::trace!(target: "fop", x = frag.x, y = frag.y, plain, depth, color = beat.color,
        "gas density accumulated");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gas_depth_weight_saturates_at_one() {
        // dz = 0x1000 (2^12 / 2^24), k = 1.0 (raw 0x100): w = 2^20 / 2^32.
        assert_eq!(depth_weight(0x1000, 0x100), 1 << 20);
        // dz = 2^24 - 1 with k = 2.0 exceeds 1: capped.
        assert_eq!(depth_weight(0xFF_FFFF, 0x200), 1 << 32);
        assert_eq!(depth_weight(0, 0xFF_FFFF), 0);
    }

    #[test]
    fn gas_contributions_scale_density_by_depth_distance() {
        use GasDeltazDepthFunction as F;
        // dz = 0x40_0000 (1/4), k = 2.0 (raw 0x200): X = 1/2, 200 · 1/2 = 100.
        assert_eq!(
            contributions(F::Less, 200, 0x50_0000, 0x10_0000, 0x200),
            (200, 100)
        );
        // Same distance the other way round.
        assert_eq!(
            contributions(F::Less, 200, 0x10_0000, 0x50_0000, 0x200),
            (200, 100)
        );
        // X = 0x5555_5500 / 2^32 (dz = 0x55_5555, k = 1.0) is not a dyadic third:
        // 255 · 0x5555_5500 / 2^32 = 84.99998 → 84.
        let (_, d) = contributions(F::Less, 255, 0x55_5555, 0, 0x100);
        assert_eq!(d, ((255u64 * 0x55_5555 * 0x100) >> 32) as u8);
        assert_eq!(d, 84);
    }

    #[test]
    fn gas_depth_function_picks_the_weight() {
        use GasDeltazDepthFunction as F;
        // X32 = 2^30 (X = 1/4).
        let x = 1 << 30;
        assert_eq!(depth_function_weight(F::Never, x), 0);
        assert_eq!(depth_function_weight(F::Always, x), 1 << 32);
        assert_eq!(depth_function_weight(F::Greater, x), 3 << 30);
        assert_eq!(depth_function_weight(F::Less, x), 1 << 30);
        // X32 above 2^32 counts as 1.
        assert_eq!(depth_function_weight(F::Greater, (1 << 32) + 5), 0);
        assert_eq!(depth_function_weight(F::Less, (1 << 32) + 5), 1 << 32);
        assert_eq!(depth_function_weight(F::Reserved(7), x), 0);
    }

    #[test]
    fn gas_greater_and_less_floor_separately() {
        use GasDeltazDepthFunction as F;
        // X32 = 0x5555_5500: less 255 · X = 84.99998 → 84; greater 255 · (2^32 − X32) / 2^32
        // = 255 · 0xAAAA_AB00 / 2^32 = 170.00002 → 170: the two floors sum to 254, not 255.
        assert_eq!(contributions(F::Less, 255, 0x55_5555, 0, 0x100), (255, 84));
        assert_eq!(
            contributions(F::Greater, 255, 0x55_5555, 0, 0x100),
            (255, 170)
        );
        // Equal depths: X = 0, so greater weighs 1 and less 0.
        assert_eq!(contributions(F::Greater, 99, 7, 7, 0x100), (99, 99));
        assert_eq!(contributions(F::Less, 99, 7, 7, 0x100), (99, 0));
        // Never and always ignore the distance.
        assert_eq!(contributions(F::Never, 99, 0, 0xFF_FFFF, 0x100), (99, 0));
        assert_eq!(contributions(F::Always, 99, 7, 7, 0), (99, 99));
    }
}
