#pragma once
// One signal-level v2 engine: EngineCtrl, a SAT unit and a triangle unit wired with sc_signals,
// plus the host that loads a query and pulses START. Each unit is the signal-level model or the
// verilated RTL (Verilator --sc), chosen per unit when the top is built: both have the RTL
// module's port names and types, so one template binds either (bind_sat, bind_tri).
#include <systemc>

#include <memory>
#include <vector>

#include "engine_ctrl.hpp"
#include "kdopcd_cosim/cosim.hpp"
#include "ports.hpp"

namespace kdopcd::cosim {

// What the host writes before START (the registers of the RTL top, already split into the
// units' port vectors).
struct QueryInputs {
  JBus ja, jb;
  PBus pa, pb;
  OffBus p;
  RotBus rot;
  TransBus trans;
  std::uint32_t rule = 0, pending_limit = 0;
};

class SignalTop : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(SignalTop);
  SignalTop(sc_core::sc_module_name name, sc_core::sc_clock& clk, RtlBlocks blocks);

  const RtlBlocks& blocks() const { return blocks_; }
  // Loads the query (while idle) and arms START for the next clock.
  void arm(const TreeImage* first, const TreeImage* second, const QueryInputs& q, bool record_trace);
  bool finished() const { return finished_; }
  bool overflow() const { return overflow_; }
  const std::array<std::uint64_t, c2::kNumCounters>& counters() const { return ctrl_.counters(); }
  const std::vector<std::uint64_t>& stream() const { return stream_; }  // m_axis_tdata of every beat
  const std::vector<CycleRecord>& trace() const { return trace_; }
  // Adds the unit ports and the host's signals to `tf`, under `scope`.
  void add_to_trace(sc_core::sc_trace_file* tf, const std::string& scope) const;

 private:
  template <class Sat>
  void bind_sat(Sat& m, sc_core::sc_clock& clk);
  template <class Tri>
  void bind_tri(Tri& m, sc_core::sc_clock& clk);
  void host();  // reset, START, the contact stream's sink and the per-clock record

  RtlBlocks blocks_;
  // host -> engine
  sc_core::sc_signal<bool> rst_n_{"rst_n"}, start_{"start"}, tready_{"m_axis_tready"};
  sc_core::sc_signal<std::uint32_t> rule_{"rule"}, pending_limit_{"pending_limit"};
  // axis table -> SAT unit; M', T' -> triangle unit
  sc_core::sc_signal<JBus> ja_{"ja"}, jb_{"jb"};
  sc_core::sc_signal<PBus> pa_{"pa"}, pb_{"pb"};
  sc_core::sc_signal<OffBus> p_{"p"};
  sc_core::sc_signal<RotBus> rot_{"rot"};
  sc_core::sc_signal<TransBus> trans_{"trans"};
  // engine <-> SAT unit
  sc_core::sc_signal<bool> sat_in_valid_{"sat_in_valid"}, sat_valid_{"sat_valid"}, sat_separated_{"sat_separated"};
  sc_core::sc_signal<CoefBus> coef_a_{"coef_a"}, coef_b_{"coef_b"};
  sc_core::sc_signal<LaneBits> sat_lanes_{"sat_lanes"};
  sc_core::sc_signal<EffPort> sat_effective_{"sat_effective"};
  // engine <-> triangle unit
  sc_core::sc_signal<bool> tri_in_valid_{"tri_in_valid"}, tri_valid_{"tri_valid"}, tri_hit_{"tri_hit"};
  sc_core::sc_signal<TriBus> tri_a_{"tri_a"}, tri_b_{"tri_b"};
  sc_core::sc_signal<IdPort> tri_in_id_{"tri_in_id"}, tri_id_{"tri_id"};
  // engine -> host
  sc_core::sc_signal<bool> tvalid_{"m_axis_tvalid"}, busy_{"busy"}, idle_{"idle"}, done_{"done"},
      overflow_sig_{"overflow"};
  sc_core::sc_signal<std::uint64_t> tdata_{"m_axis_tdata"};

  EngineCtrl ctrl_;
  std::unique_ptr<sc_core::sc_module> sat_, tri_;

  int reset_clocks_ = 0;
  bool armed_ = false, running_ = false, finished_ = false, overflow_ = false, record_ = false;
  std::vector<std::uint64_t> stream_;
  std::vector<CycleRecord> trace_;
};

}  // namespace kdopcd::cosim
