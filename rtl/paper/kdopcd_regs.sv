// AXI4-Lite slave register file of the accelerator top (docs/accelerator.md, "Register map").
//
// Protocol (simple, one transaction per channel pair at a time):
//   write: AW and W are accepted together (awready = wready = awvalid && wvalid && !bvalid_q);
//          the response (BRESP = OKAY) is valid from the next cycle until BREADY.
//   read:  AR is accepted when no read response is pending (arready = !rvalid_q); the data
//          (RRESP = OKAY) is valid from the next cycle until RREADY. Unmapped and write-only
//          addresses (CONTROL, AXIS_TABLE) read as 0.
// Byte strobes are honoured for every writable bit. Addresses are word addresses (bits [1:0]
// ignored).
//
// Towards the controller: the register values (combinational from the flops), the axis table
// through a combinational read port, and start_o / clear_o: one-cycle pulses in the cycle after
// the edge that accepted a CONTROL write with bit 0 (START, only while idle_i) / bit 1 (CLEAR).
//
// Portable style (Verilator and Yosys 0.23, docs/toolchain.md §4): no import, no assignment
// patterns, no return in functions.
module kdopcd_regs #(
  parameter int K           = kdopcd_pkg::DEFAULT_K,
  parameter int B           = kdopcd_pkg::DEFAULT_B,
  parameter int C           = kdopcd_pkg::DEFAULT_C,
  parameter int Z           = kdopcd_pkg::DEFAULT_Z,
  parameter int V           = kdopcd_pkg::DEFAULT_V,
  parameter int M           = kdopcd_pkg::DEFAULT_M,
  parameter int W           = kdopcd_pkg::DEFAULT_W,
  parameter int ADDR_W      = kdopcd_pkg::DEFAULT_ADDR_W,
  parameter int STACK_DEPTH = kdopcd_pkg::DEFAULT_STACK_DEPTH,
  parameter int TRI_LAT     = kdopcd_pkg::DEFAULT_TRI_LAT,
  parameter int MUL_W       = kdopcd_pkg::DEFAULT_MUL_W,  // for CONFIG1's SAT latency
  parameter int NCNT        = kdopcd_pkg::NUM_COUNTERS,   // 64-bit counters at COUNTERS + 8 i
  parameter int AXIS_BITS   = kdopcd_format_pkg::axis_entry_bits(K, C, Z)
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

  // towards the controller
  output logic                     start_o,
  output logic                     clear_o,
  output logic [7:0]               axes_o,
  output logic [1:0]               rule_o,
  output logic                     continue_o,
  output logic [23:0]              stack_limit_o,
  output logic [ADDR_W-1:0]        a_node_base_o,
  output logic [ADDR_W-1:0]        a_tri_base_o,
  output logic [ADDR_W-1:0]        b_node_base_o,
  output logic [ADDR_W-1:0]        b_tri_base_o,
  output logic [9*(M+2)-1:0]       rot_o,         // M'(i,j) at [(3i+j)*(M+2) +: M+2]
  output logic [3*(V+M+4)-1:0]     trans_o,       // T'(i) at [i*(V+M+4) +: V+M+4]
  input  logic [$clog2(K)-1:0]     axis_idx_i,
  output logic [AXIS_BITS-1:0]     axis_entry_o,
  input  logic                     busy_i,
  input  logic                     done_i,
  input  logic                     stack_overflow_i,
  input  logic                     bus_error_i,
  input  logic                     idle_i,
  input  logic [NCNT*64-1:0]       counters_i     // counter i at [i*64 +: 64]
);

  // ---------------------------------------------------------------------------------------------
  // Register map: word index = byte address [11:2] of the contract's offsets (kdopcd_pkg,
  // generated from contract/accelerator_paper.json).
  function automatic logic [9:0] idx(input logic [11:0] offset);
    idx = 10'(offset >> 2);
  endfunction
  localparam logic [9:0] IdxId         = idx(kdopcd_pkg::REG_ID);
  localparam logic [9:0] IdxConfig0    = idx(kdopcd_pkg::REG_CONFIG0);
  localparam logic [9:0] IdxConfig1    = idx(kdopcd_pkg::REG_CONFIG1);
  localparam logic [9:0] IdxConfig2    = idx(kdopcd_pkg::REG_CONFIG2);
  localparam logic [9:0] IdxControl    = idx(kdopcd_pkg::REG_CONTROL);
  localparam logic [9:0] IdxStatus     = idx(kdopcd_pkg::REG_STATUS);
  localparam logic [9:0] IdxQuery      = idx(kdopcd_pkg::REG_QUERY);
  localparam logic [9:0] IdxStackLimit = idx(kdopcd_pkg::REG_STACK_LIMIT);
  // base r (A node, A tri, B node, B tri) at IdxBase[r] (low word) and + 1 (high word)
  localparam logic [9:0] IdxANodeBase  = idx(kdopcd_pkg::REG_A_NODE_BASE);
  localparam logic [9:0] IdxATriBase   = idx(kdopcd_pkg::REG_A_TRI_BASE);
  localparam logic [9:0] IdxBNodeBase  = idx(kdopcd_pkg::REG_B_NODE_BASE);
  localparam logic [9:0] IdxBTriBase   = idx(kdopcd_pkg::REG_B_TRI_BASE);
  localparam logic [9:0] IdxRot        = idx(kdopcd_pkg::REG_ROT);       // 9 words
  localparam logic [9:0] IdxTrans      = idx(kdopcd_pkg::REG_TRANS);     // 3 x 2 words
  localparam logic [9:0] IdxCounters   = idx(kdopcd_pkg::REG_COUNTERS);  // 2 words per counter
  localparam logic [9:0] IdxAxisTable  = idx(kdopcd_pkg::REG_AXIS_TABLE);
  localparam int         EntryWords    = kdopcd_pkg::AXIS_ENTRY_BYTES / 4;

  logic [9:0] base_idx [4];
  assign base_idx[0] = IdxANodeBase;
  assign base_idx[1] = IdxATriBase;
  assign base_idx[2] = IdxBNodeBase;
  assign base_idx[3] = IdxBTriBase;

  localparam int RotW   = kdopcd_pkg::rot_w(M);         // signed M' entry
  localparam int TransW = kdopcd_pkg::trans_w(V, M);    // signed T' entry
  localparam int AxisWords = (AXIS_BITS + 31) / 32;  // words of an entry that hold bits

  // ---------------------------------------------------------------------------------------------
  // Write channel: AW and W together
  logic        bvalid_q;
  logic        wr_en;
  logic [9:0]  wr_idx;
  logic [31:0] wr_mask;  // byte strobes expanded to bits

  assign wr_en            = s_axil_awvalid_i && s_axil_wvalid_i && !bvalid_q;
  assign s_axil_awready_o = wr_en;
  assign s_axil_wready_o  = wr_en;
  assign s_axil_bvalid_o  = bvalid_q;
  assign s_axil_bresp_o   = 2'b00;  // OKAY
  assign wr_idx           = s_axil_awaddr_i[11:2];
  assign wr_mask          = {{8{s_axil_wstrb_i[3]}}, {8{s_axil_wstrb_i[2]}},
                             {8{s_axil_wstrb_i[1]}}, {8{s_axil_wstrb_i[0]}}};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bvalid_q <= 1'b0;
    end else if (wr_en) begin
      bvalid_q <= 1'b1;
    end else if (s_axil_bready_i) begin
      bvalid_q <= 1'b0;
    end
  end

  // Merges the written bytes into the old 32-bit word value.
  function automatic logic [31:0] merge_word(logic [31:0] old_word, logic [31:0] data, logic [31:0] mask);
    merge_word = (old_word & ~mask) | (data & mask);
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Control pulses: registered, so they are high in the cycle after the accepting edge.
  logic start_q, clear_q;
  logic ctrl_wr;

  assign ctrl_wr = wr_en && (wr_idx == IdxControl) && s_axil_wstrb_i[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      start_q <= 1'b0;
      clear_q <= 1'b0;
    end else begin
      start_q <= ctrl_wr && s_axil_wdata_i[kdopcd_pkg::CTRL_START] && idle_i;
      clear_q <= ctrl_wr && s_axil_wdata_i[kdopcd_pkg::CTRL_CLEAR];
    end
  end

  assign start_o = start_q;
  assign clear_o = clear_q;

  // ---------------------------------------------------------------------------------------------
  // Query registers (reset to 0)
  kdopcd_pkg::query_t query_d, query_q;     // the reserved fields stay 0
  logic [23:0]       stack_limit_d, stack_limit_q;
  logic [63:0]       base_q [4];              // A node, A tri, B node, B tri (zero-extended)
  logic [63:0]       base_d [4];
  logic [RotW-1:0]   rot_q [9];
  logic [RotW-1:0]   rot_d [9];
  logic [TransW-1:0] trans_q [3];
  logic [TransW-1:0] trans_d [3];

  // Sign / zero extensions used for read-back and read-modify-write.
  function automatic logic [31:0] sext_rot(logic [RotW-1:0] x);
    sext_rot = 32'($signed(x));
  endfunction
  function automatic logic [63:0] sext_trans(logic [TransW-1:0] x);
    sext_trans = 64'($signed(x));
  endfunction
  function automatic logic [63:0] zext_addr(logic [ADDR_W-1:0] x);
    zext_addr = 64'(x);
  endfunction

  logic [31:0] rot_ext [9];    // M' sign-extended to its word
  logic [63:0] trans_ext [3];  // T' sign-extended to its two words
  for (genvar r = 0; r < 9; r++) begin : g_rot_ext
    assign rot_ext[r] = sext_rot(rot_q[r]);
  end
  for (genvar r = 0; r < 3; r++) begin : g_trans_ext
    assign trans_ext[r] = sext_trans(trans_q[r]);
  end

  always_comb begin
    query_d       = query_q;
    stack_limit_d = stack_limit_q;
    for (int r = 0; r < 4; r++) base_d[r] = base_q[r];
    for (int r = 0; r < 9; r++) rot_d[r] = rot_q[r];
    for (int r = 0; r < 3; r++) trans_d[r] = trans_q[r];

    if (wr_en) begin
      if (wr_idx == IdxQuery) begin
        query_d = merge_word(query_q, s_axil_wdata_i, wr_mask);
        query_d.reserved    = '0;
        query_d.reserved_10 = '0;
      end
      if (wr_idx == IdxStackLimit) begin
        stack_limit_d = 24'(merge_word(32'(stack_limit_q), s_axil_wdata_i, wr_mask));
      end
      for (int r = 0; r < 4; r++) begin
        if (wr_idx == base_idx[r]) begin
          base_d[r][31:0] = merge_word(base_q[r][31:0], s_axil_wdata_i, wr_mask);
        end
        if (wr_idx == base_idx[r] + 10'd1) begin
          base_d[r][63:32] = merge_word(base_q[r][63:32], s_axil_wdata_i, wr_mask);
        end
        base_d[r] = zext_addr(base_d[r][ADDR_W-1:0]);  // keep only the ADDR_W address bits
      end
      for (int r = 0; r < 9; r++) begin
        if (wr_idx == IdxRot + 10'(r)) begin
          rot_d[r] = RotW'(merge_word(rot_ext[r], s_axil_wdata_i, wr_mask));
        end
      end
      for (int r = 0; r < 3; r++) begin
        if (wr_idx == IdxTrans + 10'(2 * r)) begin
          trans_d[r] = TransW'({trans_ext[r][63:32],
                                merge_word(trans_ext[r][31:0], s_axil_wdata_i, wr_mask)});
        end
        if (wr_idx == IdxTrans + 10'(2 * r + 1)) begin
          trans_d[r] = TransW'({merge_word(trans_ext[r][63:32], s_axil_wdata_i, wr_mask),
                                trans_ext[r][31:0]});
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      query_q       <= '0;
      stack_limit_q <= '0;
      for (int r = 0; r < 4; r++) base_q[r] <= '0;
      for (int r = 0; r < 9; r++) rot_q[r] <= '0;
      for (int r = 0; r < 3; r++) trans_q[r] <= '0;
    end else begin
      query_q       <= query_d;
      stack_limit_q <= stack_limit_d;
      for (int r = 0; r < 4; r++) base_q[r] <= base_d[r];
      for (int r = 0; r < 9; r++) rot_q[r] <= rot_d[r];
      for (int r = 0; r < 3; r++) trans_q[r] <= trans_d[r];
    end
  end

  assign axes_o        = query_q.axes;
  assign rule_o        = query_q.rule;
  assign continue_o    = query_q.continue_axes;
  assign stack_limit_o = stack_limit_q;
  assign a_node_base_o = base_q[0][ADDR_W-1:0];
  assign a_tri_base_o  = base_q[1][ADDR_W-1:0];
  assign b_node_base_o = base_q[2][ADDR_W-1:0];
  assign b_tri_base_o  = base_q[3][ADDR_W-1:0];

  for (genvar r = 0; r < 9; r++) begin : g_rot_out
    assign rot_o[r*RotW +: RotW] = rot_q[r];
  end
  for (genvar r = 0; r < 3; r++) begin : g_trans_out
    assign trans_o[r*TransW +: TransW] = trans_q[r];
  end

  // ---------------------------------------------------------------------------------------------
  // Axis table: K entries, write-only from the bus (no reset: the host writes it before START).
  // Entry a at AXIS_TABLE + AXIS_ENTRY_BYTES a: word w (w < AxisWords) holds bits [32 w +: 32] of
  // the packed entry (kdopcd_format_pkg's AXIS_ENTRY layout);
  // words w >= AxisWords are ignored. Stored as one K x 8 memory per byte lane of each word (byte
  // strobes; one write port, one asynchronous read port: distributed RAM on an FPGA).
  localparam int EntryW = $clog2(K);
  logic                    axis_wr;
  logic [5:0]              axis_wr_entry;  // (byte address - AXIS_TABLE) / AXIS_ENTRY_BYTES
  logic [3:0]              axis_wr_word;
  logic [AxisWords*32-1:0] axis_rd;        // the entry at axis_idx_i, all words

  assign axis_wr       = wr_en && (wr_idx >= IdxAxisTable) && (32'(axis_wr_entry) < K);
  // EntryWords is a power of two: the entry is the word offset's high bits, the word its low ones.
  assign axis_wr_entry = 6'((wr_idx - IdxAxisTable) >> $clog2(EntryWords));
  assign axis_wr_word  = 4'((wr_idx - IdxAxisTable) & 10'(EntryWords - 1));

  for (genvar w = 0; w < AxisWords; w++) begin : g_axis_word
    for (genvar y = 0; y < 4; y++) begin : g_axis_byte
      logic [7:0] mem [K];
      always_ff @(posedge clk_i) begin
        if (axis_wr && axis_wr_word == 4'(w) && s_axil_wstrb_i[y]) begin
          mem[EntryW'(axis_wr_entry)] <= s_axil_wdata_i[8*y +: 8];
        end
      end
      assign axis_rd[32*w + 8*y +: 8] = mem[axis_idx_i];
    end
  end

  assign axis_entry_o = (32'(axis_idx_i) < K) ? AXIS_BITS'(axis_rd) : '0;

  // ---------------------------------------------------------------------------------------------
  // Read channel
  logic        rvalid_q;
  logic [31:0] rdata_q, rdata_d;
  logic        rd_en;
  logic [9:0]  rd_idx;
  logic [5:0]  rd_cnt;  // counter index of a counter address

  assign s_axil_arready_o = !rvalid_q;
  assign rd_en            = s_axil_arvalid_i && !rvalid_q;
  assign rd_idx           = s_axil_araddr_i[11:2];
  assign rd_cnt           = 6'((rd_idx - IdxCounters) >> 1);

  logic [31:0] status;
  always_comb begin
    status = '0;
    status[kdopcd_pkg::STAT_BUSY]           = busy_i;
    status[kdopcd_pkg::STAT_DONE]           = done_i;
    status[kdopcd_pkg::STAT_STACK_OVERFLOW] = stack_overflow_i;
    status[kdopcd_pkg::STAT_BUS_ERROR]      = bus_error_i;
    status[kdopcd_pkg::STAT_IDLE]           = idle_i;
  end

  always_comb begin
    rdata_d = '0;
    unique case (rd_idx)
      IdxId:         rdata_d = kdopcd_pkg::ID_VALUE;
      IdxConfig0:    rdata_d = kdopcd_pkg::config0_value(K, B, C, Z);
      IdxConfig1:    rdata_d = kdopcd_pkg::config1_value(B, C, V, M, W, MUL_W);
      IdxConfig2:    rdata_d = kdopcd_pkg::config2_value(STACK_DEPTH, TRI_LAT);
      IdxStatus:     rdata_d = status;
      IdxQuery:      rdata_d = 32'(query_q);
      IdxStackLimit: rdata_d = 32'(stack_limit_q);
      default:       rdata_d = '0;
    endcase
    for (int r = 0; r < 4; r++) begin
      if (rd_idx == base_idx[r])         rdata_d = base_q[r][31:0];
      if (rd_idx == base_idx[r] + 10'd1) rdata_d = base_q[r][63:32];
    end
    for (int r = 0; r < 9; r++) begin
      if (rd_idx == IdxRot + 10'(r)) rdata_d = rot_ext[r];
    end
    for (int r = 0; r < 3; r++) begin
      if (rd_idx == IdxTrans + 10'(2 * r))     rdata_d = trans_ext[r][31:0];
      if (rd_idx == IdxTrans + 10'(2 * r + 1)) rdata_d = trans_ext[r][63:32];
    end
    for (int i = 0; i < NCNT; i++) begin
      if (rd_idx >= IdxCounters && rd_idx < IdxCounters + 10'(2 * NCNT) && rd_cnt == 6'(i)) begin
        rdata_d = rd_idx[0] ? counters_i[i*64+32 +: 32] : counters_i[i*64 +: 32];
      end
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
  assign s_axil_rresp_o  = 2'b00;  // OKAY

endmodule
