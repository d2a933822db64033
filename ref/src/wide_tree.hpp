#pragma once
// The 4-wide view of a DopTree that collide()'s float query descends (docs/architecture.md, "The
// wide descent"): every inner node of the binary tree that the descent can split is collapsed with
// its larger inner descendants into up to kWideLanes children, whose DOPs sit side by side in
// lanes, so that one SIMD call tests a node of the other tree against all of them
// (float_pair_test_wide). It changes which node pairs are tested, never a contact: the leaves,
// their triangles and every DOP are the binary tree's.
//
// Collapse (the larger-node rule's spirit): start from the node's two children and, while fewer
// than kWideLanes, replace the inner child of the largest DopTree::size by its two children (ties
// to the earlier). Each inner child becomes a wide node of its own. So the descent below a node
// of the binary tree passes only through nodes of the tree, in lanes of at most kWideLanes.
#include <cstdint>
#include <memory>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/sat_float_axes.hpp"

namespace kdopcd::detail {

class WideTree {
 public:
  struct Node {
    std::int32_t child[kWideLanes];  // binary node indices; -1 past count
    std::int32_t count;
  };

  explicit WideTree(const DopTree& tree);

  // The wide node that splits binary inner node b (the root and every inner child of a wide
  // node have one); -1 for a leaf.
  std::int32_t wide_of(std::int32_t b) const { return wide_of_[std::size_t(b)]; }
  const Node& node(std::int32_t w) const { return nodes_[std::size_t(w)]; }
  // The children's k coefficients in lanes: face f of child l at lanes(w)[f * kWideLanes + l]
  // (lanes past count repeat child 0).
  const double* lanes(std::int32_t w) const { return lanes_.data() + std::size_t(w) * k_ * kWideLanes; }
  std::size_t node_count() const { return nodes_.size(); }

  // The tree's wide view, made on first use and kept in its derived cache (thread-safe).
  static std::shared_ptr<const WideTree> of(const DopTree& tree);

 private:
  std::size_t k_;
  std::vector<Node> nodes_;
  std::vector<double> lanes_;
  std::vector<std::int32_t> wide_of_;
};

}  // namespace kdopcd::detail
