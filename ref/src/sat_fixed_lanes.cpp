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
