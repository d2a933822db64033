#pragma once
// Bit-accurate fixed-point SAT for one axis (paper Eq. 7-10 and 22,
// docs/fixed-point.md). The reference for the SystemC model, the RTL pipeline and the GPU
// integer path: they must reproduce diff1', diff2' of fixed_diffs() to the bit.
//
// Frames and scale: each object's coefficients are taken in its centred frame (DopTree::centre(),
// centred_coefficients()) and p = L . T_c with the pose's translation in those frames
// (centred_pose). Every coefficient is divided by the scene scale s (the largest centred
// |coefficient| of both trees), and so is p, so the test decides the same thing in units of s. The division is rounded in the conservative direction (scale_coefficient up, scale_offset
// down) so the quantized test is conservative for the unscaled doubles too; the scaled doubles
// are what the exact reference (bound_check) and the test vectors (test_vectors.hpp) start from.
//
// Integers (all at scale 2^-(b+c) once multiplied; ranges are checked in debug builds):
//   a' = ceil(a 2^b)  in [-2^b, 2^b]       b+2 bits signed  (quantize_coefficient)
//   P' = floor(P 2^c) in [-2^c, 0]         c+1 bits signed  (quantize_mapping)
//   p' = floor(clamp(p, -4, 4) 2^z)        z+4 bits signed, also p'+1 (quantize_offset)
//   P'_i a'_i         in [-2^(b+c), 2^(b+c)]  b+c+2 bits signed
//   diff1', diff2'    |.| < 2^(b+c+4)          b+c+5 bits signed (proof in docs/fixed-point.md,
//                     checked on extreme operands in testbenches/ref/sat_fixed_test.cpp)
// Sums use __int128 (b = c = z = 44 needs 93 bits).
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kdopcd/config.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/sat_setup.hpp"

#if !defined(__CUDA_ARCH__)
#include <stdexcept>
#endif

namespace kdopcd {

// Smallest b, c, z accepted: with 6 2^-c + 2^-z < 4 - 2 sqrt 3 the |p| clamp keeps every verdict
// (docs/fixed-point.md §5), and the width proof needs c, z >= 1.
inline constexpr int kMinFixedBits = 4;

// Throws InputError unless kMinFixedBits <= b, c, z <= kMaxFixedBits.
void validate_fixed_params(const FixedParams& params);

// Parses "b,c,z" (e.g. "18,18,18") or a single "n" for b = c = z = n; validates; throws InputError.
FixedParams parse_fixed_params(const std::string& text);

// Two's-complement widths (sign included) of the integers of Eq. 22, the table above: the widths
// the RTL lane declares for its ports and sums, and what the Gappa proofs show every in-range
// operand fits (docs/formal.md).
struct SatWidths {
  int coefficient;  // a'           b+2
  int mapping;      // P'           c+1
  int offset;       // p', p' + 1   z+4
  int product;      // P'a'         b+c+2
  int sum;          // diff1', diff2' and every partial sum: b+c+5
};
KDOPCD_HD constexpr SatWidths sat_widths(const FixedParams& f) {
  return {f.b + 2, f.c + 1, f.z + 4, f.b + f.c + 2, f.b + f.c + 5};
}

// Width checks of every intermediate: on in debug builds (NDEBUG not defined); callers may force
// them with the template flag (the tests do, in Release too).
#if defined(NDEBUG)
inline constexpr bool kCheckFixedWidths = false;
#else
inline constexpr bool kCheckFixedWidths = true;
#endif

// The scene scale: the largest |coefficient| of both trees (1 if that is 0 or not finite).
KDOPCD_HD inline double scene_scale_of(double largest_first, double largest_second) {
  const double s = largest_first > largest_second ? largest_first : largest_second;
  return (s > 0 && s <= std::numeric_limits<double>::max()) ? s : 1.0;
}

// a / s rounded up to a double (the smallest double >= a / s): fma gives the sign of q s - a
// exactly. For |a| <= s the result stays in [-1, 1].
KDOPCD_HD inline double scale_coefficient(double a, double s) {
  const double q = a / s;
  return std::fma(q, s, -a) < 0 ? std::nextafter(q, std::numeric_limits<double>::infinity()) : q;
}

// p / s rounded down to a double (the largest double <= p / s); not clamped.
KDOPCD_HD inline double scale_offset(double p, double s) {
  const double q = p / s;
  return std::fma(q, s, -p) > 0 ? std::nextafter(q, -std::numeric_limits<double>::infinity()) : q;
}

// quantize_offset(scale_offset(p, s), z), the same integer, mostly without scale_offset's fma
// and nextafter (library calls on x86-64 without FMA). scale_offset gives RD(p / s), the largest
// double <= y = p / s, and for an integer m, m 2^-z is a double (|m| <= 2^(z+2)), so
// m 2^-z <= y iff m 2^-z <= RD(y): floor(clamp(RD(y)) 2^z) = floor(clamp(y) 2^z). With q = fl(p / s)
// within 2u |q| of y and clamp monotone and 1-Lipschitz, clamp(y) 2^z lies within
// d = 2u |q| 2^z of v = clamp(q) 2^z (exact); when v's fraction v - floor(v) (exact) is farther
// than d from 0 and 1, floor(v) is the answer. Otherwise (and for NaN, infinities, q = 0) the
// plain formula decides.
KDOPCD_HD inline std::int64_t quantize_scaled_offset(double p, double s, int z) {
  const double q = p / s;
  const double v = (q > 4.0 ? 4.0 : (q < -4.0 ? -4.0 : q)) * times_pow2(1.0, z);
  const double d = 0x1p-50 * std::fabs(q) * times_pow2(1.0, z) + 0x1p-1000;
  if (v > -0x1p60 && v < 0x1p60) {  // false for NaN
    const std::int64_t m = floor_to_int64(v);
    const double fraction = v - static_cast<double>(m);
    if (fraction > d && fraction < 1.0 - d) return m;
  }
  return quantize_offset(scale_offset(p, s), z);
}

// One axis test in reals: the scaled doubles the fixed-point test starts from, in the field order
// of a test-vector line (docs/test-vectors.md). a / ak: the second object's ("A") coefficients at
// jA and at jA + k/2; b / bk the first object's ("B") at jB and jB + k/2; p = (L . T) / s, unclamped.
struct RealOperands {
  double PA[3], PB[3], p;
  double a[3], ak[3], b[3], bk[3];
};

// The same axis test quantized: the 19 integers an RTL pipeline stage receives.
struct FixedOperands {
  std::int64_t PA[3], PB[3], p;
  std::int64_t a[3], ak[3], b[3], bk[3];
};

// Quantizes with quantize_mapping / quantize_offset (clamps |p| to 4) / quantize_coefficient.
KDOPCD_HD inline FixedOperands quantize_operands(const RealOperands& r, const FixedParams& f) {
  FixedOperands q;
  for (int i = 0; i < 3; ++i) {
    q.PA[i] = quantize_mapping(r.PA[i], f.c);
    q.PB[i] = quantize_mapping(r.PB[i], f.c);
    q.a[i] = quantize_coefficient(r.a[i], f.b);
    q.ak[i] = quantize_coefficient(r.ak[i], f.b);
    q.b[i] = quantize_coefficient(r.b[i], f.b);
    q.bk[i] = quantize_coefficient(r.bk[i], f.b);
  }
  q.p = quantize_offset(r.p, f.z);
  return q;
}

// diff1', diff2' at scale 2^-(b+c); separated iff either is > 0 (strict: touching overlaps).
struct FixedDiffs {
  __int128 diff1;
  __int128 diff2;
  KDOPCD_HD bool separated() const { return diff1 > 0 || diff2 > 0; }
};

namespace fixed_detail {

KDOPCD_HD inline void width_violation(const char* what) {
#if defined(__CUDA_ARCH__)
  (void)what;
  __trap();
#else
  throw std::logic_error(what);
#endif
}

KDOPCD_HD inline __int128 pow2(int e) { return static_cast<__int128>(1) << e; }

KDOPCD_HD inline void check_range(__int128 v, __int128 lo, __int128 hi, const char* what) {
  if (v < lo || v > hi) width_violation(what);
}

// Sum of one object's mapped triple: P' . x' + sn(x') (Eq. 7 without the 2^-c, which is implicit).
template <bool Check>
KDOPCD_HD inline __int128 mapped(const std::int64_t* P, const std::int64_t* x, int b, int c) {
  __int128 sum = 0;
  for (int i = 0; i < 3; ++i) {
    if constexpr (Check) {
      check_range(x[i], -pow2(b), pow2(b), "fixed SAT: coefficient a' outside [-2^b, 2^b] (b+2 bits)");
      check_range(P[i], -pow2(c), 0, "fixed SAT: mapping entry P' outside [-2^c, 0] (c+1 bits)");
    }
    const __int128 product = static_cast<__int128>(P[i]) * x[i];
    if constexpr (Check)
      check_range(product, -pow2(b + c), pow2(b + c), "fixed SAT: product P'a' outside [-2^(b+c), 2^(b+c)]");
    sum += product;
    if (x[i] < 0) sum += x[i];  // sn(x'): already at scale 2^-(b+c) because of the implicit 2^-c
  }
  return sum;
}

}  // namespace fixed_detail

// Eq. 22 in integers. With e = b + c - z:
//   diff1' = P'_A.a' + sn(a') + P'_B.b'k + sn(b'k) + p' 2^e
//   diff2' = P'_B.b' + sn(b') + P'_A.a'k + sn(a'k) - (p' + 1) 2^e
// If e < 0 (z > b + c) the p terms are shifted right: floor for p' (a lower bound of p in diff1)
// and ceil for p' + 1 (an upper bound of p in diff2), so the test stays conservative.
template <bool Check = kCheckFixedWidths>
KDOPCD_HD inline FixedDiffs fixed_diffs(const FixedOperands& o, const FixedParams& f) {
  using fixed_detail::pow2;
  const int e = f.b + f.c - f.z;
  if constexpr (Check) {
    if (f.b < kMinFixedBits || f.c < kMinFixedBits || f.z < kMinFixedBits || f.b > kMaxFixedBits ||
        f.c > kMaxFixedBits || f.z > kMaxFixedBits)
      fixed_detail::width_violation("fixed SAT: b, c, z outside [kMinFixedBits, kMaxFixedBits]");
    fixed_detail::check_range(o.p, -pow2(f.z + 2), pow2(f.z + 2), "fixed SAT: p' outside [-2^(z+2), 2^(z+2)]");
  }
  const __int128 p_low = o.p;       // p'     : lower bound of p at scale 2^-z
  const __int128 p_high = o.p + 1;  // p' + 1 : upper bound of p
  __int128 p1, p2;
  if (e >= 0) {
    p1 = p_low * pow2(e);
    p2 = p_high * pow2(e);
  } else {
    p1 = p_low >> (-e);                                  // arithmetic shift: floor
    p2 = -((-p_high) >> (-e));                           // ceil
  }
  FixedDiffs d;
  d.diff1 = fixed_detail::mapped<Check>(o.PA, o.a, f.b, f.c) + fixed_detail::mapped<Check>(o.PB, o.bk, f.b, f.c) + p1;
  d.diff2 = fixed_detail::mapped<Check>(o.PB, o.b, f.b, f.c) + fixed_detail::mapped<Check>(o.PA, o.ak, f.b, f.c) - p2;
  if constexpr (Check) {
    const int w = sat_widths(f).sum - 1;  // b+c+5 bits signed: [-2^(b+c+4), 2^(b+c+4) - 1]
    fixed_detail::check_range(d.diff1, -pow2(w), pow2(w) - 1, "fixed SAT: diff1' wider than b+c+5 bits");
    fixed_detail::check_range(d.diff2, -pow2(w), pow2(w) - 1, "fixed SAT: diff2' wider than b+c+5 bits");
  }
  return d;
}

// One axis of a query, quantized once per query (the hardware's per-axis registers).
struct QuantizedAxis {
  int jA[3];
  int jB[3];
  std::int64_t PA[3];
  std::int64_t PB[3];
  std::int64_t p;  // quantize_offset(scale_offset(L . T, s), z)
};

// Gathers the 12 selected coefficients of a DOP pair (paper stage 1) and evaluates Eq. 22.
// a: the second object's node ("A"), b: the first object's ("B"), both quantized at b bits.
template <bool Check = kCheckFixedWidths>
KDOPCD_HD inline FixedDiffs fixed_axis_diffs(const std::int64_t* a, const std::int64_t* b, int half,
                                             const QuantizedAxis& ax, const FixedParams& f) {
  FixedOperands o;
  for (int i = 0; i < 3; ++i) {
    const int ja = ax.jA[i], jb = ax.jB[i];
    o.PA[i] = ax.PA[i];
    o.PB[i] = ax.PB[i];
    o.a[i] = a[ja];
    o.ak[i] = a[ja < half ? ja + half : ja - half];  // the antiparallel face, without a modulo
    o.b[i] = b[jb];
    o.bk[i] = b[jb < half ? jb + half : jb - half];
  }
  o.p = ax.p;
  return fixed_diffs<Check>(o, f);
}

// Eq. 22 in 64-bit integers: the pair test's inner loop. With b + c <= kNarrowFixedMaxBitSum every
// intermediate of fixed_diffs is below 2^(b+c+4) in magnitude (the widths above), so int64 holds
// it exactly and the verdict is fixed_diffs' to the bit; the antiparallel face indices and the two
// p terms are worked out once per axis instead of once per axis test.
inline constexpr int kNarrowFixedMaxBitSum = 58;

struct NarrowFixedAxis {
  int ja[3], jak[3];  // the second object's ("A") faces jA and their antiparallel faces
  int jb[3], jbk[3];  // the first object's ("B")
  std::int64_t PA[3], PB[3];
  std::int64_t p1, p2;  // fixed_diffs' p terms: diff1' adds p1, diff2' subtracts p2
};

KDOPCD_HD inline bool narrow_fixed_params(const FixedParams& f) { return f.b + f.c <= kNarrowFixedMaxBitSum; }

// The p terms of NarrowFixedAxis for p' = p, exactly as fixed_diffs forms them (zero coefficients
// leave just -p2 and +p1).
KDOPCD_HD inline void narrow_fixed_p_terms(std::int64_t p, const FixedParams& f, std::int64_t& p1, std::int64_t& p2) {
  if (narrow_fixed_params(f) && f.b >= kMinFixedBits && f.c >= kMinFixedBits && f.z >= kMinFixedBits &&
      f.z <= kMaxFixedBits &&
      p >= -(std::int64_t(1) << (f.z + 2)) && p <= (std::int64_t(1) << (f.z + 2))) {
    // The same shifts in int64, without fixed_diffs' 128-bit arithmetic (the axis is made on a
    // query's first pair test): |p'| <= 2^(z+2), so |p' 2^e| and |(p' + 1) 2^e| stay below
    // 2^(b+c+3) <= 2^61 for e = b + c - z >= 0, and the shifts for e < 0 only shrink them.
    const int e = f.b + f.c - f.z;
    const std::int64_t p_low = p, p_high = p + 1;
    if (e >= 0) {
      p1 = p_low * (std::int64_t(1) << e);
      p2 = p_high * (std::int64_t(1) << e);
    } else {
      p1 = p_low >> (-e);
      p2 = -((-p_high) >> (-e));
    }
    return;
  }
  FixedOperands zero{};
  zero.p = p;
  const FixedDiffs d = fixed_diffs<false>(zero, f);
  p1 = static_cast<std::int64_t>(d.diff1);
  p2 = static_cast<std::int64_t>(-d.diff2);
}

KDOPCD_HD inline NarrowFixedAxis narrow_fixed_axis(const QuantizedAxis& ax, int half, const FixedParams& f) {
  NarrowFixedAxis n;
  for (int i = 0; i < 3; ++i) {
    n.ja[i] = ax.jA[i];
    n.jak[i] = ax.jA[i] < half ? ax.jA[i] + half : ax.jA[i] - half;
    n.jb[i] = ax.jB[i];
    n.jbk[i] = ax.jB[i] < half ? ax.jB[i] + half : ax.jB[i] - half;
    n.PA[i] = ax.PA[i];
    n.PB[i] = ax.PB[i];
  }
  narrow_fixed_p_terms(ax.p, f, n.p1, n.p2);
  return n;
}

// P' . x' + sn(x') over one triple, as fixed_detail::mapped; branch-free so it vectorizes.
KDOPCD_HD inline std::int64_t narrow_mapped(const std::int64_t* P, const std::int64_t* x, const int* j) {
  std::int64_t sum = 0;
  for (int i = 0; i < 3; ++i) {
    const std::int64_t v = x[j[i]];
    sum += P[i] * v + (v < 0 ? v : 0);
  }
  return sum;
}

// a: the second object's quantized node, b: the first object's. True iff fixed_axis_diffs
// separates (requires narrow_fixed_params).
KDOPCD_HD inline bool narrow_fixed_separates(const std::int64_t* a, const std::int64_t* b, const NarrowFixedAxis& ax) {
  const std::int64_t diff1 = narrow_mapped(ax.PA, a, ax.ja) + narrow_mapped(ax.PB, b, ax.jbk) + ax.p1;
  const std::int64_t diff2 = narrow_mapped(ax.PB, b, ax.jb) + narrow_mapped(ax.PA, a, ax.jak) - ax.p2;
  return (diff1 > 0) | (diff2 > 0);
}

}  // namespace kdopcd

// Host parts: the per-query quantization of set-up and trees.
namespace kdopcd {

// The scene scale of a query in the centred frames:
// scene_scale_of(first.centred_largest_coefficient(), second.centred_largest_coefficient()).
// It follows the objects' sizes, not their distance from the origin.
double scene_scale(const DopTree& first, const DopTree& second);

// The query's pose in the two trees' centred frames: centred_pose(pose, first.centre(),
// second.centre()). The fixed-point path (set-up p = L . T_c, the triangle unit's T') uses it in
// place of `pose`: make_sat_setup(first.orientations(), centred_pose(first, second, pose)) and
// quantize_pose(centred_pose(first, second, pose), s, ...).
Pose centred_pose(const DopTree& first, const DopTree& second, const Pose& pose);

// Bounds of an axis's p terms without the exactly rounded centred translation. The fixed test of
// an axis is diff1' = S1 + p1 > 0 or diff2' = S2 - p2 > 0, with p1, p2 the terms of
// narrow_fixed_axis(quantize_axis(axis, s, f), half, f) for axis.p = axis.L . T_c, T_c =
// centred_translation(M, T, first centre, second centre). Working out T_c exactly is most of a
// separated fixed query's set-up, yet a separated pose is decided by a margin far above what
// rounding can change. So a query first takes x = fl(M c2 + T - c1) and, per axis, an interval
// that certainly holds p1 and p2 (fixed_offset_bounds); where the integer sums S1, S2 decide the
// verdict for every p1, p2 in it (fixed_verdict_from_bounds), that is the exact test's verdict,
// and only an undecided axis needs T_c. Derivation: docs/fixed-point.md §8.
struct FixedOffsetEstimate {
  Vec3 x;        // fl(M c2 + T - c1), rounded in any order
  Vec3 mass;     // per row, sum_j |M_ij c2_j| + |T_i| + |c1_i|
  double inv_s;  // fl(1 / s)
};
FixedOffsetEstimate estimate_fixed_offsets(const Mat3& M, const Vec3& translation, const Vec3& first_centre,
                                           const Vec3& second_centre, double s);

struct FixedOffsetBounds {
  double p1_low, p1_high;  // p1_low <= p1 <= p1_high (as reals; NaN when nothing is known)
  double p2_low, p2_high;
};

// The bounds for an axis of unit direction L (the axis set-up's own L) at f.
inline FixedOffsetBounds fixed_offset_bounds(const FixedOffsetEstimate& estimate, const Vec3& L,
                                             const FixedParams& f) {
  // With u = 2^-53 and X the exact M c2 + T - c1: x_i is X_i within gamma_5 of its row's mass (five
  // terms summed in any order), t = fl(L . x) adds gamma_3; the exact path's T_c_i is X_i rounded
  // (u |X_i|) and its p = fl(L . T_c) adds gamma_3 again. Altogether |p - t| < 13 u mass with
  // mass = sum_i |L_i| mass_i, which 2^-48 mass (32 u, also covering the rounding of mass itself)
  // bounds; 2^-1000 covers underflow.
  const double t = L.x() * estimate.x.x() + L.y() * estimate.x.y() + L.z() * estimate.x.z();
  const double mass = std::fabs(L.x()) * estimate.mass.x() + std::fabs(L.y()) * estimate.mass.y() +
                      std::fabs(L.z()) * estimate.mass.z();
  const double E = 0x1p-48 * mass + 0x1p-1000;
  // scale_offset(p, s) is the largest double <= p / s: within 2u |p / s| of it. The products with
  // fl(1 / s) below are within 3.01u of the quotients; w bounds |p / s| (up to that rounding), so
  // 2^-48 w covers both.
  const double w = (std::fabs(t) + E) * estimate.inv_s;
  const double lo = (t - E) * estimate.inv_s - 0x1p-48 * w - 0x1p-1000;
  const double hi = (t + E) * estimate.inv_s + 0x1p-48 * w + 0x1p-1000;
  // quantize_offset's clamp is monotone, so p' = floor(clamp(p / s) 2^z) lies in
  // (clamp(lo) 2^z - 1, clamp(hi) 2^z]. narrow_fixed_axis: with e = b + c - z,
  // p1 = p' 2^e (e >= 0) or floor(p' 2^e), p2 = (p' + 1) 2^e or ceil((p' + 1) 2^e).
  auto clamp = [](double v) { return v > 4.0 ? 4.0 : (v < -4.0 ? -4.0 : v); };  // keeps NaN
  const int e = f.b + f.c - f.z;
  const double scale_z = times_pow2(1.0, f.z), scale_e = times_pow2(1.0, e);  // exact powers of two
  const double low = clamp(lo) * scale_z, high = clamp(hi) * scale_z;
  FixedOffsetBounds b;
  b.p1_low = (low - 1) * scale_e - 1;
  b.p1_high = high * scale_e;
  b.p2_low = low * scale_e;
  b.p2_high = (high + 1) * scale_e + 1;
  return b;
}

// +1: S1 + p1 > 0 or S2 - p2 > 0 for every p1, p2 within `bounds` (the axis separates);
// 0: neither for any (it does not); -1: undecided. Sums in doubles with a margin for their rounding.
inline int fixed_verdict_from_bounds(std::int64_t s1, std::int64_t s2, const FixedOffsetBounds& bounds) {
  // double(S), the bound's own +-1 steps (each rounded to within 2^-53 of its result, and so of
  // |bound| + 1) and the sum all round by far less than 2^-40 (|S| + |bound|) + 1.
  auto margin = [](double a, double b) { return 0x1p-40 * (std::fabs(a) + std::fabs(b)) + 1.0; };
  const double a = double(s1), c = double(s2);
  if (a + bounds.p1_low > margin(a, bounds.p1_low) || c - bounds.p2_high > margin(c, bounds.p2_high)) return 1;
  if (a + bounds.p1_high < -margin(a, bounds.p1_high) && c - bounds.p2_low < -margin(c, bounds.p2_low)) return 0;
  return -1;  // also every comparison with NaN
}

// The integers of one axis / of every axis of a set-up whose p is L . T_c (quantize_double_axis of
// query_setup.hpp). A query's whole set-up, from the pose: make_query_setup.
QuantizedAxis quantize_axis(const AxisSetup& axis, double s, const FixedParams& params);
std::vector<QuantizedAxis> quantize_setup(const SatSetup& setup, double s, const FixedParams& params);

// The real operands of one axis test of a node pair: scaled coefficients, P, scaled unclamped p.
RealOperands real_operands(const double* a, const double* b, int half, const AxisSetup& axis, double s);

// Every coefficient of a tree in its centred frame (centred_coefficients) divided by s
// (scale_coefficient) and quantized at b bits, once per (tree, scale, b): the fixed-point backend
// never quantizes per axis test.
class QuantizedTree {
 public:
  QuantizedTree(const DopTree& tree, double s, int b);
  int k() const { return k_; }
  double scale() const { return scale_; }
  int bits() const { return bits_; }
  const std::int64_t* coefficients(std::size_t node) const { return coeffs_.data() + node * std::size_t(k_); }
  const std::vector<std::int64_t>& all_coefficients() const { return coeffs_; }

 private:
  int k_;
  double scale_;
  int bits_;
  std::vector<std::int64_t> coeffs_;
};

// The QuantizedTree of (tree, s, b), made on first use and then kept with the tree
// (DopTree::derived_cache()), so a query quantizes nothing that an earlier query at the same scale
// already did. The scale of a pair is scene_scale(first, second).
std::shared_ptr<const QuantizedTree> quantized_tree(const DopTree& tree, double s, int b);

}  // namespace kdopcd
