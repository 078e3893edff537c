// pica_fop_top: the stage top of the fragment operations for stage-level co-verification
// (design.md "Stage-level co-verification"; rtl/README.md "pica_fop"): pica_fop with a
// register write port that holds the 20 registers of pica_model::fop::CONFIG_REGS (IDs from
// pica_regs_pkg), and its word request/response memory port turned into an AXI4 master by
// pica_axi_master (issue 37: the RTL's framebuffer traffic behind one AXI4 port; the harness
// serves it with rtl-bridge/src/axi AxiServer, the replay testbench with its own subordinate).
// The Verilated `fop*` models (rtl-bridge/src/fop_stage.rs, RtlFop) and the replay testbench
// (rtl-bridge/tb/pica_fop_replay_tb.sv) are built from it.
//
// Register write port: a write of cfg_data_i to register cfg_id_i (a GPUREG ID, the full
// 32-bit value after the byte-mask merge) is stored at the clock edge when cfg_we_i is high;
// other IDs are ignored. Write only while idle_o: the stage reads the registers while a
// fragment is in flight (the model applies register writes between fragments). Simulation
// flags a write with a fragment in flight.
//
// Injected bugs (defines, off by default; rtl/README.md "Bug injection"):
//   INJECT_FOP_BLEND_FACTOR   ONE_MINUS_SRC_ALPHA uses 255 - dst.a (pica_fop_blend)
//   INJECT_FOP_STENCIL_ZFAIL  stencil pass + depth fail runs the z-pass action (pica_fop)
//   INJECT_FOP_TILE32         32x32 block-row offset from memory row y' + 1 (pica_fop_addr)
module pica_fop_top (
  input  logic        clk_i,
  input  logic        rst_ni,              // async active-low

  input  logic        cfg_we_i,
  input  logic [9:0]  cfg_id_i,
  input  logic [31:0] cfg_data_i,

  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [31:0] in_tag_i,
  input  logic [15:0] in_x_i,
  input  logic [15:0] in_y_i,
  input  logic [23:0] in_depth_i,
  input  logic [31:0] in_color_i,

  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [31:0] out_tag_o,
  output logic [15:0] out_x_o,
  output logic [15:0] out_y_o,
  output logic [31:0] out_color_addr_o,
  output logic [31:0] out_color_o,
  output logic [31:0] out_depth_addr_o,
  output logic [31:0] out_depth_stencil_o,
  output logic [7:0]  out_flags_o,

  // The framebuffer's AXI4 master port (pica_axi_master: 32-bit data, single-beat INCR
  // bursts, IDs 0..7, up to eight transactions in flight, responses in any order across IDs).
  output logic        mem_awvalid_o,
  input  logic        mem_awready_i,
  output logic [2:0]  mem_awid_o,
  output logic [31:0] mem_awaddr_o,
  output logic [7:0]  mem_awlen_o,
  output logic [2:0]  mem_awsize_o,
  output logic [1:0]  mem_awburst_o,
  output logic        mem_wvalid_o,
  input  logic        mem_wready_i,
  output logic [31:0] mem_wdata_o,
  output logic [3:0]  mem_wstrb_o,
  output logic        mem_wlast_o,
  input  logic        mem_bvalid_i,
  output logic        mem_bready_o,
  input  logic [2:0]  mem_bid_i,
  input  logic [1:0]  mem_bresp_i,
  output logic        mem_arvalid_o,
  input  logic        mem_arready_i,
  output logic [2:0]  mem_arid_o,
  output logic [31:0] mem_araddr_o,
  output logic [7:0]  mem_arlen_o,
  output logic [2:0]  mem_arsize_o,
  output logic [1:0]  mem_arburst_o,
  input  logic        mem_rvalid_i,
  output logic        mem_rready_o,
  input  logic [2:0]  mem_rid_i,
  input  logic [31:0] mem_rdata_i,
  input  logic [1:0]  mem_rresp_i,
  input  logic        mem_rlast_i,

  output logic        hang_o,
  output logic [1:0]  hang_kind_o,
  output logic        hang_buffer_o,
  output logic [31:0] hang_addr_o,
  output logic [2:0]  hang_value_o,

  output logic        idle_o
);

  localparam int NumCfg = 20;

  // pica_model::fop::CONFIG_REGS, in that order (slot k of pica_fop's cfg_i).
  function automatic logic [9:0] slot_id(input int slot);  /* verilator coverage_off */
    unique case (slot)
      0:       slot_id = 10'(pica_regs_pkg::REG_COLOR_OPERATION);
      1:       slot_id = 10'(pica_regs_pkg::REG_BLEND_FUNC);
      2:       slot_id = 10'(pica_regs_pkg::REG_LOGIC_OP);
      3:       slot_id = 10'(pica_regs_pkg::REG_BLEND_COLOR);
      4:       slot_id = 10'(pica_regs_pkg::REG_FRAGOP_ALPHA_TEST);
      5:       slot_id = 10'(pica_regs_pkg::REG_STENCIL_TEST);
      6:       slot_id = 10'(pica_regs_pkg::REG_STENCIL_OP);
      7:       slot_id = 10'(pica_regs_pkg::REG_DEPTH_COLOR_MASK);
      8:       slot_id = 10'(pica_regs_pkg::REG_COLORBUFFER_READ);
      9:       slot_id = 10'(pica_regs_pkg::REG_COLORBUFFER_WRITE);
      10:      slot_id = 10'(pica_regs_pkg::REG_DEPTHBUFFER_READ);
      11:      slot_id = 10'(pica_regs_pkg::REG_DEPTHBUFFER_WRITE);
      12:      slot_id = 10'(pica_regs_pkg::REG_DEPTHBUFFER_FORMAT);
      13:      slot_id = 10'(pica_regs_pkg::REG_COLORBUFFER_FORMAT);
      14:      slot_id = 10'(pica_regs_pkg::REG_FRAMEBUFFER_BLOCK32);
      15:      slot_id = 10'(pica_regs_pkg::REG_DEPTHBUFFER_LOC);
      16:      slot_id = 10'(pica_regs_pkg::REG_COLORBUFFER_LOC);
      17:      slot_id = 10'(pica_regs_pkg::REG_FRAMEBUFFER_DIM);
      18:      slot_id = 10'(pica_regs_pkg::REG_GAS_DELTAZ_DEPTH);
      default: slot_id = 10'(pica_regs_pkg::REG_FRAGOP_SHADOW);
    endcase
  endfunction  /* verilator coverage_on */

  logic [32*NumCfg-1:0] cfg_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_q <= '0;
    end else if (cfg_we_i) begin
      for (int i = 0; i < NumCfg; i++) begin
        if (cfg_id_i == slot_id(i)) cfg_q[32*i +: 32] <= cfg_data_i;
      end
    end
  end

  // pica_fop's word port, between it and the AXI4 master.
  logic        req_valid, req_ready, req_we, rsp_valid, rsp_ready, rsp_err;
  logic [31:0] req_addr, req_wdata, rsp_rdata;
  logic [3:0]  req_be;
  // Idle: pica_fop between fragments and no AXI transaction in flight (a write the stage has
  // finished with may still be on its way to memory).
  logic        fop_idle, axi_idle;
  assign idle_o = fop_idle && axi_idle;

  pica_fop_pipe u_fop (
    .clk_i,
    .rst_ni,
    .cfg_i(cfg_q),
    .cfg_we_i,
    .in_valid_i,
    .in_ready_o,
    .in_tag_i,
    .in_x_i,
    .in_y_i,
    .in_depth_i,
    .in_color_i,
    .out_valid_o,
    .out_ready_i,
    .out_tag_o,
    .out_x_o,
    .out_y_o,
    .out_color_addr_o,
    .out_color_o,
    .out_depth_addr_o,
    .out_depth_stencil_o,
    .out_flags_o,
    .mem_req_valid_o(req_valid),
    .mem_req_ready_i(req_ready),
    .mem_req_we_o   (req_we),
    .mem_req_addr_o (req_addr),
    .mem_req_be_o   (req_be),
    .mem_req_wdata_o(req_wdata),
    .mem_rsp_valid_i(rsp_valid),
    .mem_rsp_ready_o(rsp_ready),
    .mem_rsp_rdata_i(rsp_rdata),
    .mem_rsp_err_i  (rsp_err),
    .hang_o,
    .hang_kind_o,
    .hang_buffer_o,
    .hang_addr_o,
    .hang_value_o,
    .idle_o     (fop_idle)
  );

  pica_axi_master #(
    .IdW        (3),
    .Outstanding(8)
  ) u_axi (
    .clk_i,
    .rst_ni,
    .req_valid_i(req_valid),
    .req_ready_o(req_ready),
    .req_we_i   (req_we),
    .req_addr_i (req_addr),
    .req_be_i   (req_be),
    .req_wdata_i(req_wdata),
    .rsp_valid_o(rsp_valid),
    .rsp_ready_i(rsp_ready),
    .rsp_rdata_o(rsp_rdata),
    .rsp_err_o  (rsp_err),
    .idle_o     (axi_idle),
    .awvalid_o  (mem_awvalid_o),
    .awready_i  (mem_awready_i),
    .awid_o     (mem_awid_o),
    .awaddr_o   (mem_awaddr_o),
    .awlen_o    (mem_awlen_o),
    .awsize_o   (mem_awsize_o),
    .awburst_o  (mem_awburst_o),
    .wvalid_o   (mem_wvalid_o),
    .wready_i   (mem_wready_i),
    .wdata_o    (mem_wdata_o),
    .wstrb_o    (mem_wstrb_o),
    .wlast_o    (mem_wlast_o),
    .bvalid_i   (mem_bvalid_i),
    .bready_o   (mem_bready_o),
    .bid_i      (mem_bid_i),
    .bresp_i    (mem_bresp_i),
    .arvalid_o  (mem_arvalid_o),
    .arready_i  (mem_arready_i),
    .arid_o     (mem_arid_o),
    .araddr_o   (mem_araddr_o),
    .arlen_o    (mem_arlen_o),
    .arsize_o   (mem_arsize_o),
    .arburst_o  (mem_arburst_o),
    .rvalid_i   (mem_rvalid_i),
    .rready_o   (mem_rready_o),
    .rid_i      (mem_rid_i),
    .rdata_i    (mem_rdata_i),
    .rresp_i    (mem_rresp_i),
    .rlast_i    (mem_rlast_i)
  );

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset
    end else if (cfg_we_i && !fop_idle) begin
      $error("pica_fop_top: register write with a fragment in flight");
    end
  end
`endif

endmodule : pica_fop_top
