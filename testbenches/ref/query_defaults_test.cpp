// The software query's defaults (SAH tree, larger-node rule, the leaf-plane axis) and the pose
// classes of a small object inside a large one: same contacts as brute force and as the query
// without the extra axis, and the work the extra axis is there to save.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/shapes.hpp"
#include "test_meshes.hpp"

namespace kdopcd {
namespace {

TEST(QueryDefaults, SoftwareAndHardwareDefaultsAreWhatTheDocsSay) {
  const Mesh sphere = make_sphere(1.0, 2);
  EXPECT_EQ(DopTree(sphere, 24).build_rule(), TreeBuild::Sah);
  EXPECT_EQ(TraversalOptions{}.rule, DescentRule::Larger);
  EXPECT_TRUE(TraversalOptions{}.leaf_planes);
  EXPECT_EQ(kHardwareTreeBuild, TreeBuild::Median);
  EXPECT_EQ(kHardwareDescentRule, DescentRule::Shallower);
  EXPECT_EQ(parse_query_descent_rule("larger"), DescentRule::Larger);
  EXPECT_EQ(parse_query_descent_rule("first"), DescentRule::First);
  EXPECT_THROW(parse_descent_rule("larger"), InputError);  // the hardware's rules only
  EXPECT_THROW(parse_query_descent_rule("deepest"), InputError);
}

// One large tilted triangle and a small sphere beside or across its plane.
struct TriangleAndSphere {
  Mesh triangle, sphere;
  Vec3 centroid, normal;  // of the triangle
  double radius = 0.2;
  TriangleAndSphere() : sphere(make_sphere(0.2, 3)) {
    triangle.name = "large triangle";
    triangle.vertices = {Vec3(-10, -10, -5), Vec3(10, -10, 5), Vec3(0, 10, 1)};
    triangle.triangles = {{0, 1, 2}};
    const auto& v = triangle.vertices;
    centroid = (v[0] + v[1] + v[2]) / 3;
    normal = (v[1] - v[0]).cross(v[2] - v[0]).normalized();
  }
};

TraversalOptions without_leaf_planes() {
  TraversalOptions o;
  o.leaf_planes = false;
  return o;
}

// Both orders (the triangle as the first object and as the second), the sphere's centre at
// `offset` along the triangle's normal: contacts equal brute force with and without the leaf-plane
// axis; returns the pair tests with and without it, summed over both orders.
std::pair<std::uint64_t, std::uint64_t> pair_tests_both_orders(const TriangleAndSphere& s, double offset) {
  const DopTree triangle(s.triangle, 24), sphere(s.sphere, 24);
  const Vec3 centre = s.centroid + offset * s.normal;
  std::pair<std::uint64_t, std::uint64_t> tests{0, 0};
  auto check = [&](const DopTree& first, const DopTree& second, const Pose& pose) {
    const QueryResult with = collide(first, second, pose, TraversalOptions{});
    const QueryResult without = collide(first, second, pose, without_leaf_planes());
    const auto brute = brute_force_contacts(first.mesh(), second.mesh(), pose);
    EXPECT_EQ(with.contacts, brute) << first.mesh().name << " first, offset " << offset;
    EXPECT_EQ(without.contacts, brute) << first.mesh().name << " first, offset " << offset;
    tests.first += with.stats.pair_tests;
    tests.second += without.stats.pair_tests;
  };
  // Triangle first, the sphere placed at the centre.
  check(triangle, sphere, Pose{Eigen::Quaterniond::Identity(), centre});
  // Sphere first (at the origin), the triangle placed so that the sphere sits at the same spot
  // relative to it, turned by a rotation that is not a symmetry of either.
  const Eigen::Quaterniond q(Eigen::AngleAxisd(0.7, Vec3(0.2, 1, 0.4).normalized()));
  check(sphere, triangle, Pose{q, -(q.toRotationMatrix() * centre)});
  return tests;
}

TEST(LeafPlanes, ASmallSphereBesideALargeTriangleIsSeparatedByItsPlane) {
  const TriangleAndSphere s;
  // Just clear of the plane (a gap of a quarter radius): no contact, the DOPs still overlap, and
  // the plane separates the sphere's tree at the leaf.
  const auto [with, without] = pair_tests_both_orders(s, 1.25 * s.radius);
  EXPECT_LT(with, without);
}

TEST(LeafPlanes, ASphereAcrossOrTouchingTheTriangleKeepsEveryContact) {
  const TriangleAndSphere s;
  for (const double offset : {0.0, 0.5 * s.radius, 0.99 * s.radius, -0.7 * s.radius}) pair_tests_both_orders(s, offset);
}

TEST(LeafPlanes, TheFixedBackendAndSeveralThreadsIgnoreOrHonourItAlike) {
  const TriangleAndSphere s;
  const DopTree triangle(s.triangle, 24), sphere(s.sphere, 24);
  const Pose pose{Eigen::Quaterniond::Identity(), s.centroid + 1.25 * s.radius * s.normal};
  // The fixed backend tests the k axes alone (the accelerator's arithmetic): the option changes nothing.
  const QueryResult fixed = collide(triangle, sphere, pose, TraversalOptions{}, SatBackend::Fixed);
  const QueryResult fixed_without = collide(triangle, sphere, pose, without_leaf_planes(), SatBackend::Fixed);
  EXPECT_EQ(fixed.contacts, fixed_without.contacts);
  EXPECT_EQ(fixed.stats.pair_tests, fixed_without.stats.pair_tests);
  EXPECT_EQ(fixed.stats.axis_tests, fixed_without.stats.axis_tests);
  // A parallel traversal tests the same pairs with the extra axis as the sequential binary descent
  // (the wide descent, one thread's default, tests others: the same contacts).
  TraversalOptions two_threads;
  two_threads.threads = 2;
  TraversalOptions binary;
  binary.wide = false;
  const QueryResult one = collide(triangle, sphere, pose, binary);
  const QueryResult two = collide(triangle, sphere, pose, two_threads);
  EXPECT_EQ(collide(triangle, sphere, pose, TraversalOptions{}).contacts, one.contacts);
  EXPECT_EQ(one.contacts, two.contacts);
  EXPECT_EQ(one.stats.pair_tests, two.stats.pair_tests);
  EXPECT_EQ(one.stats.axis_tests, two.stats.axis_tests);
}

// bunny00 (about 1 unit across) lies inside the armadillo (about 150) when centred on it: the pose
// classes start from the armadillo's farthest vertex instead. The leaf-plane axis makes the
// intersecting query of this pair a fraction of its pair tests, with the same contacts.
TEST(LeafPlanes, BunnyAtTheArmadillosSurface) {
  REQUIRE_REAL_MESH("armadillo.off");
  REQUIRE_REAL_MESH("bunny00.off");
  const Mesh armadillo = load_mesh(real_mesh_path("armadillo.off"));
  const Mesh bunny = load_mesh(real_mesh_path("bunny00.off"));
  const DopTree first(armadillo, 24), second(bunny, 24);
  const Eigen::Quaterniond rotation(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
  const auto classes = make_pose_classes(first, second, rotation, Vec3(1, 0.5, 0.25));
  for (const ClassifiedPose& cp : classes) {
    const QueryResult with = collide(first, second, cp.pose, TraversalOptions{});
    const QueryResult without = collide(first, second, cp.pose, without_leaf_planes());
    EXPECT_EQ(with.contacts, without.contacts) << to_string(cp.kind);
    EXPECT_EQ(with.contacts.empty(), cp.kind != PoseClass::Intersecting) << to_string(cp.kind);
    EXPECT_LE(with.stats.pair_tests, without.stats.pair_tests) << to_string(cp.kind);
    if (cp.kind == PoseClass::Intersecting) {
      EXPECT_LT(5 * with.stats.pair_tests, without.stats.pair_tests);
    }
  }
}

}  // namespace
}  // namespace kdopcd
