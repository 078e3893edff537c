//! TEX: texture units 0-2 and the procedural texture unit 3.
//!
//! [`texture_units`] is the stage kernel: for one fragment it computes the colour of each of the
//! four texture units from the live register file and memory, recording every texel read as a
//! [`TexelFetch`].
//!
//! # Units and coordinates (seed 002 GPUREG_TEXUNIT_CONFIG; Azahar
//! `video_core/renderer_software/sw_rasterizer.cpp` `TextureColor`)
//!
//! - Unit 0 samples texcoord0, unit 1 texcoord1, unit 2 texcoord2 — or texcoord1 when
//!   `texture2_coords` = 1. Unit 3 (procedural, [`proctex::proctex`]) uses the set
//!   `texture3_coords` names. UNVERIFIED(hw) [fact: tex3-reserved-coords]: a reserved `texture3_coords` (3) uses texcoord0
//!   ([`TEX3_RESERVED_COORDS`]).
//! - A disabled unit gives `[0, 0, 0, 0]` (Azahar leaves its colour zero-initialised; UNVERIFIED(hw) [fact: tex-disabled-unit]).
//! - Only unit 0 honours PARAM's `texture_type` and `shadow` (seed 002, 3dbrew); units 1 and 2
//!   are always 2D. Type 5 "Disabled" gives `[0, 0, 0, 0]`; reserved types 6 and 7 act as 2D
//!   (UNVERIFIED(hw) [fact: tex-reserved-type], [`RESERVED_TYPE_IS_2D`]).
//! - PARAM's `shadow` bit (20) is ignored: the texture type (2 or 4) selects the shadow
//!   comparison, as in Azahar. UNVERIFIED(hw) [fact: tex-param-bits-ignored].
//! - PARAM's `etc1` field is ignored: the TYPE register's format decides (seed: the field is 0
//!   for ETC1A4 anyway). UNVERIFIED(hw) [fact: tex-param-bits-ignored].
//! - GPUREG_TEXUNIT_CONFIG bit 16 (clear texture cache) has no effect: no texture cache is
//!   modelled (every texel is read from memory when it is needed).
//!
//! # The v axis
//!
//! Texel row `t = floor(v · height)` counts from `v = 0` (the bottom of the image, OpenGL's
//! convention). Textures are stored with the top row first, like colour buffers
//! ([`crate::fop::fb`]): memory row `y' = height − 1 − t`. This is Azahar's rule
//! (`t = height - 1 - GetWrappedTexCoord(...)`, "textures are laid out from bottom to top, hence
//! we invert the t coordinate") and makes a colour buffer rendered by FOP read back the right way
//! up as a texture (window y = 0 ↔ v = 0). Wrapping acts on `t` before the inversion.
//!
//! So `v → 0` reads the **last** row in memory and the first bytes in memory hold the row at
//! `v → 1`. pica-facts §4's "stored bottom row first" is Azahar's wording, in which `t` counts
//! from the top of the image; the arithmetic above is what the model (and Azahar) does.
//! UNVERIFIED(hw) [fact: tex-row-order] beyond Azahar's game compatibility.
//!
//! # Memory
//!
//! The base address is ADDR's field × 8. Mipmap level `L` follows level `L − 1` directly; its
//! size is `max(dim >> L, min(dim, 8))` per axis ([`level_dim`]) and its bytes
//! `w·h·bits_per_texel/8`. See [`format`](mod@format) for tiling and decoding, [`etc1`] for ETC1,
//! [`sample`] for positions, wrap, filtering and LOD.
//!
//! An enabled unit whose address field is 0 reads memory at address 0 like any other (which,
//! being unmapped, hangs as below). Azahar's software renderer instead returns
//! `[0, 0, 0, 255]` for address 0 without reading — an emulator guard for unset textures, not
//! a documented hardware rule; the model does not copy it.
//!
//! A texel read that touches unmapped memory (or an address beyond 32 bits) hangs the unit:
//! [`TexHang::Unmapped`] with the first byte that cannot be read (0xFFFF_FFFF beyond 32 bits). UNVERIFIED(hw) [fact: tex-unmapped-hang]: real hardware would read garbage or hang; the model
//! stops so the fault is visible.
//!
//! # Special texture types (unit 0)
//!
//! - Projection (3): `u·rcp(w)`, `v·rcp(w)` with `w` = texcoord0.w (shader ALU `rcp` and `mul`,
//!   [`crate::shader::alu`]); UNVERIFIED(hw) [fact: tex-projection] that the unit divides with the ALU's reciprocal
//!   rule (Azahar divides in f24).
//! - Cube (1) and shadow cube (4): [`cube_coords`].
//! - Shadow 2D (2) and shadow cube: [`shadow_texel`].
//!
//! The LOD of every type comes from the texcoord pair's screen-space derivatives
//! (`Fragment::tex_deriv`), untransformed (UNVERIFIED(hw) [fact: tex-projection] for projection and cube types).

pub mod etc1;
pub mod format;
pub mod proctex;
pub mod sample;

use crate::knobs::{
    Tex3ReservedCoords, TexAlphaOnlyColour, TexFilterRounding, TexMinLevelSize, TexReservedFormat,
    TexReservedType, TexUnmapped,
};
use crate::mem::Memory;
use crate::num::F24;
use crate::pipe::{semantic, Fragment};
use crate::regfile::RegFile;
use crate::regs::{
    id, TexunitConfig, TexunitConfigTexture2Coords, TexunitConfigTexture3Coords, TexunitDim,
    TexunitLod, TexunitParam, TexunitParamFilter, TexunitParamType, TexunitShadow, TexunitType,
    TexunitTypeFormat,
};
use crate::shader::{alu, alu_fast};
use format::Format;
use sample::{LevelPlan, Wrapped};

pub use crate::outcome::TexHang;

/// One texel read from memory, as a beat records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexelFetch {
    /// Texture unit 0-2.
    pub unit: u8,
    /// Physical byte address of what was read: the texel, or for ETC1 / ETC1A4 the 8- or
    /// 16-byte block holding it.
    pub addr: u32,
    /// The bytes read at `addr`, little-endian (texel size: 4 bits to 4 bytes; ETC1 8 bytes,
    /// ETC1A4 16 bytes).
    pub raw: u128,
    /// The decoded texel `[r, g, b, a]`.
    pub rgba: [u8; 4],
}

/// UNVERIFIED(hw) [fact: tex3-reserved-coords]: a reserved `texture3_coords` value (3) makes unit 3 use texcoord0 — the
/// model's choice (seed 002 describes only 0-2).
pub const TEX3_RESERVED_COORDS: usize = 0;

/// UNVERIFIED(hw) [fact: tex-reserved-type]: reserved texture types 6 and 7 on unit 0 sample as a 2D texture — the
/// model's choice (Azahar logs "unhandled texture type" and then samples it as 2D).
pub const RESERVED_TYPE_IS_2D: bool = true;

/// f24 0.5.
const HALF: F24 = F24::from_bits(0x3E_0000);

/// The register words of one texture unit.
#[derive(Clone, Copy, Debug)]
struct UnitRegs {
    border: [u8; 4],
    width: u32,
    height: u32,
    param: TexunitParam,
    lod: TexunitLod,
    /// Byte address of the (first) image.
    addr: u64,
    format: Format,
    /// Knob `tex-reserved-format=zero` with a reserved format: every texel is zero.
    reserved_zero: bool,
    /// Knob `tex-min-level-size`: the smallest level size on an axis.
    min_level: u32,
    /// Knob `tex-alpha-only-colour`: the colour of A8 and A4 texels.
    alpha_rgb: [u8; 3],
}

fn unit_regs(regs: &RegFile, unit: usize, addr_override: Option<u64>) -> UnitRegs {
    let (border, dim, param, lod, addr, ty) = match unit {
        0 => (
            id::TEXUNIT0_BORDER_COLOR,
            id::TEXUNIT0_DIM,
            id::TEXUNIT0_PARAM,
            id::TEXUNIT0_LOD,
            id::TEXUNIT0_ADDR1,
            id::TEXUNIT0_TYPE,
        ),
        1 => (
            id::TEXUNIT1_BORDER_COLOR,
            id::TEXUNIT1_DIM,
            id::TEXUNIT1_PARAM,
            id::TEXUNIT1_LOD,
            id::TEXUNIT1_ADDR,
            id::TEXUNIT1_TYPE,
        ),
        _ => (
            id::TEXUNIT2_BORDER_COLOR,
            id::TEXUNIT2_DIM,
            id::TEXUNIT2_PARAM,
            id::TEXUNIT2_LOD,
            id::TEXUNIT2_ADDR,
            id::TEXUNIT2_TYPE,
        ),
    };
    let r = |i: u16| regs.reg(i.into());
    let dim = TexunitDim(r(dim));
    let knobs = regs.knobs();
    let reg_format = TexunitType(r(ty)).format();
    UnitRegs {
        // BORDER_COLOR: red in bits 0-7 … alpha in bits 24-31.
        border: r(border).to_le_bytes(),
        width: dim.width(),
        height: dim.height(),
        param: TexunitParam(r(param)),
        lod: TexunitLod(r(lod)),
        addr: addr_override.unwrap_or(u64::from(r(addr) & 0x0FFF_FFFF) << 3),
        format: Format::from_reg(reg_format),
        reserved_zero: matches!(reg_format, TexunitTypeFormat::Reserved(_))
            && knobs.tex_reserved_format == TexReservedFormat::Zero,
        min_level: match knobs.tex_min_level_size {
            TexMinLevelSize::Tile => MIN_LEVEL_SIZE,
            TexMinLevelSize::One => 1,
        },
        alpha_rgb: match knobs.tex_alpha_only_colour {
            TexAlphaOnlyColour::Black => format::ALPHA_FORMAT_RGB,
            TexAlphaOnlyColour::White => [255; 3],
        },
    }
}

/// Byte address of cube face `face` (0 = +X … 5 = −Z) of unit 0: ADDR1 for face 0; for faces
/// 1-5 ADDR2-ADDR6's low 22 bits with bits 22-27 of ADDR1's field (register docs, seed), × 8.
pub fn cube_face_addr(regs: &RegFile, face: usize) -> u64 {
    let a1 = regs.reg(id::TEXUNIT0_ADDR1.into()) & 0x0FFF_FFFF;
    let field = match face {
        0 => a1,
        f => {
            let reg = id::TEXUNIT0_ADDR1 + f.min(5) as u16;
            (a1 & 0x0FC0_0000) | (regs.reg(reg.into()) & 0x003F_FFFF)
        }
    };
    u64::from(field) << 3
}

/// Size of mipmap level `level` on an axis of `dim` texels: `max(dim >> level, min(dim, 8))`,
/// at least 1.
///
/// UNVERIFIED(hw) [fact: tex-min-level-size]: levels stop shrinking at 8 texels (one tile) — the model's choice; citro3d
/// never allocates a level below 8×8 and the hardware's behaviour there is unknown (knob
/// `tex-min-level-size=1`: [`level_dim_min`] with 1).
pub fn level_dim(dim: u32, level: u32) -> u32 {
    level_dim_min(dim, level, MIN_LEVEL_SIZE)
}

/// The smallest size of a mipmap level on an axis, in texels (one tile): the default of knob
/// `tex-min-level-size` (see [`level_dim`]).
pub const MIN_LEVEL_SIZE: u32 = 8;

/// Size of mipmap level `level` on an axis of `dim` texels when levels stop shrinking at
/// `min` texels: `max(dim >> level, min(dim, min))`, at least 1.
pub fn level_dim_min(dim: u32, level: u32, min: u32) -> u32 {
    (dim >> level.min(31)).max(dim.min(min)).max(1)
}

/// Byte offset of mipmap level `level` from the base: the sum of the sizes of levels below.
pub fn level_offset(format: Format, width: u32, height: u32, level: u32) -> u64 {
    level_offset_min(format, width, height, level, MIN_LEVEL_SIZE)
}

/// [`level_offset`] with levels that stop shrinking at `min` texels ([`level_dim_min`]).
pub fn level_offset_min(format: Format, width: u32, height: u32, level: u32, min: u32) -> u64 {
    (0..level)
        .map(|l| {
            format::level_bytes(
                format,
                level_dim_min(width, l, min),
                level_dim_min(height, l, min),
            )
        })
        .sum()
}

/// The cube face and face coordinates of direction `(u, v, w)` (Azahar
/// `video_core/renderer_software/sw_clipper.cpp` `ConvertCubeCoord`).
///
/// Major axis: `|u| > |v|` and `|u| > |w|` → ±X (sign of `u`); else `|v| > |w|` → ±Y; else ±Z
/// (ties go to the later axis). With `(x, y, z)`:
///
/// Magnitudes compare as the f24 bits without the sign, so a NaN component (largest bits)
/// selects its own axis; Azahar's float comparisons are false for NaN and fall through to
/// the next axis (UNVERIFIED(hw) [fact: tex-cube-nan]: NaN handling is the model's).
///
/// +X: (−w, −v, u); −X: (−w, v, u); +Y: (u, w, v); −Y: (−u, w, v); +Z: (u, −v, w); −Z: (u, v, w);
/// face coordinates `s = (x·rcp(z))·0.5 + 0.5`, `t = (y·rcp(z))·0.5 + 0.5` (ALU `rcp`, `mul`,
/// `add`), and the reference depth `|z|`. A "positive" axis needs the value > 0 (zero and NaN
/// select the negative face). Magnitudes compare on the f24 bits without the sign.
///
/// Returns `(face, s, t, |z|)`, face 0-5 = +X, −X, +Y, −Y, +Z, −Z.
pub fn cube_coords(u: F24, v: F24, w: F24) -> (usize, F24, F24, F24) {
    let (au, av, aw) = (u.abs().bits(), v.abs().bits(), w.abs().bits());
    let pos = |x: F24| !x.is_sign_negative() && !x.is_zero() && !x.is_nan();
    let (face, x, y, z) = if au > av && au > aw {
        if pos(u) {
            (0, w.negate(), v.negate(), u)
        } else {
            (1, w.negate(), v, u)
        }
    } else if av > aw {
        if pos(v) {
            (2, u, w, v)
        } else {
            (3, u.negate(), w, v)
        }
    } else if pos(w) {
        (4, u, v.negate(), w)
    } else {
        (5, u, v, w)
    };
    let r = alu_fast::rcp(z);
    let s = alu::add(alu::mul(alu::mul(x, r), HALF), HALF);
    let t = alu::add(alu::mul(alu::mul(y, r), HALF), HALF);
    (face, s, t, z.abs())
}

/// Shadow comparison (Azahar `sw_rasterizer.cpp` `TextureColor`).
///
/// The shadow texel is read in the unit's format (RGBA8 in practice, as FOP's shadow mode
/// writes it) and holds depth `z_ref = a << 16 | b << 8 | g` and intensity `r` (bytes in
/// memory: depth bits 16-23, 8-15, 0-7, then intensity). The fragment's reference
/// `z_int = floor(min(|z|, 1) · 0xFFFFFF) − (SHADOW & 0xFFFFFE)` (the z-bias field is the
/// upper 23 bits of a 24-bit value). The result is `[i; 4]` with `i = intensity` when
/// `z_ref ≥ z_int`, else 0.
///
/// UNVERIFIED(hw) [fact: tex-shadow-compare]: the rule is Azahar's software renderer's (`sw_rasterizer.cpp`
/// `TextureColor`, citra PR #3516, written from fincs' hardware notes). NaN `z` gives
/// `z_int = −bias` (lit). With a linear filter each of the four texels is compared first and
/// the results are blended (percentage-closer filtering) — the model's choice; that software
/// renderer samples only the nearest texel. Azahar's GLSL generator (`shadowTexture`,
/// `shadowTextureCube`, `CompareShadow`) differs in four ways: it always blends four compared
/// texels whatever the filter (its author calls PCF "PICA behaviour", citra PR #3729), it is
/// lit only when the stored depth is strictly greater than `z_int`, it clamps `z_int` at 0,
/// and outside a 2D shadow map it returns lit instead of applying the wrap mode and border
/// colour (cube maps clamp to the edge). The model keeps the software renderer's compare
/// and the unit's own filter and wrap settings.
pub fn shadow_texel(texel: [u8; 4], z_int: i64) -> [u8; 4] {
    let [r, g, b, a] = texel;
    let z_ref = i64::from(a) << 16 | i64::from(b) << 8 | i64::from(g);
    let d = if z_ref >= z_int { r } else { 0 };
    [d; 4]
}

/// The fragment's shadow reference `z_int` for depth `z` (see [`shadow_texel`]).
pub fn shadow_ref(z: F24, shadow_reg: u32) -> i64 {
    let z_int = sample::to_fixed(z.abs(), 0xFF_FFFF, 0).min(0xFF_FFFF);
    z_int - i64::from(TexunitShadow(shadow_reg).z_bias() << 1)
}

/// One unit's sampling context.
struct Sampler<'a> {
    unit: u8,
    r: UnitRegs,
    mem: &'a Memory,
    fetches: &'a mut Vec<TexelFetch>,
    /// Shadow reference for shadow types.
    shadow: Option<i64>,
    /// Knob `tex-unmapped`: what an unmapped byte does.
    unmapped: TexUnmapped,
    /// Knob `tex-filter-rounding`: how the filters round.
    rounding: TexFilterRounding,
}

impl Sampler<'_> {
    /// Reads and decodes texel `(i, j)` (`j` counted from v = 0) of `level`, wrapped.
    fn texel(&mut self, level: u32, i: i64, j: i64) -> Result<[u8; 4], TexHang> {
        let min = self.r.min_level;
        let (w, h) = (
            level_dim_min(self.r.width, level, min),
            level_dim_min(self.r.height, level, min),
        );
        let ws = self.r.param.wrap_s();
        let wt = self.r.param.wrap_t();
        let rgba = match (sample::wrap(ws, i, w), sample::wrap(wt, j, h)) {
            (Wrapped::Texel(x), Wrapped::Texel(t)) => {
                let yr = h - 1 - t;
                let f = self.r.format;
                let loc = format::texel_loc(f, w, x, yr);
                let base =
                    self.r.addr + level_offset_min(f, self.r.width, self.r.height, level, min);
                let addr = base + loc.offset;
                let raw = self.read(addr, loc.len)?;
                let rgba = format::decode_with(f, raw, &loc, self.r.alpha_rgb);
                self.fetches.push(TexelFetch {
                    unit: self.unit,
                    addr: addr as u32,
                    raw,
                    rgba,
                });
                rgba
            }
            _ => self.r.border,
        };
        Ok(match self.shadow {
            Some(z) => shadow_texel(rgba, z),
            None => rgba,
        })
    }

    fn read(&self, addr: u64, len: u32) -> Result<u128, TexHang> {
        // The hang names the first byte that cannot be read; one beyond 32 bits is reported
        // as 0xFFFF_FFFF (itself unmapped).
        let hang = |a: u32| TexHang::Unmapped {
            unit: self.unit,
            addr: a,
        };
        let len = len.min(16);
        // Fast path: every byte in one read; otherwise the loop below names the first byte
        // that cannot be read.
        let mut bytes = [0u8; 16];
        if let (Ok(a32), Some(buf)) = (u32::try_from(addr), bytes.get_mut(..len as usize)) {
            if self.mem.read_into(a32, buf).is_ok() {
                return Ok(u128::from_le_bytes(bytes));
            }
        }
        let mut raw = 0u128;
        for k in 0..u64::from(len) {
            let a32 = u32::try_from(addr + k).map_err(|_| hang(u32::MAX))?;
            let b = match (self.mem.read_u8(a32), self.unmapped) {
                (Ok(b), _) => b,
                // Knob `tex-unmapped=zero`: the byte reads as 0.
                (Err(_), TexUnmapped::Zero) => 0,
                (Err(_), TexUnmapped::Hang) => return Err(hang(a32)),
            };
            raw |= u128::from(b) << (8 * k);
        }
        Ok(raw)
    }

    /// Samples one level with `filter` at `(u, v)`.
    fn level(
        &mut self,
        level: u32,
        u: F24,
        v: F24,
        filter: TexunitParamFilter,
    ) -> Result<[u8; 4], TexHang> {
        let min = self.r.min_level;
        let s = sample::to_fixed(
            u,
            level_dim_min(self.r.width, level, min),
            sample::SUBTEXEL_BITS,
        );
        let t = sample::to_fixed(
            v,
            level_dim_min(self.r.height, level, min),
            sample::SUBTEXEL_BITS,
        );
        match filter {
            TexunitParamFilter::Linear => {
                let (s, t) = (s - 128, t - 128);
                let (i, j) = (s >> 8, t >> 8);
                let c = [
                    self.texel(level, i, j)?,
                    self.texel(level, i + 1, j)?,
                    self.texel(level, i, j + 1)?,
                    self.texel(level, i + 1, j + 1)?,
                ];
                Ok(sample::bilinear_with(
                    c,
                    (s & 255) as u32,
                    (t & 255) as u32,
                    self.rounding,
                ))
            }
            // UNVERIFIED(hw) [fact: tex-impossible-values]: a reserved filter value (impossible: 1-bit field) acts as nearest.
            _ => self.texel(level, s >> 8, t >> 8),
        }
    }

    /// Samples with level-of-detail selection.
    fn sample(&mut self, u: F24, v: F24, deriv: [F24; 4]) -> Result<[u8; 4], TexHang> {
        let p = self.r.param;
        let (min_level, max_level) = (self.r.lod.min_level(), self.r.lod.max_level());
        // A unit with one reachable level and one filter samples alike at every LOD: the
        // LOD (four exact products and a log2 per fragment) is derived only when it matters.
        let plan =
            match sample::plan_without_lod(min_level, max_level, p.mag_filter(), p.min_filter()) {
                Some(plan) => plan,
                None => {
                    let lod = sample::lod_from_derivs(deriv, self.r.width, self.r.height);
                    tracing::trace!(target: "tex", unit = self.unit, lod, "level of detail");
                    sample::plan_levels(
                        lod,
                        sample::lod_bias(self.r.lod.bias()),
                        min_level,
                        max_level,
                        p.mag_filter(),
                        p.min_filter(),
                        p.mipmap_filter(),
                    )
                }
            };
        tracing::trace!(target: "tex", unit = self.unit, ?plan, "level plan");
        match plan {
            LevelPlan::One { level, filter } => self.level(level, u, v, filter),
            LevelPlan::Two {
                level,
                next,
                frac,
                filter,
            } => {
                let a = self.level(level, u, v, filter)?;
                let b = self.level(next, u, v, filter)?;
                Ok(sample::lerp_levels_with(a, b, frac, self.rounding))
            }
        }
    }
}

/// The texture coordinate pair `set` (0-2) of `frag`.
fn coords(frag: &Fragment, set: usize) -> (F24, F24) {
    let base = match set {
        0 => semantic::TEXCOORD0,
        1 => semantic::TEXCOORD1,
        _ => semantic::TEXCOORD2,
    };
    (frag.attr[base], frag.attr[base + 1])
}

/// The colour of texture unit `unit` (0-2), which is enabled.
fn sample_unit(
    frag: &Fragment,
    regs: &RegFile,
    mem: &Memory,
    fetches: &mut Vec<TexelFetch>,
    unit: usize,
    set: usize,
) -> Result<[u8; 4], TexHang> {
    let (mut u, mut v) = coords(frag, set);
    let deriv = frag.tex_deriv[set.min(2)];
    let w = frag.attr[semantic::TEXCOORD0_W];
    let mut addr = None;
    let mut shadow_z = None;
    if unit == 0 {
        let param = TexunitParam(regs.reg(id::TEXUNIT0_PARAM.into()));
        let shadow_reg = regs.reg(id::TEXUNIT0_SHADOW.into());
        match param.texture_type() {
            TexunitParamType::Texture2D => {}
            TexunitParamType::Disabled => return Ok([0; 4]),
            // Knob `tex-reserved-type=disabled`: as a disabled unit.
            TexunitParamType::Reserved(_)
                if regs.knobs().tex_reserved_type == TexReservedType::Disabled =>
            {
                return Ok([0; 4]);
            }
            // RESERVED_TYPE_IS_2D: sample as 2D.
            TexunitParamType::Reserved(_) => {}
            TexunitParamType::Projection => {
                let r = alu_fast::rcp(w);
                u = alu::mul(u, r);
                v = alu::mul(v, r);
            }
            TexunitParamType::CubeMap | TexunitParamType::ShadowCube => {
                let (face, s, t, z) = cube_coords(u, v, w);
                (u, v) = (s, t);
                addr = Some(cube_face_addr(regs, face));
                if param.texture_type() == TexunitParamType::ShadowCube {
                    shadow_z = Some(shadow_ref(z, shadow_reg));
                }
                tracing::trace!(target: "tex", face, "cube face");
            }
            TexunitParamType::Shadow2D => {
                if !TexunitShadow(shadow_reg).orthographic() {
                    let r = alu_fast::rcp(w);
                    u = alu::mul(u, r);
                    v = alu::mul(v, r);
                }
                shadow_z = Some(shadow_ref(w, shadow_reg));
            }
        }
    }
    let r = unit_regs(regs, unit, addr);
    if r.reserved_zero {
        // Knob `tex-reserved-format=zero`: a reserved format reads nothing.
        return Ok([0; 4]);
    }
    let mut s = Sampler {
        unit: unit as u8,
        r,
        mem,
        fetches,
        shadow: shadow_z,
        unmapped: regs.knobs().tex_unmapped,
        rounding: regs.knobs().tex_filter_rounding,
    };
    s.sample(u, v, deriv)
}

/// The texture-coordinate set (0-2) unit 3 (the procedural texture) reads:
/// GPUREG_TEXUNIT_CONFIG `texture3_coords`, the reserved value 3 as knob
/// `tex3-reserved-coords` says (default texcoord0, [`TEX3_RESERVED_COORDS`]).
pub fn tex3_coord_set(regs: &RegFile) -> usize {
    let cfg = TexunitConfig(regs.reg(id::TEXUNIT_CONFIG.into()));
    match cfg.texture3_coords() {
        TexunitConfigTexture3Coords::Texture0 => 0,
        TexunitConfigTexture3Coords::Texture1 => 1,
        TexunitConfigTexture3Coords::Texture2 => 2,
        TexunitConfigTexture3Coords::Reserved(_) => match regs.knobs().tex3_reserved_coords {
            Tex3ReservedCoords::Texcoord0 => TEX3_RESERVED_COORDS,
            Tex3ReservedCoords::Texcoord1 => 1,
            Tex3ReservedCoords::Texcoord2 => 2,
        },
    }
}

/// The registers texture units 0-2 read, in the order the RTL stage (`pica_tex_top`) stores
/// them: GPUREG_TEXUNIT_CONFIG, unit 0's BORDER_COLOR … SHADOW and TYPE, then units 1 and 2's
/// BORDER_COLOR … TYPE.
pub const CONFIG_REGS: [u16; 25] = [
    id::TEXUNIT_CONFIG,
    id::TEXUNIT0_BORDER_COLOR,
    id::TEXUNIT0_DIM,
    id::TEXUNIT0_PARAM,
    id::TEXUNIT0_LOD,
    id::TEXUNIT0_ADDR1,
    id::TEXUNIT0_ADDR1 + 1,
    id::TEXUNIT0_ADDR1 + 2,
    id::TEXUNIT0_ADDR1 + 3,
    id::TEXUNIT0_ADDR1 + 4,
    id::TEXUNIT0_ADDR1 + 5,
    id::TEXUNIT0_SHADOW,
    id::TEXUNIT0_TYPE,
    id::TEXUNIT1_BORDER_COLOR,
    id::TEXUNIT1_DIM,
    id::TEXUNIT1_PARAM,
    id::TEXUNIT1_LOD,
    id::TEXUNIT1_ADDR,
    id::TEXUNIT1_TYPE,
    id::TEXUNIT2_BORDER_COLOR,
    id::TEXUNIT2_DIM,
    id::TEXUNIT2_PARAM,
    id::TEXUNIT2_LOD,
    id::TEXUNIT2_ADDR,
    id::TEXUNIT2_TYPE,
];

/// The byte ranges `[start, end)` texture units 0-2 can read with the registers as they are
/// (every level up to 15 of each enabled unit's texture; all six faces of a cube map): what a
/// texel cache may hold for them, so what a change of memory must invalidate.
pub fn texture_ranges(regs: &RegFile) -> Vec<(u64, u64)> {
    let cfg = TexunitConfig(regs.reg(id::TEXUNIT_CONFIG.into()));
    let enabled = [
        cfg.texture0_enabled(),
        cfg.texture1_enabled(),
        cfg.texture2_enabled(),
    ];
    let mut out = Vec::new();
    for (unit, _) in enabled.iter().enumerate().filter(|(_, on)| **on) {
        let r = unit_regs(regs, unit, None);
        // An upper bound: every level with its size rounded up to whole 8x8 tiles (a read
        // inside a level lies within its tiles: a 4-bit texel or an ETC block of a level
        // smaller than a tile reads bytes its exact size rounds away), plus one 16-byte line.
        let up8 = |n: u32| n.div_ceil(8) * 8;
        let bytes: u64 = (0..16)
            .map(|l| {
                format::level_bytes(
                    r.format,
                    up8(level_dim_min(r.width, l, r.min_level)),
                    up8(level_dim_min(r.height, l, r.min_level)),
                )
            })
            .sum::<u64>()
            + 16;
        let cube = unit == 0
            && matches!(
                TexunitParam(regs.reg(id::TEXUNIT0_PARAM.into())).texture_type(),
                TexunitParamType::CubeMap | TexunitParamType::ShadowCube
            );
        let bases: Vec<u64> = if cube {
            (0..6).map(|f| cube_face_addr(regs, f)).collect()
        } else {
            vec![r.addr]
        };
        out.extend(bases.into_iter().map(|b| (b, b + bytes)));
    }
    out
}

/// The colours of texture units 0-2 for `frag` (`[r, g, b, a]`; zero for a disabled unit),
/// appending every texel read to `fetches`: the part of [`texture_units`] the RTL stage
/// `pica_tex_top` computes.
pub fn texture_units_0_2(
    frag: &Fragment,
    regs: &RegFile,
    mem: &Memory,
    fetches: &mut Vec<TexelFetch>,
) -> Result<[[u8; 4]; 3], TexHang> {
    let cfg = TexunitConfig(regs.reg(id::TEXUNIT_CONFIG.into()));
    let mut out = [[0u8; 4]; 3];
    let enabled = [
        cfg.texture0_enabled(),
        cfg.texture1_enabled(),
        cfg.texture2_enabled(),
    ];
    for (unit, on) in enabled.into_iter().enumerate() {
        if !on {
            continue;
        }
        let set = match (unit, cfg.texture2_coords()) {
            (2, TexunitConfigTexture2Coords::Texture1) => 1,
            // UNVERIFIED(hw) [fact: tex-impossible-values]: a reserved value (impossible: 1-bit field) keeps texcoord2.
            _ => unit,
        };
        out[unit] = sample_unit(frag, regs, mem, fetches, unit, set)?;
    }
    Ok(out)
}

/// The colour of texture unit 3, the procedural texture, for `frag` (zero when disabled).
pub fn texture_unit3(frag: &Fragment, regs: &RegFile) -> [u8; 4] {
    let cfg = TexunitConfig(regs.reg(id::TEXUNIT_CONFIG.into()));
    if !cfg.texture3_enabled() {
        return [0; 4];
    }
    let set = tex3_coord_set(regs);
    let (u, v) = coords(frag, set);
    proctex::proctex(u, v, frag.tex_deriv[set.min(2)], regs)
}

/// The colours of texture units 0-3 for `frag` (`[r, g, b, a]`; zero for a disabled unit),
/// appending every texel read to `fetches`.
pub fn texture_units(
    frag: &Fragment,
    regs: &RegFile,
    mem: &Memory,
    fetches: &mut Vec<TexelFetch>,
) -> Result<[[u8; 4]; 4], TexHang> {
    let [a, b, c] = texture_units_0_2(frag, regs, mem, fetches)?;
    Ok([a, b, c, texture_unit3(frag, regs)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tex_level_dims_stop_at_one_tile() {
        assert_eq!(level_dim(64, 0), 64);
        assert_eq!(level_dim(64, 3), 8);
        assert_eq!(level_dim(64, 4), 8);
        assert_eq!(level_dim(0, 0), 1);
        assert_eq!(level_dim(4, 1), 4);
        // 16×16 RGBA8: level 0 = 1024 bytes, level 1 (8×8) = 256.
        assert_eq!(level_offset(Format::Rgba8888, 16, 16, 2), 1280);
    }

    #[test]
    fn tex_cube_face_for_each_major_axis() {
        let one = F24::ONE;
        let z = F24::ZERO;
        let n = F24::NEG_ONE;
        assert_eq!(cube_coords(one, z, z).0, 0);
        assert_eq!(cube_coords(n, z, z).0, 1);
        assert_eq!(cube_coords(z, one, z).0, 2);
        assert_eq!(cube_coords(z, n, z).0, 3);
        assert_eq!(cube_coords(z, z, one).0, 4);
        assert_eq!(cube_coords(z, z, n).0, 5);
    }
}
