//! Stage recorders: model stages that also write down what crosses them, so that a scene run on
//! the model GPU becomes a stage case (`pica vectors gen OUT --stage tev`).
//!
//! [`TevRecorder`] stands in the TEV slot ([`Gpu::replace_stage`]) and does exactly what the
//! model's [`TevStage`] does — [`FragStage::tick`](pica_model::frag::FragStage::tick): up to
//! [`timing::FRAG_FRAGMENTS_PER_CYCLE`] fragments per cycle, none while the input link is empty
//! or the output link is full, [`tev::combine`] with the registers of the cycle it takes the
//! fragment, the six `combiner` beats stamped with that cycle — so the run (every channel, the
//! cycles, the picture) is the model's. Before each fragment it compares the 32 TEXENV words
//! with those of the previous fragment and records a register write for each that changed
//! (in slot order), then the fragment (x, y, [`Inputs`]) and its result: a [`TevCase`] whose
//! model run ([`pica_vectors::stage_tev::run_model`]) gives the same beats.
//!
//! [`FopRecorder`] stands in the FOP slot and runs the model's own [`FragmentOps`] inside: each
//! cycle it pops what [`FragmentOps::tick`] would pop (up to
//! [`timing::FOP_FRAGMENTS_PER_CYCLE`] fragments that were in the link when the cycle began),
//! records them (x, y, depth, the colour FOG handed on) after a write of every FOP register
//! ([`CONFIG_REGS`]) that changed since the previous fragment, and hands them to the inner
//! stage through a private link, which then runs exactly as in the model (the configuration of
//! the cycle, trigger observation, memory, beats, hangs). [`record_fop`] turns the recording
//! into a [`FopCase`] whose memory images are the case's initial memory over every buffer its
//! configurations use ([`buffer_ranges`]).
//!
//! [`RastRecorder`] stands in the CLIP slot — the first of the two slots the `rast` stage
//! (CLIP + RAST) spans — and runs the model's own [`Clipper`] inside, the same way: each cycle
//! it pops what [`Clipper::tick`] would pop (while the clipper has nothing queued, up to
//! [`timing::CLIP_INPUTS_PER_CYCLE`] triangles, stopping after one that leaves window-space
//! triangles), records them after a write of every CLIP or RAST configuration register
//! ([`cfg_ids`]) that changed since the previous record, and hands them to the inner clipper
//! through a private link. It also records an early-depth clear for each
//! GPUREG_EARLYDEPTH_CLEAR event ([`pica_model::rast::EARLY_DEPTH_CLEAR`]) in the cycle the
//! model's RAST, ticked in the same cycle with the same registers, performs it (after the
//! configuration writes, so the recorded GPUREG_EARLYDEPTH_DATA is the value it clears to). The
//! model's RAST stays in its slot. [`record_rast`] turns the recording into a [`RastCase`] from
//! a power-on early-depth buffer whose model run ([`pica_vectors::stage_rast::run_model`])
//! gives the run's fragments and early-depth buffer.
//!
//! [`TexRecorder`] stands in the TEX slot and does what the model's [`TexStage`] does — one
//! fragment per cycle ([`timing::FRAG_FRAGMENTS_PER_CYCLE`]), none while the output link is
//! full, the model's own [`TexKernel`] with the registers and memory of the cycle, its `texel`
//! and `tex_color` beats — so the run is the model's. Before each fragment it records a write of
//! every TEX register ([`pica_model::tex::CONFIG_REGS`]) that changed since the previous one,
//! then the fragment (its texture coordinates and derivatives, and the flush flag the lockstep
//! adapter would send, [`FlushTracker`]), its colours and texel reads. When the registers change
//! it copies the memory of every texture range they make readable
//! ([`pica_model::tex::texture_ranges`], clipped to mapped memory) that no earlier copy holds:
//! [`record_tex`] turns those copies into the [`TexCase`]'s memory images.

use pica_model::beat::{CombinerBeat, TexColorBeat, TexelBeat};
use pica_model::clip::{self, ClipPorts, Clipper};
use pica_model::fop::{config_words, FopPorts, FragmentOps, CONFIG_REGS};
use pica_model::frag::{FragBeats, Kernel, TexKernel, TexStage};
use pica_model::frag::{FragPorts, TevStage};
use pica_model::gpu::HangReason;
use pica_model::gpu::Swappable;
use pica_model::link::Link;
use pica_model::mem::{Memory, FCRAM, VRAM};
use pica_model::pipe::Fragment;
use pica_model::pipe::{ShadedFragment, Triangle};
use pica_model::rast::EarlyDepthBuffer;
use pica_model::regfile::RegFile;
use pica_model::regs::Trigger;
use pica_model::stage::External;
use pica_model::tev::{self, Inputs, TevOut};
use pica_model::{timing, Gpu, Outcome};
use pica_rtl_bridge::tex_stage::{
    config_words as tex_words, FlushTracker, TexFragment, NUM_CFG as NUM_TEX,
};
use pica_vectors::case::{Case, MemImage};
use pica_vectors::stage_fop::{buffer_ranges, image_words, FopCase, FopOp};
use pica_vectors::stage_rast::{cfg_ids, cfg_words, RastCase, RastOp, NUM_CFG};
use pica_vectors::stage_tev::{tev_reg_id, tev_words, TevCase, TevOp, NUM_TEV_REGS};
use pica_vectors::stage_tex::{TexCase, TexFrag, TexOp, TexRun};
use std::cell::RefCell;
use std::rc::Rc;

/// Runs `case` on the model GPU with `stage` in the slot of `S`: how the run ended, and the GPU.
fn run_with<S: Swappable>(
    case: &Case,
    stage: Box<dyn External<S>>,
) -> Result<(Outcome, Gpu), String> {
    let mut gpu = case.gpu().map_err(|e| e.to_string())?;
    gpu.replace_stage::<S>(stage);
    let outcome = case
        .run_steps(&mut gpu, case.max_cycles)
        .map_err(|e| e.to_string())?
        .outcome;
    Ok((outcome, gpu))
}

/// What a [`TevRecorder`] wrote down.
#[derive(Clone, Debug, Default)]
pub struct TevRecording {
    /// The register writes and fragments, in order.
    pub case: TevCase,
    /// Each fragment's result as TEV computed it in the run.
    pub outs: Vec<TevOut>,
}

/// The model's TEV stage that records its fragments and the register changes between them.
#[derive(Debug)]
pub struct TevRecorder {
    rec: Rc<RefCell<TevRecording>>,
    shadow: [u32; NUM_TEV_REGS],
    fragments: u64,
    stalls: u64,
}

impl TevRecorder {
    /// A recorder writing into `rec`; the registers start as a new register file's.
    pub fn new(rec: Rc<RefCell<TevRecording>>) -> Self {
        Self {
            rec,
            shadow: tev_words(&RegFile::new()),
            fragments: 0,
            stalls: 0,
        }
    }
}

impl External<TevStage> for TevRecorder {
    fn name(&self) -> String {
        "record:tev".to_string()
    }

    fn tick(
        &mut self,
        cycle: u64,
        mut ports: FragPorts<'_, ShadedFragment>,
    ) -> Result<(), HangReason> {
        for _ in 0..timing::FRAG_FRAGMENTS_PER_CYCLE {
            if ports.input.is_empty() {
                return Ok(());
            }
            if !ports.out.can_push() {
                self.stalls += 1;
                return Ok(());
            }
            let Some(mut f) = ports.input.pop() else {
                return Ok(());
            };
            let words = tev_words(ports.regs);
            let out = tev::combine(&f, ports.regs);
            {
                let mut rec = self.rec.borrow_mut();
                for (slot, (&w, old)) in words.iter().zip(self.shadow.iter_mut()).enumerate() {
                    if w != *old {
                        rec.case.ops.push(TevOp::Reg {
                            id: tev_reg_id(slot),
                            value: w,
                        });
                        *old = w;
                    }
                }
                rec.case.ops.push(TevOp::Frag {
                    x: f.frag.x,
                    y: f.frag.y,
                    inputs: Inputs::of(&f),
                });
                rec.outs.push(out);
            }
            if let Some(log) = ports.beats.combiner.as_deref_mut() {
                log.extend(out.stages.iter().enumerate().map(|(i, s)| CombinerBeat {
                    cycle,
                    x: f.frag.x,
                    y: f.frag.y,
                    stage: i as u8,
                    color: u32::from_le_bytes(s.color),
                    buffer: u32::from_le_bytes(s.buffer),
                }));
            }
            self.fragments += 1;
            f.color = out.color;
            ports
                .out
                .push(f)
                .map_err(|e| HangReason::Internal(e.to_string()))?;
        }
        Ok(())
    }

    fn is_idle(&self) -> bool {
        true
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::json!({ "fragments": self.fragments, "stalls": self.stalls })
    }
}

/// A case run with a [`TevRecorder`] in the TEV slot: what it recorded, how the run ended and
/// the GPU (for its beats and memory).
pub struct RecordedTev {
    /// The recording.
    pub rec: TevRecording,
    /// How the run ended.
    pub outcome: Outcome,
    /// The GPU after the run.
    pub gpu: Gpu,
}

/// Runs `case` on the model GPU with a [`TevRecorder`] in the TEV slot.
pub fn record_tev(case: &Case) -> Result<RecordedTev, String> {
    let rec = Rc::new(RefCell::new(TevRecording::default()));
    let (outcome, gpu) = run_with::<TevStage>(case, Box::new(TevRecorder::new(rec.clone())))?;
    let mut rec = rec.borrow().clone();
    rec.case.knobs = case.knobs;
    Ok(RecordedTev { rec, outcome, gpu })
}

/// The model's FOP stage that records its fragments and the register changes between them.
#[derive(Debug)]
pub struct FopRecorder {
    ops: Rc<RefCell<Vec<FopOp>>>,
    inner: FragmentOps,
    link: Link<ShadedFragment>,
    shadow: [u32; CONFIG_REGS.len()],
}

impl FopRecorder {
    /// A recorder writing into `ops`; the registers start as a new register file's.
    pub fn new(ops: Rc<RefCell<Vec<FopOp>>>) -> Self {
        Self {
            ops,
            inner: FragmentOps::new(),
            link: Link::new(
                "record:fop",
                timing::FOP_FRAGMENTS_PER_CYCLE.max(1) as usize,
            ),
            shadow: config_words(&RegFile::new()),
        }
    }
}

impl External<FragmentOps> for FopRecorder {
    fn name(&self) -> String {
        "record:fop".to_string()
    }

    fn tick(&mut self, cycle: u64, ports: FopPorts<'_>) -> Result<(), HangReason> {
        let FopPorts {
            regs,
            mem,
            input,
            beats,
        } = ports;
        // What FragmentOps::tick pops this cycle, into the private link.
        self.link.begin_cycle();
        let mut popped = Vec::new();
        for _ in 0..timing::FOP_FRAGMENTS_PER_CYCLE {
            let Some(sf) = input.pop() else {
                break;
            };
            popped.push(sf);
        }
        if !popped.is_empty() {
            let words = config_words(regs);
            let mut ops = self.ops.borrow_mut();
            for (slot, (&w, old)) in words.iter().zip(self.shadow.iter_mut()).enumerate() {
                if w != *old {
                    ops.push(FopOp::Reg {
                        id: CONFIG_REGS[slot],
                        value: w,
                    });
                    *old = w;
                }
            }
            for sf in &popped {
                ops.push(FopOp::Frag {
                    x: sf.frag.x,
                    y: sf.frag.y,
                    depth: sf.frag.depth,
                    color: sf.color,
                });
                self.link
                    .push(*sf)
                    .map_err(|e| HangReason::Internal(e.to_string()))?;
            }
        }
        self.link.begin_cycle();
        let ports = FopPorts {
            regs,
            mem: &mut *mem,
            input: &mut self.link,
            beats,
        };
        self.inner
            .tick(cycle, ports)
            .map_err(HangReason::FragmentOps)
    }

    fn is_idle(&self) -> bool {
        self.link.is_empty() && self.inner.is_idle()
    }

    fn snapshot(&self) -> serde_json::Value {
        self.inner.snapshot()
    }
}

/// A case run with a [`FopRecorder`] in the FOP slot.
pub struct RecordedFop {
    /// The recorded FOP case: operations, and the case's initial memory over every buffer
    /// they use.
    pub case: FopCase,
    /// How the run ended.
    pub outcome: Outcome,
    /// The GPU after the run.
    pub gpu: Gpu,
}

/// Runs `case` on the model GPU with a [`FopRecorder`] in the FOP slot.
pub fn record_fop(case: &Case) -> Result<RecordedFop, String> {
    let initial = case.memory().map_err(|e| e.to_string())?;
    let ops = Rc::new(RefCell::new(Vec::new()));
    let (outcome, gpu) = run_with::<FragmentOps>(case, Box::new(FopRecorder::new(ops.clone())))?;
    let ops = ops.borrow().clone();
    let ranges: Vec<MemImage> = buffer_ranges(&ops)
        .into_iter()
        .map(|(s, e)| MemImage {
            base: s as u32,
            words: vec![0; ((e - s) / 4) as usize],
        })
        .collect();
    let images = image_words(&initial, &ranges);
    Ok(RecordedFop {
        case: FopCase {
            ops,
            images,
            knobs: case.knobs,
        },
        outcome,
        gpu,
    })
}

/// The model's CLIP stage that records the triangles it takes, the configuration changes
/// before them and the early-depth clears (module docs).
#[derive(Debug)]
pub struct RastRecorder {
    ops: Rc<RefCell<Vec<RastOp>>>,
    inner: Clipper,
    link: Link<Triangle>,
    shadow: [u32; NUM_CFG],
    /// Trigger events of the register file already looked at.
    triggers_seen: usize,
}

impl RastRecorder {
    /// A recorder writing into `ops`; the registers start as a new register file's.
    pub fn new(ops: Rc<RefCell<Vec<RastOp>>>) -> Self {
        Self {
            ops,
            inner: Clipper::new(),
            link: Link::new("record:clip", timing::CLIP_INPUTS_PER_CYCLE.max(1) as usize),
            shadow: cfg_words(&RegFile::new()),
            triggers_seen: 0,
        }
    }

    /// Records a write of every configuration register that changed since the last record.
    fn sync(&mut self, regs: &RegFile) {
        let ids = cfg_ids();
        let mut ops = self.ops.borrow_mut();
        for (slot, (&w, old)) in cfg_words(regs)
            .iter()
            .zip(self.shadow.iter_mut())
            .enumerate()
        {
            if w != *old {
                ops.push(RastOp::Reg {
                    id: ids[slot],
                    value: w,
                });
                *old = w;
            }
        }
    }
}

impl External<Clipper> for RastRecorder {
    fn name(&self) -> String {
        "record:rast".to_string()
    }

    fn tick(&mut self, cycle: u64, ports: ClipPorts<'_>) -> Result<(), HangReason> {
        let ClipPorts { regs, input, out } = ports;
        // The clears RAST performs this cycle (it looks at the same log, with the same
        // registers, at the start of its tick).
        let clears = regs
            .triggers_since(&mut self.triggers_seen)
            .iter()
            .filter(|ev| ev.trigger == Trigger::EarlyDepthClear)
            .count();
        if clears > 0 {
            self.sync(regs);
            self.ops
                .borrow_mut()
                .extend(std::iter::repeat_n(RastOp::Clear, clears));
        }
        // What Clipper::tick pops this cycle, into the private link.
        self.link.begin_cycle();
        let mut idle = self.inner.is_idle();
        let mut popped = Vec::new();
        for _ in 0..timing::CLIP_INPUTS_PER_CYCLE {
            if !idle {
                break;
            }
            let Some(t) = input.pop() else {
                break;
            };
            idle = clip::process(regs, &t).is_empty();
            popped.push(t);
        }
        if !popped.is_empty() {
            self.sync(regs);
            for t in popped {
                self.ops.borrow_mut().push(RastOp::Tri(t));
                self.link
                    .push(t)
                    .map_err(|e| HangReason::Internal(e.to_string()))?;
            }
        }
        self.link.begin_cycle();
        self.inner.tick(
            cycle,
            ClipPorts {
                regs,
                input: &mut self.link,
                out,
            },
        );
        Ok(())
    }

    fn is_idle(&self) -> bool {
        self.link.is_empty() && self.inner.is_idle()
    }

    fn snapshot(&self) -> serde_json::Value {
        self.inner.snapshot()
    }
}

/// A case run with a [`RastRecorder`] in the CLIP slot.
pub struct RecordedRast {
    /// The recorded RAST case (from a power-on early-depth buffer, as the GPU's RAST starts).
    pub case: RastCase,
    /// How the run ended.
    pub outcome: Outcome,
    /// The GPU after the run (its `fragment` beats, its RAST's early-depth buffer).
    pub gpu: Gpu,
}

/// Runs `case` on the model GPU with a [`RastRecorder`] in the CLIP slot.
pub fn record_rast(case: &Case) -> Result<RecordedRast, String> {
    let ops = Rc::new(RefCell::new(Vec::new()));
    let (outcome, gpu) = run_with::<Clipper>(case, Box::new(RastRecorder::new(ops.clone())))?;
    let ops = ops.borrow().clone();
    Ok(RecordedRast {
        case: RastCase {
            ops,
            early: EarlyDepthBuffer::new(),
            knobs: case.knobs,
        },
        outcome,
        gpu,
    })
}

/// What a [`TexRecorder`] wrote down.
#[derive(Clone, Debug, Default)]
pub struct TexRecording {
    /// The register writes and fragments, in order (images and knobs: [`record_tex`]).
    pub case: TexCase,
    /// What the model's TEX did with them in the run (`cycle` of each beat: the fragment's
    /// index; `x` / `y` as the bundle's case has them).
    pub run: TexRun,
    /// Copies of the texture memory, taken when the registers first made it readable.
    pub images: Vec<MemImage>,
}

/// The model's TEX stage that records its fragments, the register changes between them and
/// the memory of the textures they may read (module docs).
#[derive(Debug)]
pub struct TexRecorder {
    rec: Rc<RefCell<TexRecording>>,
    kernel: TexKernel,
    shadow: [u32; NUM_TEX],
    flush: FlushTracker,
    /// Byte ranges `[start, end)` already copied (word-aligned, sorted, disjoint).
    copied: Vec<(u64, u64)>,
    fragments: u64,
    stalls: u64,
}

impl TexRecorder {
    /// A recorder writing into `rec`; the registers start as a new register file's.
    pub fn new(rec: Rc<RefCell<TexRecording>>) -> Self {
        Self {
            rec,
            kernel: TexKernel::default(),
            shadow: tex_words(&RegFile::new()),
            flush: FlushTracker::default(),
            copied: Vec::new(),
            fragments: 0,
            stalls: 0,
        }
    }

    /// Copies the mapped, not yet copied parts of the texture ranges of `regs`.
    fn copy_textures(&mut self, regs: &RegFile, mem: &Memory) {
        for (s, e) in pica_model::tex::texture_ranges(regs) {
            for r in [VRAM, FCRAM] {
                let (rs, re) = (u64::from(r.start), u64::from(r.start) + u64::from(r.size));
                let (a, b) = (s.max(rs) & !3, e.min(re).div_ceil(4) * 4);
                if a < b {
                    self.copy_gaps(a, b, mem);
                }
            }
        }
    }

    /// Copies the parts of `[a, b)` outside every earlier copy.
    fn copy_gaps(&mut self, a: u64, b: u64, mem: &Memory) {
        let mut gaps = Vec::new();
        let mut at = a;
        for &(s, e) in &self.copied {
            if e <= at || s >= b {
                continue;
            }
            if s > at {
                gaps.push((at, s));
            }
            at = at.max(e);
        }
        if at < b {
            gaps.push((at, b));
        }
        let mut rec = self.rec.borrow_mut();
        for (s, e) in gaps {
            let base = s as u32;
            let words = (0..(e - s) / 4)
                .map(|i| mem.read_u32(base.wrapping_add(4 * i as u32)).unwrap_or(0))
                .collect();
            rec.images.push(MemImage { base, words });
            self.copied.push((s, e));
        }
        self.copied.sort_unstable();
    }
}

impl External<TexStage> for TexRecorder {
    fn name(&self) -> String {
        "record:tex".to_string()
    }

    fn tick(&mut self, cycle: u64, ports: FragPorts<'_, Fragment>) -> Result<(), HangReason> {
        let FragPorts {
            regs,
            mem,
            input,
            out,
            mut beats,
        } = ports;
        for _ in 0..timing::FRAG_FRAGMENTS_PER_CYCLE {
            if input.is_empty() {
                return Ok(());
            }
            if !out.can_push() {
                self.stalls += 1;
                return Ok(());
            }
            let Some(f) = input.pop() else {
                return Ok(());
            };
            let words = tex_words(regs);
            if words != self.shadow {
                self.copy_textures(regs, mem);
            }
            let flush = self.flush.next(regs, mem);
            let index = self.fragments;
            {
                let mut rec = self.rec.borrow_mut();
                for (slot, (&w, old)) in words.iter().zip(self.shadow.iter_mut()).enumerate() {
                    if w != *old {
                        rec.case.ops.push(TexOp::Reg {
                            id: pica_model::tex::CONFIG_REGS[slot],
                            value: w,
                        });
                        *old = w;
                    }
                }
                let t = TexFragment::of(0, flush, &f);
                rec.case.ops.push(TexOp::Frag(TexFrag {
                    flush,
                    tc0: t.tc0,
                    tc1: t.tc1,
                    tc2: t.tc2,
                    deriv: t.deriv,
                }));
            }
            self.fragments += 1;
            // The model's kernel, into private logs (then the GPU's, if it records).
            let (mut texels, mut colors) = (Vec::new(), Vec::new());
            let mut sf = ShadedFragment::new(f);
            let r = self.kernel.process(
                cycle,
                &mut sf,
                regs,
                mem,
                &mut FragBeats {
                    texel: Some(&mut texels),
                    combiner: None,
                    tex_color: Some(&mut colors),
                },
            );
            {
                let mut rec = self.rec.borrow_mut();
                let (x, y) = (index as u16, (index >> 16) as u16);
                rec.run.texels.extend(texels.iter().map(|t| TexelBeat {
                    cycle: index,
                    x,
                    y,
                    ..*t
                }));
                rec.run.colors.extend(colors.iter().map(|c| TexColorBeat {
                    cycle: index,
                    x,
                    y,
                    ..*c
                }));
                if let Err(HangReason::Texture(h)) = &r {
                    rec.run.hang = Some(h.clone());
                }
            }
            if let Some(log) = beats.texel.as_deref_mut() {
                log.extend(texels);
            }
            if let Some(log) = beats.tex_color.as_deref_mut() {
                log.extend(colors);
            }
            r?;
            out.push(sf)
                .map_err(|e| HangReason::Internal(e.to_string()))?;
        }
        Ok(())
    }

    fn is_idle(&self) -> bool {
        true
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::json!({
            "fragments": self.fragments,
            "stalls": self.stalls,
            "texture_copies": self.copied.len(),
        })
    }
}

/// A case run with a [`TexRecorder`] in the TEX slot.
pub struct RecordedTex {
    /// The recorded TEX case: operations, the texture memory as first read, the knobs.
    pub case: TexCase,
    /// What the model's TEX did with it in the run.
    pub run: TexRun,
    /// How the run ended.
    pub outcome: Outcome,
}

/// Runs `case` on the model GPU with a [`TexRecorder`] in the TEX slot.
pub fn record_tex(case: &Case) -> Result<RecordedTex, String> {
    let rec = Rc::new(RefCell::new(TexRecording::default()));
    let (outcome, _) = run_with::<TexStage>(case, Box::new(TexRecorder::new(rec.clone())))?;
    let rec = rec.borrow().clone();
    // Adjacent copies become one image.
    let mut images: Vec<MemImage> = rec.images;
    images.sort_by_key(|im| im.base);
    let mut merged: Vec<MemImage> = Vec::new();
    for im in images {
        match merged.last_mut() {
            Some(last)
                if u64::from(last.base) + 4 * last.words.len() as u64 == u64::from(im.base) =>
            {
                last.words.extend(im.words);
            }
            _ => merged.push(im),
        }
    }
    Ok(RecordedTex {
        case: TexCase {
            ops: rec.case.ops,
            images: merged,
            knobs: case.knobs,
        },
        run: rec.run,
        outcome,
    })
}
