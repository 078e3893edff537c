//! Procedural-texture scenes: texture unit 3 on texture coordinates 0 over a full-screen quad
//! (u, v from 0 to 1, or as said), combiner stage 0 replacing colour and alpha with texture 3.
//!
//! Common tables: the RGB and alpha mapping LUTs are the identity ramp (entry i = i/128,
//! difference 1/128: value 32i and difference 32 in fixed0.0.12), the colour LUT holds the
//! eight solid colours of [`COLORS`] at entries 0-7 with colour differences 0, the LUT width is
//! 8 at offset 0. So with mapping function U, no noise, no shift and clamp to edge, the pixel
//! at u shows `COLORS[floor(u · 7)]` (the colour index is map value × (width − 1) + offset).

use super::{setup, R};
use crate::builder::attrs::textured_rect;
use crate::builder::texenv::TexEnv;
use crate::builder::texture::TexConfig;
use crate::builder::Builder;
use pica_model::regs::{
    self, PrimitiveConfigMode, ProctexClamp, ProctexLutTable, ProctexMappingFunction as Map,
    ProctexMinFilter, ProctexShift, TexenvSourceInput as Src, TexunitConfigTexture3Coords,
};

/// The colour LUT's first eight entries (RGBA).
pub const COLORS: [[u8; 4]; 8] = [
    [0xFF, 0x00, 0x00, 0xFF],
    [0x00, 0xFF, 0x00, 0xFF],
    [0x00, 0x00, 0xFF, 0xFF],
    [0xFF, 0xFF, 0xFF, 0xFF],
    [0xFF, 0xFF, 0x00, 0x80],
    [0x00, 0xFF, 0xFF, 0x80],
    [0xFF, 0x00, 0xFF, 0x40],
    [0x80, 0x80, 0x80, 0x00],
];

/// The identity ramp of the mapping and noise LUTs (128 entries of value 32i, difference 32,
/// the last difference 0).
fn ramp() -> Vec<u32> {
    (0..128u32)
        .map(|i| (32 * i) | (if i < 127 { 32 } else { 0 }) << 12)
        .collect()
}

/// A proctex variant.
#[derive(Clone, Copy)]
struct Variant {
    clamp: ProctexClamp,
    rgb: Map,
    alpha: Map,
    separate_alpha: bool,
    noise: bool,
    shift: ProctexShift,
    /// u and v at the left / bottom and right / top edges.
    range: [f32; 2],
    /// Mipmapped: the colour table holds one colour a level and the quad is drawn as the four
    /// strips of [`mipmap`].
    mip: bool,
}

const BASE: Variant = Variant {
    clamp: ProctexClamp::ClampToEdge,
    rgb: Map::U,
    alpha: Map::U,
    separate_alpha: false,
    noise: false,
    shift: ProctexShift::None,
    range: [0.0, 1.0],
    mip: false,
};

/// The colour-table offsets of mipmap levels 0-3 (PROCTEX5; citro3d's defaults) and the
/// hardcoded ones of levels 4-7 (seed 002): level `L` of the mipmapped colour table occupies
/// entries `MIP_OFFSETS[L]..MIP_OFFSETS[L + 1]` and holds `COLORS[L]`.
const MIP_OFFSETS: [usize; 9] = [0, 0x80, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC, 0xFE, 0x100];

fn scene(v: Variant) -> R {
    let mut b: Builder = setup(32, 32)?;
    b.full_vertex_shader()?;
    b.texenvs(&[TexEnv::replace(Src::Texture3)]);
    let mut config = TexConfig::units([false, false, false]);
    config.proctex = true;
    config.proctex_coords = TexunitConfigTexture3Coords::Texture0;
    b.texunit_config(&config);
    // Noise: amplitude 0.25 (fixed1.3.12 0x400), phase 0, frequency 2 (f16 0x4000) in u and v.
    let noise = |amp: u32| amp;
    b.proctex(&[
        regs::Texunit3Proctex0(0)
            .with_u_clamp(v.clamp)
            .with_v_clamp(v.clamp)
            .with_rgb_func(v.rgb)
            .with_alpha_func(v.alpha)
            .with_separate_alpha(v.separate_alpha)
            .with_noise_enabled(v.noise)
            .with_u_shift(v.shift)
            .with_v_shift(v.shift)
            .with_bias_low(if v.mip { MIP_BIAS & 0xFF } else { 0 })
            .0,
        regs::Texunit3Proctex1(noise(0x400)).0,
        regs::Texunit3Proctex2(noise(0x400)).0,
        regs::Texunit3Proctex3(0)
            .with_u_noise_frequency(0x4000)
            .with_v_noise_frequency(0x4000)
            .0,
        regs::Texunit3Proctex4(0)
            .with_min_filter(if v.mip {
                ProctexMinFilter::NearestMipmapLinear
            } else {
                ProctexMinFilter::Nearest
            })
            .with_min_lod(0)
            .with_max_lod(6)
            .with_width(8)
            .with_bias_high(if v.mip { MIP_BIAS >> 8 } else { 0 })
            .0,
        regs::Texunit3Proctex5(0)
            .with_level0_offset(0)
            .with_level1_offset(0x80)
            .with_level2_offset(0xC0)
            .with_level3_offset(0xE0)
            .0,
    ]);
    b.proctex_lut(ProctexLutTable::Noise, 0, &ramp());
    b.proctex_lut(ProctexLutTable::RgbMap, 0, &ramp());
    // The alpha map falls instead of rising, so separate alpha shows.
    let falling: Vec<u32> = ramp().into_iter().rev().map(|e| e & 0xFFF).collect();
    b.proctex_lut(ProctexLutTable::AlphaMap, 0, &falling);
    let colors: Vec<u32> = (0..256)
        .map(|i| {
            let c = if v.mip {
                MIP_OFFSETS.iter().filter(|&&o| o <= i).count() - 1
            } else {
                i.min(7)
            };
            u32::from_le_bytes(COLORS[c])
        })
        .collect();
    b.proctex_lut(ProctexLutTable::Color, 0, &colors);
    b.proctex_lut(ProctexLutTable::ColorDiff, 0, &[0; 256]);
    let [lo, hi] = v.range;
    let quads = if v.mip {
        MIP_STRIPS.to_vec()
    } else {
        vec![([-1.0, 1.0], [lo, lo, hi, hi])]
    };
    for ([y0, y1], uv) in quads {
        let quad = textured_rect([-1.0, y0, 1.0, y1], uv);
        b.full_vertex_array(&quad);
        b.draw_arrays(PrimitiveConfigMode::TriangleStrip, 0, 4);
    }
    Ok(b)
}

/// The LOD bias of proctex/mipmap: f16 1.0, split over PROCTEX0 bits 20-27 (low byte) and
/// PROCTEX4 bits 19-26 (high byte).
const MIP_BIAS: u32 = 0x3C00;

/// proctex/mipmap's four full-width strips (clip y range, then u0, v0, u1, v1), each 8 pixels
/// tall on the 32×32 target. With width 8 and bias 1 the LOD is
/// `log2(8 · (max |du| + max |dv|))` per pixel:
/// - top (clip y 0.5..1): u 0..4 over 32 pixels, du = 1/8: 8 · 1/8 = 1 → LOD 0;
/// - u 0..8, du = 1/4: 2 → LOD 1;
/// - u 0..8 and v 0..1 over 8 rows (dv = 1/8): 2 + 1 = 3 → LOD 1.5, levels 1 and 2 half and
///   half;
/// - bottom: u 0..32, du = 1: 8 → LOD 3.
///
/// The ranges are powers of two so the interpolated coordinates and their differences are
/// exact in f24.
const MIP_STRIPS: [([f32; 2], [f32; 4]); 4] = [
    ([0.5, 1.0], [0.0, 0.5, 4.0, 0.5]),
    ([0.0, 0.5], [0.0, 0.5, 8.0, 0.5]),
    ([-0.5, 0.0], [0.0, 0.0, 8.0, 1.0]),
    ([-1.0, -0.5], [0.0, 0.5, 32.0, 0.5]),
];

/// Mipmapped colour table (filter nearest, mipmap linear, bias 1.0, levels 0-3 at offsets 0,
/// 0x80, 0xC0, 0xE0, each level one colour of [`COLORS`]): four strips at LOD 0, 1, 1.5 and 3
/// ([`MIP_STRIPS`]) show red, green, green/blue half and half, and white.
pub(super) fn mipmap() -> R {
    scene(Variant { mip: true, ..BASE })
}

/// Mapping U, clamp to edge: eight vertical bands of [`COLORS`] (7 visible steps).
pub(super) fn u_clamp_edge() -> R {
    scene(BASE)
}

/// Mapping (U² + V²) / 2 over u, v from -1 to 2 with mirrored repeat.
pub(super) fn u2v2_mirror() -> R {
    scene(Variant {
        clamp: ProctexClamp::MirroredRepeat,
        rgb: Map::USquaredPlusVSquared,
        alpha: Map::USquaredPlusVSquared,
        range: [-1.0, 2.0],
        ..BASE
    })
}

/// Mapping sqrt(U² + V²) with pulse clamping over -1 to 2.
pub(super) fn sqrt_pulse() -> R {
    scene(Variant {
        clamp: ProctexClamp::Pulse,
        rgb: Map::Sqrt,
        alpha: Map::Sqrt,
        range: [-1.0, 2.0],
        ..BASE
    })
}

/// Mapping min(U, V) with symmetrical repeat and odd shift over -1 to 2.
pub(super) fn min_shift_odd() -> R {
    scene(Variant {
        clamp: ProctexClamp::SymmetricalRepeat,
        rgb: Map::Min,
        alpha: Map::Min,
        shift: ProctexShift::Odd,
        range: [-1.0, 2.0],
        ..BASE
    })
}

/// Mapping U with noise on (amplitude 0.25, frequency 2, the ramp as noise table).
pub(super) fn noise() -> R {
    scene(Variant {
        noise: true,
        ..BASE
    })
}

/// Mapping U for RGB, V for alpha with a separate (falling) alpha mapping table.
pub(super) fn separate_alpha() -> R {
    scene(Variant {
        separate_alpha: true,
        alpha: Map::V,
        ..BASE
    })
}

/// Mapping Rmax with clamp to zero, over -1 to 2.
pub(super) fn rmax_clamp_zero() -> R {
    scene(Variant {
        clamp: ProctexClamp::ClampToZero,
        rgb: Map::Rmax,
        alpha: Map::Max,
        range: [-1.0, 2.0],
        ..BASE
    })
}
