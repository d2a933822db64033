#include "kdopcd/sat_setup.hpp"

#include "kdopcd/query_setup.hpp"

namespace kdopcd {
namespace {

// make_axis_geometry of a host matrix, with its failure thrown.
DoubleAxis axis_geometry(const OrientationSet& set, const Mat3& M, int axis_index) {
  const double m[9] = {M(0, 0), M(0, 1), M(0, 2), M(1, 0), M(1, 1), M(1, 2), M(2, 0), M(2, 1), M(2, 2)};
  DoubleAxis axis;
  const SetupStatus status = make_axis_geometry(set.view(), m, axis_index, axis);
  if (status != SetupStatus::Ok) throw_setup_status(status, "make_axis_setup");
  return axis;
}

}  // namespace

ProjectedTriple make_projected_triple(const OrientationSet& set, const Mat3& M, int axis_index) {
  const DoubleAxis axis = axis_geometry(set, M, axis_index);
  const bool own_first = axis_index % 2 == 0;  // then the second object ("A") is projected
  ProjectedTriple out{Vec3(axis.L[0], axis.L[1], axis.L[2]), {}};
  for (int c = 0; c < 3; ++c) {
    out.triple.j[std::size_t(c)] = own_first ? axis.jA[c] : axis.jB[c];
    out.triple.P[std::size_t(c)] = own_first ? axis.PA[c] : axis.PB[c];
  }
  return out;
}

AxisSetup make_axis_setup(const OrientationSet& set, const Mat3& M, const Vec3& T, int axis_index) {
  DoubleAxis axis = axis_geometry(set, M, axis_index);
  axis.p = axis_offset(axis.L, T.data());
  return to_axis_setup(axis);
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
