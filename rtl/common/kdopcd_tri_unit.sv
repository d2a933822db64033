// Triangle unit: the fixed-point triangle-triangle test of ref/src/tri_fixed.cpp, bit-accurate
// (docs/triangle-unit.md: formats and widths; docs/rtl-triangle-unit.md: this implementation).
//
// One test per clock, no stall. The first triangle's stored vertices are lifted (q << M), the
// second's are placed (M' q + T'); the closed triangles (degenerate ones are the segment or
// point they are) are tested exactly with Guigue-Devillers on integer orientation signs, all
// computed in parallel:
//   stages 1-3  kdopcd_tri_place   input registers, products M'_ij q_j, coordinates
//   stages 4-8  kdopcd_tri_orient  differences, cross-product products, minors, determinant
//                                  products, determinant signs
//   stages 9-10 kdopcd_tri_decide  sign logic (3D / coplanar / degenerate), verdict
//   stages 11.. LAT - 10 delay registers (valid, hit, id)
// valid_i in cycle t -> valid_o in cycle t + LAT. LAT >= LAT_MIN = 10.
module kdopcd_tri_unit #(
  parameter int V   = 24,   // vertex bits v
  parameter int M   = 24,   // rotation bits m
  parameter int LAT = 16,   // latency in clocks: valid_i in cycle t -> valid_o in cycle t + LAT
  parameter int ID_W = 64
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 valid_i,          // one test per clock, no stall, no back-pressure
  input  logic [9*(V+2)-1:0]   tri_a_i,          // first object's stored vertices q (corner c, coordinate d at [(3c+d)*(V+2) +: V+2], signed)
  input  logic [9*(V+2)-1:0]   tri_b_i,          // second object's stored vertices, same layout
  input  logic [9*(M+2)-1:0]   rot_i,            // M'(i,j) at [(3i+j)*(M+2) +: M+2], signed; held constant during a query
  input  logic [3*(V+M+4)-1:0] trans_i,          // T'(i) at [i*(V+M+4) +: V+M+4], signed; held constant during a query
  input  logic [ID_W-1:0]      id_i,             // passed through unchanged
  output logic                 valid_o,
  output logic                 hit_o,            // 1: the closed triangles intersect
  output logic [ID_W-1:0]      id_o
);

  localparam int LAT_MIN = 10;  // register stages of place (3) + orient (5) + decide (2)
  localparam int CW      = V + M + 4;

  // Static checks: the pipeline cannot be shorter than its stages; the formats of
  // docs/triangle-unit.md need v, m >= 1 and v + m <= 56.
  if (LAT < LAT_MIN) begin : g_lat_check
    $error("kdopcd_tri_unit: LAT = %0d is below the minimum latency %0d", LAT, LAT_MIN);
  end
  if (V < 1 || M < 1 || V + M > 56) begin : g_param_check
    $error("kdopcd_tri_unit: need V >= 1, M >= 1, V + M <= 56");
  end

  // ---- control: valid (reset) and id (no reset) over LAT stages, hit padded by LAT - LAT_MIN
  logic [LAT-1:0]      valid_q;    // valid_q[s-1]: a test is in stage s
  logic [LAT*ID_W-1:0] id_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= {valid_q[LAT-2:0], valid_i};
    end
  end
  always_ff @(posedge clk_i) begin
    id_q <= {id_q[(LAT-1)*ID_W-1:0], id_i};
  end

  // Clock enables of the datapath: the registers of stage s load only when ld[s-1] is set, i.e.
  // when a valid test enters the stage (ld[0] = valid_i, ld[s-1] = valid_q[s-2]).
  logic [LAT_MIN-1:0] ld;
  assign ld = {valid_q[LAT_MIN-2:0], valid_i};

  // ---- datapath
  logic [18*CW-1:0] x;
  logic [89:0]      dsign;
  logic [119:0]     tsign;
  logic [29:0]      qsign;
  logic [2:0]       axis_a, axis_b;
  logic             hit;

  kdopcd_tri_place #(.V(V), .M(M)) u_place (
    .clk_i,
    .valid_i  (ld[2:0]),   // stages 1-3
    .tri_a_i,
    .tri_b_i,
    .rot_i,
    .trans_i,
    .x_o     (x)
  );

  kdopcd_tri_orient #(.V(V), .M(M)) u_orient (
    .clk_i,
    .valid_i  (ld[7:3]),   // stages 4-8
    .x_i      (x),
    .dsign_o  (dsign),
    .tsign_o  (tsign),
    .qsign_o  (qsign),
    .axis_a_o (axis_a),
    .axis_b_o (axis_b)
  );

  kdopcd_tri_decide u_decide (
    .clk_i,
    .valid_i  (ld[9:8]),   // stages 9-10
    .dsign_i  (dsign),
    .tsign_i  (tsign),
    .qsign_i  (qsign),
    .axis_a_i (axis_a),
    .axis_b_i (axis_b),
    .hit_o    (hit)
  );

  // ---- hit delay (1 bit, every clock: stage 10 already gives 0 for an idle slot)
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

  assign valid_o = valid_q[LAT-1];
  assign id_o    = id_q[(LAT-1)*ID_W +: ID_W];

endmodule
