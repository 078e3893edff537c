//! The TEV-stage RTL: one Verilated `pica_tev_top` (`rtl/pica_tev.sv`: the six texture
//! combiners and the combiner buffer as an 18-deep pipeline, three clocks per combiner), driven with the same
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
//! RTL's latency is 18 clocks, the model's is its own). `tests/tev_stage.rs` runs random
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
use crate::kit::abi::tev::{PicaTevIn, PicaTevOut};
use crate::kit::stage::{Protocol, RtlStage, Rules, TevShim};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::tev::{self, StageOut, TevOut, STAGE_BASE};

pub use crate::kit::variant::TevVariant;

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
/// in flight to leave (they are dropped: the pipeline is 18 clocks deep, so only a stuck RTL
/// gets here).
pub const WATCHDOG_CLOCKS: u64 = 10_000;

/// TEV's part of the stage protocol: the fragment and result on the ports, and the check of
/// `idle_o` against the fragments in flight.
#[derive(Debug, Default)]
pub(crate) struct Tev {
    /// The first clock whose `idle_o` disagreed with the fragments in flight, if any.
    idle_mismatch: Option<String>,
}

impl Protocol for Tev {
    type Shim = TevShim;
    type Item = TevFragment;
    type Result = TevResult;
    type Rsp = ();
    type Ctx = ();

    const RULES: Rules = Rules {
        watchdog_clocks: WATCHDOG_CLOCKS,
        // idle_o is checked against the count in flight rather than waited for.
        idle_from_port: false,
        stash_holds: true,
        // Only a result shows the 18-deep pipeline moving.
        quiet_without_result: true,
        items: "fragments",
        results: "fragments",
        ..Rules::HANDSHAKES
    };

    fn drive(&mut self, head: Option<&TevFragment>, out_ready: bool) -> PicaTevIn {
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
        inp
    }

    fn result(o: &PicaTevOut) -> TevResult {
        TevResult {
            tag: o.out_tag,
            out: TevOut {
                stages: std::array::from_fn(|s| StageOut {
                    color: unpack_rgba(o.out_stage_color[s]),
                    buffer: unpack_rgba(o.out_stage_buffer[s]),
                }),
                color: unpack_rgba(o.out_color),
            },
        }
    }

    fn checked(&mut self, o: &PicaTevOut, in_flight: usize, clock: u64) {
        // idle_o promises "no fragment in the pipeline": exactly when none is in flight
        // (counted before this clock's handshakes, as idle_o shows the state before the edge).
        if (o.idle != 0) != (in_flight == 0) && self.idle_mismatch.is_none() {
            self.idle_mismatch = Some(format!(
                "clock {clock}: idle_o {} with {in_flight} fragment(s) in flight",
                o.idle
            ));
        }
    }
}

crate::kit::stage::stage_wrapper! {
    /// One Verilated TEV stage (`pica_tev_top`), reset, with every register zero.
    pub struct RtlTev(Tev, TevVariant), "TEV", "`cov_tev`, [`TevVariant::Coverage`]";
}

impl RtlTev {
    /// A new stage of `variant`.
    pub fn new(variant: TevVariant) -> Result<Self, RtlError> {
        let stage = RtlStage::open(
            variant.name(),
            variant.mutant(),
            Tev::default(),
            None,
            crate::axi::Reorder::InOrder,
            true,
        )?;
        Ok(Self { stage, variant })
    }

    /// The first clock at which the RTL's `idle_o` said otherwise than the fragments in flight
    /// (`None`: it never did). [`RtlTev::take_idle_mismatch`] clears it.
    pub fn idle_mismatch(&self) -> Option<&str> {
        self.stage.proto.idle_mismatch.as_deref()
    }

    /// Returns and clears [`RtlTev::idle_mismatch`] (a stage reused for the next case starts
    /// clean).
    pub fn take_idle_mismatch(&mut self) -> Option<String> {
        self.stage.proto.idle_mismatch.take()
    }

    /// Makes the RTL's TEXENV registers equal to `regs`' ([`cfg_words`]). If any differs,
    /// first finishes every fragment already pushed with the old configuration (their results
    /// come out of the following [`RtlTev::tick`]s), then writes the differing registers, one
    /// per clock.
    pub fn sync_config(&mut self, regs: &RegFile) {
        self.set_config(&cfg_words(regs));
    }

    /// [`RtlTev::sync_config`] from the 32 words directly (slot order of [`cfg_id`]). Fragments
    /// that do not leave within [`WATCHDOG_CLOCKS`] clocks are dropped.
    pub fn set_config(&mut self, words: &[u32; NUM_CFG]) {
        self.stage.set_config(words, &mut ());
    }

    /// Queues `f`; it enters the pipeline in a later [`RtlTev::tick`].
    pub fn push(&mut self, f: TevFragment) {
        self.stage.push(f);
    }

    /// One clock. Returns the result handed to the consumer in it (`out_ready` is the
    /// consumer's ready); results stashed by [`RtlTev::sync_config`] come first, one per tick
    /// (the pipeline still advances one clock, nothing driven and the output held).
    pub fn tick(&mut self, out_ready: bool) -> Option<TevResult> {
        self.stage.tick(&mut (), out_ready)
    }

    /// Pushes every fragment of `frags`, clocks until all are out and returns their results
    /// in order (plus any results pending from before).
    pub fn run(&mut self, frags: &[TevFragment]) -> Vec<TevResult> {
        self.stage.run(frags, &mut ())
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
