// Accelerator core: traversal controller with GetData, the DOP-pair stack, the fetch unit (AXI4
// read master), the SAT pipeline, the triangle unit and the contact FIFO (docs/accelerator.md).
//
// One query = one depth-first traversal of the two trees, exactly the reference's
// (ref/include/kdopcd/traversal.hpp) and cycle for cycle the SystemC model's (model/src/accel.cpp,
// Core::tick). Every clock edge is one model tick; the combinational block below follows the
// tick's steps in order, so a value made by an earlier step is seen by a later one:
//   1 memory beats (record buffers, GetData readiness)   2 SAT result of the current pair
//   3 verdict: separated / leaf pair -> triangle job / push children (right first)
//   4 pop + GetData (fetch, or latch a prefetched pair and prefetch the new top)
//   5 issue one axis test   6 triangle unit   7 contact stream   8 done
module kdopcd_ctrl #(
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
  parameter int CFIFO_DEPTH = kdopcd_pkg::DEFAULT_CFIFO_DEPTH,
  parameter int NCNT        = kdopcd_pkg::NUM_COUNTERS,
  parameter int AXIS_BITS   = kdopcd_format_pkg::axis_entry_bits(K, C, Z)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // host registers
  input  logic                    start_i,
  input  logic                    clear_i,
  input  logic [7:0]              axes_i,
  input  logic [1:0]              rule_i,
  input  logic                    continue_i,
  input  logic [23:0]             stack_limit_i,
  input  logic [ADDR_W-1:0]       a_node_base_i,
  input  logic [ADDR_W-1:0]       a_tri_base_i,
  input  logic [ADDR_W-1:0]       b_node_base_i,
  input  logic [ADDR_W-1:0]       b_tri_base_i,
  input  logic [9*(M+2)-1:0]      rot_i,
  input  logic [3*(V+M+4)-1:0]    trans_i,
  output logic [$clog2(K)-1:0]    axis_idx_o,
  input  logic [AXIS_BITS-1:0]    axis_entry_i,
  // status
  output logic                    busy_o,
  output logic                    done_o,
  output logic                    stack_overflow_o,
  output logic                    bus_error_o,
  output logic                    idle_o,
  output logic [NCNT*64-1:0]      counters_o,
  // AXI4 read master
  output logic                    m_axi_arvalid_o,
  input  logic                    m_axi_arready_i,
  output logic [ADDR_W-1:0]       m_axi_araddr_o,
  output logic [7:0]              m_axi_arlen_o,
  output logic [2:0]              m_axi_arsize_o,
  output logic [1:0]              m_axi_arburst_o,
  input  logic                    m_axi_rvalid_i,
  output logic                    m_axi_rready_o,
  input  logic [W-1:0]            m_axi_rdata_i,
  input  logic [1:0]              m_axi_rresp_i,
  input  logic                    m_axi_rlast_i,
  // AXI4-Stream contacts
  output logic                    m_axis_tvalid_o,
  input  logic                    m_axis_tready_i,
  output logic [63:0]             m_axis_tdata_o
);

  // ------------------------------------------------------------------ sizes
  localparam int JW         = $clog2(K);
  localparam int COEF_W     = B + 2;
  localparam int NODE_BITS  = 64 + K * COEF_W;
  localparam int NODE_BEATS = (NODE_BITS + W - 1) / W;
  localparam int REC_W      = NODE_BEATS * W;
  localparam int TRI_BITS   = 9 * (V + 2);
  localparam int TRI_BEATS  = (TRI_BITS + W - 1) / W;
  localparam int TREC_W     = TRI_BEATS * W;
  localparam int BEAT_W     = 8;
  localparam int TAG_W      = 4;
  localparam int PAIR_W     = kdopcd_sat_pkg::PAIR_W;
  localparam int AXIS_W     = kdopcd_sat_pkg::AXIS_W;
  localparam int SCW        = $clog2(STACK_DEPTH + 1);
  // A stack entry: a node pair and the depths of its nodes.
  typedef struct packed {
    logic [7:0]  depth_s;  // depth of the second object's node
    logic [7:0]  depth_f;  // depth of the first object's node
    logic [31:0] s;        // node index in the second object's tree
    logic [31:0] f;        // node index in the first object's tree
  } stack_entry_t;
  localparam int EW         = 8 + 8 + 32 + 32;  // bits of stack_entry_t (Yosys 0.23 has no $bits of a type)
  localparam int JOBS       = 16;      // triangle jobs waiting for their records (<= queued records / 2)
  localparam int JOBW       = $clog2(JOBS);
  localparam int FCW        = $clog2(CFIFO_DEPTH + 1);


  // ------------------------------------------------------------------ state
  logic              busy_q, done_q, ovf_q, buserr_q;
  logic              busy_d, done_d, ovf_d, buserr_d;
  // current pair (controller + PipeData view)
  logic              cur_valid_q, cur_started_q, cur_stopped_q, cur_bank_q;
  logic              cur_valid_d, cur_started_d, cur_stopped_d, cur_bank_d;
  stack_entry_t      cur_q, cur_d;
  logic [PAIR_W-1:0] cur_id_q, cur_id_d;
  logic [7:0]        next_axis_q, in_flight_q, next_axis_d, in_flight_d;
  // GetData: next-pair buffer (record banks ping-pong with the current pair's registers)
  logic              fetch_valid_q, recf_done_q, recs_done_q, fetch_valid_d, recf_done_d, recs_done_d;
  logic [31:0]       fetch_f_q, fetch_s_q, fetch_f_d, fetch_s_d;
  logic [TAG_W-1:0]  fetch_tag_q, fetch_tag_d;
  logic [31:0]       fetch_beats_q, fetch_beats_d;
  logic [REC_W-1:0]  bank_f_q [2];
  logic [REC_W-1:0]  bank_s_q [2];
  // triangle jobs
  logic [TREC_W-1:0] tri_a_q, tri_b_q;
  logic [63:0]       job_q [JOBS];
  logic [JOBW-1:0]   job_head_q, job_tail_q, job_head_d, job_tail_d;
  logic [JOBW:0]     jobs_q, jobs_d;
  logic [7:0]        tri_inflight_q, tri_inflight_d;
  logic [63:0]       cnt_q [NCNT];
  logic [63:0]       cnt_d [NCNT];

  // ------------------------------------------------------------------ submodule wires
  logic [3:0]          enq_valid;
  logic [4*ADDR_W-1:0] enq_addr;
  logic [4*BEAT_W-1:0] enq_beats;
  logic [7:0]          enq_dest;
  logic [4*TAG_W-1:0]  enq_tag;
  logic                drop_nodes, flush, fetch_overflow, fetch_empty_next;
  logic                beat_hold, beat_valid, beat_last, beat_error;
  logic [1:0]          beat_dest;
  logic [TAG_W-1:0]    beat_tag;
  logic [BEAT_W-1:0]   beat_idx;
  logic [W-1:0]        beat_data;

  logic                st_init, st_push, st_pop;
  stack_entry_t        st_push_data, st_top, st_below;
  logic [SCW-1:0]      st_count;

  logic                sat_valid, res_valid, res_verdict;
  kdopcd_sat_pkg::tag_t sat_tag, res_tag;
  logic signed [B+C+4:0] res_diff1, res_diff2;

  logic                tri_valid_in, tri_valid_out, tri_hit;
  logic [63:0]         tri_id_out;
  logic [TREC_W-1:0]   tri_b_next;

  logic                cf_push, cf_empty_next;
  logic [FCW-1:0]      cf_count;

  // ------------------------------------------------------------------ the tick
  logic [7:0]        n_axes;
  logic [SCW-1:0]    limit;
  logic              beat_node_cur, nf_done, ns_done, fetch_ready, tri_enter, stale_beat;
  logic              res_cur, sep_now;
  logic [7:0]        in_flight_after;
  logic              pair_done, f_leaf, s_leaf, leaf_pair, children, split_first, ovf_now;
  kdopcd_format_pkg::link_t link_f, link_s;  // the link words of the current pair's records
  stack_entry_t      right_e, left_e, popped, new_top;
  logic              pop_now, restart, waiting, latch, prefetch;
  logic              can_issue, issue_now, stopped_next;
  logic [7:0]        axis_after;
  logic [SCW-1:0]    count_next;
  logic [SCW:0]      max_cand;
  logic              cur_valid_next;
  logic [JOBW:0]     jobs_next;
  logic [7:0]        tri_inflight_next;
  logic              err_now, done_now;
  logic [TAG_W-1:0]  new_tag;
  logic [63:0]       wasted_inc;   // stale beats + the delivered beats of an abandoned prefetch

  function automatic logic may_issue(input logic [7:0] a, input logic [7:0] n, input logic cont,
                                     input logic ready);
    may_issue = (a < 8'(K)) && ((a < n) || (cont && !ready));
  endfunction

  always_comb begin
    n_axes = (axes_i == '0 || axes_i > 8'(K)) ? 8'(K) : axes_i;
    limit  = (stack_limit_i == '0 || stack_limit_i > 24'(STACK_DEPTH)) ? SCW'(STACK_DEPTH) : SCW'(stack_limit_i);

    // 1. memory beats: a record is complete in the cycle of its last beat
    beat_node_cur = busy_q && beat_valid && !beat_dest[1] && fetch_valid_q && beat_tag == fetch_tag_q;
    stale_beat    = beat_valid && !beat_dest[1] && !beat_node_cur;
    nf_done       = recf_done_q || (beat_node_cur && beat_dest == 2'd0 && beat_last);
    ns_done       = recs_done_q || (beat_node_cur && beat_dest == 2'd1 && beat_last);
    fetch_ready   = fetch_valid_q && nf_done && ns_done;
    tri_enter     = busy_q && beat_valid && beat_dest == 2'd3 && beat_last;
    tri_b_next    = tri_b_q;
    tri_b_next[32'(beat_idx) * W +: W] = beat_data;

    // 2. SAT result of the current pair (results of a finished pair are cancelled or ignored)
    res_cur         = res_valid && cur_valid_q && cur_started_q && res_tag.pair == cur_id_q;
    sep_now         = res_cur && res_verdict;
    in_flight_after = in_flight_q - 8'(res_cur);

    // 3. verdict
    pair_done   = busy_q && cur_valid_q && cur_started_q && (sep_now || (cur_stopped_q && in_flight_after == '0));
    link_f      = bank_f_q[cur_bank_q][63:0];
    link_s      = bank_s_q[cur_bank_q][63:0];
    f_leaf      = link_f.leaf;
    s_leaf      = link_s.leaf;
    leaf_pair   = pair_done && !sep_now && f_leaf && s_leaf;
    children    = pair_done && !sep_now && !(f_leaf && s_leaf);
    if (f_leaf)              split_first = 1'b0;
    else if (s_leaf)         split_first = 1'b1;
    else if (rule_i == kdopcd_format_pkg::RULE_FIRST)  split_first = 1'b1;
    else if (rule_i == kdopcd_format_pkg::RULE_SECOND) split_first = 1'b0;
    else                     split_first = cur_q.depth_f <= cur_q.depth_s;
    right_e = cur_q;
    left_e  = cur_q;
    if (split_first) begin
      right_e.depth_f = cur_q.depth_f + 8'd1;
      right_e.f       = {1'b0, link_f.right};
      left_e.depth_f  = cur_q.depth_f + 8'd1;
      left_e.f        = link_f.left;
    end else begin
      right_e.depth_s = cur_q.depth_s + 8'd1;
      right_e.s       = {1'b0, link_s.right};
      left_e.depth_s  = cur_q.depth_s + 8'd1;
      left_e.s        = link_s.left;
    end
    // right child first, then left; either push onto a full stack is the overflow error
    ovf_now  = children && (SCW'(st_count + SCW'(1)) >= limit);
    max_cand = children ? (st_count < limit ? ((st_count + SCW'(1) < limit) ? (SCW+1)'(st_count) + (SCW+1)'(2)
                                                                              : (SCW+1)'(st_count) + (SCW+1)'(1))
                                            : '0)
                        : '0;

    // 4. pop + GetData
    pop_now    = busy_q && !ovf_now && !(cur_valid_q && !pair_done) && (children || st_count != '0);
    popped     = children ? left_e : st_top;
    new_top    = children ? right_e : (pop_now ? st_below : st_top);
    count_next = children ? SCW'(st_count + SCW'(1)) : (pop_now ? SCW'(st_count - SCW'(1)) : st_count);
    restart    = pop_now && !(fetch_valid_q && fetch_f_q == popped.f && fetch_s_q == popped.s);
    waiting    = pop_now || (busy_q && cur_valid_q && !cur_started_q);
    latch      = waiting && !restart && fetch_ready;
    prefetch   = latch && count_next != '0;
    new_tag    = fetch_tag_q + TAG_W'(1);
    wasted_inc = 64'(stale_beat) + ((restart && fetch_valid_q) ? 64'(fetch_beats_q) + 64'(beat_node_cur) : 64'd0);

    // 5. issue (the pair latched in an earlier cycle; at most one axis test per cycle)
    can_issue    = busy_q && cur_valid_q && cur_started_q && !cur_stopped_q && !pair_done;
    issue_now    = can_issue && may_issue(next_axis_q, n_axes, continue_i, fetch_ready);
    axis_after   = next_axis_q + 8'(issue_now);
    stopped_next = cur_stopped_q || (can_issue && !may_issue(axis_after, n_axes, continue_i, fetch_ready));

    // 6. triangle unit / 8. done
    cur_valid_next    = (cur_valid_q && !pair_done) || pop_now;
    jobs_next         = jobs_q + (JOBW+1)'(leaf_pair) - (JOBW+1)'(tri_enter);
    tri_inflight_next = tri_inflight_q + 8'(tri_enter) - 8'(tri_valid_out);
  end

  // Kept out of the block above: they read the fetch unit's outputs that depend on its requests.
  assign err_now  = busy_q && (ovf_now || beat_error || fetch_overflow);
  assign done_now = busy_q && (err_now || (count_next == '0 && !cur_valid_next && jobs_next == '0 &&
                                           tri_inflight_next == '0 && cf_empty_next && fetch_empty_next));
  assign flush    = err_now;

  // Fetch requests: triangle records of a leaf pair first, then node records (model order).
  logic [ADDR_W-1:0] nf_addr, ns_addr, tf_addr, ts_addr;
  logic [31:0]       nf_idx, ns_idx;
  logic [1:0]        slot, slot1;
  always_comb begin
    nf_idx  = restart ? popped.f : new_top.f;
    ns_idx  = restart ? popped.s : new_top.s;
    nf_addr = a_node_base_i + ADDR_W'(nf_idx) * ADDR_W'(NODE_BEATS * W / 8);
    ns_addr = b_node_base_i + ADDR_W'(ns_idx) * ADDR_W'(NODE_BEATS * W / 8);
    tf_addr = a_tri_base_i + ADDR_W'(link_f.left) * ADDR_W'(TRI_BEATS * W / 8);
    ts_addr = b_tri_base_i + ADDR_W'(link_s.left) * ADDR_W'(TRI_BEATS * W / 8);
    enq_valid = '0;
    enq_addr  = '0;
    enq_beats = '0;
    enq_dest  = '0;
    enq_tag   = '0;
    slot      = '0;
    if (leaf_pair) begin
      enq_valid[0] = 1'b1;
      enq_addr[0 +: ADDR_W]  = tf_addr;
      enq_beats[0 +: BEAT_W] = BEAT_W'(TRI_BEATS);
      enq_dest[0 +: 2]       = 2'd2;
      enq_valid[1] = 1'b1;
      enq_addr[ADDR_W +: ADDR_W] = ts_addr;
      enq_beats[BEAT_W +: BEAT_W] = BEAT_W'(TRI_BEATS);
      enq_dest[2 +: 2]       = 2'd3;
      slot = 2'd2;
    end
    slot1 = slot + 2'd1;
    if (restart || prefetch) begin
      enq_valid[slot] = 1'b1;
      enq_addr[32'(slot) * ADDR_W +: ADDR_W] = nf_addr;
      enq_beats[32'(slot) * BEAT_W +: BEAT_W] = BEAT_W'(NODE_BEATS);
      enq_dest[32'(slot) * 2 +: 2] = 2'd0;
      enq_tag[32'(slot) * TAG_W +: TAG_W] = new_tag;
      enq_valid[slot1] = 1'b1;
      enq_addr[32'(slot1) * ADDR_W +: ADDR_W] = ns_addr;
      enq_beats[32'(slot1) * BEAT_W +: BEAT_W] = BEAT_W'(NODE_BEATS);
      enq_dest[32'(slot1) * 2 +: 2] = 2'd1;
      enq_tag[32'(slot1) * TAG_W +: TAG_W] = new_tag;
    end
    drop_nodes = restart && fetch_valid_q;   // abandon the prefetch
  end

  // A triangle test is admitted only while its contact is sure to find room in the FIFO.
  assign beat_hold = (32'(cf_count) + 32'(tri_inflight_q)) >= 32'(CFIFO_DEPTH);

  // ------------------------------------------------------------------ next state
  // The tick's register updates (steps 1 to 8 above), computed from the _q values into _d.
  always_comb begin
    busy_d = busy_q;
    done_d = done_q;
    ovf_d = ovf_q;
    buserr_d = buserr_q;
    cur_valid_d = cur_valid_q;
    cur_started_d = cur_started_q;
    cur_stopped_d = cur_stopped_q;
    cur_bank_d = cur_bank_q;
    cur_d = cur_q;
    cur_id_d = cur_id_q;
    next_axis_d = next_axis_q;
    in_flight_d = in_flight_q;
    fetch_valid_d = fetch_valid_q;
    recf_done_d = recf_done_q;
    recs_done_d = recs_done_q;
    fetch_f_d = fetch_f_q;
    fetch_s_d = fetch_s_q;
    fetch_tag_d = fetch_tag_q;
    fetch_beats_d = fetch_beats_q;
    jobs_d = jobs_q;
    job_head_d = job_head_q;
    job_tail_d = job_tail_q;
    tri_inflight_d = tri_inflight_q;
    for (int i = 0; i < NCNT; i++) cnt_d[i] = cnt_q[i];
    if (start_i) begin
      busy_d = 1'b1;
      done_d = 1'b0;
      ovf_d = 1'b0;
      buserr_d = 1'b0;
      cur_valid_d = 1'b0;
      fetch_valid_d = 1'b0;
      jobs_d = '0;
      job_head_d = '0;
      job_tail_d = '0;
      for (int i = 0; i < NCNT; i++) cnt_d[i] = '0;
      cnt_d[kdopcd_pkg::CNT_MAX_STACK] = 64'd1;   // the root pair
    end else begin
      if (clear_i) begin
        done_d = 1'b0;
        ovf_d = 1'b0;
        buserr_d = 1'b0;
      end
      tri_inflight_d = tri_inflight_next;
      if (busy_q) begin
        cnt_d[kdopcd_pkg::CNT_CYCLES] = cnt_q[kdopcd_pkg::CNT_CYCLES] + 64'd1;
        // 1. beats
        if (beat_node_cur) begin
          fetch_beats_d = fetch_beats_q + 32'd1;
          if (beat_dest == 2'd0 && beat_last) recf_done_d = 1'b1;
          if (beat_dest == 2'd1 && beat_last) recs_done_d = 1'b1;
        end
        // 2./3. verdict
        if (sep_now) cnt_d[kdopcd_pkg::CNT_AXIS_CANCELLED] = cnt_q[kdopcd_pkg::CNT_AXIS_CANCELLED] + 64'(in_flight_after);
        if (pair_done) begin
          cnt_d[kdopcd_pkg::CNT_PAIR_TESTS] = cnt_q[kdopcd_pkg::CNT_PAIR_TESTS] + 64'd1;
          cnt_d[kdopcd_pkg::CNT_AXIS_EFFECTIVE] = cnt_q[kdopcd_pkg::CNT_AXIS_EFFECTIVE] + (sep_now ? 64'(res_tag.axis) + 64'd1 : 64'(next_axis_q));
          cur_valid_d = 1'b0;
        end
        if (leaf_pair) begin
          cnt_d[kdopcd_pkg::CNT_LEAF_PAIRS] = cnt_q[kdopcd_pkg::CNT_LEAF_PAIRS] + 64'd1;
          job_tail_d = job_tail_q + JOBW'(1);
        end
        if (64'(max_cand) > cnt_q[kdopcd_pkg::CNT_MAX_STACK]) cnt_d[kdopcd_pkg::CNT_MAX_STACK] = 64'(max_cand);
        // 4. pop + GetData
        if (pop_now) begin
          cur_valid_d = 1'b1;
          cur_started_d = 1'b0;
          cur_stopped_d = 1'b0;
          cur_d = popped;
          next_axis_d = '0;
          in_flight_d = '0;
        end
        if (restart) begin
          fetch_valid_d = 1'b1;
          fetch_f_d = popped.f;
          fetch_s_d = popped.s;
          fetch_tag_d = new_tag;
          recf_done_d = 1'b0;
          recs_done_d = 1'b0;
          fetch_beats_d = '0;
        end
        if (waiting && !latch) cnt_d[kdopcd_pkg::CNT_STALL_CYCLES] = cnt_q[kdopcd_pkg::CNT_STALL_CYCLES] + 64'd1;
        if (latch) begin
          cur_started_d = 1'b1;
          cur_id_d = cur_id_q + PAIR_W'(1);
          cur_bank_d = !cur_bank_q;
          fetch_valid_d = prefetch;
          recf_done_d = 1'b0;
          recs_done_d = 1'b0;
          fetch_beats_d = '0;
          if (prefetch) begin
            fetch_f_d = new_top.f;
            fetch_s_d = new_top.s;
            fetch_tag_d = new_tag;
          end
        end
        // 5. issue
        if (!pair_done && !pop_now) begin
          next_axis_d = axis_after;
          in_flight_d = in_flight_after + 8'(issue_now);
          cur_stopped_d = stopped_next;
        end
        if (issue_now) begin
          cnt_d[kdopcd_pkg::CNT_AXIS_ISSUED] = cnt_q[kdopcd_pkg::CNT_AXIS_ISSUED] + 64'd1;
          if (next_axis_q >= n_axes) cnt_d[kdopcd_pkg::CNT_AXIS_CONTINUED] = cnt_q[kdopcd_pkg::CNT_AXIS_CONTINUED] + 64'd1;
        end
        // 6. triangle unit
        if (tri_enter) begin
          cnt_d[kdopcd_pkg::CNT_TRI_TESTS] = cnt_q[kdopcd_pkg::CNT_TRI_TESTS] + 64'd1;
          job_head_d = job_head_q + JOBW'(1);
        end
        jobs_d = jobs_next;
        // 8. done
        if (done_now) begin
          busy_d = 1'b0;
          done_d = 1'b1;
          ovf_d = ovf_now;
          buserr_d = beat_error || fetch_overflow;
          fetch_valid_d = 1'b0;
          cur_valid_d = 1'b0;
        end
      end
      if (beat_valid) cnt_d[kdopcd_pkg::CNT_MEM_BEATS] = cnt_q[kdopcd_pkg::CNT_MEM_BEATS] + 64'd1;
      cnt_d[kdopcd_pkg::CNT_WASTED_BEATS] = cnt_q[kdopcd_pkg::CNT_WASTED_BEATS] + wasted_inc;
      if (m_axis_tvalid_o && m_axis_tready_i) cnt_d[kdopcd_pkg::CNT_CONTACTS] = cnt_q[kdopcd_pkg::CNT_CONTACTS] + 64'd1;
    end
  end

  // ------------------------------------------------------------------ registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q         <= 1'b0;
      done_q         <= 1'b0;
      ovf_q          <= 1'b0;
      buserr_q       <= 1'b0;
      cur_valid_q    <= 1'b0;
      cur_started_q  <= 1'b0;
      cur_stopped_q  <= 1'b0;
      cur_bank_q     <= 1'b0;
      cur_q          <= '0;
      cur_id_q       <= '0;
      next_axis_q    <= '0;
      in_flight_q    <= '0;
      fetch_valid_q  <= 1'b0;
      recf_done_q    <= 1'b0;
      recs_done_q    <= 1'b0;
      fetch_f_q      <= '0;
      fetch_s_q      <= '0;
      fetch_tag_q    <= '0;
      fetch_beats_q  <= '0;
      jobs_q         <= '0;
      job_head_q     <= '0;
      job_tail_q     <= '0;
      tri_inflight_q <= '0;
      for (int i = 0; i < NCNT; i++) cnt_q[i] <= '0;
    end else begin
      busy_q         <= busy_d;
      done_q         <= done_d;
      ovf_q          <= ovf_d;
      buserr_q       <= buserr_d;
      cur_valid_q    <= cur_valid_d;
      cur_started_q  <= cur_started_d;
      cur_stopped_q  <= cur_stopped_d;
      cur_bank_q     <= cur_bank_d;
      cur_q          <= cur_d;
      cur_id_q       <= cur_id_d;
      next_axis_q    <= next_axis_d;
      in_flight_q    <= in_flight_d;
      fetch_valid_q  <= fetch_valid_d;
      recf_done_q    <= recf_done_d;
      recs_done_q    <= recs_done_d;
      fetch_f_q      <= fetch_f_d;
      fetch_s_q      <= fetch_s_d;
      fetch_tag_q    <= fetch_tag_d;
      fetch_beats_q  <= fetch_beats_d;
      jobs_q         <= jobs_d;
      job_head_q     <= job_head_d;
      job_tail_q     <= job_tail_d;
      tri_inflight_q <= tri_inflight_d;
      for (int i = 0; i < NCNT; i++) cnt_q[i] <= cnt_d[i];
    end
  end

  // Triangle jobs (no reset: data only; written when a leaf pair is found).
  always_ff @(posedge clk_i) begin
    if (!start_i && busy_q && leaf_pair) job_q[job_tail_q] <= {link_s.left, link_f.left};
  end

  // Record buffers (no reset: data only).
  always_ff @(posedge clk_i) begin
    if (beat_node_cur) begin   // beats of an abandoned fetch are dropped
      if (beat_dest == 2'd0) bank_f_q[!cur_bank_q][32'(beat_idx) * W +: W] <= beat_data;
      else                   bank_s_q[!cur_bank_q][32'(beat_idx) * W +: W] <= beat_data;
    end
    if (beat_valid && beat_dest == 2'd2) tri_a_q[32'(beat_idx) * W +: W] <= beat_data;
    if (beat_valid && beat_dest == 2'd3) tri_b_q <= tri_b_next;
  end

  // ------------------------------------------------------------------ outputs
  assign busy_o           = busy_q;
  assign done_o           = done_q;
  assign stack_overflow_o = ovf_q;
  assign bus_error_o      = buserr_q;
  assign idle_o           = !busy_q && fetch_empty_next && tri_inflight_q == '0 && cf_count == '0;
  assign axis_idx_o       = JW'(next_axis_q);
  for (genvar i = 0; i < NCNT; i++) begin : g_cnt
    assign counters_o[i*64 +: 64] = cnt_q[i];
  end

  // ------------------------------------------------------------------ submodules
  assign st_init      = start_i;
  assign st_push      = busy_q && children && !ovf_now;
  assign st_push_data = right_e;
  assign st_pop       = pop_now && !children;

  kdopcd_stack #(.DEPTH(STACK_DEPTH), .EW(EW)) u_stack (
    .clk_i, .rst_ni,
    .init_i      (st_init),
    .init_data_i ('0),
    .push_i      (st_push),
    .push_data_i (st_push_data),
    .pop_i       (st_pop),
    .count_o     (st_count),
    .top_o       (st_top),
    .below_o     (st_below)
  );

  kdopcd_fetch #(
    .W(W), .ADDR_W(ADDR_W), .MAX_OUT(MAX_OUT), .BURST_MAX(BURST_MAX), .QDEPTH(16), .BEAT_W(BEAT_W), .TAG_W(TAG_W)
  ) u_fetch (
    .clk_i, .rst_ni,
    .enq_valid_i  (enq_valid),
    .enq_addr_i   (enq_addr),
    .enq_beats_i  (enq_beats),
    .enq_dest_i   (enq_dest),
    .enq_tag_i    (enq_tag),
    .drop_nodes_i (drop_nodes),
    .flush_i      (flush),
    .overflow_o   (fetch_overflow),
    .empty_next_o (fetch_empty_next),
    .beat_hold_i  (beat_hold),
    .beat_valid_o (beat_valid),
    .beat_dest_o  (beat_dest),
    .beat_tag_o   (beat_tag),
    .beat_idx_o   (beat_idx),
    .beat_last_o  (beat_last),
    .beat_error_o (beat_error),
    .beat_data_o  (beat_data),
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o, .m_axi_arburst_o,
    .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rdata_i, .m_axi_rresp_i, .m_axi_rlast_i
  );

  // SAT pipeline: A = the second object's node, B = the first object's (sat_fixed.hpp).
  localparam int PA_OFF = 0;
  localparam int PB_OFF = 3 * (C + 1);
  localparam int P_OFF  = 6 * (C + 1);
  localparam int JA_OFF = P_OFF + Z + 4;
  localparam int JB_OFF = JA_OFF + 3 * JW;

  always_comb begin
    sat_tag      = '0;
    sat_tag.pair = cur_id_q;
    sat_tag.axis = AXIS_W'(next_axis_q);
    sat_tag.last = 1'b0;
  end
  assign sat_valid = issue_now;

  kdopcd_sat_pipeline #(.K(K), .B(B), .C(C), .Z(Z), .MUL_W(MUL_W)) u_sat (
    .clk_i, .rst_ni,
    .valid_i       (sat_valid),
    .coef_a_i      (bank_s_q[cur_bank_q][64 +: K * COEF_W]),
    .coef_b_i      (bank_f_q[cur_bank_q][64 +: K * COEF_W]),
    .ja_i          (axis_entry_i[JA_OFF +: 3 * JW]),
    .jb_i          (axis_entry_i[JB_OFF +: 3 * JW]),
    .pa_i          (axis_entry_i[PA_OFF +: 3 * (C + 1)]),
    .pb_i          (axis_entry_i[PB_OFF +: 3 * (C + 1)]),
    .p_i           (axis_entry_i[P_OFF +: Z + 4]),
    .tag_i         (sat_tag),
    .cancel_i      (sep_now),
    .cancel_pair_i (cur_id_q),
    .valid_o       (res_valid),
    .diff1_o       (res_diff1),
    .diff2_o       (res_diff2),
    .verdict_o     (res_verdict),
    .tag_o         (res_tag)
  );

  assign tri_valid_in = tri_enter;

  kdopcd_tri_unit #(.V(V), .M(M), .LAT(TRI_LAT), .ID_W(64)) u_tri (
    .clk_i, .rst_ni,
    .valid_i (tri_valid_in),
    .tri_a_i (tri_a_q[0 +: TRI_BITS]),
    .tri_b_i (tri_b_next[0 +: TRI_BITS]),
    .rot_i   (rot_i),
    .trans_i (trans_i),
    .id_i    (job_q[job_head_q]),
    .valid_o (tri_valid_out),
    .hit_o   (tri_hit),
    .id_o    (tri_id_out)
  );

  assign cf_push = tri_valid_out && tri_hit;

  kdopcd_contact_fifo #(.DEPTH(CFIFO_DEPTH), .DW(64)) u_contacts (
    .clk_i, .rst_ni,
    .push_i       (cf_push),
    .push_data_i  (tri_id_out),
    .tvalid_o     (m_axis_tvalid_o),
    .tready_i     (m_axis_tready_i),
    .tdata_o      (m_axis_tdata_o),
    .count_o      (cf_count),
    .empty_next_o (cf_empty_next)
  );

  // Only the verdict leaves the SAT pipeline; the differences are for its own testbench.
  // Also unused: the padding bits of the triangle record, the depths of the prefetched pair.
  logic unused_bits;
  assign unused_bits = ^{res_diff1, res_diff2, res_tag.last, tri_a_q[TREC_W-1:TRI_BITS], new_top.depth_s, new_top.depth_f};

endmodule
