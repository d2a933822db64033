#pragma once
// Per-query SAT set-up (paper §4.1, docs/design.md §2), computed once per pose in double precision.
//
// Axis order (documented; the hardware issues axes in this order): for i = 0 .. k/2-1, axis 2i is
// the first object's face normal D_i and axis 2i+1 is the placed second object's face normal
// M D_i. So any prefix of n axes samples both objects' face normals evenly, starting with the
// coordinate axes (the most selective ones for typical meshes).
#include <array>
#include <vector>

#include "kdopcd/orientations.hpp"
#include "kdopcd/pose.hpp"

namespace kdopcd {

struct AxisSetup {
  Vec3 L;                     // unit axis in the first object's frame
  std::array<int, 3> jA{};    // face triple of the second object ("A"), its P_A
  std::array<double, 3> PA{};
  std::array<int, 3> jB{};    // face triple of the first object ("B"), its P_B
  std::array<double, 3> PB{};
  double p = 0;               // L . T
};

struct SatSetup {
  int k = 0;
  std::vector<AxisSetup> axes;  // k axes in the order above
};

SatSetup make_sat_setup(const OrientationSet& set, const Pose& pose);

// Axis `axis_index` of the set-up alone (M = pose.matrix(), T = pose.translation), so that a
// query can compute only the axes it reaches; make_sat_setup is this for every axis.
AxisSetup make_axis_setup(const OrientationSet& set, const Mat3& M, const Vec3& T, int axis_index);

// The part of make_axis_setup that depends on the rotation and is not fixed by the set: the
// axis L and the face triple of the object projected onto it (the second object's for an even
// axis, the first object's for an odd one). The owning object's triple is always
// set.own_direction_triple(axis_index / 2), and p = L . T. make_axis_setup is built on this, so
// a query that wants its axes in another form (collide()'s float and fixed axes) makes them from
// the same L and triple without an AxisSetup in between.
struct ProjectedTriple {
  Vec3 L;
  FaceTriple triple;
};
inline ProjectedTriple make_projected_triple(const OrientationSet& set, const Mat3& M, int axis_index) {
  const int i = axis_index / 2;
  if (axis_index % 2 == 0) {  // the first object's own direction; the second object projected
    const Vec3& L = set.direction(i);
    return {L, set.triple_for((M.transpose() * L).normalized())};
  }
  const Vec3 L = (M * set.direction(i)).normalized();  // the second object's; the first projected
  return {L, set.triple_for(L)};
}

}  // namespace kdopcd
