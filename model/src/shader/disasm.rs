//! The shader disassembler: code words + operand descriptors (or a whole [`Shbin`]) → picasso
//! assembly that [`super::asm::assemble`] turns back into the same binary.
//!
//! Output conventions (picasso syntax, plus the pica-cosim extensions listed in [`super::asm`]):
//!
//! - Every source prints its full swizzle (`.xyzw` is left out), negation and relative index
//!   (`c8[a0]`, `c8[a1]`, `c8[lcnt]`: picasso's names for a0.x, a0.y and aL); destinations print
//!   their write mask.
//! - The inverted forms print their own mnemonics (`dphi`, `sgei`, `slti`, `dsti`, `madi`); the
//!   assembler keeps an explicitly inverted mnemonic inverted.
//! - Flow control prints every field explicitly, with labels `L_xxx` for targets inside the code
//!   (or an address beyond it): `call L_010, 4`, `ifu b0, L_008, 2`, `for i0, L_00c`,
//!   `jmpc !cmp.x, L_003`. The file starts with `.noautonop`, so `.end` adds no padding NOPs (the
//!   original's padding NOPs are printed as `nop`).
//! - A word that this syntax cannot reproduce exactly (an unknown opcode, bits no field uses, a
//!   condition with a reference bit the operator ignores, an operand descriptor index beyond
//!   the table, ...) prints as `.word 0x........` with the decoded meaning in a comment.
//! - Procedures come from the DVLE label table (our assembler lists them there); without one,
//!   the code is split into procedures at the entry point's bounds. The DVLE's uniforms, inputs,
//!   constants (as `.setf`/`.seti`/`.setb`), outputs (as `.out - semantic oN.mask`), geometry
//!   shader mode and entry point are printed as directives that rebuild the same tables. A `.`
//!   in a uniform or input name prints as `$` (picasso turns a source `$` into `.` in the table).
//!
//! Round trip: for every SHBIN the assembler produced from a single file, assembling the
//! disassembly gives the same code words, operand descriptors and DVLE. Only the first DVLE's
//! metadata is printed as directives; others are described in comments.

use core::fmt::Write as _;

use super::isa::{
    decode, used_mask, CondOp, Condition, DstReg, Format, Instruction, Opcode, RelIndex, SrcReg,
};
use super::shbin::{ConstValue, Dvle, GshMode, Output, Shbin, UniformReg};

/// Disassembles one instruction word. Flow targets print as hex addresses; `None` if the word
/// cannot be written in assembly exactly (see the module docs) — it then needs `.word`.
pub fn instruction(word: u32, opdescs: &[u32]) -> Option<String> {
    inst_text(word, opdescs, false, &|t| format!("0x{t:03x}"))
}

/// A one-line description of any word: its assembly, or `.word` with the decoded fields.
pub fn describe(word: u32, opdescs: &[u32]) -> String {
    instruction(word, opdescs).unwrap_or_else(|| format!(".word 0x{word:08X} ; {:?}", decode(word)))
}

fn src_text(s: SrcReg, neg: bool, sw: u8, idx: RelIndex) -> String {
    let mut t = String::new();
    if neg {
        t.push('-');
    }
    let _ = write!(t, "{s}");
    match idx {
        RelIndex::None => {}
        RelIndex::A0X => t.push_str("[a0]"),
        RelIndex::A0Y => t.push_str("[a1]"),
        RelIndex::AL => t.push_str("[lcnt]"),
    }
    if sw != 0x1B {
        t.push('.');
        for lane in 0..4 {
            t.push(['x', 'y', 'z', 'w'][usize::from((sw >> (6 - 2 * lane)) & 3)]);
        }
    }
    t
}

fn mask_text(mask: u32) -> Option<String> {
    match mask & 0xF {
        0 => None,
        0xF => Some(String::new()),
        m => {
            let mut t = String::from(".");
            for (lane, c) in ['x', 'y', 'z', 'w'].iter().enumerate() {
                if m & (8 >> lane) != 0 {
                    t.push(*c);
                }
            }
            Some(t)
        }
    }
}

/// Source `n` (1-3) of descriptor `d`: (negate, swizzle byte).
fn src_desc(d: u32, n: u32) -> (bool, u8) {
    let f = d >> (4 + 9 * (n - 1));
    (f & 1 != 0, ((f >> 1) & 0xFF) as u8)
}

fn cond_text(c: Condition) -> Option<String> {
    let flag = |neg: bool, y: bool| {
        format!(
            "{}cmp.{}",
            if neg { "!" } else { "" },
            if y { 'y' } else { 'x' }
        )
    };
    match c.op {
        CondOp::X if c.ref_y => Some(flag(!c.ref_x, false)),
        CondOp::Y if c.ref_x => Some(flag(!c.ref_y, true)),
        CondOp::And => Some(format!(
            "{} && {}",
            flag(!c.ref_x, false),
            flag(!c.ref_y, true)
        )),
        CondOp::Or => Some(format!(
            "{} || {}",
            flag(!c.ref_x, false),
            flag(!c.ref_y, true)
        )),
        _ => None,
    }
}

fn inst_text(
    word: u32,
    opdescs: &[u32],
    geometry: bool,
    label: &dyn Fn(u16) -> String,
) -> Option<String> {
    if word & !used_mask(word) != 0 {
        return None;
    }
    let dst_ok = |d: DstReg| !(geometry && d.raw() >= 7 && d.raw() < 0x10);
    let desc_of = |i: u8| opdescs.get(usize::from(i)).copied();
    let two_inputs = |srcs: &[SrcReg]| {
        srcs.iter().enumerate().any(|(i, a)| {
            srcs[i + 1..]
                .iter()
                .any(|b| a.raw() < 0x10 && b.raw() < 0x10 && a != b)
        })
    };
    let inst = decode(word);
    let text = match inst {
        Instruction::Unknown(_) => return None,
        Instruction::Plain(op) => op.mnemonic().to_string(),
        Instruction::Alu {
            op,
            dst,
            src1,
            src2,
            idx,
            desc,
        } => {
            let d = desc_of(desc)?;
            let (n1, s1) = src_desc(d, 1);
            let (n2, s2) = src_desc(d, 2);
            match op.format() {
                Format::F1u if op == Opcode::Mova => {
                    if dst.raw() != 0 {
                        return None;
                    }
                    let target = match d & 0xF {
                        8 => "a0.x",
                        4 => "a0.y",
                        12 => "a0.xy",
                        _ => return None,
                    };
                    format!("mova {target}, {}", src_text(src1, n1, s1, idx))
                }
                Format::F1u => {
                    if !dst_ok(dst) {
                        return None;
                    }
                    format!(
                        "{} {dst}{}, {}",
                        op.mnemonic(),
                        mask_text(d)?,
                        src_text(src1, n1, s1, idx)
                    )
                }
                f => {
                    if !dst_ok(dst) || two_inputs(&[src1, src2]) {
                        return None;
                    }
                    let (i1, i2) = if f == Format::F1i {
                        (RelIndex::None, idx)
                    } else {
                        (idx, RelIndex::None)
                    };
                    format!(
                        "{} {dst}{}, {}, {}",
                        op.mnemonic(),
                        mask_text(d)?,
                        src_text(src1, n1, s1, i1),
                        src_text(src2, n2, s2, i2)
                    )
                }
            }
        }
        Instruction::Cmp {
            src1,
            src2,
            idx,
            cmp_x,
            cmp_y,
            desc,
        } => {
            let d = desc_of(desc)?;
            if two_inputs(&[src1, src2]) {
                return None;
            }
            let (n1, s1) = src_desc(d, 1);
            let (n2, s2) = src_desc(d, 2);
            format!(
                "cmp {}, {}, {}, {}",
                src_text(src1, n1, s1, idx),
                cmp_x.name(),
                cmp_y.name(),
                src_text(src2, n2, s2, RelIndex::None)
            )
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
            let d = desc_of(desc)?;
            if !dst_ok(dst) || two_inputs(&[src1, src2, src3]) {
                return None;
            }
            let (i2, i3) = if op == Opcode::Madi {
                (RelIndex::None, idx)
            } else {
                (idx, RelIndex::None)
            };
            let (n1, s1) = src_desc(d, 1);
            let (n2, s2) = src_desc(d, 2);
            let (n3, s3) = src_desc(d, 3);
            format!(
                "{} {dst}{}, {}, {}, {}",
                op.mnemonic(),
                mask_text(d)?,
                src_text(src1, n1, s1, RelIndex::None),
                src_text(src2, n2, s2, i2),
                src_text(src3, n3, s3, i3)
            )
        }
        Instruction::Flow {
            op,
            cond,
            target,
            num,
        } => match op {
            Opcode::Call if cond == Condition::default() => {
                format!("call {}, {num}", label(target))
            }
            Opcode::Breakc if target == 0 && num == 0 => format!("breakc {}", cond_text(cond)?),
            Opcode::Jmpc if num == 0 => format!("jmpc {}, {}", cond_text(cond)?, label(target)),
            Opcode::Callc | Opcode::Ifc => format!(
                "{} {}, {}, {num}",
                op.mnemonic(),
                cond_text(cond)?,
                label(target)
            ),
            _ => return None,
        },
        Instruction::FlowUniform {
            op,
            id,
            target,
            num,
        } => match op {
            Opcode::Callu | Opcode::Ifu => {
                format!("{} b{id}, {}, {num}", op.mnemonic(), label(target))
            }
            Opcode::Jmpu if num <= 1 => format!(
                "jmpu {}b{id}, {}",
                if num == 1 { "!" } else { "" },
                label(target)
            ),
            Opcode::Loop if num == 0 && id < 4 => format!("for i{id}, {}", label(target)),
            _ => return None,
        },
        Instruction::SetEmit {
            vtx_id,
            winding,
            prim_emit,
        } => {
            let mut t = format!("setemit {vtx_id}");
            match (prim_emit, winding) {
                (false, false) => {}
                (true, false) => t.push_str(", prim"),
                (false, true) => t.push_str(", inv"),
                (true, true) => t.push_str(", prim inv"),
            }
            t
        }
    };
    Some(text)
}

/// Flow targets of a word (for labels).
fn target_of(word: u32) -> Option<u16> {
    match decode(word) {
        Instruction::Flow { op, target, .. } if op != Opcode::Breakc => Some(target),
        Instruction::FlowUniform { target, .. } => Some(target),
        _ => None,
    }
}

fn valid_ident(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && !is_reg_like(s)
}

fn is_reg_like(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(
        cs.next().map(|c| c.to_ascii_lowercase()),
        Some('o' | 'v' | 'r' | 'c' | 'i' | 'b')
    ) && !cs.as_str().is_empty()
        && cs.as_str().bytes().all(|b| b.is_ascii_digit())
}

/// Disassembles raw code words (with their operand descriptors) as one procedure `main`.
pub fn code(code: &[u32], opdescs: &[u32]) -> String {
    let mut out = String::from("; disassembled by pica-cosim\n.noautonop\n\n");
    body(
        &mut out,
        code,
        opdescs,
        false,
        &[("main".into(), 0, code.len())],
    );
    out
}

/// Disassembles a whole SHBIN into assembly that re-assembles to it (see the module docs).
pub fn shbin(s: &Shbin) -> String {
    let mut out = String::from("; disassembled by pica-cosim\n");
    let _ = writeln!(
        out,
        "; {} code words, {} operand descriptors, {} DVLE(s)",
        s.code.len(),
        s.opdescs.len(),
        s.dvles.len()
    );
    for (i, d) in s.dvles.iter().enumerate().skip(1) {
        let _ = writeln!(
            out,
            "; DVLE {i} (not rebuilt): {} shader, entry 0x{:03x}-0x{:03x}, {} constants, {} outputs, {} uniforms",
            if d.geometry { "geometry" } else { "vertex" },
            d.entry,
            d.entry_end,
            d.constants.len(),
            d.outputs.len(),
            d.uniforms.len()
        );
    }
    out.push_str(".noautonop\n");
    let Some(d) = s.dvles.first() else {
        // No executable: the source said `.nodvle` (assembling this gives the same SHBIN).
        out.push_str(".nodvle\n\n");
        body(
            &mut out,
            &s.code,
            &s.opdescs,
            false,
            &[("main".into(), 0, s.code.len())],
        );
        return out;
    };
    let procs = procedures(d, s.code.len());
    header(&mut out, d);
    if let Some((name, _, _)) = procs
        .iter()
        .find(|(_, at, end)| *at == d.entry as usize && *end == d.entry_end as usize)
    {
        if name != "main" {
            let _ = writeln!(out, ".entry {name}");
        }
    }
    out.push('\n');
    body(&mut out, &s.code, &s.opdescs, d.geometry, &procs);
    out
}

/// Procedures (name, start, end) covering the code: the DVLE's label table if its procedures
/// tile the code exactly, otherwise a split at the entry point's bounds.
fn procedures(d: &Dvle, len: usize) -> Vec<(String, usize, usize)> {
    let mut from_labels: Vec<(String, usize, usize)> = d
        .labels
        .iter()
        .filter_map(|l| {
            l.size.map(|s| {
                (
                    l.name.clone(),
                    l.offset as usize,
                    l.offset as usize + s as usize,
                )
            })
        })
        .collect();
    from_labels.sort_by_key(|(n, a, _)| (*a, n.clone()));
    let mut names: Vec<&String> = from_labels.iter().map(|(n, _, _)| n).collect();
    names.sort();
    names.dedup();
    let tiles = !from_labels.is_empty()
        && names.len() == from_labels.len()
        && from_labels.iter().all(|(n, _, _)| valid_ident(n))
        && from_labels.first().is_some_and(|p| p.1 == 0)
        && from_labels.last().is_some_and(|p| p.2 == len)
        && from_labels.windows(2).all(|w| w[0].2 == w[1].1);
    if tiles {
        return from_labels;
    }
    let (e, ee) = (d.entry as usize, d.entry_end as usize);
    if e <= ee && ee <= len {
        let mut v = Vec::new();
        if e > 0 {
            v.push(("proc_000".to_string(), 0, e));
        }
        v.push(("main".to_string(), e, ee));
        if ee < len {
            v.push((format!("proc_{ee:03x}"), ee, len));
        }
        v
    } else {
        vec![("main".to_string(), 0, len)]
    }
}

fn header(out: &mut String, d: &Dvle) {
    let mut float_base = 0;
    if d.geometry {
        match d.gsh_mode {
            GshMode::Point
                if d.gsh_fixed_start == 0 && d.gsh_fixed_num == 0 && d.gsh_variable_num == 0 =>
            {
                // `.gsh point c0` puts the DVLE in geometry uniform space, where a dummy output
                // sets the merge flag; plain `.gsh` does not.
                out.push_str(if d.merge_outmaps {
                    ".gsh point c0\n"
                } else {
                    ".gsh\n"
                });
            }
            GshMode::Variable if d.gsh_fixed_start == 0 && d.gsh_fixed_num == 0 => {
                let _ = writeln!(out, ".gsh variable c0 {}", d.gsh_variable_num);
            }
            GshMode::Fixed if d.gsh_variable_num == 0 => {
                float_base = i64::from(d.gsh_fixed_start) + 1;
                let _ = writeln!(
                    out,
                    ".gsh fixed c{float_base} c{} {}",
                    d.gsh_fixed_start, d.gsh_fixed_num
                );
            }
            m => {
                let _ = writeln!(
                    out,
                    "; cannot rebuild: geometry mode {m:?}, fixed start {}, fixed count {}, \
                     variable count {}\n.gsh",
                    d.gsh_fixed_start, d.gsh_fixed_num, d.gsh_variable_num
                );
            }
        }
    }
    // Uniforms in register order, with private `_pad` uniforms filling the gaps so the
    // allocator puts each one where it was.
    let mut next = [float_base, 0, 0];
    let mut pads = 0;
    for u in &d.uniforms {
        let size = i64::from(u.end) - i64::from(u.start) + 1;
        // picasso writes a source `$` as `.` in the uniform table (its identifiers cannot hold
        // a `.`), so a `.` goes back to `$`.
        let name = u.name.replace('.', "$");
        let (bank, dir, n) = match UniformReg::from_index(u.start) {
            UniformReg::Input(n) => {
                if valid_ident(&name) && size == 1 {
                    let _ = writeln!(out, ".in {name} v{n}");
                } else {
                    let _ = writeln!(out, "; cannot rebuild input {:?} (v{n})", u.name);
                }
                continue;
            }
            UniformReg::Float(n) => (0, "fvec", i64::from(n)),
            UniformReg::Int(n) => (1, "ivec", i64::from(n)),
            UniformReg::Bool(n) => (2, "bool", i64::from(n)),
            UniformReg::Unknown(i) => {
                let _ = writeln!(out, "; cannot rebuild uniform {:?} at 0x{i:02X}", u.name);
                continue;
            }
        };
        if !valid_ident(&name) || name.starts_with('_') || size < 1 || n < next[bank] {
            let _ = writeln!(
                out,
                "; cannot rebuild uniform {:?} ({}-{})",
                u.name,
                UniformReg::from_index(u.start),
                UniformReg::from_index(u.end)
            );
            continue;
        }
        if n > next[bank] {
            let _ = writeln!(out, ".{dir} _pad{pads}[{}]", n - next[bank]);
            pads += 1;
        }
        let _ = writeln!(out, ".{dir} {name}[{size}]");
        next[bank] = n + size;
    }
    for c in &d.constants {
        let _ = match c.value {
            ConstValue::Float(v) => {
                let texts: Vec<Option<String>> = v.iter().map(|f| f24_text(*f)).collect();
                if texts.iter().all(Option::is_some) {
                    let t: Vec<String> = texts.into_iter().flatten().collect();
                    writeln!(out, ".setf c{}({})", c.reg, t.join(", "))
                } else {
                    writeln!(out, "; cannot rebuild float constant c{} = {:?}", c.reg, v)
                }
            }
            ConstValue::Int(v) => writeln!(
                out,
                ".seti i{}({}, {}, {}, {})",
                c.reg, v[0], v[1], v[2], v[3]
            ),
            ConstValue::Bool(b) => writeln!(out, ".setb b{} {}", c.reg, b),
        };
    }
    for o in &d.outputs {
        out_line(out, o);
    }
}

fn out_line(out: &mut String, o: &Output) {
    let sem =
        Output::semantic_name(o.semantic).map_or_else(|| o.semantic.to_string(), str::to_string);
    let mask = (o.mask & 0xF) as u32;
    // The output table mask has x in bit 0; mask_text wants x in bit 3.
    let rev = (0..4).fold(0, |m, b| m | (((mask >> b) & 1) << (3 - b)));
    match mask_text(rev) {
        Some(m) if o.unknown == 0 && o.mask <= 0xF => {
            let _ = writeln!(out, ".out - {sem} o{}{m}", o.reg);
        }
        _ => {
            let _ = writeln!(out, "; cannot rebuild output {o:?}");
        }
    }
}

/// An f24 value as decimal text that picasso's conversion turns back into the same bits, if
/// there is one (not for NaN or f24 subnormals).
fn f24_text(f: crate::num::F24) -> Option<String> {
    let v = f.to_f64();
    let t = if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_string()
    } else if v == 0.0 && v.is_sign_negative() {
        "-0.0".to_string()
    } else {
        // f64 Display is the shortest text that parses back to the same f64; f24 → f64 is exact.
        format!("{v:?}")
    };
    (super::asm::f24_from_text(&t) == Some(f)).then_some(t)
}

fn body(
    out: &mut String,
    code: &[u32],
    opdescs: &[u32],
    geometry: bool,
    procs: &[(String, usize, usize)],
) {
    let len = code.len();
    let mut targets: Vec<usize> = code
        .iter()
        .filter_map(|w| target_of(*w))
        .map(usize::from)
        .filter(|t| *t <= len)
        .collect();
    targets.sort_unstable();
    targets.dedup();
    let label = |t: u16| {
        if usize::from(t) <= len {
            format!("L_{t:03x}")
        } else {
            format!("0x{t:03x}")
        }
    };
    let mut labels = targets.iter().peekable();
    for (name, start, end) in procs {
        let _ = writeln!(out, ".proc {name}");
        for (at, w) in code.iter().enumerate().take(*end).skip(*start) {
            while labels.next_if(|t| **t == at).is_some() {
                let _ = writeln!(out, "L_{at:03x}:");
            }
            let text = inst_text(*w, opdescs, geometry, &label);
            let _ = match text {
                Some(t) => writeln!(out, "    {t:<40} ; 0x{at:03x}: 0x{w:08X}"),
                None => writeln!(
                    out,
                    "    .word 0x{w:08X}                         ; 0x{at:03x}: {:?}",
                    decode(*w)
                ),
            };
        }
        if *end == len {
            while labels.next_if(|t| **t == len).is_some() {
                let _ = writeln!(out, "L_{len:03x}:");
            }
        }
        out.push_str(".end\n\n");
    }
}
