//! The server of a stage's request/response side port ([`super::desc::SidePort`]: FOP's memory
//! port, RAST's early-depth port): the harness performs a request in the clock of its
//! handshake and owes the response, which it offers after a latency chosen by a policy, in
//! request order, holding it until the stage takes it.
//!
//! The policy decides two things per clock: whether the request side is ready, and how many
//! extra clocks a response accepted now waits ([`LatencyPolicy`]). [`MemLatency`] names the
//! policies the CLI offers (none, fixed, seeded random); a later policy (one that reorders
//! responses of a port with IDs, say) implements the trait and joins through
//! [`SideServer::with_policy`].

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

/// How the harness answers a stage's side port (the memory port of FOP, the early-depth port
/// of RAST).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MemLatency {
    /// The response is offered the clock after the request handshake.
    #[default]
    Zero,
    /// The response is offered `n` clocks later than with [`MemLatency::Zero`].
    Fixed(u32),
    /// Each request's extra latency is uniform in `0..=max`, drawn from a generator seeded
    /// with `seed`; the request side is also held not-ready one clock in five.
    Random {
        /// Largest extra latency.
        max: u32,
        /// Seed of the generator.
        seed: u64,
    },
}

impl MemLatency {
    /// Parses `0`, `N` (extra clocks) or `rand:MAX[:SEED]` (seed decimal or `0x` hex, 0 if
    /// left out).
    pub fn parse(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let num = |t: &str| -> Result<u64, String> {
            let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16),
                None => t.parse::<u64>(),
            };
            r.map_err(|_| format!("bad number `{t}` in memory latency `{s}`"))
        };
        if let Some(rest) = s.strip_prefix("rand:") {
            let (max, seed) = match rest.split_once(':') {
                Some((m, sd)) => (m, num(sd)?),
                None => (rest, 0),
            };
            let max = u32::try_from(num(max)?)
                .map_err(|_| format!("memory latency `{s}`: MAX is too large"))?;
            return Ok(MemLatency::Random { max, seed });
        }
        let n = u32::try_from(num(s)?).map_err(|_| format!("memory latency `{s}` is too large"))?;
        Ok(if n == 0 {
            MemLatency::Zero
        } else {
            MemLatency::Fixed(n)
        })
    }
}

impl FromStr for MemLatency {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::parse(s)
    }
}

impl fmt::Display for MemLatency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemLatency::Zero => write!(f, "0"),
            MemLatency::Fixed(n) => write!(f, "{n}"),
            MemLatency::Random { max, seed } => write!(f, "rand:{max}:{seed}"),
        }
    }
}

/// A side port's timing policy. The server asks it once per clock, before the stage is
/// evaluated, whether the request side is ready, and once per accepted request how long the
/// response waits; the order of the calls is part of a policy's reproducibility (a seeded
/// policy gives the same clocks for the same seed).
pub trait LatencyPolicy: fmt::Debug {
    /// Whether the port takes a request this clock.
    fn request_ready(&mut self) -> bool;
    /// Extra clocks (beyond the one after the handshake) before the response to a request
    /// accepted now may be offered.
    fn extra_latency(&mut self) -> u64;
}

/// The policies of [`MemLatency`] (also the timing of [`crate::axi::AxiPolicy`]).
#[derive(Clone, Debug)]
pub(crate) struct Standard {
    latency: MemLatency,
    /// SplitMix64 state (the seed under [`MemLatency::Random`]).
    rng: u64,
}

impl Standard {
    /// The policy of `latency`; `fallback` seeds the generator when `latency` has no seed.
    pub(crate) fn new(latency: MemLatency, fallback: u64) -> Self {
        let rng = match latency {
            MemLatency::Random { seed, .. } => seed,
            _ => fallback,
        };
        Self { latency, rng }
    }

    /// The next 64 bits of the generator (SplitMix64).
    pub(crate) fn rand(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl LatencyPolicy for Standard {
    fn request_ready(&mut self) -> bool {
        match self.latency {
            // One clock in five the port is busy.
            MemLatency::Random { .. } => self.rand() % 5 != 0,
            _ => true,
        }
    }

    fn extra_latency(&mut self) -> u64 {
        match self.latency {
            MemLatency::Zero => 0,
            MemLatency::Fixed(n) => u64::from(n),
            MemLatency::Random { max, .. } => self.rand() % (u64::from(max) + 1),
        }
    }
}

/// The responses a side port owes, each with the first clock it may be offered.
#[derive(Debug)]
pub struct SideServer<R> {
    owed: VecDeque<(u64, R)>,
    policy: Box<dyn LatencyPolicy>,
}

impl<R> SideServer<R> {
    /// A server answering with `latency`.
    pub fn new(latency: MemLatency) -> Self {
        Self::with_policy(Box::new(Standard::new(latency, 0)))
    }

    /// A server with any policy.
    pub fn with_policy(policy: Box<dyn LatencyPolicy>) -> Self {
        Self {
            owed: VecDeque::new(),
            policy,
        }
    }

    /// The response to offer in clock `now`: the oldest owed, once due.
    pub fn offer(&self, now: u64) -> Option<&R> {
        self.owed
            .front()
            .filter(|(due, _)| *due <= now)
            .map(|(_, r)| r)
    }

    /// Whether the request side is ready this clock (ask once per clock, before evaluating).
    pub fn request_ready(&mut self) -> bool {
        self.policy.request_ready()
    }

    /// The stage took the offered response.
    pub fn taken(&mut self) {
        self.owed.pop_front();
    }

    /// A request was accepted in clock `now`, answered by `rsp` after the policy's latency.
    pub fn accept(&mut self, now: u64, rsp: R) {
        let extra = self.policy.extra_latency();
        self.owed.push_back((now + 1 + extra, rsp));
    }

    /// Responses owed.
    pub fn len(&self) -> usize {
        self.owed.len()
    }

    /// Nothing owed.
    pub fn is_empty(&self) -> bool {
        self.owed.is_empty()
    }
}
