// pica_rop_pkg (ROP, the render-output unit: the fragment operations; the name sorts after
// pica_regs_pkg, which it uses: every tool reads the packages in name order): what the
// fragment operations' two paths share — the register slots, the compare and stencil
// functions (fop::ops) and the pixel beat's flags (the decoded configuration is
// pica_fop_cfg). pica_fop (the general path, one fragment at a time)
// and pica_fop_pipe (the pipelined fast path with its caches) both use it, so a field or a
// rule is written once.
package pica_rop_pkg;

  // Every top is linted with every source: a top that does not use FOP uses none of these.
  // No coverage points here: a package's function points are counted in every coverage build
  // (cov_tev, cov_sh too), and their counters did not add up across models (cov_rtl_stages:
  // a point of a shorter run had more hits than in a longer one).
  /* verilator lint_off UNUSEDPARAM */
  /* verilator coverage_off */

  // The 20 registers of pica_model::fop::CONFIG_REGS, register k at [32*k +: 32] (ID order).
  localparam int SColorOp   = 0;
  localparam int SBlendFunc = 1;
  localparam int SLogicOp   = 2;
  localparam int SBlendCol  = 3;
  localparam int SAlpha     = 4;
  localparam int SStencil   = 5;
  localparam int SStencilOp = 6;
  localparam int SDcMask    = 7;
  localparam int SCbRead    = 8;
  localparam int SCbWrite   = 9;
  localparam int SDbRead    = 10;
  localparam int SDbWrite   = 11;
  localparam int SDbFormat  = 12;
  localparam int SCbFormat  = 13;
  localparam int SBlock32   = 14;
  localparam int SDbLoc     = 15;
  localparam int SCbLoc     = 16;
  localparam int SDim       = 17;
  localparam int SGas       = 18;
  localparam int SShadow    = 19;

  localparam logic [7:0] FlagColor   = 8'd1;   // PixelBeat::COLOR_WRITTEN
  localparam logic [7:0] FlagDepth   = 8'd2;   // PixelBeat::DEPTH_WRITTEN
  localparam logic [7:0] FlagStencil = 8'd4;   // PixelBeat::STENCIL_WRITTEN
  localparam logic [7:0] FlagDiscard = 8'd8;   // PixelBeat::DISCARDED

  localparam logic [1:0] HangUnmapped = 2'd1;
  localparam logic [1:0] HangReserved = 2'd2;
  localparam logic       BufColor = 1'b0;
  localparam logic       BufDepth = 1'b1;

  // ops::compare (operand order: alpha vs reference, fragment vs stored, reference vs stored).
  function automatic logic compare(input logic [2:0] f, input logic [23:0] a,
                                   input logic [23:0] b);
    unique case (f)
      pica_regs_pkg::COMPARE_FUNCTION_NEVER:      compare = 1'b0;
      pica_regs_pkg::COMPARE_FUNCTION_ALWAYS:     compare = 1'b1;
      pica_regs_pkg::COMPARE_FUNCTION_EQUAL:      compare = (a == b);
      pica_regs_pkg::COMPARE_FUNCTION_NOT_EQUAL:  compare = (a != b);
      pica_regs_pkg::COMPARE_FUNCTION_LESS:       compare = (a < b);
      pica_regs_pkg::COMPARE_FUNCTION_LESS_EQUAL: compare = (a <= b);
      pica_regs_pkg::COMPARE_FUNCTION_GREATER:    compare = (a > b);
      default:                                    compare = (a >= b);
    endcase
  endfunction

  // ops::stencil_action.
  function automatic logic [7:0] stencil_action(input logic [2:0] act, input logic [7:0] old,
                                                input logic [7:0] ref_v);
    unique case (act)
      pica_regs_pkg::STENCIL_OP_ACTION_KEEP:      stencil_action = old;
      pica_regs_pkg::STENCIL_OP_ACTION_ZERO:      stencil_action = 8'd0;
      pica_regs_pkg::STENCIL_OP_ACTION_REPLACE:   stencil_action = ref_v;
      pica_regs_pkg::STENCIL_OP_ACTION_INCREMENT: stencil_action = (old == 8'hFF) ? 8'hFF : old + 8'd1;
      pica_regs_pkg::STENCIL_OP_ACTION_DECREMENT: stencil_action = (old == 8'h00) ? 8'h00 : old - 8'd1;
      pica_regs_pkg::STENCIL_OP_ACTION_INVERT:    stencil_action = ~old;
      pica_regs_pkg::STENCIL_OP_ACTION_INCREMENT_WRAP: stencil_action = old + 8'd1;
      default:                                    stencil_action = old - 8'd1;
    endcase
  endfunction

  // UNVERIFIED(hw): any non-zero 4-bit access field enables the access — model
  // fop::access_enabled (Azahar tests `allow_color_write != 0`).
  function automatic logic access_enabled(input logic [3:0] field);
    access_enabled = (field != 4'd0);
  endfunction

  /* verilator coverage_on */
  /* verilator lint_on UNUSEDPARAM */

endpackage : pica_rop_pkg
