// The v2 traversal engine (docs/accelerator-v2.md), cycle-exact with the SystemC model's
// V2Engine (model/src/v2_engine.hpp) at one wide SAT unit and trees in on-chip RAM. This is the
// `ctrl` block: scheduler, pending set, verdict, triangle and contact queues, counters. The SAT
// unit (kdopcd_sat_wide), the triangle unit (kdopcd_tri_seq) and the tree RAMs (kdopcd_v2_fetch)
// are its neighbours in kdopcd_v2_top: it addresses the RAMs, and starts the units with sat_valid_o
// and tri_valid_o in the clock in which the fetch block delivers their records; their outputs come
// back on sat_*_i and tri_*_i. Per clock t:
//
//   contact queue  the head leaves on the stream (tready);
//   triangle unit  a verdict due at t pushes a hit into the contact queue; a test starts if the
//                  queue head is there, TRI_II clocks have passed since the last start and the
//                  contact queue has room for it and every test in flight (credit); it reads the
//                  two triangle RAMs (RAM_LAT) and enters the triangle datapath (TRI_LAT);
//   SAT            the pair issued at t - RAM_LAT enters the wide unit with both node records; the
//                  verdict of the pair that entered at t - SAT_LAT: a leaf pair becomes a triangle
//                  job, an inner pair's two children are pushed into the pending set (right child
//                  first), and its in-flight slot is free from t + 1;
//   scheduler      pops the top of the pending set as it was at the start of t, if the credits of
//                  the start of t allow: a free slot (PAIRS_IN_FLIGHT), room in the pending set
//                  for two children of it and of every pair in flight, and room in the triangle
//                  queue for a job of each; it addresses both node RAMs.
//
// Every decision reads registered state only (counts, the pending top, the unit outputs), and
// every effect is registered: no path runs from a SAT result to a memory request in one clock.
// The query ends in the clock in which the pending set, the pairs in flight, the triangle queue,
// the tests in flight and the contact queue are all empty, or in which the pending set overflows
// (overflow_o: the contact set is incomplete).
module kdopcd_v2_engine #(
  parameter int K               = kdopcd_v2_pkg::DEFAULT_K,
  parameter int NODE_AW         = kdopcd_v2_pkg::DEFAULT_NODE_AW,
  parameter int TRI_AW          = kdopcd_v2_pkg::DEFAULT_TRI_AW,
  parameter int PENDING_DEPTH   = kdopcd_v2_pkg::DEFAULT_PENDING_DEPTH,
  parameter int PAIRS_IN_FLIGHT = kdopcd_v2_pkg::DEFAULT_PAIRS_IN_FLIGHT,
  parameter int RAM_LAT         = kdopcd_v2_pkg::DEFAULT_RAM_LAT,
  parameter int TRI_II          = kdopcd_v2_pkg::DEFAULT_TRI_II,
  parameter int TRI_LAT         = kdopcd_v2_pkg::DEFAULT_TRI_LAT,
  parameter int TRI_QUEUE       = kdopcd_v2_pkg::DEFAULT_TRI_QUEUE,
  parameter int CONTACT_QUEUE   = kdopcd_v2_pkg::DEFAULT_CONTACT_QUEUE,
  localparam int EFF_W          = $clog2(K + 1),
  localparam int PCW            = $clog2(PENDING_DEPTH + 1),
  localparam int NCNT           = kdopcd_v2_pkg::NUM_COUNTERS
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   start_i,          // one-cycle pulse, only while idle_o
  input  logic [1:0]             rule_i,           // kdopcd_format_pkg::descent_rule_e
  input  logic [PCW-1:0]         pending_limit_i,  // 1 .. PENDING_DEPTH
  // tree reads (kdopcd_v2_fetch): [0] first tree, [1] second tree; the records come out RAM_LAT
  // clocks after the address (flat vectors, tree t at [t*WIDTH +: WIDTH]: Yosys 0.23 reads no
  // unpacked array ports)
  output logic [2*NODE_AW-1:0]   node_raddr_o,
  input  logic [127:0]           node_link_i,      // the link words of the two node records
  output logic [2*TRI_AW-1:0]    tri_raddr_o,
  // to / from the SAT unit (kdopcd_sat_wide; its coefficients come from the fetch block)
  output logic                   sat_valid_o,      // the node records of a pair are on the fetch outputs
  input  logic                   sat_valid_i,
  input  logic [K-1:0]           sat_lane_verdict_i,
  input  logic                   sat_separated_i,
  input  logic [EFF_W-1:0]       sat_effective_i,
  // to / from the triangle unit (kdopcd_tri_seq; its records come from the fetch block)
  output logic                   tri_valid_o,      // the triangle records of a job are on the fetch outputs
  output logic [63:0]            tri_id_o,         // {second triangle, first triangle}
  input  logic                   tri_valid_i,
  input  logic                   tri_hit_i,
  input  logic [63:0]            tri_id_i,
  // contacts {second triangle, first triangle}
  output logic                   m_axis_tvalid_o,
  input  logic                   m_axis_tready_i,
  output logic [63:0]            m_axis_tdata_o,
  output logic                   busy_o,           // a query runs
  output logic                   idle_o,           // nothing runs or drains: START may come
  output logic                   done_o,           // one-cycle pulse: the query ended
  output logic                   overflow_o,       // with done_o: the pending set overflowed
  output logic [NCNT*64-1:0]     counters_o        // counter i at [i*64 +: 64] (kdopcd_v2_pkg)
);

  localparam int SAT_LAT = kdopcd_v2_pkg::sat_lat();
  localparam int FW      = $clog2(PAIRS_IN_FLIGHT + 1);
  localparam int TQW     = $clog2(TRI_QUEUE + 1);
  localparam int CQW     = $clog2(CONTACT_QUEUE + 1);
  localparam int TFW     = $clog2(TRI_LAT + RAM_LAT + 2);  // triangle tests in flight
  localparam int PAIR_W  = 16 + 2 * NODE_AW;  // pair_t (no $bits of a type: Yosys 0.23)
  localparam int JOB_W   = 2 * TRI_AW;        // job_t

  typedef struct packed {
    logic [7:0]         depth_f;
    logic [7:0]         depth_s;
    logic [NODE_AW-1:0] f;
    logic [NODE_AW-1:0] s;
  } pair_t;


  // What travels with a pair through the SAT unit to its verdict.
  typedef struct packed {
    pair_t pair;
    logic [63:0] link_f;  // the link words of the two node records (kdopcd_format_pkg::link_t)
    logic [63:0] link_s;
  } sat_meta_t;

  typedef struct packed {
    logic [TRI_AW-1:0] tf;
    logic [TRI_AW-1:0] ts;
  } job_t;

  // ------------------------------------------------------------------------------- run state
  logic running_q, running_d;
  logic [FW-1:0]  flight_q, flight_d;        // pairs issued, verdict not back
  logic [TFW-1:0] tri_flight_q, tri_flight_d;  // triangle tests started, verdict not back
  logic [$clog2(TRI_II+1)-1:0] ii_cnt_q, ii_cnt_d;
  logic finish, overflow_q, done_q;

  // ------------------------------------------------------------------------------- pending set
  // The widths of the scheduler's credit sums (below); lim_q: the pending limit less -2 .. 3.
  localparam int RW = $clog2(PENDING_DEPTH + 2 * PAIRS_IN_FLIGHT + TRI_QUEUE + 8);
  logic [RW-1:0]  lim_q [6];
  logic [RW-1:0]  lim_d [6];
  logic [PCW-1:0] pend_cnt, limit_d;
  logic [1:0]     pend_grow_keep, pend_grow_pop;
  pair_t          pend_top, push_first, push_second;
  logic           pend_pop, pend_push, pend_ovf, pend_empty_next;
  pair_t          root;

  // The limit is taken at START and held for the query (a write to PENDING_LIMIT during a query
  // counts from the next one): the scheduler's credit comparison then starts at a register. So is
  // the descent rule: the top's inputs carry the next query's fields (the command queue's oldest
  // ready descriptor) while this one runs.
  logic [1:0] rule_q, rule_d;
  assign rule_d  = start_i ? rule_i : rule_q;
  assign root    = '0;
  assign limit_d = (pending_limit_i == '0 || 32'(pending_limit_i) > PENDING_DEPTH) ? PCW'(PENDING_DEPTH)
                                                                                  : pending_limit_i;

  kdopcd_v2_pending #(.DEPTH(PENDING_DEPTH), .EW(PAIR_W)) u_pending (
    .clk_i, .rst_ni,
    .init_i       (start_i),
    .init_data_i  (root),
    .limit_i      (PCW'(lim_q[2])),
    .limit_less_i (PCW'(lim_q[3])),
    .pop_i        (pend_pop),
    .top_o        (pend_top),
    .push_i       (pend_push),
    .push_first_i (push_first),
    .push_second_i(push_second),
    .count_o      (pend_cnt),
    .empty_next_o (pend_empty_next),
    .grow_keep_o  (pend_grow_keep),
    .grow_pop_o   (pend_grow_pop),
    .overflow_o   (pend_ovf)
  );

  // ------------------------------------------------------------------------------- queues
  logic [TQW-1:0] tq_cnt;
  logic [CQW-1:0] cq_cnt;
  job_t           job_in, job_head;
  logic           job_push, tri_start;
  logic           cq_push, cq_pop;
  logic [63:0]    cq_in, cq_head;

  kdopcd_v2_fifo #(.DEPTH(TRI_QUEUE), .DW(JOB_W)) u_tri_queue (
    .clk_i, .rst_ni,
    .clear_i    (start_i),
    .push_i     (job_push),
    .push_data_i(job_in),
    .pop_i      (tri_start),
    .head_o     (job_head),
    .count_o    (tq_cnt)
  );

  kdopcd_v2_fifo #(.DEPTH(CONTACT_QUEUE), .DW(64)) u_contact_queue (
    .clk_i, .rst_ni,
    .clear_i    (start_i),
    .push_i     (cq_push),
    .push_data_i(cq_in),
    .pop_i      (cq_pop),
    .head_o     (cq_head),
    .count_o    (cq_cnt)
  );

  // ------------------------------------------------------------------------------- scheduler
  // Credits from the state at the start of the clock (model: pending0, flight0, tri0). The sums
  // are as wide as their largest value, not 32 bits: the issue decided from them selects the
  // pending set's next state in the same clock.
  //
  // The pending credit pend_cnt + 2 flight_q < limit is itself a register (room_q), and so is its
  // left side (reserve_q). In a clock the reserve changes by d = -2 .. 3 (children kept, a pop, a
  // verdict leaving the flight), and room' = reserve_q + d < limit = reserve_q < limit - d: the six
  // limits less d are registers taken at START (lim_q[d + 2], 0 where negative), the six
  // comparisons and sums are made from registers, and the issue only selects.
  logic issue, slot_free, pending_room, tri_room;
  logic          room_q, room_d;
  logic [RW-1:0] reserve_q, reserve_d;
  logic [5:0]    room_if;             // room_if[e]: reserve_q + e - 2 < limit
  logic [RW-1:0] reserve_if [6];      // reserve_q + e - 2
  logic [2:0]    e_keep, e_pop;       // d + 2 without and with this clock's pop
  always_comb begin
    slot_free    = RW'(flight_q) < RW'(PAIRS_IN_FLIGHT);
    pending_room = room_q || flight_q == '0;
    tri_room     = RW'(tq_cnt) + RW'(flight_q) < RW'(TRI_QUEUE);
    issue        = running_q && pend_cnt != '0 && slot_free && pending_room && tri_room;
  end
  assign pend_pop        = issue;

  always_comb begin
    for (int e = 0; e < 6; e++) begin
      room_if[e]    = reserve_q < lim_q[e];
      reserve_if[e] = reserve_q + RW'(e) - RW'(2);
      lim_d[e]      = 32'(limit_d) + 2 < e ? '0 : RW'(limit_d) + RW'(2) - RW'(e);
    end
    // keep: d = grow_keep - 2 sat_valid; pop: d = 1 + grow_pop - 2 sat_valid
    e_keep = 3'(pend_grow_keep) + 3'd2 - (3'(sat_valid_i) << 1);
    e_pop  = 3'(pend_grow_pop) + 3'd3 - (3'(sat_valid_i) << 1);
    if (start_i) begin  // the root alone, nothing in flight
      room_d    = PCW'(1) < limit_d;
      reserve_d = RW'(1);
    end else begin
      room_d    = issue ? room_if[e_pop] : room_if[e_keep];
      reserve_d = issue ? reserve_if[e_pop] : reserve_if[e_keep];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      room_q    <= 1'b1;
      reserve_q <= '0;
      rule_q    <= '0;
      for (int e = 0; e < 6; e++) lim_q[e] <= RW'(PENDING_DEPTH + 2 - e);
    end else begin
      room_q    <= room_d;
      reserve_q <= reserve_d;
      rule_q    <= rule_d;
      if (start_i) for (int e = 0; e < 6; e++) lim_q[e] <= lim_d[e];
    end
  end
  assign node_raddr_o = {pend_top.s, pend_top.f};

  logic [63:0] link_f, link_s;  // the link words of the pair issued RAM_LAT clocks ago
  assign link_f = node_link_i[0 +: 64];
  assign link_s = node_link_i[64 +: 64];

  // RAM stage: the issued pair waits RAM_LAT clocks for its records.
  logic  ram_valid_q [RAM_LAT];
  // Pipeline registers of struct values are arrays of plain vectors of the struct's width: Yosys
  // 0.23 gives the elements of an array of a struct type one bit each, a silently wrong netlist
  // (docs/toolchain.md §4; scripts/yosys-read-check.sh refuses such arrays).
  localparam int PairBits = 16 + 2 * NODE_AW;  // pair_t
  localparam int MetaBits = PairBits + 128;    // sat_meta_t
  localparam int JobBits  = 2 * TRI_AW;        // job_t
  logic [PairBits-1:0] ram_pair_q [RAM_LAT];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < RAM_LAT; i++) ram_valid_q[i] <= 1'b0;
    end else begin
      ram_valid_q[0] <= issue;
      for (int i = 1; i < RAM_LAT; i++) ram_valid_q[i] <= ram_valid_q[i-1];
    end
  end
  always_ff @(posedge clk_i) begin
    ram_pair_q[0] <= pend_top;
    for (int i = 1; i < RAM_LAT; i++) ram_pair_q[i] <= ram_pair_q[i-1];
  end

  // ------------------------------------------------------------------------------- SAT
  // The pair whose records leave the RAMs now enters the SAT unit (kdopcd_v2_top wires the fetch
  // block's coefficient vectors to it); its meta travels beside it for SAT_LAT clocks.
  logic                   sat_in_valid;
  sat_meta_t              sat_in_meta;
  logic                   sat_valid, sat_separated;
  logic [K-1:0]           sat_lanes;
  logic [EFF_W-1:0]       sat_effective;

  assign sat_in_valid       = ram_valid_q[RAM_LAT-1];
  assign sat_in_meta.pair   = ram_pair_q[RAM_LAT-1];
  assign sat_in_meta.link_f = link_f;  // a packed struct takes the bits as they are
  assign sat_in_meta.link_s = link_s;
  assign sat_valid_o        = sat_in_valid;
  assign sat_valid          = sat_valid_i;
  assign sat_lanes          = sat_lane_verdict_i;
  assign sat_separated      = sat_separated_i;
  assign sat_effective      = sat_effective_i;

  logic [MetaBits-1:0] meta_q [SAT_LAT];
  always_ff @(posedge clk_i) begin
    meta_q[0] <= sat_in_meta;
    for (int i = 1; i < SAT_LAT; i++) meta_q[i] <= meta_q[i-1];
  end

  // ------------------------------------------------------------------------------- verdict
  sat_meta_t vm;
  logic      v_valid, v_overlap, v_leaves, split_first;
  assign vm        = meta_q[SAT_LAT-1];
  assign v_valid   = sat_valid && running_q;
  assign v_overlap = v_valid && !sat_separated;
  // The verdict's link words in the contract's layout (docs/formats.md). They travel through the
  // SAT unit as plain words: Yosys 0.23 does not resolve a package's struct nested in a struct.
  kdopcd_format_pkg::link_t v_link_f, v_link_s;
  assign v_link_f  = vm.link_f;
  assign v_link_s  = vm.link_s;
  assign v_leaves  = v_link_f.leaf && v_link_s.leaf;

  // kdopcd::split_first_node (ref/include/kdopcd/traversal.hpp).
  always_comb begin
    if (v_link_f.leaf)       split_first = 1'b0;
    else if (v_link_s.leaf)  split_first = 1'b1;
    else if (rule_q == kdopcd_format_pkg::RULE_FIRST)  split_first = 1'b1;
    else if (rule_q == kdopcd_format_pkg::RULE_SECOND) split_first = 1'b0;
    else                      split_first = vm.pair.depth_f <= vm.pair.depth_s;
  end

  always_comb begin
    push_first  = vm.pair;
    push_second = vm.pair;
    if (split_first) begin
      push_first.f        = NODE_AW'(v_link_f.right);
      push_second.f       = NODE_AW'(v_link_f.left);
      push_first.depth_f  = vm.pair.depth_f + 8'd1;
      push_second.depth_f = vm.pair.depth_f + 8'd1;
    end else begin
      push_first.s        = NODE_AW'(v_link_s.right);
      push_second.s       = NODE_AW'(v_link_s.left);
      push_first.depth_s  = vm.pair.depth_s + 8'd1;
      push_second.depth_s = vm.pair.depth_s + 8'd1;
    end
  end
  assign pend_push = v_overlap && !v_leaves;
  assign job_push  = v_overlap && v_leaves;
  assign job_in.tf = TRI_AW'(v_link_f.left);
  assign job_in.ts = TRI_AW'(v_link_s.left);

  // ------------------------------------------------------------------------------- triangle unit
  logic tri_ready, tri_credit, tri_stall;
  logic tri_out_valid, tri_out_hit;
  logic [63:0] tri_out_id;
  logic [CQW:0] cq_after;

  assign cq_pop = running_q && cq_cnt != '0 && m_axis_tready_i;
  assign cq_push = running_q && tri_out_valid && tri_out_hit;
  assign cq_in   = tri_out_id;
  // The credit is cq_after + tri_flight_q - tri_out_valid + 1 <= CONTACT_QUEUE. A verdict that
  // leaves the unit either enters the contact queue (a hit: no change) or frees its place (a miss),
  // and a pop frees one: so the sum is the registered cq_cnt + tri_flight_q less 0, 1 or 2, and
  // the three comparisons are made on registers, the late pop and verdict only select.
  localparam int CRW = $clog2(CONTACT_QUEUE + TRI_LAT + RAM_LAT + 4);
  logic [CRW-1:0] cq_owed;
  logic           credit_0, credit_1, credit_2;
  logic [1:0]     freed;
  always_comb begin
    cq_after   = (CQW+1)'(cq_cnt) - (CQW+1)'(cq_pop) + (CQW+1)'(cq_push);
    tri_ready  = running_q && tq_cnt != '0 && ii_cnt_q == '0;
    cq_owed    = CRW'(cq_cnt) + CRW'(tri_flight_q);
    credit_0   = cq_owed < CRW'(CONTACT_QUEUE);
    credit_1   = cq_owed < CRW'(CONTACT_QUEUE + 1);
    credit_2   = cq_owed < CRW'(CONTACT_QUEUE + 2);
    freed      = 2'(tri_out_valid && !(running_q && tri_out_hit)) + 2'(cq_pop);
    tri_credit = freed == 2'd2 ? credit_2 : (freed == 2'd1 ? credit_1 : credit_0);
    tri_start  = tri_ready && tri_credit;
    tri_stall  = tri_ready && !tri_credit;
  end
  assign tri_raddr_o = {job_head.ts, job_head.tf};

  logic tri_ram_valid_q [RAM_LAT];
  logic [JobBits-1:0] tri_ram_job_q [RAM_LAT];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < RAM_LAT; i++) tri_ram_valid_q[i] <= 1'b0;
    end else begin
      tri_ram_valid_q[0] <= tri_start;
      for (int i = 1; i < RAM_LAT; i++) tri_ram_valid_q[i] <= tri_ram_valid_q[i-1];
    end
  end
  always_ff @(posedge clk_i) begin
    tri_ram_job_q[0] <= job_head;
    for (int i = 1; i < RAM_LAT; i++) tri_ram_job_q[i] <= tri_ram_job_q[i-1];
  end

  // The time-multiplexed exact unit (rtl-triangle-unit.md; in kdopcd_v2_top, its records from
  // the fetch block): the scheduler never starts two tests within TRI_II clocks (ii_cnt_q), the
  // unit's own contract.
  job_t tri_job;  // the job whose records come out of the RAMs now
  assign tri_job       = tri_ram_job_q[RAM_LAT-1];
  assign tri_valid_o   = tri_ram_valid_q[RAM_LAT-1];
  assign tri_id_o      = {32'(tri_job.ts), 32'(tri_job.tf)};
  assign tri_out_valid = tri_valid_i;
  assign tri_out_hit   = tri_hit_i;
  assign tri_out_id    = tri_id_i;

  assign m_axis_tvalid_o = running_q && cq_cnt != '0;
  assign m_axis_tdata_o  = cq_head;

  // ------------------------------------------------------------------------------- end of query
  always_comb begin
    flight_d     = flight_q + FW'(issue) - FW'(sat_valid);
    tri_flight_d = tri_flight_q + TFW'(tri_start) - TFW'(tri_out_valid);
    ii_cnt_d     = tri_start ? ($clog2(TRI_II+1))'(TRI_II - 1) : (ii_cnt_q != '0 ? ii_cnt_q - 1'b1 : ii_cnt_q);
    // flight_d == 0 and the triangle queue's next count == 0, written so that issue and
    // tri_start only select (a verdict never comes back with nothing in flight).
    finish       = running_q && (pend_ovf ||
                   (pend_empty_next && !issue && flight_q == FW'(sat_valid) &&
                    (tri_start ? tq_cnt == TQW'(1) && !job_push : tq_cnt == '0 && !job_push) &&
                    !tri_start && tri_flight_q == TFW'(tri_out_valid) && cq_after == '0));
    running_d    = start_i ? 1'b1 : (finish ? 1'b0 : running_q);
    if (start_i) ii_cnt_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q    <= 1'b0;
      flight_q     <= '0;
      tri_flight_q <= '0;
      ii_cnt_q     <= '0;
      done_q       <= 1'b0;
      overflow_q   <= 1'b0;
    end else begin
      running_q    <= running_d;
      flight_q     <= flight_d;
      tri_flight_q <= tri_flight_d;
      ii_cnt_q     <= ii_cnt_d;
      done_q       <= finish;
      if (start_i)     overflow_q <= 1'b0;
      else if (finish) overflow_q <= pend_ovf;
    end
  end

  assign busy_o     = running_q;
  assign idle_o     = !running_q && flight_q == '0 && tri_flight_q == '0;
  assign done_o     = done_q;
  assign overflow_o = overflow_q;

  // ------------------------------------------------------------------------------- counters
  logic [63:0] cnt_q [NCNT];
  logic [63:0] cnt_d [NCNT];
  // The three high-water marks never exceed their structure's size: they are kept as narrow
  // registers and compared with counts taken from registers, the late decisions (issue,
  // tri_start) only select. MAX_PENDING is the largest count the pending set reached: the largest
  // of the registered counts so far (max_pend_q) and the current one, so no comparison follows
  // the pending set's next count.
  logic [PCW-1:0] max_pend_q, max_pend_d, max_pend;
  logic [TQW-1:0] max_tq_q, max_tq_d;
  logic [CQW-1:0] max_cq_q, max_cq_d;
  logic [TQW-1:0] tq_plus_one;
  logic [CQW-1:0] cq_plus_one;
  assign tq_plus_one = tq_cnt + TQW'(1);
  assign cq_plus_one = cq_cnt + CQW'(1);
  assign max_pend    = pend_cnt > max_pend_q ? pend_cnt : max_pend_q;

  always_comb begin
    max_pend_d = max_pend_q;
    max_tq_d   = max_tq_q;
    max_cq_d   = max_cq_q;
    if (running_q) begin
      max_pend_d = max_pend;
      // after the push: tq_cnt - tri_start + 1 (a start never takes the pushed job)
      if (job_push && (tri_start ? tq_cnt > max_tq_q : tq_plus_one > max_tq_q))
        max_tq_d = tri_start ? tq_cnt : tq_plus_one;
      if (cq_push && (cq_pop ? cq_cnt > max_cq_q : cq_plus_one > max_cq_q))
        max_cq_d = cq_pop ? cq_cnt : cq_plus_one;
    end
    if (start_i) begin
      max_pend_d = '0;  // the root is counted from the pending set's count, 1 after START
      max_tq_d   = '0;
      max_cq_d   = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      max_pend_q <= '0;
      max_tq_q   <= '0;
      max_cq_q   <= '0;
    end else begin
      max_pend_q <= max_pend_d;
      max_tq_q   <= max_tq_d;
      max_cq_q   <= max_cq_d;
    end
  end

  always_comb begin
    for (int i = 0; i < NCNT; i++) cnt_d[i] = cnt_q[i];
    if (running_q) begin
      cnt_d[kdopcd_v2_pkg::CNT_CYCLES] = cnt_q[kdopcd_v2_pkg::CNT_CYCLES] + 64'd1;
      if (v_valid) begin
        cnt_d[kdopcd_v2_pkg::CNT_PAIR_TESTS] = cnt_q[kdopcd_v2_pkg::CNT_PAIR_TESTS] + 64'd1;
        cnt_d[kdopcd_v2_pkg::CNT_AXIS_TESTS] = cnt_q[kdopcd_v2_pkg::CNT_AXIS_TESTS] + 64'(sat_effective);
      end
      if (job_push) cnt_d[kdopcd_v2_pkg::CNT_LEAF_PAIRS] = cnt_q[kdopcd_v2_pkg::CNT_LEAF_PAIRS] + 64'd1;
      if (tri_start) cnt_d[kdopcd_v2_pkg::CNT_TRIANGLE_TESTS] = cnt_q[kdopcd_v2_pkg::CNT_TRIANGLE_TESTS] + 64'd1;
      if (cq_pop) cnt_d[kdopcd_v2_pkg::CNT_CONTACTS] = cnt_q[kdopcd_v2_pkg::CNT_CONTACTS] + 64'd1;
      if (pend_cnt != '0 && !issue)
        cnt_d[kdopcd_v2_pkg::CNT_STALL_CYCLES] = cnt_q[kdopcd_v2_pkg::CNT_STALL_CYCLES] + 64'd1;
      if (tri_stall)
        cnt_d[kdopcd_v2_pkg::CNT_TRIANGLE_STALL_CYCLES] = cnt_q[kdopcd_v2_pkg::CNT_TRIANGLE_STALL_CYCLES] + 64'd1;
      if (sat_in_valid) cnt_d[kdopcd_v2_pkg::CNT_SAT_ISSUES] = cnt_q[kdopcd_v2_pkg::CNT_SAT_ISSUES] + 64'd1;
    end
    if (start_i) begin
      for (int i = 0; i < NCNT; i++)
        if (i != 32'(kdopcd_v2_pkg::CNT_LOAD_CYCLES) && i != 32'(kdopcd_v2_pkg::CNT_LOAD_BEATS)) cnt_d[i] = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NCNT; i++) cnt_q[i] <= '0;
    end else begin
      for (int i = 0; i < NCNT; i++) cnt_q[i] <= cnt_d[i];
    end
  end
  for (genvar i = 0; i < NCNT; i++) begin : g_cnt_out
    if (i == kdopcd_v2_pkg::CNT_MAX_PENDING) begin : g_max_pending
      assign counters_o[i*64 +: 64] = 64'(max_pend);
    end else if (i == kdopcd_v2_pkg::CNT_MAX_TRIANGLE_QUEUE) begin : g_max_tri_queue
      assign counters_o[i*64 +: 64] = 64'(max_tq_q);
    end else if (i == kdopcd_v2_pkg::CNT_MAX_CONTACT_QUEUE) begin : g_max_contact_queue
      assign counters_o[i*64 +: 64] = 64'(max_cq_q);
    end else begin : g_counter
      assign counters_o[i*64 +: 64] = cnt_q[i];
    end
  end

  logic unused;
  assign unused = ^{sat_lanes, sat_in_meta, v_link_f.right[30:0], v_link_s.right[30:0],
                    v_link_f.left[31:0], v_link_s.left[31:0]};

`ifndef SYNTHESIS
  // The credits guarantee these; a failure is a defect of the engine.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else begin
      if (job_push && !tri_start && 32'(tq_cnt) >= TRI_QUEUE)
        $error("kdopcd_v2_engine: triangle queue overrun (credit)");
      if (cq_push && !cq_pop && 32'(cq_cnt) >= CONTACT_QUEUE)
        $error("kdopcd_v2_engine: contact queue overrun (credit)");
    end
  end
`endif

endmodule
