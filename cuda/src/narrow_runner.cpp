// NarrowRunner: set-up, the narrow phase on the host or the GPU, the exact fallback, sorting.
#include "kdopcd_cuda/narrow_runner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <ctime>

#include "kdopcd/error.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tri_tri.hpp"
#include "kdopcd_cuda/contact_grouping.hpp"

namespace kdopcd::cuda {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

Backend parse_backend(const std::string& name) {
  if (name == "host") return Backend::Host;
  if (name == "cuda") return Backend::Cuda;
  throw InputError(fmt::format("unknown backend '{}' (expected cuda or host)", name));
}
namespace {
// Command-line names of the traversals, in TraversalKind order.
constexpr const char* kTraversalNames[kTraversalKinds] = {"binary",      "explicit",  "dynamic",     "predictable",
                                                          "leaf",        "stackless", "post-indexed"};
}  // namespace

TraversalKind parse_traversal(const std::string& name) {
  for (int t = 0; t < kTraversalKinds; ++t)
    if (name == kTraversalNames[t]) return TraversalKind(t);
  throw InputError(fmt::format("unknown traversal '{}' (expected one of: {})", name,
                               fmt::join(std::begin(kTraversalNames), std::end(kTraversalNames), ", ")));
}
const char* to_string(Backend b) { return b == Backend::Host ? "host" : "cuda"; }
const char* to_string(TraversalKind t) {
  const int i = int(t);
  return i >= 0 && i < kTraversalKinds ? kTraversalNames[i] : "unknown";
}

std::vector<TraversalKind> all_traversals() {
  std::vector<TraversalKind> out;
  for (int t = 0; t < kTraversalKinds; ++t) out.push_back(TraversalKind(t));
  return out;
}

bool alternating_order(TraversalKind t) {
  return t == TraversalKind::PredictableStack || t == TraversalKind::Stackless || t == TraversalKind::PostIndexed;
}

bool visits_reference_pairs(TraversalKind t) { return t != TraversalKind::Leaf; }

std::uint64_t reserved_pending_bytes(TraversalKind t, int stack_words) {
  switch (t) {
    case TraversalKind::BinaryStack: return 8 * std::uint64_t(stack_words);
    case TraversalKind::ExplicitStack: return kExplicitStackCapacity * 2 * sizeof(std::int32_t);
    case TraversalKind::DynamicStack: return kDynamicLocalPairs * sizeof(std::uint64_t);
    case TraversalKind::PredictableStack: return kPredictableStackCapacity * sizeof(std::uint64_t);
    case TraversalKind::Leaf:
    case TraversalKind::Stackless:
    case TraversalKind::PostIndexed: return 0;
  }
  return 0;
}

DescentRule descent_rule(const NarrowOptions& options) {
  return options.traversal == TraversalKind::DynamicStack ? DescentRule::Larger : options.rule;
}

std::uint64_t default_device_split(std::uint64_t tasks) {
  if (tasks >= kMaxSplit / kDeviceSplitPerTask) return kMaxSplit;  // also keeps the product from overflowing
  return std::clamp(std::bit_ceil(tasks * kDeviceSplitPerTask), kMinDeviceSplit, kMaxSplit);
}

void validate(const NarrowOptions& options) {
  if (options.sat == SatBackend::Exact)
    throw InputError("the exact SAT backend is the host reference only (use float or fixed)");
  if (options.sat == SatBackend::Fixed) validate_fixed_params(options.fixed);
  if (options.threads < 0 || options.threads > kMaxThreads)
    throw InputError(fmt::format("threads must lie in 0..{} (0 = all cores), got {}", kMaxThreads, options.threads));
  if (options.initial_capacity > kMaxInitialCapacity)
    throw InputError(fmt::format("the initial candidate capacity must lie in 0..{} (0 = automatic), got {}",
                                 kMaxInitialCapacity, options.initial_capacity));
  const int t = int(options.traversal);
  if (t < 0 || t >= kTraversalKinds) throw InputError(fmt::format("unknown traversal number {}", t));
  // The alternately stepping orders are the Shallower rule; the dynamic stack has the volume rule
  // of its own; the volume rule needs the node sizes only the dynamic stack's units read.
  if (alternating_order(options.traversal) && options.rule != DescentRule::Shallower)
    throw InputError(fmt::format("--traversal {} steps alternately (the shallower rule); --rule {} does not apply",
                                 to_string(options.traversal), to_string(options.rule)));
  if (options.traversal == TraversalKind::DynamicStack && options.rule != DescentRule::Shallower &&
      options.rule != DescentRule::Larger)
    throw InputError(fmt::format("--traversal dynamic descends into the larger DOP; --rule {} does not apply",
                                 to_string(options.rule)));
  if (options.traversal != TraversalKind::DynamicStack && options.rule == DescentRule::Larger)
    throw InputError("the larger-DOP rule is the dynamic stack's (--traversal dynamic)");
  if (options.split && *options.split > kMaxSplit)
    throw InputError(fmt::format("the front split must lie in 0..{} node pairs, got {}", kMaxSplit, *options.split));
}

struct NarrowRunner::Engines {
  HostNarrow host;
  std::unique_ptr<DeviceNarrow> device;  // made on the first GPU query
};

NarrowRunner::NarrowRunner(std::vector<const DopTree*> trees)
    : k_(trees.empty() ? 0 : trees.front()->k()), trees_(std::move(trees)), engines_(std::make_unique<Engines>()) {
  layouts_.resize(trees_.size());
  tbb::parallel_for(std::size_t(0), trees_.size(), [&](std::size_t t) { layouts_[t] = make_post_order_tree(*trees_[t]); });
  scene_.k = k_;
  for (std::size_t t = 0; t < trees_.size(); ++t) {
    if (trees_[t]->k() != k_) throw std::invalid_argument("NarrowRunner: trees of different k");
    const PostOrderTree& l = layouts_[t];
    const Mesh& mesh = trees_[t]->mesh();
    scene_.trees.push_back({std::int32_t(scene_.nodes.size()), std::int32_t(l.nodes.size())});
    scene_.nodes.insert(scene_.nodes.end(), l.nodes.begin(), l.nodes.end());
    scene_.coefficients.insert(scene_.coefficients.end(), l.coefficients.begin(), l.coefficients.end());
    scene_.meshes.push_back({std::int32_t(scene_.vertices.size() / 3), std::int32_t(scene_.triangles.size() / 3)});
    for (const Vec3& v : mesh.vertices) scene_.vertices.insert(scene_.vertices.end(), {v.x(), v.y(), v.z()});
    for (const auto& tri : mesh.triangles)
      for (const std::uint32_t v : tri) scene_.triangles.push_back(std::int32_t(v));
    if (scene_.vertices.size() / 3 > std::size_t(INT32_MAX) || scene_.triangles.size() / 3 > std::size_t(INT32_MAX))
      throw InputError("the meshes hold more than 2^31 vertices or triangles together");
  }
  if (!trees_.empty()) {  // the orientation set's arrays, for the set-up step on the backend
    const OrientationView set = trees_.front()->orientations().view();
    const std::size_t k = std::size_t(set.k), n = std::size_t(set.triple_count);
    scene_.triple_count = set.triple_count;
    scene_.directions.assign(set.directions, set.directions + 3 * k);
    scene_.triples.assign(set.triples, set.triples + 3 * n);
    scene_.inverse_transposed.assign(set.inverse_transposed, set.inverse_transposed + 9 * n);
    scene_.own_triples.assign(set.own_triples, set.own_triples + 3 * k);
    scene_.cell_start.assign(set.cell_start, set.cell_start + kCubeMapCells + 1);
    scene_.cell_triples.assign(set.cell_triples, set.cell_triples + set.cell_start[kCubeMapCells]);
  }
}

NarrowRunner::~NarrowRunner() = default;

std::uint32_t NarrowRunner::quantized_tree(std::uint32_t t, double s, int b) const {
  const auto [it, inserted] = quantized_index_.emplace(std::make_tuple(t, s, b), std::uint32_t(scene_.qtrees.size()));
  if (inserted) {
    const QuantizedTree q(*trees_[t], s, b);
    scene_.qtrees.push_back(std::int32_t(scene_.qcoefficients.size() / std::size_t(k_)));
    const auto post =
        reorder_to_post_order<std::int64_t>(layouts_[t].nodes, std::span<const std::int64_t>(q.all_coefficients()), k_);
    scene_.qcoefficients.insert(scene_.qcoefficients.end(), post.begin(), post.end());
    ++scene_.version;
  }
  return it->second;
}

NarrowRun NarrowRunner::run(const std::vector<TaskSpec>& specs, const NarrowOptions& options) const {
  validate(options);
  const bool gpu = options.backend == Backend::Cuda;
  NarrowRun out;
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);

  // Set-up on the host: per task, its trees and the pose view of its relative pose (rotation
  // matrix, translation, centred translation, scale: make_query_pose_view). The axes and the
  // placement are made from it on the backend (SetupStep: make_query_axis, as make_query_setup).
  auto t0 = std::chrono::steady_clock::now();
  const std::size_t n = specs.size();
  NarrowQuery query;
  query.axes_per_pair = options.axes <= 0 ? k_ : std::min(options.axes, k_);
  query.rule = descent_rule(options);
  query.sat = options.sat == SatBackend::Fixed ? SatKind::Fixed : SatKind::Float;
  query.fixed = options.fixed;
  query.traversal = options.traversal;
  query.tasks.resize(n);
  query.poses.resize(n);
  // Fixed SAT: one quantized copy of a tree per scene scale it is used at (scene_scale of the pair).
  std::vector<double> scale(n, 1.0);
  int words = 1, deepest_path = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const TaskSpec& spec = specs[i];
    if (spec.first_tree >= trees_.size() || spec.second_tree >= trees_.size())
      throw std::invalid_argument("NarrowRunner::run: tree index out of range");
    PairTask& task = query.tasks[i];
    task = PairTask{spec.first_object, spec.second_object, spec.first_tree, spec.second_tree, 0, 0,
                    std::uint32_t(i * std::size_t(k_)), 0};
    const int depths[2] = {layouts_[spec.first_tree].max_depth, layouts_[spec.second_tree].max_depth};
    // Only the binary stack has a depth bound known before the run (the fixed stacks report an
    // overflow when they meet one; the stackless and dynamic orders have none).
    const int w = options.traversal == TraversalKind::BinaryStack ? required_stack_words(depths[0], depths[1]) : 1;
    if (w == 0)
      throw InputError(fmt::format("task {}: trees too deep for the binary stack ({} + {} levels)", i, depths[0],
                                   depths[1]));
    words = std::max(words, w);
    deepest_path = std::max(deepest_path, depths[0] + depths[1]);
    if (query.sat == SatKind::Fixed) {
      scale[i] = scene_scale(*trees_[spec.first_tree], *trees_[spec.second_tree]);
      task.first_qtree = quantized_tree(spec.first_tree, scale[i], options.fixed.b);
      task.second_qtree = quantized_tree(spec.second_tree, scale[i], options.fixed.b);
    }
  }
  query.stack_words = words;
  query.levels = deepest_path + 2;
  query.split = options.split.value_or(gpu ? default_device_split(n)
                                            : kHostSplitPerThread * std::uint64_t(arena.max_concurrency()));
  arena.execute([&] {
    tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) {
      const TaskSpec& spec = specs[i];
      const DopTree& first = *trees_[spec.first_tree];
      const DopTree& second = *trees_[spec.second_tree];
      // The float SAT reads M and T; the fixed one also T_c (the quantized trees are in their centred
      // frames) at the scene scale, whose exactly rounded sum is host code (centred_translation).
      if (query.sat == SatKind::Fixed) {
        query.poses[i] = make_query_pose_view(spec.relative, first.centre(), second.centre(), scale[i], options.fixed);
      } else {
        QueryPoseView& q = query.poses[i];
        q = QueryPoseView{};
        const Mat3 M = spec.relative.matrix();
        for (int r = 0; r < 3; ++r) {
          for (int c = 0; c < 3; ++c) q.M[3 * r + c] = M(r, c);
          q.T[r] = spec.relative.translation[r];
        }
        q.s = 1;
        q.fixed = options.fixed;
      }
    });
  });
  out.setup = seconds_since(t0);

  // Narrow phase: traversal and filtered triangle tests on the backend.
  t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  // The candidate buffer: as asked, else 256 per task (at least 2^16), or a quarter more than the
  // previous call emitted (frames of a simulation change little), so that a second run is rare.
  const std::uint64_t capacity =
      options.initial_capacity > 0
          ? options.initial_capacity
          : std::min(kMaxInitialCapacity, std::max({std::uint64_t(1) << 16, 256 * std::uint64_t(n),
                                                    last_candidates_ + last_candidates_ / 4}));
  NarrowOutput narrow;
  if (gpu) {
    std::string why;
    if (!device_available(&why)) throw InputError("--backend cuda: no usable GPU: " + why + " (use --backend host)");
    if (query.traversal == TraversalKind::BinaryStack && query.stack_words != 1)
      throw InputError("--backend cuda: trees too deep for the one-word binary stack (use --backend host)");
    if (!engines_->device) engines_->device = std::make_unique<DeviceNarrow>();
    narrow = engines_->device->run(scene_, query, capacity);
  } else {
    narrow = engines_->host.run(scene_, query, capacity, options.threads);
  }
  if (narrow.setup_status != 0) {
    for (int bit = 1; bit < 64; ++bit)
      if (narrow.setup_status >> bit & 1) throw_setup_status(SetupStatus(bit), "narrow phase set-up");
  }
  check_outcomes(narrow);
  out.narrow = seconds_since(t0);
  out.narrow_cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  out.device_upload = narrow.upload;
  out.device_setup = narrow.setup;
  out.device_kernels = narrow.kernels;
  out.device_download = narrow.download;
  out.launches = narrow.launches;
  out.units = narrow.units;
  out.final_capacity = narrow.final_capacity;
  out.candidates = narrow.candidates;
  last_candidates_ = narrow.candidates;
  out.exact_fallbacks = narrow.undecided.size();
  out.counters = std::move(narrow.counters);

  // The candidates the filters left undecided get the reference's exact test on the same doubles
  // (place_vertex of the same pose); then every task's contacts are sorted.
  t0 = std::chrono::steady_clock::now();
  std::vector<ResultEntry> contacts = std::move(narrow.contacts);
  std::vector<std::uint8_t> hit(narrow.undecided.size(), 0);
  arena.execute([&] {
    tbb::parallel_for(std::size_t(0), narrow.undecided.size(), [&](std::size_t u) {
      const ResultEntry& e = narrow.undecided[u];
      const TaskSpec& spec = specs[e.pair];
      const Mesh& mf = trees_[spec.first_tree]->mesh();
      const Mesh& ms = trees_[spec.second_tree]->mesh();
      const Mat3 R = spec.relative.matrix();
      const Vec3& t = spec.relative.translation;
      const auto& tri = ms.triangles[e.second_triangle];
      hit[u] = triangles_intersect(mf.corner(e.first_triangle, 0), mf.corner(e.first_triangle, 1),
                                   mf.corner(e.first_triangle, 2), place_vertex(R, t, ms.vertices[tri[0]]),
                                   place_vertex(R, t, ms.vertices[tri[1]]), place_vertex(R, t, ms.vertices[tri[2]]));
    });
  });
  for (std::size_t u = 0; u < hit.size(); ++u)
    if (hit[u]) contacts.push_back(narrow.undecided[u]);
  // Then every task's contacts grouped and sorted (on the query's threads).
  arena.execute([&] { out.contacts = group_contacts_by_task(contacts, n); });
  out.exact = seconds_since(t0);
  return out;
}

}  // namespace kdopcd::cuda
