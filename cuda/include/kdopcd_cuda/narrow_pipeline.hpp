#pragma once
// The narrow phase's orchestration, written once for both executors: the host backend runs it with
// HostExecutor (TBB threads, host memory; host_executor.hpp), the GPU backend with the device
// executor (kernels, device memory; cuda/device/device_executor.cuh). The steps it launches are
// the KDOPCD_HD functors of narrow.hpp, so the host backend's tests cover everything here but the
// executor itself.
//
// An executor provides, for trivially copyable T and a step functor F (operator()(uint64 i)):
//   Buffer<T> (default-constructible, movable; .get(), .size())     memory the steps can read
//   upload(Buffer<T>&, const std::vector<T>&)                        the vector's contents into the
//                                                                   buffer (grown as needed)
//   alloc(Buffer<T>&, n)                                            at least n elements (kept if
//                                                                   it has them)
//   zero(T* p, n), set_count(unsigned long long* p, value)          writes
//   for_each(n, F)                                                  F(i) for i < n (n known here)
//   for_each_counted<Balance>(const unsigned long long* count, max, F)
//                                                                   F(i) for i < *count <= max, where
//                                                                   *count is only known to the executor
//   known_count(const unsigned long long* count) -> std::optional   *count if the executor can read
//                                                                   it (the device executor: one
//                                                                   8-byte copy, which waits for
//                                                                   the launches before it)
//   kCheapCounts                                                    whether known_count is free (host
//                                                                   memory) or waits (device)
//   download(buffer, n) -> std::vector<T>                          copies back (synchronizes)
//   start_timer() / stop_timer() -> seconds                          the time between them
//   kMaxStackWords                                                  the binary-stack widths compiled
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kdopcd_cuda/narrow.hpp"
#include "kdopcd_cuda/narrow_io.hpp"

namespace kdopcd::cuda {

// Runs queries on one executor, keeping the scene's trees and meshes resident between them
// (uploaded again only when the scene's version changes).
template <class Exec>
class NarrowEngine {
 public:
  explicit NarrowEngine(Exec& exec) : exec_(exec) {}

  // The whole narrow phase of `query` on `scene`: every candidate once, sorted by the triangle
  // test into contacts and undecided, and every task's counters. The candidate buffer starts at
  // `initial_capacity` entries; if the query emits more, it runs once more with a buffer of exactly
  // the counted size (launches = 2).
  NarrowOutput run(const NarrowScene& scene, const NarrowQuery& query, std::uint64_t initial_capacity) {
    NarrowOutput out;
    const std::uint64_t task_count = query.tasks.size();
    out.counters.assign(task_count, TaskCounters{});
    if (task_count == 0) return out;

    exec_.start_timer();
    if (!resident_ || resident_scene_ != &scene || resident_->version != scene.version) upload(scene);
    Work& w = work_;
    if (query.poses.size() != task_count) throw std::invalid_argument("narrow phase: one pose per task");
    exec_.upload(w.tasks, query.tasks);
    exec_.upload(w.poses, query.poses);
    const std::uint64_t axis_count = task_count * std::uint64_t(scene.k);
    exec_.alloc(w.axes, axis_count);
    if (query.sat == SatKind::Fixed) exec_.alloc(w.qaxes, axis_count);
    exec_.alloc(w.placements, task_count);
    // Front levels hold fewer than `split` items before they double, so 2 split entries (or the
    // task count, level 0) always suffice: no front can overflow.
    const std::uint64_t front_capacity = std::max<std::uint64_t>(task_count, 2 * query.split);
    exec_.alloc(w.front_a, front_capacity);
    exec_.alloc(w.front_b, front_capacity);
    exec_.alloc(w.units, front_capacity);
    exec_.alloc(w.counts, kCounts);
    exec_.alloc(w.counters, task_count);
    out.upload = exec_.stop_timer();

    const Resident& r = *resident_;
    // The set-up: every task's axes and placement, on the backend.
    exec_.start_timer();
    exec_.zero(w.counts.get() + kSetupStatus, 1);
    const SetupView setup{orientation_view(r, scene), w.poses.get(), std::uint32_t(scene.k), query.sat == SatKind::Fixed,
                          w.axes.get(),               w.qaxes.get(), w.placements.get(), w.counts.get() + kSetupStatus};
    exec_.for_each(axis_count, SetupStep{setup});
    out.setup = exec_.stop_timer();

    NarrowView v{};
    v.nodes = r.nodes.get();
    v.coefficients = r.coefficients.get();
    v.trees = r.trees.get();
    v.qcoefficients = r.qcoefficients.get();
    v.qtrees = r.qtrees.get();
    v.tasks = w.tasks.get();
    v.axes = w.axes.get();
    v.qaxes = w.qaxes.get();
    v.k = scene.k;
    v.axes_per_pair = query.axes_per_pair;
    v.rule = query.rule;
    v.fixed = query.fixed;
    v.counters = w.counters.get();
    v.result_count = w.counts.get() + kCandidates;
    const Fronts fronts{front_capacity, w.front_a.get(), w.front_b.get(), w.units.get(), w.counts.get()};

    std::uint64_t capacity = std::max<std::uint64_t>(initial_capacity, 1);
    for (;;) {
      exec_.start_timer();
      exec_.alloc(w.candidates, capacity);
      exec_.alloc(w.contacts, capacity);
      exec_.alloc(w.undecided, capacity);
      exec_.zero(w.counts.get(), kSetupStatus);  // every count but the set-up's status
      exec_.zero(w.counters.get(), task_count);
      v.results = w.candidates.get();
      v.capacity = capacity;
      if (query.sat == SatKind::Fixed) traverse<SatKind::Fixed>(query, v, task_count, fronts);
      else traverse<SatKind::Float>(query, v, task_count, fronts);
      // The triangle test runs at once (on at most `capacity` candidates); should the buffer have
      // overflowed, its results are dropped with the run.
      const TriangleView t{r.vertices.get(), r.triangles.get(),       r.meshes.get(),
                           w.tasks.get(),    w.placements.get(),      w.candidates.get(),
                           w.counts.get() + kCandidates, capacity,   w.contacts.get(),
                           w.counts.get() + kContacts,   w.undecided.get(), w.counts.get() + kUndecided};
      const auto candidates = exec_.known_count(w.counts.get() + kCandidates);
      const std::uint64_t triangle_items = candidates ? std::min<std::uint64_t>(*candidates, capacity) : capacity;
      if (triangle_items > 0)
        exec_.template for_each_counted<Balance::Even>(w.counts.get() + kCandidates, triangle_items, TriangleStep{t});
      const std::vector<unsigned long long> c = exec_.download(w.counts, kCounts);
      out.kernels += exec_.stop_timer();
      out.setup_status = c[kSetupStatus];
      if (out.setup_status != 0) return out;  // the caller throws for it: nothing else is meaningful
      ++out.launches;
      out.final_capacity = capacity;
      if (c[kCandidates] <= capacity) {
        exec_.start_timer();
        out.candidates = c[kCandidates];
        out.units = c[kUnits];
        out.contacts = exec_.download(w.contacts, c[kContacts]);
        out.undecided = exec_.download(w.undecided, c[kUndecided]);
        out.counters = exec_.download(w.counters, task_count);
        out.download += exec_.stop_timer();
        return out;
      }
      if (out.launches > 1) throw std::logic_error("narrow phase: a run with the counted capacity overflowed");
      capacity = c[kCandidates];
    }
  }

 private:
  template <class T>
  using Buffer = typename Exec::template Buffer<T>;

  // Slots of the counts buffer.
  static constexpr std::size_t kFrontA = 0, kFrontB = 1, kUnits = 2, kCandidates = 3, kContacts = 4, kUndecided = 5,
                               kSetupStatus = 6, kCounts = 7;

  struct Resident {
    std::uint64_t version = 0;
    Buffer<BsNode> nodes;
    Buffer<double> coefficients;
    Buffer<TreeInfo> trees;
    Buffer<std::int64_t> qcoefficients;
    Buffer<std::int32_t> qtrees;
    Buffer<double> vertices;
    Buffer<std::int32_t> triangles;
    Buffer<MeshInfo> meshes;
    Buffer<double> directions, inverse_transposed;
    Buffer<std::int32_t> triples, own_triples;
    Buffer<std::uint32_t> cell_start;
    Buffer<std::uint8_t> cell_triples;
  };
  // Per-query inputs and working memory, kept between queries (grown as needed).
  struct Work {
    Buffer<PairTask> tasks;
    Buffer<QueryPoseView> poses;
    Buffer<AxisRecord> axes;
    Buffer<QuantizedAxis> qaxes;
    Buffer<Placement> placements;
    Buffer<FrontItem> front_a, front_b, units;
    Buffer<unsigned long long> counts;
    Buffer<TaskCounters> counters;
    Buffer<ResultEntry> candidates, contacts, undecided;
  };
  struct Fronts {
    std::uint64_t capacity;
    FrontItem *a, *b, *units;
    unsigned long long* counts;
  };

  void upload(const NarrowScene& scene) {
    if (!resident_) resident_.emplace();
    Resident& r = *resident_;
    r.version = scene.version;
    exec_.upload(r.nodes, scene.nodes);
    exec_.upload(r.coefficients, scene.coefficients);
    exec_.upload(r.trees, scene.trees);
    exec_.upload(r.qcoefficients, scene.qcoefficients);
    exec_.upload(r.qtrees, scene.qtrees);
    exec_.upload(r.vertices, scene.vertices);
    exec_.upload(r.triangles, scene.triangles);
    exec_.upload(r.meshes, scene.meshes);
    exec_.upload(r.directions, scene.directions);
    exec_.upload(r.triples, scene.triples);
    exec_.upload(r.inverse_transposed, scene.inverse_transposed);
    exec_.upload(r.own_triples, scene.own_triples);
    exec_.upload(r.cell_start, scene.cell_start);
    exec_.upload(r.cell_triples, scene.cell_triples);
    resident_scene_ = &scene;
  }

  static OrientationView orientation_view(const Resident& r, const NarrowScene& scene) {
    return OrientationView{scene.k,           scene.triple_count,      r.directions.get(), r.triples.get(),
                           r.inverse_transposed.get(), r.own_triples.get(), r.cell_start.get(), r.cell_triples.get()};
  }

  template <SatKind Sat>
  void traverse(const NarrowQuery& q, const NarrowView& v, std::uint64_t task_count, const Fronts& f) {
    switch (q.traversal) {
      case TraversalKind::ExplicitStack: return traverse<Sat, TraversalKind::ExplicitStack, 1>(q, v, task_count, f);
      case TraversalKind::DynamicStack: return traverse<Sat, TraversalKind::DynamicStack, 1>(q, v, task_count, f);
      case TraversalKind::PredictableStack:
        return traverse<Sat, TraversalKind::PredictableStack, 1>(q, v, task_count, f);
      case TraversalKind::Leaf: return traverse<Sat, TraversalKind::Leaf, 1>(q, v, task_count, f);
      case TraversalKind::Stackless: return traverse<Sat, TraversalKind::Stackless, 1>(q, v, task_count, f);
      case TraversalKind::PostIndexed: return traverse<Sat, TraversalKind::PostIndexed, 1>(q, v, task_count, f);
      case TraversalKind::BinaryStack: break;
    }
    if (q.stack_words == 1) {
      traverse<Sat, TraversalKind::BinaryStack, 1>(q, v, task_count, f);
    } else if constexpr (Exec::kMaxStackWords >= 2) {
      if (q.stack_words != 2) throw std::logic_error("narrow phase: binary stack of more than 2 words requested");
      traverse<Sat, TraversalKind::BinaryStack, 2>(q, v, task_count, f);
    } else {
      throw std::runtime_error("narrow phase: this backend has the one-word binary stack only");
    }
  }

  // Level 0 holds the root pairs; each level expands its items into the next (ExpandStep) until a
  // level is empty or at least `split` wide, whose items then become the units, each traversed
  // depth first by one thread (UnitStep). Each launch is sized to a bound of its level's items.
  // Where reading a count waits for the launches (the GPU), the first kReadLevels levels' counts
  // are read, so that a query whose front dies there (most separated and near poses) stops at
  // once; deeper levels are launched without waiting, each bounded by twice the previous bound
  // (a level at most doubles), an empty one costing one launch. Waiting at every level made deep
  // queries slower than those launches (a host round trip per level, on an H200).
  static constexpr int kReadLevels = 4;
  template <SatKind Sat, TraversalKind Traversal, int Words>
  void traverse(const NarrowQuery& q, const NarrowView& v, std::uint64_t task_count, const Fronts& f) {
    unsigned long long* current_count = f.counts + kFrontA;
    unsigned long long* next_count = f.counts + kFrontB;
    unsigned long long* unit_count = f.counts + kUnits;
    exec_.for_each(task_count, RootStep{v, f.a});
    exec_.set_count(current_count, task_count);
    FrontItem* current = f.a;
    FrontItem* next = f.b;
    std::uint64_t bound = task_count;  // at least the current level's items
    // Every level descends one node of one tree, so after `levels` levels every front is empty.
    for (int level = 0; level < q.levels; ++level) {
      if (Exec::kCheapCounts || level < kReadLevels) {
        const auto known = exec_.known_count(current_count);
        if (known) bound = *known;
      }
      if (bound == 0) break;
      exec_.zero(next_count, 1);
      const FrontLevel l{current, current_count, next, next_count, f.units, unit_count, q.split};
      exec_.template for_each_counted<Balance::Even>(current_count, bound, ExpandStep<Sat>{v, l});
      bound = std::min<std::uint64_t>(f.capacity, 2 * bound);
      std::swap(current, next);
      std::swap(current_count, next_count);
    }
    const auto units = exec_.known_count(unit_count);
    if (units && *units == 0) return;
    exec_.template for_each_counted<Balance::Uneven>(unit_count, units ? *units : f.capacity,
                                                     UnitStep<Traversal, Sat, Words>{v, f.units});
  }

  Exec& exec_;
  Work work_;
  std::optional<Resident> resident_;
  const NarrowScene* resident_scene_ = nullptr;
};

}  // namespace kdopcd::cuda
