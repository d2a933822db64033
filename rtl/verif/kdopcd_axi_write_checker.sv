// Simulation-only protocol checker for an AXI4 write master (AW, W and B channels): the v2 top's
// command-queue DMA port, docs/accelerator-v2.md "Command queue". Never synthesized. Verilate
// with --assert; a violation prints "%Error: ... Assertion failed in <hier>.<label>".
//
// Master side (checked on the DUT): AWVALID held until AWREADY and the AW payload stable while
//   stalled, INCR bursts of full-width beats, no burst crossing a 4 KiB boundary; WVALID held until WREADY and the W payload stable
//   while stalled; the n-th W burst (its beats up to WLAST) has exactly AWLEN + 1 beats of the n-th
//   AW, whichever of the two channels runs ahead (AXI4 lets the slave take W before its AW).
// Slave side (checked on the memory model): BVALID held until BREADY.
module kdopcd_axi_write_checker #(
  parameter int W         = 512,
  parameter int ADDR_W    = 64,
  parameter int MAX_TRACK = 64  // bursts one channel may run ahead of the other, at most
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              m_axi_awvalid_o,
  input logic              m_axi_awready_i,
  input logic [ADDR_W-1:0] m_axi_awaddr_o,
  input logic [7:0]        m_axi_awlen_o,
  input logic [2:0]        m_axi_awsize_o,
  input logic [1:0]        m_axi_awburst_o,
  input logic              m_axi_wvalid_o,
  input logic              m_axi_wready_i,
  input logic [W-1:0]      m_axi_wdata_o,
  input logic [W/8-1:0]    m_axi_wstrb_o,
  input logic              m_axi_wlast_o,
  input logic              m_axi_bvalid_i,
  input logic              m_axi_bready_o,
  input logic [1:0]        m_axi_bresp_i
);

  localparam int Ptr = $clog2(MAX_TRACK);
  localparam logic [2:0] FullSize = 3'($clog2(W / 8));

  logic aw_hs, w_hs, w_end;
  assign aw_hs = m_axi_awvalid_o && m_axi_awready_i;
  assign w_hs  = m_axi_wvalid_o && m_axi_wready_i;
  assign w_end = w_hs && m_axi_wlast_o;

  // In-order queues of the AWLEN of the AWs taken and of the beats - 1 of the W bursts complete;
  // each pair of heads is compared (and popped) as soon as both are in.
  logic [7:0]     aw_len_q [MAX_TRACK];
  logic [7:0]     w_len_q [MAX_TRACK];
  logic [Ptr:0]   aw_count_q, w_count_q;
  logic [Ptr-1:0] aw_head_q, aw_tail_q, w_head_q, w_tail_q;
  logic [8:0]     w_beat_q;  // beats of the current W burst already taken
  logic           pair;
  logic [7:0]     aw_head_len, w_head_len;
  assign pair        = aw_count_q != '0 && w_count_q != '0;
  logic [12:0] burst_end;  // the AW's burst end within its 4 KiB page
  assign burst_end = 13'({1'b0, m_axi_awaddr_o[11:0]}) + 13'((13'(m_axi_awlen_o) + 13'd1) << m_axi_awsize_o);
  assign aw_head_len = aw_len_q[aw_head_q];
  assign w_head_len  = w_len_q[w_head_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_count_q <= '0;
      w_count_q  <= '0;
      aw_head_q  <= '0;
      aw_tail_q  <= '0;
      w_head_q   <= '0;
      w_tail_q   <= '0;
      w_beat_q   <= '0;
    end else begin
      if (aw_hs) begin
        aw_len_q[aw_tail_q] <= m_axi_awlen_o;
        aw_tail_q           <= aw_tail_q + 1'b1;
      end
      if (w_hs) w_beat_q <= m_axi_wlast_o ? 9'd0 : w_beat_q + 9'd1;
      if (w_end) begin
        w_len_q[w_tail_q] <= w_beat_q[7:0];
        w_tail_q          <= w_tail_q + 1'b1;
      end
      if (pair) begin
        aw_head_q <= aw_head_q + 1'b1;
        w_head_q  <= w_head_q + 1'b1;
      end
      aw_count_q <= aw_count_q + (Ptr+1)'(aw_hs) - (Ptr+1)'(pair);
      w_count_q  <= w_count_q + (Ptr+1)'(w_end) - (Ptr+1)'(pair);
    end
  end

  // ---- AW (master) ----
  a_awvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_awvalid_o && !m_axi_awready_i) |=> m_axi_awvalid_o)
    else $error("AXI write: AWVALID dropped before AWREADY");
  a_aw_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_awvalid_o && !m_axi_awready_i) |=>
        ($stable(m_axi_awaddr_o) && $stable(m_axi_awlen_o) && $stable(m_axi_awsize_o) && $stable(m_axi_awburst_o)))
    else $error("AXI write: AW payload changed while stalled");
  a_aw_incr_full: assert property (@(posedge clk_i) disable iff (!rst_ni)
      m_axi_awvalid_o |-> (m_axi_awburst_o == 2'b01 && m_axi_awsize_o == FullSize))
    else $error("AXI write: not an INCR burst of full-width beats (AWBURST %0d, AWSIZE %0d)",
                m_axi_awburst_o, m_axi_awsize_o);
  a_aw_4k: assert property (@(posedge clk_i) disable iff (!rst_ni)
      m_axi_awvalid_o |-> (burst_end <= 13'd4096))
    else $error("AXI write: burst at 0x%0h, AWLEN %0d crosses a 4 KiB boundary", m_axi_awaddr_o, m_axi_awlen_o);
  // ---- W (master) ----
  a_wvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_wvalid_o && !m_axi_wready_i) |=> m_axi_wvalid_o)
    else $error("AXI write: WVALID dropped before WREADY");
  a_w_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_wvalid_o && !m_axi_wready_i) |=>
        ($stable(m_axi_wdata_o) && $stable(m_axi_wstrb_o) && $stable(m_axi_wlast_o)))
    else $error("AXI write: W payload changed while stalled");
  a_w_beats: assert property (@(posedge clk_i) disable iff (!rst_ni)
      w_hs |-> (w_beat_q < 9'd256))
    else $error("AXI write: a W burst of more than 256 beats");
  // ---- the bursts pair up ----
  a_wlast_on_awlen: assert property (@(posedge clk_i) disable iff (!rst_ni)
      pair |-> (w_head_len == aw_head_len))
    else $error("AXI write: a W burst of %0d beats for an AW with AWLEN %0d", 9'(w_head_len) + 9'd1, aw_head_len);
  a_track_room: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (32'(aw_count_q) < MAX_TRACK && 32'(w_count_q) < MAX_TRACK))
    else $error("AXI write checker: one channel more than MAX_TRACK bursts ahead");
  // ---- B (slave) ----
  a_bvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_bvalid_i && !m_axi_bready_o) |=> m_axi_bvalid_i)
    else $error("AXI write: BVALID dropped before BREADY");

  logic unused;
  assign unused = ^{m_axi_awaddr_o, m_axi_wdata_o, m_axi_wstrb_o, m_axi_bresp_i};

endmodule
