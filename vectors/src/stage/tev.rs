//! TEV stage bundles (`kind` = [`KIND_TEV`]): the texture combiners' inputs and expected
//! `combiner` beats, replayed on `pica_tev_top` alone by `rtl-bridge/tb/pica_tev_replay_tb.sv`
//! (design.md "Stage bundles").
//!
//! A [`TevCase`] is an ordered list of operations: a write of one of the 32 TEXENV registers TEV
//! reads ([`tev_reg_id`]: the five registers of each of the six stages,
//! GPUREG_TEXENV_UPDATE_BUFFER and GPUREG_TEXENV_BUFFER_COLOR), or a fragment (its x, y and the
//! model's [`Inputs`]). [`run_model`] is the model's answer: a register file starting at zero
//! with the writes applied in order, [`tev::combine`] for each fragment with the registers as
//! they stand when it arrives. Every file is `$readmemh`-ready: one value per line, most
//! significant digit first, no prefix.
//!
//! | file | lines | bits | what |
//! |---|---|---|---|
//! | `manifest.json` | | | format `pica-vectors` v1, `kind`, case, provenance, `dut`, `defines`, counts, the packing of `ops.hex` and of the stream, SHA-256 of every other file |
//! | `ops.hex` | one per operation | 264 | `[263:256]` kind: 0 register write (`[41:32]` ID, `[31:0]` value after the byte-mask merge), 1 fragment (`[255:224]` tag = x \| y << 16, `[223:192]` primary colour, `[191:160]` fragment-lighting primary, `[159:128]` fragment-lighting secondary, `[127:0]` textures 3..0, 32 bits each); colours `r \| g << 8 \| b << 16 \| a << 24` |
//! | `combiner.hex` | six per fragment | 136 | expected `combiner` beats packed as the channel table's `CombinerBeat` (`pica_chan_pkg::combiner_beat_t`): stage 0..5 of fragment 0, then of fragment 1, ...; `cycle` is the fragment index (TEV promises transactions, not cycles) |
//! | `combiner.jsonl` | same | | the same beats as JSON |

use super::bundle::{field_list, unpack_line, BundleError, BundleReader, StageBundle};
use super::StageProvenance;
use pica_model::beat::CombinerBeat;
use pica_model::num::F24;
use pica_model::pipe::{Fragment, ShadedFragment, NUM_SEMANTICS};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::tev::{self, Inputs, TevOut, NUM_STAGES, STAGE_BASE};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// `kind` of a TEV stage bundle.
pub const KIND_TEV: &str = "stage:tev";

/// The RTL top a TEV stage bundle replays on.
pub const TEV_DUT: &str = "pica_tev_top";

/// Number of registers TEV reads: 6 stages × 5, UPDATE_BUFFER, BUFFER_COLOR.
pub const NUM_TEV_REGS: usize = 32;

/// Bits of one `ops.hex` line.
pub const OP_WIDTH: u32 = 264;

/// Hex digits of one `ops.hex` line.
const OP_DIGITS: usize = (OP_WIDTH / 4) as usize;

/// The register ID of TEV register slot `slot` (the `cfg_i` layout of `pica_tev`): slot
/// `5·s + r` is stage `s`'s register `r` (SOURCE, OPERAND, COMBINER, COLOR, SCALE), slot 30
/// GPUREG_TEXENV_UPDATE_BUFFER, slot 31 GPUREG_TEXENV_BUFFER_COLOR (seed 002 register map).
/// Slots past 31 read as slot 31.
pub fn tev_reg_id(slot: usize) -> u16 {
    match slot {
        30 => id::TEXENV_UPDATE_BUFFER,
        s if s < 30 => STAGE_BASE[s / 5] + (s % 5) as u16,
        _ => id::TEXENV_BUFFER_COLOR,
    }
}

/// The slot of register `id` if TEV reads it ([`tev_reg_id`]'s inverse).
pub fn tev_reg_slot(id: u16) -> Option<usize> {
    (0..NUM_TEV_REGS).find(|&s| tev_reg_id(s) == id)
}

/// The 32 words TEV reads from `regs`, in slot order.
pub fn tev_words(regs: &RegFile) -> [u32; NUM_TEV_REGS] {
    std::array::from_fn(|s| regs.reg(tev_reg_id(s).into()))
}

/// One operation of a TEV case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TevOp {
    /// A register write (the value after the byte-mask merge) of a register TEV reads.
    Reg {
        /// Register ID ([`tev_reg_id`]).
        id: u16,
        /// The whole register value.
        value: u32,
    },
    /// A fragment.
    Frag {
        /// Pixel x.
        x: u16,
        /// Pixel y.
        y: u16,
        /// The stage inputs (primary colour, lighting colours, textures 0-3).
        inputs: Inputs,
    },
}

impl TevOp {
    /// The tag the RTL passes through for a fragment at (`x`, `y`): `x | y << 16`.
    pub fn tag(x: u16, y: u16) -> u32 {
        u32::from(x) | u32::from(y) << 16
    }
}

/// A TEV stage case: operations in order, starting from every register zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TevCase {
    /// The operations.
    pub ops: Vec<TevOp>,
    /// The model's knobs (`--knob`, [`pica_model::knobs`]; the defaults unless a caller sets
    /// them): the model stage runs with them and a bundle records the non-default ones in its
    /// manifest (`knobs`), so a replay makes the same choices.
    pub knobs: pica_model::knobs::Knobs,
}

impl TevCase {
    /// Number of fragments.
    pub fn fragments(&self) -> usize {
        self.ops
            .iter()
            .filter(|o| matches!(o, TevOp::Frag { .. }))
            .count()
    }

    /// Number of register writes.
    pub fn reg_writes(&self) -> usize {
        self.ops.len() - self.fragments()
    }
}

/// The model's answer for a case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TevRun {
    /// Per fragment, what the combiners produced.
    pub outs: Vec<TevOut>,
    /// The `combiner` beats, six per fragment (cycle = fragment index).
    pub beats: Vec<CombinerBeat>,
    /// Per fragment, the 32 register words it was combined with.
    pub configs: Vec<[u32; NUM_TEV_REGS]>,
}

/// The shaded fragment TEV sees for a fragment at (`x`, `y`) with `inputs` (what RAST, TEX and
/// LIGHT would have handed on; nothing else of it reaches TEV).
pub fn shaded(x: u16, y: u16, inputs: &Inputs) -> ShadedFragment {
    let frag = Fragment {
        x,
        y,
        depth: 0,
        color: inputs.primary,
        attr: [F24::ZERO; NUM_SEMANTICS],
        tri: 0,
        tex_deriv: [[F24::ZERO; 4]; 3],
    };
    let mut sf = ShadedFragment::new(frag);
    sf.light_primary = inputs.frag_primary;
    sf.light_secondary = inputs.frag_secondary;
    sf.tex = inputs.tex;
    sf
}

/// The six `combiner` beats of `out` for fragment `index` at (`x`, `y`), as the model's TEV
/// records them (with `cycle` = `index`).
pub fn beats_of(index: u64, x: u16, y: u16, out: &TevOut) -> [CombinerBeat; NUM_STAGES] {
    std::array::from_fn(|s| CombinerBeat {
        cycle: index,
        x,
        y,
        stage: s as u8,
        color: u32::from_le_bytes(out.stages[s].color),
        buffer: u32::from_le_bytes(out.stages[s].buffer),
    })
}

/// Runs `case` on the model: register writes applied in order to a register file that starts
/// at zero, [`tev::combine`] per fragment.
pub fn run_model(case: &TevCase) -> TevRun {
    let mut regs = RegFile::new();
    regs.set_knobs(case.knobs);
    let mut run = TevRun::default();
    for op in &case.ops {
        match op {
            TevOp::Reg { id, value } => {
                regs.write(*id, *value);
            }
            TevOp::Frag { x, y, inputs } => {
                let out = tev::combine(&shaded(*x, *y, inputs), &regs);
                let index = run.outs.len() as u64;
                run.beats.extend(beats_of(index, *x, *y, &out));
                run.outs.push(out);
                run.configs.push(tev_words(&regs));
            }
        }
    }
    run
}

/// One `ops.hex` line (no newline).
pub fn op_hex(op: &TevOp) -> String {
    match op {
        TevOp::Reg { id, value } => {
            format!("00{:0>48}{:08x}{:08x}", "", u32::from(*id) & 0x3FF, value)
        }
        TevOp::Frag { x, y, inputs } => {
            let mut s = format!(
                "01{:08x}{:08x}{:08x}{:08x}",
                TevOp::tag(*x, *y),
                u32::from_le_bytes(inputs.primary),
                u32::from_le_bytes(inputs.frag_primary),
                u32::from_le_bytes(inputs.frag_secondary)
            );
            for t in inputs.tex.iter().rev() {
                s.push_str(&format!("{:08x}", u32::from_le_bytes(*t)));
            }
            s
        }
    }
}

/// Parses one `ops.hex` line.
pub fn parse_op_line(line: &str) -> Result<TevOp, String> {
    let line = line.trim();
    if line.len() != OP_DIGITS || !line.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("not {OP_DIGITS} hex digits"));
    }
    // Word k (32 bits, k = 0 least significant) of the 256 bits below the kind.
    let word = |k: usize| -> u32 {
        let end = OP_DIGITS - 8 * k;
        u32::from_str_radix(&line[end - 8..end], 16).unwrap_or(0)
    };
    match &line[..2] {
        "00" => {
            if (2..=7).any(|k| word(k) != 0) || word(1) >> 10 != 0 {
                return Err("register write with bits set outside [41:0]".into());
            }
            let id = word(1) as u16;
            if tev_reg_slot(id).is_none() {
                return Err(format!("register 0x{id:03x} is not one TEV reads"));
            }
            Ok(TevOp::Reg { id, value: word(0) })
        }
        "01" => {
            let tag = word(7);
            Ok(TevOp::Frag {
                x: tag as u16,
                y: (tag >> 16) as u16,
                inputs: Inputs {
                    primary: word(6).to_le_bytes(),
                    frag_primary: word(5).to_le_bytes(),
                    frag_secondary: word(4).to_le_bytes(),
                    tex: [0, 1, 2, 3].map(|t| word(t).to_le_bytes()),
                },
            })
        }
        k => Err(format!("unknown operation kind 0x{k}")),
    }
}

/// Unpacks one `combiner.hex` line.
pub fn parse_combiner_line(line: &str) -> Option<CombinerBeat> {
    unpack_line(line).ok()
}

/// The first difference between expected and actual `combiner` beats (cycles not compared),
/// named by fragment, stage and field.
pub fn compare_beats(expected: &[CombinerBeat], actual: &[CombinerBeat]) -> Option<String> {
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        let (frag, stage) = (i / NUM_STAGES, i % NUM_STAGES);
        let fields = [
            ("x", u64::from(e.x), u64::from(a.x)),
            ("y", u64::from(e.y), u64::from(a.y)),
            ("stage", u64::from(e.stage), u64::from(a.stage)),
            ("color", u64::from(e.color), u64::from(a.color)),
            ("buffer", u64::from(e.buffer), u64::from(a.buffer)),
        ];
        if let Some((f, ev, av)) = fields.iter().find(|(_, ev, av)| ev != av) {
            return Some(format!(
                "fragment {frag} (x {}, y {}) stage {stage}: field {f} expected 0x{ev:08x} actual 0x{av:08x}",
                e.x, e.y
            ));
        }
    }
    (expected.len() != actual.len()).then(|| {
        format!(
            "{} combiner beats expected ({} fragments), {} actual",
            expected.len(),
            expected.len() / NUM_STAGES,
            actual.len()
        )
    })
}

/// The TEV stage bundle of `case` (expectations from the model).
fn tev_bundle(
    name: &str,
    description: &str,
    case: &TevCase,
    defines: &[&str],
    prov: &StageProvenance,
) -> StageBundle {
    let run = run_model(case);
    let mut b = StageBundle::new(KIND_TEV, name, description, TEV_DUT, prov);
    b.file(
        "ops.hex",
        case.ops.iter().map(|o| op_hex(o) + "\n").collect(),
    );
    let combiner = b.stream(
        "combiner",
        &run.beats,
        "every field but cycle, in order; six beats (stages 0-5) per fragment, cycle = fragment index",
    );
    let word = |n: &'static str, lsb: u32| (n, lsb, 32);
    let frag_fields = [
        ("kind", 256, 8),
        word("tag", 224),
        word("primary", 192),
        word("frag_primary", 160),
        word("frag_secondary", 128),
        word("tex3", 96),
        word("tex2", 64),
        word("tex1", 32),
        word("tex0", 0),
    ];
    let regs: Vec<Value> = (0..NUM_TEV_REGS)
        .map(|s| json!(format!("0x{:03x}", tev_reg_id(s))))
        .collect();
    b.set("defines", json!(defines))
        .set("knobs", json!(case.knobs.to_map()))
        .set(
            "counts",
            json!({
                "ops": case.ops.len(),
                "register_writes": case.reg_writes(),
                "fragments": case.fragments(),
                "beats": run.beats.len(),
            }),
        )
        .set(
            "ops",
            json!({
                "file": "ops.hex",
                "lines": case.ops.len(),
                "width": OP_WIDTH,
                "registers": regs,
                "tag": "x | y << 16",
                "color_packing": "r | g << 8 | b << 16 | a << 24",
                "kinds": [
                    {"kind": 0, "what": "register write (value after the byte-mask merge)",
                     "fields": field_list(&[("kind", 256, 8), ("id", 32, 10), ("value", 0, 32)])},
                    {"kind": 1, "what": "fragment", "fields": field_list(&frag_fields)},
                ],
            }),
        )
        .set("streams", json!([combiner]));
    b
}

/// The manifest and files of the TEV stage bundle of `case` (expectations from the model), as
/// `(file name, contents)` with `manifest.json` first.
pub fn render_tev_bundle(
    name: &str,
    description: &str,
    case: &TevCase,
    defines: &[&str],
    prov: &StageProvenance,
) -> Vec<(String, String)> {
    tev_bundle(name, description, case, defines, prov).render()
}

/// Writes the TEV stage bundle of `case` into `dir` (expectations from the model). `defines`
/// are RTL defines the replay needs (none for the model's answer). Returns the manifest.
pub fn write_tev_bundle(
    dir: &Path,
    name: &str,
    description: &str,
    case: &TevCase,
    defines: &[&str],
    prov: &StageProvenance,
) -> std::io::Result<Value> {
    tev_bundle(name, description, case, defines, prov).write(dir)
}

/// A TEV stage bundle read back: the case and what it expects.
#[derive(Clone, Debug)]
pub struct TevBundle {
    /// The manifest.
    pub manifest: Value,
    /// The case.
    pub case: TevCase,
    /// The expected `combiner` beats (`combiner.hex`, unpacked).
    pub beats: Vec<CombinerBeat>,
}

/// Parses a TEV stage bundle from its files (`name` → contents; `manifest.json` among them),
/// checking the kind, every SHA-256 the manifest lists, the counts and every line. `what`
/// names the bundle in errors.
pub fn parse_tev_bundle(
    what: &str,
    files: &BTreeMap<String, String>,
) -> Result<TevBundle, BundleError> {
    tev_of(BundleReader::parse(what, files, KIND_TEV)?)
}

/// The TEV bundle `r` holds, its counts checked.
fn tev_of(r: BundleReader) -> Result<TevBundle, BundleError> {
    let case = TevCase {
        ops: r.parse_lines("ops.hex", parse_op_line)?,
        knobs: r.knobs()?,
    };
    let counts = &r.manifest()["counts"];
    if counts["ops"].as_u64() != Some(case.ops.len() as u64)
        || counts["fragments"].as_u64() != Some(case.fragments() as u64)
    {
        return Err(r.error(
            "ops.hex",
            None,
            format!(
                "{} operations ({} fragments), the manifest says {} ({})",
                case.ops.len(),
                case.fragments(),
                counts["ops"],
                counts["fragments"]
            ),
        ));
    }
    let beats: Vec<CombinerBeat> = r.stream_beats("combiner")?;
    if beats.len() != case.fragments() * NUM_STAGES {
        return Err(r.error(
            "combiner.hex",
            None,
            format!(
                "{} beats; {} fragments need {}",
                beats.len(),
                case.fragments(),
                case.fragments() * NUM_STAGES
            ),
        ));
    }
    Ok(TevBundle {
        manifest: r.into_manifest(),
        case,
        beats,
    })
}

/// Reads a TEV stage bundle from `dir` ([`parse_tev_bundle`]).
pub fn load_tev_bundle(dir: &Path) -> Result<TevBundle, BundleError> {
    tev_of(BundleReader::load(dir, KIND_TEV)?)
}

/// Checks that the model reproduces a loaded bundle's beats: `None` if it does, else the first
/// difference.
pub fn check_model(b: &TevBundle) -> Option<String> {
    compare_beats(&b.beats, &run_model(&b.case).beats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::chan::Payload;

    fn case() -> TevCase {
        let inputs = Inputs {
            primary: [10, 20, 30, 40],
            frag_primary: [1, 2, 3, 4],
            frag_secondary: [5, 6, 7, 8],
            tex: [[9; 4], [10; 4], [11; 4], [255; 4]],
        };
        TevCase {
            ops: vec![
                TevOp::Frag { x: 3, y: 4, inputs },
                // Stage 0: REPLACE(texture 3), scale 4x.
                TevOp::Reg {
                    id: tev_reg_id(0),
                    value: 6 | 6 << 16,
                },
                TevOp::Reg {
                    id: tev_reg_id(4),
                    value: 2 | 2 << 16,
                },
                TevOp::Frag {
                    x: 65535,
                    y: 7,
                    inputs,
                },
            ],
            knobs: Default::default(),
        }
    }

    #[test]
    fn tev_stage_bundle_records_and_runs_with_the_case_knobs() {
        let mut k = case();
        // Stage 0 reads "previous".
        k.ops.insert(
            0,
            TevOp::Reg {
                id: tev_reg_id(0),
                value: 0x000F_000F,
            },
        );
        let plain = run_model(&k);
        k.knobs.set("tev-stage0-previous=zero").unwrap();
        assert_ne!(run_model(&k).beats, plain.beats);
        let prov = StageProvenance::default();
        let files: BTreeMap<String, String> = render_tev_bundle("t", "", &k, &[], &prov)
            .into_iter()
            .collect();
        let m: Value = serde_json::from_str(&files["manifest.json"]).unwrap();
        assert_eq!(m["knobs"], json!({"tev-stage0-previous": "zero"}));
        let b = parse_tev_bundle("t", &files).unwrap();
        assert_eq!(b.case, k);
        assert_eq!(check_model(&b), None);
    }

    #[test]
    fn tev_stage_reg_ids_are_the_texenv_registers() {
        assert_eq!(tev_reg_id(0), id::TEXENV0_SOURCE);
        assert_eq!(tev_reg_id(29), id::TEXENV5_SOURCE + 4);
        assert_eq!(tev_reg_slot(id::TEXENV_BUFFER_COLOR), Some(31));
        assert_eq!(tev_reg_slot(id::TEXENV_UPDATE_BUFFER), Some(30));
        assert_eq!(tev_reg_slot(0x0C5), None);
    }

    #[test]
    fn tev_stage_ops_round_trip_through_hex() {
        for op in case().ops {
            let line = op_hex(&op);
            assert_eq!(line.len(), OP_DIGITS);
            assert_eq!(parse_op_line(&line), Ok(op));
        }
        assert!(parse_op_line(&format!("00{:0>56}{:08x}", "c5", 0)).is_err());
    }

    #[test]
    fn tev_stage_model_applies_writes_in_order() {
        let run = run_model(&case());
        assert_eq!(run.beats.len(), 12);
        // Fragment 0: all registers zero (REPLACE primary).
        assert_eq!(run.outs[0].color, [10, 20, 30, 40]);
        // Fragment 1: texture 3 (255) times 4, saturated.
        assert_eq!(run.outs[1].stages[0].color, [255; 4]);
        assert_eq!(run.beats[6].cycle, 1);
        assert_eq!((run.beats[6].x, run.beats[6].y), (65535, 7));
        for b in &run.beats {
            let line = b.hex_line();
            assert_eq!(parse_combiner_line(&line), Some(*b));
        }
    }

    #[test]
    fn tev_stage_bundle_renders_and_parses() {
        let prov = StageProvenance::default();
        let files: BTreeMap<String, String> = render_tev_bundle("t", "test", &case(), &[], &prov)
            .into_iter()
            .collect();
        let b = parse_tev_bundle("t", &files).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b.case, case());
        assert_eq!(check_model(&b), None);
        let mut bad = files.clone();
        if let Some(t) = bad.get_mut("combiner.hex") {
            *t = t.replacen('0', "1", 1);
        }
        assert!(parse_tev_bundle("t", &bad).is_err());
        let mut beats = b.beats.clone();
        beats[7].buffer ^= 1;
        let d = compare_beats(&b.beats, &beats).unwrap_or_default();
        assert!(
            d.starts_with("fragment 1 (x 65535, y 7) stage 1: field buffer"),
            "{d}"
        );
    }
}
