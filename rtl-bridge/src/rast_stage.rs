//! The CLIP + RAST stage RTL: one Verilated `pica_rast_top` (`rtl/pica_clip.sv`, `pica_rast.sv`,
//! `pica_rast_top.sv`: clipping, perspective division, viewport, depth map, culling, triangle
//! setup, traversal, the fill rule, scissor, interpolation, texture-coordinate differences and
//! the early depth test), driven with the same transactions as the model's [`clip::process`]
//! and [`pica_model::rast::rasterize`], its early-depth port served from a
//! [`EarlyDepthBuffer`].
//!
//! - [`RtlRast::sync_config`] writes the stored registers ([`cfg_ids`]: CLIP's
//!   [`clip::CONFIG_REGS`], then RAST's [`rast::CONFIG_REGS`]) that changed, one per clock,
//!   after the triangles already pushed have finished (the model applies register writes
//!   between draws), then forwards the GPUREG_EARLYDEPTH_CLEAR events the register file logged
//!   since it last looked, each as a write of ID 0x063 (the RTL clears its buffer then);
//! - [`RtlRast::push`] queues a clip-space triangle;
//! - [`RtlRast::tick`] is one clock: the head of the queue goes in when the input port is
//!   ready, the early-depth port is served, and the fragment that left the output port in that
//!   clock (the consumer's `ready` is the `out_ready` argument) comes back.
//!
//! # The early-depth port
//!
//! A request is performed on the bridge's [`EarlyDepthBuffer`] in the clock its handshake
//! happens: a read (op 0) takes the pixel's stored value then, a write (op 1) stores the data
//! then, a clear (op 2) sets every pixel then. The response (the read value; 0 for a write or
//! clear) is offered ([`MemLatency`], as FOP's memory port) the clock after the handshake at
//! the earliest, in request order, and held until the RTL takes it. Under
//! [`MemLatency::Random`] each request's extra latency is drawn from the seeded generator, and
//! the request side is held not-ready one clock in five.
//!
//! The bridge checks the protocol the contract promises (no op 3, pixels inside the largest
//! framebuffer, one clear request per clear event and none otherwise, no request, fragment or
//! busy stage while a register is written) and lists what it saw broken in
//! [`RtlRast::violations`].
//!
//! The comparison with the model is transaction-exact: the same fragments in the same order
//! (every field, `tex_deriv` included) and the same early-depth buffer afterwards.
//! `tests/rast_stage.rs` runs random cases (`pica_vectors::stage_rast::RastGen`) through both.
//!
//! ```no_run
//! # use pica_rtl_bridge::rast_stage::{MemLatency, RastVariant, RtlRast};
//! # use pica_model::pipe::{OutVertex, Triangle};
//! # use pica_model::regfile::RegFile;
//! let regs = RegFile::new();
//! let mut rast = RtlRast::new(RastVariant::Default, MemLatency::Fixed(3))?;
//! rast.sync_config(&regs);
//! let frags = rast.run(&[Triangle { seq: 0, v: [OutVertex::ONES; 3] }]);
//! println!("{} fragments", frags.len());
//! # Ok::<(), pica_rtl_bridge::RtlError>(())
//! ```

use crate::error::RtlError;
use crate::kit::abi::rast::{PicaRast, PicaRastIn, PicaRastOut, FNS};
use crate::kit::core::Core;
pub use crate::kit::side::MemLatency;
use crate::kit::side::SideServer;
use pica_model::clip;
use pica_model::num::F24;
use pica_model::pipe::{Fragment, Triangle, NUM_SEMANTICS};
use pica_model::rast::{self, EarlyDepthBuffer, EARLY_DEPTH_CLEAR};
use pica_model::regfile::RegFile;
use pica_model::regs::Trigger;
use std::collections::VecDeque;
use std::fmt;
use std::path::Path;

/// A build of the CLIP + RAST stage: the RTL as written or with one injected bug (each its own
/// Verilated model, rows `rast*` of build.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RastVariant {
    /// The RTL as written (plus any `PICA_RTL_DEFINES` given at build time).
    #[default]
    Default,
    /// `INJECT_RAST_FILL_RULE`: the top-left tie broken the wrong way (a pixel centre exactly
    /// on an edge is covered when the edge does not own it, and not when it does).
    InjectFillRule,
    /// `INJECT_RAST_PERSP`: texcoord0.u interpolated linearly in screen space (no
    /// perspective correction).
    InjectPersp,
    /// `INJECT_CLIP_PLANE_ORDER`: the z ≤ 0 and z ≥ −w planes clipped in swapped order.
    InjectClipPlaneOrder,
    /// Mutant `k` of the stage's mutant model (`rast_mut`: Yosys mutations of the stage top,
    /// [`crate::mutants`]; 0 = the unmutated netlist). Not in [`RastVariant::ALL`].
    Mutant(u16),
    /// The RTL as written (plus any `PICA_RTL_DEFINES`), verilated with `--coverage`
    /// (`cov_rast`, [`crate::coverage`]): slower, and its code-coverage counters can be read
    /// ([`RtlRast::coverage`]). Not in [`RastVariant::ALL`].
    Coverage,
}

impl RastVariant {
    /// The mutant number of a [`RastVariant::Mutant`].
    pub fn mutant(self) -> Option<u16> {
        match self {
            RastVariant::Mutant(k) => Some(k),
            _ => None,
        }
    }

    /// Every variant, in build order.
    pub const ALL: [RastVariant; 4] = [
        RastVariant::Default,
        RastVariant::InjectFillRule,
        RastVariant::InjectPersp,
        RastVariant::InjectClipPlaneOrder,
    ];

    /// The variant's name as the shim reports it.
    pub fn name(self) -> &'static str {
        match self {
            RastVariant::Default => "default",
            RastVariant::InjectFillRule => "inject_rast_fill_rule",
            RastVariant::InjectPersp => "inject_rast_persp",
            RastVariant::InjectClipPlaneOrder => "inject_clip_plane_order",
            RastVariant::Mutant(_) => crate::mutants::RAST_MODEL,
            RastVariant::Coverage => crate::kit::desc::RAST.coverage.unwrap_or_default(),
        }
    }

    /// The define that injects the variant's bug (`None` for the default build).
    pub fn define(self) -> Option<&'static str> {
        match self {
            RastVariant::Default | RastVariant::Mutant(_) | RastVariant::Coverage => None,
            RastVariant::InjectFillRule => Some("INJECT_RAST_FILL_RULE"),
            RastVariant::InjectPersp => Some("INJECT_RAST_PERSP"),
            RastVariant::InjectClipPlaneOrder => Some("INJECT_CLIP_PLANE_ORDER"),
        }
    }

    /// The variant called `name`: its full name (`inject_rast_fill_rule`), the name without
    /// `inject_`, `inject_rast_` or `inject_clip_` (`fill_rule`, `persp`, `plane_order`,
    /// `clip_plane_order`), or its define; `-` and `_` alike, any case; `{model}#K`
    /// (`rast_mut#12`): mutant K of the stage's mutant model.
    pub fn from_name(name: &str) -> Option<RastVariant> {
        if let Some(k) = crate::mutants::parse_mutant(name, crate::mutants::RAST_MODEL) {
            return Some(RastVariant::Mutant(k));
        }
        let n = name.to_ascii_lowercase().replace('-', "_");
        RastVariant::ALL.into_iter().find(|v| {
            v.name() == n
                || ["inject_", "inject_rast_", "inject_clip_"]
                    .iter()
                    .any(|p| v.name() == format!("{p}{n}"))
                || v.define().is_some_and(|d| d.eq_ignore_ascii_case(&n))
        })
    }
}

impl fmt::Display for RastVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Number of registers the stage stores: [`clip::CONFIG_REGS`] then [`rast::CONFIG_REGS`].
pub const NUM_CFG: usize = clip::CONFIG_REGS.len() + rast::CONFIG_REGS.len();

/// The stored registers' IDs: CLIP's, then RAST's, in that order.
pub fn cfg_ids() -> [u16; NUM_CFG] {
    let c = clip::CONFIG_REGS.len();
    std::array::from_fn(|i| {
        if i < c {
            clip::CONFIG_REGS[i]
        } else {
            rast::CONFIG_REGS[i - c]
        }
    })
}

/// The stored registers' values in `regs` ([`cfg_ids`] order).
pub fn cfg_words(regs: &RegFile) -> [u32; NUM_CFG] {
    cfg_ids().map(|r| regs.reg(r.into()))
}

/// One fragment out of the stage (what [`RtlRast::tick`] hands out, wrapped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RastOut {
    /// The fragment: tri, x, y, depth, color, attr, tex_deriv.
    pub frag: Fragment,
}

impl From<Fragment> for RastOut {
    fn from(frag: Fragment) -> Self {
        Self { frag }
    }
}

/// Columns of the largest framebuffer (11-bit width: at most 2047 pixels, x < 2047).
const MAX_FB_COLS: u32 = 2047;

/// Rows of the largest framebuffer (GPUREG_FRAMEBUFFER_DIM: at most 1024).
const MAX_FB_ROWS: u32 = 1024;

/// A response the early-depth buffer owes the RTL.
#[derive(Clone, Copy, Debug)]
struct EdRsp {
    data: u32,
}

/// Clocks without any handshake on any port after which [`RtlRast::run`] and the drain of
/// [`RtlRast::sync_config`] / [`RtlRast::write_reg`] give up (the RTL is stuck; recorded in
/// [`RtlRast::violations`]). Generous: clipping a triangle against several planes takes the
/// sequenced f24 units a while without any handshake.
pub const WATCHDOG_CLOCKS: u64 = 200_000;

/// Early-depth port request counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EdStats {
    /// Reads (op 0).
    pub reads: u64,
    /// Writes (op 1).
    pub writes: u64,
    /// Clears (op 2).
    pub clears: u64,
}

/// One Verilated CLIP + RAST stage (`pica_rast_top`) with its early-depth port served by the
/// bridge.
#[derive(Debug)]
pub struct RtlRast {
    core: Core<PicaRastIn, PicaRastOut, PicaRast>,
    variant: RastVariant,
    latency: MemLatency,
    /// The stored registers the RTL holds (`None`: not written since reset).
    shadow: Option<[u32; NUM_CFG]>,
    /// Trigger events of the register file [`RtlRast::sync_config`] has handled.
    triggers_seen: usize,
    queue: VecDeque<Triangle>,
    /// Fragments that left while the stage was drained, handed out first.
    stash: VecDeque<Fragment>,
    /// The early-depth port's owed responses and latency.
    rsp: SideServer<EdRsp>,
    early: EarlyDepthBuffer,
    /// Clear events written whose clear request has not been seen yet.
    clears_owed: u64,
    stats: EdStats,
    triangles_in: u64,
    fragments_out: u64,
    /// Fragments after which a drain or run gives up ([`RtlRast::set_fragment_limit`]).
    fragment_limit: u64,
    /// The inputs of the next clock (the vertex lanes are rewritten only for a new head).
    inp: PicaRastIn,
    /// Whether `inp` holds the queue head's vertices.
    head_loaded: bool,
    /// The outputs after the last clock.
    last: PicaRastOut,
    violations: Vec<String>,
}

crate::kit::handle::coverage_methods!(
    RtlRast,
    "`cov_rast`, [`RastVariant::Coverage`]",
    core.handle
);

impl RtlRast {
    /// Names of the RAST variants compiled into this build.
    pub fn variants() -> Vec<String> {
        Core::variants(&FNS)
    }

    /// A new stage of `variant`, reset, with a power-on early-depth buffer whose port answers
    /// with `latency`.
    pub fn new(variant: RastVariant, latency: MemLatency) -> Result<Self, RtlError> {
        let mut core = Core::open(&FNS, variant.name(), variant.mutant())?;
        let last = core.peek();
        Ok(Self {
            core,
            variant,
            latency,
            shadow: None,
            triggers_seen: 0,
            queue: VecDeque::new(),
            stash: VecDeque::new(),
            rsp: SideServer::new(latency),
            early: EarlyDepthBuffer::new(),
            clears_owed: 0,
            stats: EdStats::default(),
            triangles_in: 0,
            fragments_out: 0,
            fragment_limit: u64::MAX,
            inp: PicaRastIn::default(),
            head_loaded: false,
            last,
            violations: Vec::new(),
        })
    }

    /// Which build this is.
    pub fn variant(&self) -> RastVariant {
        self.variant
    }

    /// How the early-depth port is answered.
    pub fn latency(&self) -> MemLatency {
        self.latency
    }

    /// Clocks run since reset.
    pub fn cycles(&self) -> u64 {
        self.core.cycles()
    }

    /// Early-depth port requests performed so far.
    pub fn ed_stats(&self) -> EdStats {
        self.stats
    }

    /// Triangles the input port took and fragments the output port gave, so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.triangles_in, self.fragments_out)
    }

    /// Protocol breaches the bridge saw (empty for an RTL that keeps the contract).
    pub fn violations(&self) -> &[String] {
        &self.violations
    }

    /// The early-depth buffer the port serves (as the RTL's requests left it).
    pub fn early_depth(&self) -> &EarlyDepthBuffer {
        &self.early
    }

    /// Replaces the early-depth buffer the port serves (between runs: the stage should be
    /// idle).
    pub fn set_early_depth(&mut self, b: EarlyDepthBuffer) {
        self.early = b;
    }

    /// Nothing queued, waiting to be handed out or owed by the early-depth buffer, and the RTL
    /// reports `idle_o`.
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.stash.is_empty() && self.rsp.is_empty() && self.last.idle != 0
    }

    /// Whether the input side is free: nothing queued that has not yet entered the stage.
    pub fn can_accept(&self) -> bool {
        self.queue.is_empty()
    }

    /// Triangles pushed but not yet taken by the input port, plus fragments that left while
    /// the stage was drained and are not yet handed out. (Triangles inside the RTL are not
    /// counted: how many fragments they still yield is unknown; [`RtlRast::is_idle`] says
    /// whether any are.)
    pub fn pending(&self) -> usize {
        self.queue.len() + self.stash.len()
    }

    /// Makes the RTL's stored registers equal to `regs`' ([`cfg_words`]), then forwards every
    /// GPUREG_EARLYDEPTH_CLEAR event `regs` logged since the last call (a register file with
    /// a shorter log is a new one: its events count from the start). If a register differs or
    /// an event is new, every triangle already pushed is finished first (its fragments come
    /// out of the following [`RtlRast::tick`]s).
    pub fn sync_config(&mut self, regs: &RegFile) {
        self.set_config(&cfg_words(regs));
        let clears = regs
            .triggers_since(&mut self.triggers_seen)
            .iter()
            .filter(|ev| ev.trigger == Trigger::EarlyDepthClear)
            .count();
        for _ in 0..clears {
            self.write_reg(EARLY_DEPTH_CLEAR, 1);
        }
    }

    /// [`RtlRast::sync_config`]'s register part from the words directly ([`cfg_ids`] order):
    /// if any differs from what the RTL holds, drains the stage, then writes the differing
    /// ones (all of them the first time), one per clock.
    pub fn set_config(&mut self, words: &[u32; NUM_CFG]) {
        if self.shadow.as_ref() == Some(words) {
            return;
        }
        if !self.drain() {
            return;
        }
        let ids = cfg_ids();
        for (slot, &w) in words.iter().enumerate() {
            if self.shadow.is_some_and(|s| s[slot] == w) {
                continue;
            }
            self.cfg_write(ids[slot], w);
        }
        self.shadow = Some(*words);
    }

    /// Writes register `id` (any ID: the RTL ignores those it does not store; a write of
    /// GPUREG_EARLYDEPTH_CLEAR is the clear event, whatever `value`) with the full value
    /// `value` through the write port, after draining the stage (registers are written only
    /// while it is idle). The configuration [`RtlRast::set_config`] compares with follows.
    pub fn write_reg(&mut self, id: u16, value: u32) {
        if !self.drain() {
            return;
        }
        self.cfg_write(id, value);
        if let (Some(slot), Some(s)) = (
            cfg_ids().iter().position(|&r| r == id & 0x3FF),
            self.shadow.as_mut(),
        ) {
            s[slot] = value;
        }
    }

    /// Makes [`RtlRast::run`] and the drains before register writes give up (recorded in
    /// [`RtlRast::violations`]) once more than `limit` fragments have left the stage: a broken
    /// RTL that sends fragments forever keeps the handshake watchdog quiet, so without a
    /// limit they would never return. A checker that knows how many fragments to expect (the
    /// model's) sets it.
    pub fn set_fragment_limit(&mut self, limit: u64) {
        self.fragment_limit = limit;
    }

    /// Whether more fragments than the limit have left ([`RtlRast::set_fragment_limit`]),
    /// recorded as a violation (the callers stop at once).
    fn over_limit(&mut self) -> bool {
        if self.fragments_out <= self.fragment_limit {
            return false;
        }
        self.violate(format!("more than {} fragments", self.fragment_limit));
        true
    }

    /// Queues `tri`; it enters the stage in a later [`RtlRast::tick`].
    pub fn push(&mut self, tri: &Triangle) {
        self.queue.push_back(*tri);
    }

    /// One clock: serves the early-depth port (a request is performed on the buffer in the
    /// clock it is accepted and answered after the latency), feeds the head of the queue, and
    /// returns the fragment taken in this clock (`out_ready`: the consumer's ready). Fragments
    /// stashed by a drain come first, one per tick (the stage still advances one clock, its
    /// output held).
    pub fn tick(&mut self, out_ready: bool) -> Option<Fragment> {
        if out_ready {
            if let Some(f) = self.stash.pop_front() {
                let _ = self.step(false);
                return Some(f);
            }
        }
        self.step(out_ready).0
    }

    /// Pushes every triangle of `tris`, clocks (output always ready) until the stage is idle,
    /// and returns the fragments in order (plus any pending from before). Gives up after
    /// [`WATCHDOG_CLOCKS`] clocks without a handshake (recorded in
    /// [`RtlRast::violations`]).
    pub fn run(&mut self, tris: &[Triangle]) -> Vec<Fragment> {
        for t in tris {
            self.push(t);
        }
        let mut out = Vec::new();
        let mut quiet = 0u64;
        while !self.is_idle() {
            let (f, moved) = match self.stash.pop_front() {
                Some(f) => {
                    let _ = self.step(false);
                    (Some(f), true)
                }
                None => self.step(true),
            };
            out.extend(f);
            quiet = if moved { 0 } else { quiet + 1 };
            if self.over_limit() {
                break;
            }
            if quiet > WATCHDOG_CLOCKS {
                self.violate(format!(
                    "no handshake for {WATCHDOG_CLOCKS} clocks with {} triangles queued and \
                     the stage not idle",
                    self.queue.len()
                ));
                break;
            }
        }
        self.check_clears_done();
        out
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

    /// A clear event the RTL has not performed by the time it is idle is a breach.
    fn check_clears_done(&mut self) {
        if self.clears_owed > 0 && self.is_idle() {
            let n = self.clears_owed;
            self.clears_owed = 0;
            self.violate(format!(
                "idle with {n} early-depth clear event(s) not performed (no op-2 request)"
            ));
        }
    }

    /// Clocks until nothing is queued or owed and the RTL is idle; the fragments that leave
    /// go to the stash. `false` if the stage got stuck instead.
    fn drain(&mut self) -> bool {
        let mut quiet = 0u64;
        while !self.queue.is_empty() || !self.rsp.is_empty() || self.last.idle == 0 {
            let (f, moved) = self.step(true);
            self.stash.extend(f);
            quiet = if moved { 0 } else { quiet + 1 };
            if self.over_limit() {
                return false;
            }
            if quiet > WATCHDOG_CLOCKS {
                self.violate(format!(
                    "not idle after {WATCHDOG_CLOCKS} clocks without a handshake ({} triangles \
                     queued)",
                    self.queue.len()
                ));
                return false;
            }
        }
        self.check_clears_done();
        true
    }

    /// One register-write clock (the stage is idle: nothing else moves).
    fn cfg_write(&mut self, id: u16, value: u32) {
        let inp = PicaRastIn {
            cfg_we: 1,
            cfg_id: u32::from(id & 0x3FF),
            cfg_data: value,
            out_ready: 1,
            ..Default::default()
        };
        let o = self.core.eval(&inp);
        if o.ed_req_valid != 0 || o.out_valid != 0 || o.idle == 0 {
            self.violate(format!(
                "register 0x{:03x} written while the stage is busy (idle_o {}, out_valid_o {}, \
                 ed_req_valid_o {})",
                id & 0x3FF,
                o.idle,
                o.out_valid,
                o.ed_req_valid
            ));
        }
        if id & 0x3FF == EARLY_DEPTH_CLEAR {
            self.clears_owed += 1;
        }
        self.clock();
    }

    fn clock(&mut self) {
        self.last = self.core.clock();
    }

    /// Performs an accepted early-depth request; returns the response data.
    fn perform(&mut self, o: &PicaRastOut) -> u32 {
        let (x, y, data) = (o.ed_req_x & 0xFFFF, o.ed_req_y & 0xFFFF, o.ed_req_data);
        let pixel_ok = x < MAX_FB_COLS && y < MAX_FB_ROWS;
        match o.ed_req_op & 3 {
            0 => {
                self.stats.reads += 1;
                if !pixel_ok {
                    self.violate(format!(
                        "early-depth read of ({x}, {y}), outside the largest framebuffer"
                    ));
                }
                self.early.get(x as u16, y as u16)
            }
            1 => {
                self.stats.writes += 1;
                if !pixel_ok {
                    self.violate(format!(
                        "early-depth write of ({x}, {y}), outside the largest framebuffer"
                    ));
                }
                self.early.store(x as u16, y as u16, data & 0xFF_FFFF);
                0
            }
            2 => {
                self.stats.clears += 1;
                if self.clears_owed == 0 {
                    self.violate(format!(
                        "early-depth clear request (to 0x{:06x}) without a clear event",
                        data & 0xFF_FFFF
                    ));
                } else {
                    self.clears_owed -= 1;
                }
                self.early.clear(data & 0xFF_FFFF);
                0
            }
            op => {
                self.violate(format!("early-depth request with op {op}"));
                0
            }
        }
    }

    /// The fragment on the output port.
    fn fragment(o: &PicaRastOut) -> Fragment {
        Fragment {
            x: o.out_x as u16,
            y: o.out_y as u16,
            depth: o.out_depth & 0xFF_FFFF,
            color: o.out_color.to_le_bytes(),
            attr: std::array::from_fn(|s| F24::from_bits(o.out_attr[s] & 0xFF_FFFF)),
            tri: o.out_tri,
            tex_deriv: std::array::from_fn(|t| {
                std::array::from_fn(|c| F24::from_bits(o.out_tex_deriv[4 * t + c] & 0xFF_FFFF))
            }),
        }
    }

    /// One clock driving the head of the queue and the early-depth port; returns the fragment
    /// taken in it and whether any handshake happened.
    fn step(&mut self, out_ready: bool) -> (Option<Fragment>, bool) {
        let now = self.core.cycles();
        let has_head = !self.queue.is_empty();
        if let (Some(t), false) = (self.queue.front(), self.head_loaded) {
            for (k, v) in t.v.iter().enumerate() {
                for (s, a) in v.attr.iter().enumerate() {
                    self.inp.in_v[NUM_SEMANTICS * k + s] = a.bits() & 0xFF_FFFF;
                }
            }
            self.inp.in_seq = t.seq;
            self.head_loaded = true;
        }
        self.inp.cfg_we = 0;
        self.inp.in_valid = u32::from(has_head);
        self.inp.out_ready = u32::from(out_ready);
        self.inp.ed_rsp_valid = 0;
        self.inp.ed_rsp_data = 0;
        if let Some(r) = self.rsp.offer(now) {
            self.inp.ed_rsp_valid = 1;
            self.inp.ed_rsp_data = r.data;
        }
        self.inp.ed_req_ready = u32::from(self.rsp.request_ready());
        let inp = self.inp;
        let o = self.core.eval(&inp);
        let mut moved = false;
        if has_head && o.in_ready != 0 {
            self.queue.pop_front();
            self.triangles_in += 1;
            self.head_loaded = false;
            moved = true;
        }
        let frag = (o.out_valid != 0 && out_ready).then(|| Self::fragment(&o));
        if frag.is_some() {
            self.fragments_out += 1;
            moved = true;
        }
        if inp.ed_rsp_valid != 0 && o.ed_rsp_ready != 0 {
            self.rsp.taken();
            moved = true;
        }
        if o.ed_req_valid != 0 && inp.ed_req_ready != 0 {
            let data = self.perform(&o);
            self.rsp.accept(now, EdRsp { data });
            moved = true;
        }
        self.clock();
        (frag, moved)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn slot_order_matches_the_stage_description() {
        assert_eq!(crate::kit::regs::rast(), super::cfg_ids().to_vec());
    }
}
