// pica_shader_unit: one PICA200 shader unit, bit-exact with ShaderUnit::step
// (model/src/shader/interp.rs) instruction by instruction; f24 arithmetic in the pica_f24_*
// modules (model/src/shader/alu.rs).
//
// Micro-architecture: an in-order pipeline that issues one instruction per clock
// (transaction-exact, not cycle-exact, with the model: the same commits in the same order):
//   F  read code[f_pc]                                      (code port, 1-clock latency)
//   D  the word is on code_rdata_i: read its operand descriptor and the uniform its wide
//      source names (after relative addressing)             (opdesc and uniform ports)
//   R  the word (r_ir_q) with its descriptor and uniform on the ports: the register files
//      are read, the sources swizzled and negated into E's operand registers
//   E  the word (ir_q) with its operands (sa_q, sb_q, sc_q): comparators, MOVA, flow control
//      and stacks, the SFU; E decides everything but the arithmetic result and issues the
//      instruction with its commit record into
//   X  pica_sh_alu, AluLatency clocks (12 with every register: multipliers, then three steps
//      of one f24 adder each, for the dot product's three chained adds), the record beside it;
//   W  the record leaves with its result: the destination's other lanes are read and merged,
//      the register written, the commit and the EMIT beat reported, END and hangs take effect.
// Every instruction (flow control too) takes the same path, so commits stay in program order.
// R reads registers at its clock and W writes at the end of its clock: an instruction whose
// source is a temporary that the instruction in E or a record in flight will write waits in R
// until W has written it (read-after-write interlock, no forwarding); the condition flags
// (CMP, LITP) and the stacks are E's own, so flow control never waits. R is its own stage so
// that the uniform RAM's output (5.8 ns of an ECP5's 20 at 50 MHz) and the swizzle end in a
// register instead of running on into the comparators and E's control.
// F fetches sequentially; when E's next PC is not the one behind it (a jump, call, return, IF or
// LOOP end, PC wrap), E registers that PC (redir_q); in the next clock the stages behind are
// dropped and F fetches it (three bubbles). D reads the uniform with a0.x, a0.y and aL as they
// are (their offsets clamped when they are written); when the instruction in E or R may change
// the one D's word uses for relative addressing (a MOVA for a0; LOOP, BREAK, BREAKC or the last
// instruction of a loop on the stack for aL), D reads again the next clock.
// END and hangs stop E from issuing; the unit is done (or hung) when their record reaches W,
// after every older instruction.
// RCP, RSQ, EX2 and LG2 run on the multi-cycle special-function unit (pica_sh_sfu): E starts it
// on the source's x and holds (state SFU) until it is done; E then issues with its result. RCP
// and RSQ take 23 clocks in E, EX2 up to 179, LG2 382 (a special-value operand 5). A held E
// issues no memory read, so the memories' outputs (which change only on a read request) keep
// the words of the instructions in D and R (nor does a waiting R).
// stall_i holds the whole pipeline (E issues nothing, X and W do not move; the 4-unit stage pica_sh holds a unit
// whose commit queue is full, and unit 3 while an EMIT is copied). start_i (in IDLE, DONE or
// HANG) starts fetching at entry_i with empty stacks, as ShaderUnit::start; registers keep
// their values.
//
// The model's Knobs are parameters with the model's defaults.
//
// Injected bugs (off by default; see rtl/README.md):
//   INJECT_SH_ADD_ROUND   in pica_sh_alu: ADD's last mantissa bit set when the exponents differ.
//   INJECT_SH_LOOP_EXTRA  LOOP runs one iteration too many (i.x + 2 iterations).
module pica_shader_unit #(
  parameter bit MaxNegInf      = 1'b0,  // Knobs::max_neg_inf: 0 Zero (default), 1 NegInf
  parameter bit Cmp67True      = 1'b1,  // Knobs::cmp67: 1 True (default), 0 False
  parameter bit CmpUsesMask    = 1'b0,  // Knobs::cmp_uses_mask (default false)
  parameter bit IntZSigned     = 1'b0,  // Knobs::int_z: 0 Unsigned (default), 1 Signed
  parameter bit PcOverflowWrap = 1'b0,  // Knobs::pc_overflow: 0 Hang (default), 1 Wrap
  parameter bit UnknownOpNop   = 1'b0,  // Knobs::unknown_op: 0 Hang (default), 1 Nop
  parameter bit LoopAlRestore  = 1'b0,  // Knobs::loop_al: 0 Keep (default), 1 Restore
  parameter bit MovFlush       = 1'b0,  // Knobs::mov_subnormal: 0 Pass (default), 1 Flush
  parameter bit LoopEndAll     = 1'b0,  // Knobs::loop_shared_end: 0 One (default), 1 All
  // pica_sh_alu's pipeline registers (micro-architecture, not model knobs): see there.
  parameter int AluMulReg      = 1,
  parameter int AluAddRegA     = 1,
  parameter int AluAddRegB     = 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Invocation control.
  input  logic              start_i,        // taken when !busy_o
  input  logic [11:0]       entry_i,
  output logic              busy_o,         // RUN or SFU
  output logic              done_o,         // END executed (until the next start)
  output logic              hang_o,         // a hang (until the next start)
  output logic [2:0]        hang_code_o,    // Commit::hang of the hanging instruction
  input  logic              stall_i,        // hold the pipeline (nothing executes) while set

  // Uniforms: i_n = x | y << 8 | z << 16 | w << 24; bool bit n = b_n.
  input  logic [127:0]      int_uniforms_i,
  input  logic [15:0]       bool_uniforms_i,

  // Input registers v0-v15 (write port; lane 0 = x).
  input  logic              in_we_i,
  input  logic [3:0]        in_idx_i,
  input  logic [95:0]       in_data_i,

  // Memories, synchronous read: rdata is valid the cycle after req and holds until the next req
  // (the held pipeline relies on it).
  output logic              code_req_o,
  output logic [11:0]       code_addr_o,
  input  logic [31:0]       code_rdata_i,
  output logic              desc_req_o,
  output logic [6:0]        desc_addr_o,
  input  logic [31:0]       desc_rdata_i,
  output logic              unif_req_o,
  output logic [6:0]        unif_addr_o,    // 0-95 (96-127 read too; the word is not used)
  input  logic [95:0]       unif_rdata_i,

  // Commit trace (Commit in interp.rs), valid for one cycle per executed instruction.
  output logic              commit_valid_o,
  output logic [11:0]       commit_pc_o,
  output logic [31:0]       commit_word_o,
  output logic [7:0]        commit_dst_o,
  output logic [3:0]        commit_mask_o,
  output logic [95:0]       commit_result_o,
  output logic [1:0]        commit_cmp_o,
  output logic [31:0]       commit_a0x_o,
  output logic [31:0]       commit_a0y_o,
  output logic [31:0]       commit_al_o,
  output logic [12:0]       commit_next_pc_o,
  output logic              commit_emit_o,
  output logic [2:0]        commit_hang_o,
  output logic              commit_end_o,

  // EMIT beat: during it the active bank (o_rd_sel_i = 0) is the bank being emitted; after it
  // that bank is the other one (o_rd_sel_i = 1).
  output logic              emit_valid_o,
  output logic [1:0]        emit_vtx_id_o,
  output logic              emit_winding_o,
  output logic              emit_prim_o,

  // Output register read port (combinational): o[o_rd_idx_i] of the active bank, or of the
  // other bank with o_rd_sel_i.
  input  logic              o_rd_sel_i,
  input  logic [3:0]        o_rd_idx_i,
  output logic [95:0]       o_rd_data_o
);

  localparam logic [23:0] F24One   = 24'h3F0000;
  localparam logic [23:0] F24Zero  = 24'h000000;

  typedef enum logic [2:0] {
    StIdle  = 3'd0,
    StRun   = 3'd1,
    StDone  = 3'd4,
    StHang  = 3'd5,
    StSfu   = 3'd6
  } state_e;

  // Hang codes (Commit::hang).
  localparam logic [2:0] HangBreak   = 3'd1;
  localparam logic [2:0] HangMova    = 3'd2;
  localparam logic [2:0] HangPc      = 3'd3;
  localparam logic [2:0] HangUnknown = 3'd4;

  // ---------------------------------------------------------------------------------------
  // State
  state_e             state_q, state_d;
  logic [11:0]        pc_q, pc_d;            // the PC of the instruction in E; its next PC
  // Pipeline: F's next PC, D's instruction (its word on code_rdata_i), E's valid bit.
  logic [11:0]        f_pc_q;
  logic               d_valid_q;
  logic [11:0]        d_pc_q;
  logic               r_valid_q;
  logic [11:0]        r_pc_q;
  logic [12:0]        r_next_q;          // r_pc_q + 1 (the loop-end compare of D's aL hazard)
  logic [12:0]        e_next_q;          // pc_q + 1, the same for E
  logic [31:0]        r_ir_q;
  logic               e_valid_q;
  logic               e_go, e_exec, e_stop, redirect, d_haz, advance, fetch, promote;
  // A taken branch (E's next PC is not the PC behind it) is registered and fetched one clock
  // later: redir_q squashes what D and E took meanwhile. Fetching pc_d in the clock E computed
  // it put E's stack checks and the PC compare in front of the code RAM's address (the unit's
  // critical path on the ECP5); the price is one more bubble per taken branch.
  logic               redir_q, redir_go;
  logic [11:0]        redir_pc_q;
  logic [11:0]        exp_pc, fetch_pc;
  logic [31:0]        ir_q;
  logic               unif_ones_q, unif_ones_d;  // the wide uniform read is out of range
  logic [2:0]         hang_q, hang_d;
  // Register files: memories with one write port and asynchronous reads (lane l of a register
  // at [l*24 +: 24]), the shape FPGA distributed RAM takes (Xilinx RAM32M: one write and
  // three read ports per 32 x 2 bits; the read ports beyond are copies), instead of flops
  // with a decoder on every bit. A RAM has no reset, so a valid bit per register (flops,
  // cleared by rst_ni) makes a register never written since reset read as zero: the unit's
  // reset state is still all-zero registers, as the model's (ShaderUnit::new).
  //   vin_mem  v0-v15: written by the input port; read by the three sources;
  //   tmp_mem  r0-r15: written by EXEC; read by the three sources and the destination merge;
  //   ob_mem   o0-o15 of bank b at 16 b + n: written by EXEC; read by the destination merge
  //            and the output read port.
  logic [95:0]        vin_mem [16];
  logic [95:0]        tmp_mem [16];
  logic [95:0]        ob_mem  [32];
  logic [15:0]        vin_vld_q;
  logic [15:0]        tmp_vld_q;
  logic [31:0]        ob_vld_q;
  logic               tmp_we, ob_we;        // W writes w_new to the destination
  logic               bank_q, bank_d;       // E's active output bank (EMIT flips it)
  logic               wbank_q;              // W's: flips when the EMIT commits
  logic               halt_q, halt_d;       // E executed END or a hang: it issues nothing more
  logic [31:0]        a0x_q, a0x_d, a0y_q, a0y_d, al_q, al_d;
  // The offsets D adds for a0.x, a0.y and aL: clamped when the registers are written, so that
  // D's uniform address is a select and a 7-bit add after the code RAM's output (the range
  // check of a 32-bit register was the unit's critical path on the ECP5).
  logic [6:0]         relx_q, rely_q, rell_q;
  logic [1:0]         cmp_q, cmp_d;
  logic               prev_mova_q, prev_mova_d;
  logic [1:0]         em_vtx_q, em_vtx_d;
  logic               em_wind_q, em_wind_d, em_prim_q, em_prim_d;
  // The flow-control stacks are circular buffers: slot *_top_q holds the newest entry, a push
  // writes the slot after it (over the oldest when full, which is where the shift register
  // they were dropped it) and a pop only moves the pointer. Entry k from the top is slot
  // top - k. A slot's flops are written only by a push (and a LOOP's remaining count by its
  // iteration), so there are no per-bit shift muxes: shifting the stacks on every push and pop
  // (up to four pops at once for CALL) cost about 1,300 LUT6 of the unit's control.
  // CALL stack. The CALL checks pop while the top's trigger equals the copy, which after a
  // pop is the popped entry's return address: so whether entry k + 1 pops after entry k is
  // fixed when entry k is pushed (the entry below it cannot change while it is on the stack),
  // and is kept beside it (cs_link_q), instead of a chain of four slot selects and compares.
  logic [4*12-1:0]    cs_trig_q, cs_trig_d;
  logic [4*13-1:0]    cs_ret_q, cs_ret_d;
  logic [3:0]         cs_link_q, cs_link_d;  // the entry below's trigger equals the return
  logic [2:0]         cs_cnt_q, cs_cnt_d;
  logic [1:0]         cs_top_q, cs_top_d;
  // IF stack.
  logic [8*12-1:0]    is_trig_q, is_trig_d, is_tgt_q, is_tgt_d;
  logic [3:0]         is_cnt_q, is_cnt_d;
  logic [2:0]         is_top_q, is_top_d;
  // LOOP stack.
  logic [4*12-1:0]    ls_end_q, ls_end_d;
  logic [4*13-1:0]    ls_start_q, ls_start_d;
  logic [4*16-1:0]    ls_rem_q, ls_rem_d;
  logic [4*32-1:0]    ls_step_q, ls_step_d;
  logic [4*32-1:0]    ls_sav_q, ls_sav_d;    // aL before the LOOP (LoopAlRestore)
  logic [2:0]         ls_cnt_q, ls_cnt_d;
  logic [1:0]         ls_top_q, ls_top_d;

  // Commit records: what E decided for an instruction, carried beside its operands' way through
  // pica_sh_alu to W, where the result is merged into the destination and the commit reported.
  // Every instruction takes the AluLatency clocks, so records and results stay in order.
  // A record is a flat vector (Yosys 0.23 mis-elaborates arrays of packed structs), fields from
  // the top: pc 12, word 32, writes 1, dst 5, mask 4, bank 1 (the output bank of the
  // destination: E's at issue), cmp 2, a0x 32, a0y 32, aL 32, next_pc 13, emit 1, em_vtx 2,
  // em_wind 1, em_prim 1, hang 3, end 1.
  localparam int RecW      = 175;
  localparam int AluLatency = 1 + AluMulReg + 1 + 3 * (AluAddRegA + AluAddRegB + 1);
  // Record k at [k*RecW +: RecW] (one flat shift register: Icarus 11 did not update a continuous
  // read of an unpacked array's word written this way, so every record read back as x).
  logic [AluLatency*RecW-1:0] rec_q;
  logic [AluLatency-1:0] rec_v_q;
  logic [RecW-1:0]       e_rec, w_rec;
  logic                  w_go;        // W commits this clock
  // The fields of W's record.
  logic [11:0] w_pc;
  logic [31:0] w_word, w_a0x, w_a0y, w_al;
  logic        w_writes, w_bank, w_emit, w_em_wind, w_em_prim, w_end;
  logic [4:0]  w_dst;
  logic [3:0]  w_mask;
  logic [1:0]  w_cmp, w_em_vtx;
  logic [12:0] w_next_pc;
  logic [2:0]  w_hang;

  // ---------------------------------------------------------------------------------------
  // Decode (of the word being executed, ir_q, and of the word arriving in DESC).
  // The helpers below take the whole word and look at a few fields of it.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [6:0] wide_raw(input logic [31:0] w);
    logic [5:0] op6;
    op6 = w[31:26];
    if (op6[5:3] == 3'b111) wide_raw = w[16:10];       // MAD SRC2 10:7
    else if (op6[5:3] == 3'b110) wide_raw = w[11:5];   // MADI SRC3 5:7
    else if (op6 >= 6'h18 && op6 <= 6'h1B) wide_raw = w[13:7];  // 1i SRC2 7:7
    else wide_raw = w[18:12];                           // SRC1 12:7
  endfunction

  function automatic logic [1:0] idx_field(input logic [31:0] w);
    if (w[31:30] == 2'b11) idx_field = w[23:22];       // formats 5/5i
    else idx_field = w[20:19];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // DESC: the uniform the wide source reads (rel_uniform in interp.rs).
  //
  // Icarus 11 note, for every block below: an always_comb that writes a variable through a
  // part-select (or reads one it writes) is sensitive to that variable as a whole, so a
  // default followed by an override wakes the block again and again at one time step while
  // the two values differ; such values are continuous assignments or single-write branches.
  // Offsets outside [-128, 127] are not applied: in range exactly when bits 31-7 are the sign
  // extension of bit 7. The low 7 bits are kept (the uniform index wraps at 7 bits).
  function automatic logic [6:0] rel_clamp(input logic [31:0] v);
    rel_clamp = (&v[31:7] || ~|v[31:7]) ? v[6:0] : 7'd0;
  endfunction
  logic [6:0]  rel_off;
  logic [6:0]  unif_idx;
  always_comb begin
    unique case (idx_field(code_rdata_i))
      2'd1:    rel_off = relx_q;
      2'd2:    rel_off = rely_q;
      2'd3:    rel_off = rell_q;
      default: rel_off = 7'd0;
    endcase
  end
  assign unif_idx = (wide_raw(code_rdata_i) - 7'h20) + rel_off;
  // Loaded with R's word (below): when R takes a bubble it is not read.
  assign unif_ones_d = (advance && !r_hold) ? (unif_idx > 7'd95) : unif_ones_q;

  // Pipeline control. E runs its instruction when nothing holds it (e_go) and, for an SFU
  // instruction, once the SFU's result is there (e_exec).
  logic raw_haz;  // a source of R's instruction is a temporary still to be written
  logic r_hold;   // R keeps its instruction (and D and F theirs)
  logic r_move;   // R's instruction goes to E
  assign e_go     = (state_q == StRun) && e_valid_q && !stall_i && !redir_q && !halt_q;
  assign e_exec   = e_go && !sfu_wait;
  assign e_stop   = e_exec && (hang_now != 3'd0 || end_now);
  // The PC of the instruction behind E (R's, D's, or the one F fetches next).
  assign exp_pc   = r_valid_q ? r_pc_q : d_valid_q ? d_pc_q : f_pc_q;
  assign redirect = e_exec && !e_stop && redir_ne;
  // D's uniform index reads an address register E writes in this clock: d_haz, after E's
  // control below.
  // The stages move when E is empty or executes (and the run goes on); R waits on raw_haz
  // (E then takes a bubble), D on d_haz (R takes a bubble).
  // An END or a hang in E (e_stop) sets halt_q, which stops E (e_go) and the stages from the
  // next clock: what D, R and E take in e_stop's clock is never used (the unit is done or hung
  // when the END's record reaches W; start_i clears the stages). e_stop is in neither
  // `advance` nor the stages' flop enables: it comes after the stack checks (a PC overflow),
  // and clearing the stages with it put those checks in front of the fetch request and the
  // enables of the pipeline's flops (the unit's critical path on the ECP5).
  assign advance  = (state_q == StRun) && !stall_i && (!e_valid_q || e_exec) && !halt_q &&
                    !redir_q;
  // The registered redirect's clock: fetch its PC; D and E are dropped.
  assign redir_go = redir_q && !stall_i;
  assign r_hold   = r_valid_q && raw_haz;
  assign r_move   = advance && r_valid_q && !raw_haz;
  assign fetch    = (advance && !d_haz && !r_hold) || redir_go;
  assign fetch_pc = redir_q ? redir_pc_q : f_pc_q;
  assign promote  = advance && d_valid_q && !d_haz && !r_hold;  // D's instruction goes to R

  assign code_req_o  = fetch;
  assign code_addr_o = fetch_pc;
  assign desc_req_o  = advance && d_valid_q && !r_hold;
  assign desc_addr_o = (code_rdata_i[31:30] == 2'b11) ? {2'b00, code_rdata_i[4:0]}
                                                      : code_rdata_i[6:0];
  // The uniform is read whether or not its index is in range (96-127 read a word past the
  // RAM's 96, which unif_ones_q replaces with 1.0s): testing `unif_idx <= 95` here put the
  // code RAM's output, the index adder and the compare in front of the uniform RAM's enable
  // (the unit's critical path on the ECP5).
  assign unif_req_o  = advance && d_valid_q && !r_hold;
  assign unif_addr_o = unif_idx;

  // ---------------------------------------------------------------------------------------
  // Read (R): sources.
  logic [5:0]  op6;
  // Bit 31 of a descriptor is unused (isa.rs OpDesc).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] desc;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [3*7-1:0]   sraw;  // raw source fields, SRC1..SRC3 at [s*7 +: 7]
  logic [3*96-1:0]  sval;  // register values before swizzle, at [s*96 +: 96]
  logic [95:0]      ra, rb, rc;  // after swizzle and negate (R)
  logic [95:0]      sa_q, sb_q, sc_q;  // E's operands
  logic [3:0]       wmask_q;     // E's destination mask (its descriptor's bits 3-0)
  logic [15:0]      e_wtmp_q;    // the temporary E's instruction writes, one-hot (or none)

  assign op6  = ir_q[31:26];
  assign desc = desc_rdata_i;

  // Raw source fields by format (MAD, MADI, 1i, 1u, and 1/1c), decoded in D from the word
  // arriving on code_rdata_i and registered with it (sraw_q): R's register-file read addresses
  // then come straight from flops. Decoded from ir_q, the format decode sat in front of the
  // RAM reads, the swizzle and the comparators on the unit's critical path (ECP5).
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [3*7-1:0] src_fields(input logic [31:0] w);
    logic [5:0] o;
    o = w[31:26];
    if (o[5:3] == 3'b111) src_fields = {{2'b00, w[9:5]}, w[16:10], {2'b00, w[21:17]}};
    else if (o[5:3] == 3'b110) src_fields = {w[11:5], {2'b00, w[16:12]}, {2'b00, w[21:17]}};
    else if (o >= 6'h18 && o <= 6'h1B) src_fields = {7'd0, w[13:7], {2'b00, w[18:14]}};
    else if (o == 6'h05 || o == 6'h06 || o == 6'h07 || o == 6'h0B || o == 6'h0E ||
             o == 6'h0F || o == 6'h12 || o == 6'h13) src_fields = {7'd0, 7'd0, w[18:12]};
    else src_fields = {7'd0, {2'b00, w[11:7]}, w[18:12]};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  logic [3*7-1:0] sraw_q;
  assign sraw = sraw_q;

  // Only the wide source can name a uniform (5-bit fields hold v/r only).
  for (genvar s = 0; s < 3; s++) begin : g_src
    logic [3:0]  idx;
    logic [95:0] vin_rd, tmp_rd;
    assign idx    = sraw[s*7 +: 4];
    assign vin_rd = vin_vld_q[idx] ? vin_mem[idx] : '0;
    assign tmp_rd = tmp_vld_q[idx] ? tmp_mem[idx] : '0;
    assign sval[s*96 +: 96] =
        (sraw[s*7 +: 7] < 7'h10) ? vin_rd :
        (sraw[s*7 +: 7] < 7'h20) ? tmp_rd :
        unif_ones_q              ? {4{F24One}} : unif_rdata_i;
  end

  // Each lane a 4:1 mux by compare: `v[sel*24 +: 24]` became a shifter over the 96 bits with
  // the product as its amount (twelve of them: three sources, four lanes).
  function automatic logic [95:0] swz(input logic [95:0] v, input logic [7:0] sel,
                                      input logic neg);
    for (int l = 0; l < 4; l++) begin
      swz[l*24 +: 24] = '0;
      for (int c = 0; c < 4; c++) begin
        if (sel[7-2*l -: 2] == 2'(c)) swz[l*24 +: 24] = v[c*24 +: 24];
      end
      swz[l*24+23] = swz[l*24+23] ^ neg;
    end
  endfunction

  // Read-after-write: a temporary that E's instruction or a record in flight (up to and
  // including W, which writes at the end of its clock) will write is not read until it is
  // written. Outputs are never sources; address registers and flags are E's own. Both sides
  // are one-hot masks from flops (woh_q beside the records, rtmp_q beside R's word), so the
  // interlock is an AND and an OR tree in front of R's hold: decoded from the records' fields
  // and R's source fields in the same clock, it sat on the unit's critical path (ECP5).
  function automatic logic [15:0] or16(input logic [AluLatency*16-1:0] v);
    or16 = '0;
    for (int k = 0; k < AluLatency; k++) or16 = or16 | v[k*16 +: 16];
  endfunction
  // The temporaries a word's sources read, as a mask of r0-r15 (fields 0x10-0x1F).
  function automatic logic [15:0] src_tmps(input logic [3*7-1:0] f);
    src_tmps = '0;
    for (int k = 0; k < 3; k++)
      if (f[k*7+4 +: 3] == 3'b001) src_tmps = src_tmps | (16'd1 << f[k*7 +: 4]);
  endfunction
  logic [AluLatency*16-1:0] woh_q;   // per record the temporary it may write, one-hot
  logic [15:0]              rtmp_q;  // the temporaries R's word reads
  logic [15:0]              busy;
  assign busy    = or16(woh_q) | (e_valid_q ? e_wtmp_q : 16'd0);
  assign raw_haz = |(rtmp_q & busy);

  assign ra = swz(sval[0 +: 96], desc[12:5], desc[4]);
  assign rb = swz(sval[96 +: 96], desc[21:14], desc[13]);
  assign rc = swz(sval[192 +: 96], desc[30:23], desc[22]);

  // The temporary an instruction word writes (E's read-after-write term, registered with the
  // operands): every instruction with a destination (has_dst below), as a one-hot of r0-r15.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [15:0] tmp_dst(input logic [31:0] w);
    logic [5:0] o;
    logic [4:0] d;
    logic       dst;
    o = w[31:26];
    d = (o[5:4] == 2'b11) ? w[28:24] : w[25:21];
    dst = (o[5:4] == 2'b11) ||
          (o < 6'h20 && o != 6'h10 && o != 6'h11 && o != 6'h12 && !(o >= 6'h14 && o <= 6'h17) &&
           !(o >= 6'h1C && o <= 6'h1F));
    tmp_dst = (dst && d[4]) ? (16'd1 << d[3:0]) : 16'd0;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------------------
  // Execute: arithmetic.
  // The opcodes E decodes itself (pica_sh_alu decodes the arithmetic ones).
  localparam logic [5:0] OpEx2 = 6'h05, OpLg2 = 6'h06, OpLitp = 6'h07, OpSge = 6'h09,
                         OpSlt = 6'h0A, OpRcp = 6'h0E, OpRsq = 6'h0F, OpMova = 6'h12,
                         OpMov = 6'h13, OpSgei = 6'h1A, OpSlti = 6'h1B, OpBreak = 6'h20,
                         OpEnd = 6'h22, OpBreakc = 6'h23, OpCall = 6'h24, OpCallc = 6'h25,
                         OpCallu = 6'h26, OpIfu = 6'h27, OpIfc = 6'h28, OpLoop = 6'h29,
                         OpEmit = 6'h2A, OpSetemit = 6'h2B, OpJmpc = 6'h2C, OpJmpu = 6'h2D;

  logic is_mad, is_cmp, is_lit, is_slt, is_sge;
  assign is_mad = (op6[5:4] == 2'b11);
  assign is_cmp = (op6[5:1] == 5'h17);
  assign is_lit = (op6 == OpLitp);
  assign is_sge = (op6 == OpSge) || (op6 == OpSgei);
  assign is_slt = (op6 == OpSlt) || (op6 == OpSlti);

  logic [95:0] cmp_a, cmp_b;
  logic [3:0]  c_lt, c_eq, c_gt;
  logic [31:0] toint_x, toint_y;
  logic        cmp_flush;

  // The comparators serve CMP, LITP's flags and SGE/SLT (flushed), all in E: the flags steer
  // the next instruction's conditions. LITP compares (x, y, z, w) with (0, y', z', 0).
  assign cmp_flush = is_sge || is_slt;
  assign cmp_a = sa_q;
  assign cmp_b = is_lit ? {F24Zero, sb_q[24 +: 48], F24Zero} : sb_q;
  for (genvar l = 0; l < 4; l++) begin : g_lane
    pica_f24_cmp u_cmp (.a_i(cmp_a[l*24 +: 24]), .b_i(cmp_b[l*24 +: 24]), .flush_i(cmp_flush),
                        .lt_o(c_lt[l]), .eq_o(c_eq[l]), .gt_o(c_gt[l]));
  end

  // RCP, RSQ, EX2, LG2: the multi-cycle special-function unit, started by the first clock E
  // holds such an instruction (sfu_wait); its result stays on sfu_y until the next start.
  logic        is_sfu, sfu_wait, sfu_done, sfu_ready_q, sfu_ready_d;
  logic [1:0]  sfu_op;
  logic [23:0] sfu_y;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        sfu_busy;  // the wait ends on done; busy is for benches
  /* verilator lint_on UNUSEDSIGNAL */
  assign is_sfu   = (op6 == OpRcp) || (op6 == OpRsq) || (op6 == OpEx2) || (op6 == OpLg2);
  assign sfu_wait = e_go && is_sfu && !sfu_ready_q;
  assign sfu_op   = (op6 == OpRcp) ? 2'd0 : (op6 == OpRsq) ? 2'd1 : (op6 == OpEx2) ? 2'd2 : 2'd3;
  // Set when the SFU finishes; cleared by the EXEC cycle that uses the result.
  assign sfu_ready_d = (state_q == StSfu) ? (sfu_ready_q | sfu_done)
                                          : e_exec ? 1'b0 : sfu_ready_q;
  pica_sh_sfu u_sfu (
    .clk_i, .rst_ni, .start_i(sfu_wait), .op_i(sfu_op), .a_i(sa_q[0 +: 24]),
    .busy_o(sfu_busy), .done_o(sfu_done), .y_o(sfu_y)
  );
  pica_f24_to_int u_toint_x (.a_i(sa_q[0 +: 24]), .y_o(toint_x));
  pica_f24_to_int u_toint_y (.a_i(sa_q[24 +: 24]), .y_o(toint_y));

  // MOV with MovFlush: exponent-0 lanes (subnormals, -0) become +0.
  logic [95:0] mov_flushed;
  for (genvar l = 0; l < 4; l++) begin : g_mov
    assign mov_flushed[l*24 +: 24] = (sa_q[l*24+16 +: 7] == 7'd0) ? F24Zero : sa_q[l*24 +: 24];
  end

  // SGE/SLT results, per lane (continuous: see `pre` below).
  logic [95:0] sge_y, slt_y;
  for (genvar l = 0; l < 4; l++) begin : g_set
    assign sge_y[l*24 +: 24] = (c_gt[l] | c_eq[l]) ? F24One : F24Zero;
    assign slt_y[l*24 +: 24] = c_lt[l] ? F24One : F24Zero;
  end

  // The results E has itself (the comparators', the SFU's, MOV's); pica_sh_alu passes them
  // through, and computes the arithmetic ones. Every branch writes `pre` once and nothing else
  // writes it: Icarus 11 makes this block sensitive to `pre` itself (it cannot exclude a
  // variable written through a part-select), so a default followed by an override woke the
  // block forever whenever the two differed (case_seed(3, 1) of the shader generator hung the
  // Icarus replay that way).
  logic [95:0] pre;
  always_comb begin
    unique case (op6)
      OpEx2, OpLg2, OpRcp, OpRsq: pre = {4{sfu_y}};
      OpSge, OpSgei:        pre = sge_y;
      OpSlt, OpSlti:        pre = slt_y;
      OpMov:                pre = MovFlush ? mov_flushed : sa_q;
      default:              pre = sa_q;
    endcase
  end

  // The arithmetic pipeline: the result of the instruction E issues is on alu_y AluLatency
  // clocks later, when its commit record reaches W (below). It moves with the records.
  logic [95:0] alu_y;
  logic        pipe_en;
  assign pipe_en = !stall_i;
  pica_sh_alu #(.MaxNegInf(MaxNegInf), .MulReg(AluMulReg), .AddRegA(AluAddRegA),
                .AddRegB(AluAddRegB)) u_alu (
    .clk_i, .en_i(pipe_en), .op_i(op6), .a_i(sa_q), .b_i(sb_q), .c_i(sc_q), .pre_i(pre),
    .lt_i(c_lt), .gt_i(c_gt), .y_o(alu_y)
  );

  function automatic logic cmp_sel(input logic [2:0] c, input logic lt, input logic eq,
                                   input logic gt);
    unique case (c)
      3'd0: cmp_sel = eq;
      3'd1: cmp_sel = !eq;
      3'd2: cmp_sel = lt;
      3'd3: cmp_sel = lt | eq;
      3'd4: cmp_sel = gt;
      3'd5: cmp_sel = gt | eq;
      default: cmp_sel = Cmp67True;
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------
  // Execute: control.
  logic        has_dst, is_mova_op, known, cond_ok, ubool, writes, emit_now, end_now;
  logic [4:0]  dst_raw;
  logic [3:0]  wmask;
  logic [11:0] f_tgt;
  logic [7:0]  f_num;
  logic [12:0] next;
  logic [12:0] jump;
  logic        jump_v;
  logic [12:0] sel_pc;

  assign dst_raw = is_mad ? ir_q[28:24] : ir_q[25:21];
  logic [2:0]  hang_now;
  logic        pc_ovf;                  // the next PC is 0x1000 (HangPc unless PcOverflowWrap)
  logic        loop_hit, if_hit, call_hit;
  // redir_ne: pc_d differs from the PC behind E (exp_pc), selected like pc_d from compares of
  // every candidate made at once from flops (below).
  logic        redir_ne, loop_ne, if_ne, call_ne, jump_ne;
  logic [12:0] loop_pc, if_pc, call_pc;
  logic [2:0]  pops, lpops;
  logic        call_stop, loop_stop;
  // The stacks' entries as E reads them: entry k of the stack the instruction's own operation
  // leaves (a pushed entry comes from the instruction, not from its slot's flops).
  logic        ls_push, is_push, cs_push;
  logic [1:0]  ls_slot, cs_slot;
  logic [2:0]  is_slot;
  logic [11:0] is_e_tgt;
  logic        ls_e_hit, is_e_hit, cs_e_hit, ls_e_start_ne, is_e_tgt_ne, cs_e_ret_ne;
  logic [12:0] ls_e_start, cs_e_ret;
  logic [15:0] ls_e_rem, ls_new_rem, ls_rem_wd;
  logic [31:0] ls_e_step, ls_e_sav, ls_new_step;
  logic        ls_rem_we;
  logic [1:0]  ls_rem_slot;
  logic        cs_link_new, cs_match;
  logic [1:0]  cs_rent;                 // the entry whose return address the CALL checks take
  // i.w (bits 31:24) is not used by LOOP.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] iu;
  /* verilator lint_on UNUSEDSIGNAL */

  // The stack checks' compares, made for every slot at once from flops (E's next PC is e_next_q,
  // registered with the instruction): the checks then select a flag by the slot the
  // instruction's own operation leaves on top. Selecting the 12-bit entry first and comparing
  // it after, and comparing pc_d with exp_pc after the checks had chosen it, put slot muxes and
  // carry chains in series on the unit's critical path (ECP5). Every candidate of pc_d is
  // compared with exp_pc the same way (12 bits: a candidate at 0x1000 is 0 with
  // PcOverflowWrap, and a hang otherwise, where no redirect is taken).
  logic [3:0]  ls_eq, cs_eq, ls_start_ne, cs_ret_ne, ls_end_ne;
  logic [7:0]  is_eq, is_tgt_ne;
  logic        next_ne, ftgt_ne, fsum_ne;
  always_comb begin
    for (int j = 0; j < 4; j++) begin
      ls_eq[j] = ({1'b0, ls_end_q[j*12 +: 12]} == e_next_q);
      cs_eq[j] = ({1'b0, cs_trig_q[j*12 +: 12]} == e_next_q);
      ls_start_ne[j] = (ls_start_q[j*13 +: 12] != exp_pc);
      cs_ret_ne[j] = (cs_ret_q[j*13 +: 12] != exp_pc);
      ls_end_ne[j] = (ls_end_q[j*12 +: 12] != exp_pc);
    end
    for (int j = 0; j < 8; j++) begin
      is_eq[j] = ({1'b0, is_trig_q[j*12 +: 12]} == e_next_q);
      is_tgt_ne[j] = (is_tgt_q[j*12 +: 12] != exp_pc);
    end
    next_ne = (e_next_q[11:0] != exp_pc);
    ftgt_ne = (ir_q[21:10] != exp_pc);
    fsum_ne = ((ir_q[21:10] + {4'd0, ir_q[7:0]}) != exp_pc);
  end

  always_comb begin
    known = !(op6 == 6'h10 || op6 == 6'h11 || (op6 >= 6'h14 && op6 <= 6'h17) ||
              (op6 >= 6'h1C && op6 <= 6'h1F));
    is_mova_op = (op6 == OpMova);
    has_dst = (op6 < 6'h20 && known && !is_mova_op) || is_mad;
    wmask = wmask_q;
    f_tgt = ir_q[21:10];
    f_num = ir_q[7:0];
    cond_ok = 1'b0;
    unique case (ir_q[23:22])
      2'd0: cond_ok = (cmp_q[0] == ir_q[25]) || (cmp_q[1] == ir_q[24]);
      2'd1: cond_ok = (cmp_q[0] == ir_q[25]) && (cmp_q[1] == ir_q[24]);
      2'd2: cond_ok = (cmp_q[0] == ir_q[25]);
      default: cond_ok = (cmp_q[1] == ir_q[24]);
    endcase
    ubool = bool_uniforms_i[ir_q[25:22]];
    iu = '0;  // a 4:1 mux by compare, not a shifter over the 128 bits
    for (int k = 0; k < 4; k++) if (ir_q[23:22] == 2'(k)) iu = int_uniforms_i[k*32 +: 32];
    next = e_next_q;  // {1'b0, pc_q} + 1, registered with the instruction

    // Defaults: nothing changes.
    state_d = state_q;
    pc_d = pc_q;
    halt_d = halt_q;
    bank_d = bank_q;
    a0x_d = a0x_q;
    a0y_d = a0y_q;
    al_d = al_q;
    cmp_d = cmp_q;
    prev_mova_d = prev_mova_q;
    em_vtx_d = em_vtx_q;
    em_wind_d = em_wind_q;
    em_prim_d = em_prim_q;
    {cs_trig_d, cs_ret_d, cs_link_d, cs_cnt_d, cs_top_d} =
        {cs_trig_q, cs_ret_q, cs_link_q, cs_cnt_q, cs_top_q};
    {is_trig_d, is_tgt_d, is_cnt_d, is_top_d} = {is_trig_q, is_tgt_q, is_cnt_q, is_top_q};
    {ls_end_d, ls_start_d, ls_rem_d, ls_step_d, ls_sav_d, ls_cnt_d, ls_top_d} =
        {ls_end_q, ls_start_q, ls_rem_q, ls_step_q, ls_sav_q, ls_cnt_q, ls_top_q};
    {ls_push, is_push, cs_push, cs_link_new, cs_match, ls_rem_we} = '0;
    {ls_slot, is_slot, cs_slot, ls_rem_slot, cs_rent} =
        {ls_top_q, is_top_q, cs_top_q, ls_top_q, 2'd0};
    {ls_e_start, ls_e_rem, ls_e_step, ls_e_sav} = '0;
    {is_e_tgt, cs_e_ret} = '0;
    {ls_e_hit, is_e_hit, cs_e_hit, ls_e_start_ne, is_e_tgt_ne, cs_e_ret_ne} = '0;
    {ls_rem_wd, ls_new_rem, ls_new_step} = '0;
    jump = 13'd0;
    jump_v = 1'b0;
    hang_now = 3'd0;
    pc_ovf = 1'b0;
    {redir_ne, loop_ne, if_ne, call_ne, jump_ne} = '0;
    writes = 1'b0;
    emit_now = 1'b0;
    end_now = 1'b0;
    loop_hit = 1'b0;
    if_hit = 1'b0;
    call_hit = 1'b0;
    loop_pc = next;
    if_pc = next;
    call_pc = next;
    pops = 3'd0;
    lpops = 3'd0;
    call_stop = 1'b0;
    loop_stop = 1'b0;
    sel_pc = next;

    unique case (state_q)
      StIdle, StDone, StHang: begin
        if (start_i) begin
          state_d = StRun;
          halt_d = 1'b0;
          cs_cnt_d = 3'd0;
          is_cnt_d = 4'd0;
          ls_cnt_d = 3'd0;
          prev_mova_d = 1'b0;
        end
      end
      StSfu:   if (sfu_done) state_d = StRun;
      default: begin  // StRun: E
        if (!e_exec) begin
          // Nothing in E, held, or waiting for the SFU's result.
          if (sfu_wait) state_d = StSfu;
        end else if (is_mova_op && prev_mova_q) begin
          hang_now = HangMova;
        end else if (!known && !UnknownOpNop) begin
          hang_now = HangUnknown;
        end else begin
          prev_mova_d = is_mova_op;
          // Register results.
          writes = has_dst;
          if (is_mova_op) begin
            if (wmask[3]) a0x_d = toint_x;
            if (wmask[2]) a0y_d = toint_y;
          end
          if (is_lit) cmp_d = {c_gt[3] | c_eq[3], c_gt[0] | c_eq[0]};
          if (is_cmp) begin
            if (!CmpUsesMask || wmask[3]) cmp_d[0] = cmp_sel(ir_q[26:24], c_lt[0], c_eq[0], c_gt[0]);
            if (!CmpUsesMask || wmask[2]) cmp_d[1] = cmp_sel(ir_q[23:21], c_lt[1], c_eq[1], c_gt[1]);
          end
          // Flow-control instructions: their own stack operation.
          unique case (op6)
            OpBreak, OpBreakc: begin
              if (op6 == OpBreak || cond_ok) begin
                if (ls_cnt_q == 3'd0) begin
                  hang_now = HangBreak;
                end else begin
                  for (int j = 0; j < 4; j++) begin
                    if (ls_top_q == 2'(j)) begin
                      jump = {1'b0, ls_end_q[j*12 +: 12]};
                      jump_ne = ls_end_ne[j];
                      // LoopAlRestore: an outer loop remains, aL returns to its value.
                      if (LoopAlRestore && ls_cnt_q > 3'd1) al_d = ls_sav_q[j*32 +: 32];
                    end
                  end
                  jump_v = 1'b1;
                  ls_top_d = ls_top_q - 2'd1;
                  ls_cnt_d = ls_cnt_q - 3'd1;
                end
              end
            end
            OpCall, OpCallc, OpCallu: begin
              if (op6 == OpCall || (op6 == OpCallc && cond_ok) || (op6 == OpCallu && ubool)) begin
                cs_push = 1'b1;
                cs_top_d = cs_top_q + 2'd1;
                for (int j = 0; j < 4; j++) begin
                  if (cs_top_q == 2'(j)) cs_link_new = cs_eq[j];
                end
                for (int j = 0; j < 4; j++) begin
                  if (cs_top_d == 2'(j)) begin
                    cs_trig_d[j*12 +: 12] = f_tgt + {4'd0, f_num};
                    cs_ret_d[j*13 +: 13] = next;
                    cs_link_d[j] = cs_link_new;
                  end
                end
                if (cs_cnt_q != 3'd4) cs_cnt_d = cs_cnt_q + 3'd1;
                jump = {1'b0, f_tgt};
                jump_ne = ftgt_ne;
                jump_v = 1'b1;
              end
            end
            OpIfu, OpIfc: begin
              if ((op6 == OpIfu) ? ubool : cond_ok) begin
                is_push = 1'b1;
                is_top_d = is_top_q + 3'd1;
                for (int j = 0; j < 8; j++) begin
                  if (is_top_d == 3'(j)) begin
                    is_trig_d[j*12 +: 12] = f_tgt;
                    is_tgt_d[j*12 +: 12] = f_tgt + {4'd0, f_num};
                  end
                end
                if (is_cnt_q != 4'd8) is_cnt_d = is_cnt_q + 4'd1;
              end else begin
                jump = {1'b0, f_tgt};
                jump_ne = ftgt_ne;
                jump_v = 1'b1;
              end
            end
            OpJmpc: begin
              if (cond_ok) begin
                jump = {1'b0, f_tgt};
                jump_ne = ftgt_ne;
                jump_v = 1'b1;
              end
            end
            OpJmpu: begin
              if (ubool != f_num[0]) begin
                jump = {1'b0, f_tgt};
                jump_ne = ftgt_ne;
                jump_v = 1'b1;
              end
            end
            OpLoop: begin
              al_d = {24'd0, iu[15:8]};
`ifdef INJECT_SH_LOOP_EXTRA
              // Injected bug: one iteration too many.
              ls_new_rem = {8'd0, iu[7:0]} + 16'd1;
`else
              ls_new_rem = {8'd0, iu[7:0]};
`endif
              ls_new_step = IntZSigned ? {{24{iu[23]}}, iu[23:16]} : {24'd0, iu[23:16]};
              ls_push = 1'b1;
              ls_top_d = ls_top_q + 2'd1;
              for (int j = 0; j < 4; j++) begin
                if (ls_top_d == 2'(j)) begin
                  ls_sav_d[j*32 +: 32] = al_q;
                  ls_end_d[j*12 +: 12] = f_tgt + 12'd1;
                  ls_start_d[j*13 +: 13] = next;
                  ls_step_d[j*32 +: 32] = ls_new_step;
                end
              end
              // The remaining count has a second writer (an iteration): written below.
              ls_rem_we = 1'b1;
              ls_rem_slot = ls_top_d;
              ls_rem_wd = ls_new_rem;
              if (ls_cnt_q != 3'd4) ls_cnt_d = ls_cnt_q + 3'd1;
            end
            OpSetemit: begin
              em_vtx_d = ir_q[25:24];
              em_wind_d = ir_q[22];
              em_prim_d = ir_q[23];
            end
            OpEmit: begin
              emit_now = 1'b1;
              bank_d = !bank_q;
            end
            OpEnd: end_now = 1'b1;
            default: ;
          endcase

          if (hang_now == 3'd0 && !end_now) begin
            // Stack checks after the instruction (ShaderUnit::next_pc), on the stacks as the
            // instruction left them. LOOP: the top entry if it ends here (aL += its step; it
            // iterates, or pops on its last iteration). LoopEndAll (Knobs::loop_shared_end
            // All): after a pop the next entry is checked against the same PC, like the CALL
            // stack below, so nested loops ending on this instruction all step; the default
            // pops one entry at most (3dbrew "Control Flow"). Entry k is the k-th from the
            // top before the pops, which shift the stack once at the end.
            // (Without LoopEndAll only entry 0 can be looked at.)
            for (int k = 0; k < (LoopEndAll ? 4 : 1); k++) begin
              ls_slot = ls_top_d - 2'(k);
              if (k == 0 && ls_push) begin
                ls_e_hit = ({1'b0, f_tgt + 12'd1} == next);
                ls_e_start_ne = next_ne;
                ls_e_start = next;
                ls_e_rem = ls_new_rem;
                ls_e_step = ls_new_step;
                ls_e_sav = al_q;
              end else begin
                for (int j = 0; j < 4; j++) begin
                  if (ls_slot == 2'(j)) begin
                    ls_e_hit = ls_eq[j];
                    ls_e_start_ne = ls_start_ne[j];
                    ls_e_start = ls_start_q[j*13 +: 13];
                    ls_e_rem = ls_rem_q[j*16 +: 16];
                    ls_e_step = ls_step_q[j*32 +: 32];
                    ls_e_sav = ls_sav_q[j*32 +: 32];
                  end
                end
              end
              if (!loop_stop && ls_cnt_d > 3'(k) && ls_e_hit) begin
                loop_hit = 1'b1;
                al_d = al_d + ls_e_step;
                if (ls_e_rem != 16'd0) begin
                  ls_rem_we = 1'b1;
                  ls_rem_slot = ls_slot;
                  ls_rem_wd = ls_e_rem - 16'd1;
                  loop_pc = ls_e_start;
                  loop_ne = ls_e_start_ne;
                  loop_stop = 1'b1;
                end else begin
                  // LoopAlRestore: an outer loop remains, aL returns to its value.
                  if (LoopAlRestore && ls_cnt_d > 3'(k + 1)) al_d = ls_e_sav;
                  lpops = lpops + 3'd1;
                  loop_pc = next;
                  loop_ne = next_ne;
                  if (!LoopEndAll) loop_stop = 1'b1;
                end
              end else begin
                loop_stop = 1'b1;
              end
            end
            ls_top_d = ls_top_d - 2'(lpops);
            ls_cnt_d = ls_cnt_d - lpops;
            // IF: one entry at most.
            is_slot = is_top_d;
            if (is_push) begin
              is_e_hit = ({1'b0, f_tgt} == next);
              is_e_tgt_ne = fsum_ne;
              is_e_tgt = f_tgt + {4'd0, f_num};
            end else begin
              for (int j = 0; j < 8; j++) begin
                if (is_slot == 3'(j)) begin
                  is_e_hit = is_eq[j];
                  is_e_tgt_ne = is_tgt_ne[j];
                  is_e_tgt = is_tgt_q[j*12 +: 12];
                end
              end
            end
            if (is_cnt_d != 4'd0 && is_e_hit) begin
              if_hit = 1'b1;
              if_ne = is_e_tgt_ne;
              if_pc = {1'b0, is_e_tgt};
              is_top_d = is_top_d - 3'd1;
              is_cnt_d = is_cnt_d - 4'd1;
            end
            // CALL: keeps popping while the top matches its copy; the fourth pop in a row does
            // not update the copy (hardware bug, 3dbrew "Control Flow"). Entry 0 matches when
            // its trigger is the next PC, entry k > 0 when entry k - 1's link is set.
            call_stop = 1'b0;
            if (cs_push) begin
              cs_e_hit = ({1'b0, f_tgt + {4'd0, f_num}} == next);
            end else begin
              for (int j = 0; j < 4; j++) begin
                if (cs_top_d == 2'(j)) cs_e_hit = cs_eq[j];
              end
            end
            for (int k = 0; k < 4; k++) begin
              if (k == 0) begin
                cs_match = cs_e_hit;
              end else if (k == 1 && cs_push) begin
                cs_match = cs_link_new;
              end else begin
                cs_slot = cs_top_d - 2'(k - 1);
                for (int j = 0; j < 4; j++) begin
                  if (cs_slot == 2'(j)) cs_match = cs_link_q[j];
                end
              end
              if (!call_stop && cs_cnt_d > 3'(k) && cs_match) begin
                pops = pops + 3'd1;
                call_hit = 1'b1;
              end else begin
                call_stop = 1'b1;
              end
            end
            // The copy: the return address of the last entry popped (of the third after four).
            cs_rent = (pops == 3'd4) ? 2'd2 : 2'(pops - 3'd1);
            if (cs_push && cs_rent == 2'd0) begin
              cs_e_ret = next;
              cs_e_ret_ne = next_ne;
            end else begin
              cs_slot = cs_top_d - cs_rent;
              for (int j = 0; j < 4; j++) begin
                if (cs_slot == 2'(j)) begin
                  cs_e_ret = cs_ret_q[j*13 +: 13];
                  cs_e_ret_ne = cs_ret_ne[j];
                end
              end
            end
            if (call_hit) begin
              call_pc = cs_e_ret;
              call_ne = cs_e_ret_ne;
            end
            cs_top_d = cs_top_d - 2'(pops);
            cs_cnt_d = cs_cnt_d - pops;
            if (loop_hit) sel_pc = loop_pc;
            else if (if_hit) sel_pc = if_pc;
            else if (call_hit) sel_pc = call_pc;
            else if (jump_v) sel_pc = jump;
            else sel_pc = next;
            if (loop_hit) redir_ne = loop_ne;
            else if (if_hit) redir_ne = if_ne;
            else if (call_hit) redir_ne = call_ne;
            else if (jump_v) redir_ne = jump_ne;
            else redir_ne = next_ne;
            if (sel_pc[12]) begin
              if (PcOverflowWrap) pc_d = 12'd0;
              else pc_ovf = 1'b1;
            end else begin
              pc_d = sel_pc[11:0];
            end
          end
        end
        // E issues nothing after an END or a hang; the state changes when its record reaches W.
        // A hang found before the stack checks (MOVA, unknown opcode, BREAK on an empty stack):
        // the instruction does not execute, no state changes at all. The PC's overflow
        // (pc_ovf, HangPc) comes after the checks and the instruction executes: kept apart, so
        // that these reverts do not wait for the checks.
        if (hang_now != 3'd0) begin
          halt_d = 1'b1;
          bank_d = bank_q;
          a0x_d = a0x_q;
          a0y_d = a0y_q;
          al_d = al_q;
          cmp_d = cmp_q;
          prev_mova_d = prev_mova_q;
          {cs_cnt_d, is_cnt_d, ls_cnt_d} = {cs_cnt_q, is_cnt_q, ls_cnt_q};
          {cs_top_d, is_top_d, ls_top_d} = {cs_top_q, is_top_q, ls_top_q};
          writes = 1'b0;
          emit_now = 1'b0;
        end else if (end_now || pc_ovf) begin
          halt_d = 1'b1;
        end
        if (pc_ovf) hang_now = HangPc;
      end
    endcase
    // The LOOP stack's remaining counts: one write (a push's count, or the iterating entry's
    // decrement, which wins: it is the pushed entry itself when both happen).
    for (int j = 0; j < 4; j++) begin
      if (ls_rem_we && ls_rem_slot == 2'(j)) ls_rem_d[j*16 +: 16] = ls_rem_wd;
    end
    // W: the END or hang record commits; the unit stops.
    if (w_go && w_hang != 3'd0) state_d = StHang;
    else if (w_go && w_end) state_d = StDone;
  end

  // ---------------------------------------------------------------------------------------
  // D's hazard on the address registers.
  // D's uniform index reads a0.x, a0.y or aL, which E writes in this clock or R's instruction
  // may write when it executes. The tests are on the instructions, not on the new values: a0's
  // comes from the float-to-int conversion and aL's from the stack checks (a compare and a
  // 32-bit add per entry), and comparing either with the old value put all of that in front of
  // the fetch request (the unit's critical path on the ECP5 both times). For E: a MOVA with the
  // lane in its mask for a0.x and a0.y; for aL a LOOP, BREAK or BREAKC, or an instruction that
  // ends a loop on the stack (every entry, counted or not: the checks run on the stack E's own
  // operation leaves, which differs from ls_end_q only for LOOP and BREAK). For R the test is
  // coarser (its descriptor, the mask, is on the RAM's output, which this path avoids): a MOVA
  // for a0.x and a0.y; for aL the same as E's, or a LOOP in E (it pushes an end R's instruction
  // may sit at). After an END or a hang in E (e_stop) D's instruction is never used, so it is
  // not a term.
  logic [1:0] d_idx;
  logic       d_idx_written, d_idx_r;
  logic [5:0] r_op;
  logic       r_at_end, e_at_end;
  assign d_idx = idx_field(code_rdata_i);
  assign r_op  = r_ir_q[31:26];
  always_comb begin
    r_at_end = 1'b0;
    for (int k = 0; k < 4; k++) begin
      if ({1'b0, ls_end_q[k*12 +: 12]} == r_next_q) r_at_end = 1'b1;
    end
    e_at_end = |ls_eq;
  end
  always_comb begin
    unique case (d_idx)
      2'd1:    d_idx_written = is_mova_op && wmask[3];
      2'd2:    d_idx_written = is_mova_op && wmask[2];
      2'd3:    d_idx_written = op6 == OpLoop || op6 == OpBreak || op6 == OpBreakc || e_at_end;
      default: d_idx_written = 1'b0;
    endcase
  end
  always_comb begin
    unique case (d_idx)
      2'd1, 2'd2: d_idx_r = r_valid_q && (r_op == OpMova);
      2'd3:       d_idx_r = (r_valid_q && (r_op == OpLoop || r_op == OpBreak ||
                                           r_op == OpBreakc || r_at_end)) ||
                            (e_valid_q && op6 == OpLoop);
      default:    d_idx_r = 1'b0;
    endcase
  end
  assign d_haz    = d_valid_q && ((e_exec && d_idx_written) || d_idx_r);

  // ---------------------------------------------------------------------------------------
  // Ports.
  assign busy_o = (state_q == StRun) || (state_q == StSfu);
  assign done_o = (state_q == StDone);
  assign hang_o = (state_q == StHang);
  assign hang_code_o = hang_q;

  // ---------------------------------------------------------------------------------------
  // W: the record leaving the pipeline with its result. The destination's other lanes are read
  // here (every write before it has landed: records leave in order, one per clock).
  logic [4:0]  w_ob;     // the destination's entry in the output RAM
  logic [95:0] w_old, w_new;
  assign e_rec = {pc_q, ir_q, writes, dst_raw, wmask, bank_q, cmp_d, a0x_d, a0y_d, al_d,
                  (hang_now != 3'd0 || end_now) ? {1'b0, pc_q} : {1'b0, pc_d},
                  emit_now, em_vtx_q, em_wind_q, em_prim_q, hang_now, end_now};
  assign w_rec = rec_q[(AluLatency-1)*RecW +: RecW];
  assign {w_pc, w_word, w_writes, w_dst, w_mask, w_bank, w_cmp, w_a0x, w_a0y, w_al, w_next_pc,
          w_emit, w_em_vtx, w_em_wind, w_em_prim, w_hang, w_end} = w_rec;
  assign w_go  = rec_v_q[AluLatency-1] && pipe_en;
  assign w_ob  = {w_bank, w_dst[3:0]};
  assign w_old = w_dst[4] ? (tmp_vld_q[w_dst[3:0]] ? tmp_mem[w_dst[3:0]] : '0)
                              : (ob_vld_q[w_ob] ? ob_mem[w_ob] : '0);
  for (genvar l = 0; l < 4; l++) begin : g_merge
    assign w_new[l*24 +: 24] = w_mask[3-l] ? alu_y[l*24 +: 24] : w_old[l*24 +: 24];
  end
  assign tmp_we = w_go && w_writes && w_dst[4];
  assign ob_we  = w_go && w_writes && !w_dst[4];
  assign hang_d = (start_i && !busy_o) ? 3'd0 : (w_go && w_hang != 3'd0) ? w_hang : hang_q;

  assign commit_valid_o   = w_go;
  assign commit_pc_o      = w_pc;
  assign commit_word_o    = w_word;
  assign commit_dst_o     = w_writes ? {3'b000, w_dst} : 8'hFF;
  assign commit_mask_o    = w_writes ? w_mask : 4'd0;
  assign commit_result_o  = w_writes ? w_new : '0;
  assign commit_cmp_o     = w_cmp;
  assign commit_a0x_o     = w_a0x;
  assign commit_a0y_o     = w_a0y;
  assign commit_al_o      = w_al;
  assign commit_next_pc_o = w_next_pc;
  assign commit_emit_o    = w_emit;
  assign commit_hang_o    = w_hang;
  assign commit_end_o     = w_end;

  assign emit_valid_o   = w_go && w_emit;
  assign emit_vtx_id_o  = w_em_vtx;
  assign emit_winding_o = w_em_wind;
  assign emit_prim_o    = w_em_prim;

  logic o_rd_bank;
  assign o_rd_bank   = wbank_q ^ o_rd_sel_i;
  assign o_rd_data_o = ob_vld_q[{o_rd_bank, o_rd_idx_i}] ? ob_mem[{o_rd_bank, o_rd_idx_i}] : '0;

  // ---------------------------------------------------------------------------------------
  // Flops.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      pc_q <= '0;
      f_pc_q <= '0;
      d_valid_q <= 1'b0;
      d_pc_q <= '0;
      r_valid_q <= 1'b0;
      r_pc_q <= '0;
      r_next_q <= '0;
      e_next_q <= '0;
      r_ir_q <= '0;
      e_valid_q <= 1'b0;
      redir_q <= 1'b0;
      redir_pc_q <= '0;
      ir_q <= '0;
      sraw_q <= '0;
      rtmp_q <= '0;
      woh_q <= '0;
      sa_q <= '0;
      sb_q <= '0;
      sc_q <= '0;
      wmask_q <= '0;
      e_wtmp_q <= '0;
      unif_ones_q <= 1'b0;
      sfu_ready_q <= 1'b0;
      hang_q <= '0;
      halt_q <= 1'b0;
      wbank_q <= 1'b0;
      rec_v_q <= '0;
      vin_vld_q <= '0;
      tmp_vld_q <= '0;
      ob_vld_q <= '0;
      bank_q <= 1'b0;
      a0x_q <= '0;
      a0y_q <= '0;
      al_q <= '0;
      relx_q <= '0;
      rely_q <= '0;
      rell_q <= '0;
      cmp_q <= '0;
      prev_mova_q <= 1'b0;
      em_vtx_q <= '0;
      em_wind_q <= 1'b0;
      em_prim_q <= 1'b0;
      cs_trig_q <= '0;
      cs_ret_q <= '0;
      cs_link_q <= '0;
      cs_cnt_q <= '0;
      cs_top_q <= '0;
      is_top_q <= '0;
      ls_top_q <= '0;
      is_trig_q <= '0;
      is_tgt_q <= '0;
      is_cnt_q <= '0;
      ls_end_q <= '0;
      ls_start_q <= '0;
      ls_rem_q <= '0;
      ls_step_q <= '0;
      ls_sav_q <= '0;
      ls_cnt_q <= '0;
    end else begin
      state_q <= state_d;
      if (start_i && (state_q == StIdle || state_q == StDone || state_q == StHang)) begin
        f_pc_q <= entry_i;
        d_valid_q <= 1'b0;
        r_valid_q <= 1'b0;
        e_valid_q <= 1'b0;
        redir_q <= 1'b0;
      end else if (redir_go) begin
        redir_q <= 1'b0;
        e_valid_q <= 1'b0;
        r_valid_q <= 1'b0;
        d_valid_q <= 1'b1;
        d_pc_q <= redir_pc_q;
        f_pc_q <= redir_pc_q + 12'd1;
      end else if (advance) begin
        // E's branch (redirect implies advance): what D, R and E take in this clock is
        // dropped in the next, which fetches pc_d.
        if (redirect) redir_q <= 1'b1;
        e_valid_q <= r_move;
        if (!r_hold) r_valid_q <= promote;
        // R's word and fields load whenever R moves, its valid bit saying whether D's word was
        // promoted: with an enable of `promote`, D's hazard (the code RAM's output, the
        // address-register tests) sat in front of these 100-odd flops' enables.
        if (!r_hold) begin
          r_ir_q <= code_rdata_i;
          sraw_q <= src_fields(code_rdata_i);
          rtmp_q <= src_tmps(src_fields(code_rdata_i));
          r_pc_q <= d_pc_q;
          r_next_q <= {1'b0, d_pc_q} + 13'd1;
        end
        if (fetch) begin
          d_valid_q <= 1'b1;
          d_pc_q <= fetch_pc;
          f_pc_q <= fetch_pc + 12'd1;
        end
      end
      // E's word and operands load whenever the stages move: when R holds (or is empty) E
      // takes a bubble (e_valid_q above) and what loads here is never used. An enable of
      // `r_move` put the read-after-write interlock in front of these 400-odd flops' enables
      // (the unit's critical path on the ECP5).
      if (advance) begin
        ir_q <= r_ir_q;
        pc_q <= r_pc_q;
        e_next_q <= r_next_q;
        sa_q <= ra;
        sb_q <= rb;
        sc_q <= rc;
        wmask_q <= desc[3:0];
        e_wtmp_q <= tmp_dst(r_ir_q);
      end
      // redir_pc_q is read only while redir_q is set, and redir_q is set from a clock in which
      // it was clear: loading pc_d in every such clock keeps the stack checks and the redirect
      // compare out of these flops' enable.
      if (!redir_q) redir_pc_q <= pc_d;
      if (pipe_en) woh_q <= {woh_q[(AluLatency-1)*16-1:0], e_exec ? e_wtmp_q : 16'd0};
      unif_ones_q <= unif_ones_d;
      sfu_ready_q <= sfu_ready_d;
      hang_q <= hang_d;
      halt_q <= halt_d;
      if (w_go && w_emit) wbank_q <= !wbank_q;
      if (pipe_en) rec_v_q <= {rec_v_q[AluLatency-2:0], e_exec};
      if (in_we_i) vin_vld_q[in_idx_i] <= 1'b1;
      if (tmp_we) tmp_vld_q[w_dst[3:0]] <= 1'b1;
      if (ob_we) ob_vld_q[w_ob] <= 1'b1;
      bank_q <= bank_d;
      a0x_q <= a0x_d;
      a0y_q <= a0y_d;
      al_q <= al_d;
      relx_q <= rel_clamp(a0x_d);
      rely_q <= rel_clamp(a0y_d);
      rell_q <= rel_clamp(al_d);
      cmp_q <= cmp_d;
      prev_mova_q <= prev_mova_d;
      em_vtx_q <= em_vtx_d;
      em_wind_q <= em_wind_d;
      em_prim_q <= em_prim_d;
      cs_trig_q <= cs_trig_d;
      cs_ret_q <= cs_ret_d;
      cs_link_q <= cs_link_d;
      cs_cnt_q <= cs_cnt_d;
      cs_top_q <= cs_top_d;
      is_top_q <= is_top_d;
      ls_top_q <= ls_top_d;
      is_trig_q <= is_trig_d;
      is_tgt_q <= is_tgt_d;
      is_cnt_q <= is_cnt_d;
      ls_end_q <= ls_end_d;
      ls_start_q <= ls_start_d;
      ls_rem_q <= ls_rem_d;
      ls_step_q <= ls_step_d;
      ls_sav_q <= ls_sav_d;
      ls_cnt_q <= ls_cnt_d;
    end
  end

  // The register-file RAMs (no reset: see the valid bits). Power-on zero like pica_ram, so that
  // simulators never read X from a word the valid bits mask.
  initial begin
    for (int i = 0; i < 16; i++) begin
      vin_mem[i] = '0;
      tmp_mem[i] = '0;
    end
    for (int i = 0; i < 32; i++) ob_mem[i] = '0;
  end

  always_ff @(posedge clk_i) begin
    if (in_we_i) vin_mem[in_idx_i] <= in_data_i;
  end

  always_ff @(posedge clk_i) begin
    if (tmp_we) tmp_mem[w_dst[3:0]] <= w_new;
  end

  always_ff @(posedge clk_i) begin
    if (ob_we) ob_mem[w_ob] <= w_new;
  end

  // The commit records (no reset: rec_v_q says which hold an instruction).
  always_ff @(posedge clk_i) begin
    if (pipe_en) rec_q <= {rec_q[(AluLatency-1)*RecW-1:0], e_rec};
  end

`ifndef SYNTHESIS
  // The stack counters never exceed the depths.
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset
    end else begin
      if (cs_cnt_q > 3'd4) $error("pica_shader_unit: CALL stack count %0d", cs_cnt_q);
      if (is_cnt_q > 4'd8) $error("pica_shader_unit: IF stack count %0d", is_cnt_q);
      if (ls_cnt_q > 3'd4) $error("pica_shader_unit: LOOP stack count %0d", ls_cnt_q);
      // The redirect's compare, made per candidate before pc_d is chosen (redir_ne), is
      // pc_d != exp_pc.
      if (e_exec && !e_stop && redir_ne != (pc_d != exp_pc))
        $error("pica_shader_unit: redir_ne %0d, pc_d %03x, exp_pc %03x", redir_ne, pc_d, exp_pc);
    end
  end
`endif

endmodule : pica_shader_unit
