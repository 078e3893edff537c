//! citro3d's fixed-function state objects — the effect block (`effect.c`), combiner stages
//! (`texenv.h`), textures (`texture.c` / `texture.h`), the light environment and lights
//! (`lightenv.c`, `light.c`, `lightlut.c`), the fog LUT (`fog.c`) and the procedural texture
//! (`proctex.c`) — holding the same register words citro3d keeps and binding them with the
//! same writes. The numeric conversions are libctru's (`gpu.c` `f32tof16` ... `f32tof31`).
//!
//! Facts were read from devkitPro citro3d and libctru; the code is ours.

use pica_model::cmdlist::CommandList;
use pica_model::regs::id;

/// GPU enumeration values (libctru `gpu/enums.h`), the subset the driver scenes use.
pub mod gpu {
    /// GPU_Primitive_t: triangles.
    pub const TRIANGLES: u32 = 0x0000;
    /// GPU_Primitive_t: triangle strip.
    pub const TRIANGLE_STRIP: u32 = 0x0100;
    /// GPU_Primitive_t: triangle fan.
    pub const TRIANGLE_FAN: u32 = 0x0200;
    /// GPU_Primitive_t: geometry-shader primitive.
    pub const GEOMETRY_PRIM: u32 = 0x0300;

    /// GPU_FORMATS.
    pub const BYTE: u32 = 0;
    /// GPU_FORMATS.
    pub const UNSIGNED_BYTE: u32 = 1;
    /// GPU_FORMATS.
    pub const SHORT: u32 = 2;
    /// GPU_FORMATS.
    pub const FLOAT: u32 = 3;

    /// GPU_TESTFUNC.
    pub const NEVER: u32 = 0;
    /// GPU_TESTFUNC.
    pub const ALWAYS: u32 = 1;
    /// GPU_TESTFUNC.
    pub const EQUAL: u32 = 2;
    /// GPU_TESTFUNC.
    pub const LESS: u32 = 4;
    /// GPU_TESTFUNC.
    pub const GREATER: u32 = 6;
    /// GPU_TESTFUNC.
    pub const GEQUAL: u32 = 7;

    /// GPU_EARLYDEPTHFUNC: greater.
    pub const EARLYDEPTH_GREATER: u32 = 1;

    /// GPU_WRITEMASK: colour (RGBA).
    pub const WRITE_COLOR: u32 = 0x0F;
    /// GPU_WRITEMASK: colour and depth.
    pub const WRITE_ALL: u32 = 0x1F;

    /// GPU_CULLMODE.
    pub const CULL_NONE: u32 = 0;
    /// GPU_CULLMODE.
    pub const CULL_BACK_CCW: u32 = 2;

    /// GPU_STENCILOP: keep.
    pub const STENCIL_KEEP: u32 = 0;

    /// GPU_BLENDEQUATION: add.
    pub const BLEND_ADD: u32 = 0;
    /// GPU_BLENDFACTOR.
    pub const ZERO: u32 = 0;
    /// GPU_BLENDFACTOR.
    pub const ONE: u32 = 1;
    /// GPU_BLENDFACTOR.
    pub const SRC_ALPHA: u32 = 6;
    /// GPU_BLENDFACTOR.
    pub const ONE_MINUS_SRC_ALPHA: u32 = 7;

    /// GPU_FRAGOPMODE: OpenGL mode.
    pub const FRAGOPMODE_GL: u32 = 0;

    /// GPU_TEVSRC.
    pub const PRIMARY_COLOR: u32 = 0x00;
    /// GPU_TEVSRC.
    pub const FRAGMENT_PRIMARY_COLOR: u32 = 0x01;
    /// GPU_TEVSRC.
    pub const FRAGMENT_SECONDARY_COLOR: u32 = 0x02;
    /// GPU_TEVSRC.
    pub const TEXTURE0: u32 = 0x03;
    /// GPU_TEVSRC.
    pub const TEXTURE3: u32 = 0x06;
    /// GPU_TEVSRC.
    pub const CONSTANT: u32 = 0x0E;
    /// GPU_TEVSRC.
    pub const PREVIOUS: u32 = 0x0F;

    /// GPU_COMBINEFUNC.
    pub const REPLACE: u32 = 0x00;
    /// GPU_COMBINEFUNC.
    pub const MODULATE: u32 = 0x01;
    /// GPU_COMBINEFUNC.
    pub const ADD: u32 = 0x02;

    /// GPU_TEVSCALE: 1×.
    pub const TEVSCALE_1: u32 = 0;

    /// GPU_TEXCOLOR: RGBA8.
    pub const RGBA8: u32 = 0x0;
    /// GPU_TEXTURE_FILTER_PARAM.
    pub const NEAREST: u32 = 0;
    /// GPU_TEXTURE_FILTER_PARAM.
    pub const LINEAR: u32 = 1;
    /// GPU_TEXTURE_WRAP_PARAM.
    pub const CLAMP_TO_EDGE: u32 = 0;
    /// GPU_TEXTURE_WRAP_PARAM.
    pub const REPEAT: u32 = 2;

    /// GPU_COLORBUF: RGBA8.
    pub const RB_RGBA8: u32 = 0;
    /// GPU_DEPTHBUF: 24-bit depth + 8-bit stencil.
    pub const RB_DEPTH24_STENCIL8: u32 = 3;

    /// GPU_FOGMODE: none.
    pub const NO_FOG: u32 = 0;
    /// GPU_FOGMODE: fog.
    pub const FOG: u32 = 5;
    /// GPU_GASMODE: plain density.
    pub const PLAIN_DENSITY: u32 = 0;

    /// GPU_PROCTEX_CLAMP: clamp to edge.
    pub const PT_CLAMP_TO_EDGE: u32 = 1;
    /// GPU_PROCTEX_CLAMP: mirrored repeat.
    pub const PT_MIRRORED_REPEAT: u32 = 3;
    /// GPU_PROCTEX_MAPFUNC: U.
    pub const PT_U: u32 = 0;
    /// GPU_PROCTEX_MAPFUNC: V.
    pub const PT_V: u32 = 2;
    /// GPU_PROCTEX_MAPFUNC: sqrt(U² + V²).
    pub const PT_SQRT2: u32 = 6;
    /// GPU_PROCTEX_FILTER: nearest.
    pub const PT_NEAREST: u32 = 0;
    /// GPU_PROCTEX_FILTER: linear.
    pub const PT_LINEAR: u32 = 1;
    /// GPU_PROCTEX_LUTID: noise.
    pub const LUT_NOISE: u32 = 0;
    /// GPU_PROCTEX_LUTID: RGB mapping.
    pub const LUT_RGBMAP: u32 = 2;
    /// GPU_PROCTEX_LUTID: alpha mapping.
    pub const LUT_ALPHAMAP: u32 = 3;
    /// GPU_PROCTEX_LUTID: colour table.
    pub const LUT_COLOR: u32 = 4;
    /// GPU_PROCTEX_LUTID: colour difference table.
    pub const LUT_COLORDIF: u32 = 5;

    /// GPU_LIGHTLUTID: D0.
    pub const LUT_D0: u32 = 0;
    /// GPU_LIGHTLUTID: D1.
    pub const LUT_D1: u32 = 1;
    /// GPU_LIGHTLUTID: spotlight.
    pub const LUT_SP: u32 = 2;
    /// GPU_LIGHTLUTID: Fresnel.
    pub const LUT_FR: u32 = 3;
    /// GPU_LIGHTLUTID: distance attenuation.
    pub const LUT_DA: u32 = 7;
    /// GPU_LIGHTLUTINPUT: N·H.
    pub const LUTINPUT_NH: u32 = 0;
    /// GPU_LIGHTLUTINPUT: L·N.
    pub const LUTINPUT_LN: u32 = 3;
    /// GPU_LIGHTLUTINPUT: -L·P (spot).
    pub const LUTINPUT_SP: u32 = 4;
    /// GPU_LIGHTLUTINPUT: cos φ.
    pub const LUTINPUT_CP: u32 = 5;
    /// GPU_LIGHTLUTSELECT: common LUTs.
    pub const LUTSELECT_COMMON: u32 = 0;
    /// GPU_LIGHTLUTSELECT: spotlight LUT.
    pub const LUTSELECT_SP: u32 = 1;
    /// GPU_LIGHTLUTSELECT: distance attenuation LUT.
    pub const LUTSELECT_DA: u32 = 2;

    /// GPU_MAKEGASDEPTHFUNC: the gas depth function of a depth test function
    /// (`(0xAF02 >> (n << 1)) & 3`).
    pub const fn make_gas_depth_func(n: u32) -> u32 {
        (0xAF02 >> ((n & 7) << 1)) & 3
    }
}

// ---- libctru float conversions (gpu.c): truncate the mantissa, rebias the exponent, flush an
// exponent below the format's range to a signed zero, saturate one above it to infinity ----

fn f32_to_small(f: f32, exp_bits: u32, mant_bits: u32, bias: i32) -> u32 {
    let i = f.to_bits();
    let mantissa = (i & 0x7F_FFFF) >> (23 - mant_bits);
    let exponent = ((i >> 23) & 0xFF) as i32 - 127 + bias;
    let sign = i >> 31;
    let sign_at = exp_bits + mant_bits;
    let exp_max = (1i32 << exp_bits) - 1;
    if exponent < 0 {
        sign << sign_at
    } else if exponent > exp_max {
        sign << sign_at | (exp_max as u32) << mant_bits
    } else {
        sign << sign_at | (exponent as u32) << mant_bits | mantissa
    }
}

/// libctru `f32tof16` (1.5.10).
pub fn f32tof16(f: f32) -> u32 {
    f32_to_small(f, 5, 10, 15)
}

/// libctru `f32tof20` (1.7.12).
pub fn f32tof20(f: f32) -> u32 {
    f32_to_small(f, 7, 12, 63)
}

/// libctru `f32tof24` (1.7.16).
pub fn f32tof24(f: f32) -> u32 {
    f32_to_small(f, 7, 16, 63)
}

/// libctru `f32tof31` (1.7.23; the caller shifts it left by one for the register).
pub fn f32tof31(f: f32) -> u32 {
    f32_to_small(f, 7, 23, 63)
}

// ---- effect.c ----

/// citro3d `C3D_Effect`: the raw words of the fragment-operation block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    /// GPUREG_COLOR_OPERATION (bytes 0-2).
    pub frag_op_mode: u32,
    /// GPUREG_FRAGOP_SHADOW.
    pub frag_op_shadow: u32,
    /// GPUREG_DEPTHMAP_SCALE.
    pub z_scale: u32,
    /// GPUREG_DEPTHMAP_OFFSET.
    pub z_offset: u32,
    /// GPUREG_FACECULLING_CONFIG (low 2 bits).
    pub cull_mode: u32,
    /// GPUREG_DEPTHMAP_ENABLE.
    pub z_buffer: bool,
    /// GPUREG_EARLYDEPTH_TEST1/2.
    pub early_depth: bool,
    /// GPUREG_EARLYDEPTH_FUNC.
    pub early_depth_func: u32,
    /// GPUREG_EARLYDEPTH_DATA.
    pub early_depth_ref: u32,
    /// GPUREG_FRAGOP_ALPHA_TEST.
    pub alpha_test: u32,
    /// GPUREG_STENCIL_TEST.
    pub stencil_mode: u32,
    /// GPUREG_STENCIL_OP.
    pub stencil_op: u32,
    /// GPUREG_DEPTH_COLOR_MASK.
    pub depth_test: u32,
    /// GPUREG_BLEND_COLOR.
    pub blend_clr: u32,
    /// GPUREG_BLEND_FUNC.
    pub alpha_blend: u32,
    /// GPUREG_LOGIC_OP.
    pub clr_logic_op: u32,
}

impl Effect {
    /// All zero (citro3d's context is zero-initialised static storage).
    pub const fn zeroed() -> Self {
        Self {
            frag_op_mode: 0,
            frag_op_shadow: 0,
            z_scale: 0,
            z_offset: 0,
            cull_mode: 0,
            z_buffer: false,
            early_depth: false,
            early_depth_func: 0,
            early_depth_ref: 0,
            alpha_test: 0,
            stencil_mode: 0,
            stencil_op: 0,
            depth_test: 0,
            blend_clr: 0,
            alpha_blend: 0,
            clr_logic_op: 0,
        }
    }

    /// `C3D_DepthMap`.
    pub fn depth_map(&mut self, z_buffer: bool, scale: f32, offset: f32) {
        self.z_buffer = z_buffer;
        self.z_scale = f32tof24(scale);
        self.z_offset = f32tof24(offset);
    }

    /// `C3D_CullFace`.
    pub fn cull_face(&mut self, mode: u32) {
        self.cull_mode = mode;
    }

    /// `C3D_StencilTest`.
    pub fn stencil_test(
        &mut self,
        enable: bool,
        func: u32,
        reference: u32,
        input_mask: u32,
        write_mask: u32,
    ) {
        self.stencil_mode = u32::from(enable)
            | (func & 7) << 4
            | write_mask << 8
            | reference << 16
            | input_mask << 24;
    }

    /// `C3D_StencilOp`.
    pub fn stencil_op(&mut self, sfail: u32, dfail: u32, pass: u32) {
        self.stencil_op = sfail | dfail << 4 | pass << 8;
    }

    /// `C3D_BlendingColor`.
    pub fn blending_color(&mut self, color: u32) {
        self.blend_clr = color;
    }

    /// `C3D_EarlyDepthTest`.
    pub fn early_depth_test(&mut self, enable: bool, func: u32, reference: u32) {
        self.early_depth = enable;
        self.early_depth_func = func;
        self.early_depth_ref = reference;
    }

    /// `C3D_DepthTest`.
    pub fn depth_test(&mut self, enable: bool, func: u32, write_mask: u32) {
        self.depth_test = u32::from(enable) | (func & 7) << 4 | write_mask << 8;
    }

    /// `C3D_AlphaTest`.
    pub fn alpha_test(&mut self, enable: bool, func: u32, reference: u32) {
        self.alpha_test = u32::from(enable) | (func & 7) << 4 | reference << 8;
    }

    /// `C3D_AlphaBlend`: the blend function word, and blending (not logic op) in
    /// COLOR_OPERATION bits 8-15.
    pub fn alpha_blend(
        &mut self,
        color_eq: u32,
        alpha_eq: u32,
        src_clr: u32,
        dst_clr: u32,
        src_alpha: u32,
        dst_alpha: u32,
    ) {
        self.alpha_blend = color_eq
            | alpha_eq << 8
            | src_clr << 16
            | dst_clr << 20
            | src_alpha << 24
            | dst_alpha << 28;
        self.frag_op_mode &= !0xFF00;
        self.frag_op_mode |= 0x0100;
    }

    /// `C3D_ColorLogicOp`.
    pub fn color_logic_op(&mut self, op: u32) {
        self.frag_op_mode &= !0xFF00;
        self.clr_logic_op = op;
    }

    /// `C3D_FragOpMode`: the mode in bits 0-7 and the constant 0xE4 in bits 16-23.
    pub fn frag_op_mode(&mut self, mode: u32) {
        self.frag_op_mode &= !0xFF_00FF;
        self.frag_op_mode |= 0xE4_0000 | mode;
    }

    /// `C3D_FragOpShadow`.
    pub fn frag_op_shadow(&mut self, scale: f32, bias: f32) {
        self.frag_op_shadow = f32tof16(scale + bias) | f32tof16(-scale) << 16;
    }

    /// `C3Di_EffectBind`, write for write: DEPTHMAP_ENABLE, FACECULLING_CONFIG (low two bits),
    /// DEPTHMAP_SCALE/OFFSET (consecutive), FRAGOP_ALPHA_TEST, STENCIL_TEST, STENCIL_OP,
    /// DEPTH_COLOR_MASK (consecutive), GAS_DELTAZ_DEPTH byte 3 (mask 0x8) = the gas depth
    /// function of the depth test function, BLEND_COLOR, BLEND_FUNC, LOGIC_OP,
    /// COLOR_OPERATION (mask 0x7), FRAGOP_SHADOW, EARLYDEPTH_TEST1 (mask 0x1),
    /// EARLYDEPTH_TEST2, EARLYDEPTH_FUNC (mask 0x1), EARLYDEPTH_DATA (mask 0x7).
    pub fn bind(&self, list: &mut CommandList) {
        list.write(id::DEPTHMAP_ENABLE, u32::from(self.z_buffer));
        list.write(id::FACECULLING_CONFIG, self.cull_mode & 0x3);
        list.write_seq(id::DEPTHMAP_SCALE, &[self.z_scale, self.z_offset]);
        list.write_seq(
            id::FRAGOP_ALPHA_TEST,
            &[
                self.alpha_test,
                self.stencil_mode,
                self.stencil_op,
                self.depth_test,
            ],
        );
        list.write_masked(
            id::GAS_DELTAZ_DEPTH,
            0x8,
            gpu::make_gas_depth_func((self.depth_test >> 4) & 7) << 24,
        );
        list.write(id::BLEND_COLOR, self.blend_clr);
        list.write(id::BLEND_FUNC, self.alpha_blend);
        list.write(id::LOGIC_OP, self.clr_logic_op);
        list.write_masked(id::COLOR_OPERATION, 0x7, self.frag_op_mode);
        list.write(id::FRAGOP_SHADOW, self.frag_op_shadow);
        list.write_masked(id::EARLYDEPTH_TEST1, 0x1, u32::from(self.early_depth));
        list.write(id::EARLYDEPTH_TEST2, u32::from(self.early_depth));
        list.write_masked(id::EARLYDEPTH_FUNC, 0x1, self.early_depth_func);
        list.write_masked(id::EARLYDEPTH_DATA, 0x7, self.early_depth_ref);
    }
}

// ---- texenv.h / texenv.c ----

/// citro3d `C3D_TexEnvMode`: which half of a stage a setter changes.
pub mod tev_mode {
    /// C3D_RGB.
    pub const RGB: u32 = 1;
    /// C3D_Alpha.
    pub const ALPHA: u32 = 2;
    /// C3D_Both.
    pub const BOTH: u32 = 3;
}

/// citro3d `C3D_TexEnv`: one combiner stage as the five register words it is bound as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexEnv {
    /// RGB sources (`GPU_TEVSOURCES`).
    pub src_rgb: u32,
    /// Alpha sources.
    pub src_alpha: u32,
    /// RGB operands (12 bits).
    pub op_rgb: u32,
    /// Alpha operands (12 bits).
    pub op_alpha: u32,
    /// RGB combine function.
    pub func_rgb: u32,
    /// Alpha combine function.
    pub func_alpha: u32,
    /// Constant colour (0xAABBGGRR).
    pub color: u32,
    /// RGB scale.
    pub scale_rgb: u32,
    /// Alpha scale.
    pub scale_alpha: u32,
}

impl Default for TexEnv {
    fn default() -> Self {
        Self::init()
    }
}

impl TexEnv {
    /// `C3D_TexEnvInit`: sources previous, operands 0, replace, constant 0xFFFFFFFF, scale 1×.
    pub const fn init() -> Self {
        Self {
            src_rgb: gpu::PREVIOUS,
            src_alpha: gpu::PREVIOUS,
            op_rgb: 0,
            op_alpha: 0,
            func_rgb: gpu::REPLACE,
            func_alpha: gpu::REPLACE,
            color: 0xFFFF_FFFF,
            scale_rgb: gpu::TEVSCALE_1,
            scale_alpha: gpu::TEVSCALE_1,
        }
    }

    /// `C3D_TexEnvSrc(env, mode, s1, s2, s3)`.
    pub fn src(&mut self, mode: u32, s1: u32, s2: u32, s3: u32) -> &mut Self {
        let p = s1 | s2 << 4 | s3 << 8;
        if mode & tev_mode::RGB != 0 {
            self.src_rgb = p;
        }
        if mode & tev_mode::ALPHA != 0 {
            self.src_alpha = p;
        }
        self
    }

    /// `C3D_TexEnvOpRgb`.
    pub fn op_rgb(&mut self, o1: u32, o2: u32, o3: u32) -> &mut Self {
        self.op_rgb = (o1 | o2 << 4 | o3 << 8) & 0xFFF;
        self
    }

    /// `C3D_TexEnvOpAlpha`.
    pub fn op_alpha(&mut self, o1: u32, o2: u32, o3: u32) -> &mut Self {
        self.op_alpha = (o1 | o2 << 4 | o3 << 8) & 0xFFF;
        self
    }

    /// `C3D_TexEnvFunc`.
    pub fn func(&mut self, mode: u32, f: u32) -> &mut Self {
        if mode & tev_mode::RGB != 0 {
            self.func_rgb = f;
        }
        if mode & tev_mode::ALPHA != 0 {
            self.func_alpha = f;
        }
        self
    }

    /// `C3D_TexEnvColor`.
    pub fn color(&mut self, c: u32) -> &mut Self {
        self.color = c;
        self
    }

    /// The five words of the struct as `C3Di_TexEnvBind` sends them: sources (RGB low
    /// halfword, alpha high), operands (RGB bits 0-11, alpha 12-23), functions, colour,
    /// scales.
    pub fn words(&self) -> [u32; 5] {
        [
            (self.src_rgb & 0xFFFF) | (self.src_alpha & 0xFFFF) << 16,
            (self.op_rgb & 0xFFF) | (self.op_alpha & 0xFFF) << 12,
            (self.func_rgb & 0xFFFF) | (self.func_alpha & 0xFFFF) << 16,
            self.color,
            (self.scale_rgb & 0xFFFF) | (self.scale_alpha & 0xFFFF) << 16,
        ]
    }

    /// `C3Di_TexEnvBind(id, env)`: one consecutive write of the five words at
    /// GPUREG_TEXENV0_SOURCE + 8·id (stages 4 and 5 two slots further, `id += 2`).
    pub fn bind(&self, list: &mut CommandList, stage: usize) {
        let slot = if stage >= 4 { stage + 2 } else { stage } as u16;
        list.write_seq(id::TEXENV0_SOURCE + 8 * slot, &self.words());
    }
}

// ---- texture.c / texture.h ----

/// citro3d `C3D_Tex` for a 2D texture: where it is and the words `C3Di_SetTex` sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tex {
    /// Physical address of level 0.
    pub addr: u32,
    /// GPU_TEXCOLOR.
    pub fmt: u32,
    /// Width.
    pub width: u16,
    /// Height.
    pub height: u16,
    /// GPUREG_TEXUNITi_PARAM.
    pub param: u32,
    /// GPUREG_TEXUNITi_BORDER_COLOR.
    pub border: u32,
    /// GPUREG_TEXUNITi_LOD: bias (13 bits), max level bits 16-23, min level 24-31.
    pub lod_param: u32,
}

impl Tex {
    /// `C3D_TexInit(tex, width, height, format)` for a texture at physical `addr`: type 2D,
    /// ETC1 bit for ETC1, nearest filters, clamp to edge, border 0, no mip levels.
    pub fn init(addr: u32, width: u16, height: u16, fmt: u32) -> Self {
        let mut param = 0; // GPU_TEXTURE_MODE(GPU_TEX_2D)
        if fmt == 0xC {
            param |= 1 << 5; // GPU_TEXTURE_ETC1_PARAM
        }
        Self {
            addr,
            fmt,
            width,
            height,
            param,
            border: 0,
            lod_param: 0,
        }
    }

    /// `C3D_TexSetFilter(tex, mag, min)`.
    pub fn set_filter(&mut self, mag: u32, min: u32) {
        self.param &= !(1 << 1 | 1 << 2);
        self.param |= (mag & 1) << 1 | (min & 1) << 2;
    }

    /// `C3D_TexSetWrap(tex, s, t)`.
    pub fn set_wrap(&mut self, s: u32, t: u32) {
        self.param &= !(3 << 12 | 3 << 8);
        self.param |= (s & 3) << 12 | (t & 3) << 8;
    }

    /// The `dim` union: height in bits 0-15, width in 16-31.
    pub fn dim(&self) -> u32 {
        u32::from(self.height) | u32::from(self.width) << 16
    }

    /// `C3Di_SetTex(unit, tex)` for a 2D texture: one consecutive write of BORDER_COLOR, DIM,
    /// PARAM, LOD and ADDR1 (address >> 3) from GPUREG_TEXUNITi_BORDER_COLOR, then
    /// GPUREG_TEXUNITi_TYPE = the format. Units other than 0-2 write nothing.
    pub fn set_tex(&self, list: &mut CommandList, unit: usize) {
        let regs = [
            self.border,
            self.dim(),
            self.param,
            self.lod_param,
            self.addr >> 3,
        ];
        let (base, ty) = match unit {
            0 => (id::TEXUNIT0_BORDER_COLOR, id::TEXUNIT0_TYPE),
            1 => (id::TEXUNIT1_BORDER_COLOR, id::TEXUNIT1_TYPE),
            2 => (id::TEXUNIT2_BORDER_COLOR, id::TEXUNIT2_TYPE),
            _ => return,
        };
        list.write_seq(base, &regs);
        list.write(ty, self.fmt);
    }
}

// ---- lightlut.c ----

/// citro3d `C3D_LightLut`: 256 entries of GPUREG_LIGHTING_LUT_DATA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LightLut(pub [u32; 256]);

impl LightLut {
    /// `LightLut_FromArray`: entry i from `data[i]` (value, × 0x1000 truncated, clamped to
    /// 0xFFF, 0 unless positive) and `data[256 + i]` (difference: sign in bit 11 of the 12-bit
    /// field, magnitude × 0x800 truncated, clamped to 0x7FF), value in bits 0-11 and the
    /// difference field in bits 12-23.
    pub fn from_array(data: &[f32; 512]) -> Self {
        let mut out = [0u32; 256];
        for (i, e) in out.iter_mut().enumerate() {
            let (mut v, mut d) = (data[i], data[i + 256]);
            let mut val = 0u32;
            if v > 0.0 {
                v *= 4096.0;
                val = if v < 4096.0 { v as u32 } else { 0xFFF };
            }
            let mut val2 = 0u32;
            if d != 0.0 {
                if d < 0.0 {
                    d = -d;
                    val2 = 0x800;
                }
                d *= 2048.0;
                val2 |= if d < 2048.0 { d as u32 } else { 0x7FF };
            }
            *e = val | val2 << 12;
        }
        Self(out)
    }

    /// `LightLut_FromFunc(lut, func, param, false)` for an input range 0..1: entry i =
    /// f(i / 256), difference f((i + 1) / 256) - f(i / 256), in f32 arithmetic.
    pub fn from_fn(f: impl Fn(f32) -> f32) -> Self {
        let mut data = [0f32; 512];
        for i in 0..=256usize {
            let x = i as f32 / 256.0;
            let val = f(x);
            if i < 256 {
                data[i] = val;
            }
            if i > 0 {
                data[i + 255] = val - data[i - 1];
            }
        }
        Self::from_array(&data)
    }

    /// `C3Di_LightLutUpload(config, lut)`: GPUREG_LIGHTING_LUT_INDEX = `index`, then the 256
    /// entries in 32 repeated-ID writes of eight words to GPUREG_LIGHTING_LUT_DATA0.
    pub fn upload(&self, list: &mut CommandList, index: u32) {
        list.write(id::LIGHTING_LUT_INDEX, index);
        for chunk in self.0.chunks(8) {
            list.write_repeat(id::LIGHTING_LUT_DATA0, chunk);
        }
    }
}

/// `GPU_LIGHTLUTIDX(c, i, o)`: the LIGHTING_LUT_INDEX word of table `i` of LUT class `c`
/// from entry `o`.
pub const fn light_lut_index(c: u32, i: u32, o: u32) -> u32 {
    o | i << 8 | c << 11
}

// ---- light.c / lightenv.c ----

/// citro3d `C3D_Material`: five colours, each three floats that land in the 10-bit colour
/// fields in index order (index 0 in bits 0-9: blue; `C3Di_LightMtlBlend`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Material {
    /// Ambient.
    pub ambient: [f32; 3],
    /// Diffuse.
    pub diffuse: [f32; 3],
    /// Specular 0.
    pub specular0: [f32; 3],
    /// Specular 1.
    pub specular1: [f32; 3],
    /// Emission.
    pub emission: [f32; 3],
}

const LIGHT_ENABLED: u16 = 1 << 0;
const LIGHT_DIRTY: u16 = 1 << 1;
const LIGHT_MAT_DIRTY: u16 = 1 << 2;
const LIGHT_SP_DIRTY: u16 = 1 << 14;
const LIGHT_DA_DIRTY: u16 = 1 << 15;

/// citro3d `C3D_Light` (a light of a [`LightEnv`]; its register block is the one of its slot
/// in the environment).
#[derive(Clone, Debug, PartialEq)]
pub struct Light {
    flags: u16,
    lut_sp: Option<LightLut>,
    lut_da: Option<LightLut>,
    ambient: [f32; 3],
    diffuse: [f32; 3],
    specular0: [f32; 3],
    specular1: [f32; 3],
    /// `conf.material`: specular0, specular1, diffuse, ambient words.
    material: [u32; 4],
    position: [u16; 3],
    spot_dir: [u16; 3],
    config: u32,
    dist_attn_bias: u32,
    dist_attn_scale: u32,
}

impl Light {
    /// The twelve words `C3Di_LightEnvUpdate` writes from GPUREG_LIGHTi_SPECULAR0: the four
    /// material words, position x | y << 16, position z, spot x | y << 16, spot z, a zero word
    /// (0x148 + 16i), CONFIG, distance-attenuation bias and scale.
    pub fn conf_words(&self) -> [u32; 12] {
        let m = self.material;
        [
            m[0],
            m[1],
            m[2],
            m[3],
            u32::from(self.position[0]) | u32::from(self.position[1]) << 16,
            u32::from(self.position[2]),
            u32::from(self.spot_dir[0]) | u32::from(self.spot_dir[1]) << 16,
            u32::from(self.spot_dir[2]),
            0,
            self.config,
            self.dist_attn_bias,
            self.dist_attn_scale,
        ]
    }
}

const ENV_DIRTY: u32 = 1 << 0;
const ENV_MTL_DIRTY: u32 = 1 << 1;
const ENV_LC_DIRTY: u32 = 1 << 2;
const fn env_is_cp(n: u32) -> u32 {
    1 << (18 + n)
}
const ENV_IS_CP_ANY: u32 = 0xFF << 18;
const fn env_lut_dirty(n: u32) -> u32 {
    1 << (26 + n)
}
const ENV_LUT_DIRTY_ALL: u32 = 0x3F << 26;

/// citro3d `C3D_LightEnv` with its lights (`C3D_Light` pointers become slots here).
#[derive(Clone, Debug, PartialEq)]
pub struct LightEnv {
    flags: u32,
    luts: [Option<LightLut>; 6],
    ambient: [f32; 3],
    lights: [Option<Light>; 8],
    /// `conf.ambient`.
    ambient_word: u32,
    /// `conf.numLights`.
    num_lights: u32,
    /// `conf.config[0..2]`.
    config: [u32; 2],
    /// `conf.lutInput`: abs, select, scale.
    lut_input: [u32; 3],
    /// `conf.permutation`.
    permutation: u32,
    material: Material,
}

impl Default for LightEnv {
    fn default() -> Self {
        Self::init()
    }
}

impl LightEnv {
    /// `C3D_LightEnvInit`: dirty, ambient (1, 1, 1), CONFIG0 = 4 << 8 | bit 27 | bit 31,
    /// CONFIG1 all ones (everything disabled), LUT input select SP → SP, abs 0x2222222.
    pub fn init() -> Self {
        Self {
            flags: ENV_DIRTY,
            luts: Default::default(),
            ambient: [1.0; 3],
            lights: Default::default(),
            ambient_word: 0,
            num_lights: 0,
            config: [4 << 8 | 1 << 27 | 1 << 31, !0],
            lut_input: [0x222_2222, gpu::LUTINPUT_SP << (gpu::LUT_SP * 4), 0],
            permutation: 0,
            material: Material::default(),
        }
    }

    /// `C3D_LightEnvMaterial`.
    pub fn material(&mut self, m: &Material) {
        self.material = *m;
        self.flags |= ENV_MTL_DIRTY;
        for l in self.lights.iter_mut().flatten() {
            l.flags |= LIGHT_MAT_DIRTY;
        }
    }

    /// `C3D_LightEnvAmbient(env, r, g, b)` (stored b, g, r).
    pub fn ambient(&mut self, r: f32, g: f32, b: f32) {
        self.ambient = [b, g, r];
        self.flags |= ENV_MTL_DIRTY;
    }

    /// `C3D_LightEnvLut(env, lut_id, input, negative, lut)`.
    pub fn lut(&mut self, lut_id: u32, input: u32, negative: bool, lut: Option<LightLut>) {
        const IDS: [i8; 8] = [0, 1, -1, 2, 3, 4, 5, -1];
        let slot = IDS[(lut_id & 7) as usize];
        if slot >= 0 {
            let s = slot as usize;
            let has = lut.is_some();
            self.luts[s] = lut;
            if has {
                self.config[1] &= !(1 << (lut_id + 16));
                self.flags |= env_lut_dirty(s as u32);
            } else {
                self.config[1] |= 1 << (lut_id + 16);
            }
        }
        self.lut_input[1] &= !(0xF << (lut_id * 4));
        self.lut_input[1] |= input << (lut_id * 4);
        let absbit = 1 << (lut_id * 4 + 1);
        self.lut_input[0] &= !absbit;
        if negative {
            self.lut_input[0] |= absbit;
        }
        self.flags |= ENV_DIRTY;
        if input == gpu::LUTINPUT_CP {
            self.flags |= env_is_cp(lut_id);
        } else {
            self.flags &= !env_is_cp(lut_id);
        }
    }

    /// `C3D_LightInit(light, env)`: the first free slot (None when all eight are taken), a
    /// light enabled and dirty with white diffuse and speculars.
    pub fn light_init(&mut self) -> Option<usize> {
        let i = self.lights.iter().position(Option::is_none)?;
        self.lights[i] = Some(Light {
            flags: LIGHT_ENABLED | LIGHT_DIRTY | LIGHT_MAT_DIRTY,
            lut_sp: None,
            lut_da: None,
            ambient: [0.0; 3],
            diffuse: [1.0; 3],
            specular0: [1.0; 3],
            specular1: [1.0; 3],
            material: [0; 4],
            position: [0; 3],
            spot_dir: [0; 3],
            config: 0,
            dist_attn_bias: 0,
            dist_attn_scale: 0,
        });
        self.flags |= ENV_LC_DIRTY;
        Some(i)
    }

    fn light_mut(&mut self, i: usize) -> Option<&mut Light> {
        self.lights.get_mut(i).and_then(Option::as_mut)
    }

    /// `C3D_LightColor(light, r, g, b)`: diffuse and both speculars (stored b, g, r).
    pub fn light_color(&mut self, i: usize, r: f32, g: f32, b: f32) {
        if let Some(l) = self.light_mut(i) {
            l.diffuse = [b, g, r];
            l.specular0 = [b, g, r];
            l.specular1 = [b, g, r];
            l.flags |= LIGHT_MAT_DIRTY;
        }
    }

    /// `C3D_LightAmbient(light, r, g, b)`.
    pub fn light_ambient(&mut self, i: usize, r: f32, g: f32, b: f32) {
        if let Some(l) = self.light_mut(i) {
            l.ambient = [b, g, r];
            l.flags |= LIGHT_MAT_DIRTY;
        }
    }

    /// `C3D_LightPosition(light, &pos)`: directional (CONFIG bit 0) when w is 0; x, y, z as
    /// f16.
    pub fn light_position(&mut self, i: usize, pos: [f32; 4]) {
        if let Some(l) = self.light_mut(i) {
            l.config &= !1;
            l.config |= u32::from(pos[3] == 0.0);
            l.position = [pos[0], pos[1], pos[2]].map(|v| f32tof16(v) as u16);
            l.flags |= LIGHT_DIRTY;
        }
    }

    /// `C3Di_EnableCommon`: a CONFIG1 "disable" bit cleared for `enable`, set otherwise.
    fn enable_common(&mut self, enable: bool, bit: u32) {
        if enable == (self.config[1] & bit == 0) {
            return;
        }
        if enable {
            self.config[1] &= !bit;
        } else {
            self.config[1] |= bit;
        }
        self.flags |= ENV_DIRTY;
    }

    /// `C3D_LightSpotDir(light, x, y, z)`: spot enabled, the direction negated, normalised
    /// and stored as fixed1.1.11 (`floattofix2_11`: × 2048 truncated, 13 bits).
    pub fn light_spot_dir(&mut self, i: usize, x: f32, y: f32, z: f32) {
        self.enable_common(true, 1 << (i + 8));
        if let Some(l) = self.light_mut(i) {
            let (vx, vy, vz) = (-x, -y, -z);
            let m = 1.0 / (vx * vx + vy * vy + vz * vz).sqrt();
            let fix = |v: f32| ((v * 2048.0) as i32 & 0x1FFF) as u16;
            l.spot_dir = [fix(vx * m), fix(vy * m), fix(vz * m)];
            l.flags |= LIGHT_DIRTY;
        }
    }

    /// `C3D_LightSpotLut(light, lut)`.
    pub fn light_spot_lut(&mut self, i: usize, lut: Option<LightLut>) {
        self.enable_common(lut.is_some(), 1 << (i + 8));
        if let Some(l) = self.light_mut(i) {
            let has = lut.is_some();
            l.lut_sp = lut;
            if has {
                l.flags |= LIGHT_SP_DIRTY;
            }
        }
    }

    /// `C3D_LightDistAttn(light, lut)` with a `C3D_LightLutDA` of `lut`, `bias`, `scale`.
    pub fn light_dist_attn(&mut self, i: usize, da: Option<(LightLut, f32, f32)>) {
        self.enable_common(da.is_some(), 1 << (i + 24));
        let Some((lut, bias, scale)) = da else {
            return;
        };
        if let Some(l) = self.light_mut(i) {
            l.dist_attn_bias = f32tof20(bias);
            l.dist_attn_scale = f32tof20(scale);
            l.lut_da = Some(lut);
            l.flags |= LIGHT_DIRTY | LIGHT_DA_DIRTY;
        }
    }

    /// `C3Di_LightMtlBlend`: each material word from material × light colour, × 255
    /// truncated, component i in bits 10i.
    fn light_mtl_blend(m: &Material, l: &mut Light) {
        let blend = |mat: &[f32; 3], light: &[f32; 3]| {
            (0..3).fold(0u32, |w, k| {
                w | ((255.0 * (mat[k] * light[k])) as u32) << (10 * k)
            })
        };
        l.material = [
            blend(&m.specular0, &l.specular0),
            blend(&m.specular1, &l.specular1),
            blend(&m.diffuse, &l.diffuse),
            blend(&m.ambient, &l.ambient),
        ];
    }

    /// `C3Di_LightEnvMtlBlend`: the scene ambient word from emission + material ambient × env
    /// ambient, × 255 truncated, clamped to 0..=255.
    fn env_mtl_blend(&mut self) {
        let m = &self.material;
        self.ambient_word = (0..3).fold(0u32, |w, k| {
            let v = (255.0 * (m.emission[k] + m.ambient[k] * self.ambient[k])) as i32;
            w | (v.clamp(0, 255) as u32) << (10 * k)
        });
    }

    /// `C3Di_LightEnvSelectLayer`: the smallest light environment configuration (0-6) whose
    /// LUTs cover the enabled ones (spot and distance attenuation count as enabled when any
    /// light uses them), or 7 when a LUT reads cos φ; written to CONFIG0 bits 4-7 as
    /// `GPU_LIGHT_ENV_LAYER_CONFIG` (7 becomes 8).
    fn select_layer(&mut self) {
        const LAYERS: [u32; 7] = [
            1 << 0 | 1 << 6 | 1 << 2 | 1 << 7,
            1 << 3 | 1 << 6 | 1 << 2 | 1 << 7,
            1 << 0 | 1 << 1 | 1 << 6 | 1 << 7,
            1 << 0 | 1 << 1 | 1 << 3 | 1 << 7,
            0xFF & !(1 << 3),
            0xFF & !(1 << 1),
            0xFF & !(1 << 4 | 1 << 5),
        ];
        let mut reg = !self.config[1];
        if reg & (0xFF << 8) != 0 {
            reg |= 1 << (16 + gpu::LUT_SP);
        }
        if reg & (0xFF << 24) != 0 {
            reg |= 1 << (16 + gpu::LUT_DA);
        }
        let reg = (reg >> 16) & 0xFF;
        let mut i = 7u32;
        if self.flags & ENV_IS_CP_ANY == 0 {
            i = LAYERS
                .iter()
                .position(|&l| l & reg == reg)
                .map_or(7, |p| p as u32);
        }
        let layer = i + u32::from(i == 7);
        self.config[0] = (self.config[0] & !(0xF << 4)) | layer << 4;
    }

    /// `C3Di_LightEnvUpdate`, write for write: the enabled lights into the permutation
    /// (`numLights - 1`) when a light was added or enabled; the material blend; when dirty,
    /// the layer selection then LIGHTING_AMBIENT, NUM_LIGHTS/CONFIG0/CONFIG1 (consecutive),
    /// LUTINPUT_ABS/SELECT/SCALE (consecutive), LIGHT_PERMUTATION; the dirty common LUTs (D0,
    /// D1, FR, RB, RG, RR: tables 0, 1, 3, 4, 5, 6); then per light slot the material blend,
    /// its twelve words (consecutive, from LIGHTi_SPECULAR0) when dirty, its spot LUT (table
    /// 8 + i) and distance-attenuation LUT (table 16 + i) when dirty.
    pub fn update(&mut self, list: &mut CommandList) {
        if self.flags & ENV_LC_DIRTY != 0 {
            self.num_lights = 0;
            self.permutation = 0;
            for (i, l) in self.lights.iter().enumerate() {
                if let Some(l) = l {
                    if l.flags & LIGHT_ENABLED != 0 {
                        self.permutation |= (i as u32) << (4 * self.num_lights);
                        self.num_lights += 1;
                    }
                }
            }
            self.num_lights = self.num_lights.saturating_sub(1);
            self.flags &= !ENV_LC_DIRTY;
            self.flags |= ENV_DIRTY;
        }
        if self.flags & ENV_MTL_DIRTY != 0 {
            self.env_mtl_blend();
            self.flags &= !ENV_MTL_DIRTY;
            self.flags |= ENV_DIRTY;
        }
        if self.flags & ENV_DIRTY != 0 {
            self.select_layer();
            list.write(id::LIGHTING_AMBIENT, self.ambient_word);
            list.write_seq(
                id::LIGHTING_NUM_LIGHTS,
                &[self.num_lights, self.config[0], self.config[1]],
            );
            list.write_seq(id::LIGHTING_LUTINPUT_ABS, &self.lut_input);
            list.write(id::LIGHTING_LIGHT_PERMUTATION, self.permutation);
            self.flags &= !ENV_DIRTY;
        }
        if self.flags & ENV_LUT_DIRTY_ALL != 0 {
            const LUT_IDS: [u32; 6] = [0, 1, 3, 4, 5, 6];
            for (i, t) in LUT_IDS.iter().enumerate() {
                if self.flags & env_lut_dirty(i as u32) == 0 {
                    continue;
                }
                if let Some(lut) = &self.luts[i] {
                    lut.upload(list, light_lut_index(gpu::LUTSELECT_COMMON, *t, 0));
                }
            }
            self.flags &= !ENV_LUT_DIRTY_ALL;
        }
        let material = self.material;
        for (i, slot) in self.lights.iter_mut().enumerate() {
            let Some(l) = slot else { continue };
            if l.flags & LIGHT_MAT_DIRTY != 0 {
                Self::light_mtl_blend(&material, l);
                l.flags &= !LIGHT_MAT_DIRTY;
                l.flags |= LIGHT_DIRTY;
            }
            if l.flags & LIGHT_DIRTY != 0 {
                list.write_seq(id::LIGHT0_SPECULAR0 + 0x10 * i as u16, &l.conf_words());
                l.flags &= !LIGHT_DIRTY;
            }
            if l.flags & LIGHT_SP_DIRTY != 0 {
                if let Some(lut) = &l.lut_sp {
                    lut.upload(list, light_lut_index(gpu::LUTSELECT_SP, i as u32, 0));
                }
                l.flags &= !LIGHT_SP_DIRTY;
            }
            if l.flags & LIGHT_DA_DIRTY != 0 {
                if let Some(lut) = &l.lut_da {
                    lut.upload(list, light_lut_index(gpu::LUTSELECT_DA, i as u32, 0));
                }
                l.flags &= !LIGHT_DA_DIRTY;
            }
        }
    }
}

// ---- fog.c ----

/// citro3d `C3D_FogLut`: 128 entries of GPUREG_FOG_LUT_DATA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FogLut(pub [u32; 128]);

impl FogLut {
    /// `FogLut_FromArray`: entry i from `data[i]` (value × 0x800 truncated, clamped to 0x7FF,
    /// 0 unless positive; bits 13-23) and `data[128 + i]` (difference × 0x800, clamped to
    /// -0x1000..=0xFFF, truncated, 13-bit two's complement; bits 0-12).
    pub fn from_array(data: &[f32; 256]) -> Self {
        let mut out = [0u32; 128];
        for (i, e) in out.iter_mut().enumerate() {
            let (mut v, mut d) = (data[i], data[i + 128]);
            let mut val = 0u32;
            if v > 0.0 {
                v *= 2048.0;
                val = if v < 2048.0 { v as u32 } else { 0x7FF };
            }
            let mut val2 = 0u32;
            if d != 0.0 {
                d *= 2048.0;
                d = d.clamp(-4096.0, 4095.0);
                val2 = (d as i32 as u32) & 0x1FFF;
            }
            *e = val2 | val << 13;
        }
        Self(out)
    }

    /// A LUT from a function of the depth index i / 128 (the shape `FogLut_Exp` fills:
    /// value f(i / 128), difference to f((i + 1) / 128)).
    pub fn from_fn(f: impl Fn(f32) -> f32) -> Self {
        let mut data = [0f32; 256];
        for i in 0..=128usize {
            let val = f(i as f32 / 128.0);
            if i < 128 {
                data[i] = val;
            }
            if i > 0 {
                data[i + 127] = val - data[i - 1];
            }
        }
        Self::from_array(&data)
    }
}

// ---- proctex.c / proctex.h ----

/// citro3d `C3D_ProcTex`: the six GPUREG_TEXUNIT3_PROCTEX words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcTex(pub [u32; 6]);

impl ProcTex {
    /// `C3D_ProcTexInit(pt, offset, width)`: all zero but the colour-table offset and width,
    /// and the constants citro3d names `unknown1` = 0x60 (PROCTEX4 bits 3-10) and `unknown2` =
    /// 0xE0C080 (PROCTEX5 bits 8-31).
    pub fn init(offset: u32, width: u32) -> Self {
        let mut w = [0u32; 6];
        w[4] = 0x60 << 3 | (width & 0xFF) << 11;
        w[5] = (offset & 0xFF) | 0xE0_C080 << 8;
        Self(w)
    }

    /// `C3D_ProcTexClamp(pt, u, v)`: bits 0-2 and 3-5 of PROCTEX0.
    pub fn clamp(&mut self, u: u32, v: u32) {
        self.0[0] = (self.0[0] & !0x3F) | (u & 7) | (v & 7) << 3;
    }

    /// `C3D_ProcTexCombiner(pt, separate, rgb, alpha)`: RGB function bits 6-9, alpha bits
    /// 10-13 (only when separate), separate flag bit 14.
    pub fn combiner(&mut self, separate: bool, rgb: u32, alpha: u32) {
        self.0[0] =
            (self.0[0] & !(1 << 14 | 0xF << 6)) | u32::from(separate) << 14 | (rgb & 0xF) << 6;
        if separate {
            self.0[0] = (self.0[0] & !(0xF << 10)) | (alpha & 0xF) << 10;
        }
    }

    /// `C3D_ProcTexFilter(pt, min)`: PROCTEX4 bits 0-2.
    pub fn filter(&mut self, min: u32) {
        self.0[4] = (self.0[4] & !7) | (min & 7);
    }
}

/// citro3d `C3D_ProcTexLut`: 128 entries of a noise / RGB-map / alpha-map table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcTexLut(pub [u32; 128]);

impl ProcTexLut {
    /// `ProcTexLut_FromArray`: entry i = cur | ((next - cur) & 0xFFF) << 12 where cur, next =
    /// 0xFFF × clamp(in[i], in[i + 1]) truncated.
    pub fn from_array(input: &[f32; 129]) -> Self {
        let q = |v: f32| (4095.0 * v.clamp(0.0, 1.0)) as u32;
        let mut out = [0u32; 128];
        for (i, e) in out.iter_mut().enumerate() {
            let (cur, next) = (q(input[i]), q(input[i + 1]));
            *e = cur | (next.wrapping_sub(cur) & 0xFFF) << 12;
        }
        Self(out)
    }
}

/// citro3d `C3D_ProcTexColorLut`: 256 colours and 256 colour differences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcTexColorLut {
    /// Colours (0xAABBGGRR).
    pub color: [u32; 256],
    /// Differences to the next colour, per channel `((next - cur) >> 1) & 0xFF`.
    pub diff: [u32; 256],
}

impl Default for ProcTexColorLut {
    fn default() -> Self {
        Self {
            color: [0; 256],
            diff: [0; 256],
        }
    }
}

impl ProcTexColorLut {
    /// `ProcTexColorLut_Write(out, in, offset, width)`: the colours at `offset`, each
    /// difference to the next one (the last 0).
    pub fn write(&mut self, input: &[u32], offset: usize) {
        let n = input.len().min(256usize.saturating_sub(offset));
        self.color[offset..offset + n].copy_from_slice(&input[..n]);
        let diff = |cur: u32, next: u32, pos: u32| {
            let (c, x) = ((cur >> pos) & 0xFF, (next >> pos) & 0xFF);
            (((x as i32 - c as i32) >> 1) as u32 & 0xFF) << pos
        };
        for i in 0..n.saturating_sub(1) {
            let (c, x) = (input[i], input[i + 1]);
            self.diff[offset + i] = diff(c, x, 0) | diff(c, x, 8) | diff(c, x, 16) | diff(c, x, 24);
        }
        if n > 0 {
            self.diff[offset + n - 1] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::num::{F16, F20, F24, F31};

    #[test]
    fn driver_libctru_float_conversions_match_the_model_on_normal_values() {
        for &x in &[1.0f32, -0.5, 0.75, 3.25, 1.0e-3, -123.456, 0.1] {
            assert_eq!(f32tof24(x), F24::from_f32_bits(x.to_bits()).bits(), "{x}");
            assert_eq!(f32tof31(x), F31::from_f32_bits(x.to_bits()).bits(), "{x}");
            assert_eq!(f32tof20(x), F20::from_f64_trunc(f64::from(x)).bits(), "{x}");
            assert_eq!(f32tof16(x), F16::from_f64_trunc(f64::from(x)).bits(), "{x}");
        }
        // libctru saturates an exponent above the format's range to infinity.
        assert_eq!(f32tof16(1.0e6), 0x1F << 10);
        assert_eq!(f32tof16(-1.0e-9), 1 << 15);
    }

    #[test]
    fn driver_texenv_words_are_the_struct_layout() {
        let mut t = TexEnv::init();
        assert_eq!(t.words(), [0x000F_000F, 0, 0, 0xFFFF_FFFF, 0]);
        t.src(tev_mode::RGB, gpu::TEXTURE3, 0, 0)
            .src(tev_mode::ALPHA, gpu::TEXTURE3, gpu::PRIMARY_COLOR, 0)
            .func(tev_mode::ALPHA, gpu::MODULATE);
        assert_eq!(t.words()[0], 0x0006_0006);
        assert_eq!(t.words()[2], 0x0001_0000);
    }

    #[test]
    fn driver_light_env_select_layer_picks_the_smallest_config() {
        let mut e = LightEnv::init();
        // Nothing enabled: configuration 0.
        e.select_layer();
        assert_eq!((e.config[0] >> 4) & 0xF, 0);
        // D0 and D1: configuration 2.
        let lut = LightLut::from_fn(|x| x);
        e.lut(gpu::LUT_D0, gpu::LUTINPUT_LN, false, Some(lut.clone()));
        e.lut(gpu::LUT_D1, gpu::LUTINPUT_NH, false, Some(lut));
        e.select_layer();
        assert_eq!((e.config[0] >> 4) & 0xF, 2);
    }

    #[test]
    fn driver_fog_and_proctex_lut_entries() {
        let ramp = FogLut::from_fn(|x| x);
        // value 0x7FF * i/128 = 16 i, difference 16: entry i = 16 | 16 i << 13.
        assert_eq!(ramp.0[0], 16);
        assert_eq!(ramp.0[3], 16 | 48 << 13);
        let mut input = [0f32; 129];
        for (i, v) in input.iter_mut().enumerate() {
            *v = i as f32 / 128.0;
        }
        let p = ProcTexLut::from_array(&input);
        assert_eq!(p.0[0], 31 << 12);
        let mut c = ProcTexColorLut::default();
        c.write(&[0xFF00_0000, 0x0000_00FF], 0);
        // alpha 0xFF → 0: (0 - 255) >> 1 = -128 → 0x80; red 0 → 0xFF: 0x7F.
        assert_eq!(c.diff[0], 0x8000_007F);
        assert_eq!(c.diff[1], 0);
    }
}
