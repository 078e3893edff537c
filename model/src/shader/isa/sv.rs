//! `pica_isa_pkg.sv`: the opcode table, formats, field positions and operand-descriptor layout
//! of [`super`], written as a SystemVerilog package for the RTL shader unit (`pica gen rtl`).
//!
//! Everything comes from [`super::OPCODES`], [`super::Format::fields`] and [`super::fields`];
//! the package holds plain `localparam`s only (Yosys 0.23 reads no package functions or
//! `import`), so a module writes `pica_isa_pkg::OP_ADD`.

use super::{fields, CmpOp, CondOp, Format, RelIndex, OPCODES};
use crate::shader::interp::{CALL_STACK_DEPTH, IF_STACK_DEPTH, LOOP_STACK_DEPTH, PC_LIMIT};
use std::fmt::Write as _;

/// Where the table lives, for the generated header.
const SOURCE: &str = "model/src/shader/isa.rs";

fn upper(s: &str) -> String {
    s.to_ascii_uppercase()
}

/// The SystemVerilog package text.
pub fn sv_package() -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "// Generated from {SOURCE} by `pica gen rtl` — do not edit."
    );
    o.push_str(
        "//\n// PICA200 shader ISA: opcodes, formats, instruction-word field positions, the\n",
    );
    o.push_str("// operand-descriptor layout and the register namespaces (pica-facts §1; 3dbrew\n");
    o.push_str(
        "// GPU/Shader_Instruction_Set). Use as `pica_isa_pkg::NAME` (no import: Yosys 0.23).\n\n",
    );
    o.push_str("package pica_isa_pkg;\n\n");
    o.push_str(
        "  // A table of constants: any one module uses few of them (Verilator -Wall waiver).\n",
    );
    o.push_str("  /* verilator lint_off UNUSEDPARAM */\n\n");

    o.push_str(
        "  // ---- Opcodes: first 6-bit code (bits 31:26) and how many codes decode to it\n",
    );
    for info in OPCODES {
        let mn = upper(info.mnemonic);
        let _ = writeln!(
            o,
            "  localparam logic [5:0] OP_{mn:<8} = 6'h{:02X};  localparam int OP_{mn}_SPAN = {};  // format {}: {}",
            info.code,
            info.span,
            info.format.name(),
            info.summary
        );
    }
    let mut known = 0u64;
    for info in OPCODES {
        for c in 0..info.span {
            known |= 1 << (info.code + c);
        }
    }
    o.push_str("\n  // ---- Per code: bit n of a mask is set when 6-bit code n is known / has the format\n");
    let _ = writeln!(
        o,
        "  localparam logic [63:0] CODES_KNOWN = 64'h{known:016X};"
    );
    for f in Format::ALL {
        let mut m = 0u64;
        for info in OPCODES.iter().filter(|i| i.format == f) {
            for c in 0..info.span {
                m |= 1 << (info.code + c);
            }
        }
        let _ = writeln!(
            o,
            "  localparam logic [63:0] CODES_FMT{:<3} = 64'h{m:016X};",
            upper(f.name())
        );
    }

    o.push_str("\n  // ---- Instruction-word fields per format: <FORMAT>_<FIELD>_LSB / _W\n");
    let _ = writeln!(
        o,
        "  localparam int OPCODE_LSB = {};  localparam int OPCODE_W = {};",
        fields::OPCODE.lsb,
        fields::OPCODE.width
    );
    for f in Format::ALL {
        let name = upper(f.name());
        let mut all: Vec<_> = f.fields().to_vec();
        if f.opcode_field() != fields::OPCODE {
            all.push(f.opcode_field());
        }
        for b in all {
            let _ = writeln!(
                o,
                "  localparam int F{name}_{}_LSB = {};  localparam int F{name}_{}_W = {};",
                b.name, b.lsb, b.name, b.width
            );
        }
        let _ = writeln!(
            o,
            "  localparam logic [31:0] F{name}_USED = 32'h{:08X};",
            f.used_mask()
        );
    }

    o.push_str("\n  // ---- Operand descriptor (one 32-bit word; bit 31 unused)\n");
    for b in fields::DESC {
        let _ = writeln!(
            o,
            "  localparam int DESC_{}_LSB = {};  localparam int DESC_{}_W = {};",
            b.name, b.lsb, b.name, b.width
        );
    }
    o.push_str("  // A swizzle field holds 2 bits per lane, lane x in its top two bits:\n");
    o.push_str(
        "  // lane l selects component swz[7-2l -: 2] (0 x, 1 y, 2 z, 3 w). Mask bit 3 = x.\n",
    );

    o.push_str("\n  // ---- Encodings of the small fields\n");
    for c in CmpOp::ALL {
        let _ = writeln!(
            o,
            "  localparam logic [2:0] CMP_{} = 3'd{};",
            upper(c.name()),
            c.bits()
        );
    }
    for c in [CondOp::Or, CondOp::And, CondOp::X, CondOp::Y] {
        let _ = writeln!(
            o,
            "  localparam logic [1:0] CONDOP_{} = 2'd{};",
            upper(&format!("{c:?}")),
            c.bits()
        );
    }
    for r in [RelIndex::None, RelIndex::A0X, RelIndex::A0Y, RelIndex::AL] {
        let _ = writeln!(
            o,
            "  localparam logic [1:0] IDX_{} = 2'd{};",
            upper(&format!("{r:?}")),
            r.bits()
        );
    }

    o.push_str("\n  // ---- Register namespaces of the source / destination fields\n");
    o.push_str("  localparam int SRC_INPUT_BASE = 'h00;    // v0-v15\n");
    o.push_str("  localparam int SRC_TEMP_BASE = 'h10;     // r0-r15\n");
    o.push_str("  localparam int SRC_UNIFORM_BASE = 'h20;  // c0-c95 (7-bit fields only)\n");
    o.push_str("  localparam int DST_OUTPUT_BASE = 'h00;   // o0-o15\n");
    o.push_str("  localparam int DST_TEMP_BASE = 'h10;     // r0-r15\n");
    o.push_str("  localparam int NUM_FLOAT_UNIFORMS = 96;\n");
    o.push_str("\n  // ---- Unit limits (3dbrew \"Control Flow\"; pica-facts §1)\n");
    let _ = writeln!(o, "  localparam int CALL_STACK_DEPTH = {CALL_STACK_DEPTH};");
    let _ = writeln!(o, "  localparam int IF_STACK_DEPTH = {IF_STACK_DEPTH};");
    let _ = writeln!(o, "  localparam int LOOP_STACK_DEPTH = {LOOP_STACK_DEPTH};");
    let _ = writeln!(o, "  localparam int PC_LIMIT = {PC_LIMIT};");

    o.push_str("\n  /* verilator lint_on UNUSEDPARAM */\n\nendpackage : pica_isa_pkg\n");
    o
}
