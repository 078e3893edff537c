//! Exhaustive check of one Yosys mutation of the shader unit's LG2 or EX2 (rtl-bridge/mutants/
//! sh_mut.notes): a bit-exact emulation of the netlist cells of pica_f24_lg2.sv / pica_f24_ex2.sv
//! as `pica_sh_unit_top`'s mutant model has them (mul_shr62 inlined once per iteration as four
//! limb products and five carry adds; in LG2 the two cross products are one cell), with the
//! mutation applied to one cell port bit, compared with the unmutated emulation over every input.
//! An example of the bridge crate, so it reads the EX2 constants from the model and checks the
//! unmutated emulation against the model itself:
//! `cargo run --release -p pica-rtl-bridge --example sh_mut_enum -- lg2 ITER CELL PORT BIT MODE
//! [CTRL]` (or `ex2 ...`, or `lg2 check` / `ex2 check`: the unmutated emulation against
//! `pica_model::shader::alu::lg2` / `ex2` on every input). ITER: LG2
//! squaring 0-59 (mul_shr62 instance $N = iteration N - 1099 in design.il); EX2 root product
//! 1-20 (p version $k\p feeds product k+1), 21 = the product by q, 0 for the single cells.
//! MODE: inv, const0, const1, cnot0 CTRL, cnot1 CTRL (Yosys mutate). Why the cells and port
//! widths are these: design.il of the sh_mut build.

use pica_model::num::F24;
use pica_model::shader::alu;

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

fn cell(s: &str) -> Result<Cell, String> {
    Ok(match s {
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
        c => return Err(format!("unknown cell `{c}`")),
    })
}

/// The mutation of the arguments `ITER CELL PORT BIT MODE [CTRL]`.
fn parse_mu(args: &[String]) -> Result<Mu, String> {
    let [it, c, p, bit, rest @ ..] = args else {
        return Err(USAGE.to_string());
    };
    Ok(Mu {
        it: it
            .parse()
            .map_err(|_| format!("ITER `{it}` is not a number"))?,
        cell: cell(c)?,
        port: port(p)?,
        bit: bit
            .parse()
            .map_err(|_| format!("BIT `{bit}` is not a number"))?,
        mode: mode(rest)?,
    })
}

const USAGE: &str =
    "usage: sh_mut_enum lg2|ex2 ITER CELL PORT BIT inv|const0|const1|cnot0 CTRL|cnot1 CTRL, \
                     or sh_mut_enum lg2|ex2 check";

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
fn port(s: &str) -> Result<Port, String> {
    match s {
        "A" => Ok(Port::A),
        "B" => Ok(Port::B),
        "Y" => Ok(Port::Y),
        p => Err(format!("unknown port `{p}` (A, B or Y)")),
    }
}

fn mode(args: &[String]) -> Result<Mode, String> {
    let ctrl = || -> Result<u32, String> {
        let c = args.get(1).ok_or("cnot0/cnot1 need the control bit CTRL")?;
        c.parse().map_err(|_| format!("CTRL `{c}` is not a number"))
    };
    match args.first().map(String::as_str) {
        Some("inv") => Ok(Mode::Inv),
        Some("const0") => Ok(Mode::C0),
        Some("const1") => Ok(Mode::C1),
        Some("cnot0") => Ok(Mode::Cnot0(ctrl()?)),
        Some("cnot1") => Ok(Mode::Cnot1(ctrl()?)),
        m => Err(format!("unknown MODE {m:?}")),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.split_first() {
        Some((f, rest)) if f == "lg2" => lg2::main(rest),
        Some((f, rest)) if f == "ex2" => ex2::main(rest),
        _ => Err(USAGE.to_string()),
    };
    if let Err(e) = r {
        eprintln!("sh_mut_enum: {e}");
        std::process::exit(2);
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

    pub fn main(args: &[String]) -> Result<(), String> {
        if args.first().map(String::as_str) == Some("check") {
            // The unmutated emulation against the model's LG2 on every input.
            let bad = (0..(1u32 << 24))
                .filter(|&a| {
                    let want = alu::lg2(F24::from_bits(a)).bits();
                    lg2_out(a, lg2_bits(a & 0xFFFF, None), None) != want
                })
                .count();
            println!("check: {bad} of 2^24 inputs differ from pica_model::shader::alu::lg2");
            return if bad == 0 {
                Ok(())
            } else {
                Err("check failed".into())
            };
        }
        let mu = Some(parse_mu(args)?);
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
        println!(
            "mantissas with different bits: {diff_bits}; positive inputs with a different \
             result: {diff_out} (of 2^23); first {first:x?}"
        );
        Ok(())
    }
}

mod ex2 {
    use super::*;

    /// The model's roots 2^(2^-k) (the literals `pica_f24_ex2.sv` holds too).
    const ROOTS: [u64; 20] = alu::EX2_ROOTS;
    const LN2: u128 = alu::EX2_LN2 as u128;
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
            let r = mul(p, u128::from(ROOTS[k - 1]), k, m);
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

    pub fn main(args: &[String]) -> Result<(), String> {
        if args.first().map(String::as_str) == Some("check") {
            // The unmutated emulation against the model's EX2 on every input.
            let bad = (0..(1u32 << 24))
                .filter(|&a| ex2(a, None) != alu::ex2(F24::from_bits(a)).bits())
                .count();
            println!("check: {bad} of 2^24 inputs differ from pica_model::shader::alu::ex2");
            return if bad == 0 {
                Ok(())
            } else {
                Err("check failed".into())
            };
        }
        let mu = Some(parse_mu(args)?);
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
        Ok(())
    }
}
