#pragma once
// How finely the fixed-point path resolves a scene (docs/fixed-point.md §9). Centring removes the
// objects' distance from the origin from the ranges; what is left is the scene's own dynamic
// range: the scene scale s (the larger object's centred extent) against the size of the
// triangles. Two numbers matter:
//   - the triangle unit's delta (triangle_delta(s, v, m)): contacts of pairs closer than delta
//     may differ from the exact answer. Warned about when delta > kDeltaEdgeFraction x the
//     shortest triangle edge of either mesh: the unit then blurs the smallest triangles' geometry.
//   - the fixed SAT's error bound s (r_max 2^(1-b) + 6 2^-c + 2^-z) (docs/fixed-point.md §6): how
//     far a quantized DOP may reach beyond the real one. It never loses a contact, but once it
//     exceeds kSatEdgeFraction x the typical (median) edge of either mesh the SAT can no longer
//     separate that object's triangles, and the traversal tests many more pairs (a few slivers
//     do not matter, so the median, not the shortest edge). Warned about with the smallest
//     b = c = z (--bits) that avoids it.
#include <string>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/mesh.hpp"

namespace kdopcd {

inline constexpr double kDeltaEdgeFraction = 1.0 / 16;  // delta above 1/16 of the shortest edge: warn
inline constexpr double kSatEdgeFraction = 1.0 / 4;     // SAT bound above 1/4 of the median edge: warn

// The shortest edge of any triangle of the mesh of non-zero length (0 if every edge has length 0).
double shortest_edge(const Mesh& mesh);
// The median length of the mesh's triangle edges (every edge of every triangle, counted once per
// triangle; 0 for no triangles).
double median_edge(const Mesh& mesh);

struct FixedPrecision {
  double scale = 0;            // s, scene_scale(first, second)
  double shortest_edge = 0;    // the shorter of the two meshes' shortest_edge() (non-zero ones)
  double median_edge = 0;      // the shorter of the two meshes' median_edge()
  double delta = 0;            // triangle_delta(s, tri)
  double sat_bound = 0;        // s (r_max 2^(1-b) + 6 2^-c + 2^-z), r_max of the trees' orientation set
  bool delta_too_large = false;  // delta > kDeltaEdgeFraction x shortest_edge
  bool sat_too_coarse = false;   // sat_bound > kSatEdgeFraction x median_edge
  int suggested_bits = 0;      // smallest n (b = c = z = n, n <= kMaxFixedBits) with the SAT bound
                               // <= kSatEdgeFraction x median_edge; 0 if even kMaxFixedBits is not
  int suggested_tri_bits = 0;  // smallest n (v = m = n, 2n <= kMaxTriangleFixedBits) with delta <=
                               // kDeltaEdgeFraction x shortest_edge; 0 if none
  std::vector<std::string> warnings;  // one line each, empty when the scene is resolved well
};

// The precision report of a query of `first` against `second` with SAT bits `bits` and triangle
// unit bits `tri` (both trees share k). Pose-independent.
FixedPrecision fixed_precision(const DopTree& first, const DopTree& second, const FixedParams& bits,
                               const TriangleFixedParams& tri = TriangleFixedParams{});

}  // namespace kdopcd
