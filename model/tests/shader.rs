//! Shader units: random programs (no panic, a defined end), the interpreter against a
//! straight-line reference evaluator, and the SH stage in the cycle-stepped core.

#![allow(clippy::unwrap_used)]

mod common;
use common::*;
use pica_model::cmdlist::CommandList;
use pica_model::num::F24;
use pica_model::regfile::packer::pack_f24x3;
use pica_model::regfile::unit::UnitConfig;
use pica_model::regs::id;
use pica_model::shader::alu;
use pica_model::shader::interp::{Knobs, RunEnd, ShaderUnit, Vec4};
use pica_model::shader::isa::*;
use pica_model::shader::stage::ShadedItem;
use pica_model::{Gpu, HangReason, Memory, Outcome};
use proptest::prelude::*;

fn any_f24() -> impl Strategy<Value = F24> {
    prop_oneof![
        (0u32..0x100_0000).prop_map(F24::from_bits),
        // ordinary values around 1 in magnitude
        (any::<bool>(), 0x3Cu32..0x43, 0u32..0x1_0000)
            .prop_map(|(s, e, m)| F24::from_parts(s, e, m)),
    ]
}

fn any_vec4() -> impl Strategy<Value = Vec4> {
    [any_f24(), any_f24(), any_f24(), any_f24()]
}

/// Words with a known opcode most of the time, flow targets inside a 64-word program.
fn any_word() -> impl Strategy<Value = u32> {
    prop_oneof![
        8 => (0u32..64, any::<u32>()).prop_map(|(op, rest)| {
            let w = (op << 26) | (rest & 0x03FF_FFFF);
            match decode(w) {
                // Keep flow targets small so programs loop and branch inside the code.
                Instruction::Flow { .. } | Instruction::FlowUniform { .. } => {
                    (w & !(0xFFF << 10)) | ((rest >> 10) % 64) << 10
                }
                _ => w,
            }
        }),
        1 => Just(0x8800_0000u32), // END
        1 => any::<u32>(),
    ]
}

fn config(code: &[u32], descs: &[u32], unis: &[Vec4]) -> UnitConfig {
    let mut cfg = UnitConfig::default();
    cfg.code[..code.len()].copy_from_slice(code);
    cfg.opdescs[..descs.len()].copy_from_slice(descs);
    cfg.float_uniforms[..unis.len()].copy_from_slice(unis);
    cfg
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random programs never panic: they end, hang with a reason, or hit the limit.
    #[test]
    fn shader_random_programs_end_hang_or_limit(
        code in prop::collection::vec(any_word(), 1..64),
        descs in prop::collection::vec(any::<u32>(), 1..16),
        unis in prop::collection::vec(any_vec4(), 0..96),
        ints in any::<[[u8; 4]; 4]>(),
        bools in any::<u16>(),
        inputs in prop::collection::vec(any_vec4(), 16),
    ) {
        let mut cfg = config(&code, &descs, &unis);
        cfg.int_uniforms = ints;
        cfg.bool_uniforms = bools;
        let mut u = ShaderUnit::new(Knobs::default());
        u.inputs.copy_from_slice(&inputs);
        let mut em = Vec::new();
        match u.run(&cfg, 0, 5_000, &mut em) {
            RunEnd::End | RunEnd::Limit => {}
            RunEnd::Hang(h) => {
                prop_assert!(usize::from(h.pc) < cfg.code.len());
                prop_assert_eq!(h.word, cfg.code[usize::from(h.pc)]);
                prop_assert!(!h.to_string().is_empty());
            }
        }
    }
}

/// Straight-line reference: an independent reading of registers, swizzles, negation and
/// masks (pica-facts §1), with the ALU functions as the arithmetic.
struct Reference {
    v: [Vec4; 16],
    r: [Vec4; 16],
    o: [Vec4; 16],
}

impl Reference {
    fn get(&self, raw: u8, c: &[Vec4]) -> Vec4 {
        match raw {
            0..=15 => self.v[raw as usize],
            16..=31 => self.r[raw as usize - 16],
            _ => c[raw as usize - 32],
        }
    }
    fn src(&self, raw: u8, desc: u32, n: u32, c: &[Vec4]) -> Vec4 {
        let reg = self.get(raw, c);
        let field = desc >> (4 + 9 * (n - 1));
        let neg = field & 1 != 0;
        let swz = (field >> 1) & 0xFF;
        let mut out = [F24::ZERO; 4];
        for (i, o) in out.iter_mut().enumerate() {
            let sel = (swz >> (6 - 2 * i)) & 3;
            let x = reg[sel as usize];
            *o = if neg { x.negate() } else { x };
        }
        out
    }
    fn exec(&mut self, word: u32, descs: &[u32], c: &[Vec4]) {
        let op = word >> 26;
        let (d, value): (u32, Vec4);
        let desc;
        if op >= 0x38 {
            desc = descs[(word & 0x1F) as usize];
            let a = self.src(((word >> 17) & 0x1F) as u8, desc, 1, c);
            let b = self.src(((word >> 10) & 0x7F) as u8, desc, 2, c);
            let cc = self.src(((word >> 5) & 0x1F) as u8, desc, 3, c);
            d = (word >> 24) & 0x1F;
            value = [0, 1, 2, 3].map(|i| alu::mad(a[i], b[i], cc[i]));
        } else {
            desc = descs[(word & 0x7F) as usize];
            let a = self.src(((word >> 12) & 0x7F) as u8, desc, 1, c);
            let b = self.src(((word >> 7) & 0x1F) as u8, desc, 2, c);
            d = (word >> 21) & 0x1F;
            let per = |f: &dyn Fn(F24, F24) -> F24| [0, 1, 2, 3].map(|i| f(a[i], b[i]));
            value = match op {
                0x00 => per(&alu::add),
                0x01 => [alu::dot(&a[..3], &b[..3]); 4],
                0x02 => [alu::dot(&a, &b); 4],
                0x08 => per(&alu::mul),
                0x09 => per(&alu::sge),
                0x0A => per(&alu::slt),
                0x0B => a.map(alu::flr),
                0x0C => per(&|x, y| alu::max(x, y, alu::MaxNegInf::Zero)),
                0x0D => per(&alu::min),
                0x0E => [alu::rcp(a[0]); 4],
                0x0F => [alu::rsq(a[0]); 4],
                _ => a, // MOV
            };
        }
        let reg = if d < 16 {
            &mut self.o[d as usize]
        } else {
            &mut self.r[d as usize - 16]
        };
        for (i, r) in reg.iter_mut().enumerate() {
            if (desc >> (3 - i)) & 1 != 0 {
                *r = value[i];
            }
        }
    }
}

fn flow_free_word() -> impl Strategy<Value = u32> {
    let ops = prop::sample::select(vec![
        0x00u32, 0x01, 0x02, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x13, 0x38,
    ]);
    (
        ops,
        0u32..32,
        0u32..128,
        0u32..32,
        0u32..8,
        0u32..32,
        0u32..8,
    )
        .prop_map(|(op, dst, s1, s2, desc, s3, desc5)| {
            if op == 0x38 {
                op << 26 | dst << 24 | (s2 & 0x1F) << 17 | s1 << 10 | s3 << 5 | desc5
            } else {
                op << 26 | dst << 21 | s1 << 12 | s2 << 7 | desc
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The interpreter agrees bit for bit with the straight-line reference.
    #[test]
    fn shader_interpreter_matches_reference_on_flow_free_programs(
        code in prop::collection::vec(flow_free_word(), 1..24),
        descs in prop::collection::vec(any::<u32>(), 8),
        unis in prop::collection::vec(any_vec4(), 96),
        inputs in prop::collection::vec(any_vec4(), 16),
    ) {
        let mut words = code.clone();
        words.push(0x8800_0000);
        let cfg = config(&words, &descs, &unis);
        let mut u = ShaderUnit::new(Knobs::default());
        u.inputs.copy_from_slice(&inputs);
        let mut em = Vec::new();
        prop_assert_eq!(u.run(&cfg, 0, 1000, &mut em), RunEnd::End);
        let mut r = Reference {
            v: inputs.clone().try_into().unwrap(),
            r: [[F24::ZERO; 4]; 16],
            o: [[F24::ZERO; 4]; 16],
        };
        for w in &code {
            r.exec(*w, &descs, &unis);
        }
        let bits = |x: &[Vec4; 16]| x.map(|v| v.map(F24::bits));
        prop_assert_eq!(bits(&u.temps), bits(&r.r));
        prop_assert_eq!(bits(u.outputs()), bits(&r.o));
    }
}

// ---- the SH stage in the core ----

fn enc(i: Instruction) -> u32 {
    encode(&i)
}

/// VS: o0 = v0 + c0 (desc 0 identity), o1 = v1; END.
fn vs_program() -> Vec<u32> {
    let alu = |op, dst: &str, s1: &str, s2: &str| Instruction::Alu {
        op,
        dst: DstReg::from_name(dst).unwrap(),
        src1: SrcReg::from_name(s1).unwrap(),
        src2: SrcReg::from_name(s2).unwrap(),
        idx: RelIndex::None,
        desc: 0,
    };
    vec![
        enc(alu(Opcode::Add, "o0", "c0", "v0")),
        enc(alu(Opcode::Mov, "o1", "v1", "v0")),
    ]
    .into_iter()
    // Padding: one vertex takes longer than REGS needs to deliver the next (several units
    // would work at once if REGS did not hold writes while the pipeline is busy).
    .chain(std::iter::repeat_n(
        enc(Instruction::Plain(Opcode::Nop)),
        20,
    ))
    .chain([enc(Instruction::Plain(Opcode::End))])
    .collect()
}

fn vs_list(vertices: &[[Vec4; 2]]) -> CommandList {
    let mut l = CommandList::new();
    l.write(id::VSH_CODETRANSFER_INDEX, 0);
    l.write_repeat(id::VSH_CODETRANSFER_DATA0, &vs_program());
    l.write(id::VSH_OPDESCS_INDEX, 0);
    l.write(id::VSH_OPDESCS_DATA0, OpDesc::IDENTITY.0);
    l.write(id::VSH_FLOATUNIFORM_INDEX, 0);
    l.write_seq(
        id::VSH_FLOATUNIFORM_INDEX + 1,
        &pack_f24x3([F24::ONE, F24::ZERO, F24::ZERO, F24::ZERO]),
    );
    l.write(id::VSH_OUTMAP_MASK, 0b11);
    l.write(id::VSH_INPUTBUFFER_CONFIG, 0xA000_0001); // two attributes
                                                      // Attribute 0 -> v1, attribute 1 -> v0: the permutation swaps them.
    l.write(id::VSH_ATTRIBUTES_PERMUTATION_LOW, 0x01);
    l.write(id::VSH_NUM_ATTR, 1);
    l.write(id::FIXEDATTRIB_INDEX, 0xF);
    for v in vertices {
        for a in v {
            l.write_seq(0x233, &pack_f24x3(*a));
        }
    }
    l
}

fn run_core(mut l: CommandList) -> (Gpu, Outcome) {
    l.finalize();
    let mut mem = Memory::new();
    mem.write_words(LIST, l.words()).unwrap();
    let mut gpu = Gpu::new(mem);
    gpu.set_keep_shaded(true);
    gpu.submit(LIST, (l.words().len() * 4) as u32).unwrap();
    let o = gpu.run(100_000);
    (gpu, o)
}

fn f(x: f64) -> F24 {
    F24::from_f64_trunc(x)
}

#[test]
fn shader_core_runs_immediate_vertices_in_order_with_permutation() {
    let verts: Vec<[Vec4; 2]> = (0..6)
        .map(|i| [[f(i as f64); 4], [f(10.0 + i as f64); 4]])
        .collect();
    let (gpu, o) = run_core(vs_list(&verts));
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    let got: Vec<(u32, u32, u32)> = gpu
        .shaded()
        .iter()
        .map(|s| match s {
            ShadedItem::Vertex { seq, outputs } => {
                assert_eq!(outputs.iter().map(|o| o.0).collect::<Vec<_>>(), [0, 1]);
                (*seq, outputs[0].1[0].bits(), outputs[1].1[3].bits())
            }
            ShadedItem::GsVertex { .. } => panic!("no GS"),
        })
        .collect();
    // attribute 0 lands in v1, attribute 1 in v0: o0 = c0 + attr1, o1 = attr0.
    let want: Vec<(u32, u32, u32)> = (0..6)
        .map(|i| (i, f(1.0 + 10.0 + i as f64).bits(), f(i as f64).bits()))
        .collect();
    assert_eq!(got, want);
    let (bin, bout) = gpu.shader_beats();
    assert_eq!((bin.len(), bout.len()), (12, 12));
    // REGS holds every write while the pipeline is busy, so each immediate vertex is shaded
    // (REGS -> VL -> SH) before the next one arrives: unit 0, the lowest idle unit, takes
    // them all. (tests/vl.rs shows a draw spreading its vertices over the units.)
    let units: std::collections::BTreeSet<u8> = bin.iter().map(|b| b.unit).collect();
    assert_eq!(units, [0].into(), "{units:?}");
    // Consecutive sequence numbers from 0, one vertex per beat pair.
    let seqs: Vec<u32> = bin.iter().map(|b| b.seq).collect();
    assert_eq!(seqs, (0..6).flat_map(|i| [i, i]).collect::<Vec<_>>());
    assert_eq!(bout[0].xyzw, [11.0, 10.0, 10.0, 10.0].map(|x| f(x).bits()));
    assert_eq!(gpu.shader().executed().iter().sum::<u64>(), 6 * 23);
}

/// The `commit` channel: off by default; on, one beat per executed instruction, in program
/// order per vertex, ending with END, and the last write to each output equal to what the
/// unit sent on `shader_out`.
#[test]
fn shader_core_records_a_commit_per_instruction_when_asked() {
    let verts: Vec<[Vec4; 2]> = (0..3)
        .map(|i| [[f(i as f64); 4], [f(10.0 + i as f64); 4]])
        .collect();
    let (gpu, _) = run_core(vs_list(&verts));
    assert!(gpu.commit_beats().is_empty(), "off by default");

    let mut l = vs_list(&verts);
    l.finalize();
    let mut mem = Memory::new();
    mem.write_words(LIST, l.words()).unwrap();
    let mut gpu = Gpu::new(mem);
    gpu.set_record_commits(true);
    gpu.submit(LIST, (l.words().len() * 4) as u32).unwrap();
    let o = gpu.run(100_000);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    let commits = gpu.commit_beats();
    assert_eq!(
        commits.len() as u64,
        gpu.shader().executed().iter().sum::<u64>()
    );
    assert_eq!(commits.len(), 3 * 23);
    let (_, bout) = gpu.shader_beats();
    for seq in 0..3u32 {
        let mine: Vec<_> = commits.iter().filter(|c| c.seq == seq).collect();
        let pcs: Vec<u16> = mine.iter().map(|c| c.pc).collect();
        assert_eq!(
            pcs,
            (0..23).collect::<Vec<u16>>(),
            "program order, vertex {seq}"
        );
        assert!(mine.windows(2).all(|w| w[0].cycle < w[1].cycle));
        assert!(mine.last().is_some_and(|c| c.end) && mine.iter().filter(|c| c.end).count() == 1);
        // ADD o0 (dst 0x00, mask xyzw), then MOV o1; then NOPs write nothing.
        assert_eq!((mine[0].dst, mine[0].mask), (0x00, 0xF));
        assert_eq!((mine[1].dst, mine[1].mask), (0x01, 0xF));
        assert!(mine[2..].iter().all(|c| c.dst == 0xFF && c.mask == 0));
        for (reg, commit) in [(0u8, mine[0]), (1, mine[1])] {
            let out = bout
                .iter()
                .find(|b| b.seq == seq && b.reg == reg)
                .expect("shader_out beat");
            assert_eq!(commit.result, out.xyzw, "vertex {seq} o{reg}");
        }
    }
}

#[test]
fn shader_core_hang_names_unit_pc_and_instruction() {
    let mut l = vs_list(&[[[F24::ONE; 4]; 2]]);
    l.write(id::VSH_CODETRANSFER_INDEX, 0);
    l.write(
        id::VSH_CODETRANSFER_DATA0,
        enc(Instruction::Plain(Opcode::Break)),
    );
    // Re-submit a vertex after the new program.
    for _ in 0..2 {
        l.write_seq(0x233, &pack_f24x3([F24::ONE; 4]));
    }
    let (_, o) = run_core(l);
    match o {
        Outcome::Hang {
            reason: HangReason::Shader { pc, word, .. },
            ..
        } => {
            assert_eq!(pc, 0);
            assert_eq!(word, 0x8000_0000);
        }
        o => panic!("{o}"),
    }
}

/// GS (unit 3): emit a triangle of three copies of the input vertex, rewriting o0/o1 before
/// each EMIT (outputs are double-banked across EMITs, pica-facts §1: a GS that did not rewrite
/// them would emit values from two EMITs back — tested at unit level).
fn gs_program() -> Vec<u32> {
    let mov = |dst: &str, src: &str| Instruction::Alu {
        op: Opcode::Mov,
        dst: DstReg::from_name(dst).unwrap(),
        src1: SrcReg::from_name(src).unwrap(),
        src2: SrcReg::from_name("v0").unwrap(),
        idx: RelIndex::None,
        desc: 0,
    };
    let mut prog = Vec::new();
    for slot in 0..3u8 {
        prog.extend([
            mov("o0", "v0"),
            mov("o1", "v1"),
            Instruction::SetEmit {
                vtx_id: slot,
                winding: false,
                prim_emit: slot == 2,
            },
            Instruction::Plain(Opcode::Emit),
        ]);
    }
    prog.push(Instruction::Plain(Opcode::End));
    prog.into_iter().map(enc).collect()
}

#[test]
fn shader_core_feeds_vs_outputs_to_the_gs_and_bounds_its_emits() {
    let verts: Vec<[Vec4; 2]> = (0..5)
        .map(|i| [[f(i as f64); 4], [f(10.0 + i as f64); 4]])
        .collect();
    let mut l = CommandList::new();
    // Geometry shader in use: VS on units 0-2, GS on unit 3 (point mode, GSH_MISC0 = 0).
    l.write(id::GEOSTAGE_CONFIG, 2);
    l.write(id::VSH_COM_MODE, 1);
    l.write(id::GSH_CODETRANSFER_INDEX, 0);
    l.write_repeat(id::GSH_CODETRANSFER_DATA0, &gs_program());
    l.write(id::GSH_OPDESCS_INDEX, 0);
    l.write(id::GSH_OPDESCS_DATA0, OpDesc::IDENTITY.0);
    l.write(id::GSH_OUTMAP_MASK, 0b11);
    l.write(id::GSH_INPUTBUFFER_CONFIG, 0x0000_0001); // two attributes: the VS's o0, o1
    l.write(id::GSH_ATTRIBUTES_PERMUTATION_LOW, 0x10);
    let mut words = l.into_words();
    words.extend(vs_list(&verts).into_words());
    let mut fin = CommandList::new();
    fin.finalize();
    words.extend(fin.into_words());
    words.resize(words.len().div_ceil(4) * 4, 0);
    let mut mem = Memory::new();
    mem.write_words(LIST, &words).unwrap();
    let mut gpu = Gpu::new(mem);
    gpu.set_keep_shaded(true);
    gpu.submit(LIST, (words.len() * 4) as u32).unwrap();
    let o = gpu.run(100_000);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    let emitted: Vec<(u32, u8, u32, bool)> = gpu
        .shaded()
        .iter()
        .map(|s| match s {
            ShadedItem::GsVertex {
                invocation,
                emitted,
            } => (
                *invocation,
                emitted.vtx_id,
                emitted.outputs[0][0].bits(),
                emitted.primitive.is_some(),
            ),
            ShadedItem::Vertex { .. } => panic!("with the GS in use, VS vertices go to the GS"),
        })
        .collect();
    // One invocation per VS vertex (point mode), three EMITs each, in order, the third closing
    // the triangle. VS o0 = c0 + v0 where attribute 1 lands in v0: 1 + 10 + i.
    let want: Vec<(u32, u8, u32, bool)> = (0..5u32)
        .flat_map(|i| (0..3u8).map(move |s| (i, s, f(11.0 + i as f64).bits(), s == 2)))
        .collect();
    assert_eq!(emitted, want);
    assert_eq!(
        gpu.shader().executed()[3],
        5 * 13,
        "13 GS instructions per invocation"
    );
}
