// The SystemC shell around the model's cores, the host driver (simulate, simulate_batch) and the
// parameter checks. The shell is one clocked SC_METHOD that ticks the active core once per rising
// edge and drives the top-level signals; all timing lives in the blocks (docs/model.md).
#include <fmt/format.h>

#include <systemc>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "image_memory.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/library_output.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tree_image.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd_contract/accelerator_paper.hpp"
#include "kdopcd_driver/v2_host.hpp"
#include "kdopcd_model/model.hpp"
#include "paper_core.hpp"
#include "v2_accelerator.hpp"

// libsystemc.so refers to sc_main; the model is driven from an ordinary main (kdop, gtest).
int sc_main(int, char**) { return 0; }

namespace kdopcd::model {

int rtl_pipeline_latency(int b, int c, int mul_w) { return contract::paper::sat_lat(b, c, mul_w); }

TraversalStats ModelResult::traversal() const {
  TraversalStats t;
  t.pair_tests = stats.pair_tests;
  t.axis_tests = stats.axis_tests;
  t.leaf_pairs = stats.leaf_pairs;
  t.triangle_tests = stats.triangle_tests;
  t.contacts = stats.contacts;
  t.max_stack_depth = stats.max_stack_depth;
  return t;
}

Architecture parse_architecture(const std::string& name) {
  if (name == "paper") return Architecture::Paper;
  if (name == "v2") return Architecture::V2;
  throw InputError("architecture must be paper or v2 (got '" + name + "')");
}
const char* to_string(Architecture arch) { return arch == Architecture::Paper ? "paper" : "v2"; }

TreeMemory parse_tree_memory(const std::string& name) {
  if (name == "onchip") return TreeMemory::OnChip;
  if (name == "external") return TreeMemory::External;
  throw InputError("tree memory must be onchip or external (got '" + name + "')");
}
const char* to_string(TreeMemory memory) { return memory == TreeMemory::OnChip ? "onchip" : "external"; }

ModelParams paper_params() { return ModelParams{}; }

int descriptor_buffers(const ModelParams& p) { return p.descriptor_buffers > 0 ? p.descriptor_buffers : p.engines + 2; }

ModelParams v2_params() {
  // The v2 default is the RTL v2 top's: one definition, the accelerator contract.
  namespace c2 = contract::v2;
  ModelParams p;
  p.arch = Architecture::V2;
  p.fixed = FixedParams{c2::kB, c2::kC, c2::kZ};
  p.vertex_bits = c2::kV;
  p.rotation_bits = c2::kM;
  p.stack_depth = c2::kPendingDepth;
  p.pairs_in_flight = c2::kPairsInFlight;
  p.ram_latency = c2::kRamLat;
  p.triangle_ii = c2::kTriIi;
  p.triangle_latency = c2::kTriLat;
  p.triangle_queue = c2::kTriQueue;
  p.contact_queue = c2::kContactQueue;
  p.clock_mhz = 250.0;
  return p;
}

void require_v2_params(const ModelParams& p, int k, const std::string& engine) {
  namespace c2 = contract::v2;
  const ModelParams d = v2_params();
  auto need = [&engine](bool ok, const std::string& what) {
    if (!ok) throw InputError(engine + " has " + what);
  };
  need(p.arch == Architecture::V2, "the v2 architecture (--arch v2)");
  need(k == c2::kK, "k = " + std::to_string(c2::kK) + " (--k)");
  need(p.axes == 0 || p.axes == c2::kK, "n = k axes (--axes)");
  need(p.fixed.b == c2::kB && p.fixed.c == c2::kC && p.fixed.z == c2::kZ,
       "b,c,z = " + std::to_string(c2::kB) + "," + std::to_string(c2::kC) + "," + std::to_string(c2::kZ) + " (--bits)");
  need(p.vertex_bits == c2::kV && p.rotation_bits == c2::kM, "v = m = " + std::to_string(c2::kV));
  need(p.tree_memory == TreeMemory::OnChip, "the trees in on-chip RAM (--tree-memory onchip)");
  need(p.sat_units == 1 && (p.sat_lanes == 0 || p.sat_lanes >= k), "one wide SAT unit (--sat-units 1 --sat-lanes 0)");
  need(p.pipeline_latency == 0 || p.pipeline_latency == c2::kSatLat,
       "an " + std::to_string(c2::kSatLat) + "-clock SAT unit (--latency)");
  need(p.pairs_in_flight == d.pairs_in_flight, std::to_string(d.pairs_in_flight) + " pairs in flight (--pairs-in-flight)");
  need(p.ram_latency == d.ram_latency, "a RAM latency of " + std::to_string(d.ram_latency) + " (--ram-latency)");
  need(p.triangle_ii == d.triangle_ii, "a triangle II of " + std::to_string(d.triangle_ii) + " (--tri-ii)");
  need(p.triangle_latency == d.triangle_latency,
       "a triangle latency of " + std::to_string(d.triangle_latency) + " (--tri-latency)");
  need(p.triangle_queue == d.triangle_queue, std::to_string(d.triangle_queue) + " triangle-queue entries (--tri-queue)");
  need(p.contact_queue == d.contact_queue, std::to_string(d.contact_queue) + " contact-queue entries (--contact-queue)");
  need(p.stack_depth <= c2::kPendingDepth, std::to_string(c2::kPendingDepth) + " pending entries at most (--stack-depth)");
  need(p.engines == 1, "one engine (--engines 1)");
  need(p.host_path == HostPath::Registers,
       "the register path only (--host registers): it drives the top's registers, not its command queue");
}

void validate(const ModelParams& p) {
  auto range = [](long long v, long long lo, long long hi, const char* what) {
    if (v < lo || v > hi)
      throw InputError(std::string("model: ") + what + " must lie in " + std::to_string(lo) + ".." +
                       std::to_string(hi) + " (got " + std::to_string(v) + ")");
  };
  range(p.axes, 0, 26, "axes per pair (0 = all k)");
  validate_fixed_params(p.fixed);
  range(p.vertex_bits, 1, kMaxVertexBits, "vertex bits v");
  range(p.rotation_bits, 1, kMaxTriangleFixedBits - p.vertex_bits, "rotation bits m (v + m <= 56)");
  range(p.stack_depth, 1, 1 << 20, "pair stack / pending set entries");
  range(p.pipeline_latency, 0, 64, "SAT latency (0 = from the RTL formula)");
  range(p.triangle_latency, 1, 1024, "triangle unit latency");
  bool bus_ok = false;
  for (int w : kTreeImageBusWidths) bus_ok |= w == p.bus_width;
  if (!bus_ok) throw InputError("model: bus width must be 32, 64, 128, 256 or 512 (got " + std::to_string(p.bus_width) + ")");
  range(p.mem_latency, 0, 1024, "memory latency");
  range(p.burst_length, 1, 256, "burst length (AXI4: at most 256 beats)");
  range(p.max_outstanding, 1, 64, "outstanding reads");
  range(p.beats_per_cycle, 1, 64, "beats per cycle");
  range(p.cycles_per_beat, 1, 64, "cycles per beat");
  range(p.pipelines, 1, 64, "SAT pipelines P");
  range(p.pairs_in_flight, 1, 4096, "pairs in flight");
  range(p.sat_units, 1, 16, "SAT units U");
  range(p.sat_lanes, 0, 26, "SAT lanes L (0 = n)");
  range(p.sat_contexts, 0, 256, "SAT contexts (0 = latency + 1)");
  range(p.ram_latency, 1, 16, "tree RAM latency");
  range(p.node_cache_lines, 0, 1 << 20, "node cache lines");
  range(p.triangle_ii, 1, 256, "triangle initiation interval");
  range(p.triangle_queue, 1, 1 << 16, "triangle queue entries");
  range(p.contact_queue, 1, 1 << 16, "contact queue entries");
  range(p.engines, 1, 64, "traversal engines");
  if (!p.trace_path.empty() && (p.trace_path.size() <= 4 || !p.trace_path.ends_with(".vcd")))
    throw InputError("model: the trace is a VCD, which SystemC's writer names NAME.vcd: the trace path must end in "
                     ".vcd (got '" + p.trace_path + "')");
  if (!(std::isfinite(p.clock_mhz) && p.clock_mhz >= 1.0 && p.clock_mhz <= 5000.0))
    throw InputError("model: clock must lie in 1..5000 MHz (got " + std::to_string(p.clock_mhz) + ")");
  range(p.descriptor_buffers, 0, 64, "descriptor buffers (0 = engines + 2)");
  range(p.contact_capacity, 1, 1ll << 31, "contact capacity");
  if (!(std::isfinite(p.host_setup_ns) && p.host_setup_ns >= 0 && p.host_setup_ns <= 1e9))
    throw InputError("model: host set-up must lie in 0..1e9 ns (got " + std::to_string(p.host_setup_ns) + ")");
  if (p.host_path == HostPath::Queue) {
    if (p.arch != Architecture::V2) throw InputError("model: the command queue (--host queue) needs --arch v2");
    // Each engine sends at most one contact per triangle start (every triangle_ii clocks), packed
    // kContactsPerBeat to a beat: the write channel keeps up with all engines when its rate covers that.
    const HostClocks c = host_clocks(p.host, p.clock_mhz);
    if (std::int64_t(c.beats_per_cycle) * contract::v2::kContactsPerBeat * p.triangle_ii <
        std::int64_t(c.cycles_per_beat) * p.engines)
      throw InputError("model: the " + p.host.name + " link cannot take the contacts of " + std::to_string(p.engines) +
                       " engines at triangle II " + std::to_string(p.triangle_ii));
  }
  if (p.arch == Architecture::Paper) {
    if (p.engines != 1) throw InputError("model: --engines needs --arch v2 (the paper design has one engine)");
    if (p.tree_memory != TreeMemory::OnChip && p.tree_memory != TreeMemory::External)
      throw InputError("model: bad tree memory");
  } else if (p.continue_axes) {
    throw InputError("model: --continue-axes belongs to --arch paper (v2 tests all n axes of a pair at once)");
  }
}

namespace {

// The top-level signals of the accelerator, driven by whichever core the host started.
SC_MODULE(kdop_accel) {
  sc_core::sc_in<bool> clk;
  sc_core::sc_signal<bool> busy{"busy"}, done{"done"}, error{"error"}, contact_valid{"contact_valid"};
  sc_core::sc_signal<std::uint32_t> contact_first{"contact_first"}, contact_second{"contact_second"};
  sc_core::sc_signal<std::uint32_t> stack_depth{"stack_depth"};
  sc_core::sc_signal<std::uint64_t> pair_tests{"pair_tests"};
  sc_core::sc_signal<std::uint64_t> contact_data{"contact_data"};  // {second, first}, as the RTL's m_axis_tdata_o
  ClockedCore* core = nullptr;

  SC_CTOR(kdop_accel) {
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
  }

  void on_clock() {
    if (core == nullptr || !core->busy()) return;
    core->tick();
    const TopSignals s = core->signals();
    busy.write(s.busy);
    done.write(s.done);
    error.write(s.error);
    contact_valid.write(s.contact_valid);
    if (s.contact_valid) {
      contact_first.write(s.contact.first);
      contact_second.write(s.contact.second);
      contact_data.write(std::uint64_t(s.contact.second) << 32 | s.contact.first);
    }
    stack_depth.write(s.stack_depth);
    pair_tests.write(s.pair_tests);
    if (core->needs_host()) sc_core::sc_pause();  // sc_start returns before the next clock
  }
};

// One clock and one accelerator shell per process (SystemC elaborates once); queries reuse them.
struct Bench {
  double period_ns;
  sc_core::sc_clock clk;
  kdop_accel accel;
  sc_core::sc_trace_file* trace = nullptr;
  std::string trace_path;
  Bench(double period, const std::string& trace_path_)
      : period_ns(period), clk("clk", period, sc_core::SC_NS), accel("accel"), trace_path(trace_path_) {
    accel.clk(clk);
    if (!trace_path.empty()) {
      // SystemC appends ".vcd" to the name it is given (validate: the path ends in it).
      trace = sc_core::sc_create_vcd_trace_file(trace_path.substr(0, trace_path.size() - 4).c_str());
      // The signals the RTL tops have as ports carry the ports' names (docs/waves.md), so one
      // GTKWave view reads both; the rest are the model's own.
      sc_core::sc_trace(trace, clk, "clk_i");
      sc_core::sc_trace(trace, accel.done, "irq_o");
      sc_core::sc_trace(trace, accel.contact_valid, "m_axis_tvalid_o");
      sc_core::sc_trace(trace, accel.contact_data, "m_axis_tdata_o");
      sc_core::sc_trace(trace, accel.busy, "busy");
      sc_core::sc_trace(trace, accel.error, "error");
      sc_core::sc_trace(trace, accel.stack_depth, "stack_depth");
      sc_core::sc_trace(trace, accel.pair_tests, "pair_tests");
    }
  }
};

Bench*& bench_instance() {
  static Bench* b = nullptr;
  return b;
}

Bench& bench(const ModelParams& p) {
  Bench*& b = bench_instance();
  if (b == nullptr) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    b = new Bench(1000.0 / p.clock_mhz, p.trace_path);
  }
  return *b;
}

// Clocks `core` until it is idle; returns the host seconds spent in sc_start. `serve` runs before
// the first clock and whenever the core asks for the host (ClockedCore::needs_host), between
// clocks and outside the simulation, with the seconds spent so far.
double run(ClockedCore& core, const ModelParams& p, const std::function<void(double seconds)>& serve = {}) {
  Bench& b = bench(p);
  // The shell drives `core` until it is idle, or until `serve` throws (the core is gone then).
  struct Attached {
    kdop_accel& accel;
    ~Attached() { accel.core = nullptr; }
  } attached{b.accel};
  b.accel.core = &core;
  double seconds = 0;
  const sc_core::sc_time chunk(b.period_ns * 1024, sc_core::SC_NS);
  while (core.busy()) {
    if (serve) serve(seconds);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start(chunk);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return seconds;
}

ModelResult result_of(ModelStats stats, std::vector<ContactPair> contacts) {
  ModelResult r;
  r.stats = stats;
  r.contacts = std::move(contacts);
  return r;
}

}  // namespace

const ImageMemory& image_memory(const DopTree& tree, const ImageParams& ip) {
  // Keyed by the tree's address and, so that a new tree built where a freed one lay is not taken
  // for it, by its size and centre.
  using Key = std::tuple<const DopTree*, std::size_t, std::size_t, double, double, double, int, int, int, double>;
  static std::map<Key, std::unique_ptr<ImageMemory>> cache;
  const Vec3 c = tree.centre();
  auto& slot = cache[Key{&tree, tree.node_count(), tree.mesh().triangle_count(), c.x(), c.y(), c.z(), ip.b, ip.v,
                         ip.bus_width, ip.scale}];
  if (!slot) {
    slot = std::make_unique<ImageMemory>();
    slot->bytes = encode(make_tree_image(tree, ip));
    slot->image = decode(slot->bytes, tree.mesh().name + " image");
  }
  return *slot;
}

StreamTotals simulate_stream(const DopTree& first, const DopTree& second, const PoseSource& next_pose,
                             const ResultSink& on_result, const ModelParams& params) {
  if (first.k() != second.k()) throw InputError("model: both trees must have the same k");
  validate(params);
  const double s = scene_scale(first, second);
  const ImageParams ip{params.fixed.b, params.vertex_bits, params.bus_width, s};
  const ImageMemory& mf = image_memory(first, ip);
  const ImageMemory& ms = image_memory(second, ip);
  const int k = first.k();
  const int n = params.axes <= 0 ? k : std::min(params.axes, k);
  // Host interface: the registers of one query (axis table, M', T', tree addresses), and the time
  // their set-up took.
  auto registers_of = [&](const Pose& pose, double& setup_seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    QueryRegisters r;
    r.first = &mf;
    r.second = &ms;
    // The axis table and M', T' of the pose in the centred frames (the images are centred).
    QuerySetup setup = make_query_setup(first, second, pose, params.fixed,
                                        TriangleFixedParams{params.vertex_bits, params.rotation_bits});
    r.axes = std::move(setup.fixed_axes);
    r.pose = setup.triangle_pose;
    setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };

  StreamTotals totals;
  Pose pose;
  if (params.arch == Architecture::Paper) {
    const int lat = params.pipeline_latency > 0 ? params.pipeline_latency
                                                : rtl_pipeline_latency(params.fixed.b, params.fixed.c);
    while (next_pose(pose)) {
      double setup = 0;
      const QueryRegisters r = registers_of(pose, setup);
      PaperCore core(params, k, n, lat, r);
      const double secs = run(core, params);
      ModelResult m = result_of(core.stats(), core.contacts());
      m.stats.pipeline_latency = lat;
      m.stats.pipeline_utilization =
          m.stats.cycles ? double(m.stats.axis_tests_issued) / (double(m.stats.cycles) * params.pipelines) : 0.0;
      m.stats.sim_seconds = secs;
      m.stats.setup_seconds = setup;
      totals.cycles += m.stats.cycles;
      totals.sim_seconds += secs;
      on_result(totals.queries++, pose, std::move(m));
    }
    return totals;
  }
  V2Config cfg;
  cfg.k = k;
  cfg.n = n;
  cfg.sat_latency = params.pipeline_latency > 0 ? params.pipeline_latency : kWideSatLatency;
  cfg.params = params;
  V2Accelerator acc(cfg);
  const bool queue_path = params.host_path == HostPath::Queue;
  const HostClocks host = host_clocks(params.host, params.clock_mhz);
  if (queue_path) {
    // LOAD: the trees in the RAMs; the triangle unit's pose format (v, m, scale) is the scene's.
    QuantizedPose format;
    format.params = TriangleFixedParams{params.vertex_bits, params.rotation_bits};
    format.scale = s;
    format.in_range = true;
    acc.load(&mf, &ms, format);
  }
  // The host writes query i's descriptor when its set-up is done, at (i + 1) host_setup_ns on one
  // core, and rings the doorbell; the write reaches the accelerator `doorbell` clocks later.
  auto doorbell_arrival = [&](std::size_t i) {
    return std::uint64_t(std::ceil(double(i + 1) * params.host_setup_ns * params.clock_mhz / 1000.0 - 1e-9)) +
           std::uint64_t(host.doorbell);
  };
  auto ring = [&](std::size_t index, const QueryRegisters& r) {
    driver::v2::QueryProgram q;
    q.M = &r.pose.M;
    q.T = &r.pose.T;
    q.axes = &r.axes;
    q.k = k;
    q.fixed = params.fixed;
    q.rule = params.rule;
    q.vertex_bits = params.vertex_bits;
    q.rotation_bits = params.rotation_bits;
    driver::v2::QueueTargets t;
    t.tag = index;
    // Each query's contact buffer and completion record in a host buffer of its ring slot.
    t.contact_capacity = params.contact_capacity;
    t.contact_base = (std::uint64_t(1) << 40) + std::uint64_t(index % DescriptorFetch::kRingSlots) *
                                                    std::uint64_t(params.contact_capacity) * contract::v2::queue::kContactBytes;
    t.completion_base = (std::uint64_t(1) << 39) + std::uint64_t(index % DescriptorFetch::kRingSlots) *
                                                       contract::v2::queue::kCompletionBytes;
    std::vector<std::uint64_t> words;
    try {
      words = driver::v2::make_descriptor(q, t);
    } catch (const std::invalid_argument& e) {
      throw InputError(std::string("model: the command queue: ") + e.what());
    }
    acc.ring(std::move(words), doorbell_arrival(index));
  };
  // Queries submitted and not yet handed out: their poses and set-up times, and the finished ones
  // that wait for an earlier query (results go out in input order).
  struct Pending {
    Pose pose;
    double setup_seconds = 0;
    std::optional<ModelResult> result;
  };
  std::map<std::size_t, Pending> pending;
  std::size_t submitted = 0;
  std::uint64_t last_completion = 0;
  auto serve = [&](double sim_seconds) {
    // Finished queries, then every consecutive one from the oldest out.
    for (V2Accelerator::QueryOutcome& o : acc.take_finished()) {
      if (queue_path && (o.completion.tag != o.index || o.completion.contacts != o.contacts.size()))
        throw std::logic_error("model: a completion record does not name its query");
      last_completion = std::max(last_completion, o.stats.completion_cycle);
      pending.at(o.index).result = result_of(o.stats, std::move(o.contacts));
    }
    while (!pending.empty() && pending.begin()->second.result) {
      auto node = pending.extract(pending.begin());
      ModelResult& m = *node.mapped().result;
      m.stats.sim_seconds = acc.cycles() ? sim_seconds * double(m.stats.cycles) / double(acc.cycles()) : 0.0;
      m.stats.setup_seconds = node.mapped().setup_seconds;
      on_result(node.key(), node.mapped().pose, std::move(m));
      ++totals.queries;
    }
    // Twice the engines queued, so the next pause is a few queries away.
    while (!acc.input_closed() && acc.queued() < 2 * std::size_t(params.engines)) {
      if (!next_pose(pose)) {
        acc.close_input();
        break;
      }
      const std::size_t index = submitted++;
      Pending& q = pending[index];
      q.pose = pose;
      if (queue_path)
        ring(index, registers_of(pose, q.setup_seconds));
      else
        acc.submit(registers_of(pose, q.setup_seconds));
    }
  };
  totals.sim_seconds = run(acc, params, serve);
  serve(totals.sim_seconds);  // the queries that finished in the last clocks
  // With the queue the batch ends when the host sees the last completion record.
  totals.cycles = std::max(acc.cycles(), last_completion);
  return totals;
}

BatchResult simulate_batch(const DopTree& first, const DopTree& second, const std::vector<Pose>& poses,
                           const ModelParams& params) {
  BatchResult out;
  std::size_t next = 0;
  const StreamTotals totals = simulate_stream(
      first, second,
      [&](Pose& pose) {
        if (next == poses.size()) return false;
        pose = poses[next++];
        return true;
      },
      [&](std::size_t, const Pose&, ModelResult&& result) { out.queries.push_back(std::move(result)); }, params);
  out.cycles = totals.cycles;
  out.sim_seconds = totals.sim_seconds;
  return out;
}

void close_trace() {
  Bench* b = bench_instance();
  if (b == nullptr || b->trace == nullptr) return;
  // SystemC's writer checks none of its writes: a comment written last through it, then read back,
  // shows whether everything before it reached the file.
  static constexpr const char* kEnd = "kdop: end of trace";
  b->trace->write_comment(kEnd);
  sc_core::sc_close_vcd_trace_file(b->trace);
  b->trace = nullptr;
  check_vcd_file(b->trace_path, kEnd, "trace");
}

ModelResult simulate(const DopTree& first, const DopTree& second, const Pose& pose, const ModelParams& params) {
  BatchResult b = simulate_batch(first, second, {pose}, params);
  return std::move(b.queries.front());
}

}  // namespace kdopcd::model
