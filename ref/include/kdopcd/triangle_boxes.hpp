#pragma once
// Axis-aligned boxes of a mesh's triangles over given vertex coordinates: the exact prefilter in
// front of brute-force triangle tests (comparisons of the same doubles are exact, so disjoint
// boxes prove disjoint triangles).
#include <vector>

#include "kdopcd/mesh.hpp"

namespace kdopcd {

struct TriangleBox {
  Vec3 lo, hi;
  bool disjoint(const TriangleBox& o) const { return (lo.array() > o.hi.array()).any() || (o.lo.array() > hi.array()).any(); }
};

// One box per triangle of `mesh`, its corners read from `vertices` (the mesh's own, or placed).
inline std::vector<TriangleBox> triangle_boxes(const Mesh& mesh, const std::vector<Vec3>& vertices) {
  std::vector<TriangleBox> out(mesh.triangle_count());
  for (std::size_t t = 0; t < out.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    out[t].lo = vertices[tri[0]].cwiseMin(vertices[tri[1]]).cwiseMin(vertices[tri[2]]);
    out[t].hi = vertices[tri[0]].cwiseMax(vertices[tri[1]]).cwiseMax(vertices[tri[2]]);
  }
  return out;
}

}  // namespace kdopcd
