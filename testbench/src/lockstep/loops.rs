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
//! visit whose key and hash equal the key's previous visit takes a copy of REGS' state
//! ([`RegFile::state_copy`]), and the key's next visit in the same state proves the loop. A
//! loop that changes the registers each time round (an upload index running on) never matches
//! and runs to the cycle limit as before.
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

// The CP reads one word per cycle, so in the cycle it takes a jump it reads at most the new
// buffer's first word, which issues no write: no jump is due then, and the CP's state and
// buffer are all of its state that matters. More words per cycle would need the count of
// jumps due in the key.
const _: () = assert!(timing::CP_WORDS_PER_CYCLE == 1);

/// Keys remembered at a time: loops through more jump targets than this are not detected
/// (they run to the cycle limit, as without the detector).
const KEYS: usize = 16;

/// Where the CP stands just after a jump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    state: CpState,
    buffer: Buffer,
}

/// What is remembered of a key's last visit.
#[derive(Debug)]
struct Seen {
    key: Key,
    /// Hash of the register array at the last visit.
    hash: u64,
    /// REGS' state and the cycle at a visit whose hash matched the visit before.
    copy: Option<(Box<RegFile>, u64)>,
}

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
    seen: Vec<Seen>,
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
            seen: Vec::new(),
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
        let Some(i) = self.seen.iter().position(|s| s.key == key) else {
            if self.seen.len() == KEYS {
                self.seen.remove(0);
            }
            self.seen.push(Seen {
                key,
                hash,
                copy: None,
            });
            return None;
        };
        let s = &mut self.seen[i];
        if s.hash != hash {
            s.hash = hash;
            s.copy = None;
            return None;
        }
        if let Some((state, first)) = &s.copy {
            if regs.same_state(state) {
                return Some(LoopProof {
                    kind: LoopKind::Jump,
                    first: *first,
                    again: cycle,
                    addr: buffer.base,
                    size: buffer.size,
                });
            }
        }
        s.copy = Some((Box::new(regs.state_copy()), cycle));
        None
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
