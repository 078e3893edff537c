//! Exhaustive check of one Yosys mutation of the shader unit's LG2 or EX2 (rtl-bridge/mutants/
//! sh_mut.notes): a bit-exact emulation of the netlist cells of pica_f24_lg2.sv / pica_f24_ex2.sv
//! as `pica_sh_unit_top`'s mutant model has them (mul_shr62 inlined once per iteration as four
//! limb products and five carry adds; in LG2 the two cross products are one cell), with the
//! mutation applied to one cell port bit, compared with the unmutated emulation over every input.
//! Standalone (no crate): `rustc -O sh_mut_enum.rs && ./sh_mut_enum lg2 ITER CELL PORT BIT MODE [CTRL]`
//! (or `ex2 ...`, or `lg2 check` / `ex2 check` against the model's u128 algorithm). ITER: LG2
//! squaring 0-59 (mul_shr62 instance $N = iteration N - 1099 in design.il); EX2 root product
//! 1-20 (p version $k\p feeds product k+1), 21 = the product by q, 0 for the single cells.
//! MODE: inv, const0, const1, cnot0 CTRL, cnot1 CTRL (Yosys mutate). Why the cells and port
//! widths are these: design.il of the sh_mut build.

#[derive(Clone, Copy, PartialEq, Debug)]
enum Port {
    A,
    B,
    Y,
}
#[derive(Clone, Copy, Debug)]
enum Mode {
    Inv,
    C0,
    C1,
    Cnot0(u32),
    Cnot1(u32),
}

fn mutate_bit(v: u128, bit: u32, mode: Mode) -> u128 {
    let b = 1u128 << bit;
    match mode {
        Mode::Inv => v ^ b,
        Mode::C0 => v & !b,
        Mode::C1 => v | b,
        Mode::Cnot1(c) => {
            if (v >> c) & 1 == 1 {
                v ^ b
            } else {
                v
            }
        }
        Mode::Cnot0(c) => {
            if (v >> c) & 1 == 0 {
                v ^ b
            } else {
                v
            }
        }
    }
}
/// The netlist cells the emulations name (LG2: Ll, Hl, Hh, Add1-5, Ymux, Shr; EX2: Ll, Lh,
/// Hl, Hh, Add1-5, Pmux, Qadd, Tt, Fxmux, Neg).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Cell {
    Ll,
    Lh,
    Hl,
    Hh,
    Add1,
    Add2,
    Add3,
    Add4,
    Add5,
    Ymux,
    Shr,
    Pmux,
    Qadd,
    Tt,
    Fxmux,
    Neg,
}

fn cell(s: &str) -> Cell {
    match s {
        "ll" => Cell::Ll,
        "lh" => Cell::Lh,
        "hl" => Cell::Hl,
        "hh" => Cell::Hh,
        "add1" => Cell::Add1,
        "add2" => Cell::Add2,
        "add3" => Cell::Add3,
        "add4" => Cell::Add4,
        "add5" => Cell::Add5,
        "ymux" => Cell::Ymux,
        "shr" => Cell::Shr,
        "pmux" => Cell::Pmux,
        "qadd" => Cell::Qadd,
        "tt" => Cell::Tt,
        "fxmux" => Cell::Fxmux,
        "neg" => Cell::Neg,
        c => panic!("cell {c}"),
    }
}

/// The mutation of the arguments `ITER CELL PORT BIT MODE [CTRL]`.
fn parse_mu(args: &[String]) -> Mu {
    Mu {
        it: args[0].parse().expect("ITER"),
        cell: cell(&args[1]),
        port: port(&args[2]),
        bit: args[3].parse().expect("BIT"),
        mode: mode(&args[4..]),
    }
}

/// One mutation: cell `cell` of iteration `it`, bit `bit` of port `port`.
#[derive(Clone, Copy, Debug)]
struct Mu {
    it: usize,
    cell: Cell,
    port: Port,
    bit: u32,
    mode: Mode,
}

/// `v`, the value on `port` of `cell` in iteration `it`, as the mutant `m` sees it.
fn ap(m: Option<Mu>, it: usize, cell: Cell, port: Port, v: u128) -> u128 {
    let Some(m) = m else { return v };
    if m.it != it || m.cell != cell || m.port != port {
        return v;
    }
    mutate_bit(v, m.bit, m.mode)
}
/// A two-input cell `cell` of iteration `it`: `op` of its (mutated) ports, truncated to its
/// `w`-bit output port, then the output as mutated.
fn cell2(
    m: Option<Mu>,
    it: usize,
    cell: Cell,
    (a, b): (u128, u128),
    op: fn(u128, u128) -> u128,
    w: u32,
) -> u128 {
    let a = ap(m, it, cell, Port::A, a);
    let b = ap(m, it, cell, Port::B, b);
    ap(m, it, cell, Port::Y, op(a, b) & mask(w))
}
const MUL: fn(u128, u128) -> u128 = |a, b| a * b;
const ADD: fn(u128, u128) -> u128 = |a, b| a + b;

fn mask(w: u32) -> u128 {
    if w >= 128 {
        !0
    } else {
        (1u128 << w) - 1
    }
}
const M32: u128 = (1 << 32) - 1;
fn port(s: &str) -> Port {
    match s {
        "A" => Port::A,
        "B" => Port::B,
        _ => Port::Y,
    }
}
fn mode(args: &[String]) -> Mode {
    match args[0].as_str() {
        "inv" => Mode::Inv,
        "const0" => Mode::C0,
        "const1" => Mode::C1,
        "cnot0" => Mode::Cnot0(args[1].parse().unwrap()),
        "cnot1" => Mode::Cnot1(args[1].parse().unwrap()),
        m => panic!("mode {m}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args[1].as_str() {
        "lg2" => lg2::main(&args[2..]),
        "ex2" => ex2::main(&args[2..]),
        f => panic!("lg2 or ex2, not {f}"),
    }
}

mod lg2 {
    use super::*;

    /// One squaring (iteration `it`) as the netlist computes it: returns result[63:0].
    fn sq(x: u128, it: usize, m: Option<Mu>) -> u128 {
        let xl = x & M32;
        let xh = x >> 32; // 31 bits
        let ll = cell2(m, it, Cell::Ll, (xl, xl), MUL, 64);
        let hl = cell2(m, it, Cell::Hl, (xl, xh), MUL, 63);
        let hh = cell2(m, it, Cell::Hh, (xh, xh), MUL, 62);
        let a1 = cell2(m, it, Cell::Add1, (ll >> 32, hl & M32), ADD, 33);
        let mid = cell2(m, it, Cell::Add2, (a1, hl & M32), ADD, 34);
        let a3 = cell2(m, it, Cell::Add3, (hh, hl >> 32), ADD, 62);
        let a4 = cell2(m, it, Cell::Add4, (a3, hl >> 32), ADD, 62);
        let up = cell2(m, it, Cell::Add5, (a4, (mid >> 32) & 3), ADD, 62);
        (up << 2) | ((mid >> 30) & 3)
    }

    fn lg2_bits(mant: u32, m: Option<Mu>) -> u64 {
        let mut y: u128 = ((1u128 << 16) | mant as u128) << 46;
        let mut b: u64 = 0;
        for it in 0..60 {
            let r = sq(y, it, m);
            let top = (r >> 63) & 1;
            b = (b << 1) | top as u64;
            let a = r & mask(63);
            let bb = (1u128 << 62) | ((r >> 1) & mask(62));
            let (a, bb) = (
                ap(m, it, Cell::Ymux, Port::A, a),
                ap(m, it, Cell::Ymux, Port::B, bb),
            );
            y = ap(m, it, Cell::Ymux, Port::Y, if top == 1 { bb } else { a }) & mask(63);
        }
        b & ((1 << 60) - 1)
    }

    fn lg2_out(a: u32, bits: u64, m: Option<Mu>) -> u32 {
        let e = (a >> 16) & 0x7F;
        if e == 0 {
            return 0xFF0000;
        }
        if e == 0x7F && a & 0xFFFF != 0 {
            return 0x7F8000;
        }
        if a >> 23 == 1 {
            return 0x7F8000;
        }
        if e == 0x7F {
            return 0x7F0000;
        }
        let l: i128 = ((e as i128 - 63) << 60) + bits as i128;
        let l68 = (l as u128) & mask(68);
        if l68 == 0 {
            return 0;
        }
        let neg = (l68 >> 67) & 1;
        let mag = if neg == 1 {
            (0u128.wrapping_sub(l68)) & mask(68)
        } else {
            l68
        };
        let p = 127 - mag.leading_zeros();
        let norm = if p >= 16 {
            ap(m, 0, Cell::Shr, Port::A, mag) >> (p - 16)
        } else {
            mag << (16 - p)
        };
        ((neg as u32) << 23) | (((p + 3) & 0x7F) << 16) | (norm as u32 & 0xFFFF)
    }

    pub fn main(args: &[String]) {
        if args[0] == "check" {
            for mant in 0..(1u32 << 16) {
                let mut y = ((1u128 << 16) | mant as u128) << 46;
                let mut bits = 0u64;
                for _ in 0..60 {
                    y = (y * y) >> 62;
                    bits <<= 1;
                    if y >= 2 << 62 {
                        bits |= 1;
                        y >>= 1;
                    }
                }
                assert_eq!(bits, lg2_bits(mant, None), "m {mant:x}");
            }
            println!("ok");
            return;
        }
        let mu = Some(parse_mu(args));
        let mut diff_bits = 0u64;
        let mut diff_out = 0u64;
        let mut first = None;
        for mant in 0..(1u32 << 16) {
            let b0 = lg2_bits(mant, None);
            let b1 = lg2_bits(mant, mu);
            if b0 != b1 {
                diff_bits += 1;
            }
            if b0 == b1 && mu.map(|m| m.cell) != Some(Cell::Shr) {
                continue;
            }
            for e in 0..128u32 {
                let a = e << 16 | mant;
                let o0 = lg2_out(a, b0, None);
                let o1 = lg2_out(a, b1, mu);
                if o0 != o1 {
                    diff_out += 1;
                    if first.is_none() {
                        first = Some((a, o0, o1));
                    }
                }
            }
        }
        // sanity: unmutated equals the u128 reference
        println!("mantissas with different bits: {diff_bits}; positive inputs with a different result: {diff_out} (of 2^23); first {:x?}", first);
    }
}

mod ex2 {
    use super::*;

    const ROOTS: [u128; 20] = [
        0x5a82_7999_fcef_3242,
        0x4c1b_f828_c6dc_54b7,
        0x45ca_e0f1_f545_eb73,
        0x42d5_61b3_e624_3d8a,
        0x4166_c34c_5615_d0eb,
        0x40b2_68f9_de01_83b9,
        0x4058_f6a7_eccc_d5b6,
        0x402c_6be9_6af2_fb58,
        0x4016_321b_6870_27a8,
        0x400b_1817_8ba3_3b14,
        0x4005_8bce_4101_47e8,
        0x4002_c5d7_bff7_1dae,
        0x4001_62e8_07ee_7e5b,
        0x4000_b173_0df6_a524,
        0x4000_58b9_497b_8151,
        0x4000_2c5c_955d_d701,
        0x4000_162e_46d6_f26b,
        0x4000_0b17_2275_7b1b,
        0x4000_058b_90fd_3e0c,
        0x4000_02c5_c86f_3f26,
    ];
    const LN2: u128 = 0x2c5c_85fd_f473_de6a;
    const ONE: u128 = 1 << 62;

    /// mul_shr62(x, y) as the netlist computes it, iteration `it` (1..=20 roots, 21 = final by q).
    fn mul(x: u128, y: u128, it: usize, m: Option<Mu>) -> u128 {
        let (xl, xh, yl, yh) = (x & M32, x >> 32, y & M32, y >> 32);
        let ll = cell2(m, it, Cell::Ll, (xl, yl), MUL, 64);
        let lh = cell2(m, it, Cell::Lh, (xl, yh), MUL, 64);
        let hl = cell2(m, it, Cell::Hl, (xh, yl), MUL, 64);
        let hh = cell2(m, it, Cell::Hh, (xh, yh), MUL, 64);
        let a1 = cell2(m, it, Cell::Add1, (ll >> 32, lh & M32), ADD, 33);
        let mid = cell2(m, it, Cell::Add2, (a1, hl & M32), ADD, 34);
        let a3 = cell2(m, it, Cell::Add3, (hh, lh >> 32), ADD, 64);
        let a4 = cell2(m, it, Cell::Add4, (a3, hl >> 32), ADD, 64);
        let up = cell2(m, it, Cell::Add5, (a4, mid >> 32), ADD, 64);
        ((up & mask(61)) << 2) | ((mid >> 30) & 3) // p = prod[62:0]
    }

    fn ex2(a: u32, m: Option<Mu>) -> u32 {
        let e = (a >> 16) & 0x7F;
        let neg = a >> 23 == 1;
        let mag: u128 =
            (((1u128 << 16) | (a & 0xFFFF) as u128) << (e.wrapping_sub(1) & 0x7F)) & mask(88);
        let negv = ap(m, 0, Cell::Neg, Port::Y, 0u128.wrapping_sub(mag) & mask(88));
        let fx = ap(
            m,
            0,
            Cell::Fxmux,
            Port::Y,
            if neg {
                ap(m, 0, Cell::Fxmux, Port::B, negv)
            } else {
                ap(m, 0, Cell::Fxmux, Port::A, mag)
            },
        ) & mask(88);
        let i = (fx >> 78) & 0x3FF;
        let f = fx & mask(78);
        let tl = ((f & mask(58)) * LN2) & mask(120);
        let t = tl >> 78;
        let tt = ap(m, 0, Cell::Tt, Port::Y, t * t) & mask(84);
        let q = ap(m, 0, Cell::Qadd, Port::Y, (ONE + t + (tt >> 63)) & mask(63));
        let mut p = ONE;
        for k in 1..=20usize {
            let r = mul(p, ROOTS[k - 1], k, m);
            let bit = (f >> (78 - k)) & 1 == 1;
            let (aa, bb) = (
                ap(m, k, Cell::Pmux, Port::A, p),
                ap(m, k, Cell::Pmux, Port::B, r),
            );
            p = ap(m, k, Cell::Pmux, Port::Y, if bit { bb } else { aa }) & mask(63);
        }
        p = mul(p, q, 21, m) & mask(63);
        let be = (i + 63) & 0x3FF;
        if e == 0 {
            return 0x3F0000;
        }
        if e == 0x7F && a & 0xFFFF != 0 {
            return 0x7F8000;
        }
        if e >= 69 {
            return if neg { 0 } else { 0x7F0000 };
        }
        if neg && (a & 0x7FFFFF) <= (9 << 16 | 29012) {
            return 0x3F0000;
        }
        if (be >> 9) & 1 == 1 || be == 0 {
            return 0;
        }
        ((be as u32 & 0x7F) << 16) | ((p >> 46) as u32 & 0xFFFF)
    }

    pub fn main(args: &[String]) {
        if args[0] == "check" {
            // against the model's u128 algorithm (alu::ex2), all finite non-special inputs
            let mut bad = 0;
            for a in 0..(1u32 << 24) {
                let e = (a >> 16) & 0x7F;
                let neg = a >> 23 == 1;
                let want = if e == 0 {
                    0x3F0000
                } else if e == 0x7F && a & 0xFFFF != 0 {
                    0x7F8000
                } else if e >= 69 {
                    if neg {
                        0
                    } else {
                        0x7F0000
                    }
                } else if neg && (a & 0x7FFFFF) <= (9 << 16 | 29012) {
                    0x3F0000
                } else {
                    let mag = ((1i128 << 16) | (a & 0xFFFF) as i128) << (e - 1);
                    let fx = if neg { -mag } else { mag };
                    let i = fx >> 78;
                    let f = (fx & ((1 << 78) - 1)) as u128;
                    let mut p: u128 = 1 << 62;
                    for k in 0..20 {
                        if (f >> (77 - k)) & 1 != 0 {
                            p = (p * ROOTS[k]) >> 62;
                        }
                    }
                    let flo = f & ((1 << 58) - 1);
                    let t = (flo * LN2) >> 78;
                    let q = (1 << 62) + t + ((t * t) >> 63);
                    p = (p * q) >> 62;
                    let be = i + 63;
                    if be <= 0 {
                        0
                    } else {
                        ((be as u32) << 16) | ((p >> 46) as u32 & 0xFFFF)
                    }
                };
                if want != ex2(a, None) {
                    bad += 1;
                    if bad < 5 {
                        println!("{a:06x} {want:06x} {:06x}", ex2(a, None));
                    }
                }
            }
            println!("check: {bad} differ");
            return;
        }
        let mu = Some(parse_mu(args));
        let (mut n, mut first) = (0u64, Vec::new());
        for a in 0..(1u32 << 24) {
            let (o0, o1) = (ex2(a, None), ex2(a, mu));
            if o0 != o1 {
                n += 1;
                if first.len() < 4 {
                    first.push(format!("{a:06x}:{o0:06x}/{o1:06x}"));
                }
            }
        }
        println!("inputs with a different result: {n} of 2^24; e.g. {first:?}");
    }
}
