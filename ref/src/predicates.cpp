// Exact orientation predicates: Shewchuk's stage-A filter, then exact integers.
//
// Filter (J. R. Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
// Geometric Predicates", Discrete Comput. Geom. 18, 1997, and predicates.c):
//   orient2d: |det - fl(det)| <= (3 + 16 eps) eps * (|detleft| + |detright|)
//   orient3d: |det - fl(det)| <= (7 + 56 eps) eps * permanent
// with eps = 2^-53 and every quantity on the right computed in floating point, including the
// rounding of the initial coordinate differences. If |fl(det)| exceeds the bound, the sign of
// fl(det) is the exact sign.
//
// The proof assumes no underflow and no overflow. We guarantee that: the filter is only used
// when every coordinate difference is 0 or has a magnitude in [2^-400, 2^400] (orient2d) or
// [2^-300, 2^300] (orient3d). Then every nonzero product of two (three) differences lies in
// [2^-800, 2^800] ([2^-900, 2^900]), and every sum or difference of such products is exactly 0
// or at least one ulp of its smallest nonzero operand: all intermediates are normal numbers.
// Outside that range (huge, tiny, subnormal or non-finite values) we go straight to exact
// arithmetic, so the filter is never trusted where its proof does not hold.
//
// Exact path: every double is m * 2^e with an integer |m| < 2^53. Scaling all coordinates of
// one call by 2^-emin (a positive factor, which keeps the sign) makes them integers
// m * 2^(e - emin); the determinant of those integers is computed in cpp_int without rounding.
// Exponent spreads of up to ~2100 bits are fine (cpp_int is unbounded).
#include "kdopcd/predicates.hpp"

#include "orient3d_filter.hpp"

#include <array>
#include <atomic>
#include <climits>
#include <cmath>
#include <stdexcept>

#include <boost/multiprecision/cpp_int.hpp>

namespace kdopcd {

namespace {

using boost::multiprecision::cpp_int;

std::atomic<std::uint64_t> g_orient2d_exact{0};
std::atomic<std::uint64_t> g_orient3d_exact{0};

constexpr double kEps = 0x1p-53;  // half an ulp of 1.0: Shewchuk's epsilon for doubles
constexpr double kCcwErrBoundA = (3.0 + 16.0 * kEps) * kEps;

// Ranges of coordinate differences in which the filter's proof holds (see the file comment).
constexpr double kLo2 = 0x1p-400, kHi2 = 0x1p400;
constexpr double kLo3 = 0x1p-300, kHi3 = 0x1p300;

inline bool in_filter_range(double x, double lo, double hi) {
  const double ax = std::fabs(x);
  return ax == 0.0 || (ax >= lo && ax <= hi);  // false for NaN and infinities
}

// Converts n finite doubles to integers sharing one power-of-two scale.
template <std::size_t N>
std::array<cpp_int, N> to_common_scale(const std::array<double, N>& x) {
  std::array<std::int64_t, N> mant{};
  std::array<int, N> expo{};
  int emin = INT_MAX;
  for (std::size_t i = 0; i < N; ++i) {
    if (!std::isfinite(x[i])) throw std::domain_error("kdopcd predicate: non-finite coordinate");
    if (x[i] == 0.0) continue;
    int e = 0;
    const double f = std::frexp(x[i], &e);  // x = f 2^e, 0.5 <= |f| < 1, exact (also subnormals)
    mant[i] = static_cast<std::int64_t>(std::ldexp(f, 53));  // exact: f has <= 53 bits
    expo[i] = e - 53;
    if (expo[i] < emin) emin = expo[i];
  }
  std::array<cpp_int, N> out;
  for (std::size_t i = 0; i < N; ++i) {
    out[i] = mant[i];
    if (mant[i] != 0) out[i] <<= static_cast<unsigned>(expo[i] - emin);
  }
  return out;
}

}  // namespace

int orient2d_sign_exact(double ax, double ay, double bx, double by, double cx, double cy) {
  const auto v = to_common_scale<6>({ax, ay, bx, by, cx, cy});
  const cpp_int det = (v[2] - v[0]) * (v[5] - v[1]) - (v[3] - v[1]) * (v[4] - v[0]);
  return det.sign();
}

int orient3d_sign_exact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const auto v = to_common_scale<12>(
      {a.x(), a.y(), a.z(), b.x(), b.y(), b.z(), c.x(), c.y(), c.z(), d.x(), d.y(), d.z()});
  const cpp_int ux = v[3] - v[0], uy = v[4] - v[1], uz = v[5] - v[2];
  const cpp_int vx = v[6] - v[0], vy = v[7] - v[1], vz = v[8] - v[2];
  const cpp_int wx = v[9] - v[0], wy = v[10] - v[1], wz = v[11] - v[2];
  const cpp_int det = ux * (vy * wz - vz * wy) + uy * (vz * wx - vx * wz) + uz * (vx * wy - vy * wx);
  return det.sign();
}

int orient2d_sign(double ax, double ay, double bx, double by, double cx, double cy) {
  const double ux = bx - ax, uy = by - ay, vx = cx - ax, vy = cy - ay;
  if (in_filter_range(ux, kLo2, kHi2) && in_filter_range(uy, kLo2, kHi2) &&
      in_filter_range(vx, kLo2, kHi2) && in_filter_range(vy, kLo2, kHi2)) {
    const double detleft = ux * vy;
    const double detright = uy * vx;
    const double det = detleft - detright;
    // Shewchuk's shortcut: when the two products differ in sign (or one is 0) the subtraction
    // cannot cancel, and fl(det) has the exact sign (rounding never flips a sign or makes 0).
    if (detleft > 0.0) {
      if (detright <= 0.0) return det > 0.0 ? 1 : (det < 0.0 ? -1 : 0);
    } else if (detleft < 0.0) {
      if (detright >= 0.0) return det > 0.0 ? 1 : (det < 0.0 ? -1 : 0);
    } else {
      // detleft == 0 exactly means ux*vy rounded to 0, impossible in range unless a factor is 0.
      return detright > 0.0 ? -1 : (detright < 0.0 ? 1 : 0);
    }
    const double errbound = kCcwErrBoundA * (std::fabs(detleft) + std::fabs(detright));
    if (det > errbound) return 1;
    if (-det > errbound) return -1;
  }
  g_orient2d_exact.fetch_add(1, std::memory_order_relaxed);
  return orient2d_sign_exact(ax, ay, bx, by, cx, cy);
}

int orient3d_sign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const double ux = b.x() - a.x(), uy = b.y() - a.y(), uz = b.z() - a.z();
  const double vx = c.x() - a.x(), vy = c.y() - a.y(), vz = c.z() - a.z();
  const double wx = d.x() - a.x(), wy = d.y() - a.y(), wz = d.z() - a.z();
  const bool ok = in_filter_range(ux, kLo3, kHi3) & in_filter_range(uy, kLo3, kHi3) &
                  in_filter_range(uz, kLo3, kHi3) & in_filter_range(vx, kLo3, kHi3) &
                  in_filter_range(vy, kLo3, kHi3) & in_filter_range(vz, kLo3, kHi3) &
                  in_filter_range(wx, kLo3, kHi3) & in_filter_range(wy, kLo3, kHi3) &
                  in_filter_range(wz, kLo3, kHi3);
  if (ok) {
    // A zero permanent means every product is exactly 0 (no underflow in range): det is 0.
    const int filtered = detail::orient3d_filter(ux, uy, uz, vx, vy, vz, wx, wy, wz);
    if (filtered != detail::kOrient3dUndecided) return filtered;
  }
  g_orient3d_exact.fetch_add(1, std::memory_order_relaxed);
  return orient3d_sign_exact(a, b, c, d);
}

std::array<int, 3> orient3d_signs(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d0, const Vec3& d1,
                                  const Vec3& d2) {
  // det[u, v, w] = u . (v x w) = w . (u x v): with n = u x v made once, each point costs a dot
  // product. Each term w_i n_i is a difference times a difference of two products of
  // differences, summed (w_x n_x + w_y n_y) + w_z n_z: Shewchuk's orient3d with (ad, bd, cd) ->
  // (w, u, v), so his bound holds with the permanent sum (|first product| + |second product|)
  // |w_i|, computed in the same order (orient3d_filter.hpp). The range check of each difference
  // (the file comment) is made once for u and v.
  const double ux = b.x() - a.x(), uy = b.y() - a.y(), uz = b.z() - a.z();
  const double vx = c.x() - a.x(), vy = c.y() - a.y(), vz = c.z() - a.z();
  const bool plane_ok = in_filter_range(ux, kLo3, kHi3) & in_filter_range(uy, kLo3, kHi3) &
                        in_filter_range(uz, kLo3, kHi3) & in_filter_range(vx, kLo3, kHi3) &
                        in_filter_range(vy, kLo3, kHi3) & in_filter_range(vz, kLo3, kHi3);
  const double uyvz = uy * vz, uzvy = uz * vy;
  const double uzvx = uz * vx, uxvz = ux * vz;
  const double uxvy = ux * vy, uyvx = uy * vx;
  const double nx = uyvz - uzvy, ny = uzvx - uxvz, nz = uxvy - uyvx;
  const double mx = std::fabs(uyvz) + std::fabs(uzvy), my = std::fabs(uzvx) + std::fabs(uxvz),
               mz = std::fabs(uxvy) + std::fabs(uyvx);
  auto sign = [&](const Vec3& d) {
    const double wx = d.x() - a.x(), wy = d.y() - a.y(), wz = d.z() - a.z();
    if (plane_ok & in_filter_range(wx, kLo3, kHi3) & in_filter_range(wy, kLo3, kHi3) &
        in_filter_range(wz, kLo3, kHi3)) {
      const double det = wx * nx + wy * ny + wz * nz;
      const double permanent = mx * std::fabs(wx) + my * std::fabs(wy) + mz * std::fabs(wz);
      const double errbound = detail::kO3dErrBoundA * permanent;
      if (det > errbound) return 1;
      if (-det > errbound) return -1;
      if (permanent == 0.0) return 0;  // every product exactly 0 (no underflow in range)
    }
    g_orient3d_exact.fetch_add(1, std::memory_order_relaxed);
    return orient3d_sign_exact(a, b, c, d);
  };
  return {sign(d0), sign(d1), sign(d2)};
}

PredicateCounters predicate_counters() {
  PredicateCounters c;
  c.orient2d_exact = g_orient2d_exact.load(std::memory_order_relaxed);
  c.orient3d_exact = g_orient3d_exact.load(std::memory_order_relaxed);
  return c;
}

void reset_predicate_counters() {
  g_orient2d_exact.store(0, std::memory_order_relaxed);
  g_orient3d_exact.store(0, std::memory_order_relaxed);
}

}  // namespace kdopcd
