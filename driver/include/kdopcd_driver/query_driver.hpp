#pragma once
// The query driver: one collision query on the verilated top through its AXI-Lite registers,
// AXI4 memory and contact stream, as the SystemC model's host does it (docs/accelerator.md).
#include "kdopcd/query_setup.hpp"
#include "kdopcd_driver/bus_models.hpp"
#include "kdopcd_driver/thread_cpu_time.hpp"

namespace kdopcd::driver {

// ---------------------------------------------------------------------------------------------
// Query driver
struct RtlQueryParams {
  int axes = 0;  // n (0 = k)
  DescentRule rule = kHardwareDescentRule;
  bool continue_axes = false;
  FixedParams fixed{};
  int vertex_bits = 24;
  int rotation_bits = 24;
  std::uint32_t stack_limit = 0;         // STACK_LIMIT (0 = STACK_DEPTH)
  std::uint64_t max_cycles = 100000000;  // START to DONE; more is a timeout error
  bool check_config = true;              // compare CONFIG0/1 with k, b, c, z, v, m, W first
};

struct RtlCounters {
  // By name; `raw` in register order (COUNTERS + 8 i).
  std::uint64_t cycles = 0, pair_tests = 0, axis_issued = 0, axis_effective = 0, axis_cancelled = 0,
                axis_continued = 0, leaf_pairs = 0, tri_tests = 0, contacts = 0, max_stack = 0, mem_beats = 0,
                wasted_beats = 0, stall_cycles = 0;
  std::array<std::uint64_t, paper::kNumCounters> raw{};
};

struct RtlTopQuery {
  bool started = false;     // false: pose not in range (no contact) or an error before START
  bool done = false;        // DONE was seen
  bool timed_out = false;
  std::string error;        // empty when all went well
  std::vector<ContactPair> contacts;  // sorted ascending
  RtlCounters counters;
  bool stack_overflow = false, bus_error = false;
  std::uint32_t status = 0;           // STATUS at DONE
  std::uint64_t start_tick = 0;       // absolute edge that accepted the START write (tick 0)
  std::uint64_t done_tick = 0;        // first edge after which irq_o was high (relative to start)
  double clocked_seconds = 0;         // CPU time of the simulating thread from the START write to DONE
  std::uint64_t a_image_base = 0, b_image_base = 0;
  std::vector<std::uint64_t> contact_ticks;  // stream beat edges, relative to start (arrival order)
  bool ok() const { return error.empty(); }
};

namespace detail {
// The named fields from `raw`, by the contract's counter names (no order written here).
inline void fill_counters(RtlCounters& c) {
  using C = paper::Counter;
  auto at = [&](C i) { return c.raw[std::size_t(i)]; };
  c.cycles = at(C::kCycles);
  c.pair_tests = at(C::kPairTests);
  c.axis_issued = at(C::kAxisIssued);
  c.axis_effective = at(C::kAxisEffective);
  c.axis_cancelled = at(C::kAxisCancelled);
  c.axis_continued = at(C::kAxisContinued);
  c.leaf_pairs = at(C::kLeafPairs);
  c.tri_tests = at(C::kTriTests);
  c.contacts = at(C::kContacts);
  c.max_stack = at(C::kMaxStack);
  c.mem_beats = at(C::kMemBeats);
  c.wasted_beats = at(C::kWastedBeats);
  c.stall_cycles = at(C::kStallCycles);
}
}  // namespace detail

namespace detail {
// Images depend on the tree and (b, v, W, s) only, not on the pose: built once per process, like
// the SystemC model's host does (model/src/accel.cpp).
struct CachedImage {
  TreeImage image;
  std::vector<std::uint8_t> bytes;
};
inline const CachedImage& cached_image(const DopTree& tree, const ImageParams& ip) {
  // The mesh's name, size and k guard against another tree built later at the same address.
  using Key = std::tuple<const DopTree*, std::string, std::size_t, int, int, int, int, double>;
  static std::map<Key, std::unique_ptr<CachedImage>> cache;
  auto& slot = cache[Key{&tree, tree.mesh().name, tree.mesh().triangle_count(), tree.k(), ip.b, ip.v, ip.bus_width,
                         ip.scale}];
  if (!slot) {
    slot = std::make_unique<CachedImage>();
    slot->image = make_tree_image(tree, ip);
    slot->bytes = encode(slot->image);
  }
  return *slot;
}
}  // namespace detail

// irq_o of the top (a separate function so run_query compiles for tops without irq_o).
template <class Top>
bool top_irq(Harness<Top>& h) {
  if constexpr (Harness<Top>::kHasIrq) {
    return h.top.irq_o;
  } else {
    return false;
  }
}

// One query on the top, as the model's host does it (model/src/accel.cpp): images of both trees
// at the scene scale s = scene_scale(first, second), placed 4 KiB-aligned in h.mem (the memory is
// cleared first), the registers (bases, M', T', the axis table, QUERY, STACK_LIMIT), START, the
// clock until DONE (irq_o), STATUS and the counters, CLEAR, and the clock until IDLE.
// A pose whose quantize_pose is not in range has no contact: the result has started = false and
// no error, and the top is not touched. Errors (timeout, AXI-Lite error, CONFIG mismatch) are
// reported in `error`, never thrown; the top may then need a reset.
template <class Top>
RtlTopQuery run_query(Top& top, Harness<Top>& h, const DopTree& first, const DopTree& second, const Pose& pose,
                      const RtlQueryParams& p) {
  static_assert(Harness<Top>::kHasAxi && Harness<Top>::kHasLite && Harness<Top>::kHasStream,
                "run_query needs the whole top");
  (void)top;  // h.top is the same object
  RtlTopQuery r;
  try {
    if (first.k() != second.k()) throw std::invalid_argument("run_query: trees must share k");
    const int k = first.k();
    const int W = h.mem.bus_bytes() * 8;
    // The axis table and M', T' of the pose in the centred frames (the images are centred).
    const QuerySetup setup =
        make_query_setup(first, second, pose, p.fixed, TriangleFixedParams{p.vertex_bits, p.rotation_bits});
    const double s = setup.scale;
    const QuantizedPose& qpose = setup.triangle_pose;
    if (!qpose.in_range) return r;  // |T_i / s| > 4: disjoint, no contact, not started

    AxiLiteMaster& bus = h.lite;
    if (p.check_config) {
      const std::uint32_t id = bus.read(reg::kId);
      const paper::Config0 c0 = paper::unpack_config0(bus.read(reg::kConfig0));
      const paper::Config1 c1 = paper::unpack_config1(bus.read(reg::kConfig1));
      const paper::Config0 want0 = paper::config0_value(k, p.fixed.b, p.fixed.c, p.fixed.z);
      const bool same1 = c1.v == std::uint32_t(p.vertex_bits) && c1.m == std::uint32_t(p.rotation_bits) &&
                         c1.bus_bytes == std::uint32_t(W / 8);
      if (id != reg::kIdValue || !(c0 == want0) || !same1)
        throw std::runtime_error("run_query: ID/CONFIG of the top do not match the query's k, b, c, z, v, m, W");
    }
    // Idle before we start (an earlier query may still drain).
    {
      std::uint64_t n = 0;
      while (!(bus.read(reg::kStatus) & reg::kStatusIdle))
        if (++n > 100000) throw std::runtime_error("run_query: the top is not IDLE");
    }

    const ImageParams ip{p.fixed.b, p.vertex_bits, W, s};
    const detail::CachedImage& ia = detail::cached_image(first, ip);
    const detail::CachedImage& ib = detail::cached_image(second, ip);
    h.mem.clear();
    r.a_image_base = h.mem.place(ia.bytes);
    r.b_image_base = h.mem.place(ib.bytes);

    bus.write64(reg::kANodeBase, r.a_image_base + ia.image.node_section_offset());
    bus.write64(reg::kATriBase, r.a_image_base + ia.image.triangle_section_offset());
    bus.write64(reg::kBNodeBase, r.b_image_base + ib.image.node_section_offset());
    bus.write64(reg::kBTriBase, r.b_image_base + ib.image.triangle_section_offset());
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        bus.write(reg::kRot + 4 * std::uint32_t(3 * i + j), std::uint32_t(qpose.M[std::size_t(i)][std::size_t(j)]));
    for (int i = 0; i < 3; ++i)
      bus.write64(reg::kTrans + 8 * std::uint32_t(i), std::uint64_t(qpose.T[std::size_t(i)]));
    const std::vector<QuantizedAxis>& axes = setup.fixed_axes;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const std::vector<std::uint32_t> words = pack_axis_entry(axes[a], k, p.fixed);
      for (std::size_t w = 0; w < words.size(); ++w)
        bus.write(reg::kAxisTable + reg::kAxisEntryBytes * std::uint32_t(a) + 4 * std::uint32_t(w), words[w]);
    }
    const std::uint32_t n = std::uint32_t(p.axes <= 0 ? 0 : std::min(p.axes, k));
    paper::Query query;
    query.axes = n;
    query.rule = rule_code(p.rule);
    query.continue_axes = p.continue_axes ? 1 : 0;
    bus.write(reg::kQuery, pack(query));
    bus.write(reg::kStackLimit, p.stack_limit & 0xFFFFFF);

    // START: tick 0 is the edge of the AW/W handshake.
    h.sink.clear();
    const double t0 = thread_cpu_seconds();
    bus.write(reg::kControl, reg::kStart);
    r.start_tick = bus.aw_tick;
    r.started = true;
    // DONE: irq_o is high while DONE is set. The write above already stepped past tick 0.
    bool seen = false;
    if constexpr (Harness<Top>::kHasIrq) {
      while (!(seen = top_irq(h))) {
        if (h.tick() - r.start_tick > p.max_cycles) break;
        h.step();
      }
      if (seen) r.done_tick = h.tick() - 1 - r.start_tick;  // irq_o rose at the previous edge or earlier
    } else {
      while (!(seen = (bus.read(reg::kStatus) & reg::kStatusDone) != 0))
        if (h.tick() - r.start_tick > p.max_cycles) break;
      if (seen) r.done_tick = h.tick() - 1 - r.start_tick;
    }
    r.clocked_seconds = thread_cpu_seconds() - t0;
    if (!seen) {
      r.timed_out = true;
      r.error = "run_query: no DONE within " + std::to_string(p.max_cycles) + " cycles";
      return r;
    }
    r.status = bus.read(reg::kStatus);
    r.done = (r.status & reg::kStatusDone) != 0;
    r.stack_overflow = (r.status & reg::kStatusStackOverflow) != 0;
    r.bus_error = (r.status & reg::kStatusBusError) != 0;
    for (int i = 0; i < paper::kNumCounters; ++i)
      r.counters.raw[std::size_t(i)] = bus.read64(reg::kCounters + 8 * std::uint32_t(i));
    detail::fill_counters(r.counters);
    r.contacts = h.sink.contacts;
    for (std::uint64_t t : h.sink.ticks) r.contact_ticks.push_back(t - r.start_tick);
    std::sort(r.contacts.begin(), r.contacts.end());
    if (!r.done) r.error = "run_query: irq_o was high but STATUS.DONE is not set";

    bus.write(reg::kControl, reg::kClear);
    std::uint64_t waited = 0;
    for (;;) {
      const std::uint32_t st = bus.read(reg::kStatus);
      if ((st & reg::kStatusIdle) && !(st & (reg::kStatusDone | reg::kStatusStackOverflow | reg::kStatusBusError))) break;
      if (++waited > 100000) {
        if (r.error.empty()) r.error = "run_query: the top did not return to IDLE after CLEAR";
        break;
      }
    }
  } catch (const std::exception& e) {
    if (r.error.empty()) r.error = e.what();
  }
  return r;
}

}  // namespace kdopcd::driver
