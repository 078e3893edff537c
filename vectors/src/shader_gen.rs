//! Random shader programs for the shader unit, and their shrinker: the generator behind
//! `pica fuzz --target shader` and `rtl-bridge/tests/shader_unit.rs` (design.md "Per-stage
//! fuzzing").
//!
//! A [`ShaderCase`] is one invocation of one unit: code from word 0 (zero beyond it, on the
//! model and the RTL alike), 128 operand descriptors, 96 float uniforms, the int and bool
//! uniforms, the 16 input registers and the entry point. [`generate`] builds a random valid
//! program over every opcode and format (1, 1i, 1u, 1c, 2, 3, 4, 5/5i) with nested flow
//! control (IFU/IFC, LOOP with BREAK/BREAKC, CALL/CALLC/CALLU into non-recursive subroutines,
//! tail calls and now and then a chain of calls one deeper than the CALL stack, JMPC/JMPU),
//! relative addressing (a0.x, a0.y, aL), sources that often read back the temporaries earlier
//! instructions write, random operand descriptors, inputs and uniforms biased to ±0,
//! subnormals, ±inf, NaN and exponent edges (and c88-c95 spread normals for EX2/LG2/RCP/RSQ,
//! c80-c87 and v12-v15 a close-magnitude cluster for the adders and comparators, c72-c79
//! fractions at every exponent for FLR and MOVA, c64-c71 small integers for MOVA offsets that
//! a relative uniform read follows, c63 within 16 ulps of 1.0 for the pow chain EX2(LG2(x))),
//! bursts of back-to-back temporary writes read back in every source slot, and random int/bool
//! uniforms. Now and then
//! main holds a deep nest (up to nine IFs, or four LOOPs), the case enters past word 0, an
//! ALU word carries random bits in its unused fields, or the program ends in a flow range at
//! 0x800-0xFEF. Loops are bounded by the int uniforms (at most 256 iterations each; the
//! nests take uniforms of at most 3 iterations, but for a four-LOOP nest's outermost loop
//! of 129-160 in one case in eight) and every run by [`MAX_INSTRUCTIONS`]; the
//! rare END mid-program, BREAK outside a loop and unknown opcodes end in the model's defined
//! hangs, and so does one program in four at its end (BREAK, two MOVAs, an unknown opcode, or
//! a jump to 0xFFF that runs the PC past 4095); a far IF or LOOP ending runs on through zero
//! words to the PC overflow or the instruction limit. Two arms drawn last or from a generator
//! of their own, so the rest of a case is unchanged by them: half the cases put pinned EX2
//! operands (`EX2_PINNED`) in two lanes of an EX2 band uniform (c60-c62), and one in four ends
//! main with an ADD whose x lane subtracts an operand aligned by exactly 3 (`align3_sub`).
//!
//! [`shrink`] makes a failing case smaller while a caller's check still fails: it deletes code
//! (chunks, then single words) relocating every flow target, simplifies flow control and
//! operands, then resets descriptors, inputs and uniforms to plain values.
//!
//! Deterministic: everything comes from a splitmix64 seeded with the case seed.

use pica_model::num::F24;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::disasm;
use pica_model::shader::interp::{Commit, Emitted, Knobs, RunEnd, ShaderUnit, Step, TraceReg};
use pica_model::shader::isa::{
    decode, encode, used_mask, CmpOp, CondOp, Condition, DstReg, Format, Instruction, OpDesc,
    Opcode, RelIndex, SrcReg,
};

/// Instruction limit of every fuzz run (model and RTL).
pub const MAX_INSTRUCTIONS: u64 = 600;

/// The identity operand descriptor: mask xyzw, no negation, swizzles .xyzw for all three
/// sources.
pub const IDENTITY_DESC: u32 = 0xF | 0x1B << 5 | 0x1B << 14 | 0x1B << 23;

/// One invocation of one shader unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderCase {
    /// Code words from address 0; memory beyond them is zero.
    pub code: Vec<u32>,
    /// Operand descriptors (128).
    pub opdescs: Vec<u32>,
    /// Float uniforms c0-c95 (`[x, y, z, w]`).
    pub float_uniforms: Vec<[F24; 4]>,
    /// i0-i3 as `[x, y, z, w]` (count, start, step, unused).
    pub int_uniforms: [[u8; 4]; 4],
    /// b0-b15 (bit n = bn).
    pub bool_uniforms: u16,
    /// Input registers v0-v15.
    pub inputs: [[F24; 4]; 16],
    /// Entry point (word address).
    pub entry: u16,
}

impl ShaderCase {
    /// No code, zero descriptors, uniforms and inputs, entry 0.
    pub fn empty() -> Self {
        Self {
            code: Vec::new(),
            opdescs: vec![0; 128],
            float_uniforms: vec![[F24::ZERO; 4]; 96],
            int_uniforms: [[0; 4]; 4],
            bool_uniforms: 0,
            inputs: [[F24::ZERO; 4]; 16],
            entry: 0,
        }
    }

    /// The case from a unit configuration (its first `code_words` code words), the inputs and
    /// the entry point.
    pub fn from_config(
        cfg: &UnitConfig,
        code_words: usize,
        inputs: [[F24; 4]; 16],
        entry: u16,
    ) -> Self {
        let mut code = cfg.code[..code_words.min(cfg.code.len())].to_vec();
        while code.last() == Some(&0) {
            code.pop();
        }
        Self {
            code,
            opdescs: cfg.opdescs.to_vec(),
            float_uniforms: cfg.float_uniforms.to_vec(),
            int_uniforms: cfg.int_uniforms,
            bool_uniforms: cfg.bool_uniforms,
            inputs,
            entry,
        }
    }

    /// The unit configuration the model runs.
    pub fn config(&self) -> UnitConfig {
        let mut cfg = UnitConfig::default();
        let n = self.code.len().min(cfg.code.len());
        cfg.code[..n].copy_from_slice(&self.code[..n]);
        let n = self.opdescs.len().min(cfg.opdescs.len());
        cfg.opdescs[..n].copy_from_slice(&self.opdescs[..n]);
        let n = self.float_uniforms.len().min(cfg.float_uniforms.len());
        cfg.float_uniforms[..n].copy_from_slice(&self.float_uniforms[..n]);
        cfg.int_uniforms = self.int_uniforms;
        cfg.bool_uniforms = self.bool_uniforms;
        cfg.entry_point = self.entry;
        cfg
    }

    /// Size of the program: its code words (the shrinker's measure).
    pub fn instructions(&self) -> usize {
        self.code.len()
    }

    /// The program as assembly, one line per word with its address.
    pub fn listing(&self) -> String {
        self.code
            .iter()
            .enumerate()
            .map(|(pc, &w)| {
                format!(
                    "{pc:03x}: {:08x}  {}\n",
                    w,
                    disasm::describe(w, &self.opdescs)
                )
            })
            .collect()
    }
}

/// What one run produced (model or RTL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderRun {
    /// One record per executed instruction.
    pub commits: Vec<Commit>,
    /// `end`, `hang N` (the [`Commit::hang`] code), `limit` (or `stuck` from an RTL).
    pub end: String,
    /// o0-o15 of the active bank at the end (f24 bits).
    pub outputs: [[u32; 4]; 16],
    /// Every EMIT: (vertex slot, winding, primitive emitted, the bank emitted).
    pub emits: Vec<(u8, bool, bool, [[u32; 4]; 16])>,
}

fn end_text(end: &RunEnd) -> String {
    match end {
        RunEnd::End => "end".to_string(),
        RunEnd::Hang(h) => format!("hang {}", h.kind.commit_code()),
        RunEnd::Limit => "limit".to_string(),
    }
}

fn emits_of(emitted: &[Emitted]) -> Vec<(u8, bool, bool, [[u32; 4]; 16])> {
    emitted
        .iter()
        .map(|e| {
            (
                e.vtx_id,
                e.winding,
                e.primitive.is_some(),
                e.outputs.map(|v| v.map(F24::bits)),
            )
        })
        .collect()
}

/// Runs `case` on a fresh model unit with `knobs`, recording commits.
pub fn run_model(case: &ShaderCase, knobs: Knobs, max_instructions: u64) -> ShaderRun {
    run_model_cfg(&case.config(), case, knobs, max_instructions)
}

fn run_model_cfg(cfg: &UnitConfig, case: &ShaderCase, knobs: Knobs, max: u64) -> ShaderRun {
    let mut u = ShaderUnit::new(knobs);
    u.inputs = case.inputs;
    run_again(&mut u, cfg, case, max)
}

/// One more invocation of `case` on `u` as it is (registers kept from earlier runs).
fn run_again(u: &mut ShaderUnit, cfg: &UnitConfig, case: &ShaderCase, max: u64) -> ShaderRun {
    let mut emitted = Vec::new();
    let mut commits = Vec::new();
    let end = u.run_commits(cfg, case.entry, max, &mut emitted, &mut commits);
    ShaderRun {
        commits,
        end: end_text(&end),
        outputs: u.outputs().map(|v| v.map(F24::bits)),
        emits: emits_of(&emitted),
    }
}

/// Runs `case` up to `n` times on one fresh model unit, as a unit shades vertex after vertex:
/// the temporaries, address registers, condition flags and output banks carry over from one
/// invocation to the next (`ShaderUnit::start` clears only the stacks). One [`ShaderRun`] per
/// invocation; a run that hits the instruction limit is the last (the unit is still busy, and
/// a start is not taken then).
pub fn run_model_n(case: &ShaderCase, knobs: Knobs, max: u64, n: usize) -> Vec<ShaderRun> {
    let cfg = case.config();
    let mut u = ShaderUnit::new(knobs);
    u.inputs = case.inputs;
    let mut runs: Vec<ShaderRun> = Vec::with_capacity(n);
    while runs.len() < n && runs.last().is_none_or(|r| r.end != "limit") {
        runs.push(run_again(&mut u, &cfg, case, max));
    }
    runs
}

/// The first difference between two runs of `case` (`a` = model, `b` = RTL), described with
/// the instruction's assembly; `None` if they agree.
pub fn compare(case: &ShaderCase, a: &ShaderRun, b: &ShaderRun) -> Option<String> {
    let n = a.commits.len().max(b.commits.len());
    for i in 0..n {
        let (m, r) = (a.commits.get(i), b.commits.get(i));
        if m != r {
            let word = m.or(r).map_or(0, |c| c.word);
            let pc = m.or(r).map_or(0, |c| c.pc);
            let fields = match (m, r) {
                (Some(m), Some(r)) => commit_diff(m, r),
                (Some(_), None) => "missing on the rtl side".to_string(),
                _ => "extra on the rtl side".to_string(),
            };
            return Some(format!(
                "commit {i} pc 0x{pc:03x} `{}`: {fields}",
                disasm::describe(word, &case.opdescs)
            ));
        }
    }
    if a.end != b.end {
        return Some(format!("outcome: model {} rtl {}", a.end, b.end));
    }
    if a.emits != b.emits {
        let i = a
            .emits
            .iter()
            .zip(&b.emits)
            .take_while(|(x, y)| x == y)
            .count();
        return Some(format!(
            "emit {i} differs (model {} emits, rtl {})",
            a.emits.len(),
            b.emits.len()
        ));
    }
    if a.outputs != b.outputs {
        let o = (0..16).find(|&o| a.outputs[o] != b.outputs[o]).unwrap_or(0);
        return Some(format!(
            "final output o{o}: model {:06x?} rtl {:06x?}",
            a.outputs[o], b.outputs[o]
        ));
    }
    None
}

/// The differing fields of two commit records: `name model/rtl`.
pub fn commit_diff(m: &Commit, r: &Commit) -> String {
    let mut d = Vec::new();
    let mut f = |name: &str, x: String, y: String| {
        if x != y {
            d.push(format!("{name} model {x} rtl {y}"));
        }
    };
    f("pc", format!("{:#x}", m.pc), format!("{:#x}", r.pc));
    f(
        "word",
        format!("{:#010x}", m.word),
        format!("{:#010x}", r.word),
    );
    f("dst", format!("{:#x}", m.dst), format!("{:#x}", r.dst));
    f("mask", format!("{:#x}", m.mask), format!("{:#x}", r.mask));
    for (l, name) in ["result.x", "result.y", "result.z", "result.w"]
        .iter()
        .enumerate()
    {
        f(
            name,
            format!("{:06x}", m.result[l]),
            format!("{:06x}", r.result[l]),
        );
    }
    f("cmp", m.cmp.to_string(), r.cmp.to_string());
    f("a0x", m.a0x.to_string(), r.a0x.to_string());
    f("a0y", m.a0y.to_string(), r.a0y.to_string());
    f("al", m.al.to_string(), r.al.to_string());
    f(
        "next_pc",
        format!("{:#x}", m.next_pc),
        format!("{:#x}", r.next_pc),
    );
    f("emit", m.emit.to_string(), r.emit.to_string());
    f("hang", m.hang.to_string(), r.hang.to_string());
    f("end", m.end.to_string(), r.end.to_string());
    d.join(", ")
}

/// Model self-consistency on `case` (no RTL): `Err` names the property that broke.
///
/// 1. The commit path ([`ShaderUnit::run_commits`]) and the plain path ([`ShaderUnit::run`])
///    end alike, execute as many instructions, emit the same vertices and leave the same
///    outputs.
/// 2. The traced path (`step` with a trace) agrees with every commit record: the o/r write
///    (register, mask, whole value), the a0 and cmp writes, and the PC.
/// 3. Every code word survives decode ∘ encode: `encode(decode(w))` is `w` on the bits its
///    format uses, zero elsewhere, and decodes to the same instruction.
pub fn check_model(case: &ShaderCase, knobs: Knobs, max_instructions: u64) -> Result<(), String> {
    let cfg = case.config();
    let committed = run_model_cfg(&cfg, case, knobs, max_instructions);

    // 1. Plain path.
    let mut u = ShaderUnit::new(knobs);
    u.inputs = case.inputs;
    let mut emitted = Vec::new();
    let end = end_text(&u.run(&cfg, case.entry, max_instructions, &mut emitted));
    if end != committed.end {
        return Err(format!(
            "run ends with {end}, run_commits with {}",
            committed.end
        ));
    }
    let outputs = u.outputs().map(|v| v.map(F24::bits));
    if outputs != committed.outputs {
        return Err("run and run_commits leave different outputs".into());
    }
    if emits_of(&emitted) != committed.emits {
        return Err("run and run_commits emit different vertices".into());
    }

    // 2. Traced path, step by step against the commit records.
    let mut t = ShaderUnit::new(knobs);
    t.inputs = case.inputs;
    t.start(case.entry);
    let mut emitted = Vec::new();
    let mut trace = Vec::new();
    for (i, c) in committed.commits.iter().enumerate() {
        if t.pc != c.pc {
            return Err(format!(
                "commit {i}: traced unit at pc {:#x}, commit says {:#x}",
                t.pc, c.pc
            ));
        }
        trace.clear();
        let step = t.step(&cfg, Some(&mut trace), &mut emitted);
        let dst_writes: Vec<_> = trace
            .iter()
            .filter_map(|w| match w.reg {
                TraceReg::Dst(d) => Some((d.raw(), w.mask, w.value.map(F24::bits))),
                _ => None,
            })
            .collect();
        let expect: Vec<_> = if c.dst == Commit::NO_DST {
            Vec::new()
        } else {
            vec![(c.dst, c.mask, c.result)]
        };
        if dst_writes != expect {
            return Err(format!(
                "commit {i} pc {:#x}: trace writes {dst_writes:x?}, commit records {expect:x?}",
                c.pc
            ));
        }
        for w in &trace {
            match w.reg {
                TraceReg::A0 => {
                    let a0 = [c.a0x, c.a0y].map(|v| F24::from_f64_trunc(f64::from(v)).bits());
                    if w.value[0].bits() != a0[0] || w.value[1].bits() != a0[1] {
                        return Err(format!("commit {i}: trace a0 differs from the commit's"));
                    }
                }
                TraceReg::Cmp => {
                    let bits =
                        u8::from(w.value[0].bits() != 0) | u8::from(w.value[1].bits() != 0) << 1;
                    if bits != c.cmp {
                        return Err(format!("commit {i}: trace cmp {bits} commit {}", c.cmp));
                    }
                }
                TraceReg::Dst(_) => {}
            }
        }
        let ended = !matches!(step, Step::Continue);
        if ended != (i + 1 == committed.commits.len() && committed.end != "limit") {
            return Err(format!(
                "commit {i}: traced run ends differently ({step:?})"
            ));
        }
        if !ended && t.pc != c.next_pc {
            return Err(format!(
                "commit {i}: traced next pc {:#x}, commit {:#x}",
                t.pc, c.next_pc
            ));
        }
    }

    // 3. decode / encode.
    for (pc, &w) in case.code.iter().enumerate() {
        let inst = decode(w);
        let back = encode(&inst);
        if back != w & used_mask(w) || decode(back) != inst {
            return Err(format!(
                "word {pc:#x} {w:#010x}: encode(decode) = {back:#010x}, used bits {:#010x}",
                w & used_mask(w)
            ));
        }
    }
    Ok(())
}
/// splitmix64: the generator's only source of randomness (no dependency, stable forever).
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    /// One of `items` (not empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// An f24 biased to the edge cases: ±0, subnormals, ±inf, NaN, exponent edges, small exact
/// values, and random bits.
pub fn edgy_f24(r: &mut Rng) -> F24 {
    let sign = (r.below(2) as u32) << 23;
    let mant = r.below(1 << 16) as u32;
    let bits = match r.below(12) {
        0 => 0,
        1 => sign,
        2 => sign | mant.max(1), // subnormal
        3 => sign | 0x7F << 16,  // inf
        // NaN; half of them with a one-bit payload, so a NaN test that misses one mantissa
        // bit shows (a comparator lane's `b[15:0] != 0` with bit 2 forced 0 survived 512
        // cases of `pica mutate --stage sh`: random payloads almost never have one bit).
        4 if r.chance(50) => sign | 0x7F << 16 | 1 << r.below(16),
        4 => 0x7F << 16 | mant.max(1),
        5 => sign | 1 << 16 | mant,    // smallest normals
        6 => sign | 0x7E << 16 | mant, // largest normals
        7 => sign | r.pick(&[0x3F, 0x40, 0x3E, 0x41]) << 16, // ±1, ±2, ±0.5, ±4
        8 => sign | (0x3F + r.below(4) as u32) << 16 | (mant & 0xC000),
        9 => sign | (0x38 + r.below(16) as u32) << 16 | mant, // moderate magnitudes
        _ => r.below(1 << 24) as u32,
    };
    F24::from_bits(bits)
}

/// A vector of [`edgy_f24`]s (sometimes one value splatted).
pub fn edgy_vec(r: &mut Rng) -> [F24; 4] {
    if r.chance(20) {
        let x = edgy_f24(r);
        return [x; 4];
    }
    [edgy_f24(r), edgy_f24(r), edgy_f24(r), edgy_f24(r)]
}

const ALU_OPS: &[Opcode] = &[
    Opcode::Add,
    Opcode::Dp3,
    Opcode::Dp4,
    Opcode::Dph,
    Opcode::Dst,
    Opcode::Ex2,
    Opcode::Lg2,
    Opcode::Litp,
    Opcode::Mul,
    Opcode::Sge,
    Opcode::Slt,
    Opcode::Flr,
    Opcode::Max,
    Opcode::Min,
    Opcode::Rcp,
    Opcode::Rsq,
    Opcode::Mov,
    Opcode::Dphi,
    Opcode::Dsti,
    Opcode::Sgei,
    Opcode::Slti,
];

/// The unary ops whose fixed-point approximations (`pica_f24_ex2.sv`, `pica_f24_lg2.sv`,
/// `pica_f24_rcp.sv`, `pica_f24_rsq.sv`) only show their table, product and truncation bits on
/// normal operands with a random mantissa: the operands of the arm that runs them on the
/// [`SPREAD_UNIFORMS`].
///
/// EX2 twice: its twenty root products each need their own bit of x set, so it takes the most
/// operands to show a low product bit.
const UNARY_OPS: &[Opcode] = &[
    Opcode::Ex2,
    Opcode::Ex2,
    Opcode::Lg2,
    Opcode::Rcp,
    Opcode::Rsq,
];

/// The float uniforms [`generate`] fills with [`spread_f24`] vectors (c88-c95), read by the
/// unary-op arm of [`Gen::simple`].
const SPREAD_UNIFORMS: std::ops::Range<u8> = 88..96;

/// A normal f24 spread over the exponents where EX2's fraction bits, LG2's squarings and
/// RCP/RSQ's quotient bits all take part (2^-30 .. 2^6: |x| < 64 for EX2, whose integer part
/// ends at 2^6), mostly positive (LG2 and RSQ of a negative are NaN), the mantissa random or
/// near the ends of its range (log2 near 0 and 1, 2^x near a power of two); one in eight a
/// negative around EX2's tiny-negative bound (biased exponents 8-10 about
/// `alu::EX2_TINY_NEG_MAX`, exponent 9: where 2^x is 1.0 or the largest f24 below it) or just
/// above it (11-32; [`ex2_band_f24`] gives EX2 more of those).
///
/// The SFU's iteration registers (pica_sh_sfu.sv) also need the classes a random mantissa at
/// a mid exponent almost never gives: exact powers of two (mantissa 0: LG2's squarings stay
/// at 1.0, 1.0 itself gives L = 0, RCP/RSQ's quotient is exact), exponents at both ends of
/// the range (RCP/RSQ results near overflow and underflow), values just around 1.0 (EX2 near
/// 0, LG2's leading one far down) and negatives for every op (RSQ/LG2's NaN arm, EX2's
/// negated fixed-point x): about one value in three is one of these.
pub fn spread_f24(r: &mut Rng) -> F24 {
    if r.chance(12) {
        // Half about the tiny-negative bound, half the negatives above it up to the main
        // range (biased exponents 11-32: 2^x within 2^-20 below 1, where P runs just under
        // 2^63 and one wrong low bit of q carries it over; `sh_sfu_enum qx19 / qy24`).
        let exp = if r.chance(50) {
            8 + r.below(3) as u32
        } else {
            11 + r.below(22) as u32
        };
        return F24::from_bits(1 << 23 | exp << 16 | r.below(1 << 16) as u32);
    }
    let sign = u32::from(r.chance(25)) << 23;
    let exp = match r.below(8) {
        // Anywhere in the normal range, or about EX2's overflow bound (|x| >= 64: biased
        // exponent 69, pica_sh_sfu.sv `e >= 7'd69`).
        0 => {
            if r.chance(50) {
                1 + r.below(0x7E) as u32
            } else {
                68 + r.below(3) as u32
            }
        }
        // Around 1.0: 0.5 .. 4.
        1 => 0x3E + r.below(3) as u32,
        _ => 33 + r.below(36) as u32,
    };
    let mant = match r.below(6) {
        0 => 0,
        1 => r.below(64) as u32,
        2 => 0xFFFF - r.below(64) as u32,
        _ => r.below(1 << 16) as u32,
    };
    F24::from_bits(sign | exp << 16 | mant)
}

/// A value of the case's close-magnitude cluster (see [`Cluster`]).
///
/// The adders' alignment and normalisation (pica_f24_add_p.sv in pica_sh_alu: the operand
/// order, the shift by the exponent difference, the leading-one search after a cancellation,
/// the exact-zero sum) and the comparators' magnitude compares (pica_f24_cmp.sv) act only on
/// operands within a few binades of each other, which independent random or edge values
/// almost never are.
fn cluster_f24(r: &mut Rng, c: &Cluster) -> F24 {
    let sign = (r.below(2) as u32) << 23;
    let delta: i32 = match r.below(10) {
        0..=4 => 0,
        5..=6 => r.pick(&[-1, 1]),
        // Every alignment shift, 0 to past the 16 mantissa bits plus guard bits.
        _ => r.below(51) as i32 - 25,
    };
    let exp = (c.exp as i32 + delta).clamp(1, 0x7E) as u32;
    let mant = match r.below(20) {
        0..=4 => c.mant,
        // A cancellation of 16 - k bits against the base mantissa; k <= 5 one time in three
        // (the comparators' low magnitude bits decide only between neighbours that close).
        5..=17 => {
            let k = if r.chance(33) {
                r.below(6) as u32
            } else {
                r.below(17) as u32
            };
            let d = r.below(1 << k) as u32;
            if r.chance(50) {
                (c.mant + d) & 0xFFFF
            } else {
                c.mant.wrapping_sub(d) & 0xFFFF
            }
        }
        _ => r.below(1 << 16) as u32,
    };
    F24::from_bits(sign | exp << 16 | mant)
}

/// The close-magnitude cluster of one case: a centre exponent and a base mantissa that the
/// [`CLUSTER_UNIFORMS`] and [`CLUSTER_INPUTS`] values stay near.
struct Cluster {
    exp: u32,
    mant: u32,
}

impl Cluster {
    fn new(r: &mut Rng) -> Self {
        let exp = if r.chance(8) {
            // At the top binade (2^62-2^63): sums of two same-signed values reach 2^64 and
            // overflow to infinity (the adders' overflow arm, pica_f24_add_p.sv).
            0x7D + r.below(2) as u32
        } else if r.chance(20) {
            1 + r.below(0x7E) as u32
        } else {
            0x30 + r.below(0x20) as u32
        };
        Self {
            exp,
            mant: r.below(1 << 16) as u32,
        }
    }

    /// A vector of cluster values; one in three a single magnitude with a random sign per
    /// lane, so the products of two such vectors cancel exactly in pairs (DP's `dsum == 0`
    /// and the partial sums' full cancellation).
    fn vec(&self, r: &mut Rng) -> [F24; 4] {
        if r.chance(33) {
            let x = cluster_f24(r, self).bits() & 0x7F_FFFF;
            return [(); 4].map(|()| F24::from_bits(x | (r.below(2) as u32) << 23));
        }
        [(); 4].map(|()| cluster_f24(r, self))
    }
}

/// A negative f24 with a biased exponent of 8-32, the mantissa random: EX2 of it is 1.0 or just
/// below (2^x within 2^-20 of 1), where the fixed-point P runs just under 2^63 and one wrong
/// low bit of `q = 1 + t + t^2/2` carries into the result. Each bit of q does so in its own
/// band of about two exponents only (bit 21 flipped changes 69,987 of the 2^24 inputs, all
/// at biased exponents 21 and 22, and none elsewhere: `sh_sfu_enum qx21`), so a flaw there
/// needs operands in every band; [`spread_f24`]'s share of them gave 27 EX2 operands over
/// these 25 exponents in 512 cases (seed 1), none at 21-22.
pub fn ex2_band_f24(r: &mut Rng) -> F24 {
    let exp = 8 + r.below(25) as u32;
    F24::from_bits(1 << 23 | exp << 16 | r.below(1 << 16) as u32)
}

/// The float uniforms [`generate`] fills with [`ex2_band_f24`] vectors (c60-c62), read by
/// three in four EX2s of the unary-op arm of [`Gen::simple`].
const EX2_BAND_UNIFORMS: std::ops::Range<u8> = 60..63;

/// EX2 operands that single flaws of the SFU's EX2 need and no band meets by chance
/// (`pica mutate --stage sh`, rtl-bridge/mutants/sh_mut.notes): x in (-63, -62), whose biased
/// result exponent is exactly 0 (2^x is below the f24 range: +0, where the last arm would give
/// an exponent-0 pattern with P's mantissa), and the five inputs whose result changes when
/// bit 28 of EX2's 1 + t is cleared (`sh_sfu_enum ot28 list`: every other of the 2^24 gives
/// the same result).
const EX2_PINNED: &[u32] = &[
    0xC4_F400, 0xC4_F123, 0xC4_F7F0, 0x33_E4AB, 0xAF_7155, 0xB1_CDAE, 0xB3_7160, 0xB7_006D,
];

/// The float uniforms [`generate`] fills with cluster vectors (c80-c87).
const CLUSTER_UNIFORMS: std::ops::Range<u8> = 80..88;
/// The inputs [`generate`] fills with cluster vectors (v14, v15, and v12, v13 in half the
/// cases): the narrow source of the cluster arm (formats 1 and 2 read a wide and a narrow
/// source, so a pair of cluster operands needs one in v0-v15).
const CLUSTER_INPUTS: std::ops::Range<usize> = 12..16;

/// An f24 for FLR and MOVA: a fraction below the binary point at every exponent from 2^-2 to
/// 2^33 (FLR's integer-part mask moves one bit per exponent and ends at 2^23; MOVA's to-int
/// shifts the mantissa up to bit 30 and saturates from 2^31), half of them negative (FLR
/// rounds toward -inf), one in ten a per-lane infinity or NaN (FLR passes them through lane
/// by lane, pica_f24_flr.sv:44).
pub fn int_range_f24(r: &mut Rng) -> F24 {
    let sign = (r.below(2) as u32) << 23;
    let mant = r.below(1 << 16) as u32;
    if r.chance(10) {
        return F24::from_bits(if r.chance(50) {
            sign | 0x7F << 16
        } else {
            sign | 0x7F << 16 | mant.max(1)
        });
    }
    let exp = 0x3D + r.below(36) as u32;
    F24::from_bits(sign | exp << 16 | mant)
}

/// The float uniforms [`generate`] fills with [`int_range_f24`] vectors (c72-c79), read by
/// the FLR/MOVA arm of [`Gen::simple`].
const INT_RANGE_UNIFORMS: std::ops::Range<u8> = 72..80;

/// A small integer for MOVA: mostly 1-127 (a positive in-range relative offset), one in eight
/// -128..-1, and now and then just past the ends of the offset range (0, 127, 128, -128,
/// -129: the unit clamps an a0 outside [-128, 127] to 0).
pub fn small_int_f24(r: &mut Rng) -> F24 {
    let n: i32 = match r.below(8) {
        0 => -1 - r.below(128) as i32,
        1 => r.pick(&[0, 127, 128, -128, -129]),
        _ => 1 + r.below(127) as i32,
    };
    F24::from_f64_trunc(f64::from(n))
}

/// The float uniform whose lanes lie within 16 ulps of 1.0 (c63): LG2 of it is within 2^-12 of
/// 0, the operand of the pow chain's EX2 ([`Gen::pow_chain`]).
const NEAR_ONE_UNIFORM: u8 = 63;

/// The float uniforms [`generate`] fills with [`small_int_f24`] vectors (c64-c71), read by
/// the relative-read arm ([`Gen::small_rel_read`]).
const SMALL_INT_UNIFORMS: std::ops::Range<u8> = 64..72;

/// A program under construction: the main code from 0 (or from a high base it jumps to),
/// subroutines at `SUB_BASE + SUB_SPAN k`.
struct Gen<'a> {
    r: &'a mut Rng,
    code: Vec<u32>,
    subs: usize,
    loop_depth: usize,
    /// Temporaries (raw 0x10-0x1F) that earlier instructions write: sources pick them often,
    /// so a value is read back (swizzled, negated, through another op) after its write and a
    /// fault in the register file or the write mask reaches a commit.
    written: Vec<u8>,
    /// The CALL/CALLC/CALLU words of each subroutine (absolute pcs): a call into subroutine
    /// k may end its range right after one of them (a tail call), so the inner return pops
    /// the outer frame in the same step (the CALL stack's chained pops, 3dbrew "Control
    /// Flow").
    sub_calls: Vec<Vec<usize>>,
    /// The case's bool uniforms and int uniforms: the deep nests ([`Gen::nest`]) open IFUs
    /// that are taken and LOOPs with few iterations.
    bools: u16,
    ints: [[u8; 4]; 4],
    /// Every call into a subroutine with calls of its own ends right after its first one (in
    /// the chained cases: main -> s0 (or s1) -> ... -> s4 with every frame ending where the
    /// next returns, so s4's return pops four frames in one step).
    tail_chain: bool,
    /// No tail calls at all (the chained cases that are not [`Gen::tail_chain`]): every frame
    /// of the chain returns on its own, so the deepest frames shift up the CALL stack one pop
    /// at a time and main's return address, entry 3 of a four-frame chain from s1, is
    /// finally used (a four-pop step never uses the fourth entry's address).
    no_tail: bool,
    /// Where the main program's body starts ([`Gen::main_room`]): 0, or the high base a
    /// relocated main jumps to.
    main_base: usize,
    /// The end of the main program's room: [`SUB_BASE`], or 256 words past its high base.
    main_limit: usize,
    /// The int uniform whose count is 128-159 in this case, if any (one case in eight, i3):
    /// the outermost LOOP of a four-LOOP nest takes it, the other loops never do.
    long_loop: Option<u8>,
}

const SUB_BASE: usize = 0x100;
/// Not a power of two, so that code and return addresses set every address bit from 3 to 8
/// (the CALL stack compares whole 12-bit addresses; 0x180-0x1C7 have bit 7 set).
const SUB_SPAN: usize = 0x28;
/// Five: a chain main -> s0 -> ... -> s4 is five frames, one more than the CALL stack holds
/// (the oldest falls off, 3dbrew "Control Flow").
const SUBS: usize = 5;

impl Gen<'_> {
    /// `pc` lies in the main program with room for a multi-word arm (40 words) before its end.
    fn main_room(&self, pc: usize) -> bool {
        pc >= self.main_base && pc + 40 < self.main_limit
    }

    fn at(&mut self, pc: usize, word: u32) {
        if self.code.len() <= pc {
            self.code
                .resize(pc + 1, encode(&Instruction::Plain(Opcode::Nop)));
        }
        self.code[pc] = word;
    }

    fn cond(&mut self) -> Condition {
        Condition {
            op: CondOp::from_bits(self.r.below(4) as u32),
            ref_x: self.r.chance(50),
            ref_y: self.r.chance(50),
        }
    }

    /// The range (target, NUM) of a CALL at `pc` into subroutine `k`: half the time, when
    /// `k` has calls of its own, one that ends right after one of them (a tail call); the
    /// call is recorded when `pc` lies in a subroutine.
    fn call_range(&mut self, pc: usize, k: usize) -> (u16, u8) {
        let target = SUB_BASE + SUB_SPAN * k;
        let tail = match self.sub_calls[k].as_slice() {
            [] => None,
            _ if self.no_tail => None,
            [first, ..] if self.tail_chain => Some(*first),
            calls if self.r.chance(50) => Some(self.r.pick(calls)),
            _ => None,
        };
        let num = tail.map_or(1 + self.r.below(4) as u8, |c| (c + 1 - target) as u8);
        if (SUB_BASE..SUB_BASE + SUB_SPAN * SUBS).contains(&pc) {
            self.sub_calls[(pc - SUB_BASE) / SUB_SPAN].push(pc);
        }
        (target as u16, num)
    }

    /// A temporary an earlier instruction writes, some of the time (`percent`).
    fn written_src(&mut self, percent: u64) -> Option<SrcReg> {
        if self.written.is_empty() || !self.r.chance(percent) {
            return None;
        }
        let i = self.r.below(self.written.len() as u64) as usize;
        Some(SrcReg::from_raw(self.written[i]))
    }

    fn wide_src(&mut self) -> SrcReg {
        if let Some(s) = self.written_src(25) {
            return s;
        }
        match self.r.below(10) {
            0..=2 => SrcReg::from_raw(self.r.below(16) as u8),
            3..=4 => SrcReg::from_raw(0x10 + self.r.below(16) as u8),
            _ => SrcReg::from_raw(0x20 + self.r.below(96) as u8),
        }
    }

    fn narrow_src(&mut self) -> SrcReg {
        if let Some(s) = self.written_src(35) {
            return s;
        }
        SrcReg::from_raw(self.r.below(32) as u8)
    }

    fn idx(&mut self) -> RelIndex {
        if self.r.chance(60) {
            RelIndex::None
        } else {
            RelIndex::from_bits(self.r.below(4) as u32)
        }
    }

    fn dst(&mut self) -> DstReg {
        let raw = self.r.below(32) as u8;
        if raw >= 0x10 && !self.written.contains(&raw) {
            self.written.push(raw);
        }
        DstReg::from_raw(raw)
    }

    /// One non-flow instruction.
    fn simple(&mut self) -> Instruction {
        let desc = self.r.below(128) as u8;
        match self.r.below(32) {
            // EX2/LG2/RCP/RSQ of a spread uniform (the other arms' operands are mostly edge
            // values, which these ops map to constants).
            20..=23 | 30..=31 => {
                let op = self.r.pick(UNARY_OPS);
                let from = if op == Opcode::Ex2 && self.r.chance(75) {
                    EX2_BAND_UNIFORMS
                } else {
                    SPREAD_UNIFORMS
                };
                Instruction::Alu {
                    op,
                    dst: self.dst(),
                    src1: SrcReg::from_raw(
                        0x20 + from.start + self.r.below(from.len() as u64) as u8,
                    ),
                    src2: SrcReg::default(),
                    idx: RelIndex::None,
                    desc,
                }
            }
            0..=9 => {
                let op = self.r.pick(ALU_OPS);
                let (src1, src2) = self.alu_srcs(op);
                self.alu_word(op, src1, src2, desc)
            }
            10..=12 => {
                let op = self.r.pick(&[Opcode::Mad, Opcode::Madi]);
                let (src2, src3) = if op == Opcode::Mad {
                    (self.wide_src(), self.narrow_src())
                } else {
                    (self.narrow_src(), self.wide_src())
                };
                Instruction::Mad {
                    op,
                    dst: self.dst(),
                    src1: self.narrow_src(),
                    src2,
                    src3,
                    idx: self.idx(),
                    desc: desc & 31,
                }
            }
            13..=14 => {
                let src1 = self.wide_src();
                // Sometimes a register against itself: equal lanes wherever the swizzles pick
                // the same component (the EQ/LE/GE edges of each comparison).
                let src2 = if src1.raw() < 0x20 && self.r.chance(30) {
                    src1
                } else {
                    self.narrow_src()
                };
                Instruction::Cmp {
                    src1,
                    src2,
                    idx: self.idx(),
                    cmp_x: CmpOp::from_bits(self.r.below(8) as u32),
                    cmp_y: CmpOp::from_bits(self.r.below(8) as u32),
                    desc,
                }
            }
            // Two cluster operands (close magnitudes) in one arithmetic or compare op.
            24..=27 => self.cluster_op(desc),
            // FLR or MOVA of an int-range uniform.
            28..=29 => {
                let src1 = SrcReg::from_raw(
                    0x20 + INT_RANGE_UNIFORMS.start
                        + self.r.below(INT_RANGE_UNIFORMS.len() as u64) as u8,
                );
                let (op, dst) = if self.r.chance(75) {
                    (Opcode::Flr, self.dst())
                } else {
                    (Opcode::Mova, DstReg::default())
                };
                Instruction::Alu {
                    op,
                    dst,
                    src1,
                    src2: SrcReg::default(),
                    idx: RelIndex::None,
                    desc,
                }
            }
            15..=16 => self.mova(Some(desc)),
            17 => Instruction::SetEmit {
                vtx_id: self.r.below(4) as u8,
                winding: self.r.chance(50),
                prim_emit: self.r.chance(50),
            },
            18 => Instruction::Plain(Opcode::Emit),
            _ => Instruction::Plain(Opcode::Nop),
        }
    }

    /// A nest of `levels` IFs and LOOPs (at most `loops` of them LOOPs) from `pc`, each level's
    /// body holding the next level and now and then a word after it; returns the next free pc.
    ///
    /// The random blocks nest three deep; the IF stack's entries 4-8 and the LOOP stack's
    /// fourth entry (their pushes, the pops that shift them up, a BREAK from the innermost of
    /// several loops with the outer ones iterating on) need more open at once. The IFUs read a
    /// bool uniform that is set (the body runs) and the LOOPs an int uniform of at most three
    /// iterations, so the innermost body runs at most 81 times; except that the outermost of
    /// four LOOPs may take the case's long count ([`Gen::long_loop`], 129-160 iterations,
    /// which runs into [`MAX_INSTRUCTIONS`] unless a fault cuts it short).
    fn nest(&mut self, pc: usize, levels: usize, loops: usize, min_sub: usize) -> usize {
        if levels == 0 {
            let mut p = pc;
            if self.loop_depth > 0 && self.r.chance(50) {
                let brk = Instruction::Flow {
                    op: Opcode::Breakc,
                    cond: self.cond(),
                    target: self.r.below(4096) as u16,
                    num: self.r.below(256) as u8,
                };
                self.at(p, encode(&brk));
                p += 1;
            }
            let budget = 1 + self.r.below(3) as usize;
            return self.block(p, budget, 3, min_sub);
        }
        let short: Vec<u8> = (0..4u8)
            .filter(|&i| self.ints[usize::from(i)][0] <= 2)
            .collect();
        if loops > 0 && !short.is_empty() && (loops >= levels || self.r.chance(70)) {
            // The outermost of four LOOPs takes the long count (it is then the LOOP stack's
            // fourth entry while the inner three are open).
            let id = match self.long_loop {
                Some(long) if loops == 4 => long,
                _ => self.r.pick(&short),
            };
            self.loop_depth += 1;
            let inner = self.nest(pc + 1, levels - 1, loops - 1, min_sub);
            let after = self.after_inner();
            let body_end = self.block(inner, after, 3, min_sub);
            self.loop_depth -= 1;
            let inst = Instruction::FlowUniform {
                op: Opcode::Loop,
                id,
                target: (body_end - 1) as u16,
                num: 0,
            };
            self.at(pc, encode(&inst));
            return body_end;
        }
        let inner = self.nest(pc + 1, levels - 1, loops, min_sub);
        let after = self.after_inner();
        let then_end = self.block(inner, after, 3, min_sub);
        let b = self.r.below(2) as usize;
        let else_end = self.block(then_end, b, 3, min_sub);
        let (target, num) = (then_end as u16, (else_end - then_end) as u8);
        let set: Vec<u8> = (0..16u8).filter(|&i| self.bools >> i & 1 == 1).collect();
        let inst = if !set.is_empty() && self.r.chance(85) {
            Instruction::FlowUniform {
                op: Opcode::Ifu,
                id: self.r.pick(&set),
                target,
                num,
            }
        } else {
            Instruction::Flow {
                op: Opcode::Ifc,
                cond: self.cond(),
                target,
                num,
            }
        };
        self.at(pc, encode(&inst));
        else_end
    }

    /// The words a nest level's body holds after the inner level: mostly one, so that the
    /// level ends on its own word. A level ending where the inner one ends never pops or
    /// iterates at its end (an IF pops one entry per instruction; a LOOP, LoopSharedEnd::One,
    /// steps only the inner entry), and a jump past an inner else-body skips the outer trigger.
    fn after_inner(&mut self) -> usize {
        usize::from(self.r.chance(85))
    }

    /// An op on two cluster operands (a [`CLUSTER_UNIFORMS`] uniform and a [`CLUSTER_INPUTS`]
    /// input, in the format's wide and narrow slots), unindexed so the pair stays a pair.
    fn cluster_op(&mut self, desc: u8) -> Instruction {
        let wide = SrcReg::from_raw(
            0x20 + CLUSTER_UNIFORMS.start + self.r.below(CLUSTER_UNIFORMS.len() as u64) as u8,
        );
        let narrow = SrcReg::from_raw(
            CLUSTER_INPUTS.start as u8 + self.r.below(CLUSTER_INPUTS.len() as u64) as u8,
        );
        let idx = RelIndex::None;
        match self.r.below(16) {
            0..=1 => Instruction::Cmp {
                src1: wide,
                src2: narrow,
                idx,
                cmp_x: CmpOp::from_bits(self.r.below(8) as u32),
                cmp_y: CmpOp::from_bits(self.r.below(8) as u32),
                desc,
            },
            2..=3 => {
                // The product's addend is a cluster value too (close to the product when the
                // cluster lies near 1.0).
                let op = self.r.pick(&[Opcode::Mad, Opcode::Madi]);
                let other = SrcReg::from_raw(
                    CLUSTER_INPUTS.start as u8 + self.r.below(CLUSTER_INPUTS.len() as u64) as u8,
                );
                let (src2, src3) = if op == Opcode::Mad {
                    (wide, other)
                } else {
                    (other, wide)
                };
                Instruction::Mad {
                    op,
                    dst: self.dst(),
                    src1: narrow,
                    src2,
                    src3,
                    idx,
                    desc: desc & 31,
                }
            }
            _ => {
                let op = self.r.pick(&[
                    Opcode::Add,
                    Opcode::Add,
                    Opcode::Dp3,
                    Opcode::Dp4,
                    Opcode::Dp4,
                    Opcode::Dph,
                    Opcode::Mul,
                    Opcode::Sge,
                    Opcode::Slt,
                    Opcode::Max,
                    Opcode::Min,
                    Opcode::Dphi,
                    Opcode::Sgei,
                    Opcode::Slti,
                    // LITP's y clamp compares with -127.99 (0xC5FFFC): cluster values near
                    // that binade.
                    Opcode::Litp,
                ]);
                let (src1, src2) = if op.format() == Format::F1i {
                    (narrow, wide)
                } else {
                    (wide, narrow)
                };
                Instruction::Alu {
                    op,
                    dst: self.dst(),
                    src1,
                    src2,
                    idx,
                    desc,
                }
            }
        }
    }

    /// Emits a block from `pc` of about `budget` instructions; returns the next free pc.
    /// `min_sub`: the first subroutine it may call (subroutine k calls only later ones, so
    /// calls cannot recurse).
    fn block(&mut self, mut pc: usize, budget: usize, depth: usize, min_sub: usize) -> usize {
        let end = pc + budget;
        while pc < end {
            let kind = if depth >= 3 { 0 } else { self.r.below(15) };
            match kind {
                // A deep nest, in main's top level only (outside every loop, so its loops'
                // iterations multiply with no others); more often in a relocated main, whose
                // deep stacks then hold high addresses.
                // (At most 31 words: 9 levels of 3, the innermost 4.)
                14 if depth == 0
                    && self.loop_depth == 0
                    && self.main_room(pc)
                    && (self.long_loop.is_some()
                        || self.r.chance(if self.main_base > 0 { 80 } else { 35 })) =>
                {
                    // Half IFs only, seven to nine deep (the IF stack's eighth entry, and its
                    // overflow); half mostly LOOPs, all four entries in most (a pop shifts the
                    // fourth entry up). A case with a long count always nests four LOOPs.
                    let (levels, loops) = if self.long_loop.is_some() {
                        (4 + self.r.below(3) as usize, 4)
                    } else if self.r.chance(50) {
                        (7 + self.r.below(3) as usize, 0)
                    } else {
                        (4 + self.r.below(3) as usize, self.r.pick(&[2, 3, 4, 4, 4]))
                    };
                    pc = self.nest(pc, levels, loops, min_sub);
                }
                // IF: then-body [pc+1, dst), else-body [dst, dst+num).
                9 | 10 => {
                    let then_start = pc + 1;
                    let b = 1 + self.r.below(3) as usize;
                    let then_end = self.block(then_start, b, depth + 1, min_sub);
                    let b = self.r.below(3) as usize;
                    let else_end = self.block(then_end, b, depth + 1, min_sub);
                    let (dst, num) = (then_end as u16, (else_end - then_end) as u8);
                    let inst = if self.r.chance(50) {
                        Instruction::FlowUniform {
                            op: Opcode::Ifu,
                            id: self.r.below(16) as u8,
                            target: dst,
                            num,
                        }
                    } else {
                        Instruction::Flow {
                            op: Opcode::Ifc,
                            cond: self.cond(),
                            target: dst,
                            num,
                        }
                    };
                    self.at(pc, encode(&inst));
                    pc = else_end;
                }
                // LOOP: body [pc+1, dst], maybe with a BREAKC/BREAK inside.
                11 => {
                    self.loop_depth += 1;
                    let b = 1 + self.r.below(3) as usize;
                    let body_end = self.block(pc + 1, b, depth + 1, min_sub);
                    self.loop_depth -= 1;
                    if self.r.chance(3) {
                        // END as the body's last word: the unit ends without the loop-end
                        // step of aL or any stack check (ShaderUnit::step).
                        self.at(body_end - 1, encode(&Instruction::Plain(Opcode::End)));
                    }
                    // Never the long count (it is the four-LOOP nest's, where the inner loops
                    // are short): i3 is the only one that can be long.
                    let ids = if self.long_loop.is_some() { 3 } else { 4 };
                    let inst = Instruction::FlowUniform {
                        op: Opcode::Loop,
                        id: self.r.below(ids) as u8,
                        target: (body_end - 1) as u16,
                        num: 0,
                    };
                    self.at(pc, encode(&inst));
                    pc = body_end;
                    if self.main_room(pc) && self.r.chance(30) {
                        // A uniform read relative to aL just behind the loop: the last
                        // iteration's loop-end step changes aL while the read is decoded.
                        pc = self.rel_read_after(pc, RelIndex::AL);
                    }
                }
                // CALL of a later subroutine.
                12 if min_sub < self.subs => {
                    let k = min_sub + self.r.below((self.subs - min_sub) as u64) as usize;
                    let (target, num) = self.call_range(pc, k);
                    let inst = match self.r.below(3) {
                        0 => call(target, num),
                        1 => Instruction::Flow {
                            op: Opcode::Callc,
                            cond: self.cond(),
                            target,
                            num,
                        },
                        _ => Instruction::FlowUniform {
                            op: Opcode::Callu,
                            id: self.r.below(16) as u8,
                            target,
                            num,
                        },
                    };
                    self.at(pc, encode(&inst));
                    pc += 1;
                }
                // Forward jump over a short block.
                13 => {
                    let b = 1 + self.r.below(2) as usize;
                    let after = self.block(pc + 1, b, depth + 1, min_sub);
                    let inst = if self.r.chance(50) {
                        Instruction::Flow {
                            op: Opcode::Jmpc,
                            cond: self.cond(),
                            target: after as u16,
                            num: 0,
                        }
                    } else {
                        Instruction::FlowUniform {
                            op: Opcode::Jmpu,
                            id: self.r.below(16) as u8,
                            target: after as u16,
                            num: self.r.below(2) as u8,
                        }
                    };
                    self.at(pc, encode(&inst));
                    pc = after;
                }
                // A read-after-write burst, or a uniform read relative to a small a0.x/a0.y
                // (in main, where there is room for the longer sequences).
                _ if self.main_room(pc) && self.r.chance(12) => pc = self.raw_burst(pc),
                _ if self.main_room(pc) && self.r.chance(5) => pc = self.small_rel_read(pc),
                _ if self.main_room(pc) && self.r.chance(5) => pc = self.pow_chain(pc),
                _ => {
                    let inst = if self.loop_depth > 0 && self.r.chance(8) {
                        if self.r.chance(70) {
                            Instruction::Flow {
                                op: Opcode::Breakc,
                                cond: self.cond(),
                                target: self.r.below(4096) as u16,
                                num: self.r.below(256) as u8,
                            }
                        } else {
                            Instruction::Plain(Opcode::Break)
                        }
                    } else if self.r.chance(1) {
                        // Rare: END mid-program, BREAK outside a loop, an unknown opcode.
                        match self.r.below(3) {
                            0 => Instruction::Plain(Opcode::End),
                            1 => Instruction::Plain(Opcode::Break),
                            _ => self.unknown(),
                        }
                    } else {
                        self.simple()
                    };
                    let mut word = encode(&inst);
                    if matches!(
                        inst,
                        Instruction::Alu { .. } | Instruction::Mad { .. } | Instruction::Cmp { .. }
                    ) && self.r.chance(12)
                    {
                        // Random bits in the fields the format leaves unused (encode writes
                        // them 0; the model ignores them, isa::used_mask): the unit's decode
                        // must ignore them too (a one-source op's second source field, the
                        // gaps of format 1c).
                        word |= self.r.next_u64() as u32 & !used_mask(word);
                    }
                    self.at(pc, word);
                    pc += 1;
                }
            }
        }
        pc
    }
}

/// A random program and configuration, deterministic from `seed` (the generator of
/// `tests/shader_unit.rs` and `pica fuzz --target shader`).
pub fn generate(seed: u64) -> ShaderCase {
    generate_with(seed, true)
}

/// [`generate`] without the relocated main: every word the program runs below 0x200 (the
/// far arm's targets at 0x800 and above aside), for the SH stage's tests and fuzzer, which put
/// a unit-independence prologue at 0x200 and load the code below it only.
pub fn generate_low(seed: u64) -> ShaderCase {
    generate_with(seed, false)
}

fn generate_with(seed: u64, relocate: bool) -> ShaderCase {
    let mut r = Rng(seed);
    let mut cfg = ShaderCase::empty();
    for d in cfg.opdescs.iter_mut() {
        *d = r.next_u64() as u32 & 0x7FFF_FFFF;
        if r.chance(30) {
            // Identity swizzles are common in real code.
            *d = (*d & 0x0000_000F) | 0x1B << 5 | 0x1B << 14 | 0x1B << 23 | (*d & 0x0040_2010);
        }
    }
    let cluster = Cluster::new(&mut r);
    for (k, u) in cfg.float_uniforms.iter_mut().enumerate() {
        let k = k as u8;
        *u = if SPREAD_UNIFORMS.contains(&k) {
            [(); 4].map(|()| spread_f24(&mut r))
        } else if CLUSTER_UNIFORMS.contains(&k) {
            cluster.vec(&mut r)
        } else if INT_RANGE_UNIFORMS.contains(&k) {
            [(); 4].map(|()| int_range_f24(&mut r))
        } else if SMALL_INT_UNIFORMS.contains(&k) {
            [(); 4].map(|()| small_int_f24(&mut r))
        } else if EX2_BAND_UNIFORMS.contains(&k) {
            [(); 4].map(|()| ex2_band_f24(&mut r))
        } else if k == NEAR_ONE_UNIFORM {
            [(); 4].map(|()| {
                F24::from_bits(if r.chance(50) {
                    0x3F_0000 + r.below(17) as u32
                } else {
                    0x3E_FFFF - r.below(16) as u32
                })
            })
        } else {
            edgy_vec(&mut r)
        };
    }
    for i in cfg.int_uniforms.iter_mut() {
        *i = [
            // Mostly 1-4 iterations; one in four 5-21, so the remaining-iteration counter's
            // bits 2-4 count down too.
            if r.chance(25) {
                4 + r.below(17) as u8
            } else {
                r.below(4) as u8
            },
            r.next_u64() as u8,
            {
                let any = r.next_u64() as u8;
                r.pick(&[0u8, 1, 2, 255, 0x80, any])
            },
            r.next_u64() as u8,
        ];
    }
    cfg.bool_uniforms = r.next_u64() as u16;
    // One case in eight gives i3 a count of 128-159 for the outermost of four nested LOOPs
    // (the LOOP stack's fourth entry then holds a count with bit 7 set; the loops inside run
    // 1-3 times, so the outer loop ends within MAX_INSTRUCTIONS when a fault cuts its count).
    let long_loop = if r.chance(12) {
        cfg.int_uniforms[3][0] = 128 + r.below(32) as u8;
        Some(3u8)
    } else {
        None
    };
    let inputs = &mut cfg.inputs;
    for (k, v) in inputs.iter_mut().enumerate() {
        // v12 and v13 are cluster inputs in half the cases only: the other half keep their
        // edge values for the other arms' narrow sources.
        *v = if k >= CLUSTER_INPUTS.start + 2 || (CLUSTER_INPUTS.contains(&k) && r.chance(50)) {
            cluster.vec(&mut r)
        } else {
            edgy_vec(&mut r)
        };
    }
    // Small integers in some inputs make MOVA offsets land in range.
    for v in inputs.iter_mut().take(4) {
        if r.chance(50) {
            let n = r.below(100) as i32 - 40;
            *v = [0, 1, 2, 3].map(|k| F24::from_f64_trunc(f64::from(n + 7 * k)));
        }
    }
    let mut g = Gen {
        r: &mut r,
        code: Vec::new(),
        subs: SUBS,
        loop_depth: 0,
        written: Vec::new(),
        sub_calls: vec![Vec::new(); SUBS],
        bools: cfg.bool_uniforms,
        ints: cfg.int_uniforms,
        tail_chain: false,
        no_tail: false,
        main_base: 0,
        main_limit: SUB_BASE,
        long_loop,
    };
    // One case in five chains the subroutines: main and each subroutine but the last start
    // with a CALL of the next, so the calls nest SUBS + 1 deep (the stack's overflow, and
    // with tail calls up to four pops in one step); half of those make every call a tail
    // call of that first CALL (the four pops in one step for sure).
    let chain = g.r.chance(20);
    g.tail_chain = chain && g.r.chance(50);
    g.no_tail = chain && !g.tail_chain;
    for k in (0..SUBS).rev() {
        let mut base = SUB_BASE + SUB_SPAN * k;
        if chain && k + 1 < SUBS {
            let (target, num) = g.call_range(base, k + 1);
            g.at(base, encode(&call(target, num)));
            base += 1;
        }
        let budget = 2 + g.r.below(6) as usize;
        let end = g.block(base, budget, 1, k + 1);
        debug_assert!(end < base + SUB_SPAN, "subroutine {k} overflows");
    }
    let budget = 6 + g.r.below(24) as usize;
    // One case in four enters past word 0 (the words before it are ENDs, never reached): the
    // unit must take the entry point at start instead of fetching on from where reset (or the
    // last run) left its fetch PC.
    let entry = if g.r.chance(25) {
        1 + g.r.below(8) as usize
    } else {
        0
    };
    for pc in 0..entry {
        g.at(pc, encode(&Instruction::Plain(Opcode::End)));
    }
    let start = if chain {
        // Main calls s0 (five frames: the oldest falls off) or s1 (four: the full stack,
        // whose oldest return address, main's, is the only one below SUB_BASE and so the only
        // one with bit 8 clear).
        let first = g.r.below(2) as usize;
        let (target, num) = g.call_range(entry, first);
        g.at(entry, encode(&call(target, num)));
        entry + 1
    } else if relocate && g.r.chance(30) {
        // About three unchained cases in ten relocate main's body to a high base (0x200-0x6F0,
        // below the far arm's 0x800): an always-taken JMPU at the entry jumps there. Its
        // LOOP ends, IF targets and CALL return addresses then carry bits 9-10, which
        // programs below SUB_BASE never set: the stacks' high address bits, and the unit's
        // loop-end compares of D's aL hazard at such addresses (an aL-relative read behind a
        // loop ending at or above 0x100 survived `pica mutate --stage sh`).
        let high = 0x200 + 0x10 * g.r.below(0x50) as usize;
        let id = g.r.below(16) as u8;
        let jump = Instruction::FlowUniform {
            op: Opcode::Jmpu,
            id,
            target: high as u16,
            num: u8::from((g.bools >> id) & 1 == 0),
        };
        g.at(entry, encode(&jump));
        g.main_base = high;
        g.main_limit = high + 0x100;
        high
    } else {
        entry
    };
    let end = g.block(start, budget, 0, 0);
    debug_assert!(end < g.main_limit, "main program overflows");
    // Drawn from a generator of its own, so every other word and value of the case is the one
    // drawn without it.
    let mut side = Rng(seed ^ 0x5EED_0ADD_A119_0003);
    let end = if side.chance(25) && end + 3 < g.main_limit {
        match align3_sub(&mut side, &cfg.opdescs, &mut cfg.float_uniforms) {
            Some(words) => {
                for (k, w) in words.into_iter().enumerate() {
                    g.at(end + k, w);
                }
                end + 2
            }
            None => end,
        }
    } else {
        end
    };
    let bools = cfg.bool_uniforms;
    g.last(end, bools);
    cfg.code = g.code;
    cfg.entry = entry as u16;
    // Drawn last, so every other word and value of the case is the one drawn without it: one
    // case in two puts two of EX2_PINNED in two lanes of one of the EX2 band uniforms.
    if r.chance(50) {
        let k = EX2_BAND_UNIFORMS.start + r.below(EX2_BAND_UNIFORMS.len() as u64) as u8;
        let u = &mut cfg.float_uniforms[usize::from(k)];
        for _ in 0..2 {
            u[r.below(4) as usize] = F24::from_bits(r.pick(EX2_PINNED));
        }
    }
    cfg
}

/// `MOV rT, cB` and `ADD oN, cA, rT` whose x lane subtracts a magnitude 2^-3 times the
/// other's (exponents 3 apart) with mantissa bit 7 set and bits 2-0 clear: the adder of lane
/// x aligns the smaller operand by 3 on its fine grid, losing no bit, and a sticky bit set
/// wrongly there (the lost-bit mask of pica_f24_add_p.sv:51 with its bit 10 flipped for
/// shifts of 3-10, mutant `u_add0 shl Y 10 2` of sh_mut.notes) borrows one from the
/// difference, whose low three bits are 0: the truncated result is one ulp lower. The
/// descriptors are the case's own (one whose mask writes x for the ADD, one that writes the
/// component the ADD's x lane reads of rT for the MOV); cA is a uniform whose lane read is a
/// normal of exponent 4-126 (set to one when none is found), and one lane of cB is set: the
/// one the MOV moves into that component. None when no descriptors fit.
fn align3_sub(r: &mut Rng, descs: &[u32], unif: &mut [[F24; 4]]) -> Option<[u32; 2]> {
    let n = descs.len();
    let from = r.below(n as u64) as usize;
    let da = (0..n)
        .map(|i| (from + i) % n)
        .find(|&i| OpDesc(descs[i]).dest_mask().writes(0))?;
    let add = OpDesc(descs[da]);
    let j2 = add.swizzle(2).select(0).index();
    let from = r.below(n as u64) as usize;
    let dm = (0..n)
        .map(|i| (from + i) % n)
        .find(|&i| OpDesc(descs[i]).dest_mask().writes(j2))?;
    let mov = OpDesc(descs[dm]);
    let jb = mov.swizzle(1).select(j2).index();
    let ja = add.swizzle(1).select(0).index();
    let ka = r.below(unif.len() as u64) as usize;
    let mut kb = r.below(unif.len() as u64 - 1) as usize;
    if kb >= ka {
        kb += 1;
    }
    let a = unif[ka][ja].bits();
    let ea = (a >> 16) & 0x7F;
    let a = if (4..0x7F).contains(&ea) {
        a
    } else {
        let a =
            (r.below(2) as u32) << 23 | (4 + r.below(0x7B) as u32) << 16 | r.below(1 << 16) as u32;
        unif[ka][ja] = F24::from_bits(a);
        a
    };
    let ea = (a >> 16) & 0x7F;
    // Signs as the ADD sees them: A's after its negate, B's after the MOV's and the ADD's.
    let sa = (a >> 23) ^ u32::from(add.negate(1));
    let sb = sa ^ 1 ^ u32::from(mov.negate(1)) ^ u32::from(add.negate(2));
    let mb = (r.below(1 << 16) as u32 | 0x80) & !7;
    unif[kb][jb] = F24::from_bits(sb << 23 | (ea - 3) << 16 | mb);
    let t = 0x10 + r.below(16) as u8;
    let mov = Instruction::Alu {
        op: Opcode::Mov,
        dst: DstReg::from_raw(t),
        src1: SrcReg::from_raw(0x20 + kb as u8),
        src2: SrcReg::default(),
        idx: RelIndex::None,
        desc: dm as u8,
    };
    let add = Instruction::Alu {
        op: Opcode::Add,
        dst: DstReg::from_raw(r.below(7) as u8),
        src1: SrcReg::from_raw(0x20 + ka as u8),
        src2: SrcReg::from_raw(t),
        idx: RelIndex::None,
        desc: da as u8,
    };
    Some([encode(&mov), encode(&add)])
}

/// An unconditional CALL.
fn call(target: u16, num: u8) -> Instruction {
    Instruction::Flow {
        op: Opcode::Call,
        cond: Condition::default(),
        target,
        num,
    }
}

impl Gen<'_> {
    /// Read-after-write pairs on every temporary in every source slot: two to four distinct
    /// temporaries written back to back, then read back in a random order, each in a random
    /// source slot of an ALU, MAD/MADI or CMP word; returns the next free pc.
    ///
    /// The reads land while the writes are still in the pipeline (R's interlock must hold
    /// them: the one-hot masks of the records and of R's word, pica_shader_unit.sv), and a
    /// read right behind the write of another temporary checks that one write's busy bit
    /// does not clear another's. The random sources of [`Self::simple`] read a written
    /// temporary only now and then, and rarely a given one in a given slot soon enough.
    fn raw_burst(&mut self, mut pc: usize) -> usize {
        if self.r.chance(50) {
            return self.raw_triples(pc);
        }
        let n = 2 + self.r.below(3) as usize;
        let mut temps: Vec<u8> = Vec::with_capacity(n);
        while temps.len() < n {
            let t = 0x10 + self.r.below(16) as u8;
            if !temps.contains(&t) {
                temps.push(t);
            }
        }
        for &t in &temps {
            let inst = self.write_of(t);
            self.at(pc, encode(&inst));
            pc += 1;
        }
        // The reads in a random order (a Fisher-Yates shuffle of the written ones).
        for i in (1..temps.len()).rev() {
            let j = self.r.below(i as u64 + 1) as usize;
            temps.swap(i, j);
        }
        for t in temps {
            let inst = self.read_of(SrcReg::from_raw(t));
            self.at(pc, encode(&inst));
            pc += 1;
        }
        pc
    }

    /// The pow pattern of real vertex shaders, EX2(y * LG2(x)): LG2 of a spread uniform or of
    /// [`NEAR_ONE_UNIFORM`] (every lane within 16 ulps of 1.0) into a temporary, now and
    /// then a MUL of it by a cluster value, then EX2 of the temporary; returns the next free
    /// pc. EX2's operands are then LG2's results near 0, where its last product's rounding
    /// decides the last bit (two SFU mutants in `sh_mut.notes` differ only there, one ulp on
    /// tens of the 2^24 inputs, and random operands hit them once in 10^4).
    fn pow_chain(&mut self, mut pc: usize) -> usize {
        let t = SrcReg::from_raw(0x10 + self.r.below(16) as u8);
        if !self.written.contains(&t.raw()) {
            self.written.push(t.raw());
        }
        let spread = if self.r.chance(50) {
            SrcReg::from_raw(0x20 + NEAR_ONE_UNIFORM)
        } else {
            SrcReg::from_raw(
                0x20 + SPREAD_UNIFORMS.start + self.r.below(SPREAD_UNIFORMS.len() as u64) as u8,
            )
        };
        let mut words = vec![Instruction::Alu {
            op: Opcode::Lg2,
            dst: DstReg::from_raw(t.raw()),
            src1: spread,
            src2: SrcReg::default(),
            idx: RelIndex::None,
            desc: self.r.below(128) as u8,
        }];
        if self.r.chance(30) {
            let cluster = SrcReg::from_raw(
                0x20 + CLUSTER_UNIFORMS.start + self.r.below(CLUSTER_UNIFORMS.len() as u64) as u8,
            );
            words.push(Instruction::Alu {
                op: Opcode::Mul,
                dst: DstReg::from_raw(t.raw()),
                src1: cluster,
                src2: t,
                idx: RelIndex::None,
                desc: self.r.below(128) as u8,
            });
        }
        words.push(Instruction::Alu {
            op: Opcode::Ex2,
            dst: self.dst(),
            src1: t,
            src2: SrcReg::default(),
            idx: RelIndex::None,
            desc: self.r.below(128) as u8,
        });
        for w in words {
            self.at(pc, encode(&w));
            pc += 1;
        }
        pc
    }

    /// Two to five triples `write a; write b; read a` of random distinct temporaries: R holds
    /// the read of `a` while the two writes travel down the pipeline side by side, so a busy
    /// mark of one record that a neighbour's clears (the one-hot masks woh_q) lets the read go
    /// early. One ordered pair per triple: 240 pairs, each met a dozen times in a mutation
    /// run's 512 cases.
    fn raw_triples(&mut self, mut pc: usize) -> usize {
        for _ in 0..2 + self.r.below(4) {
            let a = 0x10 + self.r.below(16) as u8;
            let b = 0x10 + (a - 0x10 + 1 + self.r.below(15) as u8) % 16;
            let words = [self.write_of(a), self.write_of(b)];
            for w in words {
                self.at(pc, encode(&w));
                pc += 1;
            }
            let inst = self.read_of(SrcReg::from_raw(a));
            self.at(pc, encode(&inst));
            pc += 1;
        }
        pc
    }

    /// SRC1 and SRC2 of an ALU word of `op` as [`Self::simple`] draws them: the wide source
    /// in the slot the format gives it (SRC2 for format 1i), the other narrow; a one-source
    /// op's SRC2 is 0.
    fn alu_srcs(&mut self, op: Opcode) -> (SrcReg, SrcReg) {
        let (a, b) = match op.format() {
            Format::F1i => (self.narrow_src(), self.wide_src()),
            Format::F1u => return (self.wide_src(), SrcReg::default()),
            _ => (self.wide_src(), self.narrow_src()),
        };
        // The compares and MIN/MAX sometimes read one register twice: equal lanes wherever the
        // swizzles pick the same component, the ties of SGE/SLT and MIN/MAX (a comparator's
        // equality half is otherwise only reached by chance: sh_mut.notes, g_lane[3].u_cmp).
        let ties = matches!(
            op,
            Opcode::Sge | Opcode::Sgei | Opcode::Slt | Opcode::Slti | Opcode::Min | Opcode::Max
        );
        if ties && self.r.chance(30) {
            let narrow = if a.raw() < 0x20 { a } else { b };
            if narrow.raw() < 0x20 {
                return (narrow, narrow);
            }
        }
        (a, b)
    }

    /// An ALU word of `op` on `src1`, `src2` with descriptor `desc`, its destination and
    /// relative index drawn (in that order) as [`Self::simple`] draws them.
    fn alu_word(&mut self, op: Opcode, src1: SrcReg, src2: SrcReg, desc: u8) -> Instruction {
        let dst = self.dst();
        let idx = self.idx();
        Instruction::Alu {
            op,
            dst,
            src1,
            src2,
            idx,
            desc,
        }
    }

    /// An ALU word (random op, sources and descriptor) that writes temporary `t` (raw).
    fn write_of(&mut self, t: u8) -> Instruction {
        let op = self.r.pick(ALU_OPS);
        let (src1, src2) = self.alu_srcs(op);
        if !self.written.contains(&t) {
            self.written.push(t);
        }
        Instruction::Alu {
            op,
            dst: DstReg::from_raw(t),
            src1,
            src2,
            idx: self.idx(),
            desc: self.r.below(128) as u8,
        }
    }

    /// An ALU, MAD/MADI or CMP word with `t` in one of its source slots (drawn at random;
    /// the other slots as [`Self::simple`] draws them).
    fn read_of(&mut self, t: SrcReg) -> Instruction {
        let desc = self.r.below(128) as u8;
        match self.r.below(6) {
            0..=2 => {
                let op = self.r.pick(ALU_OPS);
                let (mut src1, mut src2) = self.alu_srcs(op);
                if op.format() == Format::F1u || self.r.chance(50) {
                    src1 = t;
                } else {
                    src2 = t;
                }
                self.alu_word(op, src1, src2, desc)
            }
            3..=4 => {
                let op = self.r.pick(&[Opcode::Mad, Opcode::Madi]);
                let mut srcs = if op == Opcode::Mad {
                    [self.narrow_src(), self.wide_src(), self.narrow_src()]
                } else {
                    [self.narrow_src(), self.narrow_src(), self.wide_src()]
                };
                srcs[self.r.below(3) as usize] = t;
                Instruction::Mad {
                    op,
                    dst: self.dst(),
                    src1: srcs[0],
                    src2: srcs[1],
                    src3: srcs[2],
                    idx: self.idx(),
                    desc: desc & 31,
                }
            }
            _ => {
                let (src1, src2) = if self.r.chance(50) {
                    (t, self.narrow_src())
                } else {
                    (self.wide_src(), t)
                };
                Instruction::Cmp {
                    src1,
                    src2,
                    idx: self.idx(),
                    cmp_x: CmpOp::from_bits(self.r.below(8) as u32),
                    cmp_y: CmpOp::from_bits(self.r.below(8) as u32),
                    desc,
                }
            }
        }
    }

    /// A MOVA of a small-integer uniform ([`SMALL_INT_UNIFORMS`]: a0.x and a0.y mostly in
    /// 1-127, the offsets a program indexes a uniform array with), now and then a word
    /// between, then a uniform read relative to a0.x or a0.y; returns the next free pc.
    ///
    /// The other MOVAs take edge values or large integers, which the unit clamps to an
    /// offset of 0 (or -128..-1): a positive in-range offset is what real code uses.
    fn small_rel_read(&mut self, mut pc: usize) -> usize {
        let src1 = SrcReg::from_raw(
            0x20 + SMALL_INT_UNIFORMS.start + self.r.below(SMALL_INT_UNIFORMS.len() as u64) as u8,
        );
        let mova = Instruction::Alu {
            op: Opcode::Mova,
            dst: DstReg::default(),
            src1,
            src2: SrcReg::default(),
            idx: RelIndex::None,
            desc: self.r.below(128) as u8,
        };
        self.at(pc, encode(&mova));
        pc += 1;
        let idx = RelIndex::from_bits(1 + self.r.below(2) as u32);
        self.rel_read_after(pc, idx)
    }

    /// Zero to two [`Self::simple`] words from `pc`, then an ALU word whose wide source is a
    /// uniform read relative to `idx`; returns the next free pc. Behind a MOVA
    /// ([`Self::small_rel_read`]) or a LOOP's last body word (aL, which the loop-end step
    /// changes): the unit's decode stage must wait for the new offset.
    fn rel_read_after(&mut self, mut pc: usize, idx: RelIndex) -> usize {
        for _ in 0..self.r.below(3) {
            let inst = self.simple();
            self.at(pc, encode(&inst));
            pc += 1;
        }
        let op = self.r.pick(ALU_OPS);
        let wide = SrcReg::from_raw(0x20 + self.r.below(96) as u8);
        let (src1, src2) = match op.format() {
            Format::F1i => (self.narrow_src(), wide),
            Format::F1u => (wide, SrcReg::default()),
            _ => (wide, self.narrow_src()),
        };
        let inst = Instruction::Alu {
            op,
            dst: self.dst(),
            src1,
            src2,
            idx,
            desc: self.r.below(128) as u8,
        };
        self.at(pc, encode(&inst));
        pc + 1
    }

    /// A MOVA with operand descriptor `desc` (drawn after the source and index if `None`).
    fn mova(&mut self, desc: Option<u8>) -> Instruction {
        let src1 = self.wide_src();
        let idx = self.idx();
        Instruction::Alu {
            op: Opcode::Mova,
            dst: DstReg::default(),
            src1,
            src2: SrcReg::default(),
            idx,
            desc: desc.unwrap_or_else(|| self.r.below(128) as u8),
        }
    }

    /// A word of an unknown opcode (the model's `HangKind::UnknownOpcode`).
    fn unknown(&mut self) -> Instruction {
        Instruction::Unknown(
            (self.r.pick(&[0x10u32, 0x11, 0x14, 0x17, 0x1C, 0x1F]) << 26)
                | (self.r.next_u64() as u32 & 0x03FF_FFFF),
        )
    }

    /// The program's last word(s) at `pc`: END, or now and then one of the four hangs, so
    /// that the unit's hang paths (nothing of the hanging instruction commits, except the
    /// PC overflow's own state changes) run after a whole program's state is built up rather
    /// than only in the rare mid-program arm; or one of the far endings ([`Self::far`]).
    /// `bools`: the bool uniforms (an always-taken JMPU).
    fn last(&mut self, pc: usize, bools: u16) {
        let end = encode(&Instruction::Plain(Opcode::End));
        match self.r.below(32) {
            0 | 1 => self.at(pc, encode(&Instruction::Plain(Opcode::Break))),
            4..=6 => self.far(pc, bools),
            2 | 3 => {
                // Two MOVAs in a row: the second hangs.
                for k in 0..2 {
                    let mova = self.mova(None);
                    self.at(pc + k, encode(&mova));
                }
            }
            7 | 8 => {
                let unknown = self.unknown();
                self.at(pc, encode(&unknown));
            }
            9 | 10 => {
                // A JMPU that always jumps (NUM bit 0 = !b_id) to the last word, which holds
                // zero (ADD o0, v0, v0; the case's code ends far below): the PC runs past 4095
                // (Knobs::pc_overflow, Hang by default).
                let id = self.r.below(16) as u8;
                let jump = Instruction::FlowUniform {
                    op: Opcode::Jmpu,
                    id,
                    target: 0xFFF,
                    num: u8::from((bools >> id) & 1 == 0),
                };
                self.at(pc, encode(&jump));
                // Not reached unless the knob wraps the PC to 0 (then it runs again).
                self.at(pc + 1, end);
            }
            _ => self.at(pc, end),
        }
    }

    /// A far ending at `pc`: an IF, LOOP or CALL whose range lies at 0x800-0xFEF, where the
    /// code is zero words (ADD o0, v0, v0), reached by an always-taken JMPU to two words
    /// before it, so that the stacks hold and compare addresses with bits 8-11 set (the
    /// program's own code lies below 0x800). The IF and the LOOP then run on through the zero
    /// words past 4095 (the PC-overflow hang); the CALL returns to an END after it.
    fn far(&mut self, pc: usize, bools: u16) {
        let t = 0x800 + self.r.below(0x7C0) as u16;
        let num = self.r.below(16) as u8;
        let id = self.r.below(16) as u8;
        let jump = Instruction::FlowUniform {
            op: Opcode::Jmpu,
            id,
            target: t - 2,
            num: u8::from((bools >> id) & 1 == 0),
        };
        let (open, jump_at) = match self.r.below(3) {
            // IF: taken (an IFC on a condition and its negation), the then-body runs from the
            // JMPU to the trigger t, then on at t + num.
            0 => (
                Instruction::Flow {
                    op: Opcode::Ifc,
                    cond: Condition {
                        op: CondOp::from_bits(0),
                        ref_x: true,
                        ref_y: false,
                    },
                    target: t,
                    num,
                },
                pc + 1,
            ),
            // LOOP: the body runs from the JMPU to its end t, a few times (an int uniform
            // of at most 3 iterations if there is one).
            1 => {
                let short: Vec<u8> = (0..4u8)
                    .filter(|&i| self.ints[usize::from(i)][0] <= 2)
                    .collect();
                let id = if short.is_empty() {
                    0
                } else {
                    self.r.pick(&short)
                };
                (
                    Instruction::FlowUniform {
                        op: Opcode::Loop,
                        id,
                        target: t,
                        num: 0,
                    },
                    pc + 1,
                )
            }
            // CALL of t (num + 1 zero words), returning to the END after it.
            _ => {
                self.at(pc + 1, encode(&Instruction::Plain(Opcode::End)));
                self.at(pc, encode(&call(t, num + 1)));
                return;
            }
        };
        self.at(pc, encode(&open));
        self.at(jump_at, encode(&jump));
    }
}

// ---------------------------------------------------------------------------------------------
// Shrinking.

/// Check calls the shrinker may spend on one failure.
pub const MAX_SHRINK_CHECKS: usize = 3000;

/// Maps an old code address to the new one after deleting `[a, b)`: addresses inside the
/// range go to its first survivor.
fn reloc(t: usize, a: usize, b: usize) -> usize {
    if t < a {
        t
    } else if t < b {
        a
    } else {
        t - (b - a)
    }
}

/// The code with words `[a, b)` deleted and every flow target, IF/CALL range and LOOP body
/// end relocated to the surviving words.
pub fn delete_code(code: &[u32], a: usize, b: usize) -> Vec<u32> {
    let b = b.min(code.len());
    let mut out = Vec::with_capacity(code.len() - (b - a));
    for (pc, &w) in code.iter().enumerate() {
        if (a..b).contains(&pc) {
            continue;
        }
        let range = |target: u16, num: u8| -> (u16, u8) {
            let (t, n) = (usize::from(target), usize::from(num));
            if t > 4095 {
                return (target, num);
            }
            let nt = reloc(t, a, b);
            let ne = reloc(t + n, a, b);
            (nt as u16, (ne - nt).min(255) as u8)
        };
        let nw = match decode(w) {
            Instruction::Flow {
                op,
                cond,
                target,
                num,
            } => {
                let (target, num) = match op {
                    Opcode::Call | Opcode::Callc | Opcode::Ifc => range(target, num),
                    Opcode::Jmpc => (reloc(usize::from(target), a, b) as u16, num),
                    _ => (target, num),
                };
                encode(&Instruction::Flow {
                    op,
                    cond,
                    target,
                    num,
                }) | (w & !used_mask(w))
            }
            Instruction::FlowUniform {
                op,
                id,
                target,
                num,
            } => {
                let (target, num) = match op {
                    Opcode::Callu | Opcode::Ifu => range(target, num),
                    Opcode::Jmpu => (reloc(usize::from(target), a, b) as u16, num),
                    // LOOP: the body ends at `target` inclusive.
                    Opcode::Loop => {
                        let end = reloc(usize::from(target) + 1, a, b);
                        (end.saturating_sub(1) as u16, num)
                    }
                    _ => (target, num),
                };
                encode(&Instruction::FlowUniform {
                    op,
                    id,
                    target,
                    num,
                }) | (w & !used_mask(w))
            }
            _ => w,
        };
        out.push(nw);
    }
    out
}

/// Simpler versions of one instruction word, simplest first.
fn simpler_words(w: u32) -> Vec<u32> {
    let mut v = Vec::new();
    match decode(w) {
        Instruction::Alu {
            op,
            dst,
            src1,
            src2,
            idx,
            desc,
        } => {
            if idx != RelIndex::None {
                v.push(encode(&Instruction::Alu {
                    op,
                    dst,
                    src1,
                    src2,
                    idx: RelIndex::None,
                    desc,
                }));
            }
            if desc != 0 {
                v.push(encode(&Instruction::Alu {
                    op,
                    dst,
                    src1,
                    src2,
                    idx,
                    desc: 0,
                }));
            }
            if op != Opcode::Mova && op != Opcode::Mov && op.format() == Format::F1 {
                v.push(encode(&Instruction::Alu {
                    op: Opcode::Mov,
                    dst,
                    src1,
                    src2: SrcReg::default(),
                    idx,
                    desc,
                }));
            }
        }
        Instruction::Mad {
            op,
            dst,
            src1,
            src2,
            src3,
            idx,
            desc,
        } => {
            if idx != RelIndex::None {
                v.push(encode(&Instruction::Mad {
                    op,
                    dst,
                    src1,
                    src2,
                    src3,
                    idx: RelIndex::None,
                    desc,
                }));
            }
            if desc != 0 {
                v.push(encode(&Instruction::Mad {
                    op,
                    dst,
                    src1,
                    src2,
                    src3,
                    idx,
                    desc: 0,
                }));
            }
        }
        Instruction::Cmp {
            src1,
            src2,
            idx,
            cmp_x,
            cmp_y,
            desc,
        } => {
            if idx != RelIndex::None {
                v.push(encode(&Instruction::Cmp {
                    src1,
                    src2,
                    idx: RelIndex::None,
                    cmp_x,
                    cmp_y,
                    desc,
                }));
            }
            if desc != 0 {
                v.push(encode(&Instruction::Cmp {
                    src1,
                    src2,
                    idx,
                    cmp_x,
                    cmp_y,
                    desc: 0,
                }));
            }
        }
        Instruction::Flow {
            op,
            cond,
            target,
            num,
        } => {
            // Conditional forms become unconditional (CALLC → CALL; JMPC/IFC/BREAKC on
            // a condition that always holds: !cmp.x || cmp.x is not expressible, so keep the
            // condition but simplify it to one flag).
            if op == Opcode::Callc {
                v.push(encode(&Instruction::Flow {
                    op: Opcode::Call,
                    cond: Condition::default(),
                    target,
                    num,
                }));
            }
            if num != 0 && op != Opcode::Jmpc {
                v.push(encode(&Instruction::Flow {
                    op,
                    cond,
                    target,
                    num: 0,
                }));
            }
            let simple = Condition {
                op: CondOp::from_bits(2),
                ref_x: true,
                ref_y: true,
            };
            if cond != simple && op != Opcode::Call {
                v.push(encode(&Instruction::Flow {
                    op,
                    cond: simple,
                    target,
                    num,
                }));
            }
        }
        Instruction::FlowUniform {
            op,
            id,
            target,
            num,
        } => {
            if op == Opcode::Callu {
                v.push(encode(&Instruction::Flow {
                    op: Opcode::Call,
                    cond: Condition::default(),
                    target,
                    num,
                }));
            }
            if num != 0 && op != Opcode::Loop {
                v.push(encode(&Instruction::FlowUniform {
                    op,
                    id,
                    target,
                    num: 0,
                }));
            }
            if id != 0 {
                v.push(encode(&Instruction::FlowUniform {
                    op,
                    id: 0,
                    target,
                    num,
                }));
            }
        }
        _ => {}
    }
    v.retain(|&x| x != w);
    v
}

/// Shrinks `case` while `fails` returns `Some(message)`: the smallest failing case found and
/// its message. `fails(case)` must be `Some` on entry (else `case` is returned with `msg`).
///
/// Passes, repeated until none makes progress (or [`MAX_SHRINK_CHECKS`] checks):
/// delete code chunks (halves down to single words, the entry point relocated with them),
/// simplify each instruction (relative
/// index off, descriptor 0, ALU → MOV, conditional → unconditional, NUM 0, uniform id 0),
/// identity operand descriptors, zero inputs and uniforms.
pub fn shrink(
    case: &ShaderCase,
    msg: String,
    mut fails: impl FnMut(&ShaderCase) -> Option<String>,
) -> (ShaderCase, String) {
    let mut best = case.clone();
    let mut msg = msg;
    let checks = std::cell::Cell::new(0usize);
    let mut try_it = |cand: ShaderCase, best: &mut ShaderCase, msg: &mut String| -> bool {
        if checks.get() >= MAX_SHRINK_CHECKS || cand == *best {
            return false;
        }
        checks.set(checks.get() + 1);
        match fails(&cand) {
            Some(m) => {
                *best = cand;
                *msg = m;
                true
            }
            None => false,
        }
    };
    // Trailing zero words are what memory holds anyway.
    let mut trimmed = best.clone();
    while trimmed.code.last() == Some(&0) {
        trimmed.code.pop();
    }
    try_it(trimmed, &mut best, &mut msg);
    loop {
        let before = best.clone();
        // 1. Code deletion, chunks from half the program down to one word.
        let mut size = best.code.len().div_ceil(2).max(1);
        loop {
            let mut a = 0;
            while a < best.code.len() {
                let mut cand = best.clone();
                cand.code = delete_code(&best.code, a, a + size);
                // The entry point moves with the code (onto the first surviving word if its
                // own is deleted), so the words before it can go too.
                cand.entry = reloc(usize::from(best.entry), a, a + size) as u16;
                if !try_it(cand, &mut best, &mut msg) {
                    a += size;
                }
            }
            if size == 1 {
                break;
            }
            size = size.div_ceil(2);
        }
        // 2. Simpler instructions.
        for pc in 0..best.code.len() {
            for w in simpler_words(best.code[pc]) {
                let mut cand = best.clone();
                cand.code[pc] = w;
                if try_it(cand, &mut best, &mut msg) {
                    break;
                }
            }
        }
        // 3. Descriptors, inputs and uniforms: all at once, then one by one.
        let mut cand = best.clone();
        cand.opdescs.iter_mut().for_each(|d| *d = IDENTITY_DESC);
        if !try_it(cand, &mut best, &mut msg) {
            for i in 0..best.opdescs.len() {
                if best.opdescs[i] != IDENTITY_DESC {
                    let mut cand = best.clone();
                    cand.opdescs[i] = IDENTITY_DESC;
                    try_it(cand, &mut best, &mut msg);
                }
            }
        }
        let mut cand = best.clone();
        cand.float_uniforms
            .iter_mut()
            .for_each(|u| *u = [F24::ZERO; 4]);
        if !try_it(cand, &mut best, &mut msg) {
            for i in 0..best.float_uniforms.len() {
                if best.float_uniforms[i] != [F24::ZERO; 4] {
                    let mut cand = best.clone();
                    cand.float_uniforms[i] = [F24::ZERO; 4];
                    try_it(cand, &mut best, &mut msg);
                }
            }
        }
        for i in 0..16 {
            if best.inputs[i] != [F24::ZERO; 4] {
                let mut cand = best.clone();
                cand.inputs[i] = [F24::ZERO; 4];
                try_it(cand, &mut best, &mut msg);
            }
        }
        let mut cand = best.clone();
        cand.int_uniforms = [[0; 4]; 4];
        cand.bool_uniforms = 0;
        if !try_it(cand, &mut best, &mut msg) {
            for i in 0..4 {
                let mut cand = best.clone();
                cand.int_uniforms[i] = [0; 4];
                try_it(cand, &mut best, &mut msg);
            }
            let mut cand = best.clone();
            cand.bool_uniforms = 0;
            try_it(cand, &mut best, &mut msg);
        }
        if best == before || checks.get() >= MAX_SHRINK_CHECKS {
            break;
        }
    }
    (best, msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::shader::interp::{IF_STACK_DEPTH, LOOP_STACK_DEPTH};

    /// What a case's model run reaches: the deepest IF and LOOP stacks and the most CALL
    /// frames popped in one step.
    /// The deepest IF and LOOP stacks, the most CALL frames popped in one step, and whether
    /// four LOOPs were open with one of them counting 128 or more iterations still to run.
    fn reach(case: &ShaderCase) -> (usize, usize, usize, bool, bool) {
        let cfg = case.config();
        let mut u = ShaderUnit::new(Knobs::default());
        u.inputs = case.inputs;
        u.start(case.entry);
        let mut emitted = Vec::new();
        let (mut ifs, mut loops, mut pops, mut long4) = (0, 0, 0, false);
        // Five IFs open, one of them with a trigger in 0x200-0x7FF (a relocated main).
        let mut high_ifs = false;
        for _ in 0..MAX_INSTRUCTIONS {
            let before = u.call_stack.entries().len();
            let step = u.step(&cfg, None, &mut emitted);
            ifs = ifs.max(u.if_stack.entries().len());
            high_ifs |= u.if_stack.entries().len() >= 5
                && u.if_stack
                    .entries()
                    .iter()
                    .any(|e| (0x200..0x800).contains(&e.trigger));
            let open = u.loop_stack.entries();
            loops = loops.max(open.len());
            long4 |= open.len() == LOOP_STACK_DEPTH && open.iter().any(|e| e.remaining >= 128);
            pops = pops.max(before.saturating_sub(u.call_stack.entries().len()));
            if !matches!(step, Step::Continue) {
                break;
            }
        }
        (ifs, loops, pops, long4, high_ifs)
    }

    /// `generate_low` never places code at 0x200-0x7FF, where the SH stage's tests and fuzzer
    /// put their prologue (the words there are the NOP filler up to the far arm's targets);
    /// `generate` does in some cases (the relocated main).
    #[test]
    fn generate_low_keeps_the_prologue_range_free() {
        let nop = encode(&Instruction::Plain(Opcode::Nop));
        let high = |c: &ShaderCase| {
            let end = c.code.len().min(0x800);
            c.code
                .get(0x200..end)
                .is_some_and(|w| w.iter().any(|&w| w != nop))
        };
        let mut relocated = 0;
        for seed in 0..300 {
            assert!(
                !high(&generate_low(seed)),
                "generate_low({seed}) has code at 0x200+"
            );
            relocated += usize::from(high(&generate(seed)));
        }
        assert!(
            relocated >= 30,
            "{relocated} of 300 generated cases relocated main"
        );
    }

    /// The generator's deep control flow is reached by the runs, not only generated: within
    /// 300 seeds (about what one `pica mutate --stage sh` run has) several runs fill the IF
    /// stack's eight entries and the LOOP stack's four (also with a count of 128 or more in
    /// one of them), pop four CALL frames in one step, start past word 0, and hold five IFs
    /// with one at a high address (the mutants of those paths survived every case before).
    #[test]
    fn generated_runs_reach_the_deep_stacks() {
        let (mut if8, mut loop4, mut pop4, mut entered, mut long4) = (0, 0, 0, 0, 0);
        let mut high5 = 0;
        for seed in 0..300 {
            let case = generate(seed);
            let (ifs, loops, pops, long, high) = reach(&case);
            high5 += usize::from(high);
            if8 += usize::from(ifs == IF_STACK_DEPTH);
            loop4 += usize::from(loops == LOOP_STACK_DEPTH);
            pop4 += usize::from(pops == 4);
            entered += usize::from(case.entry != 0);
            long4 += usize::from(long);
        }
        assert!(if8 >= 3, "{if8} runs with eight IFs open");
        assert!(loop4 >= 3, "{loop4} runs with four LOOPs open");
        assert!(
            long4 >= 3,
            "{long4} runs with four LOOPs open, one of 128+ iterations"
        );
        assert!(pop4 >= 3, "{pop4} runs popping four CALL frames at once");
        assert!(entered >= 30, "{entered} cases entered past word 0");
        assert!(
            high5 >= 3,
            "{high5} runs with five IFs open, one above 0x200"
        );
    }
}
