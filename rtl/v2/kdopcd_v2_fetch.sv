// The fetch block of the v2 accelerator (docs/accelerator-v2.md): the four tree RAMs (nodes and
// triangles of each tree, kdopcd_v2_ram) and their reads. The loader writes them; the engine
// addresses one node pair and one triangle pair per clock, and the records come out RAM_LAT
// clocks later, split for their users:
//   node_link_o      the link words of both node records, to the engine (the verdict's children);
//   coef_a_o/b_o     the coefficient vectors, to the SAT unit: A = the second tree's node, B = the
//                    first's (the reference's fixed_axis_diffs(second, first));
//   tri_a_o/b_o      the two triangle records (first tree, second tree), to the triangle unit.
// Per-tree buses are flat, tree t at [t*WIDTH +: WIDTH] (Yosys 0.23 reads no unpacked array ports).
module kdopcd_v2_fetch #(
  parameter int K          = kdopcd_v2_pkg::DEFAULT_K,
  parameter int B          = kdopcd_v2_pkg::DEFAULT_B,
  parameter int V          = kdopcd_v2_pkg::DEFAULT_V,
  parameter int NODE_AW    = kdopcd_v2_pkg::DEFAULT_NODE_AW,
  parameter int TRI_AW     = kdopcd_v2_pkg::DEFAULT_TRI_AW,
  parameter int RAM_LAT    = kdopcd_v2_pkg::DEFAULT_RAM_LAT,
  localparam int NODE_BITS = kdopcd_v2_pkg::node_bits(K, B),
  localparam int TRI_BITS  = kdopcd_v2_pkg::tri_bits(V),
  localparam int COEF_W    = B + 2
) (
  input  logic                   clk_i,
  // writes (kdopcd_v2_loader): one record per section and clock, into tree t when we_i[t]
  input  logic [1:0]             node_we_i,
  input  logic [NODE_AW-1:0]     node_waddr_i,
  input  logic [NODE_BITS-1:0]   node_wdata_i,
  input  logic [1:0]             tri_we_i,
  input  logic [TRI_AW-1:0]      tri_waddr_i,
  input  logic [TRI_BITS-1:0]    tri_wdata_i,
  // reads (kdopcd_v2_engine): the records of the addresses of clock t come out in t + RAM_LAT
  input  logic [2*NODE_AW-1:0]   node_raddr_i,
  output logic [127:0]           node_link_o,  // tree t's link word at [t*64 +: 64]
  output logic [K*COEF_W-1:0]    coef_a_o,     // the second tree's node
  output logic [K*COEF_W-1:0]    coef_b_o,     // the first tree's node
  input  logic [2*TRI_AW-1:0]    tri_raddr_i,
  output logic [TRI_BITS-1:0]    tri_a_o,      // the first tree's triangle
  output logic [TRI_BITS-1:0]    tri_b_o       // the second tree's triangle
);

  logic [2*NODE_BITS-1:0] node_rdata;
  logic [2*TRI_BITS-1:0]  tri_rdata;

  for (genvar t = 0; t < 2; t++) begin : g_tree
    kdopcd_v2_ram #(.AW(NODE_AW), .DW(NODE_BITS), .LAT(RAM_LAT)) u_nodes (
      .clk_i,
      .we_i   (node_we_i[t]),
      .waddr_i(node_waddr_i),
      .wdata_i(node_wdata_i),
      .raddr_i(node_raddr_i[t*NODE_AW +: NODE_AW]),
      .rdata_o(node_rdata[t*NODE_BITS +: NODE_BITS])
    );
    kdopcd_v2_ram #(.AW(TRI_AW), .DW(TRI_BITS), .LAT(RAM_LAT)) u_tris (
      .clk_i,
      .we_i   (tri_we_i[t]),
      .waddr_i(tri_waddr_i),
      .wdata_i(tri_wdata_i),
      .raddr_i(tri_raddr_i[t*TRI_AW +: TRI_AW]),
      .rdata_o(tri_rdata[t*TRI_BITS +: TRI_BITS])
    );
  end

  // A node record (docs/formats.md): the 64-bit link word, then the K coefficients, LSB first.
  assign node_link_o = {node_rdata[NODE_BITS +: 64], node_rdata[0 +: 64]};
  assign coef_a_o    = node_rdata[NODE_BITS + 64 +: K*COEF_W];
  assign coef_b_o    = node_rdata[64 +: K*COEF_W];
  assign tri_a_o     = tri_rdata[0 +: TRI_BITS];
  assign tri_b_o     = tri_rdata[TRI_BITS +: TRI_BITS];

endmodule
