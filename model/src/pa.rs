//! PA: output mapping and primitive assembly.
//!
//! # Output map (GPUREG_SH_OUTMAP_TOTAL / O0-O6)
//!
//! A shaded vertex reaches PA as the *enabled* output registers of its shader unit, in register
//! order (GPUREG_xSH_OUTMAP_MASK; [`crate::shader::io::masked_outputs`]). GPUREG_SH_OUTMAP_Oi
//! describes the **i-th enabled output register** (not register `oi`): Azahar's
//! `ShaderUnit::WriteOutput` packs the enabled registers into consecutive slots of the output
//! buffer and `OutputVertex`'s constructor applies map `i` to slot `i` — a fact of Azahar
//! `video_core/pica/shader_unit.cpp` and `output_vertex.cpp`. Only the first
//! `SH_OUTMAP_TOTAL` (bits 0-2) maps apply, at most seven (O0-O6).
//!
//! Each component of a mapped register is written to the semantic its 5-bit field names
//! (seed 002 GPUREG_SH_OUTMAP_Oi). Semantics written by nothing read 1.0 (seed 002: "Semantics
//! that have not been mapped ... have a value of 1"; [`OutVertex::ONES`]). Maps are applied in
//! register order and x, y, z, w within a register, so when two components name the same
//! semantic the later one wins. Field values 0x18-0x1F (0x1F = "unused") write nothing.
//!
//! - UNVERIFIED(hw) [fact: pa-unnamed-semantics]: a component mapped to 0x11 or 0x15 (no semantic in the seed) is stored in
//!   that slot of [`OutVertex::attr`] like any other — Azahar `OutputVertex` has those slots
//!   as padding inside the same array. Nothing downstream reads them.
//! - UNVERIFIED(hw) [fact: pa-missing-output-register]: a map Oi whose enabled output register does not exist (the mask enables
//!   fewer than `SH_OUTMAP_TOTAL` registers) maps nothing — model choice; Azahar reads a stale
//!   buffer slot there.
//! - UNVERIFIED(hw) [fact: pa-primitive-config-count]: GPUREG_PRIMITIVE_CONFIG bits 0-3 ("number of output map registers - 1")
//!   are not used; the count comes from SH_OUTMAP_TOTAL, as in Azahar.
//!
//! Colours (semantics 0x08-0x0B) are made absolute and saturated to 1.0 right after the map,
//! before clipping and interpolation (pica-facts §3: yuriks/3DS_gpu_tests colour-clamping
//! notes; Azahar `OutputVertex`): see [`saturate_color`].
//!
//! # Primitive assembly (GPUREG_PRIMITIVE_CONFIG bits 8-9)
//!
//! [`Assembler`] turns the vertex stream into triangles ([`Topology`]):
//! - **list** (mode 0): vertices 3k, 3k+1, 3k+2 form triangle k in that order.
//! - **strip** (mode 1): triangle k (k = 0, 1, ... after a restart) is
//!   `(v[k], v[k+1], v[k+2])` for even k and `(v[k+1], v[k], v[k+2])` for odd k, so every
//!   triangle of a strip keeps the winding of the first — the vertex order Azahar's
//!   `PrimitiveAssembler` (`video_core/pica/primitive_assembly.cpp`) produces, the same as
//!   OpenGL's.
//! - **fan** (mode 2): triangle k is `(v[0], v[k+1], v[k+2])`.
//! - **geometry primitive** (mode 3): with the GS in use triangles come from the GS (below);
//!   without it the mode assembles like a list (Azahar treats `TriangleTopology::Shader` as a
//!   list with a winding flag only the GS sets).
//!
//! The assembly state restarts on [`PaCmd::Begin`] (every draw), on [`PaCmd::Restart`]
//! (GPUREG_RESTART_PRIMITIVE) and when the primitive mode read at a vertex differs from the one
//! of the previous vertex (Azahar resets its assembler on every write to PRIMITIVE_CONFIG).
//! Immediate-mode vertices arrive as bare [`PaCmd::Vertex`] without Begin/End, so a strip or
//! fan continues across them until a restart.
//!
//! - UNVERIFIED(hw) [fact: pa-draw-restarts]: a draw restarts the assembly state — the [`PaCmd::Begin`] contract of
//!   `pipe.rs`. Azahar does *not* reset at a draw (its comment says the buffered vertices of a
//!   strip "should leak" into the next draw) and seed 000 notes that most games write
//!   RESTART_PRIMITIVE before every draw anyway, so the two agree for real command lists. Knob
//!   `pa-draw-restarts=leak` selects Azahar's behaviour.
//!
//! # Geometry shader (GPUREG_GEOSTAGE_CONFIG bits 0-1 = 2)
//!
//! With the GS in use SH sends only [`ShadedItem::GsVertex`] items. An item whose
//! `emitted.primitive` is `Some` (an EMIT that closed a primitive; SH has already applied the
//! winding flag, pica-facts §1) becomes one triangle, its vertices mapped through the GS
//! unit's output mask (GPUREG_GSH_OUTMAP_MASK) and the same output map; other items are
//! consumed. [`PaCmd::Vertex`] messages from VL name VS vertices that feed the GS, not PA:
//! PA consumes and ignores them (waiting for them would deadlock), but still honours
//! [`PaCmd::Begin`] / [`PaCmd::End`] for [`PrimitiveAssembler::is_idle`].
//!
//! - UNVERIFIED(hw) [fact: pa-gs-triangles]: with the GS in use every GS primitive is a triangle whatever
//!   PRIMITIVE_CONFIG says — model choice; drivers always select mode 3 with a GS. (Azahar
//!   feeds the three vertices through its assembler with the configured mode; for mode 0 it
//!   would drop the winding swap.)
//!
//! # Vertex order and the post-vertex cache
//!
//! VL sends one [`PaCmd::Vertex`]`(seq)` per vertex of the draw; a post-vertex-cache hit names
//! the `seq` of an earlier shading instead of a new one. SH delivers each shaded vertex once,
//! in `seq` order. PA keeps the mapped vertices of the open draw by `seq` until
//! [`PaCmd::End`]; outside a draw (immediate mode) a vertex is dropped once used. A `Vertex`
//! naming a `seq` SH has already passed but PA does not hold (which VL's contract rules out)
//! can never be satisfied: it is skipped and counted (`lost` in the snapshot) instead of
//! hanging the model.
//!
//! # Timing
//!
//! Per cycle PA accepts at most [`timing::PA_ITEMS_PER_CYCLE`] shaded item(s) from SH and
//! processes at most [`timing::PA_CMDS_PER_CYCLE`] command(s) from VL; a vertex completing a
//! triangle puts it in a one-triangle output register, which is sent to CLIP in the same cycle
//! if the link has room (at most [`timing::PA_TRIANGLES_PER_CYCLE`] per cycle). While the
//! register is full, vertices (and, with the GS, GS items) wait.
//!
//! # Beats
//!
//! One [`PrimitiveBeat`] per triangle sent, stamped with the cycle it was pushed.

use crate::beat::PrimitiveBeat;
use crate::knobs::{PaColorNan, PaDrawRestarts};
use crate::link::Link;
use crate::num::F24;
use crate::pipe::{semantic, OutVertex, PaCmd, Triangle};
use crate::regfile::unit::GS_UNIT;
use crate::regfile::RegFile;
use crate::regs::{self, id};
use crate::shader::interp::Vec4;
use crate::shader::stage::ShadedItem;
use crate::timing;
use serde_json::json;
use std::collections::BTreeMap;

/// Number of output map registers (GPUREG_SH_OUTMAP_O0-O6).
pub const OUTMAP_REGS: usize = 7;

/// What PA touches in one cycle.
pub struct PaPorts<'a> {
    /// Configuration.
    pub regs: &'a RegFile,
    /// Vertex order from VL.
    pub from_vl: &'a mut Link<PaCmd>,
    /// Shaded vertices (VS outputs or GS emits) from SH.
    pub from_sh: &'a mut Link<ShadedItem>,
    /// Triangles to CLIP.
    pub out: &'a mut Link<Triangle>,
    /// Where primitive beats go (`None`: not recorded).
    pub beats: Option<&'a mut Vec<PrimitiveBeat>>,
}

/// Whether the geometry shader is in use: GPUREG_GEOSTAGE_CONFIG bits 0-1 = 2 (the test SH
/// uses, [`crate::shader::stage`]).
pub fn gs_in_use(regs: &RegFile) -> bool {
    regs.reg(id::GEOSTAGE_CONFIG.into()) & 3 == 2
}

/// Makes a colour component absolute and saturates it to 1.0 (pica-facts §3).
///
/// Rule on the bits: clear the sign bit; if the result is above 1.0 (bits above `0x3F0000`,
/// which for a positive f24 includes +inf and every NaN) it becomes exactly 1.0.
///
/// - UNVERIFIED(hw) [fact: pa-color-saturate]: NaN becomes 1.0 — Azahar computes `c < 1 ? c : 1` on `|c|`, which gives
///   1.0 for NaN; not measured.
/// - UNVERIFIED(hw) [fact: pa-color-saturate]: -0 becomes +0 and subnormals are kept (no flush) — model choice (the
///   shader ALU does not produce either).
pub fn saturate_color(c: F24) -> F24 {
    saturate_color_with(c, PaColorNan::One)
}

/// [`saturate_color`] with knob `pa-color-nan`: [`PaColorNan::Zero`] makes a NaN 0.0.
pub fn saturate_color_with(c: F24, nan: PaColorNan) -> F24 {
    if c.is_nan() && nan == PaColorNan::Zero {
        return F24::ZERO;
    }
    let a = c.abs();
    if a.bits() > F24::ONE.bits() {
        F24::ONE
    } else {
        a
    }
}

/// Applies the output map to the enabled output registers of one shaded vertex (in register
/// order) and saturates the colour: the vertex PA assembles. See the module docs.
pub fn map_outputs<'a>(regs: &RegFile, outputs: impl IntoIterator<Item = &'a Vec4>) -> OutVertex {
    let total = (regs::ShOutmapTotal(regs.reg(id::SH_OUTMAP_TOTAL.into())).total() as usize)
        .min(OUTMAP_REGS);
    let mut v = OutVertex::ONES;
    for (i, out) in outputs.into_iter().take(total).enumerate() {
        let map = regs::ShOutmapO(regs.reg(u32::from(id::SH_OUTMAP_O0) + i as u32));
        for (value, sem) in out.iter().zip([map.x(), map.y(), map.z(), map.w()]) {
            // 0x18-0x1F have no slot: nothing is written.
            if let Some(slot) = v.attr.get_mut(sem.bits() as usize) {
                *slot = *value;
            }
        }
    }
    let nan = regs.knobs().pa_color_nan;
    for c in &mut v.attr[semantic::COLOR..semantic::COLOR + 4] {
        *c = saturate_color_with(*c, nan);
    }
    v
}

/// How vertices form triangles (GPUREG_PRIMITIVE_CONFIG bits 8-9, without the GS).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum Topology {
    /// Mode 0, and mode 3 without the GS: independent triangles.
    #[default]
    List,
    /// Mode 1: triangle strip.
    Strip,
    /// Mode 2: triangle fan.
    Fan,
}

impl Topology {
    /// The topology the registers select for VS vertices.
    ///
    /// Mode 3 ("geometry primitive") assembles as a list when it reaches the VS path (see the
    /// module docs). The 2-bit field has no other value; `Reserved` cannot occur and reads as a
    /// list.
    pub fn from_regs(regs: &RegFile) -> Self {
        use regs::PrimitiveConfigMode as M;
        match regs::PrimitiveConfig(regs.reg(id::PRIMITIVE_CONFIG.into())).primitive_mode() {
            M::TriangleStrip => Self::Strip,
            M::TriangleFan => Self::Fan,
            M::Triangles | M::GeometryPrimitive | M::Reserved(_) => Self::List,
        }
    }
}

/// The vertex-to-triangle state machine (see the module docs for the vertex orders).
#[derive(Clone, Debug, Default)]
pub struct Assembler {
    topology: Topology,
    /// List: the first vertices of the current triangle. Strip: the two latest vertices, older
    /// first. Fan: the centre, then the latest vertex.
    held: [Option<OutVertex>; 2],
    /// Strip: the next triangle is an odd one (its first two vertices swap).
    odd: bool,
}

impl Assembler {
    /// An empty assembler for `topology`.
    pub fn new(topology: Topology) -> Self {
        Self {
            topology,
            ..Self::default()
        }
    }

    /// Drops the held vertices: the next vertex starts a new primitive.
    pub fn restart(&mut self) {
        self.held = [None, None];
        self.odd = false;
    }

    /// The topology in use.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// Vertices held towards the next triangle (0-2).
    pub fn held(&self) -> usize {
        self.held.iter().flatten().count()
    }

    /// Adds the next vertex, assembled as `topology` (a topology different from the previous
    /// vertex's restarts first); returns the triangle it completes.
    pub fn submit(&mut self, topology: Topology, v: OutVertex) -> Option<[OutVertex; 3]> {
        if topology != self.topology {
            self.restart();
            self.topology = topology;
        }
        let [Some(a), Some(b)] = self.held else {
            let slot = usize::from(self.held[0].is_some());
            self.held[slot] = Some(v);
            return None;
        };
        match self.topology {
            Topology::List => {
                self.held = [None, None];
                Some([a, b, v])
            }
            Topology::Strip => {
                let tri = if self.odd { [b, a, v] } else { [a, b, v] };
                self.held = [Some(b), Some(v)];
                self.odd = !self.odd;
                Some(tri)
            }
            Topology::Fan => {
                self.held[1] = Some(v);
                Some([a, b, v])
            }
        }
    }
}

/// The PA stage.
#[derive(Clone, Debug, Default)]
pub struct PrimitiveAssembler {
    asm: Assembler,
    /// Mapped vertices by sequence number (the open draw's, or not yet used outside a draw).
    shaded: BTreeMap<u32, OutVertex>,
    /// One past the highest sequence number received from SH.
    next_seq: u64,
    /// The VL command being processed (a vertex waiting for its shading).
    head: Option<PaCmd>,
    /// Between [`PaCmd::Begin`] and [`PaCmd::End`].
    in_draw: bool,
    /// The output register: a triangle waiting for room on the link to CLIP.
    out: Option<Triangle>,
    /// Number of the next triangle (counts from 0 per run).
    next_tri: u32,
    /// Vertex commands skipped because their shading can never arrive.
    lost: u64,
}

impl PrimitiveAssembler {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances one cycle.
    pub fn tick(&mut self, cycle: u64, ports: PaPorts<'_>) {
        let regs = ports.regs;
        let gs = gs_in_use(regs);
        for _ in 0..timing::PA_ITEMS_PER_CYCLE {
            // With the GS an item may be a triangle: take one only while the register is free.
            if gs && self.out.is_some() {
                break;
            }
            let Some(item) = ports.from_sh.pop() else {
                break;
            };
            self.accept(regs, gs, item);
        }
        for _ in 0..timing::PA_CMDS_PER_CYCLE {
            if self.head.is_none() {
                self.head = ports.from_vl.pop();
            }
            let Some(cmd) = self.head else { break };
            if !self.process(regs, gs, cmd) {
                break;
            }
            self.head = None;
        }
        if let Some(t) = self.out {
            if ports.out.can_push() && ports.out.push(t).is_ok() {
                tracing::trace!(target: "pa", cycle, seq = t.seq, "triangle");
                if let Some(b) = ports.beats {
                    b.push(PrimitiveBeat {
                        cycle,
                        seq: t.seq,
                        v: t.v.map(|v| v.bits()),
                    });
                }
                self.out = None;
            }
        }
    }

    /// Takes one item from SH.
    fn accept(&mut self, regs: &RegFile, gs: bool, item: ShadedItem) {
        match (gs, item) {
            (false, ShadedItem::Vertex { seq, outputs }) => {
                let v = map_outputs(regs, outputs.iter().map(|(_, o)| o));
                self.shaded.insert(seq, v);
                self.next_seq = self.next_seq.max(u64::from(seq) + 1);
            }
            (true, ShadedItem::GsVertex { emitted, .. }) => {
                if let Some(prim) = &emitted.primitive {
                    let mask = regs.units()[GS_UNIT].outmap_mask;
                    let v = prim.map(|regs_out| {
                        map_outputs(
                            regs,
                            (0..16)
                                .filter(|&r| (mask >> r) & 1 != 0)
                                .filter_map(|r| regs_out.get(r)),
                        )
                    });
                    self.emit(v);
                }
            }
            (gs, item) => {
                // Cannot happen while REGS holds the configuration during a draw.
                tracing::debug!(target: "pa", gs, ?item, "item of the other shader mode dropped");
            }
        }
    }

    /// Puts a triangle in the output register (which the caller has checked is free).
    fn emit(&mut self, v: [OutVertex; 3]) {
        self.out = Some(Triangle {
            seq: self.next_tri,
            v,
        });
        self.next_tri = self.next_tri.wrapping_add(1);
    }

    /// Processes one VL command; false if it has to wait.
    fn process(&mut self, regs: &RegFile, gs: bool, cmd: PaCmd) -> bool {
        match cmd {
            PaCmd::Begin => {
                self.in_draw = true;
                // Knob `pa-draw-restarts=leak`: the held vertices carry over into this draw.
                if regs.knobs().pa_draw_restarts == PaDrawRestarts::Restart {
                    self.asm.restart();
                }
            }
            PaCmd::End => {
                self.in_draw = false;
                self.shaded.clear();
            }
            PaCmd::Restart => self.asm.restart(),
            // The GS consumes VS vertices; its primitives arrive as items.
            PaCmd::Vertex(_) if gs => {}
            PaCmd::Vertex(seq) => {
                if self.out.is_some() {
                    return false;
                }
                let v = if self.in_draw {
                    self.shaded.get(&seq).copied()
                } else {
                    self.shaded.remove(&seq)
                };
                match v {
                    Some(v) => {
                        if let Some(tri) = self.asm.submit(Topology::from_regs(regs), v) {
                            self.emit(tri);
                        }
                    }
                    None if u64::from(seq) < self.next_seq => {
                        self.lost += 1;
                        tracing::debug!(target: "pa", seq, "vertex never arrives: skipped");
                    }
                    None => return false,
                }
            }
        }
        true
    }

    /// Whether nothing is in flight: no command waiting, no triangle in the output register and
    /// no draw open. Strip/fan vertices held between immediate-mode vertices are state, not
    /// work, and do not count.
    pub fn is_idle(&self) -> bool {
        self.head.is_none() && self.out.is_none() && !self.in_draw
    }

    /// Internal state for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({
            "topology": self.asm.topology(),
            "held": self.asm.held(),
            "in_draw": self.in_draw,
            "head": self.head.map(|c| format!("{c:?}")),
            "out": self.out.map(|t| t.seq),
            "shaded": self.shaded.len(),
            "next_triangle": self.next_tri,
            "lost": self.lost,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cp::RegWrite;

    const ONE: u32 = 0x3F_0000;

    fn f(bits: u32) -> F24 {
        F24::from_bits(bits)
    }

    /// A register file after `writes` (id, full-word value), for the unit tests of PA and CLIP.
    /// Every plain register outside `config` set to junk, then `config` written: what a stage
    /// reading only `config` must not notice.
    pub(crate) fn noisy_regs(config: &[(u16, u32)], keep: &[u16]) -> RegFile {
        let mut writes = Vec::new();
        for reg in 0x040u16..0x300 {
            let plain = crate::regs::info(u32::from(reg))
                .is_some_and(|i| i.effect == crate::regs::SideEffect::None);
            if plain && !keep.contains(&reg) {
                writes.push((reg, 0xA5A5_5A5Au32.rotate_left(u32::from(reg) % 32)));
            }
        }
        writes.extend_from_slice(config);
        regs_with(&writes)
    }

    pub(crate) fn regs_with(writes: &[(u16, u32)]) -> RegFile {
        let mut r = RegFile::new();
        let mut beats = Vec::new();
        for &(id, param) in writes {
            r.apply(
                0,
                RegWrite {
                    id: id.into(),
                    mask: 0xF,
                    param,
                },
                &mut beats,
            );
        }
        r
    }

    /// A vertex whose position.x is `n` (as an integer-valued f24) and everything else 1.0.
    fn tagged(n: u32) -> OutVertex {
        let mut v = OutVertex::ONES;
        v.attr[0] = F24::from_f64_trunc(f64::from(n));
        v
    }

    fn tag(v: &OutVertex) -> u32 {
        v.attr[0].to_f64() as u32
    }

    fn run(topology: Topology, n: u32) -> Vec<[u32; 3]> {
        let mut a = Assembler::new(topology);
        (0..n)
            .filter_map(|i| a.submit(topology, tagged(i)))
            .map(|t| t.map(|v| tag(&v)))
            .collect()
    }

    #[test]
    fn pa_saturate_color_abs_and_clamp() {
        assert_eq!(saturate_color(f(0xBE_0000)).bits(), 0x3E_0000); // -0.5 -> 0.5
        assert_eq!(saturate_color(f(0x3E_0000)).bits(), 0x3E_0000); // 0.5 kept
        assert_eq!(saturate_color(f(0x40_0000)).bits(), ONE); // 2 -> 1
        assert_eq!(saturate_color(f(0xBF_0001)).bits(), ONE); // -1.0000153 -> 1
        assert_eq!(saturate_color(f(0xBF_0000)).bits(), ONE); // -1 -> 1
        assert_eq!(saturate_color(f(0x7F_0000)).bits(), ONE); // +inf
        assert_eq!(saturate_color(f(0xFF_0000)).bits(), ONE); // -inf
        assert_eq!(saturate_color(f(0x7F_8000)).bits(), ONE); // NaN
        assert_eq!(saturate_color(f(0x80_0000)).bits(), 0); // -0 -> +0
    }

    #[test]
    fn pa_outmap_unmapped_reads_one() {
        let r = regs_with(&[]);
        let v = map_outputs(&r, &[[f(0); 4]]);
        assert_eq!(v, OutVertex::ONES, "SH_OUTMAP_TOTAL = 0 maps nothing");
    }

    #[test]
    fn pa_outmap_later_component_wins_and_high_semantics_write_nothing() {
        // O0: x -> 0x08, y -> 0x08, z -> 0x18 (no slot), w -> 0x1F (unused).
        let r = regs_with(&[(id::SH_OUTMAP_TOTAL, 1), (id::SH_OUTMAP_O0, 0x1F18_0808)]);
        let v = map_outputs(
            &r,
            &[[f(0x3E_0000), f(0x3D_0000), f(0x3C_0000), f(0x3B_0000)]],
        );
        let mut want = OutVertex::ONES;
        want.attr[semantic::COLOR] = f(0x3D_0000);
        assert_eq!(v, want);
    }

    #[test]
    fn pa_list_order() {
        assert_eq!(run(Topology::List, 7), vec![[0, 1, 2], [3, 4, 5]]);
    }

    #[test]
    fn pa_strip_order_alternates() {
        assert_eq!(
            run(Topology::Strip, 6),
            vec![[0, 1, 2], [2, 1, 3], [2, 3, 4], [4, 3, 5]]
        );
    }

    #[test]
    fn pa_fan_order() {
        assert_eq!(run(Topology::Fan, 5), vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
    }

    #[test]
    fn pa_topology_change_restarts() {
        let mut a = Assembler::new(Topology::Strip);
        assert!(a.submit(Topology::Strip, tagged(0)).is_none());
        assert!(a.submit(Topology::Strip, tagged(1)).is_none());
        // A fan vertex after two strip vertices starts over.
        assert!(a.submit(Topology::Fan, tagged(2)).is_none());
        assert_eq!(a.held(), 1);
    }

    #[test]
    fn pa_mode3_without_gs_is_a_list() {
        let r = regs_with(&[(id::PRIMITIVE_CONFIG, 0x300)]);
        assert_eq!(Topology::from_regs(&r), Topology::List);
        let r = regs_with(&[(id::PRIMITIVE_CONFIG, 0x100)]);
        assert_eq!(Topology::from_regs(&r), Topology::Strip);
        let r = regs_with(&[(id::PRIMITIVE_CONFIG, 0x200)]);
        assert_eq!(Topology::from_regs(&r), Topology::Fan);
    }
}
