// The v2 accelerator top (docs/accelerator-v2.md): AXI4-Lite registers (kdopcd_v2_regs), the
// loader (kdopcd_v2_loader: LOAD copies both trees into on-chip RAM over the AXI4 read master),
// and the four blocks of the traversal, wired here at their ports (the blocks of the
// co-simulation, docs/cosim.md):
//   u_fetch   kdopcd_v2_fetch: the four tree RAMs (nodes and triangles of each tree) and their reads;
//   u_engine  kdopcd_v2_engine (ctrl): scheduler, pending set, verdict, queues, counters; its
//             contacts leave on the AXI4-Stream;
//   u_sat     kdopcd_sat_wide: the wide SAT unit (one lane per axis);
//   u_tri     kdopcd_tri_seq: the time-multiplexed exact triangle unit. Parameters and the register map come from kdopcd_v2_pkg, generated
// from contract/accelerator_v2.json. In simulation the protocol checkers of rtl/verif/ are bound
// to its ports (rtl/verif/kdopcd_v2_top_checkers.sv); synthesis never reads that folder.
module kdopcd_v2_top #(
  parameter int K               = kdopcd_v2_pkg::DEFAULT_K,
  parameter int B               = kdopcd_v2_pkg::DEFAULT_B,
  parameter int C               = kdopcd_v2_pkg::DEFAULT_C,
  parameter int Z               = kdopcd_v2_pkg::DEFAULT_Z,
  parameter int V               = kdopcd_v2_pkg::DEFAULT_V,
  parameter int M               = kdopcd_v2_pkg::DEFAULT_M,
  parameter int W               = kdopcd_v2_pkg::DEFAULT_W,
  parameter int ADDR_W          = kdopcd_v2_pkg::DEFAULT_ADDR_W,
  parameter int NODE_AW         = kdopcd_v2_pkg::DEFAULT_NODE_AW,
  parameter int TRI_AW          = kdopcd_v2_pkg::DEFAULT_TRI_AW,
  parameter int PENDING_DEPTH   = kdopcd_v2_pkg::DEFAULT_PENDING_DEPTH,
  parameter int PAIRS_IN_FLIGHT = kdopcd_v2_pkg::DEFAULT_PAIRS_IN_FLIGHT,
  parameter int RAM_LAT         = kdopcd_v2_pkg::DEFAULT_RAM_LAT,
  parameter int TRI_II          = kdopcd_v2_pkg::DEFAULT_TRI_II,
  parameter int TRI_LAT         = kdopcd_v2_pkg::DEFAULT_TRI_LAT,
  parameter int TRI_QUEUE       = kdopcd_v2_pkg::DEFAULT_TRI_QUEUE,
  parameter int CONTACT_QUEUE   = kdopcd_v2_pkg::DEFAULT_CONTACT_QUEUE,
  parameter int BURST_MAX       = kdopcd_v2_pkg::DEFAULT_BURST_MAX
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // AXI4-Lite slave: host registers
  input  logic              s_axil_awvalid_i,
  output logic              s_axil_awready_o,
  input  logic [11:0]       s_axil_awaddr_i,
  input  logic              s_axil_wvalid_i,
  output logic              s_axil_wready_o,
  input  logic [31:0]       s_axil_wdata_i,
  input  logic [3:0]        s_axil_wstrb_i,
  output logic              s_axil_bvalid_o,
  input  logic              s_axil_bready_i,
  output logic [1:0]        s_axil_bresp_o,
  input  logic              s_axil_arvalid_i,
  output logic              s_axil_arready_o,
  input  logic [11:0]       s_axil_araddr_i,
  output logic              s_axil_rvalid_o,
  input  logic              s_axil_rready_i,
  output logic [31:0]       s_axil_rdata_o,
  output logic [1:0]        s_axil_rresp_o,
  // AXI4 read master: tree images (LOAD only)
  output logic              m_axi_arvalid_o,
  input  logic              m_axi_arready_i,
  output logic [ADDR_W-1:0] m_axi_araddr_o,
  output logic [7:0]        m_axi_arlen_o,
  output logic [2:0]        m_axi_arsize_o,
  output logic [1:0]        m_axi_arburst_o,
  input  logic              m_axi_rvalid_i,
  output logic              m_axi_rready_o,
  input  logic [W-1:0]      m_axi_rdata_i,
  input  logic [1:0]        m_axi_rresp_i,
  input  logic              m_axi_rlast_i,
  // AXI4-Stream master: contacts {second, first}
  output logic              m_axis_tvalid_o,
  input  logic              m_axis_tready_i,
  output logic [63:0]       m_axis_tdata_o,
  output logic              irq_o
);

  localparam int NODE_BITS = kdopcd_v2_pkg::node_bits(K, B);
  localparam int TRI_BITS  = kdopcd_v2_pkg::tri_bits(V);
  localparam int NCNT      = kdopcd_v2_pkg::NUM_COUNTERS;
  localparam int PCW       = $clog2(PENDING_DEPTH + 1);

  logic                   start, load;
  logic [1:0]             rule;
  logic [23:0]            pending_limit;
  logic [2*ADDR_W-1:0]    node_base, tri_base;  // per tree, flat (kdopcd_v2_regs)
  logic [63:0]            nodes, tris;
  logic [9*(M+2)-1:0]     rot;
  logic [3*(V+M+4)-1:0]   trans;
  logic                   eng_busy, eng_idle, eng_done, eng_ovf;
  logic                   ld_busy, ld_done, ld_ok, ld_lerr, ld_berr;
  logic [63:0]            ld_cycles, ld_beats;
  logic [NCNT*64-1:0]     eng_counters, counters;
  localparam int J_W   = $clog2(K);
  logic [K*3*J_W-1:0]     ja, jb;     // the axis table by field (kdopcd_v2_regs)
  logic [K*3*(C+1)-1:0]   pa, pb;
  logic [K*(Z+4)-1:0]     p_off;

  kdopcd_v2_regs #(
    .K(K), .B(B), .C(C), .Z(Z), .V(V), .M(M), .W(W), .ADDR_W(ADDR_W), .NODE_AW(NODE_AW), .TRI_AW(TRI_AW),
    .PENDING_DEPTH(PENDING_DEPTH), .PAIRS_IN_FLIGHT(PAIRS_IN_FLIGHT), .RAM_LAT(RAM_LAT), .TRI_II(TRI_II),
    .TRI_LAT(TRI_LAT), .TRI_QUEUE(TRI_QUEUE), .CONTACT_QUEUE(CONTACT_QUEUE)
  ) u_regs (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i, .s_axil_wvalid_i, .s_axil_wready_o,
    .s_axil_wdata_i, .s_axil_wstrb_i, .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i, .s_axil_rvalid_o, .s_axil_rready_i,
    .s_axil_rdata_o, .s_axil_rresp_o,
    .start_o        (start),
    .load_o         (load),
    .rule_o         (rule),
    .pending_limit_o(pending_limit),
    .node_base_o    (node_base),
    .tri_base_o     (tri_base),
    .nodes_o        (nodes),
    .tris_o         (tris),
    .rot_o          (rot),
    .trans_o        (trans),
    .axis_pa_o      (pa),
    .axis_pb_o      (pb),
    .axis_p_o       (p_off),
    .axis_ja_o      (ja),
    .axis_jb_o      (jb),
    .busy_i         (eng_busy || ld_busy),
    .idle_i         (eng_idle && !ld_busy),
    .query_done_i   (eng_done),
    .overflow_i     (eng_ovf),
    .load_done_i    (ld_done),
    .load_ok_i      (ld_ok),
    .load_error_i   (ld_lerr),
    .bus_error_i    (ld_berr),
    .counters_i     (counters),
    .irq_o          (irq_o)
  );

  // ---- loader: writes the tree RAMs of the fetch block
  logic [1:0]           node_we, tri_we;
  logic [NODE_AW-1:0]   node_waddr;
  logic [NODE_BITS-1:0] node_wdata;
  logic [TRI_AW-1:0]    tri_waddr;
  logic [TRI_BITS-1:0]  tri_wdata;
  logic [2*NODE_AW-1:0] node_raddr;  // per tree, flat (kdopcd_v2_engine -> kdopcd_v2_fetch)
  logic [2*TRI_AW-1:0]  tri_raddr;

  kdopcd_v2_loader #(
    .W(W), .ADDR_W(ADDR_W), .NODE_AW(NODE_AW), .TRI_AW(TRI_AW), .NODE_BITS(NODE_BITS), .TRI_BITS(TRI_BITS),
    .BURST_MAX(BURST_MAX)
  ) u_loader (
    .clk_i, .rst_ni,
    .load_i      (load),
    .node_base_i (node_base),
    .tri_base_i  (tri_base),
    .nodes_i     (nodes),
    .tris_i      (tris),
    .busy_o      (ld_busy),
    .done_o      (ld_done),
    .ok_o        (ld_ok),
    .load_error_o(ld_lerr),
    .bus_error_o (ld_berr),
    .cycles_o    (ld_cycles),
    .beats_o     (ld_beats),
    .node_we_o   (node_we),
    .node_waddr_o(node_waddr),
    .node_wdata_o(node_wdata),
    .tri_we_o    (tri_we),
    .tri_waddr_o (tri_waddr),
    .tri_wdata_o (tri_wdata),
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o, .m_axi_arburst_o,
    .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rdata_i, .m_axi_rresp_i, .m_axi_rlast_i
  );

  // ---- fetch: the tree RAMs and their reads
  logic [127:0]          node_link;
  logic [K*(B+2)-1:0]    coef_a, coef_b;
  logic [TRI_BITS-1:0]   tri_a, tri_b;

  kdopcd_v2_fetch #(
    .K(K), .B(B), .V(V), .NODE_AW(NODE_AW), .TRI_AW(TRI_AW), .RAM_LAT(RAM_LAT)
  ) u_fetch (
    .clk_i,
    .node_we_i   (node_we),
    .node_waddr_i(node_waddr),
    .node_wdata_i(node_wdata),
    .tri_we_i    (tri_we),
    .tri_waddr_i (tri_waddr),
    .tri_wdata_i (tri_wdata),
    .node_raddr_i(node_raddr),
    .node_link_o (node_link),
    .coef_a_o    (coef_a),
    .coef_b_o    (coef_b),
    .tri_raddr_i (tri_raddr),
    .tri_a_o     (tri_a),
    .tri_b_o     (tri_b)
  );

  // ---- engine (ctrl)
  logic [PCW-1:0] limit;
  assign limit = (pending_limit == '0 || 32'(pending_limit) > PENDING_DEPTH) ? PCW'(PENDING_DEPTH)
                                                                            : PCW'(pending_limit);

  localparam int EFF_W = $clog2(K + 1);
  logic                 sat_in_valid, sat_valid, sat_separated;
  logic [K-1:0]         sat_lanes;
  logic [EFF_W-1:0]     sat_effective;
  logic                 tri_in_valid, tri_valid, tri_hit;
  logic [63:0]          tri_in_id, tri_id;

  kdopcd_v2_engine #(
    .K(K), .NODE_AW(NODE_AW), .TRI_AW(TRI_AW), .PENDING_DEPTH(PENDING_DEPTH), .PAIRS_IN_FLIGHT(PAIRS_IN_FLIGHT),
    .RAM_LAT(RAM_LAT), .TRI_II(TRI_II), .TRI_LAT(TRI_LAT), .TRI_QUEUE(TRI_QUEUE), .CONTACT_QUEUE(CONTACT_QUEUE)
  ) u_engine (
    .clk_i, .rst_ni,
    .start_i           (start),
    .rule_i            (rule),
    .pending_limit_i   (limit),
    .node_raddr_o      (node_raddr),
    .node_link_i       (node_link),
    .tri_raddr_o       (tri_raddr),
    .sat_valid_o       (sat_in_valid),
    .sat_valid_i       (sat_valid),
    .sat_lane_verdict_i(sat_lanes),
    .sat_separated_i   (sat_separated),
    .sat_effective_i   (sat_effective),
    .tri_valid_o       (tri_in_valid),
    .tri_id_o          (tri_in_id),
    .tri_valid_i       (tri_valid),
    .tri_hit_i         (tri_hit),
    .tri_id_i          (tri_id),
    .m_axis_tvalid_o,
    .m_axis_tready_i,
    .m_axis_tdata_o,
    .busy_o            (eng_busy),
    .idle_o            (eng_idle),
    .done_o            (eng_done),
    .overflow_o        (eng_ovf),
    .counters_o        (eng_counters)
  );

  // ---- SAT unit: the axis table comes by field from the registers (PA0..2, PB0..2, p', jA0..2,
  // jB0..2 of axis a at [a*W +: W] of each); START loads it into the lanes.
  // A = the second object's node, B = the first's (the reference's fixed_axis_diffs(second, first)).
  kdopcd_sat_wide #(.K(K), .B(B), .C(C), .Z(Z)) u_sat (
    .clk_i, .rst_ni,
    .cfg_i         (start),
    .valid_i       (sat_in_valid),
    .coef_a_i      (coef_a),
    .coef_b_i      (coef_b),
    .ja_i          (ja),
    .jb_i          (jb),
    .pa_i          (pa),
    .pb_i          (pb),
    .p_i           (p_off),
    .valid_o       (sat_valid),
    .lane_verdict_o(sat_lanes),
    .separated_o   (sat_separated),
    .effective_o   (sat_effective)
  );

  // ---- triangle unit: the engine never starts two tests within TRI_II clocks.
  kdopcd_tri_seq #(.V(V), .M(M), .II(TRI_II), .LAT(TRI_LAT), .ID_W(64)) u_tri (
    .clk_i, .rst_ni,
    .valid_i (tri_in_valid),
    .tri_a_i (tri_a),
    .tri_b_i (tri_b),
    .rot_i   (rot),
    .trans_i (trans),
    .id_i    (tri_in_id),
    .valid_o (tri_valid),
    .hit_o   (tri_hit),
    .id_o    (tri_id)
  );

  // The load counters come from the loader, the others from the engine.
  always_comb begin
    counters = eng_counters;
    counters[32'(kdopcd_v2_pkg::CNT_LOAD_CYCLES)*64 +: 64] = ld_cycles;
    counters[32'(kdopcd_v2_pkg::CNT_LOAD_BEATS)*64 +: 64]  = ld_beats;
  end

endmodule
