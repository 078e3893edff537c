//! Every knob of `pica_model::knobs` outside the shader units changes a result when set to a
//! non-default value (a test per knob that fails if the knob did nothing), through the path
//! the GPU uses: the register file's knobs, read where the stage decodes its registers.
//! The shader units' knobs are tested in `shader_knobs.rs`.

mod common;

use pica_model::clip::{self, CullMode};
use pica_model::fop::FopConfig;
use pica_model::knobs::Knobs;
use pica_model::light::config::{LutInput, LutSel};
use pica_model::light::LutInputs;
use pica_model::num::F24;
use pica_model::pipe::{semantic, Fragment, OutVertex, ScreenTri, ScreenVertex, NUM_SEMANTICS};
use pica_model::rast::config::{DepthMode, RastConfig, ScissorMode};
use pica_model::rast::{self, EarlyDepthBuffer};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::{Gpu, Memory, Outcome};

fn knobs(set: &[&str]) -> Knobs {
    let mut k = Knobs::default();
    for s in set {
        k.set(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    k
}

fn regs_with(set: &[&str], writes: &[(u16, u32)]) -> RegFile {
    let mut r = RegFile::new();
    r.set_knobs(knobs(set));
    for &(i, v) in writes {
        r.write(i, v);
    }
    r
}

fn f(x: f64) -> F24 {
    F24::from_f64_trunc(x)
}

/// Every area knob has a test below (the names are listed here so a new knob without a test
/// fails).
#[test]
fn knobs_every_area_knob_is_listed_here() {
    let tested = [
        "cp-end-value",
        "cp-jump-rest",
        "regs-trigger-value",
        "regs-geostage-reserved",
        "regs-unit3-config",
        "regs-fifo-data-mask",
        "regs-packer-reset",
        "f32-to-f24-uniform",
        "vl-type2",
        "vl-f32-to-f24",
        "vl-duplicate-attribute",
        "vl-mismatch-hang",
        "vl-cache-policy", // tests/vl.rs: vl_post_vertex_cache_lru_knob_refreshes_on_a_hit
        "gs-new-draw",
        "pa-color-nan",
        "pa-draw-restarts", // tests/pa_clip.rs: pa_draw_restarts_knob_leak_joins_two_draws
        "clip-w-plane",
        "clip-cull-reserved",
        "clip-edge-order",
        "rast-scissor-mode2",
        "rast-scissor-x2y2",
        "rast-wbuffer",
        "rast-depth-format1",
        "rast-fix12p4",
        "rast-fill-rule",
        "rast-color-conversion",
        "rast-depth-conversion",
        "tex3-reserved-coords",
        "tex-reserved-type",
        "tex-filter-rounding",
        "tex-unmapped",
        "proctex-noise-amplitude",
        "tex-min-level-size",
        "tex-reserved-format",
        "tex-alpha-only-colour",
        "light-lut-clamp",
        "light-abs-one-sided",
        "light-enable",
        "light-fixed-1-1-11",
        "light-output-rounding",
        "light-shadow-primary",
        "tev-stage0-previous",
        "fog-depth-widen",
        "fog-reserved-modes",
        "fop-blend-factor15",
        "fop-blend-rounding",
        "fop-bad-format",
        "fop-shadow-word",
        "fop-rgb8-order",
        "fop-color-conversion",
    ];
    let names: Vec<&str> = pica_model::knobs::AREA.iter().map(|k| k.name).collect();
    assert_eq!(names, tested);
}

// ---- cp --------------------------------------------------------------------------------------

#[test]
fn knob_cp_end_value_nonzero_runs_past_a_zero_finalize() {
    // FINALIZE with value 0, a write of 0xABCD to SCISSORTEST_POS, FINALIZE with value 1.
    let words = [
        0,
        0x000F_0010,
        0xABCD,
        0x000F_0000 | u32::from(id::SCISSORTEST_POS),
        1,
        0x000F_0010,
        0,
        0x000F_0000,
    ];
    let run = |k: Knobs| {
        let mut mem = Memory::new();
        mem.write_words(0x2000_0000, &words).unwrap();
        let mut gpu = Gpu::new(mem);
        gpu.set_knobs(k);
        gpu.submit(0x2000_0000, 32).unwrap();
        assert!(matches!(gpu.run(1000), Outcome::Finished { .. }));
        gpu.regs().reg(id::SCISSORTEST_POS.into())
    };
    assert_eq!(run(Knobs::default()), 0);
    assert_eq!(run(knobs(&["cp-end-value=nonzero"])), 0xABCD);
}

#[test]
fn knob_cp_jump_rest_execute_writes_the_rest_of_the_command() {
    // Buffer 1 (at 0x2000_1000, 16 bytes) holds FINALIZE. Buffer 0 points CMDBUF 1 there, then
    // writes JUMP1, 0x23E, 0x23F in one consecutive burst, then FINALIZE (never reached).
    let first = [
        2,
        0x000F_0239, // CMDBUF_SIZE1 = 16 bytes
        0x2000_1000 >> 3,
        0x000F_023B, // CMDBUF_ADDR1
        1,
        0x8000_0000 | 2 << 20 | 0xF << 16 | 0x23D, // JUMP1, 0x23E, 0x23F
        0xAAAA,
        0xBBBB,
        0,
        0x000F_0010,
        0,
        0,
    ];
    let run = |k: Knobs| {
        let mut mem = Memory::new();
        mem.write_words(0x2000_0000, &first).unwrap();
        mem.write_words(0x2000_1000, &[0, 0x000F_0010, 0, 0])
            .unwrap();
        let mut gpu = Gpu::new(mem);
        gpu.set_knobs(k);
        gpu.submit(0x2000_0000, 4 * first.len() as u32).unwrap();
        let out = gpu.run(1000);
        assert!(matches!(out, Outcome::Finished { .. }), "{out:?}");
        (gpu.regs().reg(0x23E), gpu.regs().reg(0x23F))
    };
    assert_eq!(run(Knobs::default()), (0, 0));
    assert_eq!(run(knobs(&["cp-jump-rest=execute"])), (0xAAAA, 0xBBBB));
}

// ---- regs ------------------------------------------------------------------------------------

#[test]
fn knob_regs_trigger_value_nonzero_ignores_zero_writes() {
    let fired = |set: &[&str]| {
        let r = regs_with(set, &[(id::EARLYDEPTH_CLEAR, 0)]);
        r.triggers_since(&mut 0).len()
    };
    assert_eq!(fired(&[]), 1);
    assert_eq!(fired(&["regs-trigger-value=nonzero"]), 0);
}

#[test]
fn knob_regs_geostage_reserved_vs_propagates_to_unit3() {
    let w = [(id::GEOSTAGE_CONFIG, 1)];
    assert!(!regs_with(&[], &w).vs_propagates_to_unit3());
    assert!(regs_with(&["regs-geostage-reserved=vs"], &w).vs_propagates_to_unit3());
    // Value 2 (GS in use) stops propagation either way.
    let w2 = [(id::GEOSTAGE_CONFIG, 2)];
    assert!(!regs_with(&["regs-geostage-reserved=vs"], &w2).vs_propagates_to_unit3());
}

#[test]
fn knob_regs_unit3_config_seed_keeps_unit3_gsh_entry_input_and_permutation() {
    // No GS, COM_MODE 0: the GSH values first, then the VSH ones (citro3d's order).
    let w = [
        (id::GSH_ENTRYPOINT, 0x7FFF_0040),
        (id::GSH_INPUTBUFFER_CONFIG, 0xA000_0000),
        (id::GSH_ATTRIBUTES_PERMUTATION_LOW, 0x7654_3210),
        (id::VSH_ENTRYPOINT, 0x7FFF_0025),
        (id::VSH_INPUTBUFFER_CONFIG, 0xA000_0002),
        (id::VSH_ATTRIBUTES_PERMUTATION_LOW, 0x102),
    ];
    let unit3 = |set: &[&str]| {
        let r = regs_with(set, &w);
        let u = &r.units()[3];
        (u.entry_point, u.input_config, u.permutation)
    };
    assert_eq!(unit3(&[]), (0x25, 0xA000_0002, 0x102));
    assert_eq!(
        unit3(&["regs-unit3-config=seed"]),
        (0x40, 0xA000_0000, 0x7654_3210)
    );
}

/// Float uniform c0.x of unit 0 after `writes` (each `(id, mask, value)`).
fn uniform_after(set: &[&str], writes: &[(u16, u8, u32)]) -> u32 {
    let mut r = RegFile::new();
    r.set_knobs(knobs(set));
    for &(id, mask, param) in writes {
        let w = pica_model::cp::RegWrite {
            id: id.into(),
            mask,
            param,
        };
        r.apply(0, w, &mut Vec::new());
    }
    r.units()[0].float_uniforms[0][0].bits()
}

#[test]
fn knob_regs_fifo_data_mask_raw_pushes_the_unmasked_parameter() {
    // f24 mode: three words; the last (x in its low 24 bits) written with mask 0x1 only.
    let writes = [
        (id::VSH_FLOATUNIFORM_INDEX, 0xF, 0),
        (id::VSH_FLOATUNIFORM_DATA0, 0xF, 0),
        (id::VSH_FLOATUNIFORM_DATA0, 0xF, 0),
        (id::VSH_FLOATUNIFORM_DATA0, 0x1, 0x003F_0000),
    ];
    assert_eq!(uniform_after(&[], &writes), 0);
    assert_eq!(
        uniform_after(&["regs-fifo-data-mask=raw"], &writes),
        0x3F_0000
    );
}

#[test]
fn knob_regs_packer_reset_keep_completes_a_partial_vec4() {
    // Two f24 words, an index write, then one word: a vec4 only if the two words stayed.
    let writes = [
        (id::VSH_FLOATUNIFORM_INDEX, 0xF, 0),
        (id::VSH_FLOATUNIFORM_DATA0, 0xF, 0),
        (id::VSH_FLOATUNIFORM_DATA0, 0xF, 0),
        (id::VSH_FLOATUNIFORM_INDEX, 0xF, 0),
        (id::VSH_FLOATUNIFORM_DATA0, 0xF, 0x003F_0000),
    ];
    assert_eq!(uniform_after(&[], &writes), 0);
    assert_eq!(
        uniform_after(&["regs-packer-reset=keep"], &writes),
        0x3F_0000
    );
}

#[test]
fn knob_f32_to_f24_uniform_nearest_rounds() {
    // 1 + 2^-16 + 2^-17 + 2^-23: the dropped bits are above one half.
    let x = 0x3F80_0000 | 0x7F | 0x80;
    let upload = |set: &[&str]| {
        let r = regs_with(
            set,
            &[
                (id::VSH_FLOATUNIFORM_INDEX, 1 << 31),
                (id::VSH_FLOATUNIFORM_DATA0, x),
                (id::VSH_FLOATUNIFORM_DATA0, x),
                (id::VSH_FLOATUNIFORM_DATA0, x),
                (id::VSH_FLOATUNIFORM_DATA0, x),
            ],
        );
        r.units()[0].float_uniforms[0][0].bits()
    };
    assert_eq!(upload(&[]), 0x3F_0001);
    assert_eq!(upload(&["f32-to-f24-uniform=nearest"]), 0x3F_0002);
    // Ties go to even; a carry reaches the exponent; MAX rounds up to infinity.
    assert_eq!(F24::from_f32_bits_nearest(0x3F80_0040).bits(), 0x3F_0000);
    assert_eq!(F24::from_f32_bits_nearest(0x3F80_00C0).bits(), 0x3F_0002);
    assert_eq!(F24::from_f32_bits_nearest(0x3FFF_FFFF).bits(), 0x40_0000);
    assert_eq!(
        F24::from_f32_bits_nearest(F24::MAX.to_f32_bits() | 0x7F),
        F24::INFINITY
    );
    assert!(F24::from_f32_bits_nearest(0x7FC0_0000).is_nan());
}

// ---- vl --------------------------------------------------------------------------------------

/// One array attribute (attribute 0) of `nibble` format in buffer 0 at 0x2000_0000, whose
/// component list is `components` (codes) with `count` entries, stride `stride`.
fn vl_regs(set: &[&str], nibble: u32, components: u32, count: u32, stride: u32) -> RegFile {
    regs_with(
        set,
        &[
            (id::ATTRIBBUFFERS_LOC, 0x2000_0000 >> 3),
            (id::ATTRIBBUFFERS_FORMAT_LOW, nibble),
            (id::ATTRIBBUFFER0_OFFSET, 0),
            (id::ATTRIBBUFFER0_OFFSET + 1, components),
            (id::ATTRIBBUFFER0_OFFSET + 2, stride << 16 | count << 28),
        ],
    )
}

fn vl_read(set: &[&str], nibble: u32, raw: &[u32]) -> F24 {
    let regs = vl_regs(set, nibble, 0, 1, 4);
    let mut mem = Memory::new();
    mem.write_words(0x2000_0000, raw).expect("mapped");
    let layout = pica_model::vl::layout::Layout::decode(&regs);
    let src = layout.sources[0].expect("attribute 0 bound");
    layout.read(&mem, &src, 0).expect("readable")[0]
}

#[test]
fn knob_vl_type2_unsigned_reads_0xffff_as_65535() {
    // Type 2 (short), one component.
    assert_eq!(vl_read(&[], 2, &[0xFFFF]), f(-1.0));
    assert_eq!(vl_read(&["vl-type2=unsigned"], 2, &[0xFFFF]), f(65535.0));
}

#[test]
fn knob_vl_f32_to_f24_nearest_rounds() {
    let x = 0x3F80_00FF; // dropped bits above one half
    assert_eq!(vl_read(&[], 3, &[x]).bits(), 0x3F_0001);
    assert_eq!(
        vl_read(&["vl-f32-to-f24=nearest"], 3, &[x]).bits(),
        0x3F_0002
    );
}

#[test]
fn knob_vl_duplicate_attribute_first_keeps_the_first_component() {
    // Components: attribute 0, attribute 0 (a float each: offsets 0 and 4).
    let offset = |set: &[&str]| {
        let l = pica_model::vl::layout::Layout::decode(&vl_regs(set, 3, 0x00, 2, 8));
        l.sources[0].unwrap().offset
    };
    assert_eq!(offset(&[]), 4);
    assert_eq!(offset(&["vl-duplicate-attribute=first"]), 0);
}

#[test]
fn knob_vl_mismatch_hang_read_checks_only_buffers_the_draw_reads() {
    // Buffer 0 feeds attribute 0 with a wrong stride (8 for one float); the draw reads one
    // attribute... of buffer 1 instead: attribute 0 comes from buffer 1 (listed later: the
    // last one wins), so buffer 0 feeds nothing the draw reads.
    let regs = regs_with(
        &[],
        &[
            (id::ATTRIBBUFFERS_FORMAT_LOW, 3),
            (id::ATTRIBBUFFER0_OFFSET + 1, 0),
            (id::ATTRIBBUFFER0_OFFSET + 2, 8 << 16 | 1 << 28),
            (id::ATTRIBBUFFER0_OFFSET + 4, 0),
            (id::ATTRIBBUFFER0_OFFSET + 5, 4 << 16 | 1 << 28),
        ],
    );
    let mut l = pica_model::vl::layout::Layout::decode(&regs);
    assert_eq!(l.sources[0].map(|s| s.buffer), Some(1));
    assert!(l.check_strides().is_err());
    let mut r2 = regs.clone();
    r2.set_knobs(knobs(&["vl-mismatch-hang=read"]));
    l = pica_model::vl::layout::Layout::decode(&r2);
    assert!(l.check_strides().is_ok());
}

// ---- sh --------------------------------------------------------------------------------------

/// A point-mode GS of three vertices' inputs after a draw that left two of them buffered: by
/// default the next draw starts empty (its own three vertices make the triangle); with
/// `gs-new-draw=keep` the first vertex of the second draw completes the first draw's
/// primitive instead.
#[test]
fn knob_gs_new_draw_keep_carries_a_partial_primitive_into_the_next_draw() {
    use common::gs;
    let tri = |set: &[&str]| {
        let mut l = gs::gs_setup(gs::GS_POINT, 6);
        gs::draw(&mut l, false, 2);
        l.write(id::VERTEX_OFFSET, 3);
        gs::draw(&mut l, false, 3);
        let (gpu, o) = gs::run_with(&mut l, &gs::six(), &[], knobs(set));
        assert!(matches!(o, Outcome::Finished { .. }), "{o}");
        gs::primitives(&gpu)
    };
    assert_eq!(tri(&[]), [[(0.0, 0.0), (0.75, 0.0), (0.75, 0.75)]]);
    assert_eq!(
        tri(&["gs-new-draw=keep"]),
        [[(-0.75, -0.75), (0.0, -0.75), (0.0, 0.0)]]
    );
}

// ---- pa --------------------------------------------------------------------------------------

#[test]
fn knob_pa_color_nan_zero() {
    let writes = [
        (id::SH_OUTMAP_TOTAL, 1),
        (id::SH_OUTMAP_O0, 0x0B0A_0908), // colour r, g, b, a
    ];
    let out = [[F24::NAN, f(0.5), f(0.5), f(0.5)]];
    let red = |set: &[&str]| {
        pica_model::pa::map_outputs(&regs_with(set, &writes), out.iter()).attr[semantic::COLOR]
    };
    assert_eq!(red(&[]), F24::ONE);
    assert_eq!(red(&["pa-color-nan=zero"]), F24::ZERO);
}

// ---- clip ------------------------------------------------------------------------------------

fn vertex(p: [f64; 4]) -> OutVertex {
    let mut v = OutVertex::ONES;
    for (i, c) in p.iter().enumerate() {
        v.attr[semantic::POSITION + i] = f(*c);
    }
    v
}

#[test]
fn knob_clip_w_plane_neg_eps_keeps_a_w_zero_vertex() {
    let tri = [
        vertex([0.0, 0.0, -0.5, 1.0]),
        vertex([0.5, 0.0, -0.5, 1.0]),
        vertex([0.0, 0.0, 0.0, 0.0]),
    ];
    let eps = clip::clip_triangle(&regs_with(&[], &[]), &tri);
    let neg = clip::clip_triangle(&regs_with(&["clip-w-plane=neg-eps"], &[]), &tri);
    assert_eq!(neg.len(), 3);
    assert_eq!(neg[2], tri[2]);
    assert_ne!(eps, neg);
}

#[test]
fn knob_clip_cull_reserved() {
    let w = [(id::FACECULLING_CONFIG, 3)];
    let mode = |set: &[&str]| CullMode::from_regs(&regs_with(set, &w));
    assert_eq!(mode(&[]), CullMode::CullCw);
    assert_eq!(mode(&["clip-cull-reserved=like-1"]), CullMode::CullCcw);
    assert_eq!(mode(&["clip-cull-reserved=none"]), CullMode::None);
}

#[test]
fn knob_clip_edge_order_ordered_cuts_an_edge_at_one_point_both_ways() {
    // The polygon [a, b] (a inside x <= w, b outside) walks the edge both ways: b → a first,
    // then a → b, so its output is [crossing(b → a), a, crossing(a → b)].
    let mut seed = 0x1234_5678_u32;
    let mut next = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        f64::from(seed >> 8) / f64::from(1u32 << 24)
    };
    let mut found = None;
    for _ in 0..200 {
        let a = vertex([next() * 0.9, next(), -next(), 1.0]);
        let b = vertex([1.1 + next() * 3.0, next(), -next(), 1.0 + next() * 0.1]);
        let both = |order| {
            let p = clip::clip_polygon_with(&[a, b], clip::Plane::XPos, order);
            assert_eq!(p.len(), 3);
            (p[0], p[2])
        };
        let (x, y) = both(pica_model::knobs::ClipEdgeOrder::Direction);
        if x != y && found.is_none() {
            found = Some((a, b));
        }
        let (x, y) = both(pica_model::knobs::ClipEdgeOrder::Ordered);
        assert_eq!(x, y, "ordered crossings agree");
    }
    let (a, b) = found.expect("the direction-dependent crossing differs on some edge");
    // Through the registers: a triangle that walks that edge from b to a.
    let tri = [vertex([0.0, 0.5, -0.5, 1.0]), b, a];
    let cut = |set: &[&str]| clip::clip_triangle(&regs_with(set, &[]), &tri);
    assert_eq!(cut(&[]).len(), 4);
    assert_ne!(cut(&[]), cut(&["clip-edge-order=ordered"]));
}

// ---- rast ------------------------------------------------------------------------------------

fn rast_cfg(set: &[&str], writes: &[(u16, u32)]) -> RastConfig {
    RastConfig::from_regs(&regs_with(set, writes))
}

#[test]
fn knob_rast_scissor_mode2() {
    let w = [(id::SCISSORTEST_MODE, 2)];
    assert_eq!(rast_cfg(&[], &w).scissor_mode, ScissorMode::Disabled);
    let c = rast_cfg(&["rast-scissor-mode2=inside"], &w);
    assert_eq!(c.scissor_mode, ScissorMode::Inside);
    let c = rast_cfg(&["rast-scissor-mode2=outside"], &w);
    assert_eq!(c.scissor_mode, ScissorMode::Outside);
}

#[test]
fn knob_rast_scissor_x2y2_exclusive_drops_the_last_column() {
    let w = [
        (id::SCISSORTEST_MODE, 3),
        (id::SCISSORTEST_POS, 0),
        (id::SCISSORTEST_DIM, 10 | 10 << 16),
    ];
    assert!(rast_cfg(&[], &w).scissor_passes(10, 5));
    assert!(!rast_cfg(&["rast-scissor-x2y2=exclusive"], &w).scissor_passes(10, 5));
    assert!(rast_cfg(&["rast-scissor-x2y2=exclusive"], &w).scissor_passes(9, 5));
}

#[test]
fn knob_rast_wbuffer_one() {
    let w = [(id::DEPTHMAP_ENABLE, 1)];
    assert_eq!(rast_cfg(&[], &w).depth_mode, DepthMode::ZBuffer);
    assert_eq!(
        rast_cfg(&["rast-wbuffer=one"], &w).depth_mode,
        DepthMode::WBuffer
    );
}

#[test]
fn knob_rast_depth_format1_16() {
    let w = [(id::DEPTHBUFFER_FORMAT, 1)];
    assert_eq!(rast_cfg(&[], &w).depth_bits, 24);
    assert_eq!(rast_cfg(&["rast-depth-format1=16"], &w).depth_bits, 16);
    // FOG reads the same width.
    let r = regs_with(&["rast-depth-format1=16"], &w);
    assert_eq!(pica_model::fog::depth_bits(&r), 16);
}

fn screen_vertex(x: f64, y: f64) -> ScreenVertex {
    ScreenVertex {
        x: f(x),
        y: f(y),
        z: f(0.5),
        inv_w: F24::ONE,
        v: OutVertex::ONES,
    }
}

/// The fragments (x, y, depth) of a triangle on a 16x16 framebuffer.
fn raster(set: &[&str], v: [(f64, f64); 3]) -> Vec<(u16, u16, u32)> {
    let tri = ScreenTri {
        seq: 0,
        v: v.map(|(x, y)| screen_vertex(x, y)),
    };
    let cfg = rast_cfg(
        set,
        &[
            (id::FRAMEBUFFER_DIM, 16 | 15 << 12),
            (id::DEPTHMAP_ENABLE, 1),
            (id::DEPTHBUFFER_FORMAT, 2), // D24
        ],
    );
    rast::rasterize(&tri, cfg, &mut EarlyDepthBuffer::new())
        .iter()
        .map(|f: &Fragment| (f.x, f.y, f.depth))
        .collect()
}

#[test]
fn knob_rast_fix12p4_truncate() {
    // 1.5 sixteenths: rounds to 2, truncates to 1.
    let x = f(0.09375);
    assert_eq!(rast::to_fix12p4(x), 2);
    assert_eq!(
        rast::setup::to_fix12p4_with(x, pica_model::knobs::RastFix12p4::Truncate),
        1
    );
    // Through RAST: a vertex at 4.53125 (72.5 sixteenths) rounds onto 73 or truncates to 72,
    // moving the edge across the pixel centre column 4 (x = 4.5 = 72 sixteenths).
    let tri = [(4.53125, 0.0), (4.53125, 8.0), (12.0, 0.0)];
    assert_ne!(raster(&[], tri), raster(&["rast-fix12p4=truncate"], tri));
}

#[test]
fn knob_rast_fill_rule_changes_shared_edge_pixels() {
    // The hypotenuse x + y = 8 passes through pixel centres.
    let tri = [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)];
    let azahar = raster(&[], tri);
    let opposite = raster(&["rast-fill-rule=opposite"], tri);
    let inclusive = raster(&["rast-fill-rule=inclusive"], tri);
    assert_ne!(azahar, opposite);
    assert!(inclusive.len() >= azahar.len().max(opposite.len()));
    assert_ne!(azahar.len(), opposite.len());
}

#[test]
fn knob_rast_depth_conversion_round() {
    let d = f(0.5);
    assert_eq!(rast::interp::depth_to_uint(d, 16), 32767);
    assert_eq!(
        rast::interp::depth_to_uint_with(d, 16, pica_model::knobs::RastDepthConversion::Round),
        32768
    );
    // Through RAST: the fragment depth of z = 0.5 in D24 (0x7FFFFF.8).
    let tri = [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)];
    let depth = |set: &[&str]| raster(set, tri)[0].2;
    assert_eq!(depth(&[]), 0x7F_FFFF);
    assert_eq!(depth(&["rast-depth-conversion=round"]), 0x80_0000);
}

#[test]
fn knob_rast_color_conversion_truncate() {
    use pica_model::knobs::RastColorConversion as C;
    assert_eq!(rast::interp::color_to_u8(f(0.5)), 128); // 127.5
    assert_eq!(rast::interp::color_to_u8_with(f(0.5), C::Truncate), 127);
    let cfg = rast_cfg(&["rast-color-conversion=truncate"], &[]);
    assert_eq!(cfg.color_conversion, C::Truncate);
    assert_eq!(rast_cfg(&[], &[]).color_conversion, C::Round);
}

// ---- tex -------------------------------------------------------------------------------------

#[test]
fn knob_proctex_noise_amplitude_4095() {
    use pica_model::knobs::ProctexNoiseAmplitude as A;
    use pica_model::tex::proctex::{noise_offset_with, ProctexConfig, NOISE_SCALE};
    // Coefficient 1, amplitude raw 4095: 4095/4096 or exactly 1 (4096 in 2^-12 units).
    assert_eq!(noise_offset_with(NOISE_SCALE, 4095, A::Div4096), 4095);
    assert_eq!(noise_offset_with(NOISE_SCALE, 4095, A::Div4095), 4096);
    let r = regs_with(&["proctex-noise-amplitude=4095"], &[]);
    assert_eq!(ProctexConfig::read(&r).noise_amplitude, A::Div4095);
}

#[test]
fn knob_tex3_reserved_coords() {
    let w = [(id::TEXUNIT_CONFIG, 3 << 8)];
    assert_eq!(pica_model::tex::tex3_coord_set(&regs_with(&[], &w)), 0);
    let r = regs_with(&["tex3-reserved-coords=texcoord2"], &w);
    assert_eq!(pica_model::tex::tex3_coord_set(&r), 2);
}

#[test]
fn knob_tex_reserved_type_disabled() {
    // Unit 0 on, type 6 (reserved), an 8x8 texture at unmapped address 0: 2D sampling reads
    // memory (and hangs there), the disabled reading gives zero without reading.
    let w = [
        (id::TEXUNIT_CONFIG, 1),
        (id::TEXUNIT0_DIM, 8 << 16 | 8),
        (id::TEXUNIT0_PARAM, 6 << 28),
    ];
    let sample = |set: &[&str]| {
        pica_model::tex::texture_units(
            &fragment(),
            &regs_with(set, &w),
            &Memory::new(),
            &mut Vec::new(),
        )
    };
    assert!(sample(&[]).is_err());
    assert_eq!(sample(&["tex-reserved-type=disabled"]).unwrap()[0], [0; 4]);
}

#[test]
fn knob_tex_filter_rounding_truncate() {
    use pica_model::knobs::TexFilterRounding as R;
    use pica_model::tex::sample::{bilinear_with, lerp_levels_with};
    // Half of 1 and 0: 0.5 rounds up to 1, truncates to 0.
    let c = [[1, 1, 1, 1], [0; 4], [1, 1, 1, 1], [0; 4]];
    assert_eq!(bilinear_with(c, 128, 0, R::HalfUp)[0], 1);
    assert_eq!(bilinear_with(c, 128, 0, R::Truncate)[0], 0);
    assert_eq!(lerp_levels_with([1; 4], [0; 4], 128, R::HalfUp)[0], 1);
    assert_eq!(lerp_levels_with([1; 4], [0; 4], 128, R::Truncate)[0], 0);
    // Through texture unit 0: an 8x8 RGBA8 texture of texels 1 and 0 in alternate columns,
    // linear filtering, sampled between two columns.
    let mut mem = Memory::new();
    let texels: Vec<u32> = (0..64)
        .map(|k| if k % 2 == 0 { 0x0101_0101 } else { 0 })
        .collect();
    mem.write_words(0x1800_0000, &texels).expect("VRAM");
    let w = [
        (id::TEXUNIT_CONFIG, 1),
        (id::TEXUNIT0_DIM, 8 << 16 | 8),
        (id::TEXUNIT0_ADDR1, 0x1800_0000 >> 3),
        (id::TEXUNIT0_PARAM, 1 << 1), // mag filter linear
    ];
    let mut frag = fragment();
    // Texel centres sit at (i + 0.5) / 8; halfway between columns 0 and 1 is u = 1/8.
    frag.attr[semantic::TEXCOORD0] = f(0.125);
    frag.attr[semantic::TEXCOORD0 + 1] = f(0.5625);
    let sample = |set: &[&str]| {
        pica_model::tex::texture_units(&frag, &regs_with(set, &w), &mem, &mut Vec::new())
            .expect("mapped")[0]
    };
    assert_ne!(sample(&[]), sample(&["tex-filter-rounding=truncate"]));
}

fn fragment() -> Fragment {
    Fragment {
        x: 0,
        y: 0,
        depth: 0,
        color: [10, 20, 30, 40],
        attr: [F24::ZERO; NUM_SEMANTICS],
        tri: 0,
        tex_deriv: [[F24::ZERO; 4]; 3],
    }
}

#[test]
fn knob_tex_unmapped_zero_samples_instead_of_hanging() {
    // Unit 0 on, an 8x8 RGBA8 texture at address 0 (unmapped: the memory is empty).
    let w = [(id::TEXUNIT_CONFIG, 1), (id::TEXUNIT0_DIM, 8 << 16 | 8)];
    let sample = |set: &[&str]| {
        pica_model::tex::texture_units(
            &fragment(),
            &regs_with(set, &w),
            &Memory::new(),
            &mut Vec::new(),
        )
    };
    assert!(sample(&[]).is_err());
    assert_eq!(sample(&["tex-unmapped=zero"]).unwrap()[0], [0, 0, 0, 0]);
}

/// Unit 0 sampled at (0.5, 0.5), nearest, with `w` over an 8x8 texture in VRAM whose words
/// are `word(k)`.
fn tex_sample(set: &[&str], w: &[(u16, u32)], word: impl Fn(u32) -> u32) -> [u8; 4] {
    let mut mem = Memory::new();
    let texels: Vec<u32> = (0..1024).map(word).collect();
    mem.write_words(0x1800_0000, &texels).expect("VRAM");
    let mut regs = vec![
        (id::TEXUNIT_CONFIG, 1),
        (id::TEXUNIT0_ADDR1, 0x1800_0000 >> 3),
    ];
    regs.extend_from_slice(w);
    let mut frag = fragment();
    frag.attr[semantic::TEXCOORD0] = f(0.5);
    frag.attr[semantic::TEXCOORD0 + 1] = f(0.5);
    pica_model::tex::texture_units(&frag, &regs_with(set, &regs), &mem, &mut Vec::new())
        .expect("mapped")[0]
}

#[test]
fn knob_tex_min_level_size_1_shrinks_below_a_tile() {
    use pica_model::tex::{level_dim_min, level_offset_min};
    assert_eq!(level_dim_min(8, 2, 8), 8);
    assert_eq!(level_dim_min(8, 2, 1), 2);
    let fmt = pica_model::tex::format::Format::Rgba8888;
    assert_eq!(level_offset_min(fmt, 8, 8, 2, 8), 512);
    assert_eq!(level_offset_min(fmt, 8, 8, 2, 1), 320);
    // An 8x8 RGBA8 texture read at level 2 (LOD min = max = 2); each word is its index.
    let w = [
        (id::TEXUNIT0_DIM, 8 << 16 | 8),
        (id::TEXUNIT0_LOD, 2 << 24 | 2 << 16),
    ];
    let one = |set: &[&str]| tex_sample(set, &w, |k| k);
    assert_ne!(one(&[]), one(&["tex-min-level-size=1"]));
}

#[test]
fn knob_tex_reserved_format_zero_reads_nothing() {
    // Format 14 at an unmapped address: RGBA8888 reads (and hangs), zero does not read.
    let w = [
        (id::TEXUNIT_CONFIG, 1),
        (id::TEXUNIT0_DIM, 8 << 16 | 8),
        (id::TEXUNIT0_TYPE, 14),
    ];
    let sample = |set: &[&str]| {
        pica_model::tex::texture_units(
            &fragment(),
            &regs_with(set, &w),
            &Memory::new(),
            &mut Vec::new(),
        )
    };
    assert!(sample(&[]).is_err());
    assert_eq!(sample(&["tex-reserved-format=zero"]).unwrap()[0], [0; 4]);
}

#[test]
fn knob_tex_alpha_only_colour_white() {
    // A8 (format 8), every byte 0x80.
    let w = [(id::TEXUNIT0_DIM, 8 << 16 | 8), (id::TEXUNIT0_TYPE, 8)];
    let a8 = |set: &[&str]| tex_sample(set, &w, |_| 0x8080_8080);
    assert_eq!(a8(&[]), [0, 0, 0, 0x80]);
    assert_eq!(a8(&["tex-alpha-only-colour=white"]), [255, 255, 255, 0x80]);
}

// ---- lighting --------------------------------------------------------------------------------

#[test]
fn knob_light_lut_clamp_extrapolate_extends_the_last_difference() {
    // LUT 0: entry k holds k * 16 / 4096 with the difference 8 / 2048 to the next.
    let mut w = vec![(id::LIGHTING_LUT_INDEX, 0)];
    w.extend((0..256).map(|k| (id::LIGHTING_LUT_DATA0, (k * 16) | (8 << 12))));
    let sel = LutSel {
        enabled: true,
        input: LutInput::Nh,
        abs: false,
        scale: F24::ONE,
    };
    let look = |set: &[&str], nh: f64| {
        let inputs = LutInputs {
            nh: f(nh),
            vh: F24::ZERO,
            nv: F24::ZERO,
            ln: F24::ZERO,
            sp: F24::ZERO,
            cp: F24::ZERO,
        };
        pica_model::light::lut_lookup(&sel, 0, &inputs, false, &regs_with(set, &w))
    };
    // Inside the domain both agree.
    assert_eq!(
        look(&[], 0.25),
        look(&["light-lut-clamp=extrapolate"], 0.25)
    );
    // 1.5: entry 127 (2032 / 4096) plus 65 entries' worth of its difference (8 / 2048 each).
    assert_eq!(look(&[], 1.5), f(0.5));
    assert_eq!(look(&["light-lut-clamp=extrapolate"], 1.5), f(0.75));
}

#[test]
fn knob_light_abs_one_sided_takes_the_absolute_value() {
    // LUT 0: entry k holds k * 16 / 4096.
    let mut w = vec![(id::LIGHTING_LUT_INDEX, 0)];
    w.extend((0..256).map(|k| (id::LIGHTING_LUT_DATA0, k * 16)));
    let sel = LutSel {
        enabled: true,
        input: LutInput::Nh,
        abs: true,
        scale: F24::ONE,
    };
    let inputs = LutInputs {
        nh: f(-0.5),
        vh: F24::ZERO,
        nv: F24::ZERO,
        ln: F24::ZERO,
        sp: F24::ZERO,
        cp: F24::ZERO,
    };
    let look =
        |set: &[&str]| pica_model::light::lut_lookup(&sel, 0, &inputs, false, &regs_with(set, &w));
    assert_eq!(look(&[]), F24::ZERO);
    assert_eq!(look(&["light-abs-one-sided=abs"]), f(0.5));
}

#[test]
fn knob_light_enable_enable1_alone() {
    let w = [(id::LIGHTING_ENABLE0, 0), (id::LIGHTING_ENABLE1, 0)];
    let on = |set: &[&str]| pica_model::light::config::lighting_enabled(&regs_with(set, &w));
    assert!(!on(&[]));
    assert!(on(&["light-enable=enable1"]));
}

#[test]
fn knob_light_fixed_1_1_11_2047() {
    // Light 0's spot direction x = 0x800 (1.0 with the 1/2048 weight).
    let w = [(id::LIGHT0_SPECULAR0 + 6, 0x800)];
    let x =
        |set: &[&str]| pica_model::light::config::light_regs(&regs_with(set, &w), 0).spot_dir[0];
    assert_eq!(x(&[]), F24::ONE);
    assert_eq!(x(&["light-fixed-1-1-11=2047"]), f(2048.0 / 2047.0));
}

#[test]
fn knob_light_output_rounding_truncate() {
    use pica_model::knobs::LightOutputRounding as R;
    assert_eq!(pica_model::light::to_u8(f(100.5)), 101);
    assert_eq!(pica_model::light::to_u8_with(f(100.5), R::Truncate), 100);
    assert_eq!(
        Knobs::default().light_output_rounding,
        R::Nearest,
        "the default is the model's long-standing rule"
    );
    assert_eq!(
        knobs(&["light-output-rounding=truncate"]).light_output_rounding,
        R::Truncate
    );
}

#[test]
fn knob_light_shadow_primary_diffuse_ambient_shadows_the_ambient() {
    use pica_model::knobs::LightShadowPrimary as S;
    let (d, dot, sp, a) = (f(0.5), f(1.0), f(0.5), f(0.25));
    let diffuse = pica_model::light::shadowed_diffuse(d, dot, sp, a, S::Diffuse);
    let both = pica_model::light::shadowed_diffuse(d, dot, sp, a, S::DiffuseAmbient);
    assert_eq!(diffuse, f(0.5));
    assert_eq!(both, f(0.375));
}

// ---- tev -------------------------------------------------------------------------------------

#[test]
fn knob_tev_stage0_previous_zero() {
    // Stage 0: RGB and alpha source 0 = previous (15), replace.
    let w = [(id::TEXENV0_SOURCE, 0x000F_000F)];
    let f0 = pica_model::pipe::ShadedFragment::new(fragment());
    let stage0 = |set: &[&str]| pica_model::tev::combine(&f0, &regs_with(set, &w)).stages[0].color;
    assert_eq!(stage0(&[]), [10, 20, 30, 40]);
    assert_eq!(stage0(&["tev-stage0-previous=zero"]), [0, 0, 0, 0]);
}

// ---- fog -------------------------------------------------------------------------------------

#[test]
fn knob_fog_depth_widen_shift() {
    let w = [(id::DEPTHBUFFER_FORMAT, 0)]; // D16
    let z = |set: &[&str]| pica_model::fog::fog_coordinate(0xFFFF, &regs_with(set, &w));
    assert_eq!(z(&[]), 0xFF_FFFF);
    assert_eq!(z(&["fog-depth-widen=shift"]), 0xFF_FF00);
}

#[test]
fn knob_fog_reserved_modes_fog() {
    // Mode 1 (reserved); an empty fog LUT (factor 0: the fog colour replaces the colour).
    let w = [(id::TEXENV_UPDATE_BUFFER, 1), (id::FOG_COLOR, 0x00C0_B0A0)];
    let fogged = |set: &[&str]| {
        let mut sf = pica_model::pipe::ShadedFragment::new(fragment());
        pica_model::fog::apply(&mut sf, &regs_with(set, &w));
        sf.color
    };
    assert_eq!(fogged(&[]), [10, 20, 30, 40]);
    assert_eq!(fogged(&["fog-reserved-modes=fog"]), [0xA0, 0xB0, 0xC0, 40]);
}

// ---- fop -------------------------------------------------------------------------------------

#[test]
fn knob_fop_blend_factor15_zero() {
    // Add; every factor 15.
    let w = [(id::BLEND_FUNC, 0xFFFF << 16)];
    let blend = |set: &[&str]| {
        FopConfig::from_regs(&regs_with(set, &w))
            .blend
            .apply([100; 4], [50; 4])
    };
    assert_eq!(blend(&[]), [150; 4]);
    assert_eq!(blend(&["fop-blend-factor15=zero"]), [0; 4]);
}

#[test]
fn knob_fop_blend_rounding_nearest() {
    // Add, source factor source alpha (6), destination factor zero.
    let w = [(id::BLEND_FUNC, 6 << 16)];
    let blend = |set: &[&str]| {
        FopConfig::from_regs(&regs_with(set, &w))
            .blend
            .apply([101, 101, 101, 128], [0; 4])
    };
    // 101 * 128 / 255 = 50.7
    assert_eq!(blend(&[])[0], 50);
    assert_eq!(blend(&["fop-blend-rounding=nearest"])[0], 51);
}

#[test]
fn knob_fop_color_conversion_nearest() {
    use pica_model::fop::fb::ColorFormat;
    let cfg = |set: &[&str]| FopConfig::from_regs(&regs_with(set, &[])).color_conversion;
    let c = [0xFF, 0x07, 0x06, 0xFF];
    // Truncation: g 7 >> 2 = 1, b 6 >> 3 = 0; nearest: 7·63/255 = 1.7 → 2, 6·31/255 = 0.7 → 1.
    assert_eq!(
        ColorFormat::Rgb565.encode_with(c, cfg(&[])),
        0xF800 | 1 << 5
    );
    assert_eq!(
        ColorFormat::Rgb565.encode_with(c, cfg(&["fop-color-conversion=nearest"])),
        0xF800 | 2 << 5 | 1
    );
}

#[test]
fn knob_fop_bad_format_drop_discards_instead_of_hanging() {
    // Colour format 5 (reserved).
    let w = [(id::COLORBUFFER_FORMAT, 5 << 16)];
    let run = |set: &[&str]| {
        let cfg = FopConfig::from_regs(&regs_with(set, &w));
        pica_model::fop::process_fragment(&cfg, &fragment(), [1, 2, 3, 4], &mut Memory::new(), 0)
    };
    assert!(run(&[]).is_err());
    let beat = run(&["fop-bad-format=drop"]).expect("no hang");
    assert_eq!(beat.flags, pica_model::beat::PixelBeat::DISCARDED);
}

#[test]
fn knob_fop_shadow_word_native() {
    use pica_model::fop::shadow::{decode_with, encode_with};
    use pica_model::knobs::FopShadowWord as W;
    assert_eq!(encode_with(0x12_3456, 0x78, W::Swapped), 0x7856_3412);
    assert_eq!(encode_with(0x12_3456, 0x78, W::Native), 0x1234_5678);
    assert_eq!(decode_with(0x1234_5678, W::Native), (0x12_3456, 0x78));
    let cfg = FopConfig::from_regs(&regs_with(&["fop-shadow-word=native"], &[]));
    assert_eq!(cfg.shadow_word, W::Native);
}

#[test]
fn knob_fop_rgb8_order_rgb_stores_red_first() {
    use pica_model::fop::fb::{read_color_image, ColorFormat};
    use pica_model::knobs::FopRgb8Order as O;
    assert_eq!(ColorFormat::Rgb8.reorder(0x11_2233, O::Bgr), 0x11_2233);
    assert_eq!(ColorFormat::Rgb8.reorder(0x11_2233, O::Rgb), 0x33_2211);
    assert_eq!(ColorFormat::Rgba8.reorder(0x11_2233, O::Rgb), 0x11_2233);
    // An 8x8 RGB8 buffer in VRAM; logic op COPY writes (1, 2, 3) at (0, 0).
    let w = [
        (id::COLORBUFFER_FORMAT, 1 << 16),
        (id::COLORBUFFER_LOC, 0x1800_0000 >> 3),
        (id::FRAMEBUFFER_DIM, 8 | 7 << 12),
        (id::COLORBUFFER_READ, 0xF),
        (id::COLORBUFFER_WRITE, 0xF),
        (id::DEPTH_COLOR_MASK, 0xF << 8),
        (id::COLOR_OPERATION, 0x00E4_0000),
        (id::LOGIC_OP, 3),
    ];
    let draw = |set: &[&str]| {
        let regs = regs_with(set, &w);
        let mut mem = Memory::new();
        mem.write_bytes(0x1800_0000, &[0; 192]).unwrap();
        let cfg = FopConfig::from_regs(&regs);
        let beat = pica_model::fop::process_fragment(&cfg, &fragment(), [1, 2, 3, 4], &mut mem, 0)
            .expect("mapped");
        let mut bytes = [0u8; 3];
        mem.read_into(beat.color_addr, &mut bytes).unwrap();
        (bytes, read_color_image(&regs, &mem))
    };
    let (bgr, img_bgr) = draw(&[]);
    let (rgb, img_rgb) = draw(&["fop-rgb8-order=rgb"]);
    assert_eq!(bgr, [3, 2, 1]);
    assert_eq!(rgb, [1, 2, 3]);
    // The picture decodes the same both ways.
    assert_eq!(img_bgr, img_rgb);
}

// ---- sh ----------------------------------------------------------------------------------------

/// `loop-shared-end` (a shader-unit knob, tested with the others in `shader_knobs.rs`; here
/// through the path the GPU uses: the model-wide `--knob` table, the register file's knobs and
/// the unit configuration the register file holds after a code upload). Azahar's "Nested Loop"
/// program: two LOOPs ending on the same ADD.
#[test]
fn knob_loop_shared_end_all_closes_both_nested_loops() {
    use pica_model::shader::asm::assemble;
    use pica_model::shader::interp::{RunEnd, ShaderUnit};
    let src = ".noautonop\n.proc main\n    mov r0, v0\n    for i0\n        for i1\n            add r0, r0, v0\n        \
               .end\n    .end\n    mov o0, r0\n    end\n.end\n";
    let s = assemble(src, "nested.v.pica").unwrap();
    let mut w = vec![(id::VSH_CODETRANSFER_INDEX, 0)];
    w.extend(s.code.iter().map(|&c| (id::VSH_CODETRANSFER_DATA0, c)));
    w.push((id::VSH_OPDESCS_INDEX, 0));
    w.extend(s.opdescs.iter().map(|&d| (id::VSH_OPDESCS_DATA0, d)));
    // i0 = (4, 0, 2), i1 = (4, 0, 1): x | y << 8 | z << 16.
    w.push((id::VSH_INTUNIFORM_I0, 4 | 2 << 16));
    w.push((id::VSH_INTUNIFORM_I0 + 1, 4 | 1 << 16));
    let run = |set: &[&str]| {
        let regs = regs_with(set, &w);
        let mut u = ShaderUnit::new(regs.knobs().shader);
        u.inputs[0] = [F24::ONE, F24::ZERO, F24::ZERO, F24::ZERO];
        let end = u.run(&regs.units()[0], 0, 10_000, &mut Vec::new());
        assert_eq!(end, RunEnd::End);
        (u.outputs()[0][0].bits(), u.al)
    };
    // one: 1 + 5 ADDs = 6.0, aL = 0 + 5 * 1 (the inner loop's).
    assert_eq!(run(&[]), (0x41_8000, 5));
    // all: 1 + 5 * 5 ADDs = 26.0, aL = the last inner loop's 5 + the outer step 2.
    assert_eq!(run(&["loop-shared-end=all"]), (0x43_A000, 7));
    // With loop-al=restore too: Azahar's expected aL, i0.y + (i0.x + 1) i0.z = 10.
    assert_eq!(
        run(&["loop-shared-end=all", "loop-al=restore"]),
        (0x43_A000, 10)
    );
}
