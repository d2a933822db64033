#pragma once
// Per-query SAT set-up (paper §4.1, docs/design.md §2), computed once per pose in double precision.
//
// Axis order (documented; the hardware issues axes in this order): for i = 0 .. k/2-1, axis 2i is
// the first object's face normal D_i and axis 2i+1 is the placed second object's face normal
// M D_i. So any prefix of n axes samples both objects' face normals evenly, starting with the
// coordinate axes (the most selective ones for typical meshes).
#include <array>
#include <cstdint>
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

// The float set-up of a pose in host form; the axes are make_query_axis's (query_setup.hpp), the
// one set-up code that the host and the CUDA device share. For the fixed-point SAT with the
// triangle unit, make_query_setup gives the whole set-up of a query (integer axis table, M', T').
SatSetup make_sat_setup(const OrientationSet& set, const Pose& pose);

// Axis `axis_index` of the set-up alone (M = pose.matrix(), T = pose.translation), so that a
// query can compute only the axes it reaches; make_sat_setup is this for every axis. Throws
// std::logic_error where the orientation set finds no face triple (a non-finite rotation).
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
// Even axis 2i: L = D_i and the triple of u = M^T D_i / |M^T D_i|; odd axis 2i + 1: L = u =
// M D_i / |M D_i| and its triple (triple_for): make_axis_geometry (query_setup.hpp), whose
// products and normalization keep the order of operations Eigen 3.4 took when the set-up was
// first written, whatever Eigen, vectorization or contraction a build has.
ProjectedTriple make_projected_triple(const OrientationSet& set, const Mat3& M, int axis_index);
// make_projected_triple's values for a query's axes in SIMD lanes, by parity: lane e of parity q
// is axis 2e + q. u is the unit vector the triple is found for (M^T D_e normalized for even axes,
// whose L is D_e; the axis L = M D_e normalized itself for odd ones), j and P the triple. Made on
// request, bit for bit make_projected_triple's: the directions and cube-map cells of a block of
// kBlock lanes of both parities at once in SIMD lanes (the first request of a query makes those of
// axes 0 .. 7), each axis's triple when it is asked for. A query that gets past its root pair
// needs every axis, and making them one by one was about half of a small-proximity query.
// Nothing is initialized before it is made: a query that never asks pays nothing.
class ProjectedTripleLanes {
 public:
  static constexpr int kLanes = OrientationSet::kDirectionLanes;
  static constexpr int kBlock = 4;

  // Axis i (i < k), if not made yet. M is the query's (the same on every call).
  void make(const OrientationSet& set, const Mat3& M, int i) {
    if (!(axes_ >> i & 1u)) make_axis(set, M, i);
  }
  // Axes [0, n), and j = 0, P = 0 in every lane past them (u of a zero direction): then every
  // lane may be read.
  void make_all(const OrientationSet& set, const Mat3& M, int n);
  // Axis i's L (made).
  Vec3 L(const OrientationSet& set, int i) const {
    const int e = i / 2;
    return i % 2 == 0 ? set.direction(e) : Vec3(u[1][0][e], u[1][1][e], u[1][2][e]);
  }

  // The cube-map cell an axis's triple was looked up in (OrientationSet::cube_cell of its u).
  int cell(int parity, int e) const { return int(cells_[parity][e]); }

  alignas(64) double u[2][3][kLanes];
  alignas(64) std::int64_t j[2][3][kLanes];
  alignas(64) double P[2][3][kLanes];

 private:
  void make_axis(const OrientationSet& set, const Mat3& M, int i);
  void search(const OrientationSet& set, int parity, int e);
  void make_blocks(const OrientationSet& set, const Mat3& M, int begin, int end);  // blocks [begin, end)
  alignas(64) double cells_[2][kLanes];  // OrientationSet::cube_cell of u (as doubles)
  std::uint32_t blocks_ = 0;  // bit b: u and cells of lanes [b kBlock, (b + 1) kBlock) are made
  std::uint32_t axes_ = 0;    // bit i: axis i's j and P are made
};

}  // namespace kdopcd
