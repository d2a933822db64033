// The set-up's axes made in SIMD lanes (ProjectedTripleLanes: directions and cube-map cells of a
// block of axes at once) and the float axis table made from them are make_projected_triple's and
// make_float_axis's, bit for bit, on every instruction set of this machine that Highway built.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kdopcd/sat_float_axes.hpp"
#include "kdopcd/sat_setup.hpp"

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

// Runs `check` once per instruction set Highway built that this CPU has.
template <class Check>
void on_every_target(const Check& check) {
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(hwy::TargetName(target));
    check();
  }
  hwy::SetSupportedTargetsForTest(0);
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
