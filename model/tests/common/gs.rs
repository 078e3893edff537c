//! The geometry-shader set-up shared by `gs_draw.rs` and the `gs-new-draw` knob test: a
//! pass-through vertex shader and small geometry shaders in each input mode, configured in
//! libctru's `shaderProgramConfigure` order (GEOSTAGE_CONFIG = 2 first), run through the GPU.
#![allow(dead_code)]
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::cmdlist::CommandList;
use pica_model::num::F24;
use pica_model::regfile::packer::pack_f24x3;
use pica_model::regs::id;
use pica_model::shader::asm::{assemble_files, Options};
use pica_model::shader::shbin::{ConstValue, Shbin};
use pica_model::shader::stage::ShadedItem;
use pica_model::{Gpu, Memory, Outcome};

pub const LIST: u32 = 0x2000_0000;
pub const BASE: u32 = 0x2080_0000;
/// The index buffer, relative to [`BASE`].
pub const INDEX_OFFSET: u32 = 0x800;

/// The vertex shader: position and colour through.
pub const VS: &str = "
.out opos position
.out oclr color
.in ipos v0
.in iclr v1
.proc main
\tmov opos, ipos
\tmov oclr, iclr
\tend
.end
";

/// Point mode, six inputs (three vertices of position and colour): one triangle of the input
/// positions, coloured with the first vertex's colour.
pub const GS_POINT: &str = "
.gsh point c0
.out opos position
.out oclr color
.entry gmain
.proc gmain
\tsetemit 0
\tmov opos, v0
\tmov oclr, v1
\temit
\tsetemit 1
\tmov opos, v2
\tmov oclr, v1
\temit
\tsetemit 2, prim
\tmov opos, v4
\tmov oclr, v1
\temit
\tend
.end
";

/// Fixed mode, one vertex of two outputs at c0-c1: a square of half-size 0.25 around it (two
/// triangles).
pub const GS_FIXED: &str = "
.gsh fixed c8 c0 1
.constf size(0.25, 0.25, 0.0, 0.0)
.out opos position
.out oclr color
.alias centre c0
.alias colour c1
.entry gmain
.proc gmain
\tmov r1, size
\tmov r2, size
\tmov r2.x, -r2
\tsetemit 0
\tadd opos, centre, -r1
\tmov oclr, colour
\temit
\tsetemit 1
\tadd opos, centre, -r2
\tmov oclr, colour
\temit
\tsetemit 2, prim
\tadd opos, centre, r2
\tmov oclr, colour
\temit
\tsetemit 0, inv prim
\tadd opos, centre, r1
\tmov oclr, colour
\temit
\tend
.end
";

/// Variable mode, one main vertex (c1 position, c2 colour), the others' positions at c3 on:
/// a fan (c1, c3, c4), and (c1, c4, c5) when c0 > 3; every vertex gets the colour c2, and o2
/// carries c0 (the vertex count).
pub const GS_VARIABLE: &str = "
.gsh variable c8 1
.constf three(3.0, 3.0, 3.0, 3.0)
.out opos position
.out oclr color
.out onum texcoord0
.alias num c0
.alias p0 c1
.alias clr c2
.alias p1 c3
.alias p2 c4
.alias p3 c5
.entry gmain
.proc gmain
\tsetemit 0
\tmov opos, p0
\tmov oclr, clr
\tmov onum, num
\temit
\tsetemit 1
\tmov opos, p1
\tmov oclr, clr
\tmov onum, num
\temit
\tsetemit 2, prim
\tmov opos, p2
\tmov oclr, clr
\tmov onum, num
\temit
\tmov r0, num
\tcmp three, lt, lt, r0
\tifc cmp.x
\t\tsetemit 1
\t\tmov opos, p2
\t\tmov oclr, clr
\t\tmov onum, num
\t\temit
\t\tsetemit 2, prim
\t\tmov opos, p3
\t\tmov oclr, clr
\t\tmov onum, num
\t\temit
\t.end
\tend
.end
";

pub fn f24(x: f64) -> F24 {
    F24::from_f64_trunc(x)
}

/// The GS set-up of libctru's `shaderProgramConfigure` + `shaderProgramUse`, in its order:
/// GEOSTAGE_CONFIG = 2 first, then the programs, the output map, GSH_MISC0/1, the GS input
/// buffer and permutation, then the uniforms. `stride`: GS inputs per vertex in the fixed
/// and variable modes, attributes per run in point mode (libctru's `stride`).
pub fn gs_setup(gs: &str, stride: u32) -> CommandList {
    let prog = assemble_files(&[("vs.v.pica", VS), ("gs.g.pica", gs)], Options::default())
        .unwrap()
        .shbin;
    let (vs_d, gs_d) = (&prog.dvles[0], &prog.dvles[1]);
    let mode = gs_d.gsh_mode.byte();
    let mut l = CommandList::new();
    l.write(id::START_DRAW_FUNC0, 1);
    l.write_masked(id::GEOSTAGE_CONFIG, 0x3, 2);
    l.write_masked(id::GEOSTAGE_CONFIG2, 0x3, 0);
    l.write_masked(id::VSH_COM_MODE, 0x1, 1);
    upload(&mut l, &prog, 0);
    l.write(id::VSH_ENTRYPOINT, 0x7FFF_0000 | vs_d.entry);
    l.write(id::VSH_OUTMAP_MASK, u32::from(vs_d.output_mask));
    l.write(id::VSH_OUTMAP_TOTAL1, 1);
    l.write(id::VSH_OUTMAP_TOTAL2, 1);
    upload(&mut l, &prog, 0x30);
    l.write(id::GSH_ENTRYPOINT, 0x7FFF_0000 | gs_d.entry);
    l.write(id::GSH_OUTMAP_MASK, u32::from(gs_d.output_mask));
    // Output map: o0 position, o1 colour, o2 texcoord0 (u, v).
    l.write_masked(id::PRIMITIVE_CONFIG, 0x1, 2);
    l.write_seq(
        id::SH_OUTMAP_TOTAL,
        &[
            3,
            0x0302_0100,
            0x0B0A_0908,
            0x1F1F_0D0C,
            0x1F1F_1F1F,
            0x1F1F_1F1F,
            0x1F1F_1F1F,
            0x1F1F_1F1F,
        ],
    );
    let variable = mode == 1;
    l.write_masked(
        id::GEOSTAGE_CONFIG,
        0xA,
        if variable { 0x8000_0000 } else { 0 },
    );
    let misc0 = if mode == 2 {
        2 | 0x0100_0000
            | u32::from(gs_d.gsh_fixed_start) << 16
            | (stride - 1) << 12
            | (u32::from(gs_d.gsh_fixed_num) - 1) << 8
    } else {
        u32::from(mode)
    };
    l.write(id::GSH_MISC0, misc0);
    l.write(
        id::GSH_MISC1,
        if variable {
            u32::from(gs_d.gsh_variable_num) - 1
        } else {
            0
        },
    );
    l.write(
        id::GSH_INPUTBUFFER_CONFIG,
        0x0800_0000 | if mode != 0 { 0x100 } else { 0 } | (stride - 1),
    );
    l.write_seq(
        id::GSH_ATTRIBUTES_PERMUTATION_LOW,
        &[0x7654_3210, 0xFEDC_BA98],
    );
    for c in &gs_d.constants {
        if let ConstValue::Float(v) = c.value {
            l.write(id::GSH_FLOATUNIFORM_INDEX, u32::from(c.reg));
            l.write_seq(id::GSH_FLOATUNIFORM_DATA0, &pack_f24x3(v));
        }
    }
    // The attribute set-up (citro3d's AttrInfo): two float x4 attributes in one buffer.
    l.write(id::VSH_INPUTBUFFER_CONFIG, 0xA000_0001);
    l.write(id::VSH_NUM_ATTR, 1);
    l.write_seq(id::VSH_ATTRIBUTES_PERMUTATION_LOW, &[0x10, 0]);
    l.write(id::COLORBUFFER_LOC, 0x1810_0000 >> 3);
    l.write(id::DEPTHBUFFER_LOC, 0x1820_0000 >> 3);
    l.write(id::ATTRIBBUFFERS_LOC, BASE >> 3);
    // Attributes 0 and 1: float x4 (type 3, size 4 - 1).
    l.write(id::ATTRIBBUFFERS_FORMAT_LOW, 0xF | 0xF << 4);
    l.write(id::ATTRIBBUFFERS_FORMAT_HIGH, 0xFFC << 16 | 1 << 28);
    l.write(id::ATTRIBBUFFER0_OFFSET, 0);
    l.write(id::ATTRIBBUFFER0_CONFIG1, 0x10);
    l.write(id::ATTRIBBUFFER0_CONFIG2, 2 << 28 | 32 << 16);
    l.write(id::INDEXBUFFER_CONFIG, INDEX_OFFSET);
    l
}

/// The code and operand descriptors into the VSH block (`off` 0) or the GSH block (0x30).
pub fn upload(l: &mut CommandList, prog: &Shbin, off: u16) {
    l.write(id::VSH_CODETRANSFER_INDEX - off, 0);
    l.write_repeat(id::VSH_CODETRANSFER_DATA0 - off, &prog.code);
    l.write(id::VSH_CODETRANSFER_END - off, 1);
    l.write(id::VSH_OPDESCS_INDEX - off, 0);
    l.write_repeat(id::VSH_OPDESCS_DATA0 - off, &prog.opdescs);
}

/// A draw as a driver writes it: `n` vertices, indexed or not.
pub fn draw(l: &mut CommandList, indexed: bool, n: u32) {
    l.write(id::RESTART_PRIMITIVE, 1);
    l.write(id::NUMVERTICES, n);
    l.write(id::START_DRAW_FUNC0, 0);
    l.write(
        if indexed {
            id::DRAWELEMENTS
        } else {
            id::DRAWARRAYS
        },
        1,
    );
    l.write(id::START_DRAW_FUNC0, 1);
    l.write(id::VTX_FUNC, 1);
}

/// One immediate-mode vertex (FIXEDATTRIB_INDEX = 0xF starts a batch when `first`).
pub fn immediate(l: &mut CommandList, first: bool, pos: [f64; 4], clr: [f64; 4]) {
    if first {
        l.write(id::FIXEDATTRIB_INDEX, 0xF);
    }
    for a in [pos, clr] {
        l.write_seq(id::FIXEDATTRIB_DATA0, &pack_f24x3(a.map(f24)));
    }
}

/// Vertices as (position, colour), 32 bytes each (float x4 twice).
pub fn vertex_bytes(v: &[([f64; 4], [f64; 4])]) -> Vec<u8> {
    v.iter()
        .flat_map(|(p, c)| p.iter().chain(c))
        .flat_map(|x| (*x as f32).to_le_bytes())
        .collect()
}

pub fn run(
    mut l: CommandList,
    vertices: &[([f64; 4], [f64; 4])],
    indices: &[u8],
) -> (Gpu, Outcome) {
    run_with(
        &mut l,
        vertices,
        indices,
        pica_model::knobs::Knobs::default(),
    )
}

pub fn run_with(
    l: &mut CommandList,
    vertices: &[([f64; 4], [f64; 4])],
    indices: &[u8],
    knobs: pica_model::knobs::Knobs,
) -> (Gpu, Outcome) {
    l.finalize();
    let mut mem = Memory::new();
    mem.write_words(LIST, l.words()).unwrap();
    mem.write_bytes(BASE, &vertex_bytes(vertices)).unwrap();
    mem.write_bytes(BASE + INDEX_OFFSET, indices).unwrap();
    let mut gpu = Gpu::new(mem);
    gpu.set_knobs(knobs);
    gpu.set_keep_shaded(true);
    gpu.submit(LIST, l.byte_len()).unwrap();
    let o = gpu.run(1_000_000);
    (gpu, o)
}

/// GS invocations that emitted something, in order.
pub fn invocations(gpu: &Gpu) -> Vec<u32> {
    let mut v: Vec<u32> = gpu
        .shaded()
        .iter()
        .filter_map(|s| match s {
            ShadedItem::GsVertex { invocation, .. } => Some(*invocation),
            ShadedItem::Vertex { .. } => None,
        })
        .collect();
    v.dedup();
    v
}

/// The (x, y) of o0 of every vertex of every GS primitive, in order.
pub fn primitives(gpu: &Gpu) -> Vec<[(f64, f64); 3]> {
    gpu.shaded()
        .iter()
        .filter_map(|s| match s {
            ShadedItem::GsVertex { emitted, .. } => emitted
                .primitive
                .map(|p| p.map(|r| (r[0][0].to_f64(), r[0][1].to_f64()))),
            ShadedItem::Vertex { .. } => None,
        })
        .collect()
}

pub fn v(x: f64, y: f64, c: [f64; 4]) -> ([f64; 4], [f64; 4]) {
    ([x, y, -0.5, 1.0], c)
}

pub const RED: [f64; 4] = [1.0, 0.0, 0.0, 1.0];
pub const GREEN: [f64; 4] = [0.0, 1.0, 0.0, 1.0];
pub const BLUE: [f64; 4] = [0.0, 0.0, 1.0, 1.0];

/// Two triangles' worth of vertices.
pub fn six() -> Vec<([f64; 4], [f64; 4])> {
    vec![
        v(-0.75, -0.75, RED),
        v(0.0, -0.75, RED),
        v(-0.75, 0.0, RED),
        v(0.0, 0.0, GREEN),
        v(0.75, 0.0, GREEN),
        v(0.75, 0.75, GREEN),
    ]
}
