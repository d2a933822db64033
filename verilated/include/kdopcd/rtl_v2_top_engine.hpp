#pragma once
// The verilated v2 accelerator top (rtl/v2/kdopcd_v2_top.sv) as a query engine: `kdop sim --engine
// rtl` (v2, the default architecture) and the v2 top's testbench run queries through it. This
// header does not include Verilator; the engine (verilated/src/v2_top_engine.cpp) owns one verilated top
// verilated with the contract's defaults (contract/accelerator_v2.json) and its bus models, and
// LOADs a pair of trees only when the pair (or the scene scale) changes (docs/accelerator-v2.md).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd_contract/accelerator_v2.hpp"
#include "kdopcd_contract/command_queue.hpp"

namespace kdopcd::rtl {

struct V2TopParams {
  DescentRule rule = DescentRule::Shallower;
  FixedParams fixed{};
  int vertex_bits = 24;
  int rotation_bits = 24;
  std::uint32_t pending_limit = 0;  // PENDING_LIMIT (0 = PENDING_DEPTH)
  int mem_latency = 2;              // the AXI memory model (LOAD only)
  bool stalls = false;              // random stalls / back-pressure on every handshake
  double stall_probability = 0.25;
  std::uint64_t seed = 1;
  // Fault injection, for the bus-error path of LOAD: the memory model answers load_error_resp
  // (2 SLVERR, 3 DECERR) to beat load_error_beat of the LOAD (from 0); -1: none. A query with it
  // set LOADs its trees even when they are the loaded pair.
  std::int64_t load_error_beat = -1;
  int load_error_resp = 2;
  // Writes another axis table while the query runs (it is taken at START: nothing may change).
  bool overwrite_axis_table = false;
};

struct V2TopResult {
  bool started = false;  // false: |T / s| > 4, no contact, the top was not run
  std::vector<ContactPair> contacts;
  std::array<std::uint64_t, contract::v2::kNumCounters> counters{};  // register order
  bool overflow = false;
  bool loaded_now = false;          // this query LOADed the trees (the pair changed)
  std::uint64_t load_cycles = 0;    // of the last LOAD
  std::uint64_t load_beats = 0;     // of the last LOAD
  std::uint64_t clock_edges = 0;    // START write to DONE, as the harness saw them
  std::uint64_t stream_refused = 0; // clocks a contact waited on the stream for TREADY (stalls)
  double sim_seconds = 0;           // CPU time of the simulating thread, START to DONE (one core)
  std::uint64_t counter(contract::v2::Counter c) const { return counters[std::size_t(c)]; }
  TraversalStats traversal() const;
};

// A LOAD that ended with STATUS.BUS_ERROR: a memory read answered SLVERR or DECERR. No query was
// started; the trees count as not loaded and the next query LOADs them again.
class V2LoadBusError : public std::runtime_error {
 public:
  V2LoadBusError(const std::string& what, std::uint32_t status, std::uint64_t load_beats)
      : std::runtime_error(what), status(status), load_beats(load_beats) {}
  std::uint32_t status;      // STATUS at the LOAD's DONE
  std::uint64_t load_beats;  // LOAD_BEATS: the beats the loader took before it ended the load
};

// Throws InputError when a tree does not fit the verilated RAMs or the query's k, b, c, z, v, m
// differ from the verilated top's, V2LoadBusError (a std::runtime_error) when a LOAD's read
// answered an error, std::runtime_error when the top does not finish (a defect).
V2TopResult simulate_v2_top(const DopTree& first, const DopTree& second, const Pose& pose, const V2TopParams& params);

// The command queue (docs/accelerator-v2.md, "Command queue"): the poses as descriptors in the
// ring, one doorbell, every completion record back. The DMA port's timing is the SystemC model's
// host interface at these clocks (model::host_clocks), so a batch can be compared with the model's
// clock for clock. free_write_slave: a write slave that takes W beats before, with or after their
// AW and raises AWREADY 0 to aw_delay_max clocks late (random, from seed; driver::DmaLinkParams):
// legal AXI4, not the model's timing (the contacts and records must be the same, the clocks need not).
struct V2QueueLink {
  int read_latency = 0, write_latency = 0;
  int beats_per_cycle = 1, cycles_per_beat = 1;
  std::int64_t error_descriptor = -1;  // the read of this descriptor (from 0) answers SLVERR; -1: none
  bool free_write_slave = false;
  int aw_delay_max = 0;
  double w_ready_probability = 0.5;
  std::uint64_t seed = 1;
  // The host's placement: each completion record this many bytes into a 4 KiB page (a multiple of
  // the DMA beat below 4096; 0: page-aligned). 4096 - 64 puts the record across a page boundary.
  std::uint32_t completion_page_offset = 0;
};
struct V2QueueResult {
  contract::v2::queue::Completion completion;  // tag, status, counters
  std::vector<ContactPair> contacts;           // from the contact buffer, sorted
  // Ticks from the acceptance of the batch's first descriptor read:
  std::uint64_t descriptor_last_beat = 0;
  std::uint64_t completion_visible = 0;
};
// At most RING_SLOTS poses (every pose's triangle pose in range); the trees are LOADed as by
// simulate_v2_top. Throws as simulate_v2_top does.
std::vector<V2QueueResult> simulate_v2_queue(const DopTree& first, const DopTree& second, const std::vector<Pose>& poses,
                                             const V2TopParams& params, const V2QueueLink& link,
                                             std::uint32_t contact_capacity);

// Opens an FST trace of the v2 top's signals, `depth` levels of hierarchy (0 = all), for every
// clock from now on; close_v2_trace() ends it (also at exit). Throws std::runtime_error when the
// engine was built without tracing.
void open_v2_trace(const std::string& path, int depth);
void close_v2_trace();

// Writes the coverage counters of every query so far to `path` (verilator_coverage format); false
// when the engine is not the coverage build (kdopcd_rtl_v2_engine_cov, scripts/top-coverage.sh).
bool write_v2_coverage(const std::string& path);

}  // namespace kdopcd::rtl
