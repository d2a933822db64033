// Float SAT against the exact SAT from the same doubles (docs/design.md §5, verification ladder).
#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <limits>
#include <random>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/sat_exact.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd/sat_setup.hpp"

using namespace kdopcd;

namespace {

Pose random_pose(std::mt19937_64& rng, double spread) {
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> u(-spread, spread);
  Pose pose;
  pose.rotation = Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized();
  pose.translation = Vec3(u(rng), u(rng), u(rng));
  return pose;
}

std::vector<double> random_dop(const OrientationSet& set, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> c(-2, 2), r(1e-3, 1.0);
  const Vec3 centre(c(rng), c(rng), c(rng));
  const double radius = r(rng);
  std::normal_distribution<double> g;
  std::vector<Vec3> points(4);
  for (Vec3& p : points) p = centre + radius * Vec3(g(rng), g(rng), g(rng));
  std::vector<double> out(set.k());
  dop_of_points(set, points, out);
  return out;
}

// |fl(diff) - diff| <= gamma * (sum of the magnitudes of the summands); 8 eps is above gamma_5.
double float_error_bound(const double* a, const double* b, int half, const AxisSetup& ax) {
  double m = std::abs(ax.p);
  for (int i = 0; i < 3; ++i) {
    m += std::abs(ax.PA[i]) * (std::abs(a[ax.jA[i]]) + std::abs(a[(ax.jA[i] + half) % (2 * half)]));
    m += std::abs(ax.PB[i]) * (std::abs(b[ax.jB[i]]) + std::abs(b[(ax.jB[i] + half) % (2 * half)]));
  }
  return 8 * std::numeric_limits<double>::epsilon() * m;
}

}  // namespace

// Two million (DOP pair, pose, axis) samples over all k. Half of them have p moved so that the
// exact diff1 is within a few ulps of 0, to exercise the boundary. The verdicts must agree
// except where the exact diff is within the float error bound of 0; those are counted.
TEST(SatFloatVsExact, VerdictsAgreeOutsideRoundingOfZero) {
  constexpr int kPoses = 2000, kPairsPerPose = 200, kAxesPerPair = 5;
  std::atomic<long> samples{0}, ambiguous{0}, disagree{0}, disagree_outside{0};
  tbb::parallel_for(0, kPoses, [&](int pose_index) {
    std::mt19937_64 rng(1000 + pose_index);
    const OrientationSet& set = orientation_set(kSupportedK[pose_index % kSupportedK.size()]);
    const int half = set.half();
    const SatSetup setup = make_sat_setup(set, random_pose(rng, 3.0));
    std::uniform_int_distribution<int> pick_axis(0, set.k() - 1);
    std::uniform_int_distribution<int> ulps(-4, 4);
    for (int pair = 0; pair < kPairsPerPose; ++pair) {
      const auto a = random_dop(set, rng), b = random_dop(set, rng);
      for (int t = 0; t < kAxesPerPair; ++t) {
        AxisSetup ax = setup.axes[pick_axis(rng)];
        if (pair % 2 == 1) {  // push diff1 to (nearly) zero
          const AxisDiffs at_zero = float_axis_diffs(a.data(), b.data(), half, ax.jA.data(), ax.PA.data(),
                                                     ax.jB.data(), ax.PB.data(), 0.0);
          ax.p = -at_zero.diff1;
          for (int u = ulps(rng); u != 0; u += (u > 0 ? -1 : 1))
            ax.p = std::nextafter(ax.p, u > 0 ? 1e300 : -1e300);
        }
        const AxisDiffs f = float_axis_diffs(a.data(), b.data(), half, ax.jA.data(), ax.PA.data(), ax.jB.data(),
                                             ax.PB.data(), ax.p);
        const ExactAxisDiffs e = exact_axis_diffs(a.data(), b.data(), half, ax.jA.data(), ax.PA.data(),
                                                  ax.jB.data(), ax.PB.data(), ax.p);
        const double bound = float_error_bound(a.data(), b.data(), half, ax);
        const bool near_zero = std::abs(e.diff1.to_double()) <= bound || std::abs(e.diff2.to_double()) <= bound;
        ++samples;
        if (near_zero) ++ambiguous;
        if (f.separated() != e.separated()) {
          ++disagree;
          if (!near_zero) ++disagree_outside;
        }
        // Each float diff is within the bound of the exact one.
        EXPECT_LE(std::abs(f.diff1 - e.diff1.to_double()), bound);
        EXPECT_LE(std::abs(f.diff2 - e.diff2.to_double()), bound);
      }
    }
  });
  std::printf("float vs exact: %ld samples, %ld with exact diff within float rounding of 0, %ld verdicts differ\n",
              samples.load(), ambiguous.load(), disagree.load());
  RecordProperty("samples", std::to_string(samples.load()));
  RecordProperty("ambiguous", std::to_string(ambiguous.load()));
  RecordProperty("disagree", std::to_string(disagree.load()));
  EXPECT_EQ(samples.load(), long(kPoses) * kPairsPerPose * kAxesPerPair);
  EXPECT_EQ(disagree_outside.load(), 0);
  EXPECT_GT(ambiguous.load(), 0) << "the near-zero half of the samples must reach the boundary";
  EXPECT_LE(disagree.load(), ambiguous.load());
}

// The SAT is conservative: for a point inside both DOPs (placed A, B), no axis separates them
// by more than double rounding (the common point itself is placed with rounding). A wrong face
// triple or sign would separate by the size of the DOPs, up to 0.5 here.
TEST(SatFloat, NeverSeparatesDopsThatShareAPoint) {
  std::mt19937_64 rng(99);
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    for (int trial = 0; trial < 2000; ++trial) {
      const Pose pose = random_pose(rng, 2.0);
      const SatSetup setup = make_sat_setup(set, pose);
      // A common point x (first frame) inside both: B around x, A around R^T (x - t).
      std::uniform_real_distribution<double> u(-1, 1), r(1e-6, 0.5);
      const Vec3 x(u(rng), u(rng), u(rng));
      const Vec3 x_local = pose.matrix().transpose() * (x - pose.translation);
      std::vector<Vec3> pb{x, x + r(rng) * Vec3(u(rng), u(rng), u(rng))};
      std::vector<Vec3> pa{x_local, x_local + r(rng) * Vec3(u(rng), u(rng), u(rng))};
      std::vector<double> a(k), b(k);
      dop_of_points(set, pa, a);
      dop_of_points(set, pb, b);
      for (const AxisSetup& ax : setup.axes) {
        const AxisDiffs d = float_axis_diffs(a.data(), b.data(), k / 2, ax.jA.data(), ax.PA.data(), ax.jB.data(),
                                             ax.PB.data(), ax.p);
        ASSERT_LE(std::max(d.diff1, d.diff2), 1e-14) << "k = " << k << " trial " << trial;
      }
    }
  }
}

TEST(SatSetup, AxisOrderAlternatesFirstAndSecondObject) {
  Pose pose;
  pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  pose.translation = Vec3(0.5, -1, 2);
  const OrientationSet& set = orientation_set(24);
  const SatSetup setup = make_sat_setup(set, pose);
  ASSERT_EQ(setup.axes.size(), 24u);
  for (int i = 0; i < 12; ++i) {
    EXPECT_NEAR((setup.axes[2 * i].L - set.direction(i)).norm(), 0, 1e-15);
    EXPECT_NEAR((setup.axes[2 * i + 1].L - pose.matrix() * set.direction(i)).norm(), 0, 1e-15);
    EXPECT_DOUBLE_EQ(setup.axes[2 * i + 1].p, setup.axes[2 * i + 1].L.dot(pose.translation));
  }
}
