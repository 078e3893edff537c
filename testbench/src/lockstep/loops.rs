//! Loop detection for front-end runs: ends a run whose command stream provably repeats.
//!
//! A CMDBUF jump may land anywhere, so many fuzz cases jump back into a list they already ran
//! (the list itself, or a second buffer that jumps back) and would loop until the cycle limit:
//! about one case in twelve of `pica fuzz --rtl`, and almost all of its cycles. The front end
//! alone (the pipeline off) is deterministic and reads memory without writing it, so when the
//! CP takes a jump into the same place in the same state twice, with nothing in flight and
//! REGS in the same state ([`RegFile::same_state`]) both times, everything between the two
//! repeats forever: the same words, the same writes with the same values, never FINALIZE,
//! never a hang. A hold schedule (`--hold`) only delays REGS and cannot change that. From
//! there on every later cycle shows only what the cycles between the two visits showed, so
//! the run can stop at the second visit with nothing left to learn from it.
//!
//! A jump target is a *visit*; its key is the CP's state and buffer (the next word's address
//! included) just after the jump. A cheap hash of the register array picks the candidates: a
//! visit whose key and hash equal those of an earlier visit takes a copy of REGS' state
//! ([`RegFile::state_copy`]), and a later visit with that key and hash in the same state
//! proves the loop. The two visits need not follow each other: equal states at any two visits
//! make everything after the second repeat what followed the first. So a loop through several
//! jump targets, or one whose state comes back only every few rounds (the registers equal each
//! round, the memories or a packer not yet: an upload index that wraps, a packer that takes
//! three words to a vector), is proven too: the copy is renewed on the 1st, 2nd, 4th, 8th, ...
//! visit after it (Brent's cycle detection), so a state that comes back every `n` visits meets
//! a copy `n` visits old within about `3n` visits, at one comparison per visit. A loop that
//! changes the registers each time round for good (an upload index running on to the limit)
//! never matches and runs to the cycle limit as before.
//!
//! The other way a case runs to the limit is a *zero walk*: a jump with a size of megabytes
//! into memory nothing was written to, where the CP reads zeros — command after command of
//! a write of 0 under mask 0 to register 0x000 — for far longer than the cycle limit (more
//! than half of the cases that reached it). The walk is proven when, at a command boundary
//! with nothing in flight, the next command is such a zero pair, one of them left REGS in the
//! same state ([`RegFile::same_state`]), and every word the CP can still read before the
//! cycle limit (one a cycle at most) is zero, mapped and inside the buffer: from there on the
//! run does the same effect-free write until the limit. A walk that ends before the limit (a
//! written word, the end of the buffer or of memory: a hang or new commands the case is there
//! for) is not cut.

use pica_model::cp::{Buffer, CpState};
use pica_model::regfile::RegFile;
use pica_model::{timing, Gpu};
use serde::Serialize;
use std::collections::HashMap;

// The CP reads one word per cycle, so in the cycle it takes a jump it reads at most the new
// buffer's first word, which issues no write: no jump is due then, and the CP's state and
// buffer are all of its state that matters. More words per cycle would need the count of
// jumps due in the key.
const _: () = assert!(timing::CP_WORDS_PER_CYCLE == 1);

/// Visits (key and register hash) remembered at a time. When full, everything is forgotten
/// and the detector starts afresh (a loop is then proven three visits later, as at the start):
/// a bound on memory for long runs, never a wrong proof. A fuzz case of 20,000 cycles makes at
/// most a few thousand visits (a jump takes three commands), so it never fills.
const VISITS: usize = 1 << 14;

/// Copies of REGS' state kept at a time (each the size of REGS' memories, about 100 KiB);
/// past it, everything is forgotten as when [`VISITS`] fill.
const COPIES: usize = 64;

/// Where the CP stands just after a jump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    state: CpState,
    buffer: Buffer,
}

/// REGS' state at a visit whose key and register hash an earlier visit had: what the later
/// visits with that key and hash are compared with.
#[derive(Debug)]
struct Snapshot {
    state: Box<RegFile>,
    /// The visit's cycle.
    cycle: u64,
    /// Visits with this key and hash since the copy was taken.
    since: u32,
    /// After this many, the copy is replaced by the visit's state and `power` doubles
    /// (Brent's cycle detection): a state that comes back only every `n` visits (the registers
    /// equal, the memories not yet) is compared with a copy `n` visits old before the power
    /// passes `2n`, while each visit costs one comparison and the copies taken grow as the
    /// logarithm of the visits.
    power: u32,
}

/// What is remembered of a key and register hash: a copy once a visit repeated them.
type Remembered = Option<Snapshot>;

/// What was proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopKind {
    /// The same jump in the same state twice: the run repeats for ever.
    Jump,
    /// Zero words up to the cycle limit, each pair the same write that changes nothing.
    ZeroWalk,
}

/// A proof that the rest of a run, up to the cycle limit at least, repeats what it already
/// did: it may stop there ([`LoopDetector`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LoopProof {
    /// Which kind of repetition.
    pub kind: LoopKind,
    /// The cycle of the earlier visit (the zero command's start for a walk).
    pub first: u64,
    /// The cycle of the visit that repeated it (the run stops after it).
    pub again: u64,
    /// Where the CP jumped to both times; for a walk, the address it stands at.
    pub addr: u32,
    /// The size of the buffer it reads, in bytes.
    pub size: u32,
}

impl std::fmt::Display for LoopProof {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            LoopKind::Jump => write!(
                f,
                "the command stream loops: the jump into {:#010x} ({} bytes) in cycle {} found \
                 the CP and REGS as the one in cycle {} left them, so the {} cycles between \
                 repeat for ever",
                self.addr,
                self.size,
                self.again,
                self.first,
                self.again - self.first
            ),
            LoopKind::ZeroWalk => write!(
                f,
                "the command stream walks zeros: from {:#010x} (cycle {}) to the cycle limit the \
                 CP reads only zero words, each pair a write of 0 under mask 0 to register \
                 0x000, which left REGS as it was",
                self.addr, self.again
            ),
        }
    }
}

/// Watches a front-end run cycle by cycle ([`LoopDetector::observe`] after each
/// [`Gpu::step`]) and proves a loop when there is one it can see.
#[derive(Debug)]
pub struct LoopDetector {
    /// The run's cycle limit (a zero walk is cut only when it lasts until then).
    max_cycles: u64,
    /// The CP's buffer after the previous cycle: a jump shows as a new buffer or a step back.
    last: Option<Buffer>,
    /// Every visit's key and register hash (up to [`VISITS`]), with the copy of REGS taken at
    /// the latest visit that repeated them.
    seen: HashMap<(Key, u64), Remembered>,
    /// How many of `seen`'s entries hold a copy.
    copies: usize,
    /// A zero walk's start: the CP at a zero command (its buffer and state), REGS' state and
    /// the cycle.
    walk: Option<(Buffer, CpState, Box<RegFile>, u64)>,
    /// No zero walk is tried in this buffer (base, size) before this address: the last try
    /// found a word there that ends the walk before the limit (or the walk cannot last).
    walk_blocked: Option<(u32, u32, u64)>,
}

/// FNV-1a over the register array: a filter only ([`RegFile::same_state`] decides), taken at
/// every jump, so cheaper than std's SipHash (which showed in the profile).
fn regs_hash(regs: &RegFile) -> u64 {
    regs.regs().iter().fold(0xcbf2_9ce4_8422_2325, |h, &w| {
        (h ^ u64::from(w)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl LoopDetector {
    /// A detector that has seen nothing, for a run of at most `max_cycles` cycles.
    pub fn new(max_cycles: u64) -> Self {
        Self {
            max_cycles,
            last: None,
            seen: HashMap::new(),
            copies: 0,
            walk: None,
            walk_blocked: None,
        }
    }

    /// Looks at `gpu` after a step: `Some` once the run provably loops (the run may stop there).
    /// A run with the pipeline on is never called a loop (draws may write the memory the
    /// command stream and the vertices are read from).
    pub fn observe(&mut self, gpu: &Gpu) -> Option<LoopProof> {
        let cp = gpu.cp();
        let buffer = cp.buffer()?;
        let last = self.last.replace(buffer);
        let jumped = last.is_some_and(|l| {
            (l.base, l.size) != (buffer.base, buffer.size) || buffer.next < l.next
        });
        if gpu.pipeline() {
            return None;
        }
        let regs = gpu.regs();
        // Every write the CP issued is applied (the CP->REGS link is empty), and the jumps'
        // redirects are taken (the CP left WaitRedirect, having popped one per jump issued):
        // nothing is in flight, so the CP, REGS and the memory are the whole state.
        if cp.writes_issued() != regs.writes_applied()
            || matches!(
                cp.state(),
                CpState::WaitRedirect | CpState::Done | CpState::Hung
            )
        {
            return None;
        }
        if !jumped {
            return self.walk(gpu, buffer);
        }
        self.walk = None;
        let key = Key {
            state: cp.state(),
            buffer,
        };
        let hash = regs_hash(regs);
        let cycle = gpu.cycle();
        let Some(copy) = self.seen.get_mut(&(key, hash)) else {
            if self.seen.len() == VISITS {
                self.forget();
            }
            self.seen.insert((key, hash), None);
            return None;
        };
        if let Some(c) = copy {
            if regs.same_state(&c.state) {
                return Some(LoopProof {
                    kind: LoopKind::Jump,
                    first: c.cycle,
                    again: cycle,
                    addr: buffer.base,
                    size: buffer.size,
                });
            }
            // The same registers over other memories (an upload went on in between, or the
            // state comes back only every few visits).
            c.since += 1;
            if c.since == c.power {
                *c.state = regs.state_copy();
                c.cycle = cycle;
                c.since = 0;
                c.power = c.power.saturating_mul(2);
            }
            return None;
        }
        if self.copies == COPIES {
            self.forget();
            self.seen.insert((key, hash), None);
            return None;
        }
        *copy = Some(Snapshot {
            state: Box::new(regs.state_copy()),
            cycle,
            since: 0,
            power: 1,
        });
        self.copies += 1;
        None
    }

    /// Forgets every visit (a bound on memory: a loop is proven afresh from the next visits).
    fn forget(&mut self) {
        self.seen.clear();
        self.copies = 0;
    }
}

impl LoopDetector {
    /// The zero-walk check of a cycle in which the CP did not jump (nothing in flight).
    fn walk(&mut self, gpu: &Gpu, buffer: Buffer) -> Option<LoopProof> {
        // While the CP streams, a write is in flight at every command boundary, and nothing is
        // just after it has read the next command's first word: that is where a walk is
        // looked at (Param0 too, for a CP that waits).
        let state = gpu.cp().state();
        let start = match state {
            CpState::Param0 => buffer.next,
            CpState::Header {
                param0: 0,
                param_addr,
            } => param_addr,
            _ => return None,
        };
        let mem = gpu.mem();
        let here = (buffer.base, buffer.size);
        if self
            .walk_blocked
            .is_some_and(|(b, s, until)| (b, s) == here && u64::from(buffer.next) < until)
        {
            return None;
        }
        let regs = gpu.regs();
        let cycle = gpu.cycle();
        if let Some((was, cp_was, regs_was, first)) = self.walk.take() {
            // One zero command later, in the same buffer, the CP in the same state 8 bytes
            // on, REGS unchanged: the write it made changes nothing, and so does every later
            // one.
            if (was.base, was.size) == here
                && u64::from(was.next) + 8 == u64::from(buffer.next)
                && shifted(cp_was, state, 8)
                && regs.same_state(&regs_was)
            {
                let words = self.max_cycles.saturating_sub(cycle);
                match zero_until(mem, buffer, words) {
                    None => {
                        return Some(LoopProof {
                            kind: LoopKind::ZeroWalk,
                            first,
                            again: cycle,
                            addr: buffer.next,
                            size: buffer.size,
                        })
                    }
                    Some(stop) => {
                        // The walk ends before the limit: it is part of the case. Try again
                        // past the word that ends it.
                        self.walk_blocked = Some((buffer.base, buffer.size, stop));
                        return None;
                    }
                }
            }
        }
        // A zero command here: remember where, and REGS' state before its write.
        let zero_at = |k: u32| mem.read_u32(start.wrapping_add(k)).is_ok_and(|w| w == 0);
        if u64::from(start) + 8 <= buffer.end() && zero_at(0) && zero_at(4) {
            self.walk = Some((buffer, state, Box::new(regs.state_copy()), cycle));
        }
        None
    }
}

/// Whether `b` is `a` with the command's address `by` bytes on (the same parse state).
fn shifted(a: CpState, b: CpState, by: u32) -> bool {
    match (a, b) {
        (CpState::Param0, CpState::Param0) => true,
        (
            CpState::Header {
                param0: p,
                param_addr: x,
            },
            CpState::Header {
                param0: q,
                param_addr: y,
            },
        ) => p == q && x.wrapping_add(by) == y,
        _ => false,
    }
}

/// Whether the `words` words from `buffer.next` are zero, mapped and inside the buffer:
/// `None` if so, else the address of the first word that is not (one past the last
/// readable one when the buffer or memory ends).
fn zero_until(mem: &pica_model::Memory, buffer: Buffer, words: u64) -> Option<u64> {
    let from = u64::from(buffer.next);
    let end = buffer.end();
    let Some(to) = words
        .checked_mul(4)
        .and_then(|n| from.checked_add(n))
        .filter(|&t| t <= end)
    else {
        return Some(end);
    };
    // At most the cycle limit's words (80 KiB for 20,000 cycles), read once per proof.
    let Ok(len) = usize::try_from(to - from) else {
        return Some(end);
    };
    let mut bytes = vec![0u8; len];
    if mem.read_into(buffer.next, &mut bytes).is_err() {
        // Memory ends before the limit: the walk would end in a fetch hang.
        return Some(to);
    }
    bytes.iter().position(|&b| b != 0).map(|i| from + i as u64)
}
