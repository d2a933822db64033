#pragma once
// The triangle-triangle test of tri_tri.hpp on the floating-point filters alone, as KDOPCD_HD code
// for the GPU: the same Guigue-Devillers algorithm (guigue_devillers.hpp), each orientation sign
// from filtered_predicates.hpp. When every sign the test asked for was certified by its filter,
// the test took exactly the path the exact test takes, so its answer is the exact answer; when any
// sign was left undecided, the verdict is Undecided and the caller decides the pair with the exact
// test (triangles_intersect) instead. Coordinate comparisons are exact in any arithmetic.
#include <array>
#include <cstdint>

#include "kdopcd/config.hpp"
#include "kdopcd/filtered_predicates.hpp"
#include "kdopcd/guigue_devillers.hpp"

namespace kdopcd {

// A point as three doubles (what the GPU keeps of a vertex).
struct Point3 {
  double c[3];
  KDOPCD_HD double operator[](int i) const { return c[i]; }
};

enum class TriangleVerdict : std::int32_t { Disjoint = 0, Intersect = 1, Undecided = 2 };

namespace detail {

// The kernel of guigue_devillers.hpp on filters: an undecided sign is recorded and answered 0
// (any value would do: the verdict is then Undecided whatever the algorithm goes on to do).
struct FilteredKernel {
  using Point = Point3;
  using Coord = double;
  bool undecided = false;

  KDOPCD_HD int decided(int sign) {
    if (sign != filtered::kUndecided) return sign;
    undecided = true;
    return 0;
  }
  KDOPCD_HD int orient3d(const Point3& a, const Point3& b, const Point3& c, const Point3& d) {
    return decided(filtered::orient3d(a.c, b.c, c.c, d.c));
  }
  KDOPCD_HD std::array<int, 3> orient3d3(const Point3& a, const Point3& b, const Point3& c, const Point3& d0,
                                         const Point3& d1, const Point3& d2) {
    const filtered::PlaneFilter plane(a.c, b.c, c.c);
    return {decided(plane.sign(d0.c)), decided(plane.sign(d1.c)), decided(plane.sign(d2.c))};
  }
  KDOPCD_HD int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
    return decided(filtered::orient2d(ax, ay, bx, by, cx, cy));
  }
  // The first axis whose projection of the triangle has a certified nonzero orientation, or -1
  // when every one is certified 0 (a degenerate triangle). Any such axis gives the same answer.
  KDOPCD_HD int projection_axis(const Point3& p, const Point3& q, const Point3& r) {
    for (int k = 0; k < 3; ++k) {
      const auto a = project<double>(p, k), b = project<double>(q, k), c = project<double>(r, k);
      if (orient2d(a.x, a.y, b.x, b.y, c.x, c.y) != 0) return k;
    }
    return -1;
  }
};

}  // namespace detail

// Closed triangles (p1, q1, r1) and (p2, q2, r2): Intersect or Disjoint exactly as
// triangles_intersect answers, or Undecided.
KDOPCD_HD inline TriangleVerdict triangles_intersect_filtered(const Point3& p1, const Point3& q1, const Point3& r1,
                                                              const Point3& p2, const Point3& q2, const Point3& r2) {
  detail::FilteredKernel kernel;
  const bool hit = detail::GuigueDevillers<detail::FilteredKernel>(kernel).intersect(p1, q1, r1, p2, q2, r2);
  if (kernel.undecided) return TriangleVerdict::Undecided;
  return hit ? TriangleVerdict::Intersect : TriangleVerdict::Disjoint;
}

}  // namespace kdopcd
