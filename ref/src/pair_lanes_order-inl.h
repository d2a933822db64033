// What the SIMD pair tests (sat_float_axes.cpp, sat_fixed_lanes.cpp) share: the gathered lane
// loads, and the axis order, in one place:
// even lane e is axis 2e, odd lane e axis 2e + 1, so a block of N lanes of each parity covers axes
// [2 e0, 2 (e0 + N)). The blocks are tested in axis order and the loop stops at the first block
// holding a separating axis, whose axis is the smaller of the two parities' first separating
// lanes: the first separating axis of the scalar loop, which stops at the axis itself.
//
// Included once per Highway target from inside the files' per-target part (Highway's "-inl.h"
// convention: the include guard toggles with HWY_TARGET_TOGGLE).
#if defined(KDOPCD_PAIR_LANES_ORDER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KDOPCD_PAIR_LANES_ORDER_INL_H_
#undef KDOPCD_PAIR_LANES_ORDER_INL_H_
#else
#define KDOPCD_PAIR_LANES_ORDER_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kdopcd/traversal.hpp"

HWY_BEFORE_NAMESPACE();
namespace kdopcd {
namespace HWY_NAMESPACE {

// base[index[e0 + i]] in lane i: through memory, lane by lane, rather than the gather
// instruction, which made the whole query 1.4x slower on Zen 4 (g++ builds the lanes with scalar
// loads and inserts).
template <class D, class T>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<D> gather_lanes(D d, const T* base, const std::int64_t* index, std::size_t e0) {
  namespace hn = hwy::HWY_NAMESPACE;
  HWY_ALIGN T lanes[hn::MaxLanes(d)];
  for (std::size_t i = 0; i < hn::Lanes(d); ++i) lanes[i] = base[index[e0 + i]];
  return hn::Load(d, lanes);
}

// even_mask(e0) / odd_mask(e0): the separating lanes [e0, e0 + N) of each parity (padding lanes
// masked off); even_count >= odd_count lanes; `axes` the axis count of a pair no axis separates.
// before_block(e0), if given, runs before the two masks of a block (to make what they read).
template <class D, class EvenMask, class OddMask, class BeforeBlock = std::nullptr_t>
HWY_INLINE PairVerdict first_separating_axis(D d, std::size_t even_count, std::size_t odd_count, int axes,
                                             const EvenMask& even_mask, const OddMask& odd_mask,
                                             const BeforeBlock& before_block = nullptr) {
  namespace hn = hwy::HWY_NAMESPACE;
  const std::size_t N = hn::Lanes(d);
  for (std::size_t e0 = 0; e0 < even_count; e0 += N) {
    if constexpr (!std::is_null_pointer_v<BeforeBlock>) before_block(e0);
    const intptr_t even = hn::FindFirstTrue(d, even_mask(e0));
    const intptr_t odd = e0 < odd_count ? hn::FindFirstTrue(d, odd_mask(e0)) : -1;
    if (even >= 0 || odd >= 0) {
      int axis = 2 * int(even_count + N) + 2;  // past every real axis
      if (even >= 0) axis = 2 * int(e0 + std::size_t(even));
      if (odd >= 0) axis = std::min(axis, 2 * int(e0 + std::size_t(odd)) + 1);
      return {true, axis + 1};
    }
  }
  return {false, axes};
}

// The test through two nodes' halves (FloatNodeTerms, FixedNodeTerms: the same members): lane e of
// a parity separates iff diff1(second.X1, first.X1) > 0 or diff2(second.X2, first.X2) > 0, for
// the vectors of lanes [e0, e0 + N). make_block(e0) makes what block e0 of either half lacks.
template <class D, class Terms, class Diff1, class Diff2, class MakeBlock>
HWY_INLINE PairVerdict first_separating_axis_of_halves(D d, std::size_t even_count, std::size_t odd_count, int axes,
                                                       const Terms& second, const Terms& first, const Diff1& diff1,
                                                       const Diff2& diff2, const MakeBlock& make_block) {
  namespace hn = hwy::HWY_NAMESPACE;
  const auto zero = hn::Zero(d);
  auto separating = [&](const auto* s1, const auto* s2, const auto* f1, const auto* f2, std::size_t e0,
                        std::size_t count) {
    const auto d1 = diff1(hn::Load(d, s1 + e0), hn::Load(d, f1 + e0));
    const auto d2 = diff2(hn::Load(d, s2 + e0), hn::Load(d, f2 + e0));
    return hn::And(hn::Or(hn::Gt(d1, zero), hn::Gt(d2, zero)), hn::FirstN(d, count - e0));
  };
  return first_separating_axis(
      d, even_count, odd_count, axes,
      [&](std::size_t e0) { return separating(second.even1, second.even2, first.even1, first.even2, e0, even_count); },
      [&](std::size_t e0) { return separating(second.odd1, second.odd2, first.odd1, first.odd2, e0, odd_count); },
      make_block);
}

}  // namespace HWY_NAMESPACE
}  // namespace kdopcd
HWY_AFTER_NAMESPACE();

#endif  // KDOPCD_PAIR_LANES_ORDER_INL_H_
