// Tree RAM of the v2 accelerator: one node or triangle section of one tree, simple dual port.
// The loader writes (one record per clock at most); the engine reads with a fixed latency of LAT
// clocks: the address presented in clock t is registered, the data comes out of LAT - 1 output
// registers, valid in clock t + LAT (RAM_LAT of the contract; 2 = address and output register,
// what block RAM and UltraRAM give at full clock rate). No reset: the contents are only read
// after a complete LOAD.
module kdopcd_v2_ram #(
  parameter int AW  = 10,
  parameter int DW  = 64,
  parameter int LAT = 2
) (
  input  logic          clk_i,
  input  logic          we_i,
  input  logic [AW-1:0] waddr_i,
  input  logic [DW-1:0] wdata_i,
  input  logic [AW-1:0] raddr_i,
  output logic [DW-1:0] rdata_o
);

  if (LAT < 1) begin : g_lat_check
    $error("kdopcd_v2_ram: LAT must be at least 1 (the address register)");
  end

  logic [DW-1:0] mem_q [2**AW];
  logic [AW-1:0] raddr_q;
  logic [DW-1:0] out_q [LAT];

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    raddr_q <= raddr_i;
  end

  // LAT - 1 output registers after the array read (LAT = 1: the read is combinational from the
  // registered address).
  always_comb out_q[0] = mem_q[raddr_q];
  for (genvar s = 1; s < LAT; s++) begin : g_out
    always_ff @(posedge clk_i) out_q[s] <= out_q[s-1];
  end
  assign rdata_o = out_q[LAT-1];

endmodule
