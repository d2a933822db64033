// The quick exit for separated roots (root_bound.hpp) changes no query: the pseudo-vertices'
// range holds every projection the SAT set-up can give a root, and a query from a pose, which
// may take the exit, equals the plain traversal of its set-up, which never does, at poses swept
// across the roots' separation on the first axis, down to a trillionth of the objects' size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "kdopcd/collide.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/root_bound.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/shapes.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

Mesh moved(Mesh mesh, const Vec3& offset) {
  for (Vec3& v : mesh.vertices) v += offset;
  return mesh;
}

// One flat triangle: a DOP with coincident faces, whose pseudo-vertices are far from its corners.
Mesh flat_triangle() {
  Mesh m;
  m.name = "flat triangle";
  m.vertices = {Vec3(0, 0, 0), Vec3(1, 0.2, 0), Vec3(0.3, 0.9, 0)};
  m.triangles = {{0, 1, 2}};
  return m;
}

std::vector<Mesh> shapes() {
  std::vector<Mesh> out;
  out.push_back(make_torus(1.0, 0.3, 24, 12));
  out.push_back(make_box(Vec3(2.0, 0.1, 0.5)));
  out.push_back(flat_triangle());
  out.push_back(moved(make_sphere(0.7, 2), Vec3(1e4, -2e4, 3e4)));  // far from the file's origin
  out.push_back(load_mesh(real_mesh_path("cow.off")));
  out.push_back(make_sphere(0.02, 1));  // small against its neighbours: the fixed margin's own terms
  return out;
}

Vec3 random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n;
  Vec3 v;
  do v = Vec3(n(rng), n(rng), n(rng));
  while (v.norm() < 1e-3);
  return v.normalized();
}

}  // namespace

// For every direction, the SAT set-up's interval of the root on it (the triple_for face triple's
// P at the root's coefficients, as the float test sums it) lies in the pseudo-vertices' range.
TEST(RootBound, PseudoVerticesHoldEverySetUpProjection) {
  REQUIRE_REAL_MESH("cow.off");
  std::mt19937_64 rng(11);
  for (int k : {6, 14, 18, 24, 26})
    for (const Mesh& mesh : shapes()) {
      const DopTree tree(mesh, k);
      const OrientationSet& set = tree.orientations();
      const std::span<const double> a = tree.coefficients(0);
      const RootPseudoVertices& v = tree.root_pseudo_vertices();
      ASSERT_EQ(v.x.size() % RootPseudoVertices::kRootVertexPadding, 0u);
      for (int trial = 0; trial < 500; ++trial) {
        // Random directions, and the set's own ones (exactly on cone boundaries).
        const Vec3 u = trial < k ? set.direction(trial) : random_unit(rng);
        const FaceTriple t = set.triple_for(u);
        double low = 0, high = 0;
        for (int m = 0; m < 3; ++m) {
          low += t.P[std::size_t(m)] * a[std::size_t(t.j[std::size_t(m)])];
          high -= t.P[std::size_t(m)] * a[std::size_t((t.j[std::size_t(m)] + set.half()) % k)];
        }
        const ProjectionRange range = project_pseudo_vertices(v, u);
        const double tol = 1e-9 * v.magnitude;
        EXPECT_LE(range.low, low + tol) << mesh.name << " k=" << k << " trial " << trial;
        EXPECT_GE(range.high, high - tol) << mesh.name << " k=" << k << " trial " << trial;
        EXPECT_LE(low, high + tol) << mesh.name;
      }
    }
}

// Poses swept along a random direction across the point where the roots part on the first axis:
// a query from the pose equals the plain traversal of the same set-up (float: the set-up of the
// pose; fixed: of the centred pose, as the fixed backend makes it) in every counter, on 1 and 2
// threads. The plain traversals never take the quick exit, so a wrong exit shows as a different
// count of pair or axis tests.
TEST(RootBound, QuickExitChangesNoQuery) {
  REQUIRE_REAL_MESH("cow.off");
  std::mt19937_64 rng(5);
  const std::vector<Mesh> meshes = shapes();
  int separated_near_the_edge = 0, sweeps = 0;
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    const Mesh& first = meshes[i];
    const Mesh& second = meshes[(i + 1) % meshes.size()];
    const DopTree tf(first, 24), ts(second, 24);
    const double size = tf.size(0) + ts.size(0);
    for (int rotation = 0; rotation < 4; ++rotation) {
      const Eigen::Quaterniond q(Eigen::AngleAxisd(std::uniform_real_distribution<double>(0, 3.1)(rng), random_unit(rng)));
      const Vec3 along = random_unit(rng);
      // The plain float traversal's root separation on axis 0, as a function of the distance t
      // from the first object's centre.
      auto pose_at = [&](double t) {
        return Pose{q, tf.centre() - q.toRotationMatrix() * ts.centre() + t * along};
      };
      auto separated_on_first_axis = [&](double t) {
        const Pose pose = pose_at(t);
        const QueryResult r =
            collide(tf, ts, make_sat_setup(tf.orientations(), pose), place_vertices(second, pose), {}, SatBackend::Float);
        return r.stats.pair_tests == 1 && r.stats.axis_tests == 1;
      };
      double lo = 0, hi = 4 * size;
      if (separated_on_first_axis(lo) || !separated_on_first_axis(hi)) continue;  // axis 0 never parts them
      ++sweeps;
      for (int step = 0; step < 80; ++step) {
        const double mid = 0.5 * (lo + hi);
        (separated_on_first_axis(mid) ? hi : lo) = mid;
      }
      // Offsets in units of the width sums: 1e-9 .. 1e-6 straddle the fixed test's error bound
      // (about 1e-5 of the scene scale), where the fixed exit is closest to its margin.
      for (double offset : {-1e-3, -1e-6, -1e-9, -1e-12, 0.0, 1e-12, 1e-9, 3e-8, 1e-7, 2e-7, 4e-7, 8e-7, 1.6e-6, 1e-5,
                            1e-3, 0.5, 3.0}) {
        const Pose pose = pose_at(hi + offset * size);
        for (int threads : {1, 2}) {
          const TraversalOptions options{.threads = threads};
          const QueryResult quick = collide(tf, ts, pose, options, SatBackend::Float);
          const QueryResult plain = collide(tf, ts, make_sat_setup(tf.orientations(), pose),
                                            place_vertices(second, pose), options, SatBackend::Float);
          EXPECT_EQ(quick.contacts, plain.contacts);
          EXPECT_EQ(quick.stats.pair_tests, plain.stats.pair_tests) << first.name << " offset " << offset;
          EXPECT_EQ(quick.stats.axis_tests, plain.stats.axis_tests) << first.name << " offset " << offset;
          EXPECT_EQ(quick.stats.max_stack_depth, plain.stats.max_stack_depth);
          const QueryResult quick_fixed = collide(tf, ts, pose, options, SatBackend::Fixed);
          const QueryResult plain_fixed =
              collide(tf, ts, make_sat_setup(tf.orientations(), centred_pose(tf, ts, pose)), place_vertices(second, pose),
                      options, SatBackend::Fixed);
          EXPECT_EQ(quick_fixed.stats.pair_tests, plain_fixed.stats.pair_tests) << first.name << " offset " << offset;
          EXPECT_EQ(quick_fixed.stats.axis_tests, plain_fixed.stats.axis_tests) << first.name << " offset " << offset;
        }
        if (offset > 0 && offset < 0.5 && collide(tf, ts, pose, {}, SatBackend::Float).stats.pair_tests == 1)
          ++separated_near_the_edge;
      }
    }
  }
  EXPECT_GE(sweeps, int(meshes.size()));  // most random directions part the roots on axis 0 at some distance
  EXPECT_GT(separated_near_the_edge, 0);  // the sweeps reached the separated side of the edge
}
