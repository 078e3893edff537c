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
//!    density to the pixel, once as it is ("plain density") and once weighted by the depth
//!    distance to the opaque scene already in the depth buffer ("depth density", the soft
//!    intersection with the scene that GPUREG_GAS_DELTAZ_DEPTH's "depth direction attenuation
//!    proportion" controls).
//! 2. **Shading ([`crate::fog::gas`]).** The application binds the accumulated buffer as a
//!    texture; the combiners deliver it as their output colour, and FOG's gas mode turns the
//!    density into a colour.
//!
//! No public emulator implements gas (pica-facts §4): apart from the register layouts, every
//! rule here is the model's choice, marked UNVERIFIED(hw).
//!
//! # The rule
//!
//! With ρ = the combiner output's [`DENSITY_SOURCE`] channel (8 bits), `z` the fragment depth
//! and `zs` the stored depth (both as 24-bit values, [`super::depth_to_24`]), `k` the
//! GPUREG_GAS_DELTAZ_DEPTH proportion (fixed0.16.8, raw `k_raw = k · 256`):
//!
//! - the gas depth function (GPUREG_GAS_DELTAZ_DEPTH bits 24-25) compares `z` with `zs`
//!   ([`depth_passes`]); a failing fragment is discarded;
//! - `w = min(1, |z - zs| / 2^24 · k)`, exactly `min(2^32, |z - zs| · k_raw) / 2^32`;
//! - plain density: `R += ρ`; depth density: `G += floor(ρ · w)` (each a saturating 8-bit
//!   add); B and A keep their stored values; the channel write masks of
//!   GPUREG_DEPTH_COLOR_MASK apply as in default mode.
//!
//! The depth buffer is read (GPUREG_DEPTHBUFFER_READ) but never written, and no stencil
//! operation runs. UNVERIFIED(hw): model choices — gas particles are transparent, so they must
//! not occlude one another; a stored depth that reads as 0 (reads disabled) gives `zs = 0`.
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
/// UNVERIFIED(hw): red — model choice; no source names the channel. The same index is the
/// stored channel of the plain density ([`PLAIN_CHANNEL`]), so a particle texture that
/// replaces the combiner output lands in the buffer unchanged.
pub const DENSITY_SOURCE: usize = 0;

/// The colour-buffer channel that accumulates the plain density.
///
/// UNVERIFIED(hw): red — model choice (FOG's gas mode reads the same channel for "plain
/// density", GPUREG_TEXENV_UPDATE_BUFFER bit 3 = 0).
pub const PLAIN_CHANNEL: usize = 0;

/// The colour-buffer channel that accumulates the depth-weighted density.
///
/// UNVERIFIED(hw): green — model choice (FOG's gas mode reads it for "depth density",
/// GPUREG_TEXENV_UPDATE_BUFFER bit 3 = 1).
pub const DEPTH_CHANNEL: usize = 1;

/// The accumulation-pass registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GasAccConfig {
    /// GPUREG_GAS_DELTAZ_DEPTH bits 0-23: the depth direction attenuation proportion,
    /// fixed0.16.8 raw bits (citro3d `C3D_GasDeltaZ` writes `value · 0x100`).
    pub delta_z: u32,
    /// GPUREG_GAS_DELTAZ_DEPTH bits 24-25.
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

/// Whether a gas fragment at 24-bit depth `z` passes the gas depth function against the
/// stored depth `zs`.
///
/// The seed folds the GL functions into two encodings ("Greater than / Greater than or
/// equal", "Less than / Less than or equal / Equal / Not equal"). UNVERIFIED(hw): the model
/// compares strictly, `z > zs` and `z < zs` — model choice. An undescribed encoding cannot
/// occur (two bits, four values) and would fail.
pub const fn depth_passes(func: GasDeltazDepthFunction, z: u32, zs: u32) -> bool {
    match func {
        GasDeltazDepthFunction::Never => false,
        GasDeltazDepthFunction::Always => true,
        GasDeltazDepthFunction::Greater => z > zs,
        GasDeltazDepthFunction::Less => z < zs,
        GasDeltazDepthFunction::Reserved(_) => false,
    }
}

/// The depth weight `w` of the module docs as a fraction of 2^32: `min(2^32, dz · k_raw)`
/// for a 24-bit depth distance `dz` and the raw fixed0.16.8 proportion `k_raw`.
pub const fn depth_weight(dz: u32, k_raw: u32) -> u64 {
    let w = (dz & 0xFF_FFFF) as u64 * (k_raw & 0xFF_FFFF) as u64;
    if w > 1 << 32 {
        1 << 32
    } else {
        w
    }
}

/// The two density contributions `(plain, depth)` of a fragment of density `rho` at 24-bit
/// depth `z` over a stored 24-bit depth `zs`, with the raw proportion `k_raw`:
/// `(rho, floor(rho · w))`.
pub const fn contributions(rho: u8, z: u32, zs: u32, k_raw: u32) -> (u8, u8) {
    let dz = z.abs_diff(zs);
    let w = depth_weight(dz, k_raw);
    // rho · w < 2^8 · 2^32 + 1: fits u64; the shift leaves at most rho.
    (rho, ((rho as u64 * w) >> 32) as u8)
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
    if !depth_passes(cfg.gas.depth_func, z, zs) {
        tracing::trace!(target: "fop", x = frag.x, y = frag.y, z, zs, "gas depth function failed");
        beat.flags |= PixelBeat::DISCARDED;
        return Ok(());
    }
    let (plain, depth) = contributions(src[DENSITY_SOURCE], z, zs, cfg.gas.delta_z);
    let dst_bits = site.read_color(cfg, mem)?;
    beat.color = dst_bits;
    let dst = site.color_fmt.decode(dst_bits);
    let mut out = dst;
    out[PLAIN_CHANNEL] = dst[PLAIN_CHANNEL].saturating_add(plain);
    out[DEPTH_CHANNEL] = dst[DEPTH_CHANNEL].saturating_add(depth);
    let merged = [0, 1, 2, 3].map(|i| if cfg.color_mask[i] { out[i] } else { dst[i] });
    site.write_color(cfg, mem, site.color_fmt.encode(merged), beat)?;
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
        // dz = 0x40_0000 (1/4), k = 2.0 (raw 0x200): w = 1/2, 200 · 1/2 = 100.
        assert_eq!(contributions(200, 0x50_0000, 0x10_0000, 0x200), (200, 100));
        // Same distance the other way round.
        assert_eq!(contributions(200, 0x10_0000, 0x50_0000, 0x200), (200, 100));
        // w = 1/3 of 2^32 is not representable: floor(255 · w).
        let (_, d) = contributions(255, 0x55_5555, 0, 0x100);
        assert_eq!(d, ((255u64 * 0x55_5555 * 0x100) >> 32) as u8);
        assert_eq!(d, 84);
    }

    #[test]
    fn gas_depth_function_compares_strictly() {
        use GasDeltazDepthFunction as F;
        assert!(!depth_passes(F::Never, 1, 0));
        assert!(depth_passes(F::Always, 0, 0));
        assert!(depth_passes(F::Greater, 2, 1) && !depth_passes(F::Greater, 1, 1));
        assert!(depth_passes(F::Less, 1, 2) && !depth_passes(F::Less, 2, 2));
    }
}
