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
// The registers of stage s (4..8) load only when valid_i[s-4] is set (clock enable: the valid bit
// of the test that enters the stage); no reset. The arithmetic of a stage sits inside its enabled
// assignment, so a cycle-based simulator evaluates it only for valid tests.
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
  input  logic [4:0]       valid_i,    // [s-4]: load enable of stage s (valid of the entering test)
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

  // magnitude comparisons of a normal n (3 minors): {|n2| > |n1|, |n2| > |n0|, |n1| > |n0|, n0 != 0}
  function automatic logic [3:0] norm_cmp(input logic [3*NW-1:0] n);
    logic [NW-1:0] m0, m1, m2;
    m0 = n[NW-1] ? (~n[0 +: NW] + 1'b1) : n[0 +: NW];
    m1 = n[2*NW-1] ? (~n[NW +: NW] + 1'b1) : n[NW +: NW];
    m2 = n[3*NW-1] ? (~n[2*NW +: NW] + 1'b1) : n[2*NW +: NW];
    norm_cmp = {m2 > m1, m2 > m0, m1 > m0, |m0};
  endfunction

  // ---- stage 4: differences
  logic [45*DW-1:0] diff_q;
  for (genvar i = 0; i < 6; i++) begin : g_diff_i
    for (genvar j = i + 1; j < 6; j++) begin : g_diff_j
      for (genvar d = 0; d < 3; d++) begin : g_diff_d
        localparam int XJ = (3*j+d)*CW;
        localparam int XI = (3*i+d)*CW;
        always_ff @(posedge clk_i) begin
          if (valid_i[0]) begin
            diff_q[(3*pix(i, j)+d)*DW +: DW] <= {x_i[XJ+CW-1], x_i[XJ +: CW]} - {x_i[XI+CW-1], x_i[XI +: CW]};
          end
        end
      end
    end
  end

  // difference signs, registered in stage 5 and carried to stage 8
  logic [89:0] dsign5_q, dsign6_q, dsign7_q, dsign8_q;
  for (genvar n = 0; n < 45; n++) begin : g_dsign
    always_ff @(posedge clk_i) begin
      if (valid_i[1]) begin
        dsign5_q[2*n +: 2] <= {diff_q[n*DW+DW-1], ~diff_q[n*DW+DW-1] & (|diff_q[n*DW +: DW])};
      end
    end
  end

  // ---- stage 5: cross-product partial products
  // triple (i,j,l): u = P_j - P_i, v = P_l - P_i; c0 = u1 v2 - u2 v1, c1 = u2 v0 - u0 v2,
  // c2 = u0 v1 - u1 v0; product 2k is the positive, 2k+1 the negative term of c_k.
  // Product n = 2k + e of triple T multiplies u[UD(n)] by v[VD(n)].
  logic [120*MPW-1:0] mprod_q;
  for (genvar i = 0; i < 6; i++) begin : g_tri_i
    for (genvar j = i + 1; j < 6; j++) begin : g_tri_j
      for (genvar l = j + 1; l < 6; l++) begin : g_tri_l
        localparam int T = tix(i, j, l);
        localparam int PU = pix(i, j);
        localparam int PV = pix(i, l);
        for (genvar n = 0; n < 6; n++) begin : g_mul
          // (1,2), (2,1), (2,0), (0,2), (0,1), (1,0)
          localparam int UD = (n == 0 || n == 5) ? 1 : (n == 1 || n == 2) ? 2 : 0;
          localparam int VD = (n == 0 || n == 3) ? 2 : (n == 1 || n == 4) ? 1 : 0;
          localparam int U = (3*PU+UD)*DW;
          localparam int W2 = (3*PV+VD)*DW;
          always_ff @(posedge clk_i) begin
            if (valid_i[1]) begin
              mprod_q[(6*T+n)*MPW +: MPW] <= $signed({{(MPW-DW){diff_q[U+DW-1]}}, diff_q[U +: DW]}) *
                                             $signed({{(MPW-DW){diff_q[W2+DW-1]}}, diff_q[W2 +: DW]});
            end
          end
        end
      end
    end
  end
  // first vectors of the determinants, carried to stage 7
  logic [18*DW-1:0] dvec5_q, dvec6_q;
  for (genvar j = 1; j <= 3; j++) begin : g_dvec_j
    for (genvar i = 0; i < j; i++) begin : g_dvec_i
      always_ff @(posedge clk_i) begin
        if (valid_i[1]) begin
          dvec5_q[3*dix(i, j)*DW +: 3*DW] <= diff_q[3*pix(i, j)*DW +: 3*DW];
        end
      end
    end
  end

  // ---- stage 6: minors
  logic [60*NW-1:0] minor_q;
  for (genvar n = 0; n < 60; n++) begin : g_minor
    always_ff @(posedge clk_i) begin
      if (valid_i[2]) begin
        minor_q[n*NW +: NW] <= {mprod_q[(2*n+1)*MPW-1], mprod_q[(2*n)*MPW +: MPW]} -
                               {mprod_q[(2*n+2)*MPW-1], mprod_q[(2*n+1)*MPW +: MPW]};
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (valid_i[2]) begin
      dvec6_q  <= dvec5_q;
      dsign6_q <= dsign5_q;
    end
  end

  // ---- stage 7: determinant partial products, minor signs, normal comparisons
  logic [45*DPW-1:0] dprod_q;
  for (genvar i = 0; i < 6; i++) begin : g_quad_i
    for (genvar j = i + 1; j < 6; j++) begin : g_quad_j
      for (genvar k = j + 1; k < 6; k++) begin : g_quad_k
        for (genvar l = k + 1; l < 6; l++) begin : g_quad_l
          localparam int Q = qix(i, j, k, l);
          localparam int T = tix(i, k, l);
          localparam int U = dix(i, j);
          for (genvar d = 0; d < 3; d++) begin : g_d
            localparam int E = (3*U+d)*DW;
            localparam int N = (3*T+d)*NW;
            always_ff @(posedge clk_i) begin
              if (valid_i[3]) begin
                dprod_q[(3*Q+d)*DPW +: DPW] <= $signed({{(DPW-DW){dvec6_q[E+DW-1]}}, dvec6_q[E +: DW]}) *
                                               $signed({{(DPW-NW){minor_q[N+NW-1]}}, minor_q[N +: NW]});
              end
            end
          end
        end
      end
    end
  end

  logic [119:0] tsign7_q, tsign8_q;
  for (genvar n = 0; n < 60; n++) begin : g_tsign
    always_ff @(posedge clk_i) begin
      if (valid_i[3]) begin
        tsign7_q[2*n +: 2] <= {minor_q[n*NW+NW-1], ~minor_q[n*NW+NW-1] & (|minor_q[n*NW +: NW])};
      end
    end
  end

  // |n_k| of triple 0 = (0,1,2) and triple 19 = (3,4,5): {n0 != 0, |n1| > |n0|, |n2| > |n0|, |n2| > |n1|}
  logic [3:0] ncmp_q [2];
  for (genvar t = 0; t < 2; t++) begin : g_norm
    localparam int TT = (t == 0) ? 0 : 19;
    always_ff @(posedge clk_i) begin
      if (valid_i[3]) begin
        ncmp_q[t] <= norm_cmp(minor_q[3*TT*NW +: 3*NW]);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (valid_i[3]) begin
      dsign7_q <= dsign6_q;
    end
  end

  // ---- stage 8: determinant signs, projection axes
  logic [29:0] qsign_q;
  for (genvar q = 0; q < 15; q++) begin : g_det
    localparam int A = 3*q*DPW;
    localparam int B = A + DPW;
    localparam int C = A + 2*DPW;
    // {negative, positive} of the determinant, the sum of its 3 products at DTW bits (the two
    // compares read the same sum: synthesis merges the identical adders)
    always_ff @(posedge clk_i) begin
      if (valid_i[4]) begin
        qsign_q[2*q+1] <= $signed({{(DTW-DPW){dprod_q[A+DPW-1]}}, dprod_q[A +: DPW]} +
                                  {{(DTW-DPW){dprod_q[B+DPW-1]}}, dprod_q[B +: DPW]} +
                                  {{(DTW-DPW){dprod_q[C+DPW-1]}}, dprod_q[C +: DPW]}) < 0;
        qsign_q[2*q]   <= $signed({{(DTW-DPW){dprod_q[A+DPW-1]}}, dprod_q[A +: DPW]} +
                                  {{(DTW-DPW){dprod_q[B+DPW-1]}}, dprod_q[B +: DPW]} +
                                  {{(DTW-DPW){dprod_q[C+DPW-1]}}, dprod_q[C +: DPW]}) > 0;
      end
    end
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
    if (valid_i[4]) begin
      tsign8_q  <= tsign7_q;
      dsign8_q  <= dsign7_q;
      axis_q[0] <= axis_d[0];
      axis_q[1] <= axis_d[1];
    end
  end

  assign dsign_o  = dsign8_q;
  assign tsign_o  = tsign8_q;
  assign qsign_o  = qsign_q;
  assign axis_a_o = axis_q[0];
  assign axis_b_o = axis_q[1];

endmodule
