//! The shader JIT: straight-line runs of a unit's program compiled to native code with
//! Cranelift, bit for bit what the interpreter computes.
//!
//! - **What is compiled.** A *block* starts at a PC the interpreter's loop reaches (a vertex's
//!   entry point, the instruction after a jump, a call, a loop start) and runs through the
//!   following words while they are data instructions (the ALU operations except MOVA and
//!   LITP, CMP, MAD/MADI, NOP), ending with END when it comes first; at most
//!   [`MAX_BLOCK`] instructions. Flow control, MOVA, LITP, EMIT, SETEMIT and unknown opcodes
//!   stay with the interpreter. A PC is compiled once it has been reached
//!   [`JIT_THRESHOLD`] times (cold code and one-off fuzz programs never pay for compilation);
//!   the four units of a stage share their blocks and their counts ([`JitCache`]: the stage
//!   lends them to the unit it runs, so the dispatcher takes no lock).
//! - **Bits.** The arithmetic is the interpreter's fast path ([`crate::shader::alu_fast`]):
//!   lanes widened to `f64` images (once per register lane and block), products and sums
//!   exact inside the window, truncation a mask of the low significand bits. Before an
//!   instruction with a lane outside the window or an inexact sum, the block stops and the
//!   interpreter executes that instruction by its own paths. RCP and RSQ read the fast path's
//!   tables inline (`alu_fast::rsq`, `rcp`), calling the interpreter's functions for the inputs
//!   those leave to the reference; EX2, LG2 and FLR call the interpreter's functions. Knobs are compile-time constants; a change of knobs drops
//!   every block.
//! - **Staleness.** A block compares every instruction word and operand descriptor it was
//!   compiled from with the configuration on each entry (as the decode cache checks its
//!   tags), so an upload is seen at the next block; a mismatch drops every block and the
//!   interpreter continues.
//! - **Uniforms.** Each block has a snapshot of the float uniforms ([`Row`]: bits, `f64`
//!   images, window flags) taken when it was compiled; on entry it compares the uniforms it
//!   reads without relative addressing with the snapshot's bits (one 128-bit compare per
//!   register) and retakes the rows that differ, so the widening of a uniform lane is paid
//!   once per upload instead of once per run. Relative reads are widened when they run.
//! - **Flow.** The dispatcher ([`ShaderUnit::jit_run`]) lets a block run only as far as no
//!   CALL, IF or LOOP stack entry ends and the PC stays below 4096: the instruction whose
//!   incremented PC a stack checks runs in the interpreter, with its stack checks. The count of
//!   executed instructions, the MOVA flag and the PC are the dispatcher's.
//!
//! The interpreter stays the reference: `model/tests/shader_jit.rs` compares whole unit
//! states after every instruction on random programs, the operand edge cases and every knob.
//! Commit traces (`ShaderUnit::step_commit`) and register traces never use the JIT.
#![allow(unsafe_code)]

mod emit;

use super::fast::{Kind, Pre};
use super::{decode, Knobs, MinSubnormal, ShaderUnit, PC_LIMIT};
use crate::num::F24;
use crate::regfile::unit::UnitConfig;
use crate::shader::{alu, alu_fast};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::Module;
use std::fmt;

/// How many times the interpreter must reach a PC before a block starting there is compiled
/// (the default of [`ShaderUnit::set_jit`]). Measured on the benchmark shader (release build,
/// 2-core machine; docs/src/benchmarks.md): compiling a block of 10–20 instructions takes
/// about 1.1 ms, and interpreting the 20-instruction block takes about 460 ns, of which the
/// compiled block saves about 270 ns; at 2,048 runs the time spent compiling is about that
/// spent interpreting before the block existed, so the JIT at most doubles the time of a
/// run that ends just after compiling, and short runs (tests, small scenes, fuzz cases)
/// never compile.
pub const JIT_THRESHOLD: u32 = 2048;
/// Instructions per block at most.
pub const MAX_BLOCK: usize = 64;
/// Return flag: the block's last instruction was END.
const END: u64 = 1 << 32;
/// Return flag: a word or descriptor differs from the block's; nothing ran.
const STALE: u64 = 1 << 33;
/// Return flag: the block stopped before an instruction whose operands or sums leave the
/// fast path's window; the interpreter executes that one.
const BAIL: u64 = 1 << 34;
/// What an out-of-range relative uniform read returns (four f24 1.0).
static ONES_BITS: [u32; 4] = [0x3F_0000; 4];

/// What a block reads: the unit and the configuration, as raw pointers (`repr(C)`: the
/// generated code loads the fields by offset).
#[repr(C)]
struct Ctx {
    unit: *mut ShaderUnit,
    cfg: *const UnitConfig,
    /// The active output bank (16 × 4 words).
    outputs: *mut F24,
    /// `cfg.float_uniforms` (at least 96 × 4 words).
    uniforms: *const [F24; 4],
    /// `cfg.code`.
    code: *const u32,
    /// `cfg.opdescs` (at least 128 words).
    opdescs: *const u32,
}

/// One float uniform as a block's snapshot holds it: its bits and, per lane, the `f64` image
/// and the window flag the block would otherwise compute on every run (`repr(C)`: the
/// generated code loads the fields by offset and compares `bits` as one 128-bit vector).
#[repr(C, align(16))]
#[derive(Clone, Copy, Default)]
struct Row {
    bits: [u32; 4],
    img: [f64; 4],
    /// 1 where the lane is non-zero and outside the fast path's window.
    bad: [u8; 4],
}

impl Row {
    /// The row of uniform `u`: the images and flags of `alu_fast`'s widening, lane by lane
    /// (the emitter's `image` and `outside` on the same bits).
    fn of(u: &[F24; 4]) -> Self {
        let mut row = Self::default();
        for (lane, x) in u.iter().enumerate() {
            let b = x.bits();
            let e = b & 0x7F_0000;
            let outside = e.wrapping_sub(alu_fast::WINDOW_LO << 16)
                > (alu_fast::WINDOW_HI - alu_fast::WINDOW_LO) << 16;
            let f = if e == 0 {
                0
            } else {
                (((b & 0x7F_FFFF) << 7) + (64 << 23)) | (b & 0x80_0000) << 8
            };
            row.bits[lane] = b;
            row.img[lane] = f64::from(f32::from_bits(f));
            row.bad[lane] = u8::from(outside && e != 0);
        }
        row
    }
}

/// The uniform snapshot of one block: a row per float uniform c0-c95 (indexed by register, so
/// the block's code addresses a row by a constant offset).
type Rows = [Row; 96];

/// Addresses of the functions a block calls.
struct Helpers {
    ex2: usize,
    lg2: usize,
    rcp: usize,
    rsq: usize,
    flr: usize,
    refresh: usize,
    /// [`alu_fast::rsq_table`], read inline for positive normal inputs.
    rsq_table: usize,
    /// [`alu_fast::rcp_table`], read inline for normal inputs with a normal reciprocal.
    rcp_table: usize,
}

/// Rewrites snapshot row `row` from the uniform at `u` (a block found the uniform changed
/// since the row was taken).
extern "C" fn refresh(row: *mut Row, u: *const [F24; 4]) {
    // SAFETY: the block passes a row of its own snapshot (owned by the `State` the dispatcher
    // holds by `&mut` while the block runs) and the address of a uniform below 96 in the
    // running configuration (`jit_call` checks there are at least 96).
    unsafe { *row = Row::of(&*u) }
}

extern "C" fn ex2(x: u32) -> u32 {
    alu::ex2(F24::from_bits(x)).bits()
}
extern "C" fn lg2(x: u32) -> u32 {
    alu::lg2(F24::from_bits(x)).bits()
}
extern "C" fn rcp(x: u32) -> u32 {
    alu_fast::rcp(F24::from_bits(x)).bits()
}
extern "C" fn rsq(x: u32) -> u32 {
    alu_fast::rsq(F24::from_bits(x)).bits()
}
extern "C" fn flr(x: u32) -> u32 {
    alu::flr(F24::from_bits(x)).bits()
}

impl Helpers {
    fn get() -> Self {
        Self {
            ex2: ex2 as *const () as usize,
            lg2: lg2 as *const () as usize,
            rcp: rcp as *const () as usize,
            rsq: rsq as *const () as usize,
            flr: flr as *const () as usize,
            refresh: refresh as *const () as usize,
            rsq_table: alu_fast::rsq_table() as usize,
            rcp_table: alu_fast::rcp_table() as usize,
        }
    }
}

type BlockFn = unsafe extern "C" fn(*mut Ctx, u64) -> u64;

/// What the JIT knows about one PC.
#[derive(Clone, Copy)]
enum Slot {
    /// Reached this many times, not compiled.
    Cold(u32),
    /// No block starts here (its first instruction stays with the interpreter) or it could
    /// not be compiled.
    Never,
    /// The block and its length.
    Ready(BlockFn, u16),
}

/// The compiled blocks of one unit, or of the units of a stage that share them
/// ([`JitCache`]).
struct State {
    /// Per PC, grown as far as the dispatcher has reached.
    slots: Vec<Slot>,
    /// The knobs the blocks were compiled under.
    knobs: Knobs,
    compiler: Option<Compiler>,
    /// The blocks' uniform snapshots (boxed: each block holds the address of its own).
    snapshots: Vec<Box<Rows>>,
}

/// The Cranelift module that owns the code.
struct Compiler {
    module: Option<JITModule>,
    ctx: cranelift_codegen::Context,
    fctx: FunctionBuilderContext,
    blocks: u32,
}

// SAFETY: the module is only ever used through `&mut` (it is not shared), and the code memory
// it owns is not tied to a thread.
unsafe impl Send for Compiler {}
// SAFETY: no method reachable through `&Compiler` touches the module.
unsafe impl Sync for Compiler {}

impl Drop for Compiler {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the blocks' function pointers live in the `State` that owns this
            // compiler and are dropped with it; none is running (`&mut self`).
            unsafe { m.free_memory() };
        }
    }
}

impl Compiler {
    fn new() -> Option<Self> {
        let mut flags = settings::builder();
        // "none": Cranelift's mid-end optimisations gave no faster blocks here (the IR is
        // already what the fast path computes) and cost 40 % more compile time per block.
        flags.set("opt_level", "none").ok()?;
        flags.set("use_colocated_libcalls", "false").ok()?;
        flags.set("is_pic", "false").ok()?;
        // The verifier took a quarter of the compile time; the IR is the same for every block
        // shape the differential tests compile, and a block that fails to compile falls back
        // to the interpreter.
        flags.set("enable_verifier", "false").ok()?;
        let isa = cranelift_native::builder()
            .ok()?
            .finish(settings::Flags::new(flags))
            .ok()?;
        if isa.pointer_bits() != 64 {
            return None;
        }
        let module = JITModule::new(JITBuilder::with_isa(
            isa,
            cranelift_module::default_libcall_names(),
        ));
        let ctx = module.make_context();
        Some(Self {
            module: Some(module),
            ctx,
            fctx: FunctionBuilderContext::new(),
            blocks: 0,
        })
    }

    /// Compiles `ops` (starting at `start`) into a block.
    fn compile(
        &mut self,
        ops: &[Pre],
        start: u16,
        knobs: Knobs,
        rows: *mut Rows,
    ) -> Option<BlockFn> {
        let module = self.module.as_mut()?;
        self.ctx.clear();
        self.ctx.func.signature = emit::block_signature(module.isa().default_call_conv());
        emit::build(
            &mut self.ctx.func,
            &mut self.fctx,
            ops,
            start,
            knobs,
            &Helpers::get(),
            rows as usize,
        );
        let sig = self.ctx.func.signature.clone();
        let id = module.declare_anonymous_function(&sig).ok()?;
        let defined = module.define_function(id, &mut self.ctx);
        module.clear_context(&mut self.ctx);
        defined.ok()?;
        module.finalize_definitions().ok()?;
        let code = module.get_finalized_function(id);
        self.blocks += 1;
        // SAFETY: `code` is the finalized function just defined with the block signature
        // (`emit::block_signature`: two 64-bit integers in, one out, the ISA's default
        // calling convention, which is `extern "C"` on the host).
        Some(unsafe { std::mem::transmute::<*const u8, BlockFn>(code) })
    }
}

impl State {
    fn new(knobs: Knobs) -> Self {
        Self {
            slots: Vec::new(),
            knobs,
            compiler: None,
            snapshots: Vec::new(),
        }
    }

    /// Drops every block (and the code memory).
    fn reset(&mut self, knobs: Knobs) {
        *self = Self::new(knobs);
    }
}

/// A unit's JIT: off, or on with a threshold and the blocks compiled so far (a stage's units
/// hold the stage's while it runs them: [`JitCache`]).
pub(super) struct Jit {
    threshold: Option<u32>,
    state: Option<Box<State>>,
}

/// Compiled blocks held outside a unit: a stage's four units run one program, so the stage
/// keeps one cache and lends it to the unit it runs ([`ShaderUnit::swap_jit_cache`]): each
/// block is compiled once, every unit's visits to a PC count towards the threshold, and, the
/// cache being owned rather than shared, the dispatcher takes no lock (an uncontended mutex
/// was two atomic operations per block, 10 % of a vertex of the benchmark shader). Blocks are
/// tagged with their words and read the registers of the unit that runs them, so any unit can
/// run any of them. A copy starts empty.
#[derive(Default)]
pub struct JitCache(Option<Box<State>>);

impl JitCache {
    /// Blocks compiled since the cache was last reset.
    pub fn blocks(&self) -> u32 {
        self.0
            .as_ref()
            .and_then(|s| s.compiler.as_ref().map(|c| c.blocks))
            .unwrap_or(0)
    }
}

impl Clone for JitCache {
    fn clone(&self) -> Self {
        Self(None)
    }
}

impl fmt::Debug for JitCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JitCache({} blocks)", self.blocks())
    }
}

impl Jit {
    pub(super) fn new(threshold: Option<u32>) -> Self {
        Self {
            threshold,
            state: None,
        }
    }
}

/// The environment variable that sets the default of new units: a threshold (`0` compiles
/// every block at once: for running the whole test suite through the JIT) or `off`.
pub const JIT_ENV: &str = "PICA_SHADER_JIT";

/// The default threshold: [`JIT_ENV`] if it is set and valid, else [`JIT_THRESHOLD`].
fn default_threshold() -> Option<u32> {
    match std::env::var(JIT_ENV) {
        Ok(v) if v == "off" => None,
        Ok(v) => Some(v.parse().unwrap_or(JIT_THRESHOLD)),
        Err(_) => Some(JIT_THRESHOLD),
    }
}

impl Default for Jit {
    fn default() -> Self {
        Self::new(default_threshold())
    }
}

/// A copy starts without compiled blocks (they belong to the original's module).
impl Clone for Jit {
    fn clone(&self) -> Self {
        Self::new(self.threshold)
    }
}

impl fmt::Debug for Jit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let blocks = self
            .state
            .as_ref()
            .and_then(|s| s.compiler.as_ref().map(|c| c.blocks))
            .unwrap_or(0);
        write!(f, "Jit({:?}, {blocks} blocks)", self.threshold)
    }
}

/// What [`ShaderUnit::jit_run`] did.
pub(super) enum Ran {
    /// Nothing: the interpreter takes the next step.
    No,
    /// This many instructions ran; the PC is after them.
    Some(u32),
    /// This many instructions ran, the last was END (the PC is on it).
    End(u32),
    /// This many instructions ran; the interpreter must execute the next one.
    Bail(u32),
}

/// The data instructions a block holds, from `pc` on (empty if the first is not one).
fn block_ops(cfg: &UnitConfig, pc: usize, knobs: Knobs) -> Vec<Pre> {
    let mut ops = Vec::new();
    let mut p = pc;
    while p < PC_LIMIT as usize && ops.len() < MAX_BLOCK {
        let Some(&word) = cfg.code.get(p) else {
            break;
        };
        let mut e = Pre::new(word, decode(word), &cfg.opdescs);
        if e.kind == Kind::Min && knobs.min_subnormal == MinSubnormal::Flush {
            e.kind = Kind::MinFlush;
        }
        if matches!(e.kind, Kind::Slow | Kind::Empty) {
            break;
        }
        ops.push(e);
        p += 1;
        if e.kind == Kind::End {
            break;
        }
    }
    ops
}

impl ShaderUnit {
    /// Turns the shader JIT on (`Some(threshold)`: a block is compiled once its PC has been
    /// reached that many times; 0 compiles at once) or off (`None`). The default is on with
    /// [`JIT_THRESHOLD`], or what the environment variable [`JIT_ENV`] (`PICA_SHADER_JIT`)
    /// says: a threshold or `off`. Either way every result is the interpreter's, bit for bit; the
    /// commit and register traces never use it. Turning it on or off drops compiled blocks.
    pub fn set_jit(&mut self, threshold: Option<u32>) {
        self.jit = Jit::new(threshold);
    }

    /// The JIT's threshold (`None`: off); see [`Self::set_jit`].
    pub fn jit_threshold(&self) -> Option<u32> {
        self.jit.threshold
    }

    /// Blocks compiled since the JIT was last reset (for tests and benchmarks; a stage's
    /// units count in its [`JitCache`]).
    pub fn jit_blocks(&self) -> u32 {
        self.jit
            .state
            .as_ref()
            .and_then(|s| s.compiler.as_ref().map(|c| c.blocks))
            .unwrap_or(0)
    }

    /// Exchanges this unit's compiled blocks with `cache`'s: a stage swaps its cache in
    /// before it runs a unit and out after ([`JitCache`]).
    pub fn swap_jit_cache(&mut self, cache: &mut JitCache) {
        std::mem::swap(&mut self.jit.state, &mut cache.0);
    }

    /// How many instructions from the PC on may retire without a stack check: the instruction
    /// whose incremented PC a CALL, IF or LOOP entry waits for, or which would move the PC to
    /// 4096, must run in the interpreter.
    fn flow_limit(&self) -> u64 {
        let pc = u32::from(self.pc);
        let mut lim = (PC_LIMIT - 1).saturating_sub(pc);
        let triggers = [
            self.loop_stack.top().map(|l| l.end),
            self.if_stack.top().map(|i| i.trigger),
            self.call_stack.top().map(|c| c.trigger),
        ];
        for t in triggers.into_iter().flatten() {
            let t = u32::from(t);
            if t > pc {
                lim = lim.min(t - 1 - pc);
            }
        }
        u64::from(lim)
    }

    /// Runs the block at the PC if there is one (compiling it once the PC is hot), at most
    /// `budget` instructions.
    #[inline]
    pub(super) fn jit_run(&mut self, cfg: &UnitConfig, budget: u64) -> Ran {
        let Some(threshold) = self.jit.threshold else {
            return Ran::No;
        };
        let mut state = match self.jit.state.take() {
            Some(s) => s,
            None => Box::new(State::new(self.knobs)),
        };
        let ran = self.jit_run_in(&mut state, cfg, budget, threshold);
        self.jit.state = Some(state);
        ran
    }

    /// [`Self::jit_run`] with the unit's state (its own, or its stage's [`JitCache`]), held by
    /// `&mut`: nothing can reset it and free code while a block runs.
    fn jit_run_in(
        &mut self,
        state: &mut State,
        cfg: &UnitConfig,
        budget: u64,
        threshold: u32,
    ) -> Ran {
        if state.knobs != self.knobs {
            state.reset(self.knobs);
            return Ran::No;
        }
        let pc = usize::from(self.pc);
        if pc >= state.slots.len() {
            // Grown as far as the PC reaches (a fuzz case's new GPU pays for what it uses).
            if pc >= PC_LIMIT as usize {
                return Ran::No;
            }
            state.slots.resize((pc | 63) + 1, Slot::Cold(0));
        }
        let (f, len) = match state.slots[pc] {
            Slot::Ready(f, len) => (f, len),
            Slot::Never => return Ran::No,
            Slot::Cold(c) => {
                if c + 1 < threshold {
                    state.slots[pc] = Slot::Cold(c + 1);
                    return Ran::No;
                }
                let new = Self::jit_compile(state, cfg, pc, self.knobs);
                state.slots[pc] = new;
                match new {
                    Slot::Ready(f, len) => (f, len),
                    _ => return Ran::No,
                }
            }
        };
        let ran = self.jit_call(cfg, f, len, budget);
        if ran.is_none() {
            // A word or descriptor changed: every block may be stale.
            state.reset(self.knobs);
        }
        ran.unwrap_or(Ran::No)
    }

    #[cold]
    #[inline(never)]
    fn jit_compile(state: &mut State, cfg: &UnitConfig, pc: usize, knobs: Knobs) -> Slot {
        let ops = block_ops(cfg, pc, knobs);
        if ops.is_empty() {
            return Slot::Never;
        }
        if state.compiler.is_none() {
            state.compiler = Compiler::new();
        }
        let Some(compiler) = state.compiler.as_mut() else {
            return Slot::Never;
        };
        // Taken from the configuration now, so the first run finds it current.
        let mut rows = Box::new([Row::default(); 96]);
        for (row, u) in rows.iter_mut().zip(&cfg.float_uniforms) {
            *row = Row::of(u);
        }
        let addr: *mut Rows = &mut *rows;
        let compiled = compiler.compile(&ops, pc as u16, knobs, addr);
        state.snapshots.push(rows);
        match compiled {
            Some(f) => Slot::Ready(f, ops.len() as u16),
            None => Slot::Never,
        }
    }

    /// Calls block `f` (of `len` instructions) at the PC; `None` if it found a word or
    /// descriptor changed (nothing ran).
    #[inline]
    fn jit_call(&mut self, cfg: &UnitConfig, f: BlockFn, len: u16, budget: u64) -> Option<Ran> {
        let pc = usize::from(self.pc);
        let limit = u64::from(len).min(self.flow_limit()).min(budget);
        if limit == 0
            || cfg.code.len() < pc + usize::from(len)
            || cfg.opdescs.len() < 128
            || cfg.float_uniforms.len() < 96
        {
            return Some(Ran::No);
        }
        let bank = self.bank & 1;
        let unit: *mut ShaderUnit = self;
        let mut ctx = Ctx {
            unit,
            cfg,
            // SAFETY: `unit` comes from `&mut self` and is valid; only an address is taken.
            outputs: unsafe { std::ptr::addr_of_mut!((*unit).banks[bank]) }.cast::<F24>(),
            uniforms: cfg.float_uniforms.as_ptr(),
            code: cfg.code.as_ptr(),
            opdescs: cfg.opdescs.as_ptr(),
        };
        // SAFETY: `f` was compiled from the words at `pc`, which it checks before running; it
        // reads code words `pc..pc + len` and descriptors below 128 (lengths checked above),
        // uniforms below 96 (the encoding cannot name more; relative reads are masked), and
        // reads and writes the unit's registers through `ctx.unit` and `ctx.outputs`, which
        // nothing else uses during the call.
        let r = unsafe { f(&mut ctx, limit) };
        if r & STALE != 0 {
            return None;
        }
        let n = r as u32;
        self.executed += u64::from(n);
        if n > 0 {
            self.prev_mova = false;
        }
        Some(if r & BAIL != 0 {
            self.pc += n as u16;
            Ran::Bail(n)
        } else if r & END != 0 {
            self.pc += n as u16 - 1;
            Ran::End(n)
        } else {
            self.pc += n as u16;
            Ran::Some(n)
        })
    }
}
