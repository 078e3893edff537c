//! The front end in a mixed run: `pica_top` (CP → REGS → SH) stepped in the same cycle loop as
//! the model GPU.
//!
//! When `fe` is listed together with pipeline rows (`--rtl-stages fe,sh`), one Verilated
//! `pica_top` serves both: its CP takes the case's command list (memory served from the case's
//! memory) exactly as [`crate::lockstep`] feeds it, and the rows that run inside it (a row's
//! [`StageRow::attach_in_top`](super::StageRow::attach_in_top): the SH stage) drive its stage
//! ports instead of a stage top of their own, so their configuration arrives through REGS and
//! not through [`RtlSh::sync_config`](pica_rtl_bridge::RtlSh::sync_config).
//!
//! [`FrontEndCheck`] is the `fe` row's [`CycleHook`]: every cycle it gives `pica_top` the
//! model's REGS hold (`hold_i`: the pipeline after REGS is busy) and compares the register-write
//! beat `pica_top` shows with the one the mixed GPU's model front end applied in the same cycle,
//! cycle stamps included, as [`crate::lockstep`] does; after the run it compares the whole debug
//! map (read straight out of the model: [`StateRead::Direct`]). `pica_top` is clocked once
//! per cycle: by the port of a row inside it when that row's slot ticks, otherwise by the hook.

use super::options::StageError;
use super::report::{StageDivergence, StageDivergenceKind};
use super::sh_port::{PortTick, ShPort};
use super::CycleHook;
use crate::lockstep::{beat_field_diffs, state_diffs, StateRead, HISTORY};
use pica_model::beat::RegWriteBeat;
use pica_model::regfile::RegFile;
use pica_model::shader::stage::ShIn;
use pica_model::Gpu;
use pica_rtl_bridge::shader::ShVariant;
use pica_rtl_bridge::{RtlGpu, Variant};
use pica_vectors::bundle::beat_json;
use pica_vectors::case::{Case, Step as CaseStep};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// Final-state differences listed in a report (the total is always given).
const STATE_DIFFS_SHOWN: usize = 16;

/// `pica_top` running one case, shared by the front-end check and the ports of the rows
/// inside it.
pub struct TopRun {
    rtl: RtlGpu,
    /// The model cycle `pica_top` was last clocked for.
    clocked: Option<u64>,
    /// Its register-write beat in that cycle.
    beat: Option<RegWriteBeat>,
}

/// A [`TopRun`] shared between the cycle hook and the stage ports.
pub type SharedTop = Rc<RefCell<TopRun>>;

impl TopRun {
    /// The `pica_top` build `fe_variant`, reset, with `case`'s command list submitted.
    /// `sh_variant` must be the default: no `pica_top` row carries a shader-unit bug (build.rs:
    /// each would cost one more Verilation of the four units; `--rtl-stages sh` has them in
    /// `pica_sh_top`). `sh_in_top` says the run's SH stage is `pica_top`'s own, which only the
    /// default build has (the injected-bug and mutant builds leave the shader units out).
    pub fn new(
        case: &Case,
        fe_variant: Variant,
        sh_variant: ShVariant,
        sh_in_top: bool,
    ) -> Result<SharedTop, StageError> {
        if sh_variant != ShVariant::Default {
            return Err(StageError::NoTopVariant(sh_variant.name()));
        }
        if sh_in_top && fe_variant != Variant::Default {
            return Err(StageError::NoShInTop(fe_variant.label()));
        }
        let rtl = crate::lockstep::rtl_gpu(case, fe_variant).map_err(|e| match e {
            crate::lockstep::LockstepError::Case(c) => StageError::from(c),
            crate::lockstep::LockstepError::Rtl(r) => StageError::from(r),
        })?;
        Ok(Rc::new(RefCell::new(Self {
            rtl,
            clocked: None,
            beat: None,
        })))
    }

    /// Clocks `pica_top` for model cycle `cycle`, unless that was done already.
    fn clock_for(&mut self, cycle: u64) {
        if self.clocked == Some(cycle) {
            return;
        }
        self.clocked = Some(cycle);
        self.beat = self.rtl.clock().beat;
    }
}

/// The `fe` row's per-cycle check in a mixed run (see the module docs).
pub struct FrontEndCheck {
    top: SharedTop,
    model_seen: usize,
    compared: usize,
    history: VecDeque<RegWriteBeat>,
    divergence: Option<StageDivergence>,
}

impl FrontEndCheck {
    /// The check of `top`.
    pub fn new(top: SharedTop) -> Self {
        Self {
            top,
            model_seen: 0,
            compared: 0,
            history: VecDeque::with_capacity(HISTORY),
            divergence: None,
        }
    }

    fn diverge(
        &mut self,
        kind: StageDivergenceKind,
        cycle: u64,
        want: Option<&RegWriteBeat>,
        got: Option<&RegWriteBeat>,
    ) {
        let fields = match (want, got) {
            (Some(w), Some(g)) => beat_field_diffs(w, g),
            _ => Vec::new(),
        };
        self.divergence = Some(StageDivergence {
            kind,
            channel: "regwrite".into(),
            key: None,
            index: self.compared,
            cycle,
            expected: want.map(beat_json),
            actual: got.map(beat_json),
            fields,
            instruction: None,
            operands: Vec::new(),
            before: self.history.iter().map(beat_json).collect(),
            note: Some(
                "cycle-exact: the mixed run's model front end against pica_top's, \
                 cycle by cycle"
                    .into(),
            ),
            vcd: None,
        });
    }
}

impl CycleHook for FrontEndCheck {
    fn before_step(&mut self, gpu: &Gpu) {
        // The hold asks the SH slot whether it is idle, which borrows the top: ask first.
        let hold = gpu.regs_hold();
        self.top.borrow_mut().rtl.set_hold(hold);
    }

    fn after_step(&mut self, gpu: &Gpu) {
        if self.divergence.is_some() {
            return;
        }
        let cycle = gpu.cycle().saturating_sub(1);
        let rb = {
            let mut t = self.top.borrow_mut();
            t.clock_for(cycle);
            t.beat
        };
        let mb = gpu.regwrite_beats().get(self.model_seen).copied();
        if mb.is_some() {
            self.model_seen += 1;
        }
        match (mb, rb) {
            (None, None) => {}
            (Some(m), Some(r)) if m == r => {
                if self.history.len() == HISTORY {
                    self.history.pop_front();
                }
                self.history.push_back(m);
                self.compared += 1;
            }
            (Some(m), Some(r)) => {
                self.diverge(StageDivergenceKind::BeatMismatch, cycle, Some(&m), Some(&r))
            }
            (Some(m), None) => {
                self.diverge(StageDivergenceKind::MissingBeat, cycle, Some(&m), None)
            }
            (None, Some(r)) => self.diverge(StageDivergenceKind::ExtraBeat, cycle, None, Some(&r)),
        }
    }

    fn divergence(&self) -> Option<&StageDivergence> {
        self.divergence.as_ref()
    }

    fn compared(&self) -> (&'static str, usize) {
        ("regwrite (cycle-exact)", self.compared)
    }

    fn on_step(&mut self, step: &CaseStep) {
        // The mixed GPU's model side did the step between two cycles (after its submission
        // finished, in the same cycle pica_top's did unless the beats already differ): do it
        // on pica_top's side, whose kick then starts its next list in this cycle.
        let mut t = self.top.borrow_mut();
        match step {
            CaseStep::Fill(f) => {
                let _ = f.apply(t.rtl.mem_mut());
            }
            CaseStep::Submit { addr, size } => t.rtl.submit(*addr, *size),
            CaseStep::Transfer(_) => {}
        }
    }

    fn finish(&mut self, gpu: &Gpu) -> Option<StageDivergence> {
        let (fields, total) = state_diffs(
            gpu.regs(),
            &mut self.top.borrow_mut().rtl,
            StateRead::Direct,
            STATE_DIFFS_SHOWN,
        );
        (total > 0).then(|| StageDivergence {
            kind: StageDivergenceKind::FinalState,
            channel: "final_state".into(),
            key: None,
            index: 0,
            cycle: gpu.cycle(),
            expected: None,
            actual: None,
            fields,
            instruction: None,
            operands: Vec::new(),
            before: Vec::new(),
            note: Some(format!(
                "{total} word(s) of the debug map differ between the mixed run's model REGS \
                 and pica_top's"
            )),
            vcd: None,
        })
    }
}

/// The SH stage inside `pica_top` as a [`ShPort`]: the vertex input, output and commit ports
/// of the same Verilated model the front-end check clocks; configured by REGS (no
/// `sync_config`).
pub struct TopShPort {
    top: SharedTop,
}

impl TopShPort {
    /// The port of `top`'s SH stage.
    pub fn new(top: SharedTop) -> Self {
        Self { top }
    }
}

impl ShPort for TopShPort {
    fn name(&self) -> String {
        "rtl:sh in pica_top (configured by REGS)".into()
    }

    fn sync_config(&mut self, _regs: &RegFile) {
        // The configuration arrives through pica_top's REGS.
    }

    fn can_accept(&self) -> bool {
        self.top.borrow_mut().rtl.sh_can_accept()
    }

    fn push(&mut self, item: &ShIn) {
        self.top.borrow_mut().rtl.sh_push(item);
    }

    fn tick(&mut self, cycle: u64, _regs: &RegFile, out_ready: bool) -> PortTick {
        let mut t = self.top.borrow_mut();
        t.rtl.set_sh_out_ready(out_ready);
        t.clock_for(cycle);
        // A cycle the slot does not tick (the hook clocks it) has nothing downstream holding.
        t.rtl.set_sh_out_ready(true);
        let s = t.rtl.take_sh();
        PortTick {
            output: s.output,
            commits: s.commits,
            hang: s.hang,
        }
    }

    fn is_idle(&self) -> bool {
        self.top.borrow_mut().rtl.sh_is_idle()
    }

    fn trace_start(&mut self, path: &std::path::Path) -> Result<(), StageError> {
        Ok(self.top.borrow_mut().rtl.rtl_mut().trace_vcd(path)?)
    }

    fn trace_stop(&mut self) {
        self.top.borrow_mut().rtl.rtl_mut().trace_off();
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::json!({ "rtl_cycle": self.top.borrow().rtl.cycle() })
    }
}
