// One verilated accelerator top per process and configuration, driven by the bus models of
// the driver library driver/ (kdopcd_driver/query_driver.hpp); each query loads both tree images and the registers, starts the
// top and clocks it until DONE (docs/accelerator.md). Vkdopcd_top has the default parameters;
// Vkdopcd_top_o1 (normal build only) differs in MAX_OUT = 1, the configuration in which prefetch
// records still wait in the fetch queue when they are abandoned.
#include "kdopcd/rtl_top_engine.hpp"

#include "kdopcd_contract/accelerator_paper.hpp"

#include <memory>
#include <stdexcept>

#include "Vkdopcd_top.h"
#if KDOPCD_TOP_WITH_O1
#include "Vkdopcd_top_o1.h"
#endif
#include "kdopcd_driver/query_driver.hpp"

namespace kdopcd::rtl {

namespace {

template <class Top>
struct Engine {
  VerilatedContext ctx;
  Top top{&ctx};
  driver::Harness<Top> h{top, &ctx};
  Engine() {
    ctx.fatalOnError(true);  // an SVA protocol assertion stops the process: a defect, never ignored
    h.reset();
  }
};

template <class Top>
Engine<Top>& engine() {
  static Engine<Top>* e = new Engine<Top>();  // lives until exit: Verilator's final() is not needed
  return *e;
}

#if KDOPCD_TOP_WITH_O1
constexpr int kAltMaxOut = 1;
#else
constexpr int kAltMaxOut = 0;
#endif

}  // namespace

TopConfig top_config() {
  // Verilated without -G (but MAX_OUT of the second top): the contract's defaults.
  namespace cp = contract::paper;
  return {cp::kK, cp::kB, cp::kC, cp::kZ, cp::kV, cp::kM, cp::kW, cp::kStackDepth, cp::kMaxOut, cp::kBurstMax,
          cp::kTriLat, cp::kSatLat, kAltMaxOut};
}

bool write_top_coverage(const std::string& path) {
#if VM_COVERAGE
  engine<Vkdopcd_top>().ctx.coveragep()->write(path.c_str());
#if KDOPCD_TOP_WITH_O1
  engine<Vkdopcd_top_o1>().ctx.coveragep()->write((path + ".o1").c_str());  // the script merges both
#endif
  return true;
#else
  (void)path;
  return false;
#endif
}

TraversalStats TopResult::traversal() const {
  TraversalStats t;
  t.pair_tests = counters.pair_tests;
  t.axis_tests = counters.axis_effective;
  t.leaf_pairs = counters.leaf_pairs;
  t.triangle_tests = counters.tri_tests;
  t.contacts = counters.contacts;
  t.max_stack_depth = std::uint32_t(counters.max_stack);
  return t;
}

namespace {

template <class Top>
driver::RtlTopQuery run(Engine<Top>& e, const DopTree& first, const DopTree& second, const Pose& pose,
                       const TopParams& p) {
  driver::AxiMemoryParams mp;
  mp.latency = p.mem_latency;
  mp.cycles_per_beat = p.cycles_per_beat;
  mp.stall = p.stalls;
  mp.stall_probability = p.stall_probability;
  mp.seed = p.seed;
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

  driver::RtlQueryParams q;
  q.axes = p.axes;
  q.rule = p.rule;
  q.continue_axes = p.continue_axes;
  q.fixed = p.fixed;
  q.vertex_bits = p.vertex_bits;
  q.rotation_bits = p.rotation_bits;
  q.stack_limit = p.stack_limit;
  return driver::run_query(e.top, e.h, first, second, pose, q);
}

}  // namespace

TopResult simulate_top(const DopTree& first, const DopTree& second, const Pose& pose, const TopParams& p) {
  const TopConfig cfg = top_config();
  if (first.k() != cfg.k || p.fixed.b != cfg.b || p.fixed.c != cfg.c || p.fixed.z != cfg.z || p.vertex_bits != cfg.v ||
      p.rotation_bits != cfg.m)
    throw std::invalid_argument("rtl engine: the top was verilated for k = " + std::to_string(cfg.k) + ", b,c,z = " +
                                std::to_string(cfg.b) + "," + std::to_string(cfg.c) + "," + std::to_string(cfg.z) +
                                ", v = m = " + std::to_string(cfg.v) + "; the query asks for something else");
  if (p.mem_latency < 0 || p.cycles_per_beat < 1 || p.axes < 0 || p.stall_probability < 0 || p.stall_probability >= 1)
    throw std::invalid_argument("rtl engine: memory latency >= 0, cycles per beat >= 1, 0 <= stall probability < 1");
  driver::RtlTopQuery r;
  if (p.max_outstanding == cfg.max_outstanding) {
    r = run(engine<Vkdopcd_top>(), first, second, pose, p);
#if KDOPCD_TOP_WITH_O1
  } else if (p.max_outstanding == kAltMaxOut) {
    r = run(engine<Vkdopcd_top_o1>(), first, second, pose, p);
#endif
  } else {
    throw std::invalid_argument("rtl engine: no top verilated with MAX_OUT = " + std::to_string(p.max_outstanding) +
                                " (built: " + std::to_string(cfg.max_outstanding) +
                                (cfg.alt_max_outstanding ? " and " + std::to_string(cfg.alt_max_outstanding) : "") +
                                ")");
  }
  if (!r.ok()) throw std::runtime_error("rtl engine: " + r.error);
  TopResult out;
  out.started = r.started;
  out.contacts = r.contacts;
  const driver::RtlCounters& c = r.counters;
  out.counters = {c.cycles,         c.pair_tests, c.axis_issued, c.axis_effective, c.axis_cancelled,
                  c.axis_continued, c.leaf_pairs, c.tri_tests,   c.contacts,       c.max_stack,
                  c.mem_beats,      c.wasted_beats, c.stall_cycles, c.raw};
  out.stack_overflow = r.stack_overflow;
  out.bus_error = r.bus_error;
  out.clock_edges = r.done_tick;
  out.sim_seconds = r.clocked_seconds;
  return out;
}

}  // namespace kdopcd::rtl
