// broad_phase_bench: the CPU broad phases (sort and sweep in columns, and the GPU's grid algorithm
// on the host) on two kinds of multibody scene from the scene generator (kdop multibody-scene):
// objects spread out on a jittered grid with no two boxes overlapping (up to 10^6 objects), and a
// pile of objects at one spot where nearly every pair overlaps (up to 3 000 objects). Per size: the
// candidate pairs, wall and CPU seconds of each phase, and the time per object (spread) or per
// candidate pair (pile). Every pile's candidates are checked against brute force and every spread
// scene's against the other phase, so a fast wrong answer cannot pass (exit 1).
//   broad_phase_bench [--spread 10000,100000,1000000] [--pile 1000,2000,3000] [--threads N]
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <tbb/global_control.h>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <memory>
#include <vector>

#include "kdopcd/shapes.hpp"
#include "kdopcd_cuda/multibody.hpp"

using namespace kdopcd;
using namespace kdopcd::cuda;

namespace {

struct Timed {
  std::vector<ObjectPair> pairs;
  double wall = 0, cpu = 0;
};

template <class F>
Timed timed(F&& f) {
  const auto w0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  Timed t;
  t.pairs = f();
  t.cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  return t;
}

// World boxes of `objects` copies of a small sphere (80 triangles) as the scene generator places them.
std::vector<Aabb> scene_boxes(int objects, double density) {
  const Mesh sphere = make_sphere(1, 1);
  const Scene scene = generate_scene("sphere.off", sphere, objects, density, 1);
  std::vector<Pose> poses;
  poses.reserve(scene.objects.size());
  for (const auto& o : scene.objects) poses.push_back(o.pose);
  return MultibodyWorld({sphere}, std::vector<std::uint32_t>(poses.size(), 0), poses, 6).world_boxes();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"broad_phase_bench: CPU broad phases on spread-out scenes and piles"};
  std::vector<int> spread{10000, 100000, 1000000}, pile{1000, 2000, 3000};
  int threads = 0;
  app.add_option("--spread", spread, "object counts of the spread-out scenes (density 0.1: no box overlaps)")
      ->delimiter(',');
  app.add_option("--pile", pile, "object counts of the piles (density 1000: nearly all pairs overlap)")->delimiter(',');
  app.add_option("--threads", threads, "TBB threads (0 = all cores)");
  CLI11_PARSE(app, argc, argv);
  std::unique_ptr<tbb::global_control> limit;
  if (threads > 0) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
  bool ok = true;

  fmt::print("spread-out scenes (jittered grid, density 0.1): time per object\n");
  fmt::print("{:>9} {:>8} {:>10} {:>10} {:>11} {:>10} {:>10} {:>11}\n", "objects", "pairs", "sweep_s", "sweep_cpu",
             "sweep_ns/o", "grid_s", "grid_cpu", "grid_ns/o");
  for (int n : spread) {
    const auto boxes = scene_boxes(n, 0.1);
    const Timed sweep = timed([&] { return sort_and_sweep(boxes); });
    const Timed grid = timed([&] { return host_grid_pairs(boxes, make_grid(boxes)); });
    const bool same = sweep.pairs == grid.pairs;
    ok &= same;
    fmt::print("{:>9} {:>8} {:>10.3f} {:>10.3f} {:>11.1f} {:>10.3f} {:>10.3f} {:>11.1f}{}\n", n, sweep.pairs.size(),
               sweep.wall, sweep.cpu, sweep.wall / n * 1e9, grid.wall, grid.cpu, grid.wall / n * 1e9,
               same ? "" : "  DIFFERENT");
  }
  fmt::print("\npiles (density 1000): time per candidate pair; brute force checks every pile\n");
  fmt::print("{:>9} {:>9} {:>10} {:>10} {:>11} {:>10} {:>10} {:>11} {:>9}\n", "objects", "pairs", "sweep_s", "sweep_cpu",
             "sweep_ns/p", "grid_s", "grid_cpu", "grid_ns/p", "brute");
  for (int n : pile) {
    const auto boxes = scene_boxes(n, 1000);
    const Timed sweep = timed([&] { return sort_and_sweep(boxes); });
    const Timed grid = timed([&] { return host_grid_pairs(boxes, make_grid(boxes)); });
    const auto brute = brute_force_pairs(boxes);
    const bool same = sweep.pairs == brute && grid.pairs == brute;
    ok &= same;
    const double p = double(std::max<std::size_t>(brute.size(), 1));
    fmt::print("{:>9} {:>9} {:>10.3f} {:>10.3f} {:>11.1f} {:>10.3f} {:>10.3f} {:>11.1f} {:>9}\n", n, brute.size(),
               sweep.wall, sweep.cpu, sweep.wall / p * 1e9, grid.wall, grid.cpu, grid.wall / p * 1e9,
               same ? "equal" : "DIFFERENT");
  }
  return ok ? 0 : 1;
}
