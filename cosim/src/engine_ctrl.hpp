#pragma once
// The v2 engine without its units and RAMs (the `ctrl` block, rtl/v2/kdopcd_v2_engine.sv) at signal
// level: pair scheduler with the pending set, the verdict logic, the triangle queue, the contact
// queue and the counters, with the RTL module's ports. It addresses the tree RAMs of the fetch
// block (fetch_model.hpp) and starts the SAT and triangle units in the clock in which the fetch
// block delivers their records. Its schedule is the RTL engine's (which is cycle-exact with the
// model's V2Engine): one clocked process computes, from the registered state and the registered
// outputs of its neighbours, the next state, exactly as the RTL's always_comb / always_ff pair;
// every output is a register or a function of registers only, so the units and the fetch block
// (model or verilated) see at a rising edge what the RTL would, and no delta-cycle order matters.
#include <systemc>

#include <array>
#include <deque>
#include <vector>

#include "kdopcd/traversal.hpp"
#include "ports.hpp"

namespace kdopcd::cosim {

class EngineCtrl : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"};
  sc_core::sc_in<bool> start_i{"start_i"};                    // one-cycle pulse, only while idle_o
  sc_core::sc_in<std::uint32_t> rule_i{"rule_i"};              // DescentRule
  sc_core::sc_in<std::uint32_t> pending_limit_i{"pending_limit_i"};  // 1 .. PENDING_DEPTH
  // tree reads (kdopcd_v2_fetch): tree t at [t*WIDTH +: WIDTH]
  sc_core::sc_out<NodeAddrBus> node_raddr_o{"node_raddr_o"};
  sc_core::sc_in<LinkBus> node_link_i{"node_link_i"};
  sc_core::sc_out<TriAddrBus> tri_raddr_o{"tri_raddr_o"};
  // to / from the SAT unit (kdopcd_sat_wide)
  sc_core::sc_out<bool> sat_valid_o{"sat_valid_o"};
  sc_core::sc_in<bool> sat_valid_i{"sat_valid_i"};
  sc_core::sc_in<LaneBits> sat_lane_verdict_i{"sat_lane_verdict_i"};
  sc_core::sc_in<bool> sat_separated_i{"sat_separated_i"};
  sc_core::sc_in<EffPort> sat_effective_i{"sat_effective_i"};
  // to / from the triangle unit (kdopcd_tri_seq)
  sc_core::sc_out<bool> tri_valid_o{"tri_valid_o"};
  sc_core::sc_out<IdPort> tri_id_o{"tri_id_o"};
  sc_core::sc_in<bool> tri_valid_i{"tri_valid_i"}, tri_hit_i{"tri_hit_i"};
  sc_core::sc_in<IdPort> tri_id_i{"tri_id_i"};
  // contacts {second triangle, first triangle}
  sc_core::sc_out<bool> m_axis_tvalid_o{"m_axis_tvalid_o"};
  sc_core::sc_in<bool> m_axis_tready_i{"m_axis_tready_i"};
  sc_core::sc_out<std::uint64_t> m_axis_tdata_o{"m_axis_tdata_o"};
  sc_core::sc_out<bool> busy_o{"busy_o"}, idle_o{"idle_o"}, done_o{"done_o"}, overflow_o{"overflow_o"};
  sc_core::sc_out<CountersBus> counters_o{"counters_o"};  // counter i at [i*64 +: 64] (contract::v2::Counter)

  SC_HAS_PROCESS(EngineCtrl);
  explicit EngineCtrl(sc_core::sc_module_name name);

 private:
  struct Pair {  // pair_t: node indices (NODE_AW bits) and their depths
    std::uint32_t f = 0, s = 0;
    std::uint8_t depth_f = 0, depth_s = 0;
  };
  struct Meta {  // what travels with a pair through the SAT unit to its verdict
    Pair pair;
    std::uint64_t link_f = 0, link_s = 0;  // link words: bit 63 leaf, [62:32] right, [31:0] left or triangle
  };
  struct Job {
    std::uint32_t tf = 0, ts = 0;
  };

  void on_clock();
  void reset();

  // registered state
  bool running_ = false, done_ = false, overflow_ = false;
  std::uint32_t flight_ = 0, tri_flight_ = 0, ii_cnt_ = 0;
  std::uint32_t limit_ = std::uint32_t(c2::kPendingDepth);  // limit_q: PENDING_LIMIT taken at START
  std::vector<Pair> pending_;  // the pending set (top = back)
  std::deque<Job> tri_queue_;
  std::deque<std::uint64_t> contact_queue_;
  std::array<bool, c2::kRamLat> ram_valid_{};  // node RAM read stages
  std::array<Pair, c2::kRamLat> ram_pair_{};
  std::array<bool, c2::kRamLat> tri_ram_valid_{};  // triangle RAM read stages
  std::array<Job, c2::kRamLat> tri_ram_job_{};
  std::array<Meta, c2::kSatLat> meta_{};  // meta_q: the pair that entered the SAT unit SAT_LAT clocks ago
  std::array<std::uint64_t, c2::kNumCounters> cnt_{};
};

}  // namespace kdopcd::cosim
