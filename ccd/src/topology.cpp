#include "kdopcd/ccd/topology.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kdopcd/error.hpp"

namespace kdopcd::ccd {

Topology Topology::of(const std::vector<TriangleIndices>& triangles, std::size_t vertex_count, const std::string& name) {
  constexpr std::size_t kMaxFeatures = std::size_t(1) << 31;
  if (vertex_count >= kMaxFeatures || triangles.size() >= kMaxFeatures / 3)
    throw InputError(fmt::format("{}: {} vertices and {} triangles: more than continuous collision detection's "
                                 "2^31 features",
                                 name, vertex_count, triangles.size()));
  Topology t;
  t.vertex_count = std::uint32_t(vertex_count);
  t.triangles = triangles;
  for (std::size_t i = 0; i < triangles.size(); ++i)
    for (int c = 0; c < 3; ++c)
      if (triangles[i][c] >= vertex_count)
        throw InputError(fmt::format("{}: triangle {} names vertex {}, but there are {} vertices", name, i,
                                     triangles[i][c], vertex_count));
  // Unique edges: (a, b, triangle, slot) sorted by (a, b), then each edge's first triangle owns it.
  struct EdgeUse {
    std::uint32_t a, b, triangle, slot;
  };
  std::vector<EdgeUse> uses;
  uses.reserve(3 * triangles.size());
  for (std::uint32_t i = 0; i < triangles.size(); ++i)
    for (std::uint32_t s = 0; s < 3; ++s) {
      const std::uint32_t u = triangles[i][s], v = triangles[i][(s + 1) % 3];
      uses.push_back({std::min(u, v), std::max(u, v), i, s});
    }
  std::sort(uses.begin(), uses.end(), [](const EdgeUse& x, const EdgeUse& y) {
    return std::tie(x.a, x.b, x.triangle, x.slot) < std::tie(y.a, y.b, y.triangle, y.slot);
  });
  t.triangle_edges.assign(triangles.size(), {0, 0, 0});
  t.owned.assign(triangles.size(), 0);
  for (std::size_t k = 0; k < uses.size(); ++k) {
    const bool first = k == 0 || uses[k].a != uses[k - 1].a || uses[k].b != uses[k - 1].b;
    if (first) {
      t.edges.push_back({uses[k].a, uses[k].b});
      t.owned[uses[k].triangle] |= std::uint8_t(1u << (3 + uses[k].slot));
    }
    t.triangle_edges[uses[k].triangle][uses[k].slot] = std::uint32_t(t.edges.size() - 1);
  }
  std::vector<std::uint32_t> vertex_owner(vertex_count, UINT32_MAX);
  for (std::uint32_t i = 0; i < triangles.size(); ++i)
    for (int c = 0; c < 3; ++c)
      if (vertex_owner[triangles[i][c]] == UINT32_MAX) {
        vertex_owner[triangles[i][c]] = i;
        t.owned[i] |= std::uint8_t(1u << c);
      }
  return t;
}

}  // namespace kdopcd::ccd
