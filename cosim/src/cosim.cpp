// The host side of the co-simulation (kdopcd_cosim/cosim.hpp): block lists, parameter checks,
// the one elaboration per process, a query on the elaborated tops, and the trace comparison.
#include <systemc>

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>
#include <tuple>

#include "kdopcd/error.hpp"
#include "kdopcd/library_output.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd_model/counter_stats.hpp"
#include "kdopcd/tree_image.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd_cosim/cosim.hpp"
#include "rtl_top.hpp"
#include "signal_top.hpp"

namespace kdopcd::cosim {

std::string RtlBlocks::name() const {
  if (top) return "top";
  std::string n;
  const std::pair<bool, const char*> blocks[] = {{sat, "sat"}, {tri, "tri"}, {ctrl, "ctrl"}, {fetch, "fetch"}};
  for (const auto& [on, block] : blocks)
    if (on) {
      if (!n.empty()) n += '+';
      n += block;
    }
  return n.empty() ? "none" : n;
}

RtlBlocks parse_rtl_blocks(const std::string& list) {
  RtlBlocks b;
  if (list.empty() || list == "none") return b;
  if (list == "all") return RtlBlocks::all();
  if (list == "top") return RtlBlocks{.top = true};
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == "sat") {
      b.sat = true;
    } else if (item == "tri") {
      b.tri = true;
    } else if (item == "ctrl") {
      b.ctrl = true;
    } else if (item == "fetch") {
      b.fetch = true;
    } else if (item == "top") {
      throw InputError("--rtl-blocks: 'top' is the whole verilated top: it stands alone, not in a list ('" + list +
                       "')");
    } else {
      throw InputError("--rtl-blocks: unknown block '" + item + "' (blocks: " + kBlockNames +
                       "; or all, top, none; a comma list such as sat,tri)");
    }
  }
  if (!list.empty() && list.back() == ',') throw InputError("--rtl-blocks: empty block name in '" + list + "'");
  return b;
}

std::string first_difference(const std::vector<CycleRecord>& pure, const std::vector<CycleRecord>& mixed,
                             const std::string& pure_name, const std::string& mixed_name) {
  struct Field {
    const char* name;
    std::uint64_t (*get)(const CycleRecord&);
  };
  static const Field fields[] = {
      {"ctrl.sat_valid_o", [](const CycleRecord& r) { return std::uint64_t(r.ctrl_sat_valid); }},
      {"fetch.node_link_o[63:0]", [](const CycleRecord& r) { return r.fetch_link_f; }},
      {"fetch.node_link_o[127:64]", [](const CycleRecord& r) { return r.fetch_link_s; }},
      {"fetch.coef_a_o (hash)", [](const CycleRecord& r) { return r.fetch_coef_a; }},
      {"fetch.coef_b_o (hash)", [](const CycleRecord& r) { return r.fetch_coef_b; }},
      {"ctrl.tri_valid_o", [](const CycleRecord& r) { return std::uint64_t(r.ctrl_tri_valid); }},
      {"ctrl.tri_id_o", [](const CycleRecord& r) { return r.ctrl_tri_id; }},
      {"fetch.tri_a_o (hash)", [](const CycleRecord& r) { return r.fetch_tri_a; }},
      {"fetch.tri_b_o (hash)", [](const CycleRecord& r) { return r.fetch_tri_b; }},
      {"sat.valid_o", [](const CycleRecord& r) { return std::uint64_t(r.sat_valid); }},
      {"sat.separated_o", [](const CycleRecord& r) { return std::uint64_t(r.sat_separated); }},
      {"sat.effective_o", [](const CycleRecord& r) { return std::uint64_t(r.sat_effective); }},
      {"sat.lane_verdict_o", [](const CycleRecord& r) { return std::uint64_t(r.sat_lane_verdict); }},
      {"tri.valid_o", [](const CycleRecord& r) { return std::uint64_t(r.tri_valid); }},
      {"tri.hit_o", [](const CycleRecord& r) { return std::uint64_t(r.tri_hit); }},
      {"tri.id_o", [](const CycleRecord& r) { return r.tri_id; }},
      {"m_axis_tvalid_o", [](const CycleRecord& r) { return std::uint64_t(r.out_valid); }},
      {"m_axis_tdata_o", [](const CycleRecord& r) { return r.out_data; }},
  };
  const std::size_t n = std::min(pure.size(), mixed.size());
  for (std::size_t c = 0; c < n; ++c) {
    if (pure[c] == mixed[c]) continue;
    for (const Field& f : fields) {
      const std::uint64_t a = f.get(pure[c]), b = f.get(mixed[c]);
      if (a != b) {
        std::ostringstream os;
        os << "cycle " << c << ": " << f.name << ": " << pure_name << " 0x" << std::hex << a << ", " << mixed_name
           << " 0x" << b;
        return os.str();
      }
    }
  }
  if (pure.size() != mixed.size())
    return "cycle " + std::to_string(n) + ": busy_o: the query ended in the " +
           (pure.size() < mixed.size() ? pure_name : mixed_name) + " run and not in the other (" +
           std::to_string(pure.size()) + " against " + std::to_string(mixed.size()) + " clocks)";
  return "";
}

void check_params(const model::ModelParams& p, int k) {
  model::require_v2_params(p, k, "--engine systemc: the signal-level v2 engine");
}

namespace {

// One clock and the tops, for the whole process (SystemC elaborates once).
struct Bench {
  sc_core::sc_clock clk{"cosim_clk", 4.0, sc_core::SC_NS};  // 250 MHz; the period only names times
  std::vector<std::unique_ptr<CosimTop>> tops;
  sc_core::sc_trace_file* trace = nullptr;  // open_trace until close_trace
  std::string trace_path;
};
// Never destroyed: SystemC's kernel is torn down at exit in an order of its own, and a module
// destroyed before or after it hangs or crashes the exit (the model's bench does the same).
Bench*& bench() {
  static Bench* b = nullptr;
  return b;
}

CosimTop& top_of(const RtlBlocks& blocks) {
  for (const auto& t : bench()->tops)
    if (t->blocks() == blocks) return *t;
  throw std::logic_error("cosim: configuration " + blocks.name() + " was not elaborated");
}

}  // namespace

void elaborate(const std::vector<RtlBlocks>& configs) {
  if (bench()) {
    for (const RtlBlocks& c : configs) top_of(c);  // throws if one is missing
    return;
  }
  if (sc_core::sc_start_of_simulation_invoked())
    throw std::logic_error("cosim: the simulation has started already; elaborate() must come before any sc_start "
                           "(model::simulate included)");
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  bench() = new Bench();
  for (const RtlBlocks& c : configs) {
    const std::string name = "top_" + std::to_string(bench()->tops.size());
    if (c.top)
      bench()->tops.push_back(std::make_unique<RtlTop>(name.c_str(), bench()->clk, c));
    else
      bench()->tops.push_back(std::make_unique<SignalTop>(name.c_str(), bench()->clk, c));
  }
}

void open_trace(const std::string& vcd_path, const std::vector<RtlBlocks>& configs) {
  require_extension(vcd_path, ".vcd", "--trace", "the signal-level build's VCD writer (SystemC)");
  elaborate(configs);
  if (sc_core::sc_start_of_simulation_invoked())
    throw std::logic_error("cosim: open_trace() must come before the first sc_start of the process");
  // SystemC appends .vcd itself.
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(vcd_path.substr(0, vcd_path.size() - 4).c_str());
  bench()->trace = tf;
  bench()->trace_path = vcd_path;
  tf->set_time_unit(1, sc_core::SC_NS);
  sc_core::sc_trace(tf, bench()->clk, "clk_i");
  for (const auto& t : bench()->tops) {
    std::string scope = t->blocks().name();
    std::replace(scope.begin(), scope.end(), '+', '_');
    t->add_to_trace(tf, "verilated_" + scope);
  }
}

void close_trace() {
  if (bench() == nullptr || bench()->trace == nullptr) return;
  // SystemC's writer checks none of its writes: a comment written last through it, then read back,
  // shows whether everything before it reached the file.
  static constexpr const char* kEnd = "kdop: end of trace";
  bench()->trace->write_comment(kEnd);
  sc_core::sc_close_vcd_trace_file(bench()->trace);
  bench()->trace = nullptr;
  check_vcd_file(bench()->trace_path, kEnd, "--trace");
}

std::vector<CosimRun> simulate(const DopTree& first, const DopTree& second, const Pose& pose,
                               const model::ModelParams& params, const std::vector<RtlBlocks>& configs,
                               bool record_trace) {
  if (first.k() != second.k()) throw InputError("cosim: both trees must have the same k");
  check_params(params, first.k());
  elaborate(configs);
  const double s = scene_scale(first, second);
  const ImageParams ip{c2::kB, c2::kV, c2::kW, s};
  // The tree RAMs' contents depend on the trees and the scale, not on the pose: kept from the
  // previous query of the same pair (kdop sim runs many poses of one pair). Keyed, like the
  // model's image cache, by address, size and centre, so that a new tree built where a freed one
  // lay is not taken for it.
  using Key = std::tuple<const DopTree*, std::size_t, std::size_t, double, double, double>;
  auto key = [](const DopTree& t) {
    const Vec3 c = t.centre();
    return Key{&t, t.node_count(), t.mesh().triangle_count(), c.x(), c.y(), c.z()};
  };
  struct Images {
    Key first, second;
    double scale = 0;
    TreeImage f, s;
  };
  static Images images;
  static std::uint64_t generation = 0;  // which images the tops' RAMs hold (SignalTop::arm)
  if (generation == 0 || images.first != key(first) || images.second != key(second) || images.scale != s) {
    images = Images{key(first), key(second), s, make_tree_image(first, ip), make_tree_image(second, ip)};
    ++generation;
  }
  for (const TreeImage* im : {&images.f, &images.s})
    if (im->nodes.size() > (std::size_t(1) << c2::kNodeAw) || im->triangles.size() > (std::size_t(1) << c2::kTriAw))
      throw InputError("cosim: a tree of " + std::to_string(im->nodes.size()) + " nodes and " +
                       std::to_string(im->triangles.size()) + " triangles does not fit the tree RAMs (2^" +
                       std::to_string(c2::kNodeAw) + " nodes, 2^" + std::to_string(c2::kTriAw) + " triangles)");
  const TreeImage& image_f = images.f;
  const TreeImage& image_s = images.s;
  // The axis table and M', T' of the pose in the centred frames (the images are centred).
  const QuerySetup setup = make_query_setup(first, second, pose, params.fixed, TriangleFixedParams{c2::kV, c2::kM});
  const QuantizedPose& qpose = setup.triangle_pose;
  std::vector<CosimRun> runs(configs.size());
  for (std::size_t i = 0; i < configs.size(); ++i) runs[i].blocks = configs[i];
  // A translation outside the triangle unit's range: the host does not start (no contact is
  // possible), as the RTL top's driver.
  if (!qpose.in_range) return runs;

  // The host's registers, split into the units' port vectors (the RTL engine's wiring).
  const std::vector<QuantizedAxis>& axes = setup.fixed_axes;
  BusWords<kJBusW> ja, jb;
  BusWords<kPBusW> pa, pb;
  BusWords<kOffBusW> off;
  for (int l = 0; l < c2::kK; ++l) {
    const QuantizedAxis& ax = axes[std::size_t(l)];
    for (int i = 0; i < 3; ++i) {
      ja.put((l * 3 + i) * kJW, kJW, ax.jA[i]);
      jb.put((l * 3 + i) * kJW, kJW, ax.jB[i]);
      pa.put((l * 3 + i) * (c2::kC + 1), c2::kC + 1, ax.PA[i]);
      pb.put((l * 3 + i) * (c2::kC + 1), c2::kC + 1, ax.PB[i]);
    }
    off.put(l * kOffW, kOffW, ax.p);
  }
  BusWords<kRotBusW> rot;
  BusWords<kTransBusW> trans;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) rot.put((3 * i + j) * c2::kRotW, c2::kRotW, qpose.M[std::size_t(i)][std::size_t(j)]);
    trans.put(i * c2::kTransW, c2::kTransW, qpose.T[std::size_t(i)]);
  }
  QueryInputs q{ja.bv(), jb.bv(), pa.bv(), pb.bv(), off.bv(), rot.bv(), trans.bv(), std::uint32_t(params.rule),
                std::uint32_t(params.stack_depth), {}, {}, axes};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) q.M[std::size_t(i)][std::size_t(j)] = qpose.M[std::size_t(i)][std::size_t(j)];
    q.T[std::size_t(i)] = qpose.T[std::size_t(i)];
  }

  std::vector<CosimTop*> tops;
  for (const RtlBlocks& c : configs) {
    CosimTop& t = top_of(c);
    t.arm(&image_f, &image_s, generation, q, record_trace);
    tops.push_back(&t);
  }
  // Each top pauses the simulation when its load and its query are done; the limit only bounds a
  // run that hangs.
  const sc_core::sc_time chunk(4.0 * (1 << 20), sc_core::SC_NS);
  for (bool loading = true; loading;) {
    loading = false;
    for (const CosimTop* t : tops) loading |= t->loading();
    if (loading) sc_core::sc_start(chunk);
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (bool all = false; !all;) {
    sc_core::sc_start(chunk);
    all = true;
    for (const CosimTop* t : tops) all &= t->finished();
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  for (std::size_t i = 0; i < tops.size(); ++i) {
    const CosimTop& t = *tops[i];
    CosimRun& r = runs[i];
    const auto counters = t.counters();
    for (std::uint64_t beat : t.stream()) r.result.contacts.push_back({std::uint32_t(beat), std::uint32_t(beat >> 32)});
    std::sort(r.result.contacts.begin(), r.result.contacts.end());
    model::ModelStats& st = r.result.stats;
    st = model::stats_from_counters(counters, c2::kK);
    st.stack_overflow = t.overflow();
    st.sim_seconds = secs;  // lockstep: the tops share the host time
    r.trace = t.trace();
  }
  return runs;
}

}  // namespace kdopcd::cosim
