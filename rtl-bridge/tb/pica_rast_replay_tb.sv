// pica_rast_replay_tb: replays a RAST stage bundle (kind "stage:rast"; the RAST contract,
// vectors/src/stage_rast.rs) on pica_rast_top (CLIP -> RAST) and compares every fragment and
// the early-depth buffer after the run with the model's.
//
// Plain SystemVerilog, no DPI: runs under Icarus (iverilog -g2012) and Verilator
// (--binary --timing). Plusargs:
//
//   +ops=FILE +nops=N          ops.hex: N operations, 1768 bits each: [1767:1760] kind (0 register
//                              write: [41:32] ID, [31:0] value; 1 early-depth clear (written as
//                              GPUREG_EARLYDEPTH_CLEAR = 1); 2 triangle: [1759:1728] seq,
//                              [1727:0] vertex k semantic s at [24*(24*k + s) +: 24])
//   +fragments=FILE +nfragments=M
//                              fragment.hex: the M expected fragment beats
//                              (pica_chan_pkg::fragment_beat_t lines), compared in order, every
//                              field but cycle
//   +tex_deriv=FILE            tex_deriv.hex: per fragment the 288-bit out_tex_deriv_o (texcoord
//                              t component c at [24*(4*t + c) +: 24]); compared when given
//   +early_before=FILE +nearly_before=N
//   +early_after=FILE +nearly_after=N
//                              the early-depth buffer before / after the run: line 0 the clear
//                              value (bits [23:0]), then one 56-bit line per pixel holding
//                              another value: x [55:40], y [39:24], value [23:0]
//   +latency=N                 early-depth port: every response N clocks after the earliest
//                              (default 0: valid the clock after the request handshake)
//   +lat_max=N +lat_seed=S     early-depth port: random latency 0..N per request (xorshift32
//                              seeded S, S != 0), and ed_req_ready_i low about 1 clock in 4
//   +ready_seed=S              output backpressure: out_ready_i from a 16-bit LFSR seeded S
//                              (about 3/4 of the clocks); 0 (default) = always ready
//   +max_cycles=N              give up after N clocks (default 100,000,000)
//
// Early-depth memory: one 24-bit value per pixel (x < 2048, y < 1024), served in the clock a
// request is accepted (a read takes the value then, a write stores it then, a clear sets every
// pixel) and answered in order after the latency; a pixel keeps a generation tag, so a clear
// costs nothing.
//
// Sequence: reset; the operations in order: a register write and a clear wait for idle_o, a
// triangle is held on the input until taken. At the end the testbench waits for idle_o, then
// checks the number of fragments and the buffer against +early_after (its clear value, every
// listed pixel, and that no other pixel differs from the clear value).
//
// Prints PASS: ..., or FAIL: <first mismatch: fragment index, x, y and field> and stops with
// $fatal (non-zero exit in both simulators).
`timescale 1ns / 1ps
module pica_rast_replay_tb;
  import pica_chan_pkg::*;

  localparam int MaxOps  = 1 << 14;
  localparam int MaxFrag = 1 << 18;
  localparam int MaxEd   = 1 << 18;     // lines of an early-depth file
  localparam int EdW     = 2048;        // early-depth memory: x < 2048, y < 1024
  localparam int EdPix   = EdW * 1024;
  localparam int QDepth  = 64;          // responses in flight

  logic clk = 1'b0;
  logic rst_ni = 1'b0;
  always #5 clk = ~clk;

  // ---- DUT
  logic          cfg_we;
  logic [9:0]    cfg_id;
  logic [31:0]   cfg_data;
  logic          in_valid, in_ready;
  logic [31:0]   in_seq;
  logic [1727:0] in_v;
  logic          out_valid;
  logic          out_ready = 1'b1;
  logic [31:0]   out_tri, out_color;
  logic [15:0]   out_x, out_y;
  logic [23:0]   out_depth;
  logic [575:0]  out_attr;
  logic [287:0]  out_tex_deriv;
  logic          req_valid;
  logic          req_ready = 1'b1;
  logic [1:0]    req_op;
  logic [15:0]   req_x, req_y;
  logic [23:0]   req_data;
  logic          rsp_valid = 1'b0;
  logic          rsp_ready;
  logic [23:0]   rsp_data = '0;
  logic          idle;

  pica_rast_top dut (
    .clk_i(clk), .rst_ni,
    .cfg_we_i(cfg_we), .cfg_id_i(cfg_id), .cfg_data_i(cfg_data),
    .in_valid_i(in_valid), .in_ready_o(in_ready), .in_seq_i(in_seq), .in_v_i(in_v),
    .out_valid_o(out_valid), .out_ready_i(out_ready), .out_tri_o(out_tri), .out_x_o(out_x),
    .out_y_o(out_y), .out_depth_o(out_depth), .out_color_o(out_color), .out_attr_o(out_attr),
    .out_tex_deriv_o(out_tex_deriv),
    .ed_req_valid_o(req_valid), .ed_req_ready_i(req_ready), .ed_req_op_o(req_op),
    .ed_req_x_o(req_x), .ed_req_y_o(req_y), .ed_req_data_o(req_data),
    .ed_rsp_valid_i(rsp_valid), .ed_rsp_ready_o(rsp_ready), .ed_rsp_data_i(rsp_data),
    .idle_o(idle)
  );

  // ---- Bundle contents
  logic [1767:0]              ops [MaxOps];
  logic [FRAGMENT_BEAT_W-1:0] frag [MaxFrag];
  logic [287:0]               drv [MaxFrag];
  logic [55:0]                ed_lines [MaxEd];

  string  f_ops, f_frag, f_drv, f_eb, f_ea;
  int     nops, nfrag, neb, nea, latency, lat_max, ready_seed;
  bit     has_drv;
  logic [31:0] lat_seed;
  longint max_cycles;

  task automatic fail(input string msg);
    $display("FAIL: %s", msg);
    $fatal(1, "pica_rast_replay_tb: FAIL");
  endtask

  task automatic tick;
    @(posedge clk);
    #1;
  endtask

  // ---- Early-depth memory
  bit [23:0] ed_val [EdPix];
  int        ed_gen [EdPix];      // the value is current when its tag is cur_gen
  int        cur_gen;
  bit [23:0] clear_val;
  int        written [$];         // pixels written since the last clear (each once)

  function automatic bit [23:0] ed_get(input int ix);
    ed_get = (ed_gen[ix] == cur_gen) ? ed_val[ix] : clear_val;
  endfunction

  task automatic ed_put(input int ix, input bit [23:0] v);
    if (ed_gen[ix] != cur_gen) written.push_back(ix);
    ed_gen[ix] = cur_gen;
    ed_val[ix] = v;
  endtask

  task automatic ed_clear(input bit [23:0] v);
    cur_gen = cur_gen + 1;
    clear_val = v;
    written.delete();
  endtask

  // Response queue (in request order).
  logic [23:0] q_data [QDepth];
  longint      q_due [QDepth];
  int          q_head, q_tail;
  longint      cyc;
  logic [31:0] rng;
  logic [15:0] lfsr;
  longint      n_reads, n_writes, n_clears;

  function automatic logic [31:0] xorshift(input logic [31:0] x);
    logic [31:0] y;
    y = x ^ (x << 13);
    y = y ^ (y >> 17);
    xorshift = y ^ (y << 5);
  endfunction

  always @(posedge clk) begin
    if (rst_ni) begin
      if (rsp_valid && rsp_ready) q_head = q_head + 1;
      if (req_valid && req_ready) begin
        longint lat;
        int ix;
        if (q_tail - q_head >= QDepth) fail("more than QDepth early-depth requests in flight");
        if (lat_seed != 0) begin
          rng = xorshift(rng);
          lat = (lat_max > 0) ? longint'(rng % (lat_max + 1)) : 0;
        end else begin
          lat = longint'(latency);
        end
        q_data[q_tail % QDepth] = 24'h0;
        q_due[q_tail % QDepth]  = cyc + 1 + lat;
        if (req_op != 2'd2 && (req_x >= 16'(EdW) || req_y >= 16'd1024))
          fail($sformatf("early-depth request outside the buffer: op %0d x %0d y %0d", req_op,
                         req_x, req_y));
        ix = int'(req_y) * EdW + int'(req_x);
        unique case (req_op)
          2'd0: begin
            q_data[q_tail % QDepth] = ed_get(ix);
            n_reads++;
          end
          2'd1: begin
            ed_put(ix, req_data);
            n_writes++;
          end
          2'd2: begin
            ed_clear(req_data);
            n_clears++;
          end
          default: fail("early-depth request with op 3");
        endcase
        q_tail = q_tail + 1;
      end
      cyc = cyc + 1;
      if (cyc > max_cycles) fail($sformatf("no end after %0d cycles", cyc));
    end
    #1;
    if (q_head != q_tail && q_due[q_head % QDepth] <= cyc) begin
      rsp_valid = 1'b1;
      rsp_data  = q_data[q_head % QDepth];
    end else begin
      rsp_valid = 1'b0;
      rsp_data  = 24'hDEADBE;
    end
    if (lat_seed != 0) begin
      rng = xorshift(rng);
      req_ready = (rng[1:0] != 2'b00);
    end else begin
      req_ready = 1'b1;
    end
    lfsr = {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
    out_ready = (ready_seed == 0) || (lfsr[1:0] != 2'b00);
  end

  // ---- Fragment check
  int got;

  task automatic field(input int fi, input fragment_beat_t e, input string name,
                       input logic [31:0] ev, input logic [31:0] av);
    if (ev !== av)
      fail($sformatf("fragment %0d (x %0d, y %0d): field %s expected 0x%0h actual 0x%0h",
                     fi, e.x, e.y, name, ev, av));
  endtask

  always @(posedge clk) begin
    if (rst_ni && out_valid && out_ready) begin
      fragment_beat_t e;
      if (got >= nfrag)
        fail($sformatf("fragment %0d (x %0d, y %0d): extra fragment (expected %0d)", got, out_x,
                       out_y, nfrag));
      e = frag[got];
      field(got, e, "tri", e.tri_f, out_tri);
      field(got, e, "x", 32'(e.x), 32'(out_x));
      field(got, e, "y", 32'(e.y), 32'(out_y));
      field(got, e, "depth", 32'(e.depth), 32'(out_depth));
      field(got, e, "color", e.color, out_color);
      // attr is the struct's last member: semantic s at bits [24*s +: 24] of the line.
      for (int s = 0; s < 24; s++)
        field(got, e, $sformatf("attr[%0d]", s), 32'(frag[got][24*s +: 24]),
              32'(out_attr[24*s +: 24]));
      if (has_drv) begin
        for (int c = 0; c < 12; c++)
          field(got, e, $sformatf("tex_deriv[%0d][%0d]", c / 4, c % 4),
                32'(drv[got][24*c +: 24]), 32'(out_tex_deriv[24*c +: 24]));
      end
      got = got + 1;
    end
  end

  // ---- Main
  logic [1767:0] op;
  longint        guard;
  int            ntri, nwr, nclr;

  task automatic wait_idle(input string what);
    guard = 0;
    while (!idle) begin
      tick;
      guard++;
      if (guard > max_cycles) fail($sformatf("%s: stage never idle", what));
    end
  endtask

  initial begin
    cfg_we = 1'b0; cfg_id = '0; cfg_data = '0;
    in_valid = 1'b0; in_seq = '0; in_v = '0;
    got = 0; q_head = 0; q_tail = 0; cyc = 0; n_reads = 0; n_writes = 0; n_clears = 0;

    if (!$value$plusargs("ops=%s", f_ops)) fail("missing +ops=FILE");
    if (!$value$plusargs("nops=%d", nops)) fail("missing +nops=N");
    if (!$value$plusargs("fragments=%s", f_frag)) fail("missing +fragments=FILE");
    if (!$value$plusargs("nfragments=%d", nfrag)) fail("missing +nfragments=M");
    has_drv = $value$plusargs("tex_deriv=%s", f_drv);
    if (!$value$plusargs("early_before=%s", f_eb)) fail("missing +early_before=FILE");
    if (!$value$plusargs("nearly_before=%d", neb)) fail("missing +nearly_before=N");
    if (!$value$plusargs("early_after=%s", f_ea)) fail("missing +early_after=FILE");
    if (!$value$plusargs("nearly_after=%d", nea)) fail("missing +nearly_after=N");
    if (!$value$plusargs("latency=%d", latency)) latency = 0;
    if (!$value$plusargs("lat_max=%d", lat_max)) lat_max = 0;
    if (!$value$plusargs("lat_seed=%d", lat_seed)) lat_seed = 0;
    if (!$value$plusargs("ready_seed=%d", ready_seed)) ready_seed = 0;
    if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 100_000_000;
    if (nops < 0 || nops > MaxOps) fail($sformatf("nops %0d exceeds %0d", nops, MaxOps));
    if (nfrag < 0 || nfrag > MaxFrag)
      fail($sformatf("nfragments %0d exceeds %0d", nfrag, MaxFrag));
    if (neb < 1 || neb > MaxEd || nea < 1 || nea > MaxEd)
      fail($sformatf("early-depth files of %0d / %0d lines (1 to %0d)", neb, nea, MaxEd));
    rng  = lat_seed;
    lfsr = 16'(ready_seed) | 16'h1;

    if (nops > 0) $readmemh(f_ops, ops, 0, nops - 1);
    if (nfrag > 0) $readmemh(f_frag, frag, 0, nfrag - 1);
    if (nfrag > 0 && has_drv) $readmemh(f_drv, drv, 0, nfrag - 1);

    // The buffer before the run.
    cur_gen = 1;
    $readmemh(f_eb, ed_lines, 0, neb - 1);
    clear_val = ed_lines[0][23:0];
    for (int i = 1; i < neb; i++) begin
      if (ed_lines[i][55:40] >= 16'(EdW) || ed_lines[i][39:24] >= 16'd1024)
        fail($sformatf("early_before line %0d: pixel (%0d, %0d) outside the buffer", i,
                       ed_lines[i][55:40], ed_lines[i][39:24]));
      ed_put(int'(ed_lines[i][39:24]) * EdW + int'(ed_lines[i][55:40]), ed_lines[i][23:0]);
    end

    repeat (2) @(posedge clk);
    #1;
    rst_ni = 1'b1;

    ntri = 0; nwr = 0; nclr = 0;
    for (int i = 0; i < nops; i++) begin
      op = ops[i];
      if (op[1767:1760] == 8'd0 || op[1767:1760] == 8'd1) begin
        // Register writes and clears wait for the stage to be idle.
        wait_idle($sformatf("op %0d", i));
        cfg_we = 1'b1;
        if (op[1767:1760] == 8'd0) begin
          cfg_id = op[41:32]; cfg_data = op[31:0];
          nwr++;
        end else begin
          cfg_id = 10'(pica_regs_pkg::REG_EARLYDEPTH_CLEAR); cfg_data = 32'd1;
          nclr++;
        end
        tick;
        cfg_we = 1'b0;
      end else if (op[1767:1760] == 8'd2) begin
        in_valid = 1'b1;
        in_seq = op[1759:1728];
        in_v = op[1727:0];
        // Held until taken (in_ready as sampled at the edge).
        guard = 0;
        do begin
          @(posedge clk);
          guard++;
          if (guard > max_cycles) fail($sformatf("op %0d: triangle %0d never taken", i, ntri));
        end while (!in_ready);
        #1;
        in_valid = 1'b0;
        ntri++;
      end else begin
        fail($sformatf("op %0d: unknown kind %0d", i, op[1767:1760]));
      end
    end

    // Drain.
    wait_idle("the end");
    repeat (4) tick;

    if (got != nfrag)
      fail($sformatf("fragment %0d: missing fragment (%0d fragments, expected %0d)", got, got,
                     nfrag));

    // The buffer after the run.
    $readmemh(f_ea, ed_lines, 0, nea - 1);
    if (clear_val !== ed_lines[0][23:0])
      fail($sformatf("early-depth buffer: clear value expected 0x%06h actual 0x%06h",
                     ed_lines[0][23:0], clear_val));
    for (int i = 1; i < nea; i++) begin
      int ix;
      ix = int'(ed_lines[i][39:24]) * EdW + int'(ed_lines[i][55:40]);
      if (ed_get(ix) !== ed_lines[i][23:0])
        fail($sformatf("early-depth buffer: pixel (%0d, %0d) expected 0x%06h actual 0x%06h",
                       ed_lines[i][55:40], ed_lines[i][39:24], ed_lines[i][23:0], ed_get(ix)));
    end
    begin
      int ndiff;
      ndiff = 0;
      // A plain for: Icarus 11 can loop forever on foreach over an empty queue.
      for (int j = 0; j < written.size(); j++) if (ed_val[written[j]] != clear_val) ndiff++;
      if (ndiff != nea - 1)
        fail($sformatf("early-depth buffer: %0d pixels differ from the clear value, expected %0d",
                       ndiff, nea - 1));
    end

    $display("PASS: %0d ops (%0d triangles, %0d register writes, %0d clears), %0d fragments; early depth %0d reads, %0d writes, %0d clears; %0d cycles",
             nops, ntri, nwr, nclr, got, n_reads, n_writes, n_clears, cyc);
    $finish;
  end

endmodule : pica_rast_replay_tb
