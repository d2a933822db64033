// Pipelined binary adder tree: N terms of W bits, one register level per adder level, so the
// sum of the terms presented in cycle t appears in cycle t + LEVELS, LEVELS = ceil(log2 N).
// Sums wrap modulo 2^W: the caller picks W so that the true total fits, which makes every
// intermediate wrap harmless (two's complement addition is exact modulo 2^W).
// Level l pairs terms 2i and 2i+1; an odd term out is passed on through a register.
module kdopcd_sat_addtree #(
  parameter int N = 13,  // number of terms, >= 2
  parameter int W = 41,  // width of the terms and of the sum
  // derived, not to be overridden
  parameter int LEVELS = $clog2(N)
) (
  input  logic         clk_i,
  input  logic [N*W-1:0] terms_i,  // term i at [i*W +: W]
  output logic [W-1:0]   sum_o
);

  for (genvar l = 0; l < LEVELS; l++) begin : g_level
    localparam int NIN  = (N + (1 << l) - 1) >> l;        // ceil(N / 2^l)
    localparam int NOUT = (N + (2 << l) - 1) >> (l + 1);  // ceil(N / 2^(l+1))
    logic [NIN*W-1:0]  lvl_in;
    logic [NOUT*W-1:0] lvl_out;
    if (l == 0) begin : g_first
      assign lvl_in = terms_i;
    end else begin : g_next
      assign lvl_in = g_level[l-1].lvl_out;
    end
    for (genvar i = 0; i < NOUT; i++) begin : g_node
      logic [W-1:0] node_d, node_q;
      if (2 * i + 1 < NIN) begin : g_add
        assign node_d = lvl_in[2*i*W +: W] + lvl_in[(2*i+1)*W +: W];
      end else begin : g_pass
        assign node_d = lvl_in[2*i*W +: W];
      end
      always_ff @(posedge clk_i) begin
        node_q <= node_d;
      end
      assign lvl_out[i*W +: W] = node_q;
    end
  end

  assign sum_o = g_level[LEVELS-1].lvl_out;

endmodule
