#pragma once
// Binary-stack node layout (the binary-stack paper, §3, docs/references.md; docs/cuda.md §2),
// derived from the reference DopTree.
//
// The reference stores its nodes in pre-order. The binary-stack traversal needs them in
// post-order, each with
//   * the index of its left child (the right child of an inner node x is always x - 1, because in
//     post-order a node directly follows its right subtree, whose root comes last),
//   * an escape index: a left child escapes to its right sibling, a right child to its parent's
//     escape, the root (a left child by definition) to the imaginary end node = node count,
//   * an ancestor counter: the number of direct right-child ancestors including the node itself
//     (0 for the root and for every left child; a right child has its parent's counter + 1).
// Ascending once from a right child is x + 1 (its parent follows it in post-order), so climbing a
// chain of c right-child ancestors never reads a node: it is x + c (the binary-stack paper's
// Eq. 3-7, with the sign of our index direction).
#include <cstdint>
#include <span>
#include <vector>

#include "kdopcd/config.hpp"
#include "kdopcd/dop_tree.hpp"

namespace kdopcd::cuda {

// One node of the layout: 16 bytes, one 128-bit load on the GPU.
struct BsNode {
  std::int32_t child;     // inner node: post-order index of the left child; leaf: ~triangle (< 0)
  std::int32_t escape;    // where the traversal goes after this node's subtree (node count = end)
  std::uint16_t counter;  // ancestor counter (see above)
  std::uint16_t depth;    // depth in the reference tree, root 0 (the descent rule uses it)
  std::int32_t ref;       // index of this node in the reference tree (pre-order)

  KDOPCD_HD bool is_leaf() const { return child < 0; }
  KDOPCD_HD std::int32_t triangle() const { return ~child; }
  KDOPCD_HD std::int32_t left() const { return child; }
};
static_assert(sizeof(BsNode) == 16, "BsNode must stay one 128-bit load");

// Post-order layout of a binary tree given in the reference's pre-order form (node 0 the root,
// inner nodes with two children). The root is the last node. Throws std::invalid_argument for a
// node with one child, a bad child index, or a depth above 65535.
std::vector<BsNode> post_order_layout(std::span<const DopNode> pre_order);

// A DopTree in the binary-stack layout: nodes and their k coefficients in post-order.
struct PostOrderTree {
  int k = 0;
  int max_depth = 0;
  std::vector<BsNode> nodes;
  std::vector<double> coefficients;  // node i's k coefficients at i * k (same values as the reference)
  std::int32_t root() const { return std::int32_t(nodes.size()) - 1; }
};
PostOrderTree make_post_order_tree(const DopTree& tree);

// Reorders per-node records of the reference (pre-order, `width` values per node) into post-order.
template <class T>
std::vector<T> reorder_to_post_order(const std::vector<BsNode>& nodes, std::span<const T> pre_order, int width) {
  std::vector<T> out(pre_order.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (int j = 0; j < width; ++j) out[i * width + j] = pre_order[std::size_t(nodes[i].ref) * width + j];
  return out;
}

}  // namespace kdopcd::cuda
