//! The AXI4 rule checker: both directions of the five channels, every clock.

use super::{Addr, Burst, Channel, MasterOut, SubOut};
use std::collections::{HashMap, VecDeque};
use std::fmt;

/// The rule a [`AxiViolation`] broke (ARM IHI 0022 section in brackets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A VALID went low before its handshake (A3.2.1).
    ValidDropped,
    /// A payload changed while its VALID waited for READY (A3.2.1).
    PayloadChanged,
    /// `WLAST` on another beat than the burst's last, or missing on it (A3.4.1).
    WlastMismatch,
    /// `RLAST` on another beat than the burst's last, or missing on it (A3.4.1).
    RlastMismatch,
    /// A burst's bytes cross a 4 KiB boundary (A3.4.1).
    Crosses4K,
    /// `AxSIZE` wider than the data bus (A3.4.1).
    SizeTooWide,
    /// A reserved burst type, a WRAP burst of other than 2, 4, 8 or 16 beats or from an
    /// unaligned address, or a FIXED burst longer than 16 beats (A3.4.1).
    BadBurst,
    /// `WSTRB` high on a byte lane outside the beat's transfer (A3.4.3).
    StrobeOutsideLanes,
    /// A response with an ID no transaction is outstanding on, or a write response before
    /// the burst's last data beat (A3.3, A5).
    UnexpectedResponse,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::ValidDropped => "VALID dropped before READY",
            Rule::PayloadChanged => "payload changed while stalled",
            Rule::WlastMismatch => "WLAST does not match the burst length",
            Rule::RlastMismatch => "RLAST does not match the burst length",
            Rule::Crosses4K => "burst crosses a 4 KiB boundary",
            Rule::SizeTooWide => "transfer size wider than the data bus",
            Rule::BadBurst => "malformed burst",
            Rule::StrobeOutsideLanes => "write strobe outside the beat's byte lanes",
            Rule::UnexpectedResponse => "response nothing is outstanding for",
        })
    }
}

/// A broken AXI rule: where and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxiViolation {
    /// The clock (0 = the first [`AxiChecker::observe`] call).
    pub cycle: u64,
    /// The channel.
    pub channel: Channel,
    /// The beat: how many handshakes the channel had completed before it (so `#0` is the
    /// channel's first beat).
    pub beat: u64,
    /// The rule.
    pub rule: Rule,
    /// What was seen.
    pub detail: String,
}

impl fmt::Display for AxiViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "AXI rule broken: channel {}, beat #{}, cycle {}: {} ({})",
            self.channel, self.beat, self.cycle, self.rule, self.detail
        )
    }
}

impl std::error::Error for AxiViolation {}

/// A write burst whose data beats are being counted.
#[derive(Clone, Copy, Debug)]
struct WriteBurst {
    addr: Addr,
    /// Data beats handshaken so far.
    beats: u32,
}

/// Watches the five channels clock by clock ([`AxiChecker::observe`]) and reports the first
/// broken rule of each clock.
#[derive(Clone, Debug)]
pub struct AxiChecker {
    bus_bytes: u32,
    cycle: u64,
    /// Handshakes per channel ([`Channel::index`]).
    beats: [u64; 5],
    /// Last clock's signals, for the stability rules.
    prev: Option<(MasterOut, SubOut)>,
    /// Write bursts whose address was accepted and whose last data beat was not, in `AW`
    /// order (`W` beats follow that order).
    writes: VecDeque<WriteBurst>,
    /// Data beats handshaken before their burst's address (AXI4 allows data first): the
    /// beat count of each complete early burst, then the running count of the current one.
    early_w: VecDeque<u32>,
    early_w_beats: u32,
    /// Write bursts with address and all data accepted and no response yet, per ID.
    b_owed: HashMap<u16, u32>,
    /// Read bursts accepted and not finished, per ID in order: (burst, beats returned).
    r_owed: HashMap<u16, VecDeque<(Addr, u32)>>,
}

impl AxiChecker {
    /// A checker for a data bus of `bus_bytes` bytes (1, 2, 4 or 8).
    pub fn new(bus_bytes: u32) -> Self {
        Self {
            bus_bytes: bus_bytes.clamp(1, 8),
            cycle: 0,
            beats: [0; 5],
            prev: None,
            writes: VecDeque::new(),
            early_w: VecDeque::new(),
            early_w_beats: 0,
            b_owed: HashMap::new(),
            r_owed: HashMap::new(),
        }
    }

    /// Handshakes completed on `ch` so far.
    pub fn beats(&self, ch: Channel) -> u64 {
        self.beats[ch.index()]
    }

    /// Transactions accepted and not yet answered (write bursts from `AW` to `B`, read bursts
    /// from `AR` to the last `R`).
    pub fn outstanding(&self) -> u64 {
        let w = self.writes.len() as u64 + self.b_owed.values().map(|&n| u64::from(n)).sum::<u64>();
        let r: u64 = self.r_owed.values().map(|q| q.len() as u64).sum();
        w + r
    }

    /// Checks one clock: `m` what the master drove, `s` what the subordinate drove. Returns
    /// the first violation of the clock (request channels first, in [`Channel::ALL`] order).
    pub fn observe(&mut self, m: &MasterOut, s: &SubOut) -> Result<(), AxiViolation> {
        let cycle = self.cycle;
        self.cycle += 1;
        let prev = self.prev.replace((*m, *s));
        self.observe_at(cycle, m, s, prev)
    }

    fn violation(&self, cycle: u64, ch: Channel, rule: Rule, detail: String) -> AxiViolation {
        AxiViolation {
            cycle,
            channel: ch,
            beat: self.beats[ch.index()],
            rule,
            detail,
        }
    }

    fn observe_at(
        &mut self,
        cycle: u64,
        m: &MasterOut,
        s: &SubOut,
        prev: Option<(MasterOut, SubOut)>,
    ) -> Result<(), AxiViolation> {
        // Stability (A3.2.1): a VALID that waited last clock is still high with the same
        // payload.
        if let Some((pm, ps)) = prev {
            self.stable(cycle, Channel::Aw, pm.aw, ps.aw_ready, m.aw)?;
            self.stable(cycle, Channel::W, pm.w, ps.w_ready, m.w)?;
            self.stable(cycle, Channel::B, ps.b, pm.b_ready, s.b)?;
            self.stable(cycle, Channel::Ar, pm.ar, ps.ar_ready, m.ar)?;
            self.stable(cycle, Channel::R, ps.r, pm.r_ready, s.r)?;
        }
        // Address beats are judged when first offered, handshake or not.
        if let Some(a) = m.aw {
            if prev.is_none_or(|(pm, ps)| pm.aw != Some(a) || ps.aw_ready) {
                self.burst_rules(cycle, Channel::Aw, &a)?;
            }
        }
        if let Some(a) = m.ar {
            if prev.is_none_or(|(pm, ps)| pm.ar != Some(a) || ps.ar_ready) {
                self.burst_rules(cycle, Channel::Ar, &a)?;
            }
        }
        // Handshakes, in channel order: AW before W (a burst's address and first data beat in
        // one clock pair up), W before B, AR before R. A B in the very clock of its burst's
        // last W handshake therefore passes, although A3.3.1 has BVALID wait for that
        // handshake: not checked (AxiServer answers a clock later at the earliest).
        if let (Some(a), true) = (m.aw, s.aw_ready) {
            self.beats[Channel::Aw.index()] += 1;
            match self.early_w.pop_front() {
                Some(n) if n != a.beats() => {
                    return Err(self.violation(
                        cycle,
                        Channel::W,
                        Rule::WlastMismatch,
                        format!(
                            "{n} data beats sent ahead of their address, which says {} (AWLEN {})",
                            a.beats(),
                            a.len
                        ),
                    ))
                }
                Some(_) => *self.b_owed.entry(a.id).or_insert(0) += 1,
                None => {
                    // A burst whose data began ahead of it takes the beats counted so far.
                    let beats = std::mem::take(&mut self.early_w_beats);
                    self.writes.push_back(WriteBurst { addr: a, beats });
                }
            }
        }
        if let (Some(w), true) = (m.w, s.w_ready) {
            if let Some(burst) = self.writes.front_mut() {
                let k = burst.beats;
                let a = burst.addr;
                burst.beats += 1;
                let last = k + 1 == a.beats();
                if w.last != last || k >= a.beats() {
                    return Err(self.violation(
                        cycle,
                        Channel::W,
                        Rule::WlastMismatch,
                        format!(
                            "WLAST {} on data beat {k} of a {}-beat burst (AWID {:#x}, AWADDR {:#010x}, AWLEN {})",
                            u8::from(w.last),
                            a.beats(),
                            a.id,
                            a.addr,
                            a.len
                        ),
                    ));
                }
                let lanes = lane_mask(a.beat_addr(k), a.bytes_per_beat(), self.bus_bytes);
                if u32::from(w.strb) & !lanes != 0 {
                    return Err(self.violation(
                        cycle,
                        Channel::W,
                        Rule::StrobeOutsideLanes,
                        format!(
                            "WSTRB {:#04x} on data beat {k} at {:#010x} (size {} bytes): lanes {:#04x} only",
                            w.strb,
                            a.beat_addr(k),
                            a.bytes_per_beat(),
                            lanes
                        ),
                    ));
                }
                if last {
                    self.writes.pop_front();
                    *self.b_owed.entry(a.id).or_insert(0) += 1;
                }
            } else {
                // Data ahead of its address: counted, and its length judged when the address
                // comes; its strobes cannot be judged without the address.
                self.early_w_beats += 1;
                if w.last {
                    let n = std::mem::take(&mut self.early_w_beats);
                    self.early_w.push_back(n);
                }
            }
            self.beats[Channel::W.index()] += 1;
        }
        if let (Some(b), true) = (s.b, m.b_ready) {
            match self.b_owed.get_mut(&b.id) {
                Some(n) if *n > 0 => *n -= 1,
                _ => {
                    return Err(self.violation(
                        cycle,
                        Channel::B,
                        Rule::UnexpectedResponse,
                        format!(
                            "BID {:#x}: no write burst of that ID has had its address and last data beat",
                            b.id
                        ),
                    ))
                }
            }
            self.beats[Channel::B.index()] += 1;
        }
        if let (Some(a), true) = (m.ar, s.ar_ready) {
            self.r_owed.entry(a.id).or_default().push_back((a, 0));
            self.beats[Channel::Ar.index()] += 1;
        }
        if let (Some(r), true) = (s.r, m.r_ready) {
            let Some((a, k)) = self.r_owed.get_mut(&r.id).and_then(|q| q.front_mut()) else {
                return Err(self.violation(
                    cycle,
                    Channel::R,
                    Rule::UnexpectedResponse,
                    format!("RID {:#x}: no read burst of that ID is outstanding", r.id),
                ));
            };
            let (a, k) = (*a, std::mem::replace(k, *k + 1));
            let last = k + 1 == a.beats();
            if r.last != last {
                return Err(self.violation(
                    cycle,
                    Channel::R,
                    Rule::RlastMismatch,
                    format!(
                        "RLAST {} on data beat {k} of a {}-beat burst (ARID {:#x}, ARADDR {:#010x}, ARLEN {})",
                        u8::from(r.last),
                        a.beats(),
                        a.id,
                        a.addr,
                        a.len
                    ),
                ));
            }
            if last {
                if let Some(q) = self.r_owed.get_mut(&r.id) {
                    q.pop_front();
                }
            }
            self.beats[Channel::R.index()] += 1;
        }
        Ok(())
    }

    /// A3.2.1 for one channel: `was` offered without `ready` last clock → `now` the same.
    fn stable<T: PartialEq + fmt::Debug + Copy>(
        &self,
        cycle: u64,
        ch: Channel,
        was: Option<T>,
        ready: bool,
        now: Option<T>,
    ) -> Result<(), AxiViolation> {
        let Some(was) = was.filter(|_| !ready) else {
            return Ok(());
        };
        match now {
            None => Err(self.violation(
                cycle,
                ch,
                Rule::ValidDropped,
                format!("{ch}VALID fell without {ch}READY; the beat was {was:?}"),
            )),
            Some(now) if now != was => Err(self.violation(
                cycle,
                ch,
                Rule::PayloadChanged,
                format!("was {was:?}, now {now:?}"),
            )),
            Some(_) => Ok(()),
        }
    }

    /// A3.4.1 for an address beat: size, burst type and length, 4 KiB boundary.
    fn burst_rules(&self, cycle: u64, ch: Channel, a: &Addr) -> Result<(), AxiViolation> {
        let bad = |rule: Rule, detail: String| Err(self.violation(cycle, ch, rule, detail));
        let bytes = a.bytes_per_beat();
        if bytes > self.bus_bytes {
            return bad(
                Rule::SizeTooWide,
                format!(
                    "{ch}SIZE {} ({bytes} bytes) on a {}-byte bus",
                    a.size, self.bus_bytes
                ),
            );
        }
        match a.burst {
            Burst::Reserved => return bad(Rule::BadBurst, format!("{ch}BURST 0b11 (reserved)")),
            Burst::Wrap if !matches!(a.beats(), 2 | 4 | 8 | 16) => {
                return bad(
                    Rule::BadBurst,
                    format!("WRAP burst of {} beats (2, 4, 8 or 16 only)", a.beats()),
                )
            }
            Burst::Wrap if a.addr % bytes != 0 => {
                return bad(
                    Rule::BadBurst,
                    format!(
                        "WRAP burst from {:#010x}, not aligned to {bytes} bytes",
                        a.addr
                    ),
                )
            }
            Burst::Fixed if a.beats() > 16 => {
                return bad(
                    Rule::BadBurst,
                    format!("FIXED burst of {} beats (16 at most)", a.beats()),
                )
            }
            _ => {}
        }
        if a.burst == Burst::Incr {
            let first = u64::from(a.addr);
            let aligned = first & !u64::from(bytes - 1);
            let end = aligned + u64::from(bytes) * u64::from(a.beats()) - 1;
            if first >> 12 != end >> 12 {
                return bad(
                    Rule::Crosses4K,
                    format!(
                        "{ch}ADDR {:#010x}, {} beats of {bytes} bytes: the last byte is {end:#010x}",
                        a.addr,
                        a.beats()
                    ),
                );
            }
        }
        Ok(())
    }
}

/// The byte lanes (bit per lane of a `bus`-byte bus) a beat of `bytes` bytes at `addr` may
/// strobe: from the address's lane to the end of its size-aligned container.
pub(super) fn lane_mask(addr: u32, bytes: u32, bus: u32) -> u32 {
    let bus = bus.clamp(1, 8);
    let bytes = bytes.clamp(1, bus);
    let first = addr % bus;
    let container_end = (first & !(bytes - 1)) + bytes;
    let mut mask = 0;
    for lane in first..container_end.min(bus) {
        mask |= 1 << lane;
    }
    mask
}
