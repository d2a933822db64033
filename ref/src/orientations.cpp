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

constexpr double kFeasibleTol = 1e-9;
constexpr double kSignTol = 1e-12;

}  // namespace

OrientationSet::OrientationSet(int k) : k_(k) {
  const std::vector<Vec3> half_dirs = raw_half_set(k);
  directions_.resize(k);
  for (int i = 0; i < k / 2; ++i) {
    directions_[i] = half_dirs[i].normalized();
    directions_[i + k / 2] = -directions_[i];
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
}

FaceTriple OrientationSet::triple_for(const Vec3& L) const {
  // The SIMD pre-filter passes every triple this loop would accept (its bound is far above
  // kSignTol plus any difference in rounding: |P| <= 3 or so, errors of a few ulps), so the loop
  // still takes the first triple in vertex_triples() order whose P, computed as before, passes.
  // It skips most of the others several at a time: the search was most of a separated query.
  constexpr double kFilterBound = kSignTol + 1e-9;
  const std::size_t count = vertex_triples_.size();
  for (std::size_t t = detail::next_triple_candidate(inverse_soa_.data(), soa_stride_, count, 0, L, kFilterBound);
       t < count; t = detail::next_triple_candidate(inverse_soa_.data(), soa_stride_, count, t + 1, L, kFilterBound)) {
    const Vec3 P = inverse_transposed_[t] * L;
    if (P.maxCoeff() > kSignTol) continue;
    FaceTriple out;
    out.j = vertex_triples_[t];
    if (P.minCoeff() < -1 - kFeasibleTol)  // would break the r_max <= sqrt 3 bound of the paper
      throw std::logic_error(fmt::format("mapping vector below -1 in k = {}", k_));
    // Snap round-off only: P_i in [-1 - tol, tol] becomes [-1, 0] (the measured range, docs/design.md §2).
    for (int i = 0; i < 3; ++i) out.P[i] = std::clamp(P[i], -1.0, 0.0);
    return out;
  }
  // Every unit vector lies in some vertex normal cone: reaching here is a bug, not bad input.
  throw std::logic_error(fmt::format("no face triple for axis ({}, {}, {}) in k = {}", L.x(), L.y(), L.z(), k_));
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
