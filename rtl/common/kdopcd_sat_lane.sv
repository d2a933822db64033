// One lane of the v2 wide SAT unit (docs/model-v2.md): one separating-axis test per clock whose
// axis is a face normal of one object ("own"), bit-exact with fixed_diffs() of
// ref/include/kdopcd/sat_fixed.hpp for such an axis.
//
// For an own-face axis the own object's face triple is exact and fixed: indices
// (OWN_J0, OWN_J1, OWN_J2) = the set-up's own_direction_triple, P' = (-2^C, 0, 0). So the own
// object's six coefficients are selected by constant wiring (no multiplexer) and its mapped sum
// P'.y' + sn(y') is -(y'_J0 << C) + sn(y'_J0) + sn(y'_J1) + sn(y'_J2): no multiplier. Only the
// other object ("mapped", X) has a run-time triple jX (it depends on the pose), in both diffs:
// 6 products per lane.
//   OWN_FIRST = 1 (own = first object B, X = A):
//     diff1' = P'X.x'[jX]      + sn(x'[jX])      + own(y'[J + K/2]) + p' 2^E
//     diff2' = own(y'[J])      + P'X.x'[jX + K/2] + sn(x'[jX + K/2]) - (p'+1) 2^E
//   OWN_FIRST = 0 (own = second object A, X = B):
//     diff1' = own(y'[J])      + P'X.x'[jX + K/2] + sn(.)            + p' 2^E
//     diff2' = P'X.x'[jX]      + sn(x'[jX])      + own(y'[J + K/2]) - (p'+1) 2^E
// (index + K/2 taken modulo K: the opposite face).
//
// A product P'x' with P' in [-2^C, 0] is split so that it takes one DSP slice (25 x 18 on
// 7-series, 27 x 18 on UltraScale+): P' = Phi 2^LO + Plo with Plo = P'[LO-1:0] in [0, 2^LO)
// (an 18-bit signed, non-negative DSP operand, LO = min(C, DSP_LO_W), DSP_LO_W = 17) and
// Phi = P' >>> LO in [-2^(C-LO), 0]. Phi x' 2^LO is subtracted as v 2^LO with v = (-Phi) x'
// (LUTs, no multiplier): -Phi is at most 2^(C-LO), so when its top bit is set the others are
// clear, and for C <= 18 (HI_W <= 2) v is a 3:1 multiplexer of 0, x', 2x'.
//
// The run-time selection x'[jX], x'[jX + K/2] is one K/2:1 multiplexer of the face pair
// (x'[r], x'[r + K/2]), r = jX mod K/2, followed by a swap: half the inputs of two K:1
// multiplexers.
//
// The axis (jX, P'X, p') is the same for every pair of a query: cfg_i (the query's START) loads
// what the stages need of it into registers (the multiplexer selects r and swap, Plo, -Phi, the
// two offsets), and the lane must be empty then. So the arithmetic on the axis is done once per
// query, not per pair, and the pipeline carries no copy of the axis.
//
// Stages (registered; every stage holds at most one carry chain of B+C+5 bits or the selection
// multiplexer, besides the short (B+5-bit) sums of three sn() terms; aimed at 250 MHz on
// UltraScale+):
//   S1 selection of x' (and the constant own sn(y') sums)
//   S2 products Plo x' (DSP, M register), v, sn(x') sums, the offset minus y'_J0 2^C
//   S3 products (DSP, P register), sn(x') + sn(y')
//   S4 t = Plo x' - v 2^LO (upper bits only), u = offset - y'_J0 2^C + sn sums
//   S5, S6 two adder levels over (t1, t2, t3, u)
//   S7 sign test
// LAT = 7, the lane latency of the model (kWideSatLaneLatency).
module kdopcd_sat_lane #(
  parameter int K         = kdopcd_sat_pkg::DEFAULT_K,
  parameter int B         = kdopcd_sat_pkg::DEFAULT_B,
  parameter int C         = kdopcd_sat_pkg::DEFAULT_C,
  parameter int Z         = kdopcd_sat_pkg::DEFAULT_Z,
  parameter int OWN_FIRST = 1,   // 1: own face of the first object (B); 0: of the second (A)
  // The own object's face triple (own_direction_triple of the lane's direction); the default is
  // that of direction 0 for K = 24.
  parameter int OWN_J0    = 12,
  parameter int OWN_J1    = 11,
  parameter int OWN_J2    = 16,
  // The most bits of Plo one DSP operand takes: 17 (an 18-bit signed operand, 25 x 18 or 27 x 18
  // slices). Synthesis keeps the default; the formal proof of the lane (docs/formal.md §2) lowers
  // it so that the branches of wide P' (HI_W = 2 at the default C = 18, HI_W > 2 above) are taken
  // at the small widths a solver can prove.
  parameter int DSP_LO_W  = 17
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   cfg_i,     // load the axis (jx_i, px_i, p_i); the lane is empty
  input  logic                   valid_i,
  input  logic [K*(B+2)-1:0]     coef_x_i,  // the mapped object's node: x'_i at [i*(B+2) +: B+2]
  input  logic [K*(B+2)-1:0]     coef_y_i,  // the own object's node
  input  logic [3*$clog2(K)-1:0] jx_i,      // the mapped object's face triple (read with cfg_i)
  input  logic [3*(C+1)-1:0]     px_i,      // P'X, entry m at [m*(C+1) +: C+1], signed, <= 0 (cfg_i)
  input  logic [Z+3:0]           p_i,       // p' (signed; cfg_i)
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
  localparam int LO_W   = C < DSP_LO_W ? C : DSP_LO_W;  // Plo bits: one signed DSP operand
  localparam int HI_W   = (C + 1) - LO_W;         // bits of -Phi (unsigned), >= 1
  localparam int PROD_W = LO_W + 1 + COEF_W;      // Plo x' (signed)
  localparam int V_W    = COEF_W + HI_W - 1;      // v = (-Phi) x' (signed), |v| <= 2^(B+HI_W-1)
  localparam int UP_W   = DIFF_W - LO_W;          // bits of t above the LO_W low product bits
  localparam int SN_W   = COEF_W + 3;             // a sum of up to six sn() terms (each >= -2^B)
  // The own triple and its opposite faces, constant.
  localparam int OJ0 = OWN_J0, OJ1 = OWN_J1, OJ2 = OWN_J2;
  localparam int OK0 = (OJ0 + HALF) % K, OK1 = (OJ1 + HALF) % K, OK2 = (OJ2 + HALF) % K;

  function automatic logic [DIFF_W-1:0] ext(input logic [COEF_W-1:0] v);
    ext = DIFF_W'($signed(v));
  endfunction
  function automatic logic [SN_W-1:0] sn(input logic [COEF_W-1:0] v);  // min(v, 0)
    sn = v[COEF_W-1] ? SN_W'($signed(v)) : '0;
  endfunction

  // Every value below is its own signal of at most B+C+5 bits, declared in the generate block of
  // the term it belongs to (not a slice of a wide flat vector): the logic is the same, but the
  // simulator keeps each one in a native 64-bit word instead of multi-word arrays with shifts and
  // masks, which made the 24-lane unit simulate many times slower under Verilator.

  // ---------------------------------------------------------------- valid: 7 stages
  // The data registers of all stages share one clock enable, en: some pair is in the lane (valid_i
  // or a valid bit of stages 1-6). While the lane is empty they hold; the outputs are read only
  // with valid_o, so nothing changes for the unit's users, and a cycle-based simulator skips the
  // lane's arithmetic in idle clocks. One enable for all stages, not one per stage, so that the
  // plain delay registers still pack into shift-register LUTs (SRL16E, one CE per chain).
  localparam int LAT = 7;
  logic [LAT-1:0] valid_q;
  logic           en;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= '0;
    else         valid_q <= {valid_q[LAT-2:0], valid_i};
  end
  assign valid_o = valid_q[LAT-1];
  assign en      = valid_i | (|valid_q[LAT-2:0]);

`ifndef SYNTHESIS
  // cfg_i changes the axis of every pair in the lane: it may come only while the lane is empty.
  always_ff @(posedge clk_i) begin
    if (cfg_i) begin
      assert (!en) else $error("kdopcd_sat_lane: cfg_i while a pair is in the lane");
    end
  end
`endif

  // ---------------------------------------------------------------- S1: selection
  // Product m reads the pair (x'[r], x'[r + K/2]), r = jX mod K/2, and swaps it when jX >= K/2:
  // g_select[m].xj_q is x'[jX] and g_select[m].xjk_q is x'[jX + K/2]. cfg_i loads r and the swap
  // (with the other per-query terms of product m, Plo and -Phi of P'X). The selection is one case
  // statement on r, a K/2:1 multiplexer of the face pairs (an indexed part-select x[r*W +: W] would
  // become a multiplier and a barrel shifter in Yosys, several times larger); its items are written
  // for the largest supported K/2 (13), those at r >= K/2 are never selected.
  localparam int PW = 2 * COEF_W;
  // The face pairs {x'[i + K/2], x'[i]} (0 for i >= K/2): wiring.
  logic [PW-1:0] face_pair [13];
  for (genvar i = 0; i < 13; i++) begin : g_face_pair
    if (i < HALF) begin : g_pair
      assign face_pair[i] = {coef_x_i[(i + HALF)*COEF_W +: COEF_W], coef_x_i[i*COEF_W +: COEF_W]};
    end else begin : g_none
      assign face_pair[i] = '0;
    end
  end
  for (genvar m = 0; m < 3; m++) begin : g_select
    logic [3:0]        r_q;    // jX mod K/2 (K/2 <= 13)
    logic              sw_q;   // jX >= K/2
    logic [LO_W-1:0]   plo_q;  // Plo of P'X[m]
    logic [HI_W-1:0]   mhi_q;  // -Phi of P'X[m]
    logic [J_W-1:0]    jx;
    logic [PW-1:0]     pair;
    logic [COEF_W-1:0] xj_q, xjk_q;
    assign jx = jx_i[m*J_W +: J_W];
    always_ff @(posedge clk_i) begin
      if (cfg_i) begin
        sw_q  <= 32'(jx) >= HALF;
        r_q   <= 4'(32'(jx) >= HALF ? 32'(jx) - HALF : 32'(jx));
        plo_q <= px_i[m*MAP_W +: LO_W];
        mhi_q <= HI_W'(0) - px_i[m*MAP_W + LO_W +: HI_W];
      end
    end
    always_comb begin
      pair = '0;
      if (en) begin
        unique case (r_q)
          4'd0:    pair = face_pair[0];
          4'd1:    pair = face_pair[1];
          4'd2:    pair = face_pair[2];
          4'd3:    pair = face_pair[3];
          4'd4:    pair = face_pair[4];
          4'd5:    pair = face_pair[5];
          4'd6:    pair = face_pair[6];
          4'd7:    pair = face_pair[7];
          4'd8:    pair = face_pair[8];
          4'd9:    pair = face_pair[9];
          4'd10:   pair = face_pair[10];
          4'd11:   pair = face_pair[11];
          // r_q < K/2: only K = 26 reaches the arm of 12, and no r_q the default. Both are left
          // out of the coverage figures, which are taken at K = 24.
          /* verilator coverage_off */
          4'd12:   pair = face_pair[12];
          default: pair = '0;
          /* verilator coverage_on */
        endcase
      end
    end
    always_ff @(posedge clk_i) begin
      if (en) begin
        xj_q  <= sw_q ? pair[COEF_W +: COEF_W] : pair[0 +: COEF_W];
        xjk_q <= sw_q ? pair[0 +: COEF_W] : pair[COEF_W +: COEF_W];
      end
    end
  end

  // The offsets of the two diffs (loaded with cfg_i): diff1 gets floor(p' 2^E), diff2 gets
  // -ceil((p'+1) 2^E) = floor(~p' 2^E).
  // The direction of the shift is a parameter: a generate choice, not a branch taken in every
  // clock (nor a coverage point that one configuration can never hit).
  logic [DIFF_W-1:0] off1_q, off2_q;
  if (E >= 0) begin : g_off_left
    always_ff @(posedge clk_i) begin
      if (cfg_i) begin
        off1_q <= DIFF_W'($signed(p_i)) << E;
        off2_q <= DIFF_W'($signed(~p_i)) << E;
      end
    end
  end else begin : g_off_right
    // Shift at p's own width, then narrow: p' has Z+4 bits, more than DIFF_W when Z > B+C+1, and
    // the shifted value fits DIFF_W (|p'| <= 2^(Z+2), so |p' 2^E| <= 2^(B+C+2)).
    always_ff @(posedge clk_i) begin
      if (cfg_i) begin
        off1_q <= DIFF_W'($signed(p_i) >>> (-E));
        off2_q <= DIFF_W'($signed(~p_i) >>> (-E));
      end
    end
  end

  // The own coefficients (constant wiring): diff d+1 uses y'[J] or y'[J + K/2].
  for (genvar d = 0; d < 2; d++) begin : g_own
    localparam bit Opposite = (d == 0) == (OWN_FIRST != 0);
    localparam int I0 = Opposite ? OK0 : OJ0;
    localparam int I1 = Opposite ? OK1 : OJ1;
    localparam int I2 = Opposite ? OK2 : OJ2;
    logic [COEF_W-1:0] y0_q;   // y'_J0 (or its opposite): the one with P' = -2^C
    logic [SN_W-1:0]   sny_q;  // sn() of the three own coefficients
    // Constant part-selects (a function with the index as an argument would leave Yosys a
    // shifter to fold).
    always_ff @(posedge clk_i) begin
      if (en) begin
        y0_q  <= coef_y_i[I0*COEF_W +: COEF_W];
        sny_q <= sn(coef_y_i[I0*COEF_W +: COEF_W]) + sn(coef_y_i[I1*COEF_W +: COEF_W]) +
                 sn(coef_y_i[I2*COEF_W +: COEF_W]);
      end
    end
  end

  // ---------------------------------------------------------------- S2 .. S6, per diff
  //   S2 products Plo x' (DSP, M register), v, sn(x') sums, the offset minus y'_J0 2^C
  //   S3 products (DSP, P register), sn(x') + sn(y')
  //   S4 t = Plo x' - v 2^LO (upper bits only), u = offset - y'_J0 2^C + sn sums
  //   S5, S6 two adder levels over (t1, t2, t3, u)
  // Sums wrap modulo 2^DIFF_W; the true totals fit (fixed_diffs checks b+c+5 bits), so the
  // wrap of any partial sum is harmless.
  for (genvar d = 0; d < 2; d++) begin : g_diff
    // diff1 takes x'[jX] when the own object is the first (B), diff2 then takes x'[jX + K/2];
    // the other way round when the own object is the second (A).
    localparam bit AtJ = (d == 0) == (OWN_FIRST != 0);
    for (genvar m = 0; m < 3; m++) begin : g_term
      logic signed [LO_W:0]      plo;   // Plo as a signed, non-negative DSP operand
      logic [HI_W-1:0]           mhi;   // -Phi, unsigned, <= 2^(HI_W-1)
      logic signed [COEF_W-1:0]  xv;
      logic signed [PROD_W-1:0]  prod_2, prod_3;
      logic [V_W-1:0]            v_2, v_3;
      logic [UP_W-1:0]           up;
      logic [DIFF_W-1:0]         t_4;
      assign plo = {1'b0, g_select[m].plo_q};
      assign mhi = g_select[m].mhi_q;
      if (AtJ) begin : g_at_j
        assign xv = g_select[m].xj_q;
      end else begin : g_at_jk
        assign xv = g_select[m].xjk_q;
      end
      // v = (-Phi) x'. The top bit of -Phi excludes the others: a multiplexer for HI_W <= 2, and
      // for wider Phi (C > 18, not a timing target) a shift-and-add of the low bits.
      if (HI_W <= 2) begin : g_v_mux
        always_ff @(posedge clk_i) begin
          if (en) v_2 <= mhi[HI_W-1] ? V_W'(xv) << (HI_W - 1) : (HI_W > 1 && mhi[0]) ? V_W'(xv) : '0;
        end
      end else begin : g_v_add
        logic [V_W-1:0] low;
        always_comb begin
          low = '0;
          for (int bb = 0; bb < HI_W - 1; bb++)
            if (mhi[bb]) low = low + (V_W'(xv) << bb);
        end
        always_ff @(posedge clk_i) begin
          if (en) v_2 <= mhi[HI_W-1] ? V_W'(xv) << (HI_W - 1) : low;
        end
      end
      // t: the low LO_W bits are the product's; above them one UP_W-bit subtraction.
      assign up = UP_W'($signed(prod_3[PROD_W-1:LO_W])) - UP_W'($signed(v_3));
      always_ff @(posedge clk_i) begin
        if (en) begin
          prod_2 <= plo * xv;  // DSP M register
          prod_3 <= prod_2;    // DSP P register
          v_3    <= v_2;
          t_4    <= {up, prod_3[LO_W-1:0]};
        end
      end
    end

    logic [SN_W-1:0]   snx_2, sny_2, sn_3;
    logic [DIFF_W-1:0] own_2, own_3, u_4, s_a_5, s_b_5, sum_6;
    always_ff @(posedge clk_i) begin
      if (en) begin
        snx_2 <= sn(g_term[0].xv) + sn(g_term[1].xv) + sn(g_term[2].xv);
        sny_2 <= g_own[d].sny_q;
        // The offset minus the own product y'_J0 2^C.
        own_2 <= (d == 0 ? off1_q : off2_q) - (ext(g_own[d].y0_q) << C);
        own_3 <= own_2;
        sn_3  <= snx_2 + sny_2;
        u_4   <= own_3 + DIFF_W'($signed(sn_3));
        s_a_5 <= g_term[0].t_4 + g_term[1].t_4;
        s_b_5 <= g_term[2].t_4 + u_4;
        sum_6 <= s_a_5 + s_b_5;
      end
    end
  end

  // ---------------------------------------------------------------- S7: sign test
  logic signed [DIFF_W-1:0] diff1_q, diff2_q;
  logic                     verdict_q;
  always_ff @(posedge clk_i) begin
    if (en) begin
      diff1_q   <= g_diff[0].sum_6;
      diff2_q   <= g_diff[1].sum_6;
      verdict_q <= $signed(g_diff[0].sum_6) > 0 || $signed(g_diff[1].sum_6) > 0;
    end
  end
  assign diff1_o   = diff1_q;
  assign diff2_o   = diff2_q;
  assign verdict_o = verdict_q;

endmodule
