// The set-up's axes made in SIMD lanes (ProjectedTripleLanes: directions and cube-map cells of a
// block of axes at once) and the float axis table made from them are make_projected_triple's and
// make_float_axis's, bit for bit, on every instruction set of this machine that Highway built.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kdopcd/sat_fixed_lanes.hpp"
#include "kdopcd/sat_float_axes.hpp"
#include "kdopcd/sat_setup.hpp"
#include "every_target.hpp"

using namespace kdopcd;

namespace {

bool same_double(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

// Random rotations; rotations by multiples of 90 degrees and tiny ones (axes on the cube map's
// cell borders and the triples' cone boundaries, components of +0 and -0); general matrices
// (scaled, sheared), and matrices that leave some axis's product zero, tiny or huge (not
// normalized, or normalized to zero: the cube map does not serve those, the scan does).
std::vector<Mat3> test_matrices() {
  std::mt19937_64 rng(20261126);
  std::normal_distribution<double> g(0, 1);
  std::vector<Mat3> out;
  for (int r = 0; r < 200; ++r)
    out.push_back(Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix());
  const Vec3 units[] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), Vec3(1, 1, 0), Vec3(1, 1, 1), Vec3(1, -2, 3)};
  for (const Vec3& u : units)
    for (double angle : {0.0, 0.5 * M_PI, M_PI, 1.5 * M_PI, 1e-12, -3e-9, 0.25 * M_PI})
      out.push_back(Eigen::AngleAxisd(angle, u.normalized()).toRotationMatrix());
  for (int r = 0; r < 40; ++r) {
    Mat3 M;
    for (int i = 0; i < 9; ++i) M.data()[i] = g(rng) * (r % 3 == 0 ? 1e3 : 1.0);
    out.push_back(M);
  }
  out.push_back(Mat3::Zero());
  Mat3 column = Mat3::Identity();
  column.col(1).setZero();
  out.push_back(column);
  out.push_back(1e-200 * Mat3::Identity());
  out.push_back(1e200 * out.front());
  return out;
}

}  // namespace

// Every axis of the lanes, whether made alone (as the root pair's first axes are) or with the
// others (make_all), equals make_projected_triple's; each was looked up in the scalar
// cube_cell's cell; the lanes past the axes are zero.
TEST(ProjectedTriples, LanesEqualTheAxesMadeOneByOne) {
  const std::vector<Mat3> matrices = test_matrices();
  on_every_target([&] {
    std::mt19937_64 rng(5);
    int compared = 0, in_map = 0;
    for (int k : kSupportedK) {
      const OrientationSet& set = orientation_set(k);
      for (const Mat3& M : matrices)
        for (int n : {1, 2, 7, k / 2, k - 1, k}) {
          if (n > k) continue;
          ProjectedTripleLanes lanes;
          auto expect_axis = [&](int i) {
            const ProjectedTriple expected = make_projected_triple(set, M, i);
            const int e = i / 2, parity = i % 2;
            const Vec3 L = lanes.L(set, i);
            for (int c = 0; c < 3; ++c) {
              ASSERT_TRUE(same_double(L[c], expected.L[c])) << "k " << k << " axis " << i;
              ASSERT_EQ(lanes.j[parity][c][e], expected.triple.j[std::size_t(c)]) << "k " << k << " axis " << i;
              ASSERT_TRUE(same_double(lanes.P[parity][c][e], expected.triple.P[std::size_t(c)])) << "k " << k << " axis " << i;
            }
            const Vec3 u(lanes.u[parity][0][e], lanes.u[parity][1][e], lanes.u[parity][2][e]);
            ASSERT_EQ(lanes.cell(parity, e), OrientationSet::cube_cell(u)) << "k " << k << " axis " << i;
            in_map += lanes.cell(parity, e) >= 0;
            ++compared;
          };
          const int alone = int(rng() % 4);  // some axes first, alone and in any order
          for (int a = 0; a < alone; ++a) {
            const int i = int(rng() % std::uint64_t(k));
            lanes.make(set, M, i);
            expect_axis(i);
          }
          lanes.make_all(set, M, n);
          for (int i = 0; i < n; ++i) expect_axis(i);
          for (int parity = 0; parity < 2; ++parity)
            for (int e = (n + 1 - parity) / 2; e < ProjectedTripleLanes::kLanes; ++e)
              for (int c = 0; c < 3; ++c) {
                ASSERT_EQ(lanes.j[parity][c][e], 0);
                ASSERT_TRUE(same_double(lanes.P[parity][c][e], 0.0));
              }
          if (n < k) {  // an axis past n, made alone before or not, is made again on request
            lanes.make(set, M, n);
            expect_axis(n);
          }
        }
    }
    EXPECT_GT(compared, 80000);
    EXPECT_GT(in_map, compared * 9 / 10);  // the map serves nearly every axis
  });
}

// The float axis table made from the lanes is the one make_float_axis_table makes of the axes
// made one by one, in every filled lane (padding included), and so is each axis made from the
// lanes.
TEST(ProjectedTriples, FloatTableEqualsTheTableOfTheAxesOneByOne) {
  const std::vector<Mat3> matrices = test_matrices();
  const Vec3 translations[] = {Vec3(0.5, -1e-3, 7.0), Vec3(-3e4, 2.0, 1e-9)};
  on_every_target([&] {
    int tables = 0;
    for (int k : kSupportedK) {
      const OrientationSet& set = orientation_set(k);
      for (const Mat3& M : matrices)
        for (const Vec3& T : translations)
          for (int n : {1, 3, k / 2, k - 1, k}) {
            std::vector<FloatAxis> axes{std::size_t(k)};
            ProjectedTripleLanes lanes;
            for (int i = 0; i < k; ++i) {
              make_float_axis(set, M, T, i, axes[std::size_t(i)]);
              lanes.make(set, M, i);
              FloatAxis from_lanes;
              make_float_axis(set, lanes, T, i, from_lanes);
              ASSERT_EQ(std::memcmp(&from_lanes, &axes[std::size_t(i)], sizeof from_lanes), 0) << "k " << k << " axis " << i;
            }
            ProjectedTripleLanes batch;
            batch.make_all(set, M, n);
            FloatAxisTable expected, made;
            make_float_axis_table(axes, n, expected);
            make_float_axis_table(set, batch, T, n, made);
            ASSERT_EQ(made.axes, expected.axes);
            for (auto [x, y] : {std::pair{&made.even, &expected.even}, std::pair{&made.odd, &expected.odd}}) {
              ASSERT_EQ(x->count, y->count);
              constexpr std::size_t kFilled = 16 * sizeof(double);  // make_float_axis_table's filled lanes
              for (int m = 0; m < 3; ++m) {
                ASSERT_EQ(std::memcmp(x->j[m], y->j[m], kFilled), 0) << "k " << k << " n " << n;
                ASSERT_EQ(std::memcmp(x->jk[m], y->jk[m], kFilled), 0) << "k " << k << " n " << n;
                ASSERT_EQ(std::memcmp(x->P[m], y->P[m], kFilled), 0) << "k " << k << " n " << n;
              }
              ASSERT_EQ(std::memcmp(x->own_min, y->own_min, kFilled), 0) << "k " << k << " n " << n;
              ASSERT_EQ(std::memcmp(x->own_max, y->own_max, kFilled), 0) << "k " << k << " n " << n;
              ASSERT_EQ(std::memcmp(x->p, y->p, kFilled), 0) << "k " << k << " n " << n;
            }
            ++tables;
          }
    }
    EXPECT_GT(tables, 2000);
  });
}

// The fixed axis table made from the lanes is the one make_fixed_axis_table makes of the axes of
// make_axis_setup at T_c, quantized one by one (quantize_axis, narrow_fixed_axis: what a query from
// a set-up tests, and what collide() quantizes from a pose), in every filled lane: P' at c, p' at z
// (also where p / s is a multiple of 2^-z, which the fast path leaves to the exact one, and where
// |p / s| > 4 is clamped) and the p terms, at several parameters.
TEST(ProjectedTriples, FixedTableEqualsTheTableOfTheAxesOneByOne) {
  const std::vector<Mat3> matrices = test_matrices();
  const FixedParams params[] = {{18, 18, 18}, {12, 20, 30}, {30, 28, 10}, {4, 4, 4}, {14, 44, 44}, {10, 8, 30}};  // the last: z > b + c
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> u(-3, 3);
  on_every_target([&] {
    int tables = 0, exact_multiples = 0, clamped = 0;
    for (int k : kSupportedK) {
      const OrientationSet& set = orientation_set(k);
      for (std::size_t r = 0; r < matrices.size(); ++r) {
        const Mat3& M = matrices[r];
        const FixedParams& f = params[r % std::size(params)];
        const double s = r % 4 == 0 ? 1.0 : 0.37 + std::fabs(u(rng));
        Vec3 Tc(u(rng), u(rng), u(rng));
        // p of axis 0 (L = x) a multiple of 2^-z times s, rounded: p / s at or a rounding off a
        // multiple of 2^-z, which only the exact path decides.
        if (r % 5 == 1) Tc = Vec3(std::ldexp(double(int(rng() % 2001) - 1000), -f.z) * s, 0, 0);
        if (r % 7 == 2) Tc *= 40;  // |p| / s beyond 4
        for (int n : {1, 4, k - 1, k}) {
          std::vector<NarrowFixedAxis> axes;
          for (int i = 0; i < k; ++i) {
            const AxisSetup axis = make_axis_setup(set, M, Tc, i);
            const double q = axis.p / s;
            exact_multiples += std::fabs(std::ldexp(q, f.z) - std::nearbyint(std::ldexp(q, f.z))) < 1e-6;
            clamped += std::fabs(q) > 4;
            axes.push_back(narrow_fixed_axis(quantize_axis(axis, s, f), set.half(), f));
          }
          ProjectedTripleLanes lanes;
          lanes.make(set, M, 0);  // as a root pair's first axis
          lanes.make_all(set, M, n);
          FixedAxisTable expected, made;
          make_fixed_axis_table(axes, n, f.b, expected);
          make_fixed_axis_table(set, lanes, Tc, s, f, n, made);
          ASSERT_EQ(made.axes, expected.axes);
          ASSERT_EQ(made.products32, expected.products32);
          for (auto [x, y] : {std::pair{&made.even, &expected.even}, std::pair{&made.odd, &expected.odd}}) {
            ASSERT_EQ(x->count, y->count);
            constexpr std::size_t kFilled = 16 * sizeof(std::int64_t);  // make_fixed_axis_table's filled lanes
            for (int m = 0; m < 3; ++m) {
              ASSERT_EQ(std::memcmp(x->j[m], y->j[m], kFilled), 0) << "k " << k << " n " << n;
              ASSERT_EQ(std::memcmp(x->jk[m], y->jk[m], kFilled), 0) << "k " << k << " n " << n;
              ASSERT_EQ(std::memcmp(x->P[m], y->P[m], kFilled), 0) << "k " << k << " n " << n;
            }
            ASSERT_EQ(std::memcmp(x->own1, y->own1, kFilled), 0) << "k " << k << " n " << n;
            ASSERT_EQ(std::memcmp(x->own2, y->own2, kFilled), 0) << "k " << k << " n " << n;
            ASSERT_EQ(std::memcmp(x->p1, y->p1, kFilled), 0) << "k " << k << " n " << n << " b,c,z " << f.b << "," << f.c << "," << f.z;
            ASSERT_EQ(std::memcmp(x->p2, y->p2, kFilled), 0) << "k " << k << " n " << n << " b,c,z " << f.b << "," << f.c << "," << f.z;
          }
          ++tables;
        }
      }
    }
    EXPECT_GT(tables, 1000);
    EXPECT_GT(exact_multiples, 100);
    EXPECT_GT(clamped, 100);
  });
}
