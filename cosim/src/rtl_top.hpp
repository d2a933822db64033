#pragma once
// The whole verilated v2 top (rtl/v2/kdopcd_v2_top.sv, Verilator --sc: register file, loader, fetch,
// ctrl, SAT and triangle units) as one sc_module, `--rtl-blocks top`, driven by a SystemC bus
// host: an AXI4-Lite master for the registers, an AXI4 read slave holding the encoded tree
// images for LOAD, and the contact stream's sink. It runs the same queries as the signal-level
// tops, in lockstep on the same clock, and records the same block ports clock by clock: the top's
// wires between its blocks (made readable by cosim/kdopcd_v2_top_public.vlt), sampled at the
// falling edge, where they hold the values of the clock.
#include <systemc>

#include <memory>
#include <vector>

#include "cosim_top.hpp"
#include "kdopcd_contract/accelerator_v2.hpp"

namespace kdopcd::cosim {

class RtlTop : public sc_core::sc_module, public CosimTop {
 public:
  SC_HAS_PROCESS(RtlTop);
  RtlTop(sc_core::sc_module_name name, sc_core::sc_clock& clk, RtlBlocks blocks);

  const RtlBlocks& blocks() const override { return blocks_; }
  // The host LOADs the trees over AXI when `generation` is not the loaded one, then writes the
  // query's registers and START.
  void arm(const TreeImage* first, const TreeImage* second, std::uint64_t generation, const QueryInputs& q,
           bool record_trace) override;
  bool loading() const override { return loading_; }
  bool finished() const override { return finished_; }
  bool overflow() const override { return overflow_; }
  std::array<std::uint64_t, c2::kNumCounters> counters() const override { return counters_; }
  const std::vector<std::uint64_t>& stream() const override { return stream_; }
  const std::vector<CycleRecord>& trace() const override { return trace_; }
  void add_to_trace(sc_core::sc_trace_file* tf, const std::string& scope) const override;

 private:
  void host();    // SC_THREAD: reset, LOAD, the registers of each query, START, DONE, counters, CLEAR
  void memory();  // the AXI4 read slave (rising edge)
  void sink();    // the contact stream (rising edge)
  void sample();  // the per-clock record (falling edge)
  void tick() { wait(clk_.posedge_event()); }
  void lite_write(std::uint32_t addr, std::uint32_t data);
  void lite_write64(std::uint32_t addr, std::uint64_t data);
  std::uint32_t lite_read(std::uint32_t addr);
  std::uint64_t lite_read64(std::uint32_t addr);
  std::uint32_t wait_done();       // clocks until irq_o, then STATUS
  void clear_and_wait_idle();
  std::uint64_t mem_read64(std::uint64_t addr) const;

  RtlBlocks blocks_;
  sc_core::sc_clock& clk_;
  std::unique_ptr<sc_core::sc_module> top_;  // Vkdopcd_v2_top_sc
  // AXI4-Lite
  sc_core::sc_signal<bool> rst_n_{"rst_n"};
  sc_core::sc_signal<bool> awvalid_{"awvalid"}, awready_{"awready"}, wvalid_{"wvalid"}, wready_{"wready"},
      bvalid_{"bvalid"}, bready_{"bready"}, arvalid_{"arvalid"}, arready_{"arready"}, rvalid_{"rvalid"},
      rready_{"rready"};
  sc_core::sc_signal<std::uint32_t> awaddr_{"awaddr"}, wdata_{"wdata"}, wstrb_{"wstrb"}, bresp_{"bresp"},
      araddr_{"araddr"}, rdata_{"rdata"}, rresp_{"rresp"};
  // AXI4 read master of the loader
  sc_core::sc_signal<bool> m_arvalid_{"m_arvalid"}, m_arready_{"m_arready"}, m_rvalid_{"m_rvalid"},
      m_rready_{"m_rready"}, m_rlast_{"m_rlast"};
  sc_core::sc_signal<std::uint32_t> m_araddr_{"m_araddr"}, m_arlen_{"m_arlen"}, m_arsize_{"m_arsize"},
      m_arburst_{"m_arburst"}, m_rresp_{"m_rresp"};
  sc_core::sc_signal<std::uint64_t> m_rdata_{"m_rdata"};
  // The command queue's DMA master: idle here (co-simulation runs the register path), its inputs
  // tied off, its outputs bound so that the verilated module elaborates.
  sc_core::sc_signal<bool> q_arvalid_{"q_arvalid"}, q_arready_{"q_arready"}, q_rvalid_{"q_rvalid"},
      q_rready_{"q_rready"}, q_rlast_{"q_rlast"}, q_awvalid_{"q_awvalid"}, q_awready_{"q_awready"},
      q_wvalid_{"q_wvalid"}, q_wready_{"q_wready"}, q_wlast_{"q_wlast"}, q_bvalid_{"q_bvalid"}, q_bready_{"q_bready"};
  sc_core::sc_signal<std::uint32_t> q_arlen_{"q_arlen"}, q_arsize_{"q_arsize"}, q_arburst_{"q_arburst"},
      q_rresp_{"q_rresp"}, q_awlen_{"q_awlen"}, q_awsize_{"q_awsize"}, q_awburst_{"q_awburst"}, q_bresp_{"q_bresp"};
  sc_core::sc_signal<std::uint64_t> q_araddr_{"q_araddr"}, q_awaddr_{"q_awaddr"}, q_wstrb_{"q_wstrb"};
  sc_core::sc_signal<sc_dt::sc_bv<contract::v2::kDmaW>> q_rdata_{"q_rdata"}, q_wdata_{"q_wdata"};
  // AXI4-Stream and interrupt
  sc_core::sc_signal<bool> tvalid_{"m_axis_tvalid"}, tready_{"m_axis_tready"}, irq_{"irq"};
  sc_core::sc_signal<std::uint64_t> tdata_{"m_axis_tdata"};

  // host state
  bool armed_ = false, loading_ = false, finished_ = false, overflow_ = false, record_ = false, recording_ = false;
  const TreeImage* load_f_ = nullptr;
  const TreeImage* load_s_ = nullptr;
  std::uint64_t loading_generation_ = 0, loaded_generation_ = 0;
  QueryInputs q_;
  std::vector<std::uint8_t> mem_;  // the AXI memory: both encoded images
  std::uint64_t burst_addr_ = 0;
  std::uint32_t burst_left_ = 0;
  std::array<std::uint64_t, c2::kNumCounters> counters_{};
  std::vector<std::uint64_t> stream_;
  std::vector<CycleRecord> trace_;
};

}  // namespace kdopcd::cosim
