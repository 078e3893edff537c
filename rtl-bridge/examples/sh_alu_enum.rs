//! Enumeration of Yosys mutations in the shader unit's arithmetic pipeline (pica_sh_alu.sv and
//! the f24 modules it instantiates; rtl-bridge/mutants/sh_mut.notes): bit-exact emulations of
//! pica_f24_add_p.sv (u_add1, lane y of ADD/MAD), pica_f24_to_int.sv (u_toint_y, MOVA's y),
//! pica_f24_flr.sv (lane x), pica_f24_minmax.sv with pica_f24_cmp.sv (LITP's y clamp u_lit_y
//! against 0xC5FFFC, and the MAX/MIN lane w u_mm) as the RTL computes them, each with the named
//! mutation applied, compared with the unmutated emulation; `check` compares the unmutated
//! emulations with the model (pica_model::shader::alu::add / flr / max / min, and MOVA's
//! `v.to_f64().trunc() as i32` of model/src/shader/interp.rs).
//!
//! `cargo run --release -p pica-rtl-bridge --example sh_alu_enum -- MUTATION`, MUTATION one of
//! `check`, `add119` (u_add1's ra_q bit 42 = b_eb[3] flipped as read when bit 38 = (eb != 0) is
//! 0), `add213` (a_inf's `a[15:0] == 0` forced 1), `add214` (the overflow arm {7F, 16'h0} with
//! its bit 0 inverted), `add255` (c_p's bit 0 flipped when bit 1 is 1 in `c_p >= 16`),
//! `toint186` (`e == 0` with e's bit 0 forced 1), `flr233` (the leading-one search's i = 4 arm
//! with the held p's bit 2 forced 0), `lit90` (u_lit_y's `!nan` of lt_o forced to 1), `lit154`
//! (the MaxNegInf arm's constant with bit 11 forced 0), `lit181` (`b[22:0] == 0` of `zero`
//! with b's bit 1 forced 1), `mm92` (u_mm's `b[15:0] != 0` with bit 11 flipped when bit 6 is 1).
//! Inputs: every 2^24 a against a list of b classes for the adder (each sign and exponent
//! class: zeros, subnormals, the smallest and largest normals, 1.0, infinities, NaNs), every
//! 2^24 b (the operand the mutation reads) against that list as a for MAX/MIN, every 2^24
//! input for the unary ones (to-int, FLR, LITP's y clamp against its constant).

use pica_model::num::F24;
use pica_model::shader::alu::{self, MaxNegInf};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mu {
    None,
    Add119,
    Add213,
    Add214,
    Add255,
    ToInt186,
    Flr233,
    Lit90,
    Lit154,
    Lit181,
    Mm92,
}

fn exp(x: u32) -> u32 {
    (x >> 16) & 0x7F
}

/// pica_f24_add_p.sv, steps A, B and C.
fn add(ai: u32, bi: u32, mu: Mu) -> u32 {
    let a = if exp(ai) == 0 { 0 } else { ai };
    let b = if exp(bi) == 0 { 0 } else { bi };
    let a_nan = exp(a) == 0x7F && a & 0xFFFF != 0;
    let b_nan = exp(b) == 0x7F && b & 0xFFFF != 0;
    let a_inf = exp(a) == 0x7F && (a & 0xFFFF == 0 || mu == Mu::Add213);
    let b_inf = exp(b) == 0x7F && b & 0xFFFF == 0;
    let (hi, lo) = if a & 0x7F_FFFF >= b & 0x7F_FFFF {
        (a, b)
    } else {
        (b, a)
    };
    let (eb, es) = (exp(hi), exp(lo));
    let ss = u64::from(es != 0) << 16 | u64::from(lo & 0xFFFF);
    let d = eb.wrapping_sub(es) & 0x7F;
    let dc = if d > 40 { 40 } else { d & 0x3F };
    let bsh = (ss << 40) >> dc;
    let spec = a_nan || b_nan || a_inf || b_inf;
    let spec_y = if a_nan || b_nan || (a_inf && b_inf && (a >> 23) != (b >> 23)) {
        0x7F_8000
    } else if a_inf {
        a
    } else {
        b
    };
    // ra_q: {spec, spec_y, sign, eb, sb, b_al, sticky, sub}.
    let sign = hi >> 23;
    let sb = u32::from(eb != 0) << 16 | (hi & 0xFFFF);
    let mut b_eb = eb;
    if mu == Mu::Add119 && (sb >> 16) & 1 == 0 {
        b_eb ^= 1 << 3;
    }
    let b_al = ((bsh >> 37) & 0xF_FFFF) as u32;
    let sticky = u32::from(bsh & ((1 << 37) - 1) != 0);
    let sub = (hi >> 23) != (lo >> 23);
    // B.
    let a_al = sb << 3;
    let dsum = if sub {
        a_al.wrapping_sub(b_al).wrapping_sub(sticky)
    } else {
        a_al + b_al
    } & 0x1F_FFFF;
    let p = if dsum == 0 {
        0
    } else {
        31 - dsum.leading_zeros()
    };
    // C.
    let cmp_p = if mu == Mu::Add255 && p & 2 != 0 {
        p ^ 1
    } else {
        p
    };
    let norm = if cmp_p >= 16 {
        dsum >> (p.wrapping_sub(16) & 31)
    } else {
        (dsum << ((16u32.wrapping_sub(p)) & 31)) & 0x1F_FFFF
    };
    let re = (b_eb + p).wrapping_sub(19) & 0x1FF;
    if spec {
        spec_y
    } else if dsum == 0 || re & 0x100 != 0 || re == 0 {
        0
    } else if re >= 127 {
        sign << 23 | 0x7F << 16 | u32::from(mu == Mu::Add214)
    } else {
        sign << 23 | (re & 0x7F) << 16 | (norm & 0xFFFF)
    }
}

/// pica_f24_to_int.sv.
fn to_int(a: u32, mu: Mu) -> i32 {
    let e = exp(a);
    let eu = (e.wrapping_sub(63)) & 0xFF;
    let s = 1 << 16 | (a & 0xFFFF);
    let mag = if eu >= 16 {
        s << ((eu & 31).wrapping_sub(16) & 31)
    } else {
        s >> (16u32.wrapping_sub(eu & 31) & 31)
    };
    let e_test = if mu == Mu::ToInt186 { e | 1 } else { e };
    // Lines 19-22: NaN -> 0, then |x| < 1 (the mutated `e == 0` or eu[7]) -> 0.
    let nan = e == 0x7F && a & 0xFFFF != 0;
    if nan || e_test == 0 || eu & 0x80 != 0 {
        0
    } else if eu >= 31 {
        if a >> 23 != 0 {
            i32::MIN
        } else {
            i32::MAX
        }
    } else if a >> 23 != 0 {
        (mag as i32).wrapping_neg()
    } else {
        mag as i32
    }
}

/// pica_f24_flr.sv.
fn flr(a: u32, mu: Mu) -> u32 {
    let e = exp(a);
    let eu = (e.wrapping_sub(63)) & 0xFF;
    let s = 1u32 << 16 | (a & 0xFFFF);
    let sh = 16u32.wrapping_sub(eu & 31) & 31;
    let ip = (s >> sh) & 0x1_FFFF;
    let frac_nz = s & !(0x1_FFFFu32 << sh) & 0x1_FFFF != 0;
    let m = ip + u32::from(a >> 23 != 0 && frac_nz);
    let mut p = 0u32;
    for i in 0..18 {
        if i == 4 && mu == Mu::Flr233 {
            p &= !4;
        }
        if (m >> i) & 1 != 0 {
            p = i;
        }
    }
    let norm = (m << (17u32.wrapping_sub(p) & 31)) & 0x3_FFFF;
    if e == 0 {
        0
    } else if e == 0x7F {
        if a & 0xFFFF != 0 {
            0x7F_8000
        } else {
            a
        }
    } else if eu & 0x80 != 0 {
        if a >> 23 != 0 {
            0xBF_0000
        } else {
            0
        }
    } else if eu >= 16 {
        a
    } else {
        (a & 0x80_0000) | ((63 + p) & 0x7F) << 16 | ((norm >> 1) & 0xFFFF)
    }
}

/// pica_f24_cmp.sv without flush: (lt, gt); `lit` for u_lit_y's own mutations, `mm` for u_mm's.
fn cmp(a: u32, b: u32, mu: Mu) -> (bool, bool) {
    let b_man_nz = if mu == Mu::Mm92 && b & (1 << 6) != 0 {
        (b ^ (1 << 11)) & 0xFFFF != 0
    } else {
        b & 0xFFFF != 0
    };
    let nan = (exp(a) == 0x7F && a & 0xFFFF != 0) || (exp(b) == 0x7F && b_man_nz);
    let b_zero_test = if mu == Mu::Lit181 { b | 2 } else { b };
    let zero = a & 0x7F_FFFF == 0 && b_zero_test & 0x7F_FFFF == 0;
    let (ma, mb) = (a & 0x7F_FFFF, b & 0x7F_FFFF);
    let (mlt, mgt) = (ma < mb, ma > mb);
    let (sa, sb) = (a >> 23 != 0, b >> 23 != 0);
    let not_nan_lt = !nan || mu == Mu::Lit90;
    let lt = not_nan_lt && !zero && if sa { !sb || mgt } else { !sb && mlt };
    let gt = !nan && !zero && if sb { !sa || mlt } else { !sa && mgt };
    (lt, gt)
}

/// pica_sh_alu's MaxNegInf parameter (0: Knobs::max_neg_inf Zero, the default build).
const MAX_NEG_INF: bool = false;

/// pica_f24_minmax.sv with max_neg_inf_i = MaxNegInf.
fn minmax(a: u32, b: u32, max: bool, mu: Mu) -> u32 {
    let (lt, gt) = cmp(a, b, mu);
    if max {
        let neg_inf_arm = if mu == Mu::Lit154 { b & !(1 << 11) } else { b };
        if MAX_NEG_INF && a & 0x7F_FFFF == 0 && b == 0xFF_0000 {
            neg_inf_arm
        } else if gt {
            a
        } else {
            b
        }
    } else if lt {
        a
    } else {
        b
    }
}

/// The b (or a) classes: ±0, subnormals, the smallest and largest normals, ±1.0, ±inf, NaNs.
fn classes() -> Vec<u32> {
    let mut v = Vec::new();
    for sign in [0u32, 0x80_0000] {
        for e in [0u32, 1, 2, 0x3E, 0x3F, 0x40, 0x7D, 0x7E, 0x7F] {
            for m in [0u32, 1, 0x8000, 0xFFFF] {
                v.push(sign | e << 16 | m);
            }
        }
    }
    v
}

fn report(what: &str, diff: u64, first: Option<(u32, u32, String, String)>) {
    println!("{what}: {diff} inputs differ");
    if let Some((a, b, x, y)) = first {
        println!("  first: a {a:06X} b {b:06X}: reference {x}, emulation {y}");
    }
}

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let mu = match arg.as_str() {
        "check" => Mu::None,
        "add119" => Mu::Add119,
        "add213" => Mu::Add213,
        "add214" => Mu::Add214,
        "add255" => Mu::Add255,
        "toint186" => Mu::ToInt186,
        "flr233" => Mu::Flr233,
        "lit90" => Mu::Lit90,
        "lit154" => Mu::Lit154,
        "lit181" => Mu::Lit181,
        "mm92" => Mu::Mm92,
        _ => {
            eprintln!(
                "usage: sh_alu_enum check|add119|add213|add214|add255|toint186|flr233|lit90|\
                 lit154|lit181|mm92"
            );
            std::process::exit(2);
        }
    };
    let check = mu == Mu::None;
    let bs = classes();
    let lit_neg = alu::LITP_Y_BOUND.negate().bits();
    if check || matches!(mu, Mu::Add119 | Mu::Add213 | Mu::Add214 | Mu::Add255) {
        let (mut diff, mut first) = (0u64, None);
        for a in 0..1u32 << 24 {
            for &b in &bs {
                let r = if check {
                    alu::add(F24::from_bits(a), F24::from_bits(b)).bits()
                } else {
                    add(a, b, Mu::None)
                };
                let y = add(a, b, mu);
                if r != y {
                    diff += 1;
                    first.get_or_insert((a, b, format!("{r:06X}"), format!("{y:06X}")));
                }
            }
        }
        report("add (every a, b in the classes)", diff, first);
    }
    if check || mu == Mu::ToInt186 {
        let (mut diff, mut first) = (0u64, None);
        for a in 0..1u32 << 24 {
            let r = if check {
                F24::from_bits(a).to_f64().trunc() as i32
            } else {
                to_int(a, Mu::None)
            };
            let y = to_int(a, mu);
            if r != y {
                diff += 1;
                first.get_or_insert((a, 0, r.to_string(), y.to_string()));
            }
        }
        report("to_int (every input)", diff, first);
    }
    if check || mu == Mu::Flr233 {
        let (mut diff, mut first) = (0u64, None);
        for a in 0..1u32 << 24 {
            let r = if check {
                alu::flr(F24::from_bits(a)).bits()
            } else {
                flr(a, Mu::None)
            };
            let y = flr(a, mu);
            if r != y {
                diff += 1;
                first.get_or_insert((a, 0, format!("{r:06X}"), format!("{y:06X}")));
            }
        }
        report("flr (every input)", diff, first);
    }
    if check || matches!(mu, Mu::Lit90 | Mu::Lit154 | Mu::Lit181) {
        let (mut diff, mut first) = (0u64, None);
        for a in 0..1u32 << 24 {
            let r = if check {
                alu::max(F24::from_bits(a), F24::from_bits(lit_neg), MaxNegInf::Zero).bits()
            } else {
                minmax(a, lit_neg, true, Mu::None)
            };
            let y = minmax(a, lit_neg, true, mu);
            if r != y {
                diff += 1;
                first.get_or_insert((a, lit_neg, format!("{r:06X}"), format!("{y:06X}")));
            }
        }
        report("LITP y clamp max(a, -B) (every a)", diff, first);
    }
    if check || mu == Mu::Mm92 {
        let (mut diff, mut first) = (0u64, None);
        for b in 0..1u32 << 24 {
            for &a in &bs {
                for max in [false, true] {
                    let r = if check {
                        let (fa, fb) = (F24::from_bits(a), F24::from_bits(b));
                        if max {
                            alu::max(fa, fb, MaxNegInf::Zero).bits()
                        } else {
                            alu::min(fa, fb).bits()
                        }
                    } else {
                        minmax(a, b, max, Mu::None)
                    };
                    let y = minmax(a, b, max, mu);
                    if r != y {
                        diff += 1;
                        first.get_or_insert((a, b, format!("{r:06X}"), format!("{y:06X}")));
                    }
                }
            }
        }
        report("MAX/MIN (every b against a in the classes)", diff, first);
    }
}
