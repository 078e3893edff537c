// pica_fop_gas: the depth-density contribution of a gas fragment, bit-exact with
// `pica_model::fop::gas::{depth_weight, depth_function_weight, contributions}`
// (model/src/fop/gas.rs). The plain contribution is the density itself (the caller adds it).
//
// All exact integers (the model's u64 arithmetic), in four combinational steps whose results
// the caller registers between clocks (pica_fop's DS, GAS_W, GAS_C and GAS_P states), so no
// clock holds more than one multiplier: the one-clock form (subtract, 24 x 24 multiply, cap,
// subtract, 8 x 33 multiply) was FOP's worst path, 35.0 ns on the LFE5U-85F (25.8 MHz,
// 2026-11-30), and the product with its cap 19.8 ns (2026-12-01).
//   step 1  dz  = |z - zs|                          24-bit depths (fop::depth_to_24 of both)
//   step 2  W   = dz * k_raw                        48-bit product
//   step 2b X32 = min(2^32, W)                      capped at 1.0 = 2^32
//   step 3  F32 = never 0 | always 2^32 | greater 2^32 - X32 | less X32
//           depth contribution = (rho * F32) >> 32  (<= rho)
//
// Every rule is the model's choice, UNVERIFIED(hw) there (no public emulator implements gas).
module pica_fop_gas (
  // step 1
  input  logic [23:0] z_i,        // fragment depth as 24 bits
  input  logic [23:0] zs_i,       // stored depth as 24 bits (0 with depth reads off)
  output logic [23:0] dz_o,
  // step 2
  input  logic [23:0] dz_i,       // dz_o, registered
  input  logic [23:0] k_raw_i,    // GPUREG_GAS_DELTAZ_DEPTH bits 0-23 (fixed0.16.8)
  output logic [47:0] w_o,
  // step 2b
  input  logic [47:0] w_i,        // w_o, registered
  output logic [32:0] x32_o,
  // step 3
  input  logic [32:0] x32_i,      // x32_o, registered
  input  logic [1:0]  func_i,     // GPUREG_GAS_DELTAZ_DEPTH bits 24-25
  input  logic [7:0]  rho_i,      // the density (DENSITY_SOURCE channel of the source colour)
  output logic [7:0]  depth_o     // the depth-weighted contribution
);

  localparam logic [1:0] FuncNever   = pica_regs_pkg::GAS_DELTAZ_DEPTH_FUNCTION_NEVER;
  localparam logic [1:0] FuncAlways  = pica_regs_pkg::GAS_DELTAZ_DEPTH_FUNCTION_ALWAYS;
  localparam logic [1:0] FuncGreater = pica_regs_pkg::GAS_DELTAZ_DEPTH_FUNCTION_GREATER;

  // gas::WEIGHT_ONE = 2^32.
  localparam logic [47:0] WeightOne = 48'h1_0000_0000;

  logic [32:0] f32;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [40:0] prod;    // rho * F32 <= 255 * 2^32: bits 39:32 are the result, bit 40 is 0
  /* verilator lint_on UNUSEDSIGNAL */

  assign dz_o  = (z_i >= zs_i) ? (z_i - zs_i) : (zs_i - z_i);

  assign w_o   = dz_i * k_raw_i;
  assign x32_o = (w_i > WeightOne) ? 33'h1_0000_0000 : w_i[32:0];

  always_comb begin
    unique case (func_i)
      FuncNever:   f32 = 33'd0;
      FuncAlways:  f32 = 33'h1_0000_0000;
      FuncGreater: f32 = 33'h1_0000_0000 - x32_i;
      default:     f32 = x32_i;        // less
    endcase
  end

  assign prod    = rho_i * f32;
  assign depth_o = prod[39:32];

endmodule : pica_fop_gas
