// Time-multiplexed triangle unit: input registers, lifting of the first triangle (q << M),
// placement of the second (M' q + T') and the 45 coordinate differences, all in parallel (the
// placement is small next to the minors; done at once, it costs no latency).
// docs/rtl-triangle-unit.md §6.
//
//   cycle 0: q (both triangles), M', T' registered (the inputs are valid only in this cycle)
//   cycle 1: the 27 products M'_ij qb_cj, each as one (M+1) x (V+1) DSP product of the low parts
//            and two 2-bit "sliver" products in LUTs (so that at V = M = 24 it takes 2 DSP48
//            instead of 4): a b = a_lo b_lo + 2^M a_hi b_lo + 2^V a b_hi
//   cycle 2: the 27 products summed from their parts
//   cycle 3: coordinates X: points 0-2 = qa << M, points 3-5 = M' qb + T'
//   cycle 4: differences P_j - P_i (i < j), pair p, axis d at diff_o[(3p+d)*DW +: DW]
// Register s loads when en_i[s] is set (the test is s clocks past valid_i); no reset. The next
// test loads the same registers II clocks later, so the differences are readable for II clocks.
module kdopcd_tri_seq_place #(
  parameter int V  = 24,
  parameter int M  = 24,
  // derived, not to be overridden
  parameter int VW = V + 2,        // stored vertex
  parameter int MW = M + 2,        // rotation entry
  parameter int TW = V + M + 4,    // translation
  parameter int PW = V + M + 2,    // one product M'_ij q_j, |.| <= 2^(V+M)
  parameter int CW = V + M + 4,    // coordinate
  parameter int DW = V + M + 5     // difference
) (
  input  logic             clk_i,
  input  logic [4:0]       en_i,
  input  logic [9*VW-1:0]  tri_a_i,
  input  logic [9*VW-1:0]  tri_b_i,
  input  logic [9*MW-1:0]  rot_i,
  input  logic [3*TW-1:0]  trans_i,
  output logic [45*DW-1:0] diff_o
);

  // ---- cycle 0: input registers
  logic [9*VW-1:0] qa_q, qb_q;
  logic [9*MW-1:0] rot_q;
  logic [3*TW-1:0] trans_q;
  always_ff @(posedge clk_i) begin
    if (en_i[0]) begin
      qa_q    <= tri_a_i;
      qb_q    <= tri_b_i;
      rot_q   <= rot_i;
      trans_q <= trans_i;
    end
  end

  // ---- cycle 1: product parts. Product n = (3c+i)*3+j is M'_ij qb_cj.
  logic [27*(V+M+2)-1:0] lo_q;    // a_lo b_lo, both unsigned: 0 <= . < 2^(V+M)
  logic [27*(V+3)-1:0]   ha_q;    // a_hi b_lo: 2-bit signed x V-bit unsigned
  logic [27*(M+4)-1:0]   hb_q;    // a b_hi:    (M+2)-bit signed x 2-bit signed
  for (genvar c = 0; c < 3; c++) begin : g_prod_c
    for (genvar i = 0; i < 3; i++) begin : g_prod_i
      for (genvar j = 0; j < 3; j++) begin : g_prod_j
        localparam int N = (3*c+i)*3+j;
        localparam int R = (3*i+j)*MW;  // M'_ij
        localparam int Q = (3*c+j)*VW;  // qb_cj
        logic signed [M+3:0] a;
        logic signed [V+2:0] blo;
        logic [1:0]          ahi, bhi;
        assign a   = (M+4)'($signed(rot_q[R +: MW]));
        assign blo = $signed({3'b000, qb_q[Q +: V]});
        assign ahi = rot_q[R+M +: 2];
        assign bhi = qb_q[Q+V +: 2];
        always_ff @(posedge clk_i) begin
          if (en_i[1]) begin
            lo_q[N*(V+M+2) +: V+M+2] <= (V+M+2)'($signed({1'b0, rot_q[R +: M]}) * $signed({1'b0, qb_q[Q +: V]}));
            // 2-bit signed multipliers {-2, -1, 0, 1} as multiplexers (no DSP)
            case (ahi)
              2'b01:   ha_q[N*(V+3) +: V+3] <= blo;
              2'b10:   ha_q[N*(V+3) +: V+3] <= -(blo <<< 1);
              2'b11:   ha_q[N*(V+3) +: V+3] <= -blo;
              default: ha_q[N*(V+3) +: V+3] <= '0;
            endcase
            case (bhi)
              2'b01:   hb_q[N*(M+4) +: M+4] <= a;
              2'b10:   hb_q[N*(M+4) +: M+4] <= -(a <<< 1);
              2'b11:   hb_q[N*(M+4) +: M+4] <= -a;
              default: hb_q[N*(M+4) +: M+4] <= '0;
            endcase
          end
        end
      end
    end
  end
  logic [9*VW-1:0] qa1_q;
  logic [3*TW-1:0] trans1_q;
  always_ff @(posedge clk_i) begin
    if (en_i[1]) begin
      qa1_q    <= qa_q;
      trans1_q <= trans_q;
    end
  end

  // ---- cycle 2: products
  logic [27*PW-1:0] prod_q;
  for (genvar n = 0; n < 27; n++) begin : g_sum
    always_ff @(posedge clk_i) begin
      if (en_i[2]) begin
        prod_q[n*PW +: PW] <= PW'($signed(lo_q[n*(V+M+2) +: V+M+2])) +
                              (PW'($signed(ha_q[n*(V+3) +: V+3])) <<< M) +
                              (PW'($signed(hb_q[n*(M+4) +: M+4])) <<< V);
      end
    end
  end
  logic [9*VW-1:0] qa2_q;
  logic [3*TW-1:0] trans2_q;
  always_ff @(posedge clk_i) begin
    if (en_i[2]) begin
      qa2_q    <= qa1_q;
      trans2_q <= trans1_q;
    end
  end

  // ---- cycle 3: coordinates (first triangle q << M, second M' q + T', both CW bits)
  logic [18*CW-1:0] x_q;
  for (genvar c = 0; c < 3; c++) begin : g_coord_c
    for (genvar i = 0; i < 3; i++) begin : g_coord_i
      localparam int A  = (3*c+i)*VW;
      localparam int P0 = (3*c+i)*3*PW;
      always_ff @(posedge clk_i) begin
        if (en_i[3]) begin
          x_q[(3*c+i)*CW +: CW]     <= {{(CW-VW-M){qa2_q[A+VW-1]}}, qa2_q[A +: VW], {M{1'b0}}};
          x_q[(3*(c+3)+i)*CW +: CW] <= (CW'($signed(prod_q[P0 +: PW])) + CW'($signed(prod_q[P0+PW +: PW]))) +
                                       (CW'($signed(prod_q[P0+2*PW +: PW])) + trans2_q[i*TW +: TW]);
        end
      end
    end
  end

  // ---- cycle 4: differences
  logic [45*DW-1:0] diff_q;
  for (genvar i = 0; i < 6; i++) begin : g_diff_i
    for (genvar j = i + 1; j < 6; j++) begin : g_diff_j
      for (genvar d = 0; d < 3; d++) begin : g_diff_d
        localparam int XJ = (3*j+d)*CW;
        localparam int XI = (3*i+d)*CW;
        always_ff @(posedge clk_i) begin
          if (en_i[4]) begin
            diff_q[(3*kdopcd_tri_seq_pkg::pix(i, j)+d)*DW +: DW] <= DW'($signed(x_q[XJ +: CW])) - DW'($signed(x_q[XI +: CW]));
          end
        end
      end
    end
  end
  assign diff_o = diff_q;

endmodule
