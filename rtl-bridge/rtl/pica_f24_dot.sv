// pica_f24_dot: DP3 / DP4 (and DPH, with a.w = 1.0 supplied by the caller), bit-exact with
// alu::dot (model/src/shader/alu.rs): products by pica_f24_mul, summed left to right by
// pica_f24_add ((x*x' + y*y') + z*z') [+ w*w'], each step truncated like the model.
//
// The vector ports are the packed vec4 `logic [3:0][23:0]` written flat as [95:0] (lane i in bits
// [24*i +: 24]; lane 0 = x = bits 23:0): Yosys 0.23 has no packed multidimensional arrays. A
// `logic [3:0][23:0]` signal connects to them unchanged (same width, same bit order).
module pica_f24_dot (
  input  logic [95:0] a_i,      // [3:0][23:0]
  input  logic [95:0] b_i,      // [3:0][23:0]
  input  logic        four_i,   // 0: x,y,z (DP3); 1: x,y,z,w (DP4/DPH)
  output logic [23:0] y_o
);

  logic [95:0] prod;            // [3:0][23:0]
  logic [23:0] s01, s012, s0123;

  for (genvar i = 0; i < 4; i++) begin : g_mul
    pica_f24_mul u_mul (.a_i(a_i[24*i +: 24]), .b_i(b_i[24*i +: 24]), .y_o(prod[24*i +: 24]));
  end

  pica_f24_add u_add01   (.a_i(prod[23:0]), .b_i(prod[47:24]), .y_o(s01));
  pica_f24_add u_add012  (.a_i(s01),        .b_i(prod[71:48]), .y_o(s012));
  pica_f24_add u_add0123 (.a_i(s012),       .b_i(prod[95:72]), .y_o(s0123));

  assign y_o = four_i ? s0123 : s012;

endmodule : pica_f24_dot
