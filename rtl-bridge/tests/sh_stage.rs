//! The SH-stage RTL (`pica_sh_top`, [`RtlSh`]) against the model's `ShaderCore`: the same
//! register file (programmed through register writes, so REGS' unit configuration is the one
//! the model reads) and the same vertex stream; the sequence of `ShadedItem`s must be equal,
//! and the commit beats, grouped by vertex (or GS invocation) in program order, equal except
//! for the unit number and the cycle (transaction-exact comparison, design.md).
//!
//! Random programs come from `common` (the shader-unit test's generator); cases whose model
//! run hangs are skipped by the random campaigns and covered by a directed test. GS cases are
//! configured in libctru's order (GEOSTAGE_CONFIG first, the GSH_MISC0/1 and the GSH block
//! after it) and their item stream starts with VL's Begin marker, where both sides read the GS
//! configuration; variable-mode cases carry VL's count markers. VS programs
//! get a prologue that makes their results independent of the unit that runs them (see
//! `unit_independent`): which unit takes a vertex depends on timing, and registers persist in a
//! unit across vertices.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::{edgy_vec, random_case, Rng};
use pica_model::beat::CommitBeat;
use pica_model::cmdlist::CommandList;
use pica_model::gpu::HangReason;
use pica_model::link::Link;
use pica_model::num::F24;
use pica_model::regfile::packer::pack_f24x3;
use pica_model::regfile::unit::UnitConfig;
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::shader::interp::HangKind;
use pica_model::shader::isa::{encode, CmpOp, DstReg, Instruction, Opcode, RelIndex, SrcReg};
use pica_model::shader::stage::{ShIn, ShadedItem, ShaderCore, ShaderPorts, VertexIn};
use pica_model::timing;
use pica_model::Memory;
use pica_rtl_bridge::shader::ShVariant;
use pica_rtl_bridge::{Rtl, RtlGpu, RtlOutcome, RtlSh};
use std::collections::BTreeMap;

/// Cycle limit of one run (either side). A program that falls off its end runs through zero
/// words (ADD) into the VS prologue and jumps back to 0 forever: such cases are skipped.
const CYCLE_LIMIT: u64 = 60_000;

/// The RTL's cycle limit for a case the model finished within [`CYCLE_LIMIT`]: the units take
/// many clocks per instruction where the model takes one (an LG2 365 in E; the stage table's
/// `slowdown` for `sh` is 56, testbench `lockstep::stages`), so a program of long loops over SFU
/// ops that the model finishes can need tens of times its cycles.
const RTL_CYCLE_LIMIT: u64 = CYCLE_LIMIT * 64;

/// GSH-block register of a VSH-block register (the GSH block is 0x30 below).
const GSH_OFFSET: u16 = 0x30;

/// The block's part of the configuration REGS holds for a unit.
struct Block<'a> {
    cfg: &'a UnitConfig,
    code_len: usize,
}

/// A register file programmed through register writes, and the same writes as a command list
/// (for `pica_top`, whose REGS configures its SH stage from them), in the order written: GS
/// cases write GEOSTAGE_CONFIG first, as libctru does, so `pica_top`'s SH stage sees the GS on
/// before its GSH configuration and must read it at the Begin marker. `pre` is the register
/// file right after the first GEOSTAGE_CONFIG write, which [`run_rtl`] syncs into `pica_sh_top`
/// first for the same reason (`RtlSh::sync_config` alone writes GEOSTAGE_CONFIG last).
#[derive(Default)]
struct Rec {
    regs: RegFile,
    list: CommandList,
    pre: Option<RegFile>,
}

impl Rec {
    fn write(&mut self, reg: u16, value: u32) {
        self.regs.write(reg, value);
        self.list.write(reg, value);
        if reg == id::GEOSTAGE_CONFIG && self.pre.is_none() {
            self.pre = Some(self.regs.clone());
        }
    }

    fn into_case(self, items: Vec<ShIn>) -> Case {
        Case {
            regs: self.regs,
            list: self.list,
            pre: self.pre,
            items,
        }
    }
}

/// Writes `b` into the VSH (`gsh` false) or GSH block of `regs` through register writes.
fn load_block(regs: &mut Rec, gsh: bool, b: &Block<'_>) {
    let r = |vsh: u16| if gsh { vsh - GSH_OFFSET } else { vsh };
    let cfg = b.cfg;
    regs.write(r(id::VSH_CODETRANSFER_INDEX), 0);
    for w in &cfg.code[..b.code_len] {
        regs.write(r(id::VSH_CODETRANSFER_DATA0), *w);
    }
    regs.write(r(id::VSH_OPDESCS_INDEX), 0);
    for d in cfg.opdescs.iter() {
        regs.write(r(id::VSH_OPDESCS_DATA0), *d);
    }
    regs.write(r(id::VSH_FLOATUNIFORM_INDEX), 0);
    for u in cfg.float_uniforms.iter() {
        for w in pack_f24x3(*u) {
            regs.write(r(id::VSH_FLOATUNIFORM_DATA0), w);
        }
    }
    for (i, v) in cfg.int_uniforms.iter().enumerate() {
        regs.write(r(id::VSH_INTUNIFORM_I0) + i as u16, u32::from_le_bytes(*v));
    }
    regs.write(
        r(id::VSH_BOOLUNIFORM),
        0x7FFF_0000 | u32::from(cfg.bool_uniforms),
    );
    regs.write(r(id::VSH_ENTRYPOINT), u32::from(cfg.entry_point));
    regs.write(r(id::VSH_OUTMAP_MASK), u32::from(cfg.outmap_mask));
    regs.write(r(id::VSH_INPUTBUFFER_CONFIG), cfg.input_config);
    regs.write(
        r(id::VSH_ATTRIBUTES_PERMUTATION_LOW),
        cfg.permutation as u32,
    );
    regs.write(
        r(id::VSH_ATTRIBUTES_PERMUTATION_HIGH),
        (cfg.permutation >> 32) as u32,
    );
}

/// A random permutation of the 16 input registers as the 64-bit field.
fn random_perm(r: &mut Rng) -> u64 {
    let mut regs: Vec<u64> = (0..16).collect();
    for i in (1..16).rev() {
        regs.swap(i, r.below(i as u64 + 1) as usize);
    }
    if r.chance(20) {
        // Two attributes into the same register: the later one wins.
        regs[1] = regs[0];
    }
    regs.iter()
        .enumerate()
        .fold(0, |p, (n, &v)| p | v << (4 * n))
}

/// Random attributes for `n` vertices of `attrs` attributes each.
fn random_vertices(r: &mut Rng, n: u32, attrs: usize) -> Vec<VertexIn> {
    (0..n)
        .map(|seq| VertexIn {
            seq,
            attrs: (0..attrs)
                .map(|k| {
                    if k < 2 && r.chance(40) {
                        // Small integers make MOVA offsets land in range.
                        let b = r.below(60) as i32 - 20;
                        [0, 1, 2, 3].map(|c| F24::from_f64_trunc(f64::from(b + 5 * c)))
                    } else {
                        edgy_vec(r)
                    }
                })
                .collect(),
        })
        .collect()
}

/// A shader configuration for one bank: a random program (`random_case`) plus random routing.
fn random_block(r: &mut Rng, seed: u64) -> (UnitConfig, usize) {
    let (mut cfg, _, len) = random_case(seed);
    cfg.outmap_mask = if r.chance(5) { 0 } else { r.next_u64() as u16 };
    cfg.input_config = r.below(16) as u32 | (r.next_u64() as u32 & 0xFFFF_0000);
    cfg.permutation = random_perm(r);
    (cfg, len)
}

/// Where the VS prologue lives (the random programs stay below 0x160).
const PROLOGUE: usize = 0x200;

/// Makes a VS program independent of which unit runs it. Registers persist in a unit from one
/// vertex to the next (temporaries, address registers, flags, outputs, input registers an
/// attribute does not write), so a vertex's results depend on what its unit ran before, and
/// which unit takes a vertex depends on timing, which the RTL does not share with the model.
/// So: a prologue at [`PROLOGUE`] (the entry point) sets r0-r15, o0-o15, a0, aL and the flags
/// from uniforms, then jumps to the program at 0; EMIT (which swaps the output bank) becomes
/// NOP; every input register is written (16 attributes through a one-to-one permutation). A
/// commit record carries a0, aL and the flags as they are after its instruction, so the
/// prologue's records before the MOVA, CMP and LOOP still hold what the unit's previous vertex
/// left there: [`by_job`] blanks those fields ([`prologue_carried`]).
fn unit_independent(cfg: &mut UnitConfig, r: &mut Rng) {
    let desc = 127u8;
    cfg.opdescs[usize::from(desc)] = 0x1B << 5 | 0x1B << 14 | 0x1B << 23 | 0xF;
    let emit = encode(&Instruction::Plain(Opcode::Emit));
    let nop = encode(&Instruction::Plain(Opcode::Nop));
    for w in cfg.code.iter_mut() {
        if *w == emit {
            *w = nop;
        }
    }
    let mov = |dst: u8, c: u8| {
        encode(&Instruction::Alu {
            op: Opcode::Mov,
            dst: DstReg::from_raw(dst),
            src1: SrcReg::from_raw(0x20 + c),
            src2: SrcReg::default(),
            idx: RelIndex::None,
            desc,
        })
    };
    let mut p = Vec::new();
    for n in 0..16u8 {
        p.push(mov(0x10 + n, n));
        p.push(mov(n, 16 + n));
    }
    debug_assert_eq!(p.len(), PROLOGUE_MOVS);
    p.push(encode(&Instruction::Alu {
        op: Opcode::Mova,
        dst: DstReg::default(),
        src1: SrcReg::from_raw(0x20 + 40),
        src2: SrcReg::default(),
        idx: RelIndex::None,
        desc,
    }));
    p.push(encode(&Instruction::Cmp {
        src1: SrcReg::from_raw(0x20 + 41),
        src2: SrcReg::from_raw(0x10),
        idx: RelIndex::None,
        cmp_x: CmpOp::from_bits(r.below(8) as u32),
        cmp_y: CmpOp::from_bits(r.below(8) as u32),
        desc,
    }));
    // A one-instruction loop on i0 leaves aL = i0.y + (i0.x + 1) * i0.z.
    let lp = PROLOGUE + p.len();
    p.push(encode(&Instruction::FlowUniform {
        op: Opcode::Loop,
        id: 0,
        target: (lp + 1) as u16,
        num: 0,
    }));
    p.push(nop);
    for num in [0, 1] {
        p.push(encode(&Instruction::FlowUniform {
            op: Opcode::Jmpu,
            id: 0,
            target: 0,
            num,
        }));
    }
    cfg.code[PROLOGUE..PROLOGUE + p.len()].copy_from_slice(&p);
    cfg.entry_point = PROLOGUE as u16;
    cfg.input_config = 15 | (r.next_u64() as u32 & 0xFFFF_0000);
    cfg.permutation = random_bijection(r);
}

/// A random one-to-one permutation of the 16 input registers.
fn random_bijection(r: &mut Rng) -> u64 {
    let mut regs: Vec<u64> = (0..16).collect();
    for i in (1..16).rev() {
        regs.swap(i, r.below(i as u64 + 1) as usize);
    }
    regs.iter()
        .enumerate()
        .fold(0, |p, (n, &v)| p | v << (4 * n))
}

/// One test case: the register file, the writes that made it, the register file after the
/// first GEOSTAGE_CONFIG write (GS cases), and the item stream (vertices and VL's markers).
struct Case {
    regs: RegFile,
    list: CommandList,
    pre: Option<RegFile>,
    items: Vec<ShIn>,
}

/// Vertices only.
fn plain(vertices: Vec<VertexIn>) -> Vec<ShIn> {
    vertices.into_iter().map(ShIn::from).collect()
}

/// VS only (GEOSTAGE_CONFIG = 0): the VSH configuration reaches unit 3 too (VSH_COM_MODE =
/// 0), all of it (model fact `regs-unit3-config`); the GSH entry point, input configuration and
/// permutation written after it then give unit 3 its own (a different permutation here).
fn vs_case(seed: u64) -> Case {
    let mut r = Rng(seed ^ 0xA5A5_0000);
    let (mut vsh, _) = random_block(&mut r, seed);
    unit_independent(&mut vsh, &mut r);
    let len = PROLOGUE + 40;
    let mut regs = Rec::default();
    load_block(
        &mut regs,
        false,
        &Block {
            cfg: &vsh,
            code_len: len,
        },
    );
    regs.write(id::GSH_ENTRYPOINT, PROLOGUE as u32);
    regs.write(id::GSH_INPUTBUFFER_CONFIG, vsh.input_config);
    let p3 = random_bijection(&mut r);
    regs.write(id::GSH_ATTRIBUTES_PERMUTATION_LOW, p3 as u32);
    regs.write(id::GSH_ATTRIBUTES_PERMUTATION_HIGH, (p3 >> 32) as u32);
    let n = 5 + r.below(8) as u32;
    let attrs = 16;
    let vertices = random_vertices(&mut r, n, attrs);
    assert_eq!(regs.regs.units()[0].code[..len], vsh.code[..len]);
    assert_eq!(regs.regs.units()[3].float_uniforms, vsh.float_uniforms);
    regs.into_case(plain(vertices))
}

/// GS modes (GSH_MISC0 bits 0-1).
const POINT: u32 = 0;
const VARIABLE: u32 = 1;
const FIXED: u32 = 2;

/// The item stream of a GS case: VL's Begin, then the vertices; in variable mode a count
/// marker before each primitive (counts of 0 to 4, sometimes one larger than the vertices
/// left: the stream ends mid-primitive), as VL sends them for an indexed draw.
fn gs_items(r: &mut Rng, vertices: Vec<VertexIn>, mode: u32) -> Vec<ShIn> {
    let mut items = vec![ShIn::Begin { seq: 0 }];
    if mode != VARIABLE {
        items.extend(plain(vertices));
        return items;
    }
    let mut left = 0;
    for v in vertices {
        while left == 0 {
            let count = if r.chance(10) {
                0
            } else {
                1 + r.below(4) as u16
            };
            items.push(ShIn::GsCount { seq: v.seq, count });
            left = count;
        }
        items.push(ShIn::Vertex(v));
        left -= 1;
    }
    items
}

/// GS on (GEOSTAGE_CONFIG = 2, VSH_COM_MODE = 1): a random VS on units 0-2, a random GS on
/// unit 3 in `mode` (GSH_MISC0 bits 0-1: [`POINT`], [`VARIABLE`], [`FIXED`]), configured
/// after GEOSTAGE_CONFIG (libctru's order).
fn gs_case(seed: u64, mode: u32) -> Case {
    let mut r = Rng(seed ^ 0x5A5A_0000 ^ u64::from(mode) << 40);
    let mut regs = Rec::default();
    regs.write(id::GEOSTAGE_CONFIG, 2);
    regs.write(id::VSH_COM_MODE, 1);
    let (mut vsh, _) = random_block(&mut r, seed);
    unit_independent(&mut vsh, &mut r);
    let vlen = PROLOGUE + 40;
    // Unit 3 runs every GS invocation in order on both sides: no need to make it independent.
    let (mut gsh, glen) = random_block(&mut r, seed ^ 0x1234_5678);
    // Point mode: up to 8 GS inputs (one invocation per one or a few VS vertices).
    gsh.input_config = r.below(8) as u32;
    let misc0 = if mode == FIXED {
        let count = r.below(4) as u32; // minus 1
        let stride = r.below(4) as u32;
        let start = if r.chance(20) {
            90 + r.below(6)
        } else {
            r.below(80)
        } as u32;
        FIXED | 0x0100_0000 | count << 8 | stride << 12 | start << 16
    } else {
        mode
    };
    // Variable mode: 1-4 main vertices (GSH_MISC1 = main - 1), sometimes past the uniforms.
    let misc1 = if mode == VARIABLE {
        r.below(4) as u32
    } else {
        0
    };
    load_block(
        &mut regs,
        false,
        &Block {
            cfg: &vsh,
            code_len: vlen,
        },
    );
    load_block(
        &mut regs,
        true,
        &Block {
            cfg: &gsh,
            code_len: glen,
        },
    );
    regs.write(id::GSH_MISC0, misc0);
    regs.write(id::GSH_MISC1, misc1);
    let n = 5 + r.below(8) as u32;
    let vertices = random_vertices(&mut r, n, 16);
    assert_eq!(regs.regs.units()[3].code[..glen], gsh.code[..glen]);
    let items = gs_items(&mut r, vertices, mode);
    regs.into_case(items)
}

/// The output consumer's ready in `cycle` (`backpressure`: about half the cycles not ready).
fn ready(cycle: u64, backpressure: bool) -> bool {
    !backpressure || (cycle.wrapping_mul(0x9E37_79B9) >> 9) % 3 != 0
}

/// What one side produced.
#[derive(Debug, Default)]
struct Outcome {
    items: Vec<ShadedItem>,
    commits: Vec<CommitBeat>,
    hang: Option<HangReason>,
    finished: bool,
}

fn run_model(c: &Case, backpressure: bool) -> Outcome {
    let mut core = ShaderCore::new(ShVariant::Default.knobs());
    core.set_record_beats(false);
    core.set_record_commits(true);
    let mut input = Link::new("sh_in", timing::SHADER_IN_DEPTH);
    let mut output = Link::new("sh_out", timing::SHADER_OUT_DEPTH);
    let (mut bi, mut bo) = (Vec::new(), Vec::new());
    let mut o = Outcome::default();
    let mut next = 0;
    for cycle in 0..CYCLE_LIMIT {
        input.begin_cycle();
        output.begin_cycle();
        while next < c.items.len() && input.can_push() {
            input.push(c.items[next].clone()).unwrap();
            next += 1;
        }
        let t = core.tick(
            cycle,
            ShaderPorts {
                regs: &c.regs,
                input: &mut input,
                output: &mut output,
                beats_in: &mut bi,
                beats_out: &mut bo,
                commits: &mut o.commits,
            },
        );
        if let Err(h) = t {
            o.hang = Some(h);
            return o;
        }
        if ready(cycle, backpressure) {
            while let Some(item) = output.pop() {
                o.items.push(item);
            }
        }
        if next == c.items.len() && input.is_empty() && core.is_idle() && output.is_empty() {
            o.finished = true;
            return o;
        }
    }
    o
}

fn run_rtl(variant: ShVariant, c: &Case, backpressure: bool) -> Outcome {
    let mut sh = RtlSh::new(variant).unwrap();
    if let Some(pre) = &c.pre {
        // The GS on before its configuration: the stage latches the stale one at once.
        sh.sync_config(pre);
        sh.tick(true);
    }
    sh.sync_config(&c.regs);
    let mut o = Outcome::default();
    let mut next = 0;
    for cycle in 0..RTL_CYCLE_LIMIT {
        // Called every cycle as a harness would: nothing changed, so nothing is written.
        sh.sync_config(&c.regs);
        if next < c.items.len() && sh.can_accept() {
            sh.push(&c.items[next]);
            next += 1;
        }
        let t = sh.tick(ready(cycle, backpressure));
        o.items.extend(t.output);
        o.commits.extend(t.commits);
        if let Some(h) = t.hang {
            o.hang = Some(h);
            return o;
        }
        if next == c.items.len() && sh.is_idle() {
            o.finished = true;
            return o;
        }
    }
    o
}

/// Where the command list goes in memory.
const LIST: u32 = 0x2000_0000;

/// The full RTL top: `c`'s register writes go as a command list through `pica_top`'s CP and
/// REGS (which configures its SH stage); once the list has finished, the vertices go to its
/// SH port as in [`run_rtl`].
fn run_top(c: &Case, backpressure: bool) -> Outcome {
    let mut list = c.list.clone();
    list.finalize();
    let mut mem = Memory::new();
    mem.write_words(LIST, list.words()).unwrap();
    let mut top = RtlGpu::new(Rtl::new().unwrap(), mem, LIST, list.byte_len());
    let fe = top.run(CYCLE_LIMIT);
    assert!(
        matches!(fe, RtlOutcome::Finished { .. }),
        "front end: {fe:?}"
    );
    let mut o = Outcome::default();
    let mut next = 0;
    for cycle in 0..CYCLE_LIMIT {
        if next < c.items.len() && top.sh_can_accept() {
            top.sh_push(&c.items[next]);
            next += 1;
        }
        top.set_sh_out_ready(ready(cycle, backpressure));
        top.clock();
        let t = top.take_sh();
        o.items.extend(t.output);
        o.commits.extend(t.commits);
        if let Some(h) = t.hang {
            o.hang = Some(h);
            return o;
        }
        if next == c.items.len() && top.sh_is_idle() {
            o.finished = true;
            return o;
        }
    }
    o
}

/// The MOVs at the start of the VS prologue ([`unit_independent`]); the MOVA, CMP and LOOP
/// follow them.
const PROLOGUE_MOVS: usize = 32;

/// Blanks the fields of a VS prologue record ([`unit_independent`]) that still hold what the
/// unit's previous vertex left: the MOVs report the old a0, flags and aL, the MOVA the old
/// flags and aL, the CMP the old aL. Which unit takes a vertex depends on timing, which the RTL
/// does not share with the model (an SFU instruction takes hundreds of clocks there).
fn prologue_carried(c: &mut CommitBeat) {
    let pc = usize::from(c.pc);
    if (PROLOGUE..PROLOGUE + PROLOGUE_MOVS).contains(&pc) {
        c.a0x = 0;
        c.a0y = 0;
    }
    if (PROLOGUE..=PROLOGUE + PROLOGUE_MOVS).contains(&pc) {
        c.cmp = 0;
    }
    if (PROLOGUE..=PROLOGUE + PROLOGUE_MOVS + 1).contains(&pc) {
        c.al = 0;
    }
}

/// Commits keyed by (GS invocation?, seq), in program order, without unit and cycle.
fn by_job(commits: &[CommitBeat], gs_on: bool) -> BTreeMap<(bool, u32), Vec<CommitBeat>> {
    let mut m: BTreeMap<(bool, u32), Vec<CommitBeat>> = BTreeMap::new();
    for c in commits {
        let gs = gs_on && c.unit == 3;
        let mut c = *c;
        if !gs {
            prologue_carried(&mut c);
        }
        c.unit = 0;
        c.cycle = 0;
        m.entry((gs, c.seq)).or_default().push(c);
    }
    m
}

/// The first difference between the model's and the RTL's outcome.
fn compare(c: &Case, model: &Outcome, rtl: &Outcome) -> Option<String> {
    if !model.finished && model.hang.is_none() {
        return Some("model did not finish".into());
    }
    if model.hang.is_none() && !rtl.finished {
        return Some(format!(
            "rtl did not finish (hang {:?}, {} of {} items)",
            rtl.hang,
            rtl.items.len(),
            model.items.len()
        ));
    }
    let n = model.items.len().max(rtl.items.len());
    for i in 0..n {
        if model.items.get(i) != rtl.items.get(i) {
            return Some(format!(
                "item {i} of {}/{} differs\n  model: {:?}\n  rtl:   {:?}",
                model.items.len(),
                rtl.items.len(),
                model.items.get(i),
                rtl.items.get(i)
            ));
        }
    }
    let gs_on = c.regs.reg(id::GEOSTAGE_CONFIG.into()) & 3 == 2;
    let (m, r) = (by_job(&model.commits, gs_on), by_job(&rtl.commits, gs_on));
    for key in m.keys().chain(r.keys()) {
        let (mc, rc) = (m.get(key), r.get(key));
        if mc != rc {
            let (mc, rc) = (mc.map_or(&[][..], |v| v), rc.map_or(&[][..], |v| v));
            let k = (0..mc.len().max(rc.len()))
                .find(|&k| mc.get(k) != rc.get(k))
                .unwrap_or(0);
            return Some(format!(
                "commits of job {key:?} differ at {k} (model {}, rtl {})\n  model: {:?}\n  rtl:   {:?}",
                mc.len(),
                rc.len(),
                mc.get(k),
                rc.get(k)
            ));
        }
    }
    if let (Some(mh), Some(rh)) = (&model.hang, &rtl.hang) {
        let strip = |h: &HangReason| match h {
            HangReason::Shader {
                pc, word, reason, ..
            } => (*pc, *word, *reason),
            _ => (0, 0, HangKind::UnknownOpcode),
        };
        if strip(mh) != strip(rh) {
            return Some(format!("hang: model {mh} rtl {rh}"));
        }
    } else if model.hang.is_some() != rtl.hang.is_some() {
        return Some(format!("hang: model {:?} rtl {:?}", model.hang, rtl.hang));
    }
    None
}

/// Runs up to `count` random cases from `seed0` (skipping those whose model run hangs or does
/// not finish) on
/// `variant`; returns the first mismatch as (seed, description), and the number of cases
/// compared and the number of items they produced.
fn campaign(
    variant: ShVariant,
    seed0: u64,
    count: u64,
    make: impl Fn(u64) -> Case,
) -> (Option<(u64, String)>, u64, usize) {
    let (mut compared, mut items) = (0, 0);
    for i in 0..count {
        let seed = seed0 + i;
        let c = make(seed);
        let bp = seed % 2 == 1;
        let model = run_model(&c, bp);
        if model.hang.is_some() || !model.finished {
            continue;
        }
        let rtl = run_rtl(variant, &c, bp);
        compared += 1;
        items += model.items.len();
        if let Some(d) = compare(&c, &model, &rtl) {
            return (Some((seed, d)), compared, items);
        }
    }
    eprintln!("{variant:?}: {compared} of {count} cases compared, {items} items");
    (None, compared, items)
}

fn cases() -> u64 {
    std::env::var("PICA_SH_STAGE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

#[test]
fn sh_stage_vs_random_programs_match_the_model() {
    let (bad, compared, items) = campaign(ShVariant::Default, 0x5700_0000, cases(), vs_case);
    if let Some((seed, d)) = bad {
        panic!("VS case seed 0x{seed:x}: {d}");
    }
    assert!(
        compared >= cases() / 3,
        "only {compared} cases ran without a hang"
    );
    assert!(items > 0);
}

#[test]
fn sh_stage_gs_point_mode_matches_the_model() {
    let (bad, compared, items) = campaign(ShVariant::Default, 0x6700_0000, cases() / 2, |s| {
        gs_case(s, POINT)
    });
    if let Some((seed, d)) = bad {
        panic!("GS point-mode case seed 0x{seed:x}: {d}");
    }
    assert!(
        compared >= cases() / 8,
        "only {compared} cases ran without a hang"
    );
    assert!(items > 0, "no GS emit in any case");
}

#[test]
fn sh_stage_gs_fixed_mode_matches_the_model() {
    let (bad, compared, items) = campaign(ShVariant::Default, 0x7700_0000, cases() / 2, |s| {
        gs_case(s, FIXED)
    });
    if let Some((seed, d)) = bad {
        panic!("GS fixed-mode case seed 0x{seed:x}: {d}");
    }
    assert!(
        compared >= cases() / 8,
        "only {compared} cases ran without a hang"
    );
    assert!(items > 0, "no GS emit in any case");
}

#[test]
fn sh_stage_gs_variable_mode_matches_the_model() {
    // More GS runs per case (a count every 1-4 vertices) hang more often: twice the cases.
    let (bad, compared, items) = campaign(ShVariant::Default, 0x8700_0000, cases(), |s| {
        gs_case(s, VARIABLE)
    });
    if let Some((seed, d)) = bad {
        panic!("GS variable-mode case seed 0x{seed:x}: {d}");
    }
    assert!(
        compared >= cases() / 8,
        "only {compared} cases ran without a hang"
    );
    assert!(items > 0, "no GS emit in any case");
}

/// A GS that copies c0-c3 to o0-o3 and EMITs once: each invocation's item shows the count
/// (c0) and the first three vertex uniforms the assembler wrote.
fn uniform_echo_gs() -> Vec<u32> {
    let mov = |o: u8, c: u8| {
        encode(&Instruction::Alu {
            op: Opcode::Mov,
            dst: DstReg::from_raw(o),
            src1: SrcReg::from_raw(0x20 + c),
            src2: SrcReg::default(),
            idx: RelIndex::None,
            desc: 0,
        })
    };
    vec![
        mov(0, 0),
        mov(1, 1),
        mov(2, 2),
        mov(3, 3),
        encode(&Instruction::Plain(Opcode::Emit)),
        encode(&Instruction::Plain(Opcode::End)),
    ]
}

/// Variable mode, directed: counts 3 (two main vertices) then 0 then 2, the GS echoing c0-c3.
/// The count reaches c0 as f24, main vertices give every output (here two: c1, c2 from the
/// first vertex), the others their first only, and a count of 0 runs the GS at once.
#[test]
fn sh_stage_gs_variable_counts_reach_c0_and_the_vertices_c1_on() {
    let mut vs = UnitConfig::default();
    let mov = |o: u8, v: u8| {
        encode(&Instruction::Alu {
            op: Opcode::Mov,
            dst: DstReg::from_raw(o),
            src1: SrcReg::from_raw(v),
            src2: SrcReg::default(),
            idx: RelIndex::None,
            desc: 0,
        })
    };
    let end = encode(&Instruction::Plain(Opcode::End));
    let prog = [mov(0, 0), mov(1, 1), end];
    vs.code[..3].copy_from_slice(&prog);
    vs.opdescs[0] = 0x1B << 5 | 0x1B << 14 | 0x1B << 23 | 0xF;
    vs.outmap_mask = 0b11;
    vs.input_config = 1;
    vs.permutation = 0x10;
    let mut gs = UnitConfig::default();
    let g = uniform_echo_gs();
    gs.code[..g.len()].copy_from_slice(&g);
    gs.opdescs[0] = vs.opdescs[0];
    gs.outmap_mask = 0xF;
    let mut regs = Rec::default();
    regs.write(id::GEOSTAGE_CONFIG, 2);
    regs.write(id::VSH_COM_MODE, 1);
    load_block(
        &mut regs,
        false,
        &Block {
            cfg: &vs,
            code_len: 3,
        },
    );
    load_block(
        &mut regs,
        true,
        &Block {
            cfg: &gs,
            code_len: g.len(),
        },
    );
    regs.write(id::GSH_MISC0, VARIABLE);
    regs.write(id::GSH_MISC1, 0); // one main vertex
    let f = |x: f64| F24::from_f64_trunc(x);
    let v = |seq: u32| VertexIn {
        seq,
        attrs: vec![[f(f64::from(seq) + 0.5); 4], [f(f64::from(seq) + 100.0); 4]],
    };
    let items = vec![
        ShIn::Begin { seq: 0 },
        ShIn::GsCount { seq: 0, count: 3 },
        ShIn::Vertex(v(0)),
        ShIn::Vertex(v(1)),
        ShIn::Vertex(v(2)),
        ShIn::GsCount { seq: 3, count: 0 },
        ShIn::GsCount { seq: 3, count: 2 },
        ShIn::Vertex(v(3)),
        ShIn::Vertex(v(4)),
    ];
    let c = regs.into_case(items);
    let model = run_model(&c, false);
    let rtl = run_rtl(ShVariant::Default, &c, false);
    assert_eq!(compare(&c, &model, &rtl), None);
    let echoed: Vec<[f64; 4]> = model
        .items
        .iter()
        .map(|i| match i {
            ShadedItem::GsVertex { emitted, .. } => {
                [0, 1, 2, 3].map(|r| emitted.outputs[r][0].to_f64())
            }
            ShadedItem::Vertex { .. } => [f64::NAN; 4],
        })
        .collect();
    // c0 = 3; c1, c2 = vertex 0's two outputs (main); c3 = vertex 1's first output only.
    // Then the count 0 (c0 = 0, nothing else overridden: c1-c3 read the GSH uniforms, 0);
    // then c0 = 2, c1-c2 from vertex 3, c3 = vertex 4's first output.
    assert_eq!(
        echoed,
        [
            [3.0, 0.5, 100.0, 1.5],
            [0.0, 0.0, 0.0, 0.0],
            [2.0, 3.5, 103.0, 4.5],
        ]
    );
}

/// A VS whose program is `words` (from 0), all outputs enabled, `n` vertices of 4 attributes.
fn directed(words: &[u32], n: u32) -> Case {
    let mut cfg = UnitConfig::default();
    cfg.code[..words.len()].copy_from_slice(words);
    cfg.opdescs[0] = 0x1B << 5 | 0x1B << 14 | 0x1B << 23 | 0xF;
    cfg.outmap_mask = 0xFFFF;
    cfg.input_config = 3;
    cfg.permutation = 0x3210;
    let mut regs = Rec::default();
    load_block(
        &mut regs,
        false,
        &Block {
            cfg: &cfg,
            code_len: words.len(),
        },
    );
    let mut r = Rng(7);
    regs.into_case(plain(random_vertices(&mut r, n, 4)))
}

#[test]
fn top_sh_configured_through_cp_and_regs_matches_the_model() {
    // pica_top: shader programs, opdescs and uniforms uploaded by a command list through the
    // CP and REGS (REGS forwards them to the SH stage), vertices on its SH port: the same
    // ShadedItems and commits as the model's ShaderCore on the register file those writes make.
    let mut items = 0;
    for seed in 0..3u64 {
        for (kind, c) in [
            ("vs", vs_case(seed)),
            ("gs point", gs_case(seed, POINT)),
            ("gs fixed", gs_case(seed, FIXED)),
            ("gs variable", gs_case(seed, VARIABLE)),
        ] {
            let model = run_model(&c, seed == 1);
            if !model.finished {
                continue;
            }
            let top = run_top(&c, seed == 1);
            if let Some(d) = compare(&c, &model, &top) {
                panic!("{kind} seed {seed}: {d}");
            }
            items += model.items.len();
        }
    }
    assert!(items > 0, "no case produced an item");
}

#[test]
fn top_sh_hang_matches_the_model() {
    let brk = encode(&Instruction::Plain(Opcode::Break));
    let nop = encode(&Instruction::Plain(Opcode::Nop));
    let c = directed(&[nop, nop, brk], 1);
    let model = run_model(&c, false);
    let top = run_top(&c, false);
    assert!(model.hang.is_some());
    assert_eq!(compare(&c, &model, &top), None);
}

#[test]
fn sh_stage_hang_names_pc_word_and_reason() {
    let brk = encode(&Instruction::Plain(Opcode::Break));
    let nop = encode(&Instruction::Plain(Opcode::Nop));
    let c = directed(&[nop, nop, brk], 1);
    let model = run_model(&c, false);
    let rtl = run_rtl(ShVariant::Default, &c, false);
    assert!(model.hang.is_some());
    assert_eq!(compare(&c, &model, &rtl), None);
    assert_eq!(
        rtl.hang,
        Some(HangReason::Shader {
            unit: 0,
            pc: 2,
            word: brk,
            reason: HangKind::BreakEmptyLoopStack
        })
    );
}

#[test]
fn sh_stage_outputs_leave_in_input_order_under_backpressure() {
    // Vertex 0 runs longest (a loop on i0 taken only when v0.x ... here: all vertices run the
    // same code, so order is decided by dispatch; the random campaigns cover uneven lengths).
    let mov = encode(&Instruction::Plain(Opcode::Nop));
    let end = encode(&Instruction::Plain(Opcode::End));
    let c = directed(&[mov, mov, end], 23);
    for bp in [false, true] {
        let model = run_model(&c, bp);
        let rtl = run_rtl(ShVariant::Default, &c, bp);
        assert_eq!(compare(&c, &model, &rtl), None);
        let seqs: Vec<u32> = rtl
            .items
            .iter()
            .map(|i| match i {
                ShadedItem::Vertex { seq, .. } => *seq,
                ShadedItem::GsVertex { .. } => u32::MAX,
            })
            .collect();
        assert_eq!(seqs, (0..23).collect::<Vec<_>>());
        // All four units took vertices.
        let units: std::collections::BTreeSet<u8> = rtl.commits.iter().map(|c| c.unit).collect();
        assert_eq!(units.len(), 4, "{units:?}");
    }
}

#[test]
fn sh_stage_sync_config_writes_only_what_changed() {
    let c = directed(&[encode(&Instruction::Plain(Opcode::End))], 1);
    let mut sh = RtlSh::new(ShVariant::Default).unwrap();
    sh.sync_config(&c.regs);
    let after_first = sh.cycles();
    // Same register file, no write since: nothing to do.
    sh.sync_config(&c.regs);
    assert_eq!(sh.cycles(), after_first);
    // One changed code word in the VSH bank (reaching unit 3 too: one beat for both banks).
    let mut regs = c.regs.clone();
    regs.write(id::VSH_CODETRANSFER_INDEX, 5);
    regs.write(id::VSH_CODETRANSFER_DATA0, 0x1234_5678);
    sh.sync_config(&regs);
    assert_eq!(sh.cycles(), after_first + 1);
}

/// Whether the random VS campaign catches `variant` within `limit` cases.
fn caught_within(variant: ShVariant, limit: u64) {
    let (bad, compared, _) = campaign(variant, 0x5700_0000, limit, vs_case);
    assert!(
        bad.is_some(),
        "{variant:?} passed {compared} random SH-stage cases"
    );
}

#[test]
fn sh_stage_random_catches_inject_add_round() {
    caught_within(ShVariant::InjectAddRound, 60);
}

#[test]
fn sh_stage_random_catches_inject_loop_extra() {
    caught_within(ShVariant::InjectLoopExtra, 60);
}
