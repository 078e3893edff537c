//! REGS: the register file and the data-transfer FIFOs behind it.
//!
//! REGS retires one register write per cycle from the CP: it merges the parameter into the
//! 32-bit register under the byte-enable mask (seed 002 "Parameter masking"), records the
//! register-write beat, and performs the write's side effect as the register table declares it
//! ([`crate::regs::SideEffect`]): FIFO index and data writes (float uniforms, shader code,
//! operand descriptors, LUTs, fixed attributes / immediate-mode vertices) and triggers (draws,
//! CMDBUF jumps, ...).
//!
//! Index registers hold the FIFO pointer in their own bits: a data write advances the index
//! field of the index register in the register array (as Azahar does; the final register state
//! therefore shows where the next word would land).
//! UNVERIFIED(hw) [fact: regs-fifo-index]: the hardware may keep a separate counter — model choice.
//!
//! Data words are taken from the merged register value, so masked-off bytes keep the data
//! register's previous contents. UNVERIFIED(hw) [fact: regs-fifo-data-mask]: how masks act on FIFO data registers is not
//! documented (Azahar pushes the raw parameter) — model choice.
//!
//! Shader-unit configuration (pica-facts §1, seed 001 GPUREG_VSH_COM_MODE): writes to the GSH
//! block (0x280-0x2AD) configure unit 3; writes to the VSH block (0x2B0-0x2DD) configure units
//! 0-2, and also unit 3 when GPUREG_VSH_COM_MODE bit 0 is 0 and GPUREG_GEOSTAGE_CONFIG bits 0-1
//! say no geometry shader ([`RegFile::vs_propagates_to_unit3`]). Such a write reaches unit 3
//! when it is applied, and every kind of it does: uniforms, output mask, code, operand
//! descriptors, and also the entry point, input-buffer configuration and permutation, so that
//! unit 3 runs the vertex shader exactly as units 0-2 do.
//! UNVERIFIED(hw) [fact: regs-unit3-config]: the seed lists only the first four kinds, but
//! libctru writes no GSH entry point or permutation without a GS, citro3d's attribute setup
//! writes only the VSH block, and their programs render cleanly on the console — knob
//! `regs-unit3-config=seed` keeps the seed's four (`RegFile::unit3_owners`).

pub mod debug;
pub mod luts;
pub mod packer;
pub mod unit;

use crate::beat::{merge_masked, RegWriteBeat};
use crate::cp::{Redirect, RegWrite};
use crate::knobs::{
    F32ToF24Uniform, Knobs, RegsFifoDataMask, RegsGeostageReserved, RegsPackerReset,
    RegsTriggerValue, RegsUnit3Config,
};
use crate::link::Link;
use crate::num::F24;
use crate::outcome::HangReason;
use crate::pipe::VlCmd;
use crate::regs::{self, id, Fifo, ShaderBlock, SideEffect, Trigger};
use crate::stage::Stage;
use crate::timing;
use luts::Luts;
use packer::{PackMode, Packer};
use serde::Serialize;
use serde_json::json;
use unit::{UnitConfig, FLOAT_UNIFORMS, GS_UNIT, NUM_UNITS, OPDESC_ENTRIES};

/// 32-bit words as `"0x%08x"` strings, the layout of every word list in the state JSON.
pub(crate) fn hex_words(words: &[u32]) -> Vec<String> {
    words.iter().map(|w| format!("0x{w:08x}")).collect()
}

/// Number of register IDs with storage (0x000-0x2FF).
pub const NUM_REGS: usize = 0x300;

/// Fixed ("default") vertex attributes held (seed 002 GPUREG_FIXEDATTRIB_INDEX: 0-11).
///
/// UNVERIFIED(hw) [fact: regs-fixed-attrib-index]: data sent with index 12-14 is dropped while the index still advances (so
/// it reaches 0xF, immediate mode) — model choice.
pub const FIXED_ATTRIBS: usize = 12;

/// GPUREG_FIXEDATTRIB_INDEX value that selects immediate-mode vertex submission (seed 002).
pub const IMMEDIATE_MODE_INDEX: u32 = 0xF;

/// Attributes an immediate-mode vertex can carry (the 4-bit GPUREG_VSH_NUM_ATTR).
pub const IMMEDIATE_MAX_ATTRIBS: usize = 16;

/// A trigger register write, recorded for the stages of later issues (draws are not executed
/// yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TriggerEvent {
    /// Cycle in which REGS applied the write.
    pub cycle: u64,
    /// What was triggered.
    pub trigger: Trigger,
    /// Register ID written.
    pub id: u32,
    /// Merged register value.
    pub value: u32,
}

/// An immediate-mode vertex, complete when its last attribute arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImmediateVertex {
    /// Cycle in which REGS completed it.
    pub cycle: u64,
    /// Attributes v0..=VSH_NUM_ATTR as `[x, y, z, w]`.
    pub attributes: Vec<[F24; 4]>,
}

/// The REGS stage.
#[derive(Clone, Debug)]
pub struct RegFile {
    regs: Box<[u32]>,
    units: [UnitConfig; NUM_UNITS],
    luts: Luts,
    /// Float-uniform packers of the VSH (0) and GSH (1) blocks.
    uniform_packers: [Packer; 2],
    fixed_packer: Packer,
    fixed_attribs: [[F24; 4]; FIXED_ATTRIBS],
    immediate_slots: Vec<[F24; 4]>,
    immediate_vertices: Vec<ImmediateVertex>,
    /// No immediate vertex since the last GPUREG_FIXEDATTRIB_INDEX write (or power-on): the
    /// next one starts a batch ([`VlCmd::Immediate`]).
    immediate_batch: bool,
    triggers: Vec<TriggerEvent>,
    writes_applied: u64,
    record_beats: bool,
    /// Work for the vertex loader produced by the write applied last.
    pending_cmd: Option<VlCmd>,
    /// The model's answers to the disputed hardware cases, read by every stage that decodes
    /// these registers (kept across [`Stage::reset`]).
    knobs: Knobs,
}

/// What REGS touches in one cycle.
pub struct RegsPorts<'a> {
    /// Register writes from the CP.
    pub writes: &'a mut Link<RegWrite>,
    /// Jump targets back to the CP.
    pub redirect: &'a mut Link<Redirect>,
    /// Where register-write beats are appended.
    pub beats: &'a mut Vec<RegWriteBeat>,
    /// Draws and immediate-mode vertices to the vertex loader (`None`: the front end runs
    /// alone and records them only as trigger events).
    pub draw: Option<&'a mut Link<VlCmd>>,
    /// The geometry and fragment pipeline is busy with earlier work: apply nothing this cycle.
    pub hold: bool,
}

impl Default for RegFile {
    fn default() -> Self {
        Self::new()
    }
}

fn block_index(b: ShaderBlock) -> usize {
    match b {
        ShaderBlock::Vsh => 0,
        ShaderBlock::Gsh => 1,
    }
}

/// First ID of a shader block's register layout (the block's BOOLUNIFORM register).
fn block_base(b: ShaderBlock) -> u32 {
    u32::from(match b {
        ShaderBlock::Vsh => id::VSH_BOOLUNIFORM,
        ShaderBlock::Gsh => id::GSH_BOOLUNIFORM,
    })
}

/// Offsets inside a shader block, derived from the VSH block of the register table (the GSH
/// block has the same layout, seed 002 "Shader registers").
mod off {
    use crate::regs::id;
    const B: u16 = id::VSH_BOOLUNIFORM;
    pub const INT0: u32 = (id::VSH_INTUNIFORM_I0 - B) as u32;
    pub const INPUTBUFFER_CONFIG: u32 = (id::VSH_INPUTBUFFER_CONFIG - B) as u32;
    pub const ENTRYPOINT: u32 = (id::VSH_ENTRYPOINT - B) as u32;
    pub const PERM_LOW: u32 = (id::VSH_ATTRIBUTES_PERMUTATION_LOW - B) as u32;
    pub const PERM_HIGH: u32 = (id::VSH_ATTRIBUTES_PERMUTATION_HIGH - B) as u32;
    pub const OUTMAP_MASK: u32 = (id::VSH_OUTMAP_MASK - B) as u32;
    pub const FLOAT_INDEX: u32 = (id::VSH_FLOATUNIFORM_INDEX - B) as u32;
    pub const CODE_INDEX: u32 = (id::VSH_CODETRANSFER_INDEX - B) as u32;
    pub const OPDESC_INDEX: u32 = (id::VSH_OPDESCS_INDEX - B) as u32;
    /// Registers per block (0x2B0-0x2DD).
    pub const LEN: u32 = (id::VSH_OPDESCS_DATA0 - B) as u32 + 8;
}

impl RegFile {
    /// Power-on state: every register, memory and LUT zero.
    ///
    /// UNVERIFIED(hw) [fact: regs-power-on]: registers reset to 0 — their power-on values are not documented.
    pub fn new() -> Self {
        Self {
            regs: vec![0; NUM_REGS].into_boxed_slice(),
            units: Default::default(),
            luts: Luts::default(),
            uniform_packers: Default::default(),
            fixed_packer: Packer::default(),
            fixed_attribs: [[F24::from_bits(0); 4]; FIXED_ATTRIBS],
            immediate_slots: Vec::new(),
            immediate_vertices: Vec::new(),
            immediate_batch: true,
            triggers: Vec::new(),
            writes_applied: 0,
            record_beats: true,
            pending_cmd: None,
            knobs: Knobs::default(),
        }
    }

    /// The knobs the stages apply when they decode these registers ([`crate::knobs`]).
    pub fn knobs(&self) -> &Knobs {
        &self.knobs
    }

    /// Chooses the knobs (set before a run; [`crate::Gpu::set_knobs`]).
    pub fn set_knobs(&mut self, knobs: Knobs) {
        self.knobs = knobs;
    }

    /// Turns beat recording on or off (off saves memory in long benchmark runs).
    pub fn set_record_beats(&mut self, on: bool) {
        self.record_beats = on;
    }

    /// A copy of the state alone ([`RegFile::same_state`]): the traffic recorded so far
    /// (trigger events, immediate-mode vertices), which grows with the run and is no state,
    /// is left out, so a copy costs the same at any point of a run.
    pub fn state_copy(&self) -> RegFile {
        RegFile {
            regs: self.regs.clone(),
            units: self.units.clone(),
            luts: self.luts.clone(),
            uniform_packers: self.uniform_packers.clone(),
            fixed_packer: self.fixed_packer.clone(),
            fixed_attribs: self.fixed_attribs,
            immediate_slots: self.immediate_slots.clone(),
            immediate_vertices: Vec::new(),
            immediate_batch: self.immediate_batch,
            triggers: Vec::new(),
            writes_applied: self.writes_applied,
            record_beats: self.record_beats,
            pending_cmd: self.pending_cmd.clone(),
            knobs: self.knobs,
        }
    }

    /// Whether `self` and `other` hold the same state: every word of the debug map (the
    /// registers, the LUTs, the fixed attributes, the packers, each unit's memories and
    /// configuration), the immediate-mode vertex being assembled, the batch flag, the work
    /// pending for the vertex loader and the knobs — everything the effect of a later write
    /// depends on. The traffic recorded (beats, trigger events, immediate vertices) and the
    /// count of writes applied are not compared: they say what happened, not what will. Two
    /// front ends in the same CP state over equal REGS states do the same from there on,
    /// which is what the loop detection of `pica fuzz` rests on.
    pub fn same_state(&self, other: &RegFile) -> bool {
        self.regs == other.regs
            && self.uniform_packers == other.uniform_packers
            && self.fixed_packer == other.fixed_packer
            && self.immediate_batch == other.immediate_batch
            && self.immediate_slots == other.immediate_slots
            && self.pending_cmd == other.pending_cmd
            && self.knobs == other.knobs
            && self.record_beats == other.record_beats
            && self.fixed_attribs == other.fixed_attribs
            && self.units == other.units
            && self.luts == other.luts
    }

    /// The raw register array, index = register ID, each the full merged 32-bit value.
    pub fn regs(&self) -> &[u32] {
        &self.regs
    }

    /// One register's raw value (0 for IDs without storage).
    pub fn reg(&self, id: u32) -> u32 {
        self.regs.get(id as usize).copied().unwrap_or(0)
    }

    /// The four shader units' configuration.
    pub fn units(&self) -> &[UnitConfig; NUM_UNITS] {
        &self.units
    }

    /// LUT contents.
    pub fn luts(&self) -> &Luts {
        &self.luts
    }

    /// Fixed vertex attributes 0-11.
    pub fn fixed_attribs(&self) -> &[[F24; 4]; FIXED_ATTRIBS] {
        &self.fixed_attribs
    }

    /// Immediate-mode vertices submitted so far.
    pub fn immediate_vertices(&self) -> &[ImmediateVertex] {
        &self.immediate_vertices
    }

    /// Trigger writes applied so far, in order.
    pub fn triggers(&self) -> &[TriggerEvent] {
        &self.triggers
    }

    /// The trigger events logged since a stage last looked, advancing its cursor `seen` (the
    /// number of events it has handled). A log shorter than the cursor means a different (reset)
    /// register file: the stage starts over from its first event.
    pub fn triggers_since(&self, seen: &mut usize) -> &[TriggerEvent] {
        let start = if self.triggers.len() < *seen {
            0
        } else {
            *seen
        };
        *seen = self.triggers.len();
        self.triggers.get(start..).unwrap_or(&[])
    }

    /// Register writes applied so far.
    pub fn writes_applied(&self) -> u64 {
        self.writes_applied
    }

    /// Whether VSH-block configuration also reaches unit 3 (seed 001 GPUREG_VSH_COM_MODE).
    ///
    /// UNVERIFIED(hw) [fact: regs-geostage-reserved]: GEOSTAGE_CONFIG bits 0-1 = 1 or 3 (reserved) count as "GS in use", so
    /// nothing propagates — Azahar propagates only for the value 0. Knob
    /// `regs-geostage-reserved=vs` counts them as no GS (only 2 stops propagation).
    pub fn vs_propagates_to_unit3(&self) -> bool {
        let com_mode = regs::VshComMode(self.reg(id::VSH_COM_MODE.into()));
        let geo = self.reg(id::GEOSTAGE_CONFIG.into()) & 0x3;
        let no_gs = match self.knobs.regs_geostage_reserved {
            RegsGeostageReserved::Gs => geo == 0,
            RegsGeostageReserved::Vs => geo != 2,
        };
        !com_mode.gs_config_enabled() && no_gs
    }

    /// Indices of the units a write to block `b` configures (uniforms, mask, code, opdescs).
    fn targets(&self, b: ShaderBlock) -> &'static [usize] {
        match b {
            ShaderBlock::Gsh => &[GS_UNIT],
            ShaderBlock::Vsh if self.vs_propagates_to_unit3() => &[0, 1, 2, 3],
            ShaderBlock::Vsh => &[0, 1, 2],
        }
    }

    /// Indices of the units a write to block `b` configures for the entry point, the
    /// input-buffer configuration and the permutation (low and high).
    ///
    /// UNVERIFIED(hw) [fact: regs-unit3-config]: they propagate to unit 3 like every other VSH
    /// configuration ([`RegFile::targets`]). 3dbrew GPUREG_VSH_COM_MODE (seed 001) names only
    /// "uniforms, outmap mask, program code and swizzle data", but calls the mode "reuse the
    /// vertex shader configuration"; libctru `shaderProgramConfigure` sets GEOSTAGE_CONFIG and
    /// COM_MODE first "to ensure all 4 units are correctly initialized" and never writes
    /// GSH_ENTRYPOINT or the GSH permutation without a GS, citro3d `C3Di_AttrInfoBind` writes
    /// only the VSH input configuration and permutation (after the GSH_INPUTBUFFER_CONFIG =
    /// 0xA0000000 of `shaderProgramConfigure`), and their programs render cleanly — with the
    /// seed's reading every fourth vertex would start at entry 0 with one input. Azahar
    /// (pica_core.cpp) shades every vertex with the VS setup when no GS is in use. Knob
    /// `regs-unit3-config=seed`: unit 3 keeps the GSH block's values.
    fn unit3_owners(&self, b: ShaderBlock) -> &'static [usize] {
        match (b, self.knobs.regs_unit3_config) {
            (ShaderBlock::Vsh, RegsUnit3Config::Seed) => &[0, 1, 2],
            _ => self.targets(b),
        }
    }

    fn set_reg(&mut self, id: u32, value: u32) {
        if let Some(r) = self.regs.get_mut(id as usize) {
            *r = value;
        }
    }

    /// Applies a full-mask write of `value` to register `id` at cycle 0, with every side
    /// effect of [`RegFile::apply`] (FIFOs, triggers) and no beat kept: how tests and tools set
    /// up a register file without a command list.
    pub fn write(&mut self, id: u16, value: u32) -> Option<Redirect> {
        let w = RegWrite {
            id: id.into(),
            mask: 0xF,
            param: value,
        };
        self.apply(0, w, &mut Vec::new())
    }

    /// Applies one write. Returns the jump target when the write triggers a CMDBUF jump.
    pub fn apply(
        &mut self,
        cycle: u64,
        w: RegWrite,
        beats: &mut Vec<RegWriteBeat>,
    ) -> Option<Redirect> {
        self.writes_applied += 1;
        self.pending_cmd = None;
        let Some(old) = self.regs.get(w.id as usize).copied() else {
            // UNVERIFIED(hw) [fact: regs-write-beyond-2ff]: a write to an ID above 0x2FF changes nothing — Azahar
            // pica_core.cpp drops such writes; the beat is still recorded (value 0).
            tracing::debug!(target: "regs", id = w.id, "write beyond 0x2FF dropped");
            if self.record_beats {
                beats.push(w.beat(cycle, 0));
            }
            return None;
        };
        let value = merge_masked(old, w.param, w.mask);
        self.set_reg(w.id, value);
        if self.record_beats {
            beats.push(w.beat(cycle, value));
        }
        let effect = regs::info(w.id).map_or(SideEffect::None, |r| r.effect);
        match effect {
            SideEffect::None => self.config_write(w.id, value),
            SideEffect::FifoIndex(fifo) => self.fifo_index(fifo),
            SideEffect::FifoData(fifo) => {
                // Knob `regs-fifo-data-mask=raw`: the parameter is pushed unmasked.
                let data = match self.knobs.regs_fifo_data_mask {
                    RegsFifoDataMask::Merge => value,
                    RegsFifoDataMask::Raw => w.param,
                };
                self.fifo_data(cycle, fifo, data);
            }
            SideEffect::Trigger(_)
                if value == 0 && self.knobs.regs_trigger_value == RegsTriggerValue::Nonzero =>
            {
                // Knob `regs-trigger-value=nonzero`: a zero value stores but does not fire.
            }
            SideEffect::Trigger(trigger) => {
                // UNVERIFIED(hw) [fact: regs-trigger-any-value]: every write fires its trigger, whatever the value and mask —
                // Azahar does; the seed calls non-zero values the trigger (knob `regs-trigger-value`).
                self.triggers.push(TriggerEvent {
                    cycle,
                    trigger,
                    id: w.id,
                    value,
                });
                tracing::debug!(target: "regs", ?trigger, cycle, "trigger");
                match trigger {
                    Trigger::CmdbufJump(ch) => return Some(self.jump_target(ch)),
                    Trigger::DrawArrays => self.pending_cmd = Some(VlCmd::DrawArrays),
                    Trigger::DrawElements => self.pending_cmd = Some(VlCmd::DrawElements),
                    Trigger::VtxFunc => self.pending_cmd = Some(VlCmd::ClearVertexCache),
                    Trigger::RestartPrimitive => self.pending_cmd = Some(VlCmd::RestartPrimitive),
                    _ => {}
                }
            }
        }
        None
    }

    fn jump_target(&self, ch: u8) -> Redirect {
        let ch = ch & 1;
        let size = regs::CmdbufSize(self.reg(u32::from(id::CMDBUF_SIZE0) + u32::from(ch))).size();
        let addr = regs::CmdbufAddr(self.reg(u32::from(id::CMDBUF_ADDR0) + u32::from(ch))).addr();
        // Both fields are stored >> 3 (seed 002 GPUREG_CMDBUF_SIZEn / ADDRn); the 29-bit address
        // field << 3 fits in 32 bits.
        Redirect {
            channel: ch,
            addr: addr << 3,
            size: size << 3,
        }
    }

    /// Configuration registers of the shader blocks that units copy.
    fn config_write(&mut self, reg: u32, value: u32) {
        let (block, offset) = match reg {
            r if (block_base(ShaderBlock::Gsh)..block_base(ShaderBlock::Gsh) + off::LEN)
                .contains(&r) =>
            {
                (ShaderBlock::Gsh, r - block_base(ShaderBlock::Gsh))
            }
            r if (block_base(ShaderBlock::Vsh)..block_base(ShaderBlock::Vsh) + off::LEN)
                .contains(&r) =>
            {
                (ShaderBlock::Vsh, r - block_base(ShaderBlock::Vsh))
            }
            _ => return,
        };
        // Entry point, input configuration and permutation: like the rest, unless knob
        // `regs-unit3-config=seed` keeps them per block.
        let own = self.unit3_owners(block);
        let targets = self.targets(block);
        match offset {
            0 => {
                let b = regs::ShBooluniform(value).bools() as u16;
                targets
                    .iter()
                    .for_each(|&u| self.units[u].bool_uniforms = b);
            }
            o if (off::INT0..off::INT0 + 4).contains(&o) => {
                let i = (o - off::INT0) as usize;
                let v = value.to_le_bytes();
                targets
                    .iter()
                    .for_each(|&u| self.units[u].int_uniforms[i] = v);
            }
            off::OUTMAP_MASK => {
                let m = (value & 0xFFFF) as u16;
                targets.iter().for_each(|&u| self.units[u].outmap_mask = m);
            }
            off::ENTRYPOINT => {
                let e = regs::ShEntrypoint(value).entry() as u16;
                own.iter().for_each(|&u| self.units[u].entry_point = e);
            }
            off::INPUTBUFFER_CONFIG => own.iter().for_each(|&u| self.units[u].input_config = value),
            off::PERM_LOW | off::PERM_HIGH => {
                let shift = if offset == off::PERM_LOW { 0 } else { 32 };
                for &u in own {
                    let p = &mut self.units[u].permutation;
                    *p = (*p & !(0xFFFF_FFFFu64 << shift)) | (u64::from(value) << shift);
                }
            }
            _ => {}
        }
    }

    fn fifo_index(&mut self, fifo: Fifo) {
        match fifo {
            // Knob `regs-packer-reset=keep`: a partial vec4 survives the index write.
            Fifo::FloatUniform(_) if self.knobs.regs_packer_reset == RegsPackerReset::Keep => {}
            Fifo::FloatUniform(b) => self.uniform_packers[block_index(b)].clear(),
            Fifo::FixedAttrib => {
                self.fixed_packer.clear();
                self.immediate_slots.clear();
                self.immediate_batch = true;
            }
            // The other index registers are plain pointers read at each data write.
            Fifo::Code(_)
            | Fifo::OpDesc(_)
            | Fifo::ProcTexLut
            | Fifo::FogLut
            | Fifo::LightingLut
            | Fifo::GasLut => {}
        }
    }

    fn fifo_data(&mut self, cycle: u64, fifo: Fifo, value: u32) {
        match fifo {
            Fifo::FloatUniform(b) => self.float_uniform_data(b, value),
            Fifo::Code(b) => {
                let ix = block_base(b) + off::CODE_INDEX;
                let r = regs::ShCodetransferIndex(self.reg(ix));
                let o = r.offset() as usize;
                for &u in self.targets(b) {
                    self.units[u].code[o] = value;
                }
                // UNVERIFIED(hw) [fact: regs-lut-index-wrap]: the 12-bit offset wraps from 4095 to 0 — model choice.
                self.set_reg(ix, r.with_offset(r.offset() + 1).0);
            }
            Fifo::OpDesc(b) => {
                let ix = block_base(b) + off::OPDESC_INDEX;
                let r = regs::ShOpdescsIndex(self.reg(ix));
                let o = r.offset() as usize;
                if o < OPDESC_ENTRIES {
                    for &u in self.targets(b) {
                        self.units[u].opdescs[o] = value;
                    }
                }
                self.set_reg(ix, r.with_offset(r.offset() + 1).0);
            }
            Fifo::ProcTexLut => {
                let ix = u32::from(id::PROCTEX_LUT);
                let r = regs::ProctexLut(self.reg(ix));
                if let Some(slot) = Luts::proctex_slot(r.table().bits()) {
                    let t = &mut self.luts.proctex[slot];
                    let n = t.len();
                    t[r.index() as usize % n] = value;
                }
                self.set_reg(ix, r.with_index(r.index() + 1).0);
            }
            Fifo::FogLut => {
                let ix = u32::from(id::FOG_LUT_INDEX);
                let r = regs::FogLutIndex(self.reg(ix));
                // UNVERIFIED(hw) [fact: regs-lut-index-wrap]: the 16-bit index selects entry index % 128 — Azahar.
                self.luts.fog[r.index() as usize % luts::FOG_ENTRIES] = value & luts::FOG_DATA_MASK;
                self.set_reg(ix, r.with_index(r.index() + 1).0);
            }
            Fifo::LightingLut => {
                let ix = u32::from(id::LIGHTING_LUT_INDEX);
                let r = regs::LightingLutIndex(self.reg(ix));
                if let Some(t) = self.luts.lighting.get_mut(r.table().bits() as usize) {
                    t[r.index() as usize] = value & luts::LIGHTING_DATA_MASK;
                }
                // The 8-bit index wraps (Azahar: BitField assign).
                self.set_reg(ix, r.with_index(r.index() + 1).0);
            }
            Fifo::GasLut => {
                let ix = u32::from(id::GAS_LUT_INDEX);
                let r = regs::GasLutIndex(self.reg(ix));
                self.luts.gas[r.index() as usize % luts::GAS_ENTRIES] = value;
                self.set_reg(ix, r.with_index(r.index() + 1).0);
            }
            Fifo::FixedAttrib => self.fixed_attrib_data(cycle, value),
        }
    }

    fn float_uniform_data(&mut self, b: ShaderBlock, value: u32) {
        let ix = block_base(b) + off::FLOAT_INDEX;
        let r = regs::ShFloatuniformIndex(self.reg(ix));
        let mode = match r.mode() {
            regs::ShFloatuniformIndexMode::F24 => PackMode::F24x3,
            // A 1-bit field: only F32 remains (the generated enum's Reserved cannot occur).
            _ => match self.knobs.f32_to_f24_uniform {
                F32ToF24Uniform::Truncate => PackMode::F32x4,
                F32ToF24Uniform::Nearest => PackMode::F32x4Nearest,
            },
        };
        let Some(v) = self.uniform_packers[block_index(b)].push(value, mode) else {
            return;
        };
        let i = r.index() as usize;
        if i >= FLOAT_UNIFORMS {
            // pica-facts §1: an index of 96 or more is ignored (Azahar shader_setup.cpp: the
            // vec4 is dropped and the index does not advance).
            tracing::debug!(target: "regs", index = i, "float uniform index >= 96 ignored");
            return;
        }
        for &u in self.targets(b) {
            self.units[u].float_uniforms[i] = v;
        }
        self.set_reg(ix, r.with_index(r.index() + 1).0);
    }

    fn fixed_attrib_data(&mut self, cycle: u64, value: u32) {
        // Seed 002 GPUREG_FIXEDATTRIB_DATAi: the three data registers carry one vec4 in the f24
        // transfer packing. UNVERIFIED(hw) [fact: regs-fixed-attrib-queue]: the three IDs feed one queue, so which of them a word
        // is written to does not matter — Azahar.
        let Some(v) = self.fixed_packer.push(value, PackMode::F24x3) else {
            return;
        };
        let ix = u32::from(id::FIXEDATTRIB_INDEX);
        let r = regs::FixedattribIndex(self.reg(ix));
        let i = r.index();
        if i != IMMEDIATE_MODE_INDEX {
            if let Some(slot) = self.fixed_attribs.get_mut(i as usize) {
                *slot = v;
            }
            self.set_reg(ix, r.with_index(i + 1).0);
            return;
        }
        // Immediate mode (seed 002 GPUREG_FIXEDATTRIB_INDEX = 0xF): attributes fill v0, v1, ...
        // and the vertex is complete after attribute GPUREG_VSH_NUM_ATTR (count - 1).
        self.immediate_slots.push(v);
        let last = regs::VshNumAttr(self.reg(id::VSH_NUM_ATTR.into())).num_attr_minus_1() as usize;
        if self.immediate_slots.len() > last {
            let attributes = std::mem::take(&mut self.immediate_slots);
            tracing::debug!(target: "regs", cycle, n = attributes.len(), "immediate vertex");
            self.pending_cmd = Some(VlCmd::Immediate {
                attrs: attributes.clone(),
                batch_start: std::mem::take(&mut self.immediate_batch),
            });
            self.immediate_vertices
                .push(ImmediateVertex { cycle, attributes });
        }
    }

    /// Everything a register write can change, as JSON (the `pica run --regs-json` layout).
    pub fn state_json(&self) -> serde_json::Value {
        // F24 serializes as its zero-padded hex bits ("0x3f0000"), so vec4s go in as they are.
        json!({
            "regs": hex_words(&self.regs),
            "units": self.units.iter().map(UnitConfig::to_json).collect::<Vec<_>>(),
            "luts": self.luts.to_json(),
            "fixed_attribs": self.fixed_attribs,
            "fifos": {
                "vsh_float_uniform_pending": hex_words(self.uniform_packers[0].pending()),
                "gsh_float_uniform_pending": hex_words(self.uniform_packers[1].pending()),
                "fixed_attrib_pending": hex_words(self.fixed_packer.pending()),
                "immediate_pending": self.immediate_slots,
            },
            "immediate_vertices": self.immediate_vertices.iter().map(|v| json!({
                "cycle": v.cycle,
                "attributes": v.attributes,
            })).collect::<Vec<_>>(),
            "triggers": self.triggers.iter().map(|t| json!({
                "cycle": t.cycle,
                "trigger": t.trigger,
                "id": format!("0x{:03x}", t.id),
                "name": regs::name(t.id),
                "value": format!("0x{:08x}", t.value),
            })).collect::<Vec<_>>(),
        })
    }
}

impl Stage for RegFile {
    type Ports<'a> = RegsPorts<'a>;

    fn name(&self) -> &'static str {
        "regs"
    }

    fn reset(&mut self) {
        let (record, knobs) = (self.record_beats, self.knobs);
        *self = Self::new();
        self.record_beats = record;
        self.knobs = knobs;
    }

    fn tick(&mut self, cycle: u64, mut ports: RegsPorts<'_>) -> Result<(), HangReason> {
        // UNVERIFIED(hw) [fact: regs-interlock]: REGS applies nothing while a draw or an immediate-mode vertex is in
        // flight, so every draw sees exactly the registers written before its trigger — model
        // choice (the hardware's interlocks are not public; this is the simplest safe one).
        if ports.hold {
            return Ok(());
        }
        for _ in 0..timing::REGS_WRITES_PER_CYCLE {
            let Some(w) = ports.writes.pop() else { break };
            if let Some(r) = self.apply(cycle, w, ports.beats) {
                ports
                    .redirect
                    .push(r)
                    .map_err(|e| HangReason::Internal(e.to_string()))?;
            }
            let cmd = self.pending_cmd.take();
            if let (Some(cmd), Some(link)) = (cmd, ports.draw.as_deref_mut()) {
                link.push(cmd)
                    .map_err(|e| HangReason::Internal(e.to_string()))?;
                // The pipeline is busy from the next cycle on: stop here.
                break;
            }
        }
        Ok(())
    }

    fn is_idle(&self) -> bool {
        true
    }

    fn snapshot(&self) -> serde_json::Value {
        json!({ "writes_applied": self.writes_applied })
    }
}
