// The v2 accelerator top (docs/accelerator-v2.md): AXI4-Lite registers (kdopcd_v2_regs), the
// loader (kdopcd_v2_loader: LOAD copies both trees into on-chip RAM over the AXI4 read master),
// the command queue (kdopcd_v2_cmdq: descriptors by DMA, dispatch; kdopcd_v2_wdma: contacts and
// completion records by DMA), and ENGINES traversal engines of four blocks each, wired here at
// their ports (the blocks of the co-simulation, docs/cosim.md):
//   u_fetch   kdopcd_v2_fetch: the four tree RAMs (nodes and triangles of each tree) and their reads;
//   u_engine  kdopcd_v2_engine (ctrl): scheduler, pending set, verdict, queues, counters; its
//             contacts leave on the AXI4-Stream;
//   u_sat     kdopcd_sat_wide: the wide SAT unit (one lane per axis);
//   u_tri     kdopcd_tri_seq: the time-multiplexed exact triangle unit.
// Each engine has its own copy of the tree RAMs (the loader writes every copy). The register
// path (START, the AXI4-Stream, COUNTERS) is engine 0's; the command queue feeds every engine.
// Parameters and the register map come from kdopcd_v2_pkg, generated from
// contract/accelerator_v2.json. In simulation the protocol checkers of rtl/verif/ are bound
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
  parameter int BURST_MAX       = kdopcd_v2_pkg::DEFAULT_BURST_MAX,
  parameter int DMA_W           = kdopcd_v2_pkg::DEFAULT_DMA_W,
  parameter int DESC_BUFFERS    = kdopcd_v2_pkg::DEFAULT_DESC_BUFFERS,
  parameter int RING_SLOTS      = kdopcd_v2_pkg::DEFAULT_RING_SLOTS,
  parameter int ENGINES         = kdopcd_v2_pkg::DEFAULT_ENGINES
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
  // AXI4 master of the command queue (64-bit addresses into host memory): descriptor reads,
  // contact and completion-record writes
  output logic              m_dma_arvalid_o,
  input  logic              m_dma_arready_i,
  output logic [63:0]       m_dma_araddr_o,
  output logic [7:0]        m_dma_arlen_o,
  output logic [2:0]        m_dma_arsize_o,
  output logic [1:0]        m_dma_arburst_o,
  input  logic              m_dma_rvalid_i,
  output logic              m_dma_rready_o,
  input  logic [DMA_W-1:0]  m_dma_rdata_i,
  input  logic [1:0]        m_dma_rresp_i,
  input  logic              m_dma_rlast_i,
  output logic              m_dma_awvalid_o,
  input  logic              m_dma_awready_i,
  output logic [63:0]       m_dma_awaddr_o,
  output logic [7:0]        m_dma_awlen_o,
  output logic [2:0]        m_dma_awsize_o,
  output logic [1:0]        m_dma_awburst_o,
  output logic              m_dma_wvalid_o,
  input  logic              m_dma_wready_i,
  output logic [DMA_W-1:0]  m_dma_wdata_o,
  output logic [DMA_W/8-1:0] m_dma_wstrb_o,
  output logic              m_dma_wlast_o,
  input  logic              m_dma_bvalid_i,
  output logic              m_dma_bready_o,
  input  logic [1:0]        m_dma_bresp_i,
  // AXI4-Stream master: contacts {second, first} of the queries started by the registers
  output logic              m_axis_tvalid_o,
  input  logic              m_axis_tready_i,
  output logic [63:0]       m_axis_tdata_o,
  output logic              irq_o
);

  localparam int NODE_BITS = kdopcd_v2_pkg::node_bits(K, B);
  localparam int TRI_BITS  = kdopcd_v2_pkg::tri_bits(V);
  localparam int NCNT      = kdopcd_v2_pkg::NUM_COUNTERS;
  localparam int PCW       = $clog2(PENDING_DEPTH + 1);
  localparam int J_W       = $clog2(K);
  localparam int RotW      = M + 2;
  localparam int TransW    = V + M + 4;
  localparam int EFF_W     = $clog2(K + 1);
  localparam int E         = ENGINES;

  logic                   reg_start, load, loaded;
  logic [1:0]             reg_rule;
  logic [23:0]            reg_pending_limit;
  logic [2*ADDR_W-1:0]    node_base, tri_base;  // per tree, flat (kdopcd_v2_regs)
  logic [63:0]            nodes, tris;
  logic [9*RotW-1:0]      reg_rot;
  logic [3*TransW-1:0]    reg_trans;
  logic                   ld_busy, ld_done, ld_ok, ld_lerr, ld_berr;
  logic [63:0]            ld_cycles, ld_beats;
  logic [NCNT*64-1:0]     counters;             // engine 0's and the load's: the register block's
  logic [K*3*J_W-1:0]     reg_ja, reg_jb, q_ja, q_jb;  // the axis table by field
  logic [K*3*(C+1)-1:0]   reg_pa, reg_pb, q_pa, q_pb;
  logic [K*(Z+4)-1:0]     reg_p, q_p;
  // per engine (engine e at [e] or [e*WIDTH +: WIDTH])
  logic [E-1:0]           eng_busy, eng_idle, eng_done, eng_ovf, eng_tvalid, eng_tready;
  logic [E*64-1:0]        eng_tdata;
  logic [E*NCNT*64-1:0]   eng_counters;         // with the load counters, as the records carry them
  // the command queue
  logic [63:0]            queue_base;
  logic [31:0]            doorbell, queue_head, queue_done;
  logic [E-1:0]           q_start, q_holds, q_release, w_ready;
  logic                   q_room, q_desc_error;
  logic [1:0]             q_rule;
  logic [23:0]            q_pending_limit;
  logic [E*9*RotW-1:0]    q_rot;
  logic [E*3*TransW-1:0]  q_trans;
  logic [63:0]            q_tag, q_contact_base, q_completion_base;
  logic [31:0]            q_contact_capacity;

  kdopcd_v2_regs #(
    .K(K), .B(B), .C(C), .Z(Z), .V(V), .M(M), .W(W), .ADDR_W(ADDR_W), .NODE_AW(NODE_AW), .TRI_AW(TRI_AW),
    .PENDING_DEPTH(PENDING_DEPTH), .PAIRS_IN_FLIGHT(PAIRS_IN_FLIGHT), .RAM_LAT(RAM_LAT), .TRI_II(TRI_II),
    .TRI_LAT(TRI_LAT), .TRI_QUEUE(TRI_QUEUE), .CONTACT_QUEUE(CONTACT_QUEUE), .ENGINES(ENGINES), .DMA_W(DMA_W),
    .DESC_BUFFERS(DESC_BUFFERS), .RING_SLOTS(RING_SLOTS)
  ) u_regs (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i, .s_axil_wvalid_i, .s_axil_wready_o,
    .s_axil_wdata_i, .s_axil_wstrb_i, .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i, .s_axil_rvalid_o, .s_axil_rready_i,
    .s_axil_rdata_o, .s_axil_rresp_o,
    .start_o        (reg_start),
    .load_o         (load),
    .rule_o         (reg_rule),
    .pending_limit_o(reg_pending_limit),
    .node_base_o    (node_base),
    .tri_base_o     (tri_base),
    .nodes_o        (nodes),
    .tris_o         (tris),
    .rot_o          (reg_rot),
    .trans_o        (reg_trans),
    .axis_pa_o      (reg_pa),
    .axis_pb_o      (reg_pb),
    .axis_p_o       (reg_p),
    .axis_ja_o      (reg_ja),
    .axis_jb_o      (reg_jb),
    .busy_i         ((|eng_busy) || ld_busy),
    // START (engine 0) and LOAD wait until every engine is idle and no queued query holds one
    .idle_i         ((&eng_idle) && !ld_busy && q_holds == '0 && q_start == '0),
    .query_done_i   (eng_done[0] && !q_holds[0]),
    .overflow_i     (eng_ovf[0]),
    .load_done_i    (ld_done),
    .load_ok_i      (ld_ok),
    .load_error_i   (ld_lerr),
    .bus_error_i    (ld_berr),
    .counters_i     (counters),
    .queue_base_o   (queue_base),
    .doorbell_o     (doorbell),
    .queue_head_i   (queue_head),
    .queue_done_i   (queue_done),
    .loaded_o       (loaded),
    .irq_o          (irq_o)
  );

  // ---- command queue: descriptors by DMA into buffers, the oldest to the lowest idle engine; the
  // contacts and completion record of a queued query go back by DMA (docs/accelerator-v2.md).
  kdopcd_v2_cmdq #(
    .K(K), .C(C), .Z(Z), .V(V), .M(M), .ADDR_W(64), .DMA_W(DMA_W), .DESC_BUFFERS(DESC_BUFFERS),
    .RING_SLOTS(RING_SLOTS), .ENGINES(ENGINES)
  ) u_cmdq (
    .clk_i, .rst_ni,
    .queue_base_i      (queue_base),
    .tail_i            (doorbell),
    .head_o            (queue_head),
    .m_axi_arvalid_o   (m_dma_arvalid_o),
    .m_axi_arready_i   (m_dma_arready_i),
    .m_axi_araddr_o    (m_dma_araddr_o),
    .m_axi_arlen_o     (m_dma_arlen_o),
    .m_axi_arsize_o    (m_dma_arsize_o),
    .m_axi_arburst_o   (m_dma_arburst_o),
    .m_axi_rvalid_i    (m_dma_rvalid_i),
    .m_axi_rready_o    (m_dma_rready_o),
    .m_axi_rdata_i     (m_dma_rdata_i),
    .m_axi_rresp_i     (m_dma_rresp_i),
    .m_axi_rlast_i     (m_dma_rlast_i),
    .engine_idle_i     (eng_idle),
    .blocked_i         (reg_start || ld_busy || !loaded || !q_room),
    .start_o           (q_start),
    .holds_o           (q_holds),
    .release_i         (q_release),
    .rule_o            (q_rule),
    .pending_limit_o   (q_pending_limit),
    .rot_o             (q_rot),
    .trans_o           (q_trans),
    .axis_pa_o         (q_pa),
    .axis_pb_o         (q_pb),
    .axis_p_o          (q_p),
    .axis_ja_o         (q_ja),
    .axis_jb_o         (q_jb),
    .tag_o             (q_tag),
    .contact_base_o    (q_contact_base),
    .contact_capacity_o(q_contact_capacity),
    .completion_base_o (q_completion_base),
    .desc_error_o      (q_desc_error)
  );
  assign q_release = eng_done & q_holds;

  kdopcd_v2_wdma #(.DMA_W(DMA_W), .NCNT(NCNT), .ENGINES(ENGINES)) u_wdma (
    .clk_i, .rst_ni,
    .start_i           (q_start),
    .tag_i             (q_tag),
    .contact_base_i    (q_contact_base),
    .contact_capacity_i(q_contact_capacity),
    .completion_base_i (q_completion_base),
    .desc_error_i      (q_desc_error),
    .contact_valid_i   (eng_tvalid & q_holds),
    .contact_ready_o   (w_ready),
    .contact_i         (eng_tdata),
    .done_i            (q_release),
    .overflow_i        (eng_ovf),
    .counters_i        (eng_counters),
    .room_o            (q_room),
    .completions_o     (queue_done),
    .m_axi_awvalid_o   (m_dma_awvalid_o),
    .m_axi_awready_i   (m_dma_awready_i),
    .m_axi_awaddr_o    (m_dma_awaddr_o),
    .m_axi_awlen_o     (m_dma_awlen_o),
    .m_axi_awsize_o    (m_dma_awsize_o),
    .m_axi_awburst_o   (m_dma_awburst_o),
    .m_axi_wvalid_o    (m_dma_wvalid_o),
    .m_axi_wready_i    (m_dma_wready_i),
    .m_axi_wdata_o     (m_dma_wdata_o),
    .m_axi_wstrb_o     (m_dma_wstrb_o),
    .m_axi_wlast_o     (m_dma_wlast_o),
    .m_axi_bvalid_i    (m_dma_bvalid_i),
    .m_axi_bready_o    (m_dma_bready_o),
    .m_axi_bresp_i     (m_dma_bresp_i)
  );

  // ---- loader: writes the tree RAMs of every engine's fetch block
  logic [1:0]           node_we, tri_we;
  logic [NODE_AW-1:0]   node_waddr;
  logic [NODE_BITS-1:0] node_wdata;
  logic [TRI_AW-1:0]    tri_waddr;
  logic [TRI_BITS-1:0]  tri_wdata;

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

  // ---- the engines
  for (genvar e = 0; e < E; e++) begin : g_engine
    // The query's fields: the SAT unit, the rule and the limit take theirs at START; M' and T'
    // are read while the query runs, so engine 0 takes the registers' unless the queue starts it
    // (q_start) or holds it (q_holds). The other engines run queued queries only. The START
    // fields of engine 0 are selected by "not a register START" rather than "a queue START": the
    // queue is blocked while the registers start a query, so both pick the same fields at every
    // START, and the queue's dispatch decision (which depends on the write-back's room) stays out
    // of the path through the limit into the engine's registered credit (185 MHz estimated with
    // it there).
    logic                 start, from_queue;
    logic [1:0]           rule;
    logic [23:0]          pending_limit;
    logic [PCW-1:0]       limit;
    logic [K*3*J_W-1:0]   ja, jb;
    logic [K*3*(C+1)-1:0] pa, pb;
    logic [K*(Z+4)-1:0]   p_off;
    logic [9*RotW-1:0]    rot;
    logic [3*TransW-1:0]  trans;
    if (e == 0) begin : g_registers
      assign start      = reg_start || q_start[0];
      assign from_queue = !reg_start;
      assign rot        = (q_start[0] || q_holds[0]) ? q_rot[0 +: 9*RotW] : reg_rot;
      assign trans      = (q_start[0] || q_holds[0]) ? q_trans[0 +: 3*TransW] : reg_trans;
    end else begin : g_queue_only
      assign start      = q_start[e];
      assign from_queue = 1'b1;
      assign rot        = q_rot[e*9*RotW +: 9*RotW];
      assign trans      = q_trans[e*3*TransW +: 3*TransW];
    end
    assign rule          = from_queue ? q_rule : reg_rule;
    assign pending_limit = from_queue ? q_pending_limit : reg_pending_limit;
    assign pa            = from_queue ? q_pa : reg_pa;
    assign pb            = from_queue ? q_pb : reg_pb;
    assign p_off         = from_queue ? q_p : reg_p;
    assign ja            = from_queue ? q_ja : reg_ja;
    assign jb            = from_queue ? q_jb : reg_jb;
    assign limit = (pending_limit == '0 || 32'(pending_limit) > PENDING_DEPTH) ? PCW'(PENDING_DEPTH)
                                                                              : PCW'(pending_limit);

    // fetch: this engine's copy of the tree RAMs and their reads
    logic [2*NODE_AW-1:0] node_raddr;  // per tree, flat (kdopcd_v2_engine -> kdopcd_v2_fetch)
    logic [2*TRI_AW-1:0]  tri_raddr;
    logic [127:0]         node_link;
    logic [K*(B+2)-1:0]   coef_a, coef_b;
    logic [TRI_BITS-1:0]  tri_a, tri_b;

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

    logic                 sat_in_valid, sat_valid, sat_separated;
    logic [K-1:0]         sat_lanes;
    logic [EFF_W-1:0]     sat_effective;
    logic                 tri_in_valid, tri_valid, tri_hit;
    logic [63:0]          tri_in_id, tri_id;
    logic [NCNT*64-1:0]   counters_e;

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
      .m_axis_tvalid_o   (eng_tvalid[e]),
      .m_axis_tready_i   (eng_tready[e]),
      .m_axis_tdata_o    (eng_tdata[e*64 +: 64]),
      .busy_o            (eng_busy[e]),
      .idle_o            (eng_idle[e]),
      .done_o            (eng_done[e]),
      .overflow_o        (eng_ovf[e]),
      .counters_o        (counters_e)
    );

    // SAT unit: the axis table by field (PA0..2, PB0..2, p', jA0..2, jB0..2 of axis a at
    // [a*W +: W] of each); START loads it into the lanes. A = the second object's node, B = the
    // first's (the reference's fixed_axis_diffs(second, first)).
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

    // triangle unit: the engine never starts two tests within TRI_II clocks.
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
      eng_counters[e*NCNT*64 +: NCNT*64] = counters_e;
      eng_counters[(e*NCNT + 32'(kdopcd_v2_pkg::CNT_LOAD_CYCLES))*64 +: 64] = ld_cycles;
      eng_counters[(e*NCNT + 32'(kdopcd_v2_pkg::CNT_LOAD_BEATS))*64 +: 64]  = ld_beats;
    end
    // Contacts: a queued query's go to the write-back, engine 0's others to the stream.
    assign eng_tready[e] = q_holds[e] ? w_ready[e] : (e == 0 ? m_axis_tready_i : 1'b0);
  end

  assign counters        = eng_counters[0 +: NCNT*64];
  assign m_axis_tvalid_o = eng_tvalid[0] && !q_holds[0];
  assign m_axis_tdata_o  = eng_tdata[0 +: 64];

endmodule
