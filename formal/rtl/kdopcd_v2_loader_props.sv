// Formal-only: the loader's AXI4 read master (kdopcd_v2_loader, the top's m_axi_* port;
// docs/formal.md §5). Read by Yosys with `read_verilog -formal`; yosys-smtbmc checks the
// assertions (scripts/formal_rtl.py).
//
// Environment: reset low in the first clock; LOAD only while the loader is not busy; the section
// bases are beat-aligned (the contract's tree images are); the record counts and bases are free
// and held while a load runs (the registers are written while idle); the memory keeps the
// slave's rules of rtl/verif/kdopcd_axi_read_checker.sv: RVALID only while a burst is
// outstanding, RLAST exactly on its beat ARLEN + 1, the R payload held while stalled; ARREADY,
// RVALID's timing, RDATA and RRESP are free.
// Properties (the checker's master rules, and the loader's own): ARVALID held until ARREADY, the
// AR payload stable while stalled, ARLEN < BURST_MAX, INCR bursts of full-width beats, no burst
// across a 4 KiB boundary; at most one burst outstanding (the loader's design).
module kdopcd_v2_loader_props #(
  parameter int W         = 64,
  parameter int ADDR_W    = 32,
  parameter int NODE_AW   = 3,
  parameter int TRI_AW    = 3,
  parameter int NODE_BITS = 100,
  parameter int TRI_BITS  = 60,
  parameter int BURST_MAX = 4
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic                load_i,
  input logic [2*ADDR_W-1:0] node_base_i,
  input logic [2*ADDR_W-1:0] tri_base_i,
  input logic [63:0]         nodes_i,
  input logic [63:0]         tris_i,
  input logic                arready,
  input logic                rvalid,
  input logic [W-1:0]        rdata,
  input logic [1:0]          rresp,
  input logic                rlast
);
  localparam int Bytes = W / 8;

  logic              busy, done, ok, lerr, berr, arvalid, rready;
  logic [ADDR_W-1:0] araddr;
  logic [7:0]        arlen;
  logic [2:0]        arsize;
  logic [1:0]        arburst;

  kdopcd_v2_loader #(
    .W(W), .ADDR_W(ADDR_W), .NODE_AW(NODE_AW), .TRI_AW(TRI_AW), .NODE_BITS(NODE_BITS),
    .TRI_BITS(TRI_BITS), .BURST_MAX(BURST_MAX)
  ) u_loader (
    .clk_i, .rst_ni, .load_i, .node_base_i, .tri_base_i, .nodes_i, .tris_i,
    .busy_o(busy), .done_o(done), .ok_o(ok), .load_error_o(lerr), .bus_error_o(berr),
    .cycles_o(), .beats_o(), .node_we_o(), .node_waddr_o(), .node_wdata_o(), .tri_we_o(),
    .tri_waddr_o(), .tri_wdata_o(),
    .m_axi_arvalid_o(arvalid), .m_axi_arready_i(arready), .m_axi_araddr_o(araddr),
    .m_axi_arlen_o(arlen), .m_axi_arsize_o(arsize), .m_axi_arburst_o(arburst),
    .m_axi_rvalid_i(rvalid), .m_axi_rready_o(rready), .m_axi_rdata_i(rdata),
    .m_axi_rresp_i(rresp), .m_axi_rlast_i(rlast)
  );

  // ---------------------------------------------------------------- environment
  initial assume (!rst_ni);

  logic [3:0] out_q;    // bursts accepted and not complete
  logic [8:0] beat_q;   // beats of the oldest one taken
  logic [7:0] len_q;    // its ARLEN (one outstanding at most: asserted below)
  logic       r_hs, ar_hs, r_stall_q, run_q;
  logic [W-1:0] rdata_q;
  logic [1:0] rresp_q;
  logic       rlast_q;
  logic [2*ADDR_W-1:0] nb_q, tb_q;
  logic [63:0] n_q, t_q;
  assign ar_hs = arvalid && arready;
  assign r_hs  = rvalid && rready;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_q     <= '0;
      beat_q    <= '0;
      r_stall_q <= 1'b0;
      run_q     <= 1'b0;
    end else begin
      out_q     <= out_q + 4'(ar_hs) - 4'(r_hs && rlast);
      beat_q    <= r_hs ? (rlast ? 9'd0 : beat_q + 9'd1) : beat_q;
      r_stall_q <= rvalid && !rready;
      run_q     <= busy || load_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (ar_hs) len_q <= arlen;
    rdata_q <= rdata;
    rresp_q <= rresp;
    rlast_q <= rlast;
    nb_q    <= node_base_i;
    tb_q    <= tri_base_i;
    n_q     <= nodes_i;
    t_q     <= tris_i;
  end
  always_comb begin
    if (rst_ni) begin
      if (load_i) assume (!busy);
      for (int t = 0; t < 2; t++) begin
        assume (node_base_i[t*ADDR_W +: $clog2(Bytes)] == '0);
        assume (tri_base_i[t*ADDR_W +: $clog2(Bytes)] == '0);
      end
      if (run_q) assume (node_base_i == nb_q && tri_base_i == tb_q && nodes_i == n_q && tris_i == t_q);
      if (rvalid) assume (out_q != '0);
      if (rvalid && out_q != '0) assume (rlast == (beat_q == {1'b0, len_q}));
      if (r_stall_q) assume (rvalid && rdata == rdata_q && rresp == rresp_q && rlast == rlast_q);
    end
  end

  // ---------------------------------------------------------------- properties
  kdopcd_axi_ar_props #(.ADDR_W(ADDR_W), .BYTES(Bytes)) u_ar_rules (
    .clk_i, .rst_ni, .arvalid, .arready, .araddr, .arlen, .arsize, .arburst
  );
  always_comb begin
    if (rst_ni) begin
      if (arvalid) begin
        assert (32'(arlen) < BURST_MAX);
        assert (out_q == '0);  // one burst outstanding at most
      end
      assert (out_q <= 4'd1);
    end
  end
endmodule
