// The host's elementary tests: the filter (Ef) on every interval, exact integers where it cannot
// decide. elementary.hpp states the guarantee.
#include "kdopcd/ccd/elementary.hpp"

#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace kdopcd::ccd {
namespace {

using boost::multiprecision::cpp_int;
// A 1024-bit integer without heap allocation, for inputs whose bit sizes keep every intermediate
// below 2^1023 (kMaxFixedInputBits); cpp_int otherwise.
using Int1024 = boost::multiprecision::number<
    boost::multiprecision::cpp_int_backend<1024, 1024, boost::multiprecision::signed_magnitude,
                                           boost::multiprecision::unchecked, void>>;

// An exact integer in kdopcd::ccd, so that the Bernstein templates find coefficient_sign for it.
template <class I>
struct ExactInt {
  I v;
  ExactInt() = default;
  explicit ExactInt(int x) : v(x) {}
  explicit ExactInt(I x) : v(std::move(x)) {}
};
template <class I>
ExactInt<I> operator+(const ExactInt<I>& a, const ExactInt<I>& b) { return ExactInt<I>(I(a.v + b.v)); }
template <class I>
ExactInt<I> operator-(const ExactInt<I>& a, const ExactInt<I>& b) { return ExactInt<I>(I(a.v - b.v)); }
template <class I>
ExactInt<I> operator*(const ExactInt<I>& a, const ExactInt<I>& b) { return ExactInt<I>(I(a.v * b.v)); }
template <class I>
ExactInt<I>& operator+=(ExactInt<I>& a, const ExactInt<I>& b) {
  a.v += b.v;
  return a;
}
template <class I>
int coefficient_sign(const ExactInt<I>& x) { return x.v.sign(); }

// Every coordinate as an integer of at most B bits on the interval (B = its bits on the common
// scale + kTimeDepth + 1): the conditions are sums of at most 2^10 products of four differences
// (each < 2^(B+1)), so they stay below 2^(4 B + 14); B <= 250 keeps that under 2^1023.
constexpr int kMaxFixedInputBits = 250 - kTimeDepth - 1;

// The 24 coordinates as integers on one common scale: x = X 2^e_min exactly, with e_min the
// smallest exponent of a nonzero coordinate's last mantissa bit. One positive scale for every
// coordinate leaves every sign of the conditions unchanged.
template <class I>
class ExactPoints {
 public:
  explicit ExactPoints(const ElementaryPoints& in) {
    int e_min = 0;
    bool any = false;
    int exponent[4][2][3] = {};
    std::int64_t mantissa[4][2][3] = {};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 3; ++k) {
          const double x = in.xyz[i][j][k];
          if (!std::isfinite(x)) throw std::domain_error("ccd: a non-finite coordinate has no exact value");
          if (x == 0.0) continue;
          int e = 0;
          const double f = std::frexp(x, &e);  // x = f 2^e, 0.5 <= |f| < 1
          mantissa[i][j][k] = std::int64_t(std::ldexp(f, 53));
          exponent[i][j][k] = e - 53;
          e_min = any ? std::min(e_min, e - 53) : e - 53;
          any = true;
        }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 3; ++k)
          if (mantissa[i][j][k] != 0) value_[i][j][k] = I(mantissa[i][j][k]) << (exponent[i][j][k] - e_min);
  }
  // x(lo) and x(hi) on interval m of depth d, times 2^d (one more positive scale):
  // x(m 2^-d) 2^d = x0 (2^d - m) + x1 m.
  void on(int depth, std::uint64_t m, BVec<ExactInt<I>, 1>* out) const {
    const I whole = I(1) << depth;
    const I lo(m), hi = lo + 1;
    for (int i = 0; i < 4; ++i) {
      Bern<ExactInt<I>, 1>* coords[3] = {&out[i].x, &out[i].y, &out[i].z};
      for (int k = 0; k < 3; ++k) {
        const I& x0 = value_[i][0][k];
        const I& x1 = value_[i][1][k];
        coords[k]->c[0] = ExactInt<I>(I(x0 * (whole - lo) + x1 * lo));
        coords[k]->c[1] = ExactInt<I>(I(x0 * (whole - hi) + x1 * hi));
      }
    }
  }
  Verdict verdict(ElementaryKind kind, int depth, std::uint64_t m, bool leaf) const {
    BVec<ExactInt<I>, 1> points[4];
    on(depth, m, points);
    return elementary_verdict(kind, points, leaf);
  }

 private:
  I value_[4][2][3];
};

// Bits of the largest coordinate on the common scale (the span of exponents plus the mantissa).
int common_scale_bits(const ElementaryPoints& in) {
  int e_min = 0, e_max = 0;
  bool any = false;
  for (const auto& point : in.xyz)
    for (const auto& end : point)
      for (double x : end) {
        if (x == 0.0) continue;
        int e = 0;
        std::frexp(x, &e);
        e_min = any ? std::min(e_min, e) : e;
        e_max = any ? std::max(e_max, e) : e;
        any = true;
      }
  return any ? e_max - e_min + 53 : 0;
}

// The exact verdicts of one test, on the fixed-width type where the inputs allow it.
class ExactJudge {
 public:
  explicit ExactJudge(const ElementaryPoints& in) {
    if (common_scale_bits(in) <= kMaxFixedInputBits)
      fixed_.emplace(in);
    else
      wide_.emplace(in);
  }
  Verdict operator()(ElementaryKind kind, int depth, std::uint64_t m, bool leaf) const {
    return fixed_ ? fixed_->verdict(kind, depth, m, leaf) : wide_->verdict(kind, depth, m, leaf);
  }

 private:
  std::optional<ExactPoints<Int1024>> fixed_;
  std::optional<ExactPoints<cpp_int>> wide_;
};

}  // namespace

double first_contact(ElementaryKind kind, const ElementaryPoints& in, ElementaryStats* stats, double limit) {
  if (stats) ++stats->tests;
  bool in_filter_range = true;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) {
        const double x = in.xyz[i][j][k];
        if (!std::isfinite(x)) throw std::domain_error("ccd: a non-finite coordinate has no exact value");
        in_filter_range &= std::fabs(x) <= 0x1p200;
      }
  if (relative_motion_apart(kind, in)) return kNoContact;
  if (stats) ++stats->searched;
  // Within the filter's range only (Ef's bounds assume |x| <= 2^200).
  if (in_filter_range && touching_at_start(kind, in)) return 0.0;
  // The exact points are made only when an interval needs them (most tests never do).
  std::optional<ExactJudge> exact;
  return search_first_leaf([&](int depth, std::uint64_t m, bool leaf) {
    if (in_filter_range) {
      BVec<Ef, 1> points[4];
      ef_points_on(in, depth, m, points);
      const Verdict v = elementary_verdict(kind, points, leaf);
      if (v != Verdict::Unknown) return v;
    }
    if (!exact) exact.emplace(in);
    if (stats) ++stats->exact_intervals;
    return (*exact)(kind, depth, m, leaf);
  }, limit);
}

double first_contact_exact_only(ElementaryKind kind, const ElementaryPoints& in) {
  // The arbitrary-precision type always: the tests' reference shares no integer type with the
  // fixed-width fast path.
  const ExactPoints<cpp_int> exact(in);
  return search_first_leaf([&](int depth, std::uint64_t m, bool leaf) { return exact.verdict(kind, depth, m, leaf); });
}

}  // namespace kdopcd::ccd
