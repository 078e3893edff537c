// pica_rast_top: the stage top of clipping and rasterization for stage-level co-verification
// (design.md "Stage-level co-verification"; rtl/README.md "pica_rast_top"): pica_clip_pipe ->
// pica_rast with a register write port that holds the registers of pica_model::clip::CONFIG_REGS
// and rast::CONFIG_REGS (IDs from pica_regs_pkg), and the early-depth buffer behind a port.
// The Verilated `rast*` models (rtl-bridge/src/rast_stage.rs, RtlRast) and the replay testbench
// (rtl-bridge/tb/pica_rast_replay_tb.sv) are built from it.
//
// Register write port: a write of cfg_data_i to register cfg_id_i (a GPUREG ID, the full
// 32-bit value after the byte-mask merge) is stored at the clock edge when cfg_we_i is high;
// other IDs are ignored. A write to GPUREG_EARLYDEPTH_CLEAR (0x063), whatever its value, is the
// early-depth clear event: pica_rast clears its buffer to GPUREG_EARLYDEPTH_DATA's clear value
// as held then (rast::Rasterizer::take_triggers), through the early-depth port (op 2). Write
// only while idle_o: both stages read the registers while a triangle is in flight (the model
// latches them per triangle). Simulation flags a write in flight.
//
// Injected bugs (defines, off by default; rtl/README.md "Bug injection"):
//   INJECT_RAST_FILL_RULE     the top-left tie broken the wrong way (pica_rast_edge)
//   INJECT_RAST_PERSP         texcoord0.u interpolated linearly in screen space (pica_rast)
//   INJECT_RAST_SLOT_EARLY    a triangle slot freed when its walk ends, not at its last
//                             pixel's issue (pica_rast; pipelined-only)
//   INJECT_RAST_CREDIT        the output FIFO's credit check off by one (pica_rast;
//                             pipelined-only)
//   INJECT_CLIP_PLANE_ORDER   the z <= 0 and z >= -w planes tested in swapped order (pica_clip)
//   INJECT_CLIP_FAST_OVERWRITE  CLIP's fast path overwrites a held triangle (pica_clip_pipe)
//   INJECT_CLIP_FAST_ORDER    CLIP's general path overtakes a held fast triangle (pica_clip_pipe)
module pica_rast_top #(
  // pica_rast's interpolation lanes: clocks per fragment = ceil(37 / Lanes) with a texture
  // unit on. The area knob of the whole-GPU budget (docs/src/rtl.md); the `lanes7` build
  // verifies 7.
  parameter int Lanes = 13
) (
  input  logic          clk_i,
  input  logic          rst_ni,              // async active-low

  input  logic          cfg_we_i,
  input  logic [9:0]    cfg_id_i,
  input  logic [31:0]   cfg_data_i,

  // Triangles in (PA -> CLIP): seq and 3 vertices x 24 semantics, f24; vertex k semantic s at
  // [24*(24*k + s) +: 24].
  input  logic          in_valid_i,
  output logic          in_ready_o,
  input  logic [31:0]   in_seq_i,
  input  logic [1727:0] in_v_i,

  // Fragments out (RAST -> TEX), one per handshake, in the model's order.
  output logic          out_valid_o,
  input  logic          out_ready_i,
  output logic [31:0]   out_tri_o,         // Fragment::tri (the triangle's seq)
  output logic [15:0]   out_x_o,
  output logic [15:0]   out_y_o,
  output logic [23:0]   out_depth_o,       // Fragment::depth (depth_bits wide, upper bits 0)
  output logic [31:0]   out_color_o,       // r | g<<8 | b<<16 | a<<24
  output logic [575:0]  out_attr_o,        // semantic s at [24*s +: 24]
  output logic [287:0]  out_tex_deriv_o,   // texcoord t component c at [24*(4*t + c) +: 24]

  // Early-depth buffer port (one 24-bit value per framebuffer pixel behind it): request /
  // response, valid/ready, one response per request, in order, at least one clock later.
  output logic          ed_req_valid_o,
  input  logic          ed_req_ready_i,
  output logic [1:0]    ed_req_op_o,       // 0 read (x, y), 1 write (x, y, data), 2 clear (data)
  output logic [15:0]   ed_req_x_o,
  output logic [15:0]   ed_req_y_o,
  output logic [23:0]   ed_req_data_o,
  input  logic          ed_rsp_valid_i,
  output logic          ed_rsp_ready_o,
  input  logic [23:0]   ed_rsp_data_i,     // read: the stored value; write / clear: ignored

  output logic          idle_o             // nothing in flight (CLIP, RAST, the port)
);

  localparam int NumClipCfg = 11;
  localparam int NumRastCfg = 11;
  localparam int NumCfg     = NumClipCfg + NumRastCfg;

  // pica_model::clip::CONFIG_REGS then rast::CONFIG_REGS, in that order (slot k of cfg_q;
  // pica_clip's cfg_i is slots 0-10, pica_rast's slots 11-21).
  function automatic logic [9:0] slot_id(input int slot);  /* verilator coverage_off */
    unique case (slot)
      0:       slot_id = 10'(pica_regs_pkg::REG_FACECULLING_CONFIG);
      1:       slot_id = 10'(pica_regs_pkg::REG_VIEWPORT_WIDTH);
      2:       slot_id = 10'(pica_regs_pkg::REG_VIEWPORT_HEIGHT);
      3:       slot_id = 10'(pica_regs_pkg::REG_FRAGOP_CLIP);
      4:       slot_id = 10'(pica_regs_pkg::REG_FRAGOP_CLIP_DATA0);
      5:       slot_id = 10'(pica_regs_pkg::REG_FRAGOP_CLIP_DATA1);
      6:       slot_id = 10'(pica_regs_pkg::REG_FRAGOP_CLIP_DATA2);
      7:       slot_id = 10'(pica_regs_pkg::REG_FRAGOP_CLIP_DATA3);
      8:       slot_id = 10'(pica_regs_pkg::REG_DEPTHMAP_SCALE);
      9:       slot_id = 10'(pica_regs_pkg::REG_DEPTHMAP_OFFSET);
      10:      slot_id = 10'(pica_regs_pkg::REG_VIEWPORT_XY);
      11:      slot_id = 10'(pica_regs_pkg::REG_EARLYDEPTH_FUNC);
      12:      slot_id = 10'(pica_regs_pkg::REG_EARLYDEPTH_TEST1);
      13:      slot_id = 10'(pica_regs_pkg::REG_SCISSORTEST_MODE);
      14:      slot_id = 10'(pica_regs_pkg::REG_SCISSORTEST_POS);
      15:      slot_id = 10'(pica_regs_pkg::REG_SCISSORTEST_DIM);
      16:      slot_id = 10'(pica_regs_pkg::REG_EARLYDEPTH_DATA);
      17:      slot_id = 10'(pica_regs_pkg::REG_DEPTHMAP_ENABLE);
      18:      slot_id = 10'(pica_regs_pkg::REG_TEXUNIT_CONFIG);
      19:      slot_id = 10'(pica_regs_pkg::REG_DEPTHBUFFER_FORMAT);
      20:      slot_id = 10'(pica_regs_pkg::REG_EARLYDEPTH_TEST2);
      default: slot_id = 10'(pica_regs_pkg::REG_FRAMEBUFFER_DIM);
    endcase
  endfunction  /* verilator coverage_on */

  localparam logic [9:0] IdEarlyDepthClear = 10'(pica_regs_pkg::REG_EARLYDEPTH_CLEAR);

  logic [32*NumCfg-1:0] cfg_q;
  logic                 clear;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_q <= '0;
    end else if (cfg_we_i) begin
      for (int i = 0; i < NumCfg; i++) begin
        if (cfg_id_i == slot_id(i)) cfg_q[32*i +: 32] <= cfg_data_i;
      end
    end
  end

  // The clear event: pica_rast latches EARLYDEPTH_DATA's clear value from cfg_q in this clock.
  assign clear = cfg_we_i && (cfg_id_i == IdEarlyDepthClear);

  // CLIP -> RAST.
  logic          cr_valid, cr_ready;
  logic [31:0]   cr_seq;
  logic [71:0]   cr_x, cr_y, cr_z, cr_inv_w;
  logic [1727:0] cr_v;
  logic          clip_idle, rast_idle;

  pica_clip_pipe u_clip (
    .clk_i,
    .rst_ni,
    .cfg_i(cfg_q[32*NumClipCfg-1:0]),
    .in_valid_i,
    .in_ready_o,
    .in_seq_i,
    .in_v_i,
    .out_valid_o(cr_valid),
    .out_ready_i(cr_ready),
    .out_seq_o(cr_seq),
    .out_x_o(cr_x),
    .out_y_o(cr_y),
    .out_z_o(cr_z),
    .out_inv_w_o(cr_inv_w),
    .out_v_o(cr_v),
    .idle_o(clip_idle)
  );

  pica_rast #(.Lanes(Lanes)) u_rast (
    .clk_i,
    .rst_ni,
    .cfg_i(cfg_q[32*NumCfg-1:32*NumClipCfg]),
    .clear_i(clear),
    .in_valid_i(cr_valid),
    .in_ready_o(cr_ready),
    .in_seq_i(cr_seq),
    .in_x_i(cr_x),
    .in_y_i(cr_y),
    .in_z_i(cr_z),
    .in_inv_w_i(cr_inv_w),
    .in_v_i(cr_v),
    .out_valid_o,
    .out_ready_i,
    .out_tri_o,
    .out_x_o,
    .out_y_o,
    .out_depth_o,
    .out_color_o,
    .out_attr_o,
    .out_tex_deriv_o,
    .ed_req_valid_o,
    .ed_req_ready_i,
    .ed_req_op_o,
    .ed_req_x_o,
    .ed_req_y_o,
    .ed_req_data_o,
    .ed_rsp_valid_i,
    .ed_rsp_ready_o,
    .ed_rsp_data_i,
    .idle_o(rast_idle)
  );

  assign idle_o = clip_idle && rast_idle && !cr_valid;

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset
    end else if (cfg_we_i && !idle_o) begin
      $error("pica_rast_top: register write with a triangle in flight");
    end
  end
`endif

endmodule : pica_rast_top
