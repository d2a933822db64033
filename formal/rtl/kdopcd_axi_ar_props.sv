// Formal-only: the AXI4 read address channel's master rules, the ones the command queue's and the
// loader's proofs share (docs/formal.md §5): ARVALID held until ARREADY with the AR payload
// stable, INCR bursts of full-width beats (ARSIZE = log2 of the data bytes), no burst across a
// 4 KiB boundary. Each proof adds the rules of its own master (burst lengths, bursts outstanding).
// Instantiated inside a proof's wrapper; Yosys flattens it (scripts/formal_rtl.py).
module kdopcd_axi_ar_props #(
  parameter int ADDR_W = 32,
  parameter int BYTES  = 8   // bytes per data beat
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              arvalid,
  input logic              arready,
  input logic [ADDR_W-1:0] araddr,
  input logic [7:0]        arlen,
  input logic [2:0]        arsize,
  input logic [1:0]        arburst
);
  logic              ar_stall_q;
  logic [ADDR_W-1:0] araddr_q;
  logic [7:0]        arlen_q;
  logic [2:0]        arsize_q;
  logic [1:0]        arburst_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ar_stall_q <= 1'b0;
    else         ar_stall_q <= arvalid && !arready;
  end
  always_ff @(posedge clk_i) begin
    araddr_q  <= araddr;
    arlen_q   <= arlen;
    arsize_q  <= arsize;
    arburst_q <= arburst;
  end

  always_comb begin
    if (rst_ni) begin
      if (ar_stall_q)
        assert (arvalid && araddr == araddr_q && arlen == arlen_q && arsize == arsize_q && arburst == arburst_q);
      if (arvalid) begin
        assert (arburst == 2'b01 && 32'(arsize) == $clog2(BYTES));
        assert (32'(araddr[11:0]) + ((32'(arlen) + 32'd1) << arsize) <= 32'd4096);
      end
    end
  end
endmodule
