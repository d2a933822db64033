// Triangle unit, stages 1-3: input registers, placement of the second triangle (M' q + T') and
// lifting of the first (q << M). docs/rtl-triangle-unit.md.
//
//   stage 1: q (both triangles), M', T' registered
//   stage 2: the 27 products M'_ij qb_cj (W+2 bits each, |.| <= 2^W), qa and T' carried
//   stage 3: coordinates X (W+4 bits): points 0-2 = qa << M, points 3-5 = M' qb + T'
// Point p, coordinate d at x_o[(3p+d)*CW +: CW], signed. Data registers have no reset.
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
    qa_q    <= tri_a_i;
    qb_q    <= tri_b_i;
    rot_q   <= rot_i;
    trans_q <= trans_i;
  end

  // ---- stage 2: products
  logic [27*PW-1:0] prod_d, prod_q;
  logic [9*VW-1:0]  qa2_q;
  logic [3*TW-1:0]  trans2_q;
  for (genvar c = 0; c < 3; c++) begin : g_prod_c
    for (genvar i = 0; i < 3; i++) begin : g_prod_i
      for (genvar j = 0; j < 3; j++) begin : g_prod_j
        logic signed [PW-1:0] a, b;
        // sign-extend both factors to the product width; the exact product fits PW bits
        assign a = $signed({{(PW-MW){rot_q[(3*i+j)*MW+MW-1]}}, rot_q[(3*i+j)*MW +: MW]});
        assign b = $signed({{(PW-VW){qb_q[(3*c+j)*VW+VW-1]}}, qb_q[(3*c+j)*VW +: VW]});
        assign prod_d[((3*c+i)*3+j)*PW +: PW] = a * b;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    prod_q   <= prod_d;
    qa2_q    <= qa_q;
    trans2_q <= trans_q;
  end

  // ---- stage 3: coordinates
  logic [18*CW-1:0] x_d, x_q;
  for (genvar c = 0; c < 3; c++) begin : g_coord_c
    for (genvar i = 0; i < 3; i++) begin : g_coord_i
      logic signed [CW-1:0] p0, p1, p2, t;
      assign p0 = $signed({{(CW-PW){prod_q[((3*c+i)*3+0)*PW+PW-1]}}, prod_q[((3*c+i)*3+0)*PW +: PW]});
      assign p1 = $signed({{(CW-PW){prod_q[((3*c+i)*3+1)*PW+PW-1]}}, prod_q[((3*c+i)*3+1)*PW +: PW]});
      assign p2 = $signed({{(CW-PW){prod_q[((3*c+i)*3+2)*PW+PW-1]}}, prod_q[((3*c+i)*3+2)*PW +: PW]});
      assign t  = $signed(trans2_q[i*TW +: TW]);
      // first triangle: q << M (sign-extended to CW), second: M' q + T'
      assign x_d[(3*c+i)*CW +: CW] = {{(CW-VW-M){qa2_q[(3*c+i)*VW+VW-1]}}, qa2_q[(3*c+i)*VW +: VW], {M{1'b0}}};
      assign x_d[(3*(c+3)+i)*CW +: CW] = p0 + p1 + p2 + t;
    end
  end
  always_ff @(posedge clk_i) begin
    x_q <= x_d;
  end
  assign x_o = x_q;

endmodule
