// accel_bench: the modelled accelerator against the reference's float query on this machine, in
// one run. Per scene and pose class: the reference's `kdopcd::collide` (float backend, one thread,
// trees built once; thread CPU time, median of batches) and the SystemC model's cycles, turned
// into time at the accelerator's clock; the speed-up is software time / modelled time. Every
// model run is checked against the reference's fixed backend (contacts, pair tests, leaf pairs,
// triangle tests), so a fast wrong answer cannot pass. Run by scripts/accel-bench.sh.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd_model/model.hpp"

using namespace kdopcd;

namespace {

// Seconds per call of f in thread CPU time (bench_timing.hpp).
template <class F>
double time_call(F&& f, double batch_ms, int batches) {
  return bench::time_call(bench::thread_cpu_seconds, std::forward<F>(f), batch_ms, batches);
}

struct Row {
  std::string scene;
  PoseClass kind;
  std::uint64_t pair_tests, triangle_tests, contacts, cycles;
  double software_s, accel_s;
  bool equal;
  double speedup() const { return software_s / accel_s; }
};

double geomean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += std::log(x);
  return v.empty() ? 0.0 : std::exp(s / double(v.size()));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"accel_bench: the modelled accelerator vs the reference's float query on one core"};
  std::string mesh_dir = "data/meshes";
  std::vector<std::string> scene_args{"cow:cow", "elephant:hand", "mushroom:couplingdown", "bunny00:turbine",
                                      "armadillo:ChineseDragon-10kv"};
  double batch_ms = 20;
  int batches = 5;
  std::string arch = "v2", csv_path;
  model::ModelParams p = model::v2_params();
  double clock_mhz = 0;
  app.add_option("--meshes", mesh_dir, "folder of the .off meshes")->capture_default_str();
  app.add_option("--scene", scene_args, "first:second mesh names (repeatable)")->capture_default_str();
  app.add_option("--batch-ms", batch_ms, "minimum milliseconds per timed batch")->capture_default_str();
  app.add_option("--batches", batches, "batches per measurement (median taken)")->capture_default_str();
  app.add_option("--arch", arch, "model architecture: v2 or paper")->capture_default_str();
  app.add_option("--clock-mhz", clock_mhz, "accelerator clock (default: v2 250, paper 100)");
  app.add_option("--sat-units", p.sat_units, "v2: SAT units")->capture_default_str();
  app.add_option("--pairs-in-flight", p.pairs_in_flight, "v2: pairs in flight")->capture_default_str();
  app.add_option("--tri-ii", p.triangle_ii, "v2: triangle unit initiation interval")->capture_default_str();
  app.add_option("--csv", csv_path, "also write the rows as CSV");
  CLI11_PARSE(app, argc, argv);
  try {
    if (arch == "paper") p = model::paper_params();
    else if (arch != "v2") throw InputError("--arch must be v2 or paper");
    p.clock_mhz = clock_mhz > 0 ? clock_mhz : (arch == "v2" ? 250.0 : 100.0);
    model::validate(p);

    const Eigen::Quaterniond rotation(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
    const Vec3 direction(1, 0.5, 0.25);
    std::vector<Row> rows;
    for (const std::string& arg : scene_args) {
      const auto colon = arg.find(':');
      if (colon == std::string::npos) throw InputError("--scene wants first:second, got '" + arg + "'");
      const Mesh ma = load_mesh(mesh_dir + "/" + arg.substr(0, colon) + ".off");
      const Mesh mb = load_mesh(mesh_dir + "/" + arg.substr(colon + 1) + ".off");
      const std::string scene = fmt::format("{} ({}) / {} ({})", arg.substr(0, colon), ma.triangle_count(),
                                            arg.substr(colon + 1), mb.triangle_count());
      fmt::print(stderr, "scene {}\n", scene);
      const DopTree ta(ma, 24), tb(mb, 24);
      for (const ClassifiedPose& cp : make_pose_classes(ta, tb, rotation, direction)) {
        const TraversalOptions options{};
        const double sw = time_call([&] { return collide(ta, tb, cp.pose, options).contacts.size(); }, batch_ms, batches);
        const model::ModelResult m = model::simulate(ta, tb, cp.pose, p);
        const QueryResult fixed = collide(ta, tb, cp.pose, options, SatBackend::Fixed, p.fixed);
        const bool equal = m.contacts == fixed.contacts && m.stats.pair_tests == fixed.stats.pair_tests &&
                           m.stats.leaf_pairs == fixed.stats.leaf_pairs &&
                           m.stats.triangle_tests == fixed.stats.triangle_tests && !m.stats.stack_overflow;
        rows.push_back({scene, cp.kind, m.stats.pair_tests, m.stats.triangle_tests, m.contacts.size(), m.stats.cycles,
                        sw, double(m.stats.cycles) / (p.clock_mhz * 1e6), equal});
      }
    }
    fmt::print("arch {} at {} MHz vs the reference's float query (one thread, this machine)\n\n", arch, p.clock_mhz);
    fmt::print("| scene | class | pair tests | triangle tests | contacts | cycles | accelerator us | software us | "
               "speed-up | equal to ref fixed |\n|---|---|---|---|---|---|---|---|---|---|\n");
    bool all_equal = true;
    std::map<PoseClass, std::vector<double>> per_class;
    std::vector<double> target;
    for (const Row& r : rows) {
      fmt::print("| {} | {} | {} | {} | {} | {} | {:.2f} | {:.2f} | {:.1f} | {} |\n", r.scene, to_string(r.kind),
                 r.pair_tests, r.triangle_tests, r.contacts, r.cycles, r.accel_s * 1e6, r.software_s * 1e6,
                 r.speedup(), r.equal ? "yes" : "NO");
      all_equal &= r.equal;
      per_class[r.kind].push_back(r.speedup());
      if (r.kind == PoseClass::Intersecting || r.kind == PoseClass::CloseProximity) target.push_back(r.speedup());
    }
    fmt::print("\n| class | geometric-mean speed-up |\n|---|---|\n");
    for (PoseClass c : kPoseClasses) fmt::print("| {} | {:.2f} |\n", to_string(c), geomean(per_class[c]));
    fmt::print("| **intersecting + close proximity** | **{:.2f}** |\n", geomean(target));
    if (!csv_path.empty()) {
      std::ofstream csv(csv_path);
      csv << "scene,class,pair_tests,triangle_tests,contacts,cycles,accel_s,software_s,speedup,equal\n";
      for (const Row& r : rows)
        csv << fmt::format("\"{}\",{},{},{},{},{},{:.9g},{:.9g},{:.4g},{}\n", r.scene, to_string(r.kind), r.pair_tests,
                           r.triangle_tests, r.contacts, r.cycles, r.accel_s, r.software_s, r.speedup(), r.equal);
      if (!csv.good()) throw InputError(csv_path + ": could not write");
    }
    if (!all_equal) {
      fmt::print(stderr, "accel_bench: the model differs from the reference's fixed backend\n");
      return 1;
    }
  } catch (const InputError& e) {
    fmt::print(stderr, "accel_bench: error: {}\n", e.what());
    return 2;
  }
  return 0;
}
