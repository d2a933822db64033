// Time-multiplexed triangle unit: one minor unit, m = a b - c d (one cross-product component,
// 2x2 minor of two coordinate differences), one minor per clock. docs/rtl-triangle-unit.md §6.
//
//   clock 1: operands registered from the slot that the one-hot slot_i names. A slot's four
//            operands are coordinate differences of diff_i at indices fixed by the parameter
//            OPS (constant wiring), so the slot multiplexer sits in front of the enabled
//            registers and nothing is built outside them: a cycle-based simulator evaluates
//            the selection only in the clocks the registers load (a per-slot operand vector
//            wired in the caller was rebuilt every clock, several thousand host instructions)
//   clock 2: products. Each b (d) is split into its low DW-2 bits (unsigned) and its top 2 bits
//            (signed): a b = a b_lo + 2^(DW-2) a b_hi. a b_lo is a DW x (DW-1) signed product, at
//            DW = 53 exactly 9 DSP48 (25 x 18; a DW x DW product would take 12); a b_hi is a
//            multiplexer {-2a, -a, 0, a}.
//   clock 3: e_ab = a b, e_cd = c d (one add each)
//   output:  m_o = e_ab - e_cd and its sign, combinational from the clock-3 registers: the
//            caller loads them into the minor file in clock 4 (three parallel carry chains:
//            the difference and the two compares).
// Register stage s loads when en_i[s-1] is set; no reset.
module kdopcd_tri_seq_minor
#(
  parameter int DW = 53,           // difference
  parameter int NS = 1,            // operand slots (minors this unit computes per test)
  parameter int ND = 4,            // coordinate differences in diff_i
  // Slot s's operands {d, c, b, a}: indices into diff_i, 8 bits each, a at [4*s*8 +: 8], b at
  // [(4*s+1)*8 +: 8], .. (the default: a slot's four operands in order, one slot)
  parameter logic [NS*4*8-1:0] OPS  = 32'h03020100,
  parameter logic [NS-1:0]     IDLE = '0,   // slots without a minor: their operands load as 0
  // derived, not to be overridden
  parameter int LO = DW - 2,       // low part of b, d
  parameter int NW = 2 * DW - 1    // minor: |a b - c d| <= 2 D^2 with |a|, .. <= D = 2^(DW-2)
) (
  input  logic          clk_i,
  input  logic [2:0]    en_i,
  input  logic [ND*DW-1:0] diff_i,    // difference i at [i*DW +: DW]
  input  logic [NS-1:0] slot_i,       // one-hot while en_i[0]: the slot whose operands load
  output logic [NW-1:0] m_o,
  output kdopcd_tri_seq_pkg::sign_t         sign_o
);

  // ---- clock 1: operands
  logic signed [DW-1:0] a_q, c_q;
  logic [DW-1:0]        b_q, d_q;
  always_ff @(posedge clk_i) begin
    if (en_i[0]) begin
      for (int k = 0; k < NS; k++) begin
        if (slot_i[k]) begin
          {d_q, c_q, b_q, a_q} <= IDLE[k] ? '0 : {diff_i[32'(OPS[(4*k+3)*8 +: 8])*DW +: DW],
                                                 diff_i[32'(OPS[(4*k+2)*8 +: 8])*DW +: DW],
                                                 diff_i[32'(OPS[(4*k+1)*8 +: 8])*DW +: DW],
                                                 diff_i[32'(OPS[(4*k+0)*8 +: 8])*DW +: DW]};
        end
      end
    end
  end

  logic signed [2*DW-2:0] pab_q, pcd_q;   // a b_lo, c d_lo: DW + LO bits (+1)
  logic signed [DW+1:0]   hab_q, hcd_q;   // a b_hi, c d_hi
  // the sliver products a b_hi, b_hi in {-2, -1, 0, 1}: multiplexers (no DSP)
  logic signed [DW+1:0] ax, cx;
  assign ax = {{2{a_q[DW-1]}}, a_q};
  assign cx = {{2{c_q[DW-1]}}, c_q};
  always_ff @(posedge clk_i) begin
    if (en_i[1]) begin
      pab_q <= (2*DW-1)'(a_q * $signed({1'b0, b_q[LO-1:0]}));
      pcd_q <= (2*DW-1)'(c_q * $signed({1'b0, d_q[LO-1:0]}));
      case (b_q[DW-1 -: 2])
        2'b01:   hab_q <= ax;
        2'b10:   hab_q <= -(ax <<< 1);
        2'b11:   hab_q <= -ax;
        default: hab_q <= '0;
      endcase
      case (d_q[DW-1 -: 2])
        2'b01:   hcd_q <= cx;
        2'b10:   hcd_q <= -(cx <<< 1);
        2'b11:   hcd_q <= -cx;
        default: hcd_q <= '0;
      endcase
    end
  end

  // ---- clock 3: the two products
  logic signed [NW-1:0] eab_q, ecd_q;
  always_ff @(posedge clk_i) begin
    if (en_i[2]) begin
      eab_q <= NW'(pab_q) + (NW'(hab_q) <<< LO);
      ecd_q <= NW'(pcd_q) + (NW'(hcd_q) <<< LO);
    end
  end

  // ---- output (registered by the caller)
  assign m_o        = eab_q - ecd_q;
  assign sign_o.neg = eab_q < ecd_q;
  assign sign_o.pos = eab_q > ecd_q;

endmodule
