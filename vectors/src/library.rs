//! The library of built-in cases: the example command lists shipped in `vectors/examples/`
//! and front-end cases built with [`CommandList`], each aimed at one rule of the command
//! processor or the register file. `pica vectors gen` writes a bundle for each; the checked-in
//! corpus (`vectors/corpus/`) is made from them, plus the `guided__*` bundles that `pica cov
//! select` chose from a coverage-guided fuzz campaign (docs/src/fuzzing.md, "Closing a hole").
//!
//! Later issues add their scenes here, named by area (`tex/…`, `light/…`).

use crate::case::{Case, MemImage, DEFAULT_LIST_ADDR};
use crate::words::parse_hex;
use pica_model::cmdlist::CommandList;
use pica_model::regs::id;

/// The example lists of `vectors/examples/` (file name, text).
const EXAMPLES: [(&str, &str); 11] = [
    ("01_finalize", include_str!("../examples/01_finalize.hex")),
    (
        "02_seed_consecutive",
        include_str!("../examples/02_seed_consecutive.hex"),
    ),
    (
        "03_masked_writes",
        include_str!("../examples/03_masked_writes.hex"),
    ),
    (
        "04_vsh_uniforms",
        include_str!("../examples/04_vsh_uniforms.hex"),
    ),
    (
        "05_vsh_program",
        include_str!("../examples/05_vsh_program.hex"),
    ),
    ("06_gsh_setup", include_str!("../examples/06_gsh_setup.hex")),
    ("07_luts", include_str!("../examples/07_luts.hex")),
    (
        "08_fixed_attribs_immediate",
        include_str!("../examples/08_fixed_attribs_immediate.hex"),
    ),
    (
        "09_cmdbuf_jump",
        include_str!("../examples/09_cmdbuf_jump.hex"),
    ),
    (
        "10_hang_16byte_rule",
        include_str!("../examples/10_hang_16byte_rule.hex"),
    ),
    (
        "11_hang_past_end",
        include_str!("../examples/11_hang_past_end.hex"),
    ),
];

/// The first comment line of an example (its description).
fn first_comment(text: &str) -> String {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix('#'))
        .map(str::trim)
        .find(|l| !l.starts_with("expect:"))
        .unwrap_or("")
        .to_string()
}

fn f32x4_words(v: [f32; 4]) -> [u32; 4] {
    // Float32 transfer order is W, Z, Y, X (pica-facts §1).
    [
        v[3].to_bits(),
        v[2].to_bits(),
        v[1].to_bits(),
        v[0].to_bits(),
    ]
}

/// Uniform uploads in float32 mode with the conversion's edge values, and in f24 mode.
fn uniform_edges() -> Case {
    let mut l = CommandList::new();
    l.write(id::VSH_FLOATUNIFORM_INDEX, 0x8000_0000); // c0, float32 mode
    let edges: [[u32; 4]; 4] = [
        // +0, -0, smallest f32 subnormal, largest f32 subnormal
        [0x0000_0000, 0x8000_0000, 0x0000_0001, 0x007F_FFFF],
        // 2^-62 (f24 min normal), just below it, 2^63, 2^64 (overflow)
        [0x2080_0000, 0x207F_FFFF, 0x5F00_0000, 0x5F80_0000],
        // +inf, -inf, quiet NaN, NaN with only low payload bits
        [0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0x7F80_0001],
        f32x4_words([1.0, -2.5, 1.0e-20, 3.0e18]),
    ];
    for e in edges {
        l.write_repeat(id::VSH_FLOATUNIFORM_DATA0, &e);
    }
    // f24 mode at c95, then index 96 (dropped), then a half-sent vec4 left pending.
    l.write(id::VSH_FLOATUNIFORM_INDEX, 95);
    l.write_repeat(
        id::VSH_FLOATUNIFORM_DATA0,
        &[0xBF00_0040, 0x8000_3E00, 0x003F_0000],
    );
    l.write_repeat(
        id::VSH_FLOATUNIFORM_DATA0,
        &[0x1111_1111, 0x2222_2222, 0x3333_3333],
    );
    l.write(id::GSH_FLOATUNIFORM_INDEX, 0x8000_0003);
    l.write_repeat(id::GSH_FLOATUNIFORM_DATA0, &[0x4080_0000, 0x4040_0000]);
    l.finalize();
    Case::from_list(
        "regs/uniform_edges",
        "float uniforms: f32 conversion edges, f24 packing, index 96 dropped, a pending partial vec4",
        l.into_words(),
    )
}

/// Float32-mode uniform uploads whose values land in the f24 subnormal range (f32 exponents
/// 1-64) in every lane, w (the first word of a vec4, converted from the packer's pending
/// word) included: `regs/uniform_edges` has them in z only. A fuzzer hole `pica mutate
/// --stage fe` showed (the subnormal shift of the w converter, `pica_f32_to_f24`).
fn uniform_f32_subnormal_lanes() -> Case {
    let vals = [0x2000_0000u32, 0x1FC0_0001, 0x1F80_00FF, 0x9FFF_FFFF];
    let mut l = CommandList::new();
    for (index, data) in [
        (id::VSH_FLOATUNIFORM_INDEX, id::VSH_FLOATUNIFORM_DATA0),
        (id::GSH_FLOATUNIFORM_INDEX, id::GSH_FLOATUNIFORM_DATA0),
    ] {
        l.write(index, 0x8000_0000 | 20); // c20, float32 mode
        for r in 0..4 {
            // Transfer order W, Z, Y, X; each rotation puts every value in every lane once.
            let v: Vec<u32> = (0..4).map(|i| vals[(i + r) % 4]).collect();
            l.write_repeat(data, &v);
        }
    }
    l.finalize();
    Case::from_list(
        "regs/uniform_f32_subnormal_lanes",
        "float32 uniforms in the f24 subnormal range in every lane (w included), VSH and GSH",
        l.into_words(),
    )
}

/// COM_MODE / GEOSTAGE propagation of the VSH block to unit 3, on and off.
fn com_mode() -> Case {
    let mut l = CommandList::new();
    l.write(id::VSH_CODETRANSFER_INDEX, 0);
    l.write_repeat(id::VSH_CODETRANSFER_DATA0, &[0x1111_0001, 0x1111_0002]);
    l.write(id::VSH_OPDESCS_INDEX, 126);
    l.write_repeat(id::VSH_OPDESCS_DATA0, &[0xA, 0xB, 0xC, 0xD]); // 128, 129 dropped
    l.write(id::VSH_BOOLUNIFORM, 0x7FFF_A5A5);
    l.write(id::VSH_INTUNIFORM_I0, 0x0102_0304);
    l.write(id::VSH_ENTRYPOINT, 0x7FFF_0010);
    l.write(id::GEOSTAGE_CONFIG, 2); // GS in use: no more propagation
    l.write(id::VSH_COM_MODE, 1);
    l.write(id::VSH_CODETRANSFER_INDEX, 4095);
    l.write_repeat(id::VSH_CODETRANSFER_DATA0, &[0x2222_0FFF, 0x2222_0000]); // wraps
    l.write(id::VSH_OUTMAP_MASK, 0x1234_00FF);
    l.write(id::GSH_ENTRYPOINT, 0x0000_0020);
    l.write(id::GSH_ATTRIBUTES_PERMUTATION_LOW, 0x7654_3210);
    l.write(id::GSH_ATTRIBUTES_PERMUTATION_HIGH, 0xFEDC_BA98);
    l.finalize();
    Case::from_list(
        "regs/com_mode",
        "VSH configuration reaches unit 3 only while COM_MODE bit 0 and GEOSTAGE are 0; code wraps; opdescs past 127 dropped",
        l.into_words(),
    )
}

/// Where `regs/unit3_vs_config` keeps its vertex buffer (VRAM).
pub const UNIT3_VERTEX_BASE: u32 = 0x1800_0000;

/// Vertices `regs/unit3_vs_config` draws (three triangles, so that every shader unit shades
/// some).
pub const UNIT3_VERTICES: u32 = 9;

/// Attribute `a` (0-2) of vertex `v` in `regs/unit3_vs_config`: four small integers as f32,
/// exact in f24, different for every vertex, attribute and component.
pub fn unit3_attribute(v: u32, a: u32) -> [f32; 4] {
    [0, 1, 2, 3].map(|k| (v * 16 + a * 4 + k) as f32)
}

/// The entry point of the vertex shader of `regs/unit3_vs_config` (not 0: words 0-4 are a
/// decoy that writes c2 to every output).
pub const UNIT3_ENTRY: u32 = 5;

/// The input permutation of `regs/unit3_vs_config`: attribute 0 feeds v2, attribute 1 v0,
/// attribute 2 v1 (GPUREG_VSH_ATTRIBUTES_PERMUTATION_LOW nibble i = register of attribute i).
pub const UNIT3_PERMUTATION: u32 = 0x102;

/// A program without a geometry shader bound after one with, and drawn, in the order libctru
/// `shaderProgramConfigure` and citro3d `C3Di_UpdateContext` / `C3Di_AttrInfoBind` /
/// `C3D_DrawArrays` write it: GEOSTAGE_CONFIG, GEOSTAGE_CONFIG2 and VSH_COM_MODE first, the VS
/// code and operand descriptors, VSH_ENTRYPOINT = 5, the output map, GSH_MISC0/1 = 0 and
/// GSH_INPUTBUFFER_CONFIG = 0xA0000000 (one input), then the attribute setup —
/// VSH_INPUTBUFFER_CONFIG (mask 0xB, three inputs), VSH_NUM_ATTR and the VSH permutation, never
/// the GSH ones — the vertex buffer, the uniforms (f24 and f32 float, int, bool), and a
/// 9-vertex draw. Unit 3 shades vertices too: it must
/// end with the VSH block's entry point, input configuration and permutation (model fact
/// `regs-unit3-config`), so that with the pipeline on every vertex's outputs are
/// o0 = c0, o1 = v0 = attribute 1, o2 = v1 = attribute 2, o3 = v2 = attribute 0.
/// The draw's positions (c0 = 0, w = 0) are clipped away: the case is about the shader units.
pub fn unit3_vs_config() -> Case {
    let mut l = CommandList::new();
    // What the previous program, with a geometry shader, left in the GSH block.
    l.write_masked(id::GEOSTAGE_CONFIG, 0x3, 2);
    l.write_masked(id::VSH_COM_MODE, 0x1, 1);
    l.write(id::GSH_ENTRYPOINT, 0x7FFF_0002);
    l.write(id::GSH_INPUTBUFFER_CONFIG, 0x0800_0002);
    l.write_seq(
        id::GSH_ATTRIBUTES_PERMUTATION_LOW,
        &[0x7654_3210, 0xFEDC_BA98],
    );
    // shaderProgramConfigure, no GS: "initialize geometry engine" first.
    l.write_masked(id::GEOSTAGE_CONFIG, 0x3, 0);
    l.write_masked(id::GEOSTAGE_CONFIG2, 0x3, 0);
    l.write_masked(id::VSH_COM_MODE, 0x1, 0);
    // MOV (opcode 0x13, format 1u: DST 21:5, SRC1 12:7, DESC 0:7); SRC1 0x00-0x0F = v,
    // 0x20 + n = cn; opdesc 0 = mask xyzw, SRC1 swizzle .xyzw (0x36F); END = 0x88000000.
    let mov = |dst: u32, src: u32| 0x4C00_0000 | dst << 21 | src << 12;
    let end = 0x8800_0000;
    let code = [
        // 0-4: a decoy that a unit started at entry 0 (or the old GSH entry 2) runs.
        mov(0, 0x22),
        mov(1, 0x22),
        mov(2, 0x22),
        mov(3, 0x22),
        end,
        // 5 (UNIT3_ENTRY): the program.
        mov(0, 0x20),
        mov(1, 0x00),
        mov(2, 0x01),
        mov(3, 0x02),
        end,
    ];
    l.write(id::VSH_CODETRANSFER_INDEX, 0);
    l.write_repeat(id::VSH_CODETRANSFER_DATA0, &code);
    l.write(id::VSH_CODETRANSFER_END, 1);
    l.write(id::VSH_OPDESCS_INDEX, 0);
    l.write_repeat(id::VSH_OPDESCS_DATA0, &[0x36F]);
    l.write(id::VSH_ENTRYPOINT, 0x7FFF_0000 | UNIT3_ENTRY);
    l.write(id::VSH_OUTMAP_MASK, 0xF);
    l.write(id::VSH_OUTMAP_TOTAL1, 3);
    l.write(id::VSH_OUTMAP_TOTAL2, 3);
    // GPU_SetShaderOutmap: o0 position, o1 colour, o2 texcoord0, o3 texcoord1.
    l.write_masked(id::PRIMITIVE_CONFIG, 0x1, 3);
    l.write_seq(
        id::SH_OUTMAP_TOTAL,
        &[
            4,
            0x0302_0100,
            0x0B0A_0908,
            0x1F1F_0D0C,
            0x1F1F_0F0E,
            0x1F1F_1F1F,
            0x1F1F_1F1F,
            0x1F1F_1F1F,
        ],
    );
    l.write(id::SH_OUTATTR_MODE, 1);
    l.write(id::SH_OUTATTR_CLOCK, 0x0000_0303);
    l.write_masked(id::GEOSTAGE_CONFIG, 0xA, 0);
    l.write(id::GSH_MISC0, 0);
    l.write(id::GSH_MISC1, 0);
    l.write(id::GSH_INPUTBUFFER_CONFIG, 0xA000_0000);
    // C3Di_AttrInfoBind: three float x4 attributes.
    l.write_seq(id::ATTRIBBUFFERS_FORMAT_LOW, &[0xFFF, 2 << 28]);
    l.write_masked(id::VSH_INPUTBUFFER_CONFIG, 0xB, 0xA000_0002);
    l.write(id::VSH_NUM_ATTR, 2);
    l.write_seq(id::VSH_ATTRIBUTES_PERMUTATION_LOW, &[UNIT3_PERMUTATION, 0]);
    // C3Di_BufInfoBind: one buffer, components 0, 1, 2, 48 bytes a vertex.
    l.write(id::ATTRIBBUFFERS_LOC, UNIT3_VERTEX_BASE >> 3);
    l.write_seq(id::ATTRIBBUFFER0_OFFSET, &[0, 0x210, 3 << 28 | 48 << 16]);
    // C3D_UpdateUniforms, last in C3Di_UpdateContext: the shader's `.constf` c0 = 0 (f24
    // mode, the index and three words in one incremental write), the dirty float uniform c2 =
    // 0.5 (the decoy's value; f32 mode, W first), the `.consti` i2 = (3, 8, 1) and i3 = (1, 0,
    // 1) one write each, the bool uniforms.
    l.write_seq(id::VSH_FLOATUNIFORM_INDEX, &[0, 0, 0, 0]);
    l.write(id::VSH_FLOATUNIFORM_INDEX, 0x8000_0002);
    l.write_repeat(id::VSH_FLOATUNIFORM_DATA0, &[0.5f32.to_bits(); 4]);
    l.write(id::VSH_INTUNIFORM_I0 + 2, 0x0001_0803);
    l.write(id::VSH_INTUNIFORM_I0 + 3, 0x0001_0001);
    l.write(id::VSH_BOOLUNIFORM, 0x7FFF_0000);
    // C3D_DrawArrays(GPU_TRIANGLES, 0, 9).
    l.write_masked(id::PRIMITIVE_CONFIG, 0x2, 0);
    l.write(id::RESTART_PRIMITIVE, 1);
    l.write(id::INDEXBUFFER_CONFIG, 0x8000_0000);
    l.write(id::NUMVERTICES, UNIT3_VERTICES);
    l.write(id::VERTEX_OFFSET, 0);
    l.write_masked(id::GEOSTAGE_CONFIG2, 0x1, 1);
    l.write_masked(id::START_DRAW_FUNC0, 0x1, 0);
    l.write(id::DRAWARRAYS, 1);
    l.write_masked(id::START_DRAW_FUNC0, 0x1, 1);
    l.write_masked(id::GEOSTAGE_CONFIG2, 0x1, 0);
    l.write(id::VTX_FUNC, 1);
    l.finalize();
    let mut case = Case::from_list(
        "regs/unit3_vs_config",
        "citro3d order without a GS: unit 3 takes the VSH entry point, input configuration and permutation (a 9-vertex draw)",
        l.into_words(),
    );
    let vertices: Vec<u32> = (0..UNIT3_VERTICES)
        .flat_map(|v| (0..3).flat_map(move |a| unit3_attribute(v, a).map(f32::to_bits)))
        .collect();
    case.images.push(MemImage {
        base: UNIT3_VERTEX_BASE,
        words: vertices,
    });
    case
}

/// Every LUT FIFO, with reserved selectors and wrapping indices.
fn luts() -> Case {
    let mut l = CommandList::new();
    for table in [0u32, 1, 2, 3, 4, 5, 7] {
        l.write(id::PROCTEX_LUT, (table << 8) | 126);
        l.write_repeat(
            id::PROCTEX_LUT_DATA0,
            &[table, table + 0x100, table + 0x200],
        );
    }
    l.write(id::FOG_LUT_INDEX, 127);
    l.write_repeat(id::FOG_LUT_DATA0, &[0xFF12_3456, 0x0065_4321]);
    for table in [0u32, 8, 23, 24, 31] {
        l.write(id::LIGHTING_LUT_INDEX, (table << 8) | 255);
        l.write_repeat(
            id::LIGHTING_LUT_DATA0,
            &[0xAB00_0000 | table, 0x00CD_0000 | table],
        );
    }
    l.write(id::GAS_LUT_INDEX, 15);
    l.write_repeat(id::GAS_LUT_DATA, &[0xDEAD_BEEF, 0xCAFE_F00D]);
    l.finalize();
    Case::from_list(
        "regs/luts",
        "proctex, fog, lighting and gas LUT uploads with reserved selectors and wrapping indices",
        l.into_words(),
    )
}

/// Byte masks on FIFO data registers and consecutive IDs running past 0x2FF.
fn masks_and_ids() -> Case {
    let mut l = CommandList::new();
    l.write_masked(id::FOG_COLOR, 0x5, 0xAABB_CCDD);
    l.write_masked(id::FOG_COLOR, 0xA, 0x1122_3344);
    l.write(id::FIXEDATTRIB_INDEX, 2);
    l.command(
        u32::from(id::FIXEDATTRIB_DATA0),
        0x3,
        false,
        &[0xFFFF_FFFF, 0x1234_5678, 0x9ABC_DEF0],
    );
    l.command(0x2FE, 0xF, true, &[1, 2, 3, 4]);
    l.command(0xFFFE, 0x9, true, &[5, 6, 7, 8]);
    l.write(id::FIXEDATTRIB_INDEX, 0xF);
    l.write(id::VSH_NUM_ATTR, 1);
    l.write_repeat(id::FIXEDATTRIB_DATA0, &[1, 2, 3, 4, 5, 6]);
    l.write_repeat(id::FIXEDATTRIB_DATA0, &[7]);
    l.finalize();
    Case::from_list(
        "regs/masks_and_ids",
        "byte masks on data registers, consecutive IDs past 0x2FF and 0xFFFF, immediate mode leaving a pending word",
        l.into_words(),
    )
}

/// A chain of CMDBUF jumps through both channels, including a jump to an unmapped address.
fn jump_chain(unmapped: bool) -> Case {
    let base = DEFAULT_LIST_ADDR;
    let second = base + 0x100;
    let third = 0x1800_0000; // VRAM
    let mut a = CommandList::new();
    a.write(id::CMDBUF_ADDR1, second >> 3);
    a.write(id::CMDBUF_SIZE1, 0x20 >> 3);
    a.write(id::CMDBUF_JUMP1, 1);
    let mut b = CommandList::new();
    b.write(id::FOG_COLOR, 0x0B0B_0B0B);
    b.write(
        id::CMDBUF_ADDR0,
        if unmapped {
            0x1000_0000 >> 3
        } else {
            third >> 3
        },
    );
    b.write(id::CMDBUF_SIZE0, 0x10 >> 3);
    b.write_masked(id::CMDBUF_JUMP0, 0x0, 0); // a zero mask still triggers
    let mut c = CommandList::new();
    c.write(id::FOG_COLOR, 0x0C0C_0C0C);
    c.finalize();
    let mut aw = a.into_words();
    aw.resize(8, 0); // three commands padded to 32 bytes so the jump is read
    let mut case = Case::from_list(
        if unmapped {
            "cp/jump_unmapped"
        } else {
            "cp/jump_chain"
        },
        if unmapped {
            "a CMDBUF jump to an unmapped address hangs on the first fetch"
        } else {
            "jumps through channels 1 and 0 into VRAM; a zero-mask write still triggers"
        },
        aw,
    );
    let bw = b.into_words();
    case.images.push(MemImage {
        base: second,
        words: bw,
    });
    case.images.push(MemImage {
        base: third,
        words: c.into_words(),
    });
    case
}

/// A CMDBUF jump into the upper VRAM (0x18400000: address bit 22, ADDR0 bit 19) with a size
/// field of 8 MiB + 16 bytes (SIZE0 bit 20) to a list of three commands that FINALIZEs after
/// 16 bytes. Every other case jumps to addresses and sizes with those bits clear: `pica mutate`
/// found REGS mutants that flip a high address bit of ADDR0 or drop the size's bit 20 (the
/// CP then stops after 16 bytes, before FINALIZE), which no case told apart.
fn jump_far() -> Case {
    let target = 0x1840_0000;
    let mut a = CommandList::new();
    a.write(id::CMDBUF_SIZE0, (0x80_0000 + 0x10) >> 3);
    a.write(id::CMDBUF_ADDR0, target >> 3);
    a.write(id::CMDBUF_JUMP0, 1);
    let mut c = CommandList::new();
    c.write(id::FOG_COLOR, 0x0D0D_0D0D);
    // ADDR0 again, as a list sets up its next jump: the final state is then read an odd
    // number of cycles after the write (one mutant stores a wrong ADDR0 only every other
    // cycle, and the jump's redirect bubble hid it).
    c.write(id::CMDBUF_ADDR0, target >> 3);
    c.finalize();
    let mut aw = a.into_words();
    aw.resize(8, 0); // three commands padded to 32 bytes so the jump is read
    let mut case = Case::from_list(
        "cp/jump_far",
        "a jump to 0x18400000 with a size of 8 MiB + 16 bytes: the list FINALIZEs well inside it",
        aw,
    );
    case.images.push(MemImage {
        base: target,
        words: c.into_words(),
    });
    case
}

/// A list that jumps back to its own start forever, stopped by a short cycle limit with a
/// register write still in flight (a fuzzer find: the final state must be read with the
/// pipeline halted, or the RTL applies that write while it is read out).
fn cycle_limit_in_flight() -> Case {
    let mut l = CommandList::new();
    // Each pass pushes one gas LUT word, so applying one more write would show in the state.
    l.write(id::GAS_LUT_DATA, 0xABCD_0000);
    l.write(id::CMDBUF_ADDR0, DEFAULT_LIST_ADDR >> 3);
    l.write(id::CMDBUF_SIZE0, 0x20 >> 3);
    l.write(id::CMDBUF_JUMP0, 1);
    let mut case = Case::from_list(
        "cp/cycle_limit_in_flight",
        "an endless CMDBUF jump loop stopped by the cycle limit with a write still in flight",
        l.into_words(),
    );
    case.max_cycles = CYCLE_LIMIT_IN_FLIGHT;
    case
}

/// The cycle limit of `cp/cycle_limit_in_flight`: the gas LUT write of the third pass has
/// been issued but not applied (checked by a test).
const CYCLE_LIMIT_IN_FLIGHT: u64 = 24;

/// Every built-in case, in a stable order.
pub fn cases() -> Vec<Case> {
    let mut out: Vec<Case> = EXAMPLES
        .iter()
        .filter_map(|(name, text)| {
            // The examples are checked in and parse (tested); skip rather than panic if not.
            let words = parse_hex(name, text).ok()?;
            Some(Case::from_list(
                format!("examples/{name}"),
                first_comment(text),
                words,
            ))
        })
        .collect();
    out.extend([
        uniform_edges(),
        uniform_f32_subnormal_lanes(),
        com_mode(),
        unit3_vs_config(),
        luts(),
        masks_and_ids(),
        jump_chain(false),
        jump_chain(true),
        jump_far(),
        cycle_limit_in_flight(),
        Case::from_list(
            "bench/frame_setup",
            "a frame's setup: ~250 configuration writes, a 512-word vertex shader with all uniforms, lighting and fog LUTs",
            pica_model::cmdlist::frame_setup(),
        ),
    ]);
    // Several lists submitted one after another, with fills between them (front end).
    out.extend(crate::sequences::library_cases());
    out
}

/// The built-in case called `name`.
pub fn case(name: &str) -> Option<Case> {
    cases().into_iter().find(|c| c.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::Outcome;

    #[test]
    fn library_cycle_limit_case_stops_with_a_write_in_flight() {
        let c = cycle_limit_in_flight();
        let mut gpu = c.gpu().unwrap();
        assert_eq!(
            gpu.run(c.max_cycles),
            Outcome::CycleLimit {
                cycles: CYCLE_LIMIT_IN_FLIGHT
            }
        );
        assert_eq!(
            gpu.snapshot()["links"]["cp_to_regs"],
            1,
            "{}",
            gpu.snapshot()
        );
    }

    /// `(unit, outputs o0-o3 as f24 bits)` of every vertex of `regs/unit3_vs_config` run
    /// through the pipeline with `knobs`, in seq order.
    fn unit3_shaded(knobs: &[&str]) -> Vec<(u8, [[u32; 4]; 4])> {
        let mut c = unit3_vs_config();
        c.pipeline = true;
        for k in knobs {
            c.knobs.set(k).unwrap();
        }
        let mut gpu = c.gpu().unwrap();
        gpu.set_keep_shaded(true);
        let out = gpu.run(c.max_cycles);
        assert!(matches!(out, Outcome::Finished { .. }), "{out}");
        let (_, beats) = gpu.shader_beats();
        (0..UNIT3_VERTICES)
            .map(|seq| {
                let mine: Vec<_> = beats.iter().filter(|b| b.seq == seq).collect();
                assert_eq!(mine.len(), 4, "seq {seq}: {mine:?}");
                let reg = |r: u8| mine.iter().find(|b| b.reg == r).unwrap().xyzw;
                (mine[0].unit, [reg(0), reg(1), reg(2), reg(3)])
            })
            .collect()
    }

    fn f24x4(v: [f32; 4]) -> [u32; 4] {
        v.map(|x| pica_model::num::F24::from_f32_bits(x.to_bits()).bits())
    }

    #[test]
    fn library_unit3_vs_config_shades_every_vertex_with_the_vs_config() {
        let got = unit3_shaded(&[]);
        // Every unit shades some of the nine vertices, unit 3 included.
        for u in 0..4u8 {
            assert!(got.iter().any(|(unit, _)| *unit == u), "unit {u}: {got:?}");
        }
        for (seq, (unit, o)) in got.iter().enumerate() {
            let seq = seq as u32;
            // o0 = c0 (0), o1 = v0 = attribute 1, o2 = v1 = attribute 2, o3 = v2 = attribute 0.
            let want = [
                [0; 4],
                f24x4(unit3_attribute(seq, 1)),
                f24x4(unit3_attribute(seq, 2)),
                f24x4(unit3_attribute(seq, 0)),
            ];
            assert_eq!(*o, want, "seq {seq} on unit {unit}");
        }
        // The pre-fix reading (knob regs-unit3-config=seed): unit 3 starts at the GSH entry
        // point (2, in the decoy) with one input, so its vertices come out wrong.
        let seed = unit3_shaded(&["regs-unit3-config=seed"]);
        for ((unit, o), (_, right)) in seed.iter().zip(&got) {
            assert_eq!(*unit == 3, o != right, "unit {unit}: {o:?}");
        }
    }

    #[test]
    fn library_unit3_vs_config_leaves_unit3_like_units_0_to_2() {
        let run = unit3_vs_config().run_model().unwrap();
        let units = &run.state_json["units"];
        for k in [
            "entry_point",
            "input_config",
            "permutation",
            "code",
            "outmap_mask",
        ] {
            assert_eq!(units[3][k], units[0][k], "{k}");
        }
        assert_eq!(units[3]["entry_point"], UNIT3_ENTRY);
        assert_eq!(units[3]["input_config"], "0xa0000002");
    }

    #[test]
    fn library_examples_all_parse() {
        for (name, text) in EXAMPLES {
            assert!(parse_hex(name, text).is_ok(), "{name}");
        }
        assert_eq!(cases().len(), EXAMPLES.len() + 11 + 4);
    }

    #[test]
    fn library_cases_end_as_their_names_say() {
        for c in cases() {
            let run = c.run_model().unwrap();
            let hang = matches!(run.outcome, Outcome::Hang { .. });
            let expect_hang = c.name.contains("hang") || c.name.contains("unmapped");
            if c.name.contains("cycle_limit") {
                assert!(
                    matches!(run.outcome, Outcome::CycleLimit { .. }),
                    "{}",
                    c.name
                );
                continue;
            }
            assert_eq!(hang, expect_hang, "{}: {}", c.name, run.outcome);
            assert!(!run.beats.is_empty(), "{}", c.name);
        }
    }
}
