#pragma once
// Exact triangle-pair tests of several pairs at once, in SIMD lanes: the float query's triangle
// stage (collide()'s wide descent) collects its leaf pairs into batches and runs this before
// triangles_intersect, which then decides only the pairs left undecided here.
//
// Per lane it takes Guigue and Devillers' path for triangles in general position
// (guigue_devillers.hpp): the signs of each triangle's vertices against the other's plane, and
// for a pair that no plane separates, the canonical permutation and the two orientations of the
// interval test. Every sign comes from the double filters of filtered_predicates.hpp (Shewchuk's
// stage-A bounds, the same operations as PlaneFilter and orient3d_of_differences) and is used only
// where the filter certifies it as strictly positive or strictly negative. A lane is decided
// when the certified signs settle it:
//   - disjoint: all three vertices of one triangle strictly on one side of the other's plane, or
//     all six plane signs nonzero and the interval test's first orientation positive, or its first
//     negative and its second positive;
//   - intersecting: all six plane signs nonzero and both orientations negative.
// These are the decisions triangles_intersect takes from the same exact signs, so a decided lane
// is its answer. A sign that is zero or uncertified (a vertex on or near the other plane, an
// orientation near 0, coordinates outside the filters' range, a degenerate triangle) leaves the
// lane undecided: coplanar and degenerate pairs always go to triangles_intersect.
#include <cstdint>

namespace kdopcd {

// Pairs per batch. A kernel runs a batch in vectors of its own width (8 doubles with AVX-512,
// 4 with AVX2, 2 with SSE4).
inline constexpr int kTriangleLanes = 8;

// One batch of triangle pairs, coordinates in lanes: first[3 v + c][l] is coordinate c of vertex v
// (0, 1, 2: the triangle's corners in order) of pair l's first triangle, in the first object's
// frame; second[3 v + c][l] the same for the second triangle in the second object's own frame.
// The test writes placed[3 v + c][l], the second triangle's vertices placed in the first object's
// frame with the operations of place_vertex (so the same doubles), for the lanes it leaves to
// triangles_intersect. Only the first `count` lanes decide anything; the lanes past them up to the
// end of the last vector that holds one are read and computed too, so they should hold copies of
// a real pair (any finite values do).
struct TriangleLanes {
  alignas(64) double first[9][kTriangleLanes];
  alignas(64) double second[9][kTriangleLanes];
  alignas(64) double placed[9][kTriangleLanes];
};

struct TriangleLaneVerdicts {
  std::uint32_t decided = 0;       // bit l: pair l is decided
  std::uint32_t intersecting = 0;  // bit l: pair l intersects (set only where decided)
};

// R_row_major and t: the pose's matrix (pose.matrix(), row by row) and translation.
using TriangleLanesTest = TriangleLaneVerdicts (*)(TriangleLanes& pairs, int count, const double* R_row_major,
                                                   const double* t);
TriangleLanesTest triangle_lanes_test();  // fetch once, call per batch

}  // namespace kdopcd
