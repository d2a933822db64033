// Binary-stack layout: post-order, escape indices, ancestor counters, BitStack.
#include <gtest/gtest.h>

#include "kdopcd/shapes.hpp"
#include "kdopcd_cuda/layout.hpp"
#include "kdopcd_cuda/traversal.hpp"

namespace kdopcd::cuda {
namespace {

// Parent of every node of a pre-order tree, and whether it is a right child.
struct Family {
  std::vector<int> parent;
  std::vector<bool> right;
};
Family family_of(const std::vector<DopNode>& pre) {
  Family f{std::vector<int>(pre.size(), -1), std::vector<bool>(pre.size(), false)};
  for (std::size_t i = 0; i < pre.size(); ++i)
    if (!pre[i].is_leaf()) {
      f.parent[std::size_t(pre[i].left)] = int(i);
      f.parent[std::size_t(pre[i].right)] = int(i);
      f.right[std::size_t(pre[i].right)] = true;
    }
  return f;
}

void check_layout(const std::vector<DopNode>& pre) {
  const std::vector<BsNode> post = post_order_layout(pre);
  ASSERT_EQ(post.size(), pre.size());
  const Family fam = family_of(pre);
  std::vector<int> post_of(pre.size(), -1);
  for (std::size_t i = 0; i < post.size(); ++i) post_of[std::size_t(post[i].ref)] = int(i);
  for (int x : post_of) ASSERT_GE(x, 0);
  EXPECT_EQ(post.back().ref, 0);  // the root is last
  EXPECT_EQ(post.back().escape, int(post.size()));
  EXPECT_EQ(post.back().counter, 0);
  for (std::size_t i = 0; i < post.size(); ++i) {
    const BsNode& n = post[i];
    const DopNode& d = pre[std::size_t(n.ref)];
    EXPECT_EQ(n.depth, d.depth);
    if (d.is_leaf()) {
      EXPECT_TRUE(n.is_leaf());
      EXPECT_EQ(n.triangle(), d.triangle);
    } else {
      EXPECT_EQ(n.left(), post_of[std::size_t(d.left)]);
      EXPECT_EQ(int(i) - 1, post_of[std::size_t(d.right)]);  // right child at x - 1
    }
    // Children precede their parent (post-order).
    if (fam.parent[std::size_t(n.ref)] >= 0) {
      EXPECT_LT(int(i), post_of[std::size_t(fam.parent[std::size_t(n.ref)])]);
    }
    // Counter: number of consecutive right-child ancestors including the node.
    int count = 0;
    for (int x = n.ref; x != 0 && fam.right[std::size_t(x)]; x = fam.parent[std::size_t(x)]) ++count;
    EXPECT_EQ(n.counter, count);
    // Escape: climb the right-child chain, then the right sibling (or end at the root).
    int top = n.ref;
    for (int c = 0; c < count; ++c) top = fam.parent[std::size_t(top)];
    const int expected = top == 0 ? int(post.size()) : post_of[std::size_t(pre[std::size_t(fam.parent[std::size_t(top)])].right)];
    EXPECT_EQ(n.escape, expected);
    // Climbing c right-child ancestors is + c in post-order.
    EXPECT_EQ(int(i) + count, post_of[std::size_t(top)]);
  }
}

TEST(Layout, PostOrderEscapeAndCountersOfRealTrees) {
  for (int k : {6, 24}) {
    const Mesh torus = make_torus(2, 0.7, 13, 7);
    const DopTree tree(torus, k);
    check_layout(tree.nodes());
    const PostOrderTree t = make_post_order_tree(tree);
    for (std::size_t i = 0; i < t.nodes.size(); ++i)
      for (int j = 0; j < k; ++j)
        EXPECT_EQ(t.coefficients[i * std::size_t(k) + std::size_t(j)],
                  tree.coefficients(std::size_t(t.nodes[i].ref))[std::size_t(j)]);
  }
}

// A "caterpillar": every inner node has a leaf on one side; depth = leaves - 1.
std::vector<DopNode> caterpillar(int leaves, bool leaf_left) {
  std::vector<DopNode> pre;
  int triangle = 0;
  for (int d = 0; d < leaves - 1; ++d) {
    const int self = int(pre.size());
    pre.push_back({-1, -1, -1, d});
    if (leaf_left) {
      pre[std::size_t(self)].left = self + 1;
      pre.push_back({-1, -1, triangle++, d + 1});
      pre[std::size_t(self)].right = self + 2;
    } else {
      // Right child is the leaf, left child the rest: the leaf comes after the whole left subtree
      // in pre-order, so build with a placeholder and fix up below.
      pre[std::size_t(self)].left = self + 1;
    }
  }
  if (leaf_left) {
    pre.push_back({-1, -1, triangle++, leaves - 1});
    return pre;
  }
  // leaf_left == false: nodes 0..leaves-2 inner (chain of left children), then the deepest leaf,
  // then the right leaves from the bottom up.
  pre.push_back({-1, -1, triangle++, leaves - 1});
  for (int d = leaves - 2; d >= 0; --d) {
    pre[std::size_t(d)].right = int(pre.size());
    pre.push_back({-1, -1, triangle++, d + 1});
  }
  return pre;
}

TEST(Layout, UnbalancedTrees) {
  check_layout(caterpillar(1, true));
  check_layout(caterpillar(9, true));
  check_layout(caterpillar(9, false));
  check_layout(caterpillar(80, true));
}

TEST(Layout, RejectsNonBinaryNodes) {
  std::vector<DopNode> bad{{1, -1, -1, 0}, {-1, -1, 0, 1}};
  EXPECT_THROW(post_order_layout(bad), std::invalid_argument);
  std::vector<DopNode> cyc{{1, 2, -1, 0}, {0, 2, -1, 1}, {-1, -1, 0, 1}};
  EXPECT_THROW(post_order_layout(cyc), std::invalid_argument);
}

template <int W>
void bitstack_round_trip() {
  BitStack<W> s;
  EXPECT_TRUE(s.empty());
  std::vector<unsigned> bits;
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < BitStack<W>::capacity; ++i) {
    const unsigned b = unsigned((x >> (i % 64)) & 1u);
    ASSERT_TRUE(s.push(b));
    bits.push_back(b);
  }
  EXPECT_FALSE(s.push(1));  // full: refused, unchanged
  for (int i = BitStack<W>::capacity - 1; i >= 0; --i) {
    ASSERT_FALSE(s.empty());
    EXPECT_EQ(s.top(), bits[std::size_t(i)]);
    s.pop();
  }
  EXPECT_TRUE(s.empty());
}

TEST(BitStack, OneTwoAndThreeWords) {
  bitstack_round_trip<1>();
  bitstack_round_trip<2>();
  bitstack_round_trip<3>();
  EXPECT_EQ(BitStack<1>::capacity, 63);
  EXPECT_EQ(BitStack<2>::capacity, 127);
}

}  // namespace
}  // namespace kdopcd::cuda
