// pica_tex_cache — the texture units' texel cache over an AXI4 read port (issue 38).
//
// Holds one texel read at a time (the request "in hand") and answers it from a direct-mapped
// cache of 16-byte lines: a read of 1-16 bytes touches one line, or two when it crosses a line
// boundary (RGB8 texels, three bytes, do at 3k mod 16 = 14, 15); both lines are looked up at
// once (adjacent lines sit in different sets), so a hit answers in the clock after the request
// is taken and the next request is taken in the same clock: one texel a clock on hits.
//
// A miss fills its line with one INCR burst of four 32-bit beats (ARLEN 3, ARSIZE 2): a line is
// 16-byte aligned, so a burst never crosses a 4 KiB boundary. One fill is in flight at a time
// (the first missing line of the read in hand, then the second). A beat answered with an error
// (SLVERR/DECERR: unmapped memory) stores zero and marks its word; a read touching a marked
// byte answers with rsp_err_o and the first such byte (rsp_err_addr_o): the model's
// `TexHang::Unmapped` names the first unreadable byte, and the model's memory maps whole
// 4 KiB pages, so word granularity is exact.
//
// The model has no texture cache (every texel is read from memory when it is needed), so the
// cache must be invisible: it is invalidated (every line) by a request flagged `req_flush_i`
// (the harness flags the first read after memory changed under the cache) and by `inv_i`
// (GPUREG_TEXUNIT_CONFIG bit 16 written, the hardware's "clear texture cache"), both taken when
// no fill is in flight. A request of length 0 is a bypass: it touches no line and answers in
// order with the rest (the units' border and constant texels keep their place in the stream).
//
// `req_user_i` travels with a request to its answer (the unit's bookkeeping of the texel).

module pica_tex_cache #(
  parameter int SetBits = 6,   // 2^SetBits lines of 16 bytes
  parameter int UserW   = 8,
  parameter int IdBits  = 2
) (
  input  logic               clk_i,
  input  logic               rst_ni,

  input  logic               inv_i,        // invalidate every line (taken when no fill runs)
  input  logic               stop_i,       // start no fill (the stage has hung)

  input  logic               req_valid_i,
  output logic               req_ready_o,
  input  logic [31:0]        req_addr_i,
  input  logic [4:0]         req_len_i,    // bytes, 0-16 (0: bypass)
  input  logic               req_flush_i,  // invalidate every line before this read
  input  logic [UserW-1:0]   req_user_i,

  output logic               rsp_valid_o,
  input  logic               rsp_ready_i,
  output logic [127:0]       rsp_raw_o,    // the bytes from req_addr_i, little endian, zero above len
  output logic               rsp_err_o,    // a byte of the read is unmapped
  output logic [31:0]        rsp_err_addr_o,
  output logic [UserW-1:0]   rsp_user_o,

  output logic               arvalid_o,
  input  logic               arready_i,
  output logic [IdBits-1:0]  arid_o,
  output logic [31:0]        araddr_o,
  output logic [7:0]         arlen_o,
  output logic [2:0]         arsize_o,
  output logic [1:0]         arburst_o,
  input  logic               rvalid_i,
  output logic               rready_o,
  input  logic [IdBits-1:0]  rid_i,
  input  logic [31:0]        rdata_i,
  input  logic [1:0]         rresp_i,
  input  logic               rlast_i,

  output logic               busy_o,       // a read in hand or a fill in flight
  output logic               filling_o     // a fill in flight (its beats still owed)
);
  localparam int Sets = 1 << SetBits;
  localparam int TagW = 28 - SetBits;

  // ---- the lines
  logic [TagW-1:0] tag_q   [Sets];
  logic [127:0]    data_q  [Sets];
  logic [3:0]      err_q   [Sets];
  logic [Sets-1:0] valid_q;

  // ---- the read in hand
  logic             h_valid_q, h_flush_q;
  logic [31:0]      h_addr_q;
  logic [4:0]       h_len_q;
  logic [UserW-1:0] h_user_q;

  logic [27:0] line_a, line_b;
  logic [31:0] last_byte;
  assign last_byte = h_addr_q + 32'(h_len_q) - 32'd1;
  assign line_a = h_addr_q[31:4];
  assign line_b = last_byte[31:4];
  logic bypass, two_lines;
  assign bypass = h_len_q == 5'd0;
  assign two_lines  = !bypass && line_b != line_a;

  logic [SetBits-1:0] set_a, set_b;
  assign set_a = line_a[SetBits-1:0];
  assign set_b = line_b[SetBits-1:0];
  logic hit_a, hit_b;
  assign hit_a = valid_q[set_a] && tag_q[set_a] == line_a[27:SetBits];
  assign hit_b = valid_q[set_b] && tag_q[set_b] == line_b[27:SetBits];

  // ---- the fill
  typedef enum logic [1:0] {F_IDLE, F_ADDR, F_DATA} fill_e;
  fill_e              f_state_q;
  logic [27:0]        f_line_q;
  logic [1:0]         f_beat_q;

  logic ready_to_answer;
  assign ready_to_answer = h_valid_q && !h_flush_q && (bypass || (hit_a && (!two_lines || hit_b)));

  assign rsp_valid_o = ready_to_answer;
  logic take;
  assign take = req_valid_i && req_ready_o;
  assign req_ready_o = !h_valid_q || (rsp_valid_o && rsp_ready_i);

  // The bytes from h_addr_q: the two lines side by side, shifted down by the offset, cut to
  // the length. For a read inside one line, line b is line a and its bytes are cut away.
  logic [255:0] window;
  logic [31:0]  err_window;
  logic [15:0]  len_mask, err_bytes;
  assign window     = {data_q[set_b], data_q[set_a]} >> {h_addr_q[3:0], 3'b000};
  assign err_window = {bytes_of(err_q[set_b]), bytes_of(err_q[set_a])} >> h_addr_q[3:0];
  assign len_mask   = 16'((17'd1 << h_len_q) - 17'd1);
  assign err_bytes  = err_window[15:0] & len_mask;
  assign rsp_raw_o  = window[127:0] & mask_bytes(len_mask);
  assign rsp_err_o  = !bypass && err_bytes != 16'd0;
  assign rsp_err_addr_o = h_addr_q + 32'(first_one(err_bytes));
  assign rsp_user_o = h_user_q;

  function automatic logic [15:0] bytes_of(input logic [3:0] words);
    bytes_of = {{4{words[3]}}, {4{words[2]}}, {4{words[1]}}, {4{words[0]}}};
  endfunction

  function automatic logic [127:0] mask_bytes(input logic [15:0] m);
    for (int b = 0; b < 16; b++) mask_bytes[8*b +: 8] = {8{m[b]}};
  endfunction

  function automatic logic [3:0] first_one(input logic [15:0] m);
    first_one = 4'd0;
    for (int b = 15; b >= 0; b--) if (m[b]) first_one = 4'(b);
  endfunction

  // The line to fill: the first missing line of the read in hand.
  logic        need_fill;
  logic [27:0] miss_line;
  assign need_fill = h_valid_q && !h_flush_q && !bypass && !stop_i &&
                     (!hit_a || (two_lines && !hit_b));
  assign miss_line = !hit_a ? line_a : line_b;

  assign arvalid_o = f_state_q == F_ADDR;
  assign arid_o    = '0;
  assign araddr_o  = {f_line_q, 4'h0};
  assign arlen_o   = 8'd3;
  assign arsize_o  = 3'd2;
  assign arburst_o = 2'd1;
  assign rready_o  = f_state_q == F_DATA;

  logic [SetBits-1:0] f_set;
  assign f_set = f_line_q[SetBits-1:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q   <= '0;
      h_valid_q <= 1'b0;
      h_flush_q <= 1'b0;
      h_addr_q  <= '0;
      h_len_q   <= '0;
      h_user_q  <= '0;
      f_state_q <= F_IDLE;
      f_line_q  <= '0;
      f_beat_q  <= '0;
    end else begin
      if (take) begin
        h_valid_q <= 1'b1;
        h_flush_q <= req_flush_i;
        h_addr_q  <= req_addr_i;
        h_len_q   <= req_len_i;
        h_user_q  <= req_user_i;
      end else if (rsp_valid_o && rsp_ready_i) begin
        h_valid_q <= 1'b0;
      end
      // Invalidation waits for a fill to end (its line would be marked valid after it).
      if (f_state_q == F_IDLE && (inv_i || (h_valid_q && h_flush_q))) begin
        valid_q   <= '0;
        h_flush_q <= 1'b0;
      end
      case (f_state_q)
        F_IDLE: if (need_fill) begin
          f_state_q <= F_ADDR;
          f_line_q  <= miss_line;
          f_beat_q  <= '0;
          // The set's old line is gone from here on: its words are overwritten beat by beat.
          valid_q[miss_line[SetBits-1:0]] <= 1'b0;
        end
        F_ADDR: if (arready_i) f_state_q <= F_DATA;
        F_DATA: if (rvalid_i) begin
          f_beat_q <= f_beat_q + 2'd1;
          if (f_beat_q == 2'd3) begin
            f_state_q      <= F_IDLE;
            valid_q[f_set] <= 1'b1;
          end
        end
        default: f_state_q <= F_IDLE;
      endcase
    end
  end

  // Where a fill's beat lands in its line.
  logic [1:0] beat_slot;
`ifdef INJECT_TEX_CACHE_BEAT
  assign beat_slot = f_beat_q ^ 2'd1;
`else
  assign beat_slot = f_beat_q;
`endif

  // The line arrays: no reset (valid_q says which hold a line). Distributed RAM on an FPGA:
  // two asynchronous read ports (sets a and b), one write port.
  always_ff @(posedge clk_i) begin
    if (f_state_q == F_DATA && rvalid_i) begin
      data_q[f_set][32*beat_slot +: 32] <= rresp_i[1] ? 32'd0 : rdata_i;
      err_q[f_set][f_beat_q]           <= rresp_i[1];
      tag_q[f_set]                     <= f_line_q[27:SetBits];
    end
  end

  assign busy_o = h_valid_q || f_state_q != F_IDLE;
  assign filling_o = f_state_q != F_IDLE;

  // rid_i and rlast_i are checked by the harness's AXI checker (one burst in flight, ID 0).
  logic unused;
  assign unused = ^{rid_i, rlast_i, rresp_i[0], last_byte[3:0], window[255:128],
                    err_window[31:16]};

`ifdef PICA_ASSERT
  // A hit never answers for a read the flag says to invalidate first.
  always_ff @(posedge clk_i) if (rst_ni && rsp_valid_o) assert (!h_flush_q);
`endif
endmodule
