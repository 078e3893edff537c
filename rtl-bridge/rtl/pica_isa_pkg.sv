// Generated from model/src/shader/isa.rs by `pica gen rtl` — do not edit.
//
// PICA200 shader ISA: opcodes, formats, instruction-word field positions, the
// operand-descriptor layout and the register namespaces (pica-facts §1; 3dbrew
// GPU/Shader_Instruction_Set). Use as `pica_isa_pkg::NAME` (no import: Yosys 0.23).

package pica_isa_pkg;

  // A table of constants: any one module uses few of them (Verilator -Wall waiver).
  /* verilator lint_off UNUSEDPARAM */

  // ---- Opcodes: first 6-bit code (bits 31:26) and how many codes decode to it
  localparam logic [5:0] OP_ADD      = 6'h00;  localparam int OP_ADD_SPAN = 1;  // format 1: d = s1 + s2
  localparam logic [5:0] OP_DP3      = 6'h01;  localparam int OP_DP3_SPAN = 1;  // format 1: dot of xyz to every enabled component
  localparam logic [5:0] OP_DP4      = 6'h02;  localparam int OP_DP4_SPAN = 1;  // format 1: dot of xyzw
  localparam logic [5:0] OP_DPH      = 6'h03;  localparam int OP_DPH_SPAN = 1;  // format 1: dot(s1.xyz with w=1, s2)
  localparam logic [5:0] OP_DST      = 6'h04;  localparam int OP_DST_SPAN = 1;  // format 1: (1, s1.y*s2.y, s1.z, s2.w)
  localparam logic [5:0] OP_EX2      = 6'h05;  localparam int OP_EX2_SPAN = 1;  // format 1u: 2^s1.x to every component
  localparam logic [5:0] OP_LG2      = 6'h06;  localparam int OP_LG2_SPAN = 1;  // format 1u: log2(s1.x) to every component
  localparam logic [5:0] OP_LITP     = 6'h07;  localparam int OP_LITP_SPAN = 1;  // format 1u: partial lighting; sets cmp.x/cmp.y
  localparam logic [5:0] OP_MUL      = 6'h08;  localparam int OP_MUL_SPAN = 1;  // format 1: d = s1 * s2
  localparam logic [5:0] OP_SGE      = 6'h09;  localparam int OP_SGE_SPAN = 1;  // format 1: s1 >= s2 ? 1 : 0
  localparam logic [5:0] OP_SLT      = 6'h0A;  localparam int OP_SLT_SPAN = 1;  // format 1: s1 < s2 ? 1 : 0
  localparam logic [5:0] OP_FLR      = 6'h0B;  localparam int OP_FLR_SPAN = 1;  // format 1u: floor per component
  localparam logic [5:0] OP_MAX      = 6'h0C;  localparam int OP_MAX_SPAN = 1;  // format 1: maximum
  localparam logic [5:0] OP_MIN      = 6'h0D;  localparam int OP_MIN_SPAN = 1;  // format 1: minimum
  localparam logic [5:0] OP_RCP      = 6'h0E;  localparam int OP_RCP_SPAN = 1;  // format 1u: 1/s1.x to every component
  localparam logic [5:0] OP_RSQ      = 6'h0F;  localparam int OP_RSQ_SPAN = 1;  // format 1u: 1/sqrt(s1.x) to every component
  localparam logic [5:0] OP_MOVA     = 6'h12;  localparam int OP_MOVA_SPAN = 1;  // format 1u: a0.x/a0.y = s1.x/s1.y truncated toward zero
  localparam logic [5:0] OP_MOV      = 6'h13;  localparam int OP_MOV_SPAN = 1;  // format 1u: d = s1
  localparam logic [5:0] OP_DPHI     = 6'h18;  localparam int OP_DPHI_SPAN = 1;  // format 1i: DPH with the wide source second
  localparam logic [5:0] OP_DSTI     = 6'h19;  localparam int OP_DSTI_SPAN = 1;  // format 1i: DST with the wide source second
  localparam logic [5:0] OP_SGEI     = 6'h1A;  localparam int OP_SGEI_SPAN = 1;  // format 1i: SGE with the wide source second
  localparam logic [5:0] OP_SLTI     = 6'h1B;  localparam int OP_SLTI_SPAN = 1;  // format 1i: SLT with the wide source second
  localparam logic [5:0] OP_BREAK    = 6'h20;  localparam int OP_BREAK_SPAN = 1;  // format 0: leave the innermost LOOP
  localparam logic [5:0] OP_NOP      = 6'h21;  localparam int OP_NOP_SPAN = 1;  // format 0: no operation
  localparam logic [5:0] OP_END      = 6'h22;  localparam int OP_END_SPAN = 1;  // format 0: end of program
  localparam logic [5:0] OP_BREAKC   = 6'h23;  localparam int OP_BREAKC_SPAN = 1;  // format 2: BREAK if condition
  localparam logic [5:0] OP_CALL     = 6'h24;  localparam int OP_CALL_SPAN = 1;  // format 2: run [DST, DST+NUM) then return
  localparam logic [5:0] OP_CALLC    = 6'h25;  localparam int OP_CALLC_SPAN = 1;  // format 2: CALL if condition
  localparam logic [5:0] OP_CALLU    = 6'h26;  localparam int OP_CALLU_SPAN = 1;  // format 3: CALL if b[ID]
  localparam logic [5:0] OP_IFU      = 6'h27;  localparam int OP_IFU_SPAN = 1;  // format 3: if b[ID]: run to DST, skip NUM; else jump to DST
  localparam logic [5:0] OP_IFC      = 6'h28;  localparam int OP_IFC_SPAN = 1;  // format 2: IFU on a condition
  localparam logic [5:0] OP_LOOP     = 6'h29;  localparam int OP_LOOP_SPAN = 1;  // format 3: body PC+1..=DST, i.x+1 iterations
  localparam logic [5:0] OP_EMIT     = 6'h2A;  localparam int OP_EMIT_SPAN = 1;  // format 0: GS: emit a vertex (and a primitive)
  localparam logic [5:0] OP_SETEMIT  = 6'h2B;  localparam int OP_SETEMIT_SPAN = 1;  // format 4: GS: set slot, winding, primemit
  localparam logic [5:0] OP_JMPC     = 6'h2C;  localparam int OP_JMPC_SPAN = 1;  // format 2: jump to DST if condition
  localparam logic [5:0] OP_JMPU     = 6'h2D;  localparam int OP_JMPU_SPAN = 1;  // format 3: jump to DST if b[ID] (NUM bit 0 inverts)
  localparam logic [5:0] OP_CMP      = 6'h2E;  localparam int OP_CMP_SPAN = 2;  // format 1c: set cmp.x/cmp.y
  localparam logic [5:0] OP_MADI     = 6'h30;  localparam int OP_MADI_SPAN = 8;  // format 5i: d = s1*s2 + s3, wide source third
  localparam logic [5:0] OP_MAD      = 6'h38;  localparam int OP_MAD_SPAN = 8;  // format 5: d = s1*s2 + s3

  // ---- Per code: bit n of a mask is set when 6-bit code n is known / has the format
  localparam logic [63:0] CODES_KNOWN = 64'hFFFFFFFF0F0CFFFF;
  localparam logic [63:0] CODES_FMT0   = 64'h0000040700000000;
  localparam logic [63:0] CODES_FMT1   = 64'h000000000000371F;
  localparam logic [63:0] CODES_FMT1I  = 64'h000000000F000000;
  localparam logic [63:0] CODES_FMT1U  = 64'h00000000000CC8E0;
  localparam logic [63:0] CODES_FMT1C  = 64'h0000C00000000000;
  localparam logic [63:0] CODES_FMT2   = 64'h0000113800000000;
  localparam logic [63:0] CODES_FMT3   = 64'h000022C000000000;
  localparam logic [63:0] CODES_FMT4   = 64'h0000080000000000;
  localparam logic [63:0] CODES_FMT5   = 64'hFF00000000000000;
  localparam logic [63:0] CODES_FMT5I  = 64'h00FF000000000000;

  // ---- Instruction-word fields per format: <FORMAT>_<FIELD>_LSB / _W
  localparam int OPCODE_LSB = 26;  localparam int OPCODE_W = 6;
  localparam logic [31:0] F0_USED = 32'hFC000000;
  localparam int F1_DESC_LSB = 0;  localparam int F1_DESC_W = 7;
  localparam int F1_SRC2_LSB = 7;  localparam int F1_SRC2_W = 5;
  localparam int F1_SRC1_LSB = 12;  localparam int F1_SRC1_W = 7;
  localparam int F1_IDX_LSB = 19;  localparam int F1_IDX_W = 2;
  localparam int F1_DST_LSB = 21;  localparam int F1_DST_W = 5;
  localparam logic [31:0] F1_USED = 32'hFFFFFFFF;
  localparam int F1I_DESC_LSB = 0;  localparam int F1I_DESC_W = 7;
  localparam int F1I_SRC2_LSB = 7;  localparam int F1I_SRC2_W = 7;
  localparam int F1I_SRC1_LSB = 14;  localparam int F1I_SRC1_W = 5;
  localparam int F1I_IDX_LSB = 19;  localparam int F1I_IDX_W = 2;
  localparam int F1I_DST_LSB = 21;  localparam int F1I_DST_W = 5;
  localparam logic [31:0] F1I_USED = 32'hFFFFFFFF;
  localparam int F1U_DESC_LSB = 0;  localparam int F1U_DESC_W = 7;
  localparam int F1U_SRC1_LSB = 12;  localparam int F1U_SRC1_W = 7;
  localparam int F1U_IDX_LSB = 19;  localparam int F1U_IDX_W = 2;
  localparam int F1U_DST_LSB = 21;  localparam int F1U_DST_W = 5;
  localparam logic [31:0] F1U_USED = 32'hFFFFF07F;
  localparam int F1C_DESC_LSB = 0;  localparam int F1C_DESC_W = 7;
  localparam int F1C_SRC2_LSB = 7;  localparam int F1C_SRC2_W = 5;
  localparam int F1C_SRC1_LSB = 12;  localparam int F1C_SRC1_W = 7;
  localparam int F1C_IDX_LSB = 19;  localparam int F1C_IDX_W = 2;
  localparam int F1C_CMPY_LSB = 21;  localparam int F1C_CMPY_W = 3;
  localparam int F1C_CMPX_LSB = 24;  localparam int F1C_CMPX_W = 3;
  localparam int F1C_OPCODE5_LSB = 27;  localparam int F1C_OPCODE5_W = 5;
  localparam logic [31:0] F1C_USED = 32'hFFFFFFFF;
  localparam int F2_NUM_LSB = 0;  localparam int F2_NUM_W = 8;
  localparam int F2_DST_LSB = 10;  localparam int F2_DST_W = 12;
  localparam int F2_CONDOP_LSB = 22;  localparam int F2_CONDOP_W = 2;
  localparam int F2_REFY_LSB = 24;  localparam int F2_REFY_W = 1;
  localparam int F2_REFX_LSB = 25;  localparam int F2_REFX_W = 1;
  localparam logic [31:0] F2_USED = 32'hFFFFFCFF;
  localparam int F3_NUM_LSB = 0;  localparam int F3_NUM_W = 8;
  localparam int F3_DST_LSB = 10;  localparam int F3_DST_W = 12;
  localparam int F3_ID_LSB = 22;  localparam int F3_ID_W = 4;
  localparam logic [31:0] F3_USED = 32'hFFFFFCFF;
  localparam int F4_WINDING_LSB = 22;  localparam int F4_WINDING_W = 1;
  localparam int F4_PRIMEMIT_LSB = 23;  localparam int F4_PRIMEMIT_W = 1;
  localparam int F4_VTXID_LSB = 24;  localparam int F4_VTXID_W = 2;
  localparam logic [31:0] F4_USED = 32'hFFC00000;
  localparam int F5_DESC_LSB = 0;  localparam int F5_DESC_W = 5;
  localparam int F5_SRC3_LSB = 5;  localparam int F5_SRC3_W = 5;
  localparam int F5_SRC2_LSB = 10;  localparam int F5_SRC2_W = 7;
  localparam int F5_SRC1_LSB = 17;  localparam int F5_SRC1_W = 5;
  localparam int F5_IDX_LSB = 22;  localparam int F5_IDX_W = 2;
  localparam int F5_DST_LSB = 24;  localparam int F5_DST_W = 5;
  localparam int F5_OPCODE3_LSB = 29;  localparam int F5_OPCODE3_W = 3;
  localparam logic [31:0] F5_USED = 32'hFFFFFFFF;
  localparam int F5I_DESC_LSB = 0;  localparam int F5I_DESC_W = 5;
  localparam int F5I_SRC3_LSB = 5;  localparam int F5I_SRC3_W = 7;
  localparam int F5I_SRC2_LSB = 12;  localparam int F5I_SRC2_W = 5;
  localparam int F5I_SRC1_LSB = 17;  localparam int F5I_SRC1_W = 5;
  localparam int F5I_IDX_LSB = 22;  localparam int F5I_IDX_W = 2;
  localparam int F5I_DST_LSB = 24;  localparam int F5I_DST_W = 5;
  localparam int F5I_OPCODE3_LSB = 29;  localparam int F5I_OPCODE3_W = 3;
  localparam logic [31:0] F5I_USED = 32'hFFFFFFFF;

  // ---- Operand descriptor (one 32-bit word; bit 31 unused)
  localparam int DESC_MASK_LSB = 0;  localparam int DESC_MASK_W = 4;
  localparam int DESC_NEG1_LSB = 4;  localparam int DESC_NEG1_W = 1;
  localparam int DESC_SWZ1_LSB = 5;  localparam int DESC_SWZ1_W = 8;
  localparam int DESC_NEG2_LSB = 13;  localparam int DESC_NEG2_W = 1;
  localparam int DESC_SWZ2_LSB = 14;  localparam int DESC_SWZ2_W = 8;
  localparam int DESC_NEG3_LSB = 22;  localparam int DESC_NEG3_W = 1;
  localparam int DESC_SWZ3_LSB = 23;  localparam int DESC_SWZ3_W = 8;
  // A swizzle field holds 2 bits per lane, lane x in its top two bits:
  // lane l selects component swz[7-2l -: 2] (0 x, 1 y, 2 z, 3 w). Mask bit 3 = x.

  // ---- Encodings of the small fields
  localparam logic [2:0] CMP_EQ = 3'd0;
  localparam logic [2:0] CMP_NE = 3'd1;
  localparam logic [2:0] CMP_LT = 3'd2;
  localparam logic [2:0] CMP_LE = 3'd3;
  localparam logic [2:0] CMP_GT = 3'd4;
  localparam logic [2:0] CMP_GE = 3'd5;
  localparam logic [2:0] CMP_COND6 = 3'd6;
  localparam logic [2:0] CMP_COND7 = 3'd7;
  localparam logic [1:0] CONDOP_OR = 2'd0;
  localparam logic [1:0] CONDOP_AND = 2'd1;
  localparam logic [1:0] CONDOP_X = 2'd2;
  localparam logic [1:0] CONDOP_Y = 2'd3;
  localparam logic [1:0] IDX_NONE = 2'd0;
  localparam logic [1:0] IDX_A0X = 2'd1;
  localparam logic [1:0] IDX_A0Y = 2'd2;
  localparam logic [1:0] IDX_AL = 2'd3;

  // ---- Register namespaces of the source / destination fields
  localparam int SRC_INPUT_BASE = 'h00;    // v0-v15
  localparam int SRC_TEMP_BASE = 'h10;     // r0-r15
  localparam int SRC_UNIFORM_BASE = 'h20;  // c0-c95 (7-bit fields only)
  localparam int DST_OUTPUT_BASE = 'h00;   // o0-o15
  localparam int DST_TEMP_BASE = 'h10;     // r0-r15
  localparam int NUM_FLOAT_UNIFORMS = 96;

  // ---- Unit limits (3dbrew "Control Flow"; pica-facts §1)
  localparam int CALL_STACK_DEPTH = 4;
  localparam int IF_STACK_DEPTH = 8;
  localparam int LOOP_STACK_DEPTH = 4;
  localparam int PC_LIMIT = 4096;

  /* verilator lint_on UNUSEDPARAM */

endpackage : pica_isa_pkg
