// Simulation-only protocol checker for the accelerator's AXI4-Lite slave port (docs/accelerator.md
// "Ports"): on each of the five channels, VALID is held until READY and the payload is stable
// while VALID && !READY. AW, W, AR are driven by the host (master), B and R by the register file.
// Never synthesized; verilate with --assert.
module kdopcd_axil_checker (
  input logic        clk_i,
  input logic        rst_ni,
  input logic        s_axil_awvalid_i,
  input logic        s_axil_awready_o,
  input logic [11:0] s_axil_awaddr_i,
  input logic        s_axil_wvalid_i,
  input logic        s_axil_wready_o,
  input logic [31:0] s_axil_wdata_i,
  input logic [3:0]  s_axil_wstrb_i,
  input logic        s_axil_bvalid_o,
  input logic        s_axil_bready_i,
  input logic [1:0]  s_axil_bresp_o,
  input logic        s_axil_arvalid_i,
  input logic        s_axil_arready_o,
  input logic [11:0] s_axil_araddr_i,
  input logic        s_axil_rvalid_o,
  input logic        s_axil_rready_i,
  input logic [31:0] s_axil_rdata_o,
  input logic [1:0]  s_axil_rresp_o
);

  a_awvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_awvalid_i && !s_axil_awready_o) |=> s_axil_awvalid_i)
    else $error("AXI-Lite: AWVALID dropped before AWREADY");
  a_aw_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_awvalid_i && !s_axil_awready_o) |=> $stable(s_axil_awaddr_i))
    else $error("AXI-Lite: AWADDR changed while stalled");

  a_wvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_wvalid_i && !s_axil_wready_o) |=> s_axil_wvalid_i)
    else $error("AXI-Lite: WVALID dropped before WREADY");
  a_w_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_wvalid_i && !s_axil_wready_o) |=> ($stable(s_axil_wdata_i) && $stable(s_axil_wstrb_i)))
    else $error("AXI-Lite: W payload changed while stalled");

  a_bvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_bvalid_o && !s_axil_bready_i) |=> s_axil_bvalid_o)
    else $error("AXI-Lite: BVALID dropped before BREADY");
  a_b_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_bvalid_o && !s_axil_bready_i) |=> $stable(s_axil_bresp_o))
    else $error("AXI-Lite: BRESP changed while stalled");

  a_arvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_arvalid_i && !s_axil_arready_o) |=> s_axil_arvalid_i)
    else $error("AXI-Lite: ARVALID dropped before ARREADY");
  a_ar_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_arvalid_i && !s_axil_arready_o) |=> $stable(s_axil_araddr_i))
    else $error("AXI-Lite: ARADDR changed while stalled");

  a_rvalid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_rvalid_o && !s_axil_rready_i) |=> s_axil_rvalid_o)
    else $error("AXI-Lite: RVALID dropped before RREADY");
  a_r_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (s_axil_rvalid_o && !s_axil_rready_i) |=> ($stable(s_axil_rdata_o) && $stable(s_axil_rresp_o)))
    else $error("AXI-Lite: R payload changed while stalled");

endmodule
