#pragma once
// The statistics of one query from an accelerator's counter registers, read by name from the
// generated contract: one function per accelerator, used by every engine that reads the
// registers (the verilated tops behind `kdop sim --engine rtl`, co-simulation).
#include <array>
#include <cstdint>

#include "kdopcd_contract/accelerator_paper.hpp"
#include "kdopcd_contract/accelerator_v2.hpp"
#include "kdopcd_model/model.hpp"

namespace kdopcd::model {

using PaperCounters = std::array<std::uint64_t, contract::paper::kNumCounters>;
using V2Counters = std::array<std::uint64_t, contract::v2::kNumCounters>;

// The paper top's counters (COUNTERS + 8 i); sat_latency is the top's (CONFIG1).
inline ModelStats stats_from_counters(const PaperCounters& raw, int sat_latency) {
  using C = contract::paper::Counter;
  auto at = [&](C c) { return raw[std::size_t(c)]; };
  ModelStats s;
  s.cycles = at(C::kCycles);
  s.pair_tests = at(C::kPairTests);
  s.axis_tests = at(C::kAxisEffective);
  s.axis_tests_issued = at(C::kAxisIssued);
  s.axis_tests_cancelled = at(C::kAxisCancelled);
  s.axis_tests_continued = at(C::kAxisContinued);
  s.leaf_pairs = at(C::kLeafPairs);
  s.triangle_tests = at(C::kTriTests);
  s.contacts = at(C::kContacts);
  s.max_stack_depth = std::uint32_t(at(C::kMaxStack));
  s.mem_beats = at(C::kMemBeats);
  s.mem_beats_wasted = at(C::kWastedBeats);
  s.stall_cycles = at(C::kStallCycles);
  s.pipeline_utilization = s.cycles ? double(s.axis_tests_issued) / double(s.cycles) : 0.0;
  s.pipeline_latency = sat_latency;
  return s;
}

// The v2 top's counters; k axes per SAT issue (the wide unit tests all k at once).
inline ModelStats stats_from_counters(const V2Counters& raw, int k) {
  using C = contract::v2::Counter;
  auto at = [&](C c) { return raw[std::size_t(c)]; };
  ModelStats s;
  s.cycles = at(C::kCycles);
  s.pair_tests = at(C::kPairTests);
  s.axis_tests = at(C::kAxisTests);
  s.axis_tests_issued = at(C::kSatIssues) * std::uint64_t(k);
  s.axis_tests_cancelled = s.axis_tests_issued - s.axis_tests;
  s.leaf_pairs = at(C::kLeafPairs);
  s.triangle_tests = at(C::kTriangleTests);
  s.contacts = at(C::kContacts);
  s.max_stack_depth = std::uint32_t(at(C::kMaxPending));
  s.stall_cycles = at(C::kStallCycles);
  s.triangle_stall_cycles = at(C::kTriangleStallCycles);
  s.max_triangle_queue = std::uint32_t(at(C::kMaxTriangleQueue));
  s.max_contact_queue = std::uint32_t(at(C::kMaxContactQueue));
  s.pipeline_utilization = s.cycles ? double(at(C::kSatIssues)) / double(s.cycles) : 0.0;
  s.pipeline_latency = contract::v2::kSatLat;
  return s;
}

}  // namespace kdopcd::model
