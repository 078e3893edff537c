#![allow(clippy::unwrap_used)]
//! The command-list builder: the seed 004 draw sequences word for word, and every method's
//! register fields, decoded with the typed accessors after the list ran on the model.

use pica_model::cmdlist::FINALIZE_VALUE;
use pica_model::num::F24;
use pica_model::regs::{self, id, PrimitiveConfigMode};
use pica_model::shader::asm::assemble;
use pica_model::{Gpu, Outcome};
use pica_vectors::builder::{
    f24x4, AttribBuffer, AttribFormat, AttribLayout, Blend, BuildError, Builder, Clear,
    ColorFormat, DepthFormat, FbAccess, FbConfig, ScissorMode, Vertex, CLEARED_ENTRYPOINT,
    COLOR_BASE, DATA_BASE, DEPTH_BASE, IDENTITY_PERMUTATION, PASS_THROUGH_VSH,
};
use pica_vectors::case::{Case, DEFAULT_LIST_ADDR};

// ---- helpers ----

/// The words `f` appends to `b`.
fn appended(b: &mut Builder, f: impl FnOnce(&mut Builder)) -> Vec<u32> {
    let start = b.words().len();
    f(b);
    b.words()[start..].to_vec()
}

/// Runs `b`'s list so far (plus a FINALIZE) on the model's front end and returns the GPU.
fn run(b: &Builder) -> Gpu {
    let mut l = b.list().clone();
    l.finalize();
    let case = Case::from_list("test/builder", "builder test", l.into_words());
    let mut gpu = case.gpu().unwrap();
    let o = gpu.run(1_000_000);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    gpu
}

fn reg(gpu: &Gpu, id: u16) -> u32 {
    gpu.regs().reg(id.into())
}

fn f24(bits: u32) -> F24 {
    F24::from_bits(bits)
}

// ---- seed 004 sequences ----

/// Seed 004 `glDrawElements`, triangles, u16 indices at offset 0: commands 0-17. Each pair is
/// the parameter and the header `id | mask << 16` (seed 002 command header).
#[test]
fn builder_draw_elements_matches_seed_004_triangles() {
    let mut b = Builder::new();
    let ib = b.index_buffer_u16(&[0, 1, 2, 2, 1, 3]);
    assert_eq!(ib.offset, 0);
    let got = appended(&mut b, |b| {
        b.draw_elements(PrimitiveConfigMode::Triangles, &ib);
    });
    #[rustfmt::skip]
    let want = [
        0x0000_0100, 0x0002_0229, // 0: GEOSTAGE_CONFIG = 1 << 8
        0x0000_0100, 0x0002_0253, // 1: GEOSTAGE_CONFIG2 = 1 << 8
        0x0000_0100, 0x0002_0253, // 2
        0x0000_0000, 0x0002_025E, // 3: PRIMITIVE_CONFIG mode 0 (triangles) << 8
        0x0000_0000, 0x0008_025E, // 4: PRIMITIVE_CONFIG 0
        0x0000_0001, 0x000F_025F, // 5: RESTART_PRIMITIVE 1
        0x0000_0000, 0x0001_0253, // 6: GEOSTAGE_CONFIG2 0
        0x8000_0000, 0x000F_0227, // 7: INDEXBUFFER_CONFIG u16 | offset 0
        0x0000_0006, 0x000F_0228, // 8: NUMVERTICES 6
        0x0000_0000, 0x000F_0245, // 9: START_DRAW_FUNC0 0
        0x0000_0001, 0x000F_022F, // 10: DRAWELEMENTS 1
        0x0000_0001, 0x000F_0245, // 11: START_DRAW_FUNC0 1
        0x0000_0001, 0x000F_0231, // 12: VTX_FUNC 1
        0x0000_0001, 0x000F_0111, // 13: FRAMEBUFFER_FLUSH 1
        0x0000_0000, 0x0002_0229, // 14: GEOSTAGE_CONFIG 0
        0x0000_0000, 0x000F_0253, // 15: GEOSTAGE_CONFIG2 0
        0x0000_0000, 0x0002_025E, // 16: PRIMITIVE_CONFIG 0
        0x7FFF_0000, 0x000F_02BA, // 17: VSH_ENTRYPOINT 0x7FFF0000
    ];
    assert_eq!(got, want);
}

/// The same sequence for a strip with u8 indices at a non-zero offset: "val" is 0 (not
/// triangles), the mode is 1, the index type bit is 0.
#[test]
fn builder_draw_elements_strip_u8_has_no_triangle_flag() {
    let mut b = Builder::new();
    b.alloc(&[0xAA; 20], 16); // pushes the index buffer to offset 0x20
    let ib = b.index_buffer_u8(&[0, 1, 2, 3]);
    assert_eq!(ib.offset, 0x20);
    let got = appended(&mut b, |b| {
        b.draw_elements(PrimitiveConfigMode::TriangleStrip, &ib);
    });
    #[rustfmt::skip]
    let head = [
        0x0000_0000, 0x0002_0229, // 0: val 0
        0x0000_0000, 0x0002_0253, // 1
        0x0000_0000, 0x0002_0253, // 2
        0x0000_0100, 0x0002_025E, // 3: mode 1 << 8
        0x0000_0000, 0x0008_025E, // 4
        0x0000_0001, 0x000F_025F, // 5
        0x0000_0000, 0x0001_0253, // 6
        0x0000_0020, 0x000F_0227, // 7: u8 | offset 0x20
        0x0000_0004, 0x000F_0228, // 8
    ];
    assert_eq!(got[..head.len()], head);
    assert_eq!(got.len(), 36);
}

/// Draw arrays: the seed 004 sequence with the seed 002 differences (function indicator 1 in
/// command 6 and 0 right after the draw, INDEXBUFFER_CONFIG 0x80000000, VERTEX_OFFSET after
/// NUMVERTICES, DRAWARRAYS).
#[test]
fn builder_draw_arrays_matches_seed_004_with_array_changes() {
    let mut b = Builder::new();
    let got = appended(&mut b, |b| {
        b.draw_arrays(PrimitiveConfigMode::TriangleFan, 5, 7);
    });
    #[rustfmt::skip]
    let want = [
        0x0000_0000, 0x0002_0229, // 0: GEOSTAGE_CONFIG, no triangle elements
        0x0000_0000, 0x0002_0253, // 1
        0x0000_0000, 0x0002_0253, // 2
        0x0000_0200, 0x0002_025E, // 3: mode 2 (fan) << 8
        0x0000_0000, 0x0008_025E, // 4
        0x0000_0001, 0x000F_025F, // 5
        0x0000_0001, 0x0001_0253, // 6: function indicator 1 = draw arrays
        0x8000_0000, 0x000F_0227, // 7: "1 = ... drawing arrays"
        0x0000_0007, 0x000F_0228, // 8: NUMVERTICES
        0x0000_0005, 0x000F_022A, //    VERTEX_OFFSET (first vertex)
        0x0000_0000, 0x000F_0245, // 9
        0x0000_0001, 0x000F_022E, // 10: DRAWARRAYS
        0x0000_0001, 0x000F_0245, // 11
        0x0000_0000, 0x0001_0253, //    GEOSTAGE_CONFIG2 function indicator 0, before 0x111
        0x0000_0001, 0x000F_0231, // 12
        0x0000_0001, 0x000F_0111, // 13
        0x0000_0000, 0x0002_0229, // 14
        0x0000_0000, 0x000F_0253, // 15
        0x0000_0000, 0x0002_025E, // 16
        0x7FFF_0000, 0x000F_02BA, // 17
    ];
    assert_eq!(got, want);
}

/// Seed 004 "Command 0x0200": one consecutive command of 39 words for 0x200-0x226, then one of
/// two words for 0x2BB-0x2BC; then the same permutation for unit 3 (0x28B-0x28C, which unit 3
/// reads when it runs the vertex shader — pica-facts §1).
#[test]
fn builder_vertex_array_block_matches_seed_004_layout() {
    let mut b = Builder::new();
    let got = appended(&mut b, |b| {
        b.vertex_array(&[Vertex::xy(0.0, 0.0, [1.0; 4]); 3]);
    });
    let mut want = vec![
        DATA_BASE >> 3, // word 0: base >> 3
        0x8000_0000 | (38 << 20) | (0xF << 16) | 0x200,
        0x0000_00FF, // word 1: attributes 0 and 1 float x4 (3 + (4 - 1) * 4 = 0xF each)
        0x1FFC_0000, // word 2: count - 1 = 1 in bits 28-31, fixed mask 0xFFF << 2
        0,           // entry 0 word 0: offset 0
        0x0000_0010, // entry 0 word 1: components attribute 0, attribute 1
        0x2020_0000, // entry 0 word 2: 2 components << 28 | stride 32 << 16
    ];
    want.extend([0; 33]); // entries 1-11 unused: all zero
    want.extend([
        0x7654_3210,
        0x8000_0000 | (1 << 20) | (0xF << 16) | 0x2BB,
        0xFEDC_BA98,
        0, // padding to 8 bytes
        0x7654_3210,
        0x8000_0000 | (1 << 20) | (0xF << 16) | 0x28B,
        0xFEDC_BA98,
        0,
    ]);
    assert_eq!(got, want);
    // The data: 3 vertices of 8 floats.
    assert_eq!(b.data().len(), 3 * 32);
}

/// Seed 004: each fixed attribute is one consecutive command to 0x232-0x235; the usual value
/// (0, 0, 0, 1) is the words 0x3F000000, 0, 0.
#[test]
fn builder_fixed_attrib_matches_seed_004_entry() {
    let mut b = Builder::new();
    let got = appended(&mut b, |b| {
        b.fixed_attrib(2, [0.0, 0.0, 0.0, 1.0]);
    });
    assert_eq!(got, [2, 0x803F_0232, 0x3F00_0000, 0, 0, 0], "{got:08x?}");
    let gpu = run(&b);
    assert_eq!(
        gpu.regs().fixed_attribs()[2],
        [f24(0), f24(0), f24(0), f24(0x3F_0000)]
    );
}

/// Seed 004 command 17 leaves the entry point at 0; a shader starting elsewhere gets its entry
/// point written again before the next draw.
#[test]
fn builder_restores_entry_point_cleared_by_a_draw() {
    let src = ".out outp position\n.proc helper\n\tnop\n\tend\n.end\n.proc main\n\tmov outp, v0\n\tend\n.end\n";
    let mut b = Builder::new();
    b.vertex_shader(src, "entry.v.pica").unwrap();
    let entry = assemble(src, "entry.v.pica").unwrap().dvles[0].entry;
    assert!(entry > 0);
    b.draw_arrays(PrimitiveConfigMode::Triangles, 0, 3);
    assert_eq!(
        b.words()[b.words().len() - 2..],
        [CLEARED_ENTRYPOINT, 0x000F_02BA]
    );
    let second = appended(&mut b, |b| {
        b.draw_arrays(PrimitiveConfigMode::Triangles, 0, 3);
    });
    assert_eq!(second[..2], [0x7FFF_0000 | entry, 0x000F_02BA]);
    // With entry 0 nothing extra is written.
    let mut p = Builder::new();
    p.vertex_shader(PASS_THROUGH_VSH, "p.v.pica").unwrap();
    p.draw_arrays(PrimitiveConfigMode::Triangles, 0, 3);
    let again = appended(&mut p, |b| {
        b.draw_arrays(PrimitiveConfigMode::Triangles, 0, 3);
    });
    assert_eq!(again[..2], [0, 0x0002_0229]);
}

// ---- register fields ----

#[test]
fn builder_framebuffer_writes_loc_format_dims_block_and_access() {
    let mut b = Builder::new();
    b.framebuffer(
        FbConfig::new(64, 32)
            .with_color(ColorFormat::Rgb565)
            .with_depth(DepthFormat::D24)
            .with_block32(true),
    )
    .unwrap();
    let gpu = run(&b);
    assert_eq!(
        regs::ColorbufferLoc(reg(&gpu, id::COLORBUFFER_LOC)).addr(),
        COLOR_BASE >> 3
    );
    assert_eq!(
        regs::DepthbufferLoc(reg(&gpu, id::DEPTHBUFFER_LOC)).addr(),
        DEPTH_BASE >> 3
    );
    for dim in [reg(&gpu, id::FRAMEBUFFER_DIM), reg(&gpu, id::RENDERBUF_DIM)] {
        let d = regs::FramebufferDim(dim);
        assert_eq!(
            (d.width(), d.height_minus_1(), d.reserved_24()),
            (64, 31, 1)
        );
    }
    let cf = regs::ColorbufferFormat(reg(&gpu, id::COLORBUFFER_FORMAT));
    assert_eq!(cf.format(), regs::ColorbufferFormatFormat::Rgb565);
    assert_eq!(cf.pixel_size(), regs::ColorbufferFormatPixelSize::Bits16);
    assert_eq!(
        regs::DepthbufferFormat(reg(&gpu, id::DEPTHBUFFER_FORMAT)).format(),
        regs::DepthbufferFormatFormat::D24
    );
    assert_eq!(
        regs::FramebufferBlock32(reg(&gpu, id::FRAMEBUFFER_BLOCK32)).block_mode(),
        regs::FramebufferBlock32Mode::Blocks32x32
    );
    assert_eq!(
        regs::ColorbufferRead(reg(&gpu, id::COLORBUFFER_READ)).allow_read(),
        0xF
    );
    assert_eq!(
        regs::ColorbufferWrite(reg(&gpu, id::COLORBUFFER_WRITE)).allow_write(),
        0xF
    );
    let dr = regs::DepthbufferRead(reg(&gpu, id::DEPTHBUFFER_READ));
    assert!(dr.allow_depth_read() && dr.allow_stencil_read());
    let dw = regs::DepthbufferWrite(reg(&gpu, id::DEPTHBUFFER_WRITE));
    assert!(dw.allow_depth_write() && dw.allow_stencil_write());
    // FLUSH, then INVALIDATE, before anything else of the framebuffer.
    let trig: Vec<u32> = gpu
        .regs()
        .triggers()
        .iter()
        .filter(|t| t.trigger != regs::Trigger::Finalize)
        .map(|t| t.id)
        .collect();
    assert_eq!(
        trig,
        [
            u32::from(id::FRAMEBUFFER_FLUSH),
            u32::from(id::FRAMEBUFFER_INVALIDATE)
        ]
    );

    // Access switched off piecewise.
    let mut b = Builder::new();
    b.framebuffer_access(FbAccess {
        color_write: false,
        stencil_read: false,
        depth_write: false,
        ..FbAccess::ALL
    });
    let gpu = run(&b);
    assert_eq!(
        regs::ColorbufferWrite(reg(&gpu, id::COLORBUFFER_WRITE)).allow_write(),
        0
    );
    let dr = regs::DepthbufferRead(reg(&gpu, id::DEPTHBUFFER_READ));
    assert!(dr.allow_depth_read() && !dr.allow_stencil_read());
    let dw = regs::DepthbufferWrite(reg(&gpu, id::DEPTHBUFFER_WRITE));
    assert!(!dw.allow_depth_write() && dw.allow_stencil_write());
}

#[test]
fn builder_framebuffer_rejects_sizes_the_registers_cannot_hold() {
    for cfg in [
        FbConfig::new(0, 32),
        FbConfig::new(30, 32),
        FbConfig::new(32, 36),
        FbConfig::new(48, 32).with_block32(true),
        FbConfig::new(2048, 8),
        FbConfig::new(1024, 1024), // 4 MiB RGBA8: more than a VRAM bank
    ] {
        assert!(
            matches!(
                Builder::new().framebuffer(cfg).map(|_| ()),
                Err(BuildError::Framebuffer(_))
            ),
            "{cfg:?}"
        );
    }
    assert!(Builder::new().framebuffer(FbConfig::new(8, 1024)).is_ok());
}

#[test]
fn builder_viewport_writes_f24_halves_f31_inverses_and_xy() {
    let mut b = Builder::new();
    b.viewport(8, -8, 240, 32);
    let gpu = run(&b);
    // 120 = 1.875 * 2^6: exponent 63 + 6, mantissa 0.875 * 2^16.
    assert_eq!(
        regs::ViewportWidth(reg(&gpu, id::VIEWPORT_WIDTH)).half_width(),
        f24(0x45_E000)
    );
    // 2 / 240 in f32 is 0x3C088889; as f31 the exponent is rebiased 127 -> 63.
    assert_eq!(reg(&gpu, id::VIEWPORT_INVW), 0x3811_1112);
    assert_eq!(
        regs::ViewportInvw(reg(&gpu, id::VIEWPORT_INVW)).inv_half_width(),
        0x1C08_8889
    );
    assert_eq!(
        regs::ViewportHeight(reg(&gpu, id::VIEWPORT_HEIGHT)).half_height(),
        f24(0x43_0000) // 16
    );
    assert_eq!(reg(&gpu, id::VIEWPORT_INVH), 0x3B00_0000); // 1/16
    let xy = regs::ViewportXy(reg(&gpu, id::VIEWPORT_XY));
    assert_eq!((xy.x(), xy.y()), (8, -8));
}

#[test]
fn builder_depth_map_cull_scissor_and_user_clip_fields() {
    let mut b = Builder::new();
    b.depth_map(true, -1.0, 0.5)
        .cull(regs::FacecullingConfigMode::BackCcw)
        .scissor(ScissorMode::Outside, 4, 6, 10, 12)
        .user_clip(Some([1.0, -2.0, 0.5, 0.0]))
        .early_depth(true, regs::EarlydepthFunction::Less);
    let gpu = run(&b);
    assert!(regs::DepthmapEnable(reg(&gpu, id::DEPTHMAP_ENABLE)).enabled());
    assert_eq!(
        regs::DepthmapScale(reg(&gpu, id::DEPTHMAP_SCALE)).scale(),
        f24(0xBF_0000)
    );
    assert_eq!(
        regs::DepthmapOffset(reg(&gpu, id::DEPTHMAP_OFFSET)).offset(),
        f24(0x3E_0000)
    );
    assert_eq!(
        regs::FacecullingConfig(reg(&gpu, id::FACECULLING_CONFIG)).mode(),
        regs::FacecullingConfigMode::BackCcw
    );
    assert_eq!(
        regs::ScissortestMode(reg(&gpu, id::SCISSORTEST_MODE)).mode(),
        regs::ScissortestModeMode::Reserved(1)
    );
    let pos = regs::ScissortestPos(reg(&gpu, id::SCISSORTEST_POS));
    assert_eq!((pos.x1(), pos.y1()), (4, 6));
    let dim = regs::ScissortestDim(reg(&gpu, id::SCISSORTEST_DIM));
    assert_eq!((dim.x2(), dim.y2()), (13, 17));
    assert!(regs::FragopClip(reg(&gpu, id::FRAGOP_CLIP)).enabled());
    let coeffs: Vec<u32> = (0..4)
        .map(|i| {
            regs::FragopClipData(reg(&gpu, id::FRAGOP_CLIP_DATA0 + i))
                .coefficient()
                .bits()
        })
        .collect();
    assert_eq!(coeffs, [0x3F_0000, 0xC0_0000, 0x3E_0000, 0]);
    assert!(regs::EarlydepthTest1(reg(&gpu, id::EARLYDEPTH_TEST1)).enabled());
    assert!(regs::EarlydepthTest2(reg(&gpu, id::EARLYDEPTH_TEST2)).enabled());
    assert_eq!(
        regs::EarlydepthFunc(reg(&gpu, id::EARLYDEPTH_FUNC)).function(),
        regs::EarlydepthFunction::Less
    );

    let mut b = Builder::new();
    b.scissor(ScissorMode::Inside, 0, 0, 8, 8).user_clip(None);
    let gpu = run(&b);
    assert_eq!(
        regs::ScissortestMode(reg(&gpu, id::SCISSORTEST_MODE)).mode(),
        regs::ScissortestModeMode::Enabled
    );
    assert!(!regs::FragopClip(reg(&gpu, id::FRAGOP_CLIP)).enabled());
}

#[test]
fn builder_vertex_shader_uploads_program_uniforms_outmap_and_inputs() {
    let src = "\
.constf k(0.5, 1.0, -2.0, 3.0)
.in inpos v0
.in inclr v1
.in intc v2
.out outpos position
.out outclr color
.out outtc texcoord0
.proc main
\tmov outpos, inpos
\tmul outclr, k, inclr
\tmov outtc, intc
\tend
.end
";
    let bin = assemble(src, "t.v.pica").unwrap();
    let mut b = Builder::new();
    b.vertex_shader(src, "t.v.pica").unwrap();
    let gpu = run(&b);
    let unit = &gpu.regs().units()[0];
    assert_eq!(unit.code[..bin.code.len()], bin.code[..]);
    assert_eq!(unit.opdescs[..bin.opdescs.len()], bin.opdescs[..]);
    let (c, v) = bin.dvles[0].float_constants().next().unwrap();
    assert_eq!(c, 95);
    assert_eq!(unit.float_uniforms[95], v);
    assert_eq!(
        v,
        [
            f24(0x3E_0000),
            f24(0x3F_0000),
            f24(0xC0_0000),
            f24(0x40_8000)
        ]
    );
    assert_eq!(unit.entry_point, 0);
    assert_eq!(
        regs::ShOutmapTotal(reg(&gpu, id::SH_OUTMAP_TOTAL)).total(),
        3
    );
    let o = |i: u16| regs::ShOutmapO(reg(&gpu, id::SH_OUTMAP_O0 + i));
    use regs::ShOutmapSemantic as S;
    assert_eq!(
        [o(0).x(), o(0).y(), o(0).z(), o(0).w()],
        [S::PositionX, S::PositionY, S::PositionZ, S::PositionW]
    );
    assert_eq!(
        [o(1).x(), o(1).y(), o(1).z(), o(1).w()],
        [S::ColorR, S::ColorG, S::ColorB, S::ColorA]
    );
    assert_eq!(
        [o(2).x(), o(2).y(), o(2).z(), o(2).w()],
        [S::Texcoord0U, S::Texcoord0V, S::Unused, S::Unused]
    );
    for i in 3..7 {
        assert_eq!(o(i).0, 0x1F1F_1F1F);
    }
    assert_eq!(reg(&gpu, id::VSH_OUTMAP_MASK), 0b111);
    assert_eq!(
        regs::VshOutmapTotal1(reg(&gpu, id::VSH_OUTMAP_TOTAL1)).outmap_total_minus_1(),
        2
    );
    assert_eq!(
        regs::VshOutmapTotal2(reg(&gpu, id::VSH_OUTMAP_TOTAL2)).outmap_total_minus_1(),
        2
    );
    assert_eq!(
        regs::PrimitiveConfig(reg(&gpu, id::PRIMITIVE_CONFIG)).outmap_total_minus_1(),
        2
    );
    assert!(regs::ShOutattrMode(reg(&gpu, id::SH_OUTATTR_MODE)).use_texcoords());
    let clk = regs::ShOutattrClock(reg(&gpu, id::SH_OUTATTR_CLOCK));
    assert!(clk.position_z_present() && clk.color_present() && clk.texcoord0_present());
    assert!(!clk.texcoord1_present() && !clk.normquat_or_view_present());
    let inb = regs::ShInputbufferConfig(reg(&gpu, id::VSH_INPUTBUFFER_CONFIG));
    assert_eq!(inb.input_count_minus_1(), 2);
    assert_eq!(
        inb.use_geometry_shader(),
        regs::ShInputbufferConfigGsUse::DontUse
    );
    assert_eq!(
        regs::VshNumAttr(reg(&gpu, id::VSH_NUM_ATTR)).num_attr_minus_1(),
        2
    );
    assert_eq!(unit.permutation, IDENTITY_PERMUTATION);
    assert_eq!(
        regs::GeostageConfig(reg(&gpu, id::GEOSTAGE_CONFIG)).gs_mode(),
        regs::GeostageConfigGsMode::VertexOnly
    );
    assert_eq!(
        regs::StartDrawFunc0(reg(&gpu, id::START_DRAW_FUNC0)).mode(),
        regs::StartDrawFunc0Mode::Configuration
    );

    // A shader that does not assemble is an error, not a panic.
    assert!(matches!(
        Builder::new().vertex_shader("mov o0, v99\n", "bad.v.pica"),
        Err(BuildError::Asm(_))
    ));
}

#[test]
fn builder_uniform_helpers_write_int_bool_and_float_uniforms() {
    let mut b = Builder::new();
    b.vsh_int_uniform(2, [1, 2, 3, 4])
        .vsh_bool_uniforms(0x8001)
        .vsh_float_uniforms(10, &[[f24(0x3F_0000); 4], [f24(0x40_0000); 4]]);
    let gpu = run(&b);
    let unit = &gpu.regs().units()[0];
    assert_eq!(unit.int_uniforms[2], [1, 2, 3, 4]);
    assert_eq!(unit.bool_uniforms, 0x8001);
    assert_eq!(unit.float_uniforms[10], [f24(0x3F_0000); 4]);
    assert_eq!(unit.float_uniforms[11], [f24(0x40_0000); 4]);
    let bu = regs::ShBooluniform(reg(&gpu, id::VSH_BOOLUNIFORM));
    assert_eq!((bu.bools(), bu.reserved_16_31()), (0x8001, 0x7FFF));
}

#[test]
fn builder_fragment_operation_fields() {
    use regs::StencilOpAction as Op;
    use regs::{BlendFuncEquation as Eq, BlendFuncFactor as F, CompareFunction as C};
    let mut b = Builder::new();
    b.alpha_test(true, C::GreaterEqual, 0x7F)
        .stencil_test(true, C::NotEqual, 0xA5, 0x0F, 0xF0)
        .stencil_op(Op::IncrementWrap, Op::Invert, Op::DecrementWrap)
        .depth_color_mask(regs::DepthColorMask(0))
        .depth_test(true, C::Greater)
        .color_write([true, false, true, false])
        .depth_write(true)
        .blend_color([1, 2, 3, 4])
        .blend(&Blend {
            rgb_eq: Eq::ReverseSubtract,
            alpha_eq: Eq::Max,
            rgb_src: F::DestinationColor,
            rgb_dst: F::SourceAlphaSaturate,
            alpha_src: F::ConstantAlpha,
            alpha_dst: F::OneMinusDestinationAlpha,
        })
        .texenv_primary();
    let gpu = run(&b);
    let at = regs::FragopAlphaTest(reg(&gpu, id::FRAGOP_ALPHA_TEST));
    assert_eq!(
        (at.enabled(), at.function(), at.reference()),
        (true, C::GreaterEqual, 0x7F)
    );
    let st = regs::StencilTest(reg(&gpu, id::STENCIL_TEST));
    assert!(st.enabled());
    assert_eq!(st.function(), C::NotEqual);
    assert_eq!(
        (st.reference() as u8, st.mask(), st.buffer_mask()),
        (0xA5, 0x0F, 0xF0)
    );
    let so = regs::StencilOp(reg(&gpu, id::STENCIL_OP));
    assert_eq!(
        (so.fail_op(), so.zfail_op(), so.zpass_op()),
        (Op::IncrementWrap, Op::Invert, Op::DecrementWrap)
    );
    let dc = regs::DepthColorMask(reg(&gpu, id::DEPTH_COLOR_MASK));
    assert!(dc.depth_test_enabled() && dc.depth_write_enabled());
    assert_eq!(dc.depth_function(), C::Greater);
    assert_eq!(
        [
            dc.red_write_enabled(),
            dc.green_write_enabled(),
            dc.blue_write_enabled(),
            dc.alpha_write_enabled()
        ],
        [true, false, true, false]
    );
    let co = regs::ColorOperation(reg(&gpu, id::COLOR_OPERATION));
    assert_eq!(co.blend_mode(), regs::ColorOperationBlendMode::Blend);
    assert_eq!(
        co.fragment_mode(),
        regs::ColorOperationFragmentMode::Default
    );
    assert_eq!(co.reserved_16_25(), 0xE4);
    let bf = regs::BlendFunc(reg(&gpu, id::BLEND_FUNC));
    assert_eq!(
        (bf.rgb_equation(), bf.alpha_equation()),
        (Eq::ReverseSubtract, Eq::Max)
    );
    assert_eq!(
        (
            bf.rgb_src_func(),
            bf.rgb_dst_func(),
            bf.alpha_src_func(),
            bf.alpha_dst_func()
        ),
        (
            F::DestinationColor,
            F::SourceAlphaSaturate,
            F::ConstantAlpha,
            F::OneMinusDestinationAlpha
        )
    );
    let bc = regs::BlendColor(reg(&gpu, id::BLEND_COLOR));
    assert_eq!((bc.red(), bc.green(), bc.blue(), bc.alpha()), (1, 2, 3, 4));
    // TEXENV0: primary colour, replaced; TEXENV5: previous.
    let src0 = regs::TexenvSource(reg(&gpu, id::TEXENV0_SOURCE));
    assert_eq!(src0.rgb_source0(), regs::TexenvSourceInput::PrimaryColor);
    assert_eq!(src0.alpha_source0(), regs::TexenvSourceInput::PrimaryColor);
    let op0 = regs::TexenvOperand(reg(&gpu, id::TEXENV0_OPERAND));
    assert_eq!(op0.rgb_operand0(), regs::TexenvOperandRgb::SourceColor);
    assert_eq!(op0.alpha_operand0(), regs::TexenvOperandAlpha::SourceAlpha);
    let cb0 = regs::TexenvCombiner(reg(&gpu, id::TEXENV0_COMBINER));
    assert_eq!(
        (cb0.rgb_combine(), cb0.alpha_combine()),
        (
            regs::TexenvCombinerMode::Replace,
            regs::TexenvCombinerMode::Replace
        )
    );
    assert_eq!(
        regs::TexenvScale(reg(&gpu, id::TEXENV0_SCALE)).rgb_scale(),
        regs::TexenvScaleFactor::X1
    );
    assert_eq!(
        regs::TexenvSource(reg(&gpu, id::TEXENV5_SOURCE)).rgb_source0(),
        regs::TexenvSourceInput::Previous
    );

    // Logic op switches the colour operation's blend mode.
    let mut b = Builder::new();
    b.logic_op(regs::LogicOpOperation::Nand);
    let gpu = run(&b);
    assert_eq!(
        regs::ColorOperation(reg(&gpu, id::COLOR_OPERATION)).blend_mode(),
        regs::ColorOperationBlendMode::LogicOp
    );
    assert_eq!(
        regs::LogicOp(reg(&gpu, id::LOGIC_OP)).op(),
        regs::LogicOpOperation::Nand
    );
}

#[test]
fn builder_draw_leaves_registers_as_seed_004_says() {
    let mut b = Builder::new();
    b.post_vertex_cache(4);
    let ib = b.index_buffer_u8(&[0, 1, 2]);
    b.draw_elements(PrimitiveConfigMode::Triangles, &ib);
    let gpu = run(&b);
    assert_eq!(
        regs::PostVertexCacheNum(reg(&gpu, id::POST_VERTEX_CACHE_NUM)).entries(),
        4
    );
    let ic = regs::IndexbufferConfig(reg(&gpu, id::INDEXBUFFER_CONFIG));
    assert_eq!(
        (ic.offset(), ic.index_type()),
        (0, regs::IndexbufferConfigIndexType::U8)
    );
    assert_eq!(regs::Numvertices(reg(&gpu, id::NUMVERTICES)).count(), 3);
    // Afterwards: triangle-elements flags and the mode cleared, entry point 0, configuration.
    assert!(!regs::GeostageConfig(reg(&gpu, id::GEOSTAGE_CONFIG)).drawing_triangle_elements());
    assert_eq!(reg(&gpu, id::GEOSTAGE_CONFIG2), 0);
    assert_eq!(
        regs::PrimitiveConfig(reg(&gpu, id::PRIMITIVE_CONFIG)).primitive_mode(),
        regs::PrimitiveConfigMode::Triangles
    );
    assert_eq!(reg(&gpu, id::VSH_ENTRYPOINT), CLEARED_ENTRYPOINT);
    // During the draw: the beat of the DRAWELEMENTS write sees the flags and drawing mode.
    let beats = gpu.regwrite_beats();
    let at = beats
        .iter()
        .position(|w| w.id == u32::from(id::DRAWELEMENTS))
        .unwrap();
    let before = |reg_id: u16| {
        beats[..at]
            .iter()
            .rev()
            .find(|w| w.id == u32::from(reg_id))
            .map(|w| w.value)
    };
    let g2 = regs::GeostageConfig2(before(id::GEOSTAGE_CONFIG2).unwrap());
    assert!(g2.drawing_triangle_elements() && !g2.function_indicator());
    assert!(regs::GeostageConfig(before(id::GEOSTAGE_CONFIG).unwrap()).drawing_triangle_elements());
    assert_eq!(
        regs::StartDrawFunc0(before(id::START_DRAW_FUNC0).unwrap()).mode(),
        regs::StartDrawFunc0Mode::Drawing
    );
    let triggers: Vec<regs::Trigger> = gpu
        .regs()
        .triggers()
        .iter()
        .map(|t| t.trigger)
        .filter(|&t| t != regs::Trigger::Finalize)
        .collect();
    assert_eq!(
        triggers,
        [
            regs::Trigger::RestartPrimitive,
            regs::Trigger::DrawElements,
            regs::Trigger::VtxFunc,
            regs::Trigger::FramebufferFlush
        ]
    );
}

#[test]
fn builder_immediate_vertices_reach_regs_in_f24() {
    let mut b = Builder::new();
    b.vs_inputs(2, IDENTITY_PERMUTATION);
    let verts = [
        Vertex::xy(-0.5, 0.25, [1.0, 0.5, 0.0, 1.0]),
        Vertex::xy(0.75, -1.0, [0.25, 0.0, 1.0, 0.5]),
        Vertex::new([0.1, 0.2, 0.3, 1.0], [0.0; 4]),
    ];
    let words = appended(&mut b, |b| {
        b.immediate(PrimitiveConfigMode::TriangleStrip, &verts);
    });
    // FIXEDATTRIB_INDEX = 0xF comes before the data, START_DRAW_FUNC0 = 0 before that.
    let ix = words.iter().position(|&w| w == 0x000F_0232).unwrap();
    assert_eq!(words[ix - 3..=ix], [0, 0x000F_0245, 0xF, 0x000F_0232]);
    let gpu = run(&b);
    let got: Vec<Vec<[F24; 4]>> = gpu
        .regs()
        .immediate_vertices()
        .iter()
        .map(|v| v.attributes.clone())
        .collect();
    let want: Vec<Vec<[F24; 4]>> = verts
        .iter()
        .map(|v| v.attributes().iter().map(|a| f24x4(*a)).collect())
        .collect();
    assert_eq!(got, want);
    // 0.1 truncates: f32 0x3DCCCCCD -> f24 exponent 63 - 4, mantissa 0x9999 (0x4CCCCD >> 7).
    assert_eq!(want[2][0][0], f24(0x3B_9999));
    assert_eq!(
        regs::FixedattribIndex(reg(&gpu, id::FIXEDATTRIB_INDEX)).index(),
        0xF
    );
    assert_eq!(reg(&gpu, id::GEOSTAGE_CONFIG2), 0);
    assert_eq!(
        regs::StartDrawFunc0(reg(&gpu, id::START_DRAW_FUNC0)).mode(),
        regs::StartDrawFunc0Mode::Configuration
    );
}

#[test]
fn builder_attrib_layout_offsets_strides_and_words() {
    use regs::AttribbufferComponent as C;
    let layout = AttribLayout {
        base: DATA_BASE,
        formats: vec![
            AttribFormat::ubyte(3),
            AttribFormat::short(2),
            AttribFormat::float(1),
            AttribFormat::byte(4),
        ],
        fixed_mask: 0x0F0,
        buffers: vec![
            AttribBuffer {
                offset: 0x40,
                components: vec![C::Attribute0, C::Attribute1, C::Padding4, C::Attribute2],
            },
            AttribBuffer {
                offset: 0x1000,
                components: vec![C::Attribute3, C::Padding16, C::Padding12, C::Padding8],
            },
        ],
        permutation: 0x0123,
    };
    // ubyte3 at 0 (3 bytes), short2 aligned to 4, pad aligned to 4 (8) + 4, float at 12.
    assert_eq!(layout.offsets(&layout.buffers[0]), (vec![0, 4, 8, 12], 16));
    assert_eq!(layout.offsets(&layout.buffers[1]), (vec![0, 4, 20, 32], 40));
    let w = layout.block_words();
    let high = regs::AttribbuffersFormatHigh(w[2]);
    assert_eq!(high.fixed_attrib_mask(), 0x0F0);
    assert_eq!(high.attrib_count_minus_1(), 3);
    let low = regs::AttribbuffersFormatLow(w[1]);
    use regs::{AttribFormatSize as Sz, AttribFormatType as Ty};
    assert_eq!(
        (low.attr0_type(), low.attr0_size()),
        (Ty::UnsignedByte, Sz::Components3)
    );
    assert_eq!(
        (low.attr1_type(), low.attr1_size()),
        (Ty::Short, Sz::Components2)
    );
    assert_eq!(
        (low.attr2_type(), low.attr2_size()),
        (Ty::Float, Sz::Components1)
    );
    assert_eq!(
        (low.attr3_type(), low.attr3_size()),
        (Ty::Byte, Sz::Components4)
    );
    assert_eq!(regs::AttribbuffersLoc(w[0]).base_addr(), DATA_BASE >> 4);
    assert_eq!(w[0], DATA_BASE >> 3);
    assert_eq!(regs::AttribbufferOffset(w[6]).offset(), 0x1000);
    let c1 = regs::AttribbufferConfig1(w[7]);
    assert_eq!(
        [
            c1.component1(),
            c1.component2(),
            c1.component3(),
            c1.component4()
        ],
        [C::Attribute3, C::Padding16, C::Padding12, C::Padding8]
    );
    let c2 = regs::AttribbufferConfig2(w[8]);
    assert_eq!((c2.bytes_per_vertex(), c2.component_count()), (40, 4));
    assert!(w[9..].iter().all(|&x| x == 0));
}

// ---- the case ----

#[test]
fn builder_clear_fills_each_format() {
    let clear = Clear::color([0xF8, 0xFC, 0x08, 0x80])
        .with_depth(0x12_3456)
        .with_stencil(0x9A);
    let cases: [(ColorFormat, DepthFormat, u32, [u32; 3]); 4] = [
        (
            ColorFormat::Rgba8,
            DepthFormat::D24S8,
            0xF8FC_0880,
            [0x9A12_3456; 3],
        ),
        // RGB5A1 0xFFC3 twice a word; D16 0x3456 twice.
        (
            ColorFormat::Rgb5a1,
            DepthFormat::D16,
            0xFFC3_FFC3,
            [0x3456_3456; 3],
        ),
        // RGB565 0xFFE1; D24: 56 34 12 56 | 34 12 56 34 | 12 56 34 12.
        (
            ColorFormat::Rgb565,
            DepthFormat::D24,
            0xFFE1_FFE1,
            [0x5612_3456, 0x3456_1234, 0x1234_5612],
        ),
        (
            ColorFormat::Rgba4,
            DepthFormat::D24,
            0xFF08_FF08,
            [0x5612_3456, 0x3456_1234, 0x1234_5612],
        ),
    ];
    for (cf, df, cword, dwords) in cases {
        let scene = Builder::standard(FbConfig::new(8, 8).with_color(cf).with_depth(df), clear)
            .unwrap()
            .finish("test/clear", "clear")
            .unwrap();
        let color = scene
            .case
            .images
            .iter()
            .find(|i| i.base == COLOR_BASE)
            .unwrap();
        assert_eq!(
            color.words.len() as u32 * 4,
            scene.fb.color_bytes(),
            "{cf:?}"
        );
        assert!(
            color.words.iter().all(|&w| w == cword),
            "{cf:?} {:08x}",
            color.words[0]
        );
        let depth = scene
            .case
            .images
            .iter()
            .find(|i| i.base == DEPTH_BASE)
            .unwrap();
        assert_eq!(
            depth.words.len() as u32 * 4,
            scene.fb.depth_bytes(),
            "{df:?}"
        );
        for (k, &w) in depth.words.iter().enumerate() {
            assert_eq!(w, dwords[k % 3], "{df:?} word {k}");
        }
    }
}

#[test]
fn builder_finish_packs_list_data_and_buffers() {
    let mut b = Builder::standard(FbConfig::new(16, 8), Clear::color([1, 2, 3, 4])).unwrap();
    b.vertex_array(&[Vertex::xy(0.0, 0.0, [1.0; 4]); 3]);
    b.draw_arrays(PrimitiveConfigMode::Triangles, 0, 3);
    b.max_cycles(1234);
    let scene = b.finish("test/finish", "finish").unwrap();
    let case = &scene.case;
    assert!(case.pipeline);
    assert_eq!(case.max_cycles, 1234);
    assert_eq!(case.submit_addr, DEFAULT_LIST_ADDR);
    assert_eq!(case.submit_size % 16, 0);
    let bases: Vec<u32> = case.images.iter().map(|i| i.base).collect();
    assert_eq!(
        bases,
        [DEFAULT_LIST_ADDR, DATA_BASE, COLOR_BASE, DEPTH_BASE]
    );
    let list = &case.images[0].words;
    assert_eq!(list.len() as u32 * 4, case.submit_size);
    assert_eq!(list[list.len() - 2..], [FINALIZE_VALUE, 0x000F_0010]);
    // The end: FLUSH and INVALIDATE (then at most a padding command) before the FINALIZE.
    let tail = &list[list.len() - 8..];
    assert!(
        tail.windows(4)
            .any(|w| w == [1, 0x000F_0111, 1, 0x000F_0110]),
        "{tail:08x?}"
    );
    assert_eq!(case.images[1].words.len(), 3 * 8);
    assert_eq!(case.images[1].words[7], 1.0f32.to_bits());
    assert_eq!(scene.fb.width, 16);
    assert_eq!(scene.fb.color_bytes(), 16 * 8 * 4);
    // Without a framebuffer there is nothing to read back.
    assert_eq!(
        Builder::new().finish("x/y", "z"),
        Err(BuildError::NoFramebuffer)
    );
}

/// The scene library's standard setup leaves the state its documentation lists.
#[test]
fn builder_standard_setup_state() {
    let b = Builder::standard(FbConfig::new(32, 16), Clear::color([0; 4])).unwrap();
    let gpu = run(&b);
    // Pass-through shader: two inputs (v0 position, v1 colour), two outputs.
    assert_eq!(
        regs::VshNumAttr(reg(&gpu, id::VSH_NUM_ATTR)).num_attr_minus_1(),
        1
    );
    assert_eq!(
        regs::ShOutmapTotal(reg(&gpu, id::SH_OUTMAP_TOTAL)).total(),
        2
    );
    assert_eq!(reg(&gpu, id::SH_OUTMAP_O0), 0x0302_0100);
    assert_eq!(reg(&gpu, id::SH_OUTMAP_O1), 0x0B0A_0908);
    assert_eq!(reg(&gpu, id::VSH_OUTMAP_MASK), 0b11);
    // Viewport = framebuffer.
    assert_eq!(
        regs::ViewportWidth(reg(&gpu, id::VIEWPORT_WIDTH)).half_width(),
        f24(0x43_0000)
    );
    assert_eq!(
        regs::ViewportHeight(reg(&gpu, id::VIEWPORT_HEIGHT)).half_height(),
        f24(0x42_0000)
    );
    // Depth map z-buffer, -1, 0.
    assert!(regs::DepthmapEnable(reg(&gpu, id::DEPTHMAP_ENABLE)).enabled());
    assert_eq!(reg(&gpu, id::DEPTHMAP_SCALE), 0xBF_0000);
    assert_eq!(reg(&gpu, id::DEPTHMAP_OFFSET), 0);
    // No cull, scissor, user clip, tests; colour writes on, depth writes off; replace blend.
    assert_eq!(
        regs::FacecullingConfig(reg(&gpu, id::FACECULLING_CONFIG)).mode(),
        regs::FacecullingConfigMode::None
    );
    assert_eq!(reg(&gpu, id::SCISSORTEST_MODE), 0);
    assert!(!regs::FragopClip(reg(&gpu, id::FRAGOP_CLIP)).enabled());
    assert!(!regs::FragopAlphaTest(reg(&gpu, id::FRAGOP_ALPHA_TEST)).enabled());
    assert!(!regs::StencilTest(reg(&gpu, id::STENCIL_TEST)).enabled());
    let dc = regs::DepthColorMask(reg(&gpu, id::DEPTH_COLOR_MASK));
    assert!(!dc.depth_test_enabled() && !dc.depth_write_enabled());
    assert!(dc.red_write_enabled() && dc.alpha_write_enabled());
    assert_eq!(reg(&gpu, id::BLEND_FUNC), Blend::REPLACE.word());
    assert_eq!(
        regs::ColorOperation(reg(&gpu, id::COLOR_OPERATION)).blend_mode(),
        regs::ColorOperationBlendMode::Blend
    );
    assert!(!regs::EarlydepthTest2(reg(&gpu, id::EARLYDEPTH_TEST2)).enabled());
}

// ---- issue 6: texture encoder ----

mod issue6 {
    use super::*;
    use pica_model::regs::{
        ColorOperationFragmentMode, LightingLutIndexTable, ProctexLutTable,
        TexenvCombinerMode as Mode, TexenvSourceInput as Src, TexenvUpdateBufferDensitySource,
        TexenvUpdateBufferFogMode, TexunitParamFilter, TexunitParamType, TexunitParamWrap,
        TexunitTypeFormat as Fmt,
    };
    use pica_vectors::builder::attrs::{full_outmap, FullVertex};
    use pica_vectors::builder::effects::{fog_lut_entry, fog_lut_ramp};
    use pica_vectors::builder::lighting::{
        light_color_word, lighting_lut_const, lighting_lut_entry, Light, LightEnv,
    };
    use pica_vectors::builder::texenv::TexEnv;
    use pica_vectors::builder::texture::{
        encode, encode_etc1, encode_mips, etc1_solid_block, etc1a4_solid_alpha, morton8, TexConfig,
        TexImage, TexUnit, TEX_BASE,
    };

    /// An 8×8 picture whose texel (x, y) has red = x + 8y (y from the top), green = 0x80,
    /// blue = 0x40, alpha = 0xF0 - x - 8y.
    fn counting() -> TexImage {
        TexImage::from_fn(8, 8, |x, y| {
            let n = (x + 8 * y) as u8;
            [n, 0x80, 0x40, 0xF0 - n]
        })
    }

    /// The Z-order of an 8×8 tile, written out by hand from the bit rule (x bits at 0, 2, 4; y
    /// bits at 1, 3, 5): memory index → (x, y).
    const ZORDER_FIRST_20: [(u32, u32); 20] = [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (2, 0),
        (3, 0),
        (2, 1),
        (3, 1),
        (0, 2),
        (1, 2),
        (0, 3),
        (1, 3),
        (2, 2),
        (3, 2),
        (2, 3),
        (3, 3),
        (4, 0),
        (5, 0),
        (4, 1),
        (5, 1),
    ];

    #[test]
    fn builder_texture_morton_order_by_hand() {
        for (i, &(x, y)) in ZORDER_FIRST_20.iter().enumerate() {
            assert_eq!(morton8(x, y), i as u32, "({x}, {y})");
        }
        assert_eq!(morton8(7, 7), 63);
        assert_eq!(morton8(4, 4), 48);
    }

    /// 8-bit class: I8 stores red, in Z-order; byte i is the texel ZORDER[i].
    #[test]
    fn builder_texture_i8_a8_ia44_tiled_bytes() {
        let i8 = encode(&counting(), Fmt::I8).unwrap();
        assert_eq!(i8.len(), 64);
        assert_eq!(
            i8[..20],
            [0, 1, 8, 9, 2, 3, 10, 11, 16, 17, 24, 25, 18, 19, 26, 27, 4, 5, 12, 13]
        );
        assert_eq!(i8[63], 63);
        let a8 = encode(&counting(), Fmt::A8).unwrap();
        assert_eq!(a8[..4], [0xF0, 0xEF, 0xE8, 0xE7]);
        // IA44: intensity nibble high, alpha nibble low: texel (1, 1) = red 9, alpha 0xE7 →
        // 0x0E; texel (7, 7) red 63 = 0x3F → 3, alpha 0xB1 → 0xB: 0x3B.
        let ia44 = encode(&counting(), Fmt::Ia44).unwrap();
        assert_eq!((ia44[3], ia44[63]), (0x0E, 0x3B));
    }

    /// 4-bit class: two texels a byte, the even Z-order index in the low nibble.
    #[test]
    fn builder_texture_i4_a4_nibbles() {
        let img = TexImage::from_fn(8, 8, |x, y| [(0x10 * (1 + x + 2 * y)) as u8, 0, 0, 0xA0]);
        let i4 = encode(&img, Fmt::I4).unwrap();
        assert_eq!(i4.len(), 32);
        // (0,0) = 1, (1,0) = 2 → 0x21; (0,1) = 3, (1,1) = 4 → 0x43.
        assert_eq!(i4[..2], [0x21, 0x43]);
        let a4 = encode(&img, Fmt::A4).unwrap();
        assert!(a4.iter().all(|&b| b == 0xAA));
    }

    /// 16-bit class: little-endian halfwords, red in the top bits.
    #[test]
    fn builder_texture_16_bit_formats() {
        let one = |c: [u8; 4], f| encode(&TexImage::solid(8, 8, c), f).unwrap()[..2].to_vec();
        // 11111 00000 00000 1 = 0xF801.
        assert_eq!(one([0xFF, 0, 0, 0xFF], Fmt::Rgba5551), [0x01, 0xF8]);
        // 10000 01000 00100 0 (0x80, 0x40, 0x20, 0x7F) = 0x8208.
        assert_eq!(one([0x80, 0x40, 0x20, 0x7F], Fmt::Rgba5551), [0x08, 0x82]);
        // 00000 111111 00000 = 0x07E0.
        assert_eq!(one([0, 0xFF, 0, 0], Fmt::Rgb565), [0xE0, 0x07]);
        // 0x12, 0x34, 0x56, 0x78 → nibbles 1 3 5 7 = 0x1357.
        assert_eq!(one([0x12, 0x34, 0x56, 0x78], Fmt::Rgba4444), [0x57, 0x13]);
        // IA8: alpha low byte, intensity (red) high; HILO8: green low, red high.
        assert_eq!(one([0xAB, 0x11, 0x22, 0xCD], Fmt::Ia8), [0xCD, 0xAB]);
        assert_eq!(one([0xAB, 0xCD, 0x22, 0x33], Fmt::Hilo8), [0xCD, 0xAB]);
        // Tiled: texel (1, 0) of the counting picture is the second halfword.
        let ia8 = encode(&counting(), Fmt::Ia8).unwrap();
        assert_eq!(ia8[..6], [0xF0, 0, 0xEF, 1, 0xE8, 8]);
    }

    /// 24- and 32-bit: RGB888 bytes b, g, r; RGBA8888 bytes a, b, g, r.
    #[test]
    fn builder_texture_24_and_32_bit_formats() {
        let rgb = encode(&counting(), Fmt::Rgb888).unwrap();
        assert_eq!(rgb.len(), 192);
        assert_eq!(rgb[..9], [0x40, 0x80, 0, 0x40, 0x80, 1, 0x40, 0x80, 8]);
        let rgba = encode(&counting(), Fmt::Rgba8888).unwrap();
        assert_eq!(rgba.len(), 256);
        assert_eq!(rgba[..8], [0xF0, 0x40, 0x80, 0, 0xEF, 0x40, 0x80, 1]);
        // Texel (7, 7) is the last of the tile.
        assert_eq!(rgba[252..], [0xB1, 0x40, 0x80, 63]);
    }

    /// Tiles follow each other row by row: in a 16×16 I8 texture, tile (1, 0) starts at byte
    /// 64 with texel (8, 0) and tile (0, 1) at byte 128 with texel (0, 8).
    #[test]
    fn builder_texture_tiles_row_by_row() {
        let img = TexImage::from_fn(16, 16, |x, y| [(x + 16 * y) as u8, 0, 0, 0]);
        let b = encode(&img, Fmt::I8).unwrap();
        assert_eq!((b[0], b[1], b[2]), (0, 1, 16));
        assert_eq!((b[64], b[65], b[66]), (8, 9, 24));
        assert_eq!((b[128], b[129], b[130]), (128, 129, 144));
        assert_eq!(b[255], 255);
    }

    #[test]
    fn builder_texture_rejects_bad_sizes_and_etc1_in_encode() {
        assert!(encode(&TexImage::solid(12, 8, [0; 4]), Fmt::I8).is_err());
        assert!(encode(&TexImage::solid(8, 4, [0; 4]), Fmt::I8).is_err());
        assert!(encode(&TexImage::solid(8, 8, [0; 4]), Fmt::Etc1).is_err());
        let short = TexImage {
            width: 8,
            height: 8,
            texels: vec![[0; 4]; 10],
        };
        assert!(encode(&short, Fmt::I8).is_err());
    }

    /// Mip levels follow the base level: a 16×16 + 8×8 I8 chain is 256 + 64 bytes.
    #[test]
    fn builder_texture_mip_chain_is_concatenated() {
        let l0 = TexImage::solid(16, 16, [1, 0, 0, 0]);
        let l1 = TexImage::solid(8, 8, [2, 0, 0, 0]);
        let b = encode_mips(&[l0.clone(), l1.clone()], Fmt::I8).unwrap();
        assert_eq!(b.len(), 320);
        assert!(b[..256].iter().all(|&x| x == 1) && b[256..].iter().all(|&x| x == 2));
        assert!(encode_mips(&[l0, TexImage::solid(16, 16, [0; 4])], Fmt::I8).is_err());
    }

    /// ETC1 blocks: the individual-mode word by hand, the tile order TL, TR, BL, BR, and
    /// ETC1A4's alpha word before each colour word.
    #[test]
    fn builder_texture_etc1_blocks_and_tiles() {
        // R1 = R2 = 0xF in bits 63-56; table 1 in 39-37 and 36-34.
        assert_eq!(etc1_solid_block([0xF, 0, 0], 0), 0xFF00_0000_0000_0000);
        assert_eq!(etc1_solid_block([0, 0x3, 0x5], 1), 0x0033_5524_0000_0000);
        assert_eq!(etc1a4_solid_alpha(0x8), 0x8888_8888_8888_8888);
        // 16×8: blocks 0-3 in the top block row, 4-7 below; tile 0 = 0, 1, 4, 5.
        let blocks: Vec<u64> = (0..8).collect();
        let b = encode_etc1(16, 8, &blocks, None).unwrap();
        assert_eq!(b.len(), 64);
        let word = |i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap());
        assert_eq!(
            (0..8).map(word).collect::<Vec<_>>(),
            [0, 1, 4, 5, 2, 3, 6, 7]
        );
        let alpha: Vec<u64> = (0..8).map(|i| 0x100 + i).collect();
        let b = encode_etc1(16, 8, &blocks, Some(&alpha)).unwrap();
        assert_eq!(b.len(), 128);
        let word = |i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap());
        assert_eq!((0..4).map(word).collect::<Vec<_>>(), [0x100, 0, 0x101, 1]);
        assert!(encode_etc1(16, 8, &blocks[..7], None).is_err());
    }

    // ---- issue 6: register words ----

    /// Texture unit 0: BORDER, DIM, PARAM, LOD, ADDR1, cube faces, SHADOW, TYPE, and
    /// TEXUNIT_CONFIG, as the registers hold them after the list ran.
    #[test]
    fn builder_texture_unit_words() {
        let mut b = Builder::new();
        let faces = [
            0x1840_0100,
            0x1840_0200,
            0x1840_0300,
            0x1840_0400,
            0x1840_0500,
        ];
        let mut t = TexUnit::new(TEX_BASE, 32, 16, Fmt::Etc1)
            .with_wrap(TexunitParamWrap::Repeat, TexunitParamWrap::MirroredRepeat)
            .with_filter(TexunitParamFilter::Linear)
            .with_border([0x11, 0x22, 0x33, 0x44])
            .with_type(TexunitParamType::CubeMap)
            .with_mips(1, 3, TexunitParamFilter::Linear);
        t.faces = Some(faces);
        t.lod_bias = 0x1F80;
        t.shadow = Some(regs::TexunitShadow(0x1234));
        b.texture_unit(0, &t);
        b.texunit_config(&TexConfig::units([true, false, true]));
        let gpu = run(&b);
        assert_eq!(reg(&gpu, id::TEXUNIT0_BORDER_COLOR), 0x4433_2211);
        // Width 32 in bits 16-26, height 16 in 0-10.
        assert_eq!(reg(&gpu, id::TEXUNIT0_DIM), 0x0020_0010);
        // mag 1 (bit 1), min 1 (bit 2), etc1 2 (bits 4-5), wrap_t 3 (8-10), wrap_s 2 (12-14),
        // mipmap 1 (bit 24), type 1 (28-30): 0x1100_2326.
        assert_eq!(reg(&gpu, id::TEXUNIT0_PARAM), 0x1100_2326);
        // bias 0x1F80, max 3 (16-19), min 1 (24-27).
        assert_eq!(reg(&gpu, id::TEXUNIT0_LOD), 0x0103_1F80);
        assert_eq!(reg(&gpu, id::TEXUNIT0_ADDR1), 0x0308_0000);
        assert_eq!(reg(&gpu, id::TEXUNIT0_ADDR2), 0x0008_0020);
        assert_eq!(reg(&gpu, id::TEXUNIT0_ADDR6), 0x0008_00A0);
        assert_eq!(reg(&gpu, id::TEXUNIT0_SHADOW), 0x1234);
        assert_eq!(reg(&gpu, id::TEXUNIT0_TYPE), 12);
        // Units 0 and 2, bit 12, clear cache (bit 16).
        assert_eq!(reg(&gpu, id::TEXUNIT_CONFIG), 0x0001_1005);
    }

    #[test]
    fn builder_texture_units_1_and_2_words() {
        let mut b = Builder::new();
        b.texture_unit(1, &TexUnit::new(0x1840_0080, 8, 8, Fmt::A4));
        b.texture_unit(
            2,
            &TexUnit::new(0x1840_0100, 16, 8, Fmt::Etc1a4).with_border([0xFF; 4]),
        );
        b.texture_unit(3, &TexUnit::new(0, 8, 8, Fmt::I8)); // ignored
        let gpu = run(&b);
        assert_eq!(reg(&gpu, id::TEXUNIT1_ADDR), 0x0308_0010);
        assert_eq!(reg(&gpu, id::TEXUNIT1_DIM), 0x0008_0008);
        assert_eq!(reg(&gpu, id::TEXUNIT1_TYPE), 11);
        assert_eq!(reg(&gpu, id::TEXUNIT2_ADDR), 0x0308_0020);
        assert_eq!(reg(&gpu, id::TEXUNIT2_BORDER_COLOR), 0xFFFF_FFFF);
        // ETC1A4 keeps the ETC1 field at 0 (seed 002).
        assert_eq!(reg(&gpu, id::TEXUNIT2_PARAM), 0);
        assert_eq!(reg(&gpu, id::TEXUNIT2_TYPE), 13);
    }

    /// Combiner stages: the five words of a stage, the defaults of unused stages, the buffer
    /// inputs (byte 1 only) and the buffer colour.
    #[test]
    fn builder_texenv_words() {
        let t = TexEnv::new(
            Mode::Interpolate,
            [Src::Texture0, Src::Constant, Src::Previous],
        )
        .with_alpha(
            Mode::Add,
            [Src::PrimaryColor, Src::Texture1, Src::PreviousBuffer],
        )
        .with_color([1, 2, 3, 4])
        .with_scale(regs::TexenvScaleFactor::X2, regs::TexenvScaleFactor::X4);
        // Sources 3, 14, 15 / 0, 4, 13; operands 0; combine 4 / 2; colour; scale 1 / 2.
        assert_eq!(
            t.words(),
            [0x0D40_0FE3, 0, 0x0002_0004, 0x0403_0201, 0x0002_0001]
        );
        let mut b = Builder::new();
        b.texenvs(&[t]);
        b.fog_mode(
            TexenvUpdateBufferFogMode::Fog,
            TexenvUpdateBufferDensitySource::DepthDensity,
            true,
        );
        b.texenv_update_buffer([true, false, true, false], [false, true, false, true]);
        b.texenv_buffer_color([0x10, 0x20, 0x30, 0x40]);
        let gpu = run(&b);
        assert_eq!(reg(&gpu, id::TEXENV0_SOURCE), 0x0D40_0FE3);
        assert_eq!(reg(&gpu, id::TEXENV0_COMBINER), 0x0002_0004);
        assert_eq!(reg(&gpu, id::TEXENV5_SOURCE), 0x0FFF_0FFF);
        // Fog 5 | density 1 << 3 | z flip << 16, buffer bits 8, 10, 13, 15.
        assert_eq!(reg(&gpu, id::TEXENV_UPDATE_BUFFER), 0x0001_A50D);
        assert_eq!(reg(&gpu, id::TEXENV_BUFFER_COLOR), 0x4030_2010);
    }

    /// The command words themselves: a stage is one consecutive write of five registers
    /// (header id | mask 0xF << 16 | (5 - 1) << 20 | 1 << 31), the buffer inputs a masked write
    /// of byte 1 (mask 0x2), the fog mode a masked write of bytes 0 and 2 (mask 0x5), a LUT
    /// upload the index then repeated-ID data writes (header id | 0xF << 16 | (n - 1) << 20).
    #[test]
    fn builder_issue6_command_words() {
        let mut b = Builder::new();
        let t = TexEnv::replace(Src::Texture0);
        let got = appended(&mut b, |b| {
            b.texenv(4, &t);
        });
        let w = t.words();
        assert_eq!(got, [w[0], 0x804F_00F0, w[1], w[2], w[3], w[4]]);
        let got = appended(&mut b, |b| {
            b.texenv_update_buffer([true, false, false, false], [false; 4]);
            b.fog_mode(
                TexenvUpdateBufferFogMode::Gas,
                TexenvUpdateBufferDensitySource::PlainDensity,
                false,
            );
        });
        assert_eq!(got, [0x0000_0100, 0x0002_00E0, 0x0000_0007, 0x0005_00E0]);
        let got = appended(&mut b, |b| {
            b.fog_lut(&[0x11, 0x22, 0x33]);
        });
        // FOG_LUT_INDEX = 0; then 3 words to FOG_LUT_DATA0 (0x0E8), padded to 8 bytes.
        assert_eq!(got, [0, 0x000F_00E6, 0x11, 0x002F_00E8, 0x22, 0x33]);
        let got = appended(&mut b, |b| {
            b.texture_unit(1, &TexUnit::new(0x1840_0000, 8, 16, Fmt::I8));
        });
        // BORDER 0, DIM, PARAM 0, LOD 0, ADDR from 0x091; then TYPE 7 at 0x096.
        assert_eq!(
            got,
            [
                0,
                0x804F_0091,
                0x0008_0010,
                0,
                0,
                0x0308_0000,
                7,
                0x000F_0096
            ]
        );
    }

    /// Lights: colours in the 10-bit fields, f16 position, negated fixed1.1.11 spot direction,
    /// config, f20 attenuation; the environment; LUT upload through the FIFO.
    #[test]
    fn builder_lighting_words_and_luts() {
        assert_eq!(light_color_word([0xFF, 0x80, 0x01]), 0x0FF2_0001);
        let mut l = Light::positional([1.0, -2.0, 0.5], [0x10, 0x20, 0x30])
            .with_specular([1, 2, 3], [4, 5, 6])
            .with_ambient([7, 8, 9]);
        l.spot_dir = [0.0, 0.5, -1.0];
        l.two_sided = true;
        l.atten_bias = 1.0;
        l.atten_scale = -0.5;
        let mut b = Builder::new();
        b.light(3, &l);
        let mut env = LightEnv::new(3, [0x40, 0x50, 0x60], 8);
        env.permutation = 0x0000_0513;
        b.light_env(&env);
        b.lighting_enable(true);
        b.lighting_lut(
            LightingLutIndexTable::Sp3,
            &[lighting_lut_entry(0xFFF, -1), 7],
        );
        b.lighting_lut(LightingLutIndexTable::D1, &lighting_lut_const(0x800));
        let gpu = run(&b);
        let r = |i: u16| reg(&gpu, 0x170 + i);
        assert_eq!(
            [r(0), r(1), r(2), r(3)],
            [0x0010_0803, 0x0040_1406, 0x0100_8030, 0x0070_2009]
        );
        // f16 1.0 = 0x3C00, -2.0 = 0xC000, 0.5 = 0x3800.
        assert_eq!((r(4), r(5)), (0xC000_3C00, 0x3800));
        // Negated: x -0 = 0, y -0.5 = -1024 = 0x1C00, z 1.0 = 0x0800.
        assert_eq!((r(6), r(7)), (0x1C00_0000, 0x0800));
        assert_eq!(r(9), 0b10);
        // f20 1.0 = 0x3F000, -0.5 = 0xBE000.
        assert_eq!((r(0xA), r(0xB)), (0x3_F000, 0xB_E000));
        assert_eq!(reg(&gpu, id::LIGHTING_AMBIENT), 0x0401_4060);
        assert_eq!(reg(&gpu, id::LIGHTING_NUM_LIGHTS), 2);
        // Config 8 in bits 4-7, 4 in 8-11, bit 31.
        assert_eq!(reg(&gpu, id::LIGHTING_CONFIG0), 0x8000_0480);
        assert_eq!(reg(&gpu, id::LIGHTING_CONFIG1), 0xFF7F_FFFF);
        assert_eq!(reg(&gpu, id::LIGHTING_LIGHT_PERMUTATION), 0x513);
        assert_eq!(reg(&gpu, id::LIGHTING_ENABLE0), 1);
        assert_eq!(reg(&gpu, id::LIGHTING_ENABLE1), 0);
        let luts = gpu.regs().luts();
        // Value 0xFFF, difference -1: magnitude 1 in bits 12-22, sign in bit 23.
        assert_eq!(luts.lighting[11][..3], [0x0080_1FFF, 7, 0]);
        // Sign-magnitude both ways, and the magnitude saturates.
        assert_eq!(lighting_lut_entry(0x123, 0x7FF), 0x007F_F123);
        assert_eq!(lighting_lut_entry(0, -0x7FF), 0x00FF_F000);
        assert_eq!(lighting_lut_entry(0, -5000), 0x00FF_F000);
        assert!(luts.lighting[1].iter().all(|&e| e == 0x800));
    }

    /// Fog LUT entries (difference bits 0-12, value 13-23), the ramp, colour; proctex words and
    /// LUTs; gas; shadow; fragment mode.
    #[test]
    fn builder_fog_proctex_gas_shadow_words() {
        assert_eq!(fog_lut_entry(0x7FF, -1), 0x00FF_FFFF);
        assert_eq!(fog_lut_entry(0x400, 0x20), 0x0080_0020);
        let ramp = fog_lut_ramp(32, 96);
        assert_eq!(ramp.len(), 128);
        assert_eq!((ramp[0], ramp[31]), (0, 0));
        // Entry 32 value 0, next 0x7FF / 64 = 31 → difference 31; entry 96 on is 0x7FF, 0.
        assert_eq!(ramp[32], 31);
        assert_eq!((ramp[96], ramp[127]), (0x7FF << 13, 0x7FF << 13));
        let mut b = Builder::new();
        b.fog_color([1, 2, 3]);
        b.fog_lut(&ramp);
        b.proctex(&[1, 2, 3, 4, 5, 6]);
        b.proctex_lut(ProctexLutTable::Color, 4, &[0xAABB_CCDD, 0x1122_3344]);
        b.gas(0.5, 1.0, [7, 8, 9], regs::GasDeltazDepth(0x0100_0100));
        b.gas_lut(&[0x11, 0x22]);
        b.fragop_shadow(1.0, 0.5);
        b.fragment_mode(ColorOperationFragmentMode::Shadow);
        let gpu = run(&b);
        assert_eq!(reg(&gpu, id::FOG_COLOR), 0x0003_0201);
        let p: Vec<u32> = (0..6)
            .map(|i| reg(&gpu, id::TEXUNIT3_PROCTEX0 + i))
            .collect();
        assert_eq!(p, [1, 2, 3, 4, 5, 6]);
        // f16 0.5 = 0x3800, 1.0 = 0x3C00.
        assert_eq!(reg(&gpu, id::GAS_ATTENUATION), 0x3800);
        assert_eq!(reg(&gpu, id::GAS_ACCMAX), 0x3C00);
        assert_eq!(reg(&gpu, id::GAS_LIGHT_Z_COLOR), 9);
        assert_eq!(reg(&gpu, id::GAS_DELTAZ_DEPTH), 0x0100_0100);
        // 1.5 = 0x3E00 low, -1.0 = 0xBC00 high.
        assert_eq!(reg(&gpu, id::FRAGOP_SHADOW), 0xBC00_3E00);
        assert_eq!(reg(&gpu, id::COLOR_OPERATION), 0x00E4_0103);
        let luts = gpu.regs().luts();
        assert_eq!(luts.fog[..128], ramp[..]);
        assert_eq!(luts.proctex[3][3..7], [0, 0xAABB_CCDD, 0x1122_3344, 0]);
        assert_eq!(luts.gas[..3], [0x11, 0x22, 0]);
    }

    /// The seven-attribute vertex: the output map words, and the attribute layout (7 floats×4
    /// in buffer 0, 112 bytes a vertex).
    #[test]
    fn builder_full_vertex_outmap_and_layout() {
        let m = full_outmap();
        assert_eq!(
            m.words(),
            [
                0x0302_0100,
                0x0706_0504,
                0x0B0A_0908,
                0x1F10_0D0C,
                0x1F1F_0F0E,
                0x1F1F_1716,
                0x1F14_1312
            ]
        );
        assert_eq!(m.register_mask(), 0x7F);
        let mut b = Builder::standard(FbConfig::new(32, 32), Clear::color([0; 4])).unwrap();
        b.full_vertex_shader().unwrap();
        let v = FullVertex::xy_uv(0.5, -0.5, 0.25, 0.75).with_tc0([0.25, 0.75, 2.0]);
        b.full_vertex_array(&[v, v]);
        let gpu = run(&b);
        assert_eq!(reg(&gpu, id::SH_OUTMAP_TOTAL), 7);
        assert_eq!(reg(&gpu, id::SH_OUTMAP_O0 + 3), 0x1F10_0D0C);
        let cfg2 = regs::AttribbufferConfig2(reg(&gpu, id::ATTRIBBUFFER0_OFFSET + 2));
        assert_eq!((cfg2.bytes_per_vertex(), cfg2.component_count()), (112, 7));
        assert_eq!(reg(&gpu, id::ATTRIBBUFFER0_OFFSET + 1), 0x0654_3210);
        // Inputs v0-v6: 7 attributes.
        assert_eq!(
            regs::VshNumAttr(reg(&gpu, id::VSH_NUM_ATTR)).num_attr_minus_1(),
            6
        );
        // The data: texcoord0 (0.25, 0.75, 2, 0) is the fourth vec4.
        let d = b.data();
        let f = |i: usize| f32::from_le_bytes(d[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!([f(12), f(13), f(14), f(15)], [0.25, 0.75, 2.0, 0.0]);
    }

    /// Texture memory goes into the case at TEX_BASE.
    #[test]
    fn builder_texture_memory_image_at_tex_base() {
        let mut b = Builder::standard(FbConfig::new(8, 8), Clear::color([0; 4])).unwrap();
        let a = b.alloc_texture(&[1, 2, 3, 4]);
        let c = b.alloc_texture(&[5, 6, 7, 8]);
        assert_eq!((a, c), (TEX_BASE, TEX_BASE + 128));
        let s = b.finish("test/tex", "texture memory").unwrap();
        let img = s.case.images.iter().find(|i| i.base == TEX_BASE).unwrap();
        assert_eq!(img.words[0], 0x0403_0201);
        assert_eq!(img.words[32], 0x0807_0605);
    }
}
