// The command queue's front end of the v2 top (docs/accelerator-v2.md, "Command queue"): the
// descriptor ring's head, the DMA reads of descriptors into DESC_BUFFERS buffers, and the
// dispatch of the oldest fetched descriptor to the lowest idle engine of ENGINES. A buffer holds
// its query from the fetch to the completion: the engine's query fields (the axis table, rule and
// pending limit at START, M' and T' while it runs) come from it, so no copy is made.
//
// Per clock t (the model's contract, docs/model-v2.md "End to end"):
//   - a descriptor whose last beat comes in t is READY at the end of t;
//   - if the doorbell (tail_i, the register written in an earlier clock) is ahead of the
//     descriptors requested and a buffer is FREE, its read is requested: ARVALID from t + 1;
//   - if the oldest READY descriptor exists and an engine may start (idle, not blocked, not held by
//     a queued query or releasing it in t), START of the lowest such engine in t (start_o one-hot):
//     it pops the root in t + 1;
//   - release_i[e] (the clock after engine e's DONE, when its completion is queued) frees that
//     engine's buffer at the end of t.
// Reads return in request order, so the buffers requested wait in `order_q` (request order): the
// first `ready_q` of them are READY, the next is being filled, and dispatch takes the first.
// A read that answers SLVERR or DECERR marks its descriptor (desc_error_o): the query runs on what
// came and its completion record says BUS_ERROR.
module kdopcd_v2_cmdq #(
  parameter int K            = kdopcd_v2_pkg::DEFAULT_K,
  parameter int C            = kdopcd_v2_pkg::DEFAULT_C,
  parameter int Z            = kdopcd_v2_pkg::DEFAULT_Z,
  parameter int V            = kdopcd_v2_pkg::DEFAULT_V,
  parameter int M            = kdopcd_v2_pkg::DEFAULT_M,
  parameter int ADDR_W       = kdopcd_v2_pkg::DEFAULT_ADDR_W,
  parameter int DMA_W        = kdopcd_v2_pkg::DEFAULT_DMA_W,
  parameter int DESC_BUFFERS = kdopcd_v2_pkg::DEFAULT_DESC_BUFFERS,
  parameter int RING_SLOTS   = kdopcd_v2_pkg::DEFAULT_RING_SLOTS,
  parameter int ENGINES      = kdopcd_v2_pkg::DEFAULT_ENGINES,
  localparam int JW          = $clog2(K),
  localparam int RotW        = M + 2,
  localparam int TransW      = V + M + 4
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [ADDR_W-1:0]       queue_base_i,
  input  logic [31:0]             tail_i,        // DOORBELL
  output logic [31:0]             head_o,        // QUEUE_HEAD: descriptors fetched
  // AXI4 read master: descriptors
  output logic                    m_axi_arvalid_o,
  input  logic                    m_axi_arready_i,
  output logic [ADDR_W-1:0]       m_axi_araddr_o,
  output logic [7:0]              m_axi_arlen_o,
  output logic [2:0]              m_axi_arsize_o,
  output logic [1:0]              m_axi_arburst_o,
  input  logic                    m_axi_rvalid_i,
  output logic                    m_axi_rready_o,
  input  logic [DMA_W-1:0]        m_axi_rdata_i,
  input  logic [1:0]              m_axi_rresp_i,
  input  logic                    m_axi_rlast_i,
  // the engines
  input  logic [ENGINES-1:0]      engine_idle_i,
  input  logic                    blocked_i,     // no queued query may start in this clock
  output logic [ENGINES-1:0]      start_o,       // START from the queue (one-cycle pulse, one engine)
  output logic [ENGINES-1:0]      holds_o,       // a queued query holds the engine (START .. release)
  input  logic [ENGINES-1:0]      release_i,     // its completion is queued: free its buffer
  // the fields of the query starting (in start_o's clock): the SAT unit's, the rule, the limit,
  // the write-back's targets
  output logic [1:0]              rule_o,
  output logic [23:0]             pending_limit_o,
  // M' and T' of the query each engine starts or runs
  output logic [ENGINES*9*RotW-1:0]   rot_o,
  output logic [ENGINES*3*TransW-1:0] trans_o,
  output logic [K*3*(C+1)-1:0]    axis_pa_o,
  output logic [K*3*(C+1)-1:0]    axis_pb_o,
  output logic [K*(Z+4)-1:0]      axis_p_o,
  output logic [K*3*JW-1:0]       axis_ja_o,
  output logic [K*3*JW-1:0]       axis_jb_o,
  output logic [63:0]             tag_o,
  output logic [63:0]             contact_base_o,
  output logic [31:0]             contact_capacity_o,
  output logic [63:0]             completion_base_o,
  output logic                    desc_error_o
);

  localparam int Beats    = kdopcd_v2_pkg::desc_beats(K, DMA_W);
  localparam int BufBits  = Beats * DMA_W;
  localparam int NB       = DESC_BUFFERS;
  localparam int PW       = NB > 1 ? $clog2(NB) : 1;
  localparam int BW       = $clog2(Beats + 1);
  localparam int SlotBits = $clog2(kdopcd_v2_pkg::slot_bytes());
  localparam int RingBits = $clog2(RING_SLOTS);
  // Descriptor word positions (kdopcd_contract/command_queue.hpp).
  localparam int WTag = 0, WQuery = 1, WContact = 2, WCapacity = 3, WCompletion = 4, WRot = 5, WTrans = 10;
  localparam int WAxes = 16;
  // AXIS_ENTRY field positions inside an entry's three words.
  localparam int PT  = 3 * kdopcd_format_pkg::axis_entry_pa_bits(C);
  localparam int OW  = kdopcd_format_pkg::axis_entry_p_bits(Z);
  localparam int JT  = 3 * kdopcd_format_pkg::axis_entry_ja_bits(K);
  localparam int EPB = kdopcd_format_pkg::axis_entry_pb_lsb(C, 0);
  localparam int EP  = kdopcd_format_pkg::axis_entry_p_lsb(C);
  localparam int EJA = kdopcd_format_pkg::axis_entry_ja_lsb(K, C, Z, 0);
  localparam int EJB = kdopcd_format_pkg::axis_entry_jb_lsb(K, C, Z, 0);

  typedef enum logic [1:0] { BufFree, BufFetch, BufReady, BufRun } buf_state_e;

  buf_state_e             state_q [NB];
  buf_state_e             state_d [NB];
  logic                   err_q [NB];
  logic                   err_d [NB];
  logic [BufBits-1:0]     buf_q [NB];
  logic [PW-1:0]          order_q [NB];  // the buffers requested and not dispatched, oldest first
  logic [PW-1:0]          order_d [NB];
  localparam int OW2      = $clog2(NB + 1);
  logic [OW2-1:0]         queued_q, queued_d, ready_q, ready_d;  // entries of order_q; READY ones
  logic [PW-1:0]          run_q [ENGINES];
  logic [PW-1:0]          run_d [ENGINES];
  logic [ENGINES-1:0]     holds_q, holds_d;
  logic [BW-1:0]          beat_q, beat_d;
  logic [31:0]            issued_q, issued_d, fetched_q, fetched_d;
  logic                   arvalid_q, arvalid_d;
  logic [ADDR_W-1:0]      araddr_q, araddr_d;
  logic                   issue, r_hs, have_free, dispatch;
  logic [PW-1:0]          free_slot, fill_slot, disp_slot;
  logic [ENGINES-1:0]     may_start;

  // the lowest FREE buffer
  always_comb begin
    have_free = 1'b0;
    free_slot = '0;
    for (int b = NB - 1; b >= 0; b--) begin
      if (state_q[b] == BufFree) begin
        have_free = 1'b1;
        free_slot = PW'(b);
      end
    end
  end
  assign fill_slot = order_q[ready_q[PW-1:0]];
  assign disp_slot = order_q[0];

  // the lowest engine that may start: idle, and not held (or releasing its query now)
  always_comb begin
    for (int e = 0; e < ENGINES; e++)
      may_start[e] = engine_idle_i[e] && (!holds_q[e] || release_i[e]);
    start_o = '0;
    for (int e = ENGINES - 1; e >= 0; e--)
      if (may_start[e]) start_o = ENGINES'(1) << e;
    if (ready_q == '0 || blocked_i) start_o = '0;
  end
  assign dispatch = start_o != '0;

  assign r_hs  = m_axi_rvalid_i;  // rready is always high: the buffer was reserved at the request
  assign issue = issued_q != tail_i && have_free && (!arvalid_q || m_axi_arready_i);

  always_comb begin
    for (int b = 0; b < NB; b++) begin
      state_d[b] = state_q[b];
      err_d[b]   = err_q[b];
      order_d[b] = order_q[b];
    end
    for (int e = 0; e < ENGINES; e++) run_d[e] = run_q[e];
    holds_d   = holds_q;
    queued_d  = queued_q;
    ready_d   = ready_q;
    beat_d    = beat_q;
    issued_d  = issued_q;
    fetched_d = fetched_q;
    arvalid_d = arvalid_q && !m_axi_arready_i;
    araddr_d  = araddr_q;
    // releases: the buffers of the queries whose completion is queued now (issue sees _q)
    for (int e = 0; e < ENGINES; e++) begin
      if (release_i[e]) begin
        state_d[run_q[e]] = BufFree;
        holds_d[e]        = 1'b0;
      end
    end
    // dispatch: the oldest READY buffer leaves the order queue
    if (dispatch) begin
      state_d[disp_slot] = BufRun;
      for (int b = 0; b < NB - 1; b++) order_d[b] = order_q[b + 1];
      queued_d = queued_q - 1'b1;
      ready_d  = ready_q - 1'b1;
      for (int e = 0; e < ENGINES; e++) begin
        if (start_o[e]) begin
          run_d[e]   = disp_slot;
          holds_d[e] = 1'b1;
        end
      end
    end
    if (r_hs) begin
      if (m_axi_rresp_i != 2'b00) err_d[fill_slot] = 1'b1;
      beat_d = beat_q + 1'b1;
      if (m_axi_rlast_i) begin
        state_d[fill_slot] = BufReady;
        ready_d            = ready_d + 1'b1;
        beat_d             = '0;
        fetched_d          = fetched_q + 32'd1;
      end
    end
    if (issue) begin
      state_d[free_slot] = BufFetch;
      err_d[free_slot]   = 1'b0;
      order_d[queued_d[PW-1:0]] = free_slot;
      queued_d           = queued_d + 1'b1;
      issued_d           = issued_q + 32'd1;
      arvalid_d          = 1'b1;
      araddr_d           = queue_base_i + (ADDR_W'(issued_q[RingBits-1:0]) << SlotBits);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int b = 0; b < NB; b++) begin
        state_q[b] <= BufFree;
        err_q[b]   <= 1'b0;
        order_q[b] <= '0;
      end
      for (int e = 0; e < ENGINES; e++) run_q[e] <= '0;
      holds_q   <= '0;
      queued_q  <= '0;
      ready_q   <= '0;
      beat_q    <= '0;
      issued_q  <= '0;
      fetched_q <= '0;
      arvalid_q <= 1'b0;
      araddr_q  <= '0;
    end else begin
      for (int b = 0; b < NB; b++) begin
        state_q[b] <= state_d[b];
        err_q[b]   <= err_d[b];
        order_q[b] <= order_d[b];
      end
      for (int e = 0; e < ENGINES; e++) run_q[e] <= run_d[e];
      holds_q   <= holds_d;
      queued_q  <= queued_d;
      ready_q   <= ready_d;
      beat_q    <= beat_d;
      issued_q  <= issued_d;
      fetched_q <= fetched_d;
      arvalid_q <= arvalid_d;
      araddr_q  <= araddr_d;
    end
  end

  // The buffers: data registers without reset (each beat written once per fetch).
  always_ff @(posedge clk_i) begin
    if (r_hs) begin
      for (int b = 0; b < NB; b++)
        if (32'(fill_slot) == b)
          for (int i = 0; i < Beats; i++)
            if (32'(beat_q) == i) buf_q[b][i*DMA_W +: DMA_W] <= m_axi_rdata_i;
    end
  end

  assign head_o          = fetched_q;
  assign holds_o         = holds_q;
  assign m_axi_arvalid_o = arvalid_q;
  assign m_axi_araddr_o  = araddr_q;
  assign m_axi_arlen_o   = 8'(Beats - 1);
  assign m_axi_arsize_o  = 3'($clog2(DMA_W / 8));
  assign m_axi_arburst_o = 2'b01;  // INCR
  assign m_axi_rready_o  = 1'b1;

  // ---- the fields of the query starting: from the oldest READY buffer
  logic [BufBits-1:0] cur;
  assign cur = buf_q[disp_slot];

  kdopcd_v2_pkg::query_t query;
  assign query              = cur[64*WQuery +: 32];  // the QUERY word's packed struct
  assign rule_o             = query.rule;
  assign pending_limit_o    = cur[64*WQuery + 32 +: 24];
  assign tag_o              = cur[64*WTag +: 64];
  assign contact_base_o     = cur[64*WContact +: 64];
  assign contact_capacity_o = cur[64*WCapacity +: 32];
  assign completion_base_o  = cur[64*WCompletion +: 64];
  assign desc_error_o       = err_q[disp_slot];
  for (genvar a = 0; a < K; a++) begin : g_axes
    localparam int E0 = 64 * (WAxes + 3 * a);
    assign axis_pa_o[a*PT +: PT] = cur[E0 +: PT];
    assign axis_pb_o[a*PT +: PT] = cur[E0 + EPB +: PT];
    assign axis_p_o[a*OW +: OW]  = cur[E0 + EP +: OW];
    assign axis_ja_o[a*JT +: JT] = cur[E0 + EJA +: JT];
    assign axis_jb_o[a*JT +: JT] = cur[E0 + EJB +: JT];
  end
  // ---- M' and T' per engine: the buffer it starts from or runs on
  for (genvar e = 0; e < ENGINES; e++) begin : g_engine
    logic [8*64-1:0] mine;  // words WRot .. WTrans + 2
    assign mine = buf_q[start_o[e] ? disp_slot : run_q[e]][64*WRot +: 8*64];
    for (genvar i = 0; i < 9; i++) begin : g_rot
      assign rot_o[(e*9 + i)*RotW +: RotW] = mine[32*i +: RotW];
    end
    for (genvar i = 0; i < 3; i++) begin : g_trans
      assign trans_o[(e*3 + i)*TransW +: TransW] = mine[64*(WTrans - WRot + i) +: TransW];
    end
  end

  logic unused;
  assign unused = ^{query, issued_q[31:RingBits]};

endmodule
