#pragma once
// Polynomials of the time t on an interval [lo, hi] in homogeneous Bernstein form, over two number
// types: Ef (a double with a rigorous bound on its rounding error, the filter) and an exact integer
// type (boost::multiprecision::cpp_int, the fallback). docs/ccd.md, "Elementary tests".
//
// A polynomial of degree N is stored as c[0..N] with p(t) = sum_k c[k] (1 - s)^(N-k) s^k, where
// s = (t - lo) / (hi - lo). c[k] is C(N, k) times the k-th Bernstein coefficient, so the signs are
// the Bernstein coefficients' signs, and a product is a plain convolution (no binomials, no
// division: integer coefficients stay integers). If every c[k] > 0 then p > 0 on [lo, hi]; the
// values at the ends are c[0] and c[N].
//
// Every coordinate of a moving point is linear in t: it is the degree-1 polynomial (x(lo), x(hi)).
// Sums, differences, products, cross and dot products of such polynomials give the coplanarity
// cubic and the inside conditions of the elementary tests, in this form, on any interval.
//
// The same template code runs on the host and (for Ef) on a CUDA device: KDOPCD_HD.
#include <cmath>

#include "kdopcd/config.hpp"

namespace kdopcd::ccd {

// A double v and a bound e on |v - exact|, where `exact` is the value the same expression has in
// exact arithmetic. Rules (u = 2^-53, the unit roundoff):
//   a + b:  v = fl(a.v + b.v),  e = a.e + b.e + u |v|         (no u|v| when an operand is 0: exact)
//   a * b:  v = fl(a.v * b.v),  e = |a.v| b.e + |b.v| a.e + a.e b.e + u |v|  (none when one is 0)
// The bound terms are themselves rounded (each by at most a relative u), so the decisions compare
// with e * kInflate, which covers up to 2^13 chained operations; an underflow (a product or a
// bound term below 2^-1000, where the relative bound fails) adds 2^-1060, more than the absolute
// error of a subnormal result. Overflow or NaN anywhere ends as a non-finite v or e, which the
// decisions treat as "unknown". Zeros stay exact zeros (e = 0), so a coordinate that does not move
// or a flat mesh gives exactly-zero coefficients that the filter can certify.
struct Ef {
  double v = 0.0;
  double e = 0.0;
  KDOPCD_HD Ef() = default;
  KDOPCD_HD explicit Ef(double x) : v(x), e(0.0) {}
  KDOPCD_HD Ef(double x, double err) : v(x), e(err) {}
};

inline constexpr double kEfUnit = 0x1p-53;
inline constexpr double kEfInflate = 1.0 + 0x1p-40;
inline constexpr double kEfTiny = 0x1p-1000;
inline constexpr double kEfUnderflow = 0x1p-1060;
inline constexpr double kEfMax = 0x1.fffffffffffffp1023;  // the largest finite double

KDOPCD_HD inline Ef operator+(const Ef& a, const Ef& b) {
  const double v = a.v + b.v;
  double e = a.e + b.e;
  if (a.v != 0.0 && b.v != 0.0) e += kEfUnit * fabs(v);
  return {v, e};
}
KDOPCD_HD inline Ef operator-(const Ef& a, const Ef& b) {
  const double v = a.v - b.v;
  double e = a.e + b.e;
  if (a.v != 0.0 && b.v != 0.0) e += kEfUnit * fabs(v);
  return {v, e};
}
KDOPCD_HD inline Ef operator*(const Ef& a, const Ef& b) {
  const double v = a.v * b.v;
  double e = fabs(a.v) * b.e + fabs(b.v) * a.e + a.e * b.e;
  if (a.v != 0.0 && b.v != 0.0) {
    e += kEfUnit * fabs(v);
    if (fabs(v) < kEfTiny) e += kEfUnderflow;
  }
  if (e != 0.0 && e < kEfTiny) e += kEfUnderflow;
  return {v, e};
}
KDOPCD_HD inline Ef& operator+=(Ef& a, const Ef& b) { return a = a + b; }

// The sign of a coefficient: -1, 0, +1, or kUnknownSign where the filter cannot tell.
inline constexpr int kUnknownSign = 2;
KDOPCD_HD inline int coefficient_sign(const Ef& x) {
  if (!(fabs(x.v) <= kEfMax && x.e <= kEfMax)) return kUnknownSign;  // NaN or infinite
  const double bound = x.e * kEfInflate;
  if (x.v > bound) return 1;
  if (-x.v > bound) return -1;
  if (x.v == 0.0 && x.e == 0.0) return 0;
  return kUnknownSign;
}
// The exact types (cpp_int) need only a sign: overload coefficient_sign for them where they are used.

template <class T, int N>
struct Bern {
  T c[N + 1];
};

template <class T, int M, int N>
KDOPCD_HD Bern<T, M + N> operator*(const Bern<T, M>& a, const Bern<T, N>& b) {
  Bern<T, M + N> r;
  for (int k = 0; k <= M + N; ++k) r.c[k] = T(0);
  for (int i = 0; i <= M; ++i)
    for (int j = 0; j <= N; ++j) r.c[i + j] += a.c[i] * b.c[j];
  return r;
}
template <class T, int N>
KDOPCD_HD Bern<T, N> operator+(const Bern<T, N>& a, const Bern<T, N>& b) {
  Bern<T, N> r;
  for (int k = 0; k <= N; ++k) r.c[k] = a.c[k] + b.c[k];
  return r;
}
template <class T, int N>
KDOPCD_HD Bern<T, N> operator-(const Bern<T, N>& a, const Bern<T, N>& b) {
  Bern<T, N> r;
  for (int k = 0; k <= N; ++k) r.c[k] = a.c[k] - b.c[k];
  return r;
}

// A moving point's coordinates (or a difference of two), each a polynomial of degree N.
template <class T, int N>
struct BVec {
  Bern<T, N> x, y, z;
};
template <class T, int N>
KDOPCD_HD BVec<T, N> operator-(const BVec<T, N>& a, const BVec<T, N>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class T, int M, int N>
KDOPCD_HD BVec<T, M + N> cross(const BVec<T, M>& a, const BVec<T, N>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class T, int M, int N>
KDOPCD_HD Bern<T, M + N> dot(const BVec<T, M>& a, const BVec<T, N>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

// What a condition says about an interval: no contact there (Excluded), a contact may be there
// (Admitted: certain, the exact coefficients say so), or the filter cannot tell (Unknown).
enum class Verdict { Excluded, Admitted, Unknown };

// p = 0 somewhere on the interval is excluded when every coefficient has one strict sign.
template <class T, int N>
KDOPCD_HD Verdict zero_possible(const Bern<T, N>& p) {
  int positive = 0, negative = 0, zero = 0, unknown = 0;
  for (int k = 0; k <= N; ++k) {
    const int s = coefficient_sign(p.c[k]);
    positive += s == 1;
    negative += s == -1;
    zero += s == 0;
    unknown += s == kUnknownSign;
  }
  if (positive == N + 1 || negative == N + 1) return Verdict::Excluded;
  if (zero > 0 || (positive > 0 && negative > 0)) return Verdict::Admitted;
  return Verdict::Unknown;
}
// p >= 0 somewhere on the interval is excluded when every coefficient is negative.
template <class T, int N>
KDOPCD_HD Verdict nonnegative_possible(const Bern<T, N>& p) {
  int negative = 0;
  for (int k = 0; k <= N; ++k) {
    const int s = coefficient_sign(p.c[k]);
    if (s == 0 || s == 1) return Verdict::Admitted;
    negative += s == -1;
  }
  return negative == N + 1 ? Verdict::Excluded : Verdict::Unknown;
}
// Whether p is identically zero on the interval (every coefficient exactly 0): Admitted if so,
// Excluded if some coefficient is certainly not 0.
template <class T, int N>
KDOPCD_HD Verdict identically_zero(const Bern<T, N>& p) {
  bool unknown = false;
  for (int k = 0; k <= N; ++k) {
    const int s = coefficient_sign(p.c[k]);
    if (s == 1 || s == -1) return Verdict::Excluded;
    unknown |= s == kUnknownSign;
  }
  return unknown ? Verdict::Unknown : Verdict::Admitted;
}
// Whether p > 0 on the whole interval is certain (every coefficient > 0): Admitted if so, Excluded
// if some coefficient is certainly <= 0.
template <class T, int N>
KDOPCD_HD Verdict strictly_positive(const Bern<T, N>& p) {
  bool unknown = false;
  for (int k = 0; k <= N; ++k) {
    const int s = coefficient_sign(p.c[k]);
    if (s == 0 || s == -1) return Verdict::Excluded;
    unknown |= s == kUnknownSign;
  }
  return unknown ? Verdict::Unknown : Verdict::Admitted;
}

// Conjunction: excluded if one part is, unknown if one part is and none excludes.
KDOPCD_HD inline Verdict both(Verdict a, Verdict b) {
  if (a == Verdict::Excluded || b == Verdict::Excluded) return Verdict::Excluded;
  if (a == Verdict::Unknown || b == Verdict::Unknown) return Verdict::Unknown;
  return Verdict::Admitted;
}
// Disjunction: admitted if one part is, unknown if one part is and none admits.
KDOPCD_HD inline Verdict either(Verdict a, Verdict b) {
  if (a == Verdict::Admitted || b == Verdict::Admitted) return Verdict::Admitted;
  if (a == Verdict::Unknown || b == Verdict::Unknown) return Verdict::Unknown;
  return Verdict::Excluded;
}
// A three-component vector identically zero: every component is.
template <class T, int N>
KDOPCD_HD Verdict identically_zero(const BVec<T, N>& v) {
  return both(identically_zero(v.x), both(identically_zero(v.y), identically_zero(v.z)));
}

}  // namespace kdopcd::ccd
