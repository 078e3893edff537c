//! The cycle-stepped GPU: stages, links, memory and the clock.

use crate::beat::{Beat, RegWriteBeat, ShaderBeat};
use crate::cp::{CommandProcessor, CpPorts, CpState, Redirect, RegWrite};
use crate::link::Link;
use crate::mem::{Memory, Unmapped};
use crate::regfile::{RegFile, RegsPorts};
use crate::shader::interp::HangKind;
use crate::shader::stage::{ShadedItem, ShaderCore, ShaderPorts, VertexIn};
use crate::stage::Stage;
use crate::timing;
use serde::Serialize;
use serde_json::json;
use std::fmt;

/// Why the GPU hangs: the states in which the real GPU would stop making progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum HangReason {
    /// The CP reached the end of a buffer without a write to GPUREG_FINALIZE.
    MissingFinalize {
        /// Buffer start.
        base: u32,
        /// Size in bytes as given.
        size: u32,
        /// Bytes actually read (size with the low 4 bits cleared).
        effective_size: u32,
        /// Whether a FINALIZE command sat in the bytes the 16-byte rule dropped.
        dropped_finalize: bool,
    },
    /// A command needed more words than its buffer holds.
    CommandPastEnd {
        /// Buffer start.
        base: u32,
        /// Bytes actually read.
        effective_size: u32,
        /// Address of the command's first parameter.
        command_addr: u32,
        /// The command header, if it was read.
        header: Option<u32>,
    },
    /// The CP fetched a command word outside mapped memory.
    FetchUnmapped {
        /// The address.
        addr: u32,
    },
    /// `run` was called without a submitted command buffer: the CP never starts.
    NotSubmitted,
    /// A shader unit hangs (BREAK on an empty loop stack, double MOVA, ...).
    Shader {
        /// Unit 0-3.
        unit: u8,
        /// Word address of the instruction.
        pc: u16,
        /// The instruction word.
        word: u32,
        /// What went wrong.
        reason: HangKind,
    },
    /// An internal invariant of the model broke (a model bug, never expected).
    Internal(String),
}

impl fmt::Display for HangReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HangReason::MissingFinalize {
                base,
                size,
                effective_size,
                dropped_finalize,
            } => {
                write!(
                    f,
                    "command buffer at 0x{base:08x} ended without a write to GPUREG_FINALIZE (0x010) \
                     after 0x{effective_size:x} of 0x{size:x} bytes"
                )?;
                if *dropped_finalize {
                    write!(
                        f,
                        "; a FINALIZE command sits in the last {} bytes, which the GPU drops because \
                         the size is not a multiple of 16",
                        size - effective_size
                    )?;
                } else if size != effective_size {
                    write!(
                        f,
                        "; the last {} bytes were dropped (size not a multiple of 16)",
                        size - effective_size
                    )?;
                }
                Ok(())
            }
            HangReason::CommandPastEnd {
                base,
                effective_size,
                command_addr,
                header,
            } => {
                write!(f, "command at 0x{command_addr:08x} runs past the end of the buffer 0x{base:08x}+0x{effective_size:x}")?;
                match header {
                    Some(h) => {
                        let h = crate::cp::CommandHeader::decode(*h);
                        write!(
                            f,
                            " (header 0x{:08x}: {} with {} extra parameter(s))",
                            h.encode(),
                            crate::regs::name(h.id.into()),
                            h.extra
                        )
                    }
                    None => write!(f, " (its header word is missing)"),
                }
            }
            HangReason::FetchUnmapped { addr } => {
                write!(
                    f,
                    "command fetch from unmapped physical address 0x{addr:08x}"
                )
            }
            HangReason::NotSubmitted => write!(f, "no command buffer was submitted"),
            HangReason::Shader {
                unit,
                pc,
                word,
                reason,
            } => {
                let h = crate::shader::interp::Hang {
                    pc: *pc,
                    word: *word,
                    kind: *reason,
                };
                write!(f, "shader unit {unit}: {h}")
            }
            HangReason::Internal(s) => write!(f, "internal model error: {s}"),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The list ended with GPUREG_FINALIZE and all work drained after `cycles` cycles.
    Finished {
        /// Cycles stepped.
        cycles: u64,
    },
    /// The GPU would hang: it stopped making progress in `cycle`.
    Hang {
        /// Cycle in which the hang was detected.
        cycle: u64,
        /// Why.
        reason: HangReason,
    },
    /// The cycle limit was reached first.
    CycleLimit {
        /// Cycles stepped.
        cycles: u64,
    },
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Finished { cycles } => write!(f, "finished in {cycles} cycles"),
            Outcome::Hang { cycle, reason } => write!(f, "hang at cycle {cycle}: {reason}"),
            Outcome::CycleLimit { cycles } => {
                write!(f, "cycle limit reached after {cycles} cycles")
            }
        }
    }
}

/// A submission that cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SubmitError {
    /// Command buffers are addressed in units of 8 bytes (GPUREG_CMDBUF_ADDRn is the address
    /// >> 3), so the start must be 8-byte aligned.
    #[error("command buffer address 0x{0:08x} is not 8-byte aligned")]
    Unaligned(u32),
    /// The buffer does not lie in mapped memory.
    #[error(transparent)]
    Unmapped(#[from] Unmapped),
}

/// The whole GPU: memory, stages, links and the clock.
#[derive(Debug)]
pub struct Gpu {
    mem: Memory,
    cycle: u64,
    cp: CommandProcessor,
    regs: RegFile,
    cp_to_regs: Link<RegWrite>,
    regs_to_cp: Link<Redirect>,
    beats: Vec<RegWriteBeat>,
    hang: Option<(u64, HangReason)>,
    shader: ShaderCore,
    vs_in: Link<VertexIn>,
    sh_out: Link<ShadedItem>,
    /// Immediate-mode vertices forwarded to the shader units so far.
    fed: usize,
    shade_immediate: bool,
    shaded: Vec<ShadedItem>,
    shader_in_beats: Vec<ShaderBeat>,
    shader_out_beats: Vec<ShaderBeat>,
}

impl Gpu {
    /// A GPU in its power-on state owning `mem`.
    pub fn new(mem: Memory) -> Self {
        Self {
            mem,
            cycle: 0,
            cp: CommandProcessor::new(),
            regs: RegFile::new(),
            cp_to_regs: Link::new("cp_to_regs", timing::CP_TO_REGS_DEPTH),
            regs_to_cp: Link::new("regs_to_cp", timing::REGS_TO_CP_REDIRECT_DEPTH),
            beats: Vec::new(),
            hang: None,
            shader: ShaderCore::default(),
            vs_in: Link::new("vs_in", timing::SHADER_IN_DEPTH),
            sh_out: Link::new("sh_out", timing::SHADER_OUT_DEPTH),
            fed: 0,
            shade_immediate: false,
            shaded: Vec::new(),
            shader_in_beats: Vec::new(),
            shader_out_beats: Vec::new(),
        }
    }

    /// Whether immediate-mode vertices are sent through the shader units (default off).
    ///
    /// Off by default until the vertex loader and draw triggers exist (a later issue): with
    /// it on, every immediate-mode vertex runs the configured vertex shader, so a list that
    /// submits vertices without a program hangs in the shader units (the model's reading of
    /// zeroed code memory). Turn it on before [`Gpu::run`].
    pub fn set_shade_immediate(&mut self, on: bool) {
        self.shade_immediate = on;
    }

    /// Chooses the shader units' answers to the disputed hardware cases (resets the units;
    /// call before [`Gpu::run`]).
    pub fn set_shader_knobs(&mut self, knobs: crate::shader::interp::Knobs) {
        self.shader = ShaderCore::new(knobs);
    }

    /// The shader units.
    pub fn shader(&self) -> &ShaderCore {
        &self.shader
    }

    /// What the shader units sent on so far (the input of a later primitive-assembly stage).
    pub fn shaded(&self) -> &[ShadedItem] {
        &self.shaded
    }

    /// Shader input/output beats recorded so far.
    pub fn shader_beats(&self) -> (&[ShaderBeat], &[ShaderBeat]) {
        (&self.shader_in_beats, &self.shader_out_beats)
    }

    /// Starts the command buffer at physical address `addr` of `size` bytes (what the GSP does
    /// when it kicks a list). Only `size & !0xF` bytes are read (the 16-byte rule).
    pub fn submit(&mut self, addr: u32, size: u32) -> Result<(), SubmitError> {
        if addr % 8 != 0 {
            return Err(SubmitError::Unaligned(addr));
        }
        if Memory::region_of(addr, size.max(1)).is_none() {
            return Err(Unmapped { addr, len: size }.into());
        }
        self.cp.submit(addr, size);
        Ok(())
    }

    /// Turns recording of register-write beats on or off (default on).
    pub fn set_record_beats(&mut self, on: bool) {
        self.regs.set_record_beats(on);
        self.shader.set_record_beats(on);
    }

    /// The current cycle (cycles stepped so far).
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Physical memory.
    pub fn mem(&self) -> &Memory {
        &self.mem
    }

    /// Mutable physical memory (for loading data before a run).
    pub fn mem_mut(&mut self) -> &mut Memory {
        &mut self.mem
    }

    /// The command processor.
    pub fn cp(&self) -> &CommandProcessor {
        &self.cp
    }

    /// The register file.
    pub fn regs(&self) -> &RegFile {
        &self.regs
    }

    /// Register-write beats recorded so far.
    pub fn regwrite_beats(&self) -> &[RegWriteBeat] {
        &self.beats
    }

    /// All recorded beats, in cycle order.
    pub fn beats(&self) -> impl Iterator<Item = Beat> + '_ {
        let mut all: Vec<Beat> = self.beats.iter().copied().map(Beat::RegWrite).collect();
        all.extend(self.shader_in_beats.iter().copied().map(Beat::ShaderIn));
        all.extend(self.shader_out_beats.iter().copied().map(Beat::ShaderOut));
        // Stable: within a cycle, register writes, then shader inputs, then outputs.
        all.sort_by_key(Beat::cycle);
        all.into_iter()
    }

    /// Advances every stage by one cycle.
    pub fn step(&mut self) {
        let cycle = self.cycle;
        let _span = tracing::trace_span!("cycle", cycle).entered();
        self.cp_to_regs.begin_cycle();
        self.regs_to_cp.begin_cycle();
        self.vs_in.begin_cycle();
        self.sh_out.begin_cycle();
        // Vertex source until the vertex loader exists: immediate-mode vertices REGS completed
        // in earlier cycles go to the shader units in order.
        while let Some(v) = self
            .regs
            .immediate_vertices()
            .get(self.fed)
            .filter(|_| self.shade_immediate)
        {
            if v.cycle >= cycle || !self.vs_in.can_push() {
                break;
            }
            let item = VertexIn {
                seq: self.fed as u32,
                attrs: v.attributes.clone(),
            };
            if self.vs_in.push(item).is_err() {
                break;
            }
            self.fed += 1;
        }
        // SH reads REGS's configuration as it was at the start of the cycle: tick it first.
        let sh = self.shader.tick(
            cycle,
            ShaderPorts {
                regs: &self.regs,
                input: &mut self.vs_in,
                output: &mut self.sh_out,
                beats_in: &mut self.shader_in_beats,
                beats_out: &mut self.shader_out_beats,
            },
        );
        // Stage order does not matter: links only show what was pushed in earlier cycles.
        let cp = self.cp.tick(
            cycle,
            CpPorts {
                mem: &self.mem,
                writes: &mut self.cp_to_regs,
                redirect: &mut self.regs_to_cp,
            },
        );
        let regs = self.regs.tick(
            cycle,
            RegsPorts {
                writes: &mut self.cp_to_regs,
                redirect: &mut self.regs_to_cp,
                beats: &mut self.beats,
            },
        );
        // Sink until primitive assembly exists: take what SH sent in earlier cycles.
        while let Some(item) = self.sh_out.pop() {
            self.shaded.push(item);
        }
        for r in [sh, cp, regs] {
            if let Err(reason) = r {
                tracing::debug!(target: "gpu", cycle, %reason, "hang");
                self.hang.get_or_insert((cycle, reason));
            }
        }
        self.cycle += 1;
    }

    /// The outcome if the run is over, `None` while work remains.
    pub fn outcome(&self) -> Option<Outcome> {
        // A hung shader unit never drains: report it at once.
        if let Some((cycle, reason @ HangReason::Shader { .. })) = &self.hang {
            return Some(Outcome::Hang {
                cycle: *cycle,
                reason: reason.clone(),
            });
        }
        let drained = self.cp_to_regs.is_empty()
            && self.regs_to_cp.is_empty()
            && self.regs.is_idle()
            && self.vs_in.is_empty()
            && self.sh_out.is_empty()
            && (!self.shade_immediate || self.fed == self.regs.immediate_vertices().len())
            && self.shader.is_idle();
        if !drained {
            return None;
        }
        if let Some((cycle, reason)) = &self.hang {
            return Some(Outcome::Hang {
                cycle: *cycle,
                reason: reason.clone(),
            });
        }
        match self.cp.state() {
            CpState::Done => Some(Outcome::Finished { cycles: self.cycle }),
            _ => None,
        }
    }

    /// Steps until the list finishes, the GPU hangs, or `max_cycles` cycles have been stepped
    /// in total.
    pub fn run(&mut self, max_cycles: u64) -> Outcome {
        loop {
            if let Some(o) = self.outcome() {
                return o;
            }
            if self.cycle >= max_cycles {
                return Outcome::CycleLimit { cycles: self.cycle };
            }
            if self.cp.state() == CpState::Idle && self.hang.is_none() {
                // Nothing submitted: a GPU never kicked never finishes.
                return Outcome::Hang {
                    cycle: self.cycle,
                    reason: HangReason::NotSubmitted,
                };
            }
            self.step();
        }
    }

    /// Internal state of every stage, for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({
            "cycle": self.cycle,
            "cp": self.cp.snapshot(),
            "regs": self.regs.snapshot(),
            "shader": self.shader.snapshot(),
            "links": { "cp_to_regs": self.cp_to_regs.len(), "regs_to_cp": self.regs_to_cp.len(),
                       "vs_in": self.vs_in.len(), "sh_out": self.sh_out.len() },
        })
    }

    /// Everything a register write can change plus the outcome: the `--regs-json` document.
    pub fn state_json(&self, outcome: &Outcome) -> serde_json::Value {
        let mut v = self.regs.state_json();
        if let Some(o) = v.as_object_mut() {
            o.insert("outcome".into(), outcome_json(outcome));
        }
        v
    }
}

/// An outcome as JSON, with a readable `message`.
pub fn outcome_json(o: &Outcome) -> serde_json::Value {
    let mut v = serde_json::to_value(o).unwrap_or_else(|_| json!({}));
    if let Some(m) = v.as_object_mut() {
        m.insert("message".into(), json!(o.to_string()));
    }
    v
}
