//! A command-list builder: a small Rust API that emits the register writes a 3DS driver emits to
//! set up and draw a scene, and packs the result into a [`Case`] (memory images, the list, a
//! cycle limit) together with the framebuffer description needed to read the picture back.
//!
//! The draw sequences follow seed 004 (3dbrew "GPU/GL Arrays", the commands the standard GL
//! driver issues for `glDrawElements` and its vertex-array setup) word for word; where seed 004
//! gives a register and a value but no byte mask, the mask is chosen so that the write means
//! what the register descriptions of seed 002 say, and documented at the write. Everything else
//! (framebuffer, viewport, fragment operations, shader upload) follows the register descriptions
//! of seed 002 and is encoded with the typed register accessors of [`pica_model::regs`].
//!
//! Memory layout of a built case (3dbrew memory map, pica-facts §5):
//!
//! | what | where |
//! |---|---|
//! | command list | [`DEFAULT_LIST_ADDR`] (FCRAM) |
//! | vertex and index data | [`DATA_BASE`] (FCRAM), also the attribute-buffer base |
//! | colour buffer | [`COLOR_BASE`] (VRAM bank A) |
//! | depth-stencil buffer | [`DEPTH_BASE`] (VRAM bank B) |
//! | textures | [`texture::TEX_BASE`] (VRAM bank B, above the depth buffer) |
//!
//! ```
//! use pica_vectors::builder::{Builder, Clear, FbConfig, Vertex};
//! use pica_model::regs::PrimitiveConfigMode;
//! let mut b = Builder::standard(FbConfig::new(32, 32), Clear::color([0, 0, 0, 255])).unwrap();
//! b.vertex_array(&[
//!     Vertex::xy(-0.5, -0.5, [1.0, 0.0, 0.0, 1.0]),
//!     Vertex::xy(0.5, -0.5, [0.0, 1.0, 0.0, 1.0]),
//!     Vertex::xy(0.0, 0.5, [0.0, 0.0, 1.0, 1.0]),
//! ]);
//! b.draw_arrays(PrimitiveConfigMode::Triangles, 0, 3);
//! let scene = b.finish("doc/triangle", "one triangle").unwrap();
//! assert!(scene.case.pipeline);
//! ```

pub mod attrs;
pub mod driver;
pub mod effects;
pub mod formats;
pub mod geometry;
pub mod lighting;
pub mod outmap;
pub mod texenv;
pub mod texture;

pub use formats::{ColorFormat, DepthFormat};
pub use outmap::{OutMap, OutMapError, OutSlot};

use crate::case::{Case, MemImage, DEFAULT_LIST_ADDR};
use pica_model::cmdlist::CommandList;
use pica_model::num::{F24, F31};
use pica_model::regfile::packer::pack_f24x3;
use pica_model::regs::{
    self, id, AttribFormatType, AttribbufferComponent, BlendFuncEquation, BlendFuncFactor,
    ColorOperationBlendMode, ColorOperationFragmentMode, CompareFunction, EarlydepthFunction,
    FacecullingConfigMode, FramebufferBlock32Mode, GeostageConfigGsMode,
    IndexbufferConfigIndexType, LogicOpOperation, PrimitiveConfigMode, ScissortestModeMode,
    ShFloatuniformIndexMode, ShInputbufferConfigGsUse, StartDrawFunc0Mode, StencilOpAction,
    TexenvCombinerMode, TexenvOperandAlpha, TexenvOperandRgb, TexenvScaleFactor, TexenvSourceInput,
};
use pica_model::shader::asm::{assemble, AsmError};
use pica_model::shader::shbin::Shbin;

/// Physical address of the vertex and index data, and the attribute-buffer base written to
/// GPUREG_ATTRIBBUFFERS_LOC: FCRAM (the linear heap a driver allocates vertex buffers from),
/// 8 MiB above the command list so that lists of any scene fit below it.
pub const DATA_BASE: u32 = 0x2080_0000;

/// Room for vertex and index data above [`DATA_BASE`].
pub const DATA_LIMIT: u32 = 0x0080_0000;

/// Physical address of the colour buffer: the start of VRAM (bank A), where 3DS applications
/// put render targets.
pub const COLOR_BASE: u32 = 0x1800_0000;

/// Physical address of the depth-stencil buffer: VRAM bank B (citro3d and the SDK examples keep
/// colour and depth in different banks).
pub const DEPTH_BASE: u32 = 0x1830_0000;

/// Size of one VRAM bank: the most a colour or depth buffer may take.
pub const VRAM_BANK_SIZE: u32 = 0x30_0000;

/// The cycle limit of a built case unless the scene sets another: generous for the small
/// scenes (a 64×64 scene has at most a few tens of thousands of fragments; at one fragment a
/// cycle it needs well under a million cycles), small enough that a stuck pipeline ends a test
/// run in seconds.
pub const SCENE_MAX_CYCLES: u64 = 10_000_000;

/// The value GPUREG_VSH_ENTRYPOINT is left at after a draw (seed 004 `glDrawElements` command
/// 17, "Clear entry point"): entry 0, with the required 0x7FFF in bits 16-31.
pub const CLEARED_ENTRYPOINT: u32 = 0x7FFF_0000;

/// The pass-through vertex shader the scene library uses: position (given in clip space) and
/// colour go out unchanged. Inputs v0 = position, v1 = colour; outputs o0 = position,
/// o1 = colour.
pub const PASS_THROUGH_VSH: &str = "\
; Pass-through vertex shader of the scene library: the position arrives in clip space and the
; colour in [0, 1]; both go out unchanged.
.out outpos position
.out outclr color
.in inpos v0
.in inclr v1
.proc main
\tmov outpos, inpos
\tmov outclr, inclr
\tend
.end
";

/// Why a scene cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The vertex shader does not assemble.
    #[error("vertex shader: {0}")]
    Asm(#[from] AsmError),
    /// The assembled shader has no executable (DVLE).
    #[error("vertex shader {0}: no executable")]
    NoExecutable(String),
    /// The shader's outputs do not fit the output map.
    #[error("vertex shader output map: {0}")]
    OutMap(#[from] OutMapError),
    /// The framebuffer configuration is not one the registers can describe.
    #[error("framebuffer: {0}")]
    Framebuffer(String),
    /// The list or the data outgrew the room the memory layout gives it.
    #[error("{what}: {bytes} bytes, more than the {limit} bytes available")]
    TooBig {
        /// What is too big.
        what: &'static str,
        /// Its size.
        bytes: u64,
        /// The room.
        limit: u64,
    },
    /// A texture that cannot be encoded.
    #[error("texture: {0}")]
    Texture(String),
    /// [`Builder::finish`] without a framebuffer.
    #[error("no framebuffer was configured")]
    NoFramebuffer,
}

/// A framebuffer configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FbConfig {
    /// Width in pixels (multiple of 8, of 32 with 32×32 blocks; at most 1024).
    pub width: u32,
    /// Height in pixels (same rules).
    pub height: u32,
    /// Colour format.
    pub color: ColorFormat,
    /// Depth(-stencil) format.
    pub depth: DepthFormat,
    /// 32×32 block tiling (GPUREG_FRAMEBUFFER_BLOCK32) instead of 8×8.
    pub block32: bool,
}

impl FbConfig {
    /// `width`×`height`, RGBA8 colour, D24S8 depth-stencil, 8×8 blocks.
    pub const fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            color: ColorFormat::Rgba8,
            depth: DepthFormat::D24S8,
            block32: false,
        }
    }

    /// The same with colour format `f`.
    pub const fn with_color(mut self, f: ColorFormat) -> Self {
        self.color = f;
        self
    }

    /// The same with depth format `f`.
    pub const fn with_depth(mut self, f: DepthFormat) -> Self {
        self.depth = f;
        self
    }

    /// The same with 32×32 block tiling on or off.
    pub const fn with_block32(mut self, on: bool) -> Self {
        self.block32 = on;
        self
    }

    /// Checks what the registers and the memory layout can hold.
    fn check(&self) -> Result<(), BuildError> {
        let block = if self.block32 { 32 } else { 8 };
        let bad = |msg: String| Err(BuildError::Framebuffer(msg));
        if self.width == 0 || self.height == 0 {
            return bad(format!("{}x{} is empty", self.width, self.height));
        }
        if self.width % block != 0 || self.height % block != 0 {
            return bad(format!(
                "{}x{} is not a multiple of the {block}x{block} block size",
                self.width, self.height
            ));
        }
        // FRAMEBUFFER_DIM: width bits 0-10, height - 1 bits 12-21.
        if self.width > 1024 || self.height > 1024 {
            return bad(format!(
                "{}x{} is larger than 1024x1024",
                self.width, self.height
            ));
        }
        let desc = FramebufferDesc::new(self);
        if desc.color_bytes() > VRAM_BANK_SIZE || desc.depth_bytes() > VRAM_BANK_SIZE {
            return bad(format!(
                "{}x{} does not fit a 3 MiB VRAM bank",
                self.width, self.height
            ));
        }
        Ok(())
    }
}

/// Where a built scene's framebuffer is and how it is laid out: what a caller needs to read the
/// picture back (or to compare memory with another implementation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramebufferDesc {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// 32×32 block tiling (else 8×8).
    pub block32: bool,
    /// Physical address of the colour buffer.
    pub color_addr: u32,
    /// Colour format.
    pub color_format: ColorFormat,
    /// Physical address of the depth-stencil buffer.
    pub depth_addr: u32,
    /// Depth format.
    pub depth_format: DepthFormat,
}

impl FramebufferDesc {
    fn new(cfg: &FbConfig) -> Self {
        Self {
            width: cfg.width,
            height: cfg.height,
            block32: cfg.block32,
            color_addr: COLOR_BASE,
            color_format: cfg.color,
            depth_addr: DEPTH_BASE,
            depth_format: cfg.depth,
        }
    }

    /// Pixels in the buffer.
    pub fn pixels(&self) -> u32 {
        self.width.saturating_mul(self.height)
    }

    /// Size of the colour buffer in bytes.
    pub fn color_bytes(&self) -> u32 {
        self.pixels()
            .saturating_mul(self.color_format.bytes_per_pixel())
    }

    /// Size of the depth-stencil buffer in bytes.
    pub fn depth_bytes(&self) -> u32 {
        self.pixels()
            .saturating_mul(self.depth_format.bytes_per_pixel())
    }
}

/// A built scene: the case to run and where its picture is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// The case (`pipeline` on).
    pub case: Case,
    /// The framebuffer the case renders to.
    pub fb: FramebufferDesc,
}

impl Scene {
    /// The scene's name (`area/what`).
    pub fn name(&self) -> &str {
        &self.case.name
    }

    /// The one-line description.
    pub fn description(&self) -> &str {
        &self.case.description
    }
}

/// What the buffers hold before the list runs (written by the memory fill, see
/// [`formats`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clear {
    /// Colour, 8-bit RGBA (narrowed to the colour format, [`ColorFormat::pack`]).
    pub color: [u8; 4],
    /// Raw depth value (masked to the depth format's width: `u32::MAX` is the far plane in
    /// every format).
    pub depth: u32,
    /// Stencil value (D24S8 only).
    pub stencil: u8,
}

impl Clear {
    /// Colour `rgba`, depth at the far plane, stencil 0.
    pub const fn color(rgba: [u8; 4]) -> Self {
        Self {
            color: rgba,
            depth: u32::MAX,
            stencil: 0,
        }
    }

    /// The same with the raw depth value `d`.
    pub const fn with_depth(mut self, d: u32) -> Self {
        self.depth = d;
        self
    }

    /// The same with the stencil value `s`.
    pub const fn with_stencil(mut self, s: u8) -> Self {
        self.stencil = s;
        self
    }
}

/// Scissor modes (GPUREG_SCISSORTEST_MODE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScissorMode {
    /// 0: no scissor test.
    Disabled,
    /// 3: draw only inside the rectangle (seed 002: "3 = enabled").
    Inside,
    /// 1: draw only outside the rectangle.
    Outside,
}

impl ScissorMode {
    /// The register value.
    // UNVERIFIED(hw): mode 1 keeps the pixels outside the rectangle — the seed names only 0 and
    // 3; citro3d GPU_SCISSOR_INVERT = 1 and Azahar's rasterizer (scissor mode "Exclude" = 1)
    // agree.
    pub const fn bits(self) -> u32 {
        match self {
            Self::Disabled => 0,
            Self::Inside => 3,
            Self::Outside => 1,
        }
    }
}

/// Read and write enables of the colour and depth-stencil buffers (GPUREG_COLORBUFFER_READ /
/// WRITE, GPUREG_DEPTHBUFFER_READ / WRITE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FbAccess {
    /// Colour reads (blending, logic ops).
    pub color_read: bool,
    /// Colour writes.
    pub color_write: bool,
    /// Depth reads (depth test).
    pub depth_read: bool,
    /// Depth writes.
    pub depth_write: bool,
    /// Stencil reads.
    pub stencil_read: bool,
    /// Stencil writes.
    pub stencil_write: bool,
}

impl FbAccess {
    /// Everything enabled.
    pub const ALL: Self = Self {
        color_read: true,
        color_write: true,
        depth_read: true,
        depth_write: true,
        stencil_read: true,
        stencil_write: true,
    };
}

/// A blend function (GPUREG_BLEND_FUNC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blend {
    /// RGB equation.
    pub rgb_eq: BlendFuncEquation,
    /// Alpha equation.
    pub alpha_eq: BlendFuncEquation,
    /// RGB source factor.
    pub rgb_src: BlendFuncFactor,
    /// RGB destination factor.
    pub rgb_dst: BlendFuncFactor,
    /// Alpha source factor.
    pub alpha_src: BlendFuncFactor,
    /// Alpha destination factor.
    pub alpha_dst: BlendFuncFactor,
}

impl Blend {
    /// The same equation and factors for RGB and alpha.
    pub const fn new(eq: BlendFuncEquation, src: BlendFuncFactor, dst: BlendFuncFactor) -> Self {
        Self {
            rgb_eq: eq,
            alpha_eq: eq,
            rgb_src: src,
            rgb_dst: dst,
            alpha_src: src,
            alpha_dst: dst,
        }
    }

    /// `src * 1 + dst * 0`: the source replaces the destination.
    pub const REPLACE: Self = Self::new(
        BlendFuncEquation::Add,
        BlendFuncFactor::One,
        BlendFuncFactor::Zero,
    );

    /// Classic alpha blending: `src * a_src + dst * (1 - a_src)`.
    pub const ALPHA: Self = Self::new(
        BlendFuncEquation::Add,
        BlendFuncFactor::SourceAlpha,
        BlendFuncFactor::OneMinusSourceAlpha,
    );

    /// The GPUREG_BLEND_FUNC word.
    pub fn word(&self) -> u32 {
        regs::BlendFunc(0)
            .with_rgb_equation(self.rgb_eq)
            .with_alpha_equation(self.alpha_eq)
            .with_rgb_src_func(self.rgb_src)
            .with_rgb_dst_func(self.rgb_dst)
            .with_alpha_src_func(self.alpha_src)
            .with_alpha_dst_func(self.alpha_dst)
            .0
    }
}

/// The format of one vertex attribute in an attribute buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttribFormat {
    /// Component type.
    pub ty: AttribFormatType,
    /// Components, 1-4 (missing ones read as (_, 0, 0, 1), pica-facts §3).
    pub components: u8,
}

impl AttribFormat {
    /// `n` floats.
    pub const fn float(n: u8) -> Self {
        Self {
            ty: AttribFormatType::Float,
            components: n,
        }
    }

    /// `n` unsigned bytes.
    pub const fn ubyte(n: u8) -> Self {
        Self {
            ty: AttribFormatType::UnsignedByte,
            components: n,
        }
    }

    /// `n` signed bytes.
    pub const fn byte(n: u8) -> Self {
        Self {
            ty: AttribFormatType::Byte,
            components: n,
        }
    }

    /// `n` signed shorts.
    pub const fn short(n: u8) -> Self {
        Self {
            ty: AttribFormatType::Short,
            components: n,
        }
    }

    /// Bytes of one component.
    pub const fn element_bytes(self) -> u32 {
        match self.ty {
            AttribFormatType::Byte | AttribFormatType::UnsignedByte => 1,
            AttribFormatType::Short => 2,
            AttribFormatType::Float | AttribFormatType::Reserved(_) => 4,
        }
    }

    /// Bytes of the attribute.
    pub const fn bytes(self) -> u32 {
        self.element_bytes() * self.clamped_components()
    }

    const fn clamped_components(self) -> u32 {
        match self.components {
            0 => 1,
            n if n > 4 => 4,
            n => n as u32,
        }
    }

    /// The 4-bit format code of GPUREG_ATTRIBBUFFERS_FORMAT_LOW/HIGH: type in bits 0-1,
    /// components - 1 in bits 2-3 (seed 004 "Array data-type/size values", lines 60-66).
    pub const fn nibble(self) -> u32 {
        (self.ty.bits() & 3) | ((self.clamped_components() - 1) << 2)
    }
}

/// One attribute buffer: where it is and what each vertex of it holds, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttribBuffer {
    /// Offset from the attribute-buffer base.
    pub offset: u32,
    /// The components of a vertex (attributes and padding), at most 12.
    pub components: Vec<AttribbufferComponent>,
}

/// A vertex-array layout: the whole 0x200-0x226 block plus the input permutation (seed 004
/// "Command 0x0200").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttribLayout {
    /// Physical base address of all buffers (16-byte aligned).
    pub base: u32,
    /// Format of each vertex attribute, attribute `i` at index `i` (at most 12; the length is
    /// the total attribute count). Fixed attributes need an entry too; its format is ignored.
    pub formats: Vec<AttribFormat>,
    /// Attributes that take their fixed value (GPUREG_ATTRIBBUFFERS_FORMAT_HIGH bits 16-27).
    pub fixed_mask: u16,
    /// The buffers (at most 12).
    pub buffers: Vec<AttribBuffer>,
    /// Shader input register of each attribute, 4 bits each (attribute 0 in bits 0-3).
    pub permutation: u64,
}

/// The permutation that feeds attribute `i` to input register `v_i`.
pub const IDENTITY_PERMUTATION: u64 = 0xFEDC_BA98_7654_3210;

impl AttribLayout {
    /// Byte offset of each component of `buf` within a vertex, and the vertex size (stride).
    ///
    /// Each attribute starts at a multiple of its component size and padding at a multiple of 4
    /// bytes.
    // UNVERIFIED(hw): the alignment rule is Azahar's vertex loader (`video_core` vertex_loader:
    // attributes aligned to their element size, padding to 4 bytes); seed 004 only says that a
    // stride that does not match the components may hang the GPU. The scenes use layouts where
    // no alignment gap arises, so they do not depend on it.
    pub fn offsets(&self, buf: &AttribBuffer) -> (Vec<u32>, u32) {
        let mut offsets = Vec::with_capacity(buf.components.len());
        let mut at = 0u32;
        for c in &buf.components {
            let (align, size) = match c.bits() {
                i @ 0..=11 => {
                    let f = self
                        .formats
                        .get(i as usize)
                        .copied()
                        .unwrap_or(AttribFormat::float(4));
                    (f.element_bytes(), f.bytes())
                }
                p => (4, (p.saturating_sub(11)) * 4),
            };
            at = at.div_ceil(align) * align;
            offsets.push(at);
            at += size;
        }
        (offsets, at)
    }

    /// The 39 words of 0x200-0x226 (seed 004 "Parameter structure for command 0x0200").
    pub fn block_words(&self) -> [u32; 39] {
        let mut w = [0u32; 39];
        // Word 0: base physical address >> 3 (seed 004); the register table holds it as
        // bits 1-28 = address >> 4 (the address is 16-byte aligned).
        w[0] = regs::AttribbuffersLoc(0).with_base_addr(self.base >> 4).0;
        // Words 1-2: a 4-bit format code per attribute (seed 004 "Every 4 bits ... each entry").
        let mut formats = 0u64;
        for (i, f) in self.formats.iter().take(12).enumerate() {
            formats |= u64::from(f.nibble()) << (4 * i);
        }
        let count = self.formats.len().clamp(1, 12) as u32;
        w[1] = formats as u32;
        w[2] = regs::AttribbuffersFormatHigh((formats >> 32) as u32 & 0xFFFF)
            .with_fixed_attrib_mask(u32::from(self.fixed_mask) & 0xFFF)
            .with_attrib_count_minus_1(count - 1)
            .0;
        // Words 3-38: 12 entries of offset, components 1-8, components 9-12 + stride + count
        // (seed 004 "Entry structure"); unused entries stay all-zero.
        for (i, buf) in self.buffers.iter().take(12).enumerate() {
            let mut comps = 0u64;
            for (j, c) in buf.components.iter().take(12).enumerate() {
                comps |= u64::from(c.bits() & 0xF) << (4 * j);
            }
            let (_, stride) = self.offsets(buf);
            w[3 + 3 * i] = regs::AttribbufferOffset(0).with_offset(buf.offset).0;
            w[4 + 3 * i] = comps as u32;
            w[5 + 3 * i] = regs::AttribbufferConfig2((comps >> 32) as u32 & 0xFFFF)
                .with_bytes_per_vertex(stride)
                .with_component_count(buf.components.len().min(12) as u32)
                .0;
        }
        w
    }
}

/// An index buffer in the case's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexBuffer {
    /// Offset from the attribute-buffer base ([`DATA_BASE`]).
    pub offset: u32,
    /// Index type.
    pub kind: IndexbufferConfigIndexType,
    /// Number of indices.
    pub count: u32,
}

/// A vertex of the standard layout: clip-space position and colour (the pass-through shader's
/// inputs v0 and v1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    /// Clip-space position x, y, z, w.
    pub pos: [f32; 4],
    /// Colour r, g, b, a in [0, 1].
    pub color: [f32; 4],
}

/// The z of [`Vertex::xy`]: halfway between the near (z = 0) and far (z = -w) planes of the
/// depth range the scenes use.
pub const DEFAULT_Z: f32 = -0.5;

impl Vertex {
    /// A vertex at clip position `pos` with colour `color`.
    pub const fn new(pos: [f32; 4], color: [f32; 4]) -> Self {
        Self { pos, color }
    }

    /// A vertex at `(x, y, DEFAULT_Z, 1)`.
    pub const fn xy(x: f32, y: f32, color: [f32; 4]) -> Self {
        Self::new([x, y, DEFAULT_Z, 1.0], color)
    }

    /// A vertex at `(x, y, z, 1)`.
    pub const fn xyz(x: f32, y: f32, z: f32, color: [f32; 4]) -> Self {
        Self::new([x, y, z, 1.0], color)
    }

    /// The attributes in input order (position, colour).
    pub const fn attributes(&self) -> [[f32; 4]; 2] {
        [self.pos, self.color]
    }
}

/// A host float converted the way a driver converts it for the GPU: f32 → f24 by truncation
/// ([`F24::from_f32_bits`], the rule of libctru's `f32tof24` and the assemblers, pica-facts §1).
pub fn f24(x: f32) -> F24 {
    F24::from_f32_bits(x.to_bits())
}

/// A vec4 of host floats as f24.
pub fn f24x4(v: [f32; 4]) -> [F24; 4] {
    v.map(f24)
}

/// Which draw trigger a draw sequence ends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DrawKind {
    Arrays { first: u32, count: u32 },
    Elements(IndexBuffer),
}

/// The command-list builder. Methods append register writes in the order a driver issues them;
/// see each method for the registers and the seed lines it follows.
#[derive(Clone, Debug)]
pub struct Builder {
    list: CommandList,
    data: Vec<u8>,
    tex: Vec<u8>,
    fb: Option<FbConfig>,
    clear: Clear,
    vs_entry: u32,
    entry_cleared: bool,
    depth_color: regs::DepthColorMask,
    max_cycles: u64,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// An empty list that starts by putting GPUREG_START_DRAW_FUNC0 in configuration mode
    /// (seed 002: "usually initialized to 1, set to 0 immediately before triggering a draw").
    pub fn new() -> Self {
        let mut b = Self {
            list: CommandList::new(),
            data: Vec::new(),
            tex: Vec::new(),
            fb: None,
            clear: Clear::color([0, 0, 0, 0]),
            vs_entry: 0,
            entry_cleared: false,
            depth_color: regs::DepthColorMask(0),
            max_cycles: SCENE_MAX_CYCLES,
        };
        b.start_draw_func0(StartDrawFunc0Mode::Configuration);
        b
    }

    /// The scene library's standard setup: framebuffer `fb` cleared with `clear`, full-buffer
    /// viewport, depth map (z-buffer, scale -1, offset 0: clip z from 0 to -w gives depth 0 to
    /// 1, see [`Builder::depth_map`]), no culling / scissor / user clip plane, the
    /// [`PASS_THROUGH_VSH`] vertex shader, TEXENV0 passing the primary colour, and fragment
    /// operations that write the colour unchanged: no alpha, stencil or depth test, colour
    /// writes on, depth writes off, blending `src * 1 + dst * 0`, all buffer accesses enabled,
    /// early depth off.
    pub fn standard(fb: FbConfig, clear: Clear) -> Result<Self, BuildError> {
        let mut b = Self::new();
        b.framebuffer(fb)?;
        b.clear(clear);
        b.viewport(0, 0, fb.width, fb.height);
        b.depth_map(true, -1.0, 0.0);
        b.cull(FacecullingConfigMode::None);
        b.scissor(ScissorMode::Disabled, 0, 0, 0, 0);
        b.user_clip(None);
        b.vertex_shader(PASS_THROUGH_VSH, "pass_through.v.pica")?;
        b.texenv_primary();
        b.alpha_test(false, CompareFunction::Always, 0);
        b.stencil_test(false, CompareFunction::Always, 0, 0xFF, 0xFF);
        b.stencil_op(
            StencilOpAction::Keep,
            StencilOpAction::Keep,
            StencilOpAction::Keep,
        );
        b.depth_color_mask(
            regs::DepthColorMask(0)
                .with_depth_test_enabled(false)
                .with_depth_function(CompareFunction::Always)
                .with_red_write_enabled(true)
                .with_green_write_enabled(true)
                .with_blue_write_enabled(true)
                .with_alpha_write_enabled(true)
                .with_depth_write_enabled(false),
        );
        b.blend(&Blend::REPLACE);
        b.blend_color([0, 0, 0, 0]);
        b.early_depth(false, EarlydepthFunction::GreaterEqual);
        Ok(b)
    }

    /// The words so far.
    pub fn words(&self) -> &[u32] {
        self.list.words()
    }

    /// The list so far.
    pub fn list(&self) -> &CommandList {
        &self.list
    }

    /// The vertex and index data so far (placed at [`DATA_BASE`]).
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Sets the case's cycle limit (default [`SCENE_MAX_CYCLES`]).
    pub fn max_cycles(&mut self, cycles: u64) -> &mut Self {
        self.max_cycles = cycles;
        self
    }

    // ---- data ----

    /// Appends `bytes` to the data image at a multiple of `align` (a power of two; 16 is what
    /// GPUREG_ATTRIBBUFFERS_LOC asks of the base), returning the physical address.
    pub fn alloc(&mut self, bytes: &[u8], align: u32) -> u32 {
        let align = align.max(1) as usize;
        let at = self.data.len().div_ceil(align) * align;
        self.data.resize(at, 0);
        self.data.extend_from_slice(bytes);
        DATA_BASE.wrapping_add(at as u32)
    }

    /// Appends host floats (little-endian f32), 16-byte aligned, returning the address.
    pub fn alloc_f32(&mut self, values: &[f32]) -> u32 {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.alloc(&bytes, 16)
    }

    // ---- framebuffer ----

    /// Framebuffer setup (seed 002 register descriptions; grouped into consecutive-ID writes
    /// of 0x11C-0x11E, 0x116-0x117 and 0x112-0x115 as citro3d's framebuffer bind groups them):
    /// GPUREG_FRAMEBUFFER_FLUSH = 1 then GPUREG_FRAMEBUFFER_INVALIDATE = 1 ("should be done when
    /// changing the framebuffer or when it is cleared before rendering ... always preceded by a
    /// write to GPUREG_FRAMEBUFFER_FLUSH"); GPUREG_DEPTHBUFFER_LOC and COLORBUFFER_LOC (the
    /// addresses shifted right by 3) and FRAMEBUFFER_DIM (width, height - 1, bit 24 = 1);
    /// GPUREG_RENDERBUF_DIM (same value); GPUREG_DEPTHBUFFER_FORMAT and COLORBUFFER_FORMAT;
    /// GPUREG_FRAMEBUFFER_BLOCK32; all four buffer-access registers enabled
    /// ([`Builder::framebuffer_access`]).
    pub fn framebuffer(&mut self, cfg: FbConfig) -> Result<&mut Self, BuildError> {
        cfg.check()?;
        self.fb = Some(cfg);
        let dim = regs::FramebufferDim(0)
            .with_width(cfg.width)
            .with_height_minus_1(cfg.height - 1)
            .with_reserved_24(1)
            .0;
        self.flush_invalidate();
        self.list.write_seq(
            id::DEPTHBUFFER_LOC,
            &[
                regs::DepthbufferLoc(0).with_addr(DEPTH_BASE >> 3).0,
                regs::ColorbufferLoc(0).with_addr(COLOR_BASE >> 3).0,
                dim,
            ],
        );
        self.list.write(
            id::RENDERBUF_DIM,
            regs::RenderbufDim(0)
                .with_width(cfg.width)
                .with_height_minus_1(cfg.height - 1)
                .with_reserved_24(1)
                .0,
        );
        self.list.write_seq(
            id::DEPTHBUFFER_FORMAT,
            &[
                regs::DepthbufferFormat(0)
                    .with_format(cfg.depth.register_format())
                    .0,
                regs::ColorbufferFormat(0)
                    .with_pixel_size(cfg.color.register_pixel_size())
                    .with_format(cfg.color.register_format())
                    .0,
            ],
        );
        self.list.write(
            id::FRAMEBUFFER_BLOCK32,
            regs::FramebufferBlock32(0)
                .with_block_mode(if cfg.block32 {
                    FramebufferBlock32Mode::Blocks32x32
                } else {
                    FramebufferBlock32Mode::Blocks8x8
                })
                .0,
        );
        self.framebuffer_access(FbAccess::ALL);
        Ok(self)
    }

    /// GPUREG_FRAMEBUFFER_FLUSH = 1, then GPUREG_FRAMEBUFFER_INVALIDATE = 1 (seed 002: an
    /// invalidate "should always be preceded by a write to GPUREG_FRAMEBUFFER_FLUSH").
    pub fn flush_invalidate(&mut self) -> &mut Self {
        self.list.write(
            id::FRAMEBUFFER_FLUSH,
            regs::FramebufferFlush(0).with_trigger(1).0,
        );
        self.list.write(
            id::FRAMEBUFFER_INVALIDATE,
            regs::FramebufferInvalidate(0).with_trigger(1).0,
        );
        self
    }

    /// GPUREG_COLORBUFFER_READ / WRITE (0 or 0xF) and GPUREG_DEPTHBUFFER_READ / WRITE (bit 0
    /// stencil, bit 1 depth), one consecutive write of 0x112-0x115.
    pub fn framebuffer_access(&mut self, a: FbAccess) -> &mut Self {
        let all = |on: bool| if on { 0xF } else { 0 };
        self.list.write_seq(
            id::COLORBUFFER_READ,
            &[
                regs::ColorbufferRead(0)
                    .with_allow_read(all(a.color_read))
                    .0,
                regs::ColorbufferWrite(0)
                    .with_allow_write(all(a.color_write))
                    .0,
                regs::DepthbufferRead(0)
                    .with_allow_stencil_read(a.stencil_read)
                    .with_allow_depth_read(a.depth_read)
                    .0,
                regs::DepthbufferWrite(0)
                    .with_allow_stencil_write(a.stencil_write)
                    .with_allow_depth_write(a.depth_write)
                    .0,
            ],
        );
        self
    }

    /// Clears the buffers before the list runs. The 3DS clears with the GX memory-fill engine,
    /// not with GPU commands, so nothing is appended to the list: [`Builder::finish`] writes the
    /// filled colour and depth-stencil buffers into the case's memory images (see
    /// [`formats`]). The framebuffer setup's FLUSH + INVALIDATE is what seed 002 asks for after a
    /// clear. Only the last clear counts (a list cannot clear between draws this way).
    pub fn clear(&mut self, clear: Clear) -> &mut Self {
        self.clear = clear;
        self
    }

    // ---- rasterizer ----

    /// Viewport at (`x`, `y`), `w`×`h` pixels: GPUREG_VIEWPORT_WIDTH = f24(w / 2),
    /// GPUREG_VIEWPORT_INVW = f31(2 / w), GPUREG_VIEWPORT_HEIGHT / INVH likewise, one consecutive
    /// write of 0x041-0x044, then GPUREG_VIEWPORT_XY. The quotients are computed in f32 and
    /// truncated to f24 / f31, as citro3d's `C3D_SetViewport` does (`f32tof24(w / 2.0f)`,
    /// `f32tof31(2.0f / w)`).
    pub fn viewport(&mut self, x: i32, y: i32, w: u32, h: u32) -> &mut Self {
        let half = |n: u32| f24(n as f32 / 2.0);
        let inv = |n: u32| F31::from_f32_bits((2.0f32 / n.max(1) as f32).to_bits());
        self.list.write_seq(
            id::VIEWPORT_WIDTH,
            &[
                regs::ViewportWidth(0).with_half_width(half(w)).0,
                regs::ViewportInvw(0).with_inv_half_width(inv(w).bits()).0,
                regs::ViewportHeight(0).with_half_height(half(h)).0,
                regs::ViewportInvh(0).with_inv_half_height(inv(h).bits()).0,
            ],
        );
        self.list
            .write(id::VIEWPORT_XY, regs::ViewportXy(0).with_x(x).with_y(y).0);
        self
    }

    /// Depth map: GPUREG_DEPTHMAP_ENABLE (1 = z-buffer, depth from z/w; 0 = w-buffer: citro3d
    /// `C3D_DepthMap(bIsZBuffer, ...)`, Citra `regs_rasterizer.h` `ZBuffering = 1`),
    /// GPUREG_DEPTHMAP_SCALE = f24(`scale`) ("Near - Far") and GPUREG_DEPTHMAP_OFFSET =
    /// f24(`offset`) ("Near + Polygon Offset"), one consecutive write. The scenes use citro3d's
    /// default (true, -1, 0): the view volume's z runs from 0 (near plane) to -w (far plane;
    /// Citra's clipper keeps -w <= z <= 0), so depth = -z/w runs from 0 to 1.
    pub fn depth_map(&mut self, zbuffer: bool, scale: f32, offset: f32) -> &mut Self {
        self.list.write(
            id::DEPTHMAP_ENABLE,
            regs::DepthmapEnable(0).with_enabled(zbuffer).0,
        );
        self.list.write_seq(
            id::DEPTHMAP_SCALE,
            &[
                regs::DepthmapScale(0).with_scale(f24(scale)).0,
                regs::DepthmapOffset(0).with_offset(f24(offset)).0,
            ],
        );
        self
    }

    /// Face culling: GPUREG_FACECULLING_CONFIG.
    pub fn cull(&mut self, mode: FacecullingConfigMode) -> &mut Self {
        self.list.write(
            id::FACECULLING_CONFIG,
            regs::FacecullingConfig(0).with_mode(mode).0,
        );
        self
    }

    /// Scissor test over the `w`×`h` rectangle at (`x`, `y`): GPUREG_SCISSORTEST_MODE, POS
    /// (x1 = x, y1 = y) and DIM (x2 = x + w - 1, y2 = y + h - 1: inclusive corners, citro3d
    /// `C3D_SetScissor` writes `right - 1`, `bottom - 1`), one consecutive write of 0x065-0x067.
    pub fn scissor(&mut self, mode: ScissorMode, x: u32, y: u32, w: u32, h: u32) -> &mut Self {
        self.list.write_seq(
            id::SCISSORTEST_MODE,
            &[
                regs::ScissortestMode(0)
                    .with_mode(ScissortestModeMode::from_bits(mode.bits()))
                    .0,
                regs::ScissortestPos(0).with_x1(x).with_y1(y).0,
                regs::ScissortestDim(0)
                    .with_x2((x + w).saturating_sub(1))
                    .with_y2((y + h).saturating_sub(1))
                    .0,
            ],
        );
        self
    }

    /// User clip plane: GPUREG_FRAGOP_CLIP enabled with GPUREG_FRAGOP_CLIP_DATA0-3 = f24 of the
    /// plane coefficients (x, y, z, w: a point is kept where their dot product with the clip
    /// position is >= 0), or disabled (`None`, coefficients left as they are), one consecutive
    /// write of 0x047-0x04B.
    pub fn user_clip(&mut self, plane: Option<[f32; 4]>) -> &mut Self {
        match plane {
            None => {
                self.list
                    .write(id::FRAGOP_CLIP, regs::FragopClip(0).with_enabled(false).0);
            }
            Some(p) => {
                let c = |v: f32| regs::FragopClipData(0).with_coefficient(f24(v)).0;
                self.list.write_seq(
                    id::FRAGOP_CLIP,
                    &[
                        regs::FragopClip(0).with_enabled(true).0,
                        c(p[0]),
                        c(p[1]),
                        c(p[2]),
                        c(p[3]),
                    ],
                );
            }
        }
        self
    }

    /// Early depth test: GPUREG_EARLYDEPTH_TEST1, GPUREG_EARLYDEPTH_TEST2 (both the enable) and
    /// GPUREG_EARLYDEPTH_FUNC.
    pub fn early_depth(&mut self, enabled: bool, func: EarlydepthFunction) -> &mut Self {
        self.list.write(
            id::EARLYDEPTH_TEST1,
            regs::EarlydepthTest1(0).with_enabled(enabled).0,
        );
        self.list.write(
            id::EARLYDEPTH_TEST2,
            regs::EarlydepthTest2(0).with_enabled(enabled).0,
        );
        self.list.write(
            id::EARLYDEPTH_FUNC,
            regs::EarlydepthFunc(0).with_function(func).0,
        );
        self
    }

    // ---- vertex shader ----

    /// Assembles picasso source `src` ([`assemble`]) and loads its first executable:
    /// GPUREG_GEOSTAGE_CONFIG = 0 (no geometry shader) and GPUREG_VSH_COM_MODE = 0, the
    /// program ([`Builder::vsh_program`]), its `.constf` / `.consti` / `.setb` constants
    /// ([`Builder::vsh_float_uniforms`] ...), the entry point ([`Builder::vsh_entry`]), the
    /// output map ([`Builder::output_map`]) and the inputs ([`Builder::vs_inputs`]: as many as
    /// the highest input register its `.in` declarations name + 1, at least 1, identity
    /// permutation; registers used without `.in` are not counted, as a driver takes the input
    /// count from the application's attribute setup, not from the code).
    pub fn vertex_shader(&mut self, src: &str, file: &str) -> Result<&mut Self, BuildError> {
        let bin = assemble(src, file)?;
        self.load_vertex_shader(&bin, file)
    }

    /// [`Builder::vertex_shader`] for an already assembled (or parsed) binary.
    pub fn load_vertex_shader(&mut self, bin: &Shbin, file: &str) -> Result<&mut Self, BuildError> {
        let dvle = bin
            .dvles
            .first()
            .ok_or_else(|| BuildError::NoExecutable(file.to_string()))?;
        let map = OutMap::from_dvle(dvle)?;
        self.list.write(
            id::GEOSTAGE_CONFIG,
            regs::GeostageConfig(0)
                .with_gs_mode(GeostageConfigGsMode::VertexOnly)
                .0,
        );
        self.list.write(
            id::VSH_COM_MODE,
            regs::VshComMode(0).with_gs_config_enabled(false).0,
        );
        self.vsh_program(&bin.code, &bin.opdescs);
        for (c, v) in dvle.float_constants() {
            self.vsh_float_uniforms(c, &[v]);
        }
        for (i, v) in dvle.int_constants() {
            self.vsh_int_uniform(i, v);
        }
        let bools = dvle
            .bool_constants()
            .filter(|&(_, on)| on)
            .fold(0u16, |m, (b, _)| m | (1u16 << (b & 15)));
        self.vsh_bool_uniforms(bools);
        self.vsh_entry(dvle.entry);
        self.output_map(&map);
        let inputs = 16 - dvle.input_mask.leading_zeros();
        self.vs_inputs(inputs.max(1), IDENTITY_PERMUTATION);
        Ok(self)
    }

    /// Program upload: GPUREG_VSH_CODETRANSFER_INDEX = 0, the words through
    /// GPUREG_VSH_CODETRANSFER_DATA0 (repeated-ID commands of up to 256 words),
    /// GPUREG_VSH_CODETRANSFER_END = 1; then GPUREG_VSH_OPDESCS_INDEX = 0 and the operand
    /// descriptors through GPUREG_VSH_OPDESCS_DATA0 (seed 002 GPUREG_SH_CODETRANSFER_* /
    /// GPUREG_SH_OPDESCS_*; the upload of `cmdlist::frame_setup` and the shader tests).
    pub fn vsh_program(&mut self, code: &[u32], opdescs: &[u32]) -> &mut Self {
        self.list.write(
            id::VSH_CODETRANSFER_INDEX,
            regs::ShCodetransferIndex(0).with_offset(0).0,
        );
        self.list.write_repeat(id::VSH_CODETRANSFER_DATA0, code);
        self.list.write(
            id::VSH_CODETRANSFER_END,
            regs::ShCodetransferEnd(0).with_trigger(1).0,
        );
        self.list.write(
            id::VSH_OPDESCS_INDEX,
            regs::ShOpdescsIndex(0).with_offset(0).0,
        );
        self.list.write_repeat(id::VSH_OPDESCS_DATA0, opdescs);
        self
    }

    /// Float uniforms from c`first` on: GPUREG_VSH_FLOATUNIFORM_INDEX = `first` in float24 mode,
    /// then three words per vec4 through GPUREG_VSH_FLOATUNIFORM_DATA0 (seed 002 f24 transfer
    /// packing, [`pack_f24x3`]).
    pub fn vsh_float_uniforms(&mut self, first: u16, values: &[[F24; 4]]) -> &mut Self {
        self.list.write(
            id::VSH_FLOATUNIFORM_INDEX,
            regs::ShFloatuniformIndex(0)
                .with_index(u32::from(first))
                .with_mode(ShFloatuniformIndexMode::F24)
                .0,
        );
        let words: Vec<u32> = values.iter().flat_map(|v| pack_f24x3(*v)).collect();
        self.list.write_repeat(id::VSH_FLOATUNIFORM_DATA0, &words);
        self
    }

    /// Integer uniform i`index` (0-3): GPUREG_VSH_INTUNIFORM_Ii = x | y << 8 | z << 16 | w << 24.
    pub fn vsh_int_uniform(&mut self, index: u16, v: [u8; 4]) -> &mut Self {
        self.list.write(
            id::VSH_INTUNIFORM_I0 + (index & 3),
            regs::ShIntuniform(0)
                .with_x(v[0].into())
                .with_y(v[1].into())
                .with_z(v[2].into())
                .with_w(v[3].into())
                .0,
        );
        self
    }

    /// Boolean uniforms: GPUREG_VSH_BOOLUNIFORM = 0x7FFF << 16 | `bools`.
    pub fn vsh_bool_uniforms(&mut self, bools: u16) -> &mut Self {
        self.list.write(
            id::VSH_BOOLUNIFORM,
            regs::ShBooluniform(0)
                .with_bools(bools.into())
                .with_reserved_16_31(0x7FFF)
                .0,
        );
        self
    }

    /// Entry point: GPUREG_VSH_ENTRYPOINT = 0x7FFF << 16 | `entry`. The draw sequence leaves it
    /// at 0 (seed 004 command 17), so the builder writes it again before the next draw when the
    /// entry is not 0.
    pub fn vsh_entry(&mut self, entry: u32) -> &mut Self {
        self.vs_entry = entry & 0xFFFF;
        self.entry_cleared = false;
        let word = regs::ShEntrypoint(0)
            .with_entry(self.vs_entry)
            .with_reserved_16_31(0x7FFF)
            .0;
        self.list.write(id::VSH_ENTRYPOINT, word);
        // With no geometry shader unit 3 runs the vertex shader; the VSH write reaches it too
        // (model regfile, fact `regs-unit3-config`). The GSH copy keeps the scenes drawing the
        // same under the seed's narrower reading (knob `regs-unit3-config=seed`), where unit 3
        // keeps the GSH block's entry point, input configuration and permutation.
        self.list.write(id::GSH_ENTRYPOINT, word);
        self
    }

    /// Output map: GPUREG_SH_OUTMAP_TOTAL = slots, GPUREG_SH_OUTMAP_O0-O6 (one consecutive
    /// write of 0x04F-0x056; unused slots all 0x1F), GPUREG_SH_OUTATTR_MODE (texture
    /// coordinates used), GPUREG_SH_OUTATTR_CLOCK (attribute groups present),
    /// GPUREG_VSH_OUTMAP_TOTAL1 and TOTAL2 = slots - 1, GPUREG_PRIMITIVE_CONFIG bits 0-3 =
    /// slots - 1 (byte 0 only, mask 0x1, so the primitive mode is kept), and
    /// GPUREG_VSH_OUTMAP_MASK = the enabled output registers.
    pub fn output_map(&mut self, map: &OutMap) -> &mut Self {
        let total = map.total().max(1);
        let mut words = vec![regs::ShOutmapTotal(0).with_total(total).0];
        words.extend(map.words());
        self.list.write_seq(id::SH_OUTMAP_TOTAL, &words);
        self.list.write(
            id::SH_OUTATTR_MODE,
            regs::ShOutattrMode(0)
                .with_use_texcoords(map.uses_texcoords())
                .0,
        );
        self.list.write(id::SH_OUTATTR_CLOCK, map.clock());
        self.list.write(
            id::VSH_OUTMAP_TOTAL1,
            regs::VshOutmapTotal1(0)
                .with_outmap_total_minus_1(total - 1)
                .0,
        );
        self.list.write(
            id::VSH_OUTMAP_TOTAL2,
            regs::VshOutmapTotal2(0)
                .with_outmap_total_minus_1(total - 1)
                .0,
        );
        self.list.write_masked(
            id::PRIMITIVE_CONFIG,
            0x1,
            regs::PrimitiveConfig(0)
                .with_outmap_total_minus_1(total - 1)
                .0,
        );
        self.list.write(id::VSH_OUTMAP_MASK, map.register_mask());
        self
    }

    /// Shader inputs: GPUREG_VSH_INPUTBUFFER_CONFIG (count - 1, "geometry shader not in use"
    /// 0xA0, always for vertex shaders), GPUREG_VSH_NUM_ATTR = count - 1 (also the number of
    /// attributes an immediate-mode vertex has), and GPUREG_VSH_ATTRIBUTES_PERMUTATION_LOW /
    /// HIGH = `permutation` (attribute i feeds input register `permutation >> 4i & 0xF`).
    pub fn vs_inputs(&mut self, count: u32, permutation: u64) -> &mut Self {
        let n = count.clamp(1, 16) - 1;
        let config = regs::ShInputbufferConfig(0)
            .with_input_count_minus_1(n)
            .with_use_geometry_shader(ShInputbufferConfigGsUse::DontUse)
            .0;
        self.list.write(id::VSH_INPUTBUFFER_CONFIG, config);
        // The GSH copy for unit 3 under knob `regs-unit3-config=seed` (see `vsh_entry`).
        self.list.write(id::GSH_INPUTBUFFER_CONFIG, config);
        self.list.write(
            id::VSH_NUM_ATTR,
            regs::VshNumAttr(0).with_num_attr_minus_1(n).0,
        );
        self.permutation(permutation);
        self
    }

    /// GPUREG_VSH_ATTRIBUTES_PERMUTATION_LOW/HIGH, and the GSH copy unit 3 reads when it runs
    /// the vertex shader under knob `regs-unit3-config=seed` (see `vsh_entry`).
    fn permutation(&mut self, permutation: u64) {
        for reg in [
            id::VSH_ATTRIBUTES_PERMUTATION_LOW,
            id::GSH_ATTRIBUTES_PERMUTATION_LOW,
        ] {
            self.list
                .write_seq(reg, &[permutation as u32, (permutation >> 32) as u32]);
        }
    }

    // ---- fragment pipeline ----

    /// Texture combiners for an untextured draw: TEXENV0 passes the primary colour (sources
    /// PrimaryColor, operands source colour / source alpha, combine Replace, constant colour 0,
    /// scale 1×); TEXENV1-5 pass the previous stage on (source Previous, Replace), as citro3d's
    /// `C3D_TexEnvInit` leaves them. Each stage is one consecutive write of its five registers.
    pub fn texenv_primary(&mut self) -> &mut Self {
        for (stage, base) in [0x0C0u16, 0x0C8, 0x0D0, 0x0D8, 0x0F0, 0x0F8]
            .into_iter()
            .enumerate()
        {
            let src = if stage == 0 {
                TexenvSourceInput::PrimaryColor
            } else {
                TexenvSourceInput::Previous
            };
            self.list.write_seq(
                base,
                &[
                    regs::TexenvSource(0)
                        .with_rgb_source0(src)
                        .with_rgb_source1(src)
                        .with_rgb_source2(src)
                        .with_alpha_source0(src)
                        .with_alpha_source1(src)
                        .with_alpha_source2(src)
                        .0,
                    regs::TexenvOperand(0)
                        .with_rgb_operand0(TexenvOperandRgb::SourceColor)
                        .with_alpha_operand0(TexenvOperandAlpha::SourceAlpha)
                        .0,
                    regs::TexenvCombiner(0)
                        .with_rgb_combine(TexenvCombinerMode::Replace)
                        .with_alpha_combine(TexenvCombinerMode::Replace)
                        .0,
                    regs::TexenvColor(0).0,
                    regs::TexenvScale(0)
                        .with_rgb_scale(TexenvScaleFactor::X1)
                        .with_alpha_scale(TexenvScaleFactor::X1)
                        .0,
                ],
            );
        }
        self
    }

    /// Alpha test: GPUREG_FRAGOP_ALPHA_TEST (enable, function, 8-bit reference).
    pub fn alpha_test(&mut self, enabled: bool, func: CompareFunction, reference: u8) -> &mut Self {
        self.list.write(
            id::FRAGOP_ALPHA_TEST,
            regs::FragopAlphaTest(0)
                .with_enabled(enabled)
                .with_function(func)
                .with_reference(reference.into())
                .0,
        );
        self
    }

    /// Stencil test: GPUREG_STENCIL_TEST (enable, function, `write_mask` in the "buffer mask"
    /// field, `reference`, `test_mask` in the "mask" field; the field roles are citro3d's
    /// `C3D_StencilTest(enable, function, ref, inputMask, writeMask)`).
    pub fn stencil_test(
        &mut self,
        enabled: bool,
        func: CompareFunction,
        reference: u8,
        test_mask: u8,
        write_mask: u8,
    ) -> &mut Self {
        self.list.write(
            id::STENCIL_TEST,
            regs::StencilTest(0)
                .with_enabled(enabled)
                .with_function(func)
                .with_buffer_mask(write_mask.into())
                .with_reference(reference.into())
                .with_mask(test_mask.into())
                .0,
        );
        self
    }

    /// Stencil operations: GPUREG_STENCIL_OP (stencil fail, depth fail, depth pass).
    pub fn stencil_op(
        &mut self,
        fail: StencilOpAction,
        zfail: StencilOpAction,
        zpass: StencilOpAction,
    ) -> &mut Self {
        self.list.write(
            id::STENCIL_OP,
            regs::StencilOp(0)
                .with_fail_op(fail)
                .with_zfail_op(zfail)
                .with_zpass_op(zpass)
                .0,
        );
        self
    }

    /// The whole GPUREG_DEPTH_COLOR_MASK word (depth test enable and function, RGBA write
    /// enables, depth write enable). [`Builder::depth_test`], [`Builder::depth_write`] and
    /// [`Builder::color_write`] change one part of it and write it again.
    pub fn depth_color_mask(&mut self, v: regs::DepthColorMask) -> &mut Self {
        self.depth_color = v;
        self.list.write(id::DEPTH_COLOR_MASK, v.0);
        self
    }

    /// Depth test enable and function (GPUREG_DEPTH_COLOR_MASK bits 0, 4-6). Seed 002: with the
    /// test disabled, depth writes still happen (as if the function were Always).
    pub fn depth_test(&mut self, enabled: bool, func: CompareFunction) -> &mut Self {
        let v = self
            .depth_color
            .with_depth_test_enabled(enabled)
            .with_depth_function(func);
        self.depth_color_mask(v)
    }

    /// Depth write enable (GPUREG_DEPTH_COLOR_MASK bit 12).
    pub fn depth_write(&mut self, on: bool) -> &mut Self {
        let v = self.depth_color.with_depth_write_enabled(on);
        self.depth_color_mask(v)
    }

    /// Colour write enables R, G, B, A (GPUREG_DEPTH_COLOR_MASK bits 8-11).
    pub fn color_write(&mut self, rgba: [bool; 4]) -> &mut Self {
        let v = self
            .depth_color
            .with_red_write_enabled(rgba[0])
            .with_green_write_enabled(rgba[1])
            .with_blue_write_enabled(rgba[2])
            .with_alpha_write_enabled(rgba[3]);
        self.depth_color_mask(v)
    }

    /// Blending: GPUREG_COLOR_OPERATION (default fragment mode, blend mode "Blend", the
    /// required 0xE4 in bits 16-25) and GPUREG_BLEND_FUNC, one consecutive write.
    pub fn blend(&mut self, b: &Blend) -> &mut Self {
        self.list.write_seq(
            id::COLOR_OPERATION,
            &[
                Self::color_operation(ColorOperationBlendMode::Blend),
                b.word(),
            ],
        );
        self
    }

    /// Logic op instead of blending: GPUREG_COLOR_OPERATION (blend mode "Logic op") and
    /// GPUREG_LOGIC_OP.
    pub fn logic_op(&mut self, op: LogicOpOperation) -> &mut Self {
        self.list.write(
            id::COLOR_OPERATION,
            Self::color_operation(ColorOperationBlendMode::LogicOp),
        );
        self.list
            .write(id::LOGIC_OP, regs::LogicOp(0).with_op(op).0);
        self
    }

    fn color_operation(mode: ColorOperationBlendMode) -> u32 {
        regs::ColorOperation(0)
            .with_fragment_mode(ColorOperationFragmentMode::Default)
            .with_blend_mode(mode)
            .with_reserved_16_25(0xE4)
            .0
    }

    /// Blend constant colour: GPUREG_BLEND_COLOR (8-bit R, G, B, A).
    pub fn blend_color(&mut self, rgba: [u8; 4]) -> &mut Self {
        self.list.write(
            id::BLEND_COLOR,
            regs::BlendColor(0)
                .with_red(rgba[0].into())
                .with_green(rgba[1].into())
                .with_blue(rgba[2].into())
                .with_alpha(rgba[3].into())
                .0,
        );
        self
    }

    // ---- vertex input ----

    /// Post-vertex cache size: GPUREG_POST_VERTEX_CACHE_NUM (seed 002: "usually 0x4 or 0x84").
    pub fn post_vertex_cache(&mut self, entries: u8) -> &mut Self {
        self.list.write(
            id::POST_VERTEX_CACHE_NUM,
            regs::PostVertexCacheNum(0).with_entries(entries.into()).0,
        );
        self
    }

    /// Vertex arrays, as seed 004 "Command 0x0200" sets them up (seed 004 lines 26-31, the
    /// parameter layout lines 45-71): command 0 writes 0x200-0x226
    /// (base, formats, fixed-attribute mask and attribute count, the 12 buffer entries) in one
    /// consecutive write; command 1 writes 0x2BB-0x2BC (the attribute permutation, a u64 of
    /// 4-bit input-register numbers).
    pub fn attrib_buffers(&mut self, layout: &AttribLayout) -> &mut Self {
        self.list
            .write_seq(id::ATTRIBBUFFERS_LOC, &layout.block_words());
        self.permutation(layout.permutation);
        self
    }

    /// A fixed attribute value, as seed 004 "Command 0x0200" command 2 sets one (seed 004 line
    /// 31, the parameter structure lines 72-79): one consecutive
    /// write of 0x232-0x235, GPUREG_FIXEDATTRIB_INDEX = `index` then the value in f24 transfer
    /// packing (the seed's usual value, (0, 0, 0, 1), is `0x3F000000, 0, 0`).
    pub fn fixed_attrib(&mut self, index: u8, v: [f32; 4]) -> &mut Self {
        let mut words = vec![
            regs::FixedattribIndex(0)
                .with_index(u32::from(index) & 0xF)
                .0,
        ];
        words.extend(pack_f24x3(f24x4(v)));
        self.list.write_seq(id::FIXEDATTRIB_INDEX, &words);
        self
    }

    /// The standard layout for `vertices`: their positions and colours interleaved as floats
    /// (32 bytes a vertex) in a new data allocation, set up as attribute buffer 0 with
    /// attributes 0 (position, float ×4) and 1 (colour, float ×4), base [`DATA_BASE`], identity
    /// permutation and, as seed 004 says drivers usually do, every attribute beyond the count
    /// marked fixed (`0xFFF << count`). Returns the first vertex's address.
    pub fn vertex_array(&mut self, vertices: &[Vertex]) -> u32 {
        let floats: Vec<f32> = vertices
            .iter()
            .flat_map(|v| v.pos.into_iter().chain(v.color))
            .collect();
        let addr = self.alloc_f32(&floats);
        let layout = AttribLayout {
            base: DATA_BASE,
            formats: vec![AttribFormat::float(4), AttribFormat::float(4)],
            fixed_mask: (0xFFF << 2) & 0xFFF,
            buffers: vec![AttribBuffer {
                offset: addr - DATA_BASE,
                components: vec![
                    AttribbufferComponent::Attribute0,
                    AttribbufferComponent::Attribute1,
                ],
            }],
            permutation: IDENTITY_PERMUTATION,
        };
        self.attrib_buffers(&layout);
        addr
    }

    /// An index buffer of bytes in the data image.
    pub fn index_buffer_u8(&mut self, indices: &[u8]) -> IndexBuffer {
        let addr = self.alloc(indices, 16);
        IndexBuffer {
            offset: addr - DATA_BASE,
            kind: IndexbufferConfigIndexType::U8,
            count: indices.len() as u32,
        }
    }

    /// An index buffer of little-endian halfwords in the data image.
    pub fn index_buffer_u16(&mut self, indices: &[u16]) -> IndexBuffer {
        let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let addr = self.alloc(&bytes, 16);
        IndexBuffer {
            offset: addr - DATA_BASE,
            kind: IndexbufferConfigIndexType::U16,
            count: indices.len() as u32,
        }
    }

    // ---- draws ----

    /// GPUREG_START_DRAW_FUNC0 = `mode` (0 drawing, 1 configuration).
    fn start_draw_func0(&mut self, mode: StartDrawFunc0Mode) {
        self.list.write(
            id::START_DRAW_FUNC0,
            regs::StartDrawFunc0(0).with_mode(mode).0,
        );
    }

    /// Writes the entry point again if a draw sequence cleared it (seed 004 command 17) and the
    /// shader does not start at 0.
    fn restore_entry(&mut self) {
        if self.entry_cleared && self.vs_entry != 0 {
            let e = self.vs_entry;
            self.vsh_entry(e);
        }
    }

    /// Seed 004 `glDrawElements` commands 3-5: the primitive mode (GPUREG_PRIMITIVE_CONFIG
    /// bits 8-9, byte 1 only, mask 0x2: "val<<8"), a write of 0 to GPUREG_PRIMITIVE_CONFIG
    /// that the seed leaves unexplained, and GPUREG_RESTART_PRIMITIVE = 1.
    fn primitive_start(&mut self, mode: PrimitiveConfigMode) {
        self.list.write_masked(
            id::PRIMITIVE_CONFIG,
            0x2,
            regs::PrimitiveConfig(0).with_primitive_mode(mode).0,
        );
        // Command 4. UNVERIFIED(hw): the byte mask. Seed 004 gives only "Value 0"; the later
        // 3dbrew Programming Guide calls it "Set number of output map registers", but a 0 there
        // would leave one output, which cannot be what a GL driver drawing position and colour
        // does. Written to byte 3 only (mask 0x8), which holds no field, the write changes
        // nothing — citro3d issues exactly this write (`GPUCMD_AddMaskedWrite(
        // GPUREG_PRIMITIVE_CONFIG, 0x8, 0)`) around its draws, copying the official driver.
        self.list.write_masked(id::PRIMITIVE_CONFIG, 0x8, 0);
        self.list.write(
            id::RESTART_PRIMITIVE,
            regs::RestartPrimitive(0).with_trigger(1).0,
        );
    }

    /// Seed 004 `glDrawElements` commands 12-17, after the draw: GPUREG_VTX_FUNC = 1 (clear
    /// the post-vertex cache), GPUREG_FRAMEBUFFER_FLUSH = 1, GPUREG_GEOSTAGE_CONFIG and
    /// GPUREG_GEOSTAGE_CONFIG2 = 0 ("clear drawing triangle elements"), GPUREG_PRIMITIVE_CONFIG
    /// mode = 0 ("clear primitive mode", byte 1 only) and GPUREG_VSH_ENTRYPOINT = 0x7FFF0000
    /// ("clear entry point").
    fn draw_epilogue(&mut self) {
        self.list
            .write(id::VTX_FUNC, regs::VtxFunc(0).with_trigger(1).0);
        self.list.write(
            id::FRAMEBUFFER_FLUSH,
            regs::FramebufferFlush(0).with_trigger(1).0,
        );
        // Byte 1 only (mask 0x2): bit 8 is the flag the draw set; bits 0-1 (geometry shader
        // mode) are not the draw's to clear. The seed gives the value, not the mask.
        self.list.write_masked(id::GEOSTAGE_CONFIG, 0x2, 0);
        // GEOSTAGE_CONFIG2 holds only bits 0 and 8, both the draw's: a plain write.
        self.list.write(id::GEOSTAGE_CONFIG2, 0);
        self.list.write_masked(id::PRIMITIVE_CONFIG, 0x2, 0);
        self.list.write(id::VSH_ENTRYPOINT, CLEARED_ENTRYPOINT);
        self.entry_cleared = true;
    }

    /// The draw sequence of seed 004 `glDrawElements` (lines 9-25), also used for
    /// `glDrawArrays` with the differences seed 002 describes.
    // UNVERIFIED(hw): the byte masks of commands 0-2, 4, 6, 14 and 16 (seed 004 gives register
    // and value only; each mask is chosen so the write changes just the field the seed's
    // description names) and the whole draw-arrays variant (derived from seed 002, not from a
    // driver trace).
    fn draw(&mut self, mode: PrimitiveConfigMode, kind: DrawKind) {
        self.restore_entry();
        // Seed 002 GPUREG_GEOSTAGE_CONFIG/CONFIG2 bit 8: "When using vertex buffers and drawing
        // elements in triangles mode, bit 8 is set to 1, else it is set to 0".
        let tri_elements =
            matches!(kind, DrawKind::Elements(_)) && matches!(mode, PrimitiveConfigMode::Triangles);
        let flag = regs::GeostageConfig(0)
            .with_drawing_triangle_elements(tri_elements)
            .0;
        // Command 0: GEOSTAGE_CONFIG = val << 8. Byte 1 only (mask 0x2), so the geometry-shader
        // mode in bits 0-1 is kept (citro3d masks it the same way); the seed gives no mask.
        self.list.write_masked(id::GEOSTAGE_CONFIG, 0x2, flag);
        // Commands 1-2: GEOSTAGE_CONFIG2, "same as command 0x0229". The seed numbers it as two
        // commands ("1-2"); the builder issues it twice. UNVERIFIED(hw): whether the driver
        // really writes it twice or the seed's table counts one command as two.
        let flag2 = regs::GeostageConfig2(0)
            .with_drawing_triangle_elements(tri_elements)
            .0;
        self.list.write_masked(id::GEOSTAGE_CONFIG2, 0x2, flag2);
        self.list.write_masked(id::GEOSTAGE_CONFIG2, 0x2, flag2);
        // Commands 3-5.
        self.primitive_start(mode);
        // Command 6: GEOSTAGE_CONFIG2 "Value 0" — the function indicator (bit 0, byte 0 only,
        // mask 0x1, so bit 8 of commands 1-2 is kept): 0 = draw elements. Seed 002: "bit 0 is
        // set to 1 before drawing arrays, and cleared to 0 immediately after".
        let arrays = matches!(kind, DrawKind::Arrays { .. });
        self.list.write_masked(
            id::GEOSTAGE_CONFIG2,
            0x1,
            regs::GeostageConfig2(0).with_function_indicator(arrays).0,
        );
        match kind {
            DrawKind::Elements(ib) => {
                // Commands 7-8: index buffer offset and type, number of vertices.
                self.list.write(
                    id::INDEXBUFFER_CONFIG,
                    regs::IndexbufferConfig(0)
                        .with_offset(ib.offset)
                        .with_index_type(ib.kind)
                        .0,
                );
                self.list
                    .write(id::NUMVERTICES, regs::Numvertices(0).with_count(ib.count).0);
            }
            DrawKind::Arrays { first, count } => {
                // Seed 002 GPUREG_INDEXBUFFER_CONFIG bit 31: "1 = unsigned short or drawing
                // arrays"; the first vertex goes to GPUREG_VERTEX_OFFSET.
                self.list.write(
                    id::INDEXBUFFER_CONFIG,
                    regs::IndexbufferConfig(0)
                        .with_index_type(IndexbufferConfigIndexType::U16)
                        .0,
                );
                self.list
                    .write(id::NUMVERTICES, regs::Numvertices(0).with_count(count).0);
                self.list.write(
                    id::VERTEX_OFFSET,
                    regs::VertexOffset(0).with_offset(first).0,
                );
            }
        }
        // Commands 9-11: drawing mode, trigger, configuration mode.
        self.start_draw_func0(StartDrawFunc0Mode::Drawing);
        match kind {
            DrawKind::Elements(_) => self
                .list
                .write(id::DRAWELEMENTS, regs::Drawelements(0).with_trigger(1).0),
            DrawKind::Arrays { .. } => self
                .list
                .write(id::DRAWARRAYS, regs::Drawarrays(0).with_trigger(1).0),
        };
        self.start_draw_func0(StartDrawFunc0Mode::Configuration);
        if arrays {
            // Seed 002 GPUREG_GEOSTAGE_CONFIG2: bit 0 is "cleared to 0 immediately after"
            // drawing arrays, and "while bit 0 is set to 1, some register writes outside of the
            // 0x200-0x254 and 0x280-0x2DF ranges may be processed incorrectly" — command 13
            // (FRAMEBUFFER_FLUSH, 0x111) is such a write, so the flag goes before it.
            self.list.write_masked(
                id::GEOSTAGE_CONFIG2,
                0x1,
                regs::GeostageConfig2(0).with_function_indicator(false).0,
            );
        }
        // Commands 12-17.
        self.draw_epilogue();
    }

    /// Draws `count` vertices of the arrays from vertex `first` (GPUREG_DRAWARRAYS). Seed 004
    /// gives only the `glDrawElements` sequence (lines 9-25); arrays use it changed where seed
    /// 002 says they differ (GPUREG_GEOSTAGE_CONFIG2 lines 2626-2636, GPUREG_INDEXBUFFER_CONFIG
    /// line 2461): GEOSTAGE_CONFIG/CONFIG2 bit 8 stays 0 (not drawing elements); command 6 sets
    /// the GEOSTAGE_CONFIG2 function indicator to 1 ("set to 1 before drawing arrays"); command
    /// 7 writes GPUREG_INDEXBUFFER_CONFIG = 0x80000000 ("1 = unsigned short or drawing
    /// arrays"); GPUREG_VERTEX_OFFSET = `first` follows command 8 (GPUREG_NUMVERTICES); command
    /// 10 triggers GPUREG_DRAWARRAYS; after command 11 the function indicator is cleared again
    /// ("cleared to 0 immediately after"), before command 13 writes outside 0x200-0x254.
    pub fn draw_arrays(&mut self, mode: PrimitiveConfigMode, first: u32, count: u32) -> &mut Self {
        self.draw(mode, DrawKind::Arrays { first, count });
        self
    }

    /// Draws through the index buffer `ib` (GPUREG_DRAWELEMENTS) with seed 004's
    /// `glDrawElements` sequence (seed 004 lines 9-25, the parameter formats lines 32-44),
    /// command by command: 0 GEOSTAGE_CONFIG, 1-2 GEOSTAGE_CONFIG2
    /// (bit 8 set for triangles), 3 PRIMITIVE_CONFIG mode, 4 PRIMITIVE_CONFIG 0, 5
    /// RESTART_PRIMITIVE, 6 GEOSTAGE_CONFIG2 function indicator 0, 7 INDEXBUFFER_CONFIG, 8
    /// NUMVERTICES, 9 START_DRAW_FUNC0 = 0, 10 DRAWELEMENTS, 11 START_DRAW_FUNC0 = 1, 12
    /// VTX_FUNC, 13 FRAMEBUFFER_FLUSH, 14 GEOSTAGE_CONFIG = 0, 15 GEOSTAGE_CONFIG2 = 0, 16
    /// PRIMITIVE_CONFIG mode 0, 17 VSH_ENTRYPOINT = 0x7FFF0000. Byte masks: see the comments
    /// at each write (the seed gives none).
    pub fn draw_elements(&mut self, mode: PrimitiveConfigMode, ib: &IndexBuffer) -> &mut Self {
        self.draw(mode, DrawKind::Elements(*ib));
        self
    }

    /// GPUREG_RESTART_PRIMITIVE = 1: the next vertex starts a new strip or fan (seed 000: "ends
    /// the current triangle strip or fan. This is necessary before using these kinds of
    /// primitives with immediate-mode").
    pub fn restart_primitive(&mut self) -> &mut Self {
        self.list.write(
            id::RESTART_PRIMITIVE,
            regs::RestartPrimitive(0).with_trigger(1).0,
        );
        self
    }

    /// Starts immediate-mode submission (3dbrew GPU/Programming Guide "Immediate-Mode Vertex
    /// Submission": set up as for a draw, but write 0xF to GPUREG_FIXEDATTRIB_INDEX instead of
    /// triggering): seed 004 commands 3-5 (primitive mode, restart), GEOSTAGE_CONFIG2 bit 0 = 1
    /// (byte 0 only; seed 002: "set to 1 before inputting vertex attribute data"),
    /// START_DRAW_FUNC0 = 0, GPUREG_FIXEDATTRIB_INDEX = 0xF.
    pub fn immediate_begin(&mut self, mode: PrimitiveConfigMode) -> &mut Self {
        self.restore_entry();
        self.primitive_start(mode);
        self.list.write_masked(
            id::GEOSTAGE_CONFIG2,
            0x1,
            regs::GeostageConfig2(0).with_function_indicator(true).0,
        );
        self.start_draw_func0(StartDrawFunc0Mode::Drawing);
        self.list.write(
            id::FIXEDATTRIB_INDEX,
            regs::FixedattribIndex(0).with_index(0xF).0,
        );
        self
    }

    /// One immediate-mode vertex: each attribute (in input order; as many as
    /// GPUREG_VSH_NUM_ATTR + 1) as three words in f24 transfer packing through one consecutive
    /// write of GPUREG_FIXEDATTRIB_DATA0-2, so the DATA0/1/2 layouts of seed 002 match by ID.
    pub fn immediate_vertex(&mut self, attributes: &[[f32; 4]]) -> &mut Self {
        for a in attributes {
            self.list
                .write_seq(id::FIXEDATTRIB_DATA0, &pack_f24x3(f24x4(*a)));
        }
        self
    }

    /// Ends immediate-mode submission: START_DRAW_FUNC0 = 1, GEOSTAGE_CONFIG2 bit 0 = 0
    /// ("cleared to 0 immediately after", seed 002), then "the same writes used after a draw"
    /// (Programming Guide): seed 004 commands 12-17.
    pub fn immediate_end(&mut self) -> &mut Self {
        self.start_draw_func0(StartDrawFunc0Mode::Configuration);
        self.list.write_masked(
            id::GEOSTAGE_CONFIG2,
            0x1,
            regs::GeostageConfig2(0).with_function_indicator(false).0,
        );
        self.draw_epilogue();
        self
    }

    /// Draws `vertices` of the standard layout in immediate mode
    /// ([`Builder::immediate_begin`], one [`Builder::immediate_vertex`] each,
    /// [`Builder::immediate_end`]).
    pub fn immediate(&mut self, mode: PrimitiveConfigMode, vertices: &[Vertex]) -> &mut Self {
        self.immediate_begin(mode);
        for v in vertices {
            self.immediate_vertex(&v.attributes());
        }
        self.immediate_end()
    }

    // ---- result ----

    /// Ends the list (GPUREG_FRAMEBUFFER_FLUSH and INVALIDATE — seed 002: flush "after rendering
    /// before ... using rendering results" — then the FINALIZE of
    /// [`CommandList::finalize`]) and packs the case: the list at [`DEFAULT_LIST_ADDR`], the
    /// data at [`DATA_BASE`], the cleared colour and depth-stencil buffers, `pipeline` on.
    pub fn finish(&self, name: &str, description: &str) -> Result<Scene, BuildError> {
        let cfg = self.fb.ok_or(BuildError::NoFramebuffer)?;
        let mut list = self.list.clone();
        list.write(
            id::FRAMEBUFFER_FLUSH,
            regs::FramebufferFlush(0).with_trigger(1).0,
        );
        list.write(
            id::FRAMEBUFFER_INVALIDATE,
            regs::FramebufferInvalidate(0).with_trigger(1).0,
        );
        list.finalize();
        let list_limit = DATA_BASE - DEFAULT_LIST_ADDR;
        if list.words().len() > (list_limit / 4) as usize {
            return Err(BuildError::TooBig {
                what: "command list",
                bytes: list.words().len() as u64 * 4,
                limit: list_limit.into(),
            });
        }
        if self.data.len() > DATA_LIMIT as usize {
            return Err(BuildError::TooBig {
                what: "vertex and index data",
                bytes: self.data.len() as u64,
                limit: DATA_LIMIT.into(),
            });
        }
        if self.tex.len() > texture::TEX_LIMIT as usize {
            return Err(BuildError::TooBig {
                what: "texture memory",
                bytes: self.tex.len() as u64,
                limit: texture::TEX_LIMIT.into(),
            });
        }
        let fb = FramebufferDesc::new(&cfg);
        let mut case = Case::from_list(name, description, list.into_words());
        if !self.data.is_empty() {
            case.images.push(MemImage {
                base: DATA_BASE,
                words: formats::bytes_to_words(&self.data),
            });
        }
        if !self.tex.is_empty() {
            case.images.push(MemImage {
                base: texture::TEX_BASE,
                words: formats::bytes_to_words(&self.tex),
            });
        }
        case.images.push(MemImage {
            base: fb.color_addr,
            words: formats::fill_words(&cfg.color.pixel_bytes(self.clear.color), fb.pixels()),
        });
        case.images.push(MemImage {
            base: fb.depth_addr,
            words: formats::fill_words(
                &cfg.depth.pixel_bytes(self.clear.depth, self.clear.stencil),
                fb.pixels(),
            ),
        });
        case.pipeline = true;
        case.max_cycles = self.max_cycles;
        Ok(Scene { case, fb })
    }
}
