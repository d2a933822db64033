// Exact orientation predicates: Shewchuk's stage-A filter (filtered_predicates.hpp, shared with
// the GPU's triangle test, where the proof of the bounds and their range conditions is written
// down), then exact integers wherever the filter does not certify the sign.
//
// Exact path: every double is m * 2^e with an integer |m| < 2^53. Scaling all coordinates of
// one call by 2^-emin (a positive factor, which keeps the sign) makes them integers
// m * 2^(e - emin); the determinant of those integers is computed in cpp_int without rounding.
// Exponent spreads of up to ~2100 bits are fine (cpp_int is unbounded).
#include "kdopcd/predicates.hpp"

#include "kdopcd/filtered_predicates.hpp"

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
  const int filtered = filtered::orient2d(ax, ay, bx, by, cx, cy);
  if (filtered != filtered::kUndecided) return filtered;
  g_orient2d_exact.fetch_add(1, std::memory_order_relaxed);
  return orient2d_sign_exact(ax, ay, bx, by, cx, cy);
}

int orient3d_sign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const int filtered = filtered::orient3d(a.data(), b.data(), c.data(), d.data());
  if (filtered != filtered::kUndecided) return filtered;
  g_orient3d_exact.fetch_add(1, std::memory_order_relaxed);
  return orient3d_sign_exact(a, b, c, d);
}

std::array<int, 3> orient3d_signs(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d0, const Vec3& d1,
                                  const Vec3& d2) {
  const filtered::PlaneFilter plane(a.data(), b.data(), c.data());
  auto sign = [&](const Vec3& d) {
    const int filtered = plane.sign(d.data());
    if (filtered != filtered::kUndecided) return filtered;
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
