#pragma once
// The query driver of the v2 top (rtl/v2/kdopcd_v2_top.sv, docs/accelerator-v2.md): LOAD of both
// trees into the on-chip tree RAMs, then any number of queries (poses) on them, through the
// AXI-Lite registers, the AXI4 memory model and the contact stream of the harness. Register
// offsets, bits and the counter order are the contract's (kdopcd_contract/accelerator_v2.hpp,
// generated from contract/accelerator_v2.json), the same names the RTL package uses.
#include <string>

#include "kdopcd_contract/accelerator_v2.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd_driver/bus_models.hpp"
#include "kdopcd_driver/v2_host.hpp"
#include "kdopcd_driver/thread_cpu_time.hpp"

namespace kdopcd::driver::v2 {

namespace contract = kdopcd::contract::v2;  // contract::queue: the command queue's layouts
namespace reg2 = kdopcd::contract::v2::reg;

struct QueryParams {
  DescentRule rule = kHardwareDescentRule;
  FixedParams fixed{};
  int vertex_bits = 24;
  int rotation_bits = 24;
  std::uint32_t pending_limit = 0;       // PENDING_LIMIT (0 = PENDING_DEPTH)
  std::uint64_t max_cycles = 200000000;  // START (or LOAD) to DONE; more is a timeout error
  // Right after START, write every axis-table word again, inverted, while the query runs: the
  // table is taken at START, so the query must not change (a check of that contract).
  bool overwrite_axis_table = false;
};

struct Counters {
  std::array<std::uint64_t, contract::kNumCounters> raw{};
  std::uint64_t operator[](contract::Counter c) const { return raw[std::size_t(c)]; }
};

struct LoadResult {
  bool ok = false;
  bool load_error = false, bus_error = false;
  std::uint32_t status = 0;  // STATUS at the LOAD's DONE (0: it did not end)
  std::uint64_t cycles = 0, beats = 0;
  std::string error;  // empty when the load completed
};

struct QueryResult {
  bool started = false;  // false: the pose is not in range (no contact), the top was not started
  bool overflow = false;
  std::string error;     // timeout, protocol or configuration problem; empty when all went well
  std::vector<ContactPair> contacts;  // sorted ascending
  Counters counters;
  std::uint32_t status = 0;
  std::uint64_t done_tick = 0;        // edges from the START write to DONE
  double clocked_seconds = 0;  // CPU time of the simulating thread from the START write to DONE
  bool ok() const { return error.empty(); }
};

namespace detail {
template <class Top>
std::uint32_t wait_done(Harness<Top>& h, std::uint64_t from, std::uint64_t max_cycles, bool& seen) {
  seen = false;
  while (!(seen = h.top.irq_o)) {
    if (h.tick() - from > max_cycles) return 0;
    h.step();
  }
  return h.lite.read(reg2::kStatus);
}

template <class Top>
void clear_and_wait_idle(Harness<Top>& h) {
  h.lite.write(reg2::kControl, reg2::kClear);
  for (int n = 0;; ++n) {
    const std::uint32_t st = h.lite.read(reg2::kStatus);
    if ((st & reg2::kStatusIdle) && !(st & reg2::kStatusDone)) return;
    if (n > 100000) throw std::runtime_error("v2 driver: the top did not return to IDLE after CLEAR");
  }
}

// CONFIG0/1 against the query's formats (k, b, c, z, v, m, W).
template <class Top>
void check_config(Harness<Top>& h, int k, const QueryParams& p) {
  const std::uint32_t id = h.lite.read(reg2::kId);
  const contract::Config0 c0 = contract::unpack_config0(h.lite.read(reg2::kConfig0));
  const contract::Config1 c1 = contract::unpack_config1(h.lite.read(reg2::kConfig1));
  const bool same1 = c1.v == std::uint32_t(p.vertex_bits) && c1.m == std::uint32_t(p.rotation_bits) &&
                     c1.bus_bytes == std::uint32_t(h.mem.bus_bytes());
  if (id != reg2::kIdValue || !(c0 == contract::config0_value(k, p.fixed.b, p.fixed.c, p.fixed.z)) || !same1)
    throw std::runtime_error("v2 driver: ID/CONFIG of the top do not match the query's k, b, c, z, v, m, W");
}
}  // namespace detail

// Places both images in the memory model (cleared first) and LOADs them into the tree RAMs.
template <class Top>
LoadResult load_trees(Harness<Top>& h, const TreeImage& first, const std::vector<std::uint8_t>& first_bytes,
                      const TreeImage& second, const std::vector<std::uint8_t>& second_bytes,
                      std::uint64_t max_cycles = 200000000) {
  LoadResult r;
  try {
    h.mem.clear();
    const std::uint64_t a = h.mem.place(first_bytes), b = h.mem.place(second_bytes);
    LoadProgram l;
    l.a_nodes_at = a + first.node_section_offset();
    l.a_tris_at = a + first.triangle_section_offset();
    l.b_nodes_at = b + second.node_section_offset();
    l.b_tris_at = b + second.triangle_section_offset();
    l.a_nodes = std::uint32_t(first.nodes.size());
    l.a_tris = std::uint32_t(first.triangles.size());
    l.b_nodes = std::uint32_t(second.nodes.size());
    l.b_tris = std::uint32_t(second.triangles.size());
    program_load(h.lite, l);
    bool seen = false;
    const std::uint32_t st = detail::wait_done(h, h.lite.aw_tick, max_cycles, seen);
    if (!seen) throw std::runtime_error("v2 driver: LOAD did not finish within " + std::to_string(max_cycles) + " cycles");
    r.status = st;
    r.ok = (st & reg2::kStatusLoaded) != 0;
    r.load_error = (st & reg2::kStatusLoadError) != 0;
    r.bus_error = (st & reg2::kStatusBusError) != 0;
    r.cycles = h.lite.read64(reg2::kCounters + 8 * std::uint32_t(contract::Counter::kLoadCycles));
    r.beats = h.lite.read64(reg2::kCounters + 8 * std::uint32_t(contract::Counter::kLoadBeats));
    detail::clear_and_wait_idle(h);
    if (r.load_error)
      r.error = "v2 driver: a tree does not fit the on-chip RAM (" + std::to_string(first.nodes.size()) + " and " +
                std::to_string(second.nodes.size()) + " nodes, " + std::to_string(first.triangles.size()) + " and " +
                std::to_string(second.triangles.size()) + " triangles; the RAMs hold 2^" +
                std::to_string(contract::unpack_config3(h.lite.read(reg2::kConfig3)).node_aw) + " nodes and 2^" +
                std::to_string(contract::unpack_config3(h.lite.read(reg2::kConfig3)).tri_aw) + " triangles per tree)";
    else if (r.bus_error)
      r.error = "v2 driver: a memory read of the load answered an error";
    else if (!r.ok)
      r.error = "v2 driver: LOAD ended without LOADED";
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

// One query on the loaded trees (both images at scene_scale(first, second), as load_trees got
// them): M', T', the axis table, QUERY, PENDING_LIMIT, START, the clock until DONE, STATUS, the
// counters, CLEAR. A pose whose quantize_pose is not in range has no contact: started = false.
template <class Top>
QueryResult run_query(Harness<Top>& h, const DopTree& first, const DopTree& second, const Pose& pose,
                      const QueryParams& p) {
  QueryResult r;
  try {
    if (first.k() != second.k()) throw std::invalid_argument("v2 driver: trees must share k");
    const int k = first.k();
    detail::check_config(h, k, p);
    // The axis table and M', T' of the pose in the centred frames (the images are centred).
    const QuerySetup setup =
        make_query_setup(first, second, pose, p.fixed, TriangleFixedParams{p.vertex_bits, p.rotation_bits});
    const QuantizedPose& qpose = setup.triangle_pose;
    if (!qpose.in_range) return r;
    if (!(h.lite.read(reg2::kStatus) & reg2::kStatusLoaded)) throw std::runtime_error("v2 driver: no trees loaded");

    QueryProgram program;
    program.M = &qpose.M;
    program.T = &qpose.T;
    program.axes = &setup.fixed_axes;
    program.k = k;
    program.fixed = p.fixed;
    program.rule = p.rule;
    program.pending_limit = p.pending_limit;
    program_query(h.lite, program);

    h.sink.clear();
    const double t0 = thread_cpu_seconds();
    h.lite.write(reg2::kControl, reg2::kStart);
    const std::uint64_t start_tick = h.lite.aw_tick;
    r.started = true;
    if (p.overwrite_axis_table) program_axis_table(h.lite, program, ~std::uint32_t(0));
    bool seen = false;
    r.status = detail::wait_done(h, start_tick, p.max_cycles, seen);
    r.clocked_seconds = thread_cpu_seconds() - t0;
    if (!seen) throw std::runtime_error("v2 driver: no DONE within " + std::to_string(p.max_cycles) + " cycles");
    r.done_tick = h.tick() - start_tick;
    r.overflow = (r.status & reg2::kStatusOverflow) != 0;
    r.counters.raw = read_counters(h.lite);
    r.contacts = h.sink.contacts;
    std::sort(r.contacts.begin(), r.contacts.end());
    detail::clear_and_wait_idle(h);
  } catch (const std::exception& e) {
    if (r.error.empty()) r.error = e.what();
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// The command queue (docs/accelerator-v2.md, "Command queue"): descriptors placed in the ring in
// the harness's DMA memory, one DOORBELL write for all of them, the clock until every completion
// record is written; then the records and the contact buffers read back from host memory.
struct QueueQuery {
  std::vector<std::uint64_t> descriptor;  // make_descriptor's words (its tag, buffers, capacity)
  std::uint64_t contact_base = 0, completion_base = 0;
  std::uint32_t contact_capacity = 0;
};
struct QueueOutcome {
  contract::queue::Completion completion;
  std::vector<ContactPair> contacts;  // the buffer's, sorted ascending
  // Ticks from the acceptance of the first descriptor read of the batch:
  std::uint64_t descriptor_last_beat = 0;  // the descriptor's last beat
  std::uint64_t completion_visible = 0;    // the completion record visible to the host
};

// Ring base in the DMA memory (a ring slot never crosses 4 KiB: SLOT_BYTES-aligned slots).
inline constexpr std::uint64_t kRingBase = 0x100000;

template <class Top>
std::vector<QueueOutcome> run_queue(Harness<Top>& h, const std::vector<QueueQuery>& queries, std::uint64_t max_cycles) {
  if (queries.size() > std::size_t(contract::kRingSlots))
    throw std::invalid_argument("v2 queue: more descriptors than ring slots at once");
  if (!(h.lite.read(reg2::kStatus) & reg2::kStatusLoaded)) throw std::runtime_error("v2 queue: no trees loaded");
  const std::uint32_t first = h.lite.read(reg2::kDoorbell);
  auto slot_address = [&](std::size_t i) {
    return kRingBase + std::uint64_t((first + std::uint32_t(i)) % std::uint32_t(contract::kRingSlots)) *
                           std::uint64_t(contract::kSlotBytes);
  };
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const std::vector<std::uint64_t>& w = queries[i].descriptor;
    h.dma.write(slot_address(i), reinterpret_cast<const std::uint8_t*>(w.data()), w.size() * 8);
  }
  h.lite.write64(reg2::kQueueBase, kRingBase);
  const std::size_t reads0 = h.dma.reads.size(), writes0 = h.dma.writes.size();
  h.lite.write(reg2::kDoorbell, first + std::uint32_t(queries.size()));
  // A completion record is complete once the burst holding its last beat is written: the record's
  // one burst, or its last where it crosses 4 KiB and comes a beat per burst.
  auto holds_last_beat = [&](const DmaMemory::WriteBurst& w, const QueueQuery& q) {
    const std::uint64_t last = q.completion_base + std::uint64_t(contract::queue::kCompletionBytes) -
                               std::uint64_t(contract::queue::kBeatBytes);
    return w.address <= last && last < w.address + std::uint64_t(w.beats) * std::uint64_t(contract::queue::kBeatBytes);
  };
  // Wait for every completion record.
  auto completions_seen = [&] {
    std::size_t n = 0;
    for (std::size_t w = writes0; w < h.dma.writes.size(); ++w)
      for (const QueueQuery& q : queries)
        if (holds_last_beat(h.dma.writes[w], q)) ++n;
    return n;
  };
  const std::uint64_t start = h.tick();
  while (completions_seen() < queries.size()) {
    if (h.dma.protocol_errors) throw std::runtime_error("v2 queue: the DMA port broke the AXI protocol");
    if (h.tick() - start > max_cycles)
      throw std::runtime_error("v2 queue: " + std::to_string(queries.size()) + " completions not written within " +
                               std::to_string(max_cycles) + " cycles");
    h.step();
  }
  if (h.dma.protocol_errors) throw std::runtime_error("v2 queue: the DMA port broke the AXI protocol");
  if (h.dma.reads.size() <= reads0) throw std::runtime_error("v2 queue: no descriptor was read");
  const std::uint64_t origin = h.dma.reads[reads0].accepted;
  std::vector<QueueOutcome> out(queries.size());
  for (std::size_t i = 0; i < queries.size(); ++i) {
    QueueOutcome& o = out[i];
    std::array<std::uint64_t, contract::queue::kCompletionWords> words{};
    h.dma.read(queries[i].completion_base, reinterpret_cast<std::uint8_t*>(words.data()), sizeof(words));
    o.completion = contract::queue::unpack_completion(words);
    const std::uint32_t n = std::min(o.completion.contacts, queries[i].contact_capacity);
    for (std::uint32_t c = 0; c < n; ++c) {
      std::uint64_t v = 0;
      h.dma.read(queries[i].contact_base + 8 * std::uint64_t(c), reinterpret_cast<std::uint8_t*>(&v), 8);
      o.contacts.push_back(ContactPair{std::uint32_t(v), std::uint32_t(v >> 32)});
    }
    std::sort(o.contacts.begin(), o.contacts.end());
    for (std::size_t r = reads0; r < h.dma.reads.size(); ++r)
      if (h.dma.reads[r].address == slot_address(i)) o.descriptor_last_beat = h.dma.reads[r].last_beat - origin;
    for (std::size_t w = writes0; w < h.dma.writes.size(); ++w)
      if (holds_last_beat(h.dma.writes[w], queries[i])) o.completion_visible = h.dma.writes[w].visible - origin;
  }
  return out;
}

}  // namespace kdopcd::driver::v2
