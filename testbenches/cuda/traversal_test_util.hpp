#pragma once
// Shared helpers of the traversal tests (traversal_test.cpp, traversal_matrix_test.cpp): what the
// reference's kdopcd::traverse tests, in order, and synthetic unbalanced trees.
#include <utility>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/traversal.hpp"

namespace kdopcd::cuda::test {

using Visit = std::pair<int, int>;  // (first node, second node) in the reference's numbering

struct VisitSequences {
  std::vector<Visit> tests;   // every DOP pair tested, in order
  std::vector<Visit> leaves;  // overlapping leaf pairs (triangles), in order
};

// The reference's traversal with the float SAT on the first n axes of `setup`, recording what it
// tests and which leaf pairs overlap.
inline VisitSequences reference_visits(const DopTree& first, const DopTree& second, const SatSetup& setup, int n,
                                       DescentRule rule) {
  VisitSequences s;
  TraversalOptions options;
  options.rule = rule;
  const int half = first.k() / 2;
  auto pair_test = [&](int f, int g) {
    s.tests.emplace_back(f, g);
    const double* b = first.coefficients(std::size_t(f)).data();
    const double* a = second.coefficients(std::size_t(g)).data();
    for (int i = 0; i < n; ++i) {
      const AxisSetup& ax = setup.axes[std::size_t(i)];
      if (float_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated())
        return PairVerdict{true, i + 1};
    }
    return PairVerdict{false, n};
  };
  auto tri = [&](int f, int g) {
    s.leaves.emplace_back(f, g);
    return false;
  };
  traverse(first, second, options, pair_test, tri);
  return s;
}

// A caterpillar of depth leaves - 1 in pre-order. left_deep: every inner node's right child is a
// leaf and its left child the rest (the pending right children pile up on an explicit stack);
// otherwise the other way round.
inline std::vector<DopNode> caterpillar(int leaves, bool left_deep) {
  std::vector<DopNode> pre;
  int triangle = 0;
  if (!left_deep) {
    for (int d = 0; d < leaves - 1; ++d) {
      const int self = int(pre.size());
      pre.push_back({self + 1, self + 2, -1, d});
      pre.push_back({-1, -1, triangle++, d + 1});
    }
    pre.push_back({-1, -1, triangle++, leaves - 1});
    return pre;
  }
  for (int d = 0; d < leaves - 1; ++d) pre.push_back({d + 1, -1, -1, d});
  pre.push_back({-1, -1, triangle++, leaves - 1});
  for (int d = leaves - 2; d >= 0; --d) {
    pre[std::size_t(d)].right = int(pre.size());
    pre.push_back({-1, -1, triangle++, d + 1});
  }
  return pre;
}

}  // namespace kdopcd::cuda::test
