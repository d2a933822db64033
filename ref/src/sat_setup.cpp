#include "kdopcd/sat_setup.hpp"

namespace kdopcd {

SatSetup make_sat_setup(const OrientationSet& set, const Pose& pose) {
  const Mat3 M = pose.matrix();
  SatSetup setup;
  setup.k = set.k();
  setup.axes.reserve(set.k());
  for (int i = 0; i < set.half(); ++i) {
    for (const Vec3& L : {set.direction(i), Vec3(M * set.direction(i))}) {
      AxisSetup axis;
      axis.L = L.normalized();
      const FaceTriple b = set.triple_for(axis.L);
      const FaceTriple a = set.triple_for((M.transpose() * axis.L).normalized());
      axis.jA = a.j;
      axis.PA = a.P;
      axis.jB = b.j;
      axis.PB = b.P;
      axis.p = axis.L.dot(pose.translation);
      setup.axes.push_back(axis);
    }
  }
  return setup;
}

}  // namespace kdopcd
