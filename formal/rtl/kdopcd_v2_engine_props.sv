// Formal-only: control properties of the v2 traversal engine (docs/formal.md §3), with the
// datapaths cut free. Read by Yosys with `read_verilog -formal`; yosys-smtbmc checks the
// assertions (scripts/formal_rtl.py, which also connects the probes to the engine's signals after
// flattening: Yosys 0.23 has no hierarchical references).
//
// Environment (what kdopcd_v2_top gives the engine, and nothing more):
//   - reset low in the first clock; START only while the engine is idle;
//   - the SAT unit answers each pair exactly SAT_LAT clocks after sat_valid_o; its verdicts
//     (separated, lanes, effective axes) are free;
//   - the triangle unit answers each test exactly TRI_LAT clocks after tri_valid_o, with the id it
//     was given; its hit bit is free;
//   - the node RAMs' link words are free (any tree, also a malformed one), and so are the stream's
//     tready, the descent rule and the pending limit.
// Properties:
//   - credits: the triangle and contact queues are never pushed when full nor popped when empty;
//     pairs in flight never exceed PAIRS_IN_FLIGHT nor underflow; the pending set never holds more
//     than its limit;
//   - the pending set's overflow flag rises exactly when a child would be lost: a reference count
//     of the entries (one at START, minus a pop, plus two per overlapping inner pair) passes the
//     limit taken at START;
//   - contacts: in every query that ends without overflow, the stream carries exactly the hits
//     the triangle unit reported in that query, each once and in the order reported (the n-th
//     beat carries the n-th hit, for an arbitrary n);
//   - the stream's AXI4-Stream rule: a beat offered is held, data unchanged, until taken.
module kdopcd_v2_engine_props #(
  parameter int K               = 6,
  parameter int NODE_AW         = 3,
  parameter int TRI_AW          = 3,
  parameter int PENDING_DEPTH   = 4,
  parameter int PAIRS_IN_FLIGHT = 2,
  parameter int RAM_LAT         = 2,
  parameter int TRI_II          = 2,
  parameter int TRI_LAT         = 3,
  parameter int TRI_QUEUE       = 2,
  parameter int CONTACT_QUEUE   = 2
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 start_i,
  input logic [1:0]           rule_i,
  input logic [$clog2(PENDING_DEPTH+1)-1:0] pending_limit_i,
  input logic [127:0]         node_link_i,
  input logic [K-1:0]         sat_lane_verdict_i,
  input logic                 sat_separated_i,
  input logic [$clog2(K+1)-1:0] sat_effective_i,
  input logic                 tri_hit_i,
  input logic                 m_axis_tready_i
);
  localparam int SAT_LAT = kdopcd_v2_pkg::sat_lat();
  localparam int PCW     = $clog2(PENDING_DEPTH + 1);
  localparam int NCNT    = kdopcd_v2_pkg::NUM_COUNTERS;
  localparam int CNT_W   = 8;  // the wrapper's event counters (BMC depths stay far below 2^8)

  logic [2*NODE_AW-1:0] node_raddr;
  logic [2*TRI_AW-1:0]  tri_raddr;
  logic                 sat_valid_o, sat_valid_i, tri_valid_o, tri_valid_i;
  logic [63:0]          tri_id_o, tri_id_i;
  logic                 tvalid, busy, idle, done, overflow;
  logic [63:0]          tdata;
  logic [NCNT*64-1:0]   counters;

  kdopcd_v2_engine #(
    .K(K), .NODE_AW(NODE_AW), .TRI_AW(TRI_AW), .PENDING_DEPTH(PENDING_DEPTH),
    .PAIRS_IN_FLIGHT(PAIRS_IN_FLIGHT), .RAM_LAT(RAM_LAT), .TRI_II(TRI_II), .TRI_LAT(TRI_LAT),
    .TRI_QUEUE(TRI_QUEUE), .CONTACT_QUEUE(CONTACT_QUEUE)
  ) u_engine (
    .clk_i, .rst_ni, .start_i, .rule_i, .pending_limit_i,
    .node_raddr_o(node_raddr), .node_link_i, .tri_raddr_o(tri_raddr),
    .sat_valid_o, .sat_valid_i, .sat_lane_verdict_i, .sat_separated_i, .sat_effective_i,
    .tri_valid_o, .tri_id_o, .tri_valid_i, .tri_hit_i, .tri_id_i,
    .m_axis_tvalid_o(tvalid), .m_axis_tready_i, .m_axis_tdata_o(tdata),
    .busy_o(busy), .idle_o(idle), .done_o(done), .overflow_o(overflow), .counters_o(counters)
  );

  // ---------------------------------------------------------------- the units, as delays
  logic [SAT_LAT-1:0] sat_pipe_q;
  logic [TRI_LAT-1:0] tri_pipe_q;
  logic [63:0]        tri_id_q [TRI_LAT];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sat_pipe_q <= '0;
      tri_pipe_q <= '0;
    end else begin
      sat_pipe_q <= {sat_pipe_q[SAT_LAT-2:0], sat_valid_o};
      tri_pipe_q <= {tri_pipe_q[TRI_LAT-2:0], tri_valid_o};
    end
  end
  always_ff @(posedge clk_i) begin
    tri_id_q[0] <= tri_id_o;
    for (int i = 1; i < TRI_LAT; i++) tri_id_q[i] <= tri_id_q[i-1];
  end
  assign sat_valid_i = sat_pipe_q[SAT_LAT-1];
  assign tri_valid_i = tri_pipe_q[TRI_LAT-1];
  assign tri_id_i    = tri_id_q[TRI_LAT-1];

  // ---------------------------------------------------------------- environment
  logic past_valid_q;
  initial past_valid_q = 1'b0;
  initial assume (!rst_ni);
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb begin
    if (rst_ni && start_i) assume (idle);
  end

  // ---------------------------------------------------------------- probes (engine signals)
  logic                          p_job_push, p_tri_start, p_cq_push, p_cq_pop, p_running;
  logic                          p_pend_push, p_pend_pop, p_pend_ovf;
  logic [$clog2(TRI_QUEUE+1)-1:0] p_tq_cnt;
  logic [$clog2(CONTACT_QUEUE+1)-1:0] p_cq_cnt;
  logic [$clog2(PAIRS_IN_FLIGHT+1)-1:0] p_flight;
  logic [PCW-1:0]                p_pend_cnt;

  // ---------------------------------------------------------------- reference models
  // The pending set's limit, taken at START as the register map defines it (0 or above the depth:
  // the depth), and a reference count of its entries: the overflow is where this count would pass
  // the limit.
  logic [PCW-1:0] limit_q;
  logic [PCW+1:0] ref_pend_q, ref_after_pop;
  logic           ref_would_lose;
  // Contacts: hits reported by the triangle unit and beats taken by the stream in this query; the
  // id of the n-th hit, for an n the solver chooses.
  logic [CNT_W-1:0] hits_q, beats_q;
  (* anyconst *) logic [CNT_W-1:0] watch_n;
  logic [63:0]      watch_id_q;
  logic             watch_seen_q, query_ovf_q;
  always_comb begin
    ref_after_pop  = ref_pend_q - (PCW+2)'(p_pend_pop);
    ref_would_lose = p_pend_push && ref_after_pop + (PCW+2)'(2) > (PCW+2)'(limit_q);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      limit_q      <= '0;
      ref_pend_q   <= '0;
      hits_q       <= '0;
      beats_q      <= '0;
      watch_seen_q <= 1'b0;
      query_ovf_q  <= 1'b0;
    end else if (start_i) begin
      limit_q      <= (pending_limit_i == '0 || 32'(pending_limit_i) > PENDING_DEPTH) ? PCW'(PENDING_DEPTH)
                                                                                     : pending_limit_i;
      ref_pend_q   <= (PCW+2)'(1);
      hits_q       <= '0;
      beats_q      <= '0;
      watch_seen_q <= 1'b0;
      query_ovf_q  <= 1'b0;
    end else begin
      if (p_running) begin
        ref_pend_q <= ref_would_lose ? ref_after_pop : ref_after_pop + (PCW+2)'(p_pend_push ? 2 : 0);
        if (ref_would_lose) query_ovf_q <= 1'b1;
      end
      if (p_running && tri_valid_i && tri_hit_i) begin
        hits_q <= hits_q + CNT_W'(1);
        if (hits_q == watch_n) begin
          watch_id_q   <= tri_id_i;
          watch_seen_q <= 1'b1;
        end
      end
      if (tvalid && m_axis_tready_i) beats_q <= beats_q + CNT_W'(1);
    end
  end

  // ---------------------------------------------------------------- properties
  always_comb begin
    if (rst_ni && past_valid_q) begin
      // credits
      assert (!(p_job_push && !p_tri_start && 32'(p_tq_cnt) == TRI_QUEUE));
      assert (!(p_tri_start && p_tq_cnt == '0));
      assert (!(p_cq_push && !p_cq_pop && 32'(p_cq_cnt) == CONTACT_QUEUE));
      assert (!(p_cq_pop && p_cq_cnt == '0));
      assert (32'(p_flight) <= PAIRS_IN_FLIGHT);
      assert (!(sat_valid_i && p_flight == '0));
      assert (!(p_pend_pop && p_pend_cnt == '0));
      if (p_running) begin
        assert (p_pend_cnt <= limit_q);
        // the overflow flag, exactly
        assert (p_pend_ovf == ref_would_lose);
        // what the pending set holds is the reference count, while nothing was lost
        if (!query_ovf_q) assert ((PCW+2)'(p_pend_cnt) == ref_pend_q);
      end
      // contacts: in the queue or on the stream, none lost or made up
      if (p_running) assert ((CNT_W+1)'(beats_q) + (CNT_W+1)'(p_cq_cnt) == (CNT_W+1)'(hits_q));
      if (done && !overflow) assert (beats_q == hits_q);
      if (tvalid && m_axis_tready_i && beats_q == watch_n) assert (watch_seen_q && tdata == watch_id_q);
    end
  end
  // the stream's handshake rule
  logic        held_q;
  logic [63:0] held_data_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) held_q <= 1'b0;
    else         held_q <= tvalid && !m_axis_tready_i;
  end
  always_ff @(posedge clk_i) held_data_q <= tdata;
  always_comb begin
    if (rst_ni && held_q) assert (tvalid && tdata == held_data_q);
  end
endmodule
