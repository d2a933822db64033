// The triangle unit's fixed-point test: quantized pose and vertices, exact integer orientation
// predicates, Guigue-Devillers on them, and the error bound delta. docs/triangle-unit.md has the
// derivations; the header lists the formats.
//
// Arithmetic (every step exact; the widths are proven for |coordinate| < 2^60, which every
// in-range input satisfies since |X| <= 7 2^(v+m) and v + m <= 56):
//   coordinates          int64      |X| < 2^60
//   differences          int64      |d| < 2^61
//   2x2 minors, orient2d __int128   |ab - cd| < 2 (2^61)^2 = 2^123
//   orient3d             int256_t   |u . (v x w)| < 3 2^61 2^123 < 2^186
// (boost::multiprecision::int256_t: 256-bit magnitude plus sign, no wrap below that.)
// orient3d first tries a double filter with a proven error bound (Shewchuk's), which gives the
// exact sign whenever it decides; only near-degenerate cases reach the integer determinant.
//
// Guigue-Devillers is the algorithm of guigue_devillers.hpp, shared with ref/src/tri_tri.cpp
// (that header explains why each case is exact once the signs are exact); this file supplies only
// the point type, the integer predicates, and the coplanar projection axis, chosen from the exact
// normal (largest |n_k|, ties to the lower k).
#include "kdopcd/tri_fixed.hpp"

#include "kdopcd/filtered_predicates.hpp"
#include "kdopcd/query_setup.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <boost/multiprecision/cpp_int.hpp>

#include "kdopcd/guigue_devillers.hpp"
#include "kdopcd/tri_tri.hpp"

namespace kdopcd {

namespace {

using i128 = __int128;
using boost::multiprecision::int256_t;

std::string params_text(TriangleFixedParams p) {
  return "v=" + std::to_string(p.v) + ", m=" + std::to_string(p.m);
}

void check_scale(double s) {
  if (!(s > 0) || !std::isfinite(s)) throw std::invalid_argument("triangle unit: scene scale s must be finite and > 0");
}

// ---- Exact integer predicates ----

inline int sign128(i128 x) { return (x > 0) - (x < 0); }

// Number of magnitude bits of x (0 for 0).
inline int bit_length(i128 x) {
  const unsigned __int128 m = x < 0 ? -static_cast<unsigned __int128>(x) : static_cast<unsigned __int128>(x);
  const std::uint64_t hi = std::uint64_t(m >> 64), lo = std::uint64_t(m);
  if (hi) return 128 - __builtin_clzll(hi);
  return lo ? 64 - __builtin_clzll(lo) : 0;
}

inline i128 minor2(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d) {
  return i128(a) * d - i128(b) * c;  // |a|,|b|,|c|,|d| < 2^61: |result| < 2^123
}

using P2 = detail::Point2<std::int64_t>;

inline int orient2(const P2& a, const P2& b, const P2& c) {
  return sign128(minor2(b.x - a.x, b.y - a.y, c.x - a.x, c.y - a.y));
}

inline int orient3(const FixedVertex& a, const FixedVertex& b, const FixedVertex& c, const FixedVertex& d) {
  const std::int64_t u0 = b[0] - a[0], u1 = b[1] - a[1], u2 = b[2] - a[2];
  const std::int64_t v0 = c[0] - a[0], v1 = c[1] - a[1], v2 = c[2] - a[2];
  const std::int64_t w0 = d[0] - a[0], w1 = d[1] - a[1], w2 = d[2] - a[2];
  {
    // A double filter in front of the integer determinant; its sign, when it decides, is the
    // exact sign, so the verdicts are those of the integer path. The differences are exact
    // integers (|.| < 2^61) rounded once to double, as Shewchuk's analysis assumes of a - d; a
    // nonzero one is >= 1 and every product stays below 2^183, so nothing under- or overflows.
    // It decides almost every call, where the 128- and 256-bit products were most of the fixed
    // backend's triangle test.
    const double ux = double(u0), uy = double(u1), uz = double(u2);
    const double vx = double(v0), vy = double(v1), vz = double(v2);
    const double wx = double(w0), wy = double(w1), wz = double(w2);
    // A zero permanent means every product is exactly 0 (a nonzero integer stays nonzero in
    // double): the determinant is 0.
    const int filtered = filtered::orient3d_of_differences(ux, uy, uz, vx, vy, vz, wx, wy, wz);
    if (filtered != filtered::kUndecided) return filtered;
  }
  const i128 c0 = minor2(v1, v2, w1, w2), c1 = minor2(v2, v0, w2, w0), c2 = minor2(v0, v1, w0, w1);
  // Exact in __int128 when every product |u_i c_i| < 2^125 (the sum is then < 3 2^125 < 2^127),
  // which holds for nearby triangles; otherwise in 256 bits. Both give the exact sign.
  const int bu = std::max({bit_length(u0), bit_length(u1), bit_length(u2)});
  const int bc = std::max({bit_length(c0), bit_length(c1), bit_length(c2)});
  if (bu + bc <= 125) return sign128(u0 * c0 + u1 * c1 + u2 * c2);
  const int256_t det = int256_t(u0) * int256_t(c0) + int256_t(u1) * int256_t(c1) + int256_t(u2) * int256_t(c2);
  return det.sign();
}

// The fixed-point kernel of the shared Guigue-Devillers algorithm (guigue_devillers.hpp).
struct FixedKernel {
  using Point = FixedVertex;
  using Coord = std::int64_t;

  static int orient3d(const FixedVertex& a, const FixedVertex& b, const FixedVertex& c, const FixedVertex& d) {
    return orient3(a, b, c, d);
  }

  static std::array<int, 3> orient3d3(const FixedVertex& a, const FixedVertex& b, const FixedVertex& c,
                                      const FixedVertex& d0, const FixedVertex& d1, const FixedVertex& d2) {
    return {orient3(a, b, c, d0), orient3(a, b, c, d1), orient3(a, b, c, d2)};
  }

  static int orient2d(std::int64_t ax, std::int64_t ay, std::int64_t bx, std::int64_t by, std::int64_t cx,
                      std::int64_t cy) {
    return orient2({ax, ay}, {bx, by}, {cx, cy});
  }

  // The axis of the largest exact |normal component| (ties to the lower axis), or -1 when the
  // triangle is degenerate (normal exactly 0).
  static int projection_axis(const FixedVertex& p, const FixedVertex& q, const FixedVertex& r) {
    int best = -1;
    i128 best_abs = 0;
    for (int k = 0; k < 3; ++k) {
      const P2 a = detail::project<std::int64_t>(p, k), b = detail::project<std::int64_t>(q, k),
               c = detail::project<std::int64_t>(r, k);
      i128 n = minor2(b.x - a.x, b.y - a.y, c.x - a.x, c.y - a.y);
      if (n < 0) n = -n;
      if (n > best_abs) {
        best_abs = n;
        best = k;
      }
    }
    return best;
  }
};

void check_coordinates(const FixedTriangle& t) {
  for (const FixedVertex& x : t.v)
    for (std::int64_t c : x)
      if (c >= kFixedCoordinateLimit || c <= -kFixedCoordinateLimit)
        throw std::out_of_range("fixed_triangles_intersect: coordinate " + std::to_string(c) +
                                " outside (-2^60, 2^60)");
}

// ---- Double-precision distances (for tests and reports; not part of the bit-accurate path) ----

double point_segment_dist2(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 d = b - a;
  const double len2 = d.squaredNorm();
  double t = len2 > 0 ? (p - a).dot(d) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return (a + t * d - p).squaredNorm();
}

// Ericson, Real-Time Collision Detection, 5.1.9 (closest points of two segments).
double segment_segment_dist2(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0, t = 0;
  if (a == 0 && e == 0) {
    s = t = 0;
  } else if (a == 0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e == 0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  double best = (p1 + s * d1 - (p2 + t * d2)).squaredNorm();
  // Endpoint distances guard against rounding in the near-parallel case.
  best = std::min({best, point_segment_dist2(p1, p2, q2), point_segment_dist2(q1, p2, q2),
                   point_segment_dist2(p2, p1, q1), point_segment_dist2(q2, p1, q1)});
  return best;
}

double point_triangle_dist2(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  double best = std::min({point_segment_dist2(p, a, b), point_segment_dist2(p, b, c), point_segment_dist2(p, c, a)});
  const Vec3 n = (b - a).cross(c - a);
  const double n2 = n.squaredNorm();
  if (n2 > 0 && n.dot((b - a).cross(p - a)) >= 0 && n.dot((c - b).cross(p - b)) >= 0 &&
      n.dot((a - c).cross(p - c)) >= 0) {
    const double h = n.dot(p - a);
    best = std::min(best, h * h / n2);
  }
  return best;
}

}  // namespace

void throw_bad_triangle_params(TriangleFixedParams params) {
  throw std::invalid_argument("triangle unit: need v >= 1, m >= 1, v + m <= " + std::to_string(kMaxTriangleFixedBits) +
                              " (got " + params_text(params) + ")");
}

TriangleUnitWidths triangle_unit_widths(TriangleFixedParams params) {
  check_triangle_params(params);
  const int v = params.v, m = params.m;
  return {v + 2, m + 2, v + m + 3, v + m + 4, v + m + 4, v + m + 5, 2 * (v + m) + 9, 3 * (v + m) + 13};
}

QuantizedPose quantize_pose(const Pose& pose, double s, TriangleFixedParams params) {
  check_triangle_params(params);
  check_scale(s);
  const Mat3 M = pose.matrix();
  const double m[9] = {M(0, 0), M(0, 1), M(0, 2), M(1, 0), M(1, 1), M(1, 2), M(2, 0), M(2, 1), M(2, 2)};
  QuantizedPose q;
  const SetupStatus status = make_triangle_pose(m, pose.translation.data(), s, params, q);  // query_setup.hpp
  if (status == SetupStatus::NonFiniteRotation) throw std::invalid_argument("quantize_pose: rotation is not finite");
  if (status != SetupStatus::Ok) throw_setup_status(status, "quantize_pose");
  return q;
}

std::vector<FixedVertex> quantize_vertices(const Mesh& mesh, double s, int v) {
  return quantize_vertices(mesh, Vec3::Zero(), s, v);
}

std::vector<FixedVertex> quantize_vertices(const Mesh& mesh, const Vec3& centre, double s, int v) {
  check_scale(s);
  const std::int64_t limit = std::int64_t(1) << v;
  std::vector<FixedVertex> out;
  out.reserve(mesh.vertices.size());
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    FixedVertex q;
    const Vec3 y = mesh.vertices[i] - centre;  // centred_vertices' rounding
    for (int k = 0; k < 3; ++k) {
      const double x = y[k] / s;
      if (!(std::fabs(x) <= 1.0))
        throw std::out_of_range(mesh.name + ": vertex " + std::to_string(i) +
                                " lies outside the scene scale (|x / s| > 1); s must be the largest |DOP coefficient|");
      q[k] = quantize_vertex(x, v);
      if (q[k] > limit || q[k] < -limit) throw std::out_of_range("quantize_vertices: |q| > 2^v");
    }
    out.push_back(q);
  }
  return out;
}

FixedVertex lift_first_vertex(const FixedVertex& q, int m) {
  // Multiplication, not <<, so that negative values are well defined; |q| <= 2^v keeps it exact.
  const std::int64_t f = std::int64_t(1) << m;
  return {q[0] * f, q[1] * f, q[2] * f};
}

FixedVertex place_fixed_vertex(const QuantizedPose& pose, const FixedVertex& q) {
  if (!pose.in_range)
    throw std::out_of_range("place_fixed_vertex: |T / s| > 4, outside the triangle unit's range (the objects are "
                            "disjoint: skip the query)");
  const std::int64_t vlim = std::int64_t(1) << pose.params.v;
  for (std::int64_t c : q)
    if (c > vlim || c < -vlim) throw std::out_of_range("place_fixed_vertex: |q| > 2^v");
  FixedVertex x;
  for (int i = 0; i < 3; ++i) {
    // |M'_ij q_j| <= 2^(v+m), sum of three plus |T'| <= 4 2^(v+m): |x| <= 7 2^(v+m) < 2^59.
    x[i] = pose.M[i][0] * q[0] + pose.M[i][1] * q[1] + pose.M[i][2] * q[2] + pose.T[i];
  }
  return x;
}

std::vector<FixedTriangle> first_fixed_triangles(const Mesh& first, double s, TriangleFixedParams params) {
  check_triangle_params(params);
  const std::vector<FixedVertex> q = quantize_vertices(first, s, params.v);
  std::vector<FixedVertex> lifted;
  lifted.reserve(q.size());
  for (const FixedVertex& x : q) lifted.push_back(lift_first_vertex(x, params.m));
  std::vector<FixedTriangle> out(first.triangle_count());
  for (std::size_t t = 0; t < out.size(); ++t)
    for (int i = 0; i < 3; ++i) out[t].v[i] = lifted[first.triangles[t][i]];
  return out;
}

std::vector<FixedTriangle> placed_fixed_triangles(const Mesh& second, const QuantizedPose& pose) {
  check_triangle_params(pose.params);
  if (!pose.in_range) place_fixed_vertex(pose, FixedVertex{});  // throws the documented error
  const std::vector<FixedVertex> q = quantize_vertices(second, pose.scale, pose.params.v);
  std::vector<FixedVertex> placed;
  placed.reserve(q.size());
  for (const FixedVertex& x : q) placed.push_back(place_fixed_vertex(pose, x));
  std::vector<FixedTriangle> out(second.triangle_count());
  for (std::size_t t = 0; t < out.size(); ++t)
    for (int i = 0; i < 3; ++i) out[t].v[i] = placed[second.triangles[t][i]];
  return out;
}

std::vector<FixedTriangle> placed_fixed_triangles(const Mesh& second, double s, TriangleFixedParams params,
                                                  const Pose& pose) {
  return placed_fixed_triangles(second, quantize_pose(pose, s, params));
}

int fixed_orient3d(const FixedVertex& a, const FixedVertex& b, const FixedVertex& c, const FixedVertex& d) {
  for (const FixedVertex* p : {&a, &b, &c, &d})
    for (std::int64_t x : *p)
      if (x >= kFixedCoordinateLimit || x <= -kFixedCoordinateLimit)
        throw std::out_of_range("fixed_orient3d: coordinate outside (-2^60, 2^60)");
  return orient3(a, b, c, d);
}

int fixed_orient2d(std::int64_t ax, std::int64_t ay, std::int64_t bx, std::int64_t by, std::int64_t cx,
                   std::int64_t cy) {
  for (std::int64_t x : {ax, ay, bx, by, cx, cy})
    if (x >= kFixedCoordinateLimit || x <= -kFixedCoordinateLimit)
      throw std::out_of_range("fixed_orient2d: coordinate outside (-2^60, 2^60)");
  return orient2({ax, ay}, {bx, by}, {cx, cy});
}

bool fixed_triangles_intersect(const FixedTriangle& a, const FixedTriangle& b) {
  check_coordinates(a);
  check_coordinates(b);
  FixedKernel kernel;
  return detail::GuigueDevillers<FixedKernel>(kernel).intersect(a.v[0], a.v[1], a.v[2], b.v[0], b.v[1], b.v[2]);
}

double triangle_delta(double s, TriangleFixedParams params) {
  check_triangle_params(params);
  check_scale(s);
  const double r3 = std::sqrt(3.0);
  const int v = params.v, m = params.m;
  const double per_s = r3 * (std::ldexp(1.0, -v) + std::ldexp(1.0, -(v + m + 1))) +
                       3.0 * r3 * std::ldexp(1.0, -(m + 1)) * (1.0 + std::ldexp(1.0, -(v + 1))) +
                       std::ldexp(1.0, -46);
  return s * per_s;
}

Vec3 fixed_to_scene(const FixedVertex& x, double s, TriangleFixedParams params) {
  const int e = params.v + params.m;
  return Vec3(std::ldexp(double(x[0]), -e), std::ldexp(double(x[1]), -e), std::ldexp(double(x[2]), -e)) * s;
}

double triangle_distance(const Vec3& p0, const Vec3& p1, const Vec3& p2,  //
                         const Vec3& q0, const Vec3& q1, const Vec3& q2) {
  if (triangles_intersect(p0, p1, p2, q0, q1, q2)) return 0.0;
  // Disjoint closed triangles: the closest pair is a vertex of one and a point of the other, or
  // a point on an edge of each.
  double best = std::numeric_limits<double>::infinity();
  const Vec3* P[3] = {&p0, &p1, &p2};
  const Vec3* Q[3] = {&q0, &q1, &q2};
  for (int i = 0; i < 3; ++i) {
    best = std::min(best, point_triangle_dist2(*P[i], q0, q1, q2));
    best = std::min(best, point_triangle_dist2(*Q[i], p0, p1, p2));
    for (int j = 0; j < 3; ++j)
      best = std::min(best, segment_segment_dist2(*P[i], *P[(i + 1) % 3], *Q[j], *Q[(j + 1) % 3]));
  }
  return std::sqrt(best);
}

}  // namespace kdopcd
