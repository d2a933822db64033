// The narrow phase's triangle test places the second object's vertices with place_second_vertex
// (KDOPCD_HD, on the GPU too); its doubles must be the reference's place_vertices bit for bit, or
// contact sets could differ from kdopcd::collide's at touching triangles.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "cuda_test_util.hpp"
#include "kdopcd_cuda/narrow.hpp"
#include "kdopcd_cuda/pose_record.hpp"

namespace kdopcd::cuda {
namespace {

Placement placement_of(const Pose& pose) {
  const Mat3 R = pose.matrix();
  Placement p;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) p.R[3 * r + c] = R(r, c);
    p.t[r] = pose.translation[r];
  }
  return p;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(Placement, SameDoublesAsPlaceVertices) {
  REQUIRE_COW();
  const Mesh cow = load_mesh(test::mesh_path("cow.off"));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::size_t compared = 0, differ = 0;
  for (int i = 0; i < 200; ++i) {
    Pose pose;
    pose.rotation = Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized();
    const double scale = std::ldexp(1.0, int(u(rng) * 30));  // translations from 2^-30 to 2^30
    pose.translation = Vec3(u(rng), u(rng), u(rng)) * scale;
    const Placement p = placement_of(pose);
    const std::vector<Vec3> placed = place_vertices(cow, pose);
    for (std::size_t v = 0; v < cow.vertices.size(); v += 7) {
      double out[3];
      place_second_vertex(p, cow.vertices[v].data(), out);
      for (int c = 0; c < 3; ++c) differ += !same_bits(out[c], placed[v][c]);
      ++compared;
    }
  }
  EXPECT_GT(compared, 50000u);
  EXPECT_EQ(differ, 0u);
}

// Pose::matrix() is rotation_matrix (KDOPCD_HD), written to give Eigen's toRotationMatrix doubles.
TEST(Placement, RotationMatrixIsEigensBitForBit) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::size_t differ = 0;
  for (int i = 0; i < 100000; ++i) {
    const Eigen::Quaterniond q = Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized();
    const Mat3 eigen = q.toRotationMatrix();
    const Mat3 ours = Pose{q, Vec3::Zero()}.matrix();
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) differ += !same_bits(eigen(r, c), ours(r, c));
  }
  EXPECT_EQ(differ, 0u);
}

// relative_pose places object b in object a's frame: R x + t = R_a^T (R_b x + t_b - t_a).
TEST(Placement, RelativePoseIsTheRigidMotionBetweenTwoPlacements) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 1000; ++i) {
    Pose a, b;
    a.rotation = Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized();
    b.rotation = Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized();
    a.translation = Vec3(u(rng), u(rng), u(rng)) * 10;
    b.translation = Vec3(u(rng), u(rng), u(rng)) * 10;
    const Pose r = relative_pose(a, b);
    EXPECT_NEAR(r.rotation.norm(), 1.0, 1e-15);
    const Vec3 x(u(rng), u(rng), u(rng));
    const Vec3 expected = a.matrix().transpose() * (b.matrix() * x + b.translation - a.translation);
    EXPECT_LT((r.matrix() * x + r.translation - expected).norm(), 1e-12);
  }
}

}  // namespace
}  // namespace kdopcd::cuda
