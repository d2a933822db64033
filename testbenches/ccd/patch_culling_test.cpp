// Patch culling of self-collision (patch_culling.hpp): the boundary cycles against a count of
// directed edges per patch; whole patches skipped where they provably cannot touch themselves,
// never where they can (a strip curling over itself in its own plane keeps every normal, so only
// the contour test stops it); the answers with culling equal brute force and the answers without.
#include "kdopcd/ccd/patch_culling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numbers>
#include <random>

#include "ccd_test_util.hpp"

namespace kdopcd::ccd {
namespace {

// The boundary of a set of triangles by counting: directed edges whose reverse no triangle of the
// set runs, each edge once per triangle.
std::multimap<std::uint32_t, std::uint32_t> counted_boundary(const Topology& T, std::span<const std::uint32_t> tris) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> runs;
  for (std::uint32_t t : tris)
    for (int s = 0; s < 3; ++s) ++runs[{T.triangles[t][s], T.triangles[t][(s + 1) % 3]}];
  std::multimap<std::uint32_t, std::uint32_t> out;
  for (const auto& [edge, n] : runs)
    if (!runs.count({edge.second, edge.first}))
      for (int i = 0; i < n; ++i) out.insert(edge);
  return out;
}

// Whether directed edges form one cycle through all of them, each vertex left once.
bool one_cycle(const std::multimap<std::uint32_t, std::uint32_t>& edges) {
  if (edges.size() < 3) return false;
  for (const auto& e : edges)
    if (edges.count(e.first) != 1) return false;
  std::uint32_t at = edges.begin()->first;
  std::size_t steps = 0;
  do {
    at = edges.find(at)->second;
    ++steps;
  } while (at != edges.begin()->first && edges.count(at) == 1 && steps <= edges.size());
  return at == edges.begin()->first && steps == edges.size();
}

TEST(PatchBoundaries, EqualTheCountedBoundaryOfEveryNode) {
  // A flat grid and a crumpled one (median splits then group triangles unlike the grid's rows).
  const Mesh grid = test::grid_mesh(13);
  const Topology T = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  std::vector<Vec3> crumpled = grid.vertices;
  for (Vec3& v : crumpled) v.z() = 0.3 * std::sin(9 * v.x()) * std::cos(7 * v.y());
  for (const std::vector<Vec3>* positions : {&grid.vertices, static_cast<const std::vector<Vec3>*>(&crumpled)}) {
    const SweptTree tree(T, Motion{*positions, *positions}, 18, SweptTree::Use::self_collision);
    std::size_t with_cycle = 0, without = 0;
    for (std::size_t n = 0; n < tree.nodes().size(); ++n) {
      const auto cycle = tree.boundary(n);
      const auto counted = counted_boundary(T, tree.triangles(n));
      if (tree.nodes()[n].count < kMinPatchTriangles || !one_cycle(counted)) {
        EXPECT_TRUE(cycle.empty()) << "node " << n;
        ++without;
        continue;
      }
      ASSERT_EQ(cycle.size(), counted.size()) << "node " << n;
      for (std::size_t j = 0; j < cycle.size(); ++j) {
        const auto e = counted.find(cycle[j]);
        ASSERT_NE(e, counted.end());
        EXPECT_EQ(e->second, cycle[(j + 1) % cycle.size()]) << "node " << n;
      }
      ++with_cycle;
    }
    EXPECT_GT(with_cycle, 0u);
    EXPECT_GT(without, 0u);
    // The whole grid: its outline, 4 x 12 edges.
    EXPECT_EQ(tree.boundary(0).size(), 48u);
  }
}

TEST(PatchBoundaries, NoneForTwoPiecesAPinchOrAFlippedTriangle) {
  auto boundary_of = [](const std::vector<TriangleIndices>& tris, std::uint32_t vertices) {
    const Topology T = Topology::of(tris, vertices, "patch");
    std::vector<std::uint32_t> order(tris.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    const std::vector<PatchNode> nodes{{0, std::uint32_t(tris.size())}};
    return patch_boundaries(T, nodes, order).of(0).size();
  };
  // Four triangles around vertex 0 (a fan, one cycle of 5 edges) as the control.
  EXPECT_EQ(boundary_of({{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 5}}, 6), 6u);
  // Two quads apart.
  EXPECT_EQ(boundary_of({{0, 1, 2}, {0, 2, 3}, {4, 5, 6}, {4, 6, 7}}, 8), 0u);
  // Two quads touching at vertex 0 (a bow tie: two edges leave vertex 0).
  EXPECT_EQ(boundary_of({{0, 1, 2}, {0, 2, 3}, {0, 4, 5}, {0, 5, 6}}, 7), 0u);
  // The fan with its second triangle wound the other way.
  EXPECT_EQ(boundary_of({{0, 1, 2}, {0, 3, 2}, {0, 3, 4}, {0, 4, 5}}, 6), 0u);
}

PatchVerdict root_verdict(const SweptTree& tree, const MovingMesh& m) {
  PatchScratch scratch;
  return patch_cannot_touch_itself(*m.topology, tree.triangles(0), tree.boundary(0), tree.normal_signs(0),
                                   m.motion.start, m.motion.end, scratch);
}

TEST(PatchCulling, AGridMovingRigidlyIsOnePatch) {
  const Mesh grid = test::grid_mesh(17);
  const Topology T = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  // Turned by 40 degrees about a tilted axis and carried away: no contact, the whole grid one patch.
  const Pose to =
      test::pose(Vec3(0.3, -0.2, 0.5), Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())));
  std::vector<Vec3> end;
  for (const Vec3& v : grid.vertices) end.push_back(to.rotation * v + to.translation);
  const MovingMesh m{&T, {grid.vertices, end}};
  const SweptTree tree(T, m.motion, 18, SweptTree::Use::self_collision);
  EXPECT_EQ(root_verdict(tree, m), PatchVerdict::free);
  const CcdResult culled = ccd_self(m, tree);
  EXPECT_EQ(culled.stats.patches_culled, 1u);
  EXPECT_EQ(culled.stats.patch_triangles_culled, T.triangles.size());
  EXPECT_EQ(culled.stats.node_pairs, 0u);
  test::expect_same(culled, brute_force_self(m));
  EXPECT_FALSE(culled.time.has_value());
}

TEST(PatchCulling, ATriangleFacingAwayFailsTheNormalCondition) {
  // A flat grid whose centre vertex is pulled over its neighbour: some triangles face -z, the
  // outline is the same square. Given the guide's +z direction regardless, the rigorous normal
  // condition (A) must refuse.
  const Mesh grid = test::grid_mesh(5);
  const Topology T = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  std::vector<Vec3> pulled = grid.vertices;
  pulled[12] += Vec3(0.4, 0.0, 0.0);  // vertex (2, 2) past vertex (3, 2), 0.25 away
  const SweptTree tree(T, Motion{pulled, pulled}, 18, SweptTree::Use::self_collision);
  PatchScratch scratch;
  const NormalSigns plus_z = 1u << 2;
  EXPECT_EQ(patch_cannot_touch_itself(T, tree.triangles(0), tree.boundary(0), plus_z, pulled, pulled, scratch),
            PatchVerdict::normals_unproven);
  // The flat grid itself passes with the same guide.
  EXPECT_EQ(
      patch_cannot_touch_itself(T, tree.triangles(0), tree.boundary(0), plus_z, grid.vertices, grid.vertices, scratch),
      PatchVerdict::free);
}

// A strip of `length` x 1 cells in the plane z = 0 bent along an arc of `turn` radians (inner
// radius 1, width 0.2): past 2 pi its end lies on its start, in the same plane.
std::vector<Vec3> arc_strip(const Mesh& strip, double turn) {
  std::vector<Vec3> out;
  for (const Vec3& v : strip.vertices) {
    const double a = turn * v.x(), r = 1.0 + 0.2 * v.y();
    out.emplace_back(r * std::cos(a), r * std::sin(a), 0.0);
  }
  return out;
}

Mesh strip_mesh(int length) {
  Mesh m;
  m.name = "strip";
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i <= length; ++i) m.vertices.emplace_back(double(i) / length, double(j), 0.0);
  const auto n = std::uint32_t(length + 1);
  for (std::uint32_t i = 0; i < n - 1; ++i) {
    m.triangles.push_back({i, i + 1, i + n + 1});
    m.triangles.push_back({i, i + n + 1, i + n});
  }
  return m;
}

TEST(PatchCulling, AStripCurlingOverItselfInItsPlaneIsNotCulled) {
  // Every normal stays +z, so condition (A) holds throughout; the strip's end slides onto its start
  // in the plane: only the contour test (B) tells. Culling it would miss the contact.
  const Mesh strip = strip_mesh(60);
  const Topology T = Topology::of(strip.triangles, strip.vertices.size(), "strip");
  const std::vector<Vec3> open = arc_strip(strip, 1.8 * std::numbers::pi),
                          closed = arc_strip(strip, 2.2 * std::numbers::pi);
  const MovingMesh m{&T, {open, closed}};
  const SweptTree tree(T, m.motion, 18, SweptTree::Use::self_collision);
  EXPECT_EQ(root_verdict(tree, m), PatchVerdict::contour_unproven);
  const CcdResult culled = ccd_self(m, tree);
  ASSERT_TRUE(culled.time.has_value());
  test::expect_same(culled, brute_force_self(m));
  test::expect_same(culled, ccd_self(m, tree, {.patch_culling = false}));
  // The arc short of closing is culled piecewise (its patches' outlines stay simple).
  const std::vector<Vec3> opened = arc_strip(strip, 1.7 * std::numbers::pi);
  const MovingMesh opening{&T, {open, opened}};
  const SweptTree open_tree(T, opening.motion, 18, SweptTree::Use::self_collision);
  const CcdResult open_result = ccd_self(opening, open_tree);
  EXPECT_FALSE(open_result.time.has_value());
  EXPECT_GT(open_result.stats.patches_culled, 0u);
  test::expect_same(open_result, brute_force_self(opening));
}

TEST(PatchCulling, AClosingFoldEqualsBruteForceAndTheFullTraversal) {
  // The grid folding onto itself (twisted, so one corner comes down first), interval by interval:
  // while the fold is open its halves are culled; as it closes, patches across the fold hold
  // normals more than 180 degrees apart and are descended, and the contact is found.
  const Mesh grid = test::grid_mesh(11);
  const Topology T = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  const int frames = 6;
  const std::vector<std::vector<Vec3>> positions = test::closing_fold_frames(grid, frames);
  std::uint64_t culled_patches = 0, culled_node_pairs = 0, full_node_pairs = 0;
  int contacts = 0;
  for (int f = 0; f + 1 < frames; ++f) {
    SCOPED_TRACE("frame interval " + std::to_string(f));
    const MovingMesh m{&T, {positions[std::size_t(f)], positions[std::size_t(f) + 1]}};
    const SweptTree tree(T, m.motion, 18, SweptTree::Use::self_collision);
    const CcdResult culled = ccd_self(m, tree);
    const CcdResult full = ccd_self(m, tree, {.patch_culling = false});
    test::expect_same(culled, brute_force_self(m));
    test::expect_same(culled, full);
    EXPECT_EQ(full.stats.patches_culled, 0u);
    EXPECT_LE(culled.stats.node_pairs, full.stats.node_pairs);
    culled_patches += culled.stats.patches_culled;
    culled_node_pairs += culled.stats.node_pairs;
    full_node_pairs += full.stats.node_pairs;
    contacts += culled.time.has_value();
    if (culled.time) {
      EXPECT_NE(root_verdict(tree, m), PatchVerdict::free);
    }
  }
  EXPECT_GT(contacts, 0);
  EXPECT_GT(culled_patches, 0u);
  EXPECT_LT(culled_node_pairs, full_node_pairs);
}

// Random smooth deformations of a grid, start and end each a sum of waves in height and in the
// plane, from gentle to strong enough that the grid passes through itself: with patch culling
// the answer equals brute force every time, and over the seeds both culled patches and contacts
// occur. (A regression test of the whole path: the guide alone already keeps these folds from
// being culled, so the two tests above are the ones that fail without condition (A) or (B).)
TEST(PatchCulling, RandomDeformationsEqualBruteForce) {
  const Mesh grid = test::grid_mesh(9);
  const Topology T = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  auto deformed = [&](double strength) {
    double a[4][5];
    for (auto& wave : a)
      for (double& x : wave) x = unit(rng);
    std::vector<Vec3> out;
    for (const Vec3& v : grid.vertices) {
      Vec3 d = Vec3::Zero();
      for (int w = 0; w < 4; ++w) {
        const double phase = 3.0 * (a[w][0] * v.x() + a[w][1] * v.y()) + a[w][2];
        d[w % 3] += strength * a[w][3] * std::sin(phase);
        d.z() += 0.5 * strength * a[w][4] * std::cos(2 * phase);
      }
      out.push_back(v + d);
    }
    return out;
  };
  std::uint64_t culled = 0;
  int with_contact = 0, seeds = 40;
  for (int seed = 0; seed < seeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const double strength = 0.05 + 0.25 * (seed % 5);
    const std::vector<Vec3> a = deformed(strength), b = deformed(strength);
    const MovingMesh m{&T, {a, b}};
    const SweptTree tree(T, m.motion, 18, SweptTree::Use::self_collision);
    const CcdResult culled_result = ccd_self(m, tree);
    test::expect_same(culled_result, brute_force_self(m));
    culled += culled_result.stats.patches_culled;
    with_contact += culled_result.time.has_value();
  }
  EXPECT_GT(culled, 0u);
  EXPECT_GT(with_contact, 0);
  EXPECT_LT(with_contact, seeds);
}

}  // namespace
}  // namespace kdopcd::ccd
