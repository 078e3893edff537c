//! The RTL AXI4 master bridge (`rtl/pica_axi_master.sv`: a stage's request/response memory port
//! as an AXI4 master) behind the harness's [`AxiServer`]: word requests go in on the request
//! port, the server answers the AXI side from the model's memory under an [`super::AxiPolicy`]
//! (latency, backpressure, reordering across IDs), the checker judges every beat, and each
//! response must be what a memory updated in request order held when its request was taken.

use super::{Addr, AxiServer, AxiTally, AxiViolation, Burst, MasterOut};
use crate::error::RtlError;
use crate::kit::core::Core;
use crate::kit::handle::Fns;
use pica_model::mem::Memory;
use std::collections::{HashMap, VecDeque};
use std::ffi::{c_char, c_int};
use std::fmt;

/// `PicaAxiIn` (`csrc/pica_axi_shim.h`): the inputs of `pica_axi_master`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PicaAxiIn {
    req_valid: u32,
    req_we: u32,
    req_addr: u32,
    req_be: u32,
    req_wdata: u32,
    rsp_ready: u32,
    awready: u32,
    wready: u32,
    bvalid: u32,
    bid: u32,
    bresp: u32,
    arready: u32,
    rvalid: u32,
    rid: u32,
    rdata: u32,
    rresp: u32,
    rlast: u32,
}

/// `PicaAxiOut`: the outputs of `pica_axi_master`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PicaAxiOut {
    req_ready: u32,
    rsp_valid: u32,
    rsp_rdata: u32,
    rsp_err: u32,
    awvalid: u32,
    awid: u32,
    awaddr: u32,
    awlen: u32,
    awsize: u32,
    awburst: u32,
    wvalid: u32,
    wdata: u32,
    wstrb: u32,
    wlast: u32,
    bready: u32,
    arvalid: u32,
    arid: u32,
    araddr: u32,
    arlen: u32,
    arsize: u32,
    arburst: u32,
    rready: u32,
}

/// The opaque model handle (`PicaAxi`).
#[repr(C)]
pub(crate) struct PicaAxi {
    _opaque: [u8; 0],
}

extern "C" {
    fn pica_axi_variant_count() -> c_int;
    fn pica_axi_variant_name(variant: c_int) -> *const c_char;
    fn pica_axi_new(variant: c_int) -> *mut PicaAxi;
    fn pica_axi_free(h: *mut PicaAxi);
    fn pica_axi_eval(h: *mut PicaAxi, inp: *const PicaAxiIn, out: *mut PicaAxiOut);
    fn pica_axi_peek(h: *mut PicaAxi, out: *mut PicaAxiOut);
    fn pica_axi_clock(h: *mut PicaAxi);
    fn pica_axi_cycles(h: *mut PicaAxi) -> u64;
    fn pica_axi_trace_open(h: *mut PicaAxi, path: *const c_char) -> c_int;
    fn pica_axi_trace_close(h: *mut PicaAxi);
    fn pica_axi_set_mutant(h: *mut PicaAxi, k: u32) -> c_int;
    fn pica_axi_cov_count(h: *mut PicaAxi) -> u32;
    fn pica_axi_cov_read(h: *mut PicaAxi, dst: *mut u32);
    fn pica_axi_cov_load(h: *mut PicaAxi, src: *const u32);
    fn pica_axi_cov_zero(h: *mut PicaAxi);
    fn pica_axi_cov_write(h: *mut PicaAxi, path: *const c_char) -> c_int;
}

/// The entry points of `csrc/pica_axi_shim.h`.
const FNS: Fns<PicaAxiIn, PicaAxiOut, PicaAxi> = Fns {
    variant_count: pica_axi_variant_count,
    variant_name: pica_axi_variant_name,
    new: pica_axi_new,
    free: pica_axi_free,
    eval: pica_axi_eval,
    peek: pica_axi_peek,
    clock: pica_axi_clock,
    cycles: pica_axi_cycles,
    trace_open: pica_axi_trace_open,
    trace_close: pica_axi_trace_close,
    set_mutant: pica_axi_set_mutant,
    cov_count: pica_axi_cov_count,
    cov_read: pica_axi_cov_read,
    cov_load: pica_axi_cov_load,
    cov_zero: pica_axi_cov_zero,
    cov_write: pica_axi_cov_write,
};

/// The builds of `pica_axi_master` (build.rs rows `axi*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AxiBuild {
    /// As written.
    Default,
    /// `INJECT_AXI_NO_HAZARD`: the same-word rule left out.
    InjectNoHazard,
    /// `INJECT_AXI_DROP_B`: a write response lost when a read response arrives in its clock.
    InjectDropB,
}

impl AxiBuild {
    /// Every build.
    pub const ALL: [AxiBuild; 3] = [
        AxiBuild::Default,
        AxiBuild::InjectNoHazard,
        AxiBuild::InjectDropB,
    ];

    /// The row's name.
    pub fn name(self) -> &'static str {
        match self {
            AxiBuild::Default => "axi",
            AxiBuild::InjectNoHazard => "axi_inject_no_hazard",
            AxiBuild::InjectDropB => "axi_inject_drop_b",
        }
    }
}

/// One Verilated `pica_axi_master` (IdW 2, Outstanding 4).
#[derive(Debug)]
pub struct RtlAxiMaster {
    core: Core<PicaAxiIn, PicaAxiOut, PicaAxi>,
    build: AxiBuild,
}

impl RtlAxiMaster {
    /// A reset model of `build`.
    pub fn new(build: AxiBuild) -> Result<Self, RtlError> {
        Ok(Self {
            core: Core::open(&FNS, build.name(), None)?,
            build,
        })
    }

    /// Which build this is.
    pub fn build(&self) -> AxiBuild {
        self.build
    }
}

/// One request on the bridge's request port: a word read or a write with byte enables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordRequest {
    /// A write (else a read).
    pub we: bool,
    /// The byte address (its low two bits are ignored: word requests).
    pub addr: u32,
    /// Byte enables of a write.
    pub be: u8,
    /// Write data.
    pub wdata: u32,
}

/// What a run through [`serve`] gives when nothing diverged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxiRun {
    /// Clocks from the first request to the last response.
    pub clocks: u64,
    /// The server's tally (bursts, bytes, most in flight).
    pub tally: AxiTally,
}

/// The first divergence of a run through [`serve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AxiDivergence {
    /// An AXI rule broken on the port.
    Rule(AxiViolation),
    /// Response `index` (responses come in request order) differs from the reference.
    Response {
        /// The request's index.
        index: usize,
        /// The request.
        request: WordRequest,
        /// What the reference memory held when the request was taken (reads), or `None`
        /// for a write.
        expected: Option<u32>,
        /// The response's data and error flag.
        got: (u32, bool),
        /// The clock.
        cycle: u64,
    },
    /// A response with no request in flight.
    Unrequested {
        /// The clock.
        cycle: u64,
    },
    /// No request taken and no response for `limit` clocks while some are owed.
    Stalled {
        /// The oldest request not answered.
        index: usize,
        /// The request.
        request: WordRequest,
        /// Clocks without progress.
        limit: u64,
        /// The clock.
        cycle: u64,
    },
}

impl fmt::Display for AxiDivergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = |r: &WordRequest| {
            if r.we {
                format!(
                    "write {:#010x} be {:#x} data {:#010x}",
                    r.addr, r.be, r.wdata
                )
            } else {
                format!("read {:#010x}", r.addr)
            }
        };
        match self {
            AxiDivergence::Rule(v) => write!(f, "{v}"),
            AxiDivergence::Response {
                index,
                request,
                expected,
                got,
                cycle,
            } => match expected {
                Some(e) => write!(
                    f,
                    "response #{index} ({}) at cycle {cycle}: data {:#010x}{}, the memory held \
                     {e:#010x} when it was requested",
                    what(request),
                    got.0,
                    if got.1 { " with the error flag" } else { "" }
                ),
                None => write!(
                    f,
                    "response #{index} ({}) at cycle {cycle}: the error flag is set",
                    what(request)
                ),
            },
            AxiDivergence::Unrequested { cycle } => {
                write!(f, "a response at cycle {cycle} with no request in flight")
            }
            AxiDivergence::Stalled {
                index,
                request,
                limit,
                cycle,
            } => write!(
                f,
                "no progress for {limit} clocks (cycle {cycle}): request #{index} ({}) is \
                 unanswered",
                what(request)
            ),
        }
    }
}

impl std::error::Error for AxiDivergence {}

/// Clocks without a request taken or a response given after which [`serve`] reports a stall.
pub const STALL_LIMIT: u64 = 4000;

/// Runs `requests` through `rtl` (offered in order, each held until taken) with `server`
/// answering its AXI side from `mem`; `seed` draws the response port's READY (about three
/// clocks in four; `None`: always ready). Every response is compared with a reference memory
/// updated in request order (initially `mem`'s words), the server's checker judges every beat.
pub fn serve(
    rtl: &mut RtlAxiMaster,
    requests: &[WordRequest],
    server: &mut AxiServer,
    mem: &mut Memory,
    seed: Option<u64>,
) -> Result<AxiRun, AxiDivergence> {
    let mut rng = seed.map(|s| s ^ 0xA5A5_5A5A_0F0F_F0F0);
    let mut reference: HashMap<u32, u32> = HashMap::new();
    let mut owed: VecDeque<(usize, Option<u32>)> = VecDeque::new();
    let (mut next, mut answered, mut idle, mut cycle) = (0usize, 0usize, 0u64, 0u64);
    while answered < requests.len() {
        let s = server.drive();
        let offer = requests.get(next);
        let rsp_ready = match rng.as_mut() {
            Some(r) => {
                *r = r
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (*r >> 33) % 4 != 0
            }
            None => true,
        };
        let inp = PicaAxiIn {
            req_valid: u32::from(offer.is_some()),
            req_we: offer.map_or(0, |r| u32::from(r.we)),
            req_addr: offer.map_or(0, |r| r.addr),
            req_be: offer.map_or(0, |r| u32::from(r.be)),
            req_wdata: offer.map_or(0, |r| r.wdata),
            rsp_ready: u32::from(rsp_ready),
            awready: u32::from(s.aw_ready),
            wready: u32::from(s.w_ready),
            bvalid: u32::from(s.b.is_some()),
            bid: s.b.map_or(0, |b| u32::from(b.id)),
            bresp: s.b.map_or(0, |b| b.resp.bits()),
            arready: u32::from(s.ar_ready),
            rvalid: u32::from(s.r.is_some()),
            rid: s.r.map_or(0, |r| u32::from(r.id)),
            rdata: s.r.map_or(0, |r| r.data as u32),
            rresp: s.r.map_or(0, |r| r.resp.bits()),
            rlast: s.r.map_or(0, |r| u32::from(r.last)),
        };
        let out = rtl.core.eval(&inp);
        let addr = |valid: u32, id: u32, addr: u32, len: u32, size: u32, burst: u32| {
            (valid != 0).then(|| Addr {
                id: id as u16,
                addr,
                len: len as u8,
                size: size as u8,
                burst: Burst::from_bits(burst as u8),
            })
        };
        let m = MasterOut {
            aw: addr(
                out.awvalid,
                out.awid,
                out.awaddr,
                out.awlen,
                out.awsize,
                out.awburst,
            ),
            w: (out.wvalid != 0).then_some(super::WBeat {
                data: u64::from(out.wdata),
                strb: out.wstrb as u8,
                last: out.wlast != 0,
            }),
            ar: addr(
                out.arvalid,
                out.arid,
                out.araddr,
                out.arlen,
                out.arsize,
                out.arburst,
            ),
            b_ready: out.bready != 0,
            r_ready: out.rready != 0,
        };
        server.clock(&m, mem).map_err(AxiDivergence::Rule)?;
        let mut progress = false;
        if let (Some(r), true) = (offer, out.req_ready != 0) {
            let word = r.addr & !3;
            let old = match reference.get(&word) {
                Some(&v) => v,
                None => {
                    // The word as the memory held it before the run (writes since then are in
                    // `reference`).
                    let mut b = [0u8; 4];
                    // Unmapped: the server answers DECERR, which the comparison reports.
                    let _ = mem.read_into(word, &mut b);
                    u32::from_le_bytes(b)
                }
            };
            if r.we {
                let mask = (0..4)
                    .filter(|i| r.be >> i & 1 != 0)
                    .fold(0u32, |m, i| m | 0xFF << (8 * i));
                reference.insert(word, (old & !mask) | (r.wdata & mask));
                owed.push_back((next, None));
            } else {
                reference.entry(word).or_insert(old);
                owed.push_back((next, Some(old)));
            }
            next += 1;
            progress = true;
        }
        if out.rsp_valid != 0 && rsp_ready {
            let Some((index, expected)) = owed.pop_front() else {
                return Err(AxiDivergence::Unrequested { cycle });
            };
            let got = (out.rsp_rdata, out.rsp_err != 0);
            if got.1 || expected.is_some_and(|e| e != got.0) {
                return Err(AxiDivergence::Response {
                    index,
                    request: requests[index],
                    expected,
                    got,
                    cycle,
                });
            }
            answered += 1;
            progress = true;
        }
        rtl.core.clock();
        cycle += 1;
        idle = if progress { 0 } else { idle + 1 };
        if idle > STALL_LIMIT {
            let index = owed.front().map_or(next, |o| o.0);
            return Err(AxiDivergence::Stalled {
                index,
                request: requests[index.min(requests.len() - 1)],
                limit: STALL_LIMIT,
                cycle,
            });
        }
    }
    Ok(AxiRun {
        clocks: cycle,
        tally: server.tally(),
    })
}
