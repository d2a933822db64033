#pragma once
// What one tandem traversal spent besides its DOP pair tests (docs/cuda.md §3, "Counters"): the
// node records it loaded, the walks it restarted from a subtree root, and the most bytes of
// pending work (a stack) it held at once. Every traversal of traversal.hpp, escape_traversal.hpp
// and stack_traversals.hpp fills one, so the orders can be compared on the same footing.
#include <cstdint>

#include "kdopcd/config.hpp"

namespace kdopcd::cuda {

struct TraversalTally {
  std::uint64_t node_visits = 0;        // BsNode records loaded (16 bytes each)
  std::uint64_t restarts = 0;           // walks begun again from a subtree root (escape-index walks)
  std::uint32_t peak_pending_bytes = 0;  // largest stack in use at once; 0 for a stackless order

  KDOPCD_HD void pending(std::uint64_t bytes) {
    if (bytes > peak_pending_bytes) peak_pending_bytes = std::uint32_t(bytes);
  }
};

}  // namespace kdopcd::cuda
