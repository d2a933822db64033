#pragma once
// Fixed k-DOP orientation sets (docs/architecture.md) and their "maximal DOP" (every coefficient 1).
// Directions are unit vectors; direction i + k/2 is the negation of direction i.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kdopcd/vec.hpp"

namespace kdopcd {

// A vertex of the maximal DOP, given by three face indices whose planes meet there.
// For a test axis L, the triple j whose normal cone contains -L gives L = sum_i P_i D_{j_i}
// with every P_i in [-1, 0]: that sign is what makes P . d a lower bound of L . x over any DOP
// with coefficients d (LP weak duality), i.e. the SAT is conservative.
struct FaceTriple {
  std::array<int, 3> j{};
  std::array<double, 3> P{};
};

class OrientationSet {
 public:
  explicit OrientationSet(int k);  // throws InputError for an unsupported k

  int k() const { return k_; }
  int half() const { return k_ / 2; }
  const Vec3& direction(int i) const { return directions_[i]; }
  const std::vector<Vec3>& directions() const { return directions_; }

  // All (face triple, vertex) combinations of the maximal DOP; a vertex where more than three
  // faces meet appears once per non-singular triple of its faces.
  const std::vector<std::array<int, 3>>& vertex_triples() const { return vertex_triples_; }
  const std::vector<Vec3>& vertices() const { return vertices_; }
  // Largest distance of a vertex of the maximal DOP from the origin (the paper's r_max <= sqrt 3).
  double r_max() const { return r_max_; }

  // The face triple for a unit axis L (expressed in this object's local frame). Deterministic:
  // the first vertex triple, in vertex_triples() order, whose P is all <= 0. It tests only the
  // triples whose normal cone can reach L's cell of a cube map (made once per set), which is
  // always the same answer as triple_for_scan.
  // Inline, with the scan out of line: the 24 axes of a query that descends make up about half
  // of a small-proximity query, and the call and copies were a large part of each.
  FaceTriple triple_for(const Vec3& L) const;
  // The same triple by a search over every vertex triple: the definition triple_for keeps to.
  FaceTriple triple_for_scan(const Vec3& L) const;
  // triple_for in two steps, for callers that find the cells of many axes at once in SIMD lanes
  // (make_projected_triples): L's cell of the cube map (kCubeCells^2 cells on each of the cube's
  // six faces), or -1 where the map does not serve (zero, tiny, huge or non-finite L); then the
  // triple from the cell's list, or from the scan for cell -1 or should no listed triple accept.
  // triple_in_cell(cube_cell(L), L) is triple_for(L).
  static constexpr int kCubeCells = 32;
  static int cube_cell(const Vec3& L);
  FaceTriple triple_in_cell(int cell, const Vec3& L) const;
  // The same triple written to j[0], j[stride], j[2 stride] and P[0], P[stride], P[2 stride]
  // (SIMD lanes), without a FaceTriple in between.
  void triple_in_cell(int cell, const Vec3& L, std::int64_t* j, double* P, std::size_t stride) const;
  // The first k/2 directions as three arrays of kDirectionLanes (x, then y, then z; zero past
  // k/2), for SIMD lanes.
  static constexpr int kDirectionLanes = 16;
  const double* half_direction_lanes() const { return half_direction_lanes_.data(); }
  // The triple for the set's own direction D_i, exactly: L = D_i = -D_{i+k/2}, so
  // j = (i+k/2, u, w) with P = (-1, 0, 0), where (i+k/2, u, w) is the first vertex triple that
  // holds face i+k/2. No rounding in P, and one product instead of three.
  const FaceTriple& own_direction_triple(int i) const { return own_triples_[i]; }

 private:
  int k_;
  std::vector<Vec3> directions_;
  std::vector<std::array<int, 3>> vertex_triples_;
  std::vector<Vec3> vertices_;
  std::vector<Eigen::Matrix3d> inverse_transposed_;
  std::vector<FaceTriple> own_triples_;  // (D_j rows)^-T per triple: P = M^-T L
  // inverse_transposed_ as nine padded arrays, for the SIMD pre-filter of triple_for_scan.
  std::vector<double> inverse_soa_;
  std::size_t soa_stride_ = 0;
  std::array<double, 3 * kDirectionLanes> half_direction_lanes_{};
  // The cube map of triple_for: cell c of 6 kCubeCells^2 holds the triples (indices into
  // vertex_triples(), ascending) cell_triples_[cell_start_[c], cell_start_[c + 1]).
  std::vector<std::uint32_t> cell_start_;
  std::vector<std::uint8_t> cell_triples_;
  // Whether triple t's P = M_t L is all <= kSignTol (then `out` gets the triple and P snapped
  // to [-1, 0]). Inline: the cube map's lookup tries about 1.3 triples per axis.
  bool accepts(std::size_t t, const Vec3& L, FaceTriple& out) const;
  // accepts' test alone: P = M_t L, and whether it is accepted (the range check made).
  bool accepted(std::size_t t, const Vec3& L, Vec3& P) const;
  [[noreturn]] void throw_mapping_below_minus_one() const;
  static constexpr double kFeasibleTol = 1e-9;
  static constexpr double kSignTol = 1e-12;
  void make_cube_map();
  double r_max_ = 0;
};

inline bool OrientationSet::accepted(std::size_t t, const Vec3& L, Vec3& P) const {
  P = inverse_transposed_[t] * L;
  if (P.maxCoeff() > kSignTol) return false;
  if (P.minCoeff() < -1 - kFeasibleTol) throw_mapping_below_minus_one();  // would break r_max <= sqrt 3
  return true;
}

inline bool OrientationSet::accepts(std::size_t t, const Vec3& L, FaceTriple& out) const {
  Vec3 P;
  if (!accepted(t, L, P)) return false;
  out.j = vertex_triples_[t];
  // Snap round-off only: P_i in [-1 - tol, tol] becomes [-1, 0] (the measured range, docs/design.md §2).
  for (int i = 0; i < 3; ++i) out.P[i] = std::clamp(P[i], -1.0, 0.0);
  return true;
}

inline int OrientationSet::cube_cell(const Vec3& L) {
  // The cube map's cell of L (orientations.cpp, kConeSlack); -1 for anything else.
  const double x = std::fabs(L.x()), y = std::fabs(L.y()), z = std::fabs(L.z());
  int a = 0;
  double m = x;
  if (y > m) a = 1, m = y;
  if (z > m) a = 2, m = z;
  if (!(m >= 0.5 && m <= 2.0)) return -1;  // also NaN
  constexpr int G = kCubeCells;
  const double inv = 1.0 / m;
  const double u = L[(a + 1) % 3] * inv, v = L[(a + 2) % 3] * inv;
  if (!(u >= -2 && u <= 2 && v >= -2 && v <= 2)) return -1;  // also NaN
  const int iu = std::clamp(int((u + 1) * (0.5 * G)), 0, G - 1);
  const int iv = std::clamp(int((v + 1) * (0.5 * G)), 0, G - 1);
  const int face = 2 * a + (L[a] < 0);
  return (face * G + iu) * G + iv;
}

inline FaceTriple OrientationSet::triple_in_cell(int cell, const Vec3& L) const {
  if (cell >= 0) {
    FaceTriple out;
    for (std::uint32_t i = cell_start_[std::size_t(cell)]; i < cell_start_[std::size_t(cell) + 1]; ++i)
      if (accepts(cell_triples_[i], L, out)) return out;
  }
  return triple_for_scan(L);
}

inline void OrientationSet::triple_in_cell(int cell, const Vec3& L, std::int64_t* j, double* P,
                                           std::size_t stride) const {
  if (cell >= 0) {
    for (std::uint32_t i = cell_start_[std::size_t(cell)]; i < cell_start_[std::size_t(cell) + 1]; ++i) {
      Vec3 p;
      if (!accepted(cell_triples_[i], L, p)) continue;
      const std::array<int, 3>& t = vertex_triples_[cell_triples_[i]];
      for (int c = 0; c < 3; ++c) {
        j[std::size_t(c) * stride] = t[std::size_t(c)];
        // accepts' snap, as min and max: the same value (NaN and -0 included), without branches.
        P[std::size_t(c) * stride] = std::min(std::max(p[c], -1.0), 0.0);
      }
      return;
    }
  }
  const FaceTriple t = triple_for_scan(L);
  for (int c = 0; c < 3; ++c) {
    j[std::size_t(c) * stride] = t.j[std::size_t(c)];
    P[std::size_t(c) * stride] = t.P[std::size_t(c)];
  }
}

inline FaceTriple OrientationSet::triple_for(const Vec3& L) const { return triple_in_cell(cube_cell(L), L); }

// The supported k, and a shared instance per k (built once, thread-safe).
inline constexpr std::array<int, 5> kSupportedK{6, 14, 18, 24, 26};
const OrientationSet& orientation_set(int k);

}  // namespace kdopcd
