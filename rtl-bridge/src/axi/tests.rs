//! The AXI subordinate against a scripted legal master, and the checker against each rule.

use super::*;
use crate::kit::side::MemLatency;
use pica_model::mem::Memory;
use proptest::prelude::*;
use std::collections::{HashMap, VecDeque};

const VRAM: u32 = 0x1800_0000;

/// A legal master: offers its queued beats until each is taken (payload held), takes
/// responses on a seeded random READY, and records them. Reads are issued only after every
/// write was answered (`reads_after_writes`), so the data they return is defined.
struct Master {
    aws: VecDeque<Addr>,
    ws: VecDeque<WBeat>,
    ars: VecDeque<Addr>,
    writes_owed: usize,
    reads_after_writes: bool,
    rng: u64,
    bs: Vec<BBeat>,
    rs: Vec<RBeat>,
}

impl Master {
    fn new(seed: u64) -> Self {
        Self {
            aws: VecDeque::new(),
            ws: VecDeque::new(),
            ars: VecDeque::new(),
            writes_owed: 0,
            reads_after_writes: true,
            rng: seed,
            bs: Vec::new(),
            rs: Vec::new(),
        }
    }

    fn rand(&mut self) -> u64 {
        self.rng = self
            .rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.rng >> 33
    }

    /// An INCR write burst of 32-bit words at `addr`, every lane strobed.
    fn write(&mut self, id: u16, addr: u32, words: &[u32]) {
        self.aws
            .push_back(Addr::incr(id, addr, words.len() as u16, 2));
        for (k, &w) in words.iter().enumerate() {
            self.ws.push_back(WBeat {
                data: u64::from(w),
                strb: 0xF,
                last: k + 1 == words.len(),
            });
        }
        self.writes_owed += 1;
    }

    fn read(&mut self, id: u16, addr: u32, beats: u16) {
        self.ars.push_back(Addr::incr(id, addr, beats, 2));
    }

    fn out(&mut self) -> MasterOut {
        let reads_ok = !self.reads_after_writes || self.writes_owed == 0;
        MasterOut {
            aw: self.aws.front().copied(),
            w: self.ws.front().copied(),
            ar: self.ars.front().copied().filter(|_| reads_ok),
            b_ready: self.rand() % 4 != 0,
            r_ready: self.rand() % 4 != 0,
        }
    }

    fn after(&mut self, m: &MasterOut, s: &SubOut) {
        if m.aw.is_some() && s.aw_ready {
            self.aws.pop_front();
        }
        if m.w.is_some() && s.w_ready {
            self.ws.pop_front();
        }
        if m.ar.is_some() && s.ar_ready {
            self.ars.pop_front();
        }
        if let (Some(b), true) = (s.b, m.b_ready) {
            self.bs.push(b);
            self.writes_owed -= 1;
        }
        if let (Some(r), true) = (s.r, m.r_ready) {
            self.rs.push(r);
        }
    }

    fn done(&self, reads: usize) -> bool {
        self.aws.is_empty()
            && self.ws.is_empty()
            && self.ars.is_empty()
            && self.writes_owed == 0
            && self.rs.len() == reads
    }
}

/// Runs `master` against a server until it has `reads` read beats; returns the clocks taken.
fn run(master: &mut Master, server: &mut AxiServer, mem: &mut Memory, reads: usize) -> u64 {
    for clock in 0..100_000u64 {
        if master.done(reads) {
            assert!(server.is_idle(), "the server still owes something");
            return clock;
        }
        let s = server.drive();
        let m = master.out();
        if let Err(v) = server.clock(&m, mem) {
            panic!("a legal master and the server broke a rule: {v}");
        }
        master.after(&m, &s);
    }
    panic!("no progress in 100,000 clocks");
}

fn policies() -> Vec<AxiPolicy> {
    let mut v = Vec::new();
    for latency in [
        MemLatency::Zero,
        MemLatency::Fixed(3),
        MemLatency::Random { max: 7, seed: 1 },
        MemLatency::Random { max: 20, seed: 99 },
    ] {
        for reorder in [Reorder::InOrder, Reorder::AcrossIds, Reorder::Interleave] {
            v.push(AxiPolicy::new(latency, reorder, 8));
        }
    }
    v
}

#[test]
fn axi_writes_land_and_reads_return_them_under_every_policy() {
    for policy in policies() {
        let label = format!("{policy:?}");
        let mut mem = Memory::new();
        let mut server = AxiServer::new(4, policy);
        let mut m = Master::new(7);
        let mut expect = HashMap::new();
        for i in 0..12u32 {
            let addr = VRAM + i * 0x40;
            let words: Vec<u32> = (0..(i % 5 + 1)).map(|k| 0xA000_0000 | i << 8 | k).collect();
            for (k, w) in words.iter().enumerate() {
                expect.insert(addr + 4 * k as u32, *w);
            }
            m.write((i % 3) as u16, addr, &words);
        }
        let mut reads = 0;
        for i in 0..12u32 {
            m.read((i % 4) as u16, VRAM + i * 0x40, (i % 5 + 1) as u16);
            reads += (i % 5 + 1) as usize;
        }
        run(&mut m, &mut server, &mut mem, reads);
        for (&a, &w) in &expect {
            assert_eq!(mem.read_u32(a), Ok(w), "{label}: word at {a:#x}");
        }
        // Per ID the read data come back in request order, each burst's beats in order.
        let mut per_id: HashMap<u16, Vec<u32>> = HashMap::new();
        for r in &m.rs {
            assert_eq!(r.resp, Resp::Okay, "{label}");
            per_id.entry(r.id).or_default().push(r.data as u32);
        }
        for id in 0..4u16 {
            let want: Vec<u32> = (0..12u32)
                .filter(|i| i % 4 == u32::from(id))
                .flat_map(|i| (0..(i % 5 + 1)).map(move |k| 0xA000_0000 | i << 8 | k))
                .collect();
            assert_eq!(
                per_id.get(&id).cloned().unwrap_or_default(),
                want,
                "{label}: ID {id}"
            );
        }
        assert_eq!(m.bs.len(), 12, "{label}");
        let t = server.tally();
        assert_eq!((t.write_bursts, t.read_bursts), (12, 12), "{label}");
        let words: u64 = (0..12u64).map(|i| i % 5 + 1).sum();
        assert_eq!(t.bytes_written, 4 * words, "{label}");
        assert_eq!(t.bytes_read, 4 * words, "{label}");
    }
}

#[test]
fn axi_reordering_policies_answer_ids_out_of_order_and_interleave_bursts() {
    // Requests of four IDs; the reordering policies return some later ID first (and
    // Interleave mixes beats of two bursts), the in-order policy never does.
    let shapes = |reorder: Reorder| {
        let mut mem = Memory::new();
        let mut server = AxiServer::new(
            4,
            AxiPolicy::new(MemLatency::Random { max: 9, seed: 5 }, reorder, 16),
        );
        let mut m = Master::new(3);
        let mut reads = 0;
        for i in 0..40u32 {
            m.read((i % 4) as u16, VRAM + i * 0x20, 4);
            reads += 4;
        }
        run(&mut m, &mut server, &mut mem, reads);
        let ids: Vec<u16> = m.rs.iter().map(|r| r.id).collect();
        let out_of_order = ids
            .chunks(4)
            .enumerate()
            .any(|(k, c)| c[0] != (k % 4) as u16);
        let interleaved = m.rs.windows(2).any(|w| w[0].id != w[1].id && !w[0].last);
        (out_of_order, interleaved)
    };
    assert_eq!(shapes(Reorder::InOrder), (false, false));
    assert_eq!(shapes(Reorder::AcrossIds), (true, false));
    let (ooo, inter) = shapes(Reorder::Interleave);
    assert!(ooo && inter);
}

#[test]
fn axi_unmapped_addresses_answer_decerr() {
    let mut mem = Memory::new();
    let mut server = AxiServer::new(4, AxiPolicy::new(MemLatency::Zero, Reorder::InOrder, 4));
    let mut m = Master::new(1);
    m.write(1, 0x0000_1000, &[1, 2]);
    m.read(2, 0x0000_1000, 2);
    run(&mut m, &mut server, &mut mem, 2);
    assert_eq!(m.bs[0].resp, Resp::DecErr);
    assert!(m.rs.iter().all(|r| r.resp == Resp::DecErr));
}

#[test]
fn axi_data_ahead_of_its_address_is_kept_for_it() {
    let mut mem = Memory::new();
    let mut server = AxiServer::new(4, AxiPolicy::new(MemLatency::Zero, Reorder::InOrder, 4));
    // Two data beats, then the address.
    let w = |data, last| MasterOut {
        w: Some(WBeat {
            data,
            strb: 0xF,
            last,
        }),
        ..MasterOut::default()
    };
    for m in [w(0x11, false), w(0x22, true)] {
        server.drive();
        server.clock(&m, &mut mem).unwrap();
    }
    server.drive();
    let aw = MasterOut {
        aw: Some(Addr::incr(0, VRAM, 2, 2)),
        b_ready: true,
        ..MasterOut::default()
    };
    server.clock(&aw, &mut mem).unwrap();
    assert_eq!(mem.read_u32(VRAM), Ok(0x11));
    assert_eq!(mem.read_u32(VRAM + 4), Ok(0x22));
    let s = server.drive();
    assert_eq!(
        s.b,
        Some(BBeat {
            id: 0,
            resp: Resp::Okay
        })
    );
}

#[test]
fn axi_narrow_beats_use_their_byte_lanes() {
    // Byte beats (size 0) from VRAM + 1: lanes 1, 2, 3 of a 4-byte bus.
    let mut mem = Memory::new();
    let mut server = AxiServer::new(4, AxiPolicy::new(MemLatency::Zero, Reorder::InOrder, 4));
    let aw = Addr {
        id: 0,
        addr: VRAM + 1,
        len: 2,
        size: 0,
        burst: Burst::Incr,
    };
    let beats = [
        (0x0000_AA00u64, 0b0010u8, false),
        (0x00BB_0000, 0b0100, false),
        (0xCC00_0000, 0b1000, true),
    ];
    server.drive();
    server
        .clock(
            &MasterOut {
                aw: Some(aw),
                ..MasterOut::default()
            },
            &mut mem,
        )
        .unwrap();
    for (data, strb, last) in beats {
        server.drive();
        let m = MasterOut {
            w: Some(WBeat { data, strb, last }),
            b_ready: true,
            ..MasterOut::default()
        };
        server.clock(&m, &mut mem).unwrap();
    }
    assert_eq!(mem.read_u32(VRAM), Ok(0xCCBB_AA00));
}

/// Feeds `clocks` of (master, subordinate) signals to a checker; the first violation.
fn first_violation(clocks: &[(MasterOut, SubOut)]) -> Option<AxiViolation> {
    let mut c = AxiChecker::new(4);
    clocks.iter().find_map(|(m, s)| c.observe(m, s).err())
}

fn aw(a: Addr) -> MasterOut {
    MasterOut {
        aw: Some(a),
        ..MasterOut::default()
    }
}

fn wb(data: u64, last: bool) -> MasterOut {
    MasterOut {
        w: Some(WBeat {
            data,
            strb: 0xF,
            last,
        }),
        ..MasterOut::default()
    }
}

const READY: SubOut = SubOut {
    aw_ready: true,
    w_ready: true,
    ar_ready: true,
    b: None,
    r: None,
};
const STALL: SubOut = SubOut {
    aw_ready: false,
    w_ready: false,
    ar_ready: false,
    b: None,
    r: None,
};

#[test]
fn axi_checker_names_a_valid_dropped_before_ready() {
    let a = Addr::incr(1, VRAM, 4, 2);
    let v = first_violation(&[(aw(a), STALL), (MasterOut::default(), READY)]).unwrap();
    assert_eq!(
        (v.channel, v.beat, v.cycle, v.rule),
        (Channel::Aw, 0, 1, Rule::ValidDropped)
    );
    assert!(
        v.to_string().contains("channel AW, beat #0, cycle 1"),
        "{v}"
    );
}

#[test]
fn axi_checker_names_a_payload_changed_while_stalled() {
    let v = first_violation(&[
        (wb(1, false), READY),
        (wb(2, false), STALL),
        (wb(3, false), READY),
    ])
    .unwrap();
    assert_eq!(
        (v.channel, v.beat, v.cycle, v.rule),
        (Channel::W, 1, 2, Rule::PayloadChanged)
    );
}

#[test]
fn axi_checker_names_a_wlast_that_disagrees_with_awlen() {
    let mut first = aw(Addr::incr(0, VRAM, 2, 2));
    first.w = Some(WBeat {
        data: 0,
        strb: 0xF,
        last: false,
    });
    let early = first_violation(&[(first, READY), (wb(0, false), READY)]).unwrap();
    assert_eq!(
        (early.channel, early.beat, early.cycle, early.rule),
        (Channel::W, 1, 1, Rule::WlastMismatch)
    );
    // Data ahead of the address: checked when the address comes.
    let ahead = first_violation(&[
        (wb(0, false), READY),
        (wb(0, true), READY),
        (aw(Addr::incr(0, VRAM, 3, 2)), READY),
    ])
    .unwrap();
    assert_eq!(
        (ahead.channel, ahead.rule, ahead.cycle),
        (Channel::W, Rule::WlastMismatch, 2)
    );
}

#[test]
fn axi_checker_names_bursts_that_break_the_burst_rules() {
    let cases = [
        (Addr::incr(0, VRAM + 0xFF8, 4, 2), Rule::Crosses4K),
        (
            Addr {
                size: 3,
                ..Addr::incr(0, VRAM, 1, 2)
            },
            Rule::SizeTooWide,
        ),
        (
            Addr {
                burst: Burst::Reserved,
                ..Addr::incr(0, VRAM, 1, 2)
            },
            Rule::BadBurst,
        ),
        (
            Addr {
                burst: Burst::Wrap,
                ..Addr::incr(0, VRAM, 3, 2)
            },
            Rule::BadBurst,
        ),
        (
            Addr {
                burst: Burst::Wrap,
                ..Addr::incr(0, VRAM + 2, 4, 2)
            },
            Rule::BadBurst,
        ),
        (
            Addr {
                burst: Burst::Fixed,
                ..Addr::incr(0, VRAM, 17, 2)
            },
            Rule::BadBurst,
        ),
    ];
    for (a, rule) in cases {
        let v = first_violation(&[(aw(a), READY)]).unwrap();
        assert_eq!((v.channel, v.rule), (Channel::Aw, rule), "{a:?}");
        let ar = MasterOut {
            ar: Some(a),
            ..MasterOut::default()
        };
        let v = first_violation(&[(ar, STALL)]).unwrap();
        assert_eq!((v.channel, v.rule), (Channel::Ar, rule), "{a:?}");
    }
    // Legal neighbours: an INCR burst ending on the boundary, a 16-beat FIXED, a WRAP of 8.
    for a in [
        Addr::incr(0, VRAM + 0xFF0, 4, 2),
        Addr {
            burst: Burst::Fixed,
            ..Addr::incr(0, VRAM, 16, 2)
        },
        Addr {
            burst: Burst::Wrap,
            ..Addr::incr(0, VRAM + 8, 8, 2)
        },
    ] {
        assert_eq!(first_violation(&[(aw(a), READY)]), None, "{a:?}");
    }
}

#[test]
fn axi_checker_names_strobes_outside_the_lanes() {
    let a = Addr {
        id: 0,
        addr: VRAM + 2,
        len: 0,
        size: 1,
        burst: Burst::Incr,
    };
    let mut m = aw(a);
    m.w = Some(WBeat {
        data: 0,
        strb: 0b0011,
        last: true,
    });
    let v = first_violation(&[(m, READY)]).unwrap();
    assert_eq!((v.channel, v.rule), (Channel::W, Rule::StrobeOutsideLanes));
    m.w = Some(WBeat {
        data: 0,
        strb: 0b1100,
        last: true,
    });
    assert_eq!(first_violation(&[(m, READY)]), None);
}

#[test]
fn axi_checker_names_responses_nothing_is_owed() {
    let b = SubOut {
        b: Some(BBeat {
            id: 3,
            resp: Resp::Okay,
        }),
        ..READY
    };
    let taken = MasterOut {
        b_ready: true,
        r_ready: true,
        ..MasterOut::default()
    };
    let v = first_violation(&[(taken, b)]).unwrap();
    assert_eq!((v.channel, v.rule), (Channel::B, Rule::UnexpectedResponse));
    let r = SubOut {
        r: Some(RBeat {
            id: 2,
            data: 0,
            resp: Resp::Okay,
            last: true,
        }),
        ..READY
    };
    let v = first_violation(&[(taken, r)]).unwrap();
    assert_eq!((v.channel, v.rule), (Channel::R, Rule::UnexpectedResponse));
    // A two-beat read answered with RLAST on its first beat.
    let ar = MasterOut {
        ar: Some(Addr::incr(2, VRAM, 2, 2)),
        ..taken
    };
    let v = first_violation(&[(ar, READY), (taken, r)]).unwrap();
    assert_eq!(
        (v.channel, v.beat, v.rule),
        (Channel::R, 0, Rule::RlastMismatch)
    );
    // A subordinate that drops RVALID before RREADY.
    let v = first_violation(&[(ar, READY), (MasterOut::default(), r), (taken, READY)]).unwrap();
    assert_eq!(
        (v.channel, v.cycle, v.rule),
        (Channel::R, 2, Rule::ValidDropped)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random legal traffic under random policies: no rule broken; memory as writing the bursts
    /// one after another gives (in order), or with the last write of one of the IDs that wrote a
    /// word (a reordering policy: AXI4 orders writes only per ID, and such a policy lands a
    /// write when its response is taken); every read, issued after every write was answered,
    /// returns the memory's final word.
    #[test]
    fn axi_random_legal_traffic_is_served_exactly(
        bursts in proptest::collection::vec((0u16..4, 0u32..64, 1usize..9, any::<u32>()), 1..24),
        seed in any::<u64>(),
        max in 0u32..12,
        reorder in 0u8..3,
    ) {
        let reorder = [Reorder::InOrder, Reorder::AcrossIds, Reorder::Interleave][reorder as usize];
        let policy = AxiPolicy::new(MemLatency::Random { max, seed }, reorder, 1 + (seed % 16) as usize);
        let mut mem = Memory::new();
        let mut server = AxiServer::new(4, policy);
        let mut m = Master::new(seed ^ 0x55);
        let mut expect: HashMap<u32, u32> = HashMap::new();
        let mut by_id: HashMap<u32, HashMap<u16, u32>> = HashMap::new();
        for &(id, slot, n, salt) in &bursts {
            let addr = VRAM + slot * 16;
            let words: Vec<u32> = (0..n as u32).map(|k| salt.wrapping_add(k.wrapping_mul(0x0101_0101))).collect();
            for (k, &w) in words.iter().enumerate() {
                expect.insert(addr + 4 * k as u32, w);
                by_id.entry(addr + 4 * k as u32).or_default().insert(id, w);
            }
            m.write(id, addr, &words);
        }
        let mut reads = 0;
        for &(id, slot, n, _) in &bursts {
            m.read(id, VRAM + slot * 16, n as u16);
            reads += n;
        }
        run(&mut m, &mut server, &mut mem, reads);
        for (&a, &w) in &expect {
            let got = mem.read_u32(a);
            if reorder == Reorder::InOrder {
                prop_assert_eq!(got, Ok(w));
            } else {
                prop_assert!(by_id[&a].values().any(|&v| Ok(v) == got), "word {:#x}: {:?}", a, got);
            }
        }
        let mut per_id: HashMap<u16, VecDeque<u32>> = HashMap::new();
        for r in &m.rs {
            per_id.entry(r.id).or_default().push_back(r.data as u32);
        }
        for &(id, slot, n, _) in &bursts {
            for k in 0..n as u32 {
                let got = per_id.get_mut(&id).and_then(|q| q.pop_front());
                prop_assert_eq!(got, mem.read_u32(VRAM + slot * 16 + 4 * k).ok());
            }
        }
    }
}
