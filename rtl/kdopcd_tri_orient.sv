// Triangle unit, stages 4-8: every exact sign the Guigue-Devillers decision needs, computed in
// parallel for the six points P0..P5 (P0-P2 first triangle, P3-P5 second). docs/rtl-triangle-unit.md.
//
//   stage 4: the 15 differences P_j - P_i (i < j), 3 coordinates each, DW = W+5 bits
//   stage 5: the 120 products of the 20 cross products (P_j - P_i) x (P_l - P_i) (i < j < l),
//            MPW = 2W+8 bits each
//   stage 6: the 60 minors (cross product components), NW = 2W+9 bits. Component k of the cross
//            product of triple (i,j,l) is orient2d of the triple projected along axis k.
//   stage 7: the 45 products of the 15 orient3d determinants D(i,j,k,l) = (P_j - P_i) . cross(i,k,l)
//            (i < j < k < l), DPW = 3W+12 bits; signs of the 60 minors; |normal| comparisons of
//            both triangles (projection axis)
//   stage 8: the 15 determinants (3W+13 bits) reduced to their signs; projection axes
// Signs are 2 bits {negative, positive} (00 = zero). Linear orders: pairs, triples and quadruples
// in lexicographic order of their sorted indices (kdopcd_tri_orient::pix/tix/qix).
module kdopcd_tri_orient #(
  parameter int V   = 24,
  parameter int M   = 24,
  // derived, not to be overridden
  parameter int W   = V + M,
  parameter int CW  = W + 4,       // coordinate
  parameter int DW  = W + 5,       // difference
  parameter int MPW = 2 * W + 8,   // product of two differences
  parameter int NW  = 2 * W + 9,   // 2x2 minor
  parameter int DPW = 3 * W + 12,  // product difference x minor
  parameter int DTW = 3 * W + 13   // 3x3 determinant
) (
  input  logic             clk_i,
  input  logic [18*CW-1:0] x_i,        // stage 3 coordinates
  output logic [89:0]      dsign_o,    // sign of P_j[d] - P_i[d], pair p, axis d at 2*(3p+d)
  output logic [119:0]     tsign_o,    // sign of cross(i,j,l)[k], triple t, axis k at 2*(3t+k)
  output logic [29:0]      qsign_o,    // sign of D(i,j,k,l), quadruple q at 2*q
  output logic [2:0]       axis_a_o,   // first triangle's projection axis: {valid, axis}
  output logic [2:0]       axis_b_o    // second triangle's projection axis
);

  // ---- index helpers (constant functions, elaboration only)
  function automatic int pix(input int i, input int j);
    int n;
    n = 0;
    for (int a = 0; a < 6; a++) begin
      for (int b = a + 1; b < 6; b++) begin
        if (a < i || (a == i && b < j)) n = n + 1;
      end
    end
    pix = n;
  endfunction
  function automatic int tix(input int i, input int j, input int l);
    int n;
    n = 0;
    for (int a = 0; a < 6; a++) begin
      for (int b = a + 1; b < 6; b++) begin
        for (int c = b + 1; c < 6; c++) begin
          if (a < i || (a == i && (b < j || (b == j && c < l)))) n = n + 1;
        end
      end
    end
    tix = n;
  endfunction
  function automatic int qix(input int i, input int j, input int k, input int l);
    int n;
    n = 0;
    for (int a = 0; a < 6; a++) begin
      for (int b = a + 1; b < 6; b++) begin
        for (int c = b + 1; c < 6; c++) begin
          for (int d = c + 1; d < 6; d++) begin
            if (a < i || (a == i && (b < j || (b == j && (c < k || (c == k && d < l)))))) n = n + 1;
          end
        end
      end
    end
    qix = n;
  endfunction
  // The 6 pairs (i, j) with j <= 3 (the first vector of some D(i,j,k,l)).
  function automatic int dix(input int i, input int j);
    dix = j * (j - 1) / 2 + i;
  endfunction

  // ---- stage 4: differences
  logic [45*DW-1:0] diff_d, diff_q;
  for (genvar i = 0; i < 6; i++) begin : g_diff_i
    for (genvar j = i + 1; j < 6; j++) begin : g_diff_j
      for (genvar d = 0; d < 3; d++) begin : g_diff_d
        logic signed [DW-1:0] a, b;
        assign a = $signed({x_i[(3*j+d)*CW+CW-1], x_i[(3*j+d)*CW +: CW]});
        assign b = $signed({x_i[(3*i+d)*CW+CW-1], x_i[(3*i+d)*CW +: CW]});
        assign diff_d[(3*pix(i, j)+d)*DW +: DW] = a - b;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    diff_q <= diff_d;
  end

  logic [89:0] dsign4, dsign5_q, dsign6_q, dsign7_q, dsign8_q;
  for (genvar n = 0; n < 45; n++) begin : g_dsign
    assign dsign4[2*n]   = ~diff_q[n*DW+DW-1] & (|diff_q[n*DW +: DW]);
    assign dsign4[2*n+1] = diff_q[n*DW+DW-1];
  end

  // ---- stage 5: cross-product partial products
  // triple (i,j,l): u = P_j - P_i, v = P_l - P_i; c0 = u1 v2 - u2 v1, c1 = u2 v0 - u0 v2,
  // c2 = u0 v1 - u1 v0; product 2k is the positive, 2k+1 the negative term of c_k.
  logic [120*MPW-1:0] mprod_d, mprod_q;
  for (genvar i = 0; i < 6; i++) begin : g_tri_i
    for (genvar j = i + 1; j < 6; j++) begin : g_tri_j
      for (genvar l = j + 1; l < 6; l++) begin : g_tri_l
        localparam int T = tix(i, j, l);
        localparam int PU = pix(i, j);
        localparam int PV = pix(i, l);
        logic signed [MPW-1:0] u [3];
        logic signed [MPW-1:0] v [3];
        for (genvar d = 0; d < 3; d++) begin : g_ext
          assign u[d] = $signed({{(MPW-DW){diff_q[(3*PU+d)*DW+DW-1]}}, diff_q[(3*PU+d)*DW +: DW]});
          assign v[d] = $signed({{(MPW-DW){diff_q[(3*PV+d)*DW+DW-1]}}, diff_q[(3*PV+d)*DW +: DW]});
        end
        assign mprod_d[(6*T+0)*MPW +: MPW] = u[1] * v[2];
        assign mprod_d[(6*T+1)*MPW +: MPW] = u[2] * v[1];
        assign mprod_d[(6*T+2)*MPW +: MPW] = u[2] * v[0];
        assign mprod_d[(6*T+3)*MPW +: MPW] = u[0] * v[2];
        assign mprod_d[(6*T+4)*MPW +: MPW] = u[0] * v[1];
        assign mprod_d[(6*T+5)*MPW +: MPW] = u[1] * v[0];
      end
    end
  end
  // first vectors of the determinants, carried to stage 7
  logic [18*DW-1:0] dvec5_q, dvec6_q;
  for (genvar j = 1; j <= 3; j++) begin : g_dvec_j
    for (genvar i = 0; i < j; i++) begin : g_dvec_i
      always_ff @(posedge clk_i) begin
        dvec5_q[3*dix(i, j)*DW +: 3*DW] <= diff_q[3*pix(i, j)*DW +: 3*DW];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    mprod_q  <= mprod_d;
    dsign5_q <= dsign4;
  end

  // ---- stage 6: minors
  logic [60*NW-1:0] minor_d, minor_q;
  for (genvar n = 0; n < 60; n++) begin : g_minor
    logic signed [NW-1:0] a, b;
    assign a = $signed({mprod_q[(2*n)*MPW+MPW-1], mprod_q[(2*n)*MPW +: MPW]});
    assign b = $signed({mprod_q[(2*n+1)*MPW+MPW-1], mprod_q[(2*n+1)*MPW +: MPW]});
    assign minor_d[n*NW +: NW] = a - b;
  end
  always_ff @(posedge clk_i) begin
    minor_q  <= minor_d;
    dvec6_q  <= dvec5_q;
    dsign6_q <= dsign5_q;
  end

  // ---- stage 7: determinant partial products, minor signs, normal comparisons
  logic [45*DPW-1:0] dprod_d, dprod_q;
  for (genvar i = 0; i < 6; i++) begin : g_quad_i
    for (genvar j = i + 1; j < 6; j++) begin : g_quad_j
      for (genvar k = j + 1; k < 6; k++) begin : g_quad_k
        for (genvar l = k + 1; l < 6; l++) begin : g_quad_l
          localparam int Q = qix(i, j, k, l);
          localparam int T = tix(i, k, l);
          localparam int U = dix(i, j);
          for (genvar d = 0; d < 3; d++) begin : g_d
            logic signed [DPW-1:0] a, b;
            assign a = $signed({{(DPW-DW){dvec6_q[(3*U+d)*DW+DW-1]}}, dvec6_q[(3*U+d)*DW +: DW]});
            assign b = $signed({{(DPW-NW){minor_q[(3*T+d)*NW+NW-1]}}, minor_q[(3*T+d)*NW +: NW]});
            assign dprod_d[(3*Q+d)*DPW +: DPW] = a * b;
          end
        end
      end
    end
  end

  logic [119:0] tsign7, tsign7_q, tsign8_q;
  for (genvar n = 0; n < 60; n++) begin : g_tsign
    assign tsign7[2*n]   = ~minor_q[n*NW+NW-1] & (|minor_q[n*NW +: NW]);
    assign tsign7[2*n+1] = minor_q[n*NW+NW-1];
  end

  // |n_k| of triple 0 = (0,1,2) and triple 19 = (3,4,5): {n0 != 0, |n1| > |n0|, |n2| > |n0|, |n2| > |n1|}
  logic [3:0] ncmp_d [2];
  logic [3:0] ncmp_q [2];
  for (genvar t = 0; t < 2; t++) begin : g_norm
    localparam int TT = (t == 0) ? 0 : 19;
    logic [NW-1:0] mag [3];
    for (genvar k = 0; k < 3; k++) begin : g_abs
      logic [NW-1:0] n;
      assign n = minor_q[(3*TT+k)*NW +: NW];
      assign mag[k] = n[NW-1] ? (~n + 1'b1) : n;
    end
    assign ncmp_d[t] = {mag[2] > mag[1], mag[2] > mag[0], mag[1] > mag[0], |mag[0]};
  end

  always_ff @(posedge clk_i) begin
    dprod_q   <= dprod_d;
    tsign7_q  <= tsign7;
    dsign7_q  <= dsign6_q;
    ncmp_q[0] <= ncmp_d[0];
    ncmp_q[1] <= ncmp_d[1];
  end

  // ---- stage 8: determinant signs, projection axes
  logic [29:0] qsign_d, qsign_q;
  for (genvar q = 0; q < 15; q++) begin : g_det
    logic signed [DTW-1:0] a, b, c, s;
    assign a = $signed({dprod_q[(3*q+0)*DPW+DPW-1], dprod_q[(3*q+0)*DPW +: DPW]});
    assign b = $signed({dprod_q[(3*q+1)*DPW+DPW-1], dprod_q[(3*q+1)*DPW +: DPW]});
    assign c = $signed({dprod_q[(3*q+2)*DPW+DPW-1], dprod_q[(3*q+2)*DPW +: DPW]});
    assign s = a + b + c;
    assign qsign_d[2*q]   = ~s[DTW-1] & (|s);
    assign qsign_d[2*q+1] = s[DTW-1];
  end

  // The reference's projection_axis: the largest |n_k|, ties to the lower k; invalid when n = 0.
  logic [2:0] axis_d [2];
  logic [2:0] axis_q [2];
  for (genvar t = 0; t < 2; t++) begin : g_axis
    always_comb begin
      if (ncmp_q[t][2] && ncmp_q[t][3])      axis_d[t] = 3'b110;  // |n2| > |n0|, |n1|
      else if (ncmp_q[t][1])                 axis_d[t] = 3'b101;  // |n1| > |n0|, |n1| >= |n2|
      else if (ncmp_q[t][0])                 axis_d[t] = 3'b100;  // n0 != 0, largest
      else                                   axis_d[t] = 3'b000;  // degenerate triangle
    end
  end

  always_ff @(posedge clk_i) begin
    qsign_q   <= qsign_d;
    tsign8_q  <= tsign7_q;
    dsign8_q  <= dsign7_q;
    axis_q[0] <= axis_d[0];
    axis_q[1] <= axis_d[1];
  end

  assign dsign_o  = dsign8_q;
  assign tsign_o  = tsign8_q;
  assign qsign_o  = qsign_q;
  assign axis_a_o = axis_q[0];
  assign axis_b_o = axis_q[1];

endmodule
