// pica_bram_fifo: a first-word-fall-through FIFO whose storage is a memory with a registered
// (synchronous) read, which FPGA synthesis maps to block RAM (DP16KD on the ECP5, RAMB18/36 on
// Xilinx): the same ports and rules as pica_ram_fifo (no full output: the producer reserves a
// place with credits; a push into a full FIFO is a design error, flagged in simulation), for a
// FIFO too wide for LUT RAM to be cheap (TEX's 206-bit job FIFO: 208 DPR16X4 cells on the ECP5,
// whose read sat on the unit's longest path).
//
// The head is a register loaded from the memory's read port: an entry pushed in clock N is in
// the memory from N+1, read in N+1 and at the head from N+2 (one clock later than
// pica_ram_fifo); a pop loads the next entry in the same clock, so the FIFO still moves an
// entry a clock. It holds Depth entries in the memory and one at the head.
module pica_bram_fifo #(
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

  // The pointers of the memory part carry one more bit than the address: equal pointers are
  // empty, equal addresses with different wrap bits full.
  logic [PtrW:0]    wptr_q, rptr_q;
  (* ram_style = "block" *) logic [Width-1:0] mem [Depth];
  logic             head_v_q;
  logic [Width-1:0] head_q;

  logic in_mem, load;
  assign in_mem  = wptr_q != rptr_q;
  // The head is empty or leaves this clock: the memory's oldest entry takes its place.
  assign load    = in_mem && (!head_v_q || pop_i);
  assign valid_o = head_v_q;
  assign rdata_o = head_q;

  always_ff @(posedge clk_i) begin
    if (push_i) mem[wptr_q[PtrW-1:0]] <= wdata_i;
  end

  // The registered read port (no reset: head_v_q says whether it holds an entry).
  always_ff @(posedge clk_i) begin
    if (load) head_q <= mem[rptr_q[PtrW-1:0]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q   <= '0;
      rptr_q   <= '0;
      head_v_q <= 1'b0;
    end else begin
      if (push_i) wptr_q <= wptr_q + 1'b1;
      if (load)   rptr_q <= rptr_q + 1'b1;
      if (load)                   head_v_q <= 1'b1;
      else if (pop_i && head_v_q) head_v_q <= 1'b0;
    end
  end

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset (rst_ni used only as an async reset: SYNCASYNCNET)
    end else begin
      if (push_i && (wptr_q[PtrW-1:0] == rptr_q[PtrW-1:0]) && (wptr_q[PtrW] != rptr_q[PtrW]))
        $error("pica_bram_fifo: push into a full FIFO");
      if (pop_i && !valid_o) $error("pica_bram_fifo: pop from an empty FIFO");
    end
  end
`endif

endmodule : pica_bram_fifo
