#pragma once
// Shared by the CCD tests: moving meshes made in memory, and the independent check of every
// reported first contact by the discrete exact triangle test (the "bracketing").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "kdopcd/ccd/ccd_query.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/tri_tri_exact.hpp"

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

// The positions at time t as the discrete test sees them: each coordinate x0 + t (x1 - x0),
// rounded in double.
inline std::vector<Vec3> positions_at(const MovingMesh& m, double t) {
  std::vector<Vec3> out(m.motion.start.size());
  for (std::size_t v = 0; v < out.size(); ++v)
    for (int k = 0; k < 3; ++k) out[v][k] = m.motion.start[v][k] + t * (m.motion.end[v][k] - m.motion.start[v][k]);
  return out;
}

inline bool share_vertex(const TriangleIndices& a, const TriangleIndices& b) {
  for (std::uint32_t x : a)
    for (std::uint32_t y : b)
      if (x == y) return true;
  return false;
}

// Every pair of triangles (one of each mesh; in self-collision two that share no vertex) that
// intersect at the positions xa, xb, by the discrete exact test after a box check.
inline std::vector<std::pair<std::uint32_t, std::uint32_t>> intersecting_triangles(
    const Topology& ta, const std::vector<Vec3>& xa, const Topology& tb, const std::vector<Vec3>& xb, bool self) {
  auto box = [](const std::vector<Vec3>& x, const TriangleIndices& t) {
    return std::pair{x[t[0]].cwiseMin(x[t[1]]).cwiseMin(x[t[2]]), x[t[0]].cwiseMax(x[t[1]]).cwiseMax(x[t[2]])};
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (std::uint32_t i = 0; i < ta.triangles.size(); ++i) {
    const auto [lo_a, hi_a] = box(xa, ta.triangles[i]);
    for (std::uint32_t j = self ? i + 1 : 0; j < tb.triangles.size(); ++j) {
      if (self && share_vertex(ta.triangles[i], tb.triangles[j])) continue;
      const auto [lo_b, hi_b] = box(xb, tb.triangles[j]);
      if ((lo_a.array() > hi_b.array()).any() || (lo_b.array() > hi_a.array()).any()) continue;
      const TriangleIndices& p = ta.triangles[i];
      const TriangleIndices& q = tb.triangles[j];
      if (triangles_intersect_exact(xa[p[0]], xa[p[1]], xa[p[2]], xb[q[0]], xb[q[1]], xb[q[2]])) out.emplace_back(i, j);
    }
  }
  return out;
}

// The triangles with at least one of `vertices`.
inline std::vector<std::uint32_t> triangles_around(const Topology& t, std::initializer_list<std::uint32_t> vertices) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < t.triangles.size(); ++i) {
    bool any = false;
    for (std::uint32_t v : vertices) any |= std::find(t.triangles[i].begin(), t.triangles[i].end(), v) != t.triangles[i].end();
    if (any) out.push_back(i);
  }
  return out;
}

// The bracketing of a reported first contact by the discrete exact test, with the time step
// `epsilon` (docs/ccd.md, "Checks"): at t* - epsilon no two triangles intersect (none of the two
// meshes; in self-collision none that share no vertex), and at t* or at t* + epsilon (or 1) each
// reported feature pair's neighbouring triangles intersect (at t* for a pair that touches and separates, at
// t* + epsilon for one that goes on into each other). The motion must start free of
// intersections: one that starts interpenetrating has intersections before its first contact. epsilon must move the vertices by much more than the
// rounding of their positions (about 2^-52 times the coordinates): 1e-7 of the motion here.
inline void expect_bracketed(const MovingMesh& a, const MovingMesh& b, bool self, const CcdResult& result,
                             double epsilon = 1e-7) {
  if (!result.time) return;
  const double t = *result.time;
  const Topology& ta = *a.topology;
  const Topology& tb = *b.topology;
  if (t > epsilon) {
    const auto before = intersecting_triangles(ta, positions_at(a, t - epsilon), tb, positions_at(b, t - epsilon), self);
    EXPECT_TRUE(before.empty()) << before.size() << " triangle pairs intersect at t* - epsilon, t* = " << t;
  }
  const double after_t = std::min(1.0, t + epsilon);
  const std::vector<Vec3> xa = positions_at(a, after_t), xb = positions_at(b, after_t);
  const std::vector<Vec3> ya = positions_at(a, t), yb = positions_at(b, t);
  for (const FeatureContact& c : result.contacts) {
    // The triangles around each side's feature (every triangle with one of its vertices): a face
    // touching a face shows as an intersection of the neighbours, not of the two faces themselves.
    std::vector<std::uint32_t> first, second;
    if (c.kind == ElementaryKind::VertexFace) {
      const Topology& vertex_side = c.vertex_object == 0 ? ta : tb;
      const Topology& face_side = c.vertex_object == 0 ? tb : ta;
      first = triangles_around(vertex_side, {c.ids[0]});
      second = triangles_around(face_side, {face_side.triangles[c.ids[1]][0], face_side.triangles[c.ids[1]][1],
                                            face_side.triangles[c.ids[1]][2]});
      if (c.vertex_object == 1) std::swap(first, second);
    } else {
      first = triangles_around(ta, {c.ids[0], c.ids[1]});
      second = triangles_around(tb, {c.ids[2], c.ids[3]});
    }
    bool seen = false;
    for (std::uint32_t i : first)
      for (std::uint32_t j : second) {
        const TriangleIndices& p = ta.triangles[i];
        const TriangleIndices& q = tb.triangles[j];
        if (self && share_vertex(p, q)) continue;
        seen = seen || triangles_intersect_exact(xa[p[0]], xa[p[1]], xa[p[2]], xb[q[0]], xb[q[1]], xb[q[2]]) ||
               triangles_intersect_exact(ya[p[0]], ya[p[1]], ya[p[2]], yb[q[0]], yb[q[1]], yb[q[2]]);
      }
    EXPECT_TRUE(seen) << "contact kind " << int(c.kind) << " ids " << c.ids[0] << " " << c.ids[1] << " " << c.ids[2]
                      << " " << c.ids[3] << ": no intersection at t* nor at t* + epsilon, t* = " << t;
  }
}

// CCD and brute force give the same time and the same feature pairs.
inline void expect_same(const CcdResult& ccd, const CcdResult& brute) {
  ASSERT_EQ(ccd.time.has_value(), brute.time.has_value());
  if (!ccd.time) return;
  EXPECT_EQ(*ccd.time, *brute.time);
  EXPECT_EQ(ccd.contacts, brute.contacts);
}

}  // namespace kdopcd::ccd::test
