// traversal_bench: every traversal of the narrow phase (docs/cuda.md §3) on the same workloads,
// for docs/traversals.md (scripts/traversal-bench.sh). Workloads: a small pair (cow/cow) and a
// large pair (armadillo/armadillo) in the four pose classes (make_pose_classes) and the large pair
// deep in overlap, one task per call as `kdop collide --device host` runs them, and a multibody
// scene of generated cows (every broad-phase pair, as `kdop multibody` runs it). Per workload and thread count the traversals'
// batches are interleaved, round after round in a rotating order, so that a shared machine's load
// falls on all of them alike; the median over rounds of the wall time per call is reported with
// the traversal's counters. Every traversal's contacts must equal the binary stack's (which the
// tests check against the reference): a difference fails the run (exit 1). With a usable GPU the
// same calls run on it too; without one the JSON says why.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "bench_timing.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd_cuda/multibody.hpp"
#include "kdopcd_cuda/narrow_runner.hpp"

using namespace kdopcd;
using namespace kdopcd::cuda;
using nlohmann::json;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// One workload: a call that runs it with the given options and returns its result's summary.
struct Summary {
  std::uint64_t contacts = 0, pair_tests = 0, node_visits = 0, restarts = 0, peak_pending_bytes = 0;
  std::vector<std::vector<ContactPair>> contact_sets;  // to compare traversals
};
struct Workload {
  std::string name, kind;  // kind: "small pair", "large pair", "multibody"
  std::string pose_class;  // pair workloads
  std::function<Summary(const NarrowOptions&)> run;
};

Summary summarize(const NarrowRun& r) {
  Summary s;
  for (std::size_t i = 0; i < r.counters.size(); ++i) {
    const TaskCounters& c = r.counters[i];
    s.contacts += r.contacts[i].size();
    s.pair_tests += c.pair_tests;
    s.node_visits += c.node_visits;
    s.restarts += c.restarts;
    s.peak_pending_bytes = std::max<std::uint64_t>(s.peak_pending_bytes, c.peak_pending_bytes);
  }
  s.contact_sets = r.contacts;
  return s;
}

Summary summarize(const MultibodyResult& r) {
  Summary s;
  s.contacts = r.contacts;
  s.pair_tests = r.pair_tests;
  s.node_visits = r.node_visits;
  s.restarts = r.restarts;
  s.peak_pending_bytes = r.peak_pending_bytes;
  for (const PairResult& p : r.pairs) s.contact_sets.push_back(p.contacts);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("traversal_bench: every narrow-phase traversal on pairs in four pose classes and a multibody scene");
  std::string mesh_dir = "data/meshes", out_path;
  int rounds = 5, cows = 512;
  double batch_ms = 60;
  app.add_option("--meshes", mesh_dir, "folder of cow.off and armadillo.off")->capture_default_str();
  app.add_option("--rounds", rounds, "interleaved rounds per workload and thread count")->capture_default_str();
  app.add_option("--batch-ms", batch_ms, "length of one timed batch")->capture_default_str();
  app.add_option("--cows", cows, "objects of the multibody scene (density 4, seed 1)")->capture_default_str();
  app.add_option("--json", out_path, "output JSON")->required();
  CLI11_PARSE(app, argc, argv);

  const Mesh cow = load_mesh(mesh_dir + "/cow.off");
  const Mesh armadillo = load_mesh(mesh_dir + "/armadillo.off");
  const DopTree cow_tree(cow, 24), armadillo_tree(armadillo, 24);
  const NarrowRunner small_runner({&cow_tree, &cow_tree}), large_runner({&armadillo_tree, &armadillo_tree});
  const Eigen::Quaterniond rotation(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
  const Vec3 direction(1, 0.5, 0.25);

  std::vector<Workload> workloads;
  for (auto [runner, tree, kind, name] :
       {std::tuple{&small_runner, &cow_tree, "small pair", "cow/cow"},
        std::tuple{&large_runner, &armadillo_tree, "large pair", "armadillo/armadillo"}}) {
    for (const ClassifiedPose& cp : make_pose_classes(*tree, *tree, rotation, direction)) {
      const std::vector<TaskSpec> tasks{TaskSpec{0, 1, cp.pose}};
      workloads.push_back(Workload{std::string(name) + " " + to_string(cp.kind), kind, to_string(cp.kind),
                                   [runner, tasks](const NarrowOptions& o) { return summarize(runner->run(tasks, o)); }});
    }
  }
  // A large pair deep in overlap (docs/cuda.md §7's armadillo pair: turned about 23 degrees about
  // y, moved by (0.05, 0.02, 0)): the pose classes' intersecting pose only just touches.
  {
    Pose deep;
    deep.rotation = Eigen::Quaterniond(0.98, 0, 0.199, 0).normalized();
    deep.translation = Vec3(0.05, 0.02, 0);
    const std::vector<TaskSpec> tasks{TaskSpec{0, 1, deep}};
    workloads.push_back(Workload{"armadillo/armadillo deep overlap", "large pair", "deep overlap",
                                 [runner = &large_runner, tasks](const NarrowOptions& o) {
                                   return summarize(runner->run(tasks, o));
                                 }});
  }
  const Scene scene = generate_scene(mesh_dir + "/cow.off", cow, cows, 4, 1);
  const MultibodyWorld world(scene, 24);
  workloads.push_back(Workload{fmt::format("{} cows", cows), "multibody", "",
                               [&world](const NarrowOptions& o) {
                                 MultibodyOptions m;
                                 static_cast<NarrowOptions&>(m) = o;
                                 return summarize(world.run(m));
                               }});

  std::string gpu_reason;
  const bool gpu = device_available(&gpu_reason);
  const int all_threads = int(std::thread::hardware_concurrency());
  std::vector<TraversalKind> traversals = all_traversals();
  json out = {{"threads_all", all_threads},
              {"gpu", gpu ? json("present") : json("none: " + gpu_reason)},
              {"rounds", rounds},
              {"batch_ms", batch_ms},
              {"workloads", json::array()}};
  int differ = 0;
  for (const Workload& w : workloads) {
    json jw = {{"name", w.name}, {"kind", w.kind}, {"pose_class", w.pose_class}, {"traversals", json::object()}};
    // Counters and contacts: once per traversal (they do not depend on the thread count).
    std::vector<Summary> summaries;
    for (TraversalKind t : traversals) {
      NarrowOptions o;
      o.traversal = t;
      o.threads = 1;
      summaries.push_back(w.run(o));
      const Summary& s = summaries.back();
      if (s.contact_sets != summaries.front().contact_sets) {
        fmt::print(stderr, "{}: {} gives other contacts than {}\n", w.name, to_string(t), to_string(traversals[0]));
        ++differ;
      }
      // From the roots (one traversal per task, no front): the pending memory a sequential
      // engine needs for the whole query, which is what an accelerator's pending set must hold.
      o.split = 0;
      const Summary whole = w.run(o);
      jw["traversals"][to_string(t)] = {{"contacts", s.contacts},
                                        {"peak_pending_bytes_from_roots", whole.peak_pending_bytes},
                                        {"pair_tests", s.pair_tests},
                                        {"node_visits", s.node_visits},
                                        {"restarts", s.restarts},
                                        {"peak_pending_bytes", s.peak_pending_bytes},
                                        {"reserved_pending_bytes", reserved_pending_bytes(t)}};
    }
    // Times: per thread count (and backend), the traversals interleaved.
    struct Config {
      std::string key;
      Backend backend;
      int threads;
    };
    std::vector<Config> configs{{"host_1", Backend::Host, 1}, {"host_all", Backend::Host, all_threads}};
    if (gpu) configs.push_back({"gpu", Backend::Cuda, 0});
    for (const Config& c : configs) {
      std::vector<std::int64_t> reps(traversals.size(), 0);
      std::vector<std::vector<double>> per_call(traversals.size()), cpu_per_call(traversals.size());
      for (int round = 0; round < rounds; ++round)
        for (std::size_t j = 0; j < traversals.size(); ++j) {
          const std::size_t i = (j + std::size_t(round)) % traversals.size();  // rotating order
          NarrowOptions o;
          o.traversal = traversals[i];
          o.threads = c.threads;
          o.backend = c.backend;
          auto call = [&] { return std::size_t(w.run(o).contacts); };
          if (reps[i] == 0) {  // calibrate: one batch of about batch_ms
            std::int64_t n = 1;
            double t = 0;
            for (;;) {
              const double t0 = bench::wall_seconds();
              for (std::int64_t r = 0; r < n; ++r) bench::g_sink = bench::g_sink + call();
              t = bench::wall_seconds() - t0;
              if (t >= batch_ms * 1e-3 || n >= (std::int64_t(1) << 20)) break;
              n = std::max<std::int64_t>(2 * n, std::int64_t(double(n) * 1.2 * batch_ms * 1e-3 / std::max(t, 1e-9)));
            }
            reps[i] = n;
          }
          const double t0 = bench::wall_seconds(), c0 = bench::thread_cpu_seconds();
          for (std::int64_t r = 0; r < reps[i]; ++r) bench::g_sink = bench::g_sink + call();
          per_call[i].push_back((bench::wall_seconds() - t0) / double(reps[i]));
          cpu_per_call[i].push_back((bench::thread_cpu_seconds() - c0) / double(reps[i]));
        }
      for (std::size_t i = 0; i < traversals.size(); ++i) {
        jw["traversals"][to_string(traversals[i])][c.key + "_seconds"] = median(per_call[i]);
        // With one host thread the calling thread does all the work (a TBB arena of one slot):
        // its CPU time leaves out the waits for a core on a shared machine.
        if (c.backend == Backend::Host && c.threads == 1)
          jw["traversals"][to_string(traversals[i])][c.key + "_cpu_seconds"] = median(cpu_per_call[i]);
      }
    }
    fmt::print("{}: done\n", w.name);
    out["workloads"].push_back(jw);
  }
  std::ofstream(out_path) << out.dump(1) << "\n";
  if (differ != 0) {
    fmt::print(stderr, "traversal_bench: {} traversal(s) gave other contacts\n", differ);
    return 1;
  }
  return 0;
}
