//! The interpreter's fast path: a decode cache and a specialised execution of the arithmetic
//! instructions, giving the same bits and state as the reference path
//! ([`ShaderUnit::step_exact`]).
//!
//! - Each unit keeps one pre-decoded entry per code word ([`DecodeCache`]), tagged with the
//!   instruction word and the operand-descriptor word it was decoded from. A step compares
//!   both tags with the configuration it is given and decodes again on a difference, so a code
//!   or descriptor upload (or any other change of [`UnitConfig`]) is seen at the next step.
//! - Formats 1, 1i, 1u (except MOVA and LITP), 1c, 5/5i, NOP and END run here: operands are read
//!   with the swizzle and negation as bit operations on the descriptor word, the arithmetic is
//!   [`alu_fast`]. Everything else (flow control, MOVA, LITP, EMIT, SETEMIT, BREAK, unknown
//!   opcodes) runs the reference code with the cached [`Instruction`].
//! - Knobs are read when an instruction executes, not when it is decoded.

use super::{
    alu, rel_uniform, Emitted, Hang, HangKind, Instruction, MovSubnormal, ShaderUnit, Step, Vec4,
    ONES, PC_LIMIT,
};
use crate::num::F24;
use crate::regfile::unit::UnitConfig;
use crate::shader::alu_fast;
use crate::shader::isa::{Format, OpDesc, Opcode};
use std::fmt;

/// What the fast path does with an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Not decoded yet.
    Empty,
    /// The reference code runs the cached instruction.
    Slow,
    Add,
    Mul,
    Dp3,
    Dp4,
    Dph,
    Dst,
    Ex2,
    Lg2,
    Sge,
    Slt,
    Flr,
    Max,
    Min,
    /// MIN with knob `min-subnormal=flush` (decided at decode: [`DecodeCache::min_flush`]).
    MinFlush,
    Rcp,
    Rsq,
    Mov,
    Cmp,
    Mad,
    Nop,
    End,
}

/// Where a source operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// v0-v15.
    Input,
    /// r0-r15.
    Temp,
    /// c0-c95 without relative addressing.
    Uniform,
    /// c0-c95 offset by a0.x.
    UniformA0X,
    /// c0-c95 offset by a0.y.
    UniformA0Y,
    /// c0-c95 offset by aL.
    UniformAL,
}

/// One pre-decoded source operand (4 bytes, loaded as one word).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(4))]
pub(super) struct Src {
    pub(super) class: Class,
    /// Register number within the class.
    pub(super) index: u8,
    /// Swizzle byte of the descriptor.
    pub(super) swizzle: u8,
    /// [`Src::NEGATE`] and [`Src::PLAIN`].
    pub(super) flags: u8,
}

impl Src {
    /// Flip the sign of every lane.
    pub(super) const NEGATE: u8 = 1;
    /// `.xyzw` without negation: the register as it is.
    pub(super) const PLAIN: u8 = 2;

    const NONE: Self = Self {
        class: Class::Input,
        index: 0,
        swizzle: 0x1B,
        flags: Self::PLAIN,
    };

    /// Source `n` (1-3) of descriptor `desc`, register field `raw`, IDX field `rel` (bits).
    fn new(raw: u8, rel: u32, desc: u32, n: usize) -> Self {
        let (class, index) = match raw & 0x7F {
            r @ 0x00..=0x0F => (Class::Input, r),
            r @ 0x10..=0x1F => (Class::Temp, r - 0x10),
            r => (
                match rel & 3 {
                    0 => Class::Uniform,
                    1 => Class::UniformA0X,
                    2 => Class::UniformA0Y,
                    _ => Class::UniformAL,
                },
                r - 0x20,
            ),
        };
        let d = OpDesc(desc);
        let (swizzle, negate) = (d.swizzle(n).0, d.negate(n));
        let plain = swizzle == 0x1B && !negate;
        Self {
            class,
            index,
            swizzle,
            flags: (u8::from(negate) * Self::NEGATE) | (u8::from(plain) * Self::PLAIN),
        }
    }
}

/// One pre-decoded instruction (32 bytes).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Pre {
    /// Tag: the instruction word.
    pub(super) word: u32,
    /// Tag: the operand descriptor `didx` selected when decoded.
    pub(super) desc: u32,
    /// SRC1-SRC3.
    pub(super) src: [Src; 3],
    pub(super) kind: Kind,
    /// Destination field (raw 5 bits); for CMP, CMPX in bits 0-2 and CMPY in bits 3-5.
    pub(super) dst: u8,
    /// Destination mask (descriptor bits 0-3).
    pub(super) mask: u8,
    /// Operand-descriptor index (0 for instructions without one).
    pub(super) didx: u8,
    /// The decoded instruction (what [`Kind::Slow`] runs).
    inst: Instruction,
}

impl Pre {
    const EMPTY: Self = Self {
        word: 0,
        desc: 0,
        inst: Instruction::Unknown(0),
        kind: Kind::Empty,
        dst: 0,
        mask: 0,
        didx: 0,
        src: [Src::NONE; 3],
    };

    pub(super) fn new(word: u32, inst: Instruction, opdescs: &[u32]) -> Self {
        let mut p = Self {
            word,
            inst,
            kind: Kind::Slow,
            ..Self::EMPTY
        };
        // (sources, IDX field, which source it offsets)
        let mut srcs: Option<([u8; 3], u32, usize)> = None;
        match inst {
            Instruction::Alu {
                op,
                dst,
                src1,
                src2,
                idx,
                desc,
            } => {
                p.kind = match op {
                    Opcode::Add => Kind::Add,
                    Opcode::Mul => Kind::Mul,
                    Opcode::Dp3 => Kind::Dp3,
                    Opcode::Dp4 => Kind::Dp4,
                    Opcode::Dph | Opcode::Dphi => Kind::Dph,
                    Opcode::Dst | Opcode::Dsti => Kind::Dst,
                    Opcode::Ex2 => Kind::Ex2,
                    Opcode::Lg2 => Kind::Lg2,
                    Opcode::Sge | Opcode::Sgei => Kind::Sge,
                    Opcode::Slt | Opcode::Slti => Kind::Slt,
                    Opcode::Flr => Kind::Flr,
                    Opcode::Max => Kind::Max,
                    Opcode::Min => Kind::Min,
                    Opcode::Rcp => Kind::Rcp,
                    Opcode::Rsq => Kind::Rsq,
                    Opcode::Mova | Opcode::Litp => Kind::Slow,
                    // The reference code treats every other format-1 opcode as MOV.
                    _ => Kind::Mov,
                };
                let wide = if op.format() == Format::F1i { 2 } else { 1 };
                p.dst = dst.raw();
                p.didx = desc;
                srcs = Some(([src1.raw(), src2.raw(), 0], idx.bits(), wide));
            }
            Instruction::Cmp {
                src1,
                src2,
                idx,
                cmp_x,
                cmp_y,
                desc,
            } => {
                p.kind = Kind::Cmp;
                p.dst = cmp_x.bits() as u8 | (cmp_y.bits() as u8) << 3;
                p.didx = desc;
                srcs = Some(([src1.raw(), src2.raw(), 0], idx.bits(), 1));
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
                p.kind = Kind::Mad;
                let wide = if op == Opcode::Madi { 3 } else { 2 };
                p.dst = dst.raw();
                p.didx = desc;
                srcs = Some(([src1.raw(), src2.raw(), src3.raw()], idx.bits(), wide));
            }
            Instruction::Plain(Opcode::Nop) => p.kind = Kind::Nop,
            Instruction::Plain(Opcode::End) => p.kind = Kind::End,
            _ => {}
        }
        p.desc = opdescs.get(usize::from(p.didx)).copied().unwrap_or(0);
        p.mask = (p.desc & 0xF) as u8;
        if let Some((raw, idx, wide)) = srcs {
            for (n, s) in p.src.iter_mut().enumerate() {
                let rel = if n + 1 == wide { idx } else { 0 };
                *s = Src::new(raw[n], rel, p.desc, n + 1);
            }
        }
        p
    }
}

/// A unit's pre-decoded program: one entry per code word, grown as far as the PC reaches.
#[derive(Clone, Default)]
pub(super) struct DecodeCache {
    entries: Vec<Pre>,
    /// Knob `min-subnormal=flush` when the entries were decoded: MIN entries are
    /// [`Kind::MinFlush`] then. [`ShaderUnit::sync_decode_knobs`] empties the cache when the
    /// knob differs, so the hot loop never looks at the knob.
    min_flush: bool,
}

impl fmt::Debug for DecodeCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let decoded = self
            .entries
            .iter()
            .filter(|p| p.kind != Kind::Empty)
            .count();
        write!(f, "DecodeCache({decoded} entries)")
    }
}

/// `v` after the swizzle and negation of `s`. The lanes are picked by shifting the register
/// as one 128-bit value (no indexing into memory, so the register stays in a register).
#[inline(always)]
fn swizzle(v: Vec4, s: Src) -> Vec4 {
    if s.flags & Src::PLAIN != 0 {
        return v;
    }
    let neg = u32::from(s.flags & Src::NEGATE) << 23;
    let wide = v
        .iter()
        .rev()
        .fold(0u128, |acc, x| acc << 32 | u128::from(x.bits()));
    let sel = u32::from(s.swizzle);
    let lane = |k: u32| F24::from_bits((wide >> (32 * (k & 3))) as u32 ^ neg);
    [lane(sel >> 6), lane(sel >> 4), lane(sel >> 2), lane(sel)]
}

impl ShaderUnit {
    /// Empties the decode cache if it was decoded under another `min-subnormal` knob (called
    /// outside the instruction loops: at [`Self::start`] and at each run-ahead stretch).
    pub(super) fn sync_decode_knobs(&mut self) {
        let flush = self.knobs.min_subnormal == super::MinSubnormal::Flush;
        if self.cache.min_flush != flush {
            self.cache.entries.clear();
            self.cache.min_flush = flush;
        }
    }

    /// [`Self::step`] without a trace (an out-of-line copy for the stage, which steps once
    /// per cycle; [`Self::run`] inlines [`Self::step_fast_inline`]).
    pub(super) fn step_fast(&mut self, cfg: &UnitConfig, emitted: &mut Vec<Emitted>) -> Step {
        let mut out = Step::Continue;
        if self.step_fast_inline(cfg, emitted, &mut out) {
            Step::Continue
        } else {
            out
        }
    }

    /// The hot path: the cached entry at the PC, if both its tags match the configuration.
    /// Returns `true` to continue; otherwise the step's result is in `out`.
    #[inline(always)]
    pub(super) fn step_fast_inline(
        &mut self,
        cfg: &UnitConfig,
        emitted: &mut Vec<Emitted>,
        out: &mut Step,
    ) -> bool {
        let i = usize::from(self.pc);
        let (Some(&word), Some(&e)) = (cfg.code.get(i), self.cache.entries.get(i)) else {
            return self.step_cold(cfg, emitted, out);
        };
        let desc = cfg.opdescs.get(usize::from(e.didx)).copied().unwrap_or(0);
        if e.word != word || e.desc != desc {
            return self.step_cold(cfg, emitted, out);
        }
        self.exec_fast(cfg, &e, emitted, out)
    }

    /// A step whose entry is missing, empty or stale: decode into the cache (growing it as
    /// far as the PC), then execute; a PC outside the cache's reach takes the reference path.
    #[cold]
    #[inline(never)]
    fn step_cold(&mut self, cfg: &UnitConfig, emitted: &mut Vec<Emitted>, out: &mut Step) -> bool {
        let i = usize::from(self.pc);
        let word = cfg.code.get(i).copied();
        let Some(word) = word.filter(|_| i < PC_LIMIT as usize) else {
            *out = self.step_exact(cfg, None, emitted);
            return *out == Step::Continue;
        };
        self.sync_decode_knobs();
        if i >= self.cache.entries.len() {
            self.cache.entries.resize((i | 63) + 1, Pre::EMPTY);
        }
        let mut e = Pre::new(word, super::decode(word), &cfg.opdescs);
        if e.kind == Kind::Min && self.cache.min_flush {
            e.kind = Kind::MinFlush;
        }
        self.cache.entries[i] = e;
        self.exec_fast(cfg, &e, emitted, out)
    }

    /// The reference code for the cached instruction of `e`.
    #[inline(never)]
    fn exec_slow(
        &mut self,
        cfg: &UnitConfig,
        e: &Pre,
        emitted: &mut Vec<Emitted>,
        out: &mut Step,
    ) -> bool {
        *out = self.exec(cfg, e.word, e.inst, None, emitted);
        *out == Step::Continue
    }

    /// Source operand `s` (after relative addressing, swizzle and negation).
    #[inline(always)]
    fn operand(&self, cfg: &UnitConfig, s: Src) -> Vec4 {
        let i = usize::from(s.index);
        // An if-chain rather than a jump table: the common classes first.
        let v = if s.class == Class::Uniform {
            cfg.float_uniforms.get(i).copied().unwrap_or(ONES)
        } else if s.class == Class::Input {
            self.inputs[i & 15]
        } else if s.class == Class::Temp {
            self.temps[i & 15]
        } else {
            let offset = match s.class {
                Class::UniformA0X => self.a0[0],
                Class::UniformA0Y => self.a0[1],
                _ => self.al,
            };
            rel_uniform(&cfg.float_uniforms, s.index, offset)
        };
        swizzle(v, s)
    }

    /// Writes the lanes of `mask` (bit 3 = x) of o/r register `dst` (raw 5 bits).
    #[inline(always)]
    fn write_fast(&mut self, dst: u8, mask: u8, value: Vec4) {
        if dst < 16 {
            self.written |= u64::from(mask) << (4 * u32::from(dst));
            let reg = &mut self.banks[self.bank & 1][usize::from(dst)];
            if mask == 0xF {
                *reg = value;
            } else {
                // Outputs: lane stores, no dependency on the register's previous value
                // (successive instructions usually fill one output lane by lane).
                for (lane, (r, v)) in reg.iter_mut().zip(value).enumerate() {
                    if (mask >> (3 - lane)) & 1 != 0 {
                        *r = v;
                    }
                }
            }
        } else {
            let reg = &mut self.temps[usize::from(dst & 15)];
            if mask == 0xF {
                *reg = value;
            } else {
                for (lane, (r, v)) in reg.iter_mut().zip(value).enumerate() {
                    if (mask >> (3 - lane)) & 1 != 0 {
                        *r = v;
                    }
                }
            }
        }
    }

    /// The CMP comparison `op` (3-bit field) on raw values.
    #[inline(always)]
    fn cmp_fast(&self, op: u8, a: F24, b: F24) -> bool {
        match op & 7 {
            0 => alu_fast::eq(a, b),
            1 => !alu_fast::eq(a, b),
            2 => alu_fast::gt(b, a),
            3 => alu_fast::ge(b, a),
            4 => alu_fast::gt(a, b),
            5 => alu_fast::ge(a, b),
            _ => self.knobs.cmp67 == super::Cmp67::True,
        }
    }

    #[inline(always)]
    fn exec_fast(
        &mut self,
        cfg: &UnitConfig,
        e: &Pre,
        emitted: &mut Vec<Emitted>,
        out: &mut Step,
    ) -> bool {
        let one = |a: Vec4, f: fn(F24) -> F24| [f(a[0]); 4];
        let value = match e.kind {
            Kind::Add => alu_fast::add4(&self.operand(cfg, e.src[0]), &self.operand(cfg, e.src[1])),
            Kind::Mul => alu_fast::mul4(&self.operand(cfg, e.src[0]), &self.operand(cfg, e.src[1])),
            Kind::Dp3 => {
                [alu_fast::dot3(&self.operand(cfg, e.src[0]), &self.operand(cfg, e.src[1])); 4]
            }
            Kind::Dp4 => {
                [alu_fast::dot4(&self.operand(cfg, e.src[0]), &self.operand(cfg, e.src[1])); 4]
            }
            Kind::Dph => {
                [alu_fast::doth(&self.operand(cfg, e.src[0]), &self.operand(cfg, e.src[1])); 4]
            }
            Kind::Dst => {
                let (a, b) = (self.operand(cfg, e.src[0]), self.operand(cfg, e.src[1]));
                [F24::ONE, alu_fast::mul(a[1], b[1]), a[2], b[3]]
            }
            Kind::Ex2 => one(self.operand(cfg, e.src[0]), alu::ex2),
            Kind::Lg2 => one(self.operand(cfg, e.src[0]), alu::lg2),
            Kind::Rcp => one(self.operand(cfg, e.src[0]), alu_fast::rcp),
            Kind::Rsq => one(self.operand(cfg, e.src[0]), alu_fast::rsq),
            Kind::Flr => self.operand(cfg, e.src[0]).map(alu::flr),
            Kind::Sge => alu_fast::sge4(&self.operand(cfg, e.src[0]), &self.operand(cfg, e.src[1])),
            Kind::Slt => alu_fast::slt4(&self.operand(cfg, e.src[0]), &self.operand(cfg, e.src[1])),
            Kind::Max => alu_fast::max4(
                &self.operand(cfg, e.src[0]),
                &self.operand(cfg, e.src[1]),
                self.knobs.max_neg_inf,
            ),
            Kind::Min => alu_fast::min4(&self.operand(cfg, e.src[0]), &self.operand(cfg, e.src[1])),
            Kind::MinFlush => alu_fast::min4(
                &self.operand(cfg, e.src[0]).map(alu::flush),
                &self.operand(cfg, e.src[1]).map(alu::flush),
            ),
            Kind::Mov => {
                let a = self.operand(cfg, e.src[0]);
                match self.knobs.mov_subnormal {
                    MovSubnormal::Pass => a,
                    MovSubnormal::Flush => a.map(alu::flush),
                }
            }
            Kind::Mad => {
                let (a, b, c) = (
                    self.operand(cfg, e.src[0]),
                    self.operand(cfg, e.src[1]),
                    self.operand(cfg, e.src[2]),
                );
                alu_fast::mad4(&a, &b, &c)
            }
            Kind::Cmp => {
                let (a, b) = (self.operand(cfg, e.src[0]), self.operand(cfg, e.src[1]));
                let mask = if self.knobs.cmp_uses_mask {
                    e.mask
                } else {
                    0xF
                };
                if mask & 8 != 0 {
                    self.cmp[0] = self.cmp_fast(e.dst, a[0], b[0]);
                }
                if mask & 4 != 0 {
                    self.cmp[1] = self.cmp_fast(e.dst >> 3, a[1], b[1]);
                }
                return self.retire(e.word, out);
            }
            Kind::Nop => return self.retire(e.word, out),
            Kind::End => {
                self.executed += 1;
                self.prev_mova = false;
                *out = Step::End;
                return false;
            }
            Kind::Slow => return self.exec_slow(cfg, e, emitted, out),
            // An entry never decoded whose zero tags happen to match.
            Kind::Empty => return self.step_cold(cfg, emitted, out),
        };
        self.write_fast(e.dst, e.mask, value);
        self.retire(e.word, out)
    }

    /// The end of a fast-path instruction other than END: count it, clear the MOVA flag and
    /// move the PC (the stack checks when a stack is in use).
    #[inline(always)]
    fn retire(&mut self, word: u32, out: &mut Step) -> bool {
        self.executed += 1;
        self.prev_mova = false;
        let next = self.pc + 1;
        if u32::from(next) < PC_LIMIT
            && self.loop_stack.is_empty()
            && self.if_stack.is_empty()
            && self.call_stack.is_empty()
        {
            self.pc = next;
            return true;
        }
        self.retire_flow(word, out)
    }

    /// [`Self::retire`] with a stack in use or at the end of code memory.
    #[cold]
    #[inline(never)]
    fn retire_flow(&mut self, word: u32, out: &mut Step) -> bool {
        let pc = self.pc;
        match self.next_pc(pc + 1, None) {
            Some(p) => {
                self.pc = p;
                true
            }
            None => {
                *out = Step::Hang(Hang {
                    pc,
                    word,
                    kind: HangKind::PcPastEnd,
                });
                false
            }
        }
    }
}
