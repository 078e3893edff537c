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
use crate::kit::abi::rast::{PicaRastIn, PicaRastOut};
pub use crate::kit::side::MemLatency;
use crate::kit::stage::{Log, Protocol, RastShim, RtlStage, Rules};
use pica_model::clip;
use pica_model::num::F24;
use pica_model::pipe::{Fragment, Triangle, NUM_SEMANTICS};
use pica_model::rast::{self, EarlyDepthBuffer, EARLY_DEPTH_CLEAR};
use pica_model::regfile::RegFile;
use pica_model::regs::Trigger;

pub use crate::kit::variant::RastVariant;

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
pub(crate) struct EdRsp {
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

/// RAST's part of the stage protocol: the triangle and fragment on the ports, the early-depth
/// port and its clear events.
#[derive(Debug)]
pub(crate) struct Rast {
    early: EarlyDepthBuffer,
    /// Clear events written whose clear request has not been seen yet.
    clears_owed: u64,
    stats: EdStats,
    /// The inputs of the next clock (the vertex lanes are rewritten only for a new head).
    inp: PicaRastIn,
    /// Whether `inp` holds the queue head's vertices.
    head_loaded: bool,
    /// Trigger events of the register file [`RtlRast::sync_config`] has handled.
    triggers_seen: usize,
}

impl Protocol for Rast {
    type Shim = RastShim;
    type Item = Triangle;
    type Result = Fragment;
    type Rsp = EdRsp;
    type Ctx = ();

    const RULES: Rules = Rules {
        watchdog_clocks: WATCHDOG_CLOCKS,
        // How many fragments a triangle yields is unknown: idle_o says whether any are inside.
        one_result_per_item: false,
        results: "fragments",
        side_requests: "early-depth requests",
        items: "triangles",
        side_bytes: 3,
        ..Rules::HANDSHAKES
    };

    fn drive(&mut self, head: Option<&Triangle>, out_ready: bool) -> PicaRastIn {
        if let (Some(t), false) = (head, self.head_loaded) {
            for (k, v) in t.v.iter().enumerate() {
                for (s, a) in v.attr.iter().enumerate() {
                    self.inp.in_v[NUM_SEMANTICS * k + s] = a.bits() & 0xFF_FFFF;
                }
            }
            self.inp.in_seq = t.seq;
            self.head_loaded = true;
        }
        self.inp.cfg_we = 0;
        self.inp.in_valid = u32::from(head.is_some());
        self.inp.out_ready = u32::from(out_ready);
        self.inp
    }

    fn result(o: &PicaRastOut) -> Fragment {
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

    fn accepted(&mut self) {
        self.head_loaded = false;
    }

    fn drain_stuck(&self, queued: usize, _in_flight: usize) -> Option<String> {
        Some(format!(
            "not idle after {WATCHDOG_CLOCKS} clocks without a handshake ({queued} triangles \
             queued)"
        ))
    }

    fn run_stuck(&self, queued: usize, _pending: usize) -> Option<String> {
        Some(format!(
            "no handshake for {WATCHDOG_CLOCKS} clocks with {queued} triangles queued and \
             the stage not idle"
        ))
    }

    /// A clear event the RTL has not performed by the time it is idle is a breach.
    fn settled(&mut self, idle: bool, log: &mut Log<'_>) {
        if self.clears_owed > 0 && idle {
            let n = self.clears_owed;
            self.clears_owed = 0;
            log.violate(format!(
                "idle with {n} early-depth clear event(s) not performed (no op-2 request)"
            ));
        }
    }

    fn wrote(&mut self, id: u16, o: &PicaRastOut, log: &mut Log<'_>) {
        if o.ed_req_valid != 0 || o.out_valid != 0 || o.idle == 0 {
            log.violate(format!(
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
    }

    fn offer(inp: &mut PicaRastIn, rsp: Option<&EdRsp>) {
        inp.ed_rsp_data = rsp.map_or(0, |r| r.data);
    }

    fn perform(&mut self, _: &mut (), o: &PicaRastOut, log: &mut Log<'_>) -> EdRsp {
        EdRsp {
            data: self.access(o, log),
        }
    }
}

impl Rast {
    /// Performs an accepted early-depth request; returns the response data.
    fn access(&mut self, o: &PicaRastOut, log: &mut Log<'_>) -> u32 {
        let (x, y, data) = (o.ed_req_x & 0xFFFF, o.ed_req_y & 0xFFFF, o.ed_req_data);
        let pixel_ok = x < MAX_FB_COLS && y < MAX_FB_ROWS;
        match o.ed_req_op & 3 {
            0 => {
                self.stats.reads += 1;
                if !pixel_ok {
                    log.violate(format!(
                        "early-depth read of ({x}, {y}), outside the largest framebuffer"
                    ));
                }
                self.early.get(x as u16, y as u16)
            }
            1 => {
                self.stats.writes += 1;
                if !pixel_ok {
                    log.violate(format!(
                        "early-depth write of ({x}, {y}), outside the largest framebuffer"
                    ));
                }
                self.early.store(x as u16, y as u16, data & 0xFF_FFFF);
                0
            }
            2 => {
                self.stats.clears += 1;
                if self.clears_owed == 0 {
                    log.violate(format!(
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
                log.violate(format!("early-depth request with op {op}"));
                0
            }
        }
    }
}

crate::kit::stage::stage_wrapper! {
    /// One Verilated CLIP + RAST stage (`pica_rast_top`) with its early-depth port served by
    /// the bridge.
    pub struct RtlRast(Rast, RastVariant), "RAST", "`cov_rast`, [`RastVariant::Coverage`]";
}

impl RtlRast {
    /// A new stage of `variant`, reset, with a power-on early-depth buffer whose port answers
    /// with `latency`.
    pub fn new(variant: RastVariant, latency: MemLatency) -> Result<Self, RtlError> {
        let rast = Rast {
            early: EarlyDepthBuffer::new(),
            clears_owed: 0,
            stats: EdStats::default(),
            inp: PicaRastIn::default(),
            head_loaded: false,
            triggers_seen: 0,
        };
        let stage = RtlStage::open(
            variant.name(),
            variant.mutant(),
            rast,
            Some(latency),
            crate::axi::Reorder::InOrder,
            false,
        )?;
        Ok(Self { stage, variant })
    }

    /// How the early-depth port is answered.
    pub fn latency(&self) -> MemLatency {
        self.stage.latency().unwrap_or_default()
    }

    /// Early-depth port requests performed so far.
    pub fn ed_stats(&self) -> EdStats {
        self.stage.proto.stats
    }

    /// Triangles the input port took and fragments the output port gave, so far.
    pub fn counts(&self) -> (u64, u64) {
        self.stage.counts()
    }

    /// The early-depth buffer the port serves (as the RTL's requests left it).
    pub fn early_depth(&self) -> &EarlyDepthBuffer {
        &self.stage.proto.early
    }

    /// Replaces the early-depth buffer the port serves (between runs: the stage should be
    /// idle).
    pub fn set_early_depth(&mut self, b: EarlyDepthBuffer) {
        self.stage.proto.early = b;
    }

    /// Makes the RTL's stored registers equal to `regs`' ([`cfg_words`]), then forwards every
    /// GPUREG_EARLYDEPTH_CLEAR event `regs` logged since the last call (a register file with
    /// a shorter log is a new one: its events count from the start). If a register differs or
    /// an event is new, every triangle already pushed is finished first (its fragments come
    /// out of the following [`RtlRast::tick`]s).
    pub fn sync_config(&mut self, regs: &RegFile) {
        self.set_config(&cfg_words(regs));
        let clears = regs
            .triggers_since(&mut self.stage.proto.triggers_seen)
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
        self.stage.set_config(words, &mut ());
    }

    /// Writes register `id` (any ID: the RTL ignores those it does not store; a write of
    /// GPUREG_EARLYDEPTH_CLEAR is the clear event, whatever `value`) with the full value
    /// `value` through the write port, after draining the stage (registers are written only
    /// while it is idle). The configuration [`RtlRast::set_config`] compares with follows.
    pub fn write_reg(&mut self, id: u16, value: u32) {
        self.stage.write_reg(id, value, &mut ());
    }

    /// Makes [`RtlRast::run`] and the drains before register writes give up (recorded in
    /// [`RtlRast::violations`]) once more than `limit` fragments have left the stage: a broken
    /// RTL that sends fragments forever keeps the handshake watchdog quiet, so without a
    /// limit they would never return. A checker that knows how many fragments to expect (the
    /// model's) sets it.
    pub fn set_fragment_limit(&mut self, limit: u64) {
        self.stage.set_result_limit(limit);
    }

    /// Makes [`RtlRast::run`] and the drains before register writes give up (recorded in
    /// [`RtlRast::violations`]) once the early-depth port has taken more than `limit`
    /// requests, and [`RtlRast::early_depth_limit_passed`] say so: a livelocked RTL that reads
    /// one pixel forever gives no fragment and keeps the handshake watchdog quiet (a mutant of
    /// the early-depth test's fail arm that went back to DSUM hung `pica mutate`). The bound
    /// for a case is `pica_vectors::stage_rast::early_request_bound` (two per traversal pixel,
    /// one per clear).
    pub fn set_early_depth_limit(&mut self, limit: u64) {
        self.stage.set_side_limit(limit);
    }

    /// Whether the early-depth port has taken more requests than
    /// [`RtlRast::set_early_depth_limit`] allows.
    pub fn early_depth_limit_passed(&self) -> bool {
        self.stage.side_limit_passed()
    }

    /// Queues `tri`; it enters the stage in a later [`RtlRast::tick`].
    pub fn push(&mut self, tri: &Triangle) {
        self.stage.push(*tri);
    }

    /// One clock: serves the early-depth port (a request is performed on the buffer in the
    /// clock it is accepted and answered after the latency), feeds the head of the queue, and
    /// returns the fragment taken in this clock (`out_ready`: the consumer's ready). Fragments
    /// stashed by a drain come first, one per tick (the stage still advances one clock, its
    /// output held).
    pub fn tick(&mut self, out_ready: bool) -> Option<Fragment> {
        self.stage.tick(&mut (), out_ready)
    }

    /// Pushes every triangle of `tris`, clocks (output always ready) until the stage is idle,
    /// and returns the fragments in order (plus any pending from before). Gives up after
    /// [`WATCHDOG_CLOCKS`] clocks without a handshake (recorded in
    /// [`RtlRast::violations`]).
    pub fn run(&mut self, tris: &[Triangle]) -> Vec<Fragment> {
        self.stage.run(tris, &mut ())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn slot_order_matches_the_stage_description() {
        assert_eq!(crate::kit::regs::rast(), super::cfg_ids().to_vec());
    }
}
