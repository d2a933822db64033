// Simulation only: binds the three protocol checkers to the ports of the v2 accelerator top (kdopcd_v2_top),
// so every verilated query runs under the AXI4-Lite, AXI4 read and AXI4-Stream assertions
// (Verilator --assert). The design files never name a checker; synthesis reads only the design's
// file list and never this folder.
bind kdopcd_v2_top kdopcd_axil_checker u_axil_checker (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i, .s_axil_wvalid_i, .s_axil_wready_o,
    .s_axil_wdata_i, .s_axil_wstrb_i, .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i, .s_axil_rvalid_o, .s_axil_rready_i,
    .s_axil_rdata_o, .s_axil_rresp_o
  );
bind kdopcd_v2_top kdopcd_axi_read_checker #(.W(W), .ADDR_W(ADDR_W), .BURST_MAX(BURST_MAX)) u_axi_checker (
    .clk_i, .rst_ni,
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o, .m_axi_arburst_o,
    .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rdata_i, .m_axi_rresp_i, .m_axi_rlast_i
  );
bind kdopcd_v2_top kdopcd_axis_checker u_axis_checker (
    .clk_i, .rst_ni, .m_axis_tvalid_o, .m_axis_tready_i, .m_axis_tdata_o
  );
// The command queue's descriptor reads: the same AXI4 read rules on the DMA port.
bind kdopcd_v2_top kdopcd_axi_read_checker #(.W(DMA_W), .ADDR_W(64), .BURST_MAX(kdopcd_v2_pkg::desc_beats(K, DMA_W)))
  u_dma_read_checker (
    .clk_i, .rst_ni,
    .m_axi_arvalid_o(m_dma_arvalid_o), .m_axi_arready_i(m_dma_arready_i), .m_axi_araddr_o(m_dma_araddr_o),
    .m_axi_arlen_o(m_dma_arlen_o), .m_axi_arsize_o(m_dma_arsize_o), .m_axi_arburst_o(m_dma_arburst_o),
    .m_axi_rvalid_i(m_dma_rvalid_i), .m_axi_rready_o(m_dma_rready_o), .m_axi_rdata_i(m_dma_rdata_i),
    .m_axi_rresp_i(m_dma_rresp_i), .m_axi_rlast_i(m_dma_rlast_i)
  );
