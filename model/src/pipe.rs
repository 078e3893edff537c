//! The items that cross the channels of the geometry and fragment pipeline.
//!
//! ```text
//! REGS ──VlCmd──► VL ──ShIn──► SH ──ShadedItem──► PA ──Triangle──► CLIP ──ScreenTri──►
//!                  └──────PaCmd (vertex order, post-vertex cache hits)──► PA
//! RAST ──Fragment──► TEX ──ShadedFragment──► LIGHT ──► TEV ──► FOG ──► FOP ──► memory
//! ```
//!
//! From TEX on, one [`ShadedFragment`] carries a fragment through the fragment pipeline; each
//! stage fills in its own fields.
//!
//! Every value is raw hardware bits or a bit-exact number type ([`F24`]); nothing here holds a
//! host float.

use crate::num::F24;

/// REGS → VL: the work a register write starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VlCmd {
    /// GPUREG_DRAWARRAYS was written: draw NUMVERTICES vertices from VERTEX_OFFSET.
    DrawArrays,
    /// GPUREG_DRAWELEMENTS was written: draw NUMVERTICES vertices through the index buffer.
    DrawElements,
    /// An immediate-mode vertex (GPUREG_FIXEDATTRIB_INDEX = 0xF) is complete.
    Immediate {
        /// Its attributes in input-register order, as raw f24.
        attrs: Vec<[F24; 4]>,
        /// The first immediate vertex since a write to GPUREG_FIXEDATTRIB_INDEX (or since
        /// power-on): it starts a batch, where the GS input assembler reads its configuration
        /// (Azahar `reset_geometry_pipeline`; fact `gs-config-per-draw`).
        batch_start: bool,
    },
    /// GPUREG_VTX_FUNC was written: clear the post-vertex cache.
    ClearVertexCache,
    /// GPUREG_RESTART_PRIMITIVE was written: the next vertex starts a new strip or fan.
    RestartPrimitive,
}

/// VL → PA: the order in which shaded vertices form primitives.
///
/// VL sends one [`PaCmd::Vertex`] per vertex of the draw, in draw order. A vertex the
/// post-vertex cache already holds names the sequence number of the earlier shading instead of
/// being shaded again, so PA keeps shaded vertices by sequence number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaCmd {
    /// A draw (DRAWARRAYS / DRAWELEMENTS) begins: primitive state restarts.
    Begin,
    /// The next vertex of the primitive stream is the shaded vertex `seq` (the `seq` of the
    /// [`crate::shader::stage::VertexIn`] that produced it).
    Vertex(u32),
    /// GPUREG_RESTART_PRIMITIVE: a strip or fan starts again with the next vertex.
    Restart,
    /// The draw is complete: no more vertices follow.
    End,
}

/// Number of output semantics (seed 002 GPUREG_SH_OUTMAP_Oi: values 0x00-0x17).
pub const NUM_SEMANTICS: usize = 0x18;

/// Output semantics of seed 002 GPUREG_SH_OUTMAP_Oi, as indices into [`OutVertex::attr`].
pub mod semantic {
    /// position.x (y, z, w follow).
    pub const POSITION: usize = 0x00;
    /// normquat.x (y, z, w follow).
    pub const QUATERNION: usize = 0x04;
    /// color.r (g, b, a follow).
    pub const COLOR: usize = 0x08;
    /// texcoord0.u (v follows).
    pub const TEXCOORD0: usize = 0x0C;
    /// texcoord1.u (v follows).
    pub const TEXCOORD1: usize = 0x0E;
    /// texcoord0.w.
    pub const TEXCOORD0_W: usize = 0x10;
    /// view.x (y, z follow).
    pub const VIEW: usize = 0x12;
    /// texcoord2.u (v follows).
    pub const TEXCOORD2: usize = 0x16;
    /// The "unused component" semantic value.
    pub const UNUSED: u32 = 0x1F;
}

/// A vertex after the output map: every semantic's value (1.0 where nothing maps to it),
/// colours already made absolute and saturated (pica-facts §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutVertex {
    /// Indexed by semantic value ([`semantic`]); 0x11 and 0x15 have no meaning and read 1.0.
    pub attr: [F24; NUM_SEMANTICS],
}

impl OutVertex {
    /// Every semantic 1.0 (what an empty output map yields).
    pub const ONES: Self = Self {
        attr: [F24::from_bits(0x3F_0000); NUM_SEMANTICS],
    };

    /// position (x, y, z, w) in clip space.
    pub fn position(&self) -> [F24; 4] {
        self.vec4(semantic::POSITION)
    }

    /// colour (r, g, b, a), each in [0, 1].
    pub fn color(&self) -> [F24; 4] {
        self.vec4(semantic::COLOR)
    }

    fn vec4(&self, base: usize) -> [F24; 4] {
        [
            self.attr[base],
            self.attr[base + 1],
            self.attr[base + 2],
            self.attr[base + 3],
        ]
    }

    /// The raw f24 bits of every semantic (beat payloads).
    pub fn bits(&self) -> [u32; NUM_SEMANTICS] {
        self.attr.map(F24::bits)
    }
}

/// PA → CLIP: one triangle in clip space, vertices in the order that defines its winding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triangle {
    /// Triangle number within the run (PA counts from 0).
    pub seq: u32,
    /// The three vertices.
    pub v: [OutVertex; 3],
}

/// A vertex after clipping, perspective division, viewport and depth map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenVertex {
    /// Window x in pixels (viewport applied, VIEWPORT_XY offset included).
    pub x: F24,
    /// Window y in pixels.
    pub y: F24,
    /// Depth after the depth map, `(z/w)·DEPTHMAP_SCALE + DEPTHMAP_OFFSET`, nominally in
    /// [0, 1], to be interpolated linearly in screen space. With GPUREG_DEPTHMAP_ENABLE = 0
    /// (w-buffer) RAST multiplies the interpolated value by the perspective-correct
    /// interpolated w; clamping to [0, 1] is also RAST's (see [`crate::clip`]).
    pub z: F24,
    /// 1 / clip-space w, for perspective-correct interpolation.
    pub inv_w: F24,
    /// The (clipped) clip-space vertex whose attributes RAST interpolates.
    pub v: OutVertex,
}

/// CLIP → RAST: a triangle in window coordinates (clipping may split one [`Triangle`] into
/// several; they share its `seq`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenTri {
    /// The [`Triangle::seq`] it came from.
    pub seq: u32,
    /// The three vertices, in the winding order PA gave.
    pub v: [ScreenVertex; 3],
}

/// RAST → FOP: one covered pixel with its interpolated attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fragment {
    /// Pixel x (0 = left edge of the framebuffer).
    pub x: u16,
    /// Pixel y in window coordinates (0 = the y the viewport maps -1 to).
    pub y: u16,
    /// Depth quantized to the depth buffer format's bits (GPUREG_DEPTHBUFFER_FORMAT: D16 → 16,
    /// D24 and D24S8 → 24), the unsigned value the depth test compares and stores.
    pub depth: u32,
    /// Primary colour, 8 bits per channel (r, g, b, a).
    pub color: [u8; 4],
    /// Interpolated semantics (texture coordinates, quaternion, view), raw f24; the colour
    /// and position entries are those interpolated before the 8-bit conversion.
    pub attr: [F24; NUM_SEMANTICS],
    /// The triangle it belongs to.
    pub tri: u32,
    /// Screen-space differences of the three texture-coordinate pairs, for the texture units'
    /// level of detail: `[du/dx, dv/dx, du/dy, dv/dy]` of texcoord0, texcoord1, texcoord2 (f24,
    /// texture-coordinate units). All zero unless a texture unit is enabled (RAST computes
    /// them only then; see [`crate::rast`]).
    pub tex_deriv: [[F24; 4]; 3],
}

/// A fragment in the fragment pipeline (TEX → LIGHT → TEV → FOG → FOP), with what each stage
/// has computed for it so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShadedFragment {
    /// The fragment RAST produced.
    pub frag: Fragment,
    /// TEX: the colours of texture units 0-3 (`[r, g, b, a]`; unit 3 is the procedural
    /// texture). All zero for a disabled unit.
    pub tex: [[u8; 4]; 4],
    /// LIGHT: the fragment-lighting primary colour (all zero with lighting off).
    pub light_primary: [u8; 4],
    /// LIGHT: the fragment-lighting secondary colour (all zero with lighting off).
    pub light_secondary: [u8; 4],
    /// TEV: the combiner output (FOG then applies fog or gas to it). Before TEV runs it is
    /// the primary colour.
    pub color: [u8; 4],
}

impl ShadedFragment {
    /// A fragment entering the fragment pipeline: nothing computed yet.
    pub fn new(frag: Fragment) -> Self {
        Self {
            frag,
            tex: [[0; 4]; 4],
            light_primary: [0; 4],
            light_secondary: [0; 4],
            color: frag.color,
        }
    }
}
