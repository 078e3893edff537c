// pica_tev: the six texture combiners and the combiner buffer (TEV), bit-exact with
// `pica_model::tev::combine` (model/src/tev.rs; seed 002 GPUREG_TEXENV*), as an 18-deep
// pipeline: each pica_tev_stage takes three clocks (sources and operands; products; divides,
// mode select and scale), one fragment accepted per clock, 18 clocks from input to output.
// What rides along (tag, stage inputs, earlier stages' results) waits in two mid registers
// beside each stage's first two clocks. The whole pipeline stalls while the output is held
// (in_ready_o = !out_valid_o || out_ready_i): simple, and it keeps fragments in order, which
// the fragment operations after TEV need.
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

  // Pipeline register s holds the fragment after stage s: its stage-independent inputs, its
  // tag and the outputs of stages 0..s (higher slots stay zero). Mid registers m (one clock)
  // and n (two clocks) hold what entered stage s that long ago (the stage holds its operands
  // and products itself).
  logic [NumStages-1:0] valid_q, mvalid_q, nvalid_q;
  logic [31:0]          tag_q     [NumStages];
  logic [31:0]          mtag_q    [NumStages];
  logic [31:0]          ntag_q    [NumStages];
  logic [31:0]          pri_q     [NumStages-1];
  logic [31:0]          fpri_q    [NumStages-1];
  logic [31:0]          fsec_q    [NumStages-1];
  logic [127:0]         tex_q     [NumStages-1];
  logic [31:0]          mpri_q    [NumStages-1];
  logic [31:0]          mfpri_q   [NumStages-1];
  logic [31:0]          mfsec_q   [NumStages-1];
  logic [127:0]         mtex_q    [NumStages-1];
  logic [31:0]          npri_q    [NumStages-1];
  logic [31:0]          nfpri_q   [NumStages-1];
  logic [31:0]          nfsec_q   [NumStages-1];
  logic [127:0]         ntex_q    [NumStages-1];
  logic [191:0]         color_q   [NumStages];
  logic [191:0]         buffer_q  [NumStages];
  logic [191:0]         mcolor_q  [NumStages];
  logic [191:0]         mbuffer_q [NumStages];
  logic [191:0]         ncolor_q  [NumStages];
  logic [191:0]         nbuffer_q [NumStages];

  // What each stage computes from the register before it (stage 0: from the input port).
  logic [31:0]  st_pri  [NumStages];
  logic [31:0]  st_fpri [NumStages];
  logic [31:0]  st_fsec [NumStages];
  logic [127:0] st_tex  [NumStages];
  logic [31:0]  st_prev [NumStages];
  logic [31:0]  st_pbuf [NumStages];
  logic [31:0]  st_color[NumStages];
  logic [31:0]  st_buf  [NumStages];

  logic advance;
  assign advance    = !valid_q[NumStages-1] || out_ready_i;
  assign in_ready_o = advance;

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
      assign st_prev[s] = color_q[s-1][32*(s-1) +: 32];
      assign st_pbuf[s] = buffer_q[s-1][32*(s-1) +: 32];
    end

    pica_tev_stage #(.Stage(s)) u_stage (
      .clk_i,
      .rst_ni,
      .en_i            (advance),
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

    // What enters mid register s: the input port (s = 0) or pipeline register s-1.
    logic        mvalid_d;
    logic [31:0] mtag_d;
    logic [191:0] mcolor_d, mbuffer_d;
    if (s == 0) begin : g_d_first
      assign mvalid_d  = in_valid_i;
      assign mtag_d    = in_tag_i;
      assign mcolor_d  = '0;
      assign mbuffer_d = '0;
    end else begin : g_d_next
      assign mvalid_d  = valid_q[s-1];
      assign mtag_d    = tag_q[s-1];
      assign mcolor_d  = color_q[s-1];
      assign mbuffer_d = buffer_q[s-1];
    end

    // Pipeline register s: mid register n plus stage s's results in slot s.
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        mvalid_q[s]  <= 1'b0;
        mtag_q[s]    <= '0;
        mcolor_q[s]  <= '0;
        mbuffer_q[s] <= '0;
        nvalid_q[s]  <= 1'b0;
        ntag_q[s]    <= '0;
        ncolor_q[s]  <= '0;
        nbuffer_q[s] <= '0;
        valid_q[s]   <= 1'b0;
        tag_q[s]     <= '0;
        color_q[s]   <= '0;
        buffer_q[s]  <= '0;
      end else if (advance) begin
        mvalid_q[s]  <= mvalid_d;
        mtag_q[s]    <= mtag_d;
        mcolor_q[s]  <= mcolor_d;
        mbuffer_q[s] <= mbuffer_d;
        nvalid_q[s]  <= mvalid_q[s];
        ntag_q[s]    <= mtag_q[s];
        ncolor_q[s]  <= mcolor_q[s];
        nbuffer_q[s] <= mbuffer_q[s];
        valid_q[s]   <= nvalid_q[s];
        tag_q[s]     <= ntag_q[s];
        color_q[s]   <= ncolor_q[s] | (192'(st_color[s]) << (32*s));
        buffer_q[s]  <= nbuffer_q[s] | (192'(st_buf[s]) << (32*s));
      end
    end

    // The stage-independent inputs ride along to the register before the last stage (the
    // last stage reads them from register 4; register 5 does not need them).
    if (s < NumStages - 1) begin : g_inputs
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          mpri_q[s]  <= '0;
          mfpri_q[s] <= '0;
          mfsec_q[s] <= '0;
          mtex_q[s]  <= '0;
          npri_q[s]  <= '0;
          nfpri_q[s] <= '0;
          nfsec_q[s] <= '0;
          ntex_q[s]  <= '0;
          pri_q[s]   <= '0;
          fpri_q[s]  <= '0;
          fsec_q[s]  <= '0;
          tex_q[s]   <= '0;
        end else if (advance) begin
          mpri_q[s]  <= st_pri[s];
          mfpri_q[s] <= st_fpri[s];
          mfsec_q[s] <= st_fsec[s];
          mtex_q[s]  <= st_tex[s];
          npri_q[s]  <= mpri_q[s];
          nfpri_q[s] <= mfpri_q[s];
          nfsec_q[s] <= mfsec_q[s];
          ntex_q[s]  <= mtex_q[s];
          pri_q[s]   <= npri_q[s];
          fpri_q[s]  <= nfpri_q[s];
          fsec_q[s]  <= nfsec_q[s];
          tex_q[s]   <= ntex_q[s];
        end
      end
    end
  end

  assign out_valid_o        = valid_q[NumStages-1];
  assign out_tag_o          = tag_q[NumStages-1];
  assign out_stage_color_o  = color_q[NumStages-1];
  assign out_stage_buffer_o = buffer_q[NumStages-1];
  assign out_color_o        = color_q[NumStages-1][32*(NumStages-1) +: 32];
  assign idle_o             = (valid_q == '0) && (mvalid_q == '0) && (nvalid_q == '0);

endmodule : pica_tev
