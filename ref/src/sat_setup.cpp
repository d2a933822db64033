#include "kdopcd/sat_setup.hpp"

namespace kdopcd {

AxisSetup make_axis_setup(const OrientationSet& set, const Mat3& M, const Vec3& T, int axis_index) {
  const int i = axis_index / 2;
  const bool own_first = axis_index % 2 == 0;
  // Each axis is one object's own face normal: that object's triple is exact and fixed.
  AxisSetup axis;
  axis.L = own_first ? set.direction(i) : Vec3((M * set.direction(i)).normalized());
  const FaceTriple b = own_first ? set.own_direction_triple(i) : set.triple_for(axis.L);
  const FaceTriple a = own_first ? set.triple_for((M.transpose() * axis.L).normalized()) : set.own_direction_triple(i);
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
