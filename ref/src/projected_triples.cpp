// make_projected_triples (sat_setup.hpp): the directions and cube-map cells of a query's axes in
// SIMD lanes, compiled once per instruction set by Highway's foreach_target and chosen at run
// time; then each axis's triple from its cell, as triple_for.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "projected_triples.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <bit>
#include <cstdint>

#include "kdopcd/sat_setup.hpp"
#include "no_loop_to_memset.hpp"

HWY_BEFORE_NAMESPACE();
namespace kdopcd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// OrientationSet::cube_cell of the lanes' vectors (x, y, z), as a double (exact: below 6 * 32^2),
// or -1: the same comparisons, selections and roundings lane by lane.
template <class D>
HWY_INLINE hn::Vec<D> cube_cells(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> z) {
  const auto ax = hn::Abs(x), ay = hn::Abs(y), az = hn::Abs(z);
  // a = 0, m = |x|; a = 1 where |y| > m; a = 2 where |z| > the m so far.
  const auto pick_y = hn::Gt(ay, ax);
  const auto m_xy = hn::IfThenElse(pick_y, ay, ax);
  const auto pick_z = hn::Gt(az, m_xy);
  const auto m = hn::IfThenElse(pick_z, az, m_xy);
  auto ok = hn::And(hn::Ge(m, hn::Set(d, 0.5)), hn::Le(m, hn::Set(d, 2.0)));
  const auto inv = hn::Div(hn::Set(d, 1.0), m);
  // (u, v) = (L[a + 1], L[a + 2]) / m, indices mod 3; L[a] gives the face's sign.
  const auto U = hn::IfThenElse(pick_z, x, hn::IfThenElse(pick_y, z, y));
  const auto V = hn::IfThenElse(pick_z, y, hn::IfThenElse(pick_y, x, z));
  const auto La = hn::IfThenElse(pick_z, z, hn::IfThenElse(pick_y, y, x));
  const auto u = hn::Mul(U, inv), v = hn::Mul(V, inv);
  const auto two = hn::Set(d, 2.0), minus_two = hn::Set(d, -2.0);
  ok = hn::And(ok, hn::And(hn::And(hn::Ge(u, minus_two), hn::Le(u, two)), hn::And(hn::Ge(v, minus_two), hn::Le(v, two))));
  constexpr double G = OrientationSet::kCubeCells;
  const auto one = hn::Set(d, 1.0), half_g = hn::Set(d, 0.5 * G), zero = hn::Zero(d), last = hn::Set(d, G - 1);
  // clamp(int(t), 0, G - 1): truncation, then the clamp, all exact in doubles.
  auto index = [&](hn::Vec<D> w) { return hn::Min(hn::Max(hn::Trunc(hn::Mul(hn::Add(w, one), half_g)), zero), last); };
  const auto a2 = hn::IfThenElse(pick_z, hn::Set(d, 4.0), hn::IfThenElseZero(pick_y, hn::Set(d, 2.0)));  // 2a
  const auto face = hn::Add(a2, hn::IfThenElseZero(hn::Lt(La, zero), one));
  const auto g = hn::Set(d, G);
  const auto cell = hn::Add(hn::Mul(hn::Add(hn::Mul(face, g), index(u)), g), index(v));
  return hn::IfThenElse(ok, cell, hn::Set(d, -1.0));
}

// For the lanes e in [e_begin, e_end) (whole vectors): the even axis 2e's u = M^T D_e and the odd
// axis 2e + 1's u = M D_e, normalized, with make_projected_triple's operations in its order, and
// their cells. m: M row by row; dirs: half_direction_lanes(); u as ProjectedTripleLanes::u;
// cells[parity][e].
void ProjectedDirectionsImpl(const double* m, const double* dirs, size_t e_begin, size_t e_end, double* u,
                             double* cells) {
  const hn::CappedTag<double, 4> d;
  const size_t N = hn::Lanes(d);
  constexpr size_t L = OrientationSet::kDirectionLanes;
  auto M = [&](int r, int c) { return hn::Set(d, m[3 * r + c]); };
  auto store = [&](int parity, size_t e0, hn::Vec<decltype(d)> v0, hn::Vec<decltype(d)> v1, hn::Vec<decltype(d)> v2) {
    const auto squared = hn::Add(hn::Add(hn::Mul(v0, v0), hn::Mul(v1, v1)), hn::Mul(v2, v2));
    const auto positive = hn::Gt(squared, hn::Zero(d));  // false for NaN: the product stays
    const auto norm = hn::Sqrt(squared);
    v0 = hn::IfThenElse(positive, hn::Div(v0, norm), v0);
    v1 = hn::IfThenElse(positive, hn::Div(v1, norm), v1);
    v2 = hn::IfThenElse(positive, hn::Div(v2, norm), v2);
    double* out = u + size_t(parity) * 3 * L;
    hn::Store(v0, d, out + e0);
    hn::Store(v1, d, out + L + e0);
    hn::Store(v2, d, out + 2 * L + e0);
    hn::Store(cube_cells(d, v0, v1, v2), d, cells + size_t(parity) * L + e0);
  };
  for (size_t e0 = e_begin; e0 < e_end; e0 += N) {
    const auto x = hn::LoadU(d, dirs + e0), y = hn::LoadU(d, dirs + L + e0), z = hn::LoadU(d, dirs + 2 * L + e0);
    store(0, e0, hn::Add(hn::Add(hn::Mul(M(0, 0), x), hn::Mul(M(1, 0), y)), hn::Mul(M(2, 0), z)),
          hn::Add(hn::Add(hn::Mul(M(0, 1), x), hn::Mul(M(1, 1), y)), hn::Mul(M(2, 1), z)),
          hn::Add(hn::Add(hn::Mul(M(0, 2), x), hn::Mul(M(1, 2), y)), hn::Mul(M(2, 2), z)));
    store(1, e0, hn::Add(hn::Add(hn::Mul(M(0, 0), x), hn::Mul(M(0, 1), y)), hn::Mul(M(0, 2), z)),
          hn::Add(hn::Add(hn::Mul(M(1, 0), x), hn::Mul(M(1, 1), y)), hn::Mul(M(1, 2), z)),
          hn::Add(hn::Add(hn::Mul(M(2, 1), y), hn::Mul(M(2, 2), z)), hn::Mul(M(2, 0), x)));
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace kdopcd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kdopcd {

HWY_EXPORT(ProjectedDirectionsImpl);

static_assert(ProjectedTripleLanes::kLanes % ProjectedTripleLanes::kBlock == 0 && ProjectedTripleLanes::kBlock % 4 == 0,
              "whole blocks, each of whole vectors of the widest lanes used (4)");

void ProjectedTripleLanes::make_blocks(const OrientationSet& set, const Mat3& M, int begin, int end) {
  const double m[9] = {M(0, 0), M(0, 1), M(0, 2), M(1, 0), M(1, 1), M(1, 2), M(2, 0), M(2, 1), M(2, 2)};
  HWY_DYNAMIC_DISPATCH(ProjectedDirectionsImpl)(m, set.half_direction_lanes(), std::size_t(begin * kBlock),
                                                std::size_t(end * kBlock), &u[0][0][0], &cells_[0][0]);
  blocks_ |= (1u << end) - (1u << begin);
}

// Axis 2e + parity's triple, its block's cells made. Inline in make_all's loop: a call per axis
// cost about a third more there.
inline void ProjectedTripleLanes::search(const OrientationSet& set, int parity, int e) {
  const double(&v)[3][kLanes] = u[parity];
  set.triple_in_cell(int(cells_[parity][e]), Vec3(v[0][e], v[1][e], v[2][e]), &j[parity][0][e], &P[parity][0][e],
                     kLanes);
}

void ProjectedTripleLanes::make_axis(const OrientationSet& set, const Mat3& M, int i) {
  const int e = i / 2;
  if (!(blocks_ >> (e / kBlock) & 1u)) make_blocks(set, M, e / kBlock, e / kBlock + 1);
  search(set, i % 2, e);
  axes_ |= 1u << i;
}

// The lanes past the axes are zeroed in a loop: the memset calls g++ makes of it otherwise cost
// more than the stores.
KDOPCD_NO_LOOP_TO_MEMSET
void ProjectedTripleLanes::make_all(const OrientationSet& set, const Mat3& M, int n) {
  constexpr int kBlocks = kLanes / kBlock;
  constexpr std::uint32_t kAll = (1u << kBlocks) - 1;
  // One call for every block from the first one missing (remaking a later one changes nothing).
  if (blocks_ != kAll) make_blocks(set, M, std::countr_one(blocks_), kBlocks);
  for (int i = 0; i < n; ++i)
    if (!(axes_ >> i & 1u)) search(set, i % 2, i / 2);
  axes_ = n >= 32 ? ~0u : (1u << n) - 1;  // the lanes past n are zeroed below
  for (int parity = 0; parity < 2; ++parity)
    for (int e = (n + 1 - parity) / 2; e < kLanes; ++e)
      for (int c = 0; c < 3; ++c) {
        j[parity][c][e] = 0;
        P[parity][c][e] = 0.0;
      }
}

}  // namespace kdopcd
#endif  // HWY_ONCE
