// The v2 loader: on LOAD it copies both trees' node and triangle sections from memory into the
// on-chip tree RAMs through the AXI4 read master (docs/accelerator-v2.md, "Loading the trees").
// Sections are read in the order first tree nodes, first tree triangles, second tree nodes,
// second tree triangles, as INCR bursts of at most BURST_MAX beats that never cross a 4 KiB
// boundary, one burst outstanding. The beats of a record are assembled in a shift register and
// the record is written to its RAM in the clock after its last beat.
//
// Errors: a section with more records than its RAM holds, or an empty node section, is refused
// before any read (load_error_o: nothing is overwritten and the trees stay unloaded); a read
// response other than OKAY ends the load after that burst (bus_error_o). Either way the trees
// count as not loaded.
module kdopcd_v2_loader #(
  parameter int W         = 64,
  parameter int ADDR_W    = 32,
  parameter int NODE_AW   = 18,
  parameter int TRI_AW    = 17,
  parameter int NODE_BITS = 544,
  parameter int TRI_BITS  = 234,
  parameter int BURST_MAX = 16
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 load_i,            // one-cycle pulse, only while idle
  // Per tree t (0 first, 1 second) at [t*ADDR_W +: ADDR_W] / [t*32 +: 32]: flat vectors, as
  // Yosys 0.23 reads no unpacked array ports.
  input  logic [2*ADDR_W-1:0]  node_base_i,
  input  logic [2*ADDR_W-1:0]  tri_base_i,
  input  logic [63:0]          nodes_i,           // record counts
  input  logic [63:0]          tris_i,
  output logic                 busy_o,
  output logic                 done_o,            // one-cycle pulse at the end (also after an error)
  output logic                 ok_o,              // with done_o: the RAMs hold both trees
  output logic                 load_error_o,      // with done_o: a section does not fit (nothing read)
  output logic                 bus_error_o,       // with done_o: a read answered an error
  output logic [63:0]          cycles_o,          // clocks of the last load
  output logic [63:0]          beats_o,           // beats of the last load
  // tree RAM write ports (one record per clock)
  output logic [1:0]           node_we_o,
  output logic [NODE_AW-1:0]   node_waddr_o,
  output logic [NODE_BITS-1:0] node_wdata_o,
  output logic [1:0]           tri_we_o,
  output logic [TRI_AW-1:0]    tri_waddr_o,
  output logic [TRI_BITS-1:0]  tri_wdata_o,
  // AXI4 read master
  output logic                 m_axi_arvalid_o,
  input  logic                 m_axi_arready_i,
  output logic [ADDR_W-1:0]    m_axi_araddr_o,
  output logic [7:0]           m_axi_arlen_o,
  output logic [2:0]           m_axi_arsize_o,
  output logic [1:0]           m_axi_arburst_o,
  input  logic                 m_axi_rvalid_i,
  output logic                 m_axi_rready_o,
  input  logic [W-1:0]         m_axi_rdata_i,
  input  logic [1:0]           m_axi_rresp_i,
  input  logic                 m_axi_rlast_i
);

  localparam int NODE_BEATS = (NODE_BITS + W - 1) / W;
  localparam int TRI_BEATS  = (TRI_BITS + W - 1) / W;
  localparam int REC_W      = NODE_BEATS * W;  // the shift register holds the longer record
  localparam int BYTES      = W / 8;
  localparam int BEAT_SH    = $clog2(BYTES);
  // Beats of the longest section that fits (a longer one is refused before any read) are below
  // 2^BLW: the width of the beat count, so that its burst arithmetic is a short carry chain.
  localparam int NODE_SEC_W = NODE_AW + $clog2(NODE_BEATS) + 1;
  localparam int TRI_SEC_W  = TRI_AW + $clog2(TRI_BEATS) + 1;
  localparam int BLW        = NODE_SEC_W > TRI_SEC_W ? NODE_SEC_W : TRI_SEC_W;
  // A burst is cut at the next 4 KiB boundary when fewer than BURST_MAX beats are left to it,
  // i.e. when the address within the 4 KiB page is above NEAR_4K.
  localparam int NEAR_4K = 4096 - (BURST_MAX << BEAT_SH);

  if (BURST_MAX < 1 || BURST_MAX > 256 || NEAR_4K < 0 || BLW > 40) begin : g_param_check
    $error("kdopcd_v2_loader: BURST_MAX must be 1..256 beats and at most 4 KiB, the sections at most 2^40 beats");
  end

  typedef enum logic [2:0] {
    StIdle,
    StAddr,   // AR of the next burst
    StData,   // beats of the burst
    StFlush,  // the last record's write, then the next section or the end
    StEnd
  } state_e;

  typedef enum logic [1:0] {
    SecFirstNodes  = 2'd0,
    SecFirstTris   = 2'd1,
    SecSecondNodes = 2'd2,
    SecSecondTris  = 2'd3
  } section_e;

  state_e           state_q, state_d;
  section_e         sec_q, sec_d;
  logic [ADDR_W-1:0] addr_q, addr_d;          // next beat's byte address
  logic [BLW-1:0]   beats_left_q, beats_left_d;  // beats of the section still to request
  logic [8:0]       burst_q, burst_d;         // beats of the burst in flight
  logic [5:0]       beat_in_rec_q, beat_in_rec_d;
  logic [31:0]      rec_idx_q, rec_idx_d;
  logic [REC_W-1:0] rec_q, rec_d;
  logic             wr_q, wr_d;
  logic             wr_node_q, wr_node_d;
  logic             wr_tree_q, wr_tree_d;
  logic [31:0]      wr_idx_q, wr_idx_d;
  logic             err_bus_q, err_bus_d;
  logic [63:0]      cycles_q, cycles_d, beats_q, beats_d;
  logic             done_d, ok_d, lerr_d, berr_d;
  logic             done_q, ok_q, lerr_q, berr_q;

  // Section properties.
  logic             sec_is_node;
  logic             sec_tree;
  logic [5:0]       rec_beats;
  logic [39:0]      sec_beats [4];
  logic [ADDR_W-1:0] sec_base [4];
  logic             fits;
  logic [8:0]       burst_cap;  // BURST_MAX, or fewer at a 4 KiB boundary
  logic [BLW-1:0]   beats_after;  // beats_left_q - burst_cap, used when not sec_ends
  logic             sec_ends;     // beats_left_q < burst_cap: the burst takes the rest
  logic [8:0]       burst_len;
  logic [12:0]      page_next;  // the address within the 4 KiB page after the burst, and its carry
  logic [ADDR_W-1:0] addr_next;

  assign sec_is_node = sec_q == SecFirstNodes || sec_q == SecSecondNodes;
  assign sec_tree    = sec_q == SecSecondNodes || sec_q == SecSecondTris;
  assign rec_beats   = sec_is_node ? 6'(NODE_BEATS) : 6'(TRI_BEATS);
  logic [31:0] nodes0, nodes1, tris0, tris1;
  assign nodes0 = nodes_i[31:0];
  assign nodes1 = nodes_i[63:32];
  assign tris0  = tris_i[31:0];
  assign tris1  = tris_i[63:32];
  assign sec_beats[0] = 40'(nodes0) * 40'(NODE_BEATS);
  assign sec_beats[1] = 40'(tris0) * 40'(TRI_BEATS);
  assign sec_beats[2] = 40'(nodes1) * 40'(NODE_BEATS);
  assign sec_beats[3] = 40'(tris1) * 40'(TRI_BEATS);
  assign sec_base[0]  = node_base_i[0 +: ADDR_W];
  assign sec_base[1]  = tri_base_i[0 +: ADDR_W];
  assign sec_base[2]  = node_base_i[ADDR_W +: ADDR_W];
  assign sec_base[3]  = tri_base_i[ADDR_W +: ADDR_W];
  assign fits = nodes0 != 0 && nodes1 != 0 &&
                33'(nodes0) <= 33'(1) << NODE_AW && 33'(nodes1) <= 33'(1) << NODE_AW &&
                33'(tris0) <= 33'(1) << TRI_AW && 33'(tris1) <= 33'(1) << TRI_AW;

  // Beats to the next 4 KiB boundary, the burst length: min(BURST_MAX, to_4k, beats_left_q), and
  // the next address. The three candidates (the rest of the section, the beats to the boundary,
  // BURST_MAX) are each compared and added to the address from registers in parallel; the
  // comparisons then only select. The page number takes the carry of the 13-bit page sum (carry
  // select), so no full-width adder follows the burst length.
  logic             near_4k, bl_high_zero, bl_lt_4k, bl_lt_max;
  logic [8:0]       to_4k;
  logic [12:0]      page_ends, page_4k, page_max;
  always_comb begin
    near_4k     = 32'(addr_q[11:0]) > NEAR_4K;  // to_4k < BURST_MAX
    to_4k       = 9'((13'h1000 - 13'(addr_q[11:0])) >> BEAT_SH);  // where near_4k: at most BURST_MAX
    burst_cap   = near_4k ? to_4k : 9'(BURST_MAX);
    bl_high_zero = (beats_left_q >> 9) == '0;
    bl_lt_4k    = 9'(beats_left_q) < to_4k;
    bl_lt_max   = 9'(beats_left_q) < 9'(BURST_MAX);
    sec_ends    = bl_high_zero && (near_4k ? bl_lt_4k : bl_lt_max);  // beats_left_q < burst_cap
    burst_len   = sec_ends ? 9'(beats_left_q) : burst_cap;
    beats_after = beats_left_q - BLW'(burst_cap);
    page_ends   = 13'(addr_q[11:0]) + (13'(9'(beats_left_q)) << BEAT_SH);
    page_4k     = 13'(addr_q[11:0]) + (13'(to_4k) << BEAT_SH);
    page_max    = 13'(addr_q[11:0]) + 13'(BURST_MAX << BEAT_SH);
    page_next   = sec_ends ? page_ends : (near_4k ? page_4k : page_max);
    addr_next   = {page_next[12] ? addr_q[ADDR_W-1:12] + (ADDR_W-12)'(1) : addr_q[ADDR_W-1:12], page_next[11:0]};
  end

  always_comb begin
    state_d       = state_q;
    sec_d         = sec_q;
    addr_d        = addr_q;
    beats_left_d  = beats_left_q;
    burst_d       = burst_q;
    beat_in_rec_d = beat_in_rec_q;
    rec_idx_d     = rec_idx_q;
    rec_d         = rec_q;
    wr_d          = 1'b0;
    wr_node_d     = wr_node_q;
    wr_tree_d     = wr_tree_q;
    wr_idx_d      = wr_idx_q;
    err_bus_d     = err_bus_q;
    cycles_d      = cycles_q;
    beats_d       = beats_q;
    done_d        = 1'b0;
    ok_d          = ok_q;
    lerr_d        = lerr_q;
    berr_d        = berr_q;
    if (state_q != StIdle) cycles_d = cycles_q + 64'd1;
    unique case (state_q)
      StIdle: begin
        if (load_i) begin
          cycles_d  = 64'd1;
          beats_d   = '0;
          err_bus_d = 1'b0;
          ok_d      = 1'b0;
          lerr_d    = 1'b0;
          berr_d    = 1'b0;
          if (!fits) begin
            lerr_d  = 1'b1;
            state_d = StEnd;
          end else begin
            sec_d         = SecFirstNodes;
            addr_d        = sec_base[0];
            beats_left_d  = BLW'(sec_beats[0]);
            beat_in_rec_d = '0;
            rec_idx_d     = '0;
            state_d       = StAddr;
          end
        end
      end
      StAddr: begin
        if (beats_left_q == '0) begin
          state_d = StFlush;
        end else if (m_axi_arready_i) begin
          burst_d      = burst_len;
          beats_left_d = sec_ends ? '0 : beats_after;
          addr_d       = addr_next;
          state_d      = StData;
        end
      end
      StData: begin
        if (m_axi_rvalid_i) begin
          beats_d = beats_q + 64'd1;
          if (m_axi_rresp_i != 2'b00) err_bus_d = 1'b1;
          rec_d = {m_axi_rdata_i, rec_q[REC_W-1:W]};
          if (beat_in_rec_q == rec_beats - 6'd1) begin
            beat_in_rec_d = '0;
            wr_d          = !err_bus_d;
            wr_node_d     = sec_is_node;
            wr_tree_d     = sec_tree;
            wr_idx_d      = rec_idx_q;
            rec_idx_d     = rec_idx_q + 32'd1;
          end else begin
            beat_in_rec_d = beat_in_rec_q + 6'd1;
          end
          if (m_axi_rlast_i) state_d = err_bus_d ? StEnd : StAddr;
        end
      end
      StFlush: begin
        // The last record of the section was written in this clock (wr_q); next section or end.
        if (sec_q == SecSecondTris) begin
          ok_d    = 1'b1;
          state_d = StEnd;
        end else begin
          unique case (sec_q)  // (no enum cast: Yosys 0.23 reads none)
            SecFirstNodes:  sec_d = SecFirstTris;
            SecFirstTris:   sec_d = SecSecondNodes;
            default:        sec_d = SecSecondTris;
          endcase
          addr_d        = sec_base[sec_q + 2'd1];
          beats_left_d  = BLW'(sec_beats[sec_q + 2'd1]);
          beat_in_rec_d = '0;
          rec_idx_d     = '0;
          state_d       = StAddr;
        end
      end
      StEnd: begin
        berr_d  = err_bus_q;
        done_d  = 1'b1;
        state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= StIdle;
      sec_q         <= SecFirstNodes;
      addr_q        <= '0;
      beats_left_q  <= '0;
      burst_q       <= '0;
      beat_in_rec_q <= '0;
      rec_idx_q     <= '0;
      wr_q          <= 1'b0;
      wr_node_q     <= 1'b0;
      wr_tree_q     <= 1'b0;
      wr_idx_q      <= '0;
      err_bus_q     <= 1'b0;
      cycles_q      <= '0;
      beats_q       <= '0;
      done_q        <= 1'b0;
      ok_q          <= 1'b0;
      lerr_q        <= 1'b0;
      berr_q        <= 1'b0;
    end else begin
      state_q       <= state_d;
      sec_q         <= sec_d;
      addr_q        <= addr_d;
      beats_left_q  <= beats_left_d;
      burst_q       <= burst_d;
      beat_in_rec_q <= beat_in_rec_d;
      rec_idx_q     <= rec_idx_d;
      wr_q          <= wr_d;
      wr_node_q     <= wr_node_d;
      wr_tree_q     <= wr_tree_d;
      wr_idx_q      <= wr_idx_d;
      err_bus_q     <= err_bus_d;
      cycles_q      <= cycles_d;
      beats_q       <= beats_d;
      done_q        <= done_d;
      ok_q          <= ok_d;
      lerr_q        <= lerr_d;
      berr_q        <= berr_d;
    end
  end

  always_ff @(posedge clk_i) begin
    rec_q <= rec_d;
  end

  // RAM writes from the assembled record (node: all NODE_BEATS beats; triangle: the last TRI_BEATS
  // beats shifted in, at the top of the register).
  assign node_we_o    = {wr_q && wr_node_q && wr_tree_q, wr_q && wr_node_q && !wr_tree_q};
  assign tri_we_o     = {wr_q && !wr_node_q && wr_tree_q, wr_q && !wr_node_q && !wr_tree_q};
  assign node_waddr_o = NODE_AW'(wr_idx_q);
  assign tri_waddr_o  = TRI_AW'(wr_idx_q);
  assign node_wdata_o = rec_q[NODE_BITS-1:0];
  assign tri_wdata_o  = rec_q[(NODE_BEATS - TRI_BEATS) * W +: TRI_BITS];

  assign m_axi_arvalid_o = state_q == StAddr && beats_left_q != '0;
  assign m_axi_araddr_o  = addr_q;
  assign m_axi_arlen_o   = 8'(burst_len - 9'd1);
  assign m_axi_arsize_o  = 3'(BEAT_SH);
  assign m_axi_arburst_o = 2'b01;  // INCR
  assign m_axi_rready_o  = state_q == StData;

  assign busy_o       = state_q != StIdle;
  assign done_o       = done_q;
  assign ok_o         = ok_q;
  assign load_error_o = lerr_q;
  assign bus_error_o  = berr_q;
  assign cycles_o     = cycles_q;
  assign beats_o      = beats_q;

  logic unused;
  assign unused = ^{burst_q, rec_q[REC_W-1:NODE_BITS]};

endmodule
