// The fixed backend decides a root pair's axes from bounds of their p terms before it works out
// the exactly rounded centred translation (fixed_offset_bounds, fixed_verdict_from_bounds). These
// tests check that the bounds always hold the exact p terms, that a decided verdict is the exact
// test's, and that queries with and without the bounds test the same pairs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "kdopcd/collide.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_fixed_lanes.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/shapes.hpp"

using namespace kdopcd;

namespace {

// The exact p terms of axis i, as the fixed query makes them once it has T_c.
NarrowFixedAxis exact_axis(const OrientationSet& set, const Mat3& M, const Vec3& T, const Vec3& c1, const Vec3& c2,
                           int i, double s, const FixedParams& f) {
  const Vec3 Tc = centred_translation(M, T, c1, c2);
  return narrow_fixed_axis(quantize_axis(make_axis_setup(set, M, Tc, i), s, f), set.half(), f);
}

}  // namespace

// Random poses, centres and scales over many magnitudes (far from the origin the centred
// translation cancels almost all of T), every axis of k = 24, several (b, c, z) including z > b + c:
// the exact p1 and p2 always lie within the bounds.
TEST(FixedOffsetBounds, HoldTheExactPTerms) {
  std::mt19937_64 gen(4242);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> exponent(-30, 30);
  const OrientationSet& set = orientation_set(24);
  const FixedParams params[] = {{18, 18, 18}, {4, 4, 4}, {29, 29, 44}, {10, 12, 30}, {30, 28, 10}};
  int checked = 0;
  for (int it = 0; it < 20000; ++it) {
    Pose pose;
    pose.rotation = Eigen::Quaterniond(u(gen), u(gen), u(gen), u(gen)).normalized();
    const double size = std::ldexp(1.0, exponent(gen));
    const double far = it % 3 == 0 ? std::ldexp(1.0, exponent(gen) + 20) : size;
    const Vec3 c1(far * u(gen), far * u(gen), far * u(gen)), c2(far * u(gen), far * u(gen), far * u(gen));
    const Mat3 M = pose.matrix();
    // T_c of a few sizes, including |p / s| beyond the clamp at 4.
    const Vec3 Tc_target(size * 6 * u(gen), size * 6 * u(gen), size * 6 * u(gen));
    pose.translation = Tc_target + c1 - M * c2;
    const double s = size * (0.5 + std::fabs(u(gen)));
    const FixedParams& f = params[it % std::size(params)];
    const FixedOffsetEstimate estimate = estimate_fixed_offsets(M, pose.translation, c1, c2, s);
    for (int i = 0; i < set.k(); ++i) {
      const NarrowFixedAxis exact = exact_axis(set, M, pose.translation, c1, c2, i, s, f);
      const FixedOffsetBounds b =
          fixed_offset_bounds(estimate, make_axis_setup(set, M, pose.translation, i).L, f);
      ASSERT_LE(b.p1_low, double(exact.p1)) << "iteration " << it << " axis " << i;
      ASSERT_GE(b.p1_high, double(exact.p1)) << "iteration " << it << " axis " << i;
      ASSERT_LE(b.p2_low, double(exact.p2)) << "iteration " << it << " axis " << i;
      ASSERT_GE(b.p2_high, double(exact.p2)) << "iteration " << it << " axis " << i;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

// Near the origin the bounds are narrow: a few units of the last place of p1 and p2, so that
// separated poses are decided without T_c.
TEST(FixedOffsetBounds, AreNarrowForOrdinaryPoses) {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  const OrientationSet& set = orientation_set(24);
  const FixedParams f;
  for (int it = 0; it < 1000; ++it) {
    Pose pose;
    pose.rotation = Eigen::Quaterniond(u(gen), u(gen), u(gen), u(gen)).normalized();
    pose.translation = Vec3(u(gen), u(gen), u(gen));
    const Vec3 c1(u(gen), u(gen), u(gen)), c2(u(gen), u(gen), u(gen));
    const Mat3 M = pose.matrix();
    const FixedOffsetBounds b =
        fixed_offset_bounds(estimate_fixed_offsets(M, pose.translation, c1, c2, 1.0), set.direction(0), f);
    const double unit = std::ldexp(1.0, f.b + f.c - f.z);  // one step of p'
    EXPECT_LE(b.p1_high - b.p1_low, 4 * unit) << it;
    EXPECT_LE(b.p2_high - b.p2_low, 4 * unit) << it;
  }
}

// A decided verdict is the verdict for every p within the bounds; NaN bounds decide nothing.
TEST(FixedOffsetBounds, VerdictIsTheExactOneWheneverDecided) {
  std::mt19937_64 gen(11);
  std::uniform_int_distribution<std::int64_t> sum(-(std::int64_t(1) << 40), std::int64_t(1) << 40);
  std::uniform_int_distribution<std::int64_t> width(0, 1 << 12);
  int decided = 0;
  for (int it = 0; it < 200000; ++it) {
    const std::int64_t s1 = sum(gen), s2 = sum(gen);
    const std::int64_t p1 = sum(gen) / (it % 2 ? 1 : 1 << 20), p2 = sum(gen) / (it % 3 ? 1 : 1 << 20);
    const std::int64_t w1 = width(gen), w2 = width(gen);
    const FixedOffsetBounds b{double(p1 - w1), double(p1 + w1), double(p2 - w2), double(p2 + w2)};
    const int verdict = fixed_verdict_from_bounds(s1, s2, b);
    if (verdict < 0) continue;
    ++decided;
    for (const std::int64_t q1 : {p1 - w1, p1, p1 + w1})
      for (const std::int64_t q2 : {p2 - w2, p2, p2 + w2})
        ASSERT_EQ(verdict, int(s1 + q1 > 0 || s2 - q2 > 0)) << "iteration " << it;
  }
  EXPECT_GT(decided, 0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(fixed_verdict_from_bounds(1 << 30, 1 << 30, {nan, nan, nan, nan}), -1);
}

// Queries through the pose (root axes decided from the bounds where they suffice) test the same
// pairs as queries through the set-up of the exact centred pose (every axis exact), over poses
// that sweep the second object through the first along several directions in small steps, so
// that many root axes are decided by margins near zero.
TEST(FixedOffsetBounds, QueriesEqualTheExactSetUp) {
  const Mesh a = make_torus(1.0, 0.3, 24, 12), b = make_torus(0.8, 0.25, 20, 10);
  const Vec3 offset(1e5, -3e4, 2e3);  // far from the origin as well as near it
  for (const bool far : {false, true}) {
    Mesh fa = a, fb = b;
    if (far)
      for (Mesh* m : {&fa, &fb})
        for (Vec3& v : m->vertices) v += offset;
    const DopTree ta(fa, 24), tb(fb, 24);
    std::mt19937_64 gen(far ? 5 : 3);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int dir = 0; dir < 6; ++dir) {
      const Eigen::Quaterniond rotation = Eigen::Quaterniond(u(gen), u(gen), u(gen), u(gen)).normalized();
      const Vec3 direction = Vec3(u(gen), u(gen), u(gen)).normalized();
      for (int step = 0; step <= 160; ++step) {
        Pose pose;
        pose.rotation = rotation;
        pose.translation = (far ? Vec3(offset - rotation.toRotationMatrix() * offset) : Vec3::Zero()) +
                           direction * (3.2 * step / 160.0);
        // At b = c = z = 4 the bounds span a good part of a p' step, so many root axes are left
        // to the exact test.
        for (const FixedParams& f : {FixedParams{}, FixedParams{4, 4, 4}, FixedParams{6, 8, 5}}) {
          for (int n : {24, 5}) {
            TraversalOptions options;
            options.axes = n;
            const QueryResult via_pose = collide(ta, tb, pose, options, SatBackend::Fixed, f);
            const SatSetup setup = make_sat_setup(ta.orientations(), centred_pose(ta, tb, pose));
            const QueryResult via_setup =
                collide(ta, tb, setup, place_vertices(fb, pose), options, SatBackend::Fixed, f);
            const auto where = ::testing::Message() << "far " << far << " direction " << dir << " step " << step
                                                    << " b " << f.b << " n " << n;
            ASSERT_EQ(via_pose.stats.pair_tests, via_setup.stats.pair_tests) << where;
            ASSERT_EQ(via_pose.stats.axis_tests, via_setup.stats.axis_tests) << where;
            ASSERT_EQ(via_pose.stats.leaf_pairs, via_setup.stats.leaf_pairs) << where;
            ASSERT_EQ(via_pose.stats.max_stack_depth, via_setup.stats.max_stack_depth) << where;
          }
        }
      }
    }
  }
}

// quantize_scaled_offset is quantize_offset(scale_offset(p, s), z), including quotients on and
// next to the p' grid (where it falls back to the plain formula), beyond the clamp, and NaN and
// infinities.
TEST(FixedOffsetBounds, ScaledOffsetEqualsThePlainFormula) {
  std::mt19937_64 gen(99);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> exponent(-40, 40);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (int it = 0; it < 400000; ++it) {
    const int z = 4 + it % 41;
    const double s = std::ldexp(1.0 + std::fabs(u(gen)), exponent(gen));
    double p = 6 * u(gen) * s;
    if (it % 3 == 0) {  // on the grid, or a few ulps off it
      const double grid = std::round(p / s * std::ldexp(1.0, z)) * std::ldexp(1.0, -z) * s;
      p = grid;
      for (int step = it % 7 - 3; step != 0; step += step > 0 ? -1 : 1)
        p = std::nextafter(p, step > 0 ? inf : -inf);
    }
    if (it % 1000 == 1) p = (it / 1000) % 3 == 0 ? nan : ((it / 1000) % 3 == 1 ? inf : -inf);
    if (it % 1000 == 2) p = 0;
    ASSERT_EQ(quantize_scaled_offset(p, s, z), quantize_offset(scale_offset(p, s), z))
        << "p " << p << " s " << s << " z " << z;
  }
}
