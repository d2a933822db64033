#include "kdopcd/exact_sum.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kdopcd {

ExactSum::Term ExactSum::split(double x) {
  if (!std::isfinite(x)) throw std::domain_error("ExactSum: non-finite input");
  if (x == 0) return {BigInt(0), INT_MAX};
  int e = 0;
  const double f = std::frexp(x, &e);  // x = f 2^e, 0.5 <= |f| < 1
  return {BigInt(static_cast<long long>(std::ldexp(f, 53))), e - 53};
}

ExactSum& ExactSum::add_term(Term t) {
  if (t.e == INT_MAX) return *this;
  if (exponent_ == INT_MAX) {
    mantissa_ = std::move(t.m);
    exponent_ = t.e;
    return *this;
  }
  if (t.e < exponent_) {
    mantissa_ <<= (exponent_ - t.e);
    exponent_ = t.e;
  }
  mantissa_ += t.m << (t.e - exponent_);
  return *this;
}

ExactSum& ExactSum::add_product(double x, double y) {
  Term a = split(x), b = split(y);
  if (a.e == INT_MAX || b.e == INT_MAX) return *this;
  return add_term({a.m * b.m, a.e + b.e});
}

ExactSum& ExactSum::add(const ExactSum& other) {
  if (other.exponent_ == INT_MAX) return *this;
  return add_term({other.mantissa_, other.exponent_});
}

Rational ExactSum::value() const {
  if (exponent_ == INT_MAX || mantissa_ == 0) return Rational(0);
  if (exponent_ >= 0) return Rational(BigInt(mantissa_ << exponent_));
  return Rational(mantissa_, BigInt(1) << (-exponent_));
}

double ExactSum::to_double() const {
  if (exponent_ == INT_MAX || mantissa_ == 0) return 0;
  // The mantissa may have hundreds of bits: scale it into double range before converting.
  const long bits = long(boost::multiprecision::msb(boost::multiprecision::abs(mantissa_))) + 1;
  const long drop = std::max(0L, bits - 64);
  const double head = BigInt(mantissa_ >> drop).convert_to<double>();
  return std::ldexp(head, int(exponent_ + drop));
}

double ExactSum::rounded() const {
  if (exponent_ == INT_MAX || mantissa_ == 0) return 0;
  const BigInt magnitude = boost::multiprecision::abs(mantissa_);
  const long bits = long(boost::multiprecision::msb(magnitude)) + 1;
  double result;
  if (bits <= 53) {
    result = std::ldexp(magnitude.convert_to<double>(), exponent_);  // exact
  } else {
    const long drop = bits - 53;
    BigInt kept = magnitude >> drop;
    const BigInt rest = magnitude - (kept << drop);
    const BigInt half = BigInt(1) << (drop - 1);
    if (rest > half || (rest == half && (kept & 1) != 0)) ++kept;  // to nearest, ties to even
    result = std::ldexp(kept.convert_to<double>(), int(exponent_ + drop));  // kept <= 2^53: exact
  }
  return mantissa_ < 0 ? -result : result;
}

}  // namespace kdopcd
