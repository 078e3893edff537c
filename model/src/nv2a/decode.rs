//! Decoding (and encoding) of NV2A vertex-program slots and program images.
//!
//! Field positions are seed 003 (xboxdevwiki "NV2A/Vertex Shader", 2020-05-04): a slot is four
//! little-endian words; word 0 is unused; the fields live in words 1-3 as listed in [`fields`].
//! Every bit pattern decodes: values the seed leaves undefined (MAC ops 14 and 15, source mux 0)
//! decode to explicit reserved variants, and index fields keep their raw values, so that running
//! or disassembling can name exactly what is wrong and where.

use super::{MAX_SLOTS, SLOT_BYTES, SLOT_WORDS};
use std::fmt;

/// Where a field sits in a slot: word index, lowest bit, width in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name as error messages and the README give it.
    pub name: &'static str,
    /// Word of the slot (1-3; word 0 is unused).
    pub word: usize,
    /// Lowest bit of the field within the word.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
}

impl Field {
    /// The field's value in `words`.
    pub const fn get(&self, words: &[u32; SLOT_WORDS]) -> u32 {
        (words[self.word] >> self.lsb) & ((1u32 << self.width) - 1)
    }

    /// Stores `value` (truncated to the field's width) into `words`.
    pub fn set(&self, words: &mut [u32; SLOT_WORDS], value: u32) {
        let mask = ((1u32 << self.width) - 1) << self.lsb;
        words[self.word] = (words[self.word] & !mask) | ((value << self.lsb) & mask);
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hi = self.lsb + self.width - 1;
        if self.width == 1 {
            write!(f, "{} (word {} bit {})", self.name, self.word, self.lsb)
        } else {
            write!(
                f,
                "{} (word {} bits {}..{})",
                self.name, self.word, self.lsb, hi
            )
        }
    }
}

/// Every field of seed 003's table, by word and bit.
pub mod fields {
    use super::Field;

    const fn f(name: &'static str, word: usize, lsb: u32, width: u32) -> Field {
        Field {
            name,
            word,
            lsb,
            width,
        }
    }

    /// ILU operation.
    pub const ILU: Field = f("ILU operation", 1, 25, 3);
    /// MAC operation.
    pub const MAC: Field = f("MAC operation", 1, 21, 4);
    /// Constant index (shared by every source whose mux selects a constant).
    pub const CONST: Field = f("constant index", 1, 13, 8);
    /// Input index (shared by every source whose mux selects an input).
    pub const INPUT: Field = f("input index", 1, 9, 4);
    /// Negate, swizzle X/Y/Z/W, register and mux of sources 1 (A), 2 (B) and 3 (C).
    pub const SRC: [SrcFields; 3] = [
        SrcFields {
            neg: f("source 1 negate", 1, 8, 1),
            swz: [
                f("source 1 swizzle X", 1, 6, 2),
                f("source 1 swizzle Y", 1, 4, 2),
                f("source 1 swizzle Z", 1, 2, 2),
                f("source 1 swizzle W", 1, 0, 2),
            ],
            reg_hi: f("source 1 register", 2, 28, 4),
            reg_lo: None,
            mux: f("source 1 mux", 2, 26, 2),
        },
        SrcFields {
            neg: f("source 2 negate", 2, 25, 1),
            swz: [
                f("source 2 swizzle X", 2, 23, 2),
                f("source 2 swizzle Y", 2, 21, 2),
                f("source 2 swizzle Z", 2, 19, 2),
                f("source 2 swizzle W", 2, 17, 2),
            ],
            reg_hi: f("source 2 register", 2, 13, 4),
            reg_lo: None,
            mux: f("source 2 mux", 2, 11, 2),
        },
        SrcFields {
            neg: f("source 3 negate", 2, 10, 1),
            swz: [
                f("source 3 swizzle X", 2, 8, 2),
                f("source 3 swizzle Y", 2, 6, 2),
                f("source 3 swizzle Z", 2, 4, 2),
                f("source 3 swizzle W", 2, 2, 2),
            ],
            reg_hi: f("source 3 register (hi)", 2, 0, 2),
            reg_lo: Some(f("source 3 register (lo)", 3, 30, 2)),
            mux: f("source 3 mux", 3, 28, 2),
        },
    ];
    /// Destination MAC (temporary write) mask.
    pub const MAC_MASK: Field = f("destination MAC mask", 3, 24, 4);
    /// Destination temporary register.
    pub const TEMP: Field = f("destination temporary register", 3, 20, 4);
    /// Destination ILU (temporary write) mask.
    pub const ILU_MASK: Field = f("destination ILU mask", 3, 16, 4);
    /// Destination overall (output register) mask.
    pub const OUT_MASK: Field = f("destination overall mask", 3, 12, 4);
    /// Destination select: 0 constant register, 1 output register.
    pub const OUT_SELECT: Field = f("destination select", 3, 11, 1);
    /// Destination output (or constant) register.
    pub const OUT_INDEX: Field = f("destination output register", 3, 3, 8);
    /// Destination mux: 0 the MAC result goes to the output, 1 the ILU result.
    pub const OUT_MUX: Field = f("destination mux", 3, 2, 1);
    /// Relative constant addressing through A0.x.
    pub const RELATIVE: Field = f("relative constant addressing", 3, 1, 1);
    /// Final instruction marker (EOF).
    pub const FINAL: Field = f("final instruction marker", 3, 0, 1);

    /// The fields of one source operand.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct SrcFields {
        /// Negate.
        pub neg: Field,
        /// Swizzle X, Y, Z, W (which component each result component takes).
        pub swz: [Field; 4],
        /// Register (for source 3 the high two bits).
        pub reg_hi: Field,
        /// Source 3 only: the low two bits of the register, in word 3.
        pub reg_lo: Option<Field>,
        /// Mux (which register file).
        pub mux: Field,
    }
}

/// ILU (inverse logic unit) operations: every 3-bit value is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IluOp {
    /// 0: no operation.
    Nop,
    /// 1: move.
    Mov,
    /// 2: reciprocal.
    Rcp,
    /// 3: reciprocal, clamped (NV_vertex_program1_1).
    Rcc,
    /// 4: reciprocal square root.
    Rsq,
    /// 5: exponential base 2, partial precision.
    Exp,
    /// 6: logarithm base 2, partial precision.
    Log,
    /// 7: lighting coefficients.
    Lit,
}

impl IluOp {
    /// Decodes the 3-bit field value.
    pub const fn from_bits(v: u32) -> Self {
        match v & 7 {
            0 => IluOp::Nop,
            1 => IluOp::Mov,
            2 => IluOp::Rcp,
            3 => IluOp::Rcc,
            4 => IluOp::Rsq,
            5 => IluOp::Exp,
            6 => IluOp::Log,
            _ => IluOp::Lit,
        }
    }

    /// The field value.
    pub const fn bits(self) -> u32 {
        self as u32
    }

    /// Mnemonic (upper case).
    pub const fn name(self) -> &'static str {
        match self {
            IluOp::Nop => "NOP",
            IluOp::Mov => "MOV",
            IluOp::Rcp => "RCP",
            IluOp::Rcc => "RCC",
            IluOp::Rsq => "RSQ",
            IluOp::Exp => "EXP",
            IluOp::Log => "LOG",
            IluOp::Lit => "LIT",
        }
    }

    /// Every ILU operation, in encoding order.
    pub const ALL: [IluOp; 8] = [
        IluOp::Nop,
        IluOp::Mov,
        IluOp::Rcp,
        IluOp::Rcc,
        IluOp::Rsq,
        IluOp::Exp,
        IluOp::Log,
        IluOp::Lit,
    ];
}

/// MAC (multiply-accumulate unit) operations; 14 and 15 are reserved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MacOp {
    /// 0: no operation.
    Nop,
    /// 1: move A.
    Mov,
    /// 2: A * B.
    Mul,
    /// 3: A + C.
    Add,
    /// 4: A * B + C.
    Mad,
    /// 5: three-component dot product of A and B.
    Dp3,
    /// 6: homogeneous dot product (A.xyz · B.xyz + B.w).
    Dph,
    /// 7: four-component dot product of A and B.
    Dp4,
    /// 8: distance vector.
    Dst,
    /// 9: component-wise minimum.
    Min,
    /// 10: component-wise maximum.
    Max,
    /// 11: set on less than.
    Slt,
    /// 12: set on greater or equal.
    Sge,
    /// 13: load A0.x with floor(A.x).
    Arl,
    /// 14 or 15: not defined by seed 003; running it is an error.
    Reserved(u8),
}

impl MacOp {
    /// Decodes the 4-bit field value.
    pub const fn from_bits(v: u32) -> Self {
        match v & 15 {
            0 => MacOp::Nop,
            1 => MacOp::Mov,
            2 => MacOp::Mul,
            3 => MacOp::Add,
            4 => MacOp::Mad,
            5 => MacOp::Dp3,
            6 => MacOp::Dph,
            7 => MacOp::Dp4,
            8 => MacOp::Dst,
            9 => MacOp::Min,
            10 => MacOp::Max,
            11 => MacOp::Slt,
            12 => MacOp::Sge,
            13 => MacOp::Arl,
            v => MacOp::Reserved(v as u8),
        }
    }

    /// The field value.
    pub const fn bits(self) -> u32 {
        match self {
            MacOp::Nop => 0,
            MacOp::Mov => 1,
            MacOp::Mul => 2,
            MacOp::Add => 3,
            MacOp::Mad => 4,
            MacOp::Dp3 => 5,
            MacOp::Dph => 6,
            MacOp::Dp4 => 7,
            MacOp::Dst => 8,
            MacOp::Min => 9,
            MacOp::Max => 10,
            MacOp::Slt => 11,
            MacOp::Sge => 12,
            MacOp::Arl => 13,
            MacOp::Reserved(v) => v as u32 & 15,
        }
    }

    /// Mnemonic (upper case); reserved values read `MAC?14`.
    pub fn name(self) -> String {
        let s = match self {
            MacOp::Nop => "NOP",
            MacOp::Mov => "MOV",
            MacOp::Mul => "MUL",
            MacOp::Add => "ADD",
            MacOp::Mad => "MAD",
            MacOp::Dp3 => "DP3",
            MacOp::Dph => "DPH",
            MacOp::Dp4 => "DP4",
            MacOp::Dst => "DST",
            MacOp::Min => "MIN",
            MacOp::Max => "MAX",
            MacOp::Slt => "SLT",
            MacOp::Sge => "SGE",
            MacOp::Arl => "ARL",
            MacOp::Reserved(v) => return format!("MAC?{v}"),
        };
        s.to_string()
    }

    /// Which of sources A (1), B (2), C (3) the operation reads. Fact from the public NV2A
    /// decoders (xemu `vsh.c` `mac_opcode_params`, Cxbx-Reloaded): ADD takes A and C, MAD all
    /// three, the rest A (and B for two-operand ops); ILU operations always read C.
    pub const fn reads(self) -> [bool; 3] {
        match self {
            MacOp::Nop | MacOp::Reserved(_) => [false, false, false],
            MacOp::Mov | MacOp::Arl => [true, false, false],
            MacOp::Add => [true, false, true],
            MacOp::Mad => [true, true, true],
            _ => [true, true, false],
        }
    }

    /// Every defined MAC operation, in encoding order.
    pub const ALL: [MacOp; 14] = [
        MacOp::Nop,
        MacOp::Mov,
        MacOp::Mul,
        MacOp::Add,
        MacOp::Mad,
        MacOp::Dp3,
        MacOp::Dph,
        MacOp::Dp4,
        MacOp::Dst,
        MacOp::Min,
        MacOp::Max,
        MacOp::Slt,
        MacOp::Sge,
        MacOp::Arl,
    ];
}

/// One vector component (swizzle selector and mask bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comp {
    /// 0: x.
    X,
    /// 1: y.
    Y,
    /// 2: z.
    Z,
    /// 3: w.
    W,
}

impl Comp {
    /// Decodes a 2-bit swizzle selector.
    pub const fn from_bits(v: u32) -> Self {
        match v & 3 {
            0 => Comp::X,
            1 => Comp::Y,
            2 => Comp::Z,
            _ => Comp::W,
        }
    }

    /// The component's index (x = 0 ... w = 3).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter.
    pub const fn letter(self) -> char {
        match self {
            Comp::X => 'x',
            Comp::Y => 'y',
            Comp::Z => 'z',
            Comp::W => 'w',
        }
    }

    /// x, y, z, w.
    pub const ALL: [Comp; 4] = [Comp::X, Comp::Y, Comp::Z, Comp::W];
}

/// A source operand's register file (the 2-bit mux field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mux {
    /// 0: not defined by seed 003 (xemu calls it `PARAM_UNKNOWN`); reading it is an error.
    Reserved,
    /// 1: temporary register R0-R12 (the source's register field).
    Temp,
    /// 2: input register v0-v15 (the slot's input index).
    Input,
    /// 3: constant register c0-c191 (the slot's constant index, maybe relative to A0.x).
    Const,
}

impl Mux {
    /// Decodes the 2-bit field value.
    pub const fn from_bits(v: u32) -> Self {
        match v & 3 {
            0 => Mux::Reserved,
            1 => Mux::Temp,
            2 => Mux::Input,
            _ => Mux::Const,
        }
    }

    /// The field value.
    pub const fn bits(self) -> u32 {
        self as u32
    }
}

/// A 4-bit write mask; bit 3 is x, bit 0 is w (the seed's field order, as xemu's `mask_str`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Mask(pub u8);

impl Mask {
    /// All four components.
    pub const XYZW: Mask = Mask(0xF);
    /// No component.
    pub const NONE: Mask = Mask(0);

    /// Whether component `c` is written.
    pub const fn has(self, c: Comp) -> bool {
        self.0 & (8 >> c.index()) != 0
    }

    /// Whether no component is written.
    pub const fn is_empty(self) -> bool {
        self.0 & 0xF == 0
    }

    /// Builds a mask from letters, e.g. `"xyw"`; other characters are ignored.
    pub fn from_letters(s: &str) -> Mask {
        let mut m = 0;
        for ch in s.chars() {
            m |= match ch {
                'x' => 8,
                'y' => 4,
                'z' => 2,
                'w' => 1,
                _ => 0,
            };
        }
        Mask(m)
    }

    /// The written components as letters (`xyzw`, `xz`, empty for none).
    pub fn letters(self) -> String {
        Comp::ALL
            .iter()
            .filter(|c| self.has(**c))
            .map(|c| c.letter())
            .collect()
    }
}

/// One source operand: negate, swizzle, register file and (for temporaries) register number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// Negate every component after swizzling.
    pub neg: bool,
    /// Which component each of x, y, z, w takes.
    pub swizzle: [Comp; 4],
    /// Register field (temporary register number when `mux` is [`Mux::Temp`]; 0-15, 13-15
    /// reserved).
    pub reg: u8,
    /// Register file.
    pub mux: Mux,
}

impl Source {
    /// The identity swizzle.
    pub const XYZW: [Comp; 4] = [Comp::X, Comp::Y, Comp::Z, Comp::W];

    /// Temporary register `r`, not negated, identity swizzle.
    pub const fn temp(r: u8) -> Self {
        Source {
            neg: false,
            swizzle: Self::XYZW,
            reg: r,
            mux: Mux::Temp,
        }
    }

    /// The slot's input register, not negated, identity swizzle.
    pub const fn input() -> Self {
        Source {
            neg: false,
            swizzle: Self::XYZW,
            reg: 0,
            mux: Mux::Input,
        }
    }

    /// The slot's constant register, not negated, identity swizzle.
    pub const fn constant() -> Self {
        Source {
            neg: false,
            swizzle: Self::XYZW,
            reg: 0,
            mux: Mux::Const,
        }
    }

    /// The same source negated.
    pub const fn neg(mut self) -> Self {
        self.neg = !self.neg;
        self
    }

    /// The same source with a swizzle given as letters: one letter replicates, four set each
    /// component (`"x"`, `"wzyx"`); fewer than four repeat the last, as assemblers do.
    pub fn swz(mut self, s: &str) -> Self {
        let comps: Vec<Comp> = s
            .chars()
            .filter_map(|c| match c {
                'x' => Some(Comp::X),
                'y' => Some(Comp::Y),
                'z' => Some(Comp::Z),
                'w' => Some(Comp::W),
                _ => None,
            })
            .collect();
        if let Some(last) = comps.last().copied() {
            for (i, slot) in self.swizzle.iter_mut().enumerate() {
                *slot = comps.get(i).copied().unwrap_or(last);
            }
        }
        self
    }
}

impl Default for Source {
    /// An unused source as the public assemblers leave it: input mux, identity swizzle.
    fn default() -> Self {
        Source::input()
    }
}

/// Where the output write of a slot goes (destination select).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutBank {
    /// 0: constant register c\[index\] (vertex state programs; xemu `OUTPUT_C`).
    Const,
    /// 1: output register o\[index\] (xemu `OUTPUT_O`).
    Output,
}

/// Which unit's result the output write takes (destination mux).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// 0: the MAC result.
    Mac,
    /// 1: the ILU result.
    Ilu,
}

/// One decoded slot: every field of seed 003 plus the bits the seed leaves unused, so that
/// [`Slot::encode`] gives back exactly the words [`Slot::decode`] was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// Word 0 (unused by the hardware; kept so images round-trip).
    pub word0: u32,
    /// Word 1 bits 28..31 (not in the seed's table; kept so images round-trip).
    pub unused_w1: u8,
    /// ILU operation.
    pub ilu: IluOp,
    /// MAC operation.
    pub mac: MacOp,
    /// Constant index (0-255 as encoded; c0-c191 exist).
    pub const_index: u8,
    /// Input index (v0-v15).
    pub input_index: u8,
    /// Sources 1, 2, 3 (A, B, C).
    pub src: [Source; 3],
    /// Components of the MAC result written to the destination temporary.
    pub mac_mask: Mask,
    /// Destination temporary register field (0-15).
    pub temp: u8,
    /// Components of the ILU result written to the destination temporary (to R1 when paired).
    pub ilu_mask: Mask,
    /// Components written to the output (or constant) register.
    pub out_mask: Mask,
    /// Output register bank.
    pub out_bank: OutBank,
    /// Output register index (o0-o12 or c0-c191 as encoded, 0-255).
    pub out_index: u8,
    /// Which unit feeds the output write.
    pub out_mux: Unit,
    /// Constant reads are relative to A0.x.
    pub relative: bool,
    /// The program ends after this slot.
    pub final_: bool,
}

impl Default for Slot {
    /// A NOP slot: both units idle, nothing written, unused sources on the input mux.
    fn default() -> Self {
        Slot {
            word0: 0,
            unused_w1: 0,
            ilu: IluOp::Nop,
            mac: MacOp::Nop,
            const_index: 0,
            input_index: 0,
            src: [Source::default(); 3],
            mac_mask: Mask::NONE,
            temp: 0,
            ilu_mask: Mask::NONE,
            out_mask: Mask::NONE,
            out_bank: OutBank::Output,
            out_index: 0,
            out_mux: Unit::Mac,
            relative: false,
            final_: false,
        }
    }
}

impl Slot {
    /// Decodes four words (word 0 first). Never fails: see [`MacOp::Reserved`], [`Mux::Reserved`].
    pub fn decode(w: &[u32; SLOT_WORDS]) -> Self {
        let src = std::array::from_fn(|i| {
            let f = &fields::SRC[i];
            let reg = match f.reg_lo {
                Some(lo) => (f.reg_hi.get(w) << 2) | lo.get(w),
                None => f.reg_hi.get(w),
            };
            Source {
                neg: f.neg.get(w) != 0,
                swizzle: std::array::from_fn(|c| Comp::from_bits(f.swz[c].get(w))),
                reg: reg as u8,
                mux: Mux::from_bits(f.mux.get(w)),
            }
        });
        Slot {
            word0: w[0],
            unused_w1: (w[1] >> 28) as u8,
            ilu: IluOp::from_bits(fields::ILU.get(w)),
            mac: MacOp::from_bits(fields::MAC.get(w)),
            const_index: fields::CONST.get(w) as u8,
            input_index: fields::INPUT.get(w) as u8,
            src,
            mac_mask: Mask(fields::MAC_MASK.get(w) as u8),
            temp: fields::TEMP.get(w) as u8,
            ilu_mask: Mask(fields::ILU_MASK.get(w) as u8),
            out_mask: Mask(fields::OUT_MASK.get(w) as u8),
            out_bank: if fields::OUT_SELECT.get(w) != 0 {
                OutBank::Output
            } else {
                OutBank::Const
            },
            out_index: fields::OUT_INDEX.get(w) as u8,
            out_mux: if fields::OUT_MUX.get(w) != 0 {
                Unit::Ilu
            } else {
                Unit::Mac
            },
            relative: fields::RELATIVE.get(w) != 0,
            final_: fields::FINAL.get(w) != 0,
        }
    }

    /// Encodes the slot into four words; values wider than their field are truncated to it.
    pub fn encode(&self) -> [u32; SLOT_WORDS] {
        let mut w = [self.word0, u32::from(self.unused_w1 & 0xF) << 28, 0, 0];
        fields::ILU.set(&mut w, self.ilu.bits());
        fields::MAC.set(&mut w, self.mac.bits());
        fields::CONST.set(&mut w, self.const_index.into());
        fields::INPUT.set(&mut w, self.input_index.into());
        for (s, f) in self.src.iter().zip(fields::SRC.iter()) {
            f.neg.set(&mut w, s.neg.into());
            for (c, fc) in s.swizzle.iter().zip(f.swz.iter()) {
                fc.set(&mut w, c.index() as u32);
            }
            match f.reg_lo {
                Some(lo) => {
                    f.reg_hi.set(&mut w, u32::from(s.reg) >> 2);
                    lo.set(&mut w, u32::from(s.reg) & 3);
                }
                None => f.reg_hi.set(&mut w, s.reg.into()),
            }
            f.mux.set(&mut w, s.mux.bits());
        }
        fields::MAC_MASK.set(&mut w, self.mac_mask.0.into());
        fields::TEMP.set(&mut w, self.temp.into());
        fields::ILU_MASK.set(&mut w, self.ilu_mask.0.into());
        fields::OUT_MASK.set(&mut w, self.out_mask.0.into());
        fields::OUT_SELECT.set(&mut w, (self.out_bank == OutBank::Output).into());
        fields::OUT_INDEX.set(&mut w, self.out_index.into());
        fields::OUT_MUX.set(&mut w, (self.out_mux == Unit::Ilu).into());
        fields::RELATIVE.set(&mut w, self.relative.into());
        fields::FINAL.set(&mut w, self.final_.into());
        w
    }

    /// Whether both units work in this slot (the ILU's temporary write then goes to R1).
    pub fn is_paired(&self) -> bool {
        self.mac != MacOp::Nop && self.ilu != IluOp::Nop
    }

    // A small encoder: builder methods that make hand-built slots readable, e.g.
    // `Slot::mac(MacOp::Dp4).a(Source::input()).b(Source::constant()).constant(96).out(0, "x", Unit::Mac)`.

    /// A slot with MAC operation `op` and nothing else (see [`Slot::default`]).
    pub fn mac(op: MacOp) -> Self {
        Slot {
            mac: op,
            ..Slot::default()
        }
    }

    /// A slot with ILU operation `op` and nothing else.
    pub fn ilu(op: IluOp) -> Self {
        Slot {
            ilu: op,
            ..Slot::default()
        }
    }

    /// Sets the ILU operation (pairing it with the MAC's).
    pub fn with_ilu(mut self, op: IluOp) -> Self {
        self.ilu = op;
        self
    }

    /// Sets source 1 (A).
    pub fn a(mut self, s: Source) -> Self {
        self.src[0] = s;
        self
    }

    /// Sets source 2 (B).
    pub fn b(mut self, s: Source) -> Self {
        self.src[1] = s;
        self
    }

    /// Sets source 3 (C).
    pub fn c(mut self, s: Source) -> Self {
        self.src[2] = s;
        self
    }

    /// Sets the input index the input-mux sources read.
    pub fn input(mut self, v: u8) -> Self {
        self.input_index = v;
        self
    }

    /// Sets the constant index the constant-mux sources read.
    pub fn constant(mut self, c: u8) -> Self {
        self.const_index = c;
        self
    }

    /// Makes constant reads relative to A0.x.
    pub fn rel(mut self) -> Self {
        self.relative = true;
        self
    }

    /// The MAC result goes to temporary `r` under mask `mask` (letters, e.g. `"xyz"`). Sets the
    /// temporary field, which MAC and an unpaired ILU share.
    pub fn mac_to(mut self, r: u8, mask: &str) -> Self {
        self.temp = r;
        self.mac_mask = Mask::from_letters(mask);
        self
    }

    /// The ILU result goes to temporary `r` under `mask` — to R1 instead when the slot is paired.
    /// Sets the temporary field, which the MAC shares.
    pub fn ilu_to(mut self, r: u8, mask: &str) -> Self {
        self.temp = r;
        self.ilu_mask = Mask::from_letters(mask);
        self
    }

    /// Unit `unit`'s result goes to output register `o` under `mask`.
    pub fn out(mut self, o: u8, mask: &str, unit: Unit) -> Self {
        self.out_bank = OutBank::Output;
        self.out_index = o;
        self.out_mask = Mask::from_letters(mask);
        self.out_mux = unit;
        self
    }

    /// Unit `unit`'s result goes to constant register `c` under `mask`.
    pub fn const_out(mut self, c: u8, mask: &str, unit: Unit) -> Self {
        self.out_bank = OutBank::Const;
        self.out_index = c;
        self.out_mask = Mask::from_letters(mask);
        self.out_mux = unit;
        self
    }

    /// Sets the final instruction marker.
    pub fn last(mut self) -> Self {
        self.final_ = true;
        self
    }
}

/// Why a program image was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    /// The image holds no slot at all.
    #[error("empty image: a program needs at least one 16-byte slot")]
    Empty,
    /// The image does not end on a slot boundary.
    #[error("truncated image: {len} {unit}s is not a whole number of {per}-{unit} slots (slot {slot} at {unit} offset {offset} has only {have} of {per} {unit}s)")]
    Truncated {
        /// Image length in `unit`s.
        len: usize,
        /// "byte" or "word".
        unit: &'static str,
        /// Units per slot.
        per: usize,
        /// Index of the incomplete slot.
        slot: usize,
        /// Where it starts, in `unit`s.
        offset: usize,
        /// How many units of it are present.
        have: usize,
    },
    /// More slots than the hardware holds.
    #[error("image has {slots} slots; the NV2A holds at most {max}")]
    TooLong {
        /// Slots in the image.
        slots: usize,
        /// [`MAX_SLOTS`].
        max: usize,
    },
    /// No slot from the start on has the final instruction marker.
    #[error("no final instruction marker (word 3 bit 0) in slots {start}..{last}: the program would run off its end")]
    NoFinal {
        /// First slot that would run.
        start: usize,
        /// Last slot of the image.
        last: usize,
    },
    /// The start slot is outside the image.
    #[error("start slot {start} is outside the image (slots 0..{last})")]
    BadStart {
        /// Requested start slot.
        start: usize,
        /// Last slot of the image.
        last: usize,
    },
}

/// A vertex program image: 1 to [`MAX_SLOTS`] decoded slots and its raw words.
///
/// An image is the program memory from slot 0 up: `16 * n` bytes (`4 * n` little-endian words,
/// word 0 of each slot first) for `1 <= n <= 136`. It may be shorter than 136 slots; it must
/// contain a slot with the final marker at or after the slot execution starts at (slot 0 unless
/// told otherwise), which is checked on load. Slots after the first final marker are kept (and
/// disassembled) but never run from a start before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The decoded slots, slot 0 first.
    pub slots: Vec<Slot>,
}

impl Program {
    /// Builds a program from words (4 per slot), checking length and final marker from slot 0.
    pub fn from_words(words: &[u32]) -> Result<Self, ImageError> {
        Self::from_words_at(words, 0)
    }

    /// As [`Program::from_words`], checking for a final marker from slot `start` on.
    pub fn from_words_at(words: &[u32], start: usize) -> Result<Self, ImageError> {
        if words.len() % SLOT_WORDS != 0 {
            let slot = words.len() / SLOT_WORDS;
            return Err(ImageError::Truncated {
                len: words.len(),
                unit: "word",
                per: SLOT_WORDS,
                slot,
                offset: slot * SLOT_WORDS,
                have: words.len() % SLOT_WORDS,
            });
        }
        let slots: Vec<Slot> = words
            .chunks_exact(SLOT_WORDS)
            .map(|c| Slot::decode(&[c[0], c[1], c[2], c[3]]))
            .collect();
        let p = Program { slots };
        p.check(start)?;
        Ok(p)
    }

    /// Builds a program from raw little-endian bytes (16 per slot).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ImageError> {
        Self::from_bytes_at(bytes, 0)
    }

    /// As [`Program::from_bytes`], checking for a final marker from slot `start` on.
    pub fn from_bytes_at(bytes: &[u8], start: usize) -> Result<Self, ImageError> {
        if bytes.len() % SLOT_BYTES != 0 {
            let slot = bytes.len() / SLOT_BYTES;
            return Err(ImageError::Truncated {
                len: bytes.len(),
                unit: "byte",
                per: SLOT_BYTES,
                slot,
                offset: slot * SLOT_BYTES,
                have: bytes.len() % SLOT_BYTES,
            });
        }
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Self::from_words_at(&words, start)
    }

    /// Builds a program from slots, with the same checks as [`Program::from_words`].
    pub fn from_slots(slots: Vec<Slot>) -> Result<Self, ImageError> {
        let p = Program { slots };
        p.check(0)?;
        Ok(p)
    }

    /// Checks size limits and that a final marker follows `start`.
    pub fn check(&self, start: usize) -> Result<(), ImageError> {
        let n = self.slots.len();
        if n == 0 {
            return Err(ImageError::Empty);
        }
        if n > MAX_SLOTS {
            return Err(ImageError::TooLong {
                slots: n,
                max: MAX_SLOTS,
            });
        }
        if start >= n {
            return Err(ImageError::BadStart { start, last: n - 1 });
        }
        if !self.slots[start..].iter().any(|s| s.final_) {
            return Err(ImageError::NoFinal { start, last: n - 1 });
        }
        Ok(())
    }

    /// The image as words, 4 per slot.
    pub fn to_words(&self) -> Vec<u32> {
        self.slots.iter().flat_map(|s| s.encode()).collect()
    }

    /// The image as little-endian bytes, 16 per slot.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_words()
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }

    /// The image as text: one slot per line, four `0x%08x` words, a `# slot n` comment.
    pub fn to_hex_text(&self) -> String {
        let mut s = String::new();
        for (i, slot) in self.slots.iter().enumerate() {
            let w = slot.encode();
            s.push_str(&format!(
                "0x{:08x} 0x{:08x} 0x{:08x} 0x{:08x}  # slot {i}\n",
                w[0], w[1], w[2], w[3]
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nv2a_decode_field_table_covers_words_1_to_3_without_overlap() {
        let mut all = vec![
            fields::ILU,
            fields::MAC,
            fields::CONST,
            fields::INPUT,
            fields::MAC_MASK,
            fields::TEMP,
            fields::ILU_MASK,
            fields::OUT_MASK,
            fields::OUT_SELECT,
            fields::OUT_INDEX,
            fields::OUT_MUX,
            fields::RELATIVE,
            fields::FINAL,
        ];
        for s in fields::SRC {
            all.push(s.neg);
            all.extend(s.swz);
            all.push(s.reg_hi);
            all.extend(s.reg_lo);
            all.push(s.mux);
        }
        let mut used = [0u32; 4];
        for f in &all {
            let m = ((1u64 << f.width) - 1) as u32;
            assert_eq!(used[f.word] & (m << f.lsb), 0, "{f} overlaps");
            used[f.word] |= m << f.lsb;
        }
        // Word 1 bits 28..31 are the only bits outside the seed's table.
        assert_eq!(used, [0, 0x0FFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF]);
    }

    #[test]
    fn nv2a_decode_encode_round_trips_every_bit() {
        let w = [0xDEAD_BEEF, 0xF123_4567, 0x89AB_CDEF, 0x0246_8ACE];
        assert_eq!(Slot::decode(&w).encode(), w);
    }

    #[test]
    fn nv2a_decode_mask_bit3_is_x() {
        assert!(Mask(8).has(Comp::X));
        assert!(Mask(1).has(Comp::W));
        assert_eq!(Mask::from_letters("xw"), Mask(9));
        assert_eq!(Mask(6).letters(), "yz");
    }

    #[test]
    fn nv2a_decode_field_display_names_word_and_bits() {
        assert_eq!(
            fields::MAC.to_string(),
            "MAC operation (word 1 bits 21..24)"
        );
        assert_eq!(
            fields::FINAL.to_string(),
            "final instruction marker (word 3 bit 0)"
        );
    }
}
