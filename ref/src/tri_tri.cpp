// Exact triangle-triangle intersection: Guigue-Devillers on exact double predicates.
//
// The algorithm (and why each of its cases is exact once the signs are exact) lives in
// guigue_devillers.hpp, shared with the fixed-point triangle unit (tri_fixed.cpp). This file
// supplies the double kernel: orient3d_sign / orient2d_sign ARE exact (filter + exact fallback,
// predicates.cpp), and the coplanar projection axis is chosen as described below.
#include "kdopcd/tri_tri.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "kdopcd/guigue_devillers.hpp"
#include "kdopcd/predicates.hpp"

namespace kdopcd {

namespace {

struct DoubleKernel {
  using Point = Vec3;
  using Coord = double;

  static int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    return orient3d_sign(a, b, c, d);
  }

  static std::array<int, 3> orient3d3(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d0, const Vec3& d1,
                                      const Vec3& d2) {
    return orient3d_signs(a, b, c, d0, d1, d2);
  }

  static int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
    return orient2d_sign(ax, ay, bx, by, cx, cy);
  }

  // An axis along which the projection of triangle (p,q,r) is non-degenerate (its normal
  // component there is exactly nonzero), or -1 when the triangle is degenerate (normal exactly
  // 0). We try the axes in order of the rounded |n_k|, i.e. the paper's "largest component", but
  // accept one only after the exact orient2d says it is nonzero; a rounded-largest component
  // could be an exact 0 for slivers.
  static int projection_axis(const Vec3& p, const Vec3& q, const Vec3& r) {
    const Vec3 n = (q - p).cross(r - p);  // rounded: only an ordering hint, never trusted
    int order[3] = {0, 1, 2};
    const double m[3] = {std::fabs(n.x()), std::fabs(n.y()), std::fabs(n.z())};
    // Largest rounded component first (ties and NaN from overflow: any order is fine).
    if (m[order[1]] > m[order[0]]) std::swap(order[0], order[1]);
    if (m[order[2]] > m[order[1]]) std::swap(order[1], order[2]);
    if (m[order[1]] > m[order[0]]) std::swap(order[0], order[1]);
    for (int k : order) {
      const auto a = detail::project<double>(p, k), b = detail::project<double>(q, k),
                 c = detail::project<double>(r, k);
      if (orient2d(a.x, a.y, b.x, b.y, c.x, c.y) != 0) return k;
    }
    return -1;
  }
};

}  // namespace

bool triangles_intersect(const Vec3& p1, const Vec3& q1, const Vec3& r1,  //
                         const Vec3& p2, const Vec3& q2, const Vec3& r2) {
  DoubleKernel kernel;
  return detail::GuigueDevillers<DoubleKernel>(kernel).intersect(p1, q1, r1, p2, q2, r2);
}

}  // namespace kdopcd
