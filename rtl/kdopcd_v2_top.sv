// The v2 accelerator top (docs/accelerator-v2.md): AXI4-Lite registers (kdopcd_v2_regs), the
// loader (kdopcd_v2_loader: LOAD copies both trees into on-chip RAM over the AXI4 read master),
// four tree RAMs (nodes and triangles of each tree, kdopcd_v2_ram) and one traversal engine
// (kdopcd_v2_engine: pending set, scheduler, wide SAT unit, triangle unit, queues) whose contacts
// leave on the AXI4-Stream. Parameters and the register map come from kdopcd_v2_pkg, generated
// from contract/accelerator_v2.json. In simulation the protocol checkers of rtl/sim/ watch every
// handshake; synthesis (`SYNTHESIS` defined) leaves them out.
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
  localparam int AXIS_BITS = kdopcd_v2_pkg::axis_bits(K, C, Z);
  localparam int NCNT      = kdopcd_v2_pkg::NUM_COUNTERS;
  localparam int PCW       = $clog2(PENDING_DEPTH + 1);

  logic                   start, load;
  logic [1:0]             rule;
  logic [23:0]            pending_limit;
  logic [2*ADDR_W-1:0]    node_base, tri_base;  // per tree, flat (kdopcd_v2_regs)
  logic [63:0]            nodes, tris;
  logic [9*(M+2)-1:0]     rot;
  logic [3*(V+M+4)-1:0]   trans;
  logic [K*AXIS_BITS-1:0] axis_table;
  logic                   eng_busy, eng_idle, eng_done, eng_ovf;
  logic                   ld_busy, ld_done, ld_ok, ld_lerr, ld_berr;
  logic [63:0]            ld_cycles, ld_beats;
  logic [NCNT*64-1:0]     eng_counters, counters;

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
    .axis_table_o   (axis_table),
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

  // ---- loader and tree RAMs
  logic [1:0]           node_we, tri_we;
  logic [NODE_AW-1:0]   node_waddr;
  logic [NODE_BITS-1:0] node_wdata;
  logic [TRI_AW-1:0]    tri_waddr;
  logic [TRI_BITS-1:0]  tri_wdata;
  logic [2*NODE_AW-1:0]   node_raddr;  // per tree, flat (kdopcd_v2_engine)
  logic [2*NODE_BITS-1:0] node_rdata;
  logic [2*TRI_AW-1:0]    tri_raddr;
  logic [2*TRI_BITS-1:0]  tri_rdata;

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

  for (genvar t = 0; t < 2; t++) begin : g_tree
    kdopcd_v2_ram #(.AW(NODE_AW), .DW(NODE_BITS), .LAT(RAM_LAT)) u_nodes (
      .clk_i,
      .we_i   (node_we[t]),
      .waddr_i(node_waddr),
      .wdata_i(node_wdata),
      .raddr_i(node_raddr[t*NODE_AW +: NODE_AW]),
      .rdata_o(node_rdata[t*NODE_BITS +: NODE_BITS])
    );
    kdopcd_v2_ram #(.AW(TRI_AW), .DW(TRI_BITS), .LAT(RAM_LAT)) u_tris (
      .clk_i,
      .we_i   (tri_we[t]),
      .waddr_i(tri_waddr),
      .wdata_i(tri_wdata),
      .raddr_i(tri_raddr[t*TRI_AW +: TRI_AW]),
      .rdata_o(tri_rdata[t*TRI_BITS +: TRI_BITS])
    );
  end

  // ---- engine
  logic [PCW-1:0] limit;
  assign limit = (pending_limit == '0 || 32'(pending_limit) > PENDING_DEPTH) ? PCW'(PENDING_DEPTH)
                                                                            : PCW'(pending_limit);

  kdopcd_v2_engine #(
    .K(K), .B(B), .C(C), .Z(Z), .V(V), .M(M), .NODE_AW(NODE_AW), .TRI_AW(TRI_AW),
    .PENDING_DEPTH(PENDING_DEPTH), .PAIRS_IN_FLIGHT(PAIRS_IN_FLIGHT), .RAM_LAT(RAM_LAT), .TRI_II(TRI_II),
    .TRI_LAT(TRI_LAT), .TRI_QUEUE(TRI_QUEUE), .CONTACT_QUEUE(CONTACT_QUEUE)
  ) u_engine (
    .clk_i, .rst_ni,
    .start_i        (start),
    .rule_i         (rule),
    .pending_limit_i(limit),
    .axis_table_i   (axis_table),
    .rot_i          (rot),
    .trans_i        (trans),
    .node_raddr_o   (node_raddr),
    .node_rdata_i   (node_rdata),
    .tri_raddr_o    (tri_raddr),
    .tri_rdata_i    (tri_rdata),
    .m_axis_tvalid_o,
    .m_axis_tready_i,
    .m_axis_tdata_o,
    .busy_o         (eng_busy),
    .idle_o         (eng_idle),
    .done_o         (eng_done),
    .overflow_o     (eng_ovf),
    .counters_o     (eng_counters)
  );

  // The load counters come from the loader, the others from the engine.
  always_comb begin
    counters = eng_counters;
    counters[32'(kdopcd_v2_pkg::CNT_LOAD_CYCLES)*64 +: 64] = ld_cycles;
    counters[32'(kdopcd_v2_pkg::CNT_LOAD_BEATS)*64 +: 64]  = ld_beats;
  end

`ifndef SYNTHESIS
  kdopcd_axil_checker u_axil_checker (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i, .s_axil_wvalid_i, .s_axil_wready_o,
    .s_axil_wdata_i, .s_axil_wstrb_i, .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i, .s_axil_rvalid_o, .s_axil_rready_i,
    .s_axil_rdata_o, .s_axil_rresp_o
  );
  kdopcd_axi_read_checker #(.W(W), .ADDR_W(ADDR_W), .BURST_MAX(BURST_MAX)) u_axi_checker (
    .clk_i, .rst_ni,
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o, .m_axi_arburst_o,
    .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rdata_i, .m_axi_rresp_i, .m_axi_rlast_i
  );
  kdopcd_axis_checker u_axis_checker (
    .clk_i, .rst_ni, .m_axis_tvalid_o, .m_axis_tready_i, .m_axis_tdata_o
  );
`endif

endmodule
