#pragma once
// Slow, independent reference for triangles_intersect (tri_tri.hpp): the same question (do two
// closed triangles, possibly degenerate, share a point?) answered in exact rational arithmetic
// (coordinates converted exactly by boost::multiprecision::cpp_rational, then kept as cpp_int
// fractions) by a different method: explicit barycentric and parametric solutions instead of
// orientation signs. It shares no code with the fast path, so tests and brute-force checks can
// use it as the ground truth. About 20 us per pair. Coordinates must be finite (else
// std::domain_error).
#include "kdopcd/vec.hpp"

namespace kdopcd {

bool triangles_intersect_exact(const Vec3& p0, const Vec3& p1, const Vec3& p2,  //
                               const Vec3& q0, const Vec3& q1, const Vec3& q2);

}  // namespace kdopcd
