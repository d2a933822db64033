#pragma once
// An orientation set as plain data (OrientationSet::view()), and the face-triple search on it:
// the one implementation of the search, shared by host and CUDA device code (KDOPCD_HD). No
// Eigen, no allocation, no exceptions: a search that finds nothing returns a SetupStatus.
//
// Operation order: P = M_t L is summed as (m0 L0 + m1 L1) + m2 L2 in the first two rows and as
// (m1 L1 + m2 L2) + m0 L0 in the last, the order of Eigen 3.4's Matrix3d * Vector3d (SSE2: the
// first two rows in one packet, the last alone), which the search was written with. Host code that includes this header is
// compiled without contraction into fused multiply-adds where it matters (ref/CMakeLists.txt) and
// device code with --fmad=false (cuda/CMakeLists.txt), so every caller rounds alike.
#include <cmath>
#include <cstdint>

#include "kdopcd/config.hpp"

namespace kdopcd {

// What a set-up computation reports instead of throwing (the device cannot throw). Ok is 0.
enum class SetupStatus : std::int32_t {
  Ok = 0,
  NoFaceTriple = 1,          // no vertex triple's cone holds the axis (a non-finite rotation)
  MappingBelowMinusOne = 2,  // an accepted mapping entry below -1: the orientation set is broken
  BadFixedParams = 3,        // b, c or z outside [kMinFixedBits, kMaxFixedBits]
  BadTriangleParams = 4,     // v, m outside the triangle unit's range (check_triangle_params)
  BadScale = 5,              // the scene scale is not finite or not > 0
  NonFiniteRotation = 6,     // the rotation matrix holds a NaN or an infinity (quantize_pose)
};

// The cube map of the triple search (orientations.cpp): kCubeCells^2 cells on each of the six
// faces of the cube.
inline constexpr int kCubeCells = 32;
inline constexpr int kCubeMapCells = 6 * kCubeCells * kCubeCells;
// A triple accepts L when every P_i <= kTripleSignTol; an accepted P_i below -1 - kTripleFeasibleTol
// would break r_max <= sqrt 3 (docs/design.md §2).
inline constexpr double kTripleSignTol = 1e-12;
inline constexpr double kTripleFeasibleTol = 1e-9;

// An OrientationSet's arrays (OrientationSet::view() points into the set's own). To use it on a
// device, copy each array to device memory and point a copy of the view at them; the sizes:
//   directions          3 k doubles         direction i = (directions[3i], [3i + 1], [3i + 2])
//   triples             3 triple_count      the face indices of vertex triple t at [3t, 3t + 3)
//   inverse_transposed  9 triple_count      (D_j rows)^-T of triple t, row-major, at [9t, 9t + 9)
//   own_triples         3 k                 own_direction_triple(i).j at [3i, 3i + 3); its P is (-1, 0, 0)
//   cell_start          kCubeMapCells + 1   cell c lists cell_triples[cell_start[c], cell_start[c + 1])
//   cell_triples        cell_start[kCubeMapCells] triple indices, ascending within a cell
struct OrientationView {
  std::int32_t k = 0;
  std::int32_t triple_count = 0;
  const double* directions = nullptr;
  const std::int32_t* triples = nullptr;
  const double* inverse_transposed = nullptr;
  const std::int32_t* own_triples = nullptr;
  const std::uint32_t* cell_start = nullptr;
  const std::uint8_t* cell_triples = nullptr;
};

// The cube map's cell of L = (x, y, z), or -1 where the map does not serve (a zero, tiny, huge or
// non-finite L): the cube face of L's largest |component| (ties to the lower axis) and the cell of
// the other two components divided by it.
KDOPCD_HD inline int cube_cell(double x, double y, double z) {
  const double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  int a = 0;
  double m = ax;
  if (ay > m) a = 1, m = ay;
  if (az > m) a = 2, m = az;
  if (!(m >= 0.5 && m <= 2.0)) return -1;  // also NaN
  constexpr int G = kCubeCells;
  const double inv = 1.0 / m;
  const double L[3] = {x, y, z};
  const double u = L[(a + 1) % 3] * inv, v = L[(a + 2) % 3] * inv;
  if (!(u >= -2 && u <= 2 && v >= -2 && v <= 2)) return -1;  // also NaN
  auto index = [](double w) {
    const int i = int((w + 1) * (0.5 * G));
    return i < 0 ? 0 : (i > G - 1 ? G - 1 : i);
  };
  const int face = 2 * a + (L[a] < 0);
  return (face * G + index(u)) * G + index(v);
}

// How triple t answers L: P = M_t L, and
enum class TripleVerdict : std::int32_t {
  Rejected = 0,  // some P_i > kTripleSignTol (or NaN)
  Accepted = 1,  // every P_i <= kTripleSignTol
  Broken = 2,    // accepted, but some P_i < -1 - kTripleFeasibleTol
};
KDOPCD_HD inline TripleVerdict triple_verdict(const OrientationView& set, int t, const double L[3], double P[3]) {
  const double* m = set.inverse_transposed + 9 * t;
  P[0] = (m[0] * L[0] + m[1] * L[1]) + m[2] * L[2];
  P[1] = (m[3] * L[0] + m[4] * L[1]) + m[5] * L[2];
  P[2] = (m[7] * L[1] + m[8] * L[2]) + m[6] * L[0];  // Eigen summed the last row's last two first
  if (!(P[0] <= kTripleSignTol && P[1] <= kTripleSignTol && P[2] <= kTripleSignTol)) return TripleVerdict::Rejected;
  constexpr double kLowest = -1 - kTripleFeasibleTol;
  if (P[0] < kLowest || P[1] < kLowest || P[2] < kLowest) return TripleVerdict::Broken;
  return TripleVerdict::Accepted;
}

// The face triple of the unit axis L: the first vertex triple, in the set's order, that accepts L,
// with P snapped to [-1, 0] (round-off only: the accepted range is [-1 - 1e-9, 1e-12]). `cell` is
// cube_cell(L): that cell's list is tried first (a superset, in order, of the triples that can
// accept an L of the cell, so its first acceptor is the first of all), then, for cell -1 or an
// empty answer, every triple in order.
KDOPCD_HD inline SetupStatus find_triple(const OrientationView& set, int cell, const double L[3], std::int32_t j[3],
                                         double P[3]) {
  auto take = [&](int t) {
    for (int c = 0; c < 3; ++c) {
      j[c] = set.triples[3 * t + c];
      P[c] = P[c] < -1.0 ? -1.0 : (0.0 < P[c] ? 0.0 : P[c]);  // std::clamp(P, -1, 0), -0 kept
    }
  };
  if (cell >= 0) {
    for (std::uint32_t i = set.cell_start[cell]; i < set.cell_start[cell + 1]; ++i) {
      const int t = set.cell_triples[i];
      const TripleVerdict v = triple_verdict(set, t, L, P);
      if (v == TripleVerdict::Broken) return SetupStatus::MappingBelowMinusOne;
      if (v == TripleVerdict::Accepted) return take(t), SetupStatus::Ok;
    }
  }
  for (int t = 0; t < set.triple_count; ++t) {
    const TripleVerdict v = triple_verdict(set, t, L, P);
    if (v == TripleVerdict::Broken) return SetupStatus::MappingBelowMinusOne;
    if (v == TripleVerdict::Accepted) return take(t), SetupStatus::Ok;
  }
  return SetupStatus::NoFaceTriple;
}

}  // namespace kdopcd
