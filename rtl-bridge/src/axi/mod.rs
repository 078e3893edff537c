//! An AXI4 memory subordinate for RTL memory masters, and the rule checker that judges every
//! beat (issue 37, item 1: the harness side of the AXI4 port).
//!
//! The RTL's fragment path will reach memory through one AXI4 master port (read and write
//! address, write data, write response and read data channels; INCR bursts; several
//! transactions outstanding; responses of different IDs out of order). This module is what the
//! harness puts on the other side:
//!
//! - [`AxiServer`] serves the five channels from a byte memory ([`AxiMemory`]: the model's
//!   [`pica_model::mem::Memory`] or any other) with the latency, backpressure and reordering
//!   an [`AxiPolicy`] chooses: fixed or seeded random latency, channels held not-ready now
//!   and then, responses of different IDs returned out of order ([`Reorder::AcrossIds`]) and
//!   read bursts of different IDs interleaved beat by beat ([`Reorder::Interleave`]). Within
//!   one ID everything stays in order, as AXI4 requires.
//! - [`AxiChecker`] watches both directions of every channel on every clock and names the
//!   first broken rule with the channel, the beat (the channel's handshake count) and the
//!   clock: a VALID dropped before its READY, a payload changed while stalled, a burst whose
//!   `WLAST` disagrees with its `AWLEN`, a burst over a 4 KiB boundary, a size wider than the
//!   bus, a reserved or malformed burst type, write strobes outside the beat's byte lanes, a
//!   response with an ID nothing is outstanding on, an `RLAST` in the wrong place. The server
//!   keeps the rules by construction; the checker's subordinate-side rules are for users who
//!   put their own memory model behind the port.
//!
//! The clock protocol (one call pair per RTL clock, in this order):
//! 1. [`AxiServer::drive`] gives what the subordinate drives this clock ([`SubOut`]: the three
//!    READYs and the B and R beats on offer), decided before the master is evaluated;
//! 2. the harness evaluates the RTL with those inputs and reads what the master drives
//!    ([`MasterOut`]);
//! 3. [`AxiServer::clock`] performs the handshakes of the clock (VALID and READY both high)
//!    and runs the checker, returning its first violation.
//!
//! Reference: AMBA AXI and ACE Protocol Specification (ARM IHI 0022), sections A3.2 (handshake:
//! "once VALID is asserted it must remain asserted until the handshake occurs"), A3.4 (burst
//! length, size and type; the 4 KiB rule; write strobes), A5 (IDs and ordering: in order per
//! ID, any order across IDs; AXI4 has no write-data interleaving).

mod check;
mod rtl;
mod serve;

pub use check::{AxiChecker, AxiViolation, Rule};
pub use rtl::{serve, AxiBuild, AxiDivergence, AxiRun, RtlAxiMaster, WordRequest, STALL_LIMIT};
pub use serve::{AxiMemory, AxiPolicy, AxiServer, Reorder};

use std::fmt;

/// One of the five AXI channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Write address.
    Aw,
    /// Write data.
    W,
    /// Write response.
    B,
    /// Read address.
    Ar,
    /// Read data.
    R,
}

impl Channel {
    /// Every channel, in the order a report lists them.
    pub const ALL: [Channel; 5] = [Channel::Aw, Channel::W, Channel::B, Channel::Ar, Channel::R];

    /// The channel's index in [`Channel::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Channel::Aw => "AW",
            Channel::W => "W",
            Channel::B => "B",
            Channel::Ar => "AR",
            Channel::R => "R",
        })
    }
}

/// `AxBURST`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Burst {
    /// `0b00`: every beat at the same address.
    Fixed,
    /// `0b01`: each beat at the previous address plus the transfer size.
    Incr,
    /// `0b10`: incrementing, wrapping at the burst's aligned size.
    Wrap,
    /// `0b11`: reserved (a rule violation when sent).
    Reserved,
}

impl Burst {
    /// From the 2-bit field.
    pub fn from_bits(b: u8) -> Burst {
        match b & 3 {
            0 => Burst::Fixed,
            1 => Burst::Incr,
            2 => Burst::Wrap,
            _ => Burst::Reserved,
        }
    }

    /// The 2-bit field.
    pub fn bits(self) -> u8 {
        match self {
            Burst::Fixed => 0,
            Burst::Incr => 1,
            Burst::Wrap => 2,
            Burst::Reserved => 3,
        }
    }
}

/// An address beat (`AW` or `AR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Addr {
    /// `AxID`.
    pub id: u16,
    /// `AxADDR`: the byte address of the first transfer.
    pub addr: u32,
    /// `AxLEN`: beats minus one (an INCR burst has up to 256 beats in AXI4).
    pub len: u8,
    /// `AxSIZE`: log2 of the bytes per beat.
    pub size: u8,
    /// `AxBURST`.
    pub burst: Burst,
}

impl Addr {
    /// An INCR burst of `beats` (1..=256) beats of `1 << size` bytes from `addr`.
    pub fn incr(id: u16, addr: u32, beats: u16, size: u8) -> Addr {
        Addr {
            id,
            addr,
            len: u8::try_from(beats.clamp(1, 256) - 1).unwrap_or(u8::MAX),
            size,
            burst: Burst::Incr,
        }
    }

    /// Beats in the burst.
    pub fn beats(&self) -> u32 {
        u32::from(self.len) + 1
    }

    /// Bytes per beat.
    pub fn bytes_per_beat(&self) -> u32 {
        1u32 << self.size.min(7)
    }

    /// The address of beat `n` (0-based) as A3.4.1 defines it: FIXED repeats the start, INCR
    /// adds the size to the aligned address, WRAP wraps at the burst's aligned boundary. The
    /// first beat keeps the start address (unaligned starts are allowed for FIXED and INCR).
    pub fn beat_addr(&self, n: u32) -> u32 {
        let bytes = self.bytes_per_beat();
        if n == 0 || self.burst == Burst::Fixed || self.burst == Burst::Reserved {
            return self.addr;
        }
        let aligned = self.addr & !(bytes - 1);
        match self.burst {
            Burst::Wrap => {
                let total = bytes.wrapping_mul(self.beats());
                let lower = self.addr & !(total.wrapping_sub(1));
                let off = (aligned.wrapping_sub(lower)).wrapping_add(n.wrapping_mul(bytes));
                lower.wrapping_add(off % total.max(1))
            }
            _ => aligned.wrapping_add(n.wrapping_mul(bytes)),
        }
    }
}

/// A write-data beat (`W`). AXI4 has no `WID`: beats follow the order of their bursts' `AW`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WBeat {
    /// `WDATA` (the low [`AxiServer`] bus-width bytes are used).
    pub data: u64,
    /// `WSTRB`: one bit per byte lane.
    pub strb: u8,
    /// `WLAST`.
    pub last: bool,
}

/// `xRESP`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resp {
    /// `OKAY`.
    Okay,
    /// `EXOKAY` (exclusive access; never sent by [`AxiServer`]).
    ExOkay,
    /// `SLVERR`.
    SlvErr,
    /// `DECERR`: no memory at the address ([`AxiServer`]'s answer to an unmapped address).
    DecErr,
}

impl Resp {
    /// The two-bit `BRESP` / `RRESP` encoding.
    pub fn bits(self) -> u32 {
        match self {
            Resp::Okay => 0,
            Resp::ExOkay => 1,
            Resp::SlvErr => 2,
            Resp::DecErr => 3,
        }
    }
}

/// A write response (`B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BBeat {
    /// `BID`.
    pub id: u16,
    /// `BRESP`.
    pub resp: Resp,
}

/// A read-data beat (`R`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RBeat {
    /// `RID`.
    pub id: u16,
    /// `RDATA` (the low bus-width bytes; the lanes of a narrow beat are where its address
    /// puts them).
    pub data: u64,
    /// `RRESP`.
    pub resp: Resp,
    /// `RLAST`.
    pub last: bool,
}

/// What the master (the RTL) drives in one clock: each channel's payload when its VALID is
/// high, and the READYs of the two response channels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MasterOut {
    /// `AWVALID` and the address beat.
    pub aw: Option<Addr>,
    /// `WVALID` and the data beat.
    pub w: Option<WBeat>,
    /// `ARVALID` and the address beat.
    pub ar: Option<Addr>,
    /// `BREADY`.
    pub b_ready: bool,
    /// `RREADY`.
    pub r_ready: bool,
}

/// What the subordinate drives in one clock: the READYs of the three request channels and
/// each response channel's payload when its VALID is high.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubOut {
    /// `AWREADY`.
    pub aw_ready: bool,
    /// `WREADY`.
    pub w_ready: bool,
    /// `ARREADY`.
    pub ar_ready: bool,
    /// `BVALID` and the response.
    pub b: Option<BBeat>,
    /// `RVALID` and the data beat.
    pub r: Option<RBeat>,
}

/// Bytes moved and transactions seen, for throughput reports (bursts and bytes per
/// fragment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct AxiTally {
    /// Write bursts accepted (`AW` handshakes).
    pub write_bursts: u64,
    /// Read bursts accepted (`AR` handshakes).
    pub read_bursts: u64,
    /// Bytes written (strobed lanes of accepted `W` beats).
    pub bytes_written: u64,
    /// Bytes read (the lanes of every `R` beat taken).
    pub bytes_read: u64,
    /// The most transactions outstanding at once (reads and writes, accepted and not yet
    /// answered).
    pub max_outstanding: u64,
}

/// The subordinate-driven signals of a stage's AXI4 master port ([`crate::kit::desc::SideKind::Axi`]) in its In
/// struct (generated into `abi.rs`; nothing for a stage without one).
pub(crate) trait AxiIn {
    /// Drives the three READYs and the offered B and R beats.
    fn drive_axi(&mut self, _s: &SubOut) {}
}

/// The master-driven signals of a stage's AXI4 port in its Out struct (generated).
pub(crate) trait AxiOut {
    /// The master's VALIDs with their payloads, and its two READYs.
    fn axi_master(&self) -> MasterOut {
        MasterOut::default()
    }
}

#[cfg(test)]
mod tests;
