#pragma once
// A triangle mesh's features as continuous collision detection tests them: its vertices, its
// unique edges and its triangles, and which triangle "owns" each vertex and edge. Every feature is
// tested from its owner only (the lowest-numbered triangle that holds it), so each vertex-face and
// edge-edge pair is tested once however many triangle pairs hold it. That is complete: the owner's
// swept k-DOP contains the feature's swept volume, so any contact of the feature is inside a
// k-DOP overlap of the owner's leaf.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kdopcd/mesh.hpp"

namespace kdopcd::ccd {

using EdgeIndices = std::array<std::uint32_t, 2>;  // vertex ids, smaller first

struct Topology {
  std::uint32_t vertex_count = 0;
  std::vector<TriangleIndices> triangles;
  std::vector<EdgeIndices> edges;                       // unique, sorted
  std::vector<std::array<std::uint32_t, 3>> triangle_edges;  // edge ids of (v0 v1), (v1 v2), (v2 v0)
  // Per triangle: bit i set when the triangle owns its vertex i; bit 3 + i when it owns edge i.
  std::vector<std::uint8_t> owned;

  // Throws InputError (naming `name`) for an index out of range or more than 2^31 features.
  static Topology of(const std::vector<TriangleIndices>& triangles, std::size_t vertex_count, const std::string& name);
};

}  // namespace kdopcd::ccd
