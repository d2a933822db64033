#include "kdopcd/sat_exact.hpp"

#include "kdopcd/sat_float.hpp"  // opposite_face

namespace kdopcd {

ExactAxisDiffs exact_axis_diffs(const double* a, const double* b, int half, const int* jA, const double* PA,
                                const int* jB, const double* PB, double p) {
  ExactSum a_min, a_max_neg, b_min, b_max_neg;  // a_max = -a_max_neg, b_max = -b_max_neg
  for (int i = 0; i < 3; ++i) {
    a_min.add_product(PA[i], a[jA[i]]);
    a_max_neg.add_product(PA[i], a[opposite_face(jA[i], half)]);
    b_min.add_product(PB[i], b[jB[i]]);
    b_max_neg.add_product(PB[i], b[opposite_face(jB[i], half)]);
  }
  ExactAxisDiffs out;
  out.diff1.add(a_min).add(p).add(b_max_neg);              // (a_min + p) - b_max
  out.diff2.add(b_min).add(a_max_neg).sub(p);              // b_min - (a_max + p)
  return out;
}

}  // namespace kdopcd
