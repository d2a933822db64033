// Pose lines and pose files: normalization, comments, and an error naming file and line for
// every kind of bad line.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "kdopcd/error.hpp"
#include "kdopcd/exact_sum.hpp"
#include "kdopcd/pose.hpp"

using namespace kdopcd;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("kdopcd_pose_test_" + name);
  std::ofstream(path) << text;
  return path.string();
}

// The InputError message of load_poses on `text`, or "" if it loaded.
std::string load_error(const std::string& name, const std::string& text) {
  try {
    load_poses(write_temp(name, text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Pose, QuaternionIsNormalizedAndAppliedAsRotationThenTranslation) {
  const Pose p = parse_pose("2 0 0 2  1 2 3", "test");
  EXPECT_NEAR(p.rotation.norm(), 1.0, 1e-15);
  const Vec3 x = place_vertex(p.matrix(), p.translation, Vec3(1, 0, 0));  // 90 deg about z: (0,1,0) + t
  EXPECT_NEAR((x - Vec3(1, 3, 3)).norm(), 0, 1e-15);
}

TEST(Pose, FileWithCommentsAndBlankLines) {
  const auto poses = load_poses(write_temp("ok.txt", "# header\n\n1 0 0 0 0 0 0  # identity\n  0 1 0 0 1e-3 -2 0x1p-3\n"));
  ASSERT_EQ(poses.size(), 2u);
  EXPECT_DOUBLE_EQ(poses[1].translation.z(), 0.125);
}

TEST(Pose, BadLinesNameFileAndLine) {
  struct Case {
    const char* text;
    const char* expect;
  };
  const Case cases[] = {
      {"1 0 0 0 0 0 0\n1 0 0\n", ":2: expected 7 numbers"},
      {"1 0 0 0 0 0 0 5\n", ":1: expected 7 numbers"},
      {"# c\n1 0 0 0 0 0 x\n", ":2: 'x' is not a number"},
      {"1 0 0 0 0 0 1.5.2\n", ":1: '1.5.2' is not a number"},
      {"0 0 0 0 1 2 3\n", ":1: quaternion (0, 0, 0, 0) cannot be normalized"},
      {"nan 0 0 0 1 2 3\n", ":1: non-finite value"},
      {"1 0 0 0 inf 2 3\n", ":1: non-finite value"},
      {"1e400 0 0 0 0 0 0\n", ":1: '1e400' is not a number"},
      {"# only comments\n\n", "no poses in file"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string name = "bad" + std::to_string(i++) + ".txt";
    const std::string message = load_error(name, c.text);
    EXPECT_NE(message.find(name), std::string::npos) << message;
    EXPECT_NE(message.find(c.expect), std::string::npos) << "got: " << message << "\nexpected: " << c.expect;
  }
}

TEST(Pose, MissingFileIsAnInputError) {
  EXPECT_THROW(load_poses("/nonexistent/kdopcd/poses.txt"), InputError);
}

// centred_pose takes a double-precision path when its error bound proves the result, else the
// big-integer sum; both must give the big-integer sum's correctly rounded value, bit for bit.
// Random poses and centres at many magnitudes, plus the hard cases: short mantissas (exact sums
// and ties), near-total cancellation, zeros, identity and near-identity rotations.
TEST(Pose, CentredPoseIsTheCorrectlyRoundedExactSum) {
  std::mt19937_64 gen(20261124);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> exponent(-60, 60);
  for (int it = 0; it < 300000; ++it) {
    Pose pose;
    Eigen::Quaterniond q(u(gen), u(gen), u(gen), u(gen));
    if (it % 7 == 0) q = Eigen::Quaterniond(1, 0, 0, 0);
    if (it % 11 == 0) q = Eigen::Quaterniond(1, 0, 0, 1e-9 * u(gen));
    pose.rotation = q.normalized();
    const int mode = it % 3;
    auto value = [&] {
      double x = u(gen) * std::ldexp(1.0, mode == 0 ? exponent(gen) : mode == 1 ? 0 : exponent(gen) / 10);
      if (it % 5 == 0) x = std::round(x * 1024) / 1024;
      return x;
    };
    Vec3 c1(value(), value(), value()), c2(value(), value(), value());
    pose.translation = Vec3(value(), value(), value());
    if (it % 13 == 0) {
      pose.translation = c1 - pose.matrix() * c2;
      pose.translation[it % 3] += value() * 1e-12;
    }
    if (it % 17 == 0) c2[1] = 0;
    if (it % 19 == 0) c1[2] = 1e-300;  // outside the double path's range
    const Pose out = centred_pose(pose, c1, c2);
    const Mat3 M = pose.matrix();
    for (int i = 0; i < 3; ++i) {
      ExactSum t;
      for (int j = 0; j < 3; ++j) t.add_product(M(i, j), c2[j]);
      t.add(pose.translation[i]).sub(c1[i]);
      ASSERT_EQ(std::bit_cast<std::uint64_t>(out.translation[i]), std::bit_cast<std::uint64_t>(t.rounded()))
          << "iteration " << it << " row " << i;
    }
  }
}
