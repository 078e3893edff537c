//! libctru's shader layer (`libctru/source/gpu/shbin.c`, `shaderProgram.c`) re-expressed in
//! Rust: a parsed SHBIN ([`Dvlb`], libctru `DVLB_s`), the output map libctru derives from a DVLE
//! ([`OutmapInfo`], `DVLE_GenerateOutmap`), a shader instance with the uniforms its constant
//! table asks for ([`ShaderInstance`], `shaderInstanceInit`), a program ([`ShaderProgram`],
//! `shaderProgram_s`) and the register writes `shaderProgramConfigure` / `shaderProgramUse`
//! emit, in their order, with their masks.
//!
//! Facts were read from devkitPro libctru (`shaderProgram.c`, `shbin.c`, `gpu.c`); the code is
//! ours.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use pica_model::cmdlist::CommandList;
use pica_model::regs::id;
use pica_model::shader::asm::{assemble_files, Options};
use pica_model::shader::shbin::{ConstValue, Dvle, GshMode, Shbin};

use super::super::BuildError;

/// Which shader block a write goes to (libctru `GPU_SHADER_TYPE`: 0 vertex, 1 geometry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderType {
    /// GPU_VERTEX_SHADER: the VSH block (0x2B0-0x2DF).
    Vertex = 0,
    /// GPU_GEOMETRY_SHADER: the GSH block (0x280-0x2AF).
    Geometry = 1,
}

impl ShaderType {
    /// The register `vsh` (an ID of the VSH block) moved to this block: libctru's
    /// `regOffset = type == GPU_GEOMETRY_SHADER ? -0x30 : 0` (`GPU_SendShaderCode`), citro3d's
    /// `GPUREG_GSH_BOOLUNIFORM - GPUREG_VSH_BOOLUNIFORM` (`C3D_UpdateUniforms`).
    pub const fn reg(self, vsh: u16) -> u16 {
        match self {
            Self::Vertex => vsh,
            Self::Geometry => vsh - 0x30,
        }
    }

    /// 0 or 1, the index of citro3d's per-type uniform arrays.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Identity of a DVLP or a program: citro3d compares pointers (`C3D_BindProgram`: `oldProg !=
/// program`, `oldProgV != newProgV`); we compare numbers handed out once per object.
fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A parsed shader binary, libctru `DVLB_s`: one program (DVLP: code + operand descriptors)
/// shared by its executables (DVLEs).
#[derive(Clone, Debug)]
pub struct Dvlb {
    /// Which DVLP this is (citro3d compares DVLP pointers to decide re-uploads).
    dvlp: u64,
    bin: Arc<Shbin>,
}

impl Dvlb {
    /// Wraps an assembled or parsed binary (`DVLB_ParseFile`).
    pub fn new(bin: Shbin) -> Self {
        Self {
            dvlp: next_id(),
            bin: Arc::new(bin),
        }
    }

    /// Assembles picasso sources into one SHBIN, one DVLE per file in order (picasso's linking
    /// model: `picasso -o x.shbin a.v.pica b.g.pica`), and wraps it.
    pub fn assemble(files: &[(&str, &str)]) -> Result<Self, BuildError> {
        let p = assemble_files(files, Options::default())?;
        Ok(Self::new(p.shbin))
    }

    /// The binary.
    pub fn shbin(&self) -> &Shbin {
        &self.bin
    }

    /// DVLE `i`.
    pub fn dvle(&self, i: usize) -> Option<&Dvle> {
        self.bin.dvles.get(i)
    }

    /// Whether two handles name the same DVLP (the pointer comparison of `C3D_BindProgram`).
    pub fn same_dvlp(&self, other: &Dvlb) -> bool {
        self.dvlp == other.dvlp
    }

    /// Code words (`DVLP_s.codeSize` of them).
    pub fn code(&self) -> &[u32] {
        &self.bin.code
    }

    /// Operand descriptors (`DVLP_s.opdescSize` of them).
    pub fn opdescs(&self) -> &[u32] {
        &self.bin.opdescs
    }
}

/// The output map libctru derives from a DVLE (`DVLE_GenerateOutmap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutmapInfo {
    /// `outmapData`: word 0 the number of output registers, words 1-7 the GPUREG_SH_OUTMAP_Oi
    /// words. Word `1 + n` belongs to output register `o<n>` (libctru indexes by register,
    /// `&dvle->outmapData[regID+1]`), so a shader whose outputs are not o0, o1, ... without
    /// gaps gets 0x1F1F1F1F words between them.
    pub data: [u32; 8],
    /// `outmapMask`: bit n = o<n> written.
    pub mask: u32,
    /// `outmapMode` (GPUREG_SH_OUTATTR_MODE): 1 when a texture coordinate is output.
    pub mode: u32,
    /// `outmapClock` (GPUREG_SH_OUTATTR_CLOCK).
    pub clock: u32,
}

impl OutmapInfo {
    /// `DVLE_GenerateOutmap`: for each output-table entry in table order, the register joins
    /// the mask (and the count) the first time it is seen; the entry's components (the set
    /// bits of its mask, x first) take consecutive semantics from the type's first one:
    /// position 0x00 (4), normalquat 0x04 (4), color 0x08 (4), texcoord0 0x0C (2), texcoord0w
    /// 0x10 (1), texcoord1 0x0E (2), texcoord2 0x16 (2), view 0x12 (3); other types are
    /// skipped (but still counted). Clock bits: position z (the third position component)
    /// bit 0, color bit 1, texcoord0 bit 8, texcoord1 bit 9, texcoord2 bit 10, texcoord0w bit
    /// 16, normalquat / view bit 24; mode 1 with any texture coordinate. An entry naming o7 or
    /// above is skipped here (libctru would write past its 8-word array).
    pub fn from_dvle(dvle: &Dvle) -> Self {
        let mut o = Self {
            data: [0x1F1F_1F1F; 8],
            mask: 0,
            mode: 0,
            clock: 0,
        };
        o.data[0] = 0;
        for e in &dvle.outputs {
            let reg = usize::from(e.reg);
            if reg > 6 {
                continue;
            }
            if o.mask & (1 << reg) == 0 {
                o.mask |= 1 << reg;
                o.data[0] += 1;
            }
            let (first, num, clock, mode) = match e.semantic {
                0 => (0x00, 4, 0, 0),
                1 => (0x04, 4, 1 << 24, 0),
                2 => (0x08, 4, 1 << 1, 0),
                3 => (0x0C, 2, 1 << 8, 1),
                4 => (0x10, 1, 1 << 16, 1),
                5 => (0x0E, 2, 1 << 9, 1),
                6 => (0x16, 2, 1 << 10, 1),
                8 => (0x12, 3, 1 << 24, 0),
                _ => continue,
            };
            o.clock |= clock;
            if mode != 0 {
                o.mode = mode;
            }
            let word = &mut o.data[reg + 1];
            let (mut sem, mut k) = (first, 0);
            for j in 0..4 {
                if k >= num {
                    break;
                }
                if e.mask & (1 << j) != 0 {
                    *word = (*word & !(0xFF << (8 * j))) | (sem << (8 * j));
                    sem += 1;
                    k += 1;
                    if e.semantic == 0 && k == 3 {
                        o.clock |= 1;
                    }
                }
            }
        }
        o
    }

    /// The number of output registers (`outmapData[0]`).
    pub fn total(&self) -> u32 {
        self.data[0]
    }
}

/// One float24 uniform of a shader's constant table, as libctru keeps it
/// (`float24Uniform_s`): the register index and the three transfer words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Float24Uniform {
    /// c index (the FLOATUNIFORM_CONFIG word: f24 mode, bit 31 clear).
    pub id: u32,
    /// The vec4 in f24 transfer packing.
    pub data: [u32; 3],
}

impl Float24Uniform {
    /// `shaderInstanceInit`'s packing of a DVLE float constant: the four 24-bit values laid
    /// out x, y, z, w from the lowest byte of a 12-byte buffer, read back as three
    /// little-endian words, sent highest word first (`data[0] = rev[2]`).
    pub fn from_f24_bits(id: u16, xyzw: [u32; 4]) -> Self {
        let mut bytes = [0u8; 12];
        for (k, v) in xyzw.iter().enumerate() {
            bytes[3 * k..3 * k + 3].copy_from_slice(&v.to_le_bytes()[..3]);
        }
        let word = |k: usize| {
            u32::from_le_bytes([
                bytes[4 * k],
                bytes[4 * k + 1],
                bytes[4 * k + 2],
                bytes[4 * k + 3],
            ])
        };
        Self {
            id: u32::from(id & 0xFF),
            data: [word(2), word(1), word(0)],
        }
    }

    /// The four words citro3d and libctru send with one consecutive write from
    /// GPUREG_xSH_FLOATUNIFORM_INDEX (`GPUCMD_AddIncrementalWrites(..., (u32*)u, 4)`).
    pub fn words(&self) -> [u32; 4] {
        [self.id, self.data[0], self.data[1], self.data[2]]
    }
}

/// A shader instance, libctru `shaderInstance_s`: one DVLE of a [`Dvlb`] plus the uniform
/// values its constant table sets (`shaderInstanceInit`).
#[derive(Clone, Debug)]
pub struct ShaderInstance {
    dvlb: Dvlb,
    index: usize,
    dvle: Dvle,
    /// `boolUniforms`: bit n = b<n>.
    pub bool_uniforms: u16,
    /// `boolUniformMask`: the booleans the constant table sets.
    pub bool_mask: u16,
    /// `intUniforms` (x | y << 8 | z << 16 | w << 24).
    pub int_uniforms: [u32; 4],
    /// `intUniformMask`.
    pub int_mask: u8,
    /// `float24Uniforms`, in constant-table order.
    pub float24: Vec<Float24Uniform>,
}

impl ShaderInstance {
    /// `shaderInstanceInit(si, &dvlb->DVLE[index])`: walks the constant table in order —
    /// booleans set their bit and mask bit (`shaderInstanceSetBool`), integer constants for
    /// i0-i3 set their value and mask bit, float constants become [`Float24Uniform`]s.
    pub fn new(dvlb: &Dvlb, index: usize) -> Result<Self, BuildError> {
        let dvle = dvlb
            .dvle(index)
            .cloned()
            .ok_or_else(|| BuildError::NoExecutable(format!("DVLE {index}")))?;
        let mut si = Self {
            dvlb: dvlb.clone(),
            index,
            dvle,
            bool_uniforms: 0,
            bool_mask: 0,
            int_uniforms: [0; 4],
            int_mask: 0,
            float24: Vec::new(),
        };
        for c in si.dvle.constants.clone() {
            match c.value {
                ConstValue::Bool(v) => si.set_bool(c.reg, v),
                ConstValue::Int(v) if c.reg < 4 => {
                    si.int_uniforms[usize::from(c.reg)] = u32::from_le_bytes(v);
                    si.int_mask |= 1 << c.reg;
                }
                ConstValue::Int(_) => {}
                ConstValue::Float(v) => si
                    .float24
                    .push(Float24Uniform::from_f24_bits(c.reg, v.map(|f| f.bits()))),
            }
        }
        Ok(si)
    }

    /// `shaderInstanceSetBool`: ids above 15 are refused (nothing changes).
    pub fn set_bool(&mut self, id: u16, value: bool) {
        if id > 15 {
            return;
        }
        self.bool_uniforms = (self.bool_uniforms & !(1 << id)) | (u16::from(value) << id);
        self.bool_mask |= 1 << id;
    }

    /// The DVLE.
    pub fn dvle(&self) -> &Dvle {
        &self.dvle
    }

    /// The binary the DVLE belongs to.
    pub fn dvlb(&self) -> &Dvlb {
        &self.dvlb
    }

    /// Index of the DVLE in its binary.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The shader type of the DVLE.
    pub fn ty(&self) -> ShaderType {
        if self.dvle.geometry {
            ShaderType::Geometry
        } else {
            ShaderType::Vertex
        }
    }

    /// `shaderInstanceGetUniformLocation`: the register of a named uniform in citro3d's
    /// numbering (`startReg - 0x10`: floats 0-95, integers 0x60-0x63, booleans 0x68-0x77).
    pub fn uniform_location(&self, name: &str) -> Option<u16> {
        self.dvle
            .uniform(name)
            .and_then(|u| u.start.checked_sub(0x10))
    }
}

/// A shader program, libctru `shaderProgram_s`: a vertex shader and an optional geometry
/// shader with its input stride and permutation.
#[derive(Clone, Debug)]
pub struct ShaderProgram {
    /// Identity (citro3d compares program pointers).
    id: u64,
    /// The vertex shader.
    pub vsh: ShaderInstance,
    /// The geometry shader.
    pub gsh: Option<ShaderInstance>,
    /// `geoShaderInputPermutation` (low, high).
    pub gsh_permutation: [u32; 2],
    /// `geoShaderInputStride` (0: the vertex shader's output count).
    pub gsh_stride: u8,
}

impl ShaderProgram {
    /// `shaderProgramInit` + `shaderProgramSetVsh(&sp, &dvlb->DVLE[index])`. A DVLE that is
    /// not a vertex shader is refused as libctru refuses it.
    pub fn new(dvlb: &Dvlb, index: usize) -> Result<Self, BuildError> {
        let vsh = ShaderInstance::new(dvlb, index)?;
        if vsh.ty() != ShaderType::Vertex {
            return Err(BuildError::NoExecutable(format!(
                "DVLE {index} is not a vertex shader"
            )));
        }
        Ok(Self {
            id: next_id(),
            vsh,
            gsh: None,
            gsh_permutation: [0, 0],
            gsh_stride: 0,
        })
    }

    /// `shaderProgramSetGsh(&sp, &dvlb->DVLE[index], stride)`: the permutation starts as the
    /// identity (0x76543210, 0xFEDCBA98).
    pub fn set_gsh(&mut self, dvlb: &Dvlb, index: usize, stride: u8) -> Result<(), BuildError> {
        let gsh = ShaderInstance::new(dvlb, index)?;
        if gsh.ty() != ShaderType::Geometry {
            return Err(BuildError::NoExecutable(format!(
                "DVLE {index} is not a geometry shader"
            )));
        }
        self.gsh = Some(gsh);
        self.gsh_permutation = [0x7654_3210, 0xFEDC_BA98];
        self.gsh_stride = stride;
        Ok(())
    }

    /// `shaderProgramSetGshInputPermutation`.
    pub fn set_gsh_permutation(&mut self, permutation: u64) {
        if self.gsh.is_some() {
            self.gsh_permutation = [permutation as u32, (permutation >> 32) as u32];
        }
    }

    /// Whether `other` is this same program (the pointer comparison of `C3D_BindProgram`).
    pub fn same(&self, other: &ShaderProgram) -> bool {
        self.id == other.id
    }
}

/// libctru `GPU_SendShaderCode`: GPUREG_xSH_CODETRANSFER_INDEX = `offset`, the words through
/// GPUREG_xSH_CODETRANSFER_DATA0 in repeated-ID commands of at most 0x80 words, then
/// GPUREG_xSH_CODETRANSFER_END = 1.
pub fn send_shader_code(list: &mut CommandList, ty: ShaderType, code: &[u32], offset: u16) {
    list.write(ty.reg(id::VSH_CODETRANSFER_INDEX), u32::from(offset));
    for chunk in code.chunks(0x80) {
        list.write_repeat(ty.reg(id::VSH_CODETRANSFER_DATA0), chunk);
    }
    list.write(ty.reg(id::VSH_CODETRANSFER_END), 1);
}

/// libctru `GPU_SendOperandDescriptors`: GPUREG_xSH_OPDESCS_INDEX = `offset`, then all
/// descriptors through GPUREG_xSH_OPDESCS_DATA0 in one repeated-ID write (split at 256 words
/// by `GPUCMD_Add` like any command).
pub fn send_operand_descriptors(
    list: &mut CommandList,
    ty: ShaderType,
    opdescs: &[u32],
    offset: u16,
) {
    list.write(ty.reg(id::VSH_OPDESCS_INDEX), u32::from(offset));
    list.write_repeat(ty.reg(id::VSH_OPDESCS_DATA0), opdescs);
}

/// `shaderProgramUploadDvle`: the DVLP's code (a vertex shader's limited to its first 512
/// words) then its operand descriptors, to the block of the DVLE's type.
fn upload_dvle(list: &mut CommandList, si: &ShaderInstance) {
    let ty = si.ty();
    let code = si.dvlb.code();
    let code = match ty {
        ShaderType::Vertex => &code[..code.len().min(512)],
        ShaderType::Geometry => code,
    };
    send_shader_code(list, ty, code, 0);
    send_operand_descriptors(list, ty, si.dvlb.opdescs(), 0);
}

/// libctru `shaderProgramMergeOutmaps`: the attributes both shaders output (the same map
/// word) first, then the geometry shader's own, then the vertex shader's own; each list stops
/// at its first unused (0x1F1F1F1F) word.
fn merge_outmaps(vsh: &[u32; 8], gsh: &[u32; 8]) -> [u32; 8] {
    let mut out = [0x1F1F_1F1F; 8];
    out[0] = 0;
    let push = |out: &mut [u32; 8], w: u32| {
        let n = out[0] as usize + 1;
        if n < 8 {
            out[0] += 1;
            out[n] = w;
        }
    };
    let (mut vsh_common, mut gsh_common) = (0u32, 0u32);
    for (i, &m) in gsh.iter().enumerate().skip(1) {
        if m == 0x1F1F_1F1F {
            break;
        }
        if let Some(j) = (1..8).find(|&j| vsh[j] == m) {
            push(&mut out, m);
            vsh_common |= 1 << j;
            gsh_common |= 1 << i;
        }
    }
    for (i, &m) in gsh.iter().enumerate().skip(1) {
        if m == 0x1F1F_1F1F {
            break;
        }
        if gsh_common & (1 << i) == 0 {
            push(&mut out, m);
        }
    }
    for (i, &m) in vsh.iter().enumerate().skip(1) {
        if m == 0x1F1F_1F1F {
            break;
        }
        if vsh_common & (1 << i) == 0 {
            push(&mut out, m);
        }
    }
    out
}

/// libctru `GPU_SetShaderOutmap`: GPUREG_PRIMITIVE_CONFIG byte 0 (mask 0x1) = registers - 1,
/// then GPUREG_SH_OUTMAP_TOTAL and O0-O6 in one consecutive write of eight words.
fn set_shader_outmap(list: &mut CommandList, data: &[u32; 8]) {
    list.write_masked(id::PRIMITIVE_CONFIG, 0x1, data[0].wrapping_sub(1));
    list.write_seq(id::SH_OUTMAP_TOTAL, data);
}

/// libctru `shaderProgramConfigure(sp, sendVshCode, sendGshCode)`, write for write:
///
/// 1. GPUREG_GEOSTAGE_CONFIG byte mask 0x3 = 2 with a geometry shader, else 0;
///    GPUREG_GEOSTAGE_CONFIG2 mask 0x3 = 0; GPUREG_VSH_COM_MODE mask 0x1 = 1 with a geometry
///    shader, else 0 ("do this early in order to ensure all 4 units are correctly
///    initialized");
/// 2. the vertex shader's code and descriptors if `send_vsh_code`;
/// 3. GPUREG_VSH_ENTRYPOINT = 0x7FFF0000 | main, GPUREG_VSH_OUTMAP_MASK, VSH_OUTMAP_TOTAL1 and
///    TOTAL2 = the vertex shader's output count - 1;
/// 4. with a geometry shader: its code if `send_gsh_code`, GPUREG_GSH_ENTRYPOINT,
///    GPUREG_GSH_OUTMAP_MASK;
/// 5. the output map of the geometry shader if there is one (else the vertex shader's),
///    merged with the vertex shader's when the GS DVLE asks for it ([`set_shader_outmap`]),
///    GPUREG_SH_OUTATTR_MODE, GPUREG_SH_OUTATTR_CLOCK;
/// 6. with a geometry shader: GPUREG_GEOSTAGE_CONFIG mask 0xA = 0x80000000 for variable-size
///    primitives (else 0), GPUREG_GSH_MISC0 = the mode (fixed: | 0x01000000 | start << 16 |
///    (stride - 1) << 12 | (count - 1) << 8), GPUREG_GSH_MISC1 = main vertices - 1 (variable
///    mode, else 0), GPUREG_GSH_INPUTBUFFER_CONFIG = 0x08000000 | (mode != point ? 0x100 : 0)
///    | (stride - 1), the GS permutation (one consecutive write of two words); without one:
///    GEOSTAGE_CONFIG mask 0xA = 0, GSH_MISC0 = 0, GSH_MISC1 = 0, GSH_INPUTBUFFER_CONFIG =
///    0xA0000000.
///
/// The stride is the program's (`shaderProgramSetGsh`) or, when 0, the vertex shader's output
/// count.
pub fn shader_program_configure(
    list: &mut CommandList,
    sp: &ShaderProgram,
    send_vsh_code: bool,
    send_gsh_code: bool,
) {
    let vsh = &sp.vsh;
    let gsh = sp.gsh.as_ref();
    let vsh_out = OutmapInfo::from_dvle(vsh.dvle());
    let gsh_out = gsh.map(|g| OutmapInfo::from_dvle(g.dvle()));
    let main_out = gsh_out.unwrap_or(vsh_out);
    let has_gs = gsh.is_some();

    list.write_masked(id::GEOSTAGE_CONFIG, 0x3, if has_gs { 2 } else { 0 });
    list.write_masked(id::GEOSTAGE_CONFIG2, 0x3, 0);
    list.write_masked(id::VSH_COM_MODE, 0x1, u32::from(has_gs));

    if send_vsh_code {
        upload_dvle(list, vsh);
    }
    list.write(
        id::VSH_ENTRYPOINT,
        0x7FFF_0000 | (vsh.dvle().entry & 0xFFFF),
    );
    list.write(id::VSH_OUTMAP_MASK, vsh_out.mask);
    list.write(id::VSH_OUTMAP_TOTAL1, vsh_out.total().wrapping_sub(1));
    list.write(id::VSH_OUTMAP_TOTAL2, vsh_out.total().wrapping_sub(1));

    if let (Some(g), Some(go)) = (gsh, gsh_out.as_ref()) {
        if send_gsh_code {
            upload_dvle(list, g);
        }
        list.write(id::GSH_ENTRYPOINT, 0x7FFF_0000 | (g.dvle().entry & 0xFFFF));
        list.write(id::GSH_OUTMAP_MASK, go.mask);
    }

    let (data, mode, clock) = match (gsh, gsh_out) {
        (Some(g), Some(go)) if g.dvle().merge_outmaps => (
            merge_outmaps(&vsh_out.data, &go.data),
            go.mode | vsh_out.mode,
            go.clock | vsh_out.clock,
        ),
        _ => (main_out.data, main_out.mode, main_out.clock),
    };
    set_shader_outmap(list, &data);
    list.write(id::SH_OUTATTR_MODE, mode);
    list.write(id::SH_OUTATTR_CLOCK, clock);

    match gsh {
        Some(g) => {
            let d = g.dvle();
            let stride = if sp.gsh_stride != 0 {
                u32::from(sp.gsh_stride)
            } else {
                vsh_out.total()
            };
            let variable = d.gsh_mode == GshMode::Variable;
            list.write_masked(
                id::GEOSTAGE_CONFIG,
                0xA,
                if variable { 0x8000_0000 } else { 0 },
            );
            let mut misc = u32::from(d.gsh_mode.byte());
            if d.gsh_mode == GshMode::Fixed {
                misc |= 0x0100_0000
                    | u32::from(d.gsh_fixed_start) << 16
                    | (stride.wrapping_sub(1) & 0xF) << 12
                    | (u32::from(d.gsh_fixed_num).wrapping_sub(1) & 0xF) << 8;
            }
            list.write(id::GSH_MISC0, misc);
            list.write(
                id::GSH_MISC1,
                if variable {
                    u32::from(d.gsh_variable_num).wrapping_sub(1)
                } else {
                    0
                },
            );
            let to_uniforms = if d.gsh_mode != GshMode::Point {
                0x100
            } else {
                0
            };
            list.write(
                id::GSH_INPUTBUFFER_CONFIG,
                0x0800_0000 | to_uniforms | stride.wrapping_sub(1),
            );
            list.write_seq(id::GSH_ATTRIBUTES_PERMUTATION_LOW, &sp.gsh_permutation);
        }
        None => {
            list.write_masked(id::GEOSTAGE_CONFIG, 0xA, 0);
            list.write(id::GSH_MISC0, 0);
            list.write(id::GSH_MISC1, 0);
            list.write(id::GSH_INPUTBUFFER_CONFIG, 0xA000_0000);
        }
    }
}

/// libctru `shaderProgramUse`: [`shader_program_configure`] with both code uploads, then the
/// vertex shader's uniforms — GPUREG_VSH_BOOLUNIFORM = 0x7FFF0000 | booleans, the four
/// integer uniforms in one consecutive write from GPUREG_VSH_INTUNIFORM_I0, each float24
/// constant as a consecutive write of four words from GPUREG_VSH_FLOATUNIFORM_INDEX — and the
/// same for the geometry shader in the GSH block.
pub fn shader_program_use(list: &mut CommandList, sp: &ShaderProgram) {
    shader_program_configure(list, sp, true, true);
    let mut uniforms = |si: &ShaderInstance, ty: ShaderType| {
        list.write(
            ty.reg(id::VSH_BOOLUNIFORM),
            0x7FFF_0000 | u32::from(si.bool_uniforms),
        );
        list.write_seq(ty.reg(id::VSH_INTUNIFORM_I0), &si.int_uniforms);
        for u in &si.float24 {
            list.write_seq(ty.reg(id::VSH_FLOATUNIFORM_INDEX), &u.words());
        }
    };
    uniforms(&sp.vsh, ShaderType::Vertex);
    if let Some(g) = &sp.gsh {
        uniforms(g, ShaderType::Geometry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::num::F24;
    use pica_model::regfile::packer::pack_f24x3;
    use pica_model::shader::shbin::Output;

    #[test]
    fn driver_float24_constant_packing_is_the_transfer_packing() {
        let v = [0x3F_0000, 0xBF_0000, 0x3E_8000, 0x12_3456];
        let u = Float24Uniform::from_f24_bits(7, v);
        assert_eq!(u.data, pack_f24x3(v.map(F24::from_bits)));
        assert_eq!(u.words()[0], 7);
    }

    #[test]
    fn driver_outmap_is_indexed_by_register() {
        let out = |semantic, reg, mask| Output {
            semantic,
            reg,
            mask,
            unknown: 0,
        };
        // position o0.xyzw, texcoord0 o2.xy, color o1: o2's word is word 3 whatever the order.
        let dvle = Dvle {
            outputs: vec![out(0, 0, 0xF), out(3, 2, 0x3), out(2, 1, 0xF)],
            ..Dvle::default()
        };
        let o = OutmapInfo::from_dvle(&dvle);
        assert_eq!(o.total(), 3);
        assert_eq!(o.mask, 0b111);
        assert_eq!(
            o.data[..4],
            [3, 0x0302_0100, 0x0B0A_0908, 0x1F1F_0D0C],
            "words follow the register numbers"
        );
        assert_eq!(o.clock, 1 | 2 | 1 << 8);
        assert_eq!(o.mode, 1);
        // A gap: o0 and o2 only leave word 2 (o1) unused but count two registers.
        let gap = Dvle {
            outputs: vec![out(0, 0, 0xF), out(2, 2, 0xF)],
            ..Dvle::default()
        };
        let g = OutmapInfo::from_dvle(&gap);
        assert_eq!(g.total(), 2);
        assert_eq!(g.data[2], 0x1F1F_1F1F);
        assert_eq!(g.data[3], 0x0B0A_0908);
    }

    /// Decodes a list into (header id, mask, parameter count, consecutive) per command.
    fn commands(words: &[u32]) -> Vec<(u16, u8, usize, bool)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i + 1 < words.len() {
            let h = pica_model::cmdheader::CommandHeader::decode(words[i + 1]);
            let n = usize::from(h.extra) + 1;
            out.push((h.id, h.mask, n, h.consecutive));
            i += 1 + n;
            i += i % 2;
        }
        out
    }

    #[test]
    fn driver_shader_code_goes_in_chunks_of_0x80_words() {
        let mut l = CommandList::new();
        let code: Vec<u32> = (0..300).collect();
        send_shader_code(&mut l, ShaderType::Geometry, &code, 0);
        assert_eq!(
            commands(l.words()),
            [
                (id::GSH_CODETRANSFER_INDEX, 0xF, 1, false),
                (id::GSH_CODETRANSFER_DATA0, 0xF, 0x80, false),
                (id::GSH_CODETRANSFER_DATA0, 0xF, 0x80, false),
                (id::GSH_CODETRANSFER_DATA0, 0xF, 300 - 0x100, false),
                (id::GSH_CODETRANSFER_END, 0xF, 1, false),
            ]
        );
    }

    #[test]
    fn driver_shader_program_use_uniform_order() {
        let vsh = ".fvec m\n.constf k(1.0, 2.0, 3.0, 4.0)\n.consti n(3, 0, 1, 0)\n.setb b2 true\n\
                   .out o position\n.in v v0\n.proc main\n mov o, v\n end\n.end\n";
        let gsh = ".gsh point c0\n.constf g(0.5, 0.5, 0.5, 0.5)\n.out o position\n.entry gmain\n\
                   .proc gmain\n setemit 0, prim\n mov o, v0\n emit\n end\n.end\n";
        let dvlb = Dvlb::assemble(&[("a.v.pica", vsh), ("a.g.pica", gsh)]).unwrap();
        let mut sp = ShaderProgram::new(&dvlb, 0).unwrap();
        sp.set_gsh(&dvlb, 1, 3).unwrap();
        let mut l = CommandList::new();
        shader_program_use(&mut l, &sp);
        let c = commands(l.words());
        // shaderProgramConfigure opens with the three geometry-stage writes.
        assert_eq!(
            c[..3],
            [
                (id::GEOSTAGE_CONFIG, 0x3, 1, false),
                (id::GEOSTAGE_CONFIG2, 0x3, 1, false),
                (id::VSH_COM_MODE, 0x1, 1, false),
            ]
        );
        // ... and ends, for a point GS of stride 3, with the permutation; then the uniforms:
        // VSH bool, the four VSH integers in one consecutive write, the VSH float constant as
        // four consecutive words, the same for the GSH block.
        let tail: Vec<_> = c[c.len() - 8..].to_vec();
        assert_eq!(
            tail,
            [
                (id::GSH_INPUTBUFFER_CONFIG, 0xF, 1, false),
                (id::GSH_ATTRIBUTES_PERMUTATION_LOW, 0xF, 2, true),
                (id::VSH_BOOLUNIFORM, 0xF, 1, false),
                (id::VSH_INTUNIFORM_I0, 0xF, 4, true),
                (id::VSH_FLOATUNIFORM_INDEX, 0xF, 4, true),
                (id::GSH_BOOLUNIFORM, 0xF, 1, false),
                (id::GSH_INTUNIFORM_I0, 0xF, 4, true),
                (id::GSH_FLOATUNIFORM_INDEX, 0xF, 4, true),
            ]
        );
        let w = l.words();
        // The bool word: 0x7FFF0000 | b2; the integer constant i3 = (3, 0, 1, 0).
        assert!(w
            .windows(2)
            .any(|p| p == [0x7FFF_0004, 0x000F_0000 | u32::from(id::VSH_BOOLUNIFORM)]));
        assert!(w.contains(&0x0001_0003));
        assert!(
            w.contains(&(0x0800_0000 | 2)),
            "GSH_INPUTBUFFER_CONFIG: GS in use, stride 3"
        );
    }

    #[test]
    fn driver_merge_outmaps_common_then_gs_then_vs() {
        let mut v = [0x1F1F_1F1F; 8];
        let mut g = [0x1F1F_1F1F; 8];
        (v[0], v[1], v[2], v[3]) = (3, 0x0302_0100, 0x0B0A_0908, 0x1F1F_0D0C);
        (g[0], g[1], g[2]) = (2, 0x0302_0100, 0x0706_0504);
        let m = merge_outmaps(&v, &g);
        assert_eq!(
            m[..5],
            [4, 0x0302_0100, 0x0706_0504, 0x0B0A_0908, 0x1F1F_0D0C]
        );
    }
}
