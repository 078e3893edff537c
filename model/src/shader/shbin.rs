//! SHBIN: the shader binary format homebrew ships (DVLB / DVLP / DVLE), read and written.
//!
//! Layout (3dbrew "SHBIN"; the byte order of every field is little-endian):
//!
//! ```text
//! DVLB  0x00 "DVLB"   0x04 N = number of DVLEs   0x08 N x u32: DVLE offsets from the file start
//! DVLP  (right after the DVLB header)
//!       0x00 "DVLP"   0x04 version   0x08 code offset   0x0C code size (words)
//!       0x10 opdesc offset   0x14 opdesc count (8-byte entries)   0x18..0x28 filename symbols
//! DVLE  0x00 "DVLE"   0x04 u16 version   0x06 u8 shader type (0 VS, 1 GS)   0x07 u8 merge outmaps
//!       0x08 entry (words)   0x0C end of the entry procedure (words)
//!       0x10 u16 input mask   0x12 u16 output mask
//!       0x14 u8 GS mode   0x15 u8 GS fixed-array start   0x16 u8 GS variable count
//!       0x17 u8 GS fixed count
//!       0x18/0x1C constant table offset / count (0x14-byte entries)
//!       0x20/0x24 label table offset / count (0x10-byte entries)
//!       0x28/0x2C output table offset / count (8-byte entries)
//!       0x30/0x34 uniform table offset / count (8-byte entries)
//!       0x38/0x3C symbol table offset / size in bytes
//! ```
//!
//! DVLP and DVLE table offsets are relative to the start of their own section.
//!
//! The writer lays a file out as picasso does (devkitPro picasso, `picasso_frontend.cpp`): the
//! DVLB header, the DVLP header, code, operand descriptors, then each DVLE as header, constants,
//! labels, outputs, uniforms, symbols, padded to a word. DVLP 0x18 holds the offset just past the
//! operand descriptors and 0x1C-0x27 are zero (picasso writes the same; 3dbrew calls these the
//! filename symbol table, which picasso never fills). Operand-descriptor entries are the 32-bit
//! descriptor and a zero word. Picasso writes an empty label table; ours holds whatever
//! [`Dvle::labels`] holds (empty by default; the assembler's `labels` option puts every
//! procedure there), so with no labels the bytes equal picasso's.
//!
//! The parser checks every magic, offset and count against the file's size and reports the
//! first problem with its byte offset; it never panics, whatever the bytes.

use core::fmt;

use crate::num::F24;

/// A parsed or assembled shader binary: one program (code + operand descriptors) and the
/// executables (DVLEs) that run it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Shbin {
    /// DVLP version word (picasso writes 0).
    pub dvlp_version: u32,
    /// The program: shader instruction words, loaded at code address 0.
    pub code: Vec<u32>,
    /// The operand-descriptor table (the low word of each 8-byte entry).
    pub opdescs: Vec<u32>,
    /// The executables, in file order.
    pub dvles: Vec<Dvle>,
}

/// One executable: an entry point into the shared program plus what a driver loads for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dvle {
    /// DVLE version halfword (picasso writes 0x1002).
    pub version: u16,
    /// Shader type byte: false = vertex shader (0), true = geometry shader (1).
    pub geometry: bool,
    /// Geometry shader: merge the vertex and geometry shader output maps.
    pub merge_outmaps: bool,
    /// Entry point (word address in [`Shbin::code`]).
    pub entry: u32,
    /// End of the entry procedure (word address, exclusive).
    pub entry_end: u32,
    /// Input registers used (bit n = v_n).
    pub input_mask: u16,
    /// Output registers written (bit n = o_n).
    pub output_mask: u16,
    /// Geometry shader mode.
    pub gsh_mode: GshMode,
    /// Fixed mode: first float uniform of the vertex array (c index).
    pub gsh_fixed_start: u8,
    /// Variable mode: number of fully defined vertices.
    pub gsh_variable_num: u8,
    /// Fixed mode: number of vertices in the array.
    pub gsh_fixed_num: u8,
    /// Uniform values to load before running (`.constf`, `.consti`, `.setf`, `.seti`, `.setb`).
    pub constants: Vec<Constant>,
    /// Named code locations (procedures, labels).
    pub labels: Vec<Label>,
    /// The output map: which output register components carry which vertex attribute.
    pub outputs: Vec<Output>,
    /// Named uniforms and inputs.
    pub uniforms: Vec<Uniform>,
}

impl Default for Dvle {
    fn default() -> Self {
        Self {
            version: PICASSO_DVLE_VERSION,
            geometry: false,
            merge_outmaps: false,
            entry: 0,
            entry_end: 0,
            input_mask: 0,
            output_mask: 0,
            gsh_mode: GshMode::Point,
            gsh_fixed_start: 0,
            gsh_variable_num: 0,
            gsh_fixed_num: 0,
            constants: Vec::new(),
            labels: Vec::new(),
            outputs: Vec::new(),
            uniforms: Vec::new(),
        }
    }
}

/// The DVLE version halfword picasso writes.
pub const PICASSO_DVLE_VERSION: u16 = 0x1002;

/// Geometry shader mode (DVLE byte 0x14; 3dbrew SHBIN, picasso `.gsh`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GshMode {
    /// Point mode (0): one input vertex per run. Also the value in every vertex shader.
    #[default]
    Point,
    /// Variable-size primitives (1, "subdivision").
    Variable,
    /// Fixed-size primitives (2, "particle").
    Fixed,
}

impl GshMode {
    /// The DVLE byte.
    pub fn byte(self) -> u8 {
        match self {
            GshMode::Point => 0,
            GshMode::Variable => 1,
            GshMode::Fixed => 2,
        }
    }
}

/// One constant-table entry: a uniform register and the value to load into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constant {
    /// Register index within its bank: b0-b15, i0-i3 or c0-c95 by [`ConstValue`].
    pub reg: u16,
    /// The value.
    pub value: ConstValue,
}

/// A constant's type and value (3dbrew: type 0 bool, 1 ivec4, 2 vec4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstValue {
    /// A boolean uniform `b<reg>`.
    Bool(bool),
    /// An integer uniform `i<reg>`: x, y, z, w.
    Int([u8; 4]),
    /// A float uniform `c<reg>`: x, y, z, w as f24.
    Float([F24; 4]),
}

/// A label-table entry (3dbrew SHBIN "Label Table Entry").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Label ID.
    pub id: u16,
    /// The halfword at 0x2 (3dbrew: "always 1?"; the assembler writes 1).
    pub unknown: u16,
    /// Word address in the code.
    pub offset: u32,
    /// Size in words (`None` is stored as 0xFFFFFFFF: a plain label, not a procedure).
    pub size: Option<u32>,
    /// The label's name (from the symbol table).
    pub name: String,
}

/// An output-table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    /// Semantic: 0 position, 1 normalquat, 2 color, 3 texcoord0, 4 texcoord0w, 5 texcoord1,
    /// 6 texcoord2, 8 view, 9 dummy (picasso `OUTTYPE_*`; 3dbrew lists 0-8).
    pub semantic: u16,
    /// Output register `o<reg>`.
    pub reg: u16,
    /// Component mask, bit 0 = x ... bit 3 = w.
    pub mask: u16,
    /// The halfword at 0x6 (unknown; picasso writes 0).
    pub unknown: u16,
}

impl Output {
    /// Picasso's name for a semantic number, if it has one.
    pub fn semantic_name(semantic: u16) -> Option<&'static str> {
        OUTPUT_SEMANTICS
            .iter()
            .find(|(_, n)| *n == semantic)
            .map(|(s, _)| *s)
    }
}

/// Output semantic names picasso accepts in `.out` and their numbers (picasso `parseOutType`;
/// the short forms `pos`, `nquat`, `clr`, `tcoord0`, `tcoord0w`, `tcoord1`, `tcoord2` are
/// accepted too). Disassembly prints the first name.
pub const OUTPUT_SEMANTICS: &[(&str, u16)] = &[
    ("position", 0),
    ("normalquat", 1),
    ("color", 2),
    ("texcoord0", 3),
    ("texcoord0w", 4),
    ("texcoord1", 5),
    ("texcoord2", 6),
    ("view", 8),
    ("dummy", 9),
    ("pos", 0),
    ("nquat", 1),
    ("clr", 2),
    ("tcoord0", 3),
    ("tcoord0w", 4),
    ("tcoord1", 5),
    ("tcoord2", 6),
];

/// A uniform-table entry: a named range of the unified register space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uniform {
    /// The uniform's name.
    pub name: String,
    /// First register (unified space: 0x00-0x0F v0-v15, 0x10-0x6F c0-c95, 0x70-0x73 i0-i3,
    /// 0x78-0x87 b0-b15; 3dbrew SHBIN).
    pub start: u16,
    /// Last register (inclusive).
    pub end: u16,
}

/// What a unified-space register index names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UniformReg {
    /// Input register v_n.
    Input(u8),
    /// Float uniform c_n.
    Float(u8),
    /// Integer uniform i_n.
    Int(u8),
    /// Boolean uniform b_n.
    Bool(u8),
    /// An index outside the documented ranges.
    Unknown(u16),
}

impl UniformReg {
    /// Decodes a unified register-space index (3dbrew SHBIN "Uniform Table Entry").
    pub fn from_index(i: u16) -> Self {
        match i {
            0x00..=0x0F => UniformReg::Input(i as u8),
            0x10..=0x6F => UniformReg::Float((i - 0x10) as u8),
            0x70..=0x73 => UniformReg::Int((i - 0x70) as u8),
            0x78..=0x87 => UniformReg::Bool((i - 0x78) as u8),
            _ => UniformReg::Unknown(i),
        }
    }
}

impl fmt::Display for UniformReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UniformReg::Input(n) => write!(f, "v{n}"),
            UniformReg::Float(n) => write!(f, "c{n}"),
            UniformReg::Int(n) => write!(f, "i{n}"),
            UniformReg::Bool(n) => write!(f, "b{n}"),
            UniformReg::Unknown(n) => write!(f, "reg(0x{n:02X})"),
        }
    }
}

impl Dvle {
    /// The label (procedure or plain label) with this name.
    pub fn label(&self, name: &str) -> Option<&Label> {
        self.labels.iter().find(|l| l.name == name)
    }

    /// The uniform with this name.
    pub fn uniform(&self, name: &str) -> Option<&Uniform> {
        self.uniforms.iter().find(|u| u.name == name)
    }

    /// The output-map entries for output register `o<reg>`.
    pub fn outputs_of(&self, reg: u16) -> impl Iterator<Item = &Output> {
        self.outputs.iter().filter(move |o| o.reg == reg)
    }

    /// The float constants as (c index, value).
    pub fn float_constants(&self) -> impl Iterator<Item = (u16, [F24; 4])> + '_ {
        self.constants.iter().filter_map(|c| match c.value {
            ConstValue::Float(v) => Some((c.reg, v)),
            _ => None,
        })
    }

    /// The integer constants as (i index, [x, y, z, w]).
    pub fn int_constants(&self) -> impl Iterator<Item = (u16, [u8; 4])> + '_ {
        self.constants.iter().filter_map(|c| match c.value {
            ConstValue::Int(v) => Some((c.reg, v)),
            _ => None,
        })
    }

    /// The boolean constants as (b index, value).
    pub fn bool_constants(&self) -> impl Iterator<Item = (u16, bool)> + '_ {
        self.constants.iter().filter_map(|c| match c.value {
            ConstValue::Bool(v) => Some((c.reg, v)),
            _ => None,
        })
    }
}

/// A SHBIN that cannot be parsed: what is wrong and the byte offset where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShbinError {
    /// Byte offset in the file.
    pub offset: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ShbinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SHBIN offset 0x{:X}: {}", self.offset, self.message)
    }
}

impl std::error::Error for ShbinError {}

fn err<T>(offset: usize, message: impl Into<String>) -> Result<T, ShbinError> {
    Err(ShbinError {
        offset,
        message: message.into(),
    })
}

const DVLB_MAGIC: &[u8; 4] = b"DVLB";
const DVLP_MAGIC: &[u8; 4] = b"DVLP";
const DVLE_MAGIC: &[u8; 4] = b"DVLE";
const DVLP_HEADER: usize = 0x28;
const DVLE_HEADER: usize = 0x40;
const CONST_ENTRY: usize = 0x14;
const LABEL_ENTRY: usize = 0x10;
const OUTPUT_ENTRY: usize = 8;
const UNIFORM_ENTRY: usize = 8;
const OPDESC_ENTRY: usize = 8;

/// Bounds-checked little-endian reads over the whole file.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn slice(&self, at: usize, len: usize, what: &str) -> Result<&[u8], ShbinError> {
        match at.checked_add(len) {
            Some(end) if end <= self.bytes.len() => Ok(&self.bytes[at..end]),
            _ => err(
                at,
                format!(
                    "{what}: needs {len} bytes but the file is {} bytes long",
                    self.bytes.len()
                ),
            ),
        }
    }

    fn u8(&self, at: usize, what: &str) -> Result<u8, ShbinError> {
        Ok(self.slice(at, 1, what)?[0])
    }

    fn u16(&self, at: usize, what: &str) -> Result<u16, ShbinError> {
        let s = self.slice(at, 2, what)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }

    fn u32(&self, at: usize, what: &str) -> Result<u32, ShbinError> {
        let s = self.slice(at, 4, what)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    fn magic(&self, at: usize, want: &[u8; 4], what: &str) -> Result<(), ShbinError> {
        let got = self.slice(at, 4, what)?;
        if got != want {
            return err(
                at,
                format!(
                    "{what}: magic is {:?}, expected {:?}",
                    String::from_utf8_lossy(got),
                    String::from_utf8_lossy(want)
                ),
            );
        }
        Ok(())
    }

    /// A table of `count` entries of `size` bytes at `base + rel`: its absolute start, checked
    /// to lie inside the file.
    fn table(
        &self,
        base: usize,
        rel: u32,
        count: u32,
        size: usize,
        what: &str,
        field_at: usize,
    ) -> Result<usize, ShbinError> {
        let start = base.checked_add(rel as usize);
        let len = (count as usize).checked_mul(size);
        match (start, len) {
            (Some(s), Some(l)) if s.checked_add(l).is_some_and(|e| e <= self.bytes.len()) => Ok(s),
            _ => err(
                field_at,
                format!(
                    "{what}: {count} entries of {size} bytes at offset 0x{rel:X} (absolute 0x{:X}) \
                     run past the end of the file ({} bytes)",
                    base.saturating_add(rel as usize),
                    self.bytes.len()
                ),
            ),
        }
    }
}

impl Shbin {
    /// Parses a SHBIN file. Every problem is reported with the byte offset of the field or data
    /// at fault; no input panics.
    pub fn parse(bytes: &[u8]) -> Result<Shbin, ShbinError> {
        let r = Reader { bytes };
        r.magic(0, DVLB_MAGIC, "DVLB header")?;
        let n = r.u32(4, "DVLB header: DVLE count")?;
        // Each DVLE needs at least its offset word and a 0x40-byte header.
        if (n as usize).saturating_mul(4 + DVLE_HEADER) > bytes.len() {
            return err(
                4,
                format!(
                    "DVLB header: {n} DVLEs cannot fit in a file of {} bytes",
                    bytes.len()
                ),
            );
        }
        let dvlp = 8 + 4 * n as usize;
        r.magic(dvlp, DVLP_MAGIC, "DVLP header")?;
        r.slice(dvlp, DVLP_HEADER, "DVLP header")?;
        let dvlp_version = r.u32(dvlp + 4, "DVLP version")?;
        let code_off = r.u32(dvlp + 8, "DVLP code offset")?;
        let code_len = r.u32(dvlp + 0xC, "DVLP code size")?;
        let code_at = r.table(dvlp, code_off, code_len, 4, "DVLP code", dvlp + 8)?;
        let code = (0..code_len as usize)
            .map(|i| r.u32(code_at + 4 * i, "code word"))
            .collect::<Result<Vec<_>, _>>()?;
        let od_off = r.u32(dvlp + 0x10, "DVLP opdesc offset")?;
        let od_len = r.u32(dvlp + 0x14, "DVLP opdesc count")?;
        let od_at = r.table(
            dvlp,
            od_off,
            od_len,
            OPDESC_ENTRY,
            "DVLP operand descriptors",
            dvlp + 0x10,
        )?;
        let opdescs = (0..od_len as usize)
            .map(|i| r.u32(od_at + OPDESC_ENTRY * i, "operand descriptor"))
            .collect::<Result<Vec<_>, _>>()?;
        let mut dvles = Vec::with_capacity(n as usize);
        for i in 0..n as usize {
            let at = r.u32(8 + 4 * i, "DVLB header: DVLE offset")? as usize;
            dvles.push(parse_dvle(&r, at, i)?);
        }
        Ok(Shbin {
            dvlp_version,
            code,
            opdescs,
            dvles,
        })
    }

    /// Writes the SHBIN file (layout in the module docs). `Shbin::parse(&s.to_bytes()) == Ok(s)`
    /// for every value whose tables fit their fields.
    pub fn to_bytes(&self) -> Vec<u8> {
        let dvle_bytes: Vec<Vec<u8>> = self.dvles.iter().map(write_dvle).collect();
        let n = self.dvles.len();
        let code_bytes = 4 * self.code.len();
        let dvlp_size = DVLP_HEADER + code_bytes + OPDESC_ENTRY * self.opdescs.len();
        let mut out = Vec::new();
        out.extend_from_slice(DVLB_MAGIC);
        put32(&mut out, n as u32);
        let mut at = 8 + 4 * n + dvlp_size;
        for d in &dvle_bytes {
            put32(&mut out, at as u32);
            at += d.len();
        }
        out.extend_from_slice(DVLP_MAGIC);
        put32(&mut out, self.dvlp_version);
        put32(&mut out, DVLP_HEADER as u32);
        put32(&mut out, self.code.len() as u32);
        put32(&mut out, (DVLP_HEADER + code_bytes) as u32);
        put32(&mut out, self.opdescs.len() as u32);
        // picasso: "offset to symtable (TODO)", then three zero words.
        put32(&mut out, dvlp_size as u32);
        put32(&mut out, 0);
        put32(&mut out, 0);
        put32(&mut out, 0);
        for w in &self.code {
            put32(&mut out, *w);
        }
        for d in &self.opdescs {
            put32(&mut out, *d);
            put32(&mut out, 0);
        }
        for d in dvle_bytes {
            out.extend_from_slice(&d);
        }
        out
    }
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn write_dvle(d: &Dvle) -> Vec<u8> {
    // Symbol table: uniform names in table order (as picasso writes them), then label names.
    let mut symbols = Vec::new();
    let mut sym_of = |name: &str| {
        let at = symbols.len() as u32;
        symbols.extend_from_slice(name.as_bytes());
        symbols.push(0);
        at
    };
    let uniform_syms: Vec<u32> = d.uniforms.iter().map(|u| sym_of(&u.name)).collect();
    let label_syms: Vec<u32> = d.labels.iter().map(|l| sym_of(&l.name)).collect();

    let const_off = DVLE_HEADER;
    let label_off = const_off + CONST_ENTRY * d.constants.len();
    let out_off = label_off + LABEL_ENTRY * d.labels.len();
    let unif_off = out_off + OUTPUT_ENTRY * d.outputs.len();
    let sym_off = unif_off + UNIFORM_ENTRY * d.uniforms.len();

    let mut o = Vec::new();
    o.extend_from_slice(DVLE_MAGIC);
    put16(&mut o, d.version);
    o.push(u8::from(d.geometry));
    o.push(u8::from(d.merge_outmaps));
    put32(&mut o, d.entry);
    put32(&mut o, d.entry_end);
    put16(&mut o, d.input_mask);
    put16(&mut o, d.output_mask);
    o.push(d.gsh_mode.byte());
    o.push(d.gsh_fixed_start);
    o.push(d.gsh_variable_num);
    o.push(d.gsh_fixed_num);
    for (off, count) in [
        (const_off, d.constants.len()),
        (label_off, d.labels.len()),
        (out_off, d.outputs.len()),
        (unif_off, d.uniforms.len()),
        (sym_off, symbols.len()),
    ] {
        put32(&mut o, off as u32);
        put32(&mut o, count as u32);
    }
    for c in &d.constants {
        // Entry: u16 type, u16 register, 16 bytes of value (picasso pads bool/int with zeros).
        let mut value = [0u8; 16];
        let ty = match c.value {
            ConstValue::Bool(b) => {
                value[0] = u8::from(b);
                0
            }
            ConstValue::Int(v) => {
                value[..4].copy_from_slice(&v);
                1
            }
            ConstValue::Float(v) => {
                for (k, f) in v.iter().enumerate() {
                    value[4 * k..4 * k + 4].copy_from_slice(&f.bits().to_le_bytes());
                }
                2
            }
        };
        put16(&mut o, ty);
        put16(&mut o, c.reg);
        o.extend_from_slice(&value);
    }
    for (l, sym) in d.labels.iter().zip(&label_syms) {
        put16(&mut o, l.id);
        put16(&mut o, l.unknown);
        put32(&mut o, l.offset);
        put32(&mut o, l.size.unwrap_or(u32::MAX));
        put32(&mut o, *sym);
    }
    for out in &d.outputs {
        put16(&mut o, out.semantic);
        put16(&mut o, out.reg);
        put16(&mut o, out.mask);
        put16(&mut o, out.unknown);
    }
    for (u, sym) in d.uniforms.iter().zip(&uniform_syms) {
        put32(&mut o, *sym);
        put16(&mut o, u.start);
        put16(&mut o, u.end);
    }
    o.extend_from_slice(&symbols);
    while o.len() % 4 != 0 {
        o.push(0);
    }
    o
}

fn parse_dvle(r: &Reader<'_>, at: usize, index: usize) -> Result<Dvle, ShbinError> {
    let what = |s: &str| format!("DVLE {index}: {s}");
    r.magic(at, DVLE_MAGIC, &what("header"))?;
    r.slice(at, DVLE_HEADER, &what("header"))?;
    let version = r.u16(at + 4, &what("version"))?;
    let geometry = match r.u8(at + 6, &what("shader type"))? {
        0 => false,
        1 => true,
        t => return err(at + 6, what(&format!("unknown shader type {t}"))),
    };
    let merge_outmaps = match r.u8(at + 7, &what("merge flag"))? {
        0 => false,
        1 => true,
        t => {
            return err(
                at + 7,
                what(&format!("merge-outmaps flag is {t}, not 0 or 1")),
            )
        }
    };
    let gsh_mode = match r.u8(at + 0x14, &what("GS mode"))? {
        0 => GshMode::Point,
        1 => GshMode::Variable,
        2 => GshMode::Fixed,
        m => {
            return err(
                at + 0x14,
                what(&format!("unknown geometry shader mode {m}")),
            )
        }
    };
    let field = |k: usize, s: &str| r.u32(at + k, &what(s));
    let sym_rel = field(0x38, "symbol table offset")?;
    let sym_len = field(0x3C, "symbol table size")?;
    let sym_at = r.table(at, sym_rel, sym_len, 1, &what("symbol table"), at + 0x38)?;
    let symbols = &r.bytes[sym_at..sym_at + sym_len as usize];
    let name_at = |off: u32, field_at: usize| -> Result<String, ShbinError> {
        let tail = symbols.get(off as usize..).unwrap_or(&[]);
        match tail.iter().position(|&b| b == 0) {
            Some(end) => Ok(String::from_utf8_lossy(&tail[..end]).into_owned()),
            None => err(
                field_at,
                what(&format!(
                    "symbol offset 0x{off:X} does not start a NUL-terminated name inside the \
                     {sym_len}-byte symbol table"
                )),
            ),
        }
    };

    let mut constants = Vec::new();
    let (rel, count) = (
        field(0x18, "constant offset")?,
        field(0x1C, "constant count")?,
    );
    let base = r.table(
        at,
        rel,
        count,
        CONST_ENTRY,
        &what("constant table"),
        at + 0x18,
    )?;
    for k in 0..count as usize {
        let e = base + CONST_ENTRY * k;
        let reg = r.u16(e + 2, &what("constant register"))?;
        let value = match r.u16(e, &what("constant type"))? {
            0 => ConstValue::Bool(r.u8(e + 4, &what("bool constant"))? != 0),
            1 => {
                let s = r.slice(e + 4, 4, &what("int constant"))?;
                ConstValue::Int([s[0], s[1], s[2], s[3]])
            }
            2 => {
                let mut v = [F24::from_bits(0); 4];
                for (j, c) in v.iter_mut().enumerate() {
                    *c = F24::from_bits(r.u32(e + 4 + 4 * j, &what("float constant"))? & 0xFF_FFFF);
                }
                ConstValue::Float(v)
            }
            t => return err(e, what(&format!("constant {k}: unknown type {t}"))),
        };
        constants.push(Constant { reg, value });
    }

    let mut labels = Vec::new();
    let (rel, count) = (field(0x20, "label offset")?, field(0x24, "label count")?);
    let base = r.table(at, rel, count, LABEL_ENTRY, &what("label table"), at + 0x20)?;
    for k in 0..count as usize {
        let e = base + LABEL_ENTRY * k;
        let size = r.u32(e + 8, &what("label size"))?;
        labels.push(Label {
            id: r.u16(e, &what("label id"))?,
            unknown: r.u16(e + 2, &what("label"))?,
            offset: r.u32(e + 4, &what("label offset"))?,
            size: (size != u32::MAX).then_some(size),
            name: name_at(r.u32(e + 12, &what("label symbol"))?, e + 12)?,
        });
    }

    let mut outputs = Vec::new();
    let (rel, count) = (field(0x28, "output offset")?, field(0x2C, "output count")?);
    let base = r.table(
        at,
        rel,
        count,
        OUTPUT_ENTRY,
        &what("output table"),
        at + 0x28,
    )?;
    for k in 0..count as usize {
        let e = base + OUTPUT_ENTRY * k;
        outputs.push(Output {
            semantic: r.u16(e, &what("output"))?,
            reg: r.u16(e + 2, &what("output"))?,
            mask: r.u16(e + 4, &what("output"))?,
            unknown: r.u16(e + 6, &what("output"))?,
        });
    }

    let mut uniforms = Vec::new();
    let (rel, count) = (
        field(0x30, "uniform offset")?,
        field(0x34, "uniform count")?,
    );
    let base = r.table(
        at,
        rel,
        count,
        UNIFORM_ENTRY,
        &what("uniform table"),
        at + 0x30,
    )?;
    for k in 0..count as usize {
        let e = base + UNIFORM_ENTRY * k;
        uniforms.push(Uniform {
            name: name_at(r.u32(e, &what("uniform symbol"))?, e)?,
            start: r.u16(e + 4, &what("uniform"))?,
            end: r.u16(e + 6, &what("uniform"))?,
        });
    }

    Ok(Dvle {
        version,
        geometry,
        merge_outmaps,
        entry: field(8, "entry")?,
        entry_end: field(0xC, "entry end")?,
        input_mask: r.u16(at + 0x10, &what("input mask"))?,
        output_mask: r.u16(at + 0x12, &what("output mask"))?,
        gsh_mode,
        gsh_fixed_start: r.u8(at + 0x15, &what("GS fixed start"))?,
        gsh_variable_num: r.u8(at + 0x16, &what("GS variable count"))?,
        gsh_fixed_num: r.u8(at + 0x17, &what("GS fixed count"))?,
        constants,
        labels,
        outputs,
        uniforms,
    })
}
