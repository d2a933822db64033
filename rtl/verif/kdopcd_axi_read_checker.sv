// Simulation-only protocol checker for the accelerator's AXI4 read master (AR and R channels),
// docs/accelerator.md "Ports". Never synthesized (rtl/verif/ is not in rtl/paper/filelist.f).
// Verilate with --assert; a violation prints "%Error: ... Assertion failed in <hier>.<label>".
//
// Master side (checked on the DUT): ARVALID held until ARREADY, AR payload stable while stalled,
//   ARLEN < BURST_MAX, INCR bursts of full-width beats, no burst crossing a 4 KiB boundary.
// Slave side (checked on the memory model): RVALID held until RREADY, R payload stable while
//   stalled, no RVALID without an outstanding burst, RLAST exactly on beat ARLEN + 1.
module kdopcd_axi_read_checker #(
  parameter int W         = 64,
  parameter int ADDR_W    = 32,
  parameter int BURST_MAX = 16,
  parameter int MAX_TRACK = 64  // outstanding bursts the checker can track
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              m_axi_arvalid_o,
  input logic              m_axi_arready_i,
  input logic [ADDR_W-1:0] m_axi_araddr_o,
  input logic [7:0]        m_axi_arlen_o,
  input logic [2:0]        m_axi_arsize_o,
  input logic [1:0]        m_axi_arburst_o,
  input logic              m_axi_rvalid_i,
  input logic              m_axi_rready_o,
  input logic [W-1:0]      m_axi_rdata_i,
  input logic [1:0]        m_axi_rresp_i,
  input logic              m_axi_rlast_i
);

  localparam int Ptr = $clog2(MAX_TRACK);
  localparam logic [2:0] FullSize = 3'($clog2(W / 8));

  logic ar_hs, r_hs;
  assign ar_hs = m_axi_arvalid_o && m_axi_arready_i;
  assign r_hs  = m_axi_rvalid_i && m_axi_rready_o;

  // In-order queue of the ARLEN of accepted bursts, and the beat count of the oldest one.
  logic [7:0]   len_q [MAX_TRACK];
  logic [Ptr:0] count_q;
  logic [Ptr-1:0] head_q, tail_q;
  logic [8:0]   beat_q;  // beats of the oldest burst already transferred
  logic         head_last;  // the next beat is the oldest burst's last
  assign head_last = (count_q != 0) && (beat_q == {1'b0, len_q[head_q]});

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      head_q  <= '0;
      tail_q  <= '0;
      beat_q  <= '0;
    end else begin
      if (ar_hs) begin
        len_q[tail_q] <= m_axi_arlen_o;
        tail_q        <= tail_q + 1'b1;
      end
      if (r_hs && count_q != 0) begin
        if (head_last) begin
          head_q <= head_q + 1'b1;
          beat_q <= '0;
        end else begin
          beat_q <= beat_q + 1'b1;
        end
      end
      count_q <= count_q + (Ptr+1)'(ar_hs) - (Ptr+1)'(r_hs && head_last);
    end
  end

  // Bytes from the start address to the end of the burst (INCR, 1 << ARSIZE bytes per beat).
  logic [12:0] burst_end;
  assign burst_end = 13'({1'b0, m_axi_araddr_o[11:0]}) + 13'((13'(m_axi_arlen_o) + 13'd1) << m_axi_arsize_o);

  // ---- AR (master) ----
  a_arvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_arvalid_o && !m_axi_arready_i) |=> m_axi_arvalid_o)
    else $error("AXI read: ARVALID dropped before ARREADY");
  a_ar_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_arvalid_o && !m_axi_arready_i) |=>
        ($stable(m_axi_araddr_o) && $stable(m_axi_arlen_o) && $stable(m_axi_arsize_o) && $stable(m_axi_arburst_o)))
    else $error("AXI read: AR payload changed while stalled");
  a_arlen_max: assert property (@(posedge clk_i) disable iff (!rst_ni)
      m_axi_arvalid_o |-> (32'(m_axi_arlen_o) < BURST_MAX))
    else $error("AXI read: ARLEN %0d >= BURST_MAX %0d", m_axi_arlen_o, BURST_MAX);
  a_ar_4k: assert property (@(posedge clk_i) disable iff (!rst_ni)
      m_axi_arvalid_o |-> (burst_end <= 13'd4096))
    else $error("AXI read: burst at 0x%0h, ARLEN %0d crosses a 4 KiB boundary", m_axi_araddr_o, m_axi_arlen_o);
  a_ar_incr_full: assert property (@(posedge clk_i) disable iff (!rst_ni)
      m_axi_arvalid_o |-> (m_axi_arburst_o == 2'b01 && m_axi_arsize_o == FullSize))
    else $error("AXI read: not an INCR burst of full-width beats (ARBURST %0d, ARSIZE %0d)",
                m_axi_arburst_o, m_axi_arsize_o);
  a_track_room: assert property (@(posedge clk_i) disable iff (!rst_ni)
      ar_hs |-> (32'(count_q) < MAX_TRACK))
    else $error("AXI read checker: more than MAX_TRACK outstanding bursts");

  // ---- R (slave) ----
  a_rvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_rvalid_i && !m_axi_rready_o) |=> m_axi_rvalid_i)
    else $error("AXI read: RVALID dropped before RREADY");
  a_r_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_rvalid_i && !m_axi_rready_o) |=>
        ($stable(m_axi_rdata_i) && $stable(m_axi_rresp_i) && $stable(m_axi_rlast_i)))
    else $error("AXI read: R payload changed while stalled");
  a_r_outstanding: assert property (@(posedge clk_i) disable iff (!rst_ni)
      m_axi_rvalid_i |-> (count_q != 0))
    else $error("AXI read: RVALID without an outstanding burst");
  a_rlast: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_rvalid_i && count_q != 0) |-> (m_axi_rlast_i == head_last))
    else $error("AXI read: RLAST %0d on beat %0d of a burst with ARLEN %0d", m_axi_rlast_i, beat_q + 9'd1,
                len_q[head_q]);

endmodule
