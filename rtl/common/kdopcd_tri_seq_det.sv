// Time-multiplexed triangle unit: one determinant unit, the sign of D = u . c (u a coordinate
// difference, c a cross product: an orient3d determinant), one determinant per clock.
// docs/rtl-triangle-unit.md §6.
//
//   clock 1: operands registered from the slot that the one-hot slot_i names: a difference
//            triple of uvec_i and a minor triple of mfile_i at indices fixed by the parameters
//            UIX, CIX (the slot multiplexer in front of the enabled registers, as in
//            kdopcd_tri_seq_minor)
//   clock 2: product parts. Each minor c_k (NW bits) is split into two unsigned LO-bit parts and
//            a signed 3-bit top: u c = u c_0 + 2^LO u c_1 + 2^(2 LO) u c_hi. u c_0 and u c_1 are
//            DW x (LO+1) signed products, at DW = 53, LO = 51 9 DSP48 each (18 per product
//            instead of 24 for a 53 x 105 product); u c_hi is two adds in LUTs.
//   clock 3: the three products e_k
//   clock 4: f = e_0 + e_1 and g = -e_2
//   output:  sign of D = f - g, combinational from the clock-4 registers (two parallel
//            compares); the caller loads it in clock 5.
// Register stage s loads when en_i[s-1] is set; no reset.
module kdopcd_tri_seq_det
#(
  parameter int DW  = 53,             // difference
  parameter int NS  = 1,              // operand slots (determinants this unit computes per test)
  parameter int NU  = 1,              // difference triples in uvec_i
  parameter int NC  = 1,              // minor triples in mfile_i
  // Slot s reads difference triple UIX[s*8 +: 8] and minor triple CIX[s*8 +: 8]
  parameter logic [NS*8-1:0] UIX  = '0,
  parameter logic [NS*8-1:0] CIX  = '0,
  parameter logic [NS-1:0]   IDLE = '0,   // slots without a determinant: operands load as 0
  parameter int NW  = 2 * DW - 1,     // minor
  // derived, not to be overridden
  parameter int LO  = (NW - 3) / 2,   // low parts of a minor (NW is odd: the top part has 3 bits)
  parameter int PW  = DW + NW - 1,    // one product u_k c_k: |.| <= D 2 D^2 = 2^(3 DW - 5)
  parameter int DTW = DW + NW         // determinant: |D| <= 6 D^3 < 2^(3 DW - 3)
) (
  input  logic            clk_i,
  input  logic [3:0]      en_i,
  input  logic [NU*3*DW-1:0] uvec_i,  // triple t: u_k at [(3t+k)*DW +: DW]
  input  logic [NC*3*NW-1:0] mfile_i, // triple t: c_k at [(3t+k)*NW +: NW]
  input  logic [NS-1:0]   slot_i,     // one-hot while en_i[0]: the slot whose operands load
  output kdopcd_tri_seq_pkg::sign_t           sign_o
);

  // ---- clock 1: operands
  logic [3*DW-1:0] u_q;
  logic [3*NW-1:0] c_q;
  always_ff @(posedge clk_i) begin
    if (en_i[0]) begin
      for (int k = 0; k < NS; k++) begin
        if (slot_i[k]) begin
          {c_q, u_q} <= IDLE[k] ? '0 : {mfile_i[32'(CIX[k*8 +: 8])*3*NW +: 3*NW],
                                       uvec_i[32'(UIX[k*8 +: 8])*3*DW +: 3*DW]};
        end
      end
    end
  end

  // Per component k, each value is its own register (not a slice of a vector of the three): the
  // same flip-flops, and a cycle-based simulator writes them without inserting into wide words.
  for (genvar k = 0; k < 3; k++) begin : g_prod
    logic signed [DW-1:0]    u;
    logic signed [DW+2:0]    ux;
    logic [2:0]              h;
    logic [DW+LO-1:0]        p0_q, p1_q;  // u c_0, u c_1 (DW + LO bits signed)
    logic [DW+2:0]           ph_q;        // u c_hi, c_hi in [-4, 3]
    logic [PW-1:0]           e_q;         // clock 3: the product u_k c_k
    assign u  = u_q[k*DW +: DW];
    assign ux = (DW+3)'(u);
    assign h  = c_q[k*NW+2*LO +: 3];
    always_ff @(posedge clk_i) begin
      if (en_i[1]) begin
        p0_q <= (DW+LO)'(u * $signed({1'b0, c_q[k*NW +: LO]}));
        p1_q <= (DW+LO)'(u * $signed({1'b0, c_q[k*NW+LO +: LO]}));
        // 3-bit signed multiplier as shifts and adds (no DSP)
        ph_q <= (h[0] ? ux : '0) + (h[1] ? (ux <<< 1) : '0) - (h[2] ? (ux <<< 2) : '0);
      end
    end
    // ---- clock 3: products
    always_ff @(posedge clk_i) begin
      if (en_i[2]) begin
        e_q <= PW'($signed(p0_q)) + ((PW'($signed(p1_q)) + (PW'($signed(ph_q)) <<< LO)) <<< LO);
      end
    end
  end

  // ---- clock 4: f = e_0 + e_1, g = -e_2
  logic signed [DTW-1:0] f_q, g_q;
  always_ff @(posedge clk_i) begin
    if (en_i[3]) begin
      f_q <= DTW'($signed(g_prod[0].e_q)) + DTW'($signed(g_prod[1].e_q));
      g_q <= -(DTW'($signed(g_prod[2].e_q)));
    end
  end

  // ---- output: sign of f - g (registered by the caller)
  assign sign_o.neg = f_q < g_q;
  assign sign_o.pos = f_q > g_q;

endmodule
