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

// An exact integer in kdopcd::ccd, so that the Bernstein templates find coefficient_sign for it.
struct ExactInt {
  cpp_int v;
  ExactInt() = default;
  explicit ExactInt(int x) : v(x) {}
  explicit ExactInt(cpp_int x) : v(std::move(x)) {}
};
ExactInt operator+(const ExactInt& a, const ExactInt& b) { return ExactInt(cpp_int(a.v + b.v)); }
ExactInt operator-(const ExactInt& a, const ExactInt& b) { return ExactInt(cpp_int(a.v - b.v)); }
ExactInt operator*(const ExactInt& a, const ExactInt& b) { return ExactInt(cpp_int(a.v * b.v)); }
ExactInt& operator+=(ExactInt& a, const ExactInt& b) {
  a.v += b.v;
  return a;
}
[[maybe_unused]] int coefficient_sign(const ExactInt& x) { return x.v.sign(); }

// The 24 coordinates as integers on one common scale: x = X 2^e_min exactly, with e_min the
// smallest exponent of a nonzero coordinate's last mantissa bit. One positive scale for every
// coordinate leaves every sign of the conditions unchanged.
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
          if (mantissa[i][j][k] != 0) value_[i][j][k] = cpp_int(mantissa[i][j][k]) << (exponent[i][j][k] - e_min);
  }
  // x(lo) and x(hi) on interval m of depth d, times 2^d (one more positive scale):
  // x(m 2^-d) 2^d = x0 (2^d - m) + x1 m.
  void on(int depth, std::uint64_t m, BVec<ExactInt, 1>* out) const {
    const cpp_int whole = cpp_int(1) << depth;
    const cpp_int lo(m), hi = lo + 1;
    for (int i = 0; i < 4; ++i) {
      Bern<ExactInt, 1>* coords[3] = {&out[i].x, &out[i].y, &out[i].z};
      for (int k = 0; k < 3; ++k) {
        const cpp_int& x0 = value_[i][0][k];
        const cpp_int& x1 = value_[i][1][k];
        coords[k]->c[0] = ExactInt(cpp_int(x0 * (whole - lo) + x1 * lo));
        coords[k]->c[1] = ExactInt(cpp_int(x0 * (whole - hi) + x1 * hi));
      }
    }
  }

 private:
  cpp_int value_[4][2][3];
};

Verdict exact_verdict(ElementaryKind kind, const ExactPoints& exact, int depth, std::uint64_t m, bool leaf) {
  BVec<ExactInt, 1> points[4];
  exact.on(depth, m, points);
  return elementary_verdict(kind, points, leaf);
}

}  // namespace

double first_contact(ElementaryKind kind, const ElementaryPoints& in, ElementaryStats* stats) {
  if (stats) ++stats->tests;
  bool in_filter_range = true;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) {
        const double x = in.xyz[i][j][k];
        if (!std::isfinite(x)) throw std::domain_error("ccd: a non-finite coordinate has no exact value");
        in_filter_range &= std::fabs(x) <= 0x1p200;
      }
  // The exact points are made only when an interval needs them (most tests never do).
  std::optional<ExactPoints> exact;
  return search_first_leaf([&](int depth, std::uint64_t m, bool leaf) {
    if (in_filter_range) {
      BVec<Ef, 1> points[4];
      ef_points_on(in, depth, m, points);
      const Verdict v = elementary_verdict(kind, points, leaf);
      if (v != Verdict::Unknown) return v;
    }
    if (!exact) exact.emplace(in);
    if (stats) ++stats->exact_intervals;
    return exact_verdict(kind, *exact, depth, m, leaf);
  });
}

double first_contact_exact_only(ElementaryKind kind, const ElementaryPoints& in) {
  const ExactPoints exact(in);
  return search_first_leaf(
      [&](int depth, std::uint64_t m, bool leaf) { return exact_verdict(kind, exact, depth, m, leaf); });
}

}  // namespace kdopcd::ccd
