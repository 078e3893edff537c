//! Functional coverage: a model of bins generated from the tables the model already has, and a
//! sampler that fills them from what reached the hardware in a run.
//!
//! The bins (issue 21 item 1), in groups ([`model`]):
//!
//! - `reg_ids`: every named register ID of the register table (`model/regs/registers.toml`),
//!   plus one bin for the IDs the table does not name and one for IDs beyond 0x2FF; sampled from
//!   the register-write beats (what REGS applied).
//! - `fields.<area>`: every described value of every enumerated field and both values of every
//!   boolean field of every register ID, by the 3dbrew register areas (`misc` 0x000-0x03F,
//!   `rasterizer` 0x040-, `texturing` 0x080-, `texenv_fog` 0x0C0-, `framebuffer` 0x100-,
//!   `lighting` 0x140-, `geometry` 0x200-, `gsh` 0x280-, `vsh` 0x2B0-0x2FF); sampled from the
//!   register file at each draw trigger (DRAWARRAYS / DRAWELEMENTS).
//! - `isa`: every row of the opcode table (`shader::isa::OPCODES`: opcode × instruction
//!   format) and unknown opcodes; sampled from the instructions the shader units executed.
//! - `channels`: every channel of the channel table (`beat::Channel`) that carried a beat.
//! - `outcome`: how the run ended, one bin per hang reason (the stage's kind included).
//! - Crosses where the hardware's behaviour depends on a combination, sampled at each draw
//!   unless said: `x.blend` (equation × source / destination factor, RGB and alpha, with blending
//!   on), `x.color_format_tiling` and `x.depth_format_tiling` (buffer format × 8x8 / 32x32
//!   blocks), `x.tex_format_filter_wrap` (format × filter × wrap of each enabled unit 0-2: the
//!   magnification and minification filter with wrap S and wrap T), `x.combiner_scale`
//!   (combiner function × scale of each stage, RGB and alpha), `x.prim_winding_cull`
//!   (primitive mode × winding of each assembled triangle × cull mode, from the primitive
//!   beats), and from FOP's tests: `x.alpha_outcome`, `x.stencil_outcome`, `x.depth_outcome`
//!   (compare function × pass / fail) and `x.stencil_op_outcome` (stencil action × the outcome
//!   that chose it: fail, z-fail, z-pass).
//!
//! Sampling is off unless asked for ([`crate::Gpu::set_coverage`]) and costs one branch a cycle
//! when off. On, the GPU keeps a [`Sampler`] that looks at the new register-write beats and
//! trigger events each cycle, and asks the shader units for an opcode histogram and FOP for
//! its test outcomes; [`crate::Gpu::coverage`] folds everything into the [`Hits`] of one run.
//! Register-ID bins read the register-write beats, so they need beat recording (on by
//! default). [`CoverageDb`] accumulates runs (hit counts and the first case that hit each bin)
//! and reads and writes the JSON the `pica cov` tool and `pica fuzz` exchange.

use crate::beat::{Channel, PrimitiveBeat, RegWriteBeat};
use crate::fop::TestCounts;
use crate::num::F24;
use crate::outcome::{FopHang, HangReason, Outcome, TexHang, VlHang};
use crate::regfile::RegFile;
use crate::regs::{self, EnumValue, FieldInfo, FieldKind, Trigger, REGISTERS};
use crate::shader::interp::HangKind;
use crate::shader::isa::OPCODES;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

/// A group of bins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Group name (`reg_ids`, `fields.texturing`, `x.blend`).
    pub name: String,
    /// What the group covers and where it is sampled.
    pub description: String,
    /// The group's bins: indices into [`CovModel::bins`].
    pub bins: Range<usize>,
}

/// One enumerated or boolean field of one register ID, and where its bins start.
#[derive(Clone, Copy, Debug)]
struct FieldProbe {
    id: u16,
    field: &'static FieldInfo,
    /// Enum encodings; empty for a boolean (bins `false`, `true`).
    values: &'static [EnumValue],
    base: usize,
}

impl FieldProbe {
    fn bin(&self, regs: &[u32]) -> Option<usize> {
        let v = self.field.extract(*regs.get(usize::from(self.id))?);
        if self.values.is_empty() {
            return Some(self.base + usize::from(v != 0));
        }
        self.values
            .iter()
            .position(|e| e.value == v)
            .map(|i| self.base + i)
    }
}

/// An axis of a cross: an enumerated field of one register and its encodings.
#[derive(Clone, Copy, Debug)]
struct Axis {
    id: u16,
    field: &'static FieldInfo,
    values: &'static [EnumValue],
}

impl Axis {
    /// The axis of field `field` of the layout `layout` at instance `i` of its IDs.
    fn of(layout: &str, field: &str, i: usize) -> Option<Axis> {
        let l = regs::layout(layout)?;
        let f = l.fields.iter().find(|f| f.name == field)?;
        let FieldKind::Enum(values) = f.kind else {
            return None;
        };
        Some(Axis {
            id: *l.ids.get(i)?,
            field: f,
            values,
        })
    }

    fn len(&self) -> usize {
        self.values.len()
    }

    fn names(&self) -> impl Iterator<Item = &'static str> {
        self.values.iter().map(|v| v.name)
    }

    fn index(&self, regs: &[u32]) -> Option<usize> {
        let v = self.field.extract(*regs.get(usize::from(self.id))?);
        self.values.iter().position(|e| e.value == v)
    }
}

/// Every hang reason kind, as `outcome` bin names ([`outcome_bin`]).
const OUTCOMES: &[&str] = &[
    "finished",
    "cycle_limit",
    "hang:missing_finalize",
    "hang:command_past_end",
    "hang:fetch_unmapped",
    "hang:not_submitted",
    "hang:shader:break_empty_loop_stack",
    "hang:shader:double_mova",
    "hang:shader:pc_past_end",
    "hang:shader:unknown_opcode",
    "hang:vl:stride_mismatch",
    "hang:vl:read_unmapped",
    "hang:vl:gs_count_without_index",
    "hang:vl:internal",
    "hang:fop:unmapped",
    "hang:fop:reserved_format",
    "hang:tex:unmapped",
    "hang:internal",
];

/// The `outcome` bin of a run's outcome.
pub fn outcome_bin(o: &Outcome) -> &'static str {
    match o {
        Outcome::Finished { .. } => "finished",
        Outcome::CycleLimit { .. } => "cycle_limit",
        Outcome::Hang { reason, .. } => match reason {
            HangReason::MissingFinalize { .. } => "hang:missing_finalize",
            HangReason::CommandPastEnd { .. } => "hang:command_past_end",
            HangReason::FetchUnmapped { .. } => "hang:fetch_unmapped",
            HangReason::NotSubmitted => "hang:not_submitted",
            HangReason::Shader { reason, .. } => match reason {
                HangKind::BreakEmptyLoopStack => "hang:shader:break_empty_loop_stack",
                HangKind::DoubleMova => "hang:shader:double_mova",
                HangKind::PcPastEnd => "hang:shader:pc_past_end",
                HangKind::UnknownOpcode => "hang:shader:unknown_opcode",
            },
            HangReason::VertexLoader(h) => match h {
                VlHang::StrideMismatch { .. } => "hang:vl:stride_mismatch",
                VlHang::ReadUnmapped { .. } => "hang:vl:read_unmapped",
                VlHang::GsCountWithoutIndex { .. } => "hang:vl:gs_count_without_index",
                VlHang::Internal { .. } => "hang:vl:internal",
            },
            HangReason::FragmentOps(h) => match h {
                FopHang::Unmapped { .. } => "hang:fop:unmapped",
                FopHang::ReservedFormat { .. } => "hang:fop:reserved_format",
            },
            HangReason::Texture(TexHang::Unmapped { .. }) => "hang:tex:unmapped",
            HangReason::Internal(_) => "hang:internal",
        },
    }
}

/// The register areas of the `fields.*` groups: (name, first ID, end ID).
const AREAS: &[(&str, u16, u16)] = &[
    ("misc", 0x000, 0x040),
    ("rasterizer", 0x040, 0x080),
    ("texturing", 0x080, 0x0C0),
    ("texenv_fog", 0x0C0, 0x100),
    ("framebuffer", 0x100, 0x140),
    ("lighting", 0x140, 0x200),
    ("geometry", 0x200, 0x280),
    ("gsh", 0x280, 0x2B0),
    ("vsh", 0x2B0, 0x300),
];

/// The coverage model: groups and bins, and how samples map to bins.
#[derive(Debug)]
pub struct CovModel {
    groups: Vec<Group>,
    bins: Vec<String>,
    index: HashMap<(String, String), usize>,
    id_bin: Vec<Option<usize>>,
    id_unnamed: usize,
    id_beyond: usize,
    fields: Vec<FieldProbe>,
    op_bin: [usize; 64],
    channel_base: usize,
    outcome_base: usize,
    blend: Option<Blend>,
    color_tiling: Option<(Axis, Axis, usize)>,
    depth_tiling: Option<(Axis, Axis, usize)>,
    tex: Option<TexCross>,
    combiner: Option<CombinerCross>,
    prim: Option<PrimCross>,
    fop_base: usize,
}

#[derive(Debug)]
struct Blend {
    mode: Axis,
    eq: [Axis; 2],
    src: [Axis; 2],
    dst: [Axis; 2],
    base: usize,
}

#[derive(Debug)]
struct TexCross {
    enabled: [(u16, u32); 3],
    format: [Axis; 3],
    filters: [[Axis; 2]; 3],
    wraps: [[Axis; 2]; 3],
    base: usize,
}

#[derive(Debug)]
struct CombinerCross {
    modes: Vec<[Axis; 2]>,
    scales: Vec<[Axis; 2]>,
    base: usize,
}

#[derive(Debug)]
struct PrimCross {
    mode: Axis,
    cull: Axis,
    base: usize,
}

/// Builds groups and bins in order.
struct Builder {
    groups: Vec<Group>,
    bins: Vec<String>,
}

impl Builder {
    /// Adds a group (none when it has no bins: the misc area has no enumerated field).
    fn group(&mut self, name: &str, description: &str, bins: impl IntoIterator<Item = String>) {
        let start = self.bins.len();
        self.bins.extend(bins);
        if self.bins.len() == start {
            return;
        }
        self.groups.push(Group {
            name: name.into(),
            description: description.into(),
            bins: start..self.bins.len(),
        });
    }

    fn next(&self) -> usize {
        self.bins.len()
    }
}

fn product(axes: &[Vec<&str>]) -> Vec<String> {
    let mut out = vec![String::new()];
    for a in axes {
        out = out
            .iter()
            .flat_map(|p| {
                a.iter().map(move |n| {
                    if p.is_empty() {
                        (*n).to_string()
                    } else {
                        format!("{p} × {n}")
                    }
                })
            })
            .collect();
    }
    out
}

/// The coverage model, built once from the register, ISA and channel tables.
pub fn model() -> &'static CovModel {
    static MODEL: OnceLock<CovModel> = OnceLock::new();
    MODEL.get_or_init(CovModel::build)
}

const CMP: [&str; 2] = ["fail", "pass"];
const STENCIL_OUTCOMES: [&str; 3] = ["fail", "zfail", "zpass"];

impl CovModel {
    fn build() -> Self {
        let mut b = Builder {
            groups: Vec::new(),
            bins: Vec::new(),
        };
        // Register IDs.
        let mut id_bin = vec![None; REGISTERS.len()];
        let mut names = Vec::new();
        for r in REGISTERS.iter().filter(|r| r.is_named()) {
            id_bin[usize::from(r.id)] = Some(names.len());
            names.push(r.name.to_string());
        }
        let named = names.len();
        names.push("unnamed ID 0x000-0x2FF".into());
        names.push("ID beyond 0x2FF".into());
        let base = b.next();
        for v in id_bin.iter_mut().flatten() {
            *v += base;
        }
        b.group(
            "reg_ids",
            "register IDs written (register-write beats): every named ID, the unnamed ones, beyond 0x2FF",
            names,
        );
        let (id_unnamed, id_beyond) = (base + named, base + named + 1);

        // Enumerated and boolean fields, at each draw.
        let mut fields = Vec::new();
        for &(area, lo, hi) in AREAS {
            let mut bins = Vec::new();
            let start = b.next();
            for r in REGISTERS
                .iter()
                .filter(|r| (lo..hi).contains(&r.id) && r.effect == regs::SideEffect::None)
            {
                for f in r.fields {
                    let values: &'static [EnumValue] = match f.kind {
                        FieldKind::Enum(v) => v,
                        FieldKind::Bool => &[],
                        _ => continue,
                    };
                    fields.push(FieldProbe {
                        id: r.id,
                        field: f,
                        values,
                        base: start + bins.len(),
                    });
                    if values.is_empty() {
                        bins.push(format!("{}.{}=false", r.name, f.name));
                        bins.push(format!("{}.{}=true", r.name, f.name));
                    } else {
                        bins.extend(
                            values
                                .iter()
                                .map(|v| format!("{}.{}={}", r.name, f.name, v.name)),
                        );
                    }
                }
            }
            b.group(
                &format!("fields.{area}"),
                &format!(
                    "every value of every enumerated and boolean field of the configuration \
                     registers 0x{lo:03X}-0x{:03X}, in the register file at each draw",
                    hi - 1
                ),
                bins,
            );
        }

        // ISA: opcode x format.
        let isa_base = b.next();
        let mut op_bin = [isa_base + OPCODES.len(); 64];
        for (i, o) in OPCODES.iter().enumerate() {
            for c in 0..o.span {
                if let Some(slot) = op_bin.get_mut(usize::from(o.code + c)) {
                    *slot = isa_base + i;
                }
            }
        }
        b.group(
            "isa",
            "every opcode x instruction format of the opcode table, and unknown opcodes, executed by a shader unit",
            OPCODES
                .iter()
                .map(|o| format!("{} (format {})", o.mnemonic, o.format.name()))
                .chain(["unknown opcode".to_string()]),
        );

        let channel_base = b.next();
        b.group(
            "channels",
            "every channel of the channel table that carried a beat",
            Channel::ALL.iter().map(|c| c.name().to_string()),
        );
        let outcome_base = b.next();
        b.group(
            "outcome",
            "how the run ended: finished, the cycle limit, or each hang reason",
            OUTCOMES.iter().map(|s| s.to_string()),
        );

        // Crosses.
        let blend = (|| {
            let mode = Axis::of("ColorOperation", "blend_mode", 0)?;
            let eq = [
                Axis::of("BlendFunc", "rgb_equation", 0)?,
                Axis::of("BlendFunc", "alpha_equation", 0)?,
            ];
            let src = [
                Axis::of("BlendFunc", "rgb_src_func", 0)?,
                Axis::of("BlendFunc", "alpha_src_func", 0)?,
            ];
            let dst = [
                Axis::of("BlendFunc", "rgb_dst_func", 0)?,
                Axis::of("BlendFunc", "alpha_dst_func", 0)?,
            ];
            Some(Blend {
                mode,
                eq,
                src,
                dst,
                base: 0,
            })
        })();
        let blend = blend.map(|mut x| {
            x.base = b.next();
            let bins = product(&[
                vec!["rgb", "alpha"],
                x.eq[0].names().collect(),
                vec!["src", "dst"],
                x.src[0].names().collect(),
            ]);
            b.group(
                "x.blend",
                "blend equation x source / destination factor, RGB and alpha, at draws with blending on",
                bins,
            );
            x
        });
        let tiling = |b: &mut Builder, name: &str, desc: &str, layout: &str, field: &str| {
            let f = Axis::of(layout, field, 0)?;
            let t = Axis::of("FramebufferBlock32", "block_mode", 0)?;
            let base = b.next();
            b.group(
                name,
                desc,
                product(&[f.names().collect(), t.names().collect()]),
            );
            Some((f, t, base))
        };
        let color_tiling = tiling(
            &mut b,
            "x.color_format_tiling",
            "colour buffer format x block mode (8x8 / 32x32), at each draw",
            "ColorbufferFormat",
            "format",
        );
        let depth_tiling = tiling(
            &mut b,
            "x.depth_format_tiling",
            "depth buffer format x block mode (8x8 / 32x32), at each draw",
            "DepthbufferFormat",
            "format",
        );
        let tex = (|| {
            let cfg = regs::layout("TexunitConfig")?;
            let en = |n: &str| {
                cfg.fields
                    .iter()
                    .find(|f| f.name == n)
                    .map(|f| (cfg.ids[0], f.mask()))
            };
            let unit = |i: usize| -> Option<(Axis, [Axis; 2], [Axis; 2])> {
                Some((
                    Axis::of("TexunitType", "format", i)?,
                    [
                        Axis::of("TexunitParam", "mag_filter", i)?,
                        Axis::of("TexunitParam", "min_filter", i)?,
                    ],
                    [
                        Axis::of("TexunitParam", "wrap_s", i)?,
                        Axis::of("TexunitParam", "wrap_t", i)?,
                    ],
                ))
            };
            let (u0, u1, u2) = (unit(0)?, unit(1)?, unit(2)?);
            Some(TexCross {
                enabled: [
                    en("texture0_enabled")?,
                    en("texture1_enabled")?,
                    en("texture2_enabled")?,
                ],
                format: [u0.0, u1.0, u2.0],
                filters: [u0.1, u1.1, u2.1],
                wraps: [u0.2, u1.2, u2.2],
                base: 0,
            })
        })()
        .map(|mut x| {
            x.base = b.next();
            b.group(
                "x.tex_format_filter_wrap",
                "texture format x filter (magnification, minification) x wrap (S, T) of each enabled unit 0-2, at each draw",
                product(&[
                    x.format[0].names().collect(),
                    vec!["mag", "min"],
                    x.filters[0][0].names().collect(),
                    x.wraps[0][0].names().collect(),
                ]),
            );
            x
        });
        let combiner = (|| {
            let l = regs::layout("TexenvCombiner")?;
            let mut modes = Vec::new();
            let mut scales = Vec::new();
            for i in 0..l.ids.len() {
                modes.push([
                    Axis::of("TexenvCombiner", "rgb_combine", i)?,
                    Axis::of("TexenvCombiner", "alpha_combine", i)?,
                ]);
                scales.push([
                    Axis::of("TexenvScale", "rgb_scale", i)?,
                    Axis::of("TexenvScale", "alpha_scale", i)?,
                ]);
            }
            Some(CombinerCross {
                modes,
                scales,
                base: 0,
            })
        })()
        .map(|mut x| {
            x.base = b.next();
            b.group(
                "x.combiner_scale",
                "combiner function x scale, RGB and alpha, of any of the six stages, at each draw",
                product(&[
                    vec!["rgb", "alpha"],
                    x.modes[0][0].names().collect(),
                    x.scales[0][0].names().collect(),
                ]),
            );
            x
        });
        let prim = (|| {
            Some(PrimCross {
                mode: Axis::of("PrimitiveConfig", "primitive_mode", 0)?,
                cull: Axis::of("FacecullingConfig", "mode", 0)?,
                base: 0,
            })
        })()
        .map(|mut x| {
            x.base = b.next();
            b.group(
                "x.prim_winding_cull",
                "primitive mode x winding of each assembled triangle (clip space, w > 0) x cull mode",
                product(&[
                    x.mode.names().collect(),
                    vec!["ccw", "cw"],
                    x.cull.names().collect(),
                ]),
            );
            x
        });
        // FOP's tests: the compare functions and stencil actions, by raw encoding.
        let fop_base = b.next();
        let cmp = Axis::of("DepthColorMask", "depth_function", 0)
            .map(|a| a.names().collect::<Vec<_>>())
            .unwrap_or_default();
        let ops = Axis::of("StencilOp", "fail_op", 0)
            .map(|a| a.names().collect::<Vec<_>>())
            .unwrap_or_default();
        let cmp_bins = product(&[cmp.clone(), CMP.to_vec()]);
        b.group(
            "x.alpha_outcome",
            "alpha test function x fail / pass, per fragment FOP tested",
            cmp_bins.clone(),
        );
        b.group(
            "x.stencil_outcome",
            "stencil test function x fail / pass, per fragment FOP tested (stencil buffer present)",
            cmp_bins.clone(),
        );
        b.group(
            "x.depth_outcome",
            "depth test function x fail / pass, per fragment FOP tested",
            cmp_bins,
        );
        b.group(
            "x.stencil_op_outcome",
            "stencil action x the outcome that chose it (stencil fail, depth fail, both pass)",
            product(&[ops, STENCIL_OUTCOMES.to_vec()]),
        );
        let index = b
            .groups
            .iter()
            .flat_map(|g| {
                let bins = &b.bins;
                g.bins
                    .clone()
                    .map(move |i| ((g.name.clone(), bins[i].clone()), i))
            })
            .collect();
        CovModel {
            groups: b.groups,
            bins: b.bins,
            index,
            id_bin,
            id_unnamed,
            id_beyond,
            fields,
            op_bin,
            channel_base,
            outcome_base,
            blend,
            color_tiling,
            depth_tiling,
            tex,
            combiner,
            prim,
            fop_base,
        }
    }

    /// The groups, in report order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Every bin's name (within its group), by bin index.
    pub fn bins(&self) -> &[String] {
        &self.bins
    }

    /// The group called `name`.
    pub fn group(&self, name: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.name == name)
    }

    /// The index of bin `bin` of group `group`.
    pub fn bin(&self, group: &str, bin: &str) -> Option<usize> {
        self.index
            .get(&(group.to_string(), bin.to_string()))
            .copied()
    }

    /// The group a bin index belongs to.
    pub fn group_of(&self, bin: usize) -> Option<&Group> {
        self.groups.iter().find(|g| g.bins.contains(&bin))
    }

    /// Register settings that steer a run towards bin `bin` (coverage-guided fuzzing, `pica
    /// fuzz --guided`): written before a draw, they put the register file in a state the
    /// sampler maps to that bin at the draw. A register-ID bin gives a write to the ID with no
    /// field set (`mask` 0); a field bin its field; a cross of register fields the setting of
    /// each axis (for a per-stage or per-unit cross, combiner stage 0 and texture unit 0, the
    /// unit enabled; for FOP's test outcomes, the test on with its function or action — whether
    /// it passes is up to the fragments). Empty for bins that registers alone cannot choose
    /// (executed opcodes, channels, how the run ends).
    pub fn steer(&self, bin: usize) -> Vec<Steer> {
        let mut out = Vec::new();
        let set = |out: &mut Vec<Steer>, a: &Axis, i: usize| {
            if let Some(v) = a.values.get(i) {
                out.push(Steer {
                    id: a.id,
                    mask: a.field.mask(),
                    value: (v.value << a.field.lsb) & a.field.mask(),
                });
            }
        };
        if let Some(id) = self.id_bin.iter().position(|b| *b == Some(bin)) {
            out.push(Steer {
                id: id as u16,
                mask: 0,
                value: 0,
            });
            return out;
        }
        if bin == self.id_unnamed {
            if let Some(id) = self.id_bin.iter().position(Option::is_none) {
                out.push(Steer {
                    id: id as u16,
                    mask: 0,
                    value: 0,
                });
            }
            return out;
        }
        if bin == self.id_beyond {
            out.push(Steer {
                id: REGISTERS.len() as u16,
                mask: 0,
                value: 0,
            });
            return out;
        }
        for p in &self.fields {
            let n = if p.values.is_empty() {
                2
            } else {
                p.values.len()
            };
            if (p.base..p.base + n).contains(&bin) {
                let k = bin - p.base;
                let v = if p.values.is_empty() {
                    k as u32
                } else {
                    p.values[k].value
                };
                out.push(Steer {
                    id: p.id,
                    mask: p.field.mask(),
                    value: (v << p.field.lsb) & p.field.mask(),
                });
                return out;
            }
        }
        let within = |base: usize, n: usize| (base..base + n).contains(&bin).then(|| bin - base);
        if let Some(x) = &self.blend {
            let (ne, nf) = (x.eq[0].len(), x.src[0].len());
            if let Some(k) = within(x.base, 2 * ne * 2 * nf) {
                let (f, k) = (k % nf, k / nf);
                let (r, k) = (k % 2, k / 2);
                let (e, c) = (k % ne, k / ne);
                if let Some(on) = x
                    .mode
                    .values
                    .iter()
                    .position(|v| v.name.eq_ignore_ascii_case("blend"))
                {
                    set(&mut out, &x.mode, on);
                }
                set(&mut out, &x.eq[c], e);
                set(&mut out, if r == 0 { &x.src[c] } else { &x.dst[c] }, f);
                return out;
            }
        }
        for (f, t, base) in [&self.color_tiling, &self.depth_tiling]
            .into_iter()
            .flatten()
        {
            if let Some(k) = within(*base, f.len() * t.len()) {
                set(&mut out, f, k / t.len());
                set(&mut out, t, k % t.len());
                return out;
            }
        }
        if let Some(x) = &self.tex {
            let (nf, nfl, nw) = (
                x.format[0].len(),
                x.filters[0][0].len(),
                x.wraps[0][0].len(),
            );
            if let Some(k) = within(x.base, nf * 2 * nfl * nw) {
                let (w, k) = (k % nw, k / nw);
                let (fl, k) = (k % nfl, k / nfl);
                let (mm, f) = (k % 2, k / 2);
                let (id, mask) = x.enabled[0];
                out.push(Steer {
                    id,
                    mask,
                    value: mask,
                });
                set(&mut out, &x.format[0], f);
                set(&mut out, &x.filters[0][mm], fl);
                set(&mut out, &x.wraps[0][0], w);
                set(&mut out, &x.wraps[0][1], w);
                return out;
            }
        }
        if let Some(x) = &self.combiner {
            let (nm, ns) = (x.modes[0][0].len(), x.scales[0][0].len());
            if let Some(k) = within(x.base, 2 * nm * ns) {
                let (s, k) = (k % ns, k / ns);
                let (m, c) = (k % nm, k / nm);
                set(&mut out, &x.modes[0][c], m);
                set(&mut out, &x.scales[0][c], s);
                return out;
            }
        }
        if let Some(x) = &self.prim {
            let (nm, nc) = (x.mode.len(), x.cull.len());
            if let Some(k) = within(x.base, nm * 2 * nc) {
                set(&mut out, &x.mode, k / (2 * nc));
                set(&mut out, &x.cull, k % nc);
                return out;
            }
        }
        // FOP's tests: the test on, with the compare function (pass or fail is up to the
        // fragments), or the stencil test on with the action in the slot of the outcome.
        let n = 2 * 8;
        if let Some(k) = within(self.fop_base, 3 * n + 8 * 3) {
            let field = |layout: &str, name: &str, v: u32| {
                let f = regs::layout(layout)?
                    .fields
                    .iter()
                    .find(|f| f.name == name)?;
                Some(Steer {
                    id: regs::layout(layout)?.ids[0],
                    mask: f.mask(),
                    value: (v << f.lsb) & f.mask(),
                })
            };
            let settings = if k < 3 * n {
                let f = ((k % n) / 2) as u32;
                match k / n {
                    0 => [
                        field("FragopAlphaTest", "enabled", 1),
                        field("FragopAlphaTest", "function", f),
                    ],
                    1 => [
                        field("StencilTest", "enabled", 1),
                        field("StencilTest", "function", f),
                    ],
                    _ => [
                        field("DepthColorMask", "depth_test_enabled", 1),
                        field("DepthColorMask", "depth_function", f),
                    ],
                }
            } else {
                let (a, o) = (((k - 3 * n) / 3) as u32, (k - 3 * n) % 3);
                let slot = ["fail_op", "zfail_op", "zpass_op"][o];
                [
                    field("StencilTest", "enabled", 1),
                    field("StencilOp", slot, a),
                ]
            };
            out.extend(settings.into_iter().flatten());
        }
        out
    }

    fn sample_id(&self, hits: &mut Acc, id: u32) {
        let bin = match self.id_bin.get(id as usize) {
            Some(Some(b)) => *b,
            Some(None) => self.id_unnamed,
            None => self.id_beyond,
        };
        hits.hit(bin);
    }

    /// Everything sampled from the register file at a draw; returns the (primitive mode,
    /// cull mode) indices for the winding cross.
    fn sample_draw(&self, hits: &mut Acc, regs: &[u32]) -> (Option<usize>, Option<usize>) {
        for p in &self.fields {
            if let Some(b) = p.bin(regs) {
                hits.hit(b);
            }
        }
        if let Some(x) = &self.blend {
            // Blend mode encoding 1 is "blend" (0 logic op) in the table.
            let on = x
                .mode
                .index(regs)
                .is_some_and(|i| x.mode.values[i].name.eq_ignore_ascii_case("blend"));
            if on {
                let (ne, nf) = (x.eq[0].len(), x.src[0].len());
                for c in 0..2 {
                    let Some(e) = x.eq[c].index(regs) else {
                        continue;
                    };
                    for (r, f) in [&x.src[c], &x.dst[c]].into_iter().enumerate() {
                        if let Some(f) = f.index(regs) {
                            hits.hit(x.base + ((c * ne + e) * 2 + r) * nf + f);
                        }
                    }
                }
            }
        }
        for (f, t, base) in [&self.color_tiling, &self.depth_tiling]
            .into_iter()
            .flatten()
        {
            if let (Some(i), Some(j)) = (f.index(regs), t.index(regs)) {
                hits.hit(base + i * t.len() + j);
            }
        }
        if let Some(x) = &self.tex {
            let (nfl, nw) = (x.filters[0][0].len(), x.wraps[0][0].len());
            for u in 0..3 {
                let (id, mask) = x.enabled[u];
                if regs.get(usize::from(id)).is_none_or(|v| v & mask == 0) {
                    continue;
                }
                let Some(f) = x.format[u].index(regs) else {
                    continue;
                };
                for (k, fl) in x.filters[u].iter().enumerate() {
                    let Some(fl) = fl.index(regs) else { continue };
                    for w in &x.wraps[u] {
                        if let Some(w) = w.index(regs) {
                            hits.hit(x.base + ((f * 2 + k) * nfl + fl) * nw + w);
                        }
                    }
                }
            }
        }
        if let Some(x) = &self.combiner {
            let (nm, ns) = (x.modes[0][0].len(), x.scales[0][0].len());
            for (m, s) in x.modes.iter().zip(&x.scales) {
                for c in 0..2 {
                    if let (Some(i), Some(j)) = (m[c].index(regs), s[c].index(regs)) {
                        hits.hit(x.base + (c * nm + i) * ns + j);
                    }
                }
            }
        }
        match &self.prim {
            Some(x) => (x.mode.index(regs), x.cull.index(regs)),
            None => (None, None),
        }
    }
}

/// Bins no run can reach, or that a correct model never reaches, with the reason: reports
/// mark them (as a SystemVerilog covergroup's `ignore_bins` / `illegal_bins` would) so that a
/// reader closing holes skips them. They stay in the totals, so figures compare across
/// versions. `(group, bin, why)`.
pub const UNREACHABLE: &[(&str, &str, &str)] = &[
    (
        "x.alpha_outcome",
        "Never × pass",
        "a Never test cannot pass",
    ),
    (
        "x.alpha_outcome",
        "Always × fail",
        "an Always test cannot fail",
    ),
    (
        "x.stencil_outcome",
        "Never × pass",
        "a Never test cannot pass",
    ),
    (
        "x.stencil_outcome",
        "Always × fail",
        "an Always test cannot fail",
    ),
    (
        "x.depth_outcome",
        "Never × pass",
        "a Never test cannot pass",
    ),
    (
        "x.depth_outcome",
        "Always × fail",
        "an Always test cannot fail",
    ),
    (
        "outcome",
        "hang:internal",
        "illegal: a model defect (an internal error), which every fuzzer fails on",
    ),
    (
        "outcome",
        "hang:vl:internal",
        "illegal: a model defect in the vertex loader, which every fuzzer fails on",
    ),
];

/// Why bin `bin` cannot be reached ([`UNREACHABLE`]), if it cannot.
pub fn unreachable(bin: usize) -> Option<&'static str> {
    let m = model();
    let g = m.group_of(bin)?;
    let name = m.bins().get(bin)?;
    UNREACHABLE
        .iter()
        .find(|(gr, b, _)| *gr == g.name && b == name)
        .map(|(_, _, why)| *why)
}

/// One register setting of [`CovModel::steer`]: the bits `mask` of register `id` set to
/// `value` (already in place); `mask` 0 asks only for a write to `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steer {
    /// Register ID.
    pub id: u16,
    /// The bits that matter, in place.
    pub mask: u32,
    /// Their value, in place (`value & !mask == 0`).
    pub value: u32,
}

/// Hit counts being gathered: dense counts, and the bins touched in first-touch order (so
/// that a run's [`Hits`] cost what it hit, not the size of the model).
#[derive(Clone, Debug)]
struct Acc {
    counts: Vec<u32>,
    touched: Vec<u32>,
}

impl Acc {
    fn new() -> Self {
        Self {
            counts: vec![0; model().bins.len()],
            touched: Vec::new(),
        }
    }

    fn hit(&mut self, bin: usize) {
        if let Some(h) = self.counts.get_mut(bin) {
            if *h == 0 {
                self.touched.push(bin as u32);
            }
            *h = h.saturating_add(1);
        }
    }
}

/// A draw as the sampler saw it: when, and the indices of its primitive and cull modes.
#[derive(Clone, Copy, Debug)]
struct DrawMark {
    cycle: u64,
    mode: Option<usize>,
    cull: Option<usize>,
}

/// What a running GPU collects for coverage ([`crate::Gpu::set_coverage`]).
#[derive(Clone, Debug)]
pub struct Sampler {
    hits: Acc,
    beats_seen: usize,
    triggers_seen: usize,
    draws: Vec<DrawMark>,
}

impl Default for Sampler {
    fn default() -> Self {
        Self::new()
    }
}

impl Sampler {
    /// An empty sampler.
    pub fn new() -> Self {
        Self {
            hits: Acc::new(),
            beats_seen: 0,
            triggers_seen: 0,
            draws: Vec::new(),
        }
    }

    /// Looks at what REGS applied since the last call: register-write beats (IDs) and draw
    /// triggers (the register file is sampled as it stands, which is its state at the draw
    /// when called once a cycle: REGS applies one write a cycle).
    pub fn observe(&mut self, regs: &RegFile, beats: &[RegWriteBeat]) {
        let m = model();
        if beats.len() < self.beats_seen {
            self.beats_seen = 0;
        }
        for b in &beats[self.beats_seen..] {
            m.sample_id(&mut self.hits, b.id);
        }
        self.beats_seen = beats.len();
        let mut draw = None;
        for t in regs.triggers_since(&mut self.triggers_seen) {
            if matches!(t.trigger, Trigger::DrawArrays | Trigger::DrawElements) {
                draw = Some(t.cycle);
            }
        }
        if let Some(cycle) = draw {
            let (mode, cull) = m.sample_draw(&mut self.hits, regs.regs());
            self.draws.push(DrawMark { cycle, mode, cull });
        }
    }

    /// The hits of the run so far plus what only the end of a run tells: the shader units'
    /// opcode histogram, FOP's test outcomes, the channels that carried beats, the winding of
    /// the assembled triangles and the outcome.
    pub fn finish(&self, end: &RunEnd<'_>) -> Hits {
        let m = model();
        // Bins of the end of the run, with their counts.
        let mut extra: Vec<(usize, u32)> = Vec::new();
        let sat = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        if let Some(ops) = end.opcodes {
            for (code, &n) in ops.iter().enumerate() {
                if n > 0 {
                    extra.push((m.op_bin[code], sat(n)));
                }
            }
        }
        if let Some(t) = end.fop_tests {
            let n = 2 * 8;
            let groups = [(0, &t.alpha), (n, &t.stencil), (2 * n, &t.depth)];
            for (off, table) in groups {
                for (f, row) in table.iter().enumerate() {
                    for (p, &c) in row.iter().enumerate() {
                        if c > 0 {
                            extra.push((m.fop_base + off + f * 2 + p, sat(c)));
                        }
                    }
                }
            }
            for (a, row) in t.stencil_op.iter().enumerate() {
                for (o, &c) in row.iter().enumerate() {
                    if c > 0 {
                        extra.push((m.fop_base + 3 * n + a * 3 + o, sat(c)));
                    }
                }
            }
        }
        for (i, ch) in Channel::ALL.iter().enumerate() {
            if end.channels.get(ch) {
                extra.push((m.channel_base + i, 1));
            }
        }
        if let Some(x) = &m.prim {
            let ncull = x.cull.len();
            for p in end.primitives {
                let Some(d) = self.draws.iter().rev().find(|d| d.cycle <= p.cycle) else {
                    continue;
                };
                let (Some(mode), Some(cull), Some(w)) = (d.mode, d.cull, winding(p)) else {
                    continue;
                };
                extra.push((x.base + (mode * 2 + w) * ncull + cull, 1));
            }
        }
        if let Some(o) = end.outcome {
            if let Some(i) = OUTCOMES.iter().position(|s| *s == outcome_bin(o)) {
                extra.push((m.outcome_base + i, 1));
            }
        }
        let acc = &self.hits;
        let mut bins: Vec<(u32, u32)> = acc
            .touched
            .iter()
            .map(|&b| (b, acc.counts[b as usize]))
            .chain(extra.into_iter().map(|(b, c)| (b as u32, c)))
            .collect();
        bins.sort_unstable_by_key(|p| p.0);
        bins.dedup_by(|cur, prev| {
            let same = cur.0 == prev.0;
            if same {
                prev.1 = prev.1.saturating_add(cur.1);
            }
            same
        });
        Hits { bins }
    }
}

/// 0 counter-clockwise, 1 clockwise (clip space, y up), `None` for a triangle with a vertex at
/// w <= 0 or no area.
fn winding(p: &PrimitiveBeat) -> Option<usize> {
    let pos = |v: &[u32]| -> Option<(f64, f64)> {
        let c = |i: usize| F24::from_bits(v[crate::pipe::semantic::POSITION + i]).to_f64();
        let w = c(3);
        (w > 0.0 && w.is_finite()).then(|| (c(0) / w, c(1) / w))
    };
    let (a, b, c) = (pos(&p.v[0])?, pos(&p.v[1])?, pos(&p.v[2])?);
    let area = (b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1);
    if area > 0.0 {
        Some(0)
    } else if area < 0.0 {
        Some(1)
    } else {
        None
    }
}

/// Which channels carried a beat in a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChannelSet(u16);

impl ChannelSet {
    /// Marks `ch` as having carried a beat when `on`.
    pub fn set(&mut self, ch: Channel, on: bool) {
        if on {
            self.0 |= 1 << ch as u16;
        }
    }

    /// Whether `ch` carried a beat.
    pub fn get(&self, ch: &Channel) -> bool {
        self.0 & (1 << *ch as u16) != 0
    }
}

/// What the end of a run tells the sampler ([`Sampler::finish`]).
#[derive(Clone, Copy, Debug)]
pub struct RunEnd<'a> {
    /// Instructions executed per 6-bit opcode.
    pub opcodes: Option<&'a [u64; 64]>,
    /// FOP's test outcomes.
    pub fop_tests: Option<&'a TestCounts>,
    /// The channels that carried beats.
    pub channels: ChannelSet,
    /// The assembled triangles (primitive beats).
    pub primitives: &'a [PrimitiveBeat],
    /// How the run ended, if it did.
    pub outcome: Option<&'a Outcome>,
}

/// The hit counts of one run, by bin index of [`model`] (only the bins hit).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hits {
    /// `(bin, hits)`, sorted by bin, hits > 0.
    bins: Vec<(u32, u32)>,
}

impl Hits {
    /// The hits of dense counts (index = bin).
    pub fn from_counts(counts: &[u32]) -> Self {
        Self {
            bins: counts
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(b, &c)| (b as u32, c))
                .collect(),
        }
    }

    /// How often bin `bin` was hit.
    pub fn count(&self, bin: usize) -> u32 {
        self.bins
            .binary_search_by_key(&(bin as u32), |p| p.0)
            .map_or(0, |i| self.bins[i].1)
    }

    /// Whether bin `bin` was hit.
    pub fn is_hit(&self, bin: usize) -> bool {
        self.count(bin) > 0
    }

    /// Whether bin `bin` of group `group` was hit (false for an unknown bin).
    pub fn is_hit_named(&self, group: &str, bin: &str) -> bool {
        model().bin(group, bin).is_some_and(|b| self.is_hit(b))
    }

    /// Bins hit.
    pub fn covered(&self) -> usize {
        self.bins.len()
    }

    /// `(bin, hits)` of every bin hit, in bin order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.bins.iter().map(|&(b, c)| (b as usize, c))
    }
}

/// Coverage accumulated over many runs: hit counts and the first case that hit each bin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverageDb {
    /// Hits per bin of [`model`].
    pub counts: Vec<u64>,
    /// The first case (a name or a bundle path a user can replay) that hit each bin.
    pub first: Vec<Option<String>>,
    /// Runs added.
    pub cases: u64,
    /// What the runs came from (a campaign, a directory, `scenes`).
    pub source: String,
}

/// The format tag of a coverage database file.
pub const DB_FORMAT: &str = "pica-cov";

/// Per-group figures of a database.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GroupFigure {
    /// Group name.
    pub name: String,
    /// What it covers.
    pub description: String,
    /// Bins in the group.
    pub total_bins: usize,
    /// Bins hit.
    pub covered_bins: usize,
}

impl CoverageDb {
    /// An empty database for runs from `source`.
    pub fn new(source: &str) -> Self {
        let n = model().bins.len();
        Self {
            counts: vec![0; n],
            first: vec![None; n],
            cases: 0,
            source: source.into(),
        }
    }

    /// Adds one run's hits, naming the case for the bins it hits first.
    pub fn add(&mut self, hits: &Hits, case: &str) {
        self.cases += 1;
        for (i, h) in hits.iter() {
            if let Some(c) = self.counts.get_mut(i) {
                *c = c.saturating_add(u64::from(h));
            }
            if let Some(f) = self.first.get_mut(i) {
                f.get_or_insert_with(|| case.to_string());
            }
        }
    }

    /// Adds another database (the shards of a campaign, in shard order: a bin's first case
    /// stays the one of the earlier database).
    pub fn merge(&mut self, other: &CoverageDb) {
        self.cases += other.cases;
        for i in 0..self.counts.len() {
            self.counts[i] = self.counts[i].saturating_add(other.counts[i]);
            if self.first[i].is_none() {
                self.first[i].clone_from(&other.first[i]);
            }
        }
    }

    /// Whether bin `bin` was hit.
    pub fn is_hit(&self, bin: usize) -> bool {
        self.counts.get(bin).is_some_and(|&c| c > 0)
    }

    /// Covered and total bins per group, in model order.
    pub fn figures(&self) -> Vec<GroupFigure> {
        model()
            .groups
            .iter()
            .map(|g| GroupFigure {
                name: g.name.clone(),
                description: g.description.clone(),
                total_bins: g.bins.len(),
                covered_bins: g.bins.clone().filter(|&i| self.is_hit(i)).count(),
            })
            .collect()
    }

    /// Covered and total bins of the whole model.
    pub fn total(&self) -> (usize, usize) {
        let covered = (0..self.counts.len()).filter(|&i| self.is_hit(i)).count();
        (covered, self.counts.len())
    }

    /// The database as JSON: format, source, cases, totals, and per group the figures and
    /// every bin with its hits and first case.
    pub fn to_json(&self) -> serde_json::Value {
        let m = model();
        let (covered, total) = self.total();
        let groups: Vec<serde_json::Value> = m
            .groups
            .iter()
            .map(|g| {
                let bins: Vec<serde_json::Value> = g
                    .bins
                    .clone()
                    .map(|i| {
                        serde_json::json!({
                            "name": m.bins[i],
                            "hits": self.counts[i],
                            "first": self.first[i],
                        })
                    })
                    .collect();
                serde_json::json!({
                    "name": g.name,
                    "description": g.description,
                    "total_bins": g.bins.len(),
                    "covered_bins": g.bins.clone().filter(|&i| self.is_hit(i)).count(),
                    "bins": bins,
                })
            })
            .collect();
        serde_json::json!({
            "format": DB_FORMAT,
            "version": 1,
            "source": self.source,
            "cases": self.cases,
            "total_bins": total,
            "covered_bins": covered,
            "groups": groups,
        })
    }

    /// Reads [`CoverageDb::to_json`]. Bins are matched by group and bin name, so a database
    /// written by another model version loads: bins this model does not have are dropped.
    pub fn from_json(v: &serde_json::Value) -> Result<Self, String> {
        if v.get("format").and_then(|f| f.as_str()) != Some(DB_FORMAT) {
            return Err(format!(
                "not a coverage database (\"format\": \"{DB_FORMAT}\" missing)"
            ));
        }
        let m = model();
        let mut db = CoverageDb::new(v.get("source").and_then(|s| s.as_str()).unwrap_or(""));
        db.cases = v.get("cases").and_then(|c| c.as_u64()).unwrap_or(0);
        let groups = v
            .get("groups")
            .and_then(|g| g.as_array())
            .ok_or("\"groups\" is not an array")?;
        for g in groups {
            let gname = g.get("name").and_then(|n| n.as_str()).unwrap_or("");
            let Some(bins) = g.get("bins").and_then(|b| b.as_array()) else {
                return Err(format!("group '{gname}': \"bins\" is not an array"));
            };
            for b in bins {
                let name = b.get("name").and_then(|n| n.as_str()).unwrap_or("");
                let Some(i) = m.bin(gname, name) else {
                    continue;
                };
                db.counts[i] = b.get("hits").and_then(|h| h.as_u64()).unwrap_or(0);
                db.first[i] = b.get("first").and_then(|f| f.as_str()).map(String::from);
            }
        }
        Ok(db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cov_model_groups_are_disjoint_and_cover_every_bin() {
        let m = model();
        let mut next = 0;
        for g in m.groups() {
            assert_eq!(g.bins.start, next, "{}", g.name);
            assert!(!g.bins.is_empty(), "{} has no bins", g.name);
            next = g.bins.end;
        }
        assert_eq!(next, m.bins().len());
        assert_eq!(m.index.len(), m.bins().len(), "bin names unique per group");
    }

    #[test]
    fn cov_model_has_every_table_derived_group() {
        let m = model();
        for g in [
            "reg_ids",
            "isa",
            "channels",
            "outcome",
            "x.blend",
            "x.color_format_tiling",
            "x.depth_format_tiling",
            "x.tex_format_filter_wrap",
            "x.combiner_scale",
            "x.prim_winding_cull",
            "x.alpha_outcome",
            "x.stencil_outcome",
            "x.depth_outcome",
            "x.stencil_op_outcome",
        ] {
            assert!(m.group(g).is_some(), "{g} missing");
        }
        assert_eq!(m.group("isa").unwrap().bins.len(), OPCODES.len() + 1);
        assert_eq!(m.group("channels").unwrap().bins.len(), Channel::ALL.len());
        assert!(m.bin("reg_ids", "GPUREG_FINALIZE").is_some());
        assert!(m
            .bin(
                "fields.rasterizer",
                "GPUREG_FACECULLING_CONFIG.mode=BackCcw"
            )
            .is_some());
        assert!(m.bin("x.depth_outcome", "Less × fail").is_some());
    }

    #[test]
    fn cov_fop_bins_follow_the_raw_encodings_fop_counts_by() {
        // `fop::TestCounts` is indexed by the raw field values; the bins by the table order.
        for (layout, field) in [
            ("DepthColorMask", "depth_function"),
            ("StencilOp", "fail_op"),
        ] {
            let a = Axis::of(layout, field, 0).unwrap();
            let raw: Vec<u32> = a.values.iter().map(|v| v.value).collect();
            assert_eq!(raw, (0..8).collect::<Vec<u32>>(), "{layout}.{field}");
        }
    }

    #[test]
    fn cov_draw_samples_fields_of_the_register_file() {
        let m = model();
        let mut regs = vec![0u32; 0x300];
        regs[usize::from(regs::id::FACECULLING_CONFIG)] = 2;
        let mut acc = Acc::new();
        m.sample_draw(&mut acc, &regs);
        let h = Hits::from_counts(&acc.counts);
        assert!(h.is_hit_named(
            "fields.rasterizer",
            "GPUREG_FACECULLING_CONFIG.mode=BackCcw"
        ));
        assert!(!h.is_hit_named("fields.rasterizer", "GPUREG_FACECULLING_CONFIG.mode=None"));
    }

    #[test]
    fn cov_opcode_counting_survives_knobs_set_after_coverage() {
        let mut gpu = crate::Gpu::new(crate::Memory::new());
        gpu.set_coverage(true);
        gpu.set_shader_knobs(crate::shader::interp::Knobs::default());
        assert!(gpu.shader().opcode_counts().is_some());
        gpu.set_coverage(false);
        assert!(gpu.shader().opcode_counts().is_none());
        assert!(gpu.coverage(None).is_none());
    }

    #[test]
    fn cov_db_json_round_trips_and_merges() {
        let m = model();
        let mut a = CoverageDb::new("t");
        let mut hits = vec![0; m.bins().len()];
        hits[3] = 2;
        a.add(&Hits::from_counts(&hits), "case-a");
        let back = CoverageDb::from_json(&a.to_json()).unwrap();
        assert_eq!(back, a);
        let mut b = CoverageDb::new("t");
        hits[3] = 0;
        hits[5] = 1;
        b.add(&Hits::from_counts(&hits), "case-b");
        a.merge(&b);
        assert_eq!(a.cases, 2);
        assert_eq!(a.first[3].as_deref(), Some("case-a"));
        assert_eq!(a.first[5].as_deref(), Some("case-b"));
        assert_eq!(a.total().0, 2);
        assert!(CoverageDb::from_json(&serde_json::json!({"x": 1})).is_err());
    }

    #[test]
    fn cov_steer_reaches_its_bin_at_a_draw() {
        // Every bin that steer() claims to reach: apply its settings to a zeroed register file,
        // sample a draw (or the write) and check the bin was hit. Groups registers cannot
        // choose must give no settings.
        let m = model();
        let mut steered = 0;
        for bin in 0..m.bins().len() {
            let st = m.steer(bin);
            let group = &m.group_of(bin).expect("every bin has a group").name;
            let settable = group == "reg_ids"
                || group.starts_with("fields.")
                || [
                    "x.blend",
                    "x.color_format_tiling",
                    "x.depth_format_tiling",
                    "x.tex_format_filter_wrap",
                    "x.combiner_scale",
                ]
                .contains(&group.as_str());
            if group.ends_with("_outcome") {
                // The test and its function (or action) are set; pass or fail needs fragments.
                assert!(st.len() == 2, "{group} / {} steered {st:?}", m.bins()[bin]);
                continue;
            }
            if !settable && group != "x.prim_winding_cull" {
                assert!(st.is_empty(), "{group} / {} steered", m.bins()[bin]);
                continue;
            }
            assert!(!st.is_empty(), "{group} / {} not steered", m.bins()[bin]);
            steered += 1;
            let mut acc = Acc::new();
            if st[0].mask == 0 {
                m.sample_id(&mut acc, u32::from(st[0].id));
            } else {
                let mut regs = vec![0u32; REGISTERS.len()];
                for s in &st {
                    assert_eq!(s.value & !s.mask, 0);
                    let r = &mut regs[usize::from(s.id)];
                    *r = (*r & !s.mask) | s.value;
                }
                let (mode, cull) = m.sample_draw(&mut acc, &regs);
                if group == "x.prim_winding_cull" {
                    // The winding comes from the triangles: check the two indices instead.
                    let x = m.prim.as_ref().expect("prim cross");
                    let k = bin - x.base;
                    assert_eq!(mode, Some(k / (2 * x.cull.len())));
                    assert_eq!(cull, Some(k % x.cull.len()));
                    continue;
                }
            }
            assert!(
                acc.counts[bin] > 0,
                "{group} / {} not reached",
                m.bins()[bin]
            );
        }
        assert!(steered > m.bins().len() / 2, "{steered} bins steered");
    }

    #[test]
    fn cov_unreachable_bins_name_existing_bins() {
        let m = model();
        for (g, b, _) in UNREACHABLE {
            let bin = m
                .bin(g, b)
                .unwrap_or_else(|| panic!("{g} / {b} is not a bin"));
            assert!(unreachable(bin).is_some());
        }
        assert!(unreachable(0).is_none());
    }
}
