#include "kdopcd/sat_setup.hpp"

namespace kdopcd {

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
