#pragma once
// The verilated accelerator top (rtl/paper/kdopcd_top.sv) as a query engine: `kdop sim --engine rtl`
// and the top's testbench run a collision query through it. This header does not include
// Verilator; the engine (verilated/src/top_engine.cpp) owns one verilated top and its bus models
// (driver/, kdopcd_driver/query_driver.hpp), docs/accelerator.md.
#include <array>
#include <cstdint>

#include "kdopcd_contract/accelerator_paper.hpp"
#include <string>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/traversal.hpp"

namespace kdopcd::rtl {

// The parameters the top was verilated with (one configuration per build).
struct TopConfig {
  int k, b, c, z, v, m, bus_width, stack_depth, max_outstanding, burst_max, triangle_latency, sat_latency;
  int alt_max_outstanding;  // a second top that differs only in MAX_OUT (0: none built)
};
TopConfig top_config();

struct TopParams {
  int axes = 0;  // n (0 = k)
  DescentRule rule = DescentRule::Shallower;
  bool continue_axes = false;
  FixedParams fixed{};
  int vertex_bits = 24;
  int rotation_bits = 24;
  std::uint32_t stack_limit = 0;  // STACK_LIMIT register (0 = the verilated STACK_DEPTH)
  int max_outstanding = 4;        // picks the verilated top: TopConfig::max_outstanding or alt_max_outstanding
  int mem_latency = 2;            // the AXI memory model's L (docs/accelerator.md)
  int cycles_per_beat = 1;
  bool stalls = false;            // random stalls / back-pressure on every handshake
  double stall_probability = 0.25;
  std::uint64_t seed = 1;
};

// The query parameters the top shares with the SystemC model's (model::ModelParams, or any struct
// with these members): the model and the top then run the same query. The stack depth becomes
// STACK_LIMIT.
template <class ModelLikeParams>
TopParams top_params_like(const ModelLikeParams& m) {
  TopParams t;
  t.axes = m.axes;
  t.rule = m.rule;
  t.continue_axes = m.continue_axes;
  t.fixed = m.fixed;
  t.vertex_bits = m.vertex_bits;
  t.rotation_bits = m.rotation_bits;
  t.stack_limit = std::uint32_t(m.stack_depth);
  t.max_outstanding = m.max_outstanding;
  t.mem_latency = m.mem_latency;
  t.cycles_per_beat = m.cycles_per_beat;
  return t;
}

// The counters of the register map: `raw` in register order (contract/accelerator_paper.json), the
// fields by name.
struct TopCounters {
  std::uint64_t cycles = 0, pair_tests = 0, axis_issued = 0, axis_effective = 0, axis_cancelled = 0,
                axis_continued = 0, leaf_pairs = 0, tri_tests = 0, contacts = 0, max_stack = 0, mem_beats = 0,
                wasted_beats = 0, stall_cycles = 0;
  std::array<std::uint64_t, contract::paper::kNumCounters> raw{};
};

struct TopResult {
  bool started = false;  // false: |T / s| > 4, the pose has no contact and the top was not run
  std::vector<ContactPair> contacts;  // sorted ascending
  TopCounters counters;
  bool stack_overflow = false;
  bool bus_error = false;
  std::uint64_t clock_edges = 0;  // edges from START to DONE seen by the harness (= counters.cycles)
  double sim_seconds = 0;         // CPU time of the simulating thread, START to DONE (one core)
  TraversalStats traversal() const;
};

// Throws std::invalid_argument when the query's k, b, c, z, v, m differ from top_config() or a
// parameter is out of range, std::runtime_error when the top does not finish (timeout).
TopResult simulate_top(const DopTree& first, const DopTree& second, const Pose& pose, const TopParams& params);

// Coverage build only (kdopcd_rtl_top_engine_cov): writes Verilator's coverage counters of every
// query so far to `path` (and those of the MAX_OUT = 1 top to `path`.o1). Returns false in the
// normal build.
bool write_top_coverage(const std::string& path);

}  // namespace kdopcd::rtl
