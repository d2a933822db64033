// Fixed-point separating-axis test pipeline for k-DOP pairs (paper Eq. 22 and §5.1;
// docs/fixed-point.md, docs/rtl-sat-pipeline.md; bit-exact with ref/include/kdopcd/sat_fixed.hpp
// fixed_diffs()).
//
//   diff1' = P'A.a' + sn(a') + P'B.b'k + sn(b'k) + p' 2^E
//   diff2' = P'B.b' + sn(b') + P'A.a'k + sn(a'k) - (p'+1) 2^E        E = B + C - Z
//   verdict = diff1' > 0 or diff2' > 0 (separated), all at scale 2^-(B+C)
// with a' = coef_a[jA], a'k = coef_a[jA + K/2], b' = coef_b[jB], b'k = coef_b[jB + K/2] and
// sn(x) the sum of the negative entries of x (the 2^-c correction of negative coefficients,
// already at scale 2^-(B+C)). For E < 0 the p terms are floor(p' 2^E) and -ceil((p'+1) 2^E).
// Note -(p'+1) = ~p' and -ceil(x 2^E) = floor(-x 2^E): the diff2 offset term is ~p' shifted,
// no adder needed.
//
// Operand ranges (the reference's, enforced by its vector parser; outside them the outputs are
// unspecified): a', b' in [-2^B, 2^B] (B+2 bits), P' in [-2^C, 0] (C+1 bits), p' in
// [-2^(Z+2), 2^(Z+2)] (Z+4 bits). Then |diff'| < 2^(B+C+4): each of the six terms
// P'x' + min(x',0) lies in [-2^(B+C), 2^(B+C)], |p' 2^E| <= 2^(B+C+2) and |(p'+1) 2^E| <=
// 2^(B+C+2) + 2^E, so |diff'| <= 10 2^(B+C) + 2^E < 2^(B+C+4): B+C+5 bits signed (DIFF_W).
//
// Stages (one register each; "S2" holds the multiplier outputs):
//   S1          selection of the 12 coefficients by jA, jB (+K/2 partners by wiring)
//   S2          partial products (each product split into NA x NP MUL_W-bit multiplies),
//               concurrently the negative coefficients (sn) are selected
//   S3..S(2+LV) adder tree over T = 6 NA NP + 7 terms per diff (partial products shifted by
//               the limb weights, six sn terms, the p' term), LV = ceil(log2 T) levels
//   S(3+LV)     result: diff1', diff2' and the strict sign test
// Latency LAT = LV + 3 cycles (valid_i in cycle t -> valid_o in cycle t + LAT), one test per
// clock, no stalls. NA = ceil((B+1)/(MUL_W-1)), NP = ceil(C/(MUL_W-1)):
//   MUL_W >= B+2, C+1 (one multiply per product): T = 13, LAT = 7 (the paper's seven stages)
//   (18,18,18), MUL_W = 18: NA = NP = 2, T = 31, LAT = 8
//   (35,35,35), MUL_W = 18: NA = NP = 3, T = 61, LAT = 9 (the paper: two extra stages at 35 bits)
module kdopcd_sat_pipeline #(
  parameter int K     = kdopcd_sat_pkg::DEFAULT_K,     // k of the k-DOPs (even)
  parameter int B     = kdopcd_sat_pkg::DEFAULT_B,     // fractional bits of coefficients
  parameter int C     = kdopcd_sat_pkg::DEFAULT_C,     // fractional bits of mapping vectors
  parameter int Z     = kdopcd_sat_pkg::DEFAULT_Z,     // fractional bits of the offset p'
  parameter int MUL_W = kdopcd_sat_pkg::DEFAULT_MUL_W  // signed width of one multiplier
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,        // asynchronous, active low
  // one axis test per clock
  input  logic                              valid_i,
  input  logic [K*(B+2)-1:0]                coef_a_i,      // node A (second object): a'_i at [i*(B+2) +: B+2]
  input  logic [K*(B+2)-1:0]                coef_b_i,      // node B (first object)
  input  logic [3*$clog2(K)-1:0]            ja_i,          // face triple of A, j_m at [m*$clog2(K) +: $clog2(K)]
  input  logic [3*$clog2(K)-1:0]            jb_i,          // face triple of B
  input  logic [3*(C+1)-1:0]                pa_i,          // P'A, entry m at [m*(C+1) +: C+1], signed
  input  logic [3*(C+1)-1:0]                pb_i,          // P'B
  input  logic [Z+3:0]                      p_i,           // p' (signed)
  input  kdopcd_sat_pkg::tag_t              tag_i,
  // drop the in-flight tests of one pair (see kdopcd_sat_pipedata)
  input  logic                              cancel_i,
  input  logic [kdopcd_sat_pkg::PAIR_W-1:0] cancel_pair_i,
  // one result per clock
  output logic                              valid_o,
  output logic signed [B+C+4:0]             diff1_o,
  output logic signed [B+C+4:0]             diff2_o,
  output logic                              verdict_o,     // 1: separating axis
  output kdopcd_sat_pkg::tag_t              tag_o
);

  localparam int COEF_W = B + 2;
  localparam int MAP_W  = C + 1;
  localparam int OFF_W  = Z + 4;
  localparam int DIFF_W = B + C + 5;
  localparam int J_W    = $clog2(K);
  localparam int E      = B + C - Z;
  localparam int L      = MUL_W - 1;                  // bits per low limb
  localparam int NA     = (COEF_W - 1 + L - 1) / L;   // limbs of a coefficient
  localparam int NP     = (MAP_W - 1 + L - 1) / L;    // limbs of a mapping entry
  localparam int NPP    = NA * NP;                    // partial products per product
  localparam int PP_W   = 2 * MUL_W;
  localparam int NT     = 6 * NPP + 7;                // adder-tree terms per diff
  localparam int LV     = $clog2(NT);
  localparam int LAT    = LV + 3;
  localparam int XW     = DIFF_W + PP_W;              // room to shift a partial product

  // ---------------------------------------------------------------- S1: selection
  logic [3*COEF_W-1:0] a_sel, ak_sel, b_sel, bk_sel;

  kdopcd_sat_select #(.K(K), .W(COEF_W), .J_W(J_W)) u_select_a (
    .coef_i (coef_a_i),
    .j_i    (ja_i),
    .near_o (a_sel),
    .far_o  (ak_sel)
  );

  kdopcd_sat_select #(.K(K), .W(COEF_W), .J_W(J_W)) u_select_b (
    .coef_i (coef_b_i),
    .j_i    (jb_i),
    .near_o (b_sel),
    .far_o  (bk_sel)
  );

  logic [3*COEF_W-1:0] s1_a_q, s1_ak_q, s1_b_q, s1_bk_q;
  logic [3*MAP_W-1:0]  s1_pa_q, s1_pb_q;
  logic [OFF_W-1:0]    s1_p_q;

  always_ff @(posedge clk_i) begin
    s1_a_q  <= a_sel;
    s1_ak_q <= ak_sel;
    s1_b_q  <= b_sel;
    s1_bk_q <= bk_sel;
    s1_pa_q <= pa_i;
    s1_pb_q <= pb_i;
    s1_p_q  <= p_i;
  end

  // ---------------------------------------------------------------- S2: products, sn, p'
  // Operands of the six products of each diff: m < 3 from the first group, m >= 3 the second.
  //   diff1: P'A[m] a'[m],   P'B[m-3] b'k[m-3]
  //   diff2: P'B[m] b'[m],   P'A[m-3] a'k[m-3]
  logic [6*COEF_W-1:0] x1, x2;  // coefficients
  logic [6*MAP_W-1:0]  y1, y2;  // mapping entries
  assign x1 = {s1_bk_q, s1_a_q};
  assign y1 = {s1_pb_q, s1_pa_q};
  assign x2 = {s1_ak_q, s1_b_q};
  assign y2 = {s1_pa_q, s1_pb_q};

  logic [6*NPP*PP_W-1:0] pp1, pp2;
  for (genvar m = 0; m < 6; m++) begin : g_prod
    kdopcd_sat_mul #(.WA(COEF_W), .WB(MAP_W), .MUL_W(MUL_W)) u_mul1 (
      .clk_i (clk_i),
      .a_i   (x1[m*COEF_W +: COEF_W]),
      .b_i   (y1[m*MAP_W +: MAP_W]),
      .pp_o  (pp1[m*NPP*PP_W +: NPP*PP_W])
    );
    kdopcd_sat_mul #(.WA(COEF_W), .WB(MAP_W), .MUL_W(MUL_W)) u_mul2 (
      .clk_i (clk_i),
      .a_i   (x2[m*COEF_W +: COEF_W]),
      .b_i   (y2[m*MAP_W +: MAP_W]),
      .pp_o  (pp2[m*NPP*PP_W +: NPP*PP_W])
    );
  end

  // sn: the negative coefficients, others zeroed (paper: "negative DOP coefficients are
  // selected and accumulated" concurrently with the products).
  logic [6*COEF_W-1:0] neg1_d, neg2_d, s2_neg1_q, s2_neg2_q;
  for (genvar m = 0; m < 6; m++) begin : g_neg
    assign neg1_d[m*COEF_W +: COEF_W] = x1[m*COEF_W +: COEF_W] & {COEF_W{x1[(m+1)*COEF_W-1]}};
    assign neg2_d[m*COEF_W +: COEF_W] = x2[m*COEF_W +: COEF_W] & {COEF_W{x2[(m+1)*COEF_W-1]}};
  end

  logic [OFF_W-1:0] s2_p_q;
  always_ff @(posedge clk_i) begin
    s2_neg1_q <= neg1_d;
    s2_neg2_q <= neg2_d;
    s2_p_q    <= s1_p_q;
  end

  // ---------------------------------------------------------------- S3..: adder trees
  // Terms (DIFF_W bits, modulo 2^DIFF_W): [m*NPP + i*NP + j] partial product (i, j) of product m
  // shifted by (i+j) L; [6 NPP + m] sn term m; [6 NPP + 6] the offset term.
  logic [NT*DIFF_W-1:0] terms1, terms2;
  for (genvar m = 0; m < 6; m++) begin : g_pp_terms
    for (genvar i = 0; i < NA; i++) begin : g_i
      for (genvar j = 0; j < NP; j++) begin : g_j
        localparam int PI = m*NPP + i*NP + j;
        assign terms1[PI*DIFF_W +: DIFF_W] =
            DIFF_W'(XW'($signed(pp1[PI*PP_W +: PP_W])) <<< ((i + j) * L));
        assign terms2[PI*DIFF_W +: DIFF_W] =
            DIFF_W'(XW'($signed(pp2[PI*PP_W +: PP_W])) <<< ((i + j) * L));
      end
    end
    assign terms1[(6*NPP + m)*DIFF_W +: DIFF_W] = DIFF_W'($signed(s2_neg1_q[m*COEF_W +: COEF_W]));
    assign terms2[(6*NPP + m)*DIFF_W +: DIFF_W] = DIFF_W'($signed(s2_neg2_q[m*COEF_W +: COEF_W]));
  end

  logic [OFF_W-1:0] p_inv;
  assign p_inv = ~s2_p_q;  // -(p'+1)
  if (E >= 0) begin : g_p_shl
    assign terms1[(6*NPP + 6)*DIFF_W +: DIFF_W] = DIFF_W'($signed(s2_p_q)) <<< E;
    assign terms2[(6*NPP + 6)*DIFF_W +: DIFF_W] = DIFF_W'($signed(p_inv)) <<< E;
  end else begin : g_p_shr
    assign terms1[(6*NPP + 6)*DIFF_W +: DIFF_W] = DIFF_W'($signed(s2_p_q) >>> (-E));
    assign terms2[(6*NPP + 6)*DIFF_W +: DIFF_W] = DIFF_W'($signed(p_inv) >>> (-E));
  end

  logic [DIFF_W-1:0] sum1, sum2;

  kdopcd_sat_addtree #(.N(NT), .W(DIFF_W)) u_tree1 (
    .clk_i   (clk_i),
    .terms_i (terms1),
    .sum_o   (sum1)
  );

  kdopcd_sat_addtree #(.N(NT), .W(DIFF_W)) u_tree2 (
    .clk_i   (clk_i),
    .terms_i (terms2),
    .sum_o   (sum2)
  );

  // ---------------------------------------------------------------- S(3+LV): result
  // diff > 0: sign bit clear and not zero (strict, as the reference: touching is not separated).
  logic pos1, pos2;
  assign pos1 = ~sum1[DIFF_W-1] & (|sum1);
  assign pos2 = ~sum2[DIFF_W-1] & (|sum2);

  logic [DIFF_W-1:0] diff1_q, diff2_q;
  logic              verdict_q;
  always_ff @(posedge clk_i) begin
    diff1_q   <= sum1;
    diff2_q   <= sum2;
    verdict_q <= pos1 | pos2;
  end

  assign diff1_o   = diff1_q;
  assign diff2_o   = diff2_q;
  assign verdict_o = verdict_q;

  // ---------------------------------------------------------------- PipeData: valid, tag, cancel
  kdopcd_sat_pipedata #(.DEPTH(LAT)) u_pipedata (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .valid_i       (valid_i),
    .tag_i         (tag_i),
    .cancel_i      (cancel_i),
    .cancel_pair_i (cancel_pair_i),
    .valid_o       (valid_o),
    .tag_o         (tag_o)
  );

endmodule
