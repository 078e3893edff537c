//! Pictures: framebuffers written as PNG files.

use crate::input::InputError;
use pica_model::fop::fb::Image;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

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
