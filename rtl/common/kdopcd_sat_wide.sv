// v2 wide SAT unit (docs/model-v2.md): all K axes of one DOP pair per clock, one lane per axis.
// Axis order of the set-up (ref/include/kdopcd/sat_setup.hpp): axis 2i is the first object's
// face normal D_i (lane own = B, mapped = A), axis 2i+1 the placed second object's M D_i (own = A,
// mapped = B). Each lane is bit-exact with fixed_diffs() for its axis (kdopcd_sat_lane); the
// last stage ORs the lane verdicts and finds the first separating axis (the reference's
// effective axis count is that index + 1). LAT = lane latency + 1 = 8.
//
// The own object's face triple of lane l is own_direction_triple(l / 2), a constant of the
// orientation set (kdopcd_sat_pkg::OWN_TRIPLES), and its P' is (-2^C, 0, 0): the lanes take them
// as parameters, not from the axis table. So the own halves of the table (jb_i, pb_i of the even
// lanes, ja_i, pa_i of the odd ones) are not used by the hardware; they stay in the port list
// so that the table keeps the reference's layout (one QuantizedAxis per lane), and the
// simulation (Verilator --assert, as in the tests) checks that they hold the constants when
// cfg_i reads the table (a host that loads another orientation set or a wrong table is caught).
// Only the mapped object's triple depends on the pose.
//
// The table is the same for every pair of a query: cfg_i (the query's START) loads what each lane
// needs of it, and the unit must be empty then; between two cfg_i the table ports are not read.
module kdopcd_sat_wide #(
  parameter int K = kdopcd_sat_pkg::DEFAULT_K,
  parameter int B = kdopcd_sat_pkg::DEFAULT_B,
  parameter int C = kdopcd_sat_pkg::DEFAULT_C,
  parameter int Z = kdopcd_sat_pkg::DEFAULT_Z
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     cfg_i,     // load the axis table into the lanes (the unit is empty)
  input  logic                     valid_i,
  input  logic [K*(B+2)-1:0]       coef_a_i,  // node of the second object (A)
  input  logic [K*(B+2)-1:0]       coef_b_i,  // node of the first object (B)
  // the per-query axis table, axis l at [l*W +: W] of each field: read only with cfg_i
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
  // Slot of K in kdopcd_sat_pkg::OWN_TRIPLES.
  localparam int KSlot = K == 6 ? 0 : K == 14 ? 1 : K == 18 ? 2 : K == 24 ? 3 : K == 26 ? 4 : -1;
  if (KSlot < 0) begin : g_unsupported_k
    $error("kdopcd_sat_wide: K must be one of the supported orientation sets 6, 14, 18, 24, 26");
  end
  localparam int Slot = KSlot < 0 ? 0 : KSlot;

  logic [K-1:0] lane_valid, lane_verdict;
  for (genvar l = 0; l < K; l++) begin : g_lane
    localparam int OwnFirst = (l % 2) == 0 ? 1 : 0;
    localparam int Base     = (Slot * kdopcd_sat_pkg::OWN_DIRS + l / 2) * 3 * 8;
    localparam int OwnJ0    = 32'(kdopcd_sat_pkg::OWN_TRIPLES[Base +: 8]);
    localparam int OwnJ1    = 32'(kdopcd_sat_pkg::OWN_TRIPLES[Base + 8 +: 8]);
    localparam int OwnJ2    = 32'(kdopcd_sat_pkg::OWN_TRIPLES[Base + 16 +: 8]);
    logic signed [B+C+4:0] unused_d1, unused_d2;
    kdopcd_sat_lane #(.K(K), .B(B), .C(C), .Z(Z), .OWN_FIRST(OwnFirst),
                      .OWN_J0(OwnJ0), .OWN_J1(OwnJ1), .OWN_J2(OwnJ2)) u_lane (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .cfg_i    (cfg_i),
      .valid_i  (valid_i),
      .coef_x_i (OwnFirst != 0 ? coef_a_i : coef_b_i),
      .coef_y_i (OwnFirst != 0 ? coef_b_i : coef_a_i),
      .jx_i     (OwnFirst != 0 ? ja_i[l*JT +: JT] : jb_i[l*JT +: JT]),
      .px_i     (OwnFirst != 0 ? pa_i[l*PT +: PT] : pb_i[l*PT +: PT]),
      .p_i      (p_i[l*(Z+4) +: Z+4]),
      .valid_o  (lane_valid[l]),
      .diff1_o  (unused_d1),
      .diff2_o  (unused_d2),
      .verdict_o(lane_verdict[l])
    );

`ifndef SYNTHESIS
    // The own half of the axis table must hold the constants the lane is wired for.
    logic [JT-1:0] own_j;
    logic [PT-1:0] own_p;
    assign own_j = OwnFirst != 0 ? jb_i[l*JT +: JT] : ja_i[l*JT +: JT];
    assign own_p = OwnFirst != 0 ? pb_i[l*PT +: PT] : pa_i[l*PT +: PT];
    always_ff @(posedge clk_i) begin
      if (cfg_i) begin
        assert (own_j == {J_W'(OwnJ2), J_W'(OwnJ1), J_W'(OwnJ0)} &&
                own_p == {(C + 1)'(0), (C + 1)'(0), (C + 1)'(-(64'sd1 <<< C))})
          else $error("kdopcd_sat_wide: lane %0d: own triple in the axis table is not own_direction_triple(%0d)",
                      l, l / 2);
      end
    end
`endif
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
  always_ff @(posedge clk_i) begin  // read only with valid_o: loads only with a result
    if (lane_valid[0]) begin
      separated_q    <= |lane_verdict;
      lane_verdict_q <= lane_verdict;
      effective_q    <= effective_d;
    end
  end
  assign valid_o        = valid_q;
  assign separated_o    = separated_q;
  assign lane_verdict_o = lane_verdict_q;
  assign effective_o    = effective_q;

  logic unused_valid;
  assign unused_valid = ^lane_valid[K-1:1];

endmodule
