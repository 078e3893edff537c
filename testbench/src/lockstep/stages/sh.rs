//! The SH row's port adapter: the model's SH links on one side, a shader stage port (the RTL
//! SH stage, or a model-backed double that tests the harness) on the other.

use super::options::{StageError, StageOptions, TraceWindow};
use super::sh_port::{PortTick, ShPort};
use pica_model::beat::{CommitBeat, ShaderBeat};
use pica_model::gpu::HangReason;
use pica_model::regfile::unit::GS_UNIT;
use pica_model::regfile::RegFile;
use pica_model::shader::interp::Knobs;
use pica_model::shader::io;
use pica_model::shader::stage::{ShIn, ShadedItem, ShaderCore, ShaderPorts};
use pica_model::stage::External;
use pica_model::Gpu;
use pica_rtl_bridge::coverage::{CoverageSink, Gathered};
use std::collections::BTreeMap;

/// The unit number recorded on `shader_in` beats the adapter writes: the port does not say
/// which unit a vertex goes to (the RTL dispatches it itself).
pub const UNIT_UNKNOWN: u8 = 0xFF;

/// Moves items between the model's SH links and a [`ShPort`] each cycle, with backpressure
/// both ways, and records the stage's channels as the model's SH would.
pub struct ShAdapter<P: ShPort> {
    port: P,
    commits: bool,
    trace: Option<TraceWindow>,
    tracing: bool,
}

impl<P: ShPort> ShAdapter<P> {
    /// An adapter around `port`.
    pub fn new(port: P, commits: bool, trace: Option<TraceWindow>) -> Self {
        Self {
            port,
            commits,
            trace,
            tracing: false,
        }
    }

    /// The port.
    pub fn port(&self) -> &P {
        &self.port
    }
}

fn shader_beat(
    cycle: u64,
    unit: u8,
    seq: u32,
    reg: u8,
    v: &[pica_model::num::F24; 4],
) -> ShaderBeat {
    ShaderBeat {
        cycle,
        unit,
        seq,
        reg,
        xyzw: v.map(|c| c.bits()),
    }
}

impl<P: ShPort> External<ShaderCore> for ShAdapter<P> {
    fn name(&self) -> String {
        self.port.name()
    }

    fn tick(&mut self, cycle: u64, ports: ShaderPorts<'_>) -> Result<(), HangReason> {
        if let Some(t) = &self.trace {
            if cycle == t.from && !self.tracing {
                // A VCD that cannot be opened is reported by the caller (no VCD path in the
                // report); the run itself goes on.
                self.tracing = self.port.trace_start(&t.path).is_ok();
            }
        }
        let regs = ports.regs;
        self.port.sync_config(regs);
        // Input: the model's VL pushes into `input`; one item per cycle crosses the port
        // while it is ready. The `shader_in` beats recorded here are the VS input registers
        // of the vertices handed over; the GS's inputs (point-mode registers, the uniforms of
        // fixed and variable modes with a count's c0) are assembled inside the RTL, and the
        // markers carry no register, so neither is recorded on this side.
        if self.port.can_accept() {
            if let Some(item) = ports.input.pop() {
                if let ShIn::Vertex(v) = &item {
                    let cfg = &regs.units()[0];
                    let mut loaded = [[pica_model::num::F24::ZERO; 4]; 16];
                    io::load_inputs(cfg, &v.attrs, &mut loaded);
                    for n in 0..v.attrs.len().min(io::input_count(cfg)) {
                        let r = io::input_register(cfg, n);
                        ports.beats_in.push(shader_beat(
                            cycle,
                            UNIT_UNKNOWN,
                            v.seq,
                            r as u8,
                            &loaded[r],
                        ));
                    }
                }
                self.port.push(&item);
            }
        }
        let t = self.port.tick(cycle, regs, ports.output.can_push());
        if let Some(item) = t.output {
            match &item {
                ShadedItem::Vertex { seq, outputs } => {
                    for (r, v) in outputs {
                        ports
                            .beats_out
                            .push(shader_beat(cycle, UNIT_UNKNOWN, *seq, *r, v));
                    }
                }
                ShadedItem::GsVertex {
                    invocation,
                    emitted,
                } => {
                    let cfg = &regs.units()[GS_UNIT];
                    for (r, v) in io::masked_outputs(cfg, &emitted.outputs) {
                        ports
                            .beats_out
                            .push(shader_beat(cycle, GS_UNIT as u8, *invocation, r, &v));
                    }
                }
            }
            ports
                .output
                .push(item)
                .map_err(|e| HangReason::Internal(e.to_string()))?;
        }
        if self.commits {
            // The port keys GS commits as the channel table does (bit 31 of seq).
            for mut c in t.commits {
                c.cycle = cycle;
                ports.commits.push(c);
            }
        }
        if let Some(t) = &self.trace {
            if cycle >= t.to && self.tracing {
                self.port.trace_stop();
                self.tracing = false;
            }
        }
        match t.hang {
            Some(h) => Err(h),
            None => Ok(()),
        }
    }

    fn is_idle(&self) -> bool {
        self.port.is_idle()
    }

    fn snapshot(&self) -> serde_json::Value {
        self.port.snapshot()
    }
}

pub(super) fn attach_sh(gpu: &mut Gpu, opts: &StageOptions) -> Result<(), StageError> {
    let port = RtlShPort::new(opts.sh_variant, opts.coverage.as_ref())?;
    gpu.replace_stage(Box::new(ShAdapter::new(
        port,
        opts.commits,
        opts.trace.clone(),
    )));
    Ok(())
}

/// The SH row inside `pica_top` (with `fe`): the model's SH slot served by `pica_top`'s SH
/// ports ([`super::fe::TopShPort`]), configured by its REGS.
pub(super) fn attach_sh_in_top(
    gpu: &mut Gpu,
    opts: &StageOptions,
    top: &super::SharedTop,
) -> Result<(), StageError> {
    let port = super::fe::TopShPort::new(top.clone());
    gpu.replace_stage(Box::new(ShAdapter::new(
        port,
        opts.commits,
        opts.trace.clone(),
    )));
    Ok(())
}

/// The RTL SH stage (`pica_sh_top`) as a [`ShPort`].
pub struct RtlShPort {
    rtl: Gathered<pica_rtl_bridge::RtlSh>,
}

impl RtlShPort {
    /// Builds the Verilated SH stage of `variant`.
    /// Its coverage build's counters go to `cov` when it is dropped.
    pub fn new(
        variant: pica_rtl_bridge::shader::ShVariant,
        cov: Option<&CoverageSink>,
    ) -> Result<Self, StageError> {
        Ok(Self {
            rtl: Gathered::new(pica_rtl_bridge::RtlSh::new(variant)?, cov),
        })
    }
}

impl ShPort for RtlShPort {
    fn name(&self) -> String {
        format!("rtl:sh ({})", self.rtl.variant().name())
    }

    fn sync_config(&mut self, regs: &RegFile) {
        self.rtl.sync_config(regs);
    }

    fn can_accept(&self) -> bool {
        self.rtl.can_accept()
    }

    fn push(&mut self, item: &ShIn) {
        self.rtl.push(item);
    }

    fn tick(&mut self, _cycle: u64, _regs: &RegFile, out_ready: bool) -> PortTick {
        let t = self.rtl.tick(out_ready);
        PortTick {
            output: t.output,
            commits: t.commits,
            hang: t.hang,
        }
    }

    fn is_idle(&self) -> bool {
        self.rtl.is_idle()
    }

    fn trace_start(&mut self, path: &std::path::Path) -> Result<(), StageError> {
        Ok(self.rtl.trace_vcd(path)?)
    }

    fn trace_stop(&mut self) {
        self.rtl.trace_close();
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::json!({ "rtl_cycles": self.rtl.cycles() })
    }
}

/// A fault [`ModelShPort`] injects, to prove the comparison catches and reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Flip bit 0 of lane x of the result of instruction `index` of vertex `seq` (in the
    /// commit record only).
    CommitResult {
        /// Vertex.
        seq: u32,
        /// Instruction index within the vertex's program.
        index: usize,
    },
    /// Flip bit 0 of lane x of the first output register of vertex `seq`.
    Output {
        /// Vertex.
        seq: u32,
    },
}

/// The model's SH stage behind a [`ShPort`], with extra output latency and an optional fault:
/// a double that tests the harness itself (the adapter's backpressure, the keyed commit
/// comparison, the reports) without RTL.
pub struct ModelShPort {
    core: ShaderCore,
    input: pica_model::link::Link<ShIn>,
    output: pica_model::link::Link<ShadedItem>,
    delayed: std::collections::VecDeque<(u64, ShadedItem)>,
    latency: u64,
    cycle: u64,
    commits: Vec<CommitBeat>,
    per_seq: BTreeMap<u32, usize>,
    fault: Option<Fault>,
    scratch_in: Vec<ShaderBeat>,
    scratch_out: Vec<ShaderBeat>,
}

impl ModelShPort {
    /// The model's four units with `knobs`; items leave `latency` cycles late.
    pub fn new(knobs: Knobs, latency: u64, fault: Option<Fault>) -> Self {
        let mut core = ShaderCore::new(knobs);
        core.set_record_beats(false);
        core.set_record_commits(true);
        Self {
            core,
            input: pica_model::link::Link::new("port_in", 2),
            output: pica_model::link::Link::new("port_out", 2),
            delayed: Default::default(),
            latency,
            cycle: 0,
            commits: Vec::new(),
            per_seq: BTreeMap::new(),
            fault,
            scratch_in: Vec::new(),
            scratch_out: Vec::new(),
        }
    }
}

impl ShPort for ModelShPort {
    fn name(&self) -> String {
        format!("model double (latency {})", self.latency)
    }

    fn sync_config(&mut self, _regs: &RegFile) {}

    fn can_accept(&self) -> bool {
        self.input.can_push()
    }

    fn push(&mut self, item: &ShIn) {
        // can_accept was checked: the push cannot fail.
        let _ = self.input.push(item.clone());
    }

    fn tick(&mut self, _cycle: u64, regs: &RegFile, out_ready: bool) -> PortTick {
        self.input.begin_cycle();
        self.output.begin_cycle();
        let r = self.core.tick(
            self.cycle,
            ShaderPorts {
                regs,
                input: &mut self.input,
                output: &mut self.output,
                beats_in: &mut self.scratch_in,
                beats_out: &mut self.scratch_out,
                commits: &mut self.commits,
            },
        );
        self.scratch_in.clear();
        self.scratch_out.clear();
        if self.delayed.len() < 4 {
            if let Some(item) = self.output.pop() {
                self.delayed.push_back((self.cycle + self.latency, item));
            }
        }
        let mut t = PortTick::default();
        if out_ready && self.delayed.front().is_some_and(|d| d.0 <= self.cycle) {
            if let Some((_, mut item)) = self.delayed.pop_front() {
                if let (Some(Fault::Output { seq }), ShadedItem::Vertex { seq: s, outputs }) =
                    (self.fault, &mut item)
                {
                    if seq == *s {
                        if let Some(o) = outputs.first_mut() {
                            o.1[0] = pica_model::num::F24::from_bits(o.1[0].bits() ^ 1);
                        }
                    }
                }
                t.output = Some(item);
            }
        }
        for mut c in self.commits.drain(..) {
            let n = self.per_seq.entry(c.seq).or_insert(0);
            if self.fault
                == Some(Fault::CommitResult {
                    seq: c.seq,
                    index: *n,
                })
            {
                c.result[0] ^= 1;
            }
            *n += 1;
            t.commits.push(c);
        }
        t.hang = r.err();
        self.cycle += 1;
        t
    }

    fn is_idle(&self) -> bool {
        self.core.is_idle()
            && self.input.is_empty()
            && self.output.is_empty()
            && self.delayed.is_empty()
    }
}
