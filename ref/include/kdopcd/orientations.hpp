#pragma once
// Fixed k-DOP orientation sets (docs/architecture.md) and their "maximal DOP" (every coefficient 1).
// Directions are unit vectors; direction i + k/2 is the negation of direction i.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kdopcd/orientation_view.hpp"
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
  // always the same answer as triple_for_scan. The search is find_triple on view()
  // (orientation_view.hpp), the code the CUDA device runs too.
  FaceTriple triple_for(const Vec3& L) const;
  // The same triple by a search over every vertex triple: the definition triple_for keeps to.
  FaceTriple triple_for_scan(const Vec3& L) const;
  // triple_for in two steps, for callers that find the cells of many axes at once in SIMD lanes
  // (make_projected_triples): L's cell of the cube map (kCubeCells^2 cells on each of the cube's
  // six faces), or -1 where the map does not serve (zero, tiny, huge or non-finite L); then the
  // triple from the cell's list, or from every triple in order for cell -1 or should no listed
  // triple accept. triple_in_cell(cube_cell(L), L) is triple_for(L).
  static constexpr int kCubeCells = kdopcd::kCubeCells;
  static int cube_cell(const Vec3& L) { return kdopcd::cube_cell(L.x(), L.y(), L.z()); }
  FaceTriple triple_in_cell(int cell, const Vec3& L) const;
  // The same triple written to j[0], j[stride], j[2 stride] and P[0], P[stride], P[2 stride]
  // (SIMD lanes), without a FaceTriple in between.
  void triple_in_cell(int cell, const Vec3& L, std::int64_t* j, double* P, std::size_t stride) const;
  // The set as plain data for the shared set-up code (query_setup.hpp) and the device: pointers
  // into this set's arrays, valid while the set lives.
  OrientationView view() const {
    return {k_,
            std::int32_t(vertex_triples_.size()),
            directions_flat_.data(),
            triples_flat_.data(),
            inverse_flat_.data(),
            own_flat_.data(),
            cell_start_.data(),
            cell_triples_.data()};
  }
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
  // view()'s arrays: directions, vertex triples, inverse_transposed_ (row-major) and own triples.
  std::vector<double> directions_flat_;
  std::vector<std::int32_t> triples_flat_;
  std::vector<double> inverse_flat_;
  std::vector<std::int32_t> own_flat_;
  // find_triple's failure as the exception it is (a bug, not bad input: every unit vector lies in
  // some vertex normal cone, and the set's mapping vectors lie in [-1, 0]).
  [[noreturn]] void throw_search_failure(SetupStatus status, const Vec3& L) const;
  static constexpr double kFeasibleTol = kTripleFeasibleTol;
  void make_cube_map();
  double r_max_ = 0;
};

inline void OrientationSet::triple_in_cell(int cell, const Vec3& L, std::int64_t* j, double* P,
                                           std::size_t stride) const {
  std::int32_t found_j[3];
  double found_P[3];
  const SetupStatus status = find_triple(view(), cell, L.data(), found_j, found_P);
  if (status != SetupStatus::Ok) throw_search_failure(status, L);
  for (int c = 0; c < 3; ++c) {
    j[std::size_t(c) * stride] = found_j[c];
    P[std::size_t(c) * stride] = found_P[c];
  }
}

inline FaceTriple OrientationSet::triple_in_cell(int cell, const Vec3& L) const {
  FaceTriple out;
  std::int64_t j[3];
  triple_in_cell(cell, L, j, out.P.data(), 1);
  for (int c = 0; c < 3; ++c) out.j[std::size_t(c)] = int(j[c]);
  return out;
}

inline FaceTriple OrientationSet::triple_for(const Vec3& L) const { return triple_in_cell(cube_cell(L), L); }

// The supported k, and a shared instance per k (built once, thread-safe).
inline constexpr std::array<int, 5> kSupportedK{6, 14, 18, 24, 26};
const OrientationSet& orientation_set(int k);

}  // namespace kdopcd
