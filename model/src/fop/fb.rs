//! Framebuffer formats, block tiling and read-out.
//!
//! Pure functions: where a pixel lives in memory, how its colour or depth-stencil value is
//! stored, and the whole buffer de-tiled as a picture. FOP ([`super::FragmentOps`]) and the
//! PNG writers of the CLI both use them, so the picture a user looks at is decoded by the same
//! code that encoded it.
//!
//! # Layout (Azahar `video_core/renderer_software/sw_framebuffer.cpp`, `video_core/utils.h`)
//!
//! - Window y = 0 is the row the viewport maps -1 to (the bottom of the picture). The buffer
//!   is stored from the top of the picture down: memory row `y' = (height - 1) - y`, where
//!   `height - 1` is the field GPUREG_FRAMEBUFFER_DIM holds (seed 002: "Height - 1"; Azahar
//!   `DrawPixel`: `y = framebuffer.height - y` with that field). So memory row 0 — the first
//!   bytes of the buffer — is the top row of the picture.
//! - 8×8 mode (GPUREG_FRAMEBUFFER_BLOCK32 = 0): the picture is cut into 8×8 tiles stored row
//!   of tiles after row of tiles (`y' & !7` rows of `width` pixels before), tile after tile
//!   within a row (`(x & !7) * 8` pixels before); inside a tile, pixels are in Morton
//!   (Z) order with x bits at even and y' bits at odd positions (pica-facts §4: x bits
//!   (0,1,4,5,16,17,20,21), y bits (0,2,8,10,32,34,40,42)).
//! - 32×32 mode (GPUREG_FRAMEBUFFER_BLOCK32 = 1): see [`BLOCK32_ZORDER`].
//!
//! # Stored bits
//!
//! Seed 002 GPUREG_COLORBUFFER_FORMAT: "Color components are laid out in reverse byte order in
//! memory, with the most significant bits used first". Each pixel is a little-endian integer of
//! its format's size whose most significant bits hold red: RGBA8 is `r << 24 | g << 16 | b << 8
//! | a` (so the bytes in memory are a, b, g, r), RGB565 is `r << 11 | g << 5 | b` and so on.
//! Functions here take and return these integers ("stored bits", lowest address = least
//! significant byte), the same values [`crate::beat::PixelBeat`] carries.

use crate::knobs::{FopColorConversion, FopRgb8Order};
use crate::mem::{Memory, Unmapped};
use crate::regfile::RegFile;
use crate::regs::{self, id};

/// A de-tiled image, top row first, 8-bit RGBA (for PNG) or 8-bit grey depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, RGBA, rows top first.
    pub rgba: Vec<u8>,
}

impl Image {
    /// The 0×0 image (what the read-outs return for a buffer they cannot describe).
    pub fn empty() -> Self {
        Self {
            width: 0,
            height: 0,
            rgba: Vec::new(),
        }
    }

    /// The RGBA of the pixel in column `x` of row `row` (row 0 = top), if inside.
    pub fn pixel(&self, x: u32, row: u32) -> Option<[u8; 4]> {
        if x >= self.width || row >= self.height {
            return None;
        }
        let i = (row as usize * self.width as usize + x as usize) * 4;
        let p = self.rgba.get(i..i + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }
}

/// Whether 32×32 mode orders everything inside a 32×32 block in Z order.
///
/// UNVERIFIED(hw) [fact: fop-block32-layout]: in 32×32 mode (GPUREG_FRAMEBUFFER_BLOCK32 = 1) the buffer is cut into
/// 32×32 blocks, stored row of blocks after row of blocks (`y' & !31` rows of `width` pixels
/// before) and block after block within a row (`(x & !31) * 32` pixels before); inside a block
/// the offset is the 5-bit Morton interleave of `(x & 31, y' & 31)` — so the sixteen 8×8 tiles
/// of a block follow each other in Z order and each tile is in the usual 8×8 Morton order.
/// Seed 002 says only that 32×32 blocks exist (and that the display transfer's flag bit 16
/// untiles them); no public emulator implements rendering in this mode, so the tile order
/// inside a block is the model's choice (the Z order extends the 8×8 rule).
pub const BLOCK32_ZORDER: bool = true;

/// Interleaves the low `bits` bits of `x` (to even bit positions) and `y` (to odd ones): the
/// Morton (Z-order) index of `(x, y)` inside a `2^bits`-square tile.
pub const fn morton_interleave(x: u32, y: u32, bits: u32) -> u32 {
    let mut out = 0;
    let mut i = 0;
    while i < bits && i < 16 {
        out |= ((x >> i) & 1) << (2 * i);
        out |= ((y >> i) & 1) << (2 * i + 1);
        i += 1;
    }
    out
}

/// The memory row of window row `y` in a buffer of `height` rows: `(height - 1) - y` (the
/// buffer is stored top row first, window y = 0 is the bottom row). `None` if `y >= height`.
pub const fn memory_row(y: u32, height: u32) -> Option<u32> {
    if y >= height {
        None
    } else {
        Some(height - 1 - y)
    }
}

/// Byte offset from the buffer base of the pixel at window `(x, y)` in a `width` × `height`
/// buffer of `bytes_per_pixel`-byte pixels, 8×8 tiles (`block32 = false`) or 32×32 blocks.
///
/// `None` when `(x, y)` lies outside the buffer (or the offset does not fit 32 bits, which no
/// register value can cause: width ≤ 2047, height ≤ 1024, 4 bytes per pixel).
///
/// The width need not be a multiple of the block size; the formula is applied as is (tiles of
/// one row then run into the next — real drivers always use multiples of 8, or of 32 in 32×32
/// mode).
pub fn pixel_offset(
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    bytes_per_pixel: u32,
    block32: bool,
) -> Option<u32> {
    if x >= width {
        return None;
    }
    let yr = memory_row(y, height)?;
    let (block, bits) = if block32 { (32u64, 5) } else { (8u64, 3) };
    let mask = !(block - 1);
    let (x64, y64) = (u64::from(x), u64::from(yr));
    let pixels = (y64 & mask) * u64::from(width)
        + (x64 & mask) * block
        + u64::from(morton_interleave(x, yr, bits));
    u32::try_from(pixels * u64::from(bytes_per_pixel)).ok()
}

/// Colour buffer formats (seed 002 GPUREG_COLORBUFFER_FORMAT bits 16-18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ColorFormat {
    /// 0: 8 bits per channel, 4 bytes.
    Rgba8,
    /// 1: 8-bit red, green, blue, 3 bytes; alpha reads as 255.
    ///
    /// UNVERIFIED(hw) [fact: fop-rgb8-format]: seed 002 lists no value 1; seed 000 ("1=GL_RGB8"), ctrulib
    /// (`GPU_RB_RGB8 = 1`) and Azahar (`ColorFormat::RGB8`, 3 bytes b, g, r) do — model
    /// choice to accept it as they describe it. Knob `fop-rgb8-order=rgb` stores the bytes
    /// r, g, b instead ([`ColorFormat::reorder`]).
    Rgb8,
    /// 2: 5-bit red, green, blue and 1-bit alpha, 2 bytes.
    Rgb5a1,
    /// 3: 5-bit red, 6-bit green, 5-bit blue, 2 bytes; alpha reads as 255.
    Rgb565,
    /// 4: 4 bits per channel, 2 bytes.
    Rgba4,
}

/// Reduces an 8-bit channel to its `n` most significant bits.
///
/// UNVERIFIED(hw) [fact: fop-color-conversion]: truncation, no rounding or dithering — Azahar `common/color.h`
/// (`Convert8To5` = `value >> 3`, ...).
const fn to_bits(v: u8, n: u32) -> u32 {
    (v as u32) >> (8 - n)
}

/// Reduces an 8-bit channel to the nearest of the `2^n` levels of an `n`-bit field (knob
/// `fop-color-conversion=nearest`).
const fn to_bits_nearest(v: u8, n: u32) -> u32 {
    let max = (1u32 << n) - 1;
    (v as u32 * max + 127) / 255
}

/// Expands an `n`-bit channel to 8 bits by repeating its bits (`0b10110` → `0b10110101`).
///
/// UNVERIFIED(hw) [fact: fop-color-conversion]: bit replication, the usual expansion — Azahar `common/color.h`
/// (`Convert5To8` = `(v << 3) | (v >> 2)`, `Convert1To8` = `v * 255`).
const fn from_bits(v: u32, n: u32) -> u8 {
    crate::num::replicate_bits(v, n, 8) as u8
}

impl ColorFormat {
    /// Decodes the format field; `Err(value)` for a value no source describes (5-7).
    pub const fn from_field(value: u32) -> Result<Self, u32> {
        match value {
            0 => Ok(Self::Rgba8),
            1 => Ok(Self::Rgb8),
            2 => Ok(Self::Rgb5a1),
            3 => Ok(Self::Rgb565),
            4 => Ok(Self::Rgba4),
            other => Err(other),
        }
    }

    /// The format GPUREG_COLORBUFFER_FORMAT selects.
    ///
    /// UNVERIFIED(hw) [fact: fop-pixel-size-field]: the pixel size field (bits 0-1) is ignored; the size follows from the
    /// format — Azahar (`BytesPerPixel(color_format)`); drivers always write matching values.
    pub fn from_regs(regs: &RegFile) -> Result<Self, u32> {
        Self::from_field(
            regs::ColorbufferFormat(regs.reg(id::COLORBUFFER_FORMAT.into()))
                .format()
                .bits(),
        )
    }

    /// Bytes one pixel occupies.
    pub const fn bytes_per_pixel(self) -> u32 {
        match self {
            Self::Rgba8 => 4,
            Self::Rgb8 => 3,
            Self::Rgb5a1 | Self::Rgb565 | Self::Rgba4 => 2,
        }
    }

    /// The stored bits of `[r, g, b, a]` (see the module docs for the layout).
    pub fn encode(self, c: [u8; 4]) -> u32 {
        self.encode_with(c, FopColorConversion::Truncate)
    }

    /// [`ColorFormat::encode`] with knob `fop-color-conversion`:
    /// [`FopColorConversion::Nearest`] rounds each channel to the nearest level of its field.
    pub fn encode_with(self, c: [u8; 4], conv: FopColorConversion) -> u32 {
        let [r, g, b, a] = c;
        let to_bits = |v: u8, n: u32| match conv {
            FopColorConversion::Truncate => to_bits(v, n),
            FopColorConversion::Nearest => to_bits_nearest(v, n),
        };
        match self {
            Self::Rgba8 => (r as u32) << 24 | (g as u32) << 16 | (b as u32) << 8 | a as u32,
            Self::Rgb8 => (r as u32) << 16 | (g as u32) << 8 | b as u32,
            Self::Rgb5a1 => {
                to_bits(r, 5) << 11 | to_bits(g, 5) << 6 | to_bits(b, 5) << 1 | to_bits(a, 1)
            }
            Self::Rgb565 => to_bits(r, 5) << 11 | to_bits(g, 6) << 5 | to_bits(b, 5),
            Self::Rgba4 => {
                to_bits(r, 4) << 12 | to_bits(g, 4) << 8 | to_bits(b, 4) << 4 | to_bits(a, 4)
            }
        }
    }

    /// The stored bits in the byte order knob `fop-rgb8-order` selects, from (or to: the swap
    /// is its own inverse) the order [`ColorFormat::encode`] and [`ColorFormat::decode`] use:
    /// with [`FopRgb8Order::Rgb`] an RGB8 pixel's red and blue bytes trade places (red at the
    /// lowest address); every other case is `bits` unchanged.
    pub const fn reorder(self, bits: u32, order: FopRgb8Order) -> u32 {
        match (self, order) {
            (Self::Rgb8, FopRgb8Order::Rgb) => {
                (bits & 0xFF) << 16 | (bits & 0xFF00) | (bits >> 16 & 0xFF)
            }
            _ => bits,
        }
    }

    /// `[r, g, b, a]` of stored bits (bits above the format's size are ignored).
    pub const fn decode(self, bits: u32) -> [u8; 4] {
        match self {
            Self::Rgba8 => [
                (bits >> 24) as u8,
                (bits >> 16) as u8,
                (bits >> 8) as u8,
                bits as u8,
            ],
            Self::Rgb8 => [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8, 255],
            Self::Rgb5a1 => [
                from_bits(bits >> 11, 5),
                from_bits(bits >> 6, 5),
                from_bits(bits >> 1, 5),
                from_bits(bits, 1),
            ],
            Self::Rgb565 => [
                from_bits(bits >> 11, 5),
                from_bits(bits >> 5, 6),
                from_bits(bits, 5),
                255,
            ],
            Self::Rgba4 => [
                from_bits(bits >> 12, 4),
                from_bits(bits >> 8, 4),
                from_bits(bits >> 4, 4),
                from_bits(bits, 4),
            ],
        }
    }
}

/// Depth-stencil buffer formats (seed 002 GPUREG_DEPTHBUFFER_FORMAT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum DepthFormat {
    /// 0: 16-bit depth, 2 bytes.
    D16,
    /// 2: 24-bit depth, 3 bytes.
    D24,
    /// 3: 24-bit depth in bits 0-23, 8-bit stencil in bits 24-31 (seed 000: "stencil is within
    /// bit 24-31"), 4 bytes.
    D24S8,
}

impl DepthFormat {
    /// Decodes the format field; `Err(1)` for the value seed 000 says "seems to freeze the
    /// GPU".
    pub const fn from_field(value: u32) -> Result<Self, u32> {
        match value {
            0 => Ok(Self::D16),
            2 => Ok(Self::D24),
            3 => Ok(Self::D24S8),
            other => Err(other),
        }
    }

    /// The format GPUREG_DEPTHBUFFER_FORMAT selects.
    pub fn from_regs(regs: &RegFile) -> Result<Self, u32> {
        Self::from_field(
            regs::DepthbufferFormat(regs.reg(id::DEPTHBUFFER_FORMAT.into()))
                .format()
                .bits(),
        )
    }

    /// Bytes one pixel occupies.
    pub const fn bytes_per_pixel(self) -> u32 {
        match self {
            Self::D16 => 2,
            Self::D24 => 3,
            Self::D24S8 => 4,
        }
    }

    /// Bits of depth (16 or 24): the width of the value the depth test compares.
    pub const fn depth_bits(self) -> u32 {
        match self {
            Self::D16 => 16,
            Self::D24 | Self::D24S8 => 24,
        }
    }

    /// The largest depth value (all depth bits set).
    pub const fn depth_max(self) -> u32 {
        (1 << self.depth_bits()) - 1
    }

    /// Whether the format has a stencil byte.
    pub const fn has_stencil(self) -> bool {
        matches!(self, Self::D24S8)
    }

    /// Stored bits of a depth (masked to the format's width) and stencil (dropped without a
    /// stencil byte).
    pub const fn encode(self, depth: u32, stencil: u8) -> u32 {
        let d = depth & self.depth_max();
        if self.has_stencil() {
            d | (stencil as u32) << 24
        } else {
            d
        }
    }

    /// The depth of stored bits.
    pub const fn depth(self, bits: u32) -> u32 {
        bits & self.depth_max()
    }

    /// The stencil of stored bits (0 for formats without stencil).
    pub const fn stencil(self, bits: u32) -> u8 {
        if self.has_stencil() {
            (bits >> 24) as u8
        } else {
            0
        }
    }
}

/// Where and how the buffers lie, as the registers describe them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FbLayout {
    /// Physical address of the colour buffer (GPUREG_COLORBUFFER_LOC << 3).
    pub color_base: u32,
    /// Physical address of the depth-stencil buffer (GPUREG_DEPTHBUFFER_LOC << 3).
    pub depth_base: u32,
    /// Width in pixels (GPUREG_FRAMEBUFFER_DIM bits 0-10).
    pub width: u32,
    /// Height in pixels (GPUREG_FRAMEBUFFER_DIM bits 12-21 plus one).
    pub height: u32,
    /// 32×32 blocks (GPUREG_FRAMEBUFFER_BLOCK32 = 1) instead of 8×8 tiles.
    pub block32: bool,
    /// The colour format, or the undescribed field value.
    pub color_format: Result<ColorFormat, u32>,
    /// The depth format, or the undescribed field value.
    pub depth_format: Result<DepthFormat, u32>,
}

impl FbLayout {
    /// The layout the registers select.
    ///
    /// UNVERIFIED(hw) [fact: fop-framebuffer-dim]: the dimensions come from GPUREG_FRAMEBUFFER_DIM (0x11E), the register
    /// Azahar addresses the buffers with; GPUREG_RENDERBUF_DIM (0x06E, "output framebuffer
    /// dimensions") is not used. Drivers write both with the same value (citro3d
    /// `C3Di_FrameBufBind`, ctrulib `GPU_SetViewport`), so which one the hardware uses for
    /// what is not observable from public material.
    pub fn from_regs(regs: &RegFile) -> Self {
        let dim = regs::FramebufferDim(regs.reg(id::FRAMEBUFFER_DIM.into()));
        Self {
            color_base: regs::ColorbufferLoc(regs.reg(id::COLORBUFFER_LOC.into())).addr() << 3,
            depth_base: regs::DepthbufferLoc(regs.reg(id::DEPTHBUFFER_LOC.into())).addr() << 3,
            width: dim.width(),
            height: dim.height_minus_1() + 1,
            block32: regs::FramebufferBlock32(regs.reg(id::FRAMEBUFFER_BLOCK32.into()))
                .block_mode()
                == regs::FramebufferBlock32Mode::Blocks32x32,
            color_format: ColorFormat::from_regs(regs),
            depth_format: DepthFormat::from_regs(regs),
        }
    }

    /// Physical address of the colour pixel at window `(x, y)`, if inside the buffer and the
    /// format is known.
    pub fn color_addr(&self, x: u32, y: u32) -> Option<u32> {
        let bpp = self.color_format.ok()?.bytes_per_pixel();
        let off = pixel_offset(x, y, self.width, self.height, bpp, self.block32)?;
        self.color_base.checked_add(off)
    }

    /// Physical address of the depth-stencil pixel at window `(x, y)`, if inside the buffer
    /// and the format is known.
    pub fn depth_addr(&self, x: u32, y: u32) -> Option<u32> {
        let bpp = self.depth_format.ok()?.bytes_per_pixel();
        let off = pixel_offset(x, y, self.width, self.height, bpp, self.block32)?;
        self.depth_base.checked_add(off)
    }
}

/// Reads the `len`-byte (1-4) pixel at `addr` as stored bits (lowest address = least
/// significant byte). The whole range must be mapped.
pub fn read_pixel(mem: &Memory, addr: u32, len: u32) -> Result<u32, Unmapped> {
    let len = len.min(4);
    if len == 4 {
        // The same region check, error and little-endian bytes as below, without the
        // variable-length copy (a library call per pixel; RGBA8 and D24S8 pixels are words).
        return mem.read_u32(addr);
    }
    if Memory::region_of(addr, len).is_none() {
        return Err(Unmapped { addr, len });
    }
    let mut bytes = [0u8; 4];
    mem.read_into(addr, bytes.get_mut(..len as usize).unwrap_or_default())?;
    Ok(u32::from_le_bytes(bytes))
}

/// Writes the low `len` bytes (1-4) of `bits` to `addr`, least significant byte first.
pub fn write_pixel(mem: &mut Memory, addr: u32, bits: u32, len: u32) -> Result<(), Unmapped> {
    let bytes = bits.to_le_bytes();
    let n = (len as usize).min(4);
    mem.write_bytes(addr, bytes.get(..n).unwrap_or(&[]))
}

/// The de-tiled picture of a `width` × `height` buffer of `bpp`-byte pixels at `base`
/// (8×8 tiles, or 32×32 blocks with `block32`): for each row top first and each column, the
/// RGBA that `pixel(stored bits)` gives, `[0, 0, 0, 0]` where the pixel lies outside mapped
/// memory.
fn read_image(
    mem: &Memory,
    (w, h, block32): (u32, u32, bool),
    base: u32,
    bpp: u32,
    pixel: impl Fn(u32) -> [u8; 4],
) -> Image {
    if w == 0 || h == 0 {
        return Image::empty();
    }
    let mut rgba = Vec::with_capacity(w as usize * h as usize * 4);
    for row in 0..h {
        // Row 0 of the picture is the top: window y = height - 1.
        let y = h - 1 - row;
        for x in 0..w {
            let px = pixel_offset(x, y, w, h, bpp, block32)
                .and_then(|off| base.checked_add(off))
                .and_then(|addr| read_pixel(mem, addr, bpp).ok())
                .map_or([0; 4], &pixel);
            rgba.extend_from_slice(&px);
        }
    }
    Image {
        width: w,
        height: h,
        rgba,
    }
}

/// What a buffer read by [`read_buffer_image`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferFormat {
    /// A colour buffer: decoded to RGBA8 as [`read_color_image`] does.
    Color(ColorFormat),
    /// A depth-stencil buffer: the depth as grey ([`depth_grey`]), as [`read_depth_image`]
    /// does.
    Depth(DepthFormat),
    /// The stencil bytes of a D24S8 buffer as grey (stencil value = grey level).
    Stencil,
}

impl BufferFormat {
    /// Bytes one pixel occupies.
    pub const fn bytes_per_pixel(self) -> u32 {
        match self {
            Self::Color(c) => c.bytes_per_pixel(),
            Self::Depth(d) => d.bytes_per_pixel(),
            Self::Stencil => DepthFormat::D24S8.bytes_per_pixel(),
        }
    }
}

/// Any buffer as a picture: `width` × `height` pixels of `format` at physical address `base`,
/// in 8×8 tiles or (`block32`) 32×32 blocks, de-tiled and decoded by the same code FOP
/// encodes with, top row first (memory row 0 is the top of the picture, as
/// [`read_color_image`] shows a colour buffer). Colour in the RGB8 byte order of `order`
/// (knob `fop-rgb8-order`); depth and stencil as grey with alpha 255. A pixel outside mapped
/// memory reads as `[0, 0, 0, 0]`; a width or height of 0 gives the 0×0 image. The caller
/// chooses sizes (the `pica run --dump` option checks them against memory first).
pub fn read_buffer_image(
    mem: &Memory,
    base: u32,
    (width, height): (u32, u32),
    block32: bool,
    format: BufferFormat,
    order: FopRgb8Order,
) -> Image {
    let dims = (width, height, block32);
    let bpp = format.bytes_per_pixel();
    match format {
        BufferFormat::Color(fmt) => read_image(mem, dims, base, bpp, |bits| {
            fmt.decode(fmt.reorder(bits, order))
        }),
        BufferFormat::Depth(fmt) => read_image(mem, dims, base, bpp, |bits| {
            let g = depth_grey(fmt, fmt.depth(bits));
            [g, g, g, 255]
        }),
        BufferFormat::Stencil => read_image(mem, dims, base, bpp, |bits| {
            let s = DepthFormat::D24S8.stencil(bits);
            [s, s, s, 255]
        }),
    }
}

/// The colour buffer the registers describe (COLORBUFFER_LOC / FORMAT, FRAMEBUFFER_DIM,
/// FRAMEBUFFER_BLOCK32), de-tiled and converted to RGBA8, top row first (the picture the
/// right way up: window y = height - 1 is row 0).
///
/// Never panics: a width of 0 or a colour format no source describes gives the 0×0 image; a
/// pixel outside mapped memory reads as `[0, 0, 0, 0]` (transparent black, distinct from
/// every decoded RGB565 / RGB8 pixel, whose alpha is 255). 16-bit formats are expanded to
/// 8 bits by bit replication ([`ColorFormat::decode`]).
pub fn read_color_image(regs: &RegFile, mem: &Memory) -> Image {
    let layout = FbLayout::from_regs(regs);
    let Ok(fmt) = layout.color_format else {
        return Image::empty();
    };
    read_buffer_image(
        mem,
        layout.color_base,
        (layout.width, layout.height),
        layout.block32,
        BufferFormat::Color(fmt),
        regs.knobs().fop_rgb8_order,
    )
}

/// The grey level shown for a depth value: its 8 most significant bits (D16: `depth >> 8`,
/// D24 / D24S8: `depth >> 16`), so 0 (near with the usual depth map) is black and the
/// largest depth white.
pub const fn depth_grey(format: DepthFormat, depth: u32) -> u8 {
    ((depth & format.depth_max()) >> (format.depth_bits() - 8)) as u8
}

/// The depth buffer (DEPTHBUFFER_LOC / FORMAT), de-tiled, depth scaled to 8-bit grey
/// (RGBA with alpha 255), top row first.
///
/// The grey level is [`depth_grey`]; the stencil byte of D24S8 is not shown. Never panics: a
/// width of 0 or the undescribed format 1 gives the 0×0 image; a pixel outside mapped memory
/// reads as `[0, 0, 0, 0]` (alpha 0 marks it, every real depth pixel has alpha 255).
pub fn read_depth_image(regs: &RegFile, mem: &Memory) -> Image {
    let layout = FbLayout::from_regs(regs);
    let Ok(fmt) = layout.depth_format else {
        return Image::empty();
    };
    read_buffer_image(
        mem,
        layout.depth_base,
        (layout.width, layout.height),
        layout.block32,
        BufferFormat::Depth(fmt),
        FopRgb8Order::default(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`read_pixel`]'s word path gives what the byte copy gives (value or error) at every
    /// alignment, across a page boundary, in pages never written, and at both ends of each
    /// region (where part of the word is unmapped).
    #[test]
    fn fb_read_pixel_word_is_the_byte_read() {
        let mut mem = Memory::new();
        let bytes: Vec<u8> = (0..64u8).map(|b| b.wrapping_mul(37) ^ 0x5A).collect();
        mem.write_bytes(0x1800_0FE0, &bytes).unwrap();
        let by_bytes = |addr: u32| {
            let mut b = [0u8; 4];
            mem.read_into(addr, &mut b).map(|()| u32::from_le_bytes(b))
        };
        let mut addrs: Vec<u32> = (0x1800_0FD8..0x1800_1028).collect();
        for r in crate::mem::REGIONS {
            let end = r.start + r.size;
            addrs.extend([r.start, r.start + 1, end - 4, end - 3, end - 1, end]);
            addrs.extend([
                r.start.wrapping_sub(1),
                r.start.wrapping_sub(4),
                r.start + 0x5000,
            ]);
        }
        addrs.extend([0, 0xFFFF_FFFC, 0xFFFF_FFFF]);
        for addr in addrs {
            assert_eq!(read_pixel(&mem, addr, 4), by_bytes(addr), "{addr:#x}");
        }
    }

    #[test]
    fn fb_morton_matches_the_pica_facts_tables() {
        let xs: Vec<u32> = (0..8).map(|x| morton_interleave(x, 0, 3)).collect();
        let ys: Vec<u32> = (0..8).map(|y| morton_interleave(0, y, 3)).collect();
        assert_eq!(xs, [0, 1, 4, 5, 16, 17, 20, 21]);
        assert_eq!(ys, [0, 2, 8, 10, 32, 34, 40, 42]);
        assert_eq!(morton_interleave(7, 7, 3), 63);
        assert_eq!(morton_interleave(31, 31, 5), 1023);
        // Only the low `bits` bits count.
        assert_eq!(morton_interleave(8, 9, 3), morton_interleave(0, 1, 3));
    }

    #[test]
    fn fb_bit_expansion_replicates() {
        assert_eq!(from_bits(0b10110, 5), 0b1011_0101);
        assert_eq!(from_bits(0x1F, 5), 0xFF);
        assert_eq!(from_bits(0b100000, 6), 0b1000_0010);
        assert_eq!(from_bits(0xA, 4), 0xAA);
        assert_eq!(from_bits(1, 1), 0xFF);
        assert_eq!(from_bits(0, 1), 0);
        for n in [1u32, 4, 5, 6] {
            for v in 0..(1u32 << n) {
                assert_eq!(to_bits(from_bits(v, n), n), v, "n={n} v={v}");
            }
        }
    }

    #[test]
    fn fb_offset_outside_is_none() {
        assert_eq!(pixel_offset(8, 0, 8, 8, 4, false), None);
        assert_eq!(pixel_offset(0, 8, 8, 8, 4, false), None);
        assert_eq!(pixel_offset(0, 0, 0, 8, 4, false), None);
        // The top row (window y = 7) is memory row 0.
        assert_eq!(pixel_offset(0, 7, 8, 8, 4, false), Some(0));
        assert_eq!(pixel_offset(7, 7, 8, 8, 4, false), Some(21 * 4));
    }
}
