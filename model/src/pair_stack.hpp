#pragma once
// The DOP-pair stack (paper configuration) or pending set (v2): an on-chip LIFO of node pairs
// with a hard capacity. A push onto a full stack is refused and raises the overflow flag, which
// the core reports as an error result: a pair is never silently dropped.
//
// Pushes can be staged: v2 registers every control step, so children written in cycle t become
// visible to the scheduler in cycle t + 1 (stage() now, commit() at the end of the tick).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "image_memory.hpp"

namespace kdopcd::model {

class PairStack {
 public:
  explicit PairStack(std::size_t capacity = 1024) : capacity_(capacity) {}

  std::size_t capacity() const { return capacity_; }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty() && staged_.empty(); }
  bool overflow() const { return overflow_; }
  std::uint32_t max_depth() const { return max_depth_; }
  const NodePair& top() const { return entries_.back(); }

  // Immediate push (paper configuration): false and the overflow flag when full.
  bool push(NodePair pair) {
    if (entries_.size() >= capacity_) {
      overflow_ = true;
      return false;
    }
    entries_.push_back(pair);
    max_depth_ = std::max<std::uint32_t>(max_depth_, std::uint32_t(entries_.size()));
    return true;
  }
  NodePair pop() {
    const NodePair p = entries_.back();
    entries_.pop_back();
    return p;
  }

  // Registered push (v2): written this cycle, visible from the next.
  void stage(NodePair pair) { staged_.push_back(pair); }
  // End of the cycle: the staged pushes in order; false (and the flag) if the capacity is exceeded.
  bool commit() {
    for (const NodePair& p : staged_)
      if (!push(p)) break;
    staged_.clear();
    return !overflow_;
  }

 private:
  std::size_t capacity_;
  std::vector<NodePair> entries_;
  std::vector<NodePair> staged_;
  bool overflow_ = false;
  std::uint32_t max_depth_ = 0;
};

}  // namespace kdopcd::model
