// Position-independent fixed point (docs/fixed-point.md §2 and §9): the fixed-point path stores
// each object relative to its own centre and folds the centres into the pose, so a scene moved
// 1e3, 1e6, 1e9 or 1e15 from the origin gets the same answers as at the origin; what precision
// is left to worry about is the scene's own dynamic range (objects of very different size).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <memory>
#include <vector>

#include "far_scenes.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_precision.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd/tree_image.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "test_meshes.hpp"

namespace kdopcd {
namespace {

void expect_same_query(const QueryResult& moved, const QueryResult& origin) {
  EXPECT_EQ(moved.contacts, origin.contacts);
  EXPECT_EQ(moved.stats.pair_tests, origin.stats.pair_tests);
  EXPECT_EQ(moved.stats.axis_tests, origin.stats.axis_tests);
  EXPECT_EQ(moved.stats.leaf_pairs, origin.stats.leaf_pairs);
  EXPECT_EQ(moved.stats.triangle_tests, origin.stats.triangle_tests);
  EXPECT_EQ(moved.stats.max_stack_depth, origin.stats.max_stack_depth);
}

TEST(CentredFrame, TranslatedPoseIsExactAndRoundedOnce) {
  // T_c = M c2 + T - c1 with huge, cancelling terms: exact sums, one rounding.
  Pose pose;
  pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  pose.translation = Vec3(0.1, -0.2, 0.3);
  const Vec3 c2(1e15, -3e14, 7e14);
  const Vec3 c1 = pose.matrix() * c2;  // rounded: T_c is pose.translation plus that rounding error
  const Pose cp = centred_pose(pose, c1, c2);
  const Mat3 M = pose.matrix();
  for (int i = 0; i < 3; ++i) {
    ExactSum exact;
    for (int j = 0; j < 3; ++j) exact.add_product(M(i, j), c2[j]);
    exact.add(pose.translation[i]).sub(c1[i]);
    EXPECT_EQ(cp.translation[i], exact.rounded());
    EXPECT_NEAR(cp.translation[i], pose.translation[i], 0.5);  // c1 is off by at most an ulp of 1e15
  }
  EXPECT_EQ(cp.rotation.coeffs(), pose.rotation.coeffs());
  // Zero centres leave the pose as it is.
  const Pose same = centred_pose(pose, Vec3::Zero(), Vec3::Zero());
  EXPECT_EQ(same.translation, pose.translation);
}

TEST(CentredFrame, ExactSumRoundsToNearestEven) {
  ExactSum a;
  a.add(1.0).add(0x1p-53);  // halfway between 1 and 1 + 2^-52: ties to even
  EXPECT_EQ(a.rounded(), 1.0);
  ExactSum b;
  b.add(1.0).add(0x1p-52).add(0x1p-53);  // halfway, odd below: up
  EXPECT_EQ(b.rounded(), 1.0 + 0x1p-51);
  ExactSum c;
  c.add(-1.0).add(-0x1p-53).add(-0x1p-80);  // just beyond halfway
  EXPECT_EQ(c.rounded(), -(1.0 + 0x1p-52));
  ExactSum d;
  d.add(1e300).add(1.0).sub(1e300);
  EXPECT_EQ(d.rounded(), 1.0);
}

// The centre, the centred coefficients, the tree and the tree image move with the object (the
// accelerator's trees, kHardwareTreeBuild, as everywhere in this file: the fixed-point path's).
TEST(CentredFrame, MovesWithTheObject) {
  REQUIRE_REAL_MESH("cow.off");
  const Mesh origin = far::snapped_mesh(load_mesh(real_mesh_path("cow.off")));
  const DopTree at_origin(origin, 24, kHardwareTreeBuild);
  const Vec3 c0 = at_origin.centre();
  const std::vector<double> coeffs0 = centred_coefficients(at_origin);
  const TreeImage image0 = make_tree_image(at_origin, {18, 24, 64, 0});
  // The bounding box centre within 1 % of the extent (the grid is 1/256 of it).
  Vec3 lo = origin.vertices[0], hi = lo;
  for (const Vec3& x : origin.vertices) lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
  EXPECT_LE(((lo + hi) / 2 - c0).cwiseAbs().maxCoeff(), (hi - lo).maxCoeff() / 100);
  for (double d : far::kDistances) {
    SCOPED_TRACE(d);
    const Mesh moved = far::translated_mesh(origin, far::offset(d));
    const DopTree tree(moved, 24, kHardwareTreeBuild);
    EXPECT_EQ(tree.centre(), c0 + far::offset(d));
    EXPECT_EQ(tree.centred_largest_coefficient(), at_origin.centred_largest_coefficient());
    ASSERT_EQ(tree.node_count(), at_origin.node_count());
    for (std::size_t i = 0; i < tree.node_count(); ++i) {
      ASSERT_EQ(tree.node(i).left, at_origin.node(i).left);
      ASSERT_EQ(tree.node(i).triangle, at_origin.node(i).triangle);
    }
    EXPECT_EQ(centred_coefficients(tree), coeffs0);
    TreeImage image = make_tree_image(tree, {18, 24, 64, 0});
    EXPECT_EQ(image.centre[0], c0.x() + far::offset(d).x());
    image.centre = image0.centre;
    EXPECT_EQ(image, image0);  // the same bits but for the stored centre
    // The file's frame does lose precision: its coefficients carry the 2^-40 |x| margin.
    EXPECT_GT(tree.largest_coefficient(), 0.5 * d);
  }
}

// The acceptance test: real meshes, moved 1e3 .. 1e15 from the origin, give the fixed backend's
// answers at the origin to the bit (contacts and every traversal count).
struct RealScene {
  const char* first;
  const char* second;
  double angle;
};
constexpr RealScene kRealScenes[] = {{"cow.off", "cow.off", 0.5}, {"elephant.off", "hand.off", 1.0}};

TEST(FarFromOrigin, RealMeshesGiveTheSameFixedAnswersAsAtTheOrigin) {
  for (const RealScene& scene : kRealScenes) {
    REQUIRE_REAL_MESH(scene.first);
    REQUIRE_REAL_MESH(scene.second);
    const Mesh first0 = far::snapped_mesh(load_mesh(real_mesh_path(scene.first)));
    const Mesh second0 = far::snapped_mesh(load_mesh(real_mesh_path(scene.second)));
    const DopTree tf0(first0, 24, kHardwareTreeBuild), ts0(second0, 24, kHardwareTreeBuild);
    // Two families of poses: any rotation (only the first mesh is moved; the pose carries the
    // second one along), and a half turn about x (both meshes moved: T' = T + O - M O is exact).
    struct Case {
      Pose pose;
      bool move_second;
    };
    std::vector<Case> cases;
    const auto general = make_pose_classes(
        tf0, ts0, Eigen::Quaterniond(Eigen::AngleAxisd(scene.angle, Vec3(0.3, 1, 0.2).normalized())),
        Vec3(1, 0.5, 0.25));
    const auto half_turn = make_pose_classes(tf0, ts0, Eigen::Quaterniond(0, 1, 0, 0), Vec3(0.2, 1, 0.5));
    for (int c : {0, 1}) {  // intersecting, close proximity
      cases.push_back({far::snapped_pose(general[std::size_t(c)].pose), false});
      cases.push_back({far::snapped_pose(half_turn[std::size_t(c)].pose), true});
    }
    // The accelerator's rule: the larger-node rule reads DopTree::size, widths of the file frame's
    // coefficients, which far from the origin lose their precision (the split, never the contacts).
    const TraversalOptions& hardware = kHardwareTraversal;
    std::vector<QueryResult> at_origin;
    for (const Case& c : cases)
      at_origin.push_back(collide(tf0, ts0, c.pose, hardware, SatBackend::Fixed, FixedParams{}));
    EXPECT_GT(at_origin[0].contacts.size(), 0u);
    EXPECT_GT(at_origin[1].contacts.size(), 0u);
    EXPECT_TRUE(fixed_precision(tf0, ts0, FixedParams{}).warnings.empty());
    for (double d : far::kDistances) {
      const Vec3 O = far::offset(d);
      const Mesh first = far::translated_mesh(first0, O), second = far::translated_mesh(second0, O);
      const DopTree tf(first, 24, kHardwareTreeBuild), ts(second, 24, kHardwareTreeBuild),
          ts_unmoved(second0, 24, kHardwareTreeBuild);
      EXPECT_EQ(scene_scale(tf, ts), scene_scale(tf0, ts0));
      for (std::size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(::testing::Message() << scene.first << " vs " << scene.second << " moved " << d << " case " << i);
        const auto pose = far::moved_pose(cases[i].pose, O, cases[i].move_second ? O : Vec3::Zero());
        ASSERT_TRUE(pose.has_value());
        const QueryResult r =
            collide(tf, cases[i].move_second ? ts : ts_unmoved, *pose, hardware, SatBackend::Fixed, FixedParams{});
        expect_same_query(r, at_origin[i]);
        std::printf("%s vs %s moved %-6g case %zu: contacts %3zu (origin %3zu), pair tests %6llu (origin %6llu)\n",
                    scene.first, scene.second, d, i, r.contacts.size(), at_origin[i].contacts.size(),
                    (unsigned long long)r.stats.pair_tests, (unsigned long long)at_origin[i].stats.pair_tests);
      }
    }
  }
}

// Pairs where two contact sets differ must be closer than the triangle unit's delta. Distances are
// taken after moving everything back by `back` (exact for the scenes here).
void expect_differences_within_delta(const std::vector<ContactPair>& fixed, const std::vector<ContactPair>& exact,
                                     const Mesh& first, const Mesh& second, const Pose& pose, double delta,
                                     const Vec3& back) {
  std::vector<ContactPair> differ;
  std::set_symmetric_difference(fixed.begin(), fixed.end(), exact.begin(), exact.end(), std::back_inserter(differ));
  const std::vector<Vec3> placed = place_vertices(second, pose);
  for (const ContactPair& c : differ) {
    const auto& t = second.triangles[c.second];
    const double d = triangle_distance(first.corner(c.first, 0) - back, first.corner(c.first, 1) - back,
                                       first.corner(c.first, 2) - back, placed[t[0]] - back, placed[t[1]] - back,
                                       placed[t[2]] - back);
    std::printf("  differs: (%u, %u) distance %.3g (delta %.3g)\n", c.first, c.second, d, delta);
    EXPECT_LE(d, delta);
  }
}

// The motivating example: data/meshes' cube (edge 2) and icosahedron (radius 1) as they are, both
// moved by the same offset. Up to 1e9 their coordinates move almost exactly (the icosahedron's are
// rounded to ulps of 1e9, 1.2e-7), and the fixed backend keeps the origin's 12 contacts. At 1e15
// double itself rounds the icosahedron to multiples of 1/8 (a different solid, with vertices
// exactly on the cube's faces); the fixed backend then agrees with the exact backend on what the
// file now holds, but for touching pairs (closer than the triangle unit's delta).
TEST(FarFromOrigin, CubeAndIcosahedron) {
  REQUIRE_REAL_MESH("cube.off");
  REQUIRE_REAL_MESH("icosahedron.off");
  const Mesh cube0 = load_mesh(real_mesh_path("cube.off")), ico0 = load_mesh(real_mesh_path("icosahedron.off"));
  const DopTree tc0(cube0, 24, kHardwareTreeBuild), ti0(ico0, 24, kHardwareTreeBuild);
  Pose pose;
  pose.translation = Vec3(1.5, 0.25, 0.125);
  const QueryResult origin = collide(tc0, ti0, pose, TraversalOptions{}, SatBackend::Fixed);
  const QueryResult exact0 = collide(tc0, ti0, pose, TraversalOptions{}, SatBackend::Exact);
  EXPECT_EQ(origin.contacts.size(), 12u);
  EXPECT_EQ(origin.contacts, exact0.contacts);
  for (double d : far::kDistances) {
    SCOPED_TRACE(d);
    const Vec3 O(d, d, d);
    Mesh cube = cube0, ico = ico0;
    for (Vec3& x : cube.vertices) x += O;
    for (Vec3& x : ico.vertices) x += O;
    const DopTree tc(cube, 24, kHardwareTreeBuild), ti(ico, 24, kHardwareTreeBuild);
    EXPECT_TRUE(fixed_precision(tc, ti, FixedParams{}).warnings.empty());
    const QueryResult fixed = collide(tc, ti, pose, TraversalOptions{}, SatBackend::Fixed);
    const QueryResult exact = collide(tc, ti, pose, TraversalOptions{}, SatBackend::Exact);
    std::printf("cube vs icosahedron moved %g: fixed %zu contacts, exact %zu, at the origin %zu\n", d,
                fixed.contacts.size(), exact.contacts.size(), origin.contacts.size());
    if (d <= 1e9) {
      EXPECT_EQ(fixed.contacts, exact.contacts);
      EXPECT_EQ(fixed.contacts, origin.contacts);
    } else {
      expect_differences_within_delta(fixed.contacts, exact.contacts, cube, ico, pose,
                                      triangle_delta(scene_scale(tc, ti), TriangleFixedParams{}), O);
    }
  }
}

// Objects of very different size in one scene: the scene scale follows the big one, so the small
// one's DOPs are quantized coarsely. At 18 bits the SAT no longer separates the small object's
// triangles (many more pair tests, same contacts); at 35 bits (the paper's choice "to tolerate
// bigger differences in DOP size") it does. fixed_precision warns and names the bits to use.
TEST(FixedPrecision, VeryDifferentSizesNeedMoreBits) {
  const Mesh big = make_sphere(1000.0, 4);          // 5120 triangles, edges ~ 60
  const Mesh small = make_torus(0.05, 0.015, 32, 16);  // 1024 triangles, edges ~ 0.006
  const DopTree tb(big, 24), tsm(small, 24);
  // The torus is centred on the sphere's vertex of largest x, piercing the surface there.
  Pose pose;
  pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.9, Vec3(0, 1, 0.3).normalized()));
  pose.translation = *std::max_element(big.vertices.begin(), big.vertices.end(),
                                       [](const Vec3& a, const Vec3& b) { return a.x() < b.x(); });
  const QueryResult exact = collide(tb, tsm, pose, TraversalOptions{}, SatBackend::Exact);
  ASSERT_GT(exact.contacts.size(), 0u);
  const FixedPrecision p18 = fixed_precision(tb, tsm, FixedParams{18, 18, 18});
  const FixedPrecision p35 = fixed_precision(tb, tsm, FixedParams{35, 35, 35});
  EXPECT_TRUE(p18.sat_too_coarse);
  EXPECT_FALSE(p35.sat_too_coarse);
  EXPECT_GT(p18.suggested_bits, 18);
  EXPECT_LE(p18.suggested_bits, 35);
  EXPECT_FALSE(p18.delta_too_large);
  for (const std::string& w : p18.warnings) std::printf("  warning: %s\n", w.c_str());
  EXPECT_EQ(p18.warnings.size(), 1u);
  EXPECT_TRUE(p35.warnings.empty());
  const FixedParams enough{p18.suggested_bits, p18.suggested_bits, p18.suggested_bits};
  std::printf("s = %.6g, shortest edge %.3g; pair tests / leaf pairs: exact %llu / %llu\n", p18.scale,
              p18.shortest_edge, (unsigned long long)exact.stats.pair_tests, (unsigned long long)exact.stats.leaf_pairs);
  std::uint64_t pairs[3] = {}, leaves[3] = {};
  int i = 0;
  for (const FixedParams& bits : {FixedParams{18, 18, 18}, enough, FixedParams{35, 35, 35}}) {
    const QueryResult r = collide(tb, tsm, pose, TraversalOptions{}, SatBackend::Fixed, bits);
    std::printf("  bits %d: pair tests %llu, leaf pairs %llu, contacts %zu (exact %zu)\n", bits.b,
                (unsigned long long)r.stats.pair_tests, (unsigned long long)r.stats.leaf_pairs, r.contacts.size(),
                exact.contacts.size());
    EXPECT_EQ(r.contacts, exact.contacts);
    EXPECT_GE(r.stats.pair_tests, exact.stats.pair_tests);
    pairs[i] = r.stats.pair_tests;
    leaves[i++] = r.stats.leaf_pairs;
  }
  // 18 bits: the SAT is nearly blind at the torus's scale (measured: +48 % pair tests, 1.8x leaf pairs).
  EXPECT_GT(pairs[0], exact.stats.pair_tests * 13 / 10);
  EXPECT_GT(leaves[0], exact.stats.leaf_pairs * 3 / 2);
  EXPECT_LT(pairs[1], exact.stats.pair_tests * 11 / 10);    // the suggested bits bring it back
  EXPECT_LT(pairs[2], exact.stats.pair_tests * 101 / 100);  // 35 bits: the exact traversal, nearly
}

// A tiny object next to a big one: the triangle unit's delta (v = m = 24) is no longer small
// against the small object's edges; fixed_precision says so and names the unit's bits to use.
TEST(FixedPrecision, TriangleUnitDeltaAgainstTheShortestEdge) {
  const Mesh big = make_sphere(1000.0, 3);
  const Mesh tiny = make_torus(0.01, 0.003, 16, 8);  // edges ~ 0.0024; delta(24, 24) at s = 1000 ~ 2.6e-4
  const DopTree tb(big, 24), tt(tiny, 24);
  const FixedPrecision p = fixed_precision(tb, tt, FixedParams{35, 35, 35});
  EXPECT_TRUE(p.delta_too_large);
  EXPECT_GT(p.suggested_tri_bits, 24);
  EXPECT_LE(p.suggested_tri_bits, 28);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("delta"), std::string::npos);
  std::printf("  warning: %s\n", p.warnings[0].c_str());
  const FixedPrecision wider =
      fixed_precision(tb, tt, FixedParams{35, 35, 35}, TriangleFixedParams{p.suggested_tri_bits, p.suggested_tri_bits});
  EXPECT_FALSE(wider.delta_too_large);
  EXPECT_TRUE(wider.warnings.empty());
  // Real meshes on their own are resolved well at the defaults.
  REQUIRE_REAL_MESH("cow.off");
  const Mesh cow = load_mesh(real_mesh_path("cow.off"));
  const DopTree tc(cow, 24);
  EXPECT_TRUE(fixed_precision(tc, tc, FixedParams{}).warnings.empty());
}

}  // namespace
}  // namespace kdopcd
