// MultibodyWorld: broad phase, set-up, narrow phase (host or GPU), exact triangle tests.
#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <stdexcept>

#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/tri_tri.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cuda {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
double cpu_seconds_since(std::clock_t c0) { return double(std::clock() - c0) / CLOCKS_PER_SEC; }
}  // namespace

BroadPhase parse_broad_phase(const std::string& name) {
  if (name == "grid") return BroadPhase::Grid;
  if (name == "sweep") return BroadPhase::SortSweep;
  throw InputError(fmt::format("unknown broad phase '{}' (expected grid or sweep)", name));
}
const char* to_string(BroadPhase b) { return b == BroadPhase::Grid ? "grid" : "sweep"; }

MultibodyWorld::MultibodyWorld(const Scene& scene, int k) : k_(k) {
  std::map<std::string, std::uint32_t> index;
  for (const SceneObject& o : scene.objects) {
    auto [it, inserted] = index.emplace(o.mesh, std::uint32_t(meshes_.size()));
    if (inserted) meshes_.push_back(std::make_unique<Mesh>(load_mesh(o.mesh)));
    mesh_of_.push_back(it->second);
    poses_.push_back(o.pose);
  }
  build(k);
}

MultibodyWorld::MultibodyWorld(std::vector<Mesh> meshes, std::vector<std::uint32_t> mesh_of, std::vector<Pose> poses,
                               int k)
    : k_(k), mesh_of_(std::move(mesh_of)), poses_(std::move(poses)) {
  if (mesh_of_.size() != poses_.size()) throw std::invalid_argument("MultibodyWorld: mesh_of and poses differ in size");
  for (auto& m : meshes) meshes_.push_back(std::make_unique<Mesh>(std::move(m)));
  for (std::uint32_t m : mesh_of_)
    if (m >= meshes_.size()) throw std::invalid_argument("MultibodyWorld: mesh index out of range");
  build(k);
}

void MultibodyWorld::build(int k) {
  trees_.resize(meshes_.size());
  tbb::parallel_for(std::size_t(0), meshes_.size(),
                    [&](std::size_t i) { trees_[i] = std::make_unique<DopTree>(*meshes_[i], k, kHardwareTreeBuild); });
  std::vector<const DopTree*> trees;
  for (const auto& t : trees_) trees.push_back(t.get());
  narrow_ = std::make_unique<NarrowRunner>(std::move(trees));
}

void MultibodyWorld::set_poses(std::vector<Pose> poses) {
  if (poses.size() != poses_.size())
    throw std::invalid_argument(fmt::format("MultibodyWorld::set_poses: {} poses for {} objects", poses.size(),
                                            poses_.size()));
  poses_ = std::move(poses);
}

std::vector<Aabb> MultibodyWorld::world_boxes() const {
  std::vector<Aabb> boxes(poses_.size());
  tbb::parallel_for(std::size_t(0), poses_.size(), [&](std::size_t o) {
    // The vertices as place_vertices places them (place_vertex, the same doubles), without storing them.
    const std::vector<Vec3>& vertices = mesh_of(o).vertices;
    const Mat3 R = poses_[o].matrix();
    const Vec3& t = poses_[o].translation;
    Vec3 lo = vertices.empty() ? t : place_vertex(R, t, vertices[0]), hi = lo;
    for (const Vec3& x : vertices) {
      const Vec3 v = place_vertex(R, t, x);
      lo = lo.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
    for (int i = 0; i < 3; ++i) {
      boxes[o].lo[i] = lo[i];
      boxes[o].hi[i] = hi[i];
    }
  });
  // Widen every box by 1e-9 of the largest coordinate of the scene: the narrow phase works in
  // relative frames whose rounding differs from the world frame's by a few ulps of that size.
  double largest = 1;
  for (const Aabb& b : boxes)
    for (int i = 0; i < 3; ++i) largest = std::max({largest, std::abs(b.lo[i]), std::abs(b.hi[i])});
  const double margin = 1e-9 * largest;
  for (Aabb& b : boxes)
    for (int i = 0; i < 3; ++i) {
      b.lo[i] -= margin;
      b.hi[i] += margin;
    }
  return boxes;
}

MultibodyResult MultibodyWorld::run(const MultibodyOptions& options) const {
  validate(options);
  const auto t_total = std::chrono::steady_clock::now();
  const std::clock_t c_total = std::clock();
  MultibodyResult result;
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  const bool gpu = options.backend == Backend::Cuda;
  if (gpu) {
    std::string why;
    if (!device_available(&why)) throw InputError("--backend cuda: no usable GPU: " + why + " (use --backend host)");
  }

  // Boxes and broad phase.
  auto t0 = std::chrono::steady_clock::now();
  std::vector<Aabb> boxes;
  arena.execute([&] { boxes = world_boxes(); });
  result.times.boxes = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  result.broad_used = options.broad.value_or(gpu ? BroadPhase::Grid : BroadPhase::SortSweep);
  if (result.broad_used == BroadPhase::SortSweep) result.broad_pairs = sort_and_sweep(boxes);
  else if (gpu) result.broad_pairs = device_grid_pairs(boxes, make_grid(boxes));
  else result.broad_pairs = host_grid_pairs(boxes, make_grid(boxes));
  result.times.broad = seconds_since(t0);

  // Narrow phase: object b in object a's frame, as kdopcd::collide(tree_a, tree_b, relative) takes it.
  std::vector<TaskSpec> tasks(result.broad_pairs.size());
  arena.execute([&] {
    tbb::parallel_for(std::size_t(0), tasks.size(), [&](std::size_t i) {
      const auto [a, b] = result.broad_pairs[i];
      tasks[i] = TaskSpec{mesh_of_[a], mesh_of_[b], relative_pose(poses_[a], poses_[b]), a, b};
    });
  });
  NarrowRun narrow = narrow_->run(tasks, options);
  result.times.setup = narrow.setup;
  result.times.narrow = narrow.narrow;
  result.times.narrow_cpu = narrow.narrow_cpu;
  result.times.device_upload = narrow.device_upload;
  result.times.device_setup = narrow.device_setup;
  result.times.device_kernels = narrow.device_kernels;
  result.times.device_download = narrow.device_download;
  result.times.exact = narrow.exact;
  result.launches = narrow.launches;
  result.units = narrow.units;
  result.final_capacity = narrow.final_capacity;
  result.candidates = narrow.candidates;
  result.exact_fallbacks = narrow.exact_fallbacks;

  result.pairs.resize(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    PairResult& p = result.pairs[i];
    p.first_object = result.broad_pairs[i].first;
    p.second_object = result.broad_pairs[i].second;
    p.contacts = std::move(narrow.contacts[i]);
    const TaskCounters& o = narrow.counters[i];
    p.stats.pair_tests = o.pair_tests;
    p.stats.axis_tests = o.axis_tests;
    p.stats.leaf_pairs = o.leaf_pairs;
    p.stats.triangle_tests = o.leaf_pairs;
    p.stats.contacts = p.contacts.size();
    result.contacts += p.contacts.size();
    result.pair_tests += o.pair_tests;
    result.node_visits += o.node_visits;
    result.restarts += o.restarts;
    result.peak_pending_bytes = std::max<std::uint64_t>(result.peak_pending_bytes, o.peak_pending_bytes);
  }
  result.times.total = seconds_since(t_total);
  result.times.total_cpu = cpu_seconds_since(c_total);
  return result;
}

std::string format_pairs(const MultibodyResult& result) {
  std::string text;
  for (const PairResult& p : result.pairs) {
    if (p.contacts.empty()) continue;
    text += fmt::format("pair {} {} {}\n", p.first_object, p.second_object, p.contacts.size());
    for (const ContactPair& c : p.contacts) text += fmt::format("{} {}\n", c.first, c.second);
  }
  return text;
}

}  // namespace kdopcd::cuda
