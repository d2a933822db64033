// Formal-only: the command queue's write-back of the v2 top (kdopcd_v2_wdma: contacts and
// completion records on the DMA port's AW/W/B channels; docs/formal.md §5). Read by Yosys with
// `read_verilog -formal`; yosys-smtbmc checks the assertions (scripts/formal_rtl.py connects the
// probes after flattening).
//
// Environment, as the top drives the block: reset low in the first clock; a query starts on an
// engine only while room_o and the engine runs no query; done_i only for an engine that runs one
// (then it runs none); contacts only from an engine that runs a query, not in its done_i clock;
// the contact buffer and the completion record beat-aligned (the descriptor contract).
// The slave: AWREADY, WREADY, BVALID, BRESP free in every clock, so it may take a burst's W beats
// before, with or after its AW (AXI4 allows each) and hold AWREADY low for any time.
// Properties:
//   - AXI4 write master: AWVALID held until AWREADY, the AW payload stable while stalled, INCR
//     bursts of full-width beats, no burst across a 4 KiB boundary (the read masters' rules module,
//     kdopcd_axi_ar_props, on the AW channel); WVALID held until WREADY, W payload and WLAST
//     stable while stalled;
//   - the bursts pair up: the n-th W burst (its beats up to WLAST; n chosen by the solver) has
//     exactly AWLEN + 1 beats of the n-th AW taken;
//   - no AW is lost: while more W bursts have begun than AWs were taken, AWVALID is high (so the
//     AW of every burst whose beats went is offered, and held, until the slave takes it); neither
//     channel runs more than DEPTH bursts ahead of the other;
//   - neither queue overflows: the beat FIFO's and the AW queue's counts never pass DEPTH.
module kdopcd_v2_wdma_props #(
  parameter int DMA_W            = 512,
  parameter int ENGINES          = 1,
  parameter int DEPTH            = 4
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic [ENGINES-1:0]        start_i,
  input logic [63:0]               tag_i,
  input logic [63:0]               contact_base_i,
  input logic [31:0]               contact_capacity_i,
  input logic [63:0]               completion_base_i,
  input logic                      desc_error_i,
  input logic [ENGINES-1:0]        contact_valid_i,
  input logic [ENGINES*64-1:0]     contact_i,
  input logic [ENGINES-1:0]        done_i,
  input logic [ENGINES-1:0]        overflow_i,
  input logic [ENGINES*kdopcd_v2_pkg::NUM_COUNTERS*64-1:0] counters_i,
  input logic                      awready,
  input logic                      wready,
  input logic                      bvalid,
  input logic [1:0]                bresp
);
  localparam int Bytes = DMA_W / 8;
  localparam int QW    = $clog2(DEPTH);

  logic [ENGINES-1:0] contact_ready;
  logic               room;
  logic [31:0]        completions;
  logic               awvalid, wvalid, wlast, bready;
  logic [63:0]        awaddr;
  logic [7:0]         awlen;
  logic [2:0]         awsize;
  logic [1:0]         awburst;
  logic [DMA_W-1:0]   wdata;
  logic [Bytes-1:0]   wstrb;

  kdopcd_v2_wdma #(.DMA_W(DMA_W), .ENGINES(ENGINES), .DEPTH(DEPTH)) u_wdma (
    .clk_i, .rst_ni, .start_i, .tag_i, .contact_base_i, .contact_capacity_i, .completion_base_i,
    .desc_error_i, .contact_valid_i, .contact_ready_o(contact_ready), .contact_i, .done_i, .overflow_i,
    .counters_i, .room_o(room), .completions_o(completions),
    .m_axi_awvalid_o(awvalid), .m_axi_awready_i(awready), .m_axi_awaddr_o(awaddr),
    .m_axi_awlen_o(awlen), .m_axi_awsize_o(awsize), .m_axi_awburst_o(awburst),
    .m_axi_wvalid_o(wvalid), .m_axi_wready_i(wready), .m_axi_wdata_o(wdata), .m_axi_wstrb_o(wstrb),
    .m_axi_wlast_o(wlast), .m_axi_bvalid_i(bvalid), .m_axi_bready_o(bready), .m_axi_bresp_i(bresp)
  );

  // probes: the beat FIFO's count, the AW queue's count, the bursts queued in this clock
  logic [QW:0]  p_count;
  logic [QW:0]  p_aw_count;

  // ---------------------------------------------------------------- environment
  logic past_valid_q;
  initial past_valid_q = 1'b0;
  initial assume (!rst_ni);
  always_ff @(posedge clk_i) past_valid_q <= rst_ni;

  logic [ENGINES-1:0] running_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) running_q <= '0;
    else         running_q <= (running_q | start_i) & ~done_i;
  end
  always_comb begin
    if (rst_ni) begin
      for (int e = 0; e < ENGINES; e++) begin
        if (start_i[e]) assume (room && !running_q[e] && !done_i[e] && !contact_valid_i[e]);
        if (start_i[e]) assume (contact_base_i % Bytes == 0 && completion_base_i % Bytes == 0);
        if (done_i[e]) assume (running_q[e] && !contact_valid_i[e]);
        if (contact_valid_i[e]) assume (running_q[e]);
      end
    end
  end

  // ---------------------------------------------------------------- reference models
  // W beats of the current burst; W bursts begun (first beat taken) and AWs taken; the n-th AW's
  // AWLEN and the n-th W burst's beats - 1, for the n the solver chooses.
  localparam int CW = 6;
  logic [7:0]    wbeat_q;
  logic [CW-1:0] w_bursts_q, aw_taken_q;
  logic          aw_hs, w_hs;
  (* anyconst *) logic [CW-1:0] watch_n;
  logic          got_aw_q, got_w_q;
  logic [7:0]    aw_len_n_q, w_len_n_q;
  assign aw_hs = awvalid && awready;
  assign w_hs  = wvalid && wready;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wbeat_q    <= '0;
      w_bursts_q <= '0;
      aw_taken_q <= '0;
      got_aw_q   <= 1'b0;
      got_w_q    <= 1'b0;
      aw_len_n_q <= '0;
      w_len_n_q  <= '0;
    end else begin
      if (w_hs) begin
        wbeat_q <= wlast ? 8'd0 : wbeat_q + 8'd1;
        if (wbeat_q == '0) w_bursts_q <= w_bursts_q + 1'b1;
        // the n-th W burst ends (it began as burst w_bursts_q - 1, or now)
        if (wlast && (wbeat_q == '0 ? w_bursts_q : w_bursts_q - 1'b1) == watch_n) begin
          got_w_q   <= 1'b1;
          w_len_n_q <= wbeat_q;
        end
      end
      if (aw_hs) begin
        aw_taken_q <= aw_taken_q + 1'b1;
        if (aw_taken_q == watch_n) begin
          got_aw_q   <= 1'b1;
          aw_len_n_q <= awlen;
        end
      end
    end
  end

  // The AW channel's master rules: those of an AR channel (stable while stalled, INCR full-width
  // bursts, none across 4 KiB).
  kdopcd_axi_ar_props #(.ADDR_W(64), .BYTES(Bytes)) u_aw_rules (
    .clk_i, .rst_ni, .arvalid(awvalid), .arready(awready), .araddr(awaddr), .arlen(awlen), .arsize(awsize),
    .arburst(awburst)
  );

  // past values of W
  logic             w_stall_q;
  logic [DMA_W-1:0] wdata_q;
  logic [Bytes-1:0] wstrb_q;
  logic             wlast_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) w_stall_q <= 1'b0;
    else         w_stall_q <= wvalid && !wready;
  end
  always_ff @(posedge clk_i) begin
    wdata_q   <= wdata;
    wstrb_q   <= wstrb;
    wlast_q   <= wlast;
  end

  // ---------------------------------------------------------------- properties
  always_comb begin
    if (rst_ni) begin
      if (w_stall_q) assert (wvalid && wdata == wdata_q && wstrb == wstrb_q && wlast == wlast_q);
      // the n-th W burst has the n-th AW's AWLEN + 1 beats
      if (got_aw_q && got_w_q) assert (w_len_n_q == aw_len_n_q);
      // no AW lost: an AW owed for a W burst begun is offered (held by the rule above)
      if (w_bursts_q > aw_taken_q) assert (awvalid);
      // neither channel more than DEPTH bursts ahead of the other (the counts do not wrap at
      // the proof's depth)
      assert (32'(w_bursts_q) <= 32'(aw_taken_q) + DEPTH && 32'(aw_taken_q) <= 32'(w_bursts_q) + DEPTH);
      assert (bready);
      // the beat FIFO and the AW queue
      assert (32'(p_count) <= DEPTH);
      assert (32'(p_aw_count) <= DEPTH);
    end
  end
endmodule
