#pragma once
// Scenes moved far from the origin, exactly: the fixed-point path works in each object's centred
// frame (docs/fixed-point.md §2), so moving a whole scene by an offset must not change any of its
// answers. Shared by the reference's, the SystemC model's and the RTL top's tests.
//
// To compare "the same scene, moved" bit for bit, the move must be exact in double: the meshes
// are scaled by a power of two to an extent in [1024, 2048) and their coordinates rounded to
// multiples of 1/8 (snapped_mesh), so adding an offset that is a multiple of 4 (the grid of
// object_centre at that extent) stays exact up to |x| < 2^50 ~ 1.13e15; pose translations are
// snapped to multiples of 1/4, and moved_pose checks that the moved pose is exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/exact_sum.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/pose.hpp"

namespace kdopcd::far {

// Distances from the origin the scenes are moved by, along kDirection (multiples of 4).
inline constexpr std::array<double, 4> kDistances{1e3, 1e6, 1e9, 1e15};
inline const Vec3 kDirection(1.0, -0.5, 1.0);
inline Vec3 offset(double distance) { return distance * kDirection; }  // exact: halving 1e3..1e15

inline double snap(double x, double grid) { return std::nearbyint(x / grid) * grid; }

// `mesh` scaled by a power of two to a largest bounding-box extent in [1024, 2048), every
// coordinate rounded to a multiple of 1/8.
inline Mesh snapped_mesh(const Mesh& mesh) {
  Vec3 lo = mesh.vertices[0], hi = mesh.vertices[0];
  for (const Vec3& x : mesh.vertices) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  const int e = 10 - std::ilogb((hi - lo).maxCoeff());
  Mesh out = mesh;
  out.name = mesh.name + " (snapped)";
  for (Vec3& x : out.vertices)
    for (int i = 0; i < 3; ++i) x[i] = snap(std::ldexp(x[i], e), 0.125);
  return out;
}

// Every vertex moved by `by`; the test fails if a coordinate is not moved exactly.
inline Mesh translated_mesh(const Mesh& mesh, const Vec3& by) {
  Mesh out = mesh;
  for (Vec3& x : out.vertices) {
    const Vec3 moved = x + by;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(moved[i] - by[i], x[i]) << "translation not exact";
    x = moved;
  }
  return out;
}

inline Pose snapped_pose(Pose pose, double grid = 0.25) {
  for (int i = 0; i < 3; ++i) pose.translation[i] = snap(pose.translation[i], grid);
  return pose;
}

// The pose of the moved scene when the first mesh moved by `first_by` and the second (in its own
// file) by `second_by`: T' = T + first_by - M second_by, or nothing if T' is not exact in double.
inline std::optional<Pose> moved_pose(const Pose& pose, const Vec3& first_by, const Vec3& second_by) {
  const Mat3 M = pose.matrix();
  Pose out = pose;
  for (int i = 0; i < 3; ++i) {
    ExactSum t;
    t.add(pose.translation[i]).add(first_by[i]);
    for (int j = 0; j < 3; ++j) t.add_product(-M(i, j), second_by[j]);
    out.translation[i] = t.rounded();
    t.sub(out.translation[i]);
    if (t.sign() != 0) return std::nullopt;
  }
  return out;
}

// One query case of a moved scene: a pose at the origin, and whether the second object moves
// with the first (a half turn keeps T' = T + O - M O exact) or stays in its own file.
struct MovedCase {
  Pose pose;
  bool move_second;
};

// For every distance of kDistances: the mesh `mesh0` (at the origin, tree `t0`) moved by the
// offset, its tree, and for every case the moved pose; calls
// check(distance, case index, first tree, second tree, moved pose). Every moved tree stays
// alive until the end (engines cache images per tree object: none is mistaken for another).
template <class Check>
void for_each_moved_case(const Mesh& mesh0, const DopTree& t0, const std::vector<MovedCase>& cases, Check&& check) {
  std::vector<std::unique_ptr<Mesh>> meshes;
  std::vector<std::unique_ptr<DopTree>> trees;
  for (double d : kDistances) {
    const Vec3 O = offset(d);
    meshes.push_back(std::make_unique<Mesh>(translated_mesh(mesh0, O)));
    trees.push_back(std::make_unique<DopTree>(*meshes.back(), t0.k(), t0.build_rule()));
    const DopTree& moved = *trees.back();
    for (std::size_t i = 0; i < cases.size(); ++i) {
      SCOPED_TRACE(::testing::Message() << "moved " << d << " case " << i);
      const auto pose = moved_pose(cases[i].pose, O, cases[i].move_second ? O : Vec3::Zero());
      ASSERT_TRUE(pose.has_value());
      check(d, i, moved, cases[i].move_second ? moved : t0, *pose);
    }
  }
}

}  // namespace kdopcd::far
