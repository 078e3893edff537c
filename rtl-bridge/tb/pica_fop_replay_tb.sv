// pica_fop_replay_tb: replays a FOP stage bundle (kind "stage:fop"; the FOP contract,
// vectors/src/stage_fop.rs) on pica_fop_top and compares the pixel beats, the outcome (hang)
// and the final memory with the model's.
//
// Plain SystemVerilog, no DPI: runs under Icarus (iverilog -g2012) and Verilator
// (--binary --timing). Plusargs:
//
//   +ops=FILE +nops=N          ops.hex: N operations, 96 bits each: [95:88] kind (0 register
//                              write: [41:32] ID, [31:0] value; 1 fragment: [87:72] x,
//                              [71:56] y, [55:32] depth, [31:0] colour r | g<<8 | b<<16 | a<<24)
//   +memK=FILE +memK_base=HEX +memK_words=N
//                              initial memory image K (K = 0..3, up to 4, from 0 up without
//                              gaps): N 32-bit little-endian words from byte address HEX (4-aligned)
//   +pixels=FILE +npixels=M    pixel.hex: the M expected pixel beats (pica_chan_pkg::pixel_beat_t
//                              lines), compared in order, every field but cycle (the tag the
//                              testbench gives each fragment, its index, is checked too)
//   +finalK=FILE               expected words of image K after the run (optional per image)
//   +outcome=finished|hang     expected outcome (default finished)
//   +hang_kind=unmapped|reserved_format (or 1|2)  +hang_buffer=color|depth (or 0|1)
//   +hang_addr=HEX (unmapped)  +hang_value=N (reserved_format)
//   +latency=N                 memory: every response N clocks after the earliest (default 0:
//                              valid the clock after the request handshake)
//   +lat_max=N +lat_seed=S     memory: random latency 0..N per request (xorshift32 seeded S,
//                              S != 0), and mem_req_ready_i low about 1 clock in 4
//   +ready_seed=S              output backpressure: out_ready_i from a 16-bit LFSR seeded S
//                              (about 3/4 of the clocks); 0 (default) = always ready
//   +max_cycles=N              give up after N clocks (default 10,000,000)
//
// Memory model: word arrays per image. A request is performed in the clock it is accepted
// (reads take the word then, writes change the bytes under be then) and answered in order
// after the latency. Mapped addresses (VRAM 0x18000000-0x185FFFFF, FCRAM 0x20000000-0x27FFFFFF)
// outside every image read 0 and ignore writes; unmapped addresses answer err (nothing
// written). A word in several images is written in all of them and read from the first.
//
// Sequence: reset; the operations in order: a register write waits for idle_o, a fragment is
// held on the input until taken. After a hang no further operation is fed. At the end the
// testbench waits for idle_o, then checks the number of beats, the outcome and hang fields,
// and every image against its +finalK file.
//
// Prints PASS: ..., or FAIL: <first mismatch, by field, beat index, x, y> and stops with
// $fatal (non-zero exit in both simulators).
`timescale 1ns / 1ps
module pica_fop_replay_tb;
  import pica_chan_pkg::*;

  localparam int MaxOps  = 1 << 18;
  localparam int MaxPix  = 1 << 18;
  localparam int MaxMem  = 1 << 22;     // words of all images together
  localparam int MaxImg  = 4;
  localparam int QDepth  = 256;         // responses in flight

  logic clk = 1'b0;
  logic rst_ni = 1'b0;
  always #5 clk = ~clk;

  // ---- DUT
  logic        cfg_we;
  logic [9:0]  cfg_id;
  logic [31:0] cfg_data;
  logic        in_valid, in_ready;
  logic [31:0] in_tag, in_color;
  logic [15:0] in_x, in_y;
  logic [23:0] in_depth;
  logic        out_valid;
  logic        out_ready = 1'b1;
  logic [31:0] out_tag, out_color_addr, out_color, out_depth_addr, out_ds;
  logic [15:0] out_x, out_y;
  logic [7:0]  out_flags;
  logic        req_valid, req_we;
  logic        req_ready = 1'b1;
  logic [31:0] req_addr, req_wdata;
  logic [3:0]  req_be;
  logic        rsp_valid = 1'b0;
  logic        rsp_ready;
  logic [31:0] rsp_rdata = '0;
  logic        rsp_err = 1'b0;
  logic        hang, hang_buffer, idle;
  logic [1:0]  hang_kind;
  logic [31:0] hang_addr;
  logic [2:0]  hang_value;

  pica_fop_top dut (
    .clk_i(clk), .rst_ni,
    .cfg_we_i(cfg_we), .cfg_id_i(cfg_id), .cfg_data_i(cfg_data),
    .in_valid_i(in_valid), .in_ready_o(in_ready), .in_tag_i(in_tag), .in_x_i(in_x),
    .in_y_i(in_y), .in_depth_i(in_depth), .in_color_i(in_color),
    .out_valid_o(out_valid), .out_ready_i(out_ready), .out_tag_o(out_tag), .out_x_o(out_x),
    .out_y_o(out_y), .out_color_addr_o(out_color_addr), .out_color_o(out_color),
    .out_depth_addr_o(out_depth_addr), .out_depth_stencil_o(out_ds), .out_flags_o(out_flags),
    .mem_req_valid_o(req_valid), .mem_req_ready_i(req_ready), .mem_req_we_o(req_we),
    .mem_req_addr_o(req_addr), .mem_req_be_o(req_be), .mem_req_wdata_o(req_wdata),
    .mem_rsp_valid_i(rsp_valid), .mem_rsp_ready_o(rsp_ready), .mem_rsp_rdata_i(rsp_rdata),
    .mem_rsp_err_i(rsp_err),
    .hang_o(hang), .hang_kind_o(hang_kind), .hang_buffer_o(hang_buffer),
    .hang_addr_o(hang_addr), .hang_value_o(hang_value), .idle_o(idle)
  );

  // ---- Bundle contents
  logic [95:0]             ops [MaxOps];
  logic [PIXEL_BEAT_W-1:0] pix [MaxPix];
  bit   [31:0]             mem [MaxMem];     // images back to back
  bit   [31:0]             fin [MaxMem];     // expected final words, same layout
  int                      nimg;
  logic [31:0]             img_base [MaxImg];
  int                      img_words [MaxImg];
  int                      img_off [MaxImg];
  bit                      img_has_final [MaxImg];

  string  f_ops, f_pix, outcome, s_kind, s_buf;
  int     nops, npix, latency, lat_max, ready_seed;
  logic [31:0] lat_seed, exp_hang_addr;
  int     exp_hang_kind, exp_hang_buf, exp_hang_value;
  longint max_cycles;

  task automatic fail(input string msg);
    $display("FAIL: %s", msg);
    $fatal(1, "pica_fop_replay_tb: FAIL");
  endtask

  task automatic tick;
    @(posedge clk);
    #1;
  endtask

  // ---- Memory model
  function automatic bit mapped(input logic [31:0] a);
    mapped = (a >= 32'h1800_0000 && a < 32'h1860_0000) || (a >= 32'h2000_0000 && a < 32'h2800_0000);
  endfunction

  // Index of word `a` in `mem` for image k, or -1.
  function automatic int index_in(input int k, input logic [31:0] a);
    logic [32:0] lo, hi;
    lo = {1'b0, img_base[k]};
    hi = lo + 33'(img_words[k]) * 33'd4;
    if ({1'b0, a} >= lo && {1'b0, a} < hi) index_in = img_off[k] + int'((a - img_base[k]) >> 2);
    else index_in = -1;
  endfunction

  function automatic logic [31:0] mem_read(input logic [31:0] a);
    int ix;
    mem_read = 32'd0;
    for (int k = nimg - 1; k >= 0; k--) begin
      ix = index_in(k, a);
      if (ix >= 0) mem_read = mem[ix];
    end
  endfunction

  task automatic mem_write(input logic [31:0] a, input logic [3:0] be, input logic [31:0] d);
    int ix;
    logic [31:0] w;
    for (int k = 0; k < nimg; k++) begin
      ix = index_in(k, a);
      if (ix >= 0) begin
        w = mem[ix];
        for (int b = 0; b < 4; b++) if (be[b]) w[8*b +: 8] = d[8*b +: 8];
        mem[ix] = w;
      end
    end
  endtask

  // Response queue (in request order).
  logic [31:0] q_data [QDepth];
  bit          q_err [QDepth];
  longint      q_due [QDepth];
  int          q_head, q_tail;
  longint      cyc;
  logic [31:0] rng;
  logic [15:0] lfsr;
  longint      n_reads, n_writes, n_probes;

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
        if (hang) fail($sformatf("memory request at 0x%08h after the hang", req_addr));
        if (req_addr[1:0] != 2'b00) fail($sformatf("unaligned memory request at 0x%08h", req_addr));
        if (q_tail - q_head >= QDepth) fail("more than QDepth memory requests in flight");
        if (lat_seed != 0) begin
          rng = xorshift(rng);
          lat = (lat_max > 0) ? longint'(rng % (lat_max + 1)) : 0;
        end else begin
          lat = longint'(latency);
        end
        q_err[q_tail % QDepth]  = !mapped(req_addr);
        q_data[q_tail % QDepth] = 32'd0;
        q_due[q_tail % QDepth]  = cyc + 1 + lat;
        if (mapped(req_addr)) begin
          if (req_we) mem_write(req_addr, req_be, req_wdata);
          else q_data[q_tail % QDepth] = mem_read(req_addr);
        end
        if (req_we) n_writes++;
        else if (req_be == 4'd0) n_probes++;
        else n_reads++;
        q_tail = q_tail + 1;
      end
      cyc = cyc + 1;
    end
    #1;
    if (q_head != q_tail && q_due[q_head % QDepth] <= cyc) begin
      rsp_valid = 1'b1;
      rsp_rdata = q_data[q_head % QDepth];
      rsp_err   = q_err[q_head % QDepth];
    end else begin
      rsp_valid = 1'b0;
      rsp_rdata = 32'hDEAD_BEEF;
      rsp_err   = 1'b0;
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

  // ---- Beat check
  int got;

  task automatic field(input int bi, input pixel_beat_t e, input string name,
                       input logic [31:0] ev, input logic [31:0] av);
    if (ev !== av)
      fail($sformatf("pixel beat %0d (x %0d, y %0d): field %s expected 0x%0h actual 0x%0h",
                     bi, e.x, e.y, name, ev, av));
  endtask

  always @(posedge clk) begin
    if (rst_ni && out_valid && out_ready) begin
      pixel_beat_t e;
      if (got >= npix)
        fail($sformatf("pixel beat %0d (x %0d, y %0d): extra beat (expected %0d)", got, out_x,
                       out_y, npix));
      e = pix[got];
      field(got, e, "tag", got, out_tag);
      field(got, e, "x", 32'(e.x), 32'(out_x));
      field(got, e, "y", 32'(e.y), 32'(out_y));
      field(got, e, "color_addr", e.color_addr, out_color_addr);
      field(got, e, "color", e.color, out_color);
      field(got, e, "depth_addr", e.depth_addr, out_depth_addr);
      field(got, e, "depth_stencil", e.depth_stencil, out_ds);
      field(got, e, "flags", 32'(e.flags), 32'(out_flags));
      got = got + 1;
    end
  end

  // ---- Main
  logic [95:0] op;
  longint      guard;
  logic        taken, stop;
  int          nfrag;
  string       key, fname;

  initial begin
    cfg_we = 1'b0; cfg_id = '0; cfg_data = '0;
    in_valid = 1'b0; in_tag = '0; in_x = '0; in_y = '0; in_depth = '0; in_color = '0;
    got = 0; q_head = 0; q_tail = 0; cyc = 0; n_reads = 0; n_writes = 0; n_probes = 0;

    if (!$value$plusargs("ops=%s", f_ops)) fail("missing +ops=FILE");
    if (!$value$plusargs("nops=%d", nops)) fail("missing +nops=N");
    if (!$value$plusargs("pixels=%s", f_pix)) fail("missing +pixels=FILE");
    if (!$value$plusargs("npixels=%d", npix)) fail("missing +npixels=M");
    if (!$value$plusargs("outcome=%s", outcome)) outcome = "finished";
    if (!$value$plusargs("latency=%d", latency)) latency = 0;
    if (!$value$plusargs("lat_max=%d", lat_max)) lat_max = 0;
    if (!$value$plusargs("lat_seed=%d", lat_seed)) lat_seed = 0;
    if (!$value$plusargs("ready_seed=%d", ready_seed)) ready_seed = 0;
    if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 10_000_000;
    if (nops < 0 || nops > MaxOps) fail($sformatf("nops %0d exceeds %0d", nops, MaxOps));
    if (npix < 0 || npix > MaxPix) fail($sformatf("npixels %0d exceeds %0d", npix, MaxPix));
    if (outcome != "finished" && outcome != "hang")
      fail($sformatf("unknown outcome '%s' (finished or hang)", outcome));
    exp_hang_kind = 0; exp_hang_buf = 0; exp_hang_addr = '0; exp_hang_value = 0;
    if (outcome == "hang") begin
      if (!$value$plusargs("hang_kind=%s", s_kind)) fail("missing +hang_kind= for outcome hang");
      if (s_kind == "unmapped" || s_kind == "1") exp_hang_kind = 1;
      else if (s_kind == "reserved_format" || s_kind == "2") exp_hang_kind = 2;
      else fail($sformatf("unknown hang_kind '%s'", s_kind));
      if (!$value$plusargs("hang_buffer=%s", s_buf)) fail("missing +hang_buffer=");
      if (s_buf == "color" || s_buf == "0") exp_hang_buf = 0;
      else if (s_buf == "depth" || s_buf == "1") exp_hang_buf = 1;
      else fail($sformatf("unknown hang_buffer '%s'", s_buf));
      if (exp_hang_kind == 1 && !$value$plusargs("hang_addr=%h", exp_hang_addr))
        fail("missing +hang_addr=HEX");
      if (exp_hang_kind == 2 && !$value$plusargs("hang_value=%d", exp_hang_value))
        fail("missing +hang_value=N");
    end
    rng  = lat_seed;
    lfsr = 16'(ready_seed) | 16'h1;

    // Images.
    nimg = 0;
    for (int k = 0; k < MaxImg && nimg == k; k++) begin
      int words;
      logic [31:0] base;
      key = $sformatf("mem%0d=%%s", k);
      if ($value$plusargs(key, fname)) begin
      key = $sformatf("mem%0d_base=%%h", k);
      if (!$value$plusargs(key, base)) fail($sformatf("missing +mem%0d_base=HEX", k));
      key = $sformatf("mem%0d_words=%%d", k);
      if (!$value$plusargs(key, words)) fail($sformatf("missing +mem%0d_words=N", k));
      if (base[1:0] != 2'b00) fail($sformatf("image %0d base 0x%08h is not 4-aligned", k, base));
      img_base[k]  = base;
      img_words[k] = words;
      img_off[k]   = (k == 0) ? 0 : img_off[k-1] + img_words[k-1];
      if (words < 0 || img_off[k] + words > MaxMem)
        fail($sformatf("images exceed %0d words", MaxMem));
      if (words > 0) $readmemh(fname, mem, img_off[k], img_off[k] + words - 1);
      key = $sformatf("final%0d=%%s", k);
      img_has_final[k] = $value$plusargs(key, fname);
      if (img_has_final[k] && words > 0) $readmemh(fname, fin, img_off[k], img_off[k] + words - 1);
      nimg = k + 1;
      end
    end

    if (nops > 0) $readmemh(f_ops, ops, 0, nops - 1);
    if (npix > 0) $readmemh(f_pix, pix, 0, npix - 1);

    repeat (2) @(posedge clk);
    #1;
    rst_ni = 1'b1;

    nfrag = 0;
    stop  = 1'b0;
    for (int i = 0; i < nops && !stop; i++) begin
      op = ops[i];
      if (op[95:88] == 8'd0) begin
        // A register write waits for the stage to be idle.
        guard = 0;
        while (!idle) begin
          tick;
          guard++;
          if (guard > max_cycles) fail($sformatf("op %0d: stage never idle", i));
        end
        if (hang) begin
          stop = 1'b1;
        end else begin
          cfg_we = 1'b1; cfg_id = op[41:32]; cfg_data = op[31:0];
          tick;
          cfg_we = 1'b0;
        end
      end else if (op[95:88] == 8'd1) begin
        if (hang) begin
          stop = 1'b1;
        end else begin
          in_valid = 1'b1;
          in_tag = nfrag; in_x = op[87:72]; in_y = op[71:56]; in_depth = op[55:32];
          in_color = op[31:0];
          // Held until taken (in_ready as sampled at the edge) or the stage hangs.
          guard = 0;
          taken = 1'b0;
          while (!taken && !stop) begin
            @(posedge clk);
            taken = in_ready;
            if (!taken && hang) stop = 1'b1;
            guard++;
            if (guard > max_cycles) fail($sformatf("op %0d: fragment %0d never taken", i, nfrag));
          end
          #1;
          in_valid = 1'b0;
          nfrag++;
        end
      end else begin
        fail($sformatf("op %0d: unknown kind %0d", i, op[95:88]));
      end
    end

    // Drain.
    guard = 0;
    while (!idle) begin
      tick;
      guard++;
      if (guard > max_cycles) fail($sformatf("stage never idle at the end (%0d beats)", got));
    end
    repeat (4) tick;

    if (got != npix)
      fail($sformatf("pixel beat %0d: missing beat (%0d beats, expected %0d; hang %0d)", got,
                     got, npix, hang));
    if (outcome == "finished") begin
      if (hang)
        fail($sformatf("outcome: expected finished, actual hang kind %0d buffer %0d addr 0x%08h value %0d",
                       hang_kind, hang_buffer, hang_addr, hang_value));
    end else begin
      if (!hang) fail("outcome: expected hang, actual finished");
      if (int'(hang_kind) != exp_hang_kind)
        fail($sformatf("hang: field kind expected %0d actual %0d", exp_hang_kind, hang_kind));
      if (int'(hang_buffer) != exp_hang_buf)
        fail($sformatf("hang: field buffer expected %0d actual %0d", exp_hang_buf, hang_buffer));
      if (exp_hang_kind == 1 && hang_addr !== exp_hang_addr)
        fail($sformatf("hang: field addr expected 0x%08h actual 0x%08h", exp_hang_addr, hang_addr));
      if (exp_hang_kind == 2 && int'(hang_value) != exp_hang_value)
        fail($sformatf("hang: field value expected %0d actual %0d", exp_hang_value, hang_value));
    end

    for (int k = 0; k < nimg; k++) begin
      if (img_has_final[k]) begin
        for (int w = 0; w < img_words[k]; w++) begin
          if (mem[img_off[k] + w] !== fin[img_off[k] + w])
            fail($sformatf("final memory image %0d word 0x%08h: expected 0x%08h actual 0x%08h",
                           k, img_base[k] + 32'(4 * w), fin[img_off[k] + w], mem[img_off[k] + w]));
        end
      end
    end

    $display("PASS: %0d ops, %0d fragments, %0d pixel beats, %s, %0d images; %0d reads, %0d writes, %0d probes, %0d cycles",
             nops, nfrag, got, outcome, nimg, n_reads, n_writes, n_probes, cyc);
    $finish;
  end

endmodule : pica_fop_replay_tb
