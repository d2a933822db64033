#pragma once
// The two stack-using tandem traversals of the stackless BVH-against-BVH thesis (Damkjær 2007,
// docs/references.md), as KDOPCD_HD code on the post-order layout (docs/cuda.md §3):
//
//  * dynamic_stack_traverse (the thesis's Algorithm 2): the larger DOP is split (the reference's
//    DescentRule::Larger, sizes as DopTree::size), on a stack of node pairs that grows. It starts
//    in LocalPairs entries of thread-local memory and then doubles into heap blocks from malloc,
//    which is the device heap on the GPU (cudaLimitMallocHeapSize) and the C heap on the host:
//    the one place a traversal allocates. A failed malloc returns StackOverflow.
//  * predictable_stack_traverse (Algorithm 3): the alternately stepping order (the first object's
//    node at equal levels, the second's when the first is one level deeper, never a leaf: the
//    reference's Shallower rule) on a fixed array of Capacity pending pairs. The left child pair
//    is tested at once instead of being pushed and popped again, so only right child pairs wait.
//    Its pending pairs are a function of the current pair's levels, which is what makes
//    escape_traversal.hpp's stackless form of it possible.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "kdopcd/config.hpp"
#include "kdopcd_cuda/layout.hpp"
#include "kdopcd_cuda/traversal.hpp"
#include "kdopcd_cuda/traversal_tally.hpp"

namespace kdopcd::cuda {

// A node pair packed in one 64-bit word (first in the high half): one copy per pending pair.
KDOPCD_HD inline std::uint64_t pack_pair(std::int32_t f, std::int32_t s) {
  return (std::uint64_t(std::uint32_t(f)) << 32) | std::uint32_t(s);
}
KDOPCD_HD inline std::int32_t packed_first(std::uint64_t p) { return std::int32_t(std::uint32_t(p >> 32)); }
KDOPCD_HD inline std::int32_t packed_second(std::uint64_t p) { return std::int32_t(std::uint32_t(p)); }

// split_first(f, na, s, nb) -> bool decides the descent (the caller's volume rule); the other
// callbacks as binary_stack_traverse's.
template <int LocalPairs, class SplitFirst, class Separated, class Leaf>
KDOPCD_HD TraversalStatus dynamic_stack_traverse(const BsNode* first, std::int32_t first_root, const BsNode* second,
                                                 std::int32_t second_root, SplitFirst&& split_first_of,
                                                 Separated&& separated, Leaf&& leaf, TraversalTally& tally) {
  static_assert(LocalPairs >= 2, "dynamic stack: at least two local pairs");
  std::uint64_t local[LocalPairs];
  std::uint64_t* stack = local;
  long capacity = LocalPairs, size = 0, peak = 1;
  auto finish = [&](TraversalStatus s) {
    if (stack != local) ::free(stack);
    tally.pending(std::uint64_t(peak) * sizeof(std::uint64_t));
    return s;
  };
  stack[size++] = pack_pair(first_root, second_root);
  while (size > 0) {
    const std::uint64_t top = stack[--size];
    const std::int32_t a = packed_first(top), b = packed_second(top);
    if (separated(a, b)) continue;
    const BsNode na = first[a];
    const BsNode nb = second[b];
    tally.node_visits += 2;
    if (na.is_leaf() && nb.is_leaf()) {
      leaf(na.triangle(), nb.triangle());
      continue;
    }
    if (size + 2 > capacity) {
      // Grow: twice the size, on the heap; the pending pairs move over.
      const long grown = 2 * capacity;
      auto* bigger = static_cast<std::uint64_t*>(::malloc(std::size_t(grown) * sizeof(std::uint64_t)));
      if (bigger == nullptr) return finish(TraversalStatus::StackOverflow);
      ::memcpy(bigger, stack, std::size_t(size) * sizeof(std::uint64_t));
      if (stack != local) ::free(stack);
      stack = bigger;
      capacity = grown;
    }
    if (split_first_of(a, na, b, nb)) {
      stack[size++] = pack_pair(a - 1, b);  // right child (post-order: x - 1)
      stack[size++] = pack_pair(na.left(), b);
    } else {
      stack[size++] = pack_pair(a, b - 1);
      stack[size++] = pack_pair(a, nb.left());
    }
    if (size > peak) peak = size;
  }
  return finish(TraversalStatus::Ok);
}

// Callbacks as binary_stack_traverse's. Returns StackOverflow (after a prefix of the order) when
// more than Capacity right child pairs wait at once.
template <int Capacity, class Separated, class Leaf>
KDOPCD_HD TraversalStatus predictable_stack_traverse(const BsNode* first, std::int32_t first_root,
                                                     const BsNode* second, std::int32_t second_root,
                                                     Separated&& separated, Leaf&& leaf, TraversalTally& tally) {
  std::uint64_t pending[Capacity];
  int size = 0, peak = 0;
  auto finish = [&](TraversalStatus s) {
    tally.pending(std::uint64_t(peak) * sizeof(std::uint64_t));
    return s;
  };
  std::int32_t a = first_root, b = second_root;
  for (;;) {
    if (!separated(a, b)) {
      const BsNode na = first[a];
      const BsNode nb = second[b];
      tally.node_visits += 2;
      if (na.is_leaf() && nb.is_leaf()) {
        leaf(na.triangle(), nb.triangle());
      } else {
        if (size == Capacity) return finish(TraversalStatus::StackOverflow);
        if (split_first(na, nb, DescentRule::Shallower)) {
          pending[size++] = pack_pair(a - 1, b);
          a = na.left();
        } else {
          pending[size++] = pack_pair(a, b - 1);
          b = nb.left();
        }
        if (size > peak) peak = size;
        continue;
      }
    }
    if (size == 0) return finish(TraversalStatus::Ok);
    const std::uint64_t next = pending[--size];
    a = packed_first(next);
    b = packed_second(next);
  }
}

}  // namespace kdopcd::cuda
