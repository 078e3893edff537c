//! `pica fuzz --target tex`: random texture configurations, textures and fragments on texture
//! units 0-2, shrunk on failure and saved as TEX stage bundles (`pica_vectors::stage_tex`).
//!
//! Case `i` of seed `S` is [`generate`]`(case_seed(S, i))`, the TEX stage generator
//! (`pica_vectors::stage_tex::TexGen`): one to three configurations over every register field
//! the units read (all 14 formats and the reserved ones, sizes that are not powers of two,
//! every wrap mode including the reserved ones, both filters, mipmaps with biases and level
//! limits, unit 0's cube, shadow and projection types, the border colour), textures of random
//! bytes (sometimes across the end of VRAM or FCRAM, or unmapped), and fragments at texel and
//! wrap edges, far outside the texture or special f24 values, with derivatives over every
//! level of detail; now and then a fragment flagged to flush the texel cache.
//!
//! - **With RTL** (`--rtl`): the Verilated `pica_tex_top` ([`RtlTex`], `--variant`, its AXI4
//!   port answered with `--mem-latency` / `--mem-reorder`) takes the register writes through
//!   its write port and the fragments under a pseudo-random output backpressure; every
//!   fragment's colours of units 0-2, every texel read (unit, address, bytes, decoded colour,
//!   in order and by fragment), the hang, and no protocol breach (AXI4 rules included).
//! - **Without RTL** ([`check_model`]): every texel read lies in a texture range of its
//!   configuration ([`pica_model::tex::texture_ranges`]), a disabled unit's colour is zero, and
//!   the case's stage bundle reads back as written.
//!
//! A failure is shrunk over [`shrink_steps`]: fewest fragments, fewest register writes, simpler
//! values (register bits cleared, coordinate lanes zeroed), memory images zeroed; it is then
//! written as `fuzz-tex-<model|variant>-<case seed>/`.

use crate::fuzz::campaign::{self, impl_stage_target, ShrinkStep, Shrinker};
use crate::fuzz::report::FuzzReport;
use pica_model::beat::TexelBeat;
use pica_model::regfile::RegFile;
use pica_model::tex::TexHang;
use pica_rtl_bridge::coverage::{CoverageSink, Gathered};
use pica_rtl_bridge::tex_stage::{MemLatency, Reorder, RtlTex, TexFragment, TexVariant};
use pica_vectors::stage::StageProvenance;
use pica_vectors::stage_tex::{
    load_tex_bundle, run_model, texel_diff, write_tex_bundle, TexCase, TexGen, TexOp, TexRun,
};
use std::path::{Path, PathBuf};

pub use crate::lockstep::stages::parse_tex_variant;

/// Checks tried per shrink.
pub const MAX_SHRINK_CHECKS: usize = 4_000;

/// Parameters of a TEX fuzz campaign.
pub type TexFuzzOptions = campaign::TargetOptions<TexVariant>;

/// The stages whose knobs `--target tex` applies.
pub const STAGE_KNOBS: &[&str] = &["tex"];

/// The case of `case_seed`.
pub fn generate(case_seed: u64) -> TexCase {
    TexGen::new(case_seed).case()
}

/// The model's self-check of `case` (module docs).
pub fn check_model(case: &TexCase) -> Result<(), String> {
    let run = run_model(case);
    let mut regs = RegFile::new();
    regs.set_knobs(case.knobs);
    regs.set_record_beats(false);
    let mut index = 0u64;
    let mut texels = run.texels.iter().peekable();
    for op in &case.ops {
        match *op {
            TexOp::Reg { id, value } => {
                regs.write(id & 0x3FF, value);
            }
            TexOp::Frag(_) => {
                let ranges = pica_model::tex::texture_ranges(&regs);
                while let Some(t) = texels.next_if(|t| t.cycle == index) {
                    let (a, e) = (u64::from(t.addr), u64::from(t.addr) + 1);
                    if !ranges.iter().any(|&(s, end)| a >= s && e <= end) {
                        return Err(format!(
                            "fragment {index}: texel read at 0x{:08x} (unit {}) outside every \
                             texture range {ranges:x?}",
                            t.addr, t.unit
                        ));
                    }
                }
                if let Some(c) = run.colors.get(index as usize) {
                    let cfg = regs.reg(pica_model::regs::id::TEXUNIT_CONFIG.into());
                    for (u, col) in [c.unit0, c.unit1, c.unit2].into_iter().enumerate() {
                        if cfg >> u & 1 == 0 && col != 0 {
                            return Err(format!(
                                "fragment {index}: unit {u} is disabled but gives 0x{col:08x}"
                            ));
                        }
                    }
                }
                index += 1;
            }
        }
    }
    round_trip(case, &run)
}

fn round_trip(case: &TexCase, run: &TexRun) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!(
        "pica-tex-fuzz-{}-{}",
        std::process::id(),
        format!("{:?}", std::thread::current().id()).replace(['(', ')'], "")
    ));
    write_tex_bundle(&dir, "self-check", "", case, &StageProvenance::default())
        .map_err(|e| format!("bundle: {e}"))?;
    let back = load_tex_bundle(&dir).map_err(|e| format!("bundle: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let (_, back, expected) = back?;
    if back.images != case.images || back.ops.len() != case.ops.len() {
        return Err("bundle: the operations or images read back differ".into());
    }
    if &expected != run {
        return Err("bundle: the expected colours, texels or outcome read back differ".into());
    }
    Ok(())
}

/// Fragment `i`'s tag: every tag bit toggles across a case.
pub fn tag_of(i: u32) -> u32 {
    i.wrapping_mul(0x9E37_79B9)
}

/// What the RTL did with a case.
#[derive(Debug, Default)]
pub struct RtlRun {
    /// Per fragment completed, the colours of units 0-2 (`r | g << 8 | ...`).
    pub colors: Vec<[u32; 3]>,
    /// Every texel read, `cycle` = its fragment's index.
    pub texels: Vec<TexelBeat>,
    /// The hang.
    pub hang: Option<TexHang>,
    /// Breaches of the stage contract.
    pub violations: Vec<String>,
}

/// Runs `case` on the RTL TEX stage of `variant`.
pub fn run_rtl(
    variant: TexVariant,
    latency: MemLatency,
    reorder: Reorder,
    case: &TexCase,
    cov: Option<&CoverageSink>,
) -> Result<RtlRun, String> {
    let mut rtl = RtlTex::with_reorder(variant, latency, reorder).map_err(|e| e.to_string())?;
    rtl.set_fill_limit(pica_rtl_bridge::tex_stage::fill_bound(
        case.fragments() as u64
    ));
    let mut rtl = Gathered::new(rtl, cov);
    let mut mem = case.memory();
    let mut ready = crate::fuzz::fop::OutReady::new();
    let mut results = Vec::new();
    let mut violations = Vec::new();
    let mut i = 0u32;
    'ops: for op in &case.ops {
        if rtl.hang().is_some() {
            break;
        }
        match *op {
            TexOp::Reg { id, value } => rtl.write_reg(id & 0x3FF, value, &mut mem),
            TexOp::Frag(f) => {
                let frag = pica_vectors::stage_tex::TexFrag {
                    tc0: f.tc0.map(|x| x & 0xFF_FFFF),
                    tc1: f.tc1.map(|x| x & 0xFF_FFFF),
                    tc2: f.tc2.map(|x| x & 0xFF_FFFF),
                    deriv: f.deriv.map(|d| d.map(|x| x & 0xFF_FFFF)),
                    ..f
                };
                rtl.push(TexFragment {
                    tag: tag_of(i),
                    flush: frag.flush,
                    tc0: frag.tc0,
                    tc1: frag.tc1,
                    tc2: frag.tc2,
                    deriv: frag.deriv,
                });
                i += 1;
                let mut guard = 0;
                while !rtl.can_accept() && rtl.hang().is_none() {
                    results.extend(rtl.tick(&mut mem, ready.next()));
                    guard += 1;
                    if guard > 200_000 {
                        violations.push("the input port never became ready".to_string());
                        break 'ops;
                    }
                }
            }
        }
    }
    let (rest, hang) = rtl.run(&[], &mut mem);
    results.extend(rest);
    violations.splice(0..0, rtl.violations().iter().cloned());
    let mut run = RtlRun {
        hang,
        ..RtlRun::default()
    };
    for (k, r) in results.iter().enumerate() {
        if r.tag != tag_of(k as u32) {
            violations.push(format!("result {k} carries tag {:#x} (order lost)", r.tag));
            break;
        }
        run.colors.push(r.tex.map(u32::from_le_bytes));
    }
    for f in rtl.take_fetches() {
        let Some(index) = (0..i).find(|&k| tag_of(k) == f.tag) else {
            violations.push(format!("a texel read with tag {:#x}, never sent", f.tag));
            break;
        };
        run.texels.push(pica_vectors::stage_tex::texel_beat(
            u64::from(index),
            &f.fetch,
        ));
    }
    run.violations = violations;
    Ok(run)
}

/// The first difference between the model's run and the RTL's.
pub fn compare_rtl(model: &TexRun, rtl: &RtlRun) -> Option<String> {
    if let Some(v) = rtl.violations.first() {
        return Some(format!("protocol: {v}"));
    }
    // Texel reads first: they say where a colour went wrong.
    if let Some(d) = texel_diff(&model.texels, &rtl.texels) {
        return Some(d);
    }
    for (k, (m, r)) in model.colors.iter().zip(&rtl.colors).enumerate() {
        let m3 = [m.unit0, m.unit1, m.unit2];
        if let Some(u) = (0..3).find(|&u| m3[u] != r[u]) {
            return Some(format!(
                "fragment {k}: unit {u} colour expected 0x{:08x} actual 0x{:08x}",
                m3[u], r[u]
            ));
        }
    }
    if model.colors.len() != rtl.colors.len() {
        return Some(format!(
            "{} fragments expected, {} actual",
            model.colors.len(),
            rtl.colors.len()
        ));
    }
    (model.hang != rtl.hang)
        .then(|| format!("hang: expected {:?}, actual {:?}", model.hang, rtl.hang))
}

/// The verdict on one case.
pub fn check(
    case: &TexCase,
    rtl: Option<TexVariant>,
    latency: MemLatency,
    reorder: Reorder,
    cov: Option<&CoverageSink>,
) -> Result<(), String> {
    match rtl {
        None => check_model(case).map_err(|e| format!("model: {e}")),
        Some(v) => {
            let got = run_rtl(v, latency, reorder, case, cov)?;
            compare_rtl(&run_model(case), &got).map_or(Ok(()), |d| {
                Err(format!(
                    "rtl ({}, latency {latency}, reorder {reorder}) differs: {d}",
                    v.name()
                ))
            })
        }
    }
}

/// The shrink steps of a TEX case.
pub fn shrink_steps<'t>() -> Vec<ShrinkStep<'t, TexCase>> {
    fn ops(c: &mut TexCase) -> &mut Vec<TexOp> {
        &mut c.ops
    }
    vec![
        ShrinkStep::drop_ops("fragments", ops, |o| matches!(o, TexOp::Frag(_))),
        ShrinkStep::drop_ops("register writes", ops, |o| matches!(o, TexOp::Reg { .. })),
        ShrinkStep::each_round("values", simpler_values),
        ShrinkStep::each_round("memory images", |sh| {
            campaign::zero_images(sh, |c: &mut TexCase| &mut c.images)
        }),
    ]
}

/// Simpler values: a register's nibbles, then bits; a fragment's flush flag and each lane.
fn simpler_values(sh: &mut Shrinker<'_, TexCase>) {
    fn reg_value(c: &mut TexCase, k: usize) -> Option<&mut u32> {
        let TexOp::Reg { value, .. } = &mut c.ops[k] else {
            return None;
        };
        Some(value)
    }
    for k in 0..sh.best.ops.len() {
        if !sh.clear_reg_bits(k, reg_value) {
            (0..20).for_each(|lane| {
                sh.attempt_with(|c| {
                    if let TexOp::Frag(f) = &mut c.ops[k] {
                        match lane {
                            0 => f.flush = false,
                            1..=3 => f.tc0[lane - 1] = 0,
                            4 | 5 => f.tc1[lane - 4] = 0,
                            6 | 7 => f.tc2[lane - 6] = 0,
                            l => f.deriv[(l - 8) / 4][(l - 8) % 4] = 0,
                        }
                    }
                });
            });
        }
    }
}

/// The one-line summary of a case's size.
pub fn describe(case: &TexCase) -> String {
    format!(
        "{} fragment(s), {} register write(s), {} image(s)",
        case.fragments(),
        case.reg_writes(),
        case.images.len()
    )
}

/// Writes `case` as a TEX stage bundle `dir/name`; its directory.
pub fn save_bundle(
    case: &TexCase,
    dir: &Path,
    name: &str,
    description: &str,
    prov: &StageProvenance,
) -> Result<PathBuf, String> {
    campaign::bundle_at(dir, name, |out| {
        write_tex_bundle(out, name, description, case, prov)
    })
}

/// The TEX stage as a fuzz target.
pub type TexTarget = campaign::SidePortTarget<TexVariant>;

impl_stage_target!(
    TexTarget,
    TexCase,
    "tex",
    fragments,
    [latency, reorder] + coverage,
    TexVariant::Coverage => pica_rtl_bridge::coverage::CoverageBuild::Tex,
    TEX, parse_tex_variant, RtlTex,
    |t| format!(", memory latency {}, reorder {}", t.latency, t.reorder)
);

/// Runs a campaign.
pub fn run(opts: &TexFuzzOptions, progress: impl FnMut(u64, u64, usize)) -> FuzzReport {
    campaign::run_stage(opts, progress)
}
