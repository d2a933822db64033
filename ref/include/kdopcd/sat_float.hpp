#pragma once
// Floating-point SAT for one axis (paper Eq. 3-6). Shared with CUDA through KDOPCD_HD.
// a = coefficients of the second object's node ("A", local frame), b = the first object's ("B").
#include "kdopcd/config.hpp"

namespace kdopcd {

struct AxisDiffs {
  double diff1;  // (a_min + p) - b_max
  double diff2;  // b_min - (a_max + p)
  KDOPCD_HD bool separated() const { return diff1 > 0 || diff2 > 0; }  // strict: touching overlaps
};

// Index of the face antiparallel to face j: j + k/2 with wrap-around. A compare instead of a
// modulo: the modulo compiled to a division and dominated the axis test.
KDOPCD_HD inline int opposite_face(int j, int half) { return j < half ? j + half : j - half; }

// jA, jB: face triples; PA, PB: mapping vectors; half = k/2 (index of the antiparallel face).
KDOPCD_HD inline AxisDiffs float_axis_diffs(const double* a, const double* b, int half, const int* jA,
                                            const double* PA, const int* jB, const double* PB, double p) {
  const double a_min = PA[0] * a[jA[0]] + PA[1] * a[jA[1]] + PA[2] * a[jA[2]];
  const double a_max = -(PA[0] * a[opposite_face(jA[0], half)] + PA[1] * a[opposite_face(jA[1], half)] +
                         PA[2] * a[opposite_face(jA[2], half)]);
  const double b_min = PB[0] * b[jB[0]] + PB[1] * b[jB[1]] + PB[2] * b[jB[2]];
  const double b_max = -(PB[0] * b[opposite_face(jB[0], half)] + PB[1] * b[opposite_face(jB[1], half)] +
                         PB[2] * b[opposite_face(jB[2], half)]);
  return {(a_min + p) - b_max, b_min - (a_max + p)};
}

}  // namespace kdopcd
