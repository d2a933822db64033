// Contact sets of the reference traversal against brute force on real meshes (libcgal-demo) in the
// four pose classes of Damkjær 2007, §9 (docs/references.md), and invariance over k, descent rules
// and n.
#include <gtest/gtest.h>

#include <cstdio>

#include "kdopcd/collide.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/shapes.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

struct Scene {
  const char* first;
  const char* second;
  double angle;  // rotation of the second object about (1, 2, 0.5)
  Vec3 direction;
};

const Scene kScenes[] = {
    {"cow.off", "cow.off", 0.9, Vec3(1, 0.3, 0.2)},
    {"elephant.off", "hand.off", 2.1, Vec3(0.2, 1, -0.4)},
    {"mushroom.off", "couplingdown.off", -1.3, Vec3(-0.5, 0.3, 1)},
};

class RealScenes : public ::testing::TestWithParam<Scene> {};

// Names the scene in test listings instead of GoogleTest's byte dump.
void PrintTo(const Scene& scene, std::ostream* os) { *os << scene.first << " vs " << scene.second; }

}  // namespace

TEST_P(RealScenes, ContactSetsEqualBruteForceInAllPoseClasses) {
  const Scene& scene = GetParam();
  REQUIRE_REAL_MESH(scene.first);
  REQUIRE_REAL_MESH(scene.second);
  const Mesh first = load_mesh(real_mesh_path(scene.first));
  const Mesh second = load_mesh(real_mesh_path(scene.second));
  const DopTree first_tree(first, 24), second_tree(second, 24);
  const auto poses = make_pose_classes(
      first_tree, second_tree, Eigen::Quaterniond(Eigen::AngleAxisd(scene.angle, Vec3(1, 2, 0.5).normalized())),
      scene.direction);
  std::uint64_t close_pairs = 0, small_pairs = 0;
  for (const ClassifiedPose& cp : poses) {
    const QueryResult r = collide(first_tree, second_tree, cp.pose, TraversalOptions{});
    const auto brute = brute_force_contacts(first, second, cp.pose);
    EXPECT_EQ(r.contacts, brute) << scene.first << " vs " << scene.second << " " << to_string(cp.kind);
    std::printf("%s vs %s %-16s contacts %zu pair tests %llu\n", scene.first, scene.second, to_string(cp.kind),
                brute.size(), (unsigned long long)r.stats.pair_tests);
    if (cp.kind == PoseClass::Intersecting) EXPECT_GT(brute.size(), 0u);
    else EXPECT_EQ(brute.size(), 0u);
    if (cp.kind == PoseClass::CloseProximity) close_pairs = r.stats.pair_tests;
    if (cp.kind == PoseClass::SmallProximity) small_pairs = r.stats.pair_tests;
  }
  EXPECT_GT(close_pairs, small_pairs) << "close proximity must overlap more DOP pairs than small proximity";
}

INSTANTIATE_TEST_SUITE_P(Libcgal, RealScenes, ::testing::ValuesIn(kScenes), [](const auto& info) {
  std::string name = std::string(info.param.first) + "_" + info.param.second;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

// Every k, every descent rule and several n give the same contact set; the counts differ and
// are reported.
TEST(Traversal, SameContactsForEveryKRuleAndAxisCount) {
  REQUIRE_REAL_MESH("cow.off");
  const Mesh cow = load_mesh(real_mesh_path("cow.off"));
  const DopTree probe(cow, 24);
  const auto poses = make_pose_classes(probe, probe, Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Vec3(0, 1, 1).normalized())),
                                       Vec3(1, 0, 0.3));
  for (const ClassifiedPose& cp : {poses[0], poses[1]}) {
    const auto brute = brute_force_contacts(cow, cow, cp.pose);
    std::printf("cow vs cow %s: %zu contacts\n%4s %-10s %4s %10s %12s %10s %6s\n", to_string(cp.kind), brute.size(), "k",
                "rule", "n", "pairs", "axes", "tri", "stack");
    for (int k : kSupportedK) {
      const DopTree tree(cow, k);
      for (DescentRule rule : {DescentRule::Shallower, DescentRule::First, DescentRule::Second})
        for (int n : {3, k / 2, k}) {
          TraversalOptions options;
          options.rule = rule;
          options.axes = n;
          const QueryResult r = collide(tree, tree, cp.pose, options);
          ASSERT_EQ(r.contacts, brute) << "k " << k << " rule " << to_string(rule) << " n " << n;
          std::printf("%4d %-10s %4d %10llu %12llu %10llu %6u\n", k, to_string(rule), n,
                      (unsigned long long)r.stats.pair_tests, (unsigned long long)r.stats.axis_tests,
                      (unsigned long long)r.stats.triangle_tests, r.stats.max_stack_depth);
        }
    }
  }
}

// Identical objects at the identity pose: every triangle touches its own copy and its
// neighbours exactly, the worst case for rounding in the SAT (see DopTree::margin()).
TEST(Traversal, TouchingEverywhereAtIdentityPose) {
  REQUIRE_REAL_MESH("cow.off");
  const Mesh cow = load_mesh(real_mesh_path("cow.off"));
  const Pose identity;
  const auto brute = brute_force_contacts(cow, cow, identity);
  EXPECT_GE(brute.size(), cow.triangle_count());
  for (int k : kSupportedK) {
    const DopTree tree(cow, k);
    EXPECT_EQ(collide(tree, tree, identity, TraversalOptions{}).contacts, brute) << "k = " << k;
  }
}

TEST(Traversal, ExactBackendEqualsFloatContactsAndNeverMorePairTests) {
  const Mesh a = make_torus(1.0, 0.3, 32, 16), b = make_torus(0.8, 0.25, 28, 14);
  const DopTree ta(a, 24), tb(b, 24);
  for (const ClassifiedPose& cp : make_pose_classes(ta, tb, Eigen::Quaterniond(0.9, 0.3, 0.2, 0.1), Vec3(1, 0.5, 0))) {
    const QueryResult f = collide(ta, tb, cp.pose, TraversalOptions{}, SatBackend::Float);
    const QueryResult e = collide(ta, tb, cp.pose, TraversalOptions{}, SatBackend::Exact);
    EXPECT_EQ(f.contacts, e.contacts);
    EXPECT_EQ(e.contacts, brute_force_contacts(a, b, cp.pose));
  }
}

TEST(Traversal, StackOverflowIsReportedNotDropped) {
  const Mesh a = make_torus(1.0, 0.3, 32, 16);
  const DopTree ta(a, 24);
  Pose pose;  // identical objects: everything overlaps, the stack grows to the tree depth
  TraversalOptions options;
  options.stack_capacity = 3;
  EXPECT_THROW(collide(ta, ta, pose, options), StackOverflowError);
  options.stack_capacity = 0;
  const QueryResult r = collide(ta, ta, pose, options);
  options.stack_capacity = r.stats.max_stack_depth;  // exactly enough
  EXPECT_EQ(collide(ta, ta, pose, options).contacts, r.contacts);
}
