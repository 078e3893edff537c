//! The SH-stage RTL: one Verilated `pica_sh_top` (`rtl/pica_sh.sv`: four `pica_shader_unit`s,
//! the VS/GS split, the GS input assembler), driven through its ports with the same
//! transactions as the model's [`ShaderCore`](pica_model::shader::stage::ShaderCore).
//!
//! - [`RtlSh::sync_config`] writes what changed in REGS' unit configuration through the
//!   stage's configuration port (one write per clock);
//! - [`RtlSh::push`] queues a vertex whose attributes go in one per beat, or one of VL's GS
//!   markers ([`ShIn::Begin`], [`ShIn::GsCount`]) as one beat, as the input port's `ready`
//!   allows ([`RtlSh::can_accept`]);
//! - [`RtlSh::tick`] is one clock: it returns the output item whose last beat left in it (the
//!   consumer's `ready` is the `out_ready` argument), the commit beats the stage sent, and the
//!   hang once the stage reports one.
//!
//! The comparison with the model is transaction-exact: the same [`ShadedItem`]s in the same
//! order, and per vertex / GS invocation the same commits in program order; cycles differ.
//!
//! ```no_run
//! # use pica_rtl_bridge::sh_stage::RtlSh;
//! # use pica_rtl_bridge::shader::ShVariant;
//! # use pica_model::regfile::RegFile;
//! # use pica_model::shader::stage::VertexIn;
//! let regs = RegFile::new();
//! let mut sh = RtlSh::new(ShVariant::Default)?;
//! sh.sync_config(&regs);
//! sh.push_vertex(&VertexIn { seq: 0, attrs: vec![] });
//! while !sh.is_idle() {
//!     let t = sh.tick(true);
//!     if let Some(item) = t.output { println!("{item:?}"); }
//! }
//! # Ok::<(), pica_rtl_bridge::RtlError>(())
//! ```

use crate::error::RtlError;
use crate::kit::abi::sh::{PicaShs, FNS};
use crate::kit::core::Core;
use crate::shader::ShVariant;
use pica_model::beat::CommitBeat;
use pica_model::gpu::HangReason;
use pica_model::num::F24;
use pica_model::regfile::unit::{UnitConfig, GS_UNIT};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::shader::interp::{Commit, Emitted, HangKind, Vec4};
use pica_model::shader::stage::{ShIn, ShadedItem, VertexIn};
use std::collections::VecDeque;
use std::path::Path;

/// Configuration-port kinds (`cfg_kind_i` of `pica_sh`).
mod kind {
    pub const CODE: u32 = 0;
    pub const DESC: u32 = 1;
    pub const UNIF: u32 = 2;
    pub const INT: u32 = 3;
    pub const BOOL: u32 = 4;
    pub const ENTRY: u32 = 5;
    pub const OUTMAP: u32 = 6;
    pub const INCFG: u32 = 7;
    pub const PERM_LO: u32 = 8;
    pub const PERM_HI: u32 = 9;
    pub const GEOSTAGE: u32 = 10;
    pub const GSH_MISC0: u32 = 11;
    pub const GSH_MISC1: u32 = 12;
}

/// Input-beat kinds (`in_kind_i`).
mod in_kind {
    pub const ATTR: u32 = 0;
    pub const BEGIN: u32 = 1;
    pub const COUNT: u32 = 2;
}

/// Output-beat kinds (`out_kind_o`).
mod out_kind {
    pub const VS: u32 = 0;
    pub const VS_NONE: u32 = 1;
    pub const GS: u32 = 2;
    pub const PRIM: u32 = 3;
}

pub use crate::kit::abi::sh::{PicaShsIn, PicaShsOut};
pub use crate::kit::record::PicaShCommit;

/// The transaction protocol of the SH-stage ports, shared by [`RtlSh`] (`pica_sh_top`) and
/// [`crate::RtlGpu`] (the `sh_*` ports of `pica_top`): vertices in as one attribute per beat,
/// output items assembled from their beats, commit records and the hang collected.
#[derive(Clone, Debug, Default)]
pub(crate) struct ShProtocol {
    in_beats: VecDeque<InBeat>,
    partial: Option<Partial>,
    /// What completed since the last [`ShProtocol::take`].
    stash: ShTick,
    hang_reported: bool,
}

impl ShProtocol {
    /// Queues one item: a vertex as one beat per attribute, a marker as one beat (see
    /// [`RtlSh::push`]).
    pub(crate) fn push(&mut self, item: &ShIn) {
        match item {
            ShIn::Vertex(v) => self.push_vertex(v),
            &ShIn::Begin { seq } => self.in_beats.push_back(InBeat {
                kind: in_kind::BEGIN,
                seq,
                attr: 0,
                last: true,
                data: [0; 3],
            }),
            &ShIn::GsCount { seq, count } => self.in_beats.push_back(InBeat {
                kind: in_kind::COUNT,
                seq,
                attr: 0,
                last: true,
                data: [u32::from(count), 0, 0],
            }),
        }
    }

    /// Queues one vertex, one beat per attribute (see [`RtlSh::push_vertex`]).
    pub(crate) fn push_vertex(&mut self, v: &VertexIn) {
        let n = v.attrs.len().min(16);
        if n == 0 {
            self.in_beats.push_back(InBeat {
                kind: in_kind::ATTR,
                seq: v.seq,
                attr: 31,
                last: true,
                data: [0; 3],
            });
        }
        for (i, a) in v.attrs.iter().take(n).enumerate() {
            self.in_beats.push_back(InBeat {
                kind: in_kind::ATTR,
                seq: v.seq,
                attr: i as u32,
                last: i + 1 == n,
                data: pack(a),
            });
        }
    }

    /// Whether beats of a vertex are still waiting to go in.
    pub(crate) fn has_pending_input(&self) -> bool {
        !self.in_beats.is_empty()
    }

    /// Drives the first waiting input beat onto `inp` (`in_valid` 0 when none waits).
    pub(crate) fn drive(&self, inp: &mut PicaShsIn) {
        inp.in_valid = 0;
        if let Some(b) = self.in_beats.front() {
            inp.in_valid = 1;
            inp.in_kind = b.kind;
            inp.in_seq = b.seq;
            inp.in_attr = b.attr;
            inp.in_last = u32::from(b.last);
            inp.in_data = b.data;
        }
    }

    /// Takes what the ports show in cycle `cycle` (inputs `inp`, settled outputs `out`): the
    /// input beat when it was taken, the commit, the hang (once), and the output beat when it
    /// was taken. `gs`: whether the GS is on (GEOSTAGE_CONFIG bits 0-1 = 2), which keys unit
    /// 3's commits as GS invocations.
    pub(crate) fn sample(&mut self, cycle: u64, inp: &PicaShsIn, out: &PicaShsOut, gs: bool) {
        if inp.in_valid != 0 && out.in_ready != 0 {
            self.in_beats.pop_front();
        }
        if out.commit_valid != 0 {
            let c = &out.commit;
            let commit = Commit {
                pc: c.pc as u16,
                word: c.word,
                dst: c.dst as u8,
                mask: c.mask as u8,
                result: c.result,
                cmp: c.cmp as u8,
                a0x: c.a0x,
                a0y: c.a0y,
                al: c.al,
                next_pc: c.next_pc as u16,
                emit: c.emit != 0,
                hang: c.hang as u8,
                end: c.end != 0,
            };
            // The channel table's key: a GS invocation's commits carry bit 31 (the stage's
            // port gives the bare invocation number; unit 3 runs the GS while
            // GEOSTAGE_CONFIG bits 0-1 = 2).
            let gs = gs && out.commit_unit as usize == GS_UNIT;
            let seq = if gs {
                out.commit_seq | CommitBeat::GS_SEQ_FLAG
            } else {
                out.commit_seq
            };
            self.stash
                .commits
                .push(CommitBeat::new(cycle, out.commit_unit as u8, seq, &commit));
        }
        if out.hang != 0 && !self.hang_reported {
            self.hang_reported = true;
            self.stash.hang = Some(HangReason::Shader {
                unit: out.hang_unit as u8,
                pc: out.hang_pc as u16,
                word: out.hang_word,
                reason: hang_kind(out.hang_code),
            });
        }
        if out.out_valid != 0 && inp.out_ready != 0 {
            self.stash.output = self.take_beat(out);
        }
    }

    /// Adds one output beat to the item being assembled; the item when the beat is its last.
    fn take_beat(&mut self, out: &PicaShsOut) -> Option<ShadedItem> {
        let value = unpack(out.out_data);
        let reg = out.out_reg as usize;
        match out.out_kind {
            out_kind::VS | out_kind::VS_NONE => {
                let p = self.partial.get_or_insert_with(|| Partial::Vs {
                    seq: out.out_id,
                    outputs: Vec::new(),
                });
                if let (Partial::Vs { outputs, .. }, out_kind::VS) = (p, out.out_kind) {
                    outputs.push((reg as u8, value));
                }
            }
            k => {
                let p = self.partial.get_or_insert_with(|| Partial::Gs {
                    invocation: out.out_id,
                    emitted: Box::new(Emitted {
                        vtx_id: out.out_vtx_id as u8,
                        outputs: [[F24::ZERO; 4]; 16],
                        primitive: None,
                        winding: out.out_winding != 0,
                    }),
                    primitive: Box::new([[[F24::ZERO; 4]; 16]; 3]),
                });
                if let Partial::Gs {
                    emitted, primitive, ..
                } = p
                {
                    if k == out_kind::GS {
                        emitted.outputs[reg & 15] = value;
                    } else if k == out_kind::PRIM {
                        primitive[(reg >> 4) % 3][reg & 15] = value;
                    }
                }
            }
        }
        if out.out_last == 0 {
            return None;
        }
        Some(match self.partial.take()? {
            Partial::Vs { seq, outputs } => ShadedItem::Vertex { seq, outputs },
            Partial::Gs {
                invocation,
                mut emitted,
                primitive,
            } => {
                if out.out_prim != 0 {
                    emitted.primitive = Some(*primitive);
                }
                ShadedItem::GsVertex {
                    invocation,
                    emitted,
                }
            }
        })
    }

    /// What completed since the last call.
    pub(crate) fn take(&mut self) -> ShTick {
        std::mem::take(&mut self.stash)
    }

    /// Nothing in flight: no beats waiting, the stage's `idle_o` (`idle`), no item half sent,
    /// no commit not yet taken.
    pub(crate) fn is_idle(&self, idle: bool) -> bool {
        self.in_beats.is_empty() && idle && self.partial.is_none() && self.stash.commits.is_empty()
    }
}

/// What one [`RtlSh::tick`] completed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShTick {
    /// The output item whose last beat left in this clock, assembled from its beats.
    pub output: Option<ShadedItem>,
    /// Commit beats sent in this clock (and during the preceding [`RtlSh::sync_config`]);
    /// `cycle` is the RTL's cycle.
    pub commits: Vec<CommitBeat>,
    /// The stage's hang, in the clock it is first reported (once).
    pub hang: Option<HangReason>,
}

/// One configuration write (`cfg_*` of `pica_sh`).
#[derive(Clone, Copy, Debug)]
struct CfgBeat {
    bank: u32,
    kind: u32,
    addr: u32,
    data: [u32; 3],
}

/// One input beat (a vertex attribute or a marker).
#[derive(Clone, Copy, Debug)]
struct InBeat {
    kind: u32,
    seq: u32,
    attr: u32,
    last: bool,
    data: [u32; 3],
}

/// An output item being assembled from its beats.
#[derive(Clone, Debug)]
enum Partial {
    Vs {
        seq: u32,
        outputs: Vec<(u8, Vec4)>,
    },
    Gs {
        invocation: u32,
        emitted: Box<Emitted>,
        primitive: Box<[[Vec4; 16]; 3]>,
    },
}

/// Four f24 lanes → the 96-bit port as three words (lane 0 = x at bits 0-23).
fn pack(v: &Vec4) -> [u32; 3] {
    let l = v.map(|c| c.bits() & 0xFF_FFFF);
    [
        l[0] | l[1] << 24,
        l[1] >> 8 | l[2] << 16,
        l[2] >> 16 | l[3] << 8,
    ]
}

fn unpack(w: [u32; 3]) -> Vec4 {
    [
        w[0] & 0xFF_FFFF,
        (w[0] >> 24 | w[1] << 8) & 0xFF_FFFF,
        (w[1] >> 16 | w[2] << 16) & 0xFF_FFFF,
        w[2] >> 8 & 0xFF_FFFF,
    ]
    .map(F24::from_bits)
}

fn word(v: u32) -> [u32; 3] {
    [v, 0, 0]
}

fn hang_kind(code: u32) -> HangKind {
    match code {
        1 => HangKind::BreakEmptyLoopStack,
        2 => HangKind::DoubleMova,
        3 => HangKind::PcPastEnd,
        _ => HangKind::UnknownOpcode,
    }
}

/// Reads one scalar field of a unit configuration.
type ScalarOf = fn(&UnitConfig) -> u32;

/// What the RTL was last configured with: bank 0 = units 0-2 (VSH), bank 1 = unit 3 (GSH),
/// and GEOSTAGE_CONFIG, GSH_MISC0, GSH_MISC1.
#[derive(Clone, Debug, Default)]
struct Shadow {
    banks: [UnitConfig; 2],
    scalars: [u32; 3],
}

/// One Verilated SH stage (`pica_sh_top`), reset, with zeroed memories.
#[derive(Debug)]
pub struct RtlSh {
    core: Core<PicaShsIn, PicaShsOut, PicaShs>,
    variant: ShVariant,
    shadow: Shadow,
    /// `(address, writes_applied)` of the register file last synced.
    synced: Option<(usize, u64)>,
    /// Vertex beats, output items, commits and the hang (commits seen during `sync_config`
    /// are returned by the next tick).
    proto: ShProtocol,
    /// Outputs with idle inputs after the last clock (ready, idle).
    last: PicaShsOut,
}

crate::kit::handle::coverage_methods!(
    RtlSh,
    "`cov_sh`, [`crate::shader::ShVariant::Coverage`]",
    core.handle
);

impl RtlSh {
    /// Names of the SH-stage variants compiled into this build.
    pub fn variants() -> Vec<String> {
        Core::variants(&FNS)
    }

    /// A new stage of `variant` ([`ShVariant::Default`], [`ShVariant::InjectAddRound`] or
    /// [`ShVariant::InjectLoopExtra`]; the knob variant has no SH-stage build).
    pub fn new(variant: ShVariant) -> Result<Self, RtlError> {
        let core = Core::open(&FNS, variant.name(), variant.mutant())?;
        let mut sh = Self {
            core,
            variant,
            shadow: Shadow::default(),
            synced: None,
            proto: ShProtocol::default(),
            last: PicaShsOut::default(),
        };
        sh.refresh();
        Ok(sh)
    }

    /// Which build this is.
    pub fn variant(&self) -> ShVariant {
        self.variant
    }

    fn idle_inputs() -> PicaShsIn {
        PicaShsIn {
            commit_ready: 1,
            ..Default::default()
        }
    }

    /// Re-evaluates with idle inputs so `last` shows this cycle's ready / idle.
    fn refresh(&mut self) {
        self.last = self.core.eval(&Self::idle_inputs());
    }

    /// Brings the RTL's configuration in line with `regs` (the four unit configurations and
    /// GEOSTAGE_CONFIG, GSH_MISC0, GSH_MISC1), writing only what differs from what it wrote
    /// last, one configuration beat per clock (the stage keeps running meanwhile; outputs are
    /// held, commits are returned by the next [`RtlSh::tick`]). Returns at once when `regs` is
    /// the register file of the last call and has applied no write since.
    ///
    /// Units 0-2 share the VSH bank (REGS always configures them alike; asserted), unit 3 has
    /// the GSH bank. GEOSTAGE_CONFIG is written last, so the GS state the stage latches when
    /// the GS turns on sees the new GSH configuration (a stage driven without Begin markers;
    /// with them the configuration is read again at every Begin).
    pub fn sync_config(&mut self, regs: &RegFile) {
        let key = (std::ptr::from_ref(regs) as usize, regs.writes_applied());
        if self.synced == Some(key) {
            return;
        }
        self.synced = Some(key);
        let units = regs.units();
        assert!(
            units[1] == units[0] && units[2] == units[0],
            "units 0-2 differ: REGS configures them as one bank (the RTL shares it)"
        );
        let new = [&units[0], &units[GS_UNIT]];
        let mut beats = Vec::new();
        // One beat for both banks when the same word changes the same way in both.
        let mut diff = |kind: u32, addr: u32, vals: [[u32; 3]; 2], olds: [[u32; 3]; 2]| {
            let d = [vals[0] != olds[0], vals[1] != olds[1]];
            if d[0] && d[1] && vals[0] == vals[1] {
                beats.push(CfgBeat {
                    bank: 3,
                    kind,
                    addr,
                    data: vals[0],
                });
            } else {
                for b in 0..2 {
                    if d[b] {
                        beats.push(CfgBeat {
                            bank: 1 << b,
                            kind,
                            addr,
                            data: vals[b],
                        });
                    }
                }
            }
        };
        let old = &self.shadow.banks;
        for i in 0..new[0].code.len() {
            let v = [new[0].code[i], new[1].code[i]];
            let o = [old[0].code[i], old[1].code[i]];
            if v != o {
                diff(kind::CODE, i as u32, v.map(word), o.map(word));
            }
        }
        for i in 0..new[0].opdescs.len() {
            let v = [new[0].opdescs[i], new[1].opdescs[i]];
            let o = [old[0].opdescs[i], old[1].opdescs[i]];
            if v != o {
                diff(kind::DESC, i as u32, v.map(word), o.map(word));
            }
        }
        for i in 0..new[0].float_uniforms.len() {
            let v = [&new[0].float_uniforms[i], &new[1].float_uniforms[i]].map(pack);
            let o = [&old[0].float_uniforms[i], &old[1].float_uniforms[i]].map(pack);
            diff(kind::UNIF, i as u32, v, o);
        }
        for i in 0..4 {
            let v = new.map(|c| word(u32::from_le_bytes(c.int_uniforms[i])));
            let o = [&old[0], &old[1]].map(|c| word(u32::from_le_bytes(c.int_uniforms[i])));
            diff(kind::INT, i as u32, v, o);
        }
        let scalars: [(u32, ScalarOf); 6] = [
            (kind::BOOL, |c| u32::from(c.bool_uniforms)),
            (kind::ENTRY, |c| u32::from(c.entry_point)),
            (kind::OUTMAP, |c| u32::from(c.outmap_mask)),
            (kind::INCFG, |c| c.input_config),
            (kind::PERM_LO, |c| c.permutation as u32),
            (kind::PERM_HI, |c| (c.permutation >> 32) as u32),
        ];
        for (k, f) in scalars {
            let v = new.map(|c| word(f(c)));
            let o = [&old[0], &old[1]].map(|c| word(f(c)));
            diff(k, 0, v, o);
        }
        let stage = [
            (kind::GSH_MISC0, regs.reg(id::GSH_MISC0.into())),
            (kind::GSH_MISC1, regs.reg(id::GSH_MISC1.into())),
            (kind::GEOSTAGE, regs.reg(id::GEOSTAGE_CONFIG.into())),
        ];
        for (n, (k, v)) in stage.into_iter().enumerate() {
            if self.shadow.scalars[n] != v {
                beats.push(CfgBeat {
                    bank: 0,
                    kind: k,
                    addr: 0,
                    data: word(v),
                });
                self.shadow.scalars[n] = v;
            }
        }
        self.shadow.banks = [units[0].clone(), units[GS_UNIT].clone()];
        for b in beats {
            let mut inp = Self::idle_inputs();
            inp.cfg_valid = 1;
            inp.cfg_bank = b.bank;
            inp.cfg_kind = b.kind;
            inp.cfg_addr = b.addr;
            inp.cfg_data = b.data;
            let out = self.core.eval(&inp);
            debug_assert!(out.cfg_ready != 0, "pica_sh always takes configuration");
            let cycle = self.core.shim_cycles();
            let gs = self.gs_on();
            self.proto.sample(cycle, &inp, &out, gs);
            self.core.clock();
        }
        self.refresh();
    }

    /// Whether the vertex input can take a new vertex this cycle: no earlier vertex's beats
    /// are waiting and the stage's `in_ready_o` is high.
    pub fn can_accept(&self) -> bool {
        !self.proto.has_pending_input() && self.last.in_ready != 0
    }

    /// Queues one vertex for the input port: attribute n (n < 16; the units read at most 16)
    /// is one beat; a vertex without attributes is one beat with attribute index 31, which
    /// the stage drops. The beats go in over the next clocks as `in_ready_o` allows.
    pub fn push_vertex(&mut self, v: &VertexIn) {
        self.proto.push_vertex(v);
    }

    /// Queues one item of VL's link ([`ShIn`]): a vertex as [`RtlSh::push_vertex`] does, a
    /// marker as one beat of `in_kind_i` 1 (Begin) or 2 (GS count, `in_data_i[15:0]`), with
    /// `in_seq_i` the marker's seq.
    pub fn push(&mut self, item: &ShIn) {
        self.proto.push(item);
    }

    /// Whether the GS is on as last configured (GEOSTAGE_CONFIG bits 0-1 = 2).
    fn gs_on(&self) -> bool {
        self.shadow.scalars[2] & 3 == 2
    }

    /// One clock. `out_ready`: whether the consumer can take an output beat this cycle (the
    /// stage's `out_ready_i`). Returns what completed during the clock.
    pub fn tick(&mut self, out_ready: bool) -> ShTick {
        let mut inp = Self::idle_inputs();
        inp.out_ready = u32::from(out_ready);
        self.proto.drive(&mut inp);
        let out = self.core.eval(&inp);
        let cycle = self.core.shim_cycles();
        let gs = self.gs_on();
        self.proto.sample(cycle, &inp, &out, gs);
        self.core.clock();
        self.refresh();
        self.proto.take()
    }

    /// Whether nothing is in flight: no vertex beats waiting, no vertex, GS invocation, EMIT or
    /// commit inside the stage (`idle_o`), no output item half sent. (A GS invocation still
    /// being assembled does not count, as in the model.)
    pub fn is_idle(&self) -> bool {
        self.proto.is_idle(self.last.idle != 0)
    }

    /// Clock cycles since reset (configuration writes included).
    pub fn cycles(&self) -> u64 {
        self.core.shim_cycles()
    }

    /// Starts writing a VCD of every following clock edge to `path`.
    pub fn trace_vcd(&mut self, path: &Path) -> Result<(), RtlError> {
        self.core.trace_vcd(path)
    }

    /// Flushes and closes the VCD, if one is open.
    pub fn trace_close(&mut self) {
        self.core.trace_off();
    }
}
