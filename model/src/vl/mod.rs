//! VL: the vertex loader.
//!
//! Turns a draw (GPUREG_DRAWARRAYS / GPUREG_DRAWELEMENTS) or an immediate-mode vertex into
//! shader input vertices and tells PA the vertex order.
//!
//! # What VL does with each command from REGS
//!
//! - **DrawArrays / DrawElements.** VL decodes the attribute-buffer block 0x200-0x226
//!   ([`layout::Layout`]; seed 002, seed 004) and checks every buffer's stride (a mismatch is
//!   [`VlHang::StrideMismatch`]). It sends `PaCmd::Begin`, then for each of the GPUREG_NUMVERTICES
//!   vertices, in draw order, one `PaCmd::Vertex(seq)`, then `PaCmd::End`. The vertex index is
//!   GPUREG_VERTEX_OFFSET + n for DrawArrays, and entry n of the index buffer
//!   (GPUREG_INDEXBUFFER_CONFIG: ATTRIBBUFFERS_LOC base + offset, u8 or u16 little-endian) for
//!   DrawElements, which does not add VERTEX_OFFSET (Azahar pica_core.cpp "Indexed rendering
//!   doesn't use the start offset"). A vertex that must be shaded goes to the shader units as
//!   [`VertexIn`] with the next `seq` (consecutive from 0 over the whole run, never reset; the
//!   shader stage releases outputs in that order).
//! - **Immediate.** REGS assembled a vertex from GPUREG_FIXEDATTRIB_DATA with index 0xF
//!   (GPUREG_VSH_NUM_ATTR + 1 attributes). VL sends it to the shader units as is and names it
//!   to PA with `PaCmd::Vertex(seq)` only: no Begin/End, so strip and fan state in PA persists
//!   across immediate vertices; the attribute-buffer registers are ignored (3dbrew
//!   GPU/Programming_Guide "Immediate-Mode Vertex Submission").
//!
//! # Geometry shader
//!
//! With the GS in use (GPUREG_GEOSTAGE_CONFIG bits 0-1 = 2; [`GsSetup::from_regs`]) VL sends
//! [`ShIn::Begin`] to the shader units at the start of every draw (with `PaCmd::Begin`) and
//! before the first immediate vertex of a batch (the first after a GPUREG_FIXEDATTRIB_INDEX
//! write): there the GS input assembler reads its configuration (fact `gs-config-per-draw`).
//!
//! In variable-size primitive mode (GSH_MISC0 bits 0-1 = 1) the index buffer prefixes each
//! primitive's indices with its vertex count (3dbrew GPU/Primitive_Engine; Azahar
//! `PicaCore::LoadVertices` with `GeometryPipeline::NeedIndexInput`): whenever the GS input
//! needs a count, the next index-buffer entry is that count. VL sends it as
//! [`ShIn::GsCount`] (not a vertex: not loaded, not shaded, not in the post-vertex cache, no
//! `PaCmd`), and it counts toward GPUREG_NUMVERTICES; the next N entries are vertices. VL keeps
//! the vertices left in the current primitive itself ([`VertexLoader`]'s `var_left`), by the
//! same rule as the shader stage's assembler: reset at every draw under the knob
//! `gs-new-draw=reset`, kept across draws with an unchanged configuration under `keep`.
//! UNVERIFIED(hw) [fact: gs-variable-edges]: a draw-arrays vertex or an immediate-mode vertex
//! that would have to supply a count (there is no index buffer to read it from) hangs VL
//! ([`VlHang::GsCountWithoutIndex`]; Azahar asserts that such draws do not happen).
//! - **ClearVertexCache** (GPUREG_VTX_FUNC): empties the post-vertex cache.
//! - **RestartPrimitive**: sends `PaCmd::Restart`.
//!
//! # Attributes
//!
//! A vertex carries GPUREG_ATTRIBBUFFERS_FORMAT_HIGH bits 28-31 + 1 attributes, in
//! *loader-attribute order*: entry n is vertex attribute n. VL does not apply
//! GPUREG_VSH_ATTRIBUTES_PERMUTATION: the shader stage already does when it loads the inputs
//! (`shader::io::load_inputs`: attribute n lands in the register named by permutation nibble
//! n), and it loads only GPUREG_SH_INPUTBUFFER_CONFIG's count of them. GPUREG_VSH_NUM_ATTR is
//! the size of an immediate-mode vertex (REGS uses it); VL does not read it for draws (Azahar
//! does not either). Each attribute comes from ([`layout::Source`]): an array bound to it, else
//! its fixed attribute if its bit is set in the fixed-attribute mask, else the value that
//! attribute slot last carried (power-on zero).
//!
//! # Post-vertex cache
//!
//! [`cache::PostVertexCache`]: tags (vertex index → seq) of the vertices already sent to the
//! shader units. A hit sends only `PaCmd::Vertex(seq)` of the earlier shading.
//! - Only DrawElements uses it ([`CACHE_DRAW_ARRAYS`]), and not while the geometry shader is
//!   in use ([`CACHE_WITH_GS`]).
//! - UNVERIFIED(hw) [fact: vl-cache-policy]: GPUREG_POST_VERTEX_CACHE_NUM bits 0-7 is the number of entries, literally
//!   (seed 002: "usually 0x4 or 0x84"; 0 turns the cache off); FIFO replacement (Azahar; see
//!   [`cache::PostVertexCache`]).
//! - Every draw starts with an empty cache, and GPUREG_VTX_FUNC empties it
//!   ([`CACHE_ACROSS_DRAWS`]). This gives PA a bounded contract: **a hit names a seq VL sent
//!   to the shader units earlier in the same draw, one of the last POST_VERTEX_CACHE_NUM
//!   vertices it sent; PA may drop shaded vertices after `End`.**
//!
//! # Registers VL reads but does not act on
//!
//! - GPUREG_GEOSTAGE_CONFIG bit 8 / GEOSTAGE_CONFIG2 bits 0 and 8 ("drawing triangle
//!   elements", "function indicator"): what the driver sets around a draw (seed 002, seed 004).
//!   UNVERIFIED(hw) [fact: vl-draw-params-ignored]: VL ignores them; the trigger register alone says which draw it is.
//! - GPUREG_START_DRAW_FUNC0: a draw triggered in mode 1 ("configuration") runs like one in
//!   mode 0; VL only traces it ([`DRAW_IN_CONFIGURATION_MODE`]).
//!
//! Timing: `timing::VL_PA_CMDS_PER_CYCLE`, `timing::VL_COMMAND_LATENCY`.

pub mod cache;
pub mod layout;

use crate::knobs::GsNewDraw;
use crate::link::{Link, LinkFull};
use crate::mem::Memory;
use crate::pipe::{PaCmd, VlCmd};
use crate::regfile::RegFile;
use crate::regs::{self, id};
use crate::shader::interp::Vec4;
use crate::shader::io::GsSetup;
use crate::shader::stage::{ShIn, VertexIn};
use crate::timing;
use cache::PostVertexCache;
use layout::{Layout, Source, MAX_ATTRIBS};
use serde::Serialize;
use serde_json::json;

pub use crate::outcome::VlHang;

/// Whether DrawArrays uses the post-vertex cache too.
///
/// UNVERIFIED(hw) [fact: vl-cache-scope]: no — Azahar caches indexed draws only (pica_core.cpp `LoadVertices`); a
/// non-indexed draw never repeats an index (before 2^32 vertices) anyway.
pub const CACHE_DRAW_ARRAYS: bool = false;

/// Whether the post-vertex cache keeps its entries from one draw to the next, until
/// GPUREG_VTX_FUNC clears it.
///
/// UNVERIFIED(hw) [fact: vl-cache-scope]: no — model choice: every draw starts with an empty cache (Azahar's cache
/// lives for one draw too). The hardware probably keeps it (drivers write VTX_FUNC after each
/// draw, 3dbrew GPU/Programming_Guide "Drawing elements"), which no driver-built list can
/// tell apart. With `false`, PA may drop shaded vertices after `PaCmd::End`; with `true` PA
/// would have to keep them across draws.
pub const CACHE_ACROSS_DRAWS: bool = false;

/// Whether the post-vertex cache is used while the geometry shader is in use
/// (GPUREG_GEOSTAGE_CONFIG bits 0-1 = 2).
///
/// UNVERIFIED(hw) [fact: vl-cache-scope]: no — model choice: the shader stage feeds every VS output to the GS input
/// assembler itself, so a vertex must be shaded each time the GS is to see it.
pub const CACHE_WITH_GS: bool = false;

/// Whether a draw triggered while GPUREG_START_DRAW_FUNC0 is 1 ("configuration") runs.
///
/// UNVERIFIED(hw) [fact: vl-configuration-mode-draw]: yes, exactly as in mode 0 — seed 002 says only that rendering "is not
/// performed properly" in mode 1; what goes wrong is not documented.
pub const DRAW_IN_CONFIGURATION_MODE: bool = true;

impl From<LinkFull> for VlHang {
    fn from(e: LinkFull) -> Self {
        VlHang::Internal {
            what: e.to_string(),
        }
    }
}

/// What VL touches in one cycle.
pub struct VlPorts<'a> {
    /// Configuration (REGS holds further writes while a draw is in flight).
    pub regs: &'a RegFile,
    /// Attribute and index buffers.
    pub mem: &'a Memory,
    /// Draws and immediate vertices from REGS.
    pub cmd: &'a mut Link<VlCmd>,
    /// Vertices (and the GS markers) to the shader units.
    pub vs_in: &'a mut Link<ShIn>,
    /// Vertex order to primitive assembly.
    pub to_pa: &'a mut Link<PaCmd>,
}

/// Counters for reports and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VlStats {
    /// Draws started (DrawArrays and DrawElements).
    pub draws: u64,
    /// Vertices sent to the shader units (draws and immediate mode).
    pub shaded: u64,
    /// Draw vertices served by the post-vertex cache.
    pub cache_hits: u64,
    /// Variable-size GS mode: index-buffer entries read as primitive vertex counts.
    pub gs_counts: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Phase {
    Begin,
    Vertices,
    End,
}

/// A draw in progress.
#[derive(Clone, Debug)]
struct Draw {
    indexed: bool,
    layout: Layout,
    /// GPUREG_NUMVERTICES.
    count: u32,
    /// Vertices of the draw sent to PA so far.
    done: u32,
    /// DrawArrays: GPUREG_VERTEX_OFFSET.
    first: u32,
    /// DrawElements: physical address of index 0.
    index_addr: u32,
    /// DrawElements: 16-bit indices (else 8-bit).
    index_u16: bool,
    /// Whether the post-vertex cache is in use.
    use_cache: bool,
    /// The GS configuration of the draw (`None`: no GS).
    gs: Option<GsSetup>,
    phase: Phase,
}

impl Draw {
    /// The vertex index of the draw's vertex `n`.
    fn vertex_index(&self, mem: &Memory, n: u32) -> Result<u32, VlHang> {
        if !self.indexed {
            return Ok(self.first.wrapping_add(n));
        }
        let size: u32 = if self.index_u16 { 2 } else { 1 };
        let at = self.index_addr.wrapping_add(n.wrapping_mul(size));
        let mut v = 0u32;
        for i in 0..size {
            let addr = at.wrapping_add(i);
            let b = mem.read_u8(addr).map_err(|_| VlHang::ReadUnmapped {
                buffer: None,
                addr,
                index: n,
            })?;
            v |= u32::from(b) << (8 * i);
        }
        Ok(v)
    }
}

/// What one step of a draw did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Progress {
    /// Nothing: a link was full.
    Stalled,
    /// Sent a message; the draw goes on.
    Sent,
    /// Sent `End`: the draw is complete.
    Finished,
}

#[derive(Clone, Debug)]
enum Job {
    Draw(Box<Draw>),
    Immediate {
        attrs: Vec<Vec4>,
        /// A [`ShIn::Begin`] goes first (a batch starts with the GS in use).
        begin: bool,
        /// The GS configuration (`None`: no GS).
        gs: Option<GsSetup>,
    },
    Restart,
}

/// The VL stage.
#[derive(Clone, Debug)]
pub struct VertexLoader {
    job: Option<Job>,
    /// First cycle in which the current job may send (`timing::VL_COMMAND_LATENCY`).
    ready_at: u64,
    /// `seq` of the next vertex sent to the shader units.
    next_seq: u32,
    cache: PostVertexCache,
    /// The value each attribute slot last carried (for attributes without a source).
    latch: [Vec4; MAX_ATTRIBS],
    /// Set once VL hung: it stops for good.
    hang: Option<VlHang>,
    stats: VlStats,
    /// The GS configuration of the last draw or batch with the GS in use.
    gs_setup: Option<GsSetup>,
    /// Variable-size GS mode: vertices left in the current primitive (0: the next index-buffer
    /// entry is a vertex count).
    var_left: u32,
}

impl Default for VertexLoader {
    fn default() -> Self {
        Self::new()
    }
}

/// Power-on value of the attribute latches.
///
/// UNVERIFIED(hw) [fact: vl-latch-reset]: zero in every component — model choice.
const LATCH_RESET: Vec4 = [crate::num::F24::ZERO; 4];

impl VertexLoader {
    /// Power-on state.
    pub fn new() -> Self {
        Self {
            job: None,
            ready_at: 0,
            next_seq: 0,
            cache: PostVertexCache::default(),
            latch: [LATCH_RESET; MAX_ATTRIBS],
            hang: None,
            stats: VlStats::default(),
            gs_setup: None,
            var_left: 0,
        }
    }

    /// A draw or batch begins with the GS in use (`setup`): the variable-mode count state
    /// starts over (knob `gs-new-draw=reset`), or carries over when the configuration is
    /// unchanged (`keep`) — the rule the shader stage's assembler follows.
    fn gs_begin(&mut self, regs: &RegFile, setup: GsSetup) {
        let keep = regs.knobs().gs_new_draw == GsNewDraw::Keep && self.gs_setup == Some(setup);
        if !keep {
            self.var_left = 0;
        }
        self.gs_setup = Some(setup);
    }

    /// The `seq` the next vertex sent to the shader units will carry.
    pub fn next_seq(&self) -> u32 {
        self.next_seq
    }

    /// The post-vertex cache.
    pub fn cache(&self) -> &PostVertexCache {
        &self.cache
    }

    /// Counters.
    pub fn stats(&self) -> VlStats {
        self.stats
    }

    /// Advances one cycle.
    pub fn tick(&mut self, cycle: u64, ports: VlPorts<'_>) -> Result<(), VlHang> {
        if self.hang.is_some() {
            // Hung for good; the hang was reported when it happened.
            return Ok(());
        }
        let r = self.tick_inner(cycle, ports);
        if let Err(h) = &r {
            tracing::debug!(target: "vl", cycle, %h, "hang");
            self.hang = Some(h.clone());
        }
        r
    }

    fn tick_inner(&mut self, cycle: u64, mut ports: VlPorts<'_>) -> Result<(), VlHang> {
        if self.job.is_none() {
            let Some(cmd) = ports.cmd.pop() else {
                return Ok(());
            };
            self.accept(cycle, cmd, ports.regs)?;
            self.ready_at = cycle.saturating_add(u64::from(timing::VL_COMMAND_LATENCY));
        }
        if cycle < self.ready_at {
            return Ok(());
        }
        for _ in 0..timing::VL_PA_CMDS_PER_CYCLE {
            if !self.step(cycle, &mut ports)? {
                break;
            }
        }
        Ok(())
    }

    /// Takes a command from REGS.
    fn accept(&mut self, cycle: u64, cmd: VlCmd, regs: &RegFile) -> Result<(), VlHang> {
        match cmd {
            VlCmd::ClearVertexCache => {
                tracing::debug!(target: "vl", cycle, "post-vertex cache cleared (VTX_FUNC)");
                self.cache.clear();
            }
            VlCmd::RestartPrimitive => self.job = Some(Job::Restart),
            VlCmd::Immediate { attrs, batch_start } => {
                let gs = GsSetup::from_regs(regs);
                if let (true, Some(setup)) = (batch_start, gs) {
                    self.gs_begin(regs, setup);
                }
                self.job = Some(Job::Immediate {
                    attrs,
                    begin: batch_start && gs.is_some(),
                    gs,
                });
            }
            VlCmd::DrawArrays | VlCmd::DrawElements => {
                let indexed = cmd == VlCmd::DrawElements;
                let r = |id: u16| regs.reg(id.into());
                let layout = Layout::decode(regs);
                layout.check_strides()?;
                let ib = regs::IndexbufferConfig(r(id::INDEXBUFFER_CONFIG));
                let gs = GsSetup::from_regs(regs);
                let gs_on = gs.is_some();
                let cache_entries =
                    regs::PostVertexCacheNum(r(id::POST_VERTEX_CACHE_NUM)).entries() as usize;
                let use_cache = (indexed || CACHE_DRAW_ARRAYS)
                    && (!gs_on || CACHE_WITH_GS)
                    && cache_entries > 0;
                let capacity = if use_cache { cache_entries } else { 0 };
                if !CACHE_ACROSS_DRAWS {
                    self.cache.reset(capacity);
                } else if use_cache {
                    self.cache.set_capacity(capacity);
                }
                self.cache.set_policy(regs.knobs().vl_cache_policy);
                if !matches!(
                    regs::StartDrawFunc0(r(id::START_DRAW_FUNC0)).mode(),
                    regs::StartDrawFunc0Mode::Drawing
                ) {
                    tracing::debug!(
                        target: "vl",
                        cycle,
                        run = DRAW_IN_CONFIGURATION_MODE,
                        "draw triggered with START_DRAW_FUNC0 in configuration mode"
                    );
                    if !DRAW_IN_CONFIGURATION_MODE {
                        return Ok(());
                    }
                }
                let draw = Draw {
                    indexed,
                    count: regs::Numvertices(r(id::NUMVERTICES)).count(),
                    done: 0,
                    first: regs::VertexOffset(r(id::VERTEX_OFFSET)).offset(),
                    index_addr: layout.base.wrapping_add(ib.offset()),
                    // The offset is relative to the arrays' base (seed 004 "relative to base
                    // set with command 0x0200"); bit 31 picks u16 (a 1-bit field: no reserved
                    // encodings).
                    index_u16: !matches!(ib.index_type(), regs::IndexbufferConfigIndexType::U8),
                    use_cache,
                    gs,
                    phase: Phase::Begin,
                    layout,
                };
                if let Some(setup) = gs {
                    self.gs_begin(regs, setup);
                }
                tracing::debug!(
                    target: "vl",
                    cycle,
                    indexed,
                    count = draw.count,
                    attribs = draw.layout.count,
                    cache = use_cache,
                    "draw"
                );
                self.stats.draws += 1;
                self.job = Some(Job::Draw(Box::new(draw)));
            }
        }
        Ok(())
    }

    /// One message of the current job. Returns whether it sent and the job goes on (so it
    /// may send again this cycle if the budget allows).
    fn step(&mut self, cycle: u64, ports: &mut VlPorts<'_>) -> Result<bool, VlHang> {
        // Every step sends to PA.
        if !ports.to_pa.can_push() {
            return Ok(false);
        }
        let Some(job) = self.job.take() else {
            return Ok(false);
        };
        match job {
            Job::Restart => {
                ports.to_pa.push(PaCmd::Restart)?;
                Ok(false)
            }
            Job::Immediate { attrs, begin, gs } => {
                if !ports.vs_in.can_push() {
                    self.job = Some(Job::Immediate { attrs, begin, gs });
                    return Ok(false);
                }
                if begin {
                    // The batch's Begin first, in a step of its own.
                    ports.vs_in.push(ShIn::Begin { seq: self.next_seq })?;
                    self.job = Some(Job::Immediate {
                        attrs,
                        begin: false,
                        gs,
                    });
                    return Ok(true);
                }
                if gs.is_some_and(|g| g.reads_counts()) && self.var_left == 0 {
                    self.job = Some(Job::Immediate { attrs, begin, gs });
                    return Err(VlHang::GsCountWithoutIndex {
                        what: "an immediate-mode vertex",
                    });
                }
                self.var_left = self.var_left.saturating_sub(1);
                let seq = self.send(ports, attrs)?;
                tracing::trace!(target: "vl", cycle, seq, "immediate vertex");
                Ok(false)
            }
            Job::Draw(mut d) => {
                let p = self.step_draw(cycle, ports, &mut d);
                // Keep the draw unless it finished (also on a hang: the snapshot shows where).
                if !matches!(p, Ok(Progress::Finished)) {
                    self.job = Some(Job::Draw(d));
                }
                Ok(p? == Progress::Sent)
            }
        }
    }

    /// One message of a draw.
    fn step_draw(
        &mut self,
        cycle: u64,
        ports: &mut VlPorts<'_>,
        d: &mut Draw,
    ) -> Result<Progress, VlHang> {
        match d.phase {
            Phase::Begin => {
                if d.gs.is_some() {
                    // The GS input assembler reads its configuration here.
                    if !ports.vs_in.can_push() {
                        return Ok(Progress::Stalled);
                    }
                    ports.vs_in.push(ShIn::Begin { seq: self.next_seq })?;
                }
                ports.to_pa.push(PaCmd::Begin)?;
                d.phase = if d.count == 0 {
                    Phase::End
                } else {
                    Phase::Vertices
                };
                Ok(Progress::Sent)
            }
            Phase::End => {
                ports.to_pa.push(PaCmd::End)?;
                tracing::debug!(target: "vl", cycle, "draw end");
                Ok(Progress::Finished)
            }
            Phase::Vertices => {
                let n = d.done;
                if d.gs.is_some_and(|g| g.reads_counts()) && self.var_left == 0 {
                    return self.step_count(ports, d);
                }
                let vertex = d.vertex_index(ports.mem, n)?;
                let hit = if d.use_cache {
                    self.cache.hit(vertex)
                } else {
                    None
                };
                let seq = match hit {
                    Some(seq) => {
                        ports.to_pa.push(PaCmd::Vertex(seq))?;
                        self.stats.cache_hits += 1;
                        seq
                    }
                    None => {
                        if !ports.vs_in.can_push() {
                            return Ok(Progress::Stalled);
                        }
                        let attrs = self.load(ports, &d.layout, vertex)?;
                        let seq = self.send(ports, attrs)?;
                        if d.use_cache {
                            self.cache.insert(vertex, seq);
                        }
                        seq
                    }
                };
                tracing::trace!(target: "vl", cycle, n, vertex, seq, hit = hit.is_some(), "vertex");
                self.var_left = self.var_left.saturating_sub(1);
                d.done += 1;
                if d.done == d.count {
                    d.phase = Phase::End;
                }
                Ok(Progress::Sent)
            }
        }
    }

    /// Variable-size GS mode: index-buffer entry `d.done` is the next primitive's vertex
    /// count, sent to the shader units as [`ShIn::GsCount`] (it counts toward
    /// GPUREG_NUMVERTICES). A draw without an index buffer has no count to read: VL hangs.
    fn step_count(&mut self, ports: &mut VlPorts<'_>, d: &mut Draw) -> Result<Progress, VlHang> {
        if !d.indexed {
            return Err(VlHang::GsCountWithoutIndex {
                what: "a draw-arrays vertex",
            });
        }
        if !ports.vs_in.can_push() {
            return Ok(Progress::Stalled);
        }
        // An index is at most 16 bits wide.
        let count = d.vertex_index(ports.mem, d.done)? as u16;
        ports.vs_in.push(ShIn::GsCount {
            seq: self.next_seq,
            count,
        })?;
        self.var_left = u32::from(count);
        self.stats.gs_counts += 1;
        d.done += 1;
        if d.done == d.count {
            d.phase = Phase::End;
        }
        Ok(Progress::Sent)
    }

    /// The attributes of vertex `vertex` of a draw, in loader-attribute order.
    fn load(&self, ports: &VlPorts<'_>, layout: &Layout, vertex: u32) -> Result<Vec<Vec4>, VlHang> {
        let fixed = ports.regs.fixed_attribs();
        (0..layout.count.min(MAX_ATTRIBS))
            .map(|a| match layout.source(a) {
                Source::Array(s) => layout.read(ports.mem, &s, vertex),
                Source::Fixed => Ok(fixed.get(a).copied().unwrap_or(LATCH_RESET)),
                Source::Retained => Ok(self.latch[a]),
            })
            .collect()
    }

    /// Sends a vertex to the shader units and its `seq` to PA; both links have room.
    fn send(&mut self, ports: &mut VlPorts<'_>, attrs: Vec<Vec4>) -> Result<u32, VlHang> {
        let seq = self.next_seq;
        for (l, a) in self.latch.iter_mut().zip(&attrs) {
            *l = *a;
        }
        ports.vs_in.push(ShIn::Vertex(VertexIn { seq, attrs }))?;
        ports.to_pa.push(PaCmd::Vertex(seq))?;
        // UNVERIFIED(hw) [fact: vl-sequence-wrap]: the sequence number wraps after 2^32 vertices — model choice (the
        // shader stage counts the same way).
        self.next_seq = seq.wrapping_add(1);
        self.stats.shaded += 1;
        Ok(seq)
    }

    /// Whether no command is in progress.
    pub fn is_idle(&self) -> bool {
        self.job.is_none() && self.hang.is_none()
    }

    /// Internal state for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        let job = match &self.job {
            None => json!(null),
            Some(Job::Restart) => json!({ "kind": "restart" }),
            Some(Job::Immediate { attrs, .. }) => {
                json!({ "kind": "immediate", "attribs": attrs.len() })
            }
            Some(Job::Draw(d)) => json!({
                "kind": if d.indexed { "draw_elements" } else { "draw_arrays" },
                "phase": d.phase,
                "done": d.done,
                "count": d.count,
                "attribs": d.layout.count,
                "cache": d.use_cache,
            }),
        };
        json!({
            "job": job,
            "next_seq": self.next_seq,
            "gs_setup": self.gs_setup,
            "gs_vertices_left": self.var_left,
            "cache": self.cache.snapshot(),
            "stats": self.stats,
            "hang": self.hang,
        })
    }
}
