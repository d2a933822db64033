#pragma once
// The stackless tandem traversals of the stackless BVH-against-BVH thesis (Damkjær 2007,
// docs/references.md), as KDOPCD_HD code on the post-order layout of layout.hpp, whose escape
// indices and ancestor counters are the thesis's escape indices and right-child levels (RCL).
// None keeps pending work: the whole state is a few integers (docs/cuda.md §3).
//
//  * leaf_algorithm_traverse (the thesis's Algorithm 1): every leaf of the first subtree walks the
//    second subtree from its root, descending on overlap and taking the escape index otherwise.
//  * alternating_stackless_traverse<Climb> (Algorithms 4 and §8): the alternately stepping order
//    of the predictable stack without its stack. At equal levels the first object's node is split,
//    at a first node one level deeper the second's (the thesis splits the other one first; this
//    mirror image is the reference's Shallower rule, so the order is kdopcd::traverse's with
//    that rule, tested pair for pair). A pair with one leaf finishes with the leaf algorithm over
//    the other node's subtree (§8.1). Which node moves next is computed from the two levels and
//    RCLs (the thesis's eight cases) instead of being popped:
//      Climb::Stepwise   LevelUp climbs one parent per level and loads it (the thesis's
//                        pre-indexed tree, where a right child's parent is a stored link);
//      Climb::PostIndexed LevelUp(x, c) = x + c without a load (§8.3).
#include <cstdint>

#include "kdopcd/config.hpp"
#include "kdopcd_cuda/layout.hpp"
#include "kdopcd_cuda/traversal.hpp"  // TraversalStatus
#include "kdopcd_cuda/traversal_tally.hpp"

namespace kdopcd::cuda {

// A fixed node of one tree against the subtree of `root` in the other, by escape indices only:
// the walk starts at `start` (root itself, or its left child when the pair with root was already
// tested) and ends at escape(root), where every escape of the subtree leads at the latest (a
// right child shares its parent's escape). test(node) -> bool tests the fixed node against `node`
// and returns true on overlap; hit(node) is called for an overlapping leaf.
template <class Test, class Hit>
KDOPCD_HD void escape_walk(const BsNode* tree, std::int32_t root_escape, std::int32_t start, Test&& test, Hit&& hit,
                           TraversalTally& tally) {
  std::int32_t node = start;
  while (node != root_escape) {
    const BsNode n = tree[node];
    ++tally.node_visits;
    if (test(node)) {
      if (n.is_leaf()) {
        hit(n);
        node = n.escape;
      } else {
        node = n.left();
      }
    } else {
      node = n.escape;
    }
  }
}

// Algorithm 1 below node pair (first_root, second_root): the subtree of first_root occupies the
// post-order range [leftmost leaf, first_root], so its leaves are found by one pass over it.
// Callbacks as binary_stack_traverse's. Never overflows.
template <class Separated, class Leaf>
KDOPCD_HD TraversalStatus leaf_algorithm_traverse(const BsNode* first, std::int32_t first_root, const BsNode* second,
                                                  std::int32_t second_root, Separated&& separated, Leaf&& leaf,
                                                  TraversalTally& tally) {
  std::int32_t begin = first_root;
  for (BsNode n = first[begin]; !n.is_leaf(); n = first[begin]) {
    begin = n.left();
    ++tally.node_visits;
  }
  ++tally.node_visits;
  const std::int32_t end = second[second_root].escape;
  ++tally.node_visits;
  for (std::int32_t a = begin; a <= first_root; ++a) {
    const BsNode na = first[a];
    ++tally.node_visits;
    if (!na.is_leaf()) continue;
    ++tally.restarts;
    escape_walk(
        second, end, second_root, [&](std::int32_t b) { return !separated(a, b); },
        [&](const BsNode& nb) { leaf(na.triangle(), nb.triangle()); }, tally);
  }
  return TraversalStatus::Ok;
}

enum class Climb { Stepwise, PostIndexed };

// Algorithm 4 with §8's extension below node pair (first_root, second_root), which must be a pair
// of kdopcd::traverse's Shallower order (every pair of it is; the front of the pipeline hands out
// such pairs when its rule is Shallower). Callbacks as binary_stack_traverse's. Never overflows.
template <Climb How, class Separated, class Leaf>
KDOPCD_HD TraversalStatus alternating_stackless_traverse(const BsNode* first, std::int32_t first_root,
                                                         const BsNode* second, std::int32_t second_root,
                                                         Separated&& separated, Leaf&& leaf, TraversalTally& tally) {
  std::int32_t a = first_root, b = second_root;
  const int a_top = first[a].depth, b_top = second[b].depth;  // levels of the subtree pair's roots
  for (;;) {
    const BsNode na = first[a];
    const BsNode nb = second[b];
    tally.node_visits += 2;
    if (!separated(a, b)) {
      if (na.is_leaf() && nb.is_leaf()) {
        leaf(na.triangle(), nb.triangle());
      } else if (na.is_leaf()) {
        // §8.1: the leaf algorithm for leaf a against b's subtree (the pair (a, b) is tested).
        ++tally.restarts;
        escape_walk(
            second, nb.escape, nb.left(), [&](std::int32_t s) { return !separated(a, s); },
            [&](const BsNode& leaf_b) { leaf(na.triangle(), leaf_b.triangle()); }, tally);
      } else if (nb.is_leaf()) {
        ++tally.restarts;
        escape_walk(
            first, na.escape, na.left(), [&](std::int32_t f) { return !separated(f, b); },
            [&](const BsNode& leaf_a) { leaf(leaf_a.triangle(), nb.triangle()); }, tally);
      } else {
        // Alternating descent: the shallower node (the first one at equal levels) to its left child.
        if (na.depth <= nb.depth) a = na.left();
        else b = nb.left();
        continue;
      }
    }
    // (a, b) is finished. Every descent from the subtree pair's root to here alternated, so the
    // implicit stack holds (depth(a) - a_top) first-object labels and (depth(b) - b_top) second
    // ones, interleaved, the last one of the first object iff depth(a) > depth(b). Popping goes
    // on while the labelled node is a right child (its RCL, the counter, says how many times in
    // a row) and stops at the first left child, which moves to its right sibling = its escape.
    const int labels = (na.depth - a_top) + (nb.depth - b_top);
    if (labels == 0) return TraversalStatus::Ok;
    const bool last_first = na.depth > nb.depth;
    const int c_last = last_first ? na.counter : nb.counter;  // RCL of the last label's node
    const int c_other = last_first ? nb.counter : na.counter;
    // Labels alternate from the top: last, other, last, ... The (c_last + 1)-th label of the
    // last label's tree or the (c_other + 1)-th of the other tree meets a left child, whichever
    // comes first (the thesis's cases 7 and 8); that tree moves to the escape, the other one
    // climbs the levels popped for it.
    int last_up, other_up;  // levels popped per tree
    bool last_escapes;
    if (c_last <= c_other) {
      if (2 * c_last + 1 > labels) return TraversalStatus::Ok;  // the stack empties first
      last_up = c_last;
      other_up = c_last;
      last_escapes = true;
    } else {
      if (2 * c_other + 2 > labels) return TraversalStatus::Ok;
      last_up = c_other + 1;
      other_up = c_other;
      last_escapes = false;
    }
    // In terms of a and b (no references to them: both stay in registers on the GPU).
    const bool a_escapes = last_first == last_escapes;
    const int a_up = last_first ? last_up : other_up;
    const int b_up = last_first ? other_up : last_up;
    if constexpr (How == Climb::PostIndexed) {
      // A right child's parent follows it in post-order: c levels up is + c, no load.
      if (a_escapes) {
        a = na.escape;
        b += b_up;
      } else {
        a += a_up;
        b = nb.escape;
      }
    } else {
      // One level per step, each step loading the node it leaves and checking from its record
      // that it is a right child: the per-level walk LevelUp must make where the index of a right
      // child's parent cannot be computed (the pre-indexed tree of §8.3). The post-order index
      // arithmetic is used for the step itself; the loads and the dependent branch are the cost.
      auto climb = [&](const BsNode* tree, std::int32_t node, int levels) {
        while (levels > 0) {
          const BsNode here = tree[node];
          ++tally.node_visits;
          if (here.counter == 0) break;  // a left child: LevelUp's chain ends (not reached here)
          ++node;
          --levels;
        }
        return node;
      };
      if (a_escapes) {
        a = na.escape;
        b = climb(second, b, b_up);
      } else {
        a = climb(first, a, a_up);
        b = nb.escape;
      }
    }
  }
}

}  // namespace kdopcd::cuda
