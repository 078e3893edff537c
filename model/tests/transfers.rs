//! Side effects of the data-transfer registers: float/int/bool uniforms, code and operand
//! descriptors, the VSH→unit 3 propagation rule, LUT FIFOs, fixed attributes and
//! immediate-mode vertices, triggers.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;
use common::*;
use pica_model::cmdlist::CommandList;
use pica_model::num::F24;
use pica_model::regfile::packer::pack_f24x3;
use pica_model::regs::{id, Trigger};

fn f24(v: [u32; 4]) -> [F24; 4] {
    v.map(F24::from_bits)
}

const V1: [u32; 4] = [0x3F_0000, 0x3E_0000, 0x40_8000, 0xBF_0000]; // 1, 0.5, 3, -1
const V2: [u32; 4] = [0x3D_0000, 0x7F_0000, 0xFF_0000, 0x00_0000]; // 0.25, inf, -inf, 0

/// Runs a list through the front end alone (CP and REGS): for tests of what REGS records
/// about fixed attributes and immediate vertices, which would otherwise run through the
/// vertex loader into shader units with no program loaded.
fn run_front_end(mut l: CommandList) -> pica_model::Gpu {
    l.finalize();
    let mut mem = pica_model::Memory::new();
    mem.write_words(LIST, l.words()).unwrap();
    let mut gpu = pica_model::Gpu::new(mem);
    gpu.set_pipeline(false);
    gpu.submit(LIST, l.byte_len()).unwrap();
    let o = gpu.run(1_000_000);
    assert!(matches!(o, pica_model::Outcome::Finished { .. }), "{o}");
    gpu
}

fn upload_f24(l: &mut CommandList, index_reg: u16, index: u32, vs: &[[u32; 4]]) {
    let mut p = vec![index];
    for v in vs {
        p.extend(pack_f24x3(f24(*v)));
    }
    // The idiom of real drivers: one consecutive command starting at the index register
    // reaches DATA0..DATA7; longer uploads continue on DATA0 repeatedly.
    l.write(index_reg, index);
    let data: Vec<u32> = p[1..].to_vec();
    l.write_repeat(index_reg + 1, &data);
}

#[test]
fn uniform_f24_upload_lands_in_vs_units_component_order() {
    let mut l = CommandList::new();
    l.write(id::VSH_COM_MODE, 1); // keep unit 3 out of it
    upload_f24(&mut l, id::VSH_FLOATUNIFORM_INDEX, 5, &[V1, V2]);
    let gpu = run_list(l);
    for u in 0..3 {
        let unit = &gpu.regs().units()[u];
        assert_eq!(unit.float_uniforms[5], f24(V1), "unit {u}");
        assert_eq!(unit.float_uniforms[6], f24(V2), "unit {u}");
        assert_eq!(unit.float_uniforms[7], f24([0; 4]));
    }
    assert_eq!(gpu.regs().units()[3].float_uniforms[5], f24([0; 4]));
    // The index register's index field advanced to the next free uniform.
    assert_eq!(gpu.regs().reg(id::VSH_FLOATUNIFORM_INDEX.into()) & 0xFF, 7);
}

#[test]
fn uniform_f24_words_follow_pica_facts_packing() {
    // word0 = W << 8 | Z >> 16; word1 = (Z & 0xFFFF) << 16 | Y >> 8; word2 = (Y & 0xFF) << 24 | X
    let mut l = CommandList::new();
    l.write_seq(
        id::VSH_FLOATUNIFORM_INDEX,
        &[0, 0xABCD_EF12, 0x3456_789A, 0xBCDE_F012],
    );
    let gpu = run_list(l);
    let c0 = gpu.regs().units()[0].float_uniforms[0].map(F24::bits);
    assert_eq!(c0, [0xDE_F012, 0x78_9ABC, 0x12_3456, 0xAB_CDEF]);
}

#[test]
fn uniform_f32_upload_converts_w_z_y_x() {
    let mut l = CommandList::new();
    // f32 mode (bit 31), c10: W, Z, Y, X = 4.0, 3.0, 2.0, 1.0
    l.write_seq(
        id::VSH_FLOATUNIFORM_INDEX,
        &[
            0x8000_000A,
            0x4080_0000,
            0x4040_0000,
            0x4000_0000,
            0x3F80_0000,
        ],
    );
    let gpu = run_list(l);
    assert_eq!(
        gpu.regs().units()[1].float_uniforms[10],
        f24([0x3F_0000, 0x40_0000, 0x40_8000, 0x41_0000])
    );
    assert_eq!(
        gpu.regs().reg(id::VSH_FLOATUNIFORM_INDEX.into()),
        0x8000_000B
    );
}

#[test]
fn uniform_index_96_and_above_is_ignored_and_does_not_advance() {
    let mut l = CommandList::new();
    upload_f24(&mut l, id::VSH_FLOATUNIFORM_INDEX, 95, &[V1, V2]);
    upload_f24(&mut l, id::VSH_FLOATUNIFORM_INDEX, 0x7F, &[V2]);
    let gpu = run_list(l);
    let u = &gpu.regs().units()[0];
    assert_eq!(u.float_uniforms[95], f24(V1));
    // Second vec4 would be c96: dropped. Nothing else changed.
    assert!(u.float_uniforms[..95].iter().all(|v| *v == f24([0; 4])));
    assert_eq!(gpu.regs().reg(id::VSH_FLOATUNIFORM_INDEX.into()), 0x7F);
}

#[test]
fn uniform_index_write_discards_a_partial_vec4() {
    let mut l = CommandList::new();
    l.write(id::VSH_FLOATUNIFORM_INDEX, 1)
        .write_repeat(id::VSH_FLOATUNIFORM_DATA0, &[0x1111_1111, 0x2222_2222]);
    upload_f24(&mut l, id::VSH_FLOATUNIFORM_INDEX, 2, &[V1]);
    let gpu = run_list(l);
    let u = &gpu.regs().units()[0];
    assert_eq!(u.float_uniforms[1], f24([0; 4]));
    assert_eq!(u.float_uniforms[2], f24(V1));
}

#[test]
fn uniform_gsh_block_reaches_unit_3_only() {
    let mut l = CommandList::new();
    upload_f24(&mut l, id::GSH_FLOATUNIFORM_INDEX, 3, &[V1]);
    let gpu = run_list(l);
    assert_eq!(gpu.regs().units()[3].float_uniforms[3], f24(V1));
    for u in 0..3 {
        assert_eq!(gpu.regs().units()[u].float_uniforms[3], f24([0; 4]));
    }
}

/// One VSH-block write of each propagated kind with COM_MODE / GEOSTAGE set as given.
fn vsh_config_with(com_mode: u32, geostage: u32) -> pica_model::Gpu {
    let mut l = CommandList::new();
    l.write(id::VSH_COM_MODE, com_mode)
        .write(id::GEOSTAGE_CONFIG, geostage);
    upload_f24(&mut l, id::VSH_FLOATUNIFORM_INDEX, 0, &[V1]);
    l.write(id::VSH_CODETRANSFER_INDEX, 0)
        .write_repeat(id::VSH_CODETRANSFER_DATA0, &[0x4C00_0000, 0x8800_0000]);
    l.write(id::VSH_OPDESCS_INDEX, 0)
        .write(id::VSH_OPDESCS_DATA0, 0x36F);
    l.write(id::VSH_BOOLUNIFORM, 0x7FFF_0005)
        .write(id::VSH_INTUNIFORM_I0 + 2, 0x0002_0103);
    l.write(id::VSH_OUTMAP_MASK, 3)
        .write(id::VSH_ENTRYPOINT, 0x7FFF_0010);
    run_list(l)
}

#[test]
fn com_mode_0_without_gs_propagates_vs_config_to_unit_3() {
    let gpu = vsh_config_with(0, 0);
    let (u0, u3) = (&gpu.regs().units()[0], &gpu.regs().units()[3]);
    assert!(gpu.regs().vs_propagates_to_unit3());
    assert_eq!(u3.float_uniforms[0], f24(V1));
    assert_eq!(&u3.code[..2], &[0x4C00_0000, 0x8800_0000]);
    assert_eq!(u3.opdescs[0], 0x36F);
    assert_eq!(u3.bool_uniforms, 0x0005);
    assert_eq!(u3.int_uniforms[2], [3, 1, 2, 0]);
    assert_eq!(u3.outmap_mask, 3);
    // The entry point propagates too (fact regs-unit3-config; tests/unit3_config.rs).
    assert_eq!(u0.entry_point, 0x10);
    assert_eq!(u3.entry_point, 0x10);
}

#[test]
fn com_mode_1_keeps_vs_config_off_unit_3() {
    let gpu = vsh_config_with(1, 0);
    let u3 = &gpu.regs().units()[3];
    assert!(!gpu.regs().vs_propagates_to_unit3());
    assert_eq!(u3.float_uniforms[0], f24([0; 4]));
    assert_eq!(u3.code[0], 0);
    assert_eq!(u3.opdescs[0], 0);
    assert_eq!(u3.bool_uniforms, 0);
    assert_eq!(u3.int_uniforms[2], [0; 4]);
    assert_eq!(u3.outmap_mask, 0);
    assert_eq!(gpu.regs().units()[2].code[0], 0x4C00_0000);
}

#[test]
fn gs_in_use_keeps_vs_config_off_unit_3_even_with_com_mode_0() {
    for geo in [2, 1, 3] {
        let gpu = vsh_config_with(0, geo);
        let u3 = &gpu.regs().units()[3];
        assert!(!gpu.regs().vs_propagates_to_unit3(), "geostage {geo}");
        assert_eq!(u3.code[0], 0, "geostage {geo}");
        assert_eq!(u3.float_uniforms[0], f24([0; 4]), "geostage {geo}");
    }
    // Both set: still nothing.
    let gpu = vsh_config_with(1, 2);
    assert_eq!(gpu.regs().units()[3].code[0], 0);
}

#[test]
fn propagation_follows_the_mode_at_each_write() {
    let mut l = CommandList::new();
    l.write(id::VSH_CODETRANSFER_INDEX, 0)
        .write(id::VSH_CODETRANSFER_DATA0, 0xAAAA_AAAA);
    l.write(id::VSH_COM_MODE, 1)
        .write(id::VSH_CODETRANSFER_DATA0, 0xBBBB_BBBB);
    let gpu = run_list(l);
    assert_eq!(&gpu.regs().units()[3].code[..2], &[0xAAAA_AAAA, 0]);
    assert_eq!(
        &gpu.regs().units()[0].code[..2],
        &[0xAAAA_AAAA, 0xBBBB_BBBB]
    );
}

#[test]
fn code_upload_auto_increments_and_wraps_at_4096() {
    let mut l = CommandList::new();
    l.write(id::VSH_CODETRANSFER_INDEX, 4094);
    l.write_seq(id::VSH_CODETRANSFER_DATA0, &[1, 2, 3, 4, 5, 6, 7, 8]); // DATA0..7 alias
    l.write(id::VSH_CODETRANSFER_END, 1);
    let gpu = run_list(l);
    let code = &gpu.regs().units()[0].code;
    assert_eq!([code[4094], code[4095]], [1, 2]);
    assert_eq!(&code[..6], &[3, 4, 5, 6, 7, 8]);
    assert_eq!(gpu.regs().reg(id::VSH_CODETRANSFER_INDEX.into()), 6);
    let t: Vec<_> = gpu.regs().triggers().iter().map(|t| t.trigger).collect();
    assert_eq!(
        t,
        vec![
            Trigger::CodeTransferEnd(pica_model::regs::ShaderBlock::Vsh),
            Trigger::Finalize
        ]
    );
}

#[test]
fn opdesc_upload_auto_increments_and_drops_beyond_128() {
    let mut l = CommandList::new();
    l.write(id::GSH_OPDESCS_INDEX, 126)
        .write_repeat(id::GSH_OPDESCS_INDEX + 1, &[0xA, 0xB, 0xC, 0xD]);
    let gpu = run_list(l);
    let u3 = &gpu.regs().units()[3];
    assert_eq!(u3.opdescs.len(), 128);
    assert_eq!([u3.opdescs[126], u3.opdescs[127]], [0xA, 0xB]);
    assert_eq!(u3.opdescs[0], 0, "no wrap into entry 0");
    assert_eq!(gpu.regs().reg(id::GSH_OPDESCS_INDEX.into()), 130);
}

#[test]
fn bool_and_int_uniforms_decode_from_the_register() {
    let mut l = CommandList::new();
    l.write(id::VSH_BOOLUNIFORM, 0x7FFF_8001);
    l.write_seq(
        id::VSH_INTUNIFORM_I0,
        &[0x0403_0201, 0x0807_0605, 0x0C0B_0A09, 0x100F_0E0D],
    );
    l.write_masked(id::VSH_INTUNIFORM_I0, 0x2, 0x0000_FF00);
    let gpu = run_list(l);
    let u = &gpu.regs().units()[1];
    assert_eq!(u.bool_uniforms, 0x8001);
    assert_eq!(
        u.int_uniforms,
        [
            [1, 0xFF, 3, 4],
            [5, 6, 7, 8],
            [9, 10, 11, 12],
            [13, 14, 15, 16]
        ]
    );
}

#[test]
fn lut_fifos_select_table_and_auto_increment() {
    let mut l = CommandList::new();
    l.write(id::LIGHTING_LUT_INDEX, (16 << 8) | 254); // DA0, index 254
    l.write_seq(0x1C8, &[0x1, 0x2, 0xFF12_3456]); // 254, 255, wraps to 0
    l.write(id::FOG_LUT_INDEX, 127)
        .write_repeat(0xE8, &[0xAA, 0xBB]);
    l.write(id::PROCTEX_LUT, (5 << 8) | 255)
        .write_repeat(0xB0, &[0x11, 0x22]);
    l.write(id::PROCTEX_LUT, (2 << 8) | 127)
        .write_repeat(0xB0, &[0x33, 0x44]);
    l.write(id::PROCTEX_LUT, (1 << 8) | 5).write(0xB0, 0x55); // reserved table: dropped
    l.write(id::GAS_LUT_INDEX, 15)
        .write_repeat(0x124, &[0x66, 0x77]);
    let gpu = run_list(l);
    let luts = gpu.regs().luts();
    assert_eq!(
        [
            luts.lighting[16][254],
            luts.lighting[16][255],
            luts.lighting[16][0]
        ],
        [1, 2, 0x12_3456]
    );
    assert_eq!(gpu.regs().reg(id::LIGHTING_LUT_INDEX.into()), (16 << 8) | 1);
    assert_eq!([luts.fog[127], luts.fog[0]], [0xAA, 0xBB]);
    assert_eq!(gpu.regs().reg(id::FOG_LUT_INDEX.into()), 129);
    assert_eq!([luts.proctex[4][255], luts.proctex[4][0]], [0x11, 0x22]);
    assert_eq!([luts.proctex[1][127], luts.proctex[1][0]], [0x33, 0x44]);
    assert!(luts.proctex.iter().all(|t| !t.contains(&0x55)));
    assert_eq!([luts.gas[15], luts.gas[0]], [0x66, 0x77]);
}

#[test]
fn fixed_attributes_and_immediate_vertices() {
    let mut l = CommandList::new();
    l.write(id::FIXEDATTRIB_INDEX, 10);
    l.write_seq(0x233, &pack_f24x3(f24(V1)));
    l.write_seq(0x233, &pack_f24x3(f24(V2))); // index advanced to 11
    l.write(id::VSH_NUM_ATTR, 2); // three attributes per vertex
    l.write(id::FIXEDATTRIB_INDEX, 0xF);
    for v in [V1, V2, V1, V2] {
        l.write_seq(0x233, &pack_f24x3(f24(v)));
    }
    l.write(0x22E, 1); // DRAWARRAYS
    let gpu = run_front_end(l);
    let r = gpu.regs();
    assert_eq!(r.fixed_attribs()[10], f24(V1));
    assert_eq!(r.fixed_attribs()[11], f24(V2));
    assert_eq!(r.immediate_vertices().len(), 1);
    assert_eq!(
        r.immediate_vertices()[0].attributes,
        vec![f24(V1), f24(V2), f24(V1)]
    );
    let t: Vec<_> = r.triggers().iter().map(|t| t.trigger).collect();
    assert_eq!(t, vec![Trigger::DrawArrays, Trigger::Finalize]);
}

#[test]
fn fixed_attribute_index_advances_into_immediate_mode() {
    let mut l = CommandList::new();
    l.write(id::FIXEDATTRIB_INDEX, 14); // 12-14 hold nothing; the index still advances
    l.write_seq(0x233, &pack_f24x3(f24(V1)));
    l.write(id::VSH_NUM_ATTR, 0);
    l.write_seq(0x233, &pack_f24x3(f24(V2))); // now index 0xF: an immediate vertex
    let gpu = run_front_end(l);
    assert_eq!(gpu.regs().reg(id::FIXEDATTRIB_INDEX.into()), 0xF);
    assert_eq!(gpu.regs().immediate_vertices()[0].attributes, vec![f24(V2)]);
}

#[test]
fn triggers_are_recorded_with_cycle_and_value() {
    let mut l = CommandList::new();
    l.write(0x22F, 1).write(0x231, 0).write(0x25F, 1);
    let gpu = run_list(l);
    let t: Vec<_> = gpu
        .regs()
        .triggers()
        .iter()
        .map(|t| (t.trigger, t.id, t.value))
        .collect();
    assert_eq!(
        t[..3],
        [
            (Trigger::DrawElements, 0x22F, 1),
            (Trigger::VtxFunc, 0x231, 0),
            (Trigger::RestartPrimitive, 0x25F, 1)
        ]
    );
    assert!(gpu.regs().triggers()[0].cycle < gpu.regs().triggers()[1].cycle);
}
