// Signed multiplier split into partial products that fit one MUL_W x MUL_W signed hardware
// multiplier (Virtex-II MULT18X18, 7-series DSP48E1 uses 25x18 of it), paper §6.1.
//
// An operand of W bits is cut into N = ceil((W-1)/(MUL_W-1)) limbs: the low N-1 limbs hold
// L = MUL_W-1 bits each, zero-extended (unsigned), the top limb holds the remaining bits
// sign-extended. x = sum_i limb_i 2^(i L), so
//   a * b = sum_{i<NA, j<NB} (limbA_i * limbB_j) 2^((i+j) L).
// Each partial product is registered (one pipeline stage, the DSP's M/P register); the caller
// shifts and adds them in its adder tree. With W <= MUL_W there is one limb: a plain product.
module kdopcd_sat_mul #(
  parameter int WA    = kdopcd_sat_pkg::DEFAULT_B + 2,  // width of a (signed)
  parameter int WB    = kdopcd_sat_pkg::DEFAULT_C + 1,  // width of b (signed)
  parameter int MUL_W = kdopcd_sat_pkg::DEFAULT_MUL_W,  // signed width of one multiplier
  // derived, not to be overridden
  parameter int L     = MUL_W - 1,
  parameter int NA    = (WA - 1 + L - 1) / L,
  parameter int NB    = (WB - 1 + L - 1) / L,
  parameter int PP_W  = 2 * MUL_W
) (
  input  logic                  clk_i,
  input  logic [WA-1:0]         a_i,
  input  logic [WB-1:0]         b_i,
  // partial product (i, j) at [(i*NB + j)*PP_W +: PP_W], signed, weight 2^((i+j) L)
  output logic [NA*NB*PP_W-1:0] pp_o
);

  logic [NA*MUL_W-1:0] limb_a;
  logic [NB*MUL_W-1:0] limb_b;

  for (genvar i = 0; i < NA; i++) begin : g_limb_a
    if (i < NA - 1) begin : g_low
      assign limb_a[i*MUL_W +: MUL_W] = {1'b0, a_i[i*L +: L]};
    end else begin : g_top
      assign limb_a[i*MUL_W +: MUL_W] = MUL_W'($signed(a_i[WA-1:i*L]));
    end
  end
  for (genvar j = 0; j < NB; j++) begin : g_limb_b
    if (j < NB - 1) begin : g_low
      assign limb_b[j*MUL_W +: MUL_W] = {1'b0, b_i[j*L +: L]};
    end else begin : g_top
      assign limb_b[j*MUL_W +: MUL_W] = MUL_W'($signed(b_i[WB-1:j*L]));
    end
  end

  for (genvar i = 0; i < NA; i++) begin : g_row
    for (genvar j = 0; j < NB; j++) begin : g_col
      logic signed [PP_W-1:0] pp_d, pp_q;
      assign pp_d = $signed(limb_a[i*MUL_W +: MUL_W]) * $signed(limb_b[j*MUL_W +: MUL_W]);
      always_ff @(posedge clk_i) begin
        pp_q <= pp_d;
      end
      assign pp_o[(i*NB + j)*PP_W +: PP_W] = pp_q;
    end
  end

endmodule
