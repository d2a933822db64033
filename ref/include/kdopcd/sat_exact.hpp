#pragma once
// Exact SAT for one axis: Eq. 3-6 evaluated without rounding from the same double inputs as the
// float test (coefficients, P, p). The verification ladder compares float and fixed against it.
#include "kdopcd/exact_sum.hpp"

namespace kdopcd {

struct ExactAxisDiffs {
  ExactSum diff1;
  ExactSum diff2;
  bool separated() const { return diff1.sign() > 0 || diff2.sign() > 0; }
};

ExactAxisDiffs exact_axis_diffs(const double* a, const double* b, int half, const int* jA, const double* PA,
                                const int* jB, const double* PB, double p);

}  // namespace kdopcd
