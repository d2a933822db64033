#pragma once
// Clocked, cycle-accurate SystemC model of the k-DOP collision accelerator (docs/model.md), in
// two architectures that share their blocks (model/src/, one class per hardware block):
//  * Paper: the design of Raabe, Hochgürtel, Anlauf and Zachmann (2006) as first built here:
//    one DOP pair at a time, P one-axis SAT pipelines with early exit, both trees in external
//    memory behind a 64-bit AXI port. The RTL top (rtl/paper/kdopcd_top.sv) is cycle-exact with it.
//  * V2: many pairs in flight, trees in on-chip RAM (or external memory behind a node cache), a
//    wide SAT unit (all n axes of a pair at once), a time-multiplexed triangle unit, every control
//    step registered, several traversal engines for several queries (docs/model-v2.md).
// This header does not include SystemC, so the kdop CLI can use the model without its headers.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd_contract/accelerator_paper.hpp"
#include "kdopcd_contract/accelerator_v2.hpp"
#include "kdopcd_model/host_interface.hpp"

namespace kdopcd::model {

// RTL SAT pipeline latency (docs/rtl-sat-pipeline.md): ceil(log2(6 NA NP + 7)) + 3 with
// NA = ceil((b+1)/(mul_w-1)) limbs per coefficient and NP = ceil(c/(mul_w-1)) per mapping entry.
int rtl_pipeline_latency(int b, int c, int mul_w = 18);

// Latency of the v2 wide SAT unit (rtl/common/kdopcd_sat_wide.sv), the default SAT latency of v2: a lane
// (rtl/common/kdopcd_sat_lane.sv) selects, multiplies (2 clocks: DSP M and P registers), adds in three
// levels and tests the sign (7 clocks); the unit then ORs the lanes and finds the first
// separating axis (1 clock). Defined once in the accelerator contract (contract/accelerator_v2.json).
inline constexpr int kWideSatLaneLatency = contract::v2::kSatLaneLat;
inline constexpr int kWideSatLatency = contract::v2::kSatLat;

enum class Architecture { Paper, V2 };
enum class TreeMemory { OnChip, External };
Architecture parse_architecture(const std::string& name);  // "paper" | "v2"; throws InputError
const char* to_string(Architecture arch);
TreeMemory parse_tree_memory(const std::string& name);     // "onchip" | "external"; throws InputError
const char* to_string(TreeMemory memory);

// ModelParams{} is the paper configuration (the RTL top's); v2_params() is the v2 default.
struct ModelParams {
  Architecture arch = Architecture::Paper;
  // Both architectures.
  int axes = 0;                     // n axes tested per pair (0 = all k)
  DescentRule rule = kHardwareDescentRule;
  FixedParams fixed{};              // b, c, z of the SAT
  int vertex_bits = contract::paper::kV;    // v of the tree image / triangle unit
  int rotation_bits = contract::paper::kM;  // m of the triangle unit
  int stack_depth = contract::paper::kStackDepth;  // pair stack (paper) / pending set (v2) entries; overflow is an error
  int pipeline_latency = 0;         // SAT latency; 0 = rtl_pipeline_latency(b, c) (paper), kWideSatLatency (v2)
  int triangle_latency = contract::paper::kTriLat;  // triangle test start -> verdict (v2_params(): v2's TRI_LAT)
  // External memory (paper; v2 with tree_memory = External).
  int bus_width = contract::paper::kW;            // memory bus W bits (tree image beats)
  int mem_latency = 2;              // cycles from a burst's acceptance to its first beat
  int burst_length = contract::paper::kBurstMax;  // beats per AXI burst at most (none crosses 4 KiB)
  int max_outstanding = contract::paper::kMaxOut; // AXI read bursts accepted and not yet complete, at most
  int beats_per_cycle = 1;          // memory beats per accelerator clock (clock ratio, numerator)
  int cycles_per_beat = 1;          // accelerator clocks per beat (clock ratio, denominator)
  // Paper only.
  int pipelines = 1;                // P one-axis SAT pipelines (axes issued per cycle)
  bool continue_axes = false;       // Fig. 7: keep testing axes > n while the next pair loads
  // V2 only.
  int pairs_in_flight = contract::v2::kPairsInFlight;  // pairs issued whose verdict is not back, at most
  int sat_units = 1;                // U pair tests issued per clock (each unit has its own RAM ports)
  int sat_lanes = 0;                // L axes per unit per clock; 0 = n (wide: a whole pair per clock)
  int sat_contexts = 0;             // pairs a unit with L < n interleaves; 0 = SAT latency + 1
  TreeMemory tree_memory = TreeMemory::OnChip;
  int ram_latency = contract::v2::kRamLat;  // on-chip tree RAM read: address register + output register
  int node_cache_lines = 0;         // External: node records cached per tree (direct mapped)
  int triangle_ii = contract::v2::kTriIi;  // clocks between triangle test starts (time-multiplexed unit)
  int triangle_queue = contract::v2::kTriQueue;  // leaf pairs waiting for the triangle unit, at most
  int contact_queue = contract::v2::kContactQueue;  // contacts waiting for the output stream, at most
  int engines = 1;                  // traversal engines sharing the tree memory (queries at once)
  // V2 only: how queries reach the engines (host_interface.hpp).
  HostPath host_path = HostPath::Registers;
  HostInterface host = host_interface("pcie-gen3x16");  // Queue: the platform's interface costs
  double host_setup_ns = 0;         // Queue: the host's set-up per query, on one core: descriptor i is
                                    // written (and its doorbell rung) at (i + 1) host_setup_ns
  int descriptor_buffers = 0;       // Queue: descriptor buffers, each holding a query from its fetch to its
                                    // completion; 0 = engines + 2 (the contract's DESC_BUFFERS at one engine)
  std::uint32_t contact_capacity = 1u << 20;  // Queue: contacts each query's buffer holds
  // Reporting.
  double clock_mhz = 100.0;         // accelerator clock, for times only
  std::string trace_path;           // VCD of the top-level signals, ending in .vcd (the first query of a
                                    // process opens it for every later one; close_trace() ends it)
};

ModelParams paper_params();  // == ModelParams{}
int descriptor_buffers(const ModelParams& params);  // descriptor_buffers, or engines + 2 for 0
ModelParams v2_params();     // the chosen v2 default (docs/model-v2.md), clock 250 MHz

// The engines built with the contract's parameters (the verilated v2 top, the signal-level
// build) run only what v2_params() describes: throws InputError("<engine> has <what>") naming the
// first option in which params (k-DOPs of order k) leave it. A SAT latency of 0 (the default of
// v2) and a pending set smaller than the contract's are accepted.
void require_v2_params(const ModelParams& params, int k, const std::string& engine);

// Throws InputError naming the parameter for any value outside its documented range.
void validate(const ModelParams& params);

struct ModelStats {
  std::uint64_t cycles = 0;                // this query: from its start to its last contact
  std::uint64_t pair_tests = 0;
  std::uint64_t axis_tests = 0;            // effective: up to and including the first separating axis
  std::uint64_t axis_tests_issued = 0;     // all axis tests that entered a pipeline / lane
  std::uint64_t axis_tests_cancelled = 0;  // issued but not needed (the pair was already separated)
  std::uint64_t axis_tests_continued = 0;  // issued beyond n (continued testing, Fig. 7)
  std::uint64_t leaf_pairs = 0;
  std::uint64_t triangle_tests = 0;
  std::uint64_t contacts = 0;
  std::uint32_t max_stack_depth = 0;       // pair stack (paper) / pending set (v2)
  std::uint64_t mem_beats = 0;             // external memory: all beats transferred
  std::uint64_t mem_beats_nodes = 0;
  std::uint64_t mem_beats_triangles = 0;
  std::uint64_t mem_beats_wasted = 0;      // prefetched node records that were not used (paper)
  std::uint64_t mem_busy_cycles = 0;       // v2: the shared AXI port's, from the batch's start to the query's end
  std::uint64_t stall_cycles = 0;          // paper: a popped pair waits for its data; v2: pending
                                           // pairs wait for a credit (in flight, pending, triangle queue)
  std::uint64_t cache_hits = 0;            // v2 external: node cache
  std::uint64_t cache_misses = 0;
  std::uint64_t triangle_stall_cycles = 0; // v2: a ready triangle test waited for contact-queue room
  std::uint32_t max_triangle_queue = 0;    // v2
  std::uint32_t max_contact_queue = 0;     // v2
  double pipeline_utilization = 0;         // issued axis tests / (cycles * P) (paper); lane groups
                                           // issued / (cycles * U) (v2)
  int pipeline_latency = 0;
  bool stack_overflow = false;             // the error flag: the result is incomplete
  // v2: the query's clocks in the batch (clock 1 is the batch's first). With the command queue:
  std::uint64_t doorbell_cycle = 0;        // its doorbell write reached the accelerator
  std::uint64_t descriptor_cycle = 0;      // its descriptor was in (the clock after the last beat)
  std::uint64_t start_cycle = 0;           // an engine took it (both paths)
  std::uint64_t end_cycle = 0;             // the engine's last contact left: DONE (both paths)
  std::uint64_t completion_cycle = 0;      // its completion record was visible to the host
  bool contact_overflow = false;           // more contacts than the descriptor's buffer holds
  double sim_seconds = 0;                  // host time of the clocked simulation (sc_start)
  double setup_seconds = 0;                // host time of the set-up (images on first use, registers)
};

struct ModelResult {
  std::vector<ContactPair> contacts;  // sorted ascending
  ModelStats stats;
  TraversalStats traversal() const;   // the reference's fields, for the shared report
};

// One query: builds both tree images at the scene scale (once per tree), loads them into the
// memory model, loads the host registers (axis table P'_A, P'_B, p', jA, jB; M', T'; tree
// addresses), starts the accelerator and runs the clock until it reports done (or an overflow).
ModelResult simulate(const DopTree& first, const DopTree& second, const Pose& pose, const ModelParams& params);

struct BatchResult {
  std::vector<ModelResult> queries;  // per pose, in input order; stats.cycles is the query's own
  std::uint64_t cycles = 0;          // the whole batch: last contact of the last query
  double sim_seconds = 0;
};

// Many poses of one object pair. V2 runs them on `engines` traversal engines at once (each idle
// engine takes the next pose); the paper configuration runs them one after the other.
BatchResult simulate_batch(const DopTree& first, const DopTree& second, const std::vector<Pose>& poses,
                           const ModelParams& params);

// The same batch streamed, with memory that does not grow with the number of poses: `next_pose`
// supplies the poses one at a time (false after the last) and `on_result` takes each query's
// result with its pose and index, in input order, as soon as that query and every earlier one
// have finished. Both are called from the host side, never inside the clocked simulation, so
// whatever they throw reaches the caller. Each result's sim_seconds is its share of the run's host
// time by cycles so far; setup_seconds is its own set-up.
struct StreamTotals {
  std::size_t queries = 0;
  std::uint64_t cycles = 0;  // the whole batch, as BatchResult::cycles
  double sim_seconds = 0;
};
using PoseSource = std::function<bool(Pose& pose)>;
using ResultSink = std::function<void(std::size_t index, const Pose& pose, ModelResult&& result)>;
StreamTotals simulate_stream(const DopTree& first, const DopTree& second, const PoseSource& next_pose,
                             const ResultSink& on_result, const ModelParams& params);

// Ends the VCD trace that params.trace_path opened: the file is closed and read back, and a trace
// that is incomplete (a write of SystemC's that failed, a full disk) throws InputError. Nothing
// when no trace is open. A process cannot trace again after it.
void close_trace();

}  // namespace kdopcd::model
