#pragma once
// One signal-level v2 engine: its four blocks (ctrl = EngineCtrl, fetch = the tree RAMs, the SAT
// unit, the triangle unit) wired with sc_signals as kdopcd_v2_top wires the RTL modules, plus the
// host that loads the tree RAMs, writes a query and pulses START. Each block is the signal-level
// model or the verilated RTL module (Verilator --sc), chosen per block when the top is built: both
// have the RTL module's port names and types, so one template binds either (bind_ctrl,
// bind_fetch, bind_sat, bind_tri).
#include <systemc>

#include <memory>
#include <vector>

#include "cosim_top.hpp"

namespace kdopcd::cosim {

class SignalTop : public sc_core::sc_module, public CosimTop {
 public:
  SC_HAS_PROCESS(SignalTop);
  SignalTop(sc_core::sc_module_name name, sc_core::sc_clock& clk, RtlBlocks blocks);

  const RtlBlocks& blocks() const override { return blocks_; }
  // Arms a query (while idle): the host loads the trees into the fetch block's RAMs over its
  // write ports first if `generation` differs from the loaded one (one record per section and
  // clock, as the RTL top's loader), then pulses START.
  void arm(const TreeImage* first, const TreeImage* second, std::uint64_t generation, const QueryInputs& q,
           bool record_trace) override;
  bool loading() const override { return loading_; }  // the host is writing the tree RAMs
  bool finished() const override { return finished_; }
  bool overflow() const override { return overflow_; }
  // The engine's counter registers at the end of the query (counters_o), in the contract's order.
  std::array<std::uint64_t, c2::kNumCounters> counters() const override;
  const std::vector<std::uint64_t>& stream() const override { return stream_; }  // m_axis_tdata of every beat
  const std::vector<CycleRecord>& trace() const override { return trace_; }
  // Adds the block ports and the host's signals to `tf`, under `scope`.
  void add_to_trace(sc_core::sc_trace_file* tf, const std::string& scope) const override;

 private:
  template <class Ctrl>
  void bind_ctrl(Ctrl& m, sc_core::sc_clock& clk);
  template <class Fetch>
  void bind_fetch(Fetch& m, sc_core::sc_clock& clk);
  template <class Sat>
  void bind_sat(Sat& m, sc_core::sc_clock& clk);
  template <class Tri>
  void bind_tri(Tri& m, sc_core::sc_clock& clk);
  void host();  // reset, LOAD, START, the contact stream's sink and the per-clock record
  bool load_step();  // one clock of the load; false when every record is written

  RtlBlocks blocks_;
  // host -> ctrl
  sc_core::sc_signal<bool> rst_n_{"rst_n"}, start_{"start"}, tready_{"m_axis_tready"};
  sc_core::sc_signal<std::uint32_t> rule_{"rule"}, pending_limit_{"pending_limit"};
  // host (loader) -> fetch
  sc_core::sc_signal<std::uint32_t> node_we_{"node_we"}, tri_we_{"tri_we"};
  sc_core::sc_signal<NodeAddr> node_waddr_{"node_waddr"};
  sc_core::sc_signal<TriAddr> tri_waddr_{"tri_waddr"};
  sc_core::sc_signal<NodeRec> node_wdata_{"node_wdata"};
  sc_core::sc_signal<TriRec> tri_wdata_{"tri_wdata"};
  // axis table -> SAT unit; M', T' -> triangle unit
  sc_core::sc_signal<JBus> ja_{"ja"}, jb_{"jb"};
  sc_core::sc_signal<PBus> pa_{"pa"}, pb_{"pb"};
  sc_core::sc_signal<OffBus> p_{"p"};
  sc_core::sc_signal<RotBus> rot_{"rot"};
  sc_core::sc_signal<TransBus> trans_{"trans"};
  // ctrl <-> fetch
  sc_core::sc_signal<NodeAddrBus> node_raddr_{"node_raddr"};
  sc_core::sc_signal<TriAddrBus> tri_raddr_{"tri_raddr"};
  sc_core::sc_signal<LinkBus> node_link_{"node_link"};
  // fetch -> SAT unit, triangle unit
  sc_core::sc_signal<CoefBus> coef_a_{"coef_a"}, coef_b_{"coef_b"};
  sc_core::sc_signal<TriBus> tri_a_{"tri_a"}, tri_b_{"tri_b"};
  // ctrl <-> SAT unit
  sc_core::sc_signal<bool> sat_in_valid_{"sat_in_valid"}, sat_valid_{"sat_valid"}, sat_separated_{"sat_separated"};
  sc_core::sc_signal<LaneBits> sat_lanes_{"sat_lanes"};
  sc_core::sc_signal<EffPort> sat_effective_{"sat_effective"};
  // ctrl <-> triangle unit
  sc_core::sc_signal<bool> tri_in_valid_{"tri_in_valid"}, tri_valid_{"tri_valid"}, tri_hit_{"tri_hit"};
  sc_core::sc_signal<IdPort> tri_in_id_{"tri_in_id"}, tri_id_{"tri_id"};
  // ctrl -> host
  sc_core::sc_signal<bool> tvalid_{"m_axis_tvalid"}, busy_{"busy"}, idle_{"idle"}, done_{"done"},
      overflow_sig_{"overflow"};
  sc_core::sc_signal<std::uint64_t> tdata_{"m_axis_tdata"};
  sc_core::sc_signal<CountersBus> counters_{"counters"};

  std::unique_ptr<sc_core::sc_module> ctrl_, fetch_, sat_, tri_;

  int reset_clocks_ = 0;
  bool armed_ = false, running_ = false, finished_ = false, overflow_ = false, record_ = false;
  // the load: the images to write, the generation in the RAMs, the next record of each section
  const TreeImage* load_f_ = nullptr;
  const TreeImage* load_s_ = nullptr;
  std::uint64_t loading_generation_ = 0, loaded_generation_ = 0;
  bool loading_ = false;
  std::size_t load_node_ = 0, load_tri_ = 0;
  std::vector<std::uint64_t> stream_;
  std::vector<CycleRecord> trace_;
};

}  // namespace kdopcd::cosim
