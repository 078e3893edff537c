// pica_fop_blend: the colour the blend or the logic op makes of source and destination,
// bit-exact with `pica_model::fop::FopConfig::combine` (model/src/fop/mod.rs) and
// `fop::ops::{blend_factor, blend_channel, Blend::apply, logic_op}` (model/src/fop/ops.rs).
//
// Combinational, in two steps whose middle the caller registers (pica_fop's MUL and BLEND
// states): step 1 the factors and the products p, q of every channel (prod_o), step 2 from the
// registered products the equation, the division and the logic op (out_o). Factor, multiply,
// add, divide and clamp in one clock were FOP's worst path, 24.9 ns on the LFE5U-85F
// (2026-11-30). Colours are packed r | g << 8 | b << 16 | a << 24.
//
// Blend, per channel c (alpha uses the alpha equation and factors):
//   p = s * sf, q = d * df (exact, <= 65025); add p + q (equations 0 and 5-7), subtract
//   max(p - q, 0), reverse subtract max(q - p, 0), min, max; then floor(v / 255) clamped to
//   255. The division: v >= 65280 gives >= 256, i.e. 255 after the clamp; below it
//   floor(v / 255) = (v + (v >> 8) + 1) >> 8 (exact for v <= 65534; pica_tev_combine).
// Factors: ops::blend_factor, colour factors on the alpha channel use the alpha component;
// SOURCE_ALPHA_SATURATE is 255 on alpha and min(src.a, 255 - dst.a) on r, g, b.
//
// Injected bug INJECT_FOP_BLEND_FACTOR: ONE_MINUS_SRC_ALPHA gives 255 - dst.a (a swapped
// blend factor).
module pica_fop_blend (
  input  logic        blend_en_i,     // GPUREG_COLOR_OPERATION bit 8 (1 blend, 0 logic op)
  input  logic [2:0]  rgb_eq_i,
  input  logic [2:0]  alpha_eq_i,
  input  logic [3:0]  rgb_src_i,
  input  logic [3:0]  rgb_dst_i,
  input  logic [3:0]  alpha_src_i,
  input  logic [3:0]  alpha_dst_i,
  input  logic [31:0] constant_i,     // GPUREG_BLEND_COLOR, same packing
  input  logic [3:0]  logic_op_i,     // GPUREG_LOGIC_OP bits 0-3
  input  logic [31:0] src_i,
  input  logic [31:0] dst_i,
  // step 1: channel c's p = s * sf at [32*c +: 16], q = d * df at [32*c + 16 +: 16]
  output logic [127:0] prod_o,
  // step 2
  input  logic [127:0] prod_i,        // prod_o, registered (src_i and dst_i held)
  output logic [31:0] out_o
);

  localparam logic [2:0] EqSub  = pica_regs_pkg::BLEND_FUNC_EQUATION_SUBTRACT;
  localparam logic [2:0] EqRsub = pica_regs_pkg::BLEND_FUNC_EQUATION_REVERSE_SUBTRACT;
  localparam logic [2:0] EqMin  = pica_regs_pkg::BLEND_FUNC_EQUATION_MIN;
  localparam logic [2:0] EqMax  = pica_regs_pkg::BLEND_FUNC_EQUATION_MAX;

  localparam logic [3:0] FZero     = pica_regs_pkg::BLEND_FUNC_FACTOR_ZERO;
  localparam logic [3:0] FOne      = pica_regs_pkg::BLEND_FUNC_FACTOR_ONE;
  localparam logic [3:0] FSrc      = pica_regs_pkg::BLEND_FUNC_FACTOR_SOURCE_COLOR;
  localparam logic [3:0] FInvSrc   = pica_regs_pkg::BLEND_FUNC_FACTOR_ONE_MINUS_SOURCE_COLOR;
  localparam logic [3:0] FDst      = pica_regs_pkg::BLEND_FUNC_FACTOR_DESTINATION_COLOR;
  localparam logic [3:0] FInvDst   = pica_regs_pkg::BLEND_FUNC_FACTOR_ONE_MINUS_DESTINATION_COLOR;
  localparam logic [3:0] FSrcA     = pica_regs_pkg::BLEND_FUNC_FACTOR_SOURCE_ALPHA;
  localparam logic [3:0] FInvSrcA  = pica_regs_pkg::BLEND_FUNC_FACTOR_ONE_MINUS_SOURCE_ALPHA;
  localparam logic [3:0] FDstA     = pica_regs_pkg::BLEND_FUNC_FACTOR_DESTINATION_ALPHA;
  localparam logic [3:0] FInvDstA  = pica_regs_pkg::BLEND_FUNC_FACTOR_ONE_MINUS_DESTINATION_ALPHA;
  localparam logic [3:0] FConst    = pica_regs_pkg::BLEND_FUNC_FACTOR_CONSTANT_COLOR;
  localparam logic [3:0] FInvConst = pica_regs_pkg::BLEND_FUNC_FACTOR_ONE_MINUS_CONSTANT_COLOR;
  localparam logic [3:0] FConstA   = pica_regs_pkg::BLEND_FUNC_FACTOR_CONSTANT_ALPHA;
  localparam logic [3:0] FInvConstA = pica_regs_pkg::BLEND_FUNC_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
  localparam logic [3:0] FSrcASat  = pica_regs_pkg::BLEND_FUNC_FACTOR_SOURCE_ALPHA_SATURATE;

  // UNVERIFIED(hw): the undescribed factor 15 acts as One (255) — model ops::blend_factor
  // `BlendFuncFactor::Reserved(_) => 255` (Azahar's GL back end maps unknown factors to GL_ONE).
  localparam logic [7:0] ReservedFactor = 8'd255;

  localparam logic [3:0] LClear  = pica_regs_pkg::LOGIC_OP_OPERATION_CLEAR;
  localparam logic [3:0] LAnd    = pica_regs_pkg::LOGIC_OP_OPERATION_AND;
  localparam logic [3:0] LRevAnd = pica_regs_pkg::LOGIC_OP_OPERATION_REVERSE_AND;
  localparam logic [3:0] LCopy   = pica_regs_pkg::LOGIC_OP_OPERATION_COPY;
  localparam logic [3:0] LSet    = pica_regs_pkg::LOGIC_OP_OPERATION_SET;
  localparam logic [3:0] LInvCpy = pica_regs_pkg::LOGIC_OP_OPERATION_INVERTED_COPY;
  localparam logic [3:0] LNoop   = pica_regs_pkg::LOGIC_OP_OPERATION_NOOP;
  localparam logic [3:0] LInvert = pica_regs_pkg::LOGIC_OP_OPERATION_INVERT;
  localparam logic [3:0] LNand   = pica_regs_pkg::LOGIC_OP_OPERATION_NAND;
  localparam logic [3:0] LOr     = pica_regs_pkg::LOGIC_OP_OPERATION_OR;
  localparam logic [3:0] LNor    = pica_regs_pkg::LOGIC_OP_OPERATION_NOR;
  localparam logic [3:0] LXor    = pica_regs_pkg::LOGIC_OP_OPERATION_XOR;
  localparam logic [3:0] LEquiv  = pica_regs_pkg::LOGIC_OP_OPERATION_EQUIVALENT;
  localparam logic [3:0] LInvAnd = pica_regs_pkg::LOGIC_OP_OPERATION_INVERTED_AND;
  localparam logic [3:0] LRevOr  = pica_regs_pkg::LOGIC_OP_OPERATION_REVERSE_OR;
  localparam logic [3:0] LInvOr  = pica_regs_pkg::LOGIC_OP_OPERATION_INVERTED_OR;

  // ops::blend_factor for channel `ch`: `s`, `d`, `k` are that channel's source, destination
  // and constant (the alpha components on the alpha channel), `sa`, `da`, `ka` the alphas.
  function automatic logic [7:0] factor(input logic [3:0] f, input logic is_alpha,
                                        input logic [7:0] s, input logic [7:0] d,
                                        input logic [7:0] k, input logic [7:0] sa,
                                        input logic [7:0] da, input logic [7:0] ka);
    logic [7:0] inv_da;
    inv_da = 8'd255 - da;
    unique case (f)
      FZero:      factor = 8'd0;
      FOne:       factor = 8'd255;
      FSrc:       factor = s;
      FInvSrc:    factor = 8'd255 - s;
      FDst:       factor = d;
      FInvDst:    factor = 8'd255 - d;
      FSrcA:      factor = sa;
`ifdef INJECT_FOP_BLEND_FACTOR
      FInvSrcA:   factor = 8'd255 - da;
`else
      FInvSrcA:   factor = 8'd255 - sa;
`endif
      FDstA:      factor = da;
      FInvDstA:   factor = inv_da;
      FConst:     factor = k;
      FInvConst:  factor = 8'd255 - k;
      FConstA:    factor = ka;
      FInvConstA: factor = 8'd255 - ka;
      FSrcASat:   factor = is_alpha ? 8'd255 : ((sa < inv_da) ? sa : inv_da);
      default:    factor = ReservedFactor;
    endcase
  endfunction

  // ops::blend_channel.
  function automatic logic [7:0] blend_ch(input logic [2:0] eq, input logic [15:0] p,
                                          input logic [15:0] q);
    logic [16:0] v;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [16:0] t;   // only the quotient bits 15:8 are read
    /* verilator lint_on UNUSEDSIGNAL */
    unique case (eq)
      EqSub:   v = (p > q) ? {1'b0, p - q} : 17'd0;
      EqRsub:  v = (q > p) ? {1'b0, q - p} : 17'd0;
      EqMin:   v = (p < q) ? {1'b0, p} : {1'b0, q};
      EqMax:   v = (p > q) ? {1'b0, p} : {1'b0, q};
      default: v = {1'b0, p} + {1'b0, q};   // add; UNVERIFIED(hw) 5-7 act as add (model)
    endcase
    t = {1'b0, v[15:0]} + {9'd0, v[15:8]} + 17'd1;
    blend_ch = (v >= 17'd65280) ? 8'd255 : t[15:8];
  endfunction

  // ops::logic_op.
  function automatic logic [7:0] logic_ch(input logic [3:0] op, input logic [7:0] s,
                                          input logic [7:0] d);
    unique case (op)
      LClear:  logic_ch = 8'h00;
      LAnd:    logic_ch = s & d;
      LRevAnd: logic_ch = s & ~d;
      LCopy:   logic_ch = s;
      LSet:    logic_ch = 8'hFF;
      LInvCpy: logic_ch = ~s;
      LNoop:   logic_ch = d;
      LInvert: logic_ch = ~d;
      LNand:   logic_ch = ~(s & d);
      LOr:     logic_ch = s | d;
      LNor:    logic_ch = ~(s | d);
      LXor:    logic_ch = s ^ d;
      LEquiv:  logic_ch = ~(s ^ d);
      LInvAnd: logic_ch = ~s & d;
      LRevOr:  logic_ch = s | ~d;
      LInvOr:  logic_ch = ~s | d;
      default: logic_ch = s;
    endcase
  endfunction

  logic [7:0] sa, da, ka;
  logic [31:0] blended, logic_out;

  assign sa = src_i[31:24];
  assign da = dst_i[31:24];
  assign ka = constant_i[31:24];

  for (genvar c = 0; c < 4; c++) begin : g_ch
    logic       is_alpha;
    logic [2:0] eq;
    logic [3:0] fs, fd;
    logic [7:0] s, d, k, sf, df;
    assign is_alpha = (c == 3);
    assign eq = is_alpha ? alpha_eq_i : rgb_eq_i;
    assign fs = is_alpha ? alpha_src_i : rgb_src_i;
    assign fd = is_alpha ? alpha_dst_i : rgb_dst_i;
    assign s  = src_i[8*c +: 8];
    assign d  = dst_i[8*c +: 8];
    assign k  = constant_i[8*c +: 8];
    assign sf = factor(fs, is_alpha, s, d, k, sa, da, ka);
    assign df = factor(fd, is_alpha, s, d, k, sa, da, ka);
    assign prod_o[32*c +: 16]      = s * sf;
    assign prod_o[32*c + 16 +: 16] = d * df;
    assign blended[8*c +: 8]   = blend_ch(eq, prod_i[32*c +: 16], prod_i[32*c + 16 +: 16]);
    assign logic_out[8*c +: 8] = logic_ch(logic_op_i, s, d);
  end

  assign out_o = blend_en_i ? blended : logic_out;

endmodule : pica_fop_blend
