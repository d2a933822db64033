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

Backend parse_backend(const std::string& name) {
  if (name == "host") return Backend::Host;
  if (name == "cuda") return Backend::Cuda;
  throw InputError(fmt::format("unknown backend '{}' (expected cuda or host)", name));
}
BroadPhase parse_broad_phase(const std::string& name) {
  if (name == "grid") return BroadPhase::Grid;
  if (name == "sweep") return BroadPhase::SortSweep;
  throw InputError(fmt::format("unknown broad phase '{}' (expected grid or sweep)", name));
}
TraversalKind parse_traversal(const std::string& name) {
  if (name == "binary") return TraversalKind::BinaryStack;
  if (name == "explicit") return TraversalKind::ExplicitStack;
  throw InputError(fmt::format("unknown traversal '{}' (expected binary or explicit)", name));
}
const char* to_string(Backend b) { return b == Backend::Host ? "host" : "cuda"; }
const char* to_string(BroadPhase b) { return b == BroadPhase::Grid ? "grid" : "sweep"; }
const char* to_string(TraversalKind t) { return t == TraversalKind::BinaryStack ? "binary" : "explicit"; }

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
  layouts_.resize(meshes_.size());
  tbb::parallel_for(std::size_t(0), meshes_.size(), [&](std::size_t i) {
    trees_[i] = std::make_unique<DopTree>(*meshes_[i], k);
    layouts_[i] = make_post_order_tree(*trees_[i]);
  });
}

std::vector<Aabb> MultibodyWorld::world_boxes() const {
  std::vector<Aabb> boxes(poses_.size());
  tbb::parallel_for(std::size_t(0), poses_.size(), [&](std::size_t o) {
    const std::vector<Vec3> placed = place_vertices(mesh_of(o), poses_[o]);
    Vec3 lo = placed.empty() ? poses_[o].translation : placed[0], hi = lo;
    for (const Vec3& v : placed) {
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
  if (options.sat == SatBackend::Exact)
    throw InputError("multibody: the exact SAT backend is the host reference only (use float or fixed)");
  if (options.sat == SatBackend::Fixed) validate_fixed_params(options.fixed);
  if (options.threads < 0 || options.threads > kMaxThreads)
    throw InputError(fmt::format("multibody: threads must lie in 0..{} (0 = all cores), got {}", kMaxThreads,
                                 options.threads));
  if (options.initial_capacity > kMaxInitialCapacity)
    throw InputError(fmt::format("multibody: initial result capacity must lie in 0..{} candidates (0 = automatic), "
                                 "got {}",
                                 kMaxInitialCapacity, options.initial_capacity));
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

  // Set-up: per pair, the relative pose and its SAT set-up (make_sat_setup, as kdopcd::collide).
  t0 = std::chrono::steady_clock::now();
  const std::size_t pair_count = result.broad_pairs.size();
  NarrowInput in;
  in.k = k_;
  in.axes_per_pair = options.axes <= 0 ? k_ : std::min(options.axes, k_);
  in.rule = options.rule;
  in.sat = options.sat == SatBackend::Fixed ? SatKind::Fixed : SatKind::Float;
  in.fixed = options.fixed;
  in.traversal = options.traversal;
  for (std::size_t m = 0; m < meshes_.size(); ++m) {
    const PostOrderTree& t = layouts_[m];
    in.trees.push_back({std::int32_t(in.nodes.size()), std::int32_t(t.nodes.size())});
    in.nodes.insert(in.nodes.end(), t.nodes.begin(), t.nodes.end());
    in.coefficients.insert(in.coefficients.end(), t.coefficients.begin(), t.coefficients.end());
  }
  std::vector<Pose> relative(pair_count);
  in.tasks.resize(pair_count);
  in.axes.resize(pair_count * std::size_t(k_));
  if (in.sat == SatKind::Fixed) in.qaxes.resize(pair_count * std::size_t(k_));
  // Fixed SAT: one quantized copy of a tree per scene scale it is used at (scene_scale of the pair).
  std::map<std::pair<std::uint32_t, double>, std::uint32_t> qtree_index;
  std::vector<double> pair_scale(pair_count, 1.0);
  int words = 1;
  for (std::size_t i = 0; i < pair_count; ++i) {
    const auto [a, b] = result.broad_pairs[i];
    PairTask& task = in.tasks[i];
    task = PairTask{a, b, mesh_of_[a], mesh_of_[b], 0, 0, std::uint32_t(i * std::size_t(k_)), 0};
    const int w = required_stack_words(layouts_[mesh_of_[a]].max_depth, layouts_[mesh_of_[b]].max_depth);
    if (w == 0) throw InputError(fmt::format("multibody: trees of objects {} and {} too deep for the binary stack", a, b));
    words = std::max(words, w);
    if (in.sat == SatKind::Fixed) {
      const double s = scene_scale(*trees_[mesh_of_[a]], *trees_[mesh_of_[b]]);
      pair_scale[i] = s;
      for (const std::uint32_t m : {mesh_of_[a], mesh_of_[b]}) {
        auto [it, inserted] = qtree_index.emplace(std::make_pair(m, s), std::uint32_t(in.qtrees.size()));
        if (inserted) {
          const QuantizedTree q(*trees_[m], s, options.fixed.b);
          in.qtrees.push_back(std::int32_t(in.qcoefficients.size() / std::size_t(k_)));
          const auto post = reorder_to_post_order<std::int64_t>(layouts_[m].nodes, std::span<const std::int64_t>(q.all_coefficients()), k_);
          in.qcoefficients.insert(in.qcoefficients.end(), post.begin(), post.end());
        }
      }
      task.first_qtree = qtree_index.at({mesh_of_[a], s});
      task.second_qtree = qtree_index.at({mesh_of_[b], s});
    }
  }
  in.stack_words = words;
  arena.execute([&] {
    tbb::parallel_for(std::size_t(0), pair_count, [&](std::size_t i) {
      const auto [a, b] = result.broad_pairs[i];
      relative[i] = relative_pose(poses_[a], poses_[b]);
      const SatSetup setup = make_sat_setup(trees_[mesh_of_[a]]->orientations(), relative[i]);
      for (int x = 0; x < k_; ++x) {
        const AxisSetup& s = setup.axes[std::size_t(x)];
        AxisRecord& r = in.axes[i * std::size_t(k_) + std::size_t(x)];
        for (int j = 0; j < 3; ++j) {
          r.PA[j] = s.PA[j];
          r.PB[j] = s.PB[j];
          r.jA[j] = s.jA[j];
          r.jB[j] = s.jB[j];
        }
        r.p = s.p;
      }
      if (in.sat == SatKind::Fixed) {
        // The quantized trees are in their centred frames: p = L . T_c of the centred pose.
        const Pose centred = centred_pose(*trees_[mesh_of_[a]], *trees_[mesh_of_[b]], relative[i]);
        const auto q = quantize_setup(make_sat_setup(trees_[mesh_of_[a]]->orientations(), centred), pair_scale[i],
                                      options.fixed);
        std::copy(q.begin(), q.end(), in.qaxes.begin() + std::ptrdiff_t(i * std::size_t(k_)));
      }
    });
  });
  result.times.setup = seconds_since(t0);

  // Narrow phase.
  t0 = std::chrono::steady_clock::now();
  const std::clock_t c_narrow = std::clock();
  const std::uint64_t capacity =
      options.initial_capacity > 0 ? options.initial_capacity : std::max<std::uint64_t>(4096, 256 * pair_count);
  NarrowOutput narrow;
  if (gpu) {
    if (in.traversal == TraversalKind::BinaryStack && in.stack_words != 1)
      throw InputError("--backend cuda: trees too deep for the one-word binary stack (use --backend host)");
    narrow = device_narrow(in, capacity);
  } else {
    narrow = host_narrow(in, capacity, options.threads);
  }
  check_outcomes(narrow);
  result.times.narrow = seconds_since(t0);
  result.times.narrow_cpu = cpu_seconds_since(c_narrow);
  result.times.device_upload = narrow.upload;
  result.times.device_kernels = narrow.kernels;
  result.times.device_download = narrow.download;
  result.launches = narrow.launches;
  result.final_capacity = narrow.final_capacity;
  result.candidates = narrow.results.size();

  // Exact triangle tests on the host (the reference's triangles_intersect on place_vertices of
  // the relative pose: the same doubles kdopcd::collide tests).
  t0 = std::chrono::steady_clock::now();
  std::vector<ResultEntry>& candidates = narrow.results;
  std::vector<std::size_t> group_start(pair_count + 1, 0);
  std::vector<std::vector<ContactPair>> contacts(pair_count);
  arena.execute([&] {
    tbb::parallel_sort(candidates.begin(), candidates.end(), [](const ResultEntry& x, const ResultEntry& y) {
      if (x.pair != y.pair) return x.pair < y.pair;
      if (x.first_triangle != y.first_triangle) return x.first_triangle < y.first_triangle;
      return x.second_triangle < y.second_triangle;
    });
    for (const ResultEntry& e : candidates) ++group_start[e.pair + 1];
    for (std::size_t i = 0; i < pair_count; ++i) group_start[i + 1] += group_start[i];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pair_count, 1), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        if (group_start[i] == group_start[i + 1]) continue;
        const auto [a, b] = result.broad_pairs[i];
        const Mesh& mf = mesh_of(a);
        const Mesh& ms = mesh_of(b);
        const std::vector<Vec3> placed = place_vertices(ms, relative[i]);
        for (std::size_t c = group_start[i]; c < group_start[i + 1]; ++c) {
          const ResultEntry& e = candidates[c];
          const auto& t = ms.triangles[e.second_triangle];
          if (triangles_intersect(mf.corner(e.first_triangle, 0), mf.corner(e.first_triangle, 1),
                                  mf.corner(e.first_triangle, 2), placed[t[0]], placed[t[1]], placed[t[2]]))
            contacts[i].push_back({e.first_triangle, e.second_triangle});
        }
      }
    });
  });
  result.times.exact = seconds_since(t0);

  result.pairs.resize(pair_count);
  for (std::size_t i = 0; i < pair_count; ++i) {
    PairResult& p = result.pairs[i];
    p.first_object = result.broad_pairs[i].first;
    p.second_object = result.broad_pairs[i].second;
    p.contacts = std::move(contacts[i]);
    const PairOutcome& o = narrow.outcomes[i];
    p.stats.pair_tests = o.pair_tests;
    p.stats.axis_tests = o.axis_tests;
    p.stats.leaf_pairs = o.emitted;
    p.stats.triangle_tests = o.emitted;
    p.stats.contacts = p.contacts.size();
    result.contacts += p.contacts.size();
    result.pair_tests += o.pair_tests;
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
