//! The FOP-stage RTL: one Verilated `pica_fop_top` (`rtl/pica_fop*.sv`: alpha, stencil and
//! depth tests, blending and logic ops, the gas and shadow modes, the framebuffer formats and
//! tilings), driven with the same transactions as the model's
//! [`pica_model::fop::process_fragment`], its memory port served from a
//! [`pica_model::Memory`].
//!
//! - [`RtlFop::sync_config`] writes the FOP registers ([`CONFIG_REGS`]) that changed, one per
//!   clock, after the fragments already pushed have finished (the model applies register
//!   writes between fragments);
//! - [`RtlFop::push`] queues a fragment ([`FopFragment`]: what FOG hands FOP, plus a tag that
//!   comes back with the beat);
//! - [`RtlFop::tick`] is one clock: the head of the queue goes in when the input port is
//!   ready, the memory port is served, and the pixel beat that left the output port in that
//!   clock (the consumer's `ready` is the `out_ready` argument) comes back as a [`FopResult`].
//!
//! # The memory port
//!
//! A request is performed on the [`Memory`] in the clock its handshake happens (`valid` and
//! `ready` high at the clock edge): a write changes the bytes its byte enables select, a read
//! takes the whole word. Either answers `err` when the word is not mapped
//! ([`Memory::region_of`]), and a write with `err` changes nothing. The response is offered
//! ([`MemLatency`]) the clock after the handshake at the earliest, in request order, and held
//! until the RTL takes it. Under [`MemLatency::Random`] each request's extra latency is drawn
//! from the seeded generator, and the request side is held not-ready one clock in five.
//!
//! The bridge checks the protocol the contract promises (4-aligned addresses, no request after
//! the hang, no response taken that was not offered...) and lists what it saw broken in
//! [`RtlFop::violations`].
//!
//! The comparison with the model is transaction-exact: the same beats (every field but
//! `cycle`), the same hang and the same memory. `tests/fop_stage.rs` runs random cases
//! (`pica_vectors::stage_fop::FopGen`) through both.
//!
//! ```no_run
//! # use pica_rtl_bridge::fop_stage::{FopFragment, FopVariant, MemLatency, RtlFop};
//! # use pica_model::{regfile::RegFile, Memory};
//! let regs = RegFile::new();
//! let mut mem = Memory::new();
//! let mut fop = RtlFop::new(FopVariant::Default, MemLatency::Fixed(3))?;
//! fop.sync_config(&regs, &mut mem);
//! let (beats, hang) = fop.run(&[FopFragment::default()], &mut mem);
//! println!("{:?} {hang:?}", beats[0].beat);
//! # Ok::<(), pica_rtl_bridge::RtlError>(())
//! ```

use crate::error::RtlError;
use crate::kit::abi::fop::{PicaFop, PicaFopIn, PicaFopOut, FNS};
use crate::kit::core::Core;
pub use crate::kit::side::MemLatency;
use crate::kit::side::SideServer;
use pica_model::beat::PixelBeat;
use pica_model::fop::{config_words, FopHang, CONFIG_REGS};
use pica_model::mem::Memory;
use pica_model::regfile::RegFile;
use std::collections::VecDeque;
use std::fmt;
use std::path::Path;

/// A build of the FOP stage: the RTL as written or with one injected bug (each its own
/// Verilated model, rows `fop*` of build.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FopVariant {
    /// The RTL as written (plus any `PICA_RTL_DEFINES` given at build time).
    #[default]
    Default,
    /// `INJECT_FOP_BLEND_FACTOR`: the blend factor ONE_MINUS_SRC_ALPHA uses the destination
    /// alpha.
    InjectBlendFactor,
    /// `INJECT_FOP_STENCIL_ZFAIL`: stencil pass with depth fail runs the z-pass action.
    InjectStencilZfail,
    /// `INJECT_FOP_TILE32`: an off-by-one in the 32×32 block tiling address.
    InjectTile32,
    /// Mutant `k` of the stage's mutant model (`fop_mut`: Yosys mutations of the stage top,
    /// [`crate::mutants`]; 0 = the unmutated netlist). Not in [`FopVariant::ALL`].
    Mutant(u16),
    /// The RTL as written (plus any `PICA_RTL_DEFINES`), verilated with `--coverage` (`cov_fop`,
    /// [`crate::coverage`]): slower, and its code-coverage counters can be read
    /// ([`RtlFop::coverage`]). Not in [`FopVariant::ALL`].
    Coverage,
}

impl FopVariant {
    /// The mutant number of a [`FopVariant::Mutant`].
    pub fn mutant(self) -> Option<u16> {
        match self {
            FopVariant::Mutant(k) => Some(k),
            _ => None,
        }
    }

    /// Every variant, in build order.
    pub const ALL: [FopVariant; 4] = [
        FopVariant::Default,
        FopVariant::InjectBlendFactor,
        FopVariant::InjectStencilZfail,
        FopVariant::InjectTile32,
    ];

    /// The variant's name as the shim reports it.
    pub fn name(self) -> &'static str {
        match self {
            FopVariant::Default => "default",
            FopVariant::InjectBlendFactor => "inject_fop_blend_factor",
            FopVariant::InjectStencilZfail => "inject_fop_stencil_zfail",
            FopVariant::InjectTile32 => "inject_fop_tile32",
            FopVariant::Mutant(_) => crate::mutants::FOP_MODEL,
            FopVariant::Coverage => crate::kit::desc::FOP.coverage.unwrap_or_default(),
        }
    }

    /// The define that injects the variant's bug (`None` for the default build).
    pub fn define(self) -> Option<&'static str> {
        match self {
            FopVariant::Default | FopVariant::Mutant(_) | FopVariant::Coverage => None,
            FopVariant::InjectBlendFactor => Some("INJECT_FOP_BLEND_FACTOR"),
            FopVariant::InjectStencilZfail => Some("INJECT_FOP_STENCIL_ZFAIL"),
            FopVariant::InjectTile32 => Some("INJECT_FOP_TILE32"),
        }
    }

    /// The variant called `name`: its full name (`inject_fop_tile32`), the name without
    /// `inject_fop_` (`tile32`, `blend_factor`, `stencil_zfail`), or its define; `-` and `_`
    /// alike, any case; `{model}#K` (`fop_mut#12`): mutant K of the stage's mutant model.
    pub fn from_name(name: &str) -> Option<FopVariant> {
        if let Some(k) = crate::mutants::parse_mutant(name, crate::mutants::FOP_MODEL) {
            return Some(FopVariant::Mutant(k));
        }
        let n = name.to_ascii_lowercase().replace('-', "_");
        FopVariant::ALL.into_iter().find(|v| {
            v.name() == n
                || v.name() == format!("inject_fop_{n}")
                || v.define().is_some_and(|d| d.eq_ignore_ascii_case(&n))
        })
    }
}

impl fmt::Display for FopVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Number of configuration registers FOP reads (= [`CONFIG_REGS`]`.len()`).
pub const NUM_CFG: usize = CONFIG_REGS.len();

/// One fragment into the stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FopFragment {
    /// Passed through unchanged to the beat's result.
    pub tag: u32,
    /// Pixel x.
    pub x: u16,
    /// Pixel y (window coordinates).
    pub y: u16,
    /// Depth (`pica_model::pipe::Fragment::depth`; the port takes the low 24 bits).
    pub depth: u32,
    /// The combiner output after fog, `[r, g, b, a]`.
    pub color: [u8; 4],
}

/// One pixel beat out of the stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FopResult {
    /// The fragment's tag.
    pub tag: u32,
    /// The beat as the model records it, `cycle` 0 (the stage promises transactions).
    pub beat: PixelBeat,
}

/// A response the memory owes the RTL.
#[derive(Clone, Copy, Debug)]
struct MemRsp {
    rdata: u32,
    err: bool,
}

/// Clocks without any handshake on any port after which [`RtlFop::run`] and the drain of
/// [`RtlFop::sync_config`] give up (the RTL is stuck; recorded in [`RtlFop::violations`]).
pub const WATCHDOG_CLOCKS: u64 = 20_000;

/// One Verilated FOP stage (`pica_fop_top`) with its memory port served by the bridge.
#[derive(Debug)]
pub struct RtlFop {
    core: Core<PicaFopIn, PicaFopOut, PicaFop>,
    variant: FopVariant,
    latency: MemLatency,
    /// The configuration words the RTL holds (`None`: not written since reset).
    shadow: Option<[u32; NUM_CFG]>,
    queue: VecDeque<FopFragment>,
    /// Results that left while [`RtlFop::sync_config`] drained the stage, handed out first.
    stash: VecDeque<FopResult>,
    in_flight: usize,
    /// The memory port's owed responses and latency.
    rsp: SideServer<MemRsp>,
    reads: u64,
    writes: u64,
    /// The outputs after the last clock.
    last: PicaFopOut,
    hang: Option<FopHang>,
    violations: Vec<String>,
}

crate::kit::handle::coverage_methods!(RtlFop, "`cov_fop`, [`FopVariant::Coverage`]", core.handle);

impl RtlFop {
    /// Names of the FOP variants compiled into this build.
    pub fn variants() -> Vec<String> {
        Core::variants(&FNS)
    }

    /// A new stage of `variant`, reset, whose memory port answers with `latency`.
    pub fn new(variant: FopVariant, latency: MemLatency) -> Result<Self, RtlError> {
        let mut core = Core::open(&FNS, variant.name(), variant.mutant())?;
        let last = core.peek();
        Ok(Self {
            core,
            variant,
            latency,
            shadow: None,
            queue: VecDeque::new(),
            stash: VecDeque::new(),
            in_flight: 0,
            rsp: SideServer::new(latency),
            reads: 0,
            writes: 0,
            last,
            hang: None,
            violations: Vec::new(),
        })
    }

    /// Which build this is.
    pub fn variant(&self) -> FopVariant {
        self.variant
    }

    /// How the memory port is answered.
    pub fn latency(&self) -> MemLatency {
        self.latency
    }

    /// Clocks run since reset.
    pub fn cycles(&self) -> u64 {
        self.core.cycles()
    }

    /// Memory requests performed so far: (reads, including byte-enable-0 probes; writes).
    pub fn mem_stats(&self) -> (u64, u64) {
        (self.reads, self.writes)
    }

    /// Protocol breaches the bridge saw (empty for an RTL that keeps the contract).
    pub fn violations(&self) -> &[String] {
        &self.violations
    }

    /// The hang the RTL reports (`hang_o`), as the model's [`FopHang`].
    pub fn hang(&self) -> Option<FopHang> {
        self.hang.clone()
    }

    /// Nothing queued, in flight, waiting to be handed out or owed by the memory, and the RTL
    /// reports `idle_o`.
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty()
            && self.in_flight == 0
            && self.stash.is_empty()
            && self.rsp.is_empty()
            && self.last.idle != 0
    }

    /// Whether the input side is free: nothing queued that has not yet entered the stage.
    pub fn can_accept(&self) -> bool {
        self.queue.is_empty()
    }

    /// Fragments pushed but not yet handed out by [`RtlFop::tick`] (after a hang the hanging
    /// fragment stays counted: it never leaves).
    pub fn pending(&self) -> usize {
        self.queue.len() + self.in_flight + self.stash.len()
    }

    /// Makes the RTL's FOP registers equal to `regs`' ([`config_words`]). If any differs,
    /// first finishes every fragment already pushed with the old configuration (their results
    /// come out of the following [`RtlFop::tick`]s; `mem` serves their memory requests), then
    /// writes the differing registers, one per clock. After a hang nothing is written.
    pub fn sync_config(&mut self, regs: &RegFile, mem: &mut Memory) {
        self.set_config(&config_words(regs), mem);
    }

    /// [`RtlFop::sync_config`] from the words directly ([`CONFIG_REGS`] order).
    pub fn set_config(&mut self, words: &[u32; NUM_CFG], mem: &mut Memory) {
        if self.shadow.as_ref() == Some(words) {
            return;
        }
        if !self.drain(mem) {
            return;
        }
        for (slot, &w) in words.iter().enumerate() {
            if self.shadow.is_some_and(|s| s[slot] == w) {
                continue;
            }
            self.cfg_write(CONFIG_REGS[slot], w);
        }
        self.shadow = Some(*words);
    }

    /// Writes register `id` (any ID: the RTL must ignore those outside [`CONFIG_REGS`]) with
    /// the full value `value`, after draining like [`RtlFop::sync_config`]; the configuration
    /// [`RtlFop::sync_config`] compares with follows. Nothing is written after a hang.
    pub fn write_reg(&mut self, id: u16, value: u32, mem: &mut Memory) {
        if !self.drain(mem) {
            return;
        }
        self.cfg_write(id, value);
        // Before the first sync not every register is known: that sync writes them all.
        if let (Some(slot), Some(s)) = (
            CONFIG_REGS.iter().position(|&r| r == id & 0x3FF),
            self.shadow.as_mut(),
        ) {
            s[slot] = value;
        }
    }

    /// Queues `f`; it enters the stage in a later [`RtlFop::tick`].
    pub fn push(&mut self, f: FopFragment) {
        self.queue.push_back(f);
    }

    /// One clock: serves the memory port from `mem` (a request is performed on `mem` in the
    /// clock it is accepted — writes change `mem` then, reads take their data then — and
    /// answered after the latency), feeds the head of the queue, and returns the beat taken in
    /// this clock (`out_ready`: the consumer's ready). Results stashed by
    /// [`RtlFop::sync_config`] come first, one per tick.
    pub fn tick(&mut self, mem: &mut Memory, out_ready: bool) -> Option<FopResult> {
        if out_ready {
            if let Some(r) = self.stash.pop_front() {
                // The stage still advances by one clock (output held) so time moves on.
                let _ = self.step(mem, false);
                return Some(r);
            }
        }
        self.step(mem, out_ready).0
    }

    /// Pushes every fragment of `frags`, clocks (output always ready) until every beat is out
    /// or the stage hangs, and returns the beats in order (plus any pending from before) and
    /// the hang. Gives up after [`WATCHDOG_CLOCKS`] clocks without a handshake (recorded in
    /// [`RtlFop::violations`]).
    pub fn run(
        &mut self,
        frags: &[FopFragment],
        mem: &mut Memory,
    ) -> (Vec<FopResult>, Option<FopHang>) {
        for f in frags {
            self.push(*f);
        }
        let mut out = Vec::with_capacity(self.pending());
        let mut quiet = 0u64;
        while self.pending() > 0 {
            if self.hang.is_some() && self.stash.is_empty() && self.last.out_valid == 0 {
                break;
            }
            let (r, moved) = match self.stash.pop_front() {
                Some(r) => {
                    let _ = self.step(mem, false);
                    (Some(r), true)
                }
                None => self.step(mem, true),
            };
            if let Some(r) = r {
                out.push(r);
            }
            quiet = if moved { 0 } else { quiet + 1 };
            if quiet > WATCHDOG_CLOCKS {
                self.violate(format!(
                    "no handshake for {WATCHDOG_CLOCKS} clocks with {} fragments pending",
                    self.pending()
                ));
                break;
            }
        }
        (out, self.hang())
    }

    /// Starts writing a VCD of every following clock edge to `path`.
    pub fn trace_vcd(&mut self, path: &Path) -> Result<(), RtlError> {
        self.core.trace_vcd(path)
    }

    /// Stops tracing and closes the VCD, if one is open.
    pub fn trace_off(&mut self) {
        self.core.trace_off();
    }

    fn violate(&mut self, what: String) {
        // Keep the list short: the first breaches say what is wrong.
        if self.violations.len() < 32 {
            self.violations
                .push(format!("clock {}: {what}", self.core.cycles()));
        }
    }

    /// Clocks until nothing is queued, in flight or owed and the RTL is idle; the beats that
    /// leave go to the stash. `false` if the stage hung (or got stuck) instead.
    fn drain(&mut self, mem: &mut Memory) -> bool {
        let mut quiet = 0u64;
        while self.hang.is_none()
            && (!self.queue.is_empty()
                || self.in_flight > 0
                || !self.rsp.is_empty()
                || self.last.idle == 0)
        {
            let (r, moved) = self.step(mem, true);
            if let Some(r) = r {
                self.stash.push_back(r);
            }
            quiet = if moved { 0 } else { quiet + 1 };
            if quiet > WATCHDOG_CLOCKS {
                self.violate(format!(
                    "not idle after {WATCHDOG_CLOCKS} clocks without a handshake \
                     ({} fragments in flight)",
                    self.in_flight
                ));
                return false;
            }
        }
        self.hang.is_none()
    }

    /// One register-write clock (the stage is idle: nothing else moves).
    fn cfg_write(&mut self, id: u16, value: u32) {
        let inp = PicaFopIn {
            cfg_we: 1,
            cfg_id: u32::from(id & 0x3FF),
            cfg_data: value,
            out_ready: 1,
            ..Default::default()
        };
        let o = self.core.eval(&inp);
        if o.mem_req_valid != 0 || o.out_valid != 0 {
            self.violate(format!(
                "memory request or beat while idle (register 0x{id:03x} written)"
            ));
        }
        self.clock();
    }

    fn clock(&mut self) {
        self.last = self.core.clock();
        if self.last.hang != 0 && self.hang.is_none() {
            let o = self.last;
            let buffer = if o.hang_buffer & 1 != 0 {
                "depth"
            } else {
                "color"
            };
            self.hang = Some(match o.hang_kind & 3 {
                2 => FopHang::ReservedFormat {
                    buffer,
                    value: o.hang_value & 7,
                },
                1 => FopHang::Unmapped {
                    buffer,
                    addr: o.hang_addr,
                },
                k => {
                    self.violate(format!("hang_o with hang_kind_o = {k}"));
                    FopHang::Unmapped {
                        buffer,
                        addr: o.hang_addr,
                    }
                }
            });
        } else if self.last.hang == 0 && self.hang.is_some() {
            self.violate("hang_o fell (it must stay up)".into());
        }
    }

    /// Performs an accepted memory request on `mem`; returns the response.
    fn perform(&mut self, mem: &mut Memory, o: &PicaFopOut) -> (u32, bool) {
        let mut addr = o.mem_req_addr;
        if addr & 3 != 0 {
            self.violate(format!(
                "memory request address 0x{addr:08x} is not 4-aligned"
            ));
            addr &= !3;
        }
        let mapped = Memory::region_of(addr, 4).is_some();
        if o.mem_req_we != 0 {
            self.writes += 1;
            if mapped {
                let bytes = o.mem_req_wdata.to_le_bytes();
                for (n, b) in bytes.iter().enumerate() {
                    if o.mem_req_be & (1 << n) != 0 {
                        // Mapped (checked above): cannot fail.
                        let _ = mem.write_bytes(addr + n as u32, &[*b]);
                    }
                }
            }
            (0, !mapped)
        } else {
            self.reads += 1;
            (mem.read_u32(addr).unwrap_or(0), !mapped)
        }
    }

    /// One clock driving the head of the queue and the memory port; returns the beat taken in
    /// it and whether any handshake happened.
    fn step(&mut self, mem: &mut Memory, out_ready: bool) -> (Option<FopResult>, bool) {
        let now = self.core.cycles();
        let head = if self.hang.is_none() {
            self.queue.front().copied()
        } else {
            None
        };
        let mut inp = PicaFopIn {
            out_ready: u32::from(out_ready),
            mem_req_ready: 1,
            ..Default::default()
        };
        if let Some(f) = head {
            inp.in_valid = 1;
            inp.in_tag = f.tag;
            inp.in_x = u32::from(f.x);
            inp.in_y = u32::from(f.y);
            inp.in_depth = f.depth & 0xFF_FFFF;
            inp.in_color = u32::from_le_bytes(f.color);
        }
        if let Some(r) = self.rsp.offer(now) {
            inp.mem_rsp_valid = 1;
            inp.mem_rsp_rdata = r.rdata;
            inp.mem_rsp_err = u32::from(r.err);
        }
        inp.mem_req_ready = u32::from(self.rsp.request_ready());
        let o = self.core.eval(&inp);
        let mut moved = false;
        if head.is_some() && o.in_ready != 0 {
            self.queue.pop_front();
            self.in_flight += 1;
            moved = true;
        }
        let result = (o.out_valid != 0 && out_ready).then_some(FopResult {
            tag: o.out_tag,
            beat: PixelBeat {
                cycle: 0,
                x: o.out_x as u16,
                y: o.out_y as u16,
                color_addr: o.out_color_addr,
                color: o.out_color,
                depth_addr: o.out_depth_addr,
                depth_stencil: o.out_depth_stencil,
                flags: o.out_flags as u8,
            },
        });
        if result.is_some() {
            moved = true;
            if self.in_flight == 0 {
                self.violate("a pixel beat with no fragment in flight".into());
            }
            self.in_flight = self.in_flight.saturating_sub(1);
        }
        if inp.mem_rsp_valid != 0 && o.mem_rsp_ready != 0 {
            self.rsp.taken();
            moved = true;
        }
        if o.mem_req_valid != 0 && inp.mem_req_ready != 0 {
            if self.hang.is_some() {
                self.violate(format!(
                    "memory request at 0x{:08x} after the hang",
                    o.mem_req_addr
                ));
            }
            let (rdata, err) = self.perform(mem, &o);
            self.rsp.accept(now, MemRsp { rdata, err });
            moved = true;
        }
        self.clock();
        (result, moved)
    }
}
