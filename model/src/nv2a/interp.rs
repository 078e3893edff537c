//! The NV2A vertex-program interpreter: the register model of seed 003 and one slot at a time.
//!
//! Registers: 16 inputs v0-v15, 12 temporaries R0-R11 (initially 0) plus R12, which mirrors
//! oPos; 11 outputs (seed numbering 0 and 3-12, initially (0, 0, 0, 1)); 192 constants c0-c191;
//! the address register A0.x (initially 0). Inputs and constants are whatever the caller sets
//! (0 by default).
//!
//! A slot issues its MAC and ILU operations together: every source is read before anything is
//! written, so neither unit sees the other's result, and relative constant reads use the A0.x from
//! before the slot (an ARL takes effect from the next slot). Operand routing (xemu `vsh.c`,
//! Cxbx-Reloaded): MOV/ARL read A; MUL, DP3, DPH, DP4, DST, MIN, MAX, SLT, SGE read A and B; ADD
//! reads A and C; MAD reads A, B, C; every ILU operation reads C.
//!
//! Writes happen in this order: the MAC's temporary write (MAC mask, destination temporary), the
//! ILU's temporary write (ILU mask; **to R1 whenever both units work in the slot**, whatever the
//! temporary field says — xemu "Paired ILU opcodes can only write to R1"), the output or
//! constant write (overall mask, from the unit the destination mux names), then A0.x.
//!
//! **Same temporary.** When a paired slot's MAC also targets R1, [`PairedR1::IluOnly`] (default,
//! xemu) drops the MAC's temporary write; [`PairedR1::IluOverMac`] (Cxbx) lets both write under
//! their masks, the ILU last. A slot whose output write and a temporary write both reach oPos
//! (through R12) leaves the output write's components on top.
//!
//! An idle unit (NOP) and ARL produce no vector result: an output write that selects them writes
//! nothing.

use super::arith::{self, Config, PairedR1};
use super::decode::{
    fields, Comp, Field, IluOp, ImageError, MacOp, Mask, Mux, OutBank, Program, Slot, Unit,
};
use super::{NUM_CONSTS, NUM_INPUTS, NUM_OUTPUTS, NUM_TEMPS};

/// Four f32 components, x first.
pub type Vec4 = [f32; 4];

/// Outputs' initial value, (0, 0, 0, 1) (seed 003).
pub const OUTPUT_INIT: Vec4 = [0.0, 0.0, 0.0, 1.0];

/// The temporary register that mirrors oPos.
pub const R12_OPOS: u8 = 12;

/// What a relative constant read outside c0-c191 returns.
///
/// UNVERIFIED(hw) [fact: nv2a-relative-out-of-range]: (0, 0, 0, 0) — model choice (no public source pins it for the NV2A's 192
/// constants); the hardware might wrap or clamp the index instead.
pub const RELATIVE_OUT_OF_RANGE: Vec4 = [0.0; 4];

/// Writing destination temporary R12 writes oPos (the mirror works both ways).
///
/// UNVERIFIED(hw) [fact: nv2a-r12-opos]: seed 003 only says R12 mirrors oPos "as source operand" — model choice.
pub const R12_WRITES_OPOS: bool = true;

/// Names of the output registers by seed index: (NV_vertex_program name, D3D name).
pub const OUTPUT_NAMES: [Option<(&str, &str)>; NUM_OUTPUTS] = [
    Some(("HPOS", "oPos")),
    None,
    None,
    Some(("COL0", "oD0")),
    Some(("COL1", "oD1")),
    Some(("FOGC", "oFog")),
    Some(("PSIZ", "oPts")),
    Some(("BFC0", "oB0")),
    Some(("BFC1", "oB1")),
    Some(("TEX0", "oT0")),
    Some(("TEX1", "oT1")),
    Some(("TEX2", "oT2")),
    Some(("TEX3", "oT3")),
];

/// Why running a slot failed. Every variant names the slot and the field involved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The image cannot run (see [`ImageError`]).
    #[error(transparent)]
    Image(#[from] ImageError),
    /// A reserved MAC operation.
    #[error("slot {slot}: MAC operation {value} is reserved ({field})", field = fields::MAC)]
    ReservedMacOp {
        /// Slot index.
        slot: usize,
        /// The field value (14 or 15).
        value: u8,
    },
    /// A source the slot reads has the reserved mux value 0.
    #[error("slot {slot}: source {operand} has reserved mux value 0 ({field})")]
    ReservedMux {
        /// Slot index.
        slot: usize,
        /// Source number, 1-3.
        operand: usize,
        /// The mux field.
        field: Field,
    },
    /// A source reads a temporary register that does not exist (13-15).
    #[error("slot {slot}: source {operand} reads temporary R{reg}, which does not exist (R0-R12) ({field})")]
    BadTempRead {
        /// Slot index.
        slot: usize,
        /// Source number, 1-3.
        operand: usize,
        /// The register field value.
        reg: u8,
        /// The register field.
        field: Field,
    },
    /// A temporary write targets a register that does not exist (13-15).
    #[error("slot {slot}: destination temporary R{reg} does not exist (R0-R12) ({field})", field = fields::TEMP)]
    BadTempWrite {
        /// Slot index.
        slot: usize,
        /// The register field value.
        reg: u8,
    },
    /// A constant read without relative addressing names c192-c255.
    #[error("slot {slot}: constant index {index} is outside c0-c191 ({field})", field = fields::CONST)]
    BadConstRead {
        /// Slot index.
        slot: usize,
        /// The constant index.
        index: u8,
    },
    /// The output write names an output register that does not exist.
    #[error("slot {slot}: output register {index} does not exist (0 and 3-12 do) ({field})", field = fields::OUT_INDEX)]
    BadOutput {
        /// Slot index.
        slot: usize,
        /// The register index.
        index: u8,
    },
    /// The constant write names c192-c255.
    #[error("slot {slot}: constant write to c{index} is outside c0-c191 ({field})", field = fields::OUT_INDEX)]
    BadConstWrite {
        /// Slot index.
        slot: usize,
        /// The register index.
        index: u8,
    },
}

/// The register state of one vertex-program invocation.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// Knobs for unknown hardware behaviour.
    pub cfg: Config,
    /// Input registers v0-v15.
    pub inputs: [Vec4; NUM_INPUTS],
    /// Constant registers c0-c191.
    pub consts: [Vec4; NUM_CONSTS],
    /// Temporary registers R0-R11 (R12 is `outputs[0]`).
    pub temps: [Vec4; NUM_TEMPS],
    /// Output registers by seed index (1 and 2 do not exist and stay at their initial value).
    pub outputs: [Vec4; NUM_OUTPUTS],
    /// The address register A0.x.
    pub a0: i32,
    /// Which outputs any slot wrote (at least one component).
    pub outputs_written: [bool; NUM_OUTPUTS],
    /// Which constants any slot wrote (at least one component).
    pub consts_written: [bool; NUM_CONSTS],
}

impl Default for Machine {
    fn default() -> Self {
        Self::new(Config::default())
    }
}

/// What a finished run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// Slots executed, the final one included.
    pub slots_run: usize,
    /// The slot with the final marker that ended the run.
    pub final_slot: usize,
}

fn masked(dst: &mut Vec4, v: Vec4, m: Mask) {
    for c in Comp::ALL {
        if m.has(c) {
            dst[c.index()] = v[c.index()];
        }
    }
}

fn rep(x: f32) -> Vec4 {
    [x; 4]
}

impl Machine {
    /// A machine in its reset state: everything 0, outputs (0, 0, 0, 1), A0.x = 0.
    pub fn new(cfg: Config) -> Self {
        Machine {
            cfg,
            inputs: [[0.0; 4]; NUM_INPUTS],
            consts: [[0.0; 4]; NUM_CONSTS],
            temps: [[0.0; 4]; NUM_TEMPS],
            outputs: [OUTPUT_INIT; NUM_OUTPUTS],
            a0: 0,
            outputs_written: [false; NUM_OUTPUTS],
            consts_written: [false; NUM_CONSTS],
        }
    }

    /// Runs `prog` from slot `start` through the first slot with the final marker.
    pub fn run(&mut self, prog: &Program, start: usize) -> Result<RunSummary, RunError> {
        prog.check(start)?;
        for (i, slot) in prog.slots.iter().enumerate().skip(start) {
            self.step(slot, i)?;
            if slot.final_ {
                return Ok(RunSummary {
                    slots_run: i - start + 1,
                    final_slot: i,
                });
            }
        }
        // `check` found a final marker at or after `start`, so the loop returned.
        Err(RunError::Image(ImageError::NoFinal {
            start,
            last: prog.slots.len().saturating_sub(1),
        }))
    }

    fn read_const(&self, slot: &Slot, at: usize) -> Result<Vec4, RunError> {
        if slot.relative {
            let addr = i64::from(self.a0) + i64::from(slot.const_index);
            Ok(usize::try_from(addr)
                .ok()
                .and_then(|a| self.consts.get(a).copied())
                .unwrap_or(RELATIVE_OUT_OF_RANGE))
        } else {
            self.consts
                .get(usize::from(slot.const_index))
                .copied()
                .ok_or(RunError::BadConstRead {
                    slot: at,
                    index: slot.const_index,
                })
        }
    }

    /// Reads source `n` (0-2) of `slot`: register, swizzle, then negate (a sign-bit flip).
    fn read(&self, slot: &Slot, at: usize, n: usize) -> Result<Vec4, RunError> {
        let s = slot.src[n];
        let f = &fields::SRC[n];
        let raw = match s.mux {
            Mux::Reserved => {
                return Err(RunError::ReservedMux {
                    slot: at,
                    operand: n + 1,
                    field: f.mux,
                })
            }
            Mux::Temp => match s.reg {
                r if usize::from(r) < NUM_TEMPS => self.temps[usize::from(r)],
                R12_OPOS => self.outputs[0],
                r => {
                    return Err(RunError::BadTempRead {
                        slot: at,
                        operand: n + 1,
                        reg: r,
                        field: f.reg_hi,
                    })
                }
            },
            Mux::Input => self.inputs[usize::from(slot.input_index) % NUM_INPUTS],
            Mux::Const => self.read_const(slot, at)?,
        };
        let mut v = s.swizzle.map(|c| raw[c.index()]);
        if s.neg {
            v = v.map(|x| f32::from_bits(x.to_bits() ^ 0x8000_0000));
        }
        Ok(v)
    }

    fn write_temp(&mut self, at: usize, reg: u8, v: Vec4, m: Mask) -> Result<(), RunError> {
        if m.is_empty() {
            return Ok(());
        }
        match reg {
            r if usize::from(r) < NUM_TEMPS => masked(&mut self.temps[usize::from(r)], v, m),
            R12_OPOS if R12_WRITES_OPOS => {
                masked(&mut self.outputs[0], v, m);
                self.outputs_written[0] = true;
            }
            r => return Err(RunError::BadTempWrite { slot: at, reg: r }),
        }
        Ok(())
    }

    /// Executes one slot (`at` is its index, for error messages).
    pub fn step(&mut self, slot: &Slot, at: usize) -> Result<(), RunError> {
        let cfg = self.cfg;
        if let MacOp::Reserved(v) = slot.mac {
            return Err(RunError::ReservedMacOp { slot: at, value: v });
        }
        // Read phase: every source an active operation uses, before any write.
        let mut uses = slot.mac.reads();
        if slot.ilu != IluOp::Nop {
            uses[2] = true;
        }
        let mut src = [[0.0f32; 4]; 3];
        for (n, used) in uses.iter().enumerate() {
            if *used {
                src[n] = self.read(slot, at, n)?;
            }
        }
        let [a, b, c] = src;

        let mut new_a0 = None;
        let mac: Option<Vec4> = match slot.mac {
            MacOp::Nop | MacOp::Reserved(_) => None,
            MacOp::Arl => {
                new_a0 = Some(arith::arl(&cfg, a[0]));
                None
            }
            MacOp::Mov => Some(a),
            MacOp::Mul => Some(std::array::from_fn(|i| cfg.mul(a[i], b[i]))),
            MacOp::Add => Some(std::array::from_fn(|i| cfg.add(a[i], c[i]))),
            MacOp::Mad => Some(std::array::from_fn(|i| cfg.mad(a[i], b[i], c[i]))),
            MacOp::Dp3 => Some(rep(cfg.dp3(a, b))),
            MacOp::Dph => Some(rep(cfg.dph(a, b))),
            MacOp::Dp4 => Some(rep(cfg.dp4(a, b))),
            MacOp::Dst => Some([1.0, cfg.mul(a[1], b[1]), a[2], b[3]]),
            MacOp::Min => Some(std::array::from_fn(|i| arith::min(a[i], b[i]))),
            MacOp::Max => Some(std::array::from_fn(|i| arith::max(a[i], b[i]))),
            MacOp::Slt => Some(std::array::from_fn(|i| cfg.slt(a[i], b[i]))),
            MacOp::Sge => Some(std::array::from_fn(|i| cfg.sge(a[i], b[i]))),
        };
        let ilu: Option<Vec4> = match slot.ilu {
            IluOp::Nop => None,
            IluOp::Mov => Some(c),
            IluOp::Rcp => Some(rep(arith::rcp(&cfg, c[0]))),
            IluOp::Rcc => Some(rep(arith::rcc(&cfg, c[0]))),
            IluOp::Rsq => Some(rep(arith::rsq(&cfg, c[0]))),
            IluOp::Exp => Some(arith::exp(&cfg, c[0])),
            IluOp::Log => Some(arith::log(&cfg, c[0])),
            IluOp::Lit => Some(arith::lit(&cfg, c)),
        };

        // Write phase.
        let paired = slot.is_paired();
        if let Some(v) = mac {
            let dropped = paired && slot.temp == 1 && cfg.paired_r1 == PairedR1::IluOnly;
            if !dropped {
                self.write_temp(at, slot.temp, v, slot.mac_mask)?;
            }
        }
        if let Some(v) = ilu {
            let reg = if paired { 1 } else { slot.temp };
            self.write_temp(at, reg, v, slot.ilu_mask)?;
        }
        let out = match slot.out_mux {
            Unit::Mac => mac,
            Unit::Ilu => ilu,
        };
        if let Some(v) = out.filter(|_| !slot.out_mask.is_empty()) {
            let idx = usize::from(slot.out_index);
            match slot.out_bank {
                OutBank::Output => {
                    if OUTPUT_NAMES.get(idx).copied().flatten().is_none() {
                        return Err(RunError::BadOutput {
                            slot: at,
                            index: slot.out_index,
                        });
                    }
                    masked(&mut self.outputs[idx], v, slot.out_mask);
                    self.outputs_written[idx] = true;
                }
                OutBank::Const => {
                    if idx >= NUM_CONSTS {
                        return Err(RunError::BadConstWrite {
                            slot: at,
                            index: slot.out_index,
                        });
                    }
                    masked(&mut self.consts[idx], v, slot.out_mask);
                    self.consts_written[idx] = true;
                }
            }
        }
        if let Some(v) = new_a0 {
            self.a0 = v;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nv2a_interp_reset_state() {
        let m = Machine::default();
        assert!(m.outputs.iter().all(|o| *o == OUTPUT_INIT));
        assert!(m.temps.iter().flatten().all(|c| c.to_bits() == 0));
        assert_eq!(m.a0, 0);
        assert!(!m.outputs_written.iter().any(|w| *w));
    }

    #[test]
    fn nv2a_interp_negate_flips_only_the_sign_bit() {
        let mut m = Machine::default();
        m.inputs[0] = [f32::from_bits(0x7FC0_1234), 0.0, 1.0, -2.0];
        let s = Slot::mac(MacOp::Mov)
            .a(super::super::decode::Source::input().neg())
            .mac_to(0, "xyzw");
        m.step(&s, 0).unwrap();
        assert_eq!(
            m.temps[0].map(f32::to_bits),
            [0xFFC0_1234, 0x8000_0000, 0xBF80_0000, 0x4000_0000]
        );
    }
}
