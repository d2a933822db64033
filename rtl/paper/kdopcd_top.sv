// k-DOP collision-detection accelerator, top level (docs/accelerator.md):
//   AXI4-Lite register file (kdopcd_regs) -> controller core (kdopcd_ctrl: stack, fetch unit,
//   SAT pipeline, triangle unit, contact FIFO) -> AXI4 read master (tree images) and
//   AXI4-Stream (contact pairs). In simulation the three protocol checkers of rtl/verif/ are
//   bound to its ports (rtl/verif/kdopcd_top_checkers.sv); synthesis never reads that folder.
module kdopcd_top #(
  parameter int K           = kdopcd_pkg::DEFAULT_K,
  parameter int B           = kdopcd_pkg::DEFAULT_B,
  parameter int C           = kdopcd_pkg::DEFAULT_C,
  parameter int Z           = kdopcd_pkg::DEFAULT_Z,
  parameter int V           = kdopcd_pkg::DEFAULT_V,
  parameter int M           = kdopcd_pkg::DEFAULT_M,
  parameter int W           = kdopcd_pkg::DEFAULT_W,
  parameter int ADDR_W      = kdopcd_pkg::DEFAULT_ADDR_W,
  parameter int STACK_DEPTH = kdopcd_pkg::DEFAULT_STACK_DEPTH,
  parameter int MAX_OUT     = kdopcd_pkg::DEFAULT_MAX_OUT,
  parameter int BURST_MAX   = kdopcd_pkg::DEFAULT_BURST_MAX,
  parameter int TRI_LAT     = kdopcd_pkg::DEFAULT_TRI_LAT,
  parameter int MUL_W       = kdopcd_pkg::DEFAULT_MUL_W,
  parameter int CFIFO_DEPTH = kdopcd_pkg::DEFAULT_CFIFO_DEPTH
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
  // AXI4 read master: tree images
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

  localparam int JW        = $clog2(K);
  localparam int NCNT      = kdopcd_pkg::NUM_COUNTERS;
  localparam int AXIS_BITS = kdopcd_format_pkg::axis_entry_bits(K, C, Z);

  logic                   start, clear, cont, busy, done, stack_ovf, bus_err, idle;
  logic [7:0]             axes;
  logic [1:0]             rule;
  logic [23:0]            stack_limit;
  logic [ADDR_W-1:0]      a_node_base, a_tri_base, b_node_base, b_tri_base;
  logic [9*(M+2)-1:0]     rot;
  logic [3*(V+M+4)-1:0]   trans;
  logic [JW-1:0]          axis_idx;
  logic [AXIS_BITS-1:0]   axis_entry;
  logic [NCNT*64-1:0]     counters;

  kdopcd_regs #(
    .K(K), .B(B), .C(C), .Z(Z), .V(V), .M(M), .W(W), .ADDR_W(ADDR_W), .STACK_DEPTH(STACK_DEPTH),
    .TRI_LAT(TRI_LAT), .MUL_W(MUL_W), .NCNT(NCNT), .AXIS_BITS(AXIS_BITS)
  ) u_regs (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i, .s_axil_wvalid_i, .s_axil_wready_o,
    .s_axil_wdata_i, .s_axil_wstrb_i, .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i, .s_axil_rvalid_o, .s_axil_rready_i,
    .s_axil_rdata_o, .s_axil_rresp_o,
    .start_o          (start),
    .clear_o          (clear),
    .axes_o           (axes),
    .rule_o           (rule),
    .continue_o       (cont),
    .stack_limit_o    (stack_limit),
    .a_node_base_o    (a_node_base),
    .a_tri_base_o     (a_tri_base),
    .b_node_base_o    (b_node_base),
    .b_tri_base_o     (b_tri_base),
    .rot_o            (rot),
    .trans_o          (trans),
    .axis_idx_i       (axis_idx),
    .axis_entry_o     (axis_entry),
    .busy_i           (busy),
    .done_i           (done),
    .stack_overflow_i (stack_ovf),
    .bus_error_i      (bus_err),
    .idle_i           (idle),
    .counters_i       (counters)
  );

  kdopcd_ctrl #(
    .K(K), .B(B), .C(C), .Z(Z), .V(V), .M(M), .W(W), .ADDR_W(ADDR_W), .STACK_DEPTH(STACK_DEPTH),
    .MAX_OUT(MAX_OUT), .BURST_MAX(BURST_MAX), .TRI_LAT(TRI_LAT), .MUL_W(MUL_W), .CFIFO_DEPTH(CFIFO_DEPTH),
    .NCNT(NCNT), .AXIS_BITS(AXIS_BITS)
  ) u_ctrl (
    .clk_i, .rst_ni,
    .start_i          (start),
    .clear_i          (clear),
    .axes_i           (axes),
    .rule_i           (rule),
    .continue_i       (cont),
    .stack_limit_i    (stack_limit),
    .a_node_base_i    (a_node_base),
    .a_tri_base_i     (a_tri_base),
    .b_node_base_i    (b_node_base),
    .b_tri_base_i     (b_tri_base),
    .rot_i            (rot),
    .trans_i          (trans),
    .axis_idx_o       (axis_idx),
    .axis_entry_i     (axis_entry),
    .busy_o           (busy),
    .done_o           (done),
    .stack_overflow_o (stack_ovf),
    .bus_error_o      (bus_err),
    .idle_o           (idle),
    .counters_o       (counters),
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o, .m_axi_arburst_o,
    .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rdata_i, .m_axi_rresp_i, .m_axi_rlast_i,
    .m_axis_tvalid_o, .m_axis_tready_i, .m_axis_tdata_o
  );

  assign irq_o = done;

endmodule
