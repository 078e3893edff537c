//! `pica fuzz --rtl-stages sh`: random shader programs as vertex shaders of a whole model
//! GPU, run once on the model alone and once with the SH stage in RTL (`pica_sh_top`, four
//! units), compared transaction-exact by [`stages::stage_lockstep`].
//!
//! Case `i` of seed `S` takes the program, operand descriptors, uniforms and inputs of
//! [`generate_low`]`(`[`case_seed`]`(S, i))` (the shader-unit fuzzer's generator without its
//! relocated main, whose code at 0x200 and above would meet the prologue) and wraps them
//! in a command list ([`pipeline_case`]): program and descriptor upload, uniforms, 16 input
//! attributes through a random one-to-one permutation, the output map of
//! [`full_outmap`] into a 32×32 framebuffer, and an immediate-mode draw of 3-6 vertices whose
//! attributes are the generated inputs rotated by the vertex number.
//!
//! A third of the cases are **geometry-shader cases** ([`GsDraw`]): the generated program runs
//! as the GS on unit 3 (as generated: it runs every invocation on the one unit, so it needs no
//! prologue, and its EMITs stay) in point, fixed or variable mode, behind a pass-through
//! vertex shader of one to four outputs, set up in libctru's order (GEOSTAGE_CONFIG = 2 first,
//! GSH_MISC0 / GSH_MISC1 / GSH_INPUTBUFFER_CONFIG after it: `Builder::geometry_setup`) and drawn
//! through an index buffer — in variable mode with each primitive's vertex count (0-4) before
//! its indices, sometimes ending mid-primitive. So the SH stage in RTL must read the GS
//! configuration at the draw (VL's Begin marker) and take the counts (count markers).
//!
//! The program is made **unit-independent** first ([`unit_independent`]): a unit keeps its
//! registers from one vertex to the next, and which unit takes a vertex is timing, which the
//! RTL does not share with the model, so a program that reads a register before writing it
//! would legitimately differ. Cases whose model run does not finish (cycle limit: a program
//! that never reaches END) are skipped and counted; shader hangs are compared like any other
//! outcome. A failure is shrunk with the shader generator's shrinker (the one step of
//! [`ShStageTarget`]'s, in the campaign's loop: fewest
//! instructions, then simpler descriptors, inputs and uniforms, the draw unchanged) and saved
//! twice under the regressions directory: the case bundle `fuzz-sh-stage-<variant>-<seed>/`
//! (replay with `pica lockstep --rtl-stages sh --bundle DIR`) and the shader-unit stage
//! bundle of its program `…-unit/` (replay one unit with `scripts/replay`).

use crate::fuzz::campaign::{self, plan_of, Check, Labels, MutRng, Probe, ShrinkStep, Shrinker};
use crate::fuzz::report::FuzzReport;
use crate::fuzz::shader::save_bundle_with;
use crate::lockstep::stages::{self, StageLockstepOptions, StageOptions, StageSet};
use pica_model::regs::{AttribFormatType, AttribbufferComponent, PrimitiveConfigMode};
use pica_model::shader::isa::{encode, CmpOp, DstReg, Instruction, Opcode, RelIndex, SrcReg};
use pica_model::shader::shbin::GshMode;
use pica_model::Outcome;
use pica_rtl_bridge::coverage::{CoverageBuild, CoverageSink};
use pica_rtl_bridge::fop_stage::MemLatency;
use pica_rtl_bridge::shader::ShVariant;
use pica_vectors::builder::attrs::full_outmap;
use pica_vectors::builder::geometry::{GeometryProgram, Uniforms};
use pica_vectors::builder::{
    AttribBuffer, AttribFormat, AttribLayout, Clear, FbConfig, DATA_BASE, IDENTITY_PERMUTATION,
};
use pica_vectors::bundle::write_bundle;
use pica_vectors::case::Case;
use pica_vectors::shader_gen::{generate_low, shrink, Rng, ShaderCase, IDENTITY_DESC};
use pica_vectors::stage::StageProvenance;
use pica_vectors::Builder;
use std::path::{Path, PathBuf};

/// Code address of the unit-independence prologue ([`generate_low`]'s programs end below it).
pub const PROLOGUE: usize = 0x200;

/// The operand descriptor the prologue uses (identity, mask xyzw); the program's own
/// descriptor 127 is replaced.
const PROLOGUE_DESC: u8 = 127;

/// Cycle limit of the model's run of one case; the mixed run gets
/// [`stages::MIXED_CYCLE_FACTOR`] times as many. A case the model does not finish within it
/// (a program that never reaches END runs through the zero words into the prologue, which
/// jumps back to 0) is skipped.
pub const CASE_MAX_CYCLES: u64 = 400_000;

/// Parameters of a `--rtl-stages sh` campaign.
#[derive(Clone, Debug)]
pub struct StageFuzzOptions {
    /// Cases in the whole campaign (all shards).
    pub cases: u64,
    /// Campaign seed.
    pub seed: u64,
    /// This shard's index and the shard count.
    pub shard: (u64, u64),
    /// The stages in RTL: `sh` (the SH stage top alone) or `fe,sh` (the whole `pica_top`).
    pub set: StageSet,
    /// The RTL SH build (default, or an injected bug).
    pub variant: ShVariant,
    /// How an RTL FOP stage's memory port is answered (when the set holds `fop`).
    pub mem_latency: MemLatency,
    /// Where shrunk failures are written (`None`: not written).
    pub regressions: Option<PathBuf>,
    /// Stop after this many failures.
    pub max_failures: usize,
    /// The knobs every case runs with (`--knob`; the RTL stages must follow them,
    /// [`stages::check_knobs`]); saved case bundles record them.
    pub knobs: pica_model::knobs::Knobs,
    /// Where the RTL coverage build's counters go (`--rtl-coverage`): each case's model hands
    /// them over when it is dropped.
    pub coverage: Option<CoverageSink>,
}

/// How a case draws: fixed by the case seed, kept while the program shrinks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    /// Vertices in the immediate-mode draw.
    pub vertices: usize,
    /// Primitive mode.
    pub mode: PrimitiveConfigMode,
    /// A one-to-one attribute → input-register permutation (GPUREG_VSH_ATTRIBUTES_PERMUTATION).
    pub permutation: u64,
    /// The CMP of the prologue (x and y comparisons, raw 0-7).
    pub cmp: (u32, u32),
    /// A geometry-shader case: the program runs as the GS (`None`: as the VS).
    pub gs: Option<GsDraw>,
}

/// How a geometry-shader case draws (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GsDraw {
    /// The input mode.
    pub mode: GshMode,
    /// Outputs of the pass-through vertex shader (1-4): the attributes each vertex gives the GS.
    pub vs_outputs: u32,
    /// Point mode: GS inputs per run (1-16).
    pub point_inputs: u32,
    /// Fixed mode: first uniform (0-95) and vertices per run (1-4).
    pub fixed: (u8, u8),
    /// Variable mode: main vertices (1-4).
    pub main: u8,
    /// The index buffer (u8): vertex indices, and in variable mode the counts before them.
    pub indices: Vec<u8>,
    /// Vertices in the vertex array.
    pub vertices: u8,
}

impl GsDraw {
    fn of(r: &mut Rng) -> Self {
        let mode = r.pick(&[GshMode::Point, GshMode::Fixed, GshMode::Variable]);
        let vs_outputs = 1 + r.below(4) as u32;
        let vertices = 3 + r.below(6) as u8;
        let mut indices = Vec::new();
        if mode == GshMode::Variable {
            // Counts 0-4 before their primitives; the draw may end mid-primitive.
            let prims = 1 + r.below(3);
            for _ in 0..prims {
                let n = if r.below(8) == 0 {
                    0
                } else {
                    1 + r.below(4) as u8
                };
                indices.push(n);
                let n = if r.below(6) == 0 {
                    n.saturating_sub(1)
                } else {
                    n
                };
                for _ in 0..n {
                    indices.push(r.below(u64::from(vertices)) as u8);
                }
            }
        } else {
            for _ in 0..3 + r.below(7) {
                indices.push(r.below(u64::from(vertices)) as u8);
            }
        }
        let start = if r.below(5) == 0 {
            90 + r.below(6)
        } else {
            r.below(60)
        } as u8;
        Self {
            mode,
            vs_outputs,
            point_inputs: vs_outputs * (1 + r.below(3) as u32),
            fixed: (start, 1 + r.below(4) as u8),
            main: 1 + r.below(4) as u8,
            indices,
            vertices,
        }
    }
}

impl Draw {
    /// The draw of `seed`.
    pub fn of(seed: u64) -> Self {
        let mut r = Rng(seed ^ 0x5EED_D4A7);
        let mut regs: Vec<u64> = (0..16).collect();
        for i in (1..16).rev() {
            regs.swap(i, r.below(i as u64 + 1) as usize);
        }
        let permutation = regs
            .iter()
            .enumerate()
            .fold(0, |p, (n, &v)| p | v << (4 * n));
        let vertices = 3 + r.below(4) as usize;
        let mode = r.pick(&[
            PrimitiveConfigMode::Triangles,
            PrimitiveConfigMode::TriangleStrip,
            PrimitiveConfigMode::TriangleFan,
        ]);
        let cmp = (r.below(8) as u32, r.below(8) as u32);
        let gs = (r.below(3) == 0).then(|| GsDraw::of(&mut r));
        Self {
            vertices,
            mode,
            permutation,
            cmp,
            gs,
        }
    }
}

/// The program of `case` made independent of the unit that runs it: a prologue at
/// [`PROLOGUE`] (the entry point) sets r0-r15 from c0-c15, o0-o15 from c16-c31, a0 from c40,
/// the flags by a CMP of c41 with r0 and aL by a one-instruction LOOP on i0, then jumps to the
/// program's entry (JMPU on b0 both ways, so the jump does not depend on the flags); EMIT
/// becomes NOP (a vertex shader's EMIT swaps the output bank, which persists). Every input
/// register is written by the draw (16 attributes, one-to-one permutation), so with these a
/// vertex's results depend on its own inputs only.
pub fn unit_independent(case: &ShaderCase, cmp: (u32, u32)) -> ShaderCase {
    let mut c = case.clone();
    let emit = encode(&Instruction::Plain(Opcode::Emit));
    let nop = encode(&Instruction::Plain(Opcode::Nop));
    c.code.truncate(PROLOGUE);
    for w in c.code.iter_mut().filter(|w| **w == emit) {
        *w = nop;
    }
    c.code.resize(PROLOGUE, 0);
    c.opdescs.resize(128, 0);
    c.opdescs[usize::from(PROLOGUE_DESC)] = IDENTITY_DESC;
    let alu = |op: Opcode, dst: u8, src1: u8| {
        encode(&Instruction::Alu {
            op,
            dst: DstReg::from_raw(dst),
            src1: SrcReg::from_raw(src1),
            src2: SrcReg::default(),
            idx: RelIndex::None,
            desc: PROLOGUE_DESC,
        })
    };
    for n in 0..16u8 {
        c.code.push(alu(Opcode::Mov, 0x10 + n, 0x20 + n));
        c.code.push(alu(Opcode::Mov, n, 0x20 + 16 + n));
    }
    c.code.push(alu(Opcode::Mova, 0, 0x20 + 40));
    c.code.push(encode(&Instruction::Cmp {
        src1: SrcReg::from_raw(0x20 + 41),
        src2: SrcReg::from_raw(0x10),
        idx: RelIndex::None,
        cmp_x: CmpOp::from_bits(cmp.0),
        cmp_y: CmpOp::from_bits(cmp.1),
        desc: PROLOGUE_DESC,
    }));
    // LOOP i0 over the next word: aL = i0.y + (i0.x + 1) * i0.z afterwards.
    let at = c.code.len();
    c.code.push(encode(&Instruction::FlowUniform {
        op: Opcode::Loop,
        id: 0,
        target: (at + 1) as u16,
        num: 0,
    }));
    c.code.push(nop);
    for num in [0, 1] {
        c.code.push(encode(&Instruction::FlowUniform {
            op: Opcode::Jmpu,
            id: 0,
            target: case.entry,
            num,
        }));
    }
    c.entry = PROLOGUE as u16;
    c
}

/// The pass-through vertex shader of the GS cases: o0-o3 = v0-v3 (descriptor 0: xyzw, no
/// swizzle), END; every output it enables is written from the vertex's own inputs.
fn gs_case_vs() -> (Vec<u32>, Vec<u32>) {
    let mov = |o: u8| {
        encode(&Instruction::Alu {
            op: Opcode::Mov,
            dst: DstReg::from_raw(o),
            src1: SrcReg::from_raw(o),
            src2: SrcReg::default(),
            idx: RelIndex::None,
            desc: 0,
        })
    };
    let mut code: Vec<u32> = (0..4).map(mov).collect();
    code.push(encode(&Instruction::Plain(Opcode::End)));
    (code, vec![IDENTITY_DESC])
}

/// The command list of a geometry-shader case: `case`'s program as the GS of `gs`.
fn gs_pipeline_case(case: &ShaderCase, gs: &GsDraw, name: &str) -> Result<Case, String> {
    let mut b = Builder::standard(FbConfig::new(32, 32), Clear::color([0, 0, 0, 0xFF]))
        .map_err(|e| format!("{name}: {e}"))?;
    b.max_cycles(CASE_MAX_CYCLES);
    // The application's attribute set-up: four float x4 attributes.
    b.vs_inputs(4, IDENTITY_PERMUTATION);
    let (vs_code, vs_desc) = gs_case_vs();
    let stride = match gs.mode {
        GshMode::Point => gs.point_inputs,
        _ => gs.vs_outputs,
    };
    b.geometry_setup(&GeometryProgram {
        vs_code: &vs_code,
        vs_opdescs: &vs_desc,
        vs_entry: 0,
        vs_outmap_mask: (1u16 << gs.vs_outputs) - 1,
        vs_uniforms: Uniforms::default(),
        gs_code: &case.code,
        gs_opdescs: &case.opdescs,
        gs_entry: u32::from(case.entry),
        gs_map: full_outmap(),
        gs_uniforms: Uniforms {
            bools: case.bool_uniforms,
            ints: case.int_uniforms,
            floats: case
                .float_uniforms
                .iter()
                .enumerate()
                .map(|(i, v)| (i as u16, *v))
                .collect(),
        },
        mode: gs.mode,
        fixed_start: gs.fixed.0,
        fixed_num: gs.fixed.1,
        variable_main: gs.main,
        stride,
    });
    // Vertex k's attribute a is input (a + k) % 16 of the case.
    let floats: Vec<f32> = (0..usize::from(gs.vertices))
        .flat_map(|k| {
            (0..4).flat_map(move |a| case.inputs[(a + k) % 16].map(|x| x.to_f64() as f32))
        })
        .collect();
    let addr = b.alloc_f32(&floats);
    b.attrib_buffers(&AttribLayout {
        base: DATA_BASE,
        formats: vec![
            AttribFormat {
                ty: AttribFormatType::Float,
                components: 4
            };
            4
        ],
        fixed_mask: 0xFF0,
        buffers: vec![AttribBuffer {
            offset: addr - DATA_BASE,
            components: vec![
                AttribbufferComponent::Attribute0,
                AttribbufferComponent::Attribute1,
                AttribbufferComponent::Attribute2,
                AttribbufferComponent::Attribute3,
            ],
        }],
        permutation: IDENTITY_PERMUTATION,
    });
    let ib = b.index_buffer_u8(&gs.indices);
    b.draw_elements(PrimitiveConfigMode::GeometryPrimitive, &ib);
    let scene = b
        .finish(name, "pica fuzz --rtl-stages sh geometry-shader case")
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(scene.case)
}

/// The command list of one case: `case`'s program made unit-independent, drawn by `draw` (or,
/// for a GS case, as the geometry shader: [`gs_pipeline_case`]).
pub fn pipeline_case(case: &ShaderCase, draw: &Draw, name: &str) -> Result<Case, String> {
    if let Some(gs) = &draw.gs {
        return gs_pipeline_case(case, gs, name);
    }
    let prog = unit_independent(case, draw.cmp);
    let mut b = Builder::standard(FbConfig::new(32, 32), Clear::color([0, 0, 0, 0xFF]))
        .map_err(|e| format!("{name}: {e}"))?;
    b.max_cycles(CASE_MAX_CYCLES);
    b.vsh_program(&prog.code, &prog.opdescs);
    b.vsh_float_uniforms(0, &prog.float_uniforms);
    for (i, v) in prog.int_uniforms.iter().enumerate() {
        b.vsh_int_uniform(i as u16, *v);
    }
    b.vsh_bool_uniforms(prog.bool_uniforms);
    b.vsh_entry(u32::from(prog.entry));
    b.output_map(&full_outmap());
    b.vs_inputs(16, draw.permutation);
    b.immediate_begin(draw.mode);
    for k in 0..draw.vertices {
        let attrs: Vec<[f32; 4]> = (0..16)
            .map(|a| prog.inputs[(a + k) % 16].map(|x| x.to_f64() as f32))
            .collect();
        b.immediate_vertex(&attrs);
    }
    b.immediate_end();
    let scene = b
        .finish(name, "pica fuzz --rtl-stages sh case")
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(scene.case)
}

/// What one case did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Model and mixed GPU agree.
    Pass,
    /// The model alone does not finish: not compared.
    Skipped,
    /// They differ: the first line of the stage report.
    Fail(String),
}

/// The stage set of this fuzzer by default: SH in RTL (`fe,sh` puts the front end in RTL too:
/// the whole `pica_top`, CP -> REGS -> SH).
pub fn sh_only() -> StageSet {
    // "sh" is a row of the stage table: parsing cannot fail.
    StageSet::parse("sh").unwrap_or_default()
}

/// Runs one case (`case`'s program drawn by `draw`) on the model alone and with the stages of
/// `set` (which include SH) in RTL.
pub fn check(
    case: &ShaderCase,
    draw: &Draw,
    set: &StageSet,
    variant: ShVariant,
    mem_latency: MemLatency,
) -> Verdict {
    check_with(
        case,
        draw,
        set,
        variant,
        mem_latency,
        &pica_model::knobs::Knobs::default(),
        None,
    )
}

/// [`check`] with the model (alone and around the RTL stages) running with `knobs`; a coverage
/// build's counters go to `cov`.
pub fn check_with(
    case: &ShaderCase,
    draw: &Draw,
    set: &StageSet,
    variant: ShVariant,
    mem_latency: MemLatency,
    knobs: &pica_model::knobs::Knobs,
    cov: Option<&CoverageSink>,
) -> Verdict {
    let c = match pipeline_case(case, draw, "fuzz/sh_stage") {
        Ok(mut c) => {
            c.knobs = *knobs;
            c
        }
        Err(e) => return Verdict::Fail(format!("cannot build the case: {e}")),
    };
    match c.run_model() {
        Ok(run) if matches!(run.outcome, Outcome::CycleLimit { .. }) => return Verdict::Skipped,
        Ok(_) => {}
        Err(e) => return Verdict::Fail(e.to_string()),
    }
    let opts = StageLockstepOptions {
        stage: StageOptions {
            sh_variant: variant,
            mem_latency,
            coverage: cov.cloned(),
            ..StageOptions::default()
        },
        ..StageLockstepOptions::default()
    };
    match stages::stage_lockstep(&c, set, &opts) {
        Ok(r) if r.is_equal() => Verdict::Pass,
        Ok(r) => Verdict::Fail(
            stages::text_report(&r)
                .lines()
                .next()
                .unwrap_or("stage lockstep mismatch")
                .to_string(),
        ),
        Err(e) => Verdict::Fail(format!("stage run: {e}")),
    }
}

/// A case: the generated program and how it is drawn (both of one case seed; shrinking
/// changes the program only).
#[derive(Clone, Debug, PartialEq)]
pub struct ShStageCase {
    /// The program (as generated: [`pipeline_case`] makes it unit-independent).
    pub program: ShaderCase,
    /// The draw.
    pub draw: Draw,
}

/// The SH stage in the whole GPU as a fuzz target ([`campaign::StageTarget`]): its
/// generator (the shader-unit fuzzer's program and a [`Draw`]), its verdict (which may skip a
/// case the model alone does not finish), the shader generator's shrinker as its one step and
/// its two bundles.
#[derive(Clone, Debug)]
pub struct ShStageTarget {
    /// The stages in RTL: `sh` or `fe,sh`.
    pub set: StageSet,
    /// The RTL SH build.
    pub variant: ShVariant,
    /// How an RTL FOP stage's memory port is answered (when the set holds `fop`).
    pub mem_latency: MemLatency,
    /// The knobs every case runs with.
    pub knobs: pica_model::knobs::Knobs,
    /// Where the RTL coverage build's counters go (`None`: not gathered).
    pub coverage: Option<CoverageSink>,
}

impl ShStageTarget {
    /// The target of a campaign's options.
    pub fn of(opts: &StageFuzzOptions) -> Self {
        Self {
            set: opts.set.clone(),
            variant: opts.variant,
            mem_latency: opts.mem_latency,
            knobs: opts.knobs,
            coverage: opts.coverage.clone(),
        }
    }
}

impl campaign::StageTarget for ShStageTarget {
    type Case = ShStageCase;

    fn labels(&self) -> Labels {
        let kind = self.variant.name();
        Labels {
            against: format!("shader:stage:{kind}"),
            origin: format!("pica fuzz --rtl-stages sh (against {kind})"),
            prefix: format!("fuzz-sh-stage-{kind}"),
        }
    }

    fn generate(&self, case_seed: u64) -> ShStageCase {
        ShStageCase {
            program: generate_low(case_seed),
            draw: Draw::of(case_seed),
        }
    }

    fn check(&self, case: &ShStageCase) -> Check {
        let v = check_with(
            &case.program,
            &case.draw,
            &self.set,
            self.variant,
            self.mem_latency,
            &self.knobs,
            self.coverage.as_ref(),
        );
        match v {
            Verdict::Pass => Check::Pass,
            Verdict::Skipped => Check::Skipped,
            Verdict::Fail(m) => Check::Fail(m),
        }
    }

    /// The generator's shrinker keeps its own budget.
    fn shrink_budget(&self) -> usize {
        usize::MAX
    }

    /// One step, once: the shader generator's shrinker on the program (fewest instructions,
    /// then simpler descriptors, inputs and uniforms), the draw unchanged.
    fn shrink_steps(&self, _case: &ShStageCase) -> Vec<ShrinkStep<'_, ShStageCase>> {
        vec![ShrinkStep::once(
            "program",
            |sh: &mut Shrinker<'_, ShStageCase>| {
                let best = sh.best.clone();
                let msg = sh.message.clone();
                let (program, message) = shrink(&best.program, msg, |p| {
                    sh.fails(&ShStageCase {
                        program: p.clone(),
                        draw: best.draw.clone(),
                    })
                });
                sh.best.program = program;
                sh.message = message;
            },
        )]
    }

    fn size(case: &ShStageCase) -> usize {
        case.program.instructions()
    }

    fn describe(case: &ShStageCase) -> String {
        format!("{} instruction(s)", case.program.instructions())
    }

    /// The stage lockstep's first line is the report's message as it is.
    fn report_message(_case: &ShStageCase, message: &str, _how: &str) -> String {
        message.to_string()
    }

    /// One of: the program's code from a random word on taken from the donor's (same
    /// addresses, so jumps keep their targets' meaning), the donor's inputs, the donor's
    /// uniforms; the draw stays the case's.
    fn mutate(
        &self,
        case: &ShStageCase,
        donor: &ShStageCase,
        rng: &mut MutRng,
    ) -> Option<ShStageCase> {
        let mut c = case.clone();
        let (p, d) = (&mut c.program, &donor.program);
        match rng.below(3) {
            0 => {
                let cut = rng.below(p.code.len().max(d.code.len()) + 1);
                p.code.truncate(cut);
                p.code.extend(d.code.iter().skip(cut).copied());
            }
            1 => p.inputs = d.inputs,
            _ => {
                p.float_uniforms.clone_from(&d.float_uniforms);
                p.int_uniforms = d.int_uniforms;
                p.bool_uniforms = d.bool_uniforms;
            }
        }
        Some(c)
    }

    fn coverage_probe(&self, sink: &CoverageSink) -> Option<Probe<Self>> {
        let mut t = self.clone();
        t.coverage = Some(sink.clone());
        if self.variant == ShVariant::Coverage {
            return Some(Probe::Itself(t));
        }
        t.variant = ShVariant::Coverage;
        Some(Probe::Beside(t))
    }

    fn coverage_build(&self) -> Option<CoverageBuild> {
        Some(CoverageBuild::Sh)
    }

    /// The case bundle and the shader-unit stage bundle of its program; the case bundle's
    /// path.
    fn save_bundle(
        &self,
        case: &ShStageCase,
        dir: &Path,
        name: &str,
        description: &str,
        prov: &StageProvenance,
    ) -> Result<PathBuf, String> {
        save(case, dir, name, description, prov, &self.knobs)
    }
}

/// Writes the case bundle and the shader-unit stage bundle of `s` (`description`: the
/// campaign's, `shrunk fuzz failure: MESSAGE`); returns the case bundle's path.
fn save(
    s: &ShStageCase,
    dir: &Path,
    name: &str,
    description: &str,
    prov: &StageProvenance,
    knobs: &pica_model::knobs::Knobs,
) -> Result<PathBuf, String> {
    let mut case = pipeline_case(&s.program, &s.draw, &format!("fuzz/{name}"))?;
    case.knobs = *knobs;
    case.description = description.replacen("fuzz failure", "pica fuzz --rtl-stages sh failure", 1);
    case.seed = prov.case_seed;
    let run = case.run_model().map_err(|e| e.to_string())?;
    let out = dir.join(name);
    write_bundle(&out, &case, &run, &crate::generator())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    // The program alone, for one unit: what a unit replay (scripts/replay) checks (a GS
    // case's program as it ran on unit 3).
    let unit = match s.draw.gs {
        Some(_) => s.program.clone(),
        None => unit_independent(&s.program, s.draw.cmp),
    };
    save_bundle_with(
        &unit,
        dir,
        &format!("{name}-unit"),
        &format!("program of {name}"),
        knobs.shader,
        prov,
    )?;
    Ok(out)
}

/// Runs a campaign ([`campaign::run_target_with_skips`]); `progress` is called after each
/// case with (done, total for this shard, failures so far). `cases_run` counts the compared
/// cases, `skipped` (in the returned pair) those the model did not finish.
pub fn run(opts: &StageFuzzOptions, progress: impl FnMut(u64, u64, usize)) -> (FuzzReport, u64) {
    campaign::run_target_with_skips(&ShStageTarget::of(opts), plan_of!(opts), progress)
}
