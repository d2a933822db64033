// rtl_sim_bench: how fast the verilated v2 top simulates, on real scenes in the four pose classes.
// Per query it takes the clocks from the START write to DONE and the CPU time of the simulating
// thread over them (the engine's own figures, V2TopResult::clock_edges and sim_seconds), so a busy
// machine does not lower the rate. Each query repeats `--reps` times on the loaded trees (the
// first LOAD is not timed: it is a different workload, mostly idle clocks); the row keeps the
// median rate. Every query's contacts are checked against the reference's fixed backend, so a
// fast wrong answer cannot pass. Run by scripts/rtl-sim-bench.sh.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/rtl_v2_top_engine.hpp"

using namespace kdopcd;

int main(int argc, char** argv) {
  CLI::App app{"rtl_sim_bench: simulated clocks per second of the verilated v2 top (one core)"};
  std::string mesh_dir = "data/meshes";
  std::vector<std::string> scene_args{"cow:cow", "elephant:hand", "armadillo:armadillo"};
  int reps = 5;
  app.add_option("--meshes", mesh_dir, "folder of the .off meshes")->capture_default_str();
  app.add_option("--scene", scene_args, "first:second mesh names (repeatable)")->capture_default_str();
  app.add_option("--reps", reps, "runs of each query (the median rate is kept)")->capture_default_str()->check(
      CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);
  try {
    const Eigen::Quaterniond rotation(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
    const Vec3 direction(1, 0.5, 0.25);
    const rtl::V2TopParams params{};
    fmt::print("| scene | class | contacts | clocks | CPU ms (median) | Mcycles/s | equal to ref fixed |\n"
               "|---|---|---|---|---|---|---|\n");
    std::uint64_t all_clocks = 0;
    double all_seconds = 0;
    std::map<PoseClass, std::pair<std::uint64_t, double>> per_class;
    bool all_equal = true;
    for (const std::string& arg : scene_args) {
      const auto colon = arg.find(':');
      if (colon == std::string::npos) throw InputError("--scene wants first:second, got '" + arg + "'");
      const Mesh ma = load_mesh(mesh_dir + "/" + arg.substr(0, colon) + ".off");
      const Mesh mb = load_mesh(mesh_dir + "/" + arg.substr(colon + 1) + ".off");
      const DopTree ta(ma, 24, kHardwareTreeBuild), tb(mb, 24, kHardwareTreeBuild);
      for (const ClassifiedPose& cp : make_pose_classes(ta, tb, rotation, direction)) {
        const QueryResult fixed =
            collide(ta, tb, cp.pose, TraversalOptions{.rule = params.rule}, SatBackend::Fixed, params.fixed);
        std::vector<double> seconds;
        std::uint64_t clocks = 0;
        bool equal = true;
        rtl::simulate_v2_top(ta, tb, cp.pose, params);  // LOADs the pair when it is new (not timed)
        for (int r = 0; r < reps; ++r) {
          const rtl::V2TopResult res = rtl::simulate_v2_top(ta, tb, cp.pose, params);
          equal &= res.contacts == fixed.contacts && !res.overflow;
          clocks = res.clock_edges;
          seconds.push_back(res.sim_seconds);
        }
        std::sort(seconds.begin(), seconds.end());
        const double s = seconds[seconds.size() / 2];
        all_equal &= equal;
        all_clocks += clocks;
        all_seconds += s;
        per_class[cp.kind].first += clocks;
        per_class[cp.kind].second += s;
        fmt::print("| {} ({}) / {} ({}) | {} | {} | {} | {:.3f} | {:.3f} | {} |\n", arg.substr(0, colon),
                   ma.triangle_count(), arg.substr(colon + 1), mb.triangle_count(), to_string(cp.kind),
                   fixed.contacts.size(), clocks, s * 1e3, s > 0 ? double(clocks) / s * 1e-6 : 0.0,
                   equal ? "yes" : "NO");
      }
    }
    fmt::print("\n| class | clocks | CPU ms | Mcycles/s |\n|---|---|---|---|\n");
    for (PoseClass c : kPoseClasses) {
      const auto [clocks, s] = per_class[c];
      fmt::print("| {} | {} | {:.3f} | {:.3f} |\n", to_string(c), clocks, s * 1e3,
                 s > 0 ? double(clocks) / s * 1e-6 : 0.0);
    }
    fmt::print("| **all queries** | {} | {:.3f} | **{:.3f}** |\n", all_clocks, all_seconds * 1e3,
               all_seconds > 0 ? double(all_clocks) / all_seconds * 1e-6 : 0.0);
    if (!all_equal) {
      fmt::print(stderr, "rtl_sim_bench: the verilated top differs from the reference's fixed backend\n");
      return 1;
    }
  } catch (const InputError& e) {
    fmt::print(stderr, "rtl_sim_bench: error: {}\n", e.what());
    return 2;
  }
  return 0;
}
