// Stage 1 of the SAT pipeline (paper §5.1 "Selection"): picks the three coefficients of one DOP
// at the face triple j and the three at j + K/2 (the anti-parallel partner faces).
//
// The partner selection costs no logic: the second multiplexer sees the coefficient vector
// rotated by K/2 (wiring), so selecting entry j of it yields coefficient (j + K/2) mod K.
// An index j >= K selects 0 (AND-OR multiplexer); the controller never issues one.
// Purely combinational; the caller registers the outputs.
module kdopcd_sat_select #(
  parameter int K   = kdopcd_sat_pkg::DEFAULT_K,  // k of the k-DOP (even)
  parameter int W   = kdopcd_sat_pkg::DEFAULT_B + 2,  // bits per coefficient
  parameter int J_W = $clog2(K)                   // bits per face index
) (
  input  logic [K*W-1:0]   coef_i,  // coefficient i at [i*W +: W]
  input  logic [3*J_W-1:0] j_i,     // face triple, j_m at [m*J_W +: J_W]
  output logic [3*W-1:0]   near_o,  // coef[j_m]              at [m*W +: W]
  output logic [3*W-1:0]   far_o    // coef[(j_m + K/2) % K]  at [m*W +: W]
);

  localparam int HALF = K / 2;

  // The coefficient vector rotated by K/2: pure wiring.
  logic [K*W-1:0] coef_rot;
  for (genvar i = 0; i < K; i++) begin : g_rot
    assign coef_rot[i*W +: W] = coef_i[((i + HALF) % K)*W +: W];
  end

  for (genvar m = 0; m < 3; m++) begin : g_mux
    logic [J_W-1:0] j_sel;
    logic [W-1:0]   near_sel, far_sel;
    assign j_sel = j_i[m*J_W +: J_W];
    always_comb begin
      near_sel = '0;
      far_sel  = '0;
      for (int i = 0; i < K; i++) begin
        if (j_sel == J_W'(i)) begin
          near_sel = near_sel | coef_i[i*W +: W];
          far_sel  = far_sel | coef_rot[i*W +: W];
        end
      end
    end
    assign near_o[m*W +: W] = near_sel;
    assign far_o[m*W +: W]  = far_sel;
  end

endmodule
