//! Pictures: framebuffers written as PNG files (`--png`, `--depth-png`, and any buffer by
//! address with `--dump`).

use crate::input::InputError;
use pica_model::fop::fb::{read_buffer_image, BufferFormat, ColorFormat, DepthFormat, Image};
use pica_model::knobs::FopRgb8Order;
use pica_model::Memory;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Writes `img` (RGBA8, top row first) as a PNG file. An empty image (no framebuffer
/// configured) is an error naming the file.
pub fn write_png(path: &Path, img: &Image) -> Result<(), InputError> {
    let err = |e: &dyn std::fmt::Display| InputError(format!("{}: {e}", path.display()));
    if img.width == 0 || img.height == 0 {
        return Err(err(
            &"the framebuffer registers describe an empty picture (FRAMEBUFFER_DIM is 0?)",
        ));
    }
    let file = File::create(path).map_err(|e| err(&e))?;
    let mut enc = png::Encoder::new(BufWriter::new(file), img.width, img.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| err(&e))?;
    w.write_image_data(&img.rgba).map_err(|e| err(&e))?;
    w.finish().map_err(|e| err(&e))
}

/// A `--dump ADDR:WxH:FORMAT[:block32]=FILE` argument: any colour or depth buffer by address,
/// size and format, written as a PNG (right side up, as `--png` writes the registers' colour
/// buffer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpSpec {
    /// Physical address of the buffer's first byte.
    pub addr: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// What it holds.
    pub format: BufferFormat,
    /// 32×32 blocks (else 8×8 tiles).
    pub block32: bool,
    /// The PNG to write.
    pub path: PathBuf,
    /// The argument as given (for messages).
    pub text: String,
}

/// The `--dump` format names, as `(name, format)`.
pub const DUMP_FORMATS: [(&str, BufferFormat); 9] = [
    ("rgba8", BufferFormat::Color(ColorFormat::Rgba8)),
    ("rgb8", BufferFormat::Color(ColorFormat::Rgb8)),
    ("rgb5a1", BufferFormat::Color(ColorFormat::Rgb5a1)),
    ("rgb565", BufferFormat::Color(ColorFormat::Rgb565)),
    ("rgba4", BufferFormat::Color(ColorFormat::Rgba4)),
    ("d16", BufferFormat::Depth(DepthFormat::D16)),
    ("d24", BufferFormat::Depth(DepthFormat::D24)),
    ("d24s8", BufferFormat::Depth(DepthFormat::D24S8)),
    ("s8", BufferFormat::Stencil),
];

/// The largest width or height `--dump` takes (GPUREG_FRAMEBUFFER_DIM holds at most 2047 ×
/// 1024; a little room above that for buffers the registers do not describe).
pub const DUMP_MAX_DIM: u32 = 2048;

impl std::str::FromStr for DumpSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = |why: String| {
            format!(
                "--dump '{s}': {why} (expected ADDR:WxH:FORMAT[:block32]=FILE, FORMAT one of {})",
                DUMP_FORMATS.map(|(n, _)| n).join(", ")
            )
        };
        let (spec, file) = s.split_once('=').ok_or_else(|| bad("no '=FILE'".into()))?;
        if file.is_empty() {
            return Err(bad("missing file name".into()));
        }
        let parts: Vec<&str> = spec.split(':').collect();
        let (addr, dim, fmt, tiling) = match parts.as_slice() {
            [a, d, f] => (*a, *d, *f, None),
            [a, d, f, t] => (*a, *d, *f, Some(*t)),
            _ => return Err(bad("wrong number of ':' fields".into())),
        };
        let addr = crate::input::parse_u32(addr).map_err(bad)?;
        let (w, h) = dim
            .split_once(['x', 'X'])
            .ok_or_else(|| bad(format!("size '{dim}' is not WxH")))?;
        let num = |v: &str| {
            v.parse::<u32>()
                .map_err(|_| bad(format!("size '{dim}': '{v}' is not a number")))
        };
        let (width, height) = (num(w)?, num(h)?);
        let format = DUMP_FORMATS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(fmt))
            .map(|(_, f)| *f)
            .ok_or_else(|| bad(format!("unknown format '{fmt}'")))?;
        let block32 = match tiling {
            None | Some("block8") => false,
            Some("block32") => true,
            Some(t) => {
                return Err(bad(format!(
                    "unknown tiling '{t}' (block8, the default, or block32)"
                )))
            }
        };
        let tile = if block32 { 32 } else { 8 };
        if width == 0 || height == 0 || width % tile != 0 || height % tile != 0 {
            return Err(bad(format!(
                "size {width}x{height} is not a non-zero multiple of the {tile}x{tile} {}",
                if block32 { "block" } else { "tile" }
            )));
        }
        if width > DUMP_MAX_DIM || height > DUMP_MAX_DIM {
            return Err(bad(format!(
                "size {width}x{height} is larger than {DUMP_MAX_DIM}x{DUMP_MAX_DIM}"
            )));
        }
        Ok(DumpSpec {
            addr,
            width,
            height,
            format,
            block32,
            path: PathBuf::from(file),
            text: s.to_string(),
        })
    }
}

impl DumpSpec {
    /// Bytes the buffer occupies.
    pub fn bytes(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(self.format.bytes_per_pixel())
    }

    /// The buffer as a picture, decoded by the model's framebuffer code
    /// ([`read_buffer_image`]); the whole buffer must lie in mapped memory.
    pub fn image(&self, mem: &Memory, rgb8_order: FopRgb8Order) -> Result<Image, InputError> {
        let len = u32::try_from(self.bytes()).unwrap_or(u32::MAX);
        if Memory::region_of(self.addr, len).is_none() {
            return Err(InputError(format!(
                "--dump {}: 0x{:08x}..0x{:08x} ({} bytes) is not inside VRAM (0x18000000-0x185fffff) or FCRAM (0x20000000-0x27ffffff)",
                self.text,
                self.addr,
                u64::from(self.addr) + self.bytes(),
                self.bytes()
            )));
        }
        Ok(read_buffer_image(
            mem,
            self.addr,
            (self.width, self.height),
            self.block32,
            self.format,
            rgb8_order,
        ))
    }

    /// Writes the PNG.
    pub fn write(&self, mem: &Memory, rgb8_order: FopRgb8Order) -> Result<(), InputError> {
        write_png(&self.path, &self.image(mem, rgb8_order)?)
    }
}
