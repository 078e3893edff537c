//! The TEV row's port adapter: the model's LIGHT→TEV and TEV→FOG links on one side, the RTL
//! TEV stage ([`RtlTev`], `pica_tev_top`) on the other.
//!
//! Each cycle the adapter brings the RTL's TEXENV registers in line with REGS
//! ([`RtlTev::sync_config`]: fragments already inside finish with the registers they entered
//! with, as the model computes a fragment with the registers of the cycle it takes it), hands
//! it one fragment from the input link while its input port is free, and clocks it once with
//! the output link's room as `ready`. A result that leaves the RTL completes the oldest
//! fragment in flight (TEV keeps order): its colour becomes the fragment's, and its six stage
//! results become the `combiner` beats the model's TEV would record.

use super::options::{StageError, StageOptions, TraceWindow};
use super::report::throughput_json;
use pica_model::beat::CombinerBeat;
use pica_model::frag::{FragPorts, TevStage};
use pica_model::gpu::HangReason;
use pica_model::pipe::ShadedFragment;
use pica_model::stage::External;
use pica_model::tev::Inputs;
use pica_model::Gpu;
use pica_rtl_bridge::coverage::{CoverageSink, Gathered};
use pica_rtl_bridge::tev_stage::{pack_rgba, RtlTev, TevFragment, TevVariant};
use std::collections::VecDeque;

/// The RTL TEV stage in the TEV slot.
pub struct TevAdapter {
    rtl: Gathered<RtlTev>,
    /// Fragments handed to the RTL and not yet back, oldest first, with their tags.
    inflight: VecDeque<(u32, ShadedFragment)>,
    next_tag: u32,
    trace: Option<TraceWindow>,
    tracing: bool,
}

impl TevAdapter {
    /// An adapter around a new RTL TEV stage of `variant`.
    /// Its coverage build's counters go to `cov` when it is dropped.
    pub fn new(
        variant: TevVariant,
        trace: Option<TraceWindow>,
        cov: Option<&CoverageSink>,
    ) -> Result<Self, StageError> {
        Ok(Self {
            rtl: Gathered::new(RtlTev::new(variant)?, cov),
            inflight: VecDeque::new(),
            next_tag: 0,
            trace,
            tracing: false,
        })
    }
}

impl External<TevStage> for TevAdapter {
    fn name(&self) -> String {
        format!("rtl:tev ({})", self.rtl.variant().name())
    }

    fn tick(
        &mut self,
        cycle: u64,
        mut ports: FragPorts<'_, ShadedFragment>,
    ) -> Result<(), HangReason> {
        if let Some(t) = &self.trace {
            if cycle == t.from && !self.tracing {
                // A VCD that cannot be opened only loses the waveform; the run goes on.
                self.tracing = self.rtl.trace_vcd(&t.path).is_ok();
            }
        }
        self.rtl.sync_config(ports.regs);
        if self.rtl.can_accept() {
            if let Some(f) = ports.input.pop() {
                let tag = self.next_tag;
                self.next_tag = self.next_tag.wrapping_add(1);
                self.rtl.push(TevFragment {
                    tag,
                    inputs: Inputs::of(&f),
                });
                self.inflight.push_back((tag, f));
            }
        }
        if let Some(r) = self.rtl.tick(ports.out.can_push()) {
            let (tag, mut f) = self.inflight.pop_front().ok_or_else(|| {
                HangReason::Internal("rtl:tev produced a result with nothing in flight".into())
            })?;
            if tag != r.tag {
                return Err(HangReason::Internal(format!(
                    "rtl:tev returned tag {} where {tag} was next (order lost)",
                    r.tag
                )));
            }
            if let Some(log) = ports.beats.combiner.as_deref_mut() {
                log.extend(r.out.stages.iter().enumerate().map(|(i, s)| CombinerBeat {
                    cycle,
                    x: f.frag.x,
                    y: f.frag.y,
                    stage: i as u8,
                    color: pack_rgba(s.color),
                    buffer: pack_rgba(s.buffer),
                }));
            }
            f.color = r.out.color;
            ports
                .out
                .push(f)
                .map_err(|e| HangReason::Internal(e.to_string()))?;
        }
        if let Some(t) = &self.trace {
            if cycle >= t.to && self.tracing {
                self.rtl.trace_off();
                self.tracing = false;
            }
        }
        Ok(())
    }

    fn is_idle(&self) -> bool {
        self.rtl.is_idle() && self.inflight.is_empty()
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::json!({
            "rtl_cycles": self.rtl.cycles(),
            "throughput": throughput_json(&self.rtl.throughput()),
            "in_flight": self.inflight.len(),
        })
    }
}

pub(super) fn attach_tev(gpu: &mut Gpu, opts: &StageOptions) -> Result<(), StageError> {
    gpu.replace_stage::<TevStage>(Box::new(TevAdapter::new(
        opts.tev_variant,
        opts.trace.clone(),
        opts.coverage.as_ref(),
    )?));
    Ok(())
}
