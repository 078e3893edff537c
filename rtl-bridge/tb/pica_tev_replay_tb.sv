// pica_tev_replay_tb: replays TEV vectors (rtl-bridge/src/tev_stage.rs ReplayVectors, written
// by `cargo test -p pica-rtl-bridge --test tev_stage` into target/tev_replay/) on
// pica_tev_top and compares every result with the model's.
//
// Plain SystemVerilog, no DPI: runs under Icarus (iverilog -g2012) and Verilator
// (--binary --timing). Plusargs:
//
//   +in=FILE +nin=N          tev_in.hex: N operations, 264 bits each: [263:256] kind
//                            (0 register write: [41:32] ID, [31:0] value; 1 fragment: [255:224]
//                            tag, [223:192] primary, [191:160] fragment primary, [159:128]
//                            fragment secondary, [127:0] textures 3..0)
//   +expect=FILE +nexp=M     tev_expect.hex: M results in order, 448 bits each: [447:416] tag,
//                            [415:384] colour, [383:192] stage outputs 5..0, [191:0] buffers 5..0
//   +seed=S                  output backpressure pattern (default 1; 0 = always ready)
//
// Register writes wait until the pipeline is empty (pica_tev_top's rule); fragments go in as
// the input port allows; the output's ready follows an LFSR so the stall path is exercised.
// Prints PASS, or FAIL: <first mismatch, by field> and stops with $fatal (non-zero exit in
// both simulators).
`timescale 1ns / 1ps
module pica_tev_replay_tb;

  localparam int MaxOps = 1 << 18;

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

  logic [263:0] ops [MaxOps];
  logic [447:0] exps [MaxOps];
  string        f_in, f_exp;
  int           nin, nexp, seed;
  int           got;         // results checked so far
  logic [15:0]  lfsr;

  task automatic fail(input string msg);
    $display("FAIL: %s", msg);
    $fatal(1, "pica_tev_replay_tb: FAIL");
  endtask

  task automatic tick;
    @(posedge clk);
    #1;
  endtask

  task automatic field(input int k, input string name, input logic [31:0] e,
                       input logic [31:0] a);
    if (e !== a)
      fail($sformatf("result %0d (tag 0x%08h): %s expected 0x%08h actual 0x%08h",
                     k, exps[k][447:416], name, e, a));
  endtask

  // Output side: compare each result taken (valid && ready at the edge).
  always @(posedge clk) begin
    if (rst_ni && out_valid && out_ready) begin
      if (got >= nexp) fail($sformatf("result %0d: extra result (expected %0d)", got, nexp));
      field(got, "tag", exps[got][447:416], out_tag);
      field(got, "color", exps[got][415:384], out_color);
      for (int s = 0; s < 6; s++) begin
        field(got, $sformatf("stage %0d color", s), exps[got][192 + 32*s +: 32],
              out_stage_color[32*s +: 32]);
        field(got, $sformatf("stage %0d buffer", s), exps[got][32*s +: 32],
              out_stage_buffer[32*s +: 32]);
      end
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
    if (!$value$plusargs("in=%s", f_in)) fail("missing +in=FILE");
    if (!$value$plusargs("nin=%d", nin)) fail("missing +nin=N");
    if (!$value$plusargs("expect=%s", f_exp)) fail("missing +expect=FILE");
    if (!$value$plusargs("nexp=%d", nexp)) fail("missing +nexp=M");
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (nin < 0 || nin > MaxOps) fail($sformatf("nin %0d exceeds %0d", nin, MaxOps));
    if (nexp < 0 || nexp > MaxOps) fail($sformatf("nexp %0d exceeds %0d", nexp, MaxOps));
    lfsr = 16'(seed) | 16'h1;
    if (nin > 0) $readmemh(f_in, ops, 0, nin - 1);
    if (nexp > 0) $readmemh(f_exp, exps, 0, nexp - 1);

    repeat (2) @(posedge clk);
    #1;
    rst_ni = 1'b1;

    for (int i = 0; i < nin; i++) begin
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
    while (got < nexp) begin
      tick;
      guard++;
      if (guard > 10000)
        fail($sformatf("result %0d: missing (expected %0d results)", got, nexp));
    end
    repeat (8) tick;
    if (got != nexp) fail($sformatf("%0d results, expected %0d", got, nexp));
    $display("PASS: %0d operations, %0d results", nin, nexp);
    $finish;
  end

endmodule : pica_tev_replay_tb
