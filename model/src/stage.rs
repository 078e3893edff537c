//! The trait every pipeline stage implements.
//!
//! This module sits below the stages: it names none of them. CP, REGS and the fragment stages
//! implement [`Stage`] in their own modules; VL, the shader unit, PA, CLIP, RAST and FOP,
//! whose inherent `tick` returns their own hang type or nothing, through adapters in
//! [`crate::gpu`].

use crate::outcome::HangReason;

/// An implementation of a pipeline stage outside the model — an RTL stage behind its port
/// adapter — that takes the place of the model's stage `S` (design.md "Stage-level
/// co-verification": stage swap).
///
/// It gets exactly the ports the model's stage gets each cycle (`S::Ports`: the same links,
/// configuration and beat logs), so the rest of the pipeline cannot tell the two apart: it
/// pops its input link, pushes its output link only while [`Link::can_push`](crate::link::Link::can_push)
/// says so (the link's registered `ready`), and records the beats of its channels.
pub trait External<S: Stage> {
    /// A name for reports (e.g. `rtl:sh`).
    fn name(&self) -> String;

    /// Advances one cycle with the model stage's ports. An `Err` means the GPU hangs here.
    fn tick(&mut self, cycle: u64, ports: S::Ports<'_>) -> Result<(), HangReason>;

    /// Whether nothing is in flight inside the implementation.
    fn is_idle(&self) -> bool;

    /// State for dumps and divergence reports.
    fn snapshot(&self) -> serde_json::Value;
}

/// A place in the pipeline: the model's stage, or an [`External`] implementation in its
/// place ([`Slot::replace`]). The GPU ticks the slot; which side runs is the slot's business,
/// so swapping a stage never touches the cycle loop.
pub struct Slot<S: Stage> {
    model: S,
    external: Option<Box<dyn External<S>>>,
}

impl<S: Stage + std::fmt::Debug> std::fmt::Debug for Slot<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slot")
            .field("model", &self.model)
            .field("external", &self.external.as_ref().map(|x| x.name()))
            .finish()
    }
}

impl<S: Stage> Slot<S> {
    /// The model's stage in its place.
    pub fn new(model: S) -> Self {
        Self {
            model,
            external: None,
        }
    }

    /// The model's stage (idle and untouched while an external one stands in for it).
    pub fn model(&self) -> &S {
        &self.model
    }

    /// The model's stage, mutable (configuration before a run).
    pub fn model_mut(&mut self) -> &mut S {
        &mut self.model
    }

    /// Puts `external` in the model stage's place from the next cycle on.
    pub fn replace(&mut self, external: Box<dyn External<S>>) {
        self.external = Some(external);
    }

    /// The external implementation, if one stands in.
    pub fn external(&self) -> Option<&dyn External<S>> {
        self.external.as_deref()
    }

    /// Whether an external implementation runs in this place.
    pub fn is_external(&self) -> bool {
        self.external.is_some()
    }

    /// Ticks whichever implementation is in place.
    pub fn tick(&mut self, cycle: u64, ports: S::Ports<'_>) -> Result<(), HangReason> {
        match &mut self.external {
            Some(x) => x.tick(cycle, ports),
            None => self.model.tick(cycle, ports),
        }
    }

    /// Whether the implementation in place has no work in flight.
    pub fn is_idle(&self) -> bool {
        match &self.external {
            Some(x) => x.is_idle(),
            None => self.model.is_idle(),
        }
    }

    /// The state of the implementation in place.
    pub fn snapshot(&self) -> serde_json::Value {
        match &self.external {
            Some(x) => serde_json::json!({ "external": x.name(), "state": x.snapshot() }),
            None => self.model.snapshot(),
        }
    }
}

/// A pipeline stage of the cycle-stepped core (design.md "Stages").
///
/// A stage owns its state (no global state) and talks to its neighbours only through the
/// [`Link`](crate::link::Link)s passed to it in [`Stage::Ports`] each cycle.
pub trait Stage {
    /// What the stage reads and writes in one cycle: its links, memory, the beat log.
    type Ports<'a>;

    /// The stage's name (also the `tracing` target).
    fn name(&self) -> &'static str;

    /// Returns to the power-on state.
    fn reset(&mut self);

    /// Advances the stage by one cycle. An `Err` means the GPU hangs in this stage.
    fn tick(&mut self, cycle: u64, ports: Self::Ports<'_>) -> Result<(), HangReason>;

    /// Whether the stage has no work in flight.
    fn is_idle(&self) -> bool;

    /// The stage's internal state, for dumps and divergence reports.
    fn snapshot(&self) -> serde_json::Value;
}
