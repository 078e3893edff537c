//! Shadow mode of FOP (GPUREG_COLOR_OPERATION fragment_mode = 3): the shadow-map write.
//!
//! In shadow mode the colour buffer is a shadow map: every pixel holds a 24-bit depth (the
//! nearest occluder seen from the light) and an 8-bit intensity (the penumbra: how much light
//! passes a soft occluder). Facts from Azahar
//! (`video_core/shader/generator/glsl_fs_shader_gen.cpp`, `WriteShadow`, `UpdateShadow`,
//! `DecodeShadow`/`EncodeShadow`):
//!
//! - the fragment's depth as 24 bits `d` and its intensity `s` = the combiner output's
//!   **green** channel;
//! - the stored pixel is a 32-bit word `(depth << 8) | intensity`;
//! - update: only if `d < depth`: with `s = 0` (an opaque occluder) the depth becomes `d`;
//!   otherwise the intensity becomes `min(intensity, s / (C + L · d / depth))`, the depth
//!   stays. `C` and `L` are GPUREG_FRAGOP_SHADOW bits 0-15 and 16-31 (f16; the seed names
//!   them "penumbra scale + bias" and "-penumbra scale", Azahar `shadow.constant` /
//!   `shadow.linear`), so the divisor is `bias + scale · (1 - d / depth)`;
//! - no depth buffer is used (Azahar's GL renderer binds no depth surface when shadow
//!   rendering), no blending, no logic op.
//!
//! The model's arithmetic ([`penumbra`]) is exact integer arithmetic on the f16 values and
//! floors the quotient. Azahar's two renderers compute it differently:
//!
//! - the GLSL generator (`UpdateShadow`) in host float, truncated with `uint()`;
//! - the software renderer (`video_core/renderer_software/sw_framebuffer.cpp`,
//!   `DrawShadowMapPixel`) in f16: `x_ = f16(depth / ref_z)`, then
//!   `f16(s) / (constant + linear · x_)` (each operation rounded to f16), the quotient clamped
//!   to 0-255 and truncated to 8 bits, and the intensity written only if it is below the
//!   stored one (the same outcome as the `min`).
//!
//! UNVERIFIED(hw) [fact: fop-shadow-precision]: the hardware's precision is unknown. The f16 roundings (11 significant
//! bits) can carry a quotient across an integer, so the model's intensity can differ by 1
//! from the software renderer's (and from the GLSL path's, by its float rounding).
//!
//! Stored-word layout in memory: bytes 0, 1, 2 hold depth bits 23-16, 15-8, 7-0 and byte 3
//! the intensity; in the model's RGBA8 terms ([`super::fb`]) depth bits 23-16 are alpha, 15-8
//! blue, 7-0 green, and the intensity is red. Azahar's software renderer states the layout
//! directly (`sw_framebuffer.cpp`: `DecodeD24S8Shadow` reads the depth as
//! `bytes[0] << 16 | bytes[1] << 8 | bytes[2]` and the intensity as `bytes[3]`,
//! `EncodeD24X8Shadow` writes the depth bytes in that order, `EncodeX24S8Shadow` byte 3).
//! Its GL renderer agrees: it binds the RGBA8 colour surface as an `r32ui` image and packs
//! `(depth << 8) | intensity` into it; its RGBA8 surfaces come from PICA memory through
//! `GL_UNSIGNED_INT_8_8_8_8` (red = the byte at offset 3), and the `r32ui` view reads the
//! texel's bytes in red, green, blue, alpha order as a little-endian word, so that word is the
//! byte swap of the memory word. UNVERIFIED(hw) [fact: fop-shadow-word-layout]: never checked against a
//! shadow map a real GPU wrote (see [`SHADOW_WORD_BYTE_SWAPPED`]).
//!
//! Other rules (UNVERIFIED(hw) [fact: fop-shadow-enables], model choices): the colour read / write enables apply as in
//! default mode (a disabled read sees the word 0, so nothing is nearer and nothing changes);
//! the channel write masks do not apply (the word is written whole); with a colour format
//! other than RGBA8 the pixel is decoded to RGBA, handled as the RGBA8 word and encoded back
//! (lossy, but defined). The depth is [`super::depth_to_24`] of the fragment's depth, which
//! RAST quantized to the depth-buffer format (a deviation from Azahar for D16, see
//! [`process`]). The alpha test runs, and FOG has fogged the colour, before the shadow write
//! (Azahar's GLSL order; its software renderer writes first, see
//! [`super::process_fragment`]).

use super::{FopConfig, FopHang, PixelSite};
use crate::beat::PixelBeat;
use crate::knobs::FopShadowWord;
use crate::mem::Memory;
use crate::num::F16;
use crate::pipe::Fragment;
use crate::regfile::RegFile;
use crate::regs::{self, id};

/// Whether the shadow word `(depth << 8) | intensity` sits byte-swapped in the RGBA8 stored
/// bits (see the module docs).
///
/// UNVERIFIED(hw) [fact: fop-shadow-word-layout]: `true` — directly Azahar's software renderer (`sw_framebuffer.cpp`
/// `DecodeD24S8Shadow` / `EncodeD24X8Shadow`: byte 0 = depth bits 23-16, byte 1 = 15-8,
/// byte 2 = 7-0, byte 3 = intensity, i.e. the little-endian stored bits are the word
/// byte-swapped), and what its GL renderer's mapping of PICA RGBA8 memory to a GL surface
/// viewed as `r32ui` gives; never checked against a shadow map a real GPU wrote. With `false`
/// the word would be the stored bits as they are (depth in red, green, blue; intensity in
/// alpha).
pub const SHADOW_WORD_BYTE_SWAPPED: bool = true;

/// Which channel of the combiner output (`[r, g, b, a]`) is the shadow intensity: green
/// (Azahar `WriteShadow`: `s = uint(combiner_output.g * 255)`).
pub const INTENSITY_SOURCE: usize = 1;

/// GPUREG_FRAGOP_SHADOW.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShadowConfig {
    /// Bits 0-15: penumbra scale + bias (Azahar `shadow.constant`).
    pub constant: F16,
    /// Bits 16-31: -penumbra scale (Azahar `shadow.linear`).
    pub linear: F16,
}

impl ShadowConfig {
    /// Decodes GPUREG_FRAGOP_SHADOW.
    pub fn from_regs(regs: &RegFile) -> Self {
        let r = regs::FragopShadow(regs.reg(id::FRAGOP_SHADOW.into()));
        Self {
            constant: F16::from_bits(r.penumbra_scale_plus_bias()),
            linear: F16::from_bits(r.neg_penumbra_scale()),
        }
    }
}

/// The shadow word `(depth << 8) | intensity` held in RGBA8 stored bits `bits`.
pub const fn word_from_stored(bits: u32) -> u32 {
    if SHADOW_WORD_BYTE_SWAPPED {
        bits.swap_bytes()
    } else {
        bits
    }
}

/// The RGBA8 stored bits that hold the shadow word `word`.
pub const fn stored_from_word(word: u32) -> u32 {
    word_from_stored(word)
}

/// `(depth, intensity)` of RGBA8 stored bits.
pub const fn decode(bits: u32) -> (u32, u8) {
    let w = word_from_stored(bits);
    (w >> 8, (w & 0xFF) as u8)
}

/// The RGBA8 stored bits of `(depth, intensity)` (the depth masked to 24 bits).
pub const fn encode(depth: u32, intensity: u8) -> u32 {
    stored_from_word((depth & 0xFF_FFFF) << 8 | intensity as u32)
}

/// [`decode`] with knob `fop-shadow-word`: [`FopShadowWord::Native`] reads the word from the
/// stored bits as they are (no byte swap).
pub const fn decode_with(bits: u32, layout: FopShadowWord) -> (u32, u8) {
    match layout {
        FopShadowWord::Swapped => decode(bits),
        FopShadowWord::Native => (bits >> 8, (bits & 0xFF) as u8),
    }
}

/// [`encode`] with knob `fop-shadow-word` (see [`decode_with`]).
pub const fn encode_with(depth: u32, intensity: u8, layout: FopShadowWord) -> u32 {
    match layout {
        FopShadowWord::Swapped => encode(depth, intensity),
        FopShadowWord::Native => (depth & 0xFF_FFFF) << 8 | intensity as u32,
    }
}

/// An f16 as `(mantissa, exponent)` with value `mantissa · 2^exponent` (mantissa signed,
/// exponent in -24..=5); `None` for infinities and NaN.
fn f16_parts(x: F16) -> Option<(i128, i32)> {
    if !x.is_finite() {
        return None;
    }
    let bits = x.bits();
    let e = ((bits >> 10) & 0x1F) as i32;
    let m = i128::from(bits & 0x3FF);
    let (mant, exp) = if e == 0 {
        (m, -24)
    } else {
        (m | 0x400, e - 25)
    };
    Some((if x.is_sign_negative() { -mant } else { mant }, exp))
}

/// The penumbra intensity `floor(s / (C + L · d / depth))`, saturated to 0..=255, of a
/// fragment of intensity `s` at depth `d` in front of the stored `depth` (`d < depth`).
///
/// Exact: with `C = mc · 2^ec`, `L = ml · 2^el` the divisor times `depth · 2^24` is the
/// integer `N = mc · depth · 2^(ec+24) + ml · d · 2^(el+24)` and the result is
/// `floor(s · depth · 2^24 / N)`.
///
/// UNVERIFIED(hw) [fact: fop-shadow-precision]: where the divisor is not a positive finite number the hardware's result is
/// unknown (Azahar converts a negative or infinite float to `uint`, which GLSL leaves
/// undefined). Model choice: a divisor ≤ 0 or NaN (either register NaN, or +∞ and -∞ meeting)
/// gives 255 (the stored intensity is kept by the `min`); a divisor of +∞ gives 0; a divisor
/// of -∞ gives 255. `depth = 0` cannot occur (`d < depth`) and gives 255.
pub fn penumbra(cfg: &ShadowConfig, s: u8, d: u32, depth: u32) -> u8 {
    let (d, depth) = (d & 0xFF_FFFF, depth & 0xFF_FFFF);
    if depth == 0 {
        return 255;
    }
    match (f16_parts(cfg.constant), f16_parts(cfg.linear)) {
        (Some((mc, ec)), Some((ml, el))) => {
            // ec + 24, el + 24 are in 0..=29: every term stays below 2^11 · 2^24 · 2^29.
            let n = ((mc * i128::from(depth)) << (ec + 24)) + ((ml * i128::from(d)) << (el + 24));
            if n <= 0 {
                return 255;
            }
            let q = ((i128::from(s) * i128::from(depth)) << 24) / n;
            q.min(255) as u8
        }
        (c, l) => {
            // At least one infinity or NaN. `L · d / depth` has the sign of L (d may be 0:
            // then an infinite L gives NaN, as ∞ · 0).
            let inf_sign = |x: F16, p: Option<(i128, i32)>, factor_zero: bool| -> Option<i32> {
                match p {
                    Some(_) => Some(0),
                    None if x.is_nan() || factor_zero => None,
                    None if x.is_sign_negative() => Some(-1),
                    None => Some(1),
                }
            };
            let sc = inf_sign(cfg.constant, c, false);
            let sl = inf_sign(cfg.linear, l, d == 0);
            match (sc, sl) {
                (Some(a), Some(b)) if a + b > 0 && a >= 0 && b >= 0 => 0,
                _ => 255,
            }
        }
    }
}

/// The stored `(depth, intensity)` after a fragment at depth `d` with intensity `s`
/// (Azahar `UpdateShadow`, see the module docs).
pub fn update(cfg: &ShadowConfig, stored: (u32, u8), d: u32, s: u8) -> (u32, u8) {
    let (depth, intensity) = stored;
    let d = d & 0xFF_FFFF;
    if d >= depth {
        return stored;
    }
    if s == 0 {
        (d, intensity)
    } else {
        (depth, intensity.min(penumbra(cfg, s, d, depth)))
    }
}

/// Shadow mode for one fragment that passed the alpha test (see the module docs). Fills
/// `beat` (no depth-stencil access: its address stays in the beat, its bits read 0).
///
/// UNVERIFIED(hw) [fact: fop-shadow-order], order: the model runs the alpha test before this and FOG's fog has already
/// changed `src`, as in Azahar's GLSL generator; Azahar's software renderer writes the shadow
/// map before its alpha test and fog (see [`super::process_fragment`]).
pub fn process(
    cfg: &FopConfig,
    site: &PixelSite,
    frag: &Fragment,
    src: [u8; 4],
    mem: &mut Memory,
    beat: &mut PixelBeat,
) -> Result<(), FopHang> {
    // UNVERIFIED(hw) [fact: fop-shadow-depth]: the fragment depth as RAST quantized it to the depth-buffer format
    // (GPUREG_DEPTHBUFFER_FORMAT), widened to 24 bits — model choice. Both Azahar renderers
    // take the unquantized depth: `sw_rasterizer.cpp` passes `depth * 0xFFFFFF` (truncated)
    // to `DrawShadowMapPixel`, the GLSL `WriteShadow` `uint(clamp(depth, 0.0, 1.0) *
    // float(0xFFFFFF))`. With D24 / D24S8 the two agree (RAST's `floor(depth · 0xFFFFFF)`, up
    // to Azahar's float rounding); with D16 the model's low 8 bits are replicated from the top
    // bits instead of kept, so 8 bits of precision are lost.
    let d = super::depth_to_24(site.depth_fmt, frag.depth);
    let s = src[INTENSITY_SOURCE];
    let dst_bits = site.read_color(cfg, mem)?;
    beat.color = dst_bits;
    let rgba = site
        .color_fmt
        .decode(site.color_fmt.reorder(dst_bits, cfg.rgb8_order));
    let stored = decode_with(u32::from_be_bytes(rgba), cfg.shadow_word);
    let (depth, intensity) = update(&cfg.shadow, stored, d, s);
    let out = site.color_fmt.reorder(
        site.color_fmt
            .encode(encode_with(depth, intensity, cfg.shadow_word).to_be_bytes()),
        cfg.rgb8_order,
    );
    site.write_color(cfg, mem, out, beat)?;
    tracing::trace!(target: "fop", x = frag.x, y = frag.y, d, s, depth, intensity,
        "shadow map updated");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(constant: u32, linear: u32) -> ShadowConfig {
        ShadowConfig {
            constant: F16::from_bits(constant),
            linear: F16::from_bits(linear),
        }
    }

    #[test]
    fn shadow_word_layout_is_byte_swapped_rgba8() {
        // depth 0x123456, intensity 0x78: word 0x1234_5678, memory bytes 12 34 56 78, so the
        // little-endian stored bits are 0x7856_3412.
        assert_eq!(encode(0x12_3456, 0x78), 0x7856_3412);
        assert_eq!(decode(0x7856_3412), (0x12_3456, 0x78));
    }

    #[test]
    fn shadow_penumbra_exact_quotients() {
        // C = 1.0 (0x3C00), L = -0.5 (0xB800), d / depth = 1/2: divisor 0.75, 150 / 0.75 = 200.
        assert_eq!(
            penumbra(&cfg(0x3C00, 0xB800), 150, 0x40_0000, 0x80_0000),
            200
        );
        // Divisor 0.5 with s = 200: 400, saturated.
        assert_eq!(penumbra(&cfg(0x3800, 0), 200, 1, 2), 255);
        // C = 2.0, L = 0: 255 / 2 = 127.5 → 127.
        assert_eq!(penumbra(&cfg(0x4000, 0), 255, 1, 2), 127);
    }

    #[test]
    fn shadow_penumbra_degenerate_divisors_never_panic() {
        // Zero divisor, negative divisor, NaN, infinities.
        assert_eq!(penumbra(&cfg(0, 0), 10, 1, 2), 255);
        assert_eq!(penumbra(&cfg(0xBC00, 0), 10, 1, 2), 255);
        assert_eq!(penumbra(&cfg(0x7E00, 0), 10, 1, 2), 255);
        assert_eq!(penumbra(&cfg(0x7C00, 0), 10, 1, 2), 0);
        assert_eq!(penumbra(&cfg(0x3C00, 0xFC00), 10, 1, 2), 255);
        assert_eq!(penumbra(&cfg(0x3C00, 0x7C00), 10, 0, 2), 255);
        // Largest magnitudes: no overflow.
        assert_eq!(penumbra(&cfg(0x7BFF, 0x7BFF), 255, 0xFF_FFFE, 0xFF_FFFF), 0);
    }

    #[test]
    fn shadow_update_keeps_nearer_depth() {
        let c = cfg(0x3C00, 0);
        // Farther or equal: unchanged.
        assert_eq!(update(&c, (100, 50), 100, 0), (100, 50));
        assert_eq!(update(&c, (100, 50), 200, 0), (100, 50));
        // Nearer opaque occluder: new depth, intensity kept.
        assert_eq!(update(&c, (100, 50), 99, 0), (99, 50));
        // Nearer soft occluder: depth kept, intensity min(50, 40 / 1.0).
        assert_eq!(update(&c, (100, 50), 99, 40), (100, 40));
        assert_eq!(update(&c, (100, 50), 99, 60), (100, 50));
    }
}
