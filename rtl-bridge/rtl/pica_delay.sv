// pica_delay: a W-bit value delayed by N enabled clocks (N = 0: a wire). The registers load only
// while en_i is set, so a stalled pipeline keeps its contents. No reset: a pipeline that needs
// one keeps valid bits beside its data (pica_shader_unit's commit records).
module pica_delay #(
  parameter int W = 1,
  parameter int N = 1
) (
  input  logic         clk_i,
  input  logic         en_i,
  input  logic [W-1:0] d_i,
  output logic [W-1:0] q_o
);

  if (N == 0) begin : g_wire
    assign q_o = d_i;
    logic unused;
    assign unused = ^{clk_i, en_i};
  end else begin : g_regs
    // Stage k at [k*W +: W]: one flat shift register (Icarus 11 did not update a continuous read
    // of an unpacked array's word written in a loop, so the output stayed x).
    logic [N*W-1:0] q;
    if (N == 1) begin : g_one
      always_ff @(posedge clk_i) if (en_i) q <= d_i;
    end else begin : g_many
      always_ff @(posedge clk_i) if (en_i) q <= {q[(N-1)*W-1:0], d_i};
    end
    assign q_o = q[(N-1)*W +: W];
  end

endmodule : pica_delay
