// pica_clip_rate_tb: clocks per triangle of CLIP (issue 37: <= 24 per unclipped triangle).
// Streams N triangles that no plane clips (every vertex well inside the frustum, w = 1) into
// pica_clip_pipe (the stage's CLIP) and into pica_clip alone (the general path), each with its
// input always offered and its output always ready, and prints for each:
//   <name> latency <clocks from the first input handshake to the first output> period <clocks
//   between the first and the last output / (N - 1)>
// once with culling off and once with culling on (mode 2, the triangles kept). Run by
// rtl-bridge/tests/rtl_tools.rs (`clip_rate_meets_issue_37`), which parses the figures.
`timescale 1ns / 1ps
module pica_clip_rate_tb;
  localparam int N = 32;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  logic [351:0] cfg;

  // Vertex k of triangle t: x, y in [-0.5, 0.5] steps, z = -0.5, w = 1, the rest 0.25.
  function automatic logic [1727:0] tri_v(input int t);
    logic [1727:0] v;
    v = '0;
    for (int k = 0; k < 3; k++) begin
      for (int s = 0; s < 24; s++) v[24*(24*k + s) +: 24] = 24'h3D0000;       // 0.25
      v[24*(24*k + 0) +: 24] = (k == 1) ? 24'h3E0000 : 24'hBE0000;           // x +-0.5
      v[24*(24*k + 1) +: 24] = (k == 2) ? 24'h3E0000 : 24'hBE0000;           // y +-0.5
      v[24*(24*k + 2) +: 24] = 24'hBE0000 + 24'(t);                          // z ~ -0.5
      v[24*(24*k + 3) +: 24] = 24'h3F0000;                                   // w = 1
    end
    return v;
  endfunction

  // ---- the two designs, each with its own input stream
  logic          p_in_valid, p_in_ready, p_out_valid, p_idle;
  logic          c_in_valid, c_in_ready, c_out_valid, c_idle;
  logic [31:0]   p_in_seq, c_in_seq, p_out_seq, c_out_seq;
  logic [1727:0] p_in_v, c_in_v;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [71:0]   p_x, p_y, p_z, p_iw, c_x, c_y, c_z, c_iw;
  logic [1727:0] p_v, c_v;
  /* verilator lint_on UNUSEDSIGNAL */

  pica_clip_pipe u_pipe (
    .clk_i(clk), .rst_ni(rst_n), .cfg_i(cfg),
    .in_valid_i(p_in_valid), .in_ready_o(p_in_ready), .in_seq_i(p_in_seq), .in_v_i(p_in_v),
    .out_valid_o(p_out_valid), .out_ready_i(1'b1), .out_seq_o(p_out_seq),
    .out_x_o(p_x), .out_y_o(p_y), .out_z_o(p_z), .out_inv_w_o(p_iw), .out_v_o(p_v),
    .idle_o(p_idle)
  );
  pica_clip u_clip (
    .clk_i(clk), .rst_ni(rst_n), .cfg_i(cfg),
    .in_valid_i(c_in_valid), .in_ready_o(c_in_ready), .in_seq_i(c_in_seq), .in_v_i(c_in_v),
    .out_valid_o(c_out_valid), .out_ready_i(1'b1), .out_seq_o(c_out_seq),
    .out_x_o(c_x), .out_y_o(c_y), .out_z_o(c_z), .out_inv_w_o(c_iw), .out_v_o(c_v),
    .idle_o(c_idle)
  );

  assign p_in_v = tri_v(int'(p_in_seq));
  assign c_in_v = tri_v(int'(c_in_seq));

  // One stream through one design; `which` 0 = pica_clip_pipe, 1 = pica_clip.
  task automatic stream(input int which, input string name);
    longint clock, first_in, first_out, last_out;
    int     outs;
    clock = 0; first_in = -1; first_out = -1; last_out = -1; outs = 0;
    if (which == 0) begin p_in_valid = 1'b1; p_in_seq = 0; end
    else            begin c_in_valid = 1'b1; c_in_seq = 0; end
    while (outs < N && clock < 100000) begin
      @(posedge clk);
      clock++;
      if (which == 0) begin
        if (p_in_valid && p_in_ready) begin
          if (first_in < 0) first_in = clock;
          if (p_in_seq == N - 1) p_in_valid <= 1'b0;
          p_in_seq <= p_in_seq + 1;
        end
        if (p_out_valid) begin
          if (p_out_seq != 32'(outs)) $fatal(1, "%s: triangle %0d out as %0d", name, outs, p_out_seq);
          if (first_out < 0) first_out = clock;
          last_out = clock;
          outs++;
        end
      end else begin
        if (c_in_valid && c_in_ready) begin
          if (first_in < 0) first_in = clock;
          if (c_in_seq == N - 1) c_in_valid <= 1'b0;
          c_in_seq <= c_in_seq + 1;
        end
        if (c_out_valid) begin
          if (first_out < 0) first_out = clock;
          last_out = clock;
          outs++;
        end
      end
    end
    if (outs != N) $fatal(1, "%s: %0d of %0d triangles out", name, outs, N);
    $display("%s latency %0d period %0d.%02d", name, first_out - first_in,
             (last_out - first_out) / (N - 1), ((last_out - first_out) * 100 / (N - 1)) % 100);
    repeat (4) @(posedge clk);
  endtask

  initial begin
    cfg        = '0;
    p_in_valid = 1'b0;
    c_in_valid = 1'b0;
    p_in_seq   = '0;
    c_in_seq   = '0;
    repeat (3) @(posedge clk);
    rst_n = 1'b1;
    @(posedge clk);
    stream(0, "pica_clip_pipe cull=0");
    stream(1, "pica_clip cull=0");
    // Culling on: mode 2 keeps a positive signed area, which these triangles have in window
    // space with a positive viewport scale (a culled triangle would give no output).
    cfg[pica_regs_pkg::FACECULLING_CONFIG_MODE_LSB +: 2] = 2'd2;
    cfg[32*1 +: 24] = 24'h469000;   // half width 200
    cfg[32*2 +: 24] = 24'h45E000;   // half height 120
    @(posedge clk);
    stream(0, "pica_clip_pipe cull=2");
    stream(1, "pica_clip cull=2");
    $finish;
  end
endmodule : pica_clip_rate_tb
