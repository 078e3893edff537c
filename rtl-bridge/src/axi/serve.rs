//! The AXI4 subordinate the harness puts behind an RTL memory master.

use super::check::{lane_mask, AxiChecker, AxiViolation};
use super::{Addr, AxiTally, BBeat, MasterOut, RBeat, Resp, SubOut, WBeat};
use crate::kit::side::{LatencyPolicy, MemLatency, Standard};
use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

/// A byte memory the server reads and writes.
pub trait AxiMemory {
    /// Reads `buf.len()` bytes from `addr`; false if any of them is unmapped.
    fn read(&self, addr: u32, buf: &mut [u8]) -> bool;
    /// Writes `data` at `addr`; false if any of it is unmapped (then nothing is written).
    fn write(&mut self, addr: u32, data: &[u8]) -> bool;
}

impl AxiMemory for pica_model::mem::Memory {
    fn read(&self, addr: u32, buf: &mut [u8]) -> bool {
        self.read_into(addr, buf).is_ok()
    }

    fn write(&mut self, addr: u32, data: &[u8]) -> bool {
        self.write_bytes(addr, data).is_ok()
    }
}

/// In which order responses leave. Within one ID they always leave in request order (A5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reorder {
    /// Every response in request order, reads and writes each.
    #[default]
    InOrder,
    /// A due response of any ID may go first (the oldest of its ID); a read burst, once
    /// begun, finishes before another begins. Writes also land late: a write burst's bytes
    /// reach memory when its response is taken, the latest AXI4 allows (A6: a write is
    /// observable once its response is given), so a read issued before that response sees the
    /// old data, as a memory system with a write buffer and separate read and write paths may
    /// show it.
    AcrossIds,
    /// As [`Reorder::AcrossIds`], and read bursts of different IDs interleave beat by beat.
    Interleave,
}

impl FromStr for Reorder {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "none" | "in-order" => Ok(Reorder::InOrder),
            "ids" | "across-ids" => Ok(Reorder::AcrossIds),
            "interleave" => Ok(Reorder::Interleave),
            o => Err(format!(
                "unknown reordering `{o}` (none, ids: responses of different IDs out of order, \
                 interleave: and read bursts interleaved beat by beat)"
            )),
        }
    }
}

impl fmt::Display for Reorder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reorder::InOrder => "none",
            Reorder::AcrossIds => "ids",
            Reorder::Interleave => "interleave",
        })
    }
}

/// Latency, backpressure and order of an [`AxiServer`]: the same [`MemLatency`] as the side
/// ports (`--mem-latency`; under `rand:` each request channel is also held not-ready one clock
/// in five), a [`Reorder`], and how many transactions may be outstanding before the address
/// channels stop taking more.
#[derive(Clone, Debug)]
pub struct AxiPolicy {
    timing: Standard,
    reorder: Reorder,
    max_outstanding: usize,
}

impl AxiPolicy {
    /// A policy; the seed of [`MemLatency::Random`] also seeds the reordering choices.
    pub fn new(latency: MemLatency, reorder: Reorder, max_outstanding: usize) -> Self {
        Self {
            timing: Standard::new(latency, 0x5EED),
            reorder,
            max_outstanding: max_outstanding.max(1),
        }
    }

    fn ready(&mut self) -> bool {
        self.timing.request_ready()
    }

    fn extra_latency(&mut self) -> u64 {
        self.timing.extra_latency()
    }

    /// One of `n` (> 0) candidates.
    fn pick(&mut self, n: usize) -> usize {
        (self.timing.rand() % n as u64) as usize
    }
}

/// Bytes of a write that land when its response is taken: (address, byte).
type LateBytes = Vec<(u32, u8)>;

/// A write burst whose address was accepted: its data beats are applied as they come (or,
/// under a reordering policy, kept in `late` until the response is taken).
#[derive(Clone, Debug)]
struct Writing {
    addr: Addr,
    beats: u32,
    resp: Resp,
    late: LateBytes,
}

/// A read burst accepted: its data, read at the `AR` handshake, leaves beat by beat.
#[derive(Clone, Debug)]
struct Reading {
    due: u64,
    /// Accept order (for in-order service).
    order: u64,
    id: u16,
    /// Per beat: data, response, bytes (the beat's lanes).
    beats: Vec<(u64, Resp, u32)>,
    next: usize,
}

/// The AXI4 subordinate: serves an RTL master's five channels from an [`AxiMemory`] under an
/// [`AxiPolicy`], and checks every clock with an [`AxiChecker`] (see the module's clock
/// protocol).
#[derive(Debug)]
pub struct AxiServer {
    bus_bytes: u32,
    policy: AxiPolicy,
    checker: AxiChecker,
    cycle: u64,
    order: u64,
    writing: VecDeque<Writing>,
    /// Data beats that came ahead of their burst's address (AXI4 allows it).
    early_w: VecDeque<WBeat>,
    /// Write responses owed: (due clock, accept order, response, bytes that land when it is
    /// taken).
    b_owed: Vec<(u64, u64, BBeat, LateBytes)>,
    r_owed: Vec<Reading>,
    /// What [`AxiServer::drive`] offered this clock (kept until taken: a VALID stays up).
    offer: SubOut,
    /// Which entries of `b_owed` / `r_owed` the offers are.
    b_pick: Option<usize>,
    r_pick: Option<usize>,
    /// The read burst in progress under in-order and across-ID service (no interleaving).
    r_current: Option<u64>,
    tally: AxiTally,
}

impl AxiServer {
    /// A server for a `bus_bytes`-byte data bus (1, 2, 4 or 8).
    pub fn new(bus_bytes: u32, policy: AxiPolicy) -> Self {
        let bus_bytes = bus_bytes.clamp(1, 8).next_power_of_two();
        Self {
            bus_bytes,
            policy,
            checker: AxiChecker::new(bus_bytes),
            cycle: 0,
            order: 0,
            writing: VecDeque::new(),
            early_w: VecDeque::new(),
            b_owed: Vec::new(),
            r_owed: Vec::new(),
            offer: SubOut::default(),
            b_pick: None,
            r_pick: None,
            r_current: None,
            tally: AxiTally::default(),
        }
    }

    /// Bytes moved and bursts seen so far.
    pub fn tally(&self) -> AxiTally {
        self.tally
    }

    /// The checker (handshake counts per channel).
    pub fn checker(&self) -> &AxiChecker {
        &self.checker
    }

    /// Transactions accepted and not answered.
    pub fn outstanding(&self) -> usize {
        self.writing.len() + self.b_owed.len() + self.r_owed.len()
    }

    /// Nothing accepted and unanswered, no data beat waiting for its address.
    pub fn is_idle(&self) -> bool {
        self.outstanding() == 0 && self.early_w.is_empty()
    }

    /// What the subordinate drives this clock: call once per clock, before evaluating the
    /// master.
    pub fn drive(&mut self) -> SubOut {
        let now = self.cycle;
        let room = self.outstanding() < self.policy.max_outstanding;
        let aw_ready = self.policy.ready() && room;
        let w_ready = self.policy.ready();
        let ar_ready = self.policy.ready() && room;
        if self.b_pick.is_none() {
            self.b_pick = self.choose_b(now);
        }
        if self.r_pick.is_none() {
            self.r_pick = self.choose_r(now);
        }
        let b = self.b_pick.map(|i| self.b_owed[i].2);
        let r = self.r_pick.map(|i| {
            let rd = &self.r_owed[i];
            let (data, resp, _) = rd.beats[rd.next];
            RBeat {
                id: rd.id,
                data,
                resp,
                last: rd.next + 1 == rd.beats.len(),
            }
        });
        self.offer = SubOut {
            aw_ready,
            w_ready,
            ar_ready,
            b,
            r,
        };
        self.offer
    }

    /// The oldest owed write response of each ID, if due; one of them by the policy.
    fn choose_b(&mut self, now: u64) -> Option<usize> {
        let heads = heads(
            self.b_owed
                .iter()
                .map(|(due, order, b, _)| (*due, *order, b.id)),
        );
        self.choose(heads, now)
    }

    fn choose_r(&mut self, now: u64) -> Option<usize> {
        if self.policy.reorder != Reorder::Interleave {
            if let Some(order) = self.r_current {
                return self.r_owed.iter().position(|r| r.order == order);
            }
        }
        let heads = heads(self.r_owed.iter().map(|r| (r.due, r.order, r.id)));
        let pick = self.choose(heads, now)?;
        self.r_current = Some(self.r_owed[pick].order);
        Some(pick)
    }

    /// From the per-ID heads `(index, due, order)`: in order, the oldest overall if due;
    /// otherwise a random due one.
    fn choose(&mut self, heads: Vec<(usize, u64, u64)>, now: u64) -> Option<usize> {
        if self.policy.reorder == Reorder::InOrder {
            let (i, due, _) = heads.into_iter().min_by_key(|h| h.2)?;
            return (due <= now).then_some(i);
        }
        let due: Vec<usize> = heads
            .into_iter()
            .filter(|h| h.1 <= now)
            .map(|h| h.0)
            .collect();
        if due.is_empty() {
            return None;
        }
        let k = self.policy.pick(due.len());
        Some(due[k])
    }

    /// Ends the clock: `m` is what the master drove with [`AxiServer::drive`]'s inputs. Performs
    /// the handshakes (writes land in `mem` at their data beat's handshake, or under a
    /// reordering policy when their response is taken; a read burst's data is read at its
    /// address handshake) and returns the checker's first violation of the
    /// clock, if any (the handshakes are performed either way).
    pub fn clock(&mut self, m: &MasterOut, mem: &mut dyn AxiMemory) -> Result<(), AxiViolation> {
        let now = self.cycle;
        let s = self.offer;
        let verdict = self.checker.observe(m, &s);
        if let (Some(a), true) = (m.aw, s.aw_ready) {
            self.tally.write_bursts += 1;
            self.writing.push_back(Writing {
                addr: a,
                beats: 0,
                resp: Resp::Okay,
                late: Vec::new(),
            });
            while !self.writing.is_empty() {
                let Some(w) = self.early_w.pop_front() else {
                    break;
                };
                self.write_beat(now, w, mem);
            }
        }
        if let (Some(w), true) = (m.w, s.w_ready) {
            if self.writing.is_empty() {
                self.early_w.push_back(w);
            } else {
                self.write_beat(now, w, mem);
            }
        }
        if let (Some(_), true, Some(i)) = (s.b, m.b_ready, self.b_pick) {
            let (_, _, _, late) = self.b_owed.remove(i);
            for (at, byte) in late {
                // Checked mapped when the beat came.
                let _ = mem.write(at, &[byte]);
            }
            self.b_pick = None;
        }
        if let (Some(a), true) = (m.ar, s.ar_ready) {
            self.tally.read_bursts += 1;
            let base = !(self.bus_bytes - 1);
            let beats = (0..a.beats())
                .map(|k| {
                    let at = a.beat_addr(k);
                    let lanes = lane_mask(at, a.bytes_per_beat(), self.bus_bytes);
                    let mut data = 0u64;
                    let mut ok = true;
                    for lane in 0..self.bus_bytes {
                        if lanes & (1 << lane) != 0 {
                            let mut b = [0u8];
                            ok &= mem.read((at & base).wrapping_add(lane), &mut b);
                            data |= u64::from(b[0]) << (8 * lane);
                        }
                    }
                    let resp = if ok { Resp::Okay } else { Resp::DecErr };
                    (data, resp, lanes.count_ones())
                })
                .collect();
            let due = now + 1 + self.policy.extra_latency();
            self.r_owed.push(Reading {
                due,
                order: self.order,
                id: a.id,
                beats,
                next: 0,
            });
            self.order += 1;
        }
        if let (Some(r), true, Some(i)) = (s.r, m.r_ready, self.r_pick) {
            let rd = &mut self.r_owed[i];
            self.tally.bytes_read += u64::from(rd.beats[rd.next].2);
            rd.next += 1;
            if r.last {
                self.r_owed.remove(i);
                self.r_current = None;
            }
            self.r_pick = None;
        }
        self.tally.max_outstanding = self.tally.max_outstanding.max(self.outstanding() as u64);
        self.cycle += 1;
        verdict
    }

    /// Applies one data beat to the oldest burst being written.
    fn write_beat(&mut self, now: u64, w: WBeat, mem: &mut dyn AxiMemory) {
        let Some(cur) = self.writing.front_mut() else {
            return;
        };
        let a = cur.addr;
        let at = a.beat_addr(cur.beats);
        let lanes = lane_mask(at, a.bytes_per_beat(), self.bus_bytes);
        let base = at & !(self.bus_bytes - 1);
        let late = self.policy.reorder != Reorder::InOrder;
        for lane in 0..self.bus_bytes {
            if lanes & u32::from(w.strb) & (1 << lane) != 0 {
                let byte = (w.data >> (8 * lane)) as u8;
                let at = base.wrapping_add(lane);
                let ok = if late {
                    // Mapped (a read of the byte succeeds): kept until the response is taken.
                    let ok = mem.read(at, &mut [0u8]);
                    if ok {
                        cur.late.push((at, byte));
                    }
                    ok
                } else {
                    mem.write(at, &[byte])
                };
                if ok {
                    self.tally.bytes_written += 1;
                } else {
                    cur.resp = Resp::DecErr;
                }
            }
        }
        cur.beats += 1;
        if w.last || cur.beats >= a.beats() {
            let done = self.writing.pop_front();
            if let Some(done) = done {
                let due = now + 1 + self.policy.extra_latency();
                self.b_owed.push((
                    due,
                    self.order,
                    BBeat {
                        id: done.addr.id,
                        resp: done.resp,
                    },
                    done.late,
                ));
                self.order += 1;
            }
        }
    }
}

/// The head (oldest by accept order) of each ID among `(due, order, id)` entries, as
/// `(index, due, order)`.
fn heads(entries: impl Iterator<Item = (u64, u64, u16)>) -> Vec<(usize, u64, u64)> {
    let mut best: Vec<(u16, usize, u64, u64)> = Vec::new();
    for (i, (due, order, id)) in entries.enumerate() {
        match best.iter_mut().find(|b| b.0 == id) {
            Some(b) if order < b.3 => *b = (id, i, due, order),
            Some(_) => {}
            None => best.push((id, i, due, order)),
        }
    }
    best.into_iter()
        .map(|(_, i, due, order)| (i, due, order))
        .collect()
}
