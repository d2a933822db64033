// Simulation-only protocol checker for the contact stream (AXI4-Stream master of the top,
// docs/accelerator.md "Ports"): TVALID is held until TREADY and TDATA is stable while
// TVALID && !TREADY. Never synthesized; verilate with --assert.
module kdopcd_axis_checker (
  input logic        clk_i,
  input logic        rst_ni,
  input logic        m_axis_tvalid_o,
  input logic        m_axis_tready_i,
  input logic [63:0] m_axis_tdata_o
);

  a_tvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axis_tvalid_o && !m_axis_tready_i) |=> m_axis_tvalid_o)
    else $error("AXI-Stream: TVALID dropped before TREADY");
  a_tdata_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axis_tvalid_o && !m_axis_tready_i) |=> $stable(m_axis_tdata_o))
    else $error("AXI-Stream: TDATA changed while stalled");

endmodule
