#include "kdopcd/shapes.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <utility>

#include "kdopcd/error.hpp"

namespace kdopcd {

Mesh make_torus(double R, double r, int nu, int nv) {
  if (!(r > 0.0 && R > r) || !std::isfinite(R)) {
    throw InputError(fmt::format("make_torus: need 0 < r < R, got R = {}, r = {}", R, r));
  }
  if (nu < 3 || nv < 3) throw InputError(fmt::format("make_torus: need nu, nv >= 3, got {}, {}", nu, nv));
  Mesh mesh;
  mesh.name = "torus";
  mesh.vertices.reserve(static_cast<std::size_t>(nu) * nv);
  for (int i = 0; i < nu; ++i) {
    const double u = 2.0 * std::numbers::pi * i / nu;
    for (int j = 0; j < nv; ++j) {
      const double v = 2.0 * std::numbers::pi * j / nv;
      const double ring = R + r * std::cos(v);
      mesh.vertices.emplace_back(ring * std::cos(u), ring * std::sin(u), r * std::sin(v));
    }
  }
  auto id = [&](int i, int j) { return static_cast<std::uint32_t>((i % nu) * nv + (j % nv)); };
  // u runs counter-clockwise around z, v from the outer equator up over the top: d/du x d/dv
  // points out of the tube, so (i,j) (i+1,j) (i+1,j+1) is counter-clockwise seen from outside.
  for (int i = 0; i < nu; ++i) {
    for (int j = 0; j < nv; ++j) {
      mesh.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      mesh.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  }
  return mesh;
}

Mesh make_sphere(double radius, int subdivisions) {
  if (!(radius > 0.0) || !std::isfinite(radius)) {
    throw InputError(fmt::format("make_sphere: need radius > 0, got {}", radius));
  }
  if (subdivisions < 0 || subdivisions > 10) {
    throw InputError(fmt::format("make_sphere: need 0 <= subdivisions <= 10, got {}", subdivisions));
  }
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  Mesh mesh;
  mesh.name = "icosphere";
  mesh.vertices = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                   {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (Vec3& v : mesh.vertices) v.normalize();
  mesh.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                    {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                    {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int s = 0; s < subdivisions; ++s) {
    // One midpoint per edge, shared by both triangles of the edge so the mesh stays closed.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoint;
    auto mid = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::minmax(a, b);
      const auto [it, inserted] = midpoint.try_emplace(key, static_cast<std::uint32_t>(mesh.vertices.size()));
      if (inserted) mesh.vertices.push_back((mesh.vertices[a] + mesh.vertices[b]).normalized());
      return it->second;
    };
    std::vector<TriangleIndices> next;
    next.reserve(mesh.triangles.size() * 4);
    for (const auto& [a, b, c] : mesh.triangles) {
      const std::uint32_t ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      next.push_back({a, ab, ca});
      next.push_back({b, bc, ab});
      next.push_back({c, ca, bc});
      next.push_back({ab, bc, ca});
    }
    mesh.triangles = std::move(next);
  }
  for (Vec3& v : mesh.vertices) v *= radius;
  return mesh;
}

Mesh make_box(const Vec3& half_extents) {
  if (!(half_extents.array() > 0.0).all() || !half_extents.allFinite()) {
    throw InputError(fmt::format("make_box: need positive half extents, got ({}, {}, {})", half_extents.x(),
                                 half_extents.y(), half_extents.z()));
  }
  Mesh mesh;
  mesh.name = "box";
  // Vertex k has coordinate sign bit 0 -> x, bit 1 -> y, bit 2 -> z (set = +).
  for (int k = 0; k < 8; ++k) {
    mesh.vertices.emplace_back((k & 1 ? 1 : -1) * half_extents.x(), (k & 2 ? 1 : -1) * half_extents.y(),
                               (k & 4 ? 1 : -1) * half_extents.z());
  }
  // Two counter-clockwise (seen from outside) triangles per face: -x, +x, -y, +y, -z, +z.
  mesh.triangles = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}, {0, 1, 5}, {0, 5, 4},
                    {2, 6, 7}, {2, 7, 3}, {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};
  return mesh;
}

}  // namespace kdopcd
