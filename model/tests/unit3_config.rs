//! Shader unit 3 without a geometry shader (fact `regs-unit3-config`): with GEOSTAGE_CONFIG
//! saying no GS and VSH_COM_MODE bit 0 = 0, every VSH-block configuration write reaches unit 3
//! when it is applied — the entry point, input-buffer configuration and permutation too — so
//! the order real drivers write in (libctru `shaderProgramConfigure`, then citro3d
//! `C3Di_AttrInfoBind`) leaves unit 3 configured like units 0-2. The whole-GPU check (every
//! vertex of a draw, unit 3's included) is `pica_vectors::library` `regs/unit3_vs_config`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::cp::RegWrite;
use pica_model::knobs::Knobs;
use pica_model::regfile::RegFile;
use pica_model::regs::id;

/// A register file with `knobs` set (`NAME=VALUE`).
fn regs(knobs: &[&str]) -> RegFile {
    let mut k = Knobs::default();
    for s in knobs {
        k.set(s).unwrap();
    }
    let mut r = RegFile::new();
    r.set_knobs(k);
    r
}

/// One write with byte mask `mask`, as a command would apply it.
fn put(r: &mut RegFile, reg: u16, mask: u8, param: u32) {
    let w = RegWrite {
        id: reg.into(),
        mask,
        param,
    };
    r.apply(0, w, &mut Vec::new());
}

/// The GSH-block values a previous program with a geometry shader left (libctru
/// `shaderProgramConfigure` with a GS: GEOSTAGE_CONFIG = 2, VSH_COM_MODE = 1, then the GSH
/// entry point, input configuration and permutation).
const GS_ENTRY: u16 = 0x40;
const GS_INPUT: u32 = 0x0800_0002;
const GS_PERM: u64 = 0xFEDC_BA98_7654_3210;

fn previous_gs_program(r: &mut RegFile) {
    put(r, id::GEOSTAGE_CONFIG, 0x3, 2);
    put(r, id::VSH_COM_MODE, 0x1, 1);
    put(
        r,
        id::GSH_ENTRYPOINT,
        0xF,
        0x7FFF_0000 | u32::from(GS_ENTRY),
    );
    put(r, id::GSH_INPUTBUFFER_CONFIG, 0xF, GS_INPUT);
    put(r, id::GSH_ATTRIBUTES_PERMUTATION_LOW, 0xF, GS_PERM as u32);
    put(
        r,
        id::GSH_ATTRIBUTES_PERMUTATION_HIGH,
        0xF,
        (GS_PERM >> 32) as u32,
    );
}

const VS_ENTRY: u16 = 0x25;
const VS_PERM: u64 = 0x0000_0000_0000_0102;

/// libctru `shaderProgramConfigure` for a program without a GS, in its order: GEOSTAGE_CONFIG
/// (mask 0x3) = 0, GEOSTAGE_CONFIG2 (0x3) = 0, VSH_COM_MODE (0x1) = `com_mode` (libctru: 0),
/// the VS code and operand descriptors, VSH_ENTRYPOINT, VSH_OUTMAP_MASK, OUTMAP_TOTAL1/2, then
/// GEOSTAGE_CONFIG (0xA) = 0, GSH_MISC0 = GSH_MISC1 = 0, GSH_INPUTBUFFER_CONFIG = 0xA0000000.
fn shader_program_configure(r: &mut RegFile, com_mode: u32) {
    put(r, id::GEOSTAGE_CONFIG, 0x3, 0);
    put(r, id::GEOSTAGE_CONFIG2, 0x3, 0);
    put(r, id::VSH_COM_MODE, 0x1, com_mode);
    put(r, id::VSH_CODETRANSFER_INDEX, 0xF, 0);
    for w in [0x4C20_0000, 0x8800_0000] {
        put(r, id::VSH_CODETRANSFER_DATA0, 0xF, w);
    }
    put(r, id::VSH_CODETRANSFER_END, 0xF, 1);
    put(r, id::VSH_OPDESCS_INDEX, 0xF, 0);
    put(r, id::VSH_OPDESCS_DATA0, 0xF, 0x36F);
    put(
        r,
        id::VSH_ENTRYPOINT,
        0xF,
        0x7FFF_0000 | u32::from(VS_ENTRY),
    );
    put(r, id::VSH_OUTMAP_MASK, 0xF, 0x3);
    put(r, id::VSH_OUTMAP_TOTAL1, 0xF, 1);
    put(r, id::VSH_OUTMAP_TOTAL2, 0xF, 1);
    put(r, id::GEOSTAGE_CONFIG, 0xA, 0);
    put(r, id::GSH_MISC0, 0xF, 0);
    put(r, id::GSH_MISC1, 0xF, 0);
    put(r, id::GSH_INPUTBUFFER_CONFIG, 0xF, 0xA000_0000);
}

/// citro3d `C3Di_AttrInfoBind` for three attributes: VSH_INPUTBUFFER_CONFIG (mask 0xB) =
/// 0xA0000002, VSH_NUM_ATTR = 2, the VSH permutation low / high.
fn attr_info_bind(r: &mut RegFile) {
    put(r, id::ATTRIBBUFFERS_FORMAT_LOW, 0xF, 0xFFF);
    put(r, id::ATTRIBBUFFERS_FORMAT_HIGH, 0xF, 2 << 28);
    put(r, id::VSH_INPUTBUFFER_CONFIG, 0xB, 0xA000_0002);
    put(r, id::VSH_NUM_ATTR, 0xF, 2);
    put(r, id::VSH_ATTRIBUTES_PERMUTATION_LOW, 0xF, VS_PERM as u32);
    put(
        r,
        id::VSH_ATTRIBUTES_PERMUTATION_HIGH,
        0xF,
        (VS_PERM >> 32) as u32,
    );
}

/// (entry point, input configuration, permutation) of unit `u`.
fn scalars(r: &RegFile, u: usize) -> (u16, u32, u64) {
    let c = &r.units()[u];
    (c.entry_point, c.input_config, c.permutation)
}

#[test]
fn unit3_takes_the_vsh_entry_input_config_and_permutation_in_citro3d_order() {
    let mut r = regs(&[]);
    previous_gs_program(&mut r);
    shader_program_configure(&mut r, 0);
    // Between the two, unit 3 has the VS entry point and the GSH_INPUTBUFFER_CONFIG written
    // after it (one input) ...
    assert_eq!(scalars(&r, 3).0, VS_ENTRY);
    assert_eq!(scalars(&r, 3).1, 0xA000_0000);
    attr_info_bind(&mut r);
    // ... and C3Di_AttrInfoBind, which comes after, gives it the three inputs of units 0-2.
    let vs = (VS_ENTRY, 0xA000_0002, VS_PERM);
    for u in 0..4 {
        assert_eq!(scalars(&r, u), vs, "unit {u}");
    }
    assert_eq!(r.units()[3], r.units()[0]);
}

#[test]
fn unit3_takes_the_merged_vsh_value_of_a_masked_write() {
    // VSH_INPUTBUFFER_CONFIG byte 2 set while COM_MODE = 1 (units 0-2 only); citro3d's
    // masked write (bytes 0, 1, 3) then reaches unit 3 as the merged VSH register value.
    let mut r = regs(&[]);
    put(&mut r, id::VSH_COM_MODE, 0x1, 1);
    put(&mut r, id::VSH_INPUTBUFFER_CONFIG, 0xF, 0x0012_0000);
    put(&mut r, id::GSH_INPUTBUFFER_CONFIG, 0xF, 0x0034_0000);
    put(&mut r, id::VSH_COM_MODE, 0x1, 0);
    put(&mut r, id::VSH_INPUTBUFFER_CONFIG, 0xB, 0xA000_0002);
    assert_eq!(scalars(&r, 0).1, 0xA012_0002);
    assert_eq!(scalars(&r, 3).1, 0xA012_0002);
}

#[test]
fn unit3_keeps_the_gsh_values_with_com_mode_1_or_a_gs() {
    // COM_MODE = 1 ("use the geometry shader configuration"), no GS; then a GS with COM_MODE 0.
    for (geo, com) in [(0, 1), (2, 0), (2, 1)] {
        let mut r = regs(&[]);
        previous_gs_program(&mut r);
        shader_program_configure(&mut r, com);
        put(&mut r, id::GEOSTAGE_CONFIG, 0x1, geo);
        put(&mut r, id::GSH_INPUTBUFFER_CONFIG, 0xF, GS_INPUT);
        attr_info_bind(&mut r);
        put(&mut r, id::VSH_ENTRYPOINT, 0xF, u32::from(VS_ENTRY));
        let vs = (VS_ENTRY, 0xA000_0002, VS_PERM);
        for u in 0..3 {
            assert_eq!(scalars(&r, u), vs, "geostage {geo} com {com} unit {u}");
        }
        let entry = if com == 0 { VS_ENTRY } else { GS_ENTRY };
        // With COM_MODE 0 the VSH_ENTRYPOINT of shaderProgramConfigure (GEOSTAGE 0 then)
        // reached unit 3; the writes after GEOSTAGE = 2 / under COM_MODE 1 did not.
        assert_eq!(
            scalars(&r, 3),
            (entry, GS_INPUT, GS_PERM),
            "geostage {geo} com {com}"
        );
    }
}

#[test]
fn unit3_seed_knob_keeps_the_gsh_entry_input_config_and_permutation() {
    let mut r = regs(&["regs-unit3-config=seed"]);
    previous_gs_program(&mut r);
    shader_program_configure(&mut r, 0);
    attr_info_bind(&mut r);
    assert_eq!(scalars(&r, 0), (VS_ENTRY, 0xA000_0002, VS_PERM));
    // The old reading: one input from the GSH block, the previous program's entry point and
    // permutation — every fourth vertex of a draw would run the wrong program.
    assert_eq!(scalars(&r, 3), (GS_ENTRY, 0xA000_0000, GS_PERM));
    // Uniforms, output mask, code and operand descriptors still propagate.
    let (u0, u3) = (&r.units()[0], &r.units()[3]);
    assert_eq!(u3.code[..2], u0.code[..2]);
    assert_eq!(u3.opdescs[0], 0x36F);
    assert_eq!(u3.outmap_mask, 0x3);
}
