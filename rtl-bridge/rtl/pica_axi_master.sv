// pica_axi_master: a stage's request/response memory port (the kit's side port: FOP's
// framebuffer port, RAST's early-depth port) as an AXI4 master with several transactions in
// flight (issue 37, item 1).
//
// Request side (as the stages drive it today): one request per handshake, a read or a write of
// one 32-bit word with byte enables; one response per request, in request order (a write's
// response carries no data). AXI side: 32-bit data, single-beat INCR bursts (AxLEN 0, AxSIZE 2),
// the ID of a transaction the index of the slot that holds it, up to `Outstanding` in flight.
//
// Why the slots: AXI4 orders responses only per ID, and reads and writes not at all (ARM IHI
// 0022, A5.2 and A6.1), so a subordinate may answer in any order across slots and channels;
// each slot keeps its response until every older one was handed on, so the stage still sees
// request order (a reorder buffer).
//
// The same-address rule: a request whose word address matches a transaction in flight is held
// back when either of the two is a write. AXI would let a read pass a write to the same
// address (another ID, another channel), or two writes of different IDs land in either order;
// the model's memory (and every stage written against the request/response port) sees them in
// request order. Reads of the same word may overlap.
//
// Channel registers: AR, AW and W are driven from flops (a VALID never depends combinationally
// on a READY), each loaded when empty or handing its beat over in that clock, so a stream of
// reads (or of writes) issues one per clock. R and B are always ready: every transaction has
// its slot, so a response always has somewhere to go. The oldest slot's R or B beat is also
// handed on to the request port in the clock it arrives (a combinational path from RVALID /
// BVALID to rsp_valid_o, inside the stage, not across the AXI interface).
//
// Injected bugs (the cocotb bench must catch each; python/cocotb/test_axi_master.py):
//   INJECT_AXI_NO_HAZARD   the same-address rule left out (a read may return data older than
//                          a write requested before it)
//   INJECT_AXI_DROP_B      a write response arriving in the same clock as a read response is
//                          lost (its slot never completes: the port stops)
module pica_axi_master #(
  parameter int IdW         = 2,  // AXI ID width: at least log2(Outstanding)
  parameter int Outstanding = 4   // transactions in flight: a power of two, 2..2^IdW
) (
  input  logic           clk_i,
  input  logic           rst_ni,

  // Request / response port.
  input  logic           req_valid_i,
  output logic           req_ready_o,
  input  logic           req_we_i,
  input  logic [31:0]    req_addr_i,
  input  logic [3:0]     req_be_i,
  input  logic [31:0]    req_wdata_i,
  output logic           rsp_valid_o,
  input  logic           rsp_ready_i,
  output logic [31:0]    rsp_rdata_o,
  output logic           rsp_err_o,
  // Nothing in flight: every request taken has been answered (its AXI transaction is over).
  output logic           idle_o,

  // AXI4 master: write address.
  output logic           awvalid_o,
  input  logic           awready_i,
  output logic [IdW-1:0] awid_o,
  output logic [31:0]    awaddr_o,
  output logic [7:0]     awlen_o,
  output logic [2:0]     awsize_o,
  output logic [1:0]     awburst_o,
  // Write data.
  output logic           wvalid_o,
  input  logic           wready_i,
  output logic [31:0]    wdata_o,
  output logic [3:0]     wstrb_o,
  output logic           wlast_o,
  // Write response.
  input  logic           bvalid_i,
  output logic           bready_o,
  input  logic [IdW-1:0] bid_i,
  input  logic [1:0]     bresp_i,
  // Read address.
  output logic           arvalid_o,
  input  logic           arready_i,
  output logic [IdW-1:0] arid_o,
  output logic [31:0]    araddr_o,
  output logic [7:0]     arlen_o,
  output logic [2:0]     arsize_o,
  output logic [1:0]     arburst_o,
  // Read data.
  input  logic           rvalid_i,
  output logic           rready_o,
  input  logic [IdW-1:0] rid_i,
  input  logic [31:0]    rdata_i,
  input  logic [1:0]     rresp_i,
  input  logic           rlast_i
);

  localparam int SlotW = $clog2(Outstanding);

  // Slot state (a circular buffer: head the oldest in flight, tail the next to allocate).
  logic [Outstanding-1:0]    s_busy_q, s_done_q, s_write_q, s_err_q;
  logic [29:0]               s_word_q [Outstanding];
  logic [31:0]               s_rdata_q [Outstanding];
  logic [SlotW-1:0]          head_q, tail_q;
  logic [SlotW:0]            count_q;

  // Channel registers.
  logic                      ar_v_q, aw_v_q, w_v_q;
  logic [IdW-1:0]            ar_id_q, aw_id_q;
  logic [31:0]               ar_addr_q, aw_addr_q, w_data_q;
  logic [3:0]                w_strb_q;

  // The same-address rule: a slot in flight on the same word, one of the two a write.
  logic hazard;
  always_comb begin
    hazard = 1'b0;
    for (int k = 0; k < Outstanding; k++) begin
      if (s_busy_q[k] && s_word_q[k] == req_addr_i[31:2] && (s_write_q[k] || req_we_i)) begin
        hazard = 1'b1;
      end
    end
`ifdef INJECT_AXI_NO_HAZARD
    hazard = 1'b0;
`endif
  end

  logic ar_free, aw_free, w_free, room, take;
  assign ar_free = !ar_v_q || arready_i;
  assign aw_free = !aw_v_q || awready_i;
  assign w_free  = !w_v_q || wready_i;
  assign room    = count_q != (SlotW+1)'(Outstanding);
  assign req_ready_o = room && !hazard && (req_we_i ? (aw_free && w_free) : ar_free);
  assign take = req_valid_i && req_ready_o;

  // Responses: R and B always taken; the slot is the ID's low bits.
  logic           r_hit, b_hit;
  logic [SlotW-1:0] r_slot, b_slot;
  assign rready_o = 1'b1;
  assign bready_o = 1'b1;
  assign r_hit  = rvalid_i;
  assign r_slot = rid_i[SlotW-1:0];
`ifdef INJECT_AXI_DROP_B
  assign b_hit  = bvalid_i && !rvalid_i;
`else
  assign b_hit  = bvalid_i;
`endif
  assign b_slot = bid_i[SlotW-1:0];

  // The oldest slot, once answered, is the port's response; an R or B beat for the oldest
  // slot is handed on in the clock it arrives (a bypass of the slot register: one clock less
  // per round trip; R and B are never backpressured, so the beat is taken either way and the
  // slot completes as usual if the port does not take it).
  logic give, byp_r, byp_b;
  assign byp_r = r_hit && r_slot == head_q && !s_done_q[head_q];
  assign byp_b = b_hit && b_slot == head_q && !s_done_q[head_q];
  assign rsp_valid_o = s_busy_q[head_q] && (s_done_q[head_q] || byp_r || byp_b);
  assign rsp_rdata_o = s_done_q[head_q] ? s_rdata_q[head_q] : rdata_i;
  assign rsp_err_o   = s_done_q[head_q] ? s_err_q[head_q] : byp_r ? rresp_i[1] : bresp_i[1];
  assign give = rsp_valid_o && rsp_ready_i;
  // A slot stays busy until its response is handed on, which is after its AXI response.
  assign idle_o = count_q == '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_busy_q  <= '0;
      s_done_q  <= '0;
      s_write_q <= '0;
      s_err_q   <= '0;
      head_q    <= '0;
      tail_q    <= '0;
      count_q   <= '0;
      ar_v_q    <= 1'b0;
      aw_v_q    <= 1'b0;
      w_v_q     <= 1'b0;
    end else begin
      if (arready_i) ar_v_q <= 1'b0;
      if (awready_i) aw_v_q <= 1'b0;
      if (wready_i)  w_v_q  <= 1'b0;
      if (take) begin
        s_busy_q[tail_q]  <= 1'b1;
        s_done_q[tail_q]  <= 1'b0;
        s_write_q[tail_q] <= req_we_i;
        s_err_q[tail_q]   <= 1'b0;
        tail_q            <= tail_q + 1'b1;
        if (req_we_i) begin
          aw_v_q <= 1'b1;
          w_v_q  <= 1'b1;
        end else begin
          ar_v_q <= 1'b1;
        end
      end
      if (r_hit) begin
        s_done_q[r_slot] <= 1'b1;
        s_err_q[r_slot]  <= rresp_i[1];
      end
      if (b_hit) begin
        s_done_q[b_slot] <= 1'b1;
        s_err_q[b_slot]  <= bresp_i[1];
      end
      if (give) begin
        s_busy_q[head_q] <= 1'b0;
        head_q           <= head_q + 1'b1;
      end
      count_q <= count_q + (SlotW+1)'(take) - (SlotW+1)'(give);
    end
  end

  // Payload registers: no reset (qualified by their valid bits).
  always_ff @(posedge clk_i) begin
    if (take) begin
      s_word_q[tail_q] <= req_addr_i[31:2];
      if (req_we_i) begin
        aw_id_q   <= IdW'(tail_q);
        aw_addr_q <= {req_addr_i[31:2], 2'b00};
        w_data_q  <= req_wdata_i;
        w_strb_q  <= req_be_i;
      end else begin
        ar_id_q   <= IdW'(tail_q);
        ar_addr_q <= {req_addr_i[31:2], 2'b00};
      end
    end
    if (r_hit) s_rdata_q[r_slot] <= rdata_i;
  end

  assign arvalid_o = ar_v_q;
  assign arid_o    = ar_id_q;
  assign araddr_o  = ar_addr_q;
  assign arlen_o   = 8'd0;
  assign arsize_o  = 3'd2;
  assign arburst_o = 2'b01;
  assign awvalid_o = aw_v_q;
  assign awid_o    = aw_id_q;
  assign awaddr_o  = aw_addr_q;
  assign awlen_o   = 8'd0;
  assign awsize_o  = 3'd2;
  assign awburst_o = 2'b01;
  assign wvalid_o  = w_v_q;
  assign wdata_o   = w_data_q;
  assign wstrb_o   = w_strb_q;
  assign wlast_o   = 1'b1;

  // Read beats are single (RLAST always set); the ID bits above the slot index, the
  // responses' low bit (EXOKAY) and the byte offset of a (word) request are not used.
  logic unused;
  assign unused = ^{rlast_i, rresp_i[0], bresp_i[0], rid_i, bid_i, req_addr_i[1:0]};

`ifdef PICA_ASSERT
  // A response for a slot that is not waiting for one.
  always_ff @(posedge clk_i) begin
    if (rst_ni && r_hit) assert (s_busy_q[r_slot] && !s_done_q[r_slot] && !s_write_q[r_slot]);
    if (rst_ni && b_hit) assert (s_busy_q[b_slot] && !s_done_q[b_slot] && s_write_q[b_slot]);
  end
`endif

endmodule
