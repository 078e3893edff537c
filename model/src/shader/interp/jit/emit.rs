//! Cranelift IR for one block of the shader JIT: the same computation as the interpreter's
//! fast path ([`crate::shader::alu_fast`]), instruction by instruction. Where the fast path
//! would leave its window (a lane outside it, an inexact sum), the block stops before that
//! instruction (`BAIL`) and the interpreter executes it.
//!
//! A block function is `fn(ctx: *mut Ctx, n: u64) -> u64`. It first compares every
//! instruction word and operand descriptor it was compiled from with the configuration's
//! (`STALE` when one differs: nothing ran), then runs at most `n` instructions and returns how
//! many ran, with `END` set when the last one was END or `BAIL` when it stopped early. Every
//! instruction stores its lanes into the unit at once, so a block that stops leaves the unit
//! as the interpreter would; within the block, the register lanes it has read or written, and
//! their `f64` images, stay in SSA values (a lane is loaded and widened once per block; a
//! uniform's image and window flag come from the block's snapshot, checked on entry).

use super::super::fast::{Class, Kind, Pre, Src};
use super::{Ctx, Helpers, Row, BAIL, END, ONES_BITS, STALE};
use crate::shader::alu::MaxNegInf;
use crate::shader::alu_fast::{WINDOW_HI, WINDOW_LO};
use crate::shader::interp::{Cmp67, Knobs, MovSubnormal, ShaderUnit};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::immediates::Ieee64;
use cranelift_codegen::ir::types::{F32, F64, I32, I32X4, I64, I8};
use cranelift_codegen::ir::{
    AbiParam, Block, Function, InstBuilder, MemFlags, SigRef, Signature, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use std::collections::HashMap;
use std::mem::offset_of;

const SIGN: i64 = 0x80_0000;
const MAG: i64 = 0x7F_FFFF;
const EXP: i64 = 0x7F_0000;
/// Low `f64` significand bits below f24 precision (`alu_fast`'s `BELOW_F24`).
const BELOW_F24: i64 = (1 << 36) - 1;
/// f24 1.0.
const ONE: i64 = 0x3F_0000;

/// The signature of every block: `(ctx, n) -> ran`.
pub(super) fn block_signature(call_conv: CallConv) -> Signature {
    let mut sig = Signature::new(call_conv);
    sig.params.push(AbiParam::new(I64));
    sig.params.push(AbiParam::new(I64));
    sig.returns.push(AbiParam::new(I64));
    sig
}

/// Builds the block of `ops` (the instructions at `start`, `start + 1`, …) into `func`.
pub(super) fn build(
    func: &mut Function,
    fctx: &mut FunctionBuilderContext,
    ops: &[Pre],
    start: u16,
    knobs: Knobs,
    helpers: &Helpers,
    rows: usize,
) {
    let call_conv = func.signature.call_conv;
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let (ctx, n) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let f = MemFlags::trusted();
    let field = |b: &mut FunctionBuilder, off: usize| b.ins().load(I64, f, ctx, off as i32);
    let unit = field(&mut b, offset_of!(Ctx, unit));
    let outputs = field(&mut b, offset_of!(Ctx, outputs));
    let uniforms = field(&mut b, offset_of!(Ctx, uniforms));
    let code = field(&mut b, offset_of!(Ctx, code));
    let opdescs = field(&mut b, offset_of!(Ctx, opdescs));

    let mut unary_sig = Signature::new(call_conv);
    unary_sig.params.push(AbiParam::new(I32));
    unary_sig.returns.push(AbiParam::new(I32));
    let unary_sig = b.import_signature(unary_sig);
    let mut refresh_sig = Signature::new(call_conv);
    refresh_sig.params.push(AbiParam::new(I64));
    refresh_sig.params.push(AbiParam::new(I64));
    let refresh_sig = b.import_signature(refresh_sig);
    let rows = b.ins().iconst(I64, rows as i64);

    // The tags: every word, and every descriptor once.
    let stale = b.create_block();
    b.set_cold_block(stale);
    let mut seen_desc = [false; 128];
    for (k, op) in ops.iter().enumerate() {
        let w = b
            .ins()
            .load(I32, f, code, 4 * (i32::from(start) + k as i32));
        check_tag(&mut b, w, op.word, stale);
        if op.kind != Kind::Nop && op.kind != Kind::End && !seen_desc[usize::from(op.didx & 127)] {
            seen_desc[usize::from(op.didx & 127)] = true;
            let d = b.ins().load(I32, f, opdescs, 4 * i32::from(op.didx & 127));
            check_tag(&mut b, d, op.desc, stale);
        }
    }

    // The uniform snapshot is checked once the body knows which rows it reads.
    let check = b.create_block();
    b.ins().jump(check, &[]);
    let body = b.create_block();
    b.switch_to_block(body);
    let mut e = Emit {
        b,
        unit,
        outputs,
        uniforms,
        rows,
        used: [false; 96],
        residue: None,
        knobs,
        helpers,
        unary_sig,
        cache: HashMap::new(),
    };
    for (k, op) in ops.iter().enumerate() {
        if op.kind == Kind::End {
            let r = e.b.ins().iconst(I64, (k as i64 + 1) | END as i64);
            e.b.ins().return_(&[r]);
            break;
        }
        e.op(op, k);
        let ran = k as i64 + 1;
        let done = e.b.ins().icmp_imm(IntCC::Equal, n, ran);
        let exit = e.b.create_block();
        let next = e.b.create_block();
        e.b.ins().brif(done, exit, &[], next, &[]);
        e.b.switch_to_block(exit);
        let r = e.b.ins().iconst(I64, ran);
        e.b.ins().return_(&[r]);
        e.b.switch_to_block(next);
        if k + 1 == ops.len() {
            // `n` never exceeds the block's length; return what ran all the same.
            let r = e.b.ins().iconst(I64, ran);
            e.b.ins().return_(&[r]);
        }
    }
    let used = e.used;
    let mut b = e.b;
    check_rows(
        &mut b,
        check,
        &used,
        rows,
        uniforms,
        body,
        refresh_sig,
        helpers.refresh,
    );
    b.switch_to_block(stale);
    let r = b.ins().iconst(I64, STALE as i64);
    b.ins().return_(&[r]);
    b.seal_all_blocks();
    b.finalize();
}

/// Fills block `check`: on to `body` when every uniform in `used` has the bits its snapshot row
/// was taken from (one 128-bit compare per uniform), else through a cold block that retakes
/// those rows first.
#[allow(clippy::too_many_arguments)]
fn check_rows(
    b: &mut FunctionBuilder,
    check: Block,
    used: &[bool; 96],
    rows: Value,
    uniforms: Value,
    body: Block,
    refresh_sig: SigRef,
    refresh: usize,
) {
    b.switch_to_block(check);
    let f = MemFlags::new().with_notrap();
    let mut all: Option<Value> = None;
    let regs: Vec<i32> = (0..96).filter(|&r| used[r as usize]).collect();
    for &r in &regs {
        let u = b.ins().load(I32X4, f, uniforms, 16 * r);
        let s = b.ins().load(I32X4, f, rows, size_of::<Row>() as i32 * r);
        let eq = b.ins().icmp(IntCC::Equal, u, s);
        all = Some(match all {
            None => eq,
            Some(a) => b.ins().band(a, eq),
        });
    }
    let Some(all) = all else {
        b.ins().jump(body, &[]);
        return;
    };
    let same = b.ins().vall_true(all);
    let retake = b.create_block();
    b.set_cold_block(retake);
    b.ins().brif(same, body, &[], retake, &[]);
    b.switch_to_block(retake);
    let callee = b.ins().iconst(I64, refresh as i64);
    for &r in &regs {
        let row = b
            .ins()
            .iadd_imm(rows, i64::from(size_of::<Row>() as i32 * r));
        let u = b.ins().iadd_imm(uniforms, i64::from(16 * r));
        b.ins().call_indirect(refresh_sig, callee, &[row, u]);
    }
    b.ins().jump(body, &[]);
}

/// The offset of uniform `i`'s row in a snapshot.
fn row_offset(i: u8) -> i32 {
    size_of::<Row>() as i32 * i32::from(i)
}

/// Goes to `stale` unless `v` (an `I32`) equals `tag`.
fn check_tag(b: &mut FunctionBuilder, v: Value, tag: u32, stale: Block) {
    let t = b.ins().iconst(I32, i64::from(tag));
    let ne = b.ins().icmp(IntCC::NotEqual, v, t);
    let ok = b.create_block();
    b.ins().brif(ne, stale, &[], ok, &[]);
    b.switch_to_block(ok);
}

/// A register lane a block reads: its register (input, temporary, uniform without relative
/// addressing) and lane.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Input(u8, u8),
    Temp(u8, u8),
    Uniform(u8, u8),
}

/// What the block knows of a register lane: its f24 bits, and once needed its `f64` image
/// and whether it lies outside the window.
#[derive(Clone, Copy)]
struct Entry {
    bits: Value,
    img: Option<Value>,
    bad: Option<Value>,
}

/// One lane of an operand after swizzle and negation: its bits, and where it came from (for
/// the cached image; `None` for relative reads).
#[derive(Clone, Copy)]
struct L {
    bits: Value,
    key: Option<Key>,
    neg: bool,
}

/// Lanes of an operand (`None` where not needed).
type Lanes = [Option<L>; 4];

/// Lanes of a result: bits, and the `f64` image where the operation computed one.
type Out = [Option<(Value, Option<Value>)>; 4];

struct Emit<'a, 'h> {
    b: FunctionBuilder<'a>,
    unit: Value,
    outputs: Value,
    uniforms: Value,
    /// The address of the block's uniform snapshot ([`super::Rows`]).
    rows: Value,
    /// The uniforms whose snapshot rows the block reads.
    used: [bool; 96],
    /// The or of the Fast2Sum residues of the current instruction's sums ([`Emit::add64`]).
    residue: Option<Value>,
    knobs: Knobs,
    helpers: &'h Helpers,
    unary_sig: SigRef,
    cache: HashMap<Key, Entry>,
}

/// Lanes of the mask `m` (bit 3 = x).
fn lanes_of(m: u8) -> [bool; 4] {
    [m & 8 != 0, m & 4 != 0, m & 2 != 0, m & 1 != 0]
}

impl Emit<'_, '_> {
    fn c32(&mut self, v: i64) -> Value {
        self.b.ins().iconst(I32, v & 0xFFFF_FFFF)
    }

    fn c8(&mut self, v: bool) -> Value {
        self.b.ins().iconst(I8, i64::from(v))
    }

    /// The address of a relatively addressed uniform (`rel_uniform`: offsets outside
    /// [-128, 127] are not applied; the index is masked by 0x7F; above 95 the read is
    /// (1, 1, 1, 1); pica-facts §1).
    fn rel_addr(&mut self, s: Src) -> Value {
        let off = match s.class {
            Class::UniformA0X => offset_of!(ShaderUnit, a0) as i32,
            Class::UniformA0Y => offset_of!(ShaderUnit, a0) as i32 + 4,
            _ => offset_of!(ShaderUnit, al) as i32,
        };
        let o = self.b.ins().load(I32, MemFlags::trusted(), self.unit, off);
        let biased = self.b.ins().iadd_imm(o, 128);
        let in_range = self.b.ins().icmp_imm(IntCC::UnsignedLessThan, biased, 256);
        let zero = self.c32(0);
        let o = self.b.ins().select(in_range, o, zero);
        let idx = self.b.ins().iadd_imm(o, i64::from(s.index));
        let idx = self.b.ins().band_imm(idx, 0x7F);
        let past = self.b.ins().icmp_imm(IntCC::UnsignedGreaterThan, idx, 95);
        let wide = self.b.ins().uextend(I64, idx);
        let byte = self.b.ins().ishl_imm(wide, 4);
        let addr = self.b.ins().iadd(self.uniforms, byte);
        let ones = self.b.ins().iconst(I64, ONES_BITS.as_ptr() as i64);
        self.b.ins().select(past, ones, addr)
    }

    /// The bits of a register lane, loaded once per block.
    fn lane(&mut self, key: Key) -> Value {
        if let Some(e) = self.cache.get(&key) {
            return e.bits;
        }
        let (base, off) = match key {
            Key::Input(i, l) => (
                self.unit,
                offset_of!(ShaderUnit, inputs) as i32 + 16 * i32::from(i & 15) + 4 * i32::from(l),
            ),
            Key::Temp(i, l) => (
                self.unit,
                offset_of!(ShaderUnit, temps) as i32 + 16 * i32::from(i & 15) + 4 * i32::from(l),
            ),
            Key::Uniform(i, l) => (self.uniforms, 16 * i32::from(i) + 4 * i32::from(l)),
        };
        let bits = self.b.ins().load(I32, MemFlags::trusted(), base, off);
        self.cache.insert(
            key,
            Entry {
                bits,
                img: None,
                bad: None,
            },
        );
        bits
    }

    /// Lanes `need` (bit 3 = x) of source `s` after swizzle and negation.
    fn operand(&mut self, s: Src, need: u8) -> Lanes {
        let neg = s.flags & Src::NEGATE != 0;
        let rel = matches!(
            s.class,
            Class::UniformA0X | Class::UniformA0Y | Class::UniformAL
        );
        let addr = (rel && need != 0).then(|| self.rel_addr(s));
        let mut out = [None; 4];
        for (lane, o) in out.iter_mut().enumerate() {
            if !lanes_of(need)[lane] {
                continue;
            }
            let sel = if s.flags & Src::PLAIN != 0 {
                lane as u8
            } else {
                (s.swizzle >> (6 - 2 * lane)) & 3
            };
            let (bits, key) = match (s.class, addr) {
                (Class::Input, _) => {
                    let k = Key::Input(s.index, sel);
                    (self.lane(k), Some(k))
                }
                (Class::Temp, _) => {
                    let k = Key::Temp(s.index, sel);
                    (self.lane(k), Some(k))
                }
                (Class::Uniform, _) => {
                    let k = Key::Uniform(s.index, sel);
                    (self.lane(k), Some(k))
                }
                (_, Some(a)) => {
                    let v = self
                        .b
                        .ins()
                        .load(I32, MemFlags::trusted(), a, 4 * i32::from(sel));
                    (v, None)
                }
                (_, None) => continue,
            };
            let bits = if neg {
                self.b.ins().bxor_imm(bits, SIGN)
            } else {
                bits
            };
            *o = Some(L { bits, key, neg });
        }
        out
    }

    /// Whether the f24 `x` is non-zero and outside the fast path's window.
    fn outside(&mut self, x: Value) -> Value {
        let e = self.b.ins().band_imm(x, EXP);
        let d = self.b.ins().iadd_imm(e, -(i64::from(WINDOW_LO) << 16));
        let outside = self.b.ins().icmp_imm(
            IntCC::UnsignedGreaterThan,
            d,
            i64::from(WINDOW_HI - WINDOW_LO) << 16,
        );
        let nonzero = self.b.ins().icmp_imm(IntCC::NotEqual, e, 0);
        self.b.ins().band(outside, nonzero)
    }

    /// The `f64` image of the f24 `x` (±0 for exponent 0; `alu_fast::widen` of one lane).
    fn image(&mut self, x: Value) -> Value {
        let e = self.b.ins().band_imm(x, EXP);
        let nonzero = self.b.ins().icmp_imm(IntCC::NotEqual, e, 0);
        // f24 bias 63 → f32 bias 127; sign bit 23 → 31; mantissa 16 → 23 bits.
        let m = self.b.ins().band_imm(x, MAG);
        let m = self.b.ins().ishl_imm(m, 7);
        let m = self.b.ins().iadd_imm(m, 64 << 23);
        let s = self.b.ins().band_imm(x, SIGN);
        let s = self.b.ins().ishl_imm(s, 8);
        let bits = self.b.ins().bor(m, s);
        let zero = self.c32(0);
        let bits = self.b.ins().select(nonzero, bits, zero);
        let f = self.b.ins().bitcast(F32, MemFlags::new(), bits);
        self.b.ins().fpromote(F64, f)
    }

    /// The image of an operand lane and its window flag (cached per register lane; a negated
    /// lane's image is the negated image, its flag the same).
    fn img(&mut self, l: L) -> (Value, Value) {
        let Some(key) = l.key else {
            let bad = self.outside(l.bits);
            return (self.image(l.bits), bad);
        };
        let mut e = match self.cache.get(&key) {
            Some(e) => *e,
            None => Entry {
                bits: self.lane(key),
                img: None,
                bad: None,
            },
        };
        let t = MemFlags::trusted();
        let img = match (e.img, key) {
            (Some(v), _) => v,
            (None, Key::Uniform(i, l)) => {
                // The snapshot's image: checked current at the block's entry.
                self.used[usize::from(i)] = true;
                let off = row_offset(i) + offset_of!(Row, img) as i32 + 8 * i32::from(l);
                self.b.ins().load(F64, t, self.rows, off)
            }
            (None, _) => self.image(e.bits),
        };
        let bad = match (e.bad, key) {
            (Some(v), _) => v,
            (None, Key::Uniform(i, l)) => {
                self.used[usize::from(i)] = true;
                let off = row_offset(i) + offset_of!(Row, bad) as i32 + i32::from(l);
                self.b.ins().load(I8, t, self.rows, off)
            }
            (None, _) => self.outside(e.bits),
        };
        e.img = Some(img);
        e.bad = Some(bad);
        self.cache.insert(key, e);
        let img = if l.neg { self.b.ins().fneg(img) } else { img };
        (img, bad)
    }

    /// `alu_fast::trunc64` (a bitwise and on the `f64` register).
    fn trunc64(&mut self, x: Value) -> Value {
        let mask = self.b.ins().f64const(Ieee64::with_bits(!BELOW_F24 as u64));
        self.b.ins().band(x, mask)
    }

    /// `alu_fast::add64`: the truncated sum; whether it was exact (the Fast2Sum test: `s - x
    /// == y` and `s - y == x`) joins the instruction's [`Emit::residue`] as the differences
    /// `(s - x) - y` and `(s - y) - x`, both ±0 exactly when the sum is exact (the operands
    /// are finite: images of f24 lanes, their products and sums stay far below `f64`
    /// overflow, so no difference is a NaN or an infinity, and two finite `f64` differ by
    /// a non-zero difference).
    fn add64(&mut self, x: Value, y: Value) -> Value {
        let s = self.b.ins().fadd(x, y);
        let sx = self.b.ins().fsub(s, x);
        let sy = self.b.ins().fsub(s, y);
        let t = self.b.ins().fsub(sx, y);
        let u = self.b.ins().fsub(sy, x);
        let r = self.b.ins().bor(t, u);
        self.residue = Some(match self.residue {
            None => r,
            Some(acc) => self.b.ins().bor(acc, r),
        });
        self.trunc64(s)
    }

    /// Whether any sum of the instruction so far was inexact (a residue bit other than the
    /// sign set), or `None` with no sum; clears the residue.
    fn take_inexact(&mut self) -> Option<Value> {
        let r = self.residue.take()?;
        let i = self.b.ins().bitcast(I64, MemFlags::new(), r);
        let i = self.b.ins().ishl_imm(i, 1);
        Some(self.b.ins().icmp_imm(IntCC::NotEqual, i, 0))
    }

    /// The f24 bits of a truncated, in-range image (`alu_fast::to_f24_4` of one lane), with
    /// the image.
    fn narrow(&mut self, x: Value) -> (Value, Option<Value>) {
        let f = self.b.ins().fdemote(F32, x);
        let f = self.b.ins().bitcast(I32, MemFlags::new(), f);
        let s = self.b.ins().ushr_imm(f, 8);
        let s = self.b.ins().band_imm(s, SIGN);
        let v = self.b.ins().ushr_imm(f, 7);
        let v = self.b.ins().band_imm(v, 0xFF_FFFF);
        let v = self.b.ins().iadd_imm(v, -(64 << 16));
        let v = self.b.ins().band_imm(v, 0xFF_FFFF);
        let v = self.b.ins().bor(v, s);
        let z = self.b.ins().ishl_imm(f, 1);
        let is_zero = self.b.ins().icmp_imm(IntCC::Equal, z, 0);
        let zero = self.c32(0);
        (self.b.ins().select(is_zero, zero, v), Some(x))
    }

    fn or_bad(&mut self, acc: Option<Value>, bad: Value) -> Option<Value> {
        Some(match acc {
            None => bad,
            Some(a) => self.b.ins().bor(a, bad),
        })
    }

    /// The truncated product of two lanes, with the window flags or-ed into `bad`.
    fn mul_lane(&mut self, a: L, b: L, bad: Option<Value>) -> (Value, Option<Value>) {
        let (x, ba) = self.img(a);
        let (y, bb) = self.img(b);
        let bad = self.or_bad(bad, ba);
        let bad = self.or_bad(bad, bb);
        let p = self.b.ins().fmul(x, y);
        (self.trunc64(p), bad)
    }

    /// `alu_fast::dot_n` of the lanes present in both `a` and `b`.
    fn dot(&mut self, a: &Lanes, b: &Lanes, w_one: bool) -> (Value, Option<Value>) {
        let mut bad = None;
        let mut sum: Option<Value> = None;
        for lane in 0..4 {
            let p = if w_one && lane == 3 {
                // DPH: 1.0 · b.w (1.0 lies inside the window).
                let Some(y) = b[3] else { continue };
                let (y, by) = self.img(y);
                bad = self.or_bad(bad, by);
                self.trunc64(y)
            } else {
                let (Some(x), Some(y)) = (a[lane], b[lane]) else {
                    continue;
                };
                let (p, bd) = self.mul_lane(x, y, bad);
                bad = bd;
                p
            };
            sum = Some(match sum {
                None => p,
                Some(s) => self.add64(s, p),
            });
        }
        let s = sum.unwrap_or_else(|| self.b.ins().f64const(0.0));
        (s, bad)
    }

    /// `alu_fast::key_bits`: the ordering key and whether the lane is a NaN.
    fn key(&mut self, x: Value) -> (Value, Value) {
        let m = self.b.ins().band_imm(x, MAG);
        let s = self.b.ins().ushr_imm(x, 23);
        let s = self.b.ins().band_imm(s, 1);
        let s = self.b.ins().ineg(s);
        let k = self.b.ins().bxor(m, s);
        let k = self.b.ins().isub(k, s);
        let nan = self.b.ins().icmp_imm(IntCC::UnsignedGreaterThan, m, EXP);
        (k, nan)
    }

    /// `a cc b` on the values (false with a NaN), without flushing.
    fn compare(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        let (ka, na) = self.key(a);
        let (kb, nb) = self.key(b);
        let nan = self.b.ins().bor(na, nb);
        let ok = self.b.ins().icmp_imm(IntCC::Equal, nan, 0);
        let c = self.b.ins().icmp(cc, ka, kb);
        self.b.ins().band(ok, c)
    }

    /// The input flush on raw bits (exponent 0 → +0).
    fn flush(&mut self, x: Value) -> Value {
        let e = self.b.ins().band_imm(x, EXP);
        let z = self.b.ins().icmp_imm(IntCC::Equal, e, 0);
        let zero = self.c32(0);
        self.b.ins().select(z, zero, x)
    }

    /// 1.0 or +0.
    fn bool_f24(&mut self, c: Value) -> Value {
        let one = self.c32(ONE);
        let zero = self.c32(0);
        self.b.ins().select(c, one, zero)
    }

    fn unary(&mut self, f: usize, x: Value) -> Value {
        let callee = self.b.ins().iconst(I64, f as i64);
        let call = self.b.ins().call_indirect(self.unary_sig, callee, &[x]);
        self.b.inst_results(call)[0]
    }

    /// RSQ (`rsq`) or RCP of the f24 `x`: `alu_fast::rsq` / `rcp` inline (the result's mantissa
    /// from the table, its exponent from `x`'s) where they use the table, else a call of the
    /// helper `slow` (the same functions, which take the reference path there).
    fn recip(&mut self, x: Value, rsq: bool, slow: usize) -> Value {
        let e = self.b.ins().ushr_imm(x, 16);
        let e = self.b.ins().band_imm(e, 0x7F);
        let m = self.b.ins().band_imm(x, 0xFFFF);
        let e_zero = self.b.ins().icmp_imm(IntCC::Equal, e, 0);
        let e_special = self.b.ins().icmp_imm(IntCC::Equal, e, 0x7F);
        let mut other = self.b.ins().bor(e_zero, e_special);
        let (index, er, sign) = if rsq {
            // rsq(x) = rsq(1.m · 2^p) · 2^-((E - p) / 2), E = e - 63, p = E mod 2.
            let neg = self.b.ins().icmp_imm(IntCC::UnsignedGreaterThan, x, MAG);
            other = self.b.ins().bor(other, neg);
            let unbiased = self.b.ins().iadd_imm(e, -63);
            let p = self.b.ins().band_imm(unbiased, 1);
            let hi = self.b.ins().ishl_imm(p, 16);
            let index = self.b.ins().bor(hi, m);
            let even = self.b.ins().isub(unbiased, p);
            let half = self.b.ins().sshr_imm(even, 1);
            let at_one = self.b.ins().icmp_imm(IntCC::Equal, index, 0);
            let at_one = self.b.ins().uextend(I32, at_one);
            let base = self.b.ins().iadd_imm(at_one, 62);
            (index, self.b.ins().isub(base, half), None)
        } else {
            // rcp(x) = ±rcp(1.m) · 2^-(e - 63), a normal only for biased exponents 1..=126.
            let at_one = self.b.ins().icmp_imm(IntCC::Equal, m, 0);
            let at_one = self.b.ins().uextend(I32, at_one);
            let base = self.b.ins().iadd_imm(at_one, 125);
            let er = self.b.ins().isub(base, e);
            let below = self.b.ins().iadd_imm(er, -1);
            let out = self
                .b
                .ins()
                .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, below, 126);
            other = self.b.ins().bor(other, out);
            (m, er, Some(self.b.ins().band_imm(x, SIGN)))
        };
        let fast = self.b.create_block();
        let call = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, I32);
        self.b.set_cold_block(call);
        self.b.ins().brif(other, call, &[], fast, &[]);
        self.b.switch_to_block(call);
        let r = self.unary(slow, x);
        self.b.ins().jump(join, &[r.into()]);
        self.b.switch_to_block(fast);
        let table = if rsq {
            self.helpers.rsq_table
        } else {
            self.helpers.rcp_table
        };
        let table = self.b.ins().iconst(I64, table as i64);
        let wide = self.b.ins().uextend(I64, index);
        let off = self.b.ins().ishl_imm(wide, 1);
        let addr = self.b.ins().iadd(table, off);
        let mant = self.b.ins().uload16(I32, MemFlags::trusted(), addr, 0);
        let exp = self.b.ins().ishl_imm(er, 16);
        let mut r = self.b.ins().bor(exp, mant);
        if let Some(sign) = sign {
            r = self.b.ins().bor(r, sign);
        }
        self.b.ins().jump(join, &[r.into()]);
        self.b.switch_to_block(join);
        self.b.block_params(join)[0]
    }

    /// Stores the lanes of `value` in o/r register `dst` (raw 5 bits), and the written mask
    /// of an output; a temporary's lanes stay known to the block.
    fn write(&mut self, dst: u8, value: &Out) {
        let t = MemFlags::trusted();
        let (base, off) = if dst < 16 {
            (self.outputs, 16 * i32::from(dst))
        } else {
            (
                self.unit,
                offset_of!(ShaderUnit, temps) as i32 + 16 * i32::from(dst & 15),
            )
        };
        let mut mask = 0u64;
        for (lane, v) in value.iter().enumerate() {
            if let Some((bits, img)) = *v {
                self.b.ins().store(t, bits, base, off + 4 * lane as i32);
                mask |= 8 >> lane;
                if dst >= 16 {
                    self.cache.insert(
                        Key::Temp(dst & 15, lane as u8),
                        Entry {
                            bits,
                            img,
                            bad: None,
                        },
                    );
                }
            }
        }
        if dst < 16 && mask != 0 {
            let w = offset_of!(ShaderUnit, written) as i32;
            let old = self.b.ins().load(I64, t, self.unit, w);
            let new = self
                .b
                .ins()
                .bor_imm(old, (mask << (4 * u32::from(dst))) as i64);
            self.b.ins().store(t, new, self.unit, w);
        }
    }

    /// An operation on the bits of each lane of the destination mask, from SRC1 and SRC2.
    fn lanewise(&mut self, op: &Pre, mut f: impl FnMut(&mut Self, Value, Value) -> Value) -> Out {
        let a = self.operand(op.src[0], op.mask);
        let b = self.operand(op.src[1], op.mask);
        let mut out = [None; 4];
        for lane in 0..4 {
            if let (Some(x), Some(y)) = (a[lane], b[lane]) {
                out[lane] = Some((f(self, x.bits, y.bits), None));
            }
        }
        out
    }

    /// Instruction `k` of the block (not END).
    fn op(&mut self, op: &Pre, k: usize) {
        let mask = op.mask;
        let m = lanes_of(mask);
        let only = |v: (Value, Option<Value>)| -> Out { [0, 1, 2, 3].map(|l| m[l].then_some(v)) };
        let mut bad: Option<Value> = None;
        let value: Out = match op.kind {
            Kind::Nop | Kind::End | Kind::Slow | Kind::Empty => return,
            Kind::Add | Kind::Mul | Kind::Mad => {
                let a = self.operand(op.src[0], mask);
                let b = self.operand(op.src[1], mask);
                let c = if op.kind == Kind::Mad {
                    self.operand(op.src[2], mask)
                } else {
                    [None; 4]
                };
                let mut out = [None; 4];
                for lane in 0..4 {
                    let (Some(x), Some(y)) = (a[lane], b[lane]) else {
                        continue;
                    };
                    let r = match (op.kind, c[lane]) {
                        (Kind::Add, _) => {
                            let (x, bx) = self.img(x);
                            let (y, by) = self.img(y);
                            bad = self.or_bad(bad, bx);
                            bad = self.or_bad(bad, by);
                            self.add64(x, y)
                        }
                        (Kind::Mad, Some(z)) => {
                            let (p, bd) = self.mul_lane(x, y, bad);
                            let (z, bz) = self.img(z);
                            bad = self.or_bad(bd, bz);
                            self.add64(p, z)
                        }
                        _ => {
                            let (p, bd) = self.mul_lane(x, y, bad);
                            bad = bd;
                            p
                        }
                    };
                    out[lane] = Some(self.narrow(r));
                }
                out
            }
            Kind::Dp3 | Kind::Dp4 | Kind::Dph => {
                if mask == 0 {
                    return;
                }
                let (a_need, b_need) = match op.kind {
                    Kind::Dp3 => (0xE, 0xE),
                    Kind::Dp4 => (0xF, 0xF),
                    _ => (0xE, 0xF),
                };
                let a = self.operand(op.src[0], a_need);
                let b = self.operand(op.src[1], b_need);
                let (r, bd) = self.dot(&a, &b, op.kind == Kind::Dph);
                bad = bd;
                only(self.narrow(r))
            }
            Kind::Dst => {
                // [1, a.y * b.y, a.z, b.w]
                let a = self.operand(op.src[0], mask & 6);
                let b = self.operand(op.src[1], mask & 5);
                let x = m[0].then(|| (self.c32(ONE), None));
                let y = match (a[1], b[1]) {
                    (Some(p), Some(q)) => {
                        let (r, bd) = self.mul_lane(p, q, None);
                        bad = bd;
                        Some(self.narrow(r))
                    }
                    _ => None,
                };
                [
                    x,
                    y,
                    a[2].map(|l| (l.bits, None)),
                    b[3].map(|l| (l.bits, None)),
                ]
            }
            Kind::Ex2 | Kind::Lg2 | Kind::Rcp | Kind::Rsq => {
                if mask == 0 {
                    return;
                }
                let a = self.operand(op.src[0], 8);
                let f = match op.kind {
                    Kind::Ex2 => self.helpers.ex2,
                    Kind::Lg2 => self.helpers.lg2,
                    Kind::Rcp => self.helpers.rcp,
                    _ => self.helpers.rsq,
                };
                let x = match a[0] {
                    Some(x) => x.bits,
                    None => self.c32(0),
                };
                let r = match op.kind {
                    Kind::Rsq => self.recip(x, true, f),
                    Kind::Rcp => self.recip(x, false, f),
                    _ => self.unary(f, x),
                };
                only((r, None))
            }
            Kind::Flr => {
                let a = self.operand(op.src[0], mask);
                let f = self.helpers.flr;
                a.map(|v| v.map(|v| (self.unary(f, v.bits), None)))
            }
            Kind::Sge | Kind::Slt => {
                let cc = if op.kind == Kind::Sge {
                    IntCC::SignedGreaterThanOrEqual
                } else {
                    IntCC::SignedLessThan
                };
                self.lanewise(op, |e, x, y| {
                    let (x, y) = (e.flush(x), e.flush(y));
                    let c = e.compare(cc, x, y);
                    e.bool_f24(c)
                })
            }
            Kind::Max | Kind::Min | Kind::MinFlush => {
                let (kind, neg_inf) = (op.kind, self.knobs.max_neg_inf == MaxNegInf::NegInf);
                self.lanewise(op, |e, x, y| match kind {
                    Kind::Max => {
                        let gt = e.compare(IntCC::SignedGreaterThan, x, y);
                        let pick_a = if neg_inf {
                            // max(±0, -inf) = -inf.
                            let am = e.b.ins().band_imm(x, MAG);
                            let a_zero = e.b.ins().icmp_imm(IntCC::Equal, am, 0);
                            let b_ninf = e.b.ins().icmp_imm(IntCC::Equal, y, 0xFF_0000);
                            let keep_b = e.b.ins().band(a_zero, b_ninf);
                            let not_keep = e.b.ins().icmp_imm(IntCC::Equal, keep_b, 0);
                            e.b.ins().band(gt, not_keep)
                        } else {
                            gt
                        };
                        e.b.ins().select(pick_a, x, y)
                    }
                    _ => {
                        let (x, y) = if kind == Kind::MinFlush {
                            (e.flush(x), e.flush(y))
                        } else {
                            (x, y)
                        };
                        let gt = e.compare(IntCC::SignedGreaterThan, y, x);
                        e.b.ins().select(gt, x, y)
                    }
                })
            }
            Kind::Mov => {
                let a = self.operand(op.src[0], mask);
                match self.knobs.mov_subnormal {
                    MovSubnormal::Pass => a.map(|v| v.map(|v| (v.bits, None))),
                    MovSubnormal::Flush => a.map(|v| v.map(|v| (self.flush(v.bits), None))),
                }
            }
            Kind::Cmp => {
                let cmp_mask = if self.knobs.cmp_uses_mask { mask } else { 0xF };
                let a = self.operand(op.src[0], cmp_mask & 0xC);
                let b = self.operand(op.src[1], cmp_mask & 0xC);
                let t = MemFlags::trusted();
                for lane in 0..2 {
                    let (Some(x), Some(y)) = (a[lane], b[lane]) else {
                        continue;
                    };
                    let (x, y) = (x.bits, y.bits);
                    let c = match (op.dst >> (3 * lane)) & 7 {
                        0 => self.compare(IntCC::Equal, x, y),
                        1 => {
                            let eq = self.compare(IntCC::Equal, x, y);
                            self.b.ins().bxor_imm(eq, 1)
                        }
                        2 => self.compare(IntCC::SignedGreaterThan, y, x),
                        3 => self.compare(IntCC::SignedGreaterThanOrEqual, y, x),
                        4 => self.compare(IntCC::SignedGreaterThan, x, y),
                        5 => self.compare(IntCC::SignedGreaterThanOrEqual, x, y),
                        _ => self.c8(self.knobs.cmp67 == Cmp67::True),
                    };
                    let off = offset_of!(ShaderUnit, cmp) as i32 + lane as i32;
                    self.b.ins().store(t, c, self.unit, off);
                }
                return;
            }
        };
        if let Some(inexact) = self.take_inexact() {
            bad = self.or_bad(bad, inexact);
        }
        if let Some(bad) = bad {
            // Outside the window: the block stops before this instruction.
            let stop = self.b.create_block();
            let go = self.b.create_block();
            self.b.set_cold_block(stop);
            self.b.ins().brif(bad, stop, &[], go, &[]);
            self.b.switch_to_block(stop);
            let r = self.b.ins().iconst(I64, k as i64 | BAIL as i64);
            self.b.ins().return_(&[r]);
            self.b.switch_to_block(go);
        }
        self.write(op.dst, &value);
    }
}
