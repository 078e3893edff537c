//! shadow/map: a shadow map rendered in shadow mode, then sampled as a shadow texture.
//!
//! Pass 1 renders into a 32×32 RGBA8 buffer in texture memory (cleared to 0xFF: farthest,
//! unshadowed, intensity 255) with GPUREG_COLOR_OPERATION fragment mode "shadow" and
//! GPUREG_FRAGOP_SHADOW = (1, -0) (penumbra divisor exactly 1), two occluder quads at depth 0.25
//! over the centre (pixels 8-23 of rows 8-23). The shadow intensity of a fragment is its
//! combiner output's green channel (the vertex colour here):
//! - the left one (pixels 8-15) is black, green 0: an opaque occluder, which writes its depth
//!   (the hard shadow);
//! - the right one (pixels 16-23) is grey 0.5, green round(127.5) = 128: a translucent occluder,
//!   which keeps the stored depth and lowers the intensity to min(255, 128 / 1) = 128 (a soft
//!   shadow).
//!
//! The "light" looks along the same axis as the camera, orthographically, so the light-space
//! position of a pixel is its own screen position.
//! Pass 2 switches back to the scene's framebuffer and draws a white receiver quad at depth 0.5
//! with texture unit 0 a 2D shadow texture over the map (texcoord0 = screen position in [0, 1],
//! w = 0.5, the receiver's light-space depth); combiner stage 0 modulates the primary colour by
//! texture 0: black behind the opaque occluder (its depth 0.25 is nearer than 0.5), grey 128
//! behind the translucent one (depth unchanged, intensity 128), white elsewhere.

use super::{screen_pass, setup32, texture_target, R};
use crate::builder::attrs::{textured_rect, FullVertex};
use crate::builder::texenv::TexEnv;
use crate::builder::texture::{TexConfig, TexUnit};
use pica_model::regs::{
    self, ColorOperationFragmentMode, PrimitiveConfigMode, TexenvSourceInput as Src,
    TexunitParamType, TexunitTypeFormat as Fmt,
};

/// Size of the shadow map.
const MAP: u32 = 32;

pub(super) fn map() -> R {
    let mut b = setup32()?;
    // Pass 1: the shadow map.
    let map_addr = texture_target(&mut b, MAP, 0xFF)?;
    b.fragment_mode(ColorOperationFragmentMode::Shadow);
    b.fragop_shadow(0.0, 1.0);
    let opaque = super::rect(-0.5, -0.5, 0.0, 0.5, -0.25, [0.0, 0.0, 0.0, 1.0]);
    let translucent = super::rect(0.0, -0.5, 0.5, 0.5, -0.25, [0.5, 0.5, 0.5, 1.0]);
    for occluder in [opaque, translucent] {
        b.vertex_array(&occluder);
        b.draw_arrays(PrimitiveConfigMode::TriangleStrip, 0, 4);
    }
    // Pass 2: the receiver, in the scene's framebuffer.
    screen_pass(&mut b)?;
    let mut t =
        TexUnit::new(map_addr, MAP, MAP, Fmt::Rgba8888).with_type(TexunitParamType::Shadow2D);
    t.shadow = Some(
        regs::TexunitShadow(0)
            .with_orthographic(true)
            .with_z_bias(0),
    );
    b.texture_unit(0, &t);
    b.texunit_config(&TexConfig::units([true, false, false]));
    b.texenvs(&[TexEnv::modulate(Src::PrimaryColor, Src::Texture0)]);
    let receiver: Vec<FullVertex> =
        textured_rect([-0.75, -0.75, 0.75, 0.75], [0.125, 0.125, 0.875, 0.875])
            .into_iter()
            .map(|v| {
                let [u, vv, _] = v.tc0;
                v.with_tc0([u, vv, 0.5])
                    .with_pos([v.pos[0], v.pos[1], -0.5, 1.0])
            })
            .collect();
    b.full_vertex_array(&receiver);
    b.draw_arrays(PrimitiveConfigMode::TriangleStrip, 0, 4);
    Ok(b)
}
