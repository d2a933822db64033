// Triangle unit, stages 1-3: input registers, placement of the second triangle (M' q + T') and
// lifting of the first (q << M). docs/rtl-triangle-unit.md.
//
//   stage 1: q (both triangles), M', T' registered
//   stage 2: the 27 products M'_ij qb_cj (W+2 bits each, |.| <= 2^W), qa and T' carried
//   stage 3: coordinates X (W+4 bits): points 0-2 = qa << M, points 3-5 = M' qb + T'
// Point p, coordinate d at x_o[(3p+d)*CW +: CW], signed. Data registers have no reset; the
// registers of stage s load only when valid_i[s-1] is set (clock enable: the valid bit of the
// test that enters the stage). The arithmetic of a stage sits inside its enabled assignment, so a
// cycle-based simulator evaluates it only for valid tests.
module kdopcd_tri_place #(
  parameter int V  = 24,
  parameter int M  = 24,
  // derived, not to be overridden
  parameter int VW = V + 2,        // stored vertex
  parameter int MW = M + 2,        // rotation entry
  parameter int TW = V + M + 4,    // translation
  parameter int PW = V + M + 2,    // one product M'_ij q_j, |.| <= 2^(V+M)
  parameter int CW = V + M + 4     // coordinate
) (
  input  logic             clk_i,
  input  logic [2:0]       valid_i,    // [s-1]: load enable of stage s (valid of the entering test)
  input  logic [9*VW-1:0]  tri_a_i,
  input  logic [9*VW-1:0]  tri_b_i,
  input  logic [9*MW-1:0]  rot_i,
  input  logic [3*TW-1:0]  trans_i,
  output logic [18*CW-1:0] x_o
);

  // ---- stage 1: input registers
  logic [9*VW-1:0] qa_q, qb_q;
  logic [9*MW-1:0] rot_q;
  logic [3*TW-1:0] trans_q;
  always_ff @(posedge clk_i) begin
    if (valid_i[0]) begin
      qa_q    <= tri_a_i;
      qb_q    <= tri_b_i;
      rot_q   <= rot_i;
      trans_q <= trans_i;
    end
  end

  // ---- stage 2: products (the exact product of the sign-extended factors fits PW bits)
  logic [27*PW-1:0] prod_q;
  logic [9*VW-1:0]  qa2_q;
  logic [3*TW-1:0]  trans2_q;
  for (genvar c = 0; c < 3; c++) begin : g_prod_c
    for (genvar i = 0; i < 3; i++) begin : g_prod_i
      for (genvar j = 0; j < 3; j++) begin : g_prod_j
        localparam int R = (3*i+j)*MW;  // M'_ij
        localparam int Q = (3*c+j)*VW;  // qb_cj
        always_ff @(posedge clk_i) begin
          if (valid_i[1]) begin
            prod_q[((3*c+i)*3+j)*PW +: PW] <= $signed({{(PW-MW){rot_q[R+MW-1]}}, rot_q[R +: MW]}) *
                                              $signed({{(PW-VW){qb_q[Q+VW-1]}}, qb_q[Q +: VW]});
          end
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (valid_i[1]) begin
      qa2_q    <= qa_q;
      trans2_q <= trans_q;
    end
  end

  // ---- stage 3: coordinates. First triangle: q << M (sign-extended to CW), second: M' q + T'.
  logic [18*CW-1:0] x_q;
  for (genvar c = 0; c < 3; c++) begin : g_coord_c
    for (genvar i = 0; i < 3; i++) begin : g_coord_i
      localparam int A  = (3*c+i)*VW;      // qa_ci
      localparam int P0 = (3*c+i)*3*PW;    // M'_i0 qb_c0, then _i1, _i2
      localparam int P1 = P0 + PW;
      localparam int P2 = P0 + 2*PW;
      always_ff @(posedge clk_i) begin
        if (valid_i[2]) begin
          x_q[(3*c+i)*CW +: CW]     <= {{(CW-VW-M){qa2_q[A+VW-1]}}, qa2_q[A +: VW], {M{1'b0}}};
          x_q[(3*(c+3)+i)*CW +: CW] <= {{(CW-PW){prod_q[P0+PW-1]}}, prod_q[P0 +: PW]} +
                                       {{(CW-PW){prod_q[P1+PW-1]}}, prod_q[P1 +: PW]} +
                                       {{(CW-PW){prod_q[P2+PW-1]}}, prod_q[P2 +: PW]} +
                                       trans2_q[i*TW +: TW];
        end
      end
    end
  end
  assign x_o = x_q;

endmodule
