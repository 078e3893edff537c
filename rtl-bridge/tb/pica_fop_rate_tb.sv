// pica_fop_rate_tb: fragments per clock of FOP (issue 37 item 3: at least one per clock when
// the pixels hit the caches). Streams N fragments over an 8x8 framebuffer, row by row, four
// times over (every pixel written four times, never twice within 64 fragments: no same-pixel
// wait), RGBA8 colour with blending, D24S8 depth with the test on and depth writes, into
// pica_fop_pipe (the stage's FOP) and into pica_fop alone (the general path), each on a word
// memory that answers every request `Lat` clocks after it (requests always taken, in order),
// input always offered, output always ready; prints for each
//   <name> lat=<Lat> first <clock of the first beat> period <clocks per beat over the last
//   half of the stream> drain <clocks from the last beat to idle_o>
// and a FATAL line if the two designs' beats or memories differ. Run by
// rtl-bridge/tests/rtl_tools.rs (`fop_rate_meets_issue_37`), which parses the figures.
`timescale 1ns / 1ps
module pica_fop_rate_tb;
  localparam int N     = 256;
  localparam int Words = 256;            // colour at word 0x400 (byte 0x1000), depth at 0x800

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  int lat;

  // ---- the configuration (pica_rop_pkg's register slots)
  logic [639:0] cfg;
  function automatic logic [639:0] make_cfg();
    logic [639:0] c;
    c = '0;
    // Default mode, blending on; RGB and alpha: add, src alpha / one minus src alpha.
    c[32*pica_rop_pkg::SColorOp + pica_regs_pkg::COLOR_OPERATION_BLEND_MODE_LSB] = 1'b1;
    c[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_RGB_SRC_FUNC_LSB +: 4] = 4'd6;
    c[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_RGB_DST_FUNC_LSB +: 4] = 4'd7;
    c[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_ALPHA_SRC_FUNC_LSB +: 4] = 4'd1;
    c[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_ALPHA_DST_FUNC_LSB +: 4] = 4'd0;
    // Depth test GEQUAL (passes for the rising depths below), every colour channel, depth write.
    c[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_DEPTH_TEST_ENABLED_LSB] = 1'b1;
    c[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_DEPTH_FUNCTION_LSB +: 3] = 3'd7;
    c[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_RED_WRITE_ENABLED_LSB +: 4] = 4'hF;
    c[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_DEPTH_WRITE_ENABLED_LSB] = 1'b1;
    c[32*pica_rop_pkg::SCbRead +: 4]  = 4'hF;
    c[32*pica_rop_pkg::SCbWrite +: 4] = 4'hF;
    c[32*pica_rop_pkg::SDbRead +: 2]  = 2'h3;
    c[32*pica_rop_pkg::SDbWrite +: 2] = 2'h3;
    c[32*pica_rop_pkg::SDbFormat +: 2] = 2'd3;                       // D24S8
    c[32*pica_rop_pkg::SCbFormat +: 32] = 32'h0000_0002;              // RGBA8
    c[32*pica_rop_pkg::SDbLoc +: 28] = 28'(32'h2000 >> 3);
    c[32*pica_rop_pkg::SCbLoc +: 28] = 28'(32'h1000 >> 3);
    c[32*pica_rop_pkg::SDim +: 32] = 32'd8 | (32'd7 << 12) | (32'd1 << 24);
    return c;
  endfunction

  // Fragment k: pixel k mod 64 row by row, depth rising with the pass, a colour of k.
  function automatic logic [15:0] fx(input int k); return 16'(k % 8); endfunction
  function automatic logic [15:0] fy(input int k); return 16'((k / 8) % 8); endfunction
  function automatic logic [23:0] fz(input int k); return 24'(32'h10_0000 * (k / 64 + 1)); endfunction
  function automatic logic [31:0] fc(input int k);
    return {8'(8'h40 + k), 8'(k * 3), 8'(k * 5), 8'(k * 7)};
  endfunction

  // ---- one design with its memory
  logic        p_in_valid, p_in_ready, p_out_valid, p_idle;
  logic        g_in_valid, g_in_ready, g_out_valid, g_idle;
  logic [31:0] p_tag, g_tag;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] p_x, p_y, g_x, g_y;
  logic [31:0] p_ca, p_c, p_da, p_ds, g_ca, g_c, g_da, g_ds;
  logic [7:0]  p_fl, g_fl;
  logic        p_hang, g_hang, p_hb, g_hb;
  logic [1:0]  p_hk, g_hk;
  logic [31:0] p_ha, g_ha;
  logic [2:0]  p_hv, g_hv;
  logic        p_rsp_ready, g_rsp_ready;
  /* verilator lint_on UNUSEDSIGNAL */
  int          p_k, g_k;                  // the next fragment offered

  // Word memories with a fixed latency (a shift register of responses).
  logic        p_req_valid, p_req_we, g_req_valid, g_req_we;
  logic [31:0] p_req_addr, p_req_wdata, g_req_addr, g_req_wdata;
  logic [3:0]  p_req_be, g_req_be;
  logic        p_rsp_valid, g_rsp_valid;
  logic [31:0] p_rsp_rdata, g_rsp_rdata;
  logic [31:0] p_mem [4 * Words];
  logic [31:0] g_mem [4 * Words];
  logic [32:0] p_q [16];
  logic [32:0] g_q [16];

  function automatic int widx(input logic [31:0] a);
    return int'(a[11:2]) + ((a[13]) ? Words : 0);
  endfunction

  always_ff @(posedge clk) begin
    for (int i = 15; i > 0; i--) begin
      p_q[i] <= p_q[i-1];
      g_q[i] <= g_q[i-1];
    end
    p_q[0] <= '0;
    g_q[0] <= '0;
    if (p_req_valid) begin
      if (p_req_we) begin
        for (int b = 0; b < 4; b++)
          if (p_req_be[b]) p_mem[widx(p_req_addr)][8*b +: 8] <= p_req_wdata[8*b +: 8];
      end
      p_q[0] <= {1'b1, p_mem[widx(p_req_addr)]};
    end
    if (g_req_valid) begin
      if (g_req_we) begin
        for (int b = 0; b < 4; b++)
          if (g_req_be[b]) g_mem[widx(g_req_addr)][8*b +: 8] <= g_req_wdata[8*b +: 8];
      end
      g_q[0] <= {1'b1, g_mem[widx(g_req_addr)]};
    end
  end
  assign p_rsp_valid = p_q[lat - 1][32];
  assign p_rsp_rdata = p_q[lat - 1][31:0];
  assign g_rsp_valid = g_q[lat - 1][32];
  assign g_rsp_rdata = g_q[lat - 1][31:0];

  pica_fop_pipe u_pipe (
    .clk_i(clk), .rst_ni(rst_n), .cfg_i(cfg), .cfg_we_i(1'b0),
    .in_valid_i(p_in_valid), .in_ready_o(p_in_ready), .in_tag_i(32'(p_k)), .in_x_i(fx(p_k)),
    .in_y_i(fy(p_k)), .in_depth_i(fz(p_k)), .in_color_i(fc(p_k)),
    .out_valid_o(p_out_valid), .out_ready_i(1'b1), .out_tag_o(p_tag), .out_x_o(p_x),
    .out_y_o(p_y), .out_color_addr_o(p_ca), .out_color_o(p_c), .out_depth_addr_o(p_da),
    .out_depth_stencil_o(p_ds), .out_flags_o(p_fl),
    .mem_req_valid_o(p_req_valid), .mem_req_ready_i(1'b1), .mem_req_we_o(p_req_we),
    .mem_req_addr_o(p_req_addr), .mem_req_be_o(p_req_be), .mem_req_wdata_o(p_req_wdata),
    .mem_rsp_valid_i(p_rsp_valid), .mem_rsp_ready_o(p_rsp_ready), .mem_rsp_rdata_i(p_rsp_rdata),
    .mem_rsp_err_i(1'b0),
    .hang_o(p_hang), .hang_kind_o(p_hk), .hang_buffer_o(p_hb), .hang_addr_o(p_ha),
    .hang_value_o(p_hv), .idle_o(p_idle)
  );

  pica_fop u_gen (
    .clk_i(clk), .rst_ni(rst_n), .cfg_i(cfg),
    .in_valid_i(g_in_valid), .in_ready_o(g_in_ready), .in_tag_i(32'(g_k)), .in_x_i(fx(g_k)),
    .in_y_i(fy(g_k)), .in_depth_i(fz(g_k)), .in_color_i(fc(g_k)),
    .out_valid_o(g_out_valid), .out_ready_i(1'b1), .out_tag_o(g_tag), .out_x_o(g_x),
    .out_y_o(g_y), .out_color_addr_o(g_ca), .out_color_o(g_c), .out_depth_addr_o(g_da),
    .out_depth_stencil_o(g_ds), .out_flags_o(g_fl),
    .mem_req_valid_o(g_req_valid), .mem_req_ready_i(1'b1), .mem_req_we_o(g_req_we),
    .mem_req_addr_o(g_req_addr), .mem_req_be_o(g_req_be), .mem_req_wdata_o(g_req_wdata),
    .mem_rsp_valid_i(g_rsp_valid), .mem_rsp_ready_o(g_rsp_ready), .mem_rsp_rdata_i(g_rsp_rdata),
    .mem_rsp_err_i(1'b0),
    .hang_o(g_hang), .hang_kind_o(g_hk), .hang_buffer_o(g_hb), .hang_addr_o(g_ha),
    .hang_value_o(g_hv), .idle_o(g_idle)
  );

  assign p_in_valid = rst_n && (p_k < N);
  assign g_in_valid = rst_n && (g_k < N);

  // ---- the figures
  longint clk_n, p_first, g_first, p_mid, g_mid, p_last, g_last, p_done, g_done;
  int p_beats, g_beats;
  logic [31:0] p_beat [N];
  logic [31:0] g_beat [N];

  always_ff @(posedge clk) begin
    if (rst_n) begin
      clk_n <= clk_n + 1;
      if (p_in_valid && p_in_ready) p_k <= p_k + 1;
      if (g_in_valid && g_in_ready) g_k <= g_k + 1;
      if (p_out_valid) begin
        if (p_beats == 0) p_first <= clk_n;
        if (p_beats == N / 2) p_mid <= clk_n;
        if (p_beats == N - 1) p_last <= clk_n;
        p_beat[p_beats] <= p_c ^ p_ds ^ {p_tag[23:0], p_fl};
        p_beats <= p_beats + 1;
      end
      if (g_out_valid) begin
        if (g_beats == 0) g_first <= clk_n;
        if (g_beats == N / 2) g_mid <= clk_n;
        if (g_beats == N - 1) g_last <= clk_n;
        g_beat[g_beats] <= g_c ^ g_ds ^ {g_tag[23:0], g_fl};
        g_beats <= g_beats + 1;
      end
      if (p_beats == N && p_idle && p_done == 0) p_done <= clk_n;
      if (g_beats == N && g_idle && g_done == 0) g_done <= clk_n;
    end else begin
      clk_n <= 0;
    end
  end

  task automatic run(input int l);
    lat = l;
    rst_n = 1'b0;
    p_k = 0; g_k = 0; p_beats = 0; g_beats = 0;
    p_first = 0; g_first = 0; p_mid = 0; g_mid = 0; p_last = 0; g_last = 0;
    p_done = 0; g_done = 0;
    for (int i = 0; i < 4 * Words; i++) begin
      p_mem[i] = 32'h0;
      g_mem[i] = 32'h0;
    end
    for (int i = 0; i < 16; i++) begin
      p_q[i] = '0;
      g_q[i] = '0;
    end
    repeat (3) @(posedge clk);
    rst_n = 1'b1;
    for (int i = 0; i < 200000 && (p_done == 0 || g_done == 0); i++) @(posedge clk);
    if (p_done == 0 || g_done == 0) $display("FATAL lat=%0d: not done (%0d / %0d beats)", l, p_beats, g_beats);
    for (int i = 0; i < N; i++)
      if (p_beat[i] !== g_beat[i]) $display("FATAL lat=%0d: beat %0d differs", l, i);
    for (int i = 0; i < 4 * Words; i++)
      if (p_mem[i] !== g_mem[i]) $display("FATAL lat=%0d: memory word %0d differs", l, i);
    $display("pica_fop_pipe lat=%0d first %0d period %0d.%02d drain %0d", l, p_first,
             (p_last - p_mid) / (N / 2 - 1), ((p_last - p_mid) * 100 / (N / 2 - 1)) % 100,
             p_done - p_last);
    $display("pica_fop lat=%0d first %0d period %0d.%02d drain %0d", l, g_first,
             (g_last - g_mid) / (N / 2 - 1), ((g_last - g_mid) * 100 / (N / 2 - 1)) % 100,
             g_done - g_last);
  endtask

  initial begin
    cfg = make_cfg();
    run(1);
    run(8);
    $finish;
  end

endmodule : pica_fop_rate_tb
