//! FOP: the fragment operations and the framebuffer.
//!
//! FOP takes the fragments RAST sends, runs each through the per-fragment operations and
//! updates the colour and depth-stencil buffers in memory. The order (pica-facts §4, Azahar
//! `video_core/renderer_software/sw_rasterizer.cpp` `ProcessTriangle`):
//!
//! 1. the colour the combiners and fog produced ([`crate::tev`], [`crate::fog`]) arrives with
//!    the fragment;
//! 2. alpha test (GPUREG_FRAGOP_ALPHA_TEST): `alpha FUNC reference`; a failing fragment is
//!    discarded without touching memory;
//! 3. the depth-stencil pixel is read (GPUREG_DEPTHBUFFER_READ, see [`FopConfig`]);
//! 4. stencil test (GPUREG_STENCIL_TEST), only with a D24S8 buffer: `(reference & mask) FUNC
//!    (stored & mask)`; on failure the fail action runs, the fragment is discarded;
//! 5. depth test (GPUREG_DEPTH_COLOR_MASK): `fragment FUNC stored`; on failure the z-fail
//!    action runs, the fragment is discarded. With the test disabled it passes — "Depth test
//!    enabled = 0 ... will instead behave as if the depth function were set to Always" (seed
//!    002): depth is still written when the depth write bit (bit 12) and
//!    GPUREG_DEPTHBUFFER_WRITE allow it, and the stencil z-pass action still runs;
//! 6. depth write and the z-pass stencil action, stored in one write;
//! 7. the colour pixel is read (GPUREG_COLORBUFFER_READ), the combiner output is blended with
//!    it or combined by a logic op (GPUREG_COLOR_OPERATION bit 8), the channel write masks
//!    (GPUREG_DEPTH_COLOR_MASK bits 8-11) keep the destination's channels that are masked off,
//!    and the pixel is written (GPUREG_COLORBUFFER_WRITE).
//!
//! Buffer layout and pixel formats are in [`fb`], the operations as pure functions in [`ops`].
//! The gas (density accumulation) and shadow (shadow-map write) fragment modes of
//! GPUREG_COLOR_OPERATION replace steps 3-7 after the alpha test: see [`gas`] and [`shadow`].
//!
//! FLUSH and INVALIDATE (GPUREG_FRAMEBUFFER_FLUSH / _INVALIDATE): the hardware has a
//! framebuffer cache that these write back and drop (seed 002). The model has no cache — every
//! fragment reads and writes memory directly in the cycle it is processed — so memory is
//! always what a flush would leave: both triggers do nothing but emit a `tracing` event
//! (target `fop`) and count in [`FragmentOps::snapshot`]. A command list that forgets the
//! flush therefore still sees its pixels in memory (UNVERIFIED(hw) [fact: fop-no-cache]: on hardware they could
//! still sit in the cache — model choice).

pub mod fb;
pub mod gas;
pub mod ops;
pub mod shadow;

use crate::beat::PixelBeat;
use crate::knobs::{
    FopBadFormat, FopBlendFactor15, FopColorConversion, FopRgb8Order, FopShadowWord,
};
use crate::link::Link;
use crate::mem::Memory;
use crate::pipe::{Fragment, ShadedFragment};
use crate::regfile::RegFile;
use crate::regs::{
    self, id, BlendFuncFactor, ColorOperationBlendMode, ColorOperationFragmentMode,
    CompareFunction, LogicOpOperation, StencilOpAction, Trigger,
};
use crate::timing;
use fb::{ColorFormat, DepthFormat, FbLayout};
use ops::Blend;
use serde::Serialize;
use serde_json::json;

pub use crate::outcome::FopHang;

/// What FOP touches in one cycle.
pub struct FopPorts<'a> {
    /// Configuration (and trigger events, for FLUSH / INVALIDATE).
    pub regs: &'a RegFile,
    /// Colour and depth-stencil buffers.
    pub mem: &'a mut Memory,
    /// Fragments from FOG.
    pub input: &'a mut Link<ShadedFragment>,
    /// Where pixel beats go (`None`: not recorded).
    pub beats: Option<&'a mut Vec<PixelBeat>>,
}

/// Every register the fragment operations read ([`FopConfig::from_regs`] and the layout,
/// gas and shadow decoders), in ID order: what an implementation of FOP outside the model (the
/// RTL stage top's register write port, a stage bundle's configuration writes) must be given.
/// The test `fop_config_reads_only_config_regs` pins that nothing else changes
/// [`FopConfig`].
pub const CONFIG_REGS: [u16; 20] = [
    id::COLOR_OPERATION,
    id::BLEND_FUNC,
    id::LOGIC_OP,
    id::BLEND_COLOR,
    id::FRAGOP_ALPHA_TEST,
    id::STENCIL_TEST,
    id::STENCIL_OP,
    id::DEPTH_COLOR_MASK,
    id::COLORBUFFER_READ,
    id::COLORBUFFER_WRITE,
    id::DEPTHBUFFER_READ,
    id::DEPTHBUFFER_WRITE,
    id::DEPTHBUFFER_FORMAT,
    id::COLORBUFFER_FORMAT,
    id::FRAMEBUFFER_BLOCK32,
    id::DEPTHBUFFER_LOC,
    id::COLORBUFFER_LOC,
    id::FRAMEBUFFER_DIM,
    id::GAS_DELTAZ_DEPTH,
    id::FRAGOP_SHADOW,
];

/// The [`CONFIG_REGS`] words of `regs`, in the same order.
pub fn config_words(regs: &RegFile) -> [u32; CONFIG_REGS.len()] {
    CONFIG_REGS.map(|i| regs.reg(u32::from(i)))
}

/// Whether a 4-bit colour-buffer access field enables the access.
///
/// UNVERIFIED(hw) [fact: fop-access-enables]: seed 002 documents only 0 (disable) and 0xF (enable); any non-zero value
/// enables, as Azahar tests `allow_color_write != 0`.
const fn access_enabled(field: u32) -> bool {
    field != 0
}

/// The fragment-operation registers, decoded once per cycle.
///
/// Buffer access enables (seed 002 GPUREG_COLORBUFFER_READ/WRITE, GPUREG_DEPTHBUFFER_READ/WRITE):
///
/// - **Reads disabled**: the buffer is not read; the operations see stored bits of 0 (colour:
///   the format's decoding of 0, for example `[0, 0, 0, 255]` in RGB565; depth 0; stencil 0).
///   UNVERIFIED(hw) [fact: fop-access-enables]: model choice; Azahar's software renderer ignores the read enables and
///   always reads. On hardware the framebuffer cache is then not filled from memory, so what
///   the operations see is undefined; 0 is the model's definite stand-in. Depth and stencil
///   reads are enabled separately (bits 1 and 0); the depth-stencil pixel is read once if
///   either is set, and the disabled part reads as 0.
/// - **Writes disabled**: nothing is written to that buffer (part). Colour writes are all or
///   nothing per pixel (the write masks merge with the destination as read); depth (bit 1)
///   and stencil (bit 0) writes are separate, so a D24S8 pixel may get only its depth bytes
///   (0-2) or only its stencil byte (3). UNVERIFIED(hw) [fact: fop-access-enables]: Azahar gates depth and stencil
///   writes on the whole field being non-zero; the seed documents two bits, used separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FopConfig {
    /// Where the buffers are and their formats.
    pub layout: FbLayout,
    /// GPUREG_COLOR_OPERATION bits 0-1: default, gas (density accumulation, [`gas`]) or
    /// shadow (shadow-map write, [`shadow`]). The undescribed value 2 is processed as default
    /// (UNVERIFIED(hw) [fact: fop-fragment-mode-reserved]: model choice, no source describes it).
    pub fragment_mode: ColorOperationFragmentMode,
    /// Gas mode: GPUREG_GAS_DELTAZ_DEPTH.
    pub gas: gas::GasAccConfig,
    /// Shadow mode: GPUREG_FRAGOP_SHADOW.
    pub shadow: shadow::ShadowConfig,
    /// GPUREG_COLOR_OPERATION bit 8: blending (`true`) or logic op (`false`).
    pub blend_enabled: bool,
    /// GPUREG_BLEND_FUNC and GPUREG_BLEND_COLOR.
    pub blend: Blend,
    /// GPUREG_LOGIC_OP.
    pub logic_op: LogicOpOperation,
    /// GPUREG_FRAGOP_ALPHA_TEST bit 0.
    pub alpha_test: bool,
    /// GPUREG_FRAGOP_ALPHA_TEST bits 4-6.
    pub alpha_func: CompareFunction,
    /// GPUREG_FRAGOP_ALPHA_TEST bits 8-15.
    pub alpha_ref: u8,
    /// GPUREG_STENCIL_TEST bit 0.
    pub stencil_test: bool,
    /// GPUREG_STENCIL_TEST bits 4-6.
    pub stencil_func: CompareFunction,
    /// GPUREG_STENCIL_TEST bits 8-15 ("Buffer mask"): which stencil bits an action writes.
    pub stencil_write_mask: u8,
    /// GPUREG_STENCIL_TEST bits 16-23: the reference (the seed calls it signed; its 8 bits are
    /// used as they are, the same bits an unsigned reading gives).
    pub stencil_ref: u8,
    /// GPUREG_STENCIL_TEST bits 24-31 ("Mask"): which bits the test compares.
    pub stencil_mask: u8,
    /// GPUREG_STENCIL_OP bits 0-2: action when the stencil test fails.
    pub stencil_fail: StencilOpAction,
    /// GPUREG_STENCIL_OP bits 4-6: action when the stencil test passes and the depth test
    /// fails.
    pub stencil_zfail: StencilOpAction,
    /// GPUREG_STENCIL_OP bits 8-10: action when both pass.
    pub stencil_zpass: StencilOpAction,
    /// GPUREG_DEPTH_COLOR_MASK bit 0.
    pub depth_test: bool,
    /// GPUREG_DEPTH_COLOR_MASK bits 4-6.
    pub depth_func: CompareFunction,
    /// GPUREG_DEPTH_COLOR_MASK bits 8-11: red, green, blue, alpha written.
    pub color_mask: [bool; 4],
    /// GPUREG_DEPTH_COLOR_MASK bit 12.
    pub depth_write: bool,
    /// GPUREG_COLORBUFFER_READ non-zero.
    pub color_read: bool,
    /// GPUREG_COLORBUFFER_WRITE non-zero.
    pub color_write_allowed: bool,
    /// GPUREG_DEPTHBUFFER_READ bit 1.
    pub depth_read: bool,
    /// GPUREG_DEPTHBUFFER_READ bit 0.
    pub stencil_read: bool,
    /// GPUREG_DEPTHBUFFER_WRITE bit 1.
    pub depth_write_allowed: bool,
    /// GPUREG_DEPTHBUFFER_WRITE bit 0.
    pub stencil_write_allowed: bool,
    /// Knob `fop-color-conversion`: how colours reduce to the buffer format.
    pub color_conversion: FopColorConversion,
    /// Knob `fop-bad-format`: what a reserved buffer format does.
    pub bad_format: FopBadFormat,
    /// Knob `fop-shadow-word`: the shadow word's byte order in the stored bits.
    pub shadow_word: FopShadowWord,
    /// Knob `fop-rgb8-order`: the byte order of an RGB8 colour buffer.
    pub rgb8_order: FopRgb8Order,
}

impl FopConfig {
    /// Decodes the registers.
    pub fn from_regs(regs: &RegFile) -> Self {
        let r = |i: u16| regs.reg(u32::from(i));
        let op = regs::ColorOperation(r(id::COLOR_OPERATION));
        let bf = regs::BlendFunc(r(id::BLEND_FUNC));
        let bc = regs::BlendColor(r(id::BLEND_COLOR));
        let at = regs::FragopAlphaTest(r(id::FRAGOP_ALPHA_TEST));
        let st = r(id::STENCIL_TEST);
        let st_t = regs::StencilTest(st);
        let so = regs::StencilOp(r(id::STENCIL_OP));
        let dc = regs::DepthColorMask(r(id::DEPTH_COLOR_MASK));
        let dr = regs::DepthbufferRead(r(id::DEPTHBUFFER_READ));
        let dw = regs::DepthbufferWrite(r(id::DEPTHBUFFER_WRITE));
        let byte = |v: u32| (v & 0xFF) as u8;
        // Knob `fop-blend-factor15=zero`: the undescribed factor 15 is Zero, not One.
        let factor = |f: BlendFuncFactor| match (f, regs.knobs().fop_blend_factor15) {
            (BlendFuncFactor::Reserved(_), FopBlendFactor15::Zero) => BlendFuncFactor::Zero,
            (f, _) => f,
        };
        Self {
            layout: FbLayout::from_regs(regs),
            fragment_mode: op.fragment_mode(),
            gas: gas::GasAccConfig::from_regs(regs),
            shadow: shadow::ShadowConfig::from_regs(regs),
            blend_enabled: op.blend_mode() == ColorOperationBlendMode::Blend,
            blend: Blend {
                rgb_equation: bf.rgb_equation(),
                alpha_equation: bf.alpha_equation(),
                rgb_src: factor(bf.rgb_src_func()),
                rgb_dst: factor(bf.rgb_dst_func()),
                alpha_src: factor(bf.alpha_src_func()),
                alpha_dst: factor(bf.alpha_dst_func()),
                constant: [
                    byte(bc.red()),
                    byte(bc.green()),
                    byte(bc.blue()),
                    byte(bc.alpha()),
                ],
                rounding: regs.knobs().fop_blend_rounding,
            },
            logic_op: regs::LogicOp(r(id::LOGIC_OP)).op(),
            alpha_test: at.enabled(),
            alpha_func: at.function(),
            alpha_ref: byte(at.reference()),
            stencil_test: st_t.enabled(),
            stencil_func: st_t.function(),
            stencil_write_mask: byte(st_t.buffer_mask()),
            // The raw bits 16-23: the generated accessor sign-extends the "signed" field.
            stencil_ref: byte(st >> 16),
            stencil_mask: byte(st_t.mask()),
            stencil_fail: so.fail_op(),
            stencil_zfail: so.zfail_op(),
            stencil_zpass: so.zpass_op(),
            depth_test: dc.depth_test_enabled(),
            depth_func: dc.depth_function(),
            color_mask: [
                dc.red_write_enabled(),
                dc.green_write_enabled(),
                dc.blue_write_enabled(),
                dc.alpha_write_enabled(),
            ],
            depth_write: dc.depth_write_enabled(),
            color_read: access_enabled(regs::ColorbufferRead(r(id::COLORBUFFER_READ)).allow_read()),
            color_write_allowed: access_enabled(
                regs::ColorbufferWrite(r(id::COLORBUFFER_WRITE)).allow_write(),
            ),
            depth_read: dr.allow_depth_read(),
            stencil_read: dr.allow_stencil_read(),
            depth_write_allowed: dw.allow_depth_write(),
            stencil_write_allowed: dw.allow_stencil_write(),
            color_conversion: regs.knobs().fop_color_conversion,
            bad_format: regs.knobs().fop_bad_format,
            shadow_word: regs.knobs().fop_shadow_word,
            rgb8_order: regs.knobs().fop_rgb8_order,
        }
    }

    /// The colour the blend or logic op produces from source `src` and destination `dst`,
    /// before the write masks.
    pub fn combine(&self, src: [u8; 4], dst: [u8; 4]) -> [u8; 4] {
        if self.blend_enabled {
            self.blend.apply(src, dst)
        } else {
            let op = self.logic_op;
            [
                ops::logic_op(op, src[0], dst[0]),
                ops::logic_op(op, src[1], dst[1]),
                ops::logic_op(op, src[2], dst[2]),
                ops::logic_op(op, src[3], dst[3]),
            ]
        }
    }
}

/// A depth value of `fmt` (16 or 24 bits) as a 24-bit depth, for the gas and shadow modes,
/// which work on 24-bit depths whatever the depth buffer format: the model's one widening
/// rule, [`crate::num::depth_to_24`] (bit replication, `d << 8 | d >> 8` for D16; the
/// fog coordinate uses the same; UNVERIFIED(hw) [fact: rast-depth-widen], see there).
pub const fn depth_to_24(fmt: DepthFormat, depth: u32) -> u32 {
    crate::num::depth_to_24(depth, fmt.depth_bits())
}

/// Where one fragment's pixels are and in which formats (the part of [`process_fragment`]
/// every fragment mode shares).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelSite {
    /// Colour buffer format.
    pub color_fmt: ColorFormat,
    /// Depth-stencil buffer format.
    pub depth_fmt: DepthFormat,
    /// Address of the colour pixel.
    pub color_addr: u32,
    /// Address of the depth-stencil pixel.
    pub depth_addr: u32,
}

impl PixelSite {
    /// Reads the colour pixel's stored bits (0 with GPUREG_COLORBUFFER_READ off, see
    /// [`FopConfig`]).
    pub fn read_color(&self, cfg: &FopConfig, mem: &Memory) -> Result<u32, FopHang> {
        if cfg.color_read {
            fb::read_pixel(mem, self.color_addr, self.color_fmt.bytes_per_pixel())
                .map_err(unmapped("color"))
        } else {
            Ok(0)
        }
    }

    /// Writes the colour pixel's stored bits if GPUREG_COLORBUFFER_WRITE allows it; records
    /// the result in `beat`.
    pub fn write_color(
        &self,
        cfg: &FopConfig,
        mem: &mut Memory,
        bits: u32,
        beat: &mut PixelBeat,
    ) -> Result<(), FopHang> {
        if cfg.color_write_allowed {
            fb::write_pixel(mem, self.color_addr, bits, self.color_fmt.bytes_per_pixel())
                .map_err(unmapped("color"))?;
            beat.color = bits;
            beat.flags |= PixelBeat::COLOR_WRITTEN;
        }
        Ok(())
    }

    /// Reads the depth-stencil pixel's stored bits if either read enable is set (0
    /// otherwise), and returns them with the stored depth (0 with depth reads off).
    pub fn read_depth(&self, cfg: &FopConfig, mem: &Memory) -> Result<(u32, u32), FopHang> {
        let bits = if cfg.depth_read || cfg.stencil_read {
            fb::read_pixel(mem, self.depth_addr, self.depth_fmt.bytes_per_pixel())
                .map_err(unmapped("depth"))?
        } else {
            0
        };
        let depth = if cfg.depth_read {
            self.depth_fmt.depth(bits)
        } else {
            0
        };
        Ok((bits, depth))
    }
}

fn unmapped(buffer: &'static str) -> impl Fn(crate::mem::Unmapped) -> FopHang {
    move |u| FopHang::Unmapped {
        buffer,
        addr: u.addr,
    }
}

/// Runs one fragment through the fragment operations: `src` is the combiner output, `cfg`
/// the decoded registers. Reads and writes the buffers in `mem` and returns the pixel beat
/// (stamped `cycle`).
///
/// The beat's `color` / `depth_stencil` are the pixel's stored bits as FOP last saw them: the
/// bits written if it wrote, otherwise the bits read (0 where it did not read). A partial
/// depth-stencil write (depth only, or stencil only) reports the bytes it wrote over the bits
/// it read, so with the depth-stencil reads disabled the bytes it did not write show as 0,
/// whatever memory holds there; with only the depth read enabled the stencil byte shows as read
/// although the stencil test saw 0 (the pixel is read once). A fragment
/// outside the framebuffer (x ≥ width or y ≥ height of GPUREG_FRAMEBUFFER_DIM) has addresses
/// 0 and only [`PixelBeat::DISCARDED`] set.
/// UNVERIFIED(hw) [fact: fop-outside-buffer]: such fragments are dropped without a memory access — model choice (RAST's
/// scissor normally keeps fragments inside; Azahar would compute a wrapped address).
///
/// The alpha test runs in every fragment mode; after it, GPUREG_COLOR_OPERATION's fragment
/// mode picks what follows: the default operations (module docs), gas density accumulation
/// ([`gas::process`]) or the shadow-map write ([`shadow::process`]). UNVERIFIED(hw) [fact: fop-shadow-order]: Azahar's
/// software renderer writes the shadow map before its alpha test and fog, its GLSL generator
/// after them, as the model does (see the comment at the alpha test).
pub fn process_fragment(
    cfg: &FopConfig,
    frag: &Fragment,
    src: [u8; 4],
    mem: &mut Memory,
    cycle: u64,
) -> Result<PixelBeat, FopHang> {
    process_fragment_counted(cfg, frag, src, mem, cycle, None)
}

/// Outcomes of FOP's tests, counted for functional coverage when asked
/// ([`FragmentOps::set_count_tests`], `crate::cov`). Indices are the raw field encodings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestCounts {
    /// Alpha test: `[function][0 fail, 1 pass]`.
    pub alpha: [[u64; 2]; 8],
    /// Stencil test (a stencil buffer present): `[function][0 fail, 1 pass]`.
    pub stencil: [[u64; 2]; 8],
    /// Depth test (after a passing stencil test): `[function][0 fail, 1 pass]`.
    pub depth: [[u64; 2]; 8],
    /// Stencil action run: `[action][0 stencil fail, 1 depth fail, 2 both pass]`.
    pub stencil_op: [[u64; 3]; 8],
}

fn count_test(table: &mut [[u64; 2]; 8], func: CompareFunction, pass: bool) {
    if let Some(row) = table.get_mut(func.bits() as usize) {
        row[usize::from(pass)] += 1;
    }
}

/// [`process_fragment`] that also counts the test outcomes into `tests` when given.
pub fn process_fragment_counted(
    cfg: &FopConfig,
    frag: &Fragment,
    src: [u8; 4],
    mem: &mut Memory,
    cycle: u64,
    mut tests: Option<&mut TestCounts>,
) -> Result<PixelBeat, FopHang> {
    let mut beat = PixelBeat {
        cycle,
        x: frag.x,
        y: frag.y,
        color_addr: 0,
        color: 0,
        depth_addr: 0,
        depth_stencil: 0,
        flags: 0,
    };
    let bad_format = cfg.layout.color_format.is_err() || cfg.layout.depth_format.is_err();
    if bad_format && cfg.bad_format == FopBadFormat::Drop {
        // Knob `fop-bad-format=drop`: discarded, no memory access, no hang.
        beat.flags = PixelBeat::DISCARDED;
        return Ok(beat);
    }
    let color_fmt: ColorFormat =
        cfg.layout
            .color_format
            .map_err(|value| FopHang::ReservedFormat {
                buffer: "color",
                value,
            })?;
    let depth_fmt: DepthFormat =
        cfg.layout
            .depth_format
            .map_err(|value| FopHang::ReservedFormat {
                buffer: "depth",
                value,
            })?;
    let (x, y) = (u32::from(frag.x), u32::from(frag.y));
    let (Some(color_addr), Some(depth_addr)) =
        (cfg.layout.color_addr(x, y), cfg.layout.depth_addr(x, y))
    else {
        tracing::trace!(target: "fop", cycle, x, y, "outside the framebuffer: dropped");
        beat.flags = PixelBeat::DISCARDED;
        return Ok(beat);
    };
    beat.color_addr = color_addr;
    beat.depth_addr = depth_addr;

    // Alpha test: before any buffer access, in every fragment mode; `src` arrives with FOG's
    // fog (or gas shading) already applied.
    // UNVERIFIED(hw) [fact: fop-shadow-order]: in shadow mode this order — fog, alpha test, then the shadow write — is
    // Azahar's GLSL generator's (`glsl_fs_shader_gen.cpp` `Generate`: `WriteAlphaTestCondition`,
    // `WriteFog`, then `WriteShadow`). Azahar's software renderer (`sw_rasterizer.cpp`
    // `ProcessTriangle`) takes the shadow branch straight after the combiners, before
    // `DoAlphaTest` and `WriteFog`: there a fragment the alpha test fails still writes the
    // shadow map, with its unfogged green. The model keeps the GLSL order.
    let alpha_pass =
        !cfg.alpha_test || ops::compare(cfg.alpha_func, src[3].into(), cfg.alpha_ref.into());
    if let (Some(t), true) = (tests.as_deref_mut(), cfg.alpha_test) {
        count_test(&mut t.alpha, cfg.alpha_func, alpha_pass);
    }
    if !alpha_pass {
        tracing::trace!(target: "fop", cycle, x, y, alpha = src[3], "alpha test failed");
        beat.flags = PixelBeat::DISCARDED;
        return Ok(beat);
    }

    let site = PixelSite {
        color_fmt,
        depth_fmt,
        color_addr,
        depth_addr,
    };
    match cfg.fragment_mode {
        ColorOperationFragmentMode::Gas => {
            gas::process(cfg, &site, frag, src, mem, &mut beat)?;
            return Ok(beat);
        }
        ColorOperationFragmentMode::Shadow => {
            shadow::process(cfg, &site, frag, src, mem, &mut beat)?;
            return Ok(beat);
        }
        ColorOperationFragmentMode::Default => {}
        ColorOperationFragmentMode::Reserved(mode) => {
            tracing::trace!(target: "fop", cycle, x, y, mode,
                "undescribed fragment mode: processed as default");
        }
    }

    // Depth-stencil read.
    let ds_len = depth_fmt.bytes_per_pixel();
    let ds_bits = if cfg.depth_read || cfg.stencil_read {
        fb::read_pixel(mem, depth_addr, ds_len).map_err(unmapped("depth"))?
    } else {
        0
    };
    let stored_depth = if cfg.depth_read {
        depth_fmt.depth(ds_bits)
    } else {
        0
    };
    let stored_stencil = if cfg.stencil_read {
        depth_fmt.stencil(ds_bits)
    } else {
        0
    };
    // RAST quantizes to the format's width; the mask only guards against wider values.
    let frag_depth = frag.depth & depth_fmt.depth_max();

    // Stencil and depth tests. The stencil test needs a stencil buffer (Azahar: enabled only
    // with D24S8); without one it passes and no stencil action runs.
    let stencil_on = cfg.stencil_test && depth_fmt.has_stencil();
    let stencil_pass = !stencil_on
        || ops::compare(
            cfg.stencil_func,
            u32::from(cfg.stencil_ref & cfg.stencil_mask),
            u32::from(stored_stencil & cfg.stencil_mask),
        );
    let depth_pass =
        stencil_pass && (!cfg.depth_test || ops::compare(cfg.depth_func, frag_depth, stored_depth));
    let action = if !stencil_pass {
        cfg.stencil_fail
    } else if !depth_pass {
        cfg.stencil_zfail
    } else {
        cfg.stencil_zpass
    };
    if let Some(t) = tests {
        if stencil_on {
            count_test(&mut t.stencil, cfg.stencil_func, stencil_pass);
            let outcome = usize::from(stencil_pass) + usize::from(depth_pass);
            if let Some(row) = t.stencil_op.get_mut(action.bits() as usize) {
                row[outcome] += 1;
            }
        }
        if stencil_pass && cfg.depth_test {
            count_test(&mut t.depth, cfg.depth_func, depth_pass);
        }
    }
    let new_stencil = (stencil_on && cfg.stencil_write_allowed).then(|| {
        ops::masked_stencil(
            ops::stencil_action(action, stored_stencil, cfg.stencil_ref),
            stored_stencil,
            cfg.stencil_write_mask,
        )
    });
    let write_depth = depth_pass && cfg.depth_write && cfg.depth_write_allowed;

    // Depth and stencil leave in one write of the bytes that change.
    let depth_bytes = depth_fmt.depth_bits() / 8;
    let mut ds_out = ds_bits;
    match (write_depth, new_stencil) {
        (true, Some(s)) => {
            ds_out = depth_fmt.encode(frag_depth, s);
            fb::write_pixel(mem, depth_addr, ds_out, ds_len).map_err(unmapped("depth"))?;
            beat.flags |= PixelBeat::DEPTH_WRITTEN | PixelBeat::STENCIL_WRITTEN;
        }
        (true, None) => {
            fb::write_pixel(mem, depth_addr, frag_depth, depth_bytes).map_err(unmapped("depth"))?;
            ds_out = (ds_out & !depth_fmt.depth_max()) | frag_depth;
            beat.flags |= PixelBeat::DEPTH_WRITTEN;
        }
        (false, Some(s)) => {
            // Only D24S8 has a stencil byte: byte 3 of the pixel.
            fb::write_pixel(mem, depth_addr.wrapping_add(3), u32::from(s), 1)
                .map_err(unmapped("depth"))?;
            ds_out = (ds_out & 0x00FF_FFFF) | u32::from(s) << 24;
            beat.flags |= PixelBeat::STENCIL_WRITTEN;
        }
        (false, None) => {}
    }
    beat.depth_stencil = ds_out;
    if !depth_pass {
        tracing::trace!(target: "fop", cycle, x, y, stencil_pass, "depth or stencil test failed");
        beat.flags |= PixelBeat::DISCARDED;
        return Ok(beat);
    }

    // Colour: read, blend or logic op, write masks, write.
    let c_len = color_fmt.bytes_per_pixel();
    let dst_bits = if cfg.color_read {
        fb::read_pixel(mem, color_addr, c_len).map_err(unmapped("color"))?
    } else {
        0
    };
    let dst = color_fmt.decode(color_fmt.reorder(dst_bits, cfg.rgb8_order));
    let out = cfg.combine(src, dst);
    let merged = [0, 1, 2, 3].map(|i| if cfg.color_mask[i] { out[i] } else { dst[i] });
    beat.color = dst_bits;
    if cfg.color_write_allowed {
        let bits = color_fmt.reorder(
            color_fmt.encode_with(merged, cfg.color_conversion),
            cfg.rgb8_order,
        );
        fb::write_pixel(mem, color_addr, bits, c_len).map_err(unmapped("color"))?;
        beat.color = bits;
        beat.flags |= PixelBeat::COLOR_WRITTEN;
    }
    tracing::trace!(target: "fop", cycle, x, y, color = beat.color, "pixel done");
    Ok(beat)
}

/// Counters FOP keeps for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FopStats {
    /// Fragments processed.
    pub fragments: u64,
    /// Fragments discarded (outside the buffer, alpha, stencil or depth test).
    pub discarded: u64,
    /// Colour pixel writes.
    pub color_writes: u64,
    /// Depth writes.
    pub depth_writes: u64,
    /// Stencil writes.
    pub stencil_writes: u64,
    /// GPUREG_FRAMEBUFFER_FLUSH triggers seen.
    pub flushes: u64,
    /// GPUREG_FRAMEBUFFER_INVALIDATE triggers seen.
    pub invalidates: u64,
}

/// The FOP stage.
///
/// Timing: [`timing::FOP_FRAGMENTS_PER_CYCLE`] fragments per cycle, each finished (memory
/// updated, beat stamped) in the cycle it is popped, so FOP holds nothing between cycles.
#[derive(Clone, Debug, Default)]
pub struct FragmentOps {
    /// How many of [`RegFile::triggers`] have been looked at.
    triggers_seen: usize,
    /// The configuration last decoded, the [`config_words`] and the knobs it was decoded
    /// from: decoded again only when a word or a knob differs (not once per fragment).
    config: Option<([u32; CONFIG_REGS.len()], crate::knobs::Knobs, FopConfig)>,
    stats: FopStats,
    /// Test outcomes, when counted ([`FragmentOps::set_count_tests`]).
    tests: Option<Box<TestCounts>>,
}

impl FragmentOps {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// The counters so far.
    pub fn stats(&self) -> FopStats {
        self.stats
    }

    /// Counts the outcomes of the alpha, stencil and depth tests (off by default; for
    /// functional coverage, `crate::cov`).
    pub fn set_count_tests(&mut self, on: bool) {
        self.tests = on.then(Box::default);
    }

    /// The test outcomes so far, if counted.
    pub fn test_counts(&self) -> Option<&TestCounts> {
        self.tests.as_deref()
    }

    /// Handles FLUSH / INVALIDATE triggers REGS applied since the last look: with no cache
    /// modelled, a tracing event and a count (see the module docs).
    fn observe_triggers(&mut self, cycle: u64, regs: &RegFile) {
        for t in regs.triggers_since(&mut self.triggers_seen) {
            match t.trigger {
                Trigger::FramebufferFlush => {
                    self.stats.flushes += 1;
                    tracing::debug!(target: "fop", cycle, applied = t.cycle,
                        "framebuffer flush: no cache modelled, memory is already current");
                }
                Trigger::FramebufferInvalidate => {
                    self.stats.invalidates += 1;
                    tracing::debug!(target: "fop", cycle, applied = t.cycle,
                        "framebuffer invalidate: no cache modelled, nothing to drop");
                }
                _ => {}
            }
        }
    }

    /// Advances one cycle.
    pub fn tick(&mut self, cycle: u64, ports: FopPorts<'_>) -> Result<(), FopHang> {
        let FopPorts {
            regs,
            mem,
            input,
            mut beats,
        } = ports;
        self.observe_triggers(cycle, regs);
        let mut refreshed = false;
        for _ in 0..timing::FOP_FRAGMENTS_PER_CYCLE {
            // Read where it lies, then dropped from the link (a fragment is some 200 bytes:
            // moving it out cost more than most of FOP's work).
            let Some(sf) = input.peek() else {
                break;
            };
            // The configuration as the registers stand this cycle, checked once per cycle and
            // read in place (it is a few hundred bytes).
            if !refreshed {
                self.refresh_config(regs);
                refreshed = true;
            }
            let Some((_, _, cfg)) = &self.config else {
                break;
            };
            let result = process_fragment_counted(
                cfg,
                &sf.frag,
                sf.color,
                mem,
                cycle,
                self.tests.as_deref_mut(),
            );
            input.skip();
            let beat = result?;
            self.count(&beat);
            if let Some(b) = beats.as_mut() {
                b.push(beat);
            }
        }
        Ok(())
    }

    /// Makes `self.config` [`FopConfig::from_regs`] of `regs`, decoding again only when
    /// [`config_words`] or the knobs differ from those it was decoded from.
    fn refresh_config(&mut self, regs: &RegFile) {
        let words = config_words(regs);
        let knobs = regs.knobs();
        if !matches!(&self.config, Some((w, k, _)) if *w == words && k == knobs) {
            self.config = Some((words, *knobs, FopConfig::from_regs(regs)));
        }
    }

    fn count(&mut self, beat: &PixelBeat) {
        let s = &mut self.stats;
        s.fragments += 1;
        let has = |f: u8| u64::from(beat.flags & f != 0);
        s.discarded += has(PixelBeat::DISCARDED);
        s.color_writes += has(PixelBeat::COLOR_WRITTEN);
        s.depth_writes += has(PixelBeat::DEPTH_WRITTEN);
        s.stencil_writes += has(PixelBeat::STENCIL_WRITTEN);
    }

    /// Whether nothing is in flight (always: fragments finish in the cycle they arrive).
    pub fn is_idle(&self) -> bool {
        true
    }

    /// Internal state for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({ "stats": self.stats, "triggers_seen": self.triggers_seen })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cp::RegWrite;

    fn regs_with(writes: &[(u16, u32)]) -> RegFile {
        let mut regs = RegFile::new();
        let mut sink = Vec::new();
        for &(reg, param) in writes {
            let w = RegWrite {
                id: reg.into(),
                mask: 0xF,
                param,
            };
            regs.apply(0, w, &mut sink);
        }
        regs
    }

    #[test]
    fn fop_config_power_on_is_logic_clear_with_everything_off() {
        let cfg = FopConfig::from_regs(&RegFile::new());
        assert!(!cfg.blend_enabled);
        assert_eq!(cfg.logic_op, LogicOpOperation::Clear);
        assert!(!(cfg.alpha_test || cfg.stencil_test || cfg.depth_test || cfg.depth_write));
        assert_eq!(cfg.color_mask, [false; 4]);
        assert!(!(cfg.color_read || cfg.color_write_allowed));
        assert!(!(cfg.depth_read || cfg.stencil_read));
        assert_eq!(cfg.layout.color_format, Ok(ColorFormat::Rgba8));
        assert_eq!(cfg.layout.depth_format, Ok(DepthFormat::D16));
        assert_eq!((cfg.layout.width, cfg.layout.height), (0, 1));
    }

    #[test]
    fn fop_config_reads_only_config_regs() {
        // Every register outside CONFIG_REGS set to junk (FIFO and trigger registers left
        // alone: they are not plain storage) must leave the decoded configuration as it is.
        let config: Vec<(u16, u32)> = CONFIG_REGS
            .iter()
            .enumerate()
            .map(|(i, &r)| (r, 0x9E37_79B9u32.wrapping_mul(i as u32 + 1) | 0x0300_0000))
            .collect();
        let base = regs_with(&config);
        let mut noisy = config.clone();
        for reg in 0x040u16..0x300 {
            let plain = crate::regs::info(u32::from(reg))
                .is_some_and(|i| i.effect == crate::regs::SideEffect::None);
            if plain && !CONFIG_REGS.contains(&reg) {
                noisy.push((reg, 0xA5A5_5A5Au32.rotate_left(u32::from(reg) % 32)));
            }
        }
        noisy.extend(config.iter().copied());
        let noisy = regs_with(&noisy);
        assert_eq!(FopConfig::from_regs(&base), FopConfig::from_regs(&noisy));
        assert_eq!(config_words(&base), config_words(&noisy));
        // And each config register does change it somewhere.
        let mut sorted = CONFIG_REGS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), CONFIG_REGS.len(), "no duplicates");
        assert_eq!(sorted, CONFIG_REGS.to_vec(), "ID order");
    }

    #[test]
    fn fop_config_decodes_stencil_fields_as_raw_bytes() {
        let cfg = FopConfig::from_regs(&regs_with(&[
            (id::STENCIL_TEST, 0xA5F0_3C71),
            (id::STENCIL_OP, 0x0765),
        ]));
        assert!(cfg.stencil_test);
        assert_eq!(cfg.stencil_func, CompareFunction::GreaterEqual);
        assert_eq!(cfg.stencil_write_mask, 0x3C);
        // Bits 16-23 = 0xF0 (-16 as the seed's signed field): the raw byte.
        assert_eq!(cfg.stencil_ref, 0xF0);
        assert_eq!(cfg.stencil_mask, 0xA5);
        assert_eq!(cfg.stencil_fail, StencilOpAction::Invert);
        assert_eq!(cfg.stencil_zfail, StencilOpAction::IncrementWrap);
        assert_eq!(cfg.stencil_zpass, StencilOpAction::DecrementWrap);
    }

    #[test]
    fn fop_config_access_fields() {
        let cfg = FopConfig::from_regs(&regs_with(&[
            (id::COLORBUFFER_READ, 0x1),
            (id::COLORBUFFER_WRITE, 0x0),
            (id::DEPTHBUFFER_READ, 0x2),
            (id::DEPTHBUFFER_WRITE, 0x1),
            (id::DEPTH_COLOR_MASK, 0x1A51),
            (id::COLOR_OPERATION, 0x00E4_0100),
        ]));
        assert!(cfg.color_read && !cfg.color_write_allowed);
        assert!(cfg.depth_read && !cfg.stencil_read);
        assert!(!cfg.depth_write_allowed && cfg.stencil_write_allowed);
        assert!(cfg.depth_test && cfg.depth_write);
        assert_eq!(cfg.depth_func, CompareFunction::LessEqual);
        assert_eq!(cfg.color_mask, [false, true, false, true]);
        assert!(cfg.blend_enabled);
    }

    #[test]
    fn fop_hang_messages_name_buffer_and_value() {
        let h = FopHang::Unmapped {
            buffer: "color",
            addr: 0x10,
        };
        assert_eq!(
            h.to_string(),
            "color buffer access at unmapped address 0x00000010"
        );
        let h = FopHang::ReservedFormat {
            buffer: "depth",
            value: 1,
        };
        assert_eq!(
            h.to_string(),
            "depth buffer format 1 is not a described format"
        );
    }
}
