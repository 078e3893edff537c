//! The shader-unit RTL: one Verilated `pica_sh_unit_top` (`rtl/pica_sh_unit_top.sv`: the unit
//! `pica_shader_unit` with its own code, operand-descriptor and float-uniform RAMs), driven
//! one invocation at a time, with the commit trace the model's
//! [`ShaderUnit::run_commits`](pica_model::shader::interp::ShaderUnit::run_commits) records.
//!
//! ```no_run
//! # use pica_rtl_bridge::shader::{RtlShaderUnit, ShVariant};
//! let mut unit = RtlShaderUnit::new(ShVariant::Default)?;
//! unit.load_code(0, &[0x8800_0000]); // end
//! let (mut commits, mut emits) = (Vec::new(), Vec::new());
//! let end = unit.run(0, 1000, &mut commits, &mut emits);
//! # Ok::<(), pica_rtl_bridge::RtlError>(())
//! ```

use crate::RtlError;
use pica_model::num::F24;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::alu::MaxNegInf;
use pica_model::shader::interp::{
    Cmp67, Commit, IntZ, Knobs, LoopAl, LoopSharedEnd, MinSubnormal, MovSubnormal, PcOverflow,
    UnknownOp,
};
use std::path::Path;

/// A build of the shader unit: the default one or one with an injected bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShVariant {
    /// The RTL as written (plus any `PICA_RTL_DEFINES` given at build time).
    Default,
    /// `INJECT_SH_ADD_ROUND`: ADD sets its result's lowest mantissa bit when the operands'
    /// exponents differ (a stand-in for rounding instead of truncating).
    InjectAddRound,
    /// `INJECT_SH_LOOP_EXTRA`: a LOOP runs one iteration too many.
    InjectLoopExtra,
    /// `PICA_SH_KNOBS_ALT`: every knob parameter on its non-default value (the model's
    /// [`ShVariant::knobs`] of this variant), to check the knobs.
    KnobsAlt,
    /// Mutant `k` of the shader-unit mutant model (`sh_mut`: Yosys mutations of
    /// `pica_sh_unit_top`, [`crate::mutants`]; 0 = the unmutated netlist; built only with
    /// `PICA_MUTANTS=sh`). Loaded through the top's write ports (the netlist has no backdoor).
    /// Not in [`ShVariant::ALL`].
    Mutant(u16),
    /// The four-unit SH stage as written (plus any `PICA_RTL_DEFINES`), verilated with
    /// `--coverage` (`cov_sh`: `pica_sh_top`, [`crate::coverage`]; an SH-stage build only, for
    /// [`crate::RtlSh`]): slower, and its code-coverage counters can be read
    /// ([`crate::RtlSh::coverage`]). Not in [`ShVariant::ALL`].
    Coverage,
}

impl ShVariant {
    /// The mutant number of a [`ShVariant::Mutant`].
    pub fn mutant(self) -> Option<u16> {
        match self {
            ShVariant::Mutant(k) => Some(k),
            _ => None,
        }
    }

    /// Every variant, in build order.
    pub const ALL: [ShVariant; 4] = [
        ShVariant::Default,
        ShVariant::InjectAddRound,
        ShVariant::InjectLoopExtra,
        ShVariant::KnobsAlt,
    ];

    /// The variant's name as build.rs compiled it.
    pub fn name(self) -> &'static str {
        match self {
            ShVariant::Default => "default",
            ShVariant::InjectAddRound => "inject_sh_add_round",
            ShVariant::InjectLoopExtra => "inject_sh_loop_extra",
            ShVariant::KnobsAlt => "knobs_alt",
            ShVariant::Mutant(_) => crate::mutants::SH_MODEL,
            ShVariant::Coverage => crate::kit::desc::SH.coverage.unwrap_or_default(),
        }
    }

    /// The model knobs this build implements (the defaults, except for
    /// [`ShVariant::KnobsAlt`]).
    pub fn knobs(self) -> Knobs {
        match self {
            ShVariant::KnobsAlt => Knobs {
                max_neg_inf: MaxNegInf::NegInf,
                cmp67: Cmp67::False,
                cmp_uses_mask: true,
                int_z: IntZ::Signed,
                pc_overflow: PcOverflow::Wrap,
                unknown_op: UnknownOp::Nop,
                loop_al: LoopAl::Restore,
                mov_subnormal: MovSubnormal::Flush,
                // The RTL unit implements the default MIN only (no build flips it).
                min_subnormal: MinSubnormal::Pass,
                loop_shared_end: LoopSharedEnd::All,
            },
            _ => Knobs::default(),
        }
    }
}

/// One EMIT of the RTL unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtlEmit {
    /// SETEMIT vertex slot in effect.
    pub vtx_id: u8,
    /// SETEMIT winding flag in effect.
    pub winding: bool,
    /// Whether this EMIT also emits a primitive.
    pub prim_emit: bool,
    /// The emitted bank o0-o15 (f24 bits, lane 0 = x).
    pub outputs: [[u32; 4]; 16],
}

/// How [`RtlShaderUnit::run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtlRunEnd {
    /// END executed.
    End,
    /// The unit hangs, with the [`Commit::hang`] code.
    Hang(u8),
    /// The instruction limit was reached.
    Limit,
    /// The unit stopped retiring instructions (an RTL bug: the shim's cycle guard fired).
    Stuck,
    /// `done_o` / `hang_o` disagree with the commits: one was up while instructions still
    /// retired, or the clock after the last commit did not show how the run ended (END:
    /// `done_o`, a hang: `hang_o` with `hang_code_o` the commit's code, the instruction limit:
    /// neither), or after END or a hang the unit did not stay quiet for the clocks the shim
    /// watches (a commit or an EMIT, or the status changing, before the next start). An RTL
    /// bug.
    BadStatus,
}

#[allow(unsafe_code)]
mod raw {
    //! The C ABI of `csrc/pica_sh_shim.h`. Each call passes a handle that [`Handle`] owns
    //! exclusively (created by `pica_sh_new`, freed once in `Drop`) and pointers to live buffers
    //! of the stated lengths.
    pub(super) use crate::kit::record::PicaShCommit;
    use std::ffi::{c_char, c_int};

    #[repr(C)]
    #[derive(Clone, Copy, Debug, Default)]
    pub(super) struct PicaShEmit {
        pub vtx_id: u32,
        pub winding: u32,
        pub prim_emit: u32,
        pub outputs: [[u32; 4]; 16],
    }

    #[repr(C)]
    pub(super) struct PicaSh {
        _opaque: [u8; 0],
    }

    extern "C" {
        fn pica_sh_variant_count() -> c_int;
        fn pica_sh_variant_name(variant: c_int) -> *const c_char;
        fn pica_sh_new(variant: c_int) -> *mut PicaSh;
        fn pica_sh_free(h: *mut PicaSh);
        fn pica_sh_load_code(h: *mut PicaSh, offset: u32, words: *const u32, n: usize);
        fn pica_sh_load_opdescs(h: *mut PicaSh, offset: u32, words: *const u32, n: usize);
        fn pica_sh_load_uniforms(h: *mut PicaSh, offset: u32, lanes: *const u32, n: usize);
        fn pica_sh_set_uniforms(h: *mut PicaSh, ints: *const u32, bools: u32);
        fn pica_sh_set_input(h: *mut PicaSh, idx: u32, lanes: *const u32);
        fn pica_sh_reset(h: *mut PicaSh);
        fn pica_sh_run(
            h: *mut PicaSh,
            entry: u32,
            max_instructions: u64,
            commits: *mut PicaShCommit,
            commit_cap: usize,
            n_commits: *mut usize,
            emits: *mut PicaShEmit,
            emit_cap: usize,
            n_emits: *mut usize,
        ) -> c_int;
        fn pica_sh_read_outputs(h: *mut PicaSh, other: c_int, out: *mut [u32; 4]);
        fn pica_sh_cycles(h: *mut PicaSh) -> u64;
        fn pica_sh_run_clocks(h: *mut PicaSh) -> u64;
        fn pica_sh_trace_open(h: *mut PicaSh, path: *const c_char) -> c_int;
        fn pica_sh_trace_close(h: *mut PicaSh);
        fn pica_sh_set_mutant(h: *mut PicaSh, k: u32) -> c_int;
        fn pica_sh_set_stall(h: *mut PicaSh, percent: u32, seed: u64);
    }

    /// Names of the compiled variants, index = variant number.
    pub(super) fn variant_names() -> Vec<String> {
        crate::kit::handle::names_of(pica_sh_variant_count, pica_sh_variant_name)
    }

    crate::ffi::shim_handle!(pub(super) Handle(PicaSh) {
        new: pica_sh_new, free: pica_sh_free,
        trace_open: pica_sh_trace_open, trace_close: pica_sh_trace_close,
        set_mutant: pica_sh_set_mutant
    });

    impl Handle {
        pub(super) fn load(&mut self, mem: u8, offset: u32, words: &[u32]) {
            // SAFETY: live, exclusively borrowed handle; `words` has the length passed (for
            // uniforms: 4 words per uniform, so `len / 4` uniforms).
            unsafe {
                match mem {
                    0 => pica_sh_load_code(self.p(), offset, words.as_ptr(), words.len()),
                    1 => pica_sh_load_opdescs(self.p(), offset, words.as_ptr(), words.len()),
                    _ => pica_sh_load_uniforms(self.p(), offset, words.as_ptr(), words.len() / 4),
                }
            }
        }
        pub(super) fn set_uniforms(&mut self, ints: [u32; 4], bools: u32) {
            // SAFETY: live handle; `ints` has the 4 words the shim reads.
            unsafe { pica_sh_set_uniforms(self.p(), ints.as_ptr(), bools) }
        }
        pub(super) fn set_input(&mut self, idx: u32, lanes: [u32; 4]) {
            // SAFETY: live handle; `lanes` has the 4 words the shim reads.
            unsafe { pica_sh_set_input(self.p(), idx, lanes.as_ptr()) }
        }
        pub(super) fn reset(&mut self) {
            // SAFETY: live handle.
            unsafe { pica_sh_reset(self.p()) }
        }
        pub(super) fn run(
            &mut self,
            entry: u32,
            max: u64,
            commits: &mut [PicaShCommit],
            emits: &mut [PicaShEmit],
        ) -> (c_int, usize, usize) {
            let (mut nc, mut ne) = (0usize, 0usize);
            // SAFETY: live handle; each buffer pointer comes with its length as capacity; the
            // counts are written to live locals.
            let status = unsafe {
                pica_sh_run(
                    self.p(),
                    entry,
                    max,
                    commits.as_mut_ptr(),
                    commits.len(),
                    &mut nc,
                    emits.as_mut_ptr(),
                    emits.len(),
                    &mut ne,
                )
            };
            (status, nc, ne)
        }
        pub(super) fn read_outputs(&mut self, other: bool) -> [[u32; 4]; 16] {
            let mut out = [[0u32; 4]; 16];
            // SAFETY: live handle; `out` holds the 16 x 4 words the shim writes.
            unsafe { pica_sh_read_outputs(self.p(), c_int::from(other), out.as_mut_ptr()) };
            out
        }
        pub(super) fn cycles(&mut self) -> u64 {
            // SAFETY: live handle.
            unsafe { pica_sh_cycles(self.p()) }
        }
        pub(super) fn run_clocks(&mut self) -> u64 {
            // SAFETY: live handle.
            unsafe { pica_sh_run_clocks(self.p()) }
        }
        pub(super) fn set_stall(&mut self, percent: u32, seed: u64) {
            // SAFETY: live handle.
            unsafe { pica_sh_set_stall(self.p(), percent, seed) }
        }
    }
}

/// One Verilated shader unit (`pica_sh_unit_top`), reset, with zeroed memories.
///
/// Registers (temporaries, outputs, address registers, flags) persist across [`Self::run`]
/// calls, as in the model, until [`Self::reset`]. Memories and input registers are written
/// into the Verilated model directly (`csrc/pica_sh_unit.vlt` makes them public), without
/// clock cycles: the top's write ports are for simulators without a backdoor (the replay
/// testbench).
#[derive(Debug)]
pub struct RtlShaderUnit {
    handle: raw::Handle,
    variant: ShVariant,
    // Run buffers, kept between runs (zeroing them per run cost more than short programs).
    cbuf: Vec<raw::PicaShCommit>,
    ebuf: Vec<raw::PicaShEmit>,
}

fn lanes(v: [F24; 4]) -> [u32; 4] {
    v.map(F24::bits)
}

impl RtlShaderUnit {
    /// Names of the shader variants compiled into this build.
    pub fn variants() -> Vec<String> {
        raw::variant_names()
    }

    /// A new unit of `variant`.
    pub fn new(variant: ShVariant) -> Result<Self, RtlError> {
        let names = raw::variant_names();
        let index = names
            .iter()
            .position(|n| n == variant.name())
            .ok_or_else(|| RtlError::MissingVariant(variant.name(), names.join(", ")))?;
        let mut handle = raw::Handle::new(index).ok_or(RtlError::Create(variant.name()))?;
        if let Some(k) = variant.mutant() {
            if !handle.set_mutant(k) {
                return Err(RtlError::Mutant(variant.name(), k));
            }
        }
        Ok(Self {
            handle,
            variant,
            cbuf: Vec::new(),
            ebuf: Vec::new(),
        })
    }

    /// Back to the state of [`Self::new`]: registers reset, memories and inputs zero (one
    /// clock; cheaper than building a new model).
    pub fn reset(&mut self) {
        self.handle.reset();
    }

    /// Backpressure for the following [`Self::run`] calls: `stall_i` (the hold `pica_sh` gives a
    /// unit while its commit queue is full or unit 3 copies an EMIT) is high on about
    /// `percent` % of the clocks (0 = never, the default; at most 99), from a pseudo-random
    /// sequence restarted from `seed` at every run. Commits, emits and outputs must not change;
    /// only the clocks do.
    pub fn set_stall(&mut self, percent: u8, seed: u64) {
        self.handle.set_stall(u32::from(percent), seed);
    }

    /// Which build this is.
    pub fn variant(&self) -> ShVariant {
        self.variant
    }

    /// Writes code words from word address `offset` (wrapping at 4096).
    pub fn load_code(&mut self, offset: u16, words: &[u32]) {
        self.handle.load(0, u32::from(offset), words);
    }

    /// Writes operand descriptors from index `offset` (wrapping at 128).
    pub fn load_opdescs(&mut self, offset: u8, words: &[u32]) {
        self.handle.load(1, u32::from(offset), words);
    }

    /// Writes float uniforms from `c[offset]`; indices of 96 and above are dropped.
    pub fn load_uniforms(&mut self, offset: u8, uniforms: &[[F24; 4]]) {
        let words: Vec<u32> = uniforms.iter().flat_map(|&v| lanes(v)).collect();
        self.handle.load(2, u32::from(offset), &words);
    }

    /// Sets i0-i3 (`[x, y, z, w]` each) and b0-b15 (bit n = bn).
    pub fn set_uniforms(&mut self, ints: [[u8; 4]; 4], bools: u16) {
        self.handle
            .set_uniforms(ints.map(u32::from_le_bytes), u32::from(bools));
    }

    /// Writes input register `v[idx]` (idx 0-15).
    pub fn set_input(&mut self, idx: u8, v: [F24; 4]) {
        self.handle.set_input(u32::from(idx & 15), lanes(v));
    }

    /// Loads a unit configuration: the first `code_words` code words, every operand
    /// descriptor and float uniform, the int and bool uniforms.
    pub fn load_config(&mut self, cfg: &UnitConfig, code_words: usize) {
        let n = code_words.min(cfg.code.len());
        self.load_code(0, &cfg.code[..n]);
        self.load_opdescs(0, &cfg.opdescs);
        self.load_uniforms(0, &cfg.float_uniforms);
        self.set_uniforms(cfg.int_uniforms, cfg.bool_uniforms);
    }

    /// Runs one invocation from `entry` until END, a hang or `max_instructions` executed,
    /// appending one [`Commit`] per executed instruction (at most 2^20 per run are kept) and
    /// one [`RtlEmit`] per EMIT (at most 4096).
    pub fn run(
        &mut self,
        entry: u16,
        max_instructions: u64,
        commits: &mut Vec<Commit>,
        emits: &mut Vec<RtlEmit>,
    ) -> RtlRunEnd {
        let cap = usize::try_from(max_instructions.min(1 << 20)).unwrap_or(1 << 20);
        // Each EMIT is an instruction: no more than `cap`, and at most 4096 kept. The buffers
        // only grow; the shim overwrites the entries it reports.
        if self.cbuf.len() < cap {
            self.cbuf.resize(cap, raw::PicaShCommit::default());
        }
        if self.ebuf.len() < cap.min(4096) {
            self.ebuf.resize(cap.min(4096), raw::PicaShEmit::default());
        }
        let (cbuf, ebuf) = (&mut self.cbuf[..cap], &mut self.ebuf[..cap.min(4096)]);
        let (status, nc, ne) = self
            .handle
            .run(u32::from(entry), max_instructions, cbuf, ebuf);
        commits.extend(cbuf.iter().take(nc).map(|c| Commit {
            pc: c.pc as u16,
            word: c.word,
            dst: c.dst as u8,
            mask: c.mask as u8,
            result: c.result,
            cmp: c.cmp as u8,
            a0x: c.a0x,
            a0y: c.a0y,
            al: c.al,
            next_pc: c.next_pc as u16,
            emit: c.emit != 0,
            hang: c.hang as u8,
            end: c.end != 0,
        }));
        emits.extend(ebuf.iter().take(ne).map(|e| RtlEmit {
            vtx_id: e.vtx_id as u8,
            winding: e.winding != 0,
            prim_emit: e.prim_emit != 0,
            outputs: e.outputs,
        }));
        match status {
            0 => RtlRunEnd::End,
            1 => RtlRunEnd::Hang(commits.last().map_or(0, |c| c.hang)),
            2 => RtlRunEnd::Limit,
            4 => RtlRunEnd::BadStatus,
            _ => RtlRunEnd::Stuck,
        }
    }

    /// o0-o15 of the active output bank (f24 bits, lane 0 = x).
    pub fn outputs(&mut self) -> [[u32; 4]; 16] {
        self.handle.read_outputs(false)
    }

    /// o0-o15 of the other output bank (the one the last EMIT emitted).
    pub fn other_outputs(&mut self) -> [[u32; 4]; 16] {
        self.handle.read_outputs(true)
    }

    /// Clock cycles since the model was built (loads included).
    pub fn cycles(&mut self) -> u64 {
        self.handle.cycles()
    }

    /// Clocks the last [`Self::run`] took from its start clock to the clock after its last
    /// commit: a program's time on the unit, without the clocks the harness then watches the
    /// unit after END or a hang (which [`Self::cycles`] counts).
    pub fn run_clocks(&mut self) -> u64 {
        self.handle.run_clocks()
    }

    /// Starts writing a VCD of every following clock edge to `path`.
    pub fn trace_vcd(&mut self, path: &Path) -> Result<(), RtlError> {
        let p = path.to_string_lossy();
        if self.handle.trace_open(&p) {
            Ok(())
        } else {
            Err(RtlError::Trace(p.into_owned()))
        }
    }

    /// Flushes and closes the VCD, if one is open.
    pub fn trace_close(&mut self) {
        self.handle.trace_close();
    }
}
