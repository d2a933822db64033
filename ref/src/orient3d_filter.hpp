// Shewchuk's stage-A filter for orient3d (J. R. Shewchuk, "Adaptive Precision Floating-Point
// Arithmetic and Fast Robust Geometric Predicates", 1997), shared by the float predicates and
// the fixed backend's triangle test.
#pragma once

#include <cmath>

namespace kdopcd::detail {

// |det - fl(det)| <= (7 + 56 eps) eps * permanent when each difference is rounded once from
// exact inputs and nothing under- or overflows (eps = 2^-53).
inline constexpr double kO3dErrBoundA = (7.0 + 56.0 * 0x1p-53) * 0x1p-53;

// The filter's answer when the rounded determinant does not decide the sign.
inline constexpr int kOrient3dUndecided = 2;

// Sign of det [u; v; w] for the differences u = b - a, v = c - a, w = d - a (each rounded once,
// in the range where the bound holds): +1 or -1 when the rounded value's sign is certain, 0 when
// every product is exactly 0 (so is the determinant), kOrient3dUndecided otherwise. The
// expression has the shape of Shewchuk's orient3d with (ad, bd, cd) -> (u, v, w), so his bound
// applies term by term.
inline int orient3d_filter(double ux, double uy, double uz, double vx, double vy, double vz, double wx,
                           double wy, double wz) {
  const double vywz = vy * wz, vzwy = vz * wy;
  const double vzwx = vz * wx, vxwz = vx * wz;
  const double vxwy = vx * wy, vywx = vy * wx;
  const double det = ux * (vywz - vzwy) + uy * (vzwx - vxwz) + uz * (vxwy - vywx);
  const double permanent = (std::fabs(vywz) + std::fabs(vzwy)) * std::fabs(ux) +
                           (std::fabs(vzwx) + std::fabs(vxwz)) * std::fabs(uy) +
                           (std::fabs(vxwy) + std::fabs(vywx)) * std::fabs(uz);
  const double errbound = kO3dErrBoundA * permanent;
  if (det > errbound) return 1;
  if (-det > errbound) return -1;
  if (permanent == 0.0) return 0;
  return kOrient3dUndecided;
}

}  // namespace kdopcd::detail
