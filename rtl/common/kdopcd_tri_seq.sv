// Time-multiplexed triangle unit: the fixed-point triangle-triangle test of ref/src/tri_fixed.cpp,
// bit-exact like kdopcd_tri_unit, but with one test started at most every II clocks and the
// datapath shared over those II clocks. docs/rtl-triangle-unit.md §6 (schedule, resources).
//
// The exact signs the Guigue-Devillers decision reads are those of kdopcd_tri_orient: 45
// coordinate differences, the 60 minors (cross-product components of the 20 point triples) and
// the 15 orient3d determinants. Here
//   kdopcd_tri_seq_place   (parallel)      inputs, placement M' q + T', differences (cycles 0-4)
//   kdopcd_tri_seq_minor   x ceil(60 / II) one minor per unit and clock, 60 minors in II clocks
//   kdopcd_tri_seq_det     x ceil(15 / II) one determinant per unit and clock
//   kdopcd_tri_decide      (parallel)      the decision on the signs (kdopcd_tri_unit's)
// The minors of the ten triples the determinants read come first (kdopcd_tri_seq_pkg), so the
// determinant units start before the last minors are out. Every stage register loads when the
// test reaches it (clock enables from the valid shift register) and holds it for the II clocks
// until the next test; values needed beyond that pass through hold registers
// (kdopcd_tri_seq_hold). No stall: valid_i in cycle t -> valid_o, hit_o, id_o in cycle t + LAT.
// The caller starts at most one test every II clocks (checked in simulation).
module kdopcd_tri_seq #(
  parameter int V    = 24,  // vertex bits v
  parameter int M    = 24,  // rotation bits m
  parameter int II   = 8,   // initiation interval: clocks between two valid_i, >= 1
  parameter int LAT  = 23,  // latency: valid_i in cycle t -> valid_o in cycle t + LAT (>= LAT_MIN)
  parameter int ID_W = 64
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 valid_i,          // at most once every II clocks; no stall
  input  logic [9*(V+2)-1:0]   tri_a_i,          // first object's stored vertices q (corner c, coordinate d at [(3c+d)*(V+2) +: V+2], signed); valid with valid_i only
  input  logic [9*(V+2)-1:0]   tri_b_i,          // second object's stored vertices, same layout; valid with valid_i only
  input  logic [9*(M+2)-1:0]   rot_i,            // M'(i,j) at [(3i+j)*(M+2) +: M+2], signed
  input  logic [3*(V+M+4)-1:0] trans_i,          // T'(i) at [i*(V+M+4) +: V+M+4], signed
  input  logic [ID_W-1:0]      id_i,             // passed through unchanged; valid with valid_i only
  output logic                 valid_o,
  output logic                 hit_o,            // 1: the closed triangles intersect (0 when !valid_o)
  output logic [ID_W-1:0]      id_o
);

  localparam int NMINOR = kdopcd_tri_seq_pkg::NMINOR;
  localparam int NDET   = kdopcd_tri_seq_pkg::NDET;
  localparam int MS     = kdopcd_tri_seq_pkg::MS;
  localparam int LM     = kdopcd_tri_seq_pkg::LM;
  localparam int LD     = kdopcd_tri_seq_pkg::LD;

  localparam int W  = V + M;
  localparam int DW = W + 5;          // coordinate difference
  localparam int NW = 2 * DW - 1;     // minor (2W + 9)

  // ---- schedule (kdopcd_tri_seq_pkg; cycle 0 = valid_i)
  localparam int UM = kdopcd_tri_seq_pkg::units(NMINOR, II);   // minor units
  localparam int SM = kdopcd_tri_seq_pkg::slots(NMINOR, II);   // clocks they take per test
  localparam int UD = kdopcd_tri_seq_pkg::units(NDET, II);     // determinant units
  localparam int SD = kdopcd_tri_seq_pkg::slots(NDET, II);
  localparam int DS = kdopcd_tri_seq_pkg::det_start(II);       // first determinant issue
  localparam int D0 = kdopcd_tri_seq_pkg::decide_at(II);       // decision stage 9 loads
  localparam int LAT_MIN = kdopcd_tri_seq_pkg::lat_min(II);
  // readable windows [first, last] of the values that need hold registers
  localparam int MSIGN_A = MS + SM + LM;   // all minors in the file (loaded at MS + slot + LM)
  localparam int MSIGN_E = MS + LM + II;
  localparam int AXIS_LD = MSIGN_A;        // normal comparisons load; projection axes one later

  if (II < 1) begin : g_ii_check
    $error("kdopcd_tri_seq: II = %0d, need II >= 1", II);
  end
  if (LAT < LAT_MIN) begin : g_lat_check
    $error("kdopcd_tri_seq: LAT = %0d is below the minimum latency %0d at II = %0d", LAT, LAT_MIN, II);
  end
  if (!kdopcd_tri_seq_pkg::det_reads_ok(II)) begin : g_sched_check
    $error("kdopcd_tri_seq: II = %0d: a determinant would read a minor after the next test overwrote it", II);
  end
  if (V < 1 || M < 1 || V + M > 56) begin : g_param_check
    $error("kdopcd_tri_seq: need V >= 1, M >= 1, V + M <= 56");
  end

  // ---- valid shift register: vld[c] = a test is c clocks past its valid_i
  logic [LAT-1:0] valid_q;
  logic [LAT:0]   vld;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= {valid_q[LAT-2:0], valid_i};
    end
  end
  assign vld = {valid_q, valid_i};

`ifndef SYNTHESIS
  // The caller's contract: no second valid_i within II clocks (the shared units and every
  // stage register would be overwritten while the first test still needs them).
  if (II > 1) begin : g_ii_assert
    a_ii: assert property (@(posedge clk_i) disable iff (!rst_ni)
        valid_i |-> !(|valid_q[II-2:0]))
      else $error("kdopcd_tri_seq: valid_i again within II = %0d clocks", II);
  end
`endif

  // ---- placement and differences (cycles 0-4; differences readable in MS .. MS + II - 1)
  logic [45*DW-1:0] diff;
  kdopcd_tri_seq_place #(.V(V), .M(M)) u_place (
    .clk_i,
    .en_i    (vld[4:0]),
    .tri_a_i,
    .tri_b_i,
    .rot_i,
    .trans_i,
    .diff_o  (diff)
  );

  // difference signs (loaded at MS), held to the decision
  logic [89:0] dsign_q, dsign_h;
  for (genvar n = 0; n < 45; n++) begin : g_dsign
    always_ff @(posedge clk_i) begin
      if (vld[MS]) begin
        dsign_q[2*n +: 2] <= {diff[n*DW+DW-1], ~diff[n*DW+DW-1] & (|diff[n*DW +: DW])};
      end
    end
  end
  kdopcd_tri_seq_hold #(.W(90), .II(II), .A(MS + 1), .E(MS + II), .R0(D0), .R1(D0), .LAT(LAT)) u_dsign_hold (
    .clk_i, .vld_i(vld), .d_i(dsign_q), .q_o(dsign_h));

  // ---- minors: unit u computes minor n = s*UM + u in slot s (issued in cycle MS + s)
  logic [2:0] men;
  assign men = {|vld[MS+2 +: SM], |vld[MS+1 +: SM], |vld[MS +: SM]};

  // Unit u's slot s computes minor n = s*UM + u, component k = n % 3 of triple tri_ord(n / 3):
  // u[k+1] v[k+2] - u[k+2] v[k+1] with u = P_j - P_i, v = P_l - P_i. The operands' indices into
  // the differences (kdopcd_tri_seq_minor's OPS; 8 bits each) and the slots without a minor.
  // The functions up to coverage_on below are evaluated at elaboration only (they compute
  // parameters of the units): no line of them runs in simulation, so they are no coverage points.
  /* verilator coverage_off */
  function automatic logic [SM*4*8-1:0] minor_ops(input int u);
    logic [11:0] t;
    int n, pu, pv, k1, k2;
    minor_ops = '0;
    for (int s = 0; s < SM; s++) begin
      n = s * UM + u;
      if (n < NMINOR) begin
        t  = kdopcd_tri_seq_pkg::tri_ord(n / 3);
        pu = kdopcd_tri_seq_pkg::pix(32'(t[11:8]), 32'(t[7:4]));
        pv = kdopcd_tri_seq_pkg::pix(32'(t[11:8]), 32'(t[3:0]));
        k1 = (n % 3 + 1) % 3;
        k2 = (n % 3 + 2) % 3;
        minor_ops = minor_ops | ((SM*4*8)'(8'(3 * pu + k1)) << (32 * s))
                              | ((SM*4*8)'(8'(3 * pv + k2)) << (32 * s + 8))
                              | ((SM*4*8)'(8'(3 * pu + k2)) << (32 * s + 16))
                              | ((SM*4*8)'(8'(3 * pv + k1)) << (32 * s + 24));
      end
    end
  endfunction
  // The slots of unit `unit_idx` (of a pool of `units`, `slots` slots each: item n = slot * units
  // + unit_idx) that hold no item; at most 64 slots (60 minors).
  function automatic logic [63:0] idle_slots(input int unit_idx, input int units, input int slots,
                                             input int items);
    idle_slots = '0;
    for (int s = 0; s < slots; s++) begin
      if (s * units + unit_idx >= items) idle_slots = idle_slots | (64'(1) << s);
    end
  endfunction
  /* verilator coverage_on */

  logic [UM*NW-1:0] m_all;
  logic [2*UM-1:0]  ms_all;
  for (genvar u = 0; u < UM; u++) begin : g_minor
    // The slot's operands load through a multiplexer on the slot's valid bit (one-hot) inside
    // the minor unit, in front of its enabled operand registers. (A variable part select with a
    // non-power-of-two stride would synthesize as a barrel shifter.)
    kdopcd_tri_seq_pkg::sign_t sgn;
    kdopcd_tri_seq_minor #(.DW(DW), .NS(SM), .ND(45), .OPS(minor_ops(u)),
                           .IDLE(SM'(idle_slots(u, UM, SM, NMINOR)))) u_minor (
      .clk_i,
      .en_i   (men),
      .diff_i (diff),
      .slot_i (vld[MS +: SM]),
      .m_o    (m_all[u*NW +: NW]),
      .sign_o (sgn)
    );
    assign ms_all[2*u +: 2] = sgn;
  end

  // Minor file: entry n loads in cycle MS + slot + LM. Full width only for the determinants'
  // ten triples and the two normals (ranks 0-11, n < 36); the decision reads only the signs.
  localparam int NFULL = 36;
  logic [NFULL*NW-1:0] mfile_q;
  logic [119:0]        tsign_q, tsign_h;   // in kdopcd_tri_orient's order: triple tix, axis k
  for (genvar n = 0; n < NMINOR; n++) begin : g_mfile
    localparam int U = n % UM;
    localparam int S = n / UM;
    localparam logic [11:0] T = kdopcd_tri_seq_pkg::tri_ord(n / 3);
    localparam int TI = kdopcd_tri_seq_pkg::tix(32'(T[11:8]), 32'(T[7:4]), 32'(T[3:0]));
    always_ff @(posedge clk_i) begin
      if (vld[MS + S + LM]) begin
        tsign_q[2*(3*TI + n % 3) +: 2] <= ms_all[2*U +: 2];
      end
    end
    if (n < NFULL) begin : g_full
      always_ff @(posedge clk_i) begin
        if (vld[MS + S + LM]) begin
          mfile_q[n*NW +: NW] <= m_all[U*NW +: NW];
        end
      end
    end
  end
  kdopcd_tri_seq_hold #(.W(120), .II(II), .A(MSIGN_A), .E(MSIGN_E), .R0(D0), .R1(D0), .LAT(LAT)) u_tsign_hold (
    .clk_i, .vld_i(vld), .d_i(tsign_q), .q_o(tsign_h));

  // ---- projection axes: the largest |n_k| of each triangle's normal (minors of ranks 10, 11),
  // ties to the lower k, invalid for n = 0 (the reference's projection_axis)
  logic [3:0] ncmp_q [2];
  logic [2:0] axis_d [2];
  logic [5:0] axis_q, axis_h;
  for (genvar t = 0; t < 2; t++) begin : g_axis
    logic [NW-1:0] mag [3];
    for (genvar k = 0; k < 3; k++) begin : g_mag
      localparam int E = (30 + 3*t + k) * NW;
      assign mag[k] = mfile_q[E+NW-1] ? (~mfile_q[E +: NW] + 1'b1) : mfile_q[E +: NW];
    end
    // n0 != 0 from the minor itself, not from its magnitude: the negation's carry chain would
    // sit in front of the wide OR (the top's slowest path when it did).
    always_ff @(posedge clk_i) begin
      if (vld[AXIS_LD]) begin
        ncmp_q[t] <= {mag[2] > mag[1], mag[2] > mag[0], mag[1] > mag[0], |mfile_q[30 * NW + 3 * t * NW +: NW]};
      end
    end
    always_comb begin
      if (ncmp_q[t][2] && ncmp_q[t][3]) axis_d[t] = 3'b110;   // |n2| > |n0|, |n1|
      else if (ncmp_q[t][1])            axis_d[t] = 3'b101;   // |n1| > |n0|, |n1| >= |n2|
      else if (ncmp_q[t][0])            axis_d[t] = 3'b100;   // n0 != 0, largest
      else                              axis_d[t] = 3'b000;   // degenerate triangle
    end
  end
  always_ff @(posedge clk_i) begin
    if (vld[AXIS_LD + 1]) begin
      axis_q <= {axis_d[1], axis_d[0]};
    end
  end
  kdopcd_tri_seq_hold #(.W(6), .II(II), .A(AXIS_LD + 2), .E(AXIS_LD + 1 + II), .R0(D0), .R1(D0), .LAT(LAT)) u_axis_hold (
    .clk_i, .vld_i(vld), .d_i(axis_q), .q_o(axis_h));

  // ---- determinants: unit v computes determinant n = s*UD + v in slot s (issued in DS + s)
  // first vectors P_j - P_i (i < j <= 3) of the determinants, held from the differences
  logic [18*DW-1:0] uvec, uvec_h;
  for (genvar j = 1; j <= 3; j++) begin : g_uvec_j
    for (genvar i = 0; i < j; i++) begin : g_uvec_i
      assign uvec[3*kdopcd_tri_seq_pkg::dix(i, j)*DW +: 3*DW] = diff[3*kdopcd_tri_seq_pkg::pix(i, j)*DW +: 3*DW];
    end
  end
  kdopcd_tri_seq_hold #(.W(18*DW), .II(II), .A(MS), .E(MS + II - 1), .R0(DS), .R1(DS + SD - 1), .LAT(LAT))
    u_uvec_hold (.clk_i, .vld_i(vld), .d_i(uvec), .q_o(uvec_h));

  logic [3:0] den;
  assign den = {|vld[DS+3 +: SD], |vld[DS+2 +: SD], |vld[DS+1 +: SD], |vld[DS +: SD]};

  // Unit v's slot s computes determinant n = s*UD + v: u = difference triple dix(i, j) of
  // det_ord(n), c = the minor triple of rank det_rank(n) (kdopcd_tri_seq_det's UIX, CIX).
  /* verilator coverage_off */  // elaboration-time functions, as minor_ops
  function automatic logic [SD*8-1:0] det_uix(input int v);
    int q;   // det_ord(n): the quadruple's points i, j in bits 15:12, 11:8
    det_uix = '0;
    for (int s = 0; s < SD; s++) begin
      if (s * UD + v < NDET) begin
        q = 32'(kdopcd_tri_seq_pkg::det_ord(s * UD + v));
        det_uix = det_uix | ((SD*8)'(8'(kdopcd_tri_seq_pkg::dix(q >> 12, (q >> 8) & 15))) << (8 * s));
      end
    end
  endfunction
  function automatic logic [SD*8-1:0] det_cix(input int v);
    det_cix = '0;
    for (int s = 0; s < SD; s++) begin
      if (s * UD + v < NDET)
        det_cix = det_cix | ((SD*8)'(8'(kdopcd_tri_seq_pkg::det_rank(s * UD + v))) << (8 * s));
    end
  endfunction
  /* verilator coverage_on */

  logic [2*UD-1:0] ds_all;
  for (genvar v = 0; v < UD; v++) begin : g_det
    kdopcd_tri_seq_pkg::sign_t sgn;
    kdopcd_tri_seq_det #(.DW(DW), .NW(NW), .NS(SD), .NU(6), .NC(NFULL / 3),
                         .UIX(det_uix(v)), .CIX(det_cix(v)), .IDLE(SD'(idle_slots(v, UD, SD, NDET)))) u_det (
      .clk_i,
      .en_i    (den),
      .uvec_i  (uvec_h),
      .mfile_i (mfile_q),
      .slot_i  (vld[DS +: SD]),
      .sign_o  (sgn)
    );
    assign ds_all[2*v +: 2] = sgn;
  end

  // determinant signs in kdopcd_tri_orient's order (quadruple qix), loaded in DS + slot + LD;
  // all readable in D0
  logic [29:0] qsign_q;
  for (genvar n = 0; n < NDET; n++) begin : g_dfile
    localparam logic [15:0] Q = kdopcd_tri_seq_pkg::det_ord(n);
    localparam int QI = kdopcd_tri_seq_pkg::qix(32'(Q[15:12]), 32'(Q[11:8]), 32'(Q[7:4]), 32'(Q[3:0]));
    always_ff @(posedge clk_i) begin
      if (vld[DS + n / UD + LD]) begin
        qsign_q[2*QI +: 2] <= ds_all[2*(n % UD) +: 2];
      end
    end
  end

  // ---- decision (kdopcd_tri_unit's stages 9, 10: loads in D0, hit readable from D0 + 2)
  logic hit;
  kdopcd_tri_decide u_decide (
    .clk_i,
    .valid_i  (vld[D0+1:D0]),
    .dsign_i  (dsign_h),
    .tsign_i  (tsign_h),
    .qsign_i  (qsign_q),
    .axis_a_i (axis_h[2:0]),
    .axis_b_i (axis_h[5:3]),
    .hit_o    (hit)
  );

  // ---- outputs: hit padded to LAT (1 bit, every clock: 0 for an idle slot), id held
  if (LAT > LAT_MIN) begin : g_pad
    logic [LAT-LAT_MIN-1:0] hit_q;
    if (LAT - LAT_MIN > 1) begin : g_shift
      always_ff @(posedge clk_i) begin
        hit_q <= {hit_q[LAT-LAT_MIN-2:0], hit};
      end
    end else begin : g_one
      always_ff @(posedge clk_i) begin
        hit_q <= hit;
      end
    end
    assign hit_o = hit_q[LAT-LAT_MIN-1];
  end else begin : g_nopad
    assign hit_o = hit;
  end

  logic [ID_W-1:0] id_q;
  always_ff @(posedge clk_i) begin
    if (valid_i) begin
      id_q <= id_i;
    end
  end
  kdopcd_tri_seq_hold #(.W(ID_W), .II(II), .A(1), .E(II), .R0(LAT), .R1(LAT), .LAT(LAT)) u_id_hold (
    .clk_i, .vld_i(vld), .d_i(id_q), .q_o(id_o));

  assign valid_o = vld[LAT];

endmodule
