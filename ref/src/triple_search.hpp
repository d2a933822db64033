#pragma once
// The search of OrientationSet::triple_for in SIMD lanes: a pre-filter that skips, many triples
// at a time, the vertex triples whose mapping vector certainly has a positive component.
#include <cstddef>

#include "kdopcd/vec.hpp"

namespace kdopcd::detail {

// Lanes of the padded matrix arrays: a multiple of any vector's lanes of doubles.
inline constexpr std::size_t kTripleLanes = 32;

// `matrices` holds the triples' inverse-transposed matrices as nine arrays of `stride` doubles
// (entry (r, c) of triple t at matrices[(3 r + c) stride + t]). Returns the first t in
// [start, count) whose P = M_t L has every component <= bound, or count. The sums round
// differently from Eigen's product, so the caller passes a bound above its own threshold by far
// more than that rounding and checks each candidate exactly.
std::size_t next_triple_candidate(const double* matrices, std::size_t stride, std::size_t count, std::size_t start,
                                  const Vec3& L, double bound);

}  // namespace kdopcd::detail
