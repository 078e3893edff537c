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
