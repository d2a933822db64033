#pragma once
// Exact sums of doubles and of products of two doubles. Every double is a dyadic rational
// m * 2^e, so such sums are too: they are kept as one big integer and one exponent, which is
// exact like a rational but needs no gcd and is much faster (the SAT checks run millions).
#include <boost/multiprecision/cpp_int.hpp>
#include <climits>

namespace kdopcd {

using BigInt = boost::multiprecision::cpp_int;
using Rational = boost::multiprecision::cpp_rational;

class ExactSum {
 public:
  ExactSum& add(double x) { return add_term(split(x)); }
  ExactSum& sub(double x) { return add(-x); }
  ExactSum& add_product(double x, double y);
  ExactSum& add(const ExactSum& other);
  ExactSum& negate() { mantissa_ = -mantissa_; return *this; }

  int sign() const { return mantissa_.sign(); }
  Rational value() const;
  double to_double() const;  // nearest-ish double, for reports only
  // The nearest double, ties to even (correctly rounded while the result is a normal double):
  // equal exact values give equal doubles, however they were summed.
  double rounded() const;

 private:
  struct Term {
    BigInt m;
    int e;
  };
  static Term split(double x);
  ExactSum& add_term(Term t);

  BigInt mantissa_ = 0;
  int exponent_ = INT_MAX;  // INT_MAX: nothing added yet
};

}  // namespace kdopcd
