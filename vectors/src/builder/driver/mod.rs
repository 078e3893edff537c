//! A libctru / citro3d-order emitter: the register writes of the devkitPro 3DS graphics
//! libraries, in their order, with their byte masks and values, for the same state — so the
//! scene library can replay what real homebrew sends to the GPU (design.md "Real programs").
//!
//! [`Citro3d`] keeps citro3d's context (`C3D_Context`: dirty flags, effect, attribute and
//! buffer info, textures, combiners, light environment, fog, procedural texture, framebuffer,
//! viewport, scissor, bound program, uniforms) and emits, at every draw, exactly what
//! `C3Di_UpdateContext` (`source/base.c`) emits for what changed, followed by the draw sequence
//! of `C3D_DrawArrays` (`drawArrays.c`) or `C3D_DrawElements` (`drawElements.c`); the frame
//! ends as `C3D_FrameEnd` ends it (`C3Di_SplitFrame`, libctru `GPUCMD_Split`). The shader
//! program layer is libctru's ([`program`]: `shaderProgramConfigure`, `shaderProgramUse`); the
//! fixed-function state objects are citro3d's ([`state`]).
//!
//! Facts (register order, masks, values, conversions) were read from devkitPro libctru
//! (`libctru/source/gpu/shaderProgram.c`, `shbin.c`, `gpu.c`, `include/3ds/gpu/*.h`) and
//! citro3d (`source/*.c`, `include/c3d/*.h`); the code, shaders, meshes and textures of the
//! scenes that use it are ours. Each method names the library function it mirrors.
//!
//! Memory: the vertex, index and texture data live where the [`Builder`] puts them (FCRAM
//! [`super::DATA_BASE`], VRAM [`super::texture::TEX_BASE`]); the attribute-buffer base is
//! citro3d's `BUFFER_BASE_PADDR` (0x18000000, `buffers.c`), so buffer offsets are what they
//! are on hardware (linear heap − VRAM start). The first render target is the scene's
//! framebuffer ([`super::COLOR_BASE`] / [`super::DEPTH_BASE`]); further targets are carved
//! from texture memory, cleared as `C3D_RenderTargetClear` clears them (a GX memory fill before
//! the list runs).

pub mod program;
pub mod state;

use super::{BuildError, Builder, Clear, ColorFormat, DepthFormat, FbConfig, Scene};
use super::{COLOR_BASE, DEPTH_BASE};
use crate::case::DEFAULT_LIST_ADDR;
use pica_model::cmdlist::{CommandList, FINALIZE_VALUE};
use pica_model::regs::id;

pub use program::{Dvlb, ShaderInstance, ShaderProgram, ShaderType};
pub use state::{
    gpu, tev_mode, Effect, FogLut, LightEnv, LightLut, Material, ProcTex, ProcTexColorLut,
    ProcTexLut, Tex, TexEnv,
};

/// citro3d `BUFFER_BASE_PADDR` (`buffers.c`): the attribute-buffer base `BufInfo_Init` sets.
pub const BUFFER_BASE_PADDR: u32 = 0x1800_0000;

/// `C3D_UNSIGNED_BYTE` / `C3D_UNSIGNED_SHORT`: the index type of `C3D_DrawElements`.
pub const C3D_UNSIGNED_BYTE: u32 = 0;
/// See [`C3D_UNSIGNED_BYTE`].
pub const C3D_UNSIGNED_SHORT: u32 = 1;

// citro3d's context flags (`internal.h`, `C3DiF_*`).
const F_DRAW_USED: u32 = 1 << 1;
const F_ATTR_INFO: u32 = 1 << 2;
const F_BUF_INFO: u32 = 1 << 3;
const F_EFFECT: u32 = 1 << 4;
const F_FRAME_BUF: u32 = 1 << 5;
const F_VIEWPORT: u32 = 1 << 6;
const F_SCISSOR: u32 = 1 << 7;
const F_PROGRAM: u32 = 1 << 8;
const F_TEX_ENV_BUF: u32 = 1 << 9;
const F_LIGHT_ENV: u32 = 1 << 10;
const F_VSH_CODE: u32 = 1 << 11;
const F_GSH_CODE: u32 = 1 << 12;
const F_TEX_STATUS: u32 = 1 << 14;
const F_PROC_TEX: u32 = 1 << 15;
const F_PROC_TEX_COLOR_LUT: u32 = 1 << 16;
const F_FOG_LUT: u32 = 1 << 17;
const fn f_proc_tex_lut(n: usize) -> u32 {
    1 << (20 + n)
}
const F_PROC_TEX_LUT_ALL: u32 = 7 << 20;
const fn f_tex(n: usize) -> u32 {
    1 << (23 + n)
}
const F_TEX_ALL: u32 = 7 << 23;
const fn f_tex_env(n: usize) -> u32 {
    1 << (26 + n)
}
const F_TEX_ENV_ALL: u32 = 0x3F << 26;

/// citro3d `C3D_AttrInfo` (`attribs.c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttrInfo {
    /// GPUREG_ATTRIBBUFFERS_FORMAT_LOW / HIGH.
    pub flags: [u32; 2],
    /// Shader input register of each attribute, four bits each.
    pub permutation: u64,
    /// Attributes added.
    pub attr_count: u32,
}

impl Default for AttrInfo {
    fn default() -> Self {
        Self::init()
    }
}

impl AttrInfo {
    /// `AttrInfo_Init`: no attributes, all twelve marked fixed (FORMAT_HIGH bits 16-27).
    pub const fn init() -> Self {
        Self {
            flags: [0, 0xFFF << 16],
            permutation: 0,
            attr_count: 0,
        }
    }

    /// `AttrInfo_AddLoader(info, regId, format, count)`: the next attribute, read from a
    /// buffer with `count` components of `format` (`GPU_ATTRIBFMT`), feeding input register
    /// `reg_id` (the attribute's own index when `None`); it stops being fixed and the count
    /// field (bits 28-31) becomes its index. `None` when twelve are there already.
    pub fn add_loader(&mut self, reg_id: Option<u32>, format: u32, count: u32) -> Option<u32> {
        if self.attr_count == 12 {
            return None;
        }
        let id = self.attr_count;
        self.attr_count += 1;
        let reg = reg_id.unwrap_or(id);
        let fmt = ((count.wrapping_sub(1) & 3) << 2 | (format & 3)) << ((id % 8) * 4);
        if id < 8 {
            self.flags[0] |= fmt;
        } else {
            self.flags[1] |= fmt;
        }
        self.flags[1] = (self.flags[1] & !(0xF000_0000 | 1 << (id + 16))) | id << 28;
        self.permutation |= u64::from(reg & 0xF) << (id * 4);
        Some(id)
    }

    /// `AttrInfo_AddFixed(info, regId)`: the next attribute, taken from its fixed value.
    pub fn add_fixed(&mut self, reg_id: Option<u32>) -> Option<u32> {
        if self.attr_count == 12 {
            return None;
        }
        let id = self.attr_count;
        self.attr_count += 1;
        let reg = reg_id.unwrap_or(id);
        self.flags[1] = (self.flags[1] & !0xF000_0000) | id << 28;
        self.permutation |= u64::from(reg & 0xF) << (id * 4);
        Some(id)
    }

    /// `C3Di_AttrInfoBind`: FORMAT_LOW/HIGH (consecutive), GPUREG_VSH_INPUTBUFFER_CONFIG bytes
    /// 0, 1 and 3 (mask 0xB) = 0xA0000000 | count - 1, GPUREG_VSH_NUM_ATTR = count - 1, the
    /// permutation (consecutive LOW/HIGH).
    pub fn bind(&self, list: &mut CommandList) {
        list.write_seq(id::ATTRIBBUFFERS_FORMAT_LOW, &self.flags);
        list.write_masked(
            id::VSH_INPUTBUFFER_CONFIG,
            0xB,
            0xA000_0000 | self.attr_count.wrapping_sub(1),
        );
        list.write(id::VSH_NUM_ATTR, self.attr_count.wrapping_sub(1));
        list.write_seq(
            id::VSH_ATTRIBUTES_PERMUTATION_LOW,
            &[self.permutation as u32, (self.permutation >> 32) as u32],
        );
    }
}

/// citro3d `C3D_BufInfo` (`buffers.c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufInfo {
    /// `base_paddr`.
    pub base_paddr: u32,
    /// Each buffer's three words: offset from the base, permutation low, permutation high |
    /// stride << 16 | attribute count << 28.
    pub buffers: [[u32; 3]; 12],
    /// Buffers added.
    pub buf_count: u32,
}

impl Default for BufInfo {
    fn default() -> Self {
        Self::init()
    }
}

impl BufInfo {
    /// `BufInfo_Init`: no buffers, base [`BUFFER_BASE_PADDR`].
    pub const fn init() -> Self {
        Self {
            base_paddr: BUFFER_BASE_PADDR,
            buffers: [[0; 3]; 12],
            buf_count: 0,
        }
    }

    /// `BufInfo_Add(info, data, stride, attribCount, permutation)` for data at physical
    /// address `addr`: `None` when twelve buffers exist or the data lies below the base
    /// (citro3d returns -1 / -2).
    pub fn add(
        &mut self,
        addr: u32,
        stride: u32,
        attrib_count: u32,
        permutation: u64,
    ) -> Option<u32> {
        if self.buf_count == 12 {
            return None;
        }
        let id = self.buf_count;
        self.buf_count += 1;
        if addr < self.base_paddr {
            return None;
        }
        self.buffers[id as usize] = [
            addr - self.base_paddr,
            permutation as u32,
            (permutation >> 32) as u32 | stride << 16 | attrib_count << 28,
        ];
        Some(id)
    }

    /// `C3Di_BufInfoBind`: GPUREG_ATTRIBBUFFERS_LOC = base >> 3, then the twelve buffers'
    /// 36 words in one consecutive write from GPUREG_ATTRIBBUFFER0_OFFSET.
    pub fn bind(&self, list: &mut CommandList) {
        list.write(id::ATTRIBBUFFERS_LOC, self.base_paddr >> 3);
        let words: Vec<u32> = self.buffers.iter().flatten().copied().collect();
        list.write_seq(id::ATTRIBBUFFER0_OFFSET, &words);
    }
}

/// citro3d `C3D_FrameBuf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameBuf {
    /// Colour buffer (physical).
    pub color_addr: u32,
    /// Depth buffer (physical).
    pub depth_addr: u32,
    /// Width.
    pub width: u16,
    /// Height.
    pub height: u16,
    /// Colour format.
    pub color: ColorFormat,
    /// Depth format.
    pub depth: DepthFormat,
    /// 32×32 tiling.
    pub block32: bool,
    /// Colour read/write enables (0xF with a colour buffer).
    pub color_mask: u32,
    /// Depth read/write enables (3 for D24S8, 2 for other depth formats).
    pub depth_mask: u32,
}

impl FrameBuf {
    /// `C3Di_FrameBufBind`: GPUREG_FRAMEBUFFER_INVALIDATE = 1; DEPTHBUFFER_LOC,
    /// COLORBUFFER_LOC (addresses >> 3) and FRAMEBUFFER_DIM = 0x01000000 | (height - 1) << 12 |
    /// width (consecutive); RENDERBUF_DIM = the same; DEPTHBUFFER_FORMAT; COLORBUFFER_FORMAT =
    /// pixel size | format << 16; FRAMEBUFFER_BLOCK32; COLORBUFFER_READ/WRITE = colour mask,
    /// DEPTHBUFFER_READ/WRITE = depth mask (consecutive).
    pub fn bind(&self, list: &mut CommandList) {
        list.write(id::FRAMEBUFFER_INVALIDATE, 1);
        let dim = 0x0100_0000
            | (u32::from(self.height).wrapping_sub(1) & 0xFFF) << 12
            | (u32::from(self.width) & 0xFFF);
        list.write_seq(
            id::DEPTHBUFFER_LOC,
            &[self.depth_addr >> 3, self.color_addr >> 3, dim],
        );
        list.write(id::RENDERBUF_DIM, dim);
        list.write(id::DEPTHBUFFER_FORMAT, self.depth.register_format().bits());
        list.write(
            id::COLORBUFFER_FORMAT,
            self.color.register_pixel_size().bits() | self.color.register_format().bits() << 16,
        );
        list.write(id::FRAMEBUFFER_BLOCK32, u32::from(self.block32));
        list.write_seq(
            id::COLORBUFFER_READ,
            &[
                self.color_mask,
                self.color_mask,
                self.depth_mask,
                self.depth_mask,
            ],
        );
    }
}

/// citro3d `C3D_RenderTarget`: a framebuffer to draw on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderTarget {
    /// Its framebuffer.
    pub fb: FrameBuf,
}

/// The shader-supplied float constants citro3d uploads at the next draw (`C3Di_ShaderFVecData`).
#[derive(Clone, Debug, Default)]
struct ShaderFVec {
    dirty: bool,
    data: Vec<program::Float24Uniform>,
}

/// citro3d's uniform shadow (`uniforms.c`): values, dirty and "ever dirty" flags per shader
/// type.
#[derive(Clone, Debug)]
struct Uniforms {
    /// `C3D_FVUnif`: x, y, z, w.
    fv: [[[f32; 4]; 96]; 2],
    fv_dirty: [[bool; 96]; 2],
    fv_ever_dirty: [[bool; 96]; 2],
    iv: [[u32; 4]; 2],
    iv_dirty: [[bool; 4]; 2],
    iv_ever_dirty: [[bool; 4]; 2],
    bools: [u16; 2],
    bools_dirty: [bool; 2],
    shader_fvec: [ShaderFVec; 2],
}

impl Default for Uniforms {
    fn default() -> Self {
        Self {
            fv: [[[0.0; 4]; 96]; 2],
            fv_dirty: [[false; 96]; 2],
            fv_ever_dirty: [[false; 96]; 2],
            iv: [[0; 4]; 2],
            iv_dirty: [[false; 4]; 2],
            iv_ever_dirty: [[false; 4]; 2],
            bools: [0; 2],
            bools_dirty: [false; 2],
            shader_fvec: Default::default(),
        }
    }
}

impl Uniforms {
    /// `C3Di_LoadShaderUniforms(si)`: the instance's booleans (b15 cleared for a geometry
    /// shader) marked dirty, its integer constants set, its float constants queued.
    fn load_shader(&mut self, si: &ShaderInstance) {
        let t = si.ty().index();
        if si.bool_mask != 0 {
            self.bools[t] &= !si.bool_mask;
            self.bools[t] |= si.bool_uniforms;
        }
        if si.ty() == ShaderType::Geometry {
            self.bools[t] &= !(1 << 15);
        }
        self.bools_dirty[t] = true;
        if si.int_mask != 0 {
            for i in 0..4 {
                if si.int_mask & (1 << i) != 0 {
                    self.iv[t][i] = si.int_uniforms[i];
                    self.iv_dirty[t][i] = true;
                }
            }
        }
        self.shader_fvec[t] = ShaderFVec {
            dirty: true,
            data: si.float24.clone(),
        };
    }

    /// `C3Di_ClearShaderUniforms(type)`.
    fn clear_shader(&mut self, ty: ShaderType) {
        self.shader_fvec[ty.index()] = ShaderFVec::default();
    }

    /// `C3D_UpdateUniforms(type)`, write for write: the shader's float constants (each a
    /// consecutive write of four words from FLOATUNIFORM_INDEX, f24 mode), clearing their
    /// dirty flags; each run of consecutive dirty float uniforms as FLOATUNIFORM_INDEX =
    /// 0x80000000 | first (f32 mode) and the values through FLOATUNIFORM_DATA0 in one
    /// repeated-ID write of four words each, w z y x (the `C3D_FVec` memory order); each dirty
    /// integer uniform on its own register; the booleans as 0x7FFF0000 | bits.
    fn update(&mut self, list: &mut CommandList, ty: ShaderType) {
        let t = ty.index();
        if self.shader_fvec[t].dirty {
            for u in &self.shader_fvec[t].data {
                list.write_seq(ty.reg(id::VSH_FLOATUNIFORM_INDEX), &u.words());
                if let Some(d) = self.fv_dirty[t].get_mut(u.id as usize) {
                    *d = false;
                }
            }
            self.shader_fvec[t].dirty = false;
        }
        let mut i = 0;
        while i < 96 {
            if !self.fv_dirty[t][i] {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < 96 && self.fv_dirty[t][j] {
                j += 1;
            }
            list.write(ty.reg(id::VSH_FLOATUNIFORM_INDEX), 0x8000_0000 | i as u32);
            let words: Vec<u32> = self.fv[t][i..j]
                .iter()
                .flat_map(|v| [v[3], v[2], v[1], v[0]].map(f32::to_bits))
                .collect();
            list.write_repeat(ty.reg(id::VSH_FLOATUNIFORM_DATA0), &words);
            for k in i..j {
                self.fv_dirty[t][k] = false;
                self.fv_ever_dirty[t][k] = true;
            }
            i = j;
        }
        for i in 0..4 {
            if !self.iv_dirty[t][i] {
                continue;
            }
            list.write(ty.reg(id::VSH_INTUNIFORM_I0) + i as u16, self.iv[t][i]);
            self.iv_dirty[t][i] = false;
            // citro3d clears the "ever dirty" flag here too (uniforms.c).
            self.iv_ever_dirty[t][i] = false;
        }
        if self.bools_dirty[t] {
            list.write(
                ty.reg(id::VSH_BOOLUNIFORM),
                0x7FFF_0000 | u32::from(self.bools[t]),
            );
            self.bools_dirty[t] = false;
        }
    }
}

/// A citro3d context drawing into a [`Builder`]'s list and memory.
#[derive(Clone, Debug)]
pub struct Citro3d {
    b: Builder,
    flags: u32,
    program: Option<ShaderProgram>,
    attr_info: AttrInfo,
    buf_info: BufInfo,
    effect: Effect,
    light_env: Option<LightEnv>,
    tex_config: u32,
    tex_shadow: u32,
    tex: [Option<Tex>; 3],
    tex_env: [TexEnv; 6],
    tex_env_buf: u32,
    tex_env_buf_clr: u32,
    fog_clr: u32,
    fog_lut: Option<FogLut>,
    proc_tex: Option<ProcTex>,
    proc_tex_lut: [Option<ProcTexLut>; 3],
    proc_tex_color_lut: Option<ProcTexColorLut>,
    fb: Option<FrameBuf>,
    viewport: [u32; 5],
    scissor: [u32; 3],
    fixed_attrib_dirty: u16,
    fixed_attribs: [[f32; 4]; 12],
    unif: Uniforms,
    targets: u32,
}

impl Default for Citro3d {
    fn default() -> Self {
        Self::init()
    }
}

impl Citro3d {
    /// `C3D_Init` + `C3D_FrameBegin`: an empty command list (nothing is written until the
    /// first draw), the context flags TexEnvBuf, TexEnvAll, Effect, TexStatus and TexAll
    /// dirty, and citro3d's defaults: depth map (z-buffer, -1, 0), cull back CCW, stencil off
    /// (always, 0, 0xFF, 0), stencil keep ×3, blend colour 0, early depth off (greater, 0),
    /// depth test on (greater, write all), alpha test off (always, 0), alpha blending (add,
    /// src alpha, 1 - src alpha for both), fragment mode GL, shadow (0, 1); TEXUNIT_CONFIG
    /// bit 12, TEXUNIT0_SHADOW bit 0, combiner buffer colour 0xFFFFFFFF, every combiner stage
    /// `C3D_TexEnvInit`.
    pub fn init() -> Self {
        let mut b = Builder::new();
        b.list = CommandList::new();
        let mut e = Effect::zeroed();
        e.depth_map(true, -1.0, 0.0);
        e.cull_face(gpu::CULL_BACK_CCW);
        e.stencil_test(false, gpu::ALWAYS, 0, 0xFF, 0);
        e.stencil_op(gpu::STENCIL_KEEP, gpu::STENCIL_KEEP, gpu::STENCIL_KEEP);
        e.blending_color(0);
        e.early_depth_test(false, gpu::EARLYDEPTH_GREATER, 0);
        e.depth_test(true, gpu::GREATER, gpu::WRITE_ALL);
        e.alpha_test(false, gpu::ALWAYS, 0);
        e.alpha_blend(
            gpu::BLEND_ADD,
            gpu::BLEND_ADD,
            gpu::SRC_ALPHA,
            gpu::ONE_MINUS_SRC_ALPHA,
            gpu::SRC_ALPHA,
            gpu::ONE_MINUS_SRC_ALPHA,
        );
        e.frag_op_mode(gpu::FRAGOPMODE_GL);
        e.frag_op_shadow(0.0, 1.0);
        Self {
            b,
            flags: F_TEX_ENV_BUF | F_TEX_ENV_ALL | F_EFFECT | F_TEX_STATUS | F_TEX_ALL,
            program: None,
            attr_info: AttrInfo::init(),
            buf_info: BufInfo::init(),
            effect: e,
            light_env: None,
            tex_config: 1 << 12,
            tex_shadow: 1,
            tex: [None; 3],
            tex_env: [TexEnv::init(); 6],
            tex_env_buf: 0,
            tex_env_buf_clr: 0xFFFF_FFFF,
            fog_clr: 0,
            fog_lut: None,
            proc_tex: None,
            proc_tex_lut: Default::default(),
            proc_tex_color_lut: None,
            fb: None,
            viewport: [0; 5],
            scissor: [0; 3],
            fixed_attrib_dirty: 0,
            fixed_attribs: [[0.0; 4]; 12],
            unif: Uniforms::default(),
            targets: 0,
        }
    }

    /// The builder (data and texture allocation, the list so far).
    pub fn builder(&mut self) -> &mut Builder {
        &mut self.b
    }

    /// The words so far.
    pub fn words(&self) -> &[u32] {
        self.b.words()
    }

    // ---- data ----

    /// `linearAlloc` + `memcpy`: `bytes` in the data image (FCRAM), 16-byte aligned; the
    /// physical address.
    pub fn linear_alloc(&mut self, bytes: &[u8]) -> u32 {
        self.b.alloc(bytes, 16)
    }

    /// A texture image already encoded for the GPU, in VRAM (`C3D_TexInitVRAM` +
    /// `C3D_TexLoadImage`'s copy, done before the list runs); the physical address.
    pub fn vram_alloc(&mut self, bytes: &[u8]) -> u32 {
        self.b.alloc_texture(bytes)
    }

    // ---- render targets (renderqueue.c) ----

    /// `C3D_RenderTargetCreate(width, height, color, depth)` + `C3D_RenderTargetClear(...,
    /// C3D_CLEAR_ALL, ...)`: the first target is the scene's framebuffer (its picture is what
    /// the scene shows), later ones are allocated in texture memory, filled with the clear
    /// values (the clear is a GX memory fill, outside the command list).
    pub fn render_target_create(
        &mut self,
        width: u16,
        height: u16,
        color: ColorFormat,
        depth: DepthFormat,
        clear: Clear,
    ) -> Result<RenderTarget, BuildError> {
        let cfg = FbConfig::new(width.into(), height.into())
            .with_color(color)
            .with_depth(depth);
        cfg.check()?;
        let (color_addr, depth_addr) = if self.targets == 0 {
            self.b.fb = Some(cfg);
            self.b.clear(clear);
            (COLOR_BASE, DEPTH_BASE)
        } else {
            let n = u32::from(width) * u32::from(height);
            let cbytes: Vec<u8> = (0..n)
                .flat_map(|_| color.pixel_bytes(clear.color))
                .collect();
            let dbytes: Vec<u8> = (0..n)
                .flat_map(|_| depth.pixel_bytes(clear.depth, clear.stencil))
                .collect();
            (self.b.alloc_texture(&cbytes), self.b.alloc_texture(&dbytes))
        };
        self.targets += 1;
        Ok(RenderTarget {
            fb: FrameBuf {
                color_addr,
                depth_addr,
                width,
                height,
                color,
                depth,
                block32: false,
                color_mask: 0xF,
                depth_mask: if depth == DepthFormat::D24S8 { 3 } else { 2 },
            },
        })
    }

    /// `C3D_FrameDrawOn(target)`: `C3D_SetFrameBuf` (framebuffer dirty) and
    /// `C3D_SetViewport(0, 0, width, height)`.
    pub fn frame_draw_on(&mut self, target: &RenderTarget) {
        self.fb = Some(target.fb);
        self.flags |= F_FRAME_BUF;
        self.set_viewport(0, 0, target.fb.width.into(), target.fb.height.into());
    }

    /// `C3D_SetViewport(x, y, w, h)`: f24(w / 2), f31(2 / w) << 1, the same for h, y << 16 | x;
    /// the scissor is turned off (both dirty).
    pub fn set_viewport(&mut self, x: u32, y: u32, w: u32, h: u32) {
        self.flags |= F_VIEWPORT | F_SCISSOR;
        self.viewport = [
            state::f32tof24(w as f32 / 2.0),
            state::f32tof31(2.0 / w as f32) << 1,
            state::f32tof24(h as f32 / 2.0),
            state::f32tof31(2.0 / h as f32) << 1,
            y << 16 | (x & 0xFFFF),
        ];
        self.scissor[0] = 0;
    }

    /// `C3D_SetScissor(mode, left, top, right, bottom)`.
    pub fn set_scissor(&mut self, mode: u32, left: u32, top: u32, right: u32, bottom: u32) {
        self.flags |= F_SCISSOR;
        self.scissor[0] = mode;
        if mode == 0 {
            return;
        }
        self.scissor[1] = top << 16 | (left & 0xFFFF);
        self.scissor[2] = bottom.wrapping_sub(1) << 16 | (right.wrapping_sub(1) & 0xFFFF);
    }

    // ---- program (base.c C3D_BindProgram) ----

    /// `C3D_BindProgram(program)`: a different program marks the program and the attribute
    /// info dirty and decides the code uploads — both for the first program; else the vertex
    /// code when the vertex DVLP changes or (without a geometry shader) the unit-3 DVLP
    /// changes, the geometry code when the geometry DVLP changes or it is the old vertex DVLP
    /// with 512 or more words (the vertex upload stops at 512). Then the vertex shader's
    /// uniforms are loaded, and the geometry shader's (or the geometry constants cleared).
    pub fn bind_program(&mut self, program: &ShaderProgram) {
        let changed = self.program.as_ref().is_none_or(|old| !old.same(program));
        if changed {
            match &self.program {
                None => self.flags |= F_VSH_CODE | F_GSH_CODE,
                Some(old) => {
                    let old_v = old.vsh.dvlb();
                    let old_g = old.gsh.as_ref().map_or(old_v, |g| g.dvlb());
                    let new_v = program.vsh.dvlb();
                    let new_g = program.gsh.as_ref().map_or(new_v, |g| g.dvlb());
                    if !old_v.same_dvlp(new_v) || (program.gsh.is_none() && !old_g.same_dvlp(new_g))
                    {
                        self.flags |= F_VSH_CODE;
                    }
                    if !old_g.same_dvlp(new_g)
                        || (new_g.same_dvlp(old_v) && new_g.code().len() >= 512)
                    {
                        self.flags |= F_GSH_CODE;
                    }
                }
            }
            self.program = Some(program.clone());
            self.flags |= F_PROGRAM | F_ATTR_INFO;
        }
        self.unif.load_shader(&program.vsh);
        match &program.gsh {
            Some(g) => self.unif.load_shader(g),
            None => self.unif.clear_shader(ShaderType::Geometry),
        }
    }

    // ---- attributes and buffers ----

    /// `C3D_GetAttrInfo()`: the attribute info, marked dirty.
    pub fn attr_info(&mut self) -> &mut AttrInfo {
        self.flags |= F_ATTR_INFO;
        &mut self.attr_info
    }

    /// `C3D_GetBufInfo()`: the buffer info, marked dirty.
    pub fn buf_info(&mut self) -> &mut BufInfo {
        self.flags |= F_BUF_INFO;
        &mut self.buf_info
    }

    /// `C3D_FixedAttribGetWritePtr(id)` and a store of `v`.
    pub fn fixed_attrib(&mut self, id: usize, v: [f32; 4]) {
        if let Some(a) = self.fixed_attribs.get_mut(id) {
            *a = v;
            self.fixed_attrib_dirty |= 1 << id;
        }
    }

    // ---- effect ----

    /// The effect block (`getEffect`: every `C3D_DepthTest`, `C3D_AlphaBlend`, ... marks it
    /// dirty).
    pub fn effect(&mut self) -> &mut Effect {
        self.flags |= F_EFFECT;
        &mut self.effect
    }

    // ---- textures (texture.c) ----

    /// `C3D_TexBind(unit, tex)`.
    pub fn tex_bind(&mut self, unit: usize, tex: Option<Tex>) {
        if unit > 2 {
            return;
        }
        if unit > 0 && tex.is_some_and(|t| (t.param >> 28) & 7 != 0) {
            return;
        }
        self.flags |= f_tex(unit);
        self.tex[unit] = tex;
    }

    // ---- combiners (texenv.c) ----

    /// `C3D_GetTexEnv(id)`: stage `id` (0-5), marked dirty.
    pub fn tex_env(&mut self, id: usize) -> &mut TexEnv {
        let id = id.min(5);
        self.flags |= f_tex_env(id);
        &mut self.tex_env[id]
    }

    /// `C3D_TexEnvBufUpdate(mode, mask)`.
    pub fn tex_env_buf_update(&mut self, mode: u32, mask: u32) {
        let mut v = self.tex_env_buf;
        let mask = mask & 0xF;
        if mode & tev_mode::RGB != 0 {
            v = (v & !(0xF << 8)) | mask << 8;
        }
        if mode & tev_mode::ALPHA != 0 {
            v = (v & !(0xF << 12)) | mask << 12;
        }
        self.tex_env_buf = v;
        self.flags |= F_TEX_ENV_BUF;
    }

    /// `C3D_TexEnvBufColor(color)`.
    pub fn tex_env_buf_color(&mut self, color: u32) {
        self.tex_env_buf_clr = color;
        self.flags |= F_TEX_ENV_BUF;
    }

    // ---- fog (fog.c) ----

    /// `C3D_FogGasMode(fog_mode, gas_mode, z_flip)`.
    pub fn fog_gas_mode(&mut self, fog_mode: u32, gas_mode: u32, z_flip: bool) {
        self.flags |= F_TEX_ENV_BUF;
        self.tex_env_buf &= !0x100FF;
        self.tex_env_buf |= (fog_mode & 7) | (gas_mode & 1) << 3 | u32::from(z_flip) << 16;
    }

    /// `C3D_FogColor(color)`.
    pub fn fog_color(&mut self, color: u32) {
        self.flags |= F_TEX_ENV_BUF;
        self.fog_clr = color;
    }

    /// `C3D_FogLutBind(lut)`.
    pub fn fog_lut_bind(&mut self, lut: Option<FogLut>) {
        match lut {
            Some(l) => {
                self.flags |= F_FOG_LUT;
                self.fog_lut = Some(l);
            }
            None => self.flags &= !F_FOG_LUT,
        }
    }

    // ---- procedural texture (proctex.c) ----

    /// `C3D_ProcTexBind(tex_coord_id, pt)`.
    pub fn proc_tex_bind(&mut self, tex_coord_id: u32, pt: Option<ProcTex>) {
        self.flags |= F_TEX_STATUS;
        self.tex_config &= !(7 << 8);
        self.proc_tex = pt;
        if pt.is_some() {
            self.flags |= F_PROC_TEX;
            self.tex_config |= 1 << 10 | (tex_coord_id & 3) << 8;
        } else {
            self.flags &= !F_PROC_TEX;
        }
    }

    /// `C3D_ProcTexLutBind(id, lut)` (noise, RGB map, alpha map).
    pub fn proc_tex_lut_bind(&mut self, lut_id: u32, lut: Option<ProcTexLut>) {
        let idx = match lut_id {
            gpu::LUT_NOISE => 0,
            gpu::LUT_RGBMAP => 1,
            gpu::LUT_ALPHAMAP => 2,
            _ => return,
        };
        if lut.is_some() {
            self.flags |= f_proc_tex_lut(idx);
        } else {
            self.flags &= !f_proc_tex_lut(idx);
        }
        self.proc_tex_lut[idx] = lut;
    }

    /// `C3D_ProcTexColorLutBind(lut)`.
    pub fn proc_tex_color_lut_bind(&mut self, lut: Option<ProcTexColorLut>) {
        if lut.is_some() {
            self.flags |= F_PROC_TEX_COLOR_LUT;
        } else {
            self.flags &= !F_PROC_TEX_COLOR_LUT;
        }
        self.proc_tex_color_lut = lut;
    }

    // ---- lighting (lightenv.c) ----

    /// `C3D_LightEnvBind(env)`: lighting on with `env`, or off (`None`). citro3d skips the
    /// call when the same environment is bound again; here every call rebinds.
    pub fn light_env_bind(&mut self, env: Option<LightEnv>) {
        self.flags |= F_LIGHT_ENV;
        self.light_env = env;
    }

    /// The bound light environment, to change it between draws (citro3d's application keeps
    /// the pointer it bound and calls the `C3D_Light*` functions on it).
    pub fn light_env_mut(&mut self) -> Option<&mut LightEnv> {
        self.light_env.as_mut()
    }

    // ---- uniforms (uniforms.h) ----

    /// `C3D_FVUnifSet(type, id, x, y, z, w)`.
    pub fn fv_unif_set(&mut self, ty: ShaderType, id: usize, v: [f32; 4]) {
        let t = ty.index();
        if let (Some(u), Some(d)) = (
            self.unif.fv[t].get_mut(id),
            self.unif.fv_dirty[t].get_mut(id),
        ) {
            *u = v;
            *d = true;
        }
    }

    /// `C3D_FVUnifMtx4x4(type, id, mtx)`: four rows from `id`.
    pub fn fv_unif_mtx4x4(&mut self, ty: ShaderType, id: usize, rows: &[[f32; 4]; 4]) {
        for (k, r) in rows.iter().enumerate() {
            self.fv_unif_set(ty, id + k, *r);
        }
    }

    /// `C3D_IVUnifSet(type, id, x, y, z, w)` with `id` in citro3d's numbering (0x60-0x63).
    pub fn iv_unif_set(&mut self, ty: ShaderType, id: usize, v: [u8; 4]) {
        let t = ty.index();
        let Some(i) = id.checked_sub(0x60).filter(|&i| i < 4) else {
            return;
        };
        self.unif.iv[t][i] = u32::from_le_bytes(v);
        self.unif.iv_dirty[t][i] = true;
    }

    /// `C3D_BoolUnifSet(type, id, value)` with `id` in citro3d's numbering (0x68-0x77).
    pub fn bool_unif_set(&mut self, ty: ShaderType, id: usize, value: bool) {
        let t = ty.index();
        let Some(i) = id.checked_sub(0x68).filter(|&i| i < 16) else {
            return;
        };
        self.unif.bools_dirty[t] = true;
        if value {
            self.unif.bools[t] |= 1 << i;
        } else {
            self.unif.bools[t] &= !(1 << i);
        }
    }

    // ---- the context update (base.c C3Di_UpdateContext) ----

    /// `C3Di_UpdateContext`, step for step (see the module docs for the order).
    fn update_context(&mut self) {
        let list = &mut self.b.list;
        if self.flags & F_FRAME_BUF != 0 {
            self.flags &= !F_FRAME_BUF;
            if self.flags & F_DRAW_USED != 0 {
                self.flags &= !F_DRAW_USED;
                list.write(id::FRAMEBUFFER_FLUSH, 1);
                list.write(id::EARLYDEPTH_CLEAR, 1);
            }
            if let Some(fb) = &self.fb {
                fb.bind(list);
            }
        }
        if self.flags & F_VIEWPORT != 0 {
            self.flags &= !F_VIEWPORT;
            list.write_seq(id::VIEWPORT_WIDTH, &self.viewport[..4]);
            list.write(id::VIEWPORT_XY, self.viewport[4]);
        }
        if self.flags & F_SCISSOR != 0 {
            self.flags &= !F_SCISSOR;
            list.write_seq(id::SCISSORTEST_MODE, &self.scissor);
        }
        if self.flags & F_PROGRAM != 0 {
            if let Some(p) = &self.program {
                program::shader_program_configure(
                    list,
                    p,
                    self.flags & F_VSH_CODE != 0,
                    self.flags & F_GSH_CODE != 0,
                );
            }
            self.flags &= !(F_PROGRAM | F_VSH_CODE | F_GSH_CODE);
        }
        if self.flags & F_ATTR_INFO != 0 {
            self.flags &= !F_ATTR_INFO;
            self.attr_info.bind(list);
        }
        if self.flags & F_BUF_INFO != 0 {
            self.flags &= !F_BUF_INFO;
            self.buf_info.bind(list);
        }
        if self.flags & F_EFFECT != 0 {
            self.flags &= !F_EFFECT;
            self.effect.bind(list);
        }
        if self.flags & F_TEX_ALL != 0 {
            let mut units = 0;
            for i in 0..3 {
                if let Some(t) = &self.tex[i] {
                    units |= 1 << i;
                    if self.flags & f_tex(i) != 0 {
                        t.set_tex(list, i);
                    }
                }
            }
            self.tex_config &= !7;
            self.tex_config |= units | 1 << 16;
            self.flags &= !F_TEX_ALL;
            self.flags |= F_TEX_STATUS;
        }
        if self.flags & F_TEX_STATUS != 0 {
            self.flags &= !F_TEX_STATUS;
            list.write_masked(id::TEXUNIT_CONFIG, 0xB, self.tex_config);
            // "Clear texture cache if requested *after* configuring texture units".
            if self.tex_config & 1 << 16 != 0 {
                self.tex_config &= !(1 << 16);
                list.write_masked(id::TEXUNIT_CONFIG, 0x4, 1 << 16);
            }
            list.write(id::TEXUNIT0_SHADOW, self.tex_shadow);
        }
        if self.flags & (F_PROC_TEX | F_PROC_TEX_COLOR_LUT | F_PROC_TEX_LUT_ALL) != 0 {
            self.proc_tex_update();
        }
        let list = &mut self.b.list;
        if self.flags & F_TEX_ENV_BUF != 0 {
            self.flags &= !F_TEX_ENV_BUF;
            list.write_masked(id::TEXENV_UPDATE_BUFFER, 0x7, self.tex_env_buf);
            list.write(id::TEXENV_BUFFER_COLOR, self.tex_env_buf_clr);
            list.write(id::FOG_COLOR, self.fog_clr);
        }
        if self.flags & F_FOG_LUT != 0 && self.tex_env_buf & 7 != gpu::NO_FOG {
            self.flags &= !F_FOG_LUT;
            if let Some(lut) = &self.fog_lut {
                list.write(id::FOG_LUT_INDEX, 0);
                list.write_repeat(id::FOG_LUT_DATA0, &lut.0);
            }
        }
        // Gas mode (`C3Di_GasUpdate`) is not offered by this emitter.
        if self.flags & F_TEX_ENV_ALL != 0 {
            for i in 0..6 {
                if self.flags & f_tex_env(i) != 0 {
                    self.tex_env[i].bind(list, i);
                }
            }
            self.flags &= !F_TEX_ENV_ALL;
        }
        if self.flags & F_LIGHT_ENV != 0 {
            let enable = u32::from(self.light_env.is_some());
            list.write(id::LIGHTING_ENABLE0, enable);
            list.write(id::LIGHTING_ENABLE1, enable ^ 1);
            self.flags &= !F_LIGHT_ENV;
        }
        if let Some(env) = &mut self.light_env {
            env.update(list);
        }
        if self.fixed_attrib_dirty != 0 {
            for i in 0..12 {
                if self.fixed_attrib_dirty & (1 << i) == 0 {
                    continue;
                }
                list.write(id::FIXEDATTRIB_INDEX, i as u32);
                // C3D_ImmSendAttrib: the f24 values in transfer packing, one consecutive write.
                let v = self.fixed_attribs[i].map(state::f32tof24);
                list.write_seq(
                    id::FIXEDATTRIB_DATA0,
                    &program::Float24Uniform::from_f24_bits(0, v).data,
                );
            }
            self.fixed_attrib_dirty = 0;
        }
        self.unif.update(list, ShaderType::Vertex);
        self.unif.update(list, ShaderType::Geometry);
    }

    /// `C3Di_ProcTexUpdate`: nothing unless unit 3 is on (TEXUNIT_CONFIG bit 10); the six
    /// PROCTEX words (consecutive); each dirty table (noise 0, RGB map 2, alpha map 3) as
    /// GPUREG_PROCTEX_LUT = table << 8 and 128 repeated writes to PROCTEX_LUT_DATA0; the colour
    /// table (4) and the colour differences (5), 256 words each.
    fn proc_tex_update(&mut self) {
        if self.tex_config & 1 << 10 == 0 {
            return;
        }
        let list = &mut self.b.list;
        if self.flags & F_PROC_TEX != 0 {
            self.flags &= !F_PROC_TEX;
            if let Some(pt) = &self.proc_tex {
                list.write_seq(id::TEXUNIT3_PROCTEX0, &pt.0);
            }
        }
        if self.flags & F_PROC_TEX_LUT_ALL != 0 {
            for i in 0..3 {
                let table = if i == 0 { 0 } else { i as u32 + 1 };
                if self.flags & f_proc_tex_lut(i) == 0 {
                    continue;
                }
                if let Some(lut) = &self.proc_tex_lut[i] {
                    list.write(id::PROCTEX_LUT, table << 8);
                    list.write_repeat(id::PROCTEX_LUT_DATA0, &lut.0);
                }
            }
            self.flags &= !F_PROC_TEX_LUT_ALL;
        }
        if self.flags & F_PROC_TEX_COLOR_LUT != 0 {
            self.flags &= !F_PROC_TEX_COLOR_LUT;
            if let Some(c) = &self.proc_tex_color_lut {
                list.write(id::PROCTEX_LUT, gpu::LUT_COLOR << 8);
                list.write_repeat(id::PROCTEX_LUT_DATA0, &c.color);
                list.write(id::PROCTEX_LUT, gpu::LUT_COLORDIF << 8);
                list.write_repeat(id::PROCTEX_LUT_DATA0, &c.diff);
            }
        }
    }

    // ---- draws ----

    /// `C3D_DrawArrays(primitive, first, size)`: the context update, then
    /// GPUREG_PRIMITIVE_CONFIG byte 1 (mask 0x2) = primitive, RESTART_PRIMITIVE = 1,
    /// INDEXBUFFER_CONFIG = 0x80000000 ("not used, but still required"), NUMVERTICES = size,
    /// VERTEX_OFFSET = first, GEOSTAGE_CONFIG2 byte 0 = 1 (array drawing), START_DRAW_FUNC0
    /// byte 0 = 0, DRAWARRAYS = 1, START_DRAW_FUNC0 byte 0 = 1, GEOSTAGE_CONFIG2 byte 0 = 0,
    /// VTX_FUNC = 1 (clear the post-vertex cache).
    pub fn draw_arrays(&mut self, primitive: u32, first: u32, size: u32) {
        self.update_context();
        let list = &mut self.b.list;
        list.write_masked(id::PRIMITIVE_CONFIG, 0x2, primitive);
        list.write(id::RESTART_PRIMITIVE, 1);
        list.write(id::INDEXBUFFER_CONFIG, 0x8000_0000);
        list.write(id::NUMVERTICES, size);
        list.write(id::VERTEX_OFFSET, first);
        list.write_masked(id::GEOSTAGE_CONFIG2, 0x1, 1);
        list.write_masked(id::START_DRAW_FUNC0, 0x1, 0);
        list.write(id::DRAWARRAYS, 1);
        list.write_masked(id::START_DRAW_FUNC0, 0x1, 1);
        list.write_masked(id::GEOSTAGE_CONFIG2, 0x1, 0);
        list.write(id::VTX_FUNC, 1);
        self.flags |= F_DRAW_USED;
    }

    /// `C3D_DrawElements(primitive, count, type, indices)` for indices at physical `indices`:
    /// nothing when they lie below the buffer base; else the context update, then
    /// PRIMITIVE_CONFIG byte 1 = primitive (GPU_TRIANGLES becomes GPU_GEOMETRY_PRIM, 3),
    /// RESTART_PRIMITIVE = 1, INDEXBUFFER_CONFIG = (indices − base) | type << 31, NUMVERTICES =
    /// count, VERTEX_OFFSET = 0, for triangles GEOSTAGE_CONFIG and GEOSTAGE_CONFIG2 byte 1 =
    /// 0x100, START_DRAW_FUNC0 byte 0 = 0, DRAWELEMENTS = 1, START_DRAW_FUNC0 byte 0 = 1, for
    /// triangles GEOSTAGE_CONFIG / CONFIG2 byte 1 = 0, VTX_FUNC = 1 and PRIMITIVE_CONFIG byte 3
    /// (mask 0x8) = 0 twice.
    pub fn draw_elements(&mut self, primitive: u32, count: u32, ty: u32, indices: u32) {
        let base = self.buf_info.base_paddr;
        if indices < base {
            return;
        }
        self.update_context();
        let list = &mut self.b.list;
        let tris = primitive == gpu::TRIANGLES;
        list.write_masked(
            id::PRIMITIVE_CONFIG,
            0x2,
            if tris { gpu::GEOMETRY_PRIM } else { primitive },
        );
        list.write(id::RESTART_PRIMITIVE, 1);
        list.write(id::INDEXBUFFER_CONFIG, (indices - base) | ty << 31);
        list.write(id::NUMVERTICES, count);
        list.write(id::VERTEX_OFFSET, 0);
        if tris {
            list.write_masked(id::GEOSTAGE_CONFIG, 0x2, 0x100);
            list.write_masked(id::GEOSTAGE_CONFIG2, 0x2, 0x100);
        }
        list.write_masked(id::START_DRAW_FUNC0, 0x1, 0);
        list.write(id::DRAWELEMENTS, 1);
        list.write_masked(id::START_DRAW_FUNC0, 0x1, 1);
        if tris {
            list.write_masked(id::GEOSTAGE_CONFIG, 0x2, 0);
            list.write_masked(id::GEOSTAGE_CONFIG2, 0x2, 0);
        }
        list.write(id::VTX_FUNC, 1);
        list.write_masked(id::PRIMITIVE_CONFIG, 0x8, 0);
        list.write_masked(id::PRIMITIVE_CONFIG, 0x8, 0);
        self.flags |= F_DRAW_USED;
    }

    // ---- frame end (renderqueue.c C3D_FrameEnd → base.c C3Di_SplitFrame → gpu.c
    // GPUCMD_Split) ----

    /// Ends the frame as `C3D_FrameEnd` does — after a draw, FRAMEBUFFER_FLUSH = 1,
    /// FRAMEBUFFER_INVALIDATE = 1, EARLYDEPTH_CLEAR = 1 (`C3Di_SplitFrame`); then
    /// GPUREG_FINALIZE = 0x12345678, and a second one when the list is not a multiple of 16
    /// bytes (`GPUCMD_Split`) — and returns the builder holding the list and the memory.
    ///
    /// [`Builder::finish`] appends its own end (FLUSH, INVALIDATE, FINALIZE) after these
    /// words: the command processor never reads it (seed 002: "any command following
    /// [FINALIZE] is ignored"), so the writes the GPU executes are citro3d's alone. This is how
    /// the scene library's table (`scenes::SCENES`, which finishes builders) takes driver
    /// scenes; [`Citro3d::finish`] gives the list without the tail.
    pub fn into_builder(mut self) -> Builder {
        if self.flags & F_DRAW_USED != 0 {
            self.flags &= !F_DRAW_USED;
            let list = &mut self.b.list;
            list.write(id::FRAMEBUFFER_FLUSH, 1);
            list.write(id::FRAMEBUFFER_INVALIDATE, 1);
            list.write(id::EARLYDEPTH_CLEAR, 1);
        }
        let list = &mut self.b.list;
        list.write(id::FINALIZE, FINALIZE_VALUE);
        if list.words().len() % 4 != 0 {
            list.write(id::FINALIZE, FINALIZE_VALUE);
        }
        self.b
    }

    /// [`Citro3d::into_builder`], packed as a scene whose list is exactly citro3d's (ending
    /// with its FINALIZE), submitted whole; the memory images are [`Builder::finish`]'s.
    pub fn finish(self, name: &str, description: &str) -> Result<Scene, BuildError> {
        let b = self.into_builder();
        let words = b.list.words().to_vec();
        let mut scene = b.finish(name, description)?;
        let image = scene
            .case
            .images
            .iter_mut()
            .find(|im| im.base == DEFAULT_LIST_ADDR)
            .ok_or(BuildError::NoFramebuffer)?;
        image.words = words;
        scene.case.submit_addr = DEFAULT_LIST_ADDR;
        scene.case.submit_size = (image.words.len() * 4) as u32;
        Ok(scene)
    }
}
