#pragma once
// Number formats shared by the fixed-point SAT, the tree image, the triangle unit, the SystemC
// model, the RTL and the GPU integer path (docs/design.md §3). Every rounding direction is chosen so
// that the fixed-point test can only add false positives, never false negatives.
#include <cmath>
#include <cstdint>

#include "kdopcd/config.hpp"

namespace kdopcd {

// Fractional bits of the SAT operands: b for DOP coefficients, c for mapping vectors P', z for p'.
struct FixedParams {
  int b = 18;
  int c = 18;
  int z = 18;
};
inline constexpr int kMaxFixedBits = 44;  // widest b, c, z accepted (int64 operands, __int128 sums)

// Fractional bits of the triangle unit: v for vertex coordinates (scaled by the scene scale, like
// the coefficients), m for the entries of the quantized rotation M'.
struct TriangleFixedParams {
  int v = 24;
  int m = 24;
};

// x 2^e, the same double as std::ldexp(x, e). For 0 <= e <= 62 a product with the exact power of
// two, which rounds (and overflows) exactly as ldexp does; the library call was a measurable part
// of the fixed backend's per-query set-up.
KDOPCD_HD inline double times_pow2(double x, int e) {
  if (e >= 0 && e <= 62) return x * static_cast<double>(std::int64_t(1) << e);
  return std::ldexp(x, e);
}

// static_cast<std::int64_t>(std::floor(x)) and ... (std::ceil(x)), the same integers: for
// |x| < 2^62 the truncation t is exact and floor / ceil is t or t -+ 1 (t converts back to double
// exactly, as it is x's integer part). Built for x86-64 without SSE4.1, floor and ceil are library
// calls, and a query's axis set-up made seven of them per axis.
KDOPCD_HD inline std::int64_t floor_to_int64(double x) {
  if (x > -0x1p62 && x < 0x1p62) {
    const std::int64_t t = static_cast<std::int64_t>(x);
    return t - (static_cast<double>(t) > x ? 1 : 0);
  }
  return static_cast<std::int64_t>(std::floor(x));
}
KDOPCD_HD inline std::int64_t ceil_to_int64(double x) {
  if (x > -0x1p62 && x < 0x1p62) {
    const std::int64_t t = static_cast<std::int64_t>(x);
    return t + (static_cast<double>(t) < x ? 1 : 0);
  }
  return static_cast<std::int64_t>(std::ceil(x));
}

// Coefficient a (already divided by the scene scale s, so |a| <= 1) rounded toward +inf at b
// bits: a' = ceil(a 2^b), a signed integer of b+2 bits (+-1.0 representable). The scaling is exact.
KDOPCD_HD inline std::int64_t quantize_coefficient(double a_scaled, int b) {
  return ceil_to_int64(times_pow2(a_scaled, b));
}

// Mapping vector entry P in [-1, 0] rounded toward -inf at c bits: P' in [-2^c, 0].
KDOPCD_HD inline std::int64_t quantize_mapping(double P, int c) {
  return floor_to_int64(times_pow2(P, c));
}

// |p| is clamped to 4 first (docs/fixed-point.md shows this keeps every verdict: with |a|,|b| <= 1
// and cross sums of |P| <= sqrt 3, |a_min|, |b_max| < 2 so |p| > 4 separates either way), then
// rounded toward -inf at z bits; diff2 uses p' + 1, an upper bound of p.
KDOPCD_HD inline std::int64_t quantize_offset(double p_scaled, int z) {
  const double clamped = p_scaled > 4.0 ? 4.0 : (p_scaled < -4.0 ? -4.0 : p_scaled);
  return floor_to_int64(times_pow2(clamped, z));
}

// Vertex coordinate (divided by the scene scale) rounded to nearest, ties to even, at v bits.
KDOPCD_HD inline std::int64_t quantize_vertex(double x_scaled, int v) {
  return static_cast<std::int64_t>(std::nearbyint(times_pow2(x_scaled, v)));
}

}  // namespace kdopcd
