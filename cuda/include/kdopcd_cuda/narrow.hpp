#pragma once
// The narrow phase on flat arrays, as KDOPCD_HD steps that the CUDA kernels and the host backend's
// TBB loops run alike (docs/cuda.md §4). A query is a list of tasks (object pairs, or poses of one
// pair), each a tandem traversal of two trees. The traversal is split between threads in two
// phases, so that one large task fills a GPU as well as many small ones do:
//  1. the front: breadth first, one thread per node pair of a level (all tasks together), each
//     testing its pair and appending the overlapping pair's children to the next level;
//  2. once a level holds at least `split` node pairs, each of them is the root of one per-thread
//     depth-first traversal (binary stack or explicit stack) over its subtrees.
// split = 0 gives one thread per task (the binary-stack paper's scheme). Every DOP pair of the
// reference's traversal is tested exactly once either way, so pair tests, axis tests and leaf
// pairs are the reference's for the same trees and descent rule; only their order differs.
//
// Candidates (overlapping leaf pairs) take slots of one candidate buffer from an atomic counter;
// slots past the capacity are counted, not written, and the caller runs the query again with a
// buffer of the counted size, so nothing is lost (narrow_pipeline.hpp).
#include <cstdint>

#include "kdopcd/config.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd/tri_tri_filtered.hpp"
#include "kdopcd_cuda/atomics.hpp"
#include "kdopcd_cuda/escape_traversal.hpp"
#include "kdopcd_cuda/stack_traversals.hpp"
#include "kdopcd_cuda/traversal.hpp"

namespace kdopcd::cuda {

// One test axis of a task's SAT set-up (kdopcd::AxisSetup without L), 80 bytes.
struct AxisRecord {
  double PA[3];
  double PB[3];
  double p;
  std::int32_t jA[3];
  std::int32_t jB[3];
};

// Where a tree's nodes start in the concatenated node array (coefficients at node * k).
struct TreeInfo {
  std::int32_t node_offset;
  std::int32_t node_count;  // root = node_offset + node_count - 1 (globally: local root node_count - 1)
};

// One task: an object pair (first < second, object indices) or a pose of one pair; trees and
// quantized trees by index.
struct PairTask {
  std::uint32_t first_object;
  std::uint32_t second_object;
  std::uint32_t first_tree;
  std::uint32_t second_tree;
  std::uint32_t first_qtree;   // fixed SAT only: index into NarrowView::qtrees
  std::uint32_t second_qtree;
  std::uint32_t axis_offset;   // first of this task's k axes in NarrowView::axes / qaxes
  std::uint32_t unused = 0;
};

// Where a tree's mesh starts in the concatenated vertex and triangle arrays.
struct MeshInfo {
  std::int32_t vertex_offset;    // in vertices (3 doubles each)
  std::int32_t triangle_offset;  // in triangles (3 vertex indices each, local to the mesh)
};

// The second object of a task in the first one's frame, x -> R x + t (R row-major): the rotation
// matrix and translation the reference's place_vertices uses for the same relative pose.
struct Placement {
  double R[9];
  double t[3];
};

// The set-up of a query's tasks on the backend: per task and axis, the reference's one set-up code
// (make_query_axis of kdopcd/query_setup.hpp) on the task's pose view, giving the float SAT's
// AxisRecord and, for the fixed SAT, the axis table's QuantizedAxis, the host's doubles and
// integers bit for bit; axis 0 also writes the task's placement (the pose's rotation matrix and
// translation, which place_vertices uses). A status other than Ok sets bit (1 << status) of
// *status_bits (the host then throws for the lowest one) and leaves an all-zero axis.
struct SetupView {
  OrientationView set;
  const QueryPoseView* poses;  // per task
  std::uint32_t k;
  bool fixed;
  AxisRecord* axes;            // k per task
  QuantizedAxis* qaxes;        // k per task (fixed SAT only)
  Placement* placements;        // per task
  unsigned long long* status_bits;
};

// One vertex placed exactly as the reference's place_vertex rounds it (pose.hpp's place_point; no
// fused multiply-add: the CUDA build has --fmad=false).
KDOPCD_HD inline void place_second_vertex(const Placement& p, const double* x, double* out) {
  place_point(p.R, p.t, x, out);
}

struct SetupStep {
  SetupView v;
  KDOPCD_HD void operator()(std::uint64_t i) const {
    const std::uint64_t task = i / v.k;
    const int axis = int(i % v.k);
    const QueryPoseView& pose = v.poses[task];
    DoubleAxis d;
    QuantizedAxis q;
    const SetupStatus status = make_query_axis(v.set, pose, axis, &d, v.fixed ? &q : nullptr);
    if (status != SetupStatus::Ok) {
      // The run goes on without a sync and is then thrown away: an all-zero record keeps the
      // traversal's face indices in range meanwhile.
      atomic_or(v.status_bits, 1ull << int(status));
      d = DoubleAxis{};
      q = QuantizedAxis{};
    }
    AxisRecord& r = v.axes[i];
    for (int j = 0; j < 3; ++j) {
      r.PA[j] = d.PA[j];
      r.PB[j] = d.PB[j];
      r.jA[j] = d.jA[j];
      r.jB[j] = d.jB[j];
    }
    r.p = d.p;
    if (v.fixed) v.qaxes[i] = q;
    if (axis == 0) {
      Placement& p = v.placements[task];
      for (int e = 0; e < 9; ++e) p.R[e] = pose.M[e];
      for (int c = 0; c < 3; ++c) p.t[c] = pose.T[c];
    }
  }
};

// A candidate triangle pair of task `pair` (index into the task list).
struct ResultEntry {
  std::uint32_t pair;
  std::uint32_t first_triangle;
  std::uint32_t second_triangle;
};

// A node pair of one task: an entry of the traversal front, and the root of one per-thread
// traversal (a "unit"). Node indices are local to each tree's post-order layout.
struct FrontItem {
  std::uint32_t task;
  std::int32_t first;
  std::int32_t second;
};

// What one task's traversal did (the reference's TraversalStats), summed over every thread that
// worked on it.
struct TaskCounters {
  unsigned long long pair_tests;
  unsigned long long axis_tests;
  unsigned long long leaf_pairs;  // overlapping leaf pairs = candidates (reference: leaf_pairs)
  std::uint32_t status;           // TraversalStatus bits of every unit of the task
  std::uint32_t peak_pending_bytes;  // largest pending-work memory of one of its threads (max)
  unsigned long long node_visits;    // node records loaded, front and units (TraversalTally)
  unsigned long long restarts;       // escape-index walks begun from a subtree root
};

enum class SatKind : std::int32_t { Float = 0, Fixed = 1 };
// The per-thread traversal of a unit (docs/cuda.md §3): traversal.hpp, stack_traversals.hpp,
// escape_traversal.hpp.
enum class TraversalKind : std::int32_t {
  BinaryStack = 0,       // binary stack (one bit per descent)
  ExplicitStack = 1,     // fixed array of node pairs
  DynamicStack = 2,      // volume rule on a growing stack (Algorithm 2 of the stackless thesis)
  PredictableStack = 3,  // alternately stepping on a fixed array of right child pairs (Algorithm 3)
  Leaf = 4,              // the leaf algorithm: stackless, every leaf walks the other tree (Algorithm 1)
  Stackless = 5,         // alternately stepping without a stack, LevelUp one loaded level at a time
  PostIndexed = 6,       // the same, LevelUp by post-order index arithmetic
};
inline constexpr int kTraversalKinds = 7;

inline constexpr int kExplicitStackCapacity = 64;     // pairs; >= first depth + second depth + 2
inline constexpr int kPredictableStackCapacity = 64;  // right child pairs; >= first depth + second depth
inline constexpr int kDynamicLocalPairs = 32;         // thread-local part of the dynamic stack

// Pointers into device memory (kernels) or host memory (host backend).
struct NarrowView {
  const BsNode* nodes;
  const double* coefficients;          // node * k
  const TreeInfo* trees;
  const std::int64_t* qcoefficients;   // fixed SAT: quantized tree q's node i at (qtrees[q] + i) * k
  const std::int32_t* qtrees;          // node offset of each quantized tree in qcoefficients
  const PairTask* tasks;
  const AxisRecord* axes;
  const QuantizedAxis* qaxes;
  std::int32_t k;
  std::int32_t axes_per_pair;          // n <= k
  DescentRule rule;
  FixedParams fixed;
  TaskCounters* counters;              // per task, zeroed before the query
  ResultEntry* results;                // candidate buffer of `capacity` entries
  unsigned long long capacity;
  unsigned long long* result_count;    // candidates emitted (may exceed the capacity)
};

// One level of the breadth-first front: `items` holds *count node pairs still to be tested; the
// children of the overlapping ones go to `next`. A level of at least `split` items is wide
// enough to keep every thread busy: its items are copied to `units` instead (and *unit_count set),
// and every later level is empty.
struct FrontLevel {
  const FrontItem* items;
  const unsigned long long* count;
  FrontItem* next;
  unsigned long long* next_count;
  FrontItem* units;
  unsigned long long* unit_count;
  unsigned long long split;
};

// The SAT of one DOP pair, axes in set-up order, first separating axis ends it (as the reference).
struct FloatSat {
  const double* coefficients;
  const AxisRecord* axes;
  std::int32_t first_base, second_base;  // global node offsets
  int k, n;
  KDOPCD_HD bool separated(std::int32_t f, std::int32_t s, std::uint64_t& axis_tests) const {
    const double* b = coefficients + std::int64_t(first_base + f) * k;   // first object: "B"
    const double* a = coefficients + std::int64_t(second_base + s) * k;  // second object: "A"
    const int half = k / 2;
    for (int i = 0; i < n; ++i) {
      const AxisRecord& ax = axes[i];
      if (float_axis_diffs(a, b, half, ax.jA, ax.PA, ax.jB, ax.PB, ax.p).separated()) {
        axis_tests += std::uint64_t(i + 1);
        return true;
      }
    }
    axis_tests += std::uint64_t(n);
    return false;
  }
};

struct FixedSat {
  const std::int64_t* qcoefficients;
  const QuantizedAxis* axes;
  std::int32_t first_base, second_base;  // node offsets of the quantized trees
  int k, n;
  FixedParams fixed;
  KDOPCD_HD bool separated(std::int32_t f, std::int32_t s, std::uint64_t& axis_tests) const {
    const std::int64_t* b = qcoefficients + std::int64_t(first_base + f) * k;
    const std::int64_t* a = qcoefficients + std::int64_t(second_base + s) * k;
    const int half = k / 2;
    for (int i = 0; i < n; ++i) {
      if (fixed_axis_diffs<false>(a, b, half, axes[i], fixed).separated()) {
        axis_tests += std::uint64_t(i + 1);
        return true;
      }
    }
    axis_tests += std::uint64_t(n);
    return false;
  }
};

template <SatKind Sat>
KDOPCD_HD inline auto make_sat(const NarrowView& v, const PairTask& t) {
  if constexpr (Sat == SatKind::Float) {
    return FloatSat{v.coefficients, v.axes + t.axis_offset, v.trees[t.first_tree].node_offset,
                    v.trees[t.second_tree].node_offset, v.k, v.axes_per_pair};
  } else {
    return FixedSat{v.qcoefficients, v.qaxes + t.axis_offset, v.qtrees[t.first_qtree], v.qtrees[t.second_qtree],
                    v.k, v.axes_per_pair, v.fixed};
  }
}

// DopTree::size of a node from its k coefficients (the same sum, term for term, so the same
// double): what DescentRule::Larger compares.
KDOPCD_HD inline double dop_size(const double* c, int k) {
  double size = 0;
  for (int d = 0; d < k / 2; ++d) size += c[d] + c[d + k / 2];
  return size;
}

// The descent of node pair (f, s) of task t by the query's rule; the volume rule reads both
// nodes' sizes from the float coefficients (present for either SAT).
KDOPCD_HD inline bool descend_first(const NarrowView& v, const PairTask& t, std::int32_t f, const BsNode& na,
                                    std::int32_t s, const BsNode& nb) {
  if (v.rule != DescentRule::Larger) return split_first(na, nb, v.rule);
  const double* cf = v.coefficients + std::int64_t(v.trees[t.first_tree].node_offset + f) * v.k;
  const double* cs = v.coefficients + std::int64_t(v.trees[t.second_tree].node_offset + s) * v.k;
  return split_first_node(na.is_leaf(), nb.is_leaf(), na.depth, nb.depth, v.rule, dop_size(cf, v.k),
                          dop_size(cs, v.k));
}

KDOPCD_HD inline void emit_candidate(const NarrowView& v, std::uint32_t task, std::int32_t first_triangle,
                                     std::int32_t second_triangle) {
  const unsigned long long slot = atomic_reserve_grouped(v.result_count, 1);
  if (slot < v.capacity) v.results[slot] = ResultEntry{task, std::uint32_t(first_triangle), std::uint32_t(second_triangle)};
}

// Whether the items of a parallel loop cost about the same (front levels: one pair test each) or
// vary a lot (units: whole subtree traversals), so that an executor may hand them out dynamically.
enum class Balance { Even, Uneven };

// The steps below are the bodies of the narrow phase's parallel loops: step(i) for every index i
// of the loop's range, in any order and on any number of threads.

// Front level 0: the root pair of every task.
struct RootStep {
  NarrowView v;
  FrontItem* items;
  KDOPCD_HD void operator()(std::uint64_t i) const {
    const PairTask t = v.tasks[i];
    items[i] = FrontItem{std::uint32_t(i), v.trees[t.first_tree].node_count - 1, v.trees[t.second_tree].node_count - 1};
  }
};

// One item of a front level (see FrontLevel): test the pair; an overlapping leaf pair is a
// candidate, an overlapping inner pair puts its two children (descent rule) into the next level.
template <SatKind Sat>
struct ExpandStep {
  NarrowView v;
  FrontLevel level;
  KDOPCD_HD void operator()(std::uint64_t i) const {
    const unsigned long long n = *level.count;
    if (n >= level.split) {
      level.units[i] = level.items[i];
      if (i == 0) *level.unit_count = n;
      return;
    }
    const FrontItem item = level.items[i];
    const PairTask task = v.tasks[item.task];
    const BsNode na = v.nodes[v.trees[task.first_tree].node_offset + item.first];
    const BsNode nb = v.nodes[v.trees[task.second_tree].node_offset + item.second];
    std::uint64_t axis_tests = 0;
    const bool separated = make_sat<Sat>(v, task).separated(item.first, item.second, axis_tests);
    TaskCounters& counters = v.counters[item.task];
    // Grouped: the threads of a level of one large task all add to the same counters.
    atomic_add_grouped(&counters.pair_tests, 1);
    atomic_add_grouped(&counters.axis_tests, axis_tests);
    atomic_add_grouped(&counters.node_visits, 2);
    if (separated) return;
    if (na.is_leaf() && nb.is_leaf()) {
      atomic_add_grouped(&counters.leaf_pairs, 1);
      emit_candidate(v, item.task, na.triangle(), nb.triangle());
      return;
    }
    // Post-order: the right child of inner node x is x - 1 (layout.hpp).
    const unsigned long long slot = atomic_reserve_grouped(level.next_count, 2);
    if (descend_first(v, task, item.first, na, item.second, nb)) {
      level.next[slot] = FrontItem{item.task, na.left(), item.second};
      level.next[slot + 1] = FrontItem{item.task, item.first - 1, item.second};
    } else {
      level.next[slot] = FrontItem{item.task, item.first, nb.left()};
      level.next[slot + 1] = FrontItem{item.task, item.first, item.second - 1};
    }
  }
};

// One unit: the traversal below node pair units[i] on one thread, its counts added to its task's
// once at the end. Words: 64-bit words of the binary stack (ignored by the other traversals).
template <TraversalKind Traversal, SatKind Sat, int Words>
struct UnitStep {
  NarrowView v;
  const FrontItem* units;
  KDOPCD_HD void operator()(std::uint64_t i) const {
    const FrontItem item = units[i];
    const PairTask task = v.tasks[item.task];
    const BsNode* first = v.nodes + v.trees[task.first_tree].node_offset;
    const BsNode* second = v.nodes + v.trees[task.second_tree].node_offset;
    const auto sat = make_sat<Sat>(v, task);
    std::uint64_t pair_tests = 0, axis_tests = 0, leaf_pairs = 0;
    auto separated = [&](std::int32_t f, std::int32_t s) {
      ++pair_tests;
      return sat.separated(f, s, axis_tests);
    };
    auto leaf = [&](std::int32_t first_triangle, std::int32_t second_triangle) {
      ++leaf_pairs;
      emit_candidate(v, item.task, first_triangle, second_triangle);
    };
    TraversalTally tally;
    TraversalStatus status;
    if constexpr (Traversal == TraversalKind::BinaryStack) {
      status = binary_stack_traverse<Words>(first, item.first, second, item.second, v.rule, separated, leaf, tally);
    } else if constexpr (Traversal == TraversalKind::ExplicitStack) {
      status = explicit_stack_traverse<kExplicitStackCapacity>(first, item.first, second, item.second, v.rule,
                                                               separated, leaf, tally);
    } else if constexpr (Traversal == TraversalKind::DynamicStack) {
      auto volume_rule = [&](std::int32_t f, const BsNode& na, std::int32_t s, const BsNode& nb) {
        return descend_first(v, task, f, na, s, nb);
      };
      status = dynamic_stack_traverse<kDynamicLocalPairs>(first, item.first, second, item.second, volume_rule,
                                                          separated, leaf, tally);
    } else if constexpr (Traversal == TraversalKind::PredictableStack) {
      status = predictable_stack_traverse<kPredictableStackCapacity>(first, item.first, second, item.second,
                                                                     separated, leaf, tally);
    } else if constexpr (Traversal == TraversalKind::Leaf) {
      status = leaf_algorithm_traverse(first, item.first, second, item.second, separated, leaf, tally);
    } else if constexpr (Traversal == TraversalKind::Stackless) {
      status = alternating_stackless_traverse<Climb::Stepwise>(first, item.first, second, item.second, separated,
                                                               leaf, tally);
    } else {
      static_assert(Traversal == TraversalKind::PostIndexed);
      status = alternating_stackless_traverse<Climb::PostIndexed>(first, item.first, second, item.second, separated,
                                                                  leaf, tally);
    }
    TaskCounters& counters = v.counters[item.task];
    atomic_add(&counters.pair_tests, pair_tests);
    atomic_add(&counters.axis_tests, axis_tests);
    atomic_add(&counters.leaf_pairs, leaf_pairs);
    atomic_add(&counters.node_visits, tally.node_visits);
    atomic_add(&counters.restarts, tally.restarts);
    atomic_max(&counters.peak_pending_bytes, tally.peak_pending_bytes);
    if (status != TraversalStatus::Ok) atomic_or(&counters.status, std::uint32_t(status));
  }
};

// The triangle test of the candidates of a query (narrow_pipeline.hpp): the filtered exact test of
// tri_tri_filtered.hpp on the first triangle as stored and the second one placed (place_second_vertex),
// the doubles the reference's exact test reads. Every candidate lands in one list: contacts,
// undecided (for the host's exact test), or neither (disjoint). Both lists are as long as the
// candidate buffer, so neither can overflow.
struct TriangleView {
  const double* vertices;
  const std::int32_t* triangles;
  const MeshInfo* meshes;
  const PairTask* tasks;
  const Placement* placements;
  const ResultEntry* candidates;
  const unsigned long long* candidate_count;  // may exceed the capacity (the query then runs again)
  unsigned long long capacity;
  ResultEntry* contacts;
  unsigned long long* contact_count;
  ResultEntry* undecided;
  unsigned long long* undecided_count;
};

struct TriangleStep {
  TriangleView v;
  KDOPCD_HD Point3 vertex(const MeshInfo& m, std::uint32_t triangle, int corner) const {
    const std::int32_t index = v.triangles[3 * (std::int64_t(m.triangle_offset) + triangle) + corner];
    const double* x = v.vertices + 3 * (std::int64_t(m.vertex_offset) + index);
    return Point3{{x[0], x[1], x[2]}};
  }
  KDOPCD_HD void operator()(std::uint64_t i) const {
    if (i >= v.capacity) return;
    const ResultEntry e = v.candidates[i];
    const PairTask task = v.tasks[e.pair];
    const MeshInfo mf = v.meshes[task.first_tree];
    const MeshInfo ms = v.meshes[task.second_tree];
    const Placement& placement = v.placements[e.pair];
    Point3 a[3], b[3];
    for (int c = 0; c < 3; ++c) {
      a[c] = vertex(mf, e.first_triangle, c);
      const Point3 x = vertex(ms, e.second_triangle, c);
      place_second_vertex(placement, x.c, b[c].c);
    }
    const TriangleVerdict verdict = triangles_intersect_filtered(a[0], a[1], a[2], b[0], b[1], b[2]);
    if (verdict == TriangleVerdict::Intersect) v.contacts[atomic_reserve_grouped(v.contact_count, 1)] = e;
    else if (verdict == TriangleVerdict::Undecided) v.undecided[atomic_reserve_grouped(v.undecided_count, 1)] = e;
  }
};

}  // namespace kdopcd::cuda
