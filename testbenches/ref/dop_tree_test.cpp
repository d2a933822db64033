#include <gtest/gtest.h>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/shapes.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

// Every node's DOP contains every vertex of every triangle below it; leaves hold exactly one
// triangle and every triangle is in exactly one leaf; the median build's tree is balanced.
void check_tree(const Mesh& mesh, int k, TreeBuild build) {
  const DopTree tree(mesh, k, build);
  const bool balanced = build == TreeBuild::Median;
  const OrientationSet& set = tree.orientations();
  ASSERT_EQ(tree.node_count(), 2 * mesh.triangle_count() - 1);
  std::vector<int> seen(mesh.triangle_count(), 0);
  // Collect each node's triangles by walking the pre-order array backwards (children first).
  std::vector<std::vector<int>> below(tree.node_count());
  for (int i = int(tree.node_count()) - 1; i >= 0; --i) {
    const DopNode& n = tree.node(i);
    if (n.is_leaf()) {
      below[i] = {n.triangle};
      ++seen[n.triangle];
    } else {
      ASSERT_EQ(n.left, i + 1);  // pre-order
      ASSERT_EQ(tree.node(n.left).depth, n.depth + 1);
      below[i] = below[n.left];
      below[i].insert(below[i].end(), below[n.right].begin(), below[n.right].end());
      const int diff = int(below[n.left].size()) - int(below[n.right].size());
      if (balanced) {
        ASSERT_TRUE(diff == 0 || diff == -1) << "median split keeps the tree balanced";
      }
    }
    const auto c = tree.coefficients(i);
    // Built bottom-up, yet bit-identical to the DOP of the node's own vertices.
    std::vector<Vec3> points;
    for (int t : below[i])
      for (int v = 0; v < 3; ++v) points.push_back(mesh.corner(t, v));
    std::vector<double> expected(k);
    dop_of_points(set, points, expected, tree.margin());
    ASSERT_TRUE(std::equal(expected.begin(), expected.end(), c.begin())) << "node " << i;
    for (int t : below[i])
      for (int v = 0; v < 3; ++v)
        for (int d = 0; d < k; ++d) ASSERT_LE(set.direction(d).dot(mesh.corner(t, v)), c[d]) << "node " << i;
  }
  for (int s : seen) ASSERT_EQ(s, 1);
  if (balanced) {
    EXPECT_LE(tree.max_depth(), int(std::ceil(std::log2(double(mesh.triangle_count())))));
  }
}

}  // namespace

TEST(DopTree, ContainsTrianglesGenerated) {
  for (TreeBuild build : {TreeBuild::Median, TreeBuild::Sah})
    for (int k : kSupportedK) check_tree(make_torus(1.0, 0.3, 24, 12), k, build);
}

TEST(DopTree, ContainsTrianglesRealMesh) {
  REQUIRE_REAL_MESH("cow.off");
  const Mesh cow = load_mesh(real_mesh_path("cow.off"));
  for (TreeBuild build : {TreeBuild::Median, TreeBuild::Sah})
    for (int k : kSupportedK) check_tree(cow, k, build);
}

TEST(DopTree, EmptyMeshIsAnInputError) {
  Mesh empty;
  empty.name = "empty.off";
  try {
    DopTree tree(empty, 24);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("empty.off"), std::string::npos);
  }
}
