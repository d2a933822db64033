// One lane of the v2 wide SAT unit (docs/model-v2.md): one separating-axis test per clock whose
// axis is a face normal of one object ("own"), bit-exact with fixed_diffs() of
// ref/include/kdopcd/sat_fixed.hpp for such an axis.
//
// For an own-face axis the own object's face triple is exact, P' = (-2^C, 0, 0) (the set-up's
// own_direction_triple), so its mapped sum P'.y' + sn(y') is -(y'_0 << C) + sn(y'): no multiplier.
// Only the other object ("mapped", X) needs its triple, in both diffs: 6 products per lane.
//   OWN_FIRST = 1 (own = first object B, X = A):
//     diff1' = P'X.x'[jX]      + sn(x'[jX])      + own(y'[jY + K/2]) + p' 2^E
//     diff2' = own(y'[jY])     + P'X.x'[jX + K/2] + sn(x'[jX + K/2]) - (p'+1) 2^E
//   OWN_FIRST = 0 (own = second object A, X = B):
//     diff1' = own(y'[jY])     + P'X.x'[jX + K/2] + sn(.)            + p' 2^E
//     diff2' = P'X.x'[jX]      + sn(x'[jX])      + own(y'[jY + K/2]) - (p'+1) 2^E
// A product P'x' with P' in [-2^C, 0] is split so that it takes one 25 x 18 DSP slice:
// P' = Phi 2^17 + Plo with Plo = P'[16:0] in [0, 2^17) (an 18-bit signed DSP operand) and
// Phi = P' >>> 17 in [-2^(C-17), 0]; Phi x' is the negated shift-and-add of -Phi's bits over -x'
// (LUTs, no multiplier).
//
// Stages (registered): S1 selection (and -x'), S2 products and LUT terms, S3..S(2+LV) adder
// tree over NT = 15 terms per diff (LV = 4), S(3+LV) sign test. LAT = LV + 3 = 7.
module kdopcd_sat_lane #(
  parameter int K         = kdopcd_sat_pkg::DEFAULT_K,
  parameter int B         = kdopcd_sat_pkg::DEFAULT_B,
  parameter int C         = kdopcd_sat_pkg::DEFAULT_C,
  parameter int Z         = kdopcd_sat_pkg::DEFAULT_Z,
  parameter int OWN_FIRST = 1  // 1: own face of the first object (B); 0: of the second (A)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   valid_i,
  input  logic [K*(B+2)-1:0]     coef_x_i,  // the mapped object's node: x'_i at [i*(B+2) +: B+2]
  input  logic [K*(B+2)-1:0]     coef_y_i,  // the own object's node
  input  logic [3*$clog2(K)-1:0] jx_i,      // the mapped object's face triple
  input  logic [3*$clog2(K)-1:0] jy_i,      // the own object's face triple (P' = (-2^C, 0, 0))
  input  logic [3*(C+1)-1:0]     px_i,      // P'X, entry m at [m*(C+1) +: C+1], signed, <= 0
  input  logic [Z+3:0]           p_i,       // p' (signed)
  output logic                   valid_o,
  output logic signed [B+C+4:0]  diff1_o,
  output logic signed [B+C+4:0]  diff2_o,
  output logic                   verdict_o  // 1: this axis separates the pair
);

  localparam int COEF_W = B + 2;
  localparam int MAP_W  = C + 1;
  localparam int DIFF_W = B + C + 5;
  localparam int J_W    = $clog2(K);
  localparam int HALF   = K / 2;
  localparam int E      = B + C - Z;
  localparam int LO_W   = C < 17 ? C : 17;    // Plo bits: one 18-bit signed DSP operand
  localparam int HI_W   = (C + 1) - LO_W;     // bits of Phi (signed), >= 1
  localparam int NT     = 15;                 // 3 Plo products, 3 Phi terms, 3 sn(x), own, p, 3 sn(y), 1 free
  localparam int LV     = $clog2(NT);

  // Sign-extend a coefficient to the sum width.
  function automatic logic [DIFF_W-1:0] ext(input logic [COEF_W-1:0] v);
    ext = DIFF_W'($signed(v));
  endfunction

  // ---------------------------------------------------------------- S1: selection
  // d = 0: the triples of diff1, d = 1: those of diff2.
  logic [2*3*COEF_W-1:0] x_d, x_q, nx_d, nx_q, y_d, y_q;
  logic [3*MAP_W-1:0]    px_q;
  logic [Z+3:0]          p_q;

  for (genvar m = 0; m < 3; m++) begin : g_select
    logic [J_W-1:0] jx, jy, jxk, jyk;
    assign jx  = jx_i[m*J_W +: J_W];
    assign jy  = jy_i[m*J_W +: J_W];
    assign jxk = (jx < J_W'(HALF)) ? jx + J_W'(HALF) : jx - J_W'(HALF);
    assign jyk = (jy < J_W'(HALF)) ? jy + J_W'(HALF) : jy - J_W'(HALF);
    if (OWN_FIRST != 0) begin : g_own_first
      assign x_d[(0*3+m)*COEF_W +: COEF_W] = coef_x_i[jx*COEF_W +: COEF_W];
      assign x_d[(1*3+m)*COEF_W +: COEF_W] = coef_x_i[jxk*COEF_W +: COEF_W];
      assign y_d[(0*3+m)*COEF_W +: COEF_W] = coef_y_i[jyk*COEF_W +: COEF_W];
      assign y_d[(1*3+m)*COEF_W +: COEF_W] = coef_y_i[jy*COEF_W +: COEF_W];
    end else begin : g_own_second
      assign x_d[(0*3+m)*COEF_W +: COEF_W] = coef_x_i[jxk*COEF_W +: COEF_W];
      assign x_d[(1*3+m)*COEF_W +: COEF_W] = coef_x_i[jx*COEF_W +: COEF_W];
      assign y_d[(0*3+m)*COEF_W +: COEF_W] = coef_y_i[jy*COEF_W +: COEF_W];
      assign y_d[(1*3+m)*COEF_W +: COEF_W] = coef_y_i[jyk*COEF_W +: COEF_W];
    end
  end
  for (genvar i = 0; i < 6; i++) begin : g_negate
    assign nx_d[i*COEF_W +: COEF_W] = COEF_W'(0) - x_d[i*COEF_W +: COEF_W];
  end

  always_ff @(posedge clk_i) begin
    x_q  <= x_d;
    nx_q <= nx_d;
    y_q  <= y_d;
    px_q <= px_i;
    p_q  <= p_i;
  end

  // ---------------------------------------------------------------- S2: products and LUT terms
  logic [2*NT*DIFF_W-1:0] terms_d, terms_q;

  for (genvar d = 0; d < 2; d++) begin : g_diff
    for (genvar m = 0; m < 3; m++) begin : g_term
      logic [MAP_W-1:0]     pm;
      logic signed [LO_W:0] plo;  // Plo as an 18-bit signed (non-negative) DSP operand
      logic [HI_W-1:0]      mhi;  // -Phi, unsigned
      logic [COEF_W-1:0]    xv, nxv;
      logic [HI_W*DIFF_W-1:0] hi_part;
      logic [DIFF_W-1:0]    hi;
      assign pm  = px_q[m*MAP_W +: MAP_W];
      assign plo = {1'b0, pm[LO_W-1:0]};
      assign mhi = HI_W'(0) - pm[MAP_W-1:LO_W];
      assign xv  = x_q[(d*3+m)*COEF_W +: COEF_W];
      assign nxv = nx_q[(d*3+m)*COEF_W +: COEF_W];
      // Phi x' = -Phi (-x'): the set bits of -Phi select shifted copies of -x'.
      for (genvar bb = 0; bb < HI_W; bb++) begin : g_hi
        assign hi_part[bb*DIFF_W +: DIFF_W] = mhi[bb] ? ext(nxv) << (LO_W + bb) : '0;
      end
      if (HI_W == 1) begin : g_hi1
        assign hi = hi_part[0 +: DIFF_W];
      end else if (HI_W == 2) begin : g_hi2
        assign hi = hi_part[0 +: DIFF_W] + hi_part[DIFF_W +: DIFF_W];
      end else begin : g_hin
        always_comb begin
          hi = '0;
          for (int bb = 0; bb < HI_W; bb++) hi = hi + hi_part[bb*DIFF_W +: DIFF_W];
        end
      end
      assign terms_d[(d*NT + m)*DIFF_W +: DIFF_W]     = DIFF_W'($signed(plo) * $signed(xv));
      assign terms_d[(d*NT + 3 + m)*DIFF_W +: DIFF_W] = hi;
      assign terms_d[(d*NT + 6 + m)*DIFF_W +: DIFF_W] = xv[COEF_W-1] ? ext(xv) : '0;  // sn(x')
    end
    // own(y') = -(y'_0 << C) + sn(y'); sn(y') as three terms of the tree.
    assign terms_d[(d*NT + 9)*DIFF_W +: DIFF_W] = (DIFF_W'(0) - ext(y_q[(d*3)*COEF_W +: COEF_W])) << C;
    for (genvar m = 0; m < 3; m++) begin : g_sn_y
      assign terms_d[(d*NT + 12 + m)*DIFF_W +: DIFF_W] =
          y_q[(d*3+m)*COEF_W + COEF_W-1] ? ext(y_q[(d*3+m)*COEF_W +: COEF_W]) : '0;
    end
  end
  // The offset: diff1 gets floor(p' 2^E), diff2 gets -ceil((p'+1) 2^E) = floor(~p' 2^E).
  if (E >= 0) begin : g_offset_shl
    assign terms_d[(0*NT + 10)*DIFF_W +: DIFF_W] = DIFF_W'($signed(p_q)) << E;
    assign terms_d[(1*NT + 10)*DIFF_W +: DIFF_W] = DIFF_W'($signed(~p_q)) << E;
  end else begin : g_offset_shr
    assign terms_d[(0*NT + 10)*DIFF_W +: DIFF_W] = $signed(DIFF_W'($signed(p_q))) >>> (-E);
    assign terms_d[(1*NT + 10)*DIFF_W +: DIFF_W] = $signed(DIFF_W'($signed(~p_q))) >>> (-E);
  end
  // Term 11 of each diff is free (15 terms = 4 levels either way).
  assign terms_d[(0*NT + 11)*DIFF_W +: DIFF_W] = '0;
  assign terms_d[(1*NT + 11)*DIFF_W +: DIFF_W] = '0;

  always_ff @(posedge clk_i) begin
    terms_q <= terms_d;
  end

  // ---------------------------------------------------------------- S3..: adder trees
  logic [DIFF_W-1:0] sum1, sum2;
  kdopcd_sat_addtree #(.N(NT), .W(DIFF_W)) u_tree1 (
    .clk_i  (clk_i),
    .terms_i(terms_q[0 +: NT*DIFF_W]),
    .sum_o  (sum1)
  );
  kdopcd_sat_addtree #(.N(NT), .W(DIFF_W)) u_tree2 (
    .clk_i  (clk_i),
    .terms_i(terms_q[NT*DIFF_W +: NT*DIFF_W]),
    .sum_o  (sum2)
  );

  // ---------------------------------------------------------------- last stage: sign test
  logic signed [DIFF_W-1:0] diff1_q, diff2_q;
  logic                     verdict_q;
  always_ff @(posedge clk_i) begin
    diff1_q   <= sum1;
    diff2_q   <= sum2;
    verdict_q <= $signed(sum1) > 0 || $signed(sum2) > 0;
  end
  assign diff1_o   = diff1_q;
  assign diff2_o   = diff2_q;
  assign verdict_o = verdict_q;

  // ---------------------------------------------------------------- valid: LV + 3 stages
  logic [LV+2:0] valid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= '0;
    else         valid_q <= {valid_q[LV+1:0], valid_i};
  end
  assign valid_o = valid_q[LV+2];

endmodule
