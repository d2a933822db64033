// The integer SAT path of the multibody engine (host backend) far from the origin: quantized trees
// are in each mesh's centred frame and the axis table uses the centred relative pose
// (docs/fixed-point.md §2), so a world whose mesh file lies 1e3 .. 1e15 from the origin gives, pair
// for pair, the contacts and traversal counts of the same world at the origin, when the whole world
// is moved by the same offset too.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <map>

#include "cuda_test_util.hpp"
#include "far_scenes.hpp"

namespace kdopcd::cuda {
namespace {

TEST(MultibodyFar, FixedSatSameAnswersAsAtTheOrigin) {
  REQUIRE_COW();
  const Mesh cow0 = far::snapped_mesh(load_mesh(test::mesh_path("cow.off")));
  // Six cows in a row, each overlapping the next, turned by identity or half turns (exact
  // rotations, so moving the mesh file by O is matched exactly by t' = t + O - R O).
  const std::array<Eigen::Quaterniond, 4> turns{Eigen::Quaterniond(1, 0, 0, 0), Eigen::Quaterniond(0, 1, 0, 0),
                                                Eigen::Quaterniond(0, 0, 1, 0), Eigen::Quaterniond(0, 0, 0, 1)};
  std::vector<Pose> poses0;
  for (int i = 0; i < 6; ++i)
    poses0.push_back(Pose{turns[std::size_t(i) % 4], Vec3(700.0 * i, 50.25 * (i % 2), -20.5 * (i % 3))});
  MultibodyOptions o;
  o.sat = SatBackend::Fixed;
  o.initial_capacity = 1u << 20;
  const MultibodyWorld origin({cow0}, std::vector<std::uint32_t>(6, 0), poses0, 24);
  const MultibodyResult r0 = origin.run(o);
  std::map<ObjectPair, const PairResult*> at_origin;
  for (const PairResult& p : r0.pairs) at_origin[{p.first_object, p.second_object}] = &p;
  ASSERT_GT(r0.contacts, 0u);
  for (double d : far::kDistances) {
    SCOPED_TRACE(d);
    const Vec3 O = far::offset(d);
    std::vector<Pose> poses;
    for (const Pose& p : poses0) {
      const auto moved = far::moved_pose(p, O, O);  // x + O in the file lands at R x + t + O
      ASSERT_TRUE(moved.has_value());
      poses.push_back(*moved);
    }
    const MultibodyWorld world({far::translated_mesh(cow0, O)}, std::vector<std::uint32_t>(6, 0), poses, 24);
    const MultibodyResult r = world.run(o);
    EXPECT_EQ(r.contacts, r0.contacts);
    std::size_t compared = 0;
    for (const PairResult& p : r.pairs) {
      const auto it = at_origin.find({p.first_object, p.second_object});
      if (it == at_origin.end()) {
        EXPECT_TRUE(p.contacts.empty());
        continue;
      }
      EXPECT_EQ(p.contacts, it->second->contacts);
      EXPECT_EQ(p.stats.pair_tests, it->second->stats.pair_tests);
      EXPECT_EQ(p.stats.axis_tests, it->second->stats.axis_tests);
      EXPECT_EQ(p.stats.leaf_pairs, it->second->stats.leaf_pairs);
      ++compared;
    }
    EXPECT_GE(compared, 5u);
    std::printf("moved %g: %llu contacts (origin %llu), %llu pair tests (origin %llu)\n", d,
                (unsigned long long)r.contacts, (unsigned long long)r0.contacts, (unsigned long long)r.pair_tests,
                (unsigned long long)r0.pair_tests);
  }
}

}  // namespace
}  // namespace kdopcd::cuda
