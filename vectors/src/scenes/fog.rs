//! Fog scenes: a full-screen white quad whose depth runs from 0.125 (left) to 0.875 (right),
//! fog colour [`FOG`], and a fog LUT that is 0 up to entry 32 and ramps to 0x7FF at entry 96
//! ([`fog_lut_ramp`]): the near quarter is pure fog colour, the far end almost the quad's own.

use super::{setup32, R};
use crate::builder::effects::fog_lut_ramp;
use crate::builder::Vertex;
use pica_model::regs::{
    PrimitiveConfigMode, TexenvUpdateBufferDensitySource, TexenvUpdateBufferFogMode,
};

/// The fog colour.
pub const FOG: [u8; 3] = [0x40, 0x80, 0xC0];

/// The depth-varying quad: clip z -0.125 at x = -1 to -0.875 at x = 1 (depth = -z).
fn sloped_quad() -> [Vertex; 4] {
    let w = [1.0; 4];
    [
        Vertex::xyz(-1.0, -1.0, -0.125, w),
        Vertex::xyz(1.0, -1.0, -0.875, w),
        Vertex::xyz(-1.0, 1.0, -0.125, w),
        Vertex::xyz(1.0, 1.0, -0.875, w),
    ]
}

fn fog_scene(z_flip: bool) -> R {
    let mut b = setup32()?;
    b.fog_mode(
        TexenvUpdateBufferFogMode::Fog,
        TexenvUpdateBufferDensitySource::PlainDensity,
        z_flip,
    );
    b.fog_color(FOG);
    b.fog_lut(&fog_lut_ramp(32, 96));
    b.vertex_array(&sloped_quad());
    b.draw_arrays(PrimitiveConfigMode::TriangleStrip, 0, 4);
    Ok(b)
}

pub(super) fn linear() -> R {
    fog_scene(false)
}

/// The same with GPUREG_TEXENV_UPDATE_BUFFER z flip: the LUT is indexed by 1 - depth, so the
/// fog colour is at the far (right) end.
pub(super) fn zflip() -> R {
    fog_scene(true)
}
