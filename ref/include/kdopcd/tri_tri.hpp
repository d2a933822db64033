#pragma once
// Triangle-triangle intersection test with an exact answer for the given double coordinates.
//
// Triangles are closed point sets: touching counts (shared vertex, shared edge, a vertex on the
// other's face or edge, coplanar overlap or contact). Degenerate triangles (collinear or repeated
// vertices) are tested as the segment or point they are. Coordinates must be finite.
// Algorithm: Guigue & Devillers (2003) on exact orientation predicates (kdopcd/predicates.hpp);
// see ref/include/kdopcd/guigue_devillers.hpp for why every case is exact. tri_tri_exact.hpp is the independent slow check.
#include "kdopcd/vec.hpp"

namespace kdopcd {

bool triangles_intersect(const Vec3& p0, const Vec3& p1, const Vec3& p2,  //
                         const Vec3& q0, const Vec3& q1, const Vec3& q2);

}  // namespace kdopcd
