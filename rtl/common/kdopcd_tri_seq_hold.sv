// Time-multiplexed triangle unit: a hold chain. A value readable in cycles [A, E] of a test
// (cycle 0 = its valid_i; the next test overwrites the source II clocks after it was loaded) that
// is needed in cycles [R0, R1] is copied through hop registers, each loaded while the previous
// one still holds the test (kdopcd_tri_seq_pkg::hold_hops / hold_load): none if [R0, R1] lies in
// [A, E], one at II = 8 in this unit, a shift register at II = 1. docs/rtl-triangle-unit.md §6.
module kdopcd_tri_seq_hold #(
  parameter int W   = 1,
  parameter int II  = 8,
  parameter int A   = 1,   // first cycle the source holds the test
  parameter int E   = 8,   // last cycle
  parameter int R0  = 9,   // first cycle q_o must hold it
  parameter int R1  = 9,   // last cycle
  parameter int LAT = 16   // width of vld_i - 1
) (
  input  logic         clk_i,
  input  logic [LAT:0] vld_i,   // vld_i[c]: a test is c clocks past its valid_i
  input  logic [W-1:0] d_i,
  output logic [W-1:0] q_o
);

  localparam int N = kdopcd_tri_seq_pkg::hold_hops(A, E, R0, R1, II);

  if (A > E || A > R0 || R1 - R0 >= II || R0 > LAT) begin : g_check
    $error("kdopcd_tri_seq_hold: no schedule for [%0d, %0d] -> [%0d, %0d] at II = %0d", A, E, R0, R1, II);
  end

  if (N == 0) begin : g_direct
    assign q_o = d_i;
    // no register: the clock and the load enables are not needed here (lowRISC unused idiom)
    logic unused_hold;
    assign unused_hold = ^{clk_i, vld_i};
  end else begin : g_hops
    logic [N*W-1:0] hop_q;
    for (genvar k = 0; k < N; k++) begin : g_hop
      localparam int L = kdopcd_tri_seq_pkg::hold_load(k, N, E, R0, II);
      if (k == 0) begin : g_first
        always_ff @(posedge clk_i) begin
          if (vld_i[L]) hop_q[0 +: W] <= d_i;
        end
      end else begin : g_next
        always_ff @(posedge clk_i) begin
          if (vld_i[L]) hop_q[k*W +: W] <= hop_q[(k-1)*W +: W];
        end
      end
    end
    assign q_o = hop_q[(N-1)*W +: W];
  end

endmodule
