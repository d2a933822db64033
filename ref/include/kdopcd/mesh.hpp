#pragma once
// A triangle mesh as the reference sees it: indexed vertices and triangles.
// Triangle index convention (docs/formats.md): triangles are numbered in file order; a polygon
// face with vertices (v0..vm) becomes the fan (v0, vk, vk+1), k = 1..m-1, in that order.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kdopcd/vec.hpp"

namespace kdopcd {

using TriangleIndices = std::array<std::uint32_t, 3>;

struct Mesh {
  std::string name;  // file name or generator name, used in messages
  std::vector<Vec3> vertices;
  std::vector<TriangleIndices> triangles;

  std::size_t triangle_count() const { return triangles.size(); }
  const Vec3& corner(std::size_t tri, int i) const { return vertices[triangles[tri][i]]; }
};

}  // namespace kdopcd
