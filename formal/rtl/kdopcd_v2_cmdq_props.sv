// Formal-only: the command queue's front end of the v2 top (kdopcd_v2_cmdq: the descriptor reads
// on the DMA port's AR/R channels, the descriptor buffers, the dispatch to the engines;
// docs/formal.md §5). Read by Yosys with `read_verilog -formal`; yosys-smtbmc checks the
// assertions (scripts/formal_rtl.py connects the probes after flattening).
//
// Environment: reset low in the first clock; the memory (the AXI4 read slave) keeps the rules
// rtl/verif/kdopcd_axi_read_checker.sv asserts on the slave's side: RVALID only while a burst is
// outstanding, RLAST exactly on a burst's last beat (ARLEN + 1 beats; RREADY is always high, so
// there is no stall); ARREADY, RRESP, RDATA, the doorbell, the engines' idle flags and the
// blocking are free; QUEUE_BASE is SLOT_BYTES-aligned (the contract); an engine's release
// (the clock after its DONE) comes only while a queued query holds it (the top: done & holds).
// Properties:
//   - AXI4 read master (the checker's rules): ARVALID held until ARREADY, the AR payload stable
//     while stalled, ARLEN = the descriptor's beats - 1 < 256, INCR bursts of full-width beats,
//     no burst across a 4 KiB boundary;
//   - the queue's counters: the descriptors queued (requested, not dispatched) never exceed the
//     buffers, those READY never exceed those queued, queued - READY is exactly the reads
//     requested and not complete; the buffers' states add up (FETCH = queued - READY, READY,
//     RUN = the engines held); QUEUE_HEAD counts exactly the reads complete;
//   - dispatch: at most one engine per clock, an idle one not held by another query, only while a
//     descriptor is READY; the n-th dispatch (an n the solver chooses) takes the buffer of the
//     n-th read requested: first fetched, first dispatched, none skipped or taken twice.
module kdopcd_v2_cmdq_props #(
  parameter int K            = 6,
  parameter int C            = 2,
  parameter int Z            = 2,
  parameter int V            = 2,
  parameter int M            = 2,
  parameter int ADDR_W       = 64,
  parameter int DMA_W        = 512,
  parameter int DESC_BUFFERS = 2,
  parameter int RING_SLOTS   = 4,
  parameter int ENGINES      = 2
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic [ADDR_W-1:0]    queue_base_i,
  input logic [31:0]          tail_i,
  input logic                 arready,
  input logic                 rvalid,
  input logic [DMA_W-1:0]     rdata,
  input logic [1:0]           rresp,
  input logic                 rlast,
  input logic [ENGINES-1:0]   engine_idle_i,
  input logic                 blocked_i,
  input logic [ENGINES-1:0]   release_i
);
  localparam int NB    = DESC_BUFFERS;
  localparam int PW    = NB > 1 ? $clog2(NB) : 1;
  localparam int OW2   = $clog2(NB + 1);
  localparam int Beats = kdopcd_v2_pkg::desc_beats(K, DMA_W);
  localparam int Bytes = DMA_W / 8;
  localparam int CNT_W = 6;  // the wrapper's event counters (BMC depths stay below 2^6)

  logic               arvalid, rready;
  logic [ADDR_W-1:0]  araddr;
  logic [7:0]         arlen;
  logic [2:0]         arsize;
  logic [1:0]         arburst;
  logic [31:0]        head;
  logic [ENGINES-1:0] start, holds;

  kdopcd_v2_cmdq #(
    .K(K), .C(C), .Z(Z), .V(V), .M(M), .ADDR_W(ADDR_W), .DMA_W(DMA_W), .DESC_BUFFERS(DESC_BUFFERS),
    .RING_SLOTS(RING_SLOTS), .ENGINES(ENGINES)
  ) u_cmdq (
    .clk_i, .rst_ni, .queue_base_i, .tail_i, .head_o(head),
    .m_axi_arvalid_o(arvalid), .m_axi_arready_i(arready), .m_axi_araddr_o(araddr),
    .m_axi_arlen_o(arlen), .m_axi_arsize_o(arsize), .m_axi_arburst_o(arburst),
    .m_axi_rvalid_i(rvalid), .m_axi_rready_o(rready), .m_axi_rdata_i(rdata),
    .m_axi_rresp_i(rresp), .m_axi_rlast_i(rlast),
    .engine_idle_i, .blocked_i, .start_o(start), .holds_o(holds), .release_i,
    .rule_o(), .pending_limit_o(), .rot_o(), .trans_o(), .axis_pa_o(), .axis_pb_o(), .axis_p_o(),
    .axis_ja_o(), .axis_jb_o(), .tag_o(), .contact_base_o(), .contact_capacity_o(),
    .completion_base_o(), .desc_error_o()
  );

  // probes (the queue's signals)
  logic [OW2-1:0] p_queued, p_ready;
  logic           p_issue;
  logic [PW-1:0]  p_free_slot, p_disp_slot;
  logic [1:0]     p_state0, p_state1, p_state2, p_state3;  // buffer b's state (up to 4 buffers)

  // ---------------------------------------------------------------- environment
  logic past_valid_q;
  initial past_valid_q = 1'b0;
  initial assume (!rst_ni);
  always_ff @(posedge clk_i) past_valid_q <= rst_ni;

  // the memory: bursts accepted and not complete, and the beats of the oldest one
  logic [CNT_W-1:0] out_q;
  logic [7:0]       beat_q;
  logic             ar_hs, last_hs;
  assign ar_hs   = arvalid && arready;
  assign last_hs = rvalid && rlast;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_q  <= '0;
      beat_q <= '0;
    end else begin
      out_q  <= out_q + CNT_W'(ar_hs) - CNT_W'(last_hs);
      beat_q <= rvalid ? (rlast ? 8'd0 : beat_q + 8'd1) : beat_q;
    end
  end
  always_comb begin
    if (rst_ni) begin
      if (rvalid) assume (out_q != '0);
      if (rvalid) assume (rlast == (32'(beat_q) == Beats - 1));
      assume (queue_base_i[$clog2(kdopcd_v2_pkg::slot_bytes())-1:0] == '0);
      for (int e = 0; e < ENGINES; e++)
        if (release_i[e]) assume (holds[e]);
    end
  end

  // ---------------------------------------------------------------- reference models
  // Reads requested, reads complete (mod 2^32, as QUEUE_HEAD), dispatches; the buffer of the
  // n-th read requested, for an n the solver chooses.
  logic [CNT_W-1:0] issued_q, disp_q;
  logic [31:0]      done_q;
  (* anyconst *) logic [CNT_W-1:0] watch_n;
  logic [PW-1:0]    watch_buf_q;
  logic             watch_seen_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      issued_q     <= '0;
      disp_q       <= '0;
      done_q       <= '0;
      watch_seen_q <= 1'b0;
    end else begin
      if (p_issue) begin
        issued_q <= issued_q + CNT_W'(1);
        if (issued_q == watch_n) begin
          watch_buf_q  <= p_free_slot;
          watch_seen_q <= 1'b1;
        end
      end
      if (start != '0) disp_q <= disp_q + CNT_W'(1);
      if (last_hs) done_q <= done_q + 32'd1;
    end
  end

  logic [OW2+1:0] n_fetch, n_ready, n_runst, n_run;
  logic [1:0]     st [4];
  assign st[0] = p_state0;
  assign st[1] = p_state1;
  assign st[2] = p_state2;
  assign st[3] = p_state3;
  always_comb begin
    n_fetch = '0;
    n_ready = '0;
    n_runst = '0;
    n_run   = '0;
    for (int b = 0; b < NB; b++) begin
      n_runst = n_runst + (OW2+2)'(st[b] == 2'd3);
      n_fetch = n_fetch + (OW2+2)'(st[b] == 2'd1);
      n_ready = n_ready + (OW2+2)'(st[b] == 2'd2);
    end
    for (int e = 0; e < ENGINES; e++) n_run = n_run + (OW2+2)'(holds[e]);
  end

  // ---------------------------------------------------------------- properties
  // AXI4 read master: the rules every read master keeps, and this one's burst length
  kdopcd_axi_ar_props #(.ADDR_W(ADDR_W), .BYTES(Bytes)) u_ar_rules (
    .clk_i, .rst_ni, .arvalid, .arready, .araddr, .arlen, .arsize, .arburst
  );
  always_comb begin
    if (rst_ni) begin
      if (arvalid) assert (32'(arlen) == Beats - 1 && Beats <= 256);
      assert (rready);
      // the counters
      assert (32'(p_queued) <= NB);
      assert (p_ready <= p_queued);
      assert ((CNT_W+1)'(p_queued - p_ready) == (CNT_W+1)'(out_q) + (CNT_W+1)'(arvalid));
      assert (n_fetch == (OW2+2)'(p_queued - p_ready));
      assert (n_ready == (OW2+2)'(p_ready));
      assert (n_runst == n_run);
      assert (head == done_q);
      // dispatch
      assert ((start & (start - 1'b1)) == '0);
      if (start != '0) assert (p_ready != '0);
      for (int e = 0; e < ENGINES; e++)
        if (start[e]) assert (engine_idle_i[e] && !blocked_i && (!holds[e] || release_i[e]));
      if (start != '0 && disp_q == watch_n) assert (watch_seen_q && p_disp_slot == watch_buf_q);
    end
  end
endmodule
