// v2 wide SAT unit (docs/model-v2.md): all K axes of one DOP pair per clock, one lane per axis.
// Axis order of the set-up (ref/include/kdopcd/sat_setup.hpp): axis 2i is the first object's
// face normal D_i (lane own = B, mapped = A), axis 2i+1 the placed second object's M D_i (own = A,
// mapped = B). Each lane is bit-exact with fixed_diffs() for its axis (kdopcd_sat_lane); the
// last stage ORs the lane verdicts and finds the first separating axis (the reference's
// effective axis count is that index + 1). LAT = lane latency + 1 = 8 for K = 24, b = c = 18.
module kdopcd_sat_wide #(
  parameter int K = kdopcd_sat_pkg::DEFAULT_K,
  parameter int B = kdopcd_sat_pkg::DEFAULT_B,
  parameter int C = kdopcd_sat_pkg::DEFAULT_C,
  parameter int Z = kdopcd_sat_pkg::DEFAULT_Z
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     valid_i,
  input  logic [K*(B+2)-1:0]       coef_a_i,  // node of the second object (A)
  input  logic [K*(B+2)-1:0]       coef_b_i,  // node of the first object (B)
  // the per-query axis table, axis l at [l*W +: W] of each field
  input  logic [K*3*$clog2(K)-1:0] ja_i,
  input  logic [K*3*$clog2(K)-1:0] jb_i,
  input  logic [K*3*(C+1)-1:0]     pa_i,
  input  logic [K*3*(C+1)-1:0]     pb_i,
  input  logic [K*(Z+4)-1:0]       p_i,
  output logic                     valid_o,
  output logic [K-1:0]             lane_verdict_o,  // per axis: 1 = separating
  output logic                     separated_o,     // some axis separates the pair
  output logic [$clog2(K+1)-1:0]   effective_o      // first separating axis + 1, or K
);

  localparam int J_W = $clog2(K);
  localparam int JT  = 3 * J_W;
  localparam int PT  = 3 * (C + 1);

  logic [K-1:0] lane_valid, lane_verdict;
  for (genvar l = 0; l < K; l++) begin : g_lane
    localparam int OwnFirst = (l % 2) == 0 ? 1 : 0;
    logic signed [B+C+4:0] unused_d1, unused_d2;
    kdopcd_sat_lane #(.K(K), .B(B), .C(C), .Z(Z), .OWN_FIRST(OwnFirst)) u_lane (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .valid_i  (valid_i),
      .coef_x_i (OwnFirst != 0 ? coef_a_i : coef_b_i),
      .coef_y_i (OwnFirst != 0 ? coef_b_i : coef_a_i),
      .jx_i     (OwnFirst != 0 ? ja_i[l*JT +: JT] : jb_i[l*JT +: JT]),
      .jy_i     (OwnFirst != 0 ? jb_i[l*JT +: JT] : ja_i[l*JT +: JT]),
      .px_i     (OwnFirst != 0 ? pa_i[l*PT +: PT] : pb_i[l*PT +: PT]),
      .p_i      (p_i[l*(Z+4) +: Z+4]),
      .valid_o  (lane_valid[l]),
      .diff1_o  (unused_d1),
      .diff2_o  (unused_d2),
      .verdict_o(lane_verdict[l])
    );
  end

  // Last stage: OR and the first separating axis (a priority encoder), registered.
  logic                 valid_q, separated_q;
  logic [K-1:0]         lane_verdict_q;
  logic [$clog2(K+1)-1:0] effective_d, effective_q;
  always_comb begin
    effective_d = ($clog2(K+1))'(K);
    for (int l = K - 1; l >= 0; l--)
      if (lane_verdict[l]) effective_d = ($clog2(K+1))'(l + 1);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= 1'b0;
    else         valid_q <= lane_valid[0];
  end
  always_ff @(posedge clk_i) begin
    separated_q    <= |lane_verdict;
    lane_verdict_q <= lane_verdict;
    effective_q    <= effective_d;
  end
  assign valid_o        = valid_q;
  assign separated_o    = separated_q;
  assign lane_verdict_o = lane_verdict_q;
  assign effective_o    = effective_q;

  logic unused_valid;
  assign unused_valid = ^lane_valid[K-1:1];

endmodule
