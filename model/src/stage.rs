//! The trait every pipeline stage implements.

use crate::gpu::HangReason;

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
