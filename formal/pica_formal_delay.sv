// pica_formal_delay: the miters' model of a pipeline's latency. d_i is sampled on every clock
// with en_i set and comes out on q_o after L such clocks; vld_o says that L enabled clocks have
// passed since the start, so that q_o holds a sampled value (before that the pipeline under test
// still shows its arbitrary initial register contents, which nothing is asserted about). With
// L = 0 it is a wire and vld_o is always set. Formal-only (an initial block gives the start).
module pica_formal_delay #(
  parameter int W = 24,
  parameter int L = 1
) (
  input  logic         clk_i,
  input  logic         en_i,
  input  logic [W-1:0] d_i,
  output logic [W-1:0] q_o,
  output logic         vld_o
);

  if (L == 0) begin : g_wire
    assign q_o   = d_i;
    assign vld_o = 1'b1;
  end else begin : g_sr
    logic [W-1:0] sr [L+1];
    logic [L:0]   vld;
    assign sr[0]  = d_i;
    assign vld[0] = 1'b1;
    for (genvar i = 1; i <= L; i++) begin : g_stage
      initial vld[i] = 1'b0;
      always_ff @(posedge clk_i) begin
        if (en_i) begin
          sr[i]  <= sr[i-1];
          vld[i] <= vld[i-1];
        end
      end
    end
    assign q_o   = sr[L];
    assign vld_o = vld[L];
  end

endmodule : pica_formal_delay
