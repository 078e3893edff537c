//! The per-fragment stages between RAST and FOP: TEX, LIGHT, TEV and FOG (design.md "Stages").
//!
//! ```text
//! RAST ──Fragment──► TEX ──ShadedFragment──► LIGHT ──► TEV ──► FOG ──► FOP
//! ```
//!
//! Each is a [`FragStage`] around a [`Kernel`]: the kernel is the stage's arithmetic as a pure
//! function of the fragment, the registers and (TEX only) memory, living in its own module
//! ([`crate::tex`], [`crate::light`], [`crate::tev`], [`crate::fog`]); the stage around it moves
//! fragments between links. Every stage takes one fragment per cycle and hands it on in the
//! same cycle, so each adds one cycle of latency (the link) — see the `-- FRAG --` section of
//! [`crate::timing`].

use crate::beat::{CombinerBeat, TexColorBeat, TexelBeat};
use crate::link::Link;
use crate::mem::Memory;
use crate::outcome::HangReason;
use crate::pipe::{Fragment, ShadedFragment};
use crate::regfile::RegFile;
use crate::stage::Stage;
use crate::tex::TexHang;
use crate::timing;
use serde_json::json;

/// Where a kernel's beats go this cycle (`None` in a field: not recorded).
#[derive(Default)]
pub struct FragBeats<'a> {
    /// Texel fetches (TEX).
    pub texel: Option<&'a mut Vec<TexelBeat>>,
    /// Combiner stage outputs (TEV).
    pub combiner: Option<&'a mut Vec<CombinerBeat>>,
    /// Texture-unit colours (TEX).
    pub tex_color: Option<&'a mut Vec<TexColorBeat>>,
}

/// The arithmetic of one fragment stage.
pub trait Kernel: Default {
    /// The stage's name (also the `tracing` target).
    const NAME: &'static str;

    /// What its input link carries: RAST's [`Fragment`] into TEX, the [`ShadedFragment`]
    /// the stage before made into the others.
    type Input: FragInput + 'static;

    /// Computes the stage's part of `f` in cycle `cycle`. An `Err` hangs the GPU.
    fn process(
        &mut self,
        cycle: u64,
        f: &mut ShadedFragment,
        regs: &RegFile,
        mem: &Memory,
        beats: &mut FragBeats<'_>,
    ) -> Result<(), HangReason>;
}

/// What a fragment stage touches in one cycle.
pub struct FragPorts<'a, I> {
    /// Configuration.
    pub regs: &'a RegFile,
    /// Memory (read by TEX only; mutable so that an external TEX, the RTL texture units behind
    /// an AXI4 port, can lend it to its memory server as FOP's does).
    pub mem: &'a mut Memory,
    /// Fragments from the stage before.
    pub input: &'a mut Link<I>,
    /// Fragments to the stage after.
    pub out: &'a mut Link<ShadedFragment>,
    /// Beat logs.
    pub beats: FragBeats<'a>,
}

impl<'a, I> FragPorts<'a, I> {
    /// Ports with no beat recording.
    pub fn new(
        regs: &'a RegFile,
        mem: &'a mut Memory,
        input: &'a mut Link<I>,
        out: &'a mut Link<ShadedFragment>,
    ) -> Self {
        Self {
            regs,
            mem,
            input,
            out,
            beats: FragBeats::default(),
        }
    }
}

/// A value decoded from registers, kept with a copy of the register words and the knobs
/// ([`RegFile::knobs`]) it was decoded from and decoded again only when one of them differs:
/// per-draw configuration is then decoded once per change instead of once per fragment, and
/// the result is the same as decoding every time (whatever wrote the registers, and across
/// register files: the words are compared, not a write counter).
#[derive(Clone, Debug)]
pub struct Decoded<T> {
    words: Vec<u32>,
    knobs: crate::knobs::Knobs,
    value: Option<T>,
}

impl<T> Default for Decoded<T> {
    fn default() -> Self {
        Self {
            words: Vec::new(),
            knobs: crate::knobs::Knobs::default(),
            value: None,
        }
    }
}

impl<T> Decoded<T> {
    /// `decode(regs)`, from the cache while the words of `ranges` (register IDs, inclusive)
    /// are those it was decoded from.
    pub fn get(
        &mut self,
        regs: &RegFile,
        ranges: &[(u16, u16)],
        decode: impl FnOnce(&RegFile) -> T,
    ) -> &T {
        let all = regs.regs();
        let window = |&(lo, hi): &(u16, u16)| all.get(usize::from(lo)..=usize::from(hi));
        let mut at = 0;
        let mut same = self.value.is_some() && self.knobs == *regs.knobs();
        for r in ranges {
            let w = window(r).unwrap_or(&[]);
            same = same && self.words.get(at..at + w.len()) == Some(w);
            at += w.len();
        }
        if !same || at != self.words.len() {
            self.words.clear();
            self.knobs = *regs.knobs();
            for r in ranges {
                self.words.extend_from_slice(window(r).unwrap_or(&[]));
            }
            self.value = None;
        }
        self.value.get_or_insert_with(|| decode(regs))
    }
}

/// What enters a fragment stage: RAST's [`Fragment`] (TEX) or a [`ShadedFragment`].
pub trait FragInput: Copy {
    /// As a fragment of the fragment pipeline.
    fn shaded(self) -> ShadedFragment;

    /// Takes the oldest visible fragment of `input` (`Ok(false)`: none), has `process`
    /// compute on it as a [`ShadedFragment`] and pushes the result into `out` (which has
    /// room: the caller checked). The fragment leaves `input` even when `process` fails, as a
    /// pop before it would.
    fn step<E>(
        input: &mut Link<Self>,
        out: &mut Link<ShadedFragment>,
        process: impl FnOnce(&mut ShadedFragment) -> Result<(), E>,
    ) -> Result<bool, StepError<E>>;
}

/// Why [`FragInput::step`] did not hand a fragment on.
pub enum StepError<E> {
    /// The kernel failed.
    Kernel(E),
    /// The link after refused the fragment (a model bug).
    Full(crate::link::LinkFull),
}

impl FragInput for Fragment {
    fn shaded(self) -> ShadedFragment {
        ShadedFragment::new(self)
    }

    #[inline]
    fn step<E>(
        input: &mut Link<Self>,
        out: &mut Link<ShadedFragment>,
        process: impl FnOnce(&mut ShadedFragment) -> Result<(), E>,
    ) -> Result<bool, StepError<E>> {
        // Built where it goes (one copy of the fragment instead of three), computed on in
        // place, and taken back out of `out` if the kernel fails: the links end as a pop,
        // a failed computation and no push would leave them.
        let Some(&item) = input.peek() else {
            return Ok(false);
        };
        input.skip();
        out.push(item.shaded()).map_err(StepError::Full)?;
        let Some(f) = out.last_pushed_mut() else {
            return Ok(true);
        };
        if let Err(e) = process(f) {
            out.unpush();
            return Err(StepError::Kernel(e));
        }
        Ok(true)
    }
}

impl FragInput for ShadedFragment {
    fn shaded(self) -> ShadedFragment {
        self
    }

    /// In place: the fragment is computed on where it lies in `input` and then moved to `out`
    /// once, instead of out to the stack and back (the fragment is some 200 bytes, and moving
    /// it was a tenth of a frame's time).
    #[inline]
    fn step<E>(
        input: &mut Link<Self>,
        out: &mut Link<ShadedFragment>,
        process: impl FnOnce(&mut ShadedFragment) -> Result<(), E>,
    ) -> Result<bool, StepError<E>> {
        let Some(f) = input.peek_mut() else {
            return Ok(false);
        };
        if let Err(e) = process(f) {
            input.skip();
            return Err(StepError::Kernel(e));
        }
        input.pass(out).map_err(StepError::Full)
    }
}

/// A fragment stage: [`timing::FRAG_FRAGMENTS_PER_CYCLE`] fragment per cycle through `K`.
#[derive(Clone, Debug, Default)]
pub struct FragStage<K> {
    kernel: K,
    fragments: u64,
    stalls: u64,
}

impl<K: Kernel> FragStage<K> {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// The kernel (its own statistics, if any).
    pub fn kernel(&self) -> &K {
        &self.kernel
    }

    /// Fragments processed since reset.
    pub fn fragments(&self) -> u64 {
        self.fragments
    }

    /// Advances one cycle: takes a fragment if the link after has room, processes it and hands
    /// it on.
    pub fn tick<I: FragInput>(
        &mut self,
        cycle: u64,
        mut ports: FragPorts<'_, I>,
    ) -> Result<(), HangReason> {
        for _ in 0..timing::FRAG_FRAGMENTS_PER_CYCLE {
            if ports.input.is_empty() {
                return Ok(());
            }
            if !ports.out.can_push() {
                self.stalls += 1;
                return Ok(());
            }
            let (kernel, regs, mem, beats) =
                (&mut self.kernel, ports.regs, &*ports.mem, &mut ports.beats);
            let stepped = I::step(ports.input, ports.out, |f| {
                kernel.process(cycle, f, regs, mem, beats)
            });
            match stepped {
                Ok(true) => self.fragments += 1,
                Ok(false) => return Ok(()),
                Err(StepError::Kernel(h)) => return Err(h),
                Err(StepError::Full(e)) => {
                    // Processed, then refused (cannot happen after `can_push`).
                    self.fragments += 1;
                    return Err(HangReason::Internal(e.to_string()));
                }
            }
        }
        Ok(())
    }

    /// Always idle between cycles: a fragment never stays inside the stage.
    pub fn is_idle(&self) -> bool {
        true
    }

    /// Counters for dumps.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({ "fragments": self.fragments, "stalls": self.stalls })
    }
}

impl<K: Kernel> Stage for FragStage<K> {
    type Ports<'a> = FragPorts<'a, K::Input>;

    fn name(&self) -> &'static str {
        K::NAME
    }

    fn reset(&mut self) {
        *self = Self::new();
    }

    fn tick(&mut self, cycle: u64, ports: Self::Ports<'_>) -> Result<(), HangReason> {
        FragStage::tick(self, cycle, ports)
    }

    fn is_idle(&self) -> bool {
        FragStage::is_idle(self)
    }

    fn snapshot(&self) -> serde_json::Value {
        FragStage::snapshot(self)
    }
}

/// TEX: texture units 0-2 and the procedural texture unit 3 ([`crate::tex`]).
#[derive(Clone, Debug, Default)]
pub struct TexKernel {
    /// The texel reads of the fragment in hand (kept between fragments so that its
    /// allocation is reused: emptied before each).
    fetches: Vec<crate::tex::TexelFetch>,
}

impl Kernel for TexKernel {
    const NAME: &'static str = "tex";
    type Input = Fragment;

    fn process(
        &mut self,
        cycle: u64,
        f: &mut ShadedFragment,
        regs: &RegFile,
        mem: &Memory,
        beats: &mut FragBeats<'_>,
    ) -> Result<(), HangReason> {
        self.fetches.clear();
        let r = crate::tex::texture_units(&f.frag, regs, mem, &mut self.fetches);
        if let Some(log) = beats.texel.as_deref_mut() {
            log.extend(self.fetches.iter().map(|t| TexelBeat {
                cycle,
                x: f.frag.x,
                y: f.frag.y,
                unit: t.unit,
                addr: t.addr,
                raw: t.raw,
                rgba: u32::from_le_bytes(t.rgba),
            }));
        }
        f.tex = r.map_err(|h: TexHang| HangReason::Texture(h))?;
        if let Some(log) = beats.tex_color.as_deref_mut() {
            log.push(TexColorBeat::of(cycle, &f.frag, f.tex));
        }
        Ok(())
    }
}

/// LIGHT: fragment lighting ([`crate::light`]).
///
/// The decoded lighting registers ([`crate::light::LightEnv`], with what is computed from
/// them alone: [`crate::light::Prepared`]) are kept between fragments together with the raw
/// register words they were decoded from ([`crate::light::config::REG_RANGES`]), and decoded
/// again only when one of those words differs: decoding eight lights per fragment cost more
/// than lighting it.
#[derive(Clone, Debug, Default)]
pub struct LightKernel {
    env: Decoded<crate::light::Prepared>,
}

impl Kernel for LightKernel {
    const NAME: &'static str = "light";
    type Input = ShadedFragment;

    fn process(
        &mut self,
        _cycle: u64,
        f: &mut ShadedFragment,
        regs: &RegFile,
        _mem: &Memory,
        _beats: &mut FragBeats<'_>,
    ) -> Result<(), HangReason> {
        let out = if crate::light::config::lighting_enabled(regs) {
            let prepared = self.env.get(regs, &crate::light::config::REG_RANGES, |r| {
                crate::light::Prepared::new(crate::light::config::decode(r))
            });
            crate::light::lighting_prepared(prepared, &f.frag, &f.tex, regs)
        } else {
            crate::light::LightOut::default()
        };
        f.light_primary = out.primary;
        f.light_secondary = out.secondary;
        Ok(())
    }
}

/// TEV: the six texture combiners and the combiner buffer ([`crate::tev`]), with the
/// combiner registers decoded and prepared ([`crate::tev::Prepared`]) once per change
/// ([`Decoded`]).
#[derive(Clone, Debug, Default)]
pub struct TevKernel {
    cfg: Decoded<crate::tev::Prepared>,
}

impl Kernel for TevKernel {
    const NAME: &'static str = "tev";
    type Input = ShadedFragment;

    fn process(
        &mut self,
        cycle: u64,
        f: &mut ShadedFragment,
        regs: &RegFile,
        _mem: &Memory,
        beats: &mut FragBeats<'_>,
    ) -> Result<(), HangReason> {
        let cfg = self.cfg.get(regs, &crate::tev::REG_RANGES, |r| {
            crate::tev::Prepared::new(crate::tev::TevConfig::from_regs(r))
        });
        let out = crate::tev::combine_prepared(cfg, f);
        if let Some(log) = beats.combiner.as_deref_mut() {
            log.extend(out.stages.iter().enumerate().map(|(i, s)| CombinerBeat {
                cycle,
                x: f.frag.x,
                y: f.frag.y,
                stage: i as u8,
                color: u32::from_le_bytes(s.color),
                buffer: u32::from_le_bytes(s.buffer),
            }));
        }
        f.color = out.color;
        Ok(())
    }
}

/// FOG: fog and gas ([`crate::fog`]).
#[derive(Clone, Debug, Default)]
pub struct FogKernel;

impl Kernel for FogKernel {
    const NAME: &'static str = "fog";
    type Input = ShadedFragment;

    fn process(
        &mut self,
        _cycle: u64,
        f: &mut ShadedFragment,
        regs: &RegFile,
        _mem: &Memory,
        _beats: &mut FragBeats<'_>,
    ) -> Result<(), HangReason> {
        crate::fog::apply(f, regs);
        Ok(())
    }
}

/// The TEX stage.
pub type TexStage = FragStage<TexKernel>;
/// The LIGHT stage.
pub type LightStage = FragStage<LightKernel>;
/// The TEV stage.
pub type TevStage = FragStage<TevKernel>;
/// The FOG stage.
pub type FogStage = FragStage<FogKernel>;

#[cfg(test)]
mod tests {
    use super::Decoded;
    use crate::knobs::{Knobs, TevStage0Previous};
    use crate::regfile::RegFile;

    /// The cache decodes again when only the knobs change (the same register words).
    #[test]
    fn decoded_follows_the_knobs() {
        let mut regs = RegFile::new();
        let mut d = Decoded::default();
        let ranges = [(0x0C0u16, 0x0C7u16)];
        let read = |d: &mut Decoded<TevStage0Previous>, regs: &RegFile| {
            *d.get(regs, &ranges, |r| r.knobs().tev_stage0_previous)
        };
        assert_eq!(read(&mut d, &regs), TevStage0Previous::Primary);
        regs.set_knobs(Knobs {
            tev_stage0_previous: TevStage0Previous::Zero,
            ..Knobs::default()
        });
        assert_eq!(read(&mut d, &regs), TevStage0Previous::Zero);
    }
}
