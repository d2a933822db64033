// The SIMD pair tests, whole and split into per-node halves, decide exactly as the scalar ones:
// same verdict and same number of axes tested. Float: on random operands, on operands built to touch exactly (differences of +0 and
// -0), on degenerate nodes (points, NaN, infinities) and on real tree nodes, and a float query
// through them has the counters of the plain float_axis_diffs traversal. Fixed point: on random
// and extreme quantized nodes against the scalar test and Eq. 22 itself, and on real quantized
// trees (the fixed query's counters are checked in query_speed_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kdopcd/collide.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_fixed_lanes.hpp"
#include "kdopcd/sat_float_axes.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/shapes.hpp"
#include "every_target.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

Pose random_pose(std::mt19937_64& rng, double spread) {
  std::normal_distribution<double> g(0, 1);
  std::uniform_real_distribution<double> u(-spread, spread);
  Pose pose;
  pose.rotation = Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized();
  pose.translation = Vec3(u(rng), u(rng), u(rng));
  return pose;
}

// The DOP of a few random points around a random centre (a point now and then): overlapping
// and separated pairs both common at small translations.
std::vector<double> random_dop(const OrientationSet& set, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  const Vec3 centre(0.2 * u(rng), 0.2 * u(rng), 0.2 * u(rng));
  const double radius = rng() % 8 == 0 ? 0.0 : 0.3 + 0.5 * std::abs(u(rng));
  std::vector<Vec3> points;
  for (int i = 0; i < 4; ++i) points.push_back(centre + radius * Vec3(u(rng), u(rng), u(rng)));
  std::vector<double> out(static_cast<std::size_t>(set.k()));
  dop_of_points(set, points, out);
  return out;
}

// The k axes of a pose in the scalar form; every one must be of the structured kind.
std::vector<FloatAxis> float_axes(const OrientationSet& set, const Pose& pose) {
  std::vector<FloatAxis> axes(std::size_t(set.k()));
  const Mat3 M = pose.matrix();
  for (int i = 0; i < set.k(); ++i) {
    const bool ok = make_float_axis(make_axis_setup(set, M, pose.translation, i), i, set.half(), axes[std::size_t(i)]);
    EXPECT_TRUE(ok) << "axis " << i;
  }
  return axes;
}

// Compares the two forms on the node pair (a, b) for every axis count of interest.
void expect_same_verdicts(const std::vector<FloatAxis>& axes, const double* a, const double* b, int k,
                          const char* what, int* separated_count = nullptr) {
  const FloatPairTestLanes lanes = float_pair_test_lanes();
  const FloatPairTestTerms terms = float_pair_test_terms();
  for (int n : {1, 2, 3, k / 2, k - 1, k}) {
    FloatAxisTable table;
    make_float_axis_table(axes, n, table);
    const PairVerdict scalar = float_pair_test_scalar(axes, n, a, b);
    const PairVerdict simd = lanes(table, a, b);
    ASSERT_EQ(simd.separated, scalar.separated) << what << " k " << k << " n " << n;
    ASSERT_EQ(simd.axes_tested, scalar.axes_tested) << what << " k " << k << " n " << n;
    // The per-node form: both halves made by the call (as far as the test gets), then both kept,
    // then one kept and the other made again over another pair's half, then halves of which every
    // block was made before (by a pair with a node that contains everything): the same verdict.
    FloatNodeTerms ta, tb, other_a, full_a, full_b, huge_terms;
    std::uint32_t ma = 0, mb = 0, mo = 0, mfa = 0, mfb = 0, mh = 0;
    const PairVerdict made = terms(table, a, b, ta, ma, tb, mb);
    const PairVerdict kept = terms(table, a, b, ta, ma, tb, mb);
    (void)terms(table, b, a, other_a, mo, tb, mb);  // other_a: a half of another node
    mo = 0;
    const PairVerdict remade = terms(table, a, b, other_a, mo, tb, mb);
    // A pair that no axis separates reaches every block: its masks are then all the blocks (a
    // run of low bits; how many depends on the vector width), and another call adds none.
    const std::vector<double> huge(std::size_t(k), 1e300);
    auto expect_all_blocks = [&](std::uint32_t& mask, FloatNodeTerms& half, bool as_second) {
      ASSERT_NE(mask, 0u);
      ASSERT_EQ(mask & (mask + 1), 0u);
      const std::uint32_t before = mask;
      std::uint32_t other_mask = 0;
      (void)(as_second ? terms(table, a, huge.data(), half, mask, huge_terms, other_mask)
                       : terms(table, huge.data(), b, huge_terms, other_mask, half, mask));
      ASSERT_EQ(mask, before);
    };
    if (!terms(table, a, huge.data(), full_a, mfa, huge_terms, mh).separated) expect_all_blocks(mfa, full_a, true);
    mh = 0;
    if (!terms(table, huge.data(), b, huge_terms, mh, full_b, mfb).separated) expect_all_blocks(mfb, full_b, false);
    const PairVerdict full = terms(table, a, b, full_a, mfa, full_b, mfb);
    for (const PairVerdict& v : {made, kept, remade, full}) {
      ASSERT_EQ(v.separated, scalar.separated) << what << " terms, k " << k << " n " << n;
      ASSERT_EQ(v.axes_tested, scalar.axes_tested) << what << " terms, k " << k << " n " << n;
    }
    if (separated_count && n == k) *separated_count += scalar.separated;
  }
}

}  // namespace

// collide() makes its float axes from the pose directly (make_float_axis with the set): the
// very axes, bit for bit, of make_axis_setup through make_float_axis, and make_axis_setup's own
// L and triples are make_projected_triple's. Random rotations, rotations by multiples of 90
// degrees (axes on the cube map's cell borders and the triples' cone boundaries) and tiny ones.
TEST(FloatSimd, AxesFromThePoseEqualTheSetUpsAxes) {
  std::mt19937_64 rng(20261125);
  std::vector<Pose> poses;
  for (int r = 0; r < 300; ++r) poses.push_back(random_pose(rng, 3.0));
  const Vec3 units[] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), Vec3(1, 1, 0), Vec3(1, 1, 1), Vec3(1, -2, 3)};
  for (const Vec3& u : units)
    for (double angle : {0.0, 0.5 * M_PI, M_PI, 1.5 * M_PI, 1e-12, -3e-9, 0.25 * M_PI}) {
      Pose pose;
      pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(angle, u.normalized()));
      pose.translation = Vec3(0.5, -1e-3, 7.0);
      poses.push_back(pose);
    }
  auto same_double = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  int axes_checked = 0;
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    for (const Pose& pose : poses) {
      const Mat3 M = pose.matrix();
      for (int i = 0; i < k; ++i) {
        FloatAxis expected, direct;
        ASSERT_TRUE(make_float_axis(make_axis_setup(set, M, pose.translation, i), i, set.half(), expected));
        make_float_axis(set, M, pose.translation, i, direct);
        ASSERT_EQ(direct.own_min, expected.own_min) << "k " << k << " axis " << i;
        ASSERT_EQ(direct.own_max, expected.own_max) << "k " << k << " axis " << i;
        for (int m = 0; m < 3; ++m) {
          ASSERT_EQ(direct.j[m], expected.j[m]) << "k " << k << " axis " << i;
          ASSERT_EQ(direct.jk[m], expected.jk[m]) << "k " << k << " axis " << i;
          ASSERT_TRUE(same_double(direct.P[m], expected.P[m])) << "k " << k << " axis " << i;
        }
        ASSERT_TRUE(same_double(direct.p, expected.p)) << "k " << k << " axis " << i;
        // make_axis_setup is made of make_projected_triple's L and triple and the own triple.
        const AxisSetup axis = make_axis_setup(set, M, pose.translation, i);
        const ProjectedTriple projected = make_projected_triple(set, M, i);
        const FaceTriple& own = set.own_direction_triple(i / 2);
        ASSERT_TRUE(axis.L == projected.L);
        ASSERT_EQ(i % 2 == 0 ? axis.jA : axis.jB, projected.triple.j);
        ASSERT_EQ(i % 2 == 0 ? axis.jB : axis.jA, own.j);
        ++axes_checked;
      }
    }
  }
  EXPECT_GT(axes_checked, 300 * 24);
}

TEST(FloatSimd, ReportsItsInstructionSet) {
  const std::string target = float_pair_test_target();
  EXPECT_FALSE(target.empty());
  std::printf("float pair test SIMD target: %s\n", target.c_str());
}

// Random DOP-like nodes at random poses, for every supported k and axis count. Both outcomes
// must occur often, or the comparison would say little.
TEST(FloatSimd, EqualsScalarOnRandomNodes) {
  std::mt19937_64 rng(11);
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    int separated = 0, total = 0;
    for (int trial = 0; trial < 4000; ++trial) {
      const std::vector<FloatAxis> axes = float_axes(set, random_pose(rng, 0.4));
      std::vector<double> a = random_dop(set, rng), b = random_dop(set, rng);
      if (trial % 9 == 0) std::swap(a[0], a[std::size_t(k / 2)]);  // now and then an empty DOP
      expect_same_verdicts(axes, a.data(), b.data(), k, "random", &separated);
      ++total;
    }
    EXPECT_GT(separated, total / 10) << "k " << k;
    EXPECT_LT(separated, total - total / 10) << "k " << k;
  }
}

// Identity rotations and small integer coefficients and translations: every sum is exact, so
// many axes come out at exactly 0 (touching, not separated) and some at -0.
TEST(FloatSimd, EqualsScalarWhenTouchingExactly) {
  std::mt19937_64 rng(5);
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    int separated = 0, total = 0;
    for (int trial = 0; trial < 3000; ++trial) {
      Pose pose;
      pose.translation = Vec3(double(int(rng() % 5) - 2), double(int(rng() % 5) - 2), double(int(rng() % 3) - 1));
      const std::vector<FloatAxis> axes = float_axes(set, pose);
      std::vector<double> a(static_cast<std::size_t>(k)), b(static_cast<std::size_t>(k));
      for (auto* node : {&a, &b})
        for (auto& c : *node) c = double(int(rng() % 3));  // 0, 1, 2: boxes that meet face to face
      if (trial % 7 == 0) a[std::size_t(rng() % std::uint64_t(k))] = -0.0;
      expect_same_verdicts(axes, a.data(), b.data(), k, "touching", &separated);
      ++total;
    }
    EXPECT_GT(separated, 0) << "k " << k;
    EXPECT_LT(separated, total) << "k " << k;
  }
}

// Points (every coefficient 0), NaN and infinite coefficients: the comparisons of both forms see
// the same values, so a NaN lane separates in neither.
TEST(FloatSimd, EqualsScalarOnDegenerateNodes) {
  std::mt19937_64 rng(3);
  const double specials[] = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::denorm_min(), 1e300};
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    for (int trial = 0; trial < 2000; ++trial) {
      const std::vector<FloatAxis> axes = float_axes(set, random_pose(rng, 0.5));
      std::vector<double> a(static_cast<std::size_t>(k), 0.0), b(static_cast<std::size_t>(k), 0.0);
      for (int m = 0; m < 3; ++m) {
        a[std::size_t(rng() % std::uint64_t(k))] = specials[rng() % std::size(specials)];
        b[std::size_t(rng() % std::uint64_t(k))] = specials[rng() % std::size(specials)];
      }
      expect_same_verdicts(axes, a.data(), b.data(), k, "degenerate");
    }
  }
}

// Nodes of real trees at poses from the pose classes and random ones.
TEST(FloatSimd, EqualsScalarOnRealTreeNodes) {
  REQUIRE_REAL_MESH("elephant.off");
  REQUIRE_REAL_MESH("hand.off");
  const Mesh first = load_mesh(real_mesh_path("elephant.off"));
  const Mesh second = load_mesh(real_mesh_path("hand.off"));
  std::mt19937_64 rng(9);
  for (int k : {18, 24, 26}) {
    const DopTree ta(first, k), tb(second, k);
    std::vector<Pose> poses;
    for (const ClassifiedPose& cp : make_pose_classes(ta, tb, Eigen::Quaterniond(0.9, 0.3, 0.2, 0.1), Vec3(1, 0.5, 0)))
      poses.push_back(cp.pose);
    for (int i = 0; i < 4; ++i) poses.push_back(random_pose(rng, 0.2));
    int separated = 0;
    for (const Pose& pose : poses) {
      const std::vector<FloatAxis> axes = float_axes(ta.orientations(), pose);
      for (int trial = 0; trial < 300; ++trial) {
        // Shallow nodes mostly, where both outcomes are common.
        const std::size_t nf = rng() % std::min<std::size_t>(ta.node_count(), trial < 150 ? 64 : ta.node_count());
        const std::size_t ns = rng() % std::min<std::size_t>(tb.node_count(), trial < 150 ? 64 : tb.node_count());
        expect_same_verdicts(axes, tb.coefficients(ns).data(), ta.coefficients(nf).data(), k, "real", &separated);
      }
    }
    EXPECT_GT(separated, 0) << "k " << k;
  }
}

// The wide test (one node against up to four in lanes, float_pair_test_wide) decides every pair
// as the scalar test: the overlap bit of each lane and the sum of the pairs' axes tested, with the
// lanes of either object, 1 to 4 lanes, every supported k and axis counts, on random nodes
// (empty and touching ones among them) and on real tree nodes, on every instruction set.
TEST(FloatSimd, WideLanesEqualScalarPerPair) {
  REQUIRE_REAL_MESH("elephant.off");
  const DopTree real(load_mesh(real_mesh_path("elephant.off")), 24);
  on_every_target([&] {
    const FloatPairTestWide wide = float_pair_test_wide();
    std::mt19937_64 rng(17);
    for (int k : kSupportedK) {
      const OrientationSet& set = orientation_set(k);
      int overlapping = 0, separated = 0;
      for (int trial = 0; trial < 1500; ++trial) {
        const std::vector<FloatAxis> axes = float_axes(set, random_pose(rng, 0.4));
        auto node = [&](int which) {
          if (k == 24 && which % 3 == 2) {  // a node of a real tree, shallow mostly
            const std::size_t i = rng() % std::min<std::size_t>(real.node_count(), 64);
            const auto c = real.coefficients(i);
            return std::vector<double>(c.begin(), c.end());
          }
          std::vector<double> dop = random_dop(set, rng);
          if (rng() % 11 == 0) std::swap(dop[0], dop[std::size_t(k / 2)]);  // an empty DOP
          if (rng() % 13 == 0) dop[std::size_t(rng() % std::uint64_t(k))] = -0.0;
          return dop;
        };
        const std::vector<double> other = node(0);
        const int count = 1 + int(rng() % kWideLanes);
        std::vector<std::vector<double>> nodes;
        std::vector<double> lanes(std::size_t(k) * kWideLanes, 0.0);
        for (int l = 0; l < kWideLanes; ++l) {
          nodes.push_back(node(l + 1));
          for (int f = 0; f < k; ++f) lanes[std::size_t(f) * kWideLanes + std::size_t(l)] = nodes.back()[std::size_t(f)];
        }
        const bool lanes_first = rng() % 2 == 0;
        for (int n : {1, 2, k / 2 + 1, k}) {
          FloatAxisTable table;
          make_float_axis_table(axes, n, table);
          std::uint32_t expected_bits = 0;
          std::uint64_t expected_axes = 0;
          for (int l = 0; l < count; ++l) {
            const double* b = lanes_first ? nodes[std::size_t(l)].data() : other.data();  // the first object's
            const double* a = lanes_first ? other.data() : nodes[std::size_t(l)].data();
            const PairVerdict v = float_pair_test_scalar(axes, n, a, b);
            if (!v.separated) expected_bits |= 1u << l;
            expected_axes += std::uint64_t(v.axes_tested);
            (v.separated ? separated : overlapping) += n == k;
          }
          WideOtherTerms memo;  // fresh, then kept: a second call reads the other node's half from it
          for (int call = 0; call < 2; ++call) {
            std::uint64_t axes_tested = 0;
            const std::uint32_t bits = wide(table, lanes.data(), count, lanes_first, other.data(), memo, axes_tested);
            ASSERT_EQ(bits, expected_bits) << "k " << k << " n " << n << " count " << count << " call " << call;
            ASSERT_EQ(axes_tested, expected_axes) << "k " << k << " n " << n << " count " << count << " call " << call;
          }
        }
      }
      EXPECT_GT(overlapping, 100) << "k " << k;
      EXPECT_GT(separated, 100) << "k " << k;
    }
  });
}

// The wide descent written plainly, for its counters: the collapse of ref/src/wide_tree.hpp (a
// node's two children, then the inner child of the largest size split, the left child in its
// place and the right one last, until four) and the scalar test of each child, child 0 first.
// The plain pair test of both plain traversals: float_axis_diffs on the set-up's first n axes.
auto plain_pair_test(const DopTree& first, const DopTree& second, const SatSetup& setup, int n) {
  return [&first, &second, &setup, n](int nf, int ns) {
    const int half = first.k() / 2;
    const double* b = first.coefficients(std::size_t(nf)).data();
    const double* a = second.coefficients(std::size_t(ns)).data();
    for (int i = 0; i < n; ++i) {
      const AxisSetup& ax = setup.axes[std::size_t(i)];
      if (float_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated())
        return PairVerdict{true, i + 1};
    }
    return PairVerdict{false, n};
  };
}

QueryResult plain_wide_traversal(const DopTree& first, const DopTree& second, const SatSetup& setup, int n) {
  const auto pair_test = plain_pair_test(first, second, setup, n);
  auto children = [](const DopTree& t, int b) {
    std::vector<int> c{t.node(std::size_t(b)).left, t.node(std::size_t(b)).right};
    while (c.size() < std::size_t(kWideLanes)) {
      int largest = -1;
      for (int l = 0; l < int(c.size()); ++l)
        if (!t.node(std::size_t(c[std::size_t(l)])).is_leaf() &&
            (largest < 0 || t.size(std::size_t(c[std::size_t(l)])) > t.size(std::size_t(c[std::size_t(largest)]))))
          largest = l;
      if (largest < 0) break;
      const DopNode& split = t.node(std::size_t(c[std::size_t(largest)]));
      c[std::size_t(largest)] = split.left;
      c.push_back(split.right);
    }
    return c;
  };
  QueryResult r;
  std::vector<std::pair<int, int>> stack;
  auto test = [&](int f, int s) {
    const PairVerdict v = pair_test(f, s);
    ++r.stats.pair_tests;
    r.stats.axis_tests += std::uint64_t(v.axes_tested);
    return !v.separated;
  };
  if (test(0, 0)) stack.emplace_back(0, 0);
  while (!stack.empty()) {
    const auto [f, s] = stack.back();
    stack.pop_back();
    const DopNode& nf = first.node(std::size_t(f));
    const DopNode& ns = second.node(std::size_t(s));
    if (nf.is_leaf() && ns.is_leaf()) {
      ++r.stats.leaf_pairs;
      continue;
    }
    const bool split_first = split_first_node(nf.is_leaf(), ns.is_leaf(), nf.depth, ns.depth, DescentRule::Larger,
                                              first.size(std::size_t(f)), second.size(std::size_t(s)));
    const std::vector<int> c = children(split_first ? first : second, split_first ? f : s);
    std::vector<std::pair<int, int>> overlapping;
    for (int child : c)
      if (split_first ? test(child, s) : test(f, child)) overlapping.emplace_back(split_first ? child : f, split_first ? s : child);
    stack.insert(stack.end(), overlapping.rbegin(), overlapping.rend());
  }
  return r;
}

// The float query (whose pair tests after the root are the SIMD ones) against the plain
// traversal with float_axis_diffs on the set-up: same counters, for every pose class and a
// partial axis count; the binary descent (wide = false) against traverse(), the wide descent (the
// default) against plain_wide_traversal, and the same contacts either way.
TEST(FloatSimd, QueryCountersEqualThePlainFloatTraversal) {
  REQUIRE_REAL_MESH("elephant.off");
  REQUIRE_REAL_MESH("hand.off");
  const Mesh first = load_mesh(real_mesh_path("elephant.off"));
  const Mesh second = load_mesh(real_mesh_path("hand.off"));
  const DopTree ta(first, 24), tb(second, 24);
  for (const ClassifiedPose& cp :
       make_pose_classes(ta, tb, Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())),
                         Vec3(1, 0.5, 0.25)))
    for (int n : {24, 7}) {
      TraversalOptions options;
      options.axes = n;
      options.leaf_planes = false;  // the k axes alone, as the plain traversal's pair test
      const SatSetup setup = make_sat_setup(ta.orientations(), cp.pose);
      const auto pair_test = plain_pair_test(ta, tb, setup, n);
      options.wide = false;
      const QueryResult plain = traverse(ta, tb, options, pair_test, [](int, int) { return false; });
      const QueryResult ours = collide(ta, tb, cp.pose, options);
      EXPECT_EQ(ours.stats.pair_tests, plain.stats.pair_tests) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(ours.stats.axis_tests, plain.stats.axis_tests) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(ours.stats.leaf_pairs, plain.stats.leaf_pairs) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(ours.stats.max_stack_depth, plain.stats.max_stack_depth) << to_string(cp.kind) << " n " << n;
      EXPECT_GT(plain.stats.pair_tests, 0u);
      options.wide = true;
      const QueryResult plain_wide = plain_wide_traversal(ta, tb, setup, n);
      const QueryResult wide = collide(ta, tb, cp.pose, options);
      EXPECT_EQ(wide.stats.pair_tests, plain_wide.stats.pair_tests) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(wide.stats.axis_tests, plain_wide.stats.axis_tests) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(wide.stats.leaf_pairs, plain_wide.stats.leaf_pairs) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(wide.contacts, ours.contacts) << to_string(cp.kind) << " n " << n;
      if (plain.stats.pair_tests > 1) {
        EXPECT_NE(wide.stats.pair_tests, 0u);
      }
    }
  // With axes = 0 the wide descent tests kWideDescentAxes per pair (collide_axes_per_pair), every
  // other query all k: the plain wide traversal on those axes has its counters.
  TraversalOptions automatic;
  automatic.leaf_planes = false;
  ASSERT_EQ(collide_axes_per_pair(automatic, 24, SatBackend::Float), kWideDescentAxes);
  for (const ClassifiedPose& cp :
       make_pose_classes(ta, tb, Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())),
                         Vec3(1, 0.5, 0.25))) {
    const QueryResult got = collide(ta, tb, cp.pose, automatic);
    const QueryResult plain = plain_wide_traversal(ta, tb, make_sat_setup(ta.orientations(), cp.pose), kWideDescentAxes);
    EXPECT_EQ(got.stats.pair_tests, plain.stats.pair_tests) << to_string(cp.kind);
    EXPECT_EQ(got.stats.axis_tests, plain.stats.axis_tests) << to_string(cp.kind);
    EXPECT_EQ(got.stats.leaf_pairs, plain.stats.leaf_pairs) << to_string(cp.kind);
  }
  TraversalOptions binary = automatic, threads = automatic, shallower = automatic, explicit_axes = automatic;
  binary.wide = false;
  threads.threads = 2;
  shallower.rule = DescentRule::Shallower;
  explicit_axes.axes = 20;
  EXPECT_EQ(collide_axes_per_pair(binary, 24, SatBackend::Float), 24);
  EXPECT_EQ(collide_axes_per_pair(threads, 24, SatBackend::Float), 24);
  EXPECT_EQ(collide_axes_per_pair(shallower, 24, SatBackend::Float), 24);
  EXPECT_EQ(collide_axes_per_pair(automatic, 24, SatBackend::Fixed), 24);
  EXPECT_EQ(collide_axes_per_pair(explicit_axes, 24, SatBackend::Float), 20);
  EXPECT_EQ(collide_axes_per_pair(automatic, 6, SatBackend::Float), 6);
}

namespace {

// Eq. 22's own-axis sums of a quantized node, as collide() precomputes them per node.
std::vector<std::int64_t> own_terms(const OrientationSet& set, const std::int64_t* x, int c) {
  const int k = set.k(), half = k / 2;
  std::vector<std::int64_t> terms(static_cast<std::size_t>(k));
  for (int i = 0; i < half; ++i) {
    QuantizedAxis ax{};
    const FaceTriple& t = set.own_direction_triple(i);
    for (int m = 0; m < 3; ++m) {
      ax.jA[m] = ax.jB[m] = t.j[m];
      ax.PA[m] = ax.PB[m] = quantize_mapping(t.P[m], c);
    }
    const NarrowFixedAxis own = narrow_fixed_axis(ax, half, FixedParams{kMinFixedBits, c, kMinFixedBits});
    terms[std::size_t(2 * i)] = narrow_mapped(own.PA, x, own.ja);
    terms[std::size_t(2 * i + 1)] = narrow_mapped(own.PA, x, own.jak);
  }
  return terms;
}

void expect_same_fixed_verdicts(const std::vector<NarrowFixedAxis>& axes, const std::vector<std::int64_t>& a,
                                const std::vector<std::int64_t>& b, const OrientationSet& set, const FixedParams& f,
                                const char* what, int* separated_count) {
  const int c = f.c;
  const FixedPairTestLanes lanes = fixed_pair_test_lanes();
  const FixedPairTestTerms terms = fixed_pair_test_terms();
  const int k = set.k();
  const std::vector<std::int64_t> oa = own_terms(set, a.data(), c), ob = own_terms(set, b.data(), c);
  for (int n : {1, 2, 3, k / 2, k - 1, k}) {
    const PairVerdict scalar = fixed_pair_test_scalar(axes, n, a.data(), b.data(), oa.data(), ob.data());
    // The table at the coefficients' b (32-bit products where b <= 30), and one that must take
    // full 64-bit products: both give the scalar verdict.
    for (int table_b : {f.b, kMaxFixedBits}) {
      FixedAxisTable table;
      make_fixed_axis_table(axes, n, table_b, table);
      ASSERT_EQ(table.products32, table_b <= 30) << what << " b " << table_b;
      const PairVerdict simd = lanes(table, a.data(), b.data(), oa.data(), ob.data());
      ASSERT_EQ(simd.separated, scalar.separated) << what << " k " << k << " n " << n << " b " << table_b;
      ASSERT_EQ(simd.axes_tested, scalar.axes_tested) << what << " k " << k << " n " << n << " b " << table_b;
      // The per-node form, halves made by the call, then kept, then one made over another's.
      FixedNodeTerms ta, tb, other_a;
      std::uint32_t ma = 0, mb = 0, mo = 0;
      const PairVerdict made = terms(table, a.data(), b.data(), oa.data(), ob.data(), ta, ma, tb, mb);
      const PairVerdict kept = terms(table, a.data(), b.data(), oa.data(), ob.data(), ta, ma, tb, mb);
      (void)terms(table, b.data(), a.data(), ob.data(), oa.data(), other_a, mo, tb, mb);
      mo = 0;
      const PairVerdict remade = terms(table, a.data(), b.data(), oa.data(), ob.data(), other_a, mo, tb, mb);
      for (const PairVerdict& v : {made, kept, remade}) {
        ASSERT_EQ(v.separated, scalar.separated) << what << " terms, k " << k << " n " << n << " b " << table_b;
        ASSERT_EQ(v.axes_tested, scalar.axes_tested) << what << " terms, k " << k << " n " << n << " b " << table_b;
      }
    }
    if (n == k) *separated_count += scalar.separated;
  }
}

}  // namespace

// Random quantized nodes (extreme values included) at random poses, several bit widths: the SIMD
// test's verdict and count are the scalar ones, which are fixed_axis_diffs' (checked here too).
TEST(FixedSimd, EqualsScalarAndEq22OnRandomNodes) {
  std::mt19937_64 rng(13);
  for (const FixedParams f : {FixedParams{18, 18, 18}, FixedParams{4, 4, 4}, FixedParams{29, 29, 44},
                              FixedParams{30, 28, 30}, FixedParams{40, 18, 18}}) {
    ASSERT_TRUE(narrow_fixed_params(f));
    const std::int64_t cmax = std::int64_t(1) << f.b;
    for (int k : kSupportedK) {
      const OrientationSet& set = orientation_set(k);
      int separated = 0, total = 0;
      for (int trial = 0; trial < 1500; ++trial) {
        const Pose pose = random_pose(rng, 0.4);
        std::vector<NarrowFixedAxis> axes(static_cast<std::size_t>(k));
        std::vector<QuantizedAxis> quantized(static_cast<std::size_t>(k));
        for (int i = 0; i < k; ++i) {
          quantized[std::size_t(i)] = quantize_axis(make_axis_setup(set, pose.matrix(), pose.translation, i), 2.0, f);
          axes[std::size_t(i)] = narrow_fixed_axis(quantized[std::size_t(i)], k / 2, f);
        }
        // DOPs of random points at scale 2, quantized; now and then a coefficient at +-2^b.
        std::vector<std::int64_t> a(static_cast<std::size_t>(k)), b(static_cast<std::size_t>(k));
        for (auto* node : {&a, &b}) {
          const std::vector<double> dop = random_dop(set, rng);
          for (int i = 0; i < k; ++i) (*node)[std::size_t(i)] = quantize_coefficient(scale_coefficient(dop[std::size_t(i)], 2.0), f.b);
          if (trial % 11 == 0) (*node)[rng() % std::uint64_t(k)] = rng() % 2 ? cmax : -cmax;
        }
        expect_same_fixed_verdicts(axes, a, b, set, f, "random", &separated);
        int first = 0;  // the plain Eq. 22 form's first separating axis
        while (first < k && !fixed_axis_diffs<true>(a.data(), b.data(), k / 2, quantized[std::size_t(first)], f).separated())
          ++first;
        const std::vector<std::int64_t> oa = own_terms(set, a.data(), f.c), ob = own_terms(set, b.data(), f.c);
        const PairVerdict scalar = fixed_pair_test_scalar(axes, k, a.data(), b.data(), oa.data(), ob.data());
        ASSERT_EQ(scalar.separated, first < k) << "k " << k;
        if (scalar.separated) {
          ASSERT_EQ(scalar.axes_tested, first + 1) << "k " << k;
        }
        ++total;
      }
      EXPECT_GT(separated, total / 20) << "k " << k << " b " << f.b;
      EXPECT_LT(separated, total - total / 20) << "k " << k << " b " << f.b;
    }
  }
}

// Nodes of real quantized trees (including identical nodes at the identity pose: touching).
TEST(FixedSimd, EqualsScalarOnRealTreeNodes) {
  REQUIRE_REAL_MESH("elephant.off");
  REQUIRE_REAL_MESH("hand.off");
  const Mesh first = load_mesh(real_mesh_path("elephant.off"));
  const Mesh second = load_mesh(real_mesh_path("hand.off"));
  std::mt19937_64 rng(17);
  const FixedParams f;
  for (int k : {18, 24}) {
    const DopTree ta(first, k), tb(second, k), tc(first, k);
    for (const auto* other : {&tb, &tc}) {
      const double s = scene_scale(ta, *other);
      const QuantizedTree qa(ta, s, f.b), qo(*other, s, f.b);
      std::vector<Pose> poses{Pose{}};
      for (int i = 0; i < 4; ++i) poses.push_back(random_pose(rng, 0.2));
      int separated = 0;
      for (const Pose& pose : poses) {
        const Pose centred = centred_pose(ta, *other, pose);
        std::vector<NarrowFixedAxis> axes(static_cast<std::size_t>(k));
        for (int i = 0; i < k; ++i)
          axes[std::size_t(i)] =
              narrow_fixed_axis(quantize_axis(make_axis_setup(ta.orientations(), centred.matrix(), centred.translation, i), s, f),
                                k / 2, f);
        for (int trial = 0; trial < 200; ++trial) {
          const std::size_t nf = rng() % std::min<std::size_t>(ta.node_count(), trial < 100 ? 64 : ta.node_count());
          const std::size_t ns = rng() % std::min<std::size_t>(other->node_count(), trial < 100 ? 64 : other->node_count());
          const std::vector<std::int64_t> b(qa.coefficients(nf), qa.coefficients(nf) + k);
          const std::vector<std::int64_t> a(qo.coefficients(ns), qo.coefficients(ns) + k);
          expect_same_fixed_verdicts(axes, a, b, ta.orientations(), f, "real", &separated);
        }
      }
      EXPECT_GT(separated, 0) << "k " << k;
    }
  }
}
