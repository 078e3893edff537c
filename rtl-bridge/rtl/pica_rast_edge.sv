// pica_rast_edge: the three edge functions of a triangle, set up once and then stepped pixel by
// pixel across the traversal (one add per register per step instead of multiplications at
// every pixel), the oriented weights at the current pixel centre and at the centres to its right
// and above, twice the signed area, and the top-left fill rule: rast::setup::TriSetup::edge /
// weights / cover (model/src/rast/setup.rs) in exact integer arithmetic.
//
// Edge i is the edge opposite vertex i, from A = v[(i+1) % 3] to B = v[(i+2) % 3] (12.4 units):
//   E_i(P) = (B.x - A.x)(P.y - A.y) - (B.y - A.y)(P.x - A.x)
// The weights are b_i = s * E_i with s the sign of twice the signed area E_0(v0). One pixel to
// the right b_i changes by s * -16 (B.y - A.y), one pixel up by s * 16 (B.x - A.x), so the
// walk (rows of increasing y, each of increasing x) needs only those adds: b, b_right and b_up
// step right together; a new row starts from the last row's start plus the step up. Every value
// is exact, so each equals the model's product form at that pixel.
//
// A pixel is covered when every b_i > 0, or b_i = 0 on an edge that owns its points (TriSetup::
// owns: the interior toward +x, or toward +y for a horizontal edge).
//
// Timing: from the clock vx_i / vy_i first hold a triangle (held until the next one), dx / dy
// are registered 1 clock later and area_neg_o / area_zero_o hold 3 clocks later; x0_i / y0_i
// (the first pixel, valid from that third clock) give the start values 3 clocks after them
// (every register here runs freely from its held inputs). load_i then loads the walk's first
// pixel and latches the steps and the fill rule's ownership for the walk, so that vx_i / vy_i
// may move on to the next triangle (whose set-up then runs here) while this one is walked;
// step_x_i moves one pixel right, step_row_i to x0 of the next row. b_o, b_right_o, b_up_o and
// covered_o (registered: computed from the values stepped to) describe the pixel loaded or
// stepped to.
//
// Widths: coordinates are 16-bit 12.4 (+-2^15), a pixel centre in the framebuffer at most
// 2047 * 16 + 8 + 16, so |B - A| < 2^17, |P - A| < 2^17 and |E_i| < 2^33 (the model's "largest
// product is below 2^34"); the weights are carried as 36-bit two's complement, the steps
// (|16 (B - A)| < 2^21, their sums below 2^22) as 24-bit.
//
// Injected bug INJECT_RAST_FILL_RULE: the tie is broken the wrong way (a centre exactly on an
// edge is covered when the edge does NOT own it, and not when it does).
module pica_rast_edge (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [47:0]  vx_i,          // vertex k x at [16*k +: 16], signed 12.4
  input  logic [47:0]  vy_i,          // vertex k y at [16*k +: 16], signed 12.4
  input  logic [10:0]  x0_i,          // the first pixel of the walk (column, row)
  input  logic [9:0]   y0_i,
  input  logic         load_i,        // load the first pixel
  input  logic         step_x_i,      // one pixel right
  input  logic         step_row_i,    // column x0_i of the next row
  output logic         area_neg_o,    // twice the signed area < 0
  output logic         area_zero_o,   // twice the signed area = 0
  output logic [107:0] b_o,           // b_i at the pixel, edge i at [36*i +: 36]
  output logic [107:0] b_right_o,     // b_i at the pixel + (1, 0)
  output logic [107:0] b_up_o,        // b_i at the pixel + (0, 1)
  output logic         covered_o      // fill rule: the pixel centre is covered
);

  logic [2:0]  cov;

  // TriSetup::cover for one edge: b > 0, or b = 0 on an edge that owns its centres.
  function automatic logic covers(input logic signed [35:0] b, input logic owns);
`ifdef INJECT_RAST_FILL_RULE
    covers = (b > 36'sd0) || (b == 36'sd0 && !owns);
`else
    covers = (b > 36'sd0) || (b == 36'sd0 && owns);
`endif
  endfunction
  logic [50:0] dx_q, dy_q;           // B.x - A.x, B.y - A.y per edge at [17*i +: 17]
  logic        neg_q, zero_q;

  // Twice the signed area E_0(v0) = (v2.x - v1.x)(v0.y - v1.y) - (v2.y - v1.y)(v0.x - v1.x)
  //   = dy_0 * dx_2 - dx_0 * dy_2 (edge 2 runs from v0 to v1), from registered products.
  logic signed [35:0] pa1_q, pa2_q, area2;
  assign area2 = pa1_q - pa2_q;
  always_ff @(posedge clk_i) begin
    pa1_q  <= 36'($signed(dy_q[16:0])) * 36'($signed(dx_q[50:34]));
    pa2_q  <= 36'($signed(dx_q[16:0])) * 36'($signed(dy_q[50:34]));
    neg_q  <= area2 < 36'sd0;
    zero_q <= area2 == 36'sd0;
  end
  assign area_neg_o  = neg_q;
  assign area_zero_o = zero_q;

  for (genvar i = 0; i < 3; i++) begin : g_edge
    localparam int A = (i + 1) % 3;
    localparam int B = (i + 2) % 3;

    logic signed [16:0] dx, dy;
    // The first centre minus A: 0 <= centre <= 2047 * 16 + 8 and |A| <= 2^15, so 18 bits
    // signed; dx * pdy then fits one 18 x 18 multiplier.
    logic signed [17:0] pdx_q, pdy_q;
    logic signed [34:0] dxp_q, dyp_q;
    logic signed [35:0] b0_q, br0_q, bu0_q;
    logic signed [23:0] sr_q, su_q, sru_q, s2u_q;   // steps: right, up, right + up, 2 up
    logic signed [35:0] b_q, br_q, bu_q, brow_q, browu_q;
    logic               owns_q, cov_q;
    // The walk's own copies of the steps and the ownership, latched by load_i.
    logic signed [23:0] wsr_q, wsu_q, wsru_q, ws2u_q;
    logic               wowns_q;

    assign dx = $signed(dx_q[17*i +: 17]);
    assign dy = $signed(dy_q[17*i +: 17]);

    always_ff @(posedge clk_i) begin
      dx_q[17*i +: 17] <= 17'($signed(vx_i[16*B +: 16])) - 17'($signed(vx_i[16*A +: 16]));
      dy_q[17*i +: 17] <= 17'($signed(vy_i[16*B +: 16])) - 17'($signed(vy_i[16*A +: 16]));
      pdx_q <= $signed({3'b000, x0_i, 4'b1000}) - 18'($signed(vx_i[16*A +: 16]));
      pdy_q <= $signed({4'b0000, y0_i, 4'b1000}) - 18'($signed(vy_i[16*A +: 16]));
      dxp_q <= dx * pdy_q;
      dyp_q <= dy * pdx_q;
      // b = s * E: one subtraction with its operands swapped for s = -1.
      b0_q  <= neg_q ? (36'(dyp_q) - 36'(dxp_q)) : (36'(dxp_q) - 36'(dyp_q));
      br0_q <= b0_q + 36'(sr_q);
      bu0_q <= b0_q + 36'(su_q);
      sr_q  <= neg_q ? 24'(dy) <<< 4 : -(24'(dy) <<< 4);
      su_q  <= neg_q ? -(24'(dx) <<< 4) : 24'(dx) <<< 4;
      sru_q <= neg_q ? (24'(dy) - 24'(dx)) <<< 4 : (24'(dx) - 24'(dy)) <<< 4;
      s2u_q <= neg_q ? -(24'(dx) <<< 5) : 24'(dx) <<< 5;
      // TriSetup::from_fixed: the edge owns its centres when n = s * (-dy, dx) has n.x > 0, or
      // n.x = 0 and n.y > 0. UNVERIFIED(hw): the top-left rule of Azahar
      // `IsRightSideOrFlatBottomEdge` ("these are the PSP filling rules"), applied exactly —
      // model TriSetup docs.
      owns_q <= neg_q ? ((dy > 17'sd0) || (dy == 17'sd0 && dx < 17'sd0))
                      : ((dy < 17'sd0) || (dy == 17'sd0 && dx > 17'sd0));
    end

    // The walk: the next row starts at browu (the row start one pixel up). The pixel's
    // coverage is registered with it, from the registered value it steps to (the fill rule's
    // compares then do not sit in front of the FSM and the step enables).
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        b_q     <= '0;
        br_q    <= '0;
        bu_q    <= '0;
        brow_q  <= '0;
        browu_q <= '0;
        cov_q   <= 1'b0;
        wsr_q   <= '0;
        wsu_q   <= '0;
        wsru_q  <= '0;
        ws2u_q  <= '0;
        wowns_q <= 1'b0;
      end else if (load_i) begin
        b_q     <= b0_q;
        br_q    <= br0_q;
        bu_q    <= bu0_q;
        brow_q  <= b0_q;
        browu_q <= bu0_q;
        cov_q   <= covers(b0_q, owns_q);
        wsr_q   <= sr_q;
        wsu_q   <= su_q;
        wsru_q  <= sru_q;
        ws2u_q  <= s2u_q;
        wowns_q <= owns_q;
      end else if (step_x_i) begin
        b_q   <= b_q + 36'(wsr_q);
        br_q  <= br_q + 36'(wsr_q);
        bu_q  <= bu_q + 36'(wsr_q);
        cov_q <= covers(br_q, wowns_q);
      end else if (step_row_i) begin
        b_q     <= browu_q;
        br_q    <= brow_q + 36'(wsru_q);
        bu_q    <= brow_q + 36'(ws2u_q);
        brow_q  <= browu_q;
        browu_q <= browu_q + 36'(wsu_q);
        cov_q   <= covers(browu_q, wowns_q);
      end
    end

    assign b_o[36*i +: 36]       = b_q;
    assign b_right_o[36*i +: 36] = br_q;
    assign b_up_o[36*i +: 36]    = bu_q;

    assign cov[i] = cov_q;
  end

  assign covered_o = &cov;

endmodule : pica_rast_edge
