// pica_ram: one write port, one synchronous read port; the shape Yosys maps to block RAM.
//
// Power-on contents are zero like the model (RegFile::new, model/src/regfile/mod.rs); they are
// not cleared by rst_ni (a RAM has no reset). The read port is read-first: a read in the cycle of
// a write to the same address returns the old word.
module pica_ram #(
  parameter int Width = 32,
  parameter int Depth = 16
) (
  input  logic                     clk_i,
  input  logic                     we_i,
  input  logic [$clog2(Depth)-1:0] waddr_i,
  input  logic [Width-1:0]         wdata_i,
  input  logic                     re_i,
  input  logic [$clog2(Depth)-1:0] raddr_i,
  output logic [Width-1:0]         rdata_o
);

  logic [Width-1:0] mem [Depth];

  // Power-on zero (FPGA block RAM initial contents; simulators start from the same state).
  initial begin
    for (int i = 0; i < Depth; i++) mem[i] = '0;
  end

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_o <= mem[raddr_i];
  end

endmodule : pica_ram
