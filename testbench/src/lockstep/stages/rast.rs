//! The RAST row's port adapter: one RTL stage (`pica_rast_top`: CLIP then RAST, [`RtlRast`])
//! in two model slots.
//!
//! The row replaces two model stages, so it attaches two [`External`]s that share the RTL:
//!
//! - in the CLIP slot, [`ClipSide`] takes the triangles PA sends (the `primitive` channel) from
//!   the PA→CLIP link into the RTL's input port, one while the port is free; it never pushes
//!   into the CLIP→RAST link (the RTL's CLIP feeds its RAST inside `pica_rast_top`);
//! - in the RAST slot, [`RastSide`] brings the RTL's registers in line with REGS (and hands it
//!   every GPUREG_EARLYDEPTH_CLEAR event, [`RtlRast::sync_config`]), clocks it once per cycle
//!   with the RAST→TEX link's room as `ready`, and sends each fragment it produces on, recording
//!   it as the model's RAST records it (the `fragment` channel).
//!
//! The GPU ticks the RAST slot before the CLIP slot in a cycle, so a triangle taken in cycle
//! `c` enters the RTL with the clock of cycle `c + 1` — one link's worth of latency, as in the
//! model. The early-depth buffer lives behind the RTL's early-depth port; [`RtlRast`] serves it
//! (with `--mem-latency`), so the model's RAST slot, idle, keeps its own untouched.

use super::options::{StageError, StageOptions, TraceWindow};
use pica_model::clip::{ClipPorts, Clipper};
use pica_model::gpu::HangReason;
use pica_model::rast::{fragment_beat, RastPorts, Rasterizer};
use pica_model::stage::External;
use pica_model::Gpu;
use pica_rtl_bridge::coverage::{CoverageSink, Gathered};
use pica_rtl_bridge::fop_stage::MemLatency;
use pica_rtl_bridge::rast_stage::{RastVariant, RtlRast};
use std::cell::RefCell;
use std::rc::Rc;

/// The RTL stage both sides drive, and the triangles handed to it.
struct Shared {
    rtl: Gathered<RtlRast>,
    taken: u64,
    trace: Option<TraceWindow>,
    tracing: bool,
}

/// The CLIP slot's side of the row.
pub struct ClipSide(Rc<RefCell<Shared>>);

/// The RAST slot's side of the row.
pub struct RastSide(Rc<RefCell<Shared>>);

/// The two sides of one RTL CLIP+RAST stage of `variant`, its early-depth port answered with
/// `latency`.
pub fn sides(
    variant: RastVariant,
    latency: MemLatency,
    trace: Option<TraceWindow>,
    cov: Option<&CoverageSink>,
) -> Result<(ClipSide, RastSide), StageError> {
    let shared = Rc::new(RefCell::new(Shared {
        rtl: Gathered::new(RtlRast::new(variant, latency)?, cov),
        taken: 0,
        trace,
        tracing: false,
    }));
    Ok((ClipSide(shared.clone()), RastSide(shared)))
}

impl External<Clipper> for ClipSide {
    fn name(&self) -> String {
        let s = self.0.borrow();
        format!(
            "rtl:rast (CLIP side; {}, early-depth latency {})",
            s.rtl.variant().name(),
            s.rtl.latency()
        )
    }

    fn tick(&mut self, _cycle: u64, ports: ClipPorts<'_>) -> Result<(), HangReason> {
        let mut s = self.0.borrow_mut();
        if s.rtl.can_accept() {
            if let Some(tri) = ports.input.pop() {
                s.rtl.push(&tri);
                s.taken += 1;
            }
        }
        Ok(())
    }

    fn is_idle(&self) -> bool {
        self.0.borrow().rtl.is_idle()
    }

    fn snapshot(&self) -> serde_json::Value {
        let s = self.0.borrow();
        serde_json::json!({ "triangles_taken": s.taken, "rtl_pending": s.rtl.pending() })
    }
}

impl External<Rasterizer> for RastSide {
    fn name(&self) -> String {
        let s = self.0.borrow();
        format!("rtl:rast (RAST side; {})", s.rtl.variant().name())
    }

    fn tick(&mut self, cycle: u64, ports: RastPorts<'_>) -> Result<(), HangReason> {
        let RastPorts {
            regs,
            out,
            mut beats,
            ..
        } = ports;
        let mut guard = self.0.borrow_mut();
        let s = &mut *guard;
        if let Some(t) = &s.trace {
            if cycle == t.from && !s.tracing {
                // A VCD that cannot be opened only loses the waveform; the run goes on.
                s.tracing = s.rtl.trace_vcd(&t.path).is_ok();
            }
        }
        s.rtl.sync_config(regs);
        if let Some(f) = s.rtl.tick(out.can_push()) {
            if let Some(b) = beats.as_mut() {
                b.push(fragment_beat(cycle, &f));
            }
            out.push(f)
                .map_err(|e| HangReason::Internal(format!("rtl:rast: {e}")))?;
        }
        if let Some(v) = s.rtl.violations().first() {
            return Err(HangReason::Internal(format!("rtl:rast protocol: {v}")));
        }
        if let Some(t) = &s.trace {
            if cycle >= t.to && s.tracing {
                s.rtl.trace_off();
                s.tracing = false;
            }
        }
        Ok(())
    }

    fn is_idle(&self) -> bool {
        self.0.borrow().rtl.is_idle()
    }

    fn snapshot(&self) -> serde_json::Value {
        let s = self.0.borrow();
        serde_json::json!({
            "rtl_cycles": s.rtl.cycles(),
            "rtl_pending": s.rtl.pending(),
        })
    }
}

pub(super) fn attach_rast(gpu: &mut Gpu, opts: &StageOptions) -> Result<(), StageError> {
    let (clip, rast) = sides(
        opts.rast_variant,
        opts.mem_latency,
        opts.trace.clone(),
        opts.coverage.as_ref(),
    )?;
    gpu.replace_stage::<Clipper>(Box::new(clip));
    gpu.replace_stage::<Rasterizer>(Box::new(rast));
    Ok(())
}
