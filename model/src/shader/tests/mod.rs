//! Shader tests: every comparison is on bit patterns.

mod alu;
mod interp;

use super::interp::{Emitted, Knobs, RunEnd, ShaderUnit};
use super::isa::*;
use crate::num::F24;
use crate::regfile::unit::UnitConfig;

/// f24 from bits.
pub(super) fn b(bits: u32) -> F24 {
    F24::from_bits(bits)
}

/// f24 from an exactly representable decimal.
pub(super) fn f(x: f64) -> F24 {
    let r = F24::from_f64_trunc(x);
    assert_eq!(r.to_f64(), x, "{x} is not exact in f24");
    r
}

pub(super) fn v4(x: [f64; 4]) -> [F24; 4] {
    x.map(f)
}

pub(super) fn bits(v: [F24; 4]) -> [u32; 4] {
    v.map(F24::bits)
}

/// A program under construction: code, descriptors and uniforms.
pub(super) struct Prog {
    pub cfg: UnitConfig,
    code: Vec<u32>,
    descs: Vec<u32>,
}

pub(super) fn src(name: &str) -> SrcReg {
    SrcReg::from_name(name).unwrap()
}
pub(super) fn dst(name: &str) -> DstReg {
    DstReg::from_name(name).unwrap()
}

/// Descriptor: mask letters, then per source "-xyzw" style (leading '-' negates).
pub(super) fn desc(mask: &str, srcs: [&str; 3]) -> OpDesc {
    let s = srcs.map(|t| {
        let (neg, t) = t.strip_prefix('-').map_or((false, t), |r| (true, r));
        (neg, Swizzle::parse(t).unwrap())
    });
    OpDesc::new(DestMask::parse(mask).unwrap(), s)
}

impl Prog {
    pub fn new() -> Self {
        Self {
            cfg: UnitConfig::default(),
            code: Vec::new(),
            descs: Vec::new(),
        }
    }
    pub fn pc(&self) -> u16 {
        self.code.len() as u16
    }
    pub fn desc_index(&mut self, d: OpDesc) -> u8 {
        if let Some(i) = self.descs.iter().position(|&x| x == d.0) {
            return i as u8;
        }
        self.descs.push(d.0);
        (self.descs.len() - 1) as u8
    }
    pub fn push(&mut self, inst: Instruction) -> &mut Self {
        assert!(inst.is_well_formed(), "{inst:?}");
        self.code.push(encode(&inst));
        self
    }
    pub fn word(&mut self, w: u32) -> &mut Self {
        self.code.push(w);
        self
    }
    /// Format 1/1i/1u instruction with the default identity descriptor.
    pub fn alu(&mut self, op: Opcode, d: &str, s1: &str, s2: &str) -> &mut Self {
        self.alu_d(op, d, s1, s2, OpDesc::IDENTITY, RelIndex::None)
    }
    pub fn alu_d(
        &mut self,
        op: Opcode,
        d: &str,
        s1: &str,
        s2: &str,
        od: OpDesc,
        idx: RelIndex,
    ) -> &mut Self {
        let desc = self.desc_index(od);
        self.push(Instruction::Alu {
            op,
            dst: dst(d),
            src1: src(s1),
            src2: if s2.is_empty() {
                SrcReg::default()
            } else {
                src(s2)
            },
            idx,
            desc,
        })
    }
    pub fn mad(&mut self, op: Opcode, d: &str, s: [&str; 3], od: OpDesc) -> &mut Self {
        let desc = self.desc_index(od);
        self.push(Instruction::Mad {
            op,
            dst: dst(d),
            src1: src(s[0]),
            src2: src(s[1]),
            src3: src(s[2]),
            idx: RelIndex::None,
            desc,
        })
    }
    pub fn cmp(&mut self, s1: &str, x: CmpOp, y: CmpOp, s2: &str) -> &mut Self {
        let desc = self.desc_index(OpDesc::IDENTITY);
        self.push(Instruction::Cmp {
            src1: src(s1),
            src2: src(s2),
            idx: RelIndex::None,
            cmp_x: x,
            cmp_y: y,
            desc,
        })
    }
    pub fn flow(&mut self, op: Opcode, cond: Condition, target: u16, num: u8) -> &mut Self {
        self.push(Instruction::Flow {
            op,
            cond,
            target,
            num,
        })
    }
    pub fn flow_u(&mut self, op: Opcode, id: u8, target: u16, num: u8) -> &mut Self {
        self.push(Instruction::FlowUniform {
            op,
            id,
            target,
            num,
        })
    }
    pub fn plain(&mut self, op: Opcode) -> &mut Self {
        self.push(Instruction::Plain(op))
    }
    pub fn end(&mut self) -> &mut Self {
        self.plain(Opcode::End)
    }
    pub fn uniform(&mut self, n: usize, v: [F24; 4]) -> &mut Self {
        self.cfg.float_uniforms[n] = v;
        self
    }
    /// The finished configuration.
    pub fn config(&self) -> UnitConfig {
        let mut cfg = self.cfg.clone();
        cfg.code[..self.code.len()].copy_from_slice(&self.code);
        cfg.opdescs[..self.descs.len()].copy_from_slice(&self.descs);
        cfg
    }
    /// Runs with inputs `v`, default knobs, 10 000 instructions at most.
    pub fn run(&self, inputs: &[[F24; 4]]) -> (ShaderUnit, RunEnd, Vec<Emitted>) {
        self.run_knobs(inputs, Knobs::default())
    }
    pub fn run_knobs(
        &self,
        inputs: &[[F24; 4]],
        knobs: Knobs,
    ) -> (ShaderUnit, RunEnd, Vec<Emitted>) {
        let cfg = self.config();
        let mut u = ShaderUnit::new(knobs);
        u.inputs[..inputs.len()].copy_from_slice(inputs);
        let mut em = Vec::new();
        let end = u.run(&cfg, 0, 10_000, &mut em);
        (u, end, em)
    }
}
