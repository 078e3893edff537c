//! Disassembly of NV2A vertex-program slots, in NV_vertex_program or D3D `vs.1.1` style.
//!
//! One slot is one line: the MAC operation, then ` + ` and the ILU operation when both work.
//! Each operation reads `OP dest, sources`; when a unit writes both a temporary and the output
//! register, the destinations are joined by ` & ` (`R0.xy & o[HPOS].xy`); a unit that writes
//! nothing shows `-` as destination. ILU scalar operations (RCP, RCC, RSQ, EXP, LOG) show the one
//! component they read. A paired ILU's temporary is always shown as R1 (where it writes).
//!
//! | | NV syntax | D3D syntax |
//! |---|---|---|
//! | mnemonics | `DP4` | `dp4` |
//! | temporaries | `R3` (`R12` mirrors oPos) | `r3` |
//! | inputs | `v[3]` | `v3` |
//! | constants (seed/GL numbering c0-c191) | `c[100]`, `c[A0.x+100]` | D3D numbering c-96..c95: `c[4]`, `c[a0.x+4]` |
//! | outputs | `o[HPOS]`, `o[COL0]` ... | `oPos`, `oD0` ... |
//!
//! Reserved values never stop the disassembler: `MAC?14`, `?mux0`, `R13` and `o[?13]` show what is
//! encoded.

use super::decode::{Comp, IluOp, MacOp, Mask, Mux, OutBank, Program, Slot, Source, Unit};
use super::interp::OUTPUT_NAMES;

/// Which assembler dialect to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Syntax {
    /// NV_vertex_program style (upper case, `R0`, `v[0]`, `c[96]`, `o[HPOS]`).
    #[default]
    Nv,
    /// D3D `vs.1.1` style (lower case, `r0`, `v0`, `c[0]` in D3D numbering, `oPos`).
    D3d,
}

/// D3D numbers the 192 constants -96..95 (seed 003): D3D index = seed index - 96.
pub const D3D_CONST_BIAS: i32 = 96;

fn swizzle_text(sw: [Comp; 4]) -> String {
    if sw == Source::XYZW {
        String::new()
    } else if sw.iter().all(|c| *c == sw[0]) {
        format!(".{}", sw[0].letter())
    } else {
        format!(".{}", sw.iter().map(|c| c.letter()).collect::<String>())
    }
}

fn mask_text(m: Mask) -> String {
    if m == Mask::XYZW {
        String::new()
    } else {
        format!(".{}", m.letters())
    }
}

fn const_text(syntax: Syntax, index: i32, relative: bool) -> String {
    match (syntax, relative) {
        (Syntax::Nv, false) => format!("c[{index}]"),
        (Syntax::Nv, true) => format!("c[A0.x+{index}]"),
        (Syntax::D3d, false) => format!("c[{}]", index - D3D_CONST_BIAS),
        (Syntax::D3d, true) => {
            let d = index - D3D_CONST_BIAS;
            if d < 0 {
                format!("c[a0.x-{}]", -d)
            } else {
                format!("c[a0.x+{d}]")
            }
        }
    }
}

fn temp_text(syntax: Syntax, r: u8) -> String {
    match syntax {
        Syntax::Nv => format!("R{r}"),
        Syntax::D3d => format!("r{r}"),
    }
}

/// Text of source `n` (0-2) of `slot`; `scalar` shows only the swizzle's x selector.
pub fn source_text(slot: &Slot, n: usize, syntax: Syntax, scalar: bool) -> String {
    let s = slot.src[n];
    let reg = match s.mux {
        Mux::Reserved => "?mux0".to_string(),
        Mux::Temp => temp_text(syntax, s.reg),
        Mux::Input => match syntax {
            Syntax::Nv => format!("v[{}]", slot.input_index),
            Syntax::D3d => format!("v{}", slot.input_index),
        },
        Mux::Const => const_text(syntax, slot.const_index.into(), slot.relative),
    };
    let sw = if scalar {
        format!(".{}", s.swizzle[0].letter())
    } else {
        swizzle_text(s.swizzle)
    };
    format!("{}{reg}{sw}", if s.neg { "-" } else { "" })
}

/// Text of the output (or constant) register the slot's output write targets.
pub fn output_text(slot: &Slot, syntax: Syntax) -> String {
    let idx = usize::from(slot.out_index);
    match slot.out_bank {
        OutBank::Const => const_text(syntax, idx as i32, false),
        OutBank::Output => match (OUTPUT_NAMES.get(idx).copied().flatten(), syntax) {
            (Some((nv, _)), Syntax::Nv) => format!("o[{nv}]"),
            (Some((_, d3d)), Syntax::D3d) => d3d.to_string(),
            (None, Syntax::Nv) => format!("o[?{idx}]"),
            (None, Syntax::D3d) => format!("o?{idx}"),
        },
    }
}

fn dests(slot: &Slot, unit: Unit, syntax: Syntax) -> String {
    let (mask, reg) = match unit {
        Unit::Mac => (slot.mac_mask, slot.temp),
        Unit::Ilu => (slot.ilu_mask, if slot.is_paired() { 1 } else { slot.temp }),
    };
    let mut d = Vec::new();
    if !mask.is_empty() {
        d.push(format!("{}{}", temp_text(syntax, reg), mask_text(mask)));
    }
    if slot.out_mux == unit && !slot.out_mask.is_empty() {
        d.push(format!(
            "{}{}",
            output_text(slot, syntax),
            mask_text(slot.out_mask)
        ));
    }
    if d.is_empty() {
        "-".to_string()
    } else {
        d.join(" & ")
    }
}

fn mnemonic(name: &str, syntax: Syntax) -> String {
    match syntax {
        Syntax::Nv => name.to_string(),
        Syntax::D3d => name.to_ascii_lowercase(),
    }
}

/// One slot as text (no slot number, no words).
pub fn slot_text(slot: &Slot, syntax: Syntax) -> String {
    let mut ops = Vec::new();
    if slot.mac != MacOp::Nop {
        let dest = if slot.mac == MacOp::Arl {
            match syntax {
                Syntax::Nv => "A0.x".to_string(),
                Syntax::D3d => "a0.x".to_string(),
            }
        } else {
            dests(slot, Unit::Mac, syntax)
        };
        let reads = slot.mac.reads();
        let mut parts = vec![dest];
        for (n, used) in reads.iter().enumerate() {
            if *used {
                parts.push(source_text(slot, n, syntax, slot.mac == MacOp::Arl));
            }
        }
        if matches!(slot.mac, MacOp::Reserved(_)) {
            // Show what a reserved op would read, as a two-operand op would.
            parts.push(source_text(slot, 0, syntax, false));
            parts.push(source_text(slot, 1, syntax, false));
        }
        ops.push(format!(
            "{} {}",
            mnemonic(&slot.mac.name(), syntax),
            parts.join(", ")
        ));
    }
    if slot.ilu != IluOp::Nop {
        let scalar = !matches!(slot.ilu, IluOp::Mov | IluOp::Lit);
        ops.push(format!(
            "{} {}, {}",
            mnemonic(slot.ilu.name(), syntax),
            dests(slot, Unit::Ilu, syntax),
            source_text(slot, 2, syntax, scalar)
        ));
    }
    let mut text = if ops.is_empty() {
        mnemonic("NOP", syntax)
    } else {
        ops.join(" + ")
    };
    let mut notes = Vec::new();
    if slot.word0 != 0 {
        notes.push(format!("word0=0x{:08x}", slot.word0));
    }
    if slot.unused_w1 != 0 {
        notes.push(format!("word1[31:28]=0x{:x}", slot.unused_w1));
    }
    if slot.final_ {
        notes.push("final".to_string());
    }
    if !notes.is_empty() {
        text.push_str(&format!("  ; {}", notes.join(", ")));
    }
    text
}

/// The whole image, one line per slot: `index  word0 word1 word2 word3  text`.
pub fn program_text(prog: &Program, syntax: Syntax) -> String {
    let mut out = String::new();
    for (i, slot) in prog.slots.iter().enumerate() {
        let w = slot.encode();
        out.push_str(&format!(
            "{i:3}  {:08x} {:08x} {:08x} {:08x}  {}\n",
            w[0],
            w[1],
            w[2],
            w[3],
            slot_text(slot, syntax)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nv2a_disasm_swizzle_shortens_identity_and_replicates() {
        assert_eq!(swizzle_text(Source::XYZW), "");
        assert_eq!(swizzle_text([Comp::W; 4]), ".w");
        assert_eq!(swizzle_text([Comp::X, Comp::Y, Comp::Y, Comp::Y]), ".xyyy");
    }

    #[test]
    fn nv2a_disasm_d3d_constants_are_biased_by_96() {
        assert_eq!(const_text(Syntax::D3d, 96, false), "c[0]");
        assert_eq!(const_text(Syntax::D3d, 10, true), "c[a0.x-86]");
        assert_eq!(const_text(Syntax::Nv, 10, true), "c[A0.x+10]");
    }
}
