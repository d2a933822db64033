// The float pair test in SIMD lanes (sat_float_axes.hpp), compiled once per instruction set by
// Highway's foreach_target and chosen at run time (dynamic dispatch, as Highway's README
// recommends for a library that does not know the machine it will run on).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "sat_float_axes.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <array>
#include <bit>

#include "kdopcd/sat_float_axes.hpp"
#include "no_loop_to_memset.hpp"
#include "node_terms_cache.hpp"
#include "pair_lanes_order-inl.h"

HWY_BEFORE_NAMESPACE();
namespace kdopcd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The lanes [e0, e0 + N) of one parity whose axis separates the pair. `other` is the projected
// object's node, `own` the owning object's. Each lane runs separates_first_own (kFirstOwns) or
// separates_second_own with the same operations in the same order.
template <bool kFirstOwns, class D>
HWY_INLINE hn::Mask<D> separating_lanes(D d, const FloatAxisLanes& t, size_t e0, const double* other,
                                        const double* own) {
  const hn::RebindToSigned<D> di;
  (void)di;
  auto gather = [&](const double* base, const std::int64_t* index) { return gather_lanes(d, base, index, e0); };
  const auto P0 = hn::LoadU(d, t.P[0] + e0), P1 = hn::LoadU(d, t.P[1] + e0), P2 = hn::LoadU(d, t.P[2] + e0);
  auto lo = hn::Mul(P0, gather(other, t.j[0]));
  lo = hn::Add(lo, hn::Mul(P1, gather(other, t.j[1])));
  lo = hn::Add(lo, hn::Mul(P2, gather(other, t.j[2])));
  auto hi = hn::Mul(P0, gather(other, t.jk[0]));
  hi = hn::Add(hi, hn::Mul(P1, gather(other, t.jk[1])));
  hi = hn::Add(hi, hn::Mul(P2, gather(other, t.jk[2])));
  const auto other_min = lo, other_max = hn::Neg(hi);
  const auto p = hn::LoadU(d, t.p + e0);
  const auto zero = hn::Zero(d);
  hn::Vec<D> diff1, diff2;
  if constexpr (kFirstOwns) {
    diff1 = hn::Sub(hn::Add(other_min, p), gather(own, t.own_max));
    diff2 = hn::Sub(hn::Neg(gather(own, t.own_min)), hn::Add(other_max, p));
  } else {
    diff1 = hn::Sub(hn::Add(hn::Neg(gather(own, t.own_min)), p), other_max);
    diff2 = hn::Sub(other_min, hn::Add(gather(own, t.own_max), p));
  }
  const auto separated = hn::Or(hn::Gt(diff1, zero), hn::Gt(diff2, zero));
  return hn::And(separated, hn::FirstN(d, size_t(t.count) - e0));
}

// Every axis at once, blocks of each parity in axis order (pair_lanes_order-inl.h).
PairVerdict FloatPairTestLanesImpl(const FloatAxisTable& table, const double* a, const double* b) {
  // At most 4 lanes: 12 axes per parity fill 3 blocks of 4 exactly, where blocks of 8 leave a
  // third of the second block empty; on Zen 4 the 4-lane form was 1.25x faster than the 8-lane.
  const hn::CappedTag<double, 4> d;
  return first_separating_axis(
      d, size_t(table.even.count), size_t(table.odd.count), table.axes,
      [&](size_t e0) { return separating_lanes<true>(d, table.even, e0, a, b); },
      [&](size_t e0) { return separating_lanes<false>(d, table.odd, e0, b, a); });
}

// One node's half of lanes [e0, e0 + N) of one parity (FloatNodeTerms): the projected object's
// (kProjected) or the owning object's, of the second object (kSecond) or the first.
template <bool kSecond, bool kProjected, class D>
HWY_INLINE void node_half(D d, const FloatAxisLanes& t, size_t e0, const double* x, double* out1, double* out2) {
  auto gather = [&](const std::int64_t* index) { return gather_lanes(d, x, index, e0); };
  if constexpr (kProjected) {
    const auto P0 = hn::LoadU(d, t.P[0] + e0), P1 = hn::LoadU(d, t.P[1] + e0), P2 = hn::LoadU(d, t.P[2] + e0);
    auto lo = hn::Mul(P0, gather(t.j[0]));
    lo = hn::Add(lo, hn::Mul(P1, gather(t.j[1])));
    lo = hn::Add(lo, hn::Mul(P2, gather(t.j[2])));
    auto hi = hn::Mul(P0, gather(t.jk[0]));
    hi = hn::Add(hi, hn::Mul(P1, gather(t.jk[1])));
    hi = hn::Add(hi, hn::Mul(P2, gather(t.jk[2])));
    const auto x_min = lo, x_max = hn::Neg(hi);
    if constexpr (kSecond) {  // a_min + p, a_max + p
      const auto p = hn::LoadU(d, t.p + e0);
      hn::Store(hn::Add(x_min, p), d, out1 + e0);
      hn::Store(hn::Add(x_max, p), d, out2 + e0);
    } else {  // b_max, b_min
      hn::Store(x_max, d, out1 + e0);
      hn::Store(x_min, d, out2 + e0);
    }
  } else if constexpr (kSecond) {  // -a[own_min] + p, a[own_max] + p
    const auto p = hn::LoadU(d, t.p + e0);
    hn::Store(hn::Add(hn::Neg(gather(t.own_min)), p), d, out1 + e0);
    hn::Store(hn::Add(gather(t.own_max), p), d, out2 + e0);
  } else {  // b[own_max], -b[own_min]
    hn::Store(gather(t.own_max), d, out1 + e0);
    hn::Store(hn::Neg(gather(t.own_min)), d, out2 + e0);
  }
}

// FloatPairTestLanesImpl through the nodes' halves (FloatNodeTerms): of each node only the
// projected object's half is made and kept (the second node's even lanes, the first node's odd
// lanes), each block of lanes where missing when the test first reaches it (a pair separated in
// the first block makes only that block of a new node's half). The owning object's half is its
// own coefficients (and p), read where the test needs them: contiguous lanes where the table says
// so (own_max[e] = e, own_min[e] = e + half with blocks inside the node), else gathered.
HWY_INLINE PairVerdict float_pair_test_terms(const FloatAxisTable& table, const double* a, const double* b,
                                             FloatNodeTerms& ta, std::uint32_t& a_blocks, FloatNodeTerms& tb,
                                             std::uint32_t& b_blocks) {
  const hn::CappedTag<double, 4> d;
  const size_t N = hn::Lanes(d);
  const size_t even_count = size_t(table.even.count), odd_count = size_t(table.odd.count);
  const bool contiguous = table.own_contiguous;
  const size_t half = size_t(table.half);
  const auto zero = hn::Zero(d);
  // x[index[e]] for the lanes [e0, e0 + N): x + offset + e where contiguous.
  auto own = [&](const double* x, const std::int64_t* index, size_t offset, size_t e0) __attribute__((always_inline)) {
    return contiguous ? hn::LoadU(d, x + offset + e0) : gather_lanes(d, x, index, e0);
  };
  auto make_block = [&](size_t e0) __attribute__((always_inline)) {
    const std::uint32_t bit = std::uint32_t(1) << (e0 / N);
    if (!(a_blocks & bit)) {
      node_half<true, true>(d, table.even, e0, a, ta.even1, ta.even2);
      a_blocks |= bit;
    }
    if (!(b_blocks & bit)) {
      if (e0 < odd_count) node_half<false, true>(d, table.odd, e0, b, tb.odd1, tb.odd2);
      b_blocks |= bit;
    }
  };
  // diff1 = second.X1 - first.X1, diff2 = first.X2 - second.X2 (FloatNodeTerms), with the
  // owning object's X1, X2 of separates_first_own / separates_second_own.
  auto even_mask = [&](size_t e0) __attribute__((always_inline)) {
    const auto first1 = own(b, table.even.own_max, 0, e0);              // b[own_max]
    const auto first2 = hn::Neg(own(b, table.even.own_min, half, e0));  // -b[own_min]
    const auto diff1 = hn::Sub(hn::Load(d, ta.even1 + e0), first1);
    const auto diff2 = hn::Sub(first2, hn::Load(d, ta.even2 + e0));
    return hn::And(hn::Or(hn::Gt(diff1, zero), hn::Gt(diff2, zero)), hn::FirstN(d, even_count - e0));
  };
  auto odd_mask = [&](size_t e0) __attribute__((always_inline)) {
    const auto p = hn::LoadU(d, table.odd.p + e0);
    const auto second1 = hn::Add(hn::Neg(own(a, table.odd.own_min, half, e0)), p);  // -a[own_min] + p
    const auto second2 = hn::Add(own(a, table.odd.own_max, 0, e0), p);              // a[own_max] + p
    const auto diff1 = hn::Sub(second1, hn::Load(d, tb.odd1 + e0));
    const auto diff2 = hn::Sub(hn::Load(d, tb.odd2 + e0), second2);
    return hn::And(hn::Or(hn::Gt(diff1, zero), hn::Gt(diff2, zero)), hn::FirstN(d, odd_count - e0));
  };
  return first_separating_axis(d, even_count, odd_count, table.axes, even_mask, odd_mask, make_block);
}

// The table of the first n axes of a pose from their projected triples (make_float_axis_table's
// second form): lane e of a parity gets make_float_axis's fields of axis 2e + parity, lanes past
// the axes zeros, as the first form writes them. The owning object's triple of direction e is
// (e + half, ...) with P = (-1, 0, 0) (OrientationSet::own_direction_triple), and p = L . T with
// the operations of Eigen's dot in its order.
void FloatTableFromTriplesImpl(const ProjectedTripleLanes& t, const double* dirs, const double* T, int half, int n,
                               FloatAxisTable& out) {
  const hn::CappedTag<double, 4> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  constexpr size_t kSlots = ProjectedTripleLanes::kLanes;
  const auto H = hn::Set(di, half);
  const auto Tx = hn::Set(d, T[0]), Ty = hn::Set(d, T[1]), Tz = hn::Set(d, T[2]);
  out.axes = n;
  for (int parity = 0; parity < 2; ++parity) {
    FloatAxisLanes& lanes = parity == 0 ? out.even : out.odd;
    const size_t count = size_t(n + 1 - parity) / 2;
    lanes.count = int(count);
    // Even axes: L = D_e; odd axes: L = u.
    const double* Lx = parity == 0 ? dirs : t.u[1][0];
    const double* Ly = parity == 0 ? dirs + kSlots : t.u[1][1];
    const double* Lz = parity == 0 ? dirs + 2 * kSlots : t.u[1][2];
    size_t e0 = 0;
    for (; e0 < count; e0 += N) {
      const auto real = hn::FirstN(di, count - e0);
      for (int m = 0; m < 3; ++m) {
        const auto j = hn::Load(di, t.j[parity][m] + e0);  // 0 past the axes
        hn::Store(j, di, lanes.j[m] + e0);
        hn::Store(hn::IfThenElseZero(real, hn::IfThenElse(hn::Lt(j, H), hn::Add(j, H), hn::Sub(j, H))), di,
                  lanes.jk[m] + e0);
        hn::Store(hn::Load(d, t.P[parity][m] + e0), d, lanes.P[m] + e0);
      }
      const auto e = hn::Iota(di, int64_t(e0));
      hn::Store(hn::IfThenElseZero(real, hn::Add(e, H)), di, lanes.own_min + e0);
      hn::Store(hn::IfThenElseZero(real, e), di, lanes.own_max + e0);
      const auto p = hn::Add(hn::Add(hn::Mul(hn::LoadU(d, Lx + e0), Tx), hn::Mul(hn::LoadU(d, Ly + e0), Ty)),
                             hn::Mul(hn::LoadU(d, Lz + e0), Tz));
      hn::Store(hn::IfThenElseZero(hn::RebindMask(d, real), p), d, lanes.p + e0);
    }
    const auto zero_i = hn::Zero(di);
    const auto zero = hn::Zero(d);
    for (; e0 < kSlots; e0 += N) {  // past the axes
      for (int m = 0; m < 3; ++m) {
        hn::Store(zero_i, di, lanes.j[m] + e0);
        hn::Store(zero_i, di, lanes.jk[m] + e0);
        hn::Store(zero, d, lanes.P[m] + e0);
      }
      hn::Store(zero_i, di, lanes.own_min + e0);
      hn::Store(zero_i, di, lanes.own_max + e0);
      hn::Store(zero, d, lanes.p + e0);
    }
  }
}

PairVerdict FloatPairTestTermsImpl(const FloatAxisTable& table, const double* a, const double* b,
                                   FloatNodeTerms& ta, std::uint32_t& a_blocks, FloatNodeTerms& tb,
                                   std::uint32_t& b_blocks) {
  return float_pair_test_terms(table, a, b, ta, a_blocks, tb, b_blocks);
}

// The test of the node pair (nf, ns) of a query (FloatPairTestNodes): the halves from this
// thread's cache, all in one call.
PairVerdict FloatPairTestNodesImpl(const FloatPairTestContext& c, std::int32_t nf, std::int32_t ns) {
  auto& cache = detail::NodeTermsCache<FloatNodeTerms>::local();
  std::uint32_t *a_blocks, *b_blocks;
  FloatNodeTerms& ta = cache.find(1, c.query, ns, a_blocks);
  FloatNodeTerms& tb = cache.find(0, c.query, nf, b_blocks);
  return float_pair_test_terms(*c.table, c.second + std::size_t(ns) * c.k, c.first + std::size_t(nf) * c.k, ta,
                               *a_blocks, tb, *b_blocks);
}

// One node against up to kWideLanes nodes of the other tree in lanes (FloatPairTestWide). Per axis,
// in make_sat_setup's order: the other node's half as a scalar, the lanes' halves in blocks of the
// vector width, each with the operations of separates_first_own / separates_second_own in their
// order (diff1 = second.X1 - first.X1, diff2 = first.X2 - second.X2, as FloatNodeTerms), until
// every lane is separated. A lane separated at axis i adds i + 1 to axis_tests, one never
// separated the axis count.
template <bool kLanesFirst>
HWY_INLINE std::uint32_t wide_test(const FloatAxisTable& table, const double* lanes, int count, const double* o,
                                   WideOtherTerms& memo, std::uint64_t& axis_tests) {
  if (memo.node != o || memo.lanes_first != kLanesFirst) {
    memo.node = o;
    memo.lanes_first = kLanesFirst;
    memo.made = 0;
  }
  const hn::CappedTag<double, kWideLanes> d;
  using V = hn::Vec<decltype(d)>;
  using M = hn::Mask<decltype(d)>;
  constexpr size_t N = hn::MaxLanes(d);  // a fixed width on every x86 and Arm NEON target
  constexpr size_t kBlocks = kWideLanes / N;
  static_assert(kBlocks * N == kWideLanes);
  const hn::RebindToSigned<decltype(d)> di;
  const auto zero = hn::Zero(d);
  // Per block: the lanes separated so far (lanes past count from the start) and the axis count
  // each of them was separated at.
  M separated[kBlocks];
  V axes_at[kBlocks];
  for (size_t b = 0; b < kBlocks; ++b) {
    separated[b] = hn::Not(hn::RebindMask(d, hn::FirstN(di, size_t(count) > b * N ? size_t(count) - b * N : 0)));
    axes_at[b] = zero;
  }
  const int n = table.axes;
  for (int i = 0; i < n; ++i) {
    const bool even = i % 2 == 0;
    const FloatAxisLanes& t = even ? table.even : table.odd;
    const size_t e = size_t(i / 2);
    const bool lanes_own = even == kLanesFirst;  // the lanes' object owns axis i
    const double p = t.p[e];
    double o1, o2;  // the other node's X1, X2
    if (i < memo.made) {
      o1 = memo.x1[i];
      o2 = memo.x2[i];
    } else if (!lanes_own) {
      if constexpr (kLanesFirst) {  // the second node owns the odd axis: -a[own_min] + p, a[own_max] + p
        o1 = -o[t.own_min[e]] + p;
        o2 = o[t.own_max[e]] + p;
      } else {  // the first node owns the even axis: b[own_max], -b[own_min]
        o1 = o[t.own_max[e]];
        o2 = -o[t.own_min[e]];
      }
    } else {
      const double lo = t.P[0][e] * o[t.j[0][e]] + t.P[1][e] * o[t.j[1][e]] + t.P[2][e] * o[t.j[2][e]];
      const double hi = -(t.P[0][e] * o[t.jk[0][e]] + t.P[1][e] * o[t.jk[1][e]] + t.P[2][e] * o[t.jk[2][e]]);
      if constexpr (kLanesFirst) {  // the second node projected on an even axis: a_min + p, a_max + p
        o1 = lo + p;
        o2 = hi + p;
      } else {  // the first node projected on an odd axis: b_max, b_min
        o1 = hi;
        o2 = lo;
      }
    }
    if (i >= memo.made) {
      memo.x1[i] = o1;
      memo.x2[i] = o2;
      memo.made = i + 1;
    }
    const V O1 = hn::Set(d, o1), O2 = hn::Set(d, o2), axis_count = hn::Set(d, double(i + 1));
    bool all = true;
    for (size_t b = 0; b < kBlocks; ++b) {
      const double* c = lanes + b * N;  // face f of these lanes at c + f * kWideLanes
      auto face = [&](std::int64_t f) { return hn::LoadU(d, c + size_t(f) * kWideLanes); };
      V x1, x2;
      if (lanes_own) {
        const V cmin = face(t.own_min[e]), cmax = face(t.own_max[e]);
        if constexpr (kLanesFirst) {  // b[own_max], -b[own_min]
          x1 = cmax;
          x2 = hn::Neg(cmin);
        } else {  // -a[own_min] + p, a[own_max] + p
          const V P = hn::Set(d, p);
          x1 = hn::Add(hn::Neg(cmin), P);
          x2 = hn::Add(cmax, P);
        }
      } else {
        const V P0 = hn::Set(d, t.P[0][e]), P1 = hn::Set(d, t.P[1][e]), P2 = hn::Set(d, t.P[2][e]);
        V lo = hn::Mul(P0, face(t.j[0][e]));
        lo = hn::Add(lo, hn::Mul(P1, face(t.j[1][e])));
        lo = hn::Add(lo, hn::Mul(P2, face(t.j[2][e])));
        V hi = hn::Mul(P0, face(t.jk[0][e]));
        hi = hn::Add(hi, hn::Mul(P1, face(t.jk[1][e])));
        hi = hn::Add(hi, hn::Mul(P2, face(t.jk[2][e])));
        hi = hn::Neg(hi);
        if constexpr (kLanesFirst) {  // b_max, b_min
          x1 = hi;
          x2 = lo;
        } else {  // a_min + p, a_max + p
          const V P = hn::Set(d, p);
          x1 = hn::Add(lo, P);
          x2 = hn::Add(hi, P);
        }
      }
      M sep;
      if constexpr (kLanesFirst) sep = hn::Or(hn::Gt(hn::Sub(O1, x1), zero), hn::Gt(hn::Sub(x2, O2), zero));
      else sep = hn::Or(hn::Gt(hn::Sub(x1, O1), zero), hn::Gt(hn::Sub(O2, x2), zero));
      axes_at[b] = hn::IfThenElse(hn::AndNot(separated[b], sep), axis_count, axes_at[b]);
      separated[b] = hn::Or(separated[b], sep);
      all = all && hn::AllTrue(d, separated[b]);
    }
    if (all) break;
  }
  // The lanes never separated tested every axis; the sum over the first `count` lanes.
  std::uint32_t overlapping = 0;
  double tested = 0;
  const V all_axes = hn::Set(d, double(n));
  for (size_t b = 0; b < kBlocks; ++b) {
    HWY_ALIGN double at[N];
    hn::Store(hn::IfThenElse(separated[b], axes_at[b], all_axes), d, at);
    for (size_t l = 0; l < N && b * N + l < size_t(count); ++l) tested += at[l];
    std::uint8_t bits[8] = {};
    hn::StoreMaskBits(d, hn::Not(separated[b]), bits);
    overlapping |= std::uint32_t(bits[0]) << (b * N);
  }
  axis_tests += std::uint64_t(tested);
  return overlapping & ((1u << count) - 1);
}

std::uint32_t FloatPairTestWideImpl(const FloatAxisTable& table, const double* lanes, int count, bool lanes_first,
                                    const double* other, WideOtherTerms& other_terms, std::uint64_t& axis_tests) {
  return lanes_first ? wide_test<true>(table, lanes, count, other, other_terms, axis_tests)
                     : wide_test<false>(table, lanes, count, other, other_terms, axis_tests);
}

std::int64_t FloatPairTestTargetImpl() { return HWY_TARGET; }

}  // namespace HWY_NAMESPACE
}  // namespace kdopcd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kdopcd {

namespace {
// The test reads a parity's lanes up to the next multiple of its vector's lanes past the axes
// (at most 4 lanes, FloatPairTestLanesImpl; at most 13 axes per parity), so 16 filled slots cover
// every k; filling all kFloatAxisSlots was a noticeable part of a query's set-up.
constexpr int kFilledSlots = 16;
static_assert(kFilledSlots <= kFloatAxisSlots);
}  // namespace

HWY_EXPORT(FloatPairTestLanesImpl);
HWY_EXPORT(FloatPairTestTargetImpl);
HWY_EXPORT(FloatPairTestTermsImpl);
HWY_EXPORT(FloatPairTestNodesImpl);
HWY_EXPORT(FloatPairTestWideImpl);
HWY_EXPORT(FloatTableFromTriplesImpl);
static_assert(kFilledSlots == ProjectedTripleLanes::kLanes, "the table's filled lanes are the triples' lanes");

namespace {
constexpr std::array<double, 3> kOwnDirectionP{-1.0, 0.0, 0.0};
}  // namespace

bool make_float_axis(const AxisSetup& ax, int index, int half, FloatAxis& out) {
  const bool first_is_own = index % 2 == 0;
  if ((first_is_own ? ax.PB : ax.PA) != kOwnDirectionP) return false;
  const auto& own_j = first_is_own ? ax.jB : ax.jA;
  const auto& other_j = first_is_own ? ax.jA : ax.jB;
  const auto& other_P = first_is_own ? ax.PA : ax.PB;
  out.own_min = own_j[0];
  out.own_max = opposite_face(own_j[0], half);
  for (int i = 0; i < 3; ++i) {
    out.j[i] = other_j[i];
    out.jk[i] = opposite_face(other_j[i], half);
    out.P[i] = other_P[i];
  }
  out.p = ax.p;
  return true;
}

void make_float_axis(const OrientationSet& set, const Mat3& M, const Vec3& T, int index, FloatAxis& out) {
  const int half = set.half();
  const ProjectedTriple projected = make_projected_triple(set, M, index);
  const int own = set.own_direction_triple(index / 2).j[0];  // its P is (-1, 0, 0)
  out.own_min = own;
  out.own_max = opposite_face(own, half);
  for (int i = 0; i < 3; ++i) {
    out.j[i] = projected.triple.j[i];
    out.jk[i] = opposite_face(projected.triple.j[i], half);
    out.P[i] = projected.triple.P[i];
  }
  out.p = projected.L.dot(T);
}

void make_float_axis(const OrientationSet& set, const ProjectedTripleLanes& projected, const Vec3& T, int index,
                     FloatAxis& out) {
  const int half = set.half(), e = index / 2, parity = index % 2;
  const int own = set.own_direction_triple(e).j[0];  // its P is (-1, 0, 0)
  out.own_min = own;
  out.own_max = opposite_face(own, half);
  for (int i = 0; i < 3; ++i) {
    out.j[i] = int(projected.j[parity][i][e]);
    out.jk[i] = opposite_face(out.j[i], half);
    out.P[i] = projected.P[parity][i][e];
  }
  out.p = projected.L(set, index).dot(T);
}

namespace {

// The padding lanes [from, kFilledSlots), in a loop of their own: without a select per field in
// the axes' loop. It is kept a loop: as the memset calls g++ makes of it otherwise (one per
// field, twelve per parity) it cost more than the stores.
KDOPCD_NO_LOOP_TO_MEMSET void pad_lanes(FloatAxisLanes& lanes, int from) {
  for (int e = from; e < kFilledSlots; ++e) {
    for (int m = 0; m < 3; ++m) {
      lanes.j[m][e] = 0;
      lanes.jk[m][e] = 0;
      lanes.P[m][e] = 0.0;
    }
    lanes.own_min[e] = 0;
    lanes.own_max[e] = 0;
    lanes.p[e] = 0.0;
  }
}

}  // namespace

void make_float_axis_table(std::span<const FloatAxis> axes, int n, FloatAxisTable& out) {
  out.axes = n;
  // The owning object's lanes are contiguous if every axis has make_sat_setup's own triple and
  // whole blocks of 4 lanes stay inside the node (k/2 a multiple of 4).
  const int half = n > 0 ? axes[0].own_min - axes[0].own_max : 0;
  bool contiguous = half > 0 && half % 4 == 0;
  for (int i = 0; i < n; ++i)
    contiguous &= axes[std::size_t(i)].own_max == i / 2 && axes[std::size_t(i)].own_min == i / 2 + half;
  out.half = half;
  out.own_contiguous = contiguous;
  for (int parity = 0; parity < 2; ++parity) {
    FloatAxisLanes& lanes = parity == 0 ? out.even : out.odd;
    lanes.count = (n + 1 - parity) / 2;
    int e = 0;
    for (; e < lanes.count; ++e) {
      const FloatAxis& f = axes[std::size_t(2 * e + parity)];
      for (int m = 0; m < 3; ++m) {
        lanes.j[m][e] = f.j[m];
        lanes.jk[m][e] = f.jk[m];
        lanes.P[m][e] = f.P[m];
      }
      lanes.own_min[e] = f.own_min;
      lanes.own_max[e] = f.own_max;
      lanes.p[e] = f.p;
    }
    pad_lanes(lanes, e);
  }
}

void make_float_axis_table(const OrientationSet& set, const ProjectedTripleLanes& projected, const Vec3& T, int n,
                           FloatAxisTable& out) {
  const double t[3] = {T.x(), T.y(), T.z()};
  HWY_DYNAMIC_DISPATCH(FloatTableFromTriplesImpl)(projected, set.half_direction_lanes(), t, set.half(), n, out);
  out.half = set.half();
  out.own_contiguous = set.half() % 4 == 0;  // own_max[e] = e, own_min[e] = e + half
}

FloatPairTestLanes float_pair_test_lanes() {
  // Until a target is chosen the table's entry is a trampoline that would choose again on every
  // call through a kept pointer.
  if (!hwy::GetChosenTarget().IsInitialized()) hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return &HWY_DYNAMIC_DISPATCH(FloatPairTestLanesImpl);
}

FloatPairTestTerms float_pair_test_terms() {
  if (!hwy::GetChosenTarget().IsInitialized()) hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return &HWY_DYNAMIC_DISPATCH(FloatPairTestTermsImpl);
}

FloatPairTestNodes float_pair_test_nodes() {
  if (!hwy::GetChosenTarget().IsInitialized()) hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return &HWY_DYNAMIC_DISPATCH(FloatPairTestNodesImpl);
}

FloatPairTestWide float_pair_test_wide() {
  if (!hwy::GetChosenTarget().IsInitialized()) hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return &HWY_DYNAMIC_DISPATCH(FloatPairTestWideImpl);
}

const char* float_pair_test_target() {
  return hwy::TargetName(HWY_DYNAMIC_DISPATCH(FloatPairTestTargetImpl)());
}

}  // namespace kdopcd
#endif  // HWY_ONCE
