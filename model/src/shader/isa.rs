//! The PICA200 shader instruction set: the one opcode table, the instruction formats, a total
//! [`decode`] and its inverse [`encode`], operand descriptors and the register namespaces.
//!
//! Source of every layout here: pica-facts §1 "Instruction word" (3dbrew
//! GPU/Shader_Instruction_Set). The opcode table [`OPCODES`] names each opcode once, with its
//! mnemonic, [`Format`] and operand [`Role`]s; the assembler, disassembler and interpreter all read
//! it.
//!
//! Round trip: for every word `w`, `decode(w)` succeeds, and `encode(&decode(w)) == w &
//! used_mask(w)` — bits a format does not define are dropped (see [`used_mask`]); unknown
//! opcodes keep the whole word ([`Instruction::Unknown`]).

use core::fmt;

/// An instruction word layout (pica-facts §1 "Field layouts").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// No operands (BREAK, NOP, END, EMIT).
    F0,
    /// DESC 0:7, SRC2 7:5, SRC1 12:7, IDX 19:2 (SRC1), DST 21:5.
    F1,
    /// DESC 0:7, SRC2 7:7, SRC1 14:5, IDX 19:2 (SRC2), DST 21:5: the wide source is second.
    F1i,
    /// DESC 0:7, SRC1 12:7, IDX 19:2, DST 21:5: one source.
    F1u,
    /// DESC 0:7, SRC2 7:5, SRC1 12:7, IDX 19:2, CMPY 21:3, CMPX 24:3, 5-bit opcode 27:5.
    F1c,
    /// NUM 0:8, DST 10:12, CONDOP 22:2, REFY 24:1, REFX 25:1.
    F2,
    /// NUM 0:8, DST 10:12, ID 22:4 (bool uniform; an int uniform uses 22:2).
    F3,
    /// WINDING 22:1, PRIMEMIT 23:1, VTXID 24:2.
    F4,
    /// DESC 0:5, SRC3 5:5, SRC2 10:7, SRC1 17:5, IDX 22:2 (SRC2), DST 24:5, 3-bit opcode 29:3.
    F5,
    /// DESC 0:5, SRC3 5:7, SRC2 12:5, SRC1 17:5, IDX 22:2 (SRC3), DST 24:5, 3-bit opcode 29:3.
    F5i,
}

impl Format {
    /// The format's name as pica-facts writes it (`"1i"`, `"5"`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Self::F0 => "0",
            Self::F1 => "1",
            Self::F1i => "1i",
            Self::F1u => "1u",
            Self::F1c => "1c",
            Self::F2 => "2",
            Self::F3 => "3",
            Self::F4 => "4",
            Self::F5 => "5",
            Self::F5i => "5i",
        }
    }

    /// The bits of a word this format defines (opcode bits included).
    pub const fn used_mask(self) -> u32 {
        let fields = self.fields();
        let mut m = fields::OPCODE.mask();
        let mut i = 0;
        while i < fields.len() {
            m |= fields[i].mask();
            i += 1;
        }
        m
    }

    /// Width in bits of source `n` (1-3) in this format; 0 if the format has no such source.
    pub const fn src_width(self, n: usize) -> u32 {
        match (self, n) {
            (Self::F1 | Self::F1c, 1) | (Self::F1u, 1) => 7,
            (Self::F1 | Self::F1c, 2) => 5,
            (Self::F1i, 1) => 5,
            (Self::F1i, 2) => 7,
            (Self::F5, 1) | (Self::F5, 3) => 5,
            (Self::F5, 2) => 7,
            (Self::F5i, 1) | (Self::F5i, 2) => 5,
            (Self::F5i, 3) => 7,
            _ => 0,
        }
    }

    /// Which source (1-3) the IDX field (relative addressing) applies to, if the format has one.
    pub const fn relative_src(self) -> Option<usize> {
        match self {
            Self::F1 | Self::F1u | Self::F1c => Some(1),
            Self::F1i | Self::F5 => Some(2),
            Self::F5i => Some(3),
            _ => None,
        }
    }

    /// The format's operand fields, low to high (the opcode field excluded: 6 bits at 26 for
    /// every format, and also [`fields::F1C_OPCODE`] / [`fields::F5_OPCODE`] for 1c and 5/5i).
    pub const fn fields(self) -> &'static [BitField] {
        use fields::*;
        match self {
            Self::F0 => &[],
            Self::F1 => &[F1_DESC, F1_SRC2, F1_SRC1, F1_IDX, F1_DST],
            Self::F1i => &[F1_DESC, F1I_SRC2, F1I_SRC1, F1_IDX, F1_DST],
            Self::F1u => &[F1_DESC, F1_SRC1, F1_IDX, F1_DST],
            Self::F1c => &[F1_DESC, F1_SRC2, F1_SRC1, F1_IDX, F1C_CMPY, F1C_CMPX],
            Self::F2 => &[F2_NUM, F2_DST, F2_CONDOP, F2_REFY, F2_REFX],
            Self::F3 => &[F2_NUM, F2_DST, F3_ID],
            Self::F4 => &[F4_WINDING, F4_PRIMEMIT, F4_VTXID],
            Self::F5 => &[F5_DESC, F5_SRC3, F5_SRC2, F5_SRC1, F5_IDX, F5_DST],
            Self::F5i => &[F5_DESC, F5I_SRC3, F5I_SRC2, F5_SRC1, F5_IDX, F5_DST],
        }
    }

    /// The bits that select the opcode in this format: the 6-bit code, except CMP (5 bits:
    /// its low code bit is CMPX's top bit) and MAD/MADI (3 bits: the rest is DST).
    pub const fn opcode_field(self) -> BitField {
        match self {
            Self::F1c => fields::F1C_OPCODE,
            Self::F5 | Self::F5i => fields::F5_OPCODE,
            _ => fields::OPCODE,
        }
    }

    /// Every format, in declaration order.
    pub const ALL: [Format; 10] = [
        Self::F0,
        Self::F1,
        Self::F1i,
        Self::F1u,
        Self::F1c,
        Self::F2,
        Self::F3,
        Self::F4,
        Self::F5,
        Self::F5i,
    ];

    /// Width of the operand-descriptor index (7, or 5 for MAD/MADI; 0 without one).
    pub const fn desc_width(self) -> u32 {
        match self {
            Self::F1 | Self::F1i | Self::F1u | Self::F1c => 7,
            Self::F5 | Self::F5i => 5,
            _ => 0,
        }
    }
}

const fn mask(offset: u32, width: u32) -> u32 {
    (((1u64 << width) - 1) as u32) << offset
}

const fn field(word: u32, offset: u32, width: u32) -> u32 {
    (word >> offset) & (((1u64 << width) - 1) as u32)
}

const fn put(value: u32, offset: u32, width: u32) -> u32 {
    (value & (((1u64 << width) - 1) as u32)) << offset
}

/// One bit field of an instruction word or operand descriptor: its name in the generated
/// SystemVerilog package (`pica gen rtl` → `pica_isa_pkg.sv`), lowest bit and width.
///
/// Every field position of the ISA is one of these constants ([`fields`]); [`decode`],
/// [`encode`], [`OpDesc`] and the generated package all read them, so a position is written
/// down once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitField {
    /// Upper-snake name (`SRC1`, `CMPX`).
    pub name: &'static str,
    /// Lowest bit.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
}

impl BitField {
    const fn new(name: &'static str, lsb: u32, width: u32) -> Self {
        Self { name, lsb, width }
    }
    /// The field's value in `word`.
    pub const fn get(self, word: u32) -> u32 {
        field(word, self.lsb, self.width)
    }
    /// `value` masked to the width and moved into place.
    pub const fn put(self, value: u32) -> u32 {
        put(value, self.lsb, self.width)
    }
    /// The field's bits as a mask.
    pub const fn mask(self) -> u32 {
        mask(self.lsb, self.width)
    }
}

/// Every field position of the instruction formats and the operand descriptor (pica-facts §1
/// "Field layouts" and "Operand descriptors"; 3dbrew GPU/Shader_Instruction_Set).
pub mod fields {
    use super::BitField;

    /// The 6-bit opcode of every format (bits 26-31).
    pub const OPCODE: BitField = BitField::new("OPCODE", 26, 6);

    /// Format 1 (and 1u, which has no SRC2): operand-descriptor index.
    pub const F1_DESC: BitField = BitField::new("DESC", 0, 7);
    /// Format 1/1u/1c: the narrow second source (v/r).
    pub const F1_SRC2: BitField = BitField::new("SRC2", 7, 5);
    /// Format 1/1u/1c: the wide first source (v/r/c).
    pub const F1_SRC1: BitField = BitField::new("SRC1", 12, 7);
    /// Formats 1, 1i, 1u, 1c: relative-addressing index (applies to the wide source).
    pub const F1_IDX: BitField = BitField::new("IDX", 19, 2);
    /// Formats 1, 1i, 1u: destination (o/r).
    pub const F1_DST: BitField = BitField::new("DST", 21, 5);
    /// Format 1i: the wide second source.
    pub const F1I_SRC2: BitField = BitField::new("SRC2", 7, 7);
    /// Format 1i: the narrow first source.
    pub const F1I_SRC1: BitField = BitField::new("SRC1", 14, 5);
    /// Format 1c: comparison for cmp.y.
    pub const F1C_CMPY: BitField = BitField::new("CMPY", 21, 3);
    /// Format 1c: comparison for cmp.x.
    pub const F1C_CMPX: BitField = BitField::new("CMPX", 24, 3);
    /// Format 1c: the 5-bit opcode (CMP spans codes 0x2E-0x2F).
    pub const F1C_OPCODE: BitField = BitField::new("OPCODE5", 27, 5);

    /// Formats 2 and 3: length (words after the target, or the skip count).
    pub const F2_NUM: BitField = BitField::new("NUM", 0, 8);
    /// Formats 2 and 3: target word address.
    pub const F2_DST: BitField = BitField::new("DST", 10, 12);
    /// Format 2: condition operator.
    pub const F2_CONDOP: BitField = BitField::new("CONDOP", 22, 2);
    /// Format 2: reference value for cmp.y.
    pub const F2_REFY: BitField = BitField::new("REFY", 24, 1);
    /// Format 2: reference value for cmp.x.
    pub const F2_REFX: BitField = BitField::new("REFX", 25, 1);
    /// Format 3: bool uniform (4 bits) or integer uniform (low 2 bits).
    pub const F3_ID: BitField = BitField::new("ID", 22, 4);

    /// Format 4: winding flag.
    pub const F4_WINDING: BitField = BitField::new("WINDING", 22, 1);
    /// Format 4: primitive-emit flag.
    pub const F4_PRIMEMIT: BitField = BitField::new("PRIMEMIT", 23, 1);
    /// Format 4: vertex slot.
    pub const F4_VTXID: BitField = BitField::new("VTXID", 24, 2);

    /// Formats 5/5i: operand-descriptor index (5 bits: MAD reaches descriptors 0-31).
    pub const F5_DESC: BitField = BitField::new("DESC", 0, 5);
    /// Format 5: narrow third source.
    pub const F5_SRC3: BitField = BitField::new("SRC3", 5, 5);
    /// Format 5: wide second source.
    pub const F5_SRC2: BitField = BitField::new("SRC2", 10, 7);
    /// Formats 5/5i: first source (narrow).
    pub const F5_SRC1: BitField = BitField::new("SRC1", 17, 5);
    /// Formats 5/5i: relative-addressing index.
    pub const F5_IDX: BitField = BitField::new("IDX", 22, 2);
    /// Formats 5/5i: destination.
    pub const F5_DST: BitField = BitField::new("DST", 24, 5);
    /// Formats 5/5i: the 3-bit opcode (MAD 0x38-0x3F, MADI 0x30-0x37).
    pub const F5_OPCODE: BitField = BitField::new("OPCODE3", 29, 3);
    /// Format 5i: wide third source.
    pub const F5I_SRC3: BitField = BitField::new("SRC3", 5, 7);
    /// Format 5i: narrow second source.
    pub const F5I_SRC2: BitField = BitField::new("SRC2", 12, 5);

    /// Operand descriptor: destination write mask (bit 3 = x .. bit 0 = w).
    pub const DESC_MASK: BitField = BitField::new("MASK", 0, 4);
    /// Operand descriptor: negate SRC1.
    pub const DESC_NEG1: BitField = BitField::new("NEG1", 4, 1);
    /// Operand descriptor: swizzle of SRC1 (2 bits per lane, lane x in bits 7:6 of the field).
    pub const DESC_SWZ1: BitField = BitField::new("SWZ1", 5, 8);
    /// Operand descriptor: negate SRC2.
    pub const DESC_NEG2: BitField = BitField::new("NEG2", 13, 1);
    /// Operand descriptor: swizzle of SRC2.
    pub const DESC_SWZ2: BitField = BitField::new("SWZ2", 14, 8);
    /// Operand descriptor: negate SRC3.
    pub const DESC_NEG3: BitField = BitField::new("NEG3", 22, 1);
    /// Operand descriptor: swizzle of SRC3.
    pub const DESC_SWZ3: BitField = BitField::new("SWZ3", 23, 8);
    /// The operand descriptor's fields, low to high.
    pub const DESC: [BitField; 7] = [
        DESC_MASK, DESC_NEG1, DESC_SWZ1, DESC_NEG2, DESC_SWZ2, DESC_NEG3, DESC_SWZ3,
    ];
}

/// What an operand of an instruction is, in assembly order (see [`OpInfo::roles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Destination register (o or r) with the descriptor's write mask.
    Dst,
    /// First source (with descriptor negate and swizzle).
    Src1,
    /// Second source.
    Src2,
    /// Third source (MAD/MADI).
    Src3,
    /// CMP condition for cmp.x.
    CmpX,
    /// CMP condition for cmp.y.
    CmpY,
    /// Flow condition: CONDOP with REFX/REFY.
    Cond,
    /// Flow target address (DST field of formats 2/3, in words).
    Target,
    /// Flow length (NUM field: words after the target, or the skip count).
    Num,
    /// Bool uniform b0-b15 (ID field).
    BoolId,
    /// Integer uniform i0-i3 (ID field, 2 bits).
    IntId,
    /// JMPU inversion: NUM bit 0 = 1 jumps when the bool is false.
    Invert,
    /// SETEMIT vertex slot 0-2.
    VtxId,
    /// SETEMIT winding flag.
    Winding,
    /// SETEMIT primitive-emit flag.
    PrimEmit,
}

/// Every known opcode. The 6-bit codes are in [`OPCODES`]; CMP spans 2 codes, MADI and MAD 8.
#[allow(missing_docs)] // Each variant is the mnemonic of the same name; see OPCODES.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opcode {
    Add,
    Dp3,
    Dp4,
    Dph,
    Dst,
    Ex2,
    Lg2,
    Litp,
    Mul,
    Sge,
    Slt,
    Flr,
    Max,
    Min,
    Rcp,
    Rsq,
    Mova,
    Mov,
    Dphi,
    Dsti,
    Sgei,
    Slti,
    Break,
    Nop,
    End,
    Breakc,
    Call,
    Callc,
    Callu,
    Ifu,
    Ifc,
    Loop,
    Emit,
    Setemit,
    Jmpc,
    Jmpu,
    Cmp,
    Madi,
    Mad,
}

/// One row of the opcode table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// The opcode.
    pub op: Opcode,
    /// Lower-case mnemonic as assemblers spell it.
    pub mnemonic: &'static str,
    /// The first 6-bit code (bits 26-31).
    pub code: u8,
    /// How many consecutive 6-bit codes decode to it (1; CMP 2; MADI/MAD 8).
    pub span: u8,
    /// Word layout.
    pub format: Format,
    /// Operands in assembly order.
    pub roles: &'static [Role],
    /// One-line meaning (pica-facts §1).
    pub summary: &'static str,
}

macro_rules! ops {
    ($( $op:ident $mn:literal $code:literal $span:literal $fmt:ident [$($role:ident),*] $sum:literal; )*) => {
        /// The opcode table, one row per opcode in code order (pica-facts §1; 3dbrew
        /// GPU/Shader_Instruction_Set). Codes 0x10, 0x11, 0x14-0x17, 0x1C-0x1F are unknown.
        pub static OPCODES: &[OpInfo] = &[
            $( OpInfo { op: Opcode::$op, mnemonic: $mn, code: $code, span: $span,
                        format: Format::$fmt, roles: &[$(Role::$role),*], summary: $sum }, )*
        ];
    };
}

ops! {
    Add  "add"  0x00 1 F1  [Dst, Src1, Src2] "d = s1 + s2";
    Dp3  "dp3"  0x01 1 F1  [Dst, Src1, Src2] "dot of xyz to every enabled component";
    Dp4  "dp4"  0x02 1 F1  [Dst, Src1, Src2] "dot of xyzw";
    Dph  "dph"  0x03 1 F1  [Dst, Src1, Src2] "dot(s1.xyz with w=1, s2)";
    Dst  "dst"  0x04 1 F1  [Dst, Src1, Src2] "(1, s1.y*s2.y, s1.z, s2.w)";
    Ex2  "ex2"  0x05 1 F1u [Dst, Src1] "2^s1.x to every component";
    Lg2  "lg2"  0x06 1 F1u [Dst, Src1] "log2(s1.x) to every component";
    Litp "litp" 0x07 1 F1u [Dst, Src1] "partial lighting; sets cmp.x/cmp.y";
    Mul  "mul"  0x08 1 F1  [Dst, Src1, Src2] "d = s1 * s2";
    Sge  "sge"  0x09 1 F1  [Dst, Src1, Src2] "s1 >= s2 ? 1 : 0";
    Slt  "slt"  0x0A 1 F1  [Dst, Src1, Src2] "s1 < s2 ? 1 : 0";
    Flr  "flr"  0x0B 1 F1u [Dst, Src1] "floor per component";
    Max  "max"  0x0C 1 F1  [Dst, Src1, Src2] "maximum";
    Min  "min"  0x0D 1 F1  [Dst, Src1, Src2] "minimum";
    Rcp  "rcp"  0x0E 1 F1u [Dst, Src1] "1/s1.x to every component";
    Rsq  "rsq"  0x0F 1 F1u [Dst, Src1] "1/sqrt(s1.x) to every component";
    Mova "mova" 0x12 1 F1u [Src1] "a0.x/a0.y = s1.x/s1.y truncated toward zero";
    Mov  "mov"  0x13 1 F1u [Dst, Src1] "d = s1";
    Dphi "dphi" 0x18 1 F1i [Dst, Src1, Src2] "DPH with the wide source second";
    Dsti "dsti" 0x19 1 F1i [Dst, Src1, Src2] "DST with the wide source second";
    Sgei "sgei" 0x1A 1 F1i [Dst, Src1, Src2] "SGE with the wide source second";
    Slti "slti" 0x1B 1 F1i [Dst, Src1, Src2] "SLT with the wide source second";
    Break "break" 0x20 1 F0 [] "leave the innermost LOOP";
    Nop  "nop"  0x21 1 F0  [] "no operation";
    End  "end"  0x22 1 F0  [] "end of program";
    Breakc "breakc" 0x23 1 F2 [Cond] "BREAK if condition";
    Call "call" 0x24 1 F2  [Target, Num] "run [DST, DST+NUM) then return";
    Callc "callc" 0x25 1 F2 [Cond, Target, Num] "CALL if condition";
    Callu "callu" 0x26 1 F3 [BoolId, Target, Num] "CALL if b[ID]";
    Ifu  "ifu"  0x27 1 F3  [BoolId, Target, Num] "if b[ID]: run to DST, skip NUM; else jump to DST";
    Ifc  "ifc"  0x28 1 F2  [Cond, Target, Num] "IFU on a condition";
    Loop "loop" 0x29 1 F3  [IntId, Target] "body PC+1..=DST, i.x+1 iterations";
    Emit "emit" 0x2A 1 F0  [] "GS: emit a vertex (and a primitive)";
    Setemit "setemit" 0x2B 1 F4 [VtxId, Winding, PrimEmit] "GS: set slot, winding, primemit";
    Jmpc "jmpc" 0x2C 1 F2  [Cond, Target] "jump to DST if condition";
    Jmpu "jmpu" 0x2D 1 F3  [BoolId, Target, Invert] "jump to DST if b[ID] (NUM bit 0 inverts)";
    Cmp  "cmp"  0x2E 2 F1c [Src1, CmpX, CmpY, Src2] "set cmp.x/cmp.y";
    Madi "madi" 0x30 8 F5i [Dst, Src1, Src2, Src3] "d = s1*s2 + s3, wide source third";
    Mad  "mad"  0x38 8 F5  [Dst, Src1, Src2, Src3] "d = s1*s2 + s3";
}

/// For each 6-bit code, the index into [`OPCODES`] (or `u8::MAX` if unknown).
static BY_CODE: [u8; 64] = {
    let mut table = [u8::MAX; 64];
    let mut i = 0;
    while i < OPCODES.len() {
        let mut c = 0;
        while c < OPCODES[i].span {
            table[(OPCODES[i].code + c) as usize] = i as u8;
            c += 1;
        }
        i += 1;
    }
    table
};

impl Opcode {
    /// Its row of [`OPCODES`].
    pub fn info(self) -> &'static OpInfo {
        // OPCODES lists the variants in declaration order (checked by a unit test).
        &OPCODES[self as usize]
    }

    /// The opcode of a 6-bit code (bits 26-31 of a word); `None` for the unknown codes.
    pub fn from_code(code: u8) -> Option<Self> {
        let i = *BY_CODE.get(usize::from(code & 0x3F))?;
        OPCODES.get(usize::from(i)).map(|info| info.op)
    }

    /// Lower-case mnemonic.
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }

    /// The opcode with this mnemonic (case-insensitive).
    pub fn from_mnemonic(name: &str) -> Option<Self> {
        OPCODES
            .iter()
            .find(|i| i.mnemonic.eq_ignore_ascii_case(name))
            .map(|i| i.op)
    }

    /// Word layout.
    pub fn format(self) -> Format {
        self.info().format
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

/// A register as a source or destination names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegRef {
    /// Input attribute register v0-v15.
    Input(u8),
    /// Temporary r0-r15.
    Temp(u8),
    /// Float uniform c0-c95.
    Uniform(u8),
    /// Output register o0-o15.
    Output(u8),
}

impl fmt::Display for RegRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Input(n) => write!(f, "v{n}"),
            Self::Temp(n) => write!(f, "r{n}"),
            Self::Uniform(n) => write!(f, "c{n}"),
            Self::Output(n) => write!(f, "o{n}"),
        }
    }
}

fn parse_reg(name: &str) -> Option<(char, u8)> {
    let mut chars = name.chars();
    let kind = chars.next()?.to_ascii_lowercase();
    let rest = chars.as_str();
    if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((kind, rest.parse().ok()?))
}

/// A source register field: the raw 7-bit index (0x00-0x0F v0-v15, 0x10-0x1F r0-r15, 0x20-0x7F
/// c0-c95). A 5-bit source field holds only v or r.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SrcReg(u8);

impl SrcReg {
    /// From the raw field value (masked to 7 bits).
    pub const fn from_raw(raw: u8) -> Self {
        Self(raw & 0x7F)
    }
    /// The raw 7-bit field value.
    pub const fn raw(self) -> u8 {
        self.0
    }
    /// `vN` (N < 16).
    pub const fn input(n: u8) -> Option<Self> {
        if n < 16 {
            Some(Self(n))
        } else {
            None
        }
    }
    /// `rN` (N < 16).
    pub const fn temp(n: u8) -> Option<Self> {
        if n < 16 {
            Some(Self(0x10 + n))
        } else {
            None
        }
    }
    /// `cN` (N < 96).
    pub const fn uniform(n: u8) -> Option<Self> {
        if n < 96 {
            Some(Self(0x20 + n))
        } else {
            None
        }
    }
    /// What it names.
    pub const fn kind(self) -> RegRef {
        match self.0 {
            0x00..=0x0F => RegRef::Input(self.0),
            0x10..=0x1F => RegRef::Temp(self.0 - 0x10),
            _ => RegRef::Uniform(self.0 - 0x20),
        }
    }
    /// Whether it fits a 5-bit source field (v or r).
    pub const fn fits_narrow(self) -> bool {
        self.0 < 0x20
    }
    /// Parses `v3`, `r15`, `c95` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Self> {
        match parse_reg(name)? {
            ('v', n) => Self::input(n),
            ('r', n) => Self::temp(n),
            ('c', n) => Self::uniform(n),
            _ => None,
        }
    }
}

impl fmt::Display for SrcReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind().fmt(f)
    }
}

/// A destination register field: the raw 5-bit index (0x00-0x0F o0-o15, 0x10-0x1F r0-r15).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DstReg(u8);

impl DstReg {
    /// From the raw field value (masked to 5 bits).
    pub const fn from_raw(raw: u8) -> Self {
        Self(raw & 0x1F)
    }
    /// The raw 5-bit field value.
    pub const fn raw(self) -> u8 {
        self.0
    }
    /// `oN` (N < 16).
    pub const fn output(n: u8) -> Option<Self> {
        if n < 16 {
            Some(Self(n))
        } else {
            None
        }
    }
    /// `rN` (N < 16).
    pub const fn temp(n: u8) -> Option<Self> {
        if n < 16 {
            Some(Self(0x10 + n))
        } else {
            None
        }
    }
    /// What it names ([`RegRef::Output`] or [`RegRef::Temp`]).
    pub const fn kind(self) -> RegRef {
        if self.0 < 0x10 {
            RegRef::Output(self.0)
        } else {
            RegRef::Temp(self.0 - 0x10)
        }
    }
    /// Parses `o3`, `r15` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Self> {
        match parse_reg(name)? {
            ('o', n) => Self::output(n),
            ('r', n) => Self::temp(n),
            _ => None,
        }
    }
}

impl fmt::Display for DstReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind().fmt(f)
    }
}

/// Bool uniform b0-b15 (4-bit ID field of format 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoolReg(pub u8);

impl fmt::Display for BoolReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{}", self.0 & 0xF)
    }
}

/// Integer uniform i0-i3 (2-bit ID field of LOOP).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IntReg(pub u8);

impl fmt::Display for IntReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "i{}", self.0 & 3)
    }
}

/// The IDX field: which address register offsets a constant source (pica-facts §1 "Relative
/// addressing").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RelIndex {
    /// No offset (0).
    #[default]
    None,
    /// a0.x (1).
    A0X,
    /// a0.y (2).
    A0Y,
    /// The loop counter aL (3).
    AL,
}

impl RelIndex {
    /// From the 2-bit field.
    pub const fn from_bits(bits: u32) -> Self {
        match bits & 3 {
            0 => Self::None,
            1 => Self::A0X,
            2 => Self::A0Y,
            _ => Self::AL,
        }
    }
    /// The 2-bit field.
    pub const fn bits(self) -> u32 {
        self as u32
    }
    /// Assembly name (`""`, `"a0.x"`, `"a0.y"`, `"aL"`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "",
            Self::A0X => "a0.x",
            Self::A0Y => "a0.y",
            Self::AL => "aL",
        }
    }
}

/// A CMP comparison (3-bit CMPX/CMPY fields; pica-facts §1 "CMP conditions").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// 0: ==
    Eq,
    /// 1: !=
    Ne,
    /// 2: <
    Lt,
    /// 3: <=
    Le,
    /// 4: >
    Gt,
    /// 5: >=
    Ge,
    /// 6: reported as always true (see the interpreter's knob).
    Op6,
    /// 7: reported as always true (see the interpreter's knob).
    Op7,
}

impl CmpOp {
    /// All eight in field order.
    pub const ALL: [Self; 8] = [
        Self::Eq,
        Self::Ne,
        Self::Lt,
        Self::Le,
        Self::Gt,
        Self::Ge,
        Self::Op6,
        Self::Op7,
    ];
    /// From the 3-bit field.
    pub const fn from_bits(bits: u32) -> Self {
        Self::ALL[(bits & 7) as usize]
    }
    /// The 3-bit field.
    pub const fn bits(self) -> u32 {
        self as u32
    }
    /// Assembly name (`eq ne lt le gt ge`; `cond6`, `cond7` for the undocumented two).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Eq => "eq",
            Self::Ne => "ne",
            Self::Lt => "lt",
            Self::Le => "le",
            Self::Gt => "gt",
            Self::Ge => "ge",
            Self::Op6 => "cond6",
            Self::Op7 => "cond7",
        }
    }
}

/// CONDOP of conditional flow instructions (pica-facts §1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CondOp {
    /// 0: (cmp.x == REFX) OR (cmp.y == REFY).
    #[default]
    Or,
    /// 1: (cmp.x == REFX) AND (cmp.y == REFY).
    And,
    /// 2: cmp.x == REFX.
    X,
    /// 3: cmp.y == REFY.
    Y,
}

impl CondOp {
    /// From the 2-bit field.
    pub const fn from_bits(bits: u32) -> Self {
        match bits & 3 {
            0 => Self::Or,
            1 => Self::And,
            2 => Self::X,
            _ => Self::Y,
        }
    }
    /// The 2-bit field.
    pub const fn bits(self) -> u32 {
        self as u32
    }
}

/// The condition of a format-2 instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Condition {
    /// How the two tests combine.
    pub op: CondOp,
    /// Value cmp.x is compared with.
    pub ref_x: bool,
    /// Value cmp.y is compared with.
    pub ref_y: bool,
}

impl Condition {
    /// Evaluates the condition on the flags.
    pub const fn eval(self, cmp_x: bool, cmp_y: bool) -> bool {
        let x = cmp_x == self.ref_x;
        let y = cmp_y == self.ref_y;
        match self.op {
            CondOp::Or => x || y,
            CondOp::And => x && y,
            CondOp::X => x,
            CondOp::Y => y,
        }
    }
}

/// A vector component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// x (0).
    X,
    /// y (1).
    Y,
    /// z (2).
    Z,
    /// w (3).
    W,
}

impl Component {
    /// x, y, z, w.
    pub const ALL: [Self; 4] = [Self::X, Self::Y, Self::Z, Self::W];
    /// From a 2-bit selector.
    pub const fn from_bits(bits: u32) -> Self {
        Self::ALL[(bits & 3) as usize]
    }
    /// Index 0-3.
    pub const fn index(self) -> usize {
        self as usize
    }
    /// Letter `x`/`y`/`z`/`w`.
    pub const fn letter(self) -> char {
        match self {
            Self::X => 'x',
            Self::Y => 'y',
            Self::Z => 'z',
            Self::W => 'w',
        }
    }
}

/// A swizzle byte: four 2-bit selectors, x's in bits 6-7 down to w's in bits 0-1 (0x1B = `.xyzw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// `.xyzw`.
    pub const IDENTITY: Self = Self(0x1B);

    /// The source component that lane `lane` (0 = x .. 3 = w) reads.
    pub const fn select(self, lane: usize) -> Component {
        Component::from_bits((self.0 as u32) >> (6 - 2 * (lane as u32 & 3)))
    }

    /// Parses `xyzw`, `.xy`, `x` (case-insensitive, optional leading dot). Fewer than four
    /// letters repeat the last one, as assemblers do (`.x` = `.xxxx`).
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.strip_prefix('.').unwrap_or(text);
        if text.is_empty() || text.len() > 4 {
            return None;
        }
        let mut sel = [0u8; 4];
        let mut last = 0;
        for (lane, slot) in sel.iter_mut().enumerate() {
            if let Some(c) = text.as_bytes().get(lane) {
                last = match c.to_ascii_lowercase() {
                    b'x' => 0,
                    b'y' => 1,
                    b'z' => 2,
                    b'w' => 3,
                    _ => return None,
                };
            }
            *slot = last;
        }
        Some(Self(sel[0] << 6 | sel[1] << 4 | sel[2] << 2 | sel[3]))
    }
}

impl fmt::Display for Swizzle {
    /// Four letters, `xyzw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for lane in 0..4 {
            write!(f, "{}", self.select(lane).letter())?;
        }
        Ok(())
    }
}

/// A destination write mask: bit 3 = x, 2 = y, 1 = z, 0 = w.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DestMask(pub u8);

impl DestMask {
    /// All four components.
    pub const ALL: Self = Self(0xF);

    /// Whether lane `lane` (0 = x .. 3 = w) is written.
    pub const fn writes(self, lane: usize) -> bool {
        (self.0 >> (3 - (lane & 3))) & 1 != 0
    }

    /// Parses `xyzw`, `.xz` (letters in order, each at most once; optional leading dot).
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.strip_prefix('.').unwrap_or(text);
        let mut mask = 0u8;
        let mut next = 0;
        for c in text.bytes() {
            let lane = "xyzw".bytes().position(|l| l == c.to_ascii_lowercase())?;
            if lane < next {
                return None;
            }
            next = lane + 1;
            mask |= 8 >> lane;
        }
        (mask != 0).then_some(Self(mask))
    }
}

impl fmt::Display for DestMask {
    /// The written letters in order (`xyzw`, `xz`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in Component::ALL {
            if self.writes(c.index()) {
                write!(f, "{}", c.letter())?;
            }
        }
        Ok(())
    }
}

/// An operand descriptor (pica-facts §1): bits 0-3 destination mask; bit 4 negate SRC1, bits 5-12
/// its swizzle; bit 13 negate SRC2, bits 14-21 its swizzle; bit 22 negate SRC3, bits 23-30 its
/// swizzle. Bit 31 is not used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OpDesc(pub u32);

impl OpDesc {
    /// Mask xyzw, no negation, every swizzle `.xyzw`.
    pub const IDENTITY: Self = Self::new(
        DestMask::ALL,
        [
            (false, Swizzle::IDENTITY),
            (false, Swizzle::IDENTITY),
            (false, Swizzle::IDENTITY),
        ],
    );

    /// Builds a descriptor from the mask and `(negate, swizzle)` of SRC1-SRC3.
    pub const fn new(mask: DestMask, srcs: [(bool, Swizzle); 3]) -> Self {
        let mut word = fields::DESC_MASK.put(mask.0 as u32);
        let mut i = 0;
        while i < 3 {
            let (neg, swz) = Self::src_fields(i + 1);
            word |= neg.put(srcs[i].0 as u32) | swz.put(srcs[i].1 .0 as u32);
            i += 1;
        }
        Self(word)
    }

    /// The negate and swizzle fields of source `n` (1-3; other values wrap into 1-3).
    pub const fn src_fields(n: usize) -> (BitField, BitField) {
        match n.wrapping_sub(1) % 3 {
            0 => (fields::DESC_NEG1, fields::DESC_SWZ1),
            1 => (fields::DESC_NEG2, fields::DESC_SWZ2),
            _ => (fields::DESC_NEG3, fields::DESC_SWZ3),
        }
    }

    /// Destination write mask.
    pub const fn dest_mask(self) -> DestMask {
        DestMask(fields::DESC_MASK.get(self.0) as u8)
    }

    /// Whether source `n` (1-3) is negated.
    pub const fn negate(self, n: usize) -> bool {
        Self::src_fields(n).0.get(self.0) != 0
    }

    /// Swizzle of source `n` (1-3).
    pub const fn swizzle(self, n: usize) -> Swizzle {
        Swizzle(Self::src_fields(n).1.get(self.0) as u8)
    }
}

/// One decoded instruction. The variant follows the opcode's [`Format`]; [`encode`] expects
/// `op` to belong to the variant (see [`Instruction::is_well_formed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    /// Formats 1, 1i, 1u (arithmetic, MOV, MOVA). In 1i SRC1 is the 5-bit source and SRC2 the
    /// 7-bit one (IDX applies to SRC2); in 1u `src2` is not encoded (decodes as 0).
    Alu {
        /// The opcode.
        op: Opcode,
        /// Destination.
        dst: DstReg,
        /// First source.
        src1: SrcReg,
        /// Second source.
        src2: SrcReg,
        /// Relative addressing of the wide source.
        idx: RelIndex,
        /// Operand-descriptor index (7 bits).
        desc: u8,
    },
    /// Format 1c (CMP).
    Cmp {
        /// First source (7-bit).
        src1: SrcReg,
        /// Second source (5-bit).
        src2: SrcReg,
        /// Relative addressing of SRC1.
        idx: RelIndex,
        /// Comparison for cmp.x.
        cmp_x: CmpOp,
        /// Comparison for cmp.y.
        cmp_y: CmpOp,
        /// Operand-descriptor index (7 bits).
        desc: u8,
    },
    /// Formats 5 (MAD) and 5i (MADI).
    Mad {
        /// [`Opcode::Mad`] or [`Opcode::Madi`].
        op: Opcode,
        /// Destination.
        dst: DstReg,
        /// First source (5-bit).
        src1: SrcReg,
        /// Second source (7-bit in MAD, 5-bit in MADI).
        src2: SrcReg,
        /// Third source (5-bit in MAD, 7-bit in MADI).
        src3: SrcReg,
        /// Relative addressing of the wide source.
        idx: RelIndex,
        /// Operand-descriptor index (5 bits: only the first 32 descriptors).
        desc: u8,
    },
    /// Format 2 (BREAKC, CALL, CALLC, IFC, JMPC).
    Flow {
        /// The opcode.
        op: Opcode,
        /// Condition (ignored by CALL).
        cond: Condition,
        /// DST field: target word address (12 bits).
        target: u16,
        /// NUM field (8 bits).
        num: u8,
    },
    /// Format 3 (CALLU, IFU, LOOP, JMPU).
    FlowUniform {
        /// The opcode.
        op: Opcode,
        /// The 4-bit ID field: bool uniform, or for LOOP an int uniform in its low 2 bits.
        id: u8,
        /// DST field: target word address (12 bits).
        target: u16,
        /// NUM field (8 bits; JMPU: bit 0 inverts).
        num: u8,
    },
    /// Format 4 (SETEMIT).
    SetEmit {
        /// Vertex slot (2 bits; 0-2 meaningful).
        vtx_id: u8,
        /// Winding flag.
        winding: bool,
        /// Whether the next EMIT also emits a primitive.
        prim_emit: bool,
    },
    /// Format 0 (BREAK, NOP, END, EMIT).
    Plain(Opcode),
    /// A word whose opcode is one of the unknown codes; kept whole.
    Unknown(u32),
}

impl Instruction {
    /// The opcode, or `None` for [`Instruction::Unknown`].
    pub fn opcode(&self) -> Option<Opcode> {
        match *self {
            Self::Alu { op, .. }
            | Self::Mad { op, .. }
            | Self::Flow { op, .. }
            | Self::FlowUniform { op, .. }
            | Self::Plain(op) => Some(op),
            Self::Cmp { .. } => Some(Opcode::Cmp),
            Self::SetEmit { .. } => Some(Opcode::Setemit),
            Self::Unknown(_) => None,
        }
    }

    /// The 6-bit opcode field of the encoded word.
    pub fn code(&self) -> u8 {
        (encode(self) >> 26) as u8
    }

    /// Whether the variant matches the opcode's format and every field fits its width
    /// (registers in 5-bit fields are v/r, descriptor indices fit).
    pub fn is_well_formed(&self) -> bool {
        match *self {
            Self::Alu {
                op,
                src1,
                src2,
                desc,
                ..
            } => match op.format() {
                Format::F1 => src2.fits_narrow() && desc < 128,
                Format::F1i => src1.fits_narrow() && desc < 128,
                Format::F1u => src2 == SrcReg(0) && desc < 128,
                _ => false,
            },
            Self::Cmp { src2, desc, .. } => src2.fits_narrow() && desc < 128,
            Self::Mad {
                op,
                src1,
                src2,
                src3,
                desc,
                ..
            } => {
                desc < 32
                    && src1.fits_narrow()
                    && match op {
                        Opcode::Mad => src3.fits_narrow(),
                        Opcode::Madi => src2.fits_narrow(),
                        _ => false,
                    }
            }
            Self::Flow { op, target, .. } => op.format() == Format::F2 && target < 4096,
            Self::FlowUniform { op, target, id, .. } => {
                op.format() == Format::F3 && target < 4096 && id < 16
            }
            Self::SetEmit { vtx_id, .. } => vtx_id < 4,
            Self::Plain(op) => op.format() == Format::F0,
            Self::Unknown(word) => Opcode::from_code((word >> 26) as u8).is_none(),
        }
    }
}

/// The bits of `word` that its opcode's format defines (all bits for unknown opcodes).
pub fn used_mask(word: u32) -> u32 {
    Opcode::from_code((word >> 26) as u8).map_or(u32::MAX, |op| op.format().used_mask())
}

/// Decodes one instruction word. Total: every word decodes (unknown opcodes to
/// [`Instruction::Unknown`]); bits outside the format are ignored.
pub fn decode(word: u32) -> Instruction {
    use fields::*;
    let Some(op) = Opcode::from_code(OPCODE.get(word) as u8) else {
        return Instruction::Unknown(word);
    };
    let f = |fld: BitField| fld.get(word);
    let src = |fld: BitField| SrcReg::from_raw(fld.get(word) as u8);
    match op.format() {
        Format::F1 | Format::F1i | Format::F1u => {
            let (src1, src2) = match op.format() {
                Format::F1 => (src(F1_SRC1), src(F1_SRC2)),
                Format::F1i => (src(F1I_SRC1), src(F1I_SRC2)),
                _ => (src(F1_SRC1), SrcReg(0)),
            };
            Instruction::Alu {
                op,
                dst: DstReg::from_raw(f(F1_DST) as u8),
                src1,
                src2,
                idx: RelIndex::from_bits(f(F1_IDX)),
                desc: f(F1_DESC) as u8,
            }
        }
        Format::F1c => Instruction::Cmp {
            src1: src(F1_SRC1),
            src2: src(F1_SRC2),
            idx: RelIndex::from_bits(f(F1_IDX)),
            cmp_x: CmpOp::from_bits(f(F1C_CMPX)),
            cmp_y: CmpOp::from_bits(f(F1C_CMPY)),
            desc: f(F1_DESC) as u8,
        },
        Format::F5 | Format::F5i => {
            let (src2, src3) = if op == Opcode::Mad {
                (src(F5_SRC2), src(F5_SRC3))
            } else {
                (src(F5I_SRC2), src(F5I_SRC3))
            };
            Instruction::Mad {
                op,
                dst: DstReg::from_raw(f(F5_DST) as u8),
                src1: src(F5_SRC1),
                src2,
                src3,
                idx: RelIndex::from_bits(f(F5_IDX)),
                desc: f(F5_DESC) as u8,
            }
        }
        Format::F2 => Instruction::Flow {
            op,
            cond: Condition {
                op: CondOp::from_bits(f(F2_CONDOP)),
                ref_x: f(F2_REFX) != 0,
                ref_y: f(F2_REFY) != 0,
            },
            target: f(F2_DST) as u16,
            num: f(F2_NUM) as u8,
        },
        Format::F3 => Instruction::FlowUniform {
            op,
            id: f(F3_ID) as u8,
            target: f(F2_DST) as u16,
            num: f(F2_NUM) as u8,
        },
        Format::F4 => Instruction::SetEmit {
            vtx_id: f(F4_VTXID) as u8,
            winding: f(F4_WINDING) != 0,
            prim_emit: f(F4_PRIMEMIT) != 0,
        },
        Format::F0 => Instruction::Plain(op),
    }
}

/// Encodes one instruction. Fields are masked to their widths; the opcode bits come from the
/// opcode's first code, plus the 5-bit/3-bit opcode fields of CMP and MAD/MADI (whose low bits
/// overlap CMPX and DST). Inverse of [`decode`] on well-formed instructions.
pub fn encode(inst: &Instruction) -> u32 {
    use fields::*;
    let op_bits = |op: Opcode| OPCODE.put(op.info().code.into());
    let reg = |fld: BitField, raw: u8| fld.put(raw.into());
    match *inst {
        Instruction::Alu {
            op,
            dst,
            src1,
            src2,
            idx,
            desc,
        } => {
            let srcs = match op.format() {
                Format::F1i => reg(F1I_SRC1, src1.raw()) | reg(F1I_SRC2, src2.raw()),
                Format::F1u => reg(F1_SRC1, src1.raw()),
                _ => reg(F1_SRC1, src1.raw()) | reg(F1_SRC2, src2.raw()),
            };
            op_bits(op)
                | srcs
                | reg(F1_DST, dst.raw())
                | F1_IDX.put(idx.bits())
                | reg(F1_DESC, desc)
        }
        Instruction::Cmp {
            src1,
            src2,
            idx,
            cmp_x,
            cmp_y,
            desc,
        } => {
            F1C_OPCODE.put(u32::from(Opcode::Cmp.info().code) >> 1)
                | F1C_CMPX.put(cmp_x.bits())
                | F1C_CMPY.put(cmp_y.bits())
                | F1_IDX.put(idx.bits())
                | reg(F1_SRC1, src1.raw())
                | reg(F1_SRC2, src2.raw())
                | reg(F1_DESC, desc)
        }
        Instruction::Mad {
            op,
            dst,
            src1,
            src2,
            src3,
            idx,
            desc,
        } => {
            let srcs = if op == Opcode::Madi {
                reg(F5I_SRC2, src2.raw()) | reg(F5I_SRC3, src3.raw())
            } else {
                reg(F5_SRC2, src2.raw()) | reg(F5_SRC3, src3.raw())
            };
            F5_OPCODE.put(u32::from(op.info().code) >> 3)
                | reg(F5_DST, dst.raw())
                | F5_IDX.put(idx.bits())
                | reg(F5_SRC1, src1.raw())
                | srcs
                | reg(F5_DESC, desc)
        }
        Instruction::Flow {
            op,
            cond,
            target,
            num,
        } => {
            op_bits(op)
                | F2_REFX.put(cond.ref_x.into())
                | F2_REFY.put(cond.ref_y.into())
                | F2_CONDOP.put(cond.op.bits())
                | F2_DST.put(target.into())
                | F2_NUM.put(num.into())
        }
        Instruction::FlowUniform {
            op,
            id,
            target,
            num,
        } => {
            op_bits(op) | F3_ID.put(id.into()) | F2_DST.put(target.into()) | F2_NUM.put(num.into())
        }
        Instruction::SetEmit {
            vtx_id,
            winding,
            prim_emit,
        } => {
            op_bits(Opcode::Setemit)
                | F4_VTXID.put(vtx_id.into())
                | F4_PRIMEMIT.put(prim_emit.into())
                | F4_WINDING.put(winding.into())
        }
        Instruction::Plain(op) => op_bits(op),
        Instruction::Unknown(word) => word,
    }
}

pub mod sv;

#[cfg(test)]
mod tests;
