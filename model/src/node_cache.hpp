#pragma once
// v2 with trees in external memory: a direct-mapped cache of node records per tree in front of
// the AXI read master (line = one node record, index = node mod lines). A miss is filled when
// its record arrives; two misses on the same node in flight are two reads (no miss merging).
#include <cstdint>
#include <vector>

namespace kdopcd::model {

class NodeCache {
 public:
  explicit NodeCache(std::size_t lines = 0) : tags_(lines, -1) {}
  std::size_t lines() const { return tags_.size(); }
  bool lookup(std::int32_t node) const {
    return !tags_.empty() && tags_[std::size_t(node) % tags_.size()] == node;
  }
  void fill(std::int32_t node) {
    if (!tags_.empty()) tags_[std::size_t(node) % tags_.size()] = node;
  }

 private:
  std::vector<std::int32_t> tags_;
};

}  // namespace kdopcd::model
