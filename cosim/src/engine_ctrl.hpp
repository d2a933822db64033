#pragma once
// The v2 engine around its SAT and triangle units, at signal level: pair scheduler with the
// pending set, the two tree RAMs (node and triangle records, read latency RAM_LAT), the verdict
// logic, the triangle queue, the contact queue and the counters. Its schedule is the RTL engine's
// (rtl/kdopcd_v2_engine.sv, which is cycle-exact with the model's V2Engine): one clocked process
// computes, from the registered state and the units' registered outputs, the next state, exactly
// as the RTL's always_comb / always_ff pair; every output is a register, so the units (model or
// verilated) see at a rising edge what the RTL would, and no delta-cycle order matters.
//
// The trees are the RAMs' contents (the LOAD of the RTL top is not modelled: the host places the
// decoded images here before a query).
#include <systemc>

#include <array>
#include <deque>
#include <vector>

#include "kdopcd/traversal.hpp"
#include "kdopcd/tree_image.hpp"
#include "ports.hpp"

namespace kdopcd::cosim {

class EngineCtrl : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"};
  sc_core::sc_in<bool> start_i{"start_i"};                    // one-cycle pulse, only while idle_o
  sc_core::sc_in<std::uint32_t> rule_i{"rule_i"};              // DescentRule
  sc_core::sc_in<std::uint32_t> pending_limit_i{"pending_limit_i"};  // 0 = PENDING_DEPTH
  // to / from the SAT unit (kdopcd_sat_wide)
  sc_core::sc_out<bool> sat_valid_o{"sat_valid_o"};
  sc_core::sc_out<CoefBus> sat_coef_a_o{"sat_coef_a_o"}, sat_coef_b_o{"sat_coef_b_o"};
  sc_core::sc_in<bool> sat_valid_i{"sat_valid_i"}, sat_separated_i{"sat_separated_i"};
  sc_core::sc_in<EffPort> sat_effective_i{"sat_effective_i"};
  // to / from the triangle unit (kdopcd_tri_seq)
  sc_core::sc_out<bool> tri_valid_o{"tri_valid_o"};
  sc_core::sc_out<TriBus> tri_a_o{"tri_a_o"}, tri_b_o{"tri_b_o"};
  sc_core::sc_out<IdPort> tri_id_o{"tri_id_o"};
  sc_core::sc_in<bool> tri_valid_i{"tri_valid_i"}, tri_hit_i{"tri_hit_i"};
  sc_core::sc_in<IdPort> tri_id_i{"tri_id_i"};
  // contacts {second triangle, first triangle}
  sc_core::sc_out<bool> m_axis_tvalid_o{"m_axis_tvalid_o"};
  sc_core::sc_in<bool> m_axis_tready_i{"m_axis_tready_i"};
  sc_core::sc_out<std::uint64_t> m_axis_tdata_o{"m_axis_tdata_o"};
  sc_core::sc_out<bool> busy_o{"busy_o"}, idle_o{"idle_o"}, done_o{"done_o"}, overflow_o{"overflow_o"};

  SC_HAS_PROCESS(EngineCtrl);
  explicit EngineCtrl(sc_core::sc_module_name name);

  // The tree RAMs' contents: [0] the first tree, [1] the second (set while idle).
  void load(const TreeImage* first, const TreeImage* second) { trees_ = {first, second}; }
  // The counter registers, in the contract's order (contract::v2::Counter).
  const std::array<std::uint64_t, c2::kNumCounters>& counters() const { return cnt_; }

 private:
  struct Pair {  // pair_t: node indices and their depths
    std::int32_t f = 0, s = 0;
    std::uint8_t depth_f = 0, depth_s = 0;
  };
  struct Meta {  // what travels with a pair through the SAT unit to its verdict
    Pair pair;
    bool leaf_f = false, leaf_s = false;
    std::int32_t left_f = 0, right_f = 0, left_s = 0, right_s = 0;  // left = triangle of a leaf
  };
  struct Job {
    std::uint32_t tf = 0, ts = 0;
  };

  void on_clock();
  void reset();
  Meta meta_of(const Pair& p) const;

  std::array<const TreeImage*, 2> trees_{nullptr, nullptr};
  // registered state
  bool running_ = false, done_ = false, overflow_ = false;
  std::uint32_t flight_ = 0, tri_flight_ = 0, ii_cnt_ = 0;
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
