// pica_rast_edge: the three edge functions of a set-up triangle at one pixel centre, the
// oriented weights there and at the centres to its right and above, and the top-left fill rule:
// rast::setup::TriSetup::edge / weights / cover (model/src/rast/setup.rs), exact integer
// arithmetic.
//
// Edge i is the edge opposite vertex i, from A = v[(i+1) % 3] to B = v[(i+2) % 3] (12.4 units):
//   E_i(P) = (B.x - A.x)(P.y - A.y) - (B.y - A.y)(P.x - A.x)
// The weights are b_i = s * E_i with s the sign of twice the signed area (neg_i: s = -1). One
// pixel to the right E_i drops by 16 (B.y - A.y), one pixel up it grows by 16 (B.x - A.x).
// A pixel is covered when every b_i > 0, or b_i = 0 on an edge that owns its points (owns_i,
// TriSetup::owns: the interior toward +x, or toward +y for a horizontal edge).
//
// Widths: coordinates are 16-bit 12.4 (+-2^15), a pixel centre in the framebuffer at most
// 2047 * 16 + 8 + 16, so |B - A| < 2^17, |P - A| < 2^17 and |E_i| < 2^33 (the model's "largest
// product is below 2^34"); the weights are carried as 36-bit two's complement.
//
// Injected bug INJECT_RAST_FILL_RULE: the tie is broken the wrong way (a centre exactly on an
// edge is covered when the edge does NOT own it, and not when it does).
module pica_rast_edge (
  input  logic [47:0]  vx_i,          // vertex k x at [16*k +: 16], signed 12.4
  input  logic [47:0]  vy_i,          // vertex k y at [16*k +: 16], signed 12.4
  input  logic         neg_i,         // twice the signed area is negative
  input  logic [2:0]   owns_i,        // edge i owns the centres exactly on it
  input  logic [17:0]  px_i,          // the point, signed 12.4
  input  logic [17:0]  py_i,
  output logic [107:0] e_o,           // E_i at the point, edge i at [36*i +: 36] (not oriented)
  output logic [107:0] b_o,           // b_i = s * E_i at the point
  output logic [107:0] b_right_o,     // b_i at the point + (16, 0)
  output logic [107:0] b_up_o,        // b_i at the point + (0, 16)
  output logic         covered_o      // fill rule: the point is covered
);

  logic [2:0] cov;

  for (genvar i = 0; i < 3; i++) begin : g_edge
    localparam int A = (i + 1) % 3;
    localparam int B = (i + 2) % 3;

    logic signed [35:0] ax, ay, dx, dy, ppx, ppy, e, e_r, e_u, b, b_r, b_u;

    assign ax  = 36'($signed(vx_i[16*A +: 16]));
    assign ay  = 36'($signed(vy_i[16*A +: 16]));
    assign dx  = 36'($signed(vx_i[16*B +: 16])) - ax;
    assign dy  = 36'($signed(vy_i[16*B +: 16])) - ay;
    assign ppx = 36'($signed(px_i));
    assign ppy = 36'($signed(py_i));
    assign e   = dx * (ppy - ay) - dy * (ppx - ax);
    assign e_r = e - (dy <<< 4);
    assign e_u = e + (dx <<< 4);
    assign b   = neg_i ? -e : e;
    assign b_r = neg_i ? -e_r : e_r;
    assign b_u = neg_i ? -e_u : e_u;

    assign e_o[36*i +: 36]       = e;
    assign b_o[36*i +: 36]       = b;
    assign b_right_o[36*i +: 36] = b_r;
    assign b_up_o[36*i +: 36]    = b_u;

`ifdef INJECT_RAST_FILL_RULE
    assign cov[i] = (b > 36'sd0) || (b == 36'sd0 && !owns_i[i]);
`else
    assign cov[i] = (b > 36'sd0) || (b == 36'sd0 && owns_i[i]);
`endif
  end

  assign covered_o = &cov;

endmodule : pica_rast_edge
