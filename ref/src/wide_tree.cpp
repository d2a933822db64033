#include "wide_tree.hpp"

#include <algorithm>
#include <iterator>

namespace kdopcd::detail {

WideTree::WideTree(const DopTree& tree) : k_(std::size_t(tree.k())), wide_of_(tree.node_count(), -1) {
  // The nodes first, then their lanes in one allocation: growing the lanes node by node cost more
  // (reallocation and fresh pages) than the rest of the build.
  nodes_.reserve(tree.node_count() / 2);
  std::vector<std::int32_t> todo;
  if (!tree.node(0).is_leaf()) todo.push_back(0);
  while (!todo.empty()) {
    const std::int32_t b = todo.back();
    todo.pop_back();
    Node node{};
    std::fill(std::begin(node.child), std::end(node.child), -1);
    std::int32_t* child = node.child;
    child[0] = tree.node(std::size_t(b)).left;
    child[1] = tree.node(std::size_t(b)).right;
    int count = 2;
    while (count < kWideLanes) {
      int largest = -1;
      for (int l = 0; l < count; ++l)
        if (!tree.node(std::size_t(child[l])).is_leaf() &&
            (largest < 0 || tree.size(std::size_t(child[l])) > tree.size(std::size_t(child[largest]))))
          largest = l;
      if (largest < 0) break;
      const DopNode& split = tree.node(std::size_t(child[largest]));
      child[largest] = split.left;  // the left child takes its place, the right goes last
      child[count++] = split.right;
    }
    node.count = count;
    wide_of_[std::size_t(b)] = std::int32_t(nodes_.size());
    nodes_.push_back(node);
    for (int l = count - 1; l >= 0; --l)
      if (!tree.node(std::size_t(child[l])).is_leaf()) todo.push_back(child[l]);
  }
  lanes_.resize(nodes_.size() * k_ * kWideLanes);
  for (std::size_t w = 0; w < nodes_.size(); ++w) {
    const Node& node = nodes_[w];
    double* lanes = lanes_.data() + w * k_ * kWideLanes;
    for (int l = 0; l < kWideLanes; ++l) {
      const std::span<const double> c = tree.coefficients(std::size_t(node.child[l < node.count ? l : 0]));
      for (std::size_t f = 0; f < k_; ++f) lanes[f * kWideLanes + std::size_t(l)] = c[f];
    }
  }
}

std::shared_ptr<const WideTree> WideTree::of(const DopTree& tree) {
  constexpr int kKindWideTree = 5;  // DerivedCache kinds: 1 in sat_fixed.cpp, 2 to 4 in collide.cpp
  return tree.derived_cache().get<WideTree>(kKindWideTree, 0.0, 0, 0, [&] { return WideTree(tree); });
}

}  // namespace kdopcd::detail
