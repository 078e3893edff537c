// pica_tev_top: the stage top of the texture combiners for stage-level co-verification
// (design.md "Stage-level co-verification"): pica_tev with a register write port that holds
// the TEXENV registers (IDs from pica_regs_pkg) and flat fragment ports. The Verilated `tev*`
// models (rtl-bridge/src/tev_stage.rs, RtlTev) and the replay testbench
// (rtl-bridge/tb/pica_tev_replay_tb.sv) are built from it.
//
// Register write port: a write of cfg_data_i to register cfg_id_i (a GPUREG ID, full 32-bit
// value after the byte-mask merge, as REGS applied it) is stored at the clock edge when
// cfg_we_i is high; IDs other than the 32 TEXENV registers TEV reads are ignored. Write only
// while idle_o is high: pica_tev's stages read the stored registers combinationally, so a
// write with fragments in flight would change them mid-fragment (the model applies register
// writes between fragments). Simulation flags such a write.
//
// Injected bugs (defines, see pica_tev_stage.sv and rtl/README.md "pica_tev"):
//   INJECT_TEV_SCALE_SAT  the 4x scale wraps (low 8 bits of x << 2) instead of saturating;
//   INJECT_TEV_BUFFER     stages 1-4 take the RGB buffer-input bit of the next stage (stage 4:
//                         none), i.e. the UPDATE_BUFFER RGB bits act one stage early.
module pica_tev_top (
  input  logic          clk_i,
  input  logic          rst_ni,

  input  logic          cfg_we_i,
  input  logic [9:0]    cfg_id_i,
  input  logic [31:0]   cfg_data_i,

  input  logic          in_valid_i,
  output logic          in_ready_o,
  input  logic [31:0]   in_tag_i,
  input  logic [31:0]   in_primary_i,
  input  logic [31:0]   in_frag_primary_i,
  input  logic [31:0]   in_frag_secondary_i,
  input  logic [127:0]  in_tex_i,

  output logic          out_valid_o,
  input  logic          out_ready_i,
  output logic [31:0]   out_tag_o,
  output logic [31:0]   out_color_o,
  output logic [191:0]  out_stage_color_o,
  output logic [191:0]  out_stage_buffer_o,

  output logic          idle_o
);

  // Slot s*5 + r of the configuration (pica_tev's cfg_i layout): stage s register r.
  localparam int NumCfg = 32;
  localparam logic [9:0] RegStage0   = 10'(pica_regs_pkg::REG_TEXENV0_SOURCE);
  localparam logic [9:0] RegStage1   = 10'(pica_regs_pkg::REG_TEXENV1_SOURCE);
  localparam logic [9:0] RegStage2   = 10'(pica_regs_pkg::REG_TEXENV2_SOURCE);
  localparam logic [9:0] RegStage3   = 10'(pica_regs_pkg::REG_TEXENV3_SOURCE);
  localparam logic [9:0] RegStage4   = 10'(pica_regs_pkg::REG_TEXENV4_SOURCE);
  localparam logic [9:0] RegStage5   = 10'(pica_regs_pkg::REG_TEXENV5_SOURCE);
  localparam logic [9:0] RegUpdate   = 10'(pica_regs_pkg::REG_TEXENV_UPDATE_BUFFER);
  localparam logic [9:0] RegBufColor = 10'(pica_regs_pkg::REG_TEXENV_BUFFER_COLOR);

  // The register ID each slot holds (OPERAND .. SCALE follow SOURCE at +1 .. +4, seed 002
  // register map; model tev::STAGE_BASE).
  function automatic logic [9:0] slot_id(input int slot);  /* verilator coverage_off */
    logic [9:0] base;
    unique case (slot / 5)
      0:       base = RegStage0;
      1:       base = RegStage1;
      2:       base = RegStage2;
      3:       base = RegStage3;
      4:       base = RegStage4;
      default: base = RegStage5;
    endcase
    if (slot == 30)      slot_id = RegUpdate;
    else if (slot == 31) slot_id = RegBufColor;
    else                 slot_id = base + 10'(slot % 5);
  endfunction  /* verilator coverage_on */

  logic [1023:0] cfg_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_q <= '0;
    end else if (cfg_we_i) begin
      for (int i = 0; i < NumCfg; i++) begin
        if (cfg_id_i == slot_id(i)) cfg_q[32*i +: 32] <= cfg_data_i;
      end
    end
  end

  pica_tev u_tev (
    .clk_i,
    .rst_ni,
    .cfg_i(cfg_q),
    .in_valid_i,
    .in_ready_o,
    .in_tag_i,
    .in_primary_i,
    .in_frag_primary_i,
    .in_frag_secondary_i,
    .in_tex_i,
    .out_valid_o,
    .out_ready_i,
    .out_tag_o,
    .out_color_o,
    .out_stage_color_o,
    .out_stage_buffer_o,
    .idle_o
  );

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset
    end else if (cfg_we_i && !idle_o) begin
      $error("pica_tev_top: register write with fragments in flight");
    end
  end
`endif

endmodule : pica_tev_top
