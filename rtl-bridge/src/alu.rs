//! The Verilated f24 ALU (`rtl/pica_alu_top.sv`) and the model's answer for the same operands.
//!
//! [`RtlAlu`] evaluates batches of operand sets on the RTL (one FFI call per batch, the loop in
//! C++), [`model_eval`] computes what `pica_model::shader::alu` (and the MOVA/CMP rules of
//! `shader::interp`, and the rasterizer's f24 operations of `pica_model::rast`) give for them, with the same lane conventions, so a checker compares the
//! two words for words. `pica alu-check` and `tests/alu.rs` are built on these.

use crate::ffi::AluHandle;
use pica_model::num::F24;
use pica_model::rast::{interp, setup};
use pica_model::shader::alu::{self, MaxNegInf};

/// An ALU operation: the `op_i` encoding of `pica_alu_top` (the discriminant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum AluOp {
    /// `add(a[i], b[i])` per lane.
    Add = 0,
    /// `mul(a[i], b[i])` per lane.
    Mul = 1,
    /// `mad(a[i], b[i], c[i])` per lane.
    Mad = 2,
    /// `dot(a.xyz, b.xyz)` in every lane.
    Dp3 = 3,
    /// `dot(a, b)` in every lane.
    Dp4 = 4,
    /// `dot((a.x, a.y, a.z, 1.0), b)` in every lane.
    Dph = 5,
    /// `rcp(a.x)` in every lane.
    Rcp = 6,
    /// `rsq(a.x)` in every lane.
    Rsq = 7,
    /// `ex2(a.x)` in every lane.
    Ex2 = 8,
    /// `lg2(a.x)` in every lane.
    Lg2 = 9,
    /// `flr(a[i])` per lane.
    Flr = 10,
    /// `max(a[i], b[i], knob)` per lane.
    Max = 11,
    /// `min(a[i], b[i])` per lane.
    Min = 12,
    /// `sge(a[i], b[i])` per lane.
    Sge = 13,
    /// `slt(a[i], b[i])` per lane.
    Slt = 14,
    /// CMP's comparison per lane, without flush: bit 0 `a < b`, bit 1 `a == b`, bit 2 `a > b`.
    Cmp = 15,
    /// MOVA's conversion per lane: `a[i].to_f64().trunc() as i32`, as `u32` bits.
    Mova = 16,
    /// `F24::from_f32_bits(a[0])` (all 32 bits of lane 0) in lane 0; other lanes 0.
    F32ToF24 = 17,
    /// `rast::interp::div(a[i], b[i])` per lane (the rasterizer's perspective division).
    Div = 18,
    /// `rast::setup::to_fix12p4(a[i])` per lane, as `i32` bits.
    Fix12p4 = 19,
    /// `rast::interp::color_to_u8(a[i])` per lane.
    ColorU8 = 20,
    /// `rast::interp::depth_to_uint(a[i], 16)` per lane.
    Depth16 = 21,
    /// `rast::interp::depth_to_uint(a[i], 24)` per lane.
    Depth24 = 22,
    /// `rast::interp::weight_f24(v)` in every lane, `v` the signed 36-bit integer of lane 0's
    /// 24 bits and lane 1's low 12 bits (`v = sext36(a[1] << 24 | a[0])`, see [`weight_input`]).
    Weight = 23,
    /// `rcp(a.x)` in every lane, on the shader unit's multi-cycle special-function unit
    /// (`pica_sh_sfu`, a model of its own: clocked from start to done for every set).
    RcpSfu = 24,
    /// `rsq(a.x)` in every lane, on `pica_sh_sfu`.
    RsqSfu = 25,
    /// `ex2(a.x)` in every lane, on `pica_sh_sfu`.
    Ex2Sfu = 26,
    /// `lg2(a.x)` in every lane, on `pica_sh_sfu`.
    Lg2Sfu = 27,
    /// `rcp(a.x)` in every lane, on the clipper's multi-cycle reciprocal (`pica_f24_rcp_mc` in
    /// `pica_clip`'s configuration, in the same model as `pica_sh_sfu`).
    RcpClip = 28,
    /// `rast::interp::div(a[i], b[i])` per lane, on the rasterizer's pipelined divider
    /// (`pica_f24_div_p`, in the same model as `pica_sh_sfu`, clocked per lane).
    DivRast = 29,
    /// `rcp(a.x)` in every lane, on the texture units' pipelined reciprocal (`pica_f24_rcp_p`
    /// in `pica_tex_top`'s configuration, in the same model as `pica_sh_sfu`).
    RcpTex = 30,
}

impl AluOp {
    /// Every op, in encoding order.
    pub const ALL: [AluOp; 31] = [
        AluOp::Add,
        AluOp::Mul,
        AluOp::Mad,
        AluOp::Dp3,
        AluOp::Dp4,
        AluOp::Dph,
        AluOp::Rcp,
        AluOp::Rsq,
        AluOp::Ex2,
        AluOp::Lg2,
        AluOp::Flr,
        AluOp::Max,
        AluOp::Min,
        AluOp::Sge,
        AluOp::Slt,
        AluOp::Cmp,
        AluOp::Mova,
        AluOp::F32ToF24,
        AluOp::Div,
        AluOp::Fix12p4,
        AluOp::ColorU8,
        AluOp::Depth16,
        AluOp::Depth24,
        AluOp::Weight,
        AluOp::RcpSfu,
        AluOp::RsqSfu,
        AluOp::Ex2Sfu,
        AluOp::Lg2Sfu,
        AluOp::RcpClip,
        AluOp::DivRast,
        AluOp::RcpTex,
    ];

    /// The lower-case name (`add`, ..., `mova`, `f32_to_f24`, `div`, ..., `weight`).
    pub fn name(self) -> &'static str {
        match self {
            AluOp::Add => "add",
            AluOp::Mul => "mul",
            AluOp::Mad => "mad",
            AluOp::Dp3 => "dp3",
            AluOp::Dp4 => "dp4",
            AluOp::Dph => "dph",
            AluOp::Rcp => "rcp",
            AluOp::Rsq => "rsq",
            AluOp::Ex2 => "ex2",
            AluOp::Lg2 => "lg2",
            AluOp::Flr => "flr",
            AluOp::Max => "max",
            AluOp::Min => "min",
            AluOp::Sge => "sge",
            AluOp::Slt => "slt",
            AluOp::Cmp => "cmp",
            AluOp::Mova => "mova",
            AluOp::F32ToF24 => "f32_to_f24",
            AluOp::Div => "div",
            AluOp::Fix12p4 => "fix12p4",
            AluOp::ColorU8 => "color_u8",
            AluOp::Depth16 => "depth16",
            AluOp::Depth24 => "depth24",
            AluOp::Weight => "weight",
            AluOp::RcpSfu => "rcp_sfu",
            AluOp::RsqSfu => "rsq_sfu",
            AluOp::Ex2Sfu => "ex2_sfu",
            AluOp::Lg2Sfu => "lg2_sfu",
            AluOp::RcpClip => "rcp_clip",
            AluOp::DivRast => "div_rast",
            AluOp::RcpTex => "rcp_tex",
        }
    }

    /// The op of the combinational modules that computes the same function: the SFU ops give
    /// their combinational twin (`RcpSfu` → `Rcp`, ...), every other op itself. Arity and
    /// lane conventions are the twin's.
    pub fn reference(self) -> AluOp {
        match self {
            AluOp::RcpSfu | AluOp::RcpClip | AluOp::RcpTex => AluOp::Rcp,
            AluOp::RsqSfu => AluOp::Rsq,
            AluOp::Ex2Sfu => AluOp::Ex2,
            AluOp::Lg2Sfu => AluOp::Lg2,
            AluOp::DivRast => AluOp::Div,
            op => op,
        }
    }

    /// The op called `name` (case-insensitive, `-` or `_`).
    pub fn from_name(name: &str) -> Option<AluOp> {
        let n = name.to_ascii_lowercase().replace('-', "_");
        AluOp::ALL.into_iter().find(|op| op.name() == n)
    }

    /// Number of operands read: 1 (a), 2 (a, b) or 3 (a, b, c).
    pub fn arity(self) -> usize {
        match self.reference() {
            AluOp::Rcp
            | AluOp::Rsq
            | AluOp::Ex2
            | AluOp::Lg2
            | AluOp::Flr
            | AluOp::Mova
            | AluOp::F32ToF24
            | AluOp::Fix12p4
            | AluOp::ColorU8
            | AluOp::Depth16
            | AluOp::Depth24
            | AluOp::Weight => 1,
            AluOp::Mad => 3,
            _ => 2,
        }
    }

    /// True for the ops that read only lane x of `a` (WEIGHT: lanes x and y as one integer)
    /// and write every lane.
    pub fn scalar(self) -> bool {
        matches!(
            self.reference(),
            AluOp::Rcp | AluOp::Rsq | AluOp::Ex2 | AluOp::Lg2 | AluOp::F32ToF24 | AluOp::Weight
        )
    }
}

/// Could not create the Verilated model (or this build has none: a lean one).
#[derive(Debug, thiserror::Error)]
#[error(
    "could not create the Verilated pica_alu_top (rows alu and sfu){}",
    crate::error::lean_note()
)]
pub struct RtlAluError;

/// One Verilated `pica_alu_top` (combinational: no clock, no state between evaluations).
///
/// Operand sets are `[u32; 4]` lanes (lane 0 = x), each an f24 in bits 23:0, except lane 0 of
/// `a` for [`AluOp::F32ToF24`] (an f32). Results are f24 lanes, CMP bits or MOVA's i32 bits,
/// as documented on [`AluOp`].
#[derive(Debug)]
pub struct RtlAlu {
    h: AluHandle,
}

impl RtlAlu {
    /// A new instance.
    pub fn new() -> Result<Self, RtlAluError> {
        AluHandle::new().map(|h| RtlAlu { h }).ok_or(RtlAluError)
    }

    /// Evaluates `op` on every operand set: `out[k]` gets the result of `(a[k], b[k], c[k])`.
    /// `max_neg_inf` is the MAX knob ([`MaxNegInf::NegInf`]).
    ///
    /// # Panics
    /// If `a`, `b` or `c` is shorter than `out`.
    pub fn eval_batch(
        &mut self,
        op: AluOp,
        max_neg_inf: bool,
        a: &[[u32; 4]],
        b: &[[u32; 4]],
        c: &[[u32; 4]],
        out: &mut [[u32; 4]],
    ) {
        self.h
            .eval_batch(op as u32, u32::from(max_neg_inf), a, b, c, out);
    }

    /// Evaluates one operand set.
    pub fn eval(
        &mut self,
        op: AluOp,
        max_neg_inf: bool,
        a: [u32; 4],
        b: [u32; 4],
        c: [u32; 4],
    ) -> [u32; 4] {
        let mut out = [[0; 4]];
        self.eval_batch(op, max_neg_inf, &[a], &[b], &[c], &mut out);
        out[0]
    }
}

/// The signed integer [`AluOp::Weight`] converts: lane 0's 24 bits and lane 1's low 12 bits
/// as one 36-bit two's-complement value.
pub fn weight_input(a: [u32; 4]) -> i64 {
    let raw = u64::from(a[1] & 0xFFF) << 24 | u64::from(a[0] & 0xFF_FFFF);
    ((raw << 28) as i64) >> 28
}

/// The lanes of [`AluOp::Weight`]'s operand `a` for the integer `v` (`-2^35 <= v < 2^35`).
pub fn weight_lanes(v: i64) -> [u32; 4] {
    let raw = v as u64 & ((1 << 36) - 1);
    [(raw & 0xFF_FFFF) as u32, (raw >> 24) as u32, 0, 0]
}

/// What the model gives for one operand set, in the lane conventions of [`AluOp`] (the
/// reference [`RtlAlu`] is checked against).
pub fn model_eval(op: AluOp, max_neg_inf: bool, a: [u32; 4], b: [u32; 4], c: [u32; 4]) -> [u32; 4] {
    let f = |w: [u32; 4]| w.map(F24::from_bits);
    let (fa, fb, fc) = (f(a), f(b), f(c));
    let knob = if max_neg_inf {
        MaxNegInf::NegInf
    } else {
        MaxNegInf::Zero
    };
    let lanes = |g: &dyn Fn(F24, F24, F24) -> F24| -> [u32; 4] {
        [0, 1, 2, 3].map(|i| g(fa[i], fb[i], fc[i]).bits())
    };
    let splat = |v: F24| [v.bits(); 4];
    match op {
        AluOp::Add => lanes(&|x, y, _| alu::add(x, y)),
        AluOp::Mul => lanes(&|x, y, _| alu::mul(x, y)),
        AluOp::Mad => lanes(&alu::mad),
        AluOp::Dp3 => splat(alu::dot(&fa[..3], &fb[..3])),
        AluOp::Dp4 => splat(alu::dot(&fa, &fb)),
        AluOp::Dph => splat(alu::dot(&[fa[0], fa[1], fa[2], F24::ONE], &fb)),
        AluOp::Rcp | AluOp::RcpSfu | AluOp::RcpClip | AluOp::RcpTex => splat(alu::rcp(fa[0])),
        AluOp::Rsq | AluOp::RsqSfu => splat(alu::rsq(fa[0])),
        AluOp::Ex2 | AluOp::Ex2Sfu => splat(alu::ex2(fa[0])),
        AluOp::Lg2 | AluOp::Lg2Sfu => splat(alu::lg2(fa[0])),
        AluOp::Flr => lanes(&|x, _, _| alu::flr(x)),
        AluOp::Max => lanes(&|x, y, _| alu::max(x, y, knob)),
        AluOp::Min => lanes(&|x, y, _| alu::min(x, y)),
        AluOp::Sge => lanes(&|x, y, _| alu::sge(x, y)),
        AluOp::Slt => lanes(&|x, y, _| alu::slt(x, y)),
        AluOp::Cmp => [0, 1, 2, 3].map(|i| {
            // interp.rs `cmp_op`: IEEE comparisons of the unflushed values.
            let (x, y) = (fa[i].to_f64(), fb[i].to_f64());
            u32::from(x < y) | u32::from(x == y) << 1 | u32::from(x > y) << 2
        }),
        // interp.rs MOVA: `v.to_f64().trunc() as i32` (saturating, NaN → 0).
        AluOp::Mova => fa.map(|v| v.to_f64().trunc() as i32 as u32),
        AluOp::F32ToF24 => [F24::from_f32_bits(a[0]).bits(), 0, 0, 0],
        AluOp::Div | AluOp::DivRast => lanes(&|x, y, _| interp::div(x, y)),
        AluOp::Fix12p4 => fa.map(|v| setup::to_fix12p4(v) as u32),
        AluOp::ColorU8 => fa.map(|v| u32::from(interp::color_to_u8(v))),
        AluOp::Depth16 => fa.map(|v| interp::depth_to_uint(v, 16)),
        AluOp::Depth24 => fa.map(|v| interp::depth_to_uint(v, 24)),
        AluOp::Weight => splat(interp::weight_f24(weight_input(a))),
    }
}

// ---------------------------------------------------------------------------------------------
// Checking: operand generators and the RTL-vs-model comparison (`pica alu-check`, tests/alu.rs).

/// f24 values where the ALU's rules change: both zeros, subnormals, the normal range's ends,
/// infinities, NaN patterns (canonical, payload 1, all ones, both signs), ±1 and its
/// neighbours, the 2^-62 floor and the 2^64 ceiling, EX2's ±62/±63/64 and tiny-negative
/// boundary, MOVA's ±2^31, and a few ordinary values.
pub const SPECIAL_F24: &[u32] = &[
    0x00_0000, 0x80_0000, // ±0
    0x00_0001, 0x00_FFFF, 0x80_0001, 0x80_FFFF, // subnormals
    0x01_0000, 0x81_0000, 0x01_0001, 0x01_FFFF, 0x02_0000, // 2^-62 floor, 2^-61
    0x7E_FFFF, 0xFE_FFFF, 0x7E_0000, 0x7E_FFFE, // max, 2^63
    0x7F_0000, 0xFF_0000, // ±inf
    0x7F_8000, 0x7F_0001, 0x7F_FFFF, 0xFF_8000, 0xFF_0001, // NaNs
    0x3F_0000, 0xBF_0000, 0x3E_FFFF, 0x3F_0001, 0xBE_FFFF, 0xBF_0001, // ±1 and neighbours
    0x3E_0000, 0x40_0000, 0x40_8000, 0x3F_8000, 0xBF_8000, 0x3B_CCCC, // 0.5 2 3 1.5 -1.5 0.1
    0x20_0000, 0x5E_0000, 0x5D_FFFF, 0xDE_0000, 0xDE_0001, 0x5F_0000, // 2^-31, ±2^31, 2^32
    0x44_F000, 0xC4_F000, 0xC4_F800, 0xC5_0000, 0x45_0000, 0x44_FFFF, // ±62, -63, ±64
    0x89_7154, 0x89_7155, 0x88_FFFF, 0x2F_0000, 0xAF_0000, // EX2 tiny-negative edge, ±2^-16
    0x3F_FFFF, 0x1F_0000, 0x5E_FFFF, 0x12_3456, 0xC1_2345, // assorted
];

/// f32 exponent fields whose whole neighbourhood matters to `F24::from_f32_bits`: zero and
/// subnormals, the f24 subnormal range's ends (1, 64), the normal range's ends (65, 190, 191),
/// infinity/NaN (255).
pub const F32_EDGE_EXPONENTS: &[u32] =
    &[0, 1, 2, 63, 64, 65, 66, 127, 189, 190, 191, 192, 254, 255];

/// A small deterministic generator (SplitMix64): the same seed gives the same operands on every
/// host.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0; the tiny modulo bias is irrelevant here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// An f24 biased towards the edges: 1/4 a [`SPECIAL_F24`] value, 1/4 an edge exponent
    /// (0-2, 60-66, 124-127) with a random mantissa (low or high mantissas favoured), 1/2 a
    /// uniformly random pattern.
    pub fn biased_f24(&mut self) -> u32 {
        const EDGE_EXP: &[u32] = &[0, 1, 2, 60, 61, 62, 63, 64, 65, 66, 124, 125, 126, 127];
        let r = self.next_u64();
        match r & 7 {
            0 | 1 => SPECIAL_F24[((r >> 8) % SPECIAL_F24.len() as u64) as usize],
            2 | 3 => {
                let e = EDGE_EXP[((r >> 8) % EDGE_EXP.len() as u64) as usize];
                let m = match (r >> 16) & 3 {
                    0 => (r >> 20) as u32 & 0xF,
                    1 => 0xFFFF - ((r >> 20) as u32 & 0xF),
                    _ => (r >> 24) as u32 & 0xFFFF,
                };
                ((r >> 40) as u32 & 1) << 23 | e << 16 | m
            }
            _ => (r >> 8) as u32 & 0xFF_FFFF,
        }
    }

    /// A second operand for `a`: 1/4 of the time close to ±a (same exponent, a few low bits
    /// changed, so sums cancel and comparisons tie), otherwise [`Self::biased_f24`].
    pub fn partner_f24(&mut self, a: u32) -> u32 {
        let r = self.next_u64();
        if r & 3 == 0 {
            let flip_sign = ((r >> 2) & 1) as u32;
            let delta = (r >> 8) as u32 & 0x7;
            (a ^ flip_sign << 23) ^ delta
        } else {
            self.biased_f24()
        }
    }

    /// An f32 pattern biased towards [`F32_EDGE_EXPONENTS`] (half of the time), else uniform.
    pub fn biased_f32(&mut self) -> u32 {
        let r = self.next_u64();
        if r & 1 == 0 {
            let e = F32_EDGE_EXPONENTS[((r >> 8) % F32_EDGE_EXPONENTS.len() as u64) as usize];
            ((r >> 40) as u32 & 1) << 31 | e << 23 | (r >> 12) as u32 & 0x7F_FFFF
        } else {
            (r >> 16) as u32
        }
    }
}

/// How many independent results one evaluation of `op` carries: 4 for per-lane ops, 1 for the
/// dot products (one sum) and the ops that read a.x only.
pub fn results_per_set(op: AluOp) -> usize {
    match op {
        AluOp::Dp3 | AluOp::Dp4 | AluOp::Dph => 1,
        op if op.scalar() => 1,
        _ => 4,
    }
}

/// One operand set (lane 0 = x).
pub type OperandSet = ([u32; 4], [u32; 4], [u32; 4]);

/// A result the RTL and the model disagree on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mismatch {
    /// Operand a (lanes).
    pub a: [u32; 4],
    /// Operand b.
    pub b: [u32; 4],
    /// Operand c.
    pub c: [u32; 4],
    /// What the RTL gave.
    pub rtl: [u32; 4],
    /// What the model gave.
    pub model: [u32; 4],
}

/// Running totals of one op's check.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct CheckTally {
    /// Operand sets evaluated.
    pub sets: u64,
    /// Independent results compared (`sets` × [`results_per_set`]).
    pub inputs: u64,
    /// Operand sets whose results differ.
    pub mismatches: u64,
    /// The first mismatches (at most the `keep` given to [`check_batch`]).
    pub first: Vec<Mismatch>,
}

/// Evaluates `sets` on the RTL and the model and adds the outcome to `tally`, keeping the
/// first `keep` mismatches.
pub fn check_batch(
    rtl: &mut RtlAlu,
    op: AluOp,
    max_neg_inf: bool,
    sets: &[OperandSet],
    keep: usize,
    tally: &mut CheckTally,
) {
    let a: Vec<[u32; 4]> = sets.iter().map(|s| s.0).collect();
    let b: Vec<[u32; 4]> = sets.iter().map(|s| s.1).collect();
    let c: Vec<[u32; 4]> = sets.iter().map(|s| s.2).collect();
    let mut out = vec![[0u32; 4]; sets.len()];
    rtl.eval_batch(op, max_neg_inf, &a, &b, &c, &mut out);
    for (s, r) in sets.iter().zip(&out) {
        let want = model_eval(op, max_neg_inf, s.0, s.1, s.2);
        if *r != want {
            tally.mismatches += 1;
            if tally.first.len() < keep {
                tally.first.push(Mismatch {
                    a: s.0,
                    b: s.1,
                    c: s.2,
                    rtl: *r,
                    model: want,
                });
            }
        }
    }
    tally.sets += sets.len() as u64;
    tally.inputs += (sets.len() * results_per_set(op)) as u64;
}

/// Biased exponents whose every mantissa the exhaustive check of a binary/ternary op sweeps
/// (as operand a, both signs, against [`WINDOW_PARTNERS`] seeded-random partners each).
pub const WINDOW_EXPONENTS: &[u32] = &[1, 2, 62, 63, 64, 125, 126];
/// Random partners (b, c) per swept value of a.
pub const WINDOW_PARTNERS: usize = 4;

/// The exhaustive operand plan of `op`, delivered in batches of about `batch` sets to `f`
/// (so a 2^24 sweep never sits in memory at once):
/// - rcp, rsq, ex2, lg2 (and their `_sfu` twins, `rcp_clip` and `rcp_tex`): every one of the 2^24 patterns as a.x;
/// - flr, mova, fix12p4, color_u8, depth16, depth24: every pattern, four per set;
/// - weight: a windowed sweep of the 36-bit integers (2^36 are too many): every value in
///   `-2^23 ..= 2^23 - 1`, and `±(2^p + d)` for every p < 36 and `|d| <= 4096` (the 17-bit
///   truncation boundaries of every magnitude);
/// - f32_to_f24: a windowed sweep (2^32 is too many): every exponent field × both signs ×
///   4096 strided mantissas plus the 128 lowest and highest, and every mantissa whose low
///   16 bits vary for the [`F32_EDGE_EXPONENTS`] (top 7 bits fixed per sign);
/// - binary and ternary ops: every pair of [`SPECIAL_F24`] (every triple for mad, c for the
///   others is the next special value), then, for each exponent of [`WINDOW_EXPONENTS`] and
///   both signs, every mantissa of a against [`WINDOW_PARTNERS`] partners b (and c) drawn from
///   `seed` (biased: specials, edges, near ±a). Lane i of a set holds the i-th of four
///   consecutive operand triples (for the dot products, the four lanes of one dot product).
pub fn exhaustive_plan(op: AluOp, seed: u64, batch: usize, f: &mut dyn FnMut(&[OperandSet])) {
    let mut buf: Vec<OperandSet> = Vec::with_capacity(batch + 4);
    let mut flush = |buf: &mut Vec<OperandSet>, force: bool| {
        if buf.len() >= batch || (force && !buf.is_empty()) {
            f(buf);
            buf.clear();
        }
    };
    match op {
        AluOp::Rcp
        | AluOp::Rsq
        | AluOp::Ex2
        | AluOp::Lg2
        | AluOp::RcpSfu
        | AluOp::RsqSfu
        | AluOp::Ex2Sfu
        | AluOp::Lg2Sfu
        | AluOp::RcpClip
        | AluOp::RcpTex => {
            for x in 0..0x100_0000u32 {
                buf.push(([x, 0, 0, 0], [0; 4], [0; 4]));
                flush(&mut buf, false);
            }
        }
        AluOp::Flr
        | AluOp::Mova
        | AluOp::Fix12p4
        | AluOp::ColorU8
        | AluOp::Depth16
        | AluOp::Depth24 => {
            for x in (0..0x100_0000u32).step_by(4) {
                buf.push(([x, x + 1, x + 2, x + 3], [0; 4], [0; 4]));
                flush(&mut buf, false);
            }
        }
        AluOp::Weight => {
            let mut push = |v: i64, buf: &mut Vec<OperandSet>| {
                buf.push((weight_lanes(v), [0; 4], [0; 4]));
                flush(buf, false);
            };
            for v in -(1i64 << 23)..(1i64 << 23) {
                push(v, &mut buf);
            }
            for p in 0..36 {
                for d in -4096i64..=4096 {
                    let v = (1i64 << p) + d;
                    if v.abs() < 1 << 35 {
                        push(v, &mut buf);
                        push(-v, &mut buf);
                    }
                }
            }
        }
        AluOp::F32ToF24 => {
            let mut push = |v: u32, buf: &mut Vec<OperandSet>| {
                buf.push(([v, 0, 0, 0], [0; 4], [0; 4]));
                flush(buf, false);
            };
            for s in 0..2u32 {
                for e in 0..256u32 {
                    let base = s << 31 | e << 23;
                    for m in (0..0x80_0000u32).step_by(0x80_0000 / 4096) {
                        push(base | m, &mut buf);
                    }
                    for m in (0..128).chain(0x7F_FF80..0x80_0000) {
                        push(base | m, &mut buf);
                    }
                }
                for &e in F32_EDGE_EXPONENTS {
                    let base = s << 31 | e << 23 | 0x5A << 16;
                    for m in 0..0x1_0000u32 {
                        push(base | m, &mut buf);
                    }
                }
            }
        }
        _ => {
            let mut rng = SplitMix::new(seed);
            let mut lanes: Vec<(u32, u32, u32)> = Vec::with_capacity(4);
            let mut push = |t: (u32, u32, u32), buf: &mut Vec<OperandSet>| {
                lanes.push(t);
                if lanes.len() == 4 {
                    buf.push((
                        [lanes[0].0, lanes[1].0, lanes[2].0, lanes[3].0],
                        [lanes[0].1, lanes[1].1, lanes[2].1, lanes[3].1],
                        [lanes[0].2, lanes[1].2, lanes[2].2, lanes[3].2],
                    ));
                    lanes.clear();
                    flush(buf, false);
                }
            };
            special_triples(op, &mut |t| push(t, &mut buf));
            for &e in WINDOW_EXPONENTS {
                for s in 0..2u32 {
                    for m in 0..0x1_0000u32 {
                        let a = s << 23 | e << 16 | m;
                        for _ in 0..WINDOW_PARTNERS {
                            let b = rng.partner_f24(a);
                            let c = rng.partner_f24(a);
                            push((a, b, c), &mut buf);
                        }
                    }
                }
            }
            // Pad the last set to four lanes with +0 triples (the window part is a multiple of
            // four triples, so only the special part can leave a partial set).
            let n = SPECIAL_F24.len();
            let specials = if op == AluOp::Mad { n * n * n } else { n * n };
            for _ in 0..(4 - specials % 4) % 4 {
                push((0, 0, 0), &mut buf);
            }
        }
    }
    flush(&mut buf, true);
}

/// Every pair of [`SPECIAL_F24`] as (a, b) lane triples, c the next special value (every
/// triple for mad).
fn special_triples(op: AluOp, f: &mut dyn FnMut((u32, u32, u32))) {
    let n = SPECIAL_F24.len();
    for i in 0..n {
        for j in 0..n {
            let (a, b) = (SPECIAL_F24[i], SPECIAL_F24[j]);
            if op == AluOp::Mad {
                for &c in SPECIAL_F24 {
                    f((a, b, c));
                }
            } else {
                f((a, b, SPECIAL_F24[(i + j) % n]));
            }
        }
    }
}

/// The special-value part of [`exhaustive_plan`] for a binary or ternary op: every pair of
/// [`SPECIAL_F24`] (every triple for mad), four lane triples per set, in one call of `f`.
pub fn special_plan(op: AluOp, f: &mut dyn FnMut(&[OperandSet])) {
    let mut t = Vec::new();
    special_triples(op, &mut |x| t.push(x));
    while t.len() % 4 != 0 {
        t.push((0, 0, 0));
    }
    let sets: Vec<OperandSet> = t
        .chunks(4)
        .map(|l| {
            (
                [l[0].0, l[1].0, l[2].0, l[3].0],
                [l[0].1, l[1].1, l[2].1, l[3].1],
                [l[0].2, l[1].2, l[2].2, l[3].2],
            )
        })
        .collect();
    f(&sets);
}

/// `n` random operand sets of `op` from `seed` in batches of about `batch` (biased operands:
/// [`SplitMix::biased_f24`] for a, [`SplitMix::partner_f24`] for b and c; f32 patterns from
/// [`SplitMix::biased_f32`] for f32_to_f24).
pub fn random_plan(op: AluOp, n: u64, seed: u64, batch: usize, f: &mut dyn FnMut(&[OperandSet])) {
    let mut rng = SplitMix::new(seed ^ (op as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut buf: Vec<OperandSet> = Vec::with_capacity(batch);
    for _ in 0..n {
        let mut set: OperandSet = ([0; 4], [0; 4], [0; 4]);
        for l in 0..4 {
            let a = if op == AluOp::F32ToF24 {
                rng.biased_f32()
            } else {
                rng.biased_f24()
            };
            set.0[l] = a;
            set.1[l] = rng.partner_f24(a & 0xFF_FFFF);
            set.2[l] = rng.partner_f24(a & 0xFF_FFFF);
        }
        buf.push(set);
        if buf.len() >= batch {
            f(&buf);
            buf.clear();
        }
    }
    if !buf.is_empty() {
        f(&buf);
    }
}
