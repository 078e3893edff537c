//! The shader assembler: picasso assembly → [`Shbin`].
//!
//! The syntax is picasso's (devkitPro picasso `Manual.md`); the reference for every choice the
//! manual leaves open is picasso's own behaviour (`source/picasso_assembler.cpp`, read for
//! facts, not copied). In particular:
//!
//! - **Operand descriptors** are allocated as picasso does: each instruction asks for a descriptor
//!   with the bits it cares about (the "mask": destination mask and the source swizzle lanes the
//!   opcode reads — e.g. DP3 ignores w, RCP reads only x, ADD/MUL/... ignore the lanes the
//!   destination mask does not write); the first existing descriptor that agrees on the common
//!   bits is reused (its don't-care bits are filled in), otherwise a new one is appended. MAD/MADI
//!   can only address descriptors 0-31: a MAD descriptor that lands at 32 or above is swapped with
//!   the first slot below 32 no MAD uses, and every other instruction is renumbered.
//! - **Narrow/wide forms**: `dph`/`sge`/`slt` (and `dst`) use the inverted 1i form when the first
//!   source is v/r and the second is a c register; `mad` uses MADI when the second source is v/r
//!   and the third is a c register (or carries the relative index while the second does not).
//!   Difference from picasso, documented: the explicit mnemonics `dphi`, `dsti`, `sgei`, `slti`,
//!   `madi` *force* the inverted form whenever it can encode the operands (picasso treats them
//!   as plain aliases of the automatic choice); this is what makes disassembly re-assemble to
//!   the same words.
//! - **Padding NOPs**: `.end`/`.else` insert a NOP where picasso does (after a JMP/CALL, in an
//!   empty body, after a nested `.end` ...). `.noautonop` (pica-cosim extension, = picasso's
//!   `--no-nop`) turns that off for the file.
//! - **Uniform allocation**: `.fvec`/`.ivec`/`.bool` allocate upwards from c0/i0/b0; `.constf`,
//!   `.consti` and `.constfa` allocate downwards from c95/i3; `.gsh MODE cN ...` moves the float
//!   pool to start at cN (and b15 is reserved).
//! - **Label table**: picasso leaves the DVLE label table empty; we list every procedure there
//!   (sorted by address, ID = index, the 0x2 halfword = 1), so entry points and procedures can be
//!   looked up by name in the binary.
//!
//! Extensions over picasso (all used by the disassembler so that its output re-assembles to the
//! same binary): flow instructions with explicit fields — `call TARGET, NUM`,
//! `callc COND, TARGET, NUM`, `callu bN, TARGET, NUM`, `ifc COND, TARGET, NUM`,
//! `ifu bN, TARGET, NUM`, `for iN, TARGET` (TARGET a label or a word address) —; `break`,
//! `dst`/`dsti`, `litp` (in the ISA but not in picasso's table); `loop` as a synonym of `for`;
//! `cond6`/`cond7` (or `6`/`7`) as CMP conditions; `.word VALUE`; `.noautonop`; a number as an
//! `.out` semantic; index registers also spelled `a0.x`, `a0.y`, `aL`; mova targets `a0.x`,
//! `a0.y`, `a0.xy`; v15 as an input (picasso stops at v14).
//!
//! Limits kept from picasso: 512 instructions for a vertex shader, 128 operand descriptors, 16
//! outputs, 96 constants. One source file makes one DVLE (picasso's multi-file linking is not
//! implemented).

pub mod lexer;
pub mod parser;

use core::fmt;
use std::collections::{BTreeMap, HashMap};

use self::parser::{
    CondExpr, CondJoin, Directive, GshArg, Ident, Instr, Num, Operand, OperandKind, RegOperand,
    Stmt, StmtKind, UniformKind,
};
use super::isa::{self, CmpOp, CondOp, Condition, DstReg, Instruction, Opcode, RelIndex, SrcReg};
use super::shbin::{
    ConstValue, Constant, Dvle, GshMode, Label, Output, Shbin, Uniform, OUTPUT_SEMANTICS,
};
use crate::num::F24;

/// A position in a source file: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub col: u32,
}

impl Span {
    /// A span at `line`, `col`.
    pub const fn new(line: u32, col: u32) -> Self {
        Self { line, col }
    }
}

/// An assembly error: file, position and message. Displays as `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// The file name given to [`assemble`].
    pub file: String,
    /// Where.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.span.line, self.span.col, self.message
        )
    }
}

impl std::error::Error for AsmError {}

/// An error before the file name is attached.
struct E {
    span: Span,
    msg: String,
}

type R<T> = Result<T, E>;

fn fail<T>(span: Span, msg: impl Into<String>) -> R<T> {
    Err(E {
        span,
        msg: msg.into(),
    })
}

/// Assembles one picasso source file into a SHBIN with one DVLE. `file` is only used in error
/// messages.
pub fn assemble(src: &str, file: &str) -> Result<Shbin, AsmError> {
    let wrap = |e: E| AsmError {
        file: file.to_string(),
        span: e.span,
        message: e.msg,
    };
    let tokens = lexer::lex(src).map_err(|e| {
        wrap(E {
            span: e.span,
            msg: format!("unexpected character '{}'", e.ch),
        })
    })?;
    let stmts = parser::parse(&tokens).map_err(|e| {
        wrap(E {
            span: e.span,
            msg: e.message,
        })
    })?;
    let mut a = Asm::new();
    for s in &stmts {
        a.stmt(s).map_err(wrap)?;
    }
    a.finish().map_err(wrap)
}

// ---------------------------------------------------------------------------------------------
// Registers

/// Register banks as picasso names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bank {
    V,
    O,
    R,
    C,
    I,
    B,
}

impl Bank {
    fn size(self) -> i64 {
        match self {
            Bank::V | Bank::O | Bank::R | Bank::B => 16,
            Bank::C => 96,
            Bank::I => 4,
        }
    }

    fn letter(self) -> char {
        match self {
            Bank::V => 'v',
            Bank::O => 'o',
            Bank::R => 'r',
            Bank::C => 'c',
            Bank::I => 'i',
            Bank::B => 'b',
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Reg {
    bank: Bank,
    n: i64,
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.bank.letter(), self.n)
    }
}

/// An alias: a register with a swizzle and a negation.
#[derive(Clone, Copy, Debug)]
struct Alias {
    reg: Reg,
    neg: bool,
    sw: u8,
}

/// A resolved register operand.
#[derive(Clone, Copy, Debug)]
struct Opnd {
    reg: Reg,
    neg: bool,
    not: bool,
    sw: u8,
    idx: RelIndex,
    span: Span,
}

const IDENTITY_SW: u8 = 0x1B;

/// Picasso swizzle text: 1-4 of x y z w (also r g b a, s t p q), the last repeated to fill.
fn parse_swizzle(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 4 {
        return None;
    }
    let mut out = 0u8;
    let mut q = 0u8;
    for lane in 0..4 {
        if let Some(c) = text.as_bytes().get(lane) {
            q = match c.to_ascii_lowercase() {
                b'x' | b'r' | b's' => 0,
                b'y' | b'g' | b't' => 1,
                b'z' | b'b' | b'p' => 2,
                b'w' | b'a' | b'q' => 3,
                _ => return None,
            };
        }
        out |= q << (6 - 2 * lane);
    }
    Some(out)
}

fn sw_lane(sw: u8, lane: usize) -> u8 {
    (sw >> (6 - 2 * lane)) & 3
}

/// The components a swizzle names, as a destination mask (bit 3 = x ... bit 0 = w).
fn dest_mask_of(sw: u8) -> u8 {
    (0..4).fold(0, |m, l| m | (8 >> sw_lane(sw, l)))
}

/// The components a swizzle names, as an output-table mask (bit 0 = x ... bit 3 = w).
fn out_mask_of(sw: u8) -> u16 {
    (0..4).fold(0, |m, l| m | (1 << sw_lane(sw, l)))
}

fn parse_reg_name(name: &str) -> Option<Reg> {
    let mut chars = name.chars();
    let bank = match chars.next()?.to_ascii_lowercase() {
        'v' => Bank::V,
        'o' => Bank::O,
        'r' => Bank::R,
        'c' => Bank::C,
        'i' => Bank::I,
        'b' => Bank::B,
        _ => return None,
    };
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(Reg {
        bank,
        n: digits.parse().ok()?,
    })
}

fn is_reg_name(name: &str) -> bool {
    parse_reg_name(name).is_some()
}

fn idx_reg(name: &str) -> Option<RelIndex> {
    match name.to_ascii_lowercase().as_str() {
        "a0" | "a0.x" => Some(RelIndex::A0X),
        "a1" | "a0.y" => Some(RelIndex::A0Y),
        "a2" | "lcnt" | "al" => Some(RelIndex::AL),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Operand descriptors

const fn opdesc(dst: u32, s1: u32, s2: u32, s3: u32) -> u32 {
    dst | s1 << 4 | s2 << 13 | s3 << 22
}

fn opsrc(o: &Opnd) -> u32 {
    u32::from(o.neg) | u32::from(o.sw) << 1
}

const MASK_D123: u32 = opdesc(0xF, 0x1FF, 0x1FF, 0x1FF);
const MASK_D12: u32 = opdesc(0xF, 0x1FF, 0x1FF, 0);
const MASK_D1: u32 = opdesc(0xF, 0x1FF, 0, 0);
const MASK_12: u32 = opdesc(0, 0x1FF, 0x1FF, 0);

/// Picasso's `optimizeOpdesc`: drops from `mask` the swizzle lanes `op` does not read.
fn narrow_mask(mask: u32, op: Opcode, value: u32) -> u32 {
    let comp = |lane: u32| 3u32 << (6 - 2 * lane);
    let (mut u1, mut u2, mut u3) = (0u32, 0u32, 0u32);
    match op {
        Opcode::Add
        | Opcode::Mul
        | Opcode::Sge
        | Opcode::Slt
        | Opcode::Flr
        | Opcode::Max
        | Opcode::Min
        | Opcode::Mov
        | Opcode::Mad => {
            for lane in 0..4 {
                if value & (8 >> lane) == 0 {
                    u1 |= comp(lane);
                }
            }
            u2 = u1;
            u3 = u1;
        }
        Opcode::Dp3 => {
            u1 = comp(3);
            u2 = comp(3);
        }
        Opcode::Dph => u1 = comp(3),
        Opcode::Ex2 | Opcode::Lg2 | Opcode::Rcp | Opcode::Rsq => {
            u1 = comp(1) | comp(2) | comp(3);
        }
        Opcode::Mova => {
            if value & 8 == 0 {
                u1 |= comp(0);
            }
            if value & 4 == 0 {
                u1 |= comp(1);
            }
            u1 |= comp(2) | comp(3);
        }
        Opcode::Cmp => u1 = comp(2) | comp(3),
        _ => {}
    }
    mask & !opdesc(0, u1 << 1, u2 << 1, u3 << 1)
}

// ---------------------------------------------------------------------------------------------
// The assembler state

#[derive(Debug)]
enum BlockKind {
    Proc(String),
    For,
    If { else_at: Option<usize> },
    Array,
}

#[derive(Debug)]
struct Block {
    kind: BlockKind,
    pos: usize,
    span: Span,
}

/// Picasso's `UniformAlloc`: globals grow up from `start`, locals down from `end`.
#[derive(Clone, Copy, Debug)]
struct Pool {
    start: i64,
    end: i64,
    bound: i64,
}

impl Pool {
    const fn new(start: i64, end: i64) -> Self {
        Self {
            start,
            end,
            bound: end,
        }
    }

    fn global(&mut self, size: i64) -> Option<i64> {
        if self.start.saturating_add(size) > self.bound {
            return None;
        }
        let at = self.start;
        self.start += size;
        Some(at)
    }

    fn local(&mut self, size: i64) -> Option<i64> {
        let at = self.end.saturating_sub(size);
        if at < self.start {
            return None;
        }
        self.bound = self.bound.min(at);
        self.end = at;
        Some(at)
    }
}

/// A pending reference to a label or procedure, patched when all are known.
struct Reloc {
    at: usize,
    name: Ident,
    /// true: a procedure (patch DST and NUM); false: a label (patch DST).
    proc: bool,
}

struct Asm {
    code: Vec<u32>,
    ops: Vec<u32>,
    op_masks: Vec<u32>,
    op_is_mad: u32,
    stack: Vec<Block>,
    last_was_end: bool,
    auto_nop: bool,
    procs: BTreeMap<String, (usize, usize)>,
    labels: HashMap<String, usize>,
    relocs: Vec<Reloc>,
    aliases: HashMap<String, Alias>,
    fpool: Pool,
    ipool: Pool,
    bpool: Pool,
    array: Vec<[F24; 4]>,
    array_name: Option<(Ident, Option<i64>)>,
    dvle: Dvle,
    compat_gsh: bool,
    nodvle: Option<Span>,
    entry: Ident,
    used_out: u64,
}

const MAX_VSH_SIZE: usize = 512;
const MAX_OPDESC: usize = 128;
const MAX_OUTPUT: usize = 16;
const MAX_CONSTANT: usize = 96;
const MAX_UNIFORM: usize = 96;

impl Asm {
    fn new() -> Self {
        Self {
            code: Vec::new(),
            ops: Vec::new(),
            op_masks: Vec::new(),
            op_is_mad: 0,
            stack: Vec::new(),
            last_was_end: false,
            auto_nop: true,
            procs: BTreeMap::new(),
            labels: HashMap::new(),
            relocs: Vec::new(),
            aliases: HashMap::new(),
            fpool: Pool::new(0, 96),
            ipool: Pool::new(0, 4),
            bpool: Pool::new(0, 16),
            array: Vec::new(),
            array_name: None,
            dvle: Dvle::default(),
            compat_gsh: false,
            nodvle: None,
            entry: Ident {
                name: "main".into(),
                span: Span::new(1, 1),
            },
            used_out: 0,
        }
    }

    fn uses_gsh_space(&self) -> bool {
        self.dvle.geometry && !self.compat_gsh
    }

    fn max_output(&self) -> i64 {
        if self.dvle.geometry {
            7
        } else {
            16
        }
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        match &s.kind {
            StmtKind::Label(l) => {
                if is_reg_name(&l.name) {
                    return fail(l.span, format!("'{}' is a register name", l.name));
                }
                if self
                    .labels
                    .insert(l.name.clone(), self.code.len())
                    .is_some()
                {
                    return fail(l.span, format!("duplicate label '{}'", l.name));
                }
                Ok(())
            }
            StmtKind::Directive(d) => self.directive(d, s.span),
            StmtKind::Instr(i) => {
                if self.stack.is_empty() {
                    return fail(s.span, "instruction outside a .proc block");
                }
                self.last_was_end = false;
                if !self.dvle.geometry && self.code.len() >= MAX_VSH_SIZE {
                    return fail(
                        s.span,
                        format!(
                            "instruction outside vertex shader code memory (max {MAX_VSH_SIZE} \
                             instructions)"
                        ),
                    );
                }
                self.instr(i)
            }
        }
    }

    fn emit(&mut self, inst: Instruction) {
        self.code.push(isa::encode(&inst));
    }

    fn pad(&mut self) {
        if self.auto_nop {
            self.emit(Instruction::Plain(Opcode::Nop));
        }
    }

    fn last_opcode(&self) -> Option<Opcode> {
        self.code
            .last()
            .and_then(|w| Opcode::from_code((w >> 26) as u8))
    }

    fn last_is_jump_or_call(&self) -> bool {
        matches!(
            self.last_opcode(),
            Some(Opcode::Jmpc | Opcode::Jmpu | Opcode::Call | Opcode::Callc | Opcode::Callu)
        )
    }

    // -----------------------------------------------------------------------------------------
    // Operands

    fn resolve(&self, r: &RegOperand) -> R<Opnd> {
        let (base, mut neg, alias_sw) = match self.aliases.get(&r.name.name) {
            Some(a) => (a.reg, a.neg, a.sw),
            None => match parse_reg_name(&r.name.name) {
                Some(reg) => (reg, false, IDENTITY_SW),
                None => {
                    return fail(
                        r.name.span,
                        format!("unknown register or alias '{}'", r.name.name),
                    )
                }
            },
        };
        neg ^= r.neg;
        let mut reg = base;
        let mut idx = RelIndex::None;
        if let Some(ix) = &r.index {
            if let Some(ir) = &ix.reg {
                idx = idx_reg(&ir.name).ok_or_else(|| E {
                    span: ir.span,
                    msg: format!(
                        "invalid index register '{}' (a0, a1, a2/lcnt expected)",
                        ir.name
                    ),
                })?;
            }
            reg.n = reg.n.saturating_add(ix.offset);
        }
        if reg.n < 0 || reg.n >= reg.bank.size() {
            return fail(
                r.name.span,
                format!(
                    "register {}{} does not exist ({}0-{}{})",
                    reg.bank.letter(),
                    reg.n,
                    reg.bank.letter(),
                    reg.bank.letter(),
                    reg.bank.size() - 1
                ),
            );
        }
        let user_sw = match &r.swizzle {
            Some(s) => parse_swizzle(&s.name).ok_or_else(|| E {
                span: s.span,
                msg: format!("invalid swizzle or mask '.{}'", s.name),
            })?,
            None => IDENTITY_SW,
        };
        // Alias composition (picasso manual): alias c0.wyxz, written .xxww → c0.wwzz.
        let sw = (0..4).fold(0u8, |acc, lane| {
            acc | sw_lane(alias_sw, usize::from(sw_lane(user_sw, lane))) << (6 - 2 * lane)
        });
        Ok(Opnd {
            reg,
            neg,
            not: r.not,
            sw,
            idx,
            span: r.name.span,
        })
    }

    fn reg_of(&self, o: &Operand, what: &str) -> R<Opnd> {
        match &o.kind {
            OperandKind::Reg(r) => {
                let v = self.resolve(r)?;
                if v.not {
                    return fail(o.span, format!("'!' is not allowed on {what}"));
                }
                Ok(v)
            }
            _ => fail(o.span, format!("expected {what}")),
        }
    }

    fn dst(&self, o: &Operand) -> R<(DstReg, u8)> {
        let v = self.reg_of(o, "a destination register")?;
        if v.neg {
            return fail(o.span, "a destination cannot be negated");
        }
        if v.idx != RelIndex::None {
            return fail(o.span, "a destination cannot be relatively addressed");
        }
        let d = match v.reg.bank {
            Bank::O if v.reg.n < self.max_output() => DstReg::output(v.reg.n as u8),
            Bank::R => DstReg::temp(v.reg.n as u8),
            _ => None,
        };
        match d {
            Some(d) => Ok((d, dest_mask_of(v.sw))),
            None => fail(
                v.span,
                format!(
                    "invalid destination register {} (o0-o{} or r0-r15)",
                    v.reg,
                    self.max_output() - 1
                ),
            ),
        }
    }

    fn src(&self, o: &Operand, n: usize) -> R<(SrcReg, Opnd)> {
        let v = self.reg_of(o, &format!("source {n} register"))?;
        let s = match v.reg.bank {
            Bank::V => SrcReg::input(v.reg.n as u8),
            Bank::R => SrcReg::temp(v.reg.n as u8),
            Bank::C => SrcReg::uniform(v.reg.n as u8),
            _ => None,
        };
        match s {
            Some(s) => Ok((s, v)),
            None => fail(
                v.span,
                format!("invalid source {n} register {} (v, r or c expected)", v.reg),
            ),
        }
    }

    fn bool_reg(&self, o: &Operand) -> R<(u8, bool)> {
        let v = match &o.kind {
            OperandKind::Reg(r) => self.resolve(r)?,
            _ => return fail(o.span, "expected a bool uniform (b0-b15)"),
        };
        if v.reg.bank != Bank::B {
            return fail(
                v.span,
                format!("expected a bool uniform (b0-b15), found {}", v.reg),
            );
        }
        Ok((v.reg.n as u8, v.not))
    }

    fn int_reg(&self, o: &Operand) -> R<u8> {
        let v = self.reg_of(o, "an integer uniform (i0-i3)")?;
        if v.reg.bank != Bank::I {
            return fail(
                v.span,
                format!("expected an integer uniform (i0-i3), found {}", v.reg),
            );
        }
        Ok(v.reg.n as u8)
    }

    fn find_opdesc(&mut self, op: Opcode, value: u32, mask: u32, span: Span) -> R<usize> {
        let mask = narrow_mask(mask, op, value);
        for i in 0..self.ops.len() {
            let common = mask & self.op_masks[i];
            if value & common == self.ops[i] & common {
                self.ops[i] = (self.ops[i] & !mask) | (value & mask);
                self.op_masks[i] |= mask;
                return Ok(i);
            }
        }
        if self.ops.len() == MAX_OPDESC {
            return fail(
                span,
                format!("too many operand descriptors (limit is {MAX_OPDESC})"),
            );
        }
        self.ops.push(value);
        self.op_masks.push(mask);
        Ok(self.ops.len() - 1)
    }

    /// Swaps descriptors `a` and `b` and renumbers every non-MAD instruction using them.
    fn swap_opdesc(&mut self, a: usize, b: usize) {
        self.ops.swap(a, b);
        self.op_masks.swap(a, b);
        for w in &mut self.code {
            let code = *w >> 26;
            if code < 0x20 || (code & !1) == 0x2E {
                let d = (*w & 0x7F) as usize;
                let nd = if d == a {
                    b
                } else if d == b {
                    a
                } else {
                    d
                };
                *w = (*w & !0x7F) | nd as u32;
            }
        }
    }

    fn cond(&self, o: &Operand) -> R<Condition> {
        let OperandKind::Cond(CondExpr { first, second }) = &o.kind else {
            return fail(
                o.span,
                "expected a condition (cmp.x, !cmp.y, cmp.x && cmp.y, ...)",
            );
        };
        // picasso parseCondExp: refs start at 1, a negated flag clears its ref; one flag tests
        // only that flag (CONDOP 2 = x, 3 = y).
        let mut c = Condition {
            op: CondOp::Or,
            ref_x: true,
            ref_y: true,
        };
        let mut set = |f: &parser::CondFlag| {
            if f.is_y {
                c.ref_y ^= f.negated;
            } else {
                c.ref_x ^= f.negated;
            }
        };
        set(first);
        match second {
            None => {}
            Some((_, f2)) => {
                if f2.is_y == first.is_y {
                    return fail(f2.span, "condition flag tested twice");
                }
                set(f2);
            }
        }
        c.op = match second {
            None if first.is_y => CondOp::Y,
            None => CondOp::X,
            Some((CondJoin::And, _)) => CondOp::And,
            Some((CondJoin::Or, _)) => CondOp::Or,
        };
        Ok(c)
    }

    fn cmp_op(&self, o: &Operand) -> R<CmpOp> {
        let name = match &o.kind {
            OperandKind::Reg(RegOperand {
                neg: false,
                not: false,
                name,
                index: None,
                swizzle: None,
            }) => name.name.to_ascii_lowercase(),
            OperandKind::Int(6) => "cond6".into(),
            OperandKind::Int(7) => "cond7".into(),
            _ => String::new(),
        };
        CmpOp::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| E {
                span: o.span,
                msg: "expected a comparison: eq, ne, lt, le, gt, ge (or cond6, cond7)".into(),
            })
    }

    /// A raw target: a label name (relocated) or an address.
    fn target(&mut self, o: &Operand, at: usize) -> R<u16> {
        match &o.kind {
            OperandKind::Int(v) if (0..4096).contains(v) => Ok(*v as u16),
            OperandKind::Reg(RegOperand {
                neg: false,
                not: false,
                name,
                index: None,
                swizzle: None,
            }) => {
                self.relocs.push(Reloc {
                    at,
                    name: name.clone(),
                    proc: false,
                });
                Ok(0)
            }
            _ => fail(o.span, "expected a label or a word address (0-4095)"),
        }
    }

    fn num(&self, o: &Operand) -> R<u8> {
        match &o.kind {
            OperandKind::Int(v) if (0..256).contains(v) => Ok(*v as u8),
            _ => fail(o.span, "expected a count (0-255)"),
        }
    }

    fn proc_name(&mut self, o: &Operand, at: usize) -> R<()> {
        match &o.kind {
            OperandKind::Reg(RegOperand {
                neg: false,
                not: false,
                name,
                index: None,
                swizzle: None,
            }) => {
                self.relocs.push(Reloc {
                    at,
                    name: name.clone(),
                    proc: true,
                });
                Ok(())
            }
            _ => fail(o.span, "expected a procedure name"),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Instructions

    fn instr(&mut self, i: &Instr) -> R<()> {
        let mn = i.mnemonic.name.to_ascii_lowercase();
        let ops = &i.operands;
        let arity = |range: std::ops::RangeInclusive<usize>| -> R<()> {
            if range.contains(&ops.len()) {
                Ok(())
            } else {
                let want = if range.start() == range.end() {
                    format!("{}", range.start())
                } else {
                    format!("{} to {}", range.start(), range.end())
                };
                fail(
                    i.mnemonic.span,
                    format!("'{mn}' takes {want} operands, found {}", ops.len()),
                )
            }
        };
        let at = self.code.len();
        let span = i.mnemonic.span;
        match mn.as_str() {
            "nop" | "end" | "emit" | "break" => {
                arity(0..=0)?;
                let op = Opcode::from_mnemonic(&mn).ok_or_else(|| E {
                    span,
                    msg: "unknown instruction".into(),
                })?;
                self.emit(Instruction::Plain(op));
            }
            "add" | "dp3" | "dp4" | "dph" | "dst" | "mul" | "sge" | "slt" | "max" | "min"
            | "dphi" | "dsti" | "sgei" | "slti" => {
                arity(3..=3)?;
                let forced = mn.ends_with('i');
                let base = mn.trim_end_matches('i');
                let (op, opi) = match base {
                    "add" => (Opcode::Add, None),
                    "dp3" => (Opcode::Dp3, None),
                    "dp4" => (Opcode::Dp4, None),
                    "dph" => (Opcode::Dph, Some(Opcode::Dphi)),
                    "dst" => (Opcode::Dst, Some(Opcode::Dsti)),
                    "mul" => (Opcode::Mul, None),
                    "sge" => (Opcode::Sge, Some(Opcode::Sgei)),
                    "slt" => (Opcode::Slt, Some(Opcode::Slti)),
                    "max" => (Opcode::Max, None),
                    _ => (Opcode::Min, None),
                };
                self.format1(op, opi, forced, ops, span)?;
            }
            "ex2" | "lg2" | "litp" | "flr" | "rcp" | "rsq" | "mov" => {
                arity(2..=2)?;
                let op = Opcode::from_mnemonic(&mn).ok_or_else(|| E {
                    span,
                    msg: "unknown instruction".into(),
                })?;
                let (dst, mask) = self.dst(&ops[0])?;
                let (s1, o1) = self.src(&ops[1], 1)?;
                let desc =
                    self.find_opdesc(op, opdesc(u32::from(mask), opsrc(&o1), 0, 0), MASK_D1, span)?;
                self.emit(Instruction::Alu {
                    op,
                    dst,
                    src1: s1,
                    src2: SrcReg::from_raw(0),
                    idx: o1.idx,
                    desc: desc as u8,
                });
            }
            "mova" => {
                arity(2..=2)?;
                let mask = match &ops[0].kind {
                    OperandKind::Reg(RegOperand {
                        neg: false,
                        not: false,
                        name,
                        index: None,
                        swizzle,
                    }) => {
                        let full = match swizzle {
                            Some(s) => format!("{}.{}", name.name, s.name),
                            None => name.name.clone(),
                        };
                        match full.to_ascii_lowercase().as_str() {
                            "a0" | "a0.x" => Some(8),
                            "a1" | "a0.y" => Some(4),
                            "a01" | "a0.xy" => Some(12),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let mask = mask.ok_or_else(|| E {
                    span: ops[0].span,
                    msg: "invalid mova destination (a0, a1, a01 or a0.x, a0.y, a0.xy)".into(),
                })?;
                let (s1, o1) = self.src(&ops[1], 1)?;
                let desc =
                    self.find_opdesc(Opcode::Mova, opdesc(mask, opsrc(&o1), 0, 0), MASK_D1, span)?;
                self.emit(Instruction::Alu {
                    op: Opcode::Mova,
                    dst: DstReg::from_raw(0),
                    src1: s1,
                    src2: SrcReg::from_raw(0),
                    idx: o1.idx,
                    desc: desc as u8,
                });
            }
            "cmp" => {
                arity(4..=4)?;
                let (s1, o1) = self.src(&ops[0], 1)?;
                let cmp_x = self.cmp_op(&ops[1])?;
                let cmp_y = self.cmp_op(&ops[2])?;
                let (s2, o2) = self.src(&ops[3], 2)?;
                narrow(&o2, 2)?;
                no_index(&o2, 2)?;
                let desc = self.find_opdesc(
                    Opcode::Cmp,
                    opdesc(0, opsrc(&o1), opsrc(&o2), 0),
                    MASK_12,
                    span,
                )?;
                self.emit(Instruction::Cmp {
                    src1: s1,
                    src2: s2,
                    idx: o1.idx,
                    cmp_x,
                    cmp_y,
                    desc: desc as u8,
                });
            }
            "mad" | "madi" => {
                arity(4..=4)?;
                self.format5(mn == "madi", ops, span)?;
            }
            "call" => {
                arity(1..=2)?;
                let (target, num) = if ops.len() == 2 {
                    (self.target(&ops[0], at)?, self.num(&ops[1])?)
                } else {
                    self.proc_name(&ops[0], at)?;
                    (0, 0)
                };
                self.flow(Opcode::Call, Condition::default(), target, num);
            }
            "callc" | "ifc" | "jmpc" | "breakc" => {
                let op = Opcode::from_mnemonic(&mn).ok_or_else(|| E {
                    span,
                    msg: "unknown instruction".into(),
                })?;
                match op {
                    Opcode::Breakc => arity(1..=1)?,
                    Opcode::Jmpc => arity(2..=2)?,
                    Opcode::Callc => arity(2..=3)?,
                    _ => arity(1..=3)?,
                }
                let cond = self.cond(&ops[0])?;
                let (mut target, mut num) = (0, 0);
                if ops.len() == 3 {
                    target = self.target(&ops[1], at)?;
                    num = self.num(&ops[2])?;
                } else if op == Opcode::Callc {
                    self.proc_name(&ops[1], at)?;
                } else if op == Opcode::Jmpc {
                    target = self.target(&ops[1], at)?;
                } else if op == Opcode::Ifc {
                    if ops.len() == 2 {
                        return fail(
                            ops[1].span,
                            "ifc takes a condition, or a condition, target and count",
                        );
                    }
                    self.open(BlockKind::If { else_at: None }, at, span);
                }
                self.flow(op, cond, target, num);
            }
            "callu" | "ifu" | "jmpu" => {
                let op = Opcode::from_mnemonic(&mn).ok_or_else(|| E {
                    span,
                    msg: "unknown instruction".into(),
                })?;
                match op {
                    Opcode::Jmpu => arity(2..=2)?,
                    Opcode::Callu => arity(2..=3)?,
                    _ => arity(1..=3)?,
                }
                let (id, not) = self.bool_reg(&ops[0])?;
                if not && op != Opcode::Jmpu {
                    return fail(ops[0].span, format!("'{mn}' cannot invert its condition"));
                }
                let (mut target, mut num) = (0, u8::from(not));
                if ops.len() == 3 {
                    target = self.target(&ops[1], at)?;
                    num = self.num(&ops[2])?;
                } else if op == Opcode::Callu {
                    self.proc_name(&ops[1], at)?;
                } else if op == Opcode::Jmpu {
                    target = self.target(&ops[1], at)?;
                } else {
                    if ops.len() == 2 {
                        return fail(
                            ops[1].span,
                            "ifu takes a bool uniform, or a bool uniform, target and count",
                        );
                    }
                    self.open(BlockKind::If { else_at: None }, at, span);
                }
                self.emit(Instruction::FlowUniform {
                    op,
                    id,
                    target,
                    num,
                });
            }
            "for" | "loop" => {
                arity(1..=2)?;
                let id = self.int_reg(&ops[0])?;
                let target = if ops.len() == 2 {
                    self.target(&ops[1], at)?
                } else {
                    self.open(BlockKind::For, at, span);
                    0
                };
                self.emit(Instruction::FlowUniform {
                    op: Opcode::Loop,
                    id,
                    target,
                    num: 0,
                });
            }
            "setemit" => {
                arity(1..=2)?;
                let vtx_id = match ops[0].kind {
                    OperandKind::Int(v) if (0..4).contains(&v) => v as u8,
                    _ => return fail(ops[0].span, "expected a vertex slot (0-3)"),
                };
                let mut winding = false;
                let mut prim_emit = false;
                if let Some(o) = ops.get(1) {
                    let words: Vec<&Ident> = match &o.kind {
                        OperandKind::Words(w) => w.iter().collect(),
                        OperandKind::Reg(RegOperand {
                            neg: false,
                            not: false,
                            name,
                            index: None,
                            swizzle: None,
                        }) => vec![name],
                        _ => return fail(o.span, "expected setemit flags (prim, inv)"),
                    };
                    for w in words {
                        match w.name.to_ascii_lowercase().as_str() {
                            "prim" | "primitive" => prim_emit = true,
                            "inv" | "invert" => winding = true,
                            other => {
                                return fail(w.span, format!("unknown setemit flag '{other}'"))
                            }
                        }
                    }
                }
                if !self.dvle.geometry {
                    self.dvle.geometry = true;
                    self.compat_gsh = true;
                }
                self.emit(Instruction::SetEmit {
                    vtx_id,
                    winding,
                    prim_emit,
                });
            }
            _ => return fail(span, format!("unknown instruction '{}'", i.mnemonic.name)),
        }
        Ok(())
    }

    fn flow(&mut self, op: Opcode, cond: Condition, target: u16, num: u8) {
        self.emit(Instruction::Flow {
            op,
            cond,
            target,
            num,
        });
    }

    fn open(&mut self, kind: BlockKind, pos: usize, span: Span) {
        self.stack.push(Block { kind, pos, span });
    }

    fn format1(
        &mut self,
        op: Opcode,
        opi: Option<Opcode>,
        forced: bool,
        ops: &[Operand],
        span: Span,
    ) -> R<()> {
        let (dst, mask) = self.dst(&ops[0])?;
        let (s1, o1) = self.src(&ops[1], 1)?;
        let (s2, o2) = self.src(&ops[2], 2)?;
        let inverted = opi.is_some()
            && s1.fits_narrow()
            && if forced {
                o1.idx == RelIndex::None
            } else {
                !s2.fits_narrow()
            };
        if inverted {
            no_index(&o1, 1)?;
        } else {
            narrow(&o2, 2)?;
            no_index(&o2, 2)?;
        }
        bad_inputs(&[s1, s2], o1.span)?;
        let desc = self.find_opdesc(
            op,
            opdesc(u32::from(mask), opsrc(&o1), opsrc(&o2), 0),
            MASK_D12,
            span,
        )?;
        let (op, idx) = match (inverted, opi) {
            (true, Some(i)) => (i, o2.idx),
            _ => (op, o1.idx),
        };
        self.emit(Instruction::Alu {
            op,
            dst,
            src1: s1,
            src2: s2,
            idx,
            desc: desc as u8,
        });
        Ok(())
    }

    fn format5(&mut self, forced: bool, ops: &[Operand], span: Span) -> R<()> {
        let (dst, mask) = self.dst(&ops[0])?;
        let (s1, o1) = self.src(&ops[1], 1)?;
        narrow(&o1, 1)?;
        no_index(&o1, 1)?;
        let (s2, o2) = self.src(&ops[2], 2)?;
        let (s3, o3) = self.src(&ops[3], 3)?;
        let inverted = s2.fits_narrow()
            && if forced {
                o2.idx == RelIndex::None
            } else {
                !s3.fits_narrow() || (o3.idx != RelIndex::None && o2.idx == RelIndex::None)
            };
        if inverted {
            no_index(&o2, 2)?;
        } else {
            narrow(&o3, 3)?;
            no_index(&o3, 3)?;
        }
        bad_inputs(&[s1, s2, s3], o1.span)?;
        let mut desc = self.find_opdesc(
            Opcode::Mad,
            opdesc(u32::from(mask), opsrc(&o1), opsrc(&o2), opsrc(&o3)),
            MASK_D123,
            span,
        )?;
        if desc >= 32 {
            let Some(free) = (0..32).find(|k| self.op_is_mad & (1 << k) == 0) else {
                return fail(span, "no operand descriptor below 32 is free for this MAD");
            };
            self.swap_opdesc(free, desc);
            desc = free;
        }
        self.op_is_mad |= 1 << desc;
        self.emit(Instruction::Mad {
            op: if inverted { Opcode::Madi } else { Opcode::Mad },
            dst,
            src1: s1,
            src2: s2,
            src3: s3,
            idx: if inverted { o3.idx } else { o2.idx },
            desc: desc as u8,
        });
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // Directives

    fn directive(&mut self, d: &Directive, span: Span) -> R<()> {
        match d {
            Directive::Proc(name) => {
                if self.procs.contains_key(&name.name)
                    || self
                        .stack
                        .iter()
                        .any(|b| matches!(&b.kind, BlockKind::Proc(p) if *p == name.name))
                {
                    return fail(
                        name.span,
                        format!("procedure '{}' already exists", name.name),
                    );
                }
                self.open(BlockKind::Proc(name.name.clone()), self.code.len(), span);
            }
            Directive::Else => self.else_(span)?,
            Directive::End => self.end(span)?,
            Directive::Alias { name, target } => {
                check_new_name(name)?;
                self.check_unused(name)?;
                let o = self.resolve(target)?;
                if o.idx != RelIndex::None {
                    return fail(name.span, "an alias cannot use an index register");
                }
                self.aliases.insert(
                    name.name.clone(),
                    Alias {
                        reg: o.reg,
                        neg: o.neg,
                        sw: o.sw,
                    },
                );
            }
            Directive::Uniforms { kind, items } => {
                for (name, size) in items {
                    self.uniform(*kind, name, size.as_ref())?;
                }
            }
            Directive::Const { kind, name, values } => {
                self.check_unused(name)?;
                check_new_name(name)?;
                self.check_const_room(span, 1)?;
                let (pool, bank) = match kind {
                    UniformKind::Float => (&mut self.fpool, Bank::C),
                    _ => (&mut self.ipool, Bank::I),
                };
                let at = pool.local(1).ok_or_else(|| E {
                    span: name.span,
                    msg: format!("not enough space for local constant '{}'", name.name),
                })?;
                let value = match kind {
                    UniformKind::Float => ConstValue::Float(floats(values)?),
                    _ => ConstValue::Int(ints(values)?),
                };
                self.dvle.constants.push(Constant {
                    reg: at as u16,
                    value,
                });
                self.alias(name, Reg { bank, n: at });
            }
            Directive::ConstfaOpen { name, size } => {
                if self.array_name.is_some() {
                    return fail(span, "a .constfa array is already open");
                }
                check_new_name(name)?;
                if let Some((n, s)) = size {
                    if *n <= 0 || *n > 96 {
                        return fail(*s, format!("invalid array size {n}"));
                    }
                }
                self.array_name = Some((name.clone(), size.map(|(n, _)| n)));
                self.array.clear();
                self.open(BlockKind::Array, self.code.len(), span);
            }
            Directive::ConstfaItem(values) => {
                let Some((_, size)) = &self.array_name else {
                    return fail(span, ".constfa element outside a .constfa array");
                };
                if size.is_some_and(|s| self.array.len() as i64 >= s) {
                    return fail(span, "too many elements in the array");
                }
                let v = floats(values)?;
                self.array.push(v);
            }
            Directive::Set { kind, reg, values } => {
                let o = self.resolve(reg)?;
                let value = match kind {
                    UniformKind::Float => {
                        if o.reg.bank != Bank::C {
                            return fail(
                                o.span,
                                format!("expected a float uniform, found {}", o.reg),
                            );
                        }
                        ConstValue::Float(floats(values)?)
                    }
                    _ => {
                        if o.reg.bank != Bank::I {
                            return fail(
                                o.span,
                                format!("expected an integer uniform, found {}", o.reg),
                            );
                        }
                        ConstValue::Int(ints(values)?)
                    }
                };
                self.check_const_room(span, 1)?;
                self.dvle.constants.push(Constant {
                    reg: o.reg.n as u16,
                    value,
                });
            }
            Directive::Setb { reg, value } => {
                let o = self.resolve(reg)?;
                if o.reg.bank != Bank::B {
                    return fail(o.span, format!("expected a bool uniform, found {}", o.reg));
                }
                let v = match value.name.to_ascii_lowercase().as_str() {
                    "true" | "on" | "1" => true,
                    "false" | "off" | "0" => false,
                    other => return fail(value.span, format!("invalid bool value '{other}'")),
                };
                self.check_const_room(span, 1)?;
                self.dvle.constants.push(Constant {
                    reg: o.reg.n as u16,
                    value: ConstValue::Bool(v),
                });
            }
            Directive::In { name, reg } => {
                check_new_name(name)?;
                self.check_unused(name)?;
                let n = match reg {
                    Some(r) => {
                        let o = self.resolve(r)?;
                        if o.reg.bank != Bank::V {
                            return fail(
                                o.span,
                                format!("expected an input register, found {}", o.reg),
                            );
                        }
                        o.reg.n
                    }
                    None => (0..16)
                        .find(|k| self.dvle.input_mask & (1 << k) == 0)
                        .ok_or_else(|| E {
                            span,
                            msg: "too many inputs".into(),
                        })?,
                };
                self.check_uniform_room(span)?;
                self.dvle.input_mask |= 1 << n;
                self.dvle.uniforms.push(Uniform {
                    name: name.name.clone(),
                    start: n as u16,
                    end: n as u16,
                });
                self.alias(name, Reg { bank: Bank::V, n });
            }
            Directive::Out {
                name,
                semantic,
                mask,
                reg,
            } => self.out(name.as_ref(), semantic, mask.as_ref(), reg.as_ref(), span)?,
            Directive::Entry(name) => self.entry = name.clone(),
            Directive::Nodvle => self.nodvle = Some(span),
            Directive::Gsh { mode, args } => self.gsh(mode.as_ref(), args, span)?,
            Directive::Word(w) => {
                if self.stack.is_empty() {
                    return fail(span, "instruction outside a .proc block");
                }
                self.last_was_end = false;
                self.code.push(*w);
            }
            Directive::NoAutoNop => self.auto_nop = false,
        }
        Ok(())
    }

    fn check_const_room(&self, span: Span, n: usize) -> R<()> {
        if self.dvle.constants.len() + n > MAX_CONSTANT {
            return fail(
                span,
                format!("too many constants (limit is {MAX_CONSTANT})"),
            );
        }
        Ok(())
    }

    fn check_uniform_room(&self, span: Span) -> R<()> {
        if self.dvle.uniforms.len() >= MAX_UNIFORM {
            return fail(span, format!("too many uniforms (limit is {MAX_UNIFORM})"));
        }
        Ok(())
    }

    fn check_unused(&self, name: &Ident) -> R<()> {
        if self.aliases.contains_key(&name.name) {
            return fail(name.span, format!("identifier already used: {}", name.name));
        }
        Ok(())
    }

    fn alias(&mut self, name: &Ident, reg: Reg) {
        self.aliases.insert(
            name.name.clone(),
            Alias {
                reg,
                neg: false,
                sw: IDENTITY_SW,
            },
        );
    }

    fn uniform(&mut self, kind: UniformKind, name: &Ident, size: Option<&(i64, Span)>) -> R<()> {
        check_new_name(name)?;
        self.check_unused(name)?;
        let n = match size {
            Some((n, s)) if *n < 1 => return fail(*s, format!("invalid uniform size {n}")),
            Some((n, _)) => *n,
            None => 1,
        };
        let (pool, bank, base) = match kind {
            UniformKind::Float => (&mut self.fpool, Bank::C, 0x10),
            UniformKind::Int => (&mut self.ipool, Bank::I, 0x70),
            UniformKind::Bool => (&mut self.bpool, Bank::B, 0x78),
        };
        let at = pool.global(n).ok_or_else(|| E {
            span: name.span,
            msg: format!("not enough uniform space for {}[{n}]", name.name),
        })?;
        if !name.name.starts_with('_') {
            self.check_uniform_room(name.span)?;
            self.dvle.uniforms.push(Uniform {
                name: name.name.clone(),
                start: (base + at) as u16,
                end: (base + at + n - 1) as u16,
            });
        }
        self.alias(name, Reg { bank, n: at });
        Ok(())
    }

    fn out(
        &mut self,
        name: Option<&Ident>,
        semantic: &Ident,
        mask: Option<&Ident>,
        reg: Option<&RegOperand>,
        span: Span,
    ) -> R<()> {
        if let Some(n) = name {
            check_new_name(n)?;
        }
        let (oid, sw) = match reg {
            Some(r) => {
                let o = self.resolve(r)?;
                if o.reg.bank != Bank::O || o.reg.n >= self.max_output() {
                    return fail(o.span, format!("invalid output register {}", o.reg));
                }
                (Some(o.reg.n), o.sw)
            }
            None => {
                let sw = match mask {
                    Some(m) => parse_swizzle(&m.name).ok_or_else(|| E {
                        span: m.span,
                        msg: format!("invalid output mask '.{}'", m.name),
                    })?,
                    None => IDENTITY_SW,
                };
                (None, sw)
            }
        };
        let out_mask = out_mask_of(sw);
        let sem_name = semantic.name.to_ascii_lowercase();
        let ty = OUTPUT_SEMANTICS
            .iter()
            .find(|(n, _)| *n == sem_name)
            .map(|(_, v)| *v)
            .or_else(|| parser::parse_int(&sem_name).and_then(|v| u16::try_from(v).ok()))
            .ok_or_else(|| E {
                span: semantic.span,
                msg: format!("invalid output type '{}'", semantic.name),
            })?;
        let oid = match oid {
            Some(o) => {
                if self.used_out & (u64::from(out_mask) << (4 * o)) != 0 {
                    return fail(
                        span,
                        "this output collides with another one previously defined",
                    );
                }
                o
            }
            None => (0..self.max_output())
                .find(|k| self.dvle.output_mask & (1 << k) == 0)
                .ok_or_else(|| E {
                    span,
                    msg: "too many outputs".into(),
                })?,
        };
        if self.dvle.outputs.len() == MAX_OUTPUT {
            return fail(span, "too many outputs");
        }
        if let Some(n) = name {
            self.check_unused(n)?;
        }
        if oid >= 7 && ty != 9 {
            return fail(span, format!("o{oid} can only be a dummy output"));
        }
        self.dvle.outputs.push(Output {
            semantic: ty,
            reg: oid as u16,
            mask: out_mask,
            unknown: 0,
        });
        self.dvle.output_mask |= 1 << oid;
        self.used_out |= u64::from(out_mask) << (4 * oid);
        if let Some(n) = name {
            self.alias(
                n,
                Reg {
                    bank: Bank::O,
                    n: oid,
                },
            );
        }
        if ty == 9 && self.uses_gsh_space() {
            self.dvle.merge_outmaps = true;
        }
        Ok(())
    }

    fn gsh(&mut self, mode: Option<&Ident>, args: &[GshArg], span: Span) -> R<()> {
        let Some(mode) = mode else {
            self.dvle.geometry = true;
            self.compat_gsh = true;
            return Ok(());
        };
        if self.dvle.geometry {
            return fail(span, ".gsh has already been used");
        }
        if !self.dvle.constants.is_empty()
            || !self.dvle.uniforms.is_empty()
            || self.dvle.output_mask != 0
        {
            return fail(
                span,
                ".gsh must come before any constant, uniform or output is declared",
            );
        }
        let m = match mode.name.to_ascii_lowercase().as_str() {
            "point" => GshMode::Point,
            "variable" | "subdivision" => GshMode::Variable,
            "fixed" | "particle" => GshMode::Fixed,
            other => return fail(mode.span, format!("invalid geometry shader mode '{other}'")),
        };
        let want = match m {
            GshMode::Point => 1,
            GshMode::Variable => 2,
            GshMode::Fixed => 3,
        };
        if args.len() != want {
            return fail(
                mode.span,
                format!("'.gsh {}' takes {want} arguments", mode.name),
            );
        }
        let creg = |a: &GshArg| -> R<i64> {
            match a {
                GshArg::Reg(r) => {
                    let o = self.resolve(r)?;
                    if o.reg.bank != Bank::C {
                        return fail(o.span, format!("expected a float uniform, found {}", o.reg));
                    }
                    Ok(o.reg.n)
                }
                GshArg::Int(_, s) => fail(*s, "expected a float uniform register"),
            }
        };
        let count = |a: &GshArg| -> R<u8> {
            match a {
                GshArg::Int(v, s) => u8::try_from(*v).map_err(|_| E {
                    span: *s,
                    msg: format!("count {v} out of range (0-255)"),
                }),
                GshArg::Reg(r) => fail(r.name.span, "expected a count"),
            }
        };
        let first_free = creg(&args[0])?;
        match m {
            GshMode::Point => {}
            GshMode::Variable => self.dvle.gsh_variable_num = count(&args[1])?,
            GshMode::Fixed => {
                let start = creg(&args[1])?;
                if start >= first_free {
                    return fail(
                        span,
                        "the fixed vertex array overlaps the uniform allocation pool",
                    );
                }
                self.dvle.gsh_fixed_start = start as u8;
                self.dvle.gsh_fixed_num = count(&args[2])?;
            }
        }
        self.dvle.geometry = true;
        self.dvle.gsh_mode = m;
        // picasso initForGsh: floats from the first free register, b15 reserved.
        self.fpool = Pool::new(first_free, 96);
        self.ipool = Pool::new(0, 4);
        self.bpool = Pool::new(0, 15);
        Ok(())
    }

    fn else_(&mut self, span: Span) -> R<()> {
        let Some(top) = self.stack.last() else {
            return fail(span, ".else without an open if");
        };
        let pos = top.pos;
        match top.kind {
            BlockKind::If { else_at: None } => {}
            BlockKind::If { .. } => return fail(span, "second .else for the same if"),
            _ => return fail(span, ".else without an open if"),
        }
        if self.last_was_end {
            self.pad();
            self.last_was_end = false;
        } else if self.last_is_jump_or_call() || self.code.len() - pos < 2 {
            self.pad();
        }
        let cur = self.code.len();
        if let Some(top) = self.stack.last_mut() {
            top.kind = BlockKind::If { else_at: Some(cur) };
        }
        self.patch_dst(pos, cur);
        Ok(())
    }

    fn patch_dst(&mut self, at: usize, dst: usize) {
        if let Some(w) = self.code.get_mut(at) {
            *w = (*w & !(0xFFF << 10)) | ((dst as u32 & 0xFFF) << 10);
        }
    }

    fn end(&mut self, span: Span) -> R<()> {
        let Some(b) = self.stack.pop() else {
            return fail(span, ".end without an open block");
        };
        let is_array = matches!(b.kind, BlockKind::Array);
        if !is_array && self.last_was_end {
            self.pad();
            self.last_was_end = false;
        } else if !is_array {
            let is_proc = matches!(b.kind, BlockKind::Proc(_));
            let min = if is_proc { 1 } else { 2 };
            let is_for = matches!(b.kind, BlockKind::For);
            let is_if = matches!(b.kind, BlockKind::If { .. });
            if (!is_if || !self.code.is_empty())
                && (self.last_is_jump_or_call()
                    || (is_for && self.last_opcode() == Some(Opcode::Breakc))
                    || self.code.len() - b.pos < min)
            {
                self.pad();
            }
        }
        let cur = self.code.len();
        match b.kind {
            BlockKind::Proc(name) => {
                self.procs.insert(name, (b.pos, cur - b.pos));
            }
            BlockKind::For => {
                self.patch_dst(b.pos, cur.saturating_sub(1));
                self.last_was_end = true;
            }
            BlockKind::If { else_at } => {
                match else_at {
                    None => self.patch_dst(b.pos, cur),
                    Some(e) => {
                        let num = cur - e;
                        if num > 255 {
                            return fail(
                                span,
                                format!(
                                    "the else branch is {num} instructions long; at most 255 fit"
                                ),
                            );
                        }
                        if let Some(w) = self.code.get_mut(b.pos) {
                            *w = (*w & !0x3FF) | num as u32;
                        }
                    }
                }
                self.last_was_end = true;
            }
            BlockKind::Array => self.end_array(span)?,
        }
        Ok(())
    }

    fn end_array(&mut self, span: Span) -> R<()> {
        let Some((name, size)) = self.array_name.take() else {
            return fail(span, ".end of an array that was never opened");
        };
        self.check_unused(&name)?;
        if let Some(s) = size {
            while (self.array.len() as i64) < s {
                self.array.push([F24::from_bits(0); 4]);
            }
        }
        let n = self.array.len();
        if n == 0 {
            return fail(name.span, format!("no elements in array '{}'", name.name));
        }
        let at = self.fpool.local(n as i64).ok_or_else(|| E {
            span: name.span,
            msg: format!("not enough space for local constant array '{}'", name.name),
        })?;
        self.check_const_room(span, n)?;
        for (k, v) in self.array.drain(..).enumerate() {
            self.dvle.constants.push(Constant {
                reg: (at + k as i64) as u16,
                value: ConstValue::Float(v),
            });
        }
        self.alias(
            &name,
            Reg {
                bank: Bank::C,
                n: at,
            },
        );
        Ok(())
    }

    fn finish(mut self) -> R<Shbin> {
        if let Some(b) = self.stack.last() {
            return fail(b.span, "block not closed (missing .end)");
        }
        for r in std::mem::take(&mut self.relocs) {
            let (dst, num) = if r.proc {
                let Some(&(start, size)) = self.procs.get(&r.name.name) else {
                    return fail(
                        r.name.span,
                        format!("procedure '{}' is undefined", r.name.name),
                    );
                };
                if size > 255 {
                    return fail(
                        r.name.span,
                        format!(
                            "procedure '{}' is {size} instructions long; a call reaches at most 255",
                            r.name.name
                        ),
                    );
                }
                (start, Some(size))
            } else {
                let Some(&at) = self.labels.get(&r.name.name) else {
                    return fail(r.name.span, format!("label '{}' is undefined", r.name.name));
                };
                (at, None)
            };
            if dst >= 4096 {
                return fail(r.name.span, "target beyond 4095");
            }
            self.patch_dst(r.at, dst);
            if let (Some(n), Some(w)) = (num, self.code.get_mut(r.at)) {
                *w = (*w & !0xFF) | n as u32;
            }
        }
        if self.nodvle.is_some() {
            // picasso `.nodvle`: the file contributes code to the DVLP but no executable. With
            // one input file that is a SHBIN holding the program and its descriptors only.
            return Ok(Shbin {
                dvlp_version: 0,
                code: self.code,
                opdescs: self.ops,
                dvles: Vec::new(),
            });
        }
        let Some(&(start, size)) = self.procs.get(&self.entry.name) else {
            return fail(
                self.entry.span,
                format!("entry point '{}' is undefined", self.entry.name),
            );
        };
        self.dvle.entry = start as u32;
        self.dvle.entry_end = (start + size) as u32;
        // picasso sorts the uniform table by register.
        self.dvle.uniforms.sort_by_key(|u| u.start);
        let mut procs: Vec<(&String, &(usize, usize))> = self.procs.iter().collect();
        procs.sort_by_key(|(n, (at, _))| (*at, (*n).clone()));
        self.dvle.labels = procs
            .into_iter()
            .enumerate()
            .map(|(i, (name, &(at, size)))| Label {
                id: i as u16,
                unknown: 1,
                offset: at as u32,
                size: Some(size as u32),
                name: name.clone(),
            })
            .collect();
        Ok(Shbin {
            dvlp_version: 0,
            code: self.code,
            opdescs: self.ops,
            dvles: vec![self.dvle],
        })
    }
}

fn check_new_name(name: &Ident) -> R<()> {
    if is_reg_name(&name.name) {
        return fail(name.span, format!("cannot redefine register {}", name.name));
    }
    Ok(())
}

fn narrow(o: &Opnd, n: usize) -> R<()> {
    if o.reg.bank == Bank::C {
        return fail(
            o.span,
            format!(
                "invalid source {n} register {}: only v0-v15 and r0-r15 fit here",
                o.reg
            ),
        );
    }
    Ok(())
}

fn no_index(o: &Opnd, n: usize) -> R<()> {
    if o.idx != RelIndex::None {
        return fail(o.span, format!("index register not allowed in source {n}"));
    }
    Ok(())
}

/// picasso `isBadInputRegCombination`: two different input registers cannot be read by one
/// instruction.
fn bad_inputs(srcs: &[SrcReg], span: Span) -> R<()> {
    for (i, a) in srcs.iter().enumerate() {
        for b in &srcs[i + 1..] {
            if a.raw() < 0x10 && b.raw() < 0x10 && a != b {
                return fail(
                    span,
                    "source operands must not be different input registers (v0-v15)",
                );
            }
        }
    }
    Ok(())
}

/// Float text → f24 the way picasso does: parse (as C `atof`, to double, then to float), then
/// truncate the f32 mantissa by 7 bits and rebias the exponent 127 → 63; too small → signed
/// zero, too large → infinity (picasso `f32tof24`; pica-facts §1 "Uniform upload").
pub fn f24_from_text(text: &str) -> Option<F24> {
    let v: f64 = match text.parse() {
        Ok(v) => v,
        Err(_) => text.strip_suffix(['f', 'F'])?.parse().ok()?,
    };
    Some(f24_from_f32_picasso(v as f32))
}

/// picasso's `f32tof24`: truncate, rebias, flush underflow to a signed zero, overflow to ±inf.
pub fn f24_from_f32_picasso(f: f32) -> F24 {
    let i = f.to_bits();
    let sign = i >> 31;
    let mantissa = (i & 0x7F_FFFF) >> 7;
    let exponent = ((i >> 23) & 0xFF) as i32 - 127 + 63;
    let bits = if exponent < 0 {
        sign << 23
    } else if exponent > 0x7F {
        sign << 23 | 0x7F << 16
    } else {
        sign << 23 | (exponent as u32) << 16 | mantissa
    };
    F24::from_bits(bits)
}

fn floats(values: &[Num]) -> R<[F24; 4]> {
    let mut out = [F24::from_bits(0); 4];
    for (o, n) in out.iter_mut().zip(values) {
        *o = f24_from_text(&n.text).ok_or_else(|| E {
            span: n.span,
            msg: format!("not a number: {}", n.text),
        })?;
    }
    Ok(out)
}

fn ints(values: &[Num]) -> R<[u8; 4]> {
    let mut out = [0u8; 4];
    for (o, n) in out.iter_mut().zip(values) {
        let (neg, t) = match n.text.strip_prefix('-') {
            Some(t) => (true, t),
            None => (false, n.text.as_str()),
        };
        let v = parser::parse_int(t).ok_or_else(|| E {
            span: n.span,
            msg: format!("not an integer: {}", n.text),
        })?;
        let v = if neg { v.wrapping_neg() } else { v };
        // picasso: atoi(...) & 0xFF.
        *o = (v & 0xFF) as u8;
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
