#pragma once
// A quick exit for the commonest query, two objects far apart: whether the first axis of the
// root pair separates, decided from data each tree keeps for its root, before any axis set-up.
//
// The SAT projects a DOP onto an axis u (in the DOP's frame) through one face triple t of its
// maximal DOP (the one triple_for picks for u): the projection's ends are u . v_t and u . w_t,
// with v_t and w_t the points where the triple's three face planes, and the three opposite ones,
// meet at the DOP's coefficients. Whichever triple the set-up picks, those ends lie in
// [min u . v, max u . v] over the "pseudo-vertices" v of every vertex triple (the opposite
// triple of a vertex triple is one too). A tree works them out once for its root, so a query
// gets an interval holding the projected root's for the price of a few dot products. Where the
// first object's own interval on the first axis (its own direction 0) lies clear of it, by a
// margin above every rounding involved, the SAT test of that axis separates too: the pair test
// would return {separated, 1 axis}, and the query ends with exactly that verdict and count.
// docs/architecture.md ("A quick exit for separated roots") gives the error budget.
#include <cstddef>
#include <span>
#include <vector>

#include "kdopcd/orientations.hpp"
#include "kdopcd/vec.hpp"

namespace kdopcd {

// The pseudo-vertices of a DOP: one per vertex triple of its orientation set (duplicates
// dropped), as three coordinate arrays padded with copies of the first to a multiple of
// kRootVertexPadding (a whole number of SIMD vectors).
struct RootPseudoVertices {
  static constexpr std::size_t kRootVertexPadding = 8;
  std::vector<double> x, y, z;
  // max |v|_1 over the pseudo-vertices: the scale of their coordinates, for error margins.
  double magnitude = 0;
};
RootPseudoVertices make_root_pseudo_vertices(const OrientationSet& set, std::span<const double> coefficients);

// min and max of u . v over the pseudo-vertices, each dot product rounded (in any order).
struct ProjectionRange {
  double low, high;
};
ProjectionRange project_pseudo_vertices(const RootPseudoVertices& vertices, const Vec3& u);

}  // namespace kdopcd
