//! Shared by the shader tests (`shader_unit.rs`, `sh_stage.rs`): a seeded splitmix64 generator
//! and the random shader-program generator (every opcode and format, nested IF/LOOP/CALL,
//! relative addressing, random operand descriptors, edge-case floats).

// Each test crate uses a different part of this module.
#![allow(dead_code)]

use pica_model::num::F24;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::isa::{
    encode, CmpOp, CondOp, Condition, DstReg, Instruction, Opcode, RelIndex, SrcReg,
};

/// splitmix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// An f24 biased to the edge cases: ±0, subnormals, ±inf, NaN, exponent edges, small exact
/// values, and random bits.
pub fn edgy_f24(r: &mut Rng) -> F24 {
    let sign = (r.below(2) as u32) << 23;
    let mant = r.below(1 << 16) as u32;
    let bits = match r.below(12) {
        0 => 0,
        1 => sign,
        2 => sign | mant.max(1),                             // subnormal
        3 => sign | 0x7F << 16,                              // inf
        4 => 0x7F << 16 | mant.max(1),                       // NaN
        5 => sign | 1 << 16 | mant,                          // smallest normals
        6 => sign | 0x7E << 16 | mant,                       // largest normals
        7 => sign | r.pick(&[0x3F, 0x40, 0x3E, 0x41]) << 16, // ±1, ±2, ±0.5, ±4
        8 => sign | (0x3F + r.below(4) as u32) << 16 | (mant & 0xC000),
        9 => sign | (0x38 + r.below(16) as u32) << 16 | mant, // moderate magnitudes
        _ => r.below(1 << 24) as u32,
    };
    F24::from_bits(bits)
}

pub fn edgy_vec(r: &mut Rng) -> [F24; 4] {
    if r.chance(20) {
        let x = edgy_f24(r);
        return [x; 4];
    }
    [edgy_f24(r), edgy_f24(r), edgy_f24(r), edgy_f24(r)]
}

pub const ALU_OPS: &[Opcode] = &[
    Opcode::Add,
    Opcode::Dp3,
    Opcode::Dp4,
    Opcode::Dph,
    Opcode::Dst,
    Opcode::Ex2,
    Opcode::Lg2,
    Opcode::Litp,
    Opcode::Mul,
    Opcode::Sge,
    Opcode::Slt,
    Opcode::Flr,
    Opcode::Max,
    Opcode::Min,
    Opcode::Rcp,
    Opcode::Rsq,
    Opcode::Mov,
    Opcode::Dphi,
    Opcode::Dsti,
    Opcode::Sgei,
    Opcode::Slti,
];

/// A program under construction: the main code from 0, subroutines at `SUB_BASE + 32 k`.
pub struct Gen<'a> {
    pub r: &'a mut Rng,
    pub code: Vec<u32>,
    pub subs: usize,
    pub loop_depth: usize,
}

pub const SUB_BASE: usize = 0x100;
pub const SUB_SPAN: usize = 32;
pub const SUBS: usize = 3;

impl Gen<'_> {
    pub fn at(&mut self, pc: usize, word: u32) {
        if self.code.len() <= pc {
            self.code
                .resize(pc + 1, encode(&Instruction::Plain(Opcode::Nop)));
        }
        self.code[pc] = word;
    }

    fn cond(&mut self) -> Condition {
        Condition {
            op: CondOp::from_bits(self.r.below(4) as u32),
            ref_x: self.r.chance(50),
            ref_y: self.r.chance(50),
        }
    }

    fn wide_src(&mut self) -> SrcReg {
        match self.r.below(10) {
            0..=2 => SrcReg::from_raw(self.r.below(16) as u8),
            3..=4 => SrcReg::from_raw(0x10 + self.r.below(16) as u8),
            _ => SrcReg::from_raw(0x20 + self.r.below(96) as u8),
        }
    }

    fn narrow_src(&mut self) -> SrcReg {
        SrcReg::from_raw(self.r.below(32) as u8)
    }

    fn idx(&mut self) -> RelIndex {
        if self.r.chance(60) {
            RelIndex::None
        } else {
            RelIndex::from_bits(self.r.below(4) as u32)
        }
    }

    fn dst(&mut self) -> DstReg {
        DstReg::from_raw(self.r.below(32) as u8)
    }

    /// One non-flow instruction.
    pub fn simple(&mut self) -> Instruction {
        let desc = self.r.below(128) as u8;
        match self.r.below(20) {
            0..=9 => {
                let op = self.r.pick(ALU_OPS);
                let (src1, src2) = match op.format() {
                    pica_model::shader::isa::Format::F1i => (self.narrow_src(), self.wide_src()),
                    pica_model::shader::isa::Format::F1u => (self.wide_src(), SrcReg::default()),
                    _ => (self.wide_src(), self.narrow_src()),
                };
                Instruction::Alu {
                    op,
                    dst: self.dst(),
                    src1,
                    src2,
                    idx: self.idx(),
                    desc,
                }
            }
            10..=12 => {
                let op = self.r.pick(&[Opcode::Mad, Opcode::Madi]);
                let (src2, src3) = if op == Opcode::Mad {
                    (self.wide_src(), self.narrow_src())
                } else {
                    (self.narrow_src(), self.wide_src())
                };
                Instruction::Mad {
                    op,
                    dst: self.dst(),
                    src1: self.narrow_src(),
                    src2,
                    src3,
                    idx: self.idx(),
                    desc: desc & 31,
                }
            }
            13..=14 => Instruction::Cmp {
                src1: self.wide_src(),
                src2: self.narrow_src(),
                idx: self.idx(),
                cmp_x: CmpOp::from_bits(self.r.below(8) as u32),
                cmp_y: CmpOp::from_bits(self.r.below(8) as u32),
                desc,
            },
            15..=16 => Instruction::Alu {
                op: Opcode::Mova,
                dst: DstReg::default(),
                src1: self.wide_src(),
                src2: SrcReg::default(),
                idx: self.idx(),
                desc,
            },
            17 => Instruction::SetEmit {
                vtx_id: self.r.below(4) as u8,
                winding: self.r.chance(50),
                prim_emit: self.r.chance(50),
            },
            18 => Instruction::Plain(Opcode::Emit),
            _ => Instruction::Plain(Opcode::Nop),
        }
    }

    /// Emits a block from `pc` of about `budget` instructions; returns the next free pc.
    /// `min_sub`: the first subroutine it may call (subroutine k calls only later ones, so
    /// calls cannot recurse).
    pub fn block(&mut self, mut pc: usize, budget: usize, depth: usize, min_sub: usize) -> usize {
        let end = pc + budget;
        while pc < end {
            let kind = if depth >= 3 { 0 } else { self.r.below(14) };
            match kind {
                // IF: then-body [pc+1, dst), else-body [dst, dst+num).
                9 | 10 => {
                    let then_start = pc + 1;
                    let b = 1 + self.r.below(3) as usize;
                    let then_end = self.block(then_start, b, depth + 1, min_sub);
                    let b = self.r.below(3) as usize;
                    let else_end = self.block(then_end, b, depth + 1, min_sub);
                    let (dst, num) = (then_end as u16, (else_end - then_end) as u8);
                    let inst = if self.r.chance(50) {
                        Instruction::FlowUniform {
                            op: Opcode::Ifu,
                            id: self.r.below(16) as u8,
                            target: dst,
                            num,
                        }
                    } else {
                        Instruction::Flow {
                            op: Opcode::Ifc,
                            cond: self.cond(),
                            target: dst,
                            num,
                        }
                    };
                    self.at(pc, encode(&inst));
                    pc = else_end;
                }
                // LOOP: body [pc+1, dst], maybe with a BREAKC/BREAK inside.
                11 => {
                    self.loop_depth += 1;
                    let b = 1 + self.r.below(3) as usize;
                    let body_end = self.block(pc + 1, b, depth + 1, min_sub);
                    self.loop_depth -= 1;
                    let inst = Instruction::FlowUniform {
                        op: Opcode::Loop,
                        id: self.r.below(4) as u8,
                        target: (body_end - 1) as u16,
                        num: 0,
                    };
                    self.at(pc, encode(&inst));
                    pc = body_end;
                }
                // CALL of a later subroutine.
                12 if min_sub < self.subs => {
                    let k = min_sub + self.r.below((self.subs - min_sub) as u64) as usize;
                    let target = (SUB_BASE + SUB_SPAN * k) as u16;
                    let num = 1 + self.r.below(4) as u8;
                    let inst = match self.r.below(3) {
                        0 => Instruction::Flow {
                            op: Opcode::Call,
                            cond: Condition::default(),
                            target,
                            num,
                        },
                        1 => Instruction::Flow {
                            op: Opcode::Callc,
                            cond: self.cond(),
                            target,
                            num,
                        },
                        _ => Instruction::FlowUniform {
                            op: Opcode::Callu,
                            id: self.r.below(16) as u8,
                            target,
                            num,
                        },
                    };
                    self.at(pc, encode(&inst));
                    pc += 1;
                }
                // Forward jump over a short block.
                13 => {
                    let b = 1 + self.r.below(2) as usize;
                    let after = self.block(pc + 1, b, depth + 1, min_sub);
                    let inst = if self.r.chance(50) {
                        Instruction::Flow {
                            op: Opcode::Jmpc,
                            cond: self.cond(),
                            target: after as u16,
                            num: 0,
                        }
                    } else {
                        Instruction::FlowUniform {
                            op: Opcode::Jmpu,
                            id: self.r.below(16) as u8,
                            target: after as u16,
                            num: self.r.below(2) as u8,
                        }
                    };
                    self.at(pc, encode(&inst));
                    pc = after;
                }
                _ => {
                    let inst = if self.loop_depth > 0 && self.r.chance(8) {
                        if self.r.chance(70) {
                            Instruction::Flow {
                                op: Opcode::Breakc,
                                cond: self.cond(),
                                target: self.r.below(4096) as u16,
                                num: self.r.below(256) as u8,
                            }
                        } else {
                            Instruction::Plain(Opcode::Break)
                        }
                    } else if self.r.chance(1) {
                        // Rare: END mid-program, BREAK outside a loop, an unknown opcode.
                        match self.r.below(3) {
                            0 => Instruction::Plain(Opcode::End),
                            1 => Instruction::Plain(Opcode::Break),
                            _ => Instruction::Unknown(
                                (self.r.pick(&[0x10u32, 0x11, 0x14, 0x17, 0x1C, 0x1F]) << 26)
                                    | (self.r.next() as u32 & 0x03FF_FFFF),
                            ),
                        }
                    } else {
                        self.simple()
                    };
                    self.at(pc, encode(&inst));
                    pc += 1;
                }
            }
        }
        pc
    }
}

/// A random program and configuration, deterministic from `seed`.
pub fn random_case(seed: u64) -> (UnitConfig, [[F24; 4]; 16], usize) {
    let mut r = Rng(seed);
    let mut cfg = UnitConfig::default();
    for d in cfg.opdescs.iter_mut() {
        *d = r.next() as u32 & 0x7FFF_FFFF;
        if r.chance(30) {
            // Identity swizzles are common in real code.
            *d = (*d & 0x0000_000F) | 0x1B << 5 | 0x1B << 14 | 0x1B << 23 | (*d & 0x0040_2010);
        }
    }
    for u in cfg.float_uniforms.iter_mut() {
        *u = edgy_vec(&mut r);
    }
    for i in cfg.int_uniforms.iter_mut() {
        *i = [
            r.below(4) as u8,
            r.next() as u8,
            {
                let any = r.next() as u8;
                r.pick(&[0u8, 1, 2, 255, 0x80, any])
            },
            r.next() as u8,
        ];
    }
    cfg.bool_uniforms = r.next() as u16;
    let mut inputs = [[F24::ZERO; 4]; 16];
    for v in inputs.iter_mut() {
        *v = edgy_vec(&mut r);
    }
    // Small integers in some inputs make MOVA offsets land in range.
    for v in inputs.iter_mut().take(4) {
        if r.chance(50) {
            let n = r.below(100) as i32 - 40;
            *v = [0, 1, 2, 3].map(|k| F24::from_f64_trunc(f64::from(n + 7 * k)));
        }
    }
    let mut g = Gen {
        r: &mut r,
        code: Vec::new(),
        subs: SUBS,
        loop_depth: 0,
    };
    for k in (0..SUBS).rev() {
        let base = SUB_BASE + SUB_SPAN * k;
        let budget = 2 + g.r.below(6) as usize;
        let end = g.block(base, budget, 1, k + 1);
        assert!(end < base + SUB_SPAN, "subroutine {k} overflows");
    }
    let budget = 6 + g.r.below(24) as usize;
    let end = g.block(0, budget, 0, 0);
    assert!(end < SUB_BASE, "main program overflows");
    g.at(end, encode(&Instruction::Plain(Opcode::End)));
    let code = g.code;
    cfg.code[..code.len()].copy_from_slice(&code);
    (cfg, inputs, code.len())
}
