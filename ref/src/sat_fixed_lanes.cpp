// The fixed-point pair test in SIMD lanes (sat_fixed_lanes.hpp), compiled once per instruction
// set by Highway's foreach_target and chosen at run time, as sat_float_axes.cpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "sat_fixed_lanes.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>

#include "kdopcd/sat_fixed_lanes.hpp"
#include "pair_lanes_order-inl.h"

HWY_BEFORE_NAMESPACE();
namespace kdopcd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// P'_i x'_i per lane. Where the table says both factors fit in 32 bits (FixedAxisTable::
// products32), x86 multiplies the low halves of the 64-bit lanes into exact 64-bit products in
// one instruction (MulEven of int32: even int32 lanes are the low halves on little-endian x86);
// a full 64-bit lane product has no instruction before AVX-512 and is emulated with three.
// Both give the same integer.
template <bool kProducts32, class D, class V>
HWY_INLINE V lane_products(D d, V P, V x) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSE4
  if constexpr (kProducts32) {
    const hn::Repartition<std::int32_t, D> d32;
    return hn::MulEven(hn::BitCast(d32, P), hn::BitCast(d32, x));
  }
#endif
  (void)d;
  return hn::Mul(P, x);
}

// P'.x' + sn(x') over the triple `index` of lanes [e0, e0 + N) of one parity, x the projected node.
template <bool kProducts32, class D>
HWY_INLINE hn::Vec<D> mapped_lanes(D d, const FixedAxisLanes& t, size_t e0, const std::int64_t* x,
                                   const std::int64_t (*index)[kFixedAxisSlots]) {
  const auto zero = hn::Zero(d);
  auto sum = zero;
  for (int m = 0; m < 3; ++m) {
    const auto v = gather_lanes(d, x, index[m], e0);
    sum = hn::Add(sum, hn::Add(lane_products<kProducts32>(d, hn::LoadU(d, t.P[m] + e0), v), hn::Min(v, zero)));
  }
  return sum;
}

// The lanes [e0, e0 + N) of one parity whose axis separates the pair.
template <bool kProducts32, class D>
HWY_INLINE hn::Mask<D> separating_lanes(D d, const FixedAxisLanes& t, size_t e0, const std::int64_t* other,
                                        const std::int64_t* own) {
  const auto zero = hn::Zero(d);
  auto gather = [&](const std::int64_t* base, const std::int64_t* index) {
    return gather_lanes(d, base, index, e0);
  };
  auto mapped = [&](const std::int64_t (*index)[kFixedAxisSlots]) {
    return mapped_lanes<kProducts32>(d, t, e0, other, index);
  };
  const auto own1 = gather(own, t.own1);
  const auto own2 = gather(own, t.own2);
  const auto diff1 = hn::Add(hn::Add(mapped(t.j), own1), hn::LoadU(d, t.p1 + e0));
  const auto diff2 = hn::Sub(hn::Add(own2, mapped(t.jk)), hn::LoadU(d, t.p2 + e0));
  const auto separated = hn::Or(hn::Gt(diff1, zero), hn::Gt(diff2, zero));
  return hn::And(separated, hn::FirstN(d, size_t(t.count) - e0));
}

// Every axis at once, blocks of each parity in axis order (pair_lanes_order-inl.h).
template <bool kProducts32>
HWY_INLINE PairVerdict fixed_pair_test_lanes_of(const FixedAxisTable& table, const std::int64_t* a,
                                                const std::int64_t* b, const std::int64_t* oa, const std::int64_t* ob) {
  const hn::CappedTag<std::int64_t, 4> d;  // 4 lanes, as the float test
  return first_separating_axis(
      d, size_t(table.even.count), size_t(table.odd.count), table.axes,
      [&](size_t e0) { return separating_lanes<kProducts32>(d, table.even, e0, a, ob); },
      [&](size_t e0) { return separating_lanes<kProducts32>(d, table.odd, e0, b, oa); });
}

PairVerdict FixedPairTestLanesImpl(const FixedAxisTable& table, const std::int64_t* a, const std::int64_t* b,
                                   const std::int64_t* oa, const std::int64_t* ob) {
  return table.products32 ? fixed_pair_test_lanes_of<true>(table, a, b, oa, ob)
                          : fixed_pair_test_lanes_of<false>(table, a, b, oa, ob);
}

// One node's half of lanes [e0, e0 + N) of one parity (FixedNodeTerms): the projected object's
// (kProjected: from its coefficients x) or the owning object's (from its own terms).
template <bool kProducts32, bool kProjected, class D>
HWY_INLINE void node_half(D d, const FixedAxisLanes& t, size_t e0, const std::int64_t* x, const std::int64_t* own,
                          std::int64_t* out1, std::int64_t* out2) {
  auto gather = [&](const std::int64_t* base, const std::int64_t* index) {
    return gather_lanes(d, base, index, e0);
  };
  if constexpr (kProjected) {
    auto mapped = [&](const std::int64_t (*index)[kFixedAxisSlots]) {
      return mapped_lanes<kProducts32>(d, t, e0, x, index);
    };
    hn::Store(hn::Add(mapped(t.j), hn::LoadU(d, t.p1 + e0)), d, out1 + e0);
    hn::Store(hn::Sub(mapped(t.jk), hn::LoadU(d, t.p2 + e0)), d, out2 + e0);
  } else {
    hn::Store(gather(own, t.own1), d, out1 + e0);
    hn::Store(gather(own, t.own2), d, out2 + e0);
  }
}

// fixed_pair_test_lanes_of through the nodes' halves, each block of lanes made where missing
// when the test first reaches it, as FloatPairTestTermsImpl.
template <bool kProducts32>
HWY_INLINE PairVerdict fixed_pair_test_terms_of(const FixedAxisTable& table, const std::int64_t* a,
                                                const std::int64_t* b, const std::int64_t* oa, const std::int64_t* ob,
                                                FixedNodeTerms& ta, std::uint32_t& a_blocks, FixedNodeTerms& tb,
                                                std::uint32_t& b_blocks) {
  const hn::CappedTag<std::int64_t, 4> d;
  const size_t N = hn::Lanes(d);
  const size_t even_count = size_t(table.even.count), odd_count = size_t(table.odd.count);
  auto make_block = [&](size_t e0) {
    const std::uint32_t bit = std::uint32_t(1) << (e0 / N);
    if (!(a_blocks & bit)) {
      node_half<kProducts32, true>(d, table.even, e0, a, oa, ta.even1, ta.even2);
      if (e0 < odd_count) node_half<kProducts32, false>(d, table.odd, e0, a, oa, ta.odd1, ta.odd2);
      a_blocks |= bit;
    }
    if (!(b_blocks & bit)) {
      node_half<kProducts32, false>(d, table.even, e0, b, ob, tb.even1, tb.even2);
      if (e0 < odd_count) node_half<kProducts32, true>(d, table.odd, e0, b, ob, tb.odd1, tb.odd2);
      b_blocks |= bit;
    }
  };
  // Integer sums: diff = second.X + first.X (FixedNodeTerms).
  auto sum = [](auto s, auto f) { return hn::Add(s, f); };
  return first_separating_axis_of_halves(d, even_count, odd_count, table.axes, ta, tb, sum, sum, make_block);
}

PairVerdict FixedPairTestTermsImpl(const FixedAxisTable& table, const std::int64_t* a, const std::int64_t* b,
                                   const std::int64_t* oa, const std::int64_t* ob, FixedNodeTerms& ta,
                                   std::uint32_t& a_blocks, FixedNodeTerms& tb, std::uint32_t& b_blocks) {
  return table.products32 ? fixed_pair_test_terms_of<true>(table, a, b, oa, ob, ta, a_blocks, tb, b_blocks)
                          : fixed_pair_test_terms_of<false>(table, a, b, oa, ob, ta, a_blocks, tb, b_blocks);
}

// The table of the first n axes of a pose on the own-structured path, from their projected
// triples (make_fixed_axis_table's second form), all but the p terms: lane e of a parity gets the
// fields make_fixed_axis_table writes for axis 2e + parity (the projected object's faces and P'
// quantized at c, floor(P 2^c); the owning object's own terms' indices), lanes past the axes 0.
// p_out[parity][e] gets the axis's p = L . T_c (Eigen's dot, in its order); where
// quantize_scaled_offset's fast path decides p' (ok[parity][e] all ones), the lanes get its p
// terms (narrow_fixed_p_terms with e = b + c - z, |p'| <= 2^(z+2)), else ok 0 and the caller
// works them out (*any_undecided says whether any lane is left to it). Blocks past the axes get zeros only. Returns min(P') over the lanes (for
// products32).
int64_t FixedTableFromTriplesImpl(const ProjectedTripleLanes& t, const double* dirs, const double* Tc, double s,
                                  int c, int z, int e_shift, int half, int n, FixedAxisTable& out, double* p_out,
                                  int64_t* ok, bool* any_undecided) {
  const hn::CappedTag<double, 4> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  constexpr size_t kSlots = ProjectedTripleLanes::kLanes;
  const auto H = hn::Set(di, half);
  const auto Tx = hn::Set(d, Tc[0]), Ty = hn::Set(d, Tc[1]), Tz = hn::Set(d, Tc[2]);
  const auto scale_c = hn::Set(d, times_pow2(1.0, c)), scale_z = hn::Set(d, times_pow2(1.0, z));
  const auto S = hn::Set(d, s);
  const auto four = hn::Set(d, 4.0), minus_four = hn::Set(d, -4.0), big = hn::Set(d, 0x1p60);
  // An integral double x with |x| < 2^51 as an int64: x + 1.5 2^52 is exact and holds x in its low
  // mantissa bits (one add and one subtract; AVX2 has no conversion to int64 and emulates it).
  const auto magic = hn::Set(d, 0x1.8p52);
  const auto magic_bits = hn::BitCast(di, magic);
  auto to_int64 = [&](hn::Vec<decltype(d)> x) { return hn::Sub(hn::BitCast(di, hn::Add(x, magic)), magic_bits); };
  auto min_P = hn::Zero(di);
  auto all_decided = hn::Set(di, -1);  // all ones while every real lane's p' is decided
  out.axes = n;
  for (int parity = 0; parity < 2; ++parity) {
    FixedAxisLanes& lanes = parity == 0 ? out.even : out.odd;
    const size_t count = size_t(n + 1 - parity) / 2;
    lanes.count = int(count);
    const double* Lx = parity == 0 ? dirs : t.u[1][0];
    const double* Ly = parity == 0 ? dirs + kSlots : t.u[1][1];
    const double* Lz = parity == 0 ? dirs + 2 * kSlots : t.u[1][2];
    size_t e0 = 0;
    for (; e0 < count; e0 += N) {
      const auto real = hn::FirstN(di, count - e0);
      for (int m = 0; m < 3; ++m) {
        const auto j = hn::Load(di, t.j[parity][m] + e0);  // 0 past the axes
        const auto opposite = hn::IfThenElseZero(real, hn::IfThenElse(hn::Lt(j, H), hn::Add(j, H), hn::Sub(j, H)));
        // Even lanes: j = jA, jk = jA's opposite; odd lanes (diff1 reads b'k): j = jB's opposite, jk = jB.
        hn::Store(parity == 0 ? j : opposite, di, lanes.j[m] + e0);
        hn::Store(parity == 0 ? opposite : j, di, lanes.jk[m] + e0);
        // P in [-1, 0], c <= 44: P' in [-2^44, 0].
        const auto P = to_int64(hn::Floor(hn::Mul(hn::Load(d, t.P[parity][m] + e0), scale_c)));
        min_P = hn::Min(min_P, P);
        hn::Store(P, di, lanes.P[m] + e0);
      }
      const auto i = hn::Add(hn::ShiftLeft<1>(hn::Iota(di, int64_t(e0))), hn::Set(di, parity));  // the axis
      hn::Store(hn::IfThenElseZero(real, parity == 0 ? hn::Add(i, hn::Set(di, 1)) : hn::Sub(i, hn::Set(di, 1))), di,
                lanes.own1 + e0);
      hn::Store(hn::IfThenElseZero(real, i), di, lanes.own2 + e0);
      // p and quantize_scaled_offset's fast path (sat_fixed.hpp), lane by lane.
      const auto p = hn::Add(hn::Add(hn::Mul(hn::LoadU(d, Lx + e0), Tx), hn::Mul(hn::LoadU(d, Ly + e0), Ty)),
                             hn::Mul(hn::LoadU(d, Lz + e0), Tz));
      const auto q = hn::Div(p, S);
      const auto v = hn::Mul(hn::IfThenElse(hn::Gt(q, four), four, hn::IfThenElse(hn::Lt(q, minus_four), minus_four, q)),
                             scale_z);
      const auto bound = hn::Add(hn::Mul(hn::Mul(hn::Set(d, 0x1p-50), hn::Abs(q)), scale_z), hn::Set(d, 0x1p-1000));
      const auto in_range = hn::And(hn::Gt(v, hn::Neg(big)), hn::Lt(v, big));  // false for NaN
      const auto m = hn::Floor(hn::IfThenElseZero(in_range, v));
      const auto fraction = hn::Sub(v, m);
      const auto decided = hn::And(in_range, hn::And(hn::Gt(fraction, bound), hn::Lt(fraction, hn::Sub(hn::Set(d, 1.0), bound))));
      const size_t at = size_t(parity) * kSlots + e0;
      hn::Store(p, d, p_out + at);
      const auto decided_lanes = hn::VecFromMask(di, hn::RebindMask(di, decided));
      hn::Store(decided_lanes, di, ok + at);
      all_decided = hn::And(all_decided, hn::Or(decided_lanes, hn::VecFromMask(di, hn::Not(real))));
      // p1 = p' 2^e, p2 = (p' + 1) 2^e, or floor / ceil of them for e < 0 (arithmetic shifts).
      const auto pq = to_int64(m);  // p': |m| <= 2^(z+2) <= 2^46, or 0 out of range
      const auto q_high = hn::Add(pq, hn::Set(di, 1));
      const auto p1 = e_shift >= 0 ? hn::ShiftLeftSame(pq, e_shift) : hn::ShiftRightSame(pq, -e_shift);
      const auto p2 = e_shift >= 0 ? hn::ShiftLeftSame(q_high, e_shift)
                                   : hn::Neg(hn::ShiftRightSame(hn::Neg(q_high), -e_shift));
      hn::Store(hn::IfThenElseZero(real, p1), di, lanes.p1 + e0);
      hn::Store(hn::IfThenElseZero(real, p2), di, lanes.p2 + e0);
    }
    const auto zero_i = hn::Zero(di);
    for (; e0 < kSlots; e0 += N) {  // past the axes
      for (int m = 0; m < 3; ++m) {
        hn::Store(zero_i, di, lanes.j[m] + e0);
        hn::Store(zero_i, di, lanes.jk[m] + e0);
        hn::Store(zero_i, di, lanes.P[m] + e0);
      }
      hn::Store(zero_i, di, lanes.own1 + e0);
      hn::Store(zero_i, di, lanes.own2 + e0);
      hn::Store(zero_i, di, lanes.p1 + e0);
      hn::Store(zero_i, di, lanes.p2 + e0);
    }
  }
  *any_undecided = !hn::AllTrue(di, hn::MaskFromVec(all_decided));
  return hn::GetLane(hn::MinOfLanes(di, min_P));
}

}  // namespace HWY_NAMESPACE
}  // namespace kdopcd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kdopcd {

namespace {
// The test reads a parity's lanes up to the next multiple of its vector's lanes past the axes
// (at most 4 lanes, FixedPairTestLanesImpl; at most 13 axes per parity), so 16 filled slots cover
// every k; filling all kFixedAxisSlots was a noticeable part of a query's set-up.
constexpr int kFilledSlots = 16;
static_assert(kFilledSlots <= kFixedAxisSlots);
}  // namespace

HWY_EXPORT(FixedPairTestLanesImpl);
HWY_EXPORT(FixedPairTestTermsImpl);
HWY_EXPORT(FixedTableFromTriplesImpl);
static_assert(kFilledSlots == ProjectedTripleLanes::kLanes, "the table's filled lanes are the triples' lanes");

void make_fixed_axis_table(std::span<const NarrowFixedAxis> axes, int n, int b, FixedAxisTable& out) {
  out.axes = n;
  // The other object's coefficients are in [-2^b, 2^b] (quantize_coefficient); each P' is checked.
  constexpr std::int64_t kLow32 = -(std::int64_t(1) << 31), kHigh32 = (std::int64_t(1) << 31) - 1;
  bool fits = b >= 0 && b <= 30;
  for (int parity = 0; parity < 2; ++parity) {
    FixedAxisLanes& lanes = parity == 0 ? out.even : out.odd;
    lanes.count = (n + 1 - parity) / 2;
    for (int e = 0; e < kFilledSlots; ++e) {
      const bool real = e < lanes.count;
      const int i = 2 * e + parity;
      static const NarrowFixedAxis kPadding{};  // read by reference: copying an axis per lane cost more
      const NarrowFixedAxis& ax = real ? axes[std::size_t(i)] : kPadding;
      for (int m = 0; m < 3; ++m) {
        lanes.j[m][e] = real ? (parity == 0 ? ax.ja[m] : ax.jbk[m]) : 0;
        lanes.jk[m][e] = real ? (parity == 0 ? ax.jak[m] : ax.jb[m]) : 0;
        lanes.P[m][e] = real ? (parity == 0 ? ax.PA[m] : ax.PB[m]) : 0;
        fits &= lanes.P[m][e] >= kLow32 && lanes.P[m][e] <= kHigh32;
      }
      lanes.own1[e] = real ? (parity == 0 ? i + 1 : i - 1) : 0;
      lanes.own2[e] = real ? i : 0;
      lanes.p1[e] = real ? ax.p1 : 0;
      lanes.p2[e] = real ? ax.p2 : 0;
    }
  }
  out.products32 = fits;
}

void make_fixed_axis_table(const OrientationSet& set, const ProjectedTripleLanes& projected, const Vec3& Tc, double s,
                           const FixedParams& f, int n, FixedAxisTable& out) {
  constexpr int L = ProjectedTripleLanes::kLanes;
  alignas(64) double p[2 * L];  // HWY_ALIGN here is the last target's alignment, not the widest
  alignas(64) std::int64_t decided[2 * L];
  const double tc[3] = {Tc.x(), Tc.y(), Tc.z()};
  bool any_undecided = false;
  const std::int64_t min_P = HWY_DYNAMIC_DISPATCH(FixedTableFromTriplesImpl)(
      projected, set.half_direction_lanes(), tc, s, f.c, f.z, f.b + f.c - f.z, set.half(), n, out, p, decided,
      &any_undecided);
  // The lanes whose p' quantize_scaled_offset's fast path left undecided: its exact path, and
  // narrow_fixed_p_terms of that p' (|p'| <= 2^(z+2) as quantize_offset clamps it).
  for (int parity = 0; any_undecided && parity < 2; ++parity) {
    FixedAxisLanes& lanes = parity == 0 ? out.even : out.odd;
    for (int lane = 0; lane < lanes.count; ++lane)
      if (!decided[parity * L + lane])
        narrow_fixed_p_terms(quantize_offset(scale_offset(p[parity * L + lane], s), f.z), f, lanes.p1[lane],
                             lanes.p2[lane]);
  }
  // As make_fixed_axis_table: coefficients in [-2^b, 2^b] and every P' (in [-2^c, 0]) in int32.
  out.products32 = f.b >= 0 && f.b <= 30 && min_P >= -(std::int64_t(1) << 31);
}

FixedPairTestLanes fixed_pair_test_lanes() {
  // Until a target is chosen the table's entry is a trampoline that would choose again on every
  // call through a kept pointer.
  if (!hwy::GetChosenTarget().IsInitialized()) hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return &HWY_DYNAMIC_DISPATCH(FixedPairTestLanesImpl);
}

FixedPairTestTerms fixed_pair_test_terms() {
  if (!hwy::GetChosenTarget().IsInitialized()) hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return &HWY_DYNAMIC_DISPATCH(FixedPairTestTermsImpl);
}

}  // namespace kdopcd
#endif  // HWY_ONCE
