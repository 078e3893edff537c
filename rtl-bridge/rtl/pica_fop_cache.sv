// pica_fop_cache: one of pica_fop_pipe's two framebuffer caches (colour, depth-stencil): direct
// mapped, 2^LineBits lines of four 32-bit words (a 2x2 quad of 4-byte pixels: the 8x8 tiles'
// Z order keeps a quad in 16 consecutive bytes), write-back with a dirty mask per byte and an
// error bit per word (the word's fill read answered `err`: not mapped).
//
// Ports: the tag lookup is combinational (lk_*); the data RAM has one synchronous read port
// (rd_*: the word at rd_idx_i one clock later, read-first, held while rd_en_i is low) and one
// write port shared by the pipeline's writes (wr_*: sets the dirty bits of the bytes written)
// and the controller's fills (fill_*: data, error bit, dirty bits cleared); the controller
// reads a line's tag and dirty masks (ev_*), clears them (clean_i), sets a tag (tag_we_i) and
// invalidates every line (inv_all_i). The owner never writes through both write ports in one clock.
module pica_fop_cache #(
  parameter int LineBits = 6
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,

  input  logic [29:0]           lk_word_i,     // a word address (byte address >> 2)
  output logic                  lk_hit_o,      // its line is present
  output logic                  lk_err_o,      // its word's fill read answered err

  input  logic                  rd_en_i,       // read (else rd_data_o holds)
  input  logic [LineBits+1:0]   rd_idx_i,      // {line, word}
  output logic [31:0]           rd_data_o,

  input  logic                  wr_i,
  input  logic [LineBits+1:0]   wr_idx_i,
  input  logic [3:0]            wr_be_i,
  input  logic [31:0]           wr_data_i,

  input  logic                  fill_i,
  input  logic [LineBits+1:0]   fill_idx_i,
  input  logic [31:0]           fill_data_i,
  input  logic                  fill_err_i,

  input  logic                  tag_we_i,
  input  logic [LineBits-1:0]   tag_line_i,
  input  logic [27-LineBits:0]  tag_i,

  input  logic [LineBits-1:0]   ev_line_i,
  output logic                  ev_valid_o,
  output logic [27-LineBits:0]  ev_tag_o,
  output logic [15:0]           ev_dirty_o,    // word w's byte mask at [4*w +: 4]
  input  logic                  clean_i,       // clear ev_line_i's dirty masks

  output logic [(1<<LineBits)-1:0] dirty_lines_o,
  output logic                  any_valid_o,
  input  logic                  inv_all_i
);

  localparam int NLines = 1 << LineBits;
  localparam int NWords = NLines * 4;
  localparam int TagW   = 28 - LineBits;

  // LUT RAM with a register behind it, not a block RAM: an ECP5 DP16KD's clock-to-output
  // without its output register is 5.8 ns (nextpnr), and stage 3's depth test reads the word
  // directly (the worst path of the build with block RAMs, 19.4 ns, 2026-12-01).
  (* ram_style = "distributed" *) logic [31:0] mem [NWords];
  // Flat vectors (a part-select per line or word) rather than unpacked arrays: they reset in
  // one assignment and simulate alike everywhere.
  logic [TagW*NLines-1:0] tag_q;
  logic [NLines-1:0]      valid_q;
  logic [4*NWords-1:0]    dirty_q;
  logic [NWords-1:0]      err_q;

  // Power-on zero, as pica_ram (a RAM has no reset).
  initial begin
    for (int i = 0; i < NWords; i++) mem[i] = '0;
  end

  // ---- lookup
  logic [LineBits-1:0] lk_line;
  assign lk_line  = lk_word_i[LineBits+1:2];
  assign lk_hit_o = valid_q[lk_line] && (tag_q[TagW*lk_line +: TagW] == lk_word_i[29:LineBits+2]);
  assign lk_err_o = err_q[lk_word_i[LineBits+1:0]];

  // ---- data RAM
  logic               we;
  logic [LineBits+1:0] widx;
  logic [3:0]         wbe;
  logic [31:0]        wdata;
  assign we    = wr_i || fill_i;
  assign widx  = fill_i ? fill_idx_i : wr_idx_i;
  assign wbe   = fill_i ? 4'hF : wr_be_i;
  assign wdata = fill_i ? fill_data_i : wr_data_i;

  always_ff @(posedge clk_i) begin
    if (we) begin
      for (int b = 0; b < 4; b++) begin
        if (wbe[b]) mem[widx][8*b +: 8] <= wdata[8*b +: 8];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (rd_en_i) rd_data_o <= mem[rd_idx_i];
  end

  // ---- tags, valid, dirty, error bits
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      err_q   <= '0;
      tag_q   <= '0;
      dirty_q <= '0;
    end else begin
      if (inv_all_i) valid_q <= '0;
      if (tag_we_i) begin
        tag_q[TagW*tag_line_i +: TagW] <= tag_i;
        valid_q[tag_line_i] <= 1'b1;
      end
      if (fill_i) begin
        err_q[fill_idx_i]   <= fill_err_i;
        dirty_q[4*fill_idx_i +: 4] <= 4'h0;
      end else if (wr_i) begin
        dirty_q[4*wr_idx_i +: 4] <= dirty_q[4*wr_idx_i +: 4] | wr_be_i;
      end
      if (clean_i) dirty_q[16*ev_line_i +: 16] <= 16'h0;
    end
  end

  assign ev_valid_o = valid_q[ev_line_i];
  assign ev_tag_o   = tag_q[TagW*ev_line_i +: TagW];
  assign ev_dirty_o = dirty_q[16*ev_line_i +: 16];
  for (genvar l = 0; l < NLines; l++) begin : g_dl
    assign dirty_lines_o[l] = valid_q[l] && (dirty_q[16*l +: 16] != 16'h0);
  end
  assign any_valid_o = |valid_q;

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset
    end else if (fill_i && wr_i) begin
      $error("pica_fop_cache: a fill and a write in one clock");
    end
  end
`endif

endmodule : pica_fop_cache
