#pragma once
// Reference members that give a test's stand-in object the AXI4-Lite port names of the top, bound
// to a verilated register file member OBJ (Vkdopcd_regs), so that the harness's AxiLiteMaster
// drives it like the top (regs_tb.cpp, axi_memory_test.cpp). Expands to member declarations.
#define KDOPCD_AXIL_PORT_REFS(OBJ)                  \
  CData& s_axil_awvalid_i = OBJ.s_axil_awvalid_i;   \
  CData& s_axil_awready_o = OBJ.s_axil_awready_o;   \
  SData& s_axil_awaddr_i = OBJ.s_axil_awaddr_i;     \
  CData& s_axil_wvalid_i = OBJ.s_axil_wvalid_i;     \
  CData& s_axil_wready_o = OBJ.s_axil_wready_o;     \
  IData& s_axil_wdata_i = OBJ.s_axil_wdata_i;       \
  CData& s_axil_wstrb_i = OBJ.s_axil_wstrb_i;       \
  CData& s_axil_bvalid_o = OBJ.s_axil_bvalid_o;     \
  CData& s_axil_bready_i = OBJ.s_axil_bready_i;     \
  CData& s_axil_bresp_o = OBJ.s_axil_bresp_o;       \
  CData& s_axil_arvalid_i = OBJ.s_axil_arvalid_i;   \
  CData& s_axil_arready_o = OBJ.s_axil_arready_o;   \
  SData& s_axil_araddr_i = OBJ.s_axil_araddr_i;     \
  CData& s_axil_rvalid_o = OBJ.s_axil_rvalid_o;     \
  CData& s_axil_rready_i = OBJ.s_axil_rready_i;     \
  IData& s_axil_rdata_o = OBJ.s_axil_rdata_o;       \
  CData& s_axil_rresp_o = OBJ.s_axil_rresp_o;
