// pica_fifo: a bounded FIFO with the timing of the model's `Link` (model/src/link.rs).
//
// - visibility: an entry pushed in cycle N is popped no earlier than cycle N+1 (the head is read
//   from the storage flops, which the push only updates at the end of cycle N);
// - registered full: `full_o` is computed from the occupancy at the start of the cycle, so a pop
//   in the same cycle frees space only for the next cycle (Link::can_push).
// Storage is flops: the FIFOs here are 1 and 4 entries deep (model/src/timing.rs).
module pica_fifo #(
  parameter int Width = 8,
  parameter int Depth = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  input  logic             push_i,
  input  logic [Width-1:0] wdata_i,
  output logic             full_o,      // occupancy at cycle start == Depth

  input  logic             pop_i,
  output logic             valid_o,     // not empty: rdata_o is the head
  output logic [Width-1:0] rdata_o,

  output logic             empty_o
);

  // Pointer width; at least 1 so a 1-deep FIFO still has a (constant) pointer.
  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int CntW = $clog2(Depth + 1);
  localparam logic [PtrW-1:0] LastPtr = PtrW'(Depth - 1);
  localparam logic [CntW-1:0] DepthCnt = CntW'(Depth);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  rptr_q, wptr_q;
  logic [CntW-1:0]  count_q;

  logic do_push, do_pop;
  assign do_push = push_i && !full_o;
  assign do_pop  = pop_i && valid_o;

  assign full_o  = count_q == DepthCnt;
  assign valid_o = count_q != '0;
  assign empty_o = !valid_o;
  assign rdata_o = mem_q[rptr_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rptr_q  <= '0;
      wptr_q  <= '0;
      count_q <= '0;
      for (int i = 0; i < Depth; i++) mem_q[i] <= '0;
    end else begin
      if (do_push) begin
        mem_q[wptr_q] <= wdata_i;
        wptr_q        <= (wptr_q == LastPtr) ? '0 : wptr_q + 1'b1;
      end
      if (do_pop) begin
        rptr_q <= (rptr_q == LastPtr) ? '0 : rptr_q + 1'b1;
      end
      count_q <= count_q + CntW'(do_push) - CntW'(do_pop);
    end
  end

`ifndef SYNTHESIS
  // The producers check full_o before pushing (Link::push into a full link is a model bug).
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset (rst_ni used only as an async reset: SYNCASYNCNET)
    end else begin
      if (push_i && full_o) $error("pica_fifo: push into a full FIFO");
      if (pop_i && !valid_o) $error("pica_fifo: pop from an empty FIFO");
    end
  end
`endif

endmodule : pica_fifo
