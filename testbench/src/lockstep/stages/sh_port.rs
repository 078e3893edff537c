//! The transaction-level port of a shader stage ([`ShPort`]) and what one clock of it gives
//! ([`PortTick`]): what the SH row's adapter drives ([`super::sh`]) and what `pica_top`'s own
//! SH ports implement ([`super::fe`]). Apart from both so that neither needs the other's
//! internals for it.

use super::options::StageError;
use pica_model::beat::CommitBeat;
use pica_model::gpu::HangReason;
use pica_model::regfile::RegFile;
use pica_model::shader::stage::{ShIn, ShadedItem};

/// What one clock of a shader stage port gave.
#[derive(Clone, Debug, Default)]
pub struct PortTick {
    /// A whole item that left the stage (all its beats have been accepted).
    pub output: Option<ShadedItem>,
    /// Instructions retired during the clock (`cycle` is filled in by the adapter).
    pub commits: Vec<CommitBeat>,
    /// The stage hangs.
    pub hang: Option<HangReason>,
}

/// The transaction-level view of a shader stage implementation, as [`ShAdapter`] drives it:
/// the RTL SH stage, or a model-backed double used to test the harness itself.
pub trait ShPort {
    /// A name for reports.
    fn name(&self) -> String;
    /// Brings the stage's configuration in line with REGS (cheap when nothing changed; a no-op
    /// where REGS itself configures the stage, inside `pica_top`).
    fn sync_config(&mut self, regs: &RegFile);
    /// Whether the vertex input can take an item this cycle (the port's `ready`).
    fn can_accept(&self) -> bool;
    /// Hands one item of VL's link to the input port: a vertex, or a GS marker (draw begin,
    /// variable-mode vertex count).
    fn push(&mut self, item: &ShIn);
    /// One clock, the model's cycle `cycle`; `out_ready` is the consumer's registered `ready`.
    fn tick(&mut self, cycle: u64, regs: &RegFile, out_ready: bool) -> PortTick;
    /// Nothing in flight.
    fn is_idle(&self) -> bool;
    /// Starts a waveform (no-op where there is none).
    fn trace_start(&mut self, _path: &std::path::Path) -> Result<(), StageError> {
        Ok(())
    }
    /// Stops the waveform.
    fn trace_stop(&mut self) {}
    /// State for reports.
    fn snapshot(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
}
