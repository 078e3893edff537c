// pica_fop: the fragment operations (FOP), transaction-exact with
// `pica_model::fop::process_fragment` (model/src/fop/mod.rs) and its gas / shadow modes
// (`fop::gas::process`, `fop::shadow::process`): for every fragment the same pixel beat, the
// same memory bytes and the same hang, whatever the memory latency and output backpressure.
// rtl/README.md "pica_fop" is the contract (ports, memory port, cycles per fragment).
//
// Micro-architecture: one fragment at a time, a multi-cycle FSM around one memory access
// engine that issues 32-bit requests and waits for each read's response. Writes are posted:
// the FSM goes on after a write is taken and reads (the colour read after the depth write, a
// probe) go out while it is in flight; its response is taken whenever it comes (responses
// arrive in request order, so a response while a write is posted is that write's). Behind
// pica_axi_master that puts a write and a read in flight at once, which the AXI4 port may
// answer out of order (and the same-word rule orders when the two buffers share a word).
//
//   IDLE      takes a fragment (in_ready_o)
//   PIX       the pixel index and the outside-the-framebuffer test (pica_fop_addr), registered
//   SETUP     reserved formats (hang), outside, addresses, alpha test; starts the first read
//             (or skips it)
//   DS        default: stencil and depth tests, stencil action, the one depth-stencil write;
//             gas: |z - zs|, then GAS_W (the product), GAS_C (capped) and GAS_P (the
//             depth-density contribution, pica_fop_gas) and the colour read
//   DS_DONE   default: discard after a failed stencil / depth test, else the colour read
//   COL_DEC   the colour pixel decoded (pica_fop_color) into dst_q
//   SH_DEC    shadow: the stored (depth, intensity) from dst_q, update rule, start the divider
//   SH_DIV    shadow: wait for pica_fop_penumbra (10 clocks)
//   MUL       default and gas: the blend factors and products (pica_fop_blend step 1)
//   BLEND     blend / logic op (pica_fop_blend step 2), gas accumulation or the shadow word;
//             write masks, into out_q
//   COL       encode out_q (pica_fop_color); the colour write
//
// The extra states (PIX, GAS_W, GAS_C, GAS_P, COL_DEC, MUL, BLEND) register what would otherwise
// chain a multiplier or a decode into the next one in one clock: the single-clock SETUP, gas DS
// and COL of the first version placed and routed at 25.8 MHz on the LFE5U-85F (2026-11-30);
// GAS_C since the 24 x 24 product and its cap in one clock were the worst path (19.8 ns) of
// pica_fop_pipe's build (2026-12-01).
//   OUT       the pixel beat (out_valid_o) until out_ready_i
//   HANG      sticky: no further fragment, no further request
//   A_*       the access engine: a pixel access of `len` bytes at a byte address is one word
//             request, or two when a 3-byte pixel (RGB8, D24) straddles a word boundary
//
// Memory rules (contract "Rules the model implies"): the model checks a whole access before it
// touches memory and reports the access's start address. A read's word error hangs with that
// address. A straddling write first probes its second word (a read with be = 0) unless this
// fragment has already read the same pixel (then both words are known to be mapped), so its
// first word is never written when the second is unmapped; the first word's write error
// changes nothing. A write is issued only when every earlier request has been answered (at
// most one write is posted, a second waits for it), so no write is issued while an earlier
// request could still hang; a posted write's error hangs at once, whatever the FSM is doing
// (a read issued after it may still be answered: the model would not have made it, but a
// read changes nothing). The beat waits for the posted write's response: a hanging fragment
// gives no beat.
module pica_fop (
  input  logic         clk_i,
  input  logic         rst_ni,

  // The 20 registers of pica_model::fop::CONFIG_REGS, register k at [32*k +: 32] (ID order:
  // COLOR_OPERATION, BLEND_FUNC, LOGIC_OP, BLEND_COLOR, FRAGOP_ALPHA_TEST, STENCIL_TEST,
  // STENCIL_OP, DEPTH_COLOR_MASK, COLORBUFFER_READ, COLORBUFFER_WRITE, DEPTHBUFFER_READ,
  // DEPTHBUFFER_WRITE, DEPTHBUFFER_FORMAT, COLORBUFFER_FORMAT, FRAMEBUFFER_BLOCK32,
  // DEPTHBUFFER_LOC, COLORBUFFER_LOC, FRAMEBUFFER_DIM, GAS_DELTAZ_DEPTH, FRAGOP_SHADOW).
  // Read while a fragment is in flight: change only while idle_o.
  input  logic [639:0] cfg_i,

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [31:0]  in_tag_i,
  input  logic [15:0]  in_x_i,
  input  logic [15:0]  in_y_i,
  input  logic [23:0]  in_depth_i,
  input  logic [31:0]  in_color_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [31:0]  out_tag_o,
  output logic [15:0]  out_x_o,
  output logic [15:0]  out_y_o,
  output logic [31:0]  out_color_addr_o,
  output logic [31:0]  out_color_o,
  output logic [31:0]  out_depth_addr_o,
  output logic [31:0]  out_depth_stencil_o,
  output logic [7:0]   out_flags_o,

  output logic         mem_req_valid_o,
  input  logic         mem_req_ready_i,
  output logic         mem_req_we_o,
  output logic [31:0]  mem_req_addr_o,
  output logic [3:0]   mem_req_be_o,
  output logic [31:0]  mem_req_wdata_o,
  input  logic         mem_rsp_valid_i,
  output logic         mem_rsp_ready_o,
  input  logic [31:0]  mem_rsp_rdata_i,
  input  logic         mem_rsp_err_i,

  output logic         hang_o,
  output logic [1:0]   hang_kind_o,
  output logic         hang_buffer_o,
  output logic [31:0]  hang_addr_o,
  output logic [2:0]   hang_value_o,

  output logic         idle_o
);


  // ---------------------------------------------------------------- configuration fields
  logic [1:0]  c_mode;
  logic        c_blend_en;
  logic [2:0]  c_rgb_eq, c_a_eq;
  logic [3:0]  c_rgb_src, c_rgb_dst, c_a_src, c_a_dst, c_logic_op;
  logic [31:0] c_const;
  logic        c_alpha_test;
  logic [2:0]  c_alpha_func;
  logic [7:0]  c_alpha_ref;
  logic        c_st_test;
  logic [2:0]  c_st_func;
  logic [7:0]  c_st_wmask, c_st_ref, c_st_mask;
  logic [2:0]  c_st_fail, c_st_zfail, c_st_zpass;
  logic        c_depth_test;
  logic [2:0]  c_depth_func;
  logic [3:0]  c_cmask;
  logic        c_depth_write;
  logic [3:0]  c_cb_read, c_cb_write;
  logic        c_depth_read, c_stencil_read, c_depth_wr_allowed, c_stencil_wr_allowed;
  logic [1:0]  c_dfmt;
  logic [2:0]  c_cfmt;
  logic        c_block32;
  logic [27:0] c_dloc, c_cloc;
  logic [10:0] c_width;
  logic [9:0]  c_hm1;
  logic [23:0] c_gas_k;
  logic [1:0]  c_gas_func;
  logic [15:0] c_sh_c, c_sh_l;

  // The decoded fields (pica_fop_cfg, shared with pica_fop_pipe).
  pica_fop_cfg u_cfg (
    .cfg_i,
    .mode_o(c_mode),
    .blend_en_o(c_blend_en),
    .rgb_eq_o(c_rgb_eq),
    .a_eq_o(c_a_eq),
    .rgb_src_o(c_rgb_src),
    .rgb_dst_o(c_rgb_dst),
    .a_src_o(c_a_src),
    .a_dst_o(c_a_dst),
    .logic_op_o(c_logic_op),
    .const_o(c_const),
    .alpha_test_o(c_alpha_test),
    .alpha_func_o(c_alpha_func),
    .alpha_ref_o(c_alpha_ref),
    .st_test_o(c_st_test),
    .st_func_o(c_st_func),
    .st_wmask_o(c_st_wmask),
    .st_ref_o(c_st_ref),
    .st_mask_o(c_st_mask),
    .st_fail_o(c_st_fail),
    .st_zfail_o(c_st_zfail),
    .st_zpass_o(c_st_zpass),
    .depth_test_o(c_depth_test),
    .depth_func_o(c_depth_func),
    .cmask_o(c_cmask),
    .depth_write_o(c_depth_write),
    .cb_read_o(c_cb_read),
    .cb_write_o(c_cb_write),
    .depth_read_o(c_depth_read),
    .stencil_read_o(c_stencil_read),
    .depth_wr_allowed_o(c_depth_wr_allowed),
    .stencil_wr_allowed_o(c_stencil_wr_allowed),
    .dfmt_o(c_dfmt),
    .cfmt_o(c_cfmt),
    .block32_o(c_block32),
    .dloc_o(c_dloc),
    .cloc_o(c_cloc),
    .width_o(c_width),
    .hm1_o(c_hm1),
    .gas_k_o(c_gas_k),
    .gas_func_o(c_gas_func),
    .sh_c_o(c_sh_c),
    .sh_l_o(c_sh_l)
  );

  // ---------------------------------------------------------------- constants and guesses
  localparam logic [1:0] ModeGas    = pica_regs_pkg::COLOR_OPERATION_FRAGMENT_MODE_GAS;
  localparam logic [1:0] ModeShadow = pica_regs_pkg::COLOR_OPERATION_FRAGMENT_MODE_SHADOW;
  // UNVERIFIED(hw): the undescribed fragment mode 2 is processed as default — model
  // FopConfig::fragment_mode (`ColorOperationFragmentMode::Reserved` runs the default path).
  // Every mode other than gas and shadow takes the default path here.

  localparam logic [1:0] DfmtD16   = pica_regs_pkg::DEPTHBUFFER_FORMAT_FORMAT_D16;
  localparam logic [1:0] DfmtD24S8 = pica_regs_pkg::DEPTHBUFFER_FORMAT_FORMAT_D24_S8;
  // UNVERIFIED(hw): depth format 1 and colour formats 5-7 hang the GPU at the first fragment,
  // colour checked first, before the outside check — model FopHang::ReservedFormat.
  localparam logic [1:0] DfmtReserved = 2'd1;
  localparam logic [2:0] CfmtFirstReserved = 3'd5;
  localparam logic [2:0] CfmtRgba8 = pica_regs_pkg::COLORBUFFER_FORMAT_FORMAT_RGBA8;
  localparam logic [2:0] CfmtRgb8  = 3'd1;   // model ColorFormat::Rgb8 (UNVERIFIED(hw), see pica_fop_color)

  // UNVERIFIED(hw): the gas density is the source colour's red channel — model
  // fop::gas::DENSITY_SOURCE = 0; it accumulates into red (gas::PLAIN_CHANNEL = 0), the
  // depth-weighted density into green (gas::DEPTH_CHANNEL = 1).
  localparam int DensitySource = 0;
  localparam int PlainChannel  = 0;
  localparam int DepthChannel  = 1;
  // The shadow intensity is the source colour's green channel — model
  // fop::shadow::INTENSITY_SOURCE = 1 (Azahar WriteShadow).
  localparam int IntensitySource = 1;
  // UNVERIFIED(hw): the shadow word (depth << 8) | intensity sits byte-swapped in the RGBA8
  // stored bits — model fop::shadow::SHADOW_WORD_BYTE_SWAPPED = true (Azahar
  // DecodeD24S8Shadow / EncodeD24X8Shadow). With it, the word is the decoded colour packed
  // r | g << 8 | b << 16 | a << 24 (intensity = red, depth = a:b:g).
  localparam bit ShadowWordByteSwapped = 1'b1;


  // ---------------------------------------------------------------- helpers
  // fop::depth_to_24 (rast::interp::depth_to_24 = num::replicate_bits(d, bits, 24)):
  // D16 d << 8 | d >> 8, D24 / D24S8 d & 0xFFFFFF.
  function automatic logic [23:0] depth_to_24(input logic is_d16, input logic [23:0] d);
    depth_to_24 = is_d16 ? {d[15:0], d[15:8]} : d;
  endfunction

  function automatic logic [7:0] sat_add(input logic [7:0] a, input logic [7:0] b);
    logic [8:0] s;
    s = {1'b0, a} + {1'b0, b};
    sat_add = s[8] ? 8'hFF : s[7:0];
  endfunction

  function automatic logic [31:0] bswap(input logic [31:0] w);
    bswap = {w[7:0], w[15:8], w[23:16], w[31:24]};
  endfunction

  // Whether an access of `len` bytes at byte offset `off` in its word spans two words.
  function automatic logic straddles(input logic [1:0] off, input logic [2:0] len);
    straddles = ({1'b0, off} + len) > 3'd4;
  endfunction

  // ---------------------------------------------------------------- state
  typedef enum logic [4:0] {
    SIdle, SPix, SSetup, SDs, SGasW, SGasC, SGasP, SDsDone, SColDec, SShDec, SShDiv, SMul, SBlend,
    SCol, SOut, SHang, SAProbe, SAProbeW, SAReq0, SAW0, SAReq1, SAW1
  } state_e;

  state_e      state_q, acc_ret_q;

  // The posted write: in flight (its response not yet taken), and what a hang on it reports.
  logic        posted_q, pw_buf_q;
  logic [31:0] pw_addr_q;

  // The fragment.
  logic [31:0] tag_q, src_q;
  logic [15:0] x_q, y_q;
  logic [23:0] fdepth_q;
  // The beat.
  logic [31:0] caddr_q, daddr_q, bcolor_q, bds_q;
  logic [7:0]  flags_q;
  // Work.
  logic        ds_rd_q, col_rd_q;      // this fragment read the depth / colour pixel
  logic        depth_pass_q;
  logic        outside_q;              // PIX: outside the framebuffer
  logic [22:0] pixel_q;                // PIX: the pixel index (pica_fop_addr)
  logic [23:0] gas_dz_q;               // gas: |z - zs| (DS)
  logic [47:0] gas_w_q;                // gas: dz * k (GAS_W)
  logic [32:0] gas_x32_q;              // gas: min(2^32, dz * k) (GAS_C)
  logic [7:0]  gas_dc_q;               // gas: the depth-density contribution (GAS_P)
  logic [31:0] dst_q;                  // COL_DEC: the colour pixel decoded (0 bits if not read)
  logic [127:0] prod_q;                // MUL: the blend products (pica_fop_blend step 1)
  logic [31:0] out_q;                  // BLEND: the colour to write, as RGBA
  logic [23:0] sh_depth_q;             // shadow: the word after the update
  logic [7:0]  sh_int_q;
  // Access engine.
  logic        acc_we_q, acc_buf_q;
  logic [31:0] acc_addr_q, acc_wdata_q, acc_rd0_q, rd_pixel_q;
  logic [2:0]  acc_len_q;
  // Hang.
  logic        hang_q, hang_buf_q;
  logic [1:0]  hang_kind_q;
  logic [31:0] hang_addr_q;
  logic [2:0]  hang_value_q;

  // ---------------------------------------------------------------- formats
  logic        is_d16, is_d24s8;
  logic [23:0] depth_max;
  logic [2:0]  ds_len, depth_bytes, c_len;
  logic        color_read, color_write;

  assign is_d16    = (c_dfmt == DfmtD16);
  assign is_d24s8  = (c_dfmt == DfmtD24S8);
  assign depth_max = is_d16 ? 24'h00FFFF : 24'hFFFFFF;
  assign ds_len    = is_d16 ? 3'd2 : (is_d24s8 ? 3'd4 : 3'd3);
  assign depth_bytes = is_d16 ? 3'd2 : 3'd3;
  assign c_len     = (c_cfmt == CfmtRgba8) ? 3'd4 : ((c_cfmt == CfmtRgb8) ? 3'd3 : 3'd2);
  assign color_read  = pica_rop_pkg::access_enabled(c_cb_read);
  assign color_write = pica_rop_pkg::access_enabled(c_cb_write);

  // ---------------------------------------------------------------- SETUP: addresses
  logic        outside;
  logic [22:0] pixel;
  logic [31:0] caddr, daddr;
  logic        alpha_pass;

  pica_fop_addr u_addr (
    .x_i(x_q), .y_i(y_q), .width_i(c_width), .height_m1_i(c_hm1), .block32_i(c_block32),
    .outside_o(outside), .pixel_o(pixel)
  );

  // Base (LOC << 3) + pixel * bytes per pixel; never wraps (< 2^31 + 2^24). The pixel index
  // (a multiply and two adds) is registered in PIX, a clock before these adds use it.
  assign caddr = {1'b0, c_cloc, 3'd0} + 32'(pixel_q) * 32'(c_len);
  assign daddr = {1'b0, c_dloc, 3'd0} + 32'(pixel_q) * 32'(ds_len);
  assign alpha_pass = !c_alpha_test || pica_rop_pkg::compare(c_alpha_func, {16'd0, src_q[31:24]},
                                               {16'd0, c_alpha_ref});

  // ---------------------------------------------------------------- DS: tests (default mode)
  logic [31:0] ds_bits;
  logic [23:0] stored_depth, frag_depth;
  logic [7:0]  new_stencil;
  logic        depth_pass, new_stencil_v, write_depth;

  assign ds_bits = rd_pixel_q;
  pica_fop_ds u_ds (
    .is_d24s8_i(is_d24s8), .depth_max_i(depth_max), .ds_bits_i(ds_bits),
    .frag_depth_i(fdepth_q), .depth_read_i(c_depth_read), .stencil_read_i(c_stencil_read),
    .st_test_i(c_st_test), .st_func_i(c_st_func), .st_ref_i(c_st_ref), .st_mask_i(c_st_mask),
    .st_wmask_i(c_st_wmask), .st_fail_i(c_st_fail), .st_zfail_i(c_st_zfail),
    .st_zpass_i(c_st_zpass), .stencil_wr_allowed_i(c_stencil_wr_allowed),
    .depth_test_i(c_depth_test), .depth_func_i(c_depth_func),
    .depth_write_i(c_depth_write && c_depth_wr_allowed),
    .stored_depth_o(stored_depth), .frag_depth_o(frag_depth), .depth_pass_o(depth_pass),
    .new_stencil_o(new_stencil), .write_stencil_o(new_stencil_v), .write_depth_o(write_depth)
  );

  // DS, GAS_W, GAS_C, GAS_P: the gas contribution, one step per clock.
  logic [23:0] gas_dz;
  logic [47:0] gas_w;
  logic [32:0] gas_x32;
  logic [7:0]  gas_dc;
  pica_fop_gas u_gas (
    .z_i(depth_to_24(is_d16, fdepth_q)),
    .zs_i(depth_to_24(is_d16, stored_depth)),
    .dz_o(gas_dz),
    .dz_i(gas_dz_q), .k_raw_i(c_gas_k), .w_o(gas_w), .w_i(gas_w_q), .x32_o(gas_x32),
    .x32_i(gas_x32_q), .func_i(c_gas_func),
    .rho_i(src_q[8*DensitySource +: 8]),
    .depth_o(gas_dc)
  );

  // ---------------------------------------------------------------- colour path
  // Four clocks: COL_DEC decodes the bits read into dst_q, MUL registers the blend products,
  // BLEND blends (or accumulates gas, or packs the shadow word) into out_q, COL encodes out_q
  // and writes. In one clock the chain
  // pica_rop_pkg::decode, factor, multiply, add, round, mask, encode was too long for 50 MHz on the ECP5.
  logic [127:0] blend_prod;
  logic [31:0] dst, blended, out_rgba, enc_rgba, enc_bits, gas_rgba, sh_rgba, merged_blend,
               merged_gas;

  pica_fop_blend u_blend (
    .blend_en_i(c_blend_en), .rgb_eq_i(c_rgb_eq), .alpha_eq_i(c_a_eq),
    .rgb_src_i(c_rgb_src), .rgb_dst_i(c_rgb_dst), .alpha_src_i(c_a_src),
    .alpha_dst_i(c_a_dst), .constant_i(c_const), .logic_op_i(c_logic_op),
    .src_i(src_q), .dst_i(dst_q), .prod_o(blend_prod), .prod_i(prod_q), .out_o(blended)
  );

  // Gas: plain density into red, depth density into green, blue and alpha kept.
  for (genvar c = 0; c < 4; c++) begin : g_gas
    if (c == PlainChannel) begin : g_plain
      assign gas_rgba[8*c +: 8] = sat_add(dst_q[8*c +: 8], src_q[8*DensitySource +: 8]);
    end else if (c == DepthChannel) begin : g_depth
      assign gas_rgba[8*c +: 8] = sat_add(dst_q[8*c +: 8], gas_dc_q);
    end else begin : g_keep
      assign gas_rgba[8*c +: 8] = dst_q[8*c +: 8];
    end
    // The channel write masks (GPUREG_DEPTH_COLOR_MASK bits 8-11) keep the destination.
    assign merged_blend[8*c +: 8] = c_cmask[c] ? blended[8*c +: 8] : dst_q[8*c +: 8];
    assign merged_gas[8*c +: 8]   = c_cmask[c] ? gas_rgba[8*c +: 8] : dst_q[8*c +: 8];
  end

  // Shadow: the word as RGBA (no write masks: the word is written whole).
  assign sh_rgba = ShadowWordByteSwapped ? {sh_depth_q, sh_int_q} : bswap({sh_depth_q, sh_int_q});

  assign out_rgba = (c_mode == ModeShadow) ? sh_rgba
                  : (c_mode == ModeGas)    ? merged_gas : merged_blend;
  assign enc_rgba = out_q;

  pica_fop_color u_color (
    .fmt_i(c_cfmt), .dec_bits_i(rd_pixel_q), .dec_rgba_o(dst),
    .enc_rgba_i(enc_rgba), .enc_bits_o(enc_bits)
  );

  // Shadow pica_rop_pkg::decode / update rule (shadow::decode, shadow::update).
  logic [31:0] sh_word;
  logic [23:0] sh_stored_depth, sh_d;
  logic [7:0]  sh_stored_int, sh_s;
  assign sh_word         = ShadowWordByteSwapped ? dst_q : bswap(dst_q);
  assign sh_stored_depth = sh_word[31:8];
  assign sh_stored_int   = sh_word[7:0];
  // UNVERIFIED(hw): the fragment depth as RAST quantized it, widened to 24 bits — model
  // fop::shadow::process (depth_to_24 of the depth-buffer format).
  assign sh_d = depth_to_24(is_d16, fdepth_q);
  assign sh_s = src_q[8*IntensitySource +: 8];

  logic       pen_start, pen_done;
  logic [7:0] pen_q;
  assign pen_start = (state_q == SShDec) && (sh_d < sh_stored_depth) && (sh_s != 8'd0);

  pica_fop_penumbra u_pen (
    .clk_i, .rst_ni, .start_i(pen_start), .c_i(c_sh_c), .l_i(c_sh_l), .s_i(sh_s),
    .d_i(sh_d), .depth_i(sh_stored_depth), .done_o(pen_done), .q_o(pen_q)
  );

  // ---------------------------------------------------------------- access engine
  logic [1:0]  acc_off;
  logic        acc_straddle;
  logic [31:0] acc_w0, acc_w1;
  logic [7:0]  acc_be8;
  logic [63:0] acc_wd64;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [63:0] rd64_hi, rd64_lo;   // only [31:0] are the pixel
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] len_mask;
  logic [31:0] rd_pix_w0, rd_pix_w1;

  assign acc_off      = acc_addr_q[1:0];
  assign acc_straddle = straddles(acc_off, acc_len_q);
  assign acc_w0       = {acc_addr_q[31:2], 2'b00};
  assign acc_w1       = acc_w0 + 32'd4;
  assign acc_be8      = ({4'd0, 4'((5'd1 << acc_len_q) - 5'd1)}) << acc_off;
  assign acc_wd64     = {32'd0, acc_wdata_q} << {acc_off, 3'b000};
  assign len_mask     = (acc_len_q == 3'd4) ? 32'hFFFF_FFFF
                      : (acc_len_q == 3'd3) ? 32'h00FF_FFFF
                      : (acc_len_q == 3'd2) ? 32'h0000_FFFF : 32'h0000_00FF;
  // The pixel's bytes from one word / from two (second word above).
  assign rd64_lo   = {32'd0, mem_rsp_rdata_i} >> {acc_off, 3'b000};
  assign rd64_hi   = {mem_rsp_rdata_i, acc_rd0_q} >> {acc_off, 3'b000};
  assign rd_pix_w0 = rd64_lo[31:0] & len_mask;
  assign rd_pix_w1 = rd64_hi[31:0] & len_mask;

  // Request outputs decoded from the state (one request per REQ state, held until ready; a
  // write waits until no write is posted).
  logic wr_wait, req_take, rsp_posted, rsp_mine;
  assign wr_wait  = acc_we_q && posted_q;
  assign mem_req_valid_o = (state_q == SAProbe)
                         || (((state_q == SAReq0) || (state_q == SAReq1)) && !wr_wait);
  assign req_take = mem_req_valid_o && mem_req_ready_i;
  // A response while a write is posted is that write's (request order); else the awaited one.
  assign rsp_posted = mem_rsp_valid_i && posted_q;
  assign rsp_mine   = mem_rsp_valid_i && !posted_q;
  assign mem_req_we_o    = acc_we_q && ((state_q == SAReq0) || (state_q == SAReq1));
  assign mem_req_addr_o  = ((state_q == SAProbe) || (state_q == SAReq1)) ? acc_w1 : acc_w0;
  assign mem_req_be_o    = (state_q == SAProbe) ? 4'd0
                         : (state_q == SAReq1)  ? acc_be8[7:4] : acc_be8[3:0];
  assign mem_req_wdata_o = !mem_req_we_o ? 32'd0
                         : (state_q == SAReq1) ? acc_wd64[63:32] : acc_wd64[31:0];
  assign mem_rsp_ready_o = 1'b1;

  // ---------------------------------------------------------------- FSM
  // Starting an access: the caller sets the acc_* registers and goes to acc_first.
  logic probe_ds, probe_col;      // a write of this buffer would need a probe if straddling

  assign probe_ds  = !ds_rd_q;
  assign probe_col = !col_rd_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= SIdle;
      acc_ret_q    <= SIdle;
      posted_q     <= 1'b0;
      pw_buf_q     <= 1'b0;
      pw_addr_q    <= '0;
      tag_q        <= '0;
      src_q        <= '0;
      x_q          <= '0;
      y_q          <= '0;
      fdepth_q     <= '0;
      caddr_q      <= '0;
      daddr_q      <= '0;
      bcolor_q     <= '0;
      bds_q        <= '0;
      flags_q      <= '0;
      ds_rd_q      <= 1'b0;
      col_rd_q     <= 1'b0;
      depth_pass_q <= 1'b0;
      outside_q    <= 1'b0;
      pixel_q      <= '0;
      gas_dz_q     <= '0;
      gas_w_q      <= '0;
      gas_x32_q    <= '0;
      gas_dc_q     <= '0;
      dst_q        <= '0;
      prod_q       <= '0;
      out_q        <= '0;
      sh_depth_q   <= '0;
      sh_int_q     <= '0;
      acc_we_q     <= 1'b0;
      acc_buf_q    <= 1'b0;
      acc_addr_q   <= '0;
      acc_wdata_q  <= '0;
      acc_rd0_q    <= '0;
      acc_len_q    <= 3'd4;
      rd_pixel_q   <= '0;
      hang_q       <= 1'b0;
      hang_buf_q   <= 1'b0;
      hang_kind_q  <= '0;
      hang_addr_q  <= '0;
      hang_value_q <= '0;
    end else begin
      unique case (state_q)
        SIdle: begin
          if (in_valid_i) begin
            tag_q    <= in_tag_i;
            x_q      <= in_x_i;
            y_q      <= in_y_i;
            fdepth_q <= in_depth_i;
            src_q    <= in_color_i;
            caddr_q  <= '0;
            daddr_q  <= '0;
            bcolor_q <= '0;
            bds_q    <= '0;
            flags_q  <= '0;
            ds_rd_q  <= 1'b0;
            col_rd_q <= 1'b0;
            state_q  <= SPix;
          end
        end

        SPix: begin
          outside_q <= outside;
          pixel_q   <= pixel;
          state_q   <= SSetup;
        end

        SSetup: begin
          if (c_cfmt >= CfmtFirstReserved) begin
            hang_q       <= 1'b1;
            hang_kind_q  <= pica_rop_pkg::HangReserved;
            hang_buf_q   <= pica_rop_pkg::BufColor;
            hang_value_q <= c_cfmt;
            state_q      <= SHang;
          end else if (c_dfmt == DfmtReserved) begin
            hang_q       <= 1'b1;
            hang_kind_q  <= pica_rop_pkg::HangReserved;
            hang_buf_q   <= pica_rop_pkg::BufDepth;
            hang_value_q <= {1'b0, c_dfmt};
            state_q      <= SHang;
          end else if (outside_q) begin
            // UNVERIFIED(hw): dropped without a memory access, addresses 0 — model
            // process_fragment (outside the framebuffer).
            flags_q <= pica_rop_pkg::FlagDiscard;
            state_q <= SOut;
          end else begin
            caddr_q <= caddr;
            daddr_q <= daddr;
            if (!alpha_pass) begin
              flags_q <= pica_rop_pkg::FlagDiscard;
              state_q <= SOut;
            end else if (c_mode == ModeShadow) begin
              // Shadow: no depth-stencil access; the colour pixel is read (or reads 0).
              if (color_read) begin
                acc_we_q   <= 1'b0;
                acc_buf_q  <= pica_rop_pkg::BufColor;
                acc_addr_q <= caddr;
                acc_len_q  <= c_len;
                acc_ret_q  <= SColDec;
                col_rd_q   <= 1'b1;
                state_q    <= SAReq0;
              end else begin
                rd_pixel_q <= '0;
                state_q    <= SColDec;
              end
            end else if (c_depth_read || c_stencil_read) begin
              // Default and gas: the depth-stencil pixel is read once if either read is on.
              acc_we_q   <= 1'b0;
              acc_buf_q  <= pica_rop_pkg::BufDepth;
              acc_addr_q <= daddr;
              acc_len_q  <= ds_len;
              acc_ret_q  <= SDs;
              ds_rd_q    <= 1'b1;
              state_q    <= SAReq0;
            end else begin
              rd_pixel_q <= '0;
              state_q    <= SDs;
            end
          end
        end

        SDs: begin
          if (c_mode == ModeGas) begin
            // Gas: the depth buffer is read, never written; nothing is discarded.
            bds_q    <= ds_bits;
            gas_dz_q <= gas_dz;
            state_q  <= SGasW;
          end else begin
            depth_pass_q <= depth_pass;
            acc_we_q     <= 1'b1;
            acc_buf_q    <= pica_rop_pkg::BufDepth;
            acc_ret_q    <= SDsDone;
            // Depth and stencil leave in one write of the bytes that change.
            if (write_depth && new_stencil_v) begin
              bds_q       <= {new_stencil, frag_depth};
              flags_q     <= pica_rop_pkg::FlagDepth | pica_rop_pkg::FlagStencil;
              acc_addr_q  <= daddr_q;
              acc_len_q   <= ds_len;
              acc_wdata_q <= {new_stencil, frag_depth};
              state_q     <= (straddles(daddr_q[1:0], ds_len) && probe_ds) ? SAProbe : SAReq0;
            end else if (write_depth) begin
              bds_q       <= (ds_bits & ~{8'd0, depth_max}) | {8'd0, frag_depth};
              flags_q     <= pica_rop_pkg::FlagDepth;
              acc_addr_q  <= daddr_q;
              acc_len_q   <= depth_bytes;
              acc_wdata_q <= {8'd0, frag_depth};
              state_q     <= (straddles(daddr_q[1:0], depth_bytes) && probe_ds) ? SAProbe : SAReq0;
            end else if (new_stencil_v) begin
              // Only D24S8 has a stencil byte: byte 3 of the pixel.
              bds_q       <= {new_stencil, ds_bits[23:0]};
              flags_q     <= pica_rop_pkg::FlagStencil;
              acc_addr_q  <= daddr_q + 32'd3;
              acc_len_q   <= 3'd1;
              acc_wdata_q <= {24'd0, new_stencil};
              state_q     <= SAReq0;
            end else begin
              bds_q   <= ds_bits;
              state_q <= SDsDone;
            end
          end
        end

        SGasW: begin
          gas_w_q <= gas_w;
          state_q <= SGasC;
        end

        SGasC: begin
          gas_x32_q <= gas_x32;
          state_q   <= SGasP;
        end

        SGasP: begin
          gas_dc_q <= gas_dc;
          if (color_read) begin
            acc_we_q   <= 1'b0;
            acc_buf_q  <= pica_rop_pkg::BufColor;
            acc_addr_q <= caddr_q;
            acc_len_q  <= c_len;
            acc_ret_q  <= SColDec;
            col_rd_q   <= 1'b1;
            state_q    <= SAReq0;
          end else begin
            rd_pixel_q <= '0;
            state_q    <= SColDec;
          end
        end

        SDsDone: begin
          if (!depth_pass_q) begin
            flags_q <= flags_q | pica_rop_pkg::FlagDiscard;
            state_q <= SOut;
          end else if (color_read) begin
            acc_we_q   <= 1'b0;
            acc_buf_q  <= pica_rop_pkg::BufColor;
            acc_addr_q <= caddr_q;
            acc_len_q  <= c_len;
            acc_ret_q  <= SColDec;
            col_rd_q   <= 1'b1;
            state_q    <= SAReq0;
          end else begin
            rd_pixel_q <= '0;
            state_q    <= SColDec;
          end
        end

        SColDec: begin
          dst_q   <= dst;
          state_q <= (c_mode == ModeShadow) ? SShDec : SMul;
        end

        SShDec: begin
          // shadow::update: nearer only; an opaque occluder (s = 0) moves the depth, a soft
          // one lowers the intensity to the penumbra (pica_fop_penumbra).
          sh_int_q   <= sh_stored_int;
          if (sh_d >= sh_stored_depth) begin
            sh_depth_q <= sh_stored_depth;
            state_q    <= SBlend;
          end else if (sh_s == 8'd0) begin
            sh_depth_q <= sh_d;
            state_q    <= SBlend;
          end else begin
            sh_depth_q <= sh_stored_depth;
            state_q    <= SShDiv;
          end
        end

        SShDiv: begin
          if (pen_done) begin
            if (pen_q < sh_int_q) sh_int_q <= pen_q;
            state_q <= SBlend;
          end
        end

        SMul: begin
          prod_q  <= blend_prod;
          state_q <= SBlend;
        end

        SBlend: begin
          out_q   <= out_rgba;
          state_q <= SCol;
        end

        SCol: begin
          // The beat's colour: the bits read (0 if not), or the bits written.
          if (color_write) begin
            bcolor_q    <= enc_bits;
            flags_q     <= flags_q | pica_rop_pkg::FlagColor;
            acc_we_q    <= 1'b1;
            acc_buf_q   <= pica_rop_pkg::BufColor;
            acc_addr_q  <= caddr_q;
            acc_len_q   <= c_len;
            acc_wdata_q <= enc_bits;
            acc_ret_q   <= SOut;
            state_q     <= (straddles(caddr_q[1:0], c_len) && probe_col) ? SAProbe : SAReq0;
          end else begin
            bcolor_q <= rd_pixel_q;
            state_q  <= SOut;
          end
        end

        SOut: begin
          if (out_ready_i && !posted_q) state_q <= SIdle;
        end

        SHang: ;

        // ---- access engine
        SAProbe: begin
          if (req_take) state_q <= SAProbeW;
        end
        SAProbeW: begin
          if (rsp_mine) begin
            if (mem_rsp_err_i) begin
              hang_q      <= 1'b1;
              hang_kind_q <= pica_rop_pkg::HangUnmapped;
              hang_buf_q  <= acc_buf_q;
              hang_addr_q <= acc_addr_q;
              state_q     <= SHang;
            end else begin
              state_q <= SAReq0;
            end
          end
        end
        SAReq0: begin
          // A write is posted: a straddling one goes on to its second word (which waits for
          // the first's response), else the caller goes on.
          if (req_take) state_q <= !acc_we_q ? SAW0 : acc_straddle ? SAReq1 : acc_ret_q;
        end
        SAW0: begin
          if (rsp_mine) begin
            if (mem_rsp_err_i) begin
              hang_q      <= 1'b1;
              hang_kind_q <= pica_rop_pkg::HangUnmapped;
              hang_buf_q  <= acc_buf_q;
              hang_addr_q <= acc_addr_q;
              state_q     <= SHang;
            end else if (acc_straddle) begin
              acc_rd0_q <= mem_rsp_rdata_i;
              state_q   <= SAReq1;
            end else begin
              if (!acc_we_q) rd_pixel_q <= rd_pix_w0;
              state_q <= acc_ret_q;
            end
          end
        end
        SAReq1: begin
          if (req_take) state_q <= acc_we_q ? acc_ret_q : SAW1;
        end
        SAW1: begin
          if (rsp_mine) begin
            if (mem_rsp_err_i) begin
              hang_q      <= 1'b1;
              hang_kind_q <= pica_rop_pkg::HangUnmapped;
              hang_buf_q  <= acc_buf_q;
              hang_addr_q <= acc_addr_q;
              state_q     <= SHang;
            end else begin
              if (!acc_we_q) rd_pixel_q <= rd_pix_w1;
              state_q <= acc_ret_q;
            end
          end
        end
        default: state_q <= SIdle;
      endcase
      // The posted write: taken, answered; its error hangs whatever the FSM did this clock
      // (no write can be taken in that clock: writes wait while one is posted).
      if (req_take && mem_req_we_o) begin
        posted_q  <= 1'b1;
        pw_buf_q  <= acc_buf_q;
        pw_addr_q <= acc_addr_q;
      end else if (rsp_posted) begin
        posted_q <= 1'b0;
        if (mem_rsp_err_i) begin
          hang_q      <= 1'b1;
          hang_kind_q <= pica_rop_pkg::HangUnmapped;
          hang_buf_q  <= pw_buf_q;
          hang_addr_q <= pw_addr_q;
          state_q     <= SHang;
        end
      end
    end
  end

  // ---------------------------------------------------------------- outputs
  assign in_ready_o          = (state_q == SIdle);
  assign out_valid_o         = (state_q == SOut) && !posted_q;
  assign out_tag_o           = tag_q;
  assign out_x_o             = x_q;
  assign out_y_o             = y_q;
  assign out_color_addr_o    = caddr_q;
  assign out_color_o         = bcolor_q;
  assign out_depth_addr_o    = daddr_q;
  assign out_depth_stencil_o = bds_q;
  assign out_flags_o         = flags_q;
  assign hang_o              = hang_q;
  assign hang_kind_o         = hang_kind_q;
  assign hang_buffer_o       = hang_buf_q;
  assign hang_addr_o         = hang_addr_q;
  assign hang_value_o        = hang_value_q;
  assign idle_o              = (state_q == SIdle) || (state_q == SHang);

`ifndef SYNTHESIS
  // A response only while one is awaited or a write is posted.
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset
    end else begin
      // (After a posted write's hang a read issued behind it is still answered.)
      if (mem_rsp_valid_i && !posted_q
          && !(state_q == SAProbeW || state_q == SAW0 || state_q == SAW1 || state_q == SHang))
        $error("pica_fop: memory response with no request outstanding (state %0d)", state_q);
      if (hang_q && mem_req_valid_o)
        $error("pica_fop: memory request after the hang");
    end
  end
`endif

endmodule : pica_fop
