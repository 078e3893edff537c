//! Every timing figure of the model, in one place.
//!
//! The real PICA200's latencies and FIFO depths are not public. Each value here is a model
//! choice that the RTL implements identically, which is what makes cycle-exact lockstep
//! comparison possible. Change a figure here and the RTL must change with it.

/// Command words the CP fetches per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one 32-bit word per cycle — model choice (design.md "one command word per
/// cycle into the CP"); real fetch bandwidth is not documented.
pub const CP_WORDS_PER_CYCLE: u32 = 1;

/// Depth of the CP → REGS register-write FIFO (entries).
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 4 entries — model choice; REGS retires one write per cycle, so the FIFO never
/// fills in this model, but the bound is part of the RTL contract.
pub const CP_TO_REGS_DEPTH: usize = 4;

/// Register writes REGS retires per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one write per cycle — model choice.
pub const REGS_WRITES_PER_CYCLE: u32 = 1;

/// Depth of the REGS → CP redirect link that carries a CMDBUF jump target back to the CP.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 1 entry — model choice. The CP stops fetching after it issues a write to
/// GPUREG_CMDBUF_JUMPn and resumes from the new buffer the cycle after REGS has applied that
/// write (so CMDBUF_ADDRn/SIZEn written just before the jump are honoured).
pub const REGS_TO_CP_REDIRECT_DEPTH: usize = 1;

/// Shader instructions each unit executes per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one instruction per cycle, every opcode — model choice (no public latency
/// figures; the RTL implements the same).
pub const SHADER_INSTRUCTIONS_PER_CYCLE: u32 = 1;

/// Shaded vertices (or GS emits) the shader stage sends on per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one per cycle — model choice.
pub const SHADER_OUTPUTS_PER_CYCLE: u32 = 1;

/// Depth of the vertex link into the shader units.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 4 entries — model choice.
pub const SHADER_IN_DEPTH: usize = 4;

/// Depth of the link from the shader units to primitive assembly.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 4 entries — model choice.
pub const SHADER_OUT_DEPTH: usize = 4;

/// GS invocations assembled from VS outputs that may wait for unit 3.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 1 — model choice: while one invocation waits, VS results destined for the
/// GS stay in their units (which then stall), so no queue grows without bound.
pub const GS_INVOCATION_QUEUE_DEPTH: usize = 1;

/// VL's markers (draw begin, variable-mode vertex counts; `shader::stage::ShIn`) the shader
/// stage holds until the vertices before them have left the VS units.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 4 — model choice: at most one marker per
/// vertex in flight (a count precedes at least one vertex unless it is 0), and the VS units
/// hold at most four vertices; a full queue stops the stage taking input (the RTL's marker
/// FIFO has the same depth; timing only).
pub const SH_MARKER_DEPTH: usize = 4;

/// GS EMITs buffered between unit 3 and the output link.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 4 entries — model choice. Unit 3 does not execute while the buffer is full
/// (an EMIT needs room), so a GS that emits faster than the output drains stalls.
pub const GS_EMIT_BUFFER_DEPTH: usize = 4;

// ---- Geometry and fragment pipeline (issue 5). Each stage's figures in its own section. ----

/// Depth of the REGS → VL command link (draw triggers, immediate vertices).
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 1 entry — model choice: REGS holds further writes while a draw is in
/// flight, so one is enough.
pub const REGS_TO_VL_DEPTH: usize = 1;

// -- VL --

/// Messages VL sends to PA per cycle (`PaCmd::Begin`, each `PaCmd::Vertex`, `Restart`, `End`).
///
/// UNVERIFIED(hw) [fact: timing-rates]: one per cycle — model choice. A vertex that must be shaded goes to the
/// shader units in the same cycle as its `PaCmd::Vertex` (both links need room that cycle); a
/// post-vertex-cache hit needs only the PA link. So a draw of n vertices takes n + 2 cycles
/// when nothing stalls (Begin, n vertices, End), an immediate vertex or a restart one cycle.
pub const VL_PA_CMDS_PER_CYCLE: u32 = 1;

/// Cycles between VL taking a command from REGS and the first cycle it may send for it.
///
/// UNVERIFIED(hw) [fact: timing-latencies]: 0 — the command's first message leaves in the cycle VL takes it (decode,
/// stride check, the first index and attribute reads all happen in that cycle); model choice.
/// GPUREG_VTX_FUNC clears the post-vertex cache in the cycle VL takes it.
pub const VL_COMMAND_LATENCY: u32 = 0;

/// Depth of the VL → PA vertex-order link.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 16 entries — model choice.
pub const VL_TO_PA_DEPTH: usize = 16;

// -- PA --

/// Depth of the PA → CLIP triangle link.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 2 entries — model choice.
pub const PA_TO_CLIP_DEPTH: usize = 2;

/// Shaded items (VS vertices or GS emits) PA accepts from SH per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one per cycle — model choice, matching [`SHADER_OUTPUTS_PER_CYCLE`]. The
/// output map and colour saturation happen in the cycle the item is accepted. With the GS in
/// use an item is accepted only while PA's output register is free (it may be a triangle).
pub const PA_ITEMS_PER_CYCLE: u32 = 1;

/// Vertex-order commands (`PaCmd`) PA processes per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one per cycle — model choice. A vertex command waits (and blocks the ones
/// behind it) until its shaded vertex has arrived and the output register is free; it is
/// processed in the cycle the vertex arrives.
pub const PA_CMDS_PER_CYCLE: u32 = 1;

/// Triangles PA sends to CLIP per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one per cycle, from a one-triangle output register — model choice. A
/// triangle leaves in the cycle its last vertex is assembled if the link has room; otherwise
/// it stays in the register and PA assembles nothing more until it has left.
pub const PA_TRIANGLES_PER_CYCLE: u32 = 1;

// -- CLIP --

/// Depth of the CLIP → RAST triangle link.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 2 entries — model choice.
pub const CLIP_TO_RAST_DEPTH: usize = 2;

/// Triangles CLIP takes from PA per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one per cycle, and only when every window-space triangle of the previous
/// input has left — model choice. Clipping, perspective division, viewport, depth map and
/// face culling of a triangle happen in the cycle it is taken (no extra latency).
pub const CLIP_INPUTS_PER_CYCLE: u32 = 1;

/// Window-space triangles CLIP sends to RAST per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one per cycle — model choice. An input triangle therefore occupies CLIP for
/// max(1, k) cycles, k being the triangles left after clipping and culling; the first leaves
/// in the cycle the input is taken.
pub const CLIP_OUTPUTS_PER_CYCLE: u32 = 1;

// -- RAST --

/// Cycles RAST spends setting up a triangle, counting the cycle in which it takes the triangle
/// from CLIP; pixels are examined from the cycle after the last one.
///
/// UNVERIFIED(hw) [fact: timing-latencies]: 4 cycles — model choice (fixed-point conversion, edge functions and
/// bounding box, the per-vertex attribute × 1/w products). A triangle with nothing to walk
/// (zero area, or its bounding box clipped away) costs exactly these cycles.
pub const RAST_SETUP_CYCLES: u32 = 4;

/// Pixels of the clipped bounding box RAST examines per cycle (covered or not).
///
/// UNVERIFIED(hw) [fact: timing-rates]: one pixel per cycle — model choice. A covered pixel whose fragment finds the
/// link to FOP full is examined again the next cycle (traversal stalls).
pub const RAST_PIXELS_PER_CYCLE: u32 = 1;

/// Depth of the RAST → TEX fragment link.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 4 entries — model choice.
pub const RAST_TO_TEX_DEPTH: usize = 4;

// -- FRAG (TEX, LIGHT, TEV, FOG) --

/// Fragments each of TEX, LIGHT, TEV and FOG takes per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one fragment per cycle per stage, finished in the cycle it is taken (all
/// texel reads of the up to three texture units, all eight lights, all six combiners in one
/// cycle), so each stage adds exactly one cycle of latency: its output link — model choice;
/// the hardware's texture-cache and lighting throughput are not public.
pub const FRAG_FRAGMENTS_PER_CYCLE: u32 = 1;

/// Depth of each link between TEX, LIGHT, TEV, FOG and FOP.
///
/// UNVERIFIED(hw) [fact: timing-queue-depths]: 4 entries — model choice.
pub const FRAG_LINK_DEPTH: usize = 4;

// -- FOP --

/// Fragments FOP takes from the RAST → FOP link per cycle.
///
/// UNVERIFIED(hw) [fact: timing-rates]: one fragment per cycle, each finished in the cycle FOP pops it (tests,
/// buffer reads, blend, buffer writes and the pixel beat all in that cycle; no internal
/// pipeline, no framebuffer cache) — model choice; the real fill rate and latency are not
/// public.
pub const FOP_FRAGMENTS_PER_CYCLE: u32 = 1;
