#pragma once
// Shared by the CCD tests: moving meshes made in memory, and the bracketing of every reported first
// contact by the discrete exact triangle test as test assertions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "kdopcd/ccd/bracketing.hpp"
#include "kdopcd/ccd/ccd_query.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/pose.hpp"

namespace kdopcd::ccd::test {

// A mesh with its topology and the positions at both ends of one motion, owning its storage.
struct OwnedMotion {
  Topology topology;
  std::vector<Vec3> start, end;
  MovingMesh view() const { return {&topology, {start, end}}; }
};

inline OwnedMotion rigid(const Mesh& mesh, const Pose& from, const Pose& to) {
  OwnedMotion m{Topology::of(mesh.triangles, mesh.vertices.size(), mesh.name), place_vertices(mesh, from),
                place_vertices(mesh, to)};
  return m;
}

inline Pose pose(const Vec3& translation, const Eigen::Quaterniond& rotation = Eigen::Quaterniond::Identity()) {
  Pose p;
  p.rotation = rotation.normalized();
  p.translation = translation;
  return p;
}

// An n x n grid of vertices in the unit square (z = 0), two triangles per cell.
inline Mesh grid_mesh(int n, const std::string& name = "grid") {
  Mesh m;
  m.name = name;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) m.vertices.emplace_back(double(i) / (n - 1), double(j) / (n - 1), 0.0);
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const std::uint32_t v = std::uint32_t(j * n + i);
      m.triangles.push_back({v, v + 1, v + std::uint32_t(n) + 1});
      m.triangles.push_back({v, v + std::uint32_t(n) + 1, v + std::uint32_t(n)});
    }
  return m;
}

// The grid folded about the line x = 0.5 by `angle` (radians; pi folds it flat onto itself), the
// fold angle growing by `twist` per unit of y, and the folded half lifted by `lift` times its
// distance from the hinge: past pi + asin(lift) the corner at y = 1 comes down first, so the fold
// closes on itself from one side: a self-colliding cloth.
inline std::vector<Vec3> folded_grid(const Mesh& grid, double angle, double twist = 0.25, double lift = 0.1) {
  std::vector<Vec3> out;
  for (const Vec3& v : grid.vertices) {
    if (v.x() <= 0.5) {
      out.push_back(v);
      continue;
    }
    const double r = v.x() - 0.5, a = angle + twist * v.y();
    out.emplace_back(0.5 + r * std::cos(a), v.y(), r * (std::sin(a) + lift));
  }
  return out;
}

// `frames` poses of the grid folding from 0.6 pi to 1.2 pi (folded_grid's defaults): the twisted
// fold closes on itself past pi, so the last intervals self-collide.
inline std::vector<std::vector<Vec3>> closing_fold_frames(const Mesh& grid, int frames) {
  std::vector<std::vector<Vec3>> positions;
  for (int f = 0; f < frames; ++f) positions.push_back(folded_grid(grid, std::numbers::pi * (0.6 + 0.6 * f / (frames - 1))));
  return positions;
}

// The bracketing of a reported first contact by the discrete exact test (bracketing.hpp): no
// intersection at t* - epsilon, each reported pair shown by an intersection at t* or t* + epsilon.
// The motion must start free of intersections.
inline void expect_bracketed(const MovingMesh& a, const MovingMesh& b, bool self, const CcdResult& result) {
  const Bracketing report = check_bracketing(a, b, self, result);
  EXPECT_TRUE(report.before.empty()) << report.before.size() << " triangle pairs intersect at t* - epsilon, t* = "
                                     << (result.time ? *result.time : -1.0);
  for (const FeatureContact& c : report.not_shown_after)
    ADD_FAILURE() << "contact kind " << int(c.kind) << " ids " << c.ids[0] << " " << c.ids[1] << " " << c.ids[2] << " "
                  << c.ids[3] << ": no intersection at t* nor at t* + epsilon, t* = " << *result.time;
}

// CCD and brute force give the same time and the same feature pairs.
inline void expect_same(const CcdResult& ccd, const CcdResult& brute) {
  ASSERT_EQ(ccd.time.has_value(), brute.time.has_value());
  if (!ccd.time) return;
  EXPECT_EQ(*ccd.time, *brute.time);
  EXPECT_EQ(ccd.contacts, brute.contacts);
}

}  // namespace kdopcd::ccd::test
