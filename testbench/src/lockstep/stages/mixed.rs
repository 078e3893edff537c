//! The mixed GPU: the model with the RTL rows' adapters in its slots, stepped with the rows'
//! cycle hooks ([`MixedGpu`], [`mixed_gpu`]).

use super::fe::{FrontEndCheck, TopRun};
use super::options::{check_knobs, StageError, StageOptions};
use super::report::StageDivergence;
use super::{CycleHook, StageRow, StageSet};
use pica_model::{Gpu, Outcome};
use pica_vectors::case::{Case, Step as CaseStep, StepTarget};

/// A mixed GPU: the model with the RTL rows' adapters in its slots, and the rows' cycle hooks.
pub struct MixedGpu {
    /// The GPU.
    pub gpu: Gpu,
    /// Hooks run around every [`Gpu::step`].
    pub hooks: Vec<Box<dyn CycleHook>>,
}

impl From<Gpu> for MixedGpu {
    fn from(gpu: Gpu) -> Self {
        Self {
            gpu,
            hooks: Vec::new(),
        }
    }
}

impl MixedGpu {
    /// One cycle: the hooks, [`Gpu::step`], the hooks.
    pub fn step(&mut self) {
        for h in &mut self.hooks {
            h.before_step(&self.gpu);
        }
        self.gpu.step();
        for h in &mut self.hooks {
            h.after_step(&self.gpu);
        }
    }

    /// The first divergence a hook found.
    pub fn divergence(&self) -> Option<&StageDivergence> {
        self.hooks.iter().find_map(|h| h.divergence())
    }

    /// Steps until the run is over (as [`Gpu::run`]), `max_cycles` have run, or a hook found a
    /// divergence (then the outcome is the cycle limit at that cycle).
    pub fn run(&mut self, max_cycles: u64) -> Outcome {
        if self.hooks.is_empty() {
            return self.gpu.run(max_cycles);
        }
        loop {
            if let Some(o) = self.gpu.outcome() {
                return o;
            }
            if self.gpu.cycle() >= max_cycles || self.divergence().is_some() {
                return Outcome::CycleLimit {
                    cycles: self.gpu.cycle(),
                };
            }
            self.step();
        }
    }
}

impl StepTarget for MixedGpu {
    fn run_for(&mut self, max_cycles: u64) -> Outcome {
        self.run(max_cycles)
    }

    fn submit(&mut self, addr: u32, size: u32) -> Result<(), pica_model::SubmitError> {
        self.gpu.submit(addr, size)?;
        let step = CaseStep::Submit { addr, size };
        for h in &mut self.hooks {
            h.on_step(&step);
        }
        Ok(())
    }

    fn fill(
        &mut self,
        fill: &pica_model::psc::MemoryFill,
    ) -> Result<(), pica_model::psc::FillError> {
        self.gpu.memory_fill(fill)?;
        let step = CaseStep::Fill(*fill);
        for h in &mut self.hooks {
            h.on_step(&step);
        }
        Ok(())
    }
}

/// Steps `target` (made for `case`, its first list submitted) cycle by cycle with `step` until
/// `stop` says so or the sequence is over, doing `case`'s further steps whenever a submission
/// finishes (as [`Case::run_steps`] does, one cycle at a time: for a trace window or a
/// replay up to a cycle). `outcome` and `cycle` read the target.
pub(super) fn step_sequence<T: StepTarget>(
    case: &Case,
    target: &mut T,
    outcome: impl Fn(&T) -> Option<Outcome>,
    mut step: impl FnMut(&mut T),
    stop: impl Fn(&T) -> bool,
) {
    let mut next = 0usize;
    while !stop(target) {
        match outcome(target) {
            None => step(target),
            Some(Outcome::Finished { .. }) => {
                // The steps up to the next submission; none left: over.
                let mut submitted = false;
                while let Some(s) = case.more.get(next) {
                    next += 1;
                    match s {
                        CaseStep::Fill(f) => {
                            let _ = target.fill(f);
                        }
                        CaseStep::Transfer(_) => {}
                        CaseStep::Submit { addr, size } => {
                            submitted = target.submit(*addr, *size).is_ok();
                            break;
                        }
                    }
                }
                if !submitted {
                    return;
                }
                step(target);
            }
            Some(_) => return,
        }
    }
}

/// The model GPU for `case` with the stages of `set` in RTL. With `fe` and pipeline rows, one
/// `pica_top` runs beside it (the `fe` row's [`FrontEndCheck`] hook) and the pipeline rows
/// are served by its stage ports ([`StageRow::attach_in_top`]).
pub fn mixed_gpu(case: &Case, set: &StageSet, opts: &StageOptions) -> Result<MixedGpu, StageError> {
    check_knobs(set, opts.sh_variant, opts.tex_variant, &case.knobs).map_err(StageError::Knobs)?;
    if opts.reorder_fragments.is_some() && !set.rows_named(&["rast"]) {
        return Err(StageError::ReorderWithoutRast);
    }
    // The model's own stages run with the case's knobs (set by `Case::gpu`).
    let mut gpu = case.gpu()?;
    gpu.set_record_commits(opts.commits);
    // With the front end alone in RTL this is still a mixed run (`pica lockstep
    // --pipeline-hold`): the model's pipeline holds REGS while it is busy (`Gpu::regs_hold`),
    // which the front-end lockstep (pipeline off) never does.
    let top = if set.has_front_end() {
        let sh_in_top = set.rows_named(&["sh"]);
        Some(TopRun::new(
            case,
            opts.fe_variant,
            opts.sh_variant,
            sh_in_top,
        )?)
    } else {
        None
    };
    for r in set.pipeline_rows() {
        // A row inside pica_top is served by its ports; a row pica_top does not hold (tev)
        // runs its own stage top beside it.
        match (&top, r.attach_in_top, r.attach) {
            (Some(t), Some(attach), _) => attach(&mut gpu, opts, t)?,
            (_, _, Some(attach)) => attach(&mut gpu, opts)?,
            (_, _, None) => {}
        }
    }
    let mut m = MixedGpu::from(gpu);
    if let Some(t) = top {
        m.hooks.push(Box::new(FrontEndCheck::new(t)));
    }
    Ok(m)
}

/// The least cycle budget of a mixed run: RTL stages may take longer than the model's (the RTL
/// shader unit takes up to 365 clocks for RCP, RSQ, EX2 and LG2 where the model takes 1), so
/// the case's limit
/// is stretched by this factor, or by the largest [`StageRow::slowdown`] of the run's rows
/// ([`cycle_factor`]); outcomes are compared by kind and reason, not by cycle.
pub const MIXED_CYCLE_FACTOR: u64 = 8;

/// The factor a mixed run with the stages `rows` in RTL stretches the case's cycle limit by.
pub fn cycle_factor(rows: &[&StageRow]) -> u64 {
    rows.iter()
        .map(|r| r.slowdown)
        .fold(MIXED_CYCLE_FACTOR, u64::max)
}

// ---------------------------------------------------------------------------------------
// Comparison.
