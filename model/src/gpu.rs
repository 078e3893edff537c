//! The cycle-stepped GPU: stages, links, memory and the clock.

use crate::beat::{
    Beat, CombinerBeat, CommitBeat, FragmentBeat, PixelBeat, PrimitiveBeat, RegWriteBeat,
    ShaderBeat, TexColorBeat, TexelBeat,
};
use crate::clip::{ClipPorts, Clipper};
use crate::cp::{CommandProcessor, CpPorts, CpState, Redirect, RegWrite};
use crate::fop::{FopPorts, FragmentOps};
use crate::frag::{FogStage, FragPorts, LightStage, TevStage, TexStage};
use crate::link::Link;
use crate::mem::{Memory, Unmapped};
use crate::pa::{PaPorts, PrimitiveAssembler};
use crate::pipe::{Fragment, PaCmd, ScreenTri, ShadedFragment, Triangle, VlCmd};
use crate::psc::FillError;
use crate::rast::{RastPorts, Rasterizer};
use crate::regfile::{RegFile, RegsPorts};
use crate::regs::Trigger;
use crate::shader::stage::{ShIn, ShadedItem, ShaderCore, ShaderPorts};
use crate::stage::{External, Slot, Stage};
use crate::timing;
use crate::vl::{VertexLoader, VlPorts};
use serde::Serialize;
use serde_json::json;

/// Re-exported from [`crate::outcome`], where they live below the stages.
pub use crate::outcome::{outcome_json, HangReason, Outcome};

/// A submission that cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SubmitError {
    /// Command buffers are addressed in units of 8 bytes (GPUREG_CMDBUF_ADDRn is the address
    /// >> 3), so the start must be 8-byte aligned.
    #[error("command buffer address 0x{0:08x} is not 8-byte aligned")]
    Unaligned(u32),
    /// The buffer does not lie in mapped memory.
    #[error(transparent)]
    Unmapped(#[from] Unmapped),
    /// The previous list has not finished: the CP is still reading it or work it triggered is
    /// still in flight. A list is submitted after the previous one finished
    /// ([`Outcome::Finished`]: FINALIZE read and the pipeline drained), as the GSP kicks the
    /// next command list only after the previous one's completion interrupt.
    #[error("the previous command list has not finished (submit the next one after the run reports finished)")]
    Busy,
    /// The GPU hung: nothing runs after a hang (a case's sequence ends there).
    #[error("the GPU hung on an earlier list; nothing more can be submitted")]
    Hung,
}

/// The highest register ID a pushed write may name: a header's 16-bit ID plus up to 255 extra
/// parameters in consecutive mode (seed 002 "Command header"), as the CP can produce.
pub const MAX_PUSH_ID: u32 = 0xFFFF + 0xFF;

/// Why [`Gpu::push_write`] refused a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PushError {
    /// A submitted command list is still being read.
    #[error("a submitted command list is still running; push register writes before submitting or after it finished")]
    ListRunning,
    /// The CP → REGS channel is full this cycle.
    #[error("the CP -> REGS channel is full this cycle (step the clock and retry)")]
    Full,
    /// The byte mask has bits above bit 3.
    #[error("byte-enable mask 0x{0:x} has bits above bit 3 (it is the header's 4-bit mask)")]
    BadMask(u8),
    /// The register ID is beyond what a command header can reach.
    #[error("register ID 0x{0:x} is beyond 0x{max:x}, the last a command header can reach", max = MAX_PUSH_ID)]
    BadId(u32),
}

/// The pipeline stages of issue 5 behind the common trait: each keeps its inherent `tick`
/// (whose error, if any, is the stage's own hang type) and this maps it to [`HangReason`].
/// These adapters live here, with the GPU that ticks the stages, rather than in
/// [`crate::stage`], so that the trait's module imports no stage (CP, REGS and the fragment
/// stages implement [`Stage`] in their own modules).
macro_rules! pipeline_stage {
    ($ty:ty, $ports:ident, $name:literal, |$s:ident, $c:ident, $p:ident| $tick:expr) => {
        impl Stage for $ty {
            type Ports<'a> = $ports<'a>;

            fn name(&self) -> &'static str {
                $name
            }

            fn reset(&mut self) {
                *self = <$ty>::new();
            }

            fn tick(&mut self, cycle: u64, ports: $ports<'_>) -> Result<(), HangReason> {
                let ($s, $c, $p) = (self, cycle, ports);
                $tick
            }

            fn is_idle(&self) -> bool {
                <$ty>::is_idle(self)
            }

            fn snapshot(&self) -> serde_json::Value {
                <$ty>::snapshot(self)
            }
        }
    };
}

impl Stage for ShaderCore {
    type Ports<'a> = ShaderPorts<'a>;

    fn name(&self) -> &'static str {
        "sh"
    }

    fn reset(&mut self) {
        ShaderCore::reset(self);
    }

    fn tick(&mut self, cycle: u64, ports: ShaderPorts<'_>) -> Result<(), HangReason> {
        ShaderCore::tick(self, cycle, ports)
    }

    fn is_idle(&self) -> bool {
        ShaderCore::is_idle(self)
    }

    fn snapshot(&self) -> serde_json::Value {
        ShaderCore::snapshot(self)
    }
}

pipeline_stage!(VertexLoader, VlPorts, "vl", |s, c, p| {
    VertexLoader::tick(s, c, p).map_err(HangReason::VertexLoader)
});
pipeline_stage!(PrimitiveAssembler, PaPorts, "pa", |s, c, p| {
    PrimitiveAssembler::tick(s, c, p);
    Ok(())
});
pipeline_stage!(Clipper, ClipPorts, "clip", |s, c, p| {
    Clipper::tick(s, c, p);
    Ok(())
});
pipeline_stage!(Rasterizer, RastPorts, "rast", |s, c, p| {
    Rasterizer::tick(s, c, p);
    Ok(())
});
pipeline_stage!(FragmentOps, FopPorts, "fop", |s, c, p| {
    FragmentOps::tick(s, c, p).map_err(HangReason::FragmentOps)
});

/// A model stage whose place in the [`Gpu`] an [`External`] implementation can take
/// ([`Gpu::replace_stage`]). Every stage with a [`Stage`] implementation that the GPU ticks is
/// one, so a new RTL stage needs only its port adapter, never a change to [`Gpu::step`].
pub trait Swappable: Stage + Sized {
    /// The stage's place in `gpu`.
    fn slot(gpu: &mut Gpu) -> &mut Slot<Self>;
}

macro_rules! swappable {
    ($($ty:ty => $field:ident),* $(,)?) => {$(
        impl Swappable for $ty {
            fn slot(gpu: &mut Gpu) -> &mut Slot<Self> {
                // The caller may change the SH stage through its slot.
                gpu.sh_quiet = None;
                &mut gpu.$field
            }
        }
    )*};
}

swappable!(
    VertexLoader => vl,
    ShaderCore => shader,
    PrimitiveAssembler => pa,
    Clipper => clip,
    Rasterizer => rast,
    TexStage => tex,
    LightStage => light,
    TevStage => tev,
    FogStage => fog,
    FragmentOps => fop,
);

/// Work counts of the geometry and fragment pipeline ([`Gpu::pipeline_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PipelineStats {
    /// DRAWARRAYS / DRAWELEMENTS writes.
    pub draws: u64,
    /// Vertices sent to the shader units (post-vertex-cache hits are not shaded again).
    pub vertices: u64,
    /// Triangles primitive assembly sent to clipping.
    pub triangles: u64,
    /// Fragments the rasterizer sent to the fragment operations.
    pub fragments: u64,
}

/// The whole GPU: memory, stages, links and the clock.
#[derive(Debug)]
pub struct Gpu {
    mem: Memory,
    cycle: u64,
    cp: CommandProcessor,
    regs: RegFile,
    cp_to_regs: Link<RegWrite>,
    regs_to_cp: Link<Redirect>,
    beats: Vec<RegWriteBeat>,
    hang: Option<(u64, HangReason)>,
    /// Register writes pushed with [`Gpu::push_write`] (not through the CP).
    pushed_writes: u64,
    shader: Slot<ShaderCore>,
    /// With the pipeline off: [`ShaderCore::quiet`] of the model's SH stage after its last
    /// tick (`None` when it was not quiet, is external, or was changed since). Nothing reaches
    /// the SH stage without the pipeline, so while this holds its ticks are skipped
    /// ([`Gpu::step`]): they would return at once and change nothing.
    sh_quiet: Option<bool>,
    vs_in: Link<ShIn>,
    sh_out: Link<ShadedItem>,
    /// Whether draws run through the pipeline (off: the front end alone, as the RTL has it).
    pipeline: bool,
    /// A testbench's hold on REGS for the next step (backpressure), on top of the pipeline's.
    forced_hold: bool,
    record_beats: bool,
    shader_in_beats: Vec<ShaderBeat>,
    shader_out_beats: Vec<ShaderBeat>,
    commit_beats: Vec<CommitBeat>,
    regs_to_vl: Link<VlCmd>,
    vl: Slot<VertexLoader>,
    vl_to_pa: Link<PaCmd>,
    pa: Slot<PrimitiveAssembler>,
    pa_to_clip: Link<Triangle>,
    clip: Slot<Clipper>,
    clip_to_rast: Link<ScreenTri>,
    rast: Slot<Rasterizer>,
    rast_to_tex: Link<Fragment>,
    tex: Slot<TexStage>,
    tex_to_light: Link<ShadedFragment>,
    light: Slot<LightStage>,
    light_to_tev: Link<ShadedFragment>,
    tev: Slot<TevStage>,
    tev_to_fog: Link<ShadedFragment>,
    fog: Slot<FogStage>,
    fog_to_fop: Link<ShadedFragment>,
    fop: Slot<FragmentOps>,
    primitive_beats: Vec<PrimitiveBeat>,
    fragment_beats: Vec<FragmentBeat>,
    pixel_beats: Vec<PixelBeat>,
    texel_beats: Vec<TexelBeat>,
    combiner_beats: Vec<CombinerBeat>,
    tex_color_beats: Vec<TexColorBeat>,
    /// Functional coverage sampling, when on ([`Gpu::set_coverage`]).
    cov: Option<Box<crate::cov::Sampler>>,
}

/// Keeps the first hang of a cycle ([`Gpu::step`]); inlined: it runs for every stage every
/// cycle.
#[inline(always)]
fn note_hang(first: &mut Option<HangReason>, cycle: u64, r: Result<(), HangReason>) {
    if let Err(reason) = r {
        tracing::debug!(target: "gpu", cycle, %reason, "hang");
        first.get_or_insert(reason);
    }
}

impl Gpu {
    /// A GPU in its power-on state owning `mem`.
    pub fn new(mem: Memory) -> Self {
        Self {
            mem,
            cycle: 0,
            cp: CommandProcessor::new(),
            regs: RegFile::new(),
            cp_to_regs: Link::new("cp_to_regs", timing::CP_TO_REGS_DEPTH),
            regs_to_cp: Link::new("regs_to_cp", timing::REGS_TO_CP_REDIRECT_DEPTH),
            beats: Vec::new(),
            hang: None,
            pushed_writes: 0,
            shader: Slot::new(ShaderCore::default()),
            sh_quiet: None,
            vs_in: Link::new("vs_in", timing::SHADER_IN_DEPTH),
            sh_out: Link::new("sh_out", timing::SHADER_OUT_DEPTH),
            pipeline: true,
            forced_hold: false,
            record_beats: true,
            shader_in_beats: Vec::new(),
            shader_out_beats: Vec::new(),
            commit_beats: Vec::new(),
            regs_to_vl: Link::new("regs_to_vl", timing::REGS_TO_VL_DEPTH),
            vl: Slot::new(VertexLoader::new()),
            vl_to_pa: Link::new("vl_to_pa", timing::VL_TO_PA_DEPTH),
            pa: Slot::new(PrimitiveAssembler::new()),
            pa_to_clip: Link::new("pa_to_clip", timing::PA_TO_CLIP_DEPTH),
            clip: Slot::new(Clipper::new()),
            clip_to_rast: Link::new("clip_to_rast", timing::CLIP_TO_RAST_DEPTH),
            rast: Slot::new(Rasterizer::new()),
            rast_to_tex: Link::new("rast_to_tex", timing::RAST_TO_TEX_DEPTH),
            tex: Slot::new(TexStage::new()),
            tex_to_light: Link::new("tex_to_light", timing::FRAG_LINK_DEPTH),
            light: Slot::new(LightStage::new()),
            light_to_tev: Link::new("light_to_tev", timing::FRAG_LINK_DEPTH),
            tev: Slot::new(TevStage::new()),
            tev_to_fog: Link::new("tev_to_fog", timing::FRAG_LINK_DEPTH),
            fog: Slot::new(FogStage::new()),
            fog_to_fop: Link::new("fog_to_fop", timing::FRAG_LINK_DEPTH),
            fop: Slot::new(FragmentOps::new()),
            primitive_beats: Vec::new(),
            fragment_beats: Vec::new(),
            pixel_beats: Vec::new(),
            texel_beats: Vec::new(),
            combiner_beats: Vec::new(),
            tex_color_beats: Vec::new(),
            cov: None,
        }
    }

    /// Turns functional coverage sampling on or off (default off: one branch a cycle). On,
    /// the GPU samples the register-write beats and the register file at each draw, and the
    /// shader units and FOP count opcodes and test outcomes ([`crate::cov`]); read the hits
    /// with [`Gpu::coverage`]. Call before [`Gpu::run`] (after [`Gpu::set_shader_knobs`]).
    pub fn set_coverage(&mut self, on: bool) {
        self.cov = on.then(|| Box::new(crate::cov::Sampler::new()));
        self.shader_mut().set_count_opcodes(on);
        self.fop.model_mut().set_count_tests(on);
    }

    /// The coverage hits of the run so far, `outcome` included, if sampling is on.
    pub fn coverage(&self, outcome: Option<&Outcome>) -> Option<crate::cov::Hits> {
        use crate::beat::Channel;
        let cov = self.cov.as_deref()?;
        let stats = self.pipeline_stats();
        let shader = self.shader.model();
        let mut channels = crate::cov::ChannelSet::default();
        channels.set(Channel::RegWrite, !self.beats.is_empty());
        channels.set(
            Channel::ShaderIn,
            !self.shader_in_beats.is_empty() || stats.vertices > 0,
        );
        channels.set(Channel::ShaderOut, !self.shader_out_beats.is_empty());
        channels.set(
            Channel::Commit,
            !self.commit_beats.is_empty() || shader.executed().iter().any(|&n| n > 0),
        );
        channels.set(
            Channel::Primitive,
            !self.primitive_beats.is_empty() || stats.triangles > 0,
        );
        channels.set(
            Channel::Fragment,
            !self.fragment_beats.is_empty() || stats.fragments > 0,
        );
        channels.set(
            Channel::Pixel,
            !self.pixel_beats.is_empty() || self.fop.model().stats().fragments > 0,
        );
        channels.set(Channel::Texel, !self.texel_beats.is_empty());
        channels.set(Channel::Combiner, !self.combiner_beats.is_empty());
        channels.set(Channel::TexColor, !self.tex_color_beats.is_empty());
        Some(cov.finish(&crate::cov::RunEnd {
            opcodes: shader.opcode_counts(),
            fop_tests: self.fop.model().test_counts(),
            channels,
            primitives: &self.primitive_beats,
            outcome,
        }))
    }

    /// Whether draws and immediate-mode vertices run through the geometry and fragment
    /// pipeline (default on). Off, the GPU is the front end alone (CP and REGS, what the RTL
    /// implements today): draw triggers and immediate vertices are recorded as events and
    /// nothing else happens. Call before [`Gpu::run`].
    pub fn set_pipeline(&mut self, on: bool) {
        self.pipeline = on;
    }

    /// Whether the pipeline runs (see [`Gpu::set_pipeline`]).
    pub fn pipeline(&self) -> bool {
        self.pipeline
    }

    /// The model's SH stage, to change it: forgets that it was quiet ([`Gpu::step`]).
    fn shader_mut(&mut self) -> &mut ShaderCore {
        self.sh_quiet = None;
        self.shader.model_mut()
    }

    /// Puts `external` (an RTL stage behind its port adapter) in the place of the model's
    /// stage `S` from the next cycle on; every other stage stays the model's (design.md
    /// "Stage-level co-verification"). Call before [`Gpu::run`].
    pub fn replace_stage<S: Swappable>(&mut self, external: Box<dyn External<S>>) {
        S::slot(self).replace(external);
    }

    /// The names of the external implementations standing in for model stages.
    pub fn external_stages(&self) -> Vec<String> {
        let mut out = Vec::new();
        macro_rules! collect {
            ($($f:ident),*) => {$(
                if let Some(x) = self.$f.external() {
                    out.push(x.name());
                }
            )*};
        }
        collect!(vl, shader, pa, clip, rast, light, tev, fog, fop);
        out
    }

    /// Chooses the shader units' answers to the disputed hardware cases (resets the units;
    /// call before [`Gpu::run`]). [`Gpu::set_knobs`] sets these and every other knob.
    pub fn set_shader_knobs(&mut self, knobs: crate::shader::interp::Knobs) {
        self.shader = Slot::new(ShaderCore::new(knobs));
        let count = self.cov.is_some();
        self.shader_mut().set_count_opcodes(count);
        let mut all = *self.regs.knobs();
        all.shader = knobs;
        self.regs.set_knobs(all);
    }

    /// Chooses the model's answer to every disputed hardware case ([`crate::knobs`]): the
    /// CP's, the register file's (which every stage decoding registers reads) and the shader
    /// units' (which resets the units when those change). Call before [`Gpu::run`].
    pub fn set_knobs(&mut self, knobs: crate::knobs::Knobs) {
        if knobs.shader != self.regs.knobs().shader {
            self.shader = Slot::new(ShaderCore::new(knobs.shader));
            let count = self.cov.is_some();
            self.shader_mut().set_count_opcodes(count);
        }
        self.regs.set_knobs(knobs);
        self.cp.set_end_value(knobs.cp_end_value);
        self.cp.set_jump_rest(knobs.cp_jump_rest);
    }

    /// The knobs the GPU runs with ([`Gpu::set_knobs`]).
    pub fn knobs(&self) -> crate::knobs::Knobs {
        *self.regs.knobs()
    }

    /// Turns the shader units' run-ahead on (the default) or off
    /// ([`ShaderCore::set_run_ahead`]: the same beats, cycles and outcome either way; off
    /// steps every unit one instruction per cycle). [`Gpu::set_shader_knobs`] and a change of
    /// the shader knobs by [`Gpu::set_knobs`] reset it to on.
    pub fn set_shader_run_ahead(&mut self, on: bool) {
        self.shader_mut().set_run_ahead(on);
    }

    /// Sets the shader units' JIT ([`ShaderCore::set_jit`]: `Some(threshold)` on, `None`
    /// off; on by default): the same beats, cycles and outcome either way.
    /// [`Gpu::set_shader_knobs`] and a change of the shader knobs by [`Gpu::set_knobs`] reset
    /// it to the default.
    pub fn set_shader_jit(&mut self, threshold: Option<u32>) {
        self.shader_mut().set_jit(threshold);
    }

    /// Turns the shortcuts for idle stages on (the default) or off (the SH stage's
    /// [`ShaderCore::set_skip_idle`]): the same beats, cycles and outcome either way
    /// (`testbench/tests/skip_idle.rs`). [`Gpu::set_shader_knobs`] and a change of the shader
    /// knobs by [`Gpu::set_knobs`] reset it to on.
    pub fn set_skip_idle(&mut self, on: bool) {
        self.shader_mut().set_skip_idle(on);
    }

    /// Keeps a copy of everything the shader units send on ([`Gpu::shaded`]); call before
    /// [`Gpu::run`].
    pub fn set_keep_shaded(&mut self, on: bool) {
        self.shader_mut().set_keep_output(on);
    }

    /// What the shader units sent on so far, if kept ([`Gpu::set_keep_shaded`]).
    pub fn shaded(&self) -> &[ShadedItem] {
        self.shader.model().output_log()
    }

    /// The shader units.
    pub fn shader(&self) -> &ShaderCore {
        self.shader.model()
    }

    /// Shader input/output beats recorded so far.
    pub fn shader_beats(&self) -> (&[ShaderBeat], &[ShaderBeat]) {
        (&self.shader_in_beats, &self.shader_out_beats)
    }

    /// The `commit` channel recorded so far: every instruction the shader units retired, in
    /// the order they retired (see [`Gpu::set_record_commits`]).
    pub fn commit_beats(&self) -> &[CommitBeat] {
        &self.commit_beats
    }

    /// Turns recording of the `commit` channel on or off (default off: a record per shader
    /// instruction).
    pub fn set_record_commits(&mut self, on: bool) {
        self.shader_mut().set_record_commits(on);
    }

    /// Starts the command buffer at physical address `addr` of `size` bytes (what the GSP does
    /// when it kicks a list). Only `size & !0xF` bytes are read (the 16-byte rule).
    ///
    /// A GPU whose list finished ([`Outcome::Finished`]) takes the next one: everything the
    /// earlier lists left (registers, shader units, LUTs, caches, the cycle counter) carries
    /// over, as for consecutive submissions on the console. Refused while a list runs
    /// ([`SubmitError::Busy`]) and after a hang ([`SubmitError::Hung`]).
    pub fn submit(&mut self, addr: u32, size: u32) -> Result<(), SubmitError> {
        if self.hang.is_some() {
            return Err(SubmitError::Hung);
        }
        if self.cp.state() != CpState::Idle
            && !matches!(self.outcome(), Some(Outcome::Finished { .. }))
        {
            return Err(SubmitError::Busy);
        }
        if addr % 8 != 0 {
            return Err(SubmitError::Unaligned(addr));
        }
        if Memory::region_of(addr, size.max(1)).is_none() {
            return Err(Unmapped { addr, len: size }.into());
        }
        self.cp.submit(addr, size);
        Ok(())
    }

    /// Performs a PSC memory fill ([`crate::psc`]) on the GPU's memory: between command lists,
    /// as citro3d's `C3D_RenderTargetClear` queues one before a frame's lists. Refused while a
    /// list is running ([`FillError::Busy`]: the previous one has not finished; after a hang the
    /// memory can still be filled).
    ///
    /// UNVERIFIED(hw) [fact: psc-fill-between-lists]: a fill is complete before the next list
    /// starts and takes no P3D cycle (the cycle counter does not move). The PSC is a unit of
    /// its own (3dbrew: its own busy bit and interrupt, PSC0/PSC1), so on the console it can
    /// run beside the P3D; the GSP starts queued GX commands in order, and the drivers wait for
    /// a clear before drawing into its buffer. Whether and how long the two overlap in time is
    /// not public.
    pub fn memory_fill(&mut self, fill: &crate::psc::MemoryFill) -> Result<(), FillError> {
        if self.cp.state() != CpState::Idle && self.outcome().is_none() {
            return Err(FillError::Busy);
        }
        fill.apply(&mut self.mem)
    }

    /// Puts one register write straight into the CP → REGS channel, as the CP would have
    /// pushed it in the cycle just stepped: REGS applies it (merging `param` under the byte
    /// `mask`, with every side effect, and records its beat) no earlier than the next
    /// [`Gpu::step`]. This is how a testbench drives REGS one write at a time without a command
    /// list (the C ABI's and the Python package's `write_reg`).
    ///
    /// Refused while a submitted command list is still being read (the two would interleave)
    /// and while the channel is full (step and retry: the channel is
    /// `timing::CP_TO_REGS_DEPTH` deep and REGS takes one write per cycle unless held). Once
    /// writes were pushed, a GPU with no list submitted finishes ([`Outcome::Finished`]) when
    /// the writes and the work they triggered have drained.
    pub fn push_write(&mut self, id: u32, mask: u8, param: u32) -> Result<(), PushError> {
        if !matches!(self.cp.state(), CpState::Idle | CpState::Done) {
            return Err(PushError::ListRunning);
        }
        if mask > 0xF {
            return Err(PushError::BadMask(mask));
        }
        if id > MAX_PUSH_ID {
            return Err(PushError::BadId(id));
        }
        self.cp_to_regs
            .push(RegWrite { id, mask, param })
            .map_err(|_| PushError::Full)?;
        self.pushed_writes += 1;
        Ok(())
    }

    /// Register writes pushed with [`Gpu::push_write`] so far.
    pub fn pushed_writes(&self) -> u64 {
        self.pushed_writes
    }

    /// Turns recording of register-write beats on or off (default on).
    pub fn set_record_beats(&mut self, on: bool) {
        self.regs.set_record_beats(on);
        self.shader_mut().set_record_beats(on);
        self.record_beats = on;
    }

    /// The current cycle (cycles stepped so far).
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Physical memory.
    pub fn mem(&self) -> &Memory {
        &self.mem
    }

    /// Mutable physical memory (for loading data before a run).
    pub fn mem_mut(&mut self) -> &mut Memory {
        &mut self.mem
    }

    /// The command processor.
    pub fn cp(&self) -> &CommandProcessor {
        &self.cp
    }

    /// The register file.
    pub fn regs(&self) -> &RegFile {
        &self.regs
    }

    /// Register-write beats recorded so far.
    pub fn regwrite_beats(&self) -> &[RegWriteBeat] {
        &self.beats
    }

    /// All recorded beats, in cycle order.
    pub fn beats(&self) -> impl Iterator<Item = Beat> + '_ {
        let mut all: Vec<Beat> = self.beats.iter().copied().map(Beat::RegWrite).collect();
        all.extend(self.shader_in_beats.iter().copied().map(Beat::ShaderIn));
        all.extend(self.shader_out_beats.iter().copied().map(Beat::ShaderOut));
        all.extend(self.commit_beats.iter().copied().map(Beat::Commit));
        all.extend(self.primitive_beats.iter().copied().map(Beat::Primitive));
        all.extend(self.fragment_beats.iter().copied().map(Beat::Fragment));
        all.extend(self.texel_beats.iter().copied().map(Beat::Texel));
        all.extend(self.tex_color_beats.iter().copied().map(Beat::TexColor));
        all.extend(self.combiner_beats.iter().copied().map(Beat::Combiner));
        all.extend(self.pixel_beats.iter().copied().map(Beat::Pixel));
        // Stable: within a cycle, in pipeline order.
        all.sort_by_key(Beat::cycle);
        all.into_iter()
    }

    /// The pipeline's beats recorded so far (primitive, fragment, texel, texture colours,
    /// combiner, pixel).
    pub fn pipeline_beats(&self) -> PipelineBeats<'_> {
        PipelineBeats {
            primitive: &self.primitive_beats,
            fragment: &self.fragment_beats,
            texel: &self.texel_beats,
            combiner: &self.combiner_beats,
            tex_color: &self.tex_color_beats,
            pixel: &self.pixel_beats,
        }
    }

    /// The vertex loader.
    pub fn vl(&self) -> &VertexLoader {
        self.vl.model()
    }

    /// Primitive assembly.
    pub fn pa(&self) -> &PrimitiveAssembler {
        self.pa.model()
    }

    /// Clipping.
    pub fn clip(&self) -> &Clipper {
        self.clip.model()
    }

    /// The rasterizer.
    pub fn rast(&self) -> &Rasterizer {
        self.rast.model()
    }

    /// The fragment operations.
    pub fn fop(&self) -> &FragmentOps {
        self.fop.model()
    }

    /// How much work the pipeline did so far (counted whether beats are recorded or not).
    pub fn pipeline_stats(&self) -> PipelineStats {
        PipelineStats {
            draws: self
                .regs
                .triggers()
                .iter()
                .filter(|t| matches!(t.trigger, Trigger::DrawArrays | Trigger::DrawElements))
                .count() as u64,
            // VL's count (the link also carries the GS markers).
            vertices: self.vl.model().stats().shaded,
            triangles: self.pa_to_clip.total_pushed(),
            fragments: self.rast_to_tex.total_pushed(),
        }
    }

    /// Whether anything between REGS and memory has work in flight. The model's TEX, LIGHT,
    /// TEV and FOG never keep a fragment between cycles, but a stage in their slot may (an RTL
    /// TEV's pipeline holds up to 18): a run that ignored them finished with fragments inside.
    fn pipeline_busy(&self) -> bool {
        !(self.regs_to_vl.is_empty()
            && self.vs_in.is_empty()
            && self.sh_out.is_empty()
            && self.vl_to_pa.is_empty()
            && self.pa_to_clip.is_empty()
            && self.clip_to_rast.is_empty()
            && self.rast_to_tex.is_empty()
            && self.tex_to_light.is_empty()
            && self.light_to_tev.is_empty()
            && self.tev_to_fog.is_empty()
            && self.fog_to_fop.is_empty()
            && self.vl.is_idle()
            && self.shader.is_idle()
            && self.pa.is_idle()
            && self.clip.is_idle()
            && self.rast.is_idle()
            && self.tex.is_idle()
            && self.light.is_idle()
            && self.tev.is_idle()
            && self.fog.is_idle()
            && self.fop.is_idle())
    }

    /// Whether REGS applies nothing in the next [`Gpu::step`]: the pipeline is on and busy with
    /// earlier work (REGS's registered hold), or a testbench holds it
    /// ([`Gpu::set_forced_hold`]). An RTL front end running beside this GPU's
    /// pipeline takes it as its `hold_i` (rtl-bridge/rtl/README.md, `pica_top`).
    pub fn regs_hold(&self) -> bool {
        self.forced_hold || (self.pipeline && self.pipeline_busy())
    }

    /// Holds REGS in the next [`Gpu::step`]s (until set back), as if the pipeline after it were
    /// busy: a testbench's backpressure. The front end alone is never held otherwise, so
    /// lockstep drives the same hold schedule into this model and the RTL's `hold_i`
    /// (`pica lockstep --hold`) to reach the CP->REGS FIFO filling and the CP stalling.
    pub fn set_forced_hold(&mut self, on: bool) {
        self.forced_hold = on;
    }

    /// Advances every stage by one cycle.
    pub fn step(&mut self) {
        // The span names the cycle in every event of the step (`-vv`). It is made only when a
        // TRACE span of this module is enabled: without a subscriber a disabled span was still
        // built, entered, exited and dropped every cycle, and the cycle's own code, holding it,
        // had unwinding paths everywhere (together a fifth of a front-end cycle).
        if tracing::enabled!(kind: tracing::metadata::Kind::SPAN, tracing::Level::TRACE) {
            let _span = tracing::trace_span!("cycle", cycle = self.cycle).entered();
            self.step_cycle();
        } else {
            self.step_cycle();
        }
    }

    /// [`Gpu::step`]'s cycle (one copy of it, not one per branch).
    #[inline(never)]
    fn step_cycle(&mut self) {
        let cycle = self.cycle;
        // REGS's hold is registered: it sees the pipeline as it stood at the start of the cycle.
        let hold = self.regs_hold();
        // Direct calls (no iteration over trait objects): this runs every cycle.
        self.cp_to_regs.begin_cycle();
        self.regs_to_cp.begin_cycle();
        self.vs_in.begin_cycle();
        self.sh_out.begin_cycle();
        self.regs_to_vl.begin_cycle();
        self.vl_to_pa.begin_cycle();
        self.pa_to_clip.begin_cycle();
        self.clip_to_rast.begin_cycle();
        self.rast_to_tex.begin_cycle();
        self.tex_to_light.begin_cycle();
        self.light_to_tev.begin_cycle();
        self.tev_to_fog.begin_cycle();
        self.fog_to_fop.begin_cycle();
        // The first hang of the cycle wins, in this order (FOP back to REGS); no allocation:
        // this runs every cycle.
        let mut first: Option<HangReason> = None;
        // Every stage reads REGS's configuration as it was at the start of the cycle (REGS
        // ticks last); links only show what was pushed in earlier cycles, so the order of the
        // other stages does not matter.
        if self.pipeline {
            let rec = self.record_beats;
            note_hang(
                &mut first,
                cycle,
                self.fop.tick(
                    cycle,
                    FopPorts {
                        regs: &self.regs,
                        mem: &mut self.mem,
                        input: &mut self.fog_to_fop,
                        beats: rec.then_some(&mut self.pixel_beats),
                    },
                ),
            );
            let (regs, mem) = (&self.regs, &mut self.mem);
            let p = FragPorts::new(regs, mem, &mut self.tev_to_fog, &mut self.fog_to_fop);
            note_hang(&mut first, cycle, self.fog.tick(cycle, p));
            let mut p = FragPorts::new(regs, mem, &mut self.light_to_tev, &mut self.tev_to_fog);
            p.beats.combiner = rec.then_some(&mut self.combiner_beats);
            note_hang(&mut first, cycle, self.tev.tick(cycle, p));
            let p = FragPorts::new(regs, mem, &mut self.tex_to_light, &mut self.light_to_tev);
            note_hang(&mut first, cycle, self.light.tick(cycle, p));
            let mut p = FragPorts::new(regs, mem, &mut self.rast_to_tex, &mut self.tex_to_light);
            p.beats.texel = rec.then_some(&mut self.texel_beats);
            p.beats.tex_color = rec.then_some(&mut self.tex_color_beats);
            note_hang(&mut first, cycle, self.tex.tick(cycle, p));
            note_hang(
                &mut first,
                cycle,
                self.rast.tick(
                    cycle,
                    RastPorts {
                        regs: &self.regs,
                        input: &mut self.clip_to_rast,
                        out: &mut self.rast_to_tex,
                        beats: rec.then_some(&mut self.fragment_beats),
                    },
                ),
            );
            note_hang(
                &mut first,
                cycle,
                self.clip.tick(
                    cycle,
                    ClipPorts {
                        regs: &self.regs,
                        input: &mut self.pa_to_clip,
                        out: &mut self.clip_to_rast,
                    },
                ),
            );
            note_hang(
                &mut first,
                cycle,
                self.pa.tick(
                    cycle,
                    PaPorts {
                        regs: &self.regs,
                        from_vl: &mut self.vl_to_pa,
                        from_sh: &mut self.sh_out,
                        out: &mut self.pa_to_clip,
                        beats: rec.then_some(&mut self.primitive_beats),
                    },
                ),
            );
            note_hang(
                &mut first,
                cycle,
                self.vl.tick(
                    cycle,
                    VlPorts {
                        regs: &self.regs,
                        mem: &self.mem,
                        cmd: &mut self.regs_to_vl,
                        vs_in: &mut self.vs_in,
                        to_pa: &mut self.vl_to_pa,
                    },
                ),
            );
        }
        // Without the pipeline nothing arrives at the SH stage (only VL feeds it): once its
        // model is quiet, its ticks would return at once and change nothing (a tenth of a
        // front-end cycle), unless this cycle switches the GS on for the first time.
        let sh_skip = !self.pipeline
            && self.vs_in.is_empty()
            && self.sh_quiet.is_some_and(|has_gs| {
                has_gs || self.regs.reg(crate::regs::id::GEOSTAGE_CONFIG.into()) & 3 != 2
            });
        let sh = if sh_skip {
            Ok(())
        } else {
            let sh = self.shader.tick(
                cycle,
                ShaderPorts {
                    regs: &self.regs,
                    input: &mut self.vs_in,
                    output: &mut self.sh_out,
                    beats_in: &mut self.shader_in_beats,
                    beats_out: &mut self.shader_out_beats,
                    commits: &mut self.commit_beats,
                },
            );
            self.sh_quiet = if self.pipeline || self.shader.is_external() {
                None
            } else {
                self.shader.model().quiet()
            };
            sh
        };
        let cp = self.cp.tick(
            cycle,
            CpPorts {
                mem: &self.mem,
                writes: &mut self.cp_to_regs,
                redirect: &mut self.regs_to_cp,
            },
        );
        let regs = self.regs.tick(
            cycle,
            RegsPorts {
                writes: &mut self.cp_to_regs,
                redirect: &mut self.regs_to_cp,
                beats: &mut self.beats,
                draw: self.pipeline.then_some(&mut self.regs_to_vl),
                hold,
            },
        );
        note_hang(&mut first, cycle, sh);
        note_hang(&mut first, cycle, cp);
        note_hang(&mut first, cycle, regs);
        if let Some(c) = self.cov.as_deref_mut() {
            c.observe(&self.regs, &self.beats);
        }
        if let Some(reason) = first {
            self.hang.get_or_insert((cycle, reason));
        }
        self.cycle += 1;
    }

    /// The outcome if the run is over, `None` while work remains.
    pub fn outcome(&self) -> Option<Outcome> {
        // A hung pipeline stage never drains: report it at once.
        if let Some((
            cycle,
            reason @ (HangReason::Shader { .. }
            | HangReason::VertexLoader(_)
            | HangReason::FragmentOps(_)
            | HangReason::Texture(_)),
        )) = &self.hang
        {
            return Some(Outcome::Hang {
                cycle: *cycle,
                reason: reason.clone(),
            });
        }
        let drained = self.cp_to_regs.is_empty()
            && self.regs_to_cp.is_empty()
            && self.regs.is_idle()
            && !self.pipeline_busy();
        if !drained {
            return None;
        }
        if let Some((cycle, reason)) = &self.hang {
            return Some(Outcome::Hang {
                cycle: *cycle,
                reason: reason.clone(),
            });
        }
        match self.cp.state() {
            CpState::Done => Some(Outcome::Finished { cycles: self.cycle }),
            CpState::Idle if self.pushed_writes > 0 => {
                Some(Outcome::Finished { cycles: self.cycle })
            }
            _ => None,
        }
    }

    /// Steps until the list finishes, the GPU hangs, or `max_cycles` cycles have been stepped
    /// in total.
    pub fn run(&mut self, max_cycles: u64) -> Outcome {
        loop {
            if let Some(o) = self.outcome() {
                return o;
            }
            if self.cycle >= max_cycles {
                return Outcome::CycleLimit { cycles: self.cycle };
            }
            if self.cp.state() == CpState::Idle && self.hang.is_none() && self.pushed_writes == 0 {
                // Nothing submitted: a GPU never kicked never finishes.
                return Outcome::Hang {
                    cycle: self.cycle,
                    reason: HangReason::NotSubmitted,
                };
            }
            self.step();
        }
    }

    /// Internal state of every stage, for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({
            "cycle": self.cycle,
            "cp": self.cp.snapshot(),
            "regs": self.regs.snapshot(),
            "shader": self.shader.snapshot(),
            "vl": self.vl.snapshot(),
            "pa": self.pa.snapshot(),
            "clip": self.clip.snapshot(),
            "rast": self.rast.snapshot(),
            "tex": self.tex.snapshot(),
            "light": self.light.snapshot(),
            "tev": self.tev.snapshot(),
            "fog": self.fog.snapshot(),
            "fop": self.fop.snapshot(),
            "links": { "cp_to_regs": self.cp_to_regs.len(), "regs_to_cp": self.regs_to_cp.len(),
                       "regs_to_vl": self.regs_to_vl.len(), "vs_in": self.vs_in.len(),
                       "sh_out": self.sh_out.len(), "vl_to_pa": self.vl_to_pa.len(),
                       "pa_to_clip": self.pa_to_clip.len(), "clip_to_rast": self.clip_to_rast.len(),
                       "rast_to_tex": self.rast_to_tex.len(),
                       "tex_to_light": self.tex_to_light.len(),
                       "light_to_tev": self.light_to_tev.len(),
                       "tev_to_fog": self.tev_to_fog.len(), "fog_to_fop": self.fog_to_fop.len() },
        })
    }

    /// Everything a register write can change plus the outcome: the `--regs-json` document.
    pub fn state_json(&self, outcome: &Outcome) -> serde_json::Value {
        let mut v = self.regs.state_json();
        if let Some(o) = v.as_object_mut() {
            o.insert("outcome".into(), outcome_json(outcome));
        }
        v
    }
}

/// The beats of the geometry and fragment pipeline ([`Gpu::pipeline_beats`]).
#[derive(Clone, Copy, Debug)]
pub struct PipelineBeats<'a> {
    /// PA → CLIP triangles.
    pub primitive: &'a [PrimitiveBeat],
    /// RAST → TEX fragments.
    pub fragment: &'a [FragmentBeat],
    /// TEX texel reads.
    pub texel: &'a [TexelBeat],
    /// TEV stage outputs.
    pub combiner: &'a [CombinerBeat],
    /// TEX texture-unit colours (one beat per fragment).
    pub tex_color: &'a [TexColorBeat],
    /// FOP pixel outcomes.
    pub pixel: &'a [PixelBeat],
}
