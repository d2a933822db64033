// The binary-stack and explicit-stack traversals visit the same DOP pairs in the same order as the
// reference's kdopcd::traverse for every descent rule, and report (never hide) a too deep tree.
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"
#include "traversal_test_util.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd_cuda/traversal.hpp"

namespace kdopcd::cuda {
namespace {

using test::caterpillar;
using test::reference_visits;
using test::Visit;
using Sequences = test::VisitSequences;

template <bool Binary>
Sequences layout_visits(const DopTree& first, const DopTree& second, const SatSetup& setup, int n, DescentRule rule) {
  const PostOrderTree pf = make_post_order_tree(first), ps = make_post_order_tree(second);
  Sequences s;
  const int k = first.k(), half = k / 2;
  auto separated = [&](std::int32_t f, std::int32_t g) {
    s.tests.emplace_back(pf.nodes[std::size_t(f)].ref, ps.nodes[std::size_t(g)].ref);
    const double* b = &pf.coefficients[std::size_t(f) * std::size_t(k)];
    const double* a = &ps.coefficients[std::size_t(g) * std::size_t(k)];
    for (int i = 0; i < n; ++i) {
      const AxisSetup& ax = setup.axes[std::size_t(i)];
      if (float_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated())
        return true;
    }
    return false;
  };
  auto leaf = [&](std::int32_t f, std::int32_t g) { s.leaves.emplace_back(f, g); };
  TraversalStatus status;
  if constexpr (Binary)
    status = binary_stack_traverse<1>(pf.nodes.data(), pf.root(), ps.nodes.data(), ps.root(), rule, separated, leaf);
  else
    status = explicit_stack_traverse<kExplicitStackCapacity>(pf.nodes.data(), pf.root(), ps.nodes.data(), ps.root(),
                                                             rule, separated, leaf);
  EXPECT_EQ(status, TraversalStatus::Ok);
  return s;
}

void expect_same_visits(const DopTree& first, const DopTree& second, const Pose& pose, std::size_t* total_tests) {
  const SatSetup setup = make_sat_setup(first.orientations(), pose);
  for (DescentRule rule : {DescentRule::Shallower, DescentRule::First, DescentRule::Second})
    for (int n : {first.k(), 3}) {
      SCOPED_TRACE(std::string("rule ") + to_string(rule) + ", axes " + std::to_string(n));
      const Sequences ref = reference_visits(first, second, setup, n, rule);
      const Sequences bin = layout_visits<true>(first, second, setup, n, rule);
      const Sequences exp = layout_visits<false>(first, second, setup, n, rule);
      EXPECT_EQ(bin.tests, ref.tests);
      EXPECT_EQ(exp.tests, ref.tests);
      EXPECT_EQ(bin.leaves, ref.leaves);
      EXPECT_EQ(exp.leaves, ref.leaves);
      *total_tests += ref.tests.size();
    }
}

TEST(Traversal, BinaryAndExplicitStackVisitTheReferencePairsInOrder) {
  const Mesh torus = make_torus(2, 0.7, 16, 9);
  const Mesh sphere = make_sphere(1.3, 2);
  std::size_t total = 0;
  for (int k : {6, 24}) {
    const DopTree t(torus, k), s(sphere, k);
    for (int i = 0; i < 4; ++i) {
      Pose pose;
      pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.4 + i, Vec3(1, 2, 3 - i).normalized()));
      pose.translation = Vec3(0.9 * i, 0.5, 0.2 * i);
      expect_same_visits(t, s, pose, &total);  // different trees and depths
      expect_same_visits(t, t, pose, &total);
    }
  }
  EXPECT_GT(total, 10000u);  // the poses overlap: deep traversals, not root rejections
}

TEST(Traversal, SameVisitsOnTouchingCows) {
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(8, 8, 3);
  const auto pairs = sort_and_sweep(world.world_boxes());
  ASSERT_FALSE(pairs.empty());
  std::size_t total = 0;
  for (std::size_t i = 0; i < std::min<std::size_t>(pairs.size(), 3); ++i) {
    const auto [a, b] = pairs[i];
    expect_same_visits(world.tree_of(a), world.tree_of(b), relative_pose(world.pose(a), world.pose(b)), &total);
  }
  EXPECT_GT(total, 1000u);
}

// Synthetic trees (no geometry; every pair overlaps; test::caterpillar) against a recursive
// reference.
void recursive_visits(const std::vector<DopNode>& f, const std::vector<DopNode>& s, int a, int b, DescentRule rule,
                      std::vector<Visit>& out) {
  out.emplace_back(a, b);
  const DopNode& na = f[std::size_t(a)];
  const DopNode& nb = s[std::size_t(b)];
  if (na.is_leaf() && nb.is_leaf()) return;
  bool first;
  if (na.is_leaf()) first = false;
  else if (nb.is_leaf()) first = true;
  else if (rule == DescentRule::First) first = true;
  else if (rule == DescentRule::Second) first = false;
  else first = na.depth <= nb.depth;
  if (first) {
    recursive_visits(f, s, na.left, b, rule, out);
    recursive_visits(f, s, na.right, b, rule, out);
  } else {
    recursive_visits(f, s, a, nb.left, rule, out);
    recursive_visits(f, s, a, nb.right, rule, out);
  }
}

template <int Words, bool Binary, int Capacity = kExplicitStackCapacity>
std::pair<TraversalStatus, std::vector<Visit>> synthetic(const std::vector<DopNode>& f, const std::vector<DopNode>& s,
                                                         DescentRule rule) {
  const auto pf = post_order_layout(f), ps = post_order_layout(s);
  std::vector<Visit> out;
  auto separated = [&](std::int32_t a, std::int32_t b) {
    out.emplace_back(pf[std::size_t(a)].ref, ps[std::size_t(b)].ref);
    return false;
  };
  auto leaf = [](std::int32_t, std::int32_t) {};
  const std::int32_t rf = std::int32_t(pf.size()) - 1, rs = std::int32_t(ps.size()) - 1;
  if constexpr (Binary)
    return {binary_stack_traverse<Words>(pf.data(), rf, ps.data(), rs, rule, separated, leaf), out};
  else
    return {explicit_stack_traverse<Capacity>(pf.data(), rf, ps.data(), rs, rule, separated, leaf), out};
}

TEST(Traversal, DeepTreesUseMoreWordsOrReportOverflow) {
  EXPECT_EQ(required_stack_words(31, 31), 1);  // the deepest reference trees (2^31 triangles)
  EXPECT_EQ(required_stack_words(40, 40), 2);
  EXPECT_EQ(required_stack_words(64, 64), 0);  // refused: the caller reports an error
  for (bool left_deep : {false, true})
    for (DescentRule rule : {DescentRule::Shallower, DescentRule::First, DescentRule::Second}) {
      SCOPED_TRACE(std::string(to_string(rule)) + (left_deep ? ", left-deep" : ", right-deep"));
      // Depth 31 + 31 = 62 labels: one word is enough.
      const auto c32 = caterpillar(32, left_deep);
      std::vector<Visit> ref;
      recursive_visits(c32, c32, 0, 0, rule, ref);
      const auto [st1, v1] = synthetic<1, true>(c32, c32, rule);
      EXPECT_EQ(st1, TraversalStatus::Ok);
      EXPECT_EQ(v1, ref);
      // Depth 40 + 40 = 80 labels: one word overflows (reported, after a prefix of the
      // reference's visits), two words give the reference.
      const auto c41 = caterpillar(41, left_deep);
      ref.clear();
      recursive_visits(c41, c41, 0, 0, rule, ref);
      const auto [so1, vo1] = synthetic<1, true>(c41, c41, rule);
      EXPECT_EQ(so1, TraversalStatus::StackOverflow);
      EXPECT_LT(vo1.size(), ref.size());
      EXPECT_TRUE(std::equal(vo1.begin(), vo1.end(), ref.begin()));
      const auto [so2, vo2] = synthetic<2, true>(c41, c41, rule);
      EXPECT_EQ(so2, TraversalStatus::Ok);
      EXPECT_EQ(vo2, ref);
      // The explicit stack: left-deep trees pile up pending right children (up to 80 > 64:
      // reported); with room for 128 pairs it gives the reference.
      const auto [se, ve] = synthetic<1, false>(c41, c41, rule);
      if (left_deep) {
        EXPECT_EQ(se, TraversalStatus::StackOverflow);
      }
      if (se == TraversalStatus::Ok) {
        EXPECT_EQ(ve, ref);
      }
      const auto [se2, ve2] = synthetic<1, false, 128>(c41, c41, rule);
      EXPECT_EQ(se2, TraversalStatus::Ok);
      EXPECT_EQ(ve2, ref);
    }
}

}  // namespace
}  // namespace kdopcd::cuda
