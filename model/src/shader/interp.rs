//! The shader interpreter: one unit's registers, flow-control stacks and one-instruction step.
//!
//! Semantics follow pica-facts §1–2 (3dbrew GPU/Shader_Instruction_Set, "Control Flow",
//! "Floating-Point Behavior"); float arithmetic is in [`super::alu`]. Every guess is a field of
//! [`Knobs`] or a constant marked `UNVERIFIED(hw)`.

use super::alu::{self, MaxNegInf};
use super::isa::{
    decode, CmpOp, Condition, DstReg, Instruction, OpDesc, Opcode, RegRef, RelIndex, SrcReg,
};
use crate::num::F24;
use crate::regfile::unit::UnitConfig;
use serde::Serialize;
use std::fmt;

mod fast;
mod jit;

pub use jit::{JitCache, JIT_ENV, JIT_THRESHOLD, MAX_BLOCK as JIT_MAX_BLOCK};

/// Depth of the CALL stack (3dbrew "Control Flow", hardware-measured).
pub const CALL_STACK_DEPTH: usize = 4;
/// Depth of the IF stack (3dbrew "Control Flow").
pub const IF_STACK_DEPTH: usize = 8;
/// Depth of the LOOP stack (3dbrew "Control Flow").
pub const LOOP_STACK_DEPTH: usize = 4;
/// Words of code a unit can address (12-bit PC; pica-facts §1).
pub const PC_LIMIT: u32 = 4096;

/// A vec4 of f24.
pub type Vec4 = [F24; 4];

/// The four ones an out-of-range relative uniform read returns (pica-facts §1).
const ONES: Vec4 = [F24::ONE; 4];

/// What CMP conditions 6 and 7 evaluate to.
///
/// UNVERIFIED(hw) [fact: shader-cmp67]: 3dbrew: "6 and 7 seem to always return true" (with a question mark).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Cmp67 {
    /// Always true (3dbrew; default).
    #[default]
    True,
    /// Always false.
    False,
}

/// How LOOP reads the step i.z.
///
/// UNVERIFIED(hw) [fact: shader-int-z]: pica-facts §1 "Unknown: whether INT.z is signed". Default unsigned, as
/// Azahar adds the u8 step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum IntZ {
    /// 0..=255 (default).
    #[default]
    Unsigned,
    /// -128..=127.
    Signed,
}

/// What happens when the incremented PC reaches the end of code memory (4096).
///
/// UNVERIFIED(hw) [fact: shader-pc-overflow]: not known (pica-facts §1). Default: the model reports a hang, so a program
/// that relies on it is noticed; `Wrap` continues at word 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum PcOverflow {
    /// Stop with [`HangKind::PcPastEnd`] (default).
    #[default]
    Hang,
    /// Continue at 0.
    Wrap,
}

/// What an unknown opcode (0x10, 0x11, 0x14-0x17, 0x1C-0x1F) does.
///
/// UNVERIFIED(hw) [fact: shader-unknown-op]: not known. Default: the model reports a hang naming the word; `Nop`
/// skips it, as Azahar does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum UnknownOp {
    /// Stop with [`HangKind::UnknownOpcode`] (default).
    #[default]
    Hang,
    /// Treat as NOP.
    Nop,
}

/// What `aL` holds when an inner LOOP ends (its last iteration, or a BREAK/BREAKC out of it)
/// while an outer LOOP is still on the LOOP stack.
///
/// UNVERIFIED(hw) [fact: shader-loop-al]: 3dbrew ("Relative addressing") only says aL "is still accessible and valid
/// after exiting a LOOP block"; no public hardware test nests loops. Default [`LoopAl::Keep`]:
/// aL is one register that LOOP sets to i.y and every iteration end adds i.z to, so the
/// outer loop continues from the inner loop's last value (plus the outer step at the outer
/// body's end). [`LoopAl::Restore`] is what Azahar's JIT does (`shader_jit_x64_compiler.cpp` and
/// `shader_jit_a64_compiler.cpp` `Compile_LOOP` push the outer loop's aL, step and count before
/// a nested LOOP and pop them after it; its "Nested Loop" unit test expects the outer aL, and
/// PabloMK7/citra issue #86 reports the interpreter failing it). Azahar's interpreter
/// (`shader_interpreter.cpp`) means to do the same (`previous_aL`, "only restore previous
/// value if there is a surrounding LOOP scope") but saves aL after LOOP has already set it to
/// i.y, so it restores the inner loop's start; it also adds i.z on BREAK, which neither the
/// model nor the JIT does. The RTL shader unit implements both values (parameter
/// `LoopAlRestore`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum LoopAl {
    /// The inner loop's value stays (default).
    #[default]
    Keep,
    /// aL goes back to what it was when the inner LOOP instruction executed (the outer loop's
    /// value), if an outer loop remains on the stack.
    Restore,
}

/// How many LOOP stack entries the stack check after an instruction can close when several
/// LOOP bodies end on that instruction (nested LOOPs with the same DST).
///
/// UNVERIFIED(hw) [fact: shader-loop-shared-end]: 3dbrew ("Control Flow", measured on
/// hardware) says "the IF/LOOP stacks can each only pop one entry per instruction". Default
/// [`LoopSharedEnd::One`]: the inner loop's entry steps aL by its i.z and either goes back to
/// its body's start or, after its last iteration, is popped; execution then continues after
/// the shared end and the outer entry stays on the stack untouched (no aL step, its remaining
/// count unchanged): it acts again only if that instruction runs again while it is the top
/// entry (a jump back into the body); otherwise it stays until a BREAK pops it, a push onto the
/// full stack drops it as the oldest, or the invocation ends. picasso agrees in practice: its `.end` inserts a padding NOP after a nested `.end`
/// (`picasso_assembler.cpp` `dir_end`, `lastWasEnd`), so the programs it assembles never end
/// two blocks on one instruction (the model's assembler does the same unless `.noautonop`).
/// [`LoopSharedEnd::All`] is what Azahar's "Nested Loop" test expects
/// (`src/tests/video_core/shader.cpp`: nihstro's inline assembler gives both LOOPs the DST of
/// the ADD before the first `EndLoop`; it expects r0 = v0 + (i0.x + 1)(i1.x + 1) v0 and
/// aL = i0.y + (i0.x + 1) i0.z). The test runs on their JIT only, which compiles LOOP into a
/// structured host loop (`shader_jit_x64_compiler.cpp` `Compile_LOOP`); their interpreter pops
/// one entry per instruction like the model, and the test is disabled there ("Nested Loops are
/// bugged on the Shader-Interpreter"). With `All`, after a pop the LOOP stack is checked again
/// against the same incremented PC (a finished loop leaves its copy of the PC unchanged), as
/// the CALL stack keeps checking: the next entry ending there also steps aL (after
/// [`LoopAl`]'s restore of the popped one) and iterates or pops in turn. The test's aL needs
/// [`LoopAl::Restore`] as well (the JIT saves aL around a nested loop). Not changed by the
/// knob: BREAK/BREAKC pop one entry and jump past its end without a stack check there (the JIT
/// would also step an outer loop ending at the same place), and the IF stack pops one entry.
/// The RTL shader unit implements both values (parameter `LoopEndAll`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum LoopSharedEnd {
    /// The innermost loop only (3dbrew; default).
    #[default]
    One,
    /// Every loop ending on the instruction, innermost first, until one iterates.
    All,
}

/// Whether MOV flushes a subnormal or -0 input to +0.
///
/// UNVERIFIED(hw) [fact: shader-mov-subnormal]: 3dbrew ("Floating-Point Behavior") measured `mul(s, 2) = 0` ("input
/// subnormals are flushed in arithmetic instructions"), `max(s, 0) = s` ("max does not flush
/// input or output subnormals") and `cmp(s, 0) = false` ("cmp does not flush input
/// subnormals"), but not MOV; pica-facts §2 summarises this as "subnormal inputs flush"; the
/// aroulin/3ds-gpu-tests have no MOV case. Default [`MovSubnormal::Pass`]: MOV copies bits,
/// like the other operations that select a value without computing (MAX, MIN); that keeps a
/// subnormal (0x000001) and -0 (0x800000, or `-` applied to +0) as they are.
/// [`MovSubnormal::Flush`] makes MOV flush exponent-0 inputs like ADD does. Which operations
/// flush is listed in [`Knobs`]. The RTL shader unit implements both values (parameter
/// `MovFlush`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum MovSubnormal {
    /// Bits pass through (default).
    #[default]
    Pass,
    /// Subnormals and -0 become +0.
    Flush,
}

/// Whether MIN flushes subnormal and -0 inputs to +0.
///
/// UNVERIFIED(hw) [fact: shader-min-no-flush]: 3dbrew ("Floating-Point Behavior") measured that
/// MAX does not flush (`max(s, 0) = s`) but has no MIN case. Default [`MinSubnormal::Pass`]:
/// MIN compares and selects raw values like MAX. [`MinSubnormal::Flush`] makes MIN flush
/// exponent-0 inputs like ADD does (then selects among the flushed values). LITP's MIN lane is
/// not affected. The RTL shader unit implements the default only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum MinSubnormal {
    /// Inputs are compared and selected as they are (default).
    #[default]
    Pass,
    /// Subnormal and -0 inputs become +0 first.
    Flush,
}

/// The interpreter's configuration knobs: one per disputed or unmeasured behaviour.
///
/// Subnormal and -0 inputs (exponent 0) — which operations flush them to +0 and which pass
/// bits through (3dbrew "Floating-Point Behavior" measured MUL, MAX and CMP; the rest follow
/// the model's rule in [`super::alu`]):
///
/// | flush inputs (then +0 for results below 2^-62) | pass bits through |
/// |---|---|
/// | ADD, MUL, MAD/MADI, DP3, DP4, DPH/DPHI, RCP, RSQ, EX2, LG2, FLR, SGE/SGEI, SLT/SLTI (compare the flushed values), DST's y lane (a MUL) | MOV ([`MovSubnormal::Pass`], the default), MAX, MIN ([`MinSubnormal::Pass`], the default), LITP's x/y/w lanes (MAX/MIN), DST's z and w lanes (copies), CMP (compares the raw values; 3dbrew `cmp(s, 0)` = false) |
///
/// MOVA converts to an integer (a subnormal gives 0 either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Knobs {
    /// `max(0, -inf)` ([`MaxNegInf`]).
    pub max_neg_inf: MaxNegInf,
    /// CMP conditions 6/7 ([`Cmp67`]).
    pub cmp67: Cmp67,
    /// Whether CMP sets cmp.x/cmp.y only where the descriptor's mask enables x/y.
    ///
    /// UNVERIFIED(hw) [fact: shader-cmp-uses-mask]: unknown (3dbrew); default false (both flags always set, as Azahar).
    pub cmp_uses_mask: bool,
    /// Sign of LOOP's i.z ([`IntZ`]).
    pub int_z: IntZ,
    /// PC past the end of code ([`PcOverflow`]).
    pub pc_overflow: PcOverflow,
    /// Unknown opcodes ([`UnknownOp`]).
    pub unknown_op: UnknownOp,
    /// aL after a nested loop ([`LoopAl`]).
    pub loop_al: LoopAl,
    /// MOV of a subnormal or -0 ([`MovSubnormal`]).
    pub mov_subnormal: MovSubnormal,
    /// MIN of a subnormal or -0 ([`MinSubnormal`]).
    pub min_subnormal: MinSubnormal,
    /// Nested LOOPs ending on the same instruction ([`LoopSharedEnd`]).
    pub loop_shared_end: LoopSharedEnd,
}

impl Knobs {
    /// Knob names and values `--knob NAME=VALUE` accepts (the first value is the default).
    pub const NAMES: [(&'static str, &'static str); 10] = [
        ("max-neg-inf", "zero|neg-inf"),
        ("cmp67", "true|false"),
        ("cmp-uses-mask", "false|true"),
        ("int-z", "unsigned|signed"),
        ("pc-overflow", "hang|wrap"),
        ("unknown-op", "hang|nop"),
        ("loop-al", "keep|restore"),
        ("mov-subnormal", "pass|flush"),
        ("min-subnormal", "pass|flush"),
        ("loop-shared-end", "one|all"),
    ];

    /// Every knob's current value, by name, in [`Knobs::NAMES`] order (the `--knob`
    /// spelling: `("max-neg-inf", "neg-inf")`).
    pub fn values(&self) -> [(&'static str, &'static str); 10] {
        let b = |on: bool, yes: &'static str, no: &'static str| if on { yes } else { no };
        [
            (
                "max-neg-inf",
                b(self.max_neg_inf == MaxNegInf::Zero, "zero", "neg-inf"),
            ),
            ("cmp67", b(self.cmp67 == Cmp67::True, "true", "false")),
            ("cmp-uses-mask", b(self.cmp_uses_mask, "true", "false")),
            (
                "int-z",
                b(self.int_z == IntZ::Unsigned, "unsigned", "signed"),
            ),
            (
                "pc-overflow",
                b(self.pc_overflow == PcOverflow::Hang, "hang", "wrap"),
            ),
            (
                "unknown-op",
                b(self.unknown_op == UnknownOp::Hang, "hang", "nop"),
            ),
            (
                "loop-al",
                b(self.loop_al == LoopAl::Keep, "keep", "restore"),
            ),
            (
                "mov-subnormal",
                b(self.mov_subnormal == MovSubnormal::Pass, "pass", "flush"),
            ),
            (
                "min-subnormal",
                b(self.min_subnormal == MinSubnormal::Pass, "pass", "flush"),
            ),
            (
                "loop-shared-end",
                b(self.loop_shared_end == LoopSharedEnd::One, "one", "all"),
            ),
        ]
    }

    /// The knobs whose value is not the default, as `(name, value)` in [`Knobs::NAMES`]
    /// order (empty for [`Knobs::default`]).
    pub fn non_default(&self) -> Vec<(&'static str, &'static str)> {
        differing(self.values(), Knobs::default().values())
    }

    /// Sets one knob from `NAME=VALUE` (names and values in [`Knobs::NAMES`]).
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("knob '{assignment}': expected NAME=VALUE"))?;
        let bad = || {
            let choices = Self::NAMES
                .iter()
                .find(|(n, _)| *n == name)
                .map_or("", |(_, v)| *v);
            format!("knob {name}: '{value}' is not one of {choices}")
        };
        match (name, value) {
            ("max-neg-inf", "zero") => self.max_neg_inf = MaxNegInf::Zero,
            ("max-neg-inf", "neg-inf") => self.max_neg_inf = MaxNegInf::NegInf,
            ("cmp67", "true") => self.cmp67 = Cmp67::True,
            ("cmp67", "false") => self.cmp67 = Cmp67::False,
            ("cmp-uses-mask", "true") => self.cmp_uses_mask = true,
            ("cmp-uses-mask", "false") => self.cmp_uses_mask = false,
            ("int-z", "unsigned") => self.int_z = IntZ::Unsigned,
            ("int-z", "signed") => self.int_z = IntZ::Signed,
            ("pc-overflow", "hang") => self.pc_overflow = PcOverflow::Hang,
            ("pc-overflow", "wrap") => self.pc_overflow = PcOverflow::Wrap,
            ("unknown-op", "hang") => self.unknown_op = UnknownOp::Hang,
            ("unknown-op", "nop") => self.unknown_op = UnknownOp::Nop,
            ("loop-al", "keep") => self.loop_al = LoopAl::Keep,
            ("loop-al", "restore") => self.loop_al = LoopAl::Restore,
            ("mov-subnormal", "pass") => self.mov_subnormal = MovSubnormal::Pass,
            ("mov-subnormal", "flush") => self.mov_subnormal = MovSubnormal::Flush,
            ("min-subnormal", "pass") => self.min_subnormal = MinSubnormal::Pass,
            ("min-subnormal", "flush") => self.min_subnormal = MinSubnormal::Flush,
            ("loop-shared-end", "one") => self.loop_shared_end = LoopSharedEnd::One,
            ("loop-shared-end", "all") => self.loop_shared_end = LoopSharedEnd::All,
            _ if Self::NAMES.iter().any(|(n, _)| *n == name) => return Err(bad()),
            _ => {
                let names: Vec<&str> = Self::NAMES.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown knob '{name}' (one of: {})",
                    names.join(", ")
                ));
            }
        }
        Ok(())
    }
}

/// Why a shader unit hangs the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HangKind {
    /// BREAK/BREAKC with an empty LOOP stack (3dbrew "Control Flow": hangs the GPU).
    BreakEmptyLoopStack,
    /// Two MOVA instructions back to back (3dbrew Pitfalls: hangs the GPU).
    DoubleMova,
    /// The incremented PC reached 4096 with [`PcOverflow::Hang`].
    PcPastEnd,
    /// An unknown opcode with [`UnknownOp::Hang`].
    UnknownOpcode,
}

impl fmt::Display for HangKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::BreakEmptyLoopStack => "BREAK with an empty LOOP stack",
            Self::DoubleMova => "two MOVA instructions back to back",
            Self::PcPastEnd => "PC ran past the end of code memory",
            Self::UnknownOpcode => "unknown opcode",
        })
    }
}

/// A hang with the instruction that caused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Hang {
    /// Word address of the instruction.
    pub pc: u16,
    /// The instruction word.
    pub word: u32,
    /// What went wrong.
    pub kind: HangKind,
}

impl fmt::Display for Hang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at pc 0x{:03x} (word 0x{:08x}: {})",
            self.kind,
            self.pc,
            self.word,
            mnemonic_of(self.word)
        )
    }
}

fn mnemonic_of(word: u32) -> String {
    match decode(word).opcode() {
        Some(op) => op.mnemonic().to_string(),
        None => format!("unknown 0x{:02x}", word >> 26),
    }
}

/// A bounded stack that drops its oldest entry when pushed full (3dbrew: "a stack overflow
/// discards the oldest element").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RingStack<T, const N: usize> {
    items: Vec<T>,
}

impl<T: Copy, const N: usize> Default for RingStack<T, N> {
    fn default() -> Self {
        Self {
            items: Vec::with_capacity(N),
        }
    }
}

impl<T: Copy, const N: usize> RingStack<T, N> {
    /// Pushes, dropping the oldest entry when full.
    pub fn push(&mut self, item: T) {
        if self.items.len() == N {
            self.items.remove(0);
        }
        self.items.push(item);
    }
    /// The newest entry.
    pub fn top(&self) -> Option<T> {
        self.items.last().copied()
    }
    /// Removes the newest entry.
    pub fn pop(&mut self) -> Option<T> {
        self.items.pop()
    }
    /// Entries, oldest first.
    pub fn entries(&self) -> &[T] {
        &self.items
    }
    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    fn top_mut(&mut self) -> Option<&mut T> {
        self.items.last_mut()
    }
    fn clear(&mut self) {
        self.items.clear();
    }
}

/// A CALL stack entry: when the incremented PC equals `trigger`, continue at `ret`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CallEntry {
    /// DST + NUM.
    pub trigger: u16,
    /// The word after the CALL.
    pub ret: u16,
}

/// An IF stack entry: when the incremented PC equals `trigger` (DST), continue at `target`
/// (DST + NUM).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct IfEntry {
    /// DST.
    pub trigger: u16,
    /// DST + NUM.
    pub target: u16,
}

/// A LOOP stack entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LoopEntry {
    /// DST + 1: the incremented PC after the body's last instruction.
    pub end: u16,
    /// First body instruction (LOOP's PC + 1).
    pub start: u16,
    /// Iterations still to run after the current one.
    pub remaining: u16,
    /// aL step (i.z, per [`IntZ`]).
    pub step: i32,
    /// aL before the LOOP instruction set it (what [`LoopAl::Restore`] restores).
    pub saved_al: i32,
}

/// The geometry-shader emit state (pica-facts §1 "Geometry shader").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitState {
    /// Slot the next EMIT fills (SETEMIT VTXID).
    pub vtx_id: u8,
    /// SETEMIT winding flag.
    pub winding: bool,
    /// Whether the next EMIT also emits a primitive.
    pub prim_emit: bool,
    /// The vertex slots (VTXID is 2 bits; a primitive uses slots 0-2). Not cleared after a
    /// primitive (3dbrew SETEMIT).
    pub slots: [[Vec4; 16]; 4],
}

impl Default for EmitState {
    fn default() -> Self {
        Self {
            vtx_id: 0,
            winding: false,
            prim_emit: false,
            slots: [[[F24::ZERO; 4]; 16]; 4],
        }
    }
}

/// What one EMIT produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Emitted {
    /// The slot written.
    pub vtx_id: u8,
    /// The output registers copied into the slot (the active bank).
    pub outputs: [Vec4; 16],
    /// With PRIMEMIT: the triangle, slots 0, 1, 2 — with the winding flag, 1, 0, 2
    /// (pica-facts §1: "winding flag swaps the first two vertices").
    pub primitive: Option<[[Vec4; 16]; 3]>,
    /// The winding flag in effect.
    pub winding: bool,
}

/// One register write of a traced instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceWrite {
    /// The register.
    pub reg: TraceReg,
    /// Lanes written (bit 3 = x .. bit 0 = w).
    pub mask: u8,
    /// The register's value after the write.
    pub value: Vec4,
}

/// Registers a trace names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceReg {
    /// o or r.
    Dst(DstReg),
    /// a0 (x, y as integers in `value` lanes 0-1 is not possible; see `addr`).
    A0,
    /// cmp flags.
    Cmp,
}

/// One retired instruction as the `commit` channel records it: what a co-simulated shader
/// unit (the RTL `pica_shader_unit`) must reproduce, instruction by instruction
/// (design.md "Commit traces for programmable stages"). All values are raw bits; the channel
/// owner wraps it with the unit number, vertex sequence and cycle.
///
/// Produced by [`ShaderUnit::step_commit`] / [`ShaderUnit::run_commits`]; [`ShaderUnit::step`]
/// and [`ShaderUnit::run`] do not build it (no cost when off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Commit {
    /// Word address of the instruction.
    pub pc: u16,
    /// The instruction word.
    pub word: u32,
    /// The destination field as encoded (0x00-0x0F o0-o15, 0x10-0x1F r0-r15) of every
    /// instruction with a destination operand (formats 1/1i/1u except MOVA, and 5/5i), even
    /// with an empty mask; [`Commit::NO_DST`] otherwise and when the instruction hangs before
    /// executing (double MOVA, BREAK on an empty loop stack, unknown opcode).
    pub dst: u8,
    /// Lanes written (descriptor mask, bit 3 = x .. bit 0 = w); 0 when `dst` is `NO_DST`.
    pub mask: u8,
    /// The whole destination register after the write (f24 bits, lane 0 = x; outputs from the
    /// bank written); zeros when `dst` is `NO_DST`.
    pub result: [u32; 4],
    /// cmp.x (bit 0) and cmp.y (bit 1) after the instruction.
    pub cmp: u8,
    /// a0.x after the instruction.
    pub a0x: i32,
    /// a0.y after the instruction.
    pub a0y: i32,
    /// aL after the instruction (after a loop step).
    pub al: i32,
    /// The unit's PC after the instruction, after the stack checks; for END and for a hang the
    /// PC does not move, so it equals `pc`.
    pub next_pc: u16,
    /// EMIT executed.
    pub emit: bool,
    /// 0 = retired normally; otherwise 1 + the [`HangKind`] in declaration order
    /// (1 BREAK on an empty loop stack, 2 double MOVA, 3 PC past the end, 4 unknown opcode).
    pub hang: u8,
    /// END executed.
    pub end: bool,
}

impl Commit {
    /// `dst` of an instruction without an o/r destination.
    pub const NO_DST: u8 = 0xFF;
}

impl HangKind {
    /// The [`Commit::hang`] code: 1 + declaration order.
    pub const fn commit_code(self) -> u8 {
        match self {
            Self::BreakEmptyLoopStack => 1,
            Self::DoubleMova => 2,
            Self::PcPastEnd => 3,
            Self::UnknownOpcode => 4,
        }
    }
}

/// How a step ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Continue at the unit's new PC.
    Continue,
    /// END executed.
    End,
    /// The unit hangs.
    Hang(Hang),
}

/// One shader unit's execution state.
#[derive(Clone, Debug)]
pub struct ShaderUnit {
    /// Input registers v0-v15.
    pub inputs: [Vec4; 16],
    /// Temporaries r0-r15.
    pub temps: [Vec4; 16],
    /// Output registers o0-o15, two banks (see [`Self::outputs`]).
    banks: [[Vec4; 16]; 2],
    bank: usize,
    /// Output components written since the last EMIT (bit 4n+3-lane... one nibble per register,
    /// bit 3 = x), for the "every output written once" check.
    written: u64,
    /// a0.x, a0.y.
    pub a0: [i32; 2],
    /// Loop counter aL.
    pub al: i32,
    /// cmp.x, cmp.y.
    pub cmp: [bool; 2],
    /// Program counter (word address).
    pub pc: u16,
    /// CALL stack.
    pub call_stack: RingStack<CallEntry, CALL_STACK_DEPTH>,
    /// IF stack.
    pub if_stack: RingStack<IfEntry, IF_STACK_DEPTH>,
    /// LOOP stack.
    pub loop_stack: RingStack<LoopEntry, LOOP_STACK_DEPTH>,
    prev_mova: bool,
    /// GS emit state.
    pub emit: EmitState,
    /// Instructions executed since [`Self::start`].
    pub executed: u64,
    /// Configuration knobs.
    pub knobs: Knobs,
    /// Pre-decoded instructions of the fast path, each tagged with the code word and operand
    /// descriptor it was decoded from (checked on every step, so any change to the
    /// configuration's code or descriptors is seen).
    cache: fast::DecodeCache,
    /// Compiled blocks of the shader JIT ([`Self::set_jit`]).
    jit: jit::Jit,
}

impl Default for ShaderUnit {
    fn default() -> Self {
        Self::new(Knobs::default())
    }
}

/// Reads from the wide-source slot when relative addressing targets a non-constant register
/// ignore the offset (3dbrew "Relative addressing").
fn rel_uniform(uniforms: &[Vec4], n: u8, offset: i32) -> Vec4 {
    // pica-facts §1: offsets outside [-128, 127] are not applied; index masked by 0x7F; above
    // 95 reads (1, 1, 1, 1).
    let offset = if (-128..=127).contains(&offset) {
        offset
    } else {
        0
    };
    let idx = (i32::from(n) + offset) & 0x7F;
    if idx > 95 {
        ONES
    } else {
        uniforms.get(idx as usize).copied().unwrap_or(ONES)
    }
}

impl ShaderUnit {
    /// A unit in its reset state.
    pub fn new(knobs: Knobs) -> Self {
        Self {
            inputs: [[F24::ZERO; 4]; 16],
            temps: [[F24::ZERO; 4]; 16],
            banks: [[[F24::ZERO; 4]; 16]; 2],
            bank: 0,
            written: 0,
            a0: [0; 2],
            al: 0,
            cmp: [false; 2],
            pc: 0,
            call_stack: RingStack::default(),
            if_stack: RingStack::default(),
            loop_stack: RingStack::default(),
            prev_mova: false,
            emit: EmitState::default(),
            executed: 0,
            knobs,
            cache: fast::DecodeCache::default(),
            jit: jit::Jit::default(),
        }
    }

    /// Prepares an invocation: PC = `entry`, stacks empty, `prev MOVA` cleared, counter zeroed.
    /// Registers (temporaries, outputs, address registers, flags, emit slots) keep their
    /// values, as the hardware does not clear them between vertices.
    ///
    /// UNVERIFIED(hw) [fact: shader-invocation-state]: what survives between invocations is not documented; the model keeps
    /// every register and resets only flow-control state.
    pub fn start(&mut self, entry: u16) {
        self.pc = entry & (PC_LIMIT as u16 - 1);
        self.call_stack.clear();
        self.if_stack.clear();
        self.loop_stack.clear();
        self.prev_mova = false;
        self.executed = 0;
        self.written = 0;
        // Outside the instruction loop: the fast path's MIN entries follow the knob.
        self.sync_decode_knobs();
    }

    /// The active output bank o0-o15.
    pub fn outputs(&self) -> &[Vec4; 16] {
        &self.banks[self.bank]
    }

    /// Output components written in the current bank since [`Self::start`] or the last EMIT:
    /// bit `4n + 3 - lane` for register `on`.
    pub fn written_mask(&self) -> u64 {
        self.written
    }

    fn read(&self, cfg: &UnitConfig, reg: SrcReg, rel: Option<RelIndex>) -> Vec4 {
        match reg.kind() {
            RegRef::Input(n) => self.inputs[usize::from(n & 15)],
            RegRef::Temp(n) => self.temps[usize::from(n & 15)],
            RegRef::Uniform(n) => {
                let offset = match rel.unwrap_or_default() {
                    RelIndex::None => 0,
                    RelIndex::A0X => self.a0[0],
                    RelIndex::A0Y => self.a0[1],
                    RelIndex::AL => self.al,
                };
                rel_uniform(&cfg.float_uniforms, n, offset)
            }
            RegRef::Output(_) => ONES,
        }
    }

    /// Source `n` (1-3) after swizzle and negation.
    fn src(
        &self,
        cfg: &UnitConfig,
        desc: OpDesc,
        n: usize,
        reg: SrcReg,
        rel: Option<RelIndex>,
    ) -> Vec4 {
        let raw = self.read(cfg, reg, rel);
        let swz = desc.swizzle(n);
        let neg = desc.negate(n);
        let mut out = [F24::ZERO; 4];
        for (lane, o) in out.iter_mut().enumerate() {
            let v = raw[swz.select(lane).index()];
            *o = if neg { v.negate() } else { v };
        }
        out
    }

    /// The source operands of the instruction at the PC as it would read them now (after
    /// relative addressing, swizzle and negation): `(name, value)` per source, e.g.
    /// `("src1 c4[a0.x]", [..])`. Empty for instructions without float sources. For divergence
    /// reports: call it before [`ShaderUnit::step`] executes the instruction.
    pub fn operands(&self, cfg: &UnitConfig) -> Vec<(String, Vec4)> {
        let word = cfg.code.get(usize::from(self.pc)).copied().unwrap_or(0);
        let desc_of = |desc: u8| OpDesc(cfg.opdescs.get(usize::from(desc)).copied().unwrap_or(0));
        let rel_name = |r: Option<RelIndex>| match r.unwrap_or_default() {
            RelIndex::None => "",
            RelIndex::A0X => "[a0.x]",
            RelIndex::A0Y => "[a0.y]",
            RelIndex::AL => "[aL]",
        };
        let mut out = Vec::new();
        let mut push = |d: OpDesc, n: usize, reg: SrcReg, rel: Option<RelIndex>| {
            out.push((
                format!("src{n} {reg}{}", rel_name(rel)),
                self.src(cfg, d, n, reg, rel),
            ));
        };
        match decode(word) {
            Instruction::Alu {
                op,
                src1,
                src2,
                idx,
                desc,
                ..
            } => {
                let d = desc_of(desc);
                let wide2 = op.format() == super::isa::Format::F1i;
                let (r1, r2) = if wide2 {
                    (None, Some(idx))
                } else {
                    (Some(idx), None)
                };
                push(d, 1, src1, r1);
                if op.format() != super::isa::Format::F1u {
                    push(d, 2, src2, r2);
                }
            }
            Instruction::Cmp {
                src1,
                src2,
                idx,
                desc,
                ..
            } => {
                let d = desc_of(desc);
                push(d, 1, src1, Some(idx));
                push(d, 2, src2, None);
            }
            Instruction::Mad {
                op,
                src1,
                src2,
                src3,
                idx,
                desc,
                ..
            } => {
                let d = desc_of(desc);
                let (r2, r3) = if op == Opcode::Madi {
                    (None, Some(idx))
                } else {
                    (Some(idx), None)
                };
                push(d, 1, src1, None);
                push(d, 2, src2, r2);
                push(d, 3, src3, r3);
            }
            _ => {}
        }
        out
    }

    fn write(&mut self, dst: DstReg, mask: u8, value: Vec4, trace: Option<&mut Vec<TraceWrite>>) {
        let reg = match dst.kind() {
            RegRef::Output(n) => {
                self.written |= u64::from(mask & 0xF) << (4 * u32::from(n & 15));
                &mut self.banks[self.bank][usize::from(n & 15)]
            }
            _ => &mut self.temps[usize::from(dst.raw() & 15)],
        };
        for (lane, (r, v)) in reg.iter_mut().zip(value).enumerate() {
            if (mask >> (3 - lane)) & 1 != 0 {
                *r = v;
            }
        }
        if let Some(t) = trace {
            t.push(TraceWrite {
                reg: TraceReg::Dst(dst),
                mask,
                value: *reg,
            });
        }
    }

    fn cmp_op(&self, op: CmpOp, a: F24, b: F24) -> bool {
        // CMP does not flush subnormal inputs (3dbrew: cmp(s, 0) = false); IEEE comparisons.
        let (a, b) = (a.to_f64(), b.to_f64());
        match op {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Op6 | CmpOp::Op7 => self.knobs.cmp67 == Cmp67::True,
        }
    }

    /// Executes the instruction at the PC. `trace`, when given, receives the register writes.
    /// `emitted` receives what an EMIT produced.
    ///
    /// Without a trace this takes the fast path (a decode cache checked against the code word
    /// and operand descriptor on every step, and the specialised operations of
    /// [`super::alu_fast`]); with one, [`Self::step_exact`]. Both give the same bits and state.
    pub fn step(
        &mut self,
        cfg: &UnitConfig,
        trace: Option<&mut Vec<TraceWrite>>,
        emitted: &mut Vec<Emitted>,
    ) -> Step {
        match trace {
            None => self.step_fast(cfg, emitted),
            Some(t) => self.step_exact(cfg, Some(t), emitted),
        }
    }

    /// [`Self::step`] by the reference path: decodes the word and executes it with the
    /// [`super::alu`] functions (no decode cache). The fast path is checked against this.
    pub fn step_exact(
        &mut self,
        cfg: &UnitConfig,
        trace: Option<&mut Vec<TraceWrite>>,
        emitted: &mut Vec<Emitted>,
    ) -> Step {
        let word = cfg.code.get(usize::from(self.pc)).copied().unwrap_or(0);
        self.exec(cfg, word, decode(word), trace, emitted)
    }

    /// Executes `inst` (the decoded `word` at the PC) by the reference path.
    fn exec(
        &mut self,
        cfg: &UnitConfig,
        word: u32,
        inst: Instruction,
        trace: Option<&mut Vec<TraceWrite>>,
        emitted: &mut Vec<Emitted>,
    ) -> Step {
        let pc = self.pc;
        let hang = |kind| Step::Hang(Hang { pc, word, kind });
        self.executed += 1;
        let is_mova = inst.opcode() == Some(Opcode::Mova);
        if is_mova && self.prev_mova {
            return hang(HangKind::DoubleMova);
        }
        self.prev_mova = is_mova;
        let next = pc + 1;
        let mut jump: Option<u16> = None;
        let bools = cfg.bool_uniforms;
        let cond_ok = |c: Condition, cmp: [bool; 2]| c.eval(cmp[0], cmp[1]);
        let target = |dst: u16, num: u8| (dst + u16::from(num)) & (PC_LIMIT as u16 - 1);
        match inst {
            Instruction::Alu { .. } | Instruction::Cmp { .. } | Instruction::Mad { .. } => {
                self.exec_data(cfg, inst, trace)
            }
            Instruction::Flow {
                op,
                cond,
                target: dst,
                num,
            } => {
                let ok = cond_ok(cond, self.cmp);
                match op {
                    Opcode::Breakc if ok => match self.break_loop() {
                        Some(t) => jump = Some(t),
                        None => return hang(HangKind::BreakEmptyLoopStack),
                    },
                    Opcode::Call => jump = Some(self.call(dst, num, next)),
                    Opcode::Callc if ok => jump = Some(self.call(dst, num, next)),
                    Opcode::Ifc => jump = self.if_(ok, dst, num),
                    Opcode::Jmpc if ok => jump = Some(dst),
                    _ => {}
                }
            }
            Instruction::FlowUniform {
                op,
                id,
                target: dst,
                num,
            } => {
                let b = (bools >> (id & 15)) & 1 != 0;
                match op {
                    Opcode::Callu if b => jump = Some(self.call(dst, num, next)),
                    Opcode::Ifu => jump = self.if_(b, dst, num),
                    Opcode::Jmpu if b != (num & 1 != 0) => jump = Some(dst),
                    Opcode::Loop => {
                        let i = cfg.int_uniforms[usize::from(id & 3)];
                        let saved_al = self.al;
                        self.al = i32::from(i[1]);
                        let step = match self.knobs.int_z {
                            IntZ::Unsigned => i32::from(i[2]),
                            IntZ::Signed => i32::from(i[2] as i8),
                        };
                        self.loop_stack.push(LoopEntry {
                            end: target(dst, 1),
                            start: next,
                            remaining: u16::from(i[0]),
                            step,
                            saved_al,
                        });
                    }
                    _ => {}
                }
            }
            Instruction::SetEmit {
                vtx_id,
                winding,
                prim_emit,
            } => {
                self.emit.vtx_id = vtx_id & 3;
                self.emit.winding = winding;
                self.emit.prim_emit = prim_emit;
            }
            Instruction::Plain(op) => match op {
                Opcode::End => return Step::End,
                Opcode::Break => match self.break_loop() {
                    Some(t) => jump = Some(t),
                    None => return hang(HangKind::BreakEmptyLoopStack),
                },
                Opcode::Emit => emitted.push(self.do_emit()),
                _ => {}
            },
            Instruction::Unknown(_) => {
                if self.knobs.unknown_op == UnknownOp::Hang {
                    return hang(HangKind::UnknownOpcode);
                }
            }
        }
        match self.next_pc(next, jump) {
            Some(pc) => {
                self.pc = pc;
                Step::Continue
            }
            None => hang(HangKind::PcPastEnd),
        }
    }

    /// The register effect of a data instruction (formats 1, 1i, 1u, 1c, 5, 5i: the ALU
    /// operations, MOVA, CMP, MAD) by the reference path; the PC, the instruction count and
    /// the MOVA flag are the caller's. Other instructions do nothing here.
    fn exec_data(
        &mut self,
        cfg: &UnitConfig,
        inst: Instruction,
        mut trace: Option<&mut Vec<TraceWrite>>,
    ) {
        match inst {
            Instruction::Alu {
                op,
                dst,
                src1,
                src2,
                idx,
                desc,
            } => {
                let d = OpDesc(cfg.opdescs.get(usize::from(desc)).copied().unwrap_or(0));
                let wide2 = op.format() == super::isa::Format::F1i;
                let (r1, r2) = if wide2 {
                    (None, Some(idx))
                } else {
                    (Some(idx), None)
                };
                let a = self.src(cfg, d, 1, src1, r1);
                let mask = d.dest_mask().0;
                if op == Opcode::Mova {
                    // MOVA: truncation toward zero (pica-facts §2: MOVA of 0.9 gives 0),
                    // respecting mask x/y. UNVERIFIED(hw) [fact: shader-mova-range]: values beyond i32 saturate, NaN → 0
                    // (offsets outside [-128, 127] are ignored when read anyway).
                    for (lane, (reg, v)) in self.a0.iter_mut().zip(a).enumerate() {
                        if (mask >> (3 - lane)) & 1 != 0 {
                            *reg = v.to_f64().trunc() as i32;
                        }
                    }
                    if let Some(t) = trace.as_deref_mut() {
                        t.push(TraceWrite {
                            reg: TraceReg::A0,
                            mask: mask & 0xC,
                            value: [
                                F24::from_f64_trunc(f64::from(self.a0[0])),
                                F24::from_f64_trunc(f64::from(self.a0[1])),
                                F24::ZERO,
                                F24::ZERO,
                            ],
                        });
                    }
                } else {
                    let b = self.src(cfg, d, 2, src2, r2);
                    let k = self.knobs;
                    let splat = |x: F24| [x; 4];
                    let lanes = |f: &dyn Fn(F24, F24) -> F24| {
                        [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
                    };
                    let one = |f: fn(F24) -> F24| [f(a[0]), f(a[1]), f(a[2]), f(a[3])];
                    let value = match op {
                        Opcode::Add => lanes(&alu::add),
                        Opcode::Mul => lanes(&alu::mul),
                        Opcode::Dp3 => splat(alu::dot(&a[..3], &b[..3])),
                        Opcode::Dp4 => splat(alu::dot(&a, &b)),
                        Opcode::Dph | Opcode::Dphi => {
                            splat(alu::dot(&[a[0], a[1], a[2], F24::ONE], &b))
                        }
                        Opcode::Dst | Opcode::Dsti => [F24::ONE, alu::mul(a[1], b[1]), a[2], b[3]],
                        Opcode::Ex2 => splat(alu::ex2(a[0])),
                        Opcode::Lg2 => splat(alu::lg2(a[0])),
                        Opcode::Rcp => splat(alu::rcp(a[0])),
                        Opcode::Rsq => splat(alu::rsq(a[0])),
                        Opcode::Litp => {
                            // 3dbrew LITP; cmp flags from the raw x and w.
                            self.cmp = [a[0].to_f64() >= 0.0, a[3].to_f64() >= 0.0];
                            let y = alu::max(
                                alu::min(a[1], alu::LITP_Y_BOUND),
                                alu::LITP_Y_BOUND.negate(),
                                k.max_neg_inf,
                            );
                            [
                                alu::max(a[0], F24::ZERO, k.max_neg_inf),
                                y,
                                F24::ZERO,
                                alu::max(a[3], F24::ZERO, k.max_neg_inf),
                            ]
                        }
                        Opcode::Sge | Opcode::Sgei => lanes(&alu::sge),
                        Opcode::Slt | Opcode::Slti => lanes(&alu::slt),
                        Opcode::Flr => one(alu::flr),
                        Opcode::Max => lanes(&|x, y| alu::max(x, y, k.max_neg_inf)),
                        Opcode::Min => match k.min_subnormal {
                            MinSubnormal::Pass => lanes(&alu::min),
                            MinSubnormal::Flush => {
                                lanes(&|x, y| alu::min(alu::flush(x), alu::flush(y)))
                            }
                        },
                        // MOV: bits through, or flushed ([`MovSubnormal`]).
                        _ => match k.mov_subnormal {
                            MovSubnormal::Pass => a,
                            MovSubnormal::Flush => one(alu::flush),
                        },
                    };
                    self.write(dst, mask, value, trace.as_deref_mut());
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
                let d = OpDesc(cfg.opdescs.get(usize::from(desc)).copied().unwrap_or(0));
                let a = self.src(cfg, d, 1, src1, Some(idx));
                let b = self.src(cfg, d, 2, src2, None);
                let mask = if self.knobs.cmp_uses_mask {
                    d.dest_mask().0
                } else {
                    0xF
                };
                if mask & 8 != 0 {
                    self.cmp[0] = self.cmp_op(cmp_x, a[0], b[0]);
                }
                if mask & 4 != 0 {
                    self.cmp[1] = self.cmp_op(cmp_y, a[1], b[1]);
                }
                if let Some(t) = trace.as_deref_mut() {
                    t.push(TraceWrite {
                        reg: TraceReg::Cmp,
                        mask: mask & 0xC,
                        value: [
                            alu::bool_f24(self.cmp[0]),
                            alu::bool_f24(self.cmp[1]),
                            F24::ZERO,
                            F24::ZERO,
                        ],
                    });
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
                let d = OpDesc(cfg.opdescs.get(usize::from(desc)).copied().unwrap_or(0));
                let (r2, r3) = if op == Opcode::Madi {
                    (None, Some(idx))
                } else {
                    (Some(idx), None)
                };
                let a = self.src(cfg, d, 1, src1, None);
                let b = self.src(cfg, d, 2, src2, r2);
                let c = self.src(cfg, d, 3, src3, r3);
                let value = [0, 1, 2, 3].map(|i| alu::mad(a[i], b[i], c[i]));
                self.write(dst, d.dest_mask().0, value, trace);
            }
            _ => {}
        }
    }

    fn call(&mut self, dst: u16, num: u8, next: u16) -> u16 {
        self.call_stack.push(CallEntry {
            trigger: (dst + u16::from(num)) & (PC_LIMIT as u16 - 1),
            ret: next,
        });
        dst
    }

    /// IFU/IFC: on true run to DST then skip to DST+NUM; on false jump to DST.
    fn if_(&mut self, taken: bool, dst: u16, num: u8) -> Option<u16> {
        if taken {
            self.if_stack.push(IfEntry {
                trigger: dst,
                target: (dst + u16::from(num)) & (PC_LIMIT as u16 - 1),
            });
            None
        } else {
            Some(dst)
        }
    }

    /// BREAK: pops the innermost loop and jumps past its body; `None` if there is no loop.
    fn break_loop(&mut self) -> Option<u16> {
        let l = self.loop_stack.pop()?;
        self.loop_exit_al(&l);
        Some(l.end)
    }

    /// aL when loop `l` has just been popped ([`LoopAl`]).
    fn loop_exit_al(&mut self, l: &LoopEntry) {
        if self.knobs.loop_al == LoopAl::Restore && !self.loop_stack.is_empty() {
            self.al = l.saved_al;
        }
    }

    fn do_emit(&mut self) -> Emitted {
        let outputs = self.banks[self.bank];
        let slot = usize::from(self.emit.vtx_id & 3);
        self.emit.slots[slot] = outputs;
        let primitive = self.emit.prim_emit.then(|| {
            let s = &self.emit.slots;
            if self.emit.winding {
                [s[1], s[0], s[2]]
            } else {
                [s[0], s[1], s[2]]
            }
        });
        // Double-banked outputs (pica-facts §1, Azahar shader_unit.h): writes after an EMIT go
        // to the other bank, so an output not rewritten carries the value from two emits back.
        self.bank ^= 1;
        self.written = 0;
        Emitted {
            vtx_id: self.emit.vtx_id,
            outputs,
            primitive,
            winding: self.emit.winding,
        }
    }

    /// The stack checks after an instruction (3dbrew "Control Flow"): each stack gets a copy
    /// of the incremented PC; LOOP and IF pop at most one entry, CALL keeps popping while
    /// entries match, and its fourth pop in a row does not update its copy (hardware bug).
    /// Priority LOOP > IF > CALL > JMP > incremented PC; a jump only counts if no stack popped.
    ///
    /// UNVERIFIED(hw) [fact: shader-loop-no-pop-priority]: a LOOP entry that matches and continues (no pop) counts as an update
    /// that wins over IF/CALL, like a pop does; all matching stacks update, the losers' new
    /// copies are discarded.
    ///
    /// UNVERIFIED(hw) [fact: shader-loop-shared-end]: with [`LoopSharedEnd::All`] the LOOP
    /// stack, like the CALL stack, is checked again after a pop (its copy of the PC is still
    /// `next`), so every loop ending here steps until one iterates — Azahar's JIT and its
    /// "Nested Loop" test; the default pops one entry — 3dbrew "Control Flow".
    fn next_pc(&mut self, next: u16, jump: Option<u16>) -> Option<u16> {
        let mut loop_pc = None;
        // At most one pass per entry: every pass but the last pops one.
        while let Some(top) = self.loop_stack.top_mut() {
            if top.end != next {
                break;
            }
            self.al = self.al.wrapping_add(top.step);
            if top.remaining > 0 {
                top.remaining -= 1;
                loop_pc = Some(top.start);
                break;
            }
            if let Some(l) = self.loop_stack.pop() {
                self.loop_exit_al(&l);
            }
            loop_pc = Some(next);
            if self.knobs.loop_shared_end == LoopSharedEnd::One {
                break;
            }
        }
        let mut if_pc = None;
        if let Some(top) = self.if_stack.top() {
            if top.trigger == next {
                self.if_stack.pop();
                if_pc = Some(top.target);
            }
        }
        let mut call_pc = None;
        let mut copy = next;
        let mut pops = 0;
        while let Some(top) = self.call_stack.top() {
            if top.trigger != copy {
                break;
            }
            self.call_stack.pop();
            pops += 1;
            if pops != 4 {
                copy = top.ret;
            }
            call_pc = Some(copy);
        }
        let pc = loop_pc.or(if_pc).or(call_pc).or(jump).unwrap_or(next);
        if u32::from(pc) >= PC_LIMIT {
            match self.knobs.pc_overflow {
                PcOverflow::Hang => None,
                PcOverflow::Wrap => Some(0),
            }
        } else {
            Some(pc)
        }
    }

    /// [`Self::step`] that also fills `commit` with the instruction's [`Commit`] record
    /// (register traces are not collected).
    pub fn step_commit(
        &mut self,
        cfg: &UnitConfig,
        emitted: &mut Vec<Emitted>,
        commit: &mut Commit,
    ) -> Step {
        let pc = self.pc;
        let word = cfg.code.get(usize::from(pc)).copied().unwrap_or(0);
        let step = self.step(cfg, None, emitted);
        let hang = match &step {
            Step::Hang(h) => h.kind.commit_code(),
            _ => 0,
        };
        // Which register the instruction wrote: the decoded destination, unless the step
        // stopped before executing it (every hang except PC past the end).
        let executed = hang == 0 || hang == HangKind::PcPastEnd.commit_code();
        let written = match decode(word) {
            Instruction::Alu { op, dst, desc, .. } if op != Opcode::Mova => Some((dst, desc)),
            Instruction::Mad { dst, desc, .. } => Some((dst, desc)),
            _ => None,
        };
        let (dst, mask, result) = match written {
            Some((dst, desc)) if executed => {
                let mask = (cfg.opdescs.get(usize::from(desc)).copied().unwrap_or(0) & 0xF) as u8;
                let reg = match dst.kind() {
                    RegRef::Output(n) => self.banks[self.bank][usize::from(n & 15)],
                    _ => self.temps[usize::from(dst.raw() & 15)],
                };
                (dst.raw(), mask, reg.map(F24::bits))
            }
            _ => (Commit::NO_DST, 0, [0; 4]),
        };
        *commit = Commit {
            pc,
            word,
            dst,
            mask,
            result,
            cmp: u8::from(self.cmp[0]) | u8::from(self.cmp[1]) << 1,
            a0x: self.a0[0],
            a0y: self.a0[1],
            al: self.al,
            next_pc: self.pc,
            emit: executed && decode(word) == Instruction::Plain(Opcode::Emit),
            hang,
            end: step == Step::End,
        };
        step
    }

    /// [`Self::run`] that appends one [`Commit`] per executed instruction to `commits`
    /// (including the instruction that ends or hangs).
    pub fn run_commits(
        &mut self,
        cfg: &UnitConfig,
        entry: u16,
        max_instructions: u64,
        emitted: &mut Vec<Emitted>,
        commits: &mut Vec<Commit>,
    ) -> RunEnd {
        self.start(entry);
        loop {
            if self.executed >= max_instructions {
                return RunEnd::Limit;
            }
            let mut c = Commit::default();
            let step = self.step_commit(cfg, emitted, &mut c);
            commits.push(c);
            match step {
                Step::Continue => {}
                Step::End => return RunEnd::End,
                Step::Hang(h) => return RunEnd::Hang(h),
            }
        }
    }

    /// Runs from `entry` until END, a hang, or `max_instructions` executed.
    pub fn run(
        &mut self,
        cfg: &UnitConfig,
        entry: u16,
        max_instructions: u64,
        emitted: &mut Vec<Emitted>,
    ) -> RunEnd {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            #[allow(unsafe_code)]
            return unsafe { self.run_avx2(cfg, entry, max_instructions, emitted) };
        }
        self.run_body(cfg, entry, max_instructions, emitted)
    }

    /// [`Self::run`] compiled for AVX2: the same code (integer and IEEE operations whose
    /// results do not depend on the instruction set; Rust never contracts `a * b + c` into a
    /// fused multiply-add), with the four-lane `f64` paths of [`super::alu_fast`] in 256-bit
    /// registers. About 12 % fewer instructions per vertex on the benchmark shader.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)] // A `target_feature` function is unsafe to call (Rust 1.85).
    unsafe fn run_avx2(
        &mut self,
        cfg: &UnitConfig,
        entry: u16,
        max_instructions: u64,
        emitted: &mut Vec<Emitted>,
    ) -> RunEnd {
        self.run_body(cfg, entry, max_instructions, emitted)
    }

    #[inline(always)]
    fn run_body(
        &mut self,
        cfg: &UnitConfig,
        entry: u16,
        max_instructions: u64,
        emitted: &mut Vec<Emitted>,
    ) -> RunEnd {
        self.start(entry);
        loop {
            if self.executed >= max_instructions {
                return RunEnd::Limit;
            }
            match self.jit_run(cfg, max_instructions - self.executed) {
                jit::Ran::Some(_) => continue,
                jit::Ran::End(_) => return RunEnd::End,
                jit::Ran::Bail(_) if self.executed >= max_instructions => return RunEnd::Limit,
                jit::Ran::Bail(_) | jit::Ran::No => {}
            }
            let mut out = Step::Continue;
            if !self.step_fast_inline(cfg, emitted, &mut out) {
                match out {
                    Step::Continue => {}
                    Step::End => return RunEnd::End,
                    Step::Hang(h) => return RunEnd::Hang(h),
                }
            }
        }
    }

    /// Up to `max_steps` steps of [`Self::step`] (no trace) from the current state, through
    /// the shader JIT where it has a block ([`Self::set_jit`]): stops after the step that
    /// ends (END) or hangs. Returns the steps taken and the last step's result
    /// ([`Step::Continue`] when every step continued). What EMIT produced is appended to
    /// `emitted`. [`Self::run`] is this from [`Self::start`] until the end.
    pub fn run_steps(
        &mut self,
        cfg: &UnitConfig,
        max_steps: u64,
        emitted: &mut Vec<Emitted>,
    ) -> (u64, Step) {
        let mut k = 0;
        while k < max_steps {
            match self.jit_run(cfg, max_steps - k) {
                jit::Ran::Some(n) => {
                    k += u64::from(n);
                    continue;
                }
                jit::Ran::End(n) => return (k + u64::from(n), Step::End),
                jit::Ran::Bail(n) => {
                    k += u64::from(n);
                    if k >= max_steps {
                        break;
                    }
                }
                jit::Ran::No => {}
            }
            let s = self.step(cfg, None, emitted);
            k += 1;
            if s != Step::Continue {
                return (k, s);
            }
        }
        (k, Step::Continue)
    }

    /// Up to `pcs.len()` steps of [`Self::step`] (no trace) from the current state, as the SH
    /// stage's run-ahead needs them: stops after the step that ends (END) or hangs, records
    /// the PC after each step in `pcs`, and drops what the steps EMIT (a vertex shader's EMIT
    /// leaves nothing). Returns the steps taken (the last one included) and the last step's
    /// result ([`Step::Continue`] when every step continued).
    pub(crate) fn run_stretch(
        &mut self,
        cfg: &UnitConfig,
        pcs: &mut [u16],
        emitted: &mut Vec<Emitted>,
    ) -> (usize, Step) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            #[allow(unsafe_code)]
            return unsafe { self.run_stretch_avx2(cfg, pcs, emitted) };
        }
        self.run_stretch_body(cfg, pcs, emitted)
    }

    /// [`Self::run_stretch`] compiled for AVX2 (see [`Self::run_avx2`]).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)] // A `target_feature` function is unsafe to call (Rust 1.85).
    unsafe fn run_stretch_avx2(
        &mut self,
        cfg: &UnitConfig,
        pcs: &mut [u16],
        emitted: &mut Vec<Emitted>,
    ) -> (usize, Step) {
        self.run_stretch_body(cfg, pcs, emitted)
    }

    #[inline(always)]
    fn run_stretch_body(
        &mut self,
        cfg: &UnitConfig,
        pcs: &mut [u16],
        emitted: &mut Vec<Emitted>,
    ) -> (usize, Step) {
        self.sync_decode_knobs();
        let mut k = 0;
        while k < pcs.len() {
            let start = self.pc;
            match self.jit_run(cfg, (pcs.len() - k) as u64) {
                jit::Ran::Some(n) => {
                    fill_pcs(&mut pcs[k..k + n as usize], start);
                    k += n as usize;
                    continue;
                }
                jit::Ran::End(n) => {
                    fill_pcs(&mut pcs[k..k + n as usize], start);
                    // END leaves the PC on itself.
                    pcs[k + n as usize - 1] = self.pc;
                    return (k + n as usize, Step::End);
                }
                jit::Ran::Bail(n) => {
                    fill_pcs(&mut pcs[k..k + n as usize], start);
                    k += n as usize;
                    if k >= pcs.len() {
                        break;
                    }
                }
                jit::Ran::No => {}
            }
            let mut out = Step::Continue;
            let go_on = self.step_fast_inline(cfg, emitted, &mut out);
            pcs[k] = self.pc;
            k += 1;
            if !emitted.is_empty() {
                emitted.clear();
            }
            if !go_on && out != Step::Continue {
                return (k, out);
            }
        }
        (pcs.len(), Step::Continue)
    }
}

/// The PCs after each instruction of a JIT block that started at `start` (a block retires in
/// order, without jumps).
fn fill_pcs(pcs: &mut [u16], start: u16) {
    for (i, pc) in pcs.iter_mut().enumerate() {
        *pc = start + 1 + i as u16;
    }
}

/// How [`ShaderUnit::run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum RunEnd {
    /// END executed.
    End,
    /// The unit hangs.
    Hang(Hang),
    /// The instruction limit was reached.
    Limit,
}

/// The `(name, value)` pairs of `values` that differ from the same position of `defaults`.
/// Here, below [`crate::knobs`], because both the shader units' knobs and the model-wide ones
/// (which contain them) list their non-default values with it.
pub(crate) fn differing(
    values: impl IntoIterator<Item = (&'static str, &'static str)>,
    defaults: impl IntoIterator<Item = (&'static str, &'static str)>,
) -> Vec<(&'static str, &'static str)> {
    values
        .into_iter()
        .zip(defaults)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a)
        .collect()
}
