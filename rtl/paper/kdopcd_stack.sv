// DOP-pair stack: entries in an inferred simple dual-port block RAM (one write, one synchronous
// read per cycle), the top two entries mirrored in registers so that the controller sees the
// top and the entry below it without a read latency.
//
// Per cycle one of: init (the root pair, count 1), push one entry (the controller pushes the
// right child and takes the left child straight into the pipeline: net +1), or pop one. A pop
// reads the entry that becomes "below" from the RAM (address count - 3, never the address being
// written); it is shown from the next cycle on, so pops may follow each other.
module kdopcd_stack #(
  parameter int DEPTH = 1024,
  parameter int EW    = 80     // entry width
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       init_i,
  input  logic [EW-1:0]              init_data_i,
  input  logic                       push_i,
  input  logic [EW-1:0]              push_data_i,
  input  logic                       pop_i,
  output logic [$clog2(DEPTH+1)-1:0] count_o,
  output logic [EW-1:0]              top_o,      // valid when count_o >= 1
  output logic [EW-1:0]              below_o     // valid when count_o >= 2
);

  localparam int AW = $clog2(DEPTH);
  localparam int CW = $clog2(DEPTH + 1);

  logic [EW-1:0] ram [DEPTH];
  logic [CW-1:0] count_q;
  logic [EW-1:0] top_q, below_q, rd_data_q;
  logic          below_from_ram_q;   // below_q comes from the read issued in the last cycle
  logic          we;
  logic [AW-1:0] waddr, raddr;
  logic [EW-1:0] wdata;

  always_comb begin
    we    = init_i || push_i;
    waddr = init_i ? '0 : AW'(count_q);
    wdata = init_i ? init_data_i : push_data_i;
    raddr = AW'(count_q - CW'(3));   // after a pop: the new "below" entry
  end

  always_ff @(posedge clk_i) begin
    if (we) ram[waddr] <= wdata;
    rd_data_q <= ram[raddr];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q          <= '0;
      top_q            <= '0;
      below_q          <= '0;
      below_from_ram_q <= 1'b0;
    end else begin
      below_from_ram_q <= 1'b0;
      if (below_from_ram_q) below_q <= rd_data_q;
      if (init_i) begin
        count_q <= CW'(1);
        top_q   <= init_data_i;
      end else if (push_i) begin
        count_q <= count_q + CW'(1);
        top_q   <= push_data_i;
        below_q <= top_q;
      end else if (pop_i) begin
        count_q          <= count_q - CW'(1);
        top_q            <= below_o;
        below_from_ram_q <= 1'b1;
      end
    end
  end

  assign count_o = count_q;
  assign top_o   = top_q;
  assign below_o = below_from_ram_q ? rd_data_q : below_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else if (pop_i && !init_i && !push_i && count_q == '0) begin
      $error("kdopcd_stack: pop of an empty stack");
    end
  end
`endif

endmodule
