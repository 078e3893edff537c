//! A test case: memory images, the command lists it submits (with the memory fills between
//! them), a cycle limit, and where it came from. Running a case on the model gives the golden
//! data a bundle records.
//!
//! # Steps
//!
//! A real frame is several command lists submitted one after another, with memory fills
//! (`GX SetMemoryFill`: the render targets' clears) and display transfers queued around them.
//! A case holds that sequence as [`Step`]s: the first submission ([`Case::submit_addr`],
//! [`Case::submit_size`]), the steps before it ([`Case::before`]: fills the GSP runs ahead of
//! the first list) and the steps after it ([`Case::more`]). Each submission starts when the
//! previous one has finished ([`Outcome::Finished`]: FINALIZE read and the pipeline drained),
//! with the GPU state (registers, shader units, LUTs, caches, the cycle counter) carried across,
//! as consecutive `GX_ProcessCommandList`s on the console; a hang or the cycle limit ends the
//! sequence, and its outcome is the case's. A fill runs on the memory the GPU reads between
//! two submissions ([`pica_model::Gpu::memory_fill`]); a transfer is recorded for information
//! and not modelled.

use pica_model::beat::{
    CombinerBeat, FragmentBeat, PixelBeat, PrimitiveBeat, RegWriteBeat, TexColorBeat, TexelBeat,
};
use pica_model::knobs::Knobs;
use pica_model::psc::{FillError, MemoryFill};
use pica_model::regfile::debug;
use pica_model::{Gpu, HangReason, Memory, Outcome, SubmitError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Physical address command lists are loaded at unless a case says otherwise (start of FCRAM,
/// where the 3DS linear heap holding command lists lives).
pub const DEFAULT_LIST_ADDR: u32 = 0x2000_0000;

/// Cycle limit of a case unless it says otherwise.
pub const DEFAULT_MAX_CYCLES: u64 = 100_000_000;

/// One contiguous memory image.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemImage {
    /// Physical byte address of the first word (4-aligned).
    pub base: u32,
    /// The words, little-endian in memory.
    pub words: Vec<u32>,
}

/// Where a case's golden data comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// Computed by this model.
    Model,
    /// Captured from real hardware.
    HwCapture,
}

/// What a display transfer or texture copy step was (GX DisplayTransfer / TextureCopy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TransferKind {
    /// GX DisplayTransfer: a framebuffer de-tiled (and scaled, converted) into a display buffer.
    Display,
    /// GX TextureCopy: a plain copy with gaps.
    TextureCopy,
}

/// A transfer-engine step: recorded (frame files, bundles, summaries) but not modelled — the
/// model has no transfer engine, so what it would write is not in the model's memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// Which transfer.
    pub kind: TransferKind,
    /// Physical input address.
    pub input: u32,
    /// Physical output address.
    pub output: u32,
    /// Its other parameters as captured (dimensions, gaps, flags), by name.
    pub params: BTreeMap<String, u32>,
}

/// One step of a case's sequence ([module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `GX_ProcessCommandList`: run the list of `size` bytes at `addr` (already in memory)
    /// after the previous one finished.
    Submit {
        /// Physical address (8-aligned).
        addr: u32,
        /// Size in bytes (the 16-byte rule applies).
        size: u32,
    },
    /// `GX SetMemoryFill`: a PSC memory fill ([`pica_model::psc`]).
    Fill(MemoryFill),
    /// `GX DisplayTransfer` / `TextureCopy`: recorded, not modelled.
    Transfer(Transfer),
}

impl Step {
    /// `submit`, `fill` or `transfer`.
    pub fn kind(&self) -> &'static str {
        match self {
            Step::Submit { .. } => "submit",
            Step::Fill(_) => "fill",
            Step::Transfer(_) => "transfer",
        }
    }

    /// The step in one line (`submit 0x20000000 +0x40`, `fill 0x18000000..0x18046000 =
    /// 0x68b0d8ff (32-bit)`).
    pub fn describe(&self) -> String {
        match self {
            Step::Submit { addr, size } => format!("submit 0x{addr:08x} +0x{size:x}"),
            Step::Fill(f) => format!(
                "fill 0x{:08x}..0x{:08x} = 0x{:08x} ({}-bit)",
                f.start,
                f.end,
                f.value,
                f.width.bits()
            ),
            Step::Transfer(t) => format!(
                "transfer ({}) 0x{:08x} -> 0x{:08x} (not modelled)",
                match t.kind {
                    TransferKind::Display => "display",
                    TransferKind::TextureCopy => "texture copy",
                },
                t.input,
                t.output
            ),
        }
    }
}

/// What a case's steps are: counts for summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepCounts {
    /// Submissions.
    pub submits: usize,
    /// Memory fills.
    pub fills: usize,
    /// Transfers (recorded, not modelled).
    pub transfers: usize,
}

/// What running a case's steps gave ([`Case::run_steps`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    /// How the sequence ended: the outcome of the last submission run (finished), or of the
    /// one that hung or hit the cycle limit.
    pub outcome: Outcome,
    /// Steps of [`Case::steps`] performed (all of them unless a submission did not finish).
    pub steps_run: usize,
}

/// What [`Case::run_steps`] drives: the model [`Gpu`], or a GPU with RTL stages beside it.
pub trait StepTarget {
    /// Steps until the current submission is over (as [`Gpu::run`], `max_cycles` in total).
    fn run_for(&mut self, max_cycles: u64) -> Outcome;
    /// Submits the next list ([`Gpu::submit`]).
    fn submit(&mut self, addr: u32, size: u32) -> Result<(), SubmitError>;
    /// Performs a memory fill ([`Gpu::memory_fill`]).
    fn fill(&mut self, fill: &MemoryFill) -> Result<(), FillError>;
}

impl StepTarget for Gpu {
    fn run_for(&mut self, max_cycles: u64) -> Outcome {
        self.run(max_cycles)
    }

    fn submit(&mut self, addr: u32, size: u32) -> Result<(), SubmitError> {
        Gpu::submit(self, addr, size)
    }

    fn fill(&mut self, fill: &MemoryFill) -> Result<(), FillError> {
        self.memory_fill(fill)
    }
}

/// A case: what to load, what to submit, how long to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Name, `area/what` (`cp/finalize`, `regs/uniform_f32_edges`, `fuzz/…`).
    pub name: String,
    /// One line saying what the case exercises.
    pub description: String,
    /// Memory images (the command list is one of them).
    pub images: Vec<MemImage>,
    /// Steps before the first submission, in order: memory fills the GSP runs ahead of the
    /// first list (citro3d's `C3D_RenderTargetClear`), transfers. Never a [`Step::Submit`]
    /// ([`Case::check_steps`]). Empty for a single list.
    pub before: Vec<Step>,
    /// Address of the (first) submitted list.
    pub submit_addr: u32,
    /// Size of the (first) submitted list in bytes (the model and RTL apply the 16-byte rule).
    pub submit_size: u32,
    /// Steps after the first list finished, in order: further submissions (each after the
    /// previous one finished, the GPU state carried across), fills, transfers. Empty for a
    /// single list.
    pub more: Vec<Step>,
    /// Cycle limit.
    pub max_cycles: u64,
    /// The fuzzer seed the case came from, if any.
    pub seed: Option<u64>,
    /// Whether draws run through the geometry and fragment pipeline ([`Gpu::set_pipeline`]).
    /// Off, the case exercises the front end alone (CP and REGS), which is what the RTL
    /// implements today, so only such cases can be replayed against it.
    pub pipeline: bool,
    /// The model's answers to the disputed hardware cases (`UNVERIFIED(hw)` knobs, `--knob
    /// NAME=VALUE`, [`pica_model::knobs`]; [`Gpu::set_knobs`]). A bundle records the
    /// non-default ones in its manifest (`knobs`), so a replay runs with the same choices.
    pub knobs: Knobs,
    /// Where a captured frame came from (a frame file's `provenance`: library, program, frame
    /// number ...), shown in summaries and kept in bundles; empty for built-in cases.
    pub capture: BTreeMap<String, String>,
}

/// A case that cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CaseError {
    /// A memory image lies outside mapped memory.
    #[error("case {case}: memory image at 0x{base:08x} ({words} words) is outside mapped memory")]
    Unmapped {
        /// Case name.
        case: String,
        /// Image base.
        base: u32,
        /// Image length in words.
        words: usize,
    },
    /// The model refuses the submission.
    #[error("case {case}: cannot submit the list: {err}")]
    Submit {
        /// Case name.
        case: String,
        /// Why.
        err: SubmitError,
    },
    /// A step of the sequence cannot run (a fill outside memory, a submission that is not
    /// 8-aligned, a submission before the first one ...).
    #[error("case {case}: step {index} ({kind}): {msg}")]
    Step {
        /// Case name.
        case: String,
        /// Index in [`Case::steps`] (0 = the first step).
        index: usize,
        /// `submit`, `fill` or `transfer`.
        kind: &'static str,
        /// What is wrong.
        msg: String,
    },
}

/// What the model did with a case: the golden data.
#[derive(Clone, Debug)]
pub struct ModelRun {
    /// Register-write beats, in order.
    pub beats: Vec<RegWriteBeat>,
    /// How the run ended.
    pub outcome: Outcome,
    /// `pica run --regs-json` document of the final state.
    pub state_json: serde_json::Value,
    /// The 0x300 register words at the end.
    pub final_regs: Vec<u32>,
    /// The whole debug map at the end, `(address, word)`.
    pub dump: Vec<(u16, u32)>,
    /// What the geometry and fragment pipeline did, for cases that run it.
    pub pipeline: Option<PipelineCapture>,
    /// Steps of [`Case::steps`] performed ([`Ran::steps_run`]).
    pub steps_run: usize,
}

/// The golden data of the geometry and fragment pipeline.
#[derive(Clone, Debug, Default)]
pub struct PipelineCapture {
    /// PA → CLIP triangles.
    pub primitive: Vec<PrimitiveBeat>,
    /// RAST → TEX fragments.
    pub fragment: Vec<FragmentBeat>,
    /// FOP pixel outcomes.
    pub pixel: Vec<PixelBeat>,
    /// TEX texel reads.
    pub texel: Vec<TexelBeat>,
    /// TEV stage outputs (six per fragment).
    pub combiner: Vec<CombinerBeat>,
    /// TEX texture-unit colours (one per fragment).
    pub tex_color: Vec<TexColorBeat>,
    /// Memory at the end of the run over each memory image of the case (so the colour and
    /// depth buffers the case placed there are included).
    pub final_memory: Vec<MemImage>,
}

impl Case {
    /// A case that loads `words` at [`DEFAULT_LIST_ADDR`] and submits all of them.
    pub fn from_list(
        name: impl Into<String>,
        description: impl Into<String>,
        words: Vec<u32>,
    ) -> Self {
        let size = u32::try_from(words.len() * 4).unwrap_or(!0xF);
        Self {
            name: name.into(),
            description: description.into(),
            images: vec![MemImage {
                base: DEFAULT_LIST_ADDR,
                words,
            }],
            before: Vec::new(),
            submit_addr: DEFAULT_LIST_ADDR,
            submit_size: size,
            more: Vec::new(),
            max_cycles: DEFAULT_MAX_CYCLES,
            seed: None,
            pipeline: false,
            knobs: Knobs::default(),
            capture: BTreeMap::new(),
        }
    }

    /// The whole sequence: [`Case::before`], the first submission, [`Case::more`].
    pub fn steps(&self) -> Vec<Step> {
        let first = Step::Submit {
            addr: self.submit_addr,
            size: self.submit_size,
        };
        self.before
            .iter()
            .cloned()
            .chain(std::iter::once(first))
            .chain(self.more.iter().cloned())
            .collect()
    }

    /// Whether the case is more than one submitted list (steps before or after it).
    pub fn is_sequence(&self) -> bool {
        !self.before.is_empty() || !self.more.is_empty()
    }

    /// How many submissions, fills and transfers the sequence has.
    pub fn step_counts(&self) -> StepCounts {
        let mut c = StepCounts::default();
        for s in self.steps() {
            match s {
                Step::Submit { .. } => c.submits += 1,
                Step::Fill(_) => c.fills += 1,
                Step::Transfer(_) => c.transfers += 1,
            }
        }
        c
    }

    fn step_err(&self, index: usize, step: &Step, msg: impl std::fmt::Display) -> CaseError {
        CaseError::Step {
            case: self.name.clone(),
            index,
            kind: step.kind(),
            msg: msg.to_string(),
        }
    }

    /// Checks every step before anything runs: no submission among [`Case::before`], every
    /// submission 8-aligned and in mapped memory, every fill aligned, ordered and mapped.
    pub fn check_steps(&self) -> Result<(), CaseError> {
        for (i, step) in self.steps().iter().enumerate() {
            match step {
                Step::Submit { .. } if i < self.before.len() => {
                    return Err(self.step_err(
                        i,
                        step,
                        "a submission among the steps before the first one (Case::before holds fills and transfers only)",
                    ))
                }
                Step::Submit { addr, size } => {
                    if addr % 8 != 0 {
                        return Err(self.step_err(i, step, SubmitError::Unaligned(*addr)));
                    }
                    if Memory::region_of(*addr, (*size).max(1)).is_none() {
                        return Err(self.step_err(
                            i,
                            step,
                            pica_model::mem::Unmapped {
                                addr: *addr,
                                len: *size,
                            },
                        ));
                    }
                }
                Step::Fill(f) => f.check().map_err(|e| self.step_err(i, step, e))?,
                Step::Transfer(_) => {}
            }
        }
        Ok(())
    }

    /// The case's memory, every image loaded.
    pub fn memory(&self) -> Result<Memory, CaseError> {
        let mut mem = Memory::new();
        for im in &self.images {
            mem.write_words(im.base, &im.words)
                .map_err(|_| CaseError::Unmapped {
                    case: self.name.clone(),
                    base: im.base,
                    words: im.words.len(),
                })?;
        }
        Ok(mem)
    }

    /// A GPU with the case loaded, the steps before the first submission done and the first
    /// list submitted, ready to step; [`Case::run_steps`] runs it through the rest.
    pub fn gpu(&self) -> Result<Gpu, CaseError> {
        self.check_steps()?;
        let mut gpu = Gpu::new(self.memory()?);
        gpu.set_pipeline(self.pipeline);
        if self.knobs != Knobs::default() {
            gpu.set_knobs(self.knobs);
        }
        for (i, step) in self.before.iter().enumerate() {
            if let Step::Fill(f) = step {
                gpu.memory_fill(f).map_err(|e| self.step_err(i, step, e))?;
            }
        }
        gpu.submit(self.submit_addr, self.submit_size)
            .map_err(|err| CaseError::Submit {
                case: self.name.clone(),
                err,
            })?;
        Ok(gpu)
    }

    /// Runs `target` — a GPU made by [`Case::gpu`] (or one with RTL stages beside it, its first
    /// list submitted) — through the whole sequence: the first list to its end, then each step
    /// of [`Case::more`] while every submission finishes, `max_cycles` in total (the cycle
    /// counter runs on across submissions).
    pub fn run_steps(
        &self,
        target: &mut dyn StepTarget,
        max_cycles: u64,
    ) -> Result<Ran, CaseError> {
        let first = self.before.len();
        let mut outcome = target.run_for(max_cycles);
        let mut steps_run = first + 1;
        for (k, step) in self.more.iter().enumerate() {
            if !matches!(outcome, Outcome::Finished { .. }) {
                break;
            }
            let index = first + 1 + k;
            match step {
                Step::Submit { addr, size } => {
                    target
                        .submit(*addr, *size)
                        .map_err(|e| self.step_err(index, step, e))?;
                    outcome = target.run_for(max_cycles);
                }
                Step::Fill(f) => target.fill(f).map_err(|e| self.step_err(index, step, e))?,
                Step::Transfer(_) => {}
            }
            steps_run = index + 1;
        }
        Ok(Ran { outcome, steps_run })
    }

    /// Runs the case on the model.
    pub fn run_model(&self) -> Result<ModelRun, CaseError> {
        self.run_model_keep().map(|(run, _)| run)
    }

    /// Runs the case on the model and keeps the GPU (to read its framebuffer, say).
    pub fn run_model_keep(&self) -> Result<(ModelRun, Gpu), CaseError> {
        let mut gpu = self.gpu()?;
        let ran = self.run_steps(&mut gpu, self.max_cycles)?;
        let mut run = ModelRun::capture(&gpu, ran.outcome);
        run.steps_run = ran.steps_run;
        if self.pipeline {
            run.pipeline = Some(PipelineCapture::of(&gpu, &self.images));
        }
        Ok((run, gpu))
    }

    /// Each submission's address, size and the command words the CP reads from it (16-byte
    /// rule applied), in order. A list is read as memory stands when it is submitted: the
    /// images, then the fills of the steps before it (the GPU's own writes — framebuffers —
    /// are not expected to overlap a command list).
    pub fn submissions(&self) -> Vec<(u32, u32, Vec<u32>)> {
        let mut mem = self.memory().unwrap_or_default();
        let mut out = Vec::new();
        for step in self.steps() {
            match step {
                Step::Submit { addr, size } => out.push((
                    addr,
                    size,
                    (0..(size & !0xF) / 4)
                        .map(|i| mem.read_u32(addr.wrapping_add(i * 4)).unwrap_or(0))
                        .collect(),
                )),
                Step::Fill(f) => {
                    // Checked by check_steps; an unchecked bad fill changes nothing here.
                    let _ = f.apply(&mut mem);
                }
                Step::Transfer(_) => {}
            }
        }
        out
    }

    /// The command words the CP reads: every submission's words (16-byte rule applied), one
    /// list after the other ([`Case::submissions`]).
    pub fn stim(&self) -> Vec<u32> {
        self.submissions()
            .into_iter()
            .flat_map(|(_, _, w)| w)
            .collect()
    }
}

impl PipelineCapture {
    /// The pipeline beats `gpu` recorded and its memory over each of `images`' ranges.
    pub fn of(gpu: &Gpu, images: &[MemImage]) -> Self {
        let b = gpu.pipeline_beats();
        Self {
            primitive: b.primitive.to_vec(),
            fragment: b.fragment.to_vec(),
            pixel: b.pixel.to_vec(),
            texel: b.texel.to_vec(),
            tex_color: b.tex_color.to_vec(),
            combiner: b.combiner.to_vec(),
            final_memory: images
                .iter()
                .map(|im| MemImage {
                    base: im.base,
                    words: (0..im.words.len() as u32)
                        .map(|i| gpu.mem().read_u32(im.base.wrapping_add(i * 4)).unwrap_or(0))
                        .collect(),
                })
                .collect(),
        }
    }
}

impl ModelRun {
    /// Captures the golden data of a GPU whose run ended with `outcome`.
    pub fn capture(gpu: &Gpu, outcome: Outcome) -> Self {
        Self {
            beats: gpu.regwrite_beats().to_vec(),
            state_json: gpu.state_json(&outcome),
            final_regs: gpu.regs().regs().to_vec(),
            dump: gpu.regs().debug_dump(),
            outcome,
            pipeline: None,
            steps_run: 1,
        }
    }
}

/// The RTL's hang reason code for a model hang (`hang_reason_o`, rtl-bridge/rtl/README.md);
/// 0 for reasons the front-end RTL does not report.
pub fn hang_reason_code(reason: &HangReason) -> u8 {
    match reason {
        HangReason::MissingFinalize { .. } => 1,
        HangReason::CommandPastEnd { .. } => 2,
        HangReason::FetchUnmapped { .. } => 3,
        _ => 0,
    }
}

/// Names of the debug-map addresses, for reports (re-exported for convenience).
pub fn describe_debug_addr(addr: u16) -> String {
    debug::describe(addr)
}
