// Formal-only: the v2 top's AXI4-Lite register block (kdopcd_v2_regs: its slave port is the top's,
// docs/formal.md §4). Read by Yosys with `read_verilog -formal`; yosys-smtbmc proves the
// assertions by k-induction (scripts/formal_rtl.py, which connects the probe p_query to the
// block's QUERY register after flattening: Yosys 0.23 has no hierarchical references).
//
// Environment: reset low in the first clock; the master keeps the rules that
// rtl/verif/kdopcd_axil_checker.sv asserts on the master's channels (AWVALID, WVALID, ARVALID held
// until READY, their payloads stable while stalled); BREADY, RREADY, every address, data and
// strobe, and the block's status inputs (busy, idle, the done pulses, the counters, the queue's
// head and done counts) are free.
// Properties:
//   - AXI4-Lite, the checker's rules on the slave's channels: BVALID and RVALID held until READY,
//     BRESP, RDATA and RRESP stable while stalled; and beyond them: AW and W are taken together,
//     each write gets exactly one B and each read exactly one R (BVALID and RVALID are exactly
//     "a request taken and not answered"), every response OKAY;
//   - reads, for every address: ID and CONFIG0..5 read their contract values, STATUS its bits
//     (BUSY, IDLE from the inputs, DONE = irq_o, LOADED = loaded_o, bits 31:7 zero), QUEUE_HEAD,
//     QUEUE_DONE and COUNTERS the inputs, CONTROL, the axis table and every unmapped address 0;
//   - read-write registers, for a register the solver chooses (anyconst) among all 24: its value
//     is what the writes to its words made it (byte strobes honoured, truncated to its width,
//     sign-extended where signed, QUERY's reserved bits 0), a read of either word returns that
//     value's word, and the block's output of that register carries it; so a write to any other
//     address (read-only, write-only, unmapped or another register) leaves it unchanged;
//   - the axis table's outputs change only after a write into the table's range;
//   - CONTROL: START pulses exactly the clock after a CONTROL write with START (strobe 0) while
//     IDLE and LOADED, LOAD exactly after one with LOAD while IDLE; DONE (irq_o) rises only with a
//     query or load done, and a CLEAR without one clears it; LOADED rises only with a load done OK.
module kdopcd_v2_regs_props #(
  parameter int K               = 6,
  parameter int B               = 2,
  parameter int C               = 2,
  parameter int Z               = 2,
  parameter int V               = 2,
  parameter int M               = 2,
  parameter int W               = 64,
  parameter int ADDR_W          = 16,
  parameter int NODE_AW         = 3,
  parameter int TRI_AW          = 3,
  parameter int PENDING_DEPTH   = 8,
  parameter int PAIRS_IN_FLIGHT = 2,
  parameter int RAM_LAT         = 2,
  parameter int TRI_II          = 1,
  parameter int TRI_LAT         = 2,
  parameter int TRI_QUEUE       = 2,
  parameter int CONTACT_QUEUE   = 2,
  parameter int ENGINES         = 1,
  parameter int DMA_W           = 512,
  parameter int DESC_BUFFERS    = 3,
  parameter int RING_SLOTS      = 1024
) (
  input logic        clk_i,
  input logic        rst_ni,
  input logic        awvalid,
  input logic [11:0] awaddr,
  input logic        wvalid,
  input logic [31:0] wdata,
  input logic [3:0]  wstrb,
  input logic        bready,
  input logic        arvalid,
  input logic [11:0] araddr,
  input logic        rready,
  input logic        busy_i,
  input logic        idle_i,
  input logic        query_done_i,
  input logic        overflow_i,
  input logic        load_done_i,
  input logic        load_ok_i,
  input logic        load_error_i,
  input logic        bus_error_i,
  input logic [kdopcd_v2_pkg::NUM_COUNTERS*64-1:0] counters_i,
  input logic [31:0] queue_head_i,
  input logic [31:0] queue_done_i
);
  localparam int NCNT   = kdopcd_v2_pkg::NUM_COUNTERS;
  localparam int RotW   = M + 2;
  localparam int TransW = V + M + 4;
  localparam int JW     = $clog2(K);
  localparam int NREG   = 24;  // the read-write registers, numbered as in reg_base below

  logic        awready, wready, bvalid, arready, rvalid;
  logic [1:0]  bresp, rresp;
  logic [31:0] rdata;
  logic        start, load, loaded, irq;
  logic [1:0]  rule;
  logic [23:0] limit;
  logic [2*ADDR_W-1:0] node_base, tri_base;
  logic [63:0] nodes, tris, queue_base;
  logic [31:0] doorbell;
  logic [9*RotW-1:0]   rot;
  logic [3*TransW-1:0] trans;
  logic [K*3*(C+1)-1:0] axis_pa, axis_pb;
  logic [K*(Z+4)-1:0]   axis_p;
  logic [K*3*JW-1:0]    axis_ja, axis_jb;

  kdopcd_v2_regs #(
    .K(K), .B(B), .C(C), .Z(Z), .V(V), .M(M), .W(W), .ADDR_W(ADDR_W), .NODE_AW(NODE_AW),
    .TRI_AW(TRI_AW), .PENDING_DEPTH(PENDING_DEPTH), .PAIRS_IN_FLIGHT(PAIRS_IN_FLIGHT),
    .RAM_LAT(RAM_LAT), .TRI_II(TRI_II), .TRI_LAT(TRI_LAT), .TRI_QUEUE(TRI_QUEUE),
    .CONTACT_QUEUE(CONTACT_QUEUE), .ENGINES(ENGINES), .DMA_W(DMA_W), .DESC_BUFFERS(DESC_BUFFERS),
    .RING_SLOTS(RING_SLOTS)
  ) u_regs (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i(awvalid), .s_axil_awready_o(awready), .s_axil_awaddr_i(awaddr),
    .s_axil_wvalid_i(wvalid), .s_axil_wready_o(wready), .s_axil_wdata_i(wdata), .s_axil_wstrb_i(wstrb),
    .s_axil_bvalid_o(bvalid), .s_axil_bready_i(bready), .s_axil_bresp_o(bresp),
    .s_axil_arvalid_i(arvalid), .s_axil_arready_o(arready), .s_axil_araddr_i(araddr),
    .s_axil_rvalid_o(rvalid), .s_axil_rready_i(rready), .s_axil_rdata_o(rdata), .s_axil_rresp_o(rresp),
    .start_o(start), .load_o(load), .rule_o(rule), .pending_limit_o(limit),
    .node_base_o(node_base), .tri_base_o(tri_base), .nodes_o(nodes), .tris_o(tris),
    .rot_o(rot), .trans_o(trans),
    .axis_pa_o(axis_pa), .axis_pb_o(axis_pb), .axis_p_o(axis_p), .axis_ja_o(axis_ja), .axis_jb_o(axis_jb),
    .busy_i, .idle_i, .query_done_i, .overflow_i, .load_done_i, .load_ok_i, .load_error_i,
    .bus_error_i, .counters_i,
    .queue_base_o(queue_base), .doorbell_o(doorbell), .queue_head_i, .queue_done_i,
    .loaded_o(loaded), .irq_o(irq)
  );

  // probes: the QUERY register (its AXES field is read back only, not an output) and the base
  // registers (64 bits, of which the outputs show ADDR_W): the induction needs the bits the
  // outputs do not show (QUERY's reserved bits, the bases' bits above ADDR_W) to be 0
  logic [31:0] p_query;
  logic [63:0] p_base0, p_base1, p_base2, p_base3;

  // ---------------------------------------------------------------- the register map (contract)
  function automatic logic [9:0] word(input logic [11:0] offset);
    word = 10'(offset >> 2);
  endfunction
  localparam logic [9:0] WQuery = word(kdopcd_v2_pkg::REG_QUERY);
  localparam logic [9:0] WLimit = word(kdopcd_v2_pkg::REG_PENDING_LIMIT);
  localparam logic [9:0] WRot   = word(kdopcd_v2_pkg::REG_ROT);
  localparam logic [9:0] WTrans = word(kdopcd_v2_pkg::REG_TRANS);
  localparam logic [9:0] WQbase = word(kdopcd_v2_pkg::REG_QUEUE_BASE);
  localparam logic [9:0] WBell  = word(kdopcd_v2_pkg::REG_DOORBELL);
  localparam logic [9:0] WCnt   = word(kdopcd_v2_pkg::REG_COUNTERS);
  localparam logic [9:0] WAxis  = word(kdopcd_v2_pkg::REG_AXIS_TABLE);
  localparam logic [9:0] WCtrl  = word(kdopcd_v2_pkg::REG_CONTROL);
  localparam int AxisEnd = 32'(WAxis) + K * kdopcd_v2_pkg::AXIS_ENTRY_BYTES / 4;

  // Read-write register s: its first word, its words (1 or 2), its width, signed or not.
  function automatic logic [9:0] reg_base(input int s);
    if (s == 0)       reg_base = WQuery;
    else if (s == 1)  reg_base = WLimit;
    else if (s == 2)  reg_base = word(kdopcd_v2_pkg::REG_A_NODE_BASE);
    else if (s == 3)  reg_base = word(kdopcd_v2_pkg::REG_A_TRI_BASE);
    else if (s == 4)  reg_base = word(kdopcd_v2_pkg::REG_B_NODE_BASE);
    else if (s == 5)  reg_base = word(kdopcd_v2_pkg::REG_B_TRI_BASE);
    else if (s < 15)  reg_base = WRot + 10'(s - 6);
    else if (s < 18)  reg_base = WTrans + 10'(2 * (s - 15));
    else if (s == 18) reg_base = word(kdopcd_v2_pkg::REG_A_NODES);
    else if (s == 19) reg_base = word(kdopcd_v2_pkg::REG_A_TRIS);
    else if (s == 20) reg_base = word(kdopcd_v2_pkg::REG_B_NODES);
    else if (s == 21) reg_base = word(kdopcd_v2_pkg::REG_B_TRIS);
    else if (s == 22) reg_base = WQbase;
    else              reg_base = WBell;
  endfunction
  function automatic logic reg_two_words(input int s);
    reg_two_words = (s >= 2 && s < 6) || (s >= 15 && s < 18) || s == 22;
  endfunction
  function automatic int reg_width(input int s);
    if (s == 0)       reg_width = 10;      // QUERY: rule and axes; the reserved bits stay 0
    else if (s == 1)  reg_width = 24;
    else if (s < 6)   reg_width = ADDR_W;
    else if (s < 15)  reg_width = RotW;
    else if (s < 18)  reg_width = TransW;
    else if (s == 22) reg_width = 64;
    else              reg_width = 32;
  endfunction
  function automatic logic reg_signed(input int s);
    reg_signed = s >= 6 && s < 18;
  endfunction
  // A register's value as the bus sees it: truncated to its width, then extended to 64 bits.
  // (Masks as constants per register: a shift by a width the solver chooses costs it minutes.)
  function automatic logic [63:0] norm(input logic [63:0] v, input int s);
    norm = v;
    for (int r = 0; r < NREG; r++) begin
      if (s == r) begin
        norm = reg_width(r) >= 64 ? v : (v & ((64'd1 << reg_width(r)) - 64'd1));
        if (reg_width(r) < 64 && reg_signed(r) && v[reg_width(r) - 1])
          norm = norm | ~((64'd1 << reg_width(r)) - 64'd1);
      end
    end
  endfunction
  function automatic logic [31:0] merge(input logic [31:0] old_word, input logic [31:0] data,
                                        input logic [3:0] strb);
    for (int b = 0; b < 4; b++) merge[8*b +: 8] = strb[b] ? data[8*b +: 8] : old_word[8*b +: 8];
  endfunction

  // The chosen register, and the block's output of it.
  (* anyconst *) logic [4:0] f_sel;
  logic [63:0] f_out;
  always_comb begin
    f_out = '0;
    if (32'(f_sel) == 0)       f_out = 64'(p_query[9:0]);
    else if (32'(f_sel) == 1)  f_out = 64'(limit);
    else if (32'(f_sel) == 2)  f_out = 64'(node_base[0 +: ADDR_W]);
    else if (32'(f_sel) == 3)  f_out = 64'(tri_base[0 +: ADDR_W]);
    else if (32'(f_sel) == 4)  f_out = 64'(node_base[ADDR_W +: ADDR_W]);
    else if (32'(f_sel) == 5)  f_out = 64'(tri_base[ADDR_W +: ADDR_W]);
    else if (32'(f_sel) < 15)  f_out = 64'($signed(rot[(32'(f_sel) - 6) * RotW +: RotW]));
    else if (32'(f_sel) < 18)  f_out = 64'($signed(trans[(32'(f_sel) - 15) * TransW +: TransW]));
    else if (32'(f_sel) == 18) f_out = 64'(nodes[31:0]);
    else if (32'(f_sel) == 19) f_out = 64'(tris[31:0]);
    else if (32'(f_sel) == 20) f_out = 64'(nodes[63:32]);
    else if (32'(f_sel) == 21) f_out = 64'(tris[63:32]);
    else if (32'(f_sel) == 22) f_out = queue_base;
    else              f_out = 64'(doorbell);
  end

  // ---------------------------------------------------------------- environment
  logic past_valid_q;
  initial past_valid_q = 1'b0;
  initial assume (!rst_ni);
  always_ff @(posedge clk_i) past_valid_q <= rst_ni;  // the clock before was out of reset
  always_comb assume (32'(f_sel) < NREG);

  // the master's rules (kdopcd_axil_checker's AW, W, AR assertions), as assumptions
  logic        aw_stall_q, w_stall_q, ar_stall_q;
  logic [11:0] awaddr_q, araddr_q;
  logic [31:0] wdata_q;
  logic [3:0]  wstrb_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_stall_q <= 1'b0;
      w_stall_q  <= 1'b0;
      ar_stall_q <= 1'b0;
    end else begin
      aw_stall_q <= awvalid && !awready;
      w_stall_q  <= wvalid && !wready;
      ar_stall_q <= arvalid && !arready;
    end
  end
  always_ff @(posedge clk_i) begin
    awaddr_q <= awaddr;
    araddr_q <= araddr;
    wdata_q  <= wdata;
    wstrb_q  <= wstrb;
  end
  always_comb begin
    if (rst_ni && aw_stall_q) assume (awvalid && awaddr == awaddr_q);
    if (rst_ni && w_stall_q)  assume (wvalid && wdata == wdata_q && wstrb == wstrb_q);
    if (rst_ni && ar_stall_q) assume (arvalid && araddr == araddr_q);
  end

  // ---------------------------------------------------------------- reference models
  logic aw_hs, w_hs, ar_hs, b_hs, r_hs, wr;
  logic [9:0] wa, ra;
  assign aw_hs = awvalid && awready;
  assign w_hs  = wvalid && wready;
  assign ar_hs = arvalid && arready;
  assign b_hs  = bvalid && bready;
  assign r_hs  = rvalid && rready;
  assign wr    = aw_hs && w_hs;
  assign wa    = awaddr[11:2];
  assign ra    = araddr[11:2];

  // requests taken and not answered
  logic wpend_q, rpend_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wpend_q <= 1'b0;
      rpend_q <= 1'b0;
    end else begin
      wpend_q <= wr || (wpend_q && !b_hs);
      rpend_q <= ar_hs || (rpend_q && !r_hs);
    end
  end

  // The chosen register's value, from the writes to its words.
  logic [63:0] f_val_q, f_val_d;
  logic [9:0]  f_base;
  logic        f_two;
  assign f_base = reg_base(32'(f_sel));
  assign f_two  = reg_two_words(32'(f_sel));
  always_comb begin
    f_val_d = f_val_q;
    if (wr && wa == f_base)
      f_val_d = norm({f_val_q[63:32], merge(f_val_q[31:0], wdata, wstrb)}, 32'(f_sel));
    if (wr && f_two && wa == f_base + 10'd1)
      f_val_d = norm({merge(f_val_q[63:32], wdata, wstrb), f_val_q[31:0]}, 32'(f_sel));
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_val_q <= '0;
    else         f_val_q <= f_val_d;
  end

  // What a read of word ra returns (compared where rd_mask is set), taken when AR is accepted.
  logic [31:0] rd_exp, rd_mask, exp_q, mask_q;
  always_comb begin
    rd_exp  = '0;
    rd_mask = '1;
    if (ra == word(kdopcd_v2_pkg::REG_ID))           rd_exp = kdopcd_v2_pkg::ID_VALUE;
    else if (ra == word(kdopcd_v2_pkg::REG_CONFIG0)) rd_exp = kdopcd_v2_pkg::config0_value(K, B, C, Z);
    else if (ra == word(kdopcd_v2_pkg::REG_CONFIG1)) rd_exp = kdopcd_v2_pkg::config1_value(V, M, W);
    else if (ra == word(kdopcd_v2_pkg::REG_CONFIG2))
      rd_exp = kdopcd_v2_pkg::config2_value(PAIRS_IN_FLIGHT, RAM_LAT, TRI_II, TRI_LAT);
    else if (ra == word(kdopcd_v2_pkg::REG_CONFIG3))
      rd_exp = kdopcd_v2_pkg::config3_value(NODE_AW, TRI_AW, PENDING_DEPTH);
    else if (ra == word(kdopcd_v2_pkg::REG_CONFIG4))
      rd_exp = kdopcd_v2_pkg::config4_value(TRI_QUEUE, CONTACT_QUEUE);
    else if (ra == word(kdopcd_v2_pkg::REG_CONFIG5))
      rd_exp = kdopcd_v2_pkg::config5_value(ENGINES, DMA_W, DESC_BUFFERS, RING_SLOTS);
    else if (ra == word(kdopcd_v2_pkg::REG_STATUS)) begin
      // the sticky error flags (OVERFLOW, BUS_ERROR, LOAD_ERROR) are not modelled
      rd_exp[kdopcd_v2_pkg::STAT_BUSY]   = busy_i;
      rd_exp[kdopcd_v2_pkg::STAT_DONE]   = irq;
      rd_exp[kdopcd_v2_pkg::STAT_IDLE]   = idle_i;
      rd_exp[kdopcd_v2_pkg::STAT_LOADED] = loaded;
      rd_mask[kdopcd_v2_pkg::STAT_OVERFLOW]   = 1'b0;
      rd_mask[kdopcd_v2_pkg::STAT_BUS_ERROR]  = 1'b0;
      rd_mask[kdopcd_v2_pkg::STAT_LOAD_ERROR] = 1'b0;
    end
    else if (ra == word(kdopcd_v2_pkg::REG_QUEUE_HEAD)) rd_exp = queue_head_i;
    else if (ra == word(kdopcd_v2_pkg::REG_QUEUE_DONE)) rd_exp = queue_done_i;
    else if (ra >= WCnt && 32'(ra) < 32'(WCnt) + 2 * NCNT) begin
      for (int i = 0; i < 2 * NCNT; i++)
        if (32'(ra) == 32'(WCnt) + i) rd_exp = counters_i[32 * i +: 32];
    end
    else if (ra == f_base)                             rd_exp = f_val_q[31:0];
    else if (f_two && ra == f_base + 10'd1)            rd_exp = f_val_q[63:32];
    // the other read-write registers: not this register's business
    else if ((ra >= WQuery && ra < WQuery + 10'd25) || (ra >= word(kdopcd_v2_pkg::REG_A_NODES) && ra <= WBell))
      rd_mask = '0;
    // CONTROL (write-only), the axis table (write-only) and every unmapped word: 0
  end
  always_ff @(posedge clk_i) begin
    if (ar_hs) begin
      exp_q  <= rd_exp;
      mask_q <= rd_mask;
    end
  end

  // Past values for the one-clock properties.
  logic        wr_q, ctrl_start_q, ctrl_load_q, ctrl_clear_q, qdone_q, ldone_q, ldone_ok_q;
  logic        irq_q, loaded_q, bstall_q, rstall_q, axis_wr_q;
  logic [1:0]  bresp_q, rresp_q;
  logic [31:0] rdata_q;
  logic [K*3*(C+1)-1:0] axis_pa_q, axis_pb_q;
  logic [K*(Z+4)-1:0]   axis_p_q;
  logic [K*3*JW-1:0]    axis_ja_q, axis_jb_q;
  always_ff @(posedge clk_i) begin
    ctrl_start_q <= wr && wa == WCtrl && wstrb[0] && wdata[kdopcd_v2_pkg::CTRL_START] && idle_i && loaded;
    ctrl_load_q  <= wr && wa == WCtrl && wstrb[0] && wdata[kdopcd_v2_pkg::CTRL_LOAD] && idle_i;
    ctrl_clear_q <= wr && wa == WCtrl && wstrb[0] && wdata[kdopcd_v2_pkg::CTRL_CLEAR];
    qdone_q      <= query_done_i;
    ldone_q      <= load_done_i;
    ldone_ok_q   <= load_done_i && load_ok_i;
    irq_q        <= irq;
    loaded_q     <= loaded;
    bstall_q     <= bvalid && !bready;
    rstall_q     <= rvalid && !rready;
    bresp_q      <= bresp;
    rresp_q      <= rresp;
    rdata_q      <= rdata;
    axis_wr_q    <= wr && wa >= WAxis && 32'(wa) < AxisEnd;
    axis_pa_q    <= axis_pa;
    axis_pb_q    <= axis_pb;
    axis_p_q     <= axis_p;
    axis_ja_q    <= axis_ja;
    axis_jb_q    <= axis_jb;
  end

  // ---------------------------------------------------------------- properties
  always_comb begin
    if (rst_ni) begin
      // AXI4-Lite: AW and W together; one response per request; OKAY
      assert (aw_hs == w_hs);
      assert (bvalid == wpend_q);
      assert (rvalid == rpend_q);
      assert (bresp == 2'b00 && rresp == 2'b00);
      // the chosen register holds what was written, and the block drives it
      assert (f_out == f_val_q);
      assert (p_query[31:10] == '0);
      if (ADDR_W < 64)
        assert (p_base0[63:ADDR_W] == '0 && p_base1[63:ADDR_W] == '0 && p_base2[63:ADDR_W] == '0 &&
                p_base3[63:ADDR_W] == '0);
      // a read returns its word
      if (rvalid) assert ((rdata & mask_q) == (exp_q & mask_q));
    end
    if (rst_ni && past_valid_q) begin
      // the checker's rules on B and R
      if (bstall_q) assert (bvalid && bresp == bresp_q);
      if (rstall_q) assert (rvalid && rdata == rdata_q && rresp == rresp_q);
      // the axis table changes only where written
      if (!axis_wr_q)
        assert (axis_pa == axis_pa_q && axis_pb == axis_pb_q && axis_p == axis_p_q &&
                axis_ja == axis_ja_q && axis_jb == axis_jb_q);
      // CONTROL and the flags
      assert (start == ctrl_start_q);
      assert (load == ctrl_load_q);
      if (irq && !irq_q) assert (qdone_q || ldone_q);
      if (ctrl_clear_q && !qdone_q && !ldone_q) assert (!irq);
      if (loaded && !loaded_q) assert (ldone_ok_q);
    end
  end
endmodule
