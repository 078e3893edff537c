//! The generic stage wrapper: one [`RtlStage`] drives any described stage whose configuration is
//! register writes ([`super::desc::Config::Regs`]) through the same transaction protocol, and a
//! stage contributes only its [`Protocol`]: how an item drives the In struct, how a result is
//! read from the Out struct, how its side port is served, and its hang and idle rules.
//!
//! What every such stage shares lives here once: the input queue, the stash of results that
//! left while a configuration change drained the stage (handed out first, one per clock), the
//! in-flight count, the drain before register writes and the writes themselves (only the
//! registers that differ from what the RTL holds, one per clock), the side-port server
//! ([`SideServer`]) and its handshakes, the watchdogs and the list of protocol breaches.
//! `RtlTev`, `RtlFop` and `RtlRast` each hold one.

use super::core::Core;
use super::desc::{Config, SideKind, Stage};
use super::handle::Fns;
use super::side::{MemLatency, SideServer};
use super::tally::Tally;
use crate::axi::{AxiIn, AxiMemory, AxiOut, AxiPolicy, AxiServer, Reorder};
use crate::error::RtlError;
use std::collections::VecDeque;
use std::path::Path;

/// The register-write inputs of a register-configured stage's In struct, alike in every such
/// top (`cfg_we_i`, `cfg_id_i`, `cfg_data_i`, `out_ready_i`).
pub(crate) trait RegIn {
    /// The inputs of a clock that writes register `id` (low 10 bits) with `value`, the output
    /// ready and nothing else driven.
    fn reg_write(id: u16, value: u32) -> Self;
}

/// The handshake inputs of a stage's side port (`{name}_rsp_valid_i`, `{name}_req_ready_i`;
/// nothing for a stage without one).
pub(crate) trait SideIn {
    /// Drives the response `valid`.
    fn set_rsp_valid(&mut self, _valid: bool) {}
    /// Drives the request `ready`.
    fn set_req_ready(&mut self, _ready: bool) {}
}

/// The handshake outputs of a stage's side port (`{name}_req_valid_o`, `{name}_rsp_ready_o`;
/// never up for a stage without one).
pub(crate) trait SideOut {
    /// The request `valid`.
    fn req_valid(&self) -> bool {
        false
    }
    /// The response `ready`.
    fn rsp_ready(&self) -> bool {
        false
    }
}

/// The handshake and status outputs of a stage's Out struct (`in_ready_o`, `out_valid_o`,
/// `idle_o`).
pub(crate) trait Handshake {
    /// `in_ready_o`.
    fn in_ready(&self) -> bool;
    /// `out_valid_o`.
    fn out_valid(&self) -> bool;
    /// `idle_o`.
    fn idle(&self) -> bool;
}

/// The generated shim of a described stage: its In / Out structs, its handle, its entry
/// points and its description.
pub(crate) trait Shim: 'static {
    /// The In struct.
    type In: Copy + Default + RegIn + SideIn + AxiIn + 'static;
    /// The Out struct.
    type Out: Copy + Default + Handshake + SideOut + AxiOut + 'static;
    /// The opaque model handle.
    type Handle: 'static;
    /// The entry points.
    const FNS: &'static Fns<Self::In, Self::Out, Self::Handle>;
    /// The description (its registers come from its [`Config::Regs`]).
    const STAGE: &'static Stage;
}

/// The In struct of protocol `P`'s shim.
pub(crate) type In<P> = <<P as Protocol>::Shim as Shim>::In;
/// The Out struct of protocol `P`'s shim.
pub(crate) type Out<P> = <<P as Protocol>::Shim as Shim>::Out;
type HandleOf<P> = <<P as Protocol>::Shim as Shim>::Handle;

/// The [`Shim`] of each register-configured stage (a unit type named `$shim`), with
/// [`RegIn`], [`Handshake`], [`SideIn`] and [`SideOut`] for its In / Out structs (`side`: the
/// side port's `req_valid`, `req_ready`, `rsp_valid` and `rsp_ready` fields).
macro_rules! shims {
    ($(
        $shim:ident = $m:ident::{$i:ident, $o:ident, $h:ident}, $stage:ident
        $(, side($qv:ident, $qr:ident, $sv:ident, $sr:ident))?;
    )+) => {$(
        #[doc = concat!("The shim of [`super::desc::", stringify!($stage), "`].")]
        #[derive(Debug)]
        pub(crate) struct $shim;

        impl Shim for $shim {
            type In = $m::$i;
            type Out = $m::$o;
            type Handle = $m::$h;
            const FNS: &'static Fns<$m::$i, $m::$o, $m::$h> = &$m::FNS;
            const STAGE: &'static Stage = &super::desc::$stage;
        }

        impl RegIn for $m::$i {
            fn reg_write(id: u16, value: u32) -> Self {
                Self {
                    cfg_we: 1,
                    cfg_id: u32::from(id & 0x3FF),
                    cfg_data: value,
                    out_ready: 1,
                    ..Default::default()
                }
            }
        }

        impl SideIn for $m::$i {
            $(
                fn set_rsp_valid(&mut self, valid: bool) {
                    self.$sv = u32::from(valid);
                }
                fn set_req_ready(&mut self, ready: bool) {
                    self.$qr = u32::from(ready);
                }
            )?
        }

        impl SideOut for $m::$o {
            $(
                fn req_valid(&self) -> bool {
                    self.$qv != 0
                }
                fn rsp_ready(&self) -> bool {
                    self.$sr != 0
                }
            )?
        }

        impl Handshake for $m::$o {
            fn in_ready(&self) -> bool {
                self.in_ready != 0
            }
            fn out_valid(&self) -> bool {
                self.out_valid != 0
            }
            fn idle(&self) -> bool {
                self.idle != 0
            }
        }
    )+};
}

use super::abi::{fop, rast, tev, tex};
shims! {
    TevShim = tev::{PicaTevIn, PicaTevOut, PicaTev}, TEV;
    FopShim = fop::{PicaFopIn, PicaFopOut, PicaFop}, FOP;
    TexShim = tex::{PicaTexIn, PicaTexOut, PicaTex}, TEX;
    RastShim = rast::{PicaRastIn, PicaRastOut, PicaRast}, RAST,
        side(ed_req_valid, ed_req_ready, ed_rsp_valid, ed_rsp_ready);
}

/// A stage's rules: what counts as progress, as idle, as done.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// Clocks without progress after which a drain or [`RtlStage::run`] gives up.
    pub(crate) watchdog_clocks: u64,
    /// Whether every item yields exactly one result: then the items in flight are counted
    /// (in [`RtlStage::pending`], [`RtlStage::is_idle`] and the drain), and a result with none
    /// in flight is the breach `orphan`. (A RAST triangle yields any number of fragments.)
    pub(crate) one_result_per_item: bool,
    /// The breach of a result with no item in flight.
    pub(crate) orphan: &'static str,
    /// Whether the stage's `idle_o` is part of being idle (TEV checks it against the count in
    /// flight instead, [`Protocol::checked`]).
    pub(crate) idle_from_port: bool,
    /// Whether a result stashed by a drain is handed out in a clock with default inputs (TEV:
    /// nothing driven, output held) rather than a clock that still drives the queue head and
    /// serves the side port with the output held (FOP, RAST).
    pub(crate) stash_holds: bool,
    /// Whether [`RtlStage::run`] goes on until the stage is idle (TEV, RAST) or only until
    /// nothing is pending (FOP: its owed responses and `idle_o` are not waited for).
    pub(crate) run_until_idle: bool,
    /// Whether the watchdog counts clocks without a result (TEV) rather than clocks without
    /// any handshake (FOP, RAST).
    pub(crate) quiet_without_result: bool,
    /// Clocks without an item taken or a result given (the side port may move, or nothing)
    /// after which a run or a drain gives up with a livelock breach; 0: no bound. The
    /// handshake watchdog cannot see a livelock: an RTL that repeats a memory access forever
    /// keeps the port moving (a FOP mutant that re-wrote its colour pixel at every odd memory
    /// latency hung `pica fuzz`).
    pub(crate) livelock_clocks: u64,
    /// What the items are called (throughput figures).
    pub(crate) items: &'static str,
    /// What the results are called in the breach of [`RtlStage::set_result_limit`] (and in
    /// throughput figures).
    pub(crate) results: &'static str,
    /// What the side port's requests are called in the breach of
    /// [`RtlStage::set_side_limit`].
    pub(crate) side_requests: &'static str,
    /// Bytes one side-port request moves (its data word; request/response ports have no
    /// bursts; an AXI4 port counts the bytes of its beats instead).
    pub(crate) side_bytes: u64,
}

impl Rules {
    /// The common rules (FOP's and RAST's, apart from their watchdog and nouns): one result
    /// per item, idle when `idle_o` says so, stashed results handed out in clocks that keep
    /// driving the ports, runs until idle, any handshake is progress.
    pub(crate) const HANDSHAKES: Rules = Rules {
        watchdog_clocks: 20_000,
        one_result_per_item: true,
        orphan: "a result with no item in flight",
        idle_from_port: true,
        stash_holds: false,
        run_until_idle: true,
        quiet_without_result: false,
        livelock_clocks: 0,
        items: "items",
        results: "results",
        side_requests: "side-port requests",
        side_bytes: 0,
    };
}

/// The protocol breaches a stage saw, each with the clock it was seen in.
#[derive(Debug, Default)]
pub(crate) struct Violations(Vec<String>);

impl Violations {
    /// Records `what` seen in clock `clock` (the first 32 only: the first breaches say what is
    /// wrong).
    pub(crate) fn add(&mut self, clock: u64, what: String) {
        if self.0.len() < 32 {
            self.0.push(format!("clock {clock}: {what}"));
        }
    }

    /// The list.
    pub(crate) fn list(&self) -> &[String] {
        &self.0
    }
}

/// Where a stage hook reports a breach: the list and the clock it is in.
pub(crate) struct Log<'a> {
    list: &'a mut Violations,
    clock: u64,
}

impl<'a> Log<'a> {
    /// A log into `list` at clock `clock`.
    fn new(list: &'a mut Violations, clock: u64) -> Self {
        Self { list, clock }
    }

    /// Records `what` in the current clock.
    pub(crate) fn violate(&mut self, what: String) {
        self.list.add(self.clock, what);
    }
}

/// What a stage contributes to [`RtlStage`]: its types, how items and results cross its ports,
/// its side port and its rules. The hooks have no-op defaults.
pub(crate) trait Protocol: std::fmt::Debug {
    /// The stage's shim.
    type Shim: Shim;
    /// One transaction into the input port.
    type Item: Clone + std::fmt::Debug;
    /// One transaction out of the output port.
    type Result: std::fmt::Debug;
    /// A response the side port owes the stage (`()` without a side port).
    type Rsp: Copy + std::fmt::Debug;
    /// What the caller lends each clock to serve the side port (FOP: the memory; `()` else).
    type Ctx: ?Sized;

    /// The stage's rules.
    const RULES: Rules;

    /// Drives `head` (the item offered to the input port, if any) and the consumer's
    /// `out_ready` onto the inputs of a clock (the side port is driven after this).
    fn drive(&mut self, head: Option<&Self::Item>, out_ready: bool) -> In<Self>;
    /// The result on the output port.
    fn result(o: &Out<Self>) -> Self::Result;

    /// Whether the stage has stopped taking items (FOP's hang): no head is offered and a drain
    /// ends without writing.
    fn halted(&self) -> bool {
        false
    }
    /// Checks the settled outputs of a clock before its handshakes (`in_flight`: items in
    /// flight before them; `clock`: the clock).
    fn checked(&mut self, _o: &Out<Self>, _in_flight: usize, _clock: u64) {}
    /// The input port took the head.
    fn accepted(&mut self) {}
    /// The breach to record when a drain's watchdog fires (`queued`, `in_flight`: the items
    /// still queued and in flight), which then gives up without writing; `None`: the items
    /// queued and in flight are dropped instead and the writes go ahead (TEV).
    fn drain_stuck(&self, _queued: usize, _in_flight: usize) -> Option<String> {
        None
    }
    /// The breach to record when [`RtlStage::run`]'s watchdog fires (it then stops);
    /// `None`: no watchdog (TEV).
    fn run_stuck(&self, _queued: usize, _pending: usize) -> Option<String> {
        None
    }
    /// A drain or a run ended with the stage idle or not (`idle`: [`RtlStage::is_idle`]).
    fn settled(&mut self, _idle: bool, _log: &mut Log<'_>) {}
    /// The inputs of a register write settled to `o`, before its clock.
    fn wrote(&mut self, _id: u16, _o: &Out<Self>, _log: &mut Log<'_>) {}
    /// A clock edge left the outputs `last`.
    fn clocked(&mut self, _last: &Out<Self>, _log: &mut Log<'_>) {}

    /// Drives the side port's response payload for `rsp` (or none) on `inp` (its `valid` is
    /// driven by [`RtlStage`]).
    fn offer(_inp: &mut In<Self>, _rsp: Option<&Self::Rsp>) {}
    /// Performs the request on the outputs `o` (accepted this clock); returns its response.
    fn perform(&mut self, _ctx: &mut Self::Ctx, _o: &Out<Self>, _log: &mut Log<'_>) -> Self::Rsp {
        unreachable!("a stage without a request/response side port makes no request")
    }
    /// The memory behind the stage's AXI4 port ([`SideKind::Axi`]), lent from the caller's
    /// context each clock.
    fn axi_memory(_ctx: &mut Self::Ctx) -> &mut dyn AxiMemory {
        unreachable!("a stage without an AXI4 port has no memory behind it")
    }
}

/// One Verilated stage of protocol `P`, its input queue, its stash and its side port.
pub(crate) struct RtlStage<P: Protocol> {
    /// The model (its coverage counters are read through it).
    pub(crate) core: Core<In<P>, Out<P>, HandleOf<P>>,
    /// The stage's own state.
    pub(crate) proto: P,
    /// How the side port is answered (`None`: the stage has none).
    latency: Option<MemLatency>,
    /// The side port's owed responses (a request/response port).
    side: Option<SideServer<P::Rsp>>,
    /// The subordinate on the stage's AXI4 port, and how it reorders.
    axi: Option<AxiServer>,
    reorder: Reorder,
    /// The registers the stage stores, in slot order (from the description).
    ids: Vec<u16>,
    /// The configuration words the RTL holds (`None`: not written since reset).
    shadow: Option<Vec<u32>>,
    queue: VecDeque<P::Item>,
    /// Results that left while a drain ran, handed out first.
    stash: VecDeque<P::Result>,
    in_flight: usize,
    /// Items the input port took and results the output port gave, so far.
    taken: u64,
    given: u64,
    /// Results after which a drain or run gives up ([`RtlStage::set_result_limit`]).
    limit: u64,
    /// Side-port requests taken so far, and the number after which a drain or run gives up
    /// ([`RtlStage::set_side_limit`]).
    side_taken: u64,
    side_limit: u64,
    /// The outputs after the last clock.
    last: Out<P>,
    violations: Violations,
    /// Throughput counts ([`RtlStage::tally`]).
    tally: Tally,
}

// By hand: a derive would ask the shim's opaque handle for `Debug`.
impl<P: Protocol> std::fmt::Debug for RtlStage<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RtlStage")
            .field("core", &self.core)
            .field("proto", &self.proto)
            .field("shadow", &self.shadow)
            .field("queue", &self.queue)
            .field("stash", &self.stash)
            .field("in_flight", &self.in_flight)
            .field("side", &self.side)
            .field("violations", &self.violations)
            .finish_non_exhaustive()
    }
}

impl<P: Protocol> RtlStage<P> {
    /// Names of the variants compiled into the shim.
    pub(crate) fn variants() -> Vec<String> {
        Core::variants(P::Shim::FNS)
    }

    /// A new, reset stage of the variant the shim calls `name` (`mutant`: mutant `k` of a
    /// mutant model), whose side port (if it has one) answers with `latency` (an AXI4 port
    /// also with `reorder`). `zeroed`: the RTL's registers count as known and zero (the first
    /// write writes only what differs from zero) rather than unknown (it writes them all).
    pub(crate) fn open(
        name: &'static str,
        mutant: Option<u16>,
        proto: P,
        latency: Option<MemLatency>,
        reorder: Reorder,
        zeroed: bool,
    ) -> Result<Self, RtlError> {
        let mut core = Core::open(P::Shim::FNS, name, mutant)?;
        let last = core.peek();
        let Config::Regs { ids } = P::Shim::STAGE.config else {
            unreachable!("a generic stage is configured by register writes")
        };
        let ids = ids();
        let axi_port = P::Shim::STAGE
            .side_ports
            .iter()
            .any(|sp| matches!(sp.kind, SideKind::Axi { .. }));
        // The server takes as many transactions as the master may have IDs in flight, and
        // more: a master that overruns its own ID space is the master's bug to show.
        let axi = latency
            .filter(|_| axi_port)
            .map(|l| AxiServer::new(4, AxiPolicy::new(l, reorder, 64)));
        Ok(Self {
            core,
            proto,
            latency,
            side: latency.filter(|_| !axi_port).map(SideServer::new),
            axi,
            reorder,
            shadow: zeroed.then(|| vec![0; ids.len()]),
            ids,
            queue: VecDeque::new(),
            stash: VecDeque::new(),
            in_flight: 0,
            taken: 0,
            given: 0,
            limit: u64::MAX,
            side_taken: 0,
            side_limit: u64::MAX,
            last,
            violations: Violations::default(),
            tally: Tally {
                items_noun: P::RULES.items,
                results_noun: P::RULES.results,
                side_noun: latency.map(|_| P::RULES.side_requests),
                max_in_flight: P::RULES.one_result_per_item.then_some(0),
                ..Tally::default()
            },
        })
    }

    /// How the side port is answered.
    pub(crate) fn latency(&self) -> Option<MemLatency> {
        self.latency
    }

    /// How an AXI4 port's responses are reordered.
    pub(crate) fn reorder(&self) -> Reorder {
        self.reorder
    }

    /// The AXI4 port's traffic so far (`None`: the stage has no AXI4 port).
    pub(crate) fn axi_tally(&self) -> Option<crate::axi::AxiTally> {
        self.axi.as_ref().map(AxiServer::tally)
    }

    /// Clocks run since reset.
    pub(crate) fn cycles(&self) -> u64 {
        self.core.cycles()
    }

    /// Items the input port took and results the output port gave, so far.
    pub(crate) fn counts(&self) -> (u64, u64) {
        (self.taken, self.given)
    }

    /// Throughput counts so far.
    pub(crate) fn tally(&self) -> Tally {
        let (side_requests, side_bytes) = match &self.axi {
            Some(a) => {
                let t = a.tally();
                (
                    t.read_bursts + t.write_bursts,
                    t.bytes_read + t.bytes_written,
                )
            }
            None => (self.side_taken, self.side_taken * P::RULES.side_bytes),
        };
        Tally {
            clocks: self.core.cycles(),
            items: self.taken,
            results: self.given,
            side_requests,
            side_bytes,
            ..self.tally
        }
    }

    /// Protocol breaches seen so far.
    pub(crate) fn violations(&self) -> &[String] {
        self.violations.list()
    }

    /// Whether anything is queued, in flight (counted or, by `idle_o`, inside the stage) or
    /// owed by the side port; the stash does not count.
    fn busy(&self) -> bool {
        !self.queue.is_empty()
            || (P::RULES.one_result_per_item && self.in_flight > 0)
            || self.side.as_ref().is_some_and(|s| !s.is_empty())
            || self.axi.as_ref().is_some_and(|a| !a.is_idle())
            || (P::RULES.idle_from_port && !self.last.idle())
    }

    /// Nothing queued, in flight, waiting to be handed out or owed.
    pub(crate) fn is_idle(&self) -> bool {
        !self.busy() && self.stash.is_empty()
    }

    /// Whether the input side is free: nothing queued that has not yet entered the stage.
    pub(crate) fn can_accept(&self) -> bool {
        self.queue.is_empty()
    }

    /// Items queued and (when counted) in flight, plus results not yet handed out.
    pub(crate) fn pending(&self) -> usize {
        let flying = if P::RULES.one_result_per_item {
            self.in_flight
        } else {
            0
        };
        self.queue.len() + flying + self.stash.len()
    }

    /// Queues `item`; it enters the stage in a later clock.
    pub(crate) fn push(&mut self, item: P::Item) {
        self.queue.push_back(item);
    }

    /// Makes a drain or run give up (recorded as a breach) once more than `limit` results have
    /// left: a broken RTL that sends results forever keeps the handshake watchdog quiet.
    pub(crate) fn set_result_limit(&mut self, limit: u64) {
        self.limit = limit;
    }

    /// Makes a drain or run give up (recorded as a breach) once the side port has taken more
    /// than `limit` requests: a livelocked RTL that repeats an access forever keeps the
    /// handshake watchdog quiet and gives no result, so a checker that knows how many accesses
    /// the items can need at most (RAST: two per traversal pixel) sets it.
    pub(crate) fn set_side_limit(&mut self, limit: u64) {
        self.side_limit = limit;
    }

    /// Whether the side port has taken more requests than [`RtlStage::set_side_limit`] allows
    /// (for callers that clock with [`RtlStage::tick`]).
    pub(crate) fn side_limit_passed(&self) -> bool {
        self.side_taken > self.side_limit
    }

    /// Makes the RTL's registers equal to `words` (the description's slot order): if any
    /// differs, drains the stage, then writes the differing ones (all of them while unknown),
    /// one per clock. Nothing is written when the drain gives up.
    pub(crate) fn set_config(&mut self, words: &[u32], ctx: &mut P::Ctx) {
        if self.shadow.as_deref() == Some(words) {
            return;
        }
        if !self.drain(ctx) {
            return;
        }
        for (slot, &w) in words.iter().enumerate() {
            if self.shadow.as_ref().is_some_and(|s| s[slot] == w) {
                continue;
            }
            self.reg_write(self.ids[slot], w);
        }
        self.shadow = Some(words.to_vec());
    }

    /// Writes register `id` (any ID) with `value` after draining like
    /// [`RtlStage::set_config`]; the configuration that compares with follows.
    pub(crate) fn write_reg(&mut self, id: u16, value: u32, ctx: &mut P::Ctx) {
        if !self.drain(ctx) {
            return;
        }
        self.reg_write(id, value);
        // Before the first write not every register is known: that write writes them all.
        if let (Some(slot), Some(s)) = (
            self.ids.iter().position(|&r| r == id & 0x3FF),
            self.shadow.as_mut(),
        ) {
            s[slot] = value;
        }
    }

    /// One clock; returns the result handed to the consumer in it (`out_ready`: the consumer's
    /// ready). Stashed results come first, one per clock (the stage still advances a clock).
    pub(crate) fn tick(&mut self, ctx: &mut P::Ctx, out_ready: bool) -> Option<P::Result> {
        if out_ready {
            if let Some(r) = self.stash.pop_front() {
                self.pass(ctx);
                return Some(r);
            }
        }
        self.step(ctx, out_ready).0
    }

    /// Pushes `items`, clocks (output always ready) until the stage is done (idle, or for
    /// [`Rules::run_until_idle`] `false` nothing pending, or halted with nothing left to
    /// hand out) and returns the results in order, plus any pending from before. Gives up when
    /// the watchdog or the result limit fires (recorded as a breach).
    pub(crate) fn run(&mut self, items: &[P::Item], ctx: &mut P::Ctx) -> Vec<P::Result> {
        for it in items {
            self.push(it.clone());
        }
        let mut out = Vec::with_capacity(self.pending());
        let mut quiet = 0u64;
        let mut no_io = 0u64;
        let mut after_halt = 0u64;
        loop {
            // An AXI4 port's writes land after the master took them from the stage: a run
            // also waits for every transaction to end.
            let more = if P::RULES.run_until_idle {
                !self.is_idle()
            } else {
                self.pending() > 0 || self.axi.as_ref().is_some_and(|a| !a.is_idle())
            };
            if !more {
                break;
            }
            if self.proto.halted() && self.stash.is_empty() && !self.last.out_valid() {
                // A hung stage with an AXI4 port: what is in flight ends, and a few clocks
                // more show any request it still makes (the contract: none after the hang).
                after_halt += 1;
                let settled = self.axi.as_ref().is_none_or(|a| a.is_idle());
                if (settled && after_halt > HALT_GRACE_CLOCKS)
                    || after_halt > HALT_LIMIT_CLOCKS
                    || self.axi.is_none()
                {
                    break;
                }
            }
            let (r, p) = match self.stash.pop_front() {
                Some(r) => {
                    self.pass(ctx);
                    (
                        Some(r),
                        Progress {
                            moved: true,
                            io: true,
                        },
                    )
                }
                None => self.step(ctx, true),
            };
            out.extend(r);
            quiet = if p.moved { 0 } else { quiet + 1 };
            if self.over_limit() || self.livelocked(p, &mut no_io) {
                break;
            }
            if quiet > P::RULES.watchdog_clocks {
                if let Some(what) = self.proto.run_stuck(self.queue.len(), self.pending()) {
                    self.violate(what);
                    break;
                }
            }
        }
        let idle = self.is_idle();
        let mut log = Log::new(&mut self.violations, self.core.cycles());
        self.proto.settled(idle, &mut log);
        out
    }

    /// Starts writing a VCD of every following clock edge to `path`.
    pub(crate) fn trace_vcd(&mut self, path: &Path) -> Result<(), RtlError> {
        self.core.trace_vcd(path)
    }

    /// Stops tracing and closes the VCD, if one is open.
    pub(crate) fn trace_off(&mut self) {
        self.core.trace_off();
    }

    fn violate(&mut self, what: String) {
        self.violations.add(self.core.cycles(), what);
    }

    /// Whether more results than the limit have left, recorded as a breach (the callers stop
    /// at once).
    fn over_limit(&mut self) -> bool {
        if self.side_limit_passed() {
            self.violate(format!(
                "more than {} {}: an access repeated",
                self.side_limit,
                P::RULES.side_requests
            ));
            return true;
        }
        // A stage with one result per item can never give more results than it took items:
        // one that does (a mutant stuck offering its output) keeps every watchdog quiet, since
        // each result is progress.
        if P::RULES.one_result_per_item && self.given > self.taken {
            self.violate(format!(
                "more {} given ({}) than {} taken ({})",
                P::RULES.results,
                self.given,
                P::RULES.items,
                self.taken
            ));
            return true;
        }
        if self.given <= self.limit {
            return false;
        }
        self.violate(format!("more than {} {}", self.limit, P::RULES.results));
        true
    }

    /// Clocks until nothing is queued, in flight or owed (or the stage halts); the results
    /// that leave go to the stash. `false` if the stage halted or a watchdog gave up instead.
    fn drain(&mut self, ctx: &mut P::Ctx) -> bool {
        let mut quiet = 0u64;
        let mut no_io = 0u64;
        while !self.proto.halted() && self.busy() {
            let (r, p) = self.step(ctx, true);
            self.stash.extend(r);
            quiet = if p.moved { 0 } else { quiet + 1 };
            if self.over_limit() || self.livelocked(p, &mut no_io) {
                return false;
            }
            if quiet > P::RULES.watchdog_clocks {
                match self.proto.drain_stuck(self.queue.len(), self.in_flight) {
                    Some(what) => {
                        self.violate(what);
                        return false;
                    }
                    None => {
                        // A stuck pipeline (a broken RTL, e.g. a mutant): the items are lost,
                        // so the comparison reports them missing instead of this loop never
                        // ending.
                        self.queue.clear();
                        self.in_flight = 0;
                    }
                }
            }
        }
        if self.proto.halted() {
            return false;
        }
        let idle = self.is_idle();
        let mut log = Log::new(&mut self.violations, self.core.cycles());
        self.proto.settled(idle, &mut log);
        true
    }

    /// One register-write clock (the stage is idle: nothing else should move).
    fn reg_write(&mut self, id: u16, value: u32) {
        let o = self.core.eval(&In::<P>::reg_write(id, value));
        let mut log = Log::new(&mut self.violations, self.core.cycles());
        self.proto.wrote(id, &o, &mut log);
        self.clock();
    }

    fn clock(&mut self) {
        self.last = self.core.clock();
        let mut log = Log::new(&mut self.violations, self.core.cycles());
        self.proto.clocked(&self.last, &mut log);
    }

    /// The clock in which a stashed result is handed out: a busy clock for the tally (a result
    /// leaves in it), whether the stage idles through it or steps.
    fn pass(&mut self, ctx: &mut P::Ctx) {
        if P::RULES.stash_holds {
            self.tally.busy_clocks += 1;
            self.core.eval(&In::<P>::default());
            self.clock();
        } else {
            let _ = self.step(ctx, false);
        }
    }

    /// One clock driving the head of the queue and the side port; returns the result taken in
    /// it and whether it made progress: for the watchdog, and as an item taken or a result given
    /// (for the livelock bound).
    fn step(&mut self, ctx: &mut P::Ctx, out_ready: bool) -> (Option<P::Result>, Progress) {
        let now = self.core.cycles();
        self.tally.busy_clocks += u64::from(self.busy());
        let head = if self.proto.halted() {
            None
        } else {
            self.queue.front()
        };
        let has_head = head.is_some();
        let mut inp = self.proto.drive(head, out_ready);
        let mut ready = false;
        let mut offered = false;
        if let Some(side) = self.side.as_mut() {
            let rsp = side.offer(now);
            offered = rsp.is_some();
            inp.set_rsp_valid(offered);
            P::offer(&mut inp, rsp);
            ready = side.request_ready();
            inp.set_req_ready(ready);
        }
        let axi_before = self.axi.as_ref().map(axi_handshakes);
        if let Some(axi) = self.axi.as_mut() {
            inp.drive_axi(&axi.drive());
        }
        let o = self.core.eval(&inp);
        self.proto.checked(&o, self.in_flight, now);
        let mut moved = false;
        if has_head && o.in_ready() {
            self.queue.pop_front();
            self.in_flight += 1;
            self.taken += 1;
            self.proto.accepted();
            moved = true;
        }
        self.tally.out_stall_clocks += u64::from(o.out_valid() && !out_ready);
        let result = (o.out_valid() && out_ready).then(|| P::result(&o));
        if result.is_some() {
            moved = true;
            self.given += 1;
            if P::RULES.one_result_per_item && self.in_flight == 0 {
                self.violate(P::RULES.orphan.into());
            }
            self.in_flight = self.in_flight.saturating_sub(1);
        }
        let io = moved;
        if P::RULES.quiet_without_result {
            moved = result.is_some();
        }
        if let Some(side) = self.side.as_mut() {
            if offered && o.rsp_ready() {
                side.taken();
                moved = true;
            }
            if o.req_valid() && ready {
                let mut log = Log::new(&mut self.violations, now);
                let rsp = self.proto.perform(ctx, &o, &mut log);
                side.accept(now, rsp);
                self.side_taken += 1;
                moved = true;
            }
            self.tally.max_side_outstanding =
                self.tally.max_side_outstanding.max(side.len() as u64);
        }
        if let Some(axi) = self.axi.as_mut() {
            let m = o.axi_master();
            if let Err(v) = axi.clock(&m, P::axi_memory(ctx)) {
                self.violations.add(now, format!("AXI4 port: {v}"));
            }
            if axi_before.is_some_and(|b| b != axi_handshakes(axi)) {
                moved = true;
            }
            self.side_taken = axi.tally().read_bursts + axi.tally().write_bursts;
            self.tally.max_side_outstanding = self
                .tally
                .max_side_outstanding
                .max(axi.outstanding() as u64);
        }
        if let Some(m) = &mut self.tally.max_in_flight {
            *m = (*m).max(self.in_flight as u64);
        }
        self.clock();
        (result, Progress { moved, io })
    }

    /// Counts a clock toward the livelock bound ([`Rules::livelock_clocks`]) and records the
    /// breach when it is passed; `true`: give up.
    fn livelocked(&mut self, p: Progress, no_io: &mut u64) -> bool {
        *no_io = if p.io { 0 } else { *no_io + 1 };
        if P::RULES.livelock_clocks == 0 || *no_io <= P::RULES.livelock_clocks {
            return false;
        }
        self.violate(format!(
            "livelock: {} clocks without taking an item or giving a result, the side port \
             still moving ({} queued, {} in flight)",
            *no_io,
            self.queue.len(),
            self.in_flight
        ));
        true
    }
}

/// Handshakes so far on the five channels of an AXI4 port (progress for the watchdog).
fn axi_handshakes(a: &AxiServer) -> u64 {
    crate::axi::Channel::ALL
        .iter()
        .map(|&c| a.checker().beats(c))
        .sum()
}

/// Clocks a run goes on after the stage halted with its AXI4 port idle, to see a request made
/// after the hang (the master issues an address a clock after it takes a request).
const HALT_GRACE_CLOCKS: u64 = 4;

/// Clocks a run goes on after the stage halted at most (its transactions in flight end well
/// within this at any latency the harness offers).
const HALT_LIMIT_CLOCKS: u64 = 2_000;

/// What one clock moved: any handshake (`moved`, the watchdog's progress; for TEV only a
/// result), and an item taken or a result given (`io`).
#[derive(Clone, Copy, Debug)]
struct Progress {
    moved: bool,
    io: bool,
}

/// Declares a stage wrapper `$ty` (fields `stage: RtlStage<$proto>` and `variant: $variant`)
/// with its coverage methods (`$cov`: the coverage build, for the docs) and the methods every
/// wrapper forwards to its [`RtlStage`] alike; `$what` names the stage in the docs.
macro_rules! stage_wrapper {
    ($(#[$m:meta])* pub struct $ty:ident($proto:ty, $variant:ty), $what:literal, $cov:literal;) => {
        $(#[$m])*
        #[derive(Debug)]
        pub struct $ty {
            stage: crate::kit::stage::RtlStage<$proto>,
            variant: $variant,
        }

        crate::kit::handle::coverage_methods!($ty, $cov, stage.core.handle);

        impl $ty {
            #[doc = concat!("Names of the ", $what, " variants compiled into this build.")]
            pub fn variants() -> Vec<String> {
                crate::kit::stage::RtlStage::<$proto>::variants()
            }

            /// Which build this is.
            pub fn variant(&self) -> $variant {
                self.variant
            }

            /// Clocks run since reset.
            pub fn cycles(&self) -> u64 {
                self.stage.cycles()
            }

            /// Nothing queued, in flight, waiting to be handed out or owed by the side port
            /// (and, for a stage whose `idle_o` counts, the RTL reports `idle_o`).
            pub fn is_idle(&self) -> bool {
                self.stage.is_idle()
            }

            /// Whether the input side is free: nothing queued that has not yet entered the
            /// stage (an adapter pushes one item at a time, as the input port's `ready`
            /// allows).
            pub fn can_accept(&self) -> bool {
                self.stage.can_accept()
            }

            /// Items pushed but not yet handed out by `tick`: those queued, those in flight
            /// when each yields one result (after a hang the hanging one stays counted), and
            /// results that left during a drain.
            pub fn pending(&self) -> usize {
                self.stage.pending()
            }

            /// Protocol breaches the bridge saw (empty for an RTL that keeps the contract).
            pub fn violations(&self) -> &[String] {
                self.stage.violations()
            }

            /// Throughput counts since reset: clocks, busy clocks, items, results,
            /// backpressure and side-port traffic.
            pub fn throughput(&self) -> crate::kit::tally::Tally {
                self.stage.tally()
            }

            /// Starts writing a VCD of every following clock edge to `path`.
            pub fn trace_vcd(&mut self, path: &std::path::Path) -> Result<(), crate::RtlError> {
                self.stage.trace_vcd(path)
            }

            /// Stops tracing and closes the VCD, if one is open.
            pub fn trace_off(&mut self) {
                self.stage.trace_off();
            }
        }
    };
}
pub(crate) use stage_wrapper;
