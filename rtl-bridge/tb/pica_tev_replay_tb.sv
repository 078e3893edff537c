// pica_tev_replay_tb: replays a TEV stage bundle (manifest kind "stage:tev", written by
// pica_vectors::stage_tev: `pica fuzz --target tev`, `pica vectors gen --stage tev`) on
// pica_tev_top and compares every expected combiner beat with what the stage produces.
// `scripts/replay BUNDLE` reads the manifest into these plusargs.
//
// Plain SystemVerilog, no DPI: runs under Icarus (iverilog -g2012) and Verilator
// (--binary --timing). Plusargs:
//
//   +ops=FILE +nops=N        ops.hex: N operations, 264 bits each: [263:256] kind
//                            (0 register write: [41:32] ID, [31:0] value; 1 fragment: [255:224]
//                            tag = x | y << 16, [223:192] primary, [191:160] fragment primary,
//                            [159:128] fragment secondary, [127:0] textures 3..0)
//   +beats=FILE +nbeats=M    combiner.hex: the expected combiner beats
//                            (pica_chan_pkg::combiner_beat_t), six per fragment (stages 0..5)
//                            in fragment order; M must be 6 x the fragments of ops.hex
//   +seed=S                  output backpressure pattern (default 1; 0 = always ready)
//
// Register writes wait until the pipeline is empty (pica_tev_top's rule); fragments go in as
// the input port allows; the output's ready follows an LFSR so the stall path is exercised.
// For each result taken, the six beats of its fragment are compared field by field (all but
// `cycle`, which is the fragment index: the stage promises transactions, not cycles): x and y
// against the tag the stage passed through, `stage` against the beat's position, `color` and
// `buffer` against the stage's outputs; the final colour against stage 5's. Prints PASS, or
// `FAIL: fragment K (x X, y Y) stage S: field F expected ... actual ...` and stops with $fatal
// (non-zero exit in both simulators).
`timescale 1ns / 1ps
module pica_tev_replay_tb;
  // Icarus 11 aborts on a scoped package type (pica_chan_pkg::combiner_beat_t): import.
  import pica_chan_pkg::*;

  localparam int MaxOps = 1 << 17;
  localparam int MaxBeats = 6 * MaxOps;

  logic clk = 1'b0;
  logic rst_ni = 1'b0;
  always #5 clk = ~clk;

  logic          cfg_we;
  logic [9:0]    cfg_id;
  logic [31:0]   cfg_data;
  logic          in_valid, in_ready;
  logic [31:0]   in_tag, in_pri, in_fpri, in_fsec;
  logic [127:0]  in_tex;
  logic          out_valid;
  logic          out_ready = 1'b0;
  logic [31:0]   out_tag, out_color;
  logic [191:0]  out_stage_color, out_stage_buffer;
  logic          idle;

  pica_tev_top dut (
    .clk_i(clk), .rst_ni,
    .cfg_we_i(cfg_we), .cfg_id_i(cfg_id), .cfg_data_i(cfg_data),
    .in_valid_i(in_valid), .in_ready_o(in_ready), .in_tag_i(in_tag),
    .in_primary_i(in_pri), .in_frag_primary_i(in_fpri), .in_frag_secondary_i(in_fsec),
    .in_tex_i(in_tex),
    .out_valid_o(out_valid), .out_ready_i(out_ready), .out_tag_o(out_tag),
    .out_color_o(out_color), .out_stage_color_o(out_stage_color),
    .out_stage_buffer_o(out_stage_buffer), .idle_o(idle)
  );

  logic [263:0]               ops [MaxOps];
  logic [COMBINER_BEAT_W-1:0] beats [MaxBeats];
  string        f_ops, f_beats;
  int           nops, nbeats, nfrag, seed;
  int           got;         // fragments checked so far
  logic [15:0]  lfsr;

  task automatic fail(input string msg);
    $display("FAIL: %s", msg);
    $fatal(1, "pica_tev_replay_tb: FAIL");
  endtask

  task automatic tick;
    @(posedge clk);
    #1;
  endtask

  // One field of fragment k's stage s (expected beat e): fails naming it when they differ.
  task automatic field(input int k, input int s, input combiner_beat_t e, input string name,
                       input logic [31:0] exp, input logic [31:0] act);
    if (exp !== act)
      fail($sformatf("fragment %0d (x %0d, y %0d) stage %0d: field %s expected 0x%08h actual 0x%08h",
                     k, e.x, e.y, s, name, exp, act));
  endtask

  // The result of fragment k against its six expected beats.
  task automatic check_fragment(input int k);
    combiner_beat_t e;
    for (int s = 0; s < 6; s++) begin
      e = beats[6*k + s];
      field(k, s, e, "x", 32'(e.x), 32'(out_tag[15:0]));
      field(k, s, e, "y", 32'(e.y), 32'(out_tag[31:16]));
      field(k, s, e, "stage", 32'(e.stage), 32'(s));
      field(k, s, e, "color", e.color, out_stage_color[32*s +: 32]);
      field(k, s, e, "buffer", e.buffer, out_stage_buffer[32*s +: 32]);
    end
    e = beats[6*k + 5];
    field(k, 5, e, "color (final colour)", e.color, out_color);
  endtask

  // Output side: check each result taken (valid && ready at the edge).
  always @(posedge clk) begin
    if (rst_ni && out_valid && out_ready) begin
      if (got >= nfrag)
        fail($sformatf("fragment %0d: an extra result (tag 0x%08h; %0d fragments expected)",
                       got, out_tag, nfrag));
      check_fragment(got);
      got <= got + 1;
    end
  end

  // Output backpressure: ready from a 16-bit LFSR (about 3/4 of the clocks), or always.
  always @(posedge clk) begin
    #1;
    lfsr = {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
    out_ready = (seed == 0) || (lfsr[1:0] != 2'b00);
  end

  logic [263:0] op;
  longint       guard;
  logic         taken;

  initial begin
    cfg_we = 1'b0; cfg_id = '0; cfg_data = '0;
    in_valid = 1'b0; in_tag = '0; in_pri = '0; in_fpri = '0; in_fsec = '0; in_tex = '0;
    got = 0;
    if (!$value$plusargs("ops=%s", f_ops)) fail("missing +ops=FILE");
    if (!$value$plusargs("nops=%d", nops)) fail("missing +nops=N");
    if (!$value$plusargs("beats=%s", f_beats)) fail("missing +beats=FILE");
    if (!$value$plusargs("nbeats=%d", nbeats)) fail("missing +nbeats=M");
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (nops < 0 || nops > MaxOps) fail($sformatf("nops %0d exceeds %0d", nops, MaxOps));
    if (nbeats < 0 || nbeats > MaxBeats) fail($sformatf("nbeats %0d exceeds %0d", nbeats, MaxBeats));
    lfsr = 16'(seed) | 16'h1;
    if (nops > 0) $readmemh(f_ops, ops, 0, nops - 1);
    if (nbeats > 0) $readmemh(f_beats, beats, 0, nbeats - 1);
    nfrag = 0;
    for (int i = 0; i < nops; i++) begin
      if (ops[i][263:256] == 8'd1) nfrag++;
      else if (ops[i][263:256] != 8'd0)
        fail($sformatf("op %0d: unknown kind 0x%02h", i, ops[i][263:256]));
    end
    if (nbeats != 6 * nfrag)
      fail($sformatf("%0d combiner beats for %0d fragments (6 per fragment expected)", nbeats, nfrag));

    repeat (2) @(posedge clk);
    #1;
    rst_ni = 1'b1;

    for (int i = 0; i < nops; i++) begin
      op = ops[i];
      if (op[263:256] == 8'd0) begin
        // A register write waits for the pipeline to drain.
        guard = 0;
        while (!idle) begin
          tick;
          guard++;
          if (guard > 10000) fail($sformatf("op %0d: pipeline never drained", i));
        end
        cfg_we = 1'b1; cfg_id = op[41:32]; cfg_data = op[31:0];
        tick;
        cfg_we = 1'b0;
      end else begin
        in_valid = 1'b1;
        in_tag = op[255:224]; in_pri = op[223:192]; in_fpri = op[191:160];
        in_fsec = op[159:128]; in_tex = op[127:0];
        guard = 0;
        // Held until taken: in_ready as sampled at the edge.
        taken = 1'b0;
        while (!taken) begin
          @(posedge clk);
          taken = in_ready;
          guard++;
          if (guard > 10000) fail($sformatf("op %0d: input never accepted", i));
        end
        #1;
        in_valid = 1'b0;
      end
    end
    guard = 0;
    while (got < nfrag) begin
      tick;
      guard++;
      if (guard > 10000)
        fail($sformatf("fragment %0d: no result (expected %0d fragments)", got, nfrag));
    end
    repeat (8) tick;
    if (got != nfrag) fail($sformatf("%0d results, expected %0d", got, nfrag));
    $display("PASS: %0d operations, %0d fragments, %0d combiner beats", nops, nfrag, nbeats);
    $finish;
  end

endmodule : pica_tev_replay_tb
