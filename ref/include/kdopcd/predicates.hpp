#pragma once
// Exact orientation predicates on double coordinates.
//
// Each predicate returns the EXACT sign (-1, 0, +1) of a determinant of the given doubles, as if
// it were evaluated in infinite precision. A floating-point filter (Shewchuk's static error
// bound times the permanent, "stage A" of his adaptive predicates) answers almost every call;
// when the filter cannot certify the sign, the determinant is recomputed in exact integer
// arithmetic (boost::multiprecision::cpp_int on the doubles scaled to a common exponent).
//
// Inputs must be finite; a NaN or infinity throws std::domain_error (it has no exact sign).
// All functions are thread-safe; the fallback counters are relaxed atomics.
#include <array>
#include <cstdint>

#include "kdopcd/vec.hpp"

namespace kdopcd {

// Sign of det[b-a, c-a, d-a] = (b-a) . ((c-a) x (d-a)).
// Positive when d lies on the side of plane (a,b,c) that (b-a) x (c-a) points to, i.e. above the
// plane when a,b,c are counter-clockwise seen from above (Guigue-Devillers' convention; it is
// the negative of Shewchuk's orient3d(a,b,c,d)).
int orient3d_sign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

// orient3d_sign(a, b, c, d[i]) of three points against one plane: the same exact signs, with the
// plane's two differences, their range check and cross product made once (a triangle test asks
// for its three vertices against the other triangle's plane, twice).
std::array<int, 3> orient3d_signs(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d0, const Vec3& d1,
                                  const Vec3& d2);

// Sign of (b-a) x (c-a) in the plane: +1 when a,b,c are counter-clockwise.
int orient2d_sign(double ax, double ay, double bx, double by, double cx, double cy);

// The same determinants, always evaluated in exact arithmetic (no filter, no counter).
// Tests compare the filtered predicates with these.
int orient3d_sign_exact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);
int orient2d_sign_exact(double ax, double ay, double bx, double by, double cx, double cy);

// How often the filtered predicates fell back to exact arithmetic since the program started
// (or since reset). A test hook: it proves that near-degenerate inputs really take the slow path.
struct PredicateCounters {
  std::uint64_t orient2d_exact = 0;
  std::uint64_t orient3d_exact = 0;
};
PredicateCounters predicate_counters();
void reset_predicate_counters();

}  // namespace kdopcd
