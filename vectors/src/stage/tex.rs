//! TEX stage cases and stage bundles (`kind` = [`KIND_TEX`]): register writes and fragments
//! into texture units 0-2, the memory images holding their textures, and what the model
//! expects — per fragment the colours of units 0-3 (a `tex_color` beat), every texel read (the
//! `texel` beats) and the outcome (finished, or a [`TexHang`]). Replayed on `pica_tex_top` by
//! `rtl-bridge/tb/pica_tex_replay_tb.sv` (`scripts/replay`), run on the Verilated stage by
//! `pica_rtl_bridge::tex_stage::RtlTex`.
//!
//! A [`TexCase`] is a plain list of operations ([`TexOp`]) plus memory images, so a shrinker can
//! delete and simplify freely; [`run_model`] runs one on the model
//! ([`pica_model::tex::texture_units_0_2`] per fragment with the registers the writes so far
//! left; unit 3 with [`pica_model::tex::texture_unit3`]); [`TexGen`] makes random ones.
//!
//! # Bundle files
//!
//! | file | lines | bits | what |
//! |---|---|---|---|
//! | `manifest.json` | | | format, `kind`, case, provenance, `dut`, `knobs`, `ops` (count), `fragments`, `memory` [{file, base, words}], `streams` (the `tex_color` and `texel` packings), `outcome` |
//! | `ops.hex` | one per operation | 465 | bits 464-457 the kind: 0 register write (bits 41-32 the ID, 31-0 the value), 1 fragment (bit 456 flush the texel cache first; 455-384 texcoord0 w, v, u; 383-336 texcoord1 v, u; 335-288 texcoord2 v, u; 287-192, 191-96, 95-0 the derivatives of sets 0, 1, 2: dv/dy, du/dy, dv/dx, du/dx — every value f24, the first named in the highest bits) |
//! | `mem_<base>.hex` | image words | 32 | memory from byte address `base` (4-aligned), little-endian words |
//! | `tex_color.hex` | one per fragment | 176 | expected `tex_color` beats (`pica_chan_pkg::tex_color_beat_t`); `cycle` = the fragment's index, `x` / `y` = its low / high 16 bits |
//! | `texel.hex` | one per texel read | 288 | expected `texel` beats in read order (the model's order: unit 0's, 1's, 2's; within a unit the finer level first, texels (i, j), (i+1, j), (i, j+1), (i+1, j+1)); `cycle` = the fragment's index |
//!
//! Mapped memory outside every image reads 0; addresses outside VRAM and FCRAM are unmapped.

use super::bundle::{field_list, word_lines, BundleError, BundleReader, StageBundle};
use super::fop::parse_hex_u32;
use super::StageProvenance;
use crate::case::MemImage;
use crate::shader_gen::Rng;
use pica_model::beat::{TexColorBeat, TexelBeat};
use pica_model::mem::{Memory, FCRAM, VRAM};
use pica_model::num::F24;
use pica_model::pipe::{semantic, Fragment, NUM_SEMANTICS};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::tex::{self, format::Format, TexHang, TexelFetch, CONFIG_REGS};
use serde_json::{json, Value};
use std::path::Path;

/// `kind` of a TEX stage bundle.
pub const KIND_TEX: &str = "stage:tex";

/// The RTL top a TEX stage bundle is replayed on.
pub const TEX_DUT: &str = "pica_tex_top";

/// Bits of one `ops.hex` line.
pub const OP_WIDTH: u32 = 465;

const OP_DIGITS: usize = (OP_WIDTH as usize).div_ceil(4);

/// One fragment into TEX: raw f24 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TexFrag {
    /// Invalidate the RTL's texel cache before this fragment (the model has none).
    pub flush: bool,
    /// texcoord0 u, v, w.
    pub tc0: [u32; 3],
    /// texcoord1 u, v.
    pub tc1: [u32; 2],
    /// texcoord2 u, v.
    pub tc2: [u32; 2],
    /// Per set: du/dx, dv/dx, du/dy, dv/dy.
    pub deriv: [[u32; 4]; 3],
}

impl TexFrag {
    /// The model fragment (position `index`, every other semantic 0).
    pub fn fragment(&self, index: u64) -> Fragment {
        let mut attr = [F24::ZERO; NUM_SEMANTICS];
        let f = |b: u32| F24::from_bits(b & 0xFF_FFFF);
        attr[semantic::TEXCOORD0] = f(self.tc0[0]);
        attr[semantic::TEXCOORD0 + 1] = f(self.tc0[1]);
        attr[semantic::TEXCOORD0_W] = f(self.tc0[2]);
        attr[semantic::TEXCOORD1] = f(self.tc1[0]);
        attr[semantic::TEXCOORD1 + 1] = f(self.tc1[1]);
        attr[semantic::TEXCOORD2] = f(self.tc2[0]);
        attr[semantic::TEXCOORD2 + 1] = f(self.tc2[1]);
        Fragment {
            x: index as u16,
            y: (index >> 16) as u16,
            depth: 0,
            color: [0; 4],
            attr,
            tri: 0,
            tex_deriv: self.deriv.map(|d| d.map(f)),
        }
    }

    /// The fragment's 457 record bits as hex digits (the flush bit on top).
    fn record(&self) -> String {
        let mut s = String::from(if self.flush { "1" } else { "0" });
        let lanes: Vec<u32> = [&self.tc0[..], &self.tc1[..], &self.tc2[..]]
            .into_iter()
            .flat_map(|v| v.iter().rev().copied())
            .chain(self.deriv.iter().flat_map(|d| d.iter().rev().copied()))
            .collect();
        for l in lanes {
            s.push_str(&format!("{:06x}", l & 0xFF_FFFF));
        }
        s
    }
}

/// One operation of a TEX case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexOp {
    /// A register write (the whole value).
    Reg {
        /// Register ID (10 bits travel).
        id: u16,
        /// Value.
        value: u32,
    },
    /// A fragment.
    Frag(TexFrag),
}

impl TexOp {
    /// The `ops.hex` line (no newline).
    pub fn hex_line(&self) -> String {
        match self {
            TexOp::Reg { id, value } => format!(
                "{:0>width$}{:03x}{value:08x}",
                "00",
                u32::from(*id) & 0x3FF,
                width = OP_DIGITS - 11
            ),
            // 117 digits = 468 bits: 3 pad bits, the kind (464-457) and the flush bit (456) in
            // the first three digits, then the 19 f24 lanes.
            TexOp::Frag(f) => {
                format!("{:03x}{}", 2 | u32::from(f.flush), &f.record()[1..])
            }
        }
    }

    /// Parses an `ops.hex` line.
    pub fn parse_hex_line(line: &str) -> Option<Self> {
        let line = line.trim();
        if line.len() != OP_DIGITS || !line.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        // The first three digits: 3 pad bits, the kind, the flush bit.
        let top = u32::from_str_radix(&line[..3], 16).ok()?;
        let kind = top >> 1;
        let flush = top & 1 != 0;
        let lane = |k: usize| u32::from_str_radix(&line[3 + 6 * k..9 + 6 * k], 16).ok();
        match kind {
            0 => {
                if line[..OP_DIGITS - 11].bytes().any(|b| b != b'0') {
                    return None;
                }
                let id = u16::from_str_radix(&line[OP_DIGITS - 11..OP_DIGITS - 8], 16).ok()?;
                let value = u32::from_str_radix(&line[OP_DIGITS - 8..], 16).ok()?;
                (id <= 0x3FF).then_some(TexOp::Reg { id, value })
            }
            1 => {
                let mut v = [0u32; 19];
                for (k, x) in v.iter_mut().enumerate() {
                    *x = lane(k)?;
                }
                Some(TexOp::Frag(TexFrag {
                    flush,
                    tc0: [v[2], v[1], v[0]],
                    tc1: [v[4], v[3]],
                    tc2: [v[6], v[5]],
                    deriv: [
                        [v[10], v[9], v[8], v[7]],
                        [v[14], v[13], v[12], v[11]],
                        [v[18], v[17], v[16], v[15]],
                    ],
                }))
            }
            _ => None,
        }
    }
}

/// A TEX case: operations in order and the initial memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TexCase {
    /// Register writes and fragments, in order.
    pub ops: Vec<TexOp>,
    /// Initial memory images (4-aligned bases, inside mapped memory).
    pub images: Vec<MemImage>,
    /// The model's knobs.
    pub knobs: pica_model::knobs::Knobs,
}

impl TexCase {
    /// Number of fragments.
    pub fn fragments(&self) -> usize {
        self.ops
            .iter()
            .filter(|o| matches!(o, TexOp::Frag(_)))
            .count()
    }

    /// Number of register writes.
    pub fn reg_writes(&self) -> usize {
        self.ops.len() - self.fragments()
    }

    /// The initial memory.
    pub fn memory(&self) -> Memory {
        let mut mem = Memory::new();
        for im in &self.images {
            for (i, w) in im.words.iter().enumerate() {
                let _ = mem.write_u32(im.base.wrapping_add(4 * i as u32), *w);
            }
        }
        mem
    }
}

/// What the model does with a case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TexRun {
    /// One beat per fragment completed (`cycle` = its index).
    pub colors: Vec<TexColorBeat>,
    /// Every texel read, in order (`cycle` = the fragment's index), the hanging fragment's
    /// included.
    pub texels: Vec<TexelBeat>,
    /// The hang, if the run stopped at one.
    pub hang: Option<TexHang>,
}

/// The `texel` beat of read `t` of fragment `index`.
pub fn texel_beat(index: u64, t: &TexelFetch) -> TexelBeat {
    TexelBeat {
        cycle: index,
        x: index as u16,
        y: (index >> 16) as u16,
        unit: t.unit,
        addr: t.addr,
        raw: t.raw,
        rgba: u32::from_le_bytes(t.rgba),
    }
}

/// Runs `case` on the model.
pub fn run_model(case: &TexCase) -> TexRun {
    let mut regs = RegFile::new();
    regs.set_knobs(case.knobs);
    regs.set_record_beats(false);
    let mem = case.memory();
    let mut run = TexRun::default();
    let mut fetches = Vec::new();
    for op in &case.ops {
        match op {
            TexOp::Reg { id, value } => {
                regs.write(id & 0x3FF, *value);
            }
            TexOp::Frag(f) => {
                let index = run.colors.len() as u64;
                let frag = f.fragment(index);
                fetches.clear();
                let r = tex::texture_units_0_2(&frag, &regs, &mem, &mut fetches);
                run.texels
                    .extend(fetches.iter().map(|t| texel_beat(index, t)));
                match r {
                    Ok([a, b, c]) => {
                        let d = tex::texture_unit3(&frag, &regs);
                        run.colors
                            .push(TexColorBeat::of(index, &frag, [a, b, c, d]));
                    }
                    Err(h) => {
                        run.hang = Some(h);
                        break;
                    }
                }
            }
        }
    }
    run
}

/// The first difference between expected texel reads and others (in order, by read, its
/// fragment and field), or between their counts; `None` when they agree.
pub fn texel_diff(expected: &[TexelBeat], got: &[TexelBeat]) -> Option<String> {
    for (k, (e, g)) in expected.iter().zip(got).enumerate() {
        let fields = [
            ("fragment", u128::from(e.cycle), u128::from(g.cycle)),
            ("unit", u128::from(e.unit), u128::from(g.unit)),
            ("addr", u128::from(e.addr), u128::from(g.addr)),
            ("raw", e.raw, g.raw),
            ("rgba", u128::from(e.rgba), u128::from(g.rgba)),
        ];
        if let Some((f, ev, gv)) = fields.iter().find(|(_, a, b)| a != b) {
            return Some(format!(
                "texel read {k} (fragment {}, unit {}, 0x{:08x}): field {f} expected 0x{ev:x} \
                 actual 0x{gv:x}",
                e.cycle, e.unit, e.addr
            ));
        }
    }
    (expected.len() != got.len()).then(|| {
        format!(
            "{} texel reads expected, {} actual",
            expected.len(),
            got.len()
        )
    })
}

/// The first difference between an expected run and another (the model's replay of a
/// bundle, a recording): texel reads first (by read, fragment and field), then the colours of
/// units 0-2, and of unit 3 with `unit3` (by fragment and unit), then the counts and the hang;
/// `None` when they agree. (A scene's recording leaves unit 3 out: the procedural texture's
/// lookup tables are not TEX stage registers, so its case gives unit 3 without them.)
pub fn run_diff(expected: &TexRun, got: &TexRun, unit3: bool) -> Option<String> {
    if let Some(d) = texel_diff(&expected.texels, &got.texels) {
        return Some(d);
    }
    for (k, (e, g)) in expected.colors.iter().zip(&got.colors).enumerate() {
        let (ev, gv) = (
            [e.unit0, e.unit1, e.unit2, e.unit3],
            [g.unit0, g.unit1, g.unit2, g.unit3],
        );
        let units = if unit3 { 4 } else { 3 };
        if let Some(u) = (0..units).find(|&u| ev[u] != gv[u]) {
            return Some(format!(
                "fragment {k}: unit {u} colour expected 0x{:08x} actual 0x{:08x}",
                ev[u], gv[u]
            ));
        }
        if (e.cycle, e.x, e.y) != (g.cycle, g.x, g.y) {
            return Some(format!(
                "fragment {k}: index/x/y expected {}/{}/{} actual {}/{}/{}",
                e.cycle, e.x, e.y, g.cycle, g.x, g.y
            ));
        }
    }
    if expected.colors.len() != got.colors.len() {
        return Some(format!(
            "{} fragments expected, {} actual",
            expected.colors.len(),
            got.colors.len()
        ));
    }
    (expected.hang != got.hang).then(|| {
        format!(
            "outcome: expected hang {:?}, actual {:?}",
            expected.hang, got.hang
        )
    })
}

fn outcome_json(run: &TexRun) -> Value {
    match &run.hang {
        None => json!({"kind": "finished"}),
        Some(TexHang::Unmapped { unit, addr }) => json!({
            "kind": "hang",
            "hang_kind": 1,
            "unit": unit,
            "addr": format!("0x{addr:08x}"),
            "fragments": run.colors.len(),
        }),
        Some(h) => json!({"kind": "hang", "message": h.to_string()}),
    }
}

fn tex_bundle(
    name: &str,
    description: &str,
    case: &TexCase,
    prov: &StageProvenance,
) -> StageBundle {
    let run = run_model(case);
    let mut b = StageBundle::new(KIND_TEX, name, description, TEX_DUT, prov);
    b.file(
        "ops.hex",
        case.ops.iter().map(|o| o.hex_line() + "\n").collect(),
    );
    let memory: Vec<Value> = case
        .images
        .iter()
        .map(|im| {
            let f = format!("mem_{:08x}.hex", im.base);
            b.file(f.clone(), word_lines(&im.words, 8));
            json!({"file": f, "base": format!("0x{:08x}", im.base), "words": im.words.len()})
        })
        .collect();
    let colors = b.stream(
        "tex_color",
        &run.colors,
        "unit0..unit2 in order (unit 3 is the model's procedural texture)",
    );
    let texels = b.stream(
        "texel",
        &run.texels,
        "every field but cycle, x and y, in order (the harness compares them)",
    );
    let lanes = |n: &str, msb: u32, k: u32| -> Vec<(String, u32, u32)> {
        (0..k)
            .map(|i| (format!("{n}[{i}]"), msb + 1 - 24 * (k - i), 24))
            .collect()
    };
    let mut frag_fields: Vec<(String, u32, u32)> =
        vec![("kind".into(), 457, 8), ("flush".into(), 456, 1)];
    frag_fields.extend(lanes("tc0", 455, 3).into_iter().rev());
    frag_fields.extend(lanes("tc1", 383, 2).into_iter().rev());
    frag_fields.extend(lanes("tc2", 335, 2).into_iter().rev());
    frag_fields.extend(lanes("d0", 287, 4).into_iter().rev());
    frag_fields.extend(lanes("d1", 191, 4).into_iter().rev());
    frag_fields.extend(lanes("d2", 95, 4).into_iter().rev());
    let regs: Vec<Value> = CONFIG_REGS
        .iter()
        .map(|r| json!(format!("0x{r:03x}")))
        .collect();
    b.set("defines", json!([]))
        .set("knobs", json!(case.knobs.to_map()))
        .set("ops", json!(case.ops.len()))
        .set("fragments", json!(case.fragments()))
        .set(
            "ops_file",
            json!({
                "file": "ops.hex",
                "lines": case.ops.len(),
                "width": OP_WIDTH,
                "registers": regs,
                "register_write": field_list(&[("kind", 457, 8), ("id", 32, 10), ("value", 0, 32)]),
                "fragment": field_list(&frag_fields),
            }),
        )
        .set("memory", json!(memory))
        .set("streams", json!([colors, texels]))
        .set("outcome", outcome_json(&run))
        .set("mem_latency", json!(0));
    b
}

/// Writes the TEX stage bundle of `case` into `dir`. Returns the manifest.
pub fn write_tex_bundle(
    dir: &Path,
    name: &str,
    description: &str,
    case: &TexCase,
    prov: &StageProvenance,
) -> std::io::Result<Value> {
    tex_bundle(name, description, case, prov).write(dir)
}

/// Reads a TEX stage bundle (format, kind, every file's SHA-256): the manifest, the case and
/// the expected run.
pub fn load_tex_bundle(dir: &Path) -> Result<(Value, TexCase, TexRun), BundleError> {
    let r = BundleReader::load(dir, KIND_TEX)?;
    let m = r.manifest();
    let mut images = Vec::new();
    for e in m["memory"].as_array().into_iter().flatten() {
        let file = e["file"]
            .as_str()
            .ok_or_else(|| r.error("manifest.json", None, "memory entry without a file"))?;
        let base = parse_hex_u32(&e["base"])
            .ok_or_else(|| r.error("manifest.json", None, format!("memory {file}: bad base")))?;
        let words = r.words(file)?;
        r.check_count(file, words.len(), &e["words"], "words")?;
        images.push(MemImage { base, words });
    }
    let ops = r.parse_lines("ops.hex", |l| {
        TexOp::parse_hex_line(l).ok_or_else(|| format!("bad line `{l}`"))
    })?;
    r.check_count("ops.hex", ops.len(), &m["ops"], "operations")?;
    let case = TexCase {
        ops,
        images,
        knobs: r.knobs()?,
    };
    let o = &m["outcome"];
    let hang = match o["kind"].as_str() {
        Some("finished") => None,
        Some("hang") => Some(TexHang::Unmapped {
            unit: o["unit"].as_u64().unwrap_or(0) as u8,
            addr: parse_hex_u32(&o["addr"]).unwrap_or(0),
        }),
        other => {
            return Err(r.error(
                "manifest.json",
                None,
                format!("unknown outcome kind {other:?}"),
            ))
        }
    };
    let run = TexRun {
        colors: r.stream_beats("tex_color")?,
        texels: r.stream_beats("texel")?,
        hang,
    };
    Ok((r.into_manifest(), case, run))
}

// ---------------------------------------------------------------------------------------------
// The generator

/// A texture's bytes in memory: first byte, length, and for a shadow map the depth its texels
/// sit near (see [`TexGen::images`]).
#[derive(Clone, Copy, Debug)]
struct TexRange {
    addr: u32,
    bytes: u64,
    depth: Option<i64>,
}

/// What the fragments of one configuration aim at: unit 0's cube directions, and the depth a
/// shadow map's texels were written near.
#[derive(Clone, Copy, Debug, Default)]
struct Aim {
    cube: bool,
    shadow_w: Option<u32>,
}

/// Random TEX cases: one to three configurations of units 0-2 over every register field the
/// units read (every format including the reserved ones, sizes that are and are not powers of
/// two, every wrap mode including the reserved ones, both filters, mipmaps with biases and
/// level limits, unit 0's cube, shadow and projection types, the border colour), textures of
/// random bytes in memory (sometimes running past the end of VRAM or FCRAM, or in unmapped
/// memory), and fragments whose coordinates sit at texel and wrap edges, far outside the
/// texture, or are special f24 values, with derivatives spread over every level of detail.
/// Aimed arms (each added for mutants of the TEX RTL that random values did not reach, see
/// `rtl-bridge/mutants/tex_mut.notes`): the registers' unused bits sometimes set, levels up to
/// 15, derivatives of any exponent (the LOD's saturation), cube directions with tied major
/// axes on maps of up to 2,047 texels, and shadow maps whose texels' depths sit at and near the
/// fragments' reference.
#[derive(Clone, Debug)]
pub struct TexGen {
    rng: Rng,
}

impl TexGen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { rng: Rng(seed) }
    }

    fn size(&mut self) -> u32 {
        match self.rng.below(11) {
            0 => 1 + self.rng.below(40) as u32,
            // Up to the registers' 11 bits: the wrap's division and mirror compare, the level
            // table's products and the LOD's scaled derivatives at their widest (the first TEX
            // mutant sample's survivors sat there; the textures are cut to 64 KiB of memory).
            10 => self.rng.pick(&[511, 1000, 1024, 1537, 2047]),
            1 => self.rng.pick(&[0, 1, 2, 3, 7, 9, 12]),
            2 | 3 => 8,
            4 | 5 => 16,
            6 => 32,
            7 => 64,
            _ => self.rng.pick(&[4, 24, 128]),
        }
    }

    /// A texel-aligned coordinate of an axis of `n` texels, nudged by a few ulps; or far out;
    /// or a special value.
    fn coord(&mut self, n: u32) -> u32 {
        let n = f64::from(n.max(1));
        let r = &mut self.rng;
        let x = match r.below(10) {
            0 => return crate::shader_gen::edgy_f24(r).bits(),
            1 => (r.below(2000) as f64 - 1000.0) / 7.0,
            2..=5 => (r.below(8 * n as u64 + 1) as f64 / 2.0 - 2.0 * n) / n,
            _ => (r.below(1 << 20) as f64 / f64::from(1u32 << 18)) - 1.5,
        };
        let bits = F24::from_f64_trunc(x).bits();
        match r.below(4) {
            0 => bits.wrapping_add(1) & 0xFF_FFFF,
            1 => bits.wrapping_sub(1) & 0xFF_FFFF,
            _ => bits,
        }
    }

    /// A derivative around `1 / n` times a power of two from 2^-3 to 2^6 (every LOD), or 0,
    /// or a special value, or any f24 at all (half of them so large that the LOD's scaled
    /// magnitude saturates at 2^40: the saturation's bits must not reach the level).
    fn deriv(&mut self, n: u32) -> u32 {
        let r = &mut self.rng;
        match r.below(13) {
            0 => 0,
            1 => crate::shader_gen::edgy_f24(r).bits(),
            2 => r.below(1 << 24) as u32,
            _ => {
                let scale = f64::from(1u32 << r.below(10)) / 8.0;
                let jitter = 1.0 + r.below(256) as f64 / 256.0;
                let sign = if r.chance(50) { -1.0 } else { 1.0 };
                F24::from_f64_trunc(sign * scale * jitter / f64::from(n.max(1))).bits()
            }
        }
    }

    /// A cube map direction whose major axis is nearly tied: the major component `m` on a
    /// random axis, each other one `±m`, a few ulps either side of it, or smaller. The face
    /// select's compares, `s` or `t` at 0 or 1 (x = ±z: the set-up's `+ 0.5` cancels to a few
    /// ulps, its leading-one search at its lowest bits) and the exponent edges sit there.
    fn cube_dir(&mut self, m: u32) -> [u32; 3] {
        let r = &mut self.rng;
        let mag = m & 0x7F_FFFF;
        let mut dir = [0u32; 3];
        for c in &mut dir {
            let near = match r.below(7) {
                0..=2 => mag,
                3 => mag.saturating_sub(1 + r.below(3) as u32),
                4 => (mag + 1 + r.below(3) as u32).min(0x7F_FFFF),
                5 => mag.saturating_sub(1 << r.below(20)),
                _ => r.below(u64::from(mag) + 1) as u32,
            };
            *c = near | (r.below(2) as u32) << 23;
        }
        let major = r.below(3) as usize;
        dir[major] = m;
        dir
    }

    fn base_addr(&mut self, bytes: u64) -> u32 {
        let r = &mut self.rng;
        let b = bytes as u32;
        let a = match r.below(60) {
            0 => VRAM.start + VRAM.size - (b / 2).max(8), // runs past the end of VRAM
            1 => FCRAM.start + FCRAM.size - (b / 3).max(8),
            2 => r.pick(&[0x0000_1000, 0x1000_0000, 0x3000_0000]), // unmapped
            3..=31 => VRAM.start + (r.below(0x40_0000) as u32),
            // Anywhere in FCRAM's 128 MiB: the addresses' high bits (25, 26) vary too.
            _ => FCRAM.start + (r.below(u64::from(FCRAM.size).saturating_sub(bytes).max(1)) as u32),
        };
        a & !7
    }

    /// The registers of one configuration, the byte ranges its textures occupy, and what its
    /// fragments aim at.
    fn config(&mut self) -> (Vec<(u16, u32)>, Vec<TexRange>, Aim) {
        let mut regs = Vec::new();
        let mut ranges = Vec::new();
        let mut aim = Aim::default();
        let r = &mut self.rng;
        let enables = match r.below(8) {
            0 => 0,
            1 => 7,
            _ => r.below(8) as u32,
        };
        let cfg = enables
            | 1 << 12
            | (r.below(2) as u32) << 13
            | if r.chance(10) { 1 << 16 } else { 0 }
            | if r.chance(10) {
                1 << 10 | (r.below(4) as u32) << 8
            } else {
                0
            };
        regs.push((id::TEXUNIT_CONFIG, cfg));
        let bases = [
            (id::TEXUNIT0_BORDER_COLOR, id::TEXUNIT0_TYPE),
            (id::TEXUNIT1_BORDER_COLOR, id::TEXUNIT1_TYPE),
            (id::TEXUNIT2_BORDER_COLOR, id::TEXUNIT2_TYPE),
        ];
        for (unit, (border, ty)) in bases.into_iter().enumerate() {
            let (w, h) = (self.size(), self.size());
            let r = &mut self.rng;
            let mut fmt = if r.chance(4) {
                14 + r.below(2) as u32
            } else {
                r.below(14) as u32
            };
            let wrap = |r: &mut Rng| if r.chance(15) { r.below(8) } else { r.below(4) } as u32;
            let ttype = if unit == 0 {
                match r.below(12) {
                    0 => 1,
                    1 => 2,
                    2 => 3,
                    3 => 4,
                    4 => r.pick(&[5, 6, 7]),
                    _ => 0,
                }
            } else {
                r.below(8) as u32 // ignored by units 1 and 2
            };
            // A shadow map of RGBA8 texels whose depths sit near the fragments' reference, at
            // the compare's edge and a power of two either side (the bias bits' weights):
            // random depths almost never land within a few units of it.
            let shadow_aim = unit == 0 && matches!(ttype, 2 | 4) && r.chance(60);
            if shadow_aim {
                fmt = 0;
            }
            let cube = unit == 0 && matches!(ttype, 1 | 4);
            aim.cube |= cube;
            // A large cube map: a coordinate a few ulps from the face's edge (x = ±z) moves
            // the texel position by a sub-texel step only on 1,024 texels and more.
            let (w, h) = if cube && r.chance(30) {
                let n = r.pick(&[1024, 1537, 2047]);
                (n, n)
            } else {
                (w, h)
            };
            let param = (r.below(2) as u32) << 1
                | (r.below(2) as u32) << 2
                | wrap(r) << 8
                | wrap(r) << 12
                | (r.below(2) as u32) << 24
                | ttype << 28
                | if r.chance(5) {
                    r.below(1 << 4) as u32
                } else {
                    0
                } << 16;
            // Sometimes every level the fields allow: with a bias far below zero, a fragment
            // whose derivatives are 2^20 texels a pixel still lands between the level limits,
            // where the LOD's fraction is read.
            let levels = if r.chance(15) { 16 } else { 6 };
            let max_level = r.below(levels) as u32;
            let min_level = if r.chance(20) {
                r.below(levels) as u32
            } else {
                0
            };
            let bias = if r.chance(50) {
                0
            } else {
                r.below(1 << 13) as u32
            };
            let format = Format::from_reg(pica_model::regs::TexunitType(fmt).format());
            let bytes = tex::level_offset(format, w, h, max_level.max(min_level) + 1).min(1 << 16);
            // The bits each register leaves unused, sometimes set: the unit must not read them.
            let junk = |r: &mut Rng, mask: u32| {
                if r.chance(10) {
                    r.next_u64() as u32 & mask
                } else {
                    0
                }
            };
            let lod = bias | max_level << 16 | min_level << 24 | junk(r, 0xF0F0_E000);
            let dim = w << 16 | h | junk(r, 0xF800_F800);
            let type_reg = fmt | junk(r, 0xFFFF_FFF0);
            regs.push((border, r.next_u64() as u32));
            regs.push((border + 1, dim));
            regs.push((border + 2, param));
            regs.push((border + 3, lod));
            regs.push((ty, type_reg));
            let mut depth = None;
            if unit == 0 {
                let shadow = if shadow_aim {
                    // A small bias (a large one puts the reference below every depth) and
                    // a depth below 1 (at 1 and above the reference saturates).
                    let reg = (r.below(1 << 12) as u32) << 1 | r.below(2) as u32;
                    let wz = (40 + r.below(23) as u32) << 16 | r.below(1 << 16) as u32;
                    aim.shadow_w = Some(wz);
                    depth = Some(tex::shadow_ref(F24::from_bits(wz), reg));
                    reg
                } else {
                    r.next_u64() as u32 & 0x00FF_FFFF
                };
                regs.push((id::TEXUNIT0_SHADOW, shadow));
            }
            let faces = if cube { 6 } else { 1 };
            let a1 = self.base_addr(bytes);
            regs.push((border + 4, (a1 >> 3) & 0x0FFF_FFFF));
            ranges.push(TexRange {
                addr: a1,
                bytes,
                depth,
            });
            if unit == 0 {
                for f in 1..6u16 {
                    let a = if f < faces { self.base_addr(bytes) } else { a1 };
                    // Faces 1-5 keep ADDR1's bits 22-27: the face lies in ADDR1's 32 MiB.
                    let field = ((a1 >> 3) & 0x0FC0_0000) | ((a >> 3) & 0x003F_FFFF);
                    regs.push((id::TEXUNIT0_ADDR1 + f, field));
                    ranges.push(TexRange {
                        addr: field << 3,
                        bytes,
                        depth,
                    });
                }
            }
        }
        (regs, ranges, aim)
    }

    /// A random case.
    pub fn case(&mut self) -> TexCase {
        let mut ops = Vec::new();
        let mut ranges = Vec::new();
        let configs = 1 + self.rng.below(3);
        for _ in 0..configs {
            let (regs, rs, aim) = self.config();
            ranges.extend(rs);
            ops.extend(regs.into_iter().map(|(id, value)| TexOp::Reg { id, value }));
            let n = 1 + self.rng.below(24);
            for _ in 0..n {
                let s = self.size();
                let mut tc0 = [self.coord(s), self.coord(s), self.coord(s)];
                if let Some(wz) = aim.shadow_w {
                    if self.rng.chance(70) {
                        // The depth the map was written near, a few ulps either side.
                        tc0[2] = (wz + self.rng.below(5) as u32).saturating_sub(2);
                    }
                }
                if aim.cube && self.rng.chance(50) {
                    let m = aim.shadow_w.unwrap_or(tc0[2]);
                    tc0 = self.cube_dir(m);
                }
                let f = TexFrag {
                    flush: self.rng.chance(5),
                    tc0,
                    tc1: [self.coord(s), self.coord(s)],
                    tc2: [self.coord(s), self.coord(s)],
                    deriv: [0, 1, 2].map(|_| [0, 1, 2, 3].map(|_| self.deriv(s))),
                };
                ops.push(TexOp::Frag(f));
            }
        }
        let images = self.images(&ranges);
        TexCase {
            ops,
            images,
            knobs: Default::default(),
        }
    }

    /// An RGBA8 shadow texel (bytes: depth bits 16-23, 8-15, 0-7, then the intensity; see
    /// `tex::shadow_texel`) whose depth is the reference `z`, one to three units either side,
    /// or a power of two (and one less or more) either side, or anything within 2^13.
    fn shadow_word(&mut self, z: i64) -> u32 {
        let r = &mut self.rng;
        let step = match r.below(4) {
            0 => 0,
            1 => 1 + r.below(3) as i64,
            2 => (1i64 << r.below(13)) + r.below(3) as i64 - 1,
            _ => r.below(1 << 13) as i64,
        };
        let d = (z + if r.chance(50) { step } else { -step }).clamp(0, 0xFF_FFFF) as u32;
        (d >> 16) | (d >> 8 & 0xFF) << 8 | (d & 0xFF) << 16 | (r.below(256) as u32) << 24
    }

    /// Random bytes over each texture range, clipped to mapped memory; a shadow map's words
    /// near its depth.
    fn images(&mut self, ranges: &[TexRange]) -> Vec<MemImage> {
        let mut out: Vec<MemImage> = Vec::new();
        for &TexRange {
            addr: a,
            bytes,
            depth,
        } in ranges
        {
            let Some(region) = [VRAM, FCRAM].into_iter().find(|r| r.contains(a, 1)) else {
                continue;
            };
            let base = a & !3;
            let end = (u64::from(a) + bytes)
                .min(u64::from(region.start) + u64::from(region.size))
                .min(u64::from(base) + (1 << 16));
            let words = (end.saturating_sub(u64::from(base))).div_ceil(4) as usize;
            if words == 0 || out.iter().any(|im| im.base == base) {
                continue;
            }
            let fill = self.rng.below(4);
            let w: Vec<u32> = (0..words)
                .map(|_| match (depth, fill) {
                    (Some(z), _) => self.shadow_word(z),
                    (None, 0) => self.rng.next_u64() as u32 & 0x0F0F_0F0F,
                    (None, _) => self.rng.next_u64() as u32,
                })
                .collect();
            out.push(MemImage { base, words: w });
        }
        // Images must not overlap: drop the later of two overlapping ones.
        let mut kept: Vec<MemImage> = Vec::new();
        for im in out {
            let (s, e) = (im.base, im.base + 4 * im.words.len() as u32);
            if kept
                .iter()
                .all(|k| e <= k.base || s >= k.base + 4 * k.words.len() as u32)
            {
                kept.push(im);
            }
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tex_stage_ops_round_trip_through_hex() {
        let mut g = TexGen::new(7);
        for _ in 0..20 {
            for op in g.case().ops {
                let line = op.hex_line();
                assert_eq!(line.len(), OP_DIGITS, "{line}");
                let back = TexOp::parse_hex_line(&line).unwrap_or_else(|| panic!("{line}"));
                let norm = |o: TexOp| match o {
                    TexOp::Reg { id, value } => TexOp::Reg {
                        id: id & 0x3FF,
                        value,
                    },
                    TexOp::Frag(mut f) => {
                        f.tc0 = f.tc0.map(|x| x & 0xFF_FFFF);
                        f.tc1 = f.tc1.map(|x| x & 0xFF_FFFF);
                        f.tc2 = f.tc2.map(|x| x & 0xFF_FFFF);
                        f.deriv = f.deriv.map(|d| d.map(|x| x & 0xFF_FFFF));
                        TexOp::Frag(f)
                    }
                };
                assert_eq!(back, norm(op));
            }
        }
    }

    /// The aimed arms reach what they were added for (each killed mutants of the TEX RTL that
    /// random values did not reach: rtl-bridge/mutants/tex_mut.notes): unused register bits
    /// set, levels above 5, large cube maps, shadow maps near the reference; shadow texels at
    /// the reference and one to three units either side; cube directions with tied and
    /// nearly tied major axes.
    #[test]
    fn tex_gen_aimed_arms_reach_their_edges() {
        let mut g = TexGen::new(5);
        let units = [
            (id::TEXUNIT0_BORDER_COLOR, id::TEXUNIT0_TYPE),
            (id::TEXUNIT1_BORDER_COLOR, id::TEXUNIT1_TYPE),
            (id::TEXUNIT2_BORDER_COLOR, id::TEXUNIT2_TYPE),
        ];
        let (mut lod_junk, mut dim_junk, mut type_junk, mut high_level) = (0, 0, 0, 0);
        let (mut big_cube, mut shadow_aims) = (0, 0);
        for _ in 0..2000 {
            let (regs, _, aim) = g.config();
            let reg = |want: u16| regs.iter().find(|(id, _)| *id == want).map(|r| r.1);
            for (border, ty) in units {
                let lod = reg(border + 3).unwrap();
                let dim = reg(border + 1).unwrap();
                lod_junk += usize::from(lod & 0xF0F0_E000 != 0);
                dim_junk += usize::from(dim & 0xF800_F800 != 0);
                type_junk += usize::from(reg(ty).unwrap() & 0xFFFF_FFF0 != 0);
                high_level += usize::from((lod >> 16 & 0xF) > 5);
            }
            let dim0 = reg(id::TEXUNIT0_BORDER_COLOR + 1).unwrap();
            big_cube += usize::from(aim.cube && dim0 >> 16 & 0x7FF >= 1024);
            shadow_aims += usize::from(aim.shadow_w.is_some());
        }
        for (what, n) in [
            ("LOD junk", lod_junk),
            ("DIM junk", dim_junk),
            ("TYPE junk", type_junk),
            ("levels above 5", high_level),
            ("cube maps of 1024+ texels", big_cube),
            ("shadow aims", shadow_aims),
        ] {
            assert!(n >= 20, "{what}: {n} of 2000 configurations");
        }

        // Shadow texels: depth bits 16-23, 8-15, 0-7 in bytes 0, 1, 2.
        let z = 0x12_3456i64;
        let mut hits = [0usize; 7]; // depth - z = -3..=3
        for _ in 0..4000 {
            let w = g.shadow_word(z);
            let d = i64::from((w & 0xFF) << 16 | (w >> 8 & 0xFF) << 8 | (w >> 16 & 0xFF));
            if (d - z).abs() <= 3 {
                hits[(d - z + 3) as usize] += 1;
            }
        }
        assert!(
            hits.iter().all(|&n| n > 0),
            "depths near the reference: {hits:?}"
        );

        // Cube directions: a minor axis whose magnitude equals the major's (tied), or is one
        // to three ulps from it.
        let m = 0x3F_4321u32;
        let (mut tied, mut near) = (0, 0);
        for _ in 0..4000 {
            let d = g.cube_dir(m);
            let major = d.iter().position(|&c| c == m).unwrap();
            for (k, &c) in d.iter().enumerate() {
                let diff = (i64::from(c & 0x7F_FFFF) - i64::from(m & 0x7F_FFFF)).abs();
                if k != major {
                    tied += usize::from(diff == 0);
                    near += usize::from((1..=3).contains(&diff));
                }
            }
        }
        assert!(tied > 500 && near > 100, "tied {tied}, near {near}");
    }

    #[test]
    fn tex_stage_bundle_round_trips_and_cases_cover_hangs_and_reads() {
        let mut g = TexGen::new(1);
        let (mut hangs, mut texels, mut colors) = (0, 0, 0);
        for k in 0..200 {
            let c = g.case();
            let run = run_model(&c);
            hangs += usize::from(run.hang.is_some());
            texels += run.texels.len();
            colors += run.colors.len();
            if k < 5 {
                let dir = std::env::temp_dir()
                    .join(format!("pica-tex-bundle-{k}-{}", std::process::id()));
                write_tex_bundle(&dir, "t", "", &c, &StageProvenance::default()).unwrap();
                let (_, back, expected) = load_tex_bundle(&dir).unwrap();
                let _ = std::fs::remove_dir_all(&dir);
                assert_eq!(back.images, c.images);
                assert_eq!(expected, run);
            }
        }
        assert!(hangs > 2 && hangs < 80, "{hangs} hangs");
        assert!(texels > 5_000, "{texels} texels");
        assert!(colors > 1_000, "{colors} fragments");
    }
}
