//! The TEV-stage RTL: one Verilated `pica_tev_top` (`rtl/pica_tev.sv`: the six texture
//! combiners and the combiner buffer as a six-deep pipeline), driven with the same
//! transactions as the model's [`pica_model::tev::combine`].
//!
//! - [`RtlTev::sync_config`] writes the TEXENV registers that changed (one write per clock,
//!   after the fragments already pushed have finished: the stages read the registers
//!   combinationally, and the model applies register writes between fragments);
//! - [`RtlTev::push`] queues a fragment ([`TevFragment`]: the model's [`tev::Inputs`] and a
//!   tag that comes back with the result);
//! - [`RtlTev::tick`] is one clock: the head of the queue goes in when the input port is
//!   ready; the result that left the output port in that clock (the consumer's `ready` is the
//!   `out_ready` argument) comes back as a [`TevResult`] — the final colour and, per stage, the
//!   stage's output and the buffer after it, as the model's `combiner` beats carry them.
//!
//! The comparison with the model is transaction-exact (same results in the same order; the
//! RTL's latency is six clocks, the model's is its own). `tests/tev_stage.rs` runs random
//! configurations and inputs through both and compares [`TevOut`]s bit for bit.
//!
//! ```no_run
//! # use pica_rtl_bridge::tev_stage::{RtlTev, TevFragment, TevVariant};
//! # use pica_model::regfile::RegFile;
//! let regs = RegFile::new();
//! let mut tev = RtlTev::new(TevVariant::Default)?;
//! tev.sync_config(&regs);
//! let out = tev.run(&[TevFragment::default()]);
//! println!("{:?}", out[0].out.color);
//! # Ok::<(), pica_rtl_bridge::RtlError>(())
//! ```

use crate::error::RtlError;
use crate::kit::abi::tev::{PicaTev, PicaTevIn, PicaTevOut, FNS};
use crate::kit::core::Core;
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::tev::{self, StageOut, TevOut, STAGE_BASE};
use std::collections::VecDeque;
use std::path::Path;

/// A build of the TEV stage: the RTL as written or with one injected bug (each its own
/// Verilated model, rows `tev*` of build.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TevVariant {
    /// The RTL as written (plus any `PICA_RTL_DEFINES` given at build time).
    Default,
    /// `INJECT_TEV_SCALE_SAT`: the 4× scale wraps (low 8 bits of `x << 2`) instead of
    /// saturating.
    InjectScaleSat,
    /// `INJECT_TEV_BUFFER`: stages 1-4 take the RGB buffer-input bit of the next stage (stage
    /// 4: none), so GPUREG_TEXENV_UPDATE_BUFFER's RGB bits act one stage early.
    InjectBuffer,
    /// Mutant `k` of the stage's mutant model (`tev_mut`: Yosys mutations of the stage top,
    /// [`crate::mutants`]; 0 = the unmutated netlist). Not in [`TevVariant::ALL`].
    Mutant(u16),
    /// The RTL as written (plus any `PICA_RTL_DEFINES`), verilated with `--coverage` (`cov_tev`,
    /// [`crate::coverage`]): slower, and its code-coverage counters can be read
    /// ([`RtlTev::coverage`]). Not in [`TevVariant::ALL`].
    Coverage,
}

impl TevVariant {
    /// The mutant number of a [`TevVariant::Mutant`].
    pub fn mutant(self) -> Option<u16> {
        match self {
            TevVariant::Mutant(k) => Some(k),
            _ => None,
        }
    }

    /// Every variant, in build order.
    pub const ALL: [TevVariant; 3] = [
        TevVariant::Default,
        TevVariant::InjectScaleSat,
        TevVariant::InjectBuffer,
    ];

    /// The variant's name as the shim reports it.
    pub fn name(self) -> &'static str {
        match self {
            TevVariant::Default => "default",
            TevVariant::InjectScaleSat => "inject_tev_scale_sat",
            TevVariant::InjectBuffer => "inject_tev_buffer",
            TevVariant::Mutant(_) => crate::mutants::TEV_MODEL,
            TevVariant::Coverage => crate::kit::desc::TEV.coverage.unwrap_or_default(),
        }
    }
}

/// Number of configuration registers TEV reads: 6 stages × 5, UPDATE_BUFFER, BUFFER_COLOR.
pub const NUM_CFG: usize = 32;

/// The register ID of configuration slot `slot` (the `cfg_i` layout of `pica_tev`): slot
/// `5·s + r` is stage `s`'s register `r` (SOURCE, OPERAND, COMBINER, COLOR, SCALE), slot 30
/// GPUREG_TEXENV_UPDATE_BUFFER, slot 31 GPUREG_TEXENV_BUFFER_COLOR (seed 002 register map).
/// Slots past 31 read as slot 31.
pub fn cfg_id(slot: usize) -> u16 {
    match slot {
        30 => id::TEXENV_UPDATE_BUFFER,
        s if s < 30 => STAGE_BASE[s / 5] + (s % 5) as u16,
        _ => id::TEXENV_BUFFER_COLOR,
    }
}

/// The 32 configuration words TEV reads from `regs`, in slot order ([`cfg_id`]).
pub fn cfg_words(regs: &RegFile) -> [u32; NUM_CFG] {
    std::array::from_fn(|i| regs.reg(cfg_id(i).into()))
}

/// One fragment into the stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TevFragment {
    /// Passed through unchanged (the stage adapter puts `x | y << 16` here).
    pub tag: u32,
    /// The stage inputs (primary colour, lighting colours, textures 0-3).
    pub inputs: tev::Inputs,
}

/// One fragment out of the stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TevResult {
    /// The fragment's tag.
    pub tag: u32,
    /// What the combiners produced, as the model's [`TevOut`].
    pub out: TevOut,
}

/// `[r, g, b, a]` → `r | g << 8 | b << 16 | a << 24` (the ports' and the channel's packing).
pub fn pack_rgba(c: [u8; 4]) -> u32 {
    u32::from_le_bytes(c)
}

/// The inverse of [`pack_rgba`].
pub fn unpack_rgba(w: u32) -> [u8; 4] {
    w.to_le_bytes()
}

/// Clocks without a result after which [`RtlTev::sync_config`] stops waiting for the fragments
/// in flight to leave (they are dropped: the pipeline is six clocks deep, so only a stuck RTL
/// gets here).
pub const WATCHDOG_CLOCKS: u64 = 10_000;

/// One Verilated TEV stage (`pica_tev_top`), reset, with every register zero.
#[derive(Debug)]
pub struct RtlTev {
    core: Core<PicaTevIn, PicaTevOut, PicaTev>,
    variant: TevVariant,
    /// The configuration words the RTL holds.
    shadow: [u32; NUM_CFG],
    queue: VecDeque<TevFragment>,
    /// Results that left while [`RtlTev::sync_config`] drained the pipeline, handed out first.
    stash: VecDeque<TevResult>,
    in_flight: usize,
    /// The first clock whose `idle_o` disagreed with the fragments in flight, if any.
    idle_mismatch: Option<String>,
}

crate::kit::handle::coverage_methods!(RtlTev, "`cov_tev`, [`TevVariant::Coverage`]", core.handle);

impl RtlTev {
    /// Names of the TEV variants compiled into this build.
    pub fn variants() -> Vec<String> {
        Core::variants(&FNS)
    }

    /// A new stage of `variant`.
    pub fn new(variant: TevVariant) -> Result<Self, RtlError> {
        let core = Core::open(&FNS, variant.name(), variant.mutant())?;
        Ok(Self {
            core,
            variant,
            shadow: [0; NUM_CFG],
            queue: VecDeque::new(),
            stash: VecDeque::new(),
            in_flight: 0,
            idle_mismatch: None,
        })
    }

    /// Which build this is.
    pub fn variant(&self) -> TevVariant {
        self.variant
    }

    /// Clocks run since reset.
    pub fn cycles(&self) -> u64 {
        self.core.cycles()
    }

    /// No fragment queued, in flight or waiting to be handed out.
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.in_flight == 0 && self.stash.is_empty()
    }

    /// Whether the input side is free: nothing queued that has not yet entered the pipeline
    /// (a stage adapter pushes one fragment at a time, as the input port's `ready` allows).
    pub fn can_accept(&self) -> bool {
        self.queue.is_empty()
    }

    /// The first clock at which the RTL's `idle_o` said otherwise than the fragments in flight
    /// (`None`: it never did). [`RtlTev::take_idle_mismatch`] clears it.
    pub fn idle_mismatch(&self) -> Option<&str> {
        self.idle_mismatch.as_deref()
    }

    /// Returns and clears [`RtlTev::idle_mismatch`] (a stage reused for the next case starts
    /// clean).
    pub fn take_idle_mismatch(&mut self) -> Option<String> {
        self.idle_mismatch.take()
    }

    /// Fragments pushed but not yet handed out by [`RtlTev::tick`].
    pub fn pending(&self) -> usize {
        self.queue.len() + self.in_flight + self.stash.len()
    }

    /// Makes the RTL's TEXENV registers equal to `regs`' ([`cfg_words`]). If any differs,
    /// first finishes every fragment already pushed with the old configuration (their results
    /// come out of the following [`RtlTev::tick`]s), then writes the differing registers, one
    /// per clock.
    pub fn sync_config(&mut self, regs: &RegFile) {
        self.set_config(&cfg_words(regs));
    }

    /// [`RtlTev::sync_config`] from the 32 words directly (slot order of [`cfg_id`]).
    pub fn set_config(&mut self, words: &[u32; NUM_CFG]) {
        if *words == self.shadow {
            return;
        }
        let mut quiet = 0;
        while !self.queue.is_empty() || self.in_flight > 0 {
            if let Some(r) = self.step(true) {
                self.stash.push_back(r);
                quiet = 0;
            } else {
                quiet += 1;
            }
            if quiet > WATCHDOG_CLOCKS {
                // A stuck pipeline (a broken RTL, e.g. a mutant): the fragments are lost, so the
                // comparison reports them missing instead of this loop never ending.
                self.queue.clear();
                self.in_flight = 0;
            }
        }
        for (slot, &w) in words.iter().enumerate() {
            if w == self.shadow[slot] {
                continue;
            }
            let inp = PicaTevIn {
                cfg_we: 1,
                cfg_id: u32::from(cfg_id(slot)),
                cfg_data: w,
                out_ready: 1,
                ..Default::default()
            };
            self.core.eval(&inp);
            self.clock();
            self.shadow[slot] = w;
        }
    }

    /// Queues `f`; it enters the pipeline in a later [`RtlTev::tick`].
    pub fn push(&mut self, f: TevFragment) {
        self.queue.push_back(f);
    }

    /// One clock. Returns the result handed to the consumer in it (`out_ready` is the
    /// consumer's ready); results stashed by [`RtlTev::sync_config`] come first, one per tick.
    pub fn tick(&mut self, out_ready: bool) -> Option<TevResult> {
        if out_ready {
            if let Some(r) = self.stash.pop_front() {
                // The pipeline still advances by one clock so time moves on.
                self.hold();
                return Some(r);
            }
        }
        self.step(out_ready)
    }

    /// Pushes every fragment of `frags`, clocks until all are out and returns their results
    /// in order (plus any results pending from before).
    pub fn run(&mut self, frags: &[TevFragment]) -> Vec<TevResult> {
        for f in frags {
            self.push(*f);
        }
        let mut out = Vec::with_capacity(self.pending());
        while !self.is_idle() {
            if let Some(r) = self.tick(true) {
                out.push(r);
            }
        }
        out
    }

    /// Starts writing a VCD of every following clock edge to `path`.
    pub fn trace_vcd(&mut self, path: &Path) -> Result<(), RtlError> {
        self.core.trace_vcd(path)
    }

    /// Stops tracing and closes the VCD, if one is open.
    pub fn trace_off(&mut self) {
        self.core.trace_off();
    }

    fn clock(&mut self) {
        self.core.clock();
    }

    /// A clock with no input and the output held (nothing moves in or out).
    fn hold(&mut self) {
        self.core.eval(&PicaTevIn::default());
        self.clock();
    }

    /// One clock driving the head of the queue; returns the result taken in it.
    fn step(&mut self, out_ready: bool) -> Option<TevResult> {
        let head = self.queue.front().copied();
        let mut inp = PicaTevIn {
            out_ready: u32::from(out_ready),
            ..Default::default()
        };
        if let Some(f) = head {
            let i = &f.inputs;
            inp.in_valid = 1;
            inp.in_tag = f.tag;
            inp.in_primary = pack_rgba(i.primary);
            inp.in_frag_primary = pack_rgba(i.frag_primary);
            inp.in_frag_secondary = pack_rgba(i.frag_secondary);
            inp.in_tex = i.tex.map(pack_rgba);
        }
        let o = self.core.eval(&inp);
        // idle_o promises "no fragment in the pipeline": exactly when none is in flight
        // (counted before this clock's handshakes, as idle_o shows the state before the edge).
        if (o.idle != 0) != (self.in_flight == 0) && self.idle_mismatch.is_none() {
            self.idle_mismatch = Some(format!(
                "clock {}: idle_o {} with {} fragment(s) in flight",
                self.core.cycles(),
                o.idle,
                self.in_flight
            ));
        }
        let result = (o.out_valid != 0 && out_ready).then(|| TevResult {
            tag: o.out_tag,
            out: TevOut {
                stages: std::array::from_fn(|s| StageOut {
                    color: unpack_rgba(o.out_stage_color[s]),
                    buffer: unpack_rgba(o.out_stage_buffer[s]),
                }),
                color: unpack_rgba(o.out_color),
            },
        });
        if head.is_some() && o.in_ready != 0 {
            self.queue.pop_front();
            self.in_flight += 1;
        }
        if result.is_some() {
            self.in_flight = self.in_flight.saturating_sub(1);
        }
        self.clock();
        result
    }
}

/// A register file holding the 32 configuration words `words` (slot order of [`cfg_id`]) and
/// zero elsewhere: what the model reads for that configuration.
pub fn model_regs(words: &[u32; NUM_CFG]) -> RegFile {
    let mut regs = RegFile::new();
    for (slot, &w) in words.iter().enumerate() {
        regs.write(cfg_id(slot), w);
    }
    regs
}

/// The model's answer for `f` under `regs`: [`tev::combine`] with `f`'s inputs (the rest of
/// the fragment does not reach TEV).
pub fn model_combine(regs: &RegFile, f: &TevFragment) -> TevResult {
    let inputs = &f.inputs;
    let frag = pica_model::pipe::Fragment {
        x: 0,
        y: 0,
        depth: 0,
        color: inputs.primary,
        attr: [pica_model::num::F24::ZERO; pica_model::pipe::NUM_SEMANTICS],
        tri: 0,
        tex_deriv: [[pica_model::num::F24::ZERO; 4]; 3],
    };
    let mut sf = pica_model::pipe::ShadedFragment::new(frag);
    sf.light_primary = inputs.frag_primary;
    sf.light_secondary = inputs.frag_secondary;
    sf.tex = inputs.tex;
    TevResult {
        tag: f.tag,
        out: tev::combine(&sf, regs),
    }
}

/// A seeded generator of random TEV configurations and fragments for the RTL-versus-model
/// tests and the TEV fuzzer (`pica fuzz --target tev`, `pica-testbench`'s `tev_fuzz`), biased so that every source, operand, combine mode, scale and
/// buffer-update bit turns up often: mostly documented values, sometimes reserved encodings
/// and junk in the unused register bits, channel values biased towards 0, 127, 128 and 255
/// (where the saturations, the ADD_SIGNED bias and the DOT3 sign change).
#[derive(Clone, Debug)]
pub struct TevGen {
    state: u64,
}

/// Documented source values (seed 002 GPUREG_TEXENVi_SOURCE).
const SOURCES: [u32; 10] = [0, 1, 2, 3, 4, 5, 6, 13, 14, 15];

impl TevGen {
    /// A generator seeded with `seed` (same seed, same sequence).
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits (SplitMix64).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform value below `n` (`n` > 0; 0 gives 0).
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    fn source(&mut self) -> u32 {
        if self.chance(8) {
            7 + self.below(6) // reserved 7-12
        } else {
            SOURCES[self.below(SOURCES.len() as u32) as usize]
        }
    }

    fn mode(&mut self) -> u32 {
        match self.below(100) {
            0..=5 => 10 + self.below(6), // reserved
            6..=20 => 6 + self.below(2), // DOT3_RGB / DOT3_RGBA
            _ => self.below(10),
        }
    }

    /// One channel value, biased towards the edges.
    pub fn channel(&mut self) -> u8 {
        match self.below(8) {
            0 => [0, 1, 127, 128, 254, 255][self.below(6) as usize],
            _ => self.below(256) as u8,
        }
    }

    /// A random colour.
    pub fn color(&mut self) -> [u8; 4] {
        [
            self.channel(),
            self.channel(),
            self.channel(),
            self.channel(),
        ]
    }

    /// A random configuration: the 32 words in slot order ([`cfg_id`]).
    pub fn config(&mut self) -> [u32; NUM_CFG] {
        let mut w = [0u32; NUM_CFG];
        let junk = self.chance(10);
        for s in 0..6 {
            let b = 5 * s;
            // A stage left at REPLACE(previous) passes its input on, so later stages see
            // earlier ones' results.
            if self.chance(15) {
                w[b] = 0x00F0_00F0 | 0x000F_000F; // all sources "previous"
                w[b + 1] = 0;
                w[b + 2] = 0;
            } else {
                let src: [u32; 6] = std::array::from_fn(|_| self.source());
                w[b] =
                    src[0] | src[1] << 4 | src[2] << 8 | src[3] << 16 | src[4] << 20 | src[5] << 24;
                let ro: [u32; 3] = std::array::from_fn(|_| self.below(16));
                let ao: [u32; 3] = std::array::from_fn(|_| self.below(8));
                w[b + 1] =
                    ro[0] | ro[1] << 4 | ro[2] << 8 | ao[0] << 12 | ao[1] << 16 | ao[2] << 20;
                w[b + 2] = self.mode() | self.mode() << 16;
            }
            w[b + 3] = pack_rgba(self.color());
            w[b + 4] = self.below(4) | self.below(4) << 16;
            if junk {
                // Bits no field uses (the RTL must ignore them as the model does).
                w[b] |= (self.next_u64() as u32) & 0xF000_F000;
                w[b + 1] |= (self.next_u64() as u32) & 0xFF88_8000;
                w[b + 2] |= (self.next_u64() as u32) & 0xFFF0_FFF0;
                w[b + 4] |= (self.next_u64() as u32) & 0xFFFC_FFFC;
            }
        }
        // UPDATE_BUFFER: the eight buffer-input bits uniformly; the other fields (fog, which
        // TEV does not read) random.
        w[30] = (self.next_u64() as u32 & !0xFF00) | self.below(256) << 8;
        w[31] = pack_rgba(self.color());
        w
    }

    /// A random fragment with tag `tag`.
    pub fn fragment(&mut self, tag: u32) -> TevFragment {
        TevFragment {
            tag,
            inputs: tev::Inputs {
                primary: self.color(),
                frag_primary: self.color(),
                frag_secondary: self.color(),
                tex: [self.color(), self.color(), self.color(), self.color()],
            },
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn slot_order_matches_the_stage_description() {
        let slots: Vec<u16> = (0..super::NUM_CFG).map(super::cfg_id).collect();
        assert_eq!(crate::kit::regs::tev(), slots);
    }
}
