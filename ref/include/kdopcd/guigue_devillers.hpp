// Guigue-Devillers triangle-triangle intersection, written once for every exact kernel.
//
// Reference: P. Guigue, O. Devillers, "Fast and Robust Triangle-Triangle Overlap Test Using
// Orientation Predicates", Journal of Graphics Tools 8(1):25-32, 2003
// (doi:10.1080/10867651.2003.10487580). The algorithm never constructs a point: every decision
// is the sign of a 3x3 (orient3d) or 2x2 (orient2d) determinant of input coordinates. The paper
// proves it correct for closed, non-degenerate triangles when those signs are exact. Every kernel
// used here supplies EXACT signs (tri_tri.cpp: double filter + exact fallback, predicates.cpp;
// tri_fixed.cpp: integer arithmetic of sufficient width), so:
//
// 1. Separating planes (first two tests): all three vertices of one triangle strictly on one
//    side of the other's plane -> disjoint. Exact signs, so no false "disjoint" and no missed
//    one. For a degenerate triangle its "plane" gives sign 0 everywhere, so that test simply
//    never fires; the other test is still valid because a degenerate triangle is the convex hull
//    of its vertices.
// 2. Non-coplanar case: after the paper's canonical permutation (vertex p of each triangle alone
//    on its side of the other plane), the two intervals on the line of the planes' intersection
//    overlap iff orient3d(p1,q1,p2,q2) <= 0 and orient3d(p1,r1,r2,p2) <= 0 (paper, Sec. 3).
//    Only signs, all exact. Zero signs (touching at a vertex/edge) fall on the closed side.
// 3. Coplanar case (all of one triangle's signs are 0): reached for truly coplanar triangles and
//    for degenerate ones (a degenerate triangle yields 0 signs). Degeneracy is decided EXACTLY by
//    the kernel's projection_axis: a triangle is degenerate iff its normal is exactly 0, and
//    normal component k has the sign of orient2d of the triangle projected along axis k. Both
//    non-degenerate -> truly coplanar: project along an axis whose normal component is EXACTLY
//    nonzero. That projection is an affine bijection of the common plane, so the 2D answer is
//    the 3D answer; the paper's 2D test (Sec. 4) then uses exact orient2d signs.
// 4. Degenerate triangles (collinear or repeated vertices) are the segment (or point) between
//    their extreme vertices, found by exact coordinate comparisons. Segment vs triangle and
//    segment vs segment are decided by exact orient3d/orient2d signs (see each function).
//
// Nothing loops and nothing divides: the cost is a bounded number of predicate calls.
//
// Kernel requirements (K), called on the kernel instance the test is made with (a kernel may keep
// state, as the GPU's filtered kernel does to say that a sign was left undecided):
//   K::Point                 3D point with exact coordinates, indexable p[0..2]
//   K::Coord                 its coordinate type (exact comparisons with <, ==)
//   k.orient3d(a,b,c,d)      exact sign of orient3d, in {-1,0,1}
//   k.orient3d3(a,b,c,d0,d1,d2)      {orient3d(a,b,c,d0), orient3d(a,b,c,d1), orient3d(a,b,c,d2)}
//   k.orient2d(ax,ay,bx,by,cx,cy)    exact sign of orient2d, in {-1,0,1}
//   k.projection_axis(p,q,r)         an axis k along which project(., k) of the triangle is
//                            non-degenerate (exact orient2d != 0), or -1 when the triangle is
//                            degenerate (normal exactly 0). Which such axis is the kernel's
//                            choice; any one gives the same answer.
// KDOPCD_HD: the GPU's triangle test runs it with a filtered kernel (tri_tri_filtered.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <utility>

#include "kdopcd/config.hpp"

namespace kdopcd::detail {

template <class Coord>
struct Point2 {
  Coord x, y;
};

// Drops coordinate k. The cyclic order (y,z), (z,x), (x,y) makes orient2d of a projected
// triangle carry the sign of the k-th component of its normal (q-p) x (r-p).
template <class Coord, class Point>
KDOPCD_HD inline Point2<Coord> project(const Point& v, int k) {
  switch (k) {
    case 0: return {v[1], v[2]};
    case 1: return {v[2], v[0]};
    default: return {v[0], v[1]};
  }
}

template <class K>
class GuigueDevillers {
 public:
  using Point = typename K::Point;
  using P2 = Point2<typename K::Coord>;

  KDOPCD_HD explicit GuigueDevillers(K& kernel) : k_(kernel) {}

  // Closed triangles (p1,q1,r1) and (p2,q2,r2), possibly degenerate.
  KDOPCD_HD bool intersect(const Point& p1, const Point& q1, const Point& r1,  //
                        const Point& p2, const Point& q2, const Point& r2) {
    // Signs of T1's vertices w.r.t. plane 2 (orient3d(p2,q2,r2,x), the paper's convention).
    const auto [dp1, dq1, dr1] = k_.orient3d3(p2, q2, r2, p1, q1, r1);
    if (dp1 * dq1 > 0 && dp1 * dr1 > 0) return false;

    const auto [dp2, dq2, dr2] = k_.orient3d3(p1, q1, r1, p2, q2, r2);
    if (dp2 * dq2 > 0 && dp2 * dr2 > 0) return false;

    // Permutes T1 into canonical form (p1 alone on its side), swapping q2/r2 to keep the
    // orientation convention when T1's lone vertex is on the negative side.
    int res;
    if (dp1 > 0) {
      if (dq1 > 0) res = tri_tri_3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
      else if (dr1 > 0) res = tri_tri_3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
      else res = tri_tri_3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
    } else if (dp1 < 0) {
      if (dq1 < 0) res = tri_tri_3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
      else if (dr1 < 0) res = tri_tri_3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
      else res = tri_tri_3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
    } else if (dq1 < 0) {
      if (dr1 >= 0) res = tri_tri_3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
      else res = tri_tri_3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
    } else if (dq1 > 0) {
      if (dr1 > 0) res = tri_tri_3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
      else res = tri_tri_3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
    } else if (dr1 > 0) {
      res = tri_tri_3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
    } else if (dr1 < 0) {
      res = tri_tri_3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
    } else {
      res = kCoplanar;
    }
    if (res == kCoplanar) return coplanar_or_degenerate(p1, q1, r1, p2, q2, r2);
    return res != 0;
  }

 private:
  KDOPCD_HD P2 proj(const Point& v, int k) { return project<typename K::Coord>(v, k); }

  KDOPCD_HD int orient2(const P2& a, const P2& b, const P2& c) {
    return k_.orient2d(a.x, a.y, b.x, b.y, c.x, c.y);
  }

  // ---- Guigue-Devillers, 2D (paper Sec. 4). Triangles counter-clockwise, non-degenerate. ----
  // The paper's ORIENT_2D(a,b,c) = (a-c) x (b-c) has the sign of orient2(a,b,c).

  // p1 is outside the edge lines p2q2 and r2p2 (the region of vertex p2): decides with the two
  // edges of T1 at p1.
  KDOPCD_HD bool intersection_test_vertex(const P2& p1, const P2& q1, const P2& r1,  //
                                       const P2& p2, const P2& q2, const P2& r2) {
    if (orient2(r2, p2, q1) >= 0) {
      if (orient2(r2, q2, q1) <= 0) {
        if (orient2(p1, p2, q1) > 0) return orient2(p1, q2, q1) <= 0;
        if (orient2(p1, p2, r1) >= 0) return orient2(q1, r1, p2) >= 0;
        return false;
      }
      if (orient2(p1, q2, q1) <= 0 && orient2(r2, q2, r1) <= 0) return orient2(q1, r1, q2) >= 0;
      return false;
    }
    if (orient2(r2, p2, r1) >= 0) {
      if (orient2(q1, r1, r2) >= 0) return orient2(p1, p2, r1) >= 0;
      if (orient2(q1, r1, q2) >= 0) return orient2(r2, r1, q2) >= 0;
    }
    return false;
  }

  // p1 is outside the edge line r2p2 only (the region of that edge).
  KDOPCD_HD bool intersection_test_edge(const P2& p1, const P2& q1, const P2& r1,  //
                                     const P2& p2, const P2& /*q2*/, const P2& r2) {
    if (orient2(r2, p2, q1) >= 0) {
      if (orient2(p1, p2, q1) >= 0) return orient2(p1, q1, r2) >= 0;
      if (orient2(q1, r1, p2) >= 0) return orient2(r1, p1, p2) >= 0;
      return false;
    }
    if (orient2(r2, p2, r1) >= 0 && orient2(p1, p2, r1) >= 0) {
      return orient2(p1, r1, r2) >= 0 || orient2(q1, r1, r2) >= 0;
    }
    return false;
  }

  // Classifies p1 against the three edge lines of T2 (7 regions), then one of the tests above.
  KDOPCD_HD bool ccw_tri_tri_2d(const P2& p1, const P2& q1, const P2& r1,  //
                             const P2& p2, const P2& q2, const P2& r2) {
    if (orient2(p2, q2, p1) >= 0) {
      if (orient2(q2, r2, p1) >= 0) {
        if (orient2(r2, p2, p1) >= 0) return true;  // p1 in closed T2
        return intersection_test_edge(p1, q1, r1, p2, q2, r2);
      }
      if (orient2(r2, p2, p1) >= 0) return intersection_test_edge(p1, q1, r1, r2, p2, q2);
      return intersection_test_vertex(p1, q1, r1, p2, q2, r2);
    }
    if (orient2(q2, r2, p1) >= 0) {
      if (orient2(r2, p2, p1) >= 0) return intersection_test_edge(p1, q1, r1, q2, r2, p2);
      return intersection_test_vertex(p1, q1, r1, q2, r2, p2);
    }
    return intersection_test_vertex(p1, q1, r1, r2, p2, q2);
  }

  KDOPCD_HD bool tri_tri_2d(const P2& p1, const P2& q1, const P2& r1,  //
                         const P2& p2, const P2& q2, const P2& r2) {
    // Reorder to counter-clockwise (exact signs; both triangles are known non-degenerate).
    const bool cw1 = orient2(p1, q1, r1) < 0;
    const bool cw2 = orient2(p2, q2, r2) < 0;
    return ccw_tri_tri_2d(p1, cw1 ? r1 : q1, cw1 ? q1 : r1, p2, cw2 ? r2 : q2, cw2 ? q2 : r2);
  }

  // ---- Exact segment / point tests for degenerate triangles ----

  // Closed 2D segments [a,b], [c,d]; either may be a point.
  KDOPCD_HD bool segments_intersect_2d(const P2& a, const P2& b, const P2& c, const P2& d) {
    const int d1 = orient2(a, b, c), d2 = orient2(a, b, d);
    const int d3 = orient2(c, d, a), d4 = orient2(c, d, b);
    if (d1 * d2 > 0 || d3 * d4 > 0) return false;  // both ends strictly on one side
    if (d1 == 0 && d2 == 0 && d3 == 0 && d4 == 0) {
      // All four points collinear (or segments are points): on a line, closed segments meet iff
      // their bounding boxes overlap. Plain coordinate comparisons are exact.
      return std::max(std::min(a.x, b.x), std::min(c.x, d.x)) <=
                 std::min(std::max(a.x, b.x), std::max(c.x, d.x)) &&
             std::max(std::min(a.y, b.y), std::min(c.y, d.y)) <=
                 std::min(std::max(a.y, b.y), std::max(c.y, d.y));
    }
    // Not all collinear, and each segment's line weakly separates the other's endpoints: they
    // meet. (If d1 = d2 = 0 with a != b, c and d lie on line ab, which forces d3 = d4 = 0; if
    // a = b then d3 = d4 and d3*d4 > 0 already returned. So here both lines genuinely separate.)
    return true;
  }

  KDOPCD_HD bool point_in_triangle_2d(const P2& x, const P2& p, const P2& q, const P2& r) {
    // Non-degenerate triangle: x is in the closed triangle iff no two edge signs are opposite.
    const int o1 = orient2(p, q, x), o2 = orient2(q, r, x), o3 = orient2(r, p, x);
    return !((o1 < 0 || o2 < 0 || o3 < 0) && (o1 > 0 || o2 > 0 || o3 > 0));
  }

  // Closed segment [a,b] (possibly a point) vs non-degenerate triangle (p,q,r); k is an axis
  // along which the triangle projects non-degenerately (exactly).
  KDOPCD_HD bool segment_triangle(const Point& a, const Point& b, const Point& p, const Point& q,
                               const Point& r, int k) {
    const int oa = k_.orient3d(p, q, r, a), ob = k_.orient3d(p, q, r, b);
    if (oa * ob > 0) return false;  // strictly on one side of the plane
    const P2 P = proj(p, k), Q = proj(q, k), R = proj(r, k);
    if (oa == 0 && ob == 0) {
      // In the plane: the projection along k is a bijection of the plane, so test in 2D.
      const P2 A = proj(a, k), B = proj(b, k);
      return point_in_triangle_2d(A, P, Q, R) || segments_intersect_2d(A, B, P, Q) ||
             segments_intersect_2d(A, B, Q, R) || segments_intersect_2d(A, B, R, P);
    }
    // Exactly one endpoint in the plane: it is the only common point of segment and plane.
    if (oa == 0) return point_in_triangle_2d(proj(a, k), P, Q, R);
    if (ob == 0) return point_in_triangle_2d(proj(b, k), P, Q, R);
    // Strict crossing at X. orient3d(a,b,p,q) = (b-a).((p-X) x (q-X)) has the sign of the area
    // of (X,p,q) times one common nonzero factor (b-a).n, so X is in the closed triangle iff the
    // three signs below are never strictly opposite (they cannot all be 0: the triangle has
    // area).
    const int s1 = k_.orient3d(a, b, p, q), s2 = k_.orient3d(a, b, q, r),
              s3 = k_.orient3d(a, b, r, p);
    return !((s1 < 0 || s2 < 0 || s3 < 0) && (s1 > 0 || s2 > 0 || s3 > 0));
  }

  // Closed 3D segments (possibly points).
  KDOPCD_HD bool segments_intersect_3d(const Point& a, const Point& b, const Point& c,
                                    const Point& d) {
    if (k_.orient3d(a, b, c, d) != 0) return false;  // not coplanar: disjoint
    // Coplanar. Meeting in 3D implies meeting in every axis projection. Conversely one of the
    // three projections is injective on the affine hull of {a,b,c,d} (a plane with some nonzero
    // normal component, a line not parallel to some axis, or a point), and there the 2D answer
    // is the 3D answer. So: meet in 3D iff they meet in all three projections.
    for (int k = 0; k < 3; ++k) {
      if (!segments_intersect_2d(proj(a, k), proj(b, k), proj(c, k), proj(d, k))) return false;
    }
    return true;
  }

  // A degenerate triangle is the segment between its extreme vertices (a point if all equal).
  // Along an axis where the collinear vertices are not all equal, that coordinate is strictly
  // monotone on their line, so its min and max vertices are the extremes (exact comparisons).
  KDOPCD_HD std::pair<Point, Point> extent(const Point& p, const Point& q, const Point& r) {
    for (int i = 0; i < 3; ++i) {
      if (p[i] == q[i] && q[i] == r[i]) continue;
      const Point* lo = &p;
      const Point* hi = &p;
      for (const Point* v : {&q, &r}) {
        if ((*v)[i] < (*lo)[i]) lo = v;
        if ((*v)[i] > (*hi)[i]) hi = v;
      }
      return {*lo, *hi};
    }
    return {p, p};
  }

  // Reached when GD found all signs of one triangle zero: coplanar, or a triangle is degenerate.
  KDOPCD_HD bool coplanar_or_degenerate(const Point& p1, const Point& q1, const Point& r1,  //
                                     const Point& p2, const Point& q2, const Point& r2) {
    const int k1 = k_.projection_axis(p1, q1, r1);
    const int k2 = k_.projection_axis(p2, q2, r2);
    if (k1 >= 0 && k2 >= 0) {
      // Both non-degenerate, one lies in the other's plane: truly coplanar (paper Sec. 4).
      return tri_tri_2d(proj(p1, k1), proj(q1, k1), proj(r1, k1),  //
                        proj(p2, k1), proj(q2, k1), proj(r2, k1));
    }
    if (k1 >= 0) {
      const auto [a, b] = extent(p2, q2, r2);
      return segment_triangle(a, b, p1, q1, r1, k1);
    }
    if (k2 >= 0) {
      const auto [a, b] = extent(p1, q1, r1);
      return segment_triangle(a, b, p2, q2, r2, k2);
    }
    const auto [a, b] = extent(p1, q1, r1);
    const auto [c, d] = extent(p2, q2, r2);
    return segments_intersect_3d(a, b, c, d);
  }

  // ---- Guigue-Devillers, 3D (paper Sec. 3) ----
  static constexpr int kCoplanar = 2;

  // Canonical form: p1 alone on its side of plane 2, p2 alone on its side of plane 1, both
  // triangles oriented so that the interval test is two orientation signs (paper eq. for
  // [i,j] overlap [k,l]).
  KDOPCD_HD int check_min_max(const Point& p1, const Point& q1, const Point& r1,  //
                           const Point& p2, const Point& q2, const Point& r2) {
    if (k_.orient3d(p1, q1, p2, q2) > 0) return 0;
    if (k_.orient3d(p1, r1, r2, p2) > 0) return 0;
    return 1;
  }

  // Permutes T2 into canonical form given its signs w.r.t. plane 1 (the paper's TRI_TRI_3D).
  KDOPCD_HD int tri_tri_3d(const Point& p1, const Point& q1, const Point& r1,  //
                        const Point& p2, const Point& q2, const Point& r2, int dp2, int dq2,
                        int dr2) {
    if (dp2 > 0) {
      if (dq2 > 0) return check_min_max(p1, r1, q1, r2, p2, q2);
      if (dr2 > 0) return check_min_max(p1, r1, q1, q2, r2, p2);
      return check_min_max(p1, q1, r1, p2, q2, r2);
    }
    if (dp2 < 0) {
      if (dq2 < 0) return check_min_max(p1, q1, r1, r2, p2, q2);
      if (dr2 < 0) return check_min_max(p1, q1, r1, q2, r2, p2);
      return check_min_max(p1, r1, q1, p2, q2, r2);
    }
    if (dq2 < 0) {
      if (dr2 >= 0) return check_min_max(p1, r1, q1, q2, r2, p2);
      return check_min_max(p1, q1, r1, p2, q2, r2);
    }
    if (dq2 > 0) {
      if (dr2 > 0) return check_min_max(p1, r1, q1, p2, q2, r2);
      return check_min_max(p1, q1, r1, q2, r2, p2);
    }
    if (dr2 > 0) return check_min_max(p1, q1, r1, r2, p2, q2);
    if (dr2 < 0) return check_min_max(p1, r1, q1, r2, p2, q2);
    return kCoplanar;
  }

  K& k_;
};

}  // namespace kdopcd::detail
