#pragma once
// The narrow phase of one object pair on flat arrays: the body of the CUDA kernels (one thread per
// object pair) and of the host backend (one TBB task per object pair), shared as KDOPCD_HD code.
//
// Result buffer protocol (docs/cuda.md §4): every overlapping leaf pair (a candidate triangle pair)
// takes a slot from one 64-bit atomic counter shared by all pairs of a launch; a slot below the
// capacity is written, a slot at or above it is only counted. Since the counter only grows, the
// stored candidates of one pair are always a prefix of its (deterministic) candidate sequence, so
// each pair records how many it emitted and how many are stored. When the counter ends above the
// capacity, only the pairs with stored < emitted are launched again, into a buffer of exactly the
// missing size, each skipping the prefix it already stored. No candidate is lost or duplicated.
#include <cstdint>

#include "kdopcd/config.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd_cuda/traversal.hpp"

#if !defined(__CUDA_ARCH__)
#include <atomic>
#endif

namespace kdopcd::cuda {

// One test axis of a pair's SAT set-up (kdopcd::AxisSetup without L), 80 bytes.
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

// One object pair: first < second (object indices); trees and quantized trees by index.
struct PairTask {
  std::uint32_t first_object;
  std::uint32_t second_object;
  std::uint32_t first_tree;
  std::uint32_t second_tree;
  std::uint32_t first_qtree;   // fixed SAT only: index into NarrowView::qtrees
  std::uint32_t second_qtree;
  std::uint32_t axis_offset;   // first of this pair's k axes in NarrowView::axes / qaxes
  std::uint32_t unused = 0;
};

// A candidate triangle pair of object pair `pair` (index into the task list).
struct ResultEntry {
  std::uint32_t pair;
  std::uint32_t first_triangle;
  std::uint32_t second_triangle;
};

// What one object pair's traversal did (the reference's TraversalStats, per pair).
struct PairOutcome {
  std::uint64_t pair_tests;
  std::uint64_t axis_tests;
  std::uint32_t emitted;   // overlapping leaf pairs = candidates (reference: leaf_pairs)
  std::uint32_t stored;    // of those, stored in result buffers (this and earlier launches)
  std::uint32_t status;    // TraversalStatus
  std::uint32_t unused;
};

enum class SatKind : std::int32_t { Float = 0, Fixed = 1 };
enum class TraversalKind : std::int32_t { BinaryStack = 0, ExplicitStack = 1 };

inline constexpr int kExplicitStackCapacity = 64;  // pairs; >= first depth + second depth + 2

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
  // This launch: which tasks (null = tasks 0 .. count-1), and per task how many candidates are
  // already stored (null = none).
  const std::uint32_t* launch_tasks;
  std::uint32_t launch_count;
  const std::uint32_t* skip;
  // Result buffer.
  ResultEntry* results;
  std::uint64_t capacity;
  unsigned long long* counter;
  PairOutcome* outcomes;               // per task
};

KDOPCD_HD inline unsigned long long fetch_add_counter(unsigned long long* counter) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(counter, 1ull);
#else
  return std::atomic_ref<unsigned long long>(*counter).fetch_add(1, std::memory_order_relaxed);
#endif
}

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

// The whole narrow phase of launch slot `slot`: traversal, candidates into the result buffer,
// the outcome record. Words: 64-bit words of the binary stack (ignored by the explicit stack).
template <TraversalKind Traversal, SatKind Sat, int Words>
KDOPCD_HD inline void narrow_pair(const NarrowView& v, std::uint32_t slot) {
  const std::uint32_t task_index = v.launch_tasks ? v.launch_tasks[slot] : slot;
  const PairTask task = v.tasks[task_index];
  const TreeInfo tf = v.trees[task.first_tree];
  const TreeInfo ts = v.trees[task.second_tree];
  const BsNode* first = v.nodes + tf.node_offset;
  const BsNode* second = v.nodes + ts.node_offset;
  const auto sat = make_sat<Sat>(v, task);
  const std::uint32_t skip = v.skip ? v.skip[task_index] : 0u;

  std::uint64_t pair_tests = 0, axis_tests = 0;
  std::uint32_t emitted = 0, stored = 0;
  auto separated = [&](std::int32_t f, std::int32_t s) {
    ++pair_tests;
    return sat.separated(f, s, axis_tests);
  };
  auto leaf = [&](std::int32_t first_triangle, std::int32_t second_triangle) {
    const std::uint32_t sequence = emitted++;
    if (sequence < skip) return;  // stored by an earlier launch
    const unsigned long long position = fetch_add_counter(v.counter);
    if (position < v.capacity) {
      v.results[position] = ResultEntry{task_index, std::uint32_t(first_triangle), std::uint32_t(second_triangle)};
      ++stored;
    }
  };
  TraversalStatus status;
  if constexpr (Traversal == TraversalKind::BinaryStack)
    status = binary_stack_traverse<Words>(first, tf.node_count - 1, second, ts.node_count - 1, v.rule, separated, leaf);
  else
    status = explicit_stack_traverse<kExplicitStackCapacity>(first, tf.node_count - 1, second, ts.node_count - 1,
                                                             v.rule, separated, leaf);
  PairOutcome out;
  out.pair_tests = pair_tests;
  out.axis_tests = axis_tests;
  out.emitted = emitted;
  out.stored = skip + stored;
  out.status = std::uint32_t(status);
  out.unused = 0;
  v.outcomes[task_index] = out;
}

}  // namespace kdopcd::cuda
