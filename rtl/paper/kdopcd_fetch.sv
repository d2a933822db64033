// Fetch unit: AXI4 read master for tree-image records (docs/accelerator.md, "Timing contract").
//
// The controller queues whole records (node or triangle record of the first or second object);
// this unit splits each into INCR bursts of at most BURST_MAX beats that never cross a 4 KiB
// boundary, presents them on AR in queue order while fewer than MAX_OUT bursts are outstanding
// (count at the start of the cycle), and routes the R beats back with their record position.
//
// Queue: a circular buffer of QDEPTH records; up to 4 records are appended per cycle (slot order).
// drop_nodes_i removes the node records that are not yet committed: a burst that is on AR
// (ARVALID high) is committed, because AXI forbids withdrawing ARVALID; a partly issued head
// record is cut after its committed bursts. The controller only drops when every queued node
// record belongs to the abandoned prefetch, and those are the youngest entries (the simulation
// assertion below checks it), so dropping is a tail roll-back. flush_i drops every uncommitted
// record (a query that stops on an error).
module kdopcd_fetch #(
  parameter int W         = 64,   // AXI data width (bits)
  parameter int ADDR_W    = 32,
  parameter int MAX_OUT   = 4,    // outstanding bursts at most
  parameter int BURST_MAX = 16,   // beats per burst at most (<= 256)
  parameter int QDEPTH    = 16,   // queued records at most (power of two)
  parameter int BEAT_W    = 8,    // record length field (beats)
  parameter int TAG_W     = 4     // fetch tag of node records
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // record requests, up to four per cycle, slot 0 first
  input  logic [3:0]            enq_valid_i,
  input  logic [4*ADDR_W-1:0]   enq_addr_i,
  input  logic [4*BEAT_W-1:0]   enq_beats_i,
  input  logic [7:0]            enq_dest_i,      // 2 bits per slot: 0 node A, 1 node B, 2 triangle A, 3 triangle B
  input  logic [4*TAG_W-1:0]    enq_tag_i,
  input  logic                  drop_nodes_i,
  input  logic                  flush_i,
  output logic                  overflow_o,      // an append found the queue full (never expected)
  output logic                  empty_next_o,    // queue and outstanding reads empty after this cycle
  // beats back to the controller (valid in the cycle of the R handshake)
  input  logic                  beat_hold_i,     // keep RREADY low for a last triangle-B beat (no credit)
  output logic                  beat_valid_o,
  output logic [1:0]            beat_dest_o,
  output logic [TAG_W-1:0]      beat_tag_o,
  output logic [BEAT_W-1:0]     beat_idx_o,      // beat index within the record
  output logic                  beat_last_o,     // last beat of the record
  output logic                  beat_error_o,    // RRESP != OKAY
  output logic [W-1:0]          beat_data_o,
  // AXI4 read master
  output logic                  m_axi_arvalid_o,
  input  logic                  m_axi_arready_i,
  output logic [ADDR_W-1:0]     m_axi_araddr_o,
  output logic [7:0]            m_axi_arlen_o,
  output logic [2:0]            m_axi_arsize_o,
  output logic [1:0]            m_axi_arburst_o,
  input  logic                  m_axi_rvalid_i,
  output logic                  m_axi_rready_o,
  input  logic [W-1:0]          m_axi_rdata_i,
  input  logic [1:0]            m_axi_rresp_i,
  input  logic                  m_axi_rlast_i
);

  localparam int BYTES   = W / 8;
  localparam int QW      = $clog2(QDEPTH);
  localparam int OW      = $clog2(MAX_OUT + 1);
  localparam int OQW     = (MAX_OUT > 1) ? $clog2(MAX_OUT) : 1;
  localparam int BEATS4K = 4096 / BYTES;

  // ------------------------------------------------------------------ record queue
  logic [ADDR_W-1:0] q_addr_q  [QDEPTH];
  logic [BEAT_W-1:0] q_left_q  [QDEPTH];   // beats not yet issued
  logic [BEAT_W-1:0] q_done_q  [QDEPTH];   // beats already issued (index of the next burst's first beat)
  logic [1:0]        q_dest_q  [QDEPTH];
  logic [TAG_W-1:0]  q_tag_q   [QDEPTH];
  logic [QW-1:0]     head_q;
  logic [QW:0]       count_q;
  logic              cut_q;                // head: no further bursts after the one on AR

  // ------------------------------------------------------------------ outstanding bursts
  logic [1:0]        o_dest_q  [MAX_OUT];
  logic [TAG_W-1:0]  o_tag_q   [MAX_OUT];
  logic [BEAT_W-1:0] o_first_q [MAX_OUT];  // record beat index of the burst's first beat
  logic              o_last_q  [MAX_OUT];  // the burst ends its record
  logic [OQW-1:0]    o_head_q, o_tail_q;
  logic [OW-1:0]     out_q;
  logic [BEAT_W-1:0] rbeat_q;              // beats of the head burst already received
  logic              arvalid_q;            // ARVALID was high without handshake last cycle

  // The head burst.
  logic              head_valid, head_is_node;
  logic [ADDR_W-1:0] head_addr;
  logic [BEAT_W-1:0] head_left, burst_len;
  logic [12:0]       to_4k;         // beats left before the next 4 KiB boundary
  always_comb begin
    head_valid   = count_q != '0;
    head_addr    = q_addr_q[head_q];
    head_left    = q_left_q[head_q];
    head_is_node = !q_dest_q[head_q][1];
    to_4k        = 13'(BEATS4K) - ({1'b0, head_addr[11:0]} >> $clog2(BYTES));
    burst_len    = head_left;
    if (burst_len > BEAT_W'(BURST_MAX)) burst_len = BEAT_W'(BURST_MAX);
    if (13'(burst_len) > to_4k) burst_len = BEAT_W'(to_4k);
  end

  assign m_axi_arvalid_o = head_valid && (arvalid_q || out_q < OW'(MAX_OUT));
  assign m_axi_araddr_o  = head_addr;
  assign m_axi_arlen_o   = 8'(burst_len - BEAT_W'(1));
  assign m_axi_arsize_o  = 3'($clog2(BYTES));
  assign m_axi_arburst_o = 2'b01;  // INCR

  logic ar_fire, r_fire, r_end;
  assign ar_fire = m_axi_arvalid_o && m_axi_arready_i;

  // R side: the head outstanding burst names the destination.
  logic [BEAT_W-1:0] beat_idx;
  logic              beat_last;
  always_comb begin
    beat_idx  = o_first_q[o_head_q] + rbeat_q;
    beat_last = o_last_q[o_head_q] && m_axi_rlast_i;
  end
  // Hold only a beat that would start a triangle test without room for its contact.
  assign m_axi_rready_o = !(beat_hold_i && o_dest_q[o_head_q] == 2'd3 && o_last_q[o_head_q] && m_axi_rlast_i);
  assign r_fire         = m_axi_rvalid_i && m_axi_rready_o;
  assign r_end          = r_fire && m_axi_rlast_i;

  assign beat_valid_o = r_fire;
  assign beat_dest_o  = o_dest_q[o_head_q];
  assign beat_tag_o   = o_tag_q[o_head_q];
  assign beat_idx_o   = beat_idx;
  assign beat_last_o  = beat_last;
  assign beat_error_o = r_fire && m_axi_rresp_i != 2'b00;
  assign beat_data_o  = m_axi_rdata_i;

  // ------------------------------------------------------------------ queue update
  // Head after this cycle's AR handshake: popped when its last burst went, or when it is cut.
  logic          head_pop, head_cut_d, bad_drop;
  logic [QW:0]   keep;          // entries kept after drop/flush, counted from the new head
  logic [QW-1:0] new_head, app_base;
  logic [2:0]    n_enq;
  logic [QW-1:0] app_slot [4];  // queue slot of each appended record
  always_comb begin
    head_pop   = ar_fire && (burst_len == head_left || cut_q);
    head_cut_d = cut_q;
    new_head   = head_q + QW'(head_pop);
    keep       = count_q - (QW+1)'(head_pop);
    bad_drop   = 1'b0;
    if (flush_i || drop_nodes_i) begin
      if (!head_pop && head_valid && (flush_i || head_is_node)) begin
        // The head is dropped too, unless it is on AR without handshake (committed): then it
        // stays, cut after that burst. A burst accepted now is committed; the rest is dropped.
        if (m_axi_arvalid_o && !ar_fire) begin
          keep       = (QW+1)'(1);
          head_cut_d = 1'b1;
        end else begin
          keep = '0;
        end
      end else if (flush_i) begin
        keep = '0;
      end else begin
        // A triangle head (or a popped one): roll back the trailing node records (at most the
        // two of the abandoned prefetch); no other node record may remain.
        for (int i = 0; i < 2; i++) begin
          if (keep != '0 && !q_dest_q[QW'(new_head + QW'(keep) - QW'(1))][1]) keep = keep - (QW+1)'(1);
        end
        for (int i = 0; i < QDEPTH; i++) begin
          if ((QW+1)'(i) < keep && !q_dest_q[QW'(new_head + QW'(i))][1]) bad_drop = 1'b1;
        end
      end
    end
    n_enq    = 3'(enq_valid_i[0]) + 3'(enq_valid_i[1]) + 3'(enq_valid_i[2]) + 3'(enq_valid_i[3]);
    app_base = QW'(new_head + QW'(keep));
    app_slot[0] = app_base;
    app_slot[1] = app_base + QW'(enq_valid_i[0]);
    app_slot[2] = app_slot[1] + QW'(enq_valid_i[1]);
    app_slot[3] = app_slot[2] + QW'(enq_valid_i[2]);
  end

  // Conservative (the count before this cycle's pop and drop), so that it does not depend on
  // flush_i, which the controller derives from it.
  assign overflow_o   = (QW+2)'(count_q) + (QW+2)'(n_enq) > (QW+2)'(QDEPTH);
  logic [OW-1:0] out_d;
  assign out_d        = out_q + OW'(ar_fire) - OW'(r_end);
  assign empty_next_o = (keep == '0) && (n_enq == '0) && (out_d == '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q    <= '0;
      count_q   <= '0;
      cut_q     <= 1'b0;
      arvalid_q <= 1'b0;
      for (int i = 0; i < QDEPTH; i++) begin
        q_addr_q[i] <= '0;
        q_left_q[i] <= '0;
        q_done_q[i] <= '0;
        q_dest_q[i] <= '0;
        q_tag_q[i]  <= '0;
      end
    end else begin
      if (ar_fire && !head_pop) begin  // head burst issued, the record continues
        q_addr_q[head_q] <= head_addr + ADDR_W'(burst_len) * ADDR_W'(BYTES);
        q_left_q[head_q] <= head_left - burst_len;
        q_done_q[head_q] <= q_done_q[head_q] + burst_len;
      end
      if (!overflow_o) begin
        for (int s = 0; s < 4; s++) begin
          if (enq_valid_i[s]) begin
            q_addr_q[app_slot[s]] <= enq_addr_i[s*ADDR_W +: ADDR_W];
            q_left_q[app_slot[s]] <= enq_beats_i[s*BEAT_W +: BEAT_W];
            q_done_q[app_slot[s]] <= '0;
            q_dest_q[app_slot[s]] <= enq_dest_i[2*s +: 2];
            q_tag_q[app_slot[s]]  <= enq_tag_i[s*TAG_W +: TAG_W];
          end
        end
      end
      head_q    <= new_head;
      count_q   <= overflow_o ? keep : keep + (QW+1)'(n_enq);
      cut_q     <= head_pop ? 1'b0 : head_cut_d;
      arvalid_q <= m_axi_arvalid_o && !m_axi_arready_i;
    end
  end

  // ------------------------------------------------------------------ outstanding update
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      o_head_q <= '0;
      o_tail_q <= '0;
      out_q    <= '0;
      rbeat_q  <= '0;
      for (int i = 0; i < MAX_OUT; i++) begin
        o_dest_q[i]  <= '0;
        o_tag_q[i]   <= '0;
        o_first_q[i] <= '0;
        o_last_q[i]  <= 1'b0;
      end
    end else begin
      if (ar_fire) begin
        o_dest_q[o_tail_q]  <= q_dest_q[head_q];
        o_tag_q[o_tail_q]   <= q_tag_q[head_q];
        o_first_q[o_tail_q] <= q_done_q[head_q];
        o_last_q[o_tail_q]  <= burst_len == head_left;
        o_tail_q            <= (MAX_OUT > 1) ? OQW'(o_tail_q + 1'b1) : '0;
      end
      if (r_end) begin
        o_head_q <= (MAX_OUT > 1) ? OQW'(o_head_q + 1'b1) : '0;
        rbeat_q  <= '0;
      end else if (r_fire) begin
        rbeat_q <= rbeat_q + 1'b1;
      end
      out_q <= out_d;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else begin
      if (bad_drop) $error("kdopcd_fetch: a node record older than a triangle record was to be dropped");
      if (overflow_o) $error("kdopcd_fetch: record queue overflow");
    end
  end
`endif

endmodule
