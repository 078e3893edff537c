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
//! The top reaches the colour and depth-stencil buffers through one AXI4 master port
//! (`mem_aw*` … `mem_r*`: `pica_axi_master` in front of `pica_fop`'s word port; single-beat
//! INCR bursts of 32-bit words, IDs 0–7, up to eight transactions in flight). The bridge serves
//! it with an [`AxiServer`](crate::axi::AxiServer) over the [`Memory`]: a write lands when its
//! data beat is taken, a read takes its data at its address handshake; unmapped words answer
//! DECERR (the stage then hangs, as on the model's unmapped access). [`MemLatency`] sets the
//! latency and backpressure ([`MemLatency::Random`]: each channel held not-ready one clock in
//! five, each response delayed by a seeded draw) and [`Reorder`] whether responses of
//! different IDs come back out of order ([`RtlFop::with_reorder`]). Every beat is judged by the
//! server's [`AxiChecker`](crate::axi::AxiChecker); a broken rule is listed in
//! [`RtlFop::violations`] with its channel, beat and clock, like any other breach of the
//! contract.
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

pub use crate::axi::Reorder;
use crate::axi::{AxiMemory, AxiOut};
use crate::error::RtlError;
use crate::kit::abi::fop::{PicaFopIn, PicaFopOut};
pub use crate::kit::side::MemLatency;
use crate::kit::stage::{FopShim, Log, Protocol, RtlStage, Rules};
use pica_model::beat::PixelBeat;
use pica_model::fop::{config_words, FopHang, CONFIG_REGS};
use pica_model::mem::Memory;
use pica_model::regfile::RegFile;

pub use crate::kit::variant::FopVariant;

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

/// Clocks without any handshake on any port after which [`RtlFop::run`] and the drain of
/// [`RtlFop::sync_config`] give up (the RTL is stuck; recorded in [`RtlFop::violations`]).
pub const WATCHDOG_CLOCKS: u64 = 20_000;

/// Clocks without a fragment taken or a beat given after which a run gives up (a livelock
/// breach). A fragment makes at most 10 word requests (a probe and two words
/// for each of the depth-stencil read and write and the colour read and write, less the
/// probes a read makes unnecessary), each waiting less than [`WATCHDOG_CLOCKS`] for its
/// acceptance and as long for its response, so a working stage never comes near it.
pub const LIVELOCK_CLOCKS: u64 = 10 * 2 * (WATCHDOG_CLOCKS + 4);

/// The hang `o`'s fields report, and the kind field's value when it is none of the kinds (the
/// hang then reads as an unmapped access).
fn decode_hang(o: &PicaFopOut) -> (FopHang, Option<u32>) {
    let buffer = if o.hang_buffer & 1 != 0 {
        "depth"
    } else {
        "color"
    };
    match o.hang_kind & 3 {
        2 => (
            FopHang::ReservedFormat {
                buffer,
                value: o.hang_value & 7,
            },
            None,
        ),
        k => (
            FopHang::Unmapped {
                buffer,
                addr: o.hang_addr,
            },
            (k != 1).then_some(k),
        ),
    }
}

/// FOP's part of the stage protocol: the fragment and beat on the ports, the memory behind
/// the AXI4 port, the hang.
#[derive(Debug, Default)]
pub(crate) struct Fop {
    hang: Option<FopHang>,
    /// The first clock `idle_o` claimed idle with a fragment in flight (reported when a run
    /// or drain settles).
    idle_lie: Option<String>,
    /// Since the hang: whether the AR / AW channel has been quiet (its VALID low) once, and
    /// the first request seen after that (reported when a run or drain settles).
    quiet_since_hang: [bool; 2],
    late_request: Option<String>,
}

impl Protocol for Fop {
    type Shim = FopShim;
    type Item = FopFragment;
    type Result = FopResult;
    type Rsp = ();
    type Ctx = Memory;

    const RULES: Rules = Rules {
        watchdog_clocks: WATCHDOG_CLOCKS,
        orphan: "a pixel beat with no fragment in flight",
        side_requests: "memory bursts",
        // A run ends when the stage is idle: after the last beat pica_fop_pipe's caches still
        // write back what they hold (idle_o promises memory up to date).
        run_until_idle: true,
        livelock_clocks: LIVELOCK_CLOCKS,
        items: "fragments",
        results: "fragments",
        side_bytes: 4,
        ..Rules::HANDSHAKES
    };

    fn drive(&mut self, head: Option<&FopFragment>, out_ready: bool) -> PicaFopIn {
        let mut inp = PicaFopIn {
            out_ready: u32::from(out_ready),
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
        inp
    }

    fn result(o: &PicaFopOut) -> FopResult {
        FopResult {
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
        }
    }

    fn halted(&self) -> bool {
        self.hang.is_some()
    }

    fn checked(&mut self, o: &PicaFopOut, in_flight: usize, clock: u64) {
        // After the hang no request is made. An address the master already held when the
        // stage hung still goes out (a read taken in the clock a posted write's error
        // arrived); once a channel's VALID has been low after the hang it must stay low.
        if o.hang != 0 {
            let m = o.axi_master();
            for (k, (name, valid)) in [("AR", m.ar.is_some()), ("AW", m.aw.is_some())]
                .into_iter()
                .enumerate()
            {
                if !valid {
                    self.quiet_since_hang[k] = true;
                } else if self.quiet_since_hang[k] && self.late_request.is_none() {
                    self.late_request = Some(format!(
                        "a memory request ({name}) at clock {clock}, after the hang"
                    ));
                }
            }
        }
        // idle_o promises no fragment in flight (the replay testbench writes registers on it):
        // it may not be high while a fragment is inside and the stage has not hung.
        if o.idle != 0 && in_flight > 0 && o.hang == 0 && self.idle_lie.is_none() {
            self.idle_lie = Some(format!(
                "idle_o high at clock {clock} with {in_flight} fragment(s) in flight"
            ));
        }
    }

    fn settled(&mut self, _idle: bool, log: &mut Log<'_>) {
        if let Some(what) = self.idle_lie.take() {
            log.violate(what);
        }
        if let Some(what) = self.late_request.take() {
            log.violate(what);
        }
    }

    fn drain_stuck(&self, _queued: usize, in_flight: usize) -> Option<String> {
        Some(format!(
            "not idle after {WATCHDOG_CLOCKS} clocks without a handshake \
             ({in_flight} fragments in flight)"
        ))
    }

    fn run_stuck(&self, _queued: usize, pending: usize) -> Option<String> {
        Some(format!(
            "no handshake for {WATCHDOG_CLOCKS} clocks with {pending} fragments pending"
        ))
    }

    fn wrote(&mut self, id: u16, o: &PicaFopOut, log: &mut Log<'_>) {
        let m = o.axi_master();
        if m.aw.is_some() || m.w.is_some() || m.ar.is_some() || o.out_valid != 0 {
            log.violate(format!(
                "memory request or beat while idle (register 0x{id:03x} written)"
            ));
        }
    }

    fn clocked(&mut self, o: &PicaFopOut, log: &mut Log<'_>) {
        if o.hang != 0 && self.hang.is_none() {
            let (hang, bad_kind) = decode_hang(o);
            if let Some(k) = bad_kind {
                log.violate(format!("hang_o with hang_kind_o = {k}"));
            }
            self.hang = Some(hang);
        } else if o.hang == 0 && self.hang.is_some() {
            log.violate("hang_o fell (it must stay up)".into());
        } else if let Some(first) = &self.hang {
            // The hang's fields hold with hang_o: a testbench may read them at any clock after
            // (the replay testbench reads them at the end of its drain), as TEX's bridge
            // requires of its own (a hang field that moved a clock later once passed the
            // bridge and failed the replay: vectors/regressions/fuzz-tex-default-9e60398c8d8553c0).
            let (now, _) = decode_hang(o);
            if now != *first {
                log.violate(format!(
                    "hang_kind_o/hang_buffer_o/hang_addr_o/hang_value_o changed after the hang: \
                     {first:?}, then {now:?}"
                ));
            }
        }
    }

    fn axi_memory(mem: &mut Memory) -> &mut dyn AxiMemory {
        mem
    }
}

crate::kit::stage::stage_wrapper! {
    /// One Verilated FOP stage (`pica_fop_top`) with its memory port served by the bridge.
    pub struct RtlFop(Fop, FopVariant), "FOP", "`cov_fop`, [`FopVariant::Coverage`]";
}

impl RtlFop {
    /// A new stage of `variant`, reset, whose memory port answers with `latency`, every ID's
    /// responses in order ([`Reorder::InOrder`]).
    pub fn new(variant: FopVariant, latency: MemLatency) -> Result<Self, RtlError> {
        Self::with_reorder(variant, latency, Reorder::InOrder)
    }

    /// A new stage whose memory port answers with `latency` and reorders its responses across
    /// IDs as `reorder` says.
    pub fn with_reorder(
        variant: FopVariant,
        latency: MemLatency,
        reorder: Reorder,
    ) -> Result<Self, RtlError> {
        let fop = Fop::default();
        let stage = RtlStage::open(
            variant.name(),
            variant.mutant(),
            fop,
            Some(latency),
            reorder,
            false,
        )?;
        Ok(Self { stage, variant })
    }

    /// How the memory port is answered.
    pub fn latency(&self) -> MemLatency {
        self.stage.latency().unwrap_or_default()
    }

    /// How the memory port reorders its responses.
    pub fn reorder(&self) -> Reorder {
        self.stage.reorder()
    }

    /// Memory transactions so far: (read bursts, including the stage's probes of a word's
    /// mapping; write bursts). Every burst of this port is one word.
    pub fn mem_stats(&self) -> (u64, u64) {
        let t = self.axi_tally();
        (t.read_bursts, t.write_bursts)
    }

    /// The AXI4 port's traffic so far: bursts, bytes, the most transactions in flight.
    pub fn axi_tally(&self) -> crate::axi::AxiTally {
        self.stage.axi_tally().unwrap_or_default()
    }

    /// The hang the RTL reports (`hang_o`), as the model's [`FopHang`].
    pub fn hang(&self) -> Option<FopHang> {
        self.stage.proto.hang.clone()
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
        self.stage.set_config(words, mem);
    }

    /// Writes register `id` (any ID: the RTL must ignore those outside [`CONFIG_REGS`]) with
    /// the full value `value`, after draining like [`RtlFop::sync_config`]; the configuration
    /// [`RtlFop::sync_config`] compares with follows. Nothing is written after a hang.
    pub fn write_reg(&mut self, id: u16, value: u32, mem: &mut Memory) {
        self.stage.write_reg(id, value, mem);
    }

    /// Queues `f`; it enters the stage in a later [`RtlFop::tick`].
    pub fn push(&mut self, f: FopFragment) {
        self.stage.push(f);
    }

    /// One clock: serves the AXI4 port from `mem` (a write lands on `mem` when its data beat is
    /// taken, a read takes its data at its address handshake; the responses follow after the
    /// latency, in the order the policy picks), feeds the head of the queue, and returns the beat taken in
    /// this clock (`out_ready`: the consumer's ready). Results stashed by
    /// [`RtlFop::sync_config`] come first, one per tick.
    pub fn tick(&mut self, mem: &mut Memory, out_ready: bool) -> Option<FopResult> {
        self.stage.tick(mem, out_ready)
    }

    /// Pushes every fragment of `frags`, clocks (output always ready) until every beat is out
    /// or the stage hangs, and returns the beats in order (plus any pending from before) and
    /// the hang. Gives up after [`WATCHDOG_CLOCKS`] clocks without a handshake, or
    /// [`LIVELOCK_CLOCKS`] without a fragment taken or a beat given (recorded in
    /// [`RtlFop::violations`]).
    pub fn run(
        &mut self,
        frags: &[FopFragment],
        mem: &mut Memory,
    ) -> (Vec<FopResult>, Option<FopHang>) {
        let out = self.stage.run(frags, mem);
        (out, self.hang())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outputs with `idle_o`, `hang_o` and the AXI4 read address VALID as given.
    fn out(idle: bool, hang: bool, arvalid: bool) -> PicaFopOut {
        PicaFopOut {
            idle: u32::from(idle),
            hang: u32::from(hang),
            mem_arvalid: u32::from(arvalid),
            mem_arlen: 0,
            mem_arsize: 2,
            mem_arburst: 1,
            ..Default::default()
        }
    }

    #[test]
    fn idle_o_with_a_fragment_inside_is_a_breach() {
        let mut f = Fop::default();
        f.checked(&out(true, false, false), 0, 3);
        f.checked(&out(false, false, false), 1, 4);
        assert_eq!(f.idle_lie, None);
        f.checked(&out(true, false, false), 1, 5);
        assert_eq!(
            f.idle_lie.as_deref(),
            Some("idle_o high at clock 5 with 1 fragment(s) in flight")
        );
        // After the hang idle_o is high with the hanging fragment still counted.
        let mut f = Fop::default();
        f.checked(&out(true, true, false), 1, 9);
        assert_eq!(f.idle_lie, None);
    }

    #[test]
    fn a_request_after_the_hang_is_a_breach_once_the_channel_was_quiet() {
        // An address the master held when the stage hung still goes out...
        let mut f = Fop::default();
        f.checked(&out(false, true, true), 1, 10);
        f.checked(&out(false, true, true), 1, 11);
        assert_eq!(f.late_request, None);
        // ... but once AR was low after the hang, a new one is a request after it.
        f.checked(&out(false, true, false), 1, 12);
        assert_eq!(f.late_request, None);
        f.checked(&out(false, true, true), 1, 13);
        assert_eq!(
            f.late_request.as_deref(),
            Some("a memory request (AR) at clock 13, after the hang")
        );
        // Before the hang requests are the stage's business.
        let mut f = Fop::default();
        f.checked(&out(false, false, false), 1, 1);
        f.checked(&out(false, false, true), 1, 2);
        assert_eq!(f.late_request, None);
    }
}
