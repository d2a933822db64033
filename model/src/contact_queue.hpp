#pragma once
// The contact queue in front of the AXI4-Stream output: one contact pair leaves per cycle. It has
// a capacity for the v2 credit scheme (the triangle unit starts a test only when the queue has
// room for every result still in flight); 0 = unbounded (paper configuration).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "kdopcd/traversal.hpp"

namespace kdopcd::model {

class ContactQueue {
 public:
  explicit ContactQueue(std::size_t capacity = 0) : capacity_(capacity) {}

  std::size_t capacity() const { return capacity_; }
  std::size_t size() const { return queue_.size(); }
  bool empty() const { return queue_.empty(); }
  std::size_t max_size() const { return max_size_; }
  void push(const ContactPair& pair) {
    queue_.push_back(pair);
    max_size_ = std::max(max_size_, queue_.size());
  }

  // One clock: the head leaves on the stream (out_valid / out_pair), appended to `sink`.
  void tick(std::vector<ContactPair>& sink) {
    out_valid = !queue_.empty();
    if (!out_valid) return;
    out_pair = queue_.front();
    queue_.pop_front();
    sink.push_back(out_pair);
  }

  bool out_valid = false;
  ContactPair out_pair{};

 private:
  std::size_t capacity_;
  std::size_t max_size_ = 0;
  std::deque<ContactPair> queue_;
};

}  // namespace kdopcd::model
