// Rigid and deforming CCD through the swept-k-DOP traversal against brute force over every feature
// pair, each reported first contact bracketed by the discrete exact test; one thread against all.
#include <gtest/gtest.h>

#include <numbers>

#include "ccd_test_util.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/shapes.hpp"

namespace kdopcd::ccd {
namespace {

using test::OwnedMotion;

Mesh mesh_file(const std::string& name) { return load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + name); }

// The centre and the size (bounding-box diagonal) of a mesh.
std::pair<Vec3, double> extent(const Mesh& m) {
  Vec3 lo = m.vertices[0], hi = m.vertices[0];
  for (const Vec3& v : m.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  return {(lo + hi) / 2, (hi - lo).norm()};
}

CcdResult checked_pair(const OwnedMotion& a, const OwnedMotion& b, int k, bool expect_contact) {
  const SweptTree ta(a.topology, a.view().motion, k, SweptTree::Use::pairs), tb(b.topology, b.view().motion, k, SweptTree::Use::pairs);
  const CcdResult ccd = ccd_pair(a.view(), ta, b.view(), tb);
  const CcdResult brute = brute_force_pair(a.view(), b.view());
  test::expect_same(ccd, brute);
  EXPECT_EQ(ccd.time.has_value(), expect_contact);
  test::expect_bracketed(a.view(), b.view(), false, ccd);
  // One thread gives the same answer and the same counts.
  const CcdResult one = ccd_pair(a.view(), ta, b.view(), tb, {.threads = 1});
  test::expect_same(one, ccd);
  EXPECT_EQ(one.stats.elementary_tests, ccd.stats.elementary_tests);
  EXPECT_EQ(one.stats.node_pairs, ccd.stats.node_pairs);
  return ccd;
}

// Real meshes: the second object starts beside the first and moves (and turns) through it.
TEST(CcdRigid, RealMeshesThroughEachOtherEqualBruteForce) {
  const std::pair<const char*, const char*> pairs[] = {{"sphere.off", "joint.off"}, {"eight.off", "pig.off"}};
  int k_index = 0;
  for (const auto& [first_name, second_name] : pairs) {
    const Mesh first = mesh_file(first_name), second = mesh_file(second_name);
    const auto [c1, d1] = extent(first);
    const auto [c2, d2] = extent(second);
    const double reach = d1 + d2;
    for (int trial = 0; trial < 2; ++trial) {
      SCOPED_TRACE(std::string(first_name) + " " + second_name + " trial " + std::to_string(trial));
      const Vec3 direction = Vec3(1.0, 0.3 * trial, -0.2 * trial).normalized();
      const Eigen::Quaterniond turn(Eigen::AngleAxisd(0.4 * trial, Vec3(0.3, 1, 0.2).normalized()));
      const Pose from = test::pose(c1 - c2 - direction * reach), to = test::pose(c1 - c2 + 0.1 * d1 * direction, turn);
      const OwnedMotion a = test::rigid(first, Pose{}, Pose{}), b = test::rigid(second, from, to);
      const int k = std::array{18, 26, 14}[std::size_t(k_index++ % 3)];
      const CcdResult r = checked_pair(a, b, k, true);
      EXPECT_GT(*r.time, 0.0);
      EXPECT_FALSE(r.contacts.empty());
    }
  }
}

TEST(CcdRigid, MissingMotionReportsNothing) {
  const Mesh first = mesh_file("sphere.off"), second = mesh_file("joint.off");
  const auto [c1, d1] = extent(first);
  const auto [c2, d2] = extent(second);
  // Passes by at a distance of the two sizes.
  const Vec3 side(0, d1 + d2, 0);
  const OwnedMotion a = test::rigid(first, Pose{}, Pose{});
  const OwnedMotion b = test::rigid(second, test::pose(c1 - c2 + side + Vec3(-d1 - d2, 0, 0)),
                                    test::pose(c1 - c2 + side + Vec3(d1 + d2, 0, 0)));
  const CcdResult r = checked_pair(a, b, 18, false);
  EXPECT_TRUE(r.contacts.empty());
}

TEST(CcdRigid, TouchingAtTheStartIsTimeZero) {
  // Two unit boxes face to face at the start, moving apart.
  const Mesh box = make_box(Vec3(0.5, 0.5, 0.5));
  const OwnedMotion a = test::rigid(box, Pose{}, Pose{});
  const OwnedMotion b = test::rigid(box, test::pose(Vec3(1, 0, 0)), test::pose(Vec3(2, 0.3, 0)));
  const CcdResult r = checked_pair(a, b, 18, true);
  EXPECT_EQ(*r.time, 0.0);
}

TEST(CcdRigid, BoxesFaceToFaceGiveEveryTouchingPair) {
  // Box b slides along x into box a, face to face: t* = 0.5 (the gap 1 closes over a motion of 2),
  // with the many vertex-face and edge-edge pairs of two touching faces.
  const Mesh box = make_box(Vec3(0.5, 0.5, 0.5));
  const OwnedMotion a = test::rigid(box, Pose{}, Pose{});
  const OwnedMotion b = test::rigid(box, test::pose(Vec3(2, 0, 0)), test::pose(Vec3(0, 0, 0)));
  const CcdResult r = checked_pair(a, b, 18, true);
  EXPECT_LE(*r.time, 0.5);
  EXPECT_GE(*r.time, 0.5 - std::ldexp(1.0, -kTimeDepth));
  EXPECT_GT(r.contacts.size(), 4u);
}

// A cloth grid folding onto itself over a few frames: self-collision against brute force.
TEST(CcdDeforming, FoldingClothSelfCollisionEqualsBruteForce) {
  const Mesh grid = test::grid_mesh(9);
  const Topology topology = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  const int frames = 6;
  const std::vector<std::vector<Vec3>> positions = test::closing_fold_frames(grid, frames);
  SweptTree tree(topology, {positions[0], positions[1]}, 18, SweptTree::Use::self_collision);
  int contacts = 0;
  for (int f = 0; f + 1 < frames; ++f) {
    SCOPED_TRACE("frame interval " + std::to_string(f));
    const MovingMesh m{&topology, {positions[std::size_t(f)], positions[std::size_t(f) + 1]}};
    tree.refit(m.motion);
    const CcdResult ccd = ccd_self(m, tree);
    test::expect_same(ccd, brute_force_self(m));
    // Bracketed up to the first colliding interval; later ones start interpenetrating.
    if (contacts == 0) test::expect_bracketed(m, m, true, ccd);
    test::expect_same(ccd_self(m, tree, {.threads = 1}), ccd);
    // A tree built for this interval gives the same answer as the refitted one.
    const SweptTree fresh(topology, m.motion, 18, SweptTree::Use::self_collision);
    test::expect_same(ccd_self(m, fresh), ccd);
    contacts += ccd.time.has_value();
  }
  // The fold closes past pi: the last intervals collide.
  EXPECT_GT(contacts, 0);
  EXPECT_LT(contacts, frames - 1);
}

// A real mesh bent until it touches itself, frame by frame, with restructuring.
TEST(CcdDeforming, BentRealMeshSelfCollisionEqualsBruteForce) {
  const Mesh mesh = mesh_file("eight.off");
  const auto [centre, size] = extent(mesh);
  const Topology topology = Topology::of(mesh.triangles, mesh.vertices.size(), mesh.name);
  // Bend about the y axis through the centre: a vertex at signed x-distance r from the centre turns
  // by angle * r / size, so the two ends swing towards each other.
  auto bent = [&](double angle) {
    std::vector<Vec3> out;
    for (const Vec3& v : mesh.vertices) {
      const Vec3 d = v - centre;
      const double a = angle * d.x() / size;
      out.push_back(centre + Vec3(d.x() * std::cos(a) - d.z() * std::sin(a), d.y(), d.x() * std::sin(a) + d.z() * std::cos(a)));
    }
    return out;
  };
  const int frames = 5;
  std::vector<std::vector<Vec3>> positions;
  for (int f = 0; f < frames; ++f) positions.push_back(bent(0.8 * f));
  SweptTree tree(topology, {positions[0], positions[1]}, 18, SweptTree::Use::self_collision);
  int contacts = 0;
  for (int f = 0; f + 1 < frames; ++f) {
    SCOPED_TRACE("frame interval " + std::to_string(f));
    const MovingMesh m{&topology, {positions[std::size_t(f)], positions[std::size_t(f) + 1]}};
    tree.refit(m.motion);
    tree.restructure(m.motion, 1.5);
    const CcdResult ccd = ccd_self(m, tree);
    test::expect_same(ccd, brute_force_self(m));
    test::expect_bracketed(m, m, true, ccd);
    contacts += ccd.time.has_value();
    if (contacts > 0) break;  // later intervals start interpenetrating
  }
  EXPECT_GT(contacts, 0);
}

TEST(CcdDeforming, RestructureKeepsTheAnswerAndRebuildsLooseSubtrees) {
  // The tree is built on a flat grid; then the half y > 0.5 is carried far away and back, so the
  // refitted subtrees that hold both halves become long and thin.
  const Mesh grid = test::grid_mesh(12);
  const Topology topology = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  std::vector<Vec3> torn = grid.vertices;
  for (Vec3& v : torn)
    if (v.y() > 0.5) v += Vec3(3, 0, 0.01);
  SweptTree tree(topology, {grid.vertices, grid.vertices}, 18, SweptTree::Use::self_collision);
  const MovingMesh m{&topology, {torn, grid.vertices}};
  tree.refit(m.motion);
  const CcdResult refitted = ccd_self(m, tree);
  EXPECT_GT(tree.restructure(m.motion, 1.5), 0u);
  const CcdResult restructured = ccd_self(m, tree);
  test::expect_same(restructured, refitted);
  test::expect_same(refitted, brute_force_self(m));
}

TEST(CcdInput, NonFinitePositionIsAnInputError) {
  const Mesh grid = test::grid_mesh(3);
  const Topology topology = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  std::vector<Vec3> end = grid.vertices;
  end[4].z() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(check_motion({&topology, {grid.vertices, end}}, "grid frame 1"), InputError);
  EXPECT_THROW(Topology::of({{0, 1, 9}}, 3, "bad"), InputError);
}

}  // namespace
}  // namespace kdopcd::ccd
