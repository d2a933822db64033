#include "kdopcd/sat_setup.hpp"

#include <cmath>

namespace kdopcd {

ProjectedTriple make_projected_triple(const OrientationSet& set, const Mat3& M, int axis_index) {
  const int i = axis_index / 2;
  const Vec3& D = set.direction(i);
  double v0, v1, v2;
  if (axis_index % 2 == 0) {  // M^T D: the first object's own direction; the second object projected
    v0 = (M(0, 0) * D[0] + M(1, 0) * D[1]) + M(2, 0) * D[2];
    v1 = (M(0, 1) * D[0] + M(1, 1) * D[1]) + M(2, 1) * D[2];
    v2 = (M(0, 2) * D[0] + M(1, 2) * D[1]) + M(2, 2) * D[2];
  } else {  // M D: the second object's; the first projected (Eigen summed the last row's last two first)
    v0 = (M(0, 0) * D[0] + M(0, 1) * D[1]) + M(0, 2) * D[2];
    v1 = (M(1, 0) * D[0] + M(1, 1) * D[1]) + M(1, 2) * D[2];
    v2 = (M(2, 1) * D[1] + M(2, 2) * D[2]) + M(2, 0) * D[0];
  }
  const double squared = (v0 * v0 + v1 * v1) + v2 * v2;
  if (squared > 0) {
    const double norm = std::sqrt(squared);
    v0 /= norm, v1 /= norm, v2 /= norm;
  }
  const Vec3 u(v0, v1, v2);
  return {axis_index % 2 == 0 ? D : u, set.triple_for(u)};
}

AxisSetup make_axis_setup(const OrientationSet& set, const Mat3& M, const Vec3& T, int axis_index) {
  // Each axis is one object's own face normal: that object's triple is exact and fixed.
  const ProjectedTriple projected = make_projected_triple(set, M, axis_index);
  const FaceTriple& own = set.own_direction_triple(axis_index / 2);
  const bool own_first = axis_index % 2 == 0;
  const FaceTriple& a = own_first ? projected.triple : own;
  const FaceTriple& b = own_first ? own : projected.triple;
  AxisSetup axis;
  axis.L = projected.L;
  axis.jA = a.j;
  axis.PA = a.P;
  axis.jB = b.j;
  axis.PB = b.P;
  axis.p = axis.L.dot(T);
  return axis;
}

SatSetup make_sat_setup(const OrientationSet& set, const Pose& pose) {
  const Mat3 M = pose.matrix();
  SatSetup setup;
  setup.k = set.k();
  setup.axes.reserve(set.k());
  for (int i = 0; i < set.k(); ++i) setup.axes.push_back(make_axis_setup(set, M, pose.translation, i));
  return setup;
}

}  // namespace kdopcd
