//! The RTL AXI4 master bridge (`pica_axi_master`) behind the harness's AXI subordinate: random
//! word traffic under every latency and reordering policy is answered exactly with no AXI rule
//! broken, and both injected bugs are caught and named.

use pica_model::mem::Memory;
use pica_rtl_bridge::axi::{
    serve, AxiBuild, AxiDivergence, AxiPolicy, AxiServer, Reorder, RtlAxiMaster, WordRequest,
};
use pica_rtl_bridge::kit::side::MemLatency;

const VRAM: u32 = 0x1800_0000;

/// `n` requests from a splitmix64 stream: four in five to eight hot words (so that requests to
/// one word meet in flight), half of them writes with random byte enables.
fn traffic(seed: u64, n: usize) -> Vec<WordRequest> {
    let mut s = seed;
    let mut next = move || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    (0..n)
        .map(|_| {
            let r = next();
            let addr = if r % 5 != 0 {
                VRAM + 4 * (r >> 8 & 7) as u32
            } else {
                VRAM + 0x400 + 4 * (r >> 8 & 255) as u32
            };
            let we = r >> 20 & 1 != 0;
            WordRequest {
                we,
                addr,
                be: if we { (r >> 24 & 15) as u8 } else { 0xF },
                wdata: (r >> 32) as u32,
            }
        })
        .collect()
}

fn policies() -> Vec<(String, AxiPolicy)> {
    let mut v = Vec::new();
    for latency in [
        MemLatency::Zero,
        MemLatency::Fixed(5),
        MemLatency::Random { max: 9, seed: 3 },
        MemLatency::Random { max: 30, seed: 11 },
    ] {
        for reorder in [Reorder::InOrder, Reorder::AcrossIds, Reorder::Interleave] {
            v.push((
                format!("{latency} {reorder}"),
                AxiPolicy::new(latency, reorder, 8),
            ));
        }
    }
    v
}

fn run(build: AxiBuild, policy: AxiPolicy, seed: u64) -> Result<u64, AxiDivergence> {
    let mut rtl = RtlAxiMaster::new(build).expect("the axi rows are built");
    let mut mem = Memory::new();
    let mut server = AxiServer::new(4, policy);
    serve(
        &mut rtl,
        &traffic(seed, 600),
        &mut server,
        &mut mem,
        Some(seed),
    )
    .map(|r| r.clocks)
}

#[test]
fn axi_master_rtl_is_exact_under_every_policy() {
    for (name, policy) in policies() {
        for seed in 1..=3 {
            if let Err(d) = run(AxiBuild::Default, policy.clone(), seed) {
                panic!("{name}, seed {seed}: {d}");
            }
        }
    }
}

#[test]
fn axi_master_rtl_streams_one_request_a_clock() {
    // Distinct words, no pauses, the response port always ready: the four slots keep up with
    // a subordinate that answers the clock after the handshake.
    let reqs: Vec<WordRequest> = (0..400u32)
        .map(|i| WordRequest {
            we: i % 2 == 0,
            addr: VRAM + 4 * i,
            be: 0xF,
            wdata: i,
        })
        .collect();
    for latency in [MemLatency::Zero, MemLatency::Fixed(3), MemLatency::Fixed(8)] {
        let mut rtl = RtlAxiMaster::new(AxiBuild::Default).unwrap();
        let mut mem = Memory::new();
        let mut server = AxiServer::new(4, AxiPolicy::new(latency, Reorder::InOrder, 8));
        let run = serve(&mut rtl, &reqs, &mut server, &mut mem, None).unwrap();
        println!(
            "latency {latency}: 400 requests in {} clocks ({:.2} per request), at most {} in flight",
            run.clocks,
            run.clocks as f64 / 400.0,
            run.tally.max_outstanding
        );
        if latency == MemLatency::Zero {
            assert!(run.clocks <= 400 + 8, "{} clocks", run.clocks);
        }
        for i in (0..400u32).step_by(2) {
            assert_eq!(mem.read_u32(VRAM + 4 * i), Ok(i));
        }
    }
}

#[test]
fn axi_master_rtl_injected_bugs_are_caught_and_named() {
    // Each bug under the policy set: some policy must expose it, and the report must say what.
    for (build, want) in [
        (AxiBuild::InjectNoHazard, "the memory held"),
        (AxiBuild::InjectDropB, "is unanswered"),
    ] {
        let caught = policies().into_iter().find_map(|(name, policy)| {
            (1..=3).find_map(|seed| {
                run(build, policy.clone(), seed)
                    .err()
                    .map(|d| (name.clone(), seed, d))
            })
        });
        let Some((name, seed, d)) = caught else {
            panic!("{build:?} was not caught under any policy");
        };
        let msg = d.to_string();
        println!("{build:?}: {name}, seed {seed}: {msg}");
        assert!(msg.contains(want), "{build:?}: {msg}");
    }
}
