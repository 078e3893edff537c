//! Exhaustive check of one Yosys mutation in the multiplier or EX2 path of the shader unit's
//! multi-cycle SFU (pica_sh_sfu.sv; rtl-bridge/mutants/sh_mut.notes): a bit-exact emulation of
//! the SFU's EX2 and LG2 as the RTL steps them (every 64 x 64 product as its four 32 x 32 limb
//! products added into the 128-bit accumulator, one limb per clock; the same truncations), with
//! the mutation applied, compared with the unmutated emulation over every input (all 2^24 f24
//! patterns; RCP and RSQ use no multiplier). `check` compares the unmutated emulation with the
//! model itself (pica_model::shader::alu::ex2 / lg2 / rsq) on all 2^24 inputs.
//!
//! `cargo run --release -p pica-rtl-bridge --example sh_sfu_enum -- MUTATION`, MUTATION one of
//! `check`, `acc69` (acc_q's next value bit 69 forced 0), `term54` (mul_term bit 54 forced 0),
//! `p3` (mul_p bit 3 flipped when bit 0 is 1), `mx7` (mx_q bit 7 flipped as read when bit 51 is
//! 0), `mx4` (mx_q loaded with go_x bit 4 forced 0), `my13` (my_q loaded with go_y bit 13
//! inverted), `qx19` (EX2's q = 1 + t + t^2/2 bit 19 flipped when bit 47 is 0), `qx21` (the same
//! sum's bit 21 flipped when bit 50 is 0), `qy24` (the q
//! arm of go_y for the last product, bit 24 flipped when bit 11 is 0), `rsq20` (RSQ's A + U
//! in A + U + T with bit 20 flipped when bit 27 is 1; RSQ, emulated step by step too, is
//! compared with alu::rsq by `check`), `acc31` (acc_q bit 31 forced 1 as read: every limb
//! is added to the accumulator with that bit set), `mx18` (mx_q bit 18 forced 0 as read),
//! `gy31` (go_y bit 31 inverted: every product's y operand), `ry30` (go_y's root / q arm for
//! EX2's root products, bit 30 flipped when bit 59 is 1), `term31` (mul_term bit 31 forced 1 for
//! limbs 1-3), `term53` (mul_term bit 53 inverted for limbs 1-3), `term22` (mul_term bit 22
//! inverted as the accumulation reads it, every limb), `sum49` (acc_q + mul_term with bit 49
//! flipped when bit 27 is 0, after every limb add), `qx4` (EX2's q register bit 4 forced 1),
//! `sh9` (LG2's StNorm shift result bit 9 forced 0 at every step), `mag9` (|lg_l| bit 9 forced 1
//! as StLgAbs loads it), `neg8` (the negated lg_l, bit 8 flipped when bit 10 is 0), `ru13` (RSQ's
//! U >> 1 when a bit is not taken, bit 13 flipped when bit 32 is 0), `ru31` (the U of RSQ's
//! U + 2T, bit 31 flipped when bit 3 is 1), `rx7` (RSQ's compare of A + U + T with 2^50 reading
//! bit 7 as 0), `p2` (every limb product's bit 2 flipped when its bit 56 is 1), `my1` (my_q bit 1
//! forced 0 as read: every product's y operand), `qx6` (EX2's q bit 6 flipped), `t22` (the t of q =
//! 1 + t + t^2/2 with bit 22 cleared, the t^2 product unchanged), `tt41` (the operands of EX2's t^2
//! product with bit 41 flipped; `tt41x` go_x only), `ot28` (1 + t with bit 28 cleared before t^2/2
//! is added), `gx1` (LG2's next squaring operand sq >> 1, taken when sq >= 2, with bit 1 flipped;
//! `gx1x` on go_x only), `mag27` (|lg_l|'s bit 27 flipped when its bit 0 is 0). Why these cells:
//! the mutant keys in sh_mut.notes and design.il of the sh_mut build. `MUTATION list` also
//! prints each EX2 input whose result differs (the first 64: the operands a generator needs).

use pica_model::num::F24;
use pica_model::shader::alu;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mu {
    None,
    Acc69,
    Term54,
    P3,
    Mx7,
    Mx4,
    My13,
    Qx19,
    Qx21,
    Qy24,
    Rsq20,
    Acc31,
    Mx18,
    Gy31,
    Ry30,
    Term31,
    Term53,
    Sum49,
    Qx4,
    Sh9,
    Term22,
    Mag9,
    Neg8,
    Ru13,
    Ru31,
    Rx7,
    P2,
    My1,
    Qx6,
    T22,
    Tt41,
    Ot28,
    Gx1,
    Mag27,
    Tt41x,
    Gx1x,
}

const M32: u64 = 0xFFFF_FFFF;
const ONE: u64 = 0x4000_0000_0000_0000;
const M63: u64 = (1 << 63) - 1;

/// The multiplier: mx_q / my_q latched from go_x / go_y, four limbs (k = 0: lo lo, 1: lo hi,
/// 2: hi lo, 3: hi hi) added at 2^(32 (k[0] + k[1])) into the accumulator cleared at go.
fn mul(go_x: u64, go_y: u64, mu: Mu) -> u128 {
    let mx = if mu == Mu::Mx4 {
        go_x & !(1 << 4)
    } else {
        go_x
    };
    let my = match mu {
        Mu::My13 => go_y ^ (1 << 13),
        Mu::Gy31 => go_y ^ (1 << 31),
        Mu::My1 => go_y & !(1 << 1),
        _ => go_y,
    };
    let mx = if mu == Mu::Mx7 && (mx >> 51) & 1 == 0 {
        mx ^ (1 << 7)
    } else {
        mx
    };
    let mx = if mu == Mu::Mx18 { mx & !(1 << 18) } else { mx };
    let mut acc: u128 = 0;
    for k in 0..4u32 {
        if mu == Mu::Acc31 {
            acc |= 1 << 31;
        }
        let a = if k & 2 != 0 { mx >> 32 } else { mx & M32 };
        let b = if k & 1 != 0 { my >> 32 } else { my & M32 };
        let mut p = a * b;
        if mu == Mu::P3 && p & 1 == 1 {
            p ^= 8;
        }
        if mu == Mu::P2 && (p >> 56) & 1 == 1 {
            p ^= 4;
        }
        let mut term = match k {
            0 => u128::from(p),
            3 => u128::from(p) << 64,
            _ => u128::from(p) << 32,
        };
        if mu == Mu::Term54 {
            term &= !(1u128 << 54);
        }
        if mu == Mu::Term31 && k != 0 {
            term |= 1 << 31;
        }
        if mu == Mu::Term53 && k != 0 {
            term ^= 1 << 53;
        }
        if mu == Mu::Term22 {
            term ^= 1 << 22;
        }
        acc = acc.wrapping_add(term);
        if mu == Mu::Sum49 && (acc >> 27) & 1 == 0 {
            acc ^= 1 << 49;
        }
        if mu == Mu::Acc69 {
            acc &= !(1u128 << 69);
        }
    }
    acc
}

fn bits(v: u128, hi: u32, lo: u32) -> u64 {
    ((v >> lo) & ((1u128 << (hi - lo + 1)) - 1)) as u64
}

/// go_y's root / q arm (pica_sh_sfu.sv:277) as the `ry30` mutation changes it.
fn ry(y: u64, mu: Mu) -> u64 {
    if mu == Mu::Ry30 && (y >> 59) & 1 == 1 {
        y ^ (1 << 30)
    } else {
        y
    }
}

/// EX2 of the f24 pattern `a` as pica_sh_sfu.sv computes it.
fn ex2(a: u32, mu: Mu) -> u32 {
    let e = (a >> 16) & 0x7F;
    let sign = a >> 23 != 0;
    let m = a & 0xFFFF;
    let nan = e == 0x7F && m != 0;
    let tiny_neg_max = 9 << 16 | 29012;
    if e == 0 {
        return 0x3F_0000;
    }
    if nan {
        return 0x7F_8000;
    }
    if e >= 69 {
        return if sign { 0 } else { 0x7F_0000 };
    }
    if sign && (a & 0x7F_FFFF) <= tiny_neg_max {
        return 0x3F_0000;
    }
    // sh_q: 1.m negated for a negative x, sign-extended to 88 bits, then shifted left by e - 1
    // (8 bits a clock while 8 or more remain, then 1).
    let m88 = (1u128 << 88) - 1;
    let m1 = u128::from(0x1_0000 | m);
    let mut fx = if sign {
        0u128.wrapping_sub(m1) & m88
    } else {
        m1
    };
    let mut n = e - 1;
    while n != 0 {
        let s = if n >= 8 { 8 } else { 1 };
        fx = (fx << s) & m88;
        n -= s;
    }
    let ex_i = (fx >> 78) as u32 & 0x3FF;
    let ex_f = fx & ((1u128 << 78) - 1);
    let ex_be = (ex_i + 63) & 0x3FF;
    if ex_be >> 9 != 0 || ex_be == 0 {
        return 0;
    }
    let acc = mul(bits(ex_f, 57, 0), alu::EX2_LN2, mu);
    let t = bits(acc, 119, 78);
    let tt = if mu == Mu::Tt41 || mu == Mu::Tt41x {
        t ^ (1 << 41)
    } else {
        t
    };
    let acc = if mu == Mu::Tt41x {
        mul(tt, t, mu)
    } else {
        mul(tt, tt, mu)
    };
    let tq = if mu == Mu::T22 { t & !(1 << 22) } else { t };
    let mut one_t = ONE + tq;
    if mu == Mu::Ot28 {
        one_t &= !(1 << 28);
    }
    let mut qx = (one_t + bits(acc, 83, 63)) & M63;
    if mu == Mu::Qx6 {
        qx ^= 1 << 6;
    }
    if mu == Mu::Qx19 && (qx >> 47) & 1 == 0 {
        qx ^= 1 << 19;
    }
    if mu == Mu::Qx21 && (qx >> 50) & 1 == 0 {
        qx ^= 1 << 21;
    }
    if mu == Mu::Qx4 {
        qx |= 1 << 4;
    }
    let mut p = ONE;
    for k in 1..=20u32 {
        if (ex_f >> (78 - k)) & 1 == 1 {
            p = bits(mul(p, ry(alu::EX2_ROOTS[k as usize - 1], mu), mu), 124, 62);
        }
    }
    let qy = if mu == Mu::Qy24 && (qx >> 11) & 1 == 0 {
        qx ^ (1 << 24)
    } else {
        qx
    };
    p = bits(mul(p, ry(qy, mu), mu), 124, 62);
    (ex_be & 0x7F) << 16 | bits(u128::from(p), 61, 46) as u32
}

/// The constant arms RSQ and LG2 share (y_rsq / y_lg2 of pica_sh_sfu.sv): `zero` for a zero
/// exponent, NaN for a NaN or a negative, `inf` for +inf; `None` for an operand that iterates.
fn rsq_lg2_special(a: u32, zero: u32, inf: u32) -> Option<u32> {
    let e = (a >> 16) & 0x7F;
    if e == 0 {
        Some(zero)
    } else if (e == 0x7F && a & 0xFFFF != 0) || a >> 23 != 0 {
        Some(0x7F_8000)
    } else if e == 0x7F {
        Some(inf)
    } else {
        None
    }
}

/// RSQ of the f24 pattern `a` as pica_sh_sfu.sv steps it: the root bits from 17 down, each
/// step one compare of A + U + T with 2^50 (57-bit registers).
fn rsq(a: u32, mu: Mu) -> u32 {
    if let Some(y) = rsq_lg2_special(a, 0x7F_0000, 0) {
        return y;
    }
    let e = (a >> 16) & 0x7F;
    let m = u64::from(a & 0xFFFF);
    let m57 = (1u64 << 57) - 1;
    let eu = (e as i32) - 63;
    let rk = eu >> 1;
    let sp = if eu & 1 != 0 {
        1 << 17 | m << 1
    } else {
        1 << 16 | m
    };
    let (mut ra, mut ru, mut rt, mut q) = (0u64, 0u64, (sp << 34) & m57, 0u32);
    for _ in 0..18 {
        let mut au = (ra + ru) & m57;
        if mu == Mu::Rsq20 && (au >> 27) & 1 == 1 {
            au ^= 1 << 20;
        }
        let x = (au + rt) & m57;
        let take = if mu == Mu::Rx7 {
            (x & !(1 << 7)) <= 1 << 50
        } else {
            x <= 1 << 50
        };
        if take {
            ra = x;
            let ua = if mu == Mu::Ru31 && (ru >> 3) & 1 == 1 {
                ru ^ (1 << 31)
            } else {
                ru
            };
            ru = ((ua + ((rt << 1) & m57)) & m57) >> 1;
        } else {
            ru >>= 1;
            if mu == Mu::Ru13 && (ru >> 32) & 1 == 0 {
                ru ^= 1 << 13;
            }
        }
        rt >>= 2;
        q = (q << 1 | u32::from(take)) & 0x3_FFFF;
    }
    let re = if q >> 17 != 0 { 63 - rk } else { 62 - rk } as u32;
    (re & 0x7F) << 16 | if q >> 17 != 0 { 0 } else { q & 0xFFFF }
}

/// LG2's 60 fraction bits of log2(1.m): the squarings (y halved when its square is >= 2).
fn lg2_bits(m: u32, mu: Mu) -> u64 {
    let mut y: u64 = 1 << 62 | u64::from(m) << 46;
    // `gx1x`: the flip on go_x only (go_y = the unflipped operand).
    let mut yy = y;
    let mut out = 0u64;
    for _ in 0..60 {
        let sq = bits(mul(y, yy, mu), 125, 62);
        out = (out << 1 | sq >> 63) & ((1 << 60) - 1);
        let next = if sq >> 63 != 0 { sq >> 1 } else { sq & M63 };
        yy = next;
        y = if sq >> 63 != 0 && (mu == Mu::Gx1 || mu == Mu::Gx1x) {
            next ^ 2
        } else {
            next
        };
        if mu != Mu::Gx1x {
            yy = y;
        }
    }
    out
}

/// LG2's result from the exponent and the fraction bits (y_lg2 of pica_sh_sfu.sv).
fn lg2_out(a: u32, b: u64, mu: Mu) -> u32 {
    if let Some(y) = rsq_lg2_special(a, 0xFF_0000, 0x7F_0000) {
        return y;
    }
    let e = (a >> 16) & 0x7F;
    let l = (i128::from(e) - 63) * (1i128 << 60) + i128::from(b);
    if l == 0 {
        return 0;
    }
    // StNorm: |l| shifted left until its leading one is at bit 67 (8 bits a clock while the
    // top 8 are zero, else 1); the position counts down from 67.
    let m88 = (1u128 << 88) - 1;
    let mut sh = l.unsigned_abs();
    if mu == Mu::Mag9 {
        sh |= 1 << 9;
    }
    if mu == Mu::Neg8 && l < 0 && (sh >> 10) & 1 == 0 {
        sh ^= 1 << 8;
    }
    if mu == Mu::Mag27 && sh & 1 == 0 {
        sh ^= 1 << 27;
    }
    let mut p = 67u32;
    while (sh >> 67) & 1 == 0 {
        let s = if (sh >> 60) & 0xFF == 0 { 8 } else { 1 };
        sh = (sh << s) & m88;
        if mu == Mu::Sh9 {
            sh &= !(1 << 9);
        }
        p -= s;
    }
    u32::from(l < 0) << 23 | ((p + 3) & 0x7F) << 16 | ((sh >> 51) as u32 & 0xFFFF)
}

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    // `MUTATION list`: also print each differing EX2 input (the first 64).
    let list = std::env::args().nth(2).as_deref() == Some("list");
    let mu = match arg.as_str() {
        "check" => Mu::None,
        "acc69" => Mu::Acc69,
        "term54" => Mu::Term54,
        "p3" => Mu::P3,
        "mx7" => Mu::Mx7,
        "mx4" => Mu::Mx4,
        "my13" => Mu::My13,
        "qx19" => Mu::Qx19,
        "qx21" => Mu::Qx21,
        "qy24" => Mu::Qy24,
        "rsq20" => Mu::Rsq20,
        "acc31" => Mu::Acc31,
        "mx18" => Mu::Mx18,
        "gy31" => Mu::Gy31,
        "ry30" => Mu::Ry30,
        "term31" => Mu::Term31,
        "term53" => Mu::Term53,
        "sum49" => Mu::Sum49,
        "qx4" => Mu::Qx4,
        "sh9" => Mu::Sh9,
        "term22" => Mu::Term22,
        "mag9" => Mu::Mag9,
        "neg8" => Mu::Neg8,
        "ru13" => Mu::Ru13,
        "ru31" => Mu::Ru31,
        "rx7" => Mu::Rx7,
        "p2" => Mu::P2,
        "my1" => Mu::My1,
        "qx6" => Mu::Qx6,
        "t22" => Mu::T22,
        "tt41" => Mu::Tt41,
        "ot28" => Mu::Ot28,
        "gx1" => Mu::Gx1,
        "mag27" => Mu::Mag27,
        "tt41x" => Mu::Tt41x,
        "gx1x" => Mu::Gx1x,
        _ => {
            eprintln!(
                "usage: sh_sfu_enum check|acc69|term54|p3|mx7|mx4|my13|qx19|qx21|qy24|rsq20|\
                 acc31|mx18|gy31|ry30|term31|term53|sum49|qx4|sh9|\
                 term22|mag9|neg8|ru13|ru31|rx7|p2|my1|qx6|t22|tt41|tt41x|ot28|gx1|gx1x|mag27"
            );
            std::process::exit(2);
        }
    };
    let base: Vec<u64> = (0..1u32 << 16).map(|m| lg2_bits(m, Mu::None)).collect();
    let muts: Vec<u64> = (0..1u32 << 16).map(|m| lg2_bits(m, mu)).collect();
    let (mut ex_diff, mut lg_diff, mut rsq_diff) = (0u64, 0u64, 0u64);
    let (mut ex_first, mut lg_first, mut rsq_first) = (None, None, None);
    for a in 0..1u32 << 24 {
        let (ex_ref, lg_ref, rsq_ref) = if mu == Mu::None {
            let x = F24::from_bits(a);
            (alu::ex2(x).bits(), alu::lg2(x).bits(), alu::rsq(x).bits())
        } else {
            (
                ex2(a, Mu::None),
                lg2_out(a, base[(a & 0xFFFF) as usize], Mu::None),
                rsq(a, Mu::None),
            )
        };
        let r = rsq(a, mu);
        if r != rsq_ref {
            rsq_diff += 1;
            rsq_first.get_or_insert((a, rsq_ref, r));
        }
        let ex = ex2(a, mu);
        let lg = lg2_out(a, muts[(a & 0xFFFF) as usize], mu);
        if ex != ex_ref {
            ex_diff += 1;
            ex_first.get_or_insert((a, ex_ref, ex));
            if list && ex_diff <= 64 {
                println!("EX2 0x{a:06x}: 0x{ex_ref:06x} against 0x{ex:06x}");
            }
        }
        if lg != lg_ref {
            lg_diff += 1;
            lg_first.get_or_insert((a, lg_ref, lg));
        }
    }
    let against = if mu == Mu::None {
        "the model"
    } else {
        "the unmutated emulation"
    };
    println!(
        "{arg}: of 2^24 inputs, EX2 {ex_diff} differ from {against} (first {ex_first:x?}), \
         LG2 {lg_diff} (first {lg_first:x?}), RSQ {rsq_diff} (first {rsq_first:x?})"
    );
}
