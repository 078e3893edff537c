//! The TEX row's port adapter: the model's RAST→TEX and TEX→LIGHT links and the model's
//! memory on one side, the RTL texture units 0-2 ([`RtlTex`], `pica_tex_top`) on the other.
//!
//! Each cycle the adapter brings the RTL's TEX registers in line with REGS
//! ([`RtlTex::sync_config`]), hands it one fragment from the input link while its input port is
//! free (with the flush flag [`FlushTracker`] decides: the texel cache must be invisible), and
//! clocks it once, its AXI4 read port served from the GPU's memory with `--mem-latency`. A
//! result completes the oldest fragment in flight (the stage keeps order): units 0-2 are the
//! RTL's, unit 3 (the procedural texture, not in the RTL) the model's
//! ([`pica_model::tex::texture_unit3`], computed when the fragment went in, with the registers
//! of that cycle as the model's TEX would). The texel reads the RTL reports become the
//! `texel` beats and the colours the `tex_color` beat the model's TEX records; a hang of the
//! RTL becomes the GPU's hang.

use super::options::{StageError, StageOptions, TraceWindow};
use super::report::throughput_json;
use pica_model::beat::{TexColorBeat, TexelBeat};
use pica_model::frag::{FragPorts, TexStage};
use pica_model::gpu::HangReason;
use pica_model::pipe::{Fragment, ShadedFragment};
use pica_model::stage::External;
use pica_model::Gpu;
use pica_rtl_bridge::coverage::{CoverageSink, Gathered};
use pica_rtl_bridge::tex_stage::{
    FlushTracker, MemLatency, Reorder, RtlTex, TexFetch, TexFragment, TexVariant,
};
use std::collections::VecDeque;

/// Clocks the adapter keeps clocking a hung RTL stage for the results of the fragments ahead
/// of the hanging one (its decode register and output FIFO hold at most five).
const HANG_GRACE_CLOCKS: u32 = 16;

/// A fragment inside the RTL: its tag, the fragment, unit 3's colour and its texel reads so
/// far.
struct InFlight {
    tag: u32,
    frag: ShadedFragment,
    unit3: [u8; 4],
    fetches: Vec<TexFetch>,
}

/// The RTL TEX stage in the TEX slot.
pub struct TexAdapter {
    rtl: Gathered<RtlTex>,
    inflight: VecDeque<InFlight>,
    next_tag: u32,
    flush: FlushTracker,
    /// Fragments sent with the flush flag.
    flushes: u64,
    /// Clocks since the RTL hung.
    hang_grace: u32,
    /// Texel reads the RTL reported.
    texel_reads: u64,
    trace: Option<TraceWindow>,
    tracing: bool,
}

impl TexAdapter {
    /// An adapter around a new RTL TEX stage of `variant` whose AXI4 port answers with
    /// `latency` and `reorder`.
    pub fn new(
        variant: TexVariant,
        latency: MemLatency,
        reorder: Reorder,
        trace: Option<TraceWindow>,
        cov: Option<&CoverageSink>,
    ) -> Result<Self, StageError> {
        Ok(Self {
            rtl: Gathered::new(RtlTex::with_reorder(variant, latency, reorder)?, cov),
            inflight: VecDeque::new(),
            next_tag: 0,
            flush: FlushTracker::default(),
            flushes: 0,
            hang_grace: 0,
            texel_reads: 0,
            trace,
            tracing: false,
        })
    }

    /// Files the RTL's texel reads under their fragments.
    fn collect_fetches(&mut self) -> Result<(), HangReason> {
        let fetches = self.rtl.take_fetches();
        self.texel_reads += fetches.len() as u64;
        for f in fetches {
            let Some(i) = self.inflight.iter_mut().find(|i| i.tag == f.tag) else {
                return Err(HangReason::Internal(format!(
                    "rtl:tex reported a texel read (unit {}, 0x{:08x}) for tag {}, which is \
                     not in flight",
                    f.fetch.unit, f.fetch.addr, f.tag
                )));
            };
            i.fetches.push(f);
        }
        Ok(())
    }
}

impl External<TexStage> for TexAdapter {
    fn name(&self) -> String {
        format!("rtl:tex ({})", self.rtl.variant().name())
    }

    fn tick(&mut self, cycle: u64, mut ports: FragPorts<'_, Fragment>) -> Result<(), HangReason> {
        if let Some(t) = &self.trace {
            if cycle == t.from && !self.tracing {
                // A VCD that cannot be opened only loses the waveform; the run goes on.
                self.tracing = self.rtl.trace_vcd(&t.path).is_ok();
            }
        }
        self.rtl.sync_config(ports.regs, ports.mem);
        if self.rtl.hang().is_none() && self.rtl.can_accept() {
            if let Some(f) = ports.input.pop() {
                let tag = self.next_tag;
                self.next_tag = self.next_tag.wrapping_add(1);
                let flush = self.flush.next(ports.regs, ports.mem);
                self.flushes += u64::from(flush);
                self.rtl.push(TexFragment::of(tag, flush, &f));
                let unit3 = pica_model::tex::texture_unit3(&f, ports.regs);
                self.inflight.push_back(InFlight {
                    tag,
                    frag: ShadedFragment::new(f),
                    unit3,
                    fetches: Vec::new(),
                });
            }
        }
        let r = self.rtl.tick(ports.mem, ports.out.can_push());
        self.collect_fetches()?;
        if let Some(r) = r {
            let mut i = self.inflight.pop_front().ok_or_else(|| {
                HangReason::Internal("rtl:tex produced a result with nothing in flight".into())
            })?;
            if i.tag != r.tag {
                return Err(HangReason::Internal(format!(
                    "rtl:tex returned tag {} where {} was next (order lost)",
                    r.tag, i.tag
                )));
            }
            let [a, b, c] = r.tex;
            i.frag.tex = [a, b, c, i.unit3];
            let (x, y) = (i.frag.frag.x, i.frag.frag.y);
            if let Some(log) = ports.beats.texel.as_deref_mut() {
                log.extend(texel_beats(cycle, x, y, &i.fetches));
            }
            if let Some(log) = ports.beats.tex_color.as_deref_mut() {
                log.push(TexColorBeat::of(cycle, &i.frag.frag, i.frag.tex));
            }
            ports
                .out
                .push(i.frag)
                .map_err(|e| HangReason::Internal(e.to_string()))?;
        }
        if let Some(v) = self.rtl.violations().first() {
            return Err(HangReason::Internal(format!("rtl:tex protocol: {v}")));
        }
        if let Some(t) = &self.trace {
            if cycle >= t.to && self.tracing {
                self.rtl.trace_off();
                self.tracing = false;
            }
        }
        match self.rtl.hang() {
            // The fragments ahead of the hanging one finished in the model before it hung:
            // their results still leave the RTL's last stages for a few clocks.
            Some(_) if self.hang_grace < HANG_GRACE_CLOCKS => {
                self.hang_grace += 1;
                Ok(())
            }
            Some(h) => {
                // The model's TEX records the reads of the hanging fragment before the hang.
                if let (Some(i), Some(log)) =
                    (self.inflight.front(), ports.beats.texel.as_deref_mut())
                {
                    let (x, y) = (i.frag.frag.x, i.frag.frag.y);
                    log.extend(texel_beats(cycle, x, y, &i.fetches));
                    self.inflight.clear();
                }
                Err(HangReason::Texture(h))
            }
            None => Ok(()),
        }
    }

    fn is_idle(&self) -> bool {
        self.rtl.is_idle() && self.inflight.is_empty()
    }

    fn snapshot(&self) -> serde_json::Value {
        // The texel cache's figures beside the generic ones: texel reads, line fills (one
        // 16-byte read burst each) and what share of the reads needed none.
        let mut throughput = throughput_json(&self.rtl.throughput());
        let fills = self.rtl.axi_tally().read_bursts;
        if let Some(o) = throughput.as_object_mut() {
            o.insert("texel_reads".into(), self.texel_reads.into());
            o.insert("line_fills".into(), fills.into());
            o.insert(
                "fills_per_texel_read".into(),
                (self.texel_reads > 0)
                    .then(|| (fills as f64 / self.texel_reads as f64 * 1e4).round() / 1e4)
                    .into(),
            );
        }
        serde_json::json!({
            "rtl_cycles": self.rtl.cycles(),
            "throughput": throughput,
            "in_flight": self.inflight.len(),
            "cache_flushes": self.flushes,
            "axi": self.rtl.axi_tally(),
        })
    }
}

/// The `texel` beats of a fragment at (`x`, `y`) whose reads were `fetches`, recorded in
/// `cycle` as the model's TEX records them.
fn texel_beats(
    cycle: u64,
    x: u16,
    y: u16,
    fetches: &[TexFetch],
) -> impl Iterator<Item = TexelBeat> + '_ {
    fetches.iter().map(move |t| TexelBeat {
        cycle,
        x,
        y,
        unit: t.fetch.unit,
        addr: t.fetch.addr,
        raw: t.fetch.raw,
        rgba: u32::from_le_bytes(t.fetch.rgba),
    })
}

pub(super) fn attach_tex(gpu: &mut Gpu, opts: &StageOptions) -> Result<(), StageError> {
    gpu.replace_stage::<TexStage>(Box::new(TexAdapter::new(
        opts.tex_variant,
        opts.mem_latency,
        opts.mem_reorder,
        opts.trace.clone(),
        opts.coverage.as_ref(),
    )?));
    Ok(())
}
