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
//!
//! With `--reorder-fragments N[:SEED]` the RTL's fragments leave through a window of N
//! ([`Window`]) that releases them in a seeded random order, never one before an earlier
//! fragment of its own pixel: the fragment stream of a tiled rasterizer, for judging the
//! stages after RAST and the comparison by pixel (`--match-pixels`).

use super::options::{Reorder, StageError, StageOptions, TraceWindow};
use super::report::throughput_json;
use pica_model::clip::{ClipPorts, Clipper};
use pica_model::gpu::HangReason;
use pica_model::pipe::Fragment;
use pica_model::rast::{fragment_beat, RastPorts, Rasterizer};
use pica_model::stage::External;
use pica_model::Gpu;
use pica_rtl_bridge::coverage::{CoverageSink, Gathered};
use pica_rtl_bridge::fop_stage::MemLatency;
use pica_rtl_bridge::rast_stage::{RastVariant, RtlRast};
use pica_vectors::shader_gen::Rng;
use std::cell::RefCell;
use std::rc::Rc;

/// The RTL stage both sides drive, and the triangles handed to it.
struct Shared {
    rtl: Gathered<RtlRast>,
    taken: u64,
    trace: Option<TraceWindow>,
    tracing: bool,
    window: Option<Window>,
}

/// A reordering window on the RTL's fragments (`--reorder-fragments`).
struct Window {
    held: Vec<Fragment>,
    cap: usize,
    rng: Rng,
    /// Fragments released ahead of an earlier-taken one (the stream really was reordered).
    overtakes: u64,
}

impl Window {
    fn new(r: Reorder) -> Self {
        Self {
            held: Vec::with_capacity(r.window),
            cap: r.window,
            rng: Rng(r.seed),
            overtakes: 0,
        }
    }

    fn has_room(&self) -> bool {
        self.held.len() < self.cap
    }

    /// One fragment to send on: when the window is full or `flush` (the RTL has nothing
    /// more for now), else one clock in four once it is half full (our RTL makes a fragment
    /// every few tens of clocks: releasing sooner would never reorder); a random one of those
    /// that no earlier held fragment of the same pixel precedes.
    fn release(&mut self, flush: bool) -> Option<Fragment> {
        let half = 2 * self.held.len() >= self.cap;
        if self.held.is_empty()
            || !(flush || !self.has_room() || (half && self.rng.next_u64() % 4 == 0))
        {
            return None;
        }
        let free: Vec<usize> = (0..self.held.len())
            .filter(|&i| {
                let f = &self.held[i];
                !self.held[..i].iter().any(|e| (e.x, e.y) == (f.x, f.y))
            })
            .collect();
        let i = free[(self.rng.next_u64() % free.len() as u64) as usize];
        self.overtakes += u64::from(i > 0);
        Some(self.held.remove(i))
    }
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
    reorder: Option<Reorder>,
) -> Result<(ClipSide, RastSide), StageError> {
    let shared = Rc::new(RefCell::new(Shared {
        rtl: Gathered::new(RtlRast::new(variant, latency)?, cov),
        taken: 0,
        trace,
        tracing: false,
        window: reorder.map(Window::new),
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
        let ready = match &s.window {
            Some(w) => w.has_room(),
            None => out.can_push(),
        };
        let mut send = s.rtl.tick(ready);
        if let Some(w) = &mut s.window {
            if let Some(f) = send.take() {
                w.held.push(f);
            }
            if out.can_push() {
                send = w.release(s.rtl.is_idle());
            }
        }
        if let Some(f) = send {
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
        let s = self.0.borrow();
        s.rtl.is_idle() && s.window.as_ref().is_none_or(|w| w.held.is_empty())
    }

    fn snapshot(&self) -> serde_json::Value {
        let s = self.0.borrow();
        let mut v = serde_json::json!({
            "rtl_cycles": s.rtl.cycles(),
            "rtl_pending": s.rtl.pending(),
            "throughput": throughput_json(&s.rtl.throughput()),
        });
        if let Some(w) = &s.window {
            v["reorder_held"] = w.held.len().into();
            v["reorder_overtakes"] = w.overtakes.into();
        }
        v
    }
}

pub(super) fn attach_rast(gpu: &mut Gpu, opts: &StageOptions) -> Result<(), StageError> {
    let (clip, rast) = sides(
        opts.rast_variant,
        opts.mem_latency,
        opts.trace.clone(),
        opts.coverage.as_ref(),
        opts.reorder_fragments,
    )?;
    gpu.replace_stage::<Clipper>(Box::new(clip));
    gpu.replace_stage::<Rasterizer>(Box::new(rast));
    Ok(())
}
