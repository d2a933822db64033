// Pose lines and pose files: normalization, comments, and an error naming file and line for
// every kind of bad line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kdopcd/error.hpp"
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
