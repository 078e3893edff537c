//! Texture upload and texture-unit setup: an encoder from RGBA8 pictures into the 14 texture
//! formats of GPUREG_TEXUNITi_TYPE in the PICA's tiled layout, and the register writes that
//! point texture units 0-2 at the result.
//!
//! Layout (pica-facts §4, 3dbrew GPU/Textures, seed 002 GPUREG_TEXUNITi_ADDR): a level is stored
//! in 8×8 tiles, tile row after tile row, each tile's 64 texels in Z-order (Morton order: texel
//! index bits x0 y0 x1 y1 x2 y2, the x bits at 0, 2, 4 and the y bits at 1, 3, 5); mipmap levels
//! follow the base level directly, each half the size of the one before.
//!
//! Orientation: a [`TexImage`] is given as a picture, top row first, and the first stored row
//! (tile row 0, in-tile row 0) is the picture's top row. A texture coordinate `t = floor(v·h)`
//! reads stored row `h - 1 - t`, so `v = 1` is the top of the picture and a quad with `v` growing
//! upwards shows it upright.
// UNVERIFIED(hw): which end of the texture the first stored row is. Pica-facts §4 says "stored
// bottom row first" (the picture's bottom row at v = 0 in GL terms); Azahar's software
// rasterizer reads texel (s, t) from stored row `height - 1 - t` (`LookupTexture(.., s,
// height - 1 - t, ..)`), i.e. the first stored row is the one at v ≈ 1. This encoder follows
// Azahar's addressing; the probes of the scene library depend on it.

use super::{BuildError, Builder};
use pica_model::regs::{
    self, id, TexunitConfigTexture2Coords, TexunitConfigTexture3Coords, TexunitParamEtc1,
    TexunitParamFilter, TexunitParamType, TexunitParamWrap, TexunitTypeFormat,
};

/// Physical address of texture memory: VRAM above the depth buffer (bank B holds the depth
/// buffer from 0x18300000; the scenes' depth buffers are at most 64 KiB).
pub const TEX_BASE: u32 = 0x1840_0000;

/// Room for textures above [`TEX_BASE`]: up to the end of VRAM (0x18600000).
pub const TEX_LIMIT: u32 = 0x0020_0000;

/// Alignment of each texture allocation: 128 bytes (the register holds the address >> 3; 128
/// keeps every level of an 8×8-tiled texture on whole tiles, as drivers allocate).
pub const TEX_ALIGN: u32 = 128;

/// Every texture format, in register order.
pub const ALL_FORMATS: [TexunitTypeFormat; 14] = [
    TexunitTypeFormat::Rgba8888,
    TexunitTypeFormat::Rgb888,
    TexunitTypeFormat::Rgba5551,
    TexunitTypeFormat::Rgb565,
    TexunitTypeFormat::Rgba4444,
    TexunitTypeFormat::Ia8,
    TexunitTypeFormat::Hilo8,
    TexunitTypeFormat::I8,
    TexunitTypeFormat::A8,
    TexunitTypeFormat::Ia44,
    TexunitTypeFormat::I4,
    TexunitTypeFormat::A4,
    TexunitTypeFormat::Etc1,
    TexunitTypeFormat::Etc1a4,
];

/// Bits of one texel of `f` (ETC1: 64 bits per 4×4 block = 4; ETC1A4: 8). A reserved format
/// counts as 0.
pub const fn bits_per_texel(f: TexunitTypeFormat) -> u32 {
    match f {
        TexunitTypeFormat::Rgba8888 => 32,
        TexunitTypeFormat::Rgb888 => 24,
        TexunitTypeFormat::Rgba5551
        | TexunitTypeFormat::Rgb565
        | TexunitTypeFormat::Rgba4444
        | TexunitTypeFormat::Ia8
        | TexunitTypeFormat::Hilo8 => 16,
        TexunitTypeFormat::I8
        | TexunitTypeFormat::A8
        | TexunitTypeFormat::Ia44
        | TexunitTypeFormat::Etc1a4 => 8,
        TexunitTypeFormat::I4 | TexunitTypeFormat::A4 | TexunitTypeFormat::Etc1 => 4,
        TexunitTypeFormat::Reserved(_) => 0,
    }
}

/// Bytes of a `w`×`h` level of `f`.
pub const fn level_bytes(f: TexunitTypeFormat, w: u32, h: u32) -> u32 {
    w * h * bits_per_texel(f) / 8
}

/// The Z-order index of texel (`x`, `y`) inside its 8×8 tile (x bits at 0, 2, 4; y bits at 1,
/// 3, 5: pica-facts §4's tables `x: 0,1,4,5,16,17,20,21`, `y: 0,2,8,10,32,34,40,42` are these
/// bits of the texel index).
pub const fn morton8(x: u32, y: u32) -> u32 {
    let mut i = 0;
    let mut b = 0;
    while b < 3 {
        i |= ((x >> b) & 1) << (2 * b) | ((y >> b) & 1) << (2 * b + 1);
        b += 1;
    }
    i
}

/// The position of texel (`x`, stored row `y`) in a `width`-wide level, counted in texels: tiles
/// row by row, 64 texels per tile, Z-order inside.
pub const fn texel_index(x: u32, y: u32, width: u32) -> u32 {
    ((y / 8) * (width / 8) + x / 8) * 64 + morton8(x % 8, y % 8)
}

/// An RGBA8 picture, top row first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexImage {
    /// Width in texels (a multiple of 8, 8-1024).
    pub width: u32,
    /// Height in texels (a multiple of 8, 8-1024).
    pub height: u32,
    /// Texels, row by row from the top.
    pub texels: Vec<[u8; 4]>,
}

impl TexImage {
    /// A `w`×`h` picture whose texel at column `x`, row `y` (from the top) is `f(x, y)`.
    pub fn from_fn(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Self {
        let texels = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| f(x, y));
        Self {
            width: w,
            height: h,
            texels: texels.collect(),
        }
    }

    /// A `w`×`h` picture of one colour.
    pub fn solid(w: u32, h: u32, c: [u8; 4]) -> Self {
        Self::from_fn(w, h, |_, _| c)
    }

    /// A `w`×`h` picture of a `cols`×`rows` grid of equal cells; cell `n` (row-major from the
    /// top left) has colour `colors[n]` (or transparent black past the end).
    pub fn grid(w: u32, h: u32, cols: u32, rows: u32, colors: &[[u8; 4]]) -> Self {
        let (cw, ch) = ((w / cols.max(1)).max(1), (h / rows.max(1)).max(1));
        Self::from_fn(w, h, |x, y| {
            let n = (y / ch) * cols + x / cw;
            colors.get(n as usize).copied().unwrap_or([0; 4])
        })
    }

    fn check(&self) -> Result<(), BuildError> {
        let ok = |n: u32| (8..=1024).contains(&n) && n % 8 == 0;
        if !ok(self.width) || !ok(self.height) {
            return Err(BuildError::Texture(format!(
                "{}x{} is not a multiple of 8 between 8 and 1024",
                self.width, self.height
            )));
        }
        if self.texels.len() != (self.width * self.height) as usize {
            return Err(BuildError::Texture(format!(
                "{} texels for {}x{}",
                self.texels.len(),
                self.width,
                self.height
            )));
        }
        Ok(())
    }
}

/// The stored bits of one RGBA8 texel in format `f` (a value of [`bits_per_texel`] bits), by
/// the channel rules of 3dbrew GPU/Textures (Azahar `texture_decode.cpp` reads them back the
/// same way): multi-byte texels little-endian with red in the top bits (RGBA8888 bytes a, b,
/// g, r; RGB888 b, g, r); narrower channels keep their top bits (the conversion a driver's
/// encoder does, truncating); intensity formats take red as the intensity; IA8 stores alpha in
/// the low byte and intensity in the high byte; HILO8 stores red (hi) in the high byte and
/// green (lo) in the low byte; IA44 intensity in the high nibble. `None` for ETC1 formats
/// (block-compressed: see [`encode_etc1`]) and reserved ones.
pub fn encode_texel(f: TexunitTypeFormat, [r, g, b, a]: [u8; 4]) -> Option<u32> {
    let (r, g, b, a) = (u32::from(r), u32::from(g), u32::from(b), u32::from(a));
    Some(match f {
        TexunitTypeFormat::Rgba8888 => r << 24 | g << 16 | b << 8 | a,
        TexunitTypeFormat::Rgb888 => r << 16 | g << 8 | b,
        TexunitTypeFormat::Rgba5551 => (r >> 3) << 11 | (g >> 3) << 6 | (b >> 3) << 1 | a >> 7,
        TexunitTypeFormat::Rgb565 => (r >> 3) << 11 | (g >> 2) << 5 | b >> 3,
        TexunitTypeFormat::Rgba4444 => (r >> 4) << 12 | (g >> 4) << 8 | (b >> 4) << 4 | a >> 4,
        TexunitTypeFormat::Ia8 => r << 8 | a,
        TexunitTypeFormat::Hilo8 => r << 8 | g,
        TexunitTypeFormat::I8 => r,
        TexunitTypeFormat::A8 => a,
        TexunitTypeFormat::Ia44 => (r >> 4) << 4 | a >> 4,
        TexunitTypeFormat::I4 => r >> 4,
        TexunitTypeFormat::A4 => a >> 4,
        _ => return None,
    })
}

/// One level of `img` in format `f`, tiled. 4-bit formats put the texel with the even Z-order
/// index in the low nibble of its byte.
// UNVERIFIED(hw): the nibble order of I4 / A4 (and of ETC1A4 alpha words) — Azahar
// `texture_decode.cpp` reads the even Z-order index from the low nibble; the seeds are silent.
pub fn encode(img: &TexImage, f: TexunitTypeFormat) -> Result<Vec<u8>, BuildError> {
    img.check()?;
    let bits = bits_per_texel(f);
    if encode_texel(f, [0; 4]).is_none() {
        return Err(BuildError::Texture(format!(
            "{f:?} is not a per-texel format (ETC1 textures: encode_etc1)"
        )));
    }
    let mut out = vec![0u8; level_bytes(f, img.width, img.height) as usize];
    for (n, &c) in img.texels.iter().enumerate() {
        let (x, y) = (n as u32 % img.width, n as u32 / img.width);
        let i = texel_index(x, y, img.width) as usize;
        let v = encode_texel(f, c).unwrap_or(0);
        if bits == 4 {
            if let Some(byte) = out.get_mut(i / 2) {
                *byte |= (v as u8 & 0xF) << (4 * (i % 2));
            }
        } else {
            let nb = (bits / 8) as usize;
            for k in 0..nb {
                if let Some(byte) = out.get_mut(i * nb + k) {
                    *byte = (v >> (8 * k)) as u8;
                }
            }
        }
    }
    Ok(out)
}

/// A mip chain: each level of `levels` (base first, each half the size of the one before)
/// encoded and stored one after the other.
pub fn encode_mips(levels: &[TexImage], f: TexunitTypeFormat) -> Result<Vec<u8>, BuildError> {
    let mut out = Vec::new();
    for (l, img) in levels.iter().enumerate() {
        if let Some(base) = levels.first() {
            if img.width != (base.width >> l).max(8) || img.height != (base.height >> l).max(8) {
                return Err(BuildError::Texture(format!(
                    "mip level {l} is {}x{}, not half of the level before",
                    img.width, img.height
                )));
            }
        }
        out.extend(encode(img, f)?);
    }
    Ok(out)
}

/// An ETC1 block (the 64-bit word of the ETC1 specification, stored little-endian) of one
/// colour: "individual" mode, both sub-blocks base colour `rgb4` (4 bits per channel, expanded
/// as `c · 17`), codeword table `table` (0-7) and every pixel index 0 — each texel decodes to
/// `clamp(c · 17 + m)` with `m` the small positive modifier of the table (pica-facts §4:
/// {2, 8}, {5, 17}, ... → +2 for table 0).
///
/// Bit layout (ETC1 specification, "individual" mode): R1 63-60, R2 59-56, G1 55-52, G2 51-48,
/// B1 47-44, B2 43-40, table 1 39-37, table 2 36-34, diff 33 (0), flip 32, pixel-index MSBs
/// 31-16, LSBs 15-0.
pub const fn etc1_solid_block(rgb4: [u8; 3], table: u8) -> u64 {
    // Each nibble in both sub-block positions (× 0x11).
    let r = (rgb4[0] as u64 & 0xF) * 0x11;
    let g = (rgb4[1] as u64 & 0xF) * 0x11;
    let b = (rgb4[2] as u64 & 0xF) * 0x11;
    let t = (table as u64) & 7;
    r << 56 | g << 48 | b << 40 | t << 37 | t << 34
}

/// An ETC1A4 alpha block of one alpha: 16 nibbles of `a4`.
pub const fn etc1a4_solid_alpha(a4: u8) -> u64 {
    (a4 as u64 & 0xF) * 0x1111_1111_1111_1111
}

/// An ETC1 (`alpha` = `None`) or ETC1A4 level from pre-built 4×4 blocks: `blocks[i]` is block
/// (i % (w/4), i / (w/4)), block row 0 at the top (the first stored row, as in [`TexImage`]);
/// ETC1A4 takes one alpha word per block. Storage (pica-facts §4: "ETC1 tiles are 4 sub-blocks
/// of 8 bytes (ETC1A4: 16)"): 8×8 tiles row by row, the four blocks of a tile in Z-order (top
/// left, top right, bottom left, bottom right), each block a little-endian u64, preceded by
/// its alpha u64 in ETC1A4.
pub fn encode_etc1(
    w: u32,
    h: u32,
    blocks: &[u64],
    alpha: Option<&[u64]>,
) -> Result<Vec<u8>, BuildError> {
    TexImage {
        width: w,
        height: h,
        texels: vec![[0; 4]; (w * h) as usize],
    }
    .check()?;
    let (bw, bh) = (w / 4, h / 4);
    let n = (bw * bh) as usize;
    if blocks.len() != n || alpha.is_some_and(|a| a.len() != n) {
        return Err(BuildError::Texture(format!(
            "{w}x{h} needs {n} ETC1 blocks (and as many alpha words)"
        )));
    }
    let mut out = Vec::with_capacity(n * if alpha.is_some() { 16 } else { 8 });
    for ty in 0..h / 8 {
        for tx in 0..w / 8 {
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let i = ((2 * ty + dy) * bw + 2 * tx + dx) as usize;
                if let Some(a) = alpha {
                    out.extend(a.get(i).copied().unwrap_or(0).to_le_bytes());
                }
                out.extend(blocks.get(i).copied().unwrap_or(0).to_le_bytes());
            }
        }
    }
    Ok(out)
}

/// A texture unit's configuration (GPUREG_TEXUNITi_* of seed 002).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexUnit {
    /// Physical address of the texture (of the +X face for a cube map).
    pub addr: u32,
    /// Cube maps: the −X, +Y, −Y, +Z, −Z faces (ADDR2-ADDR6, unit 0 only).
    pub faces: Option<[u32; 5]>,
    /// Width of the base level.
    pub width: u32,
    /// Height of the base level.
    pub height: u32,
    /// Format.
    pub format: TexunitTypeFormat,
    /// Magnification filter.
    pub mag: TexunitParamFilter,
    /// Minification filter.
    pub min: TexunitParamFilter,
    /// Mipmap filter.
    pub mip: TexunitParamFilter,
    /// Wrap in s.
    pub wrap_s: TexunitParamWrap,
    /// Wrap in t.
    pub wrap_t: TexunitParamWrap,
    /// Border colour, RGBA.
    pub border: [u8; 4],
    /// Texture type (unit 0 only: 2D, cube, shadow, projection).
    pub ty: TexunitParamType,
    /// LOD bias, raw fixed1.4.8 bits (13 bits).
    pub lod_bias: u32,
    /// Highest mip level used.
    pub max_level: u32,
    /// Lowest mip level used.
    pub min_level: u32,
    /// Unit 0 shadow textures: the GPUREG_TEXUNIT0_SHADOW word.
    pub shadow: Option<regs::TexunitShadow>,
}

impl TexUnit {
    /// A 2D texture at `addr`, nearest filtering, clamp to edge, no mipmaps, border 0.
    pub const fn new(addr: u32, width: u32, height: u32, format: TexunitTypeFormat) -> Self {
        Self {
            addr,
            faces: None,
            width,
            height,
            format,
            mag: TexunitParamFilter::Nearest,
            min: TexunitParamFilter::Nearest,
            mip: TexunitParamFilter::Nearest,
            wrap_s: TexunitParamWrap::ClampToEdge,
            wrap_t: TexunitParamWrap::ClampToEdge,
            border: [0; 4],
            ty: TexunitParamType::Texture2D,
            lod_bias: 0,
            max_level: 0,
            min_level: 0,
            shadow: None,
        }
    }

    /// The same with wrap modes `s`, `t`.
    pub const fn with_wrap(mut self, s: TexunitParamWrap, t: TexunitParamWrap) -> Self {
        self.wrap_s = s;
        self.wrap_t = t;
        self
    }

    /// The same with magnification and minification filter `f`.
    pub const fn with_filter(mut self, f: TexunitParamFilter) -> Self {
        self.mag = f;
        self.min = f;
        self
    }

    /// The same with border colour `c`.
    pub const fn with_border(mut self, c: [u8; 4]) -> Self {
        self.border = c;
        self
    }

    /// The same with texture type `ty`.
    pub const fn with_type(mut self, ty: TexunitParamType) -> Self {
        self.ty = ty;
        self
    }

    /// The same with mip levels `min..=max` and mipmap filter `f`.
    pub const fn with_mips(mut self, min: u32, max: u32, f: TexunitParamFilter) -> Self {
        self.min_level = min;
        self.max_level = max;
        self.mip = f;
        self
    }

    /// GPUREG_TEXUNITi_BORDER_COLOR.
    pub fn border_word(&self) -> u32 {
        let [r, g, b, a] = self.border.map(u32::from);
        regs::TexunitBorderColor(0)
            .with_red(r)
            .with_green(g)
            .with_blue(b)
            .with_alpha(a)
            .0
    }

    /// GPUREG_TEXUNITi_DIM.
    pub fn dim_word(&self) -> u32 {
        regs::TexunitDim(0)
            .with_width(self.width)
            .with_height(self.height)
            .0
    }

    /// GPUREG_TEXUNITi_PARAM. The ETC1 field is 2 for ETC1 and 0 for everything else, ETC1A4
    /// included (seed 002: "still 0 for ETC1A4"); the shadow bit goes with the shadow types.
    pub fn param_word(&self) -> u32 {
        let etc1 = if self.format == TexunitTypeFormat::Etc1 {
            TexunitParamEtc1::Etc1
        } else {
            TexunitParamEtc1::NotEtc1
        };
        let shadow = matches!(
            self.ty,
            TexunitParamType::Shadow2D | TexunitParamType::ShadowCube
        );
        regs::TexunitParam(0)
            .with_mag_filter(self.mag)
            .with_min_filter(self.min)
            .with_etc1(etc1)
            .with_wrap_t(self.wrap_t)
            .with_wrap_s(self.wrap_s)
            .with_shadow(shadow)
            .with_mipmap_filter(self.mip)
            .with_texture_type(self.ty)
            .0
    }

    /// GPUREG_TEXUNITi_LOD.
    pub fn lod_word(&self) -> u32 {
        regs::TexunitLod(0)
            .with_bias(self.lod_bias & 0x1FFF)
            .with_max_level(self.max_level & 0xF)
            .with_min_level(self.min_level & 0xF)
            .0
    }

    /// GPUREG_TEXUNITi_TYPE.
    pub fn type_word(&self) -> u32 {
        regs::TexunitType(0).with_format(self.format).0
    }
}

/// GPUREG_TEXUNIT_CONFIG contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexConfig {
    /// Units 0, 1, 2 enabled.
    pub enabled: [bool; 3],
    /// Unit 3 (procedural texture) enabled.
    pub proctex: bool,
    /// Coordinates unit 3 uses.
    pub proctex_coords: TexunitConfigTexture3Coords,
    /// Coordinates unit 2 uses.
    pub unit2_coords: TexunitConfigTexture2Coords,
    /// Clear the texture cache.
    pub clear_cache: bool,
}

impl TexConfig {
    /// Units `enabled` on, no procedural texture, each unit its own coordinates, cache cleared.
    pub const fn units(enabled: [bool; 3]) -> Self {
        Self {
            enabled,
            proctex: false,
            proctex_coords: TexunitConfigTexture3Coords::Texture0,
            unit2_coords: TexunitConfigTexture2Coords::Texture2,
            clear_cache: true,
        }
    }

    /// The GPUREG_TEXUNIT_CONFIG word (bit 12 "must be 1").
    pub fn word(&self) -> u32 {
        regs::TexunitConfig(0)
            .with_texture0_enabled(self.enabled[0])
            .with_texture1_enabled(self.enabled[1])
            .with_texture2_enabled(self.enabled[2])
            .with_texture3_coords(self.proctex_coords)
            .with_texture3_enabled(self.proctex)
            .with_reserved_12(1)
            .with_texture2_coords(self.unit2_coords)
            .with_clear_texture_cache(self.clear_cache)
            .0
    }
}

impl Builder {
    /// Stores `bytes` in texture memory (from [`TEX_BASE`], [`TEX_ALIGN`]-aligned), returning the
    /// physical address. Texture memory goes into the case as its own image, so it is there
    /// before the list runs, as if the application had copied it to VRAM.
    pub fn alloc_texture(&mut self, bytes: &[u8]) -> u32 {
        let align = TEX_ALIGN as usize;
        let at = self.tex.len().div_ceil(align) * align;
        self.tex.resize(at, 0);
        self.tex.extend_from_slice(bytes);
        TEX_BASE.wrapping_add(at as u32)
    }

    /// Encodes `img` in format `f` ([`encode`]) into texture memory, returning its address.
    pub fn upload_texture(
        &mut self,
        img: &TexImage,
        f: TexunitTypeFormat,
    ) -> Result<u32, BuildError> {
        let bytes = encode(img, f)?;
        Ok(self.alloc_texture(&bytes))
    }

    /// The texture memory image so far (placed at [`TEX_BASE`]).
    pub fn texture_memory(&self) -> &[u8] {
        &self.tex
    }

    /// GPUREG_TEXUNIT_CONFIG.
    pub fn texunit_config(&mut self, c: &TexConfig) -> &mut Self {
        self.list.write(id::TEXUNIT_CONFIG, c.word());
        self
    }

    /// Sets up texture unit `unit` (0-2; others ignored): one consecutive write of BORDER_COLOR,
    /// DIM, PARAM, LOD and ADDR(1) (unit 0: 0x081-0x085, unit 1: 0x091-0x095, unit 2:
    /// 0x099-0x09D, the order of the register map), then for unit 0 the cube faces ADDR2-6
    /// (0x086-0x08A, low 22 bits of address >> 3: seed 002 "upper 6 bits reused from the first
    /// ADDR register") and the SHADOW word when given, then TYPE.
    pub fn texture_unit(&mut self, unit: u8, t: &TexUnit) -> &mut Self {
        let (base, ty) = match unit {
            0 => (id::TEXUNIT0_BORDER_COLOR, id::TEXUNIT0_TYPE),
            1 => (id::TEXUNIT1_BORDER_COLOR, id::TEXUNIT1_TYPE),
            2 => (id::TEXUNIT2_BORDER_COLOR, id::TEXUNIT2_TYPE),
            _ => return self,
        };
        self.list.write_seq(
            base,
            &[
                t.border_word(),
                t.dim_word(),
                t.param_word(),
                t.lod_word(),
                regs::TexunitAddr(0).with_addr(t.addr >> 3).0,
            ],
        );
        if unit == 0 {
            if let Some(faces) = t.faces {
                let words = faces.map(|a| {
                    regs::TexunitAddrSubsequent(0)
                        .with_addr((a >> 3) & 0x3F_FFFF)
                        .0
                });
                self.list.write_seq(id::TEXUNIT0_ADDR2, &words);
            }
            if let Some(s) = t.shadow {
                self.list.write(id::TEXUNIT0_SHADOW, s.0);
            }
        }
        self.list.write(ty, t.type_word());
        self
    }
}
