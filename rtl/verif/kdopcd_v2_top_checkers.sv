// Simulation only: binds the protocol checkers to the ports of the v2 accelerator top (kdopcd_v2_top),
// so every verilated query runs under the AXI4-Lite, AXI4 read, AXI4 write and AXI4-Stream assertions
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
// The command queue's write-back (contacts, completion records): the AXI4 write rules on the DMA
// port, W bursts paired with their AWs in order whichever channel runs ahead.
bind kdopcd_v2_top kdopcd_axi_write_checker #(.W(DMA_W), .ADDR_W(64)) u_dma_write_checker (
    .clk_i, .rst_ni,
    .m_axi_awvalid_o(m_dma_awvalid_o), .m_axi_awready_i(m_dma_awready_i), .m_axi_awaddr_o(m_dma_awaddr_o),
    .m_axi_awlen_o(m_dma_awlen_o), .m_axi_awsize_o(m_dma_awsize_o), .m_axi_awburst_o(m_dma_awburst_o),
    .m_axi_wvalid_o(m_dma_wvalid_o), .m_axi_wready_i(m_dma_wready_i), .m_axi_wdata_o(m_dma_wdata_o),
    .m_axi_wstrb_o(m_dma_wstrb_o), .m_axi_wlast_o(m_dma_wlast_o), .m_axi_bvalid_i(m_dma_bvalid_i),
    .m_axi_bready_o(m_dma_bready_o), .m_axi_bresp_i(m_dma_bresp_i)
  );
