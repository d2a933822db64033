// The benchmark sequence generators (sequence_generators.hpp, `kdop ccd-gen`) at small sizes:
// valid sequences, and each generator's physical claim (the cloth falls and drapes over the
// obstacle without sinking into it, the twist keeps edge lengths within its stated bound and the
// bend brings the ends together, the falling bodies stay rigid and land on the ground), and
// determinism (identical bytes for a seed, whatever the number of threads).
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>
#include <string>

#include <unistd.h>

#include "kdopcd/ccd/sequence_generators.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"

namespace kdopcd::ccd {
namespace {

const Mesh& mesh(const std::string& name) {
  static std::map<std::string, Mesh> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + name + ".off")).first;
  return it->second;
}

void expect_valid(const FrameSequence& s) {
  ASSERT_FALSE(s.frames.empty());
  for (std::size_t f = 0; f < s.frame_count(); ++f) {
    ASSERT_EQ(s.frames[f].size(), s.vertex_count()) << "frame " << f;
    for (const Vec3& p : s.frames[f]) ASSERT_TRUE(p.allFinite()) << "frame " << f;
  }
  for (const auto& t : s.triangles)
    for (auto i : t) ASSERT_LT(i, s.vertex_count());
}

double mean_height(const std::vector<Vec3>& points) {
  double sum = 0;
  for (const Vec3& p : points) sum += p.y();
  return sum / double(points.size());
}

// The cloth's collision field against exact answers: the distance to the cow by brute force over
// its triangles, and the sign inside and outside a cube (known analytically).
TEST(SequenceGen, SignedDistanceGridMatchesExactDistances) {
  const Mesh& cow = mesh("cow");
  const SignedDistanceGrid field(cow, 48);
  std::uint64_t state = 12345;
  auto uniform = [&] {  // a fixed sequence in [0, 1)
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(state >> 11) * 0x1p-53;
  };
  const Vec3 lo = field.origin(), size = field.cell_size() * Vec3(field.points()[0] - 1, field.points()[1] - 1, field.points()[2] - 1);
  for (int sample = 0; sample < 300; ++sample) {
    const Vec3 p = lo + size.cwiseProduct(Vec3(uniform(), uniform(), uniform()));
    double exact = 1e300;
    for (std::size_t t = 0; t < cow.triangles.size(); ++t)
      exact = std::min(exact, (p - closest_point_on_triangle(p, cow.corner(t, 0), cow.corner(t, 1), cow.corner(t, 2))).norm());
    // Trilinear interpolation of a 1-Lipschitz function: within a cell diagonal of the truth.
    EXPECT_NEAR(std::fabs(field.distance(p)), exact, std::sqrt(3.0) * field.cell_size()) << p.transpose();
  }
  Mesh cube;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) cube.vertices.emplace_back(x - 0.5, y - 0.5, z - 0.5);
  cube.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                    {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  const SignedDistanceGrid box(cube, 20);
  for (int sample = 0; sample < 300; ++sample) {
    // Inside the grid (the cube plus 3 cells of 0.05 on every side).
    const Vec3 p(uniform() * 1.3 - 0.65, uniform() * 1.3 - 0.65, uniform() * 1.3 - 0.65);
    const Vec3 outside = (p.cwiseAbs() - Vec3::Constant(0.5)).cwiseMax(Vec3::Zero());
    const double exact = outside.norm() > 0 ? outside.norm() : (p.cwiseAbs() - Vec3::Constant(0.5)).maxCoeff();
    if (std::fabs(exact) < box.cell_size()) continue;  // the sign within a cell of the surface is interpolated
    EXPECT_EQ(box.distance(p) < 0, exact < 0) << p.transpose();
    EXPECT_NEAR(box.distance(p), exact, std::sqrt(3.0) * box.cell_size()) << p.transpose();
  }
  // Outside the grid: a lower bound of the distance, never a contact.
  EXPECT_GT(box.distance(Vec3(5, 0, 0)), 4);
  EXPECT_LE(box.distance(Vec3(5, 0, 0)), 4.5);
  EXPECT_GT(box.distance(Vec3(0.66, 0.66, 0.66)), 0.1);
  EXPECT_NEAR(box.normal(Vec3(0.52, 0.01, 0.02)).x(), 1, 0.05);  // the gradient points out
}

TEST(SequenceGen, ClothFallsAndDrapesOverTheObstacle) {
  const Mesh& cow = mesh("cow");
  ClothOptions options;
  options.resolution = 31;
  options.field_cells = 48;
  ClothDrape cloth(cow, options);
  const FrameSequence s = generate_sequence(cloth, 61, 60, "cloth");  // one second
  expect_valid(s);
  const int n = options.resolution;
  EXPECT_EQ(s.triangles.size(), std::size_t(2 * (n - 1) * (n - 1)));
  EXPECT_EQ(s.vertex_count(), std::size_t(n * n));
  double top = cow.vertices.front().y(), bottom = top;
  for (const Vec3& v : cow.vertices) top = std::max(top, v.y()), bottom = std::min(bottom, v.y());
  EXPECT_EQ(cloth.ground(), bottom);
  const auto& first = s.frames.front();
  const auto& last = s.frames.back();
  // It starts flat above the obstacle and ends lower.
  for (const Vec3& p : first) EXPECT_GT(p.y(), top);
  EXPECT_LT(mean_height(last), mean_height(first) - 0.2 * (top - bottom));
  // Nothing below the ground or inside the obstacle (beyond one cell of the field's resolution).
  for (const Vec3& p : last) {
    EXPECT_GE(p.y(), bottom - 1e-9);
    EXPECT_GT(cloth.field().distance(p), -cloth.field().cell_size());
  }
  // Draped: the middle is held up by the obstacle, high above the ground, a good part of the cloth
  // lies on the obstacle, and the corners hang down past the obstacle's sides to near the ground.
  const Vec3 middle = last[std::size_t(n / 2) * n + n / 2];
  EXPECT_GT(middle.y(), bottom + 0.6 * (top - bottom));
  std::size_t on_obstacle = 0;
  for (const Vec3& p : last) on_obstacle += cloth.field().distance(p) < 2 * cloth.thickness();
  EXPECT_GT(on_obstacle, last.size() / 20);
  double corners = 0;
  for (std::size_t corner : {std::size_t(0), std::size_t(n - 1), std::size_t(n) * (n - 1), std::size_t(n) * n - 1})
    corners += last[corner].y() / 4;
  EXPECT_LT(corners, bottom + 0.3 * (top - bottom));
  std::size_t on_ground = 0;
  for (const Vec3& p : last) on_ground += p.y() < cloth.ground() + 2 * cloth.thickness();
  EXPECT_GT(on_ground, last.size() / 10);
}

std::string generated_cloth_bytes(std::uint64_t seed, const std::string& file) {
  ClothOptions options;
  options.resolution = 12;
  options.field_cells = 24;
  options.seed = seed;
  ClothDrape cloth(mesh("cow"), options);
  write_generated(cloth, 10, 60, file);
  const std::string bytes = read_whole_file(file);
  std::filesystem::remove(file);
  return bytes;
}

TEST(SequenceGen, GeneratorsAreDeterministic) {
  const std::string file = (std::filesystem::temp_directory_path() / ("kdopcd_gen_" + std::to_string(::getpid()) + ".kframes")).string();
  const std::string a = generated_cloth_bytes(7, file), b = generated_cloth_bytes(7, file);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, generated_cloth_bytes(8, file));
  {
    // One thread: the same bytes (the parallel loops write disjoint vertices).
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    EXPECT_EQ(a, generated_cloth_bytes(7, file));
  }
  FallOptions fall_options;
  fall_options.bodies = 3;
  RigidFall f1({mesh("cow"), mesh("elephant")}, fall_options), f2({mesh("cow"), mesh("elephant")}, fall_options);
  EXPECT_EQ(generate_sequence(f1, 8, 60, "a").frames, generate_sequence(f2, 8, 60, "b").frames);
}

TEST(SequenceGen, TwistKeepsEdgeLengthsWithinItsBound) {
  const Mesh& armadillo = mesh("armadillo");
  TwistOptions options;
  options.frames = 5;
  options.bend_angle = 0;
  TwistBend twist(armadillo, options);
  const FrameSequence s = generate_sequence(twist, options.frames, 60, "twist");
  expect_valid(s);
  EXPECT_EQ(s.frames.front(), armadillo.vertices);  // frame 0 is the mesh itself
  EXPECT_EQ(s.triangles, armadillo.triangles);
  // The bound stated in sequence_generators.hpp: sigma = (a + sqrt(a^2 + 4)) / 2, a = r |angle| / L.
  const int axis = twist.long_axis();
  Vec3 lo = armadillo.vertices.front(), hi = lo;
  for (const Vec3& v : armadillo.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  const Vec3 centre = (lo + hi) / 2;
  double r = 0, moved = 0;
  for (std::size_t v = 0; v < armadillo.vertices.size(); ++v) {
    Vec3 q = armadillo.vertices[v] - centre;
    q[axis] = 0;
    r = std::max(r, q.norm());
    moved = std::max(moved, (s.frames.back()[v] - armadillo.vertices[v]).norm());
  }
  const double a = r * std::fabs(options.twist_angle) / twist.length();
  const double sigma = (a + std::sqrt(a * a + 4)) / 2;
  EXPECT_GT(moved, 0.3 * twist.length());  // it did twist
  double smallest = 1e300, largest = 0;
  for (const auto& t : armadillo.triangles)
    for (int c = 0; c < 3; ++c) {
      const auto i = t[c], j = t[(c + 1) % 3];
      const double rest = (armadillo.vertices[i] - armadillo.vertices[j]).norm();
      if (!(rest > 0)) continue;
      const double ratio = (s.frames.back()[i] - s.frames.back()[j]).norm() / rest;
      smallest = std::min(smallest, ratio), largest = std::max(largest, ratio);
    }
  EXPECT_LE(largest, sigma * 1.01);
  EXPECT_GE(smallest, 1 / sigma / 1.01);
  EXPECT_GT(largest, 1.01);  // the twist does stretch some edges: the bound is not vacuous here
}

TEST(SequenceGen, BendBringsTheEndsTogether) {
  const Mesh& armadillo = mesh("armadillo");
  TwistOptions options;
  options.frames = 4;
  options.twist_angle = 0;
  options.bend_angle = std::numbers::pi;
  TwistBend bend(armadillo, options);
  const FrameSequence s = generate_sequence(bend, options.frames, 60, "bend");
  expect_valid(s);
  const int axis = bend.long_axis();
  // The vertices in the lowest and highest 5% of the axis, and the distance of their centroids.
  double lo = 1e300, hi = -1e300;
  for (const Vec3& v : armadillo.vertices) lo = std::min(lo, v[axis]), hi = std::max(hi, v[axis]);
  auto ends_apart = [&](const std::vector<Vec3>& frame) {
    Vec3 low = Vec3::Zero(), high = Vec3::Zero();
    int nl = 0, nh = 0;
    for (std::size_t v = 0; v < frame.size(); ++v) {
      const double u = armadillo.vertices[v][axis];
      if (u < lo + 0.05 * (hi - lo)) low += frame[v], ++nl;
      if (u > hi - 0.05 * (hi - lo)) high += frame[v], ++nh;
    }
    return (high / nh - low / nl).norm();
  };
  // A half circle's chord is 2/pi of its arc: the ends come to about 0.64 of their distance.
  EXPECT_LT(ends_apart(s.frames.back()), 0.75 * ends_apart(s.frames.front()));
}

TEST(SequenceGen, FallingBodiesStayRigidAndLandOnTheGround) {
  FallOptions options;
  options.bodies = 4;
  RigidFall fall({mesh("cow"), mesh("elephant")}, options);
  const FrameSequence s = generate_sequence(fall, 90, 60, "fall");  // 1.5 s
  expect_valid(s);
  EXPECT_EQ(s.triangles.size(), 2 * (mesh("cow").triangles.size() + mesh("elephant").triangles.size()));
  for (int b = 0; b < fall.body_count(); ++b) {
    const std::size_t first = fall.first_vertex(b), count = fall.first_vertex(b + 1) - first;
    for (std::size_t k : {count / 3, count / 2, count - 1}) {
      const double rest = (s.frames[0][first] - s.frames[0][first + k]).norm();
      for (std::size_t f = 1; f < s.frame_count(); ++f)
        ASSERT_NEAR((s.frames[f][first] - s.frames[f][first + k]).norm(), rest, 1e-9 * (1 + rest))
            << "body " << b << " frame " << f;
    }
  }
  double lowest = 1e300;
  for (const auto& frame : s.frames)
    for (const Vec3& p : frame) lowest = std::min(lowest, p.y());
  EXPECT_GE(lowest, -1e-9);  // never below the ground at a frame
  EXPECT_LT(lowest, 0.01);   // and something reached it
  EXPECT_LT(mean_height(s.frames.back()), mean_height(s.frames.front()) - 0.3);
  // At rest at the end: the last frames barely move.
  double motion = 0;
  for (std::size_t v = 0; v < s.vertex_count(); ++v) motion = std::max(motion, (s.frames.back()[v] - s.frames[s.frame_count() - 2][v]).norm());
  EXPECT_LT(motion, 0.05);
}

}  // namespace
}  // namespace kdopcd::ccd
