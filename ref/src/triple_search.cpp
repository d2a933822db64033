// next_triple_candidate (triple_search.hpp), compiled once per instruction set by Highway's
// foreach_target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "triple_search.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "triple_search.hpp"

HWY_BEFORE_NAMESPACE();
namespace kdopcd::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

size_t NextTripleCandidateImpl(const double* m, size_t stride, size_t count, size_t start, double L0, double L1,
                               double L2, double bound) {
  const hn::ScalableTag<double> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  const auto x = hn::Set(d, L0), y = hn::Set(d, L1), z = hn::Set(d, L2), b = hn::Set(d, bound);
  for (size_t t0 = start - start % N; t0 < count; t0 += N) {
    auto row_ok = [&](int r) {
      const double* row = m + size_t(3 * r) * stride + t0;
      const auto P = hn::Add(hn::Add(hn::Mul(hn::LoadU(d, row), x), hn::Mul(hn::LoadU(d, row + stride), y)),
                             hn::Mul(hn::LoadU(d, row + 2 * stride), z));
      return hn::Le(P, b);
    };
    const auto index = hn::Iota(di, int64_t(t0));
    const auto in_range = hn::RebindMask(
        d, hn::AndNot(hn::Lt(index, hn::Set(di, int64_t(start))), hn::Lt(index, hn::Set(di, int64_t(count)))));
    const auto ok = hn::And(hn::And(row_ok(0), row_ok(1)), hn::And(row_ok(2), in_range));
    const intptr_t first = hn::FindFirstTrue(d, ok);
    if (first >= 0) return t0 + size_t(first);
  }
  return count;
}

}  // namespace HWY_NAMESPACE
}  // namespace kdopcd::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kdopcd::detail {

HWY_EXPORT(NextTripleCandidateImpl);

std::size_t next_triple_candidate(const double* matrices, std::size_t stride, std::size_t count, std::size_t start,
                                  const Vec3& L, double bound) {
  return HWY_DYNAMIC_DISPATCH(NextTripleCandidateImpl)(matrices, stride, count, start, L.x(), L.y(), L.z(), bound);
}

}  // namespace kdopcd::detail
#endif  // HWY_ONCE
