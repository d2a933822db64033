// Formal-only: kdopcd_sat_lane equals an independent specification of Eq. 22 (docs/fixed-point.md
// §4) for every operand in range, every axis and every sequence of inputs (docs/formal.md §2).
// Read by Yosys with `read_verilog -formal`; yosys-smtbmc proves the assertions with z3, a base
// case from reset and a k-induction step (scripts/formal_rtl.py, which also connects the probes).
//
// The wrapper's inputs are free. It assumes what the lane's users guarantee (the lane's own
// comments): reset low in the first clock, cfg_i only while the lane is empty, an axis loaded
// before the first pair, operands in the ranges of fixed-point.md §3. It keeps its own copy of the
// axis loaded at cfg_i and of each pair's coefficients, computes each pair's terms of Eq. 22 from
// them (products P'x' of the mapped object's faces j and j + K/2, the own object's product and
// every sn(), the offsets p' 2^e and (p' + 1) 2^e with floor/ceil for e < 0) and asserts:
//   - valid_o comes exactly LAT clocks after valid_i;
//   - diff1_o, diff2_o and verdict_o equal the specification of that pair;
//   - lemmas: the lane's stage-4 registers equal the specification's terms (so the solver proves
//     each product on its own, then the adder levels after it, which the specification groups as
//     the lane does: integer addition does not depend on the grouping);
//   - the induction invariant: the lane's axis registers agree with the wrapper's copy of the axis.
// The specification never reads the lane's internals; the lemmas and the invariant only compare
// with them.
module kdopcd_sat_lane_equiv #(
  parameter int K         = 6,
  parameter int B         = 4,
  parameter int C         = 4,
  parameter int Z         = 4,
  parameter int OWN_FIRST = 1,
  parameter int OWN_J0    = 3,
  parameter int OWN_J1    = 1,
  parameter int OWN_J2    = 2,
  parameter int DSP_LO_W  = 17,  // the lane's DSP operand bits: lowered to take its wide-P' branches
  parameter int MUTANT    = 0   // 0: none; 1: the specification drops the + 1 of diff2 (must fail)
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic                   cfg_i,
  input logic                   valid_i,
  input logic [K*(B+2)-1:0]     coef_x_i,
  input logic [K*(B+2)-1:0]     coef_y_i,
  input logic [3*$clog2(K)-1:0] jx_i,
  input logic [3*(C+1)-1:0]     px_i,
  input logic [Z+3:0]           p_i
);
  localparam int LAT    = 7;
  localparam int COEF_W = B + 2;
  localparam int MAP_W  = C + 1;
  localparam int J_W    = $clog2(K);
  localparam int DIFF_W = B + C + 5;
  // Room for the offsets: p' and p' + 1 (Z+4 bits and one more) shifted left to B+C+4 bits, or
  // shifted right. (Wider only slows the solver down.)
  localparam int WIDE   = (B + C + 8 > Z + 6) ? B + C + 8 : Z + 6;

  logic                 valid_o, verdict_o;
  logic signed [DIFF_W-1:0] diff1_o, diff2_o;

  kdopcd_sat_lane #(
    .K(K), .B(B), .C(C), .Z(Z), .OWN_FIRST(OWN_FIRST), .OWN_J0(OWN_J0), .OWN_J1(OWN_J1), .OWN_J2(OWN_J2),
    .DSP_LO_W(DSP_LO_W)
  ) u_lane (
    .clk_i, .rst_ni, .cfg_i, .valid_i, .coef_x_i, .coef_y_i, .jx_i, .px_i, .p_i,
    .valid_o, .diff1_o, .diff2_o, .verdict_o
  );

  // ---------------------------------------------------------------- the specification (§4)
  // Face i of a node, for a run-time i: a comparison per face (an indexed part-select with a
  // run-time index becomes multiplications and remainders the solver handles badly).
  function automatic logic signed [COEF_W-1:0] face(input logic [K*COEF_W-1:0] node, input logic [J_W-1:0] j);
    face = '0;
    for (int i = 0; i < K; i++)
      if (j == J_W'(i)) face = node[i*COEF_W +: COEF_W];
  endfunction
  // The opposite face, (j + K/2) mod K.
  function automatic logic [J_W-1:0] opposite(input logic [J_W-1:0] j);
    opposite = j >= J_W'(K / 2) ? j - J_W'(K / 2) : j + J_W'(K / 2);
  endfunction

  // ---------------------------------------------------------------- environment
  logic [LAT-1:0] in_lane_q;  // valid_i of the last LAT clocks
  logic           configured_q;
  logic [3*J_W-1:0] jx_q;
  logic [3*MAP_W-1:0] px_q;
  logic [Z+3:0]     p_q;
  // The coefficients of the last S4 + 1 clocks (x_q[s]: s + 1 clocks ago); the specification reads
  // those of the pair in the lane's stage 4.
  localparam int S4 = 3;
  logic [K*COEF_W-1:0] x_q [S4+1];
  logic [K*COEF_W-1:0] y_q [S4+1];
  logic           past_valid_q;

  initial assume (!rst_ni);
  initial past_valid_q = 1'b0;

  always_ff @(posedge clk_i) begin
    past_valid_q <= 1'b1;
    if (!rst_ni) begin
      in_lane_q    <= '0;
      configured_q <= 1'b0;
    end else begin
      in_lane_q <= {in_lane_q[LAT-2:0], valid_i};
      if (cfg_i) begin
        configured_q <= 1'b1;
        jx_q <= jx_i;
        px_q <= px_i;
        p_q  <= p_i;
      end
    end
    x_q[0] <= coef_x_i;
    y_q[0] <= coef_y_i;
    for (int s = 1; s <= S4; s++) begin
      x_q[s] <= x_q[s-1];
      y_q[s] <= y_q[s-1];
    end
  end

  always_comb begin
    if (rst_ni) begin
      // cfg_i only while the lane is empty, and an axis before the first pair.
      if (cfg_i) assume (!valid_i && in_lane_q[LAT-2:0] == '0);
      if (valid_i) assume (configured_q);
      // The axis: face indices below K, P' in [-2^C, 0], p' in [-2^(Z+2), 2^(Z+2)].
      if (cfg_i) begin
        for (int m = 0; m < 3; m++) begin
          assume (jx_i[m*J_W +: J_W] < K);
          assume ($signed(px_i[m*MAP_W +: MAP_W]) <= 0);
          assume ($signed(px_i[m*MAP_W +: MAP_W]) >= -(1 <<< C));
        end
        assume ($signed(p_i) <= (1 <<< (Z + 2)) && $signed(p_i) >= -(1 <<< (Z + 2)));
      end
      // Coefficients in [-2^B, 2^B].
      if (valid_i) begin
        for (int i = 0; i < K; i++) begin
          assume ($signed(coef_x_i[i*COEF_W +: COEF_W]) <= (1 <<< B));
          assume ($signed(coef_x_i[i*COEF_W +: COEF_W]) >= -(1 <<< B));
          assume ($signed(coef_y_i[i*COEF_W +: COEF_W]) <= (1 <<< B));
          assume ($signed(coef_y_i[i*COEF_W +: COEF_W]) >= -(1 <<< B));
        end
      end
    end
  end

  // ---------------------------------------------------------------- the pair now at the output
  // Eq. 22 for the pair that entered LAT clocks ago (its terms taken at stage 4) and the axis of the last cfg_i
  // (jx_q, px_q, p_q), summed modulo 2^DIFF_W: the Gappa proof sum-widths (docs/formal.md §1)
  // shows that every partial sum of in-range operands fits DIFF_W bits, so equality modulo
  // 2^DIFF_W is equality of the integers. The terms are grouped as the lane groups them (three
  // products, then everything else); integer addition does not depend on the grouping, and the
  // solver is spared proving that it does not.
  // The offsets: p' 2^e and (p' + 1) 2^e with e = B + C - Z; for e < 0 floor and ceil of the
  // shift.
  logic signed [WIDE-1:0] p_low, p_high, pe;
  always_comb begin
    pe = WIDE'($signed(p_q)) + (MUTANT == 1 ? WIDE'(0) : WIDE'(1));
    if (B + C >= Z) begin
      p_low  = WIDE'($signed(p_q)) <<< (B + C - Z);
      p_high = pe <<< (B + C - Z);
    end else begin
      // (An explicit $signed on each shifted operand: >>> must be arithmetic.)
      p_low  = $signed(WIDE'($signed(p_q))) >>> (Z - B - C);
      p_high = -($signed(-pe) >>> (Z - B - C));
    end
  end

  localparam bit XNearIn1 = OWN_FIRST != 0;
  // The terms of the pair in stage 4 of the lane (entered 4 clocks ago). They are carried to the
  // output in terms_q below.
  for (genvar m = 0; m < 3; m++) begin : g_spec
    localparam int OwnJ = m == 0 ? OWN_J0 : m == 1 ? OWN_J1 : OWN_J2;
    logic [J_W-1:0]                 jn, jf;      // the mapped object's face and its opposite
    logic signed [MAP_W-1:0]        pm, po;      // P' of the mapped object and of the own one
    logic signed [COEF_W-1:0]       xn, xf, yn, yf;
    logic signed [MAP_W+COEF_W-1:0] pxn, pxf, pyn, pyf;
    logic [DIFF_W-1:0]              snxn, snxf, snyn, snyf;  // sn() of each coefficient
    assign jn   = jx_q[m*J_W +: J_W];
    assign jf   = opposite(jn);
    assign pm   = px_q[m*MAP_W +: MAP_W];
    assign po   = m == 0 ? -(MAP_W'(1) << C) : '0;
    assign xn   = face(x_q[S4], jn);
    assign xf   = face(x_q[S4], jf);
    assign yn   = face(y_q[S4], J_W'(OwnJ));
    assign yf   = face(y_q[S4], opposite(J_W'(OwnJ)));
    assign pxn  = pm * xn;
    assign pxf  = pm * xf;
    assign pyn  = po * yn;
    assign pyf  = po * yf;
    assign snxn = xn < 0 ? DIFF_W'(xn) : '0;
    assign snxf = xf < 0 ? DIFF_W'(xf) : '0;
    assign snyn = yn < 0 ? DIFF_W'(yn) : '0;
    assign snyf = yf < 0 ? DIFF_W'(yf) : '0;
  end

  // Eq. 22 with A the second object and B the first (own = B when OWN_FIRST):
  //   diff1 = P'_A.a' + sn(a') + P'_B.b'k + sn(b'k) + p' 2^e
  //   diff2 = P'_B.b' + sn(b') + P'_A.a'k + sn(a'k) - (p' + 1) 2^e
  // The mapped object's faces at j ("near") go to diff1 when the own object is B, to diff2 when it
  // is A; the own object's at J go to the other diff.
  logic [DIFF_W-1:0] x1_0, x1_1, x1_2, x2_0, x2_1, x2_2, rest1, rest2;
  always_comb begin
    x1_0 = DIFF_W'(XNearIn1 ? g_spec[0].pxn : g_spec[0].pxf);
    x1_1 = DIFF_W'(XNearIn1 ? g_spec[1].pxn : g_spec[1].pxf);
    x1_2 = DIFF_W'(XNearIn1 ? g_spec[2].pxn : g_spec[2].pxf);
    x2_0 = DIFF_W'(XNearIn1 ? g_spec[0].pxf : g_spec[0].pxn);
    x2_1 = DIFF_W'(XNearIn1 ? g_spec[1].pxf : g_spec[1].pxn);
    x2_2 = DIFF_W'(XNearIn1 ? g_spec[2].pxf : g_spec[2].pxn);
    rest1 = DIFF_W'(p_low) + (XNearIn1 ? DIFF_W'(g_spec[0].pyf) : DIFF_W'(g_spec[0].pyn)) +
            (XNearIn1 ? g_spec[0].snxn + g_spec[1].snxn + g_spec[2].snxn + g_spec[0].snyf + g_spec[1].snyf + g_spec[2].snyf
                      : g_spec[0].snxf + g_spec[1].snxf + g_spec[2].snxf + g_spec[0].snyn + g_spec[1].snyn + g_spec[2].snyn);
    rest2 = DIFF_W'(-p_high) + (XNearIn1 ? DIFF_W'(g_spec[0].pyn) : DIFF_W'(g_spec[0].pyf)) +
            (XNearIn1 ? g_spec[0].snxf + g_spec[1].snxf + g_spec[2].snxf + g_spec[0].snyn + g_spec[1].snyn + g_spec[2].snyn
                      : g_spec[0].snxn + g_spec[1].snxn + g_spec[2].snxn + g_spec[0].snyf + g_spec[1].snyf + g_spec[2].snyf);
  end

  // The terms carried from stage 4 to the output (LAT - 4 clocks), and the two sums there.
  localparam int NT = 8;
  logic [NT*DIFF_W-1:0] terms_q [LAT-4];
  always_ff @(posedge clk_i) begin
    terms_q[0] <= {rest2, x2_2, x2_1, x2_0,
                   rest1, x1_2, x1_1, x1_0};
    for (int s = 1; s < LAT - 4; s++) terms_q[s] <= terms_q[s-1];
  end
  logic [DIFF_W-1:0] term [NT];
  for (genvar i = 0; i < NT; i++) begin : g_term
    assign term[i] = terms_q[LAT-5][i*DIFF_W +: DIFF_W];
  end
  logic signed [DIFF_W-1:0] spec1, spec2;
  assign spec1 = (term[0] + term[1]) + (term[2] + term[3]);
  assign spec2 = (term[4] + term[5]) + (term[6] + term[7]);

  // ---------------------------------------------------------------- the induction invariant
  // k-induction starts from any state, also one where the lane's axis registers disagree with
  // this wrapper's copy of the axis, which no run from reset reaches; asserting that they agree
  // makes the induction close. The probe wires are undriven here: the proof script connects them
  // to the lane's registers after flattening (Yosys 0.23 has no hierarchical references).
  localparam int LO_W = C < DSP_LO_W ? C : DSP_LO_W;
  localparam int HI_W = (C + 1) - LO_W;
  logic [3:0]        probe_r_q0, probe_r_q1, probe_r_q2;
  logic              probe_sw_q0, probe_sw_q1, probe_sw_q2;
  logic [LO_W-1:0]   probe_plo_q0, probe_plo_q1, probe_plo_q2;
  logic [HI_W-1:0]   probe_mhi_q0, probe_mhi_q1, probe_mhi_q2;
  logic [3*4-1:0]    probe_r_q;
  logic [2:0]        probe_sw_q;
  logic [3*LO_W-1:0] probe_plo_q;
  logic [3*HI_W-1:0] probe_mhi_q;
  assign probe_r_q   = {probe_r_q2, probe_r_q1, probe_r_q0};
  assign probe_sw_q  = {probe_sw_q2, probe_sw_q1, probe_sw_q0};
  assign probe_plo_q = {probe_plo_q2, probe_plo_q1, probe_plo_q0};
  assign probe_mhi_q = {probe_mhi_q2, probe_mhi_q1, probe_mhi_q0};
  logic [DIFF_W-1:0] probe_off1_q, probe_off2_q;
  always_comb begin
    if (rst_ni && configured_q) begin
      for (int m = 0; m < 3; m++) begin
        assert (jx_q[m*J_W +: J_W] < K);
        assert ($signed(px_q[m*MAP_W +: MAP_W]) <= 0 && $signed(px_q[m*MAP_W +: MAP_W]) >= -(1 <<< C));
        assert (probe_sw_q[m] == (jx_q[m*J_W +: J_W] >= J_W'(K / 2)));
        assert (32'(probe_r_q[m*4 +: 4]) == 32'(jx_q[m*J_W +: J_W]) % (K / 2));
        assert (probe_plo_q[m*LO_W +: LO_W] == px_q[m*MAP_W +: LO_W]);
        assert (probe_mhi_q[m*HI_W +: HI_W] == HI_W'(0) - px_q[m*MAP_W + LO_W +: HI_W]);
      end
      assert (probe_off1_q == DIFF_W'(p_low));
      assert (probe_off2_q == DIFF_W'(-p_high));
    end
  end

  // ---------------------------------------------------------------- lemmas at stage 4
  // The lane's stage-4 registers hold each product term t (P'x' of one mapped face) and the rest u
  // (offset, own product, sn sums) of both diffs. Asserting that they equal the specification's
  // terms splits the proof: the solver checks each product and each rest on its own, and then
  // (a checked assertion is assumed in later steps) the last two adder levels, whose grouping the
  // specification shares. Probes connected by the proof script, as above.
  logic [DIFF_W-1:0] probe_t4_00, probe_t4_01, probe_t4_02, probe_t4_10, probe_t4_11, probe_t4_12;
  logic [DIFF_W-1:0] probe_u4_0, probe_u4_1;
  always_ff @(posedge clk_i) begin
    if (past_valid_q && rst_ni && in_lane_q[S4]) begin
      assert (probe_t4_00 == x1_0);
      assert (probe_t4_01 == x1_1);
      assert (probe_t4_02 == x1_2);
      assert (probe_t4_10 == x2_0);
      assert (probe_t4_11 == x2_1);
      assert (probe_t4_12 == x2_2);
      assert (probe_u4_0 == rest1);
      assert (probe_u4_1 == rest2);
    end
  end

  always_ff @(posedge clk_i) begin
    if (past_valid_q && rst_ni) begin
      assert (valid_o == in_lane_q[LAT-1]);
      if (valid_o) begin
        assert (diff1_o == spec1);
        assert (diff2_o == spec2);
        assert (verdict_o == (spec1 > 0 || spec2 > 0));
      end
    end
  end
endmodule
