#pragma once
// The two tandem traversals of the CUDA part, as KDOPCD_HD code: nvcc compiles them into the
// kernels, g++ into the host backend, from this one header (docs/cuda.md §3).
//
//  * binary_stack_traverse: the binary-stack paper (docs/references.md), Fig. 9. State = two node
//    indices and a descent stack of one bit per descent (0: the first object's node was split, 1:
//    the second's) kept in Words 64-bit integers. Moving on after a finished pair reads no
//    ancestor: ancestor counters give how far to climb, escape indices where to go (layout.hpp).
//  * explicit_stack_traverse: the conventional stack of node pairs (the reference's
//    kdopcd::traverse), in a fixed-size array, for comparison.
//
// Both visit the BVTT depth first, left child first, with the reference's descent rule, so for
// the same rule they test the same DOP pairs in the same order as kdopcd::traverse (tested).
// Neither can give a wrong answer on a too deep tree: a push that does not fit returns
// TraversalStatus::StackOverflow and the caller reports an error.
#include <cstdint>

#include "kdopcd/config.hpp"
#include "kdopcd/traversal.hpp"  // DescentRule
#include "kdopcd_cuda/layout.hpp"
#include "kdopcd_cuda/traversal_tally.hpp"

namespace kdopcd::cuda {

enum class TraversalStatus : std::uint32_t { Ok = 0, StackOverflow = 1 };

// The descent rule of the reference, from its one definition (kdopcd::split_first_node).
KDOPCD_HD inline bool split_first(const BsNode& f, const BsNode& s, DescentRule rule) {
  return split_first_node(f.is_leaf(), s.is_leaf(), f.depth, s.depth, rule);
}

// A stack of up to 64 * Words - 1 one-bit labels in Words 64-bit integers. A sentinel 1 bit
// above the labels marks the bottom, so no separate depth is kept: empty <=> the words hold just
// the sentinel. Word 0 holds the top; a push shifts every word left by one, carrying the top bit
// of word i into word i + 1 (the binary-stack paper's two coupled 32-bit integers, generalised).
template <int Words>
struct BitStack {
  static_assert(Words >= 1 && Words <= 4, "BitStack: 1 to 4 words");
  static constexpr int capacity = 64 * Words - 1;
  std::uint64_t w[Words];

  KDOPCD_HD BitStack() {
    w[0] = 1;
    for (int i = 1; i < Words; ++i) w[i] = 0;
  }
  KDOPCD_HD bool empty() const {
    bool rest = true;
    for (int i = 1; i < Words; ++i) rest = rest && w[i] == 0;
    return w[0] == 1 && rest;
  }
  KDOPCD_HD unsigned top() const { return unsigned(w[0] & 1u); }
  // False (and the stack unchanged) when the sentinel would be shifted out.
  KDOPCD_HD bool push(unsigned bit) {
    if (w[Words - 1] >> 63) return false;
    for (int i = Words - 1; i > 0; --i) w[i] = (w[i] << 1) | (w[i - 1] >> 63);
    w[0] = (w[0] << 1) | std::uint64_t(bit & 1u);
    return true;
  }
  KDOPCD_HD void pop() {
    for (int i = 0; i < Words - 1; ++i) w[i] = (w[i] >> 1) | (w[i + 1] << 63);
    w[Words - 1] >>= 1;
  }
};

// Labels: which tree a descent split.
inline constexpr unsigned kSplitFirst = 0;
inline constexpr unsigned kSplitSecond = 1;

// Binary-stack tandem traversal of `first` and `second` (post-order layouts, roots given).
// separated(f, s) -> bool tests node pair (f, s) (post-order indices) and returns true when a
// separating axis was found; leaf(first_triangle, second_triangle) is called for every
// overlapping leaf pair. Returns StackOverflow (having visited a prefix of the pairs) if the
// descent path is longer than BitStack<Words>::capacity; never with
// first depth + second depth <= capacity. `tally`: two node loads per pair, the labels' bytes.
template <int Words, class Separated, class Leaf>
KDOPCD_HD TraversalStatus binary_stack_traverse(const BsNode* first, std::int32_t first_root, const BsNode* second,
                                                std::int32_t second_root, DescentRule rule, Separated&& separated,
                                                Leaf&& leaf, TraversalTally& tally) {
  std::int32_t a = first_root;   // node of the first object
  std::int32_t b = second_root;  // node of the second object
  BitStack<Words> stack;
  // For the tally only: the labels on the stack are depth(a) + depth(b) - the roots' depths, so
  // the deepest pair reached gives the peak without a counter of its own (a register less).
  int peak_depths = 0;
  // One bit per label, in whole bytes: what a stack sized to this traversal would need.
  auto finish = [&](TraversalStatus s) {
    const int top = first[first_root].depth + second[second_root].depth;
    tally.pending((std::uint64_t(peak_depths > top ? peak_depths - top : 0) + 7) / 8);
    return s;
  };
  for (;;) {
    const BsNode na = first[a];
    const BsNode nb = second[b];
    tally.node_visits += 2;
    if (!separated(a, b)) {
      if (na.is_leaf() && nb.is_leaf()) {
        leaf(na.triangle(), nb.triangle());
      } else {
        // Descent: to the left child of the split node, one label pushed.
        const bool f = split_first(na, nb, rule);
        if (!stack.push(f ? kSplitFirst : kSplitSecond)) return finish(TraversalStatus::StackOverflow);
        if (na.depth + nb.depth + 1 > peak_depths) peak_depths = na.depth + nb.depth + 1;
        if (f) a = na.left();
        else b = nb.left();
        continue;
      }
    }
    // Ascent (binary-stack paper, Fig. 8): pop labels while the node of the labelled tree is a
    // right child, counting the climbs per tree; no node is read.
    unsigned a_count = na.counter, b_count = nb.counter;
    std::int32_t a_up = 0, b_up = 0;
    for (;;) {
      if (stack.empty()) return finish(TraversalStatus::Ok);
      if (stack.top() == kSplitFirst) {
        if (a_count == 0) break;
        --a_count;
        ++a_up;
      } else {
        if (b_count == 0) break;
        --b_count;
        ++b_up;
      }
      stack.pop();
    }
    // The labelled tree's ancestor is a left child: go to its right sibling, which is the escape
    // of the node we started from (a right-child chain shares its top's escape). The other tree
    // climbs its counted right-child chain: parent of x is x + 1 in post-order.
    if (stack.top() == kSplitFirst) {
      a = na.escape;
      b += b_up;
    } else {
      b = nb.escape;
      a += a_up;
    }
  }
}

// Conventional tandem traversal with a stack of node pairs in a local array of Capacity entries
// (the reference's order: right child pushed first, left child popped first). Same callbacks.
// `tally`: two node loads per overlapping pair, 8 bytes per pending pair.
template <int Capacity, class Separated, class Leaf>
KDOPCD_HD TraversalStatus explicit_stack_traverse(const BsNode* first, std::int32_t first_root, const BsNode* second,
                                                  std::int32_t second_root, DescentRule rule, Separated&& separated,
                                                  Leaf&& leaf, TraversalTally& tally) {
  std::int32_t stack_first[Capacity];
  std::int32_t stack_second[Capacity];
  int size = 0;
  stack_first[0] = first_root;
  stack_second[0] = second_root;
  size = 1;
  int peak = 1;
  auto finish = [&](TraversalStatus s) {
    tally.pending(std::uint64_t(peak) * 2 * sizeof(std::int32_t));
    return s;
  };
  while (size > 0) {
    --size;
    const std::int32_t a = stack_first[size];
    const std::int32_t b = stack_second[size];
    if (separated(a, b)) continue;
    const BsNode na = first[a];
    const BsNode nb = second[b];
    tally.node_visits += 2;
    if (na.is_leaf() && nb.is_leaf()) {
      leaf(na.triangle(), nb.triangle());
      continue;
    }
    if (size + 2 > Capacity) return finish(TraversalStatus::StackOverflow);
    if (split_first(na, nb, rule)) {
      stack_first[size] = a - 1;  // right child
      stack_second[size] = b;
      stack_first[size + 1] = na.left();
      stack_second[size + 1] = b;
    } else {
      stack_first[size] = a;
      stack_second[size] = b - 1;
      stack_first[size + 1] = a;
      stack_second[size + 1] = nb.left();
    }
    size += 2;
    if (size > peak) peak = size;
  }
  return finish(TraversalStatus::Ok);
}

// The two without a tally (the tests that compare visit sequences only).
template <int Words, class Separated, class Leaf>
KDOPCD_HD TraversalStatus binary_stack_traverse(const BsNode* first, std::int32_t first_root, const BsNode* second,
                                                std::int32_t second_root, DescentRule rule, Separated&& separated,
                                                Leaf&& leaf) {
  TraversalTally tally;
  return binary_stack_traverse<Words>(first, first_root, second, second_root, rule, separated, leaf, tally);
}
template <int Capacity, class Separated, class Leaf>
KDOPCD_HD TraversalStatus explicit_stack_traverse(const BsNode* first, std::int32_t first_root, const BsNode* second,
                                                  std::int32_t second_root, DescentRule rule, Separated&& separated,
                                                  Leaf&& leaf) {
  TraversalTally tally;
  return explicit_stack_traverse<Capacity>(first, first_root, second, second_root, rule, separated, leaf, tally);
}

}  // namespace kdopcd::cuda
