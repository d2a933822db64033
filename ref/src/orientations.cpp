#include "kdopcd/orientations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include "kdopcd/error.hpp"
#include "triple_search.hpp"

namespace kdopcd {
namespace {

// The k/2 "positive" directions of each set, before normalization, in the documented order:
// coordinate axes, then edge diagonals, then corner diagonals.
std::vector<Vec3> raw_half_set(int k) {
  const std::vector<Vec3> axes{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const std::vector<Vec3> edges{{1, 1, 0}, {1, -1, 0}, {1, 0, 1}, {1, 0, -1}, {0, 1, 1}, {0, 1, -1}};
  const std::vector<Vec3> corners4{{1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};
  // k = 24 (docs/architecture.md): only the three corner diagonals x+y-z, x-y+z, -x+y+z.
  const std::vector<Vec3> corners3{{1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};
  std::vector<Vec3> out = axes;
  // push_back rather than insert: g++ 12 reports a false -Wstringop-overflow for the latter.
  auto append = [&](const std::vector<Vec3>& v) {
    for (const Vec3& d : v) out.push_back(d);
  };
  switch (k) {
    case 6: break;
    case 14: append(corners4); break;
    case 18: append(edges); break;
    case 24: append(edges); append(corners3); break;
    case 26: append(edges); append(corners4); break;
    default:
      throw InputError(fmt::format("unsupported k = {} (supported: 6, 14, 18, 24, 26)", k));
  }
  return out;
}

// The cube map of triple_for. A unit L lies on the ray through the cube point
// c = sign(L_a) e_a + u e_b + v e_c, (u, v) = (L_b, L_c) / |L_a| in [-1, 1]^2, with a the axis of the
// largest |L_a| (ties to the lower axis) and (b, c) = (a + 1, a + 2) mod 3. A triple accepts L when
// the computed P = M_t L has every component <= kTripleSignTol; then M_t c <= (kTripleSignTol + a few ulps) /
// |L_a| < 2e-12 in exact arithmetic, since |L_a| >= 1/sqrt 3. A cell lists every triple whose cone
// M_t c <= kConeSlack meets the cell widened by kCellMargin on each side: a superset, by margins far
// above those roundings and the rounding of (u, v), of the triples that can accept any L the cell
// is looked up for. So the first listed triple that accepts L is the first of all triples that
// does. triple_for uses the map only for |L_a| in [0.5, 2] (every unit vector), where these
// bounds hold.
constexpr double kConeSlack = 1e-6;
constexpr double kCellMargin = 1e-6;

// Whether some (u, v) in [u0, u1] x [v0, v1] has M (s e_a + u e_b + v e_c) <= kConeSlack in every
// component. A nonempty feasible polygon (bounded by the box) has a vertex where two of its seven
// constraint lines meet, so every such intersection is tried, each with a small tolerance; a
// grid of points in the box is tried too. Both only ever add triples, which costs a little
// speed, never a different answer.
bool cone_meets_cell(const Eigen::Matrix3d& M, int a, double s, double u0, double u1, double v0, double v1) {
  const int b = (a + 1) % 3, c = (a + 2) % 3;
  // Constraint i: cb[i] u + cg[i] v <= cr[i].
  double cb[7], cg[7], cr[7];
  for (int r = 0; r < 3; ++r) {
    cb[r] = M(r, b);
    cg[r] = M(r, c);
    cr[r] = kConeSlack - s * M(r, a);
  }
  cb[3] = -1, cg[3] = 0, cr[3] = -u0;
  cb[4] = 1, cg[4] = 0, cr[4] = u1;
  cb[5] = 0, cg[5] = -1, cr[5] = -v0;
  cb[6] = 0, cg[6] = 1, cr[6] = v1;
  auto feasible = [&](double u, double v) {
    for (int i = 0; i < 7; ++i)
      if (!(cb[i] * u + cg[i] * v <= cr[i] + 1e-9)) return false;
    return true;
  };
  for (int i = 0; i < 7; ++i)
    for (int j = i + 1; j < 7; ++j) {
      const double det = cb[i] * cg[j] - cb[j] * cg[i];
      if (std::fabs(det) < 1e-12) continue;
      if (feasible((cr[i] * cg[j] - cr[j] * cg[i]) / det, (cb[i] * cr[j] - cb[j] * cr[i]) / det)) return true;
    }
  constexpr int kSamples = 8;
  for (int i = 0; i <= kSamples; ++i)
    for (int j = 0; j <= kSamples; ++j)
      if (feasible(u0 + (u1 - u0) * i / kSamples, v0 + (v1 - v0) * j / kSamples)) return true;
  return false;
}

}  // namespace

OrientationSet::OrientationSet(int k) : k_(k) {
  const std::vector<Vec3> half_dirs = raw_half_set(k);
  directions_.resize(k);
  for (int i = 0; i < k / 2; ++i) {
    directions_[i] = half_dirs[i].normalized();
    directions_[i + k / 2] = -directions_[i];
    for (int c = 0; c < 3; ++c) half_direction_lanes_[std::size_t(c * kDirectionLanes + i)] = directions_[i][c];
  }
  // Enumerate the vertices of the maximal DOP: every non-singular face triple whose intersection
  // point satisfies all k half-spaces.
  for (int a = 0; a < k; ++a)
    for (int b = a + 1; b < k; ++b)
      for (int c = b + 1; c < k; ++c) {
        Eigen::Matrix3d rows;
        rows.row(0) = directions_[a];
        rows.row(1) = directions_[b];
        rows.row(2) = directions_[c];
        if (std::abs(rows.determinant()) < 1e-9) continue;
        const Vec3 x = rows.inverse() * Vec3::Ones();
        bool feasible = true;
        for (const Vec3& d : directions_) feasible &= d.dot(x) <= 1 + kFeasibleTol;
        if (!feasible) continue;
        vertex_triples_.push_back({a, b, c});
        vertices_.push_back(x);
        inverse_transposed_.push_back(rows.inverse().transpose());
        r_max_ = std::max(r_max_, x.norm());
      }
  soa_stride_ = (vertex_triples_.size() + detail::kTripleLanes - 1) / detail::kTripleLanes * detail::kTripleLanes;
  inverse_soa_.assign(9 * soa_stride_, 0.0);
  for (std::size_t t = 0; t < inverse_transposed_.size(); ++t)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) inverse_soa_[std::size_t(3 * r + c) * soa_stride_ + t] = inverse_transposed_[t](r, c);
  own_triples_.resize(k);
  for (int i = 0; i < k; ++i) {
    const int face = (i + k / 2) % k;
    for (const auto& t : vertex_triples_) {
      if (t[0] != face && t[1] != face && t[2] != face) continue;
      FaceTriple& own = own_triples_[i];
      own.j[0] = face;
      int next = 1;
      for (int f : t)
        if (f != face) own.j[next++] = f;
      own.P = {-1.0, 0.0, 0.0};
      break;
    }
  }
  make_cube_map();
  for (const Vec3& d : directions_) directions_flat_.insert(directions_flat_.end(), {d.x(), d.y(), d.z()});
  for (std::size_t t = 0; t < vertex_triples_.size(); ++t) {
    for (int f : vertex_triples_[t]) triples_flat_.push_back(f);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) inverse_flat_.push_back(inverse_transposed_[t](r, c));
  }
  for (const FaceTriple& own : own_triples_)
    for (int f : own.j) own_flat_.push_back(f);
}

void OrientationSet::make_cube_map() {
  constexpr int G = kCubeCells;
  cell_start_.assign(6 * G * G + 1, 0);
  cell_triples_.clear();
  for (int face = 0; face < 6; ++face) {
    const int a = face / 2;
    const double s = face % 2 ? -1.0 : 1.0;
    for (int iu = 0; iu < G; ++iu)
      for (int iv = 0; iv < G; ++iv) {
        const double u0 = -1 + 2.0 * iu / G - kCellMargin, u1 = -1 + 2.0 * (iu + 1) / G + kCellMargin;
        const double v0 = -1 + 2.0 * iv / G - kCellMargin, v1 = -1 + 2.0 * (iv + 1) / G + kCellMargin;
        for (std::size_t t = 0; t < vertex_triples_.size(); ++t)
          if (cone_meets_cell(inverse_transposed_[t], a, s, u0, u1, v0, v1)) cell_triples_.push_back(std::uint8_t(t));
        cell_start_[std::size_t((face * G + iu) * G + iv) + 1] = std::uint32_t(cell_triples_.size());
      }
  }
  if (vertex_triples_.size() > 256) throw std::logic_error("cube map: more vertex triples than a byte indexes");
}

void OrientationSet::throw_search_failure(SetupStatus status, const Vec3& L) const {
  if (status == SetupStatus::MappingBelowMinusOne)
    throw std::logic_error(fmt::format("mapping vector below -1 in k = {}", k_));
  // Every unit vector lies in some vertex normal cone: reaching here is a bug, not bad input.
  throw std::logic_error(fmt::format("no face triple for axis ({}, {}, {}) in k = {}", L.x(), L.y(), L.z(), k_));
}

FaceTriple OrientationSet::triple_for_scan(const Vec3& L) const {
  // The SIMD pre-filter passes every triple this loop would accept (its bound is far above
  // kTripleSignTol plus any difference in rounding: |P| <= 3 or so, errors of a few ulps), so the
  // loop still takes the first triple in vertex_triples() order whose P, computed as find_triple
  // computes it, passes. It skips most of the others several at a time.
  constexpr double kFilterBound = kTripleSignTol + 1e-9;
  const std::size_t count = vertex_triples_.size();
  const OrientationView set = view();
  for (std::size_t t = detail::next_triple_candidate(inverse_soa_.data(), soa_stride_, count, 0, L, kFilterBound);
       t < count; t = detail::next_triple_candidate(inverse_soa_.data(), soa_stride_, count, t + 1, L, kFilterBound)) {
    FaceTriple out;
    const TripleVerdict verdict = triple_verdict(set, int(t), L.data(), out.P.data());
    if (verdict == TripleVerdict::Broken) throw_search_failure(SetupStatus::MappingBelowMinusOne, L);
    if (verdict == TripleVerdict::Rejected) continue;
    out.j = vertex_triples_[t];
    // Snap round-off only: P_i in [-1 - tol, tol] becomes [-1, 0] (the measured range, docs/design.md §2).
    for (int i = 0; i < 3; ++i) out.P[std::size_t(i)] = std::clamp(out.P[std::size_t(i)], -1.0, 0.0);
    return out;
  }
  throw_search_failure(SetupStatus::NoFaceTriple, L);
}

const OrientationSet& orientation_set(int k) {
  static std::mutex mutex;
  static std::map<int, OrientationSet> sets;
  std::lock_guard lock(mutex);
  auto it = sets.find(k);
  if (it == sets.end()) it = sets.emplace(k, OrientationSet(k)).first;
  return it->second;
}

}  // namespace kdopcd
