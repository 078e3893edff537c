//! The FOP row's port adapter: the model's FOG→FOP link and the model's memory on one side,
//! the RTL fragment operations ([`RtlFop`], `pica_fop_top`) on the other.
//!
//! Each cycle the adapter brings the RTL's FOP registers in line with REGS
//! ([`RtlFop::sync_config`]: fragments already inside finish with the registers they entered
//! with — the model applies no register write while the pipeline holds fragments, see
//! `Gpu::regs_hold`), hands it one fragment from the input link while its input port is free,
//! and clocks it once. The RTL's memory port is served from the GPU's own memory (the colour
//! and depth-stencil buffers the rest of the pipeline and the final comparison see) with the
//! latency the run chose (`--mem-latency`). A pixel beat that leaves the RTL completes the
//! oldest fragment in flight (FOP keeps order) and is recorded as the model's FOP records it;
//! a hang of the RTL becomes the GPU's hang.
//!
//! GPUREG_FRAMEBUFFER_FLUSH / _INVALIDATE need nothing here: the model has no framebuffer
//! cache (model/src/fop/mod.rs), and neither has the RTL — every access goes to the memory
//! port.

use super::options::{StageError, StageOptions, TraceWindow};
use super::report::throughput_json;
use pica_model::fop::FopPorts;
use pica_model::fop::FragmentOps;
use pica_model::gpu::HangReason;
use pica_model::stage::External;
use pica_model::Gpu;
use pica_rtl_bridge::coverage::{CoverageSink, Gathered};
use pica_rtl_bridge::fop_stage::{FopFragment, FopVariant, MemLatency, Reorder, RtlFop};
use std::collections::VecDeque;

/// The RTL FOP stage in the FOP slot.
pub struct FopAdapter {
    rtl: Gathered<RtlFop>,
    /// Fragments handed to the RTL and not yet back, oldest first: (tag, x, y).
    inflight: VecDeque<(u32, u16, u16)>,
    next_tag: u32,
    trace: Option<TraceWindow>,
    tracing: bool,
}

impl FopAdapter {
    /// An adapter around a new RTL FOP stage of `variant` whose AXI4 memory port answers with
    /// `latency` and orders its responses as `reorder` says.
    pub fn new(
        variant: FopVariant,
        latency: MemLatency,
        reorder: Reorder,
        trace: Option<TraceWindow>,
        cov: Option<&CoverageSink>,
    ) -> Result<Self, StageError> {
        Ok(Self {
            rtl: Gathered::new(RtlFop::with_reorder(variant, latency, reorder)?, cov),
            inflight: VecDeque::new(),
            next_tag: 0,
            trace,
            tracing: false,
        })
    }
}

impl External<FragmentOps> for FopAdapter {
    fn name(&self) -> String {
        format!(
            "rtl:fop ({}, memory latency {}, reorder {})",
            self.rtl.variant().name(),
            self.rtl.latency(),
            self.rtl.reorder()
        )
    }

    fn tick(&mut self, cycle: u64, ports: FopPorts<'_>) -> Result<(), HangReason> {
        let FopPorts {
            regs,
            mem,
            input,
            mut beats,
        } = ports;
        if let Some(t) = &self.trace {
            if cycle == t.from && !self.tracing {
                // A VCD that cannot be opened only loses the waveform; the run goes on.
                self.tracing = self.rtl.trace_vcd(&t.path).is_ok();
            }
        }
        self.rtl.sync_config(regs, mem);
        if self.rtl.hang().is_none() && self.rtl.can_accept() {
            if let Some(f) = input.pop() {
                let tag = self.next_tag;
                self.next_tag = self.next_tag.wrapping_add(1);
                self.rtl.push(FopFragment {
                    tag,
                    x: f.frag.x,
                    y: f.frag.y,
                    depth: f.frag.depth,
                    color: f.color,
                });
                self.inflight.push_back((tag, f.frag.x, f.frag.y));
            }
        }
        // FOP has no consumer but memory: its beat port is always ready.
        if let Some(r) = self.rtl.tick(mem, true) {
            let (tag, x, y) = self.inflight.pop_front().ok_or_else(|| {
                HangReason::Internal("rtl:fop produced a pixel beat with nothing in flight".into())
            })?;
            if tag != r.tag || (x, y) != (r.beat.x, r.beat.y) {
                return Err(HangReason::Internal(format!(
                    "rtl:fop returned tag {} at ({}, {}) where tag {tag} at ({x}, {y}) was next \
                     (order lost)",
                    r.tag, r.beat.x, r.beat.y
                )));
            }
            if let Some(b) = beats.as_mut() {
                let mut beat = r.beat;
                beat.cycle = cycle;
                b.push(beat);
            }
        }
        // A broken rule of the contract (an AXI4 rule on the memory port, named with its
        // channel, beat and clock) ends the run as a divergence.
        if let Some(v) = self.rtl.violations().first() {
            return Err(HangReason::Internal(format!("rtl:fop protocol: {v}")));
        }
        if let Some(t) = &self.trace {
            if cycle >= t.to && self.tracing {
                self.rtl.trace_off();
                self.tracing = false;
            }
        }
        match self.rtl.hang() {
            Some(h) => Err(HangReason::FragmentOps(h)),
            None => Ok(()),
        }
    }

    fn is_idle(&self) -> bool {
        self.rtl.is_idle() && self.inflight.is_empty()
    }

    fn snapshot(&self) -> serde_json::Value {
        let (reads, writes) = self.rtl.mem_stats();
        serde_json::json!({
            "rtl_cycles": self.rtl.cycles(),
            "throughput": throughput_json(&self.rtl.throughput()),
            "in_flight": self.inflight.len(),
            "mem_reads": reads,
            "mem_writes": writes,
            "axi": self.rtl.axi_tally(),
        })
    }
}

pub(super) fn attach_fop(gpu: &mut Gpu, opts: &StageOptions) -> Result<(), StageError> {
    gpu.replace_stage::<FragmentOps>(Box::new(FopAdapter::new(
        opts.fop_variant,
        opts.mem_latency,
        opts.mem_reorder,
        opts.trace.clone(),
        opts.coverage.as_ref(),
    )?));
    Ok(())
}
