//! Vertices with every fixed-function attribute: position, normal quaternion, colour, texture
//! coordinates 0 (with w), 1 and 2, and the view vector, passed through a vertex shader that
//! copies seven inputs to seven outputs, and the output map that names each component's
//! semantic (seed 002 GPUREG_SH_OUTMAP_Oi).

use super::outmap::{OutMap, OutSlot};
use super::{AttribBuffer, AttribFormat, AttribLayout, BuildError, Builder, DATA_BASE};
use super::{DEFAULT_Z, IDENTITY_PERMUTATION};
use pica_model::regs::{AttribbufferComponent, ShOutmapSemantic};

/// The vertex shader of [`FullVertex`]: inputs v0-v6 go out unchanged as o0-o6. The `.out`
/// types other than position and colour are `dummy`: the output map is written afterwards by
/// [`Builder::full_vertex_shader`] ([`full_outmap`]), component by component.
pub const FULL_VSH: &str = "\
; Pass-through of seven attributes: position, normal quaternion, colour, texcoord0 (u, v, w),
; texcoord1, texcoord2, view.
.out opos position
.out oquat dummy
.out oclr color
.out otc0 dummy
.out otc1 dummy
.out otc2 dummy
.out oview dummy
.in ipos v0
.in iquat v1
.in iclr v2
.in itc0 v3
.in itc1 v4
.in itc2 v5
.in iview v6
.proc main
\tmov opos, ipos
\tmov oquat, iquat
\tmov oclr, iclr
\tmov otc0, itc0
\tmov otc1, itc1
\tmov otc2, itc2
\tmov oview, iview
\tend
.end
";

/// The output map of [`FULL_VSH`] (raw semantics of seed 002 GPUREG_SH_OUTMAP_Oi): o0 position
/// x y z w (0-3), o1 quaternion x y z w (4-7), o2 colour r g b a (8-B), o3 texcoord0 u v (C, D)
/// and texcoord0 w (10), o4 texcoord1 u v (E, F), o5 texcoord2 u v (16, 17), o6 view x y z
/// (12-14); unused components 0x1F.
pub fn full_outmap() -> OutMap {
    const U: u32 = 0x1F;
    let rows: [[u32; 4]; 7] = [
        [0x00, 0x01, 0x02, 0x03],
        [0x04, 0x05, 0x06, 0x07],
        [0x08, 0x09, 0x0A, 0x0B],
        [0x0C, 0x0D, 0x10, U],
        [0x0E, 0x0F, U, U],
        [0x16, 0x17, U, U],
        [0x12, 0x13, 0x14, U],
    ];
    OutMap {
        slots: rows
            .iter()
            .enumerate()
            .map(|(i, r)| OutSlot {
                reg: i as u8,
                semantics: r.map(ShOutmapSemantic::from_bits),
            })
            .collect(),
    }
}

/// A vertex with every attribute the fragment stages use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FullVertex {
    /// Clip-space position.
    pub pos: [f32; 4],
    /// Normal quaternion (x, y, z, w); (0, 0, 0, 1) leaves the normal at +z.
    pub quat: [f32; 4],
    /// Colour in [0, 1].
    pub color: [f32; 4],
    /// Texture coordinates 0: u, v, w (w is the divisor of projection textures, and the third
    /// coordinate of cube maps and shadow textures).
    pub tc0: [f32; 3],
    /// Texture coordinates 1.
    pub tc1: [f32; 2],
    /// Texture coordinates 2.
    pub tc2: [f32; 2],
    /// View vector (x, y, z).
    pub view: [f32; 3],
}

impl FullVertex {
    /// A vertex at (`x`, `y`, [`DEFAULT_Z`], 1) with white colour, texture coordinates (`u`,
    /// `v`) in all three sets (w = 1), quaternion (0, 0, 0, 1) and view (0, 0, 1).
    pub const fn xy_uv(x: f32, y: f32, u: f32, v: f32) -> Self {
        Self {
            pos: [x, y, DEFAULT_Z, 1.0],
            quat: [0.0, 0.0, 0.0, 1.0],
            color: [1.0; 4],
            tc0: [u, v, 1.0],
            tc1: [u, v],
            tc2: [u, v],
            view: [0.0, 0.0, 1.0],
        }
    }

    /// The same with colour `c`.
    pub const fn with_color(mut self, c: [f32; 4]) -> Self {
        self.color = c;
        self
    }

    /// The same with clip-space position `p`.
    pub const fn with_pos(mut self, p: [f32; 4]) -> Self {
        self.pos = p;
        self
    }

    /// The same with normal quaternion `q`.
    pub const fn with_quat(mut self, q: [f32; 4]) -> Self {
        self.quat = q;
        self
    }

    /// The same with view vector `v`.
    pub const fn with_view(mut self, v: [f32; 3]) -> Self {
        self.view = v;
        self
    }

    /// The same with texcoord0 (`u`, `v`, `w`).
    pub const fn with_tc0(mut self, tc: [f32; 3]) -> Self {
        self.tc0 = tc;
        self
    }

    /// The same with texcoord1.
    pub const fn with_tc1(mut self, tc: [f32; 2]) -> Self {
        self.tc1 = tc;
        self
    }

    /// The same with texcoord2.
    pub const fn with_tc2(mut self, tc: [f32; 2]) -> Self {
        self.tc2 = tc;
        self
    }

    /// The seven shader inputs v0-v6 in [`FULL_VSH`] order.
    pub const fn attributes(&self) -> [[f32; 4]; 7] {
        [
            self.pos,
            self.quat,
            self.color,
            [self.tc0[0], self.tc0[1], self.tc0[2], 0.0],
            [self.tc1[0], self.tc1[1], 0.0, 0.0],
            [self.tc2[0], self.tc2[1], 0.0, 0.0],
            [self.view[0], self.view[1], self.view[2], 0.0],
        ]
    }
}

/// The four corners of the rectangle (`x0`, `y0`)-(`x1`, `y1`) in strip order (bottom left,
/// bottom right, top left, top right) with texture coordinates (`u0`, `v0`)-(`u1`, `v1`).
pub fn textured_rect([x0, y0, x1, y1]: [f32; 4], [u0, v0, u1, v1]: [f32; 4]) -> [FullVertex; 4] {
    [
        FullVertex::xy_uv(x0, y0, u0, v0),
        FullVertex::xy_uv(x1, y0, u1, v0),
        FullVertex::xy_uv(x0, y1, u0, v1),
        FullVertex::xy_uv(x1, y1, u1, v1),
    ]
}

impl Builder {
    /// Loads [`FULL_VSH`] ([`Builder::vertex_shader`]) and replaces the output map derived from
    /// its `.out` table by [`full_outmap`] ([`Builder::output_map`]).
    pub fn full_vertex_shader(&mut self) -> Result<&mut Self, BuildError> {
        self.vertex_shader(FULL_VSH, "full.v.pica")?;
        self.output_map(&full_outmap());
        Ok(self)
    }

    /// `vertices` as seven float×4 attributes interleaved (112 bytes a vertex) in a new data
    /// allocation, attribute buffer 0 holding attributes 0-6, identity permutation, attributes
    /// 7-11 fixed (as [`Builder::vertex_array`]). Returns the first vertex's address.
    pub fn full_vertex_array(&mut self, vertices: &[FullVertex]) -> u32 {
        let floats: Vec<f32> = vertices
            .iter()
            .flat_map(|v| v.attributes().into_iter().flatten())
            .collect();
        let addr = self.alloc_f32(&floats);
        let layout = AttribLayout {
            base: DATA_BASE,
            formats: vec![AttribFormat::float(4); 7],
            fixed_mask: (0xFFF << 7) & 0xFFF,
            buffers: vec![AttribBuffer {
                offset: addr - DATA_BASE,
                components: (0..7).map(AttribbufferComponent::from_bits).collect(),
            }],
            permutation: IDENTITY_PERMUTATION,
        };
        self.attrib_buffers(&layout);
        addr
    }
}
