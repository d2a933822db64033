// Formal-only: the command queue's write-back of the v2 top (kdopcd_v2_wdma: contacts and
// completion records on the DMA port's AW/W/B channels; docs/formal.md §5). Read by Yosys with
// `read_verilog -formal`; yosys-smtbmc checks the assertions (scripts/formal_rtl.py connects the
// probe after flattening).
//
// Environment, as the top drives the block: reset low in the first clock; a query starts on an
// engine only while room_o and the engine runs no query; done_i only for an engine that runs one
// (then it runs none); contacts only from an engine that runs a query, not in its done_i clock.
// The slave: AWREADY, WREADY, BVALID, BRESP free, except (SLAVE_W_AFTER_AW = 1) that a burst's
// first W beat is taken only with or after its AW (see docs/formal.md §5: with 0 the proof
// fails, the block drops the AW of a burst whose first beat went first).
// Properties:
//   - AXI4 write master: AWVALID held until AWREADY, the AW payload stable while stalled, INCR
//     bursts of full-width beats; WVALID held until WREADY, W payload and WLAST stable while
//     stalled; every burst has exactly AWLEN + 1 W beats, WLAST on the last; the W bursts and the
//     AW handshakes pair up (an AW is never more than one burst ahead of its W beats);
//   - the beat FIFO never overflows: its count never passes DEPTH.
module kdopcd_v2_wdma_props #(
  parameter int DMA_W            = 512,
  parameter int ENGINES          = 1,
  parameter int DEPTH            = 4,
  parameter int SLAVE_W_AFTER_AW = 1
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

  // probes: the FIFO's count, whether the AW of the head burst was taken
  logic [QW:0] p_count;
  logic        p_aw_done;

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
        if (done_i[e]) assume (running_q[e] && !contact_valid_i[e]);
        if (contact_valid_i[e]) assume (running_q[e]);
      end
      // (awvalid: the head is a burst's first beat whose AW was not taken)
      if (SLAVE_W_AFTER_AW != 0) assume (!(wvalid && wready && awvalid && !awready));
    end
  end

  // ---------------------------------------------------------------- reference models
  // W beats of the current burst, its AWLEN (from the AW offered with its first beat), and the
  // AW handshakes less the W bursts complete.
  logic [7:0] wbeat_q, len_q, cur_len;
  logic       aw_hs, w_hs;
  logic [2:0] aw_ahead_q;
  assign aw_hs   = awvalid && awready;
  assign w_hs    = wvalid && wready;
  assign cur_len = wbeat_q == '0 ? awlen : len_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wbeat_q    <= '0;
      len_q      <= '0;
      aw_ahead_q <= '0;
    end else begin
      if (w_hs) begin
        wbeat_q <= wlast ? 8'd0 : wbeat_q + 8'd1;
        if (wbeat_q == '0) len_q <= awlen;
      end
      aw_ahead_q <= aw_ahead_q + 3'(aw_hs) - 3'(w_hs && wlast);
    end
  end

  // past values
  logic             aw_stall_q, w_stall_q;
  logic [63:0]      awaddr_q;
  logic [7:0]       awlen_q;
  logic [2:0]       awsize_q;
  logic [1:0]       awburst_q;
  logic [DMA_W-1:0] wdata_q;
  logic [Bytes-1:0] wstrb_q;
  logic             wlast_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_stall_q <= 1'b0;
      w_stall_q  <= 1'b0;
    end else begin
      aw_stall_q <= awvalid && !awready;
      w_stall_q  <= wvalid && !wready;
    end
  end
  always_ff @(posedge clk_i) begin
    awaddr_q  <= awaddr;
    awlen_q   <= awlen;
    awsize_q  <= awsize;
    awburst_q <= awburst;
    wdata_q   <= wdata;
    wstrb_q   <= wstrb;
    wlast_q   <= wlast;
  end

  // ---------------------------------------------------------------- properties
  always_comb begin
    if (rst_ni) begin
      if (aw_stall_q)
        assert (awvalid && awaddr == awaddr_q && awlen == awlen_q && awsize == awsize_q && awburst == awburst_q);
      if (w_stall_q) assert (wvalid && wdata == wdata_q && wstrb == wstrb_q && wlast == wlast_q);
      if (awvalid) assert (awburst == 2'b01 && 32'(awsize) == $clog2(Bytes));
      // a burst's first beat is offered with its AW (or after it was taken)
      if (wvalid && wbeat_q == '0) assert (awvalid || p_aw_done);
      if (w_hs) assert (wlast == (wbeat_q == cur_len));
      // AW and W bursts pair up
      assert (aw_ahead_q <= 3'd1);
      assert (aw_ahead_q == 3'(p_aw_done));
      assert (bready);
      // the FIFO
      assert (32'(p_count) <= DEPTH);
    end
  end
endmodule
