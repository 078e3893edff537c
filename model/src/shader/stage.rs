//! SH: the four shader units as one stage of the cycle-stepped core.
//!
//! - With GPUREG_GEOSTAGE_CONFIG bits 0-1 = 2 units 0-2 run the vertex shader and unit 3 the
//!   geometry shader; otherwise all four run the vertex shader (pica-facts §1).
//! - Vertices arrive on the `input` link (attributes as raw f24), are dispatched to the idle VS
//!   unit with the lowest index, run one instruction per cycle
//!   ([`timing::SHADER_INSTRUCTIONS_PER_CYCLE`]) and leave in input order on the `output`
//!   link (the enabled outputs of GPUREG_VSH_OUTMAP_MASK), or, with the GS in use, feed the
//!   GS input assembler ([`super::io::GsAssembler`]) whose invocations run on unit 3; every
//!   EMIT of the GS leaves as a [`ShadedItem::GsVertex`].
//! - VL also sends two marker items on the `input` link ([`ShIn`]), each carrying the `seq` of
//!   the next vertex it sends, so that they act in order with the VS outputs (which leave the
//!   units in `seq` order): [`ShIn::Begin`] at the start of every draw and immediate-mode batch
//!   with the GS in use, where the GS input assembler reads its configuration
//!   ([`io::GsSetup`]; knob `gs-new-draw`), and [`ShIn::GsCount`], the vertex count of the next
//!   primitive in variable-size mode. A marker acts once every vertex before it has left the
//!   VS units; the stage holds at most [`timing::SH_MARKER_DEPTH`] of them.
//! - Beats: one [`ShaderBeat`] per input register loaded (channel `shader_in`) and per output
//!   register sent (channel `shader_out`); a GS invocation's float uniforms written by the
//!   input assembler (fixed and variable modes; variable mode's vertex count in c0) are
//!   `shader_in` beats with `reg` = 0x20 + the uniform index (the shader's source numbering).
//! - The stage reads the unit configuration of REGS as it stood at the start of the cycle
//!   (the GPU ticks it before REGS), so results do not depend on stage order.

use super::interp::{Commit, Emitted, JitCache, Knobs, ShaderUnit, Step, Vec4};
use super::io::{self, GsAssembler, GsInvocation, GsSetup};
use crate::beat::{CommitBeat, ShaderBeat};
use crate::knobs::GsNewDraw;
use crate::link::Link;
use crate::outcome::HangReason;
use crate::regfile::unit::{UnitConfig, FLOAT_UNIFORMS, GS_UNIT, NUM_UNITS};
use crate::regfile::RegFile;
use crate::regs::id;
use crate::timing;
use serde_json::json;
use std::collections::VecDeque;

/// A vertex for the vertex shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexIn {
    /// Sequence number (vertex order of the draw).
    pub seq: u32,
    /// Attributes in input-buffer order.
    pub attrs: Vec<Vec4>,
}

/// What VL sends to the shader stage (the `vs_in` link).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShIn {
    /// A vertex for the vertex shader.
    Vertex(VertexIn),
    /// A draw or an immediate-mode batch begins with the GS in use: the GS input assembler
    /// reads its configuration once every vertex before `seq` has left the VS units
    /// ([`io::GsSetup`], knob `gs-new-draw`).
    Begin {
        /// The `seq` of the next vertex VL sends.
        seq: u32,
    },
    /// Variable-size GS mode: the index-buffer entry that gives the next primitive's vertex
    /// count (it is not a vertex; [`io::GsAssembler::submit_count`]).
    GsCount {
        /// The `seq` of the next vertex VL sends.
        seq: u32,
        /// The vertex count.
        count: u16,
    },
}

impl From<VertexIn> for ShIn {
    fn from(v: VertexIn) -> Self {
        ShIn::Vertex(v)
    }
}

impl ShIn {
    /// The vertex's `seq`, or the marker's (the next vertex's).
    pub fn seq(&self) -> u32 {
        match self {
            ShIn::Vertex(v) => v.seq,
            ShIn::Begin { seq } | ShIn::GsCount { seq, .. } => *seq,
        }
    }
}

/// What the shader stage sends on to primitive assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShadedItem {
    /// A VS output vertex: the enabled output registers with their index.
    Vertex {
        /// Sequence number of the input vertex.
        seq: u32,
        /// `(register, value)` in register order.
        outputs: Vec<(u8, Vec4)>,
    },
    /// One GS EMIT, with its enabled outputs.
    GsVertex {
        /// GS invocation number.
        invocation: u32,
        /// What the EMIT produced.
        emitted: Box<Emitted>,
    },
}

#[derive(Clone, Debug)]
struct Slot {
    unit: ShaderUnit,
    /// Sequence number of the vertex being shaded.
    job: Option<u32>,
    /// The `seq` of the finished vertex waiting for its turn to leave.
    done: Option<u32>,
    /// Its enabled outputs, handed to the item it leaves in. Apart from `done` because the
    /// copies of an `Option<(u32, Vec)>` into place were loads wider than the stores that
    /// built them (store-forwarding stalls, 4 % of the four-unit benchmark).
    outputs: Vec<(u8, Vec4)>,
    /// The stretch the unit ran ahead, waiting for the cycle its last step belongs to.
    ahead: Option<Stretch>,
    /// The PC after each step of the current stretch ([`RUN_AHEAD_STEPS`] entries).
    pcs: Vec<u16>,
}

/// Steps a unit runs ahead at most at once (a shader that loops for ever runs in stretches of
/// this many, one per as many cycles).
pub const RUN_AHEAD_STEPS: usize = 1024;

/// Up to [`RUN_AHEAD_STEPS`] steps a VS unit ran at once, in the cycle its first step belongs
/// to (see [`ShaderCore::set_run_ahead`]).
#[derive(Clone, Debug)]
struct Stretch {
    /// The cycle of the first step.
    start: u64,
    /// Steps taken (the END or hanging step included).
    steps: u64,
    /// The cycle the last step belongs to: the stretch ends in that cycle's tick.
    last: u64,
    /// How the last step ended.
    end: Step,
    /// The unit's PC before the first step.
    pc_before: u16,
    /// The last cycle whose tick reached this unit (steps up to it are visible in
    /// [`ShaderCore::executed`] and [`ShaderCore::snapshot`]).
    seen: u64,
}

impl Stretch {
    /// Steps the one-instruction-per-cycle model would have taken by the end of the last
    /// cycle that reached the unit: [`Self::seen`], or `quiet` (a cycle the stage skipped,
    /// see [`ShaderCore::tick`]) if later.
    fn visible(&self, quiet: u64) -> u64 {
        let ipc = u64::from(timing::SHADER_INSTRUCTIONS_PER_CYCLE);
        (self.seen.max(quiet) + 1)
            .saturating_sub(self.start)
            .saturating_mul(ipc)
            .min(self.steps)
    }
}

#[derive(Clone, Debug)]
struct GsState {
    /// Rebuilt at every [`ShIn::Begin`]; made from the registers the first cycle the GS is on
    /// when no Begin came (a stage driven without VL).
    assembler: GsAssembler,
    queue: VecDeque<GsInvocation>,
    /// The configuration the running invocation uses (REGS's unit 3 plus the assembler's
    /// uniform writes and b15).
    cfg: Option<UnitConfig>,
    emitted: VecDeque<ShadedItem>,
    invocations: u32,
    /// b15 is set after each GS run (pica-facts §1) until REGS writes the bool uniforms.
    b15_set: bool,
    last_bools: u16,
}

/// The SH stage.
#[derive(Clone, Debug)]
pub struct ShaderCore {
    slots: Vec<Slot>,
    next_out: u32,
    gs: Option<GsState>,
    /// Markers taken from the input, waiting for the vertices before them to leave (at most
    /// [`timing::SH_MARKER_DEPTH`]).
    markers: VecDeque<ShIn>,
    knobs: Knobs,
    record_beats: bool,
    /// Whether every retired instruction is recorded on the `commit` channel (off by default:
    /// it costs a record per instruction).
    record_commits: bool,
    /// Copies of everything sent on, when kept ([`ShaderCore::set_keep_output`]).
    output_log: Option<Vec<ShadedItem>>,
    /// Instructions executed by each unit (a pending stretch's steps are added when it ends).
    executed: [u64; NUM_UNITS],
    /// Whether VS units run ahead ([`ShaderCore::set_run_ahead`]).
    run_ahead: bool,
    /// Whether an idle cycle returns at once ([`ShaderCore::set_skip_idle`]).
    skip_idle: bool,
    /// While every unit is in a stretch, the first cycle one of them ends: the cycles
    /// before it have nothing to do (0: no such cycle).
    wake: u64,
    /// The last cycle skipped that way.
    quiet: u64,
    /// Instructions executed per 6-bit opcode, when counted ([`ShaderCore::set_count_opcodes`]).
    opcodes: Option<Box<[u64; 64]>>,
    /// The units' compiled blocks, lent to the unit that runs ([`JitCache`]).
    jit: JitCache,
}

/// What SH touches in one cycle.
pub struct ShaderPorts<'a> {
    /// Configuration (REGS, start-of-cycle state).
    pub regs: &'a RegFile,
    /// Vertices (and VL's markers) in.
    pub input: &'a mut Link<ShIn>,
    /// Shaded vertices out.
    pub output: &'a mut Link<ShadedItem>,
    /// Input-register beats.
    pub beats_in: &'a mut Vec<ShaderBeat>,
    /// Output-register beats.
    pub beats_out: &'a mut Vec<ShaderBeat>,
    /// Retired instructions (when [`ShaderCore::set_record_commits`] is on).
    pub commits: &'a mut Vec<CommitBeat>,
}

fn beat(cycle: u64, unit: usize, seq: u32, reg: u8, v: &Vec4) -> ShaderBeat {
    ShaderBeat {
        cycle,
        unit: unit as u8,
        seq,
        reg,
        xyzw: v.map(|c| c.bits()),
    }
}

/// The hang of unit `u`.
fn shader_hang(u: usize, h: super::interp::Hang) -> HangReason {
    HangReason::Shader {
        unit: u as u8,
        pc: h.pc,
        word: h.word,
        reason: h.kind,
    }
}

impl Slot {
    /// The vertex `seq` ended: its enabled outputs wait for their turn to leave.
    fn finish_vertex(&mut self, seq: u32, cfg: &UnitConfig) {
        self.job = None;
        self.done = Some(seq);
        self.outputs = io::masked_outputs(cfg, self.unit.outputs());
    }

    /// Runs up to [`RUN_AHEAD_STEPS`] steps now, the first of which belongs to `cycle`.
    fn begin_stretch(
        &mut self,
        cycle: u64,
        cfg: &UnitConfig,
        emitted: &mut Vec<Emitted>,
        jit: &mut JitCache,
    ) {
        let pc_before = self.unit.pc;
        // The stage's compiled blocks, lent for the stretch.
        self.unit.swap_jit_cache(jit);
        let (steps, end) = self.unit.run_stretch(cfg, &mut self.pcs, emitted);
        self.unit.swap_jit_cache(jit);
        let ipc = u64::from(timing::SHADER_INSTRUCTIONS_PER_CYCLE);
        let steps = steps as u64;
        self.ahead = Some(Stretch {
            start: cycle,
            steps,
            last: cycle + steps.div_ceil(ipc) - 1,
            end,
            pc_before,
            seen: cycle,
        });
    }

    /// This cycle's part of the stretch: nothing until the cycle of its last step, then what
    /// that step did (the vertex ends, the unit hangs, or the next stretch begins next cycle).
    fn advance_stretch(
        &mut self,
        u: usize,
        seq: u32,
        cycle: u64,
        cfg: &UnitConfig,
        executed: &mut u64,
    ) -> Result<(), HangReason> {
        let Some(a) = &mut self.ahead else {
            return Ok(());
        };
        a.seen = cycle;
        if cycle < a.last {
            return Ok(());
        }
        let Some(a) = self.ahead.take() else {
            return Ok(());
        };
        *executed += a.steps;
        match a.end {
            Step::Continue => Ok(()),
            Step::End => {
                self.finish_vertex(seq, cfg);
                Ok(())
            }
            Step::Hang(h) => Err(shader_hang(u, h)),
        }
    }

    /// The unit's PC as stepping one instruction per cycle would have left it (`quiet`: see
    /// [`Stretch::visible`]).
    fn visible_pc(&self, quiet: u64) -> u16 {
        match &self.ahead {
            None => self.unit.pc,
            Some(a) => match a.visible(quiet) {
                0 => a.pc_before,
                n => self.pcs[(n - 1) as usize],
            },
        }
    }
}

/// Moves the markers at the head of `input` into `markers` while it has room.
fn take_markers(markers: &mut VecDeque<ShIn>, input: &mut Link<ShIn>) {
    while markers.len() < timing::SH_MARKER_DEPTH
        && matches!(
            input.peek(),
            Some(ShIn::Begin { .. } | ShIn::GsCount { .. })
        )
    {
        match input.pop() {
            Some(m) => markers.push_back(m),
            None => break,
        }
    }
}

/// A draw or immediate-mode batch begins ([`ShIn::Begin`]): the GS input assembler reads the
/// configuration of `regs` and starts empty — UNVERIFIED(hw) [fact: gs-config-per-draw] (see
/// [`io`]'s docs) — unless knob `gs-new-draw=keep` and the configuration is the one it has.
fn begin_draw(g: &mut GsState, regs: &RegFile) {
    let Some(setup) = GsSetup::from_regs(regs) else {
        return;
    };
    let keep = regs.knobs().gs_new_draw == GsNewDraw::Keep && g.assembler.setup() == setup;
    if !keep {
        g.assembler = GsAssembler::for_setup(setup);
    }
}

/// Loads vertex `v` into unit `u` (through the unit's input permutation, with the input
/// beats) and starts it.
fn load_vertex(
    cycle: u64,
    u: usize,
    slot: &mut Slot,
    cfg: &UnitConfig,
    v: VertexIn,
    record_beats: bool,
    beats_in: &mut Vec<ShaderBeat>,
) {
    io::load_inputs(cfg, &v.attrs, &mut slot.unit.inputs);
    if record_beats {
        for n in 0..v.attrs.len().min(io::input_count(cfg)) {
            let r = io::input_register(cfg, n);
            beats_in.push(beat(cycle, u, v.seq, r as u8, &slot.unit.inputs[r]));
        }
    }
    // Each unit starts at its own entry point: units 0-2 hold the VSH block's; unit 3, running
    // a VS, holds whatever reached it last — the VSH block's, propagated while COM_MODE bit 0
    // is 0, or a later GSH_ENTRYPOINT write (regfile: knob `regs-unit3-config`).
    slot.unit.start(cfg.entry_point);
    slot.job = Some(v.seq);
}

impl Default for ShaderCore {
    fn default() -> Self {
        Self::new(Knobs::default())
    }
}

impl ShaderCore {
    /// Four idle units with `knobs`.
    pub fn new(knobs: Knobs) -> Self {
        let mut core = Self {
            slots: (0..NUM_UNITS)
                .map(|_| Slot {
                    unit: ShaderUnit::new(knobs),
                    job: None,
                    done: None,
                    outputs: Vec::new(),
                    ahead: None,
                    pcs: vec![0; RUN_AHEAD_STEPS],
                })
                .collect(),
            next_out: 0,
            gs: None,
            markers: VecDeque::new(),
            knobs,
            record_beats: true,
            record_commits: false,
            output_log: None,
            executed: [0; NUM_UNITS],
            run_ahead: true,
            skip_idle: true,
            wake: 0,
            quiet: 0,
            opcodes: None,
            jit: JitCache::default(),
        };
        // One JIT for the four units (they run one vertex program).
        let threshold = core.slots.first().and_then(|s| s.unit.jit_threshold());
        core.set_jit(threshold);
        core
    }

    /// Turns run-ahead on (the default) or off. With it on, a unit running the vertex shader
    /// (no GS, commit trace off) runs its vertex to END (or a hang, or [`RUN_AHEAD_STEPS`]
    /// steps) in the cycle of its first instruction and holds the result until the cycle its
    /// last instruction belongs to at [`timing::SHADER_INSTRUCTIONS_PER_CYCLE`]: beats,
    /// outputs, cycle counts, hangs, [`Self::executed`] and [`Self::snapshot`] are the same
    /// as stepping one instruction per cycle (REGS holds register writes while a draw is in
    /// flight, so the configuration cannot change under a running vertex; `testbench/tests/
    /// shader_run_ahead.rs` compares the two). It saves the per-cycle call into each unit.
    /// Turning the commit trace on while a unit is in a stretch records from its next stretch.
    pub fn set_run_ahead(&mut self, on: bool) {
        self.run_ahead = on;
    }

    /// Sets the shader JIT of the units ([`ShaderUnit::set_jit`]: `Some(threshold)` on,
    /// `None` off; on with [`crate::shader::interp::JIT_THRESHOLD`] by default), one JIT
    /// shared by the four ([`JitCache`]: a block is compiled once for all). It serves
    /// run-ahead stretches (VS units, commit trace off); the same beats, cycles, outcome and
    /// registers either way (`model/tests/shader_fast.rs`).
    pub fn set_jit(&mut self, threshold: Option<u32>) {
        for s in &mut self.slots {
            s.unit.set_jit(threshold);
        }
        self.jit = JitCache::default();
    }

    /// Blocks the units' shared JIT has compiled ([`JitCache::blocks`]).
    pub fn jit_blocks(&self) -> u32 {
        self.jit.blocks()
    }

    /// Turns the idle shortcut on (the default) or off: with no vertex in flight and none
    /// queued, a cycle returns at once instead of walking the three phases (which would do
    /// nothing).
    pub fn set_skip_idle(&mut self, on: bool) {
        self.skip_idle = on;
    }

    /// Whether [`ShaderCore::tick`] with nothing arriving returns at once and changes
    /// nothing, now and in every later cycle until something arrives or the core is changed
    /// from outside: the idle shortcut is on and no vertex, marker or GS work is in flight.
    /// `Some(has_gs)`: so, except in a cycle that switches the GS on for the first time
    /// (`has_gs` false and GEOSTAGE_CONFIG's mode 2: that cycle makes the GS state). `None`:
    /// not so.
    pub fn quiet(&self) -> Option<bool> {
        (self.skip_idle && self.is_idle()).then_some(self.gs.is_some())
    }

    /// Counts executed instructions per opcode (off by default; for functional coverage,
    /// `crate::cov`). On, every cycle takes the general path of [`ShaderCore::tick`].
    pub fn set_count_opcodes(&mut self, on: bool) {
        self.opcodes = on.then(|| Box::new([0; 64]));
    }

    /// Instructions executed per 6-bit opcode so far, if counted.
    pub fn opcode_counts(&self) -> Option<&[u64; 64]> {
        self.opcodes.as_deref()
    }

    /// Turns beat recording on or off.
    pub fn set_record_beats(&mut self, on: bool) {
        self.record_beats = on;
    }

    /// Turns recording of the `commit` channel on or off (default off).
    pub fn set_record_commits(&mut self, on: bool) {
        self.record_commits = on;
    }

    /// Whether the `commit` channel is recorded.
    pub fn record_commits(&self) -> bool {
        self.record_commits
    }

    /// Keeps a copy of every item sent on (for tests and tools; off by default).
    pub fn set_keep_output(&mut self, on: bool) {
        self.output_log = on.then(Vec::new);
    }

    /// What the stage sent on so far, if kept ([`ShaderCore::set_keep_output`]).
    pub fn output_log(&self) -> &[ShadedItem] {
        self.output_log.as_deref().unwrap_or(&[])
    }

    /// Instructions executed per unit so far.
    pub fn executed(&self) -> [u64; NUM_UNITS] {
        let mut e = self.executed;
        for (n, s) in e.iter_mut().zip(&self.slots) {
            *n += s.ahead.as_ref().map_or(0, |a| a.visible(self.quiet));
        }
        e
    }

    /// Returns to the power-on state.
    pub fn reset(&mut self) {
        let (commits, ahead, skip) = (self.record_commits, self.run_ahead, self.skip_idle);
        let opcodes = self.opcodes.is_some();
        *self = Self::new(self.knobs);
        self.record_commits = commits;
        self.run_ahead = ahead;
        self.skip_idle = skip;
        self.set_count_opcodes(opcodes);
    }

    /// Whether no vertex is in flight.
    pub fn is_idle(&self) -> bool {
        self.slots
            .iter()
            .all(|s| s.job.is_none() && s.done.is_none())
            && self.markers.is_empty()
            && self
                .gs
                .as_ref()
                .is_none_or(|g| g.queue.is_empty() && g.cfg.is_none() && g.emitted.is_empty())
    }

    /// Internal state for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({
            "units": self.slots.iter().map(|s| json!({
                "busy": s.job, "pc": s.visible_pc(self.quiet), "done": s.done,
            })).collect::<Vec<_>>(),
            "next_out": self.next_out,
            "gs_queue": self.gs.as_ref().map(|g| g.queue.len()),
            "gs_setup": self.gs.as_ref().map(|g| g.assembler.setup()),
            "markers": self.markers.len(),
            "executed": self.executed(),
        })
    }

    /// Whether no unit has a vertex running or waiting to leave.
    fn slots_idle(&self) -> bool {
        self.slots
            .iter()
            .all(|s| s.job.is_none() && s.done.is_none())
    }

    /// [`Self::tick`] when all four units run the vertex shader, no GS state exists and the
    /// commit trace is off: the same three phases without the GS and commit paths (keep the
    /// two in step; `model/tests/shader_fast.rs` compares them cycle by cycle).
    fn tick_vs(&mut self, cycle: u64, ports: ShaderPorts<'_>) -> Result<(), HangReason> {
        if self.skip_idle && ports.input.is_empty() && self.slots_idle() {
            // Nothing in flight and nothing arriving (most cycles of a run without draws).
            return Ok(());
        }
        if cycle < self.wake {
            // Every unit is in a stretch that ends later: no vertex can leave or arrive.
            self.quiet = cycle;
            return Ok(());
        }
        let units = ports.regs.units();

        // 1. Retire: the vertex whose turn it is leaves (one per cycle).
        let next_out = self.next_out;
        if let Some(u) = self.slots.iter().position(|s| s.done == Some(next_out)) {
            if ports.output.can_push() {
                if let Some(seq) = self.slots[u].done.take() {
                    let outputs = std::mem::take(&mut self.slots[u].outputs);
                    self.send_vertex(cycle, u, seq, outputs, ports.output, ports.beats_out)?;
                    self.next_out += 1;
                }
            }
        }

        // 2. Execute one instruction on every busy unit (or run it ahead).
        // What VS units EMIT is dropped (only the GS's EMITs leave the stage).
        let mut vs_emitted = Vec::new();
        for (u, slot) in self.slots.iter_mut().enumerate() {
            let Some(seq) = slot.job else { continue };
            let cfg = &units[u];
            if self.run_ahead && slot.ahead.is_none() {
                slot.begin_stretch(cycle, cfg, &mut vs_emitted, &mut self.jit);
            }
            if slot.ahead.is_some() {
                slot.advance_stretch(u, seq, cycle, cfg, &mut self.executed[u])?;
                continue;
            }
            for _ in 0..timing::SHADER_INSTRUCTIONS_PER_CYCLE {
                self.executed[u] += 1;
                let out = slot.unit.step(cfg, None, &mut vs_emitted);
                if !vs_emitted.is_empty() {
                    vs_emitted.clear();
                }
                match out {
                    Step::Continue => continue,
                    Step::End => {
                        slot.finish_vertex(seq, cfg);
                        break;
                    }
                    Step::Hang(h) => return Err(shader_hang(u, h)),
                }
            }
        }

        // 3. Dispatch: idle units take the next vertex. VL sends markers only with the GS in
        // use, which this path does not run: one that arrives anyway has nothing to act on.
        for (u, slot) in self.slots.iter_mut().enumerate() {
            if slot.job.is_some() || slot.done.is_some() {
                continue;
            }
            let v = loop {
                match ports.input.pop() {
                    Some(ShIn::Vertex(v)) => break Some(v),
                    Some(_) => continue,
                    None => break None,
                }
            };
            let Some(v) = v else { break };
            load_vertex(
                cycle,
                u,
                slot,
                &units[u],
                v,
                self.record_beats,
                ports.beats_in,
            );
        }
        self.wake = if self.slots.iter().all(|s| s.ahead.is_some()) {
            self.slots
                .iter()
                .filter_map(|s| s.ahead.as_ref().map(|a| a.last))
                .min()
                .unwrap_or(0)
        } else {
            0
        };
        Ok(())
    }

    /// Sends a finished VS vertex on (with its output beats and the log copy).
    fn send_vertex(
        &mut self,
        cycle: u64,
        u: usize,
        seq: u32,
        outputs: Vec<(u8, Vec4)>,
        output: &mut Link<ShadedItem>,
        beats_out: &mut Vec<ShaderBeat>,
    ) -> Result<(), HangReason> {
        if self.record_beats {
            for (r, v) in &outputs {
                beats_out.push(beat(cycle, u, seq, *r, v));
            }
        }
        let item = ShadedItem::Vertex { seq, outputs };
        if let Some(log) = &mut self.output_log {
            log.push(item.clone());
        }
        output
            .push(item)
            .map_err(|e| HangReason::Internal(e.to_string()))
    }

    /// Advances every unit by one cycle. An `Err` means a unit hangs.
    pub fn tick(&mut self, cycle: u64, ports: ShaderPorts<'_>) -> Result<(), HangReason> {
        let regs = ports.regs;
        let gs_on = regs.reg(id::GEOSTAGE_CONFIG.into()) & 3 == 2;
        if !gs_on
            && self.gs.is_none()
            && self.markers.is_empty()
            && !self.record_commits
            && self.opcodes.is_none()
        {
            return self.tick_vs(cycle, ports);
        }
        if self.skip_idle
            && ports.input.is_empty()
            && self.slots_idle()
            && self.markers.is_empty()
            && match &self.gs {
                // The GS state is made on the first cycle GS is on: that cycle must run.
                None => !gs_on,
                Some(g) => g.queue.is_empty() && g.emitted.is_empty(),
            }
        {
            // Nothing in flight, queued or arriving: the three phases below would do nothing
            // (the GS's bool-uniform watch is read only when an invocation is dispatched).
            return Ok(());
        }
        let vs_units = if gs_on { GS_UNIT } else { NUM_UNITS };
        if let (Some(setup), None) = (GsSetup::from_regs(regs).filter(|_| gs_on), &self.gs) {
            // The GS state (b15, the invocation count, the queues) lives from the first cycle
            // the GS is on until reset; its input assembler is rebuilt at every draw
            // (ShIn::Begin). This first one serves only a stage driven without VL's markers.
            let cfg = &regs.units()[GS_UNIT];
            self.gs = Some(GsState {
                assembler: GsAssembler::for_setup(setup),
                queue: VecDeque::new(),
                cfg: None,
                emitted: VecDeque::new(),
                invocations: 0,
                b15_set: false,
                last_bools: cfg.bool_uniforms,
            });
        }
        let units = regs.units();

        // 0. Markers whose turn it is (every vertex before them has left) act before the
        // vertex of their `seq` leaves.
        while let Some(m) = self.markers.front() {
            if (m.seq().wrapping_sub(self.next_out) as i32) > 0 {
                break;
            }
            let gs = self.gs.as_mut().filter(|_| gs_on);
            match (m, gs) {
                (ShIn::Begin { .. }, Some(g)) => begin_draw(g, regs),
                (&ShIn::GsCount { count, .. }, Some(g)) => {
                    // A count may complete a primitive (count 0): it needs room in the queue.
                    if g.queue.len() >= timing::GS_INVOCATION_QUEUE_DEPTH {
                        break;
                    }
                    if let Some(inv) = g.assembler.submit_count(count) {
                        g.queue.push_back(inv);
                    }
                }
                // With the GS off a marker has nothing to act on (VL sends none then).
                _ => {}
            }
            self.markers.pop_front();
        }

        // 1. Retire: the vertex whose turn it is leaves (one per cycle).
        let mut out_budget = timing::SHADER_OUTPUTS_PER_CYCLE;
        let next_out = self.next_out;
        if let Some(u) = self.slots.iter().position(|s| s.done == Some(next_out)) {
            let gs = self.gs.as_mut().filter(|_| gs_on);
            let room = match &gs {
                // A waiting invocation holds the VS result back (bounded, see timing).
                Some(g) => g.queue.len() < timing::GS_INVOCATION_QUEUE_DEPTH,
                None => ports.output.can_push(),
            };
            if room {
                if let Some(seq) = self.slots[u].done.take() {
                    let outputs = std::mem::take(&mut self.slots[u].outputs);
                    match gs {
                        Some(g) => {
                            let attrs: Vec<Vec4> = outputs.iter().map(|o| o.1).collect();
                            if let Some(inv) = g.assembler.submit_vertex(&attrs) {
                                g.queue.push_back(inv);
                            }
                        }
                        None => {
                            out_budget = out_budget.saturating_sub(1);
                            self.send_vertex(
                                cycle,
                                u,
                                seq,
                                outputs,
                                ports.output,
                                ports.beats_out,
                            )?;
                        }
                    }
                    self.next_out += 1;
                }
            }
        }
        // GS emits leave one per cycle when the output has room.
        if let Some(g) = &mut self.gs {
            if out_budget > 0 && ports.output.can_push() {
                if let Some(item) = g.emitted.pop_front() {
                    if let (
                        true,
                        ShadedItem::GsVertex {
                            invocation,
                            emitted,
                        },
                    ) = (self.record_beats, &item)
                    {
                        let cfg = &units[GS_UNIT];
                        for (r, v) in io::masked_outputs(cfg, &emitted.outputs) {
                            ports
                                .beats_out
                                .push(beat(cycle, GS_UNIT, *invocation, r, &v));
                        }
                    }
                    if let Some(log) = &mut self.output_log {
                        log.push(item.clone());
                    }
                    ports
                        .output
                        .push(item)
                        .map_err(|e| HangReason::Internal(e.to_string()))?;
                }
            }
        }

        // 2. Execute one instruction on every busy unit.
        for (u, slot) in self.slots.iter_mut().enumerate() {
            let Some(seq) = slot.job else { continue };
            if slot.ahead.is_some() {
                // A stretch begun by the VS-only tick ends as it began.
                slot.advance_stretch(u, seq, cycle, &units[u], &mut self.executed[u])?;
                continue;
            }
            let is_gs = gs_on && u == GS_UNIT;
            // Unit 3 waits while its EMIT buffer is full: each instruction may EMIT once.
            if is_gs
                && self.gs.as_ref().is_some_and(|g| {
                    g.emitted.len() + timing::SHADER_INSTRUCTIONS_PER_CYCLE as usize
                        > timing::GS_EMIT_BUFFER_DEPTH
                })
            {
                continue;
            }
            let mut emitted = Vec::new();
            let cfg = if is_gs {
                match self.gs.as_ref().and_then(|g| g.cfg.as_ref()) {
                    Some(c) => c,
                    None => &units[GS_UNIT],
                }
            } else {
                &units[u]
            };
            for _ in 0..timing::SHADER_INSTRUCTIONS_PER_CYCLE {
                self.executed[u] += 1;
                if let Some(h) = self.opcodes.as_deref_mut() {
                    let word = cfg
                        .code
                        .get(usize::from(slot.unit.pc))
                        .copied()
                        .unwrap_or(0);
                    h[(word >> 26) as usize] += 1;
                }
                let step = if self.record_commits {
                    let mut c = Commit::default();
                    let step = slot.unit.step_commit(cfg, &mut emitted, &mut c);
                    let key = if is_gs {
                        seq | CommitBeat::GS_SEQ_FLAG
                    } else {
                        seq
                    };
                    ports.commits.push(CommitBeat::new(cycle, u as u8, key, &c));
                    step
                } else {
                    slot.unit.step(cfg, None, &mut emitted)
                };
                match step {
                    Step::Continue => continue,
                    Step::End => {
                        slot.job = None;
                        if !is_gs {
                            slot.done = Some(seq);
                            slot.outputs = io::masked_outputs(cfg, slot.unit.outputs());
                        }
                        break;
                    }
                    Step::Hang(h) => return Err(shader_hang(u, h)),
                }
            }
            if is_gs {
                if let Some(g) = &mut self.gs {
                    for e in emitted {
                        g.emitted.push_back(ShadedItem::GsVertex {
                            invocation: seq,
                            emitted: Box::new(e),
                        });
                    }
                    if slot.job.is_none() {
                        g.cfg = None;
                        g.b15_set = true;
                    }
                }
            }
        }

        // 3. Dispatch: idle VS units take the next vertex (markers before it go to the marker
        // queue); unit 3 the next GS invocation.
        for (u, slot) in self.slots.iter_mut().enumerate().take(vs_units) {
            if slot.job.is_some() || slot.done.is_some() {
                continue;
            }
            take_markers(&mut self.markers, ports.input);
            if !matches!(ports.input.peek(), Some(ShIn::Vertex(_))) {
                break;
            }
            let Some(ShIn::Vertex(v)) = ports.input.pop() else {
                break;
            };
            load_vertex(
                cycle,
                u,
                slot,
                &units[u],
                v,
                self.record_beats,
                ports.beats_in,
            );
        }
        // Markers behind the last vertex (the end of a draw, or every unit busy).
        take_markers(&mut self.markers, ports.input);
        if let (true, Some(g)) = (gs_on, &mut self.gs) {
            let slot = &mut self.slots[GS_UNIT];
            if slot.job.is_none() {
                if let Some(inv) = g.queue.pop_front() {
                    let base = &units[GS_UNIT];
                    if base.bool_uniforms != g.last_bools {
                        g.b15_set = false;
                        g.last_bools = base.bool_uniforms;
                    }
                    let mut cfg = base.clone();
                    if g.b15_set {
                        cfg.bool_uniforms |= 1 << 15;
                    }
                    // UNVERIFIED(hw) [fact: gs-uniform-input-scope]: the assembler's uniforms
                    // override REGS' for this invocation only (Azahar writes them into the
                    // uniforms for good).
                    for (i, v) in &inv.uniforms {
                        if let Some(c) = cfg.float_uniforms.get_mut(*i) {
                            *c = *v;
                        }
                    }
                    io::load_inputs(&cfg, &inv.inputs, &mut slot.unit.inputs);
                    if self.record_beats {
                        for n in 0..inv.inputs.len().min(io::input_count(&cfg)) {
                            let r = io::input_register(&cfg, n);
                            ports.beats_in.push(beat(
                                cycle,
                                GS_UNIT,
                                g.invocations,
                                r as u8,
                                &slot.unit.inputs[r],
                            ));
                        }
                        // The assembler's uniforms as c-registers (0x20 + index).
                        for (i, v) in inv.uniforms.iter().filter(|u| u.0 < FLOAT_UNIFORMS) {
                            ports.beats_in.push(beat(
                                cycle,
                                GS_UNIT,
                                g.invocations,
                                0x20 + *i as u8,
                                v,
                            ));
                        }
                    }
                    slot.unit.start(cfg.entry_point);
                    slot.job = Some(g.invocations);
                    g.invocations += 1;
                    g.cfg = Some(cfg);
                }
            }
        }
        Ok(())
    }
}
