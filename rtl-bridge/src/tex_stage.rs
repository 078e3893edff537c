//! The TEX-stage RTL: one Verilated `pica_tex_top` (`rtl/pica_tex_*.sv`: texture units 0-2,
//! every format, wrap mode and filter, mipmaps, cube maps, projection and shadow textures, the
//! border colour, a texel cache), driven with the same transactions as the model's
//! [`pica_model::tex::texture_units_0_2`], its AXI4 read port served from a
//! [`pica_model::Memory`]. Unit 3, the procedural texture, is not in the RTL: the model
//! computes it ([`pica_model::tex::texture_unit3`]).
//!
//! - [`RtlTex::sync_config`] writes the TEX registers ([`CONFIG_REGS`]) that changed, one per
//!   clock, after the fragments already pushed have finished;
//! - [`RtlTex::push`] queues a fragment ([`TexFragment`]: its coordinates and derivatives,
//!   a tag, and whether the texel cache must forget what it holds first);
//! - [`RtlTex::tick`] is one clock; a fragment's colours leave as a [`TexResult`], in order.
//!
//! Every texel the RTL reads is reported on its `fetch_*` port (the model's `texel` beats, in
//! the model's order); [`RtlTex::take_fetches`] hands them out. An unmapped texel byte hangs
//! the stage as [`TexHang::Unmapped`].
//!
//! # The texel cache must be invisible
//!
//! The model reads every texel from memory when it needs it; the RTL reads through a cache.
//! [`FlushTracker`] decides when a fragment must carry the flush flag: when memory the cache
//! may hold (the texture ranges of the fragments sent since the last flush,
//! [`pica_model::tex::texture_ranges`]) was written since ([`Memory::written_since`]).

pub use crate::axi::Reorder;
use crate::axi::{AxiMemory, AxiOut};
use crate::error::RtlError;
use crate::kit::abi::tex::{PicaTexIn, PicaTexOut};
pub use crate::kit::side::MemLatency;
use crate::kit::stage::{Log, Protocol, RtlStage, Rules, TexShim};
use pica_model::mem::Memory;
use pica_model::pipe::{semantic, Fragment};
use pica_model::regfile::RegFile;
pub use pica_model::tex::CONFIG_REGS;
use pica_model::tex::{TexHang, TexelFetch};

pub use crate::kit::variant::TexVariant;

/// Number of configuration registers the stage keeps (= [`CONFIG_REGS`]`.len()`).
pub const NUM_CFG: usize = CONFIG_REGS.len();

/// The stage's configuration words of `regs`, in [`CONFIG_REGS`] order.
pub fn config_words(regs: &RegFile) -> [u32; NUM_CFG] {
    CONFIG_REGS.map(|id| regs.reg(id.into()))
}

/// One fragment into the stage: raw f24 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TexFragment {
    /// Passed through to the result.
    pub tag: u32,
    /// Invalidate the texel cache before this fragment's first read.
    pub flush: bool,
    /// texcoord0 u, v, w.
    pub tc0: [u32; 3],
    /// texcoord1 u, v.
    pub tc1: [u32; 2],
    /// texcoord2 u, v.
    pub tc2: [u32; 2],
    /// Per coordinate set: du/dx, dv/dx, du/dy, dv/dy (`Fragment::tex_deriv`).
    pub deriv: [[u32; 4]; 3],
}

impl TexFragment {
    /// The fragment `f` as the stage takes it.
    pub fn of(tag: u32, flush: bool, f: &Fragment) -> Self {
        let a = |s: usize| f.attr[s].bits();
        Self {
            tag,
            flush,
            tc0: [
                a(semantic::TEXCOORD0),
                a(semantic::TEXCOORD0 + 1),
                a(semantic::TEXCOORD0_W),
            ],
            tc1: [a(semantic::TEXCOORD1), a(semantic::TEXCOORD1 + 1)],
            tc2: [a(semantic::TEXCOORD2), a(semantic::TEXCOORD2 + 1)],
            deriv: f.tex_deriv.map(|d| d.map(|x| x.bits())),
        }
    }
}

/// One fragment's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexResult {
    /// The fragment's tag.
    pub tag: u32,
    /// The colours of units 0-2, `[r, g, b, a]`.
    pub tex: [[u8; 4]; 3],
}

/// One texel read the RTL reported, with the tag of its fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexFetch {
    /// The fragment's tag.
    pub tag: u32,
    /// The read, as the model's [`TexelFetch`].
    pub fetch: TexelFetch,
}

/// Clocks without any handshake after which a run or a drain gives up.
pub const WATCHDOG_CLOCKS: u64 = 20_000;

/// Clocks without a fragment taken or a result given after which a run gives up: a fragment
/// reads at most 24 texels (three units, two levels, four texels), each at most two line
/// fills of four beats, each beat waiting less than the watchdog.
pub const LIVELOCK_CLOCKS: u64 = 24 * 2 * 5 * (WATCHDOG_CLOCKS + 4);

/// The most line fills `fragments` fragments can need with flushes between them: a fragment
/// reads at most 24 texels (three units, two levels, four texels), each from at most two lines
/// (an RGB8 texel straddles two), each line filled at most once per read.
pub fn fill_bound(fragments: u64) -> u64 {
    48 * (fragments + 1)
}

/// TEX's part of the stage protocol.
#[derive(Debug, Default)]
pub(crate) struct Tex {
    hang: Option<TexHang>,
    fetches: Vec<TexFetch>,
    idle_lie: Option<String>,
}

impl Protocol for Tex {
    type Shim = TexShim;
    type Item = TexFragment;
    type Result = TexResult;
    type Rsp = ();
    type Ctx = Memory;

    const RULES: Rules = Rules {
        watchdog_clocks: WATCHDOG_CLOCKS,
        orphan: "a result with no fragment in flight",
        side_requests: "memory bursts",
        run_until_idle: true,
        livelock_clocks: LIVELOCK_CLOCKS,
        items: "fragments",
        results: "fragments",
        side_bytes: 16,
        ..Rules::HANDSHAKES
    };

    fn drive(&mut self, head: Option<&TexFragment>, out_ready: bool) -> PicaTexIn {
        let mut inp = PicaTexIn {
            out_ready: u32::from(out_ready),
            ..Default::default()
        };
        if let Some(f) = head {
            inp.in_valid = 1;
            inp.in_tag = f.tag;
            inp.in_flush = u32::from(f.flush);
            inp.in_tc0 = f.tc0;
            inp.in_tc1 = f.tc1;
            inp.in_tc2 = f.tc2;
            inp.in_d0 = f.deriv[0];
            inp.in_d1 = f.deriv[1];
            inp.in_d2 = f.deriv[2];
        }
        inp
    }

    fn result(o: &PicaTexOut) -> TexResult {
        TexResult {
            tag: o.out_tag,
            tex: o.out_tex.map(u32::to_le_bytes),
        }
    }

    fn halted(&self) -> bool {
        self.hang.is_some()
    }

    fn checked(&mut self, o: &PicaTexOut, in_flight: usize, clock: u64) {
        if o.idle != 0 && in_flight > 0 && o.hang == 0 && self.idle_lie.is_none() {
            self.idle_lie = Some(format!(
                "idle_o high at clock {clock} with {in_flight} fragment(s) in flight"
            ));
        }
    }

    fn settled(&mut self, _idle: bool, log: &mut Log<'_>) {
        if let Some(what) = self.idle_lie.take() {
            log.violate(what);
        }
    }

    fn drain_stuck(&self, _queued: usize, in_flight: usize) -> Option<String> {
        Some(format!(
            "not idle after {WATCHDOG_CLOCKS} clocks without a handshake \
             ({in_flight} fragments in flight)"
        ))
    }

    fn run_stuck(&self, _queued: usize, pending: usize) -> Option<String> {
        Some(format!(
            "no handshake for {WATCHDOG_CLOCKS} clocks with {pending} fragments pending"
        ))
    }

    fn wrote(&mut self, id: u16, o: &PicaTexOut, log: &mut Log<'_>) {
        if o.axi_master().ar.is_some() || o.out_valid != 0 {
            log.violate(format!(
                "memory request or result while idle (register 0x{id:03x} written)"
            ));
        }
    }

    fn clocked(&mut self, o: &PicaTexOut, log: &mut Log<'_>) {
        // fetch_* is a register: each read shows for the one clock after it was decoded.
        if o.fetch_valid != 0 {
            let raw = o
                .fetch_raw
                .iter()
                .rev()
                .fold(0u128, |acc, &w| acc << 32 | u128::from(w));
            self.fetches.push(TexFetch {
                tag: o.fetch_tag,
                fetch: TexelFetch {
                    unit: o.fetch_unit as u8,
                    addr: o.fetch_addr,
                    raw,
                    rgba: o.fetch_rgba.to_le_bytes(),
                },
            });
        }
        if o.hang != 0 && self.hang.is_none() {
            if o.hang_kind & 3 != 1 {
                log.violate(format!("hang_o with hang_kind_o = {}", o.hang_kind));
            }
            self.hang = Some(TexHang::Unmapped {
                unit: o.hang_unit as u8,
                addr: o.hang_addr,
            });
        } else if o.hang == 0 && self.hang.is_some() {
            log.violate("hang_o fell (it must stay up)".into());
        } else if let Some(TexHang::Unmapped { unit, addr }) = self.hang {
            // The hang's fields hold with hang_o: a testbench may read them at any clock after
            // (the replay testbench reads them at the end of its drain).
            if (o.hang_unit as u8, o.hang_addr) != (unit, addr) {
                log.violate(format!(
                    "hang_unit_o/hang_addr_o changed after the hang: unit {unit} 0x{addr:08x}, \
                     then unit {} 0x{:08x}",
                    o.hang_unit, o.hang_addr
                ));
            }
        }
    }

    fn axi_memory(mem: &mut Memory) -> &mut dyn AxiMemory {
        mem
    }
}

crate::kit::stage::stage_wrapper! {
    /// One Verilated TEX stage (`pica_tex_top`) with its memory port served by the bridge.
    pub struct RtlTex(Tex, TexVariant), "TEX", "`cov_tex`, [`TexVariant::Coverage`]";
}

impl RtlTex {
    /// A new stage of `variant`, reset, whose memory port answers with `latency`.
    pub fn new(variant: TexVariant, latency: MemLatency) -> Result<Self, RtlError> {
        Self::with_reorder(variant, latency, Reorder::InOrder)
    }

    /// A new stage whose memory port answers with `latency` and reorders as `reorder` says
    /// (the texel cache has one burst in flight, so reordering has nothing to reorder yet).
    pub fn with_reorder(
        variant: TexVariant,
        latency: MemLatency,
        reorder: Reorder,
    ) -> Result<Self, RtlError> {
        let stage = RtlStage::open(
            variant.name(),
            variant.mutant(),
            Tex::default(),
            Some(latency),
            reorder,
            false,
        )?;
        Ok(Self { stage, variant })
    }

    /// The AXI4 port's traffic so far: bursts, bytes, the most transactions in flight.
    pub fn axi_tally(&self) -> crate::axi::AxiTally {
        self.stage.axi_tally().unwrap_or_default()
    }

    /// The hang the RTL reports (`hang_o`), as the model's [`TexHang`].
    pub fn hang(&self) -> Option<TexHang> {
        self.stage.proto.hang.clone()
    }

    /// Makes [`RtlTex::run`] and the drains before register writes give up (recorded as a
    /// breach) once the memory port has taken more than `limit` bursts: a livelocked RTL that
    /// refills one line forever gives no fragment and keeps the handshake watchdog quiet (a
    /// mutant ran over ten minutes of `pica mutate` under [`LIVELOCK_CLOCKS`] alone). A case's
    /// bound is [`fill_bound`].
    pub fn set_fill_limit(&mut self, limit: u64) {
        self.stage.set_side_limit(limit);
    }

    /// The texel reads reported since the last call, in the order the RTL made them.
    pub fn take_fetches(&mut self) -> Vec<TexFetch> {
        std::mem::take(&mut self.stage.proto.fetches)
    }

    /// Makes the RTL's TEX registers equal to `regs`' ([`config_words`]), after finishing the
    /// fragments already pushed; then writes the differing registers, one per clock.
    pub fn sync_config(&mut self, regs: &RegFile, mem: &mut Memory) {
        self.stage.set_config(&config_words(regs), mem);
    }

    /// Writes register `id` with `value`, after draining like [`RtlTex::sync_config`].
    pub fn write_reg(&mut self, id: u16, value: u32, mem: &mut Memory) {
        self.stage.write_reg(id, value, mem);
    }

    /// Queues `f`; it enters the stage in a later [`RtlTex::tick`].
    pub fn push(&mut self, f: TexFragment) {
        self.stage.push(f);
    }

    /// One clock: serves the AXI4 port from `mem`, feeds the head of the queue, and returns
    /// the result taken in this clock (`out_ready`: the consumer's ready).
    pub fn tick(&mut self, mem: &mut Memory, out_ready: bool) -> Option<TexResult> {
        self.stage.tick(mem, out_ready)
    }

    /// Pushes every fragment of `frags`, clocks until every result is out or the stage hangs,
    /// and returns the results in order and the hang.
    pub fn run(
        &mut self,
        frags: &[TexFragment],
        mem: &mut Memory,
    ) -> (Vec<TexResult>, Option<TexHang>) {
        let out = self.stage.run(frags, mem);
        (out, self.hang())
    }
}

/// When a fragment must invalidate the texel cache (see the module docs): the ranges of
/// memory the cache may hold since its last flush, and the memory's write count then.
#[derive(Clone, Debug, Default)]
pub struct FlushTracker {
    /// Write count of memory when the ranges were last known clean.
    clean_at: u64,
    /// The texture ranges read since the last flush (deduplicated).
    ranges: Vec<(u64, u64)>,
}

impl FlushTracker {
    /// Whether the next fragment, sent with `regs` over `mem`, must flush the cache; records
    /// the ranges it may read.
    pub fn next(&mut self, regs: &RegFile, mem: &Memory) -> bool {
        let now = mem.write_count();
        let flush = now != self.clean_at
            && self
                .ranges
                .iter()
                .any(|&(a, b)| mem.written_since(a, b, self.clean_at));
        if flush {
            self.ranges.clear();
        }
        self.clean_at = now;
        for r in pica_model::tex::texture_ranges(regs) {
            if !self.ranges.contains(&r) {
                self.ranges.push(r);
            }
        }
        flush
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::regs::id;

    /// The flag rises exactly when memory a fragment sent before may have cached was written:
    /// not for the first fragment, not for a write elsewhere, yes for a write inside a texture
    /// read since the last flush (and then not again until the next such write).
    #[test]
    fn flush_follows_writes_under_the_textures_read() {
        let mut regs = RegFile::new();
        regs.write(id::TEXUNIT_CONFIG, 1 | 1 << 12);
        regs.write(id::TEXUNIT0_DIM, 8 << 16 | 8);
        regs.write(id::TEXUNIT0_ADDR1, 0x1800_0000 >> 3);
        let mut mem = Memory::new();
        let mut f = FlushTracker::default();
        assert!(!f.next(&regs, &mem));
        mem.write_u32(0x2000_0000, 1).unwrap();
        assert!(!f.next(&regs, &mem), "a write outside every texture");
        mem.write_u32(0x1800_0010, 2).unwrap();
        assert!(f.next(&regs, &mem), "a write inside the texture read");
        assert!(!f.next(&regs, &mem), "nothing written since the flush");
        // A texture read once stays in the ranges after the unit moves elsewhere.
        regs.write(id::TEXUNIT0_ADDR1, 0x1810_0000 >> 3);
        assert!(!f.next(&regs, &mem));
        mem.write_u32(0x1800_0020, 3).unwrap();
        assert!(f.next(&regs, &mem), "a write under the texture read before");
    }
}
