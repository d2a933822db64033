#pragma once
// Tandem traversal of two DOP-trees with an explicit stack of node pairs: the controller's
// semantics of the accelerator (docs/design.md §4). The overlap test of a pair and the triangle test
// are parameters, so the float, exact and fixed-point backends share this one loop.
#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kdopcd/config.hpp"
#include "kdopcd/dop_tree.hpp"

namespace kdopcd {

// Which node of an overlapping inner pair is split. Identical in ref, model and RTL.
enum class DescentRule {
  Shallower,  // descend the node of smaller depth, ties to the first object
  First,      // descend the first object's node unless it is a leaf
  Second,     // descend the second object's node unless it is a leaf
  // Descend the node whose DOP is larger (DopTree::size, ties to the first): the software
  // query's default (TraversalOptions). The model and the RTL implement the three rules above.
  // The sizes are widths of the file frame's coefficients: an object some 10^12 of its sizes from
  // the origin has them rounded, which changes which node is split (the counters), never the
  // contacts; the other rules read no coordinates.
  Larger,
};
// The accelerator paths' and the GPU's default rule (the RTL implements shallower, first and second).
inline constexpr DescentRule kHardwareDescentRule = DescentRule::Shallower;
// The rules the model and the RTL implement (shallower, first, second); throws InputError.
DescentRule parse_descent_rule(const std::string& name);
// Every rule of the software query (those and larger); throws InputError.
DescentRule parse_query_descent_rule(const std::string& name);
const char* to_string(DescentRule rule);

// Axes per DOP pair of collide()'s wide descent when TraversalOptions::axes is 0: the first six
// directions of each object (make_sat_setup's order). With the wide descent, 12 axes and more
// pairs cost less than all 24 on the pose classes' intersecting and close queries of k = 24
// (1.15-1.38x, held-out scenes too), a little more on deeply interpenetrating ones (3-8 %); 8 and
// 10 axes lose badly on some scenes. docs/architecture.md ("The wide descent").
inline constexpr int kWideDescentAxes = 12;

struct TraversalOptions {
  // n: axes tested per pair (at most k); 0 = all k, except min(k, kWideDescentAxes) in the float
  // backend's wide descent (collide_axes_per_pair in collide.hpp says which a query uses).
  int axes = 0;
  DescentRule rule = DescentRule::Larger;  // with TreeBuild::Sah the fastest exact configuration
  std::size_t stack_capacity = 0;   // 0 = unbounded; else overflow throws StackOverflowError
  // Threads of one query (collide() only): 1 = the sequential loop below; 0 = every core TBB
  // sees; n > 1 = at most n. The parallel traversal tests the pairs of the sequential binary
  // descent (wide = false: contacts and every counter but max_stack_depth, which becomes the
  // deepest task stack, are that one's); it needs stack_capacity = 0 and a thread-safe custom
  // triangle test.
  int threads = 1;
  // Float backend of collide() from a pose only (the set-up overload has no pose): an overlapping
  // pair of a leaf and an inner node much smaller than the leaf's DOP is also tested on the leaf
  // triangle's plane (one more axis, counted in axis_tests; conservative, so the contacts are the
  // same either way): a small object's tree beside a large triangle is separated there at once.
  // The model, the RTL and the GPU test the k axes alone: a query compared with them counter for
  // counter sets this false (kHardwareTraversal).
  bool leaf_planes = true;
  // Float backend of collide() on one thread with the larger-node rule and an unbounded stack: the
  // wide descent (docs/architecture.md, "The wide descent"): a split node's children and their
  // larger descendants, up to four, are tested against the other node in one SIMD call, and the
  // leaf pairs' exact triangle tests run eight at a time in SIMD lanes (tri_tri_lanes.hpp). The
  // same contacts; other node pairs are tested, so the counters differ from the binary descent's
  // (the parallel traversal's, the accelerator's, the GPU's), which false keeps.
  bool wide = true;
};

// The options of a query compared counter for counter with the accelerator paths and the GPU:
// their descent rule, the k axes alone.
inline constexpr TraversalOptions kHardwareTraversal{.rule = kHardwareDescentRule, .leaf_planes = false, .wide = false};

struct TraversalStats {
  std::uint64_t pair_tests = 0;      // DOP pairs tested
  std::uint64_t axis_tests = 0;      // effective axis tests: up to and including the separating one
  std::uint64_t leaf_pairs = 0;      // overlapping leaf pairs
  std::uint64_t triangle_tests = 0;  // triangle-triangle tests performed
  std::uint64_t contacts = 0;
  std::uint32_t max_stack_depth = 0;
};

struct ContactPair {
  std::uint32_t first;   // triangle of the first object
  std::uint32_t second;  // triangle of the second object
  auto operator<=>(const ContactPair&) const = default;
};

struct QueryResult {
  std::vector<ContactPair> contacts;  // sorted ascending, no duplicates
  TraversalStats stats;
};

class StackOverflowError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The verdict of one DOP pair: whether an axis separated it and how many axes were tested.
struct PairVerdict {
  bool separated;
  int axes_tested;
};

// The descent rule, once for ref, model and RTL: whether an overlapping pair that is not two
// leaves is split at its first node (children (f.left, s), (f.right, s)) or at its second.
// The sizes are DopTree::size of the two nodes, read by DescentRule::Larger only.
KDOPCD_HD inline bool split_first_node(bool first_is_leaf, bool second_is_leaf, std::int32_t first_depth,
                             std::int32_t second_depth, DescentRule rule, double first_size = 0,
                             double second_size = 0) {
  if (first_is_leaf) return false;
  if (second_is_leaf) return true;
  if (rule == DescentRule::First) return true;
  if (rule == DescentRule::Second) return false;
  if (rule == DescentRule::Larger) return first_size >= second_size;
  return first_depth <= second_depth;
}

// pair_test(first_node, second_node) -> PairVerdict; triangle_test(first_tri, second_tri) -> bool.
// leaf_inner_test(first_node, second_node) -> bool, optional: one more separating axis for an
// overlapping pair of a leaf and an inner node, counted as one more axis test where it separates
// (collide()'s float backend passes the leaf triangle's plane, TraversalOptions::leaf_planes).
template <class PairTest, class TriangleTest, class LeafInnerTest = std::nullptr_t>
QueryResult traverse(const DopTree& first, const DopTree& second, const TraversalOptions& options,
                     PairTest&& pair_test, TriangleTest&& triangle_test,
                     const LeafInnerTest& leaf_inner_test = nullptr) {
  struct NodePair {
    std::int32_t first, second;
  };
  QueryResult result;
  TraversalStats& stats = result.stats;
  const bool larger = options.rule == DescentRule::Larger;  // the only rule reading node sizes
  std::vector<NodePair> stack;  // allocated on the first push: a separated root pair needs none
  auto push = [&](std::int32_t f, std::int32_t s) {
    if (options.stack_capacity != 0 && stack.size() >= options.stack_capacity)
      throw StackOverflowError("pair stack overflow: capacity " + std::to_string(options.stack_capacity));
    if (stack.capacity() == 0) stack.reserve(64);
    stack.push_back({f, s});
    stats.max_stack_depth = std::max<std::uint32_t>(stats.max_stack_depth, std::uint32_t(stack.size()));
  };
  // Tests one pair and pushes its children if it overlaps.
  auto visit = [&](const NodePair pair) {
    const PairVerdict verdict = pair_test(pair.first, pair.second);
    ++stats.pair_tests;
    stats.axis_tests += std::uint64_t(verdict.axes_tested);
    if (verdict.separated) return;
    const DopNode& f = first.node(pair.first);
    const DopNode& s = second.node(pair.second);
    if (f.is_leaf() && s.is_leaf()) {
      ++stats.leaf_pairs;
      ++stats.triangle_tests;
      if (triangle_test(f.triangle, s.triangle)) result.contacts.push_back({std::uint32_t(f.triangle), std::uint32_t(s.triangle)});
      return;
    }
    if constexpr (!std::is_null_pointer_v<LeafInnerTest>) {
      if (f.is_leaf() != s.is_leaf() && leaf_inner_test(pair.first, pair.second)) {
        ++stats.axis_tests;
        return;
      }
    }
    const bool split_first = split_first_node(f.is_leaf(), s.is_leaf(), f.depth, s.depth, options.rule,
                                              larger ? first.size(std::size_t(pair.first)) : 0.0,
                                              larger ? second.size(std::size_t(pair.second)) : 0.0);
    // Right child pushed first so the left child is popped (tested) first.
    if (split_first) {
      push(f.right, pair.second);
      push(f.left, pair.second);
    } else {
      push(pair.first, s.right);
      push(pair.first, s.left);
    }
  };
  // The root pair is pushed and popped at once: it counts as a stack entry (max_stack_depth 1)
  // without touching the stack, so a separated pose costs one pair test and no allocation.
  stats.max_stack_depth = 1;
  visit({0, 0});
  while (!stack.empty()) {
    const NodePair pair = stack.back();
    stack.pop_back();
    visit(pair);
  }
  std::sort(result.contacts.begin(), result.contacts.end());
  stats.contacts = result.contacts.size();
  return result;
}

}  // namespace kdopcd
