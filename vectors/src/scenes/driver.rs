//! Driver-order scenes (`driver/...`): small programs written against the libctru / citro3d
//! emitter ([`crate::builder::driver`]) the way 3DS homebrew is written — `C3D_Init`, render
//! targets, `C3D_BindProgram`, attribute and buffer info, combiners, light environments, fog,
//! procedural textures, uniforms, `C3D_DrawArrays` / `C3D_DrawElements`, `C3D_FrameEnd` — so
//! each list carries the register order, masks and defaults those libraries write. The shaders
//! (picasso syntax, assembled by [`pica_model::shader::asm`]), meshes and textures are ours;
//! the 3ds-examples demos named in each scene's documentation only gave the idea of what to
//! draw.
//!
//! Every scene draws on a 32×32 RGBA8 / D24S8 target cleared to [`BG`] with depth 0 (citro3d
//! programs clear depth to 0 and keep `C3D_Init`'s depth test "greater"), and ends the frame
//! as `C3D_FrameEnd` ends it.

use super::{Bytes, BG, R};
use crate::builder::driver::{
    gpu, tev_mode, AttrInfo, BufInfo, Citro3d, Dvlb, FogLut, LightEnv, LightLut, Material, ProcTex,
    ProcTexColorLut, ProcTexLut, RenderTarget, ShaderProgram, ShaderType, Tex, TexEnv,
    C3D_UNSIGNED_BYTE, C3D_UNSIGNED_SHORT,
};
use crate::builder::texture::{encode, TexImage};
use crate::builder::{BuildError, Clear, ColorFormat, DepthFormat};
use pica_model::regs::TexunitTypeFormat;

/// The clear of every driver scene: [`BG`], depth 0, stencil 0.
const CLEAR: Clear = Clear::color(BG).with_depth(0);

/// `C3D_Init`, the 32×32 screen target (`C3D_RenderTargetCreate` + `C3D_RenderTargetClear`),
/// `C3D_FrameBegin` and `C3D_FrameDrawOn`.
fn init32() -> Result<(Citro3d, RenderTarget), BuildError> {
    let mut c = Citro3d::init();
    let t = c.render_target_create(32, 32, ColorFormat::Rgba8, DepthFormat::D24S8, CLEAR)?;
    c.frame_draw_on(&t);
    Ok((c, t))
}

/// `shaderInstanceGetUniformLocation`, or an error naming the uniform.
fn loc(p: &ShaderProgram, ty: ShaderType, name: &str) -> Result<usize, BuildError> {
    let si = match ty {
        ShaderType::Vertex => Some(&p.vsh),
        ShaderType::Geometry => p.gsh.as_ref(),
    };
    si.and_then(|s| s.uniform_location(name))
        .map(usize::from)
        .ok_or_else(|| BuildError::NoExecutable(format!("uniform {name}")))
}

/// `C3D_TexEnvInit` on stage 0 and `C3D_TexEnvSrc(env, C3D_Both, src, 0, 0)` +
/// `C3D_TexEnvFunc(env, C3D_Both, GPU_REPLACE)`: the stage passes `src` on.
fn tev_replace(c: &mut Citro3d, src: u32) {
    let env = c.tex_env(0);
    *env = TexEnv::init();
    env.src(tev_mode::BOTH, src, 0, 0)
        .func(tev_mode::BOTH, gpu::REPLACE);
}

// =====================================================================================
// driver/lit_mesh
// =====================================================================================

/// The lit-mesh vertex shader: per-vertex diffuse lighting from a directional light. The
/// helper procedure comes first in the file, so `main` (the DVLE entry) is not at word 0.
/// Inputs: v0 position, v1 normal, v2 colour (unsigned bytes, scaled by 1/255).
pub const LIT_MESH_VSH: &str = "\
; driver/lit_mesh: transform, normalise the normal, diffuse + ambient, modulate the vertex
; colour (bytes 0-255).
.fvec projection[4], modelview[4]
.fvec light_dir, light_color, ambient
.constf consts(0.0, 1.0, 0.00392156886, 0.5)
.alias zeros consts.xxxx
.alias ones consts.yyyy
.alias inv255 consts.zzzz
.out opos position
.out oclr color
.in ipos v0
.in inrm v1
.in iclr v2

; r3 = min(1, ambient + max(0, n . l) * light_color) for the unit normal in r2
.proc diffuse
\tdp3 r4.x, light_dir, r2
\tmax r4.x, zeros, r4.x
\tmov r3, ambient
\tmad r3, r4.xxxx, light_color, r3
\tmin r3, ones, r3
.end

.proc main
\tdp4 r1.x, modelview[0], ipos
\tdp4 r1.y, modelview[1], ipos
\tdp4 r1.z, modelview[2], ipos
\tdp4 r1.w, modelview[3], ipos
\tdp4 opos.x, projection[0], r1
\tdp4 opos.y, projection[1], r1
\tdp4 opos.z, projection[2], r1
\tdp4 opos.w, projection[3], r1
\tdp3 r2.x, modelview[0], inrm
\tdp3 r2.y, modelview[1], inrm
\tdp3 r2.z, modelview[2], inrm
\tdp3 r5.x, r2, r2
\trsq r5.x, r5.x
\tmul r2.xyz, r2.xyz, r5.xxx
\tcall diffuse
\tmul r6, inv255, iclr
\tmul oclr.xyz, r6.xyz, r3.xyz
\tmov oclr.w, r6.w
\tend
.end
";

/// A lit-mesh vertex: position, normal, colour (bytes).
pub type LitVertex = ([f32; 3], [f32; 3], [u8; 4]);

/// A vertex of position and texture coordinate.
pub type PosTex = ([f32; 3], [f32; 2]);

/// Vertices of the lit mesh along each axis.
pub const LIT_MESH_N: usize = 4;

/// The lit mesh's vertices: a 4×4 grid over clip (-0.75..0.75)², z 0, normals leaning
/// outwards (x, y, 1), colours varying over the grid; and its indices (two CCW triangles per
/// cell, 54).
pub fn lit_mesh_geometry() -> (Vec<LitVertex>, Vec<u16>) {
    let n = LIT_MESH_N;
    let mut v = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let (x, y) = (-0.75 + 0.5 * i as f32, -0.75 + 0.5 * j as f32);
            let color = [
                255 - 48 * i as u8,
                64 + 48 * j as u8,
                96 + 32 * ((i + j) % 4) as u8,
                255,
            ];
            v.push(([x, y, 0.0], [x, y, 1.0], color));
        }
    }
    let mut idx = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let a = (j * n + i) as u16;
            let (b, c) = (a + 1, a + n as u16);
            idx.extend([a, b, c, c, b, c + 1]);
        }
    }
    (v, idx)
}

/// The lit mesh's shader binary.
pub fn lit_mesh_program() -> Result<Dvlb, BuildError> {
    Dvlb::assemble(&[("lit_mesh.v.pica", LIT_MESH_VSH)])
}

/// How [`lit_mesh_with`] draws the mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitMeshDraw {
    /// One `C3D_DrawElements(GPU_TRIANGLES, 54, C3D_UNSIGNED_SHORT, ...)`: the scene.
    Elements,
    /// `C3D_DrawArrays(GPU_TRIANGLES, v, 1)` for each vertex v in order: every vertex shaded
    /// alone, so on unit 0 (the reference of the unit-3 test).
    OneVertexPerDraw,
}

/// The lit mesh (see [`lit_mesh`]) drawn as `how` says.
pub fn lit_mesh_with(how: LitMeshDraw) -> Result<Citro3d, BuildError> {
    let (mut c, _) = init32()?;
    let dvlb = lit_mesh_program()?;
    let prog = ShaderProgram::new(&dvlb, 0)?;
    c.bind_program(&prog);
    let u_proj = loc(&prog, ShaderType::Vertex, "projection")?;
    let u_mv = loc(&prog, ShaderType::Vertex, "modelview")?;
    let u_ldir = loc(&prog, ShaderType::Vertex, "light_dir")?;
    let u_lclr = loc(&prog, ShaderType::Vertex, "light_color")?;
    let u_amb = loc(&prog, ShaderType::Vertex, "ambient")?;

    // AttrInfo as citro3d builds it: attribute 0 = position (v0), 1 = colour (v2), 2 = normal
    // (v1): permutation 0x120.
    let a = c.attr_info();
    *a = AttrInfo::init();
    a.add_loader(Some(0), gpu::FLOAT, 3);
    a.add_loader(Some(2), gpu::UNSIGNED_BYTE, 4);
    a.add_loader(Some(1), gpu::FLOAT, 3);

    // The VBO holds normal, position, colour (28 bytes a vertex): buffer components =
    // attributes 2, 0, 1 (BufInfo permutation 0x102).
    let (verts, idx) = lit_mesh_geometry();
    let mut vbo = Bytes::default();
    for (p, n, col) in &verts {
        for x in n.iter().chain(p) {
            vbo.f32(*x);
        }
        for b in col {
            vbo.u8(*b);
        }
    }
    let vbo_addr = c.linear_alloc(&vbo.0);
    let ibo: Vec<u8> = idx.iter().flat_map(|i| i.to_le_bytes()).collect();
    let ibo_addr = c.linear_alloc(&ibo);
    let bi = c.buf_info();
    *bi = BufInfo::init();
    bi.add(vbo_addr, 28, 3, 0x102);

    // Combiner 0 passes the vertex colour; depth test greater (C3D_Init's), back faces culled.
    tev_replace(&mut c, gpu::PRIMARY_COLOR);

    // Uniforms (C3D_FVUnifMtx4x4 / C3D_FVUnifSet): modelview a 90° turn about z, projection
    // identity but z - 0.5 (depth 0.5), light from (0.6, 0, 0.8).
    let v = ShaderType::Vertex;
    c.fv_unif_mtx4x4(
        v,
        u_proj,
        &[
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, -0.5],
            [0.0, 0.0, 0.0, 1.0],
        ],
    );
    c.fv_unif_mtx4x4(
        v,
        u_mv,
        &[
            [0.0, -1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ],
    );
    c.fv_unif_set(v, u_ldir, [0.6, 0.0, 0.8, 0.0]);
    c.fv_unif_set(v, u_lclr, [0.75, 0.75, 0.75, 0.0]);
    c.fv_unif_set(v, u_amb, [0.25, 0.25, 0.25, 0.0]);

    match how {
        LitMeshDraw::Elements => {
            c.draw_elements(
                gpu::TRIANGLES,
                idx.len() as u32,
                C3D_UNSIGNED_SHORT,
                ibo_addr,
            );
        }
        LitMeshDraw::OneVertexPerDraw => {
            for k in 0..verts.len() as u32 {
                c.draw_arrays(gpu::TRIANGLES, k, 1);
            }
        }
    }
    Ok(c)
}

/// driver/lit_mesh: a per-vertex-lit 4×4 grid (16 vertices, 54 indices) drawn with one
/// `C3D_DrawElements`, after `C3D_BindProgram` of a program whose entry is not at word 0 and
/// an AttrInfo with three loaders in a non-identity permutation: with no geometry shader every
/// fourth vertex or so runs on unit 3, so a unit-3 configuration error shows as wrong colours.
pub(super) fn lit_mesh() -> R {
    Ok(lit_mesh_with(LitMeshDraw::Elements)?.into_builder())
}

// =====================================================================================
// driver/textured_cube
// =====================================================================================

/// The cube's vertex shader: an MVP transform, the texture coordinate and the colour (a fixed
/// attribute) passed on.
pub const CUBE_VSH: &str = "\
; driver/textured_cube: MVP transform; texcoord and colour passed on.
.fvec mvp[4]
.out opos position
.out oclr color
.out otex texcoord0
.in ipos v0
.in itex v1
.in iclr v2
.proc main
\tdp4 opos.x, mvp[0], ipos
\tdp4 opos.y, mvp[1], ipos
\tdp4 opos.z, mvp[2], ipos
\tdp4 opos.w, mvp[3], ipos
\tmov otex, itex
\tmov oclr, iclr
\tend
.end
";

/// The cube texture's quadrant colours (RGBA), as seen with u to the right and v up: bottom
/// left, bottom right, top left, top right.
pub const CUBE_QUADRANTS: [[u8; 4]; 4] = [
    [0xFF, 0x00, 0x00, 0xFF],
    [0x00, 0xFF, 0x00, 0xFF],
    [0x00, 0x00, 0xFF, 0xFF],
    [0xFF, 0xFF, 0xFF, 0xFF],
];

/// The constant colour combiner stage 1 modulates with (0xAABBGGRR: (0x80, 0xFF, 0xFF, 0xFF)).
pub const CUBE_TEV_CONSTANT: u32 = 0xFFFF_FF80;

/// The cube's model-view-projection: a turn of 45° about y (x' = (x + z)·√½, z' = (z −
/// x)·√½), then clip z = -0.5 - 0.25·z' (nearer is deeper, for the "greater" depth test).
pub fn cube_mvp() -> [[f32; 4]; 4] {
    let s = std::f32::consts::FRAC_1_SQRT_2;
    [
        [s, 0.0, s, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.25 * s, 0.0, -0.25 * s, -0.5],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// The cube's 36 vertices (position, texcoord), two CCW triangles per face seen from outside,
/// u along the face's "right" and v up (top and bottom faces: v towards -z / +z).
pub fn cube_vertices() -> Vec<PosTex> {
    // Each face: origin corner, u axis, v axis (a CCW square seen from outside).
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([-0.5, -0.5, 0.5], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]), // +z
        ([0.5, -0.5, -0.5], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]), // -z
        ([0.5, -0.5, 0.5], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]), // +x
        ([-0.5, -0.5, -0.5], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]), // -x
        ([-0.5, 0.5, 0.5], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]), // +y
        ([-0.5, -0.5, -0.5], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]), // -y
    ];
    let mut v = Vec::new();
    for (o, u, w) in faces {
        let p = |a: f32, b: f32| {
            [
                o[0] + a * u[0] + b * w[0],
                o[1] + a * u[1] + b * w[1],
                o[2] + a * u[2] + b * w[2],
            ]
        };
        for (a, b) in [
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (0.0, 0.0),
        ] {
            v.push((p(a, b), [a, b]));
        }
    }
    v
}

/// driver/textured_cube: the idea of the textured_cube demo with our data — a cube turned 45°
/// about y, each face showing an 8×8 RGBA8 texture of four coloured quadrants
/// (`C3D_TexInit`, `C3D_TexSetFilter`, `C3D_TexBind`: `C3Di_SetTex` order), combiner 0
/// texture × vertex colour (a fixed attribute, `AttrInfo_AddFixed` +
/// `C3D_FixedAttribGetWritePtr`), combiner 1 × a constant; `C3D_DrawArrays` of 36 vertices,
/// back faces culled, depth test greater.
pub(super) fn textured_cube() -> R {
    let (mut c, _) = init32()?;
    let dvlb = Dvlb::assemble(&[("cube.v.pica", CUBE_VSH)])?;
    let prog = ShaderProgram::new(&dvlb, 0)?;
    c.bind_program(&prog);
    let u_mvp = loc(&prog, ShaderType::Vertex, "mvp")?;

    let a = c.attr_info();
    *a = AttrInfo::init();
    a.add_loader(Some(0), gpu::FLOAT, 3);
    a.add_loader(Some(1), gpu::FLOAT, 2);
    a.add_fixed(Some(2));
    c.fixed_attrib(2, [1.0, 1.0, 1.0, 1.0]);

    let mut vbo = Bytes::default();
    for (p, t) in cube_vertices() {
        for x in p.iter().chain(&t) {
            vbo.f32(*x);
        }
    }
    let vbo_addr = c.linear_alloc(&vbo.0);
    let bi = c.buf_info();
    *bi = BufInfo::init();
    bi.add(vbo_addr, 20, 2, 0x10);

    // The texture: quadrants of 4×4 texels (picture top row first: top half is v ≥ 0.5).
    let img = TexImage::from_fn(8, 8, |x, y| {
        let right = usize::from(x >= 4);
        let top = usize::from(y < 4);
        CUBE_QUADRANTS[2 * top + right]
    });
    let bytes = encode(&img, TexunitTypeFormat::Rgba8888)?;
    let addr = c.vram_alloc(&bytes);
    let mut tex = Tex::init(addr, 8, 8, gpu::RGBA8);
    tex.set_filter(gpu::NEAREST, gpu::NEAREST);
    tex.set_wrap(gpu::CLAMP_TO_EDGE, gpu::CLAMP_TO_EDGE);
    c.tex_bind(0, Some(tex));

    let env = c.tex_env(0);
    *env = TexEnv::init();
    env.src(tev_mode::BOTH, gpu::TEXTURE0, gpu::PRIMARY_COLOR, 0)
        .func(tev_mode::BOTH, gpu::MODULATE);
    let env1 = c.tex_env(1);
    *env1 = TexEnv::init();
    env1.src(tev_mode::BOTH, gpu::PREVIOUS, gpu::CONSTANT, 0)
        .func(tev_mode::BOTH, gpu::MODULATE)
        .color(CUBE_TEV_CONSTANT);

    c.fv_unif_mtx4x4(ShaderType::Vertex, u_mvp, &cube_mvp());
    c.draw_arrays(gpu::TRIANGLES, 0, 36);
    Ok(c.into_builder())
}

// =====================================================================================
// geometry-shader scenes
// =====================================================================================

/// The vertex shader of the geometry-shader scenes: position (w from the missing component)
/// and colour passed on, o0 and o1.
pub const GS_PASS_VSH: &str = "\
; Pass-through vertex shader feeding a geometry shader: o0 position, o1 colour.
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

/// driver/gs_point's geometry shader: each triangle (three VS vertices of two outputs: v0-v5)
/// becomes four (an instruction may read one input register only, hence the MOVs before the
/// ADDs) — three corner triangles in their corner's colour and the middle one in the
/// uniform colour `midclr`.
pub const GS_POINT_GSH: &str = "\
; driver/gs_point: split a triangle at its edge midpoints into four flat triangles.
.gsh point c0
.fvec midclr
.constf half(0.5, 0.5, 0.5, 0.5)
.out opos position
.out oclr color
.entry gmain

; one triangle r0, r1, r2 in the colour r3
.proc flat
\tsetemit 0
\tmov opos, r0
\tmov oclr, r3
\temit
\tsetemit 1
\tmov opos, r1
\tmov oclr, r3
\temit
\tsetemit 2, prim
\tmov opos, r2
\tmov oclr, r3
\temit
.end

.proc gmain
\tmov r4, v0
\tadd r4, v2, r4
\tmul r4, half, r4
\tmov r5, v2
\tadd r5, v4, r5
\tmul r5, half, r5
\tmov r6, v4
\tadd r6, v0, r6
\tmul r6, half, r6
\tmov r0, v0
\tmov r1, r4
\tmov r2, r6
\tmov r3, v1
\tcall flat
\tmov r0, r4
\tmov r1, v2
\tmov r2, r5
\tmov r3, v3
\tcall flat
\tmov r0, r6
\tmov r1, r5
\tmov r2, v4
\tmov r3, v5
\tcall flat
\tmov r0, r4
\tmov r1, r5
\tmov r2, r6
\tmov r3, midclr
\tcall flat
\tend
.end
";

/// The middle-triangle colour of driver/gs_point.
pub const GS_POINT_MID: [f32; 4] = [1.0, 1.0, 1.0, 1.0];

/// driver/gs_point's two input triangles (clip x, y; corner colours).
pub const GS_POINT_TRIS: [[([f32; 2], [f32; 4]); 3]; 2] = [
    [
        ([-1.0, -1.0], [1.0, 0.0, 0.0, 1.0]),
        ([1.0, -1.0], [0.0, 1.0, 0.0, 1.0]),
        ([-1.0, 1.0], [0.0, 0.0, 1.0, 1.0]),
    ],
    [
        ([1.0, 1.0], [1.0, 1.0, 0.0, 1.0]),
        ([-0.5, 1.0], [0.0, 1.0, 1.0, 1.0]),
        ([1.0, -0.5], [1.0, 0.0, 1.0, 1.0]),
    ],
];

/// A VBO of `(x, y)` positions at depth z = -0.5 and colours: float ×3 + float ×4, 28 bytes.
fn pos_color_vbo(verts: &[([f32; 2], [f32; 4])]) -> Vec<u8> {
    let mut b = Bytes::default();
    for (p, col) in verts {
        b.f32(p[0]).f32(p[1]).f32(-0.5);
        for x in col {
            b.f32(*x);
        }
    }
    b.0
}

/// `AttrInfo_Init` + loaders v0 = float ×3, v1 = float ×4; `BufInfo_Init` + one buffer of
/// 28-byte vertices (permutation 0x10).
fn pos_color_layout(c: &mut Citro3d, vbo_addr: u32) {
    let a = c.attr_info();
    *a = AttrInfo::init();
    a.add_loader(Some(0), gpu::FLOAT, 3);
    a.add_loader(Some(1), gpu::FLOAT, 4);
    let bi = c.buf_info();
    *bi = BufInfo::init();
    bi.add(vbo_addr, 28, 2, 0x10);
}

/// Culling and the depth test off (`C3D_CullFace(GPU_CULL_NONE)`, `C3D_DepthTest(false,
/// GPU_ALWAYS, GPU_WRITE_COLOR)`): the geometry-shader scenes draw flat overlapping shapes.
fn flat_2d(c: &mut Citro3d) {
    let e = c.effect();
    e.cull_face(gpu::CULL_NONE);
    e.depth_test(false, gpu::ALWAYS, gpu::WRITE_COLOR);
}

/// driver/gs_point: the idea of the geoshader demo with our shader — a point-mode geometry
/// shader (`shaderProgramSetGsh(&prog, &dvlb->DVLE[1], 6)`: stride 6, one triangle per
/// invocation) splits each of two triangles at its edge midpoints into four flat ones;
/// `C3D_DrawArrays(GPU_GEOMETRY_PRIM, 0, 6)`, the middle colour a geometry-shader uniform
/// (`C3D_FVUnifSet(GPU_GEOMETRY_SHADER, ...)`).
pub(super) fn gs_point() -> R {
    let (mut c, _) = init32()?;
    let dvlb = Dvlb::assemble(&[
        ("gs_point.v.pica", GS_PASS_VSH),
        ("gs_point.g.pica", GS_POINT_GSH),
    ])?;
    let mut prog = ShaderProgram::new(&dvlb, 0)?;
    prog.set_gsh(&dvlb, 1, 6)?;
    c.bind_program(&prog);
    let u_mid = loc(&prog, ShaderType::Geometry, "midclr")?;
    let verts: Vec<_> = GS_POINT_TRIS.iter().flatten().copied().collect();
    let vbo_addr = c.linear_alloc(&pos_color_vbo(&verts));
    pos_color_layout(&mut c, vbo_addr);
    tev_replace(&mut c, gpu::PRIMARY_COLOR);
    flat_2d(&mut c);
    c.fv_unif_set(ShaderType::Geometry, u_mid, GS_POINT_MID);
    c.draw_arrays(gpu::GEOMETRY_PRIM, 0, verts.len() as u32);
    Ok(c.into_builder())
}

/// driver/gs_fixed's geometry shader: fixed-size primitives of one vertex (its centre c0 and
/// colour c1 arrive in the fixed-vertex array) become squares: the corners are the centre
/// plus the uniform offsets `corner[0..4]`; the second triangle reuses two slots of the first
/// (the slot buffer is not cleared after a primitive).
pub const GS_FIXED_GSH: &str = "\
; driver/gs_fixed: one particle in, a square out.
.gsh fixed c8 c0 1
.fvec corner[4]
.out opos position
.out oclr color
.alias centre c0
.alias colour c1
.entry gmain
.proc gmain
\tsetemit 0
\tmov r0, corner[0]
\tadd opos, centre, r0
\tmov oclr, colour
\temit
\tsetemit 1
\tmov r0, corner[1]
\tadd opos, centre, r0
\tmov oclr, colour
\temit
\tsetemit 2, prim
\tmov r0, corner[2]
\tadd opos, centre, r0
\tmov oclr, colour
\temit
\tsetemit 0, prim
\tmov r0, corner[3]
\tadd opos, centre, r0
\tmov oclr, colour
\temit
\tend
.end
";

/// Half the side of a driver/gs_fixed particle (clip units: 6 pixels on 32×32).
pub const GS_FIXED_HALF: f32 = 0.375;

/// driver/gs_fixed's particles: centres and colours (added onto the background).
pub const GS_FIXED_PARTICLES: [([f32; 2], [f32; 4]); 3] = [
    ([-0.25, 0.125], [0.25, 0.0, 0.0, 1.0]),
    ([0.25, 0.125], [0.0, 0.5, 0.0, 1.0]),
    ([0.0, -0.25], [0.0, 0.0, 0.5, 1.0]),
];

/// driver/gs_fixed: the idea of the particles demo with our shader — a fixed-primitive
/// geometry shader (`.gsh fixed`, one vertex per invocation, `shaderProgramSetGsh(..., 0)`:
/// stride = the vertex shader's two outputs) turns each of three points into a square, the
/// corner offsets four geometry-shader uniforms (`C3D_FVUnifMtx4x4(GPU_GEOMETRY_SHADER, ...)`),
/// drawn with additive blending (`C3D_AlphaBlend(ADD, ADD, SRC_ALPHA, ONE, SRC_ALPHA, ONE)`) by
/// `C3D_DrawElements(GPU_GEOMETRY_PRIM, 3, C3D_UNSIGNED_BYTE, ...)`.
pub(super) fn gs_fixed() -> R {
    let (mut c, _) = init32()?;
    let dvlb = Dvlb::assemble(&[
        ("gs_fixed.v.pica", GS_PASS_VSH),
        ("gs_fixed.g.pica", GS_FIXED_GSH),
    ])?;
    let mut prog = ShaderProgram::new(&dvlb, 0)?;
    prog.set_gsh(&dvlb, 1, 0)?;
    c.bind_program(&prog);
    let u_corner = loc(&prog, ShaderType::Geometry, "corner")?;
    let vbo_addr = c.linear_alloc(&pos_color_vbo(&GS_FIXED_PARTICLES));
    let ibo_addr = c.linear_alloc(&[0, 1, 2]);
    pos_color_layout(&mut c, vbo_addr);
    tev_replace(&mut c, gpu::PRIMARY_COLOR);
    flat_2d(&mut c);
    c.effect().alpha_blend(
        gpu::BLEND_ADD,
        gpu::BLEND_ADD,
        gpu::SRC_ALPHA,
        gpu::ONE,
        gpu::SRC_ALPHA,
        gpu::ONE,
    );
    let h = GS_FIXED_HALF;
    c.fv_unif_mtx4x4(
        ShaderType::Geometry,
        u_corner,
        &[
            [-h, -h, 0.0, 0.0],
            [h, -h, 0.0, 0.0],
            [-h, h, 0.0, 0.0],
            [h, h, 0.0, 0.0],
        ],
    );
    c.draw_elements(gpu::GEOMETRY_PRIM, 3, C3D_UNSIGNED_BYTE, ibo_addr);
    Ok(c.into_builder())
}

/// driver/gs_variable's geometry shader: variable-size primitives (`.gsh variable`, one main
/// vertex): c0 holds the vertex count, c1/c2 the first vertex's position and colour, c3...
/// the other vertices' positions; the polygon goes out as a fan of flat triangles in the first
/// vertex's colour, a loop that stops (BREAKC) once every vertex is used.
pub const GS_VARIABLE_GSH: &str = "\
; driver/gs_variable: a polygon of any size as a flat fan.
.gsh variable c40 1
.out opos position
.out oclr color
.alias count c0
.alias first c1
.alias colour c2
.alias rest c3
.constf k(1.0, 3.0, 0.0, 0.0)
.consti fan(6, 0, 1, 0)
.entry gmain
.proc gmain
\tmov r0, k.yyyy
\tfor fan
\t\tsetemit 0
\t\tmov opos, first
\t\tmov oclr, colour
\t\temit
\t\tsetemit 1
\t\tmov opos, rest[aL]
\t\tmov oclr, colour
\t\temit
\t\tsetemit 2, prim
\t\tmov opos, rest[aL+1]
\t\tmov oclr, colour
\t\temit
\t\tcmp count, le, le, r0
\t\tbreakc cmp.x
\t\tadd r0, k.xxxx, r0
\t.end
\tend
.end
";

/// driver/gs_variable's vertices (clip x, y; colour): a quad, a triangle and a pentagon.
pub const GS_VARIABLE_VERTS: [([f32; 2], [f32; 4]); 12] = [
    // quad (left half, bottom)
    ([-0.875, -0.875], [1.0, 0.0, 0.0, 1.0]),
    ([-0.125, -0.875], [0.0, 0.0, 0.0, 1.0]),
    ([-0.125, -0.125], [0.0, 0.0, 0.0, 1.0]),
    ([-0.875, -0.125], [0.0, 0.0, 0.0, 1.0]),
    // triangle (right half, bottom)
    ([0.125, -0.875], [0.0, 1.0, 0.0, 1.0]),
    ([0.875, -0.875], [0.0, 0.0, 0.0, 1.0]),
    ([0.5, -0.125], [0.0, 0.0, 0.0, 1.0]),
    // pentagon (top)
    ([0.0, 0.125], [0.0, 0.0, 1.0, 1.0]),
    ([0.5, 0.375], [0.0, 0.0, 0.0, 1.0]),
    ([0.375, 0.875], [0.0, 0.0, 0.0, 1.0]),
    ([-0.375, 0.875], [0.0, 0.0, 0.0, 1.0]),
    ([-0.5, 0.375], [0.0, 0.0, 0.0, 1.0]),
];

/// driver/gs_variable's index buffer: each primitive's vertex count, then its indices.
pub const GS_VARIABLE_INDICES: [u16; 15] = [4, 0, 1, 2, 3, 3, 4, 5, 6, 5, 7, 8, 9, 10, 11];

/// driver/gs_variable: the idea of the loop_subdivision demo (variable-size primitives) with
/// our shader — a `.gsh variable` geometry shader with one main vertex
/// (`shaderProgramSetGsh(..., 0)`: GEOSTAGE_CONFIG bit 31, GSH_MISC0 = 1, GSH_MISC1 = 0,
/// GSH_INPUTBUFFER_CONFIG bit 8) draws a quad, a triangle and a pentagon as fans from one
/// `C3D_DrawElements(GPU_GEOMETRY_PRIM, 15, C3D_UNSIGNED_SHORT, ...)` whose index buffer gives
/// each primitive's vertex count before its indices.
pub(super) fn gs_variable() -> R {
    let (mut c, _) = init32()?;
    let dvlb = Dvlb::assemble(&[
        ("gs_variable.v.pica", GS_PASS_VSH),
        ("gs_variable.g.pica", GS_VARIABLE_GSH),
    ])?;
    let mut prog = ShaderProgram::new(&dvlb, 0)?;
    prog.set_gsh(&dvlb, 1, 0)?;
    c.bind_program(&prog);
    let vbo_addr = c.linear_alloc(&pos_color_vbo(&GS_VARIABLE_VERTS));
    let ibo: Vec<u8> = GS_VARIABLE_INDICES
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let ibo_addr = c.linear_alloc(&ibo);
    pos_color_layout(&mut c, vbo_addr);
    tev_replace(&mut c, gpu::PRIMARY_COLOR);
    flat_2d(&mut c);
    c.draw_elements(
        gpu::GEOMETRY_PRIM,
        GS_VARIABLE_INDICES.len() as u32,
        C3D_UNSIGNED_SHORT,
        ibo_addr,
    );
    Ok(c.into_builder())
}

// =====================================================================================
// driver/program_switch
// =====================================================================================

/// Program 1 of driver/program_switch: positions scaled and moved by `xform` (xy scale, zw
/// offset); the colour runs through a loop that multiplies it by 1 eight times (work that
/// keeps a unit busy, so that the four units share the vertices). The helper comes first.
pub const SWITCH_PLAIN_VSH: &str = "\
; driver/program_switch program 1.
.fvec xform
.constf k(1.0, 0.0, 0.5, 0.0)
.consti passes(7, 0, 1, 0)
.out opos position
.out oclr color
.in ipos v0
.in iclr v1
.proc keep
\tmul r1, k.xxxx, r1
\tmax r1, k.yyyy, r1
.end
.proc main
\tmov r0, ipos
\tmul r0.xy, xform.xy, r0.xy
\tadd r0.xy, xform.zw, r0.xy
\tmov opos, r0
\tmov r1, iclr
\tfor passes
\t\tcall keep
\t.end
\tmov oclr, r1
\tend
.end
";

/// The vertex shader of programs 2 and 3 of driver/program_switch: positions moved by
/// `offset.xy`; the colour through a loop that leaves it unchanged (min with 1, eight times).
pub const SWITCH_GS_VSH: &str = "\
; driver/program_switch programs 2 and 3 (vertex shader).
.fvec offset
.constf k(1.0, 0.0, 0.0, 0.0)
.consti passes(7, 0, 1, 0)
.out opos position
.out oclr color
.in ipos v0
.in iclr v1
.proc clampc
\tmin r1, k.xxxx, r1
.end
.proc main
\tmov r0, ipos
\tadd r0.xy, offset.xy, r0.xy
\tmov opos, r0
\tmov r1, iclr
\tfor passes
\t\tcall clampc
\t.end
\tmov oclr, r1
\tend
.end
";

/// The geometry shader of program 2 of driver/program_switch: each triangle goes out as it
/// came, its colours complemented (1 - rgb, alpha kept).
pub const SWITCH_GSH: &str = "\
; driver/program_switch program 2 (geometry shader): complement the colours.
.gsh point c0
.constf one(1.0, 1.0, 1.0, 0.0)
.out opos position
.out oclr color
.entry gmain
.proc gmain
\tsetemit 0
\tmov opos, v0
\tadd r0.xyz, one, -v1
\tmov r0.w, v1.w
\tmov oclr, r0
\temit
\tsetemit 1
\tmov opos, v2
\tadd r0.xyz, one, -v3
\tmov r0.w, v3.w
\tmov oclr, r0
\temit
\tsetemit 2, prim
\tmov opos, v4
\tadd r0.xyz, one, -v5
\tmov r0.w, v5.w
\tmov oclr, r0
\temit
\tend
.end
";

/// The colours of the four triangles of the program-switch mesh (bottom, right, top, left).
pub const SWITCH_COLORS: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0, 1.0],
    [1.0, 1.0, 0.0, 1.0],
];

/// The program-switch mesh: a square of half-side 0.5 around the origin cut into four
/// triangles meeting at its centre (bottom, right, top, left; CCW), 12 vertices, each triangle
/// in its [`SWITCH_COLORS`] colour.
pub fn switch_mesh() -> Vec<([f32; 2], [f32; 4])> {
    let (bl, br, tr, tl) = ([-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]);
    let o = [0.0, 0.0];
    let tris = [[bl, br, o], [br, tr, o], [tr, tl, o], [tl, bl, o]];
    tris.iter()
        .zip(SWITCH_COLORS)
        .flat_map(|(t, col)| t.iter().map(move |p| (*p, col)))
        .collect()
}

/// Where driver/program_switch draws each of its four draws (mesh offsets in clip space) and
/// with which program (1 = plain, 2 = with the geometry shader, 3 = program 2's vertex shader
/// alone): top left, top right, bottom left, bottom right.
pub const SWITCH_DRAWS: [([f32; 2], u8); 4] = [
    ([-0.5, 0.5], 1),
    ([0.5, 0.5], 2),
    ([-0.5, -0.5], 3),
    ([0.5, -0.5], 1),
];

/// driver/program_switch: four `C3D_DrawArrays` of the same 12-vertex mesh with
/// `C3D_BindProgram` between them — program 1 (its own SHBIN), program 2 (another SHBIN: a
/// vertex shader and a point geometry shader that complements the colours), program 3
/// (program 2's vertex shader alone: same DVLP, so no code is sent again) and program 1 again
/// (its code sent again, after a geometry shader ran on unit 3) — each draw's uniforms set
/// before it, as applications do.
pub(super) fn program_switch() -> R {
    let (mut c, _) = init32()?;
    let plain = Dvlb::assemble(&[("switch_plain.v.pica", SWITCH_PLAIN_VSH)])?;
    let gsbin = Dvlb::assemble(&[
        ("switch_gs.v.pica", SWITCH_GS_VSH),
        ("switch_gs.g.pica", SWITCH_GSH),
    ])?;
    let p1 = ShaderProgram::new(&plain, 0)?;
    let mut p2 = ShaderProgram::new(&gsbin, 0)?;
    p2.set_gsh(&gsbin, 1, 6)?;
    let p3 = ShaderProgram::new(&gsbin, 0)?;
    let u_xform = loc(&p1, ShaderType::Vertex, "xform")?;
    let u_offset = loc(&p2, ShaderType::Vertex, "offset")?;

    let mesh = switch_mesh();
    let vbo_addr = c.linear_alloc(&pos_color_vbo(&mesh));
    pos_color_layout(&mut c, vbo_addr);
    tev_replace(&mut c, gpu::PRIMARY_COLOR);
    flat_2d(&mut c);
    for (off, p) in SWITCH_DRAWS {
        let (prog, prim) = match p {
            1 => (&p1, gpu::TRIANGLES),
            2 => (&p2, gpu::GEOMETRY_PRIM),
            _ => (&p3, gpu::TRIANGLES),
        };
        c.bind_program(prog);
        if p == 1 {
            c.fv_unif_set(ShaderType::Vertex, u_xform, [1.0, 1.0, off[0], off[1]]);
        } else {
            c.fv_unif_set(ShaderType::Vertex, u_offset, [off[0], off[1], 0.0, 0.0]);
        }
        c.draw_arrays(prim, 0, mesh.len() as u32);
    }
    Ok(c.into_builder())
}

// =====================================================================================
// driver/fog_proctex_light
// =====================================================================================

/// The vertex shader of driver/fog_proctex_light: an orthographic projection of eye-space
/// positions, the normal quaternion of a surface facing +z (the identity (0, 0, 0, 1)), the
/// view vector towards the eye at the origin, texcoord0.
pub const FOG_VSH: &str = "\
; driver/fog_proctex_light: eye-space quad facing the eye, for fragment lighting.
.fvec projection[4]
.constf k(0.0, 0.0, 0.0, 1.0)
.out opos position
.out onq normalquat
.out oview view
.out otex texcoord0
.in ipos v0
.in itex v1
.proc main
\tdp4 opos.x, projection[0], ipos
\tdp4 opos.y, projection[1], ipos
\tdp4 opos.z, projection[2], ipos
\tdp4 opos.w, projection[3], ipos
\tmov onq, k
\tmov oview, -ipos
\tmov otex, itex
\tend
.end
";

/// driver/fog_proctex_light's fog colour (GPUREG_FOG_COLOR: red bits 0-7).
pub const FOG_COLOR: u32 = 0x0080_6040;

/// driver/fog_proctex_light's quad: a fan around the centre (eye z -1.5) with the top edge at
/// eye z -1.2 and the bottom edge at -1.8 (depth 0.2 to 0.8 through `projection`), x and y
/// over the whole target, texture coordinates (x, y).
pub fn fog_quad() -> (Vec<PosTex>, Vec<u8>) {
    let v = |x: f32, y: f32| ([x, y, -1.5 + 0.3 * y], [x, y]);
    (
        vec![
            v(0.0, 0.0),
            v(-1.0, -1.0),
            v(1.0, -1.0),
            v(1.0, 1.0),
            v(-1.0, 1.0),
        ],
        vec![0, 1, 2, 3, 4, 1],
    )
}

/// driver/fog_proctex_light: the set-up sequences of citro3d's light environment
/// (`C3D_LightEnvInit`, `C3D_LightEnvMaterial`, `C3D_LightEnvLut` D0 with its upload, one
/// light: `C3D_LightInit`, `C3D_LightColor`, `C3D_LightPosition`), procedural texture
/// (`C3D_ProcTexInit`, clamp, combiner sqrt(u² + v²), filter, `C3D_ProcTexBind` on texcoord 0,
/// an RGB-map table and a two-colour colour table) and fog (`C3D_FogGasMode(GPU_FOG, ...)`,
/// `C3D_FogColor`, `C3D_FogLutBind` of a step table: no fog up to depth 0.5, all fog beyond),
/// combiner 0 = lighting × procedural texture; one `C3D_DrawElements(GPU_TRIANGLE_FAN, ...)`
/// of a quad whose depth grows from top to bottom.
pub(super) fn fog_proctex_light() -> R {
    let (mut c, _) = init32()?;
    let dvlb = Dvlb::assemble(&[("fog.v.pica", FOG_VSH)])?;
    let prog = ShaderProgram::new(&dvlb, 0)?;
    c.bind_program(&prog);
    let u_proj = loc(&prog, ShaderType::Vertex, "projection")?;

    let a = c.attr_info();
    *a = AttrInfo::init();
    a.add_loader(Some(0), gpu::FLOAT, 3);
    a.add_loader(Some(1), gpu::FLOAT, 2);
    let (verts, idx) = fog_quad();
    let mut vbo = Bytes::default();
    for (p, t) in &verts {
        for x in p.iter().chain(t) {
            vbo.f32(*x);
        }
    }
    let vbo_addr = c.linear_alloc(&vbo.0);
    let ibo_addr = c.linear_alloc(&idx);
    let bi = c.buf_info();
    *bi = BufInfo::init();
    bi.add(vbo_addr, 20, 2, 0x10);

    // Combiner 0: fragment primary colour (the lighting) × texture 3 (the procedural texture);
    // alpha from the constant (0xFF).
    let env = c.tex_env(0);
    *env = TexEnv::init();
    env.src(tev_mode::RGB, gpu::FRAGMENT_PRIMARY_COLOR, gpu::TEXTURE3, 0)
        .func(tev_mode::RGB, gpu::MODULATE)
        .src(tev_mode::ALPHA, gpu::CONSTANT, 0, 0)
        .func(tev_mode::ALPHA, gpu::REPLACE);

    // Light environment.
    let mut le = LightEnv::init();
    le.material(&Material {
        ambient: [0.25, 0.25, 0.25],
        diffuse: [0.75, 0.75, 0.75],
        specular0: [0.5, 0.5, 0.5],
        specular1: [0.0, 0.0, 0.0],
        emission: [0.0, 0.0, 0.0],
    });
    le.lut(
        gpu::LUT_D0,
        gpu::LUTINPUT_NH,
        false,
        Some(LightLut::from_fn(|x| x * x)),
    );
    let l = le
        .light_init()
        .ok_or_else(|| BuildError::NoExecutable("light".into()))?;
    le.light_color(l, 1.0, 1.0, 1.0);
    le.light_position(l, [0.0, 0.0, 0.0, 1.0]);
    c.light_env_bind(Some(le));

    // Procedural texture.
    let mut pt = ProcTex::init(0, 2);
    pt.clamp(gpu::PT_MIRRORED_REPEAT, gpu::PT_MIRRORED_REPEAT);
    pt.combiner(false, gpu::PT_SQRT2, gpu::PT_SQRT2);
    pt.filter(gpu::PT_LINEAR);
    c.proc_tex_bind(0, Some(pt));
    let mut ramp = [0f32; 129];
    for (i, r) in ramp.iter_mut().enumerate() {
        *r = i as f32 / 128.0;
    }
    c.proc_tex_lut_bind(gpu::LUT_RGBMAP, Some(ProcTexLut::from_array(&ramp)));
    let mut colors = ProcTexColorLut::default();
    colors.write(&[0xFFFF_FFFF, 0xFF20_80FF], 0);
    c.proc_tex_color_lut_bind(Some(colors));

    // Fog.
    c.fog_gas_mode(gpu::FOG, gpu::PLAIN_DENSITY, false);
    c.fog_color(FOG_COLOR);
    c.fog_lut_bind(Some(FogLut::from_fn(|d| if d < 0.5 { 1.0 } else { 0.0 })));

    // Orthographic: x, y unchanged, clip z = eye z + 1 (depth = -z: 0.2 at the top edge, 0.8
    // at the bottom edge).
    c.fv_unif_mtx4x4(
        ShaderType::Vertex,
        u_proj,
        &[
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 1.0],
            [0.0, 0.0, 0.0, 1.0],
        ],
    );
    c.effect().cull_face(gpu::CULL_NONE);
    c.draw_elements(
        gpu::TRIANGLE_FAN,
        idx.len() as u32,
        C3D_UNSIGNED_BYTE,
        ibo_addr,
    );
    Ok(c.into_builder())
}

// =====================================================================================
// driver/two_targets
// =====================================================================================

/// The vertex shader of driver/two_targets: position, colour and texcoord0 passed on.
pub const TARGETS_VSH: &str = "\
; driver/two_targets: position, colour, texcoord0 passed on.
.out opos position
.out oclr color
.out otex texcoord0
.in ipos v0
.in itex v1
.in iclr v2
.proc main
\tmov opos, ipos
\tmov oclr, iclr
\tmov otex, itex
\tend
.end
";

/// The side of driver/two_targets' offscreen target.
pub const OFFSCREEN: u16 = 16;

/// driver/two_targets' background colour on the screen (drawn first).
pub const TARGETS_BACK: [f32; 4] = [0.25, 0.25, 0.25, 1.0];

/// The quadrant colours drawn into the offscreen target: bottom left, bottom right, top left,
/// top right.
pub const TARGETS_QUADRANTS: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0, 1.0],
    [1.0, 1.0, 0.0, 1.0],
];

/// One vertex of driver/two_targets: position (x, y, z = -0.5), texcoord, colour.
type TVert = ([f32; 2], [f32; 2], [f32; 4]);

/// Two CCW triangles covering the rectangle (x0, y0)-(x1, y1) with texture coordinates 0..1
/// and colour `col`.
fn rect6(x0: f32, y0: f32, x1: f32, y1: f32, col: [f32; 4]) -> [TVert; 6] {
    let v = |x: f32, y: f32, u: f32, t: f32| ([x, y], [u, t], col);
    [
        v(x0, y0, 0.0, 0.0),
        v(x1, y0, 1.0, 0.0),
        v(x1, y1, 1.0, 1.0),
        v(x1, y1, 1.0, 1.0),
        v(x0, y1, 0.0, 1.0),
        v(x0, y0, 0.0, 0.0),
    ]
}

/// driver/two_targets' vertex data: the screen background (6), the four offscreen quadrants
/// (24) and the textured quad on the screen, clip (-0.5..0.5)² = the middle 16×16 pixels (6).
pub fn targets_vertices() -> Vec<TVert> {
    let mut v = Vec::new();
    v.extend(rect6(-1.0, -1.0, 1.0, 1.0, TARGETS_BACK));
    for (k, col) in TARGETS_QUADRANTS.iter().enumerate() {
        let (x0, y0) = (-1.0 + (k % 2) as f32, -1.0 + (k / 2) as f32);
        v.extend(rect6(x0, y0, x0 + 1.0, y0 + 1.0, *col));
    }
    v.extend(rect6(-0.5, -0.5, 0.5, 0.5, [1.0; 4]));
    v
}

/// driver/two_targets: two render targets and two switches between draws — the screen
/// (`C3D_FrameDrawOn`: a grey background), a 16×16 offscreen target (`C3D_FrameDrawOn` again:
/// FRAMEBUFFER_FLUSH + EARLYDEPTH_CLEAR, then the new framebuffer; four coloured quadrants),
/// and the screen again with the offscreen colour buffer bound as an RGBA8 texture
/// (`C3D_TexBind`) on a 16×16-pixel quad in the middle — the render-to-texture pattern of
/// `C3D_RenderTargetCreateFromTex`.
pub(super) fn two_targets() -> R {
    let (mut c, screen) = init32()?;
    let off = c.render_target_create(
        OFFSCREEN,
        OFFSCREEN,
        ColorFormat::Rgba8,
        DepthFormat::D24S8,
        Clear::color([0, 0, 0, 0]),
    )?;
    let dvlb = Dvlb::assemble(&[("targets.v.pica", TARGETS_VSH)])?;
    let prog = ShaderProgram::new(&dvlb, 0)?;
    c.bind_program(&prog);
    let a = c.attr_info();
    *a = AttrInfo::init();
    a.add_loader(Some(0), gpu::FLOAT, 3);
    a.add_loader(Some(1), gpu::FLOAT, 2);
    a.add_loader(Some(2), gpu::FLOAT, 4);
    let mut vbo = Bytes::default();
    for (p, t, col) in targets_vertices() {
        vbo.f32(p[0]).f32(p[1]).f32(-0.5);
        for x in t.iter().chain(&col) {
            vbo.f32(*x);
        }
    }
    let vbo_addr = c.linear_alloc(&vbo.0);
    let bi = c.buf_info();
    *bi = BufInfo::init();
    bi.add(vbo_addr, 36, 3, 0x210);
    // Flat 2D drawing: no culling, no depth test.
    flat_2d(&mut c);

    // 1. The screen's background.
    tev_replace(&mut c, gpu::PRIMARY_COLOR);
    c.draw_arrays(gpu::TRIANGLES, 0, 6);
    // 2. The offscreen target: four quadrants.
    c.frame_draw_on(&off);
    c.draw_arrays(gpu::TRIANGLES, 6, 24);
    // 3. The screen again, the offscreen picture as a texture.
    c.frame_draw_on(&screen);
    let mut tex = Tex::init(off.fb.color_addr, OFFSCREEN, OFFSCREEN, gpu::RGBA8);
    tex.set_filter(gpu::NEAREST, gpu::NEAREST);
    c.tex_bind(0, Some(tex));
    tev_replace(&mut c, gpu::TEXTURE0);
    c.draw_arrays(gpu::TRIANGLES, 30, 6);
    Ok(c.into_builder())
}
