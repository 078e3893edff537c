// pica_regs: the register file and its data-transfer FIFOs (model/src/regfile/{mod,packer,
// unit,luts}.rs), cycle-exact with the model.
//
// Retires one register write per cycle (timing::REGS_WRITES_PER_CYCLE = 1) from the CP->REGS
// FIFO: merges the parameter into the 32-bit register under the byte mask (beat.rs
// merge_masked), shows the beat on the trace port in that cycle, and performs the write's side
// effect (RegFile::apply). IDs above 0x2FF change nothing; their beat value is 0.
//
// Storage choices:
// - Register array: a 768 x 32 RAM with two synchronous read ports (block RAM on an FPGA): one
//   reads the word a clock before the write that merges into it (at the FIFO's next head, with
//   the write of that clock forwarded), the other is the debug read. The 17 registers that
//   side effects read or advance (FIFO index registers, COM_MODE, GEOSTAGE_CONFIG,
//   CMDBUF_ADDRn/SIZEn) live only in shadow flops instead: a data write updates both the data
//   register and its index register in one cycle, which a single-write RAM cannot, and the
//   side-effect logic reads them without extra RAM read ports.
// - Per-unit code (4096 x 32), operand descriptors (128 x 32), float uniforms (96 x 96 bits,
//   {w,z,y,x} f24) and the LUTs / fixed attributes are pica_ram instances (synchronous write,
//   synchronous debug read: block RAM). Unit scalars (bool/int uniforms, entry point, output
//   mask, input config, permutation) are flops.
// Everything is zero at power-on, like RegFile::new (UNVERIFIED(hw) there).
//
// Side effects are decoded from the generated package (pica_regs_pkg): the FIFO index IDs, the
// ALIAS_* data groups and GPUREG_GAS_LUT_DATA, GPUREG_CMDBUF_JUMPn. These are exactly the
// FifoIndex / FifoData / Trigger(CmdbufJump) effects of model/regs/registers.toml; other triggers
// have no state effect here.
module pica_regs (
  input  logic        clk_i,
  input  logic        rst_ni,

  // Head of the CP->REGS FIFO; popped whenever valid (one write per cycle).
  input  logic        wr_valid_i,
  input  logic [16:0] wr_id_i,
  input  logic [3:0]  wr_mask_i,
  input  logic [31:0] wr_param_i,
  output logic        wr_pop_o,
  // The ID at the FIFO's head in the next clock (the head register's input, pica_top), valid
  // or not: the register RAM is read and the ID decoded a clock ahead of the write.
  input  logic [16:0] wr_next_id_i,

  // CMDBUF jump target to the CP (pushed in the cycle the jump write is applied).
  output logic        redir_push_o,
  output logic [31:0] redir_addr_o,
  output logic [31:0] redir_size_o,

  // Trace: the beat applied this cycle.
  output logic        trace_valid_o,
  output logic [16:0] trace_id_o,
  output logic [3:0]  trace_mask_o,
  output logic [31:0] trace_param_o,
  output logic [31:0] trace_value_o,

  // Shader-unit configuration: every applied write that changes a unit's configuration, as one
  // beat of pica_sh's configuration port (kinds and bank bits there; rtl/README.md "pica_top").
  output logic        shcfg_valid_o,
  output logic [1:0]  shcfg_bank_o,
  output logic [3:0]  shcfg_kind_o,
  output logic [11:0] shcfg_addr_o,
  output logic [95:0] shcfg_data_o,

  // Debug read port (synchronous, map in rtl-bridge/rtl/README.md).
  input  logic        dbg_req_i,
  input  logic [15:0] dbg_addr_i,
  output logic [31:0] dbg_rdata_o
);

  // ---------------------------------------------------------------------------------------------
  // Constants from the generated package (Yosys 0.23 has no `import`, so names are qualified once
  // here).
  localparam int NumRegs  = pica_regs_pkg::REG_COUNT;  // 0x300 IDs with storage
  localparam int NumUnits = 4;                          // regfile/unit.rs NUM_UNITS
  localparam int GsUnit   = 3;                          // unit.rs GS_UNIT
  localparam int CodeWords = 4096;                      // unit.rs CODE_WORDS
  localparam int OpdescEntries = 128;                   // unit.rs OPDESC_ENTRIES
  localparam int FloatUniforms = 96;                    // unit.rs FLOAT_UNIFORMS
  localparam int FixedAttribs = 12;                     // mod.rs FIXED_ATTRIBS
  localparam logic [3:0] ImmediateIndex = 4'hF;         // mod.rs IMMEDIATE_MODE_INDEX
  localparam int FogEntries = 128;                      // luts.rs FOG_ENTRIES
  localparam int GasEntries = 16;                       // luts.rs GAS_ENTRIES
  localparam int LightingTables = 24;                   // luts.rs LIGHTING_TABLES
  localparam int ProctexSlots = 5;                      // luts.rs PROCTEX_SIZES (128 x 3, 256 x 2)

  // Shadow-flop slots: registers read or advanced by side effects. Index [b] order = the model's
  // block_index (0 VSH, 1 GSH).
  localparam int SVshFu     = 0;
  localparam int SGshFu     = 1;
  localparam int SVshCode   = 2;
  localparam int SGshCode   = 3;
  localparam int SVshOpd    = 4;
  localparam int SGshOpd    = 5;
  localparam int SProctex   = 6;
  localparam int SFog       = 7;
  localparam int SLight     = 8;
  localparam int SGas       = 9;
  localparam int SFixed     = 10;
  localparam int SComMode   = 11;
  localparam int SGeostage  = 12;
  localparam int SSize0     = 13;
  localparam int SSize1     = 14;
  localparam int SAddr0     = 15;
  localparam int SAddr1     = 16;
  localparam int NumShadow  = 17;

  function automatic logic [9:0] shadow_id(input int s);
    unique case (s)
      SVshFu:    shadow_id = 10'(pica_regs_pkg::REG_VSH_FLOATUNIFORM_INDEX);
      SGshFu:    shadow_id = 10'(pica_regs_pkg::REG_GSH_FLOATUNIFORM_INDEX);
      SVshCode:  shadow_id = 10'(pica_regs_pkg::REG_VSH_CODETRANSFER_INDEX);
      SGshCode:  shadow_id = 10'(pica_regs_pkg::REG_GSH_CODETRANSFER_INDEX);
      SVshOpd:   shadow_id = 10'(pica_regs_pkg::REG_VSH_OPDESCS_INDEX);
      SGshOpd:   shadow_id = 10'(pica_regs_pkg::REG_GSH_OPDESCS_INDEX);
      SProctex:  shadow_id = 10'(pica_regs_pkg::REG_PROCTEX_LUT);
      SFog:      shadow_id = 10'(pica_regs_pkg::REG_FOG_LUT_INDEX);
      SLight:    shadow_id = 10'(pica_regs_pkg::REG_LIGHTING_LUT_INDEX);
      SGas:      shadow_id = 10'(pica_regs_pkg::REG_GAS_LUT_INDEX);
      SFixed:    shadow_id = 10'(pica_regs_pkg::REG_FIXEDATTRIB_INDEX);
      SComMode:  shadow_id = 10'(pica_regs_pkg::REG_VSH_COM_MODE);
      SGeostage: shadow_id = 10'(pica_regs_pkg::REG_GEOSTAGE_CONFIG);
      SSize0:    shadow_id = 10'(pica_regs_pkg::REG_CMDBUF_SIZE0);
      SSize1:    shadow_id = 10'(pica_regs_pkg::REG_CMDBUF_SIZE1);
      SAddr0:    shadow_id = 10'(pica_regs_pkg::REG_CMDBUF_ADDR0);
      SAddr1:    shadow_id = 10'(pica_regs_pkg::REG_CMDBUF_ADDR1);
      default:   shadow_id = 10'h3FF;  // no register
    endcase
  endfunction

  // Whether `id` is one of the `count` IDs from `first` (an alias group of data registers).
  function automatic logic in_group(input logic [16:0] id, input int first, input int count);
    in_group = (id >= 17'(first)) && (id < 17'(first + count));
  endfunction

  // Field positions (generated package).
  localparam int FuIdxLsb   = pica_regs_pkg::SH_FLOATUNIFORM_INDEX_INDEX_LSB;
  localparam int FuIdxW     = pica_regs_pkg::SH_FLOATUNIFORM_INDEX_INDEX_WIDTH;
  localparam int FuModeLsb  = pica_regs_pkg::SH_FLOATUNIFORM_INDEX_MODE_LSB;
  localparam int CodeOffLsb = pica_regs_pkg::SH_CODETRANSFER_INDEX_OFFSET_LSB;
  localparam int CodeOffW   = pica_regs_pkg::SH_CODETRANSFER_INDEX_OFFSET_WIDTH;
  localparam int OpdOffLsb  = pica_regs_pkg::SH_OPDESCS_INDEX_OFFSET_LSB;
  localparam int OpdOffW    = pica_regs_pkg::SH_OPDESCS_INDEX_OFFSET_WIDTH;
  localparam int PtIdxLsb   = pica_regs_pkg::PROCTEX_LUT_INDEX_LSB;
  localparam int PtIdxW     = pica_regs_pkg::PROCTEX_LUT_INDEX_WIDTH;
  localparam int PtTabLsb   = pica_regs_pkg::PROCTEX_LUT_TABLE_LSB;
  localparam int PtTabW     = pica_regs_pkg::PROCTEX_LUT_TABLE_WIDTH;
  localparam int FogIdxLsb  = pica_regs_pkg::FOG_LUT_INDEX_INDEX_LSB;
  localparam int FogIdxW    = pica_regs_pkg::FOG_LUT_INDEX_INDEX_WIDTH;
  localparam int LtIdxLsb   = pica_regs_pkg::LIGHTING_LUT_INDEX_INDEX_LSB;
  localparam int LtIdxW     = pica_regs_pkg::LIGHTING_LUT_INDEX_INDEX_WIDTH;
  localparam int LtTabLsb   = pica_regs_pkg::LIGHTING_LUT_INDEX_TABLE_LSB;
  localparam int LtTabW     = pica_regs_pkg::LIGHTING_LUT_INDEX_TABLE_WIDTH;
  localparam int GasIdxLsb  = pica_regs_pkg::GAS_LUT_INDEX_INDEX_LSB;
  localparam int GasIdxW    = pica_regs_pkg::GAS_LUT_INDEX_INDEX_WIDTH;
  localparam int FxIdxLsb   = pica_regs_pkg::FIXEDATTRIB_INDEX_INDEX_LSB;
  localparam int FxIdxW     = pica_regs_pkg::FIXEDATTRIB_INDEX_INDEX_WIDTH;
  localparam int SizeLsb    = pica_regs_pkg::CMDBUF_SIZE_SIZE_LSB;
  localparam int SizeW      = pica_regs_pkg::CMDBUF_SIZE_SIZE_WIDTH;
  localparam int AddrLsb    = pica_regs_pkg::CMDBUF_ADDR_ADDR_LSB;
  localparam int AddrW      = pica_regs_pkg::CMDBUF_ADDR_ADDR_WIDTH;
  localparam int ComGsLsb   = pica_regs_pkg::VSH_COM_MODE_GS_CONFIG_ENABLED_LSB;
  localparam int GeoModeLsb = pica_regs_pkg::GEOSTAGE_CONFIG_GS_MODE_LSB;
  localparam int GeoModeW   = pica_regs_pkg::GEOSTAGE_CONFIG_GS_MODE_WIDTH;
  localparam int BoolLsb    = pica_regs_pkg::SH_BOOLUNIFORM_BOOLS_LSB;
  localparam int EntryLsb   = pica_regs_pkg::SH_ENTRYPOINT_ENTRY_LSB;

  // Shader-block layout (regfile/mod.rs `off`): offsets from the block's BOOLUNIFORM register.
  localparam int VshBase   = pica_regs_pkg::REG_VSH_BOOLUNIFORM;
  localparam int GshBase   = pica_regs_pkg::REG_GSH_BOOLUNIFORM;
  localparam int OffInt0   = pica_regs_pkg::REG_VSH_INTUNIFORM_I0 - VshBase;
  localparam int OffInCfg  = pica_regs_pkg::REG_VSH_INPUTBUFFER_CONFIG - VshBase;
  localparam int OffEntry  = pica_regs_pkg::REG_VSH_ENTRYPOINT - VshBase;
  localparam int OffPermLo = pica_regs_pkg::REG_VSH_ATTRIBUTES_PERMUTATION_LOW - VshBase;
  localparam int OffPermHi = pica_regs_pkg::REG_VSH_ATTRIBUTES_PERMUTATION_HIGH - VshBase;
  localparam int OffOutmap = pica_regs_pkg::REG_VSH_OUTMAP_MASK - VshBase;
  localparam int BlockLen  = pica_regs_pkg::REG_VSH_OPDESCS_DATA0 - VshBase + 8;

  // ---------------------------------------------------------------------------------------------
  // The write applied this cycle.
  logic        apply;
  logic [16:0] id;
  logic        in_range;
  logic [9:0]  rid;

  assign apply    = wr_valid_i;
  assign wr_pop_o = wr_valid_i;
  assign id       = wr_id_i;
  assign rid      = id[9:0];

  // Register RAM (see header).
  logic [31:0] reg_mem [NumRegs];
  logic        reg_we;
  logic [31:0] value;

  initial begin
    // Power-on zero (RegFile::new).
    for (int i = 0; i < NumRegs; i++) reg_mem[i] = '0;
  end

  // Shadow flops.
  logic [31:0] shadow_q [NumShadow];
  logic [31:0] shadow_d [NumShadow];
  logic [NumShadow-1:0] sh_hit;

  // The old word, read a clock ahead. Why: an asynchronous read in the write's own clock put the
  // FIFO head, the range check, the 768-word LUT RAM and its read-mux tree in front of the merge
  // and of every RAM's write data, the front end's critical path (24.6 ns on the LFE5U-85F,
  // docs/src/rtl.md). pica_top gives the next clock's head ID (wr_next_id_i); the RAM is read
  // there into a register, and the range check and the shadow decode are registered beside it.
  // Each of these flops is loaded every clock from the ID the head register loads, so it always
  // describes the head REGS sees (a held or halted head is read again). The one write the
  // early read cannot see is the one of the same clock (the RAM reads the old word): it is
  // forwarded (fwd_val_q). The RAM's output (5.8 ns from the clock on the ECP5's block RAM)
  // then passes one 2:1 mux before the merge: a shadow register's word or the forwarded one is
  // selected from flops beside it (alt_q says which way), the shadows one-hot as an AND-OR
  // rather than a chain of 17 muxes.
  logic [9:0]  nx_rid;
  logic        nx_in_range;
  logic [NumShadow-1:0] nx_sh_hit;
  logic [31:0] reg_rd_q, fwd_val_q, sh_old, alt_old;
  logic        alt_q, sh_any_q;
  logic [NumShadow-1:0] sh_hit_q;

  assign nx_rid      = wr_next_id_i[9:0];
  assign nx_in_range = wr_next_id_i < 17'(NumRegs);

  always_ff @(posedge clk_i) begin
    reg_rd_q <= reg_mem[nx_in_range ? nx_rid : 10'd0];
  end

  always_comb begin
    for (int s = 0; s < NumShadow; s++) nx_sh_hit[s] = nx_in_range && (nx_rid == shadow_id(s));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // The decode of ID 0, the head register's reset value.
      sh_hit_q  <= '0;
      sh_any_q  <= 1'b0;
      in_range  <= 1'b1;
      alt_q     <= 1'b0;
      fwd_val_q <= '0;
    end else begin
      sh_hit_q  <= nx_sh_hit;
      sh_any_q  <= nx_sh_hit != '0;
      in_range  <= nx_in_range;
      alt_q     <= (nx_sh_hit != '0) || (reg_we && (rid == nx_rid));
      fwd_val_q <= value;
    end
  end

  assign sh_hit = sh_hit_q;

  always_comb begin
    sh_old = '0;
    for (int s = 0; s < NumShadow; s++) sh_old = sh_old | ({32{sh_hit_q[s]}} & shadow_q[s]);
  end
  assign alt_old = sh_any_q ? sh_old : fwd_val_q;

  logic [31:0] old;
  assign old = alt_q ? alt_old : reg_rd_q;

  // merge_masked (beat.rs): bit n of the mask enables byte n.
  logic [3:0] merge_mask;
`ifdef INJECT_MASK_BUG
  // Injected bug (contract "Bug injection"): byte lane 2 ignores the mask.
  assign merge_mask = wr_mask_i | 4'b0100;
`else
  assign merge_mask = wr_mask_i;
`endif

  always_comb begin
    for (int b = 0; b < 4; b++) begin
      value[8*b +: 8] = merge_mask[b] ? wr_param_i[8*b +: 8] : old[8*b +: 8];
    end
    if (!in_range) value = '0;
  end

  assign reg_we = apply && in_range && (sh_hit == '0);

  always_ff @(posedge clk_i) begin
    if (reg_we) reg_mem[rid] <= value;
  end

  assign trace_valid_o = apply;
  assign trace_id_o    = wr_id_i;
  assign trace_mask_o  = wr_mask_i;
  assign trace_param_o = wr_param_i;
  assign trace_value_o = value;

  // ---------------------------------------------------------------------------------------------
  // Side-effect decode (RegFile::apply).
  logic [1:0] fu_data, code_data, opd_data;  // [b]: 0 VSH, 1 GSH
  logic       pt_data, fog_data, lt_data, gas_data, fx_data;
  logic       jump0, jump1;

  always_comb begin
    fu_data[0]   = in_group(id, pica_regs_pkg::ALIAS_VSH_FLOATUNIFORM_DATA_FIRST,
                            pica_regs_pkg::ALIAS_VSH_FLOATUNIFORM_DATA_COUNT);
    fu_data[1]   = in_group(id, pica_regs_pkg::ALIAS_GSH_FLOATUNIFORM_DATA_FIRST,
                            pica_regs_pkg::ALIAS_GSH_FLOATUNIFORM_DATA_COUNT);
    code_data[0] = in_group(id, pica_regs_pkg::ALIAS_VSH_CODETRANSFER_DATA_FIRST,
                            pica_regs_pkg::ALIAS_VSH_CODETRANSFER_DATA_COUNT);
    code_data[1] = in_group(id, pica_regs_pkg::ALIAS_GSH_CODETRANSFER_DATA_FIRST,
                            pica_regs_pkg::ALIAS_GSH_CODETRANSFER_DATA_COUNT);
    opd_data[0]  = in_group(id, pica_regs_pkg::ALIAS_VSH_OPDESCS_DATA_FIRST,
                            pica_regs_pkg::ALIAS_VSH_OPDESCS_DATA_COUNT);
    opd_data[1]  = in_group(id, pica_regs_pkg::ALIAS_GSH_OPDESCS_DATA_FIRST,
                            pica_regs_pkg::ALIAS_GSH_OPDESCS_DATA_COUNT);
    pt_data      = in_group(id, pica_regs_pkg::ALIAS_PROCTEX_LUT_DATA_FIRST,
                            pica_regs_pkg::ALIAS_PROCTEX_LUT_DATA_COUNT);
    fog_data     = in_group(id, pica_regs_pkg::ALIAS_FOG_LUT_DATA_FIRST,
                            pica_regs_pkg::ALIAS_FOG_LUT_DATA_COUNT);
    lt_data      = in_group(id, pica_regs_pkg::ALIAS_LIGHTING_LUT_DATA_FIRST,
                            pica_regs_pkg::ALIAS_LIGHTING_LUT_DATA_COUNT);
    fx_data      = in_group(id, pica_regs_pkg::ALIAS_FIXEDATTRIB_DATA_FIRST,
                            pica_regs_pkg::ALIAS_FIXEDATTRIB_DATA_COUNT);
    gas_data     = id == 17'(pica_regs_pkg::REG_GAS_LUT_DATA);
    jump0        = id == 17'(pica_regs_pkg::REG_CMDBUF_JUMP0);
    jump1        = id == 17'(pica_regs_pkg::REG_CMDBUF_JUMP1);
  end

  // Which units a VSH-block write reaches (RegFile::vs_propagates_to_unit3): unit 3 too when
  // GPUREG_VSH_COM_MODE bit 0 is 0 and GPUREG_GEOSTAGE_CONFIG bits 0-1 are 0.
  logic prop3;
  assign prop3 = !shadow_q[SComMode][ComGsLsb]
                 && (shadow_q[SGeostage][GeoModeLsb +: GeoModeW] == '0);

  // targets(b): every configuration kind — uniforms, output mask, code, opdescs, and the entry
  // point, input config and permutation (RegFile::targets / unit3_owners with the default of
  // knob regs-unit3-config, `propagate`: model fact regs-unit3-config). The knob's `seed` value
  // (entry point, input config and permutation per block) is not built: a run with it and the
  // front end in RTL is refused (testbench stages::check_knobs, stage regs).
  function automatic logic targets(input logic gsh, input int u, input logic p3);
    if (gsh) targets = (u == GsUnit);
    else     targets = (u != GsUnit) || p3;
  endfunction

  // ---- Float-uniform packers (regfile/packer.rs), one per block.
  logic [31:0] fu_pend_q [2][3];
  logic [31:0] fu_pend_d [2][3];
  logic [1:0]  fu_cnt_q [2];
  logic [1:0]  fu_cnt_d [2];

  logic        fu_hit, fu_b, fu_f32, fu_complete;
  logic [31:0] fu_idxreg;
  logic [1:0]  fu_cnt;
  logic [FuIdxW-1:0] fu_idx;
  logic [95:0] fu_vec, fu_vec_f24, fu_vec_f32;
  logic        fu_store;

  assign fu_hit      = apply && (fu_data != '0);
  assign fu_b        = fu_data[1];
  assign fu_idxreg   = shadow_q[fu_b ? SGshFu : SVshFu];
  assign fu_f32      = fu_idxreg[FuModeLsb];
  assign fu_cnt      = fu_cnt_q[fu_b];
  assign fu_complete = fu_f32 ? (fu_cnt == 2'd3) : (fu_cnt == 2'd2);
  assign fu_idx      = fu_idxreg[FuIdxLsb +: FuIdxW];
  // pica-facts §1 / Azahar: an index of 96 or more drops the vec4 and does not advance.
  assign fu_store    = fu_hit && fu_complete && (fu_idx < FuIdxW'(FloatUniforms));

  // F24x3 (unpack_f24x3): the three words read as one 96-bit number W:Z:Y:X, first word on top,
  // which is exactly the {w,z,y,x} storage layout.
  function automatic logic [95:0] f24x3(input logic [31:0] w0, input logic [31:0] w1,
                                        input logic [31:0] x);
    f24x3 = {w0, w1, x};
`ifdef INJECT_PACKER_BUG
    // Injected bug (contract "Bug injection"): the y component's low 8 bits taken as 0.
    f24x3[24 +: 8] = 8'h00;
`endif
  endfunction

  assign fu_vec_f24 = f24x3(fu_pend_q[fu_b][0], fu_pend_q[fu_b][1], value);

  // F32x4: words W, Z, Y, X, each through F24::from_f32_bits.
  logic [23:0] cv_w, cv_z, cv_y, cv_x;
  pica_f32_to_f24 u_cv_w (.f32_i(fu_pend_q[fu_b][0]), .f24_o(cv_w));
  pica_f32_to_f24 u_cv_z (.f32_i(fu_pend_q[fu_b][1]), .f24_o(cv_z));
  pica_f32_to_f24 u_cv_y (.f32_i(fu_pend_q[fu_b][2]), .f24_o(cv_y));
  pica_f32_to_f24 u_cv_x (.f32_i(value),              .f24_o(cv_x));
  assign fu_vec_f32 = {cv_w, cv_z, cv_y, cv_x};
  // The vec4 as the SH stage's configuration beat carries it in the cycle of the write
  // (shcfg_data_o); REGS' own float-uniform RAMs take it a clock later (fwq_* below).
  assign fu_vec     = fu_f32 ? fu_vec_f32 : fu_vec_f24;

  // ---- The float-uniform RAMs' write, one clock after the write that completes the vec4.
  // Why: converting the completing word (F32 mode) in the cycle it is merged put the CP->REGS
  // FIFO head, the range check, the register RAM's read, the masked merge and F24::from_f32_bits
  // in front of the RAMs' write data in one clock, the front end's critical path (32.1 ns on
  // the LFE5U-85F, docs/src/rtl.md). The write is held in flops (fwq_*) and converted from them
  // in the next clock. The packer's pending words it reads then are still the ones of the
  // completing write (a completion only clears the count: fu_pend_d keeps them), and one
  // completion per clock at most means the one-deep queue never holds two. What the ports show
  // is unchanged: the debug read in the clock after the write sees the queued vec4 (fwq_byp_q
  // below), and the harness's direct state read overlays it (csrc/pica_shim.cpp).
  logic [NumUnits-1:0] fwq_units_q;  // the units whose RAM the vec4 goes to (targets())
  logic [6:0]       fwq_addr_q;
  logic             fwq_b_q, fwq_f32_q;
  logic [31:0]      fwq_x_q;         // the completing word (the merged value)
  logic [NumUnits-1:0] fwq_units_d;
  logic [95:0]      fwq_vec;
  logic [23:0]      wcv_w, wcv_z, wcv_y, wcv_x;

  always_comb begin
    for (int u = 0; u < NumUnits; u++) fwq_units_d[u] = fu_store && targets(fu_b, u, prop3);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fwq_units_q <= '0;
      fwq_addr_q  <= '0;
      fwq_b_q     <= 1'b0;
      fwq_f32_q   <= 1'b0;
      fwq_x_q     <= '0;
    end else begin
      fwq_units_q <= fwq_units_d;
      if (fu_store) begin
        fwq_addr_q <= fu_idx[6:0];
        fwq_b_q    <= fu_b;
        fwq_f32_q  <= fu_f32;
        fwq_x_q    <= value;
      end
    end
  end

  pica_f32_to_f24 u_wcv_w (.f32_i(fu_pend_q[fwq_b_q][0]), .f24_o(wcv_w));
  pica_f32_to_f24 u_wcv_z (.f32_i(fu_pend_q[fwq_b_q][1]), .f24_o(wcv_z));
  pica_f32_to_f24 u_wcv_y (.f32_i(fu_pend_q[fwq_b_q][2]), .f24_o(wcv_y));
  pica_f32_to_f24 u_wcv_x (.f32_i(fwq_x_q),               .f24_o(wcv_x));
  assign fwq_vec = fwq_f32_q ? {wcv_w, wcv_z, wcv_y, wcv_x}
                             : f24x3(fu_pend_q[fwq_b_q][0], fu_pend_q[fwq_b_q][1], fwq_x_q);

  // ---- Fixed-attribute packer (always F24x3).
  logic [31:0] fx_pend_q [2];
  logic [31:0] fx_pend_d [2];
  logic [1:0]  fx_cnt_q, fx_cnt_d;
  logic        fx_hit, fx_complete, fx_store;
  logic [FxIdxW-1:0] fx_idx;
  logic [95:0] fx_vec;

  assign fx_hit      = apply && fx_data;
  assign fx_complete = fx_cnt_q == 2'd2;
  assign fx_idx      = shadow_q[SFixed][FxIdxLsb +: FxIdxW];
  // Index 0-11 stores; 12-14 drop the vec4 but advance; 0xF (immediate mode) neither stores nor
  // advances (the vertex goes to a later stage's channel, not kept here).
  assign fx_store    = fx_hit && fx_complete && (fx_idx < FxIdxW'(FixedAttribs));
  assign fx_vec      = {fx_pend_q[0], fx_pend_q[1], value};

  // ---- Code / operand descriptors.
  logic                code_hit, code_b;
  logic [CodeOffW-1:0] code_off;
  logic                opd_hit, opd_b, opd_store;
  logic [OpdOffW-1:0]  opd_off;

  assign code_hit  = apply && (code_data != '0);
  assign code_b    = code_data[1];
  assign code_off  = shadow_q[code_b ? SGshCode : SVshCode][CodeOffLsb +: CodeOffW];
  assign opd_hit   = apply && (opd_data != '0);
  assign opd_b     = opd_data[1];
  assign opd_off   = shadow_q[opd_b ? SGshOpd : SVshOpd][OpdOffLsb +: OpdOffW];
  assign opd_store = opd_hit && (opd_off < OpdOffW'(OpdescEntries));

  // ---- LUTs (luts.rs).
  logic [PtIdxW-1:0] pt_idx;
  logic [PtTabW-1:0] pt_tab;
  logic              pt_store;
  logic [2:0]        pt_slot;
  logic [10:0]       pt_waddr;   // slot * 256 + index % table size

  assign pt_idx = shadow_q[SProctex][PtIdxLsb +: PtIdxW];
  assign pt_tab = shadow_q[SProctex][PtTabLsb +: PtTabW];
  // Luts::proctex_slot: 0 noise, 2 RGB map, 3 alpha map, 4 colour, 5 colour diff; the reserved
  // selectors drop the word (the index still advances).
  always_comb begin
    pt_slot  = 3'd0;
    pt_store = 1'b0;
    if (pt_tab == '0) begin
      pt_store = 1'b1;
    end else if (pt_tab >= PtTabW'(2) && pt_tab <= PtTabW'(5)) begin
      pt_slot  = 3'(pt_tab - PtTabW'(1));
      pt_store = 1'b1;
    end
    pt_store = pt_store && apply && pt_data;
    // Slots 0-2 hold 128 entries, 3-4 hold 256.
    pt_waddr = {pt_slot, (pt_slot < 3'd3) ? {1'b0, pt_idx[6:0]} : pt_idx};
  end

  logic [FogIdxW-1:0] fog_idx;
  logic [LtIdxW-1:0]  lt_idx;
  logic [LtTabW-1:0]  lt_tab;
  logic               lt_store;
  logic [GasIdxW-1:0] gas_idx;

  assign fog_idx  = shadow_q[SFog][FogIdxLsb +: FogIdxW];
  assign lt_idx   = shadow_q[SLight][LtIdxLsb +: LtIdxW];
  assign lt_tab   = shadow_q[SLight][LtTabLsb +: LtTabW];
  // Tables 24-31 are dropped (UNVERIFIED(hw) in luts.rs); the 8-bit index still wraps.
  assign lt_store = apply && lt_data && (lt_tab < LtTabW'(LightingTables));
  assign gas_idx  = shadow_q[SGas][GasIdxLsb +: GasIdxW];

  // ---- Shadow and packer next state.
  always_comb begin
    for (int s = 0; s < NumShadow; s++) begin
      shadow_d[s] = shadow_q[s];
      if (apply && sh_hit[s]) shadow_d[s] = value;
    end
    // Element-wise copies: Icarus 11 has no whole unpacked-array assignment.
    for (int b = 0; b < 2; b++) begin
      fu_cnt_d[b] = fu_cnt_q[b];
      for (int w = 0; w < 3; w++) fu_pend_d[b][w] = fu_pend_q[b][w];
    end
    fx_pend_d[0] = fx_pend_q[0];
    fx_pend_d[1] = fx_pend_q[1];
    fx_cnt_d     = fx_cnt_q;

    // Writing a float-uniform / fixed-attribute index register drops a partial vec4
    // (Packer::clear).
    if (apply && sh_hit[SVshFu]) fu_cnt_d[0] = 2'd0;
    if (apply && sh_hit[SGshFu]) fu_cnt_d[1] = 2'd0;
    if (apply && sh_hit[SFixed]) fx_cnt_d = 2'd0;

    if (fu_hit) begin
      if (fu_complete) begin
        fu_cnt_d[fu_b] = 2'd0;
        if (fu_store) begin
          shadow_d[fu_b ? SGshFu : SVshFu][FuIdxLsb +: FuIdxW] = fu_idx + 1'b1;
        end
      end else begin
        fu_pend_d[fu_b][fu_cnt] = value;
        fu_cnt_d[fu_b]          = fu_cnt + 2'd1;
      end
    end

    if (fx_hit) begin
      if (fx_complete) begin
        fx_cnt_d = 2'd0;
        if (fx_idx != ImmediateIndex) begin
          shadow_d[SFixed][FxIdxLsb +: FxIdxW] = fx_idx + 1'b1;
        end
      end else begin
        fx_pend_d[fx_cnt_q[0]] = value;
        fx_cnt_d               = fx_cnt_q + 2'd1;
      end
    end

    // UNVERIFIED(hw) in the model: the 12-bit code offset wraps from 4095 to 0; the opdesc
    // offset advances even when the write is dropped (>= 128).
    if (code_hit) shadow_d[code_b ? SGshCode : SVshCode][CodeOffLsb +: CodeOffW] = code_off + 1'b1;
    if (opd_hit)  shadow_d[opd_b ? SGshOpd : SVshOpd][OpdOffLsb +: OpdOffW] = opd_off + 1'b1;
    if (apply && pt_data)  shadow_d[SProctex][PtIdxLsb +: PtIdxW] = pt_idx + 1'b1;
    if (apply && fog_data) shadow_d[SFog][FogIdxLsb +: FogIdxW] = fog_idx + 1'b1;
    if (apply && lt_data)  shadow_d[SLight][LtIdxLsb +: LtIdxW] = lt_idx + 1'b1;
    if (apply && gas_data) shadow_d[SGas][GasIdxLsb +: GasIdxW] = gas_idx + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int s = 0; s < NumShadow; s++) shadow_q[s] <= '0;
      for (int b = 0; b < 2; b++) begin
        fu_cnt_q[b] <= '0;
        for (int w = 0; w < 3; w++) fu_pend_q[b][w] <= '0;
      end
      fx_cnt_q     <= '0;
      fx_pend_q[0] <= '0;
      fx_pend_q[1] <= '0;
    end else begin
      for (int s = 0; s < NumShadow; s++) shadow_q[s] <= shadow_d[s];
      for (int b = 0; b < 2; b++) begin
        fu_cnt_q[b] <= fu_cnt_d[b];
        for (int w = 0; w < 3; w++) fu_pend_q[b][w] <= fu_pend_d[b][w];
      end
      fx_pend_q[0] <= fx_pend_d[0];
      fx_pend_q[1] <= fx_pend_d[1];
      fx_cnt_q     <= fx_cnt_d;
    end
  end

  // ---- CMDBUF jump (RegFile::jump_target): ADDRn/SIZEn as they are now, both stored >> 3.
  assign redir_push_o = apply && (jump0 || jump1);
  assign redir_addr_o = {shadow_q[jump1 ? SAddr1 : SAddr0][AddrLsb +: AddrW], 3'b000};
  assign redir_size_o = 32'({shadow_q[jump1 ? SSize1 : SSize0][SizeLsb +: SizeW], 3'b000});

  // ---------------------------------------------------------------------------------------------
  // Shader-unit configuration flops (RegFile::config_write, regfile/unit.rs).
  logic       cfg_vsh, cfg_gsh;
  logic [5:0] cfg_off;

  always_comb begin
    cfg_vsh = apply && (id >= 17'(VshBase)) && (id < 17'(VshBase + BlockLen));
    cfg_gsh = apply && (id >= 17'(GshBase)) && (id < 17'(GshBase + BlockLen));
    cfg_off = cfg_gsh ? 6'(id - 17'(GshBase)) : 6'(id - 17'(VshBase));
  end

  logic [15:0] bool_q   [NumUnits];
  logic [31:0] int_q    [NumUnits][4];
  logic [15:0] outmap_q [NumUnits];
  logic [15:0] entry_q  [NumUnits];
  logic [31:0] incfg_q  [NumUnits];
  logic [63:0] perm_q   [NumUnits];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int u = 0; u < NumUnits; u++) begin
        bool_q[u]   <= '0;
        outmap_q[u] <= '0;
        entry_q[u]  <= '0;
        incfg_q[u]  <= '0;
        perm_q[u]   <= '0;
        for (int i = 0; i < 4; i++) int_q[u][i] <= '0;
      end
    end else if (cfg_vsh || cfg_gsh) begin
      for (int u = 0; u < NumUnits; u++) begin
        if (targets(cfg_gsh, u, prop3)) begin
          if (cfg_off == 6'd0) bool_q[u] <= value[BoolLsb +: 16];
          for (int i = 0; i < 4; i++) begin
            if (cfg_off == 6'(OffInt0 + i)) int_q[u][i] <= value;
          end
          if (cfg_off == 6'(OffOutmap)) outmap_q[u] <= value[15:0];
          if (cfg_off == 6'(OffEntry))  entry_q[u] <= value[EntryLsb +: 16];
          if (cfg_off == 6'(OffInCfg))  incfg_q[u] <= value;
          if (cfg_off == 6'(OffPermLo)) perm_q[u][31:0] <= value;
          if (cfg_off == 6'(OffPermHi)) perm_q[u][63:32] <= value;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Configuration forwarding to the SH stage (pica_sh's configuration port). REGS stays the only
  // write path: each applied write that changes a unit's configuration leaves as one beat in the
  // cycle it is applied — exactly the items RtlSh::sync_config (rtl-bridge/src/sh_stage.rs)
  // derives from the RegFile: code words, opdescs (< 128), completed float-uniform vec4s
  // (< 96), int / bool uniforms, entry point, output mask, input config, permutation,
  // GEOSTAGE_CONFIG, GSH_MISC0 / GSH_MISC1. Bank bit 0 = units 0-2, bit 1 = unit 3, from the
  // same targets() that writes REGS' own copies, so a propagated VSH write sets both.
  // One write changes at most one item, so one beat per cycle suffices (no FIFO, no
  // backpressure: pica_sh always takes configuration).
  localparam logic [3:0] CfgCode     = 4'd0;   // pica_sh.sv CfgCode .. CfgGshMisc1
  localparam logic [3:0] CfgDesc     = 4'd1;
  localparam logic [3:0] CfgUnif     = 4'd2;
  localparam logic [3:0] CfgInt      = 4'd3;
  localparam logic [3:0] CfgBool     = 4'd4;
  localparam logic [3:0] CfgEntry    = 4'd5;
  localparam logic [3:0] CfgOutmap   = 4'd6;
  localparam logic [3:0] CfgInCfg    = 4'd7;
  localparam logic [3:0] CfgPermLo   = 4'd8;
  localparam logic [3:0] CfgPermHi   = 4'd9;
  localparam logic [3:0] CfgGeostage = 4'd10;
  localparam logic [3:0] CfgGshMisc0 = 4'd11;
  localparam logic [3:0] CfgGshMisc1 = 4'd12;

  // Bank mask of a write of block `gsh` (every kind alike).
  function automatic logic [1:0] bank_targets(input logic gsh, input logic p3);
    bank_targets = {targets(gsh, GsUnit, p3), targets(gsh, 0, p3)};
  endfunction

  always_comb begin
    shcfg_valid_o = 1'b0;
    shcfg_bank_o  = '0;
    shcfg_kind_o  = CfgCode;
    shcfg_addr_o  = '0;
    shcfg_data_o  = {64'h0, value};
    if (code_hit) begin
      shcfg_valid_o = 1'b1;
      shcfg_bank_o  = bank_targets(code_b, prop3);
      shcfg_addr_o  = 12'(code_off);
    end else if (opd_store) begin
      shcfg_valid_o = 1'b1;
      shcfg_bank_o  = bank_targets(opd_b, prop3);
      shcfg_kind_o  = CfgDesc;
      shcfg_addr_o  = 12'(opd_off);
    end else if (fu_store) begin
      shcfg_valid_o = 1'b1;
      shcfg_bank_o  = bank_targets(fu_b, prop3);
      shcfg_kind_o  = CfgUnif;
      shcfg_addr_o  = 12'(fu_idx);
      shcfg_data_o  = fu_vec;
    end else if (cfg_vsh || cfg_gsh) begin
      shcfg_valid_o = 1'b1;
      shcfg_bank_o  = bank_targets(cfg_gsh, prop3);
      if (cfg_off == 6'd0) begin
        shcfg_kind_o = CfgBool;
        shcfg_data_o = {80'h0, value[BoolLsb +: 16]};
      end else if (cfg_off >= 6'(OffInt0) && cfg_off < 6'(OffInt0 + 4)) begin
        shcfg_kind_o = CfgInt;
        shcfg_addr_o = {10'h0, cfg_off[1:0] - 2'(OffInt0)};
      end else if (cfg_off == 6'(OffOutmap)) begin
        shcfg_kind_o = CfgOutmap;
        shcfg_data_o = {80'h0, value[15:0]};
      end else begin
        if (cfg_off == 6'(OffEntry)) begin
          shcfg_kind_o = CfgEntry;
          shcfg_data_o = {80'h0, value[EntryLsb +: 16]};
        end else if (cfg_off == 6'(OffInCfg)) begin
          shcfg_kind_o = CfgInCfg;
        end else if (cfg_off == 6'(OffPermLo)) begin
          shcfg_kind_o = CfgPermLo;
        end else if (cfg_off == 6'(OffPermHi)) begin
          shcfg_kind_o = CfgPermHi;
        end else begin
          shcfg_valid_o = 1'b0;  // an index register or a dropped data write
        end
      end
    end else if (apply && sh_hit[SGeostage]) begin
      shcfg_valid_o = 1'b1;
      shcfg_kind_o  = CfgGeostage;
    end else if (apply && id == 17'(pica_regs_pkg::REG_GSH_MISC0)) begin
      shcfg_valid_o = 1'b1;
      shcfg_kind_o  = CfgGshMisc0;
    end else if (apply && id == 17'(pica_regs_pkg::REG_GSH_MISC1)) begin
      shcfg_valid_o = 1'b1;
      shcfg_kind_o  = CfgGshMisc1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Debug read port. Every RAM reads at a slice of dbg_addr_i when dbg_req_i; flop sources are
  // sampled in the same cycle; a registered selector picks the word next cycle.
  typedef enum logic [3:0] {
    DbgZero, DbgRegRam, DbgFlop, DbgProctex, DbgFog, DbgGas, DbgFixed, DbgLight,
    DbgCode, DbgOpd, DbgFu
  } dbg_src_e;

  dbg_src_e    dsel;
  dbg_src_e    dsel_q;
  logic [31:0] dflop;          // value of a flop source at the requested address
  logic [31:0] dflop_q;
  logic [1:0]  dcomp_q;        // vec4 component for fixed attributes and float uniforms
  logic [1:0]  dunit, dunit_q;
  logic [12:0] uoff;           // offset inside a unit's 0x2000 window

  logic [6:0]  fu_raddr;       // float-uniform entry of a unit's window

  assign dunit    = 2'(dbg_addr_i[15:13] - 3'd2);
  assign uoff     = dbg_addr_i[12:0];
  assign fu_raddr = 7'((uoff - 13'h1100) >> 2);

  // Pending packer word k (1-based slot in the map) of packer with `cnt` words.
  function automatic logic [31:0] pend_word(input logic [31:0] w0, input logic [31:0] w1,
                                            input logic [31:0] w2, input logic [1:0] cnt,
                                            input logic [2:0] k);
    pend_word = '0;
    if (k == 3'd1 && cnt >= 2'd1) pend_word = w0;
    if (k == 3'd2 && cnt >= 2'd2) pend_word = w1;
    if (k == 3'd3 && cnt >= 2'd3) pend_word = w2;
  endfunction

  always_comb begin
    dsel  = DbgZero;
    dflop = '0;
    if (dbg_addr_i < 16'(NumRegs)) begin
      dsel = DbgRegRam;
      for (int s = 0; s < NumShadow; s++) begin
        if (dbg_addr_i[9:0] == shadow_id(s)) begin
          dsel  = DbgFlop;
          dflop = shadow_q[s];
        end
      end
    end else if (dbg_addr_i >= 16'h0400 && dbg_addr_i < 16'h0900) begin
      // Proctex tables 0-2 have 128 entries: i >= 128 is no entry and reads 0.
      if (dbg_addr_i >= 16'h0700 || !dbg_addr_i[7]) dsel = DbgProctex;
    end else if (dbg_addr_i >= 16'h0900 && dbg_addr_i < 16'h0980) begin
      dsel = DbgFog;
    end else if (dbg_addr_i >= 16'h0980 && dbg_addr_i < 16'h0990) begin
      dsel = DbgGas;
    end else if (dbg_addr_i >= 16'h0A00 && dbg_addr_i < 16'h0A30) begin
      dsel = DbgFixed;
    end else if (dbg_addr_i >= 16'h0B00 && dbg_addr_i < 16'h0B05) begin
      dsel  = DbgFlop;
      dflop = (dbg_addr_i[2:0] == 3'd0) ? 32'(fu_cnt_q[0])
            : pend_word(fu_pend_q[0][0], fu_pend_q[0][1], fu_pend_q[0][2], fu_cnt_q[0],
                        dbg_addr_i[2:0]);
    end else if (dbg_addr_i >= 16'h0B08 && dbg_addr_i < 16'h0B0D) begin
      dsel  = DbgFlop;
      dflop = (dbg_addr_i[2:0] == 3'd0) ? 32'(fu_cnt_q[1])
            : pend_word(fu_pend_q[1][0], fu_pend_q[1][1], fu_pend_q[1][2], fu_cnt_q[1],
                        dbg_addr_i[2:0]);
    end else if (dbg_addr_i >= 16'h0B10 && dbg_addr_i < 16'h0B14) begin
      dsel  = DbgFlop;
      dflop = (dbg_addr_i[2:0] == 3'd0) ? 32'(fx_cnt_q)
            : pend_word(fx_pend_q[0], fx_pend_q[1], 32'h0, fx_cnt_q, dbg_addr_i[2:0]);
    end else if (dbg_addr_i >= 16'h2000 && dbg_addr_i < 16'h3800) begin
      dsel = DbgLight;
    end else if (dbg_addr_i >= 16'h4000 && dbg_addr_i < 16'hC000) begin
      if (uoff < 13'h1000) begin
        dsel = DbgCode;
      end else if (uoff < 13'h1080) begin
        dsel = DbgOpd;
      end else if (uoff >= 13'h1100 && uoff < 13'h1280) begin
        dsel = DbgFu;
      end else if (uoff >= 13'h1300 && uoff < 13'h130A) begin
        dsel = DbgFlop;
        unique case (uoff[3:0])
          4'h0, 4'h1, 4'h2, 4'h3: dflop = int_q[dunit][uoff[1:0]];
          4'h4:    dflop = 32'(bool_q[dunit]);
          4'h5:    dflop = 32'(entry_q[dunit]);
          4'h6:    dflop = 32'(outmap_q[dunit]);
          4'h7:    dflop = incfg_q[dunit];
          4'h8:    dflop = perm_q[dunit][31:0];
          default: dflop = perm_q[dunit][63:32];
        endcase
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dsel_q  <= DbgZero;
      dflop_q <= '0;
      dcomp_q <= '0;
      dunit_q <= '0;
    end else if (dbg_req_i) begin
      dsel_q  <= dsel;
      dflop_q <= dflop;
      dcomp_q <= dbg_addr_i[1:0];
      dunit_q <= dunit;
    end
  end

  // A float-uniform read in the clock its RAM takes the queued vec4 (fwq_*) returns the queued
  // lane, the word the RAM would have held had it been written with the completing write.
  logic        fbyp_q;
  logic [23:0] fbyp_lane_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fbyp_q      <= 1'b0;
      fbyp_lane_q <= '0;
    end else if (dbg_req_i) begin
      fbyp_q      <= fwq_units_q[dunit] && (fwq_addr_q == fu_raddr);
      fbyp_lane_q <= fwq_vec[24*dbg_addr_i[1:0] +: 24];
    end
  end

  // Register RAM debug read (synchronous, second read port).
  logic [31:0] reg_dbg_q;
  always_ff @(posedge clk_i) begin
    if (dbg_req_i) reg_dbg_q <= reg_mem[dbg_addr_i[9:0] < 10'(NumRegs) ? dbg_addr_i[9:0] : 10'd0];
  end

  // ---------------------------------------------------------------------------------------------
  // RAMs.
  logic [31:0] pt_rd, gas_rd;
  logic [23:0] fog_rd, lt_rd;
  logic [95:0] fx_rd;

  // Proctex: 5 slots of 256 words (slots 0-2 use the low 128).
  pica_ram #(.Width(32), .Depth(ProctexSlots * 256)) u_proctex (
    .clk_i, .we_i(pt_store), .waddr_i(pt_waddr), .wdata_i(value),
    .re_i(dbg_req_i), .raddr_i(11'(dbg_addr_i - 16'h0400)), .rdata_o(pt_rd)
  );
  // Fog: index % 128, data & 0xFFFFFF (luts.rs FOG_DATA_MASK).
  pica_ram #(.Width(24), .Depth(FogEntries)) u_fog (
    .clk_i, .we_i(apply && fog_data), .waddr_i(fog_idx[6:0]), .wdata_i(value[23:0]),
    .re_i(dbg_req_i), .raddr_i(dbg_addr_i[6:0]), .rdata_o(fog_rd)
  );
  // Gas: index % 16, full word.
  pica_ram #(.Width(32), .Depth(GasEntries)) u_gas (
    .clk_i, .we_i(apply && gas_data), .waddr_i(gas_idx[3:0]), .wdata_i(value),
    .re_i(dbg_req_i), .raddr_i(dbg_addr_i[3:0]), .rdata_o(gas_rd)
  );
  // Lighting: 24 tables of 256, address table * 256 + index, data & 0xFFFFFF.
  pica_ram #(.Width(24), .Depth(LightingTables * 256)) u_lighting (
    .clk_i, .we_i(lt_store), .waddr_i({lt_tab, lt_idx}), .wdata_i(value[23:0]),
    .re_i(dbg_req_i), .raddr_i(dbg_addr_i[12:0]), .rdata_o(lt_rd)
  );
  // Fixed attributes 0-11 as {w,z,y,x} f24.
  pica_ram #(.Width(96), .Depth(FixedAttribs)) u_fixed (
    .clk_i, .we_i(fx_store), .waddr_i(fx_idx), .wdata_i(fx_vec),
    .re_i(dbg_req_i), .raddr_i(dbg_addr_i[5:2]), .rdata_o(fx_rd)
  );

  logic [31:0] code_rd [NumUnits];
  logic [31:0] opd_rd  [NumUnits];
  logic [95:0] fu_rd   [NumUnits];

  for (genvar u = 0; u < NumUnits; u++) begin : g_unit
    logic fu_we, code_we, opd_we;
    assign code_we  = code_hit && targets(code_b, u, prop3);
    assign opd_we   = opd_store && targets(opd_b, u, prop3);
    assign fu_we    = fwq_units_q[u];

    pica_ram #(.Width(32), .Depth(CodeWords)) u_code (
      .clk_i, .we_i(code_we), .waddr_i(code_off), .wdata_i(value),
      .re_i(dbg_req_i), .raddr_i(uoff[11:0]), .rdata_o(code_rd[u])
    );
    pica_ram #(.Width(32), .Depth(OpdescEntries)) u_opdesc (
      .clk_i, .we_i(opd_we), .waddr_i(opd_off[6:0]), .wdata_i(value),
      .re_i(dbg_req_i), .raddr_i(uoff[6:0]), .rdata_o(opd_rd[u])
    );
    pica_ram #(.Width(96), .Depth(FloatUniforms)) u_float (
      .clk_i, .we_i(fu_we), .waddr_i(fwq_addr_q), .wdata_i(fwq_vec),
      .re_i(dbg_req_i), .raddr_i(fu_raddr), .rdata_o(fu_rd[u])
    );
  end

  always_comb begin
    unique case (dsel_q)
      DbgRegRam:  dbg_rdata_o = reg_dbg_q;
      DbgFlop:    dbg_rdata_o = dflop_q;
      DbgProctex: dbg_rdata_o = pt_rd;
      DbgFog:     dbg_rdata_o = {8'h00, fog_rd};
      DbgGas:     dbg_rdata_o = gas_rd;
      DbgFixed:   dbg_rdata_o = {8'h00, fx_rd[24*dcomp_q +: 24]};
      DbgLight:   dbg_rdata_o = {8'h00, lt_rd};
      DbgCode:    dbg_rdata_o = code_rd[dunit_q];
      DbgOpd:     dbg_rdata_o = opd_rd[dunit_q];
      DbgFu:      dbg_rdata_o = {8'h00, fbyp_q ? fbyp_lane_q : fu_rd[dunit_q][24*dcomp_q +: 24]};
      default:    dbg_rdata_o = '0;
    endcase
  end

  // Bits no side effect reads (kept in the register array / shadows for the debug port).
  logic unused_bits;
  assign unused_bits = ^{id[16:10]};

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset (rst_ni used only as an async reset: SYNCASYNCNET)
    end else begin
      if (apply && (fu_data[0] && fu_data[1]))
        $error("pica_regs: overlapping alias groups");
      // The early read and its decode describe the write applied now.
      if (apply && (in_range != (id < 17'(NumRegs))))
        $error("pica_regs: registered range check differs from the head's");
      for (int s = 0; s < NumShadow; s++) begin
        if (apply && sh_hit[s] != ((id < 17'(NumRegs)) && rid == shadow_id(s)))
          $error("pica_regs: registered shadow decode differs from the head's");
      end
      if (reg_we && old != reg_mem[rid])
        $error("pica_regs: early register read differs from the RAM's word");
      if (fx_hit && fx_complete && fx_idx == ImmediateIndex && fx_store)
        $error("pica_regs: immediate-mode vertex stored as a fixed attribute");
    end
  end
`endif

endmodule : pica_regs
