//! RAST stage cases and stage bundles (`kind` = [`KIND_RAST`]): a stream of register writes,
//! early-depth clears and clip-space triangles into CLIP + RAST, the early-depth buffer before,
//! and what the model expects — the fragments (every field, `tex_deriv` included) and the
//! early-depth buffer after. Replayed on `pica_rast_top` by `rtl-bridge/tb/pica_rast_replay_tb.sv`
//! (`scripts/replay`), run on the Verilated stage by `pica_rtl_bridge::rast_stage::RtlRast`.
//!
//! A [`RastCase`] is a plain list of operations ([`RastOp`]) plus the early-depth buffer it
//! starts from, so a shrinker can delete and simplify operations freely; [`run_model`] runs one
//! on the model (a register file with the writes in order; each triangle through
//! [`clip::process`] then [`rasterize`] with [`RastConfig::from_regs`] of the registers as they
//! stand); [`RastGen`] makes random ones.
//!
//! # Bundle files
//!
//! Every file is `$readmemh`-ready: one value per line, most significant digit first, no prefix.
//!
//! | file | lines | bits | what |
//! |---|---|---|---|
//! | `manifest.json` | | | format `pica-vectors` v1, `kind`, case, provenance, `dut`, `defines`, counts (`ops`, `triangles`, `clears`, `reg_writes`, `fragments`), the packing of every file (`ops_file`, `early_before`, `early_after`, `streams`), `ed_latency`, SHA-256 of every other file |
//! | `ops.hex` | one per operation | 1768 | `[1767:1760]` kind: 0 register write (`[41:32]` ID, `[31:0]` value after the byte-mask merge), 1 early-depth clear (a GPUREG_EARLYDEPTH_CLEAR write), 2 triangle (`[1759:1728]` seq, `[1727:0]` the vertices as `in_v_i`: vertex k semantic s at `[24*(24*k + s) +: 24]`) |
//! | `early_before.hex` | 1 + pixels | 56 | the early-depth buffer before: line 0 the clear value (`[23:0]`), then one line per pixel holding another value, `x[55:40] y[39:24] value[23:0]`, sorted by (y, x) |
//! | `early_after.hex` | 1 + pixels | 56 | the same after the run (what the model expects) |
//! | `fragment.hex` | one per fragment | 728 | expected `fragment` beats packed as the channel table's `FragmentBeat` (`pica_chan_pkg::fragment_beat_t`), in order; `cycle` = the fragment's index (the stage promises transactions, not cycles) |
//! | `fragment.jsonl` | same | | the same beats as JSON |
//! | `tex_deriv.hex` | one per fragment | 288 | the fragment's `tex_deriv` as `out_tex_deriv_o`: texcoord t (0..2) component c (du/dx, dv/dx, du/dy, dv/dy) at `[24*(4*t + c) +: 24]` |
//!
//! The early-depth files hold the pixels of the largest framebuffer (x < 2048, y < 1024); a
//! buffer value outside it is not carried (RAST never reads or writes one).

use super::bundle::{field_list, unpack_line, BundleError, BundleReader, StageBundle};
use super::StageProvenance;
use crate::shader_gen::{edgy_f24, Rng};
use pica_model::beat::FragmentBeat;
use pica_model::clip::{self, Plane, Viewport, W_EPSILON};
use pica_model::num::F24;
use pica_model::pipe::{semantic, Fragment, OutVertex, ScreenTri, Triangle, NUM_SEMANTICS};
use pica_model::rast::{
    self, fragment_beat, rasterize, EarlyDepthBuffer, PreparedTri, RastConfig, EARLY_DEPTH_CLEAR,
};
use pica_model::regfile::RegFile;
use pica_model::regs::{self, id, Trigger};
use serde_json::{json, Value};
use std::path::Path;

/// `kind` of a RAST stage bundle.
pub const KIND_RAST: &str = "stage:rast";

/// The RTL top a RAST stage bundle is replayed on.
pub const RAST_DUT: &str = "pica_rast_top";

/// Bits of one `ops.hex` line.
pub const OP_WIDTH: u32 = 1768;

/// Bits of one `tex_deriv.hex` line (`out_tex_deriv_o`).
pub const TEX_DERIV_WIDTH: u32 = 288;

/// Bits of one early-depth file line.
pub const EARLY_WIDTH: u32 = 56;

/// Columns of the early-depth buffer the bundle files carry (the largest framebuffer is 2047
/// wide).
pub const EARLY_COLS: u16 = 2048;

/// Rows of the early-depth buffer the bundle files carry (the largest framebuffer is 1024 high).
pub const EARLY_ROWS: u16 = 1024;

/// Number of registers the stage stores: CLIP's [`clip::CONFIG_REGS`] then RAST's
/// [`rast::CONFIG_REGS`].
pub const NUM_CFG: usize = clip::CONFIG_REGS.len() + rast::CONFIG_REGS.len();

/// The value a [`RastOp::Clear`] writes to GPUREG_EARLYDEPTH_CLEAR (any value is the event).
pub const CLEAR_WRITE_VALUE: u32 = 1;

/// Register IDs travel on a 10-bit port (`cfg_id_i`): higher bits are dropped.
const ID_MASK: u16 = 0x3FF;

/// Hex digits of one `ops.hex` line.
const OP_DIGITS: usize = (OP_WIDTH / 4) as usize;

/// f24 lanes of the vertex field (3 vertices × 24 semantics).
const VERTEX_LANES: usize = 3 * NUM_SEMANTICS;

/// The registers the stage stores, CLIP's then RAST's ([`NUM_CFG`]).
pub fn cfg_ids() -> [u16; NUM_CFG] {
    let c = clip::CONFIG_REGS.len();
    std::array::from_fn(|i| {
        if i < c {
            clip::CONFIG_REGS[i]
        } else {
            rast::CONFIG_REGS[i - c]
        }
    })
}

/// Every ID the stage decodes: the stored registers ([`cfg_ids`]) and the clear event.
fn decoded_ids() -> Vec<u16> {
    let mut ids = cfg_ids().to_vec();
    ids.push(EARLY_DEPTH_CLEAR);
    ids
}

/// The stored registers' values in `regs` ([`cfg_ids`] order).
pub fn cfg_words(regs: &RegFile) -> [u32; NUM_CFG] {
    cfg_ids().map(|r| regs.reg(r.into()))
}

/// One operation of a RAST case.
// A plain value (the contract's shape): a case is a short list a shrinker edits in place.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RastOp {
    /// A register write: the full value (after any byte-mask merge). IDs outside the stored
    /// registers ([`cfg_ids`]) change nothing the stage reads, except GPUREG_EARLYDEPTH_CLEAR
    /// (0x063), whose write is the clear event whatever its value. Only the low 10 bits of `id`
    /// count (the width of the RTL's port).
    Reg {
        /// Register ID.
        id: u16,
        /// The register's new value.
        value: u32,
    },
    /// An early-depth clear: a write of [`CLEAR_WRITE_VALUE`] to GPUREG_EARLYDEPTH_CLEAR. Every
    /// pixel becomes GPUREG_EARLYDEPTH_DATA's clear value as the register holds it then.
    Clear,
    /// A clip-space triangle as PA hands it to CLIP.
    Tri(Triangle),
}

impl RastOp {
    /// The operation's `ops.hex` line (442 hex digits, no newline).
    pub fn hex_line(&self) -> String {
        let mut s = String::with_capacity(OP_DIGITS);
        match self {
            RastOp::Reg { id, value } => {
                s.push_str("00");
                s.push_str(&"0".repeat(OP_DIGITS - 2 - 11));
                s.push_str(&format!("{:03x}{value:08x}", id & ID_MASK));
            }
            RastOp::Clear => {
                s.push_str("01");
                s.push_str(&"0".repeat(OP_DIGITS - 2));
            }
            RastOp::Tri(t) => {
                s.push_str(&format!("02{:08x}", t.seq));
                for v in t.v.iter().rev() {
                    for a in v.attr.iter().rev() {
                        s.push_str(&format!("{:06x}", a.bits() & 0xFF_FFFF));
                    }
                }
            }
        }
        s
    }

    /// Parses an `ops.hex` line; `None` if it is not one (bad digits, unknown kind, bits set
    /// outside the kind's fields).
    pub fn parse_hex_line(line: &str) -> Option<Self> {
        let line = line.trim();
        if line.is_empty() || line.len() > OP_DIGITS || !line.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return None;
        }
        let p = format!("{line:0>OP_DIGITS$}");
        let num = |a: usize, b: usize| u32::from_str_radix(&p[a..b], 16).ok();
        let zeros = |a: usize, b: usize| p[a..b].bytes().all(|c| c == b'0');
        match num(0, 2)? {
            0 if zeros(2, OP_DIGITS - 11) => {
                let id = num(OP_DIGITS - 11, OP_DIGITS - 8)?;
                (id <= u32::from(ID_MASK)).then_some(RastOp::Reg {
                    id: id as u16,
                    value: num(OP_DIGITS - 8, OP_DIGITS)?,
                })
            }
            1 if zeros(2, OP_DIGITS) => Some(RastOp::Clear),
            2 => {
                let seq = num(2, 10)?;
                let mut v = [OutVertex::ONES; 3];
                for i in 0..VERTEX_LANES {
                    // Lane VERTEX_LANES - 1 comes first.
                    let lane = VERTEX_LANES - 1 - i;
                    let at = 10 + 6 * i;
                    v[lane / NUM_SEMANTICS].attr[lane % NUM_SEMANTICS] =
                        F24::from_bits(num(at, at + 6)?);
                }
                Some(RastOp::Tri(Triangle { seq, v }))
            }
            _ => None,
        }
    }
}

/// A RAST case: operations in order and the early-depth buffer they start from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RastCase {
    /// Register writes, clears and triangles, in order.
    pub ops: Vec<RastOp>,
    /// The early-depth buffer before the first operation.
    pub early: EarlyDepthBuffer,
    /// The model's knobs (`--knob`, [`pica_model::knobs`]; the defaults unless a caller sets
    /// them): the model stage runs with them and a bundle records the non-default ones in its
    /// manifest (`knobs`), so a replay makes the same choices.
    pub knobs: pica_model::knobs::Knobs,
}

impl RastCase {
    /// Number of triangles.
    pub fn triangles(&self) -> usize {
        self.ops
            .iter()
            .filter(|o| matches!(o, RastOp::Tri(_)))
            .count()
    }

    /// Number of early-depth clear events ([`RastOp::Clear`] and raw writes of
    /// GPUREG_EARLYDEPTH_CLEAR).
    pub fn clears(&self) -> usize {
        self.ops
            .iter()
            .filter(|o| match o {
                RastOp::Clear => true,
                RastOp::Reg { id, .. } => id & ID_MASK == EARLY_DEPTH_CLEAR,
                RastOp::Tri(_) => false,
            })
            .count()
    }

    /// Number of register writes ([`RastOp::Reg`], raw clear writes included).
    pub fn reg_writes(&self) -> usize {
        self.ops
            .iter()
            .filter(|o| matches!(o, RastOp::Reg { .. }))
            .count()
    }

    /// The case as readable text: one operation per line (register names from the table,
    /// triangles with each vertex's position, colour and texcoord0 as exact values and bits),
    /// then the early-depth buffer.
    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        for op in &self.ops {
            match op {
                RastOp::Reg { id, value } => {
                    let name = regs::name(u32::from(id & ID_MASK));
                    let _ = writeln!(s, "reg 0x{id:03x} {name} = 0x{value:08x}");
                }
                RastOp::Clear => {
                    let _ = writeln!(s, "clear (GPUREG_EARLYDEPTH_CLEAR)");
                }
                RastOp::Tri(t) => {
                    let _ = writeln!(s, "tri seq {}", t.seq);
                    for (k, v) in t.v.iter().enumerate() {
                        let f = |a: &[F24]| {
                            a.iter()
                                .map(|x| format!("{x}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        };
                        let _ = writeln!(
                            s,
                            "  v{k} pos [{}] color [{}] tc0 [{}]",
                            f(&v.attr[semantic::POSITION..semantic::POSITION + 4]),
                            f(&v.attr[semantic::COLOR..semantic::COLOR + 4]),
                            f(&v.attr[semantic::TEXCOORD0..semantic::TEXCOORD0 + 2]),
                        );
                        let bits: Vec<String> =
                            v.attr.iter().map(|a| format!("{:06x}", a.bits())).collect();
                        let _ = writeln!(s, "     attr {}", bits.join(" "));
                    }
                }
            }
        }
        let entries = early_entries(&self.early);
        let _ = writeln!(
            s,
            "early depth before: clear value 0x{:06x}, {} clears, {} other pixels{}",
            self.early.clear_value(),
            self.early.clears(),
            entries.len(),
            entries
                .iter()
                .take(16)
                .map(|(x, y, v)| format!(" ({x},{y})=0x{v:06x}"))
                .collect::<String>()
        );
        s
    }
}

/// What the model does with a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RastRun {
    /// Every fragment, in the order the stage sends them.
    pub fragments: Vec<Fragment>,
    /// The early-depth buffer after the run.
    pub early: EarlyDepthBuffer,
}

/// One event of a case as RAST sees it ([`replay`]).
enum Event<'a> {
    /// A window-space triangle CLIP made, with the configuration it is drawn under.
    Tri(&'a ScreenTri, RastConfig),
    /// A clear event, with GPUREG_EARLYDEPTH_DATA's clear value as held then.
    Clear(u32),
}

/// Replays `case` on a power-on register file with its knobs (register IDs cut to 10 bits,
/// as the RTL port takes them), handing `f` each window-space triangle of each triangle
/// ([`clip::process`], with [`RastConfig::from_regs`]) and each clear event (a
/// [`RastOp::Clear`] or a raw write of GPUREG_EARLYDEPTH_CLEAR: `Rasterizer::tick`'s
/// triggers), in order.
fn replay(case: &RastCase, mut f: impl FnMut(Event<'_>)) {
    let mut regs = RegFile::new();
    regs.set_knobs(case.knobs);
    regs.set_record_beats(false);
    let mut seen = 0usize;
    for op in &case.ops {
        match op {
            RastOp::Reg { id, value } => {
                regs.write(id & ID_MASK, *value);
            }
            RastOp::Clear => {
                regs.write(EARLY_DEPTH_CLEAR, CLEAR_WRITE_VALUE);
            }
            RastOp::Tri(t) => {
                let cfg = RastConfig::from_regs(&regs);
                for st in clip::process(&regs, t) {
                    f(Event::Tri(&st, cfg));
                }
            }
        }
        for v in clear_events(&regs, &mut seen) {
            f(Event::Clear(v));
        }
    }
}

/// The GPUREG_EARLYDEPTH_CLEAR events `regs` logged since `seen`, as RAST takes them
/// (`Rasterizer::tick`): each clears to GPUREG_EARLYDEPTH_DATA's clear value as held now.
fn clear_events(regs: &RegFile, seen: &mut usize) -> Vec<u32> {
    let n = regs
        .triggers_since(seen)
        .iter()
        .filter(|ev| ev.trigger == Trigger::EarlyDepthClear)
        .count();
    vec![regs::EarlydepthData(regs.reg(id::EARLYDEPTH_DATA.into())).clear_value(); n]
}

/// Performs [`clear_events`] on `early`.
#[cfg(test)]
fn take_clears(regs: &RegFile, seen: &mut usize, early: &mut EarlyDepthBuffer) {
    for v in clear_events(regs, seen) {
        early.clear(v);
    }
}

/// Runs `case` on the model ([`replay`]): each clear event clears the early-depth buffer to
/// its value, each window-space triangle goes through [`rasterize`], starting from
/// `case.early`.
pub fn run_model(case: &RastCase) -> RastRun {
    let mut early = case.early.clone();
    let mut fragments = Vec::new();
    replay(case, |ev| match ev {
        Event::Tri(st, cfg) => fragments.extend(rasterize(st, cfg, &mut early)),
        Event::Clear(v) => early.clear(v),
    });
    RastRun { fragments, early }
}

/// The most early-depth requests `case` can take: a read and a write for every pixel of each
/// window-space triangle's traversal rectangle ([`PreparedTri::new`]), and one clear request
/// per clear event. The model makes at most this many (a read per covered pixel inside the
/// scissor box, a write per fragment that passes); an RTL that makes more repeats an access
/// (a livelock that keeps the handshake watchdog quiet), so checkers stop it there
/// (`RtlRast::set_early_depth_limit`).
pub fn early_request_bound(case: &RastCase) -> u64 {
    let mut n = 0u64;
    replay(case, |ev| match ev {
        Event::Tri(st, cfg) => {
            n += 2 * PreparedTri::new(st, cfg).rect.map_or(0, |r| r.area());
        }
        Event::Clear(_) => n += 1,
    });
    n
}

/// The pixels of `buf` (x < [`EARLY_COLS`], y < [`EARLY_ROWS`]) holding a value other than its
/// clear value, as `(x, y, value)` sorted by (y, x).
pub fn early_entries(buf: &EarlyDepthBuffer) -> Vec<EarlyEntry> {
    let cv = buf.clear_value();
    buf.entries()
        .into_iter()
        .filter(|&(x, y, v)| v != cv && x < EARLY_COLS && y < EARLY_ROWS)
        .collect()
}

/// Whether two early-depth buffers hold the same value at every pixel the bundle files carry
/// (same clear value, same [`early_entries`]; the clear counts may differ).
pub fn early_same(a: &EarlyDepthBuffer, b: &EarlyDepthBuffer) -> bool {
    a.clear_value() == b.clear_value() && early_entries(a) == early_entries(b)
}

/// A buffer holding `clear_value` everywhere but at `entries`: a fresh buffer, cleared once
/// when `cleared` or when `clear_value` is not the power-on value, then each entry stored.
pub fn early_from_entries(
    clear_value: u32,
    cleared: bool,
    entries: &[(u16, u16, u32)],
) -> EarlyDepthBuffer {
    let mut b = EarlyDepthBuffer::new();
    if cleared || clear_value & 0xFF_FFFF != b.clear_value() {
        b.clear(clear_value);
    }
    for &(x, y, v) in entries {
        b.store(x, y, v);
    }
    b
}

/// The `early_*.hex` text of `buf`: the clear value, then [`early_entries`].
pub fn early_hex(buf: &EarlyDepthBuffer) -> String {
    let mut s = format!("{:014x}\n", buf.clear_value() & 0xFF_FFFF);
    for (x, y, v) in early_entries(buf) {
        s.push_str(&format!("{x:04x}{y:04x}{:06x}\n", v & 0xFF_FFFF));
    }
    s
}

/// One pixel of an early-depth buffer: `(x, y, value)`.
pub type EarlyEntry = (u16, u16, u32);

/// Parses the lines of an `early_*.hex` file: (clear value, entries).
pub fn parse_early_lines(lines: &[&str]) -> Result<(u32, Vec<EarlyEntry>), String> {
    let word = |l: &str| -> Result<u64, String> {
        let t = l.trim();
        if t.len() > (EARLY_WIDTH / 4) as usize {
            return Err(format!("line `{l}` is wider than {EARLY_WIDTH} bits"));
        }
        u64::from_str_radix(t, 16).map_err(|_| format!("bad line `{l}`"))
    };
    let (first, rest) = lines
        .split_first()
        .ok_or_else(|| "no clear-value line".to_string())?;
    let cv = word(first)?;
    if cv > 0xFF_FFFF {
        return Err(format!("clear value line `{first}` has bits above 23"));
    }
    let mut entries = Vec::with_capacity(rest.len());
    for l in rest {
        let w = word(l)?;
        entries.push(((w >> 40) as u16, (w >> 24) as u16, (w & 0xFF_FFFF) as u32));
    }
    Ok((cv as u32, entries))
}

/// A fragment's `tex_deriv.hex` line (72 hex digits, no newline).
pub fn tex_deriv_hex(f: &Fragment) -> String {
    let mut s = String::with_capacity((TEX_DERIV_WIDTH / 4) as usize);
    for t in f.tex_deriv.iter().rev() {
        for c in t.iter().rev() {
            s.push_str(&format!("{:06x}", c.bits() & 0xFF_FFFF));
        }
    }
    s
}

/// Parses a `tex_deriv.hex` line.
pub fn parse_tex_deriv_line(line: &str) -> Option<[[F24; 4]; 3]> {
    let line = line.trim();
    let n = (TEX_DERIV_WIDTH / 4) as usize;
    if line.is_empty() || line.len() > n || !line.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let p = format!("{line:0>n$}");
    let mut d = [[F24::ZERO; 4]; 3];
    for i in 0..12 {
        let lane = 11 - i;
        d[lane / 4][lane % 4] = F24::from_bits(u32::from_str_radix(&p[6 * i..6 * i + 6], 16).ok()?);
    }
    Some(d)
}

/// Unpacks one `fragment.hex` line (the channel table's `FragmentBeat` packing).
pub fn parse_fragment_line(line: &str) -> Option<FragmentBeat> {
    unpack_line(line).ok()
}

/// The fragment a beat and its `tex_deriv` line describe.
pub fn fragment_of(b: &FragmentBeat, tex_deriv: [[F24; 4]; 3]) -> Fragment {
    Fragment {
        x: b.x,
        y: b.y,
        depth: b.depth,
        color: b.color.to_le_bytes(),
        attr: b.attr.map(F24::from_bits),
        tri: b.tri,
        tex_deriv,
    }
}

// ---------------------------------------------------------------------------------------------
// Bundles

fn early_json(file: &str, buf: &EarlyDepthBuffer) -> Value {
    let n = early_entries(buf).len();
    json!({
        "file": file,
        "lines": n + 1,
        "width": EARLY_WIDTH,
        "clear_value": format!("0x{:06x}", buf.clear_value()),
        "pixels": n,
        "clears": buf.clears(),
        "fields": field_list(&[("x", 40, 16), ("y", 24, 16), ("value", 0, 24)]),
    })
}

/// Writes the RAST stage bundle of `case` (expected data from [`run_model`]) into `dir`
/// (created if needed). Returns the manifest.
pub fn write_rast_bundle(
    dir: &Path,
    name: &str,
    description: &str,
    case: &RastCase,
    prov: &StageProvenance,
) -> std::io::Result<Value> {
    let run = run_model(case);
    let beats: Vec<FragmentBeat> = run
        .fragments
        .iter()
        .enumerate()
        .map(|(i, f)| fragment_beat(i as u64, f))
        .collect();
    let mut b = StageBundle::new(KIND_RAST, name, description, RAST_DUT, prov);
    b.file(
        "ops.hex",
        case.ops.iter().map(|o| o.hex_line() + "\n").collect(),
    );
    b.file("early_before.hex", early_hex(&case.early));
    b.file("early_after.hex", early_hex(&run.early));
    b.file(
        "tex_deriv.hex",
        run.fragments
            .iter()
            .map(|f| tex_deriv_hex(f) + "\n")
            .collect(),
    );
    let fragment = b.stream("fragment", &beats, "every field but cycle, in order");
    let deriv_fields: Vec<Value> = (0..12u32)
        .map(|i| {
            let c = ["du_dx", "dv_dx", "du_dy", "dv_dy"][(i % 4) as usize];
            json!({"name": format!("t{}_{c}", i / 4), "lsb": 24 * i, "width": 24})
        })
        .collect();
    let tex_deriv = json!({
        "channel": "tex_deriv",
        "hex": "tex_deriv.hex",
        "beats": run.fragments.len(),
        "width": TEX_DERIV_WIDTH,
        "cycle_exact": false,
        "compared": "every field, in order (one line per fragment)",
        "fields": deriv_fields,
    });
    b.set("defines", json!([]))
        .set("knobs", json!(case.knobs.to_map()))
        .set("ops", json!(case.ops.len()))
        .set("triangles", json!(case.triangles()))
        .set("clears", json!(case.clears()))
        .set("reg_writes", json!(case.reg_writes()))
        .set("fragments", json!(run.fragments.len()))
        .set(
            "ops_file",
            json!({
                "file": "ops.hex",
                "lines": case.ops.len(),
                "width": OP_WIDTH,
                "register_write": field_list(&[("kind", 1760, 8), ("id", 32, 10), ("value", 0, 32)]),
                "clear": field_list(&[("kind", 1760, 8)]),
                "triangle": field_list(&[("kind", 1760, 8), ("seq", 1728, 32), ("v", 0, 1728)]),
                "vertex_packing": "vertex k semantic s at [24*(24*k + s) +: 24] (as in_v_i)",
                "clear_write_value": CLEAR_WRITE_VALUE,
            }),
        )
        .set("early_before", early_json("early_before.hex", &case.early))
        .set("early_after", early_json("early_after.hex", &run.early))
        .set("streams", json!([fragment, tex_deriv]))
        .set("ed_latency", json!(0));
    b.write(dir)
}

/// Reads a RAST stage bundle, checking its format, kind, every file's SHA-256, line counts and
/// line formats. Returns the manifest, the case and the expected run. The early-depth buffers
/// come back equal pixel for pixel ([`early_same`]), cleared once if they were cleared at all.
pub fn load_rast_bundle(dir: &Path) -> Result<(Value, RastCase, RastRun), BundleError> {
    let r = BundleReader::load(dir, KIND_RAST)?;
    let m = r.manifest();
    let ops_file = m["ops_file"]["file"].as_str().unwrap_or("ops.hex");
    let ops = r.parse_lines(ops_file, |l| {
        RastOp::parse_hex_line(l).ok_or_else(|| "bad op".to_string())
    })?;
    r.check_count(ops_file, ops.len(), &m["ops"], "lines")?;
    let early_of = |key: &str| -> Result<EarlyDepthBuffer, BundleError> {
        let e = &m[key];
        let file = e["file"]
            .as_str()
            .ok_or_else(|| r.error("manifest.json", None, format!("{key} without a file")))?;
        let lines: Vec<&str> = r.lines(file)?.into_iter().map(|(_, l)| l).collect();
        r.check_count(file, lines.len(), &e["lines"], "lines")?;
        let (cv, entries) = parse_early_lines(&lines).map_err(|err| r.error(file, None, err))?;
        let cleared = e["clears"].as_u64().unwrap_or(0) > 0;
        Ok(early_from_entries(cv, cleared, &entries))
    };
    let case = RastCase {
        ops,
        early: early_of("early_before")?,
        knobs: r.knobs()?,
    };
    let beats = r.stream_beats::<FragmentBeat>("fragment")?;
    let ds = r.stream("tex_deriv")?;
    let dhex = ds["hex"].as_str().unwrap_or("tex_deriv.hex");
    let derivs = r.parse_lines(dhex, |l| {
        parse_tex_deriv_line(l).ok_or_else(|| "bad line".to_string())
    })?;
    r.check_count(dhex, derivs.len(), &ds["beats"], "lines")?;
    if derivs.len() != beats.len() {
        return Err(r.error(
            dhex,
            None,
            format!("{} lines for {} fragments", derivs.len(), beats.len()),
        ));
    }
    if let Some((i, b)) = beats.iter().enumerate().find(|(i, b)| b.cycle != *i as u64) {
        let hex = r.stream("fragment")?["hex"]
            .as_str()
            .unwrap_or("fragment.hex");
        return Err(r.error(hex, Some(i + 1), format!("cycle {} (want {i})", b.cycle)));
    }
    let fragments = beats
        .iter()
        .zip(derivs)
        .map(|(b, d)| fragment_of(b, d))
        .collect();
    let run = RastRun {
        fragments,
        early: early_of("early_after")?,
    };
    Ok((r.into_manifest(), case, run))
}

// ---------------------------------------------------------------------------------------------
// The generator

/// Largest sum of traversal-rectangle areas (pixels the stage examines) of one generated case:
/// keeps the RTL's per-case time in check.
pub const MAX_CASE_PIXELS: u64 = 2_500;

/// Largest traversal area of one generated triangle (all its clipped pieces).
pub const MAX_TRI_PIXELS: u64 = 1_800;

/// IDs outside the stored registers a case may write (the stage must ignore them): the
/// viewport inverses, unused IDs of the rasterizer block, GPUREG_RENDERBUF_DIM, the
/// framebuffer locations, and the top of the 10-bit ID range.
const OTHER_IDS: [u16; 10] = [
    0x042, 0x044, 0x045, 0x04C, 0x060, 0x064, 0x069, 0x06E, 0x11C, 0x3FF,
];

/// A seeded generator of random RAST cases (the same seed gives the same cases).
///
/// Biased to what breaks rasterizers and clippers:
///
/// - vertices on a lattice of pixel centres or pixel corners (so edges run exactly through
///   pixel centres: fill-rule ties on every edge orientation, both windings), on the 1/16
///   grid, or anywhere, now and then a coordinate just off the framebuffer's 0 edge
///   (±(1 + f) · 2^-k); axis-aligned right triangles; triangles sharing an edge with the one
///   before (the two tie rules must complement), exact repeats (early-depth ties and
///   read-after-write);
/// - degenerate (collinear, repeated vertices), one-pixel and sub-pixel, and huge triangles;
/// - triangles crossing each clip plane alone, both z planes at once, several planes at once,
///   the user plane; vertices exactly on each plane and one f24 step to either side of it,
///   also at magnitudes where that step flushes to a zero distance, z at ±0 and subnormals;
///   w near zero, zero and negative; ±inf, NaN, subnormal and huge positions (x, y or z
///   equal to w, both infinite, too);
///   "stars" around the viewport cutting all four x/y corners and both z planes (clipped
///   polygons of 8 and more vertices);
/// - viewports far larger than the framebuffer (mirrored, negative offsets, half extents
///   with every mantissa bit) with window coordinates past and at the ends of the 12.4 range;
/// - triangles scaled to w in the thousands and more; semantics with one value at all three
///   vertices (zero, tiny colours, f24 edges); quaternions with one non-zero component;
/// - perspective: w differing per vertex, texture coordinates differing per vertex;
/// - every configuration: random viewport (mirrored, offset, odd sizes), depth map and both
///   depth modes, culling 0-3, scissor modes 0-3 with boxes inside, across and outside the
///   framebuffer (empty too), early depth on and off with each function, clears before and
///   between triangles, texture units on and off (and junk bits), every depth format, junk in
///   unused register bits, writes to registers the stage must ignore (now and then every ID
///   one bit away from an ID the stage decodes, `RastGen::alias_storm`);
/// - from a second random stream, w of any exponent; from a third, nearly degenerate slivers
///   under a large viewport with culling on, colours of 2^57 and more, NaNs of any payload in
///   positions and user-plane coefficients, user planes across the viewport, viewport half
///   extents at the top of the f24 range with window coordinates that overflow
///   (`RastGen::side_vary`, `rast_mut.notes`); from a fourth, sub-pixel triangles of tiny
///   attributes whose weights at the pixel centre are 2 to 12, quaternions with tiny
///   components (exponents 1-6) and viewport half extents of 2^-44 to 2^-16
///   (`RastGen::more_vary`): extra streams, so adding them left a seed's other draws as they
///   were;
/// - an early-depth buffer that already holds values;
/// - small framebuffers mostly (tens to hundreds of fragments per case), sometimes medium or
///   large (2047 × 1024) ones with the triangles in a corner of them.
#[derive(Clone, Debug)]
pub struct RastGen {
    rng: Rng,
    /// A second stream for the writes to aliasing IDs ([`RastGen::alias_storm`]), so adding them
    /// left every other draw of a seed's cases as it was.
    side: Rng,
    /// A third stream for the rare shapes of `RastGen::side_vary`, `side_user_plane` and the
    /// viewport's overflowing half extents, so adding them left the first two as they were
    /// (the second stream's w of any exponent kills a mutant at 2,048 cases: rast_mut.notes).
    extra: Rng,
    /// A fourth stream for [`RastGen::more_vary`]'s tiny products, tiny quaternion components
    /// and tiny viewport half extents, so adding them left the first three as they were.
    more: Rng,
}

/// A mantissa in [1, 2) on a 2^-16 grid (one draw): scaled by a power of two, an f24 value of
/// a chosen exponent and a random 16-bit top of its mantissa.
fn mantissa16(g: &mut Rng) -> f64 {
    1.0 + g.below(1 << 16) as f64 / 65536.0
}

/// A case under construction.
struct Build {
    regs: RegFile,
    ops: Vec<RastOp>,
    /// Traversal pixels so far.
    cost: u64,
    tris: Vec<Triangle>,
    seq: u32,
    /// Where the triangles go, in window coordinates: (x0, y0, x1, y1).
    region: (f64, f64, f64, f64),
    fb: (u32, u32),
}

impl Build {
    fn write(&mut self, id: u16, value: u32) {
        self.regs.write(id, value);
        self.ops.push(RastOp::Reg { id, value });
    }
}

/// How a triangle's window points are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PointKind {
    Centre,
    Corner,
    Sixteenth,
    Anywhere,
}

impl RastGen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: Rng(seed),
            side: Rng(seed ^ 0xA11A_5ED1_D5A1_1A5E),
            extra: Rng(seed ^ 0x5EED_E47A_0F5A_11E5),
            more: Rng(seed ^ 0x0DD5_7E4D_A11C_E5E5),
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.rng.below(n)
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.rng.chance(percent)
    }

    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        self.rng.pick(v)
    }

    /// Uniform in `[lo, hi)`.
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }

    fn f24(x: f64) -> F24 {
        F24::from_f64_trunc(x)
    }

    /// A 24-bit depth, biased to the ends and the middle.
    fn depth24(&mut self) -> u32 {
        match self.below(10) {
            0..=2 => self.pick(&[0, 1, 0xFF_FFFF, 0xFF_FFFE, 0x80_0000, 0x7F_FFFF]),
            _ => self.rng.next_u64() as u32 & 0xFF_FFFF,
        }
    }

    /// Junk for the bits of `unused` now and then (the stage must ignore them).
    fn junk(&mut self, unused: u32) -> u32 {
        if self.chance(8) {
            self.rng.next_u64() as u32 & unused
        } else {
            0
        }
    }

    fn small_dim(&mut self) -> u32 {
        match self.below(10) {
            0 => self.pick(&[1, 2, 3]),
            1..=3 => self.pick(&[4, 7, 8, 9, 15, 16, 17, 31, 32, 33]),
            _ => 1 + self.below(40) as u32,
        }
    }

    /// A framebuffer size: mostly small, sometimes medium or large, rarely zero wide.
    fn fb_dims(&mut self) -> (u32, u32) {
        match self.below(100) {
            0..=1 => (0, 1 + self.below(16) as u32),
            2..=79 => (self.small_dim(), self.small_dim()),
            80..=91 => (41 + self.below(88) as u32, 41 + self.below(88) as u32),
            _ => {
                let w = if self.chance(50) {
                    self.pick(&[240, 320, 400, 512, 1023, 1024, 2047])
                } else {
                    1 + self.below(2047) as u32
                };
                let h = if self.chance(50) {
                    self.pick(&[240, 400, 512, 1023, 1024])
                } else {
                    1 + self.below(1024) as u32
                };
                (w, h)
            }
        }
    }

    /// The region triangles go in: the framebuffer with a margin, or a corner of a large one.
    fn region(&mut self, (w, h): (u32, u32)) -> (f64, f64, f64, f64) {
        let (w, h) = (f64::from(w.max(1)), f64::from(h.max(1)));
        if w * h <= 64.0 * 64.0 {
            let m = if self.chance(80) || w.min(h) < 8.0 {
                0.0
            } else {
                3.0
            };
            return (-m, -m, w + m, h + m);
        }
        let size = f64::from(8 + self.below(40) as u32);
        let x0 = match self.below(4) {
            0 => 0.0,
            1 => (w - size).max(0.0),
            _ => self.uniform(0.0, (w - size).max(0.0)).floor(),
        };
        let y0 = match self.below(4) {
            0 => 0.0,
            1 => (h - size).max(0.0),
            _ => self.uniform(0.0, (h - size).max(0.0)).floor(),
        };
        (x0, y0, (x0 + size).min(w + 2.0), (y0 + size).min(h + 2.0))
    }

    /// Viewport registers for a `w`×`h` framebuffer: (half width, half height, VIEWPORT_XY).
    fn viewport(&mut self, fb: (u32, u32)) -> (F24, F24, u32) {
        let (hw, hh, xy) = self.viewport_main(fb);
        // Now and then (the third stream) a half extent at the top of the f24 range or
        // infinite: window coordinates on that axis then overflow to infinity for some
        // vertices and not for others (or are all infinite, NaN at the viewport's edge), so the
        // fast path's signed area is infinite (an infinite difference times a finite one) or
        // NaN, which culling must keep or drop as the model does (a mutant turning an infinite
        // area into a NaN pattern survived every viewport RastGen had, rast_mut.notes #244).
        if self.extra.chance(3) {
            let mag = match self.extra.below(4) {
                0 => F24::INFINITY,
                1 => F24::MAX,
                _ => F24::from_bits(0x7E_0000 | self.extra.below(1 << 16) as u32),
            };
            let big = if self.extra.chance(50) {
                mag
            } else {
                mag.negate()
            };
            return match self.extra.below(3) {
                0 => (big, hh, xy),
                1 => (hw, big, xy),
                _ => (big, big, xy),
            };
        }
        (hw, hh, xy)
    }

    fn viewport_main(&mut self, (w, h): (u32, u32)) -> (F24, F24, u32) {
        let (wf, hf) = (f64::from(w.max(1)), f64::from(h.max(1)));
        let xy = |x: i64, y: i64| (x as u32 & 0x3FF) | (y as u32 & 0x3FF) << 16;
        match self.below(100) {
            0..=54 => (Self::f24(wf / 2.0), Self::f24(hf / 2.0), 0),
            55..=79 => {
                let half = |g: &mut Self, n: f64| {
                    if g.chance(50) {
                        Self::f24(g.pick(&[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]))
                    } else {
                        Self::f24(f64::from(1 + g.below((n as u64).max(1)) as u32) / 2.0)
                    }
                };
                let hw = half(self, 2.0 * wf);
                let hh = half(self, 2.0 * hf);
                let x = self.below(w.clamp(1, 512) as u64) as i64 - self.below(9) as i64;
                let y = self.below(h.clamp(1, 512) as u64) as i64 - self.below(9) as i64;
                (hw, hh, xy(x / 2, y / 2))
            }
            80..=89 => {
                let mut hw = Self::f24(wf / 2.0);
                let mut hh = Self::f24(hf / 2.0);
                match self.below(5) {
                    0 => hw = hw.negate(),
                    1 => hh = hh.negate(),
                    2 => {
                        hw = hw.negate();
                        hh = hh.negate();
                    }
                    3 => {
                        hw = Self::f24(self.uniform(0.1, wf));
                        hh = Self::f24(self.uniform(0.1, hf));
                    }
                    _ => hw = self.pick(&[F24::ZERO, Self::f24(1e-3), Self::f24(1500.0)]),
                }
                // A mirrored axis starts at the far edge, so it still maps onto the
                // framebuffer.
                let start = |half: F24, n: u32| {
                    if half.is_sign_negative() {
                        i64::from(n.min(511))
                    } else {
                        0
                    }
                };
                let x = start(hw, w) + self.below(5) as i64 - 2;
                let y = start(hh, h) + self.below(5) as i64 - 2;
                (hw, hh, xy(x, y))
            }
            _ => {
                let e = edgy_f24(&mut self.rng);
                let (hw, hh) = if self.chance(50) {
                    (e, Self::f24(hf / 2.0))
                } else {
                    (Self::f24(wf / 2.0), e)
                };
                let x = self.pick(&[-512i64, 511, -1, 0, 3]);
                (hw, hh, xy(x, 0))
            }
        }
    }

    /// A full configuration for framebuffer `fb`: ([`cfg_ids`] order) the stored registers.
    fn config(&mut self, fb: (u32, u32)) -> [u32; NUM_CFG] {
        let (hw, hh, vxy) = self.viewport(fb);
        let (scale, offset) = match self.below(100) {
            0..=59 => (F24::NEG_ONE, F24::ZERO),
            60..=69 => (F24::ONE, F24::ONE),
            70..=84 => (
                Self::f24(self.uniform(-2.0, 2.0)),
                Self::f24(self.uniform(-0.5, 1.5)),
            ),
            _ => {
                if self.chance(50) {
                    (edgy_f24(&mut self.rng), F24::ZERO)
                } else {
                    (F24::NEG_ONE, edgy_f24(&mut self.rng))
                }
            }
        };
        let cull = match self.below(100) {
            0..=59 => 0,
            60..=74 => 1,
            75..=89 => 2,
            _ => 3,
        };
        let user_on = self.chance(15);
        let plane: [F24; 4] = if self.chance(8) {
            std::array::from_fn(|_| edgy_f24(&mut self.rng))
        } else {
            [
                Self::f24(self.uniform(-1.0, 1.0)),
                Self::f24(self.uniform(-1.0, 1.0)),
                Self::f24(self.uniform(-0.5, 0.5)),
                // Mostly keeps the middle of the viewport: the plane crosses triangles rather
                // than removing them.
                Self::f24(self.uniform(-0.2, 0.6)),
            ]
        };
        let (user_on, plane) = self.side_user_plane(user_on, plane);
        let (fw, fh) = (fb.0.max(1), fb.1.max(1));
        let scissor_mode = match self.below(100) {
            0..=39 => 0,
            40..=64 => 3,
            65..=84 => 1,
            _ => 2,
        };
        // Mostly a box that lets most of the framebuffer through (a large box inside, a
        // small one outside), sometimes anything, now and then an empty one.
        let span = |g: &mut Self, n: u32| -> (u32, u32) {
            let n = u64::from(n.min(1023));
            let (a, b) = match (scissor_mode, g.below(10)) {
                (3, 0..=6) => {
                    let a = g.below(n / 3 + 1);
                    if g.chance(30) {
                        // Past the framebuffer's far edge: the traversal rectangle's end is the
                        // framebuffer's, not the scissor's.
                        (a, n + g.below(40))
                    } else {
                        (a, n - g.below(n / 3 + 1) + g.below(3))
                    }
                }
                (1, 0..=6) => {
                    let a = g.below(n + 1);
                    (a, a + g.below(n / 3 + 1))
                }
                (_, 7) if g.chance(40) => {
                    let a = g.below(n + 4);
                    (a, a.saturating_sub(1 + g.below(3)))
                }
                _ => {
                    let a = g.below(n + 4);
                    (a, a + g.below(n + 1))
                }
            };
            (a.min(1023) as u32, b.min(1023) as u32)
        };
        let (x1, x2) = span(self, fw);
        let (y1, y2) = span(self, fh);
        let func = self.below(4) as u32;
        // A clear value most fragments pass against, more often than not.
        let clear = match (self.chance(65), func) {
            (true, 0 | 1) => self.pick(&[0, 0, 1, 0x10_0000]),
            (true, _) => self.pick(&[0xFF_FFFF, 0xFF_FFFF, 0xFF_FFFE, 0xF0_0000]),
            (false, _) => self.depth24(),
        };
        let (t1, t2) = match self.below(100) {
            0..=44 => (1, 1),
            45..=49 => (1, 0),
            50..=54 => (0, 1),
            _ => (0, 0),
        };
        let texunit = match self.below(100) {
            0..=44 => 0,
            45..=89 => {
                let mut v = 0;
                while v == 0 {
                    for bit in [0, 1, 2, 10] {
                        if self.chance(35) {
                            v |= 1 << bit;
                        }
                    }
                }
                v
            }
            90..=94 => self.rng.next_u64() as u32,
            // Enable bits of no unit that takes differences (shadow, cube, ... modes, other
            // units' fields).
            _ => (self.rng.next_u64() as u32) & !0x407,
        };
        let mut w = [0u32; NUM_CFG];
        for (slot, r) in cfg_ids().into_iter().enumerate() {
            w[slot] = match r {
                id::FACECULLING_CONFIG => cull | self.junk(!3),
                id::VIEWPORT_WIDTH => hw.bits() | self.junk(0xFF00_0000),
                id::VIEWPORT_HEIGHT => hh.bits() | self.junk(0xFF00_0000),
                id::FRAGOP_CLIP => u32::from(user_on) | self.junk(!1),
                id::FRAGOP_CLIP_DATA0 => plane[0].bits() | self.junk(0xFF00_0000),
                id::FRAGOP_CLIP_DATA1 => plane[1].bits() | self.junk(0xFF00_0000),
                id::FRAGOP_CLIP_DATA2 => plane[2].bits() | self.junk(0xFF00_0000),
                id::FRAGOP_CLIP_DATA3 => plane[3].bits() | self.junk(0xFF00_0000),
                id::DEPTHMAP_SCALE => scale.bits() | self.junk(0xFF00_0000),
                id::DEPTHMAP_OFFSET => offset.bits() | self.junk(0xFF00_0000),
                id::VIEWPORT_XY => vxy | self.junk(0xFC00_FC00),
                id::EARLYDEPTH_FUNC => func | self.junk(!3),
                id::EARLYDEPTH_TEST1 => t1 | self.junk(!1),
                id::EARLYDEPTH_TEST2 => t2 | self.junk(!1),
                id::SCISSORTEST_MODE => scissor_mode | self.junk(!3),
                id::SCISSORTEST_POS => x1 | y1 << 16 | self.junk(0xFC00_FC00),
                id::SCISSORTEST_DIM => x2 | y2 << 16 | self.junk(0xFC00_FC00),
                id::EARLYDEPTH_DATA => clear | self.junk(0xFF00_0000),
                id::DEPTHMAP_ENABLE => self.below(2) as u32 | self.junk(!1),
                id::TEXUNIT_CONFIG => texunit,
                id::DEPTHBUFFER_FORMAT => self.below(4) as u32 | self.junk(!3),
                id::FRAMEBUFFER_DIM => {
                    fb.0 | (fb.1.max(1) - 1) << 12 | 1 << 24 | self.junk(0xFEC0_0800)
                }
                _ => 0,
            };
        }
        w
    }

    /// The user clip plane of [`RastGen::config`], now and then (the third stream, so every
    /// other draw of a seed stays as it was) replaced, with the plane on:
    /// - a coefficient NaN or infinite: the model's distance is then NaN (outside) for every
    ///   vertex (or ±inf), so a triangle otherwise inside goes through the general path and is
    ///   clipped away, where a fast path that lost a multiplier's NaN class calls it inside
    ///   (rast_mut.notes #142);
    /// - a plane across the viewport, `c0 x + c1 y + c2 z + c3 w` with |c0| or |c1| near 1 and
    ///   c3 < 0 of either exponent parity: a vertex outside by less than |c3 w| / 2 turns inside
    ///   when the product `w * c3` is halved, and the part the model clips away is wide enough
    ///   to hold pixel centres (a vertex one f24 step outside, as [`RastGen::on_plane`] puts it,
    ///   leaves a sliver that holds none: #182).
    fn side_user_plane(&mut self, on: bool, plane: [F24; 4]) -> (bool, [F24; 4]) {
        let g = &mut self.extra;
        match g.below(100) {
            0..=2 => {
                let mut c = plane;
                let k = g.below(4) as usize;
                c[k] = g.pick(&[F24::NAN, F24::INFINITY, F24::NEG_INFINITY]);
                if g.chance(30) {
                    // A NaN with another payload, the sign set.
                    c[k] = F24::from_bits(0xFF_0000 | (1 + g.below(0xFFFF)) as u32);
                }
                (true, c)
            }
            3..=6 => {
                let u = |g: &mut Rng, lo: f64, hi: f64| {
                    lo + (hi - lo) * (g.below(1 << 20) as f64 / (1 << 20) as f64)
                };
                let big = u(g, 0.5, 2.0);
                let small = u(g, -0.3, 0.3);
                let (c0, c1) = if g.chance(50) {
                    (big, small)
                } else {
                    (small, big)
                };
                let sign = |g: &mut Rng, v: f64| if g.chance(50) { -v } else { v };
                let (c0, c1) = (sign(g, c0), sign(g, c1));
                let c2 = u(g, -0.2, 0.2);
                let c3 = -(0.1 + 1.8 * g.below(1 << 16) as f64 / 65536.0);
                (true, [c0, c1, c2, c3].map(F24::from_f64_trunc))
            }
            _ => (on, plane),
        }
    }

    /// One semantic's value at a vertex.
    fn attr_value(&mut self, s: usize) -> F24 {
        const COLOR_END: usize = semantic::COLOR + 4;
        match s {
            semantic::COLOR..COLOR_END => match self.below(100) {
                0..=69 => Self::f24(self.uniform(0.0, 1.0)),
                70..=81 => Self::f24(self.pick(&[0.0, 1.0, 0.5, 1.0 / 255.0, 254.5 / 255.0, 0.25])),
                82..=91 => Self::f24(self.uniform(-0.5, 1.5)),
                92..=96 => F24::ONE,
                _ => edgy_f24(&mut self.rng),
            },
            // Mostly unit-range components; now and then magnitudes of 2 and more and the
            // f24 edges (the clipper's quaternion alignment multiplies and adds them).
            semantic::QUATERNION..semantic::COLOR => match self.below(100) {
                0..=89 => Self::f24(self.uniform(-1.0, 1.0)),
                _ => edgy_f24(&mut self.rng),
            },
            semantic::VIEW..0x15 => Self::f24(self.uniform(-10.0, 10.0)),
            0x11 | 0x15 => {
                if self.chance(50) {
                    F24::ONE
                } else {
                    F24::from_bits(self.rng.next_u64() as u32 & 0xFF_FFFF)
                }
            }
            // Texture coordinates (0x0C-0x10, 0x16-0x17).
            _ => match self.below(100) {
                0..=54 => Self::f24(self.uniform(-2.0, 2.0)),
                55..=74 => Self::f24(self.pick(&[0.0, 0.5, 1.0, -1.0, 0.25, 2.0])),
                75..=89 => Self::f24(self.uniform(-1000.0, 1000.0)),
                _ => edgy_f24(&mut self.rng),
            },
        }
    }

    /// A vertex at clip-space position `pos` with random other semantics.
    fn vertex(&mut self, pos: [F24; 4]) -> OutVertex {
        let mut v = OutVertex::ONES;
        for s in 4..NUM_SEMANTICS {
            v.attr[s] = self.attr_value(s);
        }
        v.attr[..4].copy_from_slice(&pos);
        v
    }

    /// A w for a vertex: 1 often, powers of two, or anything positive.
    fn w_value(&mut self) -> f64 {
        let w = match self.below(10) {
            0..=3 => 1.0,
            4..=6 => self.pick(&[0.5, 2.0, 4.0, 0.25, 8.0]),
            _ => self.uniform(0.1, 10.0),
        };
        // Now and then (the side stream, so every other draw of a seed stays as it was) a w of
        // any exponent, for a triangle no plane clips: 1/w then reaches the ends of the
        // reciprocal's exponent range in CLIP's to_screen (a mutant of the fast path's
        // reciprocal that misread exponent 8 survived the w above, rast_mut.notes).
        if self.side.chance(4) {
            let k = self.side.below(121) as i32 - 60;
            return mantissa16(&mut self.side) * 2f64.powi(k);
        }
        w
    }

    /// z/w for a vertex inside the z range, the ends exactly now and then.
    fn z_ndc(&mut self) -> f64 {
        match self.below(10) {
            0 => 0.0,
            1 => -1.0,
            _ => -self.uniform(0.0, 1.0),
        }
    }

    /// The clip-space position whose window coordinates are (`xw`, `yw`) under the current
    /// viewport, at `w` and z/w = `zn` (random NDC when the viewport is not invertible).
    fn clip_from_window(&mut self, vp: &Viewport, xw: f64, yw: f64, w: f64, zn: f64) -> [F24; 4] {
        let inv = |c: f64, half: F24, off: F24| -> Option<f64> {
            let h = half.to_f64();
            (h.is_finite() && h.abs() > 1e-9 && off.to_f64().is_finite())
                .then(|| (c - off.to_f64()) / h - 1.0)
        };
        let nx = inv(xw, vp.half_width, vp.x).unwrap_or_else(|| self.uniform(-1.2, 1.2));
        let ny = inv(yw, vp.half_height, vp.y).unwrap_or_else(|| self.uniform(-1.2, 1.2));
        [
            Self::f24(nx * w),
            Self::f24(ny * w),
            Self::f24(zn * w),
            Self::f24(w),
        ]
    }

    /// A window point of `kind` in `region`.
    fn point(&mut self, kind: PointKind, region: (f64, f64, f64, f64)) -> (f64, f64) {
        let (x0, y0, x1, y1) = region;
        let c = |g: &mut Self, lo: f64, hi: f64| -> f64 {
            let v = g.uniform(lo, hi);
            match kind {
                PointKind::Centre => v.floor() + 0.5,
                PointKind::Corner => v.round(),
                PointKind::Sixteenth => (v * 16.0).round() / 16.0,
                PointKind::Anywhere => v,
            }
        };
        let mut x = c(self, x0, x1);
        let mut y = c(self, y0, y1);
        // Now and then a coordinate just off the framebuffer's 0 edge: +-(1 + f) * 2^-k, the
        // small exponents of to_fix12p4 (a 12.4 value of 0 to 4 after rounding), which a
        // uniform draw over a region of hundreds of pixels almost never hits.
        for v in [&mut x, &mut y] {
            if self.chance(3) {
                let k = 1 + self.below(24) as i32;
                let m = self.uniform(1.0, 2.0) * 2f64.powi(-k);
                *v = if self.chance(50) { -m } else { m };
            }
        }
        (x, y)
    }

    /// Where a triangle's window points go: mostly the part of the region the viewport
    /// covers (points outside the viewport are clipped away), sometimes the whole region.
    fn tri_region(&mut self, b: &Build) -> (f64, f64, f64, f64) {
        let vp = Viewport::from_regs(&b.regs);
        let span = |off: F24, half: F24| -> Option<(f64, f64)> {
            let (o, h) = (off.to_f64(), half.to_f64());
            (h.is_finite() && h.abs() >= 0.5).then(|| {
                let (a, c) = (o, o + 2.0 * h);
                (a.min(c) - 1.0, a.max(c) + 1.0)
            })
        };
        let (x0, y0, x1, y1) = b.region;
        if let (Some((vx0, vx1)), Some((vy0, vy1)), true) = (
            span(vp.x, vp.half_width),
            span(vp.y, vp.half_height),
            self.chance(85),
        ) {
            let r = (x0.max(vx0), y0.max(vy0), x1.min(vx1), y1.min(vy1));
            if r.2 - r.0 >= 1.0 && r.3 - r.1 >= 1.0 {
                return r;
            }
        }
        b.region
    }

    /// A triangle from window points (mode "lattice").
    fn lattice_tri(&mut self, b: &Build) -> [OutVertex; 3] {
        let vp = Viewport::from_regs(&b.regs);
        let region = self.tri_region(b);
        let kinds = [
            PointKind::Centre,
            PointKind::Corner,
            PointKind::Sixteenth,
            PointKind::Anywhere,
        ];
        let kind = match self.below(100) {
            0..=39 => PointKind::Centre,
            40..=59 => PointKind::Corner,
            60..=79 => PointKind::Sixteenth,
            _ => PointKind::Anywhere,
        };
        let mixed = self.chance(12);
        let mut pts = [(0.0, 0.0); 3];
        for p in &mut pts {
            let k = if mixed { self.pick(&kinds) } else { kind };
            *p = self.point(k, region);
        }
        match self.below(10) {
            // Axis-aligned right triangle: a horizontal and a vertical edge.
            0..=2 => {
                pts[1].0 = pts[0].0;
                pts[2].1 = pts[0].1;
                if self.chance(40) {
                    // Legs of a power-of-two length: edge differences with one bit set in
                    // 12.4 units (32 pixels is 0x200).
                    let leg = |g: &mut Self| {
                        let l = g.pick(&[0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]);
                        if g.chance(50) {
                            l
                        } else {
                            -l
                        }
                    };
                    pts[1].1 = pts[0].1 + leg(self);
                    pts[2].0 = pts[0].0 + leg(self);
                }
            }
            // A horizontal edge (flat top or bottom).
            3 => pts[1].1 = pts[0].1,
            // A 45° edge through pixel centres.
            4 => {
                let d = pts[1].0 - pts[0].0;
                pts[1].1 = pts[0].1 + if self.chance(50) { d } else { -d };
            }
            _ => {}
        }
        if self.chance(50) {
            pts.swap(1, 2);
        }
        // The special edges above all touch point 0: rotated, each of them is sometimes edge
        // 0 (vertex 1 to vertex 2), whose set-up (top-left ownership) is hardware of its own.
        let r = self.below(3) as usize;
        pts.rotate_left(r);
        let same_w = self.chance(35);
        let w0 = self.w_value();
        let mut v = [OutVertex::ONES; 3];
        for (vi, (x, y)) in v.iter_mut().zip(pts) {
            let w = if same_w { w0 } else { self.w_value() };
            let zn = self.z_ndc();
            let pos = self.clip_from_window(&vp, x, y, w, zn);
            *vi = self.vertex(pos);
        }
        v
    }

    /// A triangle next to, on or under the last one (mode "neighbour").
    fn neighbour_tri(&mut self, b: &Build) -> Option<[OutVertex; 3]> {
        let prev = *b.tris.last()?;
        let vp = Viewport::from_regs(&b.regs);
        let mut v = prev.v;
        match self.below(10) {
            // Shares the edge v[i]→v[i+1] from the other side: (B, A, C') with C' = A + B − C
            // in window space, so both triangles have the same winding.
            0..=4 => {
                let i = self.below(3) as usize;
                let (a, bb, c) = (prev.v[i], prev.v[(i + 1) % 3], prev.v[(i + 2) % 3]);
                let s = |o: &OutVertex| clip::to_screen(&vp, o);
                let (sa, sb, sc) = (s(&a), s(&bb), s(&c));
                let x = sa.x.to_f64() + sb.x.to_f64() - sc.x.to_f64();
                let y = sa.y.to_f64() + sb.y.to_f64() - sc.y.to_f64();
                let (w, zn) = (self.w_value(), self.z_ndc());
                let pos = self.clip_from_window(&vp, x, y, w, zn);
                let c2 = self.vertex(pos);
                v = [bb, a, c2];
                let r = self.below(3) as usize;
                v.rotate_left(r);
            }
            // The same triangle again (same positions; new attributes half the time).
            5..=7 => {
                if self.chance(50) {
                    for vi in &mut v {
                        let pos = vi.position();
                        *vi = self.vertex(pos);
                    }
                }
                if self.chance(30) {
                    v.swap(1, 2);
                }
            }
            // The same window positions at other depths.
            _ => {
                for vi in &mut v {
                    let s = clip::to_screen(&vp, vi);
                    let (w, zn) = (self.w_value(), self.z_ndc());
                    let pos = self.clip_from_window(&vp, s.x.to_f64(), s.y.to_f64(), w, zn);
                    vi.attr[..4].copy_from_slice(&pos);
                }
            }
        }
        Some(v)
    }

    /// A triangle crossing clip planes (mode "clip").
    fn clip_tri(&mut self) -> [OutVertex; 3] {
        let mut ndc: [[f64; 4]; 3] = std::array::from_fn(|_| {
            [
                self.uniform(-1.1, 1.1),
                self.uniform(-1.1, 1.1),
                -self.uniform(0.0, 1.0),
                1.0,
            ]
        });
        let out = |g: &mut Self| -> f64 {
            let m = g.uniform(1.02, 4.0);
            if g.chance(50) {
                m
            } else {
                -m
            }
        };
        let (a, b) = (self.below(3) as usize, self.below(3) as usize);
        let mut w_special: Option<f64> = None;
        match self.below(100) {
            // Both z planes: z > 0 at one vertex, z < −w at another.
            0..=29 => {
                let b = if a == b { (a + 1) % 3 } else { b };
                ndc[a][2] = self.uniform(0.02, 1.0);
                ndc[b][2] = -self.uniform(1.02, 3.0);
            }
            // One z plane.
            30..=44 => {
                ndc[a][2] = if self.chance(50) {
                    self.uniform(0.02, 1.0)
                } else {
                    -self.uniform(1.02, 3.0)
                };
            }
            // x and/or y planes.
            45..=69 => {
                let axis = self.below(2) as usize;
                ndc[a][axis] = out(self);
                if self.chance(50) {
                    ndc[b][1 - axis] = out(self);
                }
            }
            // w at or below ε at one or two vertices.
            70..=84 => {
                w_special = Some(self.pick(&[
                    0.0,
                    -1.0,
                    -0.5,
                    1e-6,
                    W_EPSILON.to_f64(),
                    2.0 * W_EPSILON.to_f64(),
                    -1e-6,
                    -3.0,
                ]));
            }
            // Several at once.
            _ => {
                for p in &mut ndc {
                    p[0] = self.uniform(-3.0, 3.0);
                    p[1] = self.uniform(-3.0, 3.0);
                    p[2] = self.uniform(-2.5, 1.0);
                }
            }
        }
        let mut v = [OutVertex::ONES; 3];
        for (k, vi) in v.iter_mut().enumerate() {
            let w = self.w_value();
            let p = ndc[k];
            let mut pos = [
                Self::f24(p[0] * w),
                Self::f24(p[1] * w),
                Self::f24(p[2] * w),
                Self::f24(w),
            ];
            if let Some(ws) = w_special {
                if k == a || (k == b && self.chance(40)) {
                    pos[3] = Self::f24(ws);
                    if ws <= 0.0 && self.chance(50) {
                        // Keep x, y, z proportional to a negative w (a vertex behind the eye).
                        pos[0] = Self::f24(p[0] * ws);
                        pos[1] = Self::f24(p[1] * ws);
                        pos[2] = Self::f24(p[2] * ws);
                    }
                }
            }
            *vi = self.vertex(pos);
        }
        v
    }

    /// A one-pixel or sub-pixel triangle around a pixel centre (mode "small").
    fn small_tri(&mut self, b: &Build) -> [OutVertex; 3] {
        let vp = Viewport::from_regs(&b.regs);
        let region = self.tri_region(b);
        let (cx, cy) = self.point(PointKind::Centre, region);
        let off = |g: &mut Self| f64::from(g.below(25) as u32) / 16.0 - 0.75;
        let step = |g: &mut Self| f64::from(1 + g.below(12) as u32) / 16.0;
        let pts: [(f64, f64); 3] = if self.chance(60) {
            // Around the centre: it is inside (below-left, below-right, above).
            let p = [
                (cx - step(self), cy - step(self)),
                (cx + step(self), cy - step(self)),
                (cx, cy + step(self)),
            ];
            if self.chance(50) {
                [p[0], p[2], p[1]]
            } else {
                p
            }
        } else {
            std::array::from_fn(|_| (cx + off(self), cy + off(self)))
        };
        let mut v = [OutVertex::ONES; 3];
        let w = self.w_value();
        for (vi, (x, y)) in v.iter_mut().zip(pts) {
            let zn = self.z_ndc();
            let pos = self.clip_from_window(&vp, x, y, w, zn);
            *vi = self.vertex(pos);
        }
        v
    }

    /// A triangle far larger than the viewport (mode "huge").
    fn huge_tri(&mut self) -> [OutVertex; 3] {
        let mut v = [OutVertex::ONES; 3];
        let m = self.pick(&[10.0, 100.0, 1e4, 1e8]);
        // Around the viewport (vertices spread over a circle) or anywhere.
        let around = self.chance(70);
        let a0 = self.uniform(0.0, std::f64::consts::TAU);
        for (k, vi) in v.iter_mut().enumerate() {
            let w = self.w_value();
            let (x, y) = if around {
                let a = a0 + k as f64 * std::f64::consts::TAU / 3.0 + self.uniform(-0.5, 0.5);
                let r = m * self.uniform(0.5, 1.0);
                (r * a.cos(), r * a.sin())
            } else {
                (self.uniform(-m, m), self.uniform(-m, m))
            };
            let pos = [
                Self::f24(x * w),
                Self::f24(y * w),
                Self::f24(-self.uniform(0.0, 1.0) * w),
                Self::f24(w),
            ];
            *vi = self.vertex(pos);
        }
        v
    }

    /// A triangle with zero area: collinear or repeated vertices (mode "degenerate").
    fn degenerate_tri(&mut self, b: &Build) -> [OutVertex; 3] {
        let vp = Viewport::from_regs(&b.regs);
        let region = self.tri_region(b);
        let (x0, y0) = self.point(PointKind::Centre, region);
        let (x1, y1) = self.point(PointKind::Centre, region);
        let t = self.pick(&[0.0, 0.5, 1.0, 2.0, -1.0]);
        let pts = match self.below(3) {
            0 => [(x0, y0), (x1, y1), (x0 + t * (x1 - x0), y0 + t * (y1 - y0))],
            1 => [(x0, y0), (x0, y0), (x1, y1)],
            _ => [(x0, y0); 3],
        };
        let w = self.w_value();
        let mut v = [OutVertex::ONES; 3];
        for (vi, (x, y)) in v.iter_mut().zip(pts) {
            let zn = self.z_ndc();
            let pos = self.clip_from_window(&vp, x, y, w, zn);
            *vi = self.vertex(pos);
        }
        v
    }

    /// A lattice triangle with one position component replaced by a special value (mode
    /// "special": ±inf, NaN, ±0, subnormals, w at ε, huge and tiny values).
    fn special_tri(&mut self, b: &Build) -> [OutVertex; 3] {
        let mut v = self.lattice_tri(b);
        for _ in 0..1 + self.below(2) {
            let k = self.below(3) as usize;
            let c = self.below(4) as usize;
            v[k].attr[c] = match self.below(3) {
                0 => self.pick(&[
                    F24::INFINITY,
                    F24::NEG_INFINITY,
                    F24::NAN,
                    F24::ZERO,
                    F24::NEG_ZERO,
                    W_EPSILON,
                    F24::from_bits(1),
                    F24::MAX,
                    F24::MIN_POSITIVE,
                ]),
                _ => edgy_f24(&mut self.rng),
            };
        }
        // Now and then a vertex with x, y or z equal to w, both ±inf (or w the other infinity):
        // the clipper's distances w - x etc. are then inf - inf = NaN (outside), which an adder
        // that misses an infinite operand gets wrong (rast_mut.notes #44: x = w = +inf). From
        // the second stream, so the other draws of a seed's cases stay as they were.
        if self.side.chance(20) {
            let k = self.side.below(3) as usize;
            let c = self.side.below(3) as usize;
            let inf = self.side.pick(&[F24::INFINITY, F24::NEG_INFINITY]);
            v[k].attr[c] = inf;
            v[k].attr[3] = if self.side.chance(75) {
                inf
            } else {
                inf.negate()
            };
        }
        v
    }

    /// A triangle under a viewport far larger than the framebuffer (mode "far": writes
    /// VIEWPORT_WIDTH, VIEWPORT_HEIGHT and VIEWPORT_XY first). Its window coordinates reach
    /// beyond the 12.4 range (saturated), sit on and next to its ends (-2047.96875 is the
    /// half that rounds to FixMin, 2047.96875 one that saturates), go negative (mirrored axes
    /// start right of the framebuffer), and the half extents have every mantissa bit in use.
    fn far_tri(&mut self, b: &mut Build) -> [OutVertex; 3] {
        // Window coordinates at the ends of the signed 12.4 range (rast::setup::to_fix12p4).
        const EDGES: [f64; 16] = [
            -4096.0,
            -2560.0,
            -2048.03125,
            -2048.0,
            -2047.96875,
            -2047.9375,
            -1024.0,
            -0.03125,
            0.03125,
            1024.0,
            2047.9375,
            2047.96875,
            2048.0,
            2048.03125,
            2560.0,
            4095.96875,
        ];
        // Per axis (framebuffer size n): the half extent and the 10-bit signed offset.
        let axis = |g: &mut Self, n: u32| -> (F24, i64) {
            let n = i64::from(n.clamp(1, 511));
            // At least 1300: the range reaches past -2048 (mirrored) or +2048.
            let mag = if g.chance(35) {
                g.pick(&[1500.0, 2048.0, 2560.0, 4096.0])
            } else {
                g.uniform(1300.0, 4200.0)
            };
            if g.chance(50) {
                (Self::f24(mag), -(g.below(513) as i64))
            } else {
                (Self::f24(-mag), n + g.below((512 - n) as u64) as i64)
            }
        };
        let (hw, ox) = axis(self, b.fb.0);
        let (hh, oy) = axis(self, b.fb.1);
        b.write(id::VIEWPORT_WIDTH, hw.bits());
        b.write(id::VIEWPORT_HEIGHT, hh.bits());
        b.write(
            id::VIEWPORT_XY,
            (ox as u32 & 0x3FF) | (oy as u32 & 0x3FF) << 16,
        );
        let vp = Viewport::from_regs(&b.regs);
        // One coordinate: the end of the 12.4 range on the viewport's side (the half below
        // it rounds to FixMin or 0x8000, the half above saturates), another end value,
        // anywhere in the viewport (on the 1/32 grid half the time), or in the framebuffer (so
        // the triangle often covers some of it).
        let coord = |g: &mut Self, half: F24, off: i64, n: u32| -> f64 {
            let (a, c) = (off as f64, off as f64 + 2.0 * half.to_f64());
            match g.below(10) {
                0..=3 => {
                    let v = g.pick(&[2047.96875, 2048.03125, 2047.9375, 2048.0]);
                    if half.is_sign_negative() {
                        -v
                    } else {
                        v
                    }
                }
                4 => g.pick(&EDGES),
                5..=6 => {
                    let v = g.uniform(a.min(c), a.max(c));
                    if g.chance(50) {
                        (v * 32.0).round() / 32.0
                    } else {
                        v
                    }
                }
                _ => g.uniform(0.0, f64::from(n.max(1))),
            }
        };
        let mut v = [OutVertex::ONES; 3];
        for vi in &mut v {
            let x = coord(self, hw, ox, b.fb.0);
            let y = coord(self, hh, oy, b.fb.1);
            // A power-of-two w keeps the window coordinates exact through clip::to_screen.
            let w = self.pick(&[1.0, 1.0, 0.5, 2.0, 4.0]);
            let zn = self.z_ndc();
            let pos = self.clip_from_window(&vp, x, y, w, zn);
            *vi = self.vertex(pos);
        }
        v
    }

    /// A triangle around the viewport whose edges each cut a corner of the x/y square and
    /// whose z crosses both z planes (mode "star"): the clipped polygon grows to 8 and more
    /// vertices (the clipper's polygon lengths with bit 3 set).
    fn star_tri(&mut self) -> [OutVertex; 3] {
        use std::f64::consts::TAU;
        // An equilateral-ish triangle of circumradius r has inradius r / 2: between 1 and
        // sqrt(2) its edges cut the square's corners.
        let r = self.uniform(1.9, 2.8);
        let a0 = self.uniform(0.0, TAU);
        let zs = [
            self.uniform(0.05, 1.0),
            -self.uniform(1.1, 2.5),
            -self.uniform(0.0, 1.0),
        ];
        let rot = self.below(3) as usize;
        let mut v = [OutVertex::ONES; 3];
        for (k, vi) in v.iter_mut().enumerate() {
            let a = a0 + k as f64 * TAU / 3.0 + self.uniform(-0.15, 0.15);
            let w = self.w_value();
            let zn = zs[(k + rot) % 3];
            let pos = [
                Self::f24(r * a.cos() * w),
                Self::f24(r * a.sin() * w),
                Self::f24(zn * w),
                Self::f24(w),
            ];
            *vi = self.vertex(pos);
        }
        v
    }

    /// A value for semantic `s` shared by all three vertices (so the interpolated value is
    /// about that value): zero, a positive one of any exponent (tiny colours), an f24 edge.
    fn flat_value(&mut self, s: usize) -> F24 {
        const COLOR_END: usize = semantic::COLOR + 4;
        if (semantic::COLOR..COLOR_END).contains(&s) && self.chance(50) {
            // A colour far below 1/255 (exponents 16-62): rounds to 0, or to 255 when the
            // converter's exponent arithmetic slips.
            return F24::from_bits((16 + self.below(47) as u32) << 16 | self.below(1 << 16) as u32);
        }
        match self.below(6) {
            0 => F24::ZERO,
            1 => F24::from_bits((1 + self.below(62) as u32) << 16 | self.below(1 << 16) as u32),
            2 => edgy_f24(&mut self.rng),
            3 => self.pick(&[F24::ONE, F24::NEG_ONE, Self::f24(0.5)]),
            _ => self.attr_value(s),
        }
    }

    /// Post-processing of a new triangle's vertices: now and then some semantics take one
    /// value at all three vertices ([`Self::flat_value`]), and now and then all positions are
    /// scaled by a large factor (the same triangle at w in the thousands and more: the
    /// interpolator's denominators fall below 1).
    fn vary(&mut self, v: &mut [OutVertex; 3]) {
        if self.chance(20) {
            for s in semantic::QUATERNION..NUM_SEMANTICS {
                if self.chance(if s < semantic::COLOR + 4 { 50 } else { 30 }) {
                    let x = self.flat_value(s);
                    for vi in v.iter_mut() {
                        vi.attr[s] = x;
                    }
                }
            }
        }
        if self.chance(8) {
            // Quaternions with one non-zero component, the same one at every vertex: the
            // alignment's dot product is a single product, tiny (exponent 1) or large, of
            // either sign.
            let c = semantic::QUATERNION + self.below(4) as usize;
            for vi in v.iter_mut() {
                let tiny = F24::from_bits(1 << 16 | self.below(1 << 16) as u32);
                let x = self.pick(&[tiny, F24::ONE, Self::f24(2.0), Self::f24(4.0), F24::MAX]);
                vi.attr[semantic::QUATERNION..semantic::COLOR].fill(F24::ZERO);
                vi.attr[c] = if self.chance(50) { x.negate() } else { x };
            }
        }
        if self.chance(6) {
            let f = self.pick(&[1024.0, 65536.0, 1_048_576.0, 1.0e5, 3.7e7]);
            for vi in v.iter_mut() {
                for a in &mut vi.attr[..4] {
                    *a = Self::f24(a.to_f64() * f);
                }
            }
        }
    }

    /// Puts one vertex of `v` exactly on a clip plane (zero distance), or one f24 step inside
    /// or outside it; a quarter of the time at magnitudes near 2^-60, where a one-step
    /// difference is below the smallest normal and the adder's truncation flushes the distance
    /// to +0 (inside: a clipper without the flush calls the vertex outside). On z ≤ 0 it picks
    /// z from ±0, ±subnormal and ±the smallest normal (distance −z: the multiplier flushes the
    /// first four to +0, so the distance is +0, never −0).
    ///
    /// Why: a reviewer's clipper bug in how a signed-zero distance was classified survived
    /// 4,000 cases and every scene, because no random vertex ever sat on a plane (issue 37).
    fn on_plane(&mut self, v: &mut [OutVertex; 3], regs: &RegFile) {
        let planes: Vec<Plane> = Plane::FIXED
            .into_iter()
            .chain(clip::user_plane(regs))
            .collect();
        let plane = self.pick(&planes);
        let k = self.below(3) as usize;
        let tiny = self.chance(25);
        let class = self.below(3);
        let p = &mut v[k].attr;
        if !p[..4].iter().all(|a| a.is_finite()) || p[3].to_f64() <= 0.0 {
            p[3] = F24::ONE;
            for a in &mut p[..3] {
                if !a.is_finite() {
                    *a = F24::ZERO;
                }
            }
        }
        if tiny {
            // 2^-60 keeps w = 1 normal (exponent 3 of 1..126) and the NDC position as it was.
            for a in &mut p[..4] {
                *a = Self::f24(a.to_f64() * 2f64.powi(-60));
            }
        }
        let pos = |p: &[F24]| -> [F24; 4] { [p[0], p[1], p[2], p[3]] };
        let (j, target) = match plane {
            Plane::XPos => (0, p[3].to_f64()),
            Plane::XNeg => (0, -p[3].to_f64()),
            Plane::YPos => (1, p[3].to_f64()),
            Plane::YNeg => (1, -p[3].to_f64()),
            Plane::ZZero => {
                let sub = F24::from_bits(1 + self.below(0xFFFF) as u32);
                let z = self.pick(&[F24::ZERO, F24::NEG_ZERO, sub, F24::MIN_POSITIVE]);
                p[2] = if self.chance(50) { z.negate() } else { z };
                return;
            }
            Plane::ZNegW => (2, -p[3].to_f64()),
            Plane::WMin => (3, W_EPSILON.to_f64()),
            Plane::WMinNeg => (3, -W_EPSILON.to_f64()),
            Plane::User(c) => {
                // Solve for the component with the largest coefficient.
                let Some(j) = (0..4)
                    .filter(|&i| c[i].is_finite() && !c[i].flush_subnormal().is_zero())
                    .max_by(|&a, &b| c[a].to_f64().abs().total_cmp(&c[b].to_f64().abs()))
                else {
                    return;
                };
                let rest: f64 = (0..4)
                    .filter(|&i| i != j)
                    .map(|i| c[i].to_f64() * p[i].to_f64())
                    .sum();
                (j, -rest / c[j].to_f64())
            }
        };
        let base = Self::f24(target);
        if !target.is_finite() || !base.is_finite() {
            return;
        }
        // The f24 values nearest the target (the target itself is exact for the fixed planes;
        // the user plane's distance truncates, so its zero may sit a step or two away).
        let mut cands = vec![F24::ZERO, F24::NEG_ZERO];
        for d in -3i32..=3 {
            let b = base.bits() as i32 + d;
            let c = F24::from_bits(b.clamp(0, 0xFF_FFFF) as u32);
            if c.is_finite() && c.is_sign_negative() == base.is_sign_negative() {
                cands.push(c);
            }
        }
        let dist = |c: F24| -> f64 {
            let mut q = pos(&p[..4]);
            q[j] = c;
            plane.distance(q).to_f64()
        };
        let pick = match class {
            // On the plane.
            0 => cands.iter().copied().find(|&c| dist(c) == 0.0),
            // The smallest positive distance (inside), the smallest negative one (outside).
            1 => cands
                .iter()
                .copied()
                .filter(|&c| dist(c) > 0.0)
                .min_by(|&a, &b| dist(a).total_cmp(&dist(b))),
            _ => cands
                .iter()
                .copied()
                .filter(|&c| dist(c) < 0.0)
                .max_by(|&a, &b| dist(a).total_cmp(&dist(b))),
        };
        if let Some(c) = pick {
            p[j] = c;
        }
    }

    /// Rare shapes from the third stream (so every other draw of a seed stays as it was), laid
    /// over the triangle the main stream drew:
    /// - colour components between 2^57 and 2^64 at every vertex (per component the same
    ///   exponent, any mantissa): the interpolated colour keeps that exponent, where the conversion to 8 bits
    ///   saturates to 255 and a NaN test that also matched exponent 0x7B gave 0 (#40);
    /// - a NaN in one position component;
    /// - a sliver ([`RastGen::sliver`]).
    fn side_vary(&mut self, v: &mut [OutVertex; 3], b: &mut Build) {
        if self.extra.chance(4) {
            for c in semantic::COLOR..semantic::COLOR + 4 {
                if self.extra.chance(60) {
                    let k = 57 + self.extra.below(7) as i32;
                    for vi in v.iter_mut() {
                        let m = mantissa16(&mut self.extra);
                        vi.attr[c] = F24::from_f64_trunc(m * 2f64.powi(k));
                    }
                }
            }
        }
        if self.extra.chance(2) {
            // A NaN of any payload (either sign) in one position component: the clipper's
            // distances from it are NaN (outside), so the triangle takes the general path; a
            // lane adder that turned a NaN operand with mantissa bit 11 set into a finite sum
            // called it inside (#204). edgy_f24's NaNs reach a position only through
            // special_tri's rare draws.
            let k = self.extra.below(3) as usize;
            let c = self.extra.below(4) as usize;
            let sign = (self.extra.below(2) as u32) << 23;
            v[k].attr[c] = F24::from_bits(sign | 0x7F_0000 | (1 + self.extra.below(0xFFFF)) as u32);
        }
        // Under a viewport half extent of 2^63 or more (RastGen::viewport's side arm), now and
        // then two vertices exactly on that axis' -w plane (window coordinate: the offset,
        // finite) and the third inside (its window coordinate overflows to infinity): the
        // signed area is then 0 - (inf * a finite difference), an infinite area the culling
        // decides on by its sign (#244: a NaN pattern for an infinite area survived the NaN
        // areas that random vertices under such a viewport give).
        let vp = Viewport::from_regs(&b.regs);
        let top = |h: F24| !h.is_finite() || h.abs().to_f64() >= 2f64.powi(63);
        let axes = [top(vp.half_width), top(vp.half_height)];
        if axes.iter().any(|&a| a) && self.extra.chance(50) {
            let j = if axes[0] && (!axes[1] || self.extra.chance(50)) {
                0
            } else {
                1
            };
            let far = self.extra.below(3) as usize;
            for (k, vi) in v.iter_mut().enumerate() {
                let w = vi.attr[3];
                if !w.is_finite() || w.to_f64() <= 0.0 {
                    continue;
                }
                vi.attr[j] = if k == far {
                    F24::from_f64_trunc(
                        w.to_f64() * (0.05 + 0.9 * self.extra.below(1 << 10) as f64 / 1024.0),
                    )
                } else {
                    w.negate()
                };
            }
        }
        if self.extra.chance(5) {
            let pos = self.sliver(b);
            for (vi, p) in v.iter_mut().zip(pos) {
                vi.attr[..4].copy_from_slice(&p);
            }
        }
    }

    /// Rare shapes from the fourth stream (so every other draw of a seed stays as it was), laid
    /// over the triangle the other streams drew; returns the register writes that put back what
    /// it changed (the caller makes them after the triangle):
    /// - a triangle of tiny products ([`RastGen::tiny_products`]);
    /// - quaternions whose component c is about 1 at vertex 0 and of a tiny exponent (1-6,
    ///   about 2^-62 to 2^-57) at vertices 1 and 2, and whose other components are 0 but one,
    ///   about 1 at vertices 1 and 2 only: the alignment's dot product dot(q_k, q_0) is one tiny
    ///   product whose sign decides whether q_k is negated, and the negation shows in the
    ///   interpolated other component (the tiny one is lost beside vertex 0's). Why: a
    ///   mutant of the fast path's multiplier that flushed an operand of exponent 4 as if it
    ///   were 0 left the dot +0 (no flip) and survived every quaternion RastGen had, whose tiny
    ///   components were of exponent 1 or random (rast_mut.notes, 2026-12-02);
    /// - a viewport half extent on one axis of 2^-44 to 2^-16 (written before the triangle,
    ///   with that axis' offset 0) and the vertices inside on that axis: every window
    ///   coordinate on it lies in [0, 2 half], far below a 12.4 step, so the triangle is
    ///   degenerate, where a to_fix12p4 whose alignment shift misread such an exponent (r =
    ///   75 - e with bit 5 lost, e in 25..43) gave a vertex a coordinate of hundreds of pixels
    ///   and drew it (rast_mut.notes, 2026-12-02). Window coordinates that small need a
    ///   viewport that small: `point`'s coordinates just off the 0 edge do not survive
    ///   clip::to_screen's 1 + x / w.
    fn more_vary(&mut self, v: &mut [OutVertex; 3], b: &mut Build) -> Vec<(u16, u32)> {
        let g = &mut self.more;
        if g.chance(4) {
            if let Some(t) = Self::tiny_products(g, b) {
                *v = t;
            }
        }
        if g.chance(25) {
            let c = g.below(4) as usize;
            let other = semantic::QUATERNION + (c + 1 + g.below(3) as usize) % 4;
            let c = semantic::QUATERNION + c;
            for (k, vi) in v.iter_mut().enumerate() {
                let f = |g: &mut Rng, e: i32| {
                    let m = mantissa16(g);
                    let x = F24::from_f64_trunc(m * 2f64.powi(e));
                    if g.chance(50) {
                        x.negate()
                    } else {
                        x
                    }
                };
                vi.attr[semantic::QUATERNION..semantic::COLOR].fill(F24::ZERO);
                if k == 0 {
                    vi.attr[c] = f(g, 0);
                } else {
                    let e = -62 + g.below(6) as i32;
                    vi.attr[c] = f(g, e);
                    vi.attr[other] = f(g, -1);
                }
            }
        }
        let mut restore = Vec::new();
        if g.chance(3) {
            let y_axis = g.chance(50);
            let (r, old) = if y_axis {
                (id::VIEWPORT_HEIGHT, b.regs.reg(id::VIEWPORT_HEIGHT.into()))
            } else {
                (id::VIEWPORT_WIDTH, b.regs.reg(id::VIEWPORT_WIDTH.into()))
            };
            let old_xy = b.regs.reg(id::VIEWPORT_XY.into());
            let m = mantissa16(g);
            let half = F24::from_f64_trunc(m * 2f64.powi(-44 + g.below(29) as i32));
            let xy = if y_axis {
                old_xy & 0x0000_FFFF
            } else {
                old_xy & 0xFFFF_0000
            };
            let j = usize::from(y_axis);
            for vi in v.iter_mut() {
                let w = vi.attr[3];
                if !w.is_finite() || w.to_f64() <= 0.0 {
                    continue;
                }
                // NDC in [-1, 1) on the 1/1024 grid: the window coordinate (n + 1) * half.
                let n = (g.below(2048) as f64 - 1024.0) / 1024.0;
                vi.attr[j] = F24::from_f64_trunc(n * w.to_f64());
            }
            b.write(r, half.bits());
            b.write(id::VIEWPORT_XY, xy);
            restore = vec![(r, old), (id::VIEWPORT_XY, old_xy)];
        }
        restore
    }

    /// A sub-pixel triangle around one pixel centre C at w = 1 (inv_w exactly 1), its vertex k
    /// above C and the edge opposite it below C by 1/16 or 2/16 of a pixel, 2/16 to 6/16 long,
    /// so C's weight of vertex k (the edge function, in 12.4 x 12.4 units) is 2 to 12; every
    /// other semantic one tiny value (exponent 1-4, either sign) at all three vertices. The
    /// interpolator's product of that weight and vertex k's set-up value (the attribute times
    /// inv_w) then has an exponent of 2 to 8 with no flush to zero in between. Why: mutants of
    /// the dot products' adders that flushed an operand of exponent 4 as if it were 0 survived
    /// every case, whose products are that small only where a tiny attribute meets a weight
    /// below 16, i.e. a pixel centre within 1/16 pixel of a short edge (rast_mut.notes,
    /// 2026-12-02). None when the viewport maps no pixel row and column of the framebuffer
    /// with a half extent of 0.5 to 1024 (the window coordinates must survive clip::to_screen
    /// to the 1/16 grid).
    fn tiny_products(g: &mut Rng, b: &Build) -> Option<[OutVertex; 3]> {
        let vp = Viewport::from_regs(&b.regs);
        let span = |off: F24, half: F24, n: u32| -> Option<(f64, f64, f64, f64)> {
            let (o, h) = (off.to_f64(), half.to_f64());
            if !h.is_finite() || !(0.5..=1024.0).contains(&h.abs()) {
                return None;
            }
            let lo = o.min(o + 2.0 * h).max(1.0);
            let hi = o.max(o + 2.0 * h).min(f64::from(n.max(1)) - 1.0);
            (hi - lo >= 1.0).then_some((lo, hi, o, h))
        };
        let (x0, x1, ox, hx) = span(vp.x, vp.half_width, b.fb.0)?;
        let (y0, y1, oy, hy) = span(vp.y, vp.half_height, b.fb.1)?;
        let unit = |g: &mut Rng| g.below(1 << 20) as f64 / (1 << 20) as f64;
        let cx = (x0 + unit(g) * (x1 - x0)).floor() + 0.5;
        let cy = (y0 + unit(g) * (y1 - y0)).floor() + 0.5;
        let s = (1 + g.below(3)) as f64 / 16.0;
        let d = (1 + g.below(2)) as f64 / 16.0;
        let t = (2 + g.below(10)) as f64 / 16.0;
        let apex = (cx, cy + t);
        let base = [(cx - s, cy - d), (cx + s, cy - d)];
        let k = g.below(3) as usize;
        let pts = [apex, base[0], base[1]];
        let zn = -unit(g);
        let mut v = [OutVertex::ONES; 3];
        for (i, vi) in v.iter_mut().enumerate() {
            // Vertex k is the apex; the other two the base, in either order.
            let (x, y) = pts[(i + 3 - k) % 3];
            let pos = [(x - ox) / hx - 1.0, (y - oy) / hy - 1.0, zn, 1.0];
            vi.attr[..4].copy_from_slice(&pos.map(F24::from_f64_trunc));
        }
        for sem in semantic::QUATERNION..NUM_SEMANTICS {
            let m = mantissa16(g);
            let x = F24::from_f64_trunc(m * 2f64.powi(-62 + g.below(4) as i32));
            let x = if g.chance(50) { x.negate() } else { x };
            for vi in v.iter_mut() {
                vi.attr[sem] = x;
            }
        }
        Some(v)
    }

    /// A nearly degenerate triangle under a 2048 × 2048 viewport at (0, 0) with culling on (it
    /// writes VIEWPORT_WIDTH, VIEWPORT_HEIGHT, VIEWPORT_XY and FACECULLING_CONFIG first):
    /// two vertices up to 1,800 pixels apart on a line through the framebuffer, the third
    /// beside that line by 2^-5 to 2^-17 of their distance. Its signed area's two products then
    /// agree to 5-17 bits, so the culling decision turns on their low bits, and it is still
    /// long enough to cover pixel centres; no plane clips it, so it takes CLIP's fast path.
    /// Why: five mutants of the fast path's area stage (a product bit, a difference bit, an
    /// output LSB) change culling only for such a triangle, and survived every random one,
    /// whose framebuffer-sized viewports are too small for a covering sliver
    /// (rast_mut.notes #15, #22, #79, #139, #181). Positions only (from the third stream); the
    /// caller keeps the other semantics of its triangle.
    fn sliver(&mut self, b: &mut Build) -> [[F24; 4]; 3] {
        let half = F24::from_f64_trunc(1024.0);
        b.write(id::VIEWPORT_WIDTH, half.bits());
        b.write(id::VIEWPORT_HEIGHT, half.bits());
        b.write(id::VIEWPORT_XY, 0);
        let cull = 1 + self.extra.below(2) as u32;
        b.write(id::FACECULLING_CONFIG, cull);
        let g = &mut self.extra;
        let unit = |g: &mut Rng| g.below(1 << 20) as f64 / (1 << 20) as f64;
        let (fw, fh) = (
            f64::from(b.fb.0.clamp(1, 2047)),
            f64::from(b.fb.1.clamp(1, 1024)),
        );
        let (ax, ay) = (unit(g) * fw, unit(g) * fh);
        // Nearly axis-parallel now and then: the differences of x (or y) between all three
        // vertices are then below a pixel, the exponents a mutant of those differences needs
        // (#181 flipped a bit of x1 - x0 only when the difference was below 1).
        let t = if g.chance(40) {
            let quarter = g.below(4) as f64 * std::f64::consts::FRAC_PI_2;
            quarter + (unit(g) - 0.5) * 2f64.powi(-9 - g.below(8) as i32)
        } else {
            unit(g) * std::f64::consts::TAU
        };
        let (dx, dy) = (t.cos(), t.sin());
        // The longest half length that keeps both ends inside [1, 2046]^2.
        let fit = |a: f64, d: f64| {
            if d.abs() < 1e-9 {
                f64::INFINITY
            } else {
                ((2046.0 - a) / d).abs().min(((a - 1.0) / d).abs())
            }
        };
        let l = (32.0 + unit(g) * 868.0)
            .min(fit(ax, dx))
            .min(fit(ay, dy))
            .max(1.0);
        let k = 5.0 + 12.0 * unit(g);
        let off = 2.0 * l * 2f64.powf(-k) * if g.chance(50) { 1.0 } else { -1.0 };
        let s = 1.8 * unit(g) - 0.9;
        let pts = [
            (ax - l * dx, ay - l * dy),
            (ax + l * dx, ay + l * dy),
            (ax + s * l * dx - off * dy, ay + s * l * dy + off * dx),
        ];
        let r = g.below(3) as usize;
        let zn = -unit(g);
        std::array::from_fn(|i| {
            let (x, y) = pts[(i + r) % 3];
            // Window (x, y) at w = 1 under the viewport above: NDC x / 1024 - 1.
            [x / 1024.0 - 1.0, y / 1024.0 - 1.0, zn, 1.0].map(F24::from_f64_trunc)
        })
    }

    /// The traversal pixels `tri` costs under the registers of `b`.
    fn cost(regs: &RegFile, tri: &Triangle) -> u64 {
        let cfg = RastConfig::from_regs(regs);
        clip::process(regs, tri)
            .iter()
            .map(|st| 8 + PreparedTri::new(st, cfg).rect.map_or(0, |r| r.area()))
            .sum()
    }

    /// Adds one triangle to `b` (tries a few shapes; none if every try is over budget).
    fn add_tri(&mut self, b: &mut Build) {
        for _ in 0..8 {
            let mut v = match self.below(100) {
                0..=39 => self.lattice_tri(b),
                40..=52 => match self.neighbour_tri(b) {
                    Some(v) => v,
                    None => self.lattice_tri(b),
                },
                53..=71 => self.clip_tri(),
                72..=78 => self.small_tri(b),
                79..=82 => self.huge_tri(),
                83..=86 => self.degenerate_tri(b),
                87..=90 => self.special_tri(b),
                91..=96 => self.far_tri(b),
                _ => self.star_tri(),
            };
            self.vary(&mut v);
            self.side_vary(&mut v, b);
            // Before on_plane, which would lose its vertex on a plane to more_vary's positions.
            let restore = self.more_vary(&mut v, b);
            if self.chance(8) {
                self.on_plane(&mut v, &b.regs);
            }
            let mut tri = Triangle { seq: b.seq, v };
            if clip::process(&b.regs, &tri).is_empty() && self.chance(75) {
                // Culled (or clipped away): the other winding, if that survives.
                let mut r = tri;
                r.v.swap(1, 2);
                if !clip::process(&b.regs, &r).is_empty() {
                    tri = r;
                }
            }
            let c = Self::cost(&b.regs, &tri);
            if c <= MAX_TRI_PIXELS && b.cost + c <= MAX_CASE_PIXELS {
                b.cost += c;
                b.seq = b.seq.wrapping_add(if self.chance(90) { 1 } else { 0 });
                b.tris.push(tri);
                b.ops.push(RastOp::Tri(tri));
                for (r, value) in restore {
                    b.write(r, value);
                }
                return;
            }
            for (r, value) in restore {
                b.write(r, value);
            }
        }
    }

    /// Between triangles: a few configuration changes, clears, ignored writes.
    fn between(&mut self, b: &mut Build) {
        if self.chance(25) {
            let fresh = self.config(b.fb);
            let ids = cfg_ids();
            for _ in 0..1 + self.below(3) {
                let slot = self.below(NUM_CFG as u64) as usize;
                let r = ids[slot];
                if r == id::FRAMEBUFFER_DIM && self.chance(80) {
                    continue;
                }
                b.write(r, fresh[slot]);
                if r == id::VIEWPORT_WIDTH || r == id::VIEWPORT_HEIGHT {
                    let other = if r == id::VIEWPORT_WIDTH { 2 } else { 1 };
                    b.write(ids[other], fresh[other]);
                }
            }
        }
        if self.chance(10) {
            if self.chance(50) {
                let v = self.depth24();
                b.write(id::EARLYDEPTH_DATA, v);
            }
            b.regs.write(EARLY_DEPTH_CLEAR, CLEAR_WRITE_VALUE);
            b.ops.push(RastOp::Clear);
        }
        if self.chance(4) {
            // The clear event as a raw register write, any value.
            let v = self.rng.next_u64() as u32;
            b.write(EARLY_DEPTH_CLEAR, v);
        }
        if self.side.chance(5) {
            self.alias_storm(b);
        }
        if self.chance(4) {
            let r = self.pick(&OTHER_IDS);
            let bits = self.rng.next_u64();
            // Half of them one ID bit away from a register the stage decodes instead (the
            // value's draw chooses, so the cases' random stream stays as it was).
            let r = match bits >> 63 {
                1 => super::aliasing_id(&decoded_ids(), bits >> 32).unwrap_or(r),
                _ => r,
            };
            b.write(r, bits as u32);
        }
    }

    /// A write of a random value to every ID one bit away from an ID the stage decodes
    /// ([`decoded_ids`], each of its ten bits flipped; about 200 writes), all of which the stage
    /// must ignore. Single random writes of such IDs were too thin to catch a decoder that drops
    /// one ID bit: a mutant taking 0x0C8 for FRAGOP_CLIP_DATA0 (0x048) shows only with the user
    /// plane on and a triangle across it, one alias out of about 200
    /// (`rtl-bridge/mutants/rast_mut.notes`, #77 and #211). The shrinker removes the writes that
    /// do not matter.
    fn alias_storm(&mut self, b: &mut Build) {
        for id in super::one_bit_aliases(&decoded_ids()) {
            let v = self.side.next_u64() as u32;
            b.write(id, v);
        }
    }

    /// The early-depth buffer a case starts from.
    fn early(&mut self, fb: (u32, u32), region: (f64, f64, f64, f64)) -> EarlyDepthBuffer {
        let mut e = EarlyDepthBuffer::new();
        let kind = self.below(10);
        if kind < 5 {
            return e;
        }
        if kind < 8 {
            for _ in 0..1 + self.below(2) {
                let v = self.depth24();
                e.clear(v);
            }
        }
        let (w, h) = (fb.0.clamp(1, 2047), fb.1.clamp(1, 1024));
        for _ in 0..self.below(48) {
            let (x, y) = if self.chance(75) {
                let (x0, y0, x1, y1) = region;
                (
                    self.uniform(x0.max(0.0), x1.max(1.0)).floor() as u32,
                    self.uniform(y0.max(0.0), y1.max(1.0)).floor() as u32,
                )
            } else {
                (self.below(w.into()) as u32, self.below(h.into()) as u32)
            };
            let v = self.depth24();
            e.store(x.min(w - 1) as u16, y.min(h - 1) as u16, v);
        }
        e
    }

    /// A random case. Mostly one that yields fragments: a case without any is drawn again
    /// (up to three times) with a probability of 80 %.
    pub fn case(&mut self) -> RastCase {
        let mut case = self.one_case();
        for _ in 0..3 {
            if !run_model(&case).fragments.is_empty() || !self.chance(80) {
                break;
            }
            case = self.one_case();
        }
        case
    }

    fn one_case(&mut self) -> RastCase {
        let fb = self.fb_dims();
        let region = self.region(fb);
        let mut b = Build {
            regs: RegFile::new(),
            ops: Vec::new(),
            cost: 0,
            tris: Vec::new(),
            seq: (self.below(4) as u32).wrapping_mul(self.pick(&[1, 1000, 0x7FFF_FFFF])),
            region,
            fb,
        };
        b.regs.set_record_beats(false);
        let early = self.early(fb, region);
        // First block: every stored register, in a random order, some written twice; rarely
        // one left at its power-on value.
        let cfg = self.config(fb);
        let ids = cfg_ids();
        let mut order: Vec<usize> = (0..NUM_CFG).collect();
        for i in (1..order.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let skip = if self.chance(3) {
            Some(self.below(NUM_CFG as u64) as usize)
        } else {
            None
        };
        for slot in order {
            if Some(slot) == skip && ids[slot] != id::FRAMEBUFFER_DIM {
                continue;
            }
            if self.chance(5) {
                let v = self.rng.next_u64() as u32;
                b.write(ids[slot], v);
            }
            b.write(ids[slot], cfg[slot]);
        }
        let early_on = RastConfig::from_regs(&b.regs).early_depth.is_some();
        if self.chance(if early_on { 85 } else { 30 }) {
            b.regs.write(EARLY_DEPTH_CLEAR, CLEAR_WRITE_VALUE);
            b.ops.push(RastOp::Clear);
        }
        let n = match self.below(100) {
            0..=19 => 1,
            20..=44 => 2,
            45..=64 => 3,
            65..=79 => 4,
            _ => 5 + self.below(2),
        };
        for i in 0..n {
            if i > 0 {
                self.between(&mut b);
            }
            self.add_tri(&mut b);
        }
        RastCase {
            ops: b.ops,
            early,
            knobs: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::chan::Payload;
    use std::collections::BTreeSet;
    use std::fs;

    fn tri(seq: u32) -> Triangle {
        let mut t = Triangle {
            seq,
            v: [OutVertex::ONES; 3],
        };
        for (k, v) in t.v.iter_mut().enumerate() {
            for (s, a) in v.attr.iter_mut().enumerate() {
                *a = F24::from_bits((k as u32) << 16 | (s as u32) << 8 | 0x80_0000 | s as u32);
            }
        }
        t
    }

    #[test]
    fn rast_op_hex_lines_round_trip() {
        let ops = [
            RastOp::Reg {
                id: 0x11E,
                value: 0x0100_F020,
            },
            RastOp::Clear,
            RastOp::Tri(tri(0xDEAD_BEEF)),
        ];
        for op in ops {
            let l = op.hex_line();
            assert_eq!(l.len(), 442);
            assert_eq!(RastOp::parse_hex_line(&l), Some(op), "{l}");
        }
        assert!(ops[0].hex_line().ends_with("11e0100f020"));
        assert!(ops[1].hex_line().starts_with("01000"));
        // Vertex 0 semantic 0 is the least significant lane; vertex 2 semantic 23 the most.
        let l = ops[2].hex_line();
        assert!(l.starts_with("02deadbeef821717"), "{l}");
        assert!(l.ends_with("800000"), "{l}");
        assert_eq!(
            RastOp::parse_hex_line(&format!("03{}", "0".repeat(440))),
            None
        );
        // A short line is zero-extended on the left, as $readmemh does.
        assert_eq!(
            RastOp::parse_hex_line("03"),
            Some(RastOp::Reg { id: 0, value: 3 })
        );
        assert_eq!(
            RastOp::parse_hex_line(&format!("01{}", "0".repeat(439) + "1")),
            None
        );
        assert_eq!(
            RastOp::parse_hex_line(&format!("00{}", "1".repeat(440))),
            None
        );
    }

    #[test]
    fn rast_fragment_and_deriv_lines_round_trip() {
        let mut g = RastGen::new(5);
        let mut n = 0;
        let mut with_deriv = 0;
        for _ in 0..60 {
            let run = run_model(&g.case());
            for (i, f) in run.fragments.iter().enumerate() {
                let b = fragment_beat(i as u64, f);
                let back = parse_fragment_line(&b.hex_line()).unwrap();
                assert_eq!(back, b);
                let d = parse_tex_deriv_line(&tex_deriv_hex(f)).unwrap();
                assert_eq!(fragment_of(&back, d), *f);
                n += 1;
                with_deriv += usize::from(f.tex_deriv != [[F24::ZERO; 4]; 3]);
            }
        }
        assert!(
            n > 200 && with_deriv > 50,
            "{n} fragments, {with_deriv} with differences"
        );
    }

    #[test]
    fn rast_early_lines_round_trip() {
        let mut b = EarlyDepthBuffer::new();
        b.clear(0x12_3456);
        b.store(3, 4, 7);
        b.store(2047, 1023, 0xFF_FFFF);
        b.store(0, 0, 0x12_3456); // the clear value: not carried
        let text = early_hex(&b);
        assert_eq!(text, "00000000123456\n00030004000007\n07ff03ffffffff\n");
        let lines: Vec<&str> = text.lines().collect();
        let (cv, e) = parse_early_lines(&lines).unwrap();
        let back = early_from_entries(cv, true, &e);
        assert!(early_same(&b, &back));
        assert_eq!(back.get(3, 4), 7);
        assert!(early_entries(&EarlyDepthBuffer::new()).is_empty());
    }

    /// The alias storms reach both IDs whose one-bit-short decoders survived (0x263 for the
    /// clear 0x063, 0x0C8 for FRAGOP_CLIP_DATA0 0x048), and the model ignores them: a case's
    /// stored registers are those of the same case without its writes to non-decoded IDs.
    #[test]
    fn alias_storms_write_the_one_bit_aliases() {
        let decoded = decoded_ids();
        let mut ids = BTreeSet::new();
        let mut g = RastGen::new(3);
        for _ in 0..200 {
            let case = g.case();
            let mut with = RegFile::new();
            let mut without = RegFile::new();
            for op in &case.ops {
                if let RastOp::Reg { id, value } = *op {
                    with.write(id & 0x3FF, value);
                    if decoded.contains(&(id & 0x3FF)) {
                        without.write(id & 0x3FF, value);
                    } else {
                        ids.insert(id & 0x3FF);
                    }
                }
            }
            assert_eq!(cfg_words(&with), cfg_words(&without));
        }
        assert!(ids.contains(&0x263) && ids.contains(&0x0C8), "{ids:x?}");
    }

    #[test]
    fn rast_bundle_round_trips() {
        let base = std::env::temp_dir().join(format!("pica-rast-bundle-{}", std::process::id()));
        let mut g = RastGen::new(0xB0B);
        let prov = StageProvenance {
            generator: "stage_rast tests".into(),
            seed: Some(0xB0B),
            ..StageProvenance::default()
        };
        for i in 0..6 {
            let case = g.case();
            let dir = base.join(format!("{i}"));
            let m = write_rast_bundle(&dir, "rast/test", "test", &case, &prov).unwrap();
            assert_eq!(m["kind"], KIND_RAST);
            let (m2, back, run) = load_rast_bundle(&dir).unwrap();
            assert_eq!(m, m2);
            assert_eq!(back.ops, case.ops);
            assert!(early_same(&back.early, &case.early));
            let want = run_model(&case);
            assert_eq!(run.fragments, want.fragments);
            assert!(early_same(&run.early, &want.early));
            // The loaded case runs to the same result.
            assert_eq!(run_model(&back).fragments, want.fragments);
        }
        // A changed byte is caught.
        let f = base.join("0/ops.hex");
        let mut t = fs::read_to_string(&f).unwrap();
        t.replace_range(0..2, "01");
        fs::write(&f, t).unwrap();
        assert!(load_rast_bundle(&base.join("0"))
            .unwrap_err()
            .to_string()
            .contains("SHA-256"));
        let _ = fs::remove_dir_all(&base);
    }

    #[test]
    fn rast_gen_is_deterministic() {
        assert_eq!(RastGen::new(7).case(), RastGen::new(7).case());
        assert_ne!(RastGen::new(7).case(), RastGen::new(8).case());
    }
}

#[cfg(test)]
mod coverage {
    //! What [`RastGen`] covers in the first 2,000 cases of a seed.
    use super::*;
    use pica_model::rast::{DepthMode, PixelOutcome};
    use std::collections::BTreeMap;

    #[derive(Default, Debug)]
    struct Stats {
        cases: usize,
        tris: usize,
        screen_tris: usize,
        fragments: usize,
        frag_counts: Vec<usize>,
        pixels: u64,
        cull: [usize; 4],
        scissor: [usize; 4],
        early_func_on: [usize; 4],
        early_off: usize,
        depth_fmt: [usize; 4],
        zbuffer: usize,
        wbuffer: usize,
        deriv_on: usize,
        deriv_off: usize,
        /// Triangles with a vertex outside plane i and one inside (7 fixed, then the user one).
        crosses: [usize; 8],
        /// Vertices on plane i: exactly (operands cancel), flushed (a non-zero exact distance
        /// below the smallest normal truncated to +0), one step inside, one step outside.
        on_plane: [[usize; 4]; 8],
        /// Vertices with z = +0, −0, a subnormal, ± the smallest normal.
        z_special: [usize; 4],
        both_z: usize,
        three_planes: usize,
        w_nonpositive: usize,
        w_tiny: usize,
        nonfinite: usize,
        degenerate: usize,
        one_fragment: usize,
        clipped_xy_all: usize,
        /// Fill-rule ties: zero weight on an owned / unowned edge, by edge class (left, right,
        /// top, bottom).
        ties_owned: [usize; 4],
        ties_unowned: [usize; 4],
        early_fail: usize,
        early_before_nonempty: usize,
        clears: usize,
        overlap_pixels: usize,
        large_fb: usize,
        /// The third stream's rare shapes (`RastGen::side_vary`, `side_user_plane`,
        /// `viewport`): a colour component of 2^57 or more at every vertex; an enabled user
        /// plane with a non-finite coefficient; an infinite viewport half extent; a covering
        /// sliver (culling on, the signed area's products agreeing to 5 bits or more, a
        /// non-empty traversal rectangle).
        huge_colour: usize,
        user_nonfinite: usize,
        viewport_inf: usize,
        slivers: usize,
    }

    /// How `pos` sits on plane `p` (see `Stats::on_plane`): `None` when it is not within one
    /// step of it. The exact distance of a fixed plane is its operands' f64 sum (exact: two
    /// f24 values); the user plane's products are rounded, so it only counts exact zeros.
    fn plane_class(p: Plane, pos: [F24; 4]) -> Option<usize> {
        let [x, y, z, w] = pos.map(|a| a.flush_subnormal().to_f64());
        let eps = W_EPSILON.to_f64();
        let (exact, scale) = match p {
            Plane::XPos => (w - x, w),
            Plane::XNeg => (w + x, w),
            Plane::YPos => (w - y, w),
            Plane::YNeg => (w + y, w),
            Plane::ZZero => (-z, w),
            Plane::ZNegW => (w + z, w),
            Plane::WMin => (w - eps, eps),
            Plane::WMinNeg => (w + eps, eps),
            Plane::User(_) => {
                return p.distance(pos).is_zero().then_some(0);
            }
        };
        let d = p.distance(pos).to_f64();
        let step = scale.abs() * 2f64.powi(-15);
        if exact == 0.0 {
            Some(0)
        } else if d == 0.0 {
            Some(1)
        } else if exact > 0.0 && exact <= step {
            Some(2)
        } else if exact < 0.0 && -exact <= step {
            Some(3)
        } else {
            None
        }
    }

    fn edge_class(s: &pica_model::rast::TriSetup, i: usize) -> usize {
        let a = s.pos[(i + 1) % 3];
        let b = s.pos[(i + 2) % 3];
        let sign = s.area2.signum();
        let dx = i64::from(b[0] - a[0]);
        let dy = i64::from(b[1] - a[1]);
        let (nx, ny) = (-dy * sign, dx * sign);
        if nx > 0 {
            0
        } else if nx < 0 {
            1
        } else if ny > 0 {
            2
        } else {
            3
        }
    }

    #[test]
    fn rast_gen_covers_what_breaks_rasterizers() {
        let mut g = RastGen::new(0x0A57_0001);
        let mut st = Stats::default();
        for _ in 0..2000 {
            let case = g.case();
            st.cases += 1;
            st.early_before_nonempty += usize::from(case.early.written() > 0);
            st.clears += case.clears();
            let mut regs = RegFile::new();
            regs.set_record_beats(false);
            let mut early = case.early.clone();
            let mut seen = 0;
            let mut frags = 0;
            let mut hit: BTreeMap<(u16, u16), usize> = BTreeMap::new();
            for op in &case.ops {
                match op {
                    RastOp::Reg { id, value } => {
                        regs.write(*id, *value);
                    }
                    RastOp::Clear => {
                        regs.write(EARLY_DEPTH_CLEAR, 1);
                    }
                    RastOp::Tri(t) => {
                        st.tris += 1;
                        let cfg = RastConfig::from_regs(&regs);
                        let w = cfg_words(&regs);
                        st.cull[(w[0] & 3) as usize] += 1;
                        st.scissor[(w[13] & 3) as usize] += 1;
                        match cfg.early_depth {
                            Some(_) => st.early_func_on[(w[11] & 3) as usize] += 1,
                            None => st.early_off += 1,
                        }
                        st.depth_fmt[(w[19] & 3) as usize] += 1;
                        if cfg.depth_mode == DepthMode::ZBuffer {
                            st.zbuffer += 1;
                        } else {
                            st.wbuffer += 1;
                        }
                        if cfg.tex_deriv {
                            st.deriv_on += 1;
                        } else {
                            st.deriv_off += 1;
                        }
                        st.large_fb += usize::from(cfg.fb_width > 128 || cfg.fb_height > 128);
                        let planes: Vec<Plane> = Plane::FIXED
                            .into_iter()
                            .chain(clip::user_plane(&regs))
                            .collect();
                        let mut crossed = 0;
                        for (i, p) in planes.iter().enumerate() {
                            let ins: Vec<bool> =
                                t.v.iter()
                                    .map(|v| p.distance(v.position()).to_f64() >= 0.0)
                                    .collect();
                            if ins.iter().any(|&x| x) && ins.iter().any(|&x| !x) {
                                st.crosses[i] += 1;
                                crossed += 1;
                            }
                            for v in &t.v {
                                if let Some(c) = plane_class(*p, v.position()) {
                                    st.on_plane[i][c] += 1;
                                }
                            }
                        }
                        for v in &t.v {
                            let z = v.attr[2];
                            let c = if z.is_zero() {
                                usize::from(z.is_sign_negative())
                            } else if z.is_subnormal() {
                                2
                            } else if z.abs() == F24::MIN_POSITIVE {
                                3
                            } else {
                                continue;
                            };
                            st.z_special[c] += 1;
                        }
                        let zin =
                            |p: Plane| t.v.iter().any(|v| p.distance(v.position()).to_f64() < 0.0);
                        st.both_z += usize::from(zin(Plane::ZZero) && zin(Plane::ZNegW));
                        st.three_planes += usize::from(crossed >= 3);
                        let ws: Vec<f64> = t.v.iter().map(|v| v.attr[3].to_f64()).collect();
                        st.w_nonpositive += usize::from(ws.iter().any(|&w| w <= 0.0));
                        st.w_tiny += usize::from(
                            ws.iter().any(|&w| w > 0.0 && w <= 2.0 * W_EPSILON.to_f64()),
                        );
                        st.nonfinite += usize::from(
                            t.v.iter()
                                .any(|v| v.attr[..4].iter().any(|a| !a.is_finite())),
                        );
                        if [Plane::XPos, Plane::XNeg, Plane::YPos, Plane::YNeg]
                            .iter()
                            .all(|p| zin(*p))
                        {
                            st.clipped_xy_all += 1;
                        }
                        let huge = |a: F24| a.is_finite() && a.to_f64() >= 2f64.powi(57);
                        st.huge_colour += usize::from(
                            (semantic::COLOR..semantic::COLOR + 4)
                                .any(|c| t.v.iter().all(|v| huge(v.attr[c]))),
                        );
                        st.user_nonfinite += usize::from(clip::user_plane(&regs).is_some_and(
                            |p| matches!(p, Plane::User(c) if c.iter().any(|x| !x.is_finite())),
                        ));
                        let vp = Viewport::from_regs(&regs);
                        st.viewport_inf +=
                            usize::from(!vp.half_width.is_finite() || !vp.half_height.is_finite());
                        let mut tri_frags = 0;
                        for s in clip::process(&regs, t) {
                            st.screen_tris += 1;
                            let pt = PreparedTri::new(&s, cfg);
                            if w[0] & 3 != 0 && w[0] & 3 != 3 {
                                let [a, b, c] = s.v.map(|v| (v.x.to_f64(), v.y.to_f64()));
                                let p = (b.0 - a.0) * (c.1 - a.1);
                                let q = (c.0 - a.0) * (b.1 - a.1);
                                let thin = p != q && (p - q).abs() <= p.abs().max(q.abs()) / 32.0;
                                st.slivers += usize::from(thin && pt.first_pixel().is_some());
                            }
                            if pt.setup.is_degenerate() {
                                st.degenerate += 1;
                            }
                            let mut cur = pt.first_pixel();
                            while let Some((x, y)) = cur {
                                st.pixels += 1;
                                if let Some(wt) = pt.setup.weights(x, y) {
                                    if wt.iter().all(|&b| b >= 0) {
                                        for (i, &wi) in wt.iter().enumerate() {
                                            if wi == 0 {
                                                let c = edge_class(&pt.setup, i);
                                                if pt.setup.owns[i] {
                                                    st.ties_owned[c] += 1;
                                                } else {
                                                    st.ties_unowned[c] += 1;
                                                }
                                            }
                                        }
                                    }
                                }
                                let o = pt.pixel(x, y, &early);
                                pt.commit(&o, &mut early);
                                match o {
                                    PixelOutcome::Fragment { fragment, .. } => {
                                        tri_frags += 1;
                                        let e = hit.entry((fragment.x, fragment.y)).or_default();
                                        *e += 1;
                                        if *e == 2 {
                                            st.overlap_pixels += 1;
                                        }
                                    }
                                    PixelOutcome::EarlyDepthFail => st.early_fail += 1,
                                    _ => {}
                                }
                                cur = pt.next_pixel(x, y);
                            }
                        }
                        st.one_fragment += usize::from(tri_frags == 1);
                        frags += tri_frags;
                    }
                }
                take_clears(&regs, &mut seen, &mut early);
            }
            st.fragments += frags;
            st.frag_counts.push(frags);
        }
        st.frag_counts.sort_unstable();
        let median = st.frag_counts[st.frag_counts.len() / 2];
        let p90 = st.frag_counts[st.frag_counts.len() * 9 / 10];
        let max = st.frag_counts.last().copied().unwrap_or(0);
        let empty = st.frag_counts.iter().filter(|&&n| n == 0).count();
        let frag_counts = std::mem::take(&mut st.frag_counts);
        eprintln!("{st:#?}\nfragments per case: median {median}, p90 {p90}, max {max}, {empty} cases without any");
        drop(frag_counts);
        let all = |a: &[usize]| a.iter().all(|&n| n > 0);
        assert!(all(&st.cull) && all(&st.scissor) && all(&st.early_func_on) && all(&st.depth_fmt));
        assert!(st.early_off > 0 && st.zbuffer > 0 && st.wbuffer > 0);
        assert!(st.deriv_on > 0 && st.deriv_off > 0);
        assert!(st.crosses.iter().all(|&n| n >= 20), "{:?}", st.crosses);
        // On every plane, one step to either side of each fixed one, and flushed to +0 on the
        // planes whose distance is a sum (x, y and z ≥ −w); z at ±0, subnormals, ±min normal.
        let fixed = &st.on_plane[..7];
        assert!(
            st.on_plane.iter().all(|c| c[0] >= 5)
                && fixed.iter().all(|c| c[0] >= 20 && c[2] >= 10 && c[3] >= 10)
                && [0, 1, 2, 3, 5].iter().all(|&i| st.on_plane[i][1] >= 5),
            "{:?}",
            st.on_plane
        );
        assert!(st.z_special.iter().all(|&n| n >= 10), "{:?}", st.z_special);
        assert!(st.both_z >= 100 && st.three_planes >= 50);
        assert!(st.w_nonpositive >= 50 && st.w_tiny >= 10 && st.nonfinite >= 20);
        assert!(st.degenerate >= 20 && st.one_fragment >= 50 && st.clipped_xy_all >= 20);
        assert!(
            // Left and top edges own their points, right and bottom ones do not.
            st.ties_owned[0] >= 50
                && st.ties_owned[2] >= 50
                && st.ties_unowned[1] >= 50
                && st.ties_unowned[3] >= 50,
            "ties owned {:?} unowned {:?}",
            st.ties_owned,
            st.ties_unowned
        );
        assert!(st.early_fail >= 100 && st.early_before_nonempty >= 200 && st.clears >= 300);
        assert!(st.overlap_pixels >= 500 && st.large_fb >= 50);
        assert!(
            st.huge_colour >= 10
                && st.user_nonfinite >= 10
                && st.viewport_inf >= 10
                && st.slivers >= 30,
            "huge colours {}, non-finite user planes {}, infinite viewports {}, slivers {}",
            st.huge_colour,
            st.user_nonfinite,
            st.viewport_inf,
            st.slivers
        );
        assert!(
            (10..=500).contains(&median),
            "median fragments per case {median}"
        );
        assert!(empty * 5 < st.cases, "{empty} cases without fragments");
    }
}
