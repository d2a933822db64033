// The query set-up (query_setup.hpp) is the one code that makes a query's axes and quantized pose:
// every caller gets the same integers from it, and collide()'s fixed backend, which makes its axis
// table in SIMD lanes, gets them too, bit for bit, on every instruction set this machine has: on
// random poses, objects far from the origin, and offsets at and next to the rounding borders of
// p' (multiples of 2^-z, the clamp at |p / s| = 4). The triple search sums as the Eigen products
// it was written with. Failures are statuses on the device path, exceptions on the host's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kdopcd/error.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd/sat_fixed_lanes.hpp"
#include "kdopcd/sat_float_axes.hpp"
#include "kdopcd/shapes.hpp"
#include "every_target.hpp"

using namespace kdopcd;

namespace {

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

void expect_same_axis(const QuantizedAxis& x, const QuantizedAxis& y, const std::string& where) {
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(x.jA[c], y.jA[c]) << where;
    EXPECT_EQ(x.jB[c], y.jB[c]) << where;
    EXPECT_EQ(x.PA[c], y.PA[c]) << where;
    EXPECT_EQ(x.PB[c], y.PB[c]) << where;
  }
  EXPECT_EQ(x.p, y.p) << where;
}

void expect_same_axis(const DoubleAxis& x, const AxisSetup& y, const std::string& where) {
  for (int c = 0; c < 3; ++c) {
    EXPECT_TRUE(same_bits(x.L[c], y.L[c])) << where;
    EXPECT_EQ(x.jA[c], y.jA[std::size_t(c)]) << where;
    EXPECT_EQ(x.jB[c], y.jB[std::size_t(c)]) << where;
    EXPECT_TRUE(same_bits(x.PA[c], y.PA[std::size_t(c)])) << where;
    EXPECT_TRUE(same_bits(x.PB[c], y.PB[std::size_t(c)])) << where;
  }
  EXPECT_TRUE(same_bits(x.p, y.p)) << where;
}

// collide()'s fixed axis table of a pose (its own-structured 64-bit path: the directions and
// triples in SIMD lanes, p' of L . T_c by the lanes' fast path) against the table of the set-up's
// integers, lane for lane.
void expect_lanes_table_equals(const OrientationSet& set, const Mat3& M, const Vec3& Tc, double s, const FixedParams& f,
                               const std::vector<QuantizedAxis>& axes, const std::string& where) {
  const int k = set.k();
  ProjectedTripleLanes lanes;
  lanes.make(set, M, 0);  // as a root pair's first axis
  lanes.make_all(set, M, k);
  FixedAxisTable made, expected;
  make_fixed_axis_table(set, lanes, Tc, s, f, k, made);
  std::vector<NarrowFixedAxis> narrow;
  for (const QuantizedAxis& q : axes) narrow.push_back(narrow_fixed_axis(q, set.half(), f));
  make_fixed_axis_table(narrow, k, f.b, expected);
  ASSERT_EQ(made.axes, expected.axes) << where;
  for (auto [x, y] : {std::pair{&made.even, &expected.even}, std::pair{&made.odd, &expected.odd}}) {
    ASSERT_EQ(x->count, y->count) << where;
    constexpr std::size_t kFilled = 16 * sizeof(std::int64_t);  // make_fixed_axis_table's filled lanes
    for (int m = 0; m < 3; ++m) {
      EXPECT_EQ(std::memcmp(x->j[m], y->j[m], kFilled), 0) << where;
      EXPECT_EQ(std::memcmp(x->P[m], y->P[m], kFilled), 0) << where;
    }
    EXPECT_EQ(std::memcmp(x->p1, y->p1, kFilled), 0) << where;
    EXPECT_EQ(std::memcmp(x->p2, y->p2, kFilled), 0) << where;
  }
}

// collide()'s float axis table of a pose (p = L . T in SIMD lanes) against the set-up's float
// axes: p bit for bit.
void expect_float_table_equals(const OrientationSet& set, const Mat3& M, const Vec3& T,
                               const std::vector<DoubleAxis>& axes, const std::string& where) {
  const int k = set.k();
  ProjectedTripleLanes lanes;
  lanes.make_all(set, M, k);
  FloatAxisTable made;
  make_float_axis_table(set, lanes, T, k, made);
  for (int i = 0; i < k; ++i) {
    const FloatAxisLanes& l = i % 2 == 0 ? made.even : made.odd;
    EXPECT_TRUE(same_bits(l.p[i / 2], axes[std::size_t(i)].p)) << where << " axis " << i;
  }
}

Mat3 random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> g(0, 1);
  return Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
}

}  // namespace

// P = M_t L of the triple search is summed as Eigen's Matrix3d * Vector3d sums it (the product
// the search was written with), p = L . T as Eigen's dot product, and the axes' directions are
// Eigen's M^T D and M D normalized.
TEST(QuerySetup, SumsInTheOrderOfTheEigenProductsItReplaces) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g(0, 1);
  long compared = 0;
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    const OrientationView view = set.view();
    for (int t = 0; t < view.triple_count; ++t) {
      Mat3 Mt;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) Mt(r, c) = view.inverse_transposed[9 * t + 3 * r + c];
      for (int i = 0; i < 400; ++i) {
        Vec3 L(g(rng), g(rng), g(rng));
        if (i % 2) L.normalize();
        const Vec3 expected = Mt * L;
        double P[3];
        triple_verdict(view, t, L.data(), P);
        for (int c = 0; c < 3; ++c) ASSERT_TRUE(same_bits(P[c], expected[c])) << "k " << k << " triple " << t;
        const Vec3 T(g(rng) * 1e3, g(rng), g(rng) * 1e-3);
        ASSERT_TRUE(same_bits(axis_offset(L.data(), T.data()), L.dot(T))) << "k " << k << " triple " << t;
        ++compared;
      }
    }
    for (int r = 0; r < 200; ++r) {
      const Mat3 M = random_rotation(rng);
      const double m[9] = {M(0, 0), M(0, 1), M(0, 2), M(1, 0), M(1, 1), M(1, 2), M(2, 0), M(2, 1), M(2, 2)};
      for (int axis = 0; axis < k; ++axis) {
        DoubleAxis a;
        ASSERT_EQ(make_axis_geometry(view, m, axis, a), SetupStatus::Ok);
        const Vec3& D = set.direction(axis / 2);
        const Vec3 u = axis % 2 == 0 ? Vec3((M.transpose() * D).normalized()) : Vec3((M * D).normalized());
        if (axis % 2 == 1) {
          for (int c = 0; c < 3; ++c) ASSERT_TRUE(same_bits(a.L[c], u[c])) << "k " << k << " axis " << axis;
        }
        const FaceTriple expected = set.triple_for_scan(u);  // the search's definition
        const std::int32_t* j = axis % 2 == 0 ? a.jA : a.jB;
        const double* P = axis % 2 == 0 ? a.PA : a.PB;
        for (int c = 0; c < 3; ++c) {
          ASSERT_EQ(j[c], expected.j[std::size_t(c)]) << "k " << k << " axis " << axis;
          ASSERT_TRUE(same_bits(P[c], expected.P[std::size_t(c)])) << "k " << k << " axis " << axis;
        }
      }
    }
  }
  EXPECT_GT(compared, 60000);
}

// Every caller of the set-up gets the same integers: make_query_setup (the SystemC model, both RTL
// drivers, co-simulation and the CUDA multibody engine call it), the per-axis core on a pose view
// (what a device kernel runs), the reference's make_sat_setup + quantize_setup of the centred pose
// and quantize_pose (collide() from a set-up, test vectors), and collide()'s SIMD tables from a pose
// (the fixed backend's integers, the float backend's p).
// Objects 0 .. 1e15 from their files' origin, random poses, k = 6 .. 26, several b, c, z.
TEST(QuerySetup, EveryCallerGetsTheSameIntegersFarFromTheOrigin) {
  const Mesh box = make_box(Vec3(1.5, 0.75, 0.5));
  const Mesh ball = make_sphere(0.8, 1);
  const FixedParams params[] = {{18, 18, 18}, {12, 20, 30}, {30, 28, 10}, {4, 4, 4}, {10, 8, 30}};
  std::mt19937_64 rng(20261202);
  std::uniform_real_distribution<double> u(-1, 1);
  on_every_target([&] {
    int queries = 0, out_of_range = 0;
    for (double far : {0.0, 1e3, 1e6, 1e9, 1e15}) {
      Mesh first = box, second = ball;
      const Vec3 offset1 = far * Vec3(1, -0.5, 0.25), offset2 = far * Vec3(-0.75, 1, 0.5);
      for (Vec3& x : first.vertices) x += offset1;
      for (Vec3& x : second.vertices) x += offset2;
      for (int k : kSupportedK) {
        const DopTree t1(first, k), t2(second, k);
        const OrientationSet& set = t1.orientations();
        for (int r = 0; r < 12; ++r) {
          const FixedParams& f = params[std::size_t(r) % std::size(params)];
          const TriangleFixedParams tri{20 + r % 5, 24 - r % 3};
          Pose pose;
          pose.rotation = Eigen::Quaterniond(random_rotation(rng));
          // Near contact in the centred frames (|T_c| of the objects' size), or far apart.
          const Vec3 near = offset1 - pose.rotation.toRotationMatrix() * offset2;
          pose.translation = near + (r % 4 == 3 ? 7.0 : 1.5) * Vec3(u(rng), u(rng), u(rng));
          const std::string where = "far " + std::to_string(far) + " k " + std::to_string(k) + " r " + std::to_string(r);
          const QuerySetup setup = make_query_setup(t1, t2, pose, f, tri);
          ASSERT_EQ(setup.fixed_axes.size(), std::size_t(k));
          ASSERT_EQ(setup.float_axes.size(), std::size_t(k));
          // The reference's host formulas.
          const Pose centred = centred_pose(t1, t2, pose);
          EXPECT_EQ(setup.scale, scene_scale(t1, t2)) << where;
          for (int c = 0; c < 3; ++c) EXPECT_TRUE(same_bits(setup.centred.translation[c], centred.translation[c])) << where;
          const std::vector<QuantizedAxis> quantized = quantize_setup(make_sat_setup(set, centred), setup.scale, f);
          const SatSetup float_setup = make_sat_setup(set, pose);
          // The per-axis core on plain data.
          const QueryPoseView view = make_query_pose_view(pose, t1.centre(), t2.centre(), setup.scale, f);
          for (int i = 0; i < k; ++i) {
            const std::string axis = where + " axis " + std::to_string(i);
            expect_same_axis(setup.fixed_axes[std::size_t(i)], quantized[std::size_t(i)], axis);
            expect_same_axis(setup.float_axes[std::size_t(i)], float_setup.axes[std::size_t(i)], axis);
            DoubleAxis d;
            QuantizedAxis q;
            ASSERT_EQ(make_query_axis(set.view(), view, i, &d, &q), SetupStatus::Ok) << axis;
            expect_same_axis(q, setup.fixed_axes[std::size_t(i)], axis);
            expect_same_axis(d, float_setup.axes[std::size_t(i)], axis);
          }
          const QuantizedPose qpose = quantize_pose(centred, setup.scale, tri);
          EXPECT_EQ(setup.triangle_pose.in_range, qpose.in_range) << where;
          EXPECT_EQ(setup.triangle_pose.M, qpose.M) << where;
          EXPECT_EQ(setup.triangle_pose.T, qpose.T) << where;
          out_of_range += !qpose.in_range;
          if (narrow_fixed_params(f))
            expect_lanes_table_equals(set, pose.matrix(), centred.translation, setup.scale, f, setup.fixed_axes, where);
          expect_float_table_equals(set, pose.matrix(), pose.translation, setup.float_axes, where);
          ++queries;
        }
      }
    }
    EXPECT_EQ(queries, 5 * int(kSupportedK.size()) * 12);
    EXPECT_GT(out_of_range, 0);  // some poses are too far apart for the triangle unit
  });
}

// p' at and next to its rounding borders: T_c chosen so that the coordinate axes' p / s is a
// multiple of 2^-z, a double off one, or at the clamp |p / s| = 4 and a double off it. The set-up's
// p' is floor(clamp(RD(p / s), -4, 4) 2^z) (quantize_offset of scale_offset: the definition of
// docs/fixed-point.md §3) on every axis, and collide()'s SIMD table gives the same.
TEST(QuerySetup, OffsetsAtTheRoundingBordersGiveTheDefinitionsIntegers) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.3, 3.0);
  const FixedParams params[] = {{18, 18, 18}, {12, 20, 30}, {4, 4, 4}, {30, 28, 10}, {10, 8, 30}};
  on_every_target([&] {
    int borders = 0, queries = 0;
    for (int k : kSupportedK) {
      const OrientationSet& set = orientation_set(k);
      for (int r = 0; r < 60; ++r) {
        const FixedParams& f = params[std::size_t(r) % std::size(params)];
        const double s = r % 3 == 0 ? 1.0 : u(rng);
        const Mat3 M = random_rotation(rng);
        QueryPoseView q{};
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) q.M[3 * a + b] = M(a, b);
        q.s = s;
        q.fixed = f;
        // Axes 0, 2, 4 are x, y, z exactly: their p is T_c's coordinate.
        for (int c = 0; c < 3; ++c) {
          const int kind = int(rng() % 5);
          double border = kind == 4 ? 4.0 * s : std::ldexp(double(std::int64_t(rng() % 4001) - 2000), -f.z) * s;
          if (rng() % 2) border = -border;
          const int step = int(rng() % 3) - 1;  // the border, or a double below or above it
          q.Tc[c] = step == 0 ? border : std::nextafter(border, step * std::numeric_limits<double>::infinity());
          q.T[c] = q.Tc[c];
        }
        for (int i = 0; i < k; ++i) {
          const std::string where = "k " + std::to_string(k) + " r " + std::to_string(r) + " axis " + std::to_string(i);
          DoubleAxis d;
          QuantizedAxis quantized;
          ASSERT_EQ(make_query_axis(set.view(), q, i, &d, &quantized), SetupStatus::Ok) << where;
          const std::int64_t definition = quantize_offset(scale_offset(d.p, s), f.z);  // d.p = L . T = L . T_c here
          EXPECT_EQ(quantized.p, definition) << where;
          if (i % 2 == 0 && i < 6) {
            const double scaled = std::ldexp(d.p / s, f.z);
            borders += std::fabs(scaled - std::nearbyint(scaled)) < 1e-6 || std::fabs(std::fabs(d.p / s) - 4) < 1e-9;
          }
        }
        if (narrow_fixed_params(f)) {
          std::vector<QuantizedAxis> axes(static_cast<std::size_t>(k));
          for (int i = 0; i < k; ++i) make_query_axis(set.view(), q, i, nullptr, &axes[std::size_t(i)]);
          expect_lanes_table_equals(set, M, Vec3(q.Tc[0], q.Tc[1], q.Tc[2]), s, f, axes, "k " + std::to_string(k));
        }
        ++queries;
      }
    }
    EXPECT_GT(borders, queries);  // most of the coordinate axes sit at or next to a border
  });
}

// The device path reports failures as statuses; the host wrappers throw the reference's exceptions.
TEST(QuerySetup, FailuresAreStatusesOnTheDevicePathAndExceptionsOnTheHost) {
  const OrientationSet& set = orientation_set(24);
  QueryPoseView q{};
  q.M[0] = q.M[4] = q.M[8] = 1;
  q.s = 1;
  q.fixed = FixedParams{};
  DoubleAxis d;
  QuantizedAxis a;
  EXPECT_EQ(make_query_axis(set.view(), q, 3, &d, &a), SetupStatus::Ok);
  QueryPoseView bad = q;
  bad.M[4] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(make_query_axis(set.view(), bad, 3, &d, &a), SetupStatus::NoFaceTriple);
  bad = q;
  bad.fixed.c = 3;
  EXPECT_EQ(make_query_axis(set.view(), bad, 3, &d, &a), SetupStatus::BadFixedParams);
  EXPECT_EQ(make_query_axis(set.view(), bad, 3, &d, nullptr), SetupStatus::Ok);  // the float axis needs no bits
  bad = q;
  bad.s = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(make_query_axis(set.view(), bad, 3, &d, &a), SetupStatus::BadScale);

  QuantizedPose pose;
  const double Tc[3] = {0.5, -0.25, 1.0}, far[3] = {0.5, 5.0, 0.0};
  EXPECT_EQ(make_triangle_pose(q.M, Tc, 1.0, TriangleFixedParams{}, pose), SetupStatus::Ok);
  EXPECT_TRUE(pose.in_range);
  EXPECT_EQ(pose.M[1][1], std::int64_t(1) << 24);
  EXPECT_EQ(make_triangle_pose(q.M, far, 1.0, TriangleFixedParams{}, pose), SetupStatus::Ok);
  EXPECT_FALSE(pose.in_range);
  EXPECT_EQ(make_triangle_pose(q.M, Tc, 1.0, TriangleFixedParams{40, 20}, pose), SetupStatus::BadTriangleParams);
  EXPECT_EQ(make_triangle_pose(q.M, Tc, 0.0, TriangleFixedParams{}, pose), SetupStatus::BadScale);
  EXPECT_EQ(make_triangle_pose(bad.M, Tc, 1.0, TriangleFixedParams{}, pose), SetupStatus::Ok);  // bad.M is finite
  double nan_m[9] = {1, 0, 0, 0, std::numeric_limits<double>::infinity(), 0, 0, 0, 1};
  EXPECT_EQ(make_triangle_pose(nan_m, Tc, 1.0, TriangleFixedParams{}, pose), SetupStatus::NonFiniteRotation);

  const Mesh box = make_box(Vec3(1, 1, 1));
  const DopTree tree(box, 24);
  EXPECT_THROW(make_query_setup(tree, tree, Pose{}, FixedParams{3, 18, 18}, TriangleFixedParams{}), InputError);
  EXPECT_THROW(make_query_setup(tree, tree, Pose{}, FixedParams{}, TriangleFixedParams{0, 24}), std::invalid_argument);
  Pose nan_pose;
  nan_pose.rotation = Eigen::Quaterniond(std::numeric_limits<double>::quiet_NaN(), 0, 0, 0);
  EXPECT_THROW(make_query_setup(tree, tree, nan_pose, FixedParams{}, TriangleFixedParams{}), std::logic_error);
}
