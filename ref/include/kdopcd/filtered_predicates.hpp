#pragma once
// The floating-point filters of the exact orientation predicates (predicates.hpp), as KDOPCD_HD
// code shared by the host predicates (which fall back to exact arithmetic) and the GPU's triangle
// test (which hands an undecided triangle pair to the host). Each returns the exact sign of its
// determinant when the rounded value certifies it, and kUndecided otherwise.
//
// The error bounds are Shewchuk's "stage A" bounds (J. R. Shewchuk, "Adaptive Precision
// Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997):
//   orient2d: |det - fl(det)| <= (3 + 16 eps) eps * (|detleft| + |detright|)
//   orient3d: |det - fl(det)| <= (7 + 56 eps) eps * permanent
// with eps = 2^-53 and every quantity on the right computed in floating point, including the
// rounding of the initial coordinate differences: if |fl(det)| exceeds the bound, the sign of
// fl(det) is the exact sign. The proof assumes no underflow and no overflow. The filters
// guarantee that: they decide only when every coordinate difference is 0 or has a magnitude in
// [2^-400, 2^400] (orient2d) or [2^-300, 2^300] (orient3d). Then every nonzero product of two
// (three) differences lies in [2^-800, 2^800] ([2^-900, 2^900]), and every sum or difference of
// such products is exactly 0 or at least one ulp of its smallest nonzero operand: all
// intermediates are normal numbers. Outside that range (huge, tiny, subnormal or non-finite
// values) they answer kUndecided, so a filter is never trusted where its proof does not hold.
#include <cmath>

#include "kdopcd/config.hpp"

namespace kdopcd::filtered {

inline constexpr int kUndecided = 2;

inline constexpr double kEps = 0x1p-53;  // half an ulp of 1.0: Shewchuk's epsilon for doubles
inline constexpr double kCcwErrBoundA = (3.0 + 16.0 * kEps) * kEps;
inline constexpr double kO3dErrBoundA = (7.0 + 56.0 * kEps) * kEps;
inline constexpr double kLo2 = 0x1p-400, kHi2 = 0x1p400;
inline constexpr double kLo3 = 0x1p-300, kHi3 = 0x1p300;

// Whether a coordinate difference lies where the bounds hold (false for NaN and infinities).
KDOPCD_HD inline bool in_range(double x, double lo, double hi) {
  const double ax = fabs(x);
  return ax == 0.0 || (ax >= lo && ax <= hi);
}

// Sign of (b-a) x (c-a) in the plane: +1 when a, b, c are counter-clockwise.
KDOPCD_HD inline int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
  const double ux = bx - ax, uy = by - ay, vx = cx - ax, vy = cy - ay;
  if (!(in_range(ux, kLo2, kHi2) && in_range(uy, kLo2, kHi2) && in_range(vx, kLo2, kHi2) &&
        in_range(vy, kLo2, kHi2)))
    return kUndecided;
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
  const double errbound = kCcwErrBoundA * (fabs(detleft) + fabs(detright));
  if (det > errbound) return 1;
  if (-det > errbound) return -1;
  return kUndecided;
}

// Sign of det[u; v; w] for the differences u = b - a, v = c - a, w = d - a (each rounded once):
// the shape of Shewchuk's orient3d with (ad, bd, cd) -> (u, v, w), so his bound applies term by
// term. 0 when every product is exactly 0 (then so is the determinant, no underflow in range).
KDOPCD_HD inline int orient3d_of_differences(double ux, double uy, double uz, double vx, double vy, double vz,
                                             double wx, double wy, double wz) {
  const double vywz = vy * wz, vzwy = vz * wy;
  const double vzwx = vz * wx, vxwz = vx * wz;
  const double vxwy = vx * wy, vywx = vy * wx;
  const double det = ux * (vywz - vzwy) + uy * (vzwx - vxwz) + uz * (vxwy - vywx);
  const double permanent = (fabs(vywz) + fabs(vzwy)) * fabs(ux) + (fabs(vzwx) + fabs(vxwz)) * fabs(uy) +
                           (fabs(vxwy) + fabs(vywx)) * fabs(uz);
  const double errbound = kO3dErrBoundA * permanent;
  if (det > errbound) return 1;
  if (-det > errbound) return -1;
  if (permanent == 0.0) return 0;
  return kUndecided;
}

// Sign of det[b-a, c-a, d-a] = (b-a) . ((c-a) x (d-a)) of points given as x, y, z arrays.
KDOPCD_HD inline int orient3d(const double* a, const double* b, const double* c, const double* d) {
  const double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
  const double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  const double wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
  const bool ok = in_range(ux, kLo3, kHi3) & in_range(uy, kLo3, kHi3) & in_range(uz, kLo3, kHi3) &
                  in_range(vx, kLo3, kHi3) & in_range(vy, kLo3, kHi3) & in_range(vz, kLo3, kHi3) &
                  in_range(wx, kLo3, kHi3) & in_range(wy, kLo3, kHi3) & in_range(wz, kLo3, kHi3);
  if (!ok) return kUndecided;
  return orient3d_of_differences(ux, uy, uz, vx, vy, vz, wx, wy, wz);
}

// orient3d(a, b, c, d[i]) for three points against one plane, with the plane's differences, their
// range check and the cross product n = u x v made once: det[u, v, w] = w . n, each term w_i n_i a
// difference times a difference of two products of differences, summed (w_x n_x + w_y n_y) +
// w_z n_z: Shewchuk's orient3d with (ad, bd, cd) -> (w, u, v), so his bound holds with the
// permanent sum (|first product| + |second product|) |w_i| in the same order.
struct PlaneFilter {
  const double* a;
  bool plane_ok;
  double nx, ny, nz, mx, my, mz;

  KDOPCD_HD PlaneFilter(const double* a_, const double* b, const double* c) : a(a_) {
    const double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
    const double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
    plane_ok = in_range(ux, kLo3, kHi3) & in_range(uy, kLo3, kHi3) & in_range(uz, kLo3, kHi3) &
               in_range(vx, kLo3, kHi3) & in_range(vy, kLo3, kHi3) & in_range(vz, kLo3, kHi3);
    const double uyvz = uy * vz, uzvy = uz * vy;
    const double uzvx = uz * vx, uxvz = ux * vz;
    const double uxvy = ux * vy, uyvx = uy * vx;
    nx = uyvz - uzvy;
    ny = uzvx - uxvz;
    nz = uxvy - uyvx;
    mx = fabs(uyvz) + fabs(uzvy);
    my = fabs(uzvx) + fabs(uxvz);
    mz = fabs(uxvy) + fabs(uyvx);
  }

  KDOPCD_HD int sign(const double* d) const {
    const double wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
    if (!(plane_ok & in_range(wx, kLo3, kHi3) & in_range(wy, kLo3, kHi3) & in_range(wz, kLo3, kHi3)))
      return kUndecided;
    const double det = wx * nx + wy * ny + wz * nz;
    const double permanent = mx * fabs(wx) + my * fabs(wy) + mz * fabs(wz);
    const double errbound = kO3dErrBoundA * permanent;
    if (det > errbound) return 1;
    if (-det > errbound) return -1;
    if (permanent == 0.0) return 0;  // every product exactly 0 (no underflow in range)
    return kUndecided;
  }
};

}  // namespace kdopcd::filtered
