// Independent exact reference for the triangle-triangle test.
//
// Method (deliberately different from tri_tri.cpp, which uses only orientation signs):
// two closed triangles share a point iff some edge (closed segment) of one meets the other
// closed triangle. Proof: non-coplanar planes -> each triangle cuts their common line in an
// interval whose end points lie on that triangle's edges; two overlapping intervals have an end
// point of one inside the other. Coplanar -> the boundaries cross or one triangle contains the
// other, whose edges then lie inside. Degenerate triangles are the union of their edges, so the
// rule holds for them too (a degenerate target is tested edge by edge).
// Segment vs triangle is solved explicitly: the plane crossing point X = a + t (b - a) with
// t = da / (da - db), then the barycentric coordinates of X by cross products; segments in the
// triangle's plane and segment-segment cases are solved parametrically (s, t in [0, 1]).
//
// Arithmetic: exact rationals. Each double converts exactly to cpp_rational; all 18 are then
// multiplied by one common power of two (intersection is invariant under a positive scale)
// which makes them integers, so every quantity is an integer (cpp_int) except the crossing
// point, kept as an integer vector over a positive integer denominator. Fractions are compared
// by cross-multiplying with positive denominators. This is the same rational arithmetic as
// cpp_rational without its gcd normalization after every operation, which made the reference
// ~20x slower (the tests run it on several hundred thousand pairs).
#include "kdopcd/tri_tri_exact.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/multiprecision/cpp_int.hpp>

namespace kdopcd {

namespace {

using boost::multiprecision::cpp_int;
using boost::multiprecision::cpp_rational;
using Z = cpp_int;

struct ZV {
  Z x, y, z;
};

ZV operator-(const ZV& a, const ZV& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
ZV operator+(const ZV& a, const ZV& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
ZV operator*(const Z& s, const ZV& a) { return {s * a.x, s * a.y, s * a.z}; }
Z dot(const ZV& a, const ZV& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
ZV cross(const ZV& a, const ZV& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
bool is_zero(const ZV& a) { return a.x == 0 && a.y == 0 && a.z == 0; }

// The lowest bit position among all coordinates: a nonzero double is an integer multiple of
// 2^(ilogb(x) - 52), subnormals included.
int lowest_bit_exponent(const std::array<const Vec3*, 6>& pts) {
  int e = std::numeric_limits<int>::max();
  for (const Vec3* p : pts)
    for (int i = 0; i < 3; ++i) {
      const double x = (*p)[i];
      if (!std::isfinite(x))
        throw std::domain_error("triangles_intersect_exact: non-finite coordinate");
      if (x != 0) e = std::min(e, std::ilogb(x) - 52);
    }
  return e == std::numeric_limits<int>::max() ? 0 : e;
}

Z to_integer(double x, const cpp_rational& scale) {
  const cpp_rational q = cpp_rational(x) * scale;  // exact conversion, exact power-of-two scale
  if (denominator(q) != 1) throw std::logic_error("triangles_intersect_exact: scaling not exact");
  return numerator(q);
}

ZV to_zv(const Vec3& v, const cpp_rational& scale) {
  return {to_integer(v.x(), scale), to_integer(v.y(), scale), to_integer(v.z(), scale)};
}

struct ZTri {
  std::array<ZV, 3> v;
  ZV n;  // (v1 - v0) x (v2 - v0), exactly 0 iff degenerate
  Z nn;  // n . n
  bool degenerate;
};

ZTri make_tri(const Vec3& a, const Vec3& b, const Vec3& c, const cpp_rational& scale) {
  ZTri t{{to_zv(a, scale), to_zv(b, scale), to_zv(c, scale)}, {}, {}, false};
  t.n = cross(t.v[1] - t.v[0], t.v[2] - t.v[0]);
  t.nn = dot(t.n, t.n);
  t.degenerate = t.nn == 0;
  return t;
}

// x on the closed segment [c, c + v], v != 0: x - c = s v with s = (x-c).v / v.v in [0, 1].
bool point_on_segment(const ZV& x, const ZV& c, const ZV& v) {
  const ZV r = x - c;
  if (!is_zero(cross(r, v))) return false;
  const Z s = dot(r, v);
  return s >= 0 && s <= dot(v, v);
}

// Closed segments [a,b] and [c,d] (either may be a point): solve a + s u = c + t v.
bool segments_meet(const ZV& a, const ZV& b, const ZV& c, const ZV& d) {
  const ZV u = b - a, v = d - c, w = c - a;
  const bool u0 = is_zero(u), v0 = is_zero(v);
  if (u0 && v0) return is_zero(w);
  if (u0) return point_on_segment(a, c, v);
  if (v0) return point_on_segment(c, a, u);
  const ZV m = cross(u, v);
  if (!is_zero(m)) {
    if (dot(w, m) != 0) return false;  // skew lines
    // s (u x v) = w x v and t (u x v) = w x u, so s = S / m.m and t = T / m.m with m.m > 0.
    const Z mm = dot(m, m);
    const Z S = dot(cross(w, v), m), T = dot(cross(w, u), m);
    return S >= 0 && S <= mm && T >= 0 && T <= mm;
  }
  if (!is_zero(cross(w, u))) return false;  // parallel, different lines
  // Collinear: parameters of c and d along a + s u, times u.u; overlap with [0, u.u].
  const Z uu = dot(u, u), sc = dot(w, u), sd = dot(d - a, u);
  const Z lo = sc < sd ? sc : sd, hi = sc < sd ? sd : sc;
  return lo <= uu && hi >= 0;
}

// X = xn / D (D > 0) lies in the plane of non-degenerate t: membership of the closed triangle
// by barycentric coordinates X - v0 = U e1 + V e2 with U = ((X-v0) x e2).n / n.n and
// V = (e1 x (X-v0)).n / n.n; everything multiplied by D > 0 to stay in integers.
bool point_in_triangle(const ZV& xn, const Z& D, const ZTri& t) {
  const ZV e1 = t.v[1] - t.v[0], e2 = t.v[2] - t.v[0], r = xn - D * t.v[0];
  const Z U = dot(cross(r, e2), t.n), V = dot(cross(e1, r), t.n);
  return U >= 0 && V >= 0 && U + V <= D * t.nn;
}

// Closed segment [a,b] vs closed triangle t; da, db = n.(a - v0), n.(b - v0) (unused when t is
// degenerate).
bool segment_meets_triangle(const ZV& a, const ZV& b, const Z& da, const Z& db, const ZTri& t) {
  if (t.degenerate) {
    for (int i = 0; i < 3; ++i)
      if (segments_meet(a, b, t.v[i], t.v[(i + 1) % 3])) return true;
    return false;
  }
  if ((da > 0 && db > 0) || (da < 0 && db < 0)) return false;
  if (da == 0 && db == 0) {  // segment in the plane
    const Z one = 1;
    if (point_in_triangle(a, one, t) || point_in_triangle(b, one, t)) return true;
    for (int i = 0; i < 3; ++i)
      if (segments_meet(a, b, t.v[i], t.v[(i + 1) % 3])) return true;
    return false;
  }
  // Crossing point X = a + da/(da - db) (b - a), i.e. (da - db) X = (da - db) a + da (b - a).
  Z D = da - db;  // nonzero: da and db are not both 0 and not of the same strict sign
  ZV xn = D * a + da * (b - a);
  if (D < 0) {
    D = -D;
    xn = Z(-1) * xn;
  }
  return point_in_triangle(xn, D, t);
}

// Does some edge of `from` meet the closed triangle `to`?
bool some_edge_meets(const ZTri& from, const ZTri& to) {
  std::array<Z, 3> dist;
  if (!to.degenerate)
    for (int i = 0; i < 3; ++i) dist[i] = dot(to.n, from.v[i] - to.v[0]);
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    if (segment_meets_triangle(from.v[i], from.v[j], dist[i], dist[j], to)) return true;
  }
  return false;
}

}  // namespace

bool triangles_intersect_exact(const Vec3& p0, const Vec3& p1, const Vec3& p2,  //
                               const Vec3& q0, const Vec3& q1, const Vec3& q2) {
  const int e = lowest_bit_exponent({&p0, &p1, &p2, &q0, &q1, &q2});
  const cpp_rational scale = e <= 0 ? cpp_rational(cpp_int(1) << -e)
                                    : cpp_rational(cpp_int(1), cpp_int(1) << e);
  const ZTri a = make_tri(p0, p1, p2, scale);
  const ZTri b = make_tri(q0, q1, q2, scale);
  return some_edge_meets(a, b) || some_edge_meets(b, a);
}

}  // namespace kdopcd
