//! # pica-rtl-bridge
//!
//! The SystemVerilog reimplementation of the PICA200 front end and shader stage (`rtl/`:
//! `pica_top` with `pica_cp`, `pica_regs` and `pica_sh`), its Verilator build (`build.rs`) and
//! the safe Rust API the testbench drives it through.
//!
//! - [`Rtl`] is one Verilated `pica_top`: set inputs and evaluate ([`Rtl::eval`]), clock it
//!   ([`Rtl::clock`]), write a VCD ([`Rtl::trace_vcd`]).
//! - [`RtlGpu`] drives an [`Rtl`] the way the model's [`pica_model::Gpu`] runs: it streams a
//!   submitted command list into the command port, serves the memory port from a
//!   [`pica_model::Memory`], collects the trace port as [`RegWriteBeat`]s stamped with the
//!   same cycle numbers as the model's, and reads the final state straight out of the model
//!   ([`RtlGpu::state_dump`], one call: [`state`]) or through the debug port
//!   ([`RtlGpu::debug_dump`], one clock per word; the same words). The
//!   SH stage inside `pica_top` (configured by REGS) takes vertices and gives output items and
//!   commits through [`RtlGpu::sh_push_vertex`] / [`RtlGpu::take_sh`], with the same
//!   transactions as [`RtlSh`].
//! - [`sh_stage::RtlSh`] is the Verilated SH stage (`rtl/pica_sh_top.sv`: four shader units,
//!   the VS/GS split, the GS input assembler) with the model's transactions; [`shader`] has one
//!   shader unit alone.
//! - [`tev_stage::RtlTev`] is the Verilated TEV stage (`rtl/pica_tev_top.sv`: the six texture
//!   combiners and the combiner buffer) with the model's transactions.
//! - [`fop_stage::RtlFop`] is the Verilated FOP stage (`rtl/pica_fop_top.sv`: the fragment
//!   operations and the framebuffer formats) with the model's transactions, its memory port
//!   served from a [`pica_model::Memory`].
//! - [`rast_stage::RtlRast`] is the Verilated CLIP + RAST stage (`rtl/pica_rast_top.sv`:
//!   clipping, viewport, culling, setup, traversal, interpolation, early depth) with the model's
//!   transactions, its early-depth port served from a [`pica_model::rast::EarlyDepthBuffer`].
//! - [`RtlAlu`] is the Verilated f24 ALU (`rtl/pica_alu_top.sv`, the `pica_f24_*` modules) and
//!   [`model_eval`] the model's answer for the same operands ([`alu`]).
//!
//! We do not use the crates.io `verilated` crate: it is unmaintained and does not build
//! against Verilator 5. The bridge is a C++ shim of a few functions (`csrc/pica_shim.cpp`)
//! and this crate.

pub mod alu;
pub mod axi;
pub mod coverage;
mod error;
mod ffi;
pub mod fop_stage;
pub mod kit;
pub mod mutants;
pub mod rast_stage;
pub mod sh_stage;
pub mod shader;
pub mod state;
pub mod tev_stage;
pub mod tex_stage;

pub use alu::{model_eval, AluOp, RtlAlu, RtlAluError};
pub use coverage::RtlCoverage;
pub use error::{lean_build, RtlError};
pub use ffi::{PicaIn, PicaOut};
use pica_model::beat::RegWriteBeat;
use pica_model::mem::Memory;
use pica_model::regfile::debug;
use pica_model::regs::id;
use pica_model::shader::stage::{ShIn, VertexIn};
use sh_stage::ShProtocol;
pub use sh_stage::{PicaShCommit, PicaShsIn, PicaShsOut, RtlSh, ShTick};
pub use state::RegsState;
use std::path::Path;

/// A build of the RTL: the default one, or one with a deliberately injected bug (used to show
/// that lockstep and the fuzzer catch real divergences).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The RTL as written (plus any `PICA_RTL_DEFINES` given at build time).
    Default,
    /// `INJECT_MASK_BUG`: byte lane 2 of the register merge ignores the byte mask (built with
    /// `EnableSh = 0`: no SH stage).
    InjectMaskBug,
    /// `INJECT_PACKER_BUG`: the f24 float-uniform unpack drops the low 8 bits of y (built with
    /// `EnableSh = 0`: no SH stage).
    InjectPackerBug,
    /// The front end as written, without the SH stage (`fe`: `pica_top` with `EnableSh = 0`,
    /// plus `PICA_RTL_DEFINES`): what the front-end lockstep runs for [`Variant::Default`]
    /// ([`Variant::front_end`]), a few times faster per cycle.
    FrontEnd,
    /// Mutant `n` of the front-end mutant model (`fe_mut`: Yosys mutations of `pica_top` with
    /// `EnableSh = 0`, [`mutants`]; 0 = the unmutated netlist). Not in [`Variant::ALL`]: its
    /// final state is read through the debug port ([`Variant::has_direct_state`]).
    FeMutant(u16),
    /// The front end as written, verilated with `--coverage` (`cov_fe`: `pica_top` with
    /// `EnableSh = 0`, plus `PICA_RTL_DEFINES`): slower than [`Variant::Default`], and its
    /// code-coverage counters can be read and written ([`coverage`]). Not in [`Variant::ALL`].
    FeCoverage,
}

impl Variant {
    /// Every variant, in build order.
    pub const ALL: [Variant; 4] = [
        Variant::Default,
        Variant::InjectMaskBug,
        Variant::InjectPackerBug,
        Variant::FrontEnd,
    ];

    /// The variant's name as build.rs compiled it (`default`, `inject_mask_bug`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Default => "default",
            Variant::InjectMaskBug => "inject_mask_bug",
            Variant::InjectPackerBug => "inject_packer_bug",
            Variant::FrontEnd => "fe",
            Variant::FeMutant(_) => mutants::FE_MODEL,
            Variant::FeCoverage => coverage::FE_MODEL,
        }
    }

    /// Whether this build counts code-coverage points ([`coverage`]).
    pub fn has_coverage(self) -> bool {
        matches!(self, Variant::FeCoverage)
    }

    /// The coverage build of the same RTL: the build itself when it has coverage, `cov_fe`
    /// for `default` and `fe` (the front end; lockstep does not drive the SH stage), `None` for an
    /// injected-bug or mutant build (no coverage build of those).
    pub fn coverage_build(self) -> Option<Variant> {
        match self {
            Variant::Default | Variant::FrontEnd | Variant::FeCoverage => Some(Variant::FeCoverage),
            _ => None,
        }
    }

    /// The build that runs the front end of this one: [`Variant::FrontEnd`] for
    /// [`Variant::Default`] (the same RTL and `PICA_RTL_DEFINES` without the SH stage), every
    /// other build itself (each is a front-end build already). The front-end lockstep never
    /// drives the SH stage (the model runs with its pipeline off, so no draw reaches the shader
    /// units, and REGS' configuration beats into them are never waited on: `pica_sh` always
    /// takes them), so both builds give the same beats, outcome and state, and the one without
    /// the four idle shader units clocks a few times faster.
    pub fn front_end(self) -> Variant {
        match self {
            Variant::Default => Variant::FrontEnd,
            v => v,
        }
    }

    /// Whether [`Rtl::state`] can copy this build's state out in one call. A mutant model is
    /// a flattened Yosys netlist without REGS' arrays: read its state through the debug port
    /// ([`RtlGpu::debug_dump`]).
    pub fn has_direct_state(self) -> bool {
        !matches!(self, Variant::FeMutant(_))
    }

    /// The variant as reports name it: [`Variant::name`], and for `default` built with
    /// `PICA_RTL_DEFINES` its defines too (`default[INJECT_MASK_BUG]`), so that a report never
    /// calls a build with an injected define "default".
    pub fn label(self) -> String {
        self.label_with(&default_defines())
    }

    /// [`Variant::label`] for a default build with `defines` (comma- or space-separated).
    pub fn label_with(self, defines: &str) -> String {
        let d: Vec<&str> = defines
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|d| !d.is_empty())
            .collect();
        match self {
            Variant::Default | Variant::FrontEnd | Variant::FeCoverage if !d.is_empty() => {
                format!("{}[{}]", self.name(), d.join(","))
            }
            Variant::FeMutant(n) => format!("{}#{n}", self.name()),
            _ => self.name().to_string(),
        }
    }

    /// The variant called `name` (`default`, `inject_mask_bug`, `mask`, `packer`, ...,
    /// `fe_mut#N` for front-end mutant N, `cov_fe`).
    pub fn from_name(name: &str) -> Option<Variant> {
        let n = name.to_ascii_lowercase().replace('-', "_");
        if n == coverage::FE_MODEL {
            return Some(Variant::FeCoverage);
        }
        if let Some(k) = n.strip_prefix(&format!("{}#", mutants::FE_MODEL)) {
            return k.parse().ok().map(Variant::FeMutant);
        }
        Variant::ALL.into_iter().find(|v| {
            v.name() == n
                || v.name() == format!("inject_{n}_bug")
                || v.name() == format!("inject_{n}")
        })
    }
}

/// The defines the default variant was built with (from `PICA_RTL_DEFINES`), empty if none.
pub fn default_defines() -> String {
    ffi::default_defines()
}

/// One Verilated `pica_top`.
#[derive(Debug)]
pub struct Rtl {
    handle: ffi::Handle,
    variant: Variant,
    tracing: bool,
}

crate::kit::handle::coverage_methods!(Rtl, "`cov_fe`, [`Variant::FeCoverage`]", handle);

impl Rtl {
    /// Names of the `pica_top` builds compiled into this binary (a lean build has only `fe`).
    pub fn variants() -> Vec<String> {
        ffi::variant_names()
    }

    /// The default variant, in reset (call [`Rtl::reset`] before use, or use [`RtlGpu`]).
    pub fn new() -> Result<Self, RtlError> {
        Self::with_variant(Variant::Default)
    }

    /// A model of `variant`.
    pub fn with_variant(variant: Variant) -> Result<Self, RtlError> {
        let names = ffi::variant_names();
        let index = names
            .iter()
            .position(|n| n == variant.name())
            .ok_or_else(|| RtlError::MissingVariant(variant.name(), names.join(", ")))?;
        let mut handle = ffi::Handle::new(index).ok_or(RtlError::Create(variant.name()))?;
        if let Variant::FeMutant(n) = variant {
            if !handle.set_mutant(u32::from(n)) {
                return Err(RtlError::Mutant(variant.name(), n));
            }
        }
        Ok(Self {
            handle,
            variant,
            tracing: false,
        })
    }

    /// Which build this is.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Applies `inp` (the clock stays where it is), settles the logic and returns the outputs.
    pub fn eval(&mut self, inp: &PicaIn) -> PicaOut {
        self.handle.eval(inp)
    }

    /// One full clock period (rising then falling edge) with the inputs last applied.
    pub fn clock(&mut self) {
        self.handle.clock();
    }

    /// Holds reset for two clock periods and releases it; the next clock period is cycle 0.
    pub fn reset(&mut self) {
        let mut inp = PicaIn::default();
        self.eval(&inp);
        self.clock();
        self.clock();
        inp.rst_n = 1;
        self.eval(&inp);
    }

    /// Starts writing a VCD of every following clock edge to `path` (replacing an open one).
    pub fn trace_vcd(&mut self, path: &Path) -> Result<(), RtlError> {
        let p = path.to_string_lossy().into_owned();
        if !self.handle.trace_open(&p) {
            return Err(RtlError::Trace(p));
        }
        self.tracing = true;
        Ok(())
    }

    /// Stops tracing and closes the VCD, if one is open.
    pub fn trace_off(&mut self) {
        if self.tracing {
            self.handle.trace_close();
            self.tracing = false;
        }
    }

    /// Whether a VCD is being written.
    pub fn is_tracing(&self) -> bool {
        self.tracing
    }

    /// REGS' whole state as it stands now, copied out of the model in one call (no clock, no
    /// input changed); [`RegsState::debug_read`] gives what the debug port would read.
    pub fn state(&mut self) -> RegsState {
        let mut raw = ffi::PicaState::boxed();
        self.handle.state_read(&mut raw);
        RegsState::new(raw)
    }
}

/// Hang reason codes of `hang_reason_o` (rtl-bridge/rtl/README.md).
pub mod hang_code {
    /// The list ended without FINALIZE.
    pub const MISSING_FINALIZE: u8 = 1;
    /// A command ran past the end of its buffer.
    pub const COMMAND_PAST_END: u8 = 2;
    /// A command fetch from unmapped memory.
    pub const FETCH_UNMAPPED: u8 = 3;
}

/// What the RTL showed in one cycle (sampled before the clock edge that ends it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleView {
    /// The cycle number (0 = first cycle after reset).
    pub cycle: u64,
    /// The register-write beat on the trace port, if any.
    pub beat: Option<RegWriteBeat>,
    /// `finished_o`.
    pub finished: bool,
    /// `hang_o` with `hang_reason_o` when high.
    pub hang: Option<u8>,
    /// `idle_o`.
    pub idle: bool,
}

impl CycleView {
    /// Whether the run is over: finished, or hung with nothing left in flight (the model's rule
    /// for reporting an outcome).
    pub fn done(&self) -> bool {
        self.finished || (self.hang.is_some() && self.idle)
    }
}

/// How an RTL run ended, in the model's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtlOutcome {
    /// `finished_o` first rose in cycle `cycles` (= the model's `Finished { cycles }`).
    Finished {
        /// The cycle.
        cycles: u64,
    },
    /// `hang_o` first rose in cycle `cycle + 1` (= the model's `Hang { cycle }`).
    Hang {
        /// The cycle the hang was detected in.
        cycle: u64,
        /// `hang_reason_o`.
        code: u8,
    },
    /// Still running after the cycle limit.
    CycleLimit {
        /// Cycles run.
        cycles: u64,
    },
}

/// Drives a [`Rtl`] through submitted command lists, cycle by cycle (the first at
/// [`RtlGpu::new`], each further one with [`RtlGpu::submit`] once the previous finished).
#[derive(Debug)]
pub struct RtlGpu {
    rtl: Rtl,
    mem: Memory,
    stream: Vec<u32>,
    next: usize,
    cycle: u64,
    inp: PicaIn,
    view: Option<(PicaOut, CycleView)>,
    hang_seen: Option<(u64, u8)>,
    beats: Vec<RegWriteBeat>,
    /// The SH ports' transactions.
    sh: ShProtocol,
    /// GEOSTAGE_CONFIG as the RTL's own trace port last wrote it (keys GS commits).
    geostage: u32,
}

impl RtlGpu {
    /// Resets `rtl` and submits the list at `addr` of `size` bytes from `mem`: the words of
    /// `size & !0xF` bytes (the 16-byte rule, as the model's CP applies it) go to the command
    /// stream; CMDBUF jumps are served from `mem`. Unreadable words stream as 0 — the model
    /// refuses such a submission, so callers check with `Gpu::submit` first.
    pub fn new(mut rtl: Rtl, mem: Memory, addr: u32, size: u32) -> Self {
        let words = (size & !0xF) / 4;
        let stream = (0..words)
            .map(|i| mem.read_u32(addr.wrapping_add(i * 4)).unwrap_or(0))
            .collect();
        rtl.reset();
        Self {
            rtl,
            mem,
            stream,
            next: 0,
            cycle: 0,
            inp: PicaIn {
                rst_n: 1,
                ..PicaIn::default()
            },
            view: None,
            hang_seen: None,
            beats: Vec::new(),
            sh: ShProtocol::default(),
            geostage: 0,
        }
    }

    /// Submits the next list, as the model's `Gpu::submit` after the previous one finished:
    /// the words of `size & !0xF` bytes at `addr` (read from the memory as it stands now, fills
    /// included) become the command stream, and `cmd_kick_i` is high for the current cycle, so
    /// the CP reads the first word in this cycle (the RTL ignores a kick unless its CP is Done:
    /// call it in a cycle whose outcome is finished). Unreadable words stream as 0, as in
    /// [`RtlGpu::new`].
    pub fn submit(&mut self, addr: u32, size: u32) {
        let words = (size & !0xF) / 4;
        self.stream = (0..words)
            .map(|i| self.mem.read_u32(addr.wrapping_add(i * 4)).unwrap_or(0))
            .collect();
        self.next = 0;
        self.inp.kick = 1;
        self.view = None;
    }

    /// The memory the bridge serves (CMDBUF jumps read it; a memory fill between submissions
    /// writes it, as on the model's side).
    pub fn mem_mut(&mut self) -> &mut Memory {
        &mut self.mem
    }

    /// Sets `hold_i` for the current cycle: the pipeline after REGS is busy with earlier work
    /// and REGS applies nothing (the model's `Gpu::step` hold). Off unless set.
    pub fn set_hold(&mut self, hold: bool) {
        if self.inp.hold != u32::from(hold) {
            self.inp.hold = u32::from(hold);
            self.view = None;
        }
    }

    /// Sets the SH output port's `sh_out_ready_i` for the current cycle (on unless set).
    pub fn set_sh_out_ready(&mut self, ready: bool) {
        if self.inp.sh.out_ready != u32::from(ready) {
            self.inp.sh.out_ready = u32::from(ready);
            self.view = None;
        }
    }

    /// Whether the SH vertex input can take a new vertex this cycle: no earlier vertex's beats
    /// are waiting and `sh_in_ready_o` is high.
    pub fn sh_can_accept(&mut self) -> bool {
        !self.sh.has_pending_input() && self.settled().sh.in_ready != 0
    }

    /// Queues one vertex for the SH input port (one attribute per beat, as [`RtlSh`] sends
    /// them); its beats go in over the next clocks as `sh_in_ready_o` allows.
    pub fn sh_push_vertex(&mut self, v: &VertexIn) {
        self.sh.push_vertex(v);
        self.view = None;
    }

    /// Queues one item of VL's link for the SH input port: a vertex as
    /// [`RtlGpu::sh_push_vertex`], a GS marker as one beat ([`RtlSh::push`]).
    pub fn sh_push(&mut self, item: &ShIn) {
        self.sh.push(item);
        self.view = None;
    }

    /// The SH output items (assembled from their beats), commit beats and hang of the clocks
    /// since the last call; a commit's `cycle` is the RTL cycle it left in.
    pub fn take_sh(&mut self) -> ShTick {
        self.sh.take()
    }

    /// Whether nothing is in flight in the SH stage: no vertex beats waiting, `sh_idle_o`, no
    /// output item half sent, no commit not yet taken.
    pub fn sh_is_idle(&mut self) -> bool {
        let idle = self.settled().sh.idle != 0;
        self.sh.is_idle(idle)
    }

    /// The settled outputs of the current cycle.
    fn settled(&mut self) -> PicaOut {
        self.view();
        self.view.map(|(o, _)| o).unwrap_or_default()
    }

    /// The current cycle.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The underlying model (for tracing).
    pub fn rtl_mut(&mut self) -> &mut Rtl {
        &mut self.rtl
    }

    /// Beats collected so far (in order).
    pub fn beats(&self) -> &[RegWriteBeat] {
        &self.beats
    }

    /// Settles the current cycle's logic (stream and memory port answered) and returns what the
    /// ports show. Idempotent within a cycle.
    pub fn view(&mut self) -> CycleView {
        if let Some((_, v)) = self.view {
            return v;
        }
        let have = self.next < self.stream.len();
        self.inp.cmd_valid = u32::from(have);
        self.inp.cmd_data = self.stream.get(self.next).copied().unwrap_or(0);
        self.inp.cmd_end = u32::from(!have);
        self.inp.dbg_req = 0;
        self.sh.drive(&mut self.inp.sh);
        self.inp.mem_rdata = 0;
        self.inp.mem_err = 0;
        let mut out = self.rtl.eval(&self.inp);
        if out.mem_req != 0 {
            // The memory port is combinational (an async-read SRAM): answer in the same cycle.
            match self.mem.read_u32(out.mem_addr) {
                Ok(w) => self.inp.mem_rdata = w,
                Err(_) => self.inp.mem_err = 1,
            }
            out = self.rtl.eval(&self.inp);
        }
        let beat = (out.trace_rw_valid != 0).then_some(RegWriteBeat {
            cycle: self.cycle,
            id: out.trace_rw_id,
            mask: (out.trace_rw_mask & 0xF) as u8,
            param: out.trace_rw_param,
            value: out.trace_rw_value,
        });
        let view = CycleView {
            cycle: self.cycle,
            beat,
            finished: out.finished != 0,
            hang: (out.hang != 0).then_some((out.hang_reason & 0xF) as u8),
            idle: out.idle != 0,
        };
        if let (Some(code), None) = (view.hang, self.hang_seen) {
            self.hang_seen = Some((self.cycle, code));
        }
        self.view = Some((out, view));
        view
    }

    /// Ends the current cycle: settles it if needed, records its beat and the SH ports'
    /// transactions, and clocks.
    pub fn clock(&mut self) -> CycleView {
        let v = self.view();
        if let Some((out, _)) = self.view.take() {
            if out.cmd_ready != 0 && self.inp.cmd_valid != 0 {
                self.next += 1;
            }
            let gs = self.geostage & 3 == 2;
            self.sh.sample(self.cycle, &self.inp.sh, &out.sh, gs);
        }
        if let Some(b) = v.beat {
            self.beats.push(b);
            if b.id == u32::from(id::GEOSTAGE_CONFIG) {
                self.geostage = b.value;
            }
        }
        self.rtl.clock();
        self.cycle += 1;
        // A kick lasts one cycle.
        self.inp.kick = 0;
        v
    }

    /// The outcome if the run is over in the current cycle (none in the cycle of a
    /// [`RtlGpu::submit`]: the next list starts in it).
    pub fn outcome(&mut self) -> Option<RtlOutcome> {
        let v = self.view();
        if v.finished {
            return (self.inp.kick == 0).then_some(RtlOutcome::Finished { cycles: v.cycle });
        }
        if v.done() {
            let (first, code) = self.hang_seen.unwrap_or((v.cycle, v.hang.unwrap_or(0)));
            return Some(RtlOutcome::Hang {
                cycle: first.saturating_sub(1),
                code,
            });
        }
        None
    }

    /// Clocks until the run is over or `max_cycles` cycles have run.
    pub fn run(&mut self, max_cycles: u64) -> RtlOutcome {
        loop {
            if let Some(o) = self.outcome() {
                return o;
            }
            if self.cycle >= max_cycles {
                return RtlOutcome::CycleLimit { cycles: self.cycle };
            }
            self.clock();
        }
    }

    /// Reads `addrs` through the debug port (one word per cycle, pipelined). Call after the
    /// run: it clocks the design with the command stream ended (and the memory port
    /// unanswered), so only a run that is over (finished, or hung and idle) reads the state it
    /// ended with. [`RtlGpu::state_read`] gives the same words without a clock; this one is
    /// what a bench without access to the simulator's internals can do, and is kept verified
    /// against it (tests/state.rs).
    pub fn debug_read(&mut self, addrs: &[u16]) -> Vec<u32> {
        self.view = None;
        let mut inp = PicaIn {
            rst_n: 1,
            cmd_end: 1,
            ..PicaIn::default()
        };
        let mut out = Vec::with_capacity(addrs.len());
        for (i, &a) in addrs.iter().enumerate() {
            inp.dbg_req = 1;
            inp.dbg_addr = u32::from(a);
            let o = self.rtl.eval(&inp);
            if i > 0 {
                out.push(o.dbg_rdata);
            }
            self.rtl.clock();
        }
        if !addrs.is_empty() {
            inp.dbg_req = 0;
            out.push(self.rtl.eval(&inp).dbg_rdata);
        }
        out
    }

    /// The whole debug map as `(address, word)`, in the order of
    /// [`pica_model::regfile::debug::debug_addresses`], through the debug port (26,486 clocks).
    pub fn debug_dump(&mut self) -> Vec<(u16, u32)> {
        let addrs: Vec<u16> = debug::debug_addresses().collect();
        let words = self.debug_read(&addrs);
        addrs.into_iter().zip(words).collect()
    }

    /// REGS' state as it stands now, copied out of the model in one call ([`Rtl::state`]).
    pub fn state(&mut self) -> RegsState {
        self.rtl.state()
    }

    /// Reads `addrs` of the debug map straight out of the model: the words
    /// [`RtlGpu::debug_read`] gives after a run, without clocking (so the cycle count, the
    /// beats and the state do not move).
    pub fn state_read(&mut self, addrs: &[u16]) -> Vec<u32> {
        self.state().read(addrs)
    }

    /// The whole debug map as `(address, word)` straight out of the model: equal to
    /// [`RtlGpu::debug_dump`] word for word after a run, in one call instead of one clock per
    /// word. Lockstep's final-state comparison uses this.
    pub fn state_dump(&mut self) -> Vec<(u16, u32)> {
        self.state().dump()
    }
}
