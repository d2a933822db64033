#pragma once
// The independent check of a reported first contact (docs/ccd.md, "Checks"): the discrete exact
// triangle test (triangles_intersect_exact, tri_tri_exact.hpp: no code shared with the continuous
// tests) on the meshes at t* - epsilon and at t* / t* + epsilon. The meshes at a time t are the
// positions x0 + t (x1 - x0) rounded to double, so epsilon must move the vertices by much more than
// that rounding (2^-52 of the coordinates): the default 1e-7 of the motion does, for any motion
// longer than about 1e-8 of the coordinates.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kdopcd/ccd/ccd_query.hpp"

namespace kdopcd::ccd {

inline constexpr double kBracketEpsilon = 1e-7;

struct Bracketing {
  // Triangle pairs (first's, second's; in self-collision two that share no vertex) intersecting
  // at t* - epsilon: there must be none when the motion starts free of intersections.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> before;
  // Reported contacts whose neighbouring triangles (every triangle with a vertex of either
  // feature) intersect neither at t* nor at t* + epsilon: there must be none.
  std::vector<FeatureContact> not_shown_after;
  bool ok() const { return before.empty() && not_shown_after.empty(); }
};

// `self`: a and b are the same mesh (then triangles that share a vertex are not compared).
Bracketing check_bracketing(const MovingMesh& a, const MovingMesh& b, bool self, const CcdResult& result,
                            double epsilon = kBracketEpsilon);

// The positions at time t: x0 + t (x1 - x0), each coordinate rounded once.
std::vector<Vec3> positions_at(const Motion& motion, double t);

// Every intersecting triangle pair of two static meshes (in self-collision: pairs sharing no
// vertex), found through swept-k-DOP trees of the static positions and decided by the exact test.
std::vector<std::pair<std::uint32_t, std::uint32_t>> intersecting_triangles(const Topology& ta, const std::vector<Vec3>& xa,
                                                                            const Topology& tb, const std::vector<Vec3>& xb,
                                                                            bool self);

}  // namespace kdopcd::ccd
