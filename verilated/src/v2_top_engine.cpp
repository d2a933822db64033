// One verilated v2 top per process (the contract's default parameters), driven by the v2 query
// driver of driver/ (kdopcd_driver/v2_query_driver.hpp). The tree images are built once per
// tree and scale; a pair is LOADed into the tree RAMs only when it differs from the loaded one.
#include "kdopcd/rtl_v2_top_engine.hpp"

#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "Vkdopcd_v2_top.h"
#include "kdopcd/error.hpp"
#include "kdopcd_driver/v2_query_driver.hpp"

namespace kdopcd::rtl {

namespace {

namespace c2 = kdopcd::contract::v2;

struct Engine {
  VerilatedContext ctx;
  Vkdopcd_v2_top top{&ctx};
  driver::Harness<Vkdopcd_v2_top> h{top, &ctx};
  // The loaded pair: tree identities and the image parameters.
  using Key = std::tuple<const DopTree*, const DopTree*, std::size_t, std::size_t, int, int, double>;
  Key loaded{};
  bool has_loaded = false;
  std::uint64_t load_cycles = 0, load_beats = 0;
  Engine() {
    ctx.fatalOnError(true);  // an SVA protocol assertion stops the process: a defect, never ignored
    h.reset();
  }
};

Engine& engine() {
  static Engine* e = new Engine();  // lives until exit
  return *e;
}

struct CachedImage {
  TreeImage image;
  std::vector<std::uint8_t> bytes;
};
const CachedImage& cached_image(const DopTree& tree, const ImageParams& ip) {
  using Key = std::tuple<const DopTree*, std::string, std::size_t, int, int, int, double>;
  static std::map<Key, std::unique_ptr<CachedImage>> cache;
  auto& slot = cache[Key{&tree, tree.mesh().name, tree.mesh().triangle_count(), ip.b, ip.v, ip.bus_width, ip.scale}];
  if (!slot) {
    slot = std::make_unique<CachedImage>();
    slot->image = make_tree_image(tree, ip);
    slot->bytes = encode(slot->image);
  }
  return *slot;
}

}  // namespace

TraversalStats V2TopResult::traversal() const {
  TraversalStats t;
  t.pair_tests = counter(c2::Counter::kPairTests);
  t.axis_tests = counter(c2::Counter::kAxisTests);
  t.leaf_pairs = counter(c2::Counter::kLeafPairs);
  t.triangle_tests = counter(c2::Counter::kTriangleTests);
  t.contacts = counter(c2::Counter::kContacts);
  t.max_stack_depth = std::uint32_t(counter(c2::Counter::kMaxPending));
  return t;
}

namespace {

// LOADs the pair unless it is the loaded one (or a load error is to be injected); true if it did.
bool ensure_loaded(Engine& e, const DopTree& first, const DopTree& second, const V2TopParams& p) {
  const double s = scene_scale(first, second);
  const ImageParams ip{p.fixed.b, p.vertex_bits, c2::kW, s};
  const Engine::Key key{&first, &second, first.mesh().triangle_count(), second.mesh().triangle_count(), p.fixed.b,
                        p.vertex_bits, s};
  if (e.has_loaded && e.loaded == key && p.load_error_beat < 0) return false;
  const CachedImage& a = cached_image(first, ip);
  const CachedImage& b = cached_image(second, ip);
  e.has_loaded = false;
  const driver::v2::LoadResult lr = driver::v2::load_trees(e.h, a.image, a.bytes, b.image, b.bytes);
  if (lr.load_error) throw InputError("rtl v2 engine: " + lr.error.substr(lr.error.find(": ") + 2));
  if (lr.bus_error) throw V2LoadBusError("rtl v2 engine: " + lr.error, lr.status, lr.beats);
  if (!lr.ok) throw std::runtime_error("rtl v2 engine: " + lr.error);
  e.loaded = key;
  e.has_loaded = true;
  e.load_cycles = lr.cycles;
  e.load_beats = lr.beats;
  return true;
}

void check_formats(const DopTree& first, const V2TopParams& p) {
  if (first.k() != c2::kK || p.fixed.b != c2::kB || p.fixed.c != c2::kC || p.fixed.z != c2::kZ ||
      p.vertex_bits != c2::kV || p.rotation_bits != c2::kM)
    throw InputError("rtl v2 engine: the top was verilated for k = " + std::to_string(c2::kK) + ", b,c,z = " +
                     std::to_string(c2::kB) + "," + std::to_string(c2::kC) + "," + std::to_string(c2::kZ) +
                     ", v = " + std::to_string(c2::kV) + ", m = " + std::to_string(c2::kM) +
                     "; the query asks for something else");
}

}  // namespace

std::vector<V2QueueResult> simulate_v2_queue(const DopTree& first, const DopTree& second, const std::vector<Pose>& poses,
                                             const V2TopParams& p, const V2QueueLink& link,
                                             std::uint32_t contact_capacity) {
  check_formats(first, p);
  if (link.beats_per_cycle < 1 || link.cycles_per_beat < link.beats_per_cycle || link.read_latency < 0 ||
      link.write_latency < 0 || contact_capacity == 0)
    throw InputError("rtl v2 engine: the DMA link needs latencies >= 0, at most a beat per clock, a contact buffer");
  Engine& e = engine();
  ensure_loaded(e, first, second, p);
  if (link.aw_delay_max < 0 || !(link.w_ready_probability > 0 && link.w_ready_probability <= 1))
    throw InputError("rtl v2 engine: the write slave needs an AWREADY delay >= 0 and 0 < WREADY probability <= 1");
  if (link.completion_page_offset >= 4096 || link.completion_page_offset % std::uint32_t(c2::queue::kBeatBytes) != 0)
    throw InputError("rtl v2 engine: a completion record's page offset must be a multiple of the DMA beat below 4096");
  e.h.dma.set_link(driver::DmaLinkParams{link.read_latency, link.write_latency, link.beats_per_cycle,
                                         link.cycles_per_beat, link.error_descriptor, link.free_write_slave,
                                         link.aw_delay_max, link.w_ready_probability, link.seed});
  namespace queue = c2::queue;
  std::vector<driver::v2::QueueQuery> queries;
  std::uint64_t next_buffer = 0x10000000;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const QuerySetup setup = make_query_setup(first, second, poses[i], p.fixed,
                                              TriangleFixedParams{p.vertex_bits, p.rotation_bits});
    if (!setup.triangle_pose.in_range) throw InputError("rtl v2 engine: a queued pose is out of the triangle unit's range");
    driver::v2::QueryProgram program;
    program.M = &setup.triangle_pose.M;
    program.T = &setup.triangle_pose.T;
    program.axes = &setup.fixed_axes;
    program.fixed = p.fixed;
    program.rule = p.rule;
    program.pending_limit = p.pending_limit;
    driver::v2::QueueQuery q;
    q.contact_capacity = contact_capacity;
    q.contact_base = next_buffer;
    next_buffer += (std::uint64_t(contact_capacity) * 8 + 4095) / 4096 * 4096;
    q.completion_base = next_buffer + link.completion_page_offset;
    next_buffer += 8192;  // the record may reach into the next page
    q.descriptor = driver::v2::make_descriptor(program, {std::uint64_t(i), q.contact_base, contact_capacity,
                                                        q.completion_base});
    queries.push_back(std::move(q));
  }
  const std::vector<driver::v2::QueueOutcome> r = driver::v2::run_queue(e.h, queries, 200000000);
  std::vector<V2QueueResult> out;
  for (const driver::v2::QueueOutcome& o : r)
    out.push_back(V2QueueResult{o.completion, o.contacts, o.descriptor_last_beat, o.completion_visible});
  return out;
}

V2TopResult simulate_v2_top(const DopTree& first, const DopTree& second, const Pose& pose, const V2TopParams& p) {
  check_formats(first, p);
  if (p.mem_latency < 0 || p.stall_probability < 0 || p.stall_probability >= 1)
    throw InputError("rtl v2 engine: memory latency >= 0 and 0 <= stall probability < 1");
  if (p.load_error_resp != int(driver::AxiResp::kSlvErr) && p.load_error_resp != int(driver::AxiResp::kDecErr))
    throw InputError("rtl v2 engine: an injected load error answers SLVERR (2) or DECERR (3)");
  Engine& e = engine();
  driver::AxiMemoryParams mp;
  mp.latency = p.mem_latency;
  mp.stall = p.stalls;
  mp.stall_probability = p.stall_probability;
  mp.seed = p.seed;
  mp.error_beat = p.load_error_beat;  // the beats are counted from here: the LOAD's
  mp.error_resp = driver::AxiResp(p.load_error_resp);
  e.h.mem.set_params(mp);
  driver::AxiLiteParams lp;
  lp.stall = p.stalls;
  lp.seed = p.seed + 1;
  e.h.lite.set_params(lp);
  driver::StreamSinkParams sp;
  sp.stall = p.stalls;
  sp.stall_probability = p.stall_probability;
  sp.seed = p.seed + 2;
  e.h.sink.set_params(sp);

  V2TopResult out;
  out.loaded_now = ensure_loaded(e, first, second, p);
  out.load_cycles = e.load_cycles;
  out.load_beats = e.load_beats;

  driver::v2::QueryParams q;
  q.rule = p.rule;
  q.fixed = p.fixed;
  q.vertex_bits = p.vertex_bits;
  q.rotation_bits = p.rotation_bits;
  q.pending_limit = p.pending_limit;
  q.overwrite_axis_table = p.overwrite_axis_table;
  const driver::v2::QueryResult r = driver::v2::run_query(e.h, first, second, pose, q);
  if (!r.ok()) throw std::runtime_error("rtl v2 engine: " + r.error);
  out.started = r.started;
  out.contacts = r.contacts;
  out.counters = r.counters.raw;
  out.overflow = r.overflow;
  out.clock_edges = r.done_tick;
  out.stream_refused = e.h.sink.refused;
  out.sim_seconds = r.clocked_seconds;
  return out;
}

void open_v2_trace(const std::string& path, int depth) {
  if (!engine().h.open_trace(path, depth <= 0 ? 99 : depth))
    throw std::runtime_error("rtl v2 engine: built without FST tracing");
}

void close_v2_trace() { engine().h.close_trace(); }

bool write_v2_coverage(const std::string& path) {
#if VM_COVERAGE
  engine().ctx.coveragep()->write(path.c_str());
  return true;
#else
  (void)path;
  return false;
#endif
}

}  // namespace kdopcd::rtl
