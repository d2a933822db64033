#pragma once
// A signed distance field of a triangle mesh sampled on a regular grid, for the cloth generator's
// collision response (sequence_generators.hpp): robust and fast rather than exact.
//   * Distance: exact point-triangle distances in a band of two cells around each triangle, then
//     closest-triangle propagation by fast sweeping (8 sweep orders, face neighbours; Tsai 2002,
//     "Rapid and accurate computation of the distance function using grids"), so every grid
//     point holds the distance to a nearby triangle, usually the closest one.
//   * Sign: ray parity along the three grid axes through each grid point, and the majority of the
//     three votes (Nooruddin and Turk 2003, "Simplification and repair of polygonal models using
//     volumetric techniques"), so a small hole changes one vote, not the answer; a ray through
//     an edge or a corner counts for exactly one triangle around it (the top-left rule of
//     rasterizers, on edge functions computed alike for both triangles of an edge). Negative
//     inside.
//   * Queries interpolate trilinearly; outside the grid the field is the distance to the grid's
//     box plus its margin, a lower bound of the distance to the mesh.
#include <array>
#include <cstdint>
#include <vector>

#include "kdopcd/mesh.hpp"

namespace kdopcd::ccd {

class SignedDistanceGrid {
 public:
  // `cells_along_longest` cells along the longest side of the mesh's bounding box; the grid
  // extends `margin_cells` beyond the box on every side.
  SignedDistanceGrid(const Mesh& mesh, int cells_along_longest = 96, int margin_cells = 3);

  // Trilinearly interpolated signed distance at p (negative inside).
  double distance(const Vec3& p) const;
  // The field's gradient at p (the trilinear interpolant's), normalized; (0, 1, 0) where it
  // vanishes. Outside the grid: the direction away from the grid's box.
  Vec3 normal(const Vec3& p) const;

  double cell_size() const { return cell_; }
  // The sampled value at grid point (i, j, k), for tests.
  double sample(int i, int j, int k) const { return values_[index(i, j, k)]; }
  const Vec3& origin() const { return origin_; }
  const std::array<int, 3>& points() const { return n_; }

 private:
  std::size_t index(int i, int j, int k) const { return (std::size_t(k) * n_[1] + j) * n_[0] + i; }
  int margin_cells_;
  Vec3 origin_;
  double cell_;
  std::array<int, 3> n_;        // grid points along x, y, z
  std::vector<double> values_;  // signed distances, x fastest
};

// The point of triangle (a, b, c) closest to p (Ericson 2005, "Real-Time Collision Detection", 5.1.5).
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace kdopcd::ccd
