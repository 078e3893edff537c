//! Geometry shaders: a vertex shader and a geometry shader loaded the way libctru's
//! `shaderProgramConfigure` and `shaderProgramUse` (libctru `source/gpu/shaderProgram.c`)
//! write them, in their order — the geometry stage is turned on *first* (GPUREG_GEOSTAGE_CONFIG
//! = 2), and GPUREG_GSH_MISC0, GSH_MISC1, GSH_INPUTBUFFER_CONFIG and the GSH permutation come
//! after both programs and the output map, before the draw. A model that took the geometry
//! shader's input configuration when the stage turned on (issue 33) gets these lists wrong;
//! the hardware reads it at the draw (fact `gs-config-per-draw`).
//!
//! The two sources are assembled together ([`assemble_files`], as picasso links a `.v.pica`
//! and a `.g.pica` into one SHBIN): one program whose code and operand descriptors go to both
//! the VSH and the GSH block, each with its own entry point. The vertex shader must be the
//! first procedure of its file (entry 0): the builder's draw sequence writes the vertex
//! shader's entry point back into both blocks after a draw that cleared it
//! (`Builder::restore_entry`), which would overwrite the geometry shader's.

use super::outmap::OutMap;
use super::{BuildError, Builder};
use pica_model::num::F24;
use pica_model::regfile::packer::pack_f24x3;
use pica_model::regs::id;
use pica_model::shader::asm::{assemble_files, Options};
use pica_model::shader::shbin::{Dvle, GshMode};

/// The distance from a VSH-block register to its GSH-block twin (0x2B0 → 0x280).
const GSH_OFFSET: u16 = 0x30;

/// libctru's default geometry-shader input permutation (`shaderProgramSetGsh`): attribute n
/// into v_n.
pub const GS_PERMUTATION: [u32; 2] = [0x7654_3210, 0xFEDC_BA98];

/// How the geometry shader takes its input (libctru's `shaderProgramSetGsh` stride).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GsInput {
    /// Point mode: attributes per GS run (GSH_INPUTBUFFER_CONFIG bits 0-3 + 1; e.g. 6 for
    /// three vertices of position and colour). Fixed and variable modes: attributes per
    /// vertex, the vertex shader's output count when 0 (libctru's default).
    pub stride: u32,
}

/// Uniform values of one shader (its `.setb`, `.consti`, `.constf`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uniforms {
    /// Bool uniforms (bit n = bn).
    pub bools: u16,
    /// Integer uniforms i0-i3.
    pub ints: [[u8; 4]; 4],
    /// Float uniforms: (index, value).
    pub floats: Vec<(u16, [F24; 4])>,
}

impl Uniforms {
    /// The constants of an executable.
    pub fn of(d: &Dvle) -> Self {
        let mut ints = [[0; 4]; 4];
        for (i, v) in d.int_constants() {
            if let Some(w) = ints.get_mut(usize::from(i)) {
                *w = v;
            }
        }
        Self {
            bools: d
                .bool_constants()
                .filter(|&(_, on)| on)
                .fold(0, |m, (b, _)| m | (1 << (b & 15))),
            ints,
            floats: d.float_constants().collect(),
        }
    }
}

/// A vertex shader and a geometry shader as binaries, with what libctru derives from their
/// DVLEs: the input of [`Builder::geometry_setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeometryProgram<'a> {
    /// The vertex shader's code and operand descriptors (VSH block).
    pub vs_code: &'a [u32],
    /// Its operand descriptors.
    pub vs_opdescs: &'a [u32],
    /// Its entry point (must be 0, see the module docs).
    pub vs_entry: u32,
    /// GPUREG_VSH_OUTMAP_MASK: the vertex shader's enabled outputs (what the GS receives).
    pub vs_outmap_mask: u16,
    /// The vertex shader's uniforms.
    pub vs_uniforms: Uniforms,
    /// The geometry shader's code (GSH block).
    pub gs_code: &'a [u32],
    /// Its operand descriptors.
    pub gs_opdescs: &'a [u32],
    /// Its entry point.
    pub gs_entry: u32,
    /// The output map of the geometry shader's outputs (GSH_OUTMAP_MASK is its register mask).
    pub gs_map: OutMap,
    /// The geometry shader's uniforms.
    pub gs_uniforms: Uniforms,
    /// The input mode.
    pub mode: GshMode,
    /// Fixed mode: the first uniform of the vertex array.
    pub fixed_start: u8,
    /// Fixed mode: vertices per run (1-16).
    pub fixed_num: u8,
    /// Variable mode: main vertices (1-32).
    pub variable_main: u8,
    /// libctru's stride (see [`GsInput::stride`]; 0 is resolved by the caller).
    pub stride: u32,
}

impl Builder {
    /// Loads vertex shader `vs` and geometry shader `gs` (picasso sources; `gs` says
    /// `.gsh point|variable|fixed ...`), assembled together, with
    /// [`Builder::geometry_setup`]. The vertex inputs are not touched: the attribute set-up
    /// (`Builder::vertex_array`, `Builder::attrib_buffers`, and GPUREG_VSH_INPUTBUFFER_CONFIG /
    /// NUM_ATTR of the standard setup) is the application's, as in citro3d.
    pub fn geometry_program(
        &mut self,
        vs: &str,
        gs: &str,
        input: GsInput,
    ) -> Result<&mut Self, BuildError> {
        let prog = assemble_files(
            &[("gs_vs.v.pica", vs), ("gs.g.pica", gs)],
            Options::default(),
        )?
        .shbin;
        let missing = |what: &str| BuildError::NoExecutable(what.to_string());
        let vs_d = prog
            .dvles
            .iter()
            .find(|d| !d.geometry)
            .ok_or_else(|| missing("gs_vs.v.pica"))?;
        let gs_d = prog
            .dvles
            .iter()
            .find(|d| d.geometry)
            .ok_or_else(|| missing("gs.g.pica"))?;
        if vs_d.entry != 0 {
            return Err(missing(
                "gs_vs.v.pica: the vertex shader must start at word 0 (see builder::geometry)",
            ));
        }
        let vs_map = OutMap::from_dvle(vs_d)?;
        let stride = match input.stride {
            0 => vs_map.total().max(1),
            s => s,
        };
        self.geometry_setup(&GeometryProgram {
            vs_code: &prog.code,
            vs_opdescs: &prog.opdescs,
            vs_entry: vs_d.entry,
            vs_outmap_mask: vs_map.register_mask() as u16,
            vs_uniforms: Uniforms::of(vs_d),
            gs_code: &prog.code,
            gs_opdescs: &prog.opdescs,
            gs_entry: gs_d.entry,
            gs_map: OutMap::from_dvle(gs_d)?,
            gs_uniforms: Uniforms::of(gs_d),
            mode: gs_d.gsh_mode,
            fixed_start: gs_d.gsh_fixed_start,
            fixed_num: gs_d.gsh_fixed_num,
            variable_main: gs_d.gsh_variable_num,
            stride,
        });
        Ok(self)
    }

    /// Writes `p` in libctru's order:
    ///
    /// 1. GPUREG_GEOSTAGE_CONFIG bits 0-1 = 2 (byte mask 0x3), GEOSTAGE_CONFIG2 = 0 (mask 0x3),
    ///    GPUREG_VSH_COM_MODE bit 0 = 1 (mask 0x1) — "do this early in order to ensure all 4
    ///    units are correctly initialized";
    /// 2. the vertex shader into the VSH block, GPUREG_VSH_ENTRYPOINT, VSH_OUTMAP_MASK,
    ///    VSH_OUTMAP_TOTAL1 and TOTAL2 (its output count - 1);
    /// 3. the geometry shader into the GSH block, GPUREG_GSH_ENTRYPOINT, GSH_OUTMAP_MASK;
    /// 4. the geometry shader's output map: PRIMITIVE_CONFIG bits 0-3 (mask 0x1),
    ///    SH_OUTMAP_TOTAL and O0-O6, SH_OUTATTR_MODE, SH_OUTATTR_CLOCK;
    /// 5. GEOSTAGE_CONFIG bit 31 (mask 0xA) = variable mode; GSH_MISC0 ([`gsh_misc0`]);
    ///    GSH_MISC1 = main vertices - 1 (variable mode); GSH_INPUTBUFFER_CONFIG = `0x08000000 |
    ///    (mode ? 0x100 : 0) | (stride - 1)`; the GSH permutation ([`GS_PERMUTATION`]);
    /// 6. the uniforms (`shaderProgramUse`): each shader's bools, ints and floats.
    pub fn geometry_setup(&mut self, p: &GeometryProgram<'_>) -> &mut Self {
        let vs_outputs = p.vs_outmap_mask.count_ones().max(1);
        let stride = p.stride.clamp(1, 16);
        // 1. The geometry stage first.
        self.list.write_masked(id::GEOSTAGE_CONFIG, 0x3, 2);
        self.list.write_masked(id::GEOSTAGE_CONFIG2, 0x3, 0);
        self.list.write_masked(id::VSH_COM_MODE, 0x1, 1);
        // 2. The vertex shader.
        self.vsh_program(p.vs_code, p.vs_opdescs);
        self.vs_entry = p.vs_entry & 0xFFFF;
        self.entry_cleared = false;
        self.list.write(
            id::VSH_ENTRYPOINT,
            super::CLEARED_ENTRYPOINT | (p.vs_entry & 0xFFFF),
        );
        self.list
            .write(id::VSH_OUTMAP_MASK, u32::from(p.vs_outmap_mask));
        self.list.write(id::VSH_OUTMAP_TOTAL1, vs_outputs - 1);
        self.list.write(id::VSH_OUTMAP_TOTAL2, vs_outputs - 1);
        // 3. The geometry shader.
        self.gsh_program(p.gs_code, p.gs_opdescs);
        self.list.write(
            id::GSH_ENTRYPOINT,
            super::CLEARED_ENTRYPOINT | (p.gs_entry & 0xFFFF),
        );
        self.list
            .write(id::GSH_OUTMAP_MASK, p.gs_map.register_mask());
        // 4. The output map (the geometry shader's).
        let total = p.gs_map.total().max(1);
        self.list.write_masked(id::PRIMITIVE_CONFIG, 0x1, total - 1);
        let mut words = vec![total];
        words.extend(p.gs_map.words());
        self.list.write_seq(id::SH_OUTMAP_TOTAL, &words);
        self.list.write(
            id::SH_OUTATTR_MODE,
            pica_model::regs::ShOutattrMode(0)
                .with_use_texcoords(p.gs_map.uses_texcoords())
                .0,
        );
        self.list.write(id::SH_OUTATTR_CLOCK, p.gs_map.clock());
        // 5. The geometry stage's configuration, after it was turned on.
        let variable = p.mode == GshMode::Variable;
        self.list.write_masked(
            id::GEOSTAGE_CONFIG,
            0xA,
            if variable { 0x8000_0000 } else { 0 },
        );
        self.list.write(
            id::GSH_MISC0,
            gsh_misc0(p.mode, p.fixed_start, p.fixed_num, stride),
        );
        self.list.write(
            id::GSH_MISC1,
            if variable {
                u32::from(p.variable_main.clamp(1, 32)) - 1
            } else {
                0
            },
        );
        self.list.write(
            id::GSH_INPUTBUFFER_CONFIG,
            0x0800_0000 | if p.mode == GshMode::Point { 0 } else { 0x100 } | (stride - 1),
        );
        self.list
            .write_seq(id::GSH_ATTRIBUTES_PERMUTATION_LOW, &GS_PERMUTATION);
        // 6. The uniforms.
        self.uniforms(&p.vs_uniforms, 0);
        self.uniforms(&p.gs_uniforms, GSH_OFFSET);
        self
    }

    /// Program upload into the GSH block (GPUREG_GSH_CODETRANSFER_* / GSH_OPDESCS_*, the VSH
    /// registers 0x30 lower), as [`Builder::vsh_program`] does for the VSH block.
    pub fn gsh_program(&mut self, code: &[u32], opdescs: &[u32]) -> &mut Self {
        self.list.write(id::VSH_CODETRANSFER_INDEX - GSH_OFFSET, 0);
        self.list
            .write_repeat(id::VSH_CODETRANSFER_DATA0 - GSH_OFFSET, code);
        self.list.write(id::VSH_CODETRANSFER_END - GSH_OFFSET, 1);
        self.list.write(id::VSH_OPDESCS_INDEX - GSH_OFFSET, 0);
        self.list
            .write_repeat(id::VSH_OPDESCS_DATA0 - GSH_OFFSET, opdescs);
        self
    }

    /// Uniform values into a block (`off` 0: VSH, 0x30: GSH): GPUREG_xSH_BOOLUNIFORM =
    /// 0x7FFF0000 | bools, the four integer uniforms in one consecutive write, each float as
    /// FLOATUNIFORM_INDEX (f24 mode) and three words (libctru `shaderProgramUse`).
    fn uniforms(&mut self, u: &Uniforms, off: u16) {
        self.list
            .write(id::VSH_BOOLUNIFORM - off, 0x7FFF_0000 | u32::from(u.bools));
        let ints = u.ints.map(u32::from_le_bytes);
        self.list.write_seq(id::VSH_INTUNIFORM_I0 - off, &ints);
        for (c, v) in &u.floats {
            self.list.write(
                id::VSH_FLOATUNIFORM_INDEX - off,
                pica_model::regs::ShFloatuniformIndex(0)
                    .with_index(u32::from(*c))
                    .with_mode(pica_model::regs::ShFloatuniformIndexMode::F24)
                    .0,
            );
            self.list
                .write_seq(id::VSH_FLOATUNIFORM_DATA0 - off, &pack_f24x3(*v));
        }
    }
}

/// GPUREG_GSH_MISC0 as libctru writes it: the mode (0 point, 1 variable, 2 fixed); fixed mode
/// adds `0x01000000 | start << 16 | (stride - 1) << 12 | (count - 1) << 8`.
pub fn gsh_misc0(mode: GshMode, start: u8, count: u8, stride: u32) -> u32 {
    let m = u32::from(mode.byte());
    if mode != GshMode::Fixed {
        return m;
    }
    m | 0x0100_0000
        | u32::from(start) << 16
        | (stride.clamp(1, 16) - 1) << 12
        | (u32::from(count).clamp(1, 16) - 1) << 8
}
