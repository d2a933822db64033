#include "kdopcd_cuda/layout.hpp"

#include <stdexcept>
#include <string>

namespace kdopcd::cuda {

std::vector<BsNode> post_order_layout(std::span<const DopNode> pre) {
  const std::size_t n = pre.size();
  if (n == 0) throw std::invalid_argument("post_order_layout: empty tree");
  if (n > std::size_t(INT32_MAX - 1)) throw std::invalid_argument("post_order_layout: too many nodes");
  // Post-order numbering without recursion: iterative DFS (left subtree, right subtree, node).
  std::vector<std::int32_t> post_of(n, -1);
  struct Frame {
    std::int32_t node;
    bool expanded;
  };
  std::vector<Frame> work{{0, false}};
  std::int32_t next = 0;
  std::size_t reached = 0;
  while (!work.empty()) {
    Frame f = work.back();
    work.pop_back();
    const DopNode& d = pre[std::size_t(f.node)];
    if (d.is_leaf()) {
      if (d.right >= 0)
        throw std::invalid_argument("post_order_layout: node " + std::to_string(f.node) + " has only a right child");
      post_of[std::size_t(f.node)] = next++;
      continue;
    }
    if (f.expanded) {
      post_of[std::size_t(f.node)] = next++;
      continue;
    }
    if (d.right < 0 || std::size_t(d.left) >= n || std::size_t(d.right) >= n)
      throw std::invalid_argument("post_order_layout: node " + std::to_string(f.node) + " needs two valid children");
    if (++reached > n) throw std::invalid_argument("post_order_layout: not a tree");
    work.push_back({f.node, true});
    work.push_back({d.right, false});
    work.push_back({d.left, false});
  }
  if (std::size_t(next) != n) throw std::invalid_argument("post_order_layout: nodes not reachable from the root");

  std::vector<BsNode> out(n);
  // Top-down pass (pre-order from the root) for escape, counter and depth.
  struct Down {
    std::int32_t node, escape, depth;
    std::uint16_t counter;
  };
  std::vector<Down> down{{0, std::int32_t(n), 0, 0}};
  while (!down.empty()) {
    const Down d = down.back();
    down.pop_back();
    const DopNode& node = pre[std::size_t(d.node)];
    if (d.depth > 65535) throw std::invalid_argument("post_order_layout: depth above 65535");
    BsNode& b = out[std::size_t(post_of[std::size_t(d.node)])];
    b.escape = d.escape;
    b.counter = d.counter;
    b.depth = std::uint16_t(d.depth);
    b.ref = d.node;
    if (node.is_leaf()) {
      if (node.triangle < 0) throw std::invalid_argument("post_order_layout: leaf without triangle");
      b.child = ~node.triangle;
    } else {
      const std::int32_t l = post_of[std::size_t(node.left)], r = post_of[std::size_t(node.right)];
      if (r != post_of[std::size_t(d.node)] - 1) throw std::logic_error("post_order_layout: right child not at x - 1");
      b.child = l;
      down.push_back({node.left, r, d.depth + 1, 0});
      down.push_back({node.right, d.escape, d.depth + 1, std::uint16_t(d.counter + 1)});
    }
  }
  return out;
}

PostOrderTree make_post_order_tree(const DopTree& tree) {
  PostOrderTree t;
  t.k = tree.k();
  t.max_depth = tree.max_depth();
  t.nodes = post_order_layout(tree.nodes());
  t.coefficients =
      reorder_to_post_order<double>(t.nodes, std::span<const double>(tree.all_coefficients()), tree.k());
  return t;
}

}  // namespace kdopcd::cuda
