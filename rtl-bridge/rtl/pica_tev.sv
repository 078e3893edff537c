// pica_tev: the six texture combiners and the combiner buffer (TEV), bit-exact with
// `pica_model::tev::combine` (model/src/tev.rs; seed 002 GPUREG_TEXENV*), as an 18-deep
// pipeline: each pica_tev_stage takes three clocks (sources and operands; products; divides,
// mode select and scale), one fragment accepted per clock, 18 clocks from input to output.
// What rides along (tag, stage inputs, earlier stages' results) waits in two mid registers
// beside each stage's first two clocks.
//
// The pipeline never stalls: its data registers have no enable and no reset (only the valid
// bits are reset), and the last stage writes into a skid FIFO in LUT RAM (pica_ram_fifo,
// OutDepth entries) that the output port reads. A fragment is accepted only while fewer than
// OutDepth fragments are in flight or waiting in the FIFO (credits: in_ready_o), so the FIFO
// never overflows however long the output is held, and fragments stay in order, which the
// fragment operations after TEV need. Why: with one `advance` enable on every flop (the
// earlier design, in_ready_o = !out_valid_o || out_ready_i) the three-clock TEV placed at an
// estimated 56 MHz on the LFE5U-85F but its router did not converge (docs/src/rtl.md); an
// enable and a reset on 11,000 flops are two nets of that fan-out.
//
// The fragment carries the stage inputs that do not depend on the stage (model tev::Inputs:
// primary colour, fragment-lighting primary and secondary colours, textures 0-3) and a
// pass-through tag (pixel x, y for the `combiner` beats). Out come the final colour and, per
// stage, the stage's output and the buffer after it: the six `combiner` beats of the model
// (beat.rs CombinerBeat: `color`, `buffer`).
//
// Configuration: cfg_i holds the registers the model reads, flat, 32 bits each:
//   cfg_i[32*(5*s + r) +: 32]  stage s (0-5), r = 0 SOURCE, 1 OPERAND, 2 COMBINER, 3 COLOR,
//                              4 SCALE (GPUREG_TEXENVs_*)
//   cfg_i[32*30 +: 32]         GPUREG_TEXENV_UPDATE_BUFFER
//   cfg_i[32*31 +: 32]         GPUREG_TEXENV_BUFFER_COLOR
// Every stage reads cfg_i directly, so cfg_i must not change while a fragment is in flight
// (idle_o high); the model applies register writes between fragments (pica_tev_top's write
// port and the bridge drain the pipeline first).
//
// Colours are r | g << 8 | b << 16 | a << 24.
module pica_tev (
  input  logic          clk_i,
  input  logic          rst_ni,

  input  logic [1023:0] cfg_i,

  input  logic          in_valid_i,
  output logic          in_ready_o,
  input  logic [31:0]   in_tag_i,            // passed through (the bridge: x | y << 16)
  input  logic [31:0]   in_primary_i,
  input  logic [31:0]   in_frag_primary_i,
  input  logic [31:0]   in_frag_secondary_i,
  input  logic [127:0]  in_tex_i,            // texture n at [32*n +: 32]

  output logic          out_valid_o,
  input  logic          out_ready_i,
  output logic [31:0]   out_tag_o,
  output logic [31:0]   out_color_o,         // the last stage's output
  output logic [191:0]  out_stage_color_o,   // stage s's output at [32*s +: 32]
  output logic [191:0]  out_stage_buffer_o,  // the buffer after stage s at [32*s +: 32]

  output logic          idle_o               // no fragment in flight
);

  localparam int NumStages = 6;
  localparam int CfgUpdate = 30;
  localparam int CfgBufColor = 31;
  // What "previous buffer" reads in stage 0: zero (seed 002 GPUREG_TEXENVi_SOURCE; model
  // STAGE0_PREVIOUS_BUFFER).
  localparam logic [31:0] Stage0PrevBuffer = 32'd0;
  // The skid FIFO: at least the pipeline's 18 clocks, so that a steady stream with the output
  // always ready never waits for a credit; 32 is two 16-deep LUT RAM cells per 4 bits.
  localparam int OutDepth = 32;
  localparam int OutW = 32 + 192 + 192;   // tag, stage colours, stage buffers

  // Per stage s: mid registers m (one clock) and n (two clocks) hold what entered the stage
  // that long ago, pipeline register s (s < 5) the fragment after the stage: its
  // stage-independent inputs, its tag and the outputs of stages 0..s. Only live slots exist:
  // the wires below read zero above them.
  logic [NumStages-1:0] mvalid_q, nvalid_q;
  logic [NumStages-2:0] valid_q;
  logic [31:0]          tag_q     [NumStages-1];
  logic [31:0]          pri_q     [NumStages-1];
  logic [31:0]          fpri_q    [NumStages-1];
  logic [31:0]          fsec_q    [NumStages-1];
  logic [127:0]         tex_q     [NumStages-1];
  logic [191:0]         color_w   [NumStages-1];   // pipeline register s's results, zero-filled
  logic [191:0]         buffer_w  [NumStages-1];

  // What each stage computes from the register before it (stage 0: from the input port).
  logic [31:0]  st_pri  [NumStages];
  logic [31:0]  st_fpri [NumStages];
  logic [31:0]  st_fsec [NumStages];
  logic [127:0] st_tex  [NumStages];
  logic [31:0]  st_prev [NumStages];
  logic [31:0]  st_pbuf [NumStages];
  logic [31:0]  st_color[NumStages];
  logic [31:0]  st_buf  [NumStages];

  // Credits: fragments accepted and not yet taken from the output port.
  logic [$clog2(OutDepth):0] cnt_q;
  logic accept, pop;
  assign in_ready_o = cnt_q != ($clog2(OutDepth)+1)'(OutDepth);
  assign accept     = in_valid_i && in_ready_o;
  assign pop        = out_valid_o && out_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_q <= '0;
    else         cnt_q <= cnt_q + {{$clog2(OutDepth){1'b0}}, accept} - {{$clog2(OutDepth){1'b0}}, pop};
  end

  // The skid FIFO's write: the last stage's results beside its n register.
  logic             fifo_push;
  logic [OutW-1:0]  fifo_wdata;

  for (genvar s = 0; s < NumStages; s++) begin : g_stage
    if (s == 0) begin : g_first
      // Stage 0's "previous" is the primary colour (seed 002; model tev::combine).
      assign st_pri[s]  = in_primary_i;
      assign st_fpri[s] = in_frag_primary_i;
      assign st_fsec[s] = in_frag_secondary_i;
      assign st_tex[s]  = in_tex_i;
      assign st_prev[s] = in_primary_i;
      assign st_pbuf[s] = Stage0PrevBuffer;
    end else begin : g_next
      assign st_pri[s]  = pri_q[s-1];
      assign st_fpri[s] = fpri_q[s-1];
      assign st_fsec[s] = fsec_q[s-1];
      assign st_tex[s]  = tex_q[s-1];
      assign st_prev[s] = color_w[s-1][32*(s-1) +: 32];
      assign st_pbuf[s] = buffer_w[s-1][32*(s-1) +: 32];
    end

    pica_tev_stage #(.Stage(s)) u_stage (
      .clk_i,
      .rst_ni,
      .en_i            (1'b1),
      .primary_i       (st_pri[s]),
      .frag_primary_i  (st_fpri[s]),
      .frag_secondary_i(st_fsec[s]),
      .tex_i           (st_tex[s]),
      .prev_i          (st_prev[s]),
      .prev_buf_i      (st_pbuf[s]),
      .source_i        (cfg_i[32*(5*s + 0) +: 32]),
      .operand_i       (cfg_i[32*(5*s + 1) +: 32]),
      .combiner_i      (cfg_i[32*(5*s + 2) +: 32]),
      .const_i         (cfg_i[32*(5*s + 3) +: 32]),
      .scale_i         (cfg_i[32*(5*s + 4) +: 32]),
      .update_i        (cfg_i[32*CfgUpdate +: 32]),
      .buffer_color_i  (cfg_i[32*CfgBufColor +: 32]),
      .color_o         (st_color[s]),
      .buffer_o        (st_buf[s])
    );

    // The valid bits (with valid_q below): the only reset flops of the pipeline.
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        mvalid_q[s] <= 1'b0;
        nvalid_q[s] <= 1'b0;
      end else begin
        mvalid_q[s] <= (s == 0) ? accept : valid_q[(s == 0) ? 0 : s-1];
        nvalid_q[s] <= mvalid_q[s];
      end
    end

    // The tag and the earlier stages' results (32*s bits each) beside the stage's first two
    // clocks.
    logic [31:0] mtag_q, ntag_q;
    always_ff @(posedge clk_i) begin
      mtag_q <= (s == 0) ? in_tag_i : tag_q[(s == 0) ? 0 : s-1];
      ntag_q <= mtag_q;
    end

    // The stage's results joined to the earlier ones: into pipeline register s, or for the
    // last stage into the skid FIFO.
    logic [32*(s+1)-1:0] color_d, buffer_d;
    if (s == 0) begin : g_res_first
      assign color_d  = st_color[s];
      assign buffer_d = st_buf[s];
    end else begin : g_res_next
      logic [32*s-1:0] mcolor_q, mbuffer_q, ncolor_q, nbuffer_q;
      always_ff @(posedge clk_i) begin
        mcolor_q  <= color_w[s-1][32*s-1:0];
        mbuffer_q <= buffer_w[s-1][32*s-1:0];
        ncolor_q  <= mcolor_q;
        nbuffer_q <= mbuffer_q;
      end
      assign color_d  = {st_color[s], ncolor_q};
      assign buffer_d = {st_buf[s], nbuffer_q};
    end

    if (s < NumStages - 1) begin : g_reg
      logic [32*(s+1)-1:0] color_q, buffer_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) valid_q[s] <= 1'b0;
        else         valid_q[s] <= nvalid_q[s];
      end
      always_ff @(posedge clk_i) begin
        tag_q[s]  <= ntag_q;
        color_q   <= color_d;
        buffer_q  <= buffer_d;
      end
      assign color_w[s]  = 192'(color_q);
      assign buffer_w[s] = 192'(buffer_q);

      // The stage-independent inputs ride along to the register before the last stage (the
      // last stage reads them from register 4).
      logic [31:0]  mpri_q, mfpri_q, mfsec_q, npri_q, nfpri_q, nfsec_q;
      logic [127:0] mtex_q, ntex_q;
      always_ff @(posedge clk_i) begin
        mpri_q    <= st_pri[s];
        mfpri_q   <= st_fpri[s];
        mfsec_q   <= st_fsec[s];
        mtex_q    <= st_tex[s];
        npri_q    <= mpri_q;
        nfpri_q   <= mfpri_q;
        nfsec_q   <= mfsec_q;
        ntex_q    <= mtex_q;
        pri_q[s]  <= npri_q;
        fpri_q[s] <= nfpri_q;
        fsec_q[s] <= nfsec_q;
        tex_q[s]  <= ntex_q;
      end
    end else begin : g_last
      assign fifo_push  = nvalid_q[s];
      assign fifo_wdata = {buffer_d, color_d, ntag_q};
    end
  end

  // The last stage's pipeline register is the FIFO.
  logic [OutW-1:0] fifo_rdata;
  pica_ram_fifo #(.Width(OutW), .Depth(OutDepth)) u_out (
    .clk_i,
    .rst_ni,
    .push_i (fifo_push),
    .wdata_i(fifo_wdata),
    .pop_i  (pop),
    .valid_o(out_valid_o),
    .rdata_o(fifo_rdata)
  );

  assign out_tag_o          = fifo_rdata[31:0];
  assign out_stage_color_o  = fifo_rdata[32 +: 192];
  assign out_stage_buffer_o = fifo_rdata[224 +: 192];
  assign out_color_o        = fifo_rdata[32 + 32*(NumStages-1) +: 32];
  assign idle_o             = cnt_q == '0;

endmodule : pica_tev
