// AXI4-Lite register file of the v2 top. The map, the CONTROL/STATUS bits and the counter order
// are those of kdopcd_v2_pkg (generated from contract/accelerator_v2.json; table in
// docs/accelerator-v2.md).
//
// Protocol as kdopcd_regs: AW and W accepted together when no write response is pending, the
// response in the next cycle; AR accepted when no read response is pending, the data in the next
// cycle; unmapped and write-only addresses read as 0; byte strobes honoured.
//
// CONTROL writes become one-cycle pulses in the next cycle: START (only while the engine is idle
// and the trees are LOADED; otherwise ignored), LOAD (only while idle), CLEAR. STATUS.DONE and
// the error flags are sticky until CLEAR (or the next START / LOAD); irq_o follows DONE.
module kdopcd_v2_regs #(
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
  parameter int ENGINES         = kdopcd_v2_pkg::DEFAULT_ENGINES,
  parameter int DMA_W           = kdopcd_v2_pkg::DEFAULT_DMA_W,
  parameter int DESC_BUFFERS    = kdopcd_v2_pkg::DEFAULT_DESC_BUFFERS,
  parameter int RING_SLOTS      = kdopcd_v2_pkg::DEFAULT_RING_SLOTS,
  localparam int AXIS_BITS      = kdopcd_format_pkg::axis_entry_bits(K, C, Z),
  localparam int NCNT           = kdopcd_v2_pkg::NUM_COUNTERS
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // AXI4-Lite slave
  input  logic                     s_axil_awvalid_i,
  output logic                     s_axil_awready_o,
  input  logic [11:0]              s_axil_awaddr_i,
  input  logic                     s_axil_wvalid_i,
  output logic                     s_axil_wready_o,
  input  logic [31:0]              s_axil_wdata_i,
  input  logic [3:0]               s_axil_wstrb_i,
  output logic                     s_axil_bvalid_o,
  input  logic                     s_axil_bready_i,
  output logic [1:0]               s_axil_bresp_o,
  input  logic                     s_axil_arvalid_i,
  output logic                     s_axil_arready_o,
  input  logic [11:0]              s_axil_araddr_i,
  output logic                     s_axil_rvalid_o,
  input  logic                     s_axil_rready_i,
  output logic [31:0]              s_axil_rdata_o,
  output logic [1:0]               s_axil_rresp_o,
  // towards the engine and the loader
  output logic                     start_o,
  output logic                     load_o,
  output logic [1:0]               rule_o,
  output logic [23:0]              pending_limit_o,
  output logic [2*ADDR_W-1:0]      node_base_o,  // tree t at [t*ADDR_W +: ADDR_W] (flat: Yosys 0.23)
  output logic [2*ADDR_W-1:0]      tri_base_o,
  output logic [63:0]              nodes_o,      // tree t at [t*32 +: 32]
  output logic [63:0]              tris_o,
  output logic [9*(M+2)-1:0]       rot_o,
  output logic [3*(V+M+4)-1:0]     trans_o,
  // the axis table by field, axis a at [a*W +: W] of each (W = 3 (C+1), 3 (C+1), Z+4, 3 clog2(K),
  // 3 clog2(K)): the wide SAT unit's ports
  output logic [K*3*(C+1)-1:0]     axis_pa_o,
  output logic [K*3*(C+1)-1:0]     axis_pb_o,
  output logic [K*(Z+4)-1:0]       axis_p_o,
  output logic [K*3*$clog2(K)-1:0] axis_ja_o,
  output logic [K*3*$clog2(K)-1:0] axis_jb_o,
  input  logic                     busy_i,       // the engine or the loader runs
  input  logic                     idle_i,       // nothing runs or drains
  input  logic                     query_done_i, // pulses
  input  logic                     overflow_i,   // with query_done_i
  input  logic                     load_done_i,
  input  logic                     load_ok_i,    // with load_done_i
  input  logic                     load_error_i, // with load_done_i
  input  logic                     bus_error_i,  // with load_done_i
  input  logic [NCNT*64-1:0]       counters_i,
  // the command queue
  output logic [63:0]              queue_base_o,
  output logic [31:0]              doorbell_o,
  input  logic [31:0]              queue_head_i,
  input  logic [31:0]              queue_done_i,
  output logic                     loaded_o,     // STATUS.LOADED: the queue may run queries
  output logic                     irq_o
);

  localparam int RotW      = M + 2;
  localparam int TransW    = V + M + 4;
  localparam int AxisWords = (AXIS_BITS + 31) / 32;

  // Word indices (byte offset / 4) of the contract's registers.
  function automatic logic [9:0] idx(input logic [11:0] offset);
    idx = 10'(offset >> 2);
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Write channel
  logic        bvalid_q, wr_en;
  logic [9:0]  wr_idx;
  logic [31:0] wr_mask;
  assign wr_en            = s_axil_awvalid_i && s_axil_wvalid_i && !bvalid_q;
  assign s_axil_awready_o = wr_en;
  assign s_axil_wready_o  = wr_en;
  assign s_axil_bvalid_o  = bvalid_q;
  assign s_axil_bresp_o   = 2'b00;
  assign wr_idx           = s_axil_awaddr_i[11:2];
  assign wr_mask          = {{8{s_axil_wstrb_i[3]}}, {8{s_axil_wstrb_i[2]}}, {8{s_axil_wstrb_i[1]}},
                             {8{s_axil_wstrb_i[0]}}};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                bvalid_q <= 1'b0;
    else if (wr_en)             bvalid_q <= 1'b1;
    else if (s_axil_bready_i)   bvalid_q <= 1'b0;
  end

  function automatic logic [31:0] merge(input logic [31:0] old_word, input logic [31:0] data,
                                        input logic [31:0] mask);
    merge = (old_word & ~mask) | (data & mask);
  endfunction

  // ---------------------------------------------------------------------------------------------
  // CONTROL pulses and the STATUS flags
  logic ctrl_wr;
  logic start_q, start_d, load_q, load_d, clear_d;
  logic done_q, done_d, ovf_q, ovf_d, loaded_q, loaded_d, lerr_q, lerr_d, berr_q, berr_d;

  assign ctrl_wr = wr_en && wr_idx == idx(kdopcd_v2_pkg::REG_CONTROL) && s_axil_wstrb_i[0];

  always_comb begin
    start_d  = ctrl_wr && s_axil_wdata_i[kdopcd_v2_pkg::CTRL_START] && idle_i && loaded_q;
    load_d   = ctrl_wr && s_axil_wdata_i[kdopcd_v2_pkg::CTRL_LOAD] && idle_i;
    clear_d  = ctrl_wr && s_axil_wdata_i[kdopcd_v2_pkg::CTRL_CLEAR];
    done_d   = done_q;
    ovf_d    = ovf_q;
    loaded_d = loaded_q;
    lerr_d   = lerr_q;
    berr_d   = berr_q;
    if (clear_d || start_q || load_q) begin
      done_d = 1'b0;
      ovf_d  = 1'b0;
      lerr_d = 1'b0;
      berr_d = 1'b0;
    end
    if (load_q) loaded_d = 1'b0;
    if (query_done_i) begin
      done_d = 1'b1;
      ovf_d  = overflow_i;
    end
    if (load_done_i) begin
      done_d   = 1'b1;
      loaded_d = load_ok_i;
      lerr_d   = load_error_i;
      berr_d   = bus_error_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      start_q  <= 1'b0;
      load_q   <= 1'b0;
      done_q   <= 1'b0;
      ovf_q    <= 1'b0;
      loaded_q <= 1'b0;
      lerr_q   <= 1'b0;
      berr_q   <= 1'b0;
    end else begin
      start_q  <= start_d;
      load_q   <= load_d;
      done_q   <= done_d;
      ovf_q    <= ovf_d;
      loaded_q <= loaded_d;
      lerr_q   <= lerr_d;
      berr_q   <= berr_d;
    end
  end

  assign start_o  = start_q;
  assign load_o   = load_q;
  assign loaded_o = loaded_q;
  assign irq_o   = done_q;

  logic [31:0] status;
  always_comb begin
    status = '0;
    status[kdopcd_v2_pkg::STAT_BUSY]       = busy_i;
    status[kdopcd_v2_pkg::STAT_DONE]       = done_q;
    status[kdopcd_v2_pkg::STAT_OVERFLOW]   = ovf_q;
    status[kdopcd_v2_pkg::STAT_BUS_ERROR]  = berr_q;
    status[kdopcd_v2_pkg::STAT_IDLE]       = idle_i;
    status[kdopcd_v2_pkg::STAT_LOADED]     = loaded_q;
    status[kdopcd_v2_pkg::STAT_LOAD_ERROR] = lerr_q;
  end

  // ---------------------------------------------------------------------------------------------
  // Query and load registers (reset to 0)
  kdopcd_v2_pkg::query_t query_q, query_d;  // AXES is read back only; the reserved bits stay 0
  logic [23:0]       limit_q, limit_d;
  logic [63:0]       base_q [4];         // first nodes, first triangles, second nodes, second triangles
  logic [63:0]       base_d [4];
  logic [31:0]       count_q [4];        // same order
  logic [31:0]       count_d [4];
  logic [RotW-1:0]   rot_q [9];
  logic [RotW-1:0]   rot_d [9];
  logic [TransW-1:0] trans_q [3];
  logic [TransW-1:0] trans_d [3];
  logic [63:0]       qbase_q, qbase_d;   // QUEUE_BASE
  logic [31:0]       bell_q, bell_d;     // DOORBELL
  logic [31:0]       rot_ext [9];
  logic [63:0]       trans_ext [3];
  logic [9:0]        base_idx [4];
  logic [9:0]        count_idx [4];

  assign base_idx[0]  = idx(kdopcd_v2_pkg::REG_A_NODE_BASE);
  assign base_idx[1]  = idx(kdopcd_v2_pkg::REG_A_TRI_BASE);
  assign base_idx[2]  = idx(kdopcd_v2_pkg::REG_B_NODE_BASE);
  assign base_idx[3]  = idx(kdopcd_v2_pkg::REG_B_TRI_BASE);
  assign count_idx[0] = idx(kdopcd_v2_pkg::REG_A_NODES);
  assign count_idx[1] = idx(kdopcd_v2_pkg::REG_A_TRIS);
  assign count_idx[2] = idx(kdopcd_v2_pkg::REG_B_NODES);
  assign count_idx[3] = idx(kdopcd_v2_pkg::REG_B_TRIS);

  for (genvar r = 0; r < 9; r++) begin : g_rot_ext
    assign rot_ext[r] = 32'($signed(rot_q[r]));
  end
  for (genvar r = 0; r < 3; r++) begin : g_trans_ext
    assign trans_ext[r] = 64'($signed(trans_q[r]));
  end

  always_comb begin
    query_d = query_q;
    limit_d = limit_q;
    for (int r = 0; r < 4; r++) base_d[r] = base_q[r];
    for (int r = 0; r < 4; r++) count_d[r] = count_q[r];
    for (int r = 0; r < 9; r++) rot_d[r] = rot_q[r];
    for (int r = 0; r < 3; r++) trans_d[r] = trans_q[r];
    qbase_d = qbase_q;
    bell_d  = bell_q;
    if (wr_en) begin
      if (wr_idx == idx(kdopcd_v2_pkg::REG_QUEUE_BASE))         qbase_d[31:0]  = merge(qbase_q[31:0], s_axil_wdata_i, wr_mask);
      if (wr_idx == idx(kdopcd_v2_pkg::REG_QUEUE_BASE) + 10'd1) qbase_d[63:32] = merge(qbase_q[63:32], s_axil_wdata_i, wr_mask);
      if (wr_idx == idx(kdopcd_v2_pkg::REG_DOORBELL))           bell_d = merge(bell_q, s_axil_wdata_i, wr_mask);
      if (wr_idx == idx(kdopcd_v2_pkg::REG_QUERY)) begin
        query_d = merge(query_q, s_axil_wdata_i, wr_mask);
        query_d.reserved = '0;
      end
      if (wr_idx == idx(kdopcd_v2_pkg::REG_PENDING_LIMIT))
        limit_d = 24'(merge(32'(limit_q), s_axil_wdata_i, wr_mask));
      for (int r = 0; r < 4; r++) begin
        if (wr_idx == base_idx[r])        base_d[r][31:0]  = merge(base_q[r][31:0], s_axil_wdata_i, wr_mask);
        if (wr_idx == base_idx[r] + 10'd1) base_d[r][63:32] = merge(base_q[r][63:32], s_axil_wdata_i, wr_mask);
        base_d[r] = 64'(base_d[r][ADDR_W-1:0]);
        if (wr_idx == count_idx[r])       count_d[r] = merge(count_q[r], s_axil_wdata_i, wr_mask);
      end
      for (int r = 0; r < 9; r++)
        if (wr_idx == idx(kdopcd_v2_pkg::REG_ROT) + 10'(r))
          rot_d[r] = RotW'(merge(rot_ext[r], s_axil_wdata_i, wr_mask));
      for (int r = 0; r < 3; r++) begin
        if (wr_idx == idx(kdopcd_v2_pkg::REG_TRANS) + 10'(2 * r))
          trans_d[r] = TransW'({trans_ext[r][63:32], merge(trans_ext[r][31:0], s_axil_wdata_i, wr_mask)});
        if (wr_idx == idx(kdopcd_v2_pkg::REG_TRANS) + 10'(2 * r + 1))
          trans_d[r] = TransW'({merge(trans_ext[r][63:32], s_axil_wdata_i, wr_mask), trans_ext[r][31:0]});
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      query_q <= '0;
      limit_q <= '0;
      for (int r = 0; r < 4; r++) base_q[r] <= '0;
      for (int r = 0; r < 4; r++) count_q[r] <= '0;
      for (int r = 0; r < 9; r++) rot_q[r] <= '0;
      for (int r = 0; r < 3; r++) trans_q[r] <= '0;
      qbase_q <= '0;
      bell_q  <= '0;
    end else begin
      query_q <= query_d;
      limit_q <= limit_d;
      for (int r = 0; r < 4; r++) base_q[r] <= base_d[r];
      for (int r = 0; r < 4; r++) count_q[r] <= count_d[r];
      for (int r = 0; r < 9; r++) rot_q[r] <= rot_d[r];
      for (int r = 0; r < 3; r++) trans_q[r] <= trans_d[r];
      qbase_q <= qbase_d;
      bell_q  <= bell_d;
    end
  end
  assign queue_base_o = qbase_q;
  assign doorbell_o   = bell_q;

  assign rule_o          = query_q.rule;
  assign pending_limit_o = limit_q;
  assign node_base_o = {base_q[2][ADDR_W-1:0], base_q[0][ADDR_W-1:0]};
  assign tri_base_o  = {base_q[3][ADDR_W-1:0], base_q[1][ADDR_W-1:0]};
  assign nodes_o     = {count_q[2], count_q[0]};
  assign tris_o      = {count_q[3], count_q[1]};
  for (genvar r = 0; r < 9; r++) begin : g_rot_out
    assign rot_o[r*RotW +: RotW] = rot_q[r];
  end
  for (genvar r = 0; r < 3; r++) begin : g_trans_out
    assign trans_o[r*TransW +: TransW] = trans_q[r];
  end

  // ---------------------------------------------------------------------------------------------
  // Axis table: K entries in registers (the wide SAT unit reads them at START). Entry a at
  // AXIS_TABLE + AXIS_ENTRY_BYTES a, word w holds bits [32 w +: 32] of the entry (the AXIS_ENTRY
  // layout of kdopcd_format_pkg); no reset (written before START).
  logic       axis_wr;
  logic [5:0] axis_wr_entry;
  logic [3:0] axis_wr_word;
  localparam int EntryWords = kdopcd_v2_pkg::AXIS_ENTRY_BYTES / 4;
  // EntryWords is a power of two: the entry is the word offset's high bits, the word its low ones.
  assign axis_wr_entry = 6'((wr_idx - idx(kdopcd_v2_pkg::REG_AXIS_TABLE)) >> $clog2(EntryWords));
  assign axis_wr_word  = 4'((wr_idx - idx(kdopcd_v2_pkg::REG_AXIS_TABLE)) & 10'(EntryWords - 1));
  assign axis_wr       = wr_en && wr_idx >= idx(kdopcd_v2_pkg::REG_AXIS_TABLE) && 32'(axis_wr_entry) < K &&
                         32'(axis_wr_word) < AxisWords;

  // Each byte is its own enabled register, written straight from the bus (no read-modify-write
  // of a word chosen by an index): the 24 x 6 words cost their enables, not a multiplexer per bit.
  // The registers hold the table by field, in the SAT unit's layout (an entry's bit e goes to
  // the field it belongs to; the padding bits of the last word are not stored), and every enable
  // is behind axis_wr: the same flip-flops and enables as registers in the entries' layout, but
  // nothing rearranges the table between the registers and the unit (a cycle-based simulator
  // would rebuild the per-field vectors every clock).
  localparam int PT  = 3 * kdopcd_format_pkg::axis_entry_pa_bits(C);  // PA0..2 (and PB0..2) of one entry
  localparam int OW  = kdopcd_format_pkg::axis_entry_p_bits(Z);       // p'
  localparam int JT  = 3 * kdopcd_format_pkg::axis_entry_ja_bits(K);  // jA0..2 (and jB0..2)
  // field starts
  localparam int EPB = kdopcd_format_pkg::axis_entry_pb_lsb(C, 0);
  localparam int EP  = kdopcd_format_pkg::axis_entry_p_lsb(C);
  localparam int EJA = kdopcd_format_pkg::axis_entry_ja_lsb(K, C, Z, 0);
  localparam int EJB = kdopcd_format_pkg::axis_entry_jb_lsb(K, C, Z, 0);
  logic [K*PT-1:0] pa_q, pb_q;
  logic [K*OW-1:0] p_q;
  logic [K*JT-1:0] ja_q, jb_q;
  always_ff @(posedge clk_i) begin
    if (axis_wr) begin
      for (int a = 0; a < K; a++) begin
        if (32'(axis_wr_entry) == a) begin
          for (int w = 0; w < AxisWords; w++) begin
            if (32'(axis_wr_word) == w) begin
              for (int b = 0; b < 4; b++) begin
                if (s_axil_wstrb_i[b]) begin
                  for (int i = 0; i < 8; i++) begin
                    if (32 * w + 8 * b + i < EPB)      pa_q[a*PT + 32*w + 8*b + i]       <= s_axil_wdata_i[8*b + i];
                    else if (32 * w + 8 * b + i < EP)  pb_q[a*PT + 32*w + 8*b + i - EPB] <= s_axil_wdata_i[8*b + i];
                    else if (32 * w + 8 * b + i < EJA) p_q[a*OW + 32*w + 8*b + i - EP]   <= s_axil_wdata_i[8*b + i];
                    else if (32 * w + 8 * b + i < EJB) ja_q[a*JT + 32*w + 8*b + i - EJA] <= s_axil_wdata_i[8*b + i];
                    else if (32 * w + 8 * b + i < AXIS_BITS)
                                                       jb_q[a*JT + 32*w + 8*b + i - EJB] <= s_axil_wdata_i[8*b + i];
                  end
                end
              end
            end
          end
        end
      end
    end
  end
  assign axis_pa_o = pa_q;
  assign axis_pb_o = pb_q;
  assign axis_p_o  = p_q;
  assign axis_ja_o = ja_q;
  assign axis_jb_o = jb_q;

  // ---------------------------------------------------------------------------------------------
  // Read channel
  logic        rvalid_q, rd_en;
  logic [31:0] rdata_q, rdata_d;
  logic [9:0]  rd_idx;
  assign s_axil_arready_o = !rvalid_q;
  assign rd_en            = s_axil_arvalid_i && !rvalid_q;
  assign rd_idx           = s_axil_araddr_i[11:2];

  // The read multiplexer is behind rd_en (rdata_d is loaded only then): the same registers,
  // and a cycle-based simulator skips the address compares in the clocks without a read.
  always_comb begin
    rdata_d = '0;
    if (rd_en) begin
      if (rd_idx == idx(kdopcd_v2_pkg::REG_ID))      rdata_d = kdopcd_v2_pkg::ID_VALUE;
      if (rd_idx == idx(kdopcd_v2_pkg::REG_CONFIG0)) rdata_d = kdopcd_v2_pkg::config0_value(K, B, C, Z);
      if (rd_idx == idx(kdopcd_v2_pkg::REG_CONFIG1)) rdata_d = kdopcd_v2_pkg::config1_value(V, M, W);
      if (rd_idx == idx(kdopcd_v2_pkg::REG_CONFIG2))
        rdata_d = kdopcd_v2_pkg::config2_value(PAIRS_IN_FLIGHT, RAM_LAT, TRI_II, TRI_LAT);
      if (rd_idx == idx(kdopcd_v2_pkg::REG_CONFIG3))
        rdata_d = kdopcd_v2_pkg::config3_value(NODE_AW, TRI_AW, PENDING_DEPTH);
      if (rd_idx == idx(kdopcd_v2_pkg::REG_CONFIG4)) rdata_d = kdopcd_v2_pkg::config4_value(TRI_QUEUE, CONTACT_QUEUE);
      if (rd_idx == idx(kdopcd_v2_pkg::REG_CONFIG5))
        rdata_d = kdopcd_v2_pkg::config5_value(ENGINES, DMA_W, DESC_BUFFERS, RING_SLOTS);
      if (rd_idx == idx(kdopcd_v2_pkg::REG_QUEUE_BASE))         rdata_d = qbase_q[31:0];
      if (rd_idx == idx(kdopcd_v2_pkg::REG_QUEUE_BASE) + 10'd1) rdata_d = qbase_q[63:32];
      if (rd_idx == idx(kdopcd_v2_pkg::REG_DOORBELL))           rdata_d = bell_q;
      if (rd_idx == idx(kdopcd_v2_pkg::REG_QUEUE_HEAD))         rdata_d = queue_head_i;
      if (rd_idx == idx(kdopcd_v2_pkg::REG_QUEUE_DONE))         rdata_d = queue_done_i;
      if (rd_idx == idx(kdopcd_v2_pkg::REG_STATUS))  rdata_d = status;
      if (rd_idx == idx(kdopcd_v2_pkg::REG_QUERY))   rdata_d = 32'(query_q);
      if (rd_idx == idx(kdopcd_v2_pkg::REG_PENDING_LIMIT)) rdata_d = 32'(limit_q);
      for (int r = 0; r < 4; r++) begin
        if (rd_idx == base_idx[r])         rdata_d = base_q[r][31:0];
        if (rd_idx == base_idx[r] + 10'd1) rdata_d = base_q[r][63:32];
        if (rd_idx == count_idx[r])        rdata_d = count_q[r];
      end
      for (int r = 0; r < 9; r++)
        if (rd_idx == idx(kdopcd_v2_pkg::REG_ROT) + 10'(r)) rdata_d = rot_ext[r];
      for (int r = 0; r < 3; r++) begin
        if (rd_idx == idx(kdopcd_v2_pkg::REG_TRANS) + 10'(2 * r))     rdata_d = trans_ext[r][31:0];
        if (rd_idx == idx(kdopcd_v2_pkg::REG_TRANS) + 10'(2 * r + 1)) rdata_d = trans_ext[r][63:32];
      end
      for (int i = 0; i < 2 * NCNT; i++)
        if (rd_idx == idx(kdopcd_v2_pkg::REG_COUNTERS) + 10'(i)) rdata_d = counters_i[32*i +: 32];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_q <= 1'b0;
      rdata_q  <= '0;
    end else if (rd_en) begin
      rvalid_q <= 1'b1;
      rdata_q  <= rdata_d;
    end else if (s_axil_rready_i) begin
      rvalid_q <= 1'b0;
    end
  end
  assign s_axil_rvalid_o = rvalid_q;
  assign s_axil_rdata_o  = rdata_q;
  assign s_axil_rresp_o  = 2'b00;

  logic unused;
  assign unused = ^{query_q[7:0], clear_d, s_axil_awaddr_i[1:0], s_axil_araddr_i[1:0]};  // byte lanes: word addresses only

endmodule
