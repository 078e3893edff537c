//! A test case: memory images, a submitted command list, a cycle limit, and where it came
//! from. Running a case on the model gives the golden data a bundle records.

use pica_model::beat::{
    CombinerBeat, FragmentBeat, PixelBeat, PrimitiveBeat, RegWriteBeat, TexelBeat,
};
use pica_model::knobs::Knobs;
use pica_model::regfile::debug;
use pica_model::{Gpu, HangReason, Memory, Outcome, SubmitError};
use serde::{Deserialize, Serialize};

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

/// A case: what to load, what to submit, how long to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Name, `area/what` (`cp/finalize`, `regs/uniform_f32_edges`, `fuzz/…`).
    pub name: String,
    /// One line saying what the case exercises.
    pub description: String,
    /// Memory images (the command list is one of them).
    pub images: Vec<MemImage>,
    /// Address of the submitted list.
    pub submit_addr: u32,
    /// Size of the submitted list in bytes (the model and RTL apply the 16-byte rule).
    pub submit_size: u32,
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
            submit_addr: DEFAULT_LIST_ADDR,
            submit_size: size,
            max_cycles: DEFAULT_MAX_CYCLES,
            seed: None,
            pipeline: false,
            knobs: Knobs::default(),
        }
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

    /// A GPU with the case loaded and submitted, ready to step.
    pub fn gpu(&self) -> Result<Gpu, CaseError> {
        let mut gpu = Gpu::new(self.memory()?);
        gpu.set_pipeline(self.pipeline);
        if self.knobs != Knobs::default() {
            gpu.set_knobs(self.knobs);
        }
        gpu.submit(self.submit_addr, self.submit_size)
            .map_err(|err| CaseError::Submit {
                case: self.name.clone(),
                err,
            })?;
        Ok(gpu)
    }

    /// Runs the case on the model.
    pub fn run_model(&self) -> Result<ModelRun, CaseError> {
        self.run_model_keep().map(|(run, _)| run)
    }

    /// Runs the case on the model and keeps the GPU (to read its framebuffer, say).
    pub fn run_model_keep(&self) -> Result<(ModelRun, Gpu), CaseError> {
        let mut gpu = self.gpu()?;
        let outcome = gpu.run(self.max_cycles);
        let mut run = ModelRun::capture(&gpu, outcome);
        if self.pipeline {
            run.pipeline = Some(PipelineCapture::of(&gpu, &self.images));
        }
        Ok((run, gpu))
    }

    /// The command words the CP reads from the submitted buffer (16-byte rule applied).
    pub fn stim(&self) -> Vec<u32> {
        let mem = self.memory().unwrap_or_default();
        (0..(self.submit_size & !0xF) / 4)
            .map(|i| {
                mem.read_u32(self.submit_addr.wrapping_add(i * 4))
                    .unwrap_or(0)
            })
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
