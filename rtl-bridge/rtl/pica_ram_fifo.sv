// pica_ram_fifo: a first-word-fall-through FIFO whose storage is a memory without reset and
// with an asynchronous read, which FPGA synthesis maps to distributed (LUT) RAM: 16x4 cells on
// the ECP5 (TRELLIS_DPR16X4), RAM32M/RAM64M on Xilinx. For the skid buffer at the end of a
// pipeline that always moves: the producer reserves a place before it starts an item (credits,
// see pica_tev), so the FIFO has no full output and a push into a full FIFO is a design error
// (flagged in simulation). An entry pushed in clock N is at the head from clock N+1.
module pica_ram_fifo #(
  parameter int Width = 8,
  parameter int Depth = 32   // a power of two
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  input  logic             push_i,
  input  logic [Width-1:0] wdata_i,

  input  logic             pop_i,     // only with valid_o
  output logic             valid_o,   // not empty: rdata_o is the head
  output logic [Width-1:0] rdata_o
);

  localparam int PtrW = $clog2(Depth);

  // The pointers carry one more bit than the address: equal pointers are empty, equal
  // addresses with different wrap bits full.
  logic [PtrW:0]    wptr_q, rptr_q;
  logic [Width-1:0] mem [Depth];

  assign valid_o = wptr_q != rptr_q;
  assign rdata_o = mem[rptr_q[PtrW-1:0]];

  always_ff @(posedge clk_i) begin
    if (push_i) mem[wptr_q[PtrW-1:0]] <= wdata_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
      rptr_q <= '0;
    end else begin
      if (push_i)            wptr_q <= wptr_q + 1'b1;
      if (pop_i && valid_o)  rptr_q <= rptr_q + 1'b1;
    end
  end

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset (rst_ni used only as an async reset: SYNCASYNCNET)
    end else begin
      if (push_i && (wptr_q[PtrW-1:0] == rptr_q[PtrW-1:0]) && (wptr_q[PtrW] != rptr_q[PtrW]))
        $error("pica_ram_fifo: push into a full FIFO");
      if (pop_i && !valid_o) $error("pica_ram_fifo: pop from an empty FIFO");
    end
  end
`endif

endmodule : pica_ram_fifo
