#pragma once
// Clocked, cycle-accurate SystemC model of the k-DOP collision accelerator (issue 5, DESIGN §4-5,
// docs/model.md). This header does not include SystemC, so the kdop CLI can use the model
// without SystemC's headers; the SystemC module lives in model/src/accel.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/traversal.hpp"

namespace kdopcd::model {

// RTL SAT pipeline latency (docs/rtl-sat-pipeline.md): ceil(log2(6 NA NP + 7)) + 3 with
// NA = ceil((b+1)/(mul_w-1)) limbs per coefficient and NP = ceil(c/(mul_w-1)) per mapping entry.
int rtl_pipeline_latency(int b, int c, int mul_w = 18);

struct ModelParams {
  int axes = 0;                     // n axes issued per pair (0 = all k)
  DescentRule rule = DescentRule::Shallower;
  FixedParams fixed{};              // b, c, z of the SAT pipeline
  int vertex_bits = 24;             // v of the tree image / triangle unit
  int rotation_bits = 24;           // m of the triangle unit
  int pipelines = 1;                // P SAT pipelines in parallel (axes issued per cycle)
  bool continue_axes = false;       // Fig. 7: keep testing axes > n while the next pair loads
  int stack_depth = 1024;           // on-chip DOP-pair stack entries; overflow is an error
  int pipeline_latency = 0;         // 0 = rtl_pipeline_latency(b, c)
  int triangle_latency = 16;        // triangle unit latency (fully pipelined, 1 test / cycle)
  int bus_width = 64;               // memory bus W bits (tree image beats)
  int mem_latency = 2;              // cycles from a burst's request to its first beat
  int burst_length = 16;            // beats per AXI burst at most (each burst pays mem_latency; none crosses 4 KiB)
  int max_outstanding = 4;          // AXI read bursts accepted and not yet complete, at most
  int beats_per_cycle = 1;          // memory beats per accelerator clock (clock ratio, numerator)
  int cycles_per_beat = 1;          // accelerator clocks per beat (clock ratio, denominator)
  double clock_mhz = 100.0;         // accelerator clock, for times only
  std::string trace_path;           // VCD of the top-level signals (first query of a process only)
};

struct ModelStats {
  std::uint64_t cycles = 0;
  std::uint64_t pair_tests = 0;
  std::uint64_t axis_tests = 0;            // effective: up to and including the first separating axis
  std::uint64_t axis_tests_issued = 0;     // all axis tests that entered a pipeline
  std::uint64_t axis_tests_cancelled = 0;  // issued but dropped (the pair was already separated)
  std::uint64_t axis_tests_continued = 0;  // issued beyond n (continued testing, Fig. 7)
  std::uint64_t leaf_pairs = 0;
  std::uint64_t triangle_tests = 0;
  std::uint64_t contacts = 0;
  std::uint32_t max_stack_depth = 0;
  std::uint64_t mem_beats = 0;             // all beats transferred
  std::uint64_t mem_beats_nodes = 0;
  std::uint64_t mem_beats_triangles = 0;
  std::uint64_t mem_beats_wasted = 0;      // prefetched node records that were not used
  std::uint64_t mem_busy_cycles = 0;
  std::uint64_t stall_cycles = 0;          // cycles with a popped pair waiting for its data
  double pipeline_utilization = 0;         // issued axis tests / (cycles * P)
  int pipeline_latency = 0;
  bool stack_overflow = false;             // the error flag: the result is incomplete
  double sim_seconds = 0;                  // host time of the clocked simulation (sc_start)
  double setup_seconds = 0;                // host time of the set-up (images on first use, registers)
};

struct ModelResult {
  std::vector<ContactPair> contacts;  // sorted ascending
  ModelStats stats;
  TraversalStats traversal() const;   // the reference's fields, for the shared report
};

// One query: builds both tree images at the scene scale, loads them into the memory model, loads
// the host registers (axis table P'_A, P'_B, p', jA, jB; M', T'; tree addresses), starts the
// accelerator and runs the clock until it reports done (or the stack-overflow error).
ModelResult simulate(const DopTree& first, const DopTree& second, const Pose& pose, const ModelParams& params);

}  // namespace kdopcd::model
